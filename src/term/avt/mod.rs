//! Adapter for `avt`, asciinema's virtual terminal (the default engine).
//!
//! tuicast drives avt's parser and terminal directly (not through `avt::Vt`) so it can see
//! each parsed function, and follows the parser's state to see each whole escape sequence.
//! That lets this layer fix what avt leaves out or gets wrong, measured against real
//! terminals by the conformance corpus (`tests/conformance/`, `docs/conformance.md`):
//! - combining marks (zero-width characters): avt would give each its own cell; a real
//!   terminal puts them on the previous character, and so does this adapter (and a
//!   character printed over that cell starts it anew, without them; insertions, deletions and
//!   erases move or take them with their cells);
//! - the window title (OSC 0 and 2), which avt ignores;
//! - whether the alternate screen is active;
//! - character sets: G0–G3 designation with national replacement sets (`ESC ( A` draws `#`
//!   as `£`), SI/SO, LS2/LS3 and single shifts, and DEC graphics drawn as xterm draws them
//!   (avt knows only ASCII and DEC graphics, in G0 and G1);
//! - 132-column mode (DECCOLM, `CSI ? 3 h` / `l`): ignored by default, as xterm and xterm.js
//!   do; with [`EngineOptions::deccolm`] the screen becomes 132 (or 80) columns wide, is
//!   cleared, and the cursor goes home, as on a VT100;
//! - erasing with a background colour (BCE): erased and inserted cells take only the
//!   background of the current pen, as in xterm and tmux (avt gives them the whole pen:
//!   foreground, bold, inverse, underline);
//! - DEL (0x7f) draws nothing (avt prints it);
//! - colon forms of underline (`CSI 4:3 m`, `CSI 4:0 m`);
//! - bold and faint together (`CSI 1;2 m`), as xterm, tmux and xterm.js keep them (avt keeps
//!   one intensity; the other rides on a stand-in, see [`StandIns`]);
//! - concealed text (SGR 8, revealed by SGR 28), which avt ignores: see [`StandIns`];
//! - selective erase: DECSCA (`CSI 1 " q`) protects what is printed next (riding on a
//!   stand-in), DECSED and DECSEL (`CSI ? Ps J`, `CSI ? Ps K`) erase all else, and ED, EL and
//!   ECH ignore the protection, as in xterm; and the column scrolls SL and SR (`CSI Ps SP @`,
//!   `CSI Ps SP A`), which avt reads as nothing (`edits.rs`);
//! - the cursor shape (DECSCUSR, `CSI Ps SP q`), which avt ignores;
//! - the icon name (OSC 1), bells, OSC 52 clipboard writes and OSC 8 hyperlinks (a link rides
//!   on a stand-in, as concealed text does, so it follows its cell), the scrollback (the
//!   lines avt gives back when it drops them), and the sequences nothing understood
//!   (`unknown.rs`): see [`TermState`](crate::term::TermState).
//! - the terminal modes ([`Modes`](crate::term::Modes): mouse reporting, bracketed paste,
//!   focus, keypad, which avt ignores, and the origin and auto-wrap modes avt keeps private);
//! - REP repeats the character just printed, and only that, as xterm does (avt repeats the
//!   cell before the cursor, whatever came between);
//! - a tab (or a backward tab) at the pending-wrap position keeps the wrap pending (avt
//!   moves the cursor onto the last column, or back from it);
//! - auto-wrap is not restored with the cursor (avt restores it, as old xterms did; xterm
//!   today and tmux do not), and DECSTR turns it on (as xterm does; avt keeps it).
//!
//! And for speed (each path property-tested against the slow one): whole control sequences,
//! escape sequences, C0 controls and runs of printable text are read without stepping avt's
//! parser or the sequence tracker where those would only come back to the ground state; and
//! plain lines that scroll away unseen are not drawn (jump scroll: see
//! `AvtEngine::jump_span`), so `seq 1 3000000` costs the recorder's live engine a screenful
//! per read.
//!
//! The jump scroll: when an output event ends in plain lines (printable ASCII, CR, LF, SGR
//! `CSI Ps;… m` and EL `CSI Ps K`, from the line after the event's last other byte), the
//! engine looks among them for a cut with a screenful plus the scrollback's length of line
//! feeds after it and a CR LF just before it. The lines before the cut are not printed: their
//! SGR is applied (the pen they leave) and the cursor goes where they would have left it, the
//! bottom row, column 0 — only when their line feeds would take it there from where it is.
//! Each line feed after the cut then scrolls from the bottom row, so every row of the screen
//! at the cut, and every line the skipped part would have put in the scrollback, is pushed
//! out of reach. A `memchr` count of line feeds comes first, so an event with too few costs
//! nothing more. It skips only with no sequence in progress, no scroll region, no single shift
//! pending, no combining marks and no concealed or linked text (`AvtEngine::can_jump`). The
//! property test `skipping_plain_lines_that_scroll_away_changes_nothing` compares feeding at
//! once (which skips) with feeding a character at a time (which cannot), on the whole screen:
//! cells, cursor, state and scrollback, at scrollbacks of 0, 3 and 40.
//!
//! The files: `csi.rs` (the plain SGR, cursor-move and erase sequences read into avt's
//! functions as avt's parser reads them: the full-screen fast path), `pen.rs` (the pen
//! shadow), `sgr.rs`, `special.rs` (the sequences this layer handles itself), `standins.rs`
//! (hidden text, bold with faint, DECSCA protection and hyperlinks as private-use stand-ins in
//! avt's own cells), `edits.rs` (DECSED, DECSEL, SL and SR made of avt's cursor moves, erases
//! and insertions), `modes.rs` (the shadow of [`Modes`](crate::term::Modes)), `unknown.rs` (the
//! sequences nothing understood, by kind).

mod csi;
mod edits;
mod modes;
mod pen;
mod sgr;
mod special;
mod standins;
mod unknown;

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

use avt::parser::{DecMode, Function, Parser, SgrOp, State};
use avt::terminal::{BufferType, Terminal};
use unicode_width::UnicodeWidthChar;

use super::charsets::Charsets;
use super::sequence::{Csi, Sequence, SequenceTracker};
use super::state::{push_clipboard, screen_links, ClipboardWrite, LinkTable, OscEffect};
use super::{
    safe_char, Attrs, Cell, CellText, Color, Cursor, CursorShape, Engine, EngineOptions, Screen,
    Scrollback, Size, TermState, Unsupported, MAX_SCROLLBACK,
};
use modes::ModeShadow;
use pen::{PenShadow, PenState};
use special::Special;
use standins::StandIns;

/// Longest control sequence text collected; longer ones are read from their start.
const SEQ_MAX: usize = 64;

/// Bytes of an output event fed between two collections of the lines scrolled off the top.
/// avt keeps every scrolled-off line until `gc` runs; a line feed or scroll collects at once
/// (see [`AvtEngine::feed_char`]; without a scrollback, every [`LF_BATCH`] line feeds), so what is left to bound is printing that wraps and
/// scrolls: at most one line of cells per cell printed, so a chunk holds at most this many
/// cells of old lines.
pub(crate) const FEED_CHUNK: usize = 4096;

/// Without a scrollback, the most line feeds whose scrolled-off lines wait in avt before they
/// are dropped together. Small: the allocator then finds the memory of the lines just dropped
/// for the blank lines avt makes next (in `tuicast record` of `seq 1 200000`, 6 saved 6 % of
/// the instructions, 64 only 5 %).
const LF_BATCH: usize = 6;

