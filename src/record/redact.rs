//! Secret redaction: what a secret's value looks like on screen never reaches a cast.
//!
//! Each occurrence of a secret value in program output is replaced by as many `*` as it has
//! characters, so the screen layout is unchanged. A value split across two reads is still
//! caught: output that ends with the start of a secret is held back until the next read shows
//! whether the secret follows. `redact = [...]` regexes scrub matches within each read.

use regex::Regex;

/// Scrubs secrets and patterns from output text.
#[derive(Debug, Default)]
pub(crate) struct Redactor {
    secrets: Vec<String>,
    patterns: Vec<Regex>,
    held: String,
}

impl Redactor {
    /// A redactor for these regular expressions (and no secrets yet).
    pub(crate) fn new(patterns: Vec<Regex>) -> Self {
        Redactor {
            secrets: Vec::new(),
            patterns,
            held: String::new(),
        }
    }

    /// Adds a secret value to scrub (empty values are ignored).
    pub(crate) fn add_secret(&mut self, value: &str) {
        if !value.is_empty() && !self.secrets.iter().any(|s| s == value) {
            self.secrets.push(value.to_string());
            // Longest first, so a secret containing another is scrubbed whole.
            self.secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        }
    }

    /// True when there is nothing to scrub.
    pub(crate) fn is_empty(&self) -> bool {
        self.secrets.is_empty() && self.patterns.is_empty()
    }

    /// Scrubs `text`; returns what can be released now (a possible secret prefix at the end
    /// is held back).
    pub(crate) fn push(&mut self, text: &str) -> String {
        if self.is_empty() {
            return text.to_string();
        }
        let mut all = std::mem::take(&mut self.held);
        all.push_str(text);
        let mut out = self.scrub_drawn(&self.scrub(&all));
        let hold = self.longest_secret_prefix_suffix(&out);
        if hold > 0 {
            self.held = out.split_off(out.len() - hold);
        }
        out
    }

    /// Releases anything held back (at end of output, or when output goes idle).
    pub(crate) fn flush(&mut self) -> String {
        std::mem::take(&mut self.held)
    }

    /// Whether text is being held back.
    pub(crate) fn holding(&self) -> bool {
        !self.held.is_empty()
    }

    fn scrub(&self, text: &str) -> String {
        let mut s = text.to_string();
        for secret in &self.secrets {
            if s.contains(secret.as_str()) {
                s = s.replace(secret.as_str(), &"*".repeat(secret.chars().count()));
            }
        }
        for re in &self.patterns {
            s = re
                .replace_all(&s, |c: &regex::Captures<'_>| {
                    "*".repeat(c[0].chars().count())
                })
                .into_owned();
        }
        s
    }

    /// Replaces each secret drawn with escape sequences or control characters between its
    /// characters (`hun ESC[0m ter2`, one character at a time with cursor moves in between):
    /// the printed characters are matched, and the ones of a match become `*` where they are,
    /// the sequences between them kept.
    fn scrub_drawn(&self, text: &str) -> String {
        if self.secrets.is_empty() || !text.contains(|c: char| c.is_control()) {
            return text.to_string();
        }
        // The printed characters, and where each byte of them is in `text`.
        let mut printed = String::new();
        let mut at = Vec::new();
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '\x1b' {
                skip_escape(&mut chars);
            } else if !c.is_control() {
                printed.push(c);
                at.extend(std::iter::repeat_n(i, c.len_utf8()));
            }
        }
        let mut starred = std::collections::BTreeSet::new();
        for secret in &self.secrets {
            for (start, m) in printed.match_indices(secret.as_str()) {
                starred.extend((start..start + m.len()).map(|b| at[b]));
            }
        }
        if starred.is_empty() {
            return text.to_string();
        }
        text.char_indices()
            .map(|(i, c)| if starred.contains(&i) { '*' } else { c })
            .collect()
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
            for (_, c) in chars.by_ref() {
                if ('\x40'..='\x7e').contains(&c) {
                    break;
                }
            }
        }
        ']' | 'P' | 'X' | '^' | '_' => {
            let mut esc = false;
            for (_, c) in chars.by_ref() {
                if c == '\x07' || (esc && c == '\\') {
                    break;
                }
                esc = c == '\x1b';
            }
        }
        c if ('\x20'..='\x2f').contains(&c) => {
            for (_, c) in chars.by_ref() {
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
        assert_eq!(r.push("key tok_ab12 end"), "key ******** end");
    }
}
