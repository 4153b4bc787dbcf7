//! Secret redaction: what a secret's value looks like on screen never reaches a cast.
//!
//! Each occurrence of a secret value in program output is replaced by as many `*` as it has
//! characters, so the screen layout is unchanged. So are its common transformations (for a
//! value of at least [`MIN_TRANSFORMED`] characters): the value reversed, in base64 (standard
//! with and without padding, URL-safe) and in hex (either case); and a prefix of it cut short
//! but long — at least [`MIN_PREFIX`] characters and half the value. A value split across two reads is still
//! caught: output that ends with the start of a secret is held back until the next read shows
//! whether the secret follows. `redact = [...]` regexes scrub their matches in the printed
//! text (escape sequences and control characters left out, as for secrets); a token printed in
//! two reads is caught too, because the last word of a read (the text after its last blank, up
//! to [`MAX_HELD_WORD`] bytes) is held back until the next read or until
//! output goes idle: a match with no blank in it that is split across reads is seen whole.

/// The longest last word held back for `redact` patterns; a longer run of printable
/// characters is released (a pattern match longer than this split across reads is missed).
pub const MAX_HELD_WORD: usize = 256;

/// The shortest secret whose transformations (reversed, base64, hex) are scrubbed too: in
/// shorter ones they would star innocent text (the hex of `ab` is `6162`).
pub const MIN_TRANSFORMED: usize = 6;

/// The shortest prefix of a secret that is scrubbed as the secret is (and never less than half
/// of it): a program that prints the value cut short leaks most of it.
pub const MIN_PREFIX: usize = 8;

use regex::Regex;

/// Scrubs secrets and patterns from output text.
#[derive(Debug, Default)]
pub struct Redactor {
    /// The values and their transformations, longest first.
    secrets: Vec<String>,
    /// Secrets whose long prefixes are scrubbed too, each with the byte length of the
    /// shortest such prefix.
    prefixes: Vec<(String, usize)>,
    patterns: Vec<Regex>,
    held: String,
    /// The last word released by [`flush`](Self::flush) (output went quiet mid-word), raw:
    /// if the next write goes on with it and a pattern matches across the two, its first
    /// part is already out ([`split_match`](Self::split_match)).
    flushed_word: String,
    /// A pattern that matched across a flush: its first part reached the output unscrubbed.
    split: Option<String>,
}

impl Redactor {
    /// A redactor for these regular expressions (and no secrets yet).
    pub fn new(patterns: Vec<Regex>) -> Self {
        Redactor {
            secrets: Vec::new(),
            prefixes: Vec::new(),
            patterns,
            held: String::new(),
            flushed_word: String::new(),
            split: None,
        }
    }

    /// Adds a secret value to scrub (empty values are ignored), with its transformations and
    /// long prefixes (see the module docs).
    pub fn add_secret(&mut self, value: &str) {
        if value.is_empty() || self.secrets.iter().any(|s| s == value) {
            return;
        }
        let chars = value.chars().count();
        for form in forms(value) {
            if !self.secrets.contains(&form) {
                self.secrets.push(form);
            }
        }
        // Longest first, so a secret containing another is scrubbed whole.
        self.secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        if chars > MIN_PREFIX {
            if let Some(end) = shortest_prefix(value) {
                self.prefixes.push((value.to_string(), end));
            }
        }
    }

