//! The player's data: a cast replayed by tuicast into frames, each keeping only the rows that
//! changed since the frame before, with a table of the styles they use and the checkpoints
//! as markers. The page draws these frames; it emulates no terminal.
//!
//! For a live run the frames are of the new recording (its partial part when a step failed),
//! with the scenario's steps and the failed one marked.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::grid::css;
use crate::assert::Style;
use crate::cast::EventData;
use crate::replay::Replayer;
use crate::term::EngineSpec;
use crate::term::{Attrs, Cell, Color, Screen};

/// Output closer together than this makes one frame (a checkpoint always ends one).
const FRAME_SECONDS: f64 = 1.0 / 30.0;

/// The frames of one cast.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Player {
    /// The cast's stem.
    pub stem: String,
    /// CSS of each style a run refers to by index.
    pub styles: Vec<String>,
    /// The frames, in time order.
    pub frames: Vec<Frame>,
    /// The checkpoints: name, frame index, time, cast line.
    pub markers: Vec<Marker>,
    /// Seconds from the start to the last event.
    pub duration: f64,
    /// Why the replay stopped early (a cast that stops reading part way).
    pub error: Option<String>,
    /// For a live run, the scenario's steps, shown beside the timeline (the frames are then
    /// of the new recording, or of what it recorded before a step failed).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub steps: Vec<StepInfo>,
}

/// A scenario step of a live run, as the report lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct StepInfo {
    /// Its 1-based line in the scenario file (0 when it was built in code).
    pub line: u64,
    /// What it does (`press Enter`, `wait for "Done"`).
    pub text: String,
    /// The checkpoint it marks, for a checkpoint step.
    pub checkpoint: Option<String>,
    /// This step failed (timed out, or the program exited).
    pub failed: bool,
}

impl StepInfo {
    /// A step as the report lists it.
    pub fn new(line: u64, text: String, checkpoint: Option<String>, failed: bool) -> StepInfo {
        StepInfo {
            line,
            text,
            checkpoint,
            failed,
        }
    }
}

/// What the report knows of a case recorded live: the new recording (its partial part when a
/// step failed) and the scenario's steps.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LiveInfo {
    /// The recording the player plays.
    pub recording: std::path::PathBuf,
    /// The scenario's steps, the failed one marked.
    pub steps: Vec<StepInfo>,
    /// Each checkpoint's overhead in the recording (from the program's last output to the
    /// checkpoint), in milliseconds.
    pub overheads_ms: Vec<f64>,
}

impl LiveInfo {
    /// The recording at `recording` and the steps of its scenario.
    pub fn new(recording: std::path::PathBuf, steps: Vec<StepInfo>) -> LiveInfo {
        LiveInfo {
            recording,
            steps,
            overheads_ms: Vec::new(),
        }
    }

    /// This with the recording's checkpoint overheads, in milliseconds.
    pub fn with_overheads(self, overheads_ms: Vec<f64>) -> LiveInfo {
        LiveInfo {
            overheads_ms,
            ..self
        }
    }
}

/// One frame: what changed since the frame before.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Frame {
    /// Seconds from the start.
    pub t: f64,
    /// `[cols, rows]` when the size changed (always on the first frame).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub size: Option<(usize, usize)>,
    /// The rows that changed: `(row, runs)`; a run is `(text, style index, cells)`.
    pub rows: Vec<(usize, Vec<Run>)>,
    /// Rows that are a row of the frame before (scrolling): `(row, row before)`.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub moved: Vec<(usize, usize)>,
    /// The cursor `(row, col)`, `None` when hidden.
    pub cursor: Option<(usize, usize)>,
}

/// Cells of one style drawn together: text, style index, and the cells of its box: 0 for a run
/// of ASCII text (as wide as its characters), 1 or 2 for one other character in a box of one or
/// two cells (whatever width its font gives it, so a braille or CJK glyph from a fallback font
/// cannot shift the rest of the row).
pub type Run = (String, usize, u8);

/// A checkpoint on the timeline.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Marker {
    /// The checkpoint name.
    pub name: String,
    /// The frame showing its screen.
    pub frame: usize,
    /// Its time.
    pub t: f64,
    /// Its cast line.
    pub line: u64,
}

