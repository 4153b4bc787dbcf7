//! [`RecordError`]: why a recording step failed.

use crate::location::{FailureJson, FailureKind};
use std::fmt;
use std::io;

use super::diagnosis::TimeoutDiagnosis;
use super::settle::UnsettledDiagnosis;

/// Why a recording step failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum RecordError {
    /// The program could not be started (not found, not executable, a missing working
    /// folder, no PTY): bad input. `hint` says more when there is more to say (a program
    /// that is not on the `PATH` given to it).
    Spawn {
        /// The program, as the command names it.
        program: String,
        /// Why it could not be started.
        source: io::Error,
        /// A sentence to add, or empty.
        hint: String,
    },
    /// The cast (or its hidden header file beside it) could not be created at this path.
    CreateCast {
        /// The cast's path.
        path: std::path::PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The program's private HOME could not be made in this folder (the temporary folder).
    Home {
        /// The folder it was to be made in.
        folder: std::path::PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A key name that names no key (bad input).
    Key(super::keys::KeyError),
    /// Reading or writing failed.
    Io(io::Error),
    /// A wait did not see what it waited for in time.
    Timeout(Box<TimeoutDiagnosis>),
    /// The screen kept changing: a checkpoint or an idle wait never saw it still for its
    /// period in time.
    Unsettled(Box<UnsettledDiagnosis>),
    /// The program exited while a step still needed it.
    Exited {
        /// What the step was doing.
        what: String,
        /// The program's exit status.
        status: i32,
        /// The screen at that moment, escaped.
        screen: String,
    },
    /// The program's exit status was not the one the scenario expects.
    ExitStatus {
        /// Expected status.
        expected: i32,
        /// Actual status.
        actual: i32,
    },
    /// A secret step's environment variable (of tuicast) is not set (bad input, found
    /// before the program starts).
    MissingSecret(String),
    /// The package's binary named by `bin =` was not found or did not build (bad input).
    Bin(super::cargo_bin::BinError),
    /// The value of the secret of this name (its environment variable) reached the screen
    /// drawn in pieces that could not be replaced (separate writes); the recording was
    /// stopped and its cast deleted. The value is never shown.
    SecretOnScreen(String),
    /// A `redact` pattern (this regex) matched a token the program printed in two writes with
    /// a pause between them: its first part reached the cast before the rest came, so the
    /// recording was stopped and its cast deleted.
    SplitPattern(String),
    /// The cast passed its size limit (this many bytes, [`super::SessionOptions::max_cast`]):
    /// a program flooding its terminal. Nothing more was written and the program's output is
    /// read no further.
    CastTooLarge(u64),
    /// A signal (SIGINT, SIGTERM, SIGHUP: its number) asked the recording to stop; the
    /// program's session was ended and the cast so far kept (see [`super::interrupt`]).
    Interrupted(i32),
    /// A mouse or focus step the program's terminal modes do not allow (it enabled no mouse
    /// reporting, a hover without any-event tracking, focus reporting off), or a position it
    /// cannot be sent at. The message says which mode is on.
    Input(String),
    /// The program's working folder could not be copied for the recording (too large, a
    /// link out of it; see `workdir.rs`): bad input.
    Workdir(super::workdir::WorkdirError),
    /// An adapter a ref wait asked passed a limit or has a regex that cannot be compiled
    /// (bad input: the error names the adapter's place).
    Adapter(crate::inspect::AdapterError),
    /// An error at one step of a scenario file, with the step's place.
    AtStep {
        /// Where the step was written.
        origin: super::scenario::Origin,
        /// What went wrong.
        error: Box<RecordError>,
    },
}

impl RecordError {
    /// True for failures of a check (timeouts, exits, statuses) rather than bad input.
    pub fn is_check_failure(&self) -> bool {
        match self {
            RecordError::AtStep { error, .. } => error.is_check_failure(),
            other => matches!(
                other,
                RecordError::Timeout(_)
                    | RecordError::Unsettled(_)
                    | RecordError::Exited { .. }
                    | RecordError::ExitStatus { .. }
                    | RecordError::SecretOnScreen(_)
                    | RecordError::SplitPattern(_)
                    | RecordError::CastTooLarge(_)
                    | RecordError::Input(_)
            ),
        }
    }

    /// The signal number of an interrupted recording.
    pub fn interrupted(&self) -> Option<i32> {
        match self {
            RecordError::AtStep { error, .. } => error.interrupted(),
            RecordError::Interrupted(s) => Some(*s),
            _ => None,
        }
    }

    /// The place in a scenario file this error names, when it names one.
    pub fn origin(&self) -> Option<&super::scenario::Origin> {
        match self {
            RecordError::AtStep { origin, .. } => Some(origin),
            _ => None,
        }
    }

    /// The error as data: its kind, its step's place in the scenario, the screen at that
    /// moment and a fix where one is known (what every JSON output reports it as).
    pub fn failure(&self) -> FailureJson {
        let inner = match self {
            RecordError::AtStep { error, .. } => error,
            other => other,
        };
        let kind = match inner {
            RecordError::Timeout(_) | RecordError::Unsettled(_) => FailureKind::Timeout,
            RecordError::Exited { status, .. } => exit_kind(*status),
            RecordError::ExitStatus { actual, .. } => exit_kind(*actual),
            RecordError::SecretOnScreen(_) | RecordError::SplitPattern(_) => FailureKind::Check,
            RecordError::CastTooLarge(_) => FailureKind::Limit,
            RecordError::Interrupted(_) => FailureKind::Interrupted,
            RecordError::Io(_) | RecordError::CreateCast { .. } | RecordError::Home { .. } => {
                FailureKind::Error
            }
            _ => FailureKind::BadInput,
        };
        let mut failure = FailureJson::new(kind, self.to_string());
        if let Some(o) = self.origin() {
            failure = failure.at(&o.path, o.line, o.column);
        }
        match inner {
            RecordError::Timeout(d) => {
                failure = failure.screen(report_rows(&d.screen));
                let fix = match d.hints.first() {
                    Some(h) => format!(
                        "the program may wait for input ({h}): add the step that answers it"
                    ),
                    None => "wait for text the screen shows, or give the wait a longer timeout"
                        .to_string(),
                };
                failure.fix(fix)
            }
            RecordError::Unsettled(d) if !d.masks.is_empty() => failure.fix(format!(
                "mask the cells that keep changing: {}",
                d.masks.join(", ")
            )),
            RecordError::Exited { screen, .. } => failure.screen(report_rows(screen)),
            RecordError::Spawn { hint, .. } if !hint.is_empty() => {
                failure.fix(hint.trim().trim_start_matches('(').trim_end_matches(')'))
            }
            _ => failure,
        }
    }
}

/// The kind of a program's exit with `status` (128 + N for signal N): a signal of a crash
/// (SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGSEGV) is [`FailureKind::Crashed`].
fn exit_kind(status: i32) -> FailureKind {
    match status - 128 {
        4 | 6 | 7 | 8 | 11 => FailureKind::Crashed,
        _ => FailureKind::Exited,
    }
}

/// The rows of a screen as a message shows it (`diagnosis.rs`: `  12 | text` a row, or a
/// line saying it is empty).
fn report_rows(report: &str) -> Vec<String> {
    report
        .lines()
        .filter_map(|l| l.split_once(" | ").map(|(_, row)| row.to_string()))
        .collect()
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Input(m) => write!(f, "{m}"),
            // The PTY's errors name the program already (escaped).
            RecordError::Spawn { source, hint, .. } => write!(f, "{source}{hint}"),
            RecordError::CreateCast { path, source } => write!(
                f,
                "cannot create {}: {source}",
                crate::escape::escape_for_terminal(&path.display().to_string(), 300)
            ),
            RecordError::Home { folder, source } => write!(
                f,
                "cannot create a private HOME in {}: {source}",
                crate::escape::escape_for_terminal(&folder.display().to_string(), 300)
            ),
            RecordError::Key(e) => write!(f, "{e}"),
            RecordError::Bin(e) => write!(f, "{e}"),
            RecordError::Workdir(e) => write!(f, "{e}"),
            RecordError::Adapter(e) => write!(f, "{e}"),
            RecordError::Io(e) => write!(f, "{e}"),
            RecordError::Timeout(r) => {
                writeln!(
                    f,
                    "timed out after {:.1}s waiting for {}",
                    r.waited.as_secs_f64(),
                    r.what
                )?;
                if r.hints.is_empty() {
                    writeln!(
                        f,
                        "  the program does not look like it is waiting for input"
                    )?;
                } else {
                    writeln!(f, "  the program looks like it is waiting for input:")?;
                    for h in &r.hints {
                        writeln!(f, "    - {h}")?;
                    }
                }
                write!(f, "  screen at that moment:\n{}", r.screen)
            }
            RecordError::Unsettled(r) => write!(f, "{r}"),
            RecordError::Exited {
                what,
                status,
                screen,
            } => {
                write!(f, "the program exited (status {status}) while {what}\n  screen at that moment:\n{screen}")
            }
            RecordError::ExitStatus { expected, actual } => {
                write!(
                    f,
                    "the program exited with status {actual}, expected {expected}"
                )
            }
            RecordError::MissingSecret(name) => write!(
                f,
                "the secret's environment variable {} is not set (it is read from tuicast's \
                 environment)",
                crate::escape::escape_for_terminal(name, 60)
            ),
            RecordError::SecretOnScreen(name) => write!(
                f,
                "the secret {} appeared on the screen (its value, or a form of it: reversed, \
                 encoded, cut short), drawn in separate writes that could not be replaced by *; \
                 the recording was stopped and its cast deleted so that it \
                 keeps no part of the secret (print the secret in one write, or not at all)",
                crate::escape::escape_for_terminal(name, 60)
            ),
            RecordError::CastTooLarge(max) => write!(
                f,
                "the cast passed its limit of {} ({max} bytes): the program floods its \
                 terminal; nothing more is recorded and its output is read no further",
                crate::util::human_bytes(*max)
            ),
            RecordError::SplitPattern(re) => write!(
                f,
                "the redact pattern /{}/ matched a token printed in two writes with a pause \
                 between them, after its first part was already in the cast; the recording was \
                 stopped and its cast deleted so that it keeps no part of the token",
                crate::escape::escape_for_terminal(re, 80)
            ),
            RecordError::Interrupted(s) => write!(
                f,
                "interrupted by {}: the program was ended",
                super::interrupt::signal_name(*s)
            ),
            RecordError::AtStep { origin, error } => write!(f, "{origin}: {error}"),
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::Io(e)
            | RecordError::Spawn { source: e, .. }
            | RecordError::CreateCast { source: e, .. }
            | RecordError::Home { source: e, .. } => Some(e),
            RecordError::Key(e) => Some(e),
            RecordError::Bin(e) => Some(e),
            RecordError::Workdir(e) => Some(e),
            RecordError::AtStep { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }
}

impl From<io::Error> for RecordError {
    fn from(e: io::Error) -> Self {
        RecordError::Io(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Session, SessionOptions};
    use std::error::Error as _;

    #[test]
    fn a_program_that_does_not_start_is_bad_input_with_its_io_error_as_source() {
        let Err(err) = Session::spawn_in_memory(SessionOptions::new(["no-such-program-4f1c"]))
        else {
            panic!("no such program, yet it started");
        };
        let RecordError::Spawn { program, .. } = &err else {
            panic!("not a spawn error: {err:?}");
        };
        assert_eq!(program, "no-such-program-4f1c");
        assert!(!err.is_check_failure());
        let io = err.source().and_then(|s| s.downcast_ref::<io::Error>());
        assert_eq!(
            io.map(io::Error::kind),
            Some(io::ErrorKind::NotFound),
            "{err}"
        );
        assert!(err.to_string().contains("command not found"), "{err}");
    }

    #[test]
    fn a_key_that_names_no_key_is_a_key_error_at_its_step() {
        let mut s = Session::spawn_in_memory(SessionOptions::new(["cat"])).unwrap();
        let err = s.press("NoSuchKey").unwrap_err();
        assert!(matches!(err, RecordError::Key(_)), "{err:?}");
        assert!(err.source().is_some());
        assert!(!err.is_check_failure());
    }
}
