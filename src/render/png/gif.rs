//! A whole cast as an animated GIF, honouring event timing, the idle-time limit and a speed
//! factor, with a frame-rate cap.
//!
//! Output events that fall within one frame interval (1/fps) are drawn as one frame, shown
//! from the time of the first of them. Frames that look the same as the one before are
//! merged. Each frame after the first stores only the rectangle that changed; its palette is
//! exact when it has at most 256 colours; otherwise it holds the 256 most frequent colours
//! (backgrounds, text, the common anti-aliasing shades) and every other colour is drawn as the
//! nearest of them, so flat areas keep their exact colour.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use image::RgbaImage;

use super::raster::Canvas;
use super::{PngError, Renderer};
use crate::cast::{transform, EventData};
use crate::replay::Replayer;
use crate::term::{EngineKind, Size};

/// Highest frame rate: browsers slow down GIF frames shorter than 20 ms.
pub const MAX_FPS: u32 = 50;

/// How a cast becomes an animation.
#[derive(Debug, Clone, PartialEq)]
pub struct GifOptions {
    /// Playback speed (2.0 plays twice as fast).
    pub speed: f64,
    /// Longest pause in seconds; `None` uses the cast header's `idle_time_limit` (if any).
    pub idle_time_limit: Option<f64>,
    /// Frame-rate cap, 1 to [`MAX_FPS`].
    pub fps: u32,
    /// How long the last frame is shown, in seconds.
    pub last_frame: f64,
    /// Loop forever (true) or play once.
    pub repeat: bool,
    /// The engine to replay with.
    pub engine: EngineKind,
}

impl Default for GifOptions {
    fn default() -> Self {
        GifOptions {
            speed: 1.0,
            idle_time_limit: None,
            fps: 30,
            last_frame: 3.0,
            repeat: true,
            engine: EngineKind::Avt,
        }
    }
}

/// What [`render_gif`] made.
#[derive(Debug, Clone, Copy, PartialEq)]
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

/// Renders the cast at `path` as an animated GIF written to `out`. The image is as large as
/// the largest terminal size in the cast; smaller screens are drawn at its top-left.
pub fn render_gif(
    path: &Path,
    renderer: &mut Renderer,
    options: &GifOptions,
    out: impl Write,
) -> Result<GifStats, PngError> {
    if !(options.speed.is_finite() && options.speed > 0.0) {
        return Err(PngError::Option(format!(
            "speed must be a number above 0 (got {})",
            options.speed
        )));
    }
    if !(1..=MAX_FPS).contains(&options.fps) {
        return Err(PngError::Option(format!(
            "the frame rate must be 1 to {MAX_FPS} (got {}): browsers slow down faster GIFs",
            options.fps
        )));
    }
    if !(options.last_frame.is_finite() && options.last_frame >= 0.0) {
        return Err(PngError::Option(format!(
            "the last frame's time must be 0 or more seconds (got {})",
            options.last_frame
        )));
    }
    if let Some(l) = options.idle_time_limit {
        if !(l.is_finite() && l > 0.0) {
            return Err(PngError::Option(format!(
                "the idle time limit must be above 0 seconds (got {l})"
            )));
        }
    }
    let size = largest_size(path)?;
    let layout = renderer.layout(size)?;
    if layout.width > u16::MAX as u32 || layout.height > u16::MAX as u32 {
        return Err(PngError::TooLarge {
            width: layout.width as u64,
            height: layout.height as u64,
        });
    }
    let reader = crate::cast::open(path)?;
    let header = reader.header().clone();
    let limit = options.idle_time_limit.or(header.idle_time_limit);
    let events: Box<dyn Iterator<Item = _>> = match limit {
        Some(l) if l.is_finite() && l > 0.0 => Box::new(transform::idle_limit(reader, l)),
        _ => Box::new(reader),
    };
    let events = transform::speed(events, options.speed);

    let mut encoder = gif::Encoder::new(out, layout.width as u16, layout.height as u16, &[])
        .map_err(gif_error)?;
    if options.repeat {
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(gif_error)?;
    }
    let mut frames = FrameWriter {
        encoder,
        shown: None,
        written: 0,
        width: layout.width,
        height: layout.height,
    };
    let mut replayer = Replayer::new(&header, options.engine);
    let frame_dt = 1.0 / options.fps as f64;
    let mut batch: Option<f64> = None;
    for event in events {
        let event = event?;
        if let Some(start) = batch {
            if event.time >= start + frame_dt {
                frames.show(start, render_frame(renderer, &replayer, &layout)?)?;
                batch = None;
            }
        }
        let changes = matches!(event.data, EventData::Output(_) | EventData::Resize(_));
        if changes && batch.is_none() {
            // The blank terminal is shown only when the first output comes a frame or more
            // after the start; otherwise the animation starts with that output.
            if frames.shown.is_none() && event.time >= frame_dt {
                frames.show(0.0, render_frame(renderer, &replayer, &layout)?)?;
            }
            batch = Some(if frames.shown.is_none() {
                0.0
            } else {
                event.time
            });
        }
        replayer.apply(&event);
    }
    if let Some(start) = batch {
        frames.show(start, render_frame(renderer, &replayer, &layout)?)?;
    }
    if frames.shown.is_none() {
        frames.show(0.0, render_frame(renderer, &replayer, &layout)?)?;
    }
    let last = frames.shown.as_ref().map_or(0.0, |s| s.time);
    let finish = last + options.last_frame;
    let written = frames.finish(finish)?;
    Ok(GifStats {
        frames: written,
        duration: finish,
        width: layout.width,
        height: layout.height,
    })
}

