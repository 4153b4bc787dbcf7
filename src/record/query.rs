//! Terminal queries in program output, and the answers a terminal would give.
//!
//! Programs ask their terminal things (device attributes, cursor position, colours, modes,
//! the screen's contents) and some wait for the answer. A bare PTY has no terminal to answer,
//! so the recorder answers from the live engine, and records each answer as an `i` event;
//! replay never answers (it has the answers in the cast).
//!
//! [`Responder`] answers what xterm 379 answers as a VT520 (`decTerminalID: 520`) with
//! window operations allowed (`allowWindowOps: true`); docs/reports.md lists
//! the choices and the deliberate differences, and `record::reports_suite` checks every
//! answer against xterm's own (tests/conformance/reports/). Answered:
//! - device attributes (DA1 and DECID, DA2, DA3), XTVERSION (tuicast's own name);
//! - the DSR family: status, CPR and DECXCPR, and the DEC status reports (printer, UDK,
//!   keyboard, locator, macro space, memory checksum, data integrity, multi-session);
//! - DECRQM for every ANSI and DEC mode xterm knows (the engine's modes from the engine,
//!   the others as the program last set them, or xterm's default);
//! - DECRQSS (SGR, DECSTBM, DECSCUSR, DECSCA, DECSCL, DECSCPP, DECSNLS, DECSLPP), the
//!   presentation state reports (DECCIR, DECTABSR) and DECRQCRA (a rectangle's checksum);
//! - XTWINOPS: the reports of sizes in cells and pixels, position and state, title and icon,
//!   the title stack (`CSI 22 t`, `CSI 23 t`); a resize request (`CSI 8 ; r ; c t`,
//!   `CSI 4 ; h ; w t`, DECSLPP `CSI r t`) resizes the terminal (the session records an `r`
//!   event); other window operations are answered as xterm answers them (by nothing);
//! - colours: OSC 4 (palette), 10, 11, 12, 17 and 19 queries, settings and their resets
//!   (OSC 104, 110, 111, 112, 117, 119);
//! - XTGETTCAP (`DCS + q`, from the terminfo of the session's `TERM`);
//! - 8-bit controls after S8C1T (or DECSCL with 8-bit controls): each answer's CSI, DCS,
//!   OSC and ST are then the C1 controls, written to the program as single bytes.
//!
//! The kitty keyboard protocol's flags (`CSI ? u`) are answered from the live engine's flag
//! stack of the screen in use (kitty answers; xterm 379 does not know the protocol).

use std::collections::HashMap;

use crate::term::sequence::{Sequence, SequenceTracker};
use crate::term::state::{osc_effect, OscEffect};
use crate::term::{Engine, NativeEngine, Size};

/// The pixel size of a cell in the XTWINOPS reports (`CSI 14 t`, `CSI 16 t`): width, height.
/// It is the cell of the PNG renderer at its default 16 px font (DejaVu Sans Mono), so a
/// program that sizes images from it fits them to tuicast's screenshots.
pub const CELL_PIXELS: (u16, u16) = (10, 19);

/// Most capability names answered in one XTGETTCAP query; the rest are not answered.
pub(crate) const MAX_TCAP_NAMES: usize = 64;

/// DECSNLS (`CSI Ps * |`, the lines of the screen) as a window operation of its own number:
/// a resize to `Ps` rows.
const LINES: u16 = u16::MAX;

/// Most palette colours one OSC 4 query answers (the rest are not answered).
const MAX_COLOR_ANSWERS: usize = 64;

/// Most cells DECRQCRA sums in one recording (a full 2000x2000 screen 268 times, a cell
/// 2^30 times): past it the checksum queries are not answered, so a program cannot make the
/// recorder work without end on its few bytes each.
const MAX_CHECKSUM_CELLS: u64 = 1 << 30;

/// Most parameters read from one control sequence (the rest are ignored).
const MAX_PARAMS: usize = 16;

/// Most titles (and icon names) the title stack keeps, as in xterm: a push past it drops
/// the oldest.
const MAX_TITLES: usize = 10;

/// The DA1 answer: xterm 379 as a VT520 (65) with 132 columns (1), printer (2), selective
/// erase (6), national replacement sets (9), technical characters (15), locator (16),
/// terminal state interrogation (17), user windows (18), horizontal scrolling (21), ANSI
/// colour (22) and rectangular editing (28).
const DA1: &str = "\x1b[?65;1;2;6;9;15;16;17;18;21;22;28c";

/// The DA2 answer: a VT520 (64), firmware version 379 (xterm's patch level), no ROM
/// cartridge.
const DA2: &str = "\x1b[>64;379;0c";

/// A query found in program output, or a control that changes what later queries are
/// answered (modes, 8-bit controls, titles, colours), in the order the program sent them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum Query {
    /// `CSI c` / `CSI 0 c` / DECID (`ESC Z`): primary device attributes.
    PrimaryAttributes,
    /// `CSI > c`: secondary device attributes.
    SecondaryAttributes,
    /// `CSI = c`: tertiary device attributes (DA3).
    TertiaryAttributes,
    /// `CSI 5 n`: device status.
    Status,
    /// `CSI 6 n` (or `CSI ? 6 n`, DECXCPR, when `private`): cursor position report.
    CursorPosition {
        /// The DEC form, answered with `CSI ? r ; c ; page R`.
        private: bool,
    },
    /// `CSI ? Ps n` for the DEC status reports other than DECXCPR, with the second
    /// parameter (the memory checksum's id).
    DecStatus(u16, u16),
    /// `CSI > q`: terminal name and version.
    Version,
    /// An OSC that queries, sets or resets colours (4, 10–19, 104, 110–119), or sets the
    /// title and icon name (0, 1, 2): its code, its data after the code, and whether BEL
    /// ended it (an answer repeats the terminator).
    Osc {
        /// The OSC's number.
        code: u16,
        /// The text after `code;`.
        data: String,
        /// BEL ended it (else ST).
        bel: bool,
    },
    /// `CSI ? n $ p`: DEC private mode state.
    DecMode(u16),
    /// `CSI n $ p`: ANSI mode state.
    AnsiMode(u16),
    /// `CSI ? Pm h` / `l` (`dec`), `CSI Pm h` / `l`: modes set or reset.
    SetModes {
        /// DEC private modes.
        dec: bool,
        /// Set (`h`) or reset (`l`).
        set: bool,
        /// The modes.
        modes: Vec<u16>,
    },
    /// `CSI ? Pm s` (XTSAVE, `save`) / `CSI ? Pm r` (XTRESTORE).
    SaveModes {
        /// Save, else restore.
        save: bool,
        /// The modes.
        modes: Vec<u16>,
    },
    /// `CSI ? u`: the kitty keyboard protocol's flags in force.
    KittyKeyboard,
    /// `CSI Ps t`: XTWINOPS, with its parameters (reports, the title stack, resizes).
    Window(Vec<u16>),
    /// `CSI Ps $ w` (DECRQPSR): 1 is DECCIR, 2 DECTABSR.
    PresentationState(u16),
    /// `CSI Pid ; Pp ; Pt ; Pl ; Pb ; Pr * y` (DECRQCRA): a rectangle's checksum.
    Checksum(Vec<u16>),
    /// `DCS + q Pt ST` (XTGETTCAP): capability names in hexadecimal, separated by `;`.
    Termcap(String),
    /// `DCS $ q Pt ST` (DECRQSS): the setting `Pt` asks about (`m`, `r`, ` q`, …).
    Setting(String),
    /// S8C1T (`ESC SP G`, true) and S7C1T (`ESC SP F`): 8-bit or 7-bit controls in answers.
    EightBit(bool),
    /// `CSI Pl ; Pc " p` (DECSCL): the conformance level and, with it, 7- or 8-bit controls.
    ConformanceLevel(Vec<u16>),
    /// DECKPAM (`ESC =`, true) and DECKPNM (`ESC >`): the keypad mode, DEC mode 66 too.
    Keypad(bool),
    /// RIS (`ESC c`).
    Reset,
    /// DECSTR (`CSI ! p`).
    SoftReset,
}

