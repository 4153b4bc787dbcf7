//! Cell selections: which cells of a [`Screen`] a mask hides, an annotation boxes, or a named
//! region of a cast's TOML means. One type and one grammar for all of them:
//!
//! - `rows`, `cols`: ranges counted from 1 as [`parse_cell_range`](super::parse_cell_range) reads
//!   them (`3`, `2..5`, `2..`, `..5`, `2..=4`); a missing one means every row or column.
//! - `regex`: every match in each row's text, within `rows` and `cols`
//!   ([`Screen::find_cells`]).

use std::ops::Range;

use regex::Regex;

use super::{parse_cell_range, Screen};
use crate::pos::{Ordinal, Place};

/// Which cells of a screen: a rectangle of rows and columns, or the matches of a regex within
/// it. Built by [`CellSelection::new`], so it is always valid and never selects nothing by
/// construction.
#[derive(Debug, Clone)]
pub struct CellSelection {
    rows: Option<Range<usize>>,
    cols: Option<Range<usize>>,
    regex: Option<Regex>,
}

/// A rectangle of cells: rows and columns, 0-based, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellRect {
    /// First row.
    pub row: usize,
    /// One past the last row.
    pub row_end: usize,
    /// First column.
    pub col: usize,
    /// One past the last column.
    pub col_end: usize,
}

impl CellRect {
    /// The first and last rows, counted from 1 as people read them: `[3, 5]`.
    pub fn rows(&self) -> [Ordinal; 2] {
        Ordinal::span(self.row..self.row_end)
    }

    /// The first and last columns, counted from 1 as people read them.
    pub fn cols(&self) -> [Ordinal; 2] {
        Ordinal::span(self.col..self.col_end)
    }

    /// `rows 3..=5 cols 2..=9`, counted from 1, as `inspect` prints a rectangle.
    pub fn describe(&self) -> String {
        let ([r0, r1], [c0, c1]) = (self.rows(), self.cols());
        format!("rows {r0}..={r1} cols {c0}..={c1}")
    }

    /// The top-left cell, counted from 1.
    pub fn first_place(&self) -> Place {
        Place {
            row: self.rows()[0],
            col: self.cols()[0],
        }
    }

    /// The bottom-right cell, counted from 1.
    pub fn last_place(&self) -> Place {
        Place {
            row: self.rows()[1],
            col: self.cols()[1],
        }
    }
}

message_error!(
    /// Why rows, cols and regex do not make a [`CellSelection`].
    SelectionError, SelectionErrorKind {
        /// None of rows, cols and regex is given.
        Empty,
        /// The regex is empty or not valid.
        Regex,
        /// A rows or columns range is not one (see [`RangeErrorKind`](super::RangeErrorKind)).
        Range,
    }
);

impl From<super::RangeError> for SelectionError {
    fn from(e: super::RangeError) -> SelectionError {
        SelectionError::new(SelectionErrorKind::Range, e.message)
    }
}

impl CellSelection {
    /// Checks the ranges (as written: `"3"`, `"2..5"`, …) and compiles the regex; at least
    /// one of the three must be given, and a regex must not be empty.
    pub fn new(
        rows: Option<&str>,
        cols: Option<&str>,
        regex: Option<&str>,
    ) -> Result<CellSelection, SelectionError> {
        if rows.is_none() && cols.is_none() && regex.is_none() {
            return Err(SelectionError::new(
                SelectionErrorKind::Empty,
                "say which cells with rows, cols or regex",
            ));
        }
        let regex = match regex {
            Some("") => {
                return Err(SelectionError::new(
                    SelectionErrorKind::Regex,
                    "the regex is empty",
                ))
            }
            Some(r) => Some(crate::util::user_regex(r).map_err(|e| {
                SelectionError::new(
                    SelectionErrorKind::Regex,
                    format!(
                        "regex \"{}\" {e}",
                        crate::escape::escape_for_terminal(r, 80)
                    ),
                )
            })?),
            None => None,
        };
        Ok(CellSelection {
            rows: rows.map(parse_cell_range).transpose()?,
            cols: cols.map(parse_cell_range).transpose()?,
            regex,
        })
    }

