//! Adapter for the `vt100` crate, the second engine for differential replay.
//!
//! vt100 tracks neither strikethrough, blink nor conceal (SGR 8); those attributes always read
//! false. It does track the cursor shape (DECSCUSR), and of the terminal modes the mouse
//! (tracking and encoding; not urxvt's 1015), bracketed paste, cursor keys and keypad; focus
//! reporting, auto-wrap and origin mode read as a fresh terminal has them. (vt100 ends mouse
//! tracking only on the reset of the mode in use; xterm and the native engine on any.) Its
//! callbacks give the title and icon
//! name, bells, OSC 52 writes, the lines scrolled off and the sequences it did not handle;
//! it has no OSC 8 hyperlinks (cells never have a link).

use std::num::NonZeroU16;

use std::collections::VecDeque;

use super::state::{osc_effect, push_clipboard, ClipboardWrite, OscEffect};
use super::{
    safe_char, Attrs, Cell, CellText, Color, Cursor, CursorShape, Engine, Modes, MouseEncoding,
    MouseTracking, Screen, Scrollback, Size, TermState, Unsupported, MAX_SCROLLBACK,
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
    icon: Option<String>,
    bells: u32,
    clipboard: Vec<ClipboardWrite>,
    scrollback: VecDeque<String>,
    unsupported: Unsupported,
}

fn clean(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.chars().filter(|c| !c.is_control()).collect()
}

impl vt100::Callbacks for TitleCallbacks {
    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        self.title = Some(clean(title));
    }

    fn set_window_icon_name(&mut self, _: &mut vt100::Screen, icon: &[u8]) {
        self.icon = Some(clean(icon));
    }

    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.bells = self.bells.saturating_add(1);
    }

    fn copy_to_clipboard(&mut self, _: &mut vt100::Screen, ty: &[u8], data: &[u8]) {
        let osc = format!(
            "52;{};{}",
            String::from_utf8_lossy(ty),
            String::from_utf8_lossy(data)
        );
        if let OscEffect::Clipboard(write) = osc_effect(&osc, false) {
            push_clipboard(&mut self.clipboard, write);
        }
    }

    fn unhandled_escape(&mut self, _: &mut vt100::Screen, i1: Option<u8>, i2: Option<u8>, b: u8) {
        let i: String = [i1, i2].into_iter().flatten().map(char::from).collect();
        self.unsupported.count(
            format!("ESC {}{}", i, char::from(b))
                .chars()
                .map(safe_char)
                .collect(),
        );
    }

    fn unhandled_csi(
        &mut self,
        _: &mut vt100::Screen,
        i1: Option<u8>,
        i2: Option<u8>,
        _params: &[&[u16]],
        c: char,
    ) {
        let i: String = [i1, i2].into_iter().flatten().map(char::from).collect();
        self.unsupported
            .count(format!("CSI {i}{c}").chars().map(safe_char).collect());
    }

    fn unhandled_osc(&mut self, _: &mut vt100::Screen, params: &[&[u8]]) {
        let code: String = params
            .first()
            .map(|p| {
                String::from_utf8_lossy(p)
                    .chars()
                    .take(8)
                    .map(safe_char)
                    .collect()
            })
            .unwrap_or_default();
        self.unsupported.count(format!("OSC {code}"));
    }

    fn on_scroll(&mut self, contents: vt100::capture::RowContents<'_>, alternate_screen: bool) {
        if alternate_screen {
            return;
        }
        let mut formatted = String::new();
        let mut state = vt100::capture::BasicFormattedCaptureState::new();
        if contents
            .write_formatted_basic(&mut formatted, &mut state)
            .is_err()
        {
            return;
        }
        let mut text: String = vt100::capture::basic_formatted_to_plain(&formatted)
            .flat_map(str::chars)
            .map(safe_char)
            .collect();
        text.truncate(text.trim_end().len());
        if self.scrollback.len() >= MAX_SCROLLBACK {
            self.scrollback.pop_front();
        }
        self.scrollback.push_back(text);
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

/// U+FE0F, VARIATION SELECTOR-16: asks for the emoji presentation of the character before it.
const VS16: char = '\u{FE0F}';

impl super::sealed::Sealed for Vt100Engine {}

impl Engine for Vt100Engine {
    fn feed(&mut self, text: &str) {
        // vt100 0.18 widens a cell when U+FE0F (emoji presentation) follows its character.
        // In the pending-wrap state at the last column it moves the character to the next
        // row, and when that scrolls it leaves a wide cell in the last column of the row
        // above, which panics on the next character drawn there (screen.rs:985, found by
        // fuzzing). There, the selector is left out: the character stays narrow in the last
        // column, as in the avt engine, which never widens a cell for it.
        let mut rest = text;
        while let Some(at) = rest.find(VS16) {
            self.parser.process(&rest.as_bytes()[..at]);
            let (_, col) = self.parser.screen().cursor_position();
            if col < self.parser.screen().size().1.get() {
                self.parser.process("\u{FE0F}".as_bytes());
            }
            rest = &rest[at + VS16.len_utf8()..];
        }
        self.parser.process(rest.as_bytes());
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
                            link: 0,
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
            state: {
                let cb = self.parser.callbacks();
                TermState {
                    icon: cb.icon.clone(),
                    bells: cb.bells,
                    clipboard: cb.clipboard.clone(),
                    links: Vec::new(),
                    scrollback: Scrollback::from(cb.scrollback.iter().cloned().collect::<Vec<_>>()),
                    // No shell marks: vt100 keeps none.
                    ..TermState::default()
                }
            },
            modes: modes(s),
        }
    }

    fn checkpoint(&mut self) {
        let cb = self.parser.callbacks_mut();
        cb.bells = 0;
        cb.clipboard.clear();
    }

    fn unsupported(&self) -> Unsupported {
        self.parser.callbacks().unsupported.clone()
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
    use crate::term::NativeEngine;

    #[test]
    fn an_emoji_selector_at_the_last_column_of_the_bottom_row_is_no_panic() {
        // The character in the last column of the bottom row, U+FE0F after it (vt100 made it
        // wide and scrolled, leaving a wide cell in the last column), then a character drawn
        // over that cell: vt100 0.18 panicked. Each way the input may be cut in two too.
        let input = "\x1b[5;1Haaaaaaaaaaaaaaaaaaa4\u{fe0f}\x1b[4;19Hxy";
        for cut in input.char_indices().map(|(i, _)| i) {
            let mut v = Vt100Engine::new(Size { cols: 20, rows: 5 });
            v.feed(&input[..cut]);
            v.feed(&input[cut..]);
            let text = v.screen().text();
            assert!(text.contains("xy\naaaaaaaaaaaaaaaaaaa4"), "{text}");
        }
        // Away from the last column the selector still reaches vt100.
        let mut v = Vt100Engine::new(Size { cols: 20, rows: 5 });
        v.feed("4\u{fe0f}x");
        assert_eq!(v.screen().rows[0][0].width, 2);
    }

    #[test]
    fn the_modes_vt100_tracks_agree_with_the_native_engine() {
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
            let mut a = NativeEngine::new(size);
            v.feed(input);
            a.feed(input);
            assert_eq!(v.screen().modes, a.screen().modes, "{input:?}");
        }
    }
}
