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
        let mut out = self.scrub(&all);
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
    fn patterns_are_starred_with_the_same_width() {
        let mut r = Redactor::new(vec![regex::Regex::new(r"tok_[a-z0-9]+").unwrap()]);
        assert_eq!(r.push("key tok_ab12 end"), "key ******** end");
    }
}
