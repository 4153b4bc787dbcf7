//! The one escaper for text that reaches a message: whatever a cast, a file name, a golden or a
//! label holds, it is printed as data, never as terminal control; and the one shell quoting
//! of the commands messages suggest ([`shell_quote`]), so that pasting one runs nothing else.
//!
//! A leaf module: it imports nothing from the crate, so every stage can use it.

use std::fmt::Write as _;

/// Escapes `text` so that it is safe to print on a terminal and unambiguous to read: control
/// characters (C0, DEL, C1) become `\e`, `\n`, `\r`, `\t`, `\x07` or `\u{9b}`; a backslash
/// becomes `\\`, so a literal `\e` in the input and a real ESC never print the same; bidi
/// controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F) become `\u{202e}`-style escapes so
/// they cannot reorder the rest of the line. The result is cut to `max` characters with `…`, so
/// one huge line cannot flood a message.
///
/// ```
/// use tuicast::escape::escape_for_terminal;
/// assert_eq!(escape_for_terminal("a\x1b[31mb\\e", 40), "a\\e[31mb\\\\e");
/// assert_eq!(escape_for_terminal("abcdef", 3), "abc…");
/// ```
pub fn escape_for_terminal(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max.saturating_add(8)));
    for (n, ch) in text.chars().enumerate() {
        if n >= max {
            out.push('…');
            break;
        }
        push_escaped(&mut out, ch);
    }
    out
}

/// `word` as one word a POSIX shell reads back as `word`: as it is when every character is
/// one no shell treats specially (ASCII letters and digits, `-_./=:,+@%`), else in single
/// quotes with each `'` as `'\''`. The one quoting of every command tuicast suggests (`record
/// it with …`, `tuicast accept …`): a file or checkpoint name a repository chose, pasted into a
/// shell, stays one argument and runs nothing. It quotes, it does not escape for a terminal:
/// give it text that [`escape_for_terminal`] made safe to print when the text is untrusted.
///
/// ```
/// use tuicast::escape::shell_quote;
/// assert_eq!(shell_quote("casts/demo.toml"), "casts/demo.toml");
/// assert_eq!(shell_quote("x$(touch pwned)'y"), "'x$(touch pwned)'\\''y'");
/// assert_eq!(shell_quote(""), "''");
/// ```
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Words joined by spaces, each [`shell_quote`]d: a command line a shell reads back as these
/// arguments.
pub fn shell_words<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    words
        .into_iter()
        .map(|w| shell_quote(w.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Escapes `text` for HTML and XML alike (the report's page, a JUnit file): `& < > " '` as
/// entities, tab and newline kept, and every other control character (C0, DEL, C1) and the
/// noncharacters U+FFFE and U+FFFF, which XML 1.0 cannot hold, as U+FFFD; so nothing from a
/// cast is markup, and the document always parses.
///
/// ```
/// use tuicast::escape::escape_markup;
/// assert_eq!(escape_markup("<a b='c'>&\x1b[1m\n"), "&lt;a b=&#39;c&#39;&gt;&amp;\u{fffd}[1m\n");
/// ```
pub fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\t' => out.push(ch),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// Appends `ch` to `out`, escaped as [`escape_for_terminal`] does.
pub fn push_escaped(out: &mut String, ch: char) {
    match ch {
        '\x1b' => out.push_str("\\e"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\\' => out.push_str("\\\\"),
        c if (c as u32) < 0x20 || c == '\x7f' => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c if (0x80..0xa0).contains(&(c as u32)) || is_bidi_control(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// True for the characters that change the direction of the text around them.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_backslashes_and_bidi_are_escaped() {
        assert_eq!(escape_for_terminal("\x1b]0;x\x07", 40), "\\e]0;x\\x07");
        assert_eq!(escape_for_terminal("\u{9b}2J\x7f", 40), "\\u{9b}2J\\x7f");
        assert_eq!(escape_for_terminal("\\e", 40), "\\\\e");
        assert_ne!(
            escape_for_terminal("\\e", 40),
            escape_for_terminal("\x1b", 40)
        );
        assert_eq!(escape_for_terminal("ab\u{202e}cd", 40), "ab\\u{202e}cd");
        assert_eq!(escape_for_terminal("\0", 40), "\\x00");
        assert_eq!(escape_for_terminal("é 漢", 40), "é 漢");
    }

    #[test]
    fn long_text_is_cut() {
        assert_eq!(escape_for_terminal(&"x".repeat(50), 5), "xxxxx…");
        assert_eq!(escape_for_terminal("xxxxx", 5), "xxxxx");
    }
}
