//! The outline of a screen: what a person sees at a glance, found from the cells alone, for
//! any program — boxes and panels drawn with line-drawing characters (and ASCII `+--+`), their
//! titles, the blocks of text inside them, highlighted rows (selection candidates), a status
//! bar on the last row, a header bar on the first, and the cursor's row.
//!
//! Each part has a stable name a scenario or a person can use: `box("Todos")` (a box by its
//! title; `box("Todos", 2)` for the second box with the same title, `box(1)` for the first
//! untitled box), `selected` (the one highlighted row of a list), `status`, `header`,
//! `cursor`. Positions in this module are 0-based (cells); what shows them to people
//! (`inspect`) adds 1.
//!
//! The rules, so that a reader can predict them:
//! - A box has four corners with exactly two arms each (`┌ ┐ └ ┘` and their heavy, double and
//!   rounded forms, or `+` in an ASCII box), a top and a bottom edge of horizontal lines (text
//!   and tees may interrupt them: titles, `┤ Title ├`), and left and right edges of vertical
//!   lines (tees allowed: `├` starts a separator). A box hidden in part by another is not
//!   found: nothing rather than a wrong box.
//! - The title is the first run of text on the top edge that holds a letter or a digit; the
//!   footer the same on the bottom edge.
//! - A highlighted row has, inside its container (the innermost box, or the screen), cells
//!   whose background (or reverse video) differs from the container's usual one, covering at
//!   least half of the row's visible characters; or all its characters bold where the
//!   container's text is not. `selected` is the one such row in a list (a block whose other
//!   rows are not highlighted), never a bar, and never a row with the visible cursor in it
//!   (that is an input field).
//! - A list row beside a selection is plain: not highlighted alike, and most of its cells in
//!   the container's usual shade (a header bar above a row of panel cursors is no selection:
//!   htop's setup screen).
//! - A window's status line is no selection: a highlight across every column of the bare
//!   screen right above an unstyled last row (vim's status line over its command line), and
//!   the same bar higher up (the status lines of vim's other windows).
//! - A column header is no selection: a highlight of three or more labels set apart as
//!   columns (by two spaces or more) and no digit, right above a row of its block that holds
//!   digits (htop's `PID USER … Command` over the processes).

// The screen, the grid of characters and the owner of each cell are read at the same
// (row, column): indices say that more plainly than three zipped iterators.
#![allow(clippy::needless_range_loop)]

mod blocks;
mod boxes;
mod grid;
mod highlights;

use std::ops::Range;

use super::{CellRect, Color, Screen};
use blocks::*;
use boxes::*;
use grid::*;
pub(crate) use grid::{is_line_char, Grid};
use highlights::*;

/// The outline of one screen ([`Screen::outline`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Outline {
    /// Boxes in reading order (by top row, then left column).
    pub boxes: Vec<BoxPart>,
    /// Blocks of text: consecutive non-blank rows of one container.
    pub blocks: Vec<TextBlock>,
    /// Highlighted rows, top to bottom.
    pub highlights: Vec<Highlight>,
    /// The index in `highlights` of the `selected` row, when exactly one highlighted row
    /// stands out in a list (its neighbours in the same block are not highlighted).
    pub selected: Option<usize>,
    /// The last row, when it is a bar: non-blank, outside every box, and styled across at
    /// least half the width or on the alternate screen (full-screen programs).
    pub status: Option<Bar>,
    /// The first row, when it is a styled bar (a menu bar, a title bar).
    pub header: Option<Bar>,
    /// The cursor's row and its text.
    pub cursor: CursorRow,
}

/// A box (a panel, a dialog, a frame) drawn with line-drawing characters.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BoxPart {
    /// The stable name: `box("Title")`, `box("Title", 2)`, or `box(N)` for the N-th untitled
    /// box.
    pub name: String,
    /// Text on the top edge.
    pub title: Option<String>,
    /// Text on the bottom edge.
    pub footer: Option<String>,
    /// The cells of the box, borders included.
    pub rect: CellRect,
    /// The line style: `single`, `heavy`, `double`, `rounded` or `ascii`.
    pub style: &'static str,
    /// The innermost box around this one (an index in [`Outline::boxes`]).
    pub parent: Option<usize>,
    /// Rows of horizontal separators inside the box (`├────┤`).
    pub separators: Vec<usize>,
}

impl BoxPart {
    /// The cells inside the borders (empty when the box has no inside).
    pub fn inner(&self) -> CellRect {
        CellRect {
            row: self.rect.row + 1,
            row_end: (self.rect.row_end - 1).max(self.rect.row + 1),
            col: self.rect.col + 1,
            col_end: (self.rect.col_end - 1).max(self.rect.col + 1),
        }
    }
}

