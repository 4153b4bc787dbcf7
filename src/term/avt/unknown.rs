//! The sequences neither avt nor this layer understands, named by kind for
//! [`Unsupported`](crate::term::Unsupported).

use avt::parser::Function;

use crate::term::sequence::Sequence;
use crate::term::state::{osc_effect, OscEffect};

/// DEC private modes avt or tuicast follows: avt's own (cursor keys, origin, auto-wrap,
/// cursor visibility, the alternate screens), DECCOLM (this layer), and the modes tuicast
/// reads from the output for input encoding, queries and settling (mouse tracking and
/// encodings, focus reporting, bracketed paste, keypad, cursor blink, synchronized output).
pub(in crate::term) const KNOWN_DEC_MODES: &[u16] = &[
    1, 3, 6, 7, 9, 12, 25, 47, 66, 1000, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 1047, 1048,
    1049, 2004, 2026,
];

/// Calls `found` with the kind of each part of `seq` nothing understood, given what avt's
/// parser made of it (`f`). Called only for sequences this layer does not handle itself.
pub(super) fn unknown_kinds(seq: &Sequence, f: Option<&Function>, mut found: impl FnMut(String)) {
    match *seq {
        Sequence::Esc { intermediates, fin } => {
            // Keypad modes (tracked with the other modes) and a lone ST.
            if f.is_none() && !(intermediates.is_empty() && matches!(fin, '=' | '>' | '\\')) {
                found(format!("ESC {intermediates}{fin}"));
            }
        }
        Sequence::Csi(csi) => {
            let (marker, rest) = match csi.text.chars().next() {
                Some(m @ '<'..='?') => (Some(m), &csi.text[1..]),
                _ => (None, csi.text),
            };
            let params_end = rest
                .find(|c: char| (' '..='/').contains(&c))
                .unwrap_or(rest.len());
            let (params, intermediates) = rest.split_at(params_end);
            if matches!(csi.fin, 'h' | 'l') && intermediates.is_empty() {
                let known: &[u16] = match marker {
                    Some('?') => KNOWN_DEC_MODES,
                    None => &[4, 20],
                    Some(_) => &[],
                };
                let marker = marker.map(String::from).unwrap_or_default();
                for mode in params.split(';').filter(|m| !m.is_empty()) {
                    if !mode.parse::<u16>().is_ok_and(|m| known.contains(&m)) {
                        let mode: String = mode.chars().take(6).collect();
                        found(format!("CSI {marker}{mode} {}", csi.fin));
                    }
                }
                return;
            }
            if f.is_some() || is_answered_query(marker, intermediates, csi.fin) {
                return;
            }
            let mut kind = String::from("CSI ");
            kind.extend(marker);
            kind.push_str(intermediates);
            kind.push(csi.fin);
            found(kind);
        }
        Sequence::Osc {
            data, truncated, ..
        } => {
            match osc_effect(data, truncated) {
                OscEffect::Unknown(code) => found(format!("OSC {code}")),
                // The avt layer keeps no shell marks.
                OscEffect::ShellMark { code, .. } => found(format!("OSC {code}")),
                _ => {}
            }
        }
        Sequence::Dcs { head, .. } => {
            if let Some(kind) = dcs_kind(head) {
                found(kind);
            }
        }
        Sequence::Str(kind) => found(
            match kind {
                'X' => "SOS",
                '^' => "PM",
                _ => "APC",
            }
            .to_string(),
        ),
    }
}

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
    use crate::term::{AvtEngine, Engine, Size};

    fn unknown(input: &str) -> Vec<(String, u64)> {
        let mut e = AvtEngine::new(Size { cols: 10, rows: 3 });
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
            ("OSC 133", 1),
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
