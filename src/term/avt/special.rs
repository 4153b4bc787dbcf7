//! The escape sequences this layer handles itself (or in addition to avt), picked out of
//! what the shared [`SequenceTracker`](crate::term::sequence::SequenceTracker) reports.

use avt::parser::SgrOp;

use super::sgr::parse_sgr;
use crate::term::sequence::Sequence;
use crate::term::state::{osc_effect, OscEffect};

/// An escape sequence this layer handles itself (or in addition to avt).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Special {
    /// `ESC I F`: designate the set `F` into G0–G3.
    Designate(char, char),
    /// LS2 (`ESC n`) or LS3 (`ESC o`).
    LockingShift(usize),
    /// SS2 (`ESC N`) or SS3 (`ESC O`).
    SingleShift(usize),
    /// DEC private modes set (true: `CSI ? Pm h`) or reset (`l`): the modes as numbers
    /// (DECCOLM, mode 3, among them).
    DecModes(bool, Vec<u16>),
    /// XTSAVE (`CSI ? Pm s`, true) or XTRESTORE (`CSI ? Pm r`) of DEC private modes.
    XtSave(bool, Vec<u16>),
    /// DECKPAM (`ESC =`, true) or DECKPNM (`ESC >`).
    Keypad(bool),
    /// DECSCUSR (`CSI Ps SP q`): the cursor shape.
    Decscusr(u16),
    /// DECSCA (`CSI Ps " q`): whether what is printed next is protected from selective erase
    /// (1), or not (0 or 2); `None` for other values, which xterm ignores.
    Decsca(Option<bool>),
    /// DECSED (`CSI ? Ps J`, true) or DECSEL (`CSI ? Ps K`): erase as ED or EL with `Ps`,
    /// but for the cells DECSCA protected (avt reads neither).
    SelectiveErase(bool, u16),
    /// SL (`CSI Ps SP @`, true) or SR (`CSI Ps SP A`): scroll the scroll region's columns
    /// left or right by `Ps` (avt reads them as nothing).
    ScrollColumns(bool, u16),
    /// DECDC (`CSI Pn ' ~`, true) or DECIC (`CSI Pn ' }`): the same from the cursor's
    /// column (avt reads them as nothing).
    EditColumns(bool, u16),
    /// DECBI (`ESC 6`, true) or DECFI (`ESC 9`): back or forward index (avt ignores them).
    ColumnIndex(bool),
    /// An SGR sequence avt reads wrongly: colon forms (`CSI 4:3 m`), underline colours
    /// (`CSI 58;5;1 m`, whose parameters avt takes for blink and bold), rapid blink (6),
    /// double underline (21); and any SGR with conceal (8) or reveal (28), which avt ignores.
    /// Read by [`parse_sgr`] instead: avt's operations, and whether conceal is on after it
    /// when it says.
    Sgr(Vec<SgrOp>, Option<bool>),
    /// A keyboard sequence: kitty's flag stack (`CSI > u`, `CSI < u`, `CSI = u`) or xterm's
    /// XTMODKEYS (`CSI > Pp ; Pv m`, `CSI > Pp n`): its parameters with the marker, and its
    /// final (see [`Keyboard::follow`](crate::term::Keyboard::follow)).
    Keyboard(String, char),
    /// An OSC avt ignores and this layer follows: the title and icon name (OSC 0, 1, 2), a
    /// clipboard write (OSC 52), a hyperlink (OSC 8).
    Osc(OscEffect),
}

impl Special {
    /// The special meaning of `seq`, if it has one. (A control sequence longer than the
    /// tracker's limit is read from its start.)
    pub(super) fn of(seq: &Sequence) -> Option<Special> {
        match *seq {
            Sequence::Esc { intermediates, fin } => esc(intermediates, fin),
            Sequence::Csi(csi) => self::csi(csi.text, csi.fin),
            Sequence::Osc {
                data, truncated, ..
            } => match osc_effect(data, truncated) {
                OscEffect::Unknown(_) | OscEffect::Ignored | OscEffect::ShellMark { .. } => None,
                effect => Some(Special::Osc(effect)),
            },
            Sequence::Dcs { .. } | Sequence::Str(_) => None,
        }
    }
}

