//! PNG files: encoding an image (RGB when opaque), decoding one, and render-and-encode in one
//! call. A PNG tuicast draws records the fonts that drew it in a `tEXt` chunk ([`FONTS_KEY`]),
//! so a golden that stops matching can say when the fonts changed.

use image::RgbaImage;

use super::error::PngError;
use super::options::{Decorations, PngOptions};
use super::renderer::Renderer;
use crate::term::Screen;

/// How hard PNG encoding compresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Compression {
    /// Smaller files (zlib level 6, adaptive filters): for files people keep, such as goldens
    /// and screenshots. The default.
    #[default]
    Small,
    /// About ten times faster, files about one and a half to two times larger (fdeflate).
    Fast,
}

/// Encodes an image as PNG with [`Compression::Small`]: RGB when it is opaque, RGBA otherwise.
pub fn encode_png(image: &RgbaImage) -> Result<Vec<u8>, PngError> {
    encode_png_with(image, Compression::Small)
}

/// The keyword of the PNG `tEXt` chunk that lists the fonts a picture was drawn with, one a
/// line (as [`Renderer::fonts_used`] names them).
pub const FONTS_KEY: &str = "tuicast:fonts";

/// Fonts recorded in a PNG, at most; the rest are left out.
const MAX_FONTS_RECORDED: usize = 64;
/// Characters of one font's name recorded, at most.
const MAX_FONT_NAME: usize = 200;

/// Encodes an image as PNG: RGB when it is opaque, RGBA otherwise.
pub fn encode_png_with(image: &RgbaImage, compression: Compression) -> Result<Vec<u8>, PngError> {
    encode_png_with_fonts(image, compression, &[])
}

/// Encodes an image as PNG like [`encode_png_with`], recording `fonts` (the names of the fonts
/// that drew it, [`Renderer::fonts_used`]) in a `tEXt` chunk [`FONTS_KEY`], one a line, when
/// there are any. `tEXt` is Latin-1: other characters, and controls, are written as `?`; at
/// most 64 names of 200 characters each are kept.
pub fn encode_png_with_fonts(
    image: &RgbaImage,
    compression: Compression,
    fonts: &[String],
) -> Result<Vec<u8>, PngError> {
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, image.width(), image.height());
    if !fonts.is_empty() {
        let text = fonts
            .iter()
            .take(MAX_FONTS_RECORDED)
            .map(|f| latin1_line(f))
            .collect::<Vec<_>>()
            .join("\n");
        encoder
            .add_text_chunk(FONTS_KEY.to_string(), text)
            .map_err(|e| PngError::Image(e.to_string()))?;
    }
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_deflate_compression(match compression {
        Compression::Small => ::png::DeflateCompression::Level(6),
        Compression::Fast => ::png::DeflateCompression::FdeflateUltraFast,
    });
    encoder.set_filter(::png::Filter::Adaptive);
    let opaque = image.as_raw().chunks_exact(4).all(|p| p[3] == 255);
    let err = |e: ::png::EncodingError| PngError::Image(e.to_string());
    if opaque {
        encoder.set_color(::png::ColorType::Rgb);
        let rgb: Vec<u8> = image
            .as_raw()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        let mut writer = encoder.write_header().map_err(err)?;
        writer.write_image_data(&rgb).map_err(err)?;
        writer.finish().map_err(err)?;
    } else {
        encoder.set_color(::png::ColorType::Rgba);
        let mut writer = encoder.write_header().map_err(err)?;
        writer.write_image_data(image.as_raw()).map_err(err)?;
        writer.finish().map_err(err)?;
    }
    Ok(out)
}

/// The width and height a PNG declares in its header (IHDR), read without decoding: a small
/// file may decode to gigabytes of pixels, so a size is compared before anything is decoded.
pub fn png_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || !bytes.starts_with(SIGNATURE) || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let word = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    Some((word(16), word(20)))
}