/// Consecutive non-blank rows of one container.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TextBlock {
    /// The box it is in (an index in [`Outline::boxes`]), or `None` for the screen.
    pub container: Option<usize>,
    /// The rows and the columns its text spans.
    pub rect: CellRect,
    /// Each row's text within `rect`, trailing spaces trimmed.
    pub lines: Vec<String>,
}

/// How a row is highlighted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HighlightKind {
    /// Reverse video.
    Inverse,
    /// A background colour other than the container's.
    Background,
    /// Bold where the container's text is not.
    Bold,
}

impl HighlightKind {
    /// `inverse`, `background` or `bold`.
    pub fn name(self) -> &'static str {
        match self {
            HighlightKind::Inverse => "inverse",
            HighlightKind::Background => "background",
            HighlightKind::Bold => "bold",
        }
    }
}

/// A highlighted row: a selection candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Highlight {
    /// The row.
    pub row: usize,
    /// The highlighted columns (first to last highlighted cell).
    pub cols: Range<usize>,
    /// How it is highlighted.
    pub kind: HighlightKind,
    /// The highlight's colour: the background, or for reverse video the foreground.
    pub color: Color,
    /// The box it is in, or `None` for the screen.
    pub container: Option<usize>,
    /// The text of the highlighted cells, trimmed.
    pub text: String,
}

/// A bar across a row (the status line, a menu bar).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Bar {
    /// The row.
    pub row: usize,
    /// Its text, trimmed.
    pub text: String,
    /// Whether it is styled (a background or reverse video across at least half the width).
    pub styled: bool,
}

/// The cursor and the text of its row.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CursorRow {
    /// The cursor's row.
    pub row: usize,
    /// The cursor's column.
    pub col: usize,
    /// Whether the cursor is shown.
    pub visible: bool,
    /// The row's text (trailing spaces trimmed).
    pub text: String,
}

impl Screen {
    /// The outline of this screen: boxes, titles, text blocks, highlighted rows, bars and the
    /// cursor (the rules are in the module docs).
    pub fn outline(&self) -> Outline {
        self.outline_counted(&Work::default())
    }

    /// The outline, counting the cells and boxes its stages look at in `work` (the test of
    /// its cost: near-linear in the screen's cells).
    pub(crate) fn outline_counted(&self, work: &Work) -> Outline {
        let grid = Grid::new(self);
        let mut boxes = find_boxes(&grid, work);
        let owner = owners(&grid, &boxes, work);
        link_parents(&grid, &mut boxes, work);
        name_boxes(&mut boxes);
        let blocks = text_blocks(&grid, &boxes, &owner, work);
        let block_at = blocks_by_row(&blocks);
        let (highlights, usual, row_shades) = highlights(self, &grid, &owner, work);
        // A highlighted row with the visible cursor in it is an input field, not a selection.
        let c = self.cursor;
        let typing = |h: &Highlight| {
            c.visible && h.row == c.row as usize && h.cols.contains(&(c.col as usize))
        };
        // Whether row `r` of container `k` is mostly in the container's usual shade.
        let plain = |r: usize, k: Option<usize>| match row_shades.get(&(r, k)) {
            Some(&(cells, shaded)) => shaded * 2 < cells.max(1),
            None => usual.contains_key(&k),
        };
        let bottoms = status_bottoms(&highlights, &grid, self);
        let not_a_list_row = |h: &Highlight| {
            status_line(&bottoms, h, &grid) || column_header(&blocks, &block_at, h, &grid)
        };
        let selected = selected(
            &highlights,
            &blocks,
            &block_at,
            &grid,
            |h| typing(h) || not_a_list_row(h),
            plain,
        );
        let nrows = grid.rows;
        let status = (nrows > 1)
            .then(|| bar(self, &grid, &owner, nrows - 1))
            .flatten()
            .filter(|b| b.styled || self.alternate);
        let header = (nrows > 1)
            .then(|| bar(self, &grid, &owner, 0))
            .flatten()
            .filter(|b| b.styled);
        // A bar is not also a selection.
        let selected = selected.filter(|&i| {
            let r = highlights[i].row;
            status.as_ref().is_none_or(|b| b.row != r) && header.as_ref().is_none_or(|b| b.row != r)
        });
        Outline {
            boxes,
            blocks,
            highlights,
            selected,
            status,
            header,
            cursor: CursorRow {
                row: c.row as usize,
                col: c.col as usize,
                visible: c.visible,
                text: self.row_text(c.row as usize),
            },
        }
    }
}

