//! Key names → the bytes a terminal sends for them, by the keyboard modes the program set.
//!
//! Names: any single character (sent as itself), `Enter`, `Esc`, `Tab`, `BackTab` (`S-Tab`),
//! `Backspace`, `Delete`, `Insert`, `Home`, `End`, `PageUp`, `PageDown`, `Up`, `Down`, `Left`,
//! `Right`, `Space`, `F1`–`F12`, each with any of the modifiers `S-` (Shift), `C-` (Ctrl) and
//! `M-` (Alt/Meta), in any order: `S-Enter`, `C-S-a`, `M-Up`, `C-M-x`. A character key's
//! case says whether Shift is down (`A` is `S-a`) but for Ctrl, where `C-A` is `C-a`, as it
//! always was here (write `C-S-a` for Ctrl+Shift+A).
//!
//! What a key sends depends on what the program asked for ([`Modes`]), as in a terminal:
//!
//! - **Legacy** (no keyboard mode set): xterm's defaults. Text as itself, Shift giving the
//!   shifted character; Ctrl maps a character to its C0 control (`C-a` ^A, `C-Space` NUL,
//!   `C-Backspace` ^H; a character with none is sent as it is); `M-` sends ESC before what the
//!   key sends without it (each `M-` one ESC: `M-M-x`). Arrow keys, Home and End follow the
//!   cursor-key mode (DECCKM: `ESC O x` in application mode). With Shift or Ctrl the keys
//!   with escape codes send xterm's modified form (`C-Up` `CSI 1;5A`, `S-F5` `CSI 15;2~`,
//!   `S-Tab` `CSI Z`); Shift and Ctrl on Enter, Esc and Tab send what the key sends alone,
//!   as xterm does without modifyOtherKeys.
//! - **modifyOtherKeys** (`CSI > 4 ; 1 m` or `; 2 m`, xterm): a modified key with no
//!   well-known code is sent as `CSI 27 ; mod ; code ~` (`S-Enter` `CSI 27;2;13~`,
//!   `C-S-a` `CSI 27;6;65~`); at level 2 every modified key but Shift on a character is
//!   (`C-a` `CSI 27;5;97~`). Keys with escape codes are as in legacy.
//! - **The kitty keyboard protocol** (`CSI > flags u`; sw.kovidgoyal.net/kitty/
//!   keyboard-protocol): with flag 1 (disambiguate) Esc, and keys with Ctrl or Alt, are
//!   `CSI code ; mod u` (`C-S-a` `CSI 97;6u`), as are Enter, Tab and Backspace with any
//!   modifier (`S-Enter` `CSI 13;2u`); text stays text. Flag 8 sends every key so (`a`
//!   `CSI 97u`, `A` `CSI 97;2u`), flag 16 adds the text (`CSI 97;2;65u`), flag 4 the shifted
//!   key (`CSI 97:65;2u`), and flag 2 follows each key sent as an escape code with its
//!   release (`CSI 97;2:3u`). Keys with escape codes are `CSI 1 ; mod X` or `CSI n ; mod ~`.
//!   Not sent: the modifier keys' own events under flag 8, key repeats, the base-layout key
//!   (the layout is US).
//!
//! [`key_bytes`] is the legacy encoding; the session encodes by the modes the live engine has.

use crate::term::Modes;

/// Most `M-` prefixes one key name may have (each sends one more ESC).
const MAX_META: usize = 4;

message_error!(
    /// Why a key name is not a key (the message lists the names there are).
    KeyError, KeyErrorKind {
        /// No key has that name.
        Unknown,
        /// More `M-` prefixes than a key name may have.
        TooManyPrefixes,
    }
);

/// The bytes for key `name` in the legacy encoding (no keyboard mode set); `app_cursor` is
/// whether the program enabled application cursor keys. Errors name what is wrong with the
/// key name.
pub fn key_bytes(name: &str, app_cursor: bool) -> Result<String, KeyError> {
    let modes = Modes {
        cursor_keys: app_cursor,
        ..Modes::default()
    };
    encode(name, &modes)
}

/// The bytes for key `name` by the keyboard modes in `modes` (the cursor-key mode, kitty's
/// flags, modifyOtherKeys): see the module doc.
pub(crate) fn encode(name: &str, modes: &Modes) -> Result<String, KeyError> {
    let key = Key::parse(name)?;
    Ok(key.encode(modes))
}

/// The bytes that type `unit` (one keystroke: a character, or `\r\n`) by the keyboard modes
/// in `modes`: as it is, unless the kitty protocol is on, where each is the key that types
/// it (Enter, Tab, Backspace, Esc and the C0 controls as their Ctrl keys included).
pub(crate) fn typed(unit: &str, modes: &Modes) -> String {
    if modes.keyboard & (DISAMBIGUATE | ALL_KEYS) == 0 {
        return unit.to_string();
    }
    match Key::of_typed(unit) {
        Some(key) => key.encode(modes),
        None => unit.to_string(),
    }
}

