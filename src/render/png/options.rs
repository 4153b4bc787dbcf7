//! What a render is drawn with: [`PngOptions`], [`Decorations`], and the limits options and
//! images are checked against.

use std::path::PathBuf;

use super::annotate::Annotation;
use super::error::PngError;
use crate::term::CursorKind;
use crate::theme::Theme;

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
#[non_exhaustive]
pub struct PngOptions {
    /// Colours (default asciinema's).
    pub theme: Theme,
    /// Whether bold text in palette colours 0–7 is drawn in the bright colour (8–15), as
    /// xterm and asciinema's player do (default true; a built-in theme other than asciinema's
    /// named in `[png] theme` or `--theme` turns it off).
    pub bold_is_bright: bool,
    /// Font size in pixels per em (default 16).
    pub font_size: f32,
    /// Cell height in ems (default 1.2).
    pub line_height: f32,
    /// Space around the grid, in pixels (default 12).
    pub padding: u32,
    /// Folders of fallback fonts for characters the bundled font lacks, searched in order.
    /// Empty by default, so output depends on nothing but tuicast.
    pub font_dirs: Vec<PathBuf>,
    /// Whether the system's fonts are the last fallback, for characters neither the bundled
    /// font nor [`font_dirs`](Self::font_dirs) have (CJK, symbols, emoji): the usual font
    /// folders, or those of [`SYSTEM_FONT_DIRS_ENV`](super::SYSTEM_FONT_DIRS_ENV), read only
    /// when such a character is drawn. False by default, so a render depends on nothing but
    /// tuicast and the fonts named; `tuicast screenshot` and `tuicast replay` turn it on
    /// (`--no-system-fonts`, `[png] system_fonts = false`). PNG goldens never use system
    /// fonts, whatever this says.
    pub system_fonts: bool,
    /// The cursor's shape, instead of the one the program set (DECSCUSR, default a block);
    /// `None` (the default) draws the program's.
    pub cursor: Option<CursorKind>,
    /// Draw no cursor, even when the program shows it (default false).
    pub hide_cursor: bool,
}

impl PngOptions {
    /// These options with the colours of `theme`.
    pub fn theme(self, theme: Theme) -> PngOptions {
        PngOptions { theme, ..self }
    }

    /// These options with a font of `pixels` per em.
    pub fn font_size(self, pixels: f32) -> PngOptions {
        PngOptions {
            font_size: pixels,
            ..self
        }
    }

    /// These options with cells `ems` tall.
    pub fn line_height(self, ems: f32) -> PngOptions {
        PngOptions {
            line_height: ems,
            ..self
        }
    }

    /// These options with `pixels` around the grid.
    pub fn padding(self, pixels: u32) -> PngOptions {
        PngOptions {
            padding: pixels,
            ..self
        }
    }

    /// These options with fallback fonts from `dirs`, searched in order.
    pub fn font_dirs(self, dirs: Vec<PathBuf>) -> PngOptions {
        PngOptions {
            font_dirs: dirs,
            ..self
        }
    }

    /// These options with the system's fonts as the last fallback (or not).
    pub fn system_fonts(self, on: bool) -> PngOptions {
        PngOptions {
            system_fonts: on,
            ..self
        }
    }

    /// These options drawing the cursor as `kind` (`None`: the shape the program set).
    pub fn cursor(self, kind: Option<CursorKind>) -> PngOptions {
        PngOptions {
            cursor: kind,
            ..self
        }
    }

    /// These options hiding the cursor even where the program shows it (or not).
    pub fn hide_cursor(self, hide: bool) -> PngOptions {
        PngOptions {
            hide_cursor: hide,
            ..self
        }
    }
}

impl Default for PngOptions {
    fn default() -> Self {
        PngOptions {
            theme: Theme::default(),
            bold_is_bright: true,
            font_size: 16.0,
            line_height: 1.2,
            padding: 12,
            font_dirs: Vec::new(),
            system_fonts: false,
            cursor: None,
            hide_cursor: false,
        }
    }
}

/// Extras drawn around and over the screen.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Decorations {
    /// Boxes around cells or regex matches, with optional labels.
    pub annotations: Vec<Annotation>,
    /// Draw a window frame: title bar, rounded corners, shadow, transparent margin.
    pub chrome: bool,
    /// The title shown in the frame's title bar.
    pub title: Option<String>,
}

impl Decorations {
    /// Decorations of `annotations` alone (no chrome, no title; set those after).
    pub fn annotated(annotations: Vec<Annotation>) -> Decorations {
        Decorations {
            annotations,
            ..Decorations::default()
        }
    }
}

/// Fails with [`PngError::TooLarge`] when an image of `width` × `height` would pass the limits.
pub(crate) fn check_size(width: u64, height: u64) -> Result<(), PngError> {
    if width > MAX_SIDE as u64 || height > MAX_SIDE as u64 || width * height > MAX_PIXELS {
        return Err(PngError::TooLarge { width, height });
    }
    Ok(())
}
