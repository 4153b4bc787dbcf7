//! tuicast: record–replay regression testing for terminal programs.
//!
//! A session of a terminal program is kept as an asciicast v3 file. tuicast replays the
//! recorded bytes into a terminal engine — without launching the program — and gives the
//! screen at every checkpoint as text or JSON, ready to compare with a golden snapshot.
//!
//! # Synopsis
//!
//! ```
//! use tuicast::cast::CastReader;
//! use tuicast::replay;
//! use tuicast::term::EngineKind;
//!
//! let cast = r#"{"version": 3, "term": {"cols": 20, "rows": 3}}
//! [0.1, "o", "$ echo hi\r\n"]
//! [0.2, "o", "hi\r\n$ "]
//! [0.1, "m", "prompt"]
//! "#;
//! let reader = CastReader::new(cast.as_bytes())?;
//! let checkpoints = replay::checkpoints(reader, EngineKind::Avt)?;
//! assert_eq!(checkpoints[0].name, "prompt");
//! assert_eq!(checkpoints[0].line, 4);
//! assert_eq!(checkpoints[0].screen.text(), "$ echo hi\nhi\n$\n");
//! assert_eq!(checkpoints[1].name, "end");
//! # Ok::<(), tuicast::cast::CastError>(())
//! ```
//!
//! # Stages
//! - [`cast`]: the asciicast model; v1, v2 and v3 reading (streaming), v3 writing.
//! - [`term`]: the engine-independent [`term::Screen`] and the engines behind [`term::Engine`].
//! - [`replay`]: events → engine → [`replay::Checkpoint`]s.
//! - [`render`]: screens as text, JSON, PNG and GIF.
//! - [`assert`](mod@assert): golden snapshots, diffs, update modes, masks, pending review.
//! - [`harness`]: every checkpoint a `cargo test` trial (libtest-mimic).
//! - [`record`]: programs run in a PTY, driven by a [`record::Scenario`], written as casts.
//! - [`config`]: `tuicast.toml` and a cast's TOML ([`config::CastFile`]), read and checked.

pub mod escape;
pub mod location;
pub mod size;

pub mod assert;
pub mod cast;
pub mod config;
pub mod harness;
pub mod record;
pub mod render;
pub mod replay;
pub mod rgb;
pub mod term;
pub mod util;

/// The README's code blocks, compiled and run as doctests so the synopsis stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub use cast::{CastError, CastReader, Event, EventData, Header};
pub use replay::Checkpoint;
pub use term::{Engine, EngineKind, Screen, Size};
