//! Terminal queries in program output, and the answers a terminal would give.
//!
//! Programs ask their terminal things (device attributes, cursor position, colours) and some
//! wait for the answer. A bare PTY has no terminal to answer, so the recorder answers from the
//! live engine, and records each answer as an `i` event.
//!
//! Answered: device attributes (DA1, DA2, DA3), device status and cursor position reports,
//! the terminal version (XTVERSION), colours (OSC 10, 11, 4), mode states (DECRQM),
//! XTGETTCAP (`DCS + q`, from the terminfo of the session's `TERM`), the XTWINOPS size reports
//! (`CSI 14 t`, `16 t`, `18 t`) and DECRQSS (`DCS $ q`) for SGR, DECSTBM and DECSCUSR, read
//! from the live engine, and the kitty keyboard protocol's flags (`CSI ? u`), from the live
//! engine's flag stack of the screen in use.

use std::collections::HashMap;

use crate::term::sequence::{DecModes, Sequence, SequenceTracker};
use crate::term::{Engine, NativeEngine};

/// The pixel size of a cell in the XTWINOPS reports (`CSI 14 t`, `CSI 16 t`): width, height.
/// It is the cell of the PNG renderer at its default 16 px font (DejaVu Sans Mono), so a
/// program that sizes images from it fits them to tuicast's screenshots.
pub const CELL_PIXELS: (u16, u16) = (10, 19);

/// Most capability names answered in one XTGETTCAP query; the rest are not answered.
pub(crate) const MAX_TCAP_NAMES: usize = 64;

/// A query found in program output.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum Query {
    /// `CSI c` / `CSI 0 c`: primary device attributes.
    PrimaryAttributes,
    /// `CSI > c`: secondary device attributes.
    SecondaryAttributes,
    /// `CSI 5 n`: device status.
    Status,
    /// `CSI 6 n` (or `CSI ? 6 n` when `private`): cursor position report.
    CursorPosition {
        /// The DEC form, answered with `CSI ? r ; c R`.
        private: bool,
    },
    /// `CSI > q`: terminal name and version.
    Version,
    /// `OSC 10 ; ?` (foreground), `OSC 11 ; ?` (background), `OSC 4 ; n ; ?` (palette).
    Color {
        /// 10, 11, or 4.
        code: u16,
        /// The palette index for code 4.
        index: u8,
        /// The terminator used by the query (BEL or ST), repeated in the answer.
        bel: bool,
    },
    /// `CSI ? n $ p`: DEC private mode state.
    DecMode(u16),
    /// `CSI n $ p`: ANSI mode state.
    AnsiMode(u16),
    /// `CSI ? u`: the kitty keyboard protocol's flags in force.
    KittyKeyboard,
    /// `CSI = c`: tertiary device attributes (DA3).
    TertiaryAttributes,
    /// `CSI 14 t` (text area in pixels), `CSI 16 t` (cell in pixels), `CSI 18 t` (text area
    /// in characters): XTWINOPS reports.
    WindowReport(u16),
    /// `DCS + q Pt ST` (XTGETTCAP): capability names in hexadecimal, separated by `;`.
    Termcap(String),
    /// `DCS $ q Pt ST` (DECRQSS): the setting `Pt` asks about (`m`, `r`, ` q`, …).
    Setting(String),
}

/// Finds queries in output that arrives in chunks, and tracks the DEC modes the program set.
///
/// It reads the output with the escape-sequence tracker whose states both of tuicast's
/// engines follow, so a query is whatever the engines take for one whole control sequence.
#[derive(Debug)]
pub(crate) struct QueryScanner {
    seq: SequenceTracker,
    modes: DecModes,
}

/// Longest control sequence collected; longer ones are ignored.
const MAX_SEQ: usize = 256;

impl Default for QueryScanner {
    fn default() -> Self {
        QueryScanner {
            seq: SequenceTracker::new(MAX_SEQ),
            modes: DecModes::default(),
        }
    }
}

