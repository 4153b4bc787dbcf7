//! Running a scenario file: start the program, perform the steps, write the cast.

use std::path::{Path, PathBuf};
use std::time::Duration;

use regex::Regex;

use super::scenario::{parse_duration, ExitSpec, Scenario, Step, WaitSpec, WaitTable};
use super::session::{base_env, Finished, RecordError, Session, SessionOptions};
use crate::term::Size;

/// What running a scenario produced.
#[derive(Debug)]
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

/// Records the scenario at `path` into `cast` (see [`partial_path`]). `progress` is told
/// about each step.
pub fn record_scenario(
    path: &Path,
    cast: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<Recorded, RecordError> {
    let scenario = Scenario::load(path).map_err(|e| RecordError::Setup(e.to_string()))?;
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let place = |span: std::ops::Range<usize>| -> String {
        let (line, col) = crate::location::line_column(&text, span.start);
        format!("{}:{line}:{col}", path.display())
    };
    let setup = |m: String| RecordError::Setup(format!("{}: {m}", path.display()));

    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let command = match (&scenario.command, &scenario.shell) {
        (Some(c), None) if !c.is_empty() => c.clone(),
        (None, Some(s)) => vec!["bash".into(), "-c".into(), s.clone()],
        (Some(_), Some(_)) => return Err(setup("give either command or shell, not both".into())),
        _ => {
            return Err(setup(
                "a scenario needs command = [\"program\", \"args\"] or shell = \"script\"".into(),
            ))
        }
    };
    let mut opts = SessionOptions::new(command);
    opts.cwd = match &scenario.cwd {
        Some(c) => dir.join(c),
        None => dir.to_path_buf(),
    };
    if let Some(size) = &scenario.size {
        opts.size = size
            .parse::<Size>()
            .map_err(|e| setup(format!("size: {e}")))?;
    }
    let mut env = base_env();
    for name in &scenario.inherit_env {
        if let Ok(v) = std::env::var(name) {
            env.insert(name.clone(), v);
        }
    }
    env.extend(scenario.env.clone());
    opts.env = env;
    if let Some(t) = &scenario.timeout {
        opts.timeout = parse_duration(t).map_err(|e| setup(format!("timeout: {e}")))?;
    }
    opts.title = scenario.title.clone();
    opts.redact = scenario
        .redact
        .iter()
        .map(|r| {
            Regex::new(r).map_err(|e| setup(format!("redact: {r:?} is not a valid regex: {e}")))
        })
        .collect::<Result<_, _>>()?;

    // Check every step before starting anything: a typo should not cost a recording.
    let mut steps = Vec::new();
    for spanned in &scenario.steps {
        let at = place(spanned.span());
        steps.push((
            at.clone(),
            check_step(spanned.get_ref()).map_err(|m| RecordError::Setup(format!("{at}: {m}")))?,
        ));
    }

    let partial = partial_path(cast);
    if let Some(parent) = partial.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    let mut session = Session::spawn(opts, &partial)?;
    for (at, step) in &steps {
        progress(&format!("{at}: {}", step.describe()));
        step.run(&mut session).map_err(|e| match e {
            RecordError::Setup(m) => RecordError::Setup(format!("{at}: {m}")),
            other => other,
        })?;
    }
    let finished = session.finish()?;
    std::fs::rename(&partial, cast)?;
    Ok(Recorded {
        cast: cast.to_path_buf(),
        finished,
    })
}

/// A step checked and ready to run.
#[derive(Debug)]
enum Action {
    WaitText(String),
    WaitRegex(Regex),
    WaitIdle(Duration),
    WaitGone(String),
    WaitCursor(u16, u16),
    WaitEchoOff,
    WaitEchoOn,
    Press(Vec<String>),
    Type(String),
    Snapshot(String),
    Secret(String, String),
    Resize(Size),
    Exit(Option<i32>),
    Sleep(Duration),
}

#[derive(Debug)]
struct Checked {
    action: Action,
    timeout: Option<Duration>,
}

fn check_step(step: &Step) -> Result<Checked, String> {
    let mut actions = Vec::new();
    if let Some(w) = &step.wait {
        actions.push(match w {
            WaitSpec::Text(t) => Action::WaitText(t.clone()),
            WaitSpec::Table(t) => wait_table(t)?,
        });
    }
    if let Some(k) = &step.press {
        let names: Vec<String> = k.names().into_iter().map(String::from).collect();
        for n in &names {
            super::keys::key_bytes(n, false)?;
        }
        actions.push(Action::Press(names));
    }
    if let Some(t) = &step.type_text {
        actions.push(Action::Type(t.clone()));
    }
    if let Some(s) = &step.snapshot {
        if s.is_empty() {
            return Err("a snapshot needs a name".into());
        }
        actions.push(Action::Snapshot(s.clone()));
    }
    if let Some(s) = &step.secret {
        let value = std::env::var(&s.env).map_err(|_| {
            format!("the secret's environment variable {} is not set (it is read from tuicast's environment)", s.env)
        })?;
        actions.push(Action::Secret(s.env.clone(), value));
    }
    if let Some(r) = &step.resize {
        actions.push(Action::Resize(
            r.parse::<Size>().map_err(|e| format!("resize: {e}"))?,
        ));
    }
    if let Some(e) = &step.exit {
        actions.push(Action::Exit(match e {
            ExitSpec::Code(c) => Some(*c),
            ExitSpec::Any(a) if a == "any" => None,
            ExitSpec::Any(a) => {
                return Err(format!(
                    "exit must be a status number or \"any\", not {a:?}"
                ))
            }
        }));
    }
    if let Some(d) = &step.sleep {
        actions.push(Action::Sleep(parse_duration(d)?));
    }
    let timeout = step.timeout.as_deref().map(parse_duration).transpose()?;
    match actions.len() {
        1 => Ok(Checked {
            action: actions.pop().unwrap_or(Action::Sleep(Duration::ZERO)),
            timeout,
        }),
        0 => Err(
            "a step needs one of wait, press, type, snapshot, secret, resize, exit, sleep".into(),
        ),
        _ => Err(
            "a step takes exactly one of wait, press, type, snapshot, secret, resize, exit, sleep"
                .into(),
        ),
    }
}

fn wait_table(t: &WaitTable) -> Result<Action, String> {
    let mut found = Vec::new();
    if let Some(x) = &t.text {
        found.push(Action::WaitText(x.clone()));
    }
    if let Some(r) = &t.regex {
        found.push(Action::WaitRegex(
            Regex::new(r).map_err(|e| format!("wait regex {r:?} is not valid: {e}"))?,
        ));
    }
    if let Some(d) = &t.idle {
        found.push(Action::WaitIdle(parse_duration(d)?));
    }
    if let Some(g) = &t.gone {
        found.push(Action::WaitGone(g.clone()));
    }
    if let Some([r, c]) = t.cursor {
        found.push(Action::WaitCursor(r, c));
    }
    if let Some(e) = t.echo {
        found.push(if e {
            Action::WaitEchoOn
        } else {
            Action::WaitEchoOff
        });
    }
    match found.len() {
        1 => Ok(found.pop().unwrap_or(Action::WaitEchoOn)),
        _ => Err("a wait takes exactly one of text, regex, idle, gone, cursor, echo".into()),
    }
}

impl Checked {
    fn describe(&self) -> String {
        match &self.action {
            Action::WaitText(t) => {
                format!("wait for \"{}\"", crate::escape::escape_for_terminal(t, 60))
            }
            Action::WaitRegex(r) => format!(
                "wait for /{}/",
                crate::escape::escape_for_terminal(r.as_str(), 60)
            ),
            Action::WaitIdle(d) => format!("wait {} ms idle", d.as_millis()),
            Action::WaitGone(t) => format!(
                "wait for \"{}\" to go",
                crate::escape::escape_for_terminal(t, 60)
            ),
            Action::WaitCursor(r, c) => format!("wait for the cursor at {r},{c}"),
            Action::WaitEchoOff => "wait for echo off".into(),
            Action::WaitEchoOn => "wait for echo on".into(),
            Action::Press(k) => format!("press {}", k.join(" ")),
            Action::Type(t) => format!("type \"{}\"", crate::escape::escape_for_terminal(t, 60)),
            Action::Snapshot(s) => {
                format!("snapshot {}", crate::escape::escape_for_terminal(s, 60))
            }
            Action::Secret(name, _) => format!("type secret {name}"),
            Action::Resize(s) => format!("resize to {s}"),
            Action::Exit(Some(c)) => format!("wait for exit {c}"),
            Action::Exit(None) => "wait for exit".into(),
            Action::Sleep(d) => format!("sleep {} ms", d.as_millis()),
        }
    }

    fn run(&self, s: &mut Session) -> Result<(), RecordError> {
        let with_timeout =
            |s: &mut Session, f: &dyn Fn(&mut Session) -> Result<(), RecordError>| {
                let saved = s.timeout();
                if let Some(t) = self.timeout {
                    s.set_timeout(t);
                }
                let r = f(s);
                s.set_timeout(saved);
                r
            };
        match &self.action {
            Action::WaitText(t) => with_timeout(s, &|s| s.wait_text(t)),
            Action::WaitRegex(r) => with_timeout(s, &|s| s.wait_regex(r)),
            Action::WaitIdle(d) => with_timeout(s, &|s| s.wait_idle(*d)),
            Action::WaitGone(t) => with_timeout(s, &|s| s.wait_gone(t)),
            Action::WaitCursor(r, c) => with_timeout(s, &|s| s.wait_cursor(*r, *c)),
            Action::WaitEchoOff => with_timeout(s, &|s| s.wait_echo_off()),
            Action::WaitEchoOn => with_timeout(s, &|s| s.wait_echo_on()),
            Action::Press(keys) => keys.iter().try_for_each(|k| s.press(k)),
            Action::Type(t) => s.type_text(t),
            Action::Snapshot(label) => s.snapshot(label),
            Action::Secret(name, value) => s.type_secret(name, value),
            Action::Resize(size) => s.resize(*size),
            Action::Sleep(d) => s.sleep(*d),
            Action::Exit(expected) => {
                let status = s.wait_exit(self.timeout)?;
                match expected {
                    Some(e) if *e != status => Err(RecordError::ExitStatus {
                        expected: *e,
                        actual: status,
                    }),
                    _ => Ok(()),
                }
            }
        }
    }
}
