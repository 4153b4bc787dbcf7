//! The pen shadow: avt's pen and saved pens, as this layer knows them.

use avt::parser::{DecMode, Function, SgrOp};

use super::standins::Extra;

/// avt's pen as this layer knows it: the pen, and the pens saved with the cursor in the
/// primary and alternate screens (avt keeps them to itself).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct PenShadow {
    pub(super) pen: PenState,
    saved: PenState,
    other_saved: PenState,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct PenState {
    pub(super) fg: Option<avt::Color>,
    pub(super) bg: Option<avt::Color>,
    /// Bold (SGR 1) and faint (SGR 2) are kept apart, as in xterm, tmux and xterm.js (avt
    /// keeps one intensity, the last set: both ride on a stand-in, see [`Extra`]).
    pub(super) bold: bool,
    pub(super) faint: bool,
    pub(super) italic: bool,
    pub(super) underline: bool,
    pub(super) blink: bool,
    pub(super) inverse: bool,
    pub(super) strikethrough: bool,
    /// Conceal (SGR 8): avt does not know it; this layer prints stand-ins (see [`StandIns`](super::standins::StandIns)).
    pub(super) conceal: bool,
    /// Protected from selective erase (DECSCA 1), which avt does not know either: no SGR
    /// attribute, so SGR 0 keeps it (DECSC saves it with the attributes, as xterm's
    /// `DECSC_FLAGS` do; DECSTR and RIS end it).
    pub(super) protected: bool,
}

impl PenState {
    /// What of this pen avt's cells have no room for.
    #[inline]
    pub(super) fn extra(&self) -> Extra {
        Extra {
            hidden: self.conceal,
            bold_faint: self.bold && self.faint,
            protected: self.protected,
        }
    }

    /// Whether avt's pen holds at most a background (conceal and protection are not avt's).
    pub(super) fn is_background_only(&self) -> bool {
        *self
            == PenState {
                bg: self.bg,
                conceal: self.conceal,
                protected: self.protected,
                ..PenState::default()
            }
    }

    /// SGR operations that make avt's pen hold only this pen's background.
    pub(super) fn background_ops(&self) -> Vec<SgrOp> {
        let mut ops = vec![SgrOp::Reset];
        if let Some(bg) = self.bg {
            ops.push(SgrOp::SetBackgroundColor(bg));
        }
        ops
    }

    /// SGR operations that make avt's pen this pen.
    pub(super) fn ops(&self) -> Vec<SgrOp> {
        let mut ops = self.background_ops();
        if let Some(fg) = self.fg {
            ops.push(SgrOp::SetForegroundColor(fg));
        }
        // (Both: avt keeps the last, faint; the stand-in says bold too.)
        if self.bold {
            ops.push(SgrOp::SetBoldIntensity);
        }
        if self.faint {
            ops.push(SgrOp::SetFaintIntensity);
        }
        for (on, op) in [
            (self.italic, SgrOp::SetItalic),
            (self.underline, SgrOp::SetUnderline),
            (self.blink, SgrOp::SetBlink),
            (self.inverse, SgrOp::SetInverse),
            (self.strikethrough, SgrOp::SetStrikethrough),
        ] {
            if on {
                ops.push(op);
            }
        }
        ops
    }

    /// The SGR parameters that set this pen from the default, as xterm reports them to
    /// DECRQSS: `0`, then the attributes and colours (`0;1;31;48;5;200`).
    pub(super) fn sgr_params(&self) -> String {
        let attrs = crate::term::Attrs {
            bold: self.bold,
            dim: self.faint,
            italic: self.italic,
            underline: self.underline,
            strikethrough: self.strikethrough,
            inverse: self.inverse,
            blink: self.blink,
            hidden: self.conceal,
        };
        crate::term::sgr_report(attrs, super::color(self.fg), super::color(self.bg))
    }

