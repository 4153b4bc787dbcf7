//! Errors of the cast codec: every one carries the file, line and column it is about.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// What kind of problem a [`CastError`] reports, for callers that branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
        match &self.path {
            Some(p) => write!(f, "{}", p.display())?,
            None => write!(f, "<input>")?,
        }
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl CastError {
    /// The underlying I/O error, for errors of kind [`CastErrorKind::Io`].
    pub fn io_error(&self) -> Option<&io::Error> {
        self.source.as_ref()
    }
}

// No `source()`: the message already says what the I/O error said, and error reporters that
// walk the chain would print it twice.
impl std::error::Error for CastError {}

/// Escapes text taken from a cast so that it is safe to print on a terminal: control
/// characters (ESC, BEL, C1 controls, DEL) become `\e`, `\x07`, `\u{9b}`-style escapes.
/// The result is cut to `max` characters with `…` so one huge line cannot flood a message.
pub fn escape_for_terminal(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (n, ch) in text.chars().enumerate() {
        if n >= max {
            out.push('…');
            break;
        }
        match ch {
            '\x1b' => out.push_str("\\e"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\x7f' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if (0x80..0xa0).contains(&(c as u32)) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// 1-based character column of byte `offset` in `line`.
pub(crate) fn char_column(line: &str, offset: usize) -> u64 {
    let mut end = offset.min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    line[..end].chars().count() as u64 + 1
}

/// Byte offset of `part` inside `whole`; `part` must be a sub-slice of `whole`.
pub(crate) fn offset_in(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}
