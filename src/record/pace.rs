//! Pacing: input reaches the program as a person's would.
//!
//! A person presses a key, sees the program answer, and presses the next; a scenario's steps
//! come one after the other in microseconds. Sent as they come, `{ press = "Tab" }, { type =
//! "Ada" }` reaches an ink app as the one chunk `"\tAda"` (ink hands its input handler a read
//! at a time, so the Tab is taken as text), a Textual app loses the `A` while it still moves
//! the focus, and a curses program that tells a lone Esc from Alt+key by timing (ncurses'
//! `ESCDELAY`) reads `Esc` then `x` as Alt+x. So every input step waits for the program:
//!
//! - **Ready before a step.** An input step (a key, text, a secret, a paste, a mouse event, a
//!   focus change) is sent once the program has read the input before it and no thread of
//!   its tree works (`quiet.rs`: none running, runnable, in disk I/O or in a short sleep),
//!   nothing in flight either way, at a look and at a second one 3 ms later with no output
//!   between. A program waiting for input costs those two looks; an animation is ready
//!   between two frames (its frame timer is a wait too). A program seen working at the step's
//!   start is waited for while it goes on working, up to the session's timeout: it has not
//!   finished with the last key; otherwise the wait ends after [`PACE_HOLD`], and so it does
//!   for a program `/proc` does not show: the step is then sent as before.
//! - **A lone Esc stays alone.** After a step that sent only `ESC`, the next step (and a
//!   checkpoint settled by `auto`) waits until the
//!   program can no longer take the Esc as the start of a sequence: it waits with no timer due
//!   within [`ESC_WINDOW`] (the default `ESCDELAY` of ncurses), or it has woken since it read
//!   the Esc (its timer ran out) and waits again, or [`ESC_WINDOW`] has passed since the Esc.
//! - **Text at a typist's pace.** The characters of `type` (and of a secret) go one at a time,
//!   each once the program has read the one before (the terminal's input queue is empty), so
//!   each read of the program gets what one keystroke gives: a parser that looks at a read as a
//!   whole (ink's) sees keys, not a paste. A program that reads nothing for [`PACE_HOLD`] gets
//!   the rest at once, as before.
//!
//! What pacing costs the bundled live suites is measured in docs/performance.md ("Pacing").

use std::time::{Duration, Instant};

use super::error::RecordError;
use super::quiet::TreeLook;
use super::session::Session;

/// The longest a step waits for a program that is neither working nor waiting (a frame timer,
/// a short sleep), or that `/proc` does not show, before it is sent anyway; and the longest a
/// typed character waits to be read.
pub(super) const PACE_HOLD: Duration = Duration::from_millis(500);

/// How long after a lone Esc a program may still take it as the start of a sequence: ncurses'
/// default `ESCDELAY` (1000 ms); vim's `ttimeoutlen` and most programs' own are shorter.
pub(super) const ESC_WINDOW: Duration = Duration::from_millis(1000);

/// How often a step waiting for the program looks again.
const LOOK_EVERY: Duration = Duration::from_millis(2);

/// Where the last input step left the program, for the next one.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Pace {
    /// A step sent a lone Esc: when, and how many times the tree had been scheduled when the
    /// program was first seen waiting after it (`None`: not yet).
    esc: Option<(Instant, Option<u64>)>,
}

impl Session {
    /// Sends an input step once the program is ready for it (see the module docs): `units`
    /// are written one at a time, each once the program has read the one before; the cast
    /// records `recorded` once, as one `i` event.
    pub(super) fn send_paced(&mut self, units: &[&str], recorded: &str) -> Result<(), RecordError> {
        self.wait_ready()?;
        self.send_now(units, recorded)
    }

    /// [`Session::send_paced`] for a program already found ready ([`Session::wait_ready`]).
    pub(super) fn send_now(&mut self, units: &[&str], recorded: &str) -> Result<(), RecordError> {
        if self.status.is_some() {
            return Err(self.exited_error("sending input"));
        }
        let lone_esc = units.concat() == "\x1b";
        self.emit(crate::cast::EventData::Input(recorded.to_string()))?;
        for (i, unit) in units.iter().enumerate() {
            if i > 0 {
                self.wait_read()?;
            }
            // Each unit is input of its own: a settled screen counts from the last one.
            self.note_input();
            self.pty.write(unit.as_bytes())?;
        }
        self.pace.esc = lone_esc.then(|| (Instant::now(), None));
        Ok(())
    }