/// Finds queries in output that arrives in chunks.
///
/// It reads the output with the escape-sequence tracker whose states both of tuicast's
/// engines follow, so a query is whatever the engines take for one whole control sequence.
#[derive(Debug)]
pub(crate) struct QueryScanner {
    seq: SequenceTracker,
}

/// Longest control sequence collected; longer ones are ignored.
const MAX_SEQ: usize = 256;

impl Default for QueryScanner {
    fn default() -> Self {
        QueryScanner {
            seq: SequenceTracker::new(MAX_SEQ),
        }
    }
}

impl QueryScanner {
    /// A scanner in the ground state.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Scans `text`; returns each query with the byte offset just after it in `text`.
    #[cfg(test)]
    pub(crate) fn scan(&mut self, text: &str) -> Vec<(usize, Query)> {
        self.scan_spans(text)
            .into_iter()
            .map(|(_, end, q)| (end, q))
            .collect()
    }

    /// [`QueryScanner::scan`], each query with the byte offset of its start in `text` too
    /// (`None`: it began in an earlier text).
    pub(crate) fn scan_spans(&mut self, text: &str) -> Vec<(Option<usize>, usize, Query)> {
        let mut found = Vec::new();
        let mut i = 0;
        let bytes = text.as_bytes();
        let mut start = None;
        while i < bytes.len() {
            if self.seq.is_ground() {
                // Only ESC and C1 controls (UTF-8 C2 80..9F) start a sequence.
                match memchr::memchr2(0x1b, 0xc2, &bytes[i..]) {
                    Some(n) => i += n,
                    None => break,
                }
                start = Some(i);
            }
            let ch = text[i..].chars().next().unwrap_or('\0');
            i += ch.len_utf8();
            let query = match self.seq.feed(ch) {
                Some(Sequence::Csi(csi)) if !csi.truncated => self::csi(csi.text, csi.fin),
                Some(Sequence::Osc { data, bel, .. }) => osc(data, bel),
                Some(Sequence::Dcs {
                    head,
                    data,
                    truncated: false,
                }) => dcs(head, data),
                Some(Sequence::Esc { intermediates, fin }) => esc(intermediates, fin),
                _ => None,
            };
            if let Some(q) = query {
                found.push((start, i, q));
            }
        }
        found
    }
}

/// The numeric parameters of a control sequence (empty ones 0), at most [`MAX_PARAMS`];
/// `None` when they are not all numbers.
fn params(p: &str) -> Option<Vec<u16>> {
    if p.is_empty() {
        return Some(Vec::new());
    }
    p.split(';')
        .take(MAX_PARAMS)
        .map(|v| {
            if v.is_empty() {
                Some(0)
            } else {
                v.parse().ok()
            }
        })
        .collect()
}

/// The query a control sequence asks, if it is one (`text` as written, with any private
/// marker and intermediates).
fn csi(text: &str, fin: char) -> Option<Query> {
    let (marker, rest) = match text.chars().next() {
        Some(m @ ('?' | '>' | '=' | '<')) => (Some(m), &text[1..]),
        _ => (None, text),
    };
    let split = rest
        .find(|c: char| (' '..='/').contains(&c))
        .unwrap_or(rest.len());
    let (digits, inter) = rest.split_at(split);
    let p = params(digits)?;
    let p0 = p.first().copied().unwrap_or(0);
    Some(match (marker, inter, fin) {
        (None, "", 'c') if p0 == 0 => Query::PrimaryAttributes,
        (Some('>'), "", 'c') if p0 == 0 => Query::SecondaryAttributes,
        (Some('='), "", 'c') if p0 == 0 => Query::TertiaryAttributes,
        (None, "", 'n') if p0 == 5 => Query::Status,
        (None, "", 'n') if p0 == 6 => Query::CursorPosition { private: false },
        (Some('?'), "", 'n') if p0 == 6 => Query::CursorPosition { private: true },
        (Some('?'), "", 'n') => Query::DecStatus(p0, p.get(1).copied().unwrap_or(0)),
        (Some('>'), "", 'q') if p0 == 0 => Query::Version,
        (Some('?'), "", 'u') if digits.is_empty() => Query::KittyKeyboard,
        (Some('?'), "$", 'p') => Query::DecMode(p0),
        (None, "$", 'p') => Query::AnsiMode(p0),
        (m @ (None | Some('?')), "", 'h' | 'l') => Query::SetModes {
            dec: m.is_some(),
            set: fin == 'h',
            modes: p,
        },
        (Some('?'), "", 's' | 'r') if !p.is_empty() => Query::SaveModes {
            save: fin == 's',
            modes: p,
        },
        (None, "", 't') if !p.is_empty() => Query::Window(p),
        (None, "$", 'w') => Query::PresentationState(p0),
        (None, "*", 'y') => Query::Checksum(p),
        (None, "\"", 'p') => Query::ConformanceLevel(p),
        (None, "*", '|') => Query::Window(vec![LINES, p0]),
        (None, "!", 'p') => Query::SoftReset,
        _ => return None,
    })
}

/// The query a device control string asks, if it is one.
fn dcs(head: &str, data: &str) -> Option<Query> {
    match head {
        "+q" => Some(Query::Termcap(data.to_string())),
        // (Settings are a few characters; anything longer is no setting xterm knows.)
        "$q" if data.len() <= 8 => Some(Query::Setting(data.to_string())),
        _ => None,
    }
}

/// The control an escape sequence is, if the answers follow it.
fn esc(intermediates: &str, fin: char) -> Option<Query> {
    match (intermediates, fin) {
        ("", 'Z') => Some(Query::PrimaryAttributes),
        ("", 'c') => Some(Query::Reset),
        ("", '=') => Some(Query::Keypad(true)),
        ("", '>') => Some(Query::Keypad(false)),
        (" ", 'G') => Some(Query::EightBit(true)),
        (" ", 'F') => Some(Query::EightBit(false)),
        _ => None,
    }
}

fn osc(body: &str, bel: bool) -> Option<Query> {
    let (code, data) = body.split_once(';').unwrap_or((body, ""));
    let code: u16 = code.parse().ok()?;
    matches!(code, 0..=2 | 4 | 10..=19 | 104 | 110..=119).then(|| Query::Osc {
        code,
        data: data.to_string(),
        bel,
    })
}

/// The colours used to answer OSC 10/11/4 queries: `#rrggbb` strings.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AnswerColors {
    /// Default foreground.
    pub fg: String,
    /// Default background.
    pub bg: String,
    /// The 16 palette colours.
    pub palette: Vec<String>,
}

