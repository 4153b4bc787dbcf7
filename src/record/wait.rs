//! Waits: on the screen (text, regex, gone, cursor, any check), on the terminal's echo mode,
//! and on the program's exit. Each is re-checked as soon as output comes. (Waits for a still
//! screen, `wait_idle` and `wait_settled`, are in `settle.rs`.)

use std::time::{Duration, Instant};

use regex::Regex;

use super::error::RecordError;
use super::session::Session;

/// How often a screen wait with `fail_fast` looks at the program while no output comes.
const FAIL_FAST_LOOK: Duration = Duration::from_millis(50);
use crate::escape::escape_for_terminal;
use crate::pos::Point;
use crate::term::{Engine, Screen};

impl Session {
    /// Waits until `text` is on the screen.
    pub fn wait_text(&mut self, text: &str) -> Result<(), RecordError> {
        let t = text.to_string();
        self.wait_until(
            &format!("text \"{}\"", escape_for_terminal(text, 80)),
            None,
            move |s| s.text().contains(t.as_str()),
        )
    }

    /// Waits until `regex` matches the screen text (rows joined by newlines).
    pub fn wait_regex(&mut self, regex: &Regex) -> Result<(), RecordError> {
        let re = regex.clone();
        self.wait_until(
            &format!("regex /{}/", escape_for_terminal(regex.as_str(), 80)),
            None,
            move |s| re.is_match(&s.text()),
        )
    }

    /// Waits until `text` is no longer on the screen.
    pub fn wait_gone(&mut self, text: &str) -> Result<(), RecordError> {
        let t = text.to_string();
        self.wait_until(
            &format!("text \"{}\" to disappear", escape_for_terminal(text, 80)),
            None,
            move |s| !s.text().contains(t.as_str()),
        )
    }

    /// Waits until the window title contains `text`.
    pub fn wait_title(&mut self, text: &str) -> Result<(), RecordError> {
        let t = text.to_string();
        self.wait_until(
            &format!("a title containing \"{}\"", escape_for_terminal(text, 80)),
            None,
            move |s| {
                s.title
                    .as_deref()
                    .is_some_and(|title| title.contains(t.as_str()))
            },
        )
    }

    /// Waits for a bell: one rung since the last checkpoint that no earlier bell wait took
    /// (so two bell waits in a row wait for two bells).
    pub fn wait_bell(&mut self) -> Result<(), RecordError> {
        let taken = self.bells_taken;
        self.wait_until("a bell", None, move |s| s.state.bells > taken)?;
        self.bells_taken += 1;
        Ok(())
    }

    /// Waits until the shell says a command ended (an OSC 133 `D` mark after a `C`) that no
    /// earlier such wait took: every end up to the one seen is taken, so a wait after each
    /// command waits for each. (A shell that sends no marks never ends one: the wait times
    /// out, its message saying so.)
    pub fn wait_command_done(&mut self) -> Result<(), RecordError> {
        let taken = self.commands_taken;
        self.wait_until(
            "the shell's command to end (its OSC 133 D mark; none comes from a shell whose \
             marks are not turned on)",
            None,
            move |s| s.state.commands_ended > taken,
        )?;
        self.commands_taken = self.engine.screen().state.commands_ended;
        Ok(())
    }

    /// Waits until a clipboard write (OSC 52) since the last checkpoint has text containing
    /// `text`.
    pub fn wait_clipboard(&mut self, text: &str) -> Result<(), RecordError> {
        let t = text.to_string();
        self.wait_until(
            &format!(
                "a clipboard write containing \"{}\"",
                escape_for_terminal(text, 80)
            ),
            None,
            move |s| {
                s.state
                    .clipboard
                    .iter()
                    .any(|w| w.text.contains(t.as_str()))
            },
        )
    }

    /// Waits until the program waits at a prompt of `kind`, as [`crate::inspect::classify`]
    /// reads the screen and the terminal's echo flag (looked at again every 5 ms: echo
    /// changes without output).
    pub fn wait_prompt(&mut self, kind: crate::inspect::PromptKind) -> Result<(), RecordError> {
        self.wait_prompt_where(&format!("a {} prompt", kind.name()), |k| k == kind)
    }