    /// Applies one SGR operation the way xterm does (avt too, but for bold and faint).
    fn apply(&mut self, op: &SgrOp) {
        match *op {
            SgrOp::Reset => {
                *self = PenState {
                    protected: self.protected,
                    ..PenState::default()
                }
            }
            SgrOp::SetBoldIntensity => self.bold = true,
            SgrOp::SetFaintIntensity => self.faint = true,
            SgrOp::ResetIntensity => (self.bold, self.faint) = (false, false),
            SgrOp::SetItalic => self.italic = true,
            SgrOp::ResetItalic => self.italic = false,
            SgrOp::SetUnderline => self.underline = true,
            SgrOp::ResetUnderline => self.underline = false,
            SgrOp::SetBlink => self.blink = true,
            SgrOp::ResetBlink => self.blink = false,
            SgrOp::SetInverse => self.inverse = true,
            SgrOp::ResetInverse => self.inverse = false,
            SgrOp::SetStrikethrough => self.strikethrough = true,
            SgrOp::ResetStrikethrough => self.strikethrough = false,
            SgrOp::SetForegroundColor(c) => self.fg = Some(c),
            SgrOp::ResetForegroundColor => self.fg = None,
            SgrOp::SetBackgroundColor(c) => self.bg = Some(c),
            SgrOp::ResetBackgroundColor => self.bg = None,
        }
    }
}

impl PenShadow {
    /// Follows what `f` does to avt's pen; `alternate` is whether the alternate screen is
    /// active before it.
    pub(super) fn observe(&mut self, f: &Function, mut alternate: bool) {
        match f {
            Function::Sgr(ops) => ops.iter().for_each(|op| self.pen.apply(op)),
            Function::Decsc | Function::Scosc => self.saved = self.pen,
            Function::Decrc | Function::Scorc => self.pen = self.saved,
            Function::Ris => *self = PenShadow::default(),
            Function::Decstr => {
                self.pen = PenState::default();
                self.saved = PenState::default();
            }
            Function::Decset(modes) => {
                for m in modes {
                    match m {
                        DecMode::SaveCursor => self.saved = self.pen,
                        DecMode::AltScreenBuffer if !alternate => {
                            std::mem::swap(&mut self.saved, &mut self.other_saved);
                            alternate = true;
                        }
                        DecMode::SaveCursorAltScreenBuffer => {
                            self.saved = self.pen;
                            if !alternate {
                                std::mem::swap(&mut self.saved, &mut self.other_saved);
                                alternate = true;
                            }
                        }
                        _ => {}
                    }
                }
            }
            Function::Decrst(modes) => {
                for m in modes {
                    match m {
                        DecMode::SaveCursor => self.pen = self.saved,
                        DecMode::AltScreenBuffer if alternate => {
                            std::mem::swap(&mut self.saved, &mut self.other_saved);
                            alternate = false;
                        }
                        DecMode::SaveCursorAltScreenBuffer => {
                            if alternate {
                                std::mem::swap(&mut self.saved, &mut self.other_saved);
                                alternate = false;
                            }
                            self.pen = self.saved;
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::color;
    use crate::term::{AvtEngine, Engine, Size};

    #[test]
    fn the_pen_shadow_follows_avt() {
        // Saved pens per screen, restores, resets: print a character and compare its pen
        // with what this layer believes.
        let steps = [
            "\x1b[1;31m",
            "\x1b7",
            "\x1b[0;44m",
            "\x1b8",
            "\x1b[?1049h",
            "\x1b[3;32m",
            "\x1b7",
            "\x1b[?1049l",
            "\x1b8",
            "\x1b[?1047h",
            "\x1b[22;2m",
            "\x1b[?1048h",
            "\x1b[m",
            "\x1b[?1047l",
            "\x1b[?1048l",
            "\x1b[!p",
            "\x1b[5;7;9m",
            "\x1bc",
            "\x1b[38;5;200m",
            "\x1b[48;2;1;2;3m",
            "\x1b[s",
            "\x1b[4m",
            "\x1b[u",
            "\x1b[4:3m",
            "\x1b[58;5;1m",
            "\x1b[8m",
            "\x1b7",
            "\x1b[28;1m",
            "\x1b8",
        ];
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        for (i, step) in steps.iter().cycle().take(steps.len() * 3).enumerate() {
            e.feed(step);
            e.feed("\x1b[1;1Hx");
            let cell = e.screen().rows[0][0].clone();
            let pen = e.pen.pen;
            assert_eq!(cell.fg, color(pen.fg), "step {i} {step:?}");
            assert_eq!(cell.bg, color(pen.bg), "step {i} {step:?}");
            assert_eq!(
                (cell.attrs.bold, cell.attrs.dim),
                (pen.bold, pen.faint),
                "step {i} {step:?}"
            );
            assert_eq!(cell.attrs.underline, pen.underline, "step {i} {step:?}");
            assert_eq!(cell.attrs.inverse, pen.inverse, "step {i} {step:?}");
            assert_eq!(cell.attrs.hidden, pen.conceal, "step {i} {step:?}");
        }
    }
}
