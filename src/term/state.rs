//! What a terminal holds beyond its grid of cells ([`TermState`], [`Screen::state`]): the
//! icon name, the bells and OSC 52 clipboard writes since the last checkpoint, the OSC 8
//! hyperlinks of the cells, and the scrollback; and the sequences a program used that the
//! engine did not understand ([`Unsupported`]).
//!
//! "Since the last checkpoint" means: in replay, since the previous labelled marker of the
//! cast (the [`Replayer`](crate::replay::Replayer) calls [`Engine::checkpoint`] after the
//! screen of each checkpoint is taken, so the screen of a checkpoint counts what happened
//! between it and the one before, or the start); in a live recording, since the previous
//! checkpoint step (the session does the same when it writes the marker). The final screen
//! (`end`) counts what came after the last marker.
//!
//! [`Screen::state`]: super::Screen::state
//! [`Engine::checkpoint`]: super::Engine::checkpoint

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// Most scrolled-off lines an engine keeps (the oldest go first).
pub const MAX_SCROLLBACK: usize = 1000;

/// Most cells the scrollback holds (1000 lines of 1000 columns; on a wider screen, fewer
/// lines): 16 MB of the native engine's cells, 24 MB of avt's.
pub(crate) const SCROLLBACK_CELLS: usize = 1_000_000;
/// Most clipboard writes kept between two checkpoints (the oldest go first).
pub const MAX_CLIPBOARD_WRITES: usize = 32;
/// Longest clipboard text kept, in bytes of UTF-8 (a longer write is cut and marked
/// [`ClipboardWrite::truncated`]).
pub const MAX_CLIPBOARD_TEXT: usize = 48 * 1024;
/// Most distinct hyperlinks an engine tracks; cells printed with a link past it have none.
pub const MAX_LINKS: usize = 4096;
/// Longest hyperlink URI kept (longer ones are ignored, as xterm and VTE do).
pub const MAX_URI: usize = 2048;
/// Longest hyperlink `id` kept (a longer one is ignored).
pub const MAX_LINK_ID: usize = 250;
/// Most kinds of unsupported sequences counted apart; the rest count under `other`.
pub const MAX_UNSUPPORTED_KINDS: usize = 100;

/// The parts of a terminal's state that are not its cells, cursor, title and modes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TermState {
    /// The icon name (OSC 1; OSC 0 sets it and the title), the last one set.
    #[serde(default)]
    pub icon: Option<String>,
    /// Bells (BEL outside a string) rung since the last checkpoint (see the module docs).
    #[serde(default)]
    pub bells: u32,
    /// OSC 52 clipboard writes since the last checkpoint, oldest first (at most
    /// [`MAX_CLIPBOARD_WRITES`], the latest kept). Queries (`?`) are not writes.
    #[serde(default)]
    pub clipboard: Vec<ClipboardWrite>,
    /// The hyperlinks of the screen's cells (OSC 8): a cell's [`link`](super::Cell::link) `n`
    /// is `links[n - 1]`. In the order the screen's cells first use them, top to bottom, left
    /// to right, so equal screens have equal tables.
    #[serde(default)]
    pub links: Vec<Hyperlink>,
    /// Lines scrolled off the top of the main screen, oldest first (see [`Scrollback`]).
    #[serde(default)]
    pub scrollback: Scrollback,
    /// Every kitty keyboard flags value but 0 that was in force at some time since the start
    /// (on either screen), ascending; a replay shows their effect on nothing (they change
    /// only what keys send), and `tuicast info` lists them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keyboard_flags: Vec<u8>,
    /// Every modifyOtherKeys level but 0 (1, 2) set at some time since the start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modify_other_keys: Vec<u8>,
    /// The shell's OSC 133 marks (prompt, command, output, end) on the rows of the screen
    /// in view and, on the main screen, of its scrollback, in the order of their places
    /// (top to bottom, left to right): see [`ShellMark`]. Empty where the program sent none
    /// or the engine keeps none (only the native engine does).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shell_marks: Vec<ShellMark>,
    /// How many commands the shell said ended since the start: `D` marks that closed an
    /// output (`C`). What a wait for a command's end counts.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub commands_ended: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Most shell marks one row keeps: a later one pushes out the row's oldest.