impl Default for AnswerColors {
    /// asciinema's default theme ([`Theme::default`](crate::theme::Theme::default)).
    fn default() -> Self {
        AnswerColors::of(crate::theme::default_theme())
    }
}

impl AnswerColors {
    /// The colours of `theme`: its foreground, background and 16 palette colours (with 8,
    /// the bright ones repeat them).
    pub(crate) fn of(theme: &crate::theme::Theme) -> AnswerColors {
        AnswerColors {
            fg: theme.fg.to_string(),
            bg: theme.bg.to_string(),
            palette: (0..16).map(|i| theme.indexed(i).to_string()).collect(),
        }
    }
}

/// Colours OSC 4 sets and answers: the 256 of the palette, then xterm's special colours
/// (bold, underline, blink, reverse, italic: 256–260), which are the foreground until set.
const PALETTE: usize = 261;

/// A colour as xterm reports it: 16 bits a channel.
type Rgb16 = [u16; 3];

/// The dynamic colours OSC 10–19 name that are answered: foreground (10), background (11),
/// cursor (12), highlight background (17) and highlight foreground (19).
const DYNAMIC: [u16; 5] = [10, 11, 12, 17, 19];

/// What the responder does with a query: an answer to send the program, or a new size for
/// its terminal (a window operation asked for it; the engine has it already).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reply {
    /// Text to send (C1 controls, after S8C1T, go as single bytes: see [`wire_bytes`]).
    Answer(String),
    /// The terminal's new size.
    Resize(Size),
}

/// Answers the queries in program output as xterm 379 does (see the module docs), from the
/// live engine and what it saw the program ask for before: the DEC and ANSI modes the engine
/// does not keep, 8-bit controls, the conformance level, the title stack and the colours.
#[derive(Debug)]
pub(crate) struct Responder {
    scanner: QueryScanner,
    colors: AnswerColors,
    terminfo: Terminfo,
    /// The pixel size of a cell (width, height).
    cell: (u16, u16),
    /// Modes the engine does not keep, as the program last set them: DEC ones, and ANSI
    /// ones (KAM 2, CRM 3, SRM 12) keyed by `ANSI + mode`.
    modes: HashMap<u32, bool>,
    /// XTSAVE's saved modes of those.
    saved_modes: HashMap<u32, bool>,
    eight_bit: bool,
    /// DECSCL's level (61–65).
    level: u16,
    /// The title and icon name as the program last set them (OSC 0, 1, 2, the title stack).
    title: String,
    icon: String,
    /// The title stack, as xterm 379 keeps it: every push saves both the title and the icon
    /// name, every pop takes the top entry and restores the one it names (or both).
    titles: Vec<(String, String)>,
    /// Cells DECRQCRA may still sum ([`MAX_CHECKSUM_CELLS`] at first).
    checksum_cells: u64,
    /// Where XTWINOPS 3 last moved the window (x, y in pixels).
    position: (u16, u16),
    /// Colours the program set: the 256 palette entries and the dynamic ones, by [`DYNAMIC`].
    palette: Vec<Option<Rgb16>>,
    dynamic: [Option<Rgb16>; 5],
}

/// The key of ANSI mode `m` in [`Responder::modes`].
const ANSI: u32 = 1 << 16;

impl Responder {
    /// A responder for a terminal whose type is `term` (for XTGETTCAP), answering colour
    /// queries with `colors`.
    pub(crate) fn new(colors: AnswerColors, term: &str) -> Responder {
        Responder {
            scanner: QueryScanner::new(),
            colors,
            terminfo: Terminfo::new(term),
            cell: CELL_PIXELS,
            modes: HashMap::new(),
            saved_modes: HashMap::new(),
            eight_bit: false,
            level: 65,
            title: String::new(),
            icon: String::new(),
            titles: Vec::new(),
            position: (0, 0),
            checksum_cells: MAX_CHECKSUM_CELLS,
            palette: vec![None; PALETTE],
            dynamic: [None; 5],
        }
    }

    /// Feeds `text` to `engine`, answering the queries in it in order: returns each reply
    /// with the offset in `text` just after the query that asked for it. A resize request
    /// has resized `engine` when its [`Reply::Resize`] comes.
    #[cfg(test)]
    pub(crate) fn respond(&mut self, text: &str, engine: &mut NativeEngine) -> Vec<(usize, Reply)> {
        self.respond_spans(text, engine)
            .into_iter()
            .map(|(_, end, reply)| (end, reply))
            .collect()
    }

    /// [`Responder::respond`], each reply with the byte offset where its query starts in
    /// `text` too (`None`: it began in an earlier text): what a person's terminal, mirroring
    /// a recording by hand, is not to see (it would answer again).
    pub(crate) fn respond_spans(
        &mut self,
        text: &str,
        engine: &mut NativeEngine,
    ) -> Vec<(Option<usize>, usize, Reply)> {
        let queries = self.scanner.scan_spans(text);
        let mut replies = Vec::new();
        let mut pos = 0;
        for (start, end, query) in queries {
            engine.feed(&text[pos..end]);
            pos = end;
            if let Query::Window(p) = &query {
                if let Some(size) = self.requested_size(p, engine) {
                    engine.resize(size);
                    replies.push((start, end, Reply::Resize(size)));
                    continue;
                }
            }
            if let Some(a) = self.answer(&query, engine) {
                replies.push((start, end, Reply::Answer(a)));
            }
        }
        engine.feed(&text[pos..]);
        replies
    }

    /// The size a window operation asks for, if it is a resize the terminal can take:
    /// `8 ; rows ; cols` (0 or missing keeps that one), `4 ; height ; width` in pixels,
    /// DECSLPP (24 or more: that many rows) or DECSNLS (that many rows).
    fn requested_size(&self, p: &[u16], engine: &NativeEngine) -> Option<Size> {
        let now = engine.size();
        let keep = |v: Option<&u16>, current: u16| v.copied().filter(|&v| v > 0).unwrap_or(current);
        let (rows, cols) = match p[0] {
            8 => (keep(p.get(1), now.rows), keep(p.get(2), now.cols)),
            4 => (
                p.get(1)
                    .filter(|&&h| h > 0)
                    .map_or(now.rows, |h| h / self.cell.1),
                p.get(2)
                    .filter(|&&w| w > 0)
                    .map_or(now.cols, |w| w / self.cell.0),
            ),
            LINES => (p.get(1).copied().filter(|&r| r > 0)?, now.cols),
            n if n >= 24 => (n, now.cols),
            _ => return None,
        };
        let size = Size::within_limits(u64::from(cols), u64::from(rows)).ok()?;
        let size = size.for_terminal().ok()?;
        (size != now).then_some(size)
    }

