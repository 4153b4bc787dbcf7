//! Adapter for `avt` 0.17, asciinema's virtual terminal (what asciinema's player shows): the
//! second engine, for differential replay (`engine = "avt"`, `tuicast engines`).
//!
//! A thin adapter with no rule of its own: avt's parser and terminal fed as `avt::Vt` feeds
//! them, and the screen read back as avt keeps it. Where avt and a real terminal differ, this
//! engine shows avt's screen, which is the point of comparing with it; every rule tuicast
//! follows lives once, in the native engine (`src/term/native/`). What avt gives, and so what
//! the screen has:
//! - each cell's character, width and pen (colours; bold, faint, italic, underline,
//!   strikethrough, blink, inverse) as avt keeps them: a combining mark in a cell of its own,
//!   no concealed text, no hyperlinks, a DEL printed (shown as U+FFFD, as any control
//!   character a cell could hold: untrusted bytes stay data);
//! - the cursor (a cursor past the last column, avt's pending wrap, is shown in the last
//!   column, where xterm shows it) and whether it is visible; no cursor shape;
//! - whether the alternate screen is active, and the cursor-keys mode; no other mode;
//! - the lines avt scrolls off the top of its main screen, as the scrollback;
//! - no title, icon name, bells, clipboard writes or unsupported sequences: avt keeps none
//!   of them, and none of [`EngineOptions`](super::EngineOptions) (DECCOLM is ignored).
//!
//! What the adapter bounds, none of which changes a screen within the bounds: the size
//! (never narrower than [`MIN_COLS`](crate::size::MIN_COLS): avt 0.17 panics reflowing a
//! wide character into one column), REP's prints (the engines' work budget, `work.rs`: past
//! it a REP is skipped and [`Engine::limit_passed`] fails the replay), and the lines avt holds
//! before they are dropped or taken into the scrollback (collected after every function but
//! a print, and every [`FEED_CHUNK`] prints).

use std::collections::VecDeque;

use avt::parser::{Function, Parser};
use avt::terminal::{BufferType, Terminal};

use super::state::SCROLLBACK_CELLS;
use super::work::{Work, REP};
use super::{
    safe_char, Attrs, Cell, CellText, Color, Cursor, CursorShape, Engine, Modes, Screen,
    Scrollback, Size, TermState, MAX_SCROLLBACK,
};

/// Characters printed between two collections of the lines avt scrolled off the top: a
/// print scrolls at most one line, so avt holds at most this many lines beyond the screen.
const FEED_CHUNK: usize = 4096;

/// The avt engine: avt 0.17 as the crate is (see the module docs).
pub struct AvtEngine {
    parser: Parser,
    terminal: Terminal,
    size: Size,
    /// Lines scrolled off the top of the main screen, as avt gave them back, oldest first.
    scrollback: VecDeque<avt::Line>,
    /// Most lines kept in `scrollback`.
    scrollback_limit: usize,
    /// Prints since the lines scrolled off were last collected (a print scrolls at most one
    /// line: this bounds the lines avt holds between two collections).
    printed: usize,
    /// REP's prints, against the engines' work budget (`term::work`).
    work: Work,
}

impl std::fmt::Debug for AvtEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AvtEngine")
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl AvtEngine {
    /// A blank avt terminal of `size`, keeping the last [`MAX_SCROLLBACK`] lines scrolled off
    /// its main screen.
    pub fn new(size: Size) -> Self {
        Self::with_scrollback(size, MAX_SCROLLBACK)
    }

    /// A blank avt terminal of `size` keeping the last `lines` lines scrolled off its main
    /// screen (at most [`MAX_SCROLLBACK`]; 0 keeps none).
    pub fn with_scrollback(size: Size, lines: usize) -> Self {
        let size = size.at_least_min();
        AvtEngine {
            parser: Parser::new(),
            // avt keeps no line past the screen: they are collected into `scrollback`.
            terminal: Terminal::new((size.cols as usize, size.rows as usize), Some(0)),
            size,
            scrollback: VecDeque::new(),
            scrollback_limit: lines.min(MAX_SCROLLBACK),
            printed: 0,
            work: Work::default(),
        }
    }

    /// Takes the lines avt dropped off the top into the scrollback.
    fn collect_scrolled(&mut self) {
        self.printed = 0;
        // At most SCROLLBACK_CELLS cells: on a very wide screen, fewer lines.
        let limit = self
            .scrollback_limit
            .min(SCROLLBACK_CELLS / usize::from(self.size.cols.max(1)));
        for line in self.terminal.gc() {
            if limit == 0 {
                continue;
            }
            // (`while`: a resize to a wider screen may have lowered the limit.)
            while self.scrollback.len() >= limit {
                self.scrollback.pop_front();
            }
            self.scrollback.push_back(line);
        }
    }
}

/// A colour as avt keeps it.
fn color(c: Option<avt::Color>) -> Color {
    match c {
        None => Color::Default,
        Some(avt::Color::Indexed(n)) => Color::Indexed(n),
        Some(avt::Color::RGB(c)) => Color::Rgb(crate::rgb::Rgb(c.r, c.g, c.b)),
    }
}

