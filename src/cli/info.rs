//! `tuicast info`: what a cast holds, what its program did to the terminal and the modes it
//! left set (one replay, one screen in memory at a time).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;

use super::write_output;
use tuicast::cast::EventData;
use tuicast::escape::escape_for_terminal;
use tuicast::replay::{CheckpointNames, Replayer};
use tuicast::term::{ClipboardWrite, EngineKind, Hyperlink, Screen};

/// Most window titles, clipboard writes and links listed.
const MAX_LISTED: usize = 100;

/// Show a cast's version, size, duration, event counts and checkpoints, and what its
/// program did to the terminal: window titles, icon name, bells, clipboard writes (OSC 52),
/// hyperlinks (OSC 8), scrollback, the escape sequences the engine did not follow, and the
/// terminal modes it left set (mouse reporting, bracketed paste, focus reporting, keys, wrap).
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
    /// When input was last sent before it, and when the program's last output before it
    /// came (seconds, as the cast has them).
    input: Option<f64>,
    output: Option<f64>,
}

impl Mark {
    /// What waiting for a settled screen cost: from the program's last output to the
    /// checkpoint, in milliseconds.
    fn overhead_ms(&self) -> Option<f64> {
        self.output.map(|o| (self.time - o).max(0.0) * 1000.0)
    }
}

/// The median of the checkpoints' overheads (the end excluded: it is no wait), in ms.
fn median_overhead(marks: &[Mark]) -> Option<f64> {
    let all: Vec<f64> = marks
        .iter()
        .take(marks.len().saturating_sub(1))
        .filter_map(Mark::overhead_ms)
        .collect();
    tuicast::util::median(&all)
}

/// What the replay saw, summed over the checkpoints (each screen counts bells and clipboard
/// writes since the one before).
#[derive(Default)]
struct Seen {
    titles: Vec<String>,
    icon: Option<String>,
    bells: u64,
    clipboard: Vec<(String, ClipboardWrite)>,
    links: Vec<Hyperlink>,
    scrollback: usize,
}

