//! Replay: feed a cast's events into a fresh terminal engine, never running the program, and
//! collect the screen at every checkpoint.
//!
//! `o` events are fed to the engine, `r` events resize it where they occur, `i` events are
//! ignored (input is what the program received, not what it showed). Every `m` marker with a
//! non-empty label is a checkpoint named by the label; the final screen is the checkpoint
//! `end`.
//!
//! A screen's bells and clipboard writes ([`TermState`](crate::term::TermState)) are those
//! since the previous checkpoint: the replayer starts counting afresh after each checkpoint
//! (at the next event, so the checkpoint's screen still has them).
//!
//! [`frames`] replays a whole cast as timed screens for an animation.

pub mod differential;
mod frames;
pub mod info;

use std::collections::HashMap;
use std::io::BufRead;
use std::ops::ControlFlow;

use crate::cast::{CastError, CastErrorKind, CastReader, Event, EventData, Header};
use crate::term::{Engine, EngineSpec, Screen, Unsupported};

pub use frames::{between, checkpoint_times, frames, largest_size, Between, Frames};

/// The name of the checkpoint taken after the last event.
pub const END: &str = "end";

/// Most checkpoints (labelled markers) a cast may have; a marker past it is an error at its
/// line. Replay holds one screen at a time, so the cost of a checkpoint is its goldens and
/// its test: 10 000 of them are already more than a person reviews.
pub const MAX_CHECKPOINTS: usize = 10_000;

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
    /// A checkpoint was just taken: count bells and clipboard writes afresh.
    after_checkpoint: bool,
}

impl std::fmt::Debug for Replayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replayer")
            .field("size", &self.engine.size())
            .finish_non_exhaustive()
    }
}

impl Replayer {
    /// A replayer with a fresh engine (an [`EngineKind`](crate::term::EngineKind), or an
    /// [`EngineSpec`] for one with options), sized from the cast's header.
    pub fn new(header: &Header, engine: impl Into<EngineSpec>) -> Self {
        Replayer {
            engine: engine.into().create(header.term.size),
            names: CheckpointNames::default(),
            last_line: 0,
            last_time: 0.0,
            after_checkpoint: false,
        }
    }

    /// Applies one event. Returns a checkpoint's name when the event is a labelled marker;
    /// the screen is then [`Replayer::screen`].
    pub fn apply(&mut self, event: &Event) -> Option<String> {
        self.last_line = event.line;
        self.last_time = event.time;
        if std::mem::take(&mut self.after_checkpoint) {
            self.engine.checkpoint();
        }
        match &event.data {
            EventData::Output(text) => self.engine.feed(text),
            EventData::Resize(size) => self.engine.resize(*size),
            _ => {}
        }
        let name = self.names.event(&event.data);
        self.after_checkpoint = name.is_some();
        name
    }

    /// The escape sequences replayed so far that the engine did not understand.
    pub fn unsupported(&self) -> Unsupported {
        self.engine.unsupported()
    }

    /// [`Replayer::apply`], failing at a marker past [`MAX_CHECKPOINTS`], and at an event
    /// whose output passed a limit of the engine's work ([`Replayer::within_limits`]).
    pub fn step(&mut self, event: &Event) -> Result<Option<String>, CastError> {
        if self.names.count() >= MAX_CHECKPOINTS && is_checkpoint(&event.data) {
            return Err(CheckpointNames::too_many(event.line));
        }
        let name = self.apply(event);
        self.within_limits()?;
        Ok(name)
    }

    /// Fails, at the line of the event applied last, when the output so far passed a limit
    /// of the engine's work (see `docs/limits.md`): the screen is no longer what a terminal
    /// would show.
    pub fn within_limits(&self) -> Result<(), CastError> {
        match self.engine.limit_passed() {
            Some(message) => Err(CastError::new(
                CastErrorKind::Event,
                self.last_line.max(1),
                1,
                message,
            )),
            None => Ok(()),
        }
    }

