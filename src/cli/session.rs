//! `tuicast session`: drive a live program one command at a time through the session daemon
//! (`tuicast::daemon`), and save what was done as a cast and its scenario.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use serde_json::Value;

use tuicast::config::{parse_duration, step_toml};
use tuicast::daemon::{
    self,
    protocol::{Reply, Request},
    Paths,
};
use tuicast::escape::escape_for_terminal;
use tuicast::record::{Action, Step};
use tuicast::size::Size;

/// Drive a live program step by step (for agents, scripts and people), then keep it as a test.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast session start --name demo -- bash --norc   start; prints the session as JSON\n  \
    tuicast session wait demo --text '$'              wait for the prompt\n  \
    tuicast session type demo 'echo hello'\n  \
    tuicast session press demo Enter\n  \
    tuicast session wait demo --regex '(?m)^hello$' --timeout 5s\n  \
    tuicast session snapshot demo --mark greeted      a checkpoint of the scenario\n  \
    tuicast session secret demo --env TUICAST_SECRET_X typed from the DAEMON's environment\n  \
    tuicast session click demo --text OK              encoded for the program's mouse mode\n  \
    tuicast session click demo --region ok            a region of ./tuicast.toml's [regions]\n  \
    tuicast session paste demo 'two\nlines'           bracketed when the program asked\n  \
    tuicast session step demo '{ drag = { from = [2, 1], to = [2, 9] } }'\n  \
    tuicast session events demo                   JSON lines of every change until it ends\n  \
    tuicast session attach demo                   watch it here; t takes over, q detaches\n  \
    tuicast session stop demo --save casts/demo       casts/demo.cast + casts/demo.toml\n  \
    tuicast session list --human\n\n\
    Every command prints one JSON object (see docs/agents.md); --human prints it for people.\n\
    The daemon starts with the first command and exits after --idle (TUICAST_SESSION_IDLE,\n\
    default 10m) without a command. Exit status: 0 done, 1 a wait failed, 2 bad input.")]
pub(super) struct Args {
    /// Print for people instead of JSON.
    #[arg(long, global = true)]
    human: bool,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, clap::Subcommand)]
