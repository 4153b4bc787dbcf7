//! Differential replay: one cast through several engines at once, and the cells where their
//! screens disagree at every checkpoint.
//!
//! Useful to the author of a program that relies on an edge of terminal behaviour: a cell
//! that avt and vt100 draw differently is a cell real terminals may draw differently too.
//!
//! ```
//! use tuicast::replay::differential::compare_engines;
//! use tuicast::term::EngineKind;
//!
//! let cast = "{\"version\": 3, \"term\": {\"cols\": 10, \"rows\": 2}}\n\
//!             [0.1, \"o\", \"\\u001b(0lqk\"]\n";
//! let reader = tuicast::cast::CastReader::new(cast.as_bytes()).unwrap();
//! let engines = [EngineKind::Native, EngineKind::Vt100];
//! let report = compare_engines(reader, &engines).unwrap();
//! let end = &report[0];
//! assert_eq!(end.name, "end");
//! // tuicast's engines draw DEC line drawing as box characters, vt100 prints the letters.
//! assert_eq!(end.cells.len(), 3);
//! assert_eq!(end.cells[0].cells[0].cell.as_ref().unwrap().text, "┌");
//! assert_eq!(end.cells[0].cells[1].cell.as_ref().unwrap().text, "l");
//! ```

use std::io::BufRead;

use serde::{Deserialize, Serialize};

use super::{Replayer, END};
use crate::cast::{CastError, CastReader, EventData};
use crate::term::{Cell, EngineKind, Screen};

/// What `tuicast engines --json` writes: a cast's checkpoints replayed through every engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct EnginesJson {
    /// The cast file, as it was named.
    pub cast: String,
    /// The engines compared, default first.
    pub engines: Vec<EngineKind>,
    /// Each checkpoint's comparison (the `end` checkpoint last).
    pub checkpoints: Vec<Comparison>,
}

impl EnginesJson {
    /// The document of `comparisons` of the cast `cast` by `engines`.
    pub fn new(
        cast: impl Into<String>,
        engines: &[EngineKind],
        checkpoints: Vec<Comparison>,
    ) -> EnginesJson {
        EnginesJson {
            cast: cast.into(),
            engines: engines.to_vec(),
            checkpoints,
        }
    }
}

/// What the engines showed at one checkpoint, and where they disagree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Comparison {
    /// The checkpoint's name (a marker label made unique, or `end`).
    pub name: String,
    /// 1-based line of the cast file whose event produced the checkpoint.
    pub line: u64,
    /// Seconds from the start of the recording.
    pub time: f64,
    /// The engines compared, in the order given.
    pub engines: Vec<EngineKind>,
    /// Cells compared: those of the largest screen.
    pub compared: usize,
    /// The cells where at least two engines differ, row by row.
    pub cells: Vec<CellDisagreement>,
    /// Differences outside the grid: size, cursor, title, alternate screen.
    pub screen: Vec<ScreenDisagreement>,
}

impl Comparison {
    /// True when every engine showed the same screen.
    pub fn agrees(&self) -> bool {
        self.cells.is_empty() && self.screen.is_empty()
    }
}

/// One cell where engines disagree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct CellDisagreement {
    /// 0-based row.
    pub row: u16,
    /// 0-based column.
    pub col: u16,
    /// Whether the characters differ (otherwise only the style does).
    pub text: bool,
    /// Each engine's cell, in the order of [`Comparison::engines`].
    pub cells: Vec<EngineCell>,
}

/// One engine's cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct EngineCell {
    /// The engine.
    pub engine: EngineKind,
    /// Its cell; `None` where the cell is outside that engine's screen (the engines disagree
    /// on the size).
    pub cell: Option<Cell>,
}

/// A difference outside the grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct ScreenDisagreement {
    /// `size`, `cursor`, `cursor visible`, `title` or `alternate screen`.
    pub what: String,
    /// Each engine's value, as text.
    pub values: Vec<EngineValue>,
}

/// One engine's value of something outside the grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct EngineValue {
    /// The engine.
    pub engine: EngineKind,
    /// Its value, as text.
    pub value: String,
}

/// Replays a cast through every engine in `engines` at once and compares their screens at
/// every checkpoint (the `end` checkpoint last). The cast is read once.
pub fn compare_engines<R: BufRead>(
    reader: CastReader<R>,
    engines: &[EngineKind],
) -> Result<Vec<Comparison>, CastError> {
    compare(reader, engines, None)
}

/// Like [`compare_engines`], but only the checkpoint `name`; `Ok(None)` when the cast has no
/// checkpoint of that name.
pub fn compare_engines_at<R: BufRead>(
    reader: CastReader<R>,
    engines: &[EngineKind],
    name: &str,
) -> Result<Option<Comparison>, CastError> {
    Ok(compare(reader, engines, Some(name))?.pop())
}