    /// The answer to `query`, or `None` when it has none (or only changes what later ones
    /// are answered); 8-bit controls are applied.
    fn answer(&mut self, query: &Query, engine: &NativeEngine) -> Option<String> {
        let answer = match query {
            Query::PrimaryAttributes => DA1.to_string(),
            Query::SecondaryAttributes => DA2.to_string(),
            // DA3: the unit ID, "DCS ! | D...D ST" (xterm's ctlseqs); xterm sends zeros.
            Query::TertiaryAttributes => "\x1bP!|00000000\x1b\\".to_string(),
            Query::Status => "\x1b[0n".to_string(),
            Query::CursorPosition { private } => {
                let (row, col) = engine.cursor_report();
                if *private {
                    format!("\x1b[?{row};{col};1R")
                } else {
                    format!("\x1b[{row};{col}R")
                }
            }
            Query::DecStatus(ps, id) => dec_status(*ps, *id)?,
            Query::Version => format!("\x1bP>|tuicast({})\x1b\\", env!("CARGO_PKG_VERSION")),
            Query::Osc { code, data, bel } => {
                let answer = self.osc(*code, data, *bel)?;
                return Some(self.framed(answer));
            }
            // ANSI modes are not reported below the VT300 level (DECSCL), as in xterm (DEC
            // private modes still are).
            Query::AnsiMode(_) if self.level < 63 => return None,
            Query::DecMode(mode) => {
                format!("\x1b[?{mode};{}$y", self.mode_report(true, *mode, engine))
            }
            Query::AnsiMode(mode) => {
                format!("\x1b[{mode};{}$y", self.mode_report(false, *mode, engine))
            }
            Query::SetModes { dec, set, modes } => {
                for &m in modes {
                    self.modes.insert(mode_key(*dec, m), *set);
                }
                return None;
            }
            Query::SaveModes { save, modes } => {
                for &m in modes {
                    let key = mode_key(true, m);
                    if *save {
                        match self.modes.get(&key) {
                            Some(&v) => self.saved_modes.insert(key, v),
                            None => self.saved_modes.remove(&key),
                        };
                    } else if let Some(&v) = self.saved_modes.get(&key) {
                        self.modes.insert(key, v);
                    }
                }
                return None;
            }
            // "CSI ? u ... The terminal will reply with: CSI ? flags u" (kitty's keyboard
            // protocol, "Progressive enhancement"): the flags in force on the screen in use.
            Query::KittyKeyboard => format!("\x1b[?{}u", engine.modes().keyboard),
            Query::Window(p) => {
                // Title and icon reports are 7-bit even after S8C1T, as in xterm.
                if let Some(names) = self.titles(p) {
                    return names;
                }
                return self.window_report(p, engine).map(|a| self.framed(a));
            }
            Query::Keypad(on) => {
                self.modes.insert(mode_key(true, 66), *on);
                return None;
            }
            Query::PresentationState(1) => {
                format!("\x1bP1$u{}\x1b\\", engine.presentation_state())
            }
            Query::PresentationState(2) => {
                format!("\x1bP2$u{}\x1b\\", engine.tab_stops_report())
            }
            Query::PresentationState(_) => return None,
            Query::Checksum(p) => {
                if self.checksum_cells == 0 {
                    return None;
                }
                let (sum, cells) = engine.checksum(p);
                self.checksum_cells = self.checksum_cells.saturating_sub(cells);
                let id = p.first().copied().unwrap_or(0);
                format!("\x1bP{id}!~{sum:04X}\x1b\\")
            }
            Query::Termcap(names) => self.terminfo.answer(names),
            // "DCS 1 $ r Pt ST for valid requests, DCS 0 $ r Pt ST for invalid requests"
            // (xterm's ctlseqs, DECRQSS); the invalid answer repeats nothing.
            Query::Setting(pt) => match self.setting(pt, engine) {
                Some(report) => format!("\x1bP1$r{report}\x1b\\"),
                None => "\x1bP0$r\x1b\\".to_string(),
            },
            Query::EightBit(on) => {
                // xterm takes S8C1T only at a level that has 8-bit controls (VT200 and up).
                self.eight_bit = *on && self.level >= 62;
                return None;
            }
            Query::ConformanceLevel(p) => {
                let level = p.first().copied().unwrap_or(0);
                if (61..=65).contains(&level) {
                    self.level = level;
                    self.eight_bit = level >= 62 && p.get(1).copied().unwrap_or(0) != 1;
                }
                return None;
            }
            Query::Reset => {
                self.modes.clear();
                self.saved_modes.clear();
                self.eight_bit = false;
                self.level = 65;
                return None;
            }
            Query::SoftReset => {
                self.modes.remove(&mode_key(false, 2));
                return None;
            }
        };
        Some(self.framed(answer))
    }

    /// `answer` with 8-bit controls when the program chose them: CSI, DCS, OSC and ST as
    /// the C1 controls U+009B, U+0090, U+009D and U+009C. (No answer carries an ESC of its
    /// own in its data: titles lose their control characters, capabilities are in hex.)
    fn framed(&self, answer: String) -> String {
        if !self.eight_bit {
            return answer;
        }
        answer
            .replace("\x1b[", "\u{9b}")
            .replace("\x1bP", "\u{90}")
            .replace("\x1b]", "\u{9d}")
            .replace("\x1b\\", "\u{9c}")
    }

    /// DECRQM's state of a mode: 1 set, 2 reset, 3 permanently set, 4 permanently reset, 0
    /// not recognised; the engine's modes from the engine, the others as the program last
    /// set them or as xterm 379 starts.
    fn mode_report(&self, dec: bool, mode: u16, engine: &NativeEngine) -> u8 {
        let state = |v: bool| if v { 1 } else { 2 };
        if let Some(v) = engine.mode_state(dec, mode) {
            return state(v);
        }
        let default = if dec {
            match mode {
                14 => return 3,
                8 | 46 => return 4,
                2 | 35 | 1010 | 1034 | 1035 | 1040 | 1048 | 1070 => true,
                3 | 4 | 5 | 12 | 13 | 18 | 19 | 30 | 38 | 40 | 41 | 42 | 44 | 45 | 47 | 66 | 67
                | 69 | 80 | 95 | 1001 | 1007 | 1011 | 1016 | 1036 | 1037 | 1039 | 1041 | 1042
                | 1043 | 1044 | 1046 | 1047 | 1049 | 1050 | 1051 | 1060 | 1061 | 2001 | 2002
                | 2003 | 2005 | 2006 | 8452 => false,
                _ => return 0,
            }
        } else {
            match mode {
                1 | 5 | 7 | 10 | 11 | 13..=19 => return 4,
                2 | 3 => false,
                12 => true,
                _ => return 0,
            }
        };
        state(
            self.modes
                .get(&mode_key(dec, mode))
                .copied()
                .unwrap_or(default),
        )
    }

    /// DECRQSS's report of setting `pt`: the engine's, and DECSCL's level and controls.
    fn setting(&self, pt: &str, engine: &NativeEngine) -> Option<String> {
        if pt == "\"p" {
            let bits = if self.level == 61 {
                ""
            } else if self.eight_bit {
                ";0"
            } else {
                ";1"
            };
            return Some(format!("{}{bits}\"p", self.level));
        }
        engine.setting_report(pt)
    }

