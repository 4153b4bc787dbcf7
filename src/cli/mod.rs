//! The `tuicast` command line: clap definitions here, one file per subcommand.
//!
//! Exit status: 0 success, 1 a check failed, 2 bad input or usage.

mod ask;
mod convert;
mod engines;
mod info;
mod inspect;
mod mcp;
mod record;
mod replay;
mod report;
mod review;
mod run;
mod schema;
mod screenshot;
mod screenshots;
mod session;
mod test;
mod watch;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use tuicast::term::{EngineKind, EngineOptions, EngineSpec};

/// Exit status for bad input or usage.
pub(crate) const EXIT_BAD_INPUT: u8 = 2;
/// Exit status for a failed check.
pub(crate) const EXIT_CHECK_FAILED: u8 = 1;

#[derive(Debug, Parser)]
#[command(
    name = "tuicast",
    version,
    about = "Record-replay regression testing for terminal programs",
    long_about = "Record-replay regression testing for terminal programs.\n\n\
        tuicast records terminal programs from scenario files into asciicast v3 casts, replays \
        casts (v1, v2, v3) into a terminal engine without running the program, and checks the \
        screen at each checkpoint against golden snapshots.",
    after_help = "Examples:\n  \
        tuicast record casts/demo.toml                 run a scenario, write casts/demo.cast\n  \
        tuicast replay casts/demo.cast                 final screen as text\n  \
        tuicast replay casts/demo.cast --at prompt     screen at the marker \"prompt\"\n  \
        tuicast replay casts/demo.cast --format json   screen with styles as JSON\n  \
        tuicast screenshot casts/demo.cast -o demo.png a PNG of the final screen\n  \
        tuicast screenshots                            redraw the [[screenshot]]s of tuicast.toml\n  \
        tuicast test                                   check every cast against snapshots/\n  \
        tuicast review                                 accept or reject changed snapshots\n  \
        tuicast test --report report                   also write report/index.html\n  \
        tuicast accept --from report                   apply the changes a CI report holds\n  \
        tuicast engines casts/demo.cast                where tuicast's engines and vt100 disagree\n  \
        tuicast info casts/demo.cast                   size, duration, events, checkpoints\n  \
        tuicast inspect casts/demo.cast --json         boxes, selected row, status bar as data\n  \
        tuicast convert old.cast -o new.cast           rewrite any cast as asciicast v3\n  \
        tuicast session start -- bash                  drive a live program step by step\n  \
        tuicast mcp                                    the sessions and casts as MCP tools (stdio)\n  \
        tuicast run -- sh -c 'ls; exit 3'              a command's output and status as JSON\n  \
        tuicast schema session-reply                   the JSON Schema of a format tuicast writes\n\n\
        Exit status: 0 success, 1 a check failed, 2 bad input or usage."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Record(record::Args),
    Replay(replay::Args),
    Screenshot(screenshot::Args),
    Screenshots(screenshots::Args),
    Test(test::Args),
    Review(review::ReviewArgs),
    /// Replace goldens with their pending `.new` files, or with a report's changes (--from).
    Accept(review::AcceptArgs),
    /// Delete pending `.new` files.
    #[command(after_help = "Examples:\n  \
        tuicast reject                    every pending .new file\n  \
        tuicast reject vim/               those under snapshots/vim/\n  \
        tuicast reject shell/listing      one checkpoint's")]
    Reject(review::FilterArgs),
    /// List pending `.new` files, one per line (for scripts and agents).
    #[command(after_help = "Examples:\n  \
        tuicast pending                   STATE<TAB>NAME<TAB>FILE per line\n  \
        tuicast pending vim/ | wc -l")]
    Pending(review::FilterArgs),
    Report(report::Args),
    Engines(engines::Args),
    Info(info::Args),
    Inspect(inspect::Args),
    Convert(convert::Args),
    Session(session::Args),
    Mcp(mcp::Args),
    Run(run::Args),
    Ask(ask::Args),
    Schema(schema::Args),
}

/// Options shared by commands that replay.
#[derive(Debug, Clone, clap::Args)]
struct EngineArg {
    /// Terminal engine to replay with.
    #[arg(long, default_value = "native", value_parser = parse_engine)]
    engine: EngineKind,
    /// DECCOLM (CSI ? 3 h/l) switches to 132/80 columns, as on a VT100. By default it is
    /// ignored, as in xterm (whose c132 resource is off) and xterm.js.
    #[arg(long)]
    deccolm: bool,
}

impl EngineArg {
    /// The engine these flags ask for.
    fn spec(&self) -> EngineSpec {
        EngineSpec {
            kind: self.engine,
            options: EngineOptions::default().with_deccolm(self.deccolm),
        }
    }
}

/// An error and its causes as one line (`context: error: cause`), leaving out a cause whose
/// text the message already holds: the library's errors give their `source()` and most also
/// say it (`cannot create x.cast: Permission denied`), which must not read twice.
pub(crate) fn message(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

fn parse_engine(s: &str) -> Result<EngineKind, String> {
    s.parse()
}

/// Where a command writes: a file (written atomically) or `-` for standard output.
fn write_output(path: Option<&PathBuf>, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    match path {
        Some(p) if p.as_os_str() != "-" => tuicast::util::write_output(p, bytes)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display())),
        _ => {
            let mut out = std::io::stdout().lock();
            match out.write_all(bytes).and_then(|_| out.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => Ok(other?),
            }
        }
    }
}

/// Runs the command line in `std::env::args()` and returns the exit status.
pub(crate) fn main() -> ExitCode {
    run(std::env::args_os())
}

/// Runs a command line (the first item is the program name) and returns the exit status.
pub(crate) fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if session::wants_json(&args, &e) => {
            // An agent reads every answer of `tuicast session` as one JSON line, usage
            // errors too.
            let message = e.render().to_string();
            let reply = tuicast::daemon::protocol::Reply::error(message.trim_end(), EXIT_BAD_INPUT);
            // (`tuicast run`'s refusal has the same two fields.)
            println!("{}", serde_json::to_string(&reply).unwrap_or_default());
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(match e.exit_code() {
                0 => 0,
                _ => EXIT_BAD_INPUT,
            });
        }
    };
    let result = match cli.command {
        Command::Record(args) => record::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Screenshot(args) => screenshot::run(args),
        Command::Screenshots(args) => screenshots::run(args),
        Command::Test(args) => test::run(args),
        Command::Review(args) => review::review(args),
        Command::Accept(args) => review::accept(args),
        Command::Reject(args) => review::reject(args),
        Command::Pending(args) => review::pending(args),
        Command::Report(args) => report::run(args),
        Command::Engines(args) => engines::run(args),
        Command::Info(args) => info::run(args),
        Command::Inspect(args) => inspect::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Session(args) => session::run(args),
        Command::Mcp(args) => mcp::run(args),
        Command::Run(args) => run::run(args),
        Command::Ask(args) => ask::run(args),
        Command::Schema(args) => schema::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // A reader that went away (`tuicast pending | head`) is not an error.
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {}", message(&e));
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
