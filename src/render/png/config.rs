//! The `[png]` table of `tuicast.toml`:
//!
//! ```toml
//! [png]
//! theme = "dracula"          # a built-in name or "BG,FG,C0,...,C15"; default: the cast's, else asciinema
//! font_size = 16             # pixels per em
//! line_height = 1.2          # cell height in ems
//! padding = 12               # pixels around the grid
//! font_dir = "fonts"         # or a list; fallback fonts for CJK and emoji (relative to tuicast.toml)
//! system_fonts = true        # screenshots: the system's fonts last (never PNG goldens)
//! cursor = "block"           # block, bar, underline, hidden; default: the shape the program set
//! tolerance = 0              # PNG goldens: per-channel difference allowed
//! max_diff_pixels = 0        # PNG goldens: pixels allowed to differ beyond the tolerance
//! ```

use std::path::{Path, PathBuf};

use super::PngOptions;
use crate::term::CursorKind;
use crate::theme::Theme;

/// The `[png]` table of `tuicast.toml`. Every key is optional.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct PngConfig {
    /// A built-in theme name or an agg-style colour list.
    #[serde(default)]
    pub theme: Option<String>,
    /// Font size in pixels per em.
    #[serde(default)]
    pub font_size: Option<f32>,
    /// Cell height in ems.
    #[serde(default)]
    pub line_height: Option<f32>,
    /// Pixels around the grid.
    #[serde(default)]
    pub padding: Option<u32>,
    /// Folders of fallback fonts, relative to the folder of `tuicast.toml`.
    #[serde(default)]
    pub font_dir: Option<FontDirs>,
    /// Screenshots (`tuicast screenshot`, `tuicast replay --format png|gif`): whether the
    /// system's fonts are the last fallback (default true). PNG goldens never use them.
    #[serde(default)]
    pub system_fonts: Option<bool>,
    /// `block`, `bar`, `underline` or `hidden`, instead of the shape the program set.
    #[serde(default)]
    pub cursor: Option<String>,
    /// PNG goldens: the largest per-channel difference that still counts as equal.
    #[serde(default)]
    pub tolerance: Option<u8>,
    /// PNG goldens: how many pixels may differ beyond the tolerance.
    #[serde(default)]
    pub max_diff_pixels: Option<u64>,
}

/// One font folder or several.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
#[non_exhaustive]
pub enum FontDirs {
    /// One folder.
    One(PathBuf),
    /// Several, searched in order.
    Many(Vec<PathBuf>),
}

message_error!(
    /// Why a `[png]` table (or the same settings as flags) does not apply; the message
    /// names the key (`[png] theme: …`) or the flag (`--cursor: …`).
    PngConfigError, PngConfigErrorKind {
        /// The theme is not a built-in name or a theme's colours.
        Theme,
        /// The cursor is not block, bar, underline or hidden.
        Cursor,
    }
);

impl PngConfig {
    /// Applies the table to `options`; relative font folders are taken from `root`.
    pub fn apply(&self, options: &mut PngOptions, root: &Path) -> Result<(), PngConfigError> {
        self.apply_named(options, root, |key| format!("[png] {key}"))
    }

    /// Applies the same settings given as command-line flags: errors name the flag
    /// (`--cursor: ...`).
    pub fn apply_flags(&self, options: &mut PngOptions, root: &Path) -> Result<(), PngConfigError> {
        self.apply_named(options, root, |key| format!("--{}", key.replace('_', "-")))
    }

    /// [`apply`](Self::apply), with errors about `key` prefixed by `name(key)`.
    fn apply_named(
        &self,
        options: &mut PngOptions,
        root: &Path,
        name: impl Fn(&str) -> String,
    ) -> Result<(), PngConfigError> {
        if let Some(t) = &self.theme {
            options.theme = Theme::parse(t).map_err(|e| {
                PngConfigError::new(PngConfigErrorKind::Theme, format!("{}: {e}", name("theme")))
            })?;
            options.bold_is_bright = super::theme::bold_is_bright(t);
        }
        if let Some(s) = self.font_size {
            options.font_size = s;
        }
        if let Some(l) = self.line_height {
            options.line_height = l;
        }
        if let Some(p) = self.padding {
            options.padding = p;
        }
        if let Some(c) = &self.cursor {
            if matches!(c.as_str(), "hidden" | "none") {
                options.hide_cursor = true;
            } else {
                let kind = CursorKind::from_name(c).ok_or_else(|| {
                    PngConfigError::new(
                        PngConfigErrorKind::Cursor,
                        format!(
                            "{}: unknown cursor style {:?}: expected block, bar, underline or hidden",
                            name("cursor"),
                            crate::escape::escape_for_terminal(c, 40)
                        ),
                    )
                })?;
                options.cursor = Some(kind);
                options.hide_cursor = false;
            }
        }
        if let Some(on) = self.system_fonts {
            options.system_fonts = on;
        }
        match &self.font_dir {
            Some(FontDirs::One(d)) => options.font_dirs.push(root.join(d)),
            Some(FontDirs::Many(ds)) => options.font_dirs.extend(ds.iter().map(|d| root.join(d))),
            None => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reading the table from `tuicast.toml` is tested in `src/config.rs`.
    #[test]
    fn the_png_table_is_applied() {
        let root = Path::new("/project");
        let table = PngConfig {
            theme: Some("nord".into()),
            font_size: Some(20.0),
            font_dir: Some(FontDirs::Many(vec!["a".into(), "b".into()])),
            cursor: Some("bar".into()),
            system_fonts: Some(true),
            ..PngConfig::default()
        };
        let mut o = PngOptions::default();
        table.apply(&mut o, root).unwrap();
        assert!(o.system_fonts);
        assert_eq!(o.font_size, 20.0);
        assert_eq!(o.theme, Theme::builtin("nord").unwrap());
        assert!(!o.bold_is_bright, "nord draws bold in the normal colours");
        assert_eq!(o.cursor, Some(crate::term::CursorKind::Bar));
        assert_eq!(o.font_dirs, vec![root.join("a"), root.join("b")]);
        let bad = PngConfig {
            theme: Some("plaid".into()),
            ..PngConfig::default()
        };
        let e = bad.apply(&mut o, root).unwrap_err();
        assert_eq!(e.kind(), PngConfigErrorKind::Theme);
        assert!(e.message().contains("[png] theme"));
        let flag = PngConfig {
            line_height: Some(1.5),
            cursor: Some("ring".into()),
            ..PngConfig::default()
        };
        let e = flag.apply_flags(&mut o, root).unwrap_err();
        assert_eq!(e.kind(), PngConfigErrorKind::Cursor);
        assert!(e.message().starts_with("--cursor: "));
    }
}