const SHIFT: u8 = 1;
const ALT: u8 = 2;
const CTRL: u8 = 4;
const DISAMBIGUATE: u8 = 1;
const EVENT_TYPES: u8 = 2;
const ALTERNATES: u8 = 4;
const ALL_KEYS: u8 = 8;
const TEXT: u8 = 16;

/// A key and the modifiers held with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    code: Code,
    /// [`SHIFT`], [`ALT`], [`CTRL`].
    mods: u8,
    /// `M-` prefixes past the first: an ESC each before the key.
    extra_meta: usize,
    /// A character key's character as the name (or the typed text) gave it: what it types
    /// with Shift when it is a shifted one, and what Ctrl maps first (`C-?` is DEL, as before).
    named: Option<char>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Code {
    /// A key that types a character: its unshifted character (`a`, `1`, `é`, space).
    Char(char),
    Enter,
    Esc,
    Tab,
    Backspace,
    /// A key with an escape code: `CSI 1 ; mod X` (SS3 `X` in application mode for the
    /// cursor keys, always for F1–F4 unmodified) …
    Letter(char, bool),
    /// … or `CSI n ; mod ~`.
    Tilde(u8),
}

impl Key {
    fn parse(name: &str) -> Result<Key, KeyError> {
        let mut rest = name;
        let (mut mods, mut metas) = (0u8, 0usize);
        // Counted, not recursed into, so a hostile name of 20000 prefixes is an error and
        // not a stack overflow.
        while rest.chars().count() > 1 {
            let bit = if let Some(r) = rest.strip_prefix("M-") {
                rest = r;
                metas += 1;
                if metas > MAX_META {
                    return Err(KeyError::new(
                        KeyErrorKind::TooManyPrefixes,
                        format!(
                            "key \"{}\" has more than {MAX_META} M- prefixes",
                            crate::escape::escape_for_terminal(name, 40)
                        ),
                    ));
                }
                continue;
            } else if let Some(r) = rest.strip_prefix("C-") {
                rest = r;
                CTRL
            } else if let Some(r) = rest.strip_prefix("S-") {
                rest = r;
                SHIFT
            } else {
                break;
            };
            if mods & bit != 0 {
                return Err(bad(name));
            }
            mods |= bit;
        }
        if metas > 0 {
            mods |= ALT;
        }
        let code = match rest {
            "BackTab" => {
                mods |= SHIFT;
                Code::Tab
            }
            _ => named(rest).ok_or_else(|| bad(name))?,
        };
        let mut key = Key {
            code,
            mods,
            extra_meta: metas.saturating_sub(1),
            named: None,
        };
        if let Code::Char(c) = code {
            let (base, shifted) = unshift(c);
            key.code = Code::Char(base);
            key.named = Some(c);
            // `C-A` is `C-a`, as it always was; `C-?` is Ctrl+Shift+/.
            if shifted && (key.mods & CTRL == 0 || !c.is_alphabetic()) {
                key.mods |= SHIFT;
            }
        }
        Ok(key)
    }