    /// Waits until the program is ready for the next input step (see the module docs).
    pub(super) fn wait_ready(&mut self) -> Result<(), RecordError> {
        let started = Instant::now();
        let period = self.settle_rule.period();
        let mut working_until = started + PACE_HOLD;
        loop {
            self.drain()?;
            if self.status.is_some() || self.is_done() {
                return Ok(());
            }
            let now = Instant::now();
            let Some(look) = TreeLook::take(self.pty.pid(), period) else {
                // `/proc` does not show the program: the input already read is all that
                // can be told.
                if self.pty.input_pending() != Some(true) || now >= started + PACE_HOLD {
                    return Ok(());
                }
                self.pump(Some(now + LOOK_EVERY))?;
                continue;
            };
            if look.working() {
                // Not finished with the last input: wait, up to the session's timeout.
                working_until = (now + PACE_HOLD).min(started + self.timeout);
            }
            if !look.working() && self.ready_now(period)? {
                return Ok(());
            }
            // A lone Esc is waited out whatever the program does (`esc_settled` ends it
            // within ESC_WINDOW).
            if Instant::now() >= working_until && self.pace.esc.is_none() {
                return Ok(());
            }
            if self.pump(Some(Instant::now() + LOOK_EVERY))? {
                self.observe();
            }
        }
    }

    /// Whether the program is ready for input now: it has read all input sent (and a lone Esc
    /// can no longer start a sequence), nothing it wrote is on its way, and no thread of its
    /// tree works (runs, wants to run, pauses in a short sleep) at a look (the caller's, which
    /// found none) and at a second one [`CONFIRM`](super::settle::CONFIRM) later with no
    /// output between. Unlike a settled checkpoint it need not wait for every timer: an
    /// animation between two frames takes a key as it comes.
    fn ready_now(&mut self, period: Duration) -> Result<bool, RecordError> {
        if !self.esc_settled(Instant::now())
            || self.pty.input_pending() != Some(false)
            || self.pty.output_pending() == Some(true)
        {
            return Ok(false);
        }
        let pid = self.pty.pid();
        if self.pump(Some(Instant::now() + super::settle::CONFIRM))? {
            self.observe();
            return Ok(false);
        }
        let idle = TreeLook::take(pid, period).is_some_and(|l| !l.working());
        Ok(idle && self.pty.input_pending() == Some(false) && !self.redactor.holding())
    }

    /// Whether a lone Esc sent last can no longer start a sequence: none was sent, or
    /// [`ESC_WINDOW`] has passed, or the program waits with no timer due within it, or it
    /// has run since it was first seen waiting after the Esc (its Esc timer ran out).
    pub(super) fn esc_settled(&mut self, now: Instant) -> bool {
        let Some((sent, first_wait)) = self.pace.esc else {
            return true;
        };
        if now >= sent + ESC_WINDOW {
            self.pace.esc = None;
            return true;
        }
        if self.pty.input_pending() != Some(false) {
            return false;
        }
        let pid = self.pty.pid();
        // Two looks CONFIRM apart that agree: a single look may catch a timeout in the
        // middle of being set up.
        if let Some(first) = TreeLook::take(pid, ESC_WINDOW).filter(TreeLook::waiting) {
            std::thread::sleep(super::settle::CONFIRM);
            let again = TreeLook::take(pid, ESC_WINDOW);
            if again.is_some_and(|l| first.still_at(&l)) && self.pty.input_pending() == Some(false)
            {
                self.pace.esc = None;
                return true;
            }
        }
        let Some(look) = TreeLook::take(pid, self.settle_rule.period()) else {
            return false;
        };
        if !look.waiting() {
            return false;
        }
        match first_wait {
            None => {
                self.pace.esc = Some((sent, Some(look.runs())));
                false
            }
            Some(runs) if look.runs() != runs => {
                self.pace.esc = None;
                true
            }
            Some(_) => false,
        }
    }

    /// After one unit of a paced step: waits until the program has read it (nothing left in
    /// the terminal's input queue), for at most [`PACE_HOLD`]. Output that comes meanwhile is
    /// taken in.
    fn wait_read(&mut self) -> Result<(), RecordError> {
        let until = Instant::now() + PACE_HOLD;
        while self.pty.input_pending() == Some(true) && Instant::now() < until {
            if self.status.is_some() {
                return Ok(());
            }
            if self.pump(Some(Instant::now() + Duration::from_micros(500)))? {
                self.observe();
            }
        }
        Ok(())
    }
}