pub(super) enum Cmd {
    /// Start a program in a new session; prints its id.
    #[command(after_help = "Examples:\n  \
    tuicast session start -- bash --norc          prints the session as JSON; id s1\n  \
    tuicast session start --name vim --size 100x30 -- vim notes.txt\n  \
    tuicast session start --timeout 30s -- ./slow-app\n  \
    tuicast session start --max-cast 1MiB -- ./chatty-app   fails past 1 MiB of cast")]
    Start {
        /// The session's id (default: s1, s2, ...).
        #[arg(long)]
        name: Option<String>,
        /// Terminal size.
        #[arg(long, default_value = "80x24", value_name = "COLSxROWS")]
        size: String,
        /// Default timeout of the session's waits.
        #[arg(long, value_name = "DURATION")]
        timeout: Option<String>,
        /// When this command starts the daemon: how long it waits for a command before it
        /// ends its sessions and exits.
        #[arg(long, value_name = "DURATION")]
        idle: Option<String>,
        /// The most the session's cast may hold (`1MiB`, `500KiB`, `2GiB`, bytes): past it
        /// the session fails and the program's output is read no further.
        #[arg(long, value_name = "SIZE", default_value = "64MiB")]
        max_cast: String,
        /// The program and its arguments.
        #[arg(last = true, required = true, value_name = "CMD")]
        command: Vec<String>,
    },
    /// Type text (from the argument, or with --stdin from standard input: any length up to
    /// 1 MiB, where an argument stops at the system's limit).
    #[command(after_help = "Examples:\n  \
    tuicast session type s1 'echo hello'\n  \
    printf 'a long text' | tuicast session type s1 --stdin")]
    Type {
        /// The session: its id, or the name given to start.
        id: String,
        /// The text.
        #[arg(required_unless_present = "stdin")]
        text: Option<String>,
        /// Read the text from standard input instead.
        #[arg(long, conflicts_with = "text")]
        stdin: bool,
    },
    /// Press keys by name (Enter, Esc, C-c, Up, F1, a, ...).
    #[command(after_help = "Examples:\n  \
    tuicast session press s1 Enter\n  \
    tuicast session press vim Esc : w q Enter   keys in order\n  \
    tuicast session press s1 C-c")]
    Press {
        /// The session: its id, or the name given to start.
        id: String,
        /// Key names, pressed in order.
        #[arg(required = true)]
        keys: Vec<String>,
    },
    /// Resize the terminal.
    #[command(after_help = "Examples:\n  \
    tuicast session resize s1 120x40")]
    Resize {
        /// The session: its id, or the name given to start.
        id: String,
        /// The new size.
        #[arg(value_name = "COLSxROWS")]
        size: String,
    },
    /// Type the value of an environment variable of the DAEMON, as a secret: it is never in
    /// a reply, the cast, the scenario or the daemon's log.
    #[command(after_help = "Examples:\n  \
    TUICAST_SECRET_PW=... tuicast session start -- ./login   the daemon's environment\n  \
    tuicast session secret s1 --env TUICAST_SECRET_PW")]
    Secret {
        /// The session: its id, or the name given to start.
        id: String,
        /// The variable.
        #[arg(long, value_name = "VAR")]
        env: String,
    },
    /// Paste text (bracketed when the program enabled bracketed paste, typed otherwise;
    /// with --stdin from standard input, up to 1 MiB).
    #[command(after_help = "Examples:\n  \
    tuicast session paste s1 $'two\\nlines'     bracketed when the program asked\n  \
    tuicast session paste s1 --stdin < snippet.py")]
    Paste {
        /// The session: its id, or the name given to start.
        id: String,
        /// The text.
        #[arg(required_unless_present = "stdin")]
        text: Option<String>,
        /// Read the text from standard input instead.
        #[arg(long, conflicts_with = "text")]
        stdin: bool,
    },
    /// Click a mouse button on a target (encoded for the mouse mode the program enabled).
    #[command(after_help = "Examples:\n  \
    tuicast session click s1 --text OK\n  \
    tuicast session click s1 --at 3,10 --button right\n  \
    tuicast session click s1 --region ok         a region of ./tuicast.toml")]
    Click {
        /// The session: its id, or the name given to start.
        id: String,
        #[command(flatten)]
        target: TargetArgs,
        /// left, middle or right.
        #[arg(long, default_value = "left")]
        button: String,
    },
    /// Turn the mouse wheel over a target.
    #[command(after_help = "Examples:\n  \
    tuicast session scroll s1 down --count 3\n  \
    tuicast session scroll s1 up --text 'Log'")]
    Scroll {
        /// The session: its id, or the name given to start.
        id: String,
        /// up or down.
        #[arg(value_name = "up|down")]
        direction: String,
        #[command(flatten)]
        target: TargetArgs,
        /// Notches.
        #[arg(long, default_value_t = 1)]
        count: u16,
    },
    /// Tell the program its window gained (on) or lost (off) focus (needs focus reporting).
    #[command(after_help = "Examples:\n  \
    tuicast session focus s1 off\n  \
    tuicast session focus s1 on")]
    Focus {
        /// The session: its id, or the name given to start.
        id: String,
        #[arg(value_name = "on|off")]
        state: String,
    },
    /// Run any scenario step, written as in a scenario file: '{ drag = { from = [2, 1], to =
    /// [2, 9] } }', '{ hover = { text = "Help" } }', '{ wait = { title = "vim" } }'.
    #[command(after_help = "Examples:\n  \
    tuicast session step s1 '{ drag = { from = [2, 1], to = [2, 9] } }'\n  \
    tuicast session step s1 '{ wait = { title = \"vim\" } }'")]
    Step {
        /// The session: its id, or the name given to start.
        id: String,
        /// The step, an inline TOML table.
        step: String,
    },
    /// Wait for something: exactly one of the kinds below.
    #[command(after_help = "Examples:\n  \
    tuicast session wait s1 --text '$'\n  \
    tuicast session wait s1 --regex '(?m)^hello$' --timeout 5s\n  \
    tuicast session wait s1 --prompt yesno\n  \
    tuicast session wait s1 --prompt any          any prompt the classifier knows\n  \
    tuicast session wait s1 --idle 300ms          no output and no change for 300 ms\n  \
    tuicast session wait s1 --changed 3f9a0c1d2b4e5f60   the screen_hash of an earlier reply\n  \
    tuicast session wait s1 --exit 0")]
    Wait(WaitArgs),
    /// The screen now (and, with --mark, a checkpoint of the saved scenario).
    #[command(after_help = "Examples:\n  \
    tuicast session snapshot s1\n  \
    tuicast session snapshot s1 --mark greeted    a checkpoint of the saved scenario\n  \
    tuicast session snapshot s1 --format png -o screen.png")]
    Snapshot {
        /// The session: its id, or the name given to start.
        id: String,
        /// text, json (the screen with styles) or png (needs --output).
        #[arg(long, default_value = "text")]
        format: String,
        /// Mark a checkpoint NAME on the settled screen.
        #[arg(long, value_name = "NAME")]
        mark: Option<String>,
        /// Write the render (text, JSON or PNG) to this file too.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Check the settled screen against the screen golden NAME of the project here
    /// (`snapshots/@screens/NAME.txt`, as `tuicast::assert_screen!` does), with the update
    /// modes of TUICAST_UPDATE; a change fails (exit 1) with the diff, and writes `.new`
    /// for `tuicast review` / `accept`.
    #[command(after_help = "Examples:\n  \
    tuicast session check s1 home                  snapshots/@screens/home.txt\n  \
    TUICAST_UPDATE=always tuicast session check s1 home   write the golden")]
    Check {
        /// The session: its id, or the name given to start.
        id: String,
        /// The golden's name.
        name: String,
    },
    /// The screen's outline and prompt (as `tuicast inspect`).
    #[command(after_help = "Examples:\n  \
    tuicast session inspect s1\n  \
    tuicast session inspect s1 --human")]
    Inspect {
        /// The session: its id, or the name given to start.
        id: String,
    },
    /// The session's status and screen.
    #[command(after_help = "Examples:\n  \
    tuicast session status s1")]
    Status {
        /// The session: its id, or the name given to start.
        id: String,
    },
    /// The sessions.
    #[command(after_help = "Examples:\n  \
    tuicast session list\n  \
    tuicast session list --human")]
    List,
    /// End the session; --save casts/NAME writes casts/NAME.cast and casts/NAME.toml.
    #[command(after_help = "Examples:\n  \
    tuicast session stop s1\n  \
    tuicast session stop s1 --save casts/greeting   writes casts/greeting.cast and .toml\n  \
    tuicast session stop s1 --save casts/greeting --force")]
    Stop {
        /// The session: its id, or the name given to start.
        id: String,
        /// Where to save the cast and the scenario that reproduces the session.
        #[arg(long, value_name = "PATH")]
        save: Option<PathBuf>,
        /// Write over a cast or TOML file that is there already (a scenario written by
        /// hand, `tuicast.toml`, `Cargo.toml`): without it such a file is refused.
        #[arg(long, requires = "save")]
        force: bool,
    },
    /// Stream what happens in a session as JSON lines until it ends.
    ///
    /// Every screen change (its hash, the rectangle that changed, the new text of the rows that changed), the
    /// title, bells, the prompt, a person holding it, its exit. The current state comes
    /// first. Several watchers may watch at once; one that reads too slowly is sent a `lost`
    /// event and the state again, never slowing the session.
    #[command(
        after_help = "The event types and fields are in docs/agents.md; `tuicast schema\n\
    session-event` prints their schema. Exit status: 0 when the session ended (the `exit`\n\
    event is the last line), 1 when the daemon went first, 2 when there is no such session.\n\n\
    Examples:\n  \
    tuicast session events demo                   JSON lines until the session ends\n  \
    tuicast session events demo --since 41        only what came after event 41\n  \
    tuicast session events demo --human           a line per event for people\n  \
    tuicast session events demo | jq -c 'select(.type == \"bell\")'"
    )]
    Events {
        /// The session: its id, or the name given to start.
        id: String,
        /// Only the events after this one (when the daemon still keeps them; else a `lost`
        /// event and the current state).
        #[arg(long, value_name = "SEQ")]
        since: Option<u64>,
    },
    /// Show a live session in this terminal, read-only; take its input over to help, then
    /// give it back.
    #[command(
        after_help = "Keys while watching: t takes the input over, q or Ctrl-\\ detaches. While holding the\n\
    input, every key goes to the program as typed; Ctrl-] gives it back to the agent and\n\
    Ctrl-\\ gives it back and detaches. While a person holds a session, agents' input\n\
    commands (type, press, paste, ..., stop) fail with \"held by a person via attach\";\n\
    waits, snapshot, inspect and status still work. The screen is drawn as text (no\n\
    colours), redrawn on every change; a terminal smaller than the session shows a cut.\n\n\
    Examples:\n  \
    tuicast session attach demo                   watch; q or Ctrl-\\ detaches\n  \
    tuicast session attach demo --take            keys go to the program at once"
    )]
    Attach {
        /// The session: its id, or the name given to start.
        id: String,
        /// Take the input over at once.
        #[arg(long)]
        take: bool,
    },
    /// Run the daemon in the foreground (started by the other commands when none runs).
    #[command(hide = true)]
    Daemon {
        #[arg(long)]
        idle: Option<String>,
    },
    /// The daemon's watch: when its standard input ends (the daemon is gone, even by
    /// SIGKILL), end what the daemon's sessions left running.
    #[command(hide = true)]
    Watch,
}