/// A line's text as the scrollback keeps it: control characters replaced, trailing blanks
/// dropped.
fn line_text(line: &avt::Line) -> String {
    let mut text: String = line
        .cells()
        .iter()
        .filter(|c| c.width() > 0)
        .map(|c| safe_char(c.char()))
        .collect();
    text.truncate(text.trim_end().len());
    text
}

impl super::sealed::Sealed for AvtEngine {}

impl Engine for AvtEngine {
    fn feed(&mut self, text: &str) {
        self.work.fed(text.len());
        for ch in text.chars() {
            let Some(f) = self.parser.feed(ch) else {
                continue;
            };
            match f {
                Function::Print(_) => {
                    self.terminal.execute(f);
                    self.printed += 1;
                    if self.printed >= FEED_CHUNK {
                        self.collect_scrolled();
                    }
                }
                Function::Rep(n) => {
                    if self.work.take(u64::from(n.max(1)), REP) {
                        self.terminal.execute(f);
                    }
                    self.collect_scrolled();
                }
                f => {
                    self.terminal.execute(f);
                    self.collect_scrolled();
                }
            }
        }
        if self.printed > 0 {
            self.collect_scrolled();
        }
    }

    fn resize(&mut self, size: Size) {
        let size = size.at_least_min();
        if size == self.size {
            return;
        }
        self.terminal.resize(size.cols as usize, size.rows as usize);
        self.size = size;
        self.collect_scrolled();
    }

    fn size(&self) -> Size {
        self.size
    }

    fn screen(&self) -> Screen {
        let rows = self
            .terminal
            .view()
            .map(|line| {
                line.cells()
                    .iter()
                    .map(|c| {
                        let p = c.pen();
                        let width = c.width() as u8;
                        Cell {
                            text: if width == 0 {
                                CellText::EMPTY
                            } else {
                                CellText::from_char(safe_char(c.char()))
                            },
                            width,
                            fg: color(p.foreground()),
                            bg: color(p.background()),
                            attrs: Attrs {
                                bold: p.is_bold(),
                                dim: p.is_faint(),
                                italic: p.is_italic(),
                                underline: p.is_underline(),
                                strikethrough: p.is_strikethrough(),
                                inverse: p.is_inverse(),
                                blink: p.is_blink(),
                                hidden: false,
                            },
                            link: 0,
                        }
                    })
                    .collect()
            })
            .collect();
        let cursor = self.terminal.cursor();
        let alternate = self.terminal.active_buffer_type() == BufferType::Alternate;
        Screen {
            size: self.size,
            rows,
            cursor: Cursor {
                row: cursor.row.min(self.size.rows as usize - 1) as u16,
                col: cursor.col.min(self.size.cols as usize - 1) as u16,
                visible: cursor.visible,
                shape: CursorShape::default(),
            },
            title: None,
            alternate,
            state: TermState {
                scrollback: Scrollback::from(
                    self.scrollback.iter().map(line_text).collect::<Vec<_>>(),
                ),
                ..TermState::default()
            },
            modes: Modes {
                cursor_keys: self.terminal.cursor_keys_app_mode(),
                ..Modes::default()
            },
        }
    }

