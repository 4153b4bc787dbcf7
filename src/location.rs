//! Places in files, `path:line:column`, and the one conversion from a byte offset to them;
//! and [`FailureJson`], a failure as data with its place as fields, the one shape every JSON
//! output of tuicast reports a failure in.
//!
//! Lines and columns are 1-based, and columns count characters, not bytes: what an editor
//! shows. In a message a line of 0 means "not about a particular line" and a column of 0 "the
//! whole line"; in a [`FailureJson`] they are `null` instead, never 0.
//! A leaf module: it imports only the escaper.

use std::fmt;
use std::num::NonZeroU64;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::escape::escape_for_terminal;

/// Longest file name shown in a message, in characters.
const MAX_PATH_SHOWN: usize = 300;

/// 1-based line and character column of byte `offset` in `text` (an offset inside a
/// character counts as that character; past the end, as the end).
///
/// ```
/// use tuicast::location::line_column;
/// assert_eq!(line_column("ab\ncdé f", 0), (1, 1));
/// assert_eq!(line_column("ab\ncdé f", 3), (2, 1));
/// assert_eq!(line_column("ab\ncdé f", 8), (2, 5));
/// ```
pub fn line_column(text: &str, offset: usize) -> (u64, u64) {
    let end = floor_char_boundary(text, offset);
    let before = &text[..end];
    let line = memchr_count(before.as_bytes(), b'\n') + 1;
    let start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    (line as u64, before[start..].chars().count() as u64 + 1)
}

/// [`line_column`] for many offsets of one text in increasing order, in time linear in the
/// text (each call scans only from the previous offset): the places of 50 000 frames of a
/// one-line v1 cast cost one pass, not 50 000. A smaller offset than the last starts over.
#[derive(Debug, Clone)]
pub struct LineCursor<'a> {
    text: &'a str,
    offset: usize,
    line: u64,
    column: u64,
}

impl<'a> LineCursor<'a> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        LineCursor {
            text,
            offset: 0,
            line: 1,
            column: 1,
        }
    }

    /// 1-based line and character column of byte `offset`, as [`line_column`] gives them.
    pub fn at(&mut self, offset: usize) -> (u64, u64) {
        let end = floor_char_boundary(self.text, offset);
        if end < self.offset {
            *self = LineCursor::new(self.text);
        }
        for c in self.text[self.offset..end].chars() {
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.offset = end;
        (self.line, self.column)
    }
}

/// 1-based character column of byte `offset` within the single line `line`.
pub fn char_column(line: &str, offset: usize) -> u64 {
    let end = floor_char_boundary(line, offset);
    line[..end].chars().count() as u64 + 1
}

/// Writes `path:line:column` (the line and column only when known) for a message prefix.
pub fn write_place(
    f: &mut fmt::Formatter<'_>,
    path: Option<&Path>,
    line: u64,
    column: u64,
) -> fmt::Result {
    match path {
        Some(p) => write!(
            f,
            "{}",
            escape_for_terminal(&p.display().to_string(), MAX_PATH_SHOWN)
        )?,
        None => write!(f, "<input>")?,
    }
    if line > 0 {
        write!(f, ":{line}")?;
        if column > 0 {
            write!(f, ":{column}")?;
        }
    }
    Ok(())
}

/// A failure as data: what went wrong (a stable [`FailureKind`] and the message people
/// read), where (`path`, `line`, `column`, the `step`), the screen at that moment and the
/// suggested fix, each a field. `tuicast run` (`failure`), `tuicast test --message-format
/// json` (each test's `failure`) and the session daemon's replies (`failure`) write it; a
/// field not known is `null` — `line` and `column` are never 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct FailureJson {
    /// What kind of failure: a name to act on, stable across versions.
    pub kind: FailureKind,
    /// The message as tuicast prints it for people (its place included).
    pub message: String,
    /// The file the failure is about (a scenario, a cast, a golden), when there is one.
    pub path: Option<PathBuf>,
    /// Its line in `path`, from 1 (for a golden: the screen row of the first difference);
    /// `null` when not known.
    pub line: Option<NonZeroU64>,
    /// Its column, in characters from 1; `null` when not known or the whole line.
    pub column: Option<NonZeroU64>,
    /// The step that failed, as a scenario writes it (`{ wait = "ready" }`), when a step did.
    pub step: Option<String>,
    /// The screen at that moment (for `tuicast run`, its last lines of text), one string per
    /// row, trailing blank rows dropped; `null` when there is none.
    pub screen: Option<Vec<String>>,
    /// What to do about it: a command to run or an edit to make, when tuicast knows one.
    pub fix: Option<String>,
}

/// What kind of failure a [`FailureJson`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum FailureKind {
    /// A wait or a command ran past its time.
    Timeout,
    /// The program exited while a step still needed it, or with another status than the
    /// scenario expects.
    Exited,
    /// The program was ended by a signal it did not ask for (SIGSEGV, SIGABRT, …).
    Crashed,
    /// A screen differs from its golden.
    Mismatch,
    /// A golden does not exist yet.
    MissingGolden,
    /// The input is wrong: a file that does not parse, a bad value, a missing program or
    /// secret, a usage error. Fixed by changing the input, not by running again.
    BadInput,
    /// A limit passed: the output, a cast's size, a count.
    Limit,
    /// The program waits for input that will not come (`tuicast run`).
    WaitingForInput,
    /// An expectation on a screen (`[[check.expect]]`, `session check`) does not hold, or a
    /// secret reached the screen.
    Check,
    /// A signal asked tuicast to stop.
    Interrupted,
    /// Anything else (reading or writing failed).
    Error,
}

