//! [`Renderer::render_svg`]: a screen as SVG, on the very grid of the PNG render (cell size,
//! padding, theme and cursor of the same [`Renderer`]).
//!
//! - Text is text: each run of cells with one style is a `<text>` whose characters have an
//!   `x` each, at their cell, so they stay on the grid whatever font the viewer has, and
//!   can be selected and searched. Fonts: DejaVu Sans Mono where the viewer has it, else its
//!   monospace font.
//! - Backgrounds are rectangles, underline and strikethrough too, at the PNG's offsets.
//! - Box drawing, block elements, braille and the powerline separators are shapes: each
//!   character the PNG renderer draws in code is drawn once the same way at the grid's
//!   resolution, turned into rectangles (a partly covered pixel is a rectangle with its
//!   opacity), defined once and placed with `<use>` in the cell's colour.
//! - Hidden (concealed) text shows only its background, as in the PNG; the cursor is the
//!   same block (its cell inverted), bar or underline.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::error::PngError;
use super::raster::Canvas;
use super::Renderer;
use super::{annotate, boxdraw, chrome, Decorations};
use crate::escape::escape_markup;
use crate::rgb::Rgb;
use crate::term::{safe_char, Cell, Screen};

impl Renderer {
    /// The screen as an SVG document on the grid of [`Renderer::render`] (the same size in
    /// pixels, cells, theme and cursor): text as `<text>` with each character at its cell,
    /// box drawing, blocks, braille and powerline separators as the PNG's own shapes in
    /// rectangles, backgrounds, underline, strikethrough and the cursor as rectangles;
    /// concealed text left out.
    pub fn render_svg(&mut self, screen: &Screen) -> Result<String, PngError> {
        self.render_svg_decorated(screen, &Decorations::default())
    }

    /// [`Renderer::render_svg`] with annotations and, if asked, a window frame, laid out as
    /// [`Renderer::render_decorated`] lays them out (the same boxes on the same cells, the
    /// same badges and legend, the same frame), labels and the title as escaped `<text>`.
    pub fn render_svg_decorated(
        &mut self,
        screen: &Screen,
        decorations: &Decorations,
    ) -> Result<String, PngError> {
        let (width, height, defs, mut content) = self.svg_screen(screen)?;
        let (mut w, mut h) = (width, height);
        let theme = self.theme().clone();
        if !decorations.annotations.is_empty() {
            let plan = annotate::plan(self, width, height, screen, &decorations.annotations)?;
            if plan.legend_h > 0 {
                content.insert_str(
                    0,
                    &format!(
                        "<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>\n",
                        plan.width, plan.height, theme.bg
                    ),
                );
            }
            self.svg_annotation_elements(&plan, &mut content);
            (w, h) = (plan.width, plan.height);
        }
        let title = decorations.chrome.then_some(decorations.title.as_deref());
        self.svg_document((w, h), "", defs, content, title)
    }

    /// The elements of the annotations `plan` lays out (boxes, badges, the legend), as the
    /// still SVG draws them: appended to `content`, every text escaped. The animated SVG
    /// draws a checkpoint's annotations with it too.
    pub(super) fn svg_annotation_elements(&mut self, plan: &annotate::Plan, content: &mut String) {
        let m = self.metrics();
        let theme = self.theme().clone();
        let wash = f32::from(annotate::WASH_ALPHA) / 255.0;
        for b in &plan.boxes {
            let [x0, y0, x1, y1] = b.cells;
            let _ = writeln!(
                content,
                r#"<rect x="{x0}" y="{y0}" width="{}" height="{}" fill="{}" fill-opacity="{wash:.3}"/>"#,
                x1 - x0,
                y1 - y0,
                b.color
            );
            let [x, y, bw, bh] = b.outline;
            let _ = writeln!(
                content,
                r#"<rect class="box" x="{x}" y="{y}" width="{bw}" height="{bh}" rx="{r}" ry="{r}" fill="none" stroke="{}" stroke-width="{}"/>"#,
                b.color,
                b.stroke,
                r = b.radius
            );
        }
        let cw = m.cell_width as i32;
        for badge in &plan.badges {
            let _ = writeln!(
                content,
                r#"<rect class="badge" x="{}" y="{}" width="{}" height="{}" rx="{r}" ry="{r}" fill="{}"/>"#,
                badge.x,
                badge.y,
                badge.w,
                badge.h,
                badge.color,
                r = badge.radius()
            );
            text_at(
                content,
                &badge.text,
                badge.x + cw / 2,
                badge.y + 1 + m.baseline as i32,
                badge.ink(),
                true,
            );
        }
        for (text, x, y) in &plan.legend {
            text_at(content, text, *x, y + m.baseline as i32, theme.fg, false);
        }
    }

