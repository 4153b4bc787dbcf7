//! Assertions: golden snapshot files, comparison, diffs, update modes, masks, pending review.
//!
//! A checkpoint's screen is rendered in each configured [`Format`] and compared with its golden
//! file. What happens on a mismatch is decided by [`UpdateMode`] (`TUICAST_UPDATE`).

mod diff;
mod layout;
mod mask;
pub mod pending;
mod snapshot;

use std::io;
use std::path::{Path, PathBuf};

pub use diff::{compare, unified, Difference, Place, MAX_DIFF_LINES};
pub use layout::{cast_stem, pending_path, sanitize, snapshot_path};
pub use mask::{apply_all, Mask, MaskSpec, RangeSpec, PLACEHOLDER};
pub use snapshot::{
    parse_styles, render, style_runs, Format, Style, StyleRun, HEADER_LINES, STYLES_MARK,
};

/// What a check does when the actual render differs from the golden (or there is none).
///
/// Set with `TUICAST_UPDATE=auto|new|always|no` or `tuicast test --update` (= `always`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

/// The environment variable that sets the [`UpdateMode`].
pub const UPDATE_ENV: &str = "TUICAST_UPDATE";

impl UpdateMode {
    /// The mode from `TUICAST_UPDATE` (default `auto`), resolved against `CI`.
    pub fn from_env() -> Result<UpdateMode, String> {
        let mode = match std::env::var(UPDATE_ENV) {
            Ok(v) => v.parse()?,
            Err(_) => UpdateMode::Auto,
        };
        Ok(mode.resolve(
            std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false"),
        ))
    }

    /// Resolves `auto`: `no` when running under CI, `new` otherwise.
    pub fn resolve(self, ci: bool) -> UpdateMode {
        match self {
            UpdateMode::Auto if ci => UpdateMode::No,
            UpdateMode::Auto => UpdateMode::New,
            other => other,
        }
    }
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

/// Compares `actual` with the golden at `golden` and writes files as `mode` allows: the golden
/// itself (`always`), or `<golden>.new` (`new`). Writes are atomic. A stale `.new` beside a
/// passing golden is removed (unless the mode is `no`).
pub fn check_file(
    golden: &Path,
    actual: &str,
    mode: UpdateMode,
    color: bool,
) -> io::Result<Outcome> {
    let mode = mode.resolve(false);
    let pending = pending_path(golden);
    let expected = match std::fs::read(golden) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(io::Error::new(
                e.kind(),
                format!("cannot read {}: {e}", golden.display()),
            ))
        }
    };
    let write = |path: &Path| -> io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        crate::util::write_atomic(path, actual.as_bytes())
    };
    match expected {
        Some(expected) => match compare(&expected, actual, color) {
            None => {
                if mode != UpdateMode::No && pending.exists() {
                    std::fs::remove_file(&pending)?;
                }
                Ok(Outcome::Pass)
            }
            Some(difference) => match mode {
                UpdateMode::Always => {
                    write(golden)?;
                    remove_if_exists(&pending)?;
                    Ok(Outcome::Updated)
                }
                UpdateMode::New => {
                    write(&pending)?;
                    Ok(Outcome::Mismatch {
                        expected,
                        difference,
                        pending: Some(pending),
                    })
                }
                _ => Ok(Outcome::Mismatch {
                    expected,
                    difference,
                    pending: None,
                }),
            },
        },
        None => match mode {
            UpdateMode::Always => {
                write(golden)?;
                remove_if_exists(&pending)?;
                Ok(Outcome::Updated)
            }
            UpdateMode::New => {
                write(&pending)?;
                Ok(Outcome::Missing {
                    pending: Some(pending),
                })
            }
            _ => Ok(Outcome::Missing { pending: None }),
        },
    }
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
        assert_eq!(
            "auto".parse::<UpdateMode>().unwrap().resolve(true),
            UpdateMode::No
        );
        assert_eq!(
            "auto".parse::<UpdateMode>().unwrap().resolve(false),
            UpdateMode::New
        );
        assert_eq!(
            "always".parse::<UpdateMode>().unwrap().resolve(true),
            UpdateMode::Always
        );
        assert!("sometimes".parse::<UpdateMode>().is_err());
    }

    #[test]
    fn each_mode_writes_only_what_it_may() {
        let dir = tempfile::tempdir().unwrap();
        let golden = dir.path().join("a/b.txt");
        let new = pending_path(&golden);

        // Missing golden.
        let o = check_file(&golden, "one\n", UpdateMode::No, false).unwrap();
        assert!(matches!(o, Outcome::Missing { pending: None }));
        assert!(!golden.exists() && !new.exists());
        let o = check_file(&golden, "one\n", UpdateMode::New, false).unwrap();
        assert!(matches!(o, Outcome::Missing { pending: Some(_) }));
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "one\n");
        assert!(!golden.exists());
        let o = check_file(&golden, "one\n", UpdateMode::Always, false).unwrap();
        assert!(matches!(o, Outcome::Updated));
        assert_eq!(std::fs::read_to_string(&golden).unwrap(), "one\n");
        assert!(!new.exists(), "always clears the pending file");

        // Mismatch.
        let o = check_file(&golden, "two\n", UpdateMode::No, false).unwrap();
        assert!(matches!(o, Outcome::Mismatch { pending: None, .. }));
        assert!(!new.exists());
        let o = check_file(&golden, "two\n", UpdateMode::New, false).unwrap();
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
        let o = check_file(&golden, "one\n", UpdateMode::New, false).unwrap();
        assert!(o.passed());
        assert!(!new.exists());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("a")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary files left");
    }
}
