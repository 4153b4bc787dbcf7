//! A non-interactive command run with pipes: `tuicast run`, the data path for a command that
//! just returns data. Its standard output and error are read whole (up to a limit each), its
//! exit status and duration kept, and all of it returned as one typed value, [`RunJson`], the
//! JSON `tuicast run` prints (`tuicast schema run`).
//!
//! A read-only layer over the streams: they are merged as they come, with what the command
//! wrote to its terminal, and fed to the native engine at a size that fits them (as wide as
//! the longest line up to [`MAX_TEXT_COLS`], as tall as the output up to `MAX_ROWS`, with the
//! scrollback above), which gives [`RunJson::text`] and the tables `inspect` finds in it.
//!
//! The command leads a session of its own (never the caller's controlling terminal) whose
//! controlling terminal is a PTY of the run's, by default also its standard input, where
//! nothing is typed. A command that asks something blocks reading it: every 25 ms
//! the run looks in `/proc` (`quiet.rs`: a process of the tree in a read of the terminal, or
//! a poll while it holds it; every thread waiting at two looks 3 ms apart), and after
//! [`INPUT_SETTLE`] with nothing written it ends the command as
//! [`EndedBy::WaitingForInput`], with the prompt finder's answer and the evidence
//! ([`RunPrompt`]). Pagers are off by default (`PAGER=cat`, `GIT_PAGER=cat`).
//!
//! It shares the rules of recordings and sessions: the program starts from the clean
//! [`base_env`](super::base_env) (plus what [`PipedOptions::env`] adds) with a fresh, empty
//! HOME removed after; a secret ([`PipedOptions::secrets`]) is put in its environment and
//! every form of its value the redactor knows (the value, reversed, base64, hex, a long
//! prefix) is starred in the output, so no value reaches the JSON.
//!
//! Limits: [`PipedOptions::timeout`] and [`PipedOptions::max_output`] (each stream). Past
//! either, the command's process group is killed (SIGKILL) and [`RunJson::ended_by`] says
//! why; what it wrote up to the limit is kept. When the command exits, what it started and
//! left in its process group is killed too (as a session ends what its program started), so a
//! background child holding the pipes cannot make the run hang.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::fd::AsRawFd;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::error::RecordError;
use super::redact::{base64_standard, forms, Redactor};

/// How to run a command with pipes.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PipedOptions {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Its working folder.
    pub cwd: PathBuf,
    /// Its whole environment (see [`base_env`](super::base_env)); a `HOME` here is kept,
    /// else a fresh, empty one is made and removed after.
    pub env: BTreeMap<String, String>,
    /// Secrets, by variable name with their values: put in the environment, starred in the
    /// output.
    pub secrets: Vec<(String, String)>,
    /// What its standard input reads.
    pub stdin: PipedInput,
    /// How long it may run.
    pub timeout: Duration,
    /// The most bytes kept of each of standard output and standard error.
    pub max_output: u64,
}

/// What a piped command's standard input reads.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PipedInput {
    /// Nothing (`/dev/null`): a command that reads input sees its end at once.
    Null,
    /// The run's own terminal, where nothing is typed (`tuicast run`'s default): a command
    /// that reads it waits, and the run ends as [`EndedBy::WaitingForInput`] with its prompt.
    Terminal,
    /// This file.
    File(PathBuf),
    /// This process's standard input, handed to the command as it is.
    Inherit,
    /// These bytes, then the end of input (`tuicast ask`'s question).
    Bytes(Vec<u8>),
}

impl PipedOptions {
    /// Options for `command` in the current folder with the base environment, no input, a
    /// [`DEFAULT_TIMEOUT`] and [`DEFAULT_MAX_OUTPUT`].
    pub fn new<I, S>(command: I) -> PipedOptions
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        PipedOptions {
            command: command.into_iter().map(Into::into).collect(),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            env: run_env(),
            secrets: Vec::new(),
            stdin: PipedInput::Null,
            timeout: DEFAULT_TIMEOUT,
            max_output: DEFAULT_MAX_OUTPUT,
        }
    }
}

/// The environment of a piped command when not told: the [`base_env`](super::base_env) of
/// recordings with pagers off (`PAGER=cat`, `GIT_PAGER=cat`), which [`PipedOptions::env`]
/// may change.
fn run_env() -> BTreeMap<String, String> {
    let mut env = super::base_env();
    env.insert("PAGER".into(), "cat".into());
    env.insert("GIT_PAGER".into(), "cat".into());
    env
}

/// How long a command must have written nothing, while blocked reading its terminal, before
/// the run ends as waiting for input.
pub const INPUT_SETTLE: Duration = Duration::from_millis(200);

/// How often a run with a terminal looks whether its command waits for input.
const LOOK_EVERY: Duration = Duration::from_millis(25);

/// The widest line [`RunJson::text`] keeps whole: a longer one is wrapped there, as a
/// terminal that wide would.
pub const MAX_TEXT_COLS: u16 = 1000;

