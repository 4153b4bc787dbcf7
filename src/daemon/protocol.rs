//! The session daemon's wire format: a [`Request`] is one JSON object on one line, answered by
//! one [`Reply`] on one line. The client, the daemon and `tuicast schema session-request` /
//! `session-reply` (with the `schema` feature) all use these types; `docs/agents.md` describes
//! each field for people.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::inspect::InspectionJson;
use crate::location::{FailureJson, FailureKind};
use crate::pos::{Ordinal, Place};
use crate::render::ScreenJson;

/// One request to the session daemon; `op` says which.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(title = "tuicast session daemon request"))]
#[serde(tag = "op", rename_all = "lowercase")]
#[non_exhaustive]
pub enum Request {
    /// Start a program in a new session.
    Start {
        /// The command and its arguments.
        argv: Vec<String>,
        /// The folder it runs in (and whose `tuicast.toml` gives the regions steps may name).
        cwd: PathBuf,
        /// The session's name (its id), 1 to 64 letters, digits, `-`, `_` or `.`; `s1`, `s2`,
        /// … when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The terminal size, `COLSxROWS` (80x24 when absent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        size: Option<String>,
        /// How long each wait may take (`10s`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout: Option<String>,
        /// The client's umask (`18` for 022): the program's. Without it the program gets
        /// the umask of the client that started the daemon (never the daemon's own 077).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        umask: Option<u32>,
        /// The most bytes the session's cast may hold (64 MiB when absent, at least 4096):
        /// past it the session fails and the program's output is read no further.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_cast: Option<u64>,
    },
    /// The sessions running.
    List,
    /// Run one scenario step.
    Step {
        /// The session.
        id: String,
        /// The step as one scenario step's TOML: `{ press = "Enter" }`.
        step: String,
    },
    /// The screen; with `mark`, a checkpoint first.
    Snapshot {
        /// The session.
        id: String,
        /// `text` (when absent), `json` (adds `render`) or `png` (writes `output`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        format: Option<String>,
        /// The checkpoint's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mark: Option<String>,
        /// Where the render is written (needed for `png`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        output: Option<PathBuf>,
    },
    /// The outline and prompt.
    Inspect {
        /// The session.
        id: String,
    },
    /// The status and screen.
    Status {
        /// The session.
        id: String,
    },
    /// Watch the session: the reply is a stream of [`SessionEvent`] lines, the current state
    /// first, until the session ends (`tuicast session events`).
    Events {
        /// The session.
        id: String,
        /// Only the events after this `seq` (those still kept; else a `lost` event and the
        /// current state).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
    },
    /// Watch the session as `events` does, and read control lines from the client on the
    /// same connection: `{"take":true}` takes the session's input (agents' input is then
    /// refused), `{"take":false}` gives it back, `{"input":"TEXT"}` types TEXT while held.
    /// Closing the connection gives the session back (`tuicast session attach`).
    Attach {
        /// The session.
        id: String,
        /// Take the session's input at once.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        take: bool,
    },
    /// End the session; with `save`, write `save.cast` and `save.toml`.
    Stop {
        /// The session.
        id: String,
        /// Where to save the cast and scenario (without the extension).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        save: Option<PathBuf>,
        /// Write over files that are there.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        force: bool,
    },
}

/// The daemon's answer to one request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(title = "tuicast session daemon reply"))]
#[non_exhaustive]
pub struct Reply {
    /// The session the reply is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The session's state, screen and prompt: in every reply about a running session.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionView>,
    /// `list`: the sessions running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions: Option<Vec<Listed>>,
    /// The step as the saved scenario writes it (cut at 200 characters, with its length);
    /// for `type` and `paste`, their text replaced by its length: `{ type = (11 characters) }`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// `type` and `paste`: how many characters their text had (the text is never echoed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_length: Option<usize>,
    /// A wait (and `wait --exit`): what matched and where.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched: Option<Box<Matched>>,
    /// `snapshot --mark`: how long the screen took to settle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled_ms: Option<u64>,
    /// `snapshot --format json`: the screen with styles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render: Option<Box<ScreenJson>>,
    /// `snapshot --format screen`, asked by `tuicast session check` only: the settled
    /// screen as tuicast's own model, which the client checks against a screen golden of its
    /// project (`harness::check_screen_golden`). The client prints no such field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub model: Option<Box<crate::term::Screen>>,
    /// `snapshot --format png`: the file written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub png: Option<PathBuf>,
    /// `snapshot -o FILE` (any format): the file written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<PathBuf>,
    /// `inspect`: the outline and prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inspect: Option<Box<InspectionJson>>,
    /// `stop`: the session has ended (its program's status is `status.code`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<bool>,
    /// `stop --save`: the cast written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cast: Option<PathBuf>,
    /// `stop --save`: the scenario written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<PathBuf>,
    /// `stop --save`: how many steps the scenario has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<usize>,
    /// Set by the client: the daemon was gone (killed, crashed), its sessions lost, a new
    /// one started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daemon_restarted: Option<String>,
    /// Only on failure: what went wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Only on failure: the same as data — its `kind` (`timeout`, `exited`, `bad-input`, …),
    /// the step, the screen at that moment and the fix, each a field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Box<FailureJson>>,
    /// The command's exit status: 0 done, 1 a wait or step failed, 2 bad input.
    pub exit: u8,
}

