//! The engine the conformance corpus is scored on besides tuicast's own (`EngineKind`: the
//! native engine, avt 0.17 as the crate is, vt100): alacritty_terminal (a dev-dependency: only
//! these tests build it). It replays a cast's output and resizes and gives the screen at every
//! checkpoint marker and at the end, as a `tuicast::term::Screen` so that the one comparison of
//! `conformance.rs` judges it as the others.
//!
//! Reading a screen is not a fix: each cell's character, width and pen are taken as the engine
//! keeps them.

use std::path::Path;

use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Line};
use alacritty_terminal::term::cell::Flags;
use alacritty_terminal::term::test::TermSize;
use alacritty_terminal::vte::ansi;
use tuicast::cast::EventData;
use tuicast::rgb::Rgb;
use tuicast::size::Size;
use tuicast::term::{Attrs, Cell, Color, Screen};

/// A raw engine: fed text and resizes, read as a screen.
trait Raw {
    fn feed(&mut self, text: &str);
    fn resize(&mut self, size: Size);
    fn screen(&self) -> Screen;
}

/// The engines scored beside tuicast's, in the docs' column order.
#[derive(Debug, Clone, Copy)]
pub(super) enum RawKind {
    /// alacritty_terminal.
    Alacritty,
}

impl RawKind {
    pub(super) const ALL: [RawKind; 1] = [RawKind::Alacritty];

    pub(super) fn name(self) -> &'static str {
        match self {
            RawKind::Alacritty => "alacritty_terminal 0.26",
        }
    }

    fn create(self, size: Size) -> Box<dyn Raw> {
        match self {
            RawKind::Alacritty => Box::new(Alacritty::new(size)),
        }
    }
}

/// The screens of `cast` at each checkpoint marker (in order, with their labels) and at the
/// end (`end`).
pub(super) fn checkpoints(kind: RawKind, cast: &Path) -> Vec<(String, Screen)> {
    let reader = tuicast::cast::open(cast).unwrap();
    let mut engine = kind.create(reader.header().term.size);
    let mut out = Vec::new();
    for event in reader {
        match event.unwrap().data {
            EventData::Output(text) => engine.feed(&text),
            EventData::Resize(size) => engine.resize(size),
            EventData::Marker(label) if !label.is_empty() => out.push((label, engine.screen())),
            _ => {}
        }
    }
    out.push(("end".to_string(), engine.screen()));
    out
}

struct Alacritty {
    term: alacritty_terminal::Term<alacritty_terminal::event::VoidListener>,
    parser: ansi::Processor,
}

impl Alacritty {
    fn new(size: Size) -> Self {
        let term = alacritty_terminal::Term::new(
            alacritty_terminal::term::Config::default(),
            &TermSize::new(size.cols as usize, size.rows as usize),
            alacritty_terminal::event::VoidListener,
        );
        Alacritty {
            term,
            parser: ansi::Processor::new(),
        }
    }
}

fn alacritty_color(c: ansi::Color) -> Color {
    match c {
        ansi::Color::Named(n) if (n as usize) < 16 => Color::Indexed(n as u8),
        ansi::Color::Named(_) => Color::Default,
        ansi::Color::Indexed(n) => Color::Indexed(n),
        ansi::Color::Spec(c) => Color::Rgb(Rgb(c.r, c.g, c.b)),
    }
}

impl Raw for Alacritty {
    fn feed(&mut self, text: &str) {
        self.parser.advance(&mut self.term, text.as_bytes());
    }

    fn resize(&mut self, size: Size) {
        self.term
            .resize(TermSize::new(size.cols as usize, size.rows as usize));
    }

    fn screen(&self) -> Screen {
        let grid = self.term.grid();
        let (cols, rows) = (grid.columns(), grid.screen_lines());
        let mut screen = Screen::blank(Size {
            cols: cols as u16,
            rows: rows as u16,
        });
        for (r, row) in screen.rows.iter_mut().enumerate() {
            let line = &grid[Line(r as i32)];
            for (c, cell) in row.iter_mut().enumerate() {
                let a = &line[Column(c)];
                let f = a.flags;
                let tail = f.contains(Flags::WIDE_CHAR_SPACER);
                let mut text = String::new();
                if !tail {
                    // a spacer before a wide character that wrapped is a blank cell
                    text.push(if f.contains(Flags::LEADING_WIDE_CHAR_SPACER) {
                        ' '
                    } else {
                        a.c
                    });
                    text.extend(a.zerowidth().unwrap_or_default());
                }
                *cell = Cell {
                    text: text.into(),
                    width: if tail {
                        0
                    } else if f.contains(Flags::WIDE_CHAR) {
                        2
                    } else {
                        1
                    },
                    fg: alacritty_color(a.fg),
                    bg: alacritty_color(a.bg),
                    attrs: Attrs {
                        bold: f.contains(Flags::BOLD),
                        dim: f.contains(Flags::DIM),
                        italic: f.contains(Flags::ITALIC),
                        underline: f.intersects(Flags::ALL_UNDERLINES),
                        strikethrough: f.contains(Flags::STRIKEOUT),
                        inverse: f.contains(Flags::INVERSE),
                        blink: false,
                        hidden: f.contains(Flags::HIDDEN),
                    },
                    link: 0,
                };
            }
        }
        let point = grid.cursor.point;
        screen.cursor.row = point.line.0.max(0) as u16;
        screen.cursor.col = point.column.0.min(cols - 1) as u16;
        screen
    }
}
