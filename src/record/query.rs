//! Terminal queries in program output, and the answers a terminal would give.
//!
//! Programs ask their terminal things (device attributes, cursor position, colours) and some
//! wait for the answer. A bare PTY has no terminal to answer, so the recorder answers from the
//! live engine and records each answer as an `i` event.

use crate::term::sequence::{DecModes, Sequence, SequenceTracker};
use crate::term::Modes;

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
    /// `CSI ? u`: kitty keyboard protocol flags (not supported: no answer).
    KittyKeyboard,
}

/// Finds queries in output that arrives in chunks, and tracks the DEC modes the program set.
///
/// It reads the output with the same escape-sequence tracker as the avt engine, so a query
/// is whatever avt takes for one whole control sequence.
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
                match bytes[i..].iter().position(|&b| b == 0x1b || b == 0xc2) {
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

/// The answer a terminal gives to `query`, with the cursor at 0-based `(row, col)` and the
/// terminal modes as the live engine has them (`modes`: the mouse modes replace each other, so
/// they are answered from there; other modes as the scanner saw them last set); `None` for
/// queries left unanswered (as a terminal without the feature does).
pub(crate) fn answer(
    query: &Query,
    scanner: &QueryScanner,
    modes: &Modes,
    cursor: (u16, u16),
    colors: &AnswerColors,
) -> Option<String> {
    Some(match query {
        // A VT220-class terminal with ANSI colour, like most terminal emulators claim.
        Query::PrimaryAttributes => "\x1b[?62;22c".to_string(),
        Query::SecondaryAttributes => "\x1b[>1;10;0c".to_string(),
        Query::Status => "\x1b[0n".to_string(),
        Query::CursorPosition { private: false } => {
            format!("\x1b[{};{}R", cursor.0 + 1, cursor.1 + 1)
        }
        Query::CursorPosition { private: true } => {
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
            let state = match modes.dec(*mode).or_else(|| scanner.dec_mode(*mode)) {
                Some(true) => 1,
                Some(false) => 2,
                None => 0,
            };
            format!("\x1b[?{mode};{state}$y")
        }
        Query::AnsiMode(mode) => format!("\x1b[{mode};0$y"),
        Query::KittyKeyboard => return None,
    })
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
        let mut modes = Modes::default();
        for m in [1, 2004, 1000, 1002] {
            modes.set_dec(m, true);
        }
        let a = |q: Query| answer(&q, &s, &modes, (4, 9), &c);
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
        assert_eq!(a(Query::KittyKeyboard), None);
        assert!(a(Query::Version).unwrap().starts_with("\x1bP>|tuicast("));
    }
}
