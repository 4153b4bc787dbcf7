//! Key names → the bytes a terminal sends for them.
//!
//! Names: any single character (sent as itself), `Enter`, `Esc`, `Tab`, `BackTab`,
//! `Backspace`, `Delete`, `Insert`, `Home`, `End`, `PageUp`, `PageDown`, `Up`, `Down`, `Left`,
//! `Right`, `Space`, `F1`–`F12`, and modifiers `C-x` (Ctrl), `M-x` (Alt/Meta, sent as ESC x),
//! `C-M-x`. Arrow keys, Home and End follow the program's cursor-key mode (DECCKM): in
//! application mode they are sent as `ESC O x`.

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

/// The bytes for key `name`; `app_cursor` is whether the program enabled application cursor
/// keys. Errors name what is wrong with the key name.
pub fn key_bytes(name: &str, app_cursor: bool) -> Result<String, KeyError> {
    key_bytes_or_message(name, app_cursor)
}

fn key_bytes_or_message(name: &str, app_cursor: bool) -> Result<String, KeyError> {
    if name.chars().count() == 1 {
        return Ok(name.to_string());
    }
    if let Some(rest) = name
        .strip_prefix("C-M-")
        .or_else(|| name.strip_prefix("M-C-"))
    {
        let ctrl = ctrl_char(rest).ok_or_else(|| bad(name))?;
        return Ok(format!("\x1b{ctrl}"));
    }
    if let Some(rest) = name.strip_prefix("C-") {
        return ctrl_char(rest).map(String::from).ok_or_else(|| bad(name));
    }
    if name.starts_with("M-") {
        // Each `M-` sends one ESC before the key; counted, not recursed into, so a hostile
        // name of 20000 prefixes is an error and not a stack overflow.
        let mut rest = name;
        let mut metas = 0;
        while let Some(r) = rest.strip_prefix("M-") {
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
        }
        return Ok(format!(
            "{}{}",
            "\x1b".repeat(metas),
            key_bytes_or_message(rest, app_cursor)?
        ));
    }
    let csi_or_ss3 = |c: char| {
        if app_cursor {
            format!("\x1bO{c}")
        } else {
            format!("\x1b[{c}")
        }
    };
    let s = match name {
        "Enter" | "Return" => "\r".to_string(),
        "Esc" | "Escape" => "\x1b".to_string(),
        "Tab" => "\t".to_string(),
        "BackTab" | "S-Tab" => "\x1b[Z".to_string(),
        "Backspace" | "BS" => "\x7f".to_string(),
        "Space" => " ".to_string(),
        "Delete" | "Del" => "\x1b[3~".to_string(),
        "Insert" | "Ins" => "\x1b[2~".to_string(),
        "PageUp" | "PgUp" => "\x1b[5~".to_string(),
        "PageDown" | "PgDn" => "\x1b[6~".to_string(),
        "Up" => csi_or_ss3('A'),
        "Down" => csi_or_ss3('B'),
        "Right" => csi_or_ss3('C'),
        "Left" => csi_or_ss3('D'),
        "Home" => csi_or_ss3('H'),
        "End" => csi_or_ss3('F'),
        "F1" => "\x1bOP".to_string(),
        "F2" => "\x1bOQ".to_string(),
        "F3" => "\x1bOR".to_string(),
        "F4" => "\x1bOS".to_string(),
        "F5" => "\x1b[15~".to_string(),
        "F6" => "\x1b[17~".to_string(),
        "F7" => "\x1b[18~".to_string(),
        "F8" => "\x1b[19~".to_string(),
        "F9" => "\x1b[20~".to_string(),
        "F10" => "\x1b[21~".to_string(),
        "F11" => "\x1b[23~".to_string(),
        "F12" => "\x1b[24~".to_string(),
        _ => return Err(bad(name)),
    };
    Ok(s)
}

/// What a person typed, as a terminal sent it, split into text and named keys: runs of
/// printable text are `Typed::Text`, and each key [`key_bytes`] has a name for (in either
/// cursor-key mode) is `Typed::Key` with that name; a byte sequence with no name stays text.
/// `tuicast record --scenario` turns keystrokes into `type` and `press` steps this way.
pub fn split_typed(input: &str) -> Vec<Typed> {
    const NAMED: [&str; 26] = [
        "BackTab",
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
        "Enter",
        "Tab",
        "Backspace",
    ];
    let mut table: Vec<(String, &str)> = Vec::new();
    for name in NAMED {
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

/// A piece of what was typed: see [`split_typed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    /// Text, typed as it is.
    Text(String),
    /// A key by name.
    Key(String),
}

fn ctrl_char(key: &str) -> Option<char> {
    let mut chars = key.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return match key {
            "Space" => Some('\0'),
            _ => None,
        };
    }
    match c {
        'a'..='z' => Some(((c as u8) - b'a' + 1) as char),
        'A'..='Z' => Some(((c as u8) - b'A' + 1) as char),
        '@' | ' ' | '2' => Some('\0'),
        '[' | '3' => Some('\x1b'),
        '\\' | '4' => Some('\x1c'),
        ']' | '5' => Some('\x1d'),
        '^' | '6' => Some('\x1e'),
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
         Insert, Home, End, PageUp, PageDown, Up, Down, Left, Right, Space, F1-F12, C-x, M-x or C-M-x",
        crate::escape::escape_for_terminal(name, 40)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::key_bytes;

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
        assert!(key_bytes("C-Enter", false).is_err());
        assert!(key_bytes("Hyper-x", false)
            .unwrap_err()
            .message()
            .contains("unknown key"));
    }
}
