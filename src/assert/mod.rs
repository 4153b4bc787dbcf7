//! Assertions: golden snapshot files, comparison, diffs, update modes, masks, pending review.
//!
//! A checkpoint's screen is rendered in each configured [`Format`] and compared with its golden
//! file. What happens on a mismatch is asked with [`UpdateMode`] (`TUICAST_UPDATE`) and done as
//! the [`UpdateAction`] it resolves to, CI taken into account.
//!
//! Text goldens are compared by [`check_file`]; PNG goldens by decoded pixels in [`check_png`]
//! (a mismatch also writes `<golden>.diff.png`, the actual render with the changed cells
//! outlined). [`check_snapshot`] does either, by format.

mod diff;
mod layout;
mod mask;
pub mod pending;
mod snapshot;

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use crate::render::png::{self as png_render, PngConfig, PngOptions, Renderer};
use crate::term::Screen;

pub use diff::{compare, unified, Difference, Place, MAX_DIFF_LINES};
pub use layout::{cast_stem, pending_path, sanitize, snapshot_path};
pub use mask::{apply_all, Mask, PLACEHOLDER};
pub use snapshot::{
    parse_styles, render, style_runs, Format, Style, StyleRun, HEADER_LINES, STYLES_MARK,
};

/// What the user asked a mismatch to do: `TUICAST_UPDATE=auto|new|always|no`, or
/// `tuicast test --update` (= `always`).
///
/// This is a request, not a behaviour: `auto` means different things under CI and on a
/// laptop. [`UpdateMode::resolve`] turns it into the [`UpdateAction`] that this run performs,
/// and only an `UpdateAction` is accepted by the functions that write files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UpdateMode {
    /// `no` under CI (when `CI` is set), `new` elsewhere.
    #[default]
    Auto,
    /// Write the actual render as `<golden>.new` beside the golden, for review.
    New,
    /// Overwrite the golden (or create it) and pass.
    Always,
    /// Write nothing.
    No,
}

/// What a check does on a mismatch in this run: an [`UpdateMode`] with CI taken into account.
///
/// The default writes nothing: a caller that forgets to choose cannot touch a golden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UpdateAction {
    /// Write the actual render as `<golden>.new` beside the golden, for review; remove a
    /// stale `.new` beside a golden that passes.
    WriteNew,
    /// Overwrite the golden (or create it) and pass.
    Overwrite,
    /// Write and remove nothing: the goldens folder is left exactly as it was.
    #[default]
    WriteNothing,
}

/// The environment variable that sets the [`UpdateMode`].
pub const UPDATE_ENV: &str = "TUICAST_UPDATE";

impl UpdateMode {
    /// The mode asked for by `TUICAST_UPDATE` (default `auto`).
    pub fn from_env() -> Result<UpdateMode, String> {
        match std::env::var(UPDATE_ENV) {
            Ok(v) => v.parse(),
            Err(_) => Ok(UpdateMode::Auto),
        }
    }

    /// What this mode does in a run under CI (`ci` true) or not: `auto` is `no` under CI and
    /// `new` elsewhere; the others do what they say.
    pub fn resolve(self, ci: bool) -> UpdateAction {
        match self {
            UpdateMode::Auto if ci => UpdateAction::WriteNothing,
            UpdateMode::Auto | UpdateMode::New => UpdateAction::WriteNew,
            UpdateMode::Always => UpdateAction::Overwrite,
            UpdateMode::No => UpdateAction::WriteNothing,
        }
    }

    /// What this mode does in this process, CI judged from the `CI` variable (see
    /// [`running_under_ci`]).
    pub fn resolve_here(self) -> UpdateAction {
        self.resolve(running_under_ci())
    }
}

impl UpdateAction {
    /// The action `TUICAST_UPDATE` asks for in this process (see [`UpdateMode::resolve_here`]).
    pub fn from_env() -> Result<UpdateAction, String> {
        Ok(UpdateMode::from_env()?.resolve_here())
    }
}

