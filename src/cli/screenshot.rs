//! `tuicast screenshot`: a PNG (or, for `-o FILE.svg`, an SVG) of one screen of a cast;
//! shorthand for `tuicast replay CAST --format png -o FILE`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::replay::{self, PngArgs};
use super::EngineArg;

/// Draw the screen of a cast at a checkpoint (default: the end) as a PNG, or as an SVG when
/// the file's name ends in `.svg`.
///
/// The same as `tuicast replay CAST --format png|svg -o FILE`, with the same options.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast screenshot casts/demo.cast -o demo.png\n  \
    tuicast screenshot casts/demo.cast -o demo.svg      text as text, for a README\n  \
    tuicast screenshot casts/vim.cast --at number -o vim.png --theme dracula --chrome\n  \
    tuicast screenshot casts/demo.cast --time 2.5 -o early.png --cursor bar\n  \
    tuicast screenshot casts/vttest.cast --deccolm -o wide.png   132 columns after CSI ? 3 h\n  \
    tuicast screenshot casts/demo.cast -o status.png --annotate region=status\n  \
    tuicast screenshot casts/dialog.cast --at menu -o menu.png \\\n      \
    --annotate 'regex=<  OK  >|<Cancel>,label=buttons,color=#3d9dff'")]
pub(super) struct Args {
    /// The cast file (asciicast v1, v2 or v3).
    #[arg(value_name = "CAST")]
    cast: PathBuf,
    /// The screen at this checkpoint (a marker label, or `end`).
    #[arg(long, conflicts_with = "time")]
    at: Option<String>,
    /// The screen after every event up to this many seconds.
    #[arg(long, value_name = "SECS")]
    time: Option<f64>,
    #[command(flatten)]
    engine: EngineArg,
    /// The PNG file to write (`FILE.svg`: an SVG; `-` for standard output, refused when
    /// that is a terminal).
    #[arg(short, long, value_name = "FILE.png")]
    output: PathBuf,
    #[command(flatten, next_help_heading = "Picture")]
    png: PngArgs,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    replay::run(replay::Args::png(
        args.cast,
        args.at,
        args.time,
        args.engine,
        args.output,
        args.png,
    ))
}
