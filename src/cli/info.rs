//! `tuicast info`: what a cast holds, what its program did to the terminal and the modes it
//! left set (one replay, one screen in memory at a time).

use std::path::PathBuf;
use std::process::ExitCode;

use super::write_output;
use tuicast::escape::escape_for_terminal;
use tuicast::replay::info::{CastInfo, TerminalInfo};

/// Show a cast's version, size, duration, event counts and checkpoints, and what its
/// program did to the terminal: window titles, icon name, bells, clipboard writes (OSC 52),
/// hyperlinks (OSC 8), the kitty keyboard flags and modifyOtherKeys levels it used,
/// scrollback, the escape sequences the engine did not follow, and the terminal modes it left
/// set (mouse reporting, bracketed paste, focus reporting, keys, wrap).
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

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let reader = tuicast::cast::open(&args.cast)?;
    let info = CastInfo::read(args.cast.display().to_string(), reader)
        .map_err(|e| e.with_path(&args.cast))?;
    let out = if args.json {
        let mut s = serde_json::to_string_pretty(&info)?;
        s.push('\n');
        s
    } else {
        text(&info)
    };
    write_output(None, out.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The text output.
fn text(info: &CastInfo) -> String {
    let esc = |s: &str| escape_for_terminal(s, 200);
    let mut s = String::new();
    s.push_str(&format!("{}\n", esc(&info.path)));
    s.push_str(&format!("  version      {}\n", info.version));
    s.push_str(&format!(
        "  size         {}x{}\n",
        info.size.cols, info.size.rows
    ));
    s.push_str(&format!("  duration     {:.3}s\n", info.duration));
    if let Some(t) = &info.title {
        s.push_str(&format!("  title        {}\n", esc(t)));
    }
    if let Some(c) = &info.command {
        s.push_str(&format!("  command      {}\n", esc(c)));
    }
    if let Some(status) = info.exit_status {
        s.push_str(&format!("  exit status  {status}\n"));
    }
    let counts: Vec<String> = info
        .events
        .iter()
        .map(|(c, n)| format!("{} {n}", esc(c)))
        .collect();
    s.push_str(&format!("  events       {}\n", counts.join(", ")));
    s.push_str(&format!("  final modes  {}\n", info.modes.describe()));
    if let Some(rule) = &info.settle {
        s.push_str(&format!("  settle       {}\n", esc(rule)));
    }
    s.push_str("  checkpoints\n");
    let width = info
        .checkpoints
        .iter()
        .map(|m| esc(&m.name).chars().count())
        .max()
        .unwrap_or(0);
    let last = info.checkpoints.len().saturating_sub(1);
    for (i, m) in info.checkpoints.iter().enumerate() {
        // The overhead: how long after the program's last output the checkpoint fired
        // (not for the end, which waits for nothing).
        let overhead = match m.overhead_ms {
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
    if let Some(ms) = info.median_overhead_ms {
        s.push_str(&format!(
            "  overhead     median {ms:.1} ms after the last output\n"
        ));
    }
    terminal_text(&mut s, &info.terminal);
    s
}

/// The names of the kitty keyboard flags set in `flags`: `disambiguate+all keys`.
fn keyboard_flag_names(flags: u8) -> String {
    let names = [
        "disambiguate",
        "event types",
        "alternate keys",
        "all keys",
        "associated text",
    ];
    let on: Vec<&str> = (0..names.len())
        .filter(|b| flags & (1 << b) != 0)
        .map(|b| names[b])
        .collect();
    on.join("+")
}

/// The terminal part of the text output: only what the program did.
fn terminal_text(s: &mut String, seen: &TerminalInfo) {
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
        for w in &seen.clipboard {
            let cut = if w.truncated { " (cut)" } else { "" };
            s.push_str(&format!(
                "    {} \"{}\"{cut} before {}\n",
                esc(&w.selection),
                escape_for_terminal(&w.text, 80),
                esc(&w.checkpoint)
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
    if !seen.keyboard_flags.is_empty() {
        let flags: Vec<String> = seen
            .keyboard_flags
            .iter()
            .map(|f| format!("{f} ({})", keyboard_flag_names(*f)))
            .collect();
        s.push_str(&format!("  kitty keys   flags {}\n", flags.join(", ")));
    }
    if !seen.modify_other_keys.is_empty() {
        let levels: Vec<String> = seen.modify_other_keys.iter().map(u8::to_string).collect();
        s.push_str(&format!("  modifyOtherKeys level {}\n", levels.join(", ")));
    }
    if seen.scrollback > 0 {
        s.push_str(&format!(
            "  scrollback   {} lines at the end\n",
            seen.scrollback
        ));
    }
    if !seen.unsupported.is_empty() {
        s.push_str(&format!(
            "  unsupported  {} sequences the engine did not follow\n",
            seen.unsupported_total()
        ));
        let width = seen
            .unsupported
            .keys()
            .map(|k| esc(k).chars().count())
            .max()
            .unwrap_or(0);
        for (kind, n) in &seen.unsupported {
            s.push_str(&format!("    {:width$}  {n}\n", esc(kind)));
        }
    }
}
