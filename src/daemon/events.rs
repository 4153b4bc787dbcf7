//! A session's watchers (`tuicast session events`, `attach`): the [`Hub`] the session's
//! screen is told to after every output ([`record::Observer`]), which turns each change into
//! [`SessionEvent`] lines for every watcher's own bounded [`Queue`]; and who holds the
//! session's input (a person, through `attach --take`).
//!
//! A watcher never slows the session: the session only adds lines to queues. A queue that
//! holds [`MAX_QUEUED`] lines or [`MAX_QUEUED_BYTES`] takes no more (each one missed is
//! counted) until its reader has caught up with all it holds; the reader is then given a
//! `lost` event with the count and the current state (the whole screen, title, prompt,
//! hold). A connection that cannot be written to for [`WRITE_TIMEOUT`] is closed.
//!
//! Until someone watches, the hub only keeps the last screen (so that the first watcher
//! starts with it); with watchers, each change is compared with the screen before it, and
//! the prompt is classified again.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::protocol::{CursorView, Rect, RowText, SessionEvent, State, Status};
use super::server::lock;
use crate::inspect::{classify, TtyModes};
use crate::pos::Ordinal;
#[cfg(doc)]
use crate::record;
use crate::term::Screen;

/// The most lines a watcher's queue holds.
pub(super) const MAX_QUEUED: usize = 1024;

/// The most bytes a watcher's queue holds (a screen of a large session is megabytes), when
/// the daemon's `TUICAST_WATCH_BUFFER` (bytes, 4096 to 1 GiB) does not say.
pub(super) const MAX_QUEUED_BYTES: usize = 8 << 20;

/// [`MAX_QUEUED_BYTES`], or the daemon's `TUICAST_WATCH_BUFFER` when it is a number of
/// bytes from 4096 to 1 GiB.
fn queue_bytes() -> usize {
    std::env::var("TUICAST_WATCH_BUFFER")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| (4096..=1 << 30).contains(n))
        .unwrap_or(MAX_QUEUED_BYTES)
}

/// The most watchers one session has at once.
pub(super) const MAX_WATCHERS: usize = 16;

/// The shortest time between two screen events: what a program draws faster is told of
/// at most once a frame (its last screen always).
pub(super) const FRAME: Duration = Duration::from_millis(20);

/// How many recent events are kept for `events --since SEQ`.
const KEPT: usize = 256;

/// How long a watcher's connection may refuse to take a line before it is closed.
pub(super) const WRITE_TIMEOUT: Duration = Duration::from_secs(60);

/// One line for a watcher: its `seq`, the JSON, whether it ends the stream.
type Line = (u64, Arc<str>, bool);

/// One watcher's lines.
pub(super) struct Queue {
    state: Mutex<QueueState>,
    ready: Condvar,
    /// The most bytes it holds.
    limit: usize,
}

#[derive(Default)]
struct QueueState {
    lines: VecDeque<Line>,
    bytes: usize,
    /// Lines not taken since the queue was last full.
    lost: u64,
    /// The last line, kept apart: it is never lost.
    end: Option<Line>,
    /// The reader is gone, or the stream has ended.
    closed: bool,
}

/// What [`Queue::next`] gives.
pub(super) enum Next {
    /// A line to write; `true` when it is the last.
    Line(Arc<str>, bool),
    /// The reader missed this many lines: write a `lost` event and the current state.
    Lost(u64),
    /// Nothing came in the time.
    Nothing,
    /// The stream has ended.
    Closed,
}

impl Queue {
    fn new() -> Queue {
        Queue {
            state: Mutex::new(QueueState::default()),
            ready: Condvar::new(),
            limit: queue_bytes(),
        }
    }

    /// Adds a line: not when the queue is full (counted as lost), nor once lines were lost
    /// until the reader has caught up (so what it gets has no silent gap).
    fn push(&self, line: Line) {
        let mut q = lock(&self.state);
        if q.closed {
            return;
        }
        if line.2 {
            q.end = Some(line);
        } else if q.lost > 0 || q.lines.len() >= MAX_QUEUED || q.bytes + line.1.len() > self.limit {
            q.lost += 1;
        } else {
            q.bytes += line.1.len();
            q.lines.push_back(line);
        }
        self.ready.notify_all();
    }

