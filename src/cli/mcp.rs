//! `tuicast mcp`: an MCP server on standard input and output, on the official Rust SDK
//! (`rmcp`), for agents that speak the Model Context Protocol.
//!
//! It is a client of the session daemon like `tuicast session`: every `session_*` tool is the
//! `session` command of the same name, its input turned into the same [`Request`] by the
//! same code (`session::request_of`; `session_wait`'s input is the CLI's own `WaitArgs`), and
//! its result is the daemon's [`Reply`] as JSON, so a session started over MCP is one
//! `tuicast session list` shows, and the other way round. The cast tools (`replay`,
//! `inspect`, `run`) run this binary's own command and give its JSON. A request that fails
//! (bad input, an unknown session, a wait that timed out) is a tool error (`isError`) with the
//! message; the server goes on serving. Secrets are starred by the daemon in every reply, as
//! for the CLI.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Context;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    Annotations, CallToolResult, ContentBlock, ImageContent, Implementation, Role,
    ServerCapabilities, ServerInfo,
};
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::Deserialize;

use tuicast::daemon::protocol::{Reply, Request};
use tuicast::daemon::{self, Paths};

use super::session::{self, Cmd, WaitArgs};

/// Serve MCP (the Model Context Protocol) on standard input and output: live sessions and
/// casts as tools for an agent.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Tools: session_start, session_press, session_type, session_paste, \
    session_secret, session_wait, session_step, session_snapshot, session_inspect, \
    session_status, session_resize, session_stop, session_list; replay, inspect, run. Their \
    inputs and replies are those of `tuicast session`, `replay`, `inspect` and `run` \
    (docs/agents.md, \"Over MCP\").\n\n\
    Examples:\n  \
    tuicast mcp                               serve on stdin/stdout (an agent starts it)\n  \
    claude mcp add tuicast -- tuicast mcp     register it with an MCP client\n  \
    TUICAST_SECRET_PW=... tuicast mcp         session_secret types it, never shows it\n  \
    tuicast session list                      sessions started over MCP are listed too"
)]
pub(super) struct Args {
    /// When this server starts the session daemon: how long the daemon waits for a command
    /// before it ends its sessions and exits.
    #[arg(long, value_name = "DURATION")]
    idle: Option<String>,
}

/// Runs the server until its client closes standard input.
pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(i) = &args.idle {
        session::duration(i).context("--idle")?;
    }
    let paths = Paths::for_user().context("cannot set up the session daemon's folder")?;
    let server = Server {
        shared: Arc::new(Shared {
            paths,
            idle: args.idle,
            pictures: AtomicU64::new(0),
        }),
        tool_router: Server::tool_router(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the MCP server's runtime")?;
    let too_long = Arc::new(AtomicBool::new(false));
    let input = LineLimit {
        inner: tokio::io::stdin(),
        line: 0,
        too_long: Arc::clone(&too_long),
    };
    let served = runtime.block_on(async move {
        let running = server
            .serve((input, tokio::io::stdout()))
            .await
            .context("the MCP client did not initialize")?;
        running.waiting().await.context("the MCP server failed")?;
        anyhow::Ok(())
    });
    if too_long.load(Ordering::Relaxed) {
        anyhow::bail!(
            "a message on standard input is longer than {} bytes, the most `tuicast mcp` reads \
             (as a session request): the server stopped",
            daemon::MAX_LINE
        );
    }
    served?;
    Ok(ExitCode::SUCCESS)
}

/// Standard input with a bound on its lines: one longer than [`daemon::MAX_LINE`] (the most
/// a session request holds) is an error that ends the server, where the SDK would read on.
struct LineLimit<R> {
    inner: R,
    /// Bytes since the last newline.
    line: usize,
    too_long: Arc<AtomicBool>,
}

impl<R: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for LineLimit<R> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = std::pin::Pin::new(&mut self.inner).poll_read(cx, buf);
        if let std::task::Poll::Ready(Ok(())) = polled {
            let mut line = self.line;
            for &b in &buf.filled()[before..] {
                line = if b == b'\n' { 0 } else { line + 1 };
                if line > daemon::MAX_LINE {
                    self.too_long.store(true, Ordering::Relaxed);
                    return std::task::Poll::Ready(Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "a message is too long",
                    )));
                }
            }
            self.line = line;
        }
        polled
    }
}

