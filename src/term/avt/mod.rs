//! Adapter for `avt`, asciinema's virtual terminal: the second engine, for differential replay
//! (`engine = "avt"`; the native engine, `src/term/native/`, is the default and follows the
//! same rules).
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
//! The files: `engine.rs` (the [`Engine`] trait: feeding, resizing, reading the screen
//! back), `runs.rs` (the fast paths of feeding: text runs, controls, escape and control
//! sequences), `jump.rs` (the jump scroll), `marks.rs` (combining marks beside avt's cells),
//! `tests.rs`, `csi.rs` (the plain SGR, cursor-move and erase sequences read into avt's
//! functions as avt's parser reads them: the full-screen fast path), `pen.rs` (the pen
//! shadow), `sgr.rs`, `special.rs` (the sequences this layer handles itself), `standins.rs`
//! (hidden text, bold with faint, DECSCA protection and hyperlinks as private-use stand-ins in
//! avt's own cells), `edits.rs` (DECSED, DECSEL, SL and SR made of avt's cursor moves, erases
//! and insertions), `modes.rs` (the shadow of [`Modes`](crate::term::Modes)), `unknown.rs` (the
//! sequences nothing understood, by kind).

mod csi;
mod edits;
mod engine;
mod jump;
mod marks;
mod modes;
mod pen;
mod runs;
mod sgr;
mod special;
mod standins;
mod unknown;

pub(in crate::term) use unknown::{
    dcs_kind, is_answered_query, KNOWN_DEC_MODES as FOLLOWED_DEC_MODES,
};

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

use avt::parser::{AnsiMode, DecMode, Function, Parser, SgrOp, State};
use avt::terminal::{BufferType, Terminal};
use unicode_width::UnicodeWidthChar;