    /// The rows given, if any.
    pub fn rows(&self) -> Option<&Range<usize>> {
        self.rows.as_ref()
    }

    /// The columns given, if any.
    pub fn cols(&self) -> Option<&Range<usize>> {
        self.cols.as_ref()
    }

    /// The regex given, if any.
    pub fn regex(&self) -> Option<&Regex> {
        self.regex.as_ref()
    }

    /// The selected cells of `screen`, clipped to it: one rectangle for rows and columns, or
    /// one single-row rectangle per match of the regex (a wide character covered whole);
    /// none when nothing is selected.
    pub fn rects(&self, screen: &Screen) -> Vec<CellRect> {
        let nrows = screen.rows.len().min(screen.size.rows as usize);
        let ncols = screen.size.cols as usize;
        let clip = |r: &Option<Range<usize>>, n: usize| match r {
            Some(r) => r.start.min(n)..r.end.min(n),
            None => 0..n,
        };
        let (rows, cols) = (clip(&self.rows, nrows), clip(&self.cols, ncols));
        let Some(regex) = &self.regex else {
            if rows.is_empty() || cols.is_empty() {
                return Vec::new();
            }
            return vec![CellRect {
                row: rows.start,
                row_end: rows.end,
                col: cols.start,
                col_end: cols.end,
            }];
        };
        let mut out = Vec::new();
        for r in rows {
            for found in screen.find_cells(r, regex) {
                let (start, end) = (found.start.max(cols.start), found.end.min(cols.end));
                if start < end {
                    out.push(CellRect {
                        row: r,
                        row_end: r + 1,
                        col: start,
                        col_end: end,
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::term::{test_screen, Size};

    /// A rectangle from its bounds (for tests here and in `anchor`).
    pub(crate) fn rect(row: usize, row_end: usize, col: usize, col_end: usize) -> CellRect {
        CellRect {
            row,
            row_end,
            col,
            col_end,
        }
    }

    #[test]
    fn rectangles_and_matches_are_clipped_to_the_screen() {
        let s = test_screen(
            Size { cols: 20, rows: 3 },
            "error: one\r\nok 日本 error: two",
        );
        let sel = |rows, cols, regex| CellSelection::new(rows, cols, regex).unwrap();
        assert_eq!(
            sel(None, None, Some(r"error: \w+")).rects(&s),
            vec![rect(0, 1, 0, 10), rect(1, 2, 8, 18)]
        );
        assert_eq!(
            sel(None, None, Some("日本")).rects(&s),
            vec![rect(1, 2, 3, 7)]
        );
        assert_eq!(
            sel(Some("2"), Some("11.."), Some("error: two")).rects(&s),
            vec![rect(1, 2, 10, 18)]
        );
        assert_eq!(
            sel(Some("2.."), Some("16.."), None).rects(&s),
            vec![rect(1, 3, 15, 20)]
        );
        assert_eq!(
            sel(Some("1"), None, None).rects(&s),
            vec![rect(0, 1, 0, 20)]
        );
        assert!(sel(Some("11"), None, None).rects(&s).is_empty());
        assert!(sel(Some("2"), None, Some("one")).rects(&s).is_empty());
    }

    #[test]
    fn bad_selections_say_why() {
        for (rows, cols, regex, why) in [
            (None, None, None, "rows, cols or regex"),
            (Some("6..3"), None, None, "must look like 3, 2..5"),
            (None, Some("x"), None, "must look like 3, 2..5"),
            (None, None, Some("("), "is not valid"),
            (None, None, Some(""), "empty"),
        ] {
            let e = CellSelection::new(rows, cols, regex).unwrap_err();
            assert!(e.message().contains(why), "{e}");
        }
    }
}
