//! What a cast holds and what its program did to the terminal (`tuicast info`), read in one
//! replay with one screen in memory at a time: [`CastInfo::read`]. [`CastInfo`] is also the
//! JSON `tuicast info --json` writes (`docs/schemas/info.json`).

use std::collections::BTreeMap;
use std::io::BufRead;

use serde::{Deserialize, Serialize};

use super::{CheckpointNames, Replayer};
use crate::cast::{CastError, CastReader, EventData};
use crate::term::{ClipboardWrite, EngineKind, Hyperlink, Modes, Screen, SizeJson};

/// Most window titles, clipboard writes and links listed.
pub const MAX_LISTED: usize = 100;

/// What a cast holds: its header, its events and checkpoints with what waiting for each
/// cost, what its program did to the terminal, and the modes it left set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct CastInfo {
    /// The cast file, as it was named.
    pub path: String,
    /// The asciicast version of the file (1, 2 or 3).
    pub version: u8,
    /// The terminal size of the recording.
    pub size: SizeJson,
    /// Seconds from the start to the last event.
    pub duration: f64,
    /// The header's title.
    pub title: Option<String>,
    /// The header's command.
    pub command: Option<String>,
    /// The header's `TERM`.
    pub term_type: Option<String>,
    /// The header's idle time limit, in seconds.
    pub idle_time_limit: Option<f64>,
    /// The program's exit status, from the cast's `x` event.
    pub exit_status: Option<i32>,
    /// How many events of each code (`o`, `i`, `m`, `r`, `x`).
    pub events: BTreeMap<String, u64>,
    /// The settle rule a tuicast recording used (its header's `tuicast.settle`).
    pub settle: Option<String>,
    /// Every checkpoint, the end last.
    pub checkpoints: Vec<CheckpointInfo>,
    /// The median of the checkpoints' [`CheckpointInfo::overhead_ms`], the end left out.
    pub median_overhead_ms: Option<f64>,
    /// What the program did to the terminal.
    pub terminal: TerminalInfo,
    /// The terminal modes it left set.
    pub modes: Modes,
}

/// One checkpoint and when it was taken.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct CheckpointInfo {
    /// The checkpoint's name (a marker label made unique, or `end`).
    pub name: String,
    /// 1-based line of the cast file.
    pub line: u64,
    /// Seconds from the start.
    pub time: f64,
    /// When input was last sent before it (seconds).
    pub last_input: Option<f64>,
    /// When the program's last output before it came (seconds).
    pub last_output: Option<f64>,
    /// What waiting for a settled screen cost: from the last output to the checkpoint, in
    /// milliseconds.
    pub overhead_ms: Option<f64>,
}

/// What a cast's program did to the terminal, over the whole replay.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct TerminalInfo {
    /// The window titles set, in order, a repeat left out (at most [`MAX_LISTED`]).
    pub titles: Vec<String>,
    /// The icon name at the end.
    pub icon: Option<String>,
    /// Bells rung.
    pub bells: u64,
    /// Clipboard writes (OSC 52), each with the checkpoint it came before (at most
    /// [`MAX_LISTED`]).
    pub clipboard: Vec<ClipboardInfo>,
    /// Hyperlinks (OSC 8), each once (at most [`MAX_LISTED`]).
    pub links: Vec<Hyperlink>,
    /// Lines in the scrollback at the end.
    pub scrollback: usize,
    /// Escape sequences the engine did not follow, counted by kind.
    pub unsupported: BTreeMap<String, u64>,
    /// Every kitty keyboard flags value (but 0) the program had in force at some time,
    /// ascending: what keys were sent as while it ran (a replay shows their effect on
    /// nothing).
    #[serde(default)]
    pub keyboard_flags: Vec<u8>,
    /// Every modifyOtherKeys level (but 0) the program set at some time.
    #[serde(default)]
    pub modify_other_keys: Vec<u8>,
}

/// One clipboard write and the checkpoint it came before.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct ClipboardInfo {
    /// The checkpoint after the write.
    pub checkpoint: String,
    /// The selection written (`c`, `p`, …).
    pub selection: String,
    /// The text written.
    pub text: String,
    /// Whether the text was cut at the limit.
    pub truncated: bool,
}

impl TerminalInfo {
    /// Adds what the screen of the checkpoint `name` shows (bells and clipboard writes are
    /// those since the checkpoint before).
    fn checkpoint(&mut self, name: &str, screen: &Screen) {
        if let Some(t) = &screen.title {
            if self.titles.last() != Some(t) && self.titles.len() < MAX_LISTED {
                self.titles.push(t.clone());
            }
        }
        self.icon.clone_from(&screen.state.icon);
        self.bells += u64::from(screen.state.bells);
        for w in &screen.state.clipboard {
            if self.clipboard.len() < MAX_LISTED {
                self.clipboard.push(ClipboardInfo::of(name, w));
            }
        }
        for l in &screen.state.links {
            if !self.links.contains(l) && self.links.len() < MAX_LISTED {
                self.links.push(l.clone());
            }
        }
        self.scrollback = screen.state.scrollback.len();
        self.keyboard_flags.clone_from(&screen.state.keyboard_flags);
        self.modify_other_keys
            .clone_from(&screen.state.modify_other_keys);
    }

