//! todoapp: a small todo list in the terminal, written the way ratatui apps usually are.
//!
//! A bordered "Todos" list with a highlighted selection, a status bar with a clock that
//! ticks every 250 ms, and a "New todo" popup.
//!
//! Keys: `j`/`k` or Down/Up move, `a` opens the popup (Enter adds, Esc cancels), `d` deletes
//! the selected todo, `q` quits.
//!
//! `TODOAPP_CLOCK=frozen` shows `12:00:00` instead of the current time (UTC), for demos;
//! by default the clock is real.
//!
//! `TODOAPP_SLOW_DRAW=MS` makes it a deliberately slow renderer: every frame (a flush of more
//! than 64 bytes) is written in four pieces with a pause of MS milliseconds after each of the first three (cut anywhere,
//! inside escape sequences too), the way a program that computes its frame as it writes it
//! looks from the terminal. A checkpoint must never catch such a frame half-drawn.

use std::io::{self, Write};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, List, ListItem, ListState, Paragraph};
use ratatui::{Frame, Terminal};

const TICK: Duration = Duration::from_millis(250);

const SEED: [&str; 4] = [
    "Buy milk",
    "Write the release notes",
    "Review pull request #42",
    "Water the plants",
];

fn main() -> io::Result<()> {
    let mut terminal = ratatui::init();
    let slow = std::env::var("TODOAPP_SLOW_DRAW")
        .ok()
        .and_then(|ms| ms.parse::<u64>().ok());
    let result = match slow {
        Some(ms) => ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(SlowWriter {
            out: io::stdout(),
            frame: Vec::new(),
            pause: Duration::from_millis(ms),
        }))
        .and_then(|mut slow| App::new().run(&mut slow)),
        None => App::new().run(&mut terminal),
    };
    ratatui::restore();
    result
}

/// Holds a frame's bytes until the flush, then writes them in four pieces with pauses between.
struct SlowWriter {
    out: io::Stdout,
    frame: Vec<u8>,
    pause: Duration,
}

impl Write for SlowWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.frame.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let frame = std::mem::take(&mut self.frame);
        // ratatui also flushes a few bytes alone (the cursor): only frames come in pieces.
        let pieces = if frame.len() > 64 { 4 } else { 1 };
        let piece = frame.len().div_ceil(pieces).max(1);
        let mut out = self.out.lock();
        for (i, part) in frame.chunks(piece).enumerate() {
            if i > 0 {
                std::thread::sleep(self.pause);
            }
            out.write_all(part)?;
            out.flush()?;
        }
        Ok(())
    }
}

/// What the clock shows.
#[derive(Debug, Clone, Copy)]
enum Clock {
    Real,
    Frozen,
}

impl Clock {
    fn from_env() -> Clock {
        match std::env::var("TODOAPP_CLOCK").as_deref() {
            Ok("frozen") => Clock::Frozen,
            _ => Clock::Real,
        }
    }

    /// `HH:MM:SS`, UTC.
    fn now(self) -> String {
        let secs = match self {
            Clock::Frozen => 12 * 3600,
            Clock::Real => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
        };
        let day = secs % 86_400;
        format!("{:02}:{:02}:{:02}", day / 3600, day / 60 % 60, day % 60)
    }
}

#[derive(Debug)]
struct App {
    todos: Vec<String>,
    list: ListState,
    /// The popup's input while it is open.
    input: Option<String>,
    clock: Clock,
    time: String,
    quit: bool,
}

impl App {
    fn new() -> App {
        let clock = Clock::from_env();
        App {
            todos: SEED.iter().map(|s| s.to_string()).collect(),
            list: ListState::default().with_selected(Some(0)),
            input: None,
            clock,
            time: clock.now(),
            quit: false,
        }
    }

    fn run<B: ratatui::backend::Backend>(mut self, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        io::Error: From<B::Error>,
    {
        let mut last_tick = Instant::now();
        while !self.quit {
            terminal.draw(|frame| self.draw(frame))?;
            let timeout = TICK.saturating_sub(last_tick.elapsed());
            if event::poll(timeout)? {
                if let Event::Key(key) = event::read()? {
                    if key.kind == KeyEventKind::Press {
                        self.on_key(key);
                    }
                }
            }
            if last_tick.elapsed() >= TICK {
                self.time = self.clock.now();
                last_tick = Instant::now();
            }
        }
        Ok(())
    }

    fn on_key(&mut self, key: KeyEvent) {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        if let Some(input) = &mut self.input {
            match key.code {
                KeyCode::Enter => {
                    let text = input.trim().to_string();
                    self.input = None;
                    if !text.is_empty() {
                        self.todos.push(text);
                        self.list.select(Some(self.todos.len() - 1));
                    }
                }
                KeyCode::Esc => self.input = None,
                KeyCode::Backspace => {
                    input.pop();
                }
                KeyCode::Char(c) => input.push(c),
                _ => {}
            }
            return;
        }
        match key.code {
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('j') | KeyCode::Down => self.list.select_next(),
            KeyCode::Char('k') | KeyCode::Up => self.list.select_previous(),
            KeyCode::Char('a') => self.input = Some(String::new()),
            KeyCode::Char('d') => self.delete_selected(),
            _ => {}
        }
    }

    fn delete_selected(&mut self) {
        let Some(i) = self.list.selected() else {
            return;
        };
        if i < self.todos.len() {
            self.todos.remove(i);
        }
        if self.todos.is_empty() {
            self.list.select(None);
        } else {
            self.list.select(Some(i.min(self.todos.len() - 1)));
        }
    }

    fn draw(&mut self, frame: &mut Frame) {
        let [main, status] =
            Layout::vertical([Constraint::Min(3), Constraint::Length(1)]).areas(frame.area());

        let items: Vec<ListItem> = self
            .todos
            .iter()
            .map(|t| ListItem::new(t.as_str()))
            .collect();
        let list = List::new(items)
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .title(Line::from(" Todos ").bold().cyan())
                    .border_style(Style::new().fg(Color::Cyan)),
            )
            .highlight_style(
                Style::new()
                    .bg(Color::Yellow)
                    .fg(Color::Black)
                    .add_modifier(Modifier::BOLD),
            )
            .highlight_symbol("> ");
        frame.render_stateful_widget(list, main, &mut self.list);

        let [left, right] =
            Layout::horizontal([Constraint::Min(0), Constraint::Length(10)]).areas(status);
        let count = match self.todos.len() {
            1 => "1 todo".to_string(),
            n => format!("{n} todos"),
        };
        let help = Line::from(vec![
            Span::raw(format!(" {count} ")).bold(),
            Span::raw("│ a add · d delete · j/k move · q quit"),
        ]);
        let bar = Style::new().bg(Color::Blue).fg(Color::White);
        frame.render_widget(Paragraph::new(help).style(bar), left);
        frame.render_widget(
            Paragraph::new(format!("{} ", self.time))
                .right_aligned()
                .style(bar),
            right,
        );

        if let Some(input) = &self.input {
            let area = popup_area(frame.area(), 40, 3);
            frame.render_widget(Clear, area);
            let block = Block::bordered()
                .title(Line::from(" New todo ").bold())
                .border_style(Style::new().fg(Color::Magenta));
            let inner = block.inner(area);
            frame.render_widget(Paragraph::new(input.as_str()).block(block), area);
            let x = inner.x + (input.chars().count() as u16).min(inner.width.saturating_sub(1));
            frame.set_cursor_position(Position::new(x, inner.y));
        }
    }
}

/// A `width` x `height` box in the middle of `area`.
fn popup_area(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}
