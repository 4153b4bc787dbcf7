//! What a session sends the program: keys by name, text, secrets (recorded as placeholders),
//! resizes, mouse reports, pastes and focus changes (encoded for the modes the program set, read
//! from the live engine); and the markers it writes to the cast.
//!
//! The click, drag, scroll, hover, paste and focus steps are [`Session`]
//! methods here; `mouse.rs` encodes their reports.

use std::time::Duration;

use super::error::RecordError;
use super::keys::{self, typed};
use super::mouse::{encode, MouseButton, MouseEvent, ScrollDirection};
use super::scenario::Target;
use super::session::Session;
use crate::cast::EventData;
use crate::term::{Engine, MouseTracking, Screen, Size};

impl Session {
    /// Presses one key by name (`Enter`, `C-c`, `S-Enter`, `Up`, `a`, …; see
    /// [`super::keys`]), sent as the keyboard modes the live engine has say: the cursor-key
    /// mode (DECCKM), the kitty keyboard protocol's flags, modifyOtherKeys.
    /// Sent when the program is ready for it (see `pace.rs`), after a lone Esc only once the
    /// program can no longer take it as the start of a sequence.
    pub fn press(&mut self, key: &str) -> Result<(), RecordError> {
        // The key's bytes depend on the modes the program has set by the time it is ready.
        self.wait_ready()?;
        let bytes = keys::encode(key, &self.engine.modes()).map_err(RecordError::Key)?;
        self.send_now(&[&bytes], &bytes)
    }

    /// Types text as if on a keyboard: once the program is ready, a character at a time, each
    /// after the program has read the one before (see `pace.rs`). Under the kitty keyboard
    /// protocol each character is sent as its key is (by the flags in force when typing
    /// starts: `CSI 97u` for `a` under flag 8; Enter, Esc and the C0 controls as their keys);
    /// otherwise as it is.
    pub fn type_text(&mut self, text: &str) -> Result<(), RecordError> {
        self.type_keys(text, None)
    }

    /// Sends what a person's terminal sent, as it is, paced as [`Session::type_text`] but a
    /// key at a time, each escape sequence whole (a recording by hand: the person's terminal
    /// has already encoded the keys by the modes the program set, which reach it through the
    /// mirror; a key split into bytes read apart would be Esc and text to the program).
    pub fn send_keystrokes(&mut self, bytes: &str) -> Result<(), RecordError> {
        self.send_paced(&keys_as_sent(bytes), bytes)
    }

    /// Types `text` by the keyboard modes in force once the program is ready; the cast
    /// records `placeholder` when given, else what was sent.
    fn type_keys(&mut self, text: &str, placeholder: Option<&str>) -> Result<(), RecordError> {
        self.wait_ready()?;
        let modes = self.engine.modes();
        let units: Vec<String> = keystrokes(text)
            .into_iter()
            .map(|u| typed(u, &modes))
            .collect();
        let units: Vec<&str> = units.iter().map(String::as_str).collect();
        let sent = units.concat();
        self.send_now(&units, placeholder.unwrap_or(&sent))
    }

    /// Types a secret: the cast records a placeholder, and any echo of the value in the output
    /// is replaced by `*`s before it is written.
    pub fn type_secret(&mut self, name: &str, value: &str) -> Result<(), RecordError> {
        self.redactor.add_secret(value);
        if !value.is_empty() && !self.secrets.iter().any(|(_, forms)| forms[0] == value) {
            // Every form the redactor scrubs (the value first, then reversed, encoded, its
            // shortest long prefix): drawn on the screen in pieces, any of them fails the
            // recording as the value itself does.
            let mut forms = super::redact::forms(value);
            if let Some(end) = super::redact::shortest_prefix(value) {
                forms.push(value[..end].to_string());
            }
            self.secrets.push((name.to_string(), forms));
        }
        self.type_keys(value, Some(&format!("<secret {name}>")))
    }

    /// Clicks `button` (a press and a release, as the program's mouse mode reports them) at
    /// the centre of `at`. Waits, up to the session's timeout, until `at` is on the screen and
    /// the program has enabled mouse reporting; fails with [`RecordError::Input`] when it never
    /// did (or the position cannot be sent in its encoding).
    pub fn click(&mut self, at: &Target, button: MouseButton) -> Result<(), RecordError> {
        let what = format!("a {} click", button.name());
        let events = [
            (MouseEvent::Press(button), at),
            (MouseEvent::Release(button), at),
        ];
        self.mouse(&what, MouseTracking::X10, &events)
    }

