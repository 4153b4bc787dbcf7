//! tuicast's own terminal engine (`engine = "native"`): a parser and a grid written for what
//! replay needs, in one pass over the output.
//!
//! Every rule tuicast follows lives here, measured against real terminals by the conformance
//! corpus (`tests/conformance/`, `docs/conformance.md`). Where avt 0.17 (`engine = "avt"`,
//! [`AvtEngine`](crate::term::AvtEngine), what asciinema's player shows) differs, this engine
//! does as xterm and tmux do (the avt layer that did so around avt until issue 45 held the
//! same rules):
//! - combining marks join the character before them (avt gives each a cell); a character
//!   printed over that cell starts it anew; edits move or take them with their cells;
//! - the window title and icon name (OSC 0, 1, 2), bells, OSC 52 clipboard writes, OSC 8
//!   hyperlinks on their cells, the cursor shape (DECSCUSR), the terminal modes (mouse,
//!   bracketed paste, focus, keypad, kitty keyboard flags, modifyOtherKeys), the sequences
//!   nothing understood: none of which avt keeps;
//! - character sets: G0–G3 with national replacement sets, SI/SO, LS2/LS3, single shifts,
//!   and DEC graphics as xterm draws them (avt knows only ASCII and DEC graphics in G0 and G1);
//! - DECCOLM ignored by default, as xterm and xterm.js do, or as a VT100 with the option;
//! - erasing with a background colour (BCE): erased and inserted cells take only the pen's
//!   background (avt gives them the whole pen); DEL draws nothing (avt prints it);
//! - colon forms of underline, bold with faint, concealed text (SGR 8), selective erase
//!   (DECSCA, DECSED, DECSEL), the column scrolls SL and SR;
//! - REP repeats only the character just printed (avt repeats the cell before the cursor);
//! - a tab at the pending wrap keeps it; auto-wrap is not restored with the cursor, and
//!   DECSTR turns it on; the scroll region goes on every resize (avt keeps it when only the
//!   width changes);
//! - VT52 mode and the VT420 rectangular operations, which avt lacks.
//!
//! Its files:
//! - `mod.rs`: the engine's state, the [`Engine`] trait (feeding, resizing, reading the
//!   screen), and the operations on the cursor, the screens and the scrollback.
//! - `grid.rs`: cells (16 bytes: a character, its pen, its hyperlink and width), rows, the
//!   row edits, reflow and tab stops.
//! - `parse.rs`: the byte parser (the states of avt's parser, so sequence boundaries are the
//!   same) and what each control, escape and control sequence does.
//! - `rect.rs`: the VT420 rectangular operations.
//! - `report.rs`: what the engine tells a program that asks (the recorder's answers, xterm's
//!   way): the cursor, its modes, DECCIR, DECTABSR, DECRQCRA's checksum.
//!
//! Why it exists: replay speed (issue 24 point 3, `docs/performance.md`). avt prints one
//! character per call through its parser and takes SGR as an owned `Vec`; the fixes tuicast
//! had around it restored state before and after avt's calls. Here a run of text is one loop over
//! the row, SGR is applied in place, and lines scrolled off the top reuse their memory.

mod grid;
mod parse;
mod rect;
mod report;
#[cfg(test)]
mod tests;

use std::cell::RefCell;
use std::collections::VecDeque;

use unicode_width::UnicodeWidthChar;

use super::charsets::Charsets;
use super::state::{push_clipboard, screen_links, ClipboardWrite, LinkTable, OscEffect};
use super::work::rep_count;
use super::work::{Work, REP};
use super::{
    safe_char, Cell, CellText, Cursor, CursorShape, Engine, EngineOptions, Keyboard, Modes, Screen,
    Scrollback, ShellMark, ShellMarkKind, Size, TermState, Unsupported, KNOWN_DEC_MODES,
    MAX_SCROLLBACK,
};
use grid::{flag, reflow, GridCell, Pen, Row, RowMark, Tabs, MARKED};
use parse::Parser;

/// Rows scrolled off the whole screen (line feeds at the bottom) between two takes from
/// the work budget: `NativeEngine::scroll_up` counts them, which costs less than a take each.
const SCROLL_BATCH: u64 = 64;

/// Most cells the scrollback holds.
const SCROLLBACK_CELLS: usize = super::state::SCROLLBACK_CELLS;

/// Most bytes of combining marks one cell keeps.
const MARKS_MAX: usize = 64;

/// What DECSC saves, per screen (as avt keeps one for each).
#[derive(Debug, Clone, Copy, Default)]
struct Saved {
    col: usize,
    row: usize,
    pen: Pen,
    origin: bool,
}

/// Entries of the marks table made before the first collection of the unused ones.
const MARKS_COLLECT: usize = 1 << 16;

/// The combining marks of marked cells: a cell whose `ch` is `MARKED + i` shows entry `i`.
/// Entries no cell uses any more (the cell was overwritten or dropped) are collected when
/// `limit` entries are made.
#[derive(Debug)]
struct Marks {
    entries: Vec<(char, String)>,
    limit: usize,
}

impl Default for Marks {
    fn default() -> Self {
        Marks {
            entries: Vec::new(),
            limit: MARKS_COLLECT,
        }
    }
}

/// What VT52 mode puts aside, as xterm does: it starts with fresh character sets, no
/// auto-wrap, origin, insert or new-line mode, and the default pen; `ESC <` restores these.
#[derive(Debug, Clone, Copy)]
struct Vt52Saved {
    charsets: Charsets,
    autowrap: bool,
    origin: bool,
    insert: bool,
    newline: bool,
    pen: Pen,
}

impl Vt52Saved {
    /// DECANM reset: what `engine` has that VT52 mode puts aside, taken from it.
    fn take(engine: &mut NativeEngine) -> Vt52Saved {
        use std::mem::{replace, take};
        Vt52Saved {
            charsets: take(&mut engine.charsets),
            autowrap: replace(&mut engine.modes.autowrap, false),
            origin: replace(&mut engine.modes.origin, false),
            insert: replace(&mut engine.insert, false),
            newline: replace(&mut engine.newline, false),
            pen: take(&mut engine.pen),
        }
    }

    /// `ESC <`: all of it back.
    fn restore(self, engine: &mut NativeEngine) {
        engine.charsets = self.charsets;
        (engine.modes.autowrap, engine.modes.origin) = (self.autowrap, self.origin);
        (engine.insert, engine.newline, engine.pen) = (self.insert, self.newline, self.pen);
    }
}

