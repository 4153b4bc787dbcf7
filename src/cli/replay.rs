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
    tuicast replay casts/demo.cast --at saved --format json -o saved.json\n  \
    tuicast replay casts/demo.cast --time 2.5 --engine vt100")]
pub(super) struct Args {
    /// The cast file (asciicast v1, v2 or v3).
    cast: PathBuf,
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
    let reader = crate::cast::open(&args.cast)?;
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
                    args.cast.display(),
                    escape_for_terminal(name, 80),
                    list.join(", ")
                );
            }
        },
        (None, None) => match replay::find(reader, engine, END)? {
            Found::Checkpoint(c) => *c,
            Found::Missing(_) => bail!("{}: the cast has no end", args.cast.display()),
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
            let mut s = serde_json::to_string_pretty(&value)?;
            s.push('\n');
            s.into_bytes()
        }
    };
    write_output(args.output.as_ref(), &bytes)?;
    Ok(ExitCode::SUCCESS)
}