    /// The SVG document of `content` (`width`×`height` pixels) with its definitions `defs`
    /// and stylesheet `style` (empty for none: tuicast's own CSS, never a cast's), in a
    /// window frame when `chrome` is `Some(title)`. The still and the animated SVG both end
    /// here.
    pub(super) fn svg_document(
        &mut self,
        (width, height): (u32, u32),
        style: &str,
        mut defs: String,
        mut content: String,
        chrome: Option<Option<&str>>,
    ) -> Result<String, PngError> {
        let (mut w, mut h) = (width, height);
        let m = self.metrics();
        let theme = self.theme().clone();
        if let Some(title) = chrome {
            let f = chrome::Frame::new(self, w, h, title)?;
            let _ = writeln!(
                defs,
                r#"<filter id="tc-shadow" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="{:.1}"/></filter>"#,
                f.blur / 2.5
            );
            let _ = writeln!(
                defs,
                r#"<clipPath id="tc-window"><rect width="{}" height="{}" rx="{r}" ry="{r}"/></clipPath>"#,
                f.w,
                f.h,
                r = f.radius
            );
            let mut framed = String::new();
            let _ = writeln!(
                framed,
                r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{r}" ry="{r}" fill="black" fill-opacity="0.35" filter="url(#tc-shadow)"/>"#,
                f.margin,
                f.margin + f.drop,
                f.w,
                f.h,
                r = f.radius
            );
            let _ = writeln!(
                framed,
                r#"<g class="window" transform="translate({m},{m})" clip-path="url(#tc-window)">"#,
                m = f.margin
            );
            let _ = writeln!(
                framed,
                r#"<rect width="{}" height="{}" fill="{}"/>"#,
                f.w, f.h, f.bar
            );
            let _ = writeln!(
                framed,
                r#"<rect y="{}" width="{}" height="1" fill="{}"/>"#,
                f.bar_h - 1,
                f.w,
                f.bar_line
            );
            for (cx, cy, r, color) in &f.buttons {
                let _ = writeln!(
                    framed,
                    r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{color}"/>"#
                );
            }
            if let Some((text, x, y, color)) = &f.title {
                text_at(&mut framed, text, *x, y + m.baseline as i32, *color, false);
            }
            let _ = writeln!(
                framed,
                r#"<g class="content" transform="translate(0,{})">"#,
                f.bar_h
            );
            framed.push_str(&content);
            framed.push_str("</g>\n</g>\n");
            let _ = writeln!(
                framed,
                r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{r}" ry="{r}" fill="none" stroke="{}" stroke-opacity="{:.3}"/>"#,
                f.margin as f32 + 0.5,
                f.margin as f32 + 0.5,
                f.w - 1,
                f.h - 1,
                theme.fg,
                40.0 / 255.0,
                r = f.radius - 0.5
            );
            content = framed;
            (w, h) = (f.total_w as u32, f.total_h as u32);
        }
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="'DejaVu Sans Mono', monospace" font-size="{size}" style="white-space:pre">"#,
            size = self.options().font_size,
        );
        if !style.is_empty() {
            out.push_str("<style>\n");
            out.push_str(style);
            out.push_str("</style>\n");
        }
        if !defs.is_empty() {
            out.push_str("<defs>\n");
            out.push_str(&defs);
            out.push_str("</defs>\n");
        }
        out.push_str(&content);
        out.push_str("</svg>\n");
        Ok(out)
    }

    /// The screen's SVG parts: its size, its definitions (shapes) and its elements (the
    /// background first).
    fn svg_screen(&mut self, screen: &Screen) -> Result<(u32, u32, String, String), PngError> {
        let layout = self.layout(screen.size)?;
        let mut shapes = Shapes::new();
        let body = self.svg_cells(screen, &mut shapes)?;
        let mut content = String::new();
        let _ = writeln!(
            content,
            r#"<rect width="{}" height="{}" fill="{}"/>"#,
            layout.width,
            layout.height,
            self.theme().bg
        );
        content.push_str(&body);
        Ok((layout.width, layout.height, shape_defs(&shapes), content))
    }

    /// The screen's cells as SVG elements on the theme's background (which they leave
    /// out), the code-drawn characters they place added to `shapes`.
    pub(super) fn svg_cells(
        &mut self,
        screen: &Screen,
        shapes: &mut Shapes,
    ) -> Result<String, PngError> {
        Ok(self.svg_rows(screen, shapes)?.concat())
    }