/// tuicast's own engine: see the module docs.
pub struct NativeEngine {
    size: Size,
    /// The screen in use, `size.rows` rows of `size.cols` cells.
    rows: VecDeque<Row>,
    /// The other screen: the main one while the alternate one is in use (it keeps its size
    /// until it is used again, as in avt), else the alternate one.
    other: VecDeque<Row>,
    alternate: bool,
    /// The cursor; `col == size.cols` is the pending wrap.
    row: usize,
    col: usize,
    visible: bool,
    shape: CursorShape,
    pen: Pen,
    link: u16,
    charsets: Charsets,
    saved_charsets: Charsets,
    /// VT52 mode (DECANM reset, `CSI ? 2 l`), and what it put aside for `ESC <` to bring back.
    vt52: Option<Vt52Saved>,
    /// DECSACE 2: DECCARA and DECRARA change the rectangle, not the stream of cells.
    rect_exact: bool,
    saved: Saved,
    other_saved: Saved,
    /// The scroll region, inclusive.
    top: usize,
    bottom: usize,
    tabs: Tabs,
    modes: Modes,
    /// The kitty keyboard flag stacks and modifyOtherKeys (read into `modes` when asked).
    keyboard: Keyboard,
    insert: bool,
    newline: bool,
    /// XTSAVE's saved modes, by [`super::modes::KNOWN_DEC_MODES`].
    xtsaved: [Option<bool>; KNOWN_DEC_MODES.len()],
    deccolm: bool,
    title: Option<String>,
    icon: Option<String>,
    bells: u32,
    /// Whether a shell's `C` mark (a command's output) came with no `D` (its end) after it
    /// yet, and how many `D` marks closed one since the start.
    command_running: bool,
    commands_ended: u32,
    clipboard: Vec<ClipboardWrite>,
    links: LinkTable,
    marks: Marks,
    scrollback: VecDeque<Row>,
    scrollback_limit: usize,
    scrollback_text: RefCell<Option<Scrollback>>,
    unsupported: Unsupported,
    /// What REP repeats: the character just printed, as the program sent it.
    last: Option<char>,
    /// The work the output asked for, against its budget (`term::work`): REP's prints and
    /// every operation whose cost grows with the screen.
    work: Work,
    /// Rows scrolled off the whole screen not yet taken from `work` (at most
    /// [`SCROLL_BATCH`] go uncounted).
    scrolls: u64,
    parser: Parser,
    /// A blank row of the screen's width and the pen it was made with ([`Self::fill_blank`]).
    blank: (Vec<GridCell>, Pen),
}

impl std::fmt::Debug for NativeEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeEngine")
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl super::sealed::Sealed for NativeEngine {}

impl NativeEngine {
    /// A blank terminal of `size` with the default options, keeping the last
    /// [`MAX_SCROLLBACK`] lines scrolled off its main screen.
    pub fn new(size: Size) -> Self {
        Self::with_options_and_scrollback(size, EngineOptions::default(), MAX_SCROLLBACK)
    }

    /// A blank terminal of `size` with these options, keeping the last `lines` lines scrolled
    /// off its main screen (at most [`MAX_SCROLLBACK`]; 0 keeps none).
    pub fn with_options_and_scrollback(size: Size, options: EngineOptions, lines: usize) -> Self {
        let size = size.at_least_min();
        let (cols, rows) = (usize::from(size.cols), usize::from(size.rows));
        NativeEngine {
            size,
            rows: blank_rows(cols, rows, Pen::default()),
            other: blank_rows(cols, rows, Pen::default()),
            alternate: false,
            row: 0,
            col: 0,
            visible: true,
            shape: CursorShape::default(),
            pen: Pen::default(),
            link: 0,
            charsets: Charsets::default(),
            saved_charsets: Charsets::default(),
            vt52: None,
            rect_exact: false,
            saved: Saved::default(),
            other_saved: Saved::default(),
            top: 0,
            bottom: rows - 1,
            tabs: Tabs::new(cols),
            modes: Modes::default(),
            keyboard: Keyboard::default(),
            insert: false,
            newline: false,
            xtsaved: [None; KNOWN_DEC_MODES.len()],
            deccolm: options.deccolm,
            title: None,
            icon: None,
            bells: 0,
            command_running: false,
            commands_ended: 0,
            clipboard: Vec::new(),
            links: LinkTable::default(),
            marks: Marks::default(),
            scrollback: VecDeque::new(),
            scrollback_limit: lines.min(MAX_SCROLLBACK),
            scrollback_text: RefCell::new(None),
            unsupported: Unsupported::default(),
            last: None,
            work: Work::default(),
            scrolls: 0,
            parser: Parser::default(),
            blank: (Vec::new(), Pen::default()),
        }
    }

    /// The terminal modes the program set.
    pub fn modes(&self) -> Modes {
        self.keyboard.modes(self.modes, self.alternate)
    }

    /// The answer to DECRQSS (`DCS $ q Pt ST`) for the setting `pt` as xterm gives it,
    /// without its framing: `0;1;91m` for SGR (`m`; bold red is reported bright, as xterm shows it), `2;20r` for the scroll region
    /// (DECSTBM, `r`, counted from 1), `5 q` for the cursor shape (DECSCUSR, ` q`; a steady
    /// block, 2, when no program chose one), `1"q` for protection (DECSCA, `"q`), the
    /// columns (DECSCPP, `$|`), the rows (DECSNLS, `*|`; DECSLPP, `t`) and the left and right
    /// margins (DECSLRM, `s`: the whole width). `None` for other settings.
    pub fn setting_report(&self, pt: &str) -> Option<String> {
        match pt {
            "\"q" => Some(format!("{}\"q", u8::from(self.protected_pen()))),
            "$|" => Some(format!("{}$|", self.cols())),
            "*|" => Some(format!("{}*|", self.nrows())),
            "t" => Some(format!("{}t", self.nrows())),
            // The left and right margins (DECSLRM): the engine has none, so the whole width.
            "s" => Some(format!("1;{}s", self.cols())),
            "m" => {
                let p = self.pen;
                Some(format!("{}m", super::sgr_report(p.attrs(), p.fg, p.bg)))
            }
            "r" => Some(format!("{};{}r", self.top + 1, self.bottom + 1)),
            " q" => Some(format!("{} q", super::decscusr(self.shape))),
            _ => None,
        }
    }

    /// The units of work of `rows` rows blanked or copied by block copies (`term::work`): a
    /// sixteenth of their cells and one more each.
    #[inline]
    fn row_units(&self, rows: usize) -> u64 {
        (rows * (self.cols() / 16 + 1)) as u64
    }

    /// The units of work done so far against the work budget (`WORK_BASE`, `WORK_PER_BYTE`):
    /// what the fuzz target `engine_work` holds per byte.
    pub fn work_done(&self) -> u64 {
        self.work.done()
    }

    #[inline]
    fn cols(&self) -> usize {
        usize::from(self.size.cols)
    }

