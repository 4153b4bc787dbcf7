//! A recording session: a program in a PTY, mirrored by a live terminal engine, written to a
//! cast as it runs.
//!
//! ```no_run
//! use tuicast::record::{Session, SessionOptions};
//!
//! let opts = SessionOptions::new(["bash", "--norc", "--noprofile"]);
//! let mut s = Session::spawn(opts, "casts/demo.cast".as_ref())?;
//! s.wait_text("$")?;
//! s.type_text("echo hello")?;
//! s.press("Enter")?;
//! s.wait_text("hello")?;
//! s.snapshot("greeted")?;
//! s.type_text("exit")?;
//! s.press("Enter")?;
//! let finished = s.finish()?;
//! assert_eq!(finished.status, 0);
//! # Ok::<(), tuicast::record::RecordError>(())
//! ```
//!
//! Waits look at the screen, not the byte stream: the live engine is the same one replay uses,
//! and each wait is re-checked as soon as a chunk of output arrives (no polling interval).

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;
use regex::Regex;

use super::keys::key_bytes;
use super::pty::{Pty, PtyEvent};
use super::query::{answer, AnswerColors, QueryScanner};
use super::redact::Redactor;
use super::utf8::Utf8Decoder;
use crate::cast::{CastWriter, Event, EventData, Header, Term};
use crate::escape::escape_for_terminal;
use crate::term::{Engine, EngineKind, Screen, Size};

/// How to start a recording.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Working folder of the program.
    pub cwd: PathBuf,
    /// Terminal size.
    pub size: Size,
    /// The program's whole environment (see [`base_env`]).
    pub env: BTreeMap<String, String>,
    /// Default timeout of waits.
    pub timeout: Duration,
    /// Title written in the cast header.
    pub title: Option<String>,
    /// Output matching these is replaced by `*` before it reaches the cast.
    pub redact: Vec<Regex>,
    /// Colours used to answer colour queries, and written to the header.
    pub colors: AnswerColors,
    /// A fresh, empty HOME is made for the program (and removed after) when true.
    pub fresh_home: bool,
}

impl SessionOptions {
    /// Options for running `command` in the current folder, 80x24, with the base environment
    /// and a 10 s wait timeout.
    pub fn new<I, S>(command: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        SessionOptions {
            command: command.into_iter().map(Into::into).collect(),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            size: Size { cols: 80, rows: 24 },
            env: base_env(),
            timeout: Duration::from_secs(10),
            title: None,
            redact: Vec::new(),
            colors: AnswerColors::default(),
            fresh_home: true,
        }
    }
}

