//! Renders a [`Screen`] as a picture of a terminal: PNG screenshots, animated GIFs of timed
//! screens, and pixel comparison for PNG goldens.
//!
//! ```
//! use tuicast::render::png::{self, PngOptions, Renderer};
//! use tuicast::term::{EngineKind, Size};
//!
//! let mut engine = EngineKind::Avt.create(Size { cols: 20, rows: 2 });
//! engine.feed("\x1b[1;31mred\x1b[0m ┌─┐");
//! let mut renderer = Renderer::new(PngOptions::default())?;
//! let image = renderer.render(&engine.screen())?;
//! let layout = renderer.layout(Size { cols: 20, rows: 2 })?;
//! assert_eq!((image.width(), image.height()), (layout.width, layout.height));
//! let bytes = png::encode_png(&image)?;
//! assert!(bytes.starts_with(b"\x89PNG"));
//! # Ok::<(), png::PngError>(())
//! ```
//!
//! # What is drawn
//! - Text in DejaVu Sans Mono (bundled: regular, bold, oblique, bold oblique), so a render is
//!   the same on every machine. Characters it lacks (CJK, emoji) come from the fonts of the
//!   font folders given ([`PngOptions::font_dirs`]), in order; a character no font has is a
//!   visible box of the right width.
//! - Cells are whole pixels: the advance of the font rounded, and `line_height` × font size.
//!   Wide characters take two cells. Box drawing, block elements, braille and the powerline
//!   separators are drawn in code, so lines join without gaps at any size.
//! - Colours: the theme's 16 and the xterm 256-colour cube and greys, and truecolour. Bold
//!   uses the bold face (and the bright colour for palette 0–7 where the theme says so); dim
//!   is drawn halfway to the background; italic uses the oblique face; underline,
//!   strikethrough and inverse as a terminal does; hidden (concealed) text shows only its
//!   background. The cursor is the shape the program set with DECSCUSR (a block, the cell
//!   inverted, unless it chose a bar or an underline; [`PngOptions::cursor`] overrides it),
//!   drawn steady, and absent when the program hid it.
//! - [`Decorations`]: annotation boxes with labels and a legend, and a window frame.
//!
//! Everything is integer arithmetic or exact float operations: the same screen and options
//! give the same pixels on every machine.

mod annotate;
mod boxdraw;
mod chrome;
mod compare;
mod config;
mod font;
mod gif;
mod raster;
mod theme;

use std::fmt;
use std::path::PathBuf;

use image::RgbaImage;

use crate::term::{Cell, Color, CursorKind, Screen, Size};

pub use crate::rgb::Rgb;
pub use annotate::{Annotation, AnnotationSpec, Region};
pub use compare::{compare, decode_png, diff_image, PixelDiff};
pub use config::{FontDirs, PngConfig};
pub use gif::{render_gif, GifEncoder, GifOptions, GifStats, MAX_FPS};
pub use theme::{Theme, THEMES};

use font::{Fonts, Metrics, Pixels, Style};
use raster::Canvas;

/// Smallest and largest font size, in pixels per em.
pub const FONT_SIZE_RANGE: (f32, f32) = (4.0, 256.0);
/// Smallest and largest line height, in ems.
pub const LINE_HEIGHT_RANGE: (f32, f32) = (0.6, 4.0);
/// The largest image side, in pixels.
pub const MAX_SIDE: u32 = 32_000;
/// The largest image, in pixels.
pub const MAX_PIXELS: u64 = 120_000_000;

/// How a screen is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct PngOptions {
    /// Colours.
    pub theme: Theme,
    /// Font size in pixels per em (default 16).
    pub font_size: f32,
    /// Cell height in ems (default 1.2).
    pub line_height: f32,
    /// Space around the grid, in pixels (default 12).
    pub padding: u32,
    /// Folders of fallback fonts for characters the bundled font lacks, searched in order.
    /// Empty by default, so output depends on nothing but tuicast.
    pub font_dirs: Vec<PathBuf>,
    /// The cursor's shape, instead of the one the program set (DECSCUSR, default a block);
    /// `None` (the default) draws the program's.
    pub cursor: Option<CursorKind>,
    /// Draw no cursor, even when the program shows it (default false).
    pub hide_cursor: bool,
}

impl Default for PngOptions {
    fn default() -> Self {
        PngOptions {
            theme: Theme::default(),
            font_size: 16.0,
            line_height: 1.2,
            padding: 12,
            font_dirs: Vec::new(),
            cursor: None,
            hide_cursor: false,
        }
    }
}