/// How long a piped command may run when not told (`tuicast run --timeout`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The most bytes of each stream kept when not told (`tuicast run --max-output`): 1 MiB.
pub const DEFAULT_MAX_OUTPUT: u64 = 1 << 20;

/// The largest `--max-output` (each stream is held in memory, then in the JSON): 64 MiB.
pub const MAX_MAX_OUTPUT: u64 = 64 << 20;

/// How long the output of a command that has exited is still read: what it left running
/// outside its process group (a daemon) may hold the pipes open.
const DRAIN_AFTER_EXIT: Duration = Duration::from_millis(500);

/// What `tuicast run` prints: a command's output, status and duration, and the limits
/// applied. A secret's value is in none of its fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct RunJson {
    /// The command and its arguments as run (secrets starred).
    pub command: Vec<String>,
    /// How it ended: its exit code, or the signal that ended it.
    pub status: RunStatus,
    /// `null` when it ended by itself; `timeout`, `max-output` or `waiting-for-input` when
    /// tuicast ended it (the status is then SIGKILL).
    pub ended_by: Option<EndedBy>,
    /// Its standard output: the text when it is UTF-8, else its bytes in standard base64
    /// (`encoding.stdout` says which); secrets starred.
    pub stdout: String,
    /// Its standard error, as `stdout`.
    pub stderr: String,
    /// How `stdout` and `stderr` are written.
    pub encoding: Streams<Encoding>,
    /// How many bytes of each stream were read (at most `limits.max_output` are kept).
    pub bytes: Streams<u64>,
    /// Whether a stream was cut at `limits.max_output`.
    pub truncated: Streams<bool>,
    /// Milliseconds from the start to the end of the command.
    pub duration_ms: u64,
    /// The limits applied.
    pub limits: RunLimits,
    /// The output as a person would read it in a terminal: standard output, standard error
    /// and what the command wrote to its terminal, in the order they came, through tuicast's
    /// terminal engine (`\r` overwrites, cursor moves and erases applied, escape sequences
    /// gone), one string with a line per terminal line, trailing spaces and blank lines
    /// trimmed; secrets starred. A line wider than [`MAX_TEXT_COLS`] is wrapped there.
    pub text: String,
    /// Whether `text` lost its first lines: an output of more than 2,000 lines keeps its last
    /// 1,100 or so (the engine's scrollback and a screen of 100 rows).
    pub text_truncated: bool,
    /// The tables found in the last 200 lines of `text`, as `tuicast inspect` finds them and
    /// under its gates; `row` is the line of `text` (from 1).
    pub tables: Vec<crate::inspect::TableJson>,
    /// The first line of `text` (from 1) that `tables` were looked for in: 1 when every line
    /// was; above it no table is looked for, so none found there says nothing.
    pub tables_from: crate::pos::Ordinal,
    /// What the command waits for, when it ended as `waiting-for-input` (else `null`).
    pub prompt: Option<RunPrompt>,
    /// Why tuicast ended the command, as data (`kind` `timeout`, `limit` or
    /// `waiting-for-input`; `screen` the last lines of `text`; `fix`); `null` when it ended
    /// by itself (its own failure is `status`).
    pub failure: Option<crate::location::FailureJson>,
    /// tuicast's exit status: 0 the command ended by itself (whatever its status), 1
    /// tuicast ended it (`ended_by`), 2 bad input (then only `error` and `exit` are there).
    pub exit: u8,
}

/// What `tuicast run` prints: the run, or why it could not run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(title = "tuicast run output"))]
#[serde(untagged)]
#[non_exhaustive]
pub enum RunOutput {
    /// The command ran (whatever its status).
    Ran(Box<RunJson>),
    /// Bad input: it could not run.
    Refused(RunRefusal),
}

/// Why `tuicast run` could not run a command (bad input: no such program, a bad limit, a
/// secret not allowed); a secret's value is not in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct RunRefusal {
    /// What went wrong.
    pub error: String,
    /// The same as data: `kind` `bad-input`, the message, the fix when one is known.
    pub failure: crate::location::FailureJson,
    /// tuicast's exit status: 2.
    pub exit: u8,
}

impl RunRefusal {
    /// A refusal with this message and exit status (2: bad input).
    pub fn new(error: impl Into<String>, exit: u8) -> RunRefusal {
        use crate::location::{FailureJson, FailureKind};
        let error = error.into();
        let kind = if exit == 2 {
            FailureKind::BadInput
        } else {
            FailureKind::Error
        };
        RunRefusal {
            failure: FailureJson::new(kind, error.clone()),
            error,
            exit,
        }
    }
}

