//! Adapter for the `vt100` crate, the second engine for differential replay.
//!
//! vt100 tracks neither strikethrough, blink nor conceal (SGR 8); those attributes always read
//! false. It does track the cursor shape (DECSCUSR).

use std::num::NonZeroU16;

use super::{Attrs, Cell, CellText, Color, Cursor, CursorShape, Engine, Screen, Size};

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
        }
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
