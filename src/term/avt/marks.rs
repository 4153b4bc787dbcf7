//! Combining marks (zero-width characters): kept beside avt's cells, as a real terminal puts
//! them on the previous character, and moved, taken or dropped with their cells by prints,
//! insertions, deletions, erases and line feeds.

use super::*;

impl AvtEngine {
    /// Puts a zero-width character on the cell before the cursor.
    pub(super) fn attach_mark(&mut self, ch: char) {
        let cursor = self.terminal.cursor();
        if cursor.col == 0 || cursor.row >= self.size.rows as usize {
            return;
        }
        let row = cursor.row;
        let mut col = cursor.col.min(self.size.cols as usize) - 1;
        let Some(line) = self.terminal.view().nth(row) else {
            return;
        };
        let cells = line.cells();
        if col > 0 && cells.get(col).is_some_and(|c| c.width() == 0) {
            col -= 1;
        }
        let Some(base) = cells.get(col).map(|c| c.char()) else {
            return;
        };
        let entry = self
            .marks
            .entry((row as u16, col as u16))
            .or_insert((base, String::new()));
        if entry.0 != base {
            *entry = (base, String::new());
        }
        if entry.1.len() < 64 {
            entry.1.push(ch);
        }
    }

    /// Drops the combining marks of the cells that printing `ch` with the cursor at `before`
    /// overwrote: a new character starts a new cell, marks and all, as in xterm (without
    /// this, printing the same base character again, as a redraw does, kept the old marks).
    pub(super) fn unmark_printed(&mut self, before: avt::terminal::Cursor, ch: char) {
        let cols = usize::from(self.size.cols);
        let width = if ch.width() == Some(2) { 2 } else { 1 };
        let (row, col) = if before.col + width <= cols {
            (before.row, before.col)
        } else if self.modes.modes.autowrap {
            // It wrapped onto the start of the next line (or of the line scrolled in).
            (self.terminal.cursor().row, 0)
        } else {
            // avt prints over the end of the line.
            (before.row, cols.saturating_sub(width))
        };
        for c in col..col + width {
            self.marks.remove(&(row as u16, c as u16));
        }
    }

    /// Moves the combining marks with their cells, or drops them with their cells, as ICH,
    /// DCH, ECH, EL or ED `f` (about to run) does to the cells, as avt reads them (tmux, like
    /// xterm, moves and erases a cell's marks with it; avt knows none of them).
    pub(super) fn edit_marks(&mut self, f: &Function) {
        use avt::parser::{EdScope, ElScope};
        let cols = usize::from(self.size.cols);
        let cursor = self.terminal.cursor();
        let (row, col) = (cursor.row, cursor.col);
        let count = |n: u16, at: usize| usize::from(n.max(1)).min(cols - at);
        match *f {
            Function::Ich(n) => {
                let at = col.min(cols - 1);
                self.shift_marks(row, at, count(n, at) as isize);
            }
            Function::Dch(n) => {
                let at = col.min(cols - 1);
                let n = count(n, at);
                self.unmark(row, at..at + n);
                self.shift_marks(row, at + n, -(n as isize));
            }
            Function::Ech(n) if col < cols => self.unmark(row, col..col + count(n, col)),
            Function::El(ElScope::ToRight) => self.unmark(row, col..cols),
            Function::El(ElScope::ToLeft) => self.unmark(row, 0..(col + 1).min(cols)),
            Function::El(ElScope::All) => self.unmark(row, 0..cols),
            Function::Ed(EdScope::All) => self.marks.clear(),
            Function::Ed(EdScope::Below) => {
                self.marks.retain(|&(r, c), _| {
                    let (r, c) = (usize::from(r), usize::from(c));
                    r < row || (r == row && c < col)
                });
            }
            Function::Ed(EdScope::Above) => {
                self.marks.retain(|&(r, c), _| {
                    let (r, c) = (usize::from(r), usize::from(c));
                    r > row || (r == row && c > col)
                });
            }
            _ => {}
        }
    }

    /// Drops the marks of the cells `cols` of `row`.
    pub(super) fn unmark(&mut self, row: usize, cols: std::ops::Range<usize>) {
        self.marks
            .retain(|&(r, c), _| usize::from(r) != row || !cols.contains(&usize::from(c)));
    }

    /// Moves the marks of `row` from column `from` on by `by` columns (those pushed off the
    /// line go).
    pub(super) fn shift_marks(&mut self, row: usize, from: usize, by: isize) {
        let cols = isize::try_from(self.size.cols).unwrap_or(isize::MAX);
        self.marks = self
            .marks
            .drain()
            .filter_map(|((r, c), mark)| {
                if usize::from(r) != row || usize::from(c) < from {
                    return Some(((r, c), mark));
                }
                let c = c as isize + by;
                (0..cols).contains(&c).then_some(((r, c as u16), mark))
            })
            .collect();
    }

    /// Keeps marks on their rows when a line feed on the last row scrolls the screen.
    pub(super) fn line_feed_marks(&mut self) {
        let cursor = self.terminal.cursor();
        if cursor.row + 1 < self.size.rows as usize {
            return;
        }
        if !self.full_region() {
            self.marks.clear();
            return;
        }
        self.marks = self
            .marks
            .drain()
            .filter(|((row, _), _)| *row > 0)
            .map(|((row, col), v)| ((row - 1, col), v))
            .collect();
    }
}
