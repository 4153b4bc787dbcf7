//! `tuicast info`: what a cast holds, and the terminal modes its program left set (the one
//! thing it replays the output for).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;

use super::write_output;
use tuicast::cast::EventData;
use tuicast::escape::escape_for_terminal;
use tuicast::replay::{CheckpointNames, Replayer};
use tuicast::term::EngineKind;

/// Show a cast's version, size, duration, event counts, checkpoints and the terminal modes
/// its program left set (mouse reporting, bracketed paste, focus reporting, keys, wrap).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  tuicast info casts/demo.cast\n  tuicast info casts/demo.cast --json"
)]
pub(super) struct Args {
    /// The cast file.
    cast: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

struct Mark {
    name: String,
    line: u64,
    time: f64,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut reader = tuicast::cast::open(&args.cast)?;
    let header = reader.header().clone();
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut names = CheckpointNames::default();
    let mut marks = Vec::new();
    let (mut duration, mut last_line) = (0.0f64, 1u64);
    let mut exit = None;
    let mut replayer = Replayer::new(&header, EngineKind::Avt);
    for event in &mut reader {
        let event = event?;
        replayer.apply(&event);
        *counts.entry(event.data.code().to_string()).or_default() += 1;
        duration = event.time;
        last_line = event.line;
        if let Some(name) = names.checked(&event).map_err(|e| e.with_path(&args.cast))? {
            marks.push(Mark {
                name,
                line: event.line,
                time: event.time,
            });
        }
        if let EventData::Exit(status) = &event.data {
            exit = Some(*status);
        }
    }
    let modes = replayer.screen().modes;
    marks.push(Mark {
        name: names.end(),
        line: last_line,
        time: duration,
    });

    let out = if args.json {
        let value = json!({
            "path": args.cast.display().to_string(),
            "version": header.version,
            "size": {"cols": header.term.size.cols, "rows": header.term.size.rows},
            "duration": duration,
            "title": header.title,
            "command": header.command,
            "term_type": header.term.term_type,
            "idle_time_limit": header.idle_time_limit,
            "exit_status": exit,
            "events": counts,
            "checkpoints": marks.iter().map(|m| json!({"name": m.name, "line": m.line, "time": m.time})).collect::<Vec<_>>(),
            "modes": modes,
        });
        let mut s = serde_json::to_string_pretty(&value)?;
        s.push('\n');
        s
    } else {
        let esc = |s: &str| escape_for_terminal(s, 200);
        let mut s = String::new();
        s.push_str(&format!("{}\n", esc(&args.cast.display().to_string())));
        s.push_str(&format!("  version      {}\n", header.version));
        s.push_str(&format!("  size         {}\n", header.term.size));
        s.push_str(&format!("  duration     {duration:.3}s\n"));
        if let Some(t) = &header.title {
            s.push_str(&format!("  title        {}\n", esc(t)));
        }
        if let Some(c) = &header.command {
            s.push_str(&format!("  command      {}\n", esc(c)));
        }
        if let Some(status) = exit {
            s.push_str(&format!("  exit status  {status}\n"));
        }
        let counts: Vec<String> = counts
            .iter()
            .map(|(c, n)| format!("{} {n}", esc(c)))
            .collect();
        s.push_str(&format!("  events       {}\n", counts.join(", ")));
        s.push_str(&format!("  final modes  {}\n", modes.describe()));
        s.push_str("  checkpoints\n");
        let width = marks
            .iter()
            .map(|m| esc(&m.name).chars().count())
            .max()
            .unwrap_or(0);
        for m in &marks {
            s.push_str(&format!(
                "    {:width$}  line {:<6} at {:.3}s\n",
                esc(&m.name),
                m.line,
                m.time
            ));
        }
        s
    };
    write_output(None, out.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