impl QueryScanner {
    /// A scanner in the ground state.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Scans `text`; returns each query with the byte offset just after it in `text`.
    pub(crate) fn scan(&mut self, text: &str) -> Vec<(usize, Query)> {
        let mut found = Vec::new();
        let mut i = 0;
        let bytes = text.as_bytes();
        while i < bytes.len() {
            if self.seq.is_ground() {
                // Only ESC and C1 controls (UTF-8 C2 80..9F) start a sequence.
                match memchr::memchr2(0x1b, 0xc2, &bytes[i..]) {
                    Some(n) => i += n,
                    None => break,
                }
            }
            let ch = text[i..].chars().next().unwrap_or('\0');
            i += ch.len_utf8();
            let query = match self.seq.feed(ch) {
                Some(Sequence::Csi(csi)) if !csi.truncated => {
                    self.modes.observe(&csi);
                    self::csi(csi.text, csi.fin)
                }
                Some(Sequence::Osc { data, bel, .. }) => osc(data, bel),
                Some(Sequence::Dcs {
                    head,
                    data,
                    truncated: false,
                }) => dcs(head, data),
                _ => None,
            };
            if let Some(q) = query {
                found.push((i, q));
            }
        }
        found
    }

    /// The state of DEC private mode `mode`: `Some(true)` set, `Some(false)` reset, `None`
    /// for modes this terminal does not know.
    pub(crate) fn dec_mode(&self, mode: u16) -> Option<bool> {
        if let Some(v) = self.modes.get(mode) {
            return Some(v);
        }
        match mode {
            7 | 25 => Some(true),
            1 | 5 | 6 | 12 | 47 | 66 | 1000 | 1002 | 1003 | 1004 | 1005 | 1006 | 1015 | 1047
            | 1048 | 1049 | 2004 => Some(false),
            _ => None,
        }
    }
}

