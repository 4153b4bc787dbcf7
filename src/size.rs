//! [`Size`]: a terminal's columns and rows, its `COLSxROWS` parser and its limit.
//!
//! asciicast says `COLSxROWS` while some engines want rows first: this is the one place that
//! order is fixed. A leaf module: it imports only the escaper.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::escape::escape_for_terminal;

/// Most columns a screen may have (a cast's header or resize, a scenario, `--size`).
///
/// The three screen limits come from memory: a cell costs about 48 bytes in avt's grid (its
/// two buffers), 40 in a [`term::Screen`](crate::term) and a few more in its renders, and
/// `tuicast test` holds the engine, one screen, its masked copy and two renders at once:
/// about 150 bytes a cell. [`MAX_CELLS`] keeps that under 1 GB; the sides are the largest a
/// real terminal reaches (an 8K display with a 6-pixel font is about 1300x360) with room to
/// spare. `docs/limits.md` has the measurements.
pub const MAX_COLS: u64 = 4_000;

/// Most rows a screen may have; see [`MAX_COLS`].
pub const MAX_ROWS: u64 = 2_000;

/// Most cells (columns × rows) a screen may have; see [`MAX_COLS`].
pub const MAX_CELLS: u64 = 4_000_000;

/// Fewest columns a terminal has here. One column cannot hold a wide character (avt 0.17
/// panics reflowing or printing one there), and no real terminal is that narrow: a scenario
/// or a command line asking for 1 column is an error ([`Size::for_terminal`]), and an engine
/// asked for 1 column by a cast (a header or resize event from a window narrowed by hand)
/// takes 2 ([`Size::at_least_min`]), so replay stays total.
pub const MIN_COLS: u16 = 2;

/// A terminal size. Never a bare tuple: `cols` first, as asciicast writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Size {
    /// Columns (width in cells).
    pub cols: u16,
    /// Rows (height in cells).
    pub rows: u16,
}

impl Default for Size {
    fn default() -> Self {
        Size { cols: 80, rows: 24 }
    }
}

impl Size {
    /// This size with at least [`MIN_COLS`] columns and 1 row: what an engine takes when it is
    /// asked for less.
    pub fn at_least_min(self) -> Size {
        Size {
            cols: self.cols.max(MIN_COLS),
            rows: self.rows.max(1),
        }
    }

    /// This size, or an error when it is narrower than [`MIN_COLS`]: for sizes a person asks
    /// for (a scenario's `size` or `resize`, `--size`).
    pub fn for_terminal(self) -> Result<Size, SizeError> {
        if self.cols < MIN_COLS {
            return Err(SizeError::new(
                SizeErrorKind::TooNarrow,
                format!("size {self} is too narrow: a terminal has at least {MIN_COLS} columns"),
            ));
        }
        Ok(self)
    }
}

impl Size {
    /// The size `cols`x`rows`, or an error naming the limit it passes: each side at least 1
    /// and at most [`MAX_COLS`] and [`MAX_ROWS`], and at most [`MAX_CELLS`] in all.
    pub fn within_limits(cols: u64, rows: u64) -> Result<Size, SizeError> {
        for (what, n) in [("columns", cols), ("rows", rows)] {
            if n == 0 {
                return Err(SizeError::new(
                    SizeErrorKind::Zero,
                    format!("size {cols}x{rows} has zero {what}"),
                ));
            }
        }
        if cols > MAX_COLS {
            return Err(SizeError::new(
                SizeErrorKind::TooLarge,
                format!("size {cols}x{rows} is too large: more than {MAX_COLS} columns"),
            ));
        }
        if rows > MAX_ROWS {
            return Err(SizeError::new(
                SizeErrorKind::TooLarge,
                format!("size {cols}x{rows} is too large: more than {MAX_ROWS} rows"),
            ));
        }
        if cols * rows > MAX_CELLS {
            return Err(SizeError::new(
                SizeErrorKind::TooLarge,
                format!(
                    "size {cols}x{rows} is too large: {} cells, more than {MAX_CELLS}",
                    cols * rows
                ),
            ));
        }
        Ok(Size {
            cols: cols as u16,
            rows: rows as u16,
        })
    }

    /// The number of cells, columns × rows.
    pub fn cells(self) -> u64 {
        u64::from(self.cols) * u64::from(self.rows)
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

message_error!(
    /// Why a `COLSxROWS` text, or a number of columns and rows, is not a [`Size`]; its
    /// message escapes the text it quotes.
    SizeError, SizeErrorKind {
        /// Not `COLSxROWS` with two numbers.
        Syntax,
        /// No columns or no rows.
        Zero,
        /// Over [`MAX_COLS`], [`MAX_ROWS`] or [`MAX_CELLS`].
        TooLarge,
        /// Narrower than [`MIN_COLS`], for a terminal a person asks for.
        TooNarrow,
    }
);

impl FromStr for Size {
    type Err = SizeError;

    /// Parses `COLSxROWS`, such as `80x24` (or `80X24`, spaces around the numbers allowed),
    /// within the limits of [`Size::within_limits`].
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || {
            SizeError::new(
                SizeErrorKind::Syntax,
                format!(
                    "a size must be COLSxROWS (like 80x24), found \"{}\"",
                    escape_for_terminal(text, 40)
                ),
            )
        };
        let (c, r) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        let c: u64 = c.trim().parse().map_err(|_| bad())?;
        let r: u64 = r.trim().parse().map_err(|_| bad())?;
        Size::within_limits(c, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_cols_first() {
        let s: Size = "100x30".parse().unwrap();
        assert_eq!((s.cols, s.rows), (100, 30));
        assert_eq!(s.to_string(), "100x30");
        assert_eq!(" 80 X 24".parse::<Size>().unwrap(), Size::default());
    }

    #[test]
    fn rejects_zero_absurd_and_malformed_sizes() {
        assert_eq!(
            "0x3".parse::<Size>().unwrap_err().to_string(),
            "size 0x3 has zero columns"
        );
        let err = |s: &str| s.parse::<Size>().unwrap_err().to_string();
        assert_eq!(
            err("4001x3"),
            "size 4001x3 is too large: more than 4000 columns"
        );
        assert_eq!(
            err("80x2001"),
            "size 80x2001 is too large: more than 2000 rows"
        );
        assert_eq!(
            err("2001x2000"),
            "size 2001x2000 is too large: 4002000 cells, more than 4000000"
        );
        assert_eq!("4000x1000".parse::<Size>().unwrap().cells(), MAX_CELLS);
        assert_eq!(
            "80by\x1b24".parse::<Size>().unwrap_err().to_string(),
            "a size must be COLSxROWS (like 80x24), found \"80by\\e24\""
        );
        assert!("99999999999999999999999x1".parse::<Size>().is_err());
        let narrow: Size = "1x5".parse().unwrap();
        assert_eq!(
            narrow.for_terminal().unwrap_err().to_string(),
            "size 1x5 is too narrow: a terminal has at least 2 columns"
        );
        assert_eq!("2x1".parse::<Size>().unwrap(), Size { cols: 2, rows: 1 });
        assert_eq!(
            Size { cols: 1, rows: 0 }.at_least_min(),
            Size { cols: 2, rows: 1 }
        );
    }
}