    /// Waits until the program waits at a prompt of any kind [`crate::inspect::classify`]
    /// knows (anything but `unknown`), as [`Session::wait_prompt`] looks.
    pub fn wait_any_prompt(&mut self) -> Result<(), RecordError> {
        self.wait_prompt_where("a prompt of any kind", |k| {
            k != crate::inspect::PromptKind::Unknown
        })
    }

    fn wait_prompt_where(
        &mut self,
        what: &str,
        accept: impl Fn(crate::inspect::PromptKind) -> bool,
    ) -> Result<(), RecordError> {
        let started = Instant::now();
        let deadline = started + self.timeout;
        loop {
            let screen = self.engine.screen();
            let seen = crate::inspect::classify(&screen, &screen.outline(), self.modes());
            if accept(seen.kind) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(self.timeout_error(what, started));
            }
            if self.eof && self.status.is_some() {
                return Err(self.exited_error(&format!("waiting for {what}")));
            }
            self.pump(Some(
                (Instant::now() + Duration::from_millis(5)).min(deadline),
            ))?;
        }
    }

    /// Waits until the screen as shown elsewhere (secrets starred:
    /// [`Session::screen_without_secrets`]) has a [`Screen::hash_hex`] other than `hash`: at
    /// once when it has already.
    pub fn wait_changed(&mut self, hash: &str) -> Result<(), RecordError> {
        let started = Instant::now();
        let deadline = started + self.timeout;
        let what = format!(
            "the screen to change from {}",
            escape_for_terminal(hash, 40)
        );
        loop {
            if self.screen_without_secrets().hash_hex() != hash {
                return Ok(());
            }
            if self.eof && self.status.is_some() {
                return Err(self.exited_error(&format!("waiting for {what}")));
            }
            if Instant::now() >= deadline {
                return Err(self.timeout_error(&what, started));
            }
            // A burst at a time, as `wait_until` takes output in.
            if self.pump(Some(deadline))? {
                self.pump_while(Duration::ZERO, 16, None)?;
                self.observe();
            }
        }
    }

    /// The program's file name (`vim`), as ref waits give it to adapters.
    pub fn program_name(&self) -> Option<&str> {
        self.program.as_deref()
    }

    /// Waits until `wait`'s selector finds a ref on the screen (or, `gone`, finds none).
    pub fn wait_ref(&mut self, wait: &super::RefWait) -> Result<(), RecordError> {
        let shown = escape_for_terminal(wait.selector.as_str(), 80);
        let what = if wait.gone {
            format!("{shown} to be gone")
        } else {
            shown
        };
        let program = self.program.clone();
        // An adapter's error ends the wait (it would be the same on every screen).
        let failed = std::cell::RefCell::new(None);
        let waited = self.wait_until(&what, None, |s| match wait.find(s, program.as_deref()) {
            Ok(found) => found.is_empty() == wait.gone,
            Err(e) => {
                *failed.borrow_mut() = Some(e);
                true
            }
        });
        match failed.into_inner() {
            Some(e) => Err(RecordError::Adapter(e)),
            None => waited,
        }
    }

    /// Waits until the region `anchor` finds holds text that `check` accepts
    /// (`wait_region(&Anchor::Row(anchor_regex("INSERT")?), |t| t.contains("INSERT"))`); a
    /// region that finds nothing yet counts as not accepted.
    pub fn wait_region(
        &mut self,
        anchor: &crate::inspect::Anchor,
        check: impl Fn(&str) -> bool,
    ) -> Result<(), RecordError> {
        let what = format!("the region {}", anchor.describe());
        self.wait_until(&what, None, |s| s.region(anchor).is_ok_and(|t| check(&t)))
    }

    /// Waits until the cursor is at 0-based `(row, col)`.
    pub fn wait_cursor(&mut self, at: Point) -> Result<(), RecordError> {
        self.wait_until(&format!("the cursor at {}", at.place()), None, move |s| {
            s.cursor.point() == at
        })
    }

    /// Waits until the terminal stops echoing input (a program reading a password).
    pub fn wait_echo_off(&mut self) -> Result<(), RecordError> {
        self.wait_echo(false)
    }

    /// Waits until the terminal echoes input again.
    pub fn wait_echo_on(&mut self) -> Result<(), RecordError> {
        self.wait_echo(true)
    }

    fn wait_echo(&mut self, on: bool) -> Result<(), RecordError> {
        let started = Instant::now();
        let deadline = started + self.timeout;
        let what = if on {
            "echo to be turned on"
        } else {
            "echo to be turned off"
        };
        loop {
            if self.pty.echo_enabled() == Some(on) {
                // What the program wrote before it changed the mode (a prompt, `CSI ? 1 h`)
                // may still be on its way from the reader thread: take it in first, so the
                // next step sees the screen and key modes as the program left them.
                self.take_in_flight()?;
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(self.timeout_error(what, started));
            }
            if self.status.is_some() {
                return Err(self.exited_error(&format!("waiting for {what}")));
            }
            // The terminal mode changes without output: look again every 5 ms.
            self.pump(Some(
                (Instant::now() + Duration::from_millis(5)).min(deadline),
            ))?;
        }
    }

    /// Waits until `check(screen)` holds, re-checking whenever output has come in (once per
    /// burst: the chunks already waiting, up to 17, are taken in first).
    pub fn wait_until(
        &mut self,
        what: &str,
        timeout: Option<Duration>,
        check: impl Fn(&Screen) -> bool,
    ) -> Result<(), RecordError> {
        let started = Instant::now();
        let deadline = started + timeout.unwrap_or(self.timeout);
        loop {
            if check(&self.engine.screen()) {
                return Ok(());
            }
            if self.eof && self.status.is_some() {
                return Err(self.exited_error(&format!("waiting for {what}")));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(self.timeout_error(what, started));
            }
            if let Some(bound) = self.fail_fast {
                if self.cannot_come(bound)? {
                    return Err(self.failed_fast(what, started, bound));
                }
            }
            // Take in everything that has arrived before looking at the screen again: under
            // heavy output one check per burst, not one per chunk. With `fail_fast`, a look
            // at the program every FAIL_FAST_LOOK too.
            let until = match self.fail_fast {
                Some(_) => deadline.min(now + FAIL_FAST_LOOK),
                None => deadline,
            };
            if self.pump(Some(until))? {
                // (At most 16 more, so a program that never pauses cannot starve the check.)
                self.pump_while(Duration::ZERO, 16, None)?;
                self.observe();
            }
        }
    }

    /// Whether what a screen wait waits for cannot come any more, as far as can be told: the
    /// screen (masks applied) has not changed for `bound`, nor input been sent since, and
    /// the program waits for input with nothing in flight (two looks at its tree, as `auto`
    /// settling takes them: a timer further away than the settle period counts as waiting,
    /// as a clock's tick does). So a program that changes its screen by itself only after
    /// more than `bound` of stillness (a long sleep, a slow server) is failed early too: the
    /// bound must be longer than any such pause (docs/scenarios.md).
    fn cannot_come(&mut self, bound: Duration) -> Result<bool, RecordError> {
        self.observe();
        if self.watch.quiet_since().elapsed() < bound || self.sync_open() {
            return Ok(false);
        }
        self.quiescent(self.settle_rule.period())
    }

    /// The timeout's error of a wait that failed early, saying why.
    fn failed_fast(&self, what: &str, started: Instant, bound: Duration) -> RecordError {
        let mut e = self.timeout_error(what, started);
        if let RecordError::Timeout(report) = &mut e {
            report.hints.insert(
                0,
                format!(
                    "failed early (fail_fast = \"{}ms\"): the program waits for input and \
                     its screen has not changed for {:.1}s",
                    bound.as_millis(),
                    self.watch.quiet_since().elapsed().as_secs_f64()
                ),
            );
        }
        e
    }

    /// Waits for the program to exit and returns its status.
    pub fn wait_exit(&mut self, timeout: Option<Duration>) -> Result<i32, RecordError> {
        let started = Instant::now();
        let deadline = started + timeout.unwrap_or(self.timeout);
        while self.status.is_none() {
            if Instant::now() >= deadline {
                return Err(self.timeout_error("the program to exit", started));
            }
            self.pump(Some(deadline))?;
        }
        self.reap_after_exit()?;
        Ok(self.status.unwrap_or(255))
    }

    /// Lets time pass, recording output as it comes.
    pub fn sleep(&mut self, d: Duration) -> Result<(), RecordError> {
        let until = Instant::now() + d;
        while Instant::now() < until {
            if self.pump(Some(until))? {
                self.observe();
            } else if self.eof && self.status.is_some() {
                break;
            }
        }
        Ok(())
    }
}