/// The prompt of a command that ended as waiting for input: the prompt finder's answer on
/// the final text (`kind` `unknown` when it cannot tell what is asked), and what showed the
/// command waiting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct RunPrompt {
    /// What the prompt finder saw (as `tuicast inspect`'s `prompt`; `row` is the line of
    /// `text`, from 1).
    #[serde(flatten)]
    pub prompt: crate::inspect::PromptJson,
    /// Why the command is taken as waiting: which process was blocked reading the terminal,
    /// and for how long nothing was written.
    pub waiting: String,
    /// Whether the terminal echoed input (`false`: a password is asked); `null` when unknown.
    pub echo: Option<bool>,
}

/// One value for each of the two streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Streams<T> {
    /// Standard output's.
    pub stdout: T,
    /// Standard error's.
    pub stderr: T,
}

/// How a stream's bytes are written in the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub enum Encoding {
    /// As text: the bytes were UTF-8 (a character cut by the limit dropped).
    #[serde(rename = "utf-8")]
    Utf8,
    /// Standard base64 (RFC 4648, padded): the bytes were not UTF-8.
    #[serde(rename = "base64")]
    Base64,
}

/// Why tuicast ended a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum EndedBy {
    /// It ran past `limits.timeout_ms`.
    Timeout,
    /// A stream passed `limits.max_output`.
    MaxOutput,
    /// It was blocked reading its terminal, with nothing written for a moment
    /// ([`INPUT_SETTLE`]): it waits for an answer that will not come (`prompt` says what).
    WaitingForInput,
}

/// How a command ended: exactly one of `code` and `signal`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct RunStatus {
    /// Its exit code, when it exited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
    /// The signal that ended it (`SIGKILL`), when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
}

/// The limits a run applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct RunLimits {
    /// How long the command could run, in milliseconds.
    pub timeout_ms: u64,
    /// The most bytes kept of each stream.
    pub max_output: u64,
}

/// What a reader thread has read of one stream.
#[derive(Debug, Default)]
struct Captured {
    kept: Vec<u8>,
    read: u64,
    truncated: bool,
}

/// What the threads of a run tell it.
enum Event {
    Exited(std::process::ExitStatus),
    /// A stream passed the limit.
    Overflow,
    /// A stream has ended.
    Done,
}