/// The query a control sequence asks, if it is one (`params` as written, with any private
/// marker and intermediates).
fn csi(params: &str, fin: char) -> Option<Query> {
    match (fin, params) {
        ('c', "" | "0") => Some(Query::PrimaryAttributes),
        ('c', ">" | ">0") => Some(Query::SecondaryAttributes),
        ('c', "=" | "=0") => Some(Query::TertiaryAttributes),
        ('t', "14" | "16" | "18") => params.parse().ok().map(Query::WindowReport),
        ('n', "5") => Some(Query::Status),
        ('n', "6") => Some(Query::CursorPosition { private: false }),
        ('n', "?6") => Some(Query::CursorPosition { private: true }),
        ('q', ">" | ">0") => Some(Query::Version),
        ('u', "?") => Some(Query::KittyKeyboard),
        ('p', p) if p.ends_with('$') => {
            let p = &p[..p.len() - 1];
            match p.strip_prefix('?') {
                Some(n) => n.parse().ok().map(Query::DecMode),
                None => p.parse().ok().map(Query::AnsiMode),
            }
        }
        _ => None,
    }
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

fn osc(body: &str, bel: bool) -> Option<Query> {
    let mut parts = body.split(';');
    let code: u16 = parts.next()?.parse().ok()?;
    match code {
        10 | 11 if parts.next() == Some("?") => Some(Query::Color {
            code,
            index: 0,
            bel,
        }),
        4 => {
            let index: u8 = parts.next()?.parse().ok()?;
            (parts.next() == Some("?")).then_some(Query::Color { code, index, bel })
        }
        _ => None,
    }
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
    /// asciinema's default theme.
    fn default() -> Self {
        let palette = [
            "#000000", "#dd3c69", "#4ebf22", "#ddaf3c", "#26b0d7", "#b954e1", "#54e1b9", "#d9d9d9",
            "#4d4d4d", "#dd3c69", "#4ebf22", "#ddaf3c", "#26b0d7", "#b954e1", "#54e1b9", "#ffffff",
        ];
        AnswerColors {
            fg: "#cccccc".into(),
            bg: "#121314".into(),
            palette: palette.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// The answer a terminal gives to `query`, from the live `engine` (the cursor, the size, the
/// settings DECRQSS reports, the terminal modes: the mouse modes replace each other, so they
/// are answered from there; other modes as the scanner saw them last set) and `terminfo`;
/// `None` for queries left unanswered (as a terminal without the feature does).
pub(crate) fn answer(
    query: &Query,
    scanner: &QueryScanner,
    engine: &NativeEngine,
    colors: &AnswerColors,
    terminfo: &mut Terminfo,
) -> Option<String> {
    let cursor = || {
        let c = engine.screen().cursor;
        (c.row, c.col)
    };
    Some(match query {
        // A VT220-class terminal with ANSI colour, like most terminal emulators claim.
        Query::PrimaryAttributes => "\x1b[?62;22c".to_string(),
        Query::SecondaryAttributes => "\x1b[>1;10;0c".to_string(),
        Query::Status => "\x1b[0n".to_string(),
        Query::CursorPosition { private: false } => {
            let cursor = cursor();
            format!("\x1b[{};{}R", cursor.0 + 1, cursor.1 + 1)
        }
        Query::CursorPosition { private: true } => {
            let cursor = cursor();
            format!("\x1b[?{};{}R", cursor.0 + 1, cursor.1 + 1)
        }
        Query::Version => format!("\x1bP>|tuicast({})\x1b\\", env!("CARGO_PKG_VERSION")),
        Query::Color { code, index, bel } => {
            let hex = match code {
                10 => &colors.fg,
                11 => &colors.bg,
                _ => colors.palette.get(*index as usize)?,
            };
            let rgb = xparse_color(hex)?;
            let end = if *bel { "\x07" } else { "\x1b\\" };
            let which = if *code == 4 {
                format!("4;{index}")
            } else {
                code.to_string()
            };
            format!("\x1b]{which};{rgb}{end}")
        }
        Query::DecMode(mode) => {
            let state = match engine
                .modes()
                .dec(*mode)
                .or_else(|| scanner.dec_mode(*mode))
            {
                Some(true) => 1,
                Some(false) => 2,
                None => 0,
            };
            format!("\x1b[?{mode};{state}$y")
        }
        Query::AnsiMode(mode) => format!("\x1b[{mode};0$y"),
        // "CSI ? u ... The terminal will reply with: CSI ? flags u" (kitty's keyboard
        // protocol, "Progressive enhancement"): the flags in force on the screen in use.
        Query::KittyKeyboard => format!("\x1b[?{}u", engine.modes().keyboard),
        // DA3: the unit ID, "DCS ! | D...D ST" (xterm's ctlseqs); xterm sends zeros.
        Query::TertiaryAttributes => "\x1bP!|00000000\x1b\\".to_string(),
        Query::WindowReport(ps) => {
            let size = engine.size();
            let (w, h) = CELL_PIXELS;
            match ps {
                14 => format!(
                    "\x1b[4;{};{}t",
                    u32::from(size.rows) * u32::from(h),
                    u32::from(size.cols) * u32::from(w)
                ),
                16 => format!("\x1b[6;{h};{w}t"),
                _ => format!("\x1b[8;{};{}t", size.rows, size.cols),
            }
        }
        Query::Termcap(names) => terminfo.answer(names),
        // "DCS 1 $ r Pt ST for valid requests, DCS 0 $ r Pt ST for invalid requests"
        // (xterm's ctlseqs, DECRQSS); the invalid answer repeats nothing.
        Query::Setting(pt) => match engine.setting_report(pt) {
            Some(report) => format!("\x1bP1$r{report}\x1b\\"),
            None => "\x1bP0$r\x1b\\".to_string(),
        },
    })
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

/// `#rrggbb` → `rgb:rrrr/gggg/bbbb`, the form xterm answers with.
fn xparse_color(hex: &str) -> Option<String> {
    let h = hex.strip_prefix('#')?;
    if h.len() != 6 {
        return None;
    }
    let c = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    let (r, g, b) = (c(0)?, c(2)?, c(4)?);
    Some(format!("rgb:{r:02x}{r:02x}/{g:02x}{g:02x}/{b:02x}{b:02x}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_queries_even_split_across_chunks() {
        let text =
            "a\x1b[6nb\x1b[c\x1b[>0c\x1b]11;?\x07\x1b]4;1;?\x1b\\\x1b[?2004$p\x1b[?u\x1b[5n\x1b[>q";
        let mut whole = QueryScanner::new();
        let found: Vec<Query> = whole.scan(text).into_iter().map(|(_, q)| q).collect();
        assert_eq!(
            found,
            vec![
                Query::CursorPosition { private: false },
                Query::PrimaryAttributes,
                Query::SecondaryAttributes,
                Query::Color {
                    code: 11,
                    index: 0,
                    bel: true
                },
                Query::Color {
                    code: 4,
                    index: 1,
                    bel: false
                },
                Query::DecMode(2004),
                Query::KittyKeyboard,
                Query::Status,
                Query::Version,
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
    }

    #[test]
    fn answers_follow_the_cursor_modes_and_colours() {
        let mut s = QueryScanner::new();
        s.scan("\x1b[?1h\x1b[?2004h");
        let c = AnswerColors::default();
        let mut engine = NativeEngine::new(crate::term::Size { cols: 80, rows: 24 });
        engine.feed("\x1b[5;10H\x1b[?1;2004;1000;1002h");
        let mut t = Terminfo::parsed("xterm", "");
        let mut a = |q: Query| answer(&q, &s, &engine, &c, &mut t);
        assert_eq!(
            a(Query::CursorPosition { private: false }).unwrap(),
            "\x1b[5;10R"
        );
        assert_eq!(a(Query::DecMode(2004)).unwrap(), "\x1b[?2004;1$y");
        // 1002 replaced 1000: reset now, as xterm answers.
        assert_eq!(a(Query::DecMode(1000)).unwrap(), "\x1b[?1000;2$y");
        assert_eq!(a(Query::DecMode(1002)).unwrap(), "\x1b[?1002;1$y");
        assert_eq!(a(Query::DecMode(25)).unwrap(), "\x1b[?25;1$y");
        assert_eq!(a(Query::DecMode(9999)).unwrap(), "\x1b[?9999;0$y");
        assert_eq!(
            a(Query::Color {
                code: 11,
                index: 0,
                bel: true
            })
            .unwrap(),
            "\x1b]11;rgb:1212/1313/1414\x07"
        );
        assert_eq!(a(Query::KittyKeyboard).unwrap(), "\x1b[?0u");
        assert!(a(Query::Version).unwrap().starts_with("\x1bP>|tuicast("));
    }

    /// The queries in `text` and their answers from an 80x24 engine fed `screen` first.
    fn answers(screen: &str, text: &str, terminfo: &mut Terminfo) -> Vec<Option<String>> {
        let mut engine = NativeEngine::new(crate::term::Size { cols: 80, rows: 24 });
        engine.feed(screen);
        let mut s = QueryScanner::new();
        let c = AnswerColors::default();
        s.scan(text)
            .into_iter()
            .map(|(_, q)| answer(&q, &s, &engine, &c, terminfo))
            .collect()
    }

    #[test]
    fn the_kitty_query_answers_the_flags_of_the_screen_in_use() {
        let mut t = Terminfo::parsed("xterm", "");
        let q = "\x1b[?u";
        let one = |screen: &str, t: &mut Terminfo| answers(screen, q, t).remove(0).unwrap();
        assert_eq!(one("\x1b[>1u", &mut t), "\x1b[?1u");
        assert_eq!(one("\x1b[>1u\x1b[>11u", &mut t), "\x1b[?11u");
        assert_eq!(one("\x1b[>1u\x1b[>11u\x1b[<u", &mut t), "\x1b[?1u");
        assert_eq!(one("\x1b[>1u\x1b[=4;2u", &mut t), "\x1b[?5u");
        // The alternate screen has a stack of its own, and the main one is kept meanwhile.
        assert_eq!(one("\x1b[>1u\x1b[?1049h", &mut t), "\x1b[?0u");
        assert_eq!(one("\x1b[>1u\x1b[?1049h\x1b[>3u", &mut t), "\x1b[?3u");
        assert_eq!(
            one("\x1b[>1u\x1b[?1049h\x1b[>3u\x1b[?1049l", &mut t),
            "\x1b[?1u"
        );
        assert_eq!(one("\x1b[>1u\x1bc", &mut t), "\x1b[?0u", "RIS");
    }

    #[test]
    fn window_reports_da3_and_the_kitty_query() {
        let mut t = Terminfo::parsed("xterm", "");
        let got = answers(
            "",
            "\x1b[14t\x1b[16t\x1b[18t\x1b[=c\x1b[=0c\x1b[?u\x1b[c\x1b[15t\x1b[=1c",
            &mut t,
        );
        let want = [
            Some("\x1b[4;456;800t"),
            Some("\x1b[6;19;10t"),
            Some("\x1b[8;24;80t"),
            Some("\x1bP!|00000000\x1b\\"),
            Some("\x1bP!|00000000\x1b\\"),
            Some("\x1b[?0u"), // kitty keyboard: no flags pushed
            Some("\x1b[?62;22c"),
        ];
        let got: Vec<Option<&str>> = got.iter().map(Option::as_deref).collect();
        assert_eq!(
            got, want,
            "15 t and DA3 with a parameter are no queries here"
        );
    }

    #[test]
    fn decrqss_reports_sgr_margins_and_cursor_shape_from_the_engine() {
        let mut t = Terminfo::parsed("xterm", "");
        let got = answers(
            "\x1b[1;3;38;5;208m\x1b[3;20r\x1b[6 q",
            "\x1bP$qm\x1b\\\x1bP$qr\x1b\\\u{90}$q q\u{9c}\x1bP$qs\x1b\\\x1bP$q\"p\x1b\\",
            &mut t,
        );
        let got: Vec<&str> = got.iter().map(|a| a.as_deref().unwrap()).collect();
        assert_eq!(
            got,
            [
                "\x1bP1$r0;1;3;38;5;208m\x1b\\",
                "\x1bP1$r3;20r\x1b\\",
                "\x1bP1$r6 q\x1b\\",
                "\x1bP0$r\x1b\\",
                "\x1bP0$r\x1b\\",
            ]
        );
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
        let mut t = Terminfo::parsed("xterm-256color", INFOCMP);
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
        let got = answers("", &q, &mut t);
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
        assert_eq!(got, [Some(want)]);
        assert_eq!(hex("colors"), "636F6C6F7273");
        // Lower-case hex reads too; the answer repeats the name as asked.
        assert_eq!(
            answers("", "\x1bP+q636f6c6f7273\x1b\\", &mut t),
            [Some(format!("\x1bP1+r636f6c6f7273={}\x1b\\", hex("256")))]
        );
        // A query of many names answers the first MAX_TCAP_NAMES.
        let many = vec![hex("am"); MAX_TCAP_NAMES + 10].join(";");
        let got = answers("", &format!("\x1bP+q{many}\x1b\\"), &mut t);
        assert_eq!(
            got[0].as_ref().unwrap().matches("\x1bP1+r").count(),
            MAX_TCAP_NAMES
        );
        // A terminal type that is no name is never looked up.
        let mut odd = Terminfo::new("../x;rm");
        assert_eq!(odd.lookup("colors"), None);
    }
}