/// Compares screens from several engines cell by cell, and their size, cursor, title and
/// alternate-screen flag. Screens of different sizes are compared over the largest grid.
pub fn compare_screens(
    screens: &[(EngineKind, &Screen)],
) -> (Vec<CellDisagreement>, Vec<ScreenDisagreement>, usize) {
    let rows = screens.iter().map(|(_, s)| s.rows.len()).max().unwrap_or(0);
    let mut compared = 0;
    let mut cells = Vec::new();
    for r in 0..rows {
        let cols = screens
            .iter()
            .map(|(_, s)| s.rows.get(r).map_or(0, Vec::len))
            .max()
            .unwrap_or(0);
        for c in 0..cols {
            compared += 1;
            let here: Vec<Option<&Cell>> = screens
                .iter()
                .map(|(_, s)| s.rows.get(r).and_then(|row| row.get(c)))
                .collect();
            let first = here[0];
            let text = here.iter().any(|cell| !same_text(first, *cell));
            let style = here.iter().any(|cell| match (first, *cell) {
                (Some(a), Some(b)) => !a.same_style(b),
                (None, None) => false,
                _ => true,
            });
            if text || style {
                cells.push(CellDisagreement {
                    row: r as u16,
                    col: c as u16,
                    text,
                    cells: screens
                        .iter()
                        .zip(&here)
                        .map(|((kind, _), cell)| EngineCell {
                            engine: *kind,
                            cell: cell.cloned(),
                        })
                        .collect(),
                });
            }
        }
    }
    let mut screen = Vec::new();
    let mut check = |what: &'static str, value: &dyn Fn(&Screen) -> String| {
        let values: Vec<EngineValue> = screens
            .iter()
            .map(|(k, s)| EngineValue {
                engine: *k,
                value: value(s),
            })
            .collect();
        if values.iter().any(|v| v.value != values[0].value) {
            screen.push(ScreenDisagreement {
                what: what.to_string(),
                values,
            });
        }
    };
    check("size", &|s| s.size.to_string());
    check("cursor", &|s| s.cursor.place().to_string());
    check("cursor visible", &|s| s.cursor.visible.to_string());
    check("title", &|s| {
        format!("{:?}", s.title.as_deref().unwrap_or(""))
    });
    check("alternate screen", &|s| s.alternate.to_string());
    (cells, screen, compared)
}

/// A cell's style as text: `fg=1 bg=default bold underline`.
pub fn describe_style(cell: &Cell) -> String {
    let mut out = format!("fg={} bg={}", cell.fg, cell.bg);
    for name in cell.attrs.names() {
        out.push(' ');
        out.push_str(name);
    }
    out
}

fn same_text(a: Option<&Cell>, b: Option<&Cell>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.text == b.text && a.width == b.width,
        (None, None) => true,
        _ => false,
    }
}

fn compare<R: BufRead>(
    reader: CastReader<R>,
    engines: &[EngineKind],
    only: Option<&str>,
) -> Result<Vec<Comparison>, CastError> {
    let header = reader.header().clone();
    let mut replayers: Vec<Replayer> = engines.iter().map(|k| Replayer::new(&header, *k)).collect();
    let mut out = Vec::new();
    let (mut line, mut time) = (1, 0.0);
    for event in reader {
        let event = event?;
        line = event.line;
        time = event.time;
        let mut name = None;
        for r in &mut replayers {
            name = r.apply(&event);
        }
        if let (Some(name), EventData::Marker(_)) = (name, &event.data) {
            if only.is_none_or(|o| o == name) {
                out.push(checkpoint(name, line, time, engines, &replayers));
                if only.is_some() {
                    return Ok(out);
                }
            }
        }
    }
    // `end`, made unique the way the replayers name it.
    let screens: Vec<Screen> = replayers.iter().map(Replayer::screen).collect();
    let name = replayers
        .into_iter()
        .next()
        .map_or_else(|| END.to_string(), |r| r.finish().name);
    if only.is_none_or(|o| o == name) {
        out.push(build(name, line, time, engines, &screens));
    }
    Ok(out)
}

fn checkpoint(
    name: String,
    line: u64,
    time: f64,
    engines: &[EngineKind],
    replayers: &[Replayer],
) -> Comparison {
    let screens: Vec<Screen> = replayers.iter().map(Replayer::screen).collect();
    build(name, line, time, engines, &screens)
}

fn build(
    name: String,
    line: u64,
    time: f64,
    engines: &[EngineKind],
    screens: &[Screen],
) -> Comparison {
    let pairs: Vec<(EngineKind, &Screen)> = engines.iter().copied().zip(screens).collect();
    let (cells, screen, compared) = compare_screens(&pairs);
    Comparison {
        name,
        line,
        time,
        engines: engines.to_vec(),
        compared,
        cells,
        screen,
    }
}