/// The MCP server: its tools and what they share.
#[derive(Clone)]
struct Server {
    shared: Arc<Shared>,
    tool_router: ToolRouter<Server>,
}

struct Shared {
    paths: Paths,
    idle: Option<String>,
    /// PNG snapshots written so far (their files are named by it, and removed once read).
    pictures: AtomicU64,
}

/// `session_start`'s input: `tuicast session start`'s flags.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct StartInput {
    /// The program and its arguments: `["vim", "notes.txt"]`.
    command: Vec<String>,
    /// The session's id (default: s1, s2, ...).
    name: Option<String>,
    /// The terminal size, COLSxROWS (default 80x24).
    size: Option<String>,
    /// Default timeout of the session's waits (`10s`).
    timeout: Option<String>,
    /// The most the session's cast may hold (`1MiB`, `500KiB`, bytes; default 64MiB).
    max_cast: Option<String>,
    /// The folder the program runs in (default: the server's current folder); relative to it.
    cwd: Option<PathBuf>,
}

/// The input of tools that name only a session.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct IdInput {
    /// The session: its id, or the name given to start.
    id: String,
}

/// `session_press`'s input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PressInput {
    /// The session: its id, or the name given to start.
    id: String,
    /// Key names, pressed in order: `["Esc", ":", "w", "Enter"]`, `C-c`, `Up`, `F1`, `S-Enter`, `C-S-a` (sent as the keyboard mode the program set says: kitty flags, modifyOtherKeys).
    keys: Vec<String>,
}

/// `session_type`'s and `session_paste`'s input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TextInput {
    /// The session: its id, or the name given to start.
    id: String,
    /// The text (never echoed in a reply: its length is).
    text: String,
}

/// `session_secret`'s input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SecretInput {
    /// The session: its id, or the name given to start.
    id: String,
    /// The environment variable of the session daemon (started with this server's
    /// environment) whose value is typed: TUICAST_SECRET_* or one listed in TUICAST_SECRETS.
    env: String,
}

/// `session_resize`'s input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ResizeInput {
    /// The session: its id, or the name given to start.
    id: String,
    /// The new size, COLSxROWS.
    size: String,
}

/// `session_step`'s input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct StepInput {
    /// The session: its id, or the name given to start.
    id: String,
    /// The step, an inline TOML table as in a scenario file.
    step: String,
}

/// `session_snapshot`'s input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SnapshotInput {
    /// The session: its id, or the name given to start.
    id: String,
    /// `text` (default), `json` (the screen with styles) or `png` (an image in the result).
    format: Option<String>,
    /// Mark a checkpoint of this name on the settled screen (of the saved scenario).
    mark: Option<String>,
    /// Write the render to this file too.
    output: Option<PathBuf>,
}

/// `session_stop`'s input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct StopInput {
    /// The session: its id, or the name given to start.
    id: String,
    /// Where to save the cast and the scenario (`casts/demo`: casts/demo.cast and .toml).
    save: Option<PathBuf>,
    /// Write over a cast or TOML file that is there already.
    #[serde(default)]
    force: bool,
}

/// `session_list`'s input: nothing.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoInput {}

/// `replay`'s input: `tuicast replay CAST [--at NAME | --time SECS] --format text|json`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReplayInput {
    /// The cast file (asciicast v1, v2 or v3).
    cast: PathBuf,
    /// The checkpoint (a marker label, or `end`).
    at: Option<String>,
    /// The screen after every event up to this many seconds.
    time: Option<f64>,
    /// `text` (default) or `json` (the screen with styles).
    format: Option<String>,
}

/// `inspect`'s input: `tuicast inspect CAST --at NAME --json`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct InspectInput {
    /// The cast file.
    cast: PathBuf,
    /// The checkpoint (default `end`).
    at: Option<String>,
}

/// `run`'s input: `tuicast run [--timeout D] [--cwd DIR] -- CMD`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RunInput {
    /// The command and its arguments.
    command: Vec<String>,
    /// How long it may run before it is killed (default 60s).
    timeout: Option<String>,
    /// The folder it runs in.
    cwd: Option<PathBuf>,
}