    /// True when there is nothing to scrub.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty() && self.patterns.is_empty()
    }

    /// Scrubs `text`; returns what can be released now (a possible secret prefix at the end
    /// is held back).
    pub fn push(&mut self, text: &str) -> String {
        if self.is_empty() {
            return text.to_string();
        }
        let mut all = std::mem::take(&mut self.held);
        all.push_str(text);
        self.check_continued_word(&all);
        // The last word waits, unscrubbed, for the rest of a pattern's match.
        let word = all.split_off(all.len() - self.last_word(&all));
        let mut out = self.scrub_drawn(&self.scrub(&all));
        let hold = self.longest_secret_prefix_suffix(&out);
        if hold > 0 {
            self.held = out.split_off(out.len() - hold);
        }
        self.held.push_str(&word);
        out
    }

    /// Releases anything held back (at end of output, or when output goes idle), scrubbed.
    pub fn flush(&mut self) -> String {
        let held = std::mem::take(&mut self.held);
        if !self.patterns.is_empty() {
            let word = held.len() - self.last_word(&held);
            self.flushed_word = held[word..].to_string();
        }
        self.scrub_drawn(&self.scrub(&held))
    }

    /// The pattern whose match was split by a flush (output quiet for a while in the middle of
    /// a word): its first part was released unscrubbed before the rest came. Taken once.
    pub fn split_match(&mut self) -> Option<String> {
        self.split.take()
    }

    /// After a flush released a word, does `next` go on with it into a pattern's match?
    fn check_continued_word(&mut self, next: &str) {
        if self.flushed_word.is_empty() {
            return;
        }
        let word = std::mem::take(&mut self.flushed_word);
        // Only a write that goes on with the word (nothing printed and no blank before it).
        let starts = next.chars().next().is_some_and(|c| !c.is_whitespace());
        if !starts {
            return;
        }
        let joined = format!("{word}{next}");
        let (alone, _) = printed(&word);
        let (both, _) = printed(&joined);
        for re in &self.patterns {
            if re
                .find_iter(&both)
                .any(|m| m.start() < alone.len() && m.end() > alone.len())
            {
                self.split = Some(re.as_str().to_string());
                return;
            }
        }
    }

    /// Whether text is being held back.
    pub fn holding(&self) -> bool {
        !self.held.is_empty()
    }

    /// `text` with every secret (and each form of it kept: reversed, encoded, a long
    /// prefix) replaced by `*`.
    pub fn scrub(&self, text: &str) -> String {
        let mut s = text.to_string();
        for secret in &self.secrets {
            if s.contains(secret.as_str()) {
                s = s.replace(secret.as_str(), &"*".repeat(secret.chars().count()));
            }
        }
        // A long prefix: from each start of the shortest one, as far as the secret goes on.
        for (secret, shortest) in &self.prefixes {
            let head = &secret[..*shortest];
            if !s.contains(head) {
                continue;
            }
            let mut out = String::with_capacity(s.len());
            let mut rest = s.as_str();
            while let Some(i) = rest.find(head) {
                out.push_str(&rest[..i]);
                let tail = &rest[i..];
                let same: usize = tail
                    .chars()
                    .zip(secret.chars())
                    .take_while(|(a, b)| a == b)
                    .map(|(a, _)| a.len_utf8())
                    .sum();
                out.push_str(&"*".repeat(tail[..same].chars().count()));
                rest = &tail[same..];
            }
            out.push_str(rest);
            s = out;
        }
        s
    }

    /// [`scrub`](Self::scrub) for text that a limit or a timeout cut short: its end, when it
    /// is the start of a secret (of any length), is starred too. A stream read whole holds
    /// back no tail, so without this a secret cut by the limit after 19 of its 40 characters
    /// would show those 19, a prefix too short for the long-prefix rule.
    pub fn scrub_cut(&self, text: &str) -> String {
        let mut out = self.scrub(text);
        let held = self.longest_secret_prefix_suffix(&out);
        if held > 0 {
            let start = out.len() - held;
            let stars = "*".repeat(out[start..].chars().count());
            out.replace_range(start.., &stars);
        }
        out
    }

    /// Replaces each secret drawn with escape sequences or control characters between its
    /// characters (`hun ESC[0m ter2`, one character at a time with cursor moves in between),
    /// and each match of a `redact` pattern: both are matched in the printed characters (the
    /// text without its escape sequences and control characters), and the characters of a
    /// match become `*` where they are, the sequences between them kept.
    fn scrub_drawn(&self, text: &str) -> String {
        let drawn_secrets = !self.secrets.is_empty() && text.contains(|c: char| c.is_control());
        if !drawn_secrets && self.patterns.is_empty() {
            return text.to_string();
        }
        let mut starred = std::collections::BTreeSet::new();
        if drawn_secrets {
            // A secret drawn across a line end is caught too.
            let (printed, at) = printed_chars(text, false);
            for secret in &self.secrets {
                for (start, m) in printed.match_indices(secret.as_str()) {
                    starred.extend((start..start + m.len()).map(|b| at[b]));
                }
            }
        }
        if !self.patterns.is_empty() {
            let (printed, at) = printed(text);
            for re in &self.patterns {
                for m in re.find_iter(&printed).filter(|m| !m.is_empty()) {
                    starred.extend(m.range().map(|b| at[b]));
                }
            }
        }
        if starred.is_empty() {
            return text.to_string();
        }
        text.char_indices()
            .map(|(i, c)| if starred.contains(&i) { '*' } else { c })
            .collect()
    }

    /// Length in bytes of the last word of `text` (after its last blank), which a `redact`
    /// pattern may match only with the next read; 0 without patterns, when nothing printed is
    /// in it, or when it is longer than [`MAX_HELD_WORD`].
    fn last_word(&self, text: &str) -> usize {
        if self.patterns.is_empty() {
            return 0;
        }
        // After the last blank (a space, tab, CR, LF...): control characters and escape
        // sequences between printed characters do not part them on the screen, so they do
        // not end a word either. A word with nothing printed in it (a query at the end of a
        // read) holds nothing, so answers are not delayed.
        let mut start = None;
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '\x1b' {
                skip_escape(&mut chars);
            } else if c.is_whitespace() {
                start = None;
            } else if !c.is_control() {
                // The word starts at its first printed character.
                start.get_or_insert(i);
            }
        }
        let Some(start) = start else {
            return 0;
        };
        let len = text.len() - start;
        if len > MAX_HELD_WORD {
            0
        } else {
            len
        }
    }

    /// Length in bytes of the longest suffix of `text` that is a proper prefix of a secret.
    fn longest_secret_prefix_suffix(&self, text: &str) -> usize {
        let mut best = 0;
        for secret in &self.secrets {
            for (i, _) in secret.char_indices().skip(1) {
                let prefix = &secret[..i];
                if i > best && text.ends_with(prefix) {
                    best = i;
                }
            }
        }
        best
    }
}

