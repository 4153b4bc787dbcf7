//! Masks: cells whose content changes from run to run (clocks, PIDs, spinners) are replaced by
//! a placeholder before comparing and in the golden.
//!
//! Which cells is a [`CellSelection`]; in a cast's TOML (`casts/NAME.toml`, read by the
//! config stage), the `[check]` table lists them:
//!
//! ```toml
//! [check]
//! mask = [
//!   { rows = "1", cols = "61..=80" },         # a rectangle: counted from 1, like messages
//!   { regex = "\\d\\d:\\d\\d:\\d\\d" },       # every match, in every row
//!   { rows = "2..", regex = "pid \\d+" },     # matches in some rows only
//!   { rows = 1 },                             # a number is a single row or column
//! ]
//! ```

use crate::term::{Cell, CellSelection, Screen};

/// The character drawn in masked cells.
pub const PLACEHOLDER: &str = "▒";

/// One mask: the cells of a [`CellSelection`] (a rectangle, or the matches of a regex within
/// one), hidden before comparing.
#[derive(Debug, Clone)]
pub struct Mask {
    cells: CellSelection,
}

impl Mask {
    /// A mask hiding the cells `cells` selects.
    pub fn new(cells: CellSelection) -> Mask {
        Mask { cells }
    }

    /// The cells this mask hides.
    pub fn cells(&self) -> &CellSelection {
        &self.cells
    }

    /// Replaces the covered cells of `screen` with [`PLACEHOLDER`] in the default style.
    pub fn apply(&self, screen: &mut Screen) {
        for rect in self.cells.rects(screen) {
            for row in &mut screen.rows[rect.row..rect.row_end] {
                let end = rect.col_end.min(row.len());
                for c in rect.col.min(end)..end {
                    mask_cell(row, c);
                }
            }
        }
    }
}

/// Applies every mask to a copy of `screen`.
pub fn apply_all(masks: &[Mask], screen: &Screen) -> Screen {
    let mut s = screen.clone();
    for m in masks {
        m.apply(&mut s);
    }
    s
}

/// Masks cell `c` of `row`; a wide character half covered is masked whole.
fn mask_cell(row: &mut [Cell], c: usize) {
    let start = if row[c].width == 0 && c > 0 { c - 1 } else { c };
    let end = if row[start].width == 2 {
        (start + 2).min(row.len())
    } else {
        start + 1
    };
    for cell in &mut row[start..end] {
        *cell = Cell {
            text: PLACEHOLDER.into(),
            width: 1,
            ..Cell::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Size;

    fn screen(input: &str) -> Screen {
        crate::term::test_screen(Size { cols: 20, rows: 3 }, input)
    }

    fn mask(rows: Option<&str>, cols: Option<&str>, regex: Option<&str>) -> Mask {
        Mask::new(CellSelection::new(rows, cols, regex).unwrap())
    }

    #[test]
    fn rectangles_and_regexes_mask_cells() {
        let s = screen("time 12:34:56 ok\r\npid 4242 \x1b[31mred\x1b[0m");
        let m = apply_all(&[mask(None, None, Some(r"\d\d:\d\d:\d\d"))], &s);
        assert_eq!(m.row_text(0), "time ▒▒▒▒▒▒▒▒ ok");
        let m = apply_all(&[mask(Some("2"), Some("5..9"), None)], &s);
        assert_eq!(m.row_text(1), "pid ▒▒▒▒ red");
        let m = apply_all(&[mask(Some("2"), Some("10.."), None)], &s);
        assert_eq!(m.row_text(1), "pid 4242 ▒▒▒▒▒▒▒▒▒▒▒");
        assert_eq!(m.rows[1][9].fg, crate::term::Color::Default);
        let m = apply_all(&[mask(Some("1"), None, Some(r"\d+"))], &s);
        assert_eq!(
            m.row_text(1),
            "pid 4242 red",
            "row 1 is outside the mask's rows"
        );
    }

    #[test]
    fn wide_characters_are_masked_whole() {
        let s = screen("a日本b");
        let m = apply_all(&[mask(None, Some("3"), None)], &s);
        assert_eq!(m.row_text(0), "a▒▒本b");
        let m = apply_all(&[mask(None, None, Some("本"))], &s);
        assert_eq!(m.row_text(0), "a日▒▒b");
    }
}