/// Runs the command of `opts` to its end, or until a limit ends it, and returns what it did.
/// Fails only when it cannot start (the program is not there, the HOME cannot be made):
/// its own failure is in the value.
pub fn run_piped(opts: &PipedOptions) -> Result<RunJson, RecordError> {
    let mut env = opts.env.clone();
    for (name, value) in &opts.secrets {
        env.insert(name.clone(), value.clone());
    }
    // The private HOME is the run's marker: a daemon that called `setsid` and lost its
    // parent still has it in its environment, so the sweep at the end finds it.
    let home = if env.contains_key("HOME") {
        None
    } else {
        super::home::sweep_stale();
        let dir = super::home::fresh_home()?;
        env.insert("HOME".into(), dir.display().to_string());
        Some(RemovedAfter(dir))
    };
    let Some(program) = opts.command.first() else {
        return Err(RecordError::Input("no command to run".into()));
    };
    if !opts.cwd.is_dir() {
        return Err(RecordError::Input(format!(
            "cannot run in {}: {}",
            crate::escape::escape_for_terminal(&opts.cwd.display().to_string(), 300),
            if opts.cwd.exists() {
                "not a folder"
            } else {
                "no such folder"
            }
        )));
    }
    // The timeout counts from here: waiting for a FIFO's writer is part of it.
    let begun = Instant::now();
    // Its own terminal: its controlling one (what opens /dev/tty reaches it, never the
    // caller's) and, by default, its standard input.
    let cannot = |e: std::io::Error| {
        RecordError::Input(format!("cannot open a terminal for the command: {e}"))
    };
    let (master, slave) = super::pty::open_terminal(crate::size::Size {
        cols: TERMINAL_COLS,
        rows: TERMINAL_ROWS,
    })
    .map_err(cannot)?;
    let tty_path =
        std::fs::read_link(format!("/proc/self/fd/{}", slave.as_raw_fd())).unwrap_or_default();
    let stdin = match &opts.stdin {
        PipedInput::Null => Stdio::null(),
        PipedInput::Terminal => Stdio::from(slave.try_clone().map_err(cannot)?),
        PipedInput::Bytes(_) => Stdio::piped(),
        PipedInput::Inherit => Stdio::inherit(),
        PipedInput::File(path) => Stdio::from(open_input(path, opts.timeout)?),
    };
    let mut cmd = Command::new(program);
    cmd.args(&opts.command[1..])
        .current_dir(&opts.cwd)
        .env_clear()
        .envs(&env)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A session of its own (so its own process group too: a limit ends everything it
    // started), the terminal its controlling one.
    super::pty::in_session_of_its_own(&mut cmd, &slave);
    let started = Instant::now();
    let mut child = cmd.spawn().map_err(|e| {
        let shown = crate::escape::escape_for_terminal(program, 100);
        let path = env.get("PATH").map_or("", String::as_str);
        let hint = if super::session::not_on_path(&opts.command, &env).is_some() {
            format!(
                " ({shown} is not in the command's PATH {}: pass --inherit-env PATH or \
                 --env PATH=..., or name it by a path)",
                crate::escape::escape_for_terminal(path, 300)
            )
        } else {
            String::new()
        };
        RecordError::Input(format!("cannot run {shown}: {e}{hint}"))
    })?;
    // Its copies of the terminal are its own: ours go, so that the terminal ends with it.
    drop(cmd);
    drop(slave);
    let pid = child.id();
    if let (PipedInput::Bytes(bytes), Some(mut pipe)) = (&opts.stdin, child.stdin.take()) {
        let bytes = bytes.clone();
        // On a thread: a command that reads nothing must not block the run, and one that
        // stops reading ends the write (a broken pipe is no failure of the run).
        std::thread::spawn(move || {
            use std::io::Write as _;
            let _ = pipe.write_all(&bytes);
        });
    }
    let (tx, rx) = mpsc::channel::<Event>();
    let out = Arc::new(Mutex::new(Captured::default()));
    let err = Arc::new(Mutex::new(Captured::default()));
    let tty = Arc::new(Mutex::new(Captured::default()));
    let seen = Arc::new(Mutex::new(Seen {
        bytes: Vec::new(),
        last: Instant::now(),
    }));
    let stdout = child.stdout.take().expect("a piped stdout");
    let stderr = child.stderr.take().expect("a piped stderr");
    let reader = |stream| Reader {
        stream,
        max: opts.max_output,
        seen: Arc::clone(&seen),
        tx: tx.clone(),
    };
    spawn_reader(stdout, Arc::clone(&out), reader(Stream::Pipe));
    spawn_reader(stderr, Arc::clone(&err), reader(Stream::Pipe));
    spawn_reader(
        master.try_clone().map_err(cannot)?,
        Arc::clone(&tty),
        reader(Stream::Terminal),
    );
    std::thread::spawn(move || {
        if let Ok(status) = child.wait() {
            let _ = tx.send(Event::Exited(status));
        }
    });
    let marker = home
        .as_ref()
        .map(|h| format!("HOME={}", h.0.display()).into_bytes());
    // Its process group, at once (what holds the pipes there lets go of them).
    let kill = || {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    };
    let deadline = begun + opts.timeout;
    let mut ended_by = None;
    let mut status = None;
    let mut duration = Duration::ZERO;
    let mut done = 0;
    let mut drain_until = None;
    let mut waiting = None;
    while done < 2 {
        let until = match drain_until {
            Some(until) => until,
            // While it runs, a look every LOOK_EVERY whether it waits for input.
            None => deadline.min(Instant::now() + LOOK_EVERY),
        };
        let event = rx.recv_timeout(until.saturating_duration_since(Instant::now()));
        match event {
            Ok(Event::Exited(s)) => {
                status = Some(s);
                duration = started.elapsed();
                // What it left in its group holds the pipes no longer.
                kill();
                drain_until = Some(Instant::now() + DRAIN_AFTER_EXIT);
            }
            Ok(Event::Overflow) => {
                ended_by.get_or_insert(EndedBy::MaxOutput);
                kill();
            }
            Ok(Event::Done) => done += 1,
            Err(mpsc::RecvTimeoutError::Timeout) if drain_until.is_some() => break,
            Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() < deadline => {
                if let Some(why) = waiting_for_input(pid, &tty_path, &seen) {
                    // Its modes as it left them, before the kill takes the terminal.
                    waiting = Some((why, tty_modes(&master)));
                    ended_by.get_or_insert(EndedBy::WaitingForInput);
                    kill();
                    drain_until = Some(Instant::now() + DRAIN_AFTER_EXIT);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                ended_by.get_or_insert(EndedBy::Timeout);
                kill();
                // The status comes as soon as the kill has taken it.
                drain_until = Some(Instant::now() + DRAIN_AFTER_EXIT);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // The streams ended before the exit was seen: wait for it (the kill makes it come).
    while status.is_none() {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Event::Exited(s)) => {
                status = Some(s);
                duration = started.elapsed();
            }
            Ok(_) => {}
            Err(mpsc::RecvTimeoutError::Timeout) => {
                ended_by.get_or_insert(EndedBy::Timeout);
                kill();
                if let Ok(Event::Exited(s)) = rx.recv_timeout(DRAIN_AFTER_EXIT) {
                    status = Some(s);
                }
                duration = started.elapsed();
                break;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // Everything it started, once it is over: its group, its descendants and what escaped
    // both with `setsid` (found by its private HOME), as a recording ends.
    super::pty::kill_started(pid, marker.as_deref());
    drop(master);
    drop(home);
    let mut redactor = Redactor::new(Vec::new());
    for (_, value) in &opts.secrets {
        redactor.add_secret(value);
    }
    // A stream a limit or the timeout cut may end inside a secret: its tail is starred as
    // the start of one (a live recording holds such a tail back until it cannot be one).
    let killed = ended_by.is_some();
    let (stdout, out_enc, out_bytes, out_cut) = shown(&out, &redactor, &opts.secrets, killed);
    let (stderr, err_enc, err_bytes, err_cut) = shown(&err, &redactor, &opts.secrets, killed);
    let merged = {
        let seen = seen.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&seen.bytes).into_owned()
    };
    let merged = if killed {
        redactor.scrub_cut(&merged)
    } else {
        redactor.scrub(&merged)
    };
    let read = ReadAsAPerson::of(&merged);
    let prompt = waiting.map(|(why, modes)| read.prompt(why, modes));
    let text = redactor.scrub(&read.text);
    let failure = ended_by.map(|e| ended_failure(e, opts, &text, prompt.as_ref()));
    let status = match status {
        Some(s) => RunStatus {
            code: s.code(),
            signal: s.signal().map(signal_name),
        },
        None => RunStatus {
            code: None,
            signal: Some("SIGKILL".into()),
        },
    };
    Ok(RunJson {
        command: opts.command.iter().map(|a| redactor.scrub(a)).collect(),
        status,
        ended_by,
        stdout,
        stderr,
        encoding: Streams {
            stdout: out_enc,
            stderr: err_enc,
        },
        bytes: Streams {
            stdout: out_bytes,
            stderr: err_bytes,
        },
        truncated: Streams {
            stdout: out_cut,
            stderr: err_cut,
        },
        duration_ms: duration.as_millis() as u64,
        limits: RunLimits {
            timeout_ms: opts.timeout.as_millis() as u64,
            max_output: opts.max_output,
        },
        text,
        text_truncated: read.truncated,
        tables: read.tables(),
        tables_from: read.tables_from(),
        prompt,
        failure,
        exit: if ended_by.is_some() { 1 } else { 0 },
    })
}

/// Why tuicast ended the command of `opts` (`ended`), as data, with the last lines of its
/// `text` as the screen.
fn ended_failure(
    ended: EndedBy,
    opts: &PipedOptions,
    text: &str,
    prompt: Option<&RunPrompt>,
) -> crate::location::FailureJson {
    use crate::location::{FailureJson, FailureKind};
    let (kind, message, fix) = match ended {
        EndedBy::Timeout => (
            FailureKind::Timeout,
            format!(
                "the command ran past its timeout of {} ms and was killed",
                opts.timeout.as_millis()
            ),
            "give it more time (--timeout), or less to do".to_string(),
        ),
        EndedBy::MaxOutput => (
            FailureKind::Limit,
            format!(
                "the command wrote more than {} bytes on a stream and was killed",
                opts.max_output
            ),
            format!(
                "keep more (--max-output, at most {} MiB), or have it write less",
                MAX_MAX_OUTPUT >> 20
            ),
        ),
        EndedBy::WaitingForInput => (
            FailureKind::WaitingForInput,
            match prompt {
                Some(p) if !p.prompt.evidence.is_empty() => format!(
                    "the command waits for input ({} prompt: \"{}\") and was ended",
                    p.prompt.kind, p.prompt.evidence
                ),
                _ => "the command waits for input and was ended".to_string(),
            },
            "give it its input (--stdin FILE, or --stdin - from a pipe), pass its own \
             non-interactive option (-y, --yes, --batch), or drive it in `tuicast session`"
                .to_string(),
        ),
    };
    let lines: Vec<&str> = text.lines().collect();
    let last = &lines[lines.len().saturating_sub(usize::from(TERMINAL_ROWS))..];
    FailureJson::new(kind, message)
        .screen(last.iter().copied())
        .fix(fix)
}

/// The most lines of a run's text the table finder reads (its last ones): its work grows with
/// the square of the lines of a text that holds no table (`seq 1500`: 23 s in a debug build;
/// 200 lines: about 0.4 s).
const MAX_TABLE_ROWS: usize = 200;

/// The screen's rows for output longer than `MAX_ROWS` lines: its last lines are read on
/// a screen this tall under the engine's scrollback.
const LONG_OUTPUT_ROWS: usize = 100;

/// The size of the terminal a run's command sees (`stty size`); its text is read at a size
/// of its own ([`ReadAsAPerson`]).
const TERMINAL_COLS: u16 = 80;
const TERMINAL_ROWS: u16 = 24;

/// The evidence that the command of `pid` waits for input: a process of its tree blocked
/// reading its terminal `tty`, every thread of the tree waiting (two looks 3 ms apart with
/// nothing run between), and nothing written on any stream for [`INPUT_SETTLE`].
fn waiting_for_input(pid: u32, tty: &std::path::Path, seen: &Mutex<Seen>) -> Option<String> {
    let quiet = || {
        seen.lock()
            .unwrap_or_else(|p| p.into_inner())
            .last
            .elapsed()
    };
    if quiet() < INPUT_SETTLE {
        return None;
    }
    let reader = super::quiet::reads_terminal(pid, tty)?;
    let first = super::quiet::TreeLook::take(pid, INPUT_SETTLE)?;
    if !first.waiting() {
        return None;
    }
    std::thread::sleep(Duration::from_millis(3));
    let second = super::quiet::TreeLook::take(pid, INPUT_SETTLE)?;
    let quiet = quiet();
    (first.still_at(&second) && quiet >= INPUT_SETTLE).then(|| {
        format!(
            "{reader}; every thread of the command waits; nothing written for {} ms",
            quiet.as_millis()
        )
    })
}

/// The echo and line modes of the terminal whose master side is `master`, for a command seen
/// blocked reading it (so `reading`).
fn tty_modes(master: &std::fs::File) -> crate::inspect::TtyModes {
    use nix::sys::termios::LocalFlags;
    let flags = nix::sys::termios::tcgetattr(master)
        .ok()
        .map(|t| t.local_flags);
    crate::inspect::TtyModes {
        echo: flags.map(|f| f.contains(LocalFlags::ECHO)),
        canonical: flags.map(|f| f.contains(LocalFlags::ICANON)),
        reading: Some(true),
    }
}

/// A run's output through the terminal engine, as a person would read it.
struct ReadAsAPerson {
    screen: crate::term::Screen,
    /// Lines of the scrollback above the screen (the screen's first row is the line after
    /// them).
    above: usize,
    text: String,
    truncated: bool,
}

impl ReadAsAPerson {
    /// `output` (the streams merged, in the order they came) fed to tuicast's engine at a
    /// size where its lines do not wrap (at most [`MAX_TEXT_COLS`] wide) and, up to
    /// [`MAX_ROWS`](crate::size::MAX_ROWS) lines, all on the screen; a longer output on a
    /// screen of [`LONG_OUTPUT_ROWS`] under the scrollback (its last lines kept).
    fn of(output: &str) -> ReadAsAPerson {
        use unicode_width::UnicodeWidthStr;
        let (mut lines, mut widest) = (0usize, 0usize);
        for line in output.split('\n') {
            lines += 1;
            widest = widest.max(line.width());
        }
        // All of it on the screen when it fits, so nothing scrolls; else a short screen under
        // the scrollback (every line scrolled costs a move of every row of the screen).
        let max_rows = crate::size::MAX_ROWS as usize;
        let rows = if lines <= max_rows {
            lines.max(usize::from(TERMINAL_ROWS))
        } else {
            LONG_OUTPUT_ROWS
        };
        let cols = widest.clamp(usize::from(TERMINAL_COLS), usize::from(MAX_TEXT_COLS));
        let size = crate::size::Size {
            cols: cols as u16,
            rows: rows as u16,
        };
        let mut engine = crate::term::EngineKind::Native.create(size);
        engine.feed(output);
        let screen = engine.screen();
        let scrollback = screen.state.scrollback.lines();
        let above = scrollback.len();
        let mut text: Vec<String> = scrollback.to_vec();
        text.extend((0..screen.rows.len()).map(|r| screen.row_text(r).trim_end().to_string()));
        while text.last().is_some_and(String::is_empty) {
            text.pop();
        }
        // The scrollback is full when it holds fewer lines than went above the screen.
        let truncated = lines > rows + above;
        ReadAsAPerson {
            text: text.join("\n"),
            truncated,
            above,
            screen,
        }
    }

    /// The tables of the screen's last [`MAX_TABLE_ROWS`] rows with text, their rows counted
    /// in lines of the text.
    fn tables(&self) -> Vec<crate::inspect::TableJson> {
        let rows = &self.screen.rows;
        let (start, used) = self.table_rows();
        let mut part = self.screen.clone();
        part.rows = rows[start..used].to_vec();
        part.size.rows = (used - start).max(1) as u16;
        if part.rows.is_empty() {
            return Vec::new();
        }
        let last = (part.rows.len() - 1) as u16;
        part.cursor.row = part.cursor.row.saturating_sub(start as u16).min(last);
        crate::inspect::tables(&part)
            .iter()
            .map(|t| {
                let mut json = crate::inspect::TableJson::of(t);
                json.row = crate::pos::Ordinal::of(t.row + start + self.above);
                json
            })
            .collect()
    }

    /// The screen's rows the tables are looked for in: its last [`MAX_TABLE_ROWS`] rows with
    /// text.
    fn table_rows(&self) -> (usize, usize) {
        let used = (0..self.screen.rows.len())
            .rev()
            .find(|&r| !self.screen.row_text(r).trim().is_empty())
            .map_or(0, |r| r + 1);
        (used.saturating_sub(MAX_TABLE_ROWS), used)
    }

    /// The first line of the text the tables are looked for in.
    fn tables_from(&self) -> crate::pos::Ordinal {
        crate::pos::Ordinal::of(self.table_rows().0 + self.above)
    }

    /// The prompt of a command found waiting (`why`), in the terminal modes it left.
    fn prompt(&self, why: String, modes: crate::inspect::TtyModes) -> RunPrompt {
        let found = crate::inspect::classify(&self.screen, &self.screen.outline(), modes);
        let mut prompt = crate::inspect::PromptJson::of(&found);
        prompt.row = found.row.map(|r| crate::pos::Ordinal::of(r + self.above));
        RunPrompt {
            prompt,
            waiting: why,
            echo: modes.echo,
        }
    }
}

/// Opens `path` for the command's standard input within `timeout`: opening a FIFO waits for
/// a writer, so it is opened on a thread, and when no writer came in time the FIFO is opened
/// for writing here (which ends the wait) and the run is refused: `--stdin` never blocks
/// past the timeout.
fn open_input(path: &std::path::Path, timeout: Duration) -> Result<std::fs::File, RecordError> {
    let shown = || crate::escape::escape_for_terminal(&path.display().to_string(), 300);
    let (tx, rx) = mpsc::channel();
    let owned = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(std::fs::File::open(owned));
    });
    match rx.recv_timeout(timeout) {
        Ok(Ok(file)) => Ok(file),
        Ok(Err(e)) => Err(RecordError::Input(format!("cannot read {}: {e}", shown()))),
        Err(_) => {
            // Unblock the opening thread (a writer appears and goes), then drop what it opened.
            use std::os::unix::fs::OpenOptionsExt;
            let _ = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(nix::libc::O_NONBLOCK)
                .open(path);
            let _ = rx.recv_timeout(Duration::from_millis(100));
            Err(RecordError::Input(format!(
                "cannot read {}: nothing opened it for writing within the timeout of {} ms \
                 (a FIFO waits for a writer)",
                shown(),
                timeout.as_millis()
            )))
        }
    }
}

/// Which of the command's outputs a reader reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    /// Standard output or error: a pipe, whose line feeds a terminal would end with a
    /// carriage return too.
    Pipe,
    /// Its terminal, whose line feeds come as the terminal made them, and whose end is no
    /// end of the run (what the command started may hold it).
    Terminal,
}

/// Where a reader puts what it reads beside its stream's own capture.
struct Reader {
    stream: Stream,
    /// The most bytes kept.
    max: u64,
    /// The merged output and when it last grew.
    seen: Arc<Mutex<Seen>>,
    tx: mpsc::Sender<Event>,
}

/// Every stream's output merged in the order it was read, as a terminal would have shown
/// it, and when it last grew.
struct Seen {
    bytes: Vec<u8>,
    last: Instant,
}

/// Reads `pipe` to its end on a thread of its own, keeping at most `max` bytes in `into`
/// (and the same in the merged output); past `max` it says so and stops reading (the run
/// then ends the command).
fn spawn_reader(mut pipe: impl Read + Send + 'static, into: Arc<Mutex<Captured>>, r: Reader) {
    let Reader {
        stream,
        max,
        seen,
        tx,
    } = r;
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 << 10];
        loop {
            let n = match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let mut c = into.lock().unwrap_or_else(|p| p.into_inner());
            c.read += n as u64;
            let room = max.saturating_sub(c.kept.len() as u64) as usize;
            let take = room.min(n);
            c.kept.extend_from_slice(&buf[..take]);
            {
                let mut seen = seen.lock().unwrap_or_else(|p| p.into_inner());
                for &b in &buf[..take] {
                    if b == b'\n' && stream == Stream::Pipe {
                        seen.bytes.push(b'\r');
                    }
                    seen.bytes.push(b);
                }
                seen.last = Instant::now();
            }
            if take < n {
                c.truncated = true;
                drop(c);
                let _ = tx.send(Event::Overflow);
                break;
            }
        }
        if stream == Stream::Pipe {
            let _ = tx.send(Event::Done);
        }
    });
}

