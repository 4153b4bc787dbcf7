//! An animated PNG from timed screens: `(seconds, screen)` frames, as `replay::frames` makes
//! them from a cast, in full colour.
//!
//! The pictures are the GIF's ([`super::gif::Pictures`]: each frame after the first is the
//! rectangle that changed, drawn row by row), kept whole: an APNG is lossless. It is written
//! at the end, since its header says how many frames follow: the frames wait in memory (at
//! most [`MAX_APNG_BYTES`]). When the whole animation has at most 256 colours (a terminal
//! without anti-aliased text in many colours, the usual case) it is written with one
//! palette, exactly, else as RGB. In a frame's rectangle the pixels that did not change are
//! one colour the animation does not use, made transparent (`tRNS`), and the frame is
//! blended over the one before: a long run of one value compresses to almost nothing, as the
//! GIF's unchanged pixels do. Unfiltered rows compress best here (measured on the project's
//! casts: a third smaller than adaptive filters; the best of none, `Up`, `Paeth` and adaptive
//! tried for each frame made the same bytes on five casts), with the strongest level of
//! the deflate the `png` crate uses (miniz_oxide's 10: 2.4–2.7 % smaller than 9). Each frame
//! is already the bounding box of the pixels that changed. Delays are whole milliseconds from
//! rounded absolute times (at least 20 ms, as a GIF's).

use std::collections::HashMap;
use std::io::Write;

use super::gif::{animation_layout, GifOptions, GifStats, Pictures};
use super::{PngError, Renderer};
use crate::term::{Screen, Size};

/// The most bytes of pixels an APNG's frames may hold while they wait to be written (the
/// rectangles that changed, 4 bytes a pixel): 512 MiB.
pub const MAX_APNG_BYTES: usize = 512 << 20;

/// Writes an animated PNG: [`ApngEncoder::add_frame`] for each screen in time order, then
/// [`ApngEncoder::finish`].
///
/// ```
/// use tuicast::render::png::{ApngEncoder, GifOptions, PngOptions, Renderer};
/// use tuicast::size::Size;
/// use tuicast::term::EngineKind;
///
/// let size = Size { cols: 10, rows: 1 };
/// let mut engine = EngineKind::Native.create(size);
/// let mut renderer = Renderer::new(PngOptions::default())?;
/// let mut apng = ApngEncoder::new(&mut renderer, size, &GifOptions::default(), Vec::new())?;
/// for (i, word) in ["one ", "two"].iter().enumerate() {
///     engine.feed(word);
///     apng.add_frame(i as f64 * 0.5, &engine.screen())?;
/// }
/// let (stats, bytes) = apng.finish()?;
/// assert_eq!((stats.frames, stats.duration), (2, 3.5));
/// assert!(bytes.starts_with(b"\x89PNG"));
/// # Ok::<(), tuicast::render::png::PngError>(())
/// ```
pub struct ApngEncoder<'r, W: Write> {
    pictures: Pictures<'r>,
    options: GifOptions,
    frames: Vec<Frame>,
    /// The picture shown after the last frame, RGBA: what a frame's pixels are compared with.
    shown: Vec<u8>,
    bytes: usize,
    /// [`MAX_APNG_BYTES`] (lower in a test).
    max_bytes: usize,
    out: W,
}

impl<W: Write> std::fmt::Debug for ApngEncoder<'_, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApngEncoder")
            .field("layout", &self.pictures.layout)
            .field("frames", &self.frames.len())
            .finish_non_exhaustive()
    }
}

/// A frame waiting to be written: from when, where, and its RGBA pixels row by row (alpha 0
/// for a pixel that did not change, 255 for the others).
struct Frame {
    time: f64,
    rect: (u32, u32, u32, u32),
    rgba: Vec<u8>,
}

impl<'r, W: Write> ApngEncoder<'r, W> {
    /// An animation of terminals up to `size` (the largest screen it shows; for a cast,
    /// `replay::largest_size`) drawn by `renderer`, to be written to `out`.
    pub fn new(
        renderer: &'r mut Renderer,
        size: Size,
        options: &GifOptions,
        out: W,
    ) -> Result<Self, PngError> {
        options.check()?;
        let layout = animation_layout(renderer, size)?;
        Ok(ApngEncoder {
            pictures: Pictures::new(renderer, layout),
            options: options.clone(),
            frames: Vec::new(),
            shown: Vec::new(),
            bytes: 0,
            max_bytes: MAX_APNG_BYTES,
            out,
        })
    }

