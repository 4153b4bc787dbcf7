//! A scenario: how to record a cast, as plain checked values (a program, its environment,
//! the steps). The recording part of a cast's TOML (`casts/NAME.toml`) is read and checked by
//! the config stage (its `CastFile`), which gives a [`Scenario`]; code may also build one directly.
//! Nothing here knows TOML, snapshots or pictures.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use regex::Regex;

use super::mouse::{MouseButton, ScrollDirection};
use crate::inspect::Anchor;
use crate::pos::Point;
use crate::term::{EngineOptions, Size};

/// How to record a cast: the program, its terminal and environment, and the steps.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Scenario {
    /// Where the scenario was written, for messages (`None`: built in code).
    pub source: Option<PathBuf>,
    /// The program to run.
    pub program: Program,
    /// Its working directory.
    pub cwd: PathBuf,
    /// The terminal size (`None`: the session's default).
    pub size: Option<Size>,
    /// Environment variables on top of [`base_env`](super::base_env).
    pub env: BTreeMap<String, String>,
    /// Variables passed through from tuicast's own environment, when set there.
    pub inherit_env: Vec<String>,
    /// Default timeout of every wait (`None`: the session's default).
    pub timeout: Option<Duration>,
    /// When a checkpoint is marked (`None`: the session's default, `auto` with
    /// [`DEFAULT_SETTLE`]; a zero period: at once).
    pub settle: Option<Settle>,
    /// A title for the cast.
    pub title: Option<String>,
    /// Patterns whose matches in output are scrubbed.
    pub redact: Vec<Regex>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Options of the live engine (`[terminal]`), the same as replay's.
    pub terminal: EngineOptions,
    /// Cells masked in the goldens (`[check] mask`), whose changes alone do not keep a
    /// checkpoint from settling.
    pub masks: Vec<Anchor>,
    /// Named regions (the cast's `[regions]` over `tuicast.toml`'s), which messages may
    /// suggest as masks.
    pub regions: Vec<(String, Anchor)>,
    /// Whether the program is the project's own code, checked by recording it live (`live =`
    /// in the scenario, else `tuicast.toml`'s); `None`: decided from the program (see
    /// [`Scenario::runs_project_code`]).
    pub live: Option<bool>,
    /// Waits on the screen fail early once the program waits for input and its screen has
    /// not changed for this long (`fail_fast =`; see `SessionOptions::fail_fast`).
    pub fail_fast: Option<Duration>,
    /// Run the program in `cwd` itself (`in_place = true`), not in a fresh copy of it (see
    /// `workdir.rs`).
    pub in_place: bool,
}

/// The settle period of checkpoints when a scenario does not choose one: twice the smallest
/// period measured that gave identical checkpoints in 50 of 50 recordings of every scenario
/// of the todoapp test app (ratatui + crossterm, a 250 ms clock tick), alone and with 4 or 8
/// recordings at once on 2 cores (25 ms; 10 ms caught a half-drawn first frame once in 50
/// there). The margin is for CI machines busier than that one. In `auto` mode it is the
/// fallback for a program that is not seen waiting.
pub const DEFAULT_SETTLE: Duration = Duration::from_millis(50);

/// When a checkpoint is marked: the rule of `settle =` in a scenario (see `settle.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    /// `auto` (`auto:PERIOD`): as soon as the screen is unchanged and the program is seen
    /// waiting for input (its process tree asleep in reads and polls, nothing in flight in
    /// the terminal), confirmed by a second look a few milliseconds later; the quiet rule
    /// with this period where that cannot be seen (other systems, a program that never
    /// waits).
    Auto(Duration),
    /// `quiet:PERIOD` (or a bare duration, `200ms`): once the screen has not changed for
    /// the period.
    Quiet(Duration),
}

impl Settle {
    /// The rule when nothing chooses one: `auto` with [`DEFAULT_SETTLE`].
    pub const DEFAULT: Settle = Settle::Auto(DEFAULT_SETTLE);

    /// The quiet period (in `auto` mode, the fallback's).
    pub fn period(self) -> Duration {
        match self {
            Settle::Auto(d) | Settle::Quiet(d) => d,
        }
    }

    /// Whether the program's state is looked at (`auto`).
    pub fn is_auto(self) -> bool {
        matches!(self, Settle::Auto(_))
    }
}