/// What `tuicast ask` prints: the short form of a run for a command that answers a question
/// (an AI CLI in its non-interactive mode). The answer is the command's standard output with
/// the whitespace around it trimmed; a secret's value is in none of its fields, and the
/// question is not repeated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct AskJson {
    /// The answer: standard output trimmed, as text when it is UTF-8, else its bytes (not
    /// trimmed) in standard base64 (`encoding.stdout` says which); secrets starred.
    pub answer: String,
    /// Standard error trimmed, as `answer`.
    pub stderr: String,
    /// How `answer` (`stdout`) and `stderr` are written.
    pub encoding: Streams<Encoding>,
    /// How the command ended: its exit code, or the signal that ended it.
    pub status: RunStatus,
    /// `null` when it ended by itself; `timeout`, `max-output` or `waiting-for-input` (it
    /// asked something on its terminal: a login, a confirmation) when tuicast ended it.
    pub ended_by: Option<EndedBy>,
    /// Whether a stream was cut at the output limit (the answer is then incomplete).
    pub truncated: Streams<bool>,
    /// Milliseconds from the start to the end of the command.
    pub duration_ms: u64,
    /// tuicast's exit status, as `tuicast run`'s: 0 the command ended by itself (whatever
    /// its status), 1 tuicast ended it (`ended_by`), 2 bad input (then only `error` and
    /// `exit` are there).
    pub exit: u8,
}

