//! One golden check: [`Check`] renders a screen in a format and compares it with its golden
//! file (text here, with [`check_file`]; pictures in [`check_png`]); `write_as_allowed` writes what the
//! [`UpdateAction`] allows, the same rules for every format.
//!
//! A [`Check`] holds the format, the golden, the cast and checkpoint labels for messages, the
//! action, colour and, for PNG, the [`PngCheck`]; goldens are read with
//! `util::read_regular_nofollow` and written atomically.

use std::io;
use std::path::{Path, PathBuf};

use super::diff::{compare, Difference};
use super::layout::pending_path;
use super::png_check::{check_png, PngCheck};
use super::snapshot::{render_golden, CursorView};
use super::update::UpdateAction;
use super::Format;
use crate::term::Screen;

/// Everything one golden check needs but the screen: what to render, where the golden is, how
/// to label the render, and what a mismatch may write.
///
/// The harness makes one per checkpoint and format; [`Check::check`] does the work.
///
/// ```
/// use tuicast::assert::{Check, Format, PngCheck, UpdateAction};
/// use tuicast::size::Size;
/// use tuicast::term::EngineKind;
///
/// let mut engine = EngineKind::Avt.create(Size { cols: 10, rows: 2 });
/// engine.feed("hello");
/// let screen = engine.screen();
/// let dir = tempfile::tempdir()?;
/// let golden = dir.path().join("demo/end.txt");
/// let png = PngCheck::default();
/// let mut check = Check::new(Format::Text, &golden, "demo.cast", "end", &png);
/// check.action = UpdateAction::Overwrite;
/// let (outcome, actual) = check.check(&screen)?;
/// assert!(outcome.passed(), "a missing golden is written and passes with `Overwrite`");
/// assert!(actual.contains("hello"));
/// let mut again = check;
/// again.action = UpdateAction::WriteNothing;
/// assert!(again.check(&screen)?.0.passed());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Check<'a> {
    /// The format to render and compare in.
    pub format: Format,
    /// The golden file (see [`snapshot_path`](super::snapshot_path)).
    pub golden: &'a Path,
    /// The cast's name in the render's header (a label only).
    pub cast: &'a str,
    /// The checkpoint's name in the render's header (a label only).
    pub checkpoint: &'a str,
    /// What a mismatch or a missing golden may write.
    pub action: UpdateAction,
    /// Colour in text diffs.
    pub color: bool,
    /// How PNG goldens are drawn and compared (used by [`Format::Png`] only).
    pub png: &'a PngCheck,
    /// How many lines scrolled off the screen text goldens show above its rows
    /// (`[check] scrollback`; 0: none).
    pub scrollback: usize,
    /// Whether a `txt` golden carries the screen's style runs (the default; `styles = false`:
    /// the rows alone). Other formats ignore it.
    pub styles: bool,
}

impl<'a> Check<'a> {
    /// A check of `golden` in `format` (`png`: how PNG goldens are drawn and compared),
    /// labelled `cast` and `checkpoint`, that writes nothing (`action` is
    /// [`UpdateAction::WriteNothing`]), without colour or scrollback, with styles: set the
    /// fields to change that.
    pub fn new(
        format: Format,
        golden: &'a Path,
        cast: &'a str,
        checkpoint: &'a str,
        png: &'a PngCheck,
    ) -> Check<'a> {
        Check {
            format,
            golden,
            cast,
            checkpoint,
            action: UpdateAction::WriteNothing,
            color: false,
            png,
            scrollback: 0,
            styles: true,
        }
    }
}

impl Check<'_> {
    /// Renders `screen` and checks it against the golden: text formats with [`check_file`],
    /// PNG with [`check_png`]. Returns the outcome and the actual render as text (for PNG the
    /// text render too, which is what a person reads in a failure report).
    pub fn check(&self, screen: &Screen) -> io::Result<(Outcome, String)> {
        self.check_with(screen, CursorView::Shown)
    }

    /// [`Check::check`] with the cursor shown as `cursor` says: a masked or omitted cursor
    /// (see [`mask::cursor_view`](super::mask::cursor_view)) has no position in a text golden
    /// and is not drawn in a picture.
    pub fn check_with(&self, screen: &Screen, cursor: CursorView) -> io::Result<(Outcome, String)> {
        let actual = render_golden(
            self.format,
            self.cast,
            self.checkpoint,
            screen,
            cursor,
            self.scrollback,
            self.styles,
        );
        let outcome = if self.format.is_binary() {
            if cursor != CursorView::Shown && screen.cursor.visible {
                let mut hidden = screen.clone();
                hidden.cursor.visible = false;
                check_png(self.golden, &hidden, self.png, self.action)?
            } else {
                check_png(self.golden, screen, self.png, self.action)?
            }
        } else {
            check_file(self.golden, &actual, self.action, self.color)?
        };
        Ok((outcome, actual))
    }
}

/// The result of checking one render against its golden.
#[derive(Debug, Clone)]
#[non_exhaustive]
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
/// golden itself ([`UpdateAction::Overwrite`]), or `<golden>.new` ([`UpdateAction::WriteNew`]).
/// Writes are atomic. A stale `.new` beside a
/// passing golden is removed (unless the action writes nothing).
///
/// Text goldens only: a `.png` golden is an error (use [`check_png`] or [`Check`]).
pub fn check_file(
    golden: &Path,
    actual: &str,
    action: UpdateAction,
    color: bool,
) -> io::Result<Outcome> {
    let name = golden.file_name().unwrap_or_default().to_string_lossy();
    if super::Format::of_name(&name).is_some_and(|(_, f)| f.is_binary()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is a PNG golden: PNG snapshots are compared by pixels (assert::Check)",
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
    write_as_allowed(golden, action, verdict, |path| {
        write_file(path, actual.as_bytes())
    })
}

/// What a comparison found, before any file is written.
pub(super) enum Verdict {
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
pub(super) fn write_as_allowed(
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

/// The golden's bytes; `None` when there is none. A golden that is a symbolic link, not a
/// regular file, or larger than [`MAX_GOLDEN_BYTES`] is an error: a repository chooses its
/// goldens, and one committed as a link to `/proc/self/environ` must never be shown in a
/// diff or copied into a report. The same read for every golden a run or a review looks at
/// (text, styled, PNG, region goldens, `.new` files).
pub fn read_golden(golden: &Path) -> io::Result<Option<Vec<u8>>> {
    match crate::util::read_regular_nofollow(golden, MAX_GOLDEN_BYTES) {
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
pub(super) fn write_file(path: &Path, data: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::util::write_atomic(path, data)
}

pub(super) fn remove_if_exists(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert::UpdateMode;

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
}
