//! The window frame (`--chrome`): a title bar with the three window buttons and the title,
//! rounded corners, a soft shadow, and a transparent margin.

use super::options::check_size;
use super::raster::{rounded_rect_sdf, Canvas};
use super::text::{fit_text, text_cells};
use super::{PngError, Renderer};
use crate::rgb::Rgb;

/// The window frame around content of `content_w` × `content_h` pixels, in pixels: the one
/// geometry the PNG and the SVG draw from.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    pub(crate) bar_h: i32,
    pub(crate) radius: f32,
    pub(crate) margin: i32,
    pub(crate) blur: f32,
    pub(crate) drop: i32,
    /// The window (title bar and content).
    pub(crate) w: i32,
    pub(crate) h: i32,
    /// The picture.
    pub(crate) total_w: i32,
    pub(crate) total_h: i32,
    pub(crate) bar: Rgb,
    pub(crate) bar_line: Rgb,
    /// Centre x, centre y, radius and colour of the three buttons, in the window.
    pub(crate) buttons: Vec<(f32, f32, f32, Rgb)>,
    /// The title as drawn: text, x, y (top of its cell, in the window), colour.
    pub(crate) title: Option<(String, i32, i32, Rgb)>,
}

impl Frame {
    /// The frame of a `content_w` × `content_h` render with `title`.
    pub(crate) fn new(
        renderer: &Renderer,
        content_w: u32,
        content_h: u32,
        title: Option<&str>,
    ) -> Result<Frame, PngError> {
        let m = renderer.metrics();
        let (cw, ch) = (m.cell_width as i32, m.cell_height as i32);
        let theme = renderer.theme();
        let bar_h = (ch * 3 / 2).max(20);
        let radius = (cw as f32 * 0.9).max(6.0);
        let margin = (cw * 3).max(20);
        let blur = margin as f32 * 0.7;
        let drop = (margin / 5).max(2);
        let (w, h) = (content_w as i32, content_h as i32 + bar_h);
        let (total_w, total_h) = (w + 2 * margin, h + 2 * margin);
        check_size(total_w as u64, total_h as u64)?;
        let bar = theme.bg.mix(theme.fg, 26);
        let button_r = bar_h as f32 * 0.19;
        let step = button_r * 3.3;
        let cy = bar_h as f32 / 2.0;
        let colors = [
            Rgb(0xff, 0x5f, 0x57),
            Rgb(0xfe, 0xbc, 0x2e),
            Rgb(0x28, 0xc8, 0x40),
        ];
        let first_x = bar_h as f32 * 0.6;
        let buttons = colors
            .iter()
            .enumerate()
            .map(|(i, c)| (first_x + i as f32 * step, cy, button_r, *c))
            .collect();
        let title = title.and_then(|title| {
            let buttons_end = (first_x + 2.0 * step + button_r) as i32 + cw;
            let room = ((w - 2 * buttons_end) / cw).max(0) as usize;
            let text = fit_text(title, room);
            (!text.is_empty()).then(|| {
                let tw = text_cells(&text) as i32 * cw;
                (text, (w - tw) / 2, (bar_h - ch) / 2, theme.fg.mix(bar, 70))
            })
        });
        Ok(Frame {
            bar_h,
            radius,
            margin,
            blur,
            drop,
            w,
            h,
            total_w,
            total_h,
            bar,
            bar_line: theme.bg.mix(theme.fg, 40),
            buttons,
            title,
        })
    }
}

/// Wraps a render in a window frame.
pub(crate) fn frame(
    renderer: &mut Renderer,
    content: Canvas,
    title: Option<&str>,
) -> Result<Canvas, PngError> {
    let f = Frame::new(renderer, content.width, content.height, title)?;
    let theme = renderer.theme().clone();
    let (bar_h, radius, margin, blur, drop) = (f.bar_h, f.radius, f.margin, f.blur, f.drop);
    let (w, h, total_w, total_h) = (f.w, f.h, f.total_w, f.total_h);

    // The window: title bar, then the content.
    let mut window = Canvas::new(w as u32, h as u32, f.bar, 255);
    window.draw_canvas(&content, 0, bar_h, None);
    window.fill_rect(0, bar_h - 1, w, 1, f.bar_line);
    for &(cx, cy, button_r, color) in &f.buttons {
        window.fill_sdf(
            [
                (cx - button_r - 2.0) as i32,
                (cy - button_r - 2.0) as i32,
                (2.0 * button_r + 4.0) as i32,
                (2.0 * button_r + 4.0) as i32,
            ],
            color,
            255,
            |px, py| {
                let (dx, dy) = (px - cx, py - cy);
                (dx * dx + dy * dy).sqrt() - button_r
            },
        );
    }
    if let Some((text, x, y, color)) = &f.title {
        renderer.draw_text(&mut window, text, *x, *y, *color, false);
    }

    // The shadow, on a transparent canvas.
    let mut out = Canvas::new(total_w as u32, total_h as u32, Rgb(0, 0, 0), 0);
    let (fw, fh, fr) = (w as f32, h as f32, radius);
    let (sx, sy) = (margin as f32, (margin + drop) as f32);
    for y in 0..total_h {
        for x in 0..total_w {
            let d = rounded_rect_sdf(x as f32 + 0.5, y as f32 + 0.5, sx, sy, fw, fh, fr);
            let a = if d <= 0.0 {
                1.0
            } else if d < blur {
                let t = 1.0 - d / blur;
                t * t
            } else {
                0.0
            };
            let alpha = (a * 90.0 + 0.5) as u32;
            if alpha > 0 {
                out.blend(x, y, Rgb(0, 0, 0), alpha as u8);
            }
        }
    }
    // The window with rounded corners, and a faint edge so a dark window shows on a dark page.
    let (wx, wy) = (margin as f32, margin as f32);
    let mask = |x: u32, y: u32| -> u8 {
        let d = rounded_rect_sdf(x as f32 + 0.5, y as f32 + 0.5, 0.0, 0.0, fw, fh, fr);
        ((0.5 - d).clamp(0.0, 1.0) * 255.0 + 0.5) as u8
    };
    out.draw_canvas(&window, margin, margin, Some(&mask));
    let edge = theme.fg;
    out.fill_sdf(
        [margin - 2, margin - 2, w + 4, h + 4],
        edge,
        40,
        |px, py| {
            rounded_rect_sdf(px, py, wx + 0.5, wy + 0.5, fw - 1.0, fh - 1.0, fr - 0.5).abs() - 0.5
        },
    );
    Ok(out)
}