    /// The next line to write, waiting at most `wait`; lines up to `skip_to` (a state just
    /// written) are passed over.
    pub(super) fn next(&self, wait: Duration, skip_to: Option<u64>) -> Next {
        let mut q = lock(&self.state);
        loop {
            while let Some((seq, line, last)) = q.lines.pop_front() {
                q.bytes -= line.len();
                if skip_to.is_none_or(|s| seq > s) {
                    return Next::Line(line, last);
                }
            }
            if q.lost > 0 {
                return Next::Lost(std::mem::take(&mut q.lost));
            }
            if let Some((_, line, last)) = q.end.take() {
                return Next::Line(line, last);
            }
            if q.closed {
                return Next::Closed;
            }
            let (guard, timeout) = self
                .ready
                .wait_timeout(q, wait)
                .unwrap_or_else(|p| p.into_inner());
            q = guard;
            if timeout.timed_out() && q.lines.is_empty() && q.lost == 0 && q.end.is_none() {
                return if q.closed {
                    Next::Closed
                } else {
                    Next::Nothing
                };
            }
        }
    }

    /// Ends the stream: its reader is gone (nothing more is added).
    pub(super) fn close(&self) {
        lock(&self.state).closed = true;
        self.ready.notify_all();
    }
}

message_error!(
    /// Why a watcher is refused: the session has [`MAX_WATCHERS`] already.
    pub(crate) WatchRefused
);

/// A session's watchers and the state they are told of.
pub(super) struct Hub {
    state: Mutex<HubState>,
}

struct Watcher {
    id: u64,
    queue: Arc<Queue>,
}

#[derive(Default)]
struct HubState {
    /// The latest event's number.
    seq: u64,
    /// The screen now (secrets starred), and the terminal's modes.
    screen: Option<Screen>,
    modes: TtyModes,
    /// The screen the watchers were last told of, and when.
    told: Option<Screen>,
    told_at: Option<Instant>,
    /// The screen has changed since, within a [`FRAME`].
    pending: bool,
    /// The prompt's kind and evidence last told.
    prompt: Option<(String, String)>,
    watchers: Vec<Watcher>,
    next_watcher: u64,
    /// The recent events, for `--since`.
    kept: VecDeque<Line>,
    /// The `exit` event, once the session has ended.
    ended: Option<Line>,
    /// The watcher holding the session's input.
    holder: Option<u64>,
}

impl Hub {
    pub(super) fn new() -> Arc<Hub> {
        Arc::new(Hub {
            state: Mutex::new(HubState::default()),
        })
    }

    /// A new watcher: its number and queue, the current state (or, with `since`, the events
    /// after it when they are still kept) in it already. Refused past [`MAX_WATCHERS`].
    pub(super) fn watch(&self, since: Option<u64>) -> Result<(u64, Arc<Queue>), WatchRefused> {
        let mut h = lock(&self.state);
        h.watchers.retain(|w| !lock(&w.queue.state).closed);
        if h.watchers.len() >= MAX_WATCHERS {
            return Err(message!(
                "the session has {MAX_WATCHERS} watchers already: end one first"
            ));
        }
        h.next_watcher += 1;
        let id = h.next_watcher;
        let queue = Arc::new(Queue::new());
        let oldest = h.kept.front().map_or(h.seq + 1, |l| l.0);
        match since {
            Some(s) if s >= h.seq => {}
            Some(s) if s + 1 >= oldest => {
                for line in h.kept.iter().filter(|l| l.0 > s) {
                    queue.push(line.clone());
                }
            }
            Some(s) => {
                let lost = oldest.saturating_sub(s + 1);
                let event = SessionEvent::Lost {
                    seq: h.seq,
                    count: lost,
                };
                queue.push((h.seq, line_of(&event), false));
                for line in h.current(id) {
                    queue.push(line);
                }
            }
            None => {
                for line in h.current(id) {
                    queue.push(line);
                }
            }
        }
        if let Some(end) = h.ended.clone() {
            queue.push(end);
        }
        h.watchers.push(Watcher {
            id,
            queue: Arc::clone(&queue),
        });
        Ok((id, queue))
    }

