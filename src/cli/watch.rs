//! `tuicast session events` and `tuicast session attach`: watching a live session through
//! the daemon's event stream (`daemon::protocol::SessionEvent`, one JSON line each), and
//! holding its input for a while so that a person can help an agent and give it back.
//!
//! `attach` draws the session's screen (its text) in the user's own terminal — the alternate
//! screen, raw mode — redrawn whole on every change, with a status line. Read-only by
//! default; `t` (or `--take`) takes the input: keys then go to the program as typed, and
//! the agents' input is refused until Ctrl-] gives it back. `q` or Ctrl-\ detaches (which
//! gives it back too). The user's terminal is restored on every way out: a detach, the
//! session's end, a lost daemon, an error, SIGINT/SIGTERM/SIGHUP (a panic unwinds through
//! the same guard).

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::process::ExitCode;
use std::sync::mpsc;

use anyhow::{bail, Context};
use serde_json::Value;

use tuicast::daemon::protocol::{Reply, Request};
use tuicast::daemon::Paths;
use tuicast::escape::escape_for_terminal;

/// The longest event line read (a screen event of the largest session's screen).
const MAX_EVENT_LINE: u64 = 4 * tuicast::daemon::MAX_LINE as u64;

/// The key that detaches (`attach`): Ctrl-\.
const DETACH: u8 = 0x1c;

/// The key that gives the input back while holding it: Ctrl-].
const GIVE_BACK: u8 = 0x1d;

/// Connects to the daemon and sends `request`; the stream, and its first line when that is
/// an error reply (no such session, too many watchers) instead of an event.
fn open(paths: &Paths, request: &Request, id: &str) -> Result<BufReader<UnixStream>, Box<Reply>> {
    let no_daemon = || {
        Box::new(Reply::error(
            format!(
                "no session \"{}\": no session daemon runs (tuicast session start starts one)",
                escape_for_terminal(id, 60)
            ),
            super::EXIT_BAD_INPUT,
        ))
    };
    let mut stream = UnixStream::connect(paths.socket()).map_err(|_| no_daemon())?;
    let mut line = serde_json::to_string(request).unwrap_or_default();
    line.push('\n');
    stream.write_all(line.as_bytes()).map_err(|_| no_daemon())?;
    Ok(BufReader::new(stream))
}

/// One line of the stream: `Ok(None)` at its end; an error reply as `Err`.
fn read_event(reader: &mut BufReader<UnixStream>) -> Result<Option<Value>, Box<Reply>> {
    let mut line = Vec::new();
    let read = reader
        .by_ref()
        .take(MAX_EVENT_LINE + 1)
        .read_until(b'\n', &mut line);
    match read {
        Ok(0) => return Ok(None),
        Err(e) => {
            return Err(Box::new(Reply::error(
                format!("the session daemon's stream broke: {e}"),
                super::EXIT_CHECK_FAILED,
            )))
        }
        Ok(_) if line.len() as u64 > MAX_EVENT_LINE => {
            return Err(Box::new(Reply::error(
                format!("an event line is longer than {MAX_EVENT_LINE} bytes"),
                super::EXIT_CHECK_FAILED,
            )))
        }
        Ok(_) => {}
    }
    let value: Value = serde_json::from_slice(&line).map_err(|e| {
        Box::new(Reply::error(
            format!("the session daemon sent what is not JSON: {e}"),
            super::EXIT_CHECK_FAILED,
        ))
    })?;
    if value.get("type").is_none() {
        // A reply: the request was refused.
        let reply: Reply = serde_json::from_value(value).unwrap_or_else(|e| {
            Reply::error(
                format!("the session daemon sent what is no reply: {e}"),
                super::EXIT_CHECK_FAILED,
            )
        });
        return Err(Box::new(reply));
    }
    Ok(Some(value))
}

/// The reply when the stream ended without an `exit` event.
fn cut_short() -> Box<Reply> {
    Box::new(Reply::error(
        "the session daemon ended the stream before the session ended (it was stopped or \
         killed)",
        super::EXIT_CHECK_FAILED,
    ))
}

