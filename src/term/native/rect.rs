//! The VT420 rectangular area operations, as xterm (379) does them: DECFRA fills a rectangle
//! with a character, DECERA with blanks, DECSERA blanks what DECSCA did not protect, DECCRA
//! copies one, DECCARA and DECRARA set or reverse attributes in one (or in the stream of cells
//! from its first corner to its last, unless DECSACE chose the rectangle).
//!
//! A rectangle's parameters (`Pt;Pl;Pb;Pr`) are 1-based, and 0 or a missing one stands for the
//! edge of the page. In origin mode they count from the top margin and stay in the scroll
//! region; as in xterm, a defaulted top is offset too. A rectangle whose top is below its
//! bottom, or its left right of its right, does nothing. An edge that cuts a wide character
//! in two blanks both halves.

use unicode_width::UnicodeWidthChar;

use super::grid::{flag, GridCell, Pen};
use super::NativeEngine;
use crate::term::Color;

/// A rectangle of the screen: rows and columns from 0, inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    top: usize,
    left: usize,
    bottom: usize,
    right: usize,
}

impl Rect {
    /// Its cells: the units of work of an operation on each (`term::work`).
    fn cells(self) -> u64 {
        ((self.bottom - self.top + 1) * (self.right - self.left + 1)) as u64
    }
}

impl NativeEngine {
    /// `CSI … $ fin` with `params`: DECFRA (`x`; the fill character, a printable one of one
    /// column, first), DECERA (`z`), DECSERA (`{`), DECCRA (`v`), DECCARA (`r`), DECRARA (`t`).
    pub(super) fn rect_op(&mut self, fin: u8, params: &[u16]) {
        match fin {
            b'x' => {
                let ch = char::from_u32(u32::from(params[0])).filter(|c| c.width() == Some(1));
                if let (Some(ch), Some(r)) = (ch, self.rect(&params[1..])) {
                    self.fill_rect(r, ch);
                }
            }
            b'z' | b'{' => {
                let Some(r) = self.rect(params) else {
                    return;
                };
                if fin == b'z' {
                    self.fill_rect(r, ' ');
                } else {
                    self.selective_erase_rect(r);
                }
            }
            b'v' => self.copy_rect(params),
            _ => self.change_rect_attrs(params, fin == b't'),
        }
    }

    /// The rows a rectangle may use, from 0, inclusive: the scroll region in origin mode.
    fn rect_rows(&self) -> (usize, usize) {
        if self.modes.origin {
            (self.top, self.bottom)
        } else {
            (0, self.nrows() - 1)
        }
    }

    /// The rectangle `params` give (`Pt;Pl;Pb;Pr`), as xterm reads it, or `None`.
    fn rect(&self, params: &[u16]) -> Option<Rect> {
        let (min_row, max_row) = self.rect_rows();
        let (min_row, max_row) = (min_row as isize + 1, max_row as isize + 1);
        let max_col = self.cols() as isize;
        let offset = if self.modes.origin {
            self.top as isize
        } else {
            0
        };
        let param = |i: usize, default: isize| match params.get(i) {
            Some(&v) if v > 0 => v as isize,
            _ => default,
        };
        // (A top or left one past the last row or column is kept, and makes the rectangle
        // empty, as in xterm.)
        let row = |v: isize, past: isize| (v + offset).clamp(min_row, max_row + past);
        let col = |v: isize, past: isize| v.clamp(1, max_col + past);
        let top = row(param(0, min_row), 1);
        let left = col(param(1, 1), 1);
        let bottom = row(param(2, max_row), 0);
        let right = col(param(3, max_col), 0);
        let valid = top <= bottom && left <= right && top <= max_row && right <= max_col;
        valid.then(|| Rect {
            top: top as usize - 1,
            left: left as usize - 1,
            bottom: bottom as usize - 1,
            right: right as usize - 1,
        })
    }

    /// DECFRA (`ch`, printable) and DECERA (`' '`): every cell of `r` holds `ch` with the
    /// pen's attributes, and the pen's colours when it has any (else the cell keeps its own).
    fn fill_rect(&mut self, r: Rect, ch: char) {
        if !self
            .work
            .take(r.cells(), "DECFRA, DECERA (CSI … $ x, CSI … $ z)")
        {
            return;
        }
        let pen = self.pen;
        let coloured = pen.fg != Color::Default || pen.bg != Color::Default;
        for row in r.top..=r.bottom {
            let cells = &mut self.rows[row].cells;
            split_wide_edges(cells, r.left, r.right, |_| true);
            for cell in &mut cells[r.left..=r.right] {
                let (fg, bg) = if coloured {
                    (pen.fg, pen.bg)
                } else {
                    (cell.pen.fg, cell.pen.bg)
                };
                *cell = GridCell {
                    ch: ch as u32,
                    pen: Pen {
                        fg,
                        bg,
                        flags: pen.flags,
                    },
                    link: 0,
                    width: 1,
                };
            }
        }
    }

    /// DECSERA: every cell of `r` DECSCA did not protect becomes a blank, its style kept.
    fn selective_erase_rect(&mut self, r: Rect) {
        if !self.work.take(r.cells(), "DECSERA (CSI … $ {)") {
            return;
        }
        let open = |c: &GridCell| c.pen.flags & flag::PROTECTED == 0;
        for row in r.top..=r.bottom {
            let cells = &mut self.rows[row].cells;
            split_wide_edges(cells, r.left, r.right, open);
            for cell in &mut cells[r.left..=r.right] {
                if open(cell) {
                    blank_keeping_style(cell);
                }
            }
            repair_wide(cells);
        }
    }

