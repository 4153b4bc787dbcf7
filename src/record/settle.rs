//! Settling: checkpoints and idle waits look at the rendered screen, not at the byte stream.
//!
//! A program draws a frame in several writes (ratatui's first frame comes in chunks; crossterm
//! shows the cursor in one write and moves it in the next), and a TUI with a clock re-sends pen
//! resets and cursor hides on every tick, which change nothing. So a checkpoint waits until the
//! screen as replay will show it — every cell's text and style, and the cursor's position and
//! shape where it is shown, and whether it is shown (a hidden cursor's position does not count)
//! — has stayed the same for a settle period, counted from the later of the last input and the
//! last change: a key the program has not answered yet holds the checkpoint back for a period
//! too. It never fires while a synchronized update (DEC private mode 2026, `CSI ? 2026 h` …
//! `l`) is open: the frame in it is not finished. A change of the terminal modes alone (mouse
//! reporting, bracketed paste, …) is not a change: goldens do not show modes, and the steps
//! that depend on them (clicks, focus) wait for the mode they need themselves. `{ wait = { idle = … } }` is the same rule
//! with its own period.
//!
//! In `auto` mode (the default [`Settle`](crate::record::Settle) rule) a checkpoint fires
//! as soon as the screen is unchanged and `quiet.rs` sees the program's process tree
//! waiting for input, confirmed by a second look [`CONFIRM`] later that finds nothing ran in
//! between, no output came, no synchronized update is open and the redactor holds no secret.
//! Where that cannot be told, or the program is never seen waiting, the quiet rule decides;
//! a program seen *working* at two looks (running, runnable but starved of CPU, pausing in a
//! short sleep) holds the quiet rule back for up to ten periods, so a renderer starved between
//! two writes of a frame is not taken for a still screen. So does one that has not drawn since
//! it was seen to have read the last input (a draw before that may answer the key before) and
//! has a timer due within the period (ink's render throttle): it has not answered yet. The choice of ten periods, and of
//! the 50 ms default period, is measured in docs/performance.md ("Live checkpoints").
//!
//! The screen is compared once per burst of output the session takes in while no settling
//! wait runs (the chunks that have arrived, as the other waits read them), and after every
//! chunk while one runs; a change is dated by the output that made it.

use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

use super::error::RecordError;
use super::quiet::TreeLook;
use super::session::Session;
use crate::inspect::{hide_all, Anchor};
use crate::term::{describe_runs, row_runs, suggest_masks_in, CellRun, Engine, Screen};

/// The DEC private mode of synchronized updates.
const SYNC_MODE: u16 = 2026;

/// What a settle or idle wait that ran out of time saw.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct UnsettledDiagnosis {
    /// What was waited for (`a settled screen (100 ms without a change)`).
    pub what: String,
    /// How long the screen had to stay unchanged.
    pub period: Duration,
    /// How long it waited.
    pub waited: Duration,
    /// The cells that kept changing while it waited, as runs per row
    /// 0-based, inclusive, in reading order.
    pub cells: Vec<CellRun>,
    /// Whether the shown cursor kept moving (or appearing and disappearing).
    pub cursor: bool,
    /// Masks that would hide the cells, as a cast's TOML writes them: a named region of the
    /// scenario where one holds them, rectangles for the rest.
    pub masks: Vec<String>,
    /// Whether a synchronized update (DEC mode 2026) was still open at the end.
    pub sync_open: bool,
    /// The screen at that moment, rows escaped, trailing empty rows dropped.
    pub screen: String,
    /// A silent wait (no output either): the bytes of output that came while it waited, and
    /// how long before the end the last came (`None` for the other waits).
    pub output: Option<(u64, Duration)>,
}