/// Where a mouse command points: exactly one of these.
#[derive(Debug, clap::Args)]
#[group(required = true, multiple = false)]
pub(super) struct TargetArgs {
    /// The centre of the first place this text is on the screen.
    #[arg(long)]
    text: Option<String>,
    /// The centre of the first match of this regex on a row.
    #[arg(long)]
    regex: Option<String>,
    /// The cell at ROW,COL (counted from 1).
    #[arg(long, value_name = "ROW,COL")]
    at: Option<String>,
    /// The centre of a region of the `[regions]` in the tuicast.toml of the folder the
    /// session started in (fixed, or anchored by content and found on the screen of the
    /// moment).
    #[arg(long, value_name = "NAME")]
    region: Option<String>,
}

impl TargetArgs {
    /// The target as a scenario writes it (the daemon reads it as a scenario's).
    fn toml(&self) -> anyhow::Result<String> {
        use toml::Value as V;
        let table = |key: &str, value: &str| {
            let mut t = toml::Table::new();
            t.insert(key.into(), V::String(value.into()));
            V::Table(t)
        };
        Ok(if let Some(t) = &self.text {
            table("text", t)
        } else if let Some(r) = &self.regex {
            table("regex", r)
        } else if let Some(at) = &self.at {
            cell(at, "--at")?
        } else if let Some(name) = &self.region {
            table("region", name)
        } else {
            bail!("give one of --text, --regex, --at, --region")
        }
        .to_string())
    }
}