    #[inline]
    fn nrows(&self) -> usize {
        usize::from(self.size.rows)
    }

    // --- printing -----------------------------------------------------------------------

    /// Prints `ch` as the program sent it: through the character sets, onto the previous
    /// cell when it is a combining mark.
    fn print(&mut self, raw: char) {
        let ch = if self.charsets.is_plain() {
            raw
        } else {
            self.charsets.translate(raw)
        };
        let width = ch.width();
        if ch >= '\u{300}' && width == Some(0) {
            // (REP still repeats the character before the mark, as in xterm.)
            return self.attach_mark(ch);
        }
        self.last = Some(raw);
        self.put(ch as u32, if width == Some(2) { 2 } else { 1 });
    }

    /// Prints a character of `width` whose character set is dealt with.
    fn put(&mut self, ch: u32, width: u8) {
        let cols = self.cols();
        let (pen, link) = (self.pen, self.link);
        let mut n = 0;
        if self.col < cols {
            let (row, col) = (self.row, self.col);
            if self.insert && col + usize::from(width) <= cols {
                // (As many cells as the character takes, as in xterm; nothing for one that
                // does not fit and wraps.)
                self.insert_room(row, col, width);
            }
            n = self.rows[row].print(col, ch, width, pen, link);
        }
        if n > 0 {
            self.col += n;
            if self.col == cols && !self.modes.autowrap {
                self.col = cols - 1;
            }
        } else if self.modes.autowrap {
            if self.row == self.bottom {
                if self.col < cols
                    && self.top == self.bottom
                    && self.rows[self.row].cells[cols - 1].width == 1
                {
                    // (A wide character that did not fit leaves the last cell as it was, but
                    // on a row that scrolls out of a one-row region, where the avt layer
                    // cannot put it back: there it is blanked, as avt does.)
                    self.rows[self.row].space(cols - 1, 1, pen);
                }
                self.rows[self.row].wrapped = true;
                self.scroll_up(self.top, self.bottom + 1, 1);
            } else if self.row < self.nrows() - 1 {
                self.rows[self.row].wrapped = true;
                self.row += 1;
                if self.insert {
                    // Insert mode moves the next row's cells too, as xterm does.
                    self.rows[self.row].shift_right(0, usize::from(width), pen);
                }
            }
            self.col = self.rows[self.row].print(0, ch, width, pen, link);
        } else {
            let row = self.row;
            if self.col < cols && self.rows[row].cells[cols - 1].width == 1 {
                // (What does not fit blanks the last cell first, as in avt.)
                self.rows[row].space(cols - 1, 1, pen);
            }
            let mut at = self.col - 1;
            // (Without auto-wrap a wide character that does not fit goes over the one before
            // the last column, whole: on the second half of a wide character, over that
            // character, as xterm shows it.)
            if width == 2 && at > 0 && self.rows[row].cells[at].width == 0 {
                at -= 1;
            }
            if self.rows[row].print(at, ch, width, pen, link) == 0 && at > 0 {
                self.rows[row].print(at - 1, ch, width, pen, link);
            }
            self.col = cols - 1;
        }
    }

    /// Insert mode: room for a character of `width` at `col` of `row`, the rest moving right
    /// (out of `put`'s way: it is rare).
    #[cold]
    fn insert_room(&mut self, row: usize, col: usize, width: u8) {
        let units = ((self.cols() - col) / 16 + 1) as u64;
        if self.work.take(units, "insert mode (IRM)") {
            self.rows[row].shift_right(col, usize::from(width), self.pen);
        }
    }

    /// Prints a run of printable ASCII (no character set in use): the common case.
    #[inline]
    fn print_ascii(&mut self, run: &[u8]) {
        let Some(&last) = run.last() else {
            return;
        };
        let cols = self.cols();
        let (pen, link) = (self.pen, self.link);
        let mut i = 0;
        loop {
            if !self.insert {
                let row = &mut self.rows[self.row];
                let col = self.col;
                // Cells of width 1 are overwritten in place; anything else takes the full
                // path. (One pass over the cells and the bytes together: no index to check.)
                let cells = row.cells.get_mut(col..cols).unwrap_or_default();
                let mut n = 0;
                for (cell, &b) in cells.iter_mut().zip(&run[i..]) {
                    if cell.width != 1 {
                        break;
                    }
                    *cell = GridCell {
                        ch: u32::from(b),
                        pen,
                        link,
                        width: 1,
                    };
                    n += 1;
                }
                i += n;
                let col = col + n;
                self.col = col;
                if col == cols && !self.modes.autowrap {
                    self.col = cols - 1;
                }
            }
            // The full path for one character (a wrap, a wide cell, insert mode), then the
            // quick one again on the row it leaves the cursor on.
            let Some(&b) = run.get(i) else {
                break;
            };
            self.put(u32::from(b), 1);
            i += 1;
        }
        self.last = Some(char::from(last));
    }

    /// REP: the character just printed again, `n` times (see the avt layer's `repeat`).
    fn repeat(&mut self, n: u16) {
        let Some(raw) = self.last else {
            return;
        };
        let ch = if self.charsets.is_plain() {
            raw
        } else {
            self.charsets.translate(raw)
        };
        let width = if ch.width() == Some(2) { 2 } else { 1 };
        let count = rep_count(n, self.size, usize::from(width));
        // Its prints, and the rows they may scroll (taken again as they scroll: a REP that
        // passes the budget is named as REP, not as a line feed it caused).
        let scrolls = count / self.cols() + 1;
        if !self.work.take(count as u64 + self.row_units(scrolls), REP) {
            return;
        }
        for _ in 0..count {
            self.put(ch as u32, width);
        }
    }

    /// Puts a combining mark on the character before the cursor.
    fn attach_mark(&mut self, mark: char) {
        if self.col == 0 {
            return;
        }
        let mut col = self.col.min(self.cols()) - 1;
        let cells = &self.rows[self.row].cells;
        if col > 0 && cells[col].width == 0 {
            col -= 1;
        }
        let cell = cells[col];
        if cell.ch >= MARKED {
            let entry = &mut self.marks.entries[(cell.ch - MARKED) as usize];
            if entry.1.len() + mark.len_utf8() <= MARKS_MAX {
                entry.1.push(mark);
            }
            return;
        }
        let Some(base) = char::from_u32(cell.ch) else {
            return;
        };
        if self.marks.entries.len() >= self.marks.limit {
            self.collect_marks();
            // (When most entries are still in use, collect again only once as many more are
            // made: each mark costs amortised constant work, whatever the screen holds.)
            self.marks.limit = (2 * self.marks.entries.len()).max(MARKS_COLLECT);
        }
        let id = MARKED + self.marks.entries.len() as u32;
        self.marks.entries.push((base, mark.to_string()));
        self.rows[self.row].cells[col].ch = id;
    }

