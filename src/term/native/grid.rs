//! The native engine's grid: 16-byte cells with their style in place, rows that know whether
//! they wrapped, and the row edits (print, erase, insert, delete, reflow) every operation of
//! the engine is made of.
//!
//! The edits keep a wide character whole: a cell of width 2 is always followed by its tail
//! (width 0), and an edit that cuts one in half blanks the other half, as avt, xterm and tmux
//! do.

use crate::term::{Attrs, Color, ShellMarkKind, MAX_ROW_MARKS};

/// Bits of [`Pen::flags`].
pub(super) mod flag {
    pub(in crate::term::native) const BOLD: u16 = 1;
    pub(in crate::term::native) const DIM: u16 = 1 << 1;
    pub(in crate::term::native) const ITALIC: u16 = 1 << 2;
    pub(in crate::term::native) const UNDERLINE: u16 = 1 << 3;
    pub(in crate::term::native) const STRIKE: u16 = 1 << 4;
    pub(in crate::term::native) const INVERSE: u16 = 1 << 5;
    pub(in crate::term::native) const BLINK: u16 = 1 << 6;
    pub(in crate::term::native) const HIDDEN: u16 = 1 << 7;
    /// Protected from selective erase (DECSCA 1).
    pub(in crate::term::native) const PROTECTED: u16 = 1 << 8;
}

/// Colours and attributes: what SGR (and DECSCA) set, and what each cell keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub(super) struct Pen {
    pub(super) fg: Color,
    pub(super) bg: Color,
    pub(super) flags: u16,
}

impl Pen {
    /// The pen erased and inserted cells take: only the background (BCE, as in xterm and tmux).
    #[inline]
    pub(super) fn erase(self) -> Pen {
        Pen {
            fg: Color::Default,
            bg: self.bg,
            flags: 0,
        }
    }

    pub(super) fn attrs(self) -> Attrs {
        let f = |b: u16| self.flags & b != 0;
        Attrs {
            bold: f(flag::BOLD),
            dim: f(flag::DIM),
            italic: f(flag::ITALIC),
            underline: f(flag::UNDERLINE),
            strikethrough: f(flag::STRIKE),
            inverse: f(flag::INVERSE),
            blink: f(flag::BLINK),
            hidden: f(flag::HIDDEN),
        }
    }
}

/// The first value of [`GridCell::ch`] that is not a character but the number of an entry in
/// the engine's table of combining marks ([`super::Marks`]): a cell with marks keeps them there.
pub(super) const MARKED: u32 = 0x11_0000;

/// One cell: a character (or a marked character's number, from [`MARKED`]), its width, its
/// pen and its hyperlink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct GridCell {
    pub(super) ch: u32,
    pub(super) pen: Pen,
    pub(super) link: u16,
    pub(super) width: u8,
}

impl GridCell {
    /// A blank cell with `pen`.
    #[inline]
    pub(super) const fn blank(pen: Pen) -> GridCell {
        GridCell {
            ch: ' ' as u32,
            pen,
            link: 0,
            width: 1,
        }
    }

    /// A blank cell with the default pen (what reflow trims from the end of a line).
    #[inline]
    pub(super) fn is_default(&self) -> bool {
        self.ch == ' ' as u32 && self.width == 1 && self.link == 0 && self.pen == Pen::default()
    }
}

/// One row of cells, whether the text on it continues on the next row (it wrapped), and the
/// shell's marks on it (OSC 133: they belong to the row, so they scroll and go with it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Row {
    pub(super) cells: Vec<GridCell>,
    pub(super) wrapped: bool,
    /// In the order the shell sent them, at most [`MAX_ROW_MARKS`] (no memory while none).
    pub(super) marks: Vec<RowMark>,
}

/// A shell's mark on a row: its column, kind and (`D`) exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RowMark {
    pub(super) col: u16,
    pub(super) kind: ShellMarkKind,
    pub(super) status: Option<i32>,
}

impl Row {
    /// A row of no cells (a placeholder while a row is out of the screen for an edit).
    pub(super) const EMPTY: Row = Row {
        cells: Vec::new(),
        wrapped: false,
        marks: Vec::new(),
    };