/// Replays `cast` into frames; a cast that stops reading part way keeps the frames before.
pub fn player(stem: &str, cast: &Path, engine: impl Into<EngineSpec>) -> Player {
    let mut p = Player {
        stem: stem.to_string(),
        ..Player::default()
    };
    let reader = match crate::cast::open(cast) {
        Ok(r) => r,
        Err(e) => {
            p.error = Some(e.to_string());
            return p;
        }
    };
    let mut builder = Builder::default();
    let mut replayer = Replayer::new(reader.header(), engine);
    builder.push(&mut p, 0.0, &replayer.screen());
    let mut pending: Option<f64> = None;
    let mut last_time = 0.0;
    for event in reader {
        let event = match event {
            Ok(e) => e,
            Err(e) => {
                p.error = Some(e.to_string());
                break;
            }
        };
        if let Some(start) = pending {
            if event.time >= start + FRAME_SECONDS {
                builder.push(&mut p, start, &replayer.screen());
                pending = None;
            }
        }
        last_time = event.time;
        let changes = matches!(event.data, EventData::Output(_) | EventData::Resize(_));
        if changes && pending.is_none() {
            pending = Some(event.time);
        }
        if let Some(name) = replayer.apply(&event) {
            let start = pending.take().unwrap_or(event.time);
            builder.push(&mut p, start, &replayer.screen());
            p.markers.push(Marker {
                name,
                frame: p.frames.len() - 1,
                t: event.time,
                line: event.line,
            });
        }
    }
    if let Some(start) = pending {
        builder.push(&mut p, start, &replayer.screen());
    }
    if p.error.is_none() {
        let end = replayer.finish();
        p.markers.push(Marker {
            name: end.name,
            frame: p.frames.len() - 1,
            t: end.time,
            line: end.line,
        });
    }
    p.duration = last_time;
    p
}

/// The cells of the box a cell's text is drawn in: 0 for plain ASCII (it flows with its run),
/// else its width (1 or 2).
pub(super) fn boxed_cells(cell: &Cell) -> u8 {
    if cell.width > 1 {
        2
    } else if cell.text.is_ascii() {
        0
    } else {
        1
    }
}

/// Turns screens into frames of changed rows, sharing one style table.
#[derive(Default)]
struct Builder {
    /// The last frame's screen and the runs of each of its rows.
    last: Option<(Screen, Vec<Vec<Run>>)>,
    styles: HashMap<String, usize>,
    by_style: HashMap<(Color, Color, Attrs), usize>,
}

impl Builder {
    fn push(&mut self, p: &mut Player, t: f64, screen: &Screen) {
        let size = (screen.size.cols as usize, screen.size.rows as usize);
        let last = self.last.take();
        let resized = last.as_ref().is_none_or(|(l, _)| l.size != screen.size);
        let cursor = screen.cursor;
        let cursor = cursor
            .visible
            .then_some((cursor.row as usize, cursor.col as usize));
        let mut rows = Vec::new();
        let mut moved = Vec::new();
        let mut all_runs = Vec::with_capacity(screen.rows.len());
        {
            let before: HashMap<&Vec<Run>, usize> = match (&last, resized) {
                (Some((_, runs)), false) => runs.iter().enumerate().map(|(i, r)| (r, i)).collect(),
                _ => HashMap::new(),
            };
            for (r, row) in screen.rows.iter().enumerate() {
                if let (Some((l, runs)), false) = (&last, resized) {
                    if l.rows.get(r) == Some(row) {
                        all_runs.push(runs[r].clone());
                        continue;
                    }
                }
                let runs = self.runs(p, row);
                match before.get(&runs) {
                    Some(_) if last.as_ref().is_some_and(|(_, l)| l[r] == runs) => {}
                    Some(&k) => moved.push((r, k)),
                    None => rows.push((r, runs.clone())),
                }
                all_runs.push(runs);
            }
        }
        let last_cursor = last.as_ref().map(|(l, _)| {
            let c = l.cursor;
            c.visible.then_some((c.row as usize, c.col as usize))
        });
        if !resized && rows.is_empty() && moved.is_empty() && last_cursor == Some(cursor) {
            self.last = last;
            return; // the same screen: no frame
        }
        p.frames.push(Frame {
            t,
            size: resized.then_some(size),
            rows,
            moved,
            cursor,
        });
        self.last = Some((screen.clone(), all_runs));
    }

    fn runs(&mut self, p: &mut Player, row: &[Cell]) -> Vec<Run> {
        let mut out: Vec<Run> = Vec::new();
        for cell in row {
            if cell.width == 0 {
                continue;
            }
            let key = (cell.fg, cell.bg, cell.attrs);
            let style = match self.by_style.get(&key) {
                Some(&i) => i,
                None => {
                    let css = css(&Style::of(cell));
                    let next = self.styles.len();
                    let i = *self.styles.entry(css.clone()).or_insert_with(|| {
                        p.styles.push(css);
                        next
                    });
                    self.by_style.insert(key, i);
                    i
                }
            };
            let cells = boxed_cells(cell);
            let text = cell.text.chars().map(crate::term::safe_char);
            match out.last_mut() {
                Some((t, s, 0)) if *s == style && cells == 0 => t.extend(text),
                _ => out.push((text.collect(), style, cells)),
            }
        }
        // Trailing default blanks are drawn by the row's width.
        if let Some((text, 0, 0)) = out.last_mut() {
            if p.styles[0].is_empty() {
                let trimmed = text.trim_end_matches(' ').len();
                text.truncate(trimmed);
                if text.is_empty() {
                    out.pop();
                }
            }
        }
        out
    }
}
