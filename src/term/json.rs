//! The JSON forms of the terminal's values that both the JSON render
//! ([`crate::render::ScreenJson`]) and the inspection ([`crate::inspect::InspectionJson`])
//! write.

use serde::{Deserialize, Serialize};

use super::Color;

/// A size in cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct SizeJson {
    /// Columns.
    pub cols: u16,
    /// Rows.
    pub rows: u16,
}

/// A colour that is not the default: a palette index or a truecolour `#rrggbb`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
#[non_exhaustive]
pub enum ColorJson {
    /// A palette colour, 0–255.
    Indexed(u8),
    /// A truecolour, `#rrggbb`.
    Rgb(#[cfg_attr(feature = "schema", schemars(regex(pattern = r"^#[0-9a-f]{6}$")))] String),
}

/// The checkpoint of a cast a JSON screen or inspection was taken at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct CheckpointJson {
    /// Its name (a marker's label, or `end`).
    pub name: String,
    /// The line of the cast it is at (from 1).
    pub line: u64,
    /// Its time in the cast, in seconds.
    pub time: f64,
}

impl CheckpointJson {
    /// The checkpoint named `name` at `line` and `time` seconds of its cast.
    pub fn new(name: impl Into<String>, line: u64, time: f64) -> CheckpointJson {
        CheckpointJson {
            name: name.into(),
            line,
            time,
        }
    }
}

impl ColorJson {
    /// The JSON of a colour: `None` for the default colour.
    pub fn of(c: Color) -> Option<ColorJson> {
        match c {
            Color::Default => None,
            Color::Indexed(i) => Some(ColorJson::Indexed(i)),
            // (Truecolour, and any colour kind a later build adds, as `#rrggbb`.)
            other => Some(ColorJson::Rgb(other.to_string())),
        }
    }
}