pub const MAX_ROW_MARKS: usize = 8;

/// A shell-integration mark (`OSC 133 ; X`, or VS Code's `OSC 633 ; X`) where the cursor was
/// when the shell sent it. A mark belongs to its row, as in kitty, iTerm2 and VS Code: it
/// scrolls with the row, into the scrollback too, goes when the row is erased whole or its
/// cell is, and moves with the row's text when a resize rewraps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ShellMark {
    /// Which mark.
    pub kind: ShellMarkKind,
    /// Its row: 0, 1, … on the screen from the top; -1, -2, … a line of the scrollback
    /// counted from its end (-1 the last line scrolled off).
    pub row: i32,
    /// Its column, from 0.
    pub col: u16,
    /// The exit status an `End` mark carried (`OSC 133 ; D ; 1`), when it carried one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<i32>,
}

/// The four marks of OSC 133 (FinalTerm's shell integration, as kitty, WezTerm, iTerm2 and
/// VS Code read it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ShellMarkKind {
    /// `A`: a prompt starts.
    Prompt,
    /// `B`: the prompt ends, the command typed starts.
    Command,
    /// `C`: the command runs; its output starts.
    Output,
    /// `D` (`D ; STATUS`): the command ended.
    End,
}

impl ShellMarkKind {
    /// Its letter in OSC 133 (`A`, `B`, `C`, `D`).
    pub fn letter(self) -> char {
        match self {
            ShellMarkKind::Prompt => 'A',
            ShellMarkKind::Command => 'B',
            ShellMarkKind::Output => 'C',
            ShellMarkKind::End => 'D',
        }
    }
}

impl TermState {
    /// The hyperlink a cell's `link` number names, if any.
    pub fn link(&self, link: u16) -> Option<&Hyperlink> {
        (link as usize)
            .checked_sub(1)
            .and_then(|i| self.links.get(i))
    }
}

/// One OSC 52 write to a clipboard (`OSC 52 ; Pc ; base64 ST`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct ClipboardWrite {
    /// The selections written, as the program named them (`c` clipboard, `p` primary, `q`
    /// secondary, `s` select, `0`–`7` cut buffers); `s0` (xterm's default) when it named none.
    pub selection: String,
    /// The decoded text (invalid UTF-8 replaced by U+FFFD), at most [`MAX_CLIPBOARD_TEXT`]
    /// bytes. Untrusted: escape it before printing it.
    pub text: String,
    /// Whether the text was cut (a longer write, or an OSC longer than the tracker keeps).
    #[serde(default)]
    pub truncated: bool,
}

/// An OSC 8 hyperlink: its URI and its optional `id` (cells with the same id and URI are one
/// link, even when apart).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Hyperlink {
    /// The URI, as the program wrote it. Untrusted: escape it before printing it.
    pub uri: String,
    /// The `id` parameter, when given.
    #[serde(default)]
    pub id: Option<String>,
}

/// Lines scrolled off the top of the main screen, as text (trailing whitespace trimmed,
/// control characters replaced), oldest first, at most [`MAX_SCROLLBACK`]. Shared: copying a
/// screen copies a pointer, not the lines. Serialized as an array of strings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scrollback(Arc<Vec<String>>);

impl Scrollback {
    /// The lines, oldest first.
    pub fn lines(&self) -> &[String] {
        &self.0
    }

    /// The last `n` lines (all of them when there are fewer).
    pub fn last(&self, n: usize) -> &[String] {
        &self.0[self.0.len().saturating_sub(n)..]
    }

    /// True when no line was scrolled off.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many lines are kept.
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl From<Vec<String>> for Scrollback {
    fn from(lines: Vec<String>) -> Self {
        Scrollback(Arc::new(lines))
    }
}

impl Serialize for Scrollback {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Scrollback {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<String>::deserialize(d).map(Scrollback::from)
    }
}

/// Escape sequences a program used that the engine did not understand, counted by kind
/// (such as `CSI ? 2026 h`, `OSC 7`, `DCS q`, `APC`), over the whole replay.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Unsupported {
    counts: BTreeMap<String, u64>,
}

