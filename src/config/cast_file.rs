//! A cast's TOML (`casts/NAME.toml`, beside `casts/NAME.cast`): how the cast is recorded,
//! what to check in it, and named regions of its screens. One schema, read whole and checked
//! at once into typed values ([`CastFile`]); every error names its `file:line:column`.
//!
//! The recording keys and steps are in `docs/scenarios.md` (`bin`, `command` or `shell`,
//! `args`, `cwd`, `size`, `env`, `inherit_env`, `timeout`, `settle`, `title`, `redact`,
//! `steps`; a checkpoint step may carry its own `settle`); they become a
//! [`record::Scenario`](crate::record::Scenario). The `[check]` table:
//!
//! ```toml
//! [check]
//! formats = ["txt", "styled.txt"]      # snapshot formats for this cast
//! mask = [{ rows = "1", cols = "61..=80" }, { regex = "\\d\\d:\\d\\d" }, { rows = 2 }]
//! ```
//!
//! The `[regions]` table names parts of the screen for annotated screenshots
//! (`tuicast replay CAST --format png --annotate region=status`); each region has the keys of
//! an `--annotate` spec:
//!
//! ```toml
//! [regions]
//! status = { rows = 23, cols = "0..80", label = "status line", color = "#ff8800" }
//! menu = { regex = "apple|banana" }   # the label defaults to the region's name
//! ```
//!
//! The `[terminal]` table sets engine options for this cast's replays and its recording's
//! live engine, over `tuicast.toml`'s own `[terminal]`:
//!
//! ```toml
//! [terminal]
//! deccolm = true    # CSI ? 3 h/l switches to 132/80 columns, as on a VT100
//! ```
//!
//! Masks and regions select cells alike ([`CellSelection`]): `rows` and `cols` are a number
//! or a range string (`"3"`, `"2..5"`, `"2.."`, `"..5"`, `"2..=4"`), `regex` a pattern.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Duration;

use regex::Regex;
use toml::Spanned;

use super::{parse_toml, ConfigError};
use crate::assert::{Format, Mask};
use crate::escape::escape_for_terminal;
use crate::record::{Action, Origin, Program, Scenario, Step, Wait};
#[cfg(feature = "png")]
use crate::render::png::AnnotationSpec;
use crate::term::{CellSelection, Size};

/// A cast's TOML, read and checked.
#[derive(Debug, Clone)]
pub struct CastFile {
    /// The file.
    pub path: PathBuf,
    /// How to record the cast, when the file says (`command` or `shell`).
    pub recording: Option<Scenario>,
    /// Snapshot formats (`[check] formats`); the project's defaults when `None`.
    pub formats: Option<Vec<Format>>,
    /// Masks applied before comparing (`[check] mask`).
    pub masks: Vec<Mask>,
    /// Which checkpoints are checked (`[check] checkpoints` and `end`).
    pub checked: Checked,
    /// Whether goldens record the cursor (`[check] cursor`, default true).
    pub cursor: bool,
    /// Named regions (`[regions]`), checked, each label defaulting to the region's name.
    #[cfg(feature = "png")]
    pub regions: BTreeMap<String, AnnotationSpec>,
    /// Engine options (`[terminal]`), over the project's; the recording's live engine has
    /// them too.
    pub terminal: super::TerminalTable,
}

/// Which of a cast's checkpoints are checked: all of them (the default), all but the final
/// screen (`[check] end = false`, for programs whose last screen is noise, such as a
/// full-screen app after it exits), or the ones named (`[check] checkpoints = ["a", "b"]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    /// Only these names, when given.
    pub only: Option<Vec<String>>,
    /// Whether the final checkpoint (`end`) is checked when `only` does not say.
    pub end: bool,
}

impl Checked {
    /// All checkpoints.
    pub fn all() -> Checked {
        Checked {
            only: None,
            end: true,
        }
    }

    /// Whether the checkpoint `name` is checked (`is_end`: it is the final screen).
    pub fn includes(&self, name: &str, is_end: bool) -> bool {
        match &self.only {
            Some(names) => names.iter().any(|n| n == name),
            None => self.end || !is_end,
        }
    }
}

