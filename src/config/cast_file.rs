//! A cast's TOML (`casts/NAME.toml`, beside `casts/NAME.cast`): how the cast is recorded,
//! what to check in it, and named regions of its screens. One schema, read whole and checked
//! at once into typed values ([`CastFile`]); every error names its `file:line:column`.
//!
//! The recording keys and steps are in `docs/scenarios.md` (`bin`, `command` or `shell`,
//! `args`, `cwd`, `size`, `env`, `inherit_env`, `timeout`, `settle`, `fail_fast`, `title`, `redact`,
//! `steps`; a checkpoint step may carry its own `settle`); they become a
//! [`record::Scenario`](crate::record::Scenario). The `[check]` table:
//!
//! ```toml
//! [check]
//! formats = ["txt", "styled.txt"]      # snapshot formats for this cast
//! mask = [{ rows = "1", cols = "61..=80" }, { regex = "\\d\\d:\\d\\d" }, { rows = 2 }]
//! scrollback = 20                      # the last 20 scrolled-off lines in text goldens
//! ```
//!
//! The `[regions]` table names parts of the screen for expectations, region goldens, mouse
//! targets and annotated screenshots (`tuicast replay CAST --format png --annotate
//! region=status`); a fixed region has the keys of an `--annotate` spec:
//!
//! ```toml
//! [regions]
//! status = { rows = 23, cols = "0..80", label = "status line", color = "#ff8800" }
//! menu = { regex = "apple|banana" }   # the label defaults to the region's name
//! mode = { row = { regex = "INSERT" } }   # anchored by content: see term::Anchor
//! ```
//!
//! A region may instead be anchored by content ([`Anchor`]: `row`, `match`, `inside`,
//! `between`, `last_row`), found afresh on each screen: on a checkpoint's screen for
//! expectations, region goldens and annotations, on the live screen when a mouse step runs.
//! Regions serve expectations, `[[check.expect]]` in `[check]` ([`Expect`]: `at`, a region or
//! cells, `text`, `contains`, `matches`, `fg`, `bg`, `bold`, `italic`, `underline`,
//! `inverse`, `cursor`). `tuicast.toml` may have a `[regions]` table of the same schema
//! ([`Regions`]): every cast has those regions, under its own of the same name
//! ([`CastFile::parse_with`]).
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
//!
//! The file is read into private serde structs with `toml::Spanned` values, so every error
//! names its line and column, then checked into the stages' own types; a mouse step's region
//! target keeps its [`Anchor`], resolved on the live screen when the step runs.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Duration;

use regex::Regex;
use toml::Spanned;

use super::{parse_toml, ConfigError};
use crate::assert::{parse_color, Expect, Format, Mask, StyleCheck, TextCheck};
use crate::escape::escape_for_terminal;
use crate::record::scenario::MAX_SCROLL;
use crate::record::{
    Action, MouseButton, Origin, Program, Scenario, ScrollDirection, Settle, Step, Target, Wait,
};
#[cfg(feature = "png")]
use crate::render::png::AnnotationSpec;
use crate::term::{anchor_regex, Anchor, CellSelection, Size, MAX_SCROLLBACK};

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
    /// Lines scrolled off the top that text goldens show above the screen (`[check]
    /// scrollback`, default 0, at most [`MAX_SCROLLBACK`]).
    pub scrollback: usize,
    /// Every named region's annotation keys (`[regions]` of this file over those of
    /// `tuicast.toml`), checked, each label defaulting to the region's name; an anchored
    /// region has no `rows`, `cols` or `regex` here (its cells are in [`anchors`](Self::anchors)).
    #[cfg(feature = "png")]
    pub regions: BTreeMap<String, AnnotationSpec>,
    /// Every named region (`[regions]` of this file over those of `tuicast.toml`, fixed or
    /// anchored by content), as it finds its cells on a screen.
    pub anchors: BTreeMap<String, Anchor>,
    /// Expectations (`[[check.expect]]`), in the file's order.
    pub expects: Vec<Expect>,
    /// Regions with goldens of their own (`[check] regions = ["status"]`): each checked
    /// checkpoint's `snapshots/<cast>/<checkpoint>.<region>.txt`, the region's text.
    pub region_goldens: Vec<(String, Anchor)>,
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

/// Named regions of a `[regions]` table (a cast's TOML, or `tuicast.toml` for every cast),
/// checked: what each finds on a screen, and (with the `png` feature) its annotation keys.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Regions {
    /// Every region, fixed or anchored by content, as it finds its cells on a screen.
    pub anchors: BTreeMap<String, Anchor>,
    /// Every region's annotation keys, its label defaulting to its name (`rows`, `cols` and
    /// `regex` only for fixed regions).
    #[cfg(feature = "png")]
    pub annotations: BTreeMap<String, AnnotationSpec>,
}

impl Regions {
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.anchors.is_empty()
    }

    /// The table as written, checked; errors name `path`'s line and column (`text` is the
    /// file's content).
    pub(super) fn read(
        path: &Path,
        text: &str,
        table: &BTreeMap<String, Spanned<RegionToml>>,
    ) -> Result<Regions, ConfigError> {
        let at = Places { path, text };
        let mut regions = Regions::default();
        for (name, spec) in table {
            let span = spec.span();
            let r = spec.get_ref();
            let shown = escape_for_terminal(name, 60);
            #[cfg(feature = "png")]
            {
                let region = AnnotationSpec {
                    region: None,
                    rows: r.rows.as_ref().map(|v| v.0.clone()),
                    cols: r.cols.as_ref().map(|v| v.0.clone()),
                    regex: r.regex.clone(),
                    label: r.label.clone().or_else(|| Some(name.clone())),
                    color: r.color.clone(),
                };
                // Checked now, as masks and steps are, not when a screenshot needs the
                // region (an anchored one's cells are checked as its anchor below).
                if !r.anchored() {
                    region
                        .build()
                        .map_err(|e| at.error(span.clone(), format!("regions.{shown}: {e}")))?;
                } else if let Some(c) = &region.color {
                    crate::rgb::Rgb::parse(c).map_err(|e| {
                        at.error(span.clone(), format!("regions.{shown}: annotation: {e}"))
                    })?;
                }
                regions.annotations.insert(name.clone(), region);
            }
            let anchor =
                region_anchor(r).map_err(|e| at.error(span, format!("regions.{shown}: {e}")))?;
            regions.anchors.insert(name.clone(), anchor);
        }
        Ok(regions)
    }

    /// These regions with `own`'s over them: a region of `own` wins over one of the same
    /// name here.
    fn with(&self, own: Regions) -> Regions {
        let mut out = self.clone();
        out.anchors.extend(own.anchors);
        #[cfg(feature = "png")]
        out.annotations.extend(own.annotations);
        out
    }
}

impl CastFile {
    /// Reads and checks the file at `path`.
    pub fn load(path: &Path) -> Result<CastFile, ConfigError> {
        CastFile::load_with(path, &Regions::default())
    }