impl Unsupported {
    /// Counts one sequence of `kind` (past [`MAX_UNSUPPORTED_KINDS`] kinds, as `other`).
    pub fn count(&mut self, kind: String) {
        let kind = if self.counts.len() >= MAX_UNSUPPORTED_KINDS && !self.counts.contains_key(&kind)
        {
            "other".to_string()
        } else {
            kind
        };
        let n = self.counts.entry(kind).or_default();
        *n = n.saturating_add(1);
    }

    /// Each kind with its count, by kind. Kinds are made of the sequence's introducer,
    /// private marker, intermediates and final (and a private mode's number), never of its
    /// data, but escape them before printing all the same.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.counts.iter().map(|(k, n)| (k.as_str(), *n))
    }

    /// True when nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// How many sequences were counted, of every kind.
    pub fn total(&self) -> u64 {
        self.counts.values().fold(0, |a, n| a.saturating_add(*n))
    }
}

/// What an OSC string does, as far as tuicast follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OscEffect {
    /// OSC 0 (both), 1 (icon) or 2 (title), control characters dropped.
    Names {
        title: Option<String>,
        icon: Option<String>,
    },
    /// OSC 52 with data: a write.
    Clipboard(ClipboardWrite),
    /// OSC 8: the link printed text gets from now on (`None`: no link).
    Link(Option<Hyperlink>),
    /// OSC 133 (or 633) `A`, `B`, `C` or `D[;STATUS]`: a shell's mark; `code` is 133 or 633.
    ShellMark {
        code: u16,
        kind: ShellMarkKind,
        status: Option<i32>,
    },
    /// Something tuicast knows and that changes nothing on the screen: an OSC 52 query or
    /// a malformed write, a colour query the recorder answers, a bad OSC 8.
    Ignored,
    /// An OSC tuicast does not follow: its code (the text before the first `;`, at most 8
    /// characters).
    Unknown(String),
}

/// What OSC `data` (the text between `OSC` and its terminator) does; `truncated` says the
/// tracker cut the data.
pub(crate) fn osc_effect(data: &str, truncated: bool) -> OscEffect {
    let (code, rest) = data.split_once(';').unwrap_or((data, ""));
    let clean = |s: &str| -> String { s.chars().filter(|c| !c.is_control()).collect() };
    match code {
        "0" => OscEffect::Names {
            title: Some(clean(rest)),
            icon: Some(clean(rest)),
        },
        "1" => OscEffect::Names {
            title: None,
            icon: Some(clean(rest)),
        },
        "2" => OscEffect::Names {
            title: Some(clean(rest)),
            icon: None,
        },
        "52" => clipboard(rest, truncated).map_or(OscEffect::Ignored, OscEffect::Clipboard),
        "8" => match hyperlink(rest) {
            Some(link) => OscEffect::Link(link),
            None => OscEffect::Ignored,
        },
        "133" | "633" => shell_mark(code, rest),
        // Colour queries and settings: answered by the recorder, invisible in the cells.
        "4" | "10" | "11" | "12" | "104" | "110" | "111" | "112" => OscEffect::Ignored,
        _ => OscEffect::Unknown(code.chars().take(8).collect()),
    }
}

/// OSC 133 (or 633) `rest`: `A`, `B`, `C` or `D` with its status, any options after a `;`
/// left aside (`A;aid=7`, `D;1;aid=7`). VS Code's other 633 marks (`E` the command line, `P`
/// properties) change nothing here; anything else is unknown.
fn shell_mark(code: &str, rest: &str) -> OscEffect {
    let mut parts = rest.split(';');
    let kind = match parts.next().unwrap_or("") {
        "A" => ShellMarkKind::Prompt,
        "B" => ShellMarkKind::Command,
        "C" => ShellMarkKind::Output,
        "D" => ShellMarkKind::End,
        "E" | "P" if code == "633" => return OscEffect::Ignored,
        _ => return OscEffect::Unknown(code.to_string()),
    };
    let status = match kind {
        ShellMarkKind::End => parts.next().and_then(|s| s.parse::<i32>().ok()),
        _ => None,
    };
    OscEffect::ShellMark {
        code: if code == "633" { 633 } else { 133 },
        kind,
        status,
    }
}