    /// How many sequences the engine did not follow, of every kind.
    pub fn unsupported_total(&self) -> u64 {
        self.unsupported.values().sum()
    }
}

impl ClipboardInfo {
    fn of(checkpoint: &str, w: &ClipboardWrite) -> ClipboardInfo {
        ClipboardInfo {
            checkpoint: checkpoint.to_string(),
            selection: w.selection.clone(),
            text: w.text.clone(),
            truncated: w.truncated,
        }
    }
}

impl CastInfo {
    /// Replays the cast of `reader` once (with the default engine) and says what it holds;
    /// `path` is the name to give the file.
    pub fn read<R: BufRead>(
        path: impl Into<String>,
        mut reader: CastReader<R>,
    ) -> Result<CastInfo, CastError> {
        let header = reader.header().clone();
        let mut events: BTreeMap<String, u64> = BTreeMap::new();
        let mut names = CheckpointNames::default();
        let mut checkpoints = Vec::new();
        let (mut duration, mut last_line) = (0.0f64, 1u64);
        let mut exit_status = None;
        let mut replayer = Replayer::new(&header, EngineKind::default());
        let mut terminal = TerminalInfo::default();
        let (mut last_input, mut last_output) = (None, None);
        for event in &mut reader {
            let event = event?;
            match &event.data {
                EventData::Input(_) => last_input = Some(event.time),
                EventData::Output(_) => last_output = Some(event.time),
                EventData::Exit(status) => exit_status = Some(*status),
                _ => {}
            }
            if let Some(name) = replayer.apply(&event) {
                terminal.checkpoint(&name, &replayer.screen());
            }
            *events.entry(event.data.code().to_string()).or_default() += 1;
            duration = event.time;
            last_line = event.line;
            if let Some(name) = names.checked(&event)? {
                checkpoints.push(CheckpointInfo::new(
                    name,
                    event.line,
                    event.time,
                    last_input,
                    last_output,
                ));
            }
        }
        let modes = replayer.screen().modes;
        checkpoints.push(CheckpointInfo::new(
            names.end(),
            last_line,
            duration,
            last_input,
            last_output,
        ));
        let settle = header
            .extra
            .get("tuicast")
            .and_then(|t| t.get("settle"))
            .and_then(|s| s.as_str())
            .map(str::to_string);
        // The end waits for nothing: it is left out of the median.
        let waits: Vec<f64> = checkpoints
            .iter()
            .take(checkpoints.len() - 1)
            .filter_map(|c| c.overhead_ms)
            .collect();
        terminal.unsupported = replayer
            .unsupported()
            .iter()
            .map(|(kind, n)| (kind.to_string(), n))
            .collect();
        let end = replayer.finish();
        terminal.checkpoint(&end.name, &end.screen);
        Ok(CastInfo {
            path: path.into(),
            version: header.version,
            size: SizeJson {
                cols: header.term.size.cols,
                rows: header.term.size.rows,
            },
            duration,
            title: header.title,
            command: header.command,
            term_type: header.term.term_type,
            idle_time_limit: header.idle_time_limit,
            exit_status,
            events,
            settle,
            checkpoints,
            median_overhead_ms: crate::util::median(&waits),
            terminal,
            modes,
        })
    }
}

impl CheckpointInfo {
    fn new(
        name: String,
        line: u64,
        time: f64,
        last_input: Option<f64>,
        last_output: Option<f64>,
    ) -> CheckpointInfo {
        CheckpointInfo {
            name,
            line,
            time,
            last_input,
            last_output,
            overhead_ms: last_output.map(|o| (time - o).max(0.0) * 1000.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cast_is_read_once_into_its_info() {
        let cast = "{\"version\": 3, \"term\": {\"cols\": 10, \"rows\": 2}}\n\
                    [0.1, \"o\", \"\\u001b]0;hi\\u0007a\\u0007\"]\n\
                    [0.1, \"i\", \"x\"]\n\
                    [0.05, \"o\", \"b\"]\n\
                    [0.02, \"m\", \"shown\"]\n\
                    [0.1, \"x\", \"3\"]\n";
        let info = CastInfo::read("c.cast", CastReader::new(cast.as_bytes()).unwrap()).unwrap();
        assert_eq!(info.path, "c.cast");
        assert_eq!((info.size.cols, info.size.rows), (10, 2));
        assert_eq!(info.exit_status, Some(3));
        assert_eq!(
            info.events
                .iter()
                .map(|(k, n)| format!("{k}{n}"))
                .collect::<Vec<_>>(),
            ["i1", "m1", "o2", "x1"]
        );
        let names: Vec<&str> = info.checkpoints.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["shown", "end"]);
        let shown = &info.checkpoints[0];
        assert_eq!(shown.line, 5);
        assert!(
            (shown.overhead_ms.unwrap() - 20.0).abs() < 1e-6,
            "{shown:?}"
        );
        assert_eq!(info.median_overhead_ms, shown.overhead_ms);
        assert_eq!(info.terminal.titles, ["hi"]);
        assert_eq!(info.terminal.bells, 1);
        // It reads back as it was written.
        let json = serde_json::to_string(&info).unwrap();
        assert_eq!(serde_json::from_str::<CastInfo>(&json).unwrap(), info);
    }
}
