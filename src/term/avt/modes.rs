//! The shadow of the terminal modes ([`Modes`]): what avt keeps to itself (origin mode, saved
//! with the cursor per screen, and auto-wrap) and what avt ignores (mouse reporting, bracketed
//! paste, focus reporting, the keypad), seen through the sequence tracker.
//!
//! avt also restores auto-wrap with the cursor (DECRC, `CSI ? 1048 l`, `CSI ? 1049 l`), as old
//! xterms did; xterm today (`DECSC_FLAGS` is attributes, origin and protection) and tmux keep
//! it, and so does this layer; and DECSTR turns it on, as xterm's soft reset does:
//! [`ModeShadow::overrides_autowrap`] tells the engine when to put avt's auto-wrap right.

use avt::parser::{AnsiMode, DecMode, Function};

use crate::term::{Keyboard, Modes, KNOWN_DEC_MODES};

/// Origin mode, as DECSC saves it with the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Ctx {
    origin: bool,
}

/// The modes, and what save and restore need of them.
#[derive(Debug, Default)]
pub(super) struct ModeShadow {
    pub(super) modes: Modes,
    /// The kitty keyboard flag stacks and modifyOtherKeys (read into `modes` when asked).
    pub(super) keyboard: Keyboard,
    /// Insert mode (IRM, `CSI 4 h`), avt's own: its edits rewrite a cell only with it off.
    pub(super) insert: bool,
    /// Saved with the cursor on the active screen, and on the other one (avt swaps them).
    saved: Ctx,
    other_saved: Ctx,
    /// XTSAVE: the saved value of each of [`KNOWN_DEC_MODES`] (origin and auto-wrap are
    /// avt's and not restored by XTRESTORE, which avt ignores).
    xtsaved: [Option<bool>; KNOWN_DEC_MODES.len()],
}

impl ModeShadow {
    fn ctx(&self) -> Ctx {
        Ctx {
            origin: self.modes.origin,
        }
    }

    fn restore(&mut self, ctx: Ctx) {
        self.modes.origin = ctx.origin;
    }

    /// Whether avt sets auto-wrap otherwise than xterm when it executes `f`: restoring its
    /// saved cursor (avt restores auto-wrap with it), or DECSTR (avt keeps auto-wrap; xterm
    /// turns it on).
    pub(super) fn overrides_autowrap(f: &Function) -> bool {
        match f {
            Function::Decrc | Function::Scorc | Function::Decstr => true,
            Function::Decrst(modes) => modes
                .iter()
                .any(|m| matches!(m, DecMode::SaveCursor | DecMode::SaveCursorAltScreenBuffer)),
            _ => false,
        }
    }