/// True when the `CI` variable says this runs under CI (set, and not empty, `0` or `false`),
/// as GitHub Actions, GitLab CI and most CI services set it.
pub fn running_under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

impl std::str::FromStr for UpdateMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "auto" => Ok(UpdateMode::Auto),
            "new" => Ok(UpdateMode::New),
            "always" | "overwrite" => Ok(UpdateMode::Always),
            "no" | "none" => Ok(UpdateMode::No),
            other => Err(format!(
                "{UPDATE_ENV}={other:?} is not one of auto, new, always, no"
            )),
        }
    }
}

/// The result of checking one render against its golden.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// The golden matches.
    Pass,
    /// The golden was missing or different and has been overwritten (`always`).
    Updated,
    /// No golden exists. `pending` is the `.new` file written, if any.
    Missing {
        /// The `.new` file written (mode `new`).
        pending: Option<PathBuf>,
    },
    /// The golden differs.
    Mismatch {
        /// The golden's content.
        expected: String,
        /// What differs.
        difference: Difference,
        /// The `.new` file written (mode `new`).
        pending: Option<PathBuf>,
    },
}

impl Outcome {
    /// True for outcomes that pass a test.
    pub fn passed(&self) -> bool {
        matches!(self, Outcome::Pass | Outcome::Updated)
    }
}

/// Compares `actual` with the golden at `golden` and writes files as `action` allows: the
/// golden itself ([`UpdateAction::Overwrite`]), or `<golden>.new` ([`UpdateAction::WriteNew`]). Writes are atomic. A stale `.new` beside a
/// passing golden is removed (unless the action writes nothing).
///
/// Text goldens only: a `.png` golden is an error (use [`check_png`] or [`check_snapshot`]).
pub fn check_file(
    golden: &Path,
    actual: &str,
    action: UpdateAction,
    color: bool,
) -> io::Result<Outcome> {
    if golden.extension().is_some_and(|e| e == "png") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is a PNG golden: PNG snapshots are compared by pixels (assert::check_snapshot)",
                golden.display()
            ),
        ));
    }
    let verdict = match read_golden(golden)? {
        None => Verdict::Missing,
        Some(bytes) => {
            let expected = String::from_utf8_lossy(&bytes).into_owned();
            match compare(&expected, actual, color) {
                None => Verdict::Pass,
                Some(difference) => Verdict::Mismatch {
                    expected,
                    difference,
                },
            }
        }
    };
    settle(golden, action, verdict, |path| {
        write_file(path, actual.as_bytes())
    })
}

/// What a comparison found, before any file is written.
enum Verdict {
    Pass,
    Missing,
    Mismatch {
        expected: String,
        difference: Difference,
    },
}

/// Writes the files `action` allows for `verdict` and gives the outcome; `write` writes the
/// actual render to a path. The rules of every format: a pass removes a stale `.new` (unless
/// nothing may be written); `Overwrite` replaces the golden; `WriteNew` writes
/// `<golden>.new`; `WriteNothing` writes nothing.
fn settle(
    golden: &Path,
    action: UpdateAction,
    verdict: Verdict,
    write: impl FnOnce(&Path) -> io::Result<()>,
) -> io::Result<Outcome> {
    let pending = pending_path(golden);
    if let Verdict::Pass = verdict {
        if action != UpdateAction::WriteNothing {
            remove_if_exists(&pending)?;
        }
        return Ok(Outcome::Pass);
    }
    let written = match action {
        UpdateAction::Overwrite => {
            write(golden)?;
            remove_if_exists(&pending)?;
            return Ok(Outcome::Updated);
        }
        UpdateAction::WriteNew => {
            write(&pending)?;
            Some(pending)
        }
        UpdateAction::WriteNothing => None,
    };
    Ok(match verdict {
        Verdict::Mismatch {
            expected,
            difference,
        } => Outcome::Mismatch {
            expected,
            difference,
            pending: written,
        },
        _ => Outcome::Missing { pending: written },
    })
}

