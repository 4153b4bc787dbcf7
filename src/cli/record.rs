//! `tuicast record`: run scenarios live, or record a person at the keyboard.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{bail, Context};

use tuicast::config::{scenario_toml, CastFile, ConfigError};
use tuicast::escape::escape_for_terminal;
use tuicast::record::journal::Journal;
use tuicast::record::keys::{split_typed, Typed};
use tuicast::record::{default_cast_path, record_scenario, RecordError, Session, SessionOptions};
use tuicast::record::{Action, Program, Scenario, Step};
use tuicast::size::Size;

/// Record casts: run scenario files live, or record a command by hand.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast record casts/vim.toml                  run a scenario, write casts/vim.cast\n  \
    tuicast record casts/*.toml                    several scenarios, in parallel\n  \
    tuicast record --repeat 5 casts/vim.toml       5 recordings; the cast only if they agree\n  \
    tuicast record -o demo.cast -- bash            record by hand; Ctrl-\\ marks a named checkpoint\n  \
    tuicast record -o d.cast --scenario d.toml -- bash   also write what was typed as a scenario\n  \
    tuicast record -o top.cast --size 100x30 -- top\n\n\
    A recording is written to CAST.partial as it runs (a valid cast at every moment) and\n\
    renamed to CAST when it succeeds.")]
pub(super) struct Args {
    /// Scenario files (`NAME.toml`; the cast is written beside it as `NAME.cast`).
    #[arg(value_name = "SCENARIO")]
    scenarios: Vec<PathBuf>,
    /// The cast to write (one scenario, or a command recorded by hand).
    #[arg(short, long, value_name = "CAST")]
    output: Option<PathBuf>,
    /// Terminal size for a command recorded by hand (default: this terminal's size).
    #[arg(long, value_name = "COLSxROWS")]
    size: Option<String>,
    /// Record each scenario N times and write its cast only when every checkpoint is the
    /// same in all of them (as its goldens see it: masked); otherwise list the cells that
    /// varied and the masks that would hide them (the flake guard).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=tuicast::harness::repeat::MAX_REPEAT as i64))]
    repeat: Option<u16>,
    /// With a command recorded by hand: also write the scenario of what was typed (keys as
    /// `type`/`press` steps, the waits inferred from the screen, Ctrl-\\ markers as
    /// checkpoints, the exit), for `tuicast record FILE` to record again.
    #[arg(long, value_name = "FILE")]
    scenario: Option<PathBuf>,
    /// The command to record by hand, after `--`.
    #[arg(last = true, value_name = "CMD")]
    command: Vec<String>,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Before any other thread: SIGINT/SIGTERM/SIGHUP then end each recording cleanly (its
    // program's whole session killed, its HOME removed, its `.partial` kept) and exit with
    // the shell's status (130/143/129).
    tuicast::record::interrupt::install().context("cannot set up signal handling")?;
    if !args.command.is_empty() {
        if !args.scenarios.is_empty() {
            bail!("give either scenario files or a command after --, not both");
        }
        if args.repeat.is_some() {
            bail!("--repeat records scenario files again; a command recorded by hand runs once");
        }
        return by_hand(&args);
    }
    if args.scenario.is_some() {
        bail!("--scenario writes the scenario of a command recorded by hand: give the command after --");
    }
    if args.scenarios.is_empty() {
        bail!("nothing to record: give scenario files, or a command after -- (tuicast record -o x.cast -- bash)");
    }
    if args.output.is_some() && args.scenarios.len() > 1 {
        bail!(
            "-o/--output takes one scenario; {} were given",
            args.scenarios.len()
        );
    }
    // Two recordings into one cast would interleave into an invalid file, and a cast written
    // over its scenario destroys it: both refused before anything runs.
    let mut outputs: std::collections::HashMap<PathBuf, &PathBuf> = Default::default();
    for scenario in &args.scenarios {
        let cast = args
            .output
            .clone()
            .unwrap_or_else(|| default_cast_path(scenario));
        let target = tuicast::util::resolved(&cast);
        let shown = |p: &PathBuf| escape_for_terminal(&p.display().to_string(), 300);
        if target == tuicast::util::resolved(scenario) {
            bail!(
                "refusing to write the cast over its scenario {}",
                shown(scenario)
            );
        }
        if let Some(other) = outputs.insert(target, scenario) {
            bail!(
                "{} and {} would both write {}: record them one at a time or give -o",
                shown(other),
                shown(scenario),
                shown(&cast)
            );
        }
    }
    let live = std::io::stderr().is_terminal();
    let results: Vec<(PathBuf, Result<tuicast::record::Recorded, Failed>)> =
        std::thread::scope(|s| {
            let handles: Vec<_> = args
                .scenarios
                .iter()
                .map(|scenario| {
                    let cast = args
                        .output
                        .clone()
                        .unwrap_or_else(|| default_cast_path(scenario));
                    s.spawn(move || {
                        let mut progress = |line: &str| {
                            if live {
                                eprintln!("  {line}");
                            }
                        };
                        let repeat = args.repeat.map_or(1, usize::from);
                        (
                            scenario.clone(),
                            record_file(scenario, &cast, repeat, &mut progress),
                        )
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("recording thread"))
                .collect()
        });
    let (mut checks_failed, mut bad_input) = (false, false);
    let mut interrupted = None;
    for (scenario, result) in results {
        match result {
            Ok(r) => eprintln!(
                "recorded {} ({:.1}s, {})",
                r.cast.display(),
                r.finished.duration,
                how_it_ended(&r.finished)
            ),
            Err(Failed::Record(e)) if e.interrupted().is_some() => {
                interrupted = e.interrupted();
                let cast = args
                    .output
                    .clone()
                    .unwrap_or_else(|| default_cast_path(&scenario));
                let partial = tuicast::record::partial_path(&cast);
                eprintln!("error: {}: {e}", scenario.display());
                if partial.exists() {
                    eprintln!(
                        "  the recording so far is in {} (a valid cast)",
                        partial.display()
                    );
                }
            }
            Err(e) => {
                if e.is_check_failure() {
                    checks_failed = true;
                } else {
                    bad_input = true;
                }
                let cast = args
                    .output
                    .clone()
                    .unwrap_or_else(|| default_cast_path(&scenario));
                let partial = tuicast::record::partial_path(&cast);
                match e {
                    // These name their place in the file already.
                    Failed::Config(e) => eprintln!("error: {e}"),
                    Failed::Record(e) if e.origin().is_some() => eprintln!("error: {e}"),
                    Failed::Record(e) => eprintln!("error: {}: {e}", scenario.display()),
                    Failed::Varied(e) => eprint!("error: {e}"),
                }
                if partial.exists() {
                    eprintln!(
                        "  the recording so far is in {} (a valid cast)",
                        partial.display()
                    );
                }
            }
        }
    }
    // An interruption that came after the last recording ended still counts.
    if let (None, Some(signal)) = (interrupted, tuicast::record::interrupt::requested()) {
        eprintln!(
            "interrupted by {} after the recordings ended",
            tuicast::record::interrupt::signal_name(signal)
        );
    }
    if let Some(signal) = interrupted.or_else(tuicast::record::interrupt::requested) {
        return Ok(ExitCode::from(
            tuicast::record::interrupt::exit_status(signal) as u8,
        ));
    }
    Ok(if bad_input {
        ExitCode::from(super::EXIT_BAD_INPUT)
    } else if checks_failed {
        ExitCode::from(super::EXIT_CHECK_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}

/// The exit status, and for a program still running at the end what ended it: "exit status
/// 0", or "still running at the end: ended with SIGHUP (status 129)".
fn how_it_ended(f: &tuicast::record::Finished) -> String {
    match f.ended_by {
        Some(signal) => format!(
            "still running at the end: ended with {} (status {})",
            signal.as_str(),
            f.status
        ),
        None => format!("exit status {}", f.status),
    }
}

/// Why a scenario file was not recorded.
enum Failed {
    /// The file is not a usable scenario.
    Config(ConfigError),
    /// The recording failed.
    Record(RecordError),
    /// `--repeat`: checkpoints differ between the recordings (the message lists the cells).
    Varied(String),
}

impl Failed {
    fn is_check_failure(&self) -> bool {
        matches!(self, Failed::Record(e) if e.is_check_failure())
            || matches!(self, Failed::Varied(_))
    }
}

/// Reads the scenario file at `path` (through the config stage, which checks all of it) and
/// records its recording part into `cast`.
fn record_file(
    path: &std::path::Path,
    cast: &std::path::Path,
    repeat: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<tuicast::record::Recorded, Failed> {
    // The project's `[regions]` (tuicast.toml in the current folder) serve the steps too.
    let root = std::env::current_dir().map_err(|e| {
        Failed::Config(ConfigError::new(
            path,
            0,
            0,
            format!("the current folder: {e}"),
        ))
    })?;
    let config = tuicast::config::Config::load(&root).map_err(Failed::Config)?;
    let file = CastFile::load(path, &config.regions).map_err(Failed::Config)?;
    let scenario = file.scenario().map_err(Failed::Config)?;
    if repeat > 1 {
        return record_repeated(path, &file, scenario, cast, repeat, progress);
    }
    record_scenario(scenario, cast, progress).map_err(Failed::Record)
}

/// `--repeat N`: the scenario recorded N times beside the cast; the cast is written (the
/// first recording) only when all of them have the same checkpoints as goldens see them.
fn record_repeated(
    path: &std::path::Path,
    file: &CastFile,
    scenario: &tuicast::record::Scenario,
    cast: &std::path::Path,
    repeat: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<tuicast::record::Recorded, Failed> {
    use tuicast::harness::repeat::{record_repeatedly, Compared};
    let mut engine: tuicast::term::EngineSpec = std::env::current_dir()
        .ok()
        .and_then(|d| tuicast::config::Config::load(&d).ok())
        .map(|c| c.engine)
        .unwrap_or_default();
    engine.options = file.terminal.apply(engine.options);
    let formats = file.formats.clone().unwrap_or_default();
    let how = Compared {
        engine,
        masks: &file.masks,
        cursor: file.cursor,
        styles: formats.iter().any(|f| f.always_styled()),
        regions: &file.anchors,
    };
    progress(&format!("recording {repeat} times"));
    let shown = escape_for_terminal(&path.display().to_string(), 300);
    let checked = &file.checked;
    let repeated = record_repeatedly(
        scenario,
        cast,
        repeat,
        how,
        &|name| checked.includes(name, name == "end"),
        &shown,
    )
    .map_err(|e| Failed::Varied(e.into()))?;
    // A result, not progress: said whether or not stderr is a terminal.
    eprintln!("{shown}: {}", repeated.overhead_line());
    let mut first = repeated.recorded;
    std::fs::rename(&first.cast, cast).map_err(|e| {
        let _ = std::fs::remove_file(&first.cast);
        Failed::Varied(format!("cannot write {}: {e}\n", cast.display()))
    })?;
    first.cast = cast.to_path_buf();
    Ok(first)
}

/// Ctrl-\ : drops a marker instead of reaching the program.
const MARKER_KEY: u8 = 0x1c;

/// The longest checkpoint name typed at the marker prompt.
const MAX_MARKER_NAME: usize = 64;

/// Asks the person, on the bottom row of their terminal, for the name of the checkpoint a
/// Ctrl-\ marks (Enter alone, Esc or Ctrl-\ again keep `default`; letters, digits, `-`,
/// `_` and `.` are taken, at most [`MAX_MARKER_NAME`]), then draws the row again from
/// `screen` (the recording never sees the prompt). A name already used gets `-2`, `-3`, ...
fn ask_marker_name(
    screen: &tuicast::term::Screen,
    input: &mpsc::Receiver<Vec<u8>>,
    default: &str,
    used: &[String],
) -> String {
    let row = screen.size.rows;
    let mut out = std::io::stdout();
    let mut typed = String::new();
    // The cursor and pen are saved once (ESC 7), before the first drawing: saving them again
    // at each redraw would save the prompt's own place, and the program's cursor would be
    // left on the bottom row when the prompt is gone.
    let _ = write!(out, "\x1b7");
    let draw = |out: &mut std::io::Stdout, typed: &str| {
        let _ = write!(
            out,
            "\x1b[{row};1H\x1b[0;7m checkpoint name (Enter: {default}): \x1b[0m\x1b[K{typed}"
        );
        let _ = out.flush();
    };
    draw(&mut out, &typed);
    let mut done = false;
    while !done {
        let Ok(bytes) = input.recv_timeout(Duration::from_millis(50)) else {
            if tuicast::record::interrupt::requested().is_some() {
                break;
            }
            continue;
        };
        for b in bytes {
            match b {
                b'\r' | b'\n' => done = true,
                0x1b | MARKER_KEY | 0x03 => {
                    typed.clear();
                    done = true;
                }
                0x7f | 0x08 => {
                    typed.pop();
                }
                b if (b.is_ascii_alphanumeric() || b"-_.".contains(&b))
                    && typed.len() < MAX_MARKER_NAME =>
                {
                    typed.push(b as char)
                }
                _ => {}
            }
            if done {
                break;
            }
        }
        draw(&mut out, &typed);
    }
    // The row as the program left it, then the cursor and pen as they were.
    let _ = write!(
        out,
        "\x1b[{row};1H\x1b[0m\x1b[2K{}\x1b[0m\x1b8",
        row_ansi(screen, usize::from(row) - 1)
    );
    let _ = out.flush();
    let base = if typed.is_empty() {
        default.to_string()
    } else {
        typed
    };
    let mut name = base.clone();
    let mut n = 1;
    while name == "end" || used.contains(&name) {
        n += 1;
        name = format!("{base}-{n}");
    }
    name
}

/// Row `r` of `screen` as text with SGR sequences, to draw it again.
fn row_ansi(screen: &tuicast::term::Screen, r: usize) -> String {
    use tuicast::term::Color;
    let color = |c: Color, base: u8| match c {
        Color::Default => format!("{}", base + 9),
        Color::Indexed(i) if i < 8 => format!("{}", base + i),
        Color::Indexed(i) if i < 16 => format!("{}", base + 60 + i - 8),
        Color::Indexed(i) => format!("{};5;{i}", base + 8),
        Color::Rgb(c) => format!("{};2;{};{};{}", base + 8, c.0, c.1, c.2),
        // (A colour kind this build does not know: drawn in the default colour.)
        _ => format!("{}", base + 9),
    };
    let mut out = String::new();
    let mut last = None;
    for cell in screen.rows.get(r).into_iter().flatten() {
        if cell.width == 0 {
            continue;
        }
        let style = (cell.fg, cell.bg, cell.attrs);
        if last != Some(style) {
            let a = cell.attrs;
            let mut sgr = vec!["0".to_string()];
            for (on, code) in [
                (a.bold, "1"),
                (a.dim, "2"),
                (a.italic, "3"),
                (a.underline, "4"),
                (a.blink, "5"),
                (a.inverse, "7"),
                (a.hidden, "8"),
                (a.strikethrough, "9"),
            ] {
                if on {
                    sgr.push(code.into());
                }
            }
            sgr.push(color(cell.fg, 30));
            sgr.push(color(cell.bg, 40));
            out.push_str(&format!("\x1b[{}m", sgr.join(";")));
            last = Some(style);
        }
        out.push_str(&cell.text);
    }
    out
}

fn by_hand(args: &Args) -> anyhow::Result<ExitCode> {
    let Some(cast) = &args.output else {
        bail!("recording by hand needs -o CAST");
    };
    // Renamed into place at the end: a device, FIFO or link there is refused now.
    if let Err(e) = tuicast::util::output_target(cast).and_then(|t| match t {
        tuicast::util::OutputTarget::Replace => Ok(()),
        _ => Err(std::io::Error::other(
            "is a device or a FIFO; a recording is written to a regular file",
        )),
    }) {
        bail!(
            "cannot create {}: {e}",
            escape_for_terminal(&cast.display().to_string(), 300)
        );
    }
    // Before anything runs: the scenario, written last, would replace the recording.
    if let Some(scenario) = &args.scenario {
        if tuicast::util::resolved(scenario) == tuicast::util::resolved(cast) {
            bail!(
                "refusing to write the scenario over the cast {}: name another file for --scenario",
                escape_for_terminal(&cast.display().to_string(), 300)
            );
        }
    }
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        bail!("recording by hand needs a terminal on standard input (use a scenario file for scripted recordings)");
    }
    let real_size = || {
        terminal_size::terminal_size().map(|(w, h)| Size {
            cols: w.0,
            rows: h.0,
        })
    };
    let size = match &args.size {
        Some(s) => s
            .parse::<Size>()
            .and_then(Size::for_terminal)
            .map_err(anyhow::Error::msg)?,
        None => real_size().unwrap_or_default(),
    };
    let mut opts = SessionOptions::new(args.command.clone());
    opts.size = size;
    opts.fresh_home = false;
    // A person's own environment, over the deterministic base.
    for (k, v) in std::env::vars() {
        opts.env.insert(k, v);
    }
    opts.env.insert("TERM".into(), "xterm-256color".into());
    let partial = tuicast::record::partial_path(cast);
    let mut session = Session::spawn(opts, &partial)?;
    session.set_mirror(Box::new(std::io::stdout()));
    eprintln!(
        "recording to {} — exit the program to stop; Ctrl-\\ marks a checkpoint (named on the spot)\r",
        cast.display()
    );

    let guard = RawMode::enable().context("cannot put the terminal in raw mode")?;
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        let mut input = std::io::stdin();
        loop {
            match input.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let mut markers = 0;
    let mut used: Vec<String> = Vec::new();
    let follow_size = args.size.is_none();
    let mut journal = Journal::new(true);
    journal.started(&session.screen());
    let start_size = session.size();
    let result = (|| -> Result<(), RecordError> {
        while !session.is_done() {
            session.poll(Duration::from_millis(10))?;
            while let Ok(bytes) = rx.try_recv() {
                for part in bytes.split_inclusive(|b| *b == MARKER_KEY) {
                    let (text, marker) = match part.split_last() {
                        Some((&MARKER_KEY, rest)) => (rest, true),
                        _ => (part, false),
                    };
                    if !text.is_empty() && session.status().is_none() {
                        let text = String::from_utf8_lossy(text);
                        let before = session.screen();
                        session.send_keystrokes(&text)?;
                        for piece in split_typed(&text) {
                            let action = match piece {
                                Typed::Text(t) => Action::Type(t),
                                Typed::Key(k) => Action::Press(vec![k]),
                            };
                            journal.record(Step::new(action), &before, &before);
                        }
                    }
                    if marker {
                        markers += 1;
                        // Named on the spot: the program's output waits (nothing is read
                        // from it) while the person types the name, so the marker is where
                        // Ctrl-\ was.
                        let name = ask_marker_name(
                            &session.screen(),
                            &rx,
                            &format!("mark-{markers}"),
                            &used,
                        );
                        used.push(name.clone());
                        session.mark(&name)?;
                        let now = session.screen();
                        journal.record(Step::new(Action::Snapshot(name)), &now, &now);
                    }
                }
            }
            if follow_size {
                if let Some(now) = real_size() {
                    if now != session.size() {
                        let before = session.screen();
                        session.resize(now)?;
                        journal.record(Step::new(Action::Resize(now)), &before, &before);
                    }
                }
            }
        }
        Ok(())
    })();
    let last = session.screen();
    let exited = session.status();
    let finished = session.finish();
    drop(guard);
    if let Some(signal) = tuicast::record::interrupt::requested() {
        drop(finished);
        eprintln!(
            "interrupted by {}: the recording so far is in {} (a valid cast)",
            tuicast::record::interrupt::signal_name(signal),
            partial.display()
        );
        return Ok(ExitCode::from(
            tuicast::record::interrupt::exit_status(signal) as u8,
        ));
    }
    result?;
    let finished = finished?;
    std::fs::rename(&partial, cast)
        .with_context(|| format!("cannot rename {} to {}", partial.display(), cast.display()))?;
    if let Some(path) = &args.scenario {
        let mut scenario = Scenario::new(
            Program::Argv(args.command.clone()),
            &std::env::current_dir().context("cannot read the current folder")?,
        );
        scenario.size = Some(start_size);
        scenario.steps = journal.finish(&last, exited);
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        let text = scenario_toml(
            &scenario,
            dir,
            "Written by `tuicast record --scenario` from a recording by hand: the keys typed,\n\
             the waits inferred from the screen, Ctrl-\\ markers as checkpoints. It runs in\n\
             tuicast's clean environment (not the recording person's): add env = { ... } if needed.",
        );
        tuicast::util::write_output(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let _ = std::io::stdout().flush();
    eprintln!(
        "recorded {} ({:.1}s, {}, {markers} marker(s))",
        cast.display(),
        finished.duration,
        how_it_ended(&finished)
    );
    Ok(ExitCode::SUCCESS)
}

/// Raw mode on standard input for as long as it lives; restored on every exit path (also
/// when unwinding from a panic).
pub(super) struct RawMode {
    saved: nix::sys::termios::Termios,
}

impl RawMode {
    pub(super) fn enable() -> nix::Result<RawMode> {
        use nix::sys::termios::{cfmakeraw, tcgetattr, tcsetattr, SetArg};
        let stdin = std::io::stdin();
        let saved = tcgetattr(&stdin)?;
        let mut raw = saved.clone();
        cfmakeraw(&mut raw);
        tcsetattr(&stdin, SetArg::TCSAFLUSH, &raw)?;
        Ok(RawMode { saved })
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        use nix::sys::termios::{tcsetattr, SetArg};
        let _ = tcsetattr(std::io::stdin(), SetArg::TCSAFLUSH, &self.saved);
    }
}