    /// The current state for watcher `id` (after a `lost`): the whole screen, the title and
    /// prompt, the hold; with the latest `seq`, which lines already queued up to are passed
    /// over.
    pub(super) fn current(&self, id: u64) -> (u64, Vec<Arc<str>>) {
        let mut h = lock(&self.state);
        (h.seq, h.current(id).into_iter().map(|l| l.1).collect())
    }

    /// Watcher `id` is gone: the session's input is given back if it held it.
    pub(super) fn unwatch(&self, id: u64) {
        let mut h = lock(&self.state);
        if let Some(w) = h.watchers.iter().find(|w| w.id == id) {
            w.queue.close();
        }
        h.watchers.retain(|w| w.id != id);
        if h.holder == Some(id) {
            h.holder = None;
            h.tell_hold();
        }
    }

    /// Whether a person holds the session's input.
    pub(super) fn held(&self) -> bool {
        lock(&self.state).holder.is_some()
    }

    /// Whether watcher `id` holds it.
    pub(super) fn holds(&self, id: u64) -> bool {
        lock(&self.state).holder == Some(id)
    }

    /// Watcher `id` takes the session's input (or gives it back): refused (said to that
    /// watcher alone) when another holds it, or when the session has ended.
    pub(super) fn take(&self, id: u64, take: bool) {
        let mut h = lock(&self.state);
        let refused = match (take, h.holder) {
            _ if h.ended.is_some() => Some("the session has ended"),
            (true, Some(other)) if other != id => {
                Some("another person holds the session (through attach): try again later")
            }
            (true, _) => {
                h.holder = Some(id);
                None
            }
            (false, Some(holder)) if holder == id => {
                h.holder = None;
                None
            }
            (false, _) => None,
        };
        if let Some(why) = refused {
            h.tell(id, |seq| SessionEvent::Refused {
                seq,
                error: why.to_string(),
            });
            return;
        }
        h.tell_hold();
    }

    /// Says to watcher `id` alone that a control line was refused.
    pub(super) fn refuse(&self, id: u64, error: String) {
        lock(&self.state).tell(id, |seq| SessionEvent::Refused { seq, error });
    }

    /// The session has ended: the `exit` event, the last of every stream.
    pub(super) fn end(&self, status: Status) {
        let mut h = lock(&self.state);
        if h.ended.is_some() {
            return;
        }
        if h.pending {
            h.tell_changes();
        }
        h.seq += 1;
        let seq = h.seq;
        let line = (seq, line_of(&SessionEvent::Exit { seq, status }), true);
        h.ended = Some(line.clone());
        h.holder = None;
        for w in &h.watchers {
            w.queue.push(line.clone());
        }
    }

    /// Whether the session has ended.
    pub(super) fn ended(&self) -> bool {
        lock(&self.state).ended.is_some()
    }
}

impl HubState {
    /// The whole screen, the title, the prompt and the hold, as watcher `id` sees them (the
    /// prompt is the one told from now on).
    fn current(&mut self, id: u64) -> Vec<Line> {
        let seq = self.seq;
        let mut lines = Vec::new();
        if let Some(screen) = &self.screen {
            let rows = (0..screen.rows.len()).collect::<Vec<_>>();
            let event = screen_event(seq, screen, true, rect_of(screen, &rows), &rows);
            lines.push(line_of(&event));
            if screen.title.is_some() {
                lines.push(line_of(&SessionEvent::Title {
                    seq,
                    title: screen.title.clone(),
                }));
            }
            let prompt = classify(screen, &screen.outline(), self.modes);
            if self.told.is_none() {
                // The first watcher: the screen and prompt it starts with are those told.
                self.told = Some(screen.clone());
                self.prompt = Some((prompt.kind.name().to_string(), prompt.evidence.clone()));
            }
            lines.push(line_of(&SessionEvent::Prompt {
                seq,
                kind: prompt.kind.name().to_string(),
                confidence: prompt.rounded_confidence(),
                evidence: prompt.evidence,
            }));
        }
        if self.holder.is_some() {
            lines.push(line_of(&SessionEvent::Hold {
                seq,
                held: true,
                yours: self.holder == Some(id),
            }));
        }
        lines.into_iter().map(|l| (seq, l, false)).collect()
    }