    /// Shows `screen` from `time` seconds on. Times should not decrease (a frame shown for
    /// less than 20 ms lasts 20 ms); a frame that looks like the one before is merged into it.
    pub fn add_frame(&mut self, time: f64, screen: &Screen) -> Result<(), PngError> {
        if !time.is_finite() {
            return Err(PngError::Option(format!(
                "a frame's time must be a number of seconds (got {time})"
            )));
        }
        let Some(((x, y, w, h), image)) = self.pictures.next(screen)? else {
            return Ok(());
        };
        self.bytes += (w * h * 4) as usize;
        if self.bytes > self.max_bytes {
            return Err(PngError::Option(format!(
                "the APNG's frames would hold more than {} MiB of pixels; make a GIF, or \
                 animate a part of the cast (--from, --to)",
                self.max_bytes >> 20
            )));
        }
        let stride = image.width() as usize * 4;
        let mut rgba = Vec::with_capacity((w * h * 4) as usize);
        if self.shown.len() != image.as_raw().len() {
            // The first frame: all of it.
            self.shown = image.as_raw().clone();
            for row in y..y + h {
                let start = row as usize * stride + x as usize * 4;
                rgba.extend_from_slice(&image.as_raw()[start..start + w as usize * 4]);
            }
        } else {
            for row in y..y + h {
                let start = row as usize * stride + x as usize * 4;
                let span = start..start + w as usize * 4;
                let new = &image.as_raw()[span.clone()];
                for (before, now) in self.shown[span.clone()]
                    .chunks_exact(4)
                    .zip(new.chunks_exact(4))
                {
                    rgba.extend_from_slice(if before == now { &[0; 4] } else { now });
                }
                self.shown[span].copy_from_slice(new);
            }
        }
        self.frames.push(Frame {
            time,
            rect: (x, y, w, h),
            rgba,
        });
        Ok(())
    }

    /// Writes the animation, the last frame held for the options' `last_frame`; returns what
    /// was made and the writer. An animation needs at least one frame.
    pub fn finish(mut self) -> Result<(GifStats, W), PngError> {
        let Some(last) = self.frames.last().map(|f| f.time) else {
            return Err(PngError::Option(
                "an animation needs at least one frame".into(),
            ));
        };
        let end = last + self.options.last_frame;
        let (width, height) = (self.pictures.layout.width, self.pictures.layout.height);
        let err = |e: ::png::EncodingError| match e {
            ::png::EncodingError::IoError(e) => PngError::Io(e),
            e => PngError::Image(format!("APNG: {e}")),
        };
        let colors = Colors::of(&self.frames);
        let mut encoder = ::png::Encoder::new(&mut self.out, width, height);
        encoder.set_depth(::png::BitDepth::Eight);
        // miniz_oxide's strongest level (bounded: no more passes than level 9's matcher).
        encoder.set_deflate_compression(::png::DeflateCompression::Level(10));
        encoder.set_filter(::png::Filter::NoFilter);
        match &colors {
            Colors::Palette { colors, .. } => {
                encoder.set_color(::png::ColorType::Indexed);
                encoder.set_palette(colors.clone());
                // The last entry is the transparent one (of unchanged pixels).
                let mut alpha = vec![255u8; colors.len() / 3];
                if let Some(a) = alpha.last_mut() {
                    *a = 0;
                }
                encoder.set_trns(alpha);
            }
            Colors::Rgb { unused } => {
                encoder.set_color(::png::ColorType::Rgb);
                let [r, g, b] = *unused;
                encoder.set_trns(vec![0, r, 0, g, 0, b]);
            }
        }
        let plays = if self.options.repeat { 0 } else { 1 };
        encoder
            .set_animated(self.frames.len() as u32, plays)
            .map_err(err)?;
        let mut writer = encoder.write_header().map_err(err)?;
        let ms = |t: f64| (t * 1000.0).round();
        for (i, frame) in self.frames.iter().enumerate() {
            let until = self.frames.get(i + 1).map_or(end, |f| f.time);
            let span = ms(until) - ms(frame.time);
            // A NaN (inf - inf from an endless last frame) is the longest delay.
            let span = if span.is_nan() { f64::MAX } else { span };
            let span = span.max(20.0);
            let (num, den) = if span <= f64::from(u16::MAX) {
                (span as u16, 1000)
            } else {
                ((span / 10.0).round().min(f64::from(u16::MAX)) as u16, 100)
            };
            let (x, y, w, h) = frame.rect;
            writer.reset_frame_position().map_err(err)?;
            writer.set_frame_dimension(w, h).map_err(err)?;
            writer.set_frame_position(x, y).map_err(err)?;
            writer.set_frame_delay(num, den).map_err(err)?;
            writer.set_dispose_op(::png::DisposeOp::None).map_err(err)?;
            let blend = if i == 0 {
                ::png::BlendOp::Source
            } else {
                ::png::BlendOp::Over
            };
            writer.set_blend_op(blend).map_err(err)?;
            let data: Vec<u8> = match &colors {
                Colors::Palette { index, colors } => {
                    let clear = (colors.len() / 3 - 1) as u8;
                    frame
                        .rgba
                        .chunks_exact(4)
                        .map(|p| if p[3] == 0 { clear } else { index[&key(p)] })
                        .collect()
                }
                Colors::Rgb { unused } => frame
                    .rgba
                    .chunks_exact(4)
                    .flat_map(|p| {
                        if p[3] == 0 {
                            *unused
                        } else {
                            [p[0], p[1], p[2]]
                        }
                    })
                    .collect(),
            };
            writer.write_image_data(&data).map_err(err)?;
        }
        writer.finish().map_err(err)?;
        Ok((
            GifStats {
                frames: self.frames.len(),
                duration: end,
                width,
                height,
            },
            self.out,
        ))
    }
}