    /// The operations of XTWINOPS on the title, icon name and position: `Some(Some(answer))`
    /// for the reports (20 icon name, 21 title), `Some(None)` for the stack's push (22) and
    /// pop (23) and a move (3, which CSI 13 t reports), `None` for the others.
    fn titles(&mut self, p: &[u16]) -> Option<Option<String>> {
        let which = p.get(1).copied().unwrap_or(0);
        let (icon, title) = (which != 2, which != 1);
        match p[0] {
            20 => Some(Some(format!("\x1b]L{}\x1b\\", self.icon))),
            21 => Some(Some(format!("\x1b]l{}\x1b\\", self.title))),
            22 => {
                if self.titles.len() == MAX_TITLES {
                    self.titles.remove(0);
                }
                self.titles.push((self.title.clone(), self.icon.clone()));
                Some(None)
            }
            23 => {
                if let Some((t, i)) = self.titles.pop() {
                    if title {
                        self.title = t;
                    }
                    if icon {
                        self.icon = i;
                    }
                }
                Some(None)
            }
            3 => {
                self.position = (
                    p.get(1).copied().unwrap_or(0),
                    p.get(2).copied().unwrap_or(0),
                );
                Some(None)
            }
            _ => None,
        }
    }

    /// The reports of XTWINOPS about the window: its state (11), position (13), size in
    /// pixels (14, 15; the screen is the window here) and cells (18, 19), and the cell's
    /// size (16).
    fn window_report(&self, p: &[u16], engine: &NativeEngine) -> Option<String> {
        let size = engine.size();
        let (w, h) = self.cell;
        let (rows, cols) = (u32::from(size.rows), u32::from(size.cols));
        Some(match p[0] {
            11 => "\x1b[1t".to_string(),
            13 => format!("\x1b[3;{};{}t", self.position.0, self.position.1),
            14 => format!("\x1b[4;{};{}t", rows * u32::from(h), cols * u32::from(w)),
            15 => format!("\x1b[5;{};{}t", rows * u32::from(h), cols * u32::from(w)),
            16 => format!("\x1b[6;{h};{w}t"),
            18 => format!("\x1b[8;{rows};{cols}t"),
            19 => format!("\x1b[9;{rows};{cols}t"),
            _ => return None,
        })
    }

    /// The colour and title OSCs: answers to queries (`?`), and the settings and resets
    /// later queries see.
    fn osc(&mut self, code: u16, data: &str, bel: bool) -> Option<String> {
        let end = if bel { "\x07" } else { "\x1b\\" };
        match code {
            0..=2 => {
                if let OscEffect::Names { title, icon } =
                    osc_effect(&format!("{code};{data}"), false)
                {
                    if let Some(t) = title {
                        self.title = t;
                    }
                    if let Some(i) = icon {
                        self.icon = i;
                    }
                }
                None
            }
            4 => {
                let mut out = String::new();
                let mut parts = data.split(';');
                let mut asked = 0;
                while let (Some(index), Some(spec)) = (parts.next(), parts.next()) {
                    let Some(index) = index.parse::<usize>().ok().filter(|&i| i < PALETTE) else {
                        continue;
                    };
                    if spec == "?" {
                        asked += 1;
                        if asked > MAX_COLOR_ANSWERS {
                            continue;
                        }
                        let rgb =
                            self.palette[index].unwrap_or_else(|| self.default_palette(index));
                        out.push_str(&format!("\x1b]4;{index};{}{end}", xcolor(rgb)));
                    } else if let Some(rgb) = parse_color(spec) {
                        self.palette[index] = Some(rgb);
                    }
                }
                (!out.is_empty()).then_some(out)
            }
            104 => {
                if data.is_empty() {
                    self.palette.iter_mut().for_each(|c| *c = None);
                }
                for index in data.split(';').filter_map(|i| i.parse::<usize>().ok()) {
                    if let Some(c) = self.palette.get_mut(index) {
                        *c = None;
                    }
                }
                None
            }
            110..=119 => {
                if let Some(i) = DYNAMIC.iter().position(|&d| d == code - 100) {
                    self.dynamic[i] = None;
                }
                None
            }
            _ => {
                // OSC 10–19: each part is the next dynamic colour's query or setting.
                let mut out = String::new();
                for (n, spec) in (code..=19).zip(data.split(';')) {
                    let Some(i) = DYNAMIC.iter().position(|&d| d == n) else {
                        continue;
                    };
                    if spec == "?" {
                        let rgb = self.dynamic[i].unwrap_or_else(|| self.default_dynamic(n));
                        out.push_str(&format!("\x1b]{n};{}{end}", xcolor(rgb)));
                    } else if let Some(rgb) = parse_color(spec) {
                        self.dynamic[i] = Some(rgb);
                    }
                }
                (!out.is_empty()).then_some(out)
            }
        }
    }

    /// Palette entry `index` before any program changed it: the 16 colours of the theme,
    /// then xterm's 6×6×6 cube and its 24 greys, then the special colours (the foreground).
    fn default_palette(&self, index: usize) -> Rgb16 {
        if index >= 256 {
            return self.default_dynamic(10);
        }
        if index < 16 {
            return self
                .colors
                .palette
                .get(index)
                .and_then(|h| parse_color(h))
                .unwrap_or([0; 3]);
        }
        let wide = |v: u8| u16::from(v) * 0x101;
        if index < 232 {
            let level = |n: usize| if n == 0 { 0 } else { (55 + 40 * n) as u8 };
            let i = index - 16;
            [
                wide(level(i / 36)),
                wide(level(i / 6 % 6)),
                wide(level(i % 6)),
            ]
        } else {
            let g = wide((8 + 10 * (index - 232)) as u8);
            [g; 3]
        }
    }

    /// Dynamic colour `code` before any program changed it: the foreground (10, and the
    /// cursor 12 and highlight background 17, as xterm's defaults are), the background (11,
    /// and the highlight foreground 19).
    fn default_dynamic(&self, code: u16) -> Rgb16 {
        let hex = if matches!(code, 11 | 19) {
            &self.colors.bg
        } else {
            &self.colors.fg
        };
        parse_color(hex).unwrap_or([0; 3])
    }

    /// Whether the program last set (`Some(true)`) or reset DEC private mode `mode`; `None`
    /// when it did neither since the last RIS.
    pub(crate) fn dec_mode(&self, mode: u16) -> Option<bool> {
        self.modes.get(&mode_key(true, mode)).copied()
    }

    /// The cell size in pixels the reports use (for the suite against xterm, its font's).
    #[cfg(test)]
    pub(crate) fn set_cell_pixels(&mut self, cell: (u16, u16)) {
        self.cell = cell;
    }
}

/// The key of a mode in [`Responder::modes`].
fn mode_key(dec: bool, mode: u16) -> u32 {
    if dec {
        u32::from(mode)
    } else {
        ANSI + u32::from(mode)
    }
}

/// The DEC status reports (`CSI ? Ps n`) as xterm 379 answers them: no printer (15), user
/// keys unlocked (25), a North American keyboard (26), no locator (53, 55, 56), no macro
/// space (62), a zero memory checksum (63, with its id), no data integrity errors (75),
/// not multi-session (85); `None` for the others.
fn dec_status(ps: u16, id: u16) -> Option<String> {
    Some(match ps {
        15 => "\x1b[?13n".to_string(),
        25 => "\x1b[?20n".to_string(),
        26 => "\x1b[?27;1;0;0n".to_string(),
        53 | 55 => "\x1b[?53n".to_string(),
        56 => "\x1b[?57;0n".to_string(),
        62 => "\x1b[0000*{".to_string(),
        63 => format!("\x1bP{id}!~0000\x1b\\"),
        75 => "\x1b[?70n".to_string(),
        85 => "\x1b[?83n".to_string(),
        _ => return None,
    })
}

