//! Adapter for `avt`, asciinema's virtual terminal (the default engine).
//!
//! tuicast drives avt's parser and terminal directly (not through `avt::Vt`) so it can see
//! each parsed function. That lets this layer fix what avt leaves out:
//! - combining marks (zero-width characters): avt would give each its own cell; a real
//!   terminal puts them on the previous character, and so does this adapter;
//! - the window title (OSC 0 and 2), which avt ignores;
//! - whether the alternate screen is active.

use std::collections::HashMap;

use avt::parser::{DecMode, Function, Parser};
use avt::terminal::{BufferType, Terminal};
use unicode_width::UnicodeWidthChar;

use super::{Attrs, Cell, Color, Cursor, Engine, Screen, Size};

/// The avt engine. See the module docs for what this layer adds to avt.
pub struct AvtEngine {
    parser: Parser,
    terminal: Terminal,
    size: Size,
    /// Combining marks by (row, col) of their base cell, with the base character they were
    /// attached to (a mark is dropped when its cell no longer holds that character).
    marks: HashMap<(u16, u16), (char, String)>,
    /// Whether the scroll region is the whole screen (so a line feed on the last row scrolls
    /// every row and marks can follow their rows).
    full_region: bool,
    osc: OscTracker,
}

impl std::fmt::Debug for AvtEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AvtEngine")
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl AvtEngine {
    /// A blank avt terminal of `size`, keeping no scrollback.
    pub fn new(size: Size) -> Self {
        AvtEngine {
            parser: Parser::new(),
            terminal: Terminal::new((size.cols as usize, size.rows as usize), Some(0)),
            size,
            marks: HashMap::new(),
            full_region: true,
            osc: OscTracker::default(),
        }
    }

    fn execute(&mut self, f: Function) {
        match f {
            Function::Print(ch) if ch >= '\u{300}' && ch.width() == Some(0) => {
                self.attach_mark(ch);
                return;
            }
            _ if self.marks.is_empty() => {}
            // Printing at the pending-wrap position wraps, and may scroll.
            Function::Print(_) if self.terminal.cursor().col >= self.size.cols as usize => {
                self.line_feed_marks()
            }
            Function::Lf | Function::Nel => self.line_feed_marks(),
            Function::Ri
            | Function::Su(_)
            | Function::Sd(_)
            | Function::Il(_)
            | Function::Dl(_)
            | Function::Ris
            | Function::Decstr
            | Function::Decaln => self.marks.clear(),
            Function::Decset(ref modes) | Function::Decrst(ref modes)
                if modes.iter().any(|m| {
                    matches!(
                        m,
                        DecMode::AltScreenBuffer | DecMode::SaveCursorAltScreenBuffer
                    )
                }) =>
            {
                self.marks.clear()
            }
            _ => {}
        }
        match f {
            Function::Decstbm(top, bottom) => {
                self.full_region =
                    top <= 1 && (bottom == 0 || bottom as usize >= self.size.rows as usize);
            }
            Function::Ris | Function::Decstr => self.full_region = true,
            _ => {}
        }
        self.terminal.execute(f);
    }

    /// Puts a zero-width character on the cell before the cursor.
    fn attach_mark(&mut self, ch: char) {
        let cursor = self.terminal.cursor();
        if cursor.col == 0 || cursor.row >= self.size.rows as usize {
            return;
        }
        let row = cursor.row;
        let mut col = cursor.col.min(self.size.cols as usize) - 1;
        let Some(line) = self.terminal.view().nth(row) else {
            return;
        };
        let cells = line.cells();
        if col > 0 && cells.get(col).is_some_and(|c| c.width() == 0) {
            col -= 1;
        }
        let Some(base) = cells.get(col).map(|c| c.char()) else {
            return;
        };
        let entry = self
            .marks
            .entry((row as u16, col as u16))
            .or_insert((base, String::new()));
        if entry.0 != base {
            *entry = (base, String::new());
        }
        if entry.1.len() < 64 {
            entry.1.push(ch);
        }
    }

    /// Keeps marks on their rows when a line feed on the last row scrolls the screen.
    fn line_feed_marks(&mut self) {
        let cursor = self.terminal.cursor();
        if cursor.row + 1 < self.size.rows as usize {
            return;
        }
        if !self.full_region {
            self.marks.clear();
            return;
        }
        self.marks = self
            .marks
            .drain()
            .filter(|((row, _), _)| *row > 0)
            .map(|((row, col), v)| ((row - 1, col), v))
            .collect();
    }
}

