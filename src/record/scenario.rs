//! Scenario files (`casts/NAME.toml`, beside the cast): how a cast is recorded and what to
//! check. See DESIGN.md for the recording keys; the `[check]` table is:
//!
//! ```toml
//! [check]
//! formats = ["txt", "styled.txt"]      # snapshot formats for this cast
//! mask = [{ rows = "0", cols = "60..80" }, { regex = "\\d\\d:\\d\\d" }]
//! ```

use std::path::{Path, PathBuf};

use crate::assert::{Format, Mask, MaskSpec};
use crate::config::{parse_toml, ConfigError};

/// A scenario file. Only the `[check]` table is interpreted so far; the recording keys are
/// accepted as they are.
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
    /// The steps (typed by the recorder).
    #[serde(default)]
    pub steps: Vec<toml::Value>,
    /// What to check.
    #[serde(default)]
    pub check: CheckSpec,
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
        parse_toml(path, &text)
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