/// `tuicast session events ID [--since SEQ]`: every event as a JSON line (or, with
/// `human`, a line for people), flushed one by one, until the session ends.
pub(super) fn events(
    paths: &Paths,
    id: String,
    since: Option<u64>,
    human: bool,
) -> anyhow::Result<ExitCode> {
    let request = Request::Events {
        id: id.clone(),
        since,
    };
    let mut reader = match open(paths, &request, &id) {
        Ok(r) => r,
        Err(reply) => return give(&reply, human),
    };
    let mut out = std::io::stdout().lock();
    loop {
        let event = match read_event(&mut reader) {
            Ok(Some(e)) => e,
            Ok(None) => return give(&cut_short(), human),
            Err(reply) => return give(&reply, human),
        };
        let text = if human {
            human_line(&event)
        } else {
            serde_json::to_string(&event).unwrap_or_default()
        };
        // A reader that went away (`| head -3`) ends the watch: no error.
        if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
            return Ok(ExitCode::SUCCESS);
        }
        if event["type"] == "exit" {
            return Ok(ExitCode::SUCCESS);
        }
    }
}

/// Prints `reply` as every session command does; its exit status.
fn give(reply: &Reply, human: bool) -> anyhow::Result<ExitCode> {
    super::session::print(reply, human)?;
    Ok(ExitCode::from(reply.exit))
}

/// An event for people: `#SEQ TYPE what`, escaped for the terminal.
fn human_line(e: &Value) -> String {
    let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let seq = e["seq"].as_u64().unwrap_or(0);
    let what = match e["type"].as_str().unwrap_or("") {
        "screen" => {
            let rows = e["rows"].as_array().cloned().unwrap_or_default();
            let mut text = format!("screen {} {}", s("size"), s("hash"));
            for r in rows {
                let t = r["text"].as_str().unwrap_or("");
                text.push_str(&format!(
                    "\n  {:>3}│{}",
                    r["row"],
                    escape_for_terminal(t, 1000)
                ));
            }
            text
        }
        "title" => format!("title {}", escape_for_terminal(&s("title"), 300)),
        "bell" => format!("bell ×{}", e["count"]),
        "prompt" => format!(
            "prompt {} {}",
            s("kind"),
            escape_for_terminal(&s("evidence"), 200)
        ),
        "hold" if e["held"] == true => "hold: a person holds the input".to_string(),
        "hold" => "hold: given back".to_string(),
        "exit" => format!(
            "exit {} (status {})",
            e["status"]["state"].as_str().unwrap_or("?"),
            e["status"]["code"]
        ),
        "lost" => format!("lost {} events (the state follows)", e["count"]),
        "refused" => format!("refused: {}", escape_for_terminal(&s("error"), 300)),
        other => escape_for_terminal(other, 40),
    };
    format!("#{seq} {what}")
}

/// What the attach loop hears of.
enum Heard {
    Event(Value),
    /// The stream ended (or broke: the reply says why).
    Ended(Option<Box<Reply>>),
    Keys(Vec<u8>),
    Signal(nix::sys::signal::Signal),
}

/// What `attach` shows.
#[derive(Default)]
struct View {
    id: String,
    cols: usize,
    rows: Vec<String>,
    cursor: (usize, usize, bool),
    title: Option<String>,
    held: bool,
    /// Held by another person.
    held_elsewhere: bool,
    note: Option<String>,
    ended: Option<String>,
}

impl View {
    fn take(&mut self, e: &Value) {
        let n = |v: &Value| v.as_u64().unwrap_or(1).max(1) as usize - 1;
        match e["type"].as_str().unwrap_or("") {
            "screen" => {
                let size = e["size"].as_str().unwrap_or("80x24");
                let (c, r) = size.split_once('x').unwrap_or(("80", "24"));
                let (cols, rows) = (c.parse().unwrap_or(80), r.parse().unwrap_or(24));
                self.cols = cols;
                self.rows.resize(rows, String::new());
                if e["full"] == true {
                    self.rows.iter_mut().for_each(String::clear);
                }
                for row in e["rows"].as_array().into_iter().flatten() {
                    if let Some(slot) = self.rows.get_mut(n(&row["row"])) {
                        *slot = row["text"].as_str().unwrap_or("").to_string();
                    }
                }
                let c = &e["cursor"];
                self.cursor = (n(&c["row"]), n(&c["col"]), c["visible"] == true);
            }
            "title" => self.title = e["title"].as_str().map(str::to_string),
            "hold" => {
                self.held = e["yours"] == true;
                self.held_elsewhere = e["held"] == true && !self.held;
                self.note = None;
            }
            "refused" => {
                self.note = e["error"].as_str().map(|t| escape_for_terminal(t, 200));
            }
            "exit" => {
                let st = &e["status"];
                self.ended = Some(format!(
                    "session {} ended: {}{}",
                    escape_for_terminal(&self.id, 60),
                    st["state"].as_str().unwrap_or("ended"),
                    st["code"]
                        .as_i64()
                        .map(|c| format!(" (status {c})"))
                        .unwrap_or_default()
                ));
            }
            _ => {}
        }
    }