impl From<RunJson> for AskJson {
    fn from(run: RunJson) -> AskJson {
        let trim = |text: String, encoding: Encoding| match encoding {
            Encoding::Utf8 => text.trim().to_string(),
            Encoding::Base64 => text,
        };
        AskJson {
            answer: trim(run.stdout, run.encoding.stdout),
            stderr: trim(run.stderr, run.encoding.stderr),
            encoding: run.encoding,
            status: run.status,
            ended_by: run.ended_by,
            truncated: run.truncated,
            duration_ms: run.duration_ms,
            exit: run.exit,
        }
    }
}

/// What `tuicast ask` prints: the answer, or why the command could not be asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(title = "tuicast ask output"))]
#[serde(untagged)]
#[non_exhaustive]
pub enum AskOutput {
    /// The command ran (whatever its status).
    Answered(Box<AskJson>),
    /// Bad input: it could not run.
    Refused(RunRefusal),
}

/// A stream as the JSON shows it: its text (or base64), encoding, bytes read and whether it
/// was cut; secrets starred.
fn shown(
    captured: &Mutex<Captured>,
    redactor: &Redactor,
    secrets: &[(String, String)],
    killed: bool,
) -> (String, Encoding, u64, bool) {
    let c = captured.lock().unwrap_or_else(|p| p.into_inner());
    let cut = killed || c.truncated;
    let mut bytes: &[u8] = &c.kept;
    // A character cut by the limit is dropped, so that cut text stays text.
    if c.truncated {
        if let Err(e) = std::str::from_utf8(bytes) {
            if e.error_len().is_none() {
                bytes = &bytes[..e.valid_up_to()];
            }
        }
    }
    match std::str::from_utf8(bytes) {
        Ok(text) if cut => (
            redactor.scrub_cut(text),
            Encoding::Utf8,
            c.read,
            c.truncated,
        ),
        Ok(text) => (redactor.scrub(text), Encoding::Utf8, c.read, c.truncated),
        Err(_) => {
            let mut raw = bytes.to_vec();
            for (_, value) in secrets {
                for form in forms(value) {
                    star_bytes(&mut raw, form.as_bytes());
                }
                // A long prefix too, as the redactor stars it in text (cut output ends in one).
                if let Some(shortest) = crate::record::redact::shortest_prefix(value) {
                    star_prefix_bytes(&mut raw, value.as_bytes(), shortest);
                }
                if cut {
                    for form in forms(value) {
                        star_cut_tail(&mut raw, form.as_bytes());
                    }
                }
            }
            (base64_standard(&raw), Encoding::Base64, c.read, c.truncated)
        }
    }
}

