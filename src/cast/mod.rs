//! The asciicast model and codec.
//!
//! One version-neutral model ([`Header`], [`Event`]) is read from asciicast v1, v2 and v3 and
//! written as v3. Reading is a lazy iterator over the file's lines ([`CastReader`]), so a
//! cast of any size streams through in constant memory. Each wire version lives in its own
//! file (`v1.rs`, `v2.rs`, `v3.rs`); [`transform`] holds edits such as the idle-time limit.

mod error;
mod line;
mod reader;
pub mod transform;
mod v1;
mod v2;
mod v3;
mod writer;

use crate::theme::Theme;
use std::collections::BTreeMap;

pub use error::{CastError, CastErrorKind};
pub use reader::{open, CastReader, MAX_LINE_BYTES};
pub use writer::{CastWriter, DEFAULT_PRECISION};

use crate::size::Size;

/// The header of a cast, whatever version it was read from.
///
/// `#[non_exhaustive]`: asciicast grows fields; make one with [`Header::new`] and set the
/// fields a cast has.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Header {
    /// The asciicast version of the source file (1, 2 or 3). Written casts are always v3.
    pub version: u8,
    /// The terminal the session ran in.
    pub term: Term,
    /// Unix time (seconds) when the recording started.
    pub timestamp: Option<i64>,
    /// Longest pause, in seconds, a player should show; longer ones are shortened.
    pub idle_time_limit: Option<f64>,
    /// The command that was recorded.
    pub command: Option<String>,
    /// A title for the recording.
    pub title: Option<String>,
    /// Environment variables captured at recording time.
    pub env: BTreeMap<String, String>,
    /// Free-form tags.
    pub tags: Vec<String>,
    /// Header fields this version of tuicast does not know, kept as they were.
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// The `term` object of a v3 header (v1 and v2 `width`, `height` and `env.TERM` map here).
///
/// `#[non_exhaustive]`, as [`Header`] is: make one with [`Term::new`].
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Term {
    /// Terminal size at the start of the recording.
    pub size: Size,
    /// The terminal type, such as `xterm-256color`.
    pub term_type: Option<String>,
    /// The terminal's own version string.
    pub version: Option<String>,
    /// The terminal's colours, when the recorder captured them.
    pub theme: Option<Theme>,
    /// Unknown fields of the `term` object, kept as they were.
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl Header {
    /// The header of a v3 cast of a terminal of `size`, with nothing else known.
    pub fn new(size: Size) -> Header {
        Header {
            version: 3,
            term: Term::new(size),
            ..Header::default()
        }
    }
}

impl Term {
    /// A terminal of `size`, its type, version and theme unknown.
    pub fn new(size: Size) -> Term {
        Term {
            size,
            ..Term::default()
        }
    }
}

/// One event of a cast.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Seconds since the start of the recording (absolute, whatever the file stored).
    pub time: f64,
    /// 1-based line of the source file this event came from (0 for events made in memory).
    pub line: u64,
    /// What happened.
    pub data: EventData,
}

/// What an [`Event`] says happened.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EventData {
    /// `o`: the program wrote this text to the terminal.
    Output(String),
    /// `i`: this text was sent to the program (keys typed, query answers).
    Input(String),
    /// `m`: a marker; a non-empty label makes it a checkpoint.
    Marker(String),
    /// `r`: the terminal was resized.
    Resize(Size),
    /// `x`: the program exited with this status (128+signal for a signal).
    Exit(i32),
    /// An event code this version does not know, kept as it was.
    Other {
        /// The event code.
        code: String,
        /// The event data.
        data: String,
    },
}

impl EventData {
    /// The one-letter event code of the wire format.
    pub fn code(&self) -> &str {
        match self {
            EventData::Output(_) => "o",
            EventData::Input(_) => "i",
            EventData::Marker(_) => "m",
            EventData::Resize(_) => "r",
            EventData::Exit(_) => "x",
            EventData::Other { code, .. } => code,
        }
    }
}