/// The write of OSC 52 `Pc;Pd`, or `None` for a query (`?`), an empty or undecodable `Pd`.
fn clipboard(rest: &str, truncated: bool) -> Option<ClipboardWrite> {
    let (selection, data) = rest.split_once(';')?;
    if data == "?" || data.is_empty() {
        return None;
    }
    let selection: String = selection
        .chars()
        .filter(|c| matches!(c, 'c' | 'p' | 'q' | 's' | '0'..='7'))
        .take(16)
        .collect();
    let selection = if selection.is_empty() {
        "s0".to_string()
    } else {
        selection
    };
    if !data.is_ascii() {
        return None;
    }
    // A cut string is decoded up to its last whole group of four.
    let data = if truncated {
        &data[..data.len() / 4 * 4]
    } else {
        data
    };
    let bytes = decode_base64(data)?;
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    let mut cut = truncated;
    if text.len() > MAX_CLIPBOARD_TEXT {
        let mut end = MAX_CLIPBOARD_TEXT;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        cut = true;
    }
    Some(ClipboardWrite {
        selection,
        text,
        truncated: cut,
    })
}

/// Standard base64 (`A–Z a–z 0–9 + /`, `=` padding optional); `None` for anything else.
fn decode_base64(data: &str) -> Option<Vec<u8>> {
    let data = data.trim_end_matches('=');
    let mut out = Vec::with_capacity(data.len() / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in data.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // One character left over is not a byte: not base64.
    (bits < 6).then_some(out)
}

/// The link of OSC 8 `params;URI`: `Some(None)` ends the link (an empty URI), `None` for a
/// malformed one (no `;`, a URI or id too long, control characters).
fn hyperlink(rest: &str) -> Option<Option<Hyperlink>> {
    let (params, uri) = rest.split_once(';')?;
    if uri.is_empty() {
        return Some(None);
    }
    if uri.len() > MAX_URI || uri.chars().any(char::is_control) {
        return None;
    }
    let id = params
        .split(':')
        .find_map(|p| p.strip_prefix("id="))
        .filter(|id| !id.is_empty());
    if id.is_some_and(|id| id.len() > MAX_LINK_ID || id.chars().any(char::is_control)) {
        return None;
    }
    Some(Some(Hyperlink {
        uri: uri.to_string(),
        id: id.map(str::to_string),
    }))
}

/// An engine's hyperlinks, each given a number from 1 once (0 is "no link"), at most
/// [`MAX_LINKS`].
#[derive(Debug, Default)]
pub(crate) struct LinkTable {
    links: Vec<Hyperlink>,
    numbers: HashMap<Hyperlink, u16>,
}

impl LinkTable {
    /// The number of `link`, given now if it has none; 0 when the table is full.
    pub(crate) fn number(&mut self, link: Hyperlink) -> u16 {
        if let Some(&n) = self.numbers.get(&link) {
            return n;
        }
        if self.links.len() >= MAX_LINKS {
            return 0;
        }
        self.links.push(link.clone());
        let n = self.links.len() as u16;
        self.numbers.insert(link, n);
        n
    }

    /// The link numbered `n`.
    pub(crate) fn get(&self, n: u16) -> Option<&Hyperlink> {
        (n as usize).checked_sub(1).and_then(|i| self.links.get(i))
    }
}

/// Renumbers the engine's link numbers in `rows` into a table of the links the rows use, in
/// the order they first appear; returns that table.
pub(crate) fn screen_links(rows: &mut [Vec<super::Cell>], table: &LinkTable) -> Vec<Hyperlink> {
    let mut out = Vec::new();
    let mut map: HashMap<u16, u16> = HashMap::new();
    for cell in rows.iter_mut().flatten() {
        if cell.link == 0 {
            continue;
        }
        cell.link = *map
            .entry(cell.link)
            .or_insert_with(|| match table.get(cell.link) {
                Some(link) => {
                    out.push(link.clone());
                    out.len() as u16
                }
                None => 0,
            });
    }
    out
}

/// Appends `write` to `writes`, keeping the latest [`MAX_CLIPBOARD_WRITES`].
pub(crate) fn push_clipboard(writes: &mut Vec<ClipboardWrite>, write: ClipboardWrite) {
    if writes.len() >= MAX_CLIPBOARD_WRITES {
        writes.remove(0);
    }
    writes.push(write);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc_names_set_title_icon_or_both() {
        assert_eq!(
            osc_effect("0;both\x01", false),
            OscEffect::Names {
                title: Some("both".into()),
                icon: Some("both".into())
            }
        );
        assert_eq!(
            osc_effect("1;icon", false),
            OscEffect::Names {
                title: None,
                icon: Some("icon".into())
            }
        );
        assert_eq!(
            osc_effect("7;file:///tmp", false),
            OscEffect::Unknown("7".into())
        );
        assert_eq!(osc_effect("11;?", false), OscEffect::Ignored);
    }

    #[test]
    fn clipboard_writes_decode_and_queries_are_not_writes() {
        let w = |d: &str| match osc_effect(d, false) {
            OscEffect::Clipboard(w) => Some(w),
            _ => None,
        };
        let got = w("52;c;aGVsbG8gd29ybGQ=").unwrap();
        assert_eq!(
            (got.selection.as_str(), got.text.as_str()),
            ("c", "hello world")
        );
        assert!(!got.truncated);
        assert_eq!(
            w("52;;aGk").unwrap().selection,
            "s0",
            "unpadded, default selection"
        );
        assert_eq!(w("52;pc;aGk=").unwrap().selection, "pc");
        assert_eq!(w("52;c;?"), None, "a query is not a write");
        assert_eq!(w("52;c;"), None);
        assert_eq!(w("52;c;a"), None, "one character is not a byte");
        assert_eq!(w("52;c;a\u{1b}b="), None, "not base64");
        assert_eq!(w("52;c"), None);
        // Invalid UTF-8 is replaced; control characters stay in the data (escaped when shown).
        assert_eq!(w("52;c;/wo=").unwrap().text, "\u{fffd}\n");
        // A cut string decodes to its last whole group.
        match osc_effect("52;c;aGVsbG8gd29", true) {
            OscEffect::Clipboard(w) => assert_eq!((w.text.as_str(), w.truncated), ("hello ", true)),
            other => panic!("{other:?}"),
        }
        let big = "QUFB".repeat(MAX_CLIPBOARD_TEXT / 3 + 10);
        let got = w(&format!("52;c;{big}")).unwrap();
        assert_eq!(got.text.len(), MAX_CLIPBOARD_TEXT);
        assert!(got.truncated);
        let mut writes = Vec::new();
        for i in 0..MAX_CLIPBOARD_WRITES + 3 {
            push_clipboard(
                &mut writes,
                ClipboardWrite {
                    selection: "c".into(),
                    text: i.to_string(),
                    truncated: false,
                },
            );
        }
        assert_eq!(writes.len(), MAX_CLIPBOARD_WRITES);
        assert_eq!(writes[0].text, "3", "the latest are kept");
    }

    #[test]
    fn hyperlinks_parse_with_ids_and_bad_ones_are_ignored() {
        assert_eq!(
            osc_effect("8;id=a:x=y;https://e.com/", false),
            OscEffect::Link(Some(Hyperlink {
                uri: "https://e.com/".into(),
                id: Some("a".into())
            }))
        );
        assert_eq!(osc_effect("8;;", false), OscEffect::Link(None));
        assert_eq!(osc_effect("8;;http://x\u{7}", false), OscEffect::Ignored);
        assert_eq!(
            osc_effect(&format!("8;;{}", "x".repeat(MAX_URI + 1)), false),
            OscEffect::Ignored
        );
        assert_eq!(osc_effect("8", false), OscEffect::Ignored);
        let mut t = LinkTable::default();
        let a = Hyperlink {
            uri: "a".into(),
            id: None,
        };
        assert_eq!(t.number(a.clone()), 1);
        assert_eq!(
            t.number(Hyperlink {
                uri: "b".into(),
                id: None
            }),
            2
        );
        assert_eq!(t.number(a), 1);
        for i in 0..MAX_LINKS {
            t.number(Hyperlink {
                uri: i.to_string(),
                id: None,
            });
        }
        assert_eq!(
            t.number(Hyperlink {
                uri: "new".into(),
                id: None
            }),
            0,
            "a full table gives no link"
        );
    }

    #[test]
    fn unsupported_kinds_are_bounded() {
        let mut u = Unsupported::default();
        for i in 0..MAX_UNSUPPORTED_KINDS + 5 {
            u.count(format!("OSC {i}"));
        }
        u.count("OSC 0".into());
        assert_eq!(u.iter().count(), MAX_UNSUPPORTED_KINDS + 1);
        assert_eq!(
            u.iter().find(|(k, _)| *k == "other").map(|(_, n)| n),
            Some(5)
        );
        assert_eq!(
            u.iter().find(|(k, _)| *k == "OSC 0").map(|(_, n)| n),
            Some(2)
        );
        assert_eq!(u.total(), MAX_UNSUPPORTED_KINDS as u64 + 6);
    }

    #[test]
    fn scrollback_serializes_as_lines() {
        let s = Scrollback::from(vec!["a".to_string(), "b".to_string()]);
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"["a","b"]"#);
        assert_eq!(s.last(1), ["b"]);
        assert_eq!(s.last(5).len(), 2);
        let back: Scrollback = serde_json::from_str(r#"["a","b"]"#).unwrap();
        assert_eq!(back, s);
    }
}

#[cfg(test)]
mod engine_tests {
    use crate::term::{Engine, EngineKind, Screen, Size};

    const SIZE: Size = Size { cols: 10, rows: 3 };

    fn screen(kind: EngineKind, input: &str) -> Screen {
        let mut e = kind.create(SIZE);
        e.feed(input);
        e.screen()
    }

    #[test]
    fn the_native_engine_keeps_the_keyboard_modes() {
        use crate::term::NativeEngine;
        let steps = [
            ("\x1b[>1u", 1, 0),
            ("\x1b[>4;2m", 1, 2),
            ("\x1b[?1049h", 0, 2),
            ("\x1b[>11u\x1b[=16;2u", 27, 2),
            ("\x1b[?1049l", 1, 2),
            ("\x1b[<u\x1b[>4m", 0, 0),
            ("\x1b[>8uX\x1bc", 0, 0),
        ];
        let mut native = NativeEngine::new(SIZE);
        for (input, flags, other) in steps {
            native.feed(input);
            let n = native.screen();
            assert_eq!(
                (n.modes.keyboard, n.modes.modify_other_keys),
                (flags, other),
                "{input:?}"
            );
        }
        let end = native.screen().state;
        assert_eq!(
            (end.keyboard_flags, end.modify_other_keys),
            (vec![1, 8, 11, 27], vec![2])
        );
        assert!(
            native.unsupported().is_empty(),
            "{:?}",
            native.unsupported()
        );
    }

    #[test]
    fn the_engines_follow_the_icon_name_bells_and_clipboard() {
        // (avt keeps none of them: `avt.rs`.)
        for kind in EngineKind::ALL
            .into_iter()
            .filter(|&k| k != EngineKind::Avt)
        {
            let s = screen(kind, "\x1b]1;ico\x07\x1b]2;ti\x07");
            assert_eq!(
                (s.title.as_deref(), s.state.icon.as_deref()),
                (Some("ti"), Some("ico")),
                "{kind}"
            );
            let s = screen(kind, "\x1b]0;both\x1b\\");
            assert_eq!(
                (s.title.as_deref(), s.state.icon.as_deref()),
                (Some("both"), Some("both")),
                "{kind}"
            );
            // A BEL ending an OSC is no bell.
            let s = screen(kind, "a\x07b\x07\x1b]2;x\x07");
            assert_eq!(s.state.bells, 2, "{kind}");
            assert_eq!(s.row_text(0), "ab", "{kind}");
            let s = screen(kind, "\x1b]52;c;aGk=\x07\x1b]52;c;?\x07");
            assert_eq!(s.state.clipboard.len(), 1, "{kind}: a query is not a write");
            assert_eq!(s.state.clipboard[0].text, "hi", "{kind}");
            let mut e = kind.create(SIZE);
            e.feed("\x07\x1b]52;c;aGk=\x07");
            e.checkpoint();
            let s = e.screen();
            assert_eq!(
                (s.state.bells, s.state.clipboard.len()),
                (0, 0),
                "{kind}: counted afresh"
            );
            assert_eq!(s.state.icon, None);
        }
        // A BEL inside a control sequence rings (it is executed), in a DCS it does not.
        let s = screen(EngineKind::Native, "\x1b[1\x07m\x1bPq\x07\x1b\\");
        assert_eq!(s.state.bells, 1);
    }

    #[test]
    fn hyperlinks_are_on_their_cells_and_follow_them() {
        let s = screen(
            EngineKind::Native,
            "a\x1b]8;id=1;https://e.com/\x1b\\link\x1b]8;;\x1b\\ b\x1b]8;;file:///x\x07日\x1b]8;;\x07",
        );
        assert_eq!(s.row_text(0), "alink b日");
        let links: Vec<u16> = s.rows[0].iter().map(|c| c.link).collect();
        assert_eq!(links, [0, 1, 1, 1, 1, 0, 0, 2, 2, 0]);
        assert_eq!(s.state.links.len(), 2);
        assert_eq!(s.state.link(1).unwrap().uri, "https://e.com/");
        assert_eq!(s.state.link(1).unwrap().id.as_deref(), Some("1"));
        assert_eq!(s.state.link(2).unwrap().uri, "file:///x");
        assert_eq!(s.state.link(0), None);
        // A link moves with its cell (insert characters, scroll) and goes when overwritten.
        let s = screen(
            EngineKind::Native,
            "\x1b]8;;u\x07ab\x1b]8;;\x07\x1b[H\x1b[2@\r\n\n\n",
        );
        assert_eq!(s.row_text(0), "");
        let s = screen(
            EngineKind::Native,
            "\x1b]8;;u\x07ab\x1b]8;;\x07\x1b[H\x1b[2@",
        );
        let links: Vec<u16> = s.rows[0][..5].iter().map(|c| c.link).collect();
        assert_eq!(links, [0, 0, 1, 1, 0]);
        let s = screen(EngineKind::Native, "\x1b]8;;u\x07ab\x1b]8;;\x07\rx");
        assert_eq!((s.rows[0][0].link, s.rows[0][1].link), (0, 1));
        // The table holds only links on the screen, numbered as they first appear.
        let s = screen(EngineKind::Native, "\x1b]8;;gone\x07a\x1b]8;;kept\x07\rb");
        assert_eq!(s.state.links.len(), 1);
        assert_eq!(s.state.links[0].uri, "kept");
        // Equal screens compare equal whatever links came and went before.
        let a = screen(EngineKind::Native, "\x1b]8;;x\x07q\x1b]8;;y\x07r");
        let b = screen(
            EngineKind::Native,
            "\x1b]8;;z\x07\x1b]8;;x\x07q\x1b]8;;y\x07r",
        );
        assert_eq!(a, b);
    }

    #[test]
    fn scrolled_off_lines_are_kept_in_order_and_bounded() {
        for kind in EngineKind::ALL {
            let mut e = kind.create(SIZE);
            e.feed("1\r\n2\r\n3\r\n4\r\n5");
            let s = e.screen();
            assert_eq!(s.state.scrollback.lines(), ["1", "2"], "{kind}");
            // The alternate screen keeps none.
            e.feed("\x1b[?1049h\r\n\r\n\r\n\r\n\x1b[?1049l");
            assert_eq!(e.screen().state.scrollback.len(), 2, "{kind}");
            e.feed(&"x\r\n".repeat(super::MAX_SCROLLBACK + 10));
            let s = e.screen();
            assert_eq!(s.state.scrollback.len(), super::MAX_SCROLLBACK, "{kind}");
            assert_eq!(s.state.scrollback.lines()[0], "x", "{kind}");
        }
        // A wide screen keeps fewer lines (at most a million cells).
        let mut e = EngineKind::Native.create(SIZE);
        e.feed(&"x\r\n".repeat(super::MAX_SCROLLBACK + 10));
        e.resize(Size {
            cols: 4000,
            rows: 3,
        });
        e.feed("\r\n\r\n\r\n");
        assert_eq!(e.screen().state.scrollback.len(), 250);
        let mut e = EngineKind::Native.create(SIZE);
        e.feed("1\r\n2\r\n3\r\n4\x1b[3J");
        assert!(e.screen().state.scrollback.is_empty(), "CSI 3 J erases it");
        let mut e =
            crate::term::NativeEngine::with_options_and_scrollback(SIZE, Default::default(), 0);
        e.feed("1\r\n2\r\n3\r\n4");
        assert!(e.screen().state.scrollback.is_empty());
    }
}