/// Every run of `hay` that starts with the first `shortest` bytes of `secret` and goes on as
/// `secret` does, replaced by as many `*`.
fn star_prefix_bytes(hay: &mut [u8], secret: &[u8], shortest: usize) {
    let head = &secret[..shortest];
    let mut i = 0;
    while i + head.len() <= hay.len() {
        if &hay[i..i + head.len()] == head {
            let same = hay[i..]
                .iter()
                .zip(secret)
                .take_while(|(a, b)| a == b)
                .count();
            hay[i..i + same].fill(b'*');
            i += same;
        } else {
            i += 1;
        }
    }
}

/// The end of `hay` starred when it is the start of `secret` (a stream cut inside it).
fn star_cut_tail(hay: &mut [u8], secret: &[u8]) {
    let longest = (1..secret.len().min(hay.len() + 1))
        .rev()
        .find(|&n| hay.ends_with(&secret[..n]));
    if let Some(n) = longest {
        let len = hay.len();
        hay[len - n..].fill(b'*');
    }
}

/// Every occurrence of `needle` in `hay` replaced by as many `*`.
fn star_bytes(hay: &mut [u8], needle: &[u8]) {
    if needle.is_empty() || needle.len() > hay.len() {
        return;
    }
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        if &hay[i..i + needle.len()] == needle {
            hay[i..i + needle.len()].fill(b'*');
            i += needle.len();
        } else {
            i += 1;
        }
    }
}

/// `SIGTERM` for 15.
fn signal_name(n: i32) -> String {
    nix::sys::signal::Signal::try_from(n)
        .map_or_else(|_| format!("signal {n}"), |s| s.as_str().to_string())
}

/// A folder removed when this is dropped (the run's private HOME).
struct RemovedAfter(PathBuf);

impl Drop for RemovedAfter {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_starred_in_place() {
        let mut b = b"a\xffsecret\xfesecret".to_vec();
        star_bytes(&mut b, b"secret");
        assert_eq!(b, b"a\xff******\xfe******");
    }
}