    pub(super) fn blank(cols: usize, pen: Pen) -> Row {
        Row {
            cells: vec![GridCell::blank(pen); cols],
            wrapped: false,
            marks: Vec::new(),
        }
    }

    /// A mark goes with its erased cell (a prompt redrawn from its start: its A again). Out of
    /// the line of erases: few rows have marks.
    #[cold]
    #[inline(never)]
    fn erase_marks(&mut self, start: usize, end: usize) {
        self.marks
            .retain(|m| !(start..end).contains(&usize::from(m.col)));
    }

    /// Puts a mark on the row; past [`MAX_ROW_MARKS`], the oldest goes.
    pub(super) fn mark(&mut self, mark: RowMark) {
        if self.marks.len() >= MAX_ROW_MARKS {
            self.marks.remove(0);
        }
        self.marks.push(mark);
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.cells.len()
    }

    #[inline]
    fn set(&mut self, col: usize, ch: u32, width: u8, pen: Pen, link: u16) {
        self.cells[col] = GridCell {
            ch,
            pen,
            link,
            width,
        };
    }

    /// A blank that an edit leaves in the other half of a wide character: the pen's colours
    /// and attributes, but not its concealment or protection (as avt's own cells have them).
    #[inline]
    pub(super) fn space(&mut self, col: usize, width: u8, pen: Pen) {
        let pen = Pen {
            flags: pen.flags & !(flag::HIDDEN | flag::PROTECTED),
            ..pen
        };
        self.set(col, ' ' as u32, width, pen, 0);
    }

    /// Blanks the cells of `range` with `pen`, and the other half of a wide character the
    /// range cuts.
    #[inline]
    pub(super) fn clear(&mut self, start: usize, end: usize, pen: Pen) {
        if start >= self.len() || start >= end {
            return;
        }
        if self.cells[start].width == 0 && start > 0 {
            self.space(start - 1, 1, pen);
        }
        self.cells[start..end].fill(GridCell::blank(pen));
        if !self.marks.is_empty() {
            self.erase_marks(start, end);
        }
        if let Some(next) = self.cells.get_mut(end) {
            if next.width == 0 {
                *next = GridCell::blank(pen);
            }
        }
    }

    /// Prints `ch` of `width` (1 or 2) at `col`; returns the columns it took, 0 when a wide
    /// character does not fit before the end of the row (the cell is left as it is).
    #[inline]
    pub(super) fn print(&mut self, col: usize, ch: u32, width: u8, pen: Pen, link: u16) -> usize {
        let here = self.cells[col].width;
        if here == 1 && width == 1 {
            self.set(col, ch, 1, pen, link);
            return 1;
        }
        let right = self.len() - 1 - col;
        match (here, width) {
            (1, 1) => unreachable!(),
            (1, _) => {
                if right == 0 {
                    return 0; // (the cell stays, as in xterm)
                }
                self.set(col, ch, 2, pen, link);
                if right >= 2 && self.cells[col + 1].width == 2 {
                    self.space(col + 2, 1, pen);
                }
                self.set(col + 1, ' ' as u32, 0, pen, link);
            }
            (2, 1) => {
                self.set(col, ch, 1, pen, link);
                self.space(col + 1, 1, pen);
            }
            (2, _) => {
                self.set(col, ch, 2, pen, link);
                self.set(col + 1, ' ' as u32, 0, pen, link);
            }
            (_, 1) => {
                // On the tail of a wide character: its head goes.
                self.space(col - 1, 1, pen);
                self.set(col, ch, 1, pen, link);
            }
            (_, _) => {
                if right == 0 {
                    return 0;
                }
                // (On the second half of a wide character with a column to spare, it fits, as
                // in xterm: `a本`, then 日 on the third of four columns, is `a 日`.)
                self.space(col - 1, 1, pen);
                self.set(col, ch, 2, pen, link);
                if right >= 2 && self.cells[col + 1].width == 2 {
                    self.space(col + 2, 1, pen);
                }
                self.set(col + 1, ' ' as u32, 0, pen, link);
            }
        }
        usize::from(width)
    }

