//! `tuicast ask`: one question to a command that answers it (an AI CLI in its
//! non-interactive mode), one short typed JSON object back (`tuicast::record::piped::AskJson`).
//! A thin layer over `tuicast run`: the same runner (`record::piped::run_piped`), limits,
//! clean environment and secret starring; only the question's way in and the reply's shape
//! are its own.

use std::io::{IsTerminal as _, Read as _};
use std::process::ExitCode;

use anyhow::{bail, Context};

use tuicast::record::piped::{self, AskJson, PipedInput, PipedOptions};

use super::run::{bad_input, common_options, print_json, starred, Common};

/// The longest question read from standard input (1 MiB).
const MAX_QUESTION: u64 = 1 << 20;

/// The argument that stands for the question.
const PLACEHOLDER: &str = "{}";

/// Ask a command a question (on pipes) and print its answer as one JSON object.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast ask --prompt 'Name a colour' -- ./answer.sh         the question on its stdin\n  \
    echo 'Summarise README.md' | tuicast ask -- my-ai --quiet    the question from tuicast's stdin\n  \
    tuicast ask --prompt 'Why?' -- my-ai -p {}                  the question as the argument {}\n  \
    tuicast ask --timeout 2m --inherit-env PATH --secret TUICAST_SECRET_KEY -- my-ai -\n\n\
    The question is --prompt TEXT, else tuicast's standard input (at most 1 MiB). It goes to\n\
    the command's standard input, or, when an argument is exactly {}, in that argument's\n\
    place (standard input is then /dev/null; a question starting with '-' only after an\n\
    argument --, so that it never becomes an option). Prints one JSON object (docs/agents.md,\n\
    \"tuicast ask\"; `tuicast schema ask`): answer (stdout trimmed), stderr, encoding,\n\
    status (code or signal), ended_by, truncated, duration_ms, exit. The command runs as\n\
    `tuicast run` runs it: the clean environment with a fresh, empty HOME, secrets starred.\n\
    Exit status: 0 the command ended by itself (whatever its status: see status), 1 tuicast\n\
    ended it (a limit: see ended_by), 2 bad input (one JSON object with error and exit).")]
pub(super) struct Args {
    /// The question (default: read from standard input).
    #[arg(long, value_name = "TEXT")]
    prompt: Option<String>,
    /// How long the command may take to answer before it is killed.
    #[arg(long, value_name = "DURATION", default_value = "300s")]
    timeout: String,
    #[command(flatten)]
    common: Common,
    /// The command and its arguments; an argument `{}` is replaced by the question.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<String>,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let opts = match options(args) {
        Ok(o) => o,
        Err(e) => return bad_input(&super::message(&e)),
    };
    match piped::run_piped(&opts) {
        Ok(ran) => {
            let answer = AskJson::from(ran);
            let exit = answer.exit;
            print_json(&answer)?;
            Ok(ExitCode::from(exit))
        }
        Err(e) => bad_input(&starred(&e.to_string(), &opts)),
    }
}

/// The options a command line asks for, the question in place; bad input is an error.
fn options(args: Args) -> anyhow::Result<PipedOptions> {
    let question = match args.prompt {
        Some(q) => q,
        None => read_question()?,
    };
    if question.trim().is_empty() {
        bail!("the question is empty");
    }
    let placeholder = args.command.iter().any(|a| a == PLACEHOLDER);
    if args.command.first().is_some_and(|p| p == PLACEHOLDER) {
        bail!("the command's program cannot be the question's placeholder {PLACEHOLDER}");
    }
    // A question in an argument's place that starts with `-` would be read by the command
    // as an option (`--help`, `-o FILE`, `--config=…`), unless an argument `--` before the
    // placeholder ends its options.
    let after_dashes = |at: usize| args.command[..at].iter().any(|a| a == "--");
    if question.starts_with('-') {
        if let Some(at) = args.command.iter().position(|a| a == PLACEHOLDER) {
            if !after_dashes(at) {
                bail!(
                    "the question starts with '-', so the command would read it as an option: \
                     put -- before {PLACEHOLDER} in the command (when the command takes it), \
                     or pass the question on the command's standard input (no {PLACEHOLDER})"
                );
            }
        }
    }
    let command: Vec<String> = args
        .command
        .into_iter()
        .map(|a| {
            if a == PLACEHOLDER {
                question.clone()
            } else {
                a
            }
        })
        .collect();
    let mut opts = PipedOptions::new(command);
    common_options(&mut opts, &args.timeout, args.common)?;
    opts.stdin = if placeholder {
        PipedInput::Null
    } else {
        PipedInput::Bytes(question.into_bytes())
    };
    Ok(opts)
}

/// The question from standard input: not a terminal (nobody would see it is waiting), at
/// most [`MAX_QUESTION`] bytes, UTF-8.
fn read_question() -> anyhow::Result<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        bail!("no question: pass --prompt TEXT, or the question on standard input");
    }
    let mut bytes = Vec::new();
    stdin
        .lock()
        .take(MAX_QUESTION + 1)
        .read_to_end(&mut bytes)
        .context("cannot read the question from standard input")?;
    if bytes.len() as u64 > MAX_QUESTION {
        bail!(
            "the question on standard input is longer than {} MiB",
            MAX_QUESTION >> 20
        );
    }
    String::from_utf8(bytes).context("the question on standard input is not UTF-8")
}