    /// Reads and checks the file at `path`, whose regions are `project`'s (`tuicast.toml`'s
    /// `[regions]`) with its own over them.
    pub fn load_with(path: &Path, project: &Regions) -> Result<CastFile, ConfigError> {
        let text = super::read_toml_file(path).map_err(|e| ConfigError::io(path, e))?;
        CastFile::parse_with(path, &text, project)
    }

    /// The file beside `cast` (`x.cast` → `x.toml`), if there is one.
    pub fn beside(cast: &Path) -> Result<Option<CastFile>, ConfigError> {
        CastFile::beside_with(cast, &Regions::default())
    }

    /// The file beside `cast`, if there is one, whose regions are `project`'s with its own
    /// over them (see [`CastFile::load_with`]).
    pub fn beside_with(cast: &Path, project: &Regions) -> Result<Option<CastFile>, ConfigError> {
        let path = cast.with_extension("toml");
        if path.is_file() {
            CastFile::load_with(&path, project).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Checks `text`, the content of the file at `path` (relative `cwd`s are taken from its
    /// folder).
    pub fn parse(path: &Path, text: &str) -> Result<CastFile, ConfigError> {
        CastFile::parse_with(path, text, &Regions::default())
    }

    /// Checks `text`, the content of the file at `path`, whose regions are `project`'s
    /// (`tuicast.toml`'s `[regions]`) with its own over them: expectations, region goldens
    /// and mouse targets may name either.
    pub fn parse_with(path: &Path, text: &str, project: &Regions) -> Result<CastFile, ConfigError> {
        let file: FileToml = parse_toml(path, text)?;
        let at = Places { path, text };
        let all = project.with(Regions::read(path, text, &file.regions)?);
        let anchors = all.anchors;
        let masks: Vec<Mask> = file
            .check
            .mask
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let m = spec.get_ref();
                let fail = |e: Invalid| at.error(spec.span(), format!("check.mask[{i}]: {e}"));
                match &m.region {
                    Some(_) if m.rows.is_some() || m.cols.is_some() || m.regex.is_some() => {
                        Err(fail(
                            "a mask names a region or its cells (rows, cols, regex), not both"
                                .into(),
                        ))
                    }
                    Some(name) => named_region(&anchors, name)
                        .map(|a| Mask::anchored(a.clone()))
                        .map_err(fail),
                    None => CellSelection::new(
                        range_text(&m.rows),
                        range_text(&m.cols),
                        m.regex.as_deref(),
                    )
                    .map(Mask::new)
                    .map_err(|e| fail(Invalid(e.to_string()))),
                }
            })
            .collect::<Result<_, _>>()?;
        #[cfg(feature = "png")]
        let regions = all.annotations;
        let expects = file
            .check
            .expect
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                expectation(&at, i, spec.get_ref(), spec.span(), &anchors)
                    .map_err(|e| at.error(spec.span(), format!("check.expect[{i}]: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(twice) = expects
            .iter()
            .enumerate()
            .find(|(i, e)| expects[..*i].iter().any(|o| o.id == e.id))
        {
            let spec = &file.check.expect[twice.0];
            return Err(at.error(
                spec.span(),
                format!(
                    "check.expect[{}]: name \"{}\" is taken by an earlier expectation",
                    twice.0,
                    escape_for_terminal(&twice.1.id, 60)
                ),
            ));
        }
        let mut region_goldens = Vec::new();
        for name in &file.check.regions {
            let shown = escape_for_terminal(name.get_ref(), 60);
            let anchor = named_region(&anchors, name.get_ref())
                .map_err(|m| at.error(name.span(), format!("check.regions: {m}")))?;
            let file_safe = !name.get_ref().is_empty()
                && name
                    .get_ref()
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if !file_safe {
                return Err(at.error(
                    name.span(),
                    format!(
                        "check.regions: \"{shown}\" names a golden file: letters, digits, - and _ only"
                    ),
                ));
            }
            if region_goldens.iter().any(|(n, _)| n == name.get_ref()) {
                return Err(at.error(name.span(), format!("check.regions: \"{shown}\" twice")));
            }
            region_goldens.push((name.get_ref().clone(), anchor.clone()));
        }
        // The masks also tell the recorder which changes do not unsettle a checkpoint.
        let recording = recording(&at, &file, &anchors)?.map(|mut s| {
            s.masks = masks.iter().map(|m| m.anchor().clone()).collect();
            s.regions = anchors
                .iter()
                .map(|(n, a)| (n.clone(), a.clone()))
                .collect();
            s
        });
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
            scrollback: match &file.check.scrollback {
                None => 0,
                Some(n) if *n.get_ref() as usize <= MAX_SCROLLBACK => *n.get_ref() as usize,
                Some(n) => {
                    return Err(at.error(
                        n.span(),
                        format!(
                            "check.scrollback = {} is more than the {MAX_SCROLLBACK} lines an engine keeps",
                            n.get_ref()
                        ),
                    ))
                }
            },
            #[cfg(feature = "png")]
            regions,
            anchors,
            expects,
            region_goldens,
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

/// Reads one step written as a scenario writes it (`{ press = "Enter" }`, `{ wait = { idle =
/// "300ms" } }`), checked as the steps of a file are; `path` names it in errors (the column is
/// counted in `text`). `tuicast session` sends its commands to the daemon this way, so every
/// step kind a scenario has is a command, read by this one schema.
pub fn parse_step(path: &Path, text: &str) -> Result<Step, ConfigError> {
    parse_step_with(path, text, &Regions::default())
}

/// [`parse_step`] where a mouse target may name one of `regions` (`{ click = { region =
/// "ok" } }`): `tuicast session` reads the `[regions]` of the `tuicast.toml` in the folder a
/// session started in.
pub fn parse_step_with(path: &Path, text: &str, regions: &Regions) -> Result<Step, ConfigError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct One {
        step: Spanned<StepToml>,
    }
    let prefix = "step = ";
    let whole = format!("{prefix}{text}");
    let one: One = parse_toml(path, &whole).map_err(|e| shifted(e, prefix.len()))?;
    let span = one.step.span();
    // A region target not among `regions` is an error that says so.
    let (action, timeout, settle) = step(one.step.get_ref(), &regions.anchors).map_err(|m| {
        let column = whole[prefix.len()..span.start.max(prefix.len())]
            .chars()
            .count()
            + 1;
        ConfigError::new(path, 1, column as u64, m)
    })?;
    Ok(Step {
        action,
        timeout,
        settle,
        origin: None,
    })
}

/// `e`, whose place counts the `len` bytes put before the text on its first line, at the
/// place in the text.
fn shifted(e: ConfigError, len: usize) -> ConfigError {
    if e.line == 1 && e.column > len as u64 {
        let (line, column) = (e.line, e.column - len as u64);
        e.moved(line, column)
    } else {
        e
    }
}

message_error!(
    /// Why a value of a scenario is wrong (a [`ConfigErrorKind::Value`]), before its caller
    /// places it at its key.
    pub(crate) Invalid
);

/// An [`Invalid`] with a message made as by `format!`.
macro_rules! invalid {
    ($($arg:tt)*) => {
        Invalid(format!($($arg)*))
    };
}

impl From<DurationError> for Invalid {
    fn from(e: DurationError) -> Invalid {
        Invalid(e.0)
    }
}

impl From<crate::term::AnchorError> for Invalid {
    fn from(e: crate::term::AnchorError) -> Invalid {
        Invalid(e.0)
    }
}

impl From<crate::record::keys::KeyError> for Invalid {
    fn from(e: crate::record::keys::KeyError) -> Invalid {
        Invalid(e.0)
    }
}

message_error!(
    /// Why a text is not a duration (`300ms`, `10s`, `2m`).
    DurationError
);

/// Parses a settle rule: `auto`, `auto:PERIOD`, `quiet:PERIOD`, or a bare duration (the
/// quiet rule, as scenarios wrote it before `auto`).
pub fn parse_settle(text: &str) -> Result<Settle, DurationError> {
    let t = text.trim();
    if t == "auto" {
        return Ok(Settle::DEFAULT);
    }
    if let Some(period) = t.strip_prefix("auto:") {
        return parse_duration(period).map(Settle::Auto);
    }
    if let Some(period) = t.strip_prefix("quiet:") {
        return parse_duration(period).map(Settle::Quiet);
    }
    parse_duration(t).map(Settle::Quiet).map_err(|e| {
        DurationError(format!(
            "{e} (or \"auto\", \"auto:50ms\", \"quiet:50ms\")",
            e = e.0
        ))
    })
}

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
fn recording(
    at: &Places<'_>,
    r: &FileToml,
    regions: &BTreeMap<String, Anchor>,
) -> Result<Option<Scenario>, ConfigError> {
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
            if let Some(l) = &r.live {
                return Err(at.error(
                    l.span(),
                    format!("live says how to check a recording: {needs}"),
                ));
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
    scenario.live = r.live.as_ref().map(|l| *l.get_ref());
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
        let shown = crate::escape::escape_for_terminal(name, 100);
        // A name with `=` sets another variable than it says (`"A=B" = "C"` is `A=B=C`), and a
        // NUL cannot be passed to a program at all.
        if name.is_empty() || name.contains(['=', '\0']) {
            return Err(at.error(
                value.span(),
                format!("env: \"{shown}\" is not a variable name (empty, or with `=` or NUL)"),
            ));
        }
        let expanded = expand_vars(value.get_ref())
            .map_err(|e| at.error(value.span(), format!("env.{shown}: {e}")))?;
        if expanded.contains('\0') {
            return Err(at.error(
                value.span(),
                format!("env.{shown}: a value cannot hold a NUL"),
            ));
        }
        scenario.env.insert(name.clone(), expanded);
    }
    scenario.inherit_env = r.inherit_env.clone();
    if let Some(t) = &r.timeout {
        let parsed = parse_duration(t.get_ref());
        scenario.timeout = Some(parsed.map_err(|e| at.error(t.span(), format!("timeout: {e}")))?);
    }
    if let Some(t) = &r.settle {
        let parsed = parse_settle(t.get_ref());
        scenario.settle = Some(parsed.map_err(|e| at.error(t.span(), format!("settle: {e}")))?);
    }
    if let Some(f) = &r.fail_fast {
        let bad = |shown: String| {
            at.error(
                f.span(),
                format!(
                    "fail_fast: {shown} is not a duration above zero (\"2s\", \"500ms\"), nor \
                     true or false"
                ),
            )
        };
        scenario.fail_fast = match f.get_ref() {
            toml::Value::Boolean(true) => Some(DEFAULT_FAIL_FAST),
            toml::Value::Boolean(false) => None,
            toml::Value::String(t) => Some(
                parse_duration(t)
                    .ok()
                    .filter(|d| !d.is_zero())
                    .ok_or_else(|| bad(format!("\"{}\"", escape_for_terminal(t, 40))))?,
            ),
            other => return Err(bad(escape_for_terminal(&other.to_string(), 40))),
        };
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
            step(spanned.get_ref(), regions).map_err(|m| at.error(spanned.span(), m))?;
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
fn expand_vars(text: &str) -> Result<String, Invalid> {
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

const STEP_KEYS: &str =
    "wait, press, type, checkpoint (or snapshot), secret, resize, exit, sleep, \
                         click, drag, scroll, hover, paste, focus";

/// A step's action, its timeout and (a snapshot's) settle rule.
type StepParts = (Action, Option<Duration>, Option<Settle>);

fn step(s: &StepToml, regions: &BTreeMap<String, Anchor>) -> Result<StepParts, Invalid> {
    let mut actions = Vec::new();
    let target = |t: &TargetToml| self::target(t, regions);
    let button = match &s.button {
        None => MouseButton::Left,
        Some(_) if s.click.is_none() && s.drag.is_none() => {
            return Err("button goes with a click or drag step".into())
        }
        Some(b) => MouseButton::from_name(b).ok_or_else(|| {
            format!(
                "button must be \"left\", \"middle\" or \"right\", not \"{}\"",
                escape_for_terminal(b, 40)
            )
        })?,
    };
    if (s.at.is_some() || s.count.is_some()) && s.scroll.is_none() {
        return Err(
            "at and count go with a scroll step ({ scroll = \"down\", at = [5, 10], count = 3 })"
                .into(),
        );
    }
    if let Some(t) = &s.click {
        actions.push(Action::Click(target(t)?, button));
    }
    if let Some(d) = &s.drag {
        actions.push(Action::Drag {
            from: target(&d.from).map_err(|e| format!("drag from: {e}"))?,
            to: target(&d.to).map_err(|e| format!("drag to: {e}"))?,
            button,
        });
    }
    if let Some(dir) = &s.scroll {
        let direction = match dir.as_str() {
            "up" => ScrollDirection::Up,
            "down" => ScrollDirection::Down,
            other => {
                return Err(invalid!(
                    "scroll must be \"up\" or \"down\", not \"{}\"",
                    escape_for_terminal(other, 40)
                ))
            }
        };
        let at = s.at.as_ref().ok_or(
            "a scroll step needs at = the place to scroll at ([row, col] from 1, \
             { text = \"..\" }, { regex = \"..\" } or { region = \"name\" })",
        )?;
        let count = s.count.unwrap_or(1);
        if count == 0 || count > MAX_SCROLL {
            return Err(invalid!(
                "count must be 1 to {MAX_SCROLL} notches, not {count}"
            ));
        }
        actions.push(Action::Scroll(direction, target(at)?, count));
    }
    if let Some(t) = &s.hover {
        actions.push(Action::Hover(target(t)?));
    }
    if let Some(t) = &s.paste {
        actions.push(Action::Paste(t.clone()));
    }
    if let Some(f) = s.focus {
        actions.push(Action::Focus(f));
    }
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
                return Err(invalid!(
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
        .map(|d| parse_settle(d).map_err(|e| format!("settle: {e}")))
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
        (None, _) => Err(invalid!("a step needs one of {STEP_KEYS}")),
        (Some(_), false) => Err(invalid!("a step takes exactly one of {STEP_KEYS}")),
    }
}

/// The anchor of a region of `[regions]`: fixed cells (`rows`, `cols`, `regex`) or exactly
/// one of `row`, `match`, `inside`, `between`, `last_row`.
fn region_anchor(r: &RegionToml) -> Result<Anchor, Invalid> {
    let fixed = r.rows.is_some() || r.cols.is_some() || r.regex.is_some();
    let mut found = Vec::new();
    if let Some(row) = &r.row {
        found.push(Anchor::Row(anchor_regex(&row.regex)?));
    }
    if let Some(m) = &r.matched {
        let [drow, dcol] = m.offset.unwrap_or([0, 0]);
        if m.width == Some(0) {
            return Err("match width = 0 selects no cells".into());
        }
        found.push(Anchor::Match {
            regex: anchor_regex(&m.regex)?,
            offset: (drow, dcol),
            width: m.width,
        });
    }
    if let Some(inside) = &r.inside {
        if inside.title.is_empty() {
            return Err("inside = { box = \"\" } names no box".into());
        }
        found.push(Anchor::Inside(inside.title.clone()));
    }
    if let Some(b) = &r.between {
        found.push(Anchor::Between {
            from: anchor_regex(&b.from)?,
            to: anchor_regex(&b.to)?,
        });
    }
    match r.last_row {
        Some(true) => found.push(Anchor::LastRow),
        Some(false) => return Err("last_row = false selects nothing: leave it out".into()),
        None => {}
    }
    match (found.pop(), found.is_empty(), fixed) {
        (None, _, _) => {
            CellSelection::new(range_text(&r.rows), range_text(&r.cols), r.regex.as_deref())
                .map(Anchor::Cells)
                .map_err(|e| Invalid(e.to_string()))
        }
        (Some(a), true, false) => Ok(a),
        _ => Err(
            "a region takes rows/cols/regex or exactly one of row, match, inside, between, last_row"
                .into(),
        ),
    }
}

/// The region `name` of `[regions]`, or an error that lists the regions there are.
fn named_region<'a, T>(regions: &'a BTreeMap<String, T>, name: &str) -> Result<&'a T, Invalid> {
    regions.get(name).ok_or_else(|| {
        let known: Vec<String> = regions.keys().map(|k| escape_for_terminal(k, 40)).collect();
        invalid!(
            "no region \"{}\" in [regions] (regions: {})",
            escape_for_terminal(name, 60),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        )
    })
}

/// One `[[check.expect]]` checked into an [`Expect`] (`i` its index, from 0).
fn expectation(
    at: &Places<'_>,
    i: usize,
    e: &ExpectToml,
    span: Range<usize>,
    anchors: &BTreeMap<String, Anchor>,
) -> Result<Expect, Invalid> {
    let names: Vec<String> = match &e.at {
        None => {
            return Err(
                "an expectation needs at = \"CHECKPOINT\", at = [\"A\", \"B\"] or at = \"*\""
                    .into(),
            )
        }
        Some(OneOrMany::One(name)) => vec![name.clone()],
        Some(OneOrMany::Many(names)) if names.is_empty() => {
            return Err("at = [] names no checkpoint".into())
        }
        Some(OneOrMany::Many(names)) => names.clone(),
    };
    if names.iter().any(String::is_empty) {
        return Err("at = \"\" names no checkpoint".into());
    }
    let when = if names.iter().any(|n| n == "*") {
        if names.len() > 1 {
            return Err("at = \"*\" is every checkpoint: list names, or \"*\" alone".into());
        }
        None
    } else {
        Some(names)
    };
    let id = match &e.name {
        Some(n) if n.is_empty() => return Err("name = \"\" is empty".into()),
        Some(n) => n.clone(),
        None => (i + 1).to_string(),
    };
    let fixed = e.rows.is_some() || e.cols.is_some() || e.regex.is_some();
    let region = match (&e.region, fixed) {
        (Some(_), true) => {
            return Err(
                "an expectation takes region = \"NAME\" or rows/cols/regex, not both".into(),
            )
        }
        (Some(name), false) => {
            let a = named_region(anchors, name)?;
            Some((
                format!("region \"{}\"", escape_for_terminal(name, 60)),
                a.clone(),
            ))
        }
        (None, true) => Some((
            "cells".to_string(),
            Anchor::Cells(
                CellSelection::new(range_text(&e.rows), range_text(&e.cols), e.regex.as_deref())
                    .map_err(|e| e.to_string())?,
            ),
        )),
        (None, false) => None,
    };
    let mut texts = Vec::new();
    if let Some(t) = &e.text {
        texts.push(TextCheck::Equals(t.clone()));
    }
    if let Some(t) = &e.contains {
        if t.is_empty() {
            return Err("contains = \"\" checks nothing".into());
        }
        texts.push(TextCheck::Contains(t.clone()));
    }
    if let Some(r) = &e.matches {
        texts.push(TextCheck::Matches(Regex::new(r).map_err(|err| {
            format!(
                "matches: regex \"{}\" is not valid: {err}",
                escape_for_terminal(r, 80)
            )
        })?));
    }
    if texts.len() > 1 {
        return Err("an expectation takes at most one of text, contains, matches".into());
    }
    let color = |c: &Option<ColorToml>, key: &str| -> Result<_, Invalid> {
        match c {
            None => Ok(None),
            Some(ColorToml::Index(n)) => u8::try_from(*n)
                .map(|i| Some(crate::term::Color::Indexed(i)))
                .map_err(|_| invalid!("{key} = {n}: a palette index is 0 to 255")),
            Some(ColorToml::Text(t)) => {
                parse_color(t).map(Some).map_err(|m| invalid!("{key}: {m}"))
            }
        }
    };
    let style = StyleCheck {
        fg: color(&e.fg, "fg")?,
        bg: color(&e.bg, "bg")?,
        bold: e.bold,
        italic: e.italic,
        underline: e.underline,
        inverse: e.inverse,
    };
    let cursor = match e.cursor {
        None => None,
        Some([r, c]) if r == 0 || c == 0 => {
            return Err(invalid!(
                "cursor = [{r}, {c}] has a 0: rows and columns count from 1"
            ))
        }
        Some([r, c]) => Some((r as usize - 1, c as usize - 1)),
    };
    let prompt = match &e.prompt {
        None => None,
        Some(p) => {
            Some(crate::inspect::PromptKind::parse(p, true).map_err(|m| format!("prompt = {m}"))?)
        }
    };
    let table_rows = e.table.as_ref().map(|t| t.rows);
    if texts.is_empty()
        && style.is_empty()
        && cursor.is_none()
        && e.title.is_none()
        && prompt.is_none()
        && table_rows.is_none()
    {
        return Err(
            "an expectation checks nothing: give text, contains, matches, a style \
             (fg, bg, bold, italic, underline, inverse), cursor, title, prompt or table"
                .into(),
        );
    }
    let (line, _) = crate::location::line_column(at.text, span.start);
    Ok(Expect {
        id,
        at: when,
        place: format!("{}:{line}", crate::assert::shown_path(at.path)),
        region,
        text: texts.pop(),
        style,
        cursor,
        title: e.title.clone(),
        prompt,
        table_rows,
    })
}

/// A mouse step's target, a region looked up in `[regions]`.
fn target(t: &TargetToml, regions: &BTreeMap<String, Anchor>) -> Result<Target, Invalid> {
    let table = match t {
        TargetToml::Cell([r, c]) => {
            // Written counted from 1, as messages and goldens show positions; kept 0-based.
            if *r == 0 || *c == 0 {
                return Err(invalid!(
                    "[{r}, {c}] has a 0: rows and columns count from 1 (the top-left cell is [1, 1])"
                ));
            }
            return Ok(Target::Cell(r - 1, c - 1));
        }
        TargetToml::Table(table) => table,
    };
    let mut found = Vec::new();
    if let Some(x) = &table.text {
        if x.is_empty() {
            return Err("a mouse target's text is empty".into());
        }
        found.push(Target::Text(x.clone()));
    }
    if let Some(r) = &table.regex {
        found.push(Target::Regex(Regex::new(r).map_err(|e| {
            format!("regex \"{}\" is not valid: {e}", escape_for_terminal(r, 80))
        })?));
    }
    if let Some(name) = &table.region {
        // Fixed or anchored by content: the live screen resolves it when the step runs.
        let region = named_region(regions, name)?;
        found.push(Target::Region(name.clone(), region.clone()));
    }
    match (found.pop(), found.is_empty()) {
        (Some(t), true) => Ok(t),
        _ => Err("a mouse target is [row, col] or takes exactly one of text, regex, region".into()),
    }
}

fn wait(t: &WaitTableToml) -> Result<Wait, Invalid> {
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
            return Err(invalid!(
                "cursor [{r}, {c}] has a 0: rows and columns count from 1 (the top-left cell is [1, 1])"
            ));
        }
        found.push(Wait::Cursor(r - 1, c - 1));
    }
    if let Some(e) = t.echo {
        found.push(Wait::Echo(e));
    }
    if let Some(title) = &t.title {
        found.push(Wait::Title(title.clone()));
    }
    match t.bell {
        Some(true) => found.push(Wait::Bell),
        Some(false) => {
            return Err(
                "wait bell = false waits for nothing: write bell = true (a bell rung since the last checkpoint)"
                    .into(),
            )
        }
        None => {}
    }
    if let Some(c) = &t.clipboard {
        found.push(Wait::Clipboard(c.clone()));
    }
    if let Some(p) = &t.prompt {
        let kind =
            crate::inspect::PromptKind::parse(p, false).map_err(|m| format!("wait prompt {m}"))?;
        found.push(Wait::Prompt(kind));
    }
    match (found.pop(), found.is_empty()) {
        (Some(w), true) => Ok(w),
        _ => Err(
            "a wait takes exactly one of text, regex, idle, gone, cursor, echo, title, bell, clipboard, prompt"
                .into(),
        ),
    }
}

// The schema as written. Private: what leaves this module is checked and typed.

#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        title = "tuicast scenario",
        description = "A cast's TOML, casts/NAME.toml: how to record it, what to check, named regions (docs/scenarios.md)"
    )
)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileToml {
    /// The cargo package's own binary (a `[[bin]]` target); give exactly one of `bin`, `command` and `shell`.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    bin: Option<Spanned<String>>,
    /// Arguments of `bin`.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<Vec<String>>"))]
    args: Option<Spanned<Vec<String>>>,
    /// Any program, as argv (a path with a `/` is relative to the scenario's folder).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<Vec<String>>"))]
    command: Option<Spanned<Vec<String>>>,
    /// A script run by `bash -c`.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    shell: Option<Spanned<String>>,
    /// The working folder, relative to the scenario's folder (default: that folder).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    cwd: Option<Spanned<String>>,
    /// The terminal size, `COLSxROWS` (default `80x24`).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    size: Option<Spanned<String>>,
    /// Variables on top of the clean base environment (`${VAR}` is tuicast's `VAR`).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "BTreeMap<String, String>"))]
    env: BTreeMap<String, Spanned<String>>,
    /// Variables passed through from tuicast's own environment, when set there.
    #[serde(default)]
    inherit_env: Vec<String>,
    /// The default timeout of every wait and of `exit` (`300ms`, `10s`, `2m`).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    timeout: Option<Spanned<String>>,
    /// When a checkpoint is taken: `auto` (the default, `auto:50ms`), `quiet:50ms`, or a bare duration.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    settle: Option<Spanned<String>>,
    /// The cast's title.
    #[serde(default)]
    title: Option<String>,
    /// Regexes whose matches in the output are replaced by `*` before they reach the cast.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<String>"))]
    redact: Vec<Spanned<String>>,
    /// The steps, in order: each a table with exactly one action key (and an optional `timeout`).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<StepToml>"))]
    steps: Vec<Spanned<StepToml>>,
    /// What is checked in the cast.
    #[serde(default)]
    check: CheckToml,
    /// Named parts of the screen: fixed cells or anchored by content.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "BTreeMap<String, RegionToml>"))]
    regions: BTreeMap<String, Spanned<RegionToml>>,
    /// Options of the terminal engine for this cast.
    #[serde(default)]
    terminal: super::TerminalTable,
    /// Record the cast again on every run (`true`) or replay it (`false`).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<bool>"))]
    live: Option<Spanned<bool>>,
    /// A screen wait fails early once the program waits and the screen is unchanged this long (`"2s"`; `true` is `"2s"`).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<FailFastSchema>"))]
    fail_fast: Option<Spanned<toml::Value>>,
}

/// How long `fail_fast = true` lets the screen of a program waiting for input stay unchanged
/// before a screen wait fails: generous against any program's own response, short against
/// the 10 s timeout.
pub const DEFAULT_FAIL_FAST: Duration = Duration::from_secs(2);

#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct CheckToml {
    /// The golden formats: `txt` (or `text`), `styled.txt` (or `styled`), `png`.
    #[serde(default)]
    formats: Option<Vec<Format>>,
    /// Check the final screen (default `true`).
    #[serde(default)]
    end: Option<bool>,
    /// Check only these checkpoints.
    #[serde(default)]
    checkpoints: Option<Vec<String>>,
    /// Goldens have a `cursor:` line (default `true`).
    #[serde(default)]
    cursor: Option<bool>,
    /// Cells replaced by `▒` before comparing and in the golden.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<MaskToml>"))]
    mask: Vec<Spanned<MaskToml>>,
    /// Text goldens show this many lines scrolled off the top (at most 1000).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<u32>"))]
    scrollback: Option<Spanned<u32>>,
    /// Expectations on a checkpoint's screen, each a test of its own.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<ExpectToml>"))]
    expect: Vec<Spanned<ExpectToml>>,
    /// Region goldens: the text of each of these `[regions]` entries.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<String>"))]
    regions: Vec<Spanned<String>>,
}

/// A string or a list of strings (`at = "end"`, `at = ["a", "b"]`).
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// One `[check] mask` entry: cells (the cell-selecting keys of a region), or a named region
/// of `[regions]`.
#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct MaskToml {
    /// Rows, from 1: a number or a range (`"2..5"`, `"2..=4"`, `"2.."`).
    #[serde(default)]
    rows: Option<CellRange>,
    /// Columns, from 1: a number or a range.
    #[serde(default)]
    cols: Option<CellRange>,
    /// Every match of this regex (within `rows`/`cols` when given).
    #[serde(default)]
    regex: Option<String>,
    /// A region of `[regions]`.
    #[serde(default)]
    region: Option<String>,
}

/// One region of a `[regions]` table as written (a cast's TOML and `tuicast.toml` alike).
#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
// Without the `png` feature a region's label and colour are read and not used.
#[cfg_attr(not(feature = "png"), allow(dead_code))]
pub(super) struct RegionToml {
    /// Rows, from 1: a number or a range (`"2..5"`, `"2..=4"`, `"2.."`).
    #[serde(default)]
    rows: Option<CellRange>,
    /// Columns, from 1: a number or a range.
    #[serde(default)]
    cols: Option<CellRange>,
    /// Every match of this regex.
    #[serde(default)]
    regex: Option<String>,
    /// The whole row of the first match of `regex`.
    #[serde(default)]
    row: Option<RowToml>,
    /// The cells of the first match, moved by `offset` and `width` cells wide.
    #[serde(default, rename = "match")]
    matched: Option<MatchToml>,
    /// The inside of the box with this stable name or title.
    #[serde(default)]
    inside: Option<InsideToml>,
    /// The rows strictly between the first row matching `from` and the next matching `to`.
    #[serde(default)]
    between: Option<BetweenToml>,
    /// The last non-blank row.
    #[serde(default)]
    last_row: Option<bool>,
    /// The annotation's label (default: the region's name; `""` for none).
    #[serde(default)]
    label: Option<String>,
    /// The annotation's colour (`#rrggbb` or a name).
    #[serde(default, alias = "colour")]
    color: Option<String>,
}

impl RegionToml {
    /// Whether the region is anchored by content (not fixed cells).
    #[cfg(feature = "png")]
    fn anchored(&self) -> bool {
        self.row.is_some()
            || self.matched.is_some()
            || self.inside.is_some()
            || self.between.is_some()
            || self.last_row.is_some()
    }
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct RowToml {
    /// The regex a row matches.
    regex: String,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct MatchToml {
    /// The regex.
    regex: String,
    /// `[rows, columns]` the region is moved by (default `[0, 0]`).
    #[serde(default)]
    offset: Option<[i64; 2]>,
    /// How many cells wide (default: the match's).
    #[serde(default)]
    width: Option<usize>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct InsideToml {
    /// The box's stable name (`box("Todos", 2)`) or title.
    #[serde(rename = "box")]
    title: String,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct BetweenToml {
    /// The regex of the row above the region.
    from: String,
    /// The regex of the row below it.
    to: String,
}

/// One `[[check.expect]]` as written.
#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct ExpectToml {
    /// The expectation's name (default: its number in the file).
    #[serde(default)]
    name: Option<String>,
    /// A checkpoint, a list of them, or `"*"`.
    #[serde(default)]
    at: Option<OneOrMany>,
    /// A region of `[regions]` (none: the screen).
    #[serde(default)]
    region: Option<String>,
    /// Rows, from 1: a number or a range.
    #[serde(default)]
    rows: Option<CellRange>,
    /// Columns, from 1: a number or a range.
    #[serde(default)]
    cols: Option<CellRange>,
    /// The matches of this regex.
    #[serde(default)]
    regex: Option<String>,
    /// The trimmed text equals this.
    #[serde(default)]
    text: Option<String>,
    /// The text contains this.
    #[serde(default)]
    contains: Option<String>,
    /// The text matches this regex.
    #[serde(default)]
    matches: Option<String>,
    /// Every cell with text has this foreground (a name, `0`–`255` or `#rrggbb`).
    #[serde(default)]
    fg: Option<ColorToml>,
    /// Every cell with text has this background.
    #[serde(default)]
    bg: Option<ColorToml>,
    /// Every cell with text is (or is not) bold.
    #[serde(default)]
    bold: Option<bool>,
    /// Every cell with text is (or is not) italic.
    #[serde(default)]
    italic: Option<bool>,
    /// Every cell with text is (or is not) underlined.
    #[serde(default)]
    underline: Option<bool>,
    /// Every cell with text is (or is not) inverse.
    #[serde(default)]
    inverse: Option<bool>,
    /// The cursor is at `[row, col]`, from 1.
    #[serde(default)]
    cursor: Option<[u64; 2]>,
    /// The window title contains this.
    #[serde(default)]
    title: Option<String>,
    /// The prompt `tuicast inspect` classifies: `yesno`, `select`, `password`, `text`, `pager`, `confirm`, `shell`.
    #[serde(default)]
    prompt: Option<String>,
    /// The first table in the region (or on the screen).
    #[serde(default)]
    table: Option<TableExpectToml>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct TableExpectToml {
    /// How many data rows it has.
    rows: usize,
}

/// A colour as written: a name, `#rrggbb` or a palette index (a number or a string).
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
enum ColorToml {
    Index(u64),
    Text(String),
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct StepToml {
    /// Wait for text on the screen, or for `{ regex | gone | idle | cursor | echo | title | bell | clipboard | prompt }`.
    #[serde(default)]
    wait: Option<WaitToml>,
    /// Keys by name: `Enter`, `Esc`, `Tab`, `Up`, `C-c`, `M-x`, `F5`, any single character; one or a list.
    #[serde(default)]
    press: Option<KeysToml>,
    /// Type text.
    #[serde(default, rename = "type")]
    type_text: Option<String>,
    /// A checkpoint: a marker checked against its goldens, on a settled screen.
    #[serde(default, rename = "checkpoint", alias = "snapshot")]
    checkpoint: Option<String>,
    /// Type the value of one of tuicast's environment variables, never written to the cast.
    #[serde(default)]
    secret: Option<SecretToml>,
    /// Resize the terminal, `COLSxROWS`.
    #[serde(default)]
    resize: Option<String>,
    /// Wait for the program to end and expect this status (`"any"` for any).
    #[serde(default)]
    exit: Option<ExitToml>,
    /// Wait a fixed time (prefer a `wait`).
    #[serde(default)]
    sleep: Option<String>,
    /// This step's timeout, for its wait or exit.
    #[serde(default)]
    timeout: Option<String>,
    /// A checkpoint's own settle rule.
    #[serde(default)]
    settle: Option<String>,
    /// Click a target: `[row, col]`, `{ text }`, `{ regex }` or `{ region }`.
    #[serde(default)]
    click: Option<TargetToml>,
    /// Press at `from`, move to `to`, release there.
    #[serde(default)]
    drag: Option<DragToml>,
    /// Turn the wheel (`up` or `down`) over `at`.
    #[serde(default)]
    scroll: Option<String>,
    /// Where `scroll` turns the wheel.
    #[serde(default)]
    at: Option<TargetToml>,
    /// How many wheel notches (at most 1000).
    #[serde(default)]
    count: Option<u16>,
    /// Move the pointer there with no button down.
    #[serde(default)]
    hover: Option<TargetToml>,
    /// The button of a click or drag: `left` (the default), `middle`, `right`.
    #[serde(default)]
    button: Option<String>,
    /// Paste text (bracketed when the program enabled bracketed paste).
    #[serde(default)]
    paste: Option<String>,
    /// The window gains (`true`) or loses (`false`) focus.
    #[serde(default)]
    focus: Option<bool>,
}

/// Where a mouse step points: `[row, col]` (from 1) or one of `text`, `regex`, `region`.
#[derive(Debug)]
enum TargetToml {
    Cell([u16; 2]),
    Table(TargetTableToml),
}

impl<'de> serde::Deserialize<'de> for TargetToml {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = TargetToml;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a mouse target: [row, col] (from 1), { text = \"..\" }, \
                     { regex = \"..\" } or { region = \"name\" }",
                )
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<TargetToml, A::Error> {
                let mut next = || -> Result<u16, A::Error> {
                    seq.next_element::<u16>()?
                        .ok_or_else(|| serde::de::Error::invalid_length(0, &self))
                };
                let (row, col) = (next()?, next()?);
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(serde::de::Error::invalid_length(3, &self));
                }
                Ok(TargetToml::Cell([row, col]))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<TargetToml, A::Error> {
                serde::Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(TargetToml::Table)
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct TargetTableToml {
    /// The first place this text is on the screen.
    #[serde(default)]
    text: Option<String>,
    /// The first match of this regex.
    #[serde(default)]
    regex: Option<String>,
    /// A region of `[regions]` or `tuicast.toml`.
    #[serde(default)]
    region: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct DragToml {
    /// Where the button is pressed.
    from: TargetToml,
    /// Where it is released.
    to: TargetToml,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
enum KeysToml {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
enum WaitToml {
    Text(String),
    Table(WaitTableToml),
}

#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct WaitTableToml {
    /// Until the text is on the screen.
    #[serde(default)]
    text: Option<String>,
    /// Until a row matches the regex.
    #[serde(default)]
    regex: Option<String>,
    /// Until the screen has not changed for this long.
    #[serde(default)]
    idle: Option<String>,
    /// Until the text is no longer on the screen.
    #[serde(default)]
    gone: Option<String>,
    /// Until the cursor is at `[row, col]`, from 1.
    #[serde(default)]
    cursor: Option<[u16; 2]>,
    /// Until the terminal's echo is off (`false`) or on.
    #[serde(default)]
    echo: Option<bool>,
    /// Until the window title contains the text.
    #[serde(default)]
    title: Option<String>,
    /// Until a bell rings.
    #[serde(default)]
    bell: Option<bool>,
    /// Until a clipboard write contains the text.
    #[serde(default)]
    clipboard: Option<String>,
    /// Until the program waits at a prompt of this kind.
    #[serde(default)]
    prompt: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct SecretToml {
    /// The variable whose value is typed.
    env: String,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
enum ExitToml {
    Code(i32),
    Any(String),
}

/// `fail_fast` as the schema gives it: `true`, `false` or a duration.
#[cfg(feature = "schema")]
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // only its schema is used
enum FailFastSchema {
    /// `true` (after 2 s) or `false`.
    On(bool),
    /// A duration, `"2s"`.
    After(String),
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for CellRange {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CellRange".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A row or column, from 1: a number like 3, or a range like \"2..5\", \"2..=4\", \"2..\" or \"..5\"",
            "type": ["integer", "string"],
            "minimum": 1
        })
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for TargetToml {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Target".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let table = generator.subschema_for::<TargetTableToml>();
        schemars::json_schema!({
            "description": "A mouse target: [row, col] (from 1), { text = \"..\" }, { regex = \"..\" } or { region = \"name\" }",
            "anyOf": [
                {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 2, "maxItems": 2},
                table
            ]
        })
    }
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
    fn title_bell_and_clipboard_waits_and_check_scrollback() {
        let f = parse(
            "shell = \"true\"\nsteps = [\n  { wait = { title = \"vim\" } },\n  { wait = { bell = true } },\n  \
             { wait = { clipboard = \"x\" }, timeout = \"1s\" },\n]\n[check]\nscrollback = 7\n",
        )
        .unwrap();
        let steps = &f.recording.as_ref().unwrap().steps;
        assert!(matches!(&steps[0].action, Action::Wait(Wait::Title(t)) if t == "vim"));
        assert!(matches!(&steps[1].action, Action::Wait(Wait::Bell)));
        assert!(matches!(&steps[2].action, Action::Wait(Wait::Clipboard(t)) if t == "x"));
        assert_eq!(steps[1].describe(), "wait for a bell");
        assert_eq!(f.scrollback, 7);
        assert_eq!(parse("[check]\nmask = []\n").unwrap().scrollback, 0);
        let e = error("shell = \"true\"\nsteps = [{ wait = { bell = true, title = \"x\" } }]\n");
        assert!(
            e.contains("casts/x.toml:2:10: a wait takes exactly one of"),
            "{e}"
        );
        assert!(e.contains("title, bell, clipboard"), "{e}");
        let e = error("[check]\nscrollback = 1001\n");
        assert!(
            e.starts_with("casts/x.toml:2:14: check.scrollback = 1001 is more than"),
            "{e}"
        );
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
        assert!(
            matches!(f.masks[0].anchor(), Anchor::Cells(c) if c.rows() == Some(&(0..1))),
            "{:?}",
            f.masks[0]
        );
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
            assert_eq!(mask.rects(&screen), annotation.regions(&screen));
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
    fn mouse_paste_and_focus_steps_and_their_mistakes() {
        let f = parse(
            "shell = \"true\"\nsteps = [\n  { click = { text = \"OK\" } },\n  \
             { click = [2, 3], button = \"right\" },\n  { click = { region = \"menu\" } },\n  \
             { drag = { from = [1, 1], to = { regex = \"x+\" } }, button = \"middle\" },\n  \
             { scroll = \"down\", at = [5, 5] },\n  { scroll = \"up\", at = [1, 1], count = 3 },\n  { hover = { text = \"a\" } },\n  \
             { paste = \"p\" },\n  { focus = false },\n]\n[regions]\nmenu = { rows = \"2..4\", cols = 3 }\n",
        )
        .unwrap();
        let steps = &f.recording.unwrap().steps;
        let described: Vec<String> = steps.iter().map(Step::describe).collect();
        assert_eq!(
            described,
            [
                "click \"OK\"",
                "right-click row 2, column 3",
                "click region menu",
                "drag (middle button) from row 1, column 1 to /x+/",
                "scroll down at row 5, column 5",
                "scroll up 3 notches at row 1, column 1",
                "hover over \"a\"",
                "paste \"p\"",
                "focus out",
            ]
        );
        let Action::Click(Target::Region(_, Anchor::Cells(cells)), _) = &steps[2].action else {
            panic!("{:?}", steps[2].action)
        };
        assert_eq!((cells.rows(), cells.cols()), (Some(&(1..3)), Some(&(2..3))));
        for (step, expected) in [
            (
                "{ click = [0, 3] }",
                "casts/x.toml:2:10: [0, 3] has a 0: rows and columns count from 1",
            ),
            (
                "{ click = { region = \"nope\" } }",
                "no region \"nope\" in [regions] (regions: none)",
            ),
            (
                "{ click = [1, 1], button = \"left-ish\" }",
                "button must be \"left\", \"middle\" or \"right\"",
            ),
            (
                "{ press = \"a\", button = \"left\" }",
                "button goes with a click or drag step",
            ),
            (
                "{ scroll = \"sideways\", at = [1, 1] }",
                "scroll must be \"up\" or \"down\"",
            ),
            ("{ scroll = \"up\" }", "a scroll step needs at ="),
            (
                "{ hover = [1, 1], at = [1, 1] }",
                "at and count go with a scroll step",
            ),
            (
                "{ scroll = \"up\", at = [1, 1], count = 0 }",
                "count must be 1 to 1000 notches, not 0",
            ),
            (
                "{ click = { text = \"a\", regex = \"b\" } }",
                "exactly one of text, regex, region",
            ),
            (
                "{ drag = { from = [1, 1], to = [0, 1] } }",
                "drag to: [0, 1] has a 0",
            ),
            (
                "{ paste = \"a\", focus = true }",
                "a step takes exactly one of",
            ),
        ] {
            let e = error(&format!("shell = \"true\"\nsteps = [{step}]\n"));
            assert!(e.contains(expected), "{step}: {e}");
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
    fn anchored_regions_and_expectations_read_and_their_mistakes_name_their_place() {
        let f = parse(
            "[regions]\nmode = { row = { regex = \"INSERT\" } }\n\
             name = { match = { regex = \"Name: \", offset = [0, 6], width = 5 } }\n\
             todos = { inside = { box = \"Todos\" } }\n\
             list = { between = { from = \"^---\", to = \"^===\" } }\n\
             last = { last_row = true }\nfixed = { rows = 2 }\n\
             \n[[check.expect]]\nat = \"*\"\nregion = \"mode\"\ntext = \"-- INSERT --\"\nfg = \"green\"\nbold = true\n\
             \n[[check.expect]]\nname = \"cursor\"\nat = \"end\"\ncursor = [5, 1]\nbg = 4\n",
        )
        .unwrap();
        assert_eq!(f.anchors.len(), 6);
        assert_eq!(f.anchors["mode"].describe(), "row = { regex = \"INSERT\" }");
        assert_eq!(
            f.anchors["name"].describe(),
            "match = { regex = \"Name: \", offset = [0, 6], width = 5 }"
        );
        assert!(matches!(f.anchors["last"], Anchor::LastRow));
        #[cfg(feature = "png")]
        {
            assert_eq!(f.regions.len(), 6, "every region has annotation keys");
            assert_eq!(f.regions["fixed"].rows.as_deref(), Some("2"));
            assert_eq!(f.regions["mode"].rows, None);
            assert_eq!(f.regions["mode"].label.as_deref(), Some("mode"));
        }
        assert_eq!(f.expects.len(), 2);
        let (a, b) = (&f.expects[0], &f.expects[1]);
        assert_eq!((a.id.as_str(), a.at.as_deref()), ("1", None));
        assert_eq!(a.place, "casts/x.toml:9");
        assert_eq!(a.style.fg, Some(crate::term::Color::Indexed(2)));
        assert_eq!(
            (b.id.as_str(), b.at.as_deref()),
            ("cursor", Some(&["end".to_string()][..]))
        );
        assert_eq!(
            (b.cursor, b.style.bg),
            (Some((4, 0)), Some(crate::term::Color::Indexed(4)))
        );

        for (text, why) in [
            ("[regions]\nx = { row = { regex = \"(\" } }\n", "2:5: regions.x: regex \"(\" is not valid"),
            (
                "[regions]\nx = { rows = 1, last_row = true }\n",
                "2:5: regions.x: a region takes rows/cols/regex or exactly one of",
            ),
            ("[regions]\nx = { row = { text = \"a\" } }\n", "unknown field `text`"),
            ("[[check.expect]]\nat = \"end\"\n", "1:1: check.expect[0]: an expectation checks nothing"),
            ("[[check.expect]]\ntext = \"a\"\n", "check.expect[0]: an expectation needs at ="),
            (
                "[[check.expect]]\nat = \"end\"\nregion = \"nope\"\ntext = \"a\"\n",
                "check.expect[0]: no region \"nope\" in [regions] (regions: none)",
            ),
            (
                "[[check.expect]]\nat = \"end\"\ntext = \"a\"\ncontains = \"b\"\n",
                "at most one of text, contains, matches",
            ),
            ("[[check.expect]]\nat = \"end\"\nfg = \"mauve\"\n", "fg: colour \"mauve\" is not one"),
            ("[[check.expect]]\nat = \"end\"\nbg = 300\n", "bg = 300: a palette index is 0 to 255"),
            ("[[check.expect]]\nat = \"end\"\ncursor = [0, 1]\n", "has a 0"),
            (
                "[[check.expect]]\nname = \"a\"\nat = \"end\"\nbold = true\n[[check.expect]]\nname = \"a\"\nat = \"*\"\nbold = true\n",
                "check.expect[1]: name \"a\" is taken",
            ),
        ] {
            let e = error(text);
            assert!(e.contains(why), "{text}: {e}");
        }
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
        assert_eq!(s.settle, Some(Settle::Quiet(Duration::from_millis(150))));
        assert_eq!(s.steps[0].settle, None);
        assert_eq!(s.steps[1].settle, Some(Settle::Quiet(Duration::ZERO)));
        let e = error("shell = \"true\"\nsteps = [{ press = \"a\", settle = \"1s\" }]\n");
        assert!(
            e.starts_with("casts/x.toml:2:10: settle goes with a checkpoint step"),
            "{e}"
        );
        let e = error("shell = \"true\"\nsettle = \"soon\"\n");
        assert!(e.starts_with("casts/x.toml:2:10: settle: "), "{e}");
        assert!(e.contains("\"auto\", \"auto:50ms\", \"quiet:50ms\""), "{e}");
    }

    #[test]
    fn settle_is_auto_or_quiet_with_a_period() {
        let rule = |text: &str| parse_settle(text).map_err(|e| e.to_string());
        assert_eq!(rule("auto"), Ok(Settle::DEFAULT));
        assert_eq!(
            rule("auto:200ms"),
            Ok(Settle::Auto(Duration::from_millis(200)))
        );
        assert_eq!(
            rule("quiet:50ms"),
            Ok(Settle::Quiet(Duration::from_millis(50)))
        );
        assert_eq!(rule("80ms"), Ok(Settle::Quiet(Duration::from_millis(80))));
        for rule in [Settle::DEFAULT, Settle::Quiet(Duration::from_millis(120))] {
            assert_eq!(parse_settle(&rule.to_string()), Ok(rule), "read back");
        }
        assert!(rule("auto:soon").unwrap_err().contains("not a duration"));
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
