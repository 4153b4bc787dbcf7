//! What a failed wait reports: the screen at that moment, and signs that the program is
//! waiting for input (a prompt, no output, echo off).

use std::time::{Duration, Instant};

use super::error::RecordError;
use super::session::Session;
use crate::escape::escape_for_terminal;

/// What a timed-out wait saw: enough to tell why without re-running.
#[derive(Debug)]
#[non_exhaustive]
pub struct TimeoutDiagnosis {
    /// What was waited for.
    pub what: String,
    /// How long it waited.
    pub waited: Duration,
    /// The screen at that moment, rows escaped, trailing empty rows dropped.
    pub screen: String,
    /// Signs that the program is waiting for input.
    pub hints: Vec<String>,
}

impl Session {
    /// The screen for a message: a secret on it (drawn in pieces, a form of it) starred.
    pub(super) fn screen_report(&self) -> String {
        let screen = self.screen_without_secrets();
        let mut rows: Vec<String> = (0..screen.rows.len()).map(|r| screen.row_text(r)).collect();
        while rows.last().is_some_and(|r| r.is_empty()) {
            rows.pop();
        }
        let mut out = String::new();
        for (i, r) in rows.iter().enumerate() {
            out.push_str(&format!(
                "  {:>3} | {}\n",
                i + 1,
                escape_for_terminal(r, 400)
            ));
        }
        if rows.is_empty() {
            out.push_str("  (the screen is empty)\n");
        }
        out
    }

    pub(super) fn timeout_error(&self, what: &str, started: Instant) -> RecordError {
        let mut hints = Vec::new();
        let screen = self.screen_without_secrets();
        let last = (0..screen.rows.len())
            .rev()
            .map(|r| screen.row_text(r))
            .find(|t| !t.trim().is_empty())
            .unwrap_or_default();
        if looks_like_prompt(&last) {
            hints.push(format!(
                "the last line ends like a prompt: \"{}\"",
                escape_for_terminal(last.trim(), 80)
            ));
        }
        let idle = self.last_output.elapsed();
        if idle >= Duration::from_millis(500) {
            hints.push(format!("no output for {:.1}s", idle.as_secs_f64()));
        }
        if let Some(hint) = echo_hint(self.pty.echo_enabled(), self.pty.canonical()) {
            hints.push(hint.into());
        }
        RecordError::Timeout(Box::new(TimeoutDiagnosis {
            what: what.to_string(),
            waited: started.elapsed(),
            screen: self.screen_report(),
            hints,
        }))
    }

    pub(super) fn exited_error(&self, what: &str) -> RecordError {
        RecordError::Exited {
            what: what.to_string(),
            status: self.status.unwrap_or(255),
            screen: self.screen_report(),
        }
    }
}

/// The hint the terminal's modes give: echo off while lines are read is a password prompt;
/// a full-screen program in raw mode (no echo, keys one at a time) says nothing by it.
fn echo_hint(echo: Option<bool>, canonical: Option<bool>) -> Option<&'static str> {
    match (echo, canonical) {
        (Some(false), Some(true)) => {
            Some("echo is off while the program reads a line (a password prompt)")
        }
        _ => None,
    }
}

/// Whether a line ends the way prompts do.
pub fn looks_like_prompt(line: &str) -> bool {
    let l = line.trim_end();
    let endings = [
        "[y/N]", "[Y/n]", "[y/n]", "(y/n)", "(yes/no)", "[yes/no]", "?", ":", "(END)", "--More--",
        ">", "$", "#", "%", "]",
    ];
    endings.iter().any(|e| l.ends_with(e)) || l.to_lowercase().contains("password")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_line_read_without_echo_is_a_password_prompt() {
        assert!(echo_hint(Some(false), Some(true))
            .unwrap()
            .contains("password"));
        assert_eq!(echo_hint(Some(false), Some(false)), None, "raw mode");
        assert_eq!(echo_hint(Some(true), Some(true)), None);
        assert_eq!(echo_hint(None, None), None);
    }
}
