//! The native engine's parser: bytes in, operations on the engine out, in one pass.
//!
//! Its states are avt's parser's (Paul Williams' DEC ANSI parser, with every character from
//! U+00A0 read as a printable one), as [`SequenceTracker`](crate::term::sequence) follows
//! them, so a sequence ends where it ends for the avt layer. Runs of printable ASCII are
//! printed as one run; control sequences keep their parameters as numbers (the text only when
//! a colon form needs it).

use super::grid::{flag, Pen};
use super::NativeEngine;
use crate::term::sequence::State;
use crate::term::state::osc_effect;
use crate::term::{Color, CursorShape, Rgb};

/// Most parameters of a control sequence (later ones are read into the last, as in avt).
const MAX_PARAMS: usize = 32;
/// Longest parameter text kept for colon forms.
const RAW_MAX: usize = 64;
/// Longest OSC data kept (the rest of a longer string is skipped), as the tracker keeps.
const OSC_MAX: usize = 64 * 1024;
/// Longest DCS header kept.
const DCS_HEAD_MAX: usize = 64;

/// The parser's state between feeds.
#[derive(Debug, Default)]
pub(super) struct Parser {
    state: State,
    params: [u16; MAX_PARAMS],
    /// The parameter being read (its index in `params`).
    cur: usize,
    /// The private marker (`<`, `=`, `>`, `?`), or 0.
    marker: u8,
    /// Intermediates (at most two kept).
    inter: [u8; 2],
    ninter: usize,
    /// A colon appeared: the parameters' text is in `raw`.
    colon: bool,
    raw: Vec<u8>,
    osc: String,
    osc_truncated: bool,
    /// An ESC ended an OSC (or DCS) string: a `\` next makes it ST.
    osc_escape: bool,
    dcs_escape: bool,
    dcs_head: String,
    /// VT52 mode's `ESC Y`: 1 while its row is to come, 2 while its column is (the row in
    /// `vt52_row`), else 0.
    vt52_y: u8,
    vt52_row: u8,
}

impl Parser {
    /// Whether no sequence is in progress.
    pub(super) fn is_ground(&self) -> bool {
        self.state == State::Ground
    }

    /// Starts a sequence afresh. Only the first parameter is zeroed: each later one is zeroed
    /// as `;` moves to it ([`Parser::next_param`]), and none past `cur` is read.
    fn clear(&mut self) {
        self.params[0] = 0;
        self.cur = 0;
        self.marker = 0;
        self.ninter = 0;
        self.colon = false;
        self.raw.clear();
    }

    /// `;`: on to the next parameter (zeroed), or the last one again past [`MAX_PARAMS`].
    #[inline]
    fn next_param(&mut self) {
        if self.cur + 1 < MAX_PARAMS {
            self.cur += 1;
            self.params[self.cur] = 0;
        }
    }

    fn collect(&mut self, b: u8) {
        if self.ninter < 2 {
            self.inter[self.ninter] = b;
        }
        self.ninter += 1;
    }

    /// Parameter `i`, 0 when absent.
    #[inline]
    fn p(&self, i: usize) -> u16 {
        if i <= self.cur {
            self.params[i]
        } else {
            0
        }
    }

    fn raw_push(&mut self, b: u8) {
        if self.raw.len() < RAW_MAX {
            self.raw.push(b);
        }
    }
}

impl NativeEngine {
    /// Feeds output bytes (whole UTF-8 text).
    pub(super) fn feed_bytes(&mut self, bytes: &[u8]) {
        if self.vt52.is_some() {
            return self.feed_vt52(bytes);
        }
        let mut i = 0;
        let len = bytes.len();
        while i < len {
            let b = bytes[i];
            if self.parser.state == State::Ground {
                if (0x20..0x7f).contains(&b) {
                    let start = i;
                    while i < len && (0x20..0x7f).contains(&bytes[i]) {
                        i += 1;
                    }
                    if self.charsets.is_plain() {
                        self.print_ascii(&bytes[start..i]);
                    } else {
                        for &c in &bytes[start..i] {
                            self.print(char::from(c));
                        }
                    }
                    continue;
                }
                if b == 0x1b && bytes.get(i + 1) == Some(&b'[') {
                    if let Some(n) = self.whole_csi(&bytes[i + 2..]) {
                        i += 2 + n;
                        if self.vt52.is_some() {
                            return self.feed_vt52(&bytes[i..]);
                        }
                        continue;
                    }
                }
                if b == 0x1b {
                    // `ESC ( B` and the other designations (`tput sgr0` sends one each time):
                    // what `step` would do with its three bytes, at once.
                    if let Some(&[i0 @ b'('..=b'+', f @ b'0'..=b'~']) = bytes.get(i + 1..i + 3) {
                        self.charsets.designate(char::from(i0), char::from(f));
                        self.last = None;
                        i += 3;
                        continue;
                    }
                }
                if b < 0x80 {
                    i += 1;
                    self.ground_control(b);
                    continue;
                }
            } else if b < 0x80 {
                // The common bytes of a sequence: parameters, intermediates, finals.
                i += 1;
                self.step(char::from(b));
                if self.vt52.is_some() {
                    return self.feed_vt52(&bytes[i..]);
                }
                continue;
            }
            let (ch, n) = decode(&bytes[i..]);
            i += n;
            if self.parser.state == State::Ground && ch >= '\u{a0}' {
                self.print(ch);
            } else {
                self.step(ch);
            }
        }
    }