/// A pixel's colour as one number.
fn key(p: &[u8]) -> u32 {
    u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2])
}

/// How an APNG's pixels are written.
enum Colors {
    /// Indices into `colors` (RGB triples in order of first use, the last one the
    /// transparent colour of unchanged pixels).
    Palette {
        colors: Vec<u8>,
        index: HashMap<u32, u8>,
    },
    /// RGB, unchanged pixels as `unused`, a colour no frame has.
    Rgb { unused: [u8; 3] },
}

impl Colors {
    /// A palette when every frame's colours and the transparent one are at most 256, else
    /// RGB.
    fn of(frames: &[Frame]) -> Colors {
        let mut index: HashMap<u32, u8> = HashMap::new();
        let mut used: std::collections::HashSet<u32> = std::collections::HashSet::new();
        let mut colors = Vec::new();
        let mut last = u32::MAX;
        for p in frames.iter().flat_map(|f| f.rgba.chunks_exact(4)) {
            let k = key(p);
            if p[3] == 0 || k == last || used.contains(&k) {
                last = k;
                continue;
            }
            used.insert(k);
            if used.len() < 256 {
                index.insert(k, index.len() as u8);
                colors.extend_from_slice(&p[..3]);
            }
            last = k;
        }
        if used.len() < 256 {
            colors.extend_from_slice(&[0, 0, 0]);
            return Colors::Palette { colors, index };
        }
        // The first colour, counting up from black, that no pixel has.
        let unused = (0u32..)
            .find(|k| !used.contains(k))
            .expect("fewer colours are used than there are");
        Colors::Rgb {
            unused: [(unused >> 16) as u8, (unused >> 8) as u8, unused as u8],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::png::PngOptions;
    use crate::term::EngineKind;

    /// Decodes an APNG into its frames' pictures as a viewer shows them (each frame blended
    /// over the one before) with their delays in milliseconds.
    fn play(bytes: &[u8]) -> Vec<(image::RgbaImage, u32)> {
        let mut decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(::png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let (w, h) = (reader.info().width, reader.info().height);
        let frames = reader.info().animation_control().unwrap().num_frames;
        let mut canvas = image::RgbaImage::new(w, h);
        let mut out = Vec::new();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        for _ in 0..frames {
            let info = reader.next_frame(&mut buf).unwrap();
            let fc = *reader.info().frame_control().unwrap();
            let channels = info.color_type.samples();
            for row in 0..fc.height {
                for col in 0..fc.width {
                    let i = (row * fc.width + col) as usize * channels;
                    let px = &buf[i..i + channels];
                    if channels == 4 && px[3] == 0 {
                        continue; // blended over: the pixel before stays
                    }
                    canvas.put_pixel(
                        fc.x_offset + col,
                        fc.y_offset + row,
                        image::Rgba([px[0], px[1], px[2], 255]),
                    );
                }
            }
            let ms = u32::from(fc.delay_num) * 1000 / u32::from(fc.delay_den.max(1));
            out.push((canvas.clone(), ms));
        }
        out
    }

    /// Every frame, decoded and laid over the ones before, is the picture of its screen
    /// drawn whole, with its delay; the repeated screen is merged.
    #[test]
    fn every_frame_is_its_screens_picture() {
        let size = Size { cols: 12, rows: 4 };
        let mut engine = EngineKind::Native.create(size);
        let mut frames = Vec::new();
        for (t, step) in [
            (0.0, "hello"),
            (0.5, "\r\n\x1b[38;2;10;200;30mgreen\x1b[0m ┌─┐"),
            (0.75, ""),
            (1.25, "\x1b[2;1H\x1b[7m!\x1b[0m"),
        ] {
            engine.feed(step);
            frames.push((t, engine.screen()));
        }
        let mut renderer = Renderer::new(PngOptions::default()).unwrap();
        let options = GifOptions::default().last_frame(1.0);
        let mut apng = ApngEncoder::new(&mut renderer, size, &options, Vec::new()).unwrap();
        for (t, s) in &frames {
            apng.add_frame(*t, s).unwrap();
        }
        let (stats, bytes) = apng.finish().unwrap();
        assert_eq!((stats.frames, stats.duration), (3, 2.25));
        let played = play(&bytes);
        let delays: Vec<u32> = played.iter().map(|p| p.1).collect();
        assert_eq!(delays, [500, 750, 1000]);
        for ((picture, _), i) in played.iter().zip([0, 1, 3]) {
            let whole = renderer.render(&frames[i].1).unwrap();
            assert!(*picture == whole, "frame of screen {i} differs");
        }
    }

    /// Frames past the limit of pixels waiting are an error, not an allocation.
    #[test]
    fn frames_past_the_limit_are_refused() {
        let size = Size { cols: 80, rows: 24 };
        let mut engine = EngineKind::Native.create(size);
        let mut renderer = Renderer::new(PngOptions::default()).unwrap();
        let mut apng =
            ApngEncoder::new(&mut renderer, size, &GifOptions::default(), Vec::new()).unwrap();
        apng.max_bytes = 4 << 20;
        let mut error = None;
        for i in 0..100 {
            engine.feed(&format!(
                "\x1b[2J\x1b[H{}",
                "x".repeat(i % 7 + 1).repeat(200)
            ));
            if let Err(e) = apng.add_frame(i as f64, &engine.screen()) {
                error = Some(e.to_string());
                break;
            }
        }
        let error = error.expect("an error before 100 whole frames");
        assert!(error.contains("more than 4 MiB of pixels"), "{error}");
    }

    #[test]
    fn fewer_than_256_colours_are_a_palette_and_more_rgb() {
        let frame = |n: u32| Frame {
            time: 0.0,
            rect: (0, 0, n, 1),
            rgba: (0..n)
                .flat_map(|i| [i as u8, (i >> 8) as u8, 0, 255])
                .chain([9, 9, 9, 0])
                .collect(),
        };
        let Colors::Palette { colors, index } = Colors::of(&[frame(255)]) else {
            panic!("255 colours and the transparent one fit a palette");
        };
        assert_eq!((colors.len(), index[&key(&[254, 0, 0])]), (768, 254));
        let Colors::Rgb { unused } = Colors::of(&[frame(300)]) else {
            panic!("300 colours are RGB");
        };
        assert_eq!(unused, [0, 0, 1], "the first colour no pixel has");
    }

    /// An animation in more than 256 colours (a gradient of truecolour backgrounds) is
    /// RGB, and still every frame is its screen's picture.
    #[test]
    fn a_truecolour_animation_is_exact() {
        let size = Size { cols: 40, rows: 8 };
        let mut engine = EngineKind::Native.create(size);
        let mut frames = Vec::new();
        let mut text = String::new();
        for i in 0..300u32 {
            let _ = std::fmt::Write::write_fmt(
                &mut text,
                format_args!("\x1b[48;2;{};{};7m ", i % 256, i / 2),
            );
        }
        for (t, step) in [(0.0, text.as_str()), (0.1, "\x1b[0m\x1b[1;1Hx")] {
            engine.feed(step);
            frames.push((t, engine.screen()));
        }
        let mut renderer = Renderer::new(PngOptions::default()).unwrap();
        let mut apng =
            ApngEncoder::new(&mut renderer, size, &GifOptions::default(), Vec::new()).unwrap();
        for (t, s) in &frames {
            apng.add_frame(*t, s).unwrap();
        }
        let (_, bytes) = apng.finish().unwrap();
        assert_eq!(bytes[25], 2, "colour type RGB");
        for ((picture, _), (_, screen)) in play(&bytes).iter().zip(&frames) {
            assert!(*picture == renderer.render(screen).unwrap());
        }
    }
}