    /// Moves the cells from `col` `n` to the right (those pushed past the end go), blanking
    /// the halves of wide characters this cuts with `pen`. The cells opened stay as they were
    /// (the caller writes them).
    pub(super) fn shift_right(&mut self, col: usize, n: usize, pen: Pen) {
        let col = col.min(self.len() - 1);
        if self.cells[col].width == 0 {
            self.space(col, 1, pen);
            self.space(col - 1, 1, pen);
        }
        let n = n.min(self.len() - col);
        self.cells[col..].rotate_right(n);
        // (A wide character pushed half past the end: its first half is the last cell.)
        let last = self.len() - 1;
        if self.cells[last].width == 2 {
            self.space(last, 1, pen);
        }
        if self.cells[col].width == 0 {
            self.space(col, 1, pen);
        }
    }

    /// Deletes `n` cells at `col` (the rest moves left; blanks with `pen` come in at the end).
    pub(super) fn delete(&mut self, col: usize, n: usize, pen: Pen) {
        if self.cells[col].width == 0 {
            self.space(col - 1, 1, pen);
        }
        self.cells[col..].rotate_left(n);
        if self.cells[col].width == 0 {
            self.space(col, 1, pen);
        }
        let fill = self.len() - n;
        self.cells[fill..].fill(GridCell::blank(pen));
        self.wrapped = false;
    }

    /// Blank default cells at the end.
    fn trailers(&self) -> usize {
        self.cells
            .iter()
            .rev()
            .take_while(|c| c.is_default())
            .count()
    }

    fn trim(&mut self) {
        let keep = self.len() - self.trailers();
        self.cells.truncate(keep);
    }

    fn expand(&mut self, len: usize) {
        self.cells.resize(len, GridCell::blank(Pen::default()));
    }

    /// Cuts this row to `len` cells; returns what is cut off (the start of the next row), if
    /// anything but blanks.
    fn contract(&mut self, mut len: usize) -> Option<Row> {
        if !self.wrapped {
            let trimmed = self.len() - self.trailers();
            self.cells.truncate(len.max(trimmed));
        }
        if self.len() <= len {
            return None;
        }
        let split_wide = self.cells[len].width == 0;
        if split_wide {
            len -= 1;
        }
        let mut rest = Row {
            cells: self.cells.split_off(len),
            wrapped: self.wrapped,
            marks: Vec::new(),
        };
        // The marks past the cut go with the text there (those on trimmed blanks, kept on
        // this row's last cell, when nothing but blanks is cut).
        let cut = len as u16;
        let mut kept = Vec::new();
        for m in std::mem::take(&mut self.marks) {
            if m.col >= cut {
                rest.marks.push(RowMark {
                    col: m.col - cut,
                    ..m
                });
            } else {
                kept.push(m);
            }
        }
        self.marks = kept;
        if split_wide {
            let pen = self.cells[len - 1].pen;
            self.cells.push(GridCell::blank(pen));
        }
        if !self.wrapped {
            rest.trim();
        }
        if rest.cells.is_empty() {
            let last = cut.saturating_sub(1);
            self.marks
                .extend(rest.marks.iter().map(|m| RowMark { col: last, ..*m }));
            None
        } else {
            self.wrapped = true;
            Some(rest)
        }
    }