/// `ROW,COL` as the `[row, col]` of a scenario, which checks that both count from 1.
fn cell(text: &str, flag: &str) -> anyhow::Result<toml::Value> {
    let parsed = text.split_once(',').and_then(|(r, c)| {
        let n = |s: &str| s.trim().parse::<u16>().ok();
        Some([n(r)?, n(c)?])
    });
    match parsed {
        Some(pair) => Ok(toml::Value::Array(
            pair.iter()
                .map(|&n| toml::Value::Integer(n.into()))
                .collect(),
        )),
        None => bail!("{flag} takes ROW,COL counted from 1 (the top-left cell is 1,1)"),
    }
}

/// The arguments of `session wait`, and (the same type, read from JSON) the input of
/// `tuicast mcp`'s `session_wait`: one source for the flags and the tool's input schema.
#[derive(Debug, clap::Args, serde::Deserialize, schemars::JsonSchema)]
#[command(group = clap::ArgGroup::new("kind").multiple(false))]
#[serde(deny_unknown_fields)]
pub(super) struct WaitArgs {
    /// The session: its id, or the name given to start.
    id: String,
    /// Until the text is on the screen.
    #[arg(long, group = "kind")]
    text: Option<String>,
    /// Until the regex matches the screen text (rows joined by newlines).
    #[arg(long, group = "kind")]
    regex: Option<String>,
    /// Until the text is gone; without TEXT, after --ref: until no ref the selector finds
    /// is there.
    #[arg(long, value_name = "TEXT", num_args = 0..=1)]
    gone: Option<Option<String>>,
    /// Until a ref the selector finds is on the screen: `@vim.mode[value=insert]`,
    /// `@dialog.button("Yes")[focused]`, `@box("Todos") >> @list.selected` (docs/agents.md,
    /// "Refs and selectors"; `session inspect` lists the refs).
    #[arg(long = "ref", group = "kind", value_name = "SELECTOR")]
    #[serde(rename = "ref")]
    reference: Option<String>,
    /// Until nothing changed and nothing was written for this long: no screen change and
    /// no output at all (a program that keeps writing is never idle, even when its screen
    /// looks the same).
    #[arg(long, group = "kind", value_name = "DURATION")]
    idle: Option<String>,
    /// Until the screen's hash differs from HASH (the `screen_hash` of an earlier reply); at
    /// once when it differs already.
    #[arg(long, group = "kind", value_name = "HASH")]
    changed: Option<String>,
    /// Until the cursor is at ROW,COL (counted from 1).
    #[arg(long, group = "kind", value_name = "ROW,COL")]
    cursor: Option<String>,
    /// Until the terminal's echo is on or off (off: a password prompt).
    #[arg(long, group = "kind", value_name = "on|off")]
    echo: Option<String>,
    /// Until the program exits (with this status when given).
    #[arg(long, group = "kind", value_name = "STATUS", num_args = 0..=1, default_missing_value = "any")]
    exit: Option<String>,
    /// Until the window title contains this text.
    #[arg(long, group = "kind")]
    title: Option<String>,
    /// Until a bell rings (one bell since the last checkpoint per wait).
    #[arg(long, group = "kind")]
    #[serde(default)]
    bell: bool,
    /// Until the shell says a command ended (its OSC 133 mark; one end per wait): the reply
    /// gives the command's status and output.
    #[arg(long, group = "kind")]
    #[serde(default)]
    command_done: bool,
    /// Until the program writes text containing this to the clipboard (OSC 52).
    #[arg(long, group = "kind")]
    clipboard: Option<String>,
    /// Until the program waits at a prompt of this kind (yesno, select, password, text,
    /// pager, confirm, shell, or any of them: any), as `inspect` classifies it.
    #[arg(long, group = "kind", value_name = "KIND")]
    prompt: Option<String>,
    /// How long to wait (default: the session's timeout).
    #[arg(long, value_name = "DURATION")]
    timeout: Option<String>,
}