    /// Drags with `button`: a press at `from`, a motion to `to` (with button-event or
    /// any-event tracking) and a release there. Needs at least normal tracking (1000): X10
    /// mode reports no release.
    pub fn drag(
        &mut self,
        from: &Target,
        to: &Target,
        button: MouseButton,
    ) -> Result<(), RecordError> {
        let events = [
            (MouseEvent::Press(button), from),
            (MouseEvent::Motion(Some(button)), to),
            (MouseEvent::Release(button), to),
        ];
        self.mouse("a drag", MouseTracking::Normal, &events)
    }

    /// Turns the wheel one notch `direction` with the pointer at `at`.
    pub fn scroll(&mut self, direction: ScrollDirection, at: &Target) -> Result<(), RecordError> {
        let events = [(MouseEvent::Wheel(direction), at)];
        self.mouse("a scroll", MouseTracking::X10, &events)
    }

    /// Moves the pointer to `at` with no button down: needs any-event tracking (1003).
    pub fn hover(&mut self, at: &Target) -> Result<(), RecordError> {
        self.mouse(
            "a hover",
            MouseTracking::Any,
            &[(MouseEvent::Motion(None), at)],
        )
    }

    /// Pastes `text`: between `CSI 200 ~` and `CSI 201 ~` when the program enabled bracketed
    /// paste (2004), as typed text otherwise. The cast records exactly what was sent. Inside
    /// the brackets the end marker is taken out of the text (`paste_body`), so pasted text
    /// cannot end the paste early and be read as typed keys.
    pub fn paste(&mut self, text: &str) -> Result<(), RecordError> {
        self.drain()?;
        if self.engine.screen().modes.bracketed_paste {
            let bytes = format!("\x1b[200~{}\x1b[201~", paste_body(text));
            self.send(&bytes, &bytes)
        } else {
            self.send(text, text)
        }
    }

    /// The terminal gains (`true`, `CSI I`) or loses focus (`CSI O`). Waits, up to the
    /// session's timeout, for the program to enable focus reporting (1004); fails with
    /// [`RecordError::Input`] when it never does (a terminal would send nothing, and a step
    /// that silently did nothing would hide that the program stopped listening).
    pub fn focus(&mut self, focused: bool) -> Result<(), RecordError> {
        self.drain()?;
        let waited = self.wait_until("focus reporting (CSI ? 1004 h)", None, |s| s.modes.focus);
        if let Err(e) = waited {
            let screen = self.engine.screen();
            if !screen.modes.focus && !matches!(e, RecordError::Exited { .. }) {
                return Err(RecordError::Input(format!(
                    "the program has not enabled focus reporting (CSI ? 1004 h), so a terminal \
                     sends no focus {}; modes on: {}",
                    if focused { "in" } else { "out" },
                    screen.modes.describe()
                )));
            }
            return Err(e);
        }
        let bytes = if focused { "\x1b[I" } else { "\x1b[O" };
        self.send(bytes, bytes)
    }

    /// Sends `events` at their targets once every target is on the screen and the mouse
    /// tracking mode reports at least what `need` reports.
    fn mouse(
        &mut self,
        what: &str,
        need: MouseTracking,
        events: &[(MouseEvent, &Target)],
    ) -> Result<(), RecordError> {
        self.drain()?;
        let size = self.engine.size();
        for (_, t) in events {
            if let Target::Cell(p) = t {
                if p.row >= size.rows || p.col >= size.cols {
                    return Err(RecordError::Input(format!(
                        "{what} at {t} is off the screen ({size}: rows 1 to {}, columns 1 to {})",
                        size.rows, size.cols
                    )));
                }
            }
        }
        let missing = |s: &Screen| {
            events
                .iter()
                .find(|(_, t)| locate(s, t).is_none())
                .map(|(_, t)| *t)
        };
        let described = match missing(&self.engine.screen()) {
            Some(t) => format!("{t} on the screen for {what}"),
            None => format!("mouse reporting for {what}"),
        };
        let waited = self.wait_until(&described, None, |s| {
            enough(s.modes.mouse, need) && missing(s).is_none()
        });
        let screen = self.engine.screen();
        if let Err(e) = waited {
            if missing(&screen).is_none() && !matches!(e, RecordError::Exited { .. }) {
                let needs = match need {
                    MouseTracking::Any => {
                        "any-event tracking (CSI ? 1003 h) to report motion with no button down"
                    }
                    MouseTracking::Normal => {
                        "mouse tracking that reports releases (CSI ? 1000 h, 1002 or 1003; \
                         X10 mode 9 reports presses only)"
                    }
                    _ => "mouse reporting (CSI ? 1000 h, or 9, 1002, 1003)",
                };
                return Err(RecordError::Input(format!(
                    "{what} needs {needs}; the program has mouse tracking {} (modes on: {})",
                    screen.modes.mouse,
                    screen.modes.describe()
                )));
            }
            return Err(match (e, missing(&screen)) {
                // A region that found nothing says what it looked for and why it failed.
                (RecordError::Timeout(mut report), Some(Target::Region(name, anchor))) => {
                    if let Err(why) = anchor.resolve(&screen) {
                        report.what = format!(
                            "region {} ({}) on the screen for {what}: {}",
                            crate::escape::escape_for_terminal(name, 60),
                            anchor.describe(),
                            why.message()
                        );
                    }
                    RecordError::Timeout(report)
                }
                (e, _) => e,
            });
        }
        let modes = screen.modes;
        // Every report first: a drag whose end cannot be sent sends nothing, never a press
        // without its release.
        let mut reports = Vec::with_capacity(events.len());
        for (event, target) in events {
            let (row, col) = locate(&screen, target).unwrap_or_default();
            let report = encode(modes.mouse, modes.mouse_encoding, *event, row, col)
                .map_err(|e| RecordError::Input(format!("{what} at {target}: {e}")))?;
            reports.extend(report);
        }
        reports.iter().try_for_each(|bytes| self.send(bytes, bytes))
    }

