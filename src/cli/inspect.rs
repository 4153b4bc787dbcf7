//! `tuicast inspect`: the outline of a checkpoint's screen (boxes, titles, the selected row,
//! bars), for people or, with `--json`, for scripts and agents.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use super::{write_output, EngineArg};
use tuicast::escape::escape_for_terminal;
use tuicast::replay::{self, Found};

/// Show what is on a screen of a cast as parts with names: boxes and their titles, the
/// selected row, the status bar, blocks of text, the cursor's row.
///
/// Positions count from 1, as regions and masks write them. The JSON schema is documented in
/// the library's `inspect` module.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast inspect casts/demo.cast                 the final screen\n  \
    tuicast inspect casts/demo.cast --at menu       the screen at the marker \"menu\"\n  \
    tuicast inspect casts/demo.cast --json          the same as JSON")]
pub(super) struct Args {
    /// The cast file (asciicast v1, v2 or v3).
    #[arg(value_name = "CAST")]
    cast: PathBuf,
    /// The checkpoint to inspect (a marker label, or `end`, the default).
    #[arg(long, value_name = "NAME", default_value = "end")]
    at: String,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArg,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let reader = tuicast::cast::open(&args.cast)?;
    let checkpoint = match replay::find(reader, args.engine.spec(), &args.at)? {
        Found::Checkpoint(c) => *c,
        Found::Missing(names) => {
            let list: Vec<String> = names.iter().map(|n| escape_for_terminal(n, 80)).collect();
            bail!(
                "{}: no checkpoint named \"{}\"; the checkpoints are: {}",
                escape_for_terminal(&args.cast.display().to_string(), 200),
                escape_for_terminal(&args.at, 80),
                list.join(", ")
            );
        }
    };
    // The project's adapters and regions (tuicast.toml in the current folder) name refs too.
    let config = tuicast::config::Config::load(&std::env::current_dir()?)?;
    let cx = tuicast::inspect::RefContext::new(config.regions.adapters())
        .regions(&config.regions.anchors);
    let inspection = tuicast::inspect::inspect(&checkpoint.screen, &cx)?;
    let out = if args.json {
        let mut doc = tuicast::inspect::InspectionJson::of(&inspection);
        doc.checkpoint = Some(tuicast::term::CheckpointJson::new(
            checkpoint.name.clone(),
            checkpoint.line,
            checkpoint.time,
        ));
        serde_json::to_string(&doc)? + "\n"
    } else {
        inspection.text()
    };
    write_output(args.output.as_ref(), out.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