impl WaitArgs {
    /// The step this wait is, as a scenario writes it: the daemon reads it with the scenario's
    /// own parser (`config::parse_step`), whose wording its errors have. `--idle` is the wait
    /// `silent`, `--exit` an `exit` step, `--gone` alone `gone = true`.
    fn step_toml(self) -> anyhow::Result<String> {
        use toml::Value as V;
        let mut wait = toml::Table::new();
        let mut put = |key: &str, value: Option<V>| {
            if let Some(v) = value {
                wait.insert(key.into(), v);
            }
        };
        put("text", self.text.map(V::String));
        put("regex", self.regex.map(V::String));
        put("ref", self.reference.map(V::String));
        put(
            "gone",
            self.gone.map(|g| g.map_or(V::Boolean(true), V::String)),
        );
        put("silent", self.idle.map(V::String));
        put("changed", self.changed.map(V::String));
        put(
            "cursor",
            self.cursor.map(|c| cell(&c, "--cursor")).transpose()?,
        );
        let echo = match self.echo.as_deref() {
            None => None,
            Some("on") => Some(true),
            Some("off") => Some(false),
            Some(_) => bail!("--echo takes on or off"),
        };
        put("echo", echo.map(V::Boolean));
        put("title", self.title.map(V::String));
        put("bell", self.bell.then_some(V::Boolean(true)));
        put(
            "command_done",
            self.command_done.then_some(V::Boolean(true)),
        );
        put("clipboard", self.clipboard.map(V::String));
        put("prompt", self.prompt.map(V::String));
        let mut step = toml::Table::new();
        if !wait.is_empty() {
            step.insert("wait".into(), V::Table(wait));
        }
        if let Some(x) = self.exit {
            // A number is a status; "any" (or any other word, which the scenario refuses) as written.
            let status = x
                .parse::<i32>()
                .map_or(V::String(x), |n| V::Integer(n.into()));
            step.insert("exit".into(), status);
        }
        if step.is_empty() {
            bail!(
                "wait needs one of --text, --regex, --gone, --idle, --changed, --cursor, \
                 --echo, --exit, --title, --bell, --command-done, --clipboard, --prompt, --ref"
            );
        }
        if let Some(t) = self.timeout {
            step.insert("timeout".into(), V::String(t));
        }
        Ok(V::Table(step).to_string())
    }
}

pub(super) fn duration(text: &str) -> anyhow::Result<Duration> {
    parse_duration(text).map_err(anyhow::Error::msg)
}

/// Bad input as the one JSON reply every command gives: `error` and `exit` 2.
fn bad_input(e: &anyhow::Error, human: bool) -> anyhow::Result<ExitCode> {
    print(
        &Reply::error(super::message(e), super::EXIT_BAD_INPUT),
        human,
    )?;
    Ok(ExitCode::from(super::EXIT_BAD_INPUT))
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Cmd::Daemon { idle } = &args.command {
        return run_daemon(idle.as_deref());
    }
    if let Cmd::Watch = &args.command {
        let mut sink = Vec::new();
        let _ = std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut sink);
        tuicast::record::sweep_orphans();
        return Ok(ExitCode::SUCCESS);
    }
    let paths = Paths::for_user().context("cannot set up the session daemon's folder")?;
    if let Some(note) = &paths.passed_over {
        eprintln!("warning: {note}");
    }
    let mut idle_for_new = None;
    let human = args.human;
    match args.command {
        Cmd::Events { id, since } => return super::watch::events(&paths, id, since, human),
        Cmd::Attach { id, take } => {
            return match super::watch::attach(&paths, id, take, human) {
                Err(e) => bad_input(&e, human),
                ok => ok,
            }
        }
        _ => {}
    }
    // `check`: the daemon settles and gives the screen; the check runs here, in the project
    // of the working folder, with this command's TUICAST_UPDATE and CI.
    let check = match &args.command {
        Cmd::Check { name, .. } => match check_setup(name) {
            Ok(c) => Some(c),
            Err(e) => return bad_input(&e, human),
        },
        _ => None,
    };
    // Bad input (a regex that does not compile, an unknown prompt kind, a size of 0x0) is a
    // reply like any other: one JSON object with `error` and `exit`.
    let built = request_of(args.command, &mut idle_for_new);
    let request = match built {
        Ok(r) => r,
        Err(e) => return bad_input(&e, human),
    };
    let reply = send(&paths, &request, idle_for_new.as_deref());
    if let Some(check) = check {
        return check.finish(reply, human);
    }
    print(&reply, human)?;
    Ok(ExitCode::from(reply.exit))
}

/// Sends a request to the daemon of `paths` (started, with `idle` when given, if none runs)
/// and gives its reply: a daemon that could not be reached is a reply with `error` and exit
/// status 1, a daemon found gone is noted in `daemon_restarted`. `tuicast session` and
/// `tuicast mcp` both send through here.
pub(super) fn send(paths: &Paths, request: &Request, idle: Option<&str>) -> Reply {
    let start = || start_daemon(idle);
    let called = match daemon::call(paths, request, &start) {
        Ok(c) => c,
        Err(e) => {
            // The failure as data: no place and no screen, but what to do about it.
            let fix = match e.kind() {
                daemon::ClientErrorKind::Lost => {
                    "run the command again (a new daemon starts) and start the lost sessions again"
                        .to_string()
                }
                _ => format!(
                    "see the session daemon's log, {}; `tuicast session daemon` runs one in the \
                     foreground",
                    paths.log().display()
                ),
            };
            let mut reply = Reply::error(e.to_string(), super::EXIT_CHECK_FAILED);
            if let Some(f) = reply.failure.as_mut() {
                f.fix = Some(fix);
            }
            return reply;
        }
    };
    let mut reply = called.reply;
    if called.daemon_was_gone {
        let note = "the session daemon was gone (killed or crashed): its sessions were lost; \
                    a new daemon was started";
        reply.daemon_restarted = Some(note.to_string());
        if let Some(e) = &reply.error {
            let message = format!("{note}. {e}");
            // Not the request's fault (the session it names was lost): an error, with the
            // session to start again.
            let failure = tuicast::location::FailureJson::new(
                tuicast::location::FailureKind::Error,
                &message,
            )
            .fix("start the session again (`tuicast session start`): the daemon that held it was gone");
            reply.failure = Some(Box::new(failure));
            reply.error = Some(message);
            reply.exit = super::EXIT_CHECK_FAILED;
        }
    }
    reply
}