impl fmt::Display for Settle {
    /// `auto:50ms`, `quiet:200ms`: the spelling `settle =` reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Settle::Auto(d) => write!(f, "auto:{}ms", d.as_millis()),
            Settle::Quiet(d) => write!(f, "quiet:{}ms", d.as_millis()),
        }
    }
}

/// The program a scenario runs.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Program {
    /// An argv (never empty).
    Argv(Vec<String>),
    /// A script run by `bash -c`.
    Shell(String),
    /// The cargo package's own binary (`bin = "todoapp"`), with arguments: found or built
    /// when the recording starts (see [`cargo_bin`](super::cargo_bin)).
    Bin {
        /// The `[[bin]]` target's name.
        name: String,
        /// Its arguments.
        args: Vec<String>,
        /// Where to look for the package: the scenario's folder.
        from: PathBuf,
    },
}

impl Program {
    /// The argv that runs it; a `bin` is located (or built) now.
    pub fn argv(&self) -> Result<Vec<String>, super::cargo_bin::BinError> {
        Ok(match self {
            Program::Argv(a) => a.clone(),
            Program::Shell(s) => vec!["bash".into(), "-c".into(), s.clone()],
            Program::Bin { name, args, from } => {
                let exe = super::cargo_bin::locate(name, from)?;
                std::iter::once(exe.to_string_lossy().into_owned())
                    .chain(args.iter().cloned())
                    .collect()
            }
        })
    }
}

/// One step: an action, an optional timeout of its wait or exit, and where it was written.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Step {
    /// What the step does.
    pub action: Action,
    /// The timeout of this step's wait or exit, overriding the scenario's.
    pub timeout: Option<Duration>,
    /// The settle rule of this snapshot step, overriding the scenario's.
    pub settle: Option<Settle>,
    /// Where the step was written (`None`: built in code).
    pub origin: Option<Origin>,
}

/// What a step does.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Action {
    /// Wait for something on the screen.
    Wait(Wait),
    /// Press keys, by name, in order (names [`key_bytes`](super::keys::key_bytes) knows).
    Press(Vec<String>),
    /// Type text.
    Type(String),
    /// Mark a checkpoint with this (non-empty) name, once the screen has settled (see
    /// `Session::wait_settled`).
    Snapshot(String),
    /// Type the secret held by this environment variable of tuicast (read when the
    /// recording starts, never written to the cast).
    Secret(String),
    /// Resize the terminal.
    Resize(Size),
    /// Wait for the program to end; check its status when given.
    Exit(Option<i32>),
    /// Let time pass.
    Sleep(Duration),
    /// Click a button (press and release) on a target.
    Click(Target, MouseButton),
    /// Press a button on one target, move to another and release it there.
    Drag {
        /// Where the button goes down.
        from: Target,
        /// Where it comes up.
        to: Target,
        /// The button.
        button: MouseButton,
    },
    /// Turn the wheel over a target, this many notches (1 to [`MAX_SCROLL`]), one report each.
    Scroll(ScrollDirection, Target, u16),
    /// Move the pointer over a target with no button down (needs any-event tracking).
    Hover(Target),
    /// Paste text: bracketed (`CSI 200 ~` … `CSI 201 ~`) when the program enabled bracketed
    /// paste, typed as it is otherwise.
    Paste(String),
    /// The terminal window gains (`true`) or loses focus (needs focus reporting, 1004).
    Focus(bool),
}

impl Action {
    /// Whether the step sends the program input: keys, text, a secret, a resize, the mouse, a
    /// paste or focus.
    pub fn is_input(&self) -> bool {
        match self {
            Action::Press(_)
            | Action::Type(_)
            | Action::Secret(_)
            | Action::Resize(_)
            | Action::Click(..)
            | Action::Drag { .. }
            | Action::Scroll(..)
            | Action::Hover(_)
            | Action::Paste(_)
            | Action::Focus(_) => true,
            Action::Wait(_) | Action::Snapshot(_) | Action::Exit(_) | Action::Sleep(_) => false,
        }
    }

