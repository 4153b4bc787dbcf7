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

use super::snapshot::CursorView;
use crate::inspect::Anchor;
use crate::term::{CellRect, CellSelection, Screen};

/// One mask: the cells of a [`CellSelection`] (a rectangle, or the matches of a regex within
/// one), or of a named region anchored by content, hidden before comparing. A mask that finds
/// nothing on a screen hides nothing there; one that finds nothing on any checkpoint of its
/// cast fails the run (the harness counts its uses), naming its [`place`](Mask::place).
#[derive(Debug, Clone)]
pub struct Mask {
    anchor: Anchor,
    place: Option<String>,
}

impl Mask {
    /// A mask hiding the cells `cells` selects.
    pub fn new(cells: CellSelection) -> Mask {
        Mask {
            anchor: Anchor::Cells(cells),
            place: None,
        }
    }

    /// A mask hiding what a region finds on each screen (`mask = [{ region = "clock" }]`).
    pub fn anchored(anchor: Anchor) -> Mask {
        Mask {
            anchor,
            place: None,
        }
    }

    /// This mask, declared at `place` (`casts/x.toml:4:3`), which messages about it name.
    pub fn at(mut self, place: impl Into<String>) -> Mask {
        self.place = Some(place.into());
        self
    }

    /// Where this mask is declared (`path:line:column`), when it came from a file.
    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }

    /// How this mask finds its cells.
    pub fn anchor(&self) -> &Anchor {
        &self.anchor
    }

    /// The cells this mask hides on `screen`.
    pub fn rects(&self, screen: &Screen) -> Vec<CellRect> {
        self.anchor.resolve(screen).unwrap_or_default()
    }

    /// Whether this mask hides the cell at 0-based `row`, `col` of `screen` (a wide
    /// character is hidden whole, so either of its halves counts).
    pub fn covers(&self, screen: &Screen, row: usize, col: usize) -> bool {
        let line = screen.rows.get(row).map(Vec::as_slice).unwrap_or(&[]);
        let wide_start = |c: usize| line.get(c).is_some_and(|cell| cell.width == 2);
        let mut cols = vec![col];
        if col > 0 && wide_start(col - 1) {
            cols.push(col - 1);
        }
        if wide_start(col) {
            cols.push(col + 1);
        }
        self.rects(screen).iter().any(|r| {
            (r.row..r.row_end).contains(&row) && cols.iter().any(|c| (r.col..r.col_end).contains(c))
        })
    }

    /// Replaces the covered cells of `screen` with [`PLACEHOLDER`](crate::term::PLACEHOLDER) in the default style.
    pub fn apply(&self, screen: &mut Screen) {
        let rects = self.rects(screen);
        crate::term::hide_rects(screen, &rects);
    }
}

/// Applies every mask to a copy of `screen`.
pub fn apply_all(masks: &[Mask], screen: &Screen) -> Screen {
    apply_counted(masks, screen, &mut vec![0; masks.len()])
}

/// Applies every mask to a copy of `screen`, adding to `hits[i]` the cells mask `i` hid
/// (`hits` as long as `masks`): how the harness tells a mask that hides nothing anywhere.
pub fn apply_counted(masks: &[Mask], screen: &Screen, hits: &mut [usize]) -> Screen {
    let mut s = screen.clone();
    for (m, hit) in masks.iter().zip(hits.iter_mut()) {
        let rects = m.rects(&s);
        *hit += rects
            .iter()
            .map(|r| r.row_end.saturating_sub(r.row) * r.col_end.saturating_sub(r.col))
            .sum::<usize>();
        crate::term::hide_rects(&mut s, &rects);
    }
    s
}

/// How a golden of `screen` shows its cursor: not at all when the case does not check it
/// (`check` false, `[check] cursor = false`), `masked` when a shown cursor is in a cell one
/// of `masks` hides, else its position (a hidden cursor never has one).
pub fn cursor_view(masks: &[Mask], screen: &Screen, check: bool) -> CursorView {
    let c = screen.cursor;
    if !check {
        CursorView::Omitted
    } else if c.visible
        && masks
            .iter()
            .any(|m| m.covers(screen, c.row as usize, c.col as usize))
    {
        CursorView::Masked
    } else {
        CursorView::Shown
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
    fn a_cursor_in_a_masked_cell_is_masked() {
        let s = screen("time 12:34:56\x1b[1;9H");
        let clock = [mask(None, None, Some(r"\d\d:\d\d:\d\d"))];
        assert_eq!(cursor_view(&clock, &s, true), CursorView::Masked);
        assert_eq!(cursor_view(&clock, &s, false), CursorView::Omitted);
        assert_eq!(cursor_view(&[], &s, true), CursorView::Shown);
        let left = screen("time 12:34:56\x1b[1;2H");
        assert_eq!(cursor_view(&clock, &left, true), CursorView::Shown);
        let rect = [mask(Some("2"), Some("3..=5"), None)];
        assert_eq!(
            cursor_view(&rect, &screen("\x1b[2;5H"), true),
            CursorView::Masked
        );
        assert_eq!(
            cursor_view(&rect, &screen("\x1b[2;6H"), true),
            CursorView::Shown
        );
        let wide = screen("a日本b\x1b[1;3H");
        assert_eq!(
            cursor_view(&[mask(None, Some("2"), None)], &wide, true),
            CursorView::Masked,
            "the second half of a masked wide character"
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
