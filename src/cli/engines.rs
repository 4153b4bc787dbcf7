//! `tuicast engines`: differential replay, the cells where the engines disagree.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use super::{write_output, EXIT_CHECK_FAILED};
use tuicast::escape::escape_for_terminal;
use tuicast::pos::Ordinal;
use tuicast::replay::differential::{self, describe_style, Comparison};
use tuicast::term::{Cell, EngineKind};

/// Replay a cast through every engine and report, per checkpoint, the cells where their
/// screens disagree (row, column, each engine's character and style).
///
/// Exit status: 0 when the engines agree everywhere, 1 when they disagree somewhere.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast engines casts/demo.cast\n  \
    tuicast engines casts/demo.cast --at menu --limit 0\n  \
    tuicast engines casts/demo.cast --json > differences.json")]
pub(super) struct Args {
    /// The cast file (asciicast v1, v2 or v3).
    #[arg(value_name = "CAST")]
    cast: PathBuf,
    /// Compare only at this checkpoint (a marker label, or `end`).
    #[arg(long, value_name = "NAME")]
    at: Option<String>,
    /// Show at most this many cells per checkpoint; 0 shows every one.
    #[arg(long, value_name = "N", default_value_t = 20)]
    limit: usize,
    /// Print JSON (every checkpoint and every disagreeing cell) instead of text.
    #[arg(long)]
    json: bool,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let engines = EngineKind::ALL;
    let reader = tuicast::cast::open(&args.cast)?;
    let comparisons = match &args.at {
        Some(name) => match differential::compare_engines_at(reader, &engines, name)? {
            Some(c) => vec![c],
            None => bail!(
                "{}: no checkpoint {} (`tuicast info CAST` lists them)",
                escape_for_terminal(&args.cast.display().to_string(), 200),
                escape_for_terminal(name, 80)
            ),
        },
        None => differential::compare_engines(reader, &engines)?,
    };
    let disagree = comparisons.iter().filter(|c| !c.agrees()).count();
    let out = if args.json {
        let doc =
            differential::EnginesJson::new(args.cast.display().to_string(), &engines, comparisons);
        serde_json::to_string_pretty(&doc)? + "\n"
    } else {
        render_text(&args, &engines, &comparisons, disagree)
    };
    write_output(args.output.as_ref(), out.as_bytes())?;
    Ok(if disagree == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_CHECK_FAILED)
    })
}

fn render_text(
    args: &Args,
    engines: &[EngineKind],
    comparisons: &[Comparison],
    disagree: usize,
) -> String {
    // `native, avt and vt100`
    let names = match engines
        .iter()
        .map(|e| e.name())
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let mut s = String::new();
    let cast = escape_for_terminal(&args.cast.display().to_string(), 200);
    let n = comparisons.len();
    let plural = if n == 1 { "" } else { "s" };
    if disagree == 0 {
        let _ = writeln!(s, "{cast}: {names} agree at every checkpoint ({n})");
    } else {
        let _ = writeln!(
            s,
            "{cast}: {names} disagree at {disagree} of {n} checkpoint{plural}"
        );
    }
    for c in comparisons {
        let name = escape_for_terminal(&c.name, 80);
        let _ = write!(s, "\n@ {name} (line {}, {:.3}s): ", c.line, c.time);
        if c.agrees() {
            s.push_str("the engines agree\n");
            continue;
        }
        let text = c.cells.iter().filter(|d| d.text).count();
        let _ = writeln!(
            s,
            "{} of {} cells differ ({text} in their character, {} only in their style)",
            c.cells.len(),
            c.compared,
            c.cells.len() - text
        );
        for d in &c.screen {
            let values: Vec<String> = d
                .values
                .iter()
                .map(|v| format!("{} {}", v.engine, escape_for_terminal(&v.value, 120)))
                .collect();
            let _ = writeln!(s, "  {}: {}", d.what, values.join(" | "));
        }
        let shown = if args.limit == 0 {
            c.cells.len()
        } else {
            args.limit.min(c.cells.len())
        };
        for d in &c.cells[..shown] {
            let cells: Vec<String> = d
                .cells
                .iter()
                .map(|c| format!("{} {}", c.engine, describe(c.cell.as_ref())))
                .collect();
            let _ = writeln!(
                s,
                "  row {:>3}, col {:>3}  {}",
                Ordinal::of(d.row),
                Ordinal::of(d.col),
                cells.join("  |  ")
            );
        }
        if shown < c.cells.len() {
            let _ = writeln!(
                s,
                "  … and {} more cells (--limit 0 shows them all)",
                c.cells.len() - shown
            );
        }
    }
    s
}

fn describe(cell: Option<&Cell>) -> String {
    match cell {
        None => "(outside its screen)".into(),
        Some(c) => {
            let text = if c.width == 0 {
                "(wide tail)".to_string()
            } else {
                format!("{:?}", c.text)
            };
            format!("{text} {}", describe_style(c))
        }
    }
}