    /// Drops the entries of the marks table no cell uses any more, renumbering the others.
    fn collect_marks(&mut self) {
        let mut used: Vec<u32> = Vec::new();
        let all = self
            .rows
            .iter_mut()
            .chain(self.other.iter_mut())
            .chain(self.scrollback.iter_mut());
        let mut cells: Vec<&mut GridCell> = all
            .flat_map(|r| r.cells.iter_mut())
            .filter(|c| c.ch >= MARKED)
            .collect();
        cells.sort_by_key(|c| c.ch);
        let mut entries = Vec::new();
        for c in cells {
            let old = c.ch;
            if used.last() != Some(&old) {
                used.push(old);
                entries.push(std::mem::take(
                    &mut self.marks.entries[(old - MARKED) as usize],
                ));
            }
            c.ch = MARKED + entries.len() as u32 - 1;
        }
        self.marks.entries = entries;
    }

    /// The character and the marks of a cell's `ch`.
    fn cell_text(&self, ch: u32) -> (char, &str) {
        if ch >= MARKED {
            let (base, marks) = &self.marks.entries[(ch - MARKED) as usize];
            (*base, marks)
        } else {
            (char::from_u32(ch).unwrap_or(' '), "")
        }
    }

    // --- cursor -------------------------------------------------------------------------

    fn move_to_col(&mut self, col: usize) {
        self.col = col.min(self.cols() - 1);
    }

    /// To row `row` of the screen, or of the scroll region in origin mode.
    fn move_to_row(&mut self, row: usize) {
        let (top, bottom) = if self.modes.origin {
            (self.top, self.bottom)
        } else {
            (0, self.nrows() - 1)
        };
        self.set_row(top.saturating_add(row).clamp(top, bottom));
    }

    fn set_row(&mut self, row: usize) {
        self.col = self.col.min(self.cols() - 1);
        self.row = row;
    }

    fn home(&mut self) {
        self.col = 0;
        self.set_row(if self.modes.origin { self.top } else { 0 });
    }

    fn rel_col(&mut self, by: isize) {
        let col = self.col as isize + by;
        self.col = col.clamp(0, self.cols() as isize - 1) as usize;
    }

    /// CUB: `n` columns back, counted from the last column at the pending wrap (as xterm
    /// counts; tmux counts from the column past it).
    fn back(&mut self, n: usize) {
        let extra = isize::from(self.col == self.cols());
        self.rel_col(-(n as isize) - extra);
    }

    fn up(&mut self, n: usize) {
        let floor = if self.row < self.top { 0 } else { self.top };
        self.set_row(self.row.saturating_sub(n).max(floor));
    }

    fn down(&mut self, n: usize) {
        let ceiling = if self.row > self.bottom {
            self.nrows() - 1
        } else {
            self.bottom
        };
        self.set_row(self.row.saturating_add(n).min(ceiling));
    }

    fn line_feed(&mut self) {
        if self.row == self.bottom {
            self.scroll_up(self.top, self.bottom + 1, 1);
        } else if self.row < self.nrows() - 1 {
            self.set_row(self.row + 1);
        }
    }

    fn reverse_index(&mut self) {
        if self.row == self.top {
            self.scroll_down(self.top, self.bottom + 1, 1);
        } else {
            self.up(1);
        }
    }

    fn save_cursor(&mut self) {
        self.saved = Saved {
            col: self.col.min(self.cols() - 1),
            row: self.row,
            pen: self.pen,
            origin: self.modes.origin,
        };
    }

    fn restore_cursor(&mut self) {
        let s = self.saved;
        // (Saved on a screen since made smaller: at most its last row and column, as avt
        // clamps it when it takes the new size.)
        // (The screen's own size: the main screen takes a size it missed after this.)
        let cols = self.rows.front().map_or(1, Row::len);
        let (col, row) = (s.col.min(cols - 1), s.row.min(self.rows.len() - 1));
        (self.col, self.row, self.pen, self.modes.origin) = (col, row, s.pen, s.origin);
    }

    /// DECSC, SCOSC and the modes 1048 and 1049: the cursor, and the character sets (as
    /// xterm's `CursorSave`; one slot for both screens, as in the avt layer).
    fn save_cursor_and_charsets(&mut self) {
        self.save_cursor();
        self.saved_charsets = self.charsets;
    }

    fn restore_cursor_and_charsets(&mut self) {
        self.restore_cursor();
        self.charsets = self.saved_charsets;
    }

    // --- scrolling ----------------------------------------------------------------------

    /// Scrolls rows `start..end` up by `n`: blank rows (with the erase pen) come in at the
    /// bottom. From the top of the screen, the rows that go are scrolled off into the
    /// scrollback (on the main screen), as in avt and xterm.
    fn scroll_up(&mut self, start: usize, end: usize, n: usize) {
        let n = n.min(end - start);
        let rows = self.nrows();
        let blank = self.pen.erase();
        if start == 0 && end == rows {
            // The whole screen (a line feed at the bottom, the hot path): counted, and taken
            // from the work budget every `SCROLL_BATCH` rows, which costs a line feed less.
            self.scrolls += n as u64;
            if self.scrolls >= SCROLL_BATCH && !self.take_scrolls() {
                return;
            }
            for _ in 0..n {
                let gone = self.rows.pop_front().expect("a row");
                let fresh = self.keep_scrolled(gone, blank);
                self.rows.push_back(fresh);
            }
            return;
        }
        // Blank rows, and the rows a region moves: rotated (one each), or inserted one by one
        // below a region at the top (an eighth each, for each row).
        let moved = if start == 0 {
            n * (end - start) / 8
        } else {
            end - start
        };
        if !self.work.take(
            self.row_units(n) + moved as u64,
            "a scroll (LF, IND, SU, DL)",
        ) {
            return;
        }
        if end < rows {
            self.rows[end - 1].wrapped = false;
        }
        if start == 0 {
            for _ in 0..n {
                let gone = self.rows.pop_front().expect("a row");
                let fresh = self.keep_scrolled(gone, blank);
                self.rows.insert(end - 1, fresh);
            }
        } else {
            self.rows[start - 1].wrapped = false;
            self.rows.make_contiguous()[start..end].rotate_left(n);
            for r in end - n..end {
                self.blank_row(r, blank);
            }
        }
    }

    /// Takes the rows scrolled off the whole screen since last time from the work budget;
    /// false when that passes it.
    #[cold]
    fn take_scrolls(&mut self) -> bool {
        let units = self.row_units(self.scrolls as usize);
        self.scrolls = 0;
        self.work.take_always(units, "a scroll (LF, IND, SU, DL)")
    }