impl fmt::Display for UnsettledDiagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let never = if self.output.is_some() {
            "the program never stayed silent (no output, no change)"
        } else {
            "the screen never stayed the same"
        };
        writeln!(
            f,
            "timed out after {:.1}s waiting for {}: {never} for {} ms",
            self.waited.as_secs_f64(),
            self.what,
            self.period.as_millis()
        )?;
        if let Some((bytes, ago)) = self.output.filter(|(b, _)| *b > 0) {
            writeln!(
                f,
                "  the program kept writing: {bytes} bytes of output while it waited, the last \
                 {} ms before the end (a screen that looks the same while output comes is not \
                 idle)",
                ago.as_millis()
            )?;
        }
        if self.sync_open {
            writeln!(
                f,
                "  a synchronized update (DEC mode 2026, CSI ? 2026 h) was still open: the \
                 program began a frame and did not end it with CSI ? 2026 l"
            )?;
        }
        if !self.cells.is_empty() {
            writeln!(
                f,
                "  cells that kept changing (row:column, 1-based): {}",
                describe_runs(&self.cells, 8)
            )?;
        }
        if self.cursor {
            writeln!(f, "  the cursor kept moving")?;
        }
        if !self.cells.is_empty() || self.cursor {
            let masks = &self.masks;
            let mask = if masks.is_empty() {
                String::new()
            } else {
                format!(
                    " (in the cast's TOML: [check] mask = [{}])",
                    masks.join(", ")
                )
            };
            writeln!(
                f,
                "  hint: mask what changes by itself{mask}, or wait for something specific \
                 before the checkpoint ({{ wait = \"text\" }}, {{ wait = {{ gone = \"...\" }} }})"
            )?;
        }
        write!(f, "  screen at that moment:\n{}", self.screen)
    }
}

/// When the screen last changed, and when input was last sent.
#[derive(Debug)]
pub(super) struct ScreenWatch {
    /// The screen as last compared.
    seen: Screen,
    last_change: Instant,
    last_input: Option<Instant>,
    /// When the last input was first seen read by the program with none of its output on the
    /// way (`None`: not yet). Only a change after it answers the input: output that came
    /// before may have been written before the program read the input (a render of the key
    /// before, due on a throttle timer, drawn just as the next key arrived).
    read_seen: Option<Instant>,
    /// Output has come since `seen` was taken.
    unobserved: bool,
    /// The changes seen while a settling wait runs.
    changes: Option<Changes>,
    /// Cells hidden before comparing (the cast's masks): a change only there is no change.
    masks: Vec<Anchor>,
}

/// How often each cell (and the shown cursor) changed.
#[derive(Debug, Default)]
struct Changes {
    cells: BTreeMap<(u16, u16), u32>,
    cursor: u32,
}

impl ScreenWatch {
    pub(super) fn new(screen: Screen, now: Instant, masks: Vec<Anchor>) -> ScreenWatch {
        ScreenWatch {
            seen: hide_all(&masks, &screen),
            last_change: now,
            last_input: None,
            read_seen: None,
            unobserved: false,
            changes: None,
            masks,
        }
    }

    /// Output came: the screen may have changed.
    pub(super) fn output_came(&mut self) {
        self.unobserved = true;
    }

    /// Input was sent to the program (keys, text, a resize).
    pub(super) fn input_sent(&mut self, at: Instant) {
        self.last_input = Some(at);
        self.read_seen = None;
    }

    /// Whether the last input is yet to be seen read (see [`ScreenWatch::read_seen`]).
    fn awaiting_read(&self) -> bool {
        self.last_input.is_some() && self.read_seen.is_none()
    }

    /// The last input was seen read at `at`, nothing of the program's output on the way.
    fn input_read(&mut self, at: Instant) {
        self.read_seen = Some(at);
    }

    /// Whether the screen has not changed since the program was seen to have read the last
    /// input: it has not drawn its answer yet (or its answer changes nothing). A change
    /// between sending the input and seeing it read does not count: it may be the answer to
    /// the input before.
    pub(super) fn input_unanswered(&self) -> bool {
        self.last_input.is_some() && self.read_seen.is_none_or(|r| r >= self.last_change)
    }

    /// The later of the last input and the last change of the screen.
    pub(super) fn quiet_since(&self) -> Instant {
        self.last_input
            .map_or(self.last_change, |i| i.max(self.last_change))
    }