    /// The mouse targets the step points at: none but a mouse step's.
    pub(crate) fn targets(&self) -> Vec<&Target> {
        match self {
            Action::Click(t, _) | Action::Hover(t) | Action::Scroll(_, t, _) => vec![t],
            Action::Drag { from, to, .. } => vec![from, to],
            Action::Wait(_)
            | Action::Press(_)
            | Action::Type(_)
            | Action::Snapshot(_)
            | Action::Secret(_)
            | Action::Resize(_)
            | Action::Exit(_)
            | Action::Sleep(_)
            | Action::Paste(_)
            | Action::Focus(_) => Vec::new(),
        }
    }
}

/// The most notches one scroll step turns the wheel.
pub const MAX_SCROLL: u16 = 1000;

/// Where on the screen a mouse step points: the centre of what it names.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Target {
    /// The first place (in reading order) this text is on the screen.
    Text(String),
    /// The first match of this regex on a row.
    Regex(Regex),
    /// A named region (a `[regions]` entry of the cast's TOML or of `tuicast.toml`), fixed
    /// or anchored by content, found on the screen of the moment: the centre of the first
    /// rectangle it finds.
    Region(String, Anchor),
    /// One cell.
    Cell(Point),
}

impl fmt::Display for Target {
    /// `"OK"`, `/regex/`, `region menu`, `row 3, column 5` (from 1), text escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |t: &str| crate::escape::escape_for_terminal(t, 60);
        match self {
            Target::Text(t) => write!(f, "\"{}\"", shown(t)),
            Target::Regex(r) => write!(f, "/{}/", shown(r.as_str())),
            Target::Region(s, Anchor::Ref(_)) => write!(f, "ref {}", shown(s)),
            Target::Region(name, _) => write!(f, "region {}", shown(name)),
            Target::Cell(p) => write!(f, "{}", p.place()),
        }
    }
}

/// What a wait step waits for.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Wait {
    /// Text on the screen.
    Text(String),
    /// A match of a regex in the screen text.
    Regex(Regex),
    /// No change of the screen for this long, counted from the later of the last input and
    /// the last change (output that changes nothing does not count).
    Idle(Duration),
    /// Text no longer on the screen.
    Gone(String),
    /// The cursor at this cell.
    Cursor(Point),
    /// The terminal's echo on (`true`) or off (`false`: a password prompt).
    Echo(bool),
    /// A window title (OSC 0 or 2) containing this text.
    Title(String),
    /// A bell rung since the last checkpoint that no earlier bell wait took.
    Bell,
    /// A clipboard write (OSC 52) since the last checkpoint whose text contains this.
    Clipboard(String),
    /// The shell said a command ended (an OSC 133 `D` mark closing a `C`) that no earlier
    /// such wait took: a shell with its marks turned on (docs/agents.md, "Shell marks (OSC 133)").
    CommandDone,
    /// The program waits at a prompt of this kind (`inspect::classify` over the screen and
    /// the echo flag: a `[y/N]` question, a password, a pager, …).
    Prompt(crate::inspect::PromptKind),
    /// The program waits at a prompt of any kind the classifier knows (not `unknown`).
    AnyPrompt,
    /// Nothing changed and nothing was written for this long: no change of the screen and
    /// no output at all (a program that rewrites the same screen is not silent), counted
    /// from the later of the last input, the last change and the last output.
    Silent(Duration),
    /// The screen (secrets starred) differs from the one with this hash
    /// ([`Screen::hash_hex`](crate::term::Screen::hash_hex)); at once when it differs already.
    Changed(String),
    /// A ref a selector finds is on the screen (or, `gone`, none is).
    Ref(RefWait),
}

/// A wait on refs: until the selector finds one (or, `gone`, finds none).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RefWait {
    /// What to find.
    pub selector: crate::inspect::Selector,
    /// Until it finds nothing.
    pub gone: bool,
    /// The adapters its refs may come from.
    pub adapters: std::sync::Arc<crate::inspect::Adapters>,
    /// The regions `@region("NAME")` may name.
    pub regions: BTreeMap<String, Anchor>,
}

impl RefWait {
    /// A wait for `selector` (`gone`: for it to find nothing) over `adapters` and `regions`.
    pub fn new(
        selector: crate::inspect::Selector,
        gone: bool,
        adapters: std::sync::Arc<crate::inspect::Adapters>,
        regions: BTreeMap<String, Anchor>,
    ) -> RefWait {
        RefWait {
            selector,
            gone,
            adapters,
            regions,
        }
    }