    /// The key that types `unit` (`\r`, `\n` and `\r\n` are Enter).
    fn of_typed(unit: &str) -> Option<Key> {
        let plain = |code| Key {
            code,
            mods: 0,
            extra_meta: 0,
            named: None,
        };
        let mut chars = unit.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return (unit == "\r\n").then(|| plain(Code::Enter));
        }
        Some(match c {
            '\r' | '\n' => plain(Code::Enter),
            '\t' => plain(Code::Tab),
            '\x7f' => plain(Code::Backspace),
            '\x1b' => plain(Code::Esc),
            '\0' => Key {
                mods: CTRL,
                ..plain(Code::Char(' '))
            },
            '\x01'..='\x1a' => Key {
                mods: CTRL,
                ..plain(Code::Char((b'a' + c as u8 - 1) as char))
            },
            '\x1c'..='\x1f' => Key {
                mods: CTRL,
                ..plain(Code::Char(['\\', ']', '^', '_'][c as usize - 0x1c]))
            },
            c if c.is_control() => return None,
            c => {
                let (base, shifted) = unshift(c);
                Key {
                    mods: if shifted { SHIFT } else { 0 },
                    named: Some(c),
                    ..plain(Code::Char(base))
                }
            }
        })
    }

    fn encode(&self, modes: &Modes) -> String {
        let flags = modes.keyboard;
        let mut out = "\x1b".repeat(self.extra_meta);
        if flags & (DISAMBIGUATE | ALL_KEYS) != 0 {
            out.push_str(&self.kitty(flags, modes.cursor_keys));
        } else if modes.modify_other_keys > 0 {
            out.push_str(&self.other_keys(modes.modify_other_keys, modes.cursor_keys));
        } else {
            out.push_str(&self.legacy(modes.cursor_keys));
        }
        out
    }

    /// The text the key types, when it types one (no Ctrl, no Alt).
    fn text(&self) -> Option<String> {
        match self.code {
            Code::Char(c) if self.mods & (CTRL | ALT) == 0 => Some(self.shifted(c).to_string()),
            _ => None,
        }
    }

    /// What character key `c` types with the key's Shift: the named character when it is a
    /// shifted one (`A`, `!`).
    fn shifted(&self, c: char) -> char {
        if self.mods & SHIFT == 0 {
            return c;
        }
        match self.named {
            Some(n) if unshift(n).1 => n,
            _ => shift(c),
        }
    }

    fn legacy(&self, app_cursor: bool) -> String {
        let alt = if self.mods & ALT != 0 { "\x1b" } else { "" };
        let (shift, ctrl) = (self.mods & SHIFT != 0, self.mods & CTRL != 0);
        let body = match self.code {
            Code::Char(c) if ctrl => self
                .named
                .and_then(ctrl_char)
                .or_else(|| ctrl_char(c))
                .unwrap_or(c)
                .to_string(),
            Code::Char(c) => self.shifted(c).to_string(),
            Code::Enter => "\r".into(),
            Code::Esc => "\x1b".into(),
            Code::Tab if shift => "\x1b[Z".into(),
            Code::Tab => "\t".into(),
            Code::Backspace if ctrl => "\x08".into(),
            Code::Backspace => "\x7f".into(),
            // Alt alone on a key with an escape code: ESC before it, as tuicast always sent.
            Code::Letter(..) | Code::Tilde(_) if self.mods & (SHIFT | CTRL) == 0 => {
                return format!("{alt}{}", self.functional(1, app_cursor, false));
            }
            Code::Letter(..) | Code::Tilde(_) => {
                return self.functional(1 + self.mods, app_cursor, false)
            }
        };
        format!("{alt}{body}")
    }

    fn other_keys(&self, level: u8, app_cursor: bool) -> String {
        let m = 1 + self.mods;
        let code = match self.code {
            Code::Char(c) => {
                let only_shift = self.mods & !SHIFT == 0;
                // Level 1 keeps the keys with a well-known code: Ctrl on a character with
                // a C0 control, Alt as ESC, both; Shift on a character is its text.
                let well_known =
                    self.mods & SHIFT == 0 && (self.mods & CTRL == 0 || ctrl_char(c).is_some());
                if only_shift || (level == 1 && well_known) {
                    return self.legacy(app_cursor);
                }
                u32::from(self.shifted(c))
            }
            Code::Enter | Code::Esc | Code::Tab | Code::Backspace => {
                let legacy = self.mods == 0
                    || self.mods == SHIFT && self.code == Code::Tab
                    || level == 1 && self.mods == ALT;
                if legacy {
                    return self.legacy(app_cursor);
                }
                self.c0_code()
            }
            Code::Letter(..) | Code::Tilde(_) => return self.legacy(app_cursor),
        };
        format!("\x1b[27;{m};{code}~")
    }

    fn kitty(&self, flags: u8, app_cursor: bool) -> String {
        let all = flags & ALL_KEYS != 0;
        let mods = self.mods;
        let m = 1 + mods;
        let release = flags & EVENT_TYPES != 0;
        let (code, press) = match self.code {
            Code::Char(c) => {
                let text = self.text();
                if !all {
                    if let Some(text) = text {
                        return text;
                    }
                }
                let mut code = u32::from(c).to_string();
                let mut alternates = String::new();
                if flags & ALTERNATES != 0 && mods & SHIFT != 0 && self.shifted(c) != c {
                    alternates = format!(":{}", u32::from(self.shifted(c)));
                }
                let points = match text {
                    Some(t) if all && flags & TEXT != 0 => {
                        let points: Vec<String> =
                            t.chars().map(|c| u32::from(c).to_string()).collect();
                        points.join(":")
                    }
                    _ => String::new(),
                };
                let tail = match (m > 1, points.is_empty()) {
                    (false, true) => String::new(),
                    (true, true) => format!(";{m}"),
                    (true, false) => format!(";{m};{points}"),
                    (false, false) => format!(";;{points}"),
                };
                let press = format!("\x1b[{code}{alternates}{tail}u");
                code.push_str(&alternates);
                (code, press)
            }
            Code::Enter | Code::Tab | Code::Backspace if mods == 0 && !all => {
                return self.legacy(app_cursor);
            }
            Code::Enter | Code::Esc | Code::Tab | Code::Backspace => {
                let code = self.c0_code().to_string();
                let press = if m > 1 {
                    format!("\x1b[{code};{m}u")
                } else {
                    format!("\x1b[{code}u")
                };
                (code, press)
            }
            Code::Letter(..) | Code::Tilde(_) => {
                let press = if mods == 0 && !all {
                    self.functional(1, app_cursor, false)
                } else {
                    self.functional(m, false, true)
                };
                if release {
                    return press + &self.functional_release(m);
                }
                return press;
            }
        };
        if release {
            format!("{press}\x1b[{code};{m}:3u")
        } else {
            press
        }
    }

    /// A key with an escape code with modifier parameter `m` (1: none): `CSI 1 ; m X` or
    /// `CSI n ; m ~`, the `1 ;` left out when `m` is 1; SS3 for the cursor keys in
    /// application mode and F1–F4 when unmodified (unless `csi`, kitty's form).
    fn functional(&self, m: u8, app_cursor: bool, csi: bool) -> String {
        match self.code {
            Code::Letter(x, ss3) if m == 1 && !csi && (ss3 || app_cursor) => format!("\x1bO{x}"),
            Code::Letter(x, _) if m == 1 => format!("\x1b[{x}"),
            Code::Letter(x, _) => format!("\x1b[1;{m}{x}"),
            Code::Tilde(n) if m == 1 => format!("\x1b[{n}~"),
            Code::Tilde(n) => format!("\x1b[{n};{m}~"),
            _ => String::new(),
        }
    }

    /// The release of a key with an escape code, in kitty's form.
    fn functional_release(&self, m: u8) -> String {
        match self.code {
            Code::Letter(x, _) => format!("\x1b[1;{m}:3{x}"),
            Code::Tilde(n) => format!("\x1b[{n};{m}:3~"),
            _ => String::new(),
        }
    }

    /// The key code of Enter, Esc, Tab and Backspace: their C0 control's.
    fn c0_code(&self) -> u32 {
        match self.code {
            Code::Enter => 13,
            Code::Esc => 27,
            Code::Tab => 9,
            _ => 127,
        }
    }
}

