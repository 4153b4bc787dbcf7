//! The quick reader of the common event line, `[time, "code", "data"]`.
//!
//! Terminal output is full of `\u001b` escapes, which a general JSON parser decodes slowly
//! (each one a detour of about a hundred instructions). This reader handles exactly the
//! well-formed shape of an event line and nothing else: whenever anything is unusual (an
//! escape in the code, a control character, a lone surrogate, a number JSON does not allow,
//! extra elements) it gives up and the thorough parser reads the line, finding the error and
//! its place. So it never accepts a line the thorough parser rejects, and reads what it
//! accepts the same way (property-tested in `tests/it/codec.rs`).

/// A line read by [`event_line`]: the time as written, the code, and the data (`None` when
/// skimming).
pub(super) type QuickEvent<'a> = (f64, &'a str, Option<String>);

/// Reads `[time, "code", "data"]`; with `decode` false the data string is checked (escapes,
/// surrogate pairs, control characters) but not built. `None`: let the thorough parser read it.
pub(super) fn event_line(line: &str, decode: bool) -> Option<QuickEvent<'_>> {
    event_bytes(line.as_bytes(), decode)
}

/// [`event_line`] on a line not yet known to be UTF-8, which it never needs to check whole:
/// outside the strings it accepts only ASCII, the code is checked on its own, and the data is
/// checked once decoded. (The decoded data is UTF-8 exactly when the raw runs of the line in
/// it are: each run ends at an ASCII byte, and what an escape adds is a whole character, so it
/// can neither complete a run's broken sequence nor continue one.) `None` also for a line that
/// is not UTF-8: the thorough reader says where.
pub(super) fn event_bytes(b: &[u8], decode: bool) -> Option<QuickEvent<'_>> {
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i = skip_ws(b, i + 1);
    let start = i;
    while i < b.len() && matches!(b[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
        i += 1;
    }
    // A short plain decimal by hand, anything else by the JSON parser itself: the same
    // grammar and the same rounding.
    let time = match short_decimal(&b[start..i]) {
        Some(t) => t,
        None => serde_json::from_slice(&b[start..i]).ok()?,
    };
    i = comma(b, i)?;
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let code_start = i + 1;
    let code_end = code_start + b[code_start..].iter().position(|&c| c == b'"')?;
    let code = std::str::from_utf8(&b[code_start..code_end]).ok()?;
    if code.bytes().any(|c| c == b'\\' || c < 0x20) {
        return None;
    }
    i = comma(b, code_end + 1)?;
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut data = decode.then(|| Vec::with_capacity(b.len() - i));
    i = string(b, i + 1, data.as_mut())?;
    // (The one check that the data is UTF-8: see above.)
    let data = match data {
        Some(bytes) => Some(String::from_utf8(bytes).ok()?),
        None => None,
    };
    i = skip_ws(b, i);
    if b.get(i) != Some(&b']') || skip_ws(b, i + 1) != b.len() {
        return None;
    }
    Some((time, code, data))
}

/// Powers of ten exact in an `f64`, up to the most digits [`short_decimal`] reads.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// A time as recorders write it (`0.123456`, `12`): digits, maybe a point and more digits,
/// at most 15 in all and no leading zero; `None` for anything else (the JSON parser reads
/// it). Its digits are an integer below 2^53 and 10^k is exact, so the one division is
/// correctly rounded: the value serde_json gives (which divides the same way).
#[inline]
fn short_decimal(b: &[u8]) -> Option<f64> {
    let mut mantissa: u64 = 0;
    let (mut digits, mut point) = (0usize, None);
    for (k, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
                digits += 1;
            }
            b'.' if point.is_none() && k > 0 => point = Some(k),
            _ => return None,
        }
    }
    let fraction = match point {
        Some(k) if k + 1 == b.len() => return None, // `1.`: not JSON
        Some(k) => b.len() - k - 1,
        None => 0,
    };
    let int_digits = digits - fraction;
    if digits == 0 || digits > 15 || (b[0] == b'0' && int_digits > 1) {
        return None;
    }
    Some(mantissa as f64 / POW10[fraction])
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// Whitespace, a comma, whitespace: the index after them.
fn comma(b: &[u8], i: usize) -> Option<usize> {
    let i = skip_ws(b, i);
    (b.get(i) == Some(&b',')).then(|| skip_ws(b, i + 1))
}

