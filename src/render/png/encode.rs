//! PNG files: encoding an image (RGB when opaque), decoding one, and render-and-encode in one
//! call.

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

/// Encodes an image as PNG: RGB when it is opaque, RGBA otherwise.
pub fn encode_png_with(image: &RgbaImage, compression: Compression) -> Result<Vec<u8>, PngError> {
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, image.width(), image.height());
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

/// Decodes PNG bytes into RGBA pixels.
pub fn decode_png(bytes: &[u8]) -> Result<RgbaImage, PngError> {
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .map(|i| i.to_rgba8())
        .map_err(|e| PngError::Image(format!("not a readable PNG: {e}")))
}

/// Renders `screen` with `options` and `decorations` and encodes it as PNG.
pub fn render_png(
    screen: &Screen,
    options: &PngOptions,
    decorations: &Decorations,
) -> Result<Vec<u8>, PngError> {
    let mut renderer = Renderer::new(options.clone())?;
    let image = renderer.render_decorated(screen, decorations)?;
    encode_png(&image)
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
}