    /// Compares `screen` with the one seen before; a difference is a change at `at`.
    fn observe(&mut self, screen: Screen, at: Instant) {
        self.unobserved = false;
        let screen = if self.masks.is_empty() {
            screen
        } else {
            hide_all(&self.masks, &screen)
        };
        let cursor = |s: &Screen| {
            s.cursor
                .visible
                .then_some((s.cursor.row, s.cursor.col, s.cursor.shape))
        };
        let cursor_changed = cursor(&screen) != cursor(&self.seen);
        // (Bells, clipboard writes, the title and the scrollback are no change of what a
        // golden shows; the links of the cells are.)
        if screen.rows == self.seen.rows
            && screen.state.links == self.seen.state.links
            && !cursor_changed
        {
            return;
        }
        if let Some(ch) = &mut self.changes {
            if screen.size == self.seen.size {
                for (r, (new, old)) in screen.rows.iter().zip(&self.seen.rows).enumerate() {
                    for (c, (a, b)) in new.iter().zip(old).enumerate() {
                        if a != b {
                            *ch.cells.entry((r as u16, c as u16)).or_default() += 1;
                        }
                    }
                }
            }
            ch.cursor += u32::from(cursor_changed);
        }
        self.last_change = at;
        self.seen = screen;
    }
}

impl Changes {
    /// The cells that changed more than once (the first change is usually the program's
    /// answer to the last input), else every cell that changed, as runs per row.
    fn runs(&self) -> Vec<CellRun> {
        let again = self.cells.values().any(|&n| n > 1);
        row_runs(
            self.cells
                .iter()
                .filter(|&(_, &n)| !again || n > 1)
                .map(|(&(r, c), _)| (usize::from(r), usize::from(c))),
        )
    }
}

impl Session {
    /// Waits at most `max` for the screen to settle by the session's rule, as a checkpoint
    /// does but marking none: how long it took, or `None` when it had not settled by then (a
    /// program that never stops drawing). For an answer after input, so that it shows the
    /// program's response and not the screen from before the keys.
    pub fn settle_for_reply(&mut self, max: Duration) -> Result<Option<Duration>, RecordError> {
        let started = Instant::now();
        let period = self.settle_rule.period();
        let auto = self.settle_rule.is_auto();
        self.watch.changes = Some(Changes::default());
        let settled = self.wait_still_loop(period, started + max, auto);
        self.watch.changes = None;
        Ok(settled?.map(|_| started.elapsed()))
    }

    /// Waits until the screen has settled, by the session's settle rule with `period`: in
    /// `auto` mode as soon as the screen is unchanged and the program is seen waiting for
    /// input (see `quiet.rs`; confirmed by a second look [`CONFIRM`] later), else once it has
    /// not changed for `period`, counted from the later of the last input and the last
    /// change; never while a synchronized update (DEC mode 2026) is open; bounded by the
    /// session's timeout. Returns how long it waited. A zero `period` takes in the output
    /// that has arrived and returns at once. See the module docs of `settle.rs` for what
    /// counts as a change.
    pub fn wait_settled(&mut self, period: Duration) -> Result<Duration, RecordError> {
        let started = Instant::now();
        if period.is_zero() {
            self.drain()?;
            self.flush_held()?;
            self.observe();
            self.note_checkpoint(SettledBy::AtOnce);
            return Ok(Duration::ZERO);
        }
        let what = format!(
            "a settled screen ({} ms without a change)",
            period.as_millis()
        );
        let auto = self.settle_rule.is_auto();
        let by = self.wait_still(period, started + self.timeout, &what, auto)?;
        self.note_checkpoint(by);
        Ok(started.elapsed())
    }

    /// Waits until the screen has not changed for `quiet` (the quiet rule of
    /// [`Session::wait_settled`]), for at most the session's timeout (and at least twice
    /// `quiet`).
    pub fn wait_idle(&mut self, quiet: Duration) -> Result<(), RecordError> {
        let deadline = Instant::now() + self.timeout.max(quiet * 2);
        let what = format!("{} ms without a screen change", quiet.as_millis());
        self.wait_still(quiet, deadline, &what, false).map(|_| ())
    }