    /// A new event for every watcher (and kept for `--since`).
    fn publish(&mut self, event: impl FnOnce(u64) -> SessionEvent) {
        self.seq += 1;
        let line = (self.seq, line_of(&event(self.seq)), false);
        if self.kept.len() >= KEPT {
            self.kept.pop_front();
        }
        self.kept.push_back(line.clone());
        for w in &self.watchers {
            w.queue.push(line.clone());
        }
    }

    /// An event for watcher `id` alone.
    fn tell(&self, id: u64, event: impl FnOnce(u64) -> SessionEvent) {
        if let Some(w) = self.watchers.iter().find(|w| w.id == id) {
            w.queue.push((self.seq, line_of(&event(self.seq)), false));
        }
    }

    /// A `hold` event: each watcher told whether it is the holder.
    fn tell_hold(&mut self) {
        self.seq += 1;
        let (seq, held) = (self.seq, self.holder.is_some());
        for w in &self.watchers {
            let yours = self.holder == Some(w.id);
            let event = SessionEvent::Hold { seq, held, yours };
            w.queue.push((seq, line_of(&event), false));
        }
        let event = SessionEvent::Hold {
            seq,
            held,
            yours: false,
        };
        self.kept.push_back((seq, line_of(&event), false));
        if self.kept.len() > KEPT {
            self.kept.pop_front();
        }
    }
}

/// The hub told of the screen after every output.
pub(super) struct Observed(pub(super) Arc<Hub>);

impl crate::record::Observer for Observed {
    fn watched(&self) -> bool {
        !lock(&self.0.state).watchers.is_empty()
    }

    fn screen(&mut self, screen: Screen, modes: TtyModes) {
        let mut h = lock(&self.0.state);
        h.screen = Some(screen);
        h.modes = modes;
        h.watchers.retain(|w| !lock(&w.queue.state).closed);
        if h.watchers.is_empty() {
            h.told = None;
            h.prompt = None;
            return;
        }
        // A program drawing faster than FRAME is told of at most once a FRAME (the rest
        // when its output pauses: `idle`).
        if h.told_at.is_some_and(|t| t.elapsed() < FRAME) {
            h.pending = true;
            return;
        }
        h.tell_changes();
    }

    fn idle(&mut self) {
        let mut h = lock(&self.0.state);
        if h.pending {
            h.tell_changes();
        }
    }
}

impl HubState {
    /// The events of what changed between the screen last told and the screen now.
    fn tell_changes(&mut self) {
        self.pending = false;
        self.told_at = Some(Instant::now());
        let Some(screen) = self.screen.clone() else {
            return;
        };
        let before = self
            .told
            .replace(screen.clone())
            .unwrap_or_else(|| Screen::blank(screen.size));
        if before == screen {
            return;
        }
        let full = before.size != screen.size;
        let rows: Vec<usize> = (0..screen.rows.len())
            .filter(|&r| full || before.rows[r] != screen.rows[r])
            .collect();
        if full || !rows.is_empty() || before.cursor != screen.cursor {
            let rect = if full {
                rect_of(&screen, &rows)
            } else {
                changed_rect(&before, &screen, &rows)
            };
            self.publish(|seq| screen_event(seq, &screen, full, rect, &rows));
        }
        if before.title != screen.title {
            self.publish(|seq| SessionEvent::Title {
                seq,
                title: screen.title.clone(),
            });
        }
        // Bells are counted since the last checkpoint (which starts them at 0 again).
        let (was, is) = (before.state.bells, screen.state.bells);
        if is != was && is > 0 {
            let count = if is > was { is - was } else { is };
            self.publish(|seq| SessionEvent::Bell { seq, count });
        }
        if rows.is_empty() && before.cursor == screen.cursor {
            return;
        }
        let prompt = classify(&screen, &screen.outline(), self.modes);
        let now = (prompt.kind.name().to_string(), prompt.evidence.clone());
        if self.prompt.as_ref() != Some(&now) {
            self.prompt = Some(now);
            self.publish(|seq| SessionEvent::Prompt {
                seq,
                kind: prompt.kind.name().to_string(),
                confidence: prompt.rounded_confidence(),
                evidence: prompt.evidence,
            });
        }
    }
}