/// The clean, deterministic environment every recorded program starts from:
/// `TERM=xterm-256color`, `LANG=C.UTF-8`, `TZ=UTC`, a standard `PATH`, `SHELL=/bin/bash`
/// (`HOME` is set per session).
pub fn base_env() -> BTreeMap<String, String> {
    [
        ("TERM", "xterm-256color"),
        ("LANG", "C.UTF-8"),
        ("TZ", "UTC"),
        (
            "PATH",
            "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        ),
        ("SHELL", "/bin/bash"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// Why a recording step failed.
#[derive(Debug)]
pub enum RecordError {
    /// The program could not be started, or the scenario is not usable (bad input).
    Setup(String),
    /// Reading or writing failed.
    Io(io::Error),
    /// A wait did not see what it waited for in time.
    Timeout(Box<TimeoutReport>),
    /// The program exited while a step still needed it.
    Exited {
        /// What the step was doing.
        what: String,
        /// The program's exit status.
        status: i32,
        /// The screen at that moment, escaped.
        screen: String,
    },
    /// The program's exit status was not the one the scenario expects.
    ExitStatus {
        /// Expected status.
        expected: i32,
        /// Actual status.
        actual: i32,
    },
    /// A secret step's environment variable (of tuicast) is not set (bad input, found
    /// before the program starts).
    MissingSecret(String),
    /// The package's binary named by `bin =` was not found or did not build (bad input).
    Bin(super::cargo_bin::BinError),
    /// An error at one step of a scenario file, with the step's place.
    AtStep {
        /// Where the step was written.
        origin: super::scenario::Origin,
        /// What went wrong.
        error: Box<RecordError>,
    },
}

/// What a timed-out wait saw: enough to tell why without re-running.
#[derive(Debug)]
pub struct TimeoutReport {
    /// What was waited for.
    pub what: String,
    /// How long it waited.
    pub waited: Duration,
    /// The screen at that moment, rows escaped, trailing empty rows dropped.
    pub screen: String,
    /// Signs that the program is waiting for input.
    pub hints: Vec<String>,
}

impl RecordError {
    /// True for failures of a check (timeouts, exits, statuses) rather than bad input.
    pub fn is_check_failure(&self) -> bool {
        match self {
            RecordError::AtStep { error, .. } => error.is_check_failure(),
            other => matches!(
                other,
                RecordError::Timeout(_)
                    | RecordError::Exited { .. }
                    | RecordError::ExitStatus { .. }
            ),
        }
    }

    /// The place in a scenario file this error names, when it names one.
    pub fn origin(&self) -> Option<&super::scenario::Origin> {
        match self {
            RecordError::AtStep { origin, .. } => Some(origin),
            _ => None,
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Setup(m) => write!(f, "{m}"),
            RecordError::Bin(e) => write!(f, "{e}"),
            RecordError::Io(e) => write!(f, "{e}"),
            RecordError::Timeout(r) => {
                writeln!(
                    f,
                    "timed out after {:.1}s waiting for {}",
                    r.waited.as_secs_f64(),
                    r.what
                )?;
                if r.hints.is_empty() {
                    writeln!(
                        f,
                        "  the program does not look like it is waiting for input"
                    )?;
                } else {
                    writeln!(f, "  the program looks like it is waiting for input:")?;
                    for h in &r.hints {
                        writeln!(f, "    - {h}")?;
                    }
                }
                write!(f, "  screen at that moment:\n{}", r.screen)
            }
            RecordError::Exited {
                what,
                status,
                screen,
            } => {
                write!(f, "the program exited (status {status}) while {what}\n  screen at that moment:\n{screen}")
            }
            RecordError::ExitStatus { expected, actual } => {
                write!(
                    f,
                    "the program exited with status {actual}, expected {expected}"
                )
            }
            RecordError::MissingSecret(name) => write!(
                f,
                "the secret's environment variable {} is not set (it is read from tuicast's \
                 environment)",
                crate::escape::escape_for_terminal(name, 60)
            ),
            RecordError::AtStep { origin, error } => write!(f, "{origin}: {error}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<io::Error> for RecordError {
    fn from(e: io::Error) -> Self {
        RecordError::Io(e)
    }
}

/// Where the cast goes.
enum Sink {
    File(BufWriter<File>),
    Memory(Vec<u8>),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::File(f) => f.write(buf),
            Sink::Memory(v) => v.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::File(f) => f.flush(),
            Sink::Memory(_) => Ok(()),
        }
    }
}

/// The end of a recording.
#[derive(Debug, Clone)]
pub struct Finished {
    /// Exit status of the program (128+signal when a signal ended it).
    pub status: i32,
    /// Seconds from start to end.
    pub duration: f64,
    /// The cast text, for sessions recorded in memory.
    pub cast: Option<String>,
}

/// A program being recorded. See the module docs.
pub struct Session {
    pty: Pty,
    engine: Box<dyn Engine + Send>,
    writer: Option<CastWriter<Sink>>,
    start: Instant,
    decoder: Utf8Decoder,
    redactor: Redactor,
    scanner: QueryScanner,
    colors: AnswerColors,
    timeout: Duration,
    last_output: Instant,
    status: Option<i32>,
    eof: bool,
    home: Option<PathBuf>,
    size: Size,
    mirror: Option<Box<dyn Write + Send>>,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("pty", &self.pty)
            .finish_non_exhaustive()
    }
}

/// How long output may be held back waiting to see whether a secret follows.
const HOLD: Duration = Duration::from_millis(50);

impl Session {
    /// Starts recording into the cast file `path` (written as it goes, flushed after every
    /// event, so an interrupted recording still leaves a valid cast).
    pub fn spawn(opts: SessionOptions, path: &Path) -> Result<Session, RecordError> {
        let file = File::create(path)
            .map_err(|e| RecordError::Setup(format!("cannot create {}: {e}", path.display())))?;
        Self::start(opts, Sink::File(BufWriter::new(file)))
    }

    /// Starts recording into memory; [`Session::finish`] returns the cast text.
    pub fn spawn_in_memory(opts: SessionOptions) -> Result<Session, RecordError> {
        Self::start(opts, Sink::Memory(Vec::new()))
    }

    fn start(mut opts: SessionOptions, sink: Sink) -> Result<Session, RecordError> {
        let home = if opts.fresh_home && !opts.env.contains_key("HOME") {
            let dir = fresh_home()?;
            opts.env.insert("HOME".into(), dir.display().to_string());
            Some(dir)
        } else {
            None
        };
        let header = Header {
            version: 3,
            term: Term {
                size: opts.size,
                term_type: opts.env.get("TERM").cloned(),
                ..Term::default()
            },
            timestamp: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .ok()
                .map(|d| d.as_secs() as i64),
            command: Some(shell_words(&opts.command)),
            title: opts.title.clone(),
            env: opts
                .env
                .iter()
                .filter(|(k, _)| k.as_str() == "TERM" || k.as_str() == "SHELL")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            ..Header::default()
        };
        let writer = CastWriter::new(sink, &header)?;
        let pty = match Pty::spawn(&opts.command, &opts.cwd, &opts.env, opts.size) {
            Ok(p) => p,
            Err(e) => {
                if let Some(h) = &home {
                    let _ = std::fs::remove_dir_all(h);
                }
                return Err(RecordError::Setup(e.to_string()));
            }
        };
        let now = Instant::now();
        Ok(Session {
            pty,
            engine: EngineKind::Avt.create(opts.size),
            writer: Some(writer),
            start: now,
            decoder: Utf8Decoder::new(),
            redactor: Redactor::new(opts.redact),
            scanner: QueryScanner::new(),
            colors: opts.colors,
            timeout: opts.timeout,
            last_output: now,
            status: None,
            eof: false,
            home,
            size: opts.size,
            mirror: None,
        })
    }

    /// Copies the program's output (as recorded) to `out` as it arrives: what a person
    /// recording by hand sees.
    pub fn set_mirror(&mut self, out: Box<dyn Write + Send>) {
        self.mirror = Some(out);
    }

    /// Processes program output for at most `max_wait`; returns whether anything happened.
    pub fn poll(&mut self, max_wait: Duration) -> Result<bool, RecordError> {
        self.pump(Some(Instant::now() + max_wait))
    }

    /// Whether the program has exited and its output has ended.
    pub fn is_done(&self) -> bool {
        self.eof && self.status.is_some()
    }

    /// The current terminal size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The screen as the live engine shows it now.
    pub fn screen(&self) -> Screen {
        self.engine.screen()
    }

    /// The exit status, once the program has exited.
    pub fn status(&self) -> Option<i32> {
        self.status
    }

    /// The default timeout of waits.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Changes the default timeout of waits.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// Waits until `text` is on the screen.
    pub fn wait_text(&mut self, text: &str) -> Result<(), RecordError> {
        let t = text.to_string();
        self.wait_until(
            &format!("text \"{}\"", escape_for_terminal(text, 80)),
            None,
            move |s| s.text().contains(t.as_str()),
        )
    }

    /// Waits until `regex` matches the screen text (rows joined by newlines).
    pub fn wait_regex(&mut self, regex: &Regex) -> Result<(), RecordError> {
        let re = regex.clone();
        self.wait_until(
            &format!("regex /{}/", escape_for_terminal(regex.as_str(), 80)),
            None,
            move |s| re.is_match(&s.text()),
        )
    }

    /// Waits until `text` is no longer on the screen.
    pub fn wait_gone(&mut self, text: &str) -> Result<(), RecordError> {
        let t = text.to_string();
        self.wait_until(
            &format!("text \"{}\" to disappear", escape_for_terminal(text, 80)),
            None,
            move |s| !s.text().contains(t.as_str()),
        )
    }

    /// Waits until the cursor is at 0-based `(row, col)`.
    pub fn wait_cursor(&mut self, row: u16, col: u16) -> Result<(), RecordError> {
        self.wait_until(
            &format!("the cursor at row {row}, column {col} (0-based)"),
            None,
            move |s| s.cursor.row == row && s.cursor.col == col,
        )
    }

    /// Waits until the program has written nothing for `quiet`.
    pub fn wait_idle(&mut self, quiet: Duration) -> Result<(), RecordError> {
        let started = Instant::now();
        let deadline = started + self.timeout.max(quiet * 2);
        loop {
            let since = self.last_output.elapsed();
            if since >= quiet && !self.redactor.holding() {
                return Ok(());
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(self
                    .timeout_error(&format!("{} ms without output", quiet.as_millis()), started));
            }
            let until = (now + quiet.saturating_sub(since)).min(deadline);
            if !self.pump(Some(until))? && self.eof && self.status.is_some() {
                return Ok(());
            }
        }
    }

    /// Waits until the terminal stops echoing input (a program reading a password).
    pub fn wait_echo_off(&mut self) -> Result<(), RecordError> {
        self.wait_echo(false)
    }

    /// Waits until the terminal echoes input again.
    pub fn wait_echo_on(&mut self) -> Result<(), RecordError> {
        self.wait_echo(true)
    }

    fn wait_echo(&mut self, on: bool) -> Result<(), RecordError> {
        let started = Instant::now();
        let deadline = started + self.timeout;
        let what = if on {
            "echo to be turned on"
        } else {
            "echo to be turned off"
        };
        loop {
            if self.pty.echo_enabled() == Some(on) {
                // What the program wrote before it changed the mode (a prompt, `CSI ? 1 h`)
                // may still be on its way from the reader thread: take it in first, so the
                // next step sees the screen and key modes as the program left them.
                self.take_in_flight()?;
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(self.timeout_error(what, started));
            }
            if self.status.is_some() {
                return Err(self.exited_error(&format!("waiting for {what}")));
            }
            // The terminal mode changes without output: look again every 5 ms.
            self.pump(Some(
                (Instant::now() + Duration::from_millis(5)).min(deadline),
            ))?;
        }
    }

    /// Waits until `check(screen)` holds, re-checking whenever output has come in (once per
    /// burst: the chunks already waiting, up to 17, are taken in first).
    pub fn wait_until(
        &mut self,
        what: &str,
        timeout: Option<Duration>,
        check: impl Fn(&Screen) -> bool,
    ) -> Result<(), RecordError> {
        let started = Instant::now();
        let deadline = started + timeout.unwrap_or(self.timeout);
        loop {
            if check(&self.engine.screen()) {
                return Ok(());
            }
            if self.eof && self.status.is_some() {
                return Err(self.exited_error(&format!("waiting for {what}")));
            }
            if Instant::now() >= deadline {
                return Err(self.timeout_error(what, started));
            }
            // Take in everything that has arrived before looking at the screen again: under
            // heavy output one check per burst, not one per chunk.
            if self.pump(Some(deadline))? {
                // (At most 16 more, so a program that never pauses cannot starve the check.)
                self.pump_while(Duration::ZERO, 16, None)?;
            }
        }
    }

    /// Presses one key by name (`Enter`, `C-c`, `Up`, `a`, …; see [`super::keys`]).
    pub fn press(&mut self, key: &str) -> Result<(), RecordError> {
        let bytes = key_bytes(key, self.scanner.app_cursor()).map_err(RecordError::Setup)?;
        self.send(&bytes, &bytes)
    }

    /// Types text as if on a keyboard.
    pub fn type_text(&mut self, text: &str) -> Result<(), RecordError> {
        self.send(text, text)
    }

    /// Types a secret: the cast records a placeholder, and any echo of the value in the output
    /// is replaced by `*`s before it is written.
    pub fn type_secret(&mut self, name: &str, value: &str) -> Result<(), RecordError> {
        self.redactor.add_secret(value);
        self.send(value, &format!("<secret {name}>"))
    }

    fn send(&mut self, bytes: &str, recorded: &str) -> Result<(), RecordError> {
        self.drain()?;
        if self.status.is_some() {
            return Err(self.exited_error("sending input"));
        }
        self.pty.write(bytes.as_bytes())?;
        self.emit(EventData::Input(recorded.to_string()))
    }

    /// Marks a checkpoint: an `m` event labelled `label`.
    pub fn snapshot(&mut self, label: &str) -> Result<(), RecordError> {
        self.drain()?;
        self.flush_held()?;
        self.emit(EventData::Marker(label.to_string()))
    }

    /// Resizes the terminal: the program gets SIGWINCH, the cast an `r` event.
    pub fn resize(&mut self, size: Size) -> Result<(), RecordError> {
        self.drain()?;
        self.pty.resize(size)?;
        self.engine.resize(size);
        self.size = size;
        self.emit(EventData::Resize(size))
    }

    /// Lets time pass, recording output as it comes.
    pub fn sleep(&mut self, d: Duration) -> Result<(), RecordError> {
        let until = Instant::now() + d;
        while Instant::now() < until {
            if !self.pump(Some(until))? && self.eof && self.status.is_some() {
                break;
            }
        }
        Ok(())
    }

    /// Waits for the program to exit and returns its status.
    pub fn wait_exit(&mut self, timeout: Option<Duration>) -> Result<i32, RecordError> {
        let started = Instant::now();
        let deadline = started + timeout.unwrap_or(self.timeout);
        while self.status.is_none() {
            if Instant::now() >= deadline {
                return Err(self.timeout_error("the program to exit", started));
            }
            self.pump(Some(deadline))?;
        }
        self.settle()?;
        Ok(self.status.unwrap_or(255))
    }

    /// Ends the recording: a program still running is ended (SIGHUP, then SIGKILL), the last
    /// output and the `x` event are written, no process of the session is left.
    pub fn finish(mut self) -> Result<Finished, RecordError> {
        if self.status.is_none() {
            self.drain()?;
            self.pty.signal_all(Signal::SIGHUP);
            let deadline = Instant::now() + Duration::from_millis(500);
            while self.status.is_none() && Instant::now() < deadline {
                self.pump(Some(deadline))?;
            }
            if self.status.is_none() {
                self.pty.signal_all(Signal::SIGKILL);
                while self.status.is_none() {
                    self.pump(Some(Instant::now() + Duration::from_secs(5)))?;
                }
            }
        }
        self.settle()?;
        let status = self.status.unwrap_or(255);
        self.emit(EventData::Exit(status))?;
        let duration = self.start.elapsed().as_secs_f64();
        let writer = self.writer.take();
        let cast = match writer {
            Some(w) => match w.into_inner()? {
                Sink::Memory(v) => Some(String::from_utf8_lossy(&v).into_owned()),
                Sink::File(mut f) => {
                    f.flush()?;
                    None
                }
            },
            None => None,
        };
        Ok(Finished {
            status,
            duration,
            cast,
        })
    }

    /// After the exit: collect the remaining output, then make sure no process of the session
    /// is left (a background job keeping the terminal open is killed).
    fn settle(&mut self) -> Result<(), RecordError> {
        let deadline = Instant::now() + Duration::from_millis(200);
        while !self.eof && Instant::now() < deadline {
            self.pump(Some(deadline))?;
        }
        if !self.eof {
            self.pty.signal_all(Signal::SIGKILL);
            let deadline = Instant::now() + Duration::from_secs(2);
            while !self.eof && Instant::now() < deadline {
                self.pump(Some(deadline))?;
            }
        }
        self.pty.signal_all(Signal::SIGKILL);
        let rest = self.decoder.finish();
        self.output(&rest)?;
        self.flush_held()
    }

    /// Processes everything already received, without waiting.
    fn drain(&mut self) -> Result<(), RecordError> {
        self.pump_while(Duration::ZERO, usize::MAX, None)
    }

    /// Processes output until none arrives for 5 ms (at most 100 ms): output the program
    /// wrote before a change that comes without output (a terminal mode) is then seen — as a
    /// person would see it after a moment. (Output still in the reader thread's hands after
    /// 5 ms of quiet, on a very loaded machine, is missed: the PTY gives no way to ask.)
    fn take_in_flight(&mut self) -> Result<(), RecordError> {
        let until = Instant::now() + Duration::from_millis(100);
        self.pump_while(Duration::from_millis(5), usize::MAX, Some(until))
    }

    /// Processes PTY events for as long as each comes within `quiet` of the one before: at
    /// most `max` of them, and not past `until`.
    fn pump_while(
        &mut self,
        quiet: Duration,
        max: usize,
        until: Option<Instant>,
    ) -> Result<(), RecordError> {
        for _ in 0..max {
            let now = Instant::now();
            if until.is_some_and(|u| now >= u) {
                break;
            }
            let deadline = until.map_or(now + quiet, |u| (now + quiet).min(u));
            if !self.pump(Some(deadline))? {
                break;
            }
        }
        Ok(())
    }

    /// Waits for one PTY event until `deadline` and processes it. Returns whether one came.
    fn pump(&mut self, deadline: Option<Instant>) -> Result<bool, RecordError> {
        if self.eof && self.status.is_some() {
            return Ok(false);
        }
        let mut wait = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if self.redactor.holding() {
            wait = Some(wait.map_or(HOLD, |w| w.min(HOLD)));
        }
        match self.pty.recv(wait) {
            Ok(PtyEvent::Output(bytes)) => {
                let text = self.decoder.decode(&bytes);
                let released = self.redactor.push(&text);
                self.output(&released)?;
                Ok(true)
            }
            Ok(PtyEvent::Eof) => {
                self.eof = true;
                Ok(true)
            }
            Ok(PtyEvent::Exit(status)) => {
                self.status = Some(status);
                Ok(true)
            }
            Err(RecvTimeoutError::Timeout) => {
                if self.redactor.holding() && self.last_output.elapsed() >= HOLD {
                    self.flush_held()?;
                }
                Ok(false)
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                self.status.get_or_insert(255);
                Ok(false)
            }
        }
    }

    fn flush_held(&mut self) -> Result<(), RecordError> {
        let held = self.redactor.flush();
        self.output(&held)
    }

    /// Feeds output to the live engine, answers queries in it, and records it.
    fn output(&mut self, text: &str) -> Result<(), RecordError> {
        if text.is_empty() {
            return Ok(());
        }
        self.last_output = Instant::now();
        let queries = self.scanner.scan(text);
        let mut answers = Vec::new();
        let mut pos = 0;
        for (end, query) in queries {
            self.engine.feed(&text[pos..end]);
            pos = end;
            let cursor = self.engine.screen().cursor;
            if let Some(a) = answer(
                &query,
                &self.scanner,
                (cursor.row, cursor.col),
                &self.colors,
            ) {
                answers.push(a);
            }
        }
        self.engine.feed(&text[pos..]);
        if let Some(m) = &mut self.mirror {
            let _ = m.write_all(text.as_bytes()).and_then(|_| m.flush());
        }
        self.emit(EventData::Output(text.to_string()))?;
        for a in answers {
            if self.status.is_none() {
                let _ = self.pty.write(a.as_bytes());
            }
            self.emit(EventData::Input(a))?;
        }
        Ok(())
    }

    fn emit(&mut self, data: EventData) -> Result<(), RecordError> {
        let time = self.start.elapsed().as_secs_f64();
        if let Some(w) = &mut self.writer {
            w.write_event(&Event {
                time,
                line: 0,
                data,
            })?;
            w.flush()?;
        }
        Ok(())
    }

    fn screen_report(&self) -> String {
        let screen = self.engine.screen();
        let mut rows: Vec<String> = (0..screen.rows.len()).map(|r| screen.row_text(r)).collect();
        while rows.last().is_some_and(|r| r.is_empty()) {
            rows.pop();
        }
        let mut out = String::new();
        for (i, r) in rows.iter().enumerate() {
            out.push_str(&format!(
                "  {:>3} | {}\n",
                i + 1,
                escape_for_terminal(r, 400)
            ));
        }
        if rows.is_empty() {
            out.push_str("  (the screen is empty)\n");
        }
        out
    }

    fn timeout_error(&self, what: &str, started: Instant) -> RecordError {
        let mut hints = Vec::new();
        let screen = self.engine.screen();
        let last = (0..screen.rows.len())
            .rev()
            .map(|r| screen.row_text(r))
            .find(|t| !t.trim().is_empty())
            .unwrap_or_default();
        if looks_like_prompt(&last) {
            hints.push(format!(
                "the last line ends like a prompt: \"{}\"",
                escape_for_terminal(last.trim(), 80)
            ));
        }
        let idle = self.last_output.elapsed();
        if idle >= Duration::from_millis(500) {
            hints.push(format!("no output for {:.1}s", idle.as_secs_f64()));
        }
        if self.pty.echo_enabled() == Some(false) {
            hints.push("echo is off on the terminal (a password or key prompt)".into());
        }
        RecordError::Timeout(Box::new(TimeoutReport {
            what: what.to_string(),
            waited: started.elapsed(),
            screen: self.screen_report(),
            hints,
        }))
    }

    fn exited_error(&self, what: &str) -> RecordError {
        RecordError::Exited {
            what: what.to_string(),
            status: self.status.unwrap_or(255),
            screen: self.screen_report(),
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.pty.signal_all(Signal::SIGKILL);
        if let Some(w) = &mut self.writer {
            let _ = w.flush();
        }
        if let Some(h) = &self.home {
            let _ = std::fs::remove_dir_all(h);
        }
    }
}

/// Whether a line ends the way prompts do.
pub fn looks_like_prompt(line: &str) -> bool {
    let l = line.trim_end();
    let endings = [
        "[y/N]", "[Y/n]", "[y/n]", "(y/n)", "(yes/no)", "[yes/no]", "?", ":", "(END)", "--More--",
        ">", "$", "#", "%", "]",
    ];
    endings.iter().any(|e| l.ends_with(e)) || l.to_lowercase().contains("password")
}

/// A new private HOME for the program: a random name in the temporary folder, created with
/// mode 0700 by this call (an existing path is never reused: another user could have put a
/// `.bashrc` there), so nobody else can read or plant files in it.
fn fresh_home() -> Result<PathBuf, RecordError> {
    use std::os::unix::fs::DirBuilderExt;
    let base = std::env::temp_dir();
    let mut last = None;
    for _ in 0..16 {
        let dir = base.join(format!("tuicast-home-{}", random_name()?));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => {
                return Err(RecordError::Setup(format!(
                    "cannot create a private HOME in {}: {e}",
                    base.display()
                )))
            }
        }
    }
    Err(RecordError::Setup(format!(
        "cannot create a private HOME in {}: {}",
        base.display(),
        last.map(|e| e.to_string()).unwrap_or_default()
    )))
}

/// 16 random hex digits from the system's random source.
fn random_name() -> Result<String, RecordError> {
    use std::io::Read;
    let mut bytes = [0u8; 8];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| RecordError::Setup(format!("cannot read /dev/urandom: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// argv as one line a shell would read back the same way.
fn shell_words(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
            {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