impl CastFile {
    /// Reads and checks the file at `path`.
    pub fn load(path: &Path) -> Result<CastFile, ConfigError> {
        let text =
            super::read_toml_file(path).map_err(|e| ConfigError::new(path, 0, 0, e.to_string()))?;
        CastFile::parse(path, &text)
    }

    /// The file beside `cast` (`x.cast` → `x.toml`), if there is one.
    pub fn beside(cast: &Path) -> Result<Option<CastFile>, ConfigError> {
        let path = cast.with_extension("toml");
        if path.is_file() {
            CastFile::load(&path).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Checks `text`, the content of the file at `path` (relative `cwd`s are taken from its
    /// folder).
    pub fn parse(path: &Path, text: &str) -> Result<CastFile, ConfigError> {
        let file: FileToml = parse_toml(path, text)?;
        let at = Places { path, text };
        let masks = file
            .check
            .mask
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let m = spec.get_ref();
                CellSelection::new(range_text(&m.rows), range_text(&m.cols), m.regex.as_deref())
                    .map(Mask::new)
                    .map_err(|e| at.error(spec.span(), format!("check.mask[{i}]: {e}")))
            })
            .collect::<Result<_, _>>()?;
        #[cfg(feature = "png")]
        let mut regions = BTreeMap::new();
        for (name, spec) in &file.regions {
            let span = spec.span();
            let r = spec.get_ref();
            #[cfg(not(feature = "png"))]
            {
                // Only the cells are checked: regions serve annotated pictures, which this
                // build cannot draw.
                CellSelection::new(range_text(&r.rows), range_text(&r.cols), r.regex.as_deref())
                    .map_err(|e| {
                        at.error(
                            span,
                            format!("regions.{}: {e}", escape_for_terminal(name, 60)),
                        )
                    })?;
            }
            #[cfg(feature = "png")]
            let region = AnnotationSpec {
                region: None,
                rows: r.rows.as_ref().map(|v| v.0.clone()),
                cols: r.cols.as_ref().map(|v| v.0.clone()),
                regex: r.regex.clone(),
                label: r.label.clone().or_else(|| Some(name.clone())),
                color: r.color.clone(),
            };
            // Checked now, as masks and steps are, not when a screenshot needs the region.
            #[cfg(feature = "png")]
            {
                region.build().map_err(|e| {
                    at.error(
                        span,
                        format!("regions.{}: {e}", escape_for_terminal(name, 60)),
                    )
                })?;
                regions.insert(name.clone(), region);
            }
        }
        let recording = recording(&at, &file)?;
        Ok(CastFile {
            path: path.to_path_buf(),
            recording,
            formats: file.check.formats.clone(),
            masks,
            checked: Checked {
                only: file.check.checkpoints.clone(),
                end: file.check.end.unwrap_or(true),
            },
            cursor: file.check.cursor.unwrap_or(true),
            #[cfg(feature = "png")]
            regions,
            terminal: file.terminal,
        })
    }

    /// The recording part, or an error saying that the file has none.
    pub fn scenario(&self) -> Result<&Scenario, ConfigError> {
        self.recording.as_ref().ok_or_else(|| {
            ConfigError::new(
                &self.path,
                0,
                0,
                "a scenario needs bin = \"NAME\" (the package's binary), \
                 command = [\"program\", \"args\"] or shell = \"script\"",
            )
        })
    }
}

message_error!(
    /// Why a text is not a duration (`300ms`, `10s`, `2m`).
    DurationError
);

/// Parses a duration like `300ms`, `10s`, `1.5s` or `2m` (a bare number is seconds).
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let t = text.trim();
    let (num, unit) = match t.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let shown = escape_for_terminal(text, 60);
    let n: f64 = num.trim().parse().map_err(|_| {
        DurationError(format!(
            "\"{shown}\" is not a duration: use a number with ms, s or m, like 300ms or 10s"
        ))
    })?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" | "min" => n * 60.0,
        _ => {
            return Err(DurationError(format!(
                "\"{shown}\" has an unknown unit: use ms, s or m"
            )))
        }
    };
    if !(secs.is_finite() && (0.0..=86_400.0).contains(&secs)) {
        return Err(DurationError(format!(
            "\"{shown}\" is out of range (0 to 24 hours)"
        )));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Turns spans of the file into places.
struct Places<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Places<'_> {
    fn origin(&self, span: Range<usize>) -> Origin {
        let (line, column) = crate::location::line_column(self.text, span.start);
        Origin {
            path: self.path.to_path_buf(),
            line,
            column,
        }
    }

    fn error(&self, span: Range<usize>, message: impl Into<String>) -> ConfigError {
        let o = self.origin(span);
        ConfigError::new(self.path, o.line, o.column, message)
    }
}