#[tool_router]
impl Server {
    /// Start a program in a new session (as `tuicast session start`).
    #[tool(
        description = "Start a program in a new live session (a PTY); the reply is the \
        session as JSON (id, status, screen, cursor, prompt, screen_hash)."
    )]
    async fn session_start(&self, Parameters(i): Parameters<StartInput>) -> CallToolResult {
        let cwd = i.cwd.map(|c| std::path::absolute(&c).unwrap_or(c));
        let cmd = Cmd::Start {
            name: i.name,
            size: i.size.unwrap_or_else(|| "80x24".into()),
            timeout: i.timeout,
            idle: self.shared.idle.clone(),
            max_cast: i.max_cast.unwrap_or_else(|| "64MiB".into()),
            command: i.command,
        };
        self.session(cmd, move |r| {
            if let (Request::Start { cwd: to, .. }, Some(c)) = (r, cwd) {
                *to = c;
            }
        })
        .await
    }

    /// Press keys.
    #[tool(description = "Press keys by name, in order (Enter, Esc, C-c, Up, F1, a, ...).")]
    async fn session_press(&self, Parameters(i): Parameters<PressInput>) -> CallToolResult {
        self.session(
            Cmd::Press {
                id: i.id,
                keys: i.keys,
            },
            |_| {},
        )
        .await
    }

    /// Type text.
    #[tool(
        description = "Type text (paced as a person types); the reply gives its length, \
        never the text."
    )]
    async fn session_type(&self, Parameters(i): Parameters<TextInput>) -> CallToolResult {
        let cmd = Cmd::Type {
            id: i.id,
            text: Some(i.text),
            stdin: false,
        };
        self.session(cmd, |_| {}).await
    }

    /// Paste text.
    #[tool(
        description = "Paste text: bracketed when the program enabled bracketed paste, \
        typed otherwise."
    )]
    async fn session_paste(&self, Parameters(i): Parameters<TextInput>) -> CallToolResult {
        let cmd = Cmd::Paste {
            id: i.id,
            text: Some(i.text),
            stdin: false,
        };
        self.session(cmd, |_| {}).await
    }

    /// Type a secret.
    #[tool(
        description = "Type the value of an environment variable of the session daemon as \
        a secret: starred in every reply, never in the cast or the saved scenario."
    )]
    async fn session_secret(&self, Parameters(i): Parameters<SecretInput>) -> CallToolResult {
        self.session(
            Cmd::Secret {
                id: i.id,
                env: i.env,
            },
            |_| {},
        )
        .await
    }

    /// Wait for something on the screen or of the program.
    #[tool(
        description = "Wait for exactly one of: text, regex, gone, ref (a selector such as \
        @vim.mode[value=insert]), idle, changed, cursor, echo, exit, title, bell, clipboard, \
        prompt, command_done (a shell's OSC 133 mark that a command ended: the reply gives its \
        status as code and its output as text); timeout optional. The reply says what matched and where; a wait that times out \
        is an error."
    )]
    async fn session_wait(&self, Parameters(i): Parameters<WaitArgs>) -> CallToolResult {
        self.session(Cmd::Wait(i), |_| {}).await
    }

    /// The screen now.
    #[tool(
        description = "The screen now as text, json (with styles) or png (an image in the \
        result); with mark, a checkpoint of the saved scenario first."
    )]
    async fn session_snapshot(&self, Parameters(i): Parameters<SnapshotInput>) -> CallToolResult {
        let png = i.format.as_deref() == Some("png");
        // A PNG with no file asked for goes to a file of the daemon's private folder, read
        // into the result and removed.
        let scratch = (png && i.output.is_none()).then(|| {
            let n = self.shared.pictures.fetch_add(1, Ordering::Relaxed);
            self.shared
                .paths
                .dir
                .join(format!("mcp-{}-{n}.png", std::process::id()))
        });
        let cmd = Cmd::Snapshot {
            id: i.id,
            format: i.format.unwrap_or_else(|| "text".into()),
            mark: i.mark,
            output: i.output.or_else(|| scratch.clone()),
        };
        let shared = Arc::clone(&self.shared);
        blocking(move || {
            let mut reply = request(&shared, cmd, |_| {});
            let picture = match (&reply.png, png && reply.exit == 0) {
                (Some(file), true) => Some(std::fs::read(file)),
                _ => None,
            };
            if let Some(file) = &scratch {
                let _ = std::fs::remove_file(file);
                // The file is gone: the reply does not name it.
                reply.png = None;
                reply.output = None;
            }
            let mut result = result_of(&reply);
            match picture {
                Some(Ok(bytes)) => {
                    let image = ImageContent::new(
                        tuicast::record::redact::base64_standard(&bytes),
                        "image/png",
                    )
                    .with_annotations(
                        Annotations::default()
                            .with_audience(vec![Role::User, Role::Assistant])
                            .with_priority(1.0),
                    );
                    result.content.push(ContentBlock::Image(image));
                }
                Some(Err(e)) => {
                    result = CallToolResult::error(vec![ContentBlock::text(format!(
                        "cannot read the PNG the daemon wrote: {e}"
                    ))])
                }
                None => {}
            }
            result
        })
        .await
    }

    /// Any scenario step.
    #[tool(description = "Run any scenario step, written as in a scenario file: \
        '{ drag = { from = [2, 1], to = [2, 9] } }', '{ wait = { ref = \"@vim.mode\", gone = \
        true } }'.")]
    async fn session_step(&self, Parameters(i): Parameters<StepInput>) -> CallToolResult {
        self.session(
            Cmd::Step {
                id: i.id,
                step: i.step,
            },
            |_| {},
        )
        .await
    }

    /// The outline and prompt.
    #[tool(description = "The screen's outline, refs and prompt (as `tuicast inspect`).")]
    async fn session_inspect(&self, Parameters(i): Parameters<IdInput>) -> CallToolResult {
        self.session(Cmd::Inspect { id: i.id }, |_| {}).await
    }

    /// The status and screen.
    #[tool(description = "The session's status and screen.")]
    async fn session_status(&self, Parameters(i): Parameters<IdInput>) -> CallToolResult {
        self.session(Cmd::Status { id: i.id }, |_| {}).await
    }

    /// Resize the terminal.
    #[tool(description = "Resize the terminal (COLSxROWS).")]
    async fn session_resize(&self, Parameters(i): Parameters<ResizeInput>) -> CallToolResult {
        self.session(
            Cmd::Resize {
                id: i.id,
                size: i.size,
            },
            |_| {},
        )
        .await
    }

    /// End a session, saving it when asked.
    #[tool(
        description = "End the session; with save = \"casts/NAME\", write casts/NAME.cast \
        and casts/NAME.toml, a scenario that replays what was done (a test of `tuicast test`)."
    )]
    async fn session_stop(&self, Parameters(i): Parameters<StopInput>) -> CallToolResult {
        let cmd = Cmd::Stop {
            id: i.id,
            save: i.save,
            force: i.force,
        };
        self.session(cmd, |_| {}).await
    }

    /// The sessions.
    #[tool(description = "The sessions running (also those started by `tuicast session`).")]
    async fn session_list(&self, Parameters(_): Parameters<NoInput>) -> CallToolResult {
        self.session(Cmd::List, |_| {}).await
    }

    /// A cast's screen.
    #[tool(
        description = "Replay a cast (never running the program): the screen at a \
        checkpoint or time, as text or json."
    )]
    async fn replay(&self, Parameters(i): Parameters<ReplayInput>) -> CallToolResult {
        let mut args = vec!["replay".into(), os(&i.cast)];
        if let Some(at) = i.at {
            args.extend(["--at".into(), at.into()]);
        }
        if let Some(t) = i.time {
            args.extend(["--time".into(), t.to_string().into()]);
        }
        let format = i.format.unwrap_or_else(|| "text".into());
        if format != "text" && format != "json" {
            return bad_input(format!(
                "unknown format \"{}\": use text or json",
                tuicast::escape::escape_for_terminal(&format, 40)
            ));
        }
        args.extend(["--format".into(), format.into()]);
        own_command(args).await
    }

    /// A cast's screen as data.
    #[tool(
        description = "A cast's screen as data (as `tuicast inspect --json`): boxes, \
        tables, refs, the prompt, each with its evidence."
    )]
    async fn inspect(&self, Parameters(i): Parameters<InspectInput>) -> CallToolResult {
        let mut args = vec!["inspect".into(), os(&i.cast), "--json".into()];
        if let Some(at) = i.at {
            args.extend(["--at".into(), at.into()]);
        }
        own_command(args).await
    }

    /// A command with pipes.
    #[tool(
        description = "Run a command that returns data, as `tuicast run`: its output and \
        status, its text as a person reads it, the tables in it, and the prompt of a command \
        that stops to wait for input (ended at once, not at the timeout), as JSON."
    )]
    async fn run(&self, Parameters(i): Parameters<RunInput>) -> CallToolResult {
        let mut args = vec!["run".into()];
        if let Some(t) = i.timeout {
            args.extend(["--timeout".into(), t.into()]);
        }
        if let Some(c) = i.cwd {
            args.extend(["--cwd".into(), os(&c)]);
        }
        args.push("--".into());
        args.extend(i.command.into_iter().map(Into::into));
        own_command(args).await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("tuicast", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "tuicast drives terminal programs in live sessions (session_start, then \
                 session_press / session_type / session_wait / session_snapshot, and \
                 session_stop with save to keep it as a regression test) and reads casts \
                 (replay, inspect). Wait on what the screen shows (text, a ref such as \
                 @vim.mode[value=insert], idle) rather than sleeping.",
            )
    }
}