    /// The screen as it is now.
    pub fn screen(&self) -> Screen {
        self.engine.screen()
    }

    /// The final checkpoint, `end` (made unique if a marker already took the name).
    pub fn finish(mut self) -> Checkpoint {
        // The end is a checkpoint of its own: a bell or clipboard write before the last
        // checkpoint is not counted again.
        if self.after_checkpoint {
            self.engine.checkpoint();
        }
        let name = self.names.end();
        Checkpoint {
            name,
            line: self.last_line.max(1),
            time: self.last_time,
            screen: self.engine.screen(),
        }
    }
}

/// The one naming of checkpoints, for every reader of a cast (replay, discovery from skimmed
/// casts, `tuicast info`): each marker with a non-empty label is a checkpoint named by it,
/// made unique (the first `x` is `x`, the next `x-2`, then `x-3`, skipping any name already
/// given — labels `x`, `x`, `x-2` are `x`, `x-2`, `x-2-2`, never two `x-2` sharing one
/// golden), and the final screen is [`END`], made unique the same way, last.
#[derive(Debug, Default, Clone)]
pub struct CheckpointNames {
    /// The last suffix tried for each label.
    counters: HashMap<String, u32>,
    /// Every name given so far.
    given: std::collections::HashSet<String>,
}

fn is_checkpoint(data: &EventData) -> bool {
    matches!(data, EventData::Marker(label) if !label.is_empty())
}

impl CheckpointNames {
    /// The name of the checkpoint `event` makes, if it makes one (a marker with a label).
    pub fn event(&mut self, event: &EventData) -> Option<String> {
        match event {
            EventData::Marker(label) if !label.is_empty() => Some(self.next(label)),
            _ => None,
        }
    }

    /// [`CheckpointNames::event`], failing at a marker past [`MAX_CHECKPOINTS`] (an error at
    /// the event's line, without a path: the caller's reader knows it).
    pub fn checked(&mut self, event: &Event) -> Result<Option<String>, CastError> {
        if self.count() >= MAX_CHECKPOINTS && is_checkpoint(&event.data) {
            return Err(Self::too_many(event.line));
        }
        Ok(self.event(&event.data))
    }

    /// How many names were given.
    pub fn count(&self) -> usize {
        self.given.len()
    }

    fn too_many(line: u64) -> CastError {
        CastError::new(
            CastErrorKind::Event,
            line,
            1,
            format!(
                "more than {MAX_CHECKPOINTS} checkpoints (labelled markers) in one cast; \
                 tuicast checks at most {MAX_CHECKPOINTS}"
            ),
        )
    }

    /// The name of the final checkpoint, after every event: `end`, made unique.
    pub fn end(&mut self) -> String {
        self.next(END)
    }

    /// The unique name for the next checkpoint labelled `label`.
    pub fn next(&mut self, label: &str) -> String {
        let n = self.counters.entry(label.to_string()).or_insert(1);
        let mut name = label.to_string();
        while self.given.contains(&name) {
            *n += 1;
            name = format!("{label}-{n}");
        }
        self.given.insert(name.clone());
        name
    }
}

/// Replays a whole cast and returns every checkpoint in order, `end` last. This holds every
/// checkpoint's screen; [`each_checkpoint`] holds one at a time.
pub fn checkpoints<R: BufRead + Send>(
    reader: CastReader<R>,
    kind: impl Into<EngineSpec>,
) -> Result<Vec<Checkpoint>, CastError> {
    let mut out = Vec::new();
    each_checkpoint(reader, kind, |c| out.push(c))?;
    Ok(out)
}