    /// Scrolls rows `start..end` down by `n`: blank rows come in at the top.
    fn scroll_down(&mut self, start: usize, end: usize, n: usize) {
        let n = n.min(end - start);
        if !self.work.take(
            self.row_units(n) + (end - start) as u64,
            "a scroll (RI, SD, IL)",
        ) {
            return;
        }
        let blank = self.pen.erase();
        self.rows.make_contiguous()[start..end].rotate_right(n);
        for r in start..start + n {
            self.blank_row(r, blank);
        }
        if start > 0 {
            self.rows[start - 1].wrapped = false;
        }
        self.rows[end - 1].wrapped = false;
    }

    /// Takes a row scrolled off the top into the scrollback (the main screen's only);
    /// returns a blank row with `pen` for the screen, reusing the memory of a row that goes.
    // (Inlined into both loops of `scroll_up`, as it was into its one loop: a call per line
    // feed cost 0.7 % of a stream's instructions.)
    #[inline(always)]
    fn keep_scrolled(&mut self, gone: Row, pen: Pen) -> Row {
        let limit = self.scrollback_cap();
        let mut spare = if self.alternate || limit == 0 {
            gone
        } else {
            self.scrollback.push_back(gone);
            *self.scrollback_text.get_mut() = None;
            if self.scrollback.len() > limit {
                self.scrollback.pop_front().expect("a line")
            } else {
                Row::blank(self.cols(), pen)
            }
        };
        spare.cells.resize(self.cols(), GridCell::blank(pen));
        self.fill_blank(&mut spare, pen);
        spare
    }

    /// Makes row `r` blank with `pen`.
    #[inline]
    fn blank_row(&mut self, r: usize, pen: Pen) {
        let mut row = std::mem::replace(&mut self.rows[r], Row::EMPTY);
        self.fill_blank(&mut row, pen);
        self.rows[r] = row;
    }

    /// Makes `row` (of the screen's width) blank with `pen`: a copy of a blank row kept for
    /// the pen, which is faster than writing each cell (a line feed at the bottom does it).
    #[inline]
    fn fill_blank(&mut self, row: &mut Row, pen: Pen) {
        let cols = self.cols();
        if self.blank.1 != pen || self.blank.0.len() != cols {
            self.blank = (vec![GridCell::blank(pen); cols], pen);
        }
        row.cells.copy_from_slice(&self.blank.0);
        row.wrapped = false;
        row.marks.clear();
    }

    /// A blank screen of the terminal's size with the default pen, made of `rows` when they
    /// have that shape already (their memory reused: RIS and the alternate screen allocate
    /// nothing then), else new.
    fn reblank(&mut self, mut rows: VecDeque<Row>) -> VecDeque<Row> {
        let (cols, n) = (self.cols(), self.nrows());
        if rows.len() != n || rows.iter().any(|r| r.len() != cols) {
            return blank_rows(cols, n, Pen::default());
        }
        for row in &mut rows {
            self.fill_blank(row, Pen::default());
        }
        rows
    }

    fn scrollback_cap(&self) -> usize {
        self.scrollback_limit
            .min(SCROLLBACK_CELLS / self.cols().max(1))
    }

    fn trim_scrollback(&mut self) {
        let limit = self.scrollback_cap();
        while self.scrollback.len() > limit {
            self.scrollback.pop_front();
        }
    }

    // --- erasing ------------------------------------------------------------------------

    fn erase_in_line(&mut self, ps: u16) {
        if !self.work.take(self.row_units(1), "EL (CSI K)") {
            return;
        }
        let (cols, col, pen) = (self.cols(), self.col, self.pen.erase());
        let row = &mut self.rows[self.row];
        match ps {
            0 => {
                row.clear(col, cols, pen);
                row.wrapped = false;
            }
            1 => row.clear(0, (col + 1).min(cols), pen),
            2 => {
                row.clear(0, cols, pen);
                row.wrapped = false;
            }
            _ => {}
        }
    }

    fn erase_in_display(&mut self, ps: u16) {
        let (cols, col, pen) = (self.cols(), self.col, self.pen.erase());
        let (row, rows) = (self.row, self.nrows());
        let blanked = match ps {
            0 => rows - row,
            1 => row + 1,
            2 => rows,
            _ => 0,
        };
        if !self.work.take(self.row_units(blanked), "ED (CSI J)") {
            return;
        }
        match ps {
            0 => {
                let r = &mut self.rows[row];
                r.wrapped = false;
                r.clear(col, cols, pen);
                for r in row + 1..rows {
                    self.blank_row(r, pen);
                }
            }
            1 => {
                self.rows[row].clear(0, (col + 1).min(cols), pen);
                for r in 0..row {
                    self.blank_row(r, pen);
                }
            }
            2 => {
                for r in 0..rows {
                    self.blank_row(r, pen);
                }
            }
            3 => {
                self.scrollback.clear();
                *self.scrollback_text.get_mut() = None;
            }
            _ => {}
        }
    }

    /// ECH: `n` cells from the cursor.
    fn erase_chars(&mut self, row: usize, col: usize, n: usize) {
        let cols = self.cols();
        let n = n.min(cols.saturating_sub(col));
        if !self.work.take((n / 16 + 1) as u64, "ECH (CSI X)") {
            return;
        }
        let r = &mut self.rows[row];
        r.clear(col, col + n, self.pen.erase());
        if col + n == cols {
            r.wrapped = false;
        }
    }

    /// DECSED (`display`) or DECSEL: erases what DECSCA did not protect, as ED or EL would.
    fn selective_erase(&mut self, display: bool, ps: u16) {
        let (cols, rows, row, col) = (self.cols(), self.nrows(), self.row, self.col);
        let through = (col + 1).min(cols);
        let parts: Vec<(usize, usize, usize)> = match (display, ps) {
            (false, 0) => vec![(row, col, cols)],
            (false, 1) => vec![(row, 0, through)],
            (false, 2) => vec![(row, 0, cols)],
            (true, 0) => std::iter::once((row, col, cols))
                .chain((row + 1..rows).map(|r| (r, 0, cols)))
                .collect(),
            (true, 1) => (0..row)
                .map(|r| (r, 0, cols))
                .chain(std::iter::once((row, 0, through)))
                .collect(),
            (true, 2) => (0..rows).map(|r| (r, 0, cols)).collect(),
            (true, 3) => return self.erase_in_display(3),
            _ => return,
        };
        let cells: usize = parts.iter().map(|(_, from, to)| to - from).sum();
        if !self
            .work
            .take(cells as u64, "DECSED, DECSEL (CSI ? J, CSI ? K)")
        {
            return;
        }
        for (r, from, to) in parts {
            let protected = |cells: &[GridCell], c: usize| {
                let head = if c > 0 && cells[c].width == 0 {
                    c - 1
                } else {
                    c
                };
                cells[head].pen.flags & flag::PROTECTED != 0
            };
            let mut c = from;
            while c < to {
                if protected(&self.rows[r].cells, c) {
                    c += 1;
                    continue;
                }
                let start = c;
                while c < to && !protected(&self.rows[r].cells, c) {
                    c += 1;
                }
                self.erase_chars(r, start, c - start);
            }
        }
    }