/// Most cells the scrollback holds (1000 lines of 1000 columns; on a wider screen, fewer
/// lines): with avt's 24-byte cells, 24 MB.
pub(crate) const SCROLLBACK_CELLS: usize = 1_000_000;

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
    /// Whole escape sequences, as avt's parser sees them (avt keeps their text to itself).
    seq: SequenceTracker,
    /// The window title (OSC 0 and 2), the last one set.
    title: Option<String>,
    charsets: Charsets,
    /// Character sets saved with the cursor (DECSC), restored by DECRC.
    saved_charsets: Charsets,
    pen: PenShadow,
    /// Stand-ins for characters printed while conceal was on (see [`StandIns`]).
    stand_ins: StandIns,
    /// The cursor shape set with DECSCUSR.
    cursor_shape: CursorShape,
    /// The icon name (OSC 1, OSC 0), the last one set.
    icon: Option<String>,
    /// Bells since the last checkpoint.
    bells: u32,
    /// Clipboard writes since the last checkpoint.
    clipboard: Vec<ClipboardWrite>,
    /// Every hyperlink seen, numbered.
    links: LinkTable,
    /// The number of the hyperlink printed text gets now (0: none).
    link: u16,
    /// Lines scrolled off the top of the main screen, as avt gave them back, oldest first.
    scrollback: VecDeque<avt::Line>,
    /// Most lines kept in `scrollback`.
    scrollback_limit: usize,
    /// The scrollback as text, made when a screen is read after it changed (`None`).
    scrollback_text: RefCell<Option<Scrollback>>,
    /// Line feeds since the last `collect_scrolled`, when no scrollback is kept: their lines
    /// wait in avt to be dropped together (see [`LF_BATCH`]).
    deferred_lfs: usize,
    unsupported: Unsupported,
    /// The terminal modes.
    modes: ModeShadow,
    /// DECCOLM resizes, as on a VT100 ([`EngineOptions::deccolm`]).
    deccolm: bool,
    /// The character just printed, for REP; none once anything else was read in the ground
    /// state (see [`Self::apply`]).
    last_graphic: LastGraphic,
    /// The work REP has done, against what the output fed so far allows.
    rep_work: RepWork,
}

/// What REP repeats: the character just printed, if the last thing read was one.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum LastGraphic {
    /// Nothing: something else came after the last character printed.
    #[default]
    None,
    /// This character, as the program sent it (before its character set).
    Char(char),
    /// The character in this column of the cursor's row, where a run of plain text
    /// ([`AvtEngine::text_run`]: no character set, stand-in, mark or wide character) printed
    /// it last. Noted once a run rather than at each of its characters (that cost 1 % of the
    /// replay's instructions), and read only by REP, or before anything moves the cursor
    /// while it is still what REP repeats ([`AvtEngine::settle_last_graphic`]).
    Column(u16),
}

/// What REP may print in all: [`REP_WORK_BASE`] prints, and [`REP_WORK_PER_BYTE`] more for
/// every byte of output fed. A REP prints up to 65,535 characters for its 4 to 9 bytes (a
/// screenful at most, [`rep_count`]: four million on the largest screen), so without a bound
/// 90 KB of output could cost 655 million prints (22 s). A program's own REPs stay far below
/// the bound (ncurses repeats runs within a line: a few prints a byte). Past it REP prints
/// nothing more, and [`Engine::limit_passed`] says so: the replay then fails at that event.
#[derive(Debug, Default, Clone, Copy)]
struct RepWork {
    fed: u64,
    printed: u64,
    passed: bool,
}

/// See [`RepWork`].
pub(crate) const REP_WORK_BASE: u64 = 16_000_000;
/// See [`RepWork`].
pub(crate) const REP_WORK_PER_BYTE: u64 = 16;

impl RepWork {
    /// Takes `n` prints from the budget, or marks it passed (and takes nothing).
    fn take(&mut self, n: usize) -> bool {
        let allowed = REP_WORK_BASE.saturating_add(self.fed.saturating_mul(REP_WORK_PER_BYTE));
        let after = self.printed.saturating_add(n as u64);
        if self.passed || after > allowed {
            self.passed = true;
            return false;
        }
        self.printed = after;
        true
    }
}