impl FailureKind {
    /// The name as the JSON writes it (`missing-golden`).
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Timeout => "timeout",
            FailureKind::Exited => "exited",
            FailureKind::Crashed => "crashed",
            FailureKind::Mismatch => "mismatch",
            FailureKind::MissingGolden => "missing-golden",
            FailureKind::BadInput => "bad-input",
            FailureKind::Limit => "limit",
            FailureKind::WaitingForInput => "waiting-for-input",
            FailureKind::Check => "check",
            FailureKind::Interrupted => "interrupted",
            FailureKind::Error => "error",
        }
    }
}

impl FailureJson {
    /// A failure of `kind` with `message`, nothing else known yet.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> FailureJson {
        FailureJson {
            kind,
            message: message.into(),
            path: None,
            line: None,
            column: None,
            step: None,
            screen: None,
            fix: None,
        }
    }

    /// At `path`, `line` and `column` (0: not known, written `null`).
    pub fn at(mut self, path: impl Into<PathBuf>, line: u64, column: u64) -> FailureJson {
        self.path = Some(path.into());
        self.line = NonZeroU64::new(line);
        self.column = NonZeroU64::new(column).filter(|_| self.line.is_some());
        self
    }

    /// At the step written `step`.
    pub fn step(mut self, step: impl Into<String>) -> FailureJson {
        self.step = Some(step.into());
        self
    }

    /// With the screen's rows (trailing blank rows dropped; none left: no screen).
    pub fn screen<I, S>(mut self, rows: I) -> FailureJson
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut rows: Vec<String> = rows.into_iter().map(Into::into).collect();
        while rows.last().is_some_and(|r| r.trim().is_empty()) {
            rows.pop();
        }
        self.screen = (!rows.is_empty()).then_some(rows);
        self
    }

    /// With the suggested fix.
    pub fn fix(mut self, fix: impl Into<String>) -> FailureJson {
        self.fix = Some(fix.into());
        self
    }
}

fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    end
}

fn memchr_count(bytes: &[u8], b: u8) -> usize {
    bytes.iter().filter(|&&x| x == b).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_inside_characters_and_past_the_end() {
        let text = "é\nxy";
        assert_eq!(line_column(text, 1), (1, 1));
        assert_eq!(line_column(text, 2), (1, 2));
        assert_eq!(line_column(text, 100), (2, 3));
        assert_eq!(char_column("aé b", 4), 4);
    }

    #[test]
    fn the_cursor_agrees_with_line_column_in_any_order() {
        let text = "ab\ncdé f\n\nxyz";
        let mut cursor = LineCursor::new(text);
        for offset in [0, 1, 3, 5, 6, 9, 10, 2, 14, 100, 0] {
            assert_eq!(
                cursor.at(offset),
                line_column(text, offset),
                "offset {offset}"
            );
        }
    }

    #[test]
    fn a_failure_never_has_line_0_and_reads_back_as_written() {
        let f = FailureJson::new(FailureKind::MissingGolden, "no golden")
            .at("s/a/end.txt", 0, 7)
            .screen(["$ ls", "", " "]);
        assert_eq!(f.line, None);
        assert_eq!(f.column, None, "no column without a line");
        assert_eq!(f.screen, Some(vec!["$ ls".to_string()]));
        let json = serde_json::to_value(&f).unwrap();
        assert_eq!(json["kind"], "missing-golden");
        assert_eq!(json["line"], serde_json::Value::Null);
        assert_eq!(serde_json::from_value::<FailureJson>(json).unwrap(), f);
        let mut zero = serde_json::to_value(f.at("x", 3, 4)).unwrap();
        assert_eq!(
            (zero["line"].clone(), zero["column"].clone()),
            (3.into(), 4.into())
        );
        zero["line"] = 0.into();
        assert!(
            serde_json::from_value::<FailureJson>(zero).is_err(),
            "0 is no line"
        );
        for kind in [FailureKind::WaitingForInput, FailureKind::BadInput] {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.name());
        }
    }

    #[test]
    fn places_print_escaped() {
        struct P<'a>(Option<&'a Path>, u64, u64);
        impl fmt::Display for P<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_place(f, self.0, self.1, self.2)
            }
        }
        assert_eq!(P(Some(Path::new("a.cast")), 3, 4).to_string(), "a.cast:3:4");
        assert_eq!(P(Some(Path::new("a.cast")), 3, 0).to_string(), "a.cast:3");
        assert_eq!(P(None, 0, 0).to_string(), "<input>");
        assert_eq!(
            P(Some(Path::new("x\x1b]0;t\x07.cast")), 0, 0).to_string(),
            "x\\e]0;t\\x07.cast"
        );
    }
}