    /// Appends the start of `next` (the row after this one) up to `len` cells, when this row
    /// wrapped into it. Returns whether this row is complete, and what is left of `next`.
    fn join(&mut self, mut next: Row, len: usize) -> (bool, Option<Row>) {
        let mut needed = len - self.len();
        if needed == 0 {
            return (true, Some(next));
        }
        if !self.wrapped {
            self.expand(len);
            return (true, Some(next));
        }
        if !next.wrapped {
            next.trim();
        }
        if needed < next.len() {
            if next.cells[needed].width == 0 {
                needed -= 1;
                let pen = self.cells[self.len() - 1].pen;
                self.cells.push(GridCell::blank(pen));
            }
            let at = self.len() as u16;
            self.cells.extend_from_slice(&next.cells[..needed]);
            next.cells.drain(..needed);
            let n = needed as u16;
            for m in std::mem::take(&mut next.marks) {
                if m.col < n {
                    self.marks.push(RowMark {
                        col: at + m.col,
                        ..m
                    });
                } else {
                    next.marks.push(RowMark {
                        col: m.col - n,
                        ..m
                    });
                }
            }
            return (true, Some(next));
        }
        let at = self.len() as u16;
        self.cells.extend_from_slice(&next.cells);
        self.marks.extend(next.marks.iter().map(|m| RowMark {
            col: at + m.col,
            ..*m
        }));
        if next.wrapped {
            (false, None)
        } else {
            self.wrapped = false;
            if self.len() < len {
                self.expand(len);
            }
            (true, None)
        }
    }
}

/// Rewraps `rows` to `cols` columns: a row that wrapped takes the start of the next, a row cut
/// shorter gives its end to a new row after it (as avt and tmux reflow; xterm does not).
pub(super) fn reflow(rows: impl IntoIterator<Item = Row>, cols: usize) -> Vec<Row> {
    let mut out = Vec::new();
    let mut iter = rows.into_iter();
    let mut rest: Option<Row> = None;
    while let Some(mut row) = rest.take().or_else(|| iter.next()) {
        match row.len().cmp(&cols) {
            std::cmp::Ordering::Greater => {
                rest = row.contract(cols);
                out.push(row);
            }
            std::cmp::Ordering::Equal => out.push(row),
            std::cmp::Ordering::Less => match iter.next() {
                Some(next) => match row.join(next, cols) {
                    (true, left) => {
                        rest = left;
                        out.push(row);
                    }
                    (false, _) => rest = Some(row),
                },
                None => {
                    row.expand(cols);
                    row.wrapped = false;
                    out.push(row);
                }
            },
        }
    }
    out
}

/// Tab stops: every 8 columns at first (the first column too, as in xterm, where it only
/// shows in DECTABSR), then as HTS and TBC set and clear them; and whether the stops past the
/// last column are still every 8 (xterm reports the first of them; TBC 3 clears them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Tabs(Vec<usize>, bool);

impl Tabs {
    pub(super) fn new(cols: usize) -> Tabs {
        Tabs((0..cols).step_by(8).collect(), true)
    }

    /// The stops DECTABSR reports on a screen of `cols` columns.
    pub(super) fn stops(&self, cols: usize) -> Vec<usize> {
        let mut stops = self.0.clone();
        if self.1 && cols % 8 == 0 {
            stops.push(cols);
        }
        stops
    }

    pub(super) fn set(&mut self, col: usize) {
        if let Err(i) = self.0.binary_search(&col) {
            self.0.insert(i, col);
        }
    }

    pub(super) fn unset(&mut self, col: usize) {
        if let Ok(i) = self.0.binary_search(&col) {
            self.0.remove(i);
        }
    }

    pub(super) fn clear(&mut self) {
        self.0.clear();
        self.1 = false;
    }

    /// The screen grew from `from` to `to` columns: stops every 8 in the new part.
    pub(super) fn expand(&mut self, from: usize, to: usize) {
        let start = from + 8 - from % 8;
        self.0.extend((start..to).step_by(8));
    }

    /// The screen shrank to `cols` columns.
    pub(super) fn contract(&mut self, cols: usize) {
        let keep = self.0.partition_point(|&t| t < cols);
        self.0.truncate(keep);
    }

    /// The `n`th stop after `col`.
    pub(super) fn after(&self, col: usize, n: usize) -> Option<usize> {
        self.0.iter().skip_while(|&&t| t <= col).nth(n - 1).copied()
    }

    /// The `n`th stop before `col`.
    pub(super) fn before(&self, col: usize, n: usize) -> Option<usize> {
        self.0
            .iter()
            .rev()
            .skip_while(|&&t| t >= col)
            .nth(n - 1)
            .copied()
    }
}