    /// Waits until nothing changed and nothing was written for `quiet`: no screen change,
    /// no output at all (output that changes nothing counts, as `yes` writing the same
    /// screen over and over does) and none waiting in the terminal, counted from the later
    /// of the last input, the last change and the last output; not while a synchronized
    /// update is open or the redactor holds output. A program that has ended (its output
    /// all taken in) is silent at once. For at most the session's timeout (and at least
    /// twice `quiet`). Returns how long the program had been silent when it matched.
    pub fn wait_silent(&mut self, quiet: Duration) -> Result<Duration, RecordError> {
        let started = Instant::now();
        let deadline = started + self.timeout.max(quiet * 2);
        let bytes_before = self.output_bytes;
        loop {
            // Take in what has arrived, a bounded burst at a time, so that the checks run
            // under a flood too.
            let burst_end = Instant::now() + BURST;
            for _ in 0..BURST_EVENTS {
                if Instant::now() >= burst_end || !self.pump(Some(Instant::now()))? {
                    break;
                }
            }
            self.observe();
            let since = self.watch.quiet_since().max(self.last_output);
            let now = Instant::now();
            let busy = self.sync_open()
                || self.redactor.holding()
                || self.pty.output_pending() == Some(true);
            if now >= since + quiet && !busy {
                return Ok(now.saturating_duration_since(since));
            }
            if self.is_done() {
                self.flush_held()?;
                self.observe();
                return Ok(self.last_output.elapsed());
            }
            if now >= deadline {
                let what = format!("{} ms without output or a screen change", quiet.as_millis());
                return Err(RecordError::Unsettled(Box::new(UnsettledDiagnosis {
                    what,
                    period: quiet,
                    waited: started.elapsed(),
                    cells: Vec::new(),
                    cursor: false,
                    masks: Vec::new(),
                    sync_open: self.sync_open(),
                    screen: self.screen_report(),
                    output: Some((self.output_bytes - bytes_before, self.last_output.elapsed())),
                })));
            }
            let until = if busy {
                now + LOOK_EVERY
            } else {
                since + quiet
            };
            if self.pump(Some(until.min(deadline)))? {
                self.observe();
            }
        }
    }

    /// A checkpoint was found settled (`by`): its times are kept, and the input before it
    /// counts as answered.
    fn note_checkpoint(&mut self, by: SettledBy) {
        let since = |t: Instant| t.saturating_duration_since(self.start);
        self.timings.push(CheckpointTiming {
            input: self.watch.last_input.map(since),
            output: since(self.last_output),
            fired: self.start.elapsed(),
            by,
        });
        self.quiescence.input = InputSeen::Answered;
    }

    /// Compares the screen with the one seen last, if output has come since.
    pub(super) fn observe(&mut self) {
        if self.watch.unobserved {
            let screen = self.engine.screen();
            self.watch.observe(screen, self.last_output);
        }
    }

    /// Input is about to be sent: the screen it answers is the one seen now.
    pub(super) fn note_input(&mut self) {
        self.observe();
        self.watch.input_sent(Instant::now());
        // Taken in every settle mode: pacing (`pace.rs`) asks whether the input was taken.
        let look = TreeLook::take(self.pty.pid(), self.settle_rule.period());
        self.quiescence.input = InputSeen::Sent(look.map(|l| l.runs()));
    }

    /// Looks whether the program has read the last input with none of its output on the way,
    /// and if so notes the moment (see [`ScreenWatch::input_unanswered`]). Where the terminal
    /// does not tell, the input counts as read when sent (a change after it answers).
    fn note_read(&mut self) {
        if !self.watch.awaiting_read() {
            return;
        }
        match (self.pty.input_pending(), self.pty.output_pending()) {
            (Some(false), Some(false)) => self.watch.input_read(Instant::now()),
            (None, _) | (_, None) => {
                let sent = self.watch.last_input.unwrap_or_else(Instant::now);
                self.watch.input_read(sent);
            }
            _ => {}
        }
    }

    /// A change that comes without output (a resize): the screen is compared now.
    pub(super) fn note_resize(&mut self) {
        let screen = self.engine.screen();
        let now = Instant::now();
        self.watch.observe(screen, now);
        self.watch.input_sent(now);
    }