/// The forms of a secret's value that are scrubbed as the value is: the value itself and,
/// for one of at least [`MIN_TRANSFORMED`] characters, reversed, in base64 (standard with and
/// without padding, URL-safe) and in hex (either case). Without duplicates, the value first.
pub fn forms(value: &str) -> Vec<String> {
    let mut forms = vec![value.to_string()];
    if value.chars().count() >= MIN_TRANSFORMED {
        let bytes = value.as_bytes();
        let padded = base64(bytes, STANDARD, true);
        for form in [
            value.chars().rev().collect(),
            padded.trim_end_matches('=').to_string(),
            padded,
            base64(bytes, URL_SAFE, false),
            hex(bytes, false),
            hex(bytes, true),
        ] {
            if !forms.contains(&form) {
                forms.push(form);
            }
        }
    }
    forms
}

/// The byte length of the shortest prefix of `value` that is scrubbed as the value is (at
/// least [`MIN_PREFIX`] characters and half of it), when the value is longer than that.
pub fn shortest_prefix(value: &str) -> Option<usize> {
    let chars = value.chars().count();
    if chars <= MIN_PREFIX {
        return None;
    }
    let shortest = MIN_PREFIX.max(chars.div_ceil(2));
    let end = value
        .char_indices()
        .nth(shortest)
        .map_or(value.len(), |(i, _)| i);
    (end < value.len()).then_some(end)
}

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `bytes` in standard base64 (RFC 4648, `=`-padded): how `tuicast run` writes output that
/// is not UTF-8.
pub fn base64_standard(bytes: &[u8]) -> String {
    base64(bytes, STANDARD, true)
}