/// Reads the string whose first character is at `i` (after the opening quote), appending its
/// UTF-8 to `out` when given; returns the index after the closing quote.
fn string(b: &[u8], mut i: usize, mut out: Option<&mut Vec<u8>>) -> Option<usize> {
    loop {
        i = plain_run(b, i, out.as_deref_mut());
        match b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => {}
            _ => return None, // a control character: JSON does not allow it raw
        }
        if b.get(i + 1..i + 6) == Some(b"u001b") {
            // ESC, most of the escapes in terminal output.
            push(&mut out, '\x1b');
            i += 6;
            continue;
        }
        let ch = match b.get(i + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = hex4(b, i + 2)?;
                i += 6;
                match unit {
                    0xd800..=0xdbff => {
                        // A high surrogate must be followed by an escaped low one.
                        if b.get(i) != Some(&b'\\') || b.get(i + 1) != Some(&b'u') {
                            return None;
                        }
                        let low = hex4(b, i + 2)?;
                        if !(0xdc00..=0xdfff).contains(&low) {
                            return None;
                        }
                        i += 6;
                        let c = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                        push(&mut out, char::from_u32(c)?);
                        continue;
                    }
                    0xdc00..=0xdfff => return None,
                    _ => {
                        push(&mut out, char::from_u32(unit)?);
                        continue;
                    }
                }
            }
            _ => return None,
        };
        push(&mut out, ch);
        i += 2;
    }
}

/// The index of the first `"`, `\\` or control byte at or after `i` in `b` (or its end),
/// appending the bytes before it to `out` when given: eight bytes at a time, each word copied
/// whole (a fixed-size copy, no call) and what follows the stop taken back. The lowest
/// flagged byte of a word is exact (a false flag can only follow a true one). Both the quick
/// reader and the cast writer find the bytes a JSON string escapes with it.
#[inline(always)]
pub(super) fn plain_run(b: &[u8], mut i: usize, mut out: Option<&mut Vec<u8>>) -> usize {
    while let Some(word) = b.get(i..i + 8) {
        let word: [u8; 8] = word.try_into().unwrap_or_default();
        let flags = special_flags(u64::from_le_bytes(word));
        let n = if flags == 0 {
            8
        } else {
            (flags.trailing_zeros() / 8) as usize
        };
        if let Some(out) = out.as_deref_mut() {
            out.extend_from_slice(&word);
            out.truncate(out.len() - (8 - n));
        }
        i += n;
        if flags != 0 {
            return i;
        }
    }
    let run = i;
    while i < b.len() && b[i] != b'"' && b[i] != b'\\' && b[i] >= 0x20 {
        i += 1;
    }
    if let Some(out) = out {
        out.extend_from_slice(&b[run..i]);
    }
    i
}

/// Whether any byte of `w` is `"`, `\\` or below 0x20 (the classic "has a zero byte" test:
/// `x - 0x01…` borrows into a byte's top bit only where that byte was below 1).
/// The top bit of each byte of `w` (little-endian) that is `"`, `\\` or below 0x20, and
/// possibly of bytes after such a byte (a borrow runs on): the lowest flag is exact.
#[inline]
fn special_flags(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOPS: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * n as u64) & !x;
    let quote = w ^ (ONES * b'"' as u64);
    let backslash = w ^ (ONES * b'\\' as u64);
    (below(quote, 1) | below(backslash, 1) | below(w, 0x20)) & TOPS
}

fn push(out: &mut Option<&mut Vec<u8>>, ch: char) {
    if let Some(out) = out.as_deref_mut() {
        out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
    }
}

/// The four hex digits at `i`.
#[inline]
fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let d = b.get(i..i + 4)?;
    let v = |c: u8| HEX[c as usize] as i32;
    let (a, b, c, e) = (v(d[0]), v(d[1]), v(d[2]), v(d[3]));
    // A non-digit is -1: any one makes the OR negative.
    if (a | b | c | e) < 0 {
        return None;
    }
    Some(((a << 12) | (b << 8) | (c << 4) | e) as u32)
}

