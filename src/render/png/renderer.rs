//! [`Renderer`]: the grid of cells drawn into a canvas (backgrounds, glyphs, lines drawn in
//! code, underline and strikethrough, the cursor), and [`Layout`], where the grid is.
//!
//! Backgrounds come first, then each character with a `Pen` (x, y, span, face, colour), then
//! underline and strikethrough, then the cursor.

use image::RgbaImage;

use super::annotate;
use super::boxdraw;
use super::chrome;
use super::error::PngError;
use super::font::{Fonts, Metrics, Pixels, Style};
use super::options::{check_size, Decorations, PngOptions, FONT_SIZE_RANGE, LINE_HEIGHT_RANGE};
use super::raster::Canvas;
use super::text::char_cells;
use super::theme::resolve;
use crate::rgb::Rgb;
use crate::term::{Cell, Color, CursorKind, Screen, Size};
use crate::theme::Theme;

/// Where the grid is in a plain render ([`Renderer::render`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Layout {
    /// Cell width in pixels.
    pub cell_width: u32,
    /// Cell height in pixels.
    pub cell_height: u32,
    /// Space around the grid, in pixels.
    pub padding: u32,
    /// Columns of the grid.
    pub cols: u16,
    /// Rows of the grid.
    pub rows: u16,
    /// Image width: cols × cell width + 2 × padding.
    pub width: u32,
    /// Image height: rows × cell height + 2 × padding.
    pub height: u32,
}

impl Layout {
    /// The cell (row, col) a pixel belongs to; pixels of the padding belong to the nearest
    /// cell.
    pub fn cell_at(&self, x: u32, y: u32) -> (u16, u16) {
        let col = (x.saturating_sub(self.padding) / self.cell_width.max(1))
            .min(self.cols.saturating_sub(1) as u32);
        let row = (y.saturating_sub(self.padding) / self.cell_height.max(1))
            .min(self.rows.saturating_sub(1) as u32);
        (row as u16, col as u16)
    }

    /// The pixel rectangle (x, y, width, height) of a cell.
    pub fn cell_rect(&self, row: u16, col: u16) -> (u32, u32, u32, u32) {
        (
            self.padding + col as u32 * self.cell_width,
            self.padding + row as u32 * self.cell_height,
            self.cell_width,
            self.cell_height,
        )
    }
}

/// Draws screens. Holds the fonts and a glyph cache, so rendering many screens (the frames of
/// a GIF) with one renderer rasterizes each glyph once.
#[derive(Debug)]
pub struct Renderer {
    options: PngOptions,
    fonts: Fonts,
}

impl Renderer {
    /// A renderer for `options`: checks them and loads the fonts.
    pub fn new(options: PngOptions) -> Result<Renderer, PngError> {
        let (lo, hi) = FONT_SIZE_RANGE;
        if !(options.font_size.is_finite() && (lo..=hi).contains(&options.font_size)) {
            return Err(PngError::Option(format!(
                "font size must be {lo} to {hi} pixels (got {})",
                options.font_size
            )));
        }
        let (lo, hi) = LINE_HEIGHT_RANGE;
        if !(options.line_height.is_finite() && (lo..=hi).contains(&options.line_height)) {
            return Err(PngError::Option(format!(
                "line height must be {lo} to {hi} (got {})",
                options.line_height
            )));
        }
        if options.padding > 2000 {
            return Err(PngError::Option(format!(
                "padding must be at most 2000 pixels (got {})",
                options.padding
            )));
        }
        let fonts = Fonts::new(
            options.font_size,
            options.line_height,
            &options.font_dirs,
            options.system_fonts.then(super::system::search_dirs),
        )?;
        Ok(Renderer { options, fonts })
    }

    /// The options this renderer draws with.
    pub fn options(&self) -> &PngOptions {
        &self.options
    }

    /// The fonts that drew the last picture ([`render`](Self::render),
    /// [`render_decorated`](Self::render_decorated)), each as `Full Name, Version (where)`
    /// (where: `bundled`, `font folder: FILE` or `system: FILE`): the bundled faces first,
    /// then the font folders', then the system's. What
    /// [`encode_png_with_fonts`](super::encode_png_with_fonts) records in a PNG.
    pub fn fonts_used(&self) -> Vec<String> {
        self.fonts.used()
    }