    /// ICH at `col` of `row`: `n` blank cells, the rest moves right.
    fn insert_chars(&mut self, row: usize, col: usize, n: usize) {
        let cols = self.cols();
        let n = n.max(1).min(cols - col);
        if !self.work.take(
            ((cols - col) / 16 + 1 + n) as u64,
            "an insert (ICH, DECIC, SR)",
        ) {
            return;
        }
        let pen = self.pen.erase();
        let r = &mut self.rows[row];
        r.shift_right(col, n, pen);
        for c in col..col + n {
            r.print(c, ' ' as u32, 1, pen, 0);
        }
    }

    /// DCH at `col` of `row`.
    fn delete_chars(&mut self, row: usize, col: usize, n: usize) {
        let n = n.max(1).min(self.cols() - col);
        if !self.work.take(
            ((self.cols() - col) / 16 + 1) as u64,
            "a delete (DCH, DECDC, SL)",
        ) {
            return;
        }
        let pen = self.pen.erase();
        self.rows[row].delete(col, n, pen);
    }

    /// SL (`left`) and SR, or DECDC (`left`) and DECIC from the column `at`: the cells of
    /// every row of the scroll region from `at` move `n` columns, as xterm's
    /// `xtermColScroll` does, only with the cursor in the region (it stays where it was).
    #[cold]
    fn scroll_columns(&mut self, left: bool, n: u16, at: usize) {
        if self.row < self.top || self.row > self.bottom {
            return;
        }
        let n = usize::from(n.max(1));
        // Every row's insert or delete, taken at once (each alone may be too small to count).
        let cols = self.cols();
        let units = (self.bottom - self.top + 1) * ((cols - at.min(cols)) / 16 + 1 + n.min(cols));
        if !self
            .work
            .take(units as u64, "a column scroll (DECIC, DECDC, SL, SR)")
        {
            return;
        }
        for r in self.top..=self.bottom {
            if left {
                self.delete_chars(r, at, n);
            } else {
                self.insert_chars(r, at, n);
            }
        }
    }

    /// DECBI (`back`) and DECFI: the cursor one column back (forward), or at the first
    /// (last) column the region's columns one to the right (left), as in xterm.
    fn column_index(&mut self, back: bool) {
        let cols = self.cols();
        if back {
            if self.col == 0 {
                self.scroll_columns(false, 1, 0);
            } else {
                self.back(1);
            }
        } else if self.col + 1 >= cols {
            self.scroll_columns(true, 1, 0);
        } else {
            self.rel_col(1);
        }
    }

    /// The rows of IL and DL: from the cursor to the bottom of the region (or of the screen,
    /// below it).
    fn line_range(&self) -> (usize, usize) {
        if self.row <= self.bottom {
            (self.row, self.bottom + 1)
        } else {
            (self.row, self.nrows())
        }
    }

    fn decaln(&mut self) {
        if !self
            .work
            .take((self.nrows() * self.cols()) as u64, "DECALN (ESC # 8)")
        {
            return;
        }
        for r in 0..self.nrows() {
            for c in 0..self.cols() {
                self.rows[r].print(c, 'E' as u32, 1, Pen::default(), 0);
            }
        }
    }

    // --- screens, resets, resizing --------------------------------------------------------

    fn enter_alternate(&mut self) {
        if self.alternate
            || !self
                .work
                .take(self.row_units(self.nrows()), "the alternate screen")
        {
            return;
        }
        self.alternate = true;
        std::mem::swap(&mut self.saved, &mut self.other_saved);
        std::mem::swap(&mut self.rows, &mut self.other);
        let rows = std::mem::take(&mut self.rows);
        self.rows = self.reblank(rows);
        self.clamp_saved();
    }

    /// The cursor saved on the screen in use, within its size (avt clamps it so each time a
    /// screen takes the terminal's size, or is switched to).
    fn clamp_saved(&mut self) {
        self.saved.col = self.saved.col.min(self.cols() - 1);
        self.saved.row = self.saved.row.min(self.nrows() - 1);
    }

    /// Back to the main screen; with `restore`, the cursor saved on it too (mode 1049),
    /// before the main screen takes the size it missed (so the rewrap follows that cursor,
    /// as in avt).
    fn leave_alternate(&mut self, restore: bool) {
        if !self.alternate {
            if restore {
                self.restore_cursor();
            }
            return;
        }
        self.alternate = false;
        std::mem::swap(&mut self.saved, &mut self.other_saved);
        std::mem::swap(&mut self.rows, &mut self.other);
        if restore {
            self.restore_cursor();
        }
        // The main screen kept its size while the alternate one was in use.
        let old = Size {
            cols: self.rows.front().map_or(self.size.cols, |r| r.len() as u16),
            rows: self.rows.len() as u16,
        };
        if old != self.size {
            self.reflow_screen(old);
        }
        self.clamp_saved();
    }

    fn soft_reset(&mut self) {
        self.visible = true;
        (self.top, self.bottom) = (0, self.nrows() - 1);
        self.insert = false;
        self.modes.soft_reset();
        self.pen = Pen::default();
        self.charsets = Charsets::default();
        self.saved = Saved::default();
    }

    fn hard_reset(&mut self) {
        if !self
            .work
            .take(2 * self.row_units(self.nrows()), "RIS (ESC c)")
        {
            return;
        }
        let (cols, rows) = (self.cols(), self.nrows());
        let (main, other) = (
            std::mem::take(&mut self.rows),
            std::mem::take(&mut self.other),
        );
        self.rows = self.reblank(main);
        self.other = self.reblank(other);
        self.alternate = false;
        self.tabs = Tabs::new(cols);
        (self.row, self.col, self.visible) = (0, 0, true);
        self.pen = Pen::default();
        self.charsets = Charsets::default();
        self.saved_charsets = Charsets::default();
        self.vt52 = None;
        self.rect_exact = false;
        self.insert = false;
        self.newline = false;
        self.modes = Modes::default();
        self.keyboard.reset();
        (self.top, self.bottom) = (0, rows - 1);
        self.saved = Saved::default();
        self.other_saved = Saved::default();
        self.shape = CursorShape::default();
        self.link = 0;
    }

