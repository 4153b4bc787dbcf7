//! Positions on a screen, in the two ways tuicast counts them.
//!
//! - [`Point`]: 0-based, as the grid counts. Row 0 is the top and column 0 the left edge.
//!   Engines, screens, outlines and scenario steps hold this form.
//! - [`Ordinal`] and [`Place`]: 1-based, as people read positions. Messages, goldens,
//!   scenarios and the JSON written for people and agents all use it: the top-left cell is
//!   row 1, column 1.
//!
//! Only this module converts between the two: [`Ordinal::of`] from an index, and
//! [`Ordinal::index`] back to one. A `+ 1` on a position anywhere else says a boundary
//! skipped its type. This is a leaf module: it uses only the escaper.

use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};

/// A row or column number counted from 1, as people read it: never 0.
///
/// `Display` prints the number, and serde writes it as a plain JSON number. Reading it back
/// refuses 0. Make one with [`Ordinal::of`] from a 0-based index, or with [`Ordinal::new`]
/// from a number someone wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "usize", into = "usize")]
pub struct Ordinal(usize);

/// An integer of at least 1, inlined where it is used: the schema says what the type
/// promises, and each field's own doc describes it.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Ordinal {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Ordinal".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "integer", "format": "uint", "minimum": 1 })
    }
}

impl Ordinal {
    /// Row 1 or column 1: the top or the left edge.
    pub const FIRST: Ordinal = Ordinal(1);

    /// The 1-based number of the 0-based index `index`. The top row, index 0, is 1. Saturates
    /// at `usize::MAX`, which no screen reaches (see [`crate::size::MAX_COLS`]).
    pub fn of(index: impl Into<usize>) -> Ordinal {
        Ordinal(index.into().saturating_add(1))
    }

    /// The number `n` as someone wrote it, counted from 1; `None` for 0.
    pub fn new(n: usize) -> Option<Ordinal> {
        (n > 0).then_some(Ordinal(n))
    }

    /// The number itself, at least 1.
    pub fn get(self) -> usize {
        self.0
    }

    /// The 0-based index this number names: row 1 is index 0.
    pub fn index(self) -> usize {
        self.0 - 1
    }

    /// The first and last numbers (inclusive, 1-based) of the 0-based half-open range
    /// `range`, as people write a span: `2..5` (indices 2, 3, 4) is `[3, 5]`. An empty range
    /// is its start alone.
    pub fn span(range: Range<usize>) -> [Ordinal; 2] {
        let first = Ordinal::of(range.start);
        [
            first,
            Ordinal::new(range.end).map_or(first, |last| last.max(first)),
        ]
    }
}

impl fmt::Display for Ordinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

message_error!(
    /// Why a number is not an [`Ordinal`].
    OrdinalError, OrdinalErrorKind {
        /// Not a whole number.
        NotANumber,
        /// A 0, where rows and columns count from 1.
        Zero,
    }
);

impl std::str::FromStr for Ordinal {
    type Err = OrdinalError;

    /// A number counted from 1, as written: `"3"`; `"0"`, a sign or anything else is an error.
    fn from_str(s: &str) -> Result<Ordinal, OrdinalError> {
        let n: usize = s.parse().map_err(|_| {
            OrdinalError::new(
                OrdinalErrorKind::NotANumber,
                format!(
                    "\"{}\" is not a row or column number",
                    crate::escape::escape_for_terminal(s, 40)
                ),
            )
        })?;
        Ordinal::try_from(n)
    }
}

impl From<Ordinal> for usize {
    fn from(n: Ordinal) -> usize {
        n.0
    }
}

impl TryFrom<usize> for Ordinal {
    type Error = OrdinalError;

    fn try_from(n: usize) -> Result<Ordinal, OrdinalError> {
        Ordinal::new(n).ok_or_else(|| {
            OrdinalError::new(
                OrdinalErrorKind::Zero,
                "0 is not a position: rows and columns count from 1",
            )
        })
    }
}

/// A cell on a screen, 0-based: `row` 0 is the top row and `col` 0 the left column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Point {
    /// The row, 0 at the top.
    pub row: u16,
    /// The column, 0 at the left edge.
    pub col: u16,
}

impl Point {
    /// The cell at 0-based `row` and `col`.
    pub fn new(row: u16, col: u16) -> Point {
        Point { row, col }
    }