/// The keys named by a word (each a name [`named`] reads), as key names are written back.
const KEY_NAMES: [&str; 26] = [
    "Enter",
    "Esc",
    "Tab",
    "Backspace",
    "Delete",
    "Insert",
    "PageUp",
    "PageDown",
    "Up",
    "Down",
    "Right",
    "Left",
    "Home",
    "End",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "F9",
    "F10",
    "F11",
    "F12",
];

/// The key named `name` (no modifiers).
fn named(name: &str) -> Option<Code> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Some(Code::Char(c));
    }
    let f = |n: u8| Code::Tilde(n);
    Some(match name {
        "Enter" | "Return" => Code::Enter,
        "Esc" | "Escape" => Code::Esc,
        "Tab" => Code::Tab,
        "Backspace" | "BS" => Code::Backspace,
        "Space" => Code::Char(' '),
        "Delete" | "Del" => f(3),
        "Insert" | "Ins" => f(2),
        "PageUp" | "PgUp" => f(5),
        "PageDown" | "PgDn" => f(6),
        "Up" => Code::Letter('A', false),
        "Down" => Code::Letter('B', false),
        "Right" => Code::Letter('C', false),
        "Left" => Code::Letter('D', false),
        "Home" => Code::Letter('H', false),
        "End" => Code::Letter('F', false),
        "F1" => Code::Letter('P', true),
        "F2" => Code::Letter('Q', true),
        "F3" => Code::Letter('R', true),
        "F4" => Code::Letter('S', true),
        "F5" => f(15),
        "F6" => f(17),
        "F7" => f(18),
        "F8" => f(19),
        "F9" => f(20),
        "F10" => f(21),
        "F11" => f(23),
        "F12" => f(24),
        _ => return None,
    })
}

/// The US layout's shifted pairs: the unshifted key, then what Shift makes of it.
const SHIFTED: [(char, char); 21] = [
    ('`', '~'),
    ('1', '!'),
    ('2', '@'),
    ('3', '#'),
    ('4', '$'),
    ('5', '%'),
    ('6', '^'),
    ('7', '&'),
    ('8', '*'),
    ('9', '('),
    ('0', ')'),
    ('-', '_'),
    ('=', '+'),
    ('[', '{'),
    (']', '}'),
    ('\\', '|'),
    (';', ':'),
    ('\'', '"'),
    (',', '<'),
    ('.', '>'),
    ('/', '?'),
];

/// The key that types `c` and whether Shift is down for it (US layout: `A` is Shift+`a`,
/// `!` Shift+`1`; an upper-case letter of another script is Shift on its lower case).
fn unshift(c: char) -> (char, bool) {
    if let Some(&(base, _)) = SHIFTED.iter().find(|(_, s)| *s == c) {
        return (base, true);
    }
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        // (Only where Shift gives `c` back: not the Kelvin sign, or a title-case digraph.)
        (Some(l), None) if l != c && shift(l) == c => (l, true),
        _ => (c, false),
    }
}