/// The fonts a PNG records in its [`FONTS_KEY`] `tEXt` chunk (one a line), read without
/// decoding the image; `None` when it records none (a PNG from an older tuicast or another
/// program) or is no PNG.
pub fn png_fonts(bytes: &[u8]) -> Option<String> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if !bytes.starts_with(SIGNATURE) {
        return None;
    }
    let mut at = SIGNATURE.len();
    // Chunks: length, type, data, CRC. The text chunks of interest come before the image data.
    while let Some(head) = bytes.get(at..at + 8) {
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let kind = &head[4..8];
        let data = bytes.get(at + 8..(at + 8).checked_add(len)?)?;
        match kind {
            b"IDAT" | b"IEND" => return None,
            b"tEXt" => {
                if let Some(text) = data
                    .strip_prefix(FONTS_KEY.as_bytes())
                    .and_then(|rest| rest.strip_prefix(b"\0"))
                {
                    // Latin-1: every byte is the code point of its value.
                    return Some(text.iter().map(|&b| b as char).collect());
                }
            }
            _ => {}
        }
        at = at + 12 + len;
    }
    None
}

/// `text` as one line of Latin-1 printable characters, at most [`MAX_FONT_NAME`] of them.
fn latin1_line(text: &str) -> String {
    text.chars()
        .take(MAX_FONT_NAME)
        .map(|c| {
            if (c as u32) < 0x100 && !c.is_control() {
                c
            } else {
                '?'
            }
        })
        .collect()
}

/// Decodes PNG bytes into RGBA pixels.
pub fn decode_png(bytes: &[u8]) -> Result<RgbaImage, PngError> {
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .map(|i| i.to_rgba8())
        .map_err(|e| PngError::Image(format!("not a readable PNG: {e}")))
}

/// Renders `screen` with `options` and `decorations` and encodes it as PNG, recording the
/// fonts that drew it ([`FONTS_KEY`]).
pub fn render_png(
    screen: &Screen,
    options: &PngOptions,
    decorations: &Decorations,
) -> Result<Vec<u8>, PngError> {
    let mut renderer = Renderer::new(options.clone())?;
    let image = renderer.render_decorated(screen, decorations)?;
    encode_png_with_fonts(&image, Compression::Small, &renderer.fonts_used())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_images_decode_to_the_same_pixels() {
        let mut image = RgbaImage::from_pixel(3, 2, image::Rgba([1, 2, 3, 255]));
        for compression in [Compression::Small, Compression::Fast] {
            let bytes = encode_png_with(&image, compression).unwrap();
            assert_eq!(decode_png(&bytes).unwrap(), image);
        }
        image.put_pixel(1, 1, image::Rgba([9, 8, 7, 100]));
        assert_eq!(decode_png(&encode_png(&image).unwrap()).unwrap(), image);
        assert!(decode_png(b"nope").is_err());
        let bytes = encode_png(&image).unwrap();
        assert_eq!(png_dimensions(&bytes), Some(image.dimensions()));
        assert_eq!(png_dimensions(b"nope"), None);
    }

    #[test]
    fn the_fonts_are_recorded_in_a_text_chunk() {
        let image = RgbaImage::from_pixel(3, 2, image::Rgba([1, 2, 3, 255]));
        let plain = encode_png(&image).unwrap();
        assert_eq!(png_fonts(&plain), None);
        let fonts = vec![
            "DejaVu Sans Mono, Version 2.37 (bundled)".to_string(),
            "日本\u{7}x".into(),
        ];
        let bytes = encode_png_with_fonts(&image, Compression::Fast, &fonts).unwrap();
        assert_eq!(
            png_fonts(&bytes).as_deref(),
            Some("DejaVu Sans Mono, Version 2.37 (bundled)\n???x")
        );
        assert_eq!(
            decode_png(&bytes).unwrap(),
            image,
            "the pixels are the same"
        );
        // Cut short or not a PNG: nothing, and no panic.
        for n in 0..bytes.len() {
            let _ = png_fonts(&bytes[..n]);
        }
        assert_eq!(png_fonts(b"nope"), None);
        let screen = crate::term::test_screen(crate::term::Size { cols: 4, rows: 1 }, "ab");
        let drawn = render_png(&screen, &PngOptions::default(), &Decorations::default()).unwrap();
        assert_eq!(
            png_fonts(&drawn).as_deref(),
            Some("DejaVu Sans Mono, Version 2.37 (bundled)")
        );
    }
}
