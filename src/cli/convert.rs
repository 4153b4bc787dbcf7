//! `tuicast convert`: rewrite any readable cast (v1, v2, v3) as asciicast v3.

use std::path::PathBuf;
use std::process::ExitCode;

use tuicast::cast::{transform, CastWriter, Event};

/// Write a cast as asciicast v3, optionally capping idle pauses.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast convert old-v2.cast -o new.cast\n  \
    tuicast convert long.cast -o short.cast --idle-limit 2")]
pub(super) struct Args {
    /// The cast to read (asciicast v1, v2 or v3).
    input: PathBuf,
    /// Where to write the v3 cast (`-` for standard output); written atomically.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Shorten every pause longer than this many seconds to this many seconds, and record the
    /// limit in the header.
    #[arg(long, value_name = "SECS")]
    idle_limit: Option<f64>,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(l) = args.idle_limit {
        if !(l.is_finite() && l > 0.0) {
            anyhow::bail!("--idle-limit must be a number of seconds above 0 (got {l})");
        }
    }
    let reader = tuicast::cast::open(&args.input)?;
    let mut header = reader.header().clone();
    if let Some(l) = args.idle_limit {
        header.idle_time_limit = Some(l);
    }
    let events: Box<dyn Iterator<Item = Result<Event, tuicast::cast::CastError>>> =
        match args.idle_limit {
            Some(l) => Box::new(transform::idle_limit(reader, l)),
            None => Box::new(reader),
        };
    let write = |w: &mut dyn std::io::Write| -> Result<(), Failure> {
        let mut writer = CastWriter::new(w, &header)?;
        for event in events {
            writer.write_event(&event.map_err(Failure::Input)?)?;
        }
        Ok(writer.flush()?)
    };
    let written = if args.output.as_os_str() == "-" {
        write(&mut std::io::stdout().lock())
    } else {
        tuicast::util::write_output_with(&args.output, write)
    };
    match written {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(Failure::Input(e)) => Err(e.into()),
        Err(Failure::Output(e)) => {
            anyhow::bail!("cannot write {}: {e}", args.output.display())
        }
    }
}

/// Why a conversion stopped: the input cast is malformed, or the output cannot be written.
enum Failure {
    Input(tuicast::cast::CastError),
    Output(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Output(e)
    }
}