/// A `session check`: the golden's name, the project and what a mismatch may write.
struct ScreenCheck {
    name: String,
    root: PathBuf,
    golden: PathBuf,
    action: tuicast::assert::UpdateAction,
}

/// The `session check` of golden `name` in the project of the working folder (the one every
/// command finds, else the working folder); a broken `tuicast.toml` or `TUICAST_UPDATE`
/// is bad input.
fn check_setup(name: &str) -> anyhow::Result<ScreenCheck> {
    if name.is_empty() {
        bail!("the golden's name is empty");
    }
    let here = std::env::current_dir().context("the working folder")?;
    let root = tuicast::config::project_root(&here).unwrap_or(here);
    let config = tuicast::config::Config::load(&root)?;
    let golden = tuicast::assert::snapshot_path(
        &config.snapshots,
        tuicast::harness::SCREENS_DIR,
        name,
        "txt",
    );
    let action = tuicast::assert::UpdateMode::from_env()?.resolve_here();
    Ok(ScreenCheck {
        name: name.to_string(),
        root,
        golden,
        action,
    })
}

impl ScreenCheck {
    /// Checks the screen of the daemon's `reply` and prints the reply with `check`
    /// (`name`, `golden`, `passed`); a failure is the reply's `error` (exit 1) with the
    /// message `assert_screen!` gives, and its `failure` as data.
    fn finish(self, mut reply: Reply, human: bool) -> anyhow::Result<ExitCode> {
        let model = reply.model.take();
        if let (Some(screen), 0) = (model, reply.exit) {
            let checked =
                tuicast::harness::check_screen_golden(&self.root, &screen, &self.name, self.action);
            if let Err(failure) = &checked {
                reply.error = Some(failure.to_string());
                reply.exit = super::EXIT_CHECK_FAILED;
                // As data: `mismatch` at the golden's line and column, or `missing-golden`,
                // with the screen and the accept command.
                reply.failure = Some(Box::new(failure.data().cloned().unwrap_or_else(|| {
                    tuicast::location::FailureJson::new(
                        tuicast::location::FailureKind::Error,
                        failure.to_string(),
                    )
                })));
            }
            let mut value = serde_json::to_value(&reply).unwrap_or_default();
            value["check"] = serde_json::json!({
                "name": self.name,
                "golden": self.golden,
                "passed": checked.is_ok(),
            });
            let (out, err) = reply_text(&value, human);
            print_text(&out, &err)?;
            return Ok(ExitCode::from(reply.exit));
        }
        print(&reply, human)?;
        Ok(ExitCode::from(reply.exit))
    }
}