    /// The refs it finds on `screen` of `program`, or the error of an adapter it asks
    /// ([`crate::inspect::select`]).
    pub fn find(
        &self,
        screen: &crate::term::Screen,
        program: Option<&str>,
    ) -> Result<Vec<crate::inspect::Ref>, crate::inspect::AdapterError> {
        let cx = crate::inspect::RefContext::new(&self.adapters)
            .regions(&self.regions)
            .program(program);
        crate::inspect::select(&self.selector, screen, &cx)
    }
}

/// A place in a scenario file: `path:line:column` (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Origin {
    /// The file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: u64,
    /// 1-based character column.
    pub column: u64,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::location::write_place(f, Some(&self.path), self.line, self.column)
    }
}

impl Scenario {
    /// A scenario running `program` in `cwd`, with no steps and every default.
    pub fn new(program: Program, cwd: &Path) -> Scenario {
        Scenario {
            source: None,
            program,
            cwd: cwd.to_path_buf(),
            size: None,
            env: BTreeMap::new(),
            inherit_env: Vec::new(),
            timeout: None,
            settle: None,
            title: None,
            redact: Vec::new(),
            steps: Vec::new(),
            terminal: EngineOptions::default(),
            masks: Vec::new(),
            regions: Vec::new(),
            live: None,
            fail_fast: None,
            in_place: false,
        }
    }
}

/// Programs that run the file named by their first argument (`python3 app.py`).
const INTERPRETERS: &[&str] = &[
    "bash", "sh", "zsh", "fish", "dash", "python", "python3", "node", "deno", "bun", "ruby",
    "perl", "php", "lua", "tclsh", "Rscript", "uv", "poetry",
];

/// File names that are programs of the project when a scenario runs them.
const SCRIPT_EXTENSIONS: &[&str] = &[
    "py", "js", "mjs", "cjs", "ts", "sh", "rb", "pl", "php", "lua",
];

impl Scenario {
    /// The project's own files this scenario's program runs, relative to its working
    /// folder: the package's binary is `bin =`; besides, a `command` or `shell` whose program
    /// is a relative path (`./script.sh`, `bin/tool`), or an interpreter's script
    /// (`python3 app.py`, `node cli.js`), or any word of a shell script that names a script
    /// file there (`cd src && python3 -m x` names none; `python3 app.py --flag` names
    /// `app.py`). Only files that exist; an absolute path only in the folder above the
    /// scenario's (a system program is not the project's).
    pub fn project_files(&self) -> Vec<PathBuf> {
        let words: Vec<String> = match &self.program {
            Program::Bin { .. } => return Vec::new(),
            Program::Argv(argv) => argv.clone(),
            Program::Shell(script) => script
                .split(|c: char| c.is_whitespace() || ";&|()'\"".contains(c))
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect(),
        };
        let project = self
            .source
            .as_deref()
            .and_then(|s| {
                crate::util::resolved(s)
                    .parent()?
                    .parent()
                    .map(Path::to_path_buf)
            })
            .filter(|p| p.parent().is_some());
        let mut out: Vec<PathBuf> = Vec::new();
        let mut after_interpreter = false;
        for (i, word) in words.iter().enumerate() {
            let base = Path::new(word.as_str())
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("");
            // What runs: the program itself (a path to it) or an interpreter's script; a data
            // file a command reads or writes (`echo x >> log/out.txt`) is not code.
            let program = i == 0 && word.contains('/');
            let script = Path::new(word.as_str())
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| SCRIPT_EXTENSIONS.contains(&e));
            if !word.starts_with('-') && (program || after_interpreter || script) {
                let path = self.cwd.join(word);
                // A relative path is the project's; so is an absolute one in the folder
                // above the scenario's (`command = ["./run.sh"]` is made absolute when read).
                let ours = !Path::new(word.as_str()).is_absolute()
                    || project.as_deref().is_some_and(|p| path.starts_with(p));
                if ours && path.is_file() {
                    let path = crate::util::resolved(&path);
                    if !out.contains(&path) {
                        out.push(path);
                    }
                }
            }
            if !word.starts_with('-') {
                after_interpreter = INTERPRETERS.contains(&base);
            }
        }
        out
    }

    /// Whether the program is the project's own code: `live =` when the scenario (or the
    /// project) says, else `bin =` or a command that runs [project files](Self::project_files).
    /// Replaying last month's cast of today's code tests nothing, so such scenarios are
    /// recorded live by default.
    pub fn runs_project_code(&self) -> bool {
        self.live.unwrap_or_else(|| {
            matches!(self.program, Program::Bin { .. }) || !self.project_files().is_empty()
        })
    }
}