/// The recording keys checked into a [`Scenario`]; `None` without `bin`, `command` and
/// `shell`. Relative paths (a `command` program with a `/`, `cwd`) are taken from the file's
/// folder, made absolute, so they mean the same from any working directory; `${VAR}` in
/// `command`, `args`, `cwd` and `env` values is tuicast's environment variable `VAR`.
fn recording(at: &Places<'_>, r: &FileToml) -> Result<Option<Scenario>, ConfigError> {
    let expand_all = |v: &Spanned<Vec<String>>| -> Result<Vec<String>, ConfigError> {
        v.get_ref()
            .iter()
            .map(|a| expand_vars(a).map_err(|e| at.error(v.span(), e)))
            .collect()
    };
    let dir = absolute(
        at.path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
    );
    let needs = "a scenario needs bin = \"NAME\" (the package's binary), \
                 command = [\"program\", \"args\"] or shell = \"script\"";
    let program = match (&r.bin, &r.command, &r.shell) {
        (None, None, None) => {
            if let Some(a) = &r.args {
                return Err(at.error(a.span(), "args go with bin = \"NAME\""));
            }
            return Ok(None);
        }
        (Some(b), None, None) => Program::Bin {
            name: b.get_ref().clone(),
            args: r
                .args
                .as_ref()
                .map(&expand_all)
                .transpose()?
                .unwrap_or_default(),
            from: dir.clone(),
        },
        (None, Some(c), None) if c.get_ref().is_empty() => return Err(at.error(c.span(), needs)),
        (None, Some(c), None) => {
            let mut argv = expand_all(c)?;
            // `../target/debug/app` is relative to this file, not to wherever tuicast runs.
            if argv[0].contains('/') {
                argv[0] = dir.join(&argv[0]).to_string_lossy().into_owned();
            }
            Program::Argv(argv)
        }
        (None, None, Some(s)) => Program::Shell(s.get_ref().clone()),
        (b, c, s) => {
            let span = [
                b.as_ref().map(|x| x.span()),
                c.as_ref().map(|x| x.span()),
                s.as_ref().map(|x| x.span()),
            ]
            .into_iter()
            .flatten()
            .max_by_key(|sp| sp.start)
            .unwrap_or(0..0);
            return Err(at.error(span, "give one of bin, command or shell, not several"));
        }
    };
    if r.args.is_some() && r.bin.is_none() {
        let a = r.args.as_ref().map(|a| a.span()).unwrap_or(0..0);
        return Err(at.error(a, "args go with bin = \"NAME\" (a command lists its own)"));
    }
    let mut scenario = Scenario::new(program, &dir);
    scenario.source = Some(at.path.to_path_buf());
    scenario.terminal = r.terminal.apply(scenario.terminal);
    if let Some(c) = &r.cwd {
        let expanded =
            expand_vars(c.get_ref()).map_err(|e| at.error(c.span(), format!("cwd: {e}")))?;
        scenario.cwd = dir.join(expanded);
    }
    if let Some(size) = &r.size {
        let parsed = size.get_ref().parse::<Size>().and_then(Size::for_terminal);
        scenario.size = Some(parsed.map_err(|e| at.error(size.span(), format!("size: {e}")))?);
    }
    for (name, value) in &r.env {
        let expanded = expand_vars(value.get_ref())
            .map_err(|e| at.error(value.span(), format!("env.{name}: {e}")))?;
        scenario.env.insert(name.clone(), expanded);
    }
    scenario.inherit_env = r.inherit_env.clone();
    if let Some(t) = &r.timeout {
        let parsed = parse_duration(t.get_ref());
        scenario.timeout = Some(parsed.map_err(|e| at.error(t.span(), format!("timeout: {e}")))?);
    }
    if let Some(t) = &r.settle {
        let parsed = parse_duration(t.get_ref());
        scenario.settle = Some(parsed.map_err(|e| at.error(t.span(), format!("settle: {e}")))?);
    }
    scenario.title = r.title.clone();
    scenario.redact = r
        .redact
        .iter()
        .map(|p| {
            Regex::new(p.get_ref()).map_err(|e| {
                let shown = escape_for_terminal(p.get_ref(), 80);
                at.error(
                    p.span(),
                    format!("redact: \"{shown}\" is not a valid regex: {e}"),
                )
            })
        })
        .collect::<Result<_, _>>()?;
    // Every step is checked before anything runs: a typo should not cost a recording.
    for spanned in &r.steps {
        let origin = at.origin(spanned.span());
        let (action, timeout, settle) =
            step(spanned.get_ref()).map_err(|m| at.error(spanned.span(), m))?;
        scenario.steps.push(Step {
            action,
            timeout,
            settle,
            origin: Some(origin),
        });
    }
    Ok(Some(scenario))
}

