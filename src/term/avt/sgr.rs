//! SGR parameters read the way xterm and tmux read them (avt misreads some forms).

use avt::parser::SgrOp;

/// Reads SGR parameters (`1;38;5;200`, `4:3`, `38:2::1:2:3`) the way xterm and tmux do.
/// Returns avt's operations and, when the sequence sets or clears conceal (8, 28, or a
/// reset), whether conceal is on after it.
pub(super) fn parse_sgr(params: &str) -> (Vec<SgrOp>, Option<bool>) {
    let groups: Vec<Vec<u16>> = params
        .split(';')
        .map(|g| g.split(':').map(|n| n.parse().unwrap_or(0)).collect())
        .collect();
    let mut ops = Vec::new();
    let mut conceal = None;
    let mut i = 0;
    while i < groups.len() {
        let g = &groups[i];
        match g[0] {
            0 | 28 => conceal = Some(false),
            8 => conceal = Some(true),
            _ => {}
        }
        let op = match g[0] {
            0 => Some(SgrOp::Reset),
            1 => Some(SgrOp::SetBoldIntensity),
            2 => Some(SgrOp::SetFaintIntensity),
            3 => Some(SgrOp::SetItalic),
            4 if g.get(1) == Some(&0) => Some(SgrOp::ResetUnderline),
            4 | 21 => Some(SgrOp::SetUnderline),
            5 | 6 => Some(SgrOp::SetBlink),
            7 => Some(SgrOp::SetInverse),
            9 => Some(SgrOp::SetStrikethrough),
            22 => Some(SgrOp::ResetIntensity),
            23 => Some(SgrOp::ResetItalic),
            24 => Some(SgrOp::ResetUnderline),
            25 => Some(SgrOp::ResetBlink),
            27 => Some(SgrOp::ResetInverse),
            29 => Some(SgrOp::ResetStrikethrough),
            n @ 30..=37 => Some(SgrOp::SetForegroundColor(avt::Color::Indexed(n as u8 - 30))),
            39 => Some(SgrOp::ResetForegroundColor),
            n @ 40..=47 => Some(SgrOp::SetBackgroundColor(avt::Color::Indexed(n as u8 - 40))),
            49 => Some(SgrOp::ResetBackgroundColor),
            n @ 90..=97 => Some(SgrOp::SetForegroundColor(avt::Color::Indexed(n as u8 - 82))),
            n @ 100..=107 => Some(SgrOp::SetBackgroundColor(avt::Color::Indexed(n as u8 - 92))),
            n @ (38 | 48 | 58) => {
                let (colour, used) = extended_colour(&groups, i);
                i += used;
                match (n, colour) {
                    (38, Some(c)) => Some(SgrOp::SetForegroundColor(c)),
                    (48, Some(c)) => Some(SgrOp::SetBackgroundColor(c)),
                    _ => None, // underline colours are not kept
                }
            }
            _ => None,
        };
        ops.extend(op);
        i += 1;
    }
    (ops, conceal)
}

/// The colour of an extended colour parameter at `groups[i]` (38, 48 or 58): `;5;N`,
/// `;2;R;G;B`, or their colon forms. Returns it and how many more groups it took.
fn extended_colour(groups: &[Vec<u16>], i: usize) -> (Option<avt::Color>, usize) {
    let g = &groups[i];
    if g.len() > 1 {
        let c = match g[1] {
            5 => g.get(2).map(|&n| avt::Color::Indexed(n as u8)),
            2 => {
                // 38:2:R:G:B, or 38:2:ID:R:G:B with a colour space
                let rgb = if g.len() >= 6 { &g[3..6] } else { &g[2..] };
                (rgb.len() >= 3).then(|| avt::Color::rgb(rgb[0] as u8, rgb[1] as u8, rgb[2] as u8))
            }
            _ => None,
        };
        return (c, 0);
    }
    let next = |k: usize| groups.get(i + k).map(|g| g[0]);
    match next(1) {
        Some(5) => (next(2).map(|n| avt::Color::Indexed(n as u8)), 2),
        Some(2) => match (next(2), next(3), next(4)) {
            (Some(r), Some(g), Some(b)) => (Some(avt::Color::rgb(r as u8, g as u8, b as u8)), 4),
            _ => (None, groups.len()),
        },
        _ => (None, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::super::screen;
    use crate::term::Color;

    #[test]
    fn sgr_forms_avt_misreads() {
        let s = screen("\x1b[4:3ma\x1b[4:0mb\x1b[58;5;1;4mc\x1b[0;21md\x1b[0;38:2::1:2:3me");
        assert!(s.rows[0][0].attrs.underline);
        assert!(!s.rows[0][1].attrs.underline);
        let c = &s.rows[0][2];
        assert!(
            c.attrs.underline && !c.attrs.bold && !c.attrs.blink,
            "{c:?}"
        );
        assert!(s.rows[0][3].attrs.underline);
        assert_eq!(s.rows[0][4].fg, Color::Rgb(crate::rgb::Rgb(1, 2, 3)));
        // Private-marker sequences ending in `m` (xterm's modifyOtherKeys) change nothing.
        let s = screen("\x1b[>4;2mx");
        assert!(s.rows[0][0].attrs.is_empty());
    }

    #[test]
    fn bold_and_faint_are_kept_together() {
        // As in xterm, tmux (`capture-pane -e` shows `1;2`) and xterm.js; avt keeps the last.
        let both = |input: &str, col: usize| {
            let a = screen(input).rows[0][col].attrs;
            (a.bold, a.dim)
        };
        for input in [
            "\x1b[1;2mx",
            "\x1b[1m\x1b[2mx",
            "\x1b[2;1mx",
            "\x1b[2m\x1b[1mx",
        ] {
            assert_eq!(both(input, 0), (true, true), "{input:?}");
        }
        assert_eq!(both("\x1b[1;2;22mx", 0), (false, false));
        assert_eq!(both("\x1b[1;2m\x1b[22;2mx", 0), (false, true));
        assert_eq!(both("\x1b[1;2m\x1b[mx", 0), (false, false));
        assert_eq!(
            both("\x1b[1;2;8;4:3mx", 0),
            (true, true),
            "with SGR avt misreads"
        );
        // Every cell of a run, both halves of a wide character, a repeat.
        let s = screen("\x1b[1;2mabcdef\u{65e5}g\x1b[b");
        for c in &s.rows[0][..10] {
            assert!(c.attrs.bold && c.attrs.dim, "{c:?}");
        }
        // Saved with the cursor; erased cells take only the background.
        assert_eq!(both("\x1b[1;2m\x1b7\x1b[m\x1b8x", 0), (true, true));
        assert_eq!(both("\x1b[1;2mab\x1b[H\x1b[K", 0), (false, false));
        let mut e = crate::term::AvtEngine::new(crate::term::Size { cols: 10, rows: 4 });
        crate::term::Engine::feed(&mut e, "\x1b[2;1m");
        assert_eq!(e.setting_report("m").as_deref(), Some("0;1;2m"));
    }
}