/// The golden's bytes; `None` when there is none.
fn read_golden(golden: &Path) -> io::Result<Option<Vec<u8>>> {
    match crate::util::read_regular(golden, MAX_GOLDEN_BYTES) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        // The caller names the golden; the message says only what is wrong with it.
        Err(e) => Err(io::Error::new(
            e.kind(),
            format!("cannot read the golden: {e}"),
        )),
    }
}

/// The largest golden file read (text or PNG); a larger one is an error, not a read into
/// memory. The largest screen's text render is far below it.
pub const MAX_GOLDEN_BYTES: u64 = 64 << 20;

/// Writes `data` to `path` atomically, making its folder first.
fn write_file(path: &Path, data: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::util::write_atomic(path, data)
}

/// How PNG goldens are drawn and compared.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PngCheck {
    /// How the screen is drawn (theme, font size, ...). The default draws with the bundled
    /// fonts only, so goldens are the same on every machine.
    pub options: PngOptions,
    /// The largest difference of one colour channel that still counts as equal (default 0).
    pub tolerance: u8,
    /// How many pixels may differ beyond the tolerance (default 0: exact).
    pub max_diff_pixels: u64,
}

impl PngCheck {
    /// The check set by a `[png]` table; relative font folders are taken from `root`.
    pub fn from_config(config: &PngConfig, root: &Path) -> Result<PngCheck, String> {
        let mut check = PngCheck::default();
        config.apply(&mut check.options, root)?;
        check.tolerance = config.tolerance.unwrap_or(0);
        check.max_diff_pixels = config.max_diff_pixels.unwrap_or(0);
        Ok(check)
    }
}

/// The diff image written beside a PNG golden on mismatch: `<golden>.diff.png`.
pub fn diff_image_path(golden: &Path) -> PathBuf {
    let mut s = golden.as_os_str().to_owned();
    s.push(".diff.png");
    PathBuf::from(s)
}

/// Renders `screen` in `format` and checks it against `golden`: text formats with
/// [`check_file`], PNG with [`check_png`]. Returns the outcome and the actual render as text
/// (for PNG, the text render too, which is what a person reads in a failure report).
#[allow(clippy::too_many_arguments)]
pub fn check_snapshot(
    format: Format,
    golden: &Path,
    cast: &str,
    checkpoint: &str,
    screen: &Screen,
    action: UpdateAction,
    color: bool,
    png: &PngCheck,
) -> io::Result<(Outcome, String)> {
    let actual = render(format, cast, checkpoint, screen);
    let outcome = if format.is_binary() {
        check_png(golden, screen, png, action)?
    } else {
        check_file(golden, &actual, action, color)?
    };
    Ok((outcome, actual))
}

