//! Adapter for `avt`, asciinema's virtual terminal (the default engine).
//!
//! tuicast drives avt's parser and terminal directly (not through `avt::Vt`) so it can see
//! each parsed function, and follows the parser's state to see each whole escape sequence.
//! That lets this layer fix what avt leaves out or gets wrong, measured against real
//! terminals by the conformance corpus (`tests/conformance/`, `docs/conformance.md`):
//! - combining marks (zero-width characters): avt would give each its own cell; a real
//!   terminal puts them on the previous character, and so does this adapter;
//! - the window title (OSC 0 and 2), which avt ignores;
//! - whether the alternate screen is active;
//! - character sets: G0–G3 designation with national replacement sets (`ESC ( A` draws `#`
//!   as `£`), SI/SO, LS2/LS3 and single shifts, and DEC graphics drawn as xterm draws them
//!   (avt knows only ASCII and DEC graphics, in G0 and G1);
//! - 132-column mode (DECCOLM, `CSI ? 3 h` / `l`): the screen becomes 132 (or 80) columns
//!   wide, is cleared, and the cursor goes home;
//! - erasing with a background colour (BCE): erased and inserted cells take only the
//!   background of the current pen, as in xterm and tmux (avt gives them the whole pen:
//!   foreground, bold, inverse, underline);
//! - DEL (0x7f) draws nothing (avt prints it);
//! - colon forms of underline (`CSI 4:3 m`, `CSI 4:0 m`);
//! - concealed text (SGR 8, revealed by SGR 28), which avt ignores: see [`StandIns`];
//! - the cursor shape (DECSCUSR, `CSI Ps SP q`), which avt ignores.

use std::collections::HashMap;

use avt::parser::{DecMode, Function, Parser, SgrOp, State};
use avt::terminal::{BufferType, Terminal};
use unicode_width::UnicodeWidthChar;

use super::charsets::Charsets;
use super::{Attrs, Cell, CellText, Color, Cursor, CursorShape, Engine, Screen, Size};

/// The avt engine. See the module docs for what this layer adds to avt.
pub struct AvtEngine {
    parser: Parser,
    terminal: Terminal,
    size: Size,
    /// Combining marks by (row, col) of their base cell, with the base character they were
    /// attached to (a mark is dropped when its cell no longer holds that character).
    marks: HashMap<(u16, u16), (char, String)>,
    /// The scroll region (top and bottom rows, inclusive), as avt has it.
    margins: (u16, u16),
    osc: OscTracker,
    seq: SequenceTracker,
    charsets: Charsets,
    /// Character sets saved with the cursor (DECSC), restored by DECRC.
    saved_charsets: Charsets,
    pen: PenShadow,
    /// Stand-ins for characters printed while conceal was on (see [`StandIns`]).
    stand_ins: StandIns,
    /// The cursor shape set with DECSCUSR.
    cursor_shape: CursorShape,
}

