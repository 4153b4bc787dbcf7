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

pub use super::diagnosis::{looks_like_prompt, TimeoutDiagnosis};
pub use super::error::RecordError;
use super::home::{fresh_home, sweep_stale};
use super::interrupt;
use super::pty::{Pty, PtyEvent};
use super::query::{wire_bytes, AnswerColors, Reply, Responder};
use super::redact::Redactor;
use super::scenario::Settle;
pub use super::settle::{CheckpointTiming, SettledBy, UnsettledDiagnosis, CONFIRM};
use super::settle::{Quiescence, ScreenWatch};
use super::utf8::Utf8Decoder;
use crate::cast::{CastWriter, Event, EventData, Header, Term};
use crate::inspect::Anchor;
use crate::term::{Engine, EngineOptions, NativeEngine, Screen, Size};

/// How to start a recording.
#[derive(Debug, Clone)]
#[non_exhaustive]
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
    /// When [`Session::snapshot`] marks a checkpoint: `auto` (the program seen waiting,
    /// else the quiet rule) or `quiet` (the screen unchanged for the period), with the
    /// period (see [`DEFAULT_SETTLE`](crate::record::DEFAULT_SETTLE); zero marks at once). Written to the cast's header
    /// (`"tuicast": {"settle": "auto:50ms"}`).
    pub settle: Settle,
    /// Options of the live engine (DECCOLM, …): those the cast is replayed with.
    pub engine: EngineOptions,
    /// Cells whose changes do not keep a checkpoint or an idle wait from settling (the
    /// cast's `[check] mask`: a clock, a spinner, a random chart), hidden before comparing.
    pub masks: Vec<Anchor>,
    /// Named regions (the cast's `[regions]` and `tuicast.toml`'s) that messages may name:
    /// a screen that never settled suggests masking one that holds the changing cells.
    pub regions: Vec<(String, Anchor)>,
    /// Waits on the screen fail early, with the message of their timeout, once the program
    /// is seen waiting for input (as `auto` settling sees it) and its screen has not changed
    /// for this long (`fail_fast =` in a scenario; `None`: they wait for their timeout).
    pub fail_fast: Option<Duration>,
    /// The program's file mode creation mask (`None`: this process's, or the one
    /// [`super::pty::set_program_umask`] set): the session daemon gives each program the
    /// umask of the client that started it, never its own 077.
    pub umask: Option<u32>,
    /// The most bytes the cast may hold (`None`: no limit): past it the recording fails with
    /// [`RecordError::CastTooLarge`], the program's output read no further.
    pub max_cast: Option<u64>,
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
            settle: Settle::DEFAULT,
            engine: EngineOptions::default(),
            masks: Vec::new(),
            regions: Vec::new(),
            fail_fast: None,
            umask: None,
            max_cast: None,
        }
    }
}

