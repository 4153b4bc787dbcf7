//! Renders a [`Screen`](crate::term::Screen) as a picture of a terminal: PNG and SVG
//! screenshots, animations of timed screens (GIF, APNG, animated SVG), and pixel comparison
//! for PNG goldens.
//!
//! ```
//! use tuicast::render::png::{self, PngOptions, Renderer};
//! use tuicast::size::Size;
//! use tuicast::term::EngineKind;
//!
//! let mut engine = EngineKind::Native.create(Size { cols: 20, rows: 2 });
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
//!   font folders given ([`PngOptions::font_dirs`]), in order, then, when
//!   [`PngOptions::system_fonts`] is set (screenshots; never PNG goldens), from the system's
//!   fonts (the usual font folders, or [`SYSTEM_FONT_DIRS_ENV`]); a character no font has is
//!   a visible box of the right width. Colour emoji fonts with PNG bitmaps (Noto Color Emoji)
//!   are drawn in colour. A PNG records the fonts that drew it ([`FONTS_KEY`]).
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
//!
//! # Files
//! `renderer.rs` (`Renderer`, `Layout`, `Pen`), `options.rs` (`PngOptions`, `Decorations`,
//! the size limits), `font.rs` (bundled DejaVu Sans Mono from `assets/fonts/`, fallbacks from
//! `--font-dir`, the glyph cache with the font each glyph came from: `Renderer::fonts_used`),
//! `system.rs` (the system's fonts, the last fallback of screenshots, never of goldens: the
//! usual folders or `TUICAST_SYSTEM_FONT_DIRS`, listed and read only when a character needs
//! them, bounded, coverage indexed and faces cached), `boxdraw.rs` (box drawing, blocks,
//! braille and powerline in code), `raster.rs` (the canvas), `theme.rs` (a cell's colours
//! through `theme::Theme`), `annotate.rs` (annotation boxes, `Badge` labels, the legend),
//! `chrome.rs` (the window frame), `text.rs` (labels fitted with `…`), `encode.rs`
//! (`render_png`, encoding and decoding, the `tuicast:fonts` `tEXt` chunk:
//! `encode_png_with_fonts`, `png_fonts`), `config.rs` (`PngConfig`, the `[png]` table),
//! `gif.rs` (`GifEncoder`: timed screens in, GIF out; `Pictures`, the changed rectangles of
//! each frame), `apng.rs` (`ApngEncoder`: the same pictures as an APNG, lossless),
//! `animated_svg.rs` (`SvgAnimation`: each distinct screen drawn once as the still SVG draws
//! it, shown by CSS keyframes), `svg.rs` (`Renderer::render_svg`,
//! `render_svg_decorated`: the same grid as SVG, text as text, the code-drawn characters as
//! rectangles, annotations and the frame from the PNG's geometry: `annotate::plan`,
//! `chrome::Frame`), `compare.rs` (pixel comparison and diff images), `error.rs` (`PngError`).

mod animated_svg;
mod annotate;
mod apng;
mod boxdraw;
mod chrome;
mod compare;
mod config;
mod encode;
mod error;
mod font;
mod gif;
mod options;
mod raster;
mod renderer;
mod svg;
mod system;
mod text;
mod theme;

pub use animated_svg::{SvgAnimation, MAX_SVG_BYTES, MAX_SVG_FRAMES};
pub use annotate::{Annotation, AnnotationSpec};
pub use apng::{ApngEncoder, MAX_APNG_BYTES};
pub use compare::{compare, diff_image, PixelDiff};
pub use config::{FontDirs, PngConfig, PngConfigError, PngConfigErrorKind};
pub use encode::{
    decode_png, encode_png, encode_png_with, encode_png_with_fonts, png_dimensions, png_fonts,
    render_png, Compression, FONTS_KEY,
};
pub use error::PngError;
pub use gif::{
    animation_layout, render_gif, GifEncoder, GifOptions, GifStats, MAX_FPS, MAX_GIF_PIXELS,
};
pub use options::{
    Decorations, PngOptions, FONT_SIZE_RANGE, LINE_HEIGHT_RANGE, MAX_PIXELS, MAX_SIDE,
};
pub use renderer::{Layout, Renderer};
pub use system::SYSTEM_FONT_DIRS_ENV;