/// A `screen` event of `rows` of `screen`.
fn screen_event(
    seq: u64,
    screen: &Screen,
    full: bool,
    rect: Option<Rect>,
    rows: &[usize],
) -> SessionEvent {
    let place = screen.cursor.place();
    SessionEvent::Screen {
        seq,
        hash: screen.hash_hex(),
        size: screen.size.to_string(),
        full,
        rect,
        rows: rows
            .iter()
            .map(|&r| RowText {
                row: Ordinal::of(r),
                text: screen.row_text(r).trim_end().to_string(),
            })
            .collect(),
        cursor: CursorView {
            row: place.row,
            col: place.col,
            visible: screen.cursor.visible,
        },
    }
}

/// The whole width of `rows` (none: no rectangle).
fn rect_of(screen: &Screen, rows: &[usize]) -> Option<Rect> {
    let (first, last) = (*rows.first()?, *rows.last()?);
    Some(Rect {
        top: Ordinal::of(first),
        left: Ordinal::of(0usize),
        bottom: Ordinal::of(last),
        right: Ordinal::of(usize::from(screen.size.cols).saturating_sub(1)),
    })
}

/// The smallest rectangle holding the cells of `rows` that differ.
fn changed_rect(before: &Screen, after: &Screen, rows: &[usize]) -> Option<Rect> {
    let (first, last) = (*rows.first()?, *rows.last()?);
    let mut cols = rows.iter().flat_map(|&r| {
        before.rows[r]
            .iter()
            .zip(&after.rows[r])
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(c, _)| c)
    });
    let c0 = cols.next()?;
    let (left, right) = cols.fold((c0, c0), |(l, r), c| (l.min(c), r.max(c)));
    Some(Rect {
        top: Ordinal::of(first),
        left: Ordinal::of(left),
        bottom: Ordinal::of(last),
        right: Ordinal::of(right),
    })
}

fn line_of(event: &SessionEvent) -> Arc<str> {
    serde_json::to_string(event)
        .unwrap_or_else(|e| format!("{{\"type\":\"refused\",\"seq\":0,\"error\":\"{e}\"}}"))
        .into()
}