    /// Feeds output bytes in VT52 mode, until `ESC <` leaves it.
    fn feed_vt52(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            if self.vt52.is_none() {
                return self.feed_bytes(&bytes[i..]);
            }
            let (ch, n) = decode(&bytes[i..]);
            i += n;
            self.vt52_step(ch);
        }
    }

    /// One character in VT52 mode, as xterm reads it: controls act (CAN and SUB end an
    /// escape sequence), `ESC` and a character make the only sequences but for `ESC Y`, whose
    /// row and column are the two characters after it (each plus 32), and the rest prints.
    fn vt52_step(&mut self, ch: char) {
        self.last = None;
        let p = &mut self.parser;
        if p.vt52_y > 0 && ch >= ' ' {
            let at = u8::try_from(u32::from(ch) - 32).unwrap_or(u8::MAX);
            if p.vt52_y == 1 {
                (p.vt52_y, p.vt52_row) = (2, at);
            } else {
                p.vt52_y = 0;
                let row = usize::from(p.vt52_row);
                self.move_to_col(usize::from(at));
                self.move_to_row(row);
            }
            return;
        }
        match ch {
            '\x18' | '\x1a' => {
                (p.vt52_y, p.state) = (0, State::Ground);
            }
            '\x1b' => {
                (p.vt52_y, p.state) = (0, State::Escape);
            }
            '\0'..='\x1f' => self.c0(ch as u8),
            '\x7f'..='\u{9f}' => {}
            _ if self.parser.state == State::Escape => {
                self.parser.state = State::Ground;
                self.vt52_escape(ch);
            }
            _ => self.print(ch),
        }
    }

    /// `ESC ch` in VT52 mode.
    fn vt52_escape(&mut self, ch: char) {
        use crate::term::charsets::Charset;
        match ch {
            'A' => self.up(1),
            'B' => self.down(1),
            'C' => self.rel_col(1),
            'D' => self.back(1),
            'F' => self.charsets.set_g0(Charset::Vt52Graphics),
            'G' => self.charsets.set_g0(Charset::Ascii),
            'H' => self.home(),
            'I' => self.reverse_index(),
            'J' => self.erase_in_display(0),
            'K' => self.erase_in_line(0),
            'Y' => self.parser.vt52_y = 1,
            'Z' => {} // identify: the terminal answers
            '=' => self.modes.keypad = true,
            '>' => self.modes.keypad = false,
            '<' => {
                if let Some(saved) = self.vt52.take() {
                    saved.restore(self);
                }
            }
            _ => self.unsupported.count(format!("VT52 ESC {ch}")),
        }
    }

    /// Reads and does a whole control sequence at the start of `b` (what follows `ESC [`):
    /// parameters, intermediates and a final, nothing else. Returns the bytes it took, or
    /// `None` (having done nothing) for anything the byte-at-a-time path must read: a
    /// control inside it, a character it would ignore, the end of the output.
    #[inline]
    fn whole_csi(&mut self, b: &[u8]) -> Option<usize> {
        let p = &mut self.parser;
        p.clear();
        let mut j = 0;
        if let Some(&m @ b'<'..=b'?') = b.first() {
            p.marker = m;
            j = 1;
        }
        let start = j;
        // The parameter being read, in a register (stored at each `;` and at the end);
        // `min` saturates as `u16::saturating_*` would: `v` is at most `u16::MAX` before
        // each digit, so `v * 10 + d` cannot overflow.
        let mut v: u32 = 0;
        while let Some(&c) = b.get(j) {
            match c {
                b'0'..=b'9' => v = (v * 10 + u32::from(c - b'0')).min(u32::from(u16::MAX)),
                b';' => {
                    p.params[p.cur] = v as u16;
                    if p.cur + 1 < MAX_PARAMS {
                        p.cur += 1;
                        v = 0;
                    }
                }
                b':' => p.colon = true,
                _ => break,
            }
            j += 1;
        }
        p.params[p.cur] = v as u16;
        let end = j;
        while let Some(&c @ 0x20..=0x2f) = b.get(j) {
            p.collect(c);
            j += 1;
        }
        let fin = *b.get(j)?;
        if !(0x40..=0x7e).contains(&fin) {
            p.clear();
            return None;
        }
        if p.colon || (p.marker != 0 || fin == b'h' || fin == b'l') {
            p.raw.clear();
            p.raw.extend_from_slice(&b[start..end.min(start + RAW_MAX)]);
        }
        self.csi_dispatch(fin);
        self.last = None;
        Some(j + 1)
    }

    /// A C0 control or DEL in the ground state.
    #[inline]
    fn ground_control(&mut self, b: u8) {
        if b == 0x1b {
            self.parser.state = State::Escape;
            self.parser.ninter = 0;
            self.parser.osc_escape = false;
            self.parser.dcs_escape = false;
            return;
        }
        self.c0(b);
        self.last = None;
    }

    /// What a C0 control does (in the ground state or inside a sequence).
    #[inline]
    fn c0(&mut self, b: u8) {
        match b {
            0x07 => self.bells = self.bells.saturating_add(1),
            0x08 => {
                if self.col == self.cols() {
                    self.rel_col(-2);
                } else {
                    self.rel_col(-1);
                }
            }
            0x09 => self.tab(1),
            0x0a..=0x0c => {
                self.line_feed();
                if self.newline {
                    self.col = 0;
                }
            }
            0x0d => self.col = 0,
            0x0e => self.charsets.shift(1),
            0x0f => self.charsets.shift(0),
            _ => {}
        }
    }

    fn tab(&mut self, n: usize) {
        let cols = self.cols();
        if self.col >= cols {
            return; // the wrap stays pending
        }
        let to = self.tabs.after(self.col, n).unwrap_or(cols - 1);
        self.move_to_col(to);
    }

    fn back_tab(&mut self, n: usize) {
        if self.col >= self.cols() {
            return;
        }
        let to = self.tabs.before(self.col, n).unwrap_or(0);
        self.move_to_col(to);
    }

    /// A C1 control that acts (IND, NEL, HTS, RI); the others do nothing.
    fn c1(&mut self, ch: char) {
        match ch {
            '\u{84}' => self.line_feed_nl(),
            '\u{85}' => self.next_line(),
            '\u{88}' => self.set_tab(),
            '\u{8d}' => self.reverse_index(),
            _ => {}
        }
    }

    fn line_feed_nl(&mut self) {
        self.line_feed();
        if self.newline {
            self.col = 0;
        }
    }

    fn next_line(&mut self) {
        self.line_feed();
        self.col = 0;
    }

    fn set_tab(&mut self) {
        if 0 < self.col && self.col < self.cols() {
            self.tabs.set(self.col);
        }
    }

    /// One character outside the ground state (or a C1 control anywhere).
    fn step(&mut self, ch: char) {
        use State::*;
        let state = self.parser.state;
        match ch {
            '\x1b' => {
                self.parser.osc_escape = state == OscString;
                self.parser.dcs_escape = state == DcsPassthrough;
                self.parser.state = Escape;
                self.parser.ninter = 0;
                return;
            }
            '\x18' | '\x1a' => {
                self.parser.state = Ground;
                return;
            }
            '\u{80}'..='\u{8f}' | '\u{91}'..='\u{97}' | '\u{99}' | '\u{9a}' => {
                self.parser.state = Ground;
                self.c1(ch);
                self.last = None;
                return;
            }
            '\u{9c}' => {
                self.parser.state = Ground;
                match state {
                    OscString => self.osc_end(),
                    DcsPassthrough => self.dcs_end(),
                    _ => {}
                }
                self.last = None;
                return;
            }
            '\u{98}' | '\u{9e}' | '\u{9f}' => return self.string_start(ch),
            '\u{9d}' => return self.osc_start(),
            '\u{90}' => return self.dcs_start(),
            '\u{9b}' => return self.csi_start(),
            _ => {}
        }
        // Every character from U+00A0 moves the state as `A` would, and finishes nothing.
        let real = ch < '\u{a0}';
        let b = if real { ch as u32 as u8 } else { b'A' };
        let intermediate = (0x20..=0x2f).contains(&b);
        let fin = (0x40..=0x7e).contains(&b);
        let control = b < 0x20;
        match state {
            Ground => {
                // (Only C1 controls and characters below U+00A0 reach here.)
                self.last = None;
            }
            Escape | EscapeIntermediate if control => self.c0_in_sequence(b),
            Escape => {
                let osc_escape = std::mem::take(&mut self.parser.osc_escape);
                let dcs_escape = std::mem::take(&mut self.parser.dcs_escape);
                match b {
                    _ if intermediate => {
                        self.parser.state = EscapeIntermediate;
                        self.parser.collect(b);
                    }
                    b'[' => self.csi_start(),
                    b']' => self.osc_start(),
                    b'P' => self.dcs_start(),
                    b'X' | b'^' | b'_' => self.string_start(char::from(b)),
                    b'0'..=b'~' => {
                        self.parser.state = Ground;
                        if osc_escape && b == b'\\' {
                            self.osc_end();
                        } else if dcs_escape && b == b'\\' {
                            self.dcs_end();
                        } else if real {
                            self.esc_dispatch(b);
                        }
                        self.last = None;
                    }
                    _ => {}
                }
            }
            EscapeIntermediate => match b {
                _ if intermediate => self.parser.collect(b),
                b'0'..=b'~' => {
                    self.parser.state = Ground;
                    if real {
                        self.esc_dispatch(b);
                    }
                    self.last = None;
                }
                _ => {}
            },
            CsiEntry | CsiParam | CsiIntermediate => {
                if control {
                    return self.c0_in_sequence(b);
                }
                if fin {
                    self.parser.state = Ground;
                    if real {
                        self.csi_dispatch(b);
                    }
                    self.last = None;
                    return;
                }
                let p = &mut self.parser;
                match (state, b) {
                    _ if intermediate => {
                        p.state = CsiIntermediate;
                        p.collect(b);
                    }
                    (CsiEntry | CsiParam, b'0'..=b'9') => {
                        p.state = CsiParam;
                        let v = &mut p.params[p.cur];
                        *v = v.saturating_mul(10).saturating_add(u16::from(b - b'0'));
                        p.raw_push(b);
                    }
                    (CsiEntry | CsiParam, b';') => {
                        p.state = CsiParam;
                        p.next_param();
                        p.raw_push(b);
                    }
                    (CsiParam, b':') => {
                        p.colon = true;
                        p.raw_push(b);
                    }
                    (CsiEntry, b'<'..=b'?') => {
                        p.state = CsiParam;
                        p.marker = b;
                    }
                    (_, b'0'..=b'?') => p.state = CsiIgnore,
                    _ => {} // DEL
                }
            }
            CsiIgnore => {
                if control {
                    self.c0_in_sequence(b);
                } else if fin {
                    self.parser.state = Ground;
                    self.last = None;
                }
            }
            DcsEntry | DcsParam | DcsIntermediate => {
                let p = &mut self.parser;
                if !control && b != 0x7f && p.dcs_head.len() < DCS_HEAD_MAX {
                    p.dcs_head.push(char::from(b));
                }
                p.state = match (state, b) {
                    _ if fin => DcsPassthrough,
                    _ if intermediate => DcsIntermediate,
                    (DcsEntry | DcsParam, b'0'..=b'9' | b';') => DcsParam,
                    (DcsEntry, b'<'..=b'?') => DcsParam,
                    (_, b'0'..=b'?') => DcsIgnore,
                    (s, _) => s,
                };
            }
            DcsPassthrough | DcsIgnore | SosPmApcString => {}
            OscString => {
                if ch == '\x07' {
                    self.parser.state = Ground;
                    self.osc_end();
                    self.last = None;
                } else if self.parser.osc.len() + ch.len_utf8() <= OSC_MAX {
                    self.parser.osc.push(ch);
                } else {
                    self.parser.osc_truncated = true;
                }
            }
        }
    }

    /// A C0 control inside an escape or control sequence: it acts (BEL rings too), and the
    /// sequence goes on. (Inside strings controls are data, or end them: `step` never comes
    /// here from those states.)
    fn c0_in_sequence(&mut self, b: u8) {
        self.c0(b);
    }

    fn csi_start(&mut self) {
        self.parser.state = State::CsiEntry;
        self.parser.clear();
    }

    fn osc_start(&mut self) {
        self.parser.state = State::OscString;
        self.parser.osc.clear();
        self.parser.osc_truncated = false;
    }

    fn dcs_start(&mut self) {
        self.parser.state = State::DcsEntry;
        self.parser.dcs_head.clear();
    }

    fn string_start(&mut self, kind: char) {
        self.parser.state = State::SosPmApcString;
        self.unsupported.count(
            match kind {
                'X' | '\u{98}' => "SOS",
                '^' | '\u{9e}' => "PM",
                _ => "APC",
            }
            .to_string(),
        );
    }

    fn osc_end(&mut self) {
        let data = std::mem::take(&mut self.parser.osc);
        let effect = osc_effect(&data, self.parser.osc_truncated);
        self.parser.osc = data;
        self.osc(effect);
    }

    fn dcs_end(&mut self) {
        if let Some(kind) = super::super::unknown::dcs_kind(&self.parser.dcs_head) {
            self.unsupported.count(kind);
        }
    }

    fn esc_dispatch(&mut self, fin: u8) {
        let inter_buf = self.parser.inter;
        let inter = &inter_buf[..self.parser.ninter.min(2)];
        match (inter, fin) {
            ([], b'7') => self.save_cursor_and_charsets(),
            ([], b'8') => self.restore_cursor_and_charsets(),
            ([], b'6') => self.column_index(true),
            ([], b'9') => self.column_index(false),
            ([], b'c') => self.hard_reset(),
            ([], b'D') => self.line_feed_nl(),
            ([], b'E') => self.next_line(),
            ([], b'H') => self.set_tab(),
            ([], b'M') => self.reverse_index(),
            ([], b'N') => self.charsets.single_shift(2),
            ([], b'O') => self.charsets.single_shift(3),
            ([], b'n') => self.charsets.shift(2),
            ([], b'o') => self.charsets.shift(3),
            ([], b'=') => self.modes.keypad = true,
            ([], b'>') => self.modes.keypad = false,
            ([], b'\\') => {}
            ([b'#'], b'8') => self.decaln(),
            ([i @ (b'(' | b')' | b'*' | b'+')], f) => {
                self.charsets.designate(char::from(*i), char::from(f));
            }
            ([i @ (b'(' | b')' | b'*' | b'+'), _], _) => {
                self.charsets.designate(char::from(*i), 'B');
            }
            _ => {
                let inter: String = inter.iter().map(|&b| char::from(b)).collect();
                self.unsupported
                    .count(format!("ESC {inter}{}", char::from(fin)));
            }
        }
    }

    fn csi_dispatch(&mut self, fin: u8) {
        let p = &self.parser;
        let n1 = |v: u16| usize::from(v.max(1));
        let (p0, p1) = (p.p(0), p.p(1));
        let (marker, colon, single) = (p.marker, p.colon, p.cur == 0);
        let digits = p.raw.iter().any(u8::is_ascii_digit);
        let inter_buf = p.inter;
        let inter = &inter_buf[..p.ninter.min(2)];
        let cols = self.cols();
        match (marker, inter, fin) {
            (0, [], b'm') => self.sgr(),
            (0, [], b'H' | b'f') => {
                self.move_to_col(n1(p1) - 1);
                self.move_to_row(n1(p0) - 1);
            }
            (0, [], b'@') => {
                if self.col == cols {
                    self.col = cols - 1;
                }
                self.insert_chars(self.row, self.col, usize::from(p0));
            }
            (0, [], b'A') => self.up(n1(p0)),
            (0, [], b'B') => self.down(n1(p0)),
            (0, [], b'C' | b'a') => self.rel_col(n1(p0) as isize),
            (0, [], b'D') => self.back(n1(p0)),
            (0, [], b'E') => {
                self.down(n1(p0));
                self.col = 0;
            }
            (0, [], b'F') => {
                self.up(n1(p0));
                self.col = 0;
            }
            (0, [], b'G' | b'`') => self.move_to_col(n1(p0) - 1),
            (0, [], b'I') => self.tab(n1(p0)),
            (0, [], b'J') if p0 <= 3 => self.erase_in_display(p0),
            (0, [], b'K') if p0 <= 2 => self.erase_in_line(p0),
            // IL and DL leave the cursor at the left margin, as in xterm, and outside the
            // scroll region they do nothing.
            (0, [], b'L' | b'M') if self.row < self.top || self.row > self.bottom => {}
            (0, [], b'L') => {
                let (s, e) = self.line_range();
                self.scroll_down(s, e, n1(p0));
                self.col = 0;
            }
            (0, [], b'M') => {
                let (s, e) = self.line_range();
                self.scroll_up(s, e, n1(p0));
                self.col = 0;
            }
            (0, [], b'P') => {
                if self.col >= cols {
                    self.move_to_col(cols - 1);
                }
                self.delete_chars(self.row, self.col, usize::from(p0));
            }
            (0, [], b'S') => self.scroll_up(self.top, self.bottom + 1, n1(p0)),
            (0, [], b'T') => self.scroll_down(self.top, self.bottom + 1, n1(p0)),
            (0, [], b'W') if matches!(p0, 0 | 2 | 5) => match p0 {
                0 => self.set_tab(),
                2 => self.tabs.unset(self.col),
                _ => self.tabs.clear(),
            },
            (0, [], b'X') => self.erase_chars(self.row, self.col, n1(p0)),
            (0, [], b'Z') => self.back_tab(n1(p0)),
            (0, [], b'b') => self.repeat(p0),
            (0, [], b'd') => self.move_to_row(n1(p0) - 1),
            (0, [], b'e') => self.down(n1(p0)),
            (0, [], b'g') if matches!(p0, 0 | 3) => {
                if p0 == 0 {
                    self.tabs.unset(self.col);
                } else {
                    self.tabs.clear();
                }
            }
            (0, [], b'h' | b'l') => self.ansi_modes(fin == b'h'),
            (0, [], b'r') => {
                let rows = self.nrows();
                let top = usize::from(p0.max(1)) - 1;
                let bottom = if p1 == 0 { rows } else { usize::from(p1) } - 1;
                if top < bottom && bottom < rows {
                    (self.top, self.bottom) = (top, bottom);
                }
                self.home();
            }
            (0, [], b's') => self.save_cursor_and_charsets(),
            (0, [], b'u') => self.restore_cursor_and_charsets(),
            (b'?', [], b'h' | b'l') => self.dec_modes(fin == b'h'),
            (b'?', [], b's' | b'r') if digits => self.xtsave(fin == b's'),
            (b'?', [], b'J' | b'K') if !colon => self.selective_erase(fin == b'J', p0),
            (0, [b' '], b'@' | b'A') if !colon => self.scroll_columns(fin == b'@', p0, 0),
            (0, [b'\''], b'}' | b'~') if !colon => {
                self.scroll_columns(fin == b'~', p0, self.col.min(cols - 1));
            }
            (0, [b' '], b'q') if !colon && single => {
                if let Some(shape) = CursorShape::from_decscusr(p0) {
                    self.shape = shape;
                }
            }
            (0, [b'"'], b'q') if !colon => match p0 {
                0 | 2 => self.pen.flags &= !flag::PROTECTED,
                1 => self.pen.flags |= flag::PROTECTED,
                _ => {}
            },
            (0, [b'!'], b'p') => self.soft_reset(),
            (0, [b'$'], b'x' | b'z' | b'{' | b'v' | b'r' | b't') if !colon => {
                let params: Vec<u16> = (0..=p.cur).map(|i| p.p(i)).collect();
                self.rect_op(fin, &params);
            }
            (0, [b'*'], b'x') if !colon => self.rect_exact = p0 == 2,
            (b'>' | b'<' | b'=', [], b'u') | (b'>', [], b'm' | b'n')
                if self.keyboard.follow(
                    &format!(
                        "{}{}",
                        char::from(marker),
                        String::from_utf8_lossy(&self.parser.raw)
                    ),
                    char::from(fin),
                    self.alternate,
                ) => {}
            _ => {
                let inter: String = inter.iter().map(|&b| char::from(b)).collect();
                let marker = (marker != 0).then(|| char::from(marker));
                if !super::super::unknown::is_answered_query(marker, &inter, char::from(fin)) {
                    let mut kind = String::from("CSI ");
                    kind.extend(marker);
                    kind.push_str(&inter);
                    kind.push(char::from(fin));
                    self.unsupported.count(kind);
                }
            }
        }
    }

    /// The parameters of a mode sequence, as numbers.
    fn mode_params(&self) -> Vec<u16> {
        String::from_utf8_lossy(&self.parser.raw)
            .split(';')
            .filter_map(|m| m.parse().ok())
            .collect()
    }

    fn ansi_modes(&mut self, set: bool) {
        for m in self.mode_params() {
            match m {
                4 => self.insert = set,
                20 => self.newline = set,
                _ => self
                    .unsupported
                    .count(format!("CSI {m} {}", if set { 'h' } else { 'l' })),
            }
        }
    }

    fn dec_modes(&mut self, set: bool) {
        for m in self.mode_params() {
            match m {
                // DECANM reset: VT52 mode (see `Vt52Saved`), the rest of the parameters
                // ignored, as in xterm; set, it does nothing (VT52 mode does not read it).
                2 if !set => {
                    self.vt52 = Some(super::Vt52Saved::take(self));
                    return;
                }
                2 => {}
                3 => {
                    if self.deccolm {
                        self.deccolm_switch(set);
                    }
                }
                6 => {
                    self.modes.origin = set;
                    self.home();
                }
                25 => self.visible = set,
                47 | 1047 => {
                    if set {
                        self.enter_alternate();
                    } else {
                        self.leave_alternate(false);
                    }
                }
                1048 => {
                    if set {
                        self.save_cursor_and_charsets();
                    } else {
                        self.restore_cursor_and_charsets();
                    }
                }
                1049 => {
                    if set {
                        self.save_cursor_and_charsets();
                        self.enter_alternate();
                    } else {
                        self.leave_alternate(true);
                        self.charsets = self.saved_charsets;
                    }
                }
                _ => {
                    self.modes.set_dec(m, set);
                    if !super::super::unknown::FOLLOWED_DEC_MODES.contains(&m) {
                        self.unsupported
                            .count(format!("CSI ?{m} {}", if set { 'h' } else { 'l' }));
                    }
                }
            }
        }
    }

    /// XTSAVE (`save`) and XTRESTORE: the modes [`Modes`](crate::term::Modes) holds, but for
    /// origin and auto-wrap, which XTRESTORE leaves (as the avt layer does).
    fn xtsave(&mut self, save: bool) {
        use crate::term::KNOWN_DEC_MODES;
        for m in self.mode_params() {
            let Some(i) = KNOWN_DEC_MODES.iter().position(|&k| k == m) else {
                continue;
            };
            if save {
                self.xtsaved[i] = self.modes.dec(m);
            } else if !matches!(m, 6 | 7) {
                if let Some(v) = self.xtsaved[i] {
                    self.modes.set_dec(m, v);
                }
            }
        }
    }

    /// SGR, read as xterm and tmux read it (the avt layer's `parse_sgr`), applied in place.
    fn sgr(&mut self) {
        if self.parser.colon {
            return self.sgr_colon();
        }
        let n = self.parser.cur + 1;
        let mut pen = self.pen;
        let mut i = 0;
        while i < n {
            let v = self.parser.params[i];
            match v {
                38 | 48 | 58 => {
                    let ps = &self.parser.params[..n];
                    let next = |k: usize| ps.get(i + k).copied();
                    // A malformed colour is skipped as the avt layer skips it: as avt does,
                    // unless the sequence has a parameter avt misreads (then as xterm).
                    let misread = ps.iter().any(|v| matches!(v, 6 | 8 | 21 | 28 | 58 | 59));
                    let (colour, used) = match next(1) {
                        Some(5) => match next(2) {
                            Some(c) => (Some(Color::Indexed(c as u8)), 2),
                            None => (None, 1),
                        },
                        Some(2) => match (next(2), next(3), next(4)) {
                            (Some(r), Some(g), Some(b)) => {
                                (Some(Color::Rgb(Rgb(r as u8, g as u8, b as u8))), 4)
                            }
                            _ if misread => (None, n),
                            _ => (None, 1),
                        },
                        Some(_) if misread => (None, 1),
                        _ => (None, 0),
                    };
                    set_colour(&mut pen, v, colour);
                    i += used;
                }
                _ => simple_sgr(&mut pen, v, None),
            }
            i += 1;
        }
        self.pen = pen;
    }

    /// SGR with colon forms (`4:3`, `38:2::1:2:3`), read from the parameters' text.
    fn sgr_colon(&mut self) {
        let text = String::from_utf8_lossy(&self.parser.raw).into_owned();
        let groups: Vec<Vec<u16>> = text
            .split(';')
            .map(|g| g.split(':').map(|n| n.parse().unwrap_or(0)).collect())
            .collect();
        let mut pen = self.pen;
        let mut i = 0;
        while i < groups.len() {
            let g = &groups[i];
            match g[0] {
                v @ (38 | 48 | 58) => {
                    let (colour, used) = if g.len() > 1 {
                        let c = match g[1] {
                            5 => g.get(2).map(|&n| Color::Indexed(n as u8)),
                            2 => {
                                let rgb = if g.len() >= 6 { &g[3..6] } else { &g[2..] };
                                (rgb.len() >= 3).then(|| {
                                    Color::Rgb(Rgb(rgb[0] as u8, rgb[1] as u8, rgb[2] as u8))
                                })
                            }
                            _ => None,
                        };
                        (c, 0)
                    } else {
                        let next = |k: usize| groups.get(i + k).map(|g| g[0]);
                        match next(1) {
                            Some(5) => (next(2).map(|n| Color::Indexed(n as u8)), 2),
                            Some(2) => match (next(2), next(3), next(4)) {
                                (Some(r), Some(g), Some(b)) => {
                                    (Some(Color::Rgb(Rgb(r as u8, g as u8, b as u8))), 4)
                                }
                                _ => (None, groups.len()),
                            },
                            _ => (None, 1),
                        }
                    };
                    set_colour(&mut pen, v, colour);
                    i += used;
                }
                v => simple_sgr(&mut pen, v, g.get(1).copied()),
            }
            i += 1;
        }
        self.pen = pen;
    }
}

