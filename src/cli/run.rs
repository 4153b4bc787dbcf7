//! `tuicast run`: a non-interactive command with pipes, its output, status and duration as one
//! typed JSON object (`tuicast::record::piped::RunJson`).

use std::path::PathBuf;
use std::process::ExitCode;

use std::io::Write as _;

use anyhow::{bail, Context};

use tuicast::escape::escape_for_terminal;
use tuicast::record::piped::{self, PipedInput, PipedOptions};

/// Run a non-interactive command and print its output, read as a person would, as one JSON object.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast run -- sh -c 'echo out; echo err >&2; exit 3'   status.code 3, tuicast exits 0\n  \
    tuicast run --timeout 5s -- ./slow-query                 ended_by \"timeout\" past 5 s\n  \
    tuicast run --max-output 64KiB -- cat big.log            truncated.stdout past 64 KiB\n  \
    tuicast run --stdin input.json -- jq .name               standard input from a file\n  \
    printf 'a\\nb\\n' | tuicast run --stdin - -- wc -l         or from tuicast's own\n  \
    tuicast run --env LANG=C --inherit-env PATH -- ./tool    on top of the clean environment\n  \
    tuicast run --cwd fixtures -- ./check.sh                 in that folder (./check.sh there)\n  \
    TUICAST_SECRET_TOKEN=... tuicast run --secret TUICAST_SECRET_TOKEN -- ./deploy   starred\n  \
    tuicast run -- apt install cowsay                        ended_by \"waiting-for-input\" at [Y/n]\n\n\
    Prints one JSON object (docs/agents.md, \"tuicast run\"; `tuicast schema run`): stdout,\n\
    stderr (text when UTF-8, else base64: see encoding), status (code or signal), ended_by,\n\
    duration_ms, bytes, truncated, limits, text (the output as a person reads it on a\n\
    terminal), text_truncated, tables, prompt (what a command waiting for input asks), exit.\n\
    The command starts from the clean base environment of recordings with a fresh, empty HOME\n\
    and pagers off (PAGER=cat, GIT_PAGER=cat), in a session of its own whose terminal is the\n\
    run's: a command blocked reading it with nothing written for 200 ms ends the run.\n\
    Exit status: 0 the command ended by itself (whatever its status: see status), 1 tuicast\n\
    ended it (a limit or a wait for input: see ended_by), 2 bad input (one JSON object with\n\
    error and exit).")]
pub(super) struct Args {
    /// How long the command may run before it is killed.
    #[arg(long, value_name = "DURATION", default_value = "60s")]
    timeout: String,
    /// What the command reads: a file (`/dev/null` for nothing), or `-` for tuicast's
    /// standard input (default: a terminal of its own where nothing is typed: a command that
    /// reads it ends the run as ended_by "waiting-for-input", with its prompt).
    #[arg(long, value_name = "FILE|-")]
    stdin: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
    /// The command and its arguments.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<String>,
}

/// The options `tuicast run` and `tuicast ask` share: the output limit, the folder, the
/// environment and the secrets.
#[derive(Debug, clap::Args)]
pub(super) struct Common {
    /// The most bytes kept of each of stdout and stderr (`1MiB`, `64KiB`, bytes; at most
    /// 64MiB): past it the command is killed and the stream marked truncated.
    #[arg(long, value_name = "SIZE", default_value = "1MiB")]
    max_output: String,
    /// The folder the command runs in (default: the current one); a program named by a
    /// relative path (`./x.sh`) is found there.
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// A variable added to the command's environment (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    env: Vec<String>,
    /// A variable of tuicast's environment passed on as it is (repeatable; not a secret).
    #[arg(long, value_name = "NAME")]
    inherit_env: Vec<String>,
    /// A variable of tuicast's environment passed on as a secret (repeatable): its value is
    /// starred wherever the output shows it. Only TUICAST_SECRET_* or those listed in
    /// TUICAST_SECRETS, as for `tuicast session secret`.
    #[arg(long, value_name = "NAME")]
    secret: Vec<String>,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let opts = match options(args) {
        Ok(o) => o,
        Err(e) => return bad_input(&super::message(&e)),
    };
    match piped::run_piped(&opts) {
        Ok(ran) => {
            let exit = ran.exit;
            print_json(&ran)?;
            Ok(ExitCode::from(exit))
        }
        Err(e) => bad_input(&starred(&e.to_string(), &opts)),
    }
}

