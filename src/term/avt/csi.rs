//! The control sequences full-screen programs send most (SGR, cursor moves, erases), read
//! into the function avt's parser would dispatch for them, without the parser: for them the
//! parser does nothing but collect parameters and dispatch, and stepping it one character at
//! a time is most of the cost of full-screen output.
//!
//! Every reading here is avt 0.17's own (`Parser::param`, `Parser::csi_dispatch`,
//! `SgrOps::next` in avt's `parser.rs`): numbers wrap at 16 bits, an empty parameter is 0,
//! and SGR parameters avt does not know are skipped. Anything else is left to the parser.

use avt::parser::{EdScope, ElScope, Function, SgrOp};
use avt::Color;

/// Most parameters read here; avt keeps 32 (and merges the rest into the last).
const MAX_PARAMS: usize = 16;

/// The function avt dispatches for `CSI params fin`, where `params` has no private marker
/// and no intermediates, or `None` when this module does not read that sequence (the parser
/// must). `Some(None)`: avt dispatches nothing for it (`CSI 5 J`).
///
/// SGR that avt misreads (a parameter 6, 8, 21, 28, 58 or 59: see `special::sgr_misread`) is
/// not read here either: this layer reads it itself.
pub(super) fn plain(params: &[u8], fin: u8) -> Option<Option<Function>> {
    let mut ps = [0u16; MAX_PARAMS];
    // Bit i: parameter i reached 1000 (before it could wrap: from below 1000 one more digit
    // stays below 65536), so whatever it wraps to, it is none of the misread ones.
    let mut big = 0u32;
    let mut n = 0;
    for &b in params {
        match b {
            b'0'..=b'9' => {
                ps[n] = ps[n].wrapping_mul(10).wrapping_add(u16::from(b - b'0'));
                if ps[n] >= 1000 {
                    big |= 1 << n;
                }
            }
            b';' => {
                n += 1;
                if n == MAX_PARAMS {
                    return None;
                }
            }
            _ => return None, // a colon form: the parser reads it
        }
    }
    let ps = &ps[..=n];
    let p0 = ps[0];
    let p1 = ps.get(1).copied().unwrap_or(0);
    Some(match fin {
        b'@' => Some(Function::Ich(p0)),
        b'A' => Some(Function::Cuu(p0)),
        b'B' => Some(Function::Cud(p0)),
        b'C' => Some(Function::Cuf(p0)),
        b'D' => Some(Function::Cub(p0)),
        b'G' | b'`' => Some(Function::Cha(p0)),
        b'H' | b'f' => Some(Function::Cup(p0, p1)),
        b'J' => match p0 {
            0 => Some(Function::Ed(EdScope::Below)),
            1 => Some(Function::Ed(EdScope::Above)),
            2 => Some(Function::Ed(EdScope::All)),
            3 => Some(Function::Ed(EdScope::SavedLines)),
            _ => None,
        },
        b'K' => match p0 {
            0 => Some(Function::El(ElScope::ToRight)),
            1 => Some(Function::El(ElScope::ToLeft)),
            2 => Some(Function::El(ElScope::All)),
            _ => None,
        },
        b'P' => Some(Function::Dch(p0)),
        b'X' => Some(Function::Ech(p0)),
        b'd' => Some(Function::Vpa(p0)),
        b'm' => {
            let misread = ps
                .iter()
                .enumerate()
                .any(|(i, p)| big & (1 << i) == 0 && matches!(p, 6 | 8 | 21 | 28 | 58 | 59));
            if misread {
                return None;
            }
            Some(Function::Sgr(sgr(ps)))
        }
        _ => return None,
    })
}