    /// Masks for `cells` (they kept changing): the scenario's named regions that hold some,
    /// found on the screen of now, then rectangles.
    fn suggested_masks(&self, cells: &[CellRun]) -> Vec<String> {
        let screen = self.engine.screen();
        let outline = std::cell::OnceCell::new();
        let regions: Vec<(String, Vec<crate::term::CellRect>)> = self
            .regions
            .iter()
            .filter_map(|(n, a)| Some((n.clone(), a.resolve_in(&screen, &outline).ok()?)))
            .collect();
        suggest_masks_in(cells, &regions, 8)
    }

    /// Whether the program has begun a synchronized update and not yet ended it.
    pub(super) fn sync_open(&self) -> bool {
        self.responder.dec_mode(SYNC_MODE) == Some(true)
    }

    fn wait_still(
        &mut self,
        period: Duration,
        deadline: Instant,
        what: &str,
        auto: bool,
    ) -> Result<SettledBy, RecordError> {
        let started = Instant::now();
        self.watch.changes = Some(Changes::default());
        let result = self.wait_still_loop(period, deadline, auto);
        let changes = self.watch.changes.take().unwrap_or_default();
        match result {
            Ok(Some(by)) => Ok(by),
            Ok(None) => Err(RecordError::Unsettled(Box::new(UnsettledDiagnosis {
                what: what.to_string(),
                period,
                waited: started.elapsed(),
                masks: self.suggested_masks(&changes.runs()),
                cells: changes.runs(),
                cursor: changes.cursor > 1,
                sync_open: self.sync_open(),
                screen: self.screen_report(),
                output: None,
            }))),
            Err(e) => Err(e),
        }
    }

    /// `Some` once still (and how it was told), `None` at the deadline.
    fn wait_still_loop(
        &mut self,
        period: Duration,
        deadline: Instant,
        auto: bool,
    ) -> Result<Option<SettledBy>, RecordError> {
        loop {
            // Take in what has arrived, dating each change by its own chunk; at most a
            // burst, so that a program that writes faster than screens are compared still
            // lets the checks below run (the deadline among them).
            let burst_end = (Instant::now() + period.min(BURST)).min(deadline);
            for _ in 0..BURST_EVENTS {
                if Instant::now() >= burst_end || !self.pump(Some(Instant::now()))? {
                    break;
                }
                self.observe();
            }
            self.observe();
            if auto {
                self.note_read();
            }
            let now = Instant::now();
            // In auto mode a program seen working (running, or runnable and starved of CPU
            // on a loaded machine, or pausing in a short sleep) holds the quiet rule back
            // too, up to WORKING_HOLD periods: its screen is still because it has not drawn
            // yet. A busy loop that never stops working still gets the quiet rule after that;
            // an animation waiting for its next frame (a poll with a short timeout) is not
            // held.
            if auto && now >= self.watch.quiet_since() + period {
                // About to fall back: look again (the last look may be old), twice, CONFIRM
                // apart: an animation is seen working for a moment at a frame, a starved
                // or pausing program for longer.
                self.quiescence.working = self.still_working()?;
            }
            let hold = if auto && self.quiescence.working {
                WORKING_HOLD
            } else {
                1
            };
            let ready = self.watch.quiet_since() + period * hold;
            // A lone Esc the program may still read as the start of a sequence is input not
            // yet answered, whatever the screen shows (`pace.rs`).
            let esc_pending = !self.esc_settled(now);
            let busy = self.sync_open() || self.redactor.holding() || esc_pending;
            if now >= ready && !busy {
                return Ok(Some(SettledBy::Quiet));
            }
            if self.is_done() {
                // The program has ended and its output with it: the screen is final.
                self.flush_held()?;
                self.observe();
                return Ok(Some(SettledBy::Exit));
            }
            if now >= deadline {
                return Ok(None);
            }
            if auto && !busy && self.status.is_none() && self.quiescent(period)? {
                return Ok(Some(SettledBy::Quiescent));
            }
            // Until the period is up, or (an update open, a secret held) until output comes;
            // in auto mode a look at the program again soon.
            let mut until = if now < ready { ready } else { deadline };
            if auto || esc_pending {
                until = until.min(Instant::now() + LOOK_EVERY);
            }
            if self.pump(Some(until.min(deadline)))? {
                self.observe();
            }
        }
    }

