//! Errors of the cast codec: every one carries the file, line and column it is about.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::location::write_place;

/// What kind of problem a [`CastError`] reports, for callers that branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CastErrorKind {
    /// Reading the file failed (permissions, a vanished file, a disk error).
    Io,
    /// The file holds nothing but blank or comment lines.
    Empty,
    /// A line is not valid JSON, is not valid UTF-8, or is cut short.
    Syntax,
    /// The header is missing, is not an object, or has a wrong or missing field.
    Header,
    /// An event line has the wrong shape or a wrong value.
    Event,
}

/// An error reading or writing a cast, tagged with its place: `casts/x.cast:17:5: message`.
///
/// `line` and `column` are 1-based; `column` counts characters, not bytes. A line of 0 means
/// the error is not about a particular line (an I/O error before anything was read).
#[derive(Debug)]
pub struct CastError {
    /// The file the error is about, when the input came from a file.
    pub path: Option<PathBuf>,
    /// 1-based line number in the file.
    pub line: u64,
    /// 1-based character column in that line.
    pub column: u64,
    /// The category of the problem.
    pub kind: CastErrorKind,
    /// A description of the problem; any text taken from the file is escaped.
    pub message: String,
    source: Option<io::Error>,
}

impl CastError {
    /// The error as data: `bad-input` (`error` for a failed read) at its place.
    pub fn failure(&self) -> crate::location::FailureJson {
        use crate::location::{FailureJson, FailureKind};
        let kind = match self.kind {
            CastErrorKind::Io => FailureKind::Error,
            _ => FailureKind::BadInput,
        };
        let failure = FailureJson::new(kind, self.to_string());
        match &self.path {
            Some(p) => failure.at(p, self.line, self.column),
            None => failure,
        }
    }

    /// Makes an error of `kind` at `line:column` with a message.
    pub fn new(kind: CastErrorKind, line: u64, column: u64, message: impl Into<String>) -> Self {
        CastError {
            path: None,
            line,
            column,
            kind,
            message: message.into(),
            source: None,
        }
    }

    /// Wraps an I/O error that happened at `line`.
    pub fn io(line: u64, err: io::Error) -> Self {
        CastError {
            path: None,
            line,
            column: 0,
            kind: CastErrorKind::Io,
            message: err.to_string(),
            source: Some(err),
        }
    }

    /// Attaches the file the error is about.
    pub fn with_path(mut self, path: impl AsRef<Path>) -> Self {
        self.path = Some(path.as_ref().to_path_buf());
        self
    }
}

impl fmt::Display for CastError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_place(f, self.path.as_deref(), self.line, self.column)?;
        write!(f, ": {}", self.message)
    }
}

impl CastError {
    /// The underlying I/O error, for errors of kind [`CastErrorKind::Io`].
    pub fn io_error(&self) -> Option<&io::Error> {
        self.source.as_ref()
    }
}

// `source()` gives the I/O error to callers that branch on it (its kind). The message says
// what it said too, for those that only print `Display`; the CLI's reporter leaves out a cause
// whose text is already shown (ARCHITECTURE.md, Conventions).
impl std::error::Error for CastError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// Byte offset of `part` inside `whole`; `part` must be a sub-slice of `whole`.
pub(crate) fn offset_in(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}