    fn send(&mut self, bytes: &str, recorded: &str) -> Result<(), RecordError> {
        self.send_paced(&[bytes], recorded)
    }

    /// Marks a checkpoint on a settled screen: waits as [`Session::wait_settled`] does with
    /// the session's settle period, then writes an `m` event labelled `label` (after the
    /// output that made the settled screen, at the moment it was seen settled).
    pub fn snapshot(&mut self, label: &str) -> Result<(), RecordError> {
        self.snapshot_with(label, self.settle()).map(|_| ())
    }

    /// [`Session::snapshot`] with its own settle period (zero: at once, as [`Session::mark`]);
    /// returns how long it waited for the screen to settle.
    pub fn snapshot_with(
        &mut self,
        label: &str,
        settle: Duration,
    ) -> Result<Duration, RecordError> {
        let waited = self.wait_settled(settle)?;
        self.mark(label)?;
        Ok(waited)
    }

    /// Marks a checkpoint now, on the screen as it is (a person recording by hand chose the
    /// moment): an `m` event labelled `label` after the output that has arrived. Bells and
    /// clipboard writes are counted afresh from here, as replay counts them.
    pub fn mark(&mut self, label: &str) -> Result<(), RecordError> {
        self.drain()?;
        self.flush_held()?;
        self.emit(EventData::Marker(label.to_string()))?;
        if !label.is_empty() {
            self.engine.checkpoint();
            self.bells_taken = 0;
        }
        Ok(())
    }

    /// Resizes the terminal: the program gets SIGWINCH, the cast an `r` event.
    pub fn resize(&mut self, size: Size) -> Result<(), RecordError> {
        self.drain()?;
        self.pty.resize(size)?;
        self.engine.resize(size);
        self.size = size;
        self.note_resize();
        self.tell_observer();
        self.emit(EventData::Resize(size))
    }
}

/// The keystrokes that type `text`: a character each (`\r\n`, one Enter, stays whole).
fn keystrokes(text: &str) -> Vec<&str> {
    let mut units = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if rest.starts_with("\r\n") {
            2
        } else {
            c.len_utf8()
        };
        units.push(&rest[..len]);
        rest = &rest[len..];
    }
    units
}

/// What a terminal sent, split into keys: a character each (`\r\n` whole), and each escape
/// sequence whole: `ESC [` up to its final byte, `ESC O` and one more, `ESC` and one
/// character (Alt), a lone ESC.
fn keys_as_sent(bytes: &str) -> Vec<&str> {
    let mut units = Vec::new();
    let mut rest = bytes;
    while let Some(c) = rest.chars().next() {
        let len = if c == '\x1b' {
            let b = rest.as_bytes();
            match b.get(1) {
                Some(b'[') => b[2..]
                    .iter()
                    .position(|x| (0x40..=0x7e).contains(x))
                    .map_or(rest.len(), |i| i + 3),
                Some(b'O') if b.len() > 2 => {
                    1 + rest[2..].chars().next().map_or(1, |n| 1 + n.len_utf8())
                }
                Some(_) => 1 + rest[1..].chars().next().map_or(0, char::len_utf8),
                None => 1,
            }
        } else if rest.starts_with("\r\n") {
            2
        } else {
            c.len_utf8()
        };
        units.push(&rest[..len]);
        rest = &rest[len..];
    }
    units
}

/// Whether tracking mode `have` reports what `need` does.
fn enough(have: MouseTracking, need: MouseTracking) -> bool {
    let rank = |t| match t {
        MouseTracking::Off => 0,
        MouseTracking::X10 => 1,
        MouseTracking::Normal => 2,
        MouseTracking::Button => 3,
        _ => 4,
    };
    rank(have) >= rank(need)
}

