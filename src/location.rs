//! Places in files, `path:line:column`, and the one conversion from a byte offset to them.
//!
//! Lines and columns are 1-based, and columns count characters, not bytes: what an editor
//! shows. A line of 0 means "not about a particular line"; a column of 0, "the whole line".
//! A leaf module: it imports only the escaper.

use std::fmt;
use std::path::Path;

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