/// The request a command line (or an MCP tool call, `cli/mcp.rs`) asks for; bad input is an
/// error.
pub(super) fn request_of(
    command: Cmd,
    idle_for_new: &mut Option<String>,
) -> anyhow::Result<Request> {
    Ok(match command {
        Cmd::Start {
            name,
            size,
            timeout,
            idle,
            max_cast,
            command,
        } => {
            if let Some(i) = &idle {
                duration(i).context("--idle")?;
                *idle_for_new = Some(i.clone());
            }
            if let Some(t) = &timeout {
                duration(t).context("--timeout")?;
            }
            let cwd = std::env::current_dir().context("cannot read the current folder")?;
            let max_cast = byte_size(&max_cast).context("--max-cast")?;
            Request::Start {
                argv: command,
                cwd,
                name,
                size: Some(size),
                timeout,
                umask: Some(current_umask()),
                max_cast: Some(max_cast),
            }
        }
        Cmd::Type { id, text, stdin } => {
            step(&id, Step::new(Action::Type(text_or_stdin(text, stdin)?)))
        }
        Cmd::Press { id, keys } => step(&id, Step::new(Action::Press(keys))),
        Cmd::Resize { id, size } => {
            let size: Size = size
                .parse::<Size>()
                .and_then(Size::for_terminal)
                .map_err(anyhow::Error::msg)?;
            step(&id, Step::new(Action::Resize(size)))
        }
        Cmd::Secret { id, env } => step(&id, Step::new(Action::Secret(env))),
        Cmd::Paste { id, text, stdin } => {
            step(&id, Step::new(Action::Paste(text_or_stdin(text, stdin)?)))
        }
        Cmd::Click { id, target, button } => {
            let quoted = toml::Value::String(button).to_string();
            raw_step(
                &id,
                format!("{{ click = {}, button = {quoted} }}", target.toml()?),
            )
        }
        Cmd::Scroll {
            id,
            direction,
            target,
            count,
        } => {
            let quoted = toml::Value::String(direction).to_string();
            raw_step(
                &id,
                format!(
                    "{{ scroll = {quoted}, at = {}, count = {count} }}",
                    target.toml()?
                ),
            )
        }
        Cmd::Focus { id, state } => match state.as_str() {
            "on" => step(&id, Step::new(Action::Focus(true))),
            "off" => step(&id, Step::new(Action::Focus(false))),
            _ => bail!("focus takes on or off"),
        },
        Cmd::Step { id, step } => raw_step(&id, step),
        Cmd::Wait(w) => {
            let id = w.id.clone();
            raw_step(&id, w.step_toml()?)
        }
        Cmd::Snapshot {
            id,
            format,
            mark,
            output,
        } => {
            // (`screen` is `session check`'s own: the model, which no reply prints.)
            if format == "screen" {
                bail!("unknown format \"screen\": use text, json or png");
            }
            let output = output.map(|p| std::path::absolute(&p).unwrap_or(p));
            Request::Snapshot {
                id,
                format: Some(format),
                mark,
                output,
            }
        }
        Cmd::Check { id, .. } => Request::Snapshot {
            id,
            format: Some("screen".into()),
            mark: None,
            output: None,
        },
        Cmd::Inspect { id } => Request::Inspect { id },
        Cmd::Status { id } => Request::Status { id },
        Cmd::List => Request::List,
        Cmd::Stop { id, save, force } => {
            let save = save.map(|p| std::path::absolute(&p).unwrap_or(p));
            Request::Stop { id, save, force }
        }
        Cmd::Daemon { .. } | Cmd::Watch | Cmd::Events { .. } | Cmd::Attach { .. } => {
            unreachable!("handled above")
        }
    })
}

/// This process's umask, the program's (read by setting it and setting it back: this
/// command runs no other thread that creates files).
fn current_umask() -> u32 {
    use nix::sys::stat::{umask, Mode};
    let mask = umask(Mode::from_bits_truncate(0o077));
    umask(mask);
    mask.bits()
}

/// A size in bytes: a number, with `K`/`KiB`, `M`/`MiB` or `G`/`GiB` (powers of 1024;
/// `KB`, `MB`, `GB` read the same) or `B`.
pub(super) fn byte_size(text: &str) -> anyhow::Result<u64> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let n: u64 = number.parse().map_err(|_| {
        anyhow::anyhow!(
            "\"{}\" is not a size: write 64MiB, 500KiB or a number of bytes",
            escape_for_terminal(text, 40)
        )
    })?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        other => bail!(
            "unknown unit \"{}\" in \"{}\": use KiB, MiB or GiB",
            escape_for_terminal(other, 20),
            escape_for_terminal(text, 40)
        ),
    };
    n.checked_mul(scale)
        .ok_or_else(|| anyhow::anyhow!("\"{}\" is too large", escape_for_terminal(text, 40)))
}

/// Whether a command line that clap refused is a `tuicast session` or `tuicast run` command
/// whose error is written as a JSON reply: not `--help` or `--version` output, not `--human`.
pub(super) fn wants_json(args: &[std::ffi::OsString], e: &clap::Error) -> bool {
    use clap::error::ErrorKind;
    args.get(1)
        .is_some_and(|a| a == "session" || a == "run" || a == "ask")
        && !args.iter().any(|a| a == "--human")
        && !matches!(
            e.kind(),
            ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        )
}

/// A step request: the step as one scenario step's TOML.
fn step(id: &str, step: Step) -> Request {
    raw_step(id, step_toml(&step))
}

/// A step request of a step written as TOML (the daemon reads it, and says where it is wrong).
fn raw_step(id: &str, step: String) -> Request {
    Request::Step {
        id: id.to_string(),
        step,
    }
}

/// Starts `tuicast session daemon` detached (it calls setsid), its output to /dev/null.
fn start_daemon(idle: Option<&str>) -> std::io::Result<()> {
    let exe = std::env::current_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["session", "daemon"]);
    if let Some(i) = idle {
        cmd.args(["--idle", i]);
    }
    cmd.stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
}