impl Server {
    /// A `tuicast session` command's reply as a tool result, `adjust` applied to its request.
    async fn session(
        &self,
        cmd: Cmd,
        adjust: impl FnOnce(&mut Request) + Send + 'static,
    ) -> CallToolResult {
        let shared = Arc::clone(&self.shared);
        blocking(move || result_of(&request(&shared, cmd, adjust))).await
    }
}

/// Sends a command's request to the daemon: its reply, or bad input as a reply.
fn request(shared: &Shared, cmd: Cmd, adjust: impl FnOnce(&mut Request)) -> Reply {
    let mut idle = None;
    match session::request_of(cmd, &mut idle) {
        Ok(mut r) => {
            adjust(&mut r);
            session::send(
                &shared.paths,
                &r,
                idle.as_deref().or(shared.idle.as_deref()),
            )
        }
        Err(e) => Reply::error(super::message(&e), super::EXIT_BAD_INPUT),
    }
}

/// A reply as a tool result: the reply's JSON as text and as structured content; an error
/// (`isError`) when its exit status is not 0.
fn result_of(reply: &Reply) -> CallToolResult {
    let value = serde_json::to_value(reply).unwrap_or_default();
    if reply.exit == 0 {
        CallToolResult::structured(value)
    } else {
        CallToolResult::structured_error(value)
    }
}

