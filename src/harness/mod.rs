//! The test harness: every checkpoint of every cast becomes a test.
//!
//! In a crate that keeps `casts/` and `snapshots/`:
//!
//! ```toml
//! # Cargo.toml
//! [[test]]
//! name = "casts"
//! harness = false
//! ```
//!
//! ```text
//! // tests/casts.rs
//! fn main() {
//!     tuicast::harness::main()
//! }
//! ```
//!
//! `cargo test` then runs one trial per checkpoint, named `<cast>::<checkpoint>` (the cast's
//! path relative to `casts/` without `.cast`), so libtest's filters, `--exact`, `--list`,
//! `--ignored`, `--test-threads` and `--format json` work, and so does cargo-nextest. A cast
//! that fails to parse is one failing trial carrying the parse error. The same checks run from
//! the command line as `tuicast test`, whose console tally [`Tally`] formats.

/// A [`Failure`] with a message made as by `format!`.
macro_rules! failure {
    ($($arg:tt)*) => {
        $crate::harness::Failure::from(format!($($arg)*))
    };
}

mod check;
mod declared;
mod discover;
pub mod driver;
pub mod junit;
mod leftovers;
mod libtest;
mod live;
pub mod message;
pub mod repeat;
mod report;
mod result;
mod screen_golden;
pub mod screenshot;
mod trials;

pub use check::check_case;
pub use discover::{
    checkpoint_goldens, discover, expected_snapshots, load_case, orphans, scan_checkpoints, Case,
    CheckpointInfo,
};
pub use leftovers::{leftovers, Leftovers, LEFTOVERS_TEST};
pub use libtest::Trial;
pub use live::{
    live_cast_path, live_recording_times, recording_times, run_dir, LiveMode, LiveModeError,
    RecordingTimes, LIVE_ENV,
};
pub use report::{add_screenshot_to_report, add_to_report};
pub use result::{CheckResult, Failure, SnapshotResult, Status, Tally};
pub use screen_golden::{assert_screen_golden, check_screen_golden, ScreenSource, SCREENS_DIR};
pub use trials::{expect_test_name, main, test_name, trials, HarnessError};

use crate::assert::UpdateAction;

/// How checks run.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Options {
    /// What a mismatch writes (the `TUICAST_UPDATE` mode, resolved with CI).
    pub update: UpdateAction,
    /// Colour in diffs.
    pub color: bool,
    /// Which casts are recorded again now and the new recording checked: by default those
    /// whose scenario runs the package's own binary (`bin =`); `TUICAST_LIVE=1|0`,
    /// `tuicast test --live` / `--replay` force it.
    pub live: LiveMode,
}

impl Options {
    /// Checks that do `update` on a mismatch, without colour, recording live the casts of
    /// `bin =` scenarios and replaying the others ([`LiveMode::Auto`]).
    pub fn new(update: UpdateAction) -> Options {
        Options {
            update,
            color: false,
            live: LiveMode::Auto,
        }
    }

    /// The same, with colour in diffs or not.
    pub fn color(self, color: bool) -> Options {
        Options { color, ..self }
    }

    /// The same, with casts recorded live as `live` says.
    pub fn live(self, live: LiveMode) -> Options {
        Options { live, ..self }
    }
}

/// Whether failure output may use colour: a terminal, and `NO_COLOR` unset.
pub fn use_color(is_terminal: bool) -> bool {
    is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