/// What Shift makes of the key `c` (itself when nothing).
fn shift(c: char) -> char {
    if let Some(&(_, s)) = SHIFTED.iter().find(|(b, _)| *b == c) {
        return s;
    }
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

/// What a person typed, as a terminal sent it, split into text and named keys: runs of
/// printable text are `Typed::Text`, and each key [`key_bytes`] has a name for (in either
/// cursor-key mode) is `Typed::Key` with that name; a byte sequence with no name stays text.
/// `tuicast record --scenario` turns keystrokes into `type` and `press` steps this way.
pub fn split_typed(input: &str) -> Vec<Typed> {
    let mut table: Vec<(String, &str)> = Vec::new();
    // (A lone Esc is told below: any unnamed sequence starts with one.)
    let names = KEY_NAMES.iter().copied().filter(|n| *n != "Esc");
    for name in std::iter::once("BackTab").chain(names) {
        for app in [false, true] {
            if let Ok(b) = key_bytes(name, app) {
                table.push((b, name));
            }
        }
    }
    // Longest first, so that ESC [ A is Up and not Esc then text.
    table.sort_by_key(|(b, _)| std::cmp::Reverse(b.len()));
    let mut out: Vec<Typed> = Vec::new();
    let push_text = |out: &mut Vec<Typed>, t: &str| match out.last_mut() {
        Some(Typed::Text(prev)) => prev.push_str(t),
        _ => out.push(Typed::Text(t.to_string())),
    };
    let mut rest = input;
    while let Some(c) = rest.chars().next() {
        if let Some((len, name)) = modified_key(rest) {
            // (A release, under the kitty protocol's event types, is no key pressed.)
            out.extend(name.map(Typed::Key));
            rest = &rest[len..];
            continue;
        }
        if let Some((b, name)) = table.iter().find(|(b, _)| rest.starts_with(b.as_str())) {
            out.push(Typed::Key(name.to_string()));
            rest = &rest[b.len()..];
            continue;
        }
        let len = c.len_utf8();
        match c {
            '\x1b' => {
                match rest[1..].chars().next() {
                    Some(n) if !n.is_control() && n != '[' && n != 'O' => {
                        out.push(Typed::Key(format!("M-{n}")));
                        rest = &rest[1 + n.len_utf8()..];
                    }
                    None => {
                        out.push(Typed::Key("Esc".into()));
                        rest = &rest[1..];
                    }
                    Some(_) => {
                        // An escape sequence with no name: kept as it was sent.
                        push_text(&mut out, "\x1b");
                        rest = &rest[1..];
                    }
                }
                continue;
            }
            '\x01'..='\x1a' => {
                out.push(Typed::Key(format!("C-{}", (b'a' + c as u8 - 1) as char)));
            }
            _ => push_text(&mut out, &rest[..len]),
        }
        rest = &rest[len..];
    }
    out
}

/// A key as a terminal sends it in the encodings with parameters [`encode`] writes: kitty's
/// `CSI code ; mod [: event] [; text] u`, xterm's modifyOtherKeys `CSI 27 ; mod ; code ~`,
/// and `CSI 1 ; mod X` or `CSI n ; mod ~`: its length, and its name (`None` for a release).
/// Only Shift, Alt and Ctrl are read; a key with another modifier is no key here.
fn modified_key(s: &str) -> Option<(usize, Option<String>)> {
    let body = s.strip_prefix("\x1b[")?;
    let end = body.find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))?;
    let fin = body[end..].chars().next()?;
    let len = 2 + end + 1;
    let params: Vec<Vec<&str>> = body[..end]
        .split(';')
        .map(|p| p.split(':').collect())
        .collect();
    let num = |i: usize, j: usize| -> Option<u32> {
        match params.get(i).and_then(|p| p.get(j)) {
            None | Some(&"") => Some(1),
            Some(t) => t.parse().ok(),
        }
    };
    let first = params.first().and_then(|p| p.first()).copied();
    let (code, m, event) = match fin {
        '~' if first == Some("27") && params.len() == 3 => {
            let c = char::from_u32(num(2, 0)?)?;
            let code = match c {
                '\r' => Code::Enter,
                '\x1b' => Code::Esc,
                '\t' => Code::Tab,
                '\x7f' => Code::Backspace,
                c => Code::Char(unshift(c).0),
            };
            (code, num(1, 0)?, 1)
        }
        'u' if params.len() <= 3 => {
            let code = match num(0, 0)? {
                13 => Code::Enter,
                27 => Code::Esc,
                9 => Code::Tab,
                127 => Code::Backspace,
                c => Code::Char(char::from_u32(c).filter(|c| !c.is_control())?),
            };
            (code, num(1, 0)?, num(1, 1)?)
        }
        '~' if params.len() == 2 => (Code::Tilde(first?.parse().ok()?), num(1, 0)?, num(1, 1)?),
        'A'..='D' | 'F' | 'H' | 'P'..='S' if first == Some("1") && params.len() == 2 => {
            let ss3 = matches!(fin, 'P'..='S');
            (Code::Letter(fin, ss3), num(1, 0)?, num(1, 1)?)
        }
        _ => return None,
    };
    let mods = u8::try_from(m.checked_sub(1)?).ok().filter(|m| *m <= 7)?;
    if event == 3 {
        return Some((len, None));
    }
    Some((len, Some(key_name(code, mods)?)))
}