/// The clean, deterministic environment every recorded program starts from:
/// `TERM=xterm-256color`, `COLORTERM=truecolor`, `LANG=C.UTF-8`, `TZ=UTC`, a standard `PATH`,
/// `SHELL=/bin/bash`
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
        // What the engine draws: 24-bit colour (Textual, rich and others otherwise fall back
        // to 256 colours, and screenshots no longer look like the program).
        ("COLORTERM", "truecolor"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// When the program is a bare name that the session's `PATH` does not hold: what to do, for
/// the clean base `PATH` has none of the user's own folders (a project's `node_modules/.bin`,
/// `~/.cargo/bin`, a virtualenv that is not activated).
pub(super) fn not_on_path(command: &[String], env: &BTreeMap<String, String>) -> Option<String> {
    let program = command.first().filter(|p| !p.contains('/'))?;
    let path = env.get("PATH").map_or("", String::as_str);
    let found = path
        .split(':')
        .any(|dir| !dir.is_empty() && Path::new(dir).join(program).is_file());
    (!found).then(|| {
        format!(
            " ({} is not in the recording's PATH {}: a program of your own PATH needs \
             `inherit_env = [\"PATH\"]` or `env = {{ PATH = \"...\" }}` in the scenario, or a \
             path: `command = [\"./node_modules/.bin/{}\"]`)",
            crate::escape::escape_for_terminal(program, 60),
            crate::escape::escape_for_terminal(path, 300),
            crate::escape::escape_for_terminal(program, 60)
        )
    })
}

/// tuicast's own fields of the cast header: `"tuicast": {"settle": "auto:50ms"}`, the rule
/// the checkpoints were marked by.
fn tuicast_header(settle: Settle) -> serde_json::Map<String, serde_json::Value> {
    let mut own = serde_json::Map::new();
    own.insert("settle".into(), settle.to_string().into());
    let mut extra = serde_json::Map::new();
    extra.insert("tuicast".into(), own.into());
    extra
}

/// `text` with every match of `patterns` replaced by as many `*` (the header's command and
/// title).
fn redact_header(patterns: &[Regex], text: &str) -> String {
    let mut r = super::redact::Redactor::new(patterns.to_vec());
    let mut out = r.push(text);
    out.push_str(&r.flush());
    out
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
#[non_exhaustive]
pub struct Finished {
    /// Exit status of the program (128+signal when a signal ended it).
    pub status: i32,
    /// Seconds from start to end.
    pub duration: f64,
    /// The cast text, for sessions recorded in memory.
    pub cast: Option<String>,
    /// The signal tuicast sent to end a program that was still running at the end (SIGHUP,
    /// or SIGKILL when it outlived SIGHUP by 500 ms); `None` when it exited by itself.
    pub ended_by: Option<Signal>,
}

/// A program being recorded. See the module docs.
pub struct Session {
    pub(super) pty: Pty,
    pub(super) engine: NativeEngine,
    writer: Option<CastWriter<Sink>>,
    pub(super) start: Instant,
    decoder: Utf8Decoder,
    pub(super) redactor: Redactor,
    /// Answers the program's queries (and keeps what they are answered from).
    pub(super) responder: Responder,
    pub(super) timeout: Duration,
    pub(super) last_output: Instant,
    /// Bytes of output taken in so far (after redaction), for silent waits' reports.
    pub(super) output_bytes: u64,
    pub(super) status: Option<i32>,
    pub(super) eof: bool,
    home: Option<PathBuf>,
    pub(super) size: Size,
    mirror: Option<Box<dyn Write + Send>>,
    /// Screen changes and inputs, for settling and idle waits.
    pub(super) watch: ScreenWatch,
    pub(super) settle_rule: Settle,
    /// The looks at the program's process tree of `auto` settling.
    pub(super) quiescence: Quiescence,
    /// Where the last input step left the program (`pace.rs`).
    pub(super) pace: super::pace::Pace,
    /// When each checkpoint so far fired, with the input and output before it.
    pub(super) timings: Vec<CheckpointTiming>,
    /// Named regions messages may suggest as masks (`SessionOptions::regions`).
    pub(super) regions: Vec<(String, Anchor)>,
    /// The program's file name (`vim`): adapters it names are on for ref waits.
    pub(super) program: Option<String>,
    /// `SessionOptions::fail_fast`.
    pub(super) fail_fast: Option<Duration>,
    /// The secrets typed so far, by name, each with the forms of its value the redactor
    /// scrubs (the value first): looked for on the screen after every output.
    pub(super) secrets: Vec<(String, Vec<String>)>,
    /// The cast file, removed when a secret reaches the screen.
    cast_path: Option<PathBuf>,
    /// `SessionOptions::max_cast`.
    max_cast: Option<u64>,
    /// Bells since the last checkpoint that a `bell` wait has taken.
    pub(super) bells_taken: u32,
    /// Commands the shell said ended ([`TermState::commands_ended`]) that a `command_done`
    /// wait has taken.
    ///
    /// [`TermState::commands_ended`]: crate::term::TermState::commands_ended
    pub(super) commands_taken: u32,
    /// Told of every change of the screen (`Session::set_observer`).
    observer: Option<Box<dyn Observer>>,
    /// When the observer was last told while it had no watcher, and whether the screen has
    /// changed since (told when the output pauses).
    observer_told: Option<Instant>,
    observer_pending: bool,
    /// Counts this session as alive for signal handling.
    _active: super::interrupt::Active,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("pty", &self.pty)
            .finish_non_exhaustive()
    }
}

/// What is told of every change of a session's screen ([`Session::set_observer`]).
pub(crate) trait Observer: Send {
    /// Whether anyone watches now: if not, the screen is told at most once every
    /// [`UNWATCHED_EVERY`] (enough for a watcher that comes to start from it).
    fn watched(&self) -> bool;
    /// The screen after a change (secrets starred), and the terminal's modes.
    fn screen(&mut self, screen: Screen, modes: crate::inspect::TtyModes);
    /// The program's output has paused (no output for a moment while the session waits).
    fn idle(&mut self);
}

/// How often an [`Observer`] nobody watches is told of the screen, at most.
const UNWATCHED_EVERY: Duration = Duration::from_millis(50);

/// How long output may be held back waiting to see whether a secret follows.
const HOLD: Duration = Duration::from_millis(50);

/// A program whose every wait ends by itself within this is not waiting for input
/// ([`Session::reading`]): a loop that prints a line every few hundred milliseconds is busy.
pub(crate) const READING_SOON: Duration = Duration::from_secs(1);

/// How many looks at `/proc` [`Session::reading`] takes before it calls a process tree that
/// changes under every look working.
const READING_LOOKS: usize = 3;

/// Refuses `path` as a cast's place when something there is not a regular file: a cast is
/// renamed into place, and a device, FIFO or link there must not become a file (as root,
/// `-o /dev/null` would make the machine's `/dev/null` one).
pub(crate) fn refuse_unreplaceable(path: &Path) -> Result<(), RecordError> {
    let create = |source| RecordError::CreateCast {
        path: path.to_path_buf(),
        source,
    };
    match crate::util::output_target(path) {
        Ok(crate::util::OutputTarget::Replace) => Ok(()),
        Ok(_) => Err(create(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "is a device or a FIFO; a recording is written to a regular file",
        ))),
        Err(e) => Err(create(e)),
    }
}

