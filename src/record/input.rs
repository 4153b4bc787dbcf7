//! What a session sends the program: keys by name, text, secrets (recorded as placeholders),
//! resizes; and the markers it writes to the cast.

use std::time::Duration;

use super::error::RecordError;
use super::keys::key_bytes;
use super::session::Session;
use crate::cast::EventData;
use crate::term::{Engine, Size};

impl Session {
    /// Presses one key by name (`Enter`, `C-c`, `Up`, `a`, …; see [`super::keys`]).
    pub fn press(&mut self, key: &str) -> Result<(), RecordError> {
        let bytes =
            key_bytes(key, self.scanner.app_cursor()).map_err(|e| RecordError::Setup(e.into()))?;
        self.send(&bytes, &bytes)
    }

    /// Types text as if on a keyboard.
    pub fn type_text(&mut self, text: &str) -> Result<(), RecordError> {
        self.send(text, text)
    }

    /// Types a secret: the cast records a placeholder, and any echo of the value in the output
    /// is replaced by `*`s before it is written.
    pub fn type_secret(&mut self, name: &str, value: &str) -> Result<(), RecordError> {
        self.redactor.add_secret(value);
        if !value.is_empty() && !self.secrets.iter().any(|(_, v)| v == value) {
            self.secrets.push((name.to_string(), value.to_string()));
        }
        self.send(value, &format!("<secret {name}>"))
    }

    fn send(&mut self, bytes: &str, recorded: &str) -> Result<(), RecordError> {
        self.drain()?;
        if self.status.is_some() {
            return Err(self.exited_error("sending input"));
        }
        self.note_input();
        self.pty.write(bytes.as_bytes())?;
        self.emit(EventData::Input(recorded.to_string()))
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
    /// moment): an `m` event labelled `label` after the output that has arrived.
    pub fn mark(&mut self, label: &str) -> Result<(), RecordError> {
        self.drain()?;
        self.flush_held()?;
        self.emit(EventData::Marker(label.to_string()))
    }

    /// Resizes the terminal: the program gets SIGWINCH, the cast an `r` event.
    pub fn resize(&mut self, size: Size) -> Result<(), RecordError> {
        self.drain()?;
        self.pty.resize(size)?;
        self.engine.resize(size);
        self.size = size;
        self.note_resize();
        self.emit(EventData::Resize(size))
    }
}