    /// The whole screen, drawn for a terminal of `term` (columns, rows): the session's rows
    /// (cut to fit), then the status line on the terminal's last row.
    fn draw(&self, term: (usize, usize)) -> String {
        let (tcols, trows) = (term.0.max(1), term.1.max(2));
        let mut out = String::from("\x1b[?25l\x1b[H\x1b[2J");
        let shown = self.rows.len().min(trows - 1);
        for (r, text) in self.rows.iter().take(shown).enumerate() {
            out.push_str(&format!("\x1b[{};1H", r + 1));
            out.push_str(&fit(text, tcols));
        }
        let mut status = String::new();
        // Said first, so that a narrow terminal shows it.
        if self.rows.len() > trows - 1 || self.cols > tcols {
            status.push_str(&format!(
                "your terminal is {}x{}, the session {}x{}: part is cut off · ",
                tcols,
                trows,
                self.cols,
                self.rows.len()
            ));
        }
        status.push_str(&format!(
            "tuicast attach {}",
            escape_for_terminal(&self.id, 60)
        ));
        if let Some(t) = self.title.as_deref().filter(|t| !t.is_empty()) {
            status.push_str(&format!(" «{}»", escape_for_terminal(t, 60)));
        }
        status.push_str(if self.held {
            " · YOU HOLD THE INPUT: keys go to the program · Ctrl-] give back · Ctrl-\\ detach"
        } else if self.held_elsewhere {
            " · read-only, another person holds the input · q detach"
        } else {
            " · read-only · t take over · q detach"
        });
        if let Some(n) = &self.note {
            status.push_str(&format!(" · {n}"));
        }
        out.push_str(&format!(
            "\x1b[{trows};1H\x1b[7m{}\x1b[0m",
            fit(&status, tcols)
        ));
        let (row, col, visible) = self.cursor;
        if self.held && visible && row < shown && col < tcols {
            out.push_str(&format!("\x1b[{};{}H\x1b[?25h", row + 1, col + 1));
        }
        out
    }
}

/// `text` escaped for a terminal and cut to `cols` characters.
fn fit(text: &str, cols: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let safe = escape_for_terminal(text, usize::MAX);
    let mut width = 0;
    let mut out = String::new();
    for c in safe.chars() {
        width += c.width().unwrap_or(0);
        if width > cols {
            break;
        }
        out.push(c);
    }
    out
}

/// The user's terminal in raw mode on the alternate screen for as long as it lives: left,
/// with the cursor shown and the modes restored, on every way out (a panic unwinds through
/// it too).
struct Screen {
    _raw: super::record::RawMode,
}

impl Screen {
    fn enter() -> anyhow::Result<Screen> {
        let raw =
            super::record::RawMode::enable().context("cannot put the terminal in raw mode")?;
        let mut out = std::io::stdout();
        let _ = out.write_all(b"\x1b[?1049h\x1b[H\x1b[2J");
        let _ = out.flush();
        Ok(Screen { _raw: raw })
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let mut out = std::io::stdout();
        let _ = out.write_all(b"\x1b[0m\x1b[?25h\x1b[?1049l");
        let _ = out.flush();
    }
}

