//! dashapp: a monitoring dashboard in the terminal, of the kind ratatui's demos show, and
//! nothing in it is the same twice: a sparkline of random load fed every 20 ms, a spinner
//! that turns on every tick, a gauge of the latest sample, and an uptime counter; beside the
//! chart, a panel of services that does not change.
//!
//! Keys: `d` shows or hides a "Details" popup (the sample count so far is in it, random too),
//! `p` pauses the feed (the title says so), `q` quits; `!` panics, a bug for tests to find.
//!
//! Every run draws different data: a test of it must mask what is random and wait for what
//! is not (the titles, the popup, the paused state).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Gauge, Paragraph, Sparkline};
use ratatui::{DefaultTerminal, Frame};

/// 50 frames a second: faster than a checkpoint's settle period, so an unmasked screen never
/// settles.
const TICK: Duration = Duration::from_millis(20);
const SPINNER: [&str; 4] = ["|", "/", "-", "\\"];
const SERVICES: [(&str, bool); 4] = [
    ("api", true),
    ("database", true),
    ("cache", false),
    ("queue", true),
];

fn main() -> io::Result<()> {
    let mut terminal = ratatui::init();
    let result = Dash::new().run(&mut terminal);
    ratatui::restore();
    result
}

/// Random numbers from the standard library's per-process random hasher keys.
struct Noise(u64);

impl Noise {
    fn new() -> Noise {
        Noise(RandomState::new().build_hasher().finish() | 1)
    }

    /// 0..=99 (xorshift).
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % 100
    }
}

struct Dash {
    samples: Vec<u64>,
    noise: Noise,
    ticks: usize,
    started: Instant,
    paused: bool,
    details: bool,
}

impl Dash {
    fn new() -> Dash {
        let mut noise = Noise::new();
        let samples = (0..40).map(|_| noise.next()).collect();
        Dash {
            samples,
            noise,
            ticks: 0,
            started: Instant::now(),
            paused: false,
            details: false,
        }
    }

    fn run(mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        let mut next_tick = Instant::now() + TICK;
        loop {
            terminal.draw(|f| self.draw(f))?;
            let wait = next_tick.saturating_duration_since(Instant::now());
            if event::poll(wait)? {
                if let Event::Key(key) = event::read()? {
                    if key.kind != KeyEventKind::Press {
                        continue;
                    }
                    match key.code {
                        KeyCode::Char('q') => return Ok(()),
                        KeyCode::Char('p') => self.paused = !self.paused,
                        KeyCode::Char('d') => self.details = !self.details,
                        // A bug to find: the kind of crash a test must blame on its key.
                        KeyCode::Char('!') => panic!("dashboard bug: the '!' key is not handled"),
                        _ => {}
                    }
                }
            }
            if Instant::now() >= next_tick {
                next_tick += TICK;
                self.tick();
            }
        }
    }

    fn tick(&mut self) {
        self.ticks += 1;
        if !self.paused {
            let sample = self.noise.next();
            self.samples.remove(0);
            self.samples.push(sample);
        }
    }

    fn draw(&self, f: &mut Frame) {
        let [header, chart, gauge, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(5),
            Constraint::Length(3),
            Constraint::Length(1),
        ])
        .areas(f.area());
        let state = if self.paused { "paused" } else { "live" };
        let spinner = SPINNER[self.ticks % SPINNER.len()];
        f.render_widget(
            Paragraph::new(Line::from(vec![
                " Dashboard ".bold().reversed(),
                format!(" {spinner} {state}").into(),
            ])),
            header,
        );
        let [chart, services] =
            Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)])
                .areas(chart);
        let lines: Vec<Line> = SERVICES
            .iter()
            .map(|(name, up)| {
                let status = if *up { "up".green() } else { "down".red() };
                Line::from(vec![format!(" {name:<10}").into(), status])
            })
            .collect();
        f.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(" Services ")),
            services,
        );
        let load = Sparkline::default()
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .title(" Load "),
            )
            .data(&self.samples)
            .max(100)
            .style(Style::new().fg(Color::Green));
        f.render_widget(load, chart);
        let latest = self.samples.last().copied().unwrap_or(0);
        let gauge_widget = Gauge::default()
            .block(Block::bordered().title(" Latest "))
            .gauge_style(Style::new().fg(Color::Cyan))
            .percent(latest as u16);
        f.render_widget(gauge_widget, gauge);
        let uptime = self.started.elapsed().as_secs();
        f.render_widget(
            Paragraph::new(format!(" up {uptime}s  d details  p pause  q quit")).dim(),
            footer,
        );
        if self.details {
            // Over the services panel, whose text does not change.
            let area = centered(services, 26, 5);
            f.render_widget(Clear, area);
            f.render_widget(
                Paragraph::new(format!("samples: {}\nstate: {state}", self.ticks + 40)).block(
                    Block::bordered()
                        .border_type(BorderType::Double)
                        .title(" Details "),
                ),
                area,
            );
        }
    }
}

/// A `width`×`height` rectangle in the middle of `area`.
fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}