impl Session {
    /// Starts recording into the cast file `path` (written as it goes, flushed after every
    /// event, so an interrupted recording still leaves a valid cast). `path` appears with
    /// its header already written: the header goes to a hidden file beside it first, renamed
    /// to `path` before the program starts, so even a SIGKILL never leaves an empty cast.
    pub fn spawn(opts: SessionOptions, path: &Path) -> Result<Session, RecordError> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
        remove_stale_headers(path, &name);
        let create = |source| RecordError::CreateCast {
            path: path.to_path_buf(),
            source,
        };
        refuse_unreplaceable(path)?;
        let file = File::create(&tmp).map_err(create)?;
        let committed = std::cell::Cell::new(false);
        let commit = || {
            std::fs::rename(&tmp, path).map_err(create)?;
            committed.set(true);
            Ok(())
        };
        let started = Self::start(opts, Sink::File(BufWriter::new(file)), &commit);
        match started {
            Ok(mut s) => {
                s.cast_path = Some(path.to_path_buf());
                Ok(s)
            }
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                // The program never started: the cast holds only its header, no recording.
                if committed.get() {
                    let _ = std::fs::remove_file(path);
                }
                Err(e)
            }
        }
    }

    /// Starts recording into memory; [`Session::finish`] returns the cast text.
    pub fn spawn_in_memory(opts: SessionOptions) -> Result<Session, RecordError> {
        Self::start(opts, Sink::Memory(Vec::new()), &|| Ok(()))
    }

    /// Writes the header, calls `commit` (the cast file gets its name), starts the program.
    fn start(
        mut opts: SessionOptions,
        sink: Sink,
        commit: &dyn Fn() -> Result<(), RecordError>,
    ) -> Result<Session, RecordError> {
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
            // `redact` patterns apply to the header too: a token in the command line is
            // no more welcome in the cast than in the output.
            command: Some(redact_header(
                &opts.redact,
                &crate::escape::shell_words(&opts.command),
            )),
            title: opts
                .title
                .as_deref()
                .map(|t| redact_header(&opts.redact, t)),
            env: opts
                .env
                .iter()
                .filter(|(k, _)| k.as_str() == "TERM" || k.as_str() == "SHELL")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            extra: tuicast_header(opts.settle),
            ..Header::default()
        };
        // The header first, and the cast under its name, so that a SIGKILL from here on
        // leaves a valid cast.
        let writer = CastWriter::new(sink, &header)
            .and_then(|mut w| w.flush().map(|()| w))
            .map_err(RecordError::from)
            .and_then(|w| commit().map(|()| w))?;
        // A live session from here on: a signal that comes while the program starts is handed
        // to the session (which ends the program's whole session at its first look), not taken
        // as one with nothing to end (which exited at once and left the program running).
        let active = super::interrupt::Active::new();
        // What recordings killed by SIGKILL left, swept before this one makes its HOME.
        let home = if opts.fresh_home && !opts.env.contains_key("HOME") {
            sweep_stale();
            let dir = fresh_home()?;
            opts.env.insert("HOME".into(), dir.display().to_string());
            Some(dir)
        } else {
            None
        };
        let pty =
            match Pty::spawn_with_umask(&opts.command, &opts.cwd, &opts.env, opts.size, opts.umask)
            {
                Ok(mut p) => {
                    // The private HOME is the session's marker: a daemon that left the session
                    // and lost its parent still has it in its environment.
                    if let Some(h) = &home {
                        p.set_marker(&format!("HOME={}", h.display()));
                    }
                    p
                }
                Err(e) => {
                    if let Some(h) = &home {
                        let _ = std::fs::remove_dir_all(h);
                    }
                    return Err(RecordError::Spawn {
                        program: opts.command.first().cloned().unwrap_or_default(),
                        source: e,
                        hint: not_on_path(&opts.command, &opts.env).unwrap_or_default(),
                    });
                }
            };
        let now = Instant::now();
        // No scrollback: nothing in a recording reads it, and making its text for every look
        // at the screen under heavy output would cost the recorder (replay has it).
        let program = opts
            .command
            .first()
            .map(|p| p.rsplit('/').next().unwrap_or(p).to_string());
        let engine = NativeEngine::with_options_and_scrollback(opts.size, opts.engine, 0);
        let watch = ScreenWatch::new(engine.screen(), now, opts.masks);
        Ok(Session {
            _active: active,
            pty,
            engine,
            writer: Some(writer),
            start: now,
            decoder: Utf8Decoder::new(),
            redactor: Redactor::new(opts.redact),
            responder: Responder::new(opts.colors, opts.env.get("TERM").map_or("", String::as_str)),
            timeout: opts.timeout,
            last_output: now,
            output_bytes: 0,
            status: None,
            eof: false,
            home,
            size: opts.size,
            mirror: None,
            watch,
            settle_rule: opts.settle,
            quiescence: Quiescence::default(),
            pace: super::pace::Pace::default(),
            timings: Vec::new(),
            regions: opts.regions,
            program,
            fail_fast: opts.fail_fast,
            max_cast: opts.max_cast,
            secrets: Vec::new(),
            cast_path: None,
            bells_taken: 0,
            commands_taken: 0,
            observer: None,
            observer_told: None,
            observer_pending: false,
        })
    }

    /// Has `observer` told of the screen (secrets starred, as
    /// [`Session::screen_without_secrets`] gives it, the title scrubbed) after every output
    /// the live engine takes and every resize: the session daemon's event stream (`tuicast
    /// session events`).
    #[cfg(feature = "cli")]
    pub(crate) fn set_observer(&mut self, observer: Box<dyn Observer>) {
        self.observer = Some(observer);
        // The screen as it is: a program that has written nothing yet has one too.
        self.tell_observer();
    }

    /// Tells the observer, when there is one, of the screen now: each time while someone
    /// watches, else at most once every [`UNWATCHED_EVERY`] (the rest when the output pauses:
    /// [`Session::observer_idle`]), so that a session nobody watches copies few screens.
    pub(super) fn tell_observer(&mut self) {
        let Some(o) = &self.observer else {
            return;
        };
        if !o.watched() {
            if self
                .observer_told
                .is_some_and(|t| t.elapsed() < UNWATCHED_EVERY)
            {
                self.observer_pending = true;
                return;
            }
            self.observer_told = Some(Instant::now());
        }
        self.observer_pending = false;
        let mut screen = self.screen_without_secrets();
        if let Some(t) = &screen.title {
            screen.title = Some(self.redactor.scrub(t));
        }
        let modes = self.modes();
        if let Some(o) = &mut self.observer {
            o.screen(screen, modes);
        }
    }

    /// The output has paused (or ended): the observer is told of a screen it was not yet.
    fn observer_idle(&mut self) {
        if self.observer_pending {
            self.observer_told = None;
            self.tell_observer();
        }
        if let Some(o) = &mut self.observer {
            o.idle();
        }
    }

    /// Writes `text` to the program at once, as a person typed it (no pacing: the person
    /// saw the program), recorded as one `i` event: the input of a person holding a
    /// session (`tuicast session attach --take`).
    #[cfg(feature = "cli")]
    pub(crate) fn send_typed(&mut self, text: &str) -> Result<(), RecordError> {
        self.send_now(&[text], text)
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

    /// The screen as the live engine shows it now (with the bells and clipboard writes since
    /// the last checkpoint; without the scrollback, which only replay keeps).
    pub fn screen(&self) -> Screen {
        self.engine.screen()
    }

    /// The exit status, once the program has exited.
    pub fn status(&self) -> Option<i32> {
        self.status
    }

    /// The program's process id.
    pub fn pid(&self) -> u32 {
        self.pty.pid()
    }

    /// The terminal's echo flag as the program left it (`None`: unknown).
    pub fn echo(&self) -> Option<bool> {
        self.pty.echo_enabled()
    }

    /// Whether the terminal reads whole lines (`ICANON`) as the program left it: off while
    /// a line editor (readline, a REPL) or a full-screen program reads keys itself
    /// (`None`: unknown).
    pub fn canonical(&self) -> Option<bool> {
        self.pty.canonical()
    }

    /// The terminal's echo and line modes as the program left them, as
    /// [`inspect::classify`](crate::inspect::classify) reads them.
    pub fn modes(&self) -> crate::inspect::TtyModes {
        crate::inspect::TtyModes {
            echo: self.pty.echo_enabled(),
            canonical: self.pty.canonical(),
            reading: self.reading(),
        }
    }

    /// Whether the program is blocked reading its terminal: a process of its tree in a read
    /// (or a poll) of the terminal, every thread of the tree asleep until an event and none
    /// about to wake by itself within a second, and none of its output still on its way (a
    /// look at `/proc`, as `quiet.rs` reads it). `Some(false)` while it runs, prints, pauses
    /// in a short sleep, starts processes, waits for something else than its terminal (the
    /// network, a pipe, a file lock: `still waiting for server?` is no question to answer),
    /// or once it has exited; `None` where `/proc` does not tell.
    pub fn reading(&self) -> Option<bool> {
        if self.status.is_some() {
            return Some(false);
        }
        let pid = self.pty.pid();
        // A look fails when a process of the tree starts or ends meanwhile (a shell loop
        // running `sleep`): look again, and a tree that keeps changing is working.
        let mut look = None;
        for _ in 0..READING_LOOKS {
            look = super::quiet::TreeLook::take(pid, READING_SOON);
            if look.is_some() {
                break;
            }
        }
        let Some(look) = look else {
            let proc_tells = pid != 0
                && cfg!(target_os = "linux")
                && std::fs::read_to_string(format!("/proc/{pid}/schedstat")).is_ok();
            return proc_tells.then_some(false);
        };
        if !look.waiting() || self.pty.output_pending() == Some(true) {
            return Some(false);
        }
        Some(super::quiet::reads_terminal(pid, self.pty.tty_path()).is_some())
    }

    /// How long ago the program last wrote output (or the session started).
    pub fn since_output(&self) -> Duration {
        self.last_output.elapsed()
    }

    /// The default timeout of waits.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Changes the default timeout of waits.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// How long the screen must stay unchanged before [`Session::snapshot`] marks a
    /// checkpoint (in `auto` mode, when the program is not seen waiting).
    pub fn settle(&self) -> Duration {
        self.settle_rule.period()
    }

    /// Changes the settle period of [`Session::snapshot`] (zero: mark at once), keeping the
    /// mode.
    pub fn set_settle(&mut self, settle: Duration) {
        self.settle_rule = match self.settle_rule {
            Settle::Auto(_) => Settle::Auto(settle),
            Settle::Quiet(_) => Settle::Quiet(settle),
        };
    }

    /// When [`Session::snapshot`] marks a checkpoint: the mode and the period.
    pub fn settle_rule(&self) -> Settle {
        self.settle_rule
    }

    /// `text` with every secret typed so far (and the forms of it the session looks for:
    /// reversed, encoded, a long prefix) replaced by `*`: for text taken from the live screen
    /// to be shown elsewhere (a session's replies), since a program may have drawn a secret in
    /// pieces that no scrubbing of its output could replace.
    pub fn scrub_secrets(&self, text: &str) -> String {
        self.redactor.scrub(text)
    }

    /// [`Session::screen`] with every cell of a secret on it (as [`Session::scrub_secrets`]
    /// finds them, row by row) drawn as `*`: the screen to show elsewhere.
    pub fn screen_without_secrets(&self) -> Screen {
        let mut screen = self.engine.screen();
        if self.secrets.is_empty() {
            return screen;
        }
        for row in &mut screen.rows {
            // The row's text, and the cell each of its characters came from.
            let mut text = String::new();
            let mut cell_of = Vec::new();
            for (c, cell) in row.iter().enumerate() {
                if cell.width == 0 {
                    continue;
                }
                let shown = if cell.text.is_empty() {
                    " "
                } else {
                    cell.text.as_str()
                };
                text.push_str(shown);
                cell_of.extend(std::iter::repeat_n(c, shown.chars().count()));
            }
            let scrubbed = self.redactor.scrub(&text);
            if scrubbed == text {
                continue;
            }
            for ((a, b), &c) in text.chars().zip(scrubbed.chars()).zip(&cell_of) {
                if a != b {
                    row[c].text = crate::term::CellText::new("*");
                }
            }
        }
        screen
    }

    /// Changes the settle rule of [`Session::snapshot`] and [`Session::wait_settled`].
    pub fn set_settle_rule(&mut self, rule: Settle) {
        self.settle_rule = rule;
    }

    /// How long an unchanged screen of a program waiting for input makes a screen wait fail
    /// early ([`SessionOptions::fail_fast`]).
    pub fn fail_fast(&self) -> Option<Duration> {
        self.fail_fast
    }

    /// The checkpoints marked so far on a settled screen, with when the input and output
    /// before each came and when it fired.
    pub fn timings(&self) -> &[CheckpointTiming] {
        &self.timings
    }

    /// Ends the recording: a program still running is ended (SIGHUP, then SIGKILL), the last
    /// output and the `x` event are written, no process of the session is left.
    pub fn finish(mut self) -> Result<Finished, RecordError> {
        let mut ended_by = None;
        if self.status.is_none() {
            self.drain()?;
            ended_by = Some(Signal::SIGHUP);
            self.pty.signal_all(Signal::SIGHUP);
            let deadline = Instant::now() + Duration::from_millis(500);
            while self.status.is_none() && Instant::now() < deadline {
                self.pump(Some(deadline))?;
            }
            if self.status.is_none() {
                ended_by = Some(Signal::SIGKILL);
                self.pty.kill_all();
                while self.status.is_none() {
                    self.pump(Some(Instant::now() + Duration::from_secs(5)))?;
                }
            }
        }
        self.reap_after_exit()?;
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
            ended_by,
        })
    }

    /// After the exit: collect the remaining output, then make sure no process of the session
    /// is left (a background job keeping the terminal open is killed).
    pub(super) fn reap_after_exit(&mut self) -> Result<(), RecordError> {
        let deadline = Instant::now() + Duration::from_millis(200);
        while !self.eof && Instant::now() < deadline {
            self.pump(Some(deadline))?;
        }
        if !self.eof {
            self.pty.kill_all();
            let deadline = Instant::now() + Duration::from_secs(2);
            while !self.eof && Instant::now() < deadline {
                self.pump(Some(deadline))?;
            }
        }
        // Daemons that closed the terminal (so EOF came) are ended too.
        self.pty.kill_all();
        let rest = self.decoder.finish();
        self.output(&rest)?;
        self.flush_held()
    }

    /// Processes everything already received, without waiting.
    pub(super) fn drain(&mut self) -> Result<(), RecordError> {
        self.pump_while(Duration::ZERO, usize::MAX, None)
    }

    /// Processes output until none arrives for 5 ms (at most 100 ms): output the program
    /// wrote before a change that comes without output (a terminal mode) is then seen — as a
    /// person would see it after a moment. (Output still in the reader thread's hands after
    /// 5 ms of quiet, on a very loaded machine, is missed: the PTY gives no way to ask.)
    pub(super) fn take_in_flight(&mut self) -> Result<(), RecordError> {
        let until = Instant::now() + Duration::from_millis(100);
        self.pump_while(Duration::from_millis(5), usize::MAX, Some(until))
    }

    /// Processes PTY events for as long as each comes within `quiet` of the one before: at
    /// most `max` of them, and not past `until`.
    pub(super) fn pump_while(
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
    pub(super) fn pump(&mut self, deadline: Option<Instant>) -> Result<bool, RecordError> {
        if self.eof && self.status.is_some() {
            return Ok(false);
        }
        let mut wait = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if self.redactor.holding() {
            wait = Some(wait.map_or(HOLD, |w| w.min(HOLD)));
        }
        let until = wait.map(|w| Instant::now() + w);
        // Waits in slices, looking for an interruption (SIGINT, ...) between them.
        let received = loop {
            if let Some(signal) = interrupt::requested() {
                return Err(RecordError::Interrupted(signal));
            }
            let left = until.map(|u| u.saturating_duration_since(Instant::now()));
            let slice = left.map_or(interrupt::SLICE, |l| l.min(interrupt::SLICE));
            match self.pty.recv(Some(slice)) {
                Err(RecvTimeoutError::Timeout) if left.is_none_or(|l| l > slice) => continue,
                other => break other,
            }
        };
        match received {
            Ok(PtyEvent::Output(bytes)) => {
                // A program that resized its own terminal did it before what it writes next.
                self.follow_pty_size()?;
                let text = self.decoder.decode(&bytes);
                let released = self.redactor.push(&text);
                if let Some(pattern) = self.redactor.split_match() {
                    // The token's first part is in the cast already: keep no part of it.
                    self.writer = None;
                    if let Some(p) = &self.cast_path {
                        let _ = std::fs::remove_file(p);
                    }
                    return Err(RecordError::SplitPattern(pattern));
                }
                self.output(&released)?;
                Ok(true)
            }
            Ok(PtyEvent::Eof) => {
                self.eof = true;
                self.observer_idle();
                Ok(true)
            }
            Ok(PtyEvent::Exit(status)) => {
                self.status = Some(status);
                self.observer_idle();
                Ok(true)
            }
            Err(RecvTimeoutError::Timeout) => {
                if self.redactor.holding() && self.last_output.elapsed() >= HOLD {
                    self.flush_held()?;
                }
                self.observer_idle();
                Ok(false)
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                self.status.get_or_insert(255);
                Ok(false)
            }
        }
    }

    /// Follows a size the program gave its terminal itself (`stty cols 100`): the live
    /// engine takes it and the cast gets its `r` event, as for a `resize` step. A size past
    /// the limits of a screen is left alone (the replay keeps the last size it can hold).
    fn follow_pty_size(&mut self) -> Result<(), RecordError> {
        let Some(now) = self.pty.size() else {
            return Ok(());
        };
        if now == self.size
            || Size::within_limits(u64::from(now.cols), u64::from(now.rows)).is_err()
            || now.for_terminal().is_err()
        {
            return Ok(());
        }
        self.engine.resize(now);
        self.size = now;
        self.note_resize();
        self.tell_observer();
        self.emit(EventData::Resize(now))
    }

    pub(super) fn flush_held(&mut self) -> Result<(), RecordError> {
        let held = self.redactor.flush();
        self.output(&held)
    }

    /// Feeds output to the live engine, answers queries in it, and records it.
    fn output(&mut self, text: &str) -> Result<(), RecordError> {
        if text.is_empty() {
            return Ok(());
        }
        self.last_output = Instant::now();
        self.output_bytes += text.len() as u64;
        self.watch.output_came();
        let mut answers = Vec::new();
        let mut resizes = Vec::new();
        // The queries tuicast answers (and the resizes it makes): the person's terminal a
        // recording by hand mirrors to must not see them, or it answers too and its answers
        // reach the program (and the scenario) as typed text.
        let mut answered = Vec::new();
        for (start, end, reply) in self.responder.respond_spans(text, &mut self.engine) {
            answered.extend(start.map(|s| s..end));
            match reply {
                Reply::Answer(a) => answers.push(a),
                Reply::Resize(size) => resizes.push((end, size)),
            }
        }
        if let Some(name) = self.secret_on_screen() {
            // Drawn in pieces the redactor could not see whole (separate writes): this
            // output never reaches the cast, and what the cast holds of the secret already
            // (its first pieces) is deleted with it.
            self.writer = None;
            if let Some(p) = &self.cast_path {
                let _ = std::fs::remove_file(p);
            }
            return Err(RecordError::SecretOnScreen(name));
        }
        if let Some(m) = &mut self.mirror {
            let mut shown = String::with_capacity(text.len());
            let mut pos = 0;
            for r in &answered {
                shown.push_str(&text[pos..r.start]);
                pos = r.end;
            }
            shown.push_str(&text[pos..]);
            let _ = m.write_all(shown.as_bytes()).and_then(|_| m.flush());
        }
        // A window operation resized the terminal (the engine has the new size): the output
        // before it was drawn at the old size, so its `r` event comes between the two parts.
        let mut pos = 0;
        for (end, size) in resizes {
            if end > pos {
                self.emit(EventData::Output(text[pos..end].to_string()))?;
            }
            pos = end;
            self.size = size;
            self.pty.resize(size)?;
            self.note_resize();
            self.emit(EventData::Resize(size))?;
        }
        if pos < text.len() {
            self.emit(EventData::Output(text[pos..].to_string()))?;
        }
        self.tell_observer();
        for a in answers {
            if self.status.is_none() {
                let _ = self.pty.write(&wire_bytes(&a));
            }
            self.emit(EventData::Input(a))?;
        }
        Ok(())
    }

    /// The name of a secret whose value, or a form of it the redactor knows (reversed,
    /// encoded, a long prefix), the live screen shows: on one row, or running from the end of
    /// a row into the next (wrapped).
    fn secret_on_screen(&self) -> Option<String> {
        if self.secrets.is_empty() {
            return None;
        }
        let screen = self.engine.screen();
        // The rows joined: a value on one row is in it, and so is one that wraps.
        let joined: String = (0..screen.rows.len()).map(|r| screen.row_text(r)).collect();
        self.secrets
            .iter()
            .find(|(_, forms)| forms.iter().any(|f| joined.contains(f.as_str())))
            .map(|(name, _)| name.clone())
    }

    pub(super) fn emit(&mut self, data: EventData) -> Result<(), RecordError> {
        let time = self.start.elapsed().as_secs_f64();
        if let Some(w) = &mut self.writer {
            w.write_event(&Event {
                time,
                line: 0,
                data,
            })?;
            w.flush()?;
            if let Some(max) = self.max_cast.filter(|&m| w.bytes_written() > m) {
                // Nothing more is written: the cast ends with the event that passed the limit
                // (at most one read of output past it), and the caller reads no further.
                self.writer = None;
                return Err(RecordError::CastTooLarge(max));
            }
        }
        Ok(())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.pty.kill_all();
        if let Some(w) = &mut self.writer {
            let _ = w.flush();
        }
        if let Some(h) = &self.home {
            let _ = std::fs::remove_dir_all(h);
        }
    }
}

/// Ends what recordings killed by SIGKILL left: every process still running with the
/// private HOME of a recording process that is gone, and that HOME (see `home.rs`). Returns
/// how many HOMEs were swept. A session daemon's client calls it when it finds the daemon gone.
pub fn sweep_orphans() -> usize {
    sweep_stale()
}

/// Removes the hidden header files `.NAME.tmpPID` beside `path` that recordings of this cast
/// killed by SIGKILL (in the moment between creating and renaming them) left: those whose
/// process `PID` is gone.
fn remove_stale_headers(path: &Path, name: &str) {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let prefix = format!(".{name}.tmp");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if !crate::util::process_alive(pid) && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