    /// Whether the program is seen working at a look and again at a second look CONFIRM
    /// later (output coming meanwhile counts as working: the caller looks at the screen
    /// again). Input it has not read yet, or output on its way, is work too: on a loaded
    /// machine the kernel may hand a key to the program only after the settle period, and a
    /// program asleep with its key still in the terminal has not answered.
    fn still_working(&mut self) -> Result<bool, RecordError> {
        // A program that has not drawn since it read the last input and is not waiting (a
        // timer due within the period: ink's render throttle, a debounce) has not answered
        // yet either.
        self.note_read();
        let unanswered = self.watch.input_unanswered();
        let look = |s: &Session| {
            s.pty.input_pending() == Some(true)
                || s.pty.output_pending() == Some(true)
                || TreeLook::take(s.pty.pid(), s.settle_rule.period())
                    .as_ref()
                    .is_some_and(|l| l.working() || (unanswered && !l.waiting()))
        };
        if !look(self) {
            return Ok(false);
        }
        if self.pump(Some(Instant::now() + CONFIRM))? {
            self.observe();
            return Ok(true);
        }
        Ok(look(self))
    }

    /// Whether the program is waiting for input with everything it wrote on the screen:
    /// two looks at its tree [`CONFIRM`] apart in which nothing ran and nothing came.
    pub(super) fn quiescent(&mut self, period: Duration) -> Result<bool, RecordError> {
        // A lone Esc the program may still take as the start of a sequence is not answered.
        if !self.esc_settled(Instant::now()) {
            return Ok(false);
        }
        let Some(first) = self.look_waiting(period) else {
            return Ok(false);
        };
        if self.pump(Some(Instant::now() + CONFIRM))? {
            // Something came (output, the exit): the caller looks at the screen again.
            self.observe();
            return Ok(false);
        }
        let Some(second) = self.look_waiting(period) else {
            return Ok(false);
        };
        Ok(first.still_at(&second) && !self.sync_open() && !self.redactor.holding())
    }

    /// A look at the program's tree when it waits and nothing is in flight either way: no
    /// input unread (and the last input taken: the program ran since it was sent), no output
    /// the session has not taken in.
    fn look_waiting(&mut self, period: Duration) -> Option<TreeLook> {
        let look = TreeLook::take(self.pty.pid(), period);
        self.quiescence.working = look.as_ref().is_some_and(TreeLook::working);
        let look = look?;
        if self.pty.output_pending()? || self.pty.input_pending()? {
            return None;
        }
        if !look.waiting() {
            return None;
        }
        match self.quiescence.input {
            InputSeen::Answered => {}
            InputSeen::Sent(Some(before)) if look.runs() != before => {
                self.quiescence.input = InputSeen::Answered;
            }
            // Not yet taken, or it cannot be told: the quiet rule decides.
            InputSeen::Sent(_) => return None,
        }
        Some(look)
    }
}

/// How a settled screen was told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SettledBy {
    /// The program was seen waiting for input (`auto`).
    Quiescent,
    /// The screen did not change for the period (`quiet`, or `auto` falling back).
    Quiet,
    /// The program ended.
    Exit,
    /// A zero period: at once.
    AtOnce,
}

/// One checkpoint's times, from the start of the recording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct CheckpointTiming {
    /// When input was last sent before it (`None`: none was).
    pub input: Option<Duration>,
    /// When the program's last output before it arrived (the start, when none did).
    pub output: Duration,
    /// When it was found settled.
    pub fired: Duration,
    /// How.
    pub by: SettledBy,
}

impl CheckpointTiming {
    /// What waiting for a settled screen cost beyond the program's own time: from its last
    /// output to the checkpoint.
    pub fn overhead(&self) -> Duration {
        self.fired.saturating_sub(self.output)
    }
}

/// The second look of `auto` settling comes this long after the first: long enough for a
/// woken thread to be seen running (and for output written just before the first look to
/// arrive), short against the program's own response. Measured in docs/performance.md.
pub const CONFIRM: Duration = Duration::from_millis(3);

/// How often `auto` settling looks at a program that was not yet waiting, while no output
/// comes.
const LOOK_EVERY: Duration = Duration::from_millis(2);