/// The cell a target points at on `screen` (0-based row and column): the centre of the first
/// match of its text or regex in reading order, of the first rectangle of its region, or the
/// cell itself when it is on the screen.
pub(super) fn locate(screen: &Screen, target: &Target) -> Option<(u16, u16)> {
    let centre = |row: usize, cols: std::ops::Range<usize>| {
        let col = cols.start + (cols.end - cols.start).saturating_sub(1) / 2;
        Some((u16::try_from(row).ok()?, u16::try_from(col).ok()?))
    };
    match target {
        Target::Text(t) => {
            if t.is_empty() {
                return None;
            }
            let re = regex::Regex::new(&regex::escape(t)).ok()?;
            (0..screen.rows.len())
                .find_map(|r| screen.find_cells(r, &re).into_iter().next().map(|c| (r, c)))
                .and_then(|(r, c)| centre(r, c))
        }
        Target::Regex(re) => (0..screen.rows.len())
            .find_map(|r| screen.find_cells(r, re).into_iter().next().map(|c| (r, c)))
            .and_then(|(r, c)| centre(r, c)),
        Target::Region(_, anchor) => {
            let rect = anchor.resolve(screen).ok()?.into_iter().next()?;
            let row = rect.row + (rect.row_end - rect.row).saturating_sub(1) / 2;
            centre(row, rect.col..rect.col_end)
        }
        Target::Cell(p) => {
            (p.row < screen.size.rows && p.col < screen.size.cols).then_some((p.row, p.col))
        }
    }
}

/// The text of a bracketed paste with every `CSI 201 ~` (the end marker) taken out, again until
/// none is left (taking one out may join another), as terminals do to stop a paste from
/// ending itself early ("paste injection"). The start marker is left: inside a paste it is
/// just text to the program.
pub(crate) fn paste_body(text: &str) -> std::borrow::Cow<'_, str> {
    paste_body_counted(text, &mut 0)
}

/// [`paste_body`], counting the bytes it looks at in `work`: one pass, each byte pushed once
/// and compared with the marker once (taking markers out again and again was quadratic in a
/// paste of nested markers). A marker joins only where one was just taken out, at the end of
/// what is kept, so looking at that end after every byte finds every one.
fn paste_body_counted<'t>(text: &'t str, work: &mut usize) -> std::borrow::Cow<'t, str> {
    const END: &[u8] = b"\x1b[201~";
    if !text.contains("\x1b[201~") {
        return text.into();
    }
    let mut body: Vec<u8> = Vec::with_capacity(text.len());
    for &b in text.as_bytes() {
        *work += 1;
        body.push(b);
        if b == b'~' && body.ends_with(END) {
            *work += END.len();
            body.truncate(body.len() - END.len());
        }
    }
    // Only whole ASCII markers were taken out, so the rest is still UTF-8.
    String::from_utf8(body)
        .map(Into::into)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned().into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_as_sent_keep_each_escape_sequence_whole() {
        assert_eq!(
            super::keys_as_sent("ab\x1b[13;2u\x1bOA\x1bx\r\n\x1b[97;5:3u\x1b"),
            [
                "a",
                "b",
                "\x1b[13;2u",
                "\x1bOA",
                "\x1bx",
                "\r\n",
                "\x1b[97;5:3u",
                "\x1b"
            ]
        );
        assert_eq!(
            super::keys_as_sent("\x1b[1"),
            ["\x1b[1"],
            "cut: kept as it came"
        );
    }

    #[test]
    fn a_paste_cannot_end_itself() {
        use super::paste_body;
        assert_eq!(paste_body("plain"), "plain");
        assert_eq!(paste_body("a\x1b[201~b"), "ab");
        assert_eq!(paste_body("\x1b[20\x1b[201~1~rm -rf ~\r"), "rm -rf ~\r");
        assert_eq!(paste_body("\x1b[200~x"), "\x1b[200~x");
        assert_eq!(paste_body("\x1b[201\x1b[201~~a\x1b[201~"), "a");
    }

    #[test]
    fn nested_end_markers_are_taken_out_in_one_pass() {
        // Markers nested 20 000 deep: taking them out again and again looked at the paste
        // 20 000 times (quadratic); one pass looks at each byte about once.
        let n = 20_000;
        let text = format!("{}\x1b[201~{}rm -rf ~", "\x1b[20".repeat(n), "1~".repeat(n));
        let mut work = 0;
        let body = super::paste_body_counted(&text, &mut work);
        assert_eq!(body, "rm -rf ~");
        assert!(work <= 3 * text.len(), "{work} for {} bytes", text.len());
    }
}