/// The frame being shown, waiting to learn how long it lasts.
struct Shown {
    time: f64,
    image: RgbaImage,
    /// The rectangle that differs from the frame before (x, y, w, h); all for the first.
    rect: (u32, u32, u32, u32),
}

struct FrameWriter<W: Write> {
    encoder: gif::Encoder<W>,
    shown: Option<Shown>,
    written: usize,
    width: u32,
    height: u32,
}

impl<W: Write> FrameWriter<W> {
    /// Shows `image` from `time` on (a frame that looks like the one shown is merged into it).
    fn show(&mut self, time: f64, image: RgbaImage) -> Result<(), PngError> {
        let rect = match &self.shown {
            None => (0, 0, self.width, self.height),
            Some(prev) => match changed_rect(&prev.image, &image) {
                None => return Ok(()),
                Some(r) => r,
            },
        };
        if let Some(prev) = self.shown.take() {
            self.write(&prev, time)?;
        }
        self.shown = Some(Shown { time, image, rect });
        Ok(())
    }

    /// Writes the last frame, shown until `end`; returns the number of frames written.
    fn finish(mut self, end: f64) -> Result<usize, PngError> {
        if let Some(prev) = self.shown.take() {
            self.write(&prev, end)?;
        }
        Ok(self.written)
    }

    fn write(&mut self, frame: &Shown, until: f64) -> Result<(), PngError> {
        // Delays from rounded absolute times, so rounding never accumulates.
        let cs = |t: f64| (t * 100.0).round();
        let delay = (cs(until) - cs(frame.time)).clamp(2.0, u16::MAX as f64) as u16;
        let (x, y, w, h) = frame.rect;
        let mut rgba: Vec<u8> = Vec::with_capacity((w * h * 4) as usize);
        let stride = self.width as usize * 4;
        for row in y..y + h {
            let start = row as usize * stride + x as usize * 4;
            rgba.extend_from_slice(&frame.image.as_raw()[start..start + w as usize * 4]);
        }
        let (palette, indices) = quantize(&rgba);
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

/// The replayer's screen drawn on a canvas of the animation's size.
fn render_frame(
    renderer: &mut Renderer,
    replayer: &Replayer,
    layout: &super::Layout,
) -> Result<RgbaImage, PngError> {
    let screen = replayer.screen();
    let image = renderer.render(&screen)?;
    if image.dimensions() == (layout.width, layout.height) {
        return Ok(image);
    }
    let mut canvas = Canvas::new(layout.width, layout.height, renderer.theme().bg, 255);
    canvas.draw_canvas(&Canvas::from_image(&image), 0, 0, None);
    Ok(canvas.into_image())
}

/// The smallest rectangle holding every pixel that differs, or `None` when none does.
fn changed_rect(a: &RgbaImage, b: &RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let (w, h) = a.dimensions();
    let stride = w as usize * 4;
    let (ra, rb) = (a.as_raw(), b.as_raw());
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

/// The largest terminal size in the cast (header and resize events).
fn largest_size(path: &Path) -> Result<Size, PngError> {
    let reader = crate::cast::open(path)?;
    let mut size = reader.header().term.size;
    for event in reader {
        if let EventData::Resize(s) = event?.data {
            size.cols = size.cols.max(s.cols);
            size.rows = size.rows.max(s.rows);
        }
    }
    Ok(size)
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