    /// DECCOLM with the option on: 132 (or 80) columns, a cleared screen, no scroll region,
    /// the cursor home.
    fn deccolm_switch(&mut self, wide: bool) {
        self.erase_in_display(2);
        self.resize(Size {
            cols: if wide { 132 } else { 80 },
            rows: self.size.rows,
        });
        (self.top, self.bottom) = (0, self.nrows() - 1);
        self.home();
    }

    /// Rewraps the screen in use from `old` to the engine's size, moving the cursor with its
    /// text (as avt does); rows pushed off the top go to the scrollback.
    fn reflow_screen(&mut self, old: Size) {
        // Every cell of both sizes, one at a time: done whatever the budget says (the screen
        // must have the size it was given), and counted.
        self.work
            .take_anyway(old.cells() + self.size.cells(), "a resize");
        let (new_cols, new_rows) = (self.cols(), self.nrows());
        let (old_cols, mut old_rows) = (usize::from(old.cols), usize::from(old.rows));
        let mut lines: Vec<Row> = std::mem::take(&mut self.rows).into();
        let (mut col, mut row) = (self.col, self.row.min(lines.len().saturating_sub(1)));
        if new_cols != old_cols {
            // Where the cursor is in the text: (column in its line, line number).
            let mut offset = 0;
            let mut line = 0;
            for l in lines.iter().take(row) {
                if l.wrapped {
                    offset += old_cols;
                } else {
                    offset = 0;
                    line += 1;
                }
            }
            let logical = (col + offset, line);
            lines = reflow(lines, new_cols);
            if lines.len() < old_rows {
                lines.resize(old_rows, Row::blank(new_cols, Pen::default()));
            }
            let (mut rc, mut rr, mut n) = (logical.0, 0usize, 0usize);
            let last = lines.len() - 1;
            while n < logical.1 && rr < last {
                if !lines[rr].wrapped {
                    n += 1;
                }
                rr += 1;
            }
            while rc >= new_cols && lines[rr].wrapped {
                rc -= new_cols;
                rr += 1;
            }
            col = rc.min(new_cols - 1);
            let rel = rr as isize - (lines.len() - old_rows) as isize;
            if rel >= 0 {
                row = rel as usize;
            } else {
                row = 0;
                old_rows += (-rel) as usize;
            }
        }
        let count = lines.len();
        match new_rows.cmp(&old_rows) {
            std::cmp::Ordering::Less => {
                let delta = old_rows - new_rows;
                let below = old_rows - 1 - row;
                let excess = delta.min(below);
                if excess > 0 {
                    lines.truncate(count - excess);
                    if let Some(l) = lines.last_mut() {
                        l.wrapped = false;
                    }
                }
                row -= delta - excess;
            }
            std::cmp::Ordering::Greater => {
                let mut delta = new_rows - old_rows;
                let above = count - old_rows.min(count);
                let shift = above.min(delta);
                delta -= shift;
                if row < old_rows {
                    row += shift;
                }
                lines.resize(lines.len() + delta, Row::blank(new_cols, Pen::default()));
            }
            std::cmp::Ordering::Equal => {}
        }
        // The rows above the screen scroll off.
        let above = lines.len() - new_rows;
        let mut lines: VecDeque<Row> = lines.into();
        for _ in 0..above {
            let gone = lines.pop_front().expect("a row");
            if !self.alternate && self.scrollback_cap() > 0 {
                self.scrollback.push_back(gone);
            }
        }
        self.trim_scrollback();
        *self.scrollback_text.get_mut() = None;
        self.rows = lines;
        (self.col, self.row) = (col, row);
        self.clamp_saved();
    }

    /// The scrollback as text (made once per change).
    fn scrollback_lines(&self) -> Scrollback {
        let mut cache = self.scrollback_text.borrow_mut();
        cache
            .get_or_insert_with(|| {
                self.scrollback
                    .iter()
                    .map(|row| {
                        let mut text: String = row
                            .cells
                            .iter()
                            .filter(|c| c.width > 0)
                            .map(|c| safe_char(self.cell_text(c.ch).0))
                            .collect();
                        text.truncate(text.trim_end().len());
                        text
                    })
                    .collect::<Vec<_>>()
                    .into()
            })
            .clone()
    }

    fn osc(&mut self, effect: OscEffect) {
        match effect {
            OscEffect::Names { title, icon } => {
                if title.is_some() {
                    self.title = title;
                }
                if icon.is_some() {
                    self.icon = icon;
                }
            }
            OscEffect::Clipboard(write) => push_clipboard(&mut self.clipboard, write),
            OscEffect::Link(link) => self.link = link.map_or(0, |l| self.links.number(l)),
            OscEffect::ShellMark { kind, status, .. } => self.shell_mark(kind, status),
            OscEffect::Ignored => {}
            OscEffect::Unknown(code) => self.unsupported.count(format!("OSC {code}")),
        }
    }

    /// A shell's OSC 133 mark, put on the cursor's row at its column (the last column at
    /// the pending wrap).
    fn shell_mark(&mut self, kind: ShellMarkKind, status: Option<i32>) {
        match kind {
            ShellMarkKind::Output => self.command_running = true,
            ShellMarkKind::End if self.command_running => {
                self.command_running = false;
                self.commands_ended = self.commands_ended.saturating_add(1);
            }
            _ => {}
        }
        let col = self.col.min(self.cols() - 1) as u16;
        let row = self.row.min(self.nrows() - 1);
        self.rows[row].mark(RowMark { col, kind, status });
    }

    /// The shell marks of the scrollback (on the main screen) and of the screen, in the
    /// order of their places ([`TermState::shell_marks`]).
    fn shell_marks(&self) -> Vec<ShellMark> {
        let (b1, b2) = if self.alternate {
            (&[][..], &[][..])
        } else {
            self.scrollback.as_slices()
        };
        let n = (b1.len() + b2.len()) as i64;
        let scrolled = b1
            .iter()
            .chain(b2)
            .enumerate()
            .map(|(i, r)| (i as i64 - n, r));
        let shown = self.rows.iter().enumerate().map(|(i, r)| (i as i64, r));
        let mut out = Vec::new();
        for (row, r) in scrolled.chain(shown) {
            if r.marks.is_empty() {
                continue;
            }
            let mut marks: Vec<ShellMark> = r
                .marks
                .iter()
                .map(|m| ShellMark {
                    kind: m.kind,
                    row: row as i32,
                    col: m.col,
                    status: m.status,
                })
                .collect();
            // Sent in order, but a mark may sit left of an earlier one (a prompt redrawn).
            marks.sort_by_key(|m| m.col);
            out.extend(marks);
        }
        out
    }
}

fn blank_rows(cols: usize, rows: usize, pen: Pen) -> VecDeque<Row> {
    (0..rows).map(|_| Row::blank(cols, pen)).collect()
}

