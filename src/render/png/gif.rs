//! An animated GIF from timed screens: `(seconds, screen)` frames, as `replay::frames` makes
//! them from a cast.
//!
//! The encoder never reads a cast: the caller composes cast → transforms → frames → encoder,
//! so frames may as well come from memory. Frames that look the same as the one before are
//! merged. Each frame after the first stores only the rectangle that changed; its palette is
//! exact when it has at most 256 colours; otherwise it holds the 256 most frequent colours
//! (backgrounds, text, the common anti-aliasing shades) and every other colour is drawn as the
//! nearest of them, so flat areas keep their exact colour.

use std::collections::HashMap;
use std::io::Write;

use image::RgbaImage;

use super::raster::Canvas;
use super::{Layout, PngError, Renderer};
use crate::term::{Screen, Size};

/// Highest frame rate worth asking for: browsers slow down GIF frames shorter than 20 ms.
pub const MAX_FPS: u32 = 50;

/// The most pixels an animation's frame may have: the encoder holds a frame about three
/// times (the last picture, the one being drawn, the part waiting to be written), so 32 M
/// pixels is ~400 MB, and every frame is compared in full. A still picture may be larger
/// ([`super::MAX_PIXELS`]).
pub const MAX_GIF_PIXELS: u64 = 32_000_000;

/// How frames become an animation.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct GifOptions {
    /// How long the last frame is shown, in seconds.
    pub last_frame: f64,
    /// Loop forever (true) or play once.
    pub repeat: bool,
}

impl GifOptions {
    /// These options with the last frame shown for `seconds`.
    pub fn last_frame(self, seconds: f64) -> GifOptions {
        GifOptions {
            last_frame: seconds,
            ..self
        }
    }

    /// These options looping forever (`true`) or playing once.
    pub fn repeat(self, repeat: bool) -> GifOptions {
        GifOptions { repeat, ..self }
    }

    /// Refuses what no animation can show (every encoder's check: GIF, APNG, animated SVG).
    pub(crate) fn check(&self) -> Result<(), PngError> {
        if !(self.last_frame.is_finite() && self.last_frame >= 0.0) {
            return Err(PngError::Option(format!(
                "the last frame's time must be 0 or more seconds (got {})",
                self.last_frame
            )));
        }
        Ok(())
    }
}

impl Default for GifOptions {
    fn default() -> Self {
        GifOptions {
            last_frame: 3.0,
            repeat: true,
        }
    }
}

/// What a [`GifEncoder`] made.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct GifStats {
    /// Frames written.
    pub frames: usize,
    /// Length of the animation in seconds, the last frame's hold included.
    pub duration: f64,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
}

/// Writes an animated GIF one frame at a time: [`GifEncoder::add_frame`] for each screen in
/// time order, then [`GifEncoder::finish`]. A frame is written once the next one (or the end)
/// says how long it lasts.
///
/// ```
/// use tuicast::render::png::{GifEncoder, GifOptions, PngOptions, Renderer};
/// use tuicast::size::Size;
/// use tuicast::term::EngineKind;
///
/// let size = Size { cols: 10, rows: 1 };
/// let mut engine = EngineKind::Native.create(size);
/// let mut renderer = Renderer::new(PngOptions::default())?;
/// let mut gif = GifEncoder::new(&mut renderer, size, &GifOptions::default(), Vec::new())?;
/// for (i, word) in ["one ", "two"].iter().enumerate() {
///     engine.feed(word);
///     gif.add_frame(i as f64 * 0.5, &engine.screen())?;
/// }
/// let (stats, bytes) = gif.finish()?;
/// assert_eq!((stats.frames, stats.duration), (2, 3.5));
/// assert!(bytes.starts_with(b"GIF89a"));
/// # Ok::<(), tuicast::render::png::PngError>(())
/// ```
pub struct GifEncoder<'r, W: Write> {
    pictures: Pictures<'r>,
    last_frame: f64,
    frames: FrameWriter<W>,
}

/// The pictures of an animation's screens, each with the rectangle that changed since the
/// one before: what the GIF and the APNG encoders share.
pub(super) struct Pictures<'r> {
    renderer: &'r mut Renderer,
    pub(super) layout: Layout,
    /// The last screen added and its picture: a frame that changes some rows of a screen of
    /// the same size draws and compares only those rows.
    last: Option<(Screen, RgbaImage)>,
    /// Draw only the rows that changed (always, but for the test that compares both ways).
    pub(super) incremental: bool,
}