/// Extras drawn around and over the screen.
#[derive(Debug, Clone, Default)]
pub struct Decorations {
    /// Boxes around cells or regex matches, with optional labels.
    pub annotations: Vec<Annotation>,
    /// Draw a window frame: title bar, rounded corners, shadow, transparent margin.
    pub chrome: bool,
    /// The title shown in the frame's title bar.
    pub title: Option<String>,
}

/// Where the grid is in a plain render ([`Renderer::render`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// Why a picture could not be made.
#[derive(Debug)]
pub enum PngError {
    /// An option is out of range.
    Option(String),
    /// A font folder could not be read.
    FontDir {
        /// The folder.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A font could not be parsed.
    Font {
        /// The font file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// An annotation spec is not valid.
    Annotation(String),
    /// The image would be too large.
    TooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// Encoding or decoding an image failed.
    Image(String),
    /// Writing an animation failed.
    Io(std::io::Error),
}

impl fmt::Display for PngError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PngError::Option(m) => f.write_str(m),
            PngError::FontDir { path, message } => {
                write!(f, "font folder {}: {message}", path.display())
            }
            PngError::Font { path, message } => write!(f, "font {}: {message}", path.display()),
            PngError::Annotation(m) => write!(f, "annotation: {m}"),
            PngError::TooLarge { width, height } => write!(
                f,
                "the image would be {width}x{height} pixels, more than tuicast draws \
                 ({MAX_SIDE} pixels a side, {MAX_PIXELS} in all); use a smaller --font-size, \
                 --line-height or --padding, or fewer labelled annotations"
            ),
            PngError::Image(m) => write!(f, "image: {m}"),
            PngError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PngError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // `Display` already shows the inner error: its own source comes next, not it again.
        match self {
            PngError::Io(e) => e.source(),
            _ => None,
        }
    }
}

impl From<std::io::Error> for PngError {
    fn from(e: std::io::Error) -> Self {
        PngError::Io(e)
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
        let fonts = Fonts::new(options.font_size, options.line_height, &options.font_dirs)?;
        Ok(Renderer { options, fonts })
    }

    /// The options this renderer draws with.
    pub fn options(&self) -> &PngOptions {
        &self.options
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
        let mut canvas = Canvas::new(layout.width, layout.height, self.options.theme.bg, 255);
        let pad = self.options.padding as i32;
        self.draw_screen(&mut canvas, pad, pad, screen);
        Ok(canvas)
    }

    pub(crate) fn metrics(&self) -> Metrics {
        self.fonts.metrics()
    }

    pub(crate) fn theme(&self) -> &Theme {
        &self.options.theme
    }

