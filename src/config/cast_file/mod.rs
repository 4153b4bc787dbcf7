//! A cast's TOML (`casts/NAME.toml`, beside `casts/NAME.cast`): how the cast is recorded,
//! what to check in it, and named regions of its screens. One schema, read whole and checked
//! at once into typed values ([`CastFile`]); every error names its `file:line:column`.
//!
//! The recording keys and steps are in `docs/scenarios.md` (`bin`, `command` or `shell`,
//! `args`, `cwd`, `in_place`, `size`, `env`, `inherit_env`, `timeout`, `settle`, `fail_fast`,
//! `title`, `redact`,
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
//! mode = { row = { regex = "INSERT" } }   # anchored by content: see inspect::Anchor
//! ```
//!
//! A region may instead be anchored by content ([`Anchor`]: `row`, `match`, `inside`,
//! `between`, `last_row`), found afresh on each screen: on a checkpoint's screen for
//! expectations, region goldens and annotations, on the live screen when a mouse step runs.
//! Regions serve expectations, `[[check.expect]]` in `[check]` ([`Expect`]: `at`, a region or
//! cells, `text`, `contains`, `matches`, `fg`, `bg`, `bold`, `italic`, `underline`,
//! `inverse`, `cursor`). `tuicast.toml` may have a `[regions]` table of the same schema
//! ([`Regions`]): every cast has those regions, under its own of the same name
//! ([`CastFile::parse`]).
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

use toml::Spanned;

use super::{parse_toml, ConfigError, NO_FORMATS};
use crate::assert::{parse_color, Expect, Format, Mask, StyleCheck, TextCheck};
use crate::escape::escape_for_terminal;
use crate::pos::Place;
use std::sync::Arc;

use crate::inspect::{
    anchor_regex, unknown_ref, AdapterToml, Adapters, Anchor, RefAnchor, RefContext, Selector,
};
use crate::record::mouse::{MouseButton, ScrollDirection};
use crate::record::{Action, Origin, Program, Scenario, Settle, Step, Target, Wait, MAX_SCROLL};
#[cfg(feature = "png")]
use crate::render::png::AnnotationSpec;
use crate::term::{CellSelection, Size, MAX_SCROLLBACK};

/// A cast's TOML, read and checked.
#[derive(Debug, Clone)]
#[non_exhaustive]
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
    /// Whether `txt` goldens carry style runs (`[check] styles`); the project's `styles` when
    /// `None`.
    pub styles: Option<bool>,
    /// Lines scrolled off the top that text goldens show above the screen (`[check]
    /// scrollback`, default 0, at most [`MAX_SCROLLBACK`]).
    pub scrollback: usize,
    /// Where `[check] scrollback` is (`path:line:column`), when the file sets it: a
    /// scrollback no checkpoint of the cast shows fails the case there.
    pub scrollback_at: Option<String>,
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
#[non_exhaustive]
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
    /// Reads and checks the file at `path`, whose regions are `project`'s (`tuicast.toml`'s
    /// `[regions]`, [`Config::regions`](crate::config::Config::regions); `&Regions::default()`
    /// for none) with its own over them.
    pub fn load(path: &Path, project: &Regions) -> Result<CastFile, ConfigError> {
        let text = super::read_toml_file(path).map_err(|e| ConfigError::io(path, e))?;
        CastFile::parse(path, &text, project)
    }

    /// The file beside `cast` (`x.cast` → `x.toml`), if there is one, read as
    /// [`CastFile::load`] reads it.
    pub fn beside(cast: &Path, project: &Regions) -> Result<Option<CastFile>, ConfigError> {
        let path = cast.with_extension("toml");
        if path.is_file() {
            CastFile::load(&path, project).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Checks `text`, the content of the file at `path` (relative `cwd`s are taken from its
    /// folder), whose regions are `project`'s with its own over them: expectations, region
    /// goldens and mouse targets may name either.
    pub fn parse(path: &Path, text: &str, project: &Regions) -> Result<CastFile, ConfigError> {
        let file: FileToml = parse_toml(path, text)?;
        let at = Places { path, text };
        let all = project.with(Regions::read(
            path,
            text,
            &file.regions,
            &file.adapters,
            project,
        )?);
        let CheckParts {
            formats,
            masks,
            checked,
            cursor,
            styles,
            scrollback,
            scrollback_at,
            expects,
            region_goldens,
        } = check_table(&at, &file.check, &all)?;
        #[cfg(feature = "png")]
        let regions = all.annotations.clone();
        // The masks also tell the recorder which changes do not unsettle a checkpoint.
        let recording = recording(&at, &file, &all)?.map(|mut s| {
            s.masks = masks.iter().map(|m| m.anchor().clone()).collect();
            s.regions = all
                .anchors
                .iter()
                .map(|(n, a)| (n.clone(), a.clone()))
                .collect();
            s
        });
        Ok(CastFile {
            path: path.to_path_buf(),
            recording,
            formats,
            masks,
            checked,
            cursor,
            styles,
            scrollback,
            scrollback_at,
            #[cfg(feature = "png")]
            regions,
            anchors: all.anchors,
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
/// step kind a scenario has is a command, read by this one schema. A mouse target may name
/// one of `regions` (`{ click = { region = "ok" } }`; `&Regions::default()` for none):
/// `tuicast session` reads the `[regions]` of the `tuicast.toml` in the folder a session
/// started in.
pub fn parse_step(path: &Path, text: &str, regions: &Regions) -> Result<Step, ConfigError> {
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
    let (action, timeout, settle) = step(one.step.get_ref(), regions).map_err(|m| {
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

/// The rule of every "exactly one of these keys" in the schema (a step's action, a region's
/// anchor, a mouse target, a wait, an expectation's text check): `found` holds a value for
/// each of the keys that were written; `Ok(None)` when none was, the value when one was, and
/// `several` (which names the keys) when more were.
fn one_of<T>(mut found: Vec<T>, several: &str) -> Result<Option<T>, Invalid> {
    match found.len() {
        0 | 1 => Ok(found.pop()),
        _ => Err(Invalid(several.to_string())),
    }
}

/// An [`Invalid`] with a message made as by `format!`.
macro_rules! invalid {
    ($($arg:tt)*) => {
        Invalid(format!($($arg)*))
    };
}

mod check;
mod duration;
mod expect;
mod recording;
mod regions;
mod steps;

pub use duration::{parse_duration, parse_settle, DurationError, DurationErrorKind};
pub use recording::DEFAULT_FAIL_FAST;
pub(in crate::config) use regions::RegionToml;
pub use regions::Regions;
pub(super) use steps::{millis, settle_text, step_text};
use {check::*, expect::*, recording::*, regions::*, steps::*};

impl From<DurationError> for Invalid {
    fn from(e: DurationError) -> Invalid {
        Invalid(e.into())
    }
}

impl From<crate::inspect::AnchorError> for Invalid {
    fn from(e: crate::inspect::AnchorError) -> Invalid {
        Invalid(e.into())
    }
}

impl From<crate::record::keys::KeyError> for Invalid {
    fn from(e: crate::record::keys::KeyError) -> Invalid {
        Invalid(e.into())
    }
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
    /// Run the program in its working folder itself (`true`), not in a fresh copy of it.
    #[serde(default)]
    in_place: bool,
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
    /// App manifests: what this cast's program shows, as refs (`@NAME.REF`; docs/agents.md).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "BTreeMap<String, AdapterToml>"))]
    adapters: BTreeMap<String, Spanned<AdapterToml>>,
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

#[cfg(test)]
mod tests;
