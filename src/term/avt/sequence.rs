//! Follows avt's parser through escape sequences and picks out the ones this layer handles.

use avt::parser::State;

/// An escape sequence this layer handles itself (or in addition to avt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Special {
    /// `ESC I F`: designate the set `F` into G0–G3.
    Designate(char, char),
    /// LS2 (`ESC n`) or LS3 (`ESC o`).
    LockingShift(usize),
    /// SS2 (`ESC N`) or SS3 (`ESC O`).
    SingleShift(usize),
    /// DECCOLM: 132 columns (true) or 80.
    Deccolm(bool),
    /// DECSCUSR (`CSI Ps SP q`): the cursor shape.
    Decscusr(u16),
    /// An SGR sequence avt reads wrongly: colon forms (`CSI 4:3 m`), underline colours
    /// (`CSI 58;5;1 m`, whose parameters avt takes for blink and bold), rapid blink (6),
    /// double underline (21); and any SGR with conceal (8) or reveal (28), which avt ignores.
    /// [`parse_sgr`](super::sgr::parse_sgr) reads it instead.
    Sgr,
}

/// Follows avt's parser through escape and control sequences, collecting each one's
/// intermediates and parameters (which avt keeps to itself), and picks out the ones this
/// layer handles.
#[derive(Debug, Default)]
pub(super) struct SequenceTracker {
    pub(super) buf: String,
}

/// Longest sequence collected; longer ones are not ours.
const SEQ_MAX: usize = 64;

impl SequenceTracker {
    #[inline]
    pub(super) fn track(&mut self, before: State, after: State, ch: char) -> Option<Special> {
        use State::*;
        match (before, after) {
            (_, Escape) if ch == '\x1b' => {
                self.buf.clear();
                None
            }
            (_, CsiEntry) => {
                self.buf.clear();
                None
            }
            (Escape | EscapeIntermediate, EscapeIntermediate) if (' '..='/').contains(&ch) => {
                self.push(ch);
                None
            }
            (Escape | EscapeIntermediate, Ground) if ('0'..='~').contains(&ch) => self.esc(ch),
            (CsiEntry | CsiParam | CsiIntermediate, CsiParam | CsiIntermediate | CsiIgnore)
                if (' '..='?').contains(&ch) =>
            {
                self.push(ch);
                None
            }
            (CsiEntry | CsiParam | CsiIntermediate, Ground) if ('@'..='~').contains(&ch) => {
                self.csi(ch)
            }
            _ => None,
        }
    }

    fn push(&mut self, ch: char) {
        if self.buf.len() < SEQ_MAX {
            self.buf.push(ch);
        }
    }

    fn esc(&mut self, fin: char) -> Option<Special> {
        let mut chars = self.buf.chars();
        match (chars.next(), chars.next()) {
            (None, _) => match fin {
                'n' => Some(Special::LockingShift(2)),
                'o' => Some(Special::LockingShift(3)),
                'N' => Some(Special::SingleShift(2)),
                'O' => Some(Special::SingleShift(3)),
                _ => None,
            },
            (Some(i @ ('(' | ')' | '*' | '+')), None) => Some(Special::Designate(i, fin)),
            // A multi-character designation (`ESC ( % 5`): a set this layer lacks.
            (Some(i @ ('(' | ')' | '*' | '+')), Some(_)) => Some(Special::Designate(i, 'B')),
            _ => None,
        }
    }

    fn csi(&mut self, fin: char) -> Option<Special> {
        let p = self.buf.as_str();
        match fin {
            'h' | 'l' if p.starts_with('?') => p[1..]
                .split(';')
                .any(|m| m.parse() == Ok(3u16))
                .then_some(Special::Deccolm(fin == 'h')),
            'm' if !p.starts_with(['<', '=', '>', '?'])
                && (p.contains(':')
                    || p.split(';')
                        .any(|g| matches!(g.parse::<u16>(), Ok(6 | 8 | 21 | 28 | 58 | 59)))) =>
            {
                Some(Special::Sgr)
            }
            'q' => {
                let ps = p.strip_suffix(' ')?;
                if !ps.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                Some(Special::Decscusr(if ps.is_empty() {
                    0
                } else {
                    ps.parse().ok()?
                }))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::screen;

    #[test]
    fn decscusr_sets_the_cursor_shape() {
        use crate::term::CursorKind;
        let shape = |input: &str| screen(input).cursor.shape;
        assert!(shape("").is_default());
        let s = shape("\x1b[5 q");
        assert_eq!((s.kind, s.blinking), (CursorKind::Bar, true));
        let s = shape("\x1b[4 q");
        assert_eq!((s.kind, s.blinking), (CursorKind::Underline, false));
        assert!(
            shape("\x1b[6 q\x1b[ q").is_default(),
            "0 (or none) is the default"
        );
        assert!(
            shape("\x1b[6 q\x1b[2 q").is_default(),
            "a steady block is the default"
        );
        assert!(shape("\x1b[1 q").blinking);
        assert_eq!(
            shape("\x1b[3 q\x1b[7 q").kind,
            CursorKind::Underline,
            "7 is ignored"
        );
        assert_eq!(shape("\x1b[3 q\x1b[?5 q").kind, CursorKind::Underline);
        assert!(shape("\x1b[3 q\x1bc").is_default(), "RIS resets it");
        // It is one setting for both screens, and not part of the saved cursor.
        assert_eq!(
            shape("\x1b[?1049h\x1b[6 q\x1b[?1049l").kind,
            CursorKind::Bar
        );
        assert_eq!(shape("\x1b7\x1b[6 q\x1b8").kind, CursorKind::Bar);
        // The text around it is unaffected.
        assert_eq!(screen("a\x1b[5 qb").row_text(0), "ab");
    }
}