impl<W: Write> std::fmt::Debug for GifEncoder<'_, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GifEncoder")
            .field("layout", &self.pictures.layout)
            .field("written", &self.frames.written)
            .finish_non_exhaustive()
    }
}

impl<'r, W: Write> GifEncoder<'r, W> {
    /// An animation of terminals up to `size` (the largest screen it will show; for a cast,
    /// `replay::largest_size`) drawn by `renderer`, written to `out`. Smaller screens are drawn
    /// at its top-left; larger ones are cut to it.
    pub fn new(
        renderer: &'r mut Renderer,
        size: Size,
        options: &GifOptions,
        out: W,
    ) -> Result<Self, PngError> {
        options.check()?;
        let layout = animation_layout(renderer, size)?;
        let mut encoder = gif::Encoder::new(out, layout.width as u16, layout.height as u16, &[])
            .map_err(gif_error)?;
        if options.repeat {
            encoder
                .set_repeat(gif::Repeat::Infinite)
                .map_err(gif_error)?;
        }
        Ok(GifEncoder {
            pictures: Pictures::new(renderer, layout),
            last_frame: options.last_frame,
            frames: FrameWriter {
                encoder,
                shown: None,
                written: 0,
                width: layout.width,
            },
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
        if let Some((rect, image)) = self.pictures.next(screen)? {
            self.frames.show(time, rect, image)?;
        }
        Ok(())
    }

    /// Writes the last frame, held for the options' `last_frame`, and ends the animation;
    /// returns what was made and the writer. An animation needs at least one frame.
    pub fn finish(self) -> Result<(GifStats, W), PngError> {
        let Some(last) = self.frames.shown.as_ref().map(|s| s.time) else {
            return Err(PngError::Option(
                "an animation needs at least one frame".into(),
            ));
        };
        let end = last + self.last_frame;
        let (frames, out) = self.frames.finish(end)?;
        Ok((
            GifStats {
                frames,
                duration: end,
                width: self.pictures.layout.width,
                height: self.pictures.layout.height,
            },
            out,
        ))
    }
}

impl<'r> Pictures<'r> {
    pub(super) fn new(renderer: &'r mut Renderer, layout: Layout) -> Self {
        Pictures {
            renderer,
            layout,
            last: None,
            incremental: true,
        }
    }

    /// The picture of `screen` and the rectangle (x, y, w, h) of it that differs from the
    /// picture before (all of it for the first), or `None` when it looks the same.
    pub(super) fn next(&mut self, screen: &Screen) -> Result<Option<(Rect, &RgbaImage)>, PngError> {
        let (width, height) = (self.layout.width, self.layout.height);
        let incremental = self.incremental
            && self.last.as_ref().is_some_and(|(prev, image)| {
                prev.size == screen.size && image.dimensions() == (width, height)
            });
        if !incremental {
            let image = self.draw(screen)?;
            let rect = match &self.last {
                None => Some((0, 0, width, height)),
                Some((_, prev)) if prev.dimensions() == image.dimensions() => {
                    changed_rect(prev, &image)
                }
                Some(_) => Some((0, 0, width, height)),
            };
            let (_, image) = self.last.insert((screen.clone(), image));
            return Ok(rect.map(|r| (r, &*image)));
        }
        let Some((prev, mut image)) = self.last.take() else {
            return Ok(None);
        };
        // The rows whose cells changed, and the cursor's rows when it moved or changed.
        let mut rows: Option<(usize, usize)> = None;
        let mut touch = |r: usize| {
            rows = Some(rows.map_or((r, r), |(a, b)| (a.min(r), b.max(r))));
        };
        for (r, (a, b)) in prev.rows.iter().zip(&screen.rows).enumerate() {
            if a != b {
                touch(r);
            }
        }
        if prev.cursor != screen.cursor {
            touch(usize::from(prev.cursor.row));
            touch(usize::from(screen.cursor.row));
        }
        let Some((first, last)) = rows else {
            self.last = Some((screen.clone(), image));
            return Ok(None); // the same picture: merged into the frame shown
        };
        // One row more on each side: glyphs may overhang their row a little.
        let band = first.saturating_sub(1)..(last + 2).min(screen.rows.len());
        let m = self.renderer.metrics();
        let pad = self.renderer.options().padding;
        let top = (pad + band.start as u32 * m.cell_height).min(height);
        let bottom = (pad + band.end as u32 * m.cell_height).min(height);
        let stride = width as usize * 4;
        let before = image.as_raw()[top as usize * stride..bottom as usize * stride].to_vec();
        self.renderer.redraw_rows(&mut image, screen, band);
        let rect = changed_band(&before, &image, top..bottom);
        let (_, image) = self.last.insert((screen.clone(), image));
        Ok(rect.map(|r| (r, &*image)))
    }

    /// `screen` drawn on a canvas of the animation's size.
    fn draw(&mut self, screen: &Screen) -> Result<RgbaImage, PngError> {
        let (width, height) = (self.layout.width, self.layout.height);
        let image = self.renderer.render(screen)?;
        if image.dimensions() == (width, height) {
            return Ok(image);
        }
        let mut canvas = Canvas::new(width, height, self.renderer.theme().bg, 255);
        canvas.draw_canvas(&Canvas::from_image(&image), 0, 0, None);
        Ok(canvas.into_image())
    }
}

/// The layout of an animation of terminals up to `size`, or why there can be none: a
/// side past what a GIF holds (65,535 pixels), or frames of more than
/// [`MAX_GIF_PIXELS`] pixels. [`GifEncoder::new`] asks it first; a caller may ask before
/// it replays anything.
pub fn animation_layout(renderer: &Renderer, size: Size) -> Result<Layout, PngError> {
    let layout = renderer.layout(size)?;
    let (width, height) = (u64::from(layout.width), u64::from(layout.height));
    if width > u64::from(u16::MAX) || height > u64::from(u16::MAX) {
        return Err(PngError::TooLarge { width, height });
    }
    if width * height > MAX_GIF_PIXELS {
        return Err(PngError::AnimationTooLarge { width, height });
    }
    Ok(layout)
}

/// An animated GIF of `frames` (`(seconds, screen)` in time order) with terminals up to
/// `size`, written to `out`: [`GifEncoder`] in one call.
pub fn render_gif<W: Write>(
    renderer: &mut Renderer,
    size: Size,
    options: &GifOptions,
    frames: impl IntoIterator<Item = (f64, Screen)>,
    out: W,
) -> Result<(GifStats, W), PngError> {
    let mut encoder = GifEncoder::new(renderer, size, options, out)?;
    for (time, screen) in frames {
        encoder.add_frame(time, &screen)?;
    }
    encoder.finish()
}

/// A rectangle of pixels: x, y, width, height.
pub(super) type Rect = (u32, u32, u32, u32);

/// The frame being shown, waiting to learn how long it lasts: the rectangle that differs
/// from the frame before (all of it for the first) and its pixels.
struct Shown {
    time: f64,
    /// x, y, w, h.
    rect: (u32, u32, u32, u32),
    /// The rectangle's RGBA pixels, row by row.
    rgba: Vec<u8>,
}

struct FrameWriter<W: Write> {
    encoder: gif::Encoder<W>,
    shown: Option<Shown>,
    written: usize,
    width: u32,
}

impl<W: Write> FrameWriter<W> {
    /// Shows the rectangle `rect` of `image` (what changed) from `time` on.
    fn show(
        &mut self,
        time: f64,
        rect: (u32, u32, u32, u32),
        image: &RgbaImage,
    ) -> Result<(), PngError> {
        if let Some(prev) = self.shown.take() {
            self.write(&prev, time)?;
        }
        let (x, y, w, h) = rect;
        let mut rgba: Vec<u8> = Vec::with_capacity((w * h * 4) as usize);
        let stride = self.width as usize * 4;
        for row in y..y + h {
            let start = row as usize * stride + x as usize * 4;
            rgba.extend_from_slice(&image.as_raw()[start..start + w as usize * 4]);
        }
        self.shown = Some(Shown { time, rect, rgba });
        Ok(())
    }

    /// Writes the last frame, shown until `end`, and the trailer; returns the number of
    /// frames written and the writer.
    fn finish(mut self, end: f64) -> Result<(usize, W), PngError> {
        if let Some(prev) = self.shown.take() {
            self.write(&prev, end)?;
        }
        let out = self.encoder.into_inner().map_err(PngError::Io)?;
        Ok((self.written, out))
    }

    fn write(&mut self, frame: &Shown, until: f64) -> Result<(), PngError> {
        // Delays from rounded absolute times, so rounding never accumulates.
        let cs = |t: f64| (t * 100.0).round();
        let span = cs(until) - cs(frame.time);
        // A NaN (inf - inf from an endless last frame) would cast to 0: the shortest delay.
        let span = if span.is_nan() {
            f64::from(u16::MAX)
        } else {
            span
        };
        let delay = span.clamp(2.0, u16::MAX as f64) as u16;
        let (x, y, w, h) = frame.rect;
        let (palette, indices) = quantize(&frame.rgba);
        let mut f = gif::Frame::from_palette_pixels(w as u16, h as u16, indices, palette, None);
        f.left = x as u16;
        f.top = y as u16;
        f.delay = delay;
        f.dispose = gif::DisposalMethod::Keep;
        self.encoder.write_frame(&f).map_err(gif_error)?;
        self.written += 1;
        Ok(())
    }
}

/// A palette (RGB triples) and one index per pixel for opaque RGBA pixels: exact with at most
/// 256 colours, else the 256 most frequent colours, others mapped to the nearest of them.
fn quantize(rgba: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let key = |p: &[u8]| (p[0] as u32) << 16 | (p[1] as u32) << 8 | p[2] as u32;
    let mut counts: HashMap<u32, u32> = HashMap::new();
    let mut last = u32::MAX;
    let mut run = 0u32;
    for p in rgba.chunks_exact(4) {
        let k = key(p);
        if k == last {
            run += 1;
            continue;
        }
        if run > 0 {
            *counts.entry(last).or_insert(0) += run;
        }
        last = k;
        run = 1;
    }
    if run > 0 {
        *counts.entry(last).or_insert(0) += run;
    }
    let mut colors: Vec<(u32, u32)> = counts.into_iter().collect();
    // Most frequent first; equal counts by colour, so the palette never depends on hashing.
    colors.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let kept: Vec<u32> = colors.iter().take(256).map(|c| c.0).collect();
    let rgb = |k: u32| {
        [
            (k >> 16) as i32,
            ((k >> 8) & 0xff) as i32,
            (k & 0xff) as i32,
        ]
    };
    let mut index: HashMap<u32, u8> = HashMap::with_capacity(colors.len());
    for (i, &k) in kept.iter().enumerate() {
        index.insert(k, i as u8);
    }
    for &(k, _) in colors.iter().skip(256) {
        let c = rgb(k);
        let mut best = (i32::MAX, 0u8);
        for (i, &p) in kept.iter().enumerate() {
            let q = rgb(p);
            let (dr, dg, db) = (c[0] - q[0], c[1] - q[1], c[2] - q[2]);
            // Weighted like the eye: green counts most, blue least.
            let d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
            if d < best.0 {
                best = (d, i as u8);
            }
        }
        index.insert(k, best.1);
    }
    let palette: Vec<u8> = kept.iter().flat_map(|&k| rgb(k).map(|v| v as u8)).collect();
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    let (mut last, mut last_index) = (u32::MAX, 0u8);
    for p in rgba.chunks_exact(4) {
        let k = key(p);
        if k != last {
            last = k;
            last_index = index.get(&k).copied().unwrap_or(0);
        }
        indices.push(last_index);
    }
    (palette, indices)
}

/// The smallest rectangle holding every pixel of rows `band` of `b` that differs from
/// `before` (those rows' pixels as they were), or `None` when none does.
fn changed_band(
    before: &[u8],
    b: &RgbaImage,
    band: std::ops::Range<u32>,
) -> Option<(u32, u32, u32, u32)> {
    let w = b.width();
    let stride = w as usize * 4;
    let after = &b.as_raw()[band.start as usize * stride..band.end as usize * stride];
    changed_in(before, after, w, band.end - band.start)
        .map(|(x, y, rw, rh)| (x, y + band.start, rw, rh))
}

/// The smallest rectangle holding every pixel that differs, or `None` when none does.
fn changed_rect(a: &RgbaImage, b: &RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let (w, h) = a.dimensions();
    changed_in(a.as_raw(), b.as_raw(), w, h)
}

/// [`changed_rect`] of two `w`×`h` RGBA pixel buffers.
fn changed_in(ra: &[u8], rb: &[u8], w: u32, h: u32) -> Option<(u32, u32, u32, u32)> {
    let stride = w as usize * 4;
    let row_differs = |y: u32| {
        let s = y as usize * stride;
        ra[s..s + stride] != rb[s..s + stride]
    };
    let top = (0..h).find(|&y| row_differs(y))?;
    let bottom = (top..h).rev().find(|&y| row_differs(y)).unwrap_or(top);
    let col_differs = |x: u32| {
        (top..=bottom).any(|y| {
            let i = y as usize * stride + x as usize * 4;
            ra[i..i + 4] != rb[i..i + 4]
        })
    };
    let left = (0..w).find(|&x| col_differs(x)).unwrap_or(0);
    let right = (left..w).rev().find(|&x| col_differs(x)).unwrap_or(left);
    Some((left, top, right - left + 1, bottom - top + 1))
}

fn gif_error(e: gif::EncodingError) -> PngError {
    match e {
        gif::EncodingError::Io(e) => PngError::Io(e),
        other => PngError::Image(format!("GIF: {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every frame of an animation, decoded and laid over the ones before (as a viewer
    /// shows them), is the picture of its screen drawn whole: drawing only the rows that
    /// changed loses nothing.
    #[test]
    fn frames_drawn_row_by_row_are_the_whole_pictures() {
        use crate::render::png::{PngOptions, Renderer};
        use crate::term::{EngineKind, Size};
        let size = Size { cols: 12, rows: 6 };
        let mut engine = EngineKind::Native.create(size);
        let mut screens = Vec::new();
        for step in [
            "hello",
            "\r\nworld\x1b[31m red",
            "\x1b[3;5H\x1b[7m!\x1b[0m",
            "\x1b[3;5H\x1b[7m!\x1b[0m",  // the same cell, another colour
            "",                          // the same screen again
            "\x1b[6;1H日本\x1b[1;1H",    // a wide character, the cursor home
            "\x1b[?25l",                 // the cursor hidden
            "\x1b[6;1H\r\n\r\nscrolled", // two rows scrolled up
            "\x1b[2J",
        ] {
            engine.feed(step);
            screens.push(engine.screen());
        }
        let mut renderer = Renderer::new(PngOptions::default()).unwrap();
        let encode = |renderer: &mut Renderer, incremental: bool| {
            let mut gif =
                GifEncoder::new(renderer, size, &GifOptions::default(), Vec::new()).unwrap();
            gif.pictures.incremental = incremental;
            for (i, s) in screens.iter().enumerate() {
                gif.add_frame(i as f64, s).unwrap();
            }
            gif.finish().unwrap()
        };
        let (stats, rows) = encode(&mut renderer, true);
        let (whole_stats, whole) = encode(&mut renderer, false);
        assert_eq!(
            stats.frames,
            screens.len() - 1,
            "the repeated screen is merged"
        );
        assert_eq!(stats.frames, whole_stats.frames);
        assert!(rows == whole, "the same GIF, byte for byte");
    }

    #[test]
    fn quantizing_keeps_frequent_colours_exact() {
        let mut rgba = Vec::new();
        for i in 0..300u32 {
            // Colour i appears 300 - i times; the 44 rarest are mapped to a near one.
            for _ in 0..300 - i {
                rgba.extend_from_slice(&[(i % 256) as u8, (i / 256 * 100) as u8, 7, 255]);
            }
        }
        let (palette, indices) = quantize(&rgba);
        assert_eq!(palette.len(), 256 * 3);
        assert_eq!(&palette[..3], &[0, 0, 7], "the most frequent colour first");
        assert_eq!(indices.len(), rgba.len() / 4);
        let last = *indices.last().unwrap() as usize;
        let mapped = &palette[last * 3..last * 3 + 3];
        assert_eq!(
            mapped,
            &[43, 0, 7],
            "the rarest is drawn as the nearest kept colour"
        );
        let small = [1, 2, 3, 255, 4, 5, 6, 255, 1, 2, 3, 255];
        assert_eq!(quantize(&small), (vec![1, 2, 3, 4, 5, 6], vec![0, 1, 0]));
    }

    #[test]
    fn the_changed_rectangle_is_tight() {
        let a = RgbaImage::new(10, 8);
        let mut b = a.clone();
        assert_eq!(changed_rect(&a, &b), None);
        b.put_pixel(3, 2, image::Rgba([1, 0, 0, 0]));
        b.put_pixel(6, 5, image::Rgba([1, 0, 0, 0]));
        assert_eq!(changed_rect(&a, &b), Some((3, 2, 4, 4)));
    }
}