/// The value of each byte as a hex digit, -1 for non-digits.
static HEX: [i8; 256] = {
    let mut t = [-1i8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as i8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as i8;
        t[b'A' as usize + i] = 10 + i as i8;
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    #[test]
    fn reads_the_common_line_and_gives_up_on_the_rest() {
        let (t, code, data) =
            event_line(r#"[0.25, "o", "\u001b[1mhi\r\n\ud83d\ude00"]"#, true).expect("quick");
        assert_eq!((t, code), (0.25, "o"));
        assert_eq!(data.as_deref(), Some("\x1b[1mhi\r\n😀"));
        assert_eq!(
            event_line(r#" [ 1e-3 , "m" , "" ] "#, false),
            Some((0.001, "m", None))
        );
        for hard in [
            r#"[0.1, "o", "\ud800"]"#, // lone surrogate
            r#"[0.1, "o", "\udc00"]"#, // lone low surrogate
            "[0.1, \"o\", \"a\tb\"]",  // raw control character
            r#"[0.1, "\u006f", "x"]"#, // escaped code
            r#"[0.1, "o", "x", 4]"#,   // four elements
            r#"[01, "o", "x"]"#,       // not a JSON number
            r#"[0.1, "o", "x"] ,"#,    // trailing text
            r#"[0.1, "o", "\x"]"#,     // bad escape
            r#"[0.1, "o", "\u12"]"#,   // short escape
            r#"[0.1, "o", 5]"#,        // data not a string
        ] {
            assert_eq!(event_line(hard, true), None, "{hard}");
        }
    }

    #[test]
    fn short_decimals_are_read_as_serde_json_reads_them() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut read = 0;
        for _ in 0..200_000 {
            let digits = 1 + (next() % 17) as usize;
            let mut text: String = (0..digits)
                .map(|_| char::from(b'0' + (next() % 10) as u8))
                .collect();
            let point = (next() % (digits as u64 + 2)) as usize;
            if point <= digits {
                text.insert(point, '.');
            }
            let quick = short_decimal(text.as_bytes());
            let serde: Option<f64> = serde_json::from_str(&text).ok();
            if let Some(t) = quick {
                read += 1;
                assert_eq!(Some(t.to_bits()), serde.map(f64::to_bits), "{text}");
            }
        }
        assert!(read > 50_000, "{read}");
        for (text, want) in [("0", Some(0.0)), ("0.25", Some(0.25)), ("12", Some(12.0))] {
            assert_eq!(short_decimal(text.as_bytes()), want, "{text}");
        }
        let long = "9".repeat(40);
        for text in [
            "",
            ".5",
            "1.",
            "01",
            "00.5",
            "1e3",
            "-1",
            "1.2.3",
            "1234567890123456",
            &long,
        ] {
            assert_eq!(short_decimal(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn the_word_test_finds_exactly_quotes_backslashes_and_controls() {
        for byte in 0..=255u8 {
            let wanted = byte == b'"' || byte == b'\\' || byte < 0x20;
            for pos in 0..8 {
                let mut word = *b"abcdefgh";
                word[pos] = byte;
                assert_eq!(
                    special_flags(u64::from_le_bytes(word)) != 0,
                    wanted,
                    "{byte:#x} at {pos}"
                );
            }
        }
        assert_eq!(
            special_flags(u64::from_le_bytes(*b"\xff\x80 ~\x7f\xc3\xa9!")),
            0
        );
        // The lowest flag is the first special byte, whatever follows it.
        for first in 0..8 {
            for byte in [b'"', b'\\', 0, 0x1f] {
                for after in [b'a', b'"', 0, 0x01, 0xff, b'!'] {
                    let mut word = *b"abcdefgh";
                    word[first] = byte;
                    for w in word.iter_mut().skip(first + 1) {
                        *w = after;
                    }
                    let flags = special_flags(u64::from_le_bytes(word));
                    assert_eq!(flags.trailing_zeros() / 8, first as u32, "{word:?}");
                }
            }
        }
    }

    /// Lines from pieces that matter to the reader: escapes of every kind, surrogates, raw
    /// controls, odd numbers, whitespace, quotes.
    fn line_piece() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::sample::select(vec![
            "a",
            "é",
            "😀",
            " ",
            "\\u001b",
            "\\ud83d",
            "\\ude00",
            "\\ud83d\\ude00",
            "\\u00e9",
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\x",
            "\\u12",
            "\t",
            "\"",
            "\\",
            ",",
            "]",
            "[",
        ])
        .prop_map(str::to_string)
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(2000))]

        /// What the quick reader accepts, serde_json reads the same; skimming accepts exactly
        /// what decoding accepts.
        #[test]
        fn agrees_with_serde_json(
            time in proptest::sample::select(vec!["0", "0.5", "1e-3", "-1", "01", "1.", "2E+2", "-0"]),
            code in proptest::sample::select(vec!["o", "i", "m", "r", "", "\\u006f", "x y"]),
            data in proptest::collection::vec(line_piece(), 0..8),
            ws in proptest::sample::select(vec!["", " ", "\t", "  "]),
        ) {
            let line = format!("[{time},{ws}\"{code}\",{ws}\"{}\"]{ws}", data.concat());
            let quick = event_line(&line, true);
            proptest::prop_assert_eq!(quick.is_some(), event_line(&line, false).is_some());
            if let Some((t, c, d)) = quick {
                let (st, sc, sd): (f64, String, String) =
                    serde_json::from_str(&line).expect("serde reads what the quick reader read");
                proptest::prop_assert_eq!(t.to_bits(), st.to_bits());
                proptest::prop_assert_eq!(c, sc.as_str());
                proptest::prop_assert_eq!(d.unwrap(), sd);
            }
        }
    }
}