impl Seen {
    fn checkpoint(&mut self, name: &str, screen: &Screen) {
        if let Some(t) = &screen.title {
            if self.titles.last() != Some(t) && self.titles.len() < MAX_LISTED {
                self.titles.push(t.clone());
            }
        }
        self.icon.clone_from(&screen.state.icon);
        self.bells += u64::from(screen.state.bells);
        for w in &screen.state.clipboard {
            if self.clipboard.len() < MAX_LISTED {
                self.clipboard.push((name.to_string(), w.clone()));
            }
        }
        for l in &screen.state.links {
            if !self.links.contains(l) && self.links.len() < MAX_LISTED {
                self.links.push(l.clone());
            }
        }
        self.scrollback = screen.state.scrollback.len();
    }
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut reader = tuicast::cast::open(&args.cast)?;
    let header = reader.header().clone();
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut names = CheckpointNames::default();
    let mut marks = Vec::new();
    let (mut duration, mut last_line) = (0.0f64, 1u64);
    let mut exit = None;
    let mut replayer = Replayer::new(&header, EngineKind::default());
    let mut seen = Seen::default();
    let (mut last_input, mut last_output) = (None, None);
    for event in &mut reader {
        let event = event?;
        match &event.data {
            EventData::Input(_) => last_input = Some(event.time),
            EventData::Output(_) => last_output = Some(event.time),
            _ => {}
        }
        if let Some(name) = replayer.apply(&event) {
            seen.checkpoint(&name, &replayer.screen());
        }
        *counts.entry(event.data.code().to_string()).or_default() += 1;
        duration = event.time;
        last_line = event.line;
        if let Some(name) = names.checked(&event).map_err(|e| e.with_path(&args.cast))? {
            marks.push(Mark {
                name,
                line: event.line,
                time: event.time,
                input: last_input,
                output: last_output,
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
        input: last_input,
        output: last_output,
    });
    let settle = header
        .extra
        .get("tuicast")
        .and_then(|t| t.get("settle"))
        .and_then(|s| s.as_str())
        .map(str::to_string);
    let median = median_overhead(&marks);
    let unsupported = replayer.unsupported();
    let end = replayer.finish();
    seen.checkpoint(&end.name, &end.screen);

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
            "settle": settle,
            "checkpoints": marks.iter().map(|m| json!({
                "name": m.name, "line": m.line, "time": m.time,
                "last_input": m.input, "last_output": m.output, "overhead_ms": m.overhead_ms(),
            })).collect::<Vec<_>>(),
            "median_overhead_ms": median,
            "terminal": {
                "titles": seen.titles,
                "icon": seen.icon,
                "bells": seen.bells,
                "clipboard": seen.clipboard.iter().map(|(cp, w)| json!({
                    "checkpoint": cp, "selection": w.selection, "text": w.text, "truncated": w.truncated,
                })).collect::<Vec<_>>(),
                "links": seen.links.iter().map(|l| json!({"uri": l.uri, "id": l.id})).collect::<Vec<_>>(),
                "scrollback": seen.scrollback,
                "unsupported": unsupported.iter().collect::<BTreeMap<_, _>>(),
            },
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
        if let Some(rule) = &settle {
            s.push_str(&format!("  settle       {}\n", esc(rule)));
        }
        s.push_str("  checkpoints\n");
        let width = marks
            .iter()
            .map(|m| esc(&m.name).chars().count())
            .max()
            .unwrap_or(0);
        let last = marks.len().saturating_sub(1);
        for (i, m) in marks.iter().enumerate() {
            // The overhead: how long after the program's last output the checkpoint fired
            // (not for the end, which waits for nothing).
            let overhead = match m.overhead_ms() {
                Some(ms) if i < last => format!("  {ms:.1} ms after the last output"),
                _ => String::new(),
            };
            s.push_str(&format!(
                "    {:width$}  line {:<6} at {:.3}s{overhead}\n",
                esc(&m.name),
                m.line,
                m.time
            ));
        }
        if let Some(ms) = median {
            s.push_str(&format!(
                "  overhead     median {ms:.1} ms after the last output\n"
            ));
        }
        terminal_text(&mut s, &seen, &unsupported);
        s
    };
    write_output(None, out.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The terminal part of the text output: only what the program did.
fn terminal_text(s: &mut String, seen: &Seen, unsupported: &tuicast::term::Unsupported) {
    let esc = |t: &str| escape_for_terminal(t, 200);
    match seen.titles.as_slice() {
        [] => {}
        [one] => s.push_str(&format!("  window title {}\n", esc(one))),
        many => {
            s.push_str(&format!("  window titles {}\n", many.len()));
            for t in many {
                s.push_str(&format!("    {}\n", esc(t)));
            }
        }
    }
    if let Some(icon) = &seen.icon {
        s.push_str(&format!("  icon name    {}\n", esc(icon)));
    }
    if seen.bells > 0 {
        s.push_str(&format!("  bells        {}\n", seen.bells));
    }
    if !seen.clipboard.is_empty() {
        s.push_str(&format!("  clipboard    {} writes\n", seen.clipboard.len()));
        for (cp, w) in &seen.clipboard {
            let cut = if w.truncated { " (cut)" } else { "" };
            s.push_str(&format!(
                "    {} \"{}\"{cut} before {}\n",
                esc(&w.selection),
                escape_for_terminal(&w.text, 80),
                esc(cp)
            ));
        }
    }
    if !seen.links.is_empty() {
        s.push_str(&format!("  links        {}\n", seen.links.len()));
        for l in &seen.links {
            match &l.id {
                Some(id) => s.push_str(&format!("    {} id={}\n", esc(&l.uri), esc(id))),
                None => s.push_str(&format!("    {}\n", esc(&l.uri))),
            }
        }
    }
    if seen.scrollback > 0 {
        s.push_str(&format!(
            "  scrollback   {} lines at the end\n",
            seen.scrollback
        ));
    }
    if !unsupported.is_empty() {
        s.push_str(&format!(
            "  unsupported  {} sequences the engine did not follow\n",
            unsupported.total()
        ));
        let width = unsupported
            .iter()
            .map(|(k, _)| esc(k).chars().count())
            .max()
            .unwrap_or(0);
        for (kind, n) in unsupported.iter() {
            s.push_str(&format!("    {:width$}  {n}\n", esc(kind)));
        }
    }
}