    /// Cell width and height in pixels.
    pub fn cell_size(&self) -> (u32, u32) {
        let m = self.fonts.metrics();
        (m.cell_width, m.cell_height)
    }

    /// Where the grid of a screen of `size` is in a plain render, and the image size.
    pub fn layout(&self, size: Size) -> Result<Layout, PngError> {
        let m = self.fonts.metrics();
        let pad = self.options.padding;
        let width = size.cols as u64 * m.cell_width as u64 + 2 * pad as u64;
        let height = size.rows as u64 * m.cell_height as u64 + 2 * pad as u64;
        check_size(width, height)?;
        Ok(Layout {
            cell_width: m.cell_width,
            cell_height: m.cell_height,
            padding: pad,
            cols: size.cols,
            rows: size.rows,
            width: width as u32,
            height: height as u32,
        })
    }

    /// The screen as an image: the grid with padding around it, opaque.
    pub fn render(&mut self, screen: &Screen) -> Result<RgbaImage, PngError> {
        Ok(self.render_canvas(screen)?.into_image())
    }

    /// The screen with annotations and, if asked, a window frame.
    pub fn render_decorated(
        &mut self,
        screen: &Screen,
        decorations: &Decorations,
    ) -> Result<RgbaImage, PngError> {
        let mut canvas = self.render_canvas(screen)?;
        if !decorations.annotations.is_empty() {
            canvas = annotate::draw(self, canvas, screen, &decorations.annotations)?;
        }
        if decorations.chrome {
            canvas = chrome::frame(self, canvas, decorations.title.as_deref())?;
        }
        Ok(canvas.into_image())
    }

    fn render_canvas(&mut self, screen: &Screen) -> Result<Canvas, PngError> {
        let layout = self.layout(screen.size)?;
        self.fonts.clear_used();
        let mut canvas = Canvas::new(layout.width, layout.height, self.options.theme.bg, 255);
        let pad = self.options.padding as i32;
        self.draw_screen(&mut canvas, pad, pad, screen);
        Ok(canvas)
    }

    /// Draws rows `rows` of `screen` again into `image`, a picture of a screen of the same
    /// size drawn by this renderer: their band of pixels (the whole width) is cleared and the
    /// rows drawn into it, the cursor too when it is on one of them. A glyph of another row
    /// reaching into the band is not drawn again (animation frames, where only some rows
    /// changed).
    pub(crate) fn redraw_rows(
        &mut self,
        image: &mut RgbaImage,
        screen: &Screen,
        rows: std::ops::Range<usize>,
    ) {
        let m = self.fonts.metrics();
        let ch = m.cell_height;
        let pad = self.options.padding;
        let rows = rows.start.min(screen.rows.len())..rows.end.min(screen.rows.len());
        if rows.is_empty() {
            return;
        }
        let mut cursor = screen.cursor;
        let cursor_row = usize::from(cursor.row);
        if rows.contains(&cursor_row) {
            cursor.row = (cursor_row - rows.start) as u16;
        } else {
            cursor.visible = false;
        }
        let band = Screen {
            size: crate::term::Size {
                cols: screen.size.cols,
                rows: rows.len() as u16,
            },
            rows: screen.rows[rows.clone()].to_vec(),
            cursor,
            ..screen.clone()
        };
        let (width, top) = (image.width(), pad + rows.start as u32 * ch);
        let height = (rows.len() as u32 * ch).min(image.height().saturating_sub(top));
        let mut canvas = Canvas::new(width, height, self.options.theme.bg, 255);
        self.draw_screen(&mut canvas, pad as i32, 0, &band);
        let band_pixels = canvas.into_image();
        let stride = width as usize * 4;
        let start = top as usize * stride;
        image.as_mut()[start..start + band_pixels.as_raw().len()]
            .copy_from_slice(band_pixels.as_raw());
    }

    pub(crate) fn metrics(&self) -> Metrics {
        self.fonts.metrics()
    }