impl Step {
    /// A step doing `action`, with no timeout of its own and no place.
    pub fn new(action: Action) -> Step {
        Step {
            action,
            timeout: None,
            settle: None,
            origin: None,
        }
    }

    /// What the step does, for progress lines (text from the scenario escaped).
    pub fn describe(&self) -> String {
        let shown = |t: &str| crate::escape::escape_for_terminal(t, 60);
        match &self.action {
            Action::Wait(Wait::Text(t)) => format!("wait for \"{}\"", shown(t)),
            Action::Wait(Wait::Regex(r)) => format!("wait for /{}/", shown(r.as_str())),
            Action::Wait(Wait::Idle(d)) => {
                format!("wait for {} ms without a screen change", d.as_millis())
            }
            Action::Wait(Wait::Gone(t)) => format!("wait for \"{}\" to go", shown(t)),
            Action::Wait(Wait::Cursor(p)) => format!("wait for the cursor at {}", p.place()),
            Action::Wait(Wait::Echo(false)) => "wait for echo off".into(),
            Action::Wait(Wait::Echo(true)) => "wait for echo on".into(),
            Action::Wait(Wait::Title(t)) => format!("wait for the title \"{}\"", shown(t)),
            Action::Wait(Wait::Bell) => "wait for a bell".into(),
            Action::Wait(Wait::CommandDone) => "wait for the shell's command to end".into(),
            Action::Wait(Wait::Clipboard(t)) => {
                format!("wait for a clipboard write \"{}\"", shown(t))
            }
            Action::Wait(Wait::Prompt(kind)) => format!("wait for a {} prompt", kind.name()),
            Action::Wait(Wait::AnyPrompt) => "wait for a prompt".into(),
            Action::Wait(Wait::Silent(d)) => {
                format!("wait for {} ms without output", d.as_millis())
            }
            Action::Wait(Wait::Changed(h)) => {
                format!("wait for the screen to change from {}", shown(h))
            }
            Action::Wait(Wait::Ref(r)) if r.gone => {
                format!("wait for {} to be gone", shown(r.selector.as_str()))
            }
            Action::Wait(Wait::Ref(r)) => format!("wait for {}", shown(r.selector.as_str())),
            Action::Press(k) => format!("press {}", shown(&k.join(" "))),
            Action::Type(t) => format!("type \"{}\"", shown(t)),
            Action::Snapshot(s) => format!("snapshot {}", shown(s)),
            Action::Secret(name) => format!("type secret {}", shown(name)),
            Action::Resize(s) => format!("resize to {s}"),
            Action::Exit(Some(c)) => format!("wait for exit {c}"),
            Action::Exit(None) => "wait for exit".into(),
            Action::Sleep(d) => format!("sleep {} ms", d.as_millis()),
            Action::Click(t, MouseButton::Left) => format!("click {t}"),
            Action::Click(t, b) => format!("{}-click {t}", b.name()),
            Action::Drag { from, to, button } => {
                format!("drag ({} button) from {from} to {to}", button.name())
            }
            Action::Scroll(d, t, 1) => format!("scroll {} at {t}", d.name()),
            Action::Scroll(d, t, n) => format!("scroll {} {n} notches at {t}", d.name()),
            Action::Hover(t) => format!("hover over {t}"),
            Action::Paste(t) => format!("paste \"{}\"", shown(t)),
            Action::Focus(true) => "focus in".into(),
            Action::Focus(false) => "focus out".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_steps_are_those_that_reach_the_program() {
        let size = crate::term::Size { cols: 80, rows: 24 };
        assert!(Action::Press(vec!["a".into()]).is_input());
        assert!(Action::Resize(size).is_input());
        assert!(Action::Focus(true).is_input());
        for quiet in [
            Action::Snapshot("x".into()),
            Action::Exit(None),
            Action::Sleep(std::time::Duration::ZERO),
        ] {
            assert!(!quiet.is_input(), "{quiet:?}");
        }
    }
}