    /// [`Renderer::svg_cells`] row by row: each row's elements (at their place on the
    /// picture), then the thin cursor's (if any), each possibly empty.
    pub(super) fn svg_rows(
        &mut self,
        screen: &Screen,
        shapes: &mut Shapes,
    ) -> Result<Vec<String>, PngError> {
        let layout = self.layout(screen.size)?;
        let m = self.metrics();
        let (cw, ch) = (m.cell_width as i32, m.cell_height as i32);
        let pad = layout.padding as i32;
        let theme_bg = self.theme().bg;
        let block = self.block_cursor(screen);
        let on_cursor =
            |r: usize, c: usize| block.as_ref().is_some_and(|b| b.0 == r && b.1.contains(&c));
        let cols = screen.size.cols as usize;

        let mut body = String::new();
        let mut starts = Vec::with_capacity(screen.rows.len() + 1);
        for (r, row) in screen.rows.iter().enumerate() {
            starts.push(body.len());
            let y = pad + r as i32 * ch;
            // Backgrounds: runs of one colour other than the theme's.
            let mut c = 0;
            while c < row.len().min(cols) {
                let (_, bg) = self.colors(&row[c], on_cursor(r, c));
                let mut end = c + 1;
                while end < row.len().min(cols) && self.colors(&row[end], on_cursor(r, end)).1 == bg
                {
                    end += 1;
                }
                if bg != theme_bg {
                    let _ = writeln!(
                        body,
                        r#"<rect x="{}" y="{y}" width="{}" height="{ch}" fill="{bg}"/>"#,
                        pad + c as i32 * cw,
                        (end - c) as i32 * cw
                    );
                }
                c = end;
            }
            // Text runs, shapes and lines.
            let mut run: Option<Run> = None;
            for (c, cell) in row.iter().enumerate().take(cols) {
                if cell.width == 0 {
                    continue;
                }
                let x = pad + c as i32 * cw;
                let span: u8 = if cell.width == 2 && c + 1 < cols {
                    2
                } else {
                    1
                };
                let (fg, _) = self.colors(cell, on_cursor(r, c));
                let first = cell.text.chars().next().unwrap_or(' ');
                let drawn = !cell.attrs.hidden;
                if drawn && (cell.attrs.underline || cell.attrs.strikethrough) {
                    let w = cw * span as i32;
                    for (on, at) in [
                        (cell.attrs.underline, m.underline_y),
                        (cell.attrs.strikethrough, m.strike_y),
                    ] {
                        if on {
                            let _ = writeln!(
                                body,
                                r#"<rect x="{x}" y="{}" width="{w}" height="{}" fill="{fg}"/>"#,
                                y + at as i32,
                                m.underline_thickness
                            );
                        }
                    }
                }
                let shape = drawn && self.shape(first, span, shapes);
                let style = Style::of(cell, fg);
                let plain = drawn && !shape && cell.text.chars().count() == 1;
                // A run takes plain characters of one style; anything else ends it.
                if run
                    .as_ref()
                    .is_some_and(|r| !plain || r.style != style || cell.width == 2)
                {
                    flush(&mut body, run.take(), y + m.baseline as i32);
                }
                if shape {
                    let _ = writeln!(
                        body,
                        r##"<use href="#{}" x="{x}" y="{y}" fill="{fg}"/>"##,
                        shape_id(first, span)
                    );
                } else if plain {
                    let r = run.get_or_insert_with(|| Run::new(style));
                    r.push(x, first);
                    if cell.width == 2 {
                        flush(&mut body, run.take(), y + m.baseline as i32);
                    }
                } else if drawn && !cell.text.is_empty() && first != ' ' {
                    // A character with combining marks: a text of its own, all at its cell.
                    let mut one = Run::new(style);
                    one.text = cell.text.chars().map(safe_char).collect();
                    one.xs.push(x);
                    flush(&mut body, Some(one), y + m.baseline as i32);
                }
            }
            flush(&mut body, run, y + m.baseline as i32);
        }
        starts.push(body.len());
        if let Some((x, y, w, h)) = self.thin_cursor_rect(screen) {
            let _ = writeln!(
                body,
                r#"<rect x="{}" y="{}" width="{w}" height="{h}" fill="{}"/>"#,
                pad + x,
                pad + y,
                self.theme().fg
            );
        }
        starts.push(body.len());
        Ok(starts
            .windows(2)
            .map(|w| body[w[0]..w[1]].to_string())
            .collect())
    }

    /// Whether `c` is one of the characters drawn in code; if so its rectangles are in
    /// `shapes` (made the first time).
    fn shape(&self, c: char, span: u8, shapes: &mut Shapes) -> bool {
        if c == ' ' || c.is_ascii() {
            return false;
        }
        if let Some(known) = shapes.get(&(c, span)) {
            return known.is_some();
        }
        let m = self.metrics();
        let (w, h) = (m.cell_width * span as u32, m.cell_height);
        // White on black: a pixel's red value is how much of it the shape covers.
        let mut canvas = Canvas::new(w, h, Rgb(0, 0, 0), 255);
        let cell = boxdraw::CellBox {
            x: 0,
            y: 0,
            w: w as i32,
            h: h as i32,
        };
        let drawn = boxdraw::draw(&mut canvas, c, cell, Rgb(255, 255, 255), &m);
        shapes.insert((c, span), drawn.then(|| rectangles(&canvas, w, h)));
        drawn
    }
}