    /// Follows what avt does with `f` to the modes it keeps (cursor keys, origin,
    /// auto-wrap); `alternate` is whether the alternate screen is active before it.
    pub(super) fn observe(&mut self, f: &Function, mut alternate: bool) {
        match f {
            Function::Decsc | Function::Scosc => self.saved = self.ctx(),
            Function::Decrc | Function::Scorc => self.restore(self.saved),
            Function::Ris => {
                let mut keyboard = std::mem::take(&mut self.keyboard);
                keyboard.reset();
                *self = ModeShadow {
                    keyboard,
                    ..ModeShadow::default()
                };
            }
            Function::Decstr => {
                self.modes.soft_reset();
                self.saved = Ctx::default();
                self.insert = false;
            }
            Function::Sm(modes) | Function::Rm(modes)
                if modes.iter().any(|m| matches!(m, AnsiMode::Insert)) =>
            {
                self.insert = matches!(f, Function::Sm(_));
            }
            Function::Decset(modes) | Function::Decrst(modes) => {
                let set = matches!(f, Function::Decset(_));
                for m in modes {
                    match (m, set) {
                        (DecMode::CursorKeys, _) => self.modes.cursor_keys = set,
                        (DecMode::Origin, _) => self.modes.origin = set,
                        (DecMode::AutoWrap, _) => self.modes.autowrap = set,
                        (DecMode::SaveCursor, true) => self.saved = self.ctx(),
                        (DecMode::SaveCursor, false) => self.restore(self.saved),
                        (DecMode::AltScreenBuffer, true) if !alternate => {
                            std::mem::swap(&mut self.saved, &mut self.other_saved);
                            alternate = true;
                        }
                        (DecMode::AltScreenBuffer, false) if alternate => {
                            std::mem::swap(&mut self.saved, &mut self.other_saved);
                            alternate = false;
                        }
                        (DecMode::SaveCursorAltScreenBuffer, true) => {
                            self.saved = self.ctx();
                            if !alternate {
                                std::mem::swap(&mut self.saved, &mut self.other_saved);
                                alternate = true;
                            }
                        }
                        (DecMode::SaveCursorAltScreenBuffer, false) => {
                            if alternate {
                                std::mem::swap(&mut self.saved, &mut self.other_saved);
                                alternate = false;
                            }
                            self.restore(self.saved);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    /// `CSI ? Pm h` / `l` for the modes avt ignores (avt's own are followed by
    /// [`observe`](Self::observe)).
    pub(super) fn set_dec(&mut self, modes: &[u16], set: bool) {
        for &m in modes {
            if !matches!(m, 1 | 6 | 7) {
                self.modes.set_dec(m, set);
            }
        }
    }

    /// XTSAVE (`CSI ? Pm s`).
    pub(super) fn save(&mut self, modes: &[u16]) {
        for &m in modes {
            if let Some(i) = KNOWN_DEC_MODES.iter().position(|&k| k == m) {
                self.xtsaved[i] = self.modes.dec(m);
            }
        }
    }

    /// XTRESTORE (`CSI ? Pm r`): the modes saved by XTSAVE, except avt's origin and
    /// auto-wrap (avt ignores XTRESTORE).
    pub(super) fn restore_saved(&mut self, modes: &[u16]) {
        for &m in modes {
            if matches!(m, 6 | 7) {
                continue;
            }
            if let Some(i) = KNOWN_DEC_MODES.iter().position(|&k| k == m) {
                if let Some(v) = self.xtsaved[i] {
                    self.modes.set_dec(m, v);
                }
            }
        }
    }

    /// DECKPAM (`ESC =`, true) or DECKPNM (`ESC >`).
    pub(super) fn keypad(&mut self, application: bool) {
        self.modes.keypad = application;
    }
}

#[cfg(test)]
mod tests {
    use crate::term::{AvtEngine, Engine, MouseEncoding, MouseTracking, Size};

    fn modes(input: &str) -> crate::term::Modes {
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        e.feed(input);
        e.screen().modes
    }

    #[test]
    fn modes_are_tracked_reset_and_restored() {
        assert!(modes("").is_default());
        let m = modes("\x1b[?1000;1006h\x1b[?2004h\x1b[?1004h\x1b=\x1b[?1h");
        assert_eq!(m.mouse, MouseTracking::Normal);
        assert_eq!(m.mouse_encoding, MouseEncoding::Sgr);
        assert!(m.bracketed_paste && m.focus && m.keypad && m.cursor_keys);
        assert!(modes("\x1b[?1000;1006;2004;1004h\x1b=\x1b[?1h\x1bc").is_default());
        let m = modes("\x1b[?1003;1015;2004h\x1b=\x1b[?1h\x1b[?6h\x1b[!p");
        assert!(!m.keypad && !m.cursor_keys && !m.origin, "DECSTR");
        assert_eq!(
            (m.mouse, m.mouse_encoding, m.bracketed_paste),
            (MouseTracking::Any, MouseEncoding::Urxvt, true)
        );
        assert!(!modes("\x1b=\x1b>").keypad);
        assert!(
            modes("\x1b[?7l\x1b[!p").autowrap,
            "DECSTR turns auto-wrap on (xterm)"
        );
        // XTSAVE / XTRESTORE.
        let m = modes("\x1b[?1002h\x1b[?1002;2004s\x1b[?1002l\x1b[?2004h\x1b[?1002;2004r");
        assert_eq!((m.mouse, m.bracketed_paste), (MouseTracking::Button, false));
        // Origin mode is saved with the cursor, per screen; auto-wrap is not (xterm, tmux).
        assert!(modes("\x1b[?7l\x1b7\x1b[?7h\x1b8").autowrap);
        assert!(!modes("\x1b7\x1b[?7l\x1b8").autowrap);
        assert!(modes("\x1b[?6h\x1b7\x1b[?6l\x1b8").origin);
        assert!(modes("\x1b[?6h\x1b[?1049h\x1b[?6l\x1b[?1049l").origin);
        assert!(!modes("\x1b[?6h\x1b[?1047h\x1b[?6l\x1b[?1047l").origin);
    }

    #[test]
    fn the_origin_and_wrap_shadow_follows_avt() {
        // Check what this layer believes against what avt does: with auto-wrap off, printing
        // past the last column stays on the row; in origin mode, CUP 1;1 lands on the
        // region's top row (2).
        let steps = [
            "\x1b[?7l",
            "\x1b7",
            "\x1b[?7h",
            "\x1b8",
            "\x1b[?6h",
            "\x1b[?1049h",
            "\x1b[?7l",
            "\x1b[?6l",
            "\x1b7",
            "\x1b[?1049l",
            "\x1b8",
            "\x1b[?1048h",
            "\x1b[?6h",
            "\x1b[?1048l",
            "\x1b[!p",
            "\x1b[?1047h",
            "\x1b[?7l",
            "\x1b[?1047l",
            "\x1bc",
            "\x1b[s",
            "\x1b[?7l",
            "\x1b[u",
        ];
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        for (i, step) in steps.iter().cycle().take(steps.len() * 3).enumerate() {
            e.feed(step);
            e.feed("\x1b[2;4r\x1b[1;1H");
            let row = e.screen().cursor.row;
            e.feed("\x1b[1;10Hxy");
            let wrapped = e.screen().cursor.col < 9;
            let m = e.screen().modes;
            assert_eq!(m.origin, row == 1, "step {i} {step:?}");
            assert_eq!(m.autowrap, wrapped, "step {i} {step:?}");
            e.feed("\x1b[r");
        }
    }
}