impl Outline {
    /// The box of a stable name (`box("Todos")`, `box("Todos", 2)`, `box(1)`) or a plain
    /// title (`Todos`, the first box with that title).
    pub fn find_box(&self, name: &str) -> Option<&BoxPart> {
        self.boxes
            .iter()
            .find(|b| b.name == name)
            .or_else(|| self.boxes.iter().find(|b| b.title.as_deref() == Some(name)))
    }

    /// The selected row, if one stands out.
    pub fn selected_row(&self) -> Option<&Highlight> {
        self.selected.map(|i| &self.highlights[i])
    }
}

/// The cells and boxes the stages of an outline look at: each stage costs about the screen's
/// cells, a box its height (see `Screen::outline_counted`).
#[derive(Debug, Default)]
pub(crate) struct Work(std::cell::Cell<u64>);

impl Work {
    pub(super) fn add(&self, n: usize) {
        self.0.set(self.0.get().saturating_add(n as u64));
    }

    /// The count so far.
    #[cfg(test)]
    pub(crate) fn get(&self) -> u64 {
        self.0.get()
    }
}

/// At most this many box-to-box comparisons a screen for the parents of boxes that overlap
/// others without nesting (nested boxes find their parent in one look); past it such a box
/// has no parent.
pub(crate) const MAX_OVERLAP_COMPARISONS: usize = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{test_screen, Size};

    #[test]
    pub(super) fn a_titled_box_with_a_highlighted_row_and_a_status_bar() {
        let s = test_screen(
            Size { cols: 20, rows: 6 },
            "╭ Todos ─────────╮\r\n│ one            │\r\n│\x1b[7m two            \x1b[0m│\r\n│ three          │\r\n╰────────────────╯\r\n\x1b[44m 3 todos          \x1b[0m",
        );
        let o = s.outline();
        assert_eq!(o.boxes.len(), 1);
        let b = &o.boxes[0];
        assert_eq!(b.name, "box(\"Todos\")");
        assert_eq!(b.title.as_deref(), Some("Todos"));
        assert_eq!(b.style, "rounded");
        assert_eq!(
            b.rect,
            CellRect {
                row: 0,
                row_end: 5,
                col: 0,
                col_end: 18
            }
        );
        let sel = o.selected_row().unwrap();
        assert_eq!(
            (sel.row, sel.text.as_str(), sel.kind),
            (2, "two", HighlightKind::Inverse)
        );
        assert_eq!(o.status.as_ref().unwrap().text, "3 todos");
        assert!(o.find_box("Todos").is_some());
        assert_eq!(o.blocks.len(), 2);
        assert_eq!(o.blocks[0].lines, ["one", "two", "three"]);
    }

    #[test]
    pub(super) fn ascii_boxes_tees_in_titles_and_nesting() {
        let s = test_screen(
            Size { cols: 30, rows: 11 },
            "┌──┤ Confirm ├─────┐\r\n│ Sure?            │\r\n│ ┌────┐           │\r\n│ │ ok │           │\r\n│ └────┘           │\r\n├──────────────────┤\r\n│                  │\r\n└──────────────────┘\r\n+--------+\r\n| in     |\r\n+-- x ---+",
        );
        let o = s.outline();
        let names: Vec<&str> = o.boxes.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["box(\"Confirm\")", "box(1)", "box(2)"]);
        assert_eq!(o.boxes[1].parent, Some(0));
        assert_eq!(o.boxes[0].separators, [5]);
        assert_eq!(o.boxes[2].footer.as_deref(), Some("x"));
        assert_eq!(o.boxes[2].style, "ascii");
        // `+ a +` with little line is no box.
        let s = test_screen(
            Size { cols: 20, rows: 3 },
            "+ a b c +\r\n|       |\r\n+ d e f +",
        );
        assert!(s.outline().boxes.is_empty());
    }

    #[test]
    pub(super) fn status_lines_and_column_headers_are_not_selections() {
        let size = Size { cols: 12, rows: 6 };
        // A status line over an unstyled command line, and the same bar higher up.
        let vim = "one\r\n\x1b[7mnotes.txt   \x1b[0m\r\ntwo\r\nthree\r\n\x1b[7mnotes.txt   \x1b[0m\r\n:split";
        let o = test_screen(size, vim).outline();
        assert_eq!(o.highlights.len(), 2);
        assert_eq!(o.selected, None);
        // With a styled last row the bar is no status line: a list's full-width selection.
        let list = "one\r\ntwo\r\nthree\r\nfour\r\n\x1b[7mfive        \x1b[0m\r\n\x1b[44mhelp        \x1b[0m";
        let o = test_screen(size, list).outline();
        assert_eq!(o.selected_row().map(|h| h.text.as_str()), Some("five"));
        // Words over numbers: a column header; the selected row below it is found.
        let table = "\x1b[42mPID USER CMD\x1b[0m\r\n  1 root sh\r\n\x1b[46m  22 me vi  \x1b[0m\r\n  33 me ls\r\n\r\nend";
        let o = test_screen(size, table).outline();
        assert_eq!(o.highlights.len(), 2);
        assert_eq!(o.selected_row().map(|h| h.row), Some(2));
        // A list item of plain words over a row with a digit is no header.
        let items =
            "Todo:\r\n  buy milk\r\n\x1b[43m> write the notes \x1b[0m\r\n  review #42\r\n\r\nend";
        let o = test_screen(Size { cols: 18, rows: 6 }, items).outline();
        assert_eq!(
            o.selected_row().map(|h| h.text.as_str()),
            Some("> write the notes")
        );
        // A bar over a shaded row stands out from no plain neighbour.
        let bars = "\x1b[42m[Setup]\x1b[0m\r\n\x1b[42mTitles  Here\x1b[0m\r\n\x1b[46mitem\x1b[47m  value   \x1b[0m\r\nitem two\r\nitem three";
        let o = test_screen(size, bars).outline();
        assert_eq!(o.highlights.len(), 2, "{:?}", o.highlights);
        assert_eq!(o.selected, None, "{:?}", o.highlights);
    }

    /// A screen of `cols`x`rows` tiled with 3x3 boxes, each with a letter inside, and an
    /// inverse row of them now and then.
    pub(super) fn tiny_boxes(cols: u16, rows: u16) -> Screen {
        let n = cols as usize / 3;
        let mut input = String::new();
        for r in 0..rows as usize / 3 {
            let lit = if r % 4 == 1 { "\x1b[7m" } else { "" };
            input += &"┌─┐".repeat(n);
            input += "\r\n";
            input += lit;
            input += &"│x│".repeat(n);
            input += "\x1b[0m\r\n";
            input += &"└─┘".repeat(n);
            input += "\r\n";
        }
        test_screen(Size { cols, rows }, input.trim_end())
    }

    #[test]
    pub(super) fn the_outline_of_many_tiny_boxes_costs_about_its_cells() {
        // The screens of tiny boxes took 1.7 s (113 KB) and 33 s (440 KB) a
        // checkpoint: every box was compared with every other, every container rescanned the
        // screen. Four times the cells must cost about four times the work, not sixteen.
        let small = tiny_boxes(150, 99);
        let large = tiny_boxes(300, 198);
        let (ws, wl) = (Work::default(), Work::default());
        let (os, ol) = (small.outline_counted(&ws), large.outline_counted(&wl));
        assert_eq!((os.boxes.len(), ol.boxes.len()), (50 * 33, 100 * 66));
        assert_eq!(ol.blocks.len(), 100 * 66);
        assert!(ol.boxes[101].parent.is_none());
        let cells = |s: &Screen| s.size.cols as u64 * s.size.rows as u64;
        let per_cell = wl.get() / cells(&large);
        assert!(
            per_cell <= 16,
            "{} work for {} cells",
            wl.get(),
            cells(&large)
        );
        assert!(
            wl.get() <= ws.get() * 5,
            "4x the cells cost {}x the work ({} vs {})",
            wl.get() / ws.get(),
            wl.get(),
            ws.get()
        );
    }

    #[test]
    pub(super) fn nested_boxes_find_their_parent_and_overlapping_ones_too() {
        let s = test_screen(
            Size { cols: 16, rows: 8 },
            "┌────────────┐\r\n│ ┌──┐ ┌──┐  │\r\n│ │ab│ │cd│  │\r\n│ └──┘ └──┘  │\r\n│ +--+--+    │\r\n│ |  |  |    │\r\n│ +--+--+    │\r\n└────────────┘",
        );
        let o = s.outline();
        let parents: Vec<Option<usize>> = o.boxes.iter().map(|b| b.parent).collect();
        assert_eq!(parents[..3], [None, Some(0), Some(0)], "{:?}", o.boxes);
        // The ASCII boxes share a side; both are inside the big one.
        assert_eq!(parents[3..], [Some(0), Some(0)], "{:?}", o.boxes);
    }

    #[test]
    pub(super) fn an_unclosed_box_is_not_a_box() {
        let s = test_screen(
            Size { cols: 10, rows: 4 },
            "┌────┐\r\n│    │\r\n│     \r\n└────┘",
        );
        assert!(s.outline().boxes.is_empty());
    }
}