impl Engine for AvtEngine {
    fn feed(&mut self, text: &str) {
        for ch in text.chars() {
            self.osc.feed(ch);
            if let Some(f) = self.parser.feed(ch) {
                self.execute(f);
            }
        }
        // Drop lines scrolled off the top (the engine keeps no scrollback).
        self.terminal.gc().for_each(drop);
    }

    fn resize(&mut self, size: Size) {
        if size == self.size || size.cols == 0 || size.rows == 0 {
            return;
        }
        self.terminal.resize(size.cols as usize, size.rows as usize);
        self.terminal.gc().for_each(drop);
        self.size = size;
        // Marks outside the new grid go; the others stay and are checked against their base
        // character when the screen is read.
        self.marks
            .retain(|&(r, c), _| r < size.rows && c < size.cols);
        self.full_region = true;
    }

    fn size(&self) -> Size {
        self.size
    }

    fn screen(&self) -> Screen {
        let mut rows = Vec::with_capacity(self.size.rows as usize);
        for line in self.terminal.view() {
            let row: Vec<Cell> = line
                .cells()
                .iter()
                .map(|c| {
                    let pen = c.pen();
                    let width = c.width() as u8;
                    Cell {
                        text: if width == 0 {
                            String::new()
                        } else {
                            c.char().to_string()
                        },
                        width,
                        fg: color(pen.foreground()),
                        bg: color(pen.background()),
                        attrs: Attrs {
                            bold: pen.is_bold(),
                            dim: pen.is_faint(),
                            italic: pen.is_italic(),
                            underline: pen.is_underline(),
                            strikethrough: pen.is_strikethrough(),
                            inverse: pen.is_inverse(),
                            blink: pen.is_blink(),
                        },
                    }
                })
                .collect();
            rows.push(row);
        }
        for (&(r, c), (base, marks)) in &self.marks {
            if let Some(cell) = rows
                .get_mut(r as usize)
                .and_then(|row| row.get_mut(c as usize))
            {
                if cell.text.starts_with(*base) && cell.width > 0 {
                    cell.text.push_str(marks);
                }
            }
        }
        let cursor = self.terminal.cursor();
        Screen {
            size: self.size,
            rows,
            cursor: Cursor {
                row: cursor.row.min(self.size.rows as usize - 1) as u16,
                col: cursor.col.min(self.size.cols as usize - 1) as u16,
                visible: cursor.visible,
            },
            title: self.osc.title.clone(),
            alternate: self.terminal.active_buffer_type() == BufferType::Alternate,
        }
    }
}

fn color(c: Option<avt::Color>) -> Color {
    match c {
        None => Color::Default,
        Some(avt::Color::Indexed(i)) => Color::Indexed(i),
        Some(avt::Color::RGB(rgb)) => Color::Rgb(rgb.r, rgb.g, rgb.b),
    }
}

/// Follows OSC strings in the output to learn the window title (OSC 0 and OSC 2).
#[derive(Debug, Default)]
pub(crate) struct OscTracker {
    state: OscState,
    buf: String,
    /// The last title set.
    pub(crate) title: Option<String>,
}

#[derive(Debug, Default, PartialEq)]
enum OscState {
    #[default]
    Ground,
    Escape,
    Osc,
    OscEscape,
}

/// Longest OSC string collected; longer ones (images, clipboard data) are skipped.
const OSC_MAX: usize = 4096;

impl OscTracker {
    #[inline]
    pub(crate) fn feed(&mut self, ch: char) {
        match self.state {
            OscState::Ground => match ch {
                '\x1b' => self.state = OscState::Escape,
                '\u{9d}' => self.start(),
                _ => {}
            },
            OscState::Escape => match ch {
                ']' => self.start(),
                '\x1b' => {}
                _ => self.state = OscState::Ground,
            },
            OscState::Osc => match ch {
                '\x07' | '\u{9c}' => self.finish(),
                '\x1b' => self.state = OscState::OscEscape,
                '\x18' | '\x1a' => self.state = OscState::Ground,
                c => {
                    if self.buf.len() < OSC_MAX {
                        self.buf.push(c);
                    }
                }
            },
            OscState::OscEscape => match ch {
                '\\' => self.finish(),
                ']' => self.start(),
                _ => self.state = OscState::Ground,
            },
        }
    }

    fn start(&mut self) {
        self.buf.clear();
        self.state = OscState::Osc;
    }

    fn finish(&mut self) {
        self.state = OscState::Ground;
        if let Some((code, text)) = self.buf.split_once(';') {
            if code == "0" || code == "2" {
                self.title = Some(text.chars().filter(|c| !c.is_control()).collect());
            }
        }
    }
}