use super::charsets::Charsets;
use super::sequence::{Csi, Sequence, SequenceTracker};
use super::state::{push_clipboard, screen_links, ClipboardWrite, LinkTable, OscEffect};
use super::work::Work;
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
    /// REP's prints, against the engines' work budget (`term::work`).
    rep_work: Work,
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
            rep_work: Work::default(),
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
        let alternate = self.terminal.active_buffer_type() == BufferType::Alternate;
        self.modes.keyboard.modes(self.modes.modes, alternate)
    }

    /// The answer to DECRQSS (`DCS $ q Pt ST`) for the setting `pt` as xterm gives it,
    /// without its framing: `0;1;91m` for SGR (`m`; bold red is reported bright, as xterm shows it), `2;20r` for the scroll region
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
            Some(Special::ScrollColumns(left, n)) => self.scroll_columns(left, n, 0),
            Some(Special::EditColumns(left, n)) => {
                let col = self
                    .terminal
                    .cursor()
                    .col
                    .min(usize::from(self.size.cols) - 1);
                self.scroll_columns(left, n, col);
            }
            Some(Special::ColumnIndex(back)) => self.column_index(back),
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
            Some(Special::Keyboard(params, fin)) => {
                let alternate = self.terminal.active_buffer_type() == BufferType::Alternate;
                self.modes.keyboard.follow(&params, fin, alternate);
            }
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
            // IL and DL leave the cursor at the left margin, as in xterm (avt keeps its column),
            // and outside the scroll region they do nothing (avt edits from the cursor's row).
            let to_margin = matches!(f, Function::Il(_) | Function::Dl(_));
            let row = self.terminal.cursor().row;
            if to_margin && (row < usize::from(self.margins.0) || row > usize::from(self.margins.1))
            {
                return;
            }
            self.execute(f);
            if to_margin {
                self.terminal.execute(Function::Cr);
            }
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
            OscEffect::Ignored | OscEffect::Unknown(_) | OscEffect::ShellMark { .. } => {}
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
            // The modes that save and restore the cursor take the character sets too, as
            // xterm's do (`CursorSave`).
            Function::Decset(ref modes) if modes.iter().any(saves_cursor) => {
                self.saved_charsets = self.charsets
            }
            Function::Decrst(ref modes) if modes.iter().any(saves_cursor) => {
                self.charsets = self.saved_charsets
            }
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
        if !self.rep_work.take(count as u64, super::work::REP) {
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
        let wide = ch.width() == Some(2);
        if wide && cursor.col + 2 == cols && !self.modes.insert && self.on_wide_tail(cursor) {
            // avt would wrap a wide character printed over the second half of another one in
            // the last two columns; it fits there, as in xterm (`a本`, then 日 on the third of
            // four columns, is `a 日`): blank both halves first (a space printed on the first).
            self.terminal.execute(Function::Cub(1));
            self.terminal.execute(Function::Print(' '));
        }
        let cursor = self.terminal.cursor();
        let wraps = cursor.col >= cols || (cursor.col + 1 == cols && wide);
        let insert = self.modes.insert;
        if insert {
            self.insert_room(cursor, wide, wraps);
        }
        // Printing at the pending-wrap position wraps, and may scroll.
        if wraps && !self.marks.is_empty() {
            self.line_feed_marks();
        }
        let extra = self.pen.pen.extra();
        let stored = if !extra.is_plain() || self.link != 0 || StandIns::in_range(ch) {
            self.stand_ins.stand_in(ch, extra, self.link)
        } else {
            ch
        };
        if insert && wraps {
            // (avt would shift the row it leaves; `insert_room` made the room.)
            self.terminal.execute(Function::Rm(vec![AnsiMode::Insert]));
        }
        // A wide character that does not fit in the last column wraps and leaves that column
        // as it was, as in xterm (avt blanks it): put back after the print.
        let left_behind = (wide && cursor.col + 1 == cols && self.modes.modes.autowrap)
            .then(|| {
                self.terminal
                    .view()
                    .nth(cursor.row)
                    .map(|l| l.cells()[cols - 1])
            })
            .flatten()
            .filter(|cell| cell.width() == 1);
        self.terminal.execute(Function::Print(stored));
        if insert && wraps {
            self.terminal.execute(Function::Sm(vec![AnsiMode::Insert]));
        }
        if let Some(cell) = left_behind {
            let scrolled = cursor.row == usize::from(self.margins.1);
            self.put_back_last_cell(cursor.row, scrolled, cell);
        }
        if !self.marks.is_empty() {
            self.unmark_printed(cursor, ch);
        }
        // (Without auto-wrap nothing scrolled in: a wide character at the last column is put
        // before it, and the cells after it stay.)
        if wraps
            && self.modes.modes.autowrap
            && cursor.row == self.margins.1 as usize
            && !self.pen.pen.is_background_only()
        {
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

    /// Puts `cell` back on the last column of the row the cursor was on, `row`, after a
    /// wide character that did not fit there wrapped (onto the next row, or the one that
    /// `scrolled` in).
    fn put_back_last_cell(&mut self, row: usize, scrolled: bool, cell: avt::Cell) {
        let after = self.terminal.cursor();
        if !scrolled && row + 1 == usize::from(self.size.rows) && self.size.cols <= 2 {
            // (It stayed on the screen's last row, outside the region, and went over the
            // cell: there are only two columns.)
            return;
        }
        let row = if scrolled {
            match row.checked_sub(1) {
                Some(r) if row > usize::from(self.margins.0) => r,
                // (The row scrolled out of a one-row region: the native engine blanks the
                // cell there too.)
                _ => return,
            }
        } else {
            row
        };
        let insert = self.modes.insert;
        self.edit(after, |e| {
            if insert {
                e.terminal.execute(Function::Rm(vec![AnsiMode::Insert]));
            }
            e.goto(row, usize::from(e.size.cols) - 1);
            e.terminal
                .execute(Function::Sgr(edits::pen_ops(cell.pen())));
            e.terminal.execute(Function::Print(cell.char()));
            e.terminal.execute(Function::Sgr(e.pen.pen.ops()));
            if insert {
                e.terminal.execute(Function::Sm(vec![AnsiMode::Insert]));
            }
        });
    }

    /// Insert mode, before a character is printed at `cursor`: room for it as xterm makes it,
    /// as many cells as it takes (avt shifts one, whatever the width), and, where it wraps onto
    /// the next row, on that row (avt shifts none there, and would shift the row it leaves).
    fn insert_room(&mut self, cursor: avt::terminal::Cursor, wide: bool, wraps: bool) {
        let width = 1 + usize::from(wide);
        if !wraps {
            if wide {
                self.terminal.execute(Function::Ich(1));
            }
            if !self.marks.is_empty() {
                self.shift_marks(cursor.row, cursor.col, width as isize);
            }
            return;
        }
        let last_row = usize::from(self.size.rows) - 1;
        if !self.modes.modes.autowrap
            || cursor.row == usize::from(self.margins.1)
            || cursor.row == last_row
        {
            return; // (it stays on its row, or a blank row scrolls in)
        }
        self.edit(cursor, |e| {
            // (With the whole pen, as avt's own insert mode shifts.)
            e.terminal.execute(Function::Sgr(e.pen.pen.ops()));
            e.goto(cursor.row + 1, 0);
            e.terminal.execute(Function::Ich(width as u16));
        });
        if !self.marks.is_empty() {
            self.shift_marks(cursor.row + 1, 0, width as isize);
        }
    }

    /// Whether the cursor is on the second half of a wide character.
    fn on_wide_tail(&self, cursor: avt::terminal::Cursor) -> bool {
        self.terminal
            .view()
            .nth(cursor.row)
            .and_then(|line| line.cells().get(cursor.col))
            .is_some_and(|c| c.width() == 0)
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
pub(in crate::term) fn decscusr(shape: CursorShape) -> u16 {
    use super::CursorKind;
    let base = match shape.kind {
        CursorKind::Underline => 3,
        CursorKind::Bar => 5,
        _ => 1,
    };
    base + u16::from(!shape.blinking)
}

fn saves_cursor(m: &DecMode) -> bool {
    matches!(m, DecMode::SaveCursor | DecMode::SaveCursorAltScreenBuffer)
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

/// Counts in `unsupported` what of `seq` no engine understands, given this layer's reading of
/// it (`special`) and avt's (`f`): only a sequence this layer does not handle, or DEC private
/// modes set or reset (each mode is looked up), may hold such a part.
fn count_unknown(
    unsupported: &mut Unsupported,
    seq: &Sequence,
    special: &Option<Special>,
    f: Option<&Function>,
) {
    // (XTSAVE and XTRESTORE are understood: this layer saves and restores the modes.)
    if matches!(special, None | Some(Special::DecModes(..))) {
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

pub(super) fn color(c: Option<avt::Color>) -> Color {
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
mod tests;