/// `bytes` in base64 with the alphabet `abc`, `=`-padded or not.
fn base64(bytes: &[u8], abc: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for k in 0..4 {
            if k <= n {
                out.push(abc[(v >> (18 - 6 * k) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

/// `bytes` in hex, in lower or upper case.
fn hex(bytes: &[u8], upper: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = if upper {
            write!(out, "{b:02X}")
        } else {
            write!(out, "{b:02x}")
        };
    }
    out
}

/// The printed characters of `text` and its blanks (tabs and line ends too), without its
/// escape sequences and other control characters — what `redact` patterns are matched in —
/// and for each of their bytes the byte offset in `text` of the character it belongs to.
pub fn printed(text: &str) -> (String, Vec<usize>) {
    printed_chars(text, true)
}

/// [`printed`], with or without the blanks that are control characters.
fn printed_chars(text: &str, blanks: bool) -> (String, Vec<usize>) {
    let mut printed = String::new();
    let mut at = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\x1b' {
            skip_escape(&mut chars);
        } else if !c.is_control() || (blanks && c.is_whitespace()) {
            printed.push(c);
            at.extend(std::iter::repeat_n(i, c.len_utf8()));
        }
    }
    (printed, at)
}

/// Skips the rest of an escape sequence whose ESC was just taken: CSI (parameters,
/// intermediates, a final byte), OSC/DCS/SOS/PM/APC strings (to BEL or ST), or ESC with
/// intermediates and a final byte.
fn skip_escape(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) {
    let Some(&(_, first)) = chars.peek() else {
        return;
    };
    chars.next();
    match first {
        '[' => {
            // As a terminal reads it: a final byte ends it, CAN and SUB cancel it, and an ESC
            // cancels it and begins the next sequence (left for the caller to read).
            while let Some(&(_, c)) = chars.peek() {
                if c == '\x1b' {
                    return;
                }
                chars.next();
                if ('\x40'..='\x7e').contains(&c) || c == '\x18' || c == '\x1a' {
                    break;
                }
            }
        }
        ']' | 'P' | 'X' | '^' | '_' => {
            // A string ends at BEL, and, as a terminal reads it, at CAN or SUB (cancelled) or
            // at an ESC: `ESC \` (ST) or any other, which begins the next sequence (left for
            // the caller to read, as in a CSI).
            while let Some(&(_, c)) = chars.peek() {
                if c == '\x1b' {
                    return;
                }
                chars.next();
                if c == '\x07' || c == '\x18' || c == '\x1a' {
                    break;
                }
            }
        }
        c if ('\x20'..='\x2f').contains(&c) => {
            while let Some(&(_, c)) = chars.peek() {
                if c == '\x1b' {
                    return;
                }
                chars.next();
                if !('\x20'..='\x2f').contains(&c) {
                    break;
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::Redactor;

    #[test]
    fn an_esc_inside_a_sequence_ends_it_as_a_terminal_reads_it() {
        // `ESC [ ? BEL ***` then `ESC [ t`: the second ESC cancels the first sequence, and
        // `t` ends the second; the screen shows `ok_q` (found by the fuzz round).
        let (shown, _) = super::printed("\x1b[?\x07*******\0\x1b[tok_\x03q");
        assert_eq!(shown, "ok_q");
        assert_eq!(super::printed("a\x1b[1\x18b").0, "ab");
    }

    #[test]
    fn a_string_ends_where_a_terminal_ends_it() {
        use crate::term::{Engine as _, NativeEngine};
        for input in [
            "\x1b]0;title\x1b[31mred",
            "\x1b]0;title\x07ok",
            "\x1b]0;title\x1b\\ok",
            "\x1b]2;x\x1aok",
            "\x1bPq#0;1\x18ok",
            "\x1b_apc\x1bcok",
            "\x1b^pm\x1b]0;t\x07ok",
            "a\x1b(\x18b",
        ] {
            let mut engine = NativeEngine::new(crate::size::Size { cols: 40, rows: 2 });
            engine.feed(input);
            let screen = engine.screen().row_text(0).trim_end().to_string();
            assert_eq!(super::printed(input).0, screen, "{input:?}");
        }
    }

    #[test]
    fn the_start_of_a_secret_at_the_end_of_cut_text_is_starred() {
        let mut r = Redactor::new(Vec::new());
        r.add_secret("0123456789abcdefghijklmnopqrstuvwxyzABCD");
        // 19 of 40 characters: below the long-prefix rule's half.
        assert_eq!(
            r.scrub("key=0123456789abcdefghi"),
            "key=0123456789abcdefghi"
        );
        assert_eq!(
            r.scrub_cut("key=0123456789abcdefghi"),
            "key=*******************"
        );
        assert_eq!(r.scrub_cut("key=0"), "key=*");
        // Text that is no start of a secret is left as it is.
        assert_eq!(r.scrub_cut("key=x"), "key=x");
    }

    #[test]
    fn secrets_are_starred_even_across_reads() {
        let mut r = Redactor::new(Vec::new());
        r.add_secret("hunter2");
        assert_eq!(r.push("pw: hunter2!"), "pw: *******!");
        let mut out = r.push("x hun");
        assert_eq!(out, "x ");
        out.push_str(&r.push("ter2 y"));
        assert_eq!(out, "x ******* y");
        assert_eq!(r.push("hu"), "");
        assert_eq!(r.flush(), "hu");
    }

    #[test]
    fn a_secrets_common_transformations_and_long_prefixes_are_starred() {
        // Issue 23: a program that printed the secret reversed, base64-encoded or cut short got
        // it into replies and the cast.
        let secret = "hunter2-Zq9-unlikely";
        let mut r = Redactor::new(Vec::new());
        r.add_secret(secret);
        assert_eq!(
            super::base64(b"hunter2", super::STANDARD, true),
            "aHVudGVyMg=="
        );
        assert_eq!(super::base64(b"ab?>", super::URL_SAFE, false), "YWI_Pg");
        let reversed: String = secret.chars().rev().collect();
        let shown = [
            reversed,
            "aHVudGVyMi1acTktdW5saWtlbHk=".to_string(),
            "aHVudGVyMi1acTktdW5saWtlbHk".to_string(),
            "68756e746572322d5a71392d756e6c696b656c79".to_string(),
            "68756E746572322D5A71392D756E6C696B656C79".to_string(),
            secret[..12].to_string(),
            secret[..10].to_string(),
        ];
        for s in &shown {
            let out = r.push(&format!("[{s}]\r\n"));
            assert_eq!(out, format!("[{}]\r\n", "*".repeat(s.len())), "{s}");
        }
        // A short prefix, or a word that only starts alike, is left.
        assert_eq!(r.push("[hunter2-]\r\n"), "[hunter2-]\r\n");
        // Short secrets have no transformations (their hex would be ordinary digits).
        let mut r = Redactor::new(Vec::new());
        r.add_secret("ab1");
        assert_eq!(r.push("616231 1ba\r\n"), "616231 1ba\r\n");
    }

    #[test]
    fn secrets_drawn_with_sequences_between_their_characters_are_starred() {
        let mut r = Redactor::new(Vec::new());
        r.add_secret("hunter2");
        assert_eq!(r.push("pw hun\x1b[0mter2!"), "pw ***\x1b[0m****!");
        let drawn = "\x1b[2;1Hh\x1b[2;2Hu\x1b[2;3Hn\x1b[2;4Ht\x1b[2;5He\x1b[2;6Hr\x1b[2;7H2";
        let out = r.push(drawn);
        assert!(
            !out.contains('h') && out.matches('*').count() == 7,
            "{out:?}"
        );
        assert_eq!(r.push("\x1b]0;hun\x07ter"), "\x1b]0;hun\x07ter");
    }

    #[test]
    fn patterns_are_starred_with_the_same_width() {
        let mut r = Redactor::new(vec![regex::Regex::new(r"tok_[a-z0-9]+").unwrap()]);
        let mut out = r.push("key tok_ab12 end");
        out.push_str(&r.flush());
        assert_eq!(out, "key ******** end");
    }

    #[test]
    fn a_pattern_split_by_a_pause_is_reported() {
        let mut r = Redactor::new(vec![regex::Regex::new(r"tok_[a-z0-9]+").unwrap()]);
        assert_eq!(r.push("key tok"), "key ");
        assert_eq!(r.flush(), "tok", "output went quiet: released as it is");
        assert_eq!(r.split_match(), None);
        r.push("_ab12 end");
        assert_eq!(r.split_match().as_deref(), Some("tok_[a-z0-9]+"));
        assert_eq!(r.split_match(), None, "taken once");
        // A word that ends at the pause is no split.
        let mut r = Redactor::new(vec![regex::Regex::new(r"tok_[a-z0-9]+").unwrap()]);
        r.push("tok_ab");
        r.flush();
        r.push(" next");
        assert_eq!(r.split_match(), None);
    }

    #[test]
    fn a_pattern_is_matched_in_the_printed_text() {
        let mut r = Redactor::new(vec![regex::Regex::new(r"tok_[a-z0-9]+").unwrap()]);
        // Styled in the middle: starred where its characters are.
        assert_eq!(
            r.push("tok_\x1b[1mab\x1b[0m\r\n"),
            "****\x1b[1m**\x1b[0m\r\n"
        );
        // The final of a sequence is no printed character: `ESC t` then `ok_1` is no match.
        assert_eq!(r.push("\x1btok_1\r\n"), "\x1btok_1\r\n");
    }

    #[test]
    fn a_pattern_match_split_across_reads_is_starred() {
        let mut r = Redactor::new(vec![regex::Regex::new(r"tok_[a-z0-9]+").unwrap()]);
        let mut out = r.push("key tok_ab");
        assert_eq!(out, "key ", "the last word waits for the next read");
        out.push_str(&r.push("12 end\r\n"));
        assert_eq!(out, "key ******** end\r\n");
        assert!(
            !r.holding(),
            "a read ending in a blank or control holds nothing"
        );
        // Split at the underscore, then idle: what is held is released as it is.
        let mut out = r.push("tok");
        out.push_str(&r.push("_x9"));
        assert_eq!(out, "");
        out.push_str(&r.flush());
        assert_eq!(out, "******", "scrubbed when it was pushed whole");
        assert_eq!(
            r.push("a query \x1b[6n"),
            "a query \x1b[6n",
            "no query waits"
        );
        assert_eq!(r.push("\x1b[1mtok_"), "\x1b[1m", "the word waits");
        assert_eq!(r.push("q7\x1b[0m\n"), "******\x1b[0m\n");
        let mut out = r.push("to\0\0");
        out.push_str(&r.push("k_1 "));
        assert_eq!(
            out, "**\0\0*** ",
            "a NUL does not part a word on the screen"
        );
        let long = "x".repeat(super::MAX_HELD_WORD + 1);
        assert_eq!(
            r.push(&long),
            long,
            "a word longer than the limit is released"
        );
    }
}
