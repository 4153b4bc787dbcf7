//! Running a scenario: start the program, perform the steps, write the cast.
//!
//! Secrets are read before the program starts; an activated virtualenv (`VIRTUAL_ENV`) is kept
//! on `PATH`, as it is the project's Python. A program that ends while a later step still needs
//! it fails the step it ended in. [`run_step`] runs one step, as `tuicast session`'s daemon does
//! for each command.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::scenario::{Action, Scenario, Step, Wait};
use super::session::{
    base_env, CheckpointTiming, Finished, RecordError, Session, SessionOptions, SettledBy,
};

/// What running a scenario produced.
#[derive(Debug)]
#[non_exhaustive]
pub struct Recorded {
    /// The cast written.
    pub cast: PathBuf,
    /// How the program ended.
    pub finished: Finished,
}

/// Where the cast of `scenario` goes by default: beside it, `x.toml` → `x.cast`.
pub fn default_cast_path(scenario: &Path) -> PathBuf {
    scenario.with_extension("cast")
}

/// The file a recording is written to while it runs: `<cast>.partial`. It is a valid cast at
/// every moment; it replaces the cast only when the recording succeeds, so a failed or
/// interrupted recording never destroys the previous cast.
pub fn partial_path(cast: &Path) -> PathBuf {
    let mut s = cast.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

/// Records `scenario` into `cast` (see [`partial_path`]). `progress` is told about each
/// step. Secrets are read from tuicast's environment before the program starts, so a missing
/// one costs no recording; an error at a step carries the step's place.
pub fn record_scenario(
    scenario: &Scenario,
    cast: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<Recorded, RecordError> {
    let mut opts = SessionOptions::new(scenario.program.argv().map_err(RecordError::Bin)?);
    opts.cwd = scenario.cwd.clone();
    if let Some(size) = scenario.size {
        opts.size = size;
    }
    let mut env = base_env();
    // An activated virtualenv is the project's Python (its interpreter and packages): kept,
    // where the clean PATH would otherwise lose it (`ModuleNotFoundError`).
    if let Some(venv) =
        std::env::var_os("VIRTUAL_ENV").filter(|v| Path::new(v).join("bin").is_dir())
    {
        let venv = venv.to_string_lossy().into_owned();
        let path = env.get("PATH").cloned().unwrap_or_default();
        env.insert("PATH".into(), format!("{venv}/bin:{path}"));
        env.insert("VIRTUAL_ENV".into(), venv);
    }
    // The project's own tools: `node_modules/.bin` of the working folder or the nearest
    // folder above it that has one (as npm scripts see them).
    if let Some(bin) = crate::util::resolved(&scenario.cwd)
        .ancestors()
        .map(|d| d.join("node_modules").join(".bin"))
        .find(|b| b.is_dir())
    {
        let path = env.get("PATH").cloned().unwrap_or_default();
        env.insert("PATH".into(), format!("{}:{path}", bin.display()));
    }
    for name in &scenario.inherit_env {
        if let Ok(v) = std::env::var(name) {
            env.insert(name.clone(), v);
        }
    }
    env.extend(scenario.env.clone());
    opts.env = env;
    if let Some(t) = scenario.timeout {
        opts.timeout = t;
    }
    opts.fail_fast = scenario.fail_fast;
    if let Some(settle) = scenario.settle {
        opts.settle = settle;
    }
    opts.title = scenario.title.clone();
    opts.engine = scenario.terminal;
    opts.redact = scenario.redact.clone();
    opts.masks = scenario.masks.clone();
    opts.regions = scenario.regions.clone();

    let secrets = scenario
        .steps
        .iter()
        .map(|step| match &step.action {
            Action::Secret(name) => std::env::var(name)
                .map(Some)
                .map_err(|_| at_step(step, RecordError::MissingSecret(name.clone()))),
            _ => Ok(None),
        })
        .collect::<Result<Vec<_>, _>>()?;

    // The program runs in a fresh copy of its working folder (removed with `_copy`), so the
    // checkout never changes under a recording; what runs is the original (see `workdir.rs`).
    // (A folder that is not there is the spawn's error, as in place.)
    let _copy = if scenario.in_place || !scenario.cwd.is_dir() {
        None
    } else {
        let copy = super::workdir::WorkCopy::new(&scenario.cwd).map_err(RecordError::Workdir)?;
        super::workdir::run_from_original(&mut opts.command, &scenario.cwd);
        opts.cwd = copy.cwd().to_path_buf();
        Some(copy)
    };

    super::session::refuse_unreplaceable(cast)?;
    let partial = partial_path(cast);
    if let Some(parent) = partial.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    let mut session = Session::spawn(opts, &partial)?;
    let mut last_input: Option<&Step> = None;
    for (i, (step, secret)) in scenario.steps.iter().zip(&secrets).enumerate() {
        match &step.origin {
            Some(origin) => progress(&format!("{origin}: {}", step.describe())),
            None => progress(&step.describe()),
        }
        let settled =
            run_step(step, secret.as_deref(), &mut session).map_err(|e| at_step(step, e))?;
        if let Some(waited) = settled {
            progress(&settled_line(waited, session.timings().last()));
        }
        if needs_program(&step.action) {
            last_input = Some(step);
        }
        // The program ended during this step: if a later step still needs it (input or a
        // resize before the step that waits for its exit), this step is where it failed —
        // no later step, checkpoint or resize runs on a program that is gone.
        //
        // An input step does not wait for what its input does, so a program that ends
        // because of it may or may not have ended yet (that depends on the machine's load):
        // the next step that waits (a checkpoint, a wait) sees it, and the error names that
        // step and the input before it. Only when the next step would send the ended program
        // input too is it looked for here.
        let next_needs = scenario
            .steps
            .get(i + 1)
            .is_some_and(|s| needs_program(&s.action));
        if !matches!(step.action, Action::Exit(_)) && (!needs_program(&step.action) || next_needs) {
            session.poll(Duration::ZERO)?;
            if session.status().is_some() {
                let later = scenario.steps[i + 1..]
                    .iter()
                    .take_while(|s| !matches!(s.action, Action::Exit(_)))
                    .find(|s| needs_program(&s.action));
                if let Some(later) = later {
                    return Err(at_step(
                        step,
                        ended_during(&session, step, last_input, later),
                    ));
                }
            }
        }
    }
    // The final checkpoint (`end`) of a program still running is taken on a settled screen
    // too: the program is ended right after.
    if session.status().is_none() {
        session.wait_settled(session.settle()).map_err(|mut e| {
            if let RecordError::Unsettled(r) = &mut e {
                r.what = format!("{} for the last checkpoint (end)", r.what);
            }
            e
        })?;
    }
    let finished = session.finish()?;
    std::fs::rename(&partial, cast)?;
    Ok(Recorded {
        cast: cast.to_path_buf(),
        finished,
    })
}

/// The progress line of a checkpoint: how long it waited, how it was told, and how long after
/// the program's last output it fired (its overhead).
fn settled_line(waited: Duration, timing: Option<&CheckpointTiming>) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    match timing {
        Some(t) => format!(
            "  settled after {:.1} ms ({}; {:.1} ms after the last output)",
            ms(waited),
            match t.by {
                SettledBy::Quiescent => "the program was waiting",
                SettledBy::Quiet => "the screen was quiet",
                SettledBy::Exit => "the program ended",
                _ => "at once",
            },
            ms(t.overhead())
        ),
        None => format!("  settled after {:.1} ms", ms(waited)),
    }
}

/// Whether a step needs the program running: it sends input or resizes the terminal.
fn needs_program(action: &Action) -> bool {
    !matches!(
        action,
        Action::Wait(_) | Action::Snapshot(_) | Action::Exit(_) | Action::Sleep(_)
    )
}

/// The error of `step`, during which the program ended although `later` still needed it:
/// its exit status (or signal), the last input sent before, and its last screen (a panic
/// message is on it).
fn ended_during(
    session: &Session,
    step: &Step,
    last_input: Option<&Step>,
    later: &Step,
) -> RecordError {
    let place = |s: &Step| {
        s.origin
            .as_ref()
            .map_or_else(String::new, |o| format!("line {}: ", o.line))
    };
    let mut what = format!("this step ran ({})", step.describe());
    if let Some(input) = last_input.filter(|s| !std::ptr::eq(*s, step)) {
        what.push_str(&format!(
            ", after the input of {}{}",
            place(input),
            input.describe()
        ));
    }
    what.push_str(&format!(
        "; the steps after it were not run on the ended program ({}{} needed it running)",
        place(later),
        later.describe()
    ));
    session.exited_error(&what)
}

/// `error` as an error of `step`, at its place when it has one.
fn at_step(step: &Step, error: RecordError) -> RecordError {
    match &step.origin {
        Some(origin) => RecordError::AtStep {
            origin: origin.clone(),
            error: Box::new(error),
        },
        None => error,
    }
}

/// Runs one step on `s`; `secret` is the value of a secret step. A snapshot step returns how
/// long it waited for the screen to settle. The one place a step runs: scenarios
/// ([`record_scenario`]) and live sessions driven step by step (`tuicast session`) both come
/// here.
pub fn run_step(
    step: &Step,
    secret: Option<&str>,
    s: &mut Session,
) -> Result<Option<Duration>, RecordError> {
    let with_timeout = |s: &mut Session, f: &dyn Fn(&mut Session) -> Result<(), RecordError>| {
        let saved = s.timeout();
        if let Some(t) = step.timeout {
            s.set_timeout(t);
        }
        let r = f(s);
        s.set_timeout(saved);
        r
    };
    if let Action::Snapshot(label) = &step.action {
        let (saved, rule) = (s.timeout(), s.settle_rule());
        if let Some(t) = step.timeout {
            s.set_timeout(t);
        }
        s.set_settle_rule(step.settle.unwrap_or(rule));
        let r = s.snapshot_with(label, s.settle());
        s.set_timeout(saved);
        s.set_settle_rule(rule);
        return r.map(Some);
    }
    match &step.action {
        Action::Wait(w) => match w {
            Wait::Text(t) => with_timeout(s, &|s| s.wait_text(t)),
            Wait::Regex(r) => with_timeout(s, &|s| s.wait_regex(r)),
            Wait::Idle(d) => with_timeout(s, &|s| s.wait_idle(*d)),
            Wait::Gone(t) => with_timeout(s, &|s| s.wait_gone(t)),
            Wait::Cursor(p) => with_timeout(s, &|s| s.wait_cursor(*p)),
            Wait::Echo(false) => with_timeout(s, &|s| s.wait_echo_off()),
            Wait::Echo(true) => with_timeout(s, &|s| s.wait_echo_on()),
            Wait::Title(t) => with_timeout(s, &|s| s.wait_title(t)),
            Wait::Bell => with_timeout(s, &|s| s.wait_bell()),
            Wait::CommandDone => with_timeout(s, &|s| s.wait_command_done()),
            Wait::Clipboard(t) => with_timeout(s, &|s| s.wait_clipboard(t)),
            Wait::Prompt(kind) => with_timeout(s, &|s| s.wait_prompt(*kind)),
            Wait::AnyPrompt => with_timeout(s, &|s| s.wait_any_prompt()),
            Wait::Silent(d) => with_timeout(s, &|s| s.wait_silent(*d).map(|_| ())),
            Wait::Changed(h) => with_timeout(s, &|s| s.wait_changed(h)),
            Wait::Ref(r) => with_timeout(s, &|s| s.wait_ref(r)),
        },
        Action::Press(keys) => keys.iter().try_for_each(|k| s.press(k)),
        Action::Type(t) => s.type_text(t),
        Action::Snapshot(_) => Ok(()), // above
        Action::Secret(name) => s.type_secret(name, secret.unwrap_or_default()),
        Action::Resize(size) => s.resize(*size),
        Action::Sleep(d) => s.sleep(*d),
        Action::Click(t, b) => with_timeout(s, &|s| s.click(t, *b)),
        Action::Drag { from, to, button } => with_timeout(s, &|s| s.drag(from, to, *button)),
        Action::Scroll(d, t, n) => with_timeout(s, &|s| (0..*n).try_for_each(|_| s.scroll(*d, t))),
        Action::Hover(t) => with_timeout(s, &|s| s.hover(t)),
        Action::Paste(t) => s.paste(t),
        Action::Focus(f) => with_timeout(s, &|s| s.focus(*f)),
        Action::Exit(expected) => {
            let status = s.wait_exit(step.timeout)?;
            match expected {
                Some(e) if *e != status => Err(RecordError::ExitStatus {
                    expected: *e,
                    actual: status,
                }),
                _ => Ok(()),
            }
        }
    }
    .map(|()| None)
}