/// The longest burst of output taken in before the checks of a settling wait run, in time and
/// in chunks.
const BURST: Duration = Duration::from_millis(20);
const BURST_EVENTS: usize = 256;

/// The looks at the program of `auto` settling.
#[derive(Debug, Default)]
pub(super) struct Quiescence {
    pub(super) input: InputSeen,
    /// The last look saw a thread working (see [`TreeLook::working`]).
    pub(super) working: bool,
}

/// How many settle periods a program seen working holds the quiet rule back.
const WORKING_HOLD: u32 = 10;

/// Whether the program has taken the last input.
#[derive(Debug, Default, Clone, Copy)]
pub(super) enum InputSeen {
    /// No input since the last checkpoint, or the program has run since it was sent.
    #[default]
    Answered,
    /// Sent; how many times the program's threads had been scheduled before (`None`: no
    /// look).
    Sent(Option<u64>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Size;

    fn screen(input: &str) -> Screen {
        crate::term::test_screen(Size { cols: 10, rows: 2 }, input)
    }

    #[test]
    fn only_changes_of_what_a_golden_shows_count() {
        let t0 = Instant::now();
        let mut w = ScreenWatch::new(screen("ab\x1b[?25l"), t0, Vec::new());
        w.changes = Some(Changes::default());
        let t1 = t0 + Duration::from_millis(10);
        // Pen resets, a hidden cursor moving: the same screen.
        w.observe(screen("ab\x1b[?25l\x1b[0m\x1b[39m\x1b[2;5H"), t1);
        assert_eq!(w.last_change, t0);
        // Terminal modes alone: the same screen too.
        w.observe(screen("ab\x1b[?25l\x1b[?1000;1006;2004h\x1b="), t1);
        assert_eq!(w.last_change, t0);
        // A shown cursor, then it moves: changes.
        w.observe(screen("ab"), t1);
        assert_eq!(w.last_change, t1);
        let t2 = t1 + Duration::from_millis(10);
        w.observe(screen("ab\x1b[2;5H"), t2);
        assert_eq!(w.last_change, t2);
        // A colour is a change of the cell.
        w.observe(screen("a\x1b[31mb\x1b[2;5H"), t2);
        w.observe(screen("a\x1b[32mb\x1b[2;5H"), t2);
        let ch = w.changes.take().unwrap();
        assert_eq!(
            ch.runs(),
            vec![CellRun {
                row: 0,
                first: 1,
                last: 1
            }],
            "changed twice: the cell that keeps changing"
        );
        assert_eq!(ch.cursor, 2);
        w.input_sent(t2 + Duration::from_millis(5));
        assert_eq!(w.quiet_since(), t2 + Duration::from_millis(5));
        // A bell, a title, a clipboard write: no change.
        let t3 = t2 + Duration::from_millis(10);
        w.observe(
            screen("a\x1b[32mb\x1b[2;5H\x07\x1b]2;t\x07\x1b]52;c;aGk=\x07"),
            t3,
        );
        assert_eq!(w.last_change, t2, "a bell is no change");
        // A link on a cell is.
        w.observe(screen("a\x1b[32m\x1b]8;;u\x07b\x1b[2;5H"), t3);
        assert_eq!(w.last_change, t3, "a link is a change");
    }

    #[test]
    fn only_a_change_after_the_input_was_seen_read_answers_it() {
        let t0 = Instant::now();
        let ms = |n| t0 + Duration::from_millis(n);
        let mut w = ScreenWatch::new(screen("a"), t0, Vec::new());
        assert!(!w.input_unanswered(), "no input, nothing to answer");
        w.input_sent(ms(10));
        // The draw of the key before, after the input was sent but before it was read.
        w.observe(screen("ab"), ms(20));
        assert!(w.input_unanswered(), "not yet seen read: no change answers");
        w.input_read(ms(30));
        assert!(w.input_unanswered(), "the change came before the read");
        w.observe(screen("abc"), ms(40));
        assert!(!w.input_unanswered(), "a change after the read answers");
        // The next input starts over.
        w.input_sent(ms(50));
        assert!(w.input_unanswered());
    }
}
