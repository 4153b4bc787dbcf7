//! Goldens of screens a Rust test holds (`tuicast::assert_screen!`): a screen from a
//! `Session`, a replay or an engine, checked against `snapshots/@screens/NAME.txt` with the
//! update modes, review and accept of cast goldens, and never reported as an orphan.
//!
//! A [`ScreenSource`] gives the screen to check; a live session's is settled first.

use std::path::Path;

use crate::assert::{self, Check, Format, Outcome, PngCheck, UpdateAction, UpdateMode};
use crate::config::Config;
use crate::term::Screen;

/// The folder under the snapshots folder that holds the goldens of `assert_screen!` (a name
/// no cast stem has: casts are found by their `.cast` files, and discovery keeps this folder
/// out of the orphans).
pub const SCREENS_DIR: &str = "@screens";

/// What `assert_screen!` can take a screen from: a [`Screen`] (or `&Screen`), or a live
/// `record::Session`, whose screen is taken as a checkpoint's is — once it has settled (not
/// changed for the session's settle period, 50 ms by default, `SessionOptions::settle` or
/// `Session::set_settle`; never inside a synchronized update), so that a frame the program
/// draws in several writes is never caught half-drawn.
pub trait ScreenSource {
    /// The screen to check, or why there is none (the session's screen never settled).
    fn golden_screen(&mut self) -> Result<Screen, crate::record::RecordError>;
}

impl ScreenSource for Screen {
    fn golden_screen(&mut self) -> Result<Screen, crate::record::RecordError> {
        Ok(self.clone())
    }
}

impl ScreenSource for &Screen {
    fn golden_screen(&mut self) -> Result<Screen, crate::record::RecordError> {
        Ok((*self).clone())
    }
}

impl ScreenSource for crate::record::Session {
    fn golden_screen(&mut self) -> Result<Screen, crate::record::RecordError> {
        let settle = self.settle();
        self.wait_settled(settle)?;
        Ok(self.screen())
    }
}

/// Checks `screen` against the golden `NAME` of the project at `root` (its `tuicast.toml`'s
/// snapshots folder, `@screens/NAME.txt`), writing what `action` allows; `Err` with the
/// failure message (the golden, the first difference, the diff, the command that accepts it).
pub fn check_screen_golden(
    root: &Path,
    screen: &Screen,
    name: &str,
    action: UpdateAction,
) -> Result<(), super::Failure> {
    let config = Config::load(root).map_err(|e| e.to_string())?;
    let golden = assert::snapshot_path(
        &config.snapshots,
        SCREENS_DIR,
        name,
        Format::Text.extension(),
    );
    let check = Check {
        format: Format::Text,
        golden: &golden,
        cast: "assert_screen!",
        checkpoint: name,
        action,
        color: false,
        png: &PngCheck::default(),
        scrollback: 0,
        styles: config.styles,
    };
    let shown = assert::shown_path(&golden);
    let accept = crate::escape::shell_quote(&crate::escape::escape_for_terminal(
        &assert::pending::relative_name(&config.snapshots, &golden),
        300,
    ));
    let (outcome, actual) = check.check(screen).map_err(|e| format!("{shown}: {e}"))?;
    let fix = || format!("tuicast accept {accept}");
    let (failure, data) = match outcome {
        Outcome::Pass | Outcome::Updated => return Ok(()),
        Outcome::Missing { pending } => {
            let message = format!(
                "no screen golden {shown} yet{}",
                match pending {
                    Some(_) => format!("; the screen is in {shown}.new: {}", fix()),
                    None =>
                        " (this run may write nothing: TUICAST_UPDATE=always, or run it outside CI)"
                            .to_string(),
                }
            );
            let data = crate::location::FailureJson::new(
                crate::location::FailureKind::MissingGolden,
                &message,
            )
            .at(&golden, 0, 0);
            let data = match pending {
                Some(_) => data.fix(fix()),
                None => data.fix("TUICAST_UPDATE=always, or run it outside CI"),
            };
            (message, data)
        }
        Outcome::Mismatch {
            difference,
            expected,
            pending,
            ..
        } => {
            let message = format!(
                "screen golden mismatch: {shown}\nfirst difference: {}\n{}{}",
                match &difference.place {
                    assert::Place::Cell(at) => at.to_string(),
                    assert::Place::Header(field) => field.clone(),
                },
                difference.diff,
                match pending {
                    Some(_) => format!("to accept: {}", fix()),
                    None => String::new(),
                }
            );
            let (line, column) = super::result::golden_line(&expected, &difference.place);
            let data =
                crate::location::FailureJson::new(crate::location::FailureKind::Mismatch, &message)
                    .at(&golden, line, column);
            let data = match pending {
                Some(_) => data.fix(fix()),
                None => data,
            };
            (message, data)
        }
    };
    let rows = actual.lines().skip(super::result::header_lines(&actual));
    Err(super::Failure(failure, Some(Box::new(data.screen(rows)))))
}

/// What `assert_screen!` does: [`check_screen_golden`] in the package being tested, with the
/// update mode of `TUICAST_UPDATE` (and CI); panics with the failure message, at the caller's
/// file and line (the test's `assert_screen!`, not this file).
#[track_caller]
pub fn assert_screen_golden(root: &str, source: &mut dyn ScreenSource, name: &str) {
    let action = match UpdateMode::from_env() {
        Ok(mode) => mode.resolve_here(),
        Err(e) => panic!("{e}"),
    };
    let screen = match source.golden_screen() {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    };
    if let Err(message) = check_screen_golden(Path::new(root), &screen, name, action) {
        panic!("{message}");
    }
}