/// The name of `code` with the modifiers `mods` (`C-M-S-x`), when it has one.
fn key_name(code: Code, mods: u8) -> Option<String> {
    let key = match code {
        Code::Char(' ') => "Space".to_string(),
        Code::Char(c) => c.to_string(),
        code => KEY_NAMES
            .iter()
            .find(|n| named(n) == Some(code))?
            .to_string(),
    };
    let mut name = String::new();
    for (bit, prefix) in [(CTRL, "C-"), (ALT, "M-"), (SHIFT, "S-")] {
        if mods & bit != 0 {
            name.push_str(prefix);
        }
    }
    name.push_str(&key);
    Some(name)
}

/// A piece of what was typed: see [`split_typed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    /// Text, typed as it is.
    Text(String),
    /// A key by name.
    Key(String),
}

/// The C0 control Ctrl makes of the key `c`, for the keys that have one.
fn ctrl_char(c: char) -> Option<char> {
    match c {
        'a'..='z' => Some(((c as u8) - b'a' + 1) as char),
        'A'..='Z' => Some(((c as u8) - b'A' + 1) as char),
        '@' | ' ' | '2' => Some('\0'),
        '[' | '3' => Some('\x1b'),
        '\\' | '4' => Some('\x1c'),
        ']' | '5' => Some('\x1d'),
        '^' | '6' | '~' => Some('\x1e'),
        '_' | '7' | '/' => Some('\x1f'),
        '?' | '8' => Some('\x7f'),
        _ => None,
    }
}

