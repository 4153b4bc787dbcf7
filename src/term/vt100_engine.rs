//! Adapter for the `vt100` crate, the second engine for differential replay.
//!
//! vt100 tracks neither strikethrough, blink nor conceal (SGR 8); those attributes always read
//! false. It does track the cursor shape (DECSCUSR), and of the terminal modes the mouse
//! (tracking and encoding; not urxvt's 1015), bracketed paste, cursor keys and keypad; focus
//! reporting, auto-wrap and origin mode read as a fresh terminal has them. (vt100 ends mouse
//! tracking only on the reset of the mode in use; xterm and the avt layer on any.)

use std::num::NonZeroU16;

use super::{
    Attrs, Cell, CellText, Color, Cursor, CursorShape, Engine, Modes, MouseEncoding, MouseTracking,
    Screen, Size,
};

/// The vt100 engine.
pub struct Vt100Engine {
    parser: vt100::Parser<TitleCallbacks>,
    size: Size,
}

impl std::fmt::Debug for Vt100Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vt100Engine")
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

#[derive(Default)]
struct TitleCallbacks {
    title: Option<String>,
}

impl vt100::Callbacks for TitleCallbacks {
    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        let text = String::from_utf8_lossy(title);
        self.title = Some(text.chars().filter(|c| !c.is_control()).collect());
    }
}

fn nz(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).unwrap_or(NonZeroU16::MIN)
}

impl Vt100Engine {
    /// A blank vt100 terminal of `size`, keeping no scrollback.
    pub fn new(size: Size) -> Self {
        // The same floor as the avt engine, so differential replay compares equal grids.
        let size = size.at_least_min();
        Vt100Engine {
            parser: vt100::Parser::new_with_callbacks(
                nz(size.rows),
                nz(size.cols),
                0,
                TitleCallbacks::default(),
            ),
            size,
        }
    }
}

impl Engine for Vt100Engine {
    fn feed(&mut self, text: &str) {
        self.parser.process(text.as_bytes());
    }

    fn resize(&mut self, size: Size) {
        let size = size.at_least_min();
        if size == self.size {
            return;
        }
        self.parser.set_size(nz(size.rows), nz(size.cols));
        self.size = size;
    }

    fn size(&self) -> Size {
        self.size
    }

    fn screen(&self) -> Screen {
        let s = self.parser.screen();
        let mut rows = Vec::with_capacity(self.size.rows as usize);
        for r in 0..self.size.rows {
            let mut row = Vec::with_capacity(self.size.cols as usize);
            for c in 0..self.size.cols {
                let cell = match s.cell(r, c) {
                    Some(cell) => {
                        let (text, width) = if cell.is_wide_continuation() {
                            (CellText::EMPTY, 0)
                        } else if cell.has_contents() {
                            (
                                CellText::from(cell.contents()),
                                if cell.is_wide() { 2 } else { 1 },
                            )
                        } else {
                            (CellText::SPACE, 1)
                        };
                        Cell {
                            text,
                            width,
                            fg: color(cell.fgcolor()),
                            bg: color(cell.bgcolor()),
                            attrs: Attrs {
                                bold: cell.bold(),
                                dim: cell.dim(),
                                italic: cell.italic(),
                                underline: cell.underline(),
                                inverse: cell.inverse(),
                                ..Attrs::default()
                            },
                        }
                    }
                    None => Cell::default(),
                };
                row.push(cell);
            }
            rows.push(row);
        }
        let (crow, ccol) = s.cursor_position();
        Screen {
            size: self.size,
            rows,
            cursor: Cursor {
                row: crow.min(self.size.rows - 1),
                col: ccol.min(self.size.cols - 1),
                visible: !s.hide_cursor(),
                shape: cursor_shape(s.cursor_style()),
            },
            title: self.parser.callbacks().title.clone(),
            alternate: s.alternate_screen(),
            modes: modes(s),
        }
    }
}

fn modes(s: &vt100::Screen) -> Modes {
    use vt100::{MouseProtocolEncoding as E, MouseProtocolMode as M};
    Modes {
        bracketed_paste: s.bracketed_paste(),
        mouse: match s.mouse_protocol_mode() {
            M::None => MouseTracking::Off,
            M::Press => MouseTracking::X10,
            M::PressRelease => MouseTracking::Normal,
            M::ButtonMotion => MouseTracking::Button,
            M::AnyMotion => MouseTracking::Any,
        },
        mouse_encoding: match s.mouse_protocol_encoding() {
            E::Default => MouseEncoding::Default,
            E::Utf8 => MouseEncoding::Utf8,
            E::Sgr => MouseEncoding::Sgr,
        },
        cursor_keys: s.application_cursor(),
        keypad: s.application_keypad(),
        ..Modes::default()
    }
}

fn cursor_shape(style: vt100::CursorStyle) -> CursorShape {
    use vt100::CursorStyle as S;
    let ps = match style {
        S::Default => 0,
        S::BlinkBlock => 1,
        S::SteadyBlock => 2,
        S::BlinkUnderline => 3,
        S::SteadyUnderline => 4,
        S::BlinkVerticalBar => 5,
        S::SteadyVerticalBar => 6,
    };
    CursorShape::from_decscusr(ps).unwrap_or_default()
}

fn color(c: vt100::Color) -> Color {
    match c {
        vt100::Color::Default => Color::Default,
        vt100::Color::Idx(i) => Color::Indexed(i),
        vt100::Color::Rgb(r, g, b) => Color::Rgb(super::Rgb(r, g, b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::AvtEngine;

    #[test]
    fn the_modes_vt100_tracks_agree_with_avt() {
        for input in [
            "\x1b[?9h",
            "\x1b[?1000;1006h",
            "\x1b[?1002;1005h\x1b[?2004h",
            "\x1b[?1003h\x1b[?1h\x1b=",
            // (vt100 ends tracking only on the reset of the mode in use, xterm on any.)
            "\x1b[?1003h\x1b[?1003l",
            "\x1b[?1000;1006;2004h\x1bc",
        ] {
            let size = Size { cols: 10, rows: 3 };
            let mut v = Vt100Engine::new(size);
            let mut a = AvtEngine::new(size);
            v.feed(input);
            a.feed(input);
            assert_eq!(v.screen().modes, a.screen().modes, "{input:?}");
        }
    }
}