fn set_colour(pen: &mut Pen, which: u16, colour: Option<Color>) {
    match (which, colour) {
        (38, Some(c)) => pen.fg = c,
        (48, Some(c)) => pen.bg = c,
        _ => {} // underline colours are not kept
    }
}

/// An SGR parameter other than an extended colour; `sub` is its first sub-parameter.
#[inline]
fn simple_sgr(pen: &mut Pen, v: u16, sub: Option<u16>) {
    use flag::*;
    match v {
        0 => {
            // (DECSCA's protection is not SGR's.)
            *pen = Pen {
                flags: pen.flags & PROTECTED,
                ..Pen::default()
            }
        }
        1 => pen.flags |= BOLD,
        2 => pen.flags |= DIM,
        3 => pen.flags |= ITALIC,
        4 if sub == Some(0) => pen.flags &= !UNDERLINE,
        4 | 21 => pen.flags |= UNDERLINE,
        5 | 6 => pen.flags |= BLINK,
        7 => pen.flags |= INVERSE,
        8 => pen.flags |= HIDDEN,
        9 => pen.flags |= STRIKE,
        22 => pen.flags &= !(BOLD | DIM),
        23 => pen.flags &= !ITALIC,
        24 => pen.flags &= !UNDERLINE,
        25 => pen.flags &= !BLINK,
        27 => pen.flags &= !INVERSE,
        28 => pen.flags &= !HIDDEN,
        29 => pen.flags &= !STRIKE,
        30..=37 => pen.fg = Color::Indexed(v as u8 - 30),
        39 => pen.fg = Color::Default,
        40..=47 => pen.bg = Color::Indexed(v as u8 - 40),
        49 => pen.bg = Color::Default,
        90..=97 => pen.fg = Color::Indexed(v as u8 - 82),
        100..=107 => pen.bg = Color::Indexed(v as u8 - 92),
        _ => {}
    }
}

/// The character at the start of `bytes` (valid UTF-8: the output is a `str`) and its
/// length.
#[inline]
fn decode(bytes: &[u8]) -> (char, usize) {
    let b0 = u32::from(bytes[0]);
    let cont = |k: usize| u32::from(bytes.get(k).copied().unwrap_or(0x80) & 0x3f);
    let (cp, n) = if b0 < 0x80 {
        (b0, 1)
    } else if b0 < 0xe0 {
        (((b0 & 0x1f) << 6) | cont(1), 2)
    } else if b0 < 0xf0 {
        (((b0 & 0x0f) << 12) | (cont(1) << 6) | cont(2), 3)
    } else {
        (
            ((b0 & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3),
            4,
        )
    };
    (char::from_u32(cp).unwrap_or('\u{fffd}'), n.min(bytes.len()))
}
