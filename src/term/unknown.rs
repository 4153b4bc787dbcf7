//! The sequences the native engine does not understand, named by kind for
//! [`Unsupported`](crate::term::Unsupported): which DEC private modes it follows, which
//! queries the recorder answers (they change nothing on the screen), and the kind of a DCS
//! string.

/// DEC private modes the native engine follows: cursor keys, DECCOLM, origin, auto-wrap,
/// cursor visibility, the alternate screens, and the modes tuicast reads from the output for
/// input encoding, queries and settling (mouse tracking and encodings, focus reporting,
/// bracketed paste, keypad, cursor blink, synchronized output).
pub(in crate::term) const FOLLOWED_DEC_MODES: &[u16] = &[
    1, 3, 6, 7, 9, 12, 25, 47, 66, 1000, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 1047, 1048,
    1049, 2004, 2026,
];

/// The kind of a DCS string nothing understands, from its header (`$q`, `+q`, …): `None` for
/// DECRQSS and XTGETTCAP (queries, for the recorder's answerer) and an empty header.
pub(in crate::term) fn dcs_kind(head: &str) -> Option<String> {
    let fin = head.chars().last()?;
    let text = &head[..head.len() - fin.len_utf8()];
    let marker: String = text.chars().filter(|c| ('<'..='?').contains(c)).collect();
    let intermediates: String = text.chars().filter(|c| (' '..='/').contains(c)).collect();
    if marker.is_empty() && matches!((intermediates.as_str(), fin), ("$" | "+", 'q')) {
        return None;
    }
    Some(format!("DCS {marker}{intermediates}{fin}"))
}

/// Queries the recorder answers (`record::query`) or deliberately leaves unanswered: they
/// change nothing on the screen.
pub(in crate::term) fn is_answered_query(
    marker: Option<char>,
    intermediates: &str,
    fin: char,
) -> bool {
    matches!(
        (marker, intermediates, fin),
        (None | Some('>') | Some('='), "", 'c')
            | (None | Some('?'), "", 'n')
            | (Some('>'), "", 'q')
            | (Some('?') | Some('>') | Some('=') | Some('<'), "", 'u')
            | (None | Some('?'), "$", 'p')
            | (None, "$", 'w')
            | (None, "*", 'y')
            | (None, "", 't' | 'x')
    )
}

#[cfg(test)]
mod tests {
    use crate::term::{Engine, NativeEngine, Size};

    fn unknown(input: &str) -> Vec<(String, u64)> {
        let mut e = NativeEngine::new(Size { cols: 10, rows: 3 });
        e.feed(input);
        e.unsupported()
            .iter()
            .map(|(k, n)| (k.to_string(), n))
            .collect()
    }

    #[test]
    fn unknown_sequences_are_counted_by_kind() {
        let got = unknown(
            "\x1b[?2004h\x1b[?1049;7777h\x1b[?7777l\x1b]7;file:///x\x07\x1b]133;A\x1b\\\
             \x1bP1$qm\x1b\\\x1bPq#0;2;0;0;0\x1b\\\x1b_Gi=1\x1b\\\x1b[>4;1m\x1b[5J\x1b[12h\
             \x1b Fx\x1b[1;31m\x1b[2J\x1b[6n\x1b[c\x1b]2;t\x07\x1b]52;c;?\x07\x1b=",
        );
        let want: Vec<(String, u64)> = [
            ("APC", 1),
            ("CSI 12 h", 1),
            // (CSI > 4 ; 1 m, modifyOtherKeys, is followed: `term::Keyboard`.)
            ("CSI ?7777 h", 1),
            ("CSI ?7777 l", 1),
            ("CSI J", 1),
            ("DCS q", 1),
            ("ESC  F", 1),
            // (OSC 133, a shell mark, is kept: `TermState::shell_marks`.)
            ("OSC 7", 1),
        ]
        .iter()
        .map(|(k, n)| (k.to_string(), *n))
        .collect();
        assert_eq!(got, want);
        assert_eq!(unknown("plain text\r\n\x1b[0m\x1b[H"), vec![]);
        assert_eq!(unknown("\x1b]7;a\x07\x1b]7;b\x07")[0].1, 2);
    }
}
