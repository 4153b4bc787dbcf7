//! Recording: run a real program in a pseudo-terminal, drive it from a scenario, and write
//! the session as an asciicast v3 file.
//!
//! - [`pty`]: the program in a PTY (on `nix`), output and exit as events.
//! - [`Session`] (`session.rs`): the live engine, waits on the screen, input, secrets, query
//!   answers, the cast. Its parts are private files by concern, their public items named from
//!   here: `wait.rs` (waits on screen, echo, exit, any prompt and a changed screen hash),
//!   `settle.rs` (`ScreenWatch`, checkpoints on a settled screen by the [`Settle`] rule, idle
//!   and silent waits — `wait_silent`: no change and no output —, [`UnsettledDiagnosis`]),
//!   `quiet.rs` (`TreeLook`: whether the process tree waits for input, from `/proc`),
//!   `input.rs` (keys, text, secrets, resizes, mouse and paste steps), `pace.rs` (each input
//!   step sent when the program is ready for it, a lone Esc kept alone, text a key per read),
//!   `diagnosis.rs`
//!   ([`TimeoutDiagnosis`]: what a timed-out wait saw), `error.rs` ([`RecordError`], `AtStep`),
//!   `home.rs` (the private HOME and the sweep of stale ones).
//! - [`Scenario`] (`scenario.rs`: plain checked values: the program, its environment, the
//!   steps) and running it ([`record_scenario`], `run.rs`; the program in a fresh copy of
//!   its working folder, `workdir.rs`). Cast TOML files are read by the config stage,
//!   which hands their recording part here; this stage knows no TOML, snapshots or pictures.
//! - [`journal`]: the steps of a session driven by hand or by an agent, with the waits
//!   inferred where none was used: the scenario that reproduces it.
//! - [`piped`]: a non-interactive command with pipes, not a PTY (`tuicast run`): its output,
//!   status and limits as [`piped::RunJson`] (`RunOutput`, the JSON it prints), with the
//!   environment and secrets rules of recordings (the base environment and a private HOME,
//!   secrets starred by `redact`, the time and output limits, its process group killed at a
//!   limit and at its end); [`piped::AskJson`] (`AskOutput`), the short form `tuicast ask`
//!   prints (the answer trimmed), and `PipedInput::Bytes`, the question written to the
//!   command's stdin.
//! - [`cargo_bin`]: the package's own binary for `bin = "NAME"` (cargo's, beside the test, or
//!   built).
//! - [`interrupt`]: SIGINT/SIGTERM/SIGHUP end recordings cleanly.
//! - [`keys`]: key names; [`mouse`]: mouse reports as the program's modes want them; `redact`
//!   (secret redaction; `#[doc(hidden)]` public for its fuzz target); `query`, `utf8`
//!   (internal): terminal queries answered as xterm 379 does (`reports_suite`, a test, checks
//!   them against xterm's replies: docs/reports.md), streaming UTF-8.

pub mod cargo_bin;
pub mod interrupt;
pub mod journal;
pub mod keys;
pub mod mouse;
#[doc(hidden)] // public for the `redact` fuzz target only; not a stable API
pub mod piped;
#[doc(hidden)] // public for the recording benchmark only; not a stable API
pub mod pty;
pub(crate) mod query;
pub mod redact;
#[cfg(test)]
mod reports_suite;
pub(crate) mod run;
pub(crate) mod scenario;
pub(crate) mod session;
pub(crate) mod utf8;

// `Session`'s parts by concern; `session` re-exports their public items.
mod diagnosis;
mod error;
mod home;
mod input;
mod pace;
mod quiet;
mod settle;
mod wait;
mod workdir;

// One path per item: the session, the scenario and running it are named from here.
pub use query::CELL_PIXELS;
pub use run::{default_cast_path, partial_path, record_scenario, run_step, Recorded};
pub use scenario::{
    Action, Origin, Program, RefWait, Scenario, Settle, Step, Target, Wait, DEFAULT_SETTLE,
    MAX_SCROLL,
};
#[cfg(feature = "cli")]
pub(crate) use session::Observer;
pub use session::{
    base_env, looks_like_prompt, sweep_orphans, CheckpointTiming, Finished, RecordError, Session,
    SessionOptions, SettledBy, TimeoutDiagnosis, UnsettledDiagnosis, CONFIRM,
};
pub use workdir::WorkdirError;