impl std::fmt::Debug for AvtEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AvtEngine")
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl AvtEngine {
    /// A blank avt terminal of `size` with the default options, keeping the last
    /// [`MAX_SCROLLBACK`] lines scrolled off its main screen.
    pub fn new(size: Size) -> Self {
        Self::with_options_and_scrollback(size, EngineOptions::default(), MAX_SCROLLBACK)
    }

    /// A blank avt terminal of `size` with these options, keeping the last
    /// [`MAX_SCROLLBACK`] lines scrolled off its main screen.
    pub fn with_options(size: Size, options: EngineOptions) -> Self {
        Self::with_options_and_scrollback(size, options, MAX_SCROLLBACK)
    }

    /// A blank avt terminal of `size` keeping the last `lines` lines scrolled off its main
    /// screen (at most [`MAX_SCROLLBACK`]; 0 keeps none).
    pub fn with_scrollback(size: Size, lines: usize) -> Self {
        Self::with_options_and_scrollback(size, EngineOptions::default(), lines)
    }

    /// A blank avt terminal of `size` with these options, keeping the last `lines` lines
    /// scrolled off its main screen (at most [`MAX_SCROLLBACK`]; 0 keeps none: the recorder's
    /// live engine).
    pub fn with_options_and_scrollback(size: Size, options: EngineOptions, lines: usize) -> Self {
        let size = size.at_least_min();
        AvtEngine {
            parser: Parser::new(),
            terminal: Terminal::new((size.cols as usize, size.rows as usize), Some(0)),
            size,
            marks: HashMap::new(),
            margins: (0, size.rows - 1),
            seq: SequenceTracker::new(SEQ_MAX),
            title: None,
            charsets: Charsets::default(),
            saved_charsets: Charsets::default(),
            pen: PenShadow::default(),
            stand_ins: StandIns::default(),
            cursor_shape: CursorShape::default(),
            deccolm: options.deccolm,
            icon: None,
            bells: 0,
            clipboard: Vec::new(),
            links: LinkTable::default(),
            link: 0,
            scrollback: VecDeque::new(),
            scrollback_limit: lines.min(MAX_SCROLLBACK),
            scrollback_text: RefCell::new(None),
            deferred_lfs: 0,
            unsupported: Unsupported::default(),
            modes: ModeShadow::default(),
            last_graphic: LastGraphic::None,
            rep_work: RepWork::default(),
        }
    }

    /// Takes the lines avt dropped off the top into the scrollback.
    fn collect_scrolled(&mut self) {
        self.deferred_lfs = 0;
        // At most SCROLLBACK_CELLS cells: on a very wide screen, fewer lines.
        let limit = self
            .scrollback_limit
            .min(SCROLLBACK_CELLS / usize::from(self.size.cols.max(1)));
        let mut changed = false;
        for line in self.terminal.gc() {
            if limit == 0 {
                continue;
            }
            // (`while`: a resize to a wider screen may have lowered the limit.)
            while self.scrollback.len() >= limit {
                self.scrollback.pop_front();
            }
            self.scrollback.push_back(line);
            changed = true;
        }
        if changed {
            *self.scrollback_text.get_mut() = None;
        }
    }

    /// The scrollback as text (made once per change).
    fn scrollback_text(&self) -> Scrollback {
        let mut cache = self.scrollback_text.borrow_mut();
        cache
            .get_or_insert_with(|| {
                self.scrollback
                    .iter()
                    .map(|line| {
                        let mut text: String = line
                            .cells()
                            .iter()
                            .filter(|c| c.width() > 0)
                            .map(|c| safe_char(self.stand_ins.decode(c.char()).0))
                            .collect();
                        text.truncate(text.trim_end().len());
                        text
                    })
                    .collect::<Vec<_>>()
                    .into()
            })
            .clone()
    }

    /// The terminal modes the program set.
    pub fn modes(&self) -> crate::term::Modes {
        self.modes.modes
    }

    /// The answer to DECRQSS (`DCS $ q Pt ST`) for the setting `pt` as xterm gives it,
    /// without its framing: `0;1;31m` for SGR (`m`), `2;20r` for the scroll region
    /// (DECSTBM, `r`, counted from 1), `5 q` for the cursor shape (DECSCUSR, ` q`; a steady
    /// block, 2, when no program chose one). `None` for other settings.
    pub fn setting_report(&self, pt: &str) -> Option<String> {
        match pt {
            "m" => Some(format!("{}m", self.pen.pen.sgr_params())),
            "r" => Some(format!("{};{}r", self.margins.0 + 1, self.margins.1 + 1)),
            " q" => Some(format!("{} q", decscusr(self.cursor_shape))),
            _ => None,
        }
    }

    fn full_region(&self) -> bool {
        self.margins == (0, self.size.rows - 1)
    }

    /// Prints a run of printable text at the start of `text` straight into avt, when nothing
    /// this layer fixes can apply: no sequence in progress, plain character sets, no
    /// combining marks, no concealed pen, and no wrap (the run stops where the cursor would
    /// wrap). The run is printable ASCII and characters from U+00A0 one cell wide (line
    /// drawing, accents: full-screen programs draw boxes with them), never a stand-in for
    /// concealed text; it stops at anything else (a control, a wide or zero-width
    /// character). avt's parser turns such a character into `Print` and nothing else, and so
    /// does the sequence tracker, so skipping them changes nothing. Returns how many bytes
    /// were printed, or None when the fast path does not apply.
    #[inline]
    fn text_run(&mut self, text: &str) -> Option<usize> {
        if self.parser.state != State::Ground
            || !self.seq.is_ground()
            || !self.marks.is_empty()
            || !self.charsets.is_plain()
            || !self.pen.pen.extra().is_plain()
            || self.link != 0
        {
            return None;
        }
        let col = self.terminal.cursor().col;
        let mut room = (self.size.cols as usize).checked_sub(col)?;
        let bytes = text.as_bytes();
        let mut i = 0;
        while room > 0 && i < bytes.len() {
            let b = bytes[i];
            let ch = if (0x20..0x7f).contains(&b) {
                i += 1;
                b as char
            } else if b < 0xc2 {
                break; // a control, DEL, or (0x80..0xc2) no start of a printable character
            } else {
                let ch = text[i..].chars().next().expect("at a char boundary");
                // (Stand-ins come from planes 3 and 16.)
                if ch < '\u{a0}' || ch.width() != Some(1) || StandIns::in_range(ch) {
                    break;
                }
                i += ch.len_utf8();
                ch
            };
            self.terminal.execute(Function::Print(ch));
            room -= 1;
        }
        if i == 0 {
            return None;
        }
        // Every character took a column: the last went into the one before what is left.
        self.last_graphic = LastGraphic::Column((usize::from(self.size.cols) - room - 1) as u16);
        Some(i)
    }

    #[inline]
    fn feed_char(&mut self, ch: char) {
        let seq = self.seq.feed(ch);
        let before = self.parser.state;
        let f = self.parser.feed(ch);
        if before == State::Ground && self.parser.state == State::Ground {
            if let Some(Function::Print(c)) = &f {
                // The common case: read the character through a reference; moving the whole
                // `Function` right after the parser wrote it costs a store-forwarding stall.
                let c = *c;
                return self.print(c);
            }
        }
        let special = match &seq {
            None => None,
            Some(seq) => {
                let special = Special::of(seq);
                count_unknown(&mut self.unsupported, seq, &special, f.as_ref());
                special
            }
        };
        if ch == '\x07' && rings(before) {
            self.bells = self.bells.saturating_add(1);
        }
        self.apply(special, f);
    }

    /// The function of a C0 control that moves the cursor (BS, HT, LF, VT, FF, CR), read in
    /// the ground state: avt's parser executes it and stays there, and the sequence tracker
    /// ignores it. None for anything else (BEL rings, SO and SI shift, ESC starts a sequence:
    /// the character-at-a-time path reads those).
    #[inline]
    fn control(&self, b: u8) -> Option<Function> {
        if !(0x08..=0x0d).contains(&b)
            || self.parser.state != State::Ground
            || !self.seq.is_ground()
        {
            return None;
        }
        Some(match b {
            0x08 => Function::Bs,
            0x09 => Function::Ht,
            0x0d => Function::Cr,
            _ => Function::Lf,
        })
    }

    /// Runs a whole escape sequence `ESC I… F` (at most four intermediates `I` from SP to
    /// `/`, a final `F` from `0` to `~`) at the start of `text` through avt's parser without
    /// the sequence tracker, which would report it and be back in the ground state: its
    /// meaning to this layer is read from `text`. Not for the finals that start a control
    /// sequence or a string (`[`, `]`, `P`, `X`, `^`, `_`). ncurses sends `ESC ( B` with every
    /// attribute reset. Returns the bytes consumed, or None.
    #[inline]
    fn esc_run(&mut self, text: &str) -> Option<usize> {
        let b = text.as_bytes();
        if b.len() < 2
            || b[0] != 0x1b
            || self.parser.state != State::Ground
            || !self.seq.is_ground()
        {
            return None;
        }
        let mut j = 1;
        while j < b.len() && j <= 4 && (0x20..0x30).contains(&b[j]) {
            j += 1;
        }
        let fin = *b.get(j)?;
        if !(0x30..0x7f).contains(&fin)
            || (j == 1 && matches!(fin, b'[' | b']' | b'P' | b'X' | b'^' | b'_'))
        {
            return None;
        }
        let seq = Sequence::Esc {
            intermediates: &text[1..j],
            fin: fin as char,
        };
        let special = Special::of(&seq);
        let mut f = None;
        for &c in &b[..=j] {
            f = self.parser.feed(c as char);
        }
        count_unknown(&mut self.unsupported, &seq, &special, f.as_ref());
        self.apply(special, f);
        Some(j + 1)
    }

    /// Runs a whole control sequence (`ESC [ ... final`) at the start of `text` through avt's
    /// parser without the sequence tracker, when it lies whole in `text` and is one the
    /// tracker would report (an optional private marker `<`–`?`, parameters of digits, `;`
    /// and `:` (not first), intermediates, a final): the tracker would go back to the ground
    /// state, so only the sequence's meaning to this layer ([`Special::of`]) is needed, and
    /// that is read from `text`. Full-screen output is mostly such sequences. Returns the
    /// bytes consumed, or None (the character-at-a-time path then reads it).
    #[inline]
    fn csi_run(&mut self, text: &str) -> Option<usize> {
        let b = text.as_bytes();
        if b.len() < 3
            || b[0] != 0x1b
            || b[1] != b'['
            || self.parser.state != State::Ground
            || !self.seq.is_ground()
        {
            return None;
        }
        let mut j = 2;
        let marked = (b'<'..=b'?').contains(&b[j]);
        if marked {
            j += 1;
        } else if b[j] == b':' {
            return None; // the tracker ignores the sequence
        }
        while j < b.len() && matches!(b[j], b'0'..=b'9' | b';' | b':') {
            j += 1;
        }
        let end_of_params = j;
        while j < b.len() && (0x20..0x30).contains(&b[j]) {
            j += 1;
        }
        if j >= b.len() || !(0x40..0x7f).contains(&b[j]) {
            return None;
        }
        // SGR, cursor moves and erases: what avt dispatches, nothing unknown in it (see
        // `unknown_kinds`), and nothing this layer reads itself (`csi::plain` leaves the SGR
        // that avt misreads to `Special`).
        let plain = if !marked && end_of_params == j {
            csi::plain(&b[2..j], b[j])
        } else {
            None
        };
        if let Some(Some(f)) = plain {
            self.apply(None, Some(f));
            return Some(j + 1);
        }
        let fin = b[j] as char;
        let params = &text[2..j];
        let (params, truncated) = match params.get(..SEQ_MAX) {
            Some(start) if params.len() > SEQ_MAX => (start, true),
            _ => (params, false),
        };
        let seq = Sequence::Csi(Csi {
            text: params,
            fin,
            truncated,
        });
        let special = Special::of(&seq);
        let f = match plain {
            // (`Some(None)`: avt dispatches nothing for it, `CSI 5 J`; no special meaning.)
            Some(f) => f,
            None => {
                for &c in &b[..j] {
                    // (ESC, `[`, parameters and intermediates: avt collects them and
                    // dispatches nothing.)
                    let _ = self.parser.feed(c as char);
                }
                self.parser.feed(fin)
            }
        };
        count_unknown(&mut self.unsupported, &seq, &special, f.as_ref());
        self.apply(special, f);
        Some(j + 1)
    }

    /// Does what a parsed sequence means: this layer's part (`special`), then avt's (`f`).
    /// Anything but a printed character that leaves the parser in the ground state ends what
    /// REP may repeat, as in xterm (`doparsing` keeps `lastchar` only for a character printed:
    /// `+ CSI 1 b CSI 2 b` is `++`, and a control or a sequence between the character and
    /// REP leaves nothing to repeat); a C0 control inside a sequence does not.
    #[inline]
    fn apply(&mut self, special: Option<Special>, f: Option<Function>) {
        if self.last_graphic == LastGraphic::None {
            // (The common case in full-screen output: a sequence after a sequence.)
            return self.apply_parsed(special, f);
        }
        let prints = matches!(f, Some(Function::Print(_)));
        if f.is_some() && self.parser.state != State::Ground {
            // A control inside a sequence runs now and leaves what REP repeats, but may
            // move the cursor off the row of its cell.
            self.settle_last_graphic();
        }
        self.apply_parsed(special, f);
        if !prints && self.parser.state == State::Ground {
            self.last_graphic = LastGraphic::None;
        }
    }

    /// What [`Self::apply`] does, but for its end of what REP may repeat.
    #[inline]
    fn apply_parsed(&mut self, special: Option<Special>, f: Option<Function>) {
        let mut deccolm = None;
        match special {
            None => {}
            Some(Special::Osc(effect)) => self.osc(effect),
            Some(Special::Designate(i, fin)) => {
                self.charsets.designate(i, fin);
                return; // instead of avt's own G0/G1 designation
            }
            Some(Special::LockingShift(g)) => self.charsets.shift(g),
            Some(Special::SingleShift(g)) => self.charsets.single_shift(g),
            Some(Special::Sgr(ops, conceal)) => {
                // instead of avt's reading of it
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
            Some(Special::Decsca(Some(protect))) => self.pen.pen.protected = protect,
            Some(Special::Decsca(None)) => {}
            Some(Special::SelectiveErase(display, ps)) => self.selective_erase(display, ps),
            Some(Special::ScrollColumns(left, n)) => self.scroll_columns(left, n),
            // Without the option DECCOLM does nothing at all, as in xterm, whose `c132`
            // resource defaults to false ("Specifies whether or not the VT102 DECCOLM
            // escape sequence should be honored", xterm(1)): `dpmodes` in charproc.c does
            // the clear, the cursor home and the resize only `if (screen->c132)`; and as in
            // xterm.js, whose `InputHandler.setModePrivate`/`resetModePrivate` resize (and
            // reset) for mode 3 only when `windowOptions.setWinLines` is set. (tmux clears
            // the screen and homes the cursor: the one that does something.)
            Some(Special::DecModes(set, modes)) => {
                if self.deccolm && modes.contains(&3) {
                    deccolm = Some(set);
                }
                self.modes.set_dec(&modes, set);
            }
            Some(Special::XtSave(true, modes)) => self.modes.save(&modes),
            Some(Special::XtSave(false, modes)) => self.modes.restore_saved(&modes),
            Some(Special::Keypad(application)) => self.modes.keypad(application),
        }
        if let Some(f) = f {
            if matches!(&f, Function::Decset(m) | Function::Decrst(m) if m.iter().any(is_alt_screen))
            {
                // A print that wrapped at the bottom may have scrolled lines off the main
                // screen that wait in avt for `gc`, which takes them from the screen in use:
                // take them before the switch, or they are lost.
                self.collect_scrolled();
            }
            if self.scrollback_limit == 0 {
                // No scrollback (the recorder's live engine): the lines of line feeds are
                // dropped in batches, not one `gc` (an allocation and a free) each — what
                // is above the screen is thrown away all the same. A carriage return moves
                // the cursor only. Anything else finds them gone, as it would otherwise:
                // nothing but a resize or a switch of screens looks above the screen.
                match f {
                    Function::Lf | Function::Nel => {
                        self.execute(f);
                        self.deferred_lfs += 1;
                        if self.deferred_lfs >= LF_BATCH {
                            self.collect_scrolled();
                        }
                        return;
                    }
                    Function::Cr if self.deferred_lfs > 0 => return self.execute(f),
                    _ if self.deferred_lfs > 0 => self.collect_scrolled(),
                    _ => {}
                }
            }
            let scrolls = may_scroll(&f);
            self.execute(f);
            // A line feed, a scroll or a REP may have scrolled lines off the top, which avt
            // keeps until `gc`: take them now, so that one event of a million line feeds holds
            // one screen and the scrollback, not a million lines.
            if scrolls {
                self.collect_scrolled();
            }
        }
        if let Some(wide) = deccolm {
            self.deccolm(wide);
        }
    }

    /// Follows an OSC this layer handles.
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
            OscEffect::Ignored | OscEffect::Unknown(_) => {}
        }
    }

    fn execute(&mut self, f: Function) {
        match f {
            Function::Print(ch) => return self.print(ch),
            // A tab at the pending-wrap position keeps the wrap pending: xterm's
            // `TabToNextStop` moves only to a stop right of the cursor, and there is none past
            // the last column (avt would move the cursor back onto the last column, and the
            // next character would overwrite it instead of wrapping). A backward tab there
            // does nothing either, as in xterm (379, run headless) and xterm.js.
            Function::Ht | Function::Cht(_) | Function::Cbt(_)
                if self.terminal.cursor().col >= usize::from(self.size.cols) =>
            {
                return
            }
            // Cursor moves: nothing below follows them (no pen, mode, mark, margin or
            // scrollback change), so straight to avt.
            Function::Cr
            | Function::Bs
            | Function::Ht
            | Function::Cup(..)
            | Function::Cuu(_)
            | Function::Cud(_)
            | Function::Cuf(_)
            | Function::Cub(_)
            | Function::Cha(_)
            | Function::Vpa(_) => return self.terminal.execute(f),
            // SGR: only the pen follows it (the screen in use does not matter to it).
            Function::Sgr(_) => {
                self.pen.observe(&f, false);
                return self.terminal.execute(f);
            }
            _ => {}
        }
        // avt moves RI's cursor relative to the scroll region in origin mode (so it may move
        // down); away from the top margin RI is a plain cursor up.
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
                self.link = 0;
            }
            Function::Ed(avt::parser::EdScope::SavedLines) => {
                // `CSI 3 J`: xterm erases the saved lines.
                self.scrollback.clear();
                *self.scrollback_text.get_mut() = None;
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
                Function::Ich(_)
                | Function::Dch(_)
                | Function::Ech(_)
                | Function::El(_)
                | Function::Ed(_) => self.edit_marks(&f),
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
        self.modes.observe(&f, alternate);
        if erases {
            // Erased and inserted cells take only the background (BCE), as in xterm and tmux.
            self.terminal
                .execute(Function::Sgr(self.pen.pen.background_ops()));
            self.terminal.execute(f);
            self.terminal.execute(Function::Sgr(self.pen.pen.ops()));
        } else if ModeShadow::overrides_autowrap(&f) {
            self.terminal.execute(f);
            // avt restored auto-wrap with the cursor (xterm and tmux keep it), or kept it on
            // DECSTR (xterm turns it on).
            let wrap = vec![DecMode::AutoWrap];
            self.terminal.execute(if self.modes.modes.autowrap {
                Function::Decset(wrap)
            } else {
                Function::Decrst(wrap)
            });
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
            self.last_graphic = LastGraphic::None;
            return; // DEL draws nothing
        }
        let raw = ch;
        let ch = if self.charsets.is_plain() {
            ch
        } else {
            self.charsets.translate(ch)
        };
        if ch >= '\u{300}' && ch.width() == Some(0) {
            // (A combining mark leaves what REP repeats as it was: xterm's `doparsing` adds
            // it to the cell and skips the update of `lastchar`, so `e\u{301} CSI 2 b` is
            // `éee`; tmux repeats nothing, xterm.js `é` twice.)
            self.attach_mark(ch);
            return;
        }
        self.last_graphic = LastGraphic::Char(raw);
        self.put(ch);
    }

    /// Reads the character of a [`LastGraphic::Column`] from its cell, while the cursor is
    /// still on its row.
    fn settle_last_graphic(&mut self) {
        if let LastGraphic::Column(col) = self.last_graphic {
            let row = self.terminal.cursor().row;
            let cell = self
                .terminal
                .view()
                .nth(row)
                .and_then(|line| line.cells().get(usize::from(col)).map(|c| c.char()));
            // (A plain run prints no stand-in: the cell holds the character itself.)
            self.last_graphic = cell.map_or(LastGraphic::None, LastGraphic::Char);
        }
    }

    /// REP: the character just printed again, `n` times (at least once), as xterm repeats
    /// it: through the character set in use now (`dotext` with `gsets[curgl]`), with the
    /// current pen and link; nothing when anything else came between (see [`Self::apply`]).
    /// (avt repeats the character before the cursor, whatever put it there, and copies a
    /// concealed character's stand-in, and so its concealment.) The count is capped by
    /// [`rep_count`]: past a screenful the screen looks the same with fewer repeats.
    fn repeat(&mut self, n: u16) {
        self.settle_last_graphic();
        let LastGraphic::Char(raw) = self.last_graphic else {
            return;
        };
        // (No single shift can be waiting: the character just printed took it.)
        let ch = if self.charsets.is_plain() {
            raw
        } else {
            self.charsets.translate(raw)
        };
        let width = if ch.width() == Some(2) { 2 } else { 1 };
        let count = rep_count(n, self.size, width);
        if !self.rep_work.take(count) {
            return;
        }
        for _ in 0..count {
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
        let extra = self.pen.pen.extra();
        if self.modes.insert && cursor.col < cols && !self.marks.is_empty() {
            // (avt's insert mode shifts the line one cell, whatever the width.)
            self.shift_marks(cursor.row, cursor.col, 1);
        }
        let stored = if !extra.is_plain() || self.link != 0 || StandIns::in_range(ch) {
            self.stand_ins.stand_in(ch, extra, self.link)
        } else {
            ch
        };
        self.terminal.execute(Function::Print(stored));
        if !self.marks.is_empty() {
            self.unmark_printed(cursor, ch);
        }
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

    /// Drops the combining marks of the cells that printing `ch` with the cursor at `before`
    /// overwrote: a new character starts a new cell, marks and all, as in xterm (without
    /// this, printing the same base character again, as a redraw does, kept the old marks).
    fn unmark_printed(&mut self, before: avt::terminal::Cursor, ch: char) {
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
    fn edit_marks(&mut self, f: &Function) {
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
    fn unmark(&mut self, row: usize, cols: std::ops::Range<usize>) {
        self.marks
            .retain(|&(r, c), _| usize::from(r) != row || !cols.contains(&usize::from(c)));
    }

    /// Moves the marks of `row` from column `from` on by `by` columns (those pushed off the
    /// line go).
    fn shift_marks(&mut self, row: usize, from: usize, by: isize) {
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

/// How many times REP prints: `n` (at least 1), or, when that is more than a screenful
/// (`cols × rows` prints, enough to overwrite every cell the repeats can reach), a screenful
/// plus the same remainder of a line, so that the cursor ends where `n` repeats leave it. A
/// line holds `cols / width` repeats once wrapping, so counts that agree past a screenful and
/// modulo that are the same screen. `x` then a thousand `CSI 65535 b` (13 KB) printed 65
/// million characters; at 80x24 it prints two million.
pub(crate) fn rep_count(n: u16, size: Size, width: usize) -> usize {
    let n = usize::from(n.max(1));
    let per_line = (usize::from(size.cols) / width).max(1);
    let screenful = usize::from(size.cols) * usize::from(size.rows);
    if n <= screenful {
        return n;
    }
    screenful + (n - screenful) % per_line
}

/// The DECSCUSR `Ps` of a shape (the inverse of [`CursorShape::from_decscusr`], with 2 for
/// the default steady block).
fn decscusr(shape: CursorShape) -> u16 {
    use super::CursorKind;
    let base = match shape.kind {
        CursorKind::Underline => 3,
        CursorKind::Bar => 5,
        _ => 1,
    };
    base + u16::from(!shape.blinking)
}

fn is_alt_screen(m: &DecMode) -> bool {
    matches!(
        m,
        DecMode::AltScreenBuffer | DecMode::SaveCursorAltScreenBuffer
    )
}

/// The length of the SGR (`ESC [ Ps;… m`, true) or EL (`ESC [ Ps K`, false) sequence at the
/// start of `b`, parameters of digits and `;` only.
fn sgr_or_el(b: &[u8]) -> Option<(usize, bool)> {
    if b.get(..2) != Some(b"\x1b[") {
        return None;
    }
    let params = b[2..]
        .iter()
        .take_while(|&&c| c.is_ascii_digit() || c == b';')
        .count();
    match b.get(2 + params)? {
        b'm' => Some((params + 3, true)),
        b'K' => Some((params + 3, false)),
        _ => None,
    }
}

/// Whether `f` may scroll lines off the top of avt's screen (which avt then keeps until
/// `gc`): printing (it may wrap), line feeds, SU, DL, REP, and the modes and window
/// operations that may resize.
fn may_scroll(f: &Function) -> bool {
    matches!(
        f,
        Function::Print(_)
            | Function::Lf
            | Function::Nel
            | Function::Su(_)
            | Function::Dl(_)
            | Function::Rep(_)
            | Function::Decset(_)
            | Function::Decrst(_)
            | Function::Xtwinops(_)
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

impl AvtEngine {
    /// Where `text` ends in plain lines so many that most of them scroll away unseen: the
    /// start of those lines and a cut inside them, or None. From `start` the text is only
    /// printable ASCII, CR, LF, SGR (`CSI Ps;… m`) and EL (`CSI Ps K`) (`ls --color`, `git
    /// log`, compilers); the line feeds before the cut (the last one after a CR) are counted
    /// (the third value: enough of them take the cursor to the bottom row, which
    /// [`feed`](Engine::feed) checks); after it lie at least a screenful plus the
    /// scrollback's worth. Fed in full,
    /// the lines before the cut end with the cursor on the bottom row at column 0, and the
    /// line feeds after it push every row that was on the screen then, and every line that
    /// went to the scrollback before, out of reach (each line feed scrolls at least once
    /// from the bottom row). So the lines before the cut leave nothing that remains but the
    /// pen their SGR sets, and [`feed`](Engine::feed) applies only their SGR and moves the
    /// cursor where they leave it, as xterm's jump scroll does — when the state at `start`
    /// allows it ([`Self::can_jump`]). `seq 1 3000000` in the recorder's live engine prints
    /// 24 of each read's 500 lines.
    fn jump_span(&self, text: &str) -> Option<(usize, usize, usize)> {
        let rows = usize::from(self.size.rows);
        let after = rows + self.scrollback_limit;
        let b = text.as_bytes();
        // At least one line feed before the cut and `after` after it (a fast count first).
        let wanted = after + 1;
        if b.len() < wanted || memchr::memchr_iter(b'\n', b).take(wanted).count() < wanted {
            return None;
        }
        // One pass from the end: the line feeds seen, the cut (and the line feeds after it),
        // and where the plain text starts.
        let mut seen = 0;
        let mut cut: Option<(usize, usize)> = None;
        let mut start = 0;
        let mut i = b.len();
        while i > 0 {
            i -= 1;
            match b[i] {
                b'\n' => {
                    if cut.is_none() && seen >= after && i > 0 && b[i - 1] == b'\r' {
                        cut = Some((i + 1, seen));
                    }
                    seen += 1;
                }
                b'\r' | 0x20..=0x7e => {}
                0x1b if sgr_or_el(&b[i..]).is_some() => {}
                _ => {
                    // After the line that holds the last other byte (it may end a sequence):
                    // that line's line feed is not one of the plain lines'.
                    seen = seen.checked_sub(1)?;
                    start = i + 1 + b[i + 1..].iter().position(|&c| c == b'\n')? + 1;
                    break;
                }
            }
        }
        let (cut, after_cut) = cut?;
        (cut > start).then_some((start, cut, seen - after_cut))
    }

    /// Applies the SGR of the lines [`Self::jump_span`] skips (their EL erases rows that scroll
    /// away; their text is not printed).
    fn jump_pen(&mut self, skipped: &str) {
        let b = skipped.as_bytes();
        let mut i = 0;
        while let Some(at) = memchr::memchr(0x1b, &b[i..]) {
            let start = i + at;
            match sgr_or_el(&b[start..]) {
                Some((len, true)) => {
                    self.feed_text(&skipped[start..start + len]);
                    i = start + len;
                }
                Some((len, false)) => i = start + len,
                None => i = start + 1,
            }
        }
    }

    /// Whether plain lines fed now may be skipped as [`Self::jump_span`] says: no sequence
    /// in progress, the whole screen scrolls (no scroll region), no single shift waits for
    /// the next character, no combining marks to move, and no stand-ins being handed out
    /// (concealed or linked text).
    fn can_jump(&self) -> bool {
        self.parser.state == State::Ground
            && self.seq.is_ground()
            && self.full_region()
            && !self.charsets.single_shift_pending()
            && self.marks.is_empty()
            && self.pen.pen.extra().is_plain()
            && self.link == 0
    }

    /// Feeds `text` without the final collection of scrolled-off lines.
    fn feed_text(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut next_gc = FEED_CHUNK;
        while i < bytes.len() {
            if i >= next_gc {
                // Wrapping prints scroll too: collect once a chunk (see FEED_CHUNK).
                self.collect_scrolled();
                next_gc = i + FEED_CHUNK;
            }
            // The fast paths, by the first byte; the character-at-a-time path reads what
            // they leave.
            let b = bytes[i];
            let fast = if b == 0x1b {
                self.csi_run(&text[i..])
                    .or_else(|| self.esc_run(&text[i..]))
            } else if b < 0x20 {
                self.control(b).map(|f| {
                    self.apply(None, Some(f));
                    1
                })
            } else {
                self.text_run(&text[i..])
            };
            if let Some(n) = fast {
                i += n;
                continue;
            }
            let ch = text[i..].chars().next().expect("at a char boundary");
            self.feed_char(ch);
            i += ch.len_utf8();
        }
    }
}

impl super::sealed::Sealed for AvtEngine {}

impl Engine for AvtEngine {
    fn feed(&mut self, text: &str) {
        self.rep_work.fed = self.rep_work.fed.saturating_add(text.len() as u64);
        match self.jump_span(text) {
            Some((start, cut, before)) => {
                self.feed_text(&text[..start]);
                // The line feeds before the cut take the cursor to the bottom row.
                let row = self.terminal.cursor().row;
                if self.can_jump() && row + 1 + before >= usize::from(self.size.rows) {
                    // The pen the lines before the cut leave, and where they leave the cursor.
                    self.jump_pen(&text[start..cut]);
                    self.apply(None, Some(Function::Cup(self.size.rows, 1)));
                    self.feed_text(&text[cut..]);
                } else {
                    self.feed_text(&text[start..]);
                }
            }
            None => self.feed_text(text),
        }
        // Take the lines scrolled off the top into the scrollback.
        self.collect_scrolled();
    }

    fn resize(&mut self, size: Size) {
        // Never narrower than MIN_COLS: avt panics reflowing a wide character into 1 column.
        let size = size.at_least_min();
        if size == self.size {
            return;
        }
        // (The cell of what REP repeats moves with the reflow.)
        self.settle_last_graphic();
        if self.deferred_lfs > 0 {
            // (avt reflows the lines above the screen too.)
            self.collect_scrolled();
        }
        self.terminal.resize(size.cols as usize, size.rows as usize);
        self.collect_scrolled();
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
                let (ch, extra, link) = self.stand_ins.decode(c.char());
                let mut attrs = style.attrs;
                attrs.hidden = extra.hidden;
                if extra.bold_faint {
                    (attrs.bold, attrs.dim) = (true, true);
                }
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
                    link,
                });
            }
            if !self.stand_ins.is_empty() {
                // The tail of a concealed (or linked, or bold and faint) wide character is
                // too.
                for c in 1..row.len() {
                    if row[c].width == 0 && row[c - 1].width == 2 {
                        let head = row[c - 1].attrs;
                        let tail = &mut row[c].attrs;
                        (tail.hidden, tail.bold, tail.dim) = (head.hidden, head.bold, head.dim);
                        row[c].link = row[c - 1].link;
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
                let (base, extra, _) = self.stand_ins.decode(*base);
                if cell.text.starts_with(base)
                    && cell.attrs.hidden == extra.hidden
                    && cell.width > 0
                {
                    cell.text.push_str(marks);
                }
            }
        }
        let links = if self.stand_ins.is_empty() {
            Vec::new()
        } else {
            screen_links(&mut rows, &self.links)
        };
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
            title: self.title.clone(),
            alternate: self.terminal.active_buffer_type() == BufferType::Alternate,
            state: TermState {
                icon: self.icon.clone(),
                bells: self.bells,
                clipboard: self.clipboard.clone(),
                links,
                scrollback: self.scrollback_text(),
            },
            modes: self.modes.modes,
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
        let w = self.rep_work;
        w.passed.then(|| {
            format!(
                "the output repeats characters (REP, `CSI n b`) more than tuicast replays: \
                 {REP_WORK_BASE} prints and {REP_WORK_PER_BYTE} more for each byte of output, \
                 {} for the {} bytes so far",
                REP_WORK_BASE.saturating_add(w.fed.saturating_mul(REP_WORK_PER_BYTE)),
                w.fed
            )
        })
    }
}

/// Counts in `unsupported` what of `seq` no engine understands, given this layer's reading of
/// it (`special`) and avt's (`f`): only a sequence this layer does not handle, or DEC private
/// modes (each mode is looked up), may hold such a part.
fn count_unknown(
    unsupported: &mut Unsupported,
    seq: &Sequence,
    special: &Option<Special>,
    f: Option<&Function>,
) {
    if matches!(
        special,
        None | Some(Special::DecModes(..)) | Some(Special::XtSave(..))
    ) {
        unknown::unknown_kinds(seq, f, |kind| unsupported.count(kind));
    }
}

/// Whether BEL read in parser state `state` rings: in the ground state and inside escape and
/// control sequences (where C0 controls are executed), not inside strings (where BEL ends an
/// OSC, or is data).
fn rings(state: State) -> bool {
    matches!(
        state,
        State::Ground
            | State::Escape
            | State::EscapeIntermediate
            | State::CsiEntry
            | State::CsiParam
            | State::CsiIntermediate
            | State::CsiIgnore
    )
}

fn color(c: Option<avt::Color>) -> Color {
    match c {
        None => Color::Default,
        Some(avt::Color::Indexed(i)) => Color::Indexed(i),
        Some(avt::Color::RGB(rgb)) => Color::Rgb(crate::rgb::Rgb(rgb.r, rgb.g, rgb.b)),
    }
}

/// The screen of a 10x4 avt engine after `input` (for tests).
#[cfg(test)]
fn screen(input: &str) -> Screen {
    let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
    e.feed(input);
    e.screen()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn deccolm_is_ignored_by_default() {
        let mut e = AvtEngine::new(Size { cols: 80, rows: 4 });
        e.feed("hello\x1b[2;3r\x1b[3;2H\x1b[?3h");
        let s = e.screen();
        assert_eq!(s.size, Size { cols: 80, rows: 4 });
        assert_eq!(s.row_text(0), "hello", "not cleared");
        assert_eq!((s.cursor.row, s.cursor.col), (2, 1), "not moved");
        e.feed("\x1b[4;1Hkeep\x1b[3;1H\n\nx");
        let s = e.screen();
        assert_eq!(
            (s.row_text(2).as_str(), s.row_text(3).as_str()),
            ("x", "keep"),
            "the scroll region is kept: the line feeds scrolled rows 2 and 3 only"
        );
        e.feed("\x1b[?3l");
        assert_eq!(e.screen().size, Size { cols: 80, rows: 4 });
    }

    #[test]
    fn deccolm_switches_to_132_columns_and_back_with_the_option() {
        let options = EngineOptions::default().with_deccolm(true);
        let mut e = AvtEngine::with_options(Size { cols: 80, rows: 4 }, options);
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
    fn a_capped_rep_leaves_the_screen_that_every_repeat_would() {
        let cases = [
            (Size { cols: 10, rows: 4 }, "x", ""),
            (Size { cols: 9, rows: 3 }, "é", ""),
            (Size { cols: 8, rows: 5 }, "y", "\x1b[2;4r\x1b[3;5H"),
            (Size { cols: 8, rows: 3 }, "z", "\x1b[?7l"),
        ];
        for (size, ch, setup) in cases {
            for n in [1u16, 7, 39, 40, 41, 57, 100, 1001, 65535] {
                let mut capped = AvtEngine::new(size);
                capped.feed(&format!("{setup}ab{ch}\x1b[{n}b"));
                let mut every = AvtEngine::new(size);
                every.feed(&format!("{setup}ab{}", ch.repeat(usize::from(n) + 1)));
                // (The scrollback differs: a capped REP scrolls fewer lines off.)
                let view = |e: &AvtEngine| Screen {
                    state: Default::default(),
                    ..e.screen()
                };
                assert_eq!(view(&capped), view(&every), "{size} {ch:?} {setup:?} {n}");
            }
        }
        let size = Size { cols: 80, rows: 24 };
        assert_eq!(rep_count(65535, size, 1), 1920 + (65535 - 1920) % 80);
        assert_eq!(rep_count(0, size, 1), 1);
    }

    #[test]
    fn without_a_scrollback_line_feeds_are_dropped_in_batches_with_the_same_screens() {
        let size = Size { cols: 10, rows: 4 };
        let mut none = AvtEngine::with_scrollback(size, 0);
        let mut kept = AvtEngine::with_scrollback(size, 100);
        // Line feeds, wrapping prints, a switch of screens and resizes between them.
        let text = "1\r\n2\r\n3\n\n\rabcdefghijklmnop\n\x1b[?1049hx\ny\n\x1b[?1049l\r\nz";
        for (i, piece) in text.split_inclusive('\n').enumerate() {
            none.feed(piece);
            kept.feed(piece);
            assert_eq!(
                none.screen().text(),
                kept.screen().text(),
                "after {piece:?}"
            );
            let cols = if i % 2 == 0 { 7 } else { 10 };
            none.resize(Size { cols, rows: 4 });
            kept.resize(Size { cols, rows: 4 });
        }
        none.feed(&"\n".repeat(LF_BATCH * 3 + 5));
        assert_eq!(none.terminal.lines().count(), 4);
        none.feed("\x1b[Hend");
        assert_eq!(none.screen().row_text(0), "end");
    }

    /// Pieces of output around plain lines: lines that wrap, bare CR and LF, colours, a
    /// scroll region, cursor moves, conceal, a link, a single shift, a combining mark, a wide
    /// character, the alternate screen, a sequence cut in two.
    fn jump_piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::strategy::Strategy;
        proptest::sample::select(vec![
            "ab\r\n",
            "line\r\n",
            "a long line that wraps twice here\r\n",
            "x\n",
            "\r\n",
            "\r",
            "\n",
            "\x1b[31m",
            "\x1b[0m",
            "\x1b[44;1m",
            "\x1b[2;4r",
            "\x1b[r",
            "\x1b[H",
            "\x1b[3;5H",
            "\x1b[8m",
            "\x1b[28m",
            "\x1b]8;;http://x\x1b\\",
            "\x1b]8;;\x1b\\",
            "\x1bN",
            "e\u{301}",
            "e\u{301}\re",
            "0123456789ab\tZ",
            "0123456789ab\x1b[ZZ",
            "+\x1b[1b\x1b[2b",
            "\x1b[3b",
            "cd\x1b[2b",
            "ab\x1b[\n2b",
            "\x1b[1;2m",
            "\x1b[22m",
            "\x1b[1\"q",
            "\x1b[0\"q",
            "\x1b[?2K",
            "\x1b[?J",
            "\x1b[?1J",
            "\x1b[2 @",
            "\x1b[ A",
            "\u{4e2d}",
            "\x1b[?1049h",
            "\x1b[?1049l",
            "\x1b[3",
            "\x1b[4h",
            "\x1b[4l",
            // Every fast path against the character-at-a-time one: C0 controls, ESC
            // sequences, charsets, SGR avt misreads, erases, REP, modes, strings.
            "\x1b(0qx\x1b(B",
            "\x1b)0\x0eqx\x0f",
            "\x1b*0\x1bNq",
            "\x1b7",
            "\x1b8",
            "\x1bM",
            "\x1bD",
            "\x1bE",
            "\x1b=",
            "\x1b>",
            "\x1b#8",
            "\x1b[?25l",
            "\x1b[?7l",
            "\x1b[?7h",
            "\x1b[?6h",
            "\x1b[?6l",
            "\x1b[6m",
            "\x1b[4:3m",
            "\x1b[58;5;1m",
            "\x1b[38;2;1;2;3m",
            "\x1b[5J",
            "\x1b[2J",
            "\x1b[1 q",
            "\x1b[2K",
            "\x1b[3X",
            "\x1b[2P",
            "\x1b[2@",
            "\x1b[10b",
            "\x1b[2S",
            "\x1b[2T",
            "\x1b[L",
            "\x1b[M",
            "\x07\x08\t\x0b\x0c",
            "\x1b]0;title\x07",
            "\x1b]2;t\x1b\\",
            "\x1bP$qm\x1b\\",
            "\x1b[?1049h\x1b[2;3H",
            "\x1b[?1000h\x1b[?1006h",
            "\x1b[!p",
            "\x1bc",
            "\x7f",
            "\u{2500}\u{2502}\u{e9}",
        ])
        .prop_map(str::to_string)
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(1000))]

        /// Fed at once (where many plain lines are skipped, and whole sequences take the
        /// fast paths), the output leaves the same screen, cursor, state and scrollback as fed
        /// a character at a time (where no line is skipped and every sequence is stepped).
        #[test]
        fn skipping_plain_lines_that_scroll_away_changes_nothing(
            pieces in proptest::collection::vec((jump_piece(), 0usize..40), 1..12),
            scrollback in proptest::sample::select(vec![0usize, 3, 40]),
        ) {
            let size = Size { cols: 12, rows: 5 };
            let mut text = String::new();
            for (piece, lines) in &pieces {
                text.push_str(piece);
                for n in 0..*lines {
                    match n % 3 {
                        0 => text.push_str(&format!("{n} plain\r\n")),
                        1 => text.push_str(&format!("\x1b[0{};3{}m{n} dir\x1b[0m\r\n", n % 2, n % 8)),
                        _ => text.push_str(&format!("{n} \x1b[44mbg\x1b[K\r\n")),
                    }
                }
            }
            let mut whole = AvtEngine::with_scrollback(size, scrollback);
            let mut by_char = AvtEngine::with_scrollback(size, scrollback);
            whole.feed(&text);
            let mut buf = [0u8; 4];
            for ch in text.chars() {
                by_char.feed(ch.encode_utf8(&mut buf));
            }
            proptest::prop_assert_eq!(whole.screen(), by_char.screen());
        }
    }

    #[test]
    fn plain_lines_that_scroll_away_are_skipped_only_where_nothing_stays() {
        let size = Size { cols: 12, rows: 5 };
        let e = AvtEngine::with_scrollback(size, 0);
        let lines = |n: usize| (0..n).map(|i| format!("{i}\r\n")).collect::<String>();
        // A screenful before the cut and one after it.
        assert_eq!(e.jump_span(&lines(10)), Some((0, 15, 5)));
        // A screenful after the cut; before it, what is there (the cursor decides).
        assert_eq!(e.jump_span(&lines(6)), Some((0, 3, 1)));
        assert_eq!(e.jump_span(&lines(5)), None);
        // From after the line of the last escape other than SGR and EL; never cutting after
        // a bare LF.
        let text = format!("\x1b[2;3Hred\r\n{}", lines(12));
        assert_eq!(e.jump_span(&text), Some((11, 11 + 7 * 3, 7)));
        let text = format!("\x1b[31mred\x1b[K\r\n{}", lines(12));
        assert_eq!(e.jump_span(&text), Some((0, 13 + 7 * 3, 8)));
        assert_eq!(e.jump_span(&"x\n".repeat(20)), None);
        // The scrollback's lines must be pushed out too.
        let kept = AvtEngine::with_scrollback(size, 40);
        assert_eq!(kept.jump_span(&lines(45)), None);
        assert_eq!(kept.jump_span(&lines(46)), Some((0, 3, 1)));
        // A scroll region keeps rows that a skip would lose.
        let mut region = AvtEngine::with_scrollback(size, 0);
        region.feed("\x1b[2;4r");
        assert!(!region.can_jump());
        let mut e = AvtEngine::with_scrollback(size, 0);
        e.feed(&lines(1000));
        assert_eq!(e.screen().row_text(3), "999");
        assert_eq!((e.screen().cursor.row, e.screen().cursor.col), (4, 0));
    }

    #[test]
    fn lines_a_wrap_scrolled_off_are_kept_across_a_switch_to_the_alternate_screen() {
        // The wrap scrolls `top` off; nothing collects it before the switch in the same
        // event but the switch itself.
        let size = Size { cols: 12, rows: 3 };
        let text = "top\r\n\r\n0123456789abZ\x1b[?1049h";
        let mut e = AvtEngine::with_scrollback(size, 10);
        e.feed(text);
        assert_eq!(e.screen().state.scrollback, vec!["top".to_string()].into());
        let mut by_char = AvtEngine::with_scrollback(size, 10);
        for ch in text.chars() {
            by_char.feed(&ch.to_string());
        }
        assert_eq!(e.screen(), by_char.screen());
    }

    #[test]
    fn lines_scrolled_off_in_one_event_are_dropped_as_they_go() {
        // avt keeps scrolled-off lines until gc; one event of many line feeds (or wrapping
        // prints) must not keep them all.
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        e.feed(&"\n".repeat(100_000));
        assert!(e.terminal.lines().count() <= 4, "line feeds");
        e.feed(&"x".repeat(FEED_CHUNK * 3));
        assert!(
            e.terminal.lines().count() <= 4 + FEED_CHUNK / 10 + 1,
            "wrapping prints"
        );
        e.feed("\x1b[1000S\x1b[1000S\n\x1b[Hend");
        assert_eq!(e.terminal.lines().count(), 4);
        assert_eq!(e.screen().row_text(0), "end");
    }

    #[test]
    fn setting_reports_follow_the_pen_the_margins_and_the_cursor_shape() {
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        let r = |e: &AvtEngine, pt: &str| e.setting_report(pt).unwrap();
        assert_eq!(
            (r(&e, "m"), r(&e, "r"), r(&e, " q")),
            ("0m".into(), "1;4r".into(), "2 q".into())
        );
        e.feed("\x1b[1;4;7;31;48;5;200m\x1b[2;3r\x1b[5 q");
        assert_eq!(r(&e, "m"), "0;1;4;7;31;48;5;200m");
        assert_eq!(r(&e, "r"), "2;3r");
        assert_eq!(r(&e, " q"), "5 q");
        e.feed("\x1b[0;2;8;94;48;2;1;2;3m\x1b[4 q");
        assert_eq!(r(&e, "m"), "0;2;8;94;48;2;1;2;3m");
        assert_eq!(r(&e, " q"), "4 q");
        assert_eq!(e.setting_report("x"), None);
    }

    #[test]
    fn an_overwritten_cell_loses_its_combining_marks() {
        // The same base character printed again is a new cell (neovim redraws accented text
        // so); the marks of other cells stay.
        assert_eq!(screen("e\u{301}x\rey").row_text(0), "ey");
        assert_eq!(screen("e\u{301}a\u{301}\rx").row_text(0), "xa\u{301}");
        assert_eq!(screen("e\u{301}\re\u{302}").row_text(0), "e\u{302}");
        // Over the last column with auto-wrap off, after a wrap, and by a wide character.
        let s = screen("\x1b[?7l\x1b[1;10He\u{301}e");
        assert_eq!(s.rows[0][9].text, "e");
        let s = screen("\x1b[2;1He\u{301}\x1b[1;10Hxe");
        assert_eq!(s.rows[1][0].text, "e");
        let s = screen("e\u{301}a\u{301}\r\u{4e2d}");
        assert_eq!(s.row_text(0), "\u{4e2d}");
        // A repeat overwrites too.
        assert_eq!(screen("ae\u{301}\rx\x1b[b").row_text(0), "xx");
    }

    #[test]
    fn combining_marks_move_and_go_with_their_cells() {
        // As tmux (and xterm) do: inserted and deleted characters move them, erases take
        // them (even off a space, which printing the space again would not show).
        for (input, row) in [
            ("e\u{301}\r\x1b[@", " e\u{301}"),
            ("e\u{301}\r\x1b[2@", "  e\u{301}"),
            ("xe\u{301}\r\x1b[P", "e\u{301}"),
            ("xe\u{301}\r\x1b[2P", ""),
            ("e\u{301}\r\x1b[4hx", "xe\u{301}"),
            (" \u{301}a\u{301}\r\x1b[K", ""),
            (" \u{301}a\u{301}\r\x1b[X", " a\u{301}"),
            ("a\u{301} \u{301}\x1b[1K", ""),
            (" \u{301}\x1b[2K", ""),
            (" \u{301}\x1b[J", " \u{301}"),
            (" \u{301}\r\x1b[J", ""),
            (" \u{301}\x1b[1J", ""),
            (" \u{301}\x1b[2J", ""),
            // The last column: ICH pushes it off.
            ("\x1b[1;10He\u{301}\r\x1b[@", ""),
        ] {
            assert_eq!(screen(input).row_text(0), row, "{input:?}");
        }
        // On another row they stay.
        let s = screen("e\u{301}\r\n\x1b[@\x1b[P\x1b[X\x1b[2K");
        assert_eq!(s.row_text(0), "e\u{301}");
    }

    #[test]
    fn a_tab_at_the_pending_wrap_keeps_the_wrap() {
        // xterm, tmux and xterm.js: the tab finds no stop, the wrap stays pending, and the
        // next character wraps.
        for tab in ["\t", "\x1b[I", "\x1b[3I"] {
            let s = screen(&format!("0123456789{tab}Z"));
            assert_eq!(
                (s.row_text(0).as_str(), s.row_text(1).as_str()),
                ("0123456789", "Z"),
                "{tab:?}"
            );
        }
        // Before the last column a tab still stops on it.
        assert_eq!(screen("012345678\tZ").row_text(0), "012345678Z");
    }

    #[test]
    fn a_backward_tab_at_the_pending_wrap_does_nothing() {
        // As xterm (379, run headless) and xterm.js: CBT leaves the cursor and its pending
        // wrap alone (tmux moves back from the last column).
        for cbt in ["\x1b[Z", "\x1b[Z\x1b[Z", "\x1b[2Z"] {
            let s = screen(&format!("0123456789{cbt}Z"));
            assert_eq!(
                (s.row_text(0).as_str(), s.row_text(1).as_str()),
                ("0123456789", "Z"),
                "{cbt:?}"
            );
        }
        // Anywhere else it moves back to the stop before.
        assert_eq!(screen("012345678\x1b[ZZ").row_text(0), "01234567Z");
        assert_eq!(screen("0123456789\x1b[D\x1b[ZZ").row_text(0), "Z123456789");
    }

    #[test]
    fn rep_repeats_only_a_character_just_printed() {
        // As xterm's `doparsing` keeps `lastchar` (vttest 11.7); tmux and xterm.js agree but
        // where said.
        for (input, row) in [
            ("+\x1b[1b\x1b[2b", "++"),
            ("+\x1b[2b", "+++"),
            ("+\r\x1b[2b", "+"),
            ("ab\x1b[C\x1b[2b", "ab"),
            ("+\x1b[31m\x1b[2b", "+"),
            // xterm's own choices, where tmux and xterm.js differ: after a combining mark the
            // base character (tmux: nothing; xterm.js: with the mark); after DEL nothing
            // (both: the character before it).
            ("e\u{301}\x1b[2b", "e\u{301}ee"),
            ("ab\x7f\x1b[2b", "ab"),
            // What was printed, not what is before the cursor.
            ("ab\x1b[Dc\x1b[b", "acc"),
            ("\x1b[1;9Hxy\x1b[2b", "        xy\nyy"),
            // Through the character set in use now, as printed anew.
            ("\x1b(0q\x1b[b", "──"),
            ("\x1b*0\x1bNq\x1b[2b", "─qq"),
            // A control inside the REP sequence runs first and leaves the character (as in
            // xterm 379, run headless).
            ("ab\x1b[\n2b", "ab\n  bb"),
            ("ab\x1b[\r2b", "bb"),
            ("ab\x1b[2\n;b", "ab\n  bb"),
            // Insert mode and the last column with auto-wrap off (xterm too).
            ("\x1b[4hab\x1b[Hcd\x1b[2b", "cdddab"),
            ("\x1b[?7l\x1b[1;9Habc\x1b[2b", "        ac"),
        ] {
            let s = screen(input);
            let text = format!("{}\n{}", s.row_text(0), s.row_text(1));
            assert_eq!(text.trim_end(), row, "{input:?}");
        }
    }

    #[test]
    fn rep_repeats_the_character_printed_before_a_resize() {
        // (A run of plain text leaves the column of its last character, read when REP
        // needs it: the resize reads it first.)
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        e.feed("012345678");
        e.resize(Size { cols: 5, rows: 4 });
        e.feed("\x1b[2b");
        let text = e.screen().text();
        assert!(text.trim_end().ends_with("56788\n8"), "{text:?}");
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        e.feed("ab");
        e.resize(Size { cols: 20, rows: 4 });
        e.feed("\x1b[2b");
        assert_eq!(e.screen().row_text(0), "abbb");
    }

    #[test]
    fn del_draws_nothing() {
        assert_eq!(screen("a\x7fb").row_text(0), "ab");
    }
}