/// SGR operations as avt's `SgrOps` reads single-part parameters.
fn sgr(mut ps: &[u16]) -> Vec<SgrOp> {
    let mut ops = Vec::with_capacity(ps.len());
    while let Some(&p) = ps.first() {
        let mut used = 1;
        let op = match p {
            0 => Some(SgrOp::Reset),
            1 => Some(SgrOp::SetBoldIntensity),
            2 => Some(SgrOp::SetFaintIntensity),
            3 => Some(SgrOp::SetItalic),
            4 => Some(SgrOp::SetUnderline),
            5 => Some(SgrOp::SetBlink),
            7 => Some(SgrOp::SetInverse),
            9 => Some(SgrOp::SetStrikethrough),
            21 | 22 => Some(SgrOp::ResetIntensity),
            23 => Some(SgrOp::ResetItalic),
            24 => Some(SgrOp::ResetUnderline),
            25 => Some(SgrOp::ResetBlink),
            27 => Some(SgrOp::ResetInverse),
            29 => Some(SgrOp::ResetStrikethrough),
            30..=37 => Some(SgrOp::SetForegroundColor(Color::Indexed((p - 30) as u8))),
            39 => Some(SgrOp::ResetForegroundColor),
            40..=47 => Some(SgrOp::SetBackgroundColor(Color::Indexed((p - 40) as u8))),
            49 => Some(SgrOp::ResetBackgroundColor),
            90..=97 => Some(SgrOp::SetForegroundColor(Color::Indexed(
                (p - 90 + 8) as u8,
            ))),
            100..=107 => Some(SgrOp::SetBackgroundColor(Color::Indexed(
                (p - 100 + 8) as u8,
            ))),
            38 | 48 => {
                let colour = match ps.get(1) {
                    None => None,
                    Some(2) => match ps.get(2..5) {
                        Some(&[r, g, b]) => {
                            used = 5;
                            Some(Color::rgb(r as u8, g as u8, b as u8))
                        }
                        _ => {
                            used = 2;
                            None
                        }
                    },
                    Some(5) => match ps.get(2) {
                        Some(&i) => {
                            used = 3;
                            Some(Color::Indexed(i as u8))
                        }
                        None => {
                            used = 2;
                            None
                        }
                    },
                    Some(_) => None,
                };
                colour.map(|c| {
                    if p == 38 {
                        SgrOp::SetForegroundColor(c)
                    } else {
                        SgrOp::SetBackgroundColor(c)
                    }
                })
            }
            _ => None,
        };
        ops.extend(op);
        ps = &ps[used..];
    }
    ops
}

#[cfg(test)]
mod tests {
    use avt::parser::{Function, Parser};

    /// What avt's own parser dispatches for `CSI params fin`.
    fn avt(params: &str, fin: char) -> Option<Function> {
        let mut parser = Parser::new();
        let mut last = None;
        for ch in format!("\x1b[{params}{fin}").chars() {
            last = parser.feed(ch);
        }
        last
    }

    #[test]
    fn reads_as_avts_parser_reads() {
        let params = [
            "",
            "0",
            "1",
            ";",
            "1;2",
            "5;10",
            ";7",
            "65535",
            "65536",
            "99999;1",
            "0;1;2;3;4;5;7;9",
            "21;22;23;24;25;27;29",
            "30;37;39;40;47;49;90;97;100;107",
            "6;8;28;53;58;59;200",
            "38;5;208",
            "48;5;17;1",
            "38;2;1;2;3",
            "48;2;255;0;128;4",
            "38;2;1;2",
            "38;5",
            "38",
            "48;7;1",
            "38;2",
            "1;;4",
            "2;3;4;5;6;7;8;9;10;11;12;13;14;15;16",
        ];
        for fin in "@ABCDGHJKPXdfm`".chars() {
            for p in params {
                if let Some(mine) = super::plain(p.as_bytes(), fin as u8) {
                    assert_eq!(
                        format!("{mine:?}"),
                        format!("{:?}", avt(p, fin)),
                        "{p:?} {fin}"
                    );
                }
            }
        }
        for (p, fin) in [("1:2", 'm'), ("4:3", 'm'), ("1", 'r'), ("1", 'h')] {
            assert!(super::plain(p.as_bytes(), fin as u8).is_none(), "{p} {fin}");
        }
        let many = vec!["1"; 20].join(";");
        assert!(super::plain(many.as_bytes(), b'm').is_none());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Any parameters of digits and `;`, any final read here: avt's own reading.
        #[test]
        fn any_plain_sequence_reads_as_avt_reads_it(
            params in "[0-9;]{0,40}",
            fin in proptest::sample::select("@ABCDGHJKPXdfm`".chars().collect::<Vec<_>>()),
        ) {
            if let Some(mine) = super::plain(params.as_bytes(), fin as u8) {
                proptest::prop_assert_eq!(format!("{mine:?}"), format!("{:?}", avt(&params, fin)));
            }
        }

        /// SGR is left to this layer's own reading exactly where avt misreads it.
        #[test]
        fn sgr_is_refused_exactly_where_avt_misreads_it(
            params in "(0{0,2}(6|8|21|28|58|59|[0-9]{1,6})?;){0,6}[0-9]{0,7}",
        ) {
            let refused = super::plain(params.as_bytes(), b'm').is_none();
            let count = params.split(';').count();
            proptest::prop_assume!(count <= super::MAX_PARAMS);
            proptest::prop_assert_eq!(refused, super::super::special::sgr_misread(&params));
        }
    }

    #[test]
    fn sgr_that_avt_misreads_is_refused() {
        for p in ["6", "1;8", "21", "0;28", "58;5;1", "59", "006", "65542;8"] {
            assert!(super::plain(p.as_bytes(), b'm').is_none(), "{p}");
        }
        for p in ["65542", "600", "1;31", "38;5;208", "0"] {
            assert!(super::plain(p.as_bytes(), b'm').is_some(), "{p}");
        }
    }
}