fn esc(intermediates: &str, fin: char) -> Option<Special> {
    let mut chars = intermediates.chars();
    match (chars.next(), chars.next()) {
        (None, _) => match fin {
            'n' => Some(Special::LockingShift(2)),
            'o' => Some(Special::LockingShift(3)),
            'N' => Some(Special::SingleShift(2)),
            'O' => Some(Special::SingleShift(3)),
            '=' => Some(Special::Keypad(true)),
            '6' => Some(Special::ColumnIndex(true)),
            '9' => Some(Special::ColumnIndex(false)),
            '>' => Some(Special::Keypad(false)),
            _ => None,
        },
        (Some(i @ ('(' | ')' | '*' | '+')), None) => Some(Special::Designate(i, fin)),
        // A multi-character designation (`ESC ( % 5`): a set this layer lacks.
        (Some(i @ ('(' | ')' | '*' | '+')), Some(_)) => Some(Special::Designate(i, 'B')),
        _ => None,
    }
}

fn csi(p: &str, fin: char) -> Option<Special> {
    match fin {
        'u' if p.starts_with(['>', '<', '=']) => Some(Special::Keyboard(p.to_string(), fin)),
        'm' | 'n' if p.starts_with('>') => Some(Special::Keyboard(p.to_string(), fin)),
        'h' | 'l' | 's' | 'r' if p.starts_with('?') => {
            let modes: Vec<u16> = p[1..].split(';').filter_map(|m| m.parse().ok()).collect();
            if modes.is_empty() {
                return None;
            }
            Some(match fin {
                'h' | 'l' => Special::DecModes(fin == 'h', modes),
                _ => Special::XtSave(fin == 's', modes),
            })
        }
        'm' if !p.starts_with(['<', '=', '>', '?']) && sgr_misread(p) => {
            let (ops, conceal) = parse_sgr(p);
            Some(Special::Sgr(ops, conceal))
        }
        'J' | 'K' if p.starts_with('?') => {
            Some(Special::SelectiveErase(fin == 'J', first_param(&p[1..])?))
        }
        '@' | 'A' => {
            let n = first_param(p.strip_suffix(' ')?)?;
            Some(Special::ScrollColumns(fin == '@', n.max(1)))
        }
        '~' | '}' => {
            let n = first_param(p.strip_suffix('\'')?)?;
            Some(Special::EditColumns(fin == '~', n.max(1)))
        }
        'q' if p.ends_with('"') => {
            let ps = first_param(&p[..p.len() - 1])?;
            Some(Special::Decsca(match ps {
                0 | 2 => Some(false),
                1 => Some(true),
                _ => None,
            }))
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

/// The first of the parameters `p` (digits and `;` only), 0 when it is empty, as xterm reads
/// the one parameter of these sequences (a number past 65535 is 65535); `None` when `p` is no
/// such list.
fn first_param(p: &str) -> Option<u16> {
    if !p.bytes().all(|b| b.is_ascii_digit() || b == b';') {
        return None;
    }
    let first = p.split(';').next().unwrap_or("");
    Some(if first.is_empty() {
        0
    } else {
        first
            .parse::<u32>()
            .map_or(u16::MAX, |n| n.min(65535) as u16)
    })
}

/// Whether avt misreads the SGR parameters `p`: a colon form, or a group of 6, 8, 21, 28,
/// 58 or 59 (read in one pass over the bytes: SGR is most of full-screen output).
pub(super) fn sgr_misread(p: &str) -> bool {
    let misread = |n: Option<u32>| matches!(n, Some(6 | 8 | 21 | 28 | 58 | 59));
    // The group's value so far; None when it is empty or not a number.
    let mut n: Option<u32> = None;
    let mut empty = true;
    for &b in p.as_bytes() {
        match b {
            b':' => return true,
            b';' => {
                if misread(n) {
                    return true;
                }
                n = None;
                empty = true;
            }
            b'0'..=b'9' => {
                let d = u32::from(b - b'0');
                n = match (n, empty) {
                    (_, true) => Some(d),
                    (Some(v), false) => Some(v.saturating_mul(10).saturating_add(d).min(99_999)),
                    (None, false) => None,
                };
                empty = false;
            }
            _ => {
                n = None;
                empty = false;
            }
        }
    }
    misread(n)
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

    #[test]
    fn sgr_misread_is_the_groups_avt_gets_wrong() {
        use super::sgr_misread;
        for p in [
            "4:3", "1;6", "8", "21;1", "0;28", "58;5;1", "59", "006", "1;2;3:4",
        ] {
            assert!(sgr_misread(p), "{p}");
        }
        for p in [
            "", "0", "1;31", "38;5;208", "60", "5", "7;27", "218", "1;x8", "65542",
        ] {
            assert!(!sgr_misread(p), "{p}");
        }
    }
}