/// Replays a whole cast and hands each checkpoint to `f` as it is reached, in order, `end`
/// last: one screen in memory at a time. A marker past [`MAX_CHECKPOINTS`] is an error at
/// its line (after `f` saw the checkpoints before it).
pub fn each_checkpoint<R: BufRead + Send>(
    reader: CastReader<R>,
    kind: impl Into<EngineSpec>,
    mut f: impl FnMut(Checkpoint),
) -> Result<(), CastError> {
    let mut replayer = Replayer::new(reader.header(), kind);
    let path = reader.path().map(std::path::Path::to_path_buf);
    let tag = |e: CastError| match &path {
        Some(p) if e.path.is_none() => e.with_path(p),
        _ => e,
    };
    each_event(reader, |event| {
        if let Some(name) = replayer.step(event).map_err(tag)? {
            f(Checkpoint {
                name,
                line: event.line,
                time: event.time,
                screen: replayer.screen(),
            });
        }
        Ok(ControlFlow::<()>::Continue(()))
    })?;
    f(replayer.finish());
    Ok(())
}

/// Casts smaller than this are read on the replaying thread.
const THREAD_MIN_BYTES: u64 = 1 << 20;

/// Most events per batch sent from the reading thread.
const BATCH: usize = 4096;

/// A batch is sent once its events carry this many bytes of data. With [`BATCH`] it keeps
/// the handovers few (each one can wake the other thread: full-screen output comes in events
/// of a few dozen bytes, and batches of 64 spent a tenth of the replay in the kernel) and the
/// memory in flight small: the channel holds 2 batches.
const BATCH_BYTES: usize = 512 * 1024;

/// A batch of events as the reading thread sends it.
type Batch = Vec<Result<Event, CastError>>;

/// Runs `f` on the cast's events in order until it breaks (its value is returned) or fails,
/// reading and parsing them on a second thread when the machine has more than one core and
/// the cast is big, so parsing overlaps with the terminal engine. Batches travel through a
/// bounded channel (memory stays constant; when `f` stops early the reader stops too) and go
/// back to the reading thread once replayed: their events are freed, and the batch reused,
/// where they were made (a free of memory another thread allocated costs more, and full-screen
/// output comes as many small events).
fn each_event<R: BufRead + Send, B>(
    reader: CastReader<R>,
    mut f: impl FnMut(&Event) -> Result<ControlFlow<B>, CastError>,
) -> Result<Option<B>, CastError> {
    // A thread costs more than it saves on small casts (a test suite replays many of them);
    // it pays off from about a megabyte of cast.
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if cores < 2 || reader.size_hint().is_none_or(|n| n < THREAD_MIN_BYTES) {
        for event in reader {
            if let ControlFlow::Break(b) = f(&event?)? {
                return Ok(Some(b));
            }
        }
        return Ok(None);
    }
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Batch>(2);
        let (back, spent) = std::sync::mpsc::channel::<Batch>();
        scope.spawn(move || {
            let fresh = || match spent.try_recv() {
                Ok(mut batch) => {
                    batch.clear();
                    batch
                }
                Err(_) => Vec::with_capacity(BATCH),
            };
            let mut batch = fresh();
            let mut bytes = 0;
            for event in reader {
                let failed = event.is_err();
                bytes += match &event {
                    Ok(Event {
                        data: EventData::Output(text) | EventData::Input(text),
                        ..
                    }) => text.len(),
                    _ => 0,
                };
                batch.push(event);
                if batch.len() == BATCH || bytes >= BATCH_BYTES || failed {
                    bytes = 0;
                    let full = std::mem::replace(&mut batch, fresh());
                    if tx.send(full).is_err() || failed {
                        return;
                    }
                }
            }
            if !batch.is_empty() {
                let _ = tx.send(batch);
            }
        });
        for mut batch in rx {
            for slot in &mut batch {
                let event = match slot {
                    Ok(event) => &*event,
                    Err(_) => {
                        let placeholder = Ok(Event {
                            time: 0.0,
                            line: 0,
                            data: EventData::Exit(0),
                        });
                        match std::mem::replace(slot, placeholder) {
                            Err(e) => return Err(e),
                            Ok(_) => continue,
                        }
                    }
                };
                if let ControlFlow::Break(b) = f(event)? {
                    return Ok(Some(b));
                }
            }
            // (When the reader is done, the batch is freed here.)
            let _ = back.send(batch);
        }
        Ok(None)
    })
}