    fn limit_passed(&self) -> Option<String> {
        self.work.passed_message()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{EngineKind, NativeEngine};

    const SIZE: Size = Size { cols: 8, rows: 3 };

    fn both(input: &str) -> (Screen, Screen) {
        let mut native = NativeEngine::new(SIZE);
        let mut avt = AvtEngine::new(SIZE);
        native.feed(input);
        avt.feed(input);
        (native.screen(), avt.screen())
    }

    fn first_row(s: &Screen) -> String {
        let cells: Vec<&str> = s.rows[0].iter().map(|c| c.text.as_str()).collect();
        cells.join("|").trim_end_matches(['|', ' ']).to_string()
    }

    /// Where avt 0.17 differs from xterm, the native engine shows xterm's screen and this
    /// engine avt's, as asciinema's player does: the differences `tuicast engines` is for.
    /// Each case: what differs, the output, what is read of the screen, and what each engine
    /// shows (native, then avt).
    #[test]
    fn raw_avt_shows_what_asciinemas_player_shows_where_it_differs_from_xterm() {
        type Read = fn(&Screen) -> String;
        let fg_bold_of_erased: Read = |s| {
            let c = &s.rows[1][0];
            format!("{:?} {:?} bold {}", c.fg, c.bg, c.attrs.bold)
        };
        let cases: &[(&str, &str, Read, &str, &str)] = &[
            (
                "a combining mark joins the character before it",
                "e\u{301}x",
                first_row,
                "e\u{301}|x",
                "e|\u{301}|x",
            ),
            (
                "the window title",
                "\x1b]2;hi\x07",
                |s| format!("{:?}", s.title),
                "Some(\"hi\")",
                "None",
            ),
            ("national character sets", "\x1b(A#", first_row, "£", "#"),
            (
                "erasing takes only the background (BCE)",
                "\x1b[1;31;44m\x1b[2J",
                fg_bold_of_erased,
                "Default Indexed(4) bold false",
                "Indexed(1) Indexed(4) bold true",
            ),
            (
                "DEL draws nothing",
                "a\x7fb",
                first_row,
                "a|b",
                "a|\u{fffd}|b",
            ),
            (
                "concealed text (SGR 8)",
                "\x1b[8mx",
                |s| format!("hidden {}", s.rows[0][0].attrs.hidden),
                "hidden true",
                "hidden false",
            ),
            (
                "bold and faint together",
                "\x1b[1;2mx",
                |s| format!("{:?}", (s.rows[0][0].attrs.bold, s.rows[0][0].attrs.dim)),
                "(true, true)",
                "(false, true)",
            ),
            (
                "REP repeats only a character just printed",
                "ab\r\x1b[C\x1b[2b",
                first_row,
                "a|b",
                "a|a|a",
            ),
            (
                "the cursor shape (DECSCUSR)",
                "\x1b[5 q",
                |s| format!("{:?}", s.cursor.shape.kind),
                "Bar",
                "Block",
            ),
            (
                "modes avt does not report (bracketed paste)",
                "\x1b[?2004h",
                |s| format!("paste {}", s.modes.bracketed_paste),
                "paste true",
                "paste false",
            ),
            (
                "bells",
                "\x07",
                |s| format!("bells {}", s.state.bells),
                "bells 1",
                "bells 0",
            ),
            (
                "hyperlinks (OSC 8)",
                "\x1b]8;;https://x\x07a",
                |s| format!("link {}", s.rows[0][0].link != 0),
                "link true",
                "link false",
            ),
        ];
        let mut wrong = Vec::new();
        for (what, input, read, native, avt) in cases {
            let (n, a) = both(input);
            let got = (read(&n), read(&a));
            if got != (native.to_string(), avt.to_string()) {
                wrong.push(format!(
                    "{what} ({input:?}): native {}, avt {}",
                    got.0, got.1
                ));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        // Where avt does as xterm does, both engines show the same screen.
        let (n, a) = both("\x1b[1;31mred\x1b[0m \x1b[?1049h\x1b[2;3Hx\x1b[?25l");
        assert_eq!(n.rows, a.rows);
        assert_eq!((n.cursor.row, n.cursor.col), (a.cursor.row, a.cursor.col));
        assert_eq!(
            (n.alternate, n.cursor.visible),
            (a.alternate, a.cursor.visible)
        );
        assert!(a.alternate && !a.cursor.visible);
    }

    #[test]
    fn the_scrollback_is_what_avt_scrolled_off_and_is_bounded() {
        let mut e = AvtEngine::new(SIZE);
        let text: String = (0..MAX_SCROLLBACK + 10)
            .map(|i| format!("{i}\r\n"))
            .collect();
        e.feed(&text);
        let s = e.screen();
        let lines = s.state.scrollback.lines();
        assert_eq!(lines.len(), MAX_SCROLLBACK);
        assert_eq!(lines[0], "8");
        assert_eq!(lines[MAX_SCROLLBACK - 1], (MAX_SCROLLBACK + 7).to_string());
        // Lines a wrap scrolled off (no line feed after them) are taken too.
        let mut e = AvtEngine::new(Size { cols: 2, rows: 1 });
        e.feed("abcdef");
        assert_eq!(e.screen().state.scrollback.lines(), ["ab", "cd"]);
        let mut e = AvtEngine::with_scrollback(SIZE, 0);
        e.feed(&text);
        assert!(e.screen().state.scrollback.lines().is_empty());
        // The alternate screen keeps none.
        let mut e = AvtEngine::new(SIZE);
        e.feed("\x1b[?1049h1\r\n2\r\n3\r\n4\r\n");
        assert!(e.screen().state.scrollback.lines().is_empty());
    }

    #[test]
    fn rep_takes_from_the_work_budget_and_past_it_fails_the_replay() {
        let mut e = EngineKind::Avt.create(SIZE);
        e.feed("x\x1b[3b");
        assert_eq!(e.screen().row_text(0), "xxxx");
        assert_eq!(e.limit_passed(), None);
        e.feed(&"\x1b[65535b".repeat(1000));
        let message = e.limit_passed().expect("REP past the budget");
        assert!(message.contains("REP, `CSI n b`"), "{message}");
    }

    #[test]
    fn a_narrow_resize_keeps_the_minimum_width() {
        let mut e = AvtEngine::new(SIZE);
        e.feed("\u{65e5}\u{672c}");
        e.resize(Size { cols: 1, rows: 2 });
        assert_eq!(e.size(), Size { cols: 2, rows: 2 });
        let s = e.screen();
        assert_eq!(s.row_text(0), "\u{672c}");
        assert_eq!(s.state.scrollback.lines(), ["\u{65e5}"]);
    }
}