thread_local! {
    /// The renderer of this thread's last PNG check: fonts are read and glyphs drawn once
    /// per thread and set of options, not once per checkpoint.
    static RENDERER: std::cell::RefCell<Option<Renderer>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with this thread's renderer for `options`, made anew only when they change.
fn with_renderer<T>(
    options: &PngOptions,
    f: impl FnOnce(&mut Renderer) -> Result<T, png_render::PngError>,
) -> Result<T, png_render::PngError> {
    RENDERER.with(|slot| {
        let mut renderer = match slot.borrow_mut().take() {
            Some(r) if r.options() == options => r,
            _ => Renderer::new(options.clone())?,
        };
        let out = f(&mut renderer);
        *slot.borrow_mut() = Some(renderer);
        out
    })
}

/// Draws `screen` as PNG and compares it, by decoded pixels, with the golden at `golden`.
/// Files are written as `action` allows, like [`check_file`]; a mismatch with `WriteNew` also
/// writes [`diff_image_path`], the actual render with the changed cells outlined, and the
/// difference's text names it. Stale `.new` and diff files beside a passing golden are removed.
pub fn check_png(
    golden: &Path,
    screen: &Screen,
    check: &PngCheck,
    action: UpdateAction,
) -> io::Result<Outcome> {
    let diff_path = diff_image_path(golden);
    let (image, layout) = with_renderer(&check.options, |renderer| {
        Ok((renderer.render(screen)?, renderer.layout(screen.size)?))
    })
    .map_err(io::Error::other)?;
    // Whether this check drew the changes (mode `new`, a readable golden that differs).
    let mut drawn = false;
    let verdict = match read_golden(golden)? {
        None => Verdict::Missing,
        Some(bytes) => {
            let (diff, expected) = match png_render::decode_png(&bytes) {
                Ok(golden_image) => {
                    let d = png_render::compare(&golden_image, &image, check.tolerance, &layout);
                    let described =
                        format!("PNG {}x{}", golden_image.width(), golden_image.height());
                    (Some(d), described)
                }
                Err(_) => (None, "a file that is not a readable PNG".to_string()),
            };
            match diff {
                Some(d) if d.passes(check.max_diff_pixels) => Verdict::Pass,
                diff => {
                    // Mode `new` draws the changes beside the `.new` file.
                    let diff_image = match (&diff, action) {
                        (Some(d), UpdateAction::WriteNew) => {
                            let img = png_render::diff_image(&image, d, &layout);
                            Some(png_render::encode_png(&img).map_err(io::Error::other)?)
                        }
                        _ => None,
                    };
                    let shown = diff_image.as_ref().map(|_| diff_path.as_path());
                    let difference = png_difference(diff.as_ref(), check, shown);
                    if let Some(data) = diff_image {
                        write_file(&diff_path, &data)?;
                        drawn = true;
                    }
                    Verdict::Mismatch {
                        expected,
                        difference,
                    }
                }
            }
        }
    };
    // No picture of the changes belongs beside a golden that passes, is replaced, or has no
    // readable picture to compare with: not even one from an earlier run.
    if action != UpdateAction::WriteNothing && !drawn {
        remove_if_exists(&diff_path)?;
    }
    // Encoded only when written: a passing check decodes the golden and compares pixels.
    settle(golden, action, verdict, |path| {
        write_file(
            path,
            &png_render::encode_png(&image).map_err(io::Error::other)?,
        )
    })
}

/// Explains a PNG mismatch: where, how many pixels and cells, and the diff image.
fn png_difference(
    diff: Option<&png_render::PixelDiff>,
    check: &PngCheck,
    diff_image: Option<&Path>,
) -> Difference {
    let mut text = String::new();
    let place = match diff {
        None => {
            let _ = writeln!(text, "  the golden is not a readable PNG");
            Place::Header("content".into())
        }
        Some(d) => match d.size {
            Some(((ew, eh), (aw, ah))) => {
                let _ = writeln!(
                    text,
                    "  image size differs: golden {ew}x{eh}, actual {aw}x{ah} (a different terminal size, font size or padding)"
                );
                Place::Header("size".into())
            }
            None => {
                let (row, col) = d.cells.first().copied().unwrap_or((0, 0));
                let rows: std::collections::BTreeSet<u16> =
                    d.cells.iter().map(|c| c.0 + 1).collect();
                let shown: Vec<String> = rows.iter().take(12).map(|r| r.to_string()).collect();
                let _ = writeln!(
                    text,
                    "  {} pixels differ by more than {} ({} allowed) in {} cells of {} {}{}; largest channel difference {}",
                    d.pixels,
                    check.tolerance,
                    check.max_diff_pixels,
                    d.cells.len(),
                    if rows.len() == 1 { "row" } else { "rows" },
                    shown.join(", "),
                    if rows.len() > 12 { ", …" } else { "" },
                    d.max_delta
                );
                Place::Cell {
                    row: row as usize + 1,
                    column: col as usize + 1,
                }
            }
        },
    };
    if let Some(p) = diff_image {
        let _ = writeln!(
            text,
            "  diff image (changed cells outlined): {}",
            shown_path(p)
        );
    }
    Difference {
        place,
        diff: text,
        style_changes: Vec::new(),
    }
}

/// A path as people want to read it: relative to the current folder when inside it, escaped.
pub(crate) fn shown_path(path: &Path) -> String {
    let rel = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    crate::escape::escape_for_terminal(&rel.display().to_string(), 300)
}

fn remove_if_exists(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn update_modes_parse_and_resolve_against_ci() {
        let mode = |s: &str| s.parse::<UpdateMode>().unwrap();
        assert_eq!(mode("auto").resolve(true), UpdateAction::WriteNothing);
        assert_eq!(mode("auto").resolve(false), UpdateAction::WriteNew);
        assert_eq!(mode("new").resolve(true), UpdateAction::WriteNew);
        assert_eq!(mode("always").resolve(true), UpdateAction::Overwrite);
        assert_eq!(mode("no").resolve(false), UpdateAction::WriteNothing);
        assert!("sometimes".parse::<UpdateMode>().is_err());
    }

    /// The bug a missing type allowed: `check_file(.., UpdateMode::Auto, ..)` under CI wrote
    /// `g.txt.new`, because only `from_env` resolved `auto`. Writers now take the resolved
    /// action, so `auto` under CI can only reach them as "write nothing".
    #[test]
    fn auto_under_ci_writes_nothing_through_the_library() {
        let dir = tempfile::tempdir().unwrap();
        let golden = dir.path().join("g.txt");
        std::fs::write(&golden, "old\n").unwrap();
        let under_ci = UpdateMode::Auto.resolve(true);
        let o = check_file(&golden, "new\n", under_ci, false).unwrap();
        assert!(
            matches!(o, Outcome::Mismatch { pending: None, .. }),
            "{o:?}"
        );
        let o = check_png(
            &dir.path().join("g.png"),
            &screen("x"),
            &PngCheck::default(),
            under_ci,
        )
        .unwrap();
        assert!(matches!(o, Outcome::Missing { pending: None }), "{o:?}");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["g.txt"], "nothing but the golden");
        assert_eq!(std::fs::read_to_string(&golden).unwrap(), "old\n");
    }

    #[test]
    fn each_mode_writes_only_what_it_may() {
        let dir = tempfile::tempdir().unwrap();
        let golden = dir.path().join("a/b.txt");
        let new = pending_path(&golden);

        // Missing golden.
        let o = check_file(&golden, "one\n", UpdateAction::WriteNothing, false).unwrap();
        assert!(matches!(o, Outcome::Missing { pending: None }));
        assert!(!golden.exists() && !new.exists());
        let o = check_file(&golden, "one\n", UpdateAction::WriteNew, false).unwrap();
        assert!(matches!(o, Outcome::Missing { pending: Some(_) }));
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "one\n");
        assert!(!golden.exists());
        let o = check_file(&golden, "one\n", UpdateAction::Overwrite, false).unwrap();
        assert!(matches!(o, Outcome::Updated));
        assert_eq!(std::fs::read_to_string(&golden).unwrap(), "one\n");
        assert!(!new.exists(), "always clears the pending file");

        // Mismatch.
        let o = check_file(&golden, "two\n", UpdateAction::WriteNothing, false).unwrap();
        assert!(matches!(o, Outcome::Mismatch { pending: None, .. }));
        assert!(!new.exists());
        let o = check_file(&golden, "two\n", UpdateAction::WriteNew, false).unwrap();
        assert!(matches!(
            o,
            Outcome::Mismatch {
                pending: Some(_),
                ..
            }
        ));
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "two\n");
        assert_eq!(
            std::fs::read_to_string(&golden).unwrap(),
            "one\n",
            "the golden is untouched"
        );

        // Pass removes a stale pending file.
        let o = check_file(&golden, "one\n", UpdateAction::WriteNew, false).unwrap();
        assert!(o.passed());
        assert!(!new.exists());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("a")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary files left");
    }

    fn screen(text: &str) -> Screen {
        crate::term::test_screen(crate::term::Size { cols: 8, rows: 2 }, text)
    }

    #[test]
    fn png_goldens_compare_by_pixels_and_explain_mismatches() {
        let dir = tempfile::tempdir().unwrap();
        let golden = dir.path().join("c/end.png");
        let new = pending_path(&golden);
        let diff = diff_image_path(&golden);
        let check = PngCheck::default();
        let hello = screen("hello");

        let o = check_png(&golden, &hello, &check, UpdateAction::WriteNew).unwrap();
        assert!(matches!(o, Outcome::Missing { pending: Some(_) }));
        assert!(crate::render::png::decode_png(&std::fs::read(&new).unwrap()).is_ok());
        let o = check_png(&golden, &hello, &check, UpdateAction::Overwrite).unwrap();
        assert!(matches!(o, Outcome::Updated));
        assert!(!new.exists());
        assert!(
            check_png(&golden, &hello, &check, UpdateAction::WriteNothing)
                .unwrap()
                .passed()
        );

        // One letter differs: the cell is named, `.new` and the diff image are written.
        let o = check_png(&golden, &screen("hellp"), &check, UpdateAction::WriteNew).unwrap();
        let Outcome::Mismatch {
            difference,
            pending: Some(_),
            ..
        } = &o
        else {
            panic!("{o:?}")
        };
        assert_eq!(difference.place, Place::Cell { row: 1, column: 5 });
        assert!(
            difference.diff.contains("in 1 cells"),
            "{}",
            difference.diff
        );
        assert!(
            difference.diff.contains("end.png.diff.png"),
            "{}",
            difference.diff
        );
        assert!(new.exists() && diff.exists());
        let diff_image = crate::render::png::decode_png(&std::fs::read(&diff).unwrap()).unwrap();
        let actual = crate::render::png::decode_png(&std::fs::read(&new).unwrap()).unwrap();
        assert_eq!(diff_image.dimensions(), actual.dimensions());
        assert_ne!(diff_image, actual, "the changed cell is outlined");

        // Allowed to differ: passes, and the stale files go.
        let lenient = PngCheck {
            max_diff_pixels: 10_000,
            ..PngCheck::default()
        };
        assert!(
            check_png(&golden, &screen("hellp"), &lenient, UpdateAction::WriteNew)
                .unwrap()
                .passed()
        );
        assert!(!new.exists() && !diff.exists());

        // A golden that is not a PNG gets no diff image, and an old one does not linger.
        let good = std::fs::read(&golden).unwrap();
        std::fs::write(&golden, b"not a png").unwrap();
        std::fs::write(&diff, b"stale").unwrap();
        let o = check_png(&golden, &hello, &check, UpdateAction::WriteNew).unwrap();
        assert!(!o.passed() && new.exists() && !diff.exists(), "{o:?}");
        std::fs::write(&golden, good).unwrap();
        std::fs::remove_file(&new).unwrap();

        // Mode no writes nothing; a bigger screen is a size mismatch.
        let mut big = hello.clone();
        big.size.cols = 9;
        for row in &mut big.rows {
            row.push(crate::term::Cell::default());
        }
        let o = check_png(&golden, &big, &check, UpdateAction::WriteNothing).unwrap();
        let Outcome::Mismatch {
            difference,
            pending: None,
            ..
        } = &o
        else {
            panic!("{o:?}")
        };
        assert_eq!(difference.place, Place::Header("size".into()));
        assert!(!new.exists() && !diff.exists());

        // A golden that is not a PNG is a mismatch, not a crash; text checks refuse PNGs.
        std::fs::write(&golden, "not a png").unwrap();
        let o = check_png(&golden, &hello, &check, UpdateAction::WriteNothing).unwrap();
        assert!(!o.passed());
        assert!(check_file(&golden, "x", UpdateAction::WriteNothing, false).is_err());
        let (o, text) = check_snapshot(
            Format::Png,
            &golden,
            "c.cast",
            "end",
            &hello,
            UpdateAction::Overwrite,
            false,
            &check,
        )
        .unwrap();
        assert!(matches!(o, Outcome::Updated));
        assert!(text.contains("hello"));
    }
}