/// A tool error for bad input found here.
fn bad_input(message: String) -> CallToolResult {
    result_of(&Reply::error(message, super::EXIT_BAD_INPUT))
}

/// Runs `f` off the server's thread (the daemon's replies come from blocking sockets).
async fn blocking(f: impl FnOnce() -> CallToolResult + Send + 'static) -> CallToolResult {
    tokio::task::spawn_blocking(f).await.unwrap_or_else(|e| {
        CallToolResult::error(vec![ContentBlock::text(format!(
            "the tool's thread failed: {e}"
        ))])
    })
}

/// The most bytes read of a cast command's output (replay, inspect and run bound their own
/// well below it).
const MAX_OUTPUT: u64 = 64 << 20;

/// Runs this binary with `args` (a cast tool's command line): its JSON output as structured
/// content (text output as text), an error with its message when its exit status is not 0.
async fn own_command(args: Vec<std::ffi::OsString>) -> CallToolResult {
    blocking(move || {
        let exe = match std::env::current_exe() {
            Ok(e) => e,
            Err(e) => return bad_input(format!("cannot find tuicast's own binary: {e}")),
        };
        let out = std::process::Command::new(exe)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output();
        let out = match out {
            Ok(o) => o,
            Err(e) => return bad_input(format!("cannot run tuicast: {e}")),
        };
        let text =
            |b: &[u8]| String::from_utf8_lossy(&b[..b.len().min(MAX_OUTPUT as usize)]).into_owned();
        let stdout = text(&out.stdout);
        let ok = out.status.success();
        match serde_json::from_str::<serde_json::Value>(&stdout) {
            Ok(v) if v.is_object() && ok => CallToolResult::structured(v),
            Ok(v) if v.is_object() => CallToolResult::structured_error(v),
            _ if ok => CallToolResult::success(vec![ContentBlock::text(stdout)]),
            _ => CallToolResult::error(vec![ContentBlock::text(
                text(&out.stderr).trim_end().to_string(),
            )]),
        }
    })
    .await
}

fn os(p: &std::path::Path) -> std::ffi::OsString {
    p.as_os_str().to_owned()
}