    pub(crate) fn theme(&self) -> &Theme {
        &self.options.theme
    }

    /// The foreground and background of a cell as drawn.
    pub(crate) fn colors(&self, cell: &Cell, cursor: bool) -> (Rgb, Rgb) {
        let theme = &self.options.theme;
        let mut fg_color = cell.fg;
        if cell.attrs.bold && self.options.bold_is_bright {
            if let Color::Indexed(n) = fg_color {
                if n < 8 {
                    fg_color = Color::Indexed(n + 8);
                }
            }
        }
        let mut fg = resolve(theme, fg_color, theme.fg);
        let mut bg = resolve(theme, cell.bg, theme.bg);
        if cell.attrs.inverse != cursor {
            std::mem::swap(&mut fg, &mut bg);
        }
        if cell.attrs.dim {
            fg = fg.mix(bg, 110);
        }
        (fg, bg)
    }

    fn draw_screen(&mut self, canvas: &mut Canvas, ox: i32, oy: i32, screen: &Screen) {
        let m = self.fonts.metrics();
        let (cw, ch) = (m.cell_width as i32, m.cell_height as i32);
        let cols = screen.size.cols as usize;
        let rows = screen.size.rows as usize;
        let block = self.block_cursor(screen);
        let on_cursor =
            |r: usize, c: usize| block.as_ref().is_some_and(|b| b.0 == r && b.1.contains(&c));
        let theme_bg = self.options.theme.bg;
        // Backgrounds first, so glyphs that overhang their cell are not cut by a neighbour.
        for (r, row) in screen.rows.iter().take(rows).enumerate() {
            for (c, cell) in row.iter().take(cols).enumerate() {
                let (_, bg) = self.colors(cell, on_cursor(r, c));
                if bg != theme_bg {
                    canvas.fill_rect(ox + c as i32 * cw, oy + r as i32 * ch, cw, ch, bg);
                }
            }
        }
        for (r, row) in screen.rows.iter().take(rows).enumerate() {
            for (c, cell) in row.iter().take(cols).enumerate() {
                if cell.width == 0 {
                    continue;
                }
                let span: u8 = if cell.width == 2 && c + 1 < cols {
                    2
                } else {
                    1
                };
                if cell.attrs.hidden {
                    continue; // concealed: only the background
                }
                let cursor = on_cursor(r, c);
                let (fg, _) = self.colors(cell, cursor);
                let x = ox + c as i32 * cw;
                let y = oy + r as i32 * ch;
                let w = cw * span as i32;
                let pen = Pen {
                    x,
                    y,
                    span,
                    style: Style::of(cell.attrs.bold, cell.attrs.italic),
                    fg,
                };
                self.draw_cell_text(canvas, &cell.text, pen);
                if cell.attrs.underline {
                    canvas.fill_rect(
                        x,
                        y + m.underline_y as i32,
                        w,
                        m.underline_thickness as i32,
                        fg,
                    );
                }
                if cell.attrs.strikethrough {
                    canvas.fill_rect(
                        x,
                        y + m.strike_y as i32,
                        w,
                        m.underline_thickness as i32,
                        fg,
                    );
                }
            }
        }
        self.draw_thin_cursor(canvas, ox, oy, screen);
    }

    /// Draws a cell's text: its base character, then its combining marks over it.
    fn draw_cell_text(&mut self, canvas: &mut Canvas, text: &str, pen: Pen) {
        let mut chars = text.chars();
        let Some(first) = chars.next() else {
            return;
        };
        self.draw_char(canvas, first, pen);
        // Combining marks are drawn over their base character.
        for mark in chars {
            self.draw_glyph(canvas, mark, pen);
        }
    }

    /// Draws a base character with `pen`: box drawing, blocks, braille and powerline shapes
    /// in code, anything else from the fonts, and a visible placeholder box when no font has
    /// it.
    fn draw_char(&mut self, canvas: &mut Canvas, c: char, pen: Pen) {
        let m = self.fonts.metrics();
        let b = boxdraw::CellBox {
            x: pen.x,
            y: pen.y,
            w: m.cell_width as i32 * pen.span as i32,
            h: m.cell_height as i32,
        };
        if c == ' ' || boxdraw::draw(canvas, c, b, pen.fg, &m) {
            return;
        }
        if !self.draw_glyph(canvas, c, pen) {
            placeholder(canvas, b, pen.fg);
        }
    }