/// Whether `b` may be in a run of plain lines the engine skips ([`NativeEngine::jump`]):
/// printable ASCII, CR and LF.
#[inline]
fn plain(b: u8) -> bool {
    (0x20..0x7f).contains(&b) || b == b'\r' || b == b'\n'
}

/// The line feeds in `b`, counted a word at a time.
fn line_feeds(b: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = b.chunks_exact(8);
    let mut n = 0;
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes")) ^ (ONES * u64::from(b'\n'));
        // A byte of `w` is zero where `b` had a line feed: its high bit is set here, exactly
        // (the form without false positives: no borrow crosses bytes).
        let zero = !(((w & !HIGH) + !HIGH) | w | !HIGH);
        n += zero.count_ones() as usize;
    }
    n + chunks.remainder().iter().filter(|&&x| x == b'\n').count()
}

impl NativeEngine {
    /// Where the plain lines at the end of an output (`plain_tail`) may be skipped: the cut in
    /// them, when the lines before it scroll away unseen.
    ///
    /// The tail (printable ASCII, CR, LF only, from after the output's last other byte) is cut
    /// just after a CR LF with a screenful plus the scrollback's length of line feeds after it.
    /// From the bottom row, each of those line feeds scrolls, so every row the screen has at
    /// the cut, and every line the part before it would put in the scrollback, is pushed out
    /// of reach; the part before the cut leaves only the cursor (the bottom row, column 0,
    /// when its line feeds take it there) and nothing else (no pen, mode or state changes in
    /// plain text). Only with no sequence in progress, no scroll region and no single shift
    /// waiting for the next character. `seq 1 3000000`
    /// then costs the recorder's live engine (no scrollback) a screenful per read.
    fn jump(&self, plain_tail: &[u8]) -> Option<usize> {
        if !self.parser.is_ground()
            || self.vt52.is_some()
            || self.top != 0
            || self.bottom + 1 != self.nrows()
            || self.charsets.single_shift_pending()
        {
            return None;
        }
        let rows = self.nrows();
        let cap = if self.alternate {
            0
        } else {
            self.scrollback_cap()
        };
        let need = rows + cap;
        // (A tail too short to hold the line feeds costs nothing more.)
        if plain_tail.len() < need + rows {
            return None;
        }
        let mut after = 0;
        let mut cut = None;
        for (k, &b) in plain_tail.iter().enumerate().rev() {
            if b == b'\n' {
                if after >= need && k > 0 && plain_tail[k - 1] == b'\r' {
                    cut = Some(k + 1);
                    break;
                }
                after += 1;
            }
        }
        let cut = cut?;
        // The line feeds before the cut take the cursor to the bottom row from any row.
        let before = plain_tail[..cut].iter().filter(|&&b| b == b'\n').count();
        (before >= rows).then_some(cut)
    }
}

impl Engine for NativeEngine {
    fn feed(&mut self, text: &str) {
        self.work.fed(text.len());
        let bytes = text.as_bytes();
        let rows = usize::from(self.size.rows);
        let cap = if self.alternate {
            0
        } else {
            self.scrollback_cap()
        };
        // (The line feeds are counted eight bytes at a time: an output with too few costs
        // little more.)
        if bytes.len() >= 2 * (2 * rows + cap) && line_feeds(bytes) >= 2 * rows + cap {
            let tail = bytes.len() - bytes.iter().rev().take_while(|&&b| plain(b)).count();
            if bytes.len() - tail >= 2 * rows {
                self.feed_bytes(&bytes[..tail]);
                let plain_tail = &bytes[tail..];
                if let Some(cut) = self.jump(plain_tail) {
                    (self.row, self.col) = (self.nrows() - 1, 0);
                    self.last = None;
                    return self.feed_bytes(&plain_tail[cut..]);
                }
                return self.feed_bytes(plain_tail);
            }
        }
        self.feed_bytes(bytes);
    }

    fn resize(&mut self, size: Size) {
        let size = size.at_least_min();
        if size == self.size {
            return;
        }
        let old = self.size;
        let (old_cols, new_cols) = (usize::from(old.cols), usize::from(size.cols));
        if new_cols < old_cols {
            self.tabs.contract(new_cols);
        } else if new_cols > old_cols {
            self.tabs.expand(old_cols, new_cols);
        }
        // No scroll region after a resize, as in xterm and tmux (avt keeps it when only the
        // width changes; the avt layer puts that right).
        (self.top, self.bottom) = (0, usize::from(size.rows) - 1);
        self.size = size;
        self.reflow_screen(old);
    }

    fn size(&self) -> Size {
        self.size
    }

    fn screen(&self) -> Screen {
        let mut rows = Vec::with_capacity(self.nrows());
        for row in &self.rows {
            let mut out: Vec<Cell> = Vec::with_capacity(row.len());
            let mut pen: Option<Pen> = None;
            let mut style = Cell::default();
            for c in &row.cells {
                if pen != Some(c.pen) {
                    pen = Some(c.pen);
                    style.fg = c.pen.fg;
                    style.bg = c.pen.bg;
                    style.attrs = c.pen.attrs();
                }
                let text = if c.width == 0 {
                    CellText::EMPTY
                } else if c.ch < MARKED {
                    CellText::from_char(char::from_u32(c.ch).unwrap_or(' '))
                } else {
                    let (base, marks) = self.cell_text(c.ch);
                    let mut t = CellText::from_char(base);
                    t.push_str(marks);
                    t
                };
                out.push(Cell {
                    text,
                    width: c.width,
                    fg: style.fg,
                    bg: style.bg,
                    attrs: style.attrs,
                    link: c.link,
                });
            }
            rows.push(out);
        }
        let links = if self.links.get(1).is_some() {
            screen_links(&mut rows, &self.links)
        } else {
            Vec::new()
        };
        Screen {
            size: self.size,
            rows,
            cursor: Cursor {
                row: self.row.min(self.nrows() - 1) as u16,
                col: self.col.min(self.cols() - 1) as u16,
                visible: self.visible,
                shape: self.shape,
            },
            title: self.title.clone(),
            alternate: self.alternate,
            state: TermState {
                icon: self.icon.clone(),
                bells: self.bells,
                clipboard: self.clipboard.clone(),
                links,
                scrollback: self.scrollback_lines(),
                keyboard_flags: self.keyboard.seen().0,
                modify_other_keys: self.keyboard.seen().1,
                shell_marks: self.shell_marks(),
                commands_ended: self.commands_ended,
            },
            modes: self.modes(),
        }
    }

    fn checkpoint(&mut self) {
        self.bells = 0;
        self.clipboard.clear();
    }

    fn unsupported(&self) -> Unsupported {
        self.unsupported.clone()
    }

    fn limit_passed(&self) -> Option<String> {
        self.work.passed_message()
    }
}
