//! Replay: feed a cast's events into a fresh terminal engine, never running the program, and
//! collect the screen at every checkpoint.
//!
//! `o` events are fed to the engine, `r` events resize it where they occur, `i` events are
//! ignored (input is what the program received, not what it showed). Every `m` marker with a
//! non-empty label is a checkpoint named by the label; the final screen is the checkpoint
//! `end`.
//!
//! [`frames`] replays a whole cast as timed screens for an animation.

pub mod differential;
mod frames;

use std::collections::HashMap;
use std::io::BufRead;

use crate::cast::{CastError, CastReader, Event, EventData, Header};
use crate::term::{Engine, EngineKind, Screen};

pub use frames::{frames, largest_size, Frames};

/// The name of the checkpoint taken after the last event.
pub const END: &str = "end";

/// The screen at one checkpoint of a cast.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// The marker's label (made unique: a repeated label gets `-2`, `-3`, …), or `end`.
    pub name: String,
    /// 1-based line of the cast file whose event produced this checkpoint.
    pub line: u64,
    /// Seconds from the start of the recording.
    pub time: f64,
    /// What the terminal showed.
    pub screen: Screen,
}

/// Feeds events into an engine one at a time and names checkpoints.
pub struct Replayer {
    engine: Box<dyn Engine + Send>,
    names: CheckpointNames,
    last_line: u64,
    last_time: f64,
}

impl std::fmt::Debug for Replayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replayer")
            .field("size", &self.engine.size())
            .finish_non_exhaustive()
    }
}

impl Replayer {
    /// A replayer with a fresh engine of `kind`, sized from the cast's header.
    pub fn new(header: &Header, kind: EngineKind) -> Self {
        Replayer {
            engine: kind.create(header.term.size),
            names: CheckpointNames::default(),
            last_line: 0,
            last_time: 0.0,
        }
    }

    /// Applies one event. Returns a checkpoint's name when the event is a labelled marker;
    /// the screen is then [`Replayer::screen`].
    pub fn apply(&mut self, event: &Event) -> Option<String> {
        self.last_line = event.line;
        self.last_time = event.time;
        match &event.data {
            EventData::Output(text) => self.engine.feed(text),
            EventData::Resize(size) => self.engine.resize(*size),
            EventData::Marker(label) if !label.is_empty() => return Some(self.names.next(label)),
            _ => {}
        }
        None
    }

    /// The screen as it is now.
    pub fn screen(&self) -> Screen {
        self.engine.screen()
    }

    /// The final checkpoint, `end` (made unique if a marker already took the name).
    pub fn finish(mut self) -> Checkpoint {
        let name = self.names.next(END);
        Checkpoint {
            name,
            line: self.last_line.max(1),
            time: self.last_time,
            screen: self.engine.screen(),
        }
    }
}

/// Gives checkpoints unique names: the first `x` is `x`, the next `x-2`, then `x-3`.
#[derive(Debug, Default, Clone)]
pub struct CheckpointNames {
    seen: HashMap<String, u32>,
}

impl CheckpointNames {
    /// The unique name for the next checkpoint labelled `label`.
    pub fn next(&mut self, label: &str) -> String {
        let n = self.seen.entry(label.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            label.to_string()
        } else {
            format!("{label}-{n}")
        }
    }
}

/// Replays a whole cast and returns every checkpoint in order, `end` last.
pub fn checkpoints<R: BufRead + Send>(
    reader: CastReader<R>,
    kind: EngineKind,
) -> Result<Vec<Checkpoint>, CastError> {
    let mut replayer = Replayer::new(reader.header(), kind);
    with_events(reader, |events| {
        let mut out = Vec::new();
        for event in events {
            let event = event?;
            if let Some(name) = replayer.apply(&event) {
                out.push(Checkpoint {
                    name,
                    line: event.line,
                    time: event.time,
                    screen: replayer.screen(),
                });
            }
        }
        out.push(replayer.finish());
        Ok(out)
    })
}

/// Casts smaller than this are read on the replaying thread.
const THREAD_MIN_BYTES: u64 = 1 << 20;

/// Events per batch sent from the reading thread.
const BATCH: usize = 64;

/// Runs `f` over the cast's events, read and parsed on a second thread when the machine has
/// more than one core, so parsing overlaps with the terminal engine. Batches travel through a
/// bounded channel: memory stays constant, and when `f` stops early the reader stops too.
fn with_events<R: BufRead + Send, T>(
    reader: CastReader<R>,
    f: impl FnOnce(&mut dyn Iterator<Item = Result<Event, CastError>>) -> T,
) -> T {
    // A thread costs more than it saves on small casts (a test suite replays many of them);
    // it pays off from about a megabyte of cast.
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if cores < 2 || reader.size_hint().is_none_or(|n| n < THREAD_MIN_BYTES) {
        let mut reader = reader;
        return f(&mut reader);
    }
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Result<Event, CastError>>>(8);
        scope.spawn(move || {
            let mut batch = Vec::with_capacity(BATCH);
            for event in reader {
                let failed = event.is_err();
                batch.push(event);
                if batch.len() == BATCH || failed {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                    if tx.send(full).is_err() || failed {
                        return;
                    }
                }
            }
            if !batch.is_empty() {
                let _ = tx.send(batch);
            }
        });
        let mut events = rx.into_iter().flatten();
        f(&mut events)
    })
}

/// Replays a cast up to and including every event at or before `time` seconds, and returns
/// the screen then, as a checkpoint named after the time.
pub fn at_time<R: BufRead + Send>(
    reader: CastReader<R>,
    kind: EngineKind,
    time: f64,
) -> Result<Checkpoint, CastError> {
    let mut replayer = Replayer::new(reader.header(), kind);
    let (mut line, mut at) = (1, 0.0);
    with_events(reader, |events| {
        for event in events {
            let event = event?;
            if event.time > time {
                break;
            }
            line = event.line;
            at = event.time;
            replayer.apply(&event);
        }
        Ok::<(), CastError>(())
    })?;
    Ok(Checkpoint {
        name: format!("t={time}"),
        line,
        time: at,
        screen: replayer.screen(),
    })
}

/// The result of [`find`]: the checkpoint asked for, or the names that exist.
#[derive(Debug)]
pub enum Found {
    /// The checkpoint was found.
    Checkpoint(Box<Checkpoint>),
    /// No checkpoint has that name; these are the names the cast has, in order.
    Missing(Vec<String>),
}

/// Replays a cast until the checkpoint `name` (or to the end, listing the names, when there
/// is none). Screens of other checkpoints are not built.
pub fn find<R: BufRead + Send>(
    reader: CastReader<R>,
    kind: EngineKind,
    name: &str,
) -> Result<Found, CastError> {
    let mut replayer = Replayer::new(reader.header(), kind);
    let mut names = Vec::new();
    let found = with_events(reader, |events| {
        for event in events {
            let event = event?;
            if let Some(found) = replayer.apply(&event) {
                if found == name {
                    return Ok(Some(Checkpoint {
                        name: found,
                        line: event.line,
                        time: event.time,
                        screen: replayer.screen(),
                    }));
                }
                names.push(found);
            }
        }
        Ok::<_, CastError>(None)
    })?;
    if let Some(c) = found {
        return Ok(Found::Checkpoint(Box::new(c)));
    }
    let end = replayer.finish();
    if end.name == name {
        return Ok(Found::Checkpoint(Box::new(end)));
    }
    names.push(end.name);
    Ok(Found::Missing(names))
}