/// A running session's state, screen and prompt. Positions count from 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct SessionView {
    /// The session's name (`null` without one).
    pub name: Option<String>,
    /// The program's process id.
    pub pid: u32,
    /// Whether it runs, waits, exited or failed.
    pub status: Status,
    /// The terminal size, `COLSxROWS`.
    pub size: String,
    /// The screen as text, trailing blanks and blank rows at the bottom removed.
    pub screen: String,
    /// Where the cursor is.
    pub cursor: CursorView,
    /// What the program seems to wait for.
    pub prompt: PromptView,
    /// The terminal's echo flag (`null` when it cannot be read).
    pub echo: Option<bool>,
    /// Milliseconds since the program last wrote output.
    pub idle_ms: u64,
    /// 16 hex digits identifying the screen as `screen` and `cursor` show it (every cell's
    /// text and style, the shown cursor; secrets starred): `wait --changed HASH` waits until
    /// it is another.
    pub screen_hash: String,
}

/// What a wait matched and where, in the reply of the wait. `wait` is always there; the
/// other fields as the kind of wait has them (docs/agents.md, "What a wait matched").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Matched {
    /// The kind of wait: `text`, `regex`, `gone`, `idle`, `silent`, `changed`, `cursor`,
    /// `echo`, `title`, `bell`, `clipboard`, `command_done`, `prompt`, `ref` or `exit`.
    pub wait: String,
    /// The text that matched: the screen's text for `text` and `regex`, the text that went
    /// for `gone`, the title, the clipboard write, a prompt's evidence (secrets starred).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Where it begins: the first cell of the match (`text`, `regex`, `prompt`: its
    /// evidence), of what went (`gone`, on the screen before the wait), of the cells that
    /// changed (`changed`), the cursor (`cursor`). Absent for a wait about no place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Place>,
    /// Where it ends: the last cell, inclusive (with `at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Place>,
    /// `prompt`: the kind found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// `changed`: the screen's new hash (the reply's `screen_hash` when nothing changed
    /// since).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen_hash: Option<String>,
    /// `idle`, `silent`: how long the program had written nothing when the wait matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_ms: Option<u64>,
    /// `exit`: the program's status; `command_done`: the command's, as the shell's `D` mark
    /// said it (absent when it said none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
    /// `echo`: the terminal's echo flag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub echo: Option<bool>,
    /// `ref`: the unique name of the ref found (`@dialog.button("Yes")`), or of the one that
    /// went (`gone`).
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub ref_name: Option<String>,
    /// `ref`: the ref's value (`insert` of `@vim.mode`), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// A session's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Status {
    /// The state.
    pub state: State,
    /// The program's exit status, once it has exited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
    /// The signal (`SIGSEGV`) when the code is 128+N as shells report one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    /// Why the session cannot go on (`failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The state of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum State {
    /// The program runs.
    Running,
    /// It waits for input: the screen shows a prompt `inspect` recognises.
    Waiting,
    /// It has exited.
    Exited,
    /// The session cannot go on (`status.error` says why).
    Failed,
    /// The session has ended.
    Stopped,
}

impl State {
    /// The state as the wire spells it.
    pub fn name(self) -> &'static str {
        match self {
            State::Running => "running",
            State::Waiting => "waiting",
            State::Exited => "exited",
            State::Failed => "failed",
            State::Stopped => "stopped",
        }
    }
}

/// The cursor of a [`SessionView`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct CursorView {
    /// Row, from 1.
    pub row: Ordinal,
    /// Column, from 1.
    pub col: Ordinal,
    /// Whether it is shown.
    pub visible: bool,
}