    /// The foreground and background of a cell as drawn.
    fn colors(&self, cell: &Cell, cursor: bool) -> (Rgb, Rgb) {
        let theme = &self.options.theme;
        let mut fg_color = cell.fg;
        if cell.attrs.bold && theme.bold_is_bright {
            if let Color::Indexed(n) = fg_color {
                if n < 8 {
                    fg_color = Color::Indexed(n + 8);
                }
            }
        }
        let mut fg = theme.resolve(fg_color, theme.fg);
        let mut bg = theme.resolve(cell.bg, theme.bg);
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
                self.draw_cell_text(canvas, cell, x, y, span, fg);
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

    fn draw_cell_text(
        &mut self,
        canvas: &mut Canvas,
        cell: &Cell,
        x: i32,
        y: i32,
        span: u8,
        fg: Rgb,
    ) {
        let mut chars = cell.text.chars();
        let Some(first) = chars.next() else {
            return;
        };
        let style = Style::of(cell.attrs.bold, cell.attrs.italic);
        self.draw_char(canvas, first, style, span, x, y, fg);
        // Combining marks are drawn over their base character.
        for mark in chars {
            self.draw_glyph(canvas, mark, style, span, x, y, fg);
        }
    }

    /// Draws a base character in a box of `span` cells at (x, y): box drawing, blocks,
    /// braille and powerline shapes in code, anything else from the fonts, and a visible
    /// placeholder box when no font has it.
    #[allow(clippy::too_many_arguments)]
    fn draw_char(
        &mut self,
        canvas: &mut Canvas,
        c: char,
        style: Style,
        span: u8,
        x: i32,
        y: i32,
        fg: Rgb,
    ) {
        let m = self.fonts.metrics();
        let b = boxdraw::CellBox {
            x,
            y,
            w: m.cell_width as i32 * span as i32,
            h: m.cell_height as i32,
        };
        if c == ' ' || boxdraw::draw(canvas, c, b, fg, &m) {
            return;
        }
        if !self.draw_glyph(canvas, c, style, span, x, y, fg) {
            placeholder(canvas, b, fg);
        }
    }

    /// Draws one glyph in the cell box at (x, y); false when no font has it.
    #[allow(clippy::too_many_arguments)]
    fn draw_glyph(
        &mut self,
        canvas: &mut Canvas,
        c: char,
        style: Style,
        span: u8,
        x: i32,
        y: i32,
        fg: Rgb,
    ) -> bool {
        if c.is_control() {
            return false;
        }
        let Some(g) = self.fonts.glyph(c, style, span) else {
            return false;
        };
        match &g.pixels {
            Pixels::Mask(mask) => {
                canvas.draw_mask(x + g.left, y + g.top, g.width, g.height, mask, fg)
            }
            Pixels::Color(rgba) => canvas.draw_rgba(x + g.left, y + g.top, g.width, g.height, rgba),
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
                self.draw_glyph(canvas, c, style, 1, cx - m.cell_width as i32, y, fg);
                continue;
            }
            self.draw_char(canvas, c, style, span, cx, y, fg);
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
    fn block_cursor(&self, screen: &Screen) -> Option<(usize, std::ops::Range<usize>)> {
        if self.cursor_kind(screen) != Some(CursorKind::Block) {
            return None;
        }
        cursor_cells(screen)
    }

    fn draw_thin_cursor(&self, canvas: &mut Canvas, ox: i32, oy: i32, screen: &Screen) {
        let Some((row, cols)) = cursor_cells(screen) else {
            return;
        };
        let m = self.fonts.metrics();
        let (cw, ch) = (m.cell_width as i32, m.cell_height as i32);
        let x = ox + cols.start as i32 * cw;
        let y = oy + row as i32 * ch;
        let w = cw * cols.len() as i32;
        let color = self.options.theme.fg;
        match self.cursor_kind(screen) {
            Some(CursorKind::Bar) => canvas.fill_rect(x, y, (cw / 6).max(2), ch, color),
            Some(CursorKind::Underline) => {
                let t = (ch / 10).max(2);
                canvas.fill_rect(x, y + ch - t, w, t, color)
            }
            Some(CursorKind::Block) | None => {}
        }
    }
}

/// How hard PNG encoding compresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

fn check_size(width: u64, height: u64) -> Result<(), PngError> {
    if width > MAX_SIDE as u64 || height > MAX_SIDE as u64 || width * height > MAX_PIXELS {
        return Err(PngError::TooLarge { width, height });
    }
    Ok(())
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

/// Cells a character takes in labels and titles.
fn char_cells(c: char) -> u8 {
    unicode_width::UnicodeWidthChar::width(c)
        .unwrap_or(0)
        .min(2) as u8
}

/// Cells `text` takes.
pub(crate) fn text_cells(text: &str) -> usize {
    text.chars().map(|c| char_cells(c) as usize).sum()
}

/// `text` cut to at most `max` cells, with `…` when cut; control characters become `?`.
pub(crate) fn fit_text(text: &str, max: usize) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text_cells(&clean) <= max {
        return clean;
    }
    let mut out = String::new();
    let mut used = 0;
    for c in clean.chars() {
        let w = char_cells(c) as usize;
        if used + w + 1 > max {
            break;
        }
        out.push(c);
        used += w;
    }
    if max > 0 {
        out.push('…');
    }
    out
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
            "\x1b[1;31mA\x1b[0;7mB\x1b[0;2mC\x1b[0;38;2;1;2;3mD",
        );
        let cells = &s.rows[0];
        assert_eq!(r.colors(&cells[0], false).0, t.palette[9], "bold is bright");
        assert_eq!(r.colors(&cells[1], false), (t.bg, t.fg), "inverse");
        assert_eq!(r.colors(&cells[1], true), (t.fg, t.bg), "cursor on inverse");
        assert_eq!(r.colors(&cells[2], false).0, t.fg.mix(t.bg, 110), "dim");
        assert_eq!(r.colors(&cells[3], false).0, Rgb(1, 2, 3));
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

    #[test]
    fn text_is_fitted_with_an_ellipsis() {
        assert_eq!(fit_text("hello", 10), "hello");
        assert_eq!(fit_text("hello world", 6), "hello…");
        assert_eq!(fit_text("日本語", 4), "日…");
        assert_eq!(fit_text("a\x1bb", 5), "a?b");
    }
}