/// The bytes an answer is written to the program as: UTF-8, except that the C1 controls of
/// 8-bit answers (U+0080–U+009F) are single bytes, as xterm sends them.
pub(crate) fn wire_bytes(answer: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(answer.len());
    for ch in answer.chars() {
        match ch {
            '\u{80}'..='\u{9f}' => out.push(ch as u8),
            _ => out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

/// A colour a program wrote, as X reads it and xterm then keeps it: `rgb:r/g/b` (1–4 hex
/// digits a channel, scaled: `f` is `ffff`) or `#rgb` (1–4 hex digits a channel, all of the
/// same length, the high bits: `#f` is `f000`), then cut to the 8 bits a channel of a
/// 24-bit display keeps (xterm answers `rgb:1/23/456` with `1111/2323/4545`). Colour names
/// and the Xcms spaces (`rgbi:`, `CIEXYZ:`, …) are not read.
fn parse_color(spec: &str) -> Option<Rgb16> {
    let digits = |h: &str| -> Option<u32> {
        if h.is_empty() || h.len() > 4 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(h, 16).ok()
    };
    let eight = |v: u32| (v >> 8) as u16 * 0x101;
    if let Some(rest) = spec.strip_prefix("rgb:") {
        let scaled = |h: &str| -> Option<u16> {
            let max = (1u32 << (4 * h.len())) - 1;
            Some(eight(digits(h)? * 0xffff / max))
        };
        let mut parts = rest.split('/');
        let rgb = [
            scaled(parts.next()?)?,
            scaled(parts.next()?)?,
            scaled(parts.next()?)?,
        ];
        return parts.next().is_none().then_some(rgb);
    }
    let hex = spec.strip_prefix('#')?;
    if hex.is_empty() || hex.len() % 3 != 0 || hex.len() > 12 {
        return None;
    }
    let n = hex.len() / 3;
    let high = |h: &str| -> Option<u16> { Some(eight(digits(h)? << (16 - 4 * h.len()))) };
    Some([
        high(hex.get(..n)?)?,
        high(hex.get(n..2 * n)?)?,
        high(hex.get(2 * n..)?)?,
    ])
}

/// A colour as xterm answers it: `rgb:rrrr/gggg/bbbb`.
fn xcolor(rgb: Rgb16) -> String {
    format!("rgb:{:04x}/{:04x}/{:04x}", rgb[0], rgb[1], rgb[2])
}

/// The terminfo capabilities of the session's terminal type (its `TERM`), read with
/// `infocmp -x -1` the first time a program asks (XTGETTCAP); none when that fails.
#[derive(Debug)]
pub(crate) struct Terminfo {
    term: String,
    caps: Option<HashMap<String, Capability>>,
}

/// A terminfo capability's value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Capability {
    /// A boolean that is set.
    Flag,
    /// A number.
    Number(u32),
    /// A string, with its escapes (`\E`, `^X`, octal) read.
    Text(Vec<u8>),
}

/// Largest `infocmp` output read: terminfo entries are a few kilobytes.
const MAX_INFOCMP_BYTES: usize = 1 << 20;

impl Terminfo {
    /// The capabilities of `term`, read when first asked.
    pub(crate) fn new(term: &str) -> Terminfo {
        Terminfo {
            term: term.to_string(),
            caps: None,
        }
    }

    /// The capabilities of `term` from `infocmp -x -1` output (for tests).
    #[cfg(test)]
    fn parsed(term: &str, infocmp: &str) -> Terminfo {
        Terminfo {
            term: term.to_string(),
            caps: Some(parse_infocmp(infocmp)),
        }
    }

    fn caps(&mut self) -> &HashMap<String, Capability> {
        let term = &self.term;
        self.caps.get_or_insert_with(|| {
            let safe = !term.is_empty()
                && term.len() <= 128
                && term
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-+._".contains(&b));
            if !safe {
                return HashMap::new();
            }
            let out = std::process::Command::new("infocmp")
                .args(["-x", "-1", "--", term])
                .stdin(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .output();
            match out {
                Ok(o) if o.status.success() && o.stdout.len() <= MAX_INFOCMP_BYTES => {
                    parse_infocmp(&String::from_utf8_lossy(&o.stdout))
                }
                _ => HashMap::new(),
            }
        })
    }

    /// The answers to XTGETTCAP for `names` (hexadecimal names separated by `;`): for each
    /// name, one `DCS 1 + r NAME=VALUE ST` (the value in hexadecimal; no `=VALUE` for a
    /// boolean) when the terminal type has it, `DCS 0 + r NAME ST` otherwise, in order (as
    /// kitty answers; xterm packs known names into one answer and stops at the first unknown
    /// one). `TN` and `name` are the terminal type's name, `Co` its `colors`, as in xterm.
    /// At most [`MAX_TCAP_NAMES`] names are answered.
    fn answer(&mut self, names: &str) -> String {
        let mut out = String::new();
        for hex in names.split(';').take(MAX_TCAP_NAMES) {
            let value = unhex(hex).and_then(|name| self.lookup(&name));
            match value {
                Some(Capability::Flag) => out.push_str(&format!("\x1bP1+r{hex}\x1b\\")),
                Some(Capability::Number(n)) => out.push_str(&format!(
                    "\x1bP1+r{hex}={}\x1b\\",
                    to_hex(n.to_string().as_bytes())
                )),
                Some(Capability::Text(v)) => {
                    out.push_str(&format!("\x1bP1+r{hex}={}\x1b\\", to_hex(&v)))
                }
                // (Only hexadecimal is repeated back: the name came from the program.)
                None if hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    out.push_str(&format!("\x1bP0+r{hex}\x1b\\"))
                }
                None => out.push_str("\x1bP0+r\x1b\\"),
            }
        }
        out
    }

    fn lookup(&mut self, name: &str) -> Option<Capability> {
        match name {
            "TN" | "name" => return Some(Capability::Text(self.term.clone().into_bytes())),
            "Co" => return self.caps().get("colors").cloned(),
            _ => {}
        }
        self.caps().get(name).cloned()
    }
}

/// Reads `infocmp -1` output: one capability a line (`am,`, `colors#0x100,`,
/// `cup=\E[%i%p1%d;%p2%dH,`); comments, the names line and cancelled ones (`name@`) skipped.
fn parse_infocmp(text: &str) -> HashMap<String, Capability> {
    let mut caps = HashMap::new();
    for line in text.lines() {
        let Some(body) = line.strip_prefix('\t') else {
            continue; // a comment or the names line
        };
        let body = body.trim_end().strip_suffix(',').unwrap_or(body);
        let end = body.find(['=', '#']).unwrap_or(body.len());
        let (name, rest) = body.split_at(end);
        if name.is_empty() || name.ends_with('@') {
            continue;
        }
        let cap = if let Some(v) = rest.strip_prefix('=') {
            Capability::Text(unescape_terminfo(v))
        } else if let Some(n) = rest.strip_prefix('#') {
            let parsed = match n.strip_prefix("0x") {
                Some(h) => u32::from_str_radix(h, 16),
                None if n.len() > 1 && n.starts_with('0') => u32::from_str_radix(&n[1..], 8),
                None => n.parse(),
            };
            match parsed {
                Ok(v) => Capability::Number(v),
                Err(_) => continue,
            }
        } else {
            Capability::Flag
        };
        caps.insert(name.to_string(), cap);
    }
    caps
}

/// A terminfo string value as bytes: `\E` and `\e` ESC, `^X` control characters, `\n`,
/// `\r`, `\t`, `\b`, `\f`, `\s`, `\l`, `\0` (NUL), octal `\NNN`, and `\^`, `\\`, `\,`,
/// `\:` for themselves.
fn unescape_terminfo(v: &str) -> Vec<u8> {
    let b = v.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() => {
                i += 1;
                let c = b[i];
                match c {
                    b'E' | b'e' => out.push(0x1b),
                    b'n' | b'l' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'b' => out.push(0x08),
                    b'f' => out.push(0x0c),
                    b's' => out.push(b' '),
                    b'0'..=b'7' => {
                        let digits = b[i..]
                            .iter()
                            .take(3)
                            .take_while(|d| (b'0'..=b'7').contains(d));
                        let n = digits.clone().count();
                        let value = digits.fold(0u32, |a, d| a * 8 + u32::from(d - b'0'));
                        out.push(value as u8);
                        i += n - 1;
                    }
                    other => out.push(other),
                }
            }
            b'^' if i + 1 < b.len() => {
                i += 1;
                out.push(if b[i] == b'?' { 0x7f } else { b[i] & 0x1f });
            }
            other => out.push(other),
        }
        i += 1;
    }
    out
}