fn run_daemon(idle: Option<&str>) -> anyhow::Result<ExitCode> {
    use nix::sys::stat::{umask, Mode};
    // Its own session: the client's terminal and its signals do not reach it.
    let _ = nix::unistd::setsid();
    // The daemon's own files are private; the programs it starts get the umask of the user
    // who started it, as they would in a terminal.
    let users = umask(Mode::from_bits_truncate(0o077));
    tuicast::record::pty::set_program_umask(users.bits());
    // The watch holds the other end of a pipe: when this process is gone, however it ended,
    // the watch sees the end of its input and ends the programs the sessions left.
    let watch = std::process::Command::new(std::env::current_exe()?)
        .args(["session", "watch"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .context("cannot start the daemon's watch")?;
    let _pipe = watch.stdin;
    tuicast::record::interrupt::install().context("cannot set up signal handling")?;
    let idle = match idle {
        Some(i) => duration(i).context("--idle")?,
        None => daemon::idle_from_env().unwrap_or(daemon::DEFAULT_IDLE),
    };
    let paths = Paths::for_user().context("cannot set up the session daemon's folder")?;
    daemon::serve(&paths, idle).context("the session daemon failed")?;
    Ok(ExitCode::SUCCESS)
}

/// Prints a reply: as one JSON line, or for people. A reader that went away (`tuicast
/// session screen ID | head`) is no failure and no panic: the rest is dropped, and the
/// command's exit status stays what the reply says. Another write error is returned.
pub(super) fn print(reply: &Reply, human: bool) -> std::io::Result<()> {
    let value = serde_json::to_value(reply).unwrap_or_default();
    let (out, err) = reply_text(&value, human);
    print_text(&out, &err)
}

/// Writes what [`reply_text`] gave: `out` to standard output (a closed pipe is no error),
/// `err` to standard error, best effort.
fn print_text(out: &str, err: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e),
        _ => {}
    }
    // Notes and errors are best effort: nowhere is left to say that stderr failed.
    let _ = std::io::stderr().lock().write_all(err.as_bytes());
    Ok(())
}

/// What [`print`] writes: the text for standard output and for standard error.
fn reply_text(reply: &Value, human: bool) -> (String, String) {
    use std::fmt::Write;
    let (mut out, mut err) = (String::new(), String::new());
    if !human {
        let _ = writeln!(out, "{}", serde_json::to_string(reply).unwrap_or_default());
        return (out, err);
    }
    let text = |k: &str| reply.get(k).and_then(Value::as_str).map(str::to_string);
    if let Some(sessions) = reply.get("sessions").and_then(Value::as_array) {
        if sessions.is_empty() {
            let _ = writeln!(out, "no sessions");
        }
        for s in sessions {
            let f = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let _ = writeln!(out, "{}  {}  {}", f("id"), f("state"), f("command"));
        }
    }
    if let Some(id) = text("id") {
        let status = &reply["status"];
        let state = status.get("state").and_then(Value::as_str).unwrap_or("?");
        let mut line = format!("session {}: {state}", escape_for_terminal(&id, 60));
        if let Some(c) = status.get("code").and_then(Value::as_i64) {
            line.push_str(&format!(" (status {c}"));
            if let Some(s) = status.get("signal").and_then(Value::as_str) {
                line.push_str(&format!(", {s}"));
            }
            line.push(')');
        }
        if let Some(ms) = reply.get("idle_ms").and_then(Value::as_u64) {
            line.push_str(&format!(", last output {ms} ms ago"));
        }
        if let Some(k) = reply["prompt"].get("kind").and_then(Value::as_str) {
            if k != "unknown" {
                line.push_str(&format!(", prompt: {k}"));
            }
        }
        let _ = writeln!(out, "{line}");
        if let Some(screen) = text("screen") {
            for row in screen.lines() {
                let _ = writeln!(out, "  │{}", escape_for_terminal(row, 1000));
            }
        }
        for key in ["step", "cast", "scenario", "png"] {
            if let Some(v) = text(key) {
                let _ = writeln!(out, "{key}: {}", escape_for_terminal(&v, 1000));
            }
        }
        if let Some(i) = reply.get("inspect") {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(i).unwrap_or_default()
            );
        }
    }
    if let Some(note) = text("daemon_restarted") {
        let _ = writeln!(err, "note: {note}");
    }
    if let Some(e) = text("error") {
        for (i, line) in e.lines().enumerate() {
            let shown = escape_for_terminal(line, 1000);
            if i == 0 {
                let _ = writeln!(err, "error: {shown}");
            } else {
                let _ = writeln!(err, "{shown}");
            }
        }
    }
    (out, err)
}

/// The most text `type --stdin` and `paste --stdin` read (a request holds at most
/// `daemon::MAX_LINE`, 4 MiB, with the text escaped in JSON).
const MAX_STDIN_TEXT: u64 = 1 << 20;

/// The text argument, or standard input's whole text with `--stdin` (UTF-8, at most
/// [`MAX_STDIN_TEXT`] bytes).
fn text_or_stdin(text: Option<String>, stdin: bool) -> anyhow::Result<String> {
    if !stdin {
        return text.context("no text given (or --stdin)");
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(std::io::stdin().lock(), MAX_STDIN_TEXT + 1),
        &mut bytes,
    )
    .context("cannot read standard input")?;
    if bytes.len() as u64 > MAX_STDIN_TEXT {
        anyhow::bail!(
            "standard input holds more than {MAX_STDIN_TEXT} bytes, the most --stdin takes"
        );
    }
    String::from_utf8(bytes).map_err(|e| anyhow::anyhow!("standard input is not UTF-8: {e}"))
}