/// Replays a cast up to and including every event at or before `time` seconds, and returns
/// the screen then, as a checkpoint named after the time.
pub fn at_time<R: BufRead + Send>(
    reader: CastReader<R>,
    kind: impl Into<EngineSpec>,
    time: f64,
) -> Result<Checkpoint, CastError> {
    let mut replayer = Replayer::new(reader.header(), kind);
    let (mut line, mut at) = (1, 0.0);
    each_event(reader, |event| {
        if event.time > time {
            return Ok(ControlFlow::Break(()));
        }
        line = event.line;
        at = event.time;
        replayer.apply(event);
        Ok(ControlFlow::Continue(()))
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
    kind: impl Into<EngineSpec>,
    name: &str,
) -> Result<Found, CastError> {
    let mut replayer = Replayer::new(reader.header(), kind);
    let path = reader.path().map(std::path::Path::to_path_buf);
    let tag = |e: CastError| match &path {
        Some(p) if e.path.is_none() => e.with_path(p),
        _ => e,
    };
    let mut names = Vec::new();
    let found = each_event(reader, |event| {
        if let Some(found) = replayer.step(event).map_err(tag)? {
            if found == name {
                return Ok(ControlFlow::Break(Checkpoint {
                    name: found,
                    line: event.line,
                    time: event.time,
                    screen: replayer.screen(),
                }));
            }
            names.push(found);
        }
        Ok(ControlFlow::Continue(()))
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::term::EngineKind;

    /// Repeated labels, an empty label (no checkpoint) and a marker named `end`.
    pub(crate) const CAST: &str = r#"{"version": 3, "term": {"cols": 10, "rows": 2}}
[0.1, "o", "one"]
[0.1, "m", "menu"]
[0.1, "m", ""]
[0.1, "o", "\r\ntwo"]
[0.1, "m", "menu"]
[0.1, "m", "end"]
[0.1, "o", "!"]
"#;

    /// A cast big enough to be read on the second thread: many small events (as full-screen
    /// output comes) with a marker every 500 events, and an optional bad line near the end.
    fn big_cast(bad_line: bool) -> (tempfile::TempDir, std::path::PathBuf, String) {
        let mut cast = String::from("{\"version\": 3, \"term\": {\"cols\": 20, \"rows\": 4}}\n");
        for i in 0..30_000 {
            cast.push_str(&format!(
                "[0.001, \"o\", \"\\u001b[{};1H\\u001b[3{}mrow {i:06} and more text\"]\n",
                i % 4 + 1,
                i % 8
            ));
            if i % 500 == 499 {
                cast.push_str(&format!("[0.0, \"m\", \"m{i}\"]\n"));
            }
        }
        if bad_line {
            cast.push_str("[0.1, \"o\", \"oops]\n");
        }
        cast.push_str("[0.1, \"o\", \"last\"]\n");
        assert!(cast.len() as u64 > THREAD_MIN_BYTES);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.cast");
        std::fs::write(&path, &cast).unwrap();
        (dir, path, cast)
    }

    #[test]
    fn the_end_does_not_count_again_what_came_before_the_last_checkpoint() {
        // The marker is the last event: the end's screen has no bell and no clipboard write
        // of its own.
        let cast = "{\"version\": 3, \"term\": {\"cols\": 10, \"rows\": 2}}\n\
                    [0.1, \"o\", \"a\\u0007\\u001b]52;c;aGk=\\u0007\"]\n\
                    [0.1, \"m\", \"m\"]\n";
        let all = checkpoints(
            CastReader::new(cast.as_bytes()).unwrap(),
            EngineKind::Native,
        )
        .unwrap();
        let counts: Vec<(u32, usize)> = all
            .iter()
            .map(|c| (c.screen.state.bells, c.screen.state.clipboard.len()))
            .collect();
        assert_eq!(counts, [(1, 1), (0, 0)]);
    }

    #[test]
    fn a_big_cast_read_on_a_second_thread_replays_as_one_read_in_place() {
        let (_dir, path, text) = big_cast(false);
        let open = || crate::cast::open(&path).unwrap();
        let here = || CastReader::new(text.as_bytes()).unwrap();
        assert!(open().size_hint().is_some() && here().size_hint().is_none());
        let threaded = checkpoints(open(), EngineKind::Native).unwrap();
        let in_place = checkpoints(here(), EngineKind::Native).unwrap();
        assert_eq!(threaded.len(), 61);
        for (a, b) in threaded.iter().zip(&in_place) {
            assert_eq!((&a.name, a.line, &a.screen), (&b.name, b.line, &b.screen));
        }
        // Stopping early: a checkpoint in the middle, and a time.
        let found = |f: Found| match f {
            Found::Checkpoint(c) => (c.line, c.screen),
            Found::Missing(_) => panic!("m14999 is there"),
        };
        assert_eq!(
            found(find(open(), EngineKind::Native, "m14999").unwrap()),
            found(find(here(), EngineKind::Native, "m14999").unwrap())
        );
        let a = at_time(open(), EngineKind::Native, 12.0).unwrap();
        let b = at_time(here(), EngineKind::Native, 12.0).unwrap();
        assert!(a.line > 10_000 && a.line < 20_000, "{}", a.line);
        assert_eq!((a.line, a.screen), (b.line, b.screen));
    }

    #[test]
    fn a_bad_line_of_a_big_cast_read_on_a_second_thread_is_an_error_at_its_line() {
        let (_dir, path, text) = big_cast(true);
        let line = text.lines().count() as u64 - 1;
        let err = checkpoints(crate::cast::open(&path).unwrap(), EngineKind::Native).unwrap_err();
        assert_eq!(err.line, line, "{err}");
        assert!(err.to_string().contains("big.cast"), "{err}");
    }

    #[test]
    fn checkpoint_names_are_unique_with_end_last() {
        let mut names = CheckpointNames::default();
        let marker = |l: &str| EventData::Marker(l.into());
        assert_eq!(names.event(&marker("x")).as_deref(), Some("x"));
        assert_eq!(names.event(&marker("")), None);
        assert_eq!(names.event(&EventData::Output("x".into())), None);
        assert_eq!(names.event(&marker("x")).as_deref(), Some("x-2"));
        assert_eq!(names.event(&marker("end")).as_deref(), Some("end"));
        assert_eq!(names.end(), "end-2");
    }

    #[test]
    fn a_label_that_looks_like_a_made_up_name_never_shares_it() {
        // Found by a review: x, x, x-2 gave two checkpoints named x-2 sharing one golden.
        let mut names = CheckpointNames::default();
        let mut given: Vec<String> = ["x", "x", "x-2", "x", "end-2", "end"]
            .iter()
            .map(|l| names.next(l))
            .collect();
        given.push(names.end());
        assert_eq!(given, ["x", "x-2", "x-2-2", "x-3", "end-2", "end", "end-3"]);
    }

    #[test]
    fn replay_and_find_name_checkpoints_alike() {
        let replayed = checkpoints(
            CastReader::new(CAST.as_bytes()).unwrap(),
            EngineKind::Native,
        )
        .unwrap()
        .into_iter()
        .map(|c| (c.name, c.line))
        .collect::<Vec<_>>();
        let expected = [("menu", 3), ("menu-2", 6), ("end", 7), ("end-2", 8)];
        let expected: Vec<(String, u64)> =
            expected.iter().map(|(n, l)| (n.to_string(), *l)).collect();
        assert_eq!(replayed, expected);
        let found = find(
            CastReader::new(CAST.as_bytes()).unwrap(),
            EngineKind::Native,
            "x",
        );
        let Ok(Found::Missing(listed)) = found else {
            panic!("{found:?}");
        };
        let names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(listed, names);
    }
}