/// The prompt of a [`SessionView`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct PromptView {
    /// `yesno`, `select`, `password`, `text`, `pager`, `confirm`, `shell` or `unknown`.
    pub kind: String,
    /// 0 to 1, two decimals.
    pub confidence: f64,
    /// The text it saw.
    pub evidence: String,
    /// A `yesno`'s default (`yes`, `no`).
    pub default: Option<String>,
    /// A `select`'s options.
    pub options: Vec<String>,
}

/// One line of the stream `tuicast session events` prints (and `attach` reads): what
/// changed in a session; `type` says what. `seq` counts a session's events from 1; the
/// current state a watcher gets first carries the `seq` of the latest event. Rows and columns
/// count from 1; secrets are starred as in every reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(title = "tuicast session event"))]
#[serde(tag = "type", rename_all = "lowercase")]
#[non_exhaustive]
pub enum SessionEvent {
    /// The screen changed (or, with `full`, the whole screen as it is).
    Screen {
        /// The event's number.
        seq: u64,
        /// The new screen's `screen_hash` (as replies give it).
        hash: String,
        /// The terminal size, `COLSxROWS`.
        size: String,
        /// Whether `rows` holds every row (the first event, after a resize or a `lost`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        full: bool,
        /// The cells that changed: the smallest rectangle holding them (absent when only the
        /// cursor moved).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rect: Option<Rect>,
        /// The new text of each row that changed, trailing blanks removed.
        rows: Vec<RowText>,
        /// Where the cursor is.
        cursor: CursorView,
    },
    /// The window title changed (`null`: none).
    Title {
        /// The event's number.
        seq: u64,
        /// The new title.
        title: Option<String>,
    },
    /// The program rang the bell.
    Bell {
        /// The event's number.
        seq: u64,
        /// How many times since the last event.
        count: u32,
    },
    /// What the program seems to wait for changed (`inspect`'s prompt).
    Prompt {
        /// The event's number.
        seq: u64,
        /// `yesno`, `select`, `password`, `text`, `pager`, `confirm`, `shell` or `unknown`.
        kind: String,
        /// 0 to 1, two decimals.
        confidence: f64,
        /// The text it saw.
        evidence: String,
    },
    /// A person took the session's input (`attach --take`) or gave it back.
    Hold {
        /// The event's number.
        seq: u64,
        /// Whether a person holds it now: agents' input is refused while they do.
        held: bool,
        /// On an `attach` stream: whether this watcher is the one that holds it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        yours: bool,
    },
    /// The program exited or the session ended: the last event of the stream.
    Exit {
        /// The event's number.
        seq: u64,
        /// How it ended: `exited`, `stopped` or `failed`, with the program's status.
        status: Status,
    },
    /// This watcher read too slowly: `count` events were not sent to it; the current state
    /// follows.
    Lost {
        /// The `seq` of the latest event.
        seq: u64,
        /// How many events it missed.
        count: u64,
    },
    /// An `attach` control line was refused (sent to that watcher only).
    Refused {
        /// The `seq` of the latest event.
        seq: u64,
        /// Why.
        error: String,
    },
}

/// The cells of a [`SessionEvent::Screen`] that changed, from `top`,`left` to
/// `bottom`,`right` inclusive, counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Rect {
    /// The first row.
    pub top: Ordinal,
    /// The first column.
    pub left: Ordinal,
    /// The last row.
    pub bottom: Ordinal,
    /// The last column.
    pub right: Ordinal,
}

/// One row of a [`SessionEvent::Screen`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct RowText {
    /// The row, from 1.
    pub row: Ordinal,
    /// Its text, trailing blanks removed.
    pub text: String,
}

/// One session as `list` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Listed {
    /// The session.
    pub id: String,
    /// Its name (`null` without one).
    pub name: Option<String>,
    /// The command, escaped for a terminal.
    pub command: Option<String>,
    /// Its state.
    pub state: Option<State>,
}

/// The kind of a failure known only by its exit status: 2 is bad input.
pub(crate) fn kind_of_exit(exit: u8) -> FailureKind {
    if exit == 2 {
        FailureKind::BadInput
    } else {
        FailureKind::Error
    }
}

impl Reply {
    /// A reply with only an error and an exit status.
    pub fn error(message: impl Into<String>, exit: u8) -> Reply {
        let message = message.into();
        Reply {
            failure: Some(Box::new(FailureJson::new(
                kind_of_exit(exit),
                message.clone(),
            ))),
            error: Some(message),
            exit,
            ..Reply::default()
        }
    }
}
