//! Scenario files (`casts/NAME.toml`, beside the cast): how a cast is recorded and what to
//! check. See DESIGN.md for the recording keys; the `[check]` table is:
//!
//! ```toml
//! [check]
//! formats = ["txt", "styled.txt"]      # snapshot formats for this cast
//! mask = [{ rows = "0", cols = "60..80" }, { regex = "\\d\\d:\\d\\d" }]
//! ```
//!
//! The `[regions]` table names parts of the screen for annotated screenshots
//! (`tuicast replay CAST --format png --annotate region=status`); each region has the keys of
//! an `--annotate` spec:
//!
//! ```toml
//! [regions]
//! status = { rows = "23", cols = "0..80", label = "status line", color = "#ff8800" }
//! menu = { regex = "apple|banana" }   # the label defaults to the region's name
//! ```

use std::path::{Path, PathBuf};

use crate::assert::{Format, Mask, MaskSpec};
use crate::config::{parse_toml, ConfigError};

/// A scenario file: how to record a cast, and what to check in it.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The program to run, as argv.
    #[serde(default)]
    pub command: Option<Vec<String>>,
    /// A script run by `bash -c`, instead of `command`.
    #[serde(default)]
    pub shell: Option<String>,
    /// Working directory, relative to the scenario file.
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    /// Terminal size, `COLSxROWS`.
    #[serde(default)]
    pub size: Option<String>,
    /// Extra environment variables.
    #[serde(default)]
    pub env: std::collections::BTreeMap<String, String>,
    /// Variables passed through from the caller's environment.
    #[serde(default)]
    pub inherit_env: Vec<String>,
    /// Default timeout of every wait, like `10s`.
    #[serde(default)]
    pub timeout: Option<String>,
    /// A title for the cast.
    #[serde(default)]
    pub title: Option<String>,
    /// Regexes whose matches in output are scrubbed.
    #[serde(default)]
    pub redact: Vec<String>,
    /// The steps, in order.
    #[serde(default)]
    pub steps: Vec<toml::Spanned<Step>>,
    /// What to check.
    #[serde(default)]
    pub check: CheckSpec,
    /// Named annotation regions, by name.
    #[serde(default)]
    pub regions: std::collections::BTreeMap<String, RegionSpec>,
}

/// A named annotation region of the `[regions]` table: the keys of an `--annotate` spec
/// (`rows`, `cols`, `regex`, `label`, `color`); the label is the region's name when absent,
/// no badge when empty.
pub type RegionSpec = crate::render::png::AnnotationSpec;

/// One step of a scenario: exactly one action key, plus an optional `timeout` for waits and
/// `exit`.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Wait for something on the screen.
    #[serde(default)]
    pub wait: Option<WaitSpec>,
    /// Press one key or several, by name.
    #[serde(default)]
    pub press: Option<Keys>,
    /// Type text.
    #[serde(default, rename = "type")]
    pub type_text: Option<String>,
    /// Mark a checkpoint.
    #[serde(default)]
    pub snapshot: Option<String>,
    /// Type a secret taken from tuicast's environment.
    #[serde(default)]
    pub secret: Option<SecretSpec>,
    /// Resize the terminal, `COLSxROWS`.
    #[serde(default)]
    pub resize: Option<String>,
    /// Wait for the program to end and check its status (a number, or `"any"`).
    #[serde(default)]
    pub exit: Option<ExitSpec>,
    /// Let time pass (discouraged: prefer a wait), like `"500ms"`.
    #[serde(default)]
    pub sleep: Option<String>,
    /// Timeout of this step's wait or exit, overriding the scenario's.
    #[serde(default)]
    pub timeout: Option<String>,
}

/// Keys to press: one name or a list.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(untagged)]
pub enum Keys {
    /// One key name.
    One(String),
    /// Several key names, pressed in order.
    Many(Vec<String>),
}

impl Keys {
    /// The key names in order.
    pub fn names(&self) -> Vec<&str> {
        match self {
            Keys::One(k) => vec![k.as_str()],
            Keys::Many(k) => k.iter().map(String::as_str).collect(),
        }
    }
}

/// What a `wait` step waits for.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(untagged)]
pub enum WaitSpec {
    /// Text on the screen.
    Text(String),
    /// One of the other conditions.
    Table(WaitTable),
}

/// The table form of a wait: exactly one key.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaitTable {
    /// Text on the screen.
    #[serde(default)]
    pub text: Option<String>,
    /// A regex matching the screen text.
    #[serde(default)]
    pub regex: Option<String>,
    /// No output for this long, like `"300ms"`.
    #[serde(default)]
    pub idle: Option<String>,
    /// Text no longer on the screen.
    #[serde(default)]
    pub gone: Option<String>,
    /// The cursor at `[row, col]`, 0-based.
    #[serde(default)]
    pub cursor: Option<[u16; 2]>,
    /// The terminal's echo in this state (`false`: a password prompt).
    #[serde(default)]
    pub echo: Option<bool>,
}

/// A secret's source.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecretSpec {
    /// The environment variable (of tuicast, not of the program) holding the value.
    pub env: String,
}

/// The expected exit status.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(untagged)]
pub enum ExitSpec {
    /// This status.
    Code(i32),
    /// `"any"`: only wait for the exit.
    Any(String),
}

/// Parses a duration like `300ms`, `10s`, `1.5s` or `2m`.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let (num, unit) = match t.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let n: f64 = num.trim().parse().map_err(|_| {
        format!("{text:?} is not a duration: use a number with ms, s or m, like 300ms or 10s")
    })?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" | "min" => n * 60.0,
        _ => return Err(format!("{text:?} has an unknown unit: use ms, s or m")),
    };
    if !(secs.is_finite() && (0.0..=86_400.0).contains(&secs)) {
        return Err(format!("{text:?} is out of range (0 to 24 hours)"));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

/// The `[check]` table.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSpec {
    /// Snapshot formats; the project's defaults when absent.
    #[serde(default)]
    pub formats: Option<Vec<Format>>,
    /// Masks applied before comparing.
    #[serde(default)]
    pub mask: Vec<MaskSpec>,
}

impl Scenario {
    /// Reads a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::new(path, 0, 0, e.to_string()))?;
        let scenario: Scenario = parse_toml(path, &text)?;
        // Regions are checked now, as masks and steps are, not when a screenshot needs one.
        for (name, region) in &scenario.regions {
            region.build().map_err(|e| {
                let name = crate::escape::escape_for_terminal(name, 60);
                ConfigError::new(path, 0, 0, format!("regions.{name}: {e}"))
            })?;
        }
        Ok(scenario)
    }

    /// The scenario beside `cast` (`x.cast` → `x.toml`), if there is one.
    pub fn beside(cast: &Path) -> Result<Option<Scenario>, ConfigError> {
        let path = cast.with_extension("toml");
        if path.is_file() {
            Scenario::load(&path).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The compiled masks of `[check]`; errors name the scenario file.
    pub fn masks(&self, path: &Path) -> Result<Vec<Mask>, ConfigError> {
        self.check
            .mask
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                Mask::new(spec)
                    .map_err(|e| ConfigError::new(path, 0, 0, format!("check.mask[{i}]: {e}")))
            })
            .collect()
    }
}
