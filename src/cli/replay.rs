//! `tuicast replay`: the screen of a cast at a checkpoint, a time, or the end.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use super::{write_output, EngineArg};
use crate::cast::escape_for_terminal;
use crate::replay::{self, Checkpoint, Found, END};

/// Replay a cast into a terminal engine and print the screen.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast replay casts/demo.cast\n  \
    tuicast replay casts/*.cast\n  \
    tuicast replay casts/demo.cast --at saved --format json -o saved.json\n  \
    tuicast replay casts/demo.cast --time 2.5 --engine vt100")]
pub(super) struct Args {
    /// The cast files (asciicast v1, v2 or v3). With several, each screen is preceded by a
    /// `==> CAST @ CHECKPOINT <==` line.
    #[arg(required = true, value_name = "CAST")]
    casts: Vec<PathBuf>,
    /// Show the screen at this checkpoint (a marker label, or `end`).
    #[arg(long, conflicts_with = "time")]
    at: Option<String>,
    /// Show the screen after every event up to this many seconds.
    #[arg(long, value_name = "SECS")]
    time: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    engine: EngineArg,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    /// Plain text, one line per row, trailing spaces trimmed.
    Text,
    /// JSON: size, cursor, title and per row the text and style runs.
    Json,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.casts.len() == 1 {
        let bytes = render_one(&args, &args.casts[0])?;
        write_output(args.output.as_ref(), &bytes)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.output.is_some() {
        bail!(
            "-o/--output takes one cast; {} were given",
            args.casts.len()
        );
    }
    let mut failed = false;
    for (i, cast) in args.casts.iter().enumerate() {
        match render_one(&args, cast) {
            Ok(bytes) => {
                let label = args.at.clone().unwrap_or_else(|| match args.time {
                    Some(t) => format!("t={t}"),
                    None => END.to_string(),
                });
                let sep = if i == 0 { "" } else { "\n" };
                let head = format!(
                    "{sep}==> {} @ {} <==\n",
                    escape_for_terminal(&cast.display().to_string(), 200),
                    escape_for_terminal(&label, 80)
                );
                write_output(None, head.as_bytes())?;
                write_output(None, &bytes)?;
            }
            Err(e) => {
                failed = true;
                eprintln!("error: {e:#}");
            }
        }
    }
    Ok(if failed {
        ExitCode::from(super::EXIT_BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    })
}

fn render_one(args: &Args, cast: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    let reader = crate::cast::open(cast)?;
    let engine = args.engine.engine;
    let checkpoint: Checkpoint = match (&args.at, args.time) {
        (_, Some(t)) => {
            if !(t.is_finite() && t >= 0.0) {
                bail!("--time must be a number of seconds, 0 or more (got {t})");
            }
            replay::at_time(reader, engine, t)?
        }
        (Some(name), None) => match replay::find(reader, engine, name)? {
            Found::Checkpoint(c) => *c,
            Found::Missing(names) => {
                let list: Vec<String> = names.iter().map(|n| escape_for_terminal(n, 80)).collect();
                bail!(
                    "{}: no checkpoint named \"{}\"; the checkpoints are: {}",
                    cast.display(),
                    escape_for_terminal(name, 80),
                    list.join(", ")
                );
            }
        },
        (None, None) => match replay::find(reader, engine, END)? {
            Found::Checkpoint(c) => *c,
            Found::Missing(_) => bail!("{}: the cast has no end", cast.display()),
        },
    };
    let bytes = match args.format {
        Format::Text => crate::render::text(&checkpoint.screen).into_bytes(),
        Format::Json => {
            let mut value = crate::render::json(&checkpoint.screen);
            if let Some(obj) = value.as_object_mut() {
                obj.insert(
                    "checkpoint".into(),
                    serde_json::json!({
                        "name": checkpoint.name,
                        "line": checkpoint.line,
                        "time": checkpoint.time,
                    }),
                );
            }
            crate::render::json_lines(&value).into_bytes()
        }
    };
    Ok(bytes)
}