/// The options a command line asks for; bad input is an error.
fn options(args: Args) -> anyhow::Result<PipedOptions> {
    let mut opts = PipedOptions::new(args.command);
    common_options(&mut opts, &args.timeout, args.common)?;
    opts.stdin = match args.stdin {
        None => PipedInput::Terminal,
        Some(p) if p.as_os_str() == "-" => PipedInput::Inherit,
        Some(p) => PipedInput::File(p),
    };
    Ok(opts)
}

/// `message` with the values of the secrets of `opts` starred.
pub(super) fn starred(message: &str, opts: &PipedOptions) -> String {
    let mut message = message.to_string();
    for (_, value) in &opts.secrets {
        let mut r = tuicast::record::redact::Redactor::new(Vec::new());
        r.add_secret(value);
        message = r.scrub(&message);
    }
    message
}

/// Writes `value` as one JSON line, as it is made (64 MiB of control characters are 384 MB
/// of JSON); a reader that went away is no failure.
pub(super) fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = serde_json::to_writer(&mut out, value)
        .map_err(std::io::Error::from)
        .and_then(|()| writeln!(out))
        .and_then(|()| out.flush());
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write the JSON")
        }
        _ => Ok(()),
    }
}

/// Applies the timeout (`--timeout`, given as `timeout`) and the [`Common`] options to
/// `opts`; bad input is an error.
pub(super) fn common_options(
    opts: &mut PipedOptions,
    timeout: &str,
    args: Common,
) -> anyhow::Result<()> {
    opts.timeout = super::session::duration(timeout).context("--timeout")?;
    if opts.timeout.is_zero() {
        bail!("--timeout must be more than 0");
    }
    opts.max_output = super::session::byte_size(&args.max_output).context("--max-output")?;
    if opts.max_output > piped::MAX_MAX_OUTPUT {
        bail!(
            "--max-output {} is more than the {} MiB tuicast run keeps of a stream",
            escape_for_terminal(&args.max_output, 40),
            piped::MAX_MAX_OUTPUT >> 20
        );
    }
    if let Some(dir) = &args.cwd {
        let shown = escape_for_terminal(&dir.display().to_string(), 300);
        match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => bail!("--cwd {shown}: not a folder"),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                bail!("--cwd {shown}: no such folder")
            }
            Err(e) => bail!("--cwd {shown}: {e}"),
        }
        // Absolute: the program's own relative paths are then found in it, whatever the
        // platform's rule for a relative program with a working folder.
        opts.cwd = std::path::absolute(dir).with_context(|| format!("--cwd {shown}"))?;
    }
    for name in &args.inherit_env {
        if let Ok(v) = std::env::var(name) {
            opts.env.insert(name.clone(), v);
        }
    }
    for pair in &args.env {
        let Some((name, value)) = pair.split_once('=').filter(|(n, _)| !n.is_empty()) else {
            bail!(
                "--env takes NAME=VALUE, not \"{}\"",
                escape_for_terminal(pair, 60)
            );
        };
        opts.env.insert(name.to_string(), value.to_string());
    }
    for name in &args.secret {
        if !tuicast::daemon::secret_allowed(name) {
            bail!(
                "{} is not a variable tuicast run may pass as a secret: only those named {}* \
                 or listed in {} (comma-separated) are (see docs/agents.md, \"Secrets\")",
                escape_for_terminal(name, 60),
                tuicast::daemon::SECRET_PREFIX,
                tuicast::daemon::SECRETS_ALLOWED
            );
        }
        match std::env::var(name) {
            Ok(v) => opts.secrets.push((name.clone(), v)),
            Err(_) => bail!(
                "--secret {}: the variable is not set in tuicast's environment",
                escape_for_terminal(name, 60)
            ),
        }
    }
    Ok(())
}

/// Bad input: one JSON object with `error` and `exit` 2.
pub(super) fn bad_input(message: &str) -> anyhow::Result<ExitCode> {
    let refused = piped::RunRefusal::new(message, super::EXIT_BAD_INPUT);
    print_line(&serde_json::to_string(&refused).unwrap_or_default())?;
    Ok(ExitCode::from(super::EXIT_BAD_INPUT))
}

/// Prints one line; a reader that went away is no failure.
fn print_line(line: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{line}").and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    }
}