    /// Draws one glyph with `pen`; false when no font has it.
    fn draw_glyph(&mut self, canvas: &mut Canvas, c: char, pen: Pen) -> bool {
        if c.is_control() {
            return false;
        }
        let Some(g) = self.fonts.glyph(c, pen.style, pen.span) else {
            return false;
        };
        let (x, y) = (pen.x + g.left, pen.y + g.top);
        match &g.pixels {
            Pixels::Mask(mask) => canvas.draw_mask(x, y, g.width, g.height, mask, pen.fg),
            Pixels::Color(rgba) => canvas.draw_rgba(x, y, g.width, g.height, rgba),
        }
        true
    }

    /// Draws `text` with its first cell's top-left at (x, y); returns the width in pixels.
    pub(crate) fn draw_text(
        &mut self,
        canvas: &mut Canvas,
        text: &str,
        x: i32,
        y: i32,
        fg: Rgb,
        bold: bool,
    ) -> i32 {
        let m = self.fonts.metrics();
        let style = Style::of(bold, false);
        let mut cx = x;
        for c in text.chars() {
            let span = char_cells(c);
            if span == 0 {
                // A combining mark: over the character before it.
                let pen = Pen {
                    x: cx - m.cell_width as i32,
                    y,
                    span: 1,
                    style,
                    fg,
                };
                self.draw_glyph(canvas, c, pen);
                continue;
            }
            let pen = Pen {
                x: cx,
                y,
                span,
                style,
                fg,
            };
            self.draw_char(canvas, c, pen);
            cx += m.cell_width as i32 * span as i32;
        }
        cx - x
    }

    /// The shape the cursor of `screen` is drawn with: the option, else the shape the program
    /// set; `None` when the options hide it.
    fn cursor_kind(&self, screen: &Screen) -> Option<CursorKind> {
        if self.options.hide_cursor {
            return None;
        }
        Some(self.options.cursor.unwrap_or(screen.cursor.shape.kind))
    }

    /// The row and columns the block cursor covers, when it is drawn as a block.
    pub(crate) fn block_cursor(&self, screen: &Screen) -> Option<(usize, std::ops::Range<usize>)> {
        if self.cursor_kind(screen) != Some(CursorKind::Block) {
            return None;
        }
        cursor_cells(screen)
    }

    fn draw_thin_cursor(&self, canvas: &mut Canvas, ox: i32, oy: i32, screen: &Screen) {
        if let Some((x, y, w, h)) = self.thin_cursor_rect(screen) {
            canvas.fill_rect(ox + x, oy + y, w, h, self.options.theme.fg);
        }
    }

    /// The rectangle (x, y, width, height, from the grid's top-left corner) of a bar or
    /// underline cursor, drawn in the theme's foreground; `None` for a block or no cursor.
    pub(crate) fn thin_cursor_rect(&self, screen: &Screen) -> Option<(i32, i32, i32, i32)> {
        let (row, cols) = cursor_cells(screen)?;
        let m = self.fonts.metrics();
        let (cw, ch) = (m.cell_width as i32, m.cell_height as i32);
        let x = cols.start as i32 * cw;
        let y = row as i32 * ch;
        let w = cw * cols.len() as i32;
        match self.cursor_kind(screen) {
            Some(CursorKind::Bar) => Some((x, y, (cw / 6).max(2), ch)),
            Some(CursorKind::Underline) => {
                let t = (ch / 10).max(2);
                Some((x, y + ch - t, w, t))
            }
            Some(CursorKind::Block) | None => None,
        }
    }
}

/// How one character is drawn: the top-left corner of its box, the cells the box spans (two
/// for a wide character), the face and the colour.
#[derive(Debug, Clone, Copy)]
struct Pen {
    x: i32,
    y: i32,
    span: u8,
    style: Style,
    fg: Rgb,
}