/// Upper-case hexadecimal, two digits a byte (XTGETTCAP's encoding).
fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

/// The text a hexadecimal name encodes, if it is one (an even count of hex digits, printable
/// ASCII, at most 64 characters).
fn unhex(hex: &str) -> Option<String> {
    if hex.is_empty() || hex.len() % 2 != 0 || hex.len() > 128 {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect();
    let bytes = bytes?;
    bytes
        .iter()
        .all(|b| (0x21..0x7f).contains(b))
        .then(|| String::from_utf8(bytes).ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_queries_even_split_across_chunks() {
        let text =
            "a\x1b[6nb\x1b[c\x1b[>0c\x1b]11;?\x07\x1b]4;1;?\x1b\\\x1b[?2004$p\x1b[?u\x1b[5n\x1b[>q\x1bZ\x1b[?1;2004h";
        let mut whole = QueryScanner::new();
        let found: Vec<Query> = whole.scan(text).into_iter().map(|(_, q)| q).collect();
        let osc = |code: u16, data: &str, bel: bool| Query::Osc {
            code,
            data: data.to_string(),
            bel,
        };
        assert_eq!(
            found,
            vec![
                Query::CursorPosition { private: false },
                Query::PrimaryAttributes,
                Query::SecondaryAttributes,
                osc(11, "?", true),
                osc(4, "1;?", false),
                Query::DecMode(2004),
                Query::KittyKeyboard,
                Query::Status,
                Query::Version,
                Query::PrimaryAttributes,
                Query::SetModes {
                    dec: true,
                    set: true,
                    modes: vec![1, 2004]
                },
            ]
        );
        for split in 0..text.len() {
            if !text.is_char_boundary(split) {
                continue;
            }
            let mut s = QueryScanner::new();
            let mut got: Vec<Query> = s.scan(&text[..split]).into_iter().map(|(_, q)| q).collect();
            got.extend(s.scan(&text[split..]).into_iter().map(|(_, q)| q));
            assert_eq!(got, found, "split at {split}");
        }
        let mut s = QueryScanner::new();
        assert_eq!(s.scan("xy\x1b[6nz")[0].0, 6, "offset just after the query");
        let spans: Vec<_> = QueryScanner::new()
            .scan_spans("xy\x1b[6nz\x1b[31m\x1b[c")
            .into_iter()
            .map(|(start, end, _)| (start, end))
            .collect();
        assert_eq!(
            spans,
            [(Some(2), 6), (Some(12), 15)],
            "where each query starts"
        );
        let mut split = QueryScanner::new();
        assert!(split.scan_spans("ab\x1b[").is_empty());
        assert_eq!(
            split.scan_spans("6n")[0].0,
            None,
            "begun in the text before"
        );
    }

    /// The answers to the queries in `text` from an 80x24 engine, each query answered after
    /// the output before it (setting `1004` after a query does not change its answer).
    fn answers(text: &str, terminfo: Terminfo) -> Vec<String> {
        let mut engine = NativeEngine::new(crate::term::Size { cols: 80, rows: 24 });
        let mut r = Responder::new(AnswerColors::default(), "xterm");
        r.terminfo = terminfo;
        r.respond(text, &mut engine)
            .into_iter()
            .map(|(_, reply)| match reply {
                Reply::Answer(a) => a,
                Reply::Resize(size) => format!("resize {size}"),
            })
            .collect()
    }

    #[test]
    fn the_kitty_query_answers_the_flags_of_the_screen_in_use() {
        let one = |screen: &str| {
            answers(&format!("{screen}\x1b[?u"), Terminfo::parsed("xterm", "")).remove(0)
        };
        assert_eq!(one(""), "\x1b[?0u", "no flags pushed");
        assert_eq!(one("\x1b[>1u"), "\x1b[?1u");
        assert_eq!(one("\x1b[>1u\x1b[>11u"), "\x1b[?11u");
        assert_eq!(one("\x1b[>1u\x1b[>11u\x1b[<u"), "\x1b[?1u");
        assert_eq!(one("\x1b[>1u\x1b[=4;2u"), "\x1b[?5u");
        // The alternate screen has a stack of its own, and the main one is kept meanwhile.
        assert_eq!(one("\x1b[>1u\x1b[?1049h"), "\x1b[?0u");
        assert_eq!(one("\x1b[>1u\x1b[?1049h\x1b[>3u"), "\x1b[?3u");
        assert_eq!(one("\x1b[>1u\x1b[?1049h\x1b[>3u\x1b[?1049l"), "\x1b[?1u");
        assert_eq!(one("\x1b[>1u\x1bc"), "\x1b[?0u", "RIS");
    }

    #[test]
    fn answers_follow_the_output_before_each_query() {
        let got = answers(
            "\x1b[5;10H\x1b[6n\x1b[?1004$p\x1b[?1004h\x1b[?1004$p\x1b[?1;2004;1000;1002h\
             \x1b[?1000$p\x1b[?1002$p\x1b[?2026$p\x1b[?2026h\x1b[?2026$p\x1b]11;?\x07",
            Terminfo::parsed("xterm", ""),
        );
        assert_eq!(
            got,
            [
                "\x1b[5;10R",
                "\x1b[?1004;2$y",
                "\x1b[?1004;1$y",
                // 1002 replaced 1000: reset now, as xterm answers.
                "\x1b[?1000;2$y",
                "\x1b[?1002;1$y",
                // Synchronized output: xterm 379 does not know it, set or not.
                "\x1b[?2026;0$y",
                "\x1b[?2026;0$y",
                "\x1b]11;rgb:1212/1313/1414\x07",
            ]
        );
    }

    #[test]
    fn colour_queries_are_answered_from_asciinemas_theme_by_default() {
        let got = answers(
            "\x1b]10;?\x07\x1b]4;1;?\x07\x1b]4;9;?\x07\x1b]4;15;?\x07\x1b]4;196;?\x07",
            Terminfo::parsed("xterm", ""),
        );
        assert_eq!(
            got,
            [
                "\x1b]10;rgb:cccc/cccc/cccc\x07",
                "\x1b]4;1;rgb:dddd/3c3c/6969\x07",
                "\x1b]4;9;rgb:dddd/3c3c/6969\x07",
                "\x1b]4;15;rgb:ffff/ffff/ffff\x07",
                "\x1b]4;196;rgb:ffff/0000/0000\x07",
            ]
        );
    }

    #[test]
    fn a_resize_request_resizes_the_engine_within_the_limits() {
        let mut engine = NativeEngine::new(crate::term::Size { cols: 80, rows: 24 });
        let mut r = Responder::new(AnswerColors::default(), "xterm");
        let text = "ab\x1b[8;10;40tcd\x1b[8;0;0t\x1b[8;9999;9999t\x1b[4;190;300t\x1b[18t";
        let got = r.respond(text, &mut engine);
        let size = |cols, rows| Reply::Resize(Size { cols, rows });
        assert_eq!(
            got,
            [
                (12, size(40, 10)),
                (48, size(30, 10)),
                (53, Reply::Answer("\x1b[8;10;30t".into())),
            ],
            "the same size and one past the limits are no resize"
        );
        assert_eq!(engine.size(), Size { cols: 30, rows: 10 });
    }

    #[test]
    fn eight_bit_answers_after_s8c1t_go_as_single_bytes() {
        let got = answers("\x1b G\x1b[5n\x1b F\x1b[5n", Terminfo::parsed("xterm", ""));
        assert_eq!(got, ["\u{9b}0n", "\x1b[0n"]);
        assert_eq!(wire_bytes(&got[0]), b"\x9b0n");
        assert_eq!(
            wire_bytes("\x1b]l\u{e9}\x1b\\"),
            "\x1b]l\u{e9}\x1b\\".as_bytes()
        );
    }

    #[test]
    fn colour_answers_and_checksums_are_bounded() {
        let many = "1;?;".repeat(MAX_COLOR_ANSWERS + 10);
        let got = answers(&format!("\x1b]4;{many}\x07"), Terminfo::parsed("xterm", ""));
        assert_eq!(got[0].matches("\x1b]4;1;").count(), MAX_COLOR_ANSWERS);
        // (The budget made small: 2^30 cells take a minute in a debug build.)
        let mut engine = NativeEngine::new(Size { cols: 80, rows: 24 });
        let mut r = Responder::new(AnswerColors::default(), "xterm");
        r.checksum_cells = 10 * 80 * 24 + 1;
        let text = "\x1b[1;1;1;1*y".repeat(14);
        let got = r.respond(&text, &mut engine);
        assert_eq!(
            got.len(),
            11,
            "whole screens answered until the budget is spent"
        );
        assert_eq!(MAX_CHECKSUM_CELLS / (2000 * 2000), 268);
    }

    #[test]
    fn colour_specs_are_read_as_xterm_reads_them() {
        assert_eq!(parse_color("rgb:1/23/456"), Some([0x1111, 0x2323, 0x4545]));
        assert_eq!(parse_color("rgb:ffff/0/8000"), Some([0xffff, 0, 0x8080]));
        assert_eq!(parse_color("#abcdef"), Some([0xabab, 0xcdcd, 0xefef]));
        assert_eq!(parse_color("#fff"), Some([0xf0f0; 3]));
        assert_eq!(parse_color("#f00f00f00"), Some([0xf0f0; 3]));
        assert_eq!(parse_color("#800080008000"), Some([0x8080; 3]));
        for bad in [
            "red",
            "rgb:1/2",
            "rgb:1/2/3/4",
            "rgb:12345/0/0",
            "#abcd",
            "#",
            "rgb:x/0/0",
        ] {
            assert_eq!(parse_color(bad), None, "{bad}");
        }
    }

    const INFOCMP: &str =
        "#\tReconstructed via infocmp from file: /lib/terminfo/x/xterm-256color\n\
        xterm-256color|xterm with 256 colors,\n\
        \tam,\n\tbw@,\n\tcolors#0x100,\n\tit#8,\n\tpairs#0100,\n\
        \tcup=\\E[%i%p1%d;%p2%dH,\n\tkbs=^?,\n\tkf1=\\EOP,\n\tx=a\\,b\\072\\s^A\\0,\n";

    #[test]
    fn infocmp_output_is_read_with_its_escapes() {
        let caps = parse_infocmp(INFOCMP);
        assert_eq!(caps["am"], Capability::Flag);
        assert!(!caps.contains_key("bw"), "cancelled");
        assert_eq!(caps["colors"], Capability::Number(256));
        assert_eq!(caps["it"], Capability::Number(8));
        assert_eq!(caps["pairs"], Capability::Number(64), "octal");
        assert_eq!(
            caps["cup"],
            Capability::Text(b"\x1b[%i%p1%d;%p2%dH".to_vec())
        );
        assert_eq!(caps["kbs"], Capability::Text(vec![0x7f]));
        assert_eq!(caps["x"], Capability::Text(b"a,b: \x01\x00".to_vec()));
        assert_eq!(caps.len(), 8);
    }

    #[test]
    fn xtgettcap_answers_each_name_known_or_not() {
        let t = || Terminfo::parsed("xterm-256color", INFOCMP);
        let hex = |s: &str| to_hex(s.as_bytes());
        let q = format!(
            "\x1bP+q{};{};{};{};{};zz;{}\x1b\\",
            hex("colors"),
            hex("am"),
            hex("kf1"),
            hex("nope"),
            hex("TN"),
            hex("Co")
        );
        let got = answers(&q, t());
        let want = format!(
            "\x1bP1+r{}={}\x1b\\\x1bP1+r{}\x1b\\\x1bP1+r{}={}\x1b\\\x1bP0+r{}\x1b\\\
             \x1bP1+r{}={}\x1b\\\x1bP0+r\x1b\\\x1bP1+r{}={}\x1b\\",
            hex("colors"),
            hex("256"),
            hex("am"),
            hex("kf1"),
            hex("\x1bOP"),
            hex("nope"),
            hex("TN"),
            hex("xterm-256color"),
            hex("Co"),
            hex("256"),
        );
        assert_eq!(got, [want]);
        assert_eq!(hex("colors"), "636F6C6F7273");
        // Lower-case hex reads too; the answer repeats the name as asked.
        assert_eq!(
            answers("\x1bP+q636f6c6f7273\x1b\\", t()),
            [format!("\x1bP1+r636f6c6f7273={}\x1b\\", hex("256"))]
        );
        // A query of many names answers the first MAX_TCAP_NAMES.
        let many = vec![hex("am"); MAX_TCAP_NAMES + 10].join(";");
        let got = answers(&format!("\x1bP+q{many}\x1b\\"), t());
        assert_eq!(got[0].matches("\x1bP1+r").count(), MAX_TCAP_NAMES);
        // A terminal type that is no name is never looked up.
        let mut odd = Terminfo::new("../x;rm");
        assert_eq!(odd.lookup("colors"), None);
    }
}