fn bad(name: &str) -> KeyError {
    KeyError::new(
        KeyErrorKind::Unknown,
        format!(
        "unknown key {:?}: use a single character, Enter, Esc, Tab, BackTab, Backspace, Delete, \
         Insert, Home, End, PageUp, PageDown, Up, Down, Left, Right, Space or F1-F12, each \
         with any of the modifiers S- (Shift), C- (Ctrl) and M- (Alt), once each",
        crate::escape::escape_for_terminal(name, 40)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::{encode, key_bytes, typed};
    use crate::term::Modes;

    #[test]
    fn names_map_to_terminal_bytes() {
        let k = |n| key_bytes(n, false).unwrap();
        assert_eq!(k("a"), "a");
        assert_eq!(k("é"), "é");
        assert_eq!(k("Enter"), "\r");
        assert_eq!(k("Esc"), "\x1b");
        assert_eq!(k("C-c"), "\x03");
        assert_eq!(k("C-["), "\x1b");
        assert_eq!(k("M-x"), "\x1bx");
        assert_eq!(k("C-M-a"), "\x1b\x01");
        assert_eq!(k("M-Enter"), "\x1b\r");
        assert_eq!(k("M-M-x"), "\x1b\x1bx");
        let hostile = format!("{}x", "M-".repeat(20_000));
        let e = key_bytes(&hostile, false).unwrap_err();
        assert!(e.message().contains("more than 4 M- prefixes"), "{e}");
        assert_eq!(k("Up"), "\x1b[A");
        assert_eq!(key_bytes("Up", true).unwrap(), "\x1bOA");
        assert_eq!(k("F1"), "\x1bOP");
        assert_eq!(k("F12"), "\x1b[24~");
        assert_eq!(k("BackTab"), "\x1b[Z");
        assert_eq!(k("Backspace"), "\x7f");
        assert!(key_bytes("F13", false).is_err());
        assert!(key_bytes("Hyper-x", false)
            .unwrap_err()
            .message()
            .contains("unknown key"));
        assert!(key_bytes("C-C-x", false).is_err(), "a modifier once");
        assert!(key_bytes("S-", false).is_err());
    }

    /// The legacy encoding of the keys that had no name before: xterm's defaults.
    #[test]
    fn modified_keys_without_a_keyboard_mode_send_what_xterm_sends() {
        let k = |n| key_bytes(n, false).unwrap();
        assert_eq!(k("S-a"), "A");
        assert_eq!(k("S-1"), "!");
        assert_eq!(k("C-S-a"), "\x01");
        assert_eq!(k("C-A"), "\x01", "C-A is C-a, as it always was");
        assert_eq!(k("M-A"), "\x1bA");
        assert_eq!(k("S-Enter"), "\r");
        assert_eq!(k("C-Enter"), "\r");
        assert_eq!(k("S-Tab"), "\x1b[Z");
        assert_eq!(k("BackTab"), "\x1b[Z");
        assert_eq!(k("C-Backspace"), "\x08");
        assert_eq!(k("C-Space"), "\0");
        assert_eq!(k("C-1"), "1", "no C0 control: the key as it is");
        // Every name that had bytes before sends them still.
        assert_eq!(k("C-?"), "\x7f");
        assert_eq!(k("C-_"), "\x1f");
        assert_eq!(k("C-@"), "\0");
        assert_eq!(k("C-^"), "\x1e");
        assert_eq!(k("M-?"), "\x1b?");
        for c in ['K', 'ǅ', 'İ', 'ß', 'Σ', 'ς', '!', '~', 'é', 'É'] {
            let name = c.to_string();
            assert_eq!(key_bytes(&name, false).unwrap(), name, "{c} is itself");
            assert_eq!(typed(&name, &with(1, 0)), name, "{c} typed under flag 1");
        }
        assert_eq!(k("S-Up"), "\x1b[1;2A");
        assert_eq!(
            key_bytes("C-Up", true).unwrap(),
            "\x1b[1;5A",
            "not SS3 when modified"
        );
        assert_eq!(k("M-Up"), "\x1b\x1b[A", "Alt alone: ESC first, as before");
        assert_eq!(k("C-M-Up"), "\x1b[1;7A");
        assert_eq!(k("S-F1"), "\x1b[1;2P");
        assert_eq!(k("C-S-F5"), "\x1b[15;6~");
        assert_eq!(k("S-Delete"), "\x1b[3;2~");
    }

    fn with(keyboard: u8, other: u8) -> Modes {
        Modes {
            keyboard,
            modify_other_keys: other,
            ..Modes::default()
        }
    }

    #[test]
    fn the_kitty_flags_choose_the_encoding() {
        let k = |n: &str, f: u8| encode(n, &with(f, 0)).unwrap();
        // Flag 1, disambiguate: text stays text; Esc and keys with Ctrl or Alt are CSI u;
        // Enter, Tab and Backspace are legacy alone and CSI u with any modifier.
        assert_eq!(k("S-Enter", 1), "\x1b[13;2u");
        assert_eq!(k("C-Enter", 1), "\x1b[13;5u");
        assert_eq!(k("Enter", 1), "\r");
        assert_eq!(k("Tab", 1), "\t");
        assert_eq!(k("S-Tab", 1), "\x1b[9;2u");
        assert_eq!(k("Backspace", 1), "\x7f");
        assert_eq!(k("Esc", 1), "\x1b[27u");
        assert_eq!(k("a", 1), "a");
        assert_eq!(k("A", 1), "A");
        assert_eq!(k("S-a", 1), "A");
        assert_eq!(k("C-a", 1), "\x1b[97;5u");
        assert_eq!(k("C-S-a", 1), "\x1b[97;6u");
        assert_eq!(k("M-x", 1), "\x1b[120;3u");
        assert_eq!(k("M-S-x", 1), "\x1b[120;4u");
        assert_eq!(k("C-Space", 1), "\x1b[32;5u");
        assert_eq!(k("C-?", 1), "\x1b[47;6u", "Ctrl+Shift+/");
        assert_eq!(k("C-M-S-Delete", 1), "\x1b[3;8~");
        assert_eq!(k("Up", 1), "\x1b[A");
        assert_eq!(
            encode(
                "Up",
                &Modes {
                    cursor_keys: true,
                    ..with(1, 0)
                }
            )
            .unwrap(),
            "\x1bOA"
        );
        assert_eq!(k("S-Up", 1), "\x1b[1;2A");
        assert_eq!(k("F1", 1), "\x1bOP");
        // Flag 8: every key an escape code; 16 adds the text, 4 the shifted key.
        assert_eq!(k("a", 8), "\x1b[97u");
        assert_eq!(k("A", 8), "\x1b[97;2u");
        assert_eq!(k("Enter", 8), "\x1b[13u");
        assert_eq!(k("Up", 8), "\x1b[A");
        assert_eq!(k("F1", 8), "\x1b[P");
        assert_eq!(k("a", 8 | 16), "\x1b[97;;97u");
        assert_eq!(k("S-a", 8 | 16), "\x1b[97;2;65u");
        assert_eq!(k("C-a", 8 | 16), "\x1b[97;5u", "no text with Ctrl");
        assert_eq!(k("C-S-a", 1 | 4), "\x1b[97:65;6u");
        assert_eq!(
            k("C-a", 1 | 4),
            "\x1b[97;5u",
            "a shifted key only with Shift"
        );
        // Flag 2: a key sent as an escape code is followed by its release.
        assert_eq!(k("C-a", 1 | 2), "\x1b[97;5u\x1b[97;5:3u");
        assert_eq!(k("a", 1 | 2), "a", "text has no events");
        assert_eq!(k("S-Enter", 1 | 2), "\x1b[13;2u\x1b[13;2:3u");
        assert_eq!(k("Up", 1 | 2), "\x1b[A\x1b[1;1:3A");
        assert_eq!(k("F5", 1 | 2), "\x1b[15~\x1b[15;1:3~");
        // Flags without 1 or 8 change nothing a key sends.
        assert_eq!(k("C-a", 2), "\x01");
    }

    #[test]
    fn modify_other_keys_sends_csi_27_for_keys_with_no_well_known_code() {
        let k = |n: &str, l: u8| encode(n, &with(0, l)).unwrap();
        assert_eq!(k("S-Enter", 1), "\x1b[27;2;13~");
        assert_eq!(k("C-Enter", 2), "\x1b[27;5;13~");
        assert_eq!(k("Enter", 2), "\r");
        assert_eq!(k("C-a", 1), "\x01", "level 1 keeps the well-known ones");
        assert_eq!(k("C-a", 2), "\x1b[27;5;97~");
        assert_eq!(k("C-S-a", 1), "\x1b[27;6;65~");
        assert_eq!(k("M-x", 1), "\x1bx");
        assert_eq!(k("M-x", 2), "\x1b[27;3;120~");
        assert_eq!(k("M-Enter", 1), "\x1b\r");
        assert_eq!(k("S-a", 2), "A", "Shift on a character is its text");
        assert_eq!(k("S-Tab", 2), "\x1b[Z");
        assert_eq!(k("C-Tab", 2), "\x1b[27;5;9~");
        assert_eq!(k("C-1", 1), "\x1b[27;5;49~");
        assert_eq!(
            k("S-Up", 2),
            "\x1b[1;2A",
            "keys with escape codes are as in legacy"
        );
        // The kitty flags win over modifyOtherKeys.
        assert_eq!(encode("S-Enter", &with(1, 2)).unwrap(), "\x1b[13;2u");
    }

    #[test]
    fn typed_text_is_sent_as_keys_only_under_the_kitty_protocol() {
        let t = |u: &str, f: u8| typed(u, &with(f, 0));
        assert_eq!(t("a", 0), "a");
        assert_eq!(t("\x1b", 0), "\x1b");
        assert_eq!(t("a", 1), "a");
        assert_eq!(t("\x1b", 1), "\x1b[27u");
        assert_eq!(t("\r\n", 1), "\r");
        assert_eq!(t("\x03", 1), "\x1b[99;5u");
        assert_eq!(t("H", 8), "\x1b[104;2u");
        assert_eq!(t("!", 8 | 16), "\x1b[49;2;33u");
        assert_eq!(t("é", 8), "\x1b[233u");
        assert_eq!(t("\r", 8), "\x1b[13u");
        assert_eq!(typed("a", &with(0, 2)), "a");
    }

    #[test]
    fn split_typed_names_modified_keys_in_every_encoding() {
        use super::{split_typed, Typed};
        let keys = |s: &str| -> Vec<String> {
            split_typed(s)
                .into_iter()
                .map(|t| match t {
                    Typed::Key(k) => format!("<{k}>"),
                    Typed::Text(t) => t,
                })
                .collect()
        };
        assert_eq!(
            keys("a\x1b[13;2ub\x1b[27;2;13~\x1b[97;6u\x1b[1;5A\x1b[15;2~\x1b[27u"),
            [
                "a",
                "<S-Enter>",
                "b",
                "<S-Enter>",
                "<C-S-a>",
                "<C-Up>",
                "<S-F5>",
                "<Esc>"
            ]
        );
        assert_eq!(
            keys("\x1b[97;5u\x1b[97;5:3u"),
            ["<C-a>"],
            "a release is no key"
        );
        assert_eq!(keys("\x1b[27;6;65~"), ["<C-S-a>"]);
        assert_eq!(
            keys("\x1b[97;9u"),
            ["\x1b[97;9u"],
            "Super is no modifier here: kept as sent"
        );
        // Every name round-trips through every encoding that has parameters.
        for name in [
            "S-Enter",
            "C-S-a",
            "M-x",
            "C-Up",
            "S-F5",
            "C-M-S-Delete",
            "C-Space",
            "S-F1",
        ] {
            for modes in [with(1, 0), with(8, 0), with(0, 2), with(1 | 2 | 4, 0)] {
                let bytes = encode(name, &modes).unwrap();
                let got = keys(&bytes);
                assert_eq!(
                    got,
                    [format!("<{name}>")],
                    "{name} as {bytes:?} under {modes:?}"
                );
            }
        }
    }
}