impl std::fmt::Debug for AvtEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AvtEngine")
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl AvtEngine {
    /// A blank avt terminal of `size`, keeping no scrollback.
    pub fn new(size: Size) -> Self {
        AvtEngine {
            parser: Parser::new(),
            terminal: Terminal::new((size.cols as usize, size.rows as usize), Some(0)),
            size,
            marks: HashMap::new(),
            margins: (0, size.rows - 1),
            osc: OscTracker::default(),
            seq: SequenceTracker::default(),
            charsets: Charsets::default(),
            saved_charsets: Charsets::default(),
            pen: PenShadow::default(),
            stand_ins: StandIns::default(),
            cursor_shape: CursorShape::default(),
        }
    }

    fn full_region(&self) -> bool {
        self.margins == (0, self.size.rows - 1)
    }

    /// Prints a run of printable ASCII at the start of `bytes` straight into avt, when
    /// nothing this layer fixes can apply: no sequence in progress, plain character sets, no
    /// combining marks, no concealed pen, and no wrap (the run stops where the cursor would
    /// wrap). avt's parser turns such a character into `Print` and nothing else, so skipping
    /// it changes nothing. Returns how many bytes were printed, or None when the fast path
    /// does not apply.
    #[inline]
    fn ascii_run(&mut self, bytes: &[u8]) -> Option<usize> {
        if self.parser.state != State::Ground
            || !self.osc.is_ground()
            || !self.marks.is_empty()
            || !self.charsets.is_plain()
            || self.pen.pen.conceal
        {
            return None;
        }
        let col = self.terminal.cursor().col;
        let room = (self.size.cols as usize).checked_sub(col)?;
        let n = bytes
            .iter()
            .take(room)
            // (Stand-ins come from planes 3 and 16, never ASCII.)
            .take_while(|&&b| (0x20..0x7f).contains(&b))
            .count();
        if n == 0 {
            return None;
        }
        for &b in &bytes[..n] {
            self.terminal.execute(Function::Print(b as char));
        }
        Some(n)
    }

    #[inline]
    fn feed_char(&mut self, ch: char) {
        self.osc.feed(ch);
        let before = self.parser.state;
        let f = self.parser.feed(ch);
        let special = if before == State::Ground && self.parser.state == State::Ground {
            if let Some(Function::Print(c)) = &f {
                // The common case: read the character through a reference; moving the whole
                // `Function` right after the parser wrote it costs a store-forwarding stall.
                let c = *c;
                return self.print(c);
            }
            None
        } else {
            self.seq.track(before, self.parser.state, ch)
        };
        match special {
            None => {}
            Some(Special::Designate(i, fin)) => {
                self.charsets.designate(i, fin);
                return; // instead of avt's own G0/G1 designation
            }
            Some(Special::LockingShift(g)) => self.charsets.shift(g),
            Some(Special::SingleShift(g)) => self.charsets.single_shift(g),
            Some(Special::Sgr) => {
                // instead of avt's reading of it
                let (ops, conceal) = parse_sgr(&self.seq.buf);
                self.execute(Function::Sgr(ops));
                if let Some(conceal) = conceal {
                    self.pen.pen.conceal = conceal;
                }
                return;
            }
            Some(Special::Decscusr(ps)) => {
                if let Some(shape) = CursorShape::from_decscusr(ps) {
                    self.cursor_shape = shape;
                }
            }
            Some(Special::Deccolm(_)) => {}
        }
        if let Some(f) = f {
            self.execute(f);
        }
        if let Some(Special::Deccolm(wide)) = special {
            self.deccolm(wide);
        }
    }

    fn execute(&mut self, f: Function) {
        // avt moves RI's cursor relative to the scroll region in origin mode (so it may move
        // down); away from the top margin RI is a plain cursor up.
        if let Function::Print(ch) = &f {
            let ch = *ch;
            return self.print(ch);
        }
        if matches!(f, Function::Ri) && self.terminal.cursor().row != self.margins.0 as usize {
            return self.execute(Function::Cuu(1));
        }
        match f {
            Function::Rep(n) => return self.repeat(n),
            Function::So => return self.charsets.shift(1),
            Function::Si => return self.charsets.shift(0),
            Function::Gzd4(_) | Function::G1d4(_) => return,
            Function::Decsc | Function::Scosc => self.saved_charsets = self.charsets,
            Function::Decrc | Function::Scorc => self.charsets = self.saved_charsets,
            Function::Ris => {
                self.charsets = Charsets::default();
                self.saved_charsets = Charsets::default();
                self.cursor_shape = CursorShape::default();
            }
            Function::Decstr => self.charsets = Charsets::default(),
            _ => {}
        }
        if !self.marks.is_empty() {
            match f {
                Function::Lf | Function::Nel => self.line_feed_marks(),
                Function::Ri
                | Function::Su(_)
                | Function::Sd(_)
                | Function::Il(_)
                | Function::Dl(_)
                | Function::Ris
                | Function::Decstr
                | Function::Decaln => self.marks.clear(),
                Function::Decset(ref modes) | Function::Decrst(ref modes)
                    if modes.iter().any(is_alt_screen) =>
                {
                    self.marks.clear()
                }
                _ => {}
            }
        }
        match f {
            Function::Decstbm(top, bottom) => {
                let rows = self.size.rows;
                let top = top.max(1) - 1;
                let bottom = if bottom == 0 { rows } else { bottom } - 1;
                if top < bottom && bottom < rows {
                    self.margins = (top, bottom);
                }
            }
            Function::Ris | Function::Decstr => self.margins = (0, self.size.rows - 1),
            _ => {}
        }
        let alternate = self.terminal.active_buffer_type() == BufferType::Alternate;
        let erases = !self.pen.pen.is_background_only()
            && blanks_cells(&f)
            && match f {
                // Only a line feed that scrolls brings in a blank line.
                Function::Lf | Function::Nel => {
                    self.terminal.cursor().row == self.margins.1 as usize
                }
                _ => true,
            };
        let enters_alternate =
            !alternate && matches!(&f, Function::Decset(modes) if modes.iter().any(is_alt_screen));
        self.pen.observe(&f, alternate);
        if erases {
            // Erased and inserted cells take only the background (BCE), as in xterm and tmux.
            self.terminal
                .execute(Function::Sgr(self.pen.pen.background_ops()));
            self.terminal.execute(f);
            self.terminal.execute(Function::Sgr(self.pen.pen.ops()));
        } else {
            self.terminal.execute(f);
        }
        if enters_alternate
            && self.terminal.active_buffer_type() == BufferType::Alternate
            && self.pen.pen.ops() != PenState::default().ops()
        {
            // avt fills the new alternate screen with the current pen; tmux clears it.
            self.terminal.execute(Function::Sgr(vec![SgrOp::Reset]));
            self.terminal
                .execute(Function::Ed(avt::parser::EdScope::All));
            self.terminal.execute(Function::Sgr(self.pen.pen.ops()));
        }
    }

    fn print(&mut self, ch: char) {
        if ch == '\x7f' {
            return; // DEL draws nothing
        }
        let ch = if self.charsets.is_plain() {
            ch
        } else {
            self.charsets.translate(ch)
        };
        if ch >= '\u{300}' && ch.width() == Some(0) {
            self.attach_mark(ch);
            return;
        }
        self.put(ch);
    }

    /// REP: the character before the cursor again, `n` times (at least once), drawn with the
    /// current pen as avt draws it (avt alone would copy a concealed character's stand-in,
    /// and so its concealment).
    fn repeat(&mut self, n: u16) {
        let cursor = self.terminal.cursor();
        if cursor.col == 0 {
            return;
        }
        let Some(raw) = self
            .terminal
            .view()
            .nth(cursor.row)
            .and_then(|line| line.cells().get(cursor.col - 1).map(|c| c.char()))
        else {
            return;
        };
        let ch = self.stand_ins.decode(raw).0;
        for _ in 0..n.max(1) {
            self.put(ch);
        }
    }

    /// Prints a character whose character set and marks are dealt with.
    fn put(&mut self, ch: char) {
        let cursor = self.terminal.cursor();
        let cols = self.size.cols as usize;
        let wraps = cursor.col >= cols || (cursor.col + 1 == cols && ch.width() == Some(2));
        // Printing at the pending-wrap position wraps, and may scroll.
        if wraps && !self.marks.is_empty() {
            self.line_feed_marks();
        }
        let stored = if self.pen.pen.conceal || StandIns::in_range(ch) {
            self.stand_ins.stand_in(ch, self.pen.pen.conceal)
        } else {
            ch
        };
        self.terminal.execute(Function::Print(stored));
        if wraps && cursor.row == self.margins.1 as usize && !self.pen.pen.is_background_only() {
            // The line scrolled in took the whole pen; erase the rest of it with only the
            // background, as xterm and tmux fill it.
            let after = self.terminal.cursor();
            if after.row == cursor.row && after.col < cols {
                self.terminal
                    .execute(Function::Sgr(self.pen.pen.background_ops()));
                self.terminal
                    .execute(Function::El(avt::parser::ElScope::ToRight));
                self.terminal.execute(Function::Sgr(self.pen.pen.ops()));
            }
        }
    }

    /// DECCOLM: 132 (or 80) columns, a cleared screen, no scroll region, the cursor home.
    fn deccolm(&mut self, wide: bool) {
        let cols = if wide { 132 } else { 80 };
        let pen = self.pen.pen;
        self.terminal.execute(Function::Sgr(pen.background_ops()));
        self.terminal
            .execute(Function::Ed(avt::parser::EdScope::All));
        self.terminal.execute(Function::Sgr(pen.ops()));
        self.resize(Size {
            cols,
            rows: self.size.rows,
        });
        self.terminal.execute(Function::Decstbm(0, 0));
        self.margins = (0, self.size.rows - 1);
        self.terminal.execute(Function::Cup(1, 1));
        self.marks.clear();
    }

    /// Puts a zero-width character on the cell before the cursor.
    fn attach_mark(&mut self, ch: char) {
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

    /// Keeps marks on their rows when a line feed on the last row scrolls the screen.
    fn line_feed_marks(&mut self) {
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

fn is_alt_screen(m: &DecMode) -> bool {
    matches!(
        m,
        DecMode::AltScreenBuffer | DecMode::SaveCursorAltScreenBuffer
    )
}

/// Whether avt fills cells with the current pen when it executes `f`.
fn blanks_cells(f: &Function) -> bool {
    matches!(
        f,
        Function::Ed(_)
            | Function::El(_)
            | Function::Ech(_)
            | Function::Il(_)
            | Function::Dl(_)
            | Function::Ich(_)
            | Function::Dch(_)
            | Function::Su(_)
            | Function::Sd(_)
            | Function::Lf
            | Function::Nel
            | Function::Ri
    )
}

impl Engine for AvtEngine {
    fn feed(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if let Some(n) = self.ascii_run(&bytes[i..]) {
                i += n;
                continue;
            }
            let ch = text[i..].chars().next().expect("at a char boundary");
            self.feed_char(ch);
            i += ch.len_utf8();
        }
        // Drop lines scrolled off the top (the engine keeps no scrollback).
        self.terminal.gc().for_each(drop);
    }

    fn resize(&mut self, size: Size) {
        if size == self.size || size.cols == 0 || size.rows == 0 {
            return;
        }
        self.terminal.resize(size.cols as usize, size.rows as usize);
        self.terminal.gc().for_each(drop);
        self.size = size;
        // Marks outside the new grid go; the others stay and are checked against their base
        // character when the screen is read.
        self.marks
            .retain(|&(r, c), _| r < size.rows && c < size.cols);
        self.margins = (0, size.rows - 1);
    }

    fn size(&self) -> Size {
        self.size
    }

    fn screen(&self) -> Screen {
        let mut rows = Vec::with_capacity(self.size.rows as usize);
        for line in self.terminal.view() {
            // Neighbouring cells nearly always share a pen: convert it once per change.
            let mut pen: Option<&avt::Pen> = None;
            let mut style = Cell::default();
            let mut row: Vec<Cell> = Vec::with_capacity(line.cells().len());
            for c in line.cells() {
                if pen != Some(c.pen()) {
                    let p = c.pen();
                    pen = Some(p);
                    style.fg = color(p.foreground());
                    style.bg = color(p.background());
                    style.attrs = Attrs {
                        bold: p.is_bold(),
                        dim: p.is_faint(),
                        italic: p.is_italic(),
                        underline: p.is_underline(),
                        strikethrough: p.is_strikethrough(),
                        inverse: p.is_inverse(),
                        blink: p.is_blink(),
                        hidden: false,
                    };
                }
                let width = c.width() as u8;
                let (ch, hidden) = self.stand_ins.decode(c.char());
                let mut attrs = style.attrs;
                attrs.hidden = hidden;
                row.push(Cell {
                    text: if width == 0 {
                        CellText::EMPTY
                    } else {
                        CellText::from_char(ch)
                    },
                    width,
                    fg: style.fg,
                    bg: style.bg,
                    attrs,
                });
            }
            if !self.stand_ins.is_empty() {
                // The tail of a concealed wide character is concealed too.
                for c in 1..row.len() {
                    if row[c].width == 0 && row[c - 1].width == 2 {
                        row[c].attrs.hidden = row[c - 1].attrs.hidden;
                    }
                }
            }
            rows.push(row);
        }
        for (&(r, c), (base, marks)) in &self.marks {
            if let Some(cell) = rows
                .get_mut(r as usize)
                .and_then(|row| row.get_mut(c as usize))
            {
                let (base, hidden) = self.stand_ins.decode(*base);
                if cell.text.starts_with(base) && cell.attrs.hidden == hidden && cell.width > 0 {
                    cell.text.push_str(marks);
                }
            }
        }
        let cursor = self.terminal.cursor();
        Screen {
            size: self.size,
            rows,
            cursor: Cursor {
                row: cursor.row.min(self.size.rows as usize - 1) as u16,
                col: cursor.col.min(self.size.cols as usize - 1) as u16,
                visible: cursor.visible,
                shape: self.cursor_shape,
            },
            title: self.osc.title.clone(),
            alternate: self.terminal.active_buffer_type() == BufferType::Alternate,
        }
    }
}

/// An escape sequence this layer handles itself (or in addition to avt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Special {
    /// `ESC I F`: designate the set `F` into G0–G3.
    Designate(char, char),
    /// LS2 (`ESC n`) or LS3 (`ESC o`).
    LockingShift(usize),
    /// SS2 (`ESC N`) or SS3 (`ESC O`).
    SingleShift(usize),
    /// DECCOLM: 132 columns (true) or 80.
    Deccolm(bool),
    /// DECSCUSR (`CSI Ps SP q`): the cursor shape.
    Decscusr(u16),
    /// An SGR sequence avt reads wrongly: colon forms (`CSI 4:3 m`), underline colours
    /// (`CSI 58;5;1 m`, whose parameters avt takes for blink and bold), rapid blink (6),
    /// double underline (21); and any SGR with conceal (8) or reveal (28), which avt ignores.
    /// [`parse_sgr`] reads it instead.
    Sgr,
}

/// Follows avt's parser through escape and control sequences, collecting each one's
/// intermediates and parameters (which avt keeps to itself), and picks out the ones this
/// layer handles.
#[derive(Debug, Default)]
struct SequenceTracker {
    buf: String,
}

/// Longest sequence collected; longer ones are not ours.
const SEQ_MAX: usize = 64;

impl SequenceTracker {
    #[inline]
    fn track(&mut self, before: State, after: State, ch: char) -> Option<Special> {
        use State::*;
        match (before, after) {
            (_, Escape) if ch == '\x1b' => {
                self.buf.clear();
                None
            }
            (_, CsiEntry) => {
                self.buf.clear();
                None
            }
            (Escape | EscapeIntermediate, EscapeIntermediate) if (' '..='/').contains(&ch) => {
                self.push(ch);
                None
            }
            (Escape | EscapeIntermediate, Ground) if ('0'..='~').contains(&ch) => self.esc(ch),
            (CsiEntry | CsiParam | CsiIntermediate, CsiParam | CsiIntermediate | CsiIgnore)
                if (' '..='?').contains(&ch) =>
            {
                self.push(ch);
                None
            }
            (CsiEntry | CsiParam | CsiIntermediate, Ground) if ('@'..='~').contains(&ch) => {
                self.csi(ch)
            }
            _ => None,
        }
    }

    fn push(&mut self, ch: char) {
        if self.buf.len() < SEQ_MAX {
            self.buf.push(ch);
        }
    }

    fn esc(&mut self, fin: char) -> Option<Special> {
        let mut chars = self.buf.chars();
        match (chars.next(), chars.next()) {
            (None, _) => match fin {
                'n' => Some(Special::LockingShift(2)),
                'o' => Some(Special::LockingShift(3)),
                'N' => Some(Special::SingleShift(2)),
                'O' => Some(Special::SingleShift(3)),
                _ => None,
            },
            (Some(i @ ('(' | ')' | '*' | '+')), None) => Some(Special::Designate(i, fin)),
            // A multi-character designation (`ESC ( % 5`): a set this layer lacks.
            (Some(i @ ('(' | ')' | '*' | '+')), Some(_)) => Some(Special::Designate(i, 'B')),
            _ => None,
        }
    }

    fn csi(&mut self, fin: char) -> Option<Special> {
        let p = self.buf.as_str();
        match fin {
            'h' | 'l' if p.starts_with('?') => p[1..]
                .split(';')
                .any(|m| m.parse() == Ok(3u16))
                .then_some(Special::Deccolm(fin == 'h')),
            'm' if !p.starts_with(['<', '=', '>', '?'])
                && (p.contains(':')
                    || p.split(';')
                        .any(|g| matches!(g.parse::<u16>(), Ok(6 | 8 | 21 | 28 | 58 | 59)))) =>
            {
                Some(Special::Sgr)
            }
            'q' => {
                let ps = p.strip_suffix(' ')?;
                if !ps.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                Some(Special::Decscusr(if ps.is_empty() {
                    0
                } else {
                    ps.parse().ok()?
                }))
            }
            _ => None,
        }
    }
}

/// Reads SGR parameters (`1;38;5;200`, `4:3`, `38:2::1:2:3`) the way xterm and tmux do.
/// Returns avt's operations and, when the sequence sets or clears conceal (8, 28, or a
/// reset), whether conceal is on after it.
fn parse_sgr(params: &str) -> (Vec<SgrOp>, Option<bool>) {
    let groups: Vec<Vec<u16>> = params
        .split(';')
        .map(|g| g.split(':').map(|n| n.parse().unwrap_or(0)).collect())
        .collect();
    let mut ops = Vec::new();
    let mut conceal = None;
    let mut i = 0;
    while i < groups.len() {
        let g = &groups[i];
        match g[0] {
            0 | 28 => conceal = Some(false),
            8 => conceal = Some(true),
            _ => {}
        }
        let op = match g[0] {
            0 => Some(SgrOp::Reset),
            1 => Some(SgrOp::SetBoldIntensity),
            2 => Some(SgrOp::SetFaintIntensity),
            3 => Some(SgrOp::SetItalic),
            4 if g.get(1) == Some(&0) => Some(SgrOp::ResetUnderline),
            4 | 21 => Some(SgrOp::SetUnderline),
            5 | 6 => Some(SgrOp::SetBlink),
            7 => Some(SgrOp::SetInverse),
            9 => Some(SgrOp::SetStrikethrough),
            22 => Some(SgrOp::ResetIntensity),
            23 => Some(SgrOp::ResetItalic),
            24 => Some(SgrOp::ResetUnderline),
            25 => Some(SgrOp::ResetBlink),
            27 => Some(SgrOp::ResetInverse),
            29 => Some(SgrOp::ResetStrikethrough),
            n @ 30..=37 => Some(SgrOp::SetForegroundColor(avt::Color::Indexed(n as u8 - 30))),
            39 => Some(SgrOp::ResetForegroundColor),
            n @ 40..=47 => Some(SgrOp::SetBackgroundColor(avt::Color::Indexed(n as u8 - 40))),
            49 => Some(SgrOp::ResetBackgroundColor),
            n @ 90..=97 => Some(SgrOp::SetForegroundColor(avt::Color::Indexed(n as u8 - 82))),
            n @ 100..=107 => Some(SgrOp::SetBackgroundColor(avt::Color::Indexed(n as u8 - 92))),
            n @ (38 | 48 | 58) => {
                let (colour, used) = extended_colour(&groups, i);
                i += used;
                match (n, colour) {
                    (38, Some(c)) => Some(SgrOp::SetForegroundColor(c)),
                    (48, Some(c)) => Some(SgrOp::SetBackgroundColor(c)),
                    _ => None, // underline colours are not kept
                }
            }
            _ => None,
        };
        ops.extend(op);
        i += 1;
    }
    (ops, conceal)
}

/// The colour of an extended colour parameter at `groups[i]` (38, 48 or 58): `;5;N`,
/// `;2;R;G;B`, or their colon forms. Returns it and how many more groups it took.
fn extended_colour(groups: &[Vec<u16>], i: usize) -> (Option<avt::Color>, usize) {
    let g = &groups[i];
    if g.len() > 1 {
        let c = match g[1] {
            5 => g.get(2).map(|&n| avt::Color::Indexed(n as u8)),
            2 => {
                // 38:2:R:G:B, or 38:2:ID:R:G:B with a colour space
                let rgb = if g.len() >= 6 { &g[3..6] } else { &g[2..] };
                (rgb.len() >= 3).then(|| avt::Color::rgb(rgb[0] as u8, rgb[1] as u8, rgb[2] as u8))
            }
            _ => None,
        };
        return (c, 0);
    }
    let next = |k: usize| groups.get(i + k).map(|g| g[0]);
    match next(1) {
        Some(5) => (next(2).map(|n| avt::Color::Indexed(n as u8)), 2),
        Some(2) => match (next(2), next(3), next(4)) {
            (Some(r), Some(g), Some(b)) => (Some(avt::Color::rgb(r as u8, g as u8, b as u8)), 4),
            _ => (None, groups.len()),
        },
        _ => (None, 1),
    }
}

/// avt's pen as this layer knows it: the pen, and the pens saved with the cursor in the
/// primary and alternate screens (avt keeps them to itself).
#[derive(Debug, Default, Clone, Copy)]
struct PenShadow {
    pen: PenState,
    saved: PenState,
    other_saved: PenState,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct PenState {
    fg: Option<avt::Color>,
    bg: Option<avt::Color>,
    /// 0 normal, 1 bold, 2 faint (avt keeps one intensity).
    intensity: u8,
    italic: bool,
    underline: bool,
    blink: bool,
    inverse: bool,
    strikethrough: bool,
    /// Conceal (SGR 8): avt does not know it; this layer prints stand-ins (see [`StandIns`]).
    conceal: bool,
}

impl PenState {
    /// Whether avt's pen holds at most a background (conceal is not avt's).
    fn is_background_only(&self) -> bool {
        *self
            == PenState {
                bg: self.bg,
                conceal: self.conceal,
                ..PenState::default()
            }
    }

    /// SGR operations that make avt's pen hold only this pen's background.
    fn background_ops(&self) -> Vec<SgrOp> {
        let mut ops = vec![SgrOp::Reset];
        if let Some(bg) = self.bg {
            ops.push(SgrOp::SetBackgroundColor(bg));
        }
        ops
    }

    /// SGR operations that make avt's pen this pen.
    fn ops(&self) -> Vec<SgrOp> {
        let mut ops = self.background_ops();
        if let Some(fg) = self.fg {
            ops.push(SgrOp::SetForegroundColor(fg));
        }
        match self.intensity {
            1 => ops.push(SgrOp::SetBoldIntensity),
            2 => ops.push(SgrOp::SetFaintIntensity),
            _ => {}
        }
        for (on, op) in [
            (self.italic, SgrOp::SetItalic),
            (self.underline, SgrOp::SetUnderline),
            (self.blink, SgrOp::SetBlink),
            (self.inverse, SgrOp::SetInverse),
            (self.strikethrough, SgrOp::SetStrikethrough),
        ] {
            if on {
                ops.push(op);
            }
        }
        ops
    }

    /// Applies one SGR operation the way avt does.
    fn apply(&mut self, op: &SgrOp) {
        match *op {
            SgrOp::Reset => *self = PenState::default(),
            SgrOp::SetBoldIntensity => self.intensity = 1,
            SgrOp::SetFaintIntensity => self.intensity = 2,
            SgrOp::ResetIntensity => self.intensity = 0,
            SgrOp::SetItalic => self.italic = true,
            SgrOp::ResetItalic => self.italic = false,
            SgrOp::SetUnderline => self.underline = true,
            SgrOp::ResetUnderline => self.underline = false,
            SgrOp::SetBlink => self.blink = true,
            SgrOp::ResetBlink => self.blink = false,
            SgrOp::SetInverse => self.inverse = true,
            SgrOp::ResetInverse => self.inverse = false,
            SgrOp::SetStrikethrough => self.strikethrough = true,
            SgrOp::ResetStrikethrough => self.strikethrough = false,
            SgrOp::SetForegroundColor(c) => self.fg = Some(c),
            SgrOp::ResetForegroundColor => self.fg = None,
            SgrOp::SetBackgroundColor(c) => self.bg = Some(c),
            SgrOp::ResetBackgroundColor => self.bg = None,
        }
    }
}

impl PenShadow {
    /// Follows what `f` does to avt's pen; `alternate` is whether the alternate screen is
    /// active before it.
    fn observe(&mut self, f: &Function, mut alternate: bool) {
        match f {
            Function::Sgr(ops) => ops.iter().for_each(|op| self.pen.apply(op)),
            Function::Decsc | Function::Scosc => self.saved = self.pen,
            Function::Decrc | Function::Scorc => self.pen = self.saved,
            Function::Ris => *self = PenShadow::default(),
            Function::Decstr => {
                self.pen = PenState::default();
                self.saved = PenState::default();
            }
            Function::Decset(modes) => {
                for m in modes {
                    match m {
                        DecMode::SaveCursor => self.saved = self.pen,
                        DecMode::AltScreenBuffer if !alternate => {
                            std::mem::swap(&mut self.saved, &mut self.other_saved);
                            alternate = true;
                        }
                        DecMode::SaveCursorAltScreenBuffer => {
                            self.saved = self.pen;
                            if !alternate {
                                std::mem::swap(&mut self.saved, &mut self.other_saved);
                                alternate = true;
                            }
                        }
                        _ => {}
                    }
                }
            }
            Function::Decrst(modes) => {
                for m in modes {
                    match m {
                        DecMode::SaveCursor => self.pen = self.saved,
                        DecMode::AltScreenBuffer if alternate => {
                            std::mem::swap(&mut self.saved, &mut self.other_saved);
                            alternate = false;
                        }
                        DecMode::SaveCursorAltScreenBuffer => {
                            if alternate {
                                std::mem::swap(&mut self.saved, &mut self.other_saved);
                                alternate = false;
                            }
                            self.pen = self.saved;
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

/// Characters printed while conceal (SGR 8) was on, remembered in avt's own grid.
///
/// avt has no conceal attribute, and its pen has no spare bit. So a concealed character is
/// printed into avt as a stand-in: a private code point of the same width (avt lays out only
/// by width), mapped back when the screen is read. The stand-in lives in the cell, so it
/// follows everything avt does to cells (erase, scroll, insert and delete, reflow on resize,
/// the alternate screen, wide characters) exactly as the character would, and an erased or
/// overwritten cell is no longer concealed, as in xterm.
///
/// Stand-ins come from code points programs almost never print: plane 16's private use area
/// (U+100000–U+10FFFD) for narrow characters, the unassigned end of plane 3 (from U+3FFFD
/// down) for wide ones. A character of those ranges that a program does print (shown or
/// not) gets a stand-in too, so every code point in them reads back as what was printed.
#[derive(Debug, Default)]
struct StandIns {
    to_stand_in: HashMap<(char, bool), char>,
    from_stand_in: HashMap<char, (char, bool)>,
    /// Stand-ins given out so far, narrow and wide.
    used: [u32; 2],
}

/// The ranges stand-ins come from, narrow then wide, allocated from the top down.
const STAND_IN_RANGES: [(u32, u32); 2] = [(0x10_0000, 0x10_fffd), (0x3_0000, 0x3_fffd)];

impl StandIns {
    fn is_empty(&self) -> bool {
        self.from_stand_in.is_empty()
    }

    /// Whether `ch` is in the ranges stand-ins come from.
    #[inline]
    fn in_range(ch: char) -> bool {
        let c = ch as u32;
        STAND_IN_RANGES
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&c))
    }

    /// The character to print into avt for `ch`, concealed or not.
    fn stand_in(&mut self, ch: char, hidden: bool) -> char {
        if let Some(&p) = self.to_stand_in.get(&(ch, hidden)) {
            return p;
        }
        let wide = usize::from(avt_width(ch) == 2);
        let (lo, hi) = STAND_IN_RANGES[wide];
        while self.used[wide] <= hi - lo {
            let candidate = char::from_u32(hi - self.used[wide]);
            self.used[wide] += 1;
            if let Some(p) = candidate.filter(|&p| avt_width(p) == avt_width(ch)) {
                self.to_stand_in.insert((ch, hidden), p);
                self.from_stand_in.insert(p, (ch, hidden));
                return p;
            }
        }
        // Every stand-in is taken (tens of thousands of different concealed characters):
        // the character is shown, and one that would read as a stand-in is replaced.
        if self.from_stand_in.contains_key(&ch) {
            '\u{fffd}'
        } else {
            ch
        }
    }

    /// The character a cell of avt holds and whether it is concealed.
    #[inline]
    fn decode(&self, raw: char) -> (char, bool) {
        if self.is_empty() || !StandIns::in_range(raw) {
            return (raw, false);
        }
        self.from_stand_in
            .get(&raw)
            .copied()
            .unwrap_or((raw, false))
    }
}

/// The cells avt gives a character: 2 for wide ones, 1 for all others.
fn avt_width(ch: char) -> usize {
    if ch.width() == Some(2) {
        2
    } else {
        1
    }
}

fn color(c: Option<avt::Color>) -> Color {
    match c {
        None => Color::Default,
        Some(avt::Color::Indexed(i)) => Color::Indexed(i),
        Some(avt::Color::RGB(rgb)) => Color::Rgb(super::Rgb(rgb.r, rgb.g, rgb.b)),
    }
}

/// Follows OSC strings in the output to learn the window title (OSC 0 and OSC 2).
#[derive(Debug, Default)]
pub(crate) struct OscTracker {
    state: OscState,
    buf: String,
    /// The last title set.
    pub(crate) title: Option<String>,
}

#[derive(Debug, Default, PartialEq)]
enum OscState {
    #[default]
    Ground,
    Escape,
    Osc,
    OscEscape,
}

/// Longest OSC string collected; longer ones (images, clipboard data) are skipped.
const OSC_MAX: usize = 4096;

impl OscTracker {
    fn is_ground(&self) -> bool {
        self.state == OscState::Ground
    }

    #[inline]
    pub(crate) fn feed(&mut self, ch: char) {
        match self.state {
            OscState::Ground => match ch {
                '\x1b' => self.state = OscState::Escape,
                '\u{9d}' => self.start(),
                _ => {}
            },
            OscState::Escape => match ch {
                ']' => self.start(),
                '\x1b' => {}
                _ => self.state = OscState::Ground,
            },
            OscState::Osc => match ch {
                '\x07' | '\u{9c}' => self.finish(),
                '\x1b' => self.state = OscState::OscEscape,
                '\x18' | '\x1a' => self.state = OscState::Ground,
                c => {
                    if self.buf.len() < OSC_MAX {
                        self.buf.push(c);
                    }
                }
            },
            OscState::OscEscape => match ch {
                '\\' => self.finish(),
                ']' => self.start(),
                _ => self.state = OscState::Ground,
            },
        }
    }

    fn start(&mut self) {
        self.buf.clear();
        self.state = OscState::Osc;
    }

    fn finish(&mut self) {
        self.state = OscState::Ground;
        if let Some((code, text)) = self.buf.split_once(';') {
            if code == "0" || code == "2" {
                self.title = Some(text.chars().filter(|c| !c.is_control()).collect());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(input: &str) -> Screen {
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        e.feed(input);
        e.screen()
    }

    #[test]
    fn erased_cells_take_only_the_background() {
        for erase in [
            "\x1b[K", "\x1b[2J", "\x1b[X", "\x1b[L", "\x1b[M", "\x1b[@", "\x1b[P", "\x1b[S",
        ] {
            let s = screen(&format!("\x1b[2;1H\x1b[1;4;7;31;44m{erase}"));
            let col = match erase {
                "\x1b[X" | "\x1b[@" => 0,
                "\x1b[P" => 9,
                _ => 5,
            };
            let row = if matches!(erase, "\x1b[M" | "\x1b[S") {
                3
            } else {
                1
            };
            let cell = &s.rows[row][col];
            assert_eq!(cell.bg, Color::Indexed(4), "{erase:?}");
            assert_eq!(cell.fg, Color::Default, "{erase:?}");
            assert!(cell.attrs.is_empty(), "{erase:?}");
        }
        // Printing after an erase still uses the whole pen.
        let s = screen("\x1b[1;31;44m\x1b[Kx");
        assert!(s.rows[0][0].attrs.bold && s.rows[0][0].fg == Color::Indexed(1));
        // A line scrolled in by a wrap at the bottom, and by a line feed.
        let s = screen("\x1b[4;1H\x1b[7;41m0123456789ab");
        assert!(s.rows[3][1].attrs.inverse && s.rows[3][2].bg == Color::Indexed(1));
        assert!(!s.rows[3][2].attrs.inverse);
        let s = screen("\x1b[4;1H\x1b[7;41m\n");
        assert!(!s.rows[3][0].attrs.inverse && s.rows[3][0].bg == Color::Indexed(1));
    }

    #[test]
    fn the_pen_shadow_follows_avt() {
        // Saved pens per screen, restores, resets: print a character and compare its pen
        // with what this layer believes.
        let steps = [
            "\x1b[1;31m",
            "\x1b7",
            "\x1b[0;44m",
            "\x1b8",
            "\x1b[?1049h",
            "\x1b[3;32m",
            "\x1b7",
            "\x1b[?1049l",
            "\x1b8",
            "\x1b[?1047h",
            "\x1b[22;2m",
            "\x1b[?1048h",
            "\x1b[m",
            "\x1b[?1047l",
            "\x1b[?1048l",
            "\x1b[!p",
            "\x1b[5;7;9m",
            "\x1bc",
            "\x1b[38;5;200m",
            "\x1b[48;2;1;2;3m",
            "\x1b[s",
            "\x1b[4m",
            "\x1b[u",
            "\x1b[4:3m",
            "\x1b[58;5;1m",
            "\x1b[8m",
            "\x1b7",
            "\x1b[28;1m",
            "\x1b8",
        ];
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        for (i, step) in steps.iter().cycle().take(steps.len() * 3).enumerate() {
            e.feed(step);
            e.feed("\x1b[1;1Hx");
            let cell = e.screen().rows[0][0].clone();
            let pen = e.pen.pen;
            assert_eq!(cell.fg, color(pen.fg), "step {i} {step:?}");
            assert_eq!(cell.bg, color(pen.bg), "step {i} {step:?}");
            assert_eq!(
                (cell.attrs.bold, cell.attrs.dim),
                (pen.intensity == 1, pen.intensity == 2),
                "step {i} {step:?}"
            );
            assert_eq!(cell.attrs.underline, pen.underline, "step {i} {step:?}");
            assert_eq!(cell.attrs.inverse, pen.inverse, "step {i} {step:?}");
            assert_eq!(cell.attrs.hidden, pen.conceal, "step {i} {step:?}");
        }
    }

    #[test]
    fn sgr_forms_avt_misreads() {
        let s = screen("\x1b[4:3ma\x1b[4:0mb\x1b[58;5;1;4mc\x1b[0;21md\x1b[0;38:2::1:2:3me");
        assert!(s.rows[0][0].attrs.underline);
        assert!(!s.rows[0][1].attrs.underline);
        let c = &s.rows[0][2];
        assert!(
            c.attrs.underline && !c.attrs.bold && !c.attrs.blink,
            "{c:?}"
        );
        assert!(s.rows[0][3].attrs.underline);
        assert_eq!(s.rows[0][4].fg, Color::Rgb(crate::rgb::Rgb(1, 2, 3)));
        // Private-marker sequences ending in `m` (xterm's modifyOtherKeys) change nothing.
        let s = screen("\x1b[>4;2mx");
        assert!(s.rows[0][0].attrs.is_empty());
    }

    #[test]
    fn deccolm_switches_to_132_columns_and_back() {
        let mut e = AvtEngine::new(Size { cols: 80, rows: 4 });
        e.feed("hello\x1b[2;3r\x1b[?3h");
        let s = e.screen();
        assert_eq!(s.size, Size { cols: 132, rows: 4 });
        assert_eq!(s.row_text(0), "");
        assert_eq!((s.cursor.row, s.cursor.col), (0, 0));
        e.feed("\x1b[4;1H\n\x1b[1;132Hx");
        let s = e.screen();
        assert_eq!(s.rows[0][131].text, "x");
        assert_eq!(
            s.row_text(3),
            "",
            "margins were reset: the line feed scrolled"
        );
        e.feed("\x1b[?3l");
        assert_eq!(e.screen().size, Size { cols: 80, rows: 4 });
    }

    #[test]
    fn national_and_graphic_character_sets() {
        let s = screen("\x1b(A#\x1b(B#\x1b)0\x0eq`~\x0fq\x1b*K\x1bN}\x1b+0\x1bo`\x1b(B\x0f");
        assert_eq!(s.row_text(0), "£#─◆·qü◆");
        let s = screen("\x1b(0\x1b7\x1b(Bq\x1b8\x1b[3Gq");
        assert_eq!(s.row_text(0), "q ─", "DECRC restores the character sets");
    }

    #[test]
    fn reverse_index_in_origin_mode_moves_up() {
        let s = screen("\x1b[2;3r\x1b[?6h\x1b[2;1Hb\x1bMa");
        assert_eq!(s.row_text(1), " a");
        assert_eq!(s.row_text(2), "b");
        // At the top margin it scrolls the region down.
        let s = screen("\x1b[2;3r\x1b[2;1Ha\x1bMb");
        assert_eq!(
            (s.row_text(1).as_str(), s.row_text(2).as_str()),
            (" b", "a")
        );
    }

    #[test]
    fn del_draws_nothing() {
        assert_eq!(screen("a\x7fb").row_text(0), "ab");
    }

    /// The concealed cells of a row, as a string of `h` (hidden) and `.`.
    fn hidden(s: &Screen, row: usize) -> String {
        s.rows[row]
            .iter()
            .map(|c| if c.attrs.hidden { 'h' } else { '.' })
            .collect()
    }

    #[test]
    fn conceal_marks_the_cells_printed_while_it_is_on() {
        let s = screen("a\x1b[8mbc\x1b[28md\x1b[8me\x1b[0mf");
        assert_eq!(s.row_text(0), "abcdef", "the text is kept");
        assert_eq!(hidden(&s, 0), ".hh.h.....");
        // Conceal with other attributes; forms that are not conceal.
        let s = screen("\x1b[1;8;31ma\x1b[0;38;5;8mb\x1b[48;5;8mc\x1b[0;08md\x1b[8;0me\x1b[8;22mf");
        assert_eq!(hidden(&s, 0), "h..h.h....");
        assert!(s.rows[0][0].attrs.bold && s.rows[0][0].fg == Color::Indexed(1));
        assert_eq!(s.rows[0][1].fg, Color::Indexed(8));
        assert_eq!(s.rows[0][2].bg, Color::Indexed(8));
        // A reset by `CSI m`, by DECSTR and by RIS ends it.
        assert_eq!(hidden(&screen("\x1b[8ma\x1b[mb"), 0), "h.........");
        assert_eq!(hidden(&screen("\x1b[8ma\x1b[!pb"), 0), "h.........");
        assert_eq!(hidden(&screen("\x1b[8ma\x1bcb"), 0), "..........");
        // Colon forms and underline colours go through the same reading.
        let s = screen("\x1b[8;4:3ma\x1b[58;5;1mb\x1b[28;4:0mc");
        assert_eq!(hidden(&s, 0), "hh........");
        assert!(s.rows[0][1].attrs.underline && !s.rows[0][2].attrs.underline);
    }

    #[test]
    fn concealed_cells_follow_erase_overwrite_and_insert_like_xterm() {
        // Erased cells are not concealed (they take only the background).
        let s = screen("\x1b[8mabcdef\x1b[1;3H\x1b[K");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("ab", "hh........")
        );
        let s = screen("\x1b[8mabcdef\x1b[1;2H\x1b[2X");
        assert_eq!(hidden(&s, 0), "h..hhh....");
        let s = screen("\x1b[8mabcdef\x1b[2J");
        assert_eq!(hidden(&s, 0), "..........");
        // Overwriting with conceal off shows the new character.
        let s = screen("\x1b[8mab\r\x1b[28mX");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("Xb", ".h........")
        );
        // Inserted blanks are not concealed; the concealed characters move.
        let s = screen("\x1b[8mab\x1b[28mcd\x1b[1;1H\x1b[2@");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("  abcd", "..hh......")
        );
        let s = screen("x\x1b[8mab\x1b[28mcd\x1b[1;1H\x1b[P");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("abcd", "hh........")
        );
        // Insert mode (IRM) pushes them right too.
        let s = screen("\x1b[8mab\x1b[28m\x1b[1;1H\x1b[4hZ");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("Zab", ".hh.......")
        );
    }

    #[test]
    fn concealed_cells_move_with_scrolling_and_line_insertion() {
        // A line feed at the bottom scrolls them up.
        let s = screen("\x1b[4;1H\x1b[8mlow\x1b[28m\n\n");
        assert_eq!(
            (s.row_text(1).as_str(), hidden(&s, 1).as_str()),
            ("low", "hhh.......")
        );
        assert_eq!(hidden(&s, 3), "..........");
        // SU, SD, IL, DL and RI in a scroll region.
        let s = screen("\x1b[2;1H\x1b[8mmid\x1b[28m\x1b[T");
        assert_eq!(hidden(&s, 2), "hhh.......");
        let s = screen("\x1b[2;1H\x1b[8mmid\x1b[28m\x1b[S");
        assert_eq!(hidden(&s, 0), "hhh.......");
        let s = screen("\x1b[2;1H\x1b[8mmid\x1b[28m\x1b[1;1H\x1b[L");
        assert_eq!(
            (hidden(&s, 1).as_str(), hidden(&s, 2).as_str()),
            ("..........", "hhh.......")
        );
        let s = screen("\x1b[2;1H\x1b[8mmid\x1b[28m\x1b[1;1H\x1b[M");
        assert_eq!(hidden(&s, 0), "hhh.......");
        let s = screen("\x1b[2;3r\x1b[2;1H\x1b[8mtop\x1b[28m\x1bM");
        assert_eq!(
            (hidden(&s, 1).as_str(), hidden(&s, 2).as_str()),
            ("..........", "hhh.......")
        );
        // Printing past the last column wraps (and scrolls) with conceal still on.
        let s = screen("\x1b[4;1H\x1b[8m0123456789ab");
        assert_eq!(
            (hidden(&s, 2).as_str(), hidden(&s, 3).as_str()),
            ("hhhhhhhhhh", "hh........")
        );
        assert_eq!(s.row_text(3), "ab");
    }

    #[test]
    fn conceal_is_saved_with_the_cursor_and_screens_keep_their_cells() {
        // DECSC saves the SGR attributes, conceal included; DECRC restores them.
        assert_eq!(
            hidden(&screen("\x1b[8m\x1b7\x1b[0m\x1b8x"), 0),
            "h........."
        );
        assert_eq!(hidden(&screen("\x1b7\x1b[8m\x1b8x"), 0), "..........");
        // The alternate screen starts clear; the primary's concealed cells come back.
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        e.feed("\x1b[8msecret\x1b[0m\x1b[?1049h");
        assert_eq!(hidden(&e.screen(), 0), "..........");
        e.feed("\x1b[1;1Halt\x1b[8mX");
        assert_eq!(hidden(&e.screen(), 0), "...h......");
        e.feed("\x1b[?1049l");
        let s = e.screen();
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("secret", "hhhhhh....")
        );
        // 1049 saves the pen with the cursor: conceal is back on after leaving.
        e.feed("\x1b[8m\x1b[?1049h\x1b[0m\x1b[?1049lz");
        assert!(e.screen().rows[0][6].attrs.hidden);
    }

    #[test]
    fn concealed_cells_survive_a_resize() {
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        e.feed("ab\x1b[8mcd\x1b[28mef\r\n\x1b[8mxy");
        e.resize(Size { cols: 20, rows: 6 });
        let s = e.screen();
        assert_eq!(&hidden(&s, 0)[..6], "..hh..");
        assert_eq!(&hidden(&s, 1)[..3], "hh.");
        e.resize(Size { cols: 3, rows: 6 });
        let s = e.screen();
        assert_eq!(s.row_text(0), "def", "{:?}", s.text());
        for cell in s.rows.iter().flatten() {
            let was_concealed = matches!(cell.text.as_str(), "c" | "d" | "x" | "y");
            assert_eq!(cell.attrs.hidden, was_concealed, "{cell:?} after reflow");
        }
    }

    #[test]
    fn concealed_wide_characters_marks_and_repeats() {
        let s = screen("\x1b[8m日\x1b[28m本");
        assert_eq!(s.row_text(0), "日本");
        assert_eq!((s.rows[0][0].width, s.rows[0][1].width), (2, 0));
        assert_eq!(hidden(&s, 0), "hh........");
        // A wide character at the last column wraps as it would shown.
        let s = screen("\x1b[1;10H\x1b[8m日");
        assert_eq!(
            (s.rows[1][0].text.as_str(), hidden(&s, 1).as_str()),
            ("日", "hh........")
        );
        // Combining marks stay on a concealed character.
        let s = screen("\x1b[8me\u{301}\x1b[0mx");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("e\u{301}x", "h.........")
        );
        // REP repeats a concealed character concealed (as tmux does); the repeat takes the
        // current pen, so a REP after SGR 28 (where tmux and xterm.js repeat nothing, and avt
        // repeats) is shown like the colours avt gives it.
        let s = screen("\x1b[8ma\x1b[2bX\x1b[28mb\x1b[2b");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("aaaXbbb", "hhhh......")
        );
        let s = screen("\x1b[8ma\x1b[28m\x1b[2b");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("aaa", "h.........")
        );
        let s = screen("ab\x1b[3b");
        assert_eq!(s.row_text(0), "abbbb");
    }

    #[test]
    fn characters_of_the_stand_in_ranges_read_back_as_printed() {
        let top = '\u{10fffd}';
        let wide_top = '\u{3fffd}';
        for input in [
            format!("{top}\x1b[8mx{wide_top}\x1b[0m{wide_top}y"),
            format!("\x1b[8mx{wide_top}\x1b[0m{top}{wide_top}y"),
        ] {
            let s = screen(&input);
            let cells: Vec<(&str, bool)> = s.rows[0][..7]
                .iter()
                .map(|c| (c.text.as_str(), c.attrs.hidden))
                .collect();
            if input.starts_with('\x1b') {
                assert_eq!(
                    cells,
                    [
                        ("x", true),
                        ("\u{3fffd}", true),
                        ("", true),
                        ("\u{10fffd}", false),
                        ("\u{3fffd}", false),
                        ("", false),
                        ("y", false)
                    ],
                    "{input:?}"
                );
            } else {
                assert_eq!(
                    cells,
                    [
                        ("\u{10fffd}", false),
                        ("x", true),
                        ("\u{3fffd}", true),
                        ("", true),
                        ("\u{3fffd}", false),
                        ("", false),
                        ("y", false)
                    ],
                    "{input:?}"
                );
            }
        }
    }

    #[test]
    fn every_stand_in_has_the_width_avt_gives_its_class() {
        for (class, &(lo, hi)) in STAND_IN_RANGES.iter().enumerate() {
            let odd = (lo..=hi)
                .filter_map(char::from_u32)
                .filter(|&c| avt_width(c) != class + 1)
                .count();
            assert_eq!(odd, 0, "range {lo:#x}..={hi:#x}");
        }
    }

    #[test]
    fn decscusr_sets_the_cursor_shape() {
        use crate::term::CursorKind;
        let shape = |input: &str| screen(input).cursor.shape;
        assert!(shape("").is_default());
        let s = shape("\x1b[5 q");
        assert_eq!((s.kind, s.blinking), (CursorKind::Bar, true));
        let s = shape("\x1b[4 q");
        assert_eq!((s.kind, s.blinking), (CursorKind::Underline, false));
        assert!(
            shape("\x1b[6 q\x1b[ q").is_default(),
            "0 (or none) is the default"
        );
        assert!(
            shape("\x1b[6 q\x1b[2 q").is_default(),
            "a steady block is the default"
        );
        assert!(shape("\x1b[1 q").blinking);
        assert_eq!(
            shape("\x1b[3 q\x1b[7 q").kind,
            CursorKind::Underline,
            "7 is ignored"
        );
        assert_eq!(shape("\x1b[3 q\x1b[?5 q").kind, CursorKind::Underline);
        assert!(shape("\x1b[3 q\x1bc").is_default(), "RIS resets it");
        // It is one setting for both screens, and not part of the saved cursor.
        assert_eq!(
            shape("\x1b[?1049h\x1b[6 q\x1b[?1049l").kind,
            CursorKind::Bar
        );
        assert_eq!(shape("\x1b7\x1b[6 q\x1b8").kind, CursorKind::Bar);
        // The text around it is unaffected.
        assert_eq!(screen("a\x1b[5 qb").row_text(0), "ab");
    }
}