/// `${VAR}` replaced by tuicast's environment variable `VAR` (an unset one is an error, not
/// an empty string); `$$` is a `$`; any other `$` stays as it is.
fn expand_vars(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(more) = after.strip_prefix('$') {
            out.push('$');
            rest = more;
        } else if let Some(body) = after.strip_prefix('{') {
            let end = body.find('}').ok_or_else(|| {
                format!("\"{}\" has an unclosed ${{", escape_for_terminal(text, 80))
            })?;
            let name = &body[..end];
            let value = std::env::var(name).map_err(|_| {
                format!(
                    "${{{}}} is not set in tuicast's environment",
                    escape_for_terminal(name, 60)
                )
            })?;
            out.push_str(&value);
            rest = &body[end + 1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// `path` made absolute against the current folder (nothing resolved on disk).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

const STEP_KEYS: &str = "wait, press, type, checkpoint (or snapshot), secret, resize, exit, sleep";

/// A step's action, its timeout and (a snapshot's) settle period.
type StepParts = (Action, Option<Duration>, Option<Duration>);

fn step(s: &StepToml) -> Result<StepParts, String> {
    let mut actions = Vec::new();
    if let Some(w) = &s.wait {
        actions.push(Action::Wait(match w {
            WaitToml::Text(t) => Wait::Text(t.clone()),
            WaitToml::Table(t) => wait(t)?,
        }));
    }
    if let Some(k) = &s.press {
        let names = match k {
            KeysToml::One(k) => vec![k.clone()],
            KeysToml::Many(k) => k.clone(),
        };
        for n in &names {
            crate::record::keys::key_bytes(n, false)?;
        }
        actions.push(Action::Press(names));
    }
    if let Some(t) = &s.type_text {
        actions.push(Action::Type(t.clone()));
    }
    if let Some(name) = &s.checkpoint {
        if name.is_empty() {
            return Err("a checkpoint needs a name".into());
        }
        actions.push(Action::Snapshot(name.clone()));
    }
    if let Some(secret) = &s.secret {
        actions.push(Action::Secret(secret.env.clone()));
    }
    if let Some(r) = &s.resize {
        actions.push(Action::Resize(
            r.parse::<Size>()
                .and_then(Size::for_terminal)
                .map_err(|e| format!("resize: {e}"))?,
        ));
    }
    if let Some(e) = &s.exit {
        actions.push(Action::Exit(match e {
            ExitToml::Code(c) => Some(*c),
            ExitToml::Any(a) if a == "any" => None,
            ExitToml::Any(a) => {
                return Err(format!(
                    "exit must be a status number or \"any\", not \"{}\"",
                    escape_for_terminal(a, 60)
                ))
            }
        }));
    }
    if let Some(d) = &s.sleep {
        actions.push(Action::Sleep(parse_duration(d)?));
    }
    let timeout = s.timeout.as_deref().map(parse_duration).transpose()?;
    let settle = s
        .settle
        .as_deref()
        .map(|d| parse_duration(d).map_err(|e| format!("settle: {e}")))
        .transpose()?;
    if settle.is_some() && s.checkpoint.is_none() {
        return Err(
            "settle goes with a checkpoint step ({ checkpoint = \"name\", settle = \"200ms\" }) \
                    or with the whole scenario (settle = \"200ms\" at the top)"
                .into(),
        );
    }
    match (actions.pop(), actions.is_empty()) {
        (Some(action), true) => Ok((action, timeout, settle)),
        (None, _) => Err(format!("a step needs one of {STEP_KEYS}")),
        (Some(_), false) => Err(format!("a step takes exactly one of {STEP_KEYS}")),
    }
}

fn wait(t: &WaitTableToml) -> Result<Wait, String> {
    let mut found = Vec::new();
    if let Some(x) = &t.text {
        found.push(Wait::Text(x.clone()));
    }
    if let Some(r) = &t.regex {
        found.push(Wait::Regex(Regex::new(r).map_err(|e| {
            format!(
                "wait regex \"{}\" is not valid: {e}",
                escape_for_terminal(r, 80)
            )
        })?));
    }
    if let Some(d) = &t.idle {
        found.push(Wait::Idle(parse_duration(d)?));
    }
    if let Some(g) = &t.gone {
        found.push(Wait::Gone(g.clone()));
    }
    if let Some([r, c]) = t.cursor {
        // Written counted from 1, as messages and goldens show the cursor; kept 0-based.
        if r == 0 || c == 0 {
            return Err(format!(
                "cursor [{r}, {c}] has a 0: rows and columns count from 1 (the top-left cell is [1, 1])"
            ));
        }
        found.push(Wait::Cursor(r - 1, c - 1));
    }
    if let Some(e) = t.echo {
        found.push(Wait::Echo(e));
    }
    match (found.pop(), found.is_empty()) {
        (Some(w), true) => Ok(w),
        _ => Err("a wait takes exactly one of text, regex, idle, gone, cursor, echo".into()),
    }
}

// The schema as written. Private: what leaves this module is checked and typed.

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    #[serde(default)]
    bin: Option<Spanned<String>>,
    #[serde(default)]
    args: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    command: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    shell: Option<Spanned<String>>,
    #[serde(default)]
    cwd: Option<Spanned<String>>,
    #[serde(default)]
    size: Option<Spanned<String>>,
    #[serde(default)]
    env: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    inherit_env: Vec<String>,
    #[serde(default)]
    timeout: Option<Spanned<String>>,
    #[serde(default)]
    settle: Option<Spanned<String>>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    redact: Vec<Spanned<String>>,
    #[serde(default)]
    steps: Vec<Spanned<StepToml>>,
    #[serde(default)]
    check: CheckToml,
    #[serde(default)]
    regions: BTreeMap<String, Spanned<RegionToml>>,
    #[serde(default)]
    terminal: super::TerminalTable,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckToml {
    #[serde(default)]
    formats: Option<Vec<Format>>,
    #[serde(default)]
    end: Option<bool>,
    #[serde(default)]
    checkpoints: Option<Vec<String>>,
    #[serde(default)]
    cursor: Option<bool>,
    #[serde(default)]
    mask: Vec<Spanned<CellsToml>>,
}

/// The cell-selecting keys, shared by masks and regions.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CellsToml {
    #[serde(default)]
    rows: Option<CellRange>,
    #[serde(default)]
    cols: Option<CellRange>,
    #[serde(default)]
    regex: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
// Without the `png` feature a region's label and colour are read and not used.
#[cfg_attr(not(feature = "png"), allow(dead_code))]
struct RegionToml {
    #[serde(default)]
    rows: Option<CellRange>,
    #[serde(default)]
    cols: Option<CellRange>,
    #[serde(default)]
    regex: Option<String>,
    #[serde(default)]
    label: Option<String>,
    #[serde(default, alias = "colour")]
    color: Option<String>,
}

/// A row or column range as written: a number (`3`) or a string (`"2..5"`), kept as the
/// string [`CellSelection::new`] reads.
#[derive(Debug)]
struct CellRange(String);

fn range_text(range: &Option<CellRange>) -> Option<&str> {
    range.as_ref().map(|r| r.0.as_str())
}

impl<'de> serde::Deserialize<'de> for CellRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = CellRange;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a row or column: a number like 3, or a range like \"2..5\"")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<CellRange, E> {
                Ok(CellRange(v.to_string()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<CellRange, E> {
                match u64::try_from(v) {
                    Ok(v) => self.visit_u64(v),
                    Err(_) => Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self)),
                }
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<CellRange, E> {
                Ok(CellRange(v.to_string()))
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct StepToml {
    #[serde(default)]
    wait: Option<WaitToml>,
    #[serde(default)]
    press: Option<KeysToml>,
    #[serde(default, rename = "type")]
    type_text: Option<String>,
    /// `checkpoint` (`snapshot` is its older name): a marker, checked against a golden.
    #[serde(default, rename = "checkpoint", alias = "snapshot")]
    checkpoint: Option<String>,
    #[serde(default)]
    secret: Option<SecretToml>,
    #[serde(default)]
    resize: Option<String>,
    #[serde(default)]
    exit: Option<ExitToml>,
    #[serde(default)]
    sleep: Option<String>,
    #[serde(default)]
    timeout: Option<String>,
    #[serde(default)]
    settle: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
enum KeysToml {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
enum WaitToml {
    Text(String),
    Table(WaitTableToml),
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct WaitTableToml {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    regex: Option<String>,
    #[serde(default)]
    idle: Option<String>,
    #[serde(default)]
    gone: Option<String>,
    #[serde(default)]
    cursor: Option<[u16; 2]>,
    #[serde(default)]
    echo: Option<bool>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SecretToml {
    env: String,
}

#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
enum ExitToml {
    Code(i32),
    Any(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<CastFile, ConfigError> {
        CastFile::parse(Path::new("casts/x.toml"), text)
    }

    fn error(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn a_whole_file_becomes_a_scenario_masks_and_regions() {
        let f = parse(
            "shell = \"echo hi\"\nsize = \"40x10\"\ntimeout = \"2s\"\ncwd = \"sub\"\n\
             steps = [\n  { wait = \"hi\" },\n  { press = [\"C-c\"], timeout = \"1s\" },\n]\n\
             [check]\nformats = [\"styled.txt\"]\nmask = [{ rows = 1 }, { regex = \"\\\\d\" }]\n\
             [regions]\nstatus = { rows = \"10\", colour = \"#ff8800\" }\n",
        )
        .unwrap();
        let s = f.recording.as_ref().unwrap();
        assert_eq!(s.program, Program::Shell("echo hi".into()));
        // Relative to the file's folder, made absolute: the same from any working folder.
        assert_eq!(s.cwd, std::env::current_dir().unwrap().join("casts/sub"));
        assert_eq!(s.size, Some(Size { cols: 40, rows: 10 }));
        assert_eq!(s.timeout, Some(Duration::from_secs(2)));
        assert_eq!(s.steps.len(), 2);
        let origin = s.steps[1].origin.as_ref().unwrap();
        assert_eq!(origin.to_string(), "casts/x.toml:7:3");
        assert_eq!(s.steps[1].timeout, Some(Duration::from_secs(1)));
        assert!(matches!(&s.steps[1].action, Action::Press(k) if k == &["C-c"]));
        assert_eq!(f.formats, Some(vec![Format::Styled]));
        assert_eq!(f.masks.len(), 2);
        assert_eq!(f.masks[0].cells().rows(), Some(&(0..1)));
        let status = &f.regions["status"];
        assert_eq!(
            status.label.as_deref(),
            Some("status"),
            "the name is the label"
        );
        assert_eq!(status.color.as_deref(), Some("#ff8800"));
        // Checks only: no recording.
        assert!(parse("[check]\nmask = []\n").unwrap().recording.is_none());
    }

    #[test]
    fn rows_and_cols_are_numbers_or_strings_in_masks_and_regions_alike() {
        let f = parse(
            "[check]\nmask = [{ rows = 1 }, { rows = \"1\", cols = 4 }]\n\
             [regions]\nx = { rows = 1 }\ny = { rows = \"1\", cols = 4 }\n",
        )
        .unwrap();
        let screen = crate::term::test_screen(Size { cols: 8, rows: 2 }, "abcdefgh");
        for (mask, region) in f.masks.iter().zip(["x", "y"]) {
            let annotation = f.regions[region].build().unwrap();
            assert_eq!(mask.cells().rects(&screen), annotation.regions(&screen));
            assert!(!annotation.regions(&screen).is_empty());
        }
        for bad in ["rows = -1", "rows = 2.5", "cols = true"] {
            for table in [
                format!("[check]\nmask = [{{ {bad} }}]\n"),
                format!("[regions]\nx = {{ {bad} }}\n"),
            ] {
                let e = error(&table);
                assert!(
                    e.contains("a number like 3, or a range like \"2..5\""),
                    "{table}: {e}"
                );
            }
        }
    }

    #[test]
    fn a_bad_mask_names_its_line_and_column() {
        let e = error(
            "[check]\nformats = [\"txt\"]\nmask = [\n  { rows = 2 },\n  { regex = \"(\" },\n]\n",
        );
        assert!(
            e.starts_with("casts/x.toml:5:3: check.mask[1]: regex \"(\" is not valid"),
            "{e}"
        );
        let e = error("[check]\nmask = [{ rows = \"6..3\" }]\n");
        assert!(
            e.starts_with("casts/x.toml:2:9: check.mask[0]: range \"6..3\""),
            "{e}"
        );
        let e = error("[check]\nmask = [{}]\n");
        assert!(
            e.starts_with("casts/x.toml:2:9: check.mask[0]: say which cells"),
            "{e}"
        );
    }

    #[test]
    fn a_bad_region_names_its_line_and_column() {
        let e =
            error("shell = \"true\"\n\n[regions]\nok = { rows = 2 }\nmenu = { regex = \"(\" }\n");
        assert!(
            e.starts_with("casts/x.toml:5:8: regions.menu: annotation: regex \"(\" is not valid"),
            "{e}"
        );
        let e = error("[regions]\nbad = { rows = 2, color = \"red\" }\n");
        assert!(
            e.starts_with("casts/x.toml:2:7: regions.bad: annotation:"),
            "{e}"
        );
        let e = error("[regions]\nbad = { rows = 2, size = 3 }\n");
        assert!(e.starts_with("casts/x.toml:2:"), "{e}");
        assert!(e.contains("unknown field `size`"), "{e}");
    }

    #[test]
    fn recording_mistakes_name_their_place() {
        for (text, expected) in [
            (
                "shell = \"true\"\nsize = \"80by24\"\n",
                "casts/x.toml:2:8: size: ",
            ),
            (
                "shell = \"true\"\ntimeout = \"5 parsecs\"\n",
                "casts/x.toml:2:11: timeout: ",
            ),
            (
                "command = [\"a\"]\nshell = \"b\"\n",
                "casts/x.toml:2:9: give one of bin, command or shell, not several",
            ),
            (
                "shell = \"true\"\nargs = [\"-v\"]\n",
                "casts/x.toml:2:8: args go with bin",
            ),
            (
                "command = [\"${TUICAST_SURELY_UNSET_VAR}/x\"]\n",
                "casts/x.toml:1:11: ${TUICAST_SURELY_UNSET_VAR} is not set",
            ),
            (
                "command = []\n",
                "casts/x.toml:1:11: a scenario needs bin = \"NAME\"",
            ),
            (
                "shell = \"true\"\nredact = [\"ok\", \"(\"]\n",
                "casts/x.toml:2:17: redact: ",
            ),
            (
                "shell = \"true\"\nsteps = [{ press = \"Hyper-x\" }]\n",
                "casts/x.toml:2:10: unknown key",
            ),
            (
                "shell = \"true\"\nsteps = [{ wait = { idle = \"1s\", gone = \"x\" } }]\n",
                "casts/x.toml:2:10: a wait takes exactly one",
            ),
            (
                "shell = \"true\"\nsteps = [{ exit = \"some\" }]\n",
                "casts/x.toml:2:10: exit must be",
            ),
            (
                "shell = \"true\"\nsteps = [{ timeout = \"1s\" }]\n",
                "casts/x.toml:2:10: a step needs one of",
            ),
        ] {
            let e = error(text);
            assert!(e.starts_with(expected), "{text}: {e}");
        }
        let f = parse("[check]\nmask = []\n").unwrap();
        assert!(f
            .scenario()
            .unwrap_err()
            .to_string()
            .starts_with("casts/x.toml: a scenario needs"));
    }

    #[test]
    fn bin_names_the_packages_binary_and_paths_resolve_against_the_file() {
        let f = parse("bin = \"todoapp\"\nargs = [\"--demo\", \"$${HOME}\"]\n").unwrap();
        let here = std::env::current_dir().unwrap().join("casts");
        assert_eq!(
            f.recording.unwrap().program,
            Program::Bin {
                name: "todoapp".into(),
                args: vec!["--demo".into(), "${HOME}".into()],
                from: here.clone(),
            }
        );
        let f = parse("command = [\"../target/debug/app\", \"${HOME}\", \"$5\"]\n").unwrap();
        let home = std::env::var("HOME").unwrap();
        assert_eq!(
            f.recording.unwrap().program,
            Program::Argv(vec![
                here.join("../target/debug/app")
                    .to_string_lossy()
                    .into_owned(),
                home.clone(),
                "$5".into()
            ])
        );
        let f = parse("shell = \"true\"\nenv = { WHERE = \"${HOME}/x\" }\n").unwrap();
        assert_eq!(f.recording.unwrap().env["WHERE"], format!("{home}/x"));
    }

    #[test]
    fn settle_is_a_scenario_key_and_a_snapshot_steps_key() {
        let f = parse(
            "shell = \"true\"\nsettle = \"150ms\"\nsteps = [\n  { snapshot = \"a\" },\n  \
             { snapshot = \"b\", settle = \"0ms\" },\n]\n",
        )
        .unwrap();
        let s = f.recording.unwrap();
        assert_eq!(s.settle, Some(Duration::from_millis(150)));
        assert_eq!(s.steps[0].settle, None);
        assert_eq!(s.steps[1].settle, Some(Duration::ZERO));
        let e = error("shell = \"true\"\nsteps = [{ press = \"a\", settle = \"1s\" }]\n");
        assert!(
            e.starts_with("casts/x.toml:2:10: settle goes with a checkpoint step"),
            "{e}"
        );
        let e = error("shell = \"true\"\nsettle = \"soon\"\n");
        assert!(e.starts_with("casts/x.toml:2:10: settle: "), "{e}");
    }

    #[test]
    fn a_checkpoint_step_is_also_written_snapshot() {
        for key in ["checkpoint", "snapshot"] {
            let f = parse(&format!(
                "shell = \"true\"\nsteps = [{{ {key} = \"here\" }}]\n"
            ))
            .unwrap();
            let steps = &f.recording.unwrap().steps;
            assert!(
                matches!(&steps[0].action, Action::Snapshot(n) if n == "here"),
                "{key}"
            );
        }
        let e = error("shell = \"true\"\nsteps = [{ checkpoint = \"a\", snapshot = \"b\" }]\n");
        assert!(e.contains("duplicate field"), "{e}");
    }

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("300ms"), Ok(Duration::from_millis(300)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("3"), Ok(Duration::from_secs(3)));
        assert!(parse_duration("5 parsecs")
            .unwrap_err()
            .message()
            .contains("unknown unit"));
        assert!(parse_duration("25h").is_err());
        assert!(parse_duration("-1s").is_err());
    }
}