/// The status of an `exit` event when the session ends with `state`.
pub(super) fn status(state: State, code: Option<i32>, error: Option<String>) -> Status {
    let signal = code
        .filter(|c| (129..=192).contains(c))
        .and_then(|c| nix::sys::signal::Signal::try_from(c - 128).ok())
        .map(|sig| sig.as_str().to_string());
    Status {
        state,
        code,
        signal,
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Observer;
    use crate::term::{Engine, NativeEngine, Size};

    fn screen_of(text: &str) -> Screen {
        let mut e = NativeEngine::new(Size { cols: 10, rows: 3 });
        e.feed(text);
        e.screen()
    }

    fn lines(q: &Queue) -> Vec<serde_json::Value> {
        let mut out = Vec::new();
        while let Next::Line(l, _) = q.next(Duration::ZERO, None) {
            out.push(serde_json::from_str(&l).unwrap());
        }
        out
    }

    #[test]
    fn a_change_is_its_rows_and_rectangle_and_a_late_watcher_gets_the_state() {
        let hub = Hub::new();
        let mut seen = Observed(Arc::clone(&hub));
        seen.screen(screen_of("hello"), TtyModes::default());
        let (_, q) = hub.watch(None).unwrap();
        let first = lines(&q);
        assert_eq!(first[0]["type"], "screen", "{first:?}");
        assert_eq!(first[0]["full"], true);
        assert_eq!(first[0]["rows"][0]["text"], "hello");
        assert_eq!(first[0]["rows"].as_array().unwrap().len(), 3);
        seen.screen(
            screen_of("hello\r\n  xy\x1b]2;T\x07\x07"),
            TtyModes::default(),
        );
        // (Within a frame of the last: told when the output pauses.)
        seen.idle();
        let next = lines(&q);
        let kinds: Vec<_> = next.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["screen", "title", "bell"], "{next:?}");
        assert_eq!(
            next[0]["rect"],
            serde_json::json!({"top":2,"left":3,"bottom":2,"right":4})
        );
        assert_eq!(
            next[0]["rows"],
            serde_json::json!([{"row":2,"text":"  xy"}])
        );
        assert_eq!(next[1]["title"], "T");
        // `--since`: the events after a seq, when kept.
        let seq = next[0]["seq"].as_u64().unwrap();
        let (_, again) = hub.watch(Some(seq)).unwrap();
        let kinds: Vec<_> = lines(&again)
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(kinds, ["title", "bell"]);
        hub.end(status(State::Exited, Some(0), None));
        let last = lines(&q);
        assert_eq!(last[0]["type"], "exit");
        assert_eq!(last[0]["status"]["code"], 0);
        assert!(matches!(
            q.next(Duration::ZERO, None),
            Next::Closed | Next::Nothing
        ));
    }

    #[test]
    fn a_full_queue_loses_lines_then_says_how_many_and_the_exit_still_comes() {
        let hub = Hub::new();
        let mut seen = Observed(Arc::clone(&hub));
        let (_, q) = hub.watch(None).unwrap();
        for i in 0..MAX_QUEUED + 10 {
            seen.screen(screen_of(&format!("{i}")), TtyModes::default());
            seen.idle();
        }
        hub.end(status(State::Exited, Some(3), None));
        let mut got = 0;
        let lost = loop {
            match q.next(Duration::ZERO, None) {
                Next::Line(..) => got += 1,
                Next::Lost(n) => break n,
                _ => panic!("no lost count after {got} lines"),
            }
        };
        assert_eq!(got, MAX_QUEUED);
        assert!(lost >= 10, "{lost}");
        let Next::Line(end, true) = q.next(Duration::ZERO, None) else {
            panic!("the exit comes last")
        };
        assert!(end.contains("\"exit\""), "{end}");
        // A watcher past the limit is refused.
        let many: Vec<_> = (1..MAX_WATCHERS)
            .map(|_| hub.watch(None).unwrap())
            .collect();
        assert!(hub
            .watch(None)
            .err()
            .unwrap()
            .to_string()
            .contains("watchers already"));
        drop(many);
    }

    #[test]
    fn one_person_holds_at_a_time_and_a_gone_holder_gives_it_back() {
        let hub = Hub::new();
        let (a, qa) = hub.watch(None).unwrap();
        let (b, qb) = hub.watch(None).unwrap();
        hub.take(a, true);
        assert!(hub.held() && hub.holds(a));
        let ev = lines(&qa);
        assert_eq!(
            (ev[0]["held"].clone(), ev[0]["yours"].clone()),
            (true.into(), true.into())
        );
        let _ = lines(&qb);
        hub.take(b, true);
        let ev = lines(&qb);
        assert_eq!(ev[0]["type"], "refused", "{ev:?}");
        assert!(hub.holds(a));
        hub.unwatch(a);
        assert!(!hub.held());
        let ev = lines(&qb);
        assert_eq!(
            (ev[0]["type"].clone(), ev[0]["held"].clone()),
            ("hold".into(), false.into())
        );
    }
}