/// The code-drawn characters met so far (with the cells they span): their rectangles, or
/// `None` for a character that turned out not to be one.
pub(super) type Shapes = BTreeMap<(char, u8), Option<String>>;

/// The `<defs>` entries of `shapes`, one `<g>` each, in a fixed order.
pub(super) fn shape_defs(shapes: &Shapes) -> String {
    let mut defs = String::new();
    for ((c, span), rects) in shapes {
        if let Some(rects) = rects {
            let _ = writeln!(defs, r#"<g id="{}">{rects}</g>"#, shape_id(*c, *span));
        }
    }
    defs
}

/// The coverage of a canvas as rectangles: runs of equal coverage on a row, merged with the
/// same runs of the rows below.
fn rectangles(canvas: &Canvas, w: u32, h: u32) -> String {
    // (x, width, coverage) of each row.
    let rows: Vec<Vec<(u32, u32, u8)>> = (0..h)
        .map(|y| {
            let mut runs = Vec::new();
            let mut x = 0;
            while x < w {
                let v = canvas.get(x, y)[0];
                let mut end = x + 1;
                while end < w && canvas.get(end, y)[0] == v {
                    end += 1;
                }
                if v > 0 {
                    runs.push((x, end - x, v));
                }
                x = end;
            }
            runs
        })
        .collect();
    let mut out = String::new();
    let mut done = vec![Vec::<bool>::new(); rows.len()];
    for (y, runs) in rows.iter().enumerate() {
        done[y].resize(runs.len(), false);
    }
    for y in 0..rows.len() {
        for i in 0..rows[y].len() {
            if done[y][i] {
                continue;
            }
            let run = rows[y][i];
            let mut height = 1;
            while let Some(j) = rows
                .get(y + height)
                .and_then(|below| below.iter().position(|r| *r == run))
            {
                done[y + height][j] = true;
                height += 1;
            }
            let (x, width, v) = run;
            let opacity = if v == 255 {
                String::new()
            } else {
                format!(r#" fill-opacity="{:.3}""#, f32::from(v) / 255.0)
            };
            let _ = write!(
                out,
                r#"<rect x="{x}" y="{y}" width="{width}" height="{height}"{opacity}/>"#
            );
        }
    }
    out
}

/// The id of a shape's definition.
fn shape_id(c: char, span: u8) -> String {
    format!("c{:x}-{span}", c as u32)
}

/// How a run of text looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Style {
    fg: Rgb,
    bold: bool,
    italic: bool,
}

impl Style {
    fn of(cell: &Cell, fg: Rgb) -> Style {
        Style {
            fg,
            bold: cell.attrs.bold,
            italic: cell.attrs.italic,
        }
    }
}

/// Characters of one style, each at its cell's x.
struct Run {
    style: Style,
    text: String,
    xs: Vec<i32>,
}

impl Run {
    fn new(style: Style) -> Run {
        Run {
            style,
            text: String::new(),
            xs: Vec::new(),
        }
    }

    fn push(&mut self, x: i32, c: char) {
        self.text.push(safe_char(c));
        self.xs.push(x);
    }
}

/// Writes `text` (a label or a title: untrusted, escaped) as one `<text>` from `x` on the
/// baseline `y`.
fn text_at(out: &mut String, text: &str, x: i32, y: i32, fill: Rgb, bold: bool) {
    let text: String = text.chars().map(safe_char).collect();
    let _ = writeln!(
        out,
        r#"<text x="{x}" y="{y}" fill="{fill}"{} xml:space="preserve">{}</text>"#,
        if bold { r#" font-weight="bold""# } else { "" },
        escape_markup(&text)
    );
}

/// Writes a run as a `<text>` (nothing for a run of blanks).
fn flush(out: &mut String, run: Option<Run>, baseline: i32) {
    let Some(run) = run else { return };
    let trimmed = run.text.trim_end_matches(' ');
    if trimmed.trim_start_matches(' ').is_empty() {
        return;
    }
    let kept = trimmed.chars().count();
    let xs: Vec<String> = run.xs.iter().take(kept).map(i32::to_string).collect();
    let s = run.style;
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{baseline}" fill="{}"{}{} xml:space="preserve">{}</text>"#,
        xs.join(" "),
        s.fg,
        if s.bold { r#" font-weight="bold""# } else { "" },
        if s.italic {
            r#" font-style="italic""#
        } else {
            ""
        },
        escape_markup(trimmed)
    );
}
