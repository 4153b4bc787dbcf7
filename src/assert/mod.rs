//! Assertions: golden snapshot files, comparison, diffs, update modes, masks, pending review.
//!
//! A checkpoint's screen is rendered in each configured [`Format`] and compared with its golden
//! file. What happens on a mismatch is asked with [`UpdateMode`] (`TUICAST_UPDATE`) and done as
//! the [`UpdateAction`] it resolves to, CI taken into account.
//!
//! Text goldens are compared by [`check_file`]; PNG goldens by decoded pixels in [`check_png`]
//! (a mismatch also writes `<golden>.diff.png`, the actual render with the changed cells
//! outlined). A [`Check`] holds one golden check's settings and does either, by format.

mod check;
mod diff;
mod expect;
mod format;
mod layout;
mod mask;
pub mod pending;
#[cfg(feature = "png")]
mod png_check;
#[cfg(not(feature = "png"))]
#[path = "png_off.rs"]
mod png_check;
mod snapshot;
mod update;

use std::path::Path;

pub use check::{check_file, read_golden, Check, Outcome, MAX_GOLDEN_BYTES};
pub use diff::{compare, unified, Difference, Place, MAX_DIFF_LINES};
pub use expect::{
    parse_color, ColorError, ColorErrorKind, Expect, ExpectFailure, ExpectFailureKind, StyleCheck,
    TextCheck,
};
pub use format::{Format, FormatError, FormatErrorKind};
pub use layout::{cast_stem, diff_image_path, pending_path, sanitize, snapshot_path};
pub use mask::{apply_all, apply_counted, cursor_view, Mask};
pub use png_check::{check_png, PngCheck};
pub use snapshot::{
    header_len, parse_styles, parse_styles_in, render, render_golden, render_with, rows_start,
    style_runs, upgrade_golden, CursorView, Style, StyleRun, HEADER_LINES, LINKS_MARK, SCREEN_MARK,
    SCROLLBACK_MARK, STYLES_MARK,
};
pub use update::{
    running_under_ci, UpdateAction, UpdateMode, UpdateModeError, UpdateModeErrorKind, UPDATE_ENV,
};

/// What a build without the `png` feature says to a `png` golden or a `[[screenshot]]`: the
/// Cargo line that turns the feature on.
pub const PNG_FEATURE_FIX: &str = concat!(
    "turn it on in Cargo.toml: tuicast = { version = \"",
    env!("CARGO_PKG_VERSION"),
    "\", default-features = false, features = [\"png\"] } (or leave default-features on)"
);

/// A path as people want to read it: relative to the current folder when inside it, escaped.
pub(crate) fn shown_path(path: &Path) -> String {
    let rel = crate::util::relative_to_cwd(path);
    crate::escape::escape_for_terminal(&rel.display().to_string(), 300)
}