    /// This cell as people read it, counted from 1.
    pub fn place(self) -> Place {
        Place {
            row: Ordinal::of(self.row),
            col: Ordinal::of(self.col),
        }
    }
}

/// A cell as people read it, counted from 1: `Display` gives `row 3, column 5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Place {
    /// The row, 1 at the top.
    pub row: Ordinal,
    /// The column, 1 at the left edge.
    pub col: Ordinal,
}

impl Place {
    /// The cell at `row` and `col` as someone wrote them, counted from 1; `None` if either is
    /// 0.
    pub fn new(row: usize, col: usize) -> Option<Place> {
        Some(Place {
            row: Ordinal::new(row)?,
            col: Ordinal::new(col)?,
        })
    }

    /// The cell at 0-based `row` and `col` indices, counted from 1.
    pub fn of(row: impl Into<usize>, col: impl Into<usize>) -> Place {
        Place {
            row: Ordinal::of(row),
            col: Ordinal::of(col),
        }
    }

    /// The 0-based cell this place names. An index past `u16::MAX` (past any screen's size,
    /// see [`crate::size::MAX_COLS`]) becomes `u16::MAX`.
    pub fn point(self) -> Point {
        let narrow = |n: Ordinal| u16::try_from(n.index()).unwrap_or(u16::MAX);
        Point {
            row: narrow(self.row),
            col: narrow(self.col),
        }
    }

    /// `[3, 5]`, as scenarios write a cell.
    pub fn pair(self) -> String {
        format!("[{}, {}]", self.row, self.col)
    }
}

impl fmt::Display for Place {
    /// `row 3, column 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row, self.col)
    }
}

/// `3:5` or `3:5-9`: the cells of row `row` from column `first` to `last` (0-based indices,
/// `last` included), counted from 1, as goldens and messages write a run of cells.
pub fn run_text(row: usize, first: usize, last: usize) -> String {
    let (row, first, last) = (Ordinal::of(row), Ordinal::of(first), Ordinal::of(last));
    if first == last {
        format!("{row}:{first}")
    } else {
        format!("{row}:{first}-{last}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_counts_meet_only_here() {
        assert_eq!(Ordinal::of(0usize), Ordinal::FIRST);
        assert_eq!(Ordinal::of(4u16).get(), 5);
        assert_eq!(Ordinal::of(4u16).index(), 4);
        assert_eq!(Ordinal::new(0), None);
        assert_eq!(Ordinal::new(7).map(Ordinal::index), Some(6));
        assert_eq!("12".parse::<Ordinal>().map(Ordinal::index), Ok(11));
        let kind = |s: &str| s.parse::<Ordinal>().unwrap_err().kind();
        assert_eq!(kind("0"), OrdinalErrorKind::Zero);
        assert_eq!(kind("x"), OrdinalErrorKind::NotANumber);
        assert_eq!(kind("-3"), OrdinalErrorKind::NotANumber);
        assert_eq!(Ordinal::of(usize::MAX).get(), usize::MAX);
        assert_eq!(Ordinal::span(2..5).map(Ordinal::get), [3, 5]);
        assert_eq!(Ordinal::span(0..1).map(Ordinal::get), [1, 1]);
        assert_eq!(Ordinal::span(3..3).map(Ordinal::get), [4, 4]);
        let p = Point::new(2, 4);
        assert_eq!(p.place().to_string(), "row 3, column 5");
        assert_eq!(p.place().pair(), "[3, 5]");
        assert_eq!(p.place().point(), p);
        assert_eq!(Place::new(3, 5), Some(p.place()));
        assert_eq!(Place::new(0, 5), None);
        assert_eq!(Place::of(2usize, 4u16), p.place());
        assert_eq!(run_text(0, 4, 4), "1:5");
        assert_eq!(run_text(2, 0, 9), "3:1-10");
        assert_eq!(Place::new(70_000, 1).map(|p| p.point().row), Some(u16::MAX));
    }

    #[test]
    fn json_holds_plain_numbers_and_refuses_a_zero() {
        let p = Point::new(0, 9).place();
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(json, r#"{"row":1,"col":10}"#);
        assert_eq!(serde_json::from_str::<Place>(&json).unwrap(), p);
        let zero = serde_json::from_str::<Place>(r#"{"row":0,"col":1}"#).unwrap_err();
        assert!(
            zero.to_string().starts_with("0 is not a position"),
            "{zero}"
        );
    }
}