    /// DECCRA (`Pts;Pls;Pbs;Prs;Pps;Ptd;Pld;Ppd`, pages ignored): the cells of the source
    /// rectangle, style and all, over those from the destination's top left corner, as far
    /// as the page (the scroll region in origin mode) goes.
    fn copy_rect(&mut self, params: &[u16]) {
        let Some(from) = self.rect(&params[..params.len().min(4)]) else {
            return;
        };
        let to = params.get(5..).unwrap_or(&[]);
        let Some(to) = self.rect(&to[..to.len().min(2)]) else {
            return;
        };
        // Read once into the copy, written once.
        if !self.work.take(2 * from.cells(), "DECCRA (CSI … $ v)") {
            return;
        }
        let copy: Vec<Vec<GridCell>> = (from.top..=from.bottom)
            .map(|row| self.rows[row].cells[from.left..=from.right].to_vec())
            .collect();
        let (_, last_row) = self.rect_rows();
        let cols = self.cols();
        for (j, line) in copy.iter().enumerate() {
            let row = to.top + j;
            if row > last_row {
                break;
            }
            let cells = &mut self.rows[row].cells;
            split_wide_edges(
                cells,
                to.left,
                (to.left + line.len() - 1).min(cols - 1),
                |_| true,
            );
            for (k, cell) in line.iter().enumerate() {
                match cells.get_mut(to.left + k) {
                    Some(c) => *c = *cell,
                    None => break,
                }
            }
            repair_wide(cells);
        }
    }

    /// DECCARA (`reverse` false: `Pt;Pl;Pb;Pr;Ps…` set or clear the attributes `Ps`: 0 clears
    /// bold, underline, blink and inverse, 1 4 5 7 set one, 22 24 25 27 clear it) and DECRARA
    /// (1 4 5 7 reverse one), over the rectangle (DECSACE 2) or the stream of cells from its
    /// top left to its bottom right (the default). These are the VT420's attributes; xterm
    /// reads 8 and 28 (conceal) too but cannot keep them there, so neither changes a cell.
    fn change_rect_attrs(&mut self, params: &[u16], reverse: bool) {
        let Some(r) = self.rect(&params[..params.len().min(4)]) else {
            return;
        };
        let attrs = params.get(4..).unwrap_or(&[]);
        if attrs.is_empty() {
            return;
        }
        // Each attribute at each cell; a stream's rows are whole between its first and last.
        let cells = if self.rect_exact {
            r.cells()
        } else {
            ((r.bottom - r.top + 1) * self.cols()) as u64
        };
        if !self.work.take(
            cells * attrs.len() as u64,
            "DECCARA, DECRARA (CSI … $ r, CSI … $ t)",
        ) {
            return;
        }
        let bit = |ps: u16| match ps {
            1 | 22 => flag::BOLD,
            4 | 24 => flag::UNDERLINE,
            5 | 25 => flag::BLINK,
            7 | 27 => flag::INVERSE,
            _ => 0,
        };
        let cols = self.cols();
        for row in r.top..=r.bottom {
            let left = if self.rect_exact || row == r.top {
                r.left
            } else {
                0
            };
            let right = if self.rect_exact || row == r.bottom {
                r.right
            } else {
                cols - 1
            };
            for cell in &mut self.rows[row].cells[left..=right] {
                let flags = &mut cell.pen.flags;
                for &ps in attrs {
                    match (reverse, ps) {
                        (true, 1 | 4 | 5 | 7) => *flags ^= bit(ps),
                        (false, 0) => {
                            *flags &= !(flag::BOLD | flag::UNDERLINE | flag::BLINK | flag::INVERSE)
                        }
                        (false, 1 | 4 | 5 | 7) => *flags |= bit(ps),
                        (false, 22 | 24 | 25 | 27) => *flags &= !bit(ps),
                        _ => {}
                    }
                }
            }
        }
    }
}

/// A blank in place of the cell's character, its style kept (xterm's "clear one cell").
fn blank_keeping_style(cell: &mut GridCell) {
    (cell.ch, cell.width, cell.link) = (' ' as u32, 1, 0);
}

/// Blanks both halves of a wide character an edit of `cells[left..=right]` cuts in two, where
/// `may` allows it (the cell inside the edit).
fn split_wide_edges(
    cells: &mut [GridCell],
    left: usize,
    right: usize,
    may: impl Fn(&GridCell) -> bool,
) {
    if left > 0 && cells[left].width == 0 && may(&cells[left]) {
        blank_keeping_style(&mut cells[left - 1]);
        blank_keeping_style(&mut cells[left]);
    }
    if right + 1 < cells.len() && cells[right + 1].width == 0 && may(&cells[right]) {
        blank_keeping_style(&mut cells[right]);
        blank_keeping_style(&mut cells[right + 1]);
    }
}

/// Blanks the halves of wide characters left without their other half (a copy's edges, a
/// selective erase of one half): a cell of width 2 is always followed by its tail.
fn repair_wide(cells: &mut [GridCell]) {
    for c in 0..cells.len() {
        let whole = match cells[c].width {
            2 => cells.get(c + 1).is_some_and(|t| t.width == 0),
            0 => c > 0 && cells[c - 1].width == 2,
            _ => true,
        };
        if !whole {
            blank_keeping_style(&mut cells[c]);
        }
    }
}
