//! The secret redactor (`record::redact`) fed output split into reads at any places: a secret
//! never survives in what it releases, a `redact` pattern never matches the printed text of a
//! word it releases (without escape sequences and controls, as the redactor matches it;
//! unless the input has a word longer than the held-word limit), and every character keeps
//! its place (a `*` for each character scrubbed, the layout unchanged).
//!
//! Input: one byte for the secret's length (0 to 15), the secret's bytes (printable, no blank
//! and no `*`: control characters and blanks are dropped from it), a flag byte (odd: the
//! pattern `tok_[a-z0-9]+` too), then output where each byte 0xFF ends a read.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tuicast::record::redact::{printed, Redactor, MAX_HELD_WORD};

/// Ends a read in the input (never valid UTF-8 on its own, so output keeps its meaning).
const SPLIT: u8 = 0xff;

fuzz_target!(|data: &[u8]| {
    let [len, rest @ ..] = data else {
        return;
    };
    let len = (*len as usize % 16).min(rest.len());
    let (secret, rest) = rest.split_at(len);
    let secret: String = String::from_utf8_lossy(secret)
        .chars()
        .filter(|c| !c.is_control() && !c.is_whitespace() && *c != '*' && *c != '\u{fffd}')
        .collect();
    let [flag, output @ ..] = rest else {
        return;
    };
    let pattern = (flag % 2 == 1).then(|| regex::Regex::new(r"tok_[a-z0-9]+").unwrap());
    let mut r = Redactor::new(pattern.iter().cloned().collect());
    r.add_secret(&secret);

    let mut input = String::new();
    let mut out = String::new();
    for chunk in output.split(|&b| b == SPLIT) {
        let text = String::from_utf8_lossy(chunk);
        input.push_str(&text);
        out.push_str(&r.push(&text));
    }
    out.push_str(&r.flush());
    assert!(!r.holding());

    assert_eq!(
        out.chars().count(),
        input.chars().count(),
        "every character keeps its place: {input:?} -> {out:?}"
    );
    for (a, b) in input.chars().zip(out.chars()) {
        assert!(
            a == b || b == '*',
            "only stars replace: {input:?} -> {out:?}"
        );
    }
    if !secret.is_empty() {
        assert!(
            !out.contains(secret.as_str()),
            "the secret {secret:?} survived: {input:?} -> {out:?}"
        );
    }
    if let Some(re) = pattern {
        // Words as the redactor holds them: parted by the blanks that are printed (not
        // those inside an escape sequence or string, which may run on to a later BEL), each
        // reaching from its first printed character to the next word's.
        let (shown, at) = printed(&input);
        let mut starts = Vec::new();
        let mut in_word = false;
        for (i, c) in shown.char_indices() {
            let blank = c.is_whitespace();
            if !blank && !in_word {
                starts.push(at[i]);
            }
            in_word = !blank;
        }
        starts.push(input.len());
        let long_word = starts.windows(2).any(|w| w[1] - w[0] > MAX_HELD_WORD);
        if !long_word {
            // Word by word: a blank (a line end too) parts a match on the screen.
            for word in printed(&out).0.split(char::is_whitespace) {
                assert!(
                    !re.is_match(word),
                    "the pattern matched {word:?} in what was released: {input:?} -> {out:?}"
                );
            }
        }
    }
});
