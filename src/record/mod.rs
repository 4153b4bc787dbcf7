//! Recording: run a real program in a pseudo-terminal, drive it from a scenario, and write
//! the session as an asciicast v3 file.
//!
//! - [`pty`]: the program in a PTY (portable-pty), output and exit as events.
//! - [`session`]: the live engine, waits on the screen, input, secrets, query answers, the cast.
//!   Its parts are private files by concern, their public items shown in [`session`]: `wait.rs`,
//!   `input.rs`, `report.rs` (what a timed-out wait saw), `error.rs`, `home.rs` (the fresh HOME).
//! - [`scenario`] and [`run`]: a [`Scenario`] (plain checked values: the program, its
//!   environment, the steps) and running it. Cast TOML files are read by the config stage,
//!   which hands their recording part here; this stage knows no TOML, snapshots or pictures.
//! - [`keys`], [`query`], [`redact`], [`utf8`]: key names, terminal queries, secret redaction,
//!   streaming UTF-8.

pub mod keys;
pub mod pty;
pub mod query;
pub mod redact;
pub mod run;
pub mod scenario;
pub mod session;
pub mod utf8;

// `Session`'s parts by concern; `session` re-exports their public items.
mod error;
mod home;
mod input;
mod report;
mod wait;

pub use run::{default_cast_path, record_scenario, Recorded};
pub use scenario::{Action, Origin, Program, Scenario, Step, Wait};
pub use session::{base_env, Finished, RecordError, Session, SessionOptions};