/// `tuicast session attach ID [--take]`.
pub(super) fn attach(
    paths: &Paths,
    id: String,
    take: bool,
    human: bool,
) -> anyhow::Result<ExitCode> {
    use nix::sys::signal::{SigSet, Signal};
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!(
            "attach draws the session in a terminal: standard input and output must be one \
             (scripts watch with `tuicast session events`)"
        );
    }
    // The signals that end an attach, and a resize of the terminal: taken by a thread of
    // their own (blocked here, before any other thread starts, so in all of them).
    let mut signals = SigSet::empty();
    for s in [
        Signal::SIGINT,
        Signal::SIGTERM,
        Signal::SIGHUP,
        Signal::SIGWINCH,
    ] {
        signals.add(s);
    }
    signals
        .thread_block()
        .context("cannot set up signal handling")?;
    let request = Request::Attach {
        id: id.clone(),
        take,
    };
    let mut reader = match open(paths, &request, &id) {
        Ok(r) => r,
        Err(reply) => return give(&reply, human),
    };
    // The first line says whether the session is there (before the terminal is taken).
    let first = match read_event(&mut reader) {
        Ok(Some(e)) => e,
        Ok(None) => return give(&cut_short(), human),
        Err(reply) => return give(&reply, human),
    };
    let mut control = reader
        .get_ref()
        .try_clone()
        .context("the daemon's socket")?;
    let (tx, rx) = mpsc::channel::<Heard>();
    {
        let tx = tx.clone();
        std::thread::spawn(move || loop {
            match read_event(&mut reader) {
                Ok(Some(e)) => {
                    if tx.send(Heard::Event(e)).is_err() {
                        return;
                    }
                }
                Ok(None) => return drop(tx.send(Heard::Ended(None))),
                Err(reply) => return drop(tx.send(Heard::Ended(Some(reply)))),
            }
        });
    }
    {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            let mut input = std::io::stdin();
            loop {
                match input.read(&mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        if tx.send(Heard::Keys(buf[..n].to_vec())).is_err() {
                            return;
                        }
                    }
                }
            }
        });
    }
    std::thread::spawn(move || loop {
        if let Ok(s) = signals.wait() {
            if tx.send(Heard::Signal(s)).is_err() {
                return;
            }
        }
    });
    let term = || {
        terminal_size::terminal_size()
            .map_or((80, 24), |(w, h)| (usize::from(w.0), usize::from(h.0)))
    };
    let guard = Screen::enter()?;
    let mut view = View {
        id: id.clone(),
        ..View::default()
    };
    view.take(&first);
    let send = |control: &mut UnixStream, value: Value| {
        let mut line = value.to_string();
        line.push('\n');
        control.write_all(line.as_bytes())
    };
    let mut lost: Option<Box<Reply>> = None;
    let mut signal = None;
    'watch: loop {
        let mut out = std::io::stdout();
        let _ = out.write_all(view.draw(term()).as_bytes());
        let _ = out.flush();
        if view.ended.is_some() {
            break;
        }
        // Everything waiting is taken before the next drawing.
        let mut heard = vec![match rx.recv() {
            Ok(h) => h,
            Err(_) => break,
        }];
        heard.extend(rx.try_iter());
        for h in heard {
            match h {
                Heard::Event(e) => view.take(&e),
                Heard::Ended(why) => {
                    lost = Some(why.unwrap_or_else(cut_short));
                    break 'watch;
                }
                Heard::Signal(Signal::SIGWINCH) => {}
                Heard::Signal(s) => {
                    signal = Some(s);
                    break 'watch;
                }
                Heard::Keys(keys) => {
                    if !view.held {
                        if keys.contains(&DETACH) || keys.contains(&b'q') {
                            break 'watch;
                        }
                        if keys.contains(&b't') {
                            let _ = send(&mut control, serde_json::json!({"take": true}));
                        } else {
                            view.note = Some("read-only: keys are not sent (t takes over)".into());
                        }
                        continue;
                    }
                    // Held: the keys up to a Ctrl-] or Ctrl-\ go to the program.
                    let stop = keys.iter().position(|&k| k == GIVE_BACK || k == DETACH);
                    let typed = &keys[..stop.unwrap_or(keys.len())];
                    if !typed.is_empty() {
                        let text = String::from_utf8_lossy(typed);
                        let _ = send(&mut control, serde_json::json!({"input": text}));
                    }
                    match stop.map(|i| keys[i]) {
                        Some(DETACH) => break 'watch,
                        Some(_) => {
                            let _ = send(&mut control, serde_json::json!({"take": false}));
                        }
                        None => {}
                    }
                }
            }
        }
    }
    // Closing the connection gives the input back.
    let _ = control.shutdown(std::net::Shutdown::Both);
    drop(guard);
    if let Some(s) = signal {
        eprintln!("attach ended by {}", s.as_str());
        return Ok(ExitCode::from(128 + s as u8));
    }
    if let Some(reply) = lost {
        return give(&reply, human);
    }
    match &view.ended {
        Some(how) => eprintln!("{how}"),
        None => eprintln!("detached from session {}", escape_for_terminal(&id, 60)),
    }
    Ok(ExitCode::SUCCESS)
}