/// The cursor's row and the columns it covers (two on a wide character), when it is shown.
fn cursor_cells(screen: &Screen) -> Option<(usize, std::ops::Range<usize>)> {
    let cur = screen.cursor;
    if !cur.visible || screen.size.cols == 0 || cur.row >= screen.size.rows {
        return None;
    }
    let row = cur.row as usize;
    // A cursor past the last column (a pending wrap) is shown on the last cell.
    let mut col = (cur.col as usize).min(screen.size.cols as usize - 1);
    let cells = screen.rows.get(row);
    if cells.and_then(|r| r.get(col)).is_some_and(|c| c.width == 0) && col > 0 {
        col -= 1;
    }
    let wide = cells.and_then(|r| r.get(col)).is_some_and(|c| c.width == 2);
    let end = if wide {
        (col + 2).min(screen.size.cols as usize)
    } else {
        col + 1
    };
    Some((row, col..end))
}

/// A box where a glyph is missing: visible, the width of the character.
fn placeholder(canvas: &mut Canvas, b: boxdraw::CellBox, fg: Rgb) {
    let inset = (b.w / 8).max(1);
    let t = (b.w / 10).max(1);
    let h = b.h * 3 / 4;
    let y = b.y + (b.h - h) / 2;
    canvas.stroke_rect(b.x + inset, y, b.w - 2 * inset, h, t, fg);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked() {
        for bad in [0.0, 1000.0, f32::NAN] {
            let o = PngOptions {
                font_size: bad,
                ..PngOptions::default()
            };
            assert!(Renderer::new(o)
                .unwrap_err()
                .to_string()
                .contains("font size"));
        }
        let o = PngOptions {
            line_height: 9.0,
            ..PngOptions::default()
        };
        assert!(Renderer::new(o).is_err());
        let r = Renderer::new(PngOptions::default()).unwrap();
        let e = r
            .layout(Size {
                cols: 10000,
                rows: 10000,
            })
            .unwrap_err();
        assert!(e.to_string().contains("--font-size"), "{e}");
    }

    #[test]
    fn colours_follow_the_attributes() {
        let r = Renderer::new(PngOptions::default()).unwrap();
        let t = Theme::default();
        let s = crate::term::test_screen(
            Size { cols: 10, rows: 1 },
            "\x1b[1;31mA\x1b[0;7mB\x1b[0;2mC\x1b[0;38;2;1;2;3mD\x1b[0;1;2;31mE",
        );
        let cells = &s.rows[0];
        assert_eq!(r.colors(&cells[0], false).0, t.palette[9], "bold is bright");
        assert_eq!(r.colors(&cells[1], false), (t.bg, t.fg), "inverse");
        assert_eq!(r.colors(&cells[1], true), (t.fg, t.bg), "cursor on inverse");
        assert_eq!(r.colors(&cells[2], false).0, t.fg.mix(t.bg, 110), "dim");
        assert_eq!(r.colors(&cells[3], false).0, Rgb(1, 2, 3));
        // Bold with faint (SGR 1 then 2, kept together as in xterm): bright, then dimmed.
        assert!(cells[4].attrs.bold && cells[4].attrs.dim);
        assert_eq!(
            r.colors(&cells[4], false).0,
            t.palette[9].mix(t.bg, 110),
            "bold and dim"
        );
        let plain = Renderer::new(PngOptions {
            bold_is_bright: false,
            ..PngOptions::default()
        })
        .unwrap();
        assert_eq!(
            plain.colors(&cells[0], false).0,
            t.palette[1],
            "bold, not bright"
        );
    }

    #[test]
    fn the_cursor_covers_a_wide_character_whole() {
        let mut s = crate::term::test_screen(Size { cols: 6, rows: 2 }, "日本");
        s.cursor.col = 1;
        assert_eq!(cursor_cells(&s), Some((0, 0..2)));
        s.cursor.col = 6;
        assert_eq!(cursor_cells(&s), Some((0, 5..6)));
        s.cursor.visible = false;
        assert_eq!(cursor_cells(&s), None);
    }
}
