//! The journal of a session driven step by step (by an agent through `tuicast session`, or by
//! a person recording by hand): the steps that ran, in order, and where an input was followed
//! by no wait, the wait inferred from what changed on the screen — so that the steps, run
//! again as a scenario, reproduce the session.
//!
//! The inference, for the screen before an input and the screen when the next step came:
//!
//! 1. where the cursor's row changed (what appeared last): a piece of it that the earlier
//!    screen did not hold anywhere (the row's new end, else the whole row, else a stretch
//!    without digits; at most 40 characters; pieces without digits first, so that clocks and
//!    counters are avoided), as `{ wait = "…" }`;
//! 2. else the rows up to the cursor's, as whole lines (a shell prompt like an earlier one,
//!    after the output above it), `{ wait = { regex = "(?m)^…$" } }`;
//! 3. else such a piece of another changed row (nearest the cursor first);
//! 4. else a changed row as a whole line no row of the earlier screen was;
//! 5. else text that went away, `{ wait = { gone = "…" } }`;
//! 6. else the screen settling, `{ wait = { idle = "…" } }`.
//!
//! Uses only `term`.

use std::time::Duration;

use regex::Regex;

use super::scenario::{Action, Step, Wait};
use crate::term::Screen;

/// The idle wait inferred when nothing on the screen tells what to wait for.
pub const INFERRED_IDLE: Duration = Duration::from_millis(300);

/// The longest text piece an inferred wait looks for.
const MAX_PIECE: usize = 40;

/// The most steps a journal keeps (a session longer than this stops adding to its scenario).
pub const MAX_STEPS: usize = 100_000;

/// The steps of a session and the inferred waits between them. See the module docs.
#[derive(Debug, Default)]
pub struct Journal {
    steps: Vec<Step>,
    /// The rows before the last input no wait has followed yet.
    pending: Option<Vec<String>>,
    /// Consecutive `type` steps become one, and consecutive `press` steps too (a person's
    /// keystrokes), instead of one step per key with waits between them.
    merge: bool,
    /// Whether the step limit was reached.
    full: bool,
}

impl Journal {
    /// An empty journal; `merge`: consecutive keystrokes of one kind become one step (for a
    /// person at the keyboard; an agent's commands stay one step each).
    pub fn new(merge: bool) -> Journal {
        Journal {
            merge,
            ..Journal::default()
        }
    }

    /// Notes the screen when the program started: the first input then waits for what the
    /// program showed before it (its first prompt).
    pub fn started(&mut self, screen: &Screen) {
        self.pending = Some(rows(screen));
    }

    /// Notes that `step` ran successfully: `before` is the screen just before it ran,
    /// `after` the screen when it ended (a checkpoint's settled screen).
    pub fn record(&mut self, step: Step, before: &Screen, after: &Screen) {
        if self.steps.len() >= MAX_STEPS {
            self.full = true;
            return;
        }
        match &step.action {
            Action::Snapshot(_) => {
                if let Some(earlier) = self.pending.take() {
                    self.steps
                        .push(Step::new(Action::Wait(infer_wait(&earlier, after))));
                }
            }
            // A screen's hash is this recording's: a recording again waits for what the
            // change showed instead.
            Action::Wait(Wait::Changed(_)) => {
                self.pending = None;
                self.steps
                    .push(Step::new(Action::Wait(infer_wait(&rows(before), after))));
                return;
            }
            // Input (`Action::is_input`, an exhaustive match): the screen it changes is
            // waited for before the next step.
            input if input.is_input() => {
                if self.merge && self.pending.is_some() {
                    if let (Some(last), true) = (self.steps.last_mut(), step.timeout.is_none()) {
                        match (&mut last.action, &step.action) {
                            (Action::Type(a), Action::Type(b)) => {
                                a.push_str(b);
                                return;
                            }
                            (Action::Press(a), Action::Press(b)) => {
                                a.extend(b.iter().cloned());
                                return;
                            }
                            _ => {}
                        }
                    }
                }
                if let Some(earlier) = self.pending.take() {
                    self.steps
                        .push(Step::new(Action::Wait(infer_wait(&earlier, before))));
                }
                self.pending = Some(rows(before));
            }
            // A wait, an exit, a sleep: nothing was sent whose effect needs a wait.
            _ => self.pending = None,
        }
        self.steps.push(step);
    }

    /// The steps so far (without the wait the last input may still need).
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Whether steps were dropped because the journal held [`MAX_STEPS`].
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// The steps that reproduce the session: `last` is the final screen, `exited` the
    /// program's status when it ended by itself (an `exit` step then ends the steps, so the
    /// replay waits for the program as the session did).
    pub fn finish(mut self, last: &Screen, exited: Option<i32>) -> Vec<Step> {
        let ends_with_exit =
            matches!(self.steps.last(), Some(s) if matches!(s.action, Action::Exit(_)));
        match (exited, self.pending.take()) {
            (Some(status), _) if !ends_with_exit => {
                self.steps.push(Step::new(Action::Exit(Some(status))));
            }
            (None, Some(earlier)) => {
                self.steps
                    .push(Step::new(Action::Wait(infer_wait(&earlier, last))));
            }
            _ => {}
        }
        self.steps
    }
}

/// The screen's rows as text.
fn rows(screen: &Screen) -> Vec<String> {
    (0..screen.rows.len()).map(|r| screen.row_text(r)).collect()
}

/// The first `max` characters of `s`.
fn cut(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// What to wait for so that a replay reaches `after` from `before` (the rows of the earlier
/// screen). See the module docs.
pub fn infer_wait(before: &[String], after: &Screen) -> Wait {
    let now = rows(after);
    let before_text = before.join("\n");
    let after_text = after.text();
    let cursor = (after.cursor.row as usize).min(now.len().saturating_sub(1));
    let clock = Regex::new(r"\d:\d\d").expect("a valid regex");
    let no_digits = Regex::new(r"[^\d]+").expect("a valid regex");
    let changed_row = |r: usize| before.get(r).map(|b| b.trim_end()) != Some(now[r].trim_end());
    // Changed rows, the cursor's first, then by distance from it (below before above).
    let mut changed: Vec<usize> = (0..now.len()).filter(|&r| changed_row(r)).collect();
    changed.sort_by_key(|&r| (r.abs_diff(cursor), r < cursor));
    let pieces_of = |r: usize| -> Vec<&str> {
        let line = now[r].trim_end();
        let old = before.get(r).map(String::as_str).unwrap_or("");
        let common = line
            .char_indices()
            .zip(old.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, c), _)| i + c.len_utf8());
        // The new end, the whole row, then its stretches without digits (a clock cut out).
        let stretches = no_digits.find_iter(line).map(|m| m.as_str());
        let mut pieces = Vec::new();
        for piece in [line[common..].trim(), line.trim()]
            .into_iter()
            .chain(stretches)
        {
            let piece = cut(piece, MAX_PIECE).trim();
            if piece.chars().count() >= 2
                && piece.chars().any(char::is_alphanumeric)
                && !pieces.contains(&piece)
                && !before_text.contains(piece)
                && after_text.contains(piece)
            {
                pieces.push(piece);
            }
        }
        pieces
    };
    let steady = |p: &&&str| !p.chars().any(|c| c.is_ascii_digit());
    // 1. What appeared last — where the cursor is — when it is new text.
    if changed_row(cursor) {
        let pieces = pieces_of(cursor);
        if let Some(p) = pieces
            .iter()
            .find(steady)
            .or_else(|| pieces.iter().find(|p| !clock.is_match(p)))
        {
            return Wait::Text(p.to_string());
        }
        // 2. The rows up to the cursor's, as lines, when the cursor's row alone is not new
        //    (a shell prompt like the one before).
        for k in 0..cursor.min(5) + 1 {
            let lines: Vec<&str> = now[cursor - k..=cursor].iter().map(|l| l.trim()).collect();
            if lines.iter().any(|l| clock.is_match(l))
                || lines.iter().map(|l| l.chars().count()).sum::<usize>() > 3 * MAX_PIECE
            {
                break;
            }
            let body: Vec<String> = lines
                .iter()
                .map(|l| format!("^ *{} *", regex::escape(l)))
                .collect();
            let pattern = format!("(?m){}$", body.join("\n"));
            if let Ok(re) = Regex::new(&pattern) {
                if !re.is_match(&before_text) && re.is_match(&after_text) {
                    return Wait::Regex(re);
                }
            }
        }
    }
    // 3. New text elsewhere.
    let pieces: Vec<&str> = changed.iter().flat_map(|&r| pieces_of(r)).collect();
    if let Some(p) = pieces
        .iter()
        .find(steady)
        .or_else(|| pieces.iter().find(|p| !clock.is_match(p)))
    {
        return Wait::Text(p.to_string());
    }
    // 4. A whole row that no earlier row was (its text is elsewhere on the earlier screen).
    for &r in &changed {
        let line = now[r].trim();
        if line.is_empty() || line.chars().count() > MAX_PIECE || clock.is_match(line) {
            continue;
        }
        let pattern = format!("(?m)^ *{} *$", regex::escape(line));
        if let Ok(re) = Regex::new(&pattern) {
            if !re.is_match(&before_text) && re.is_match(&after_text) {
                return Wait::Regex(re);
            }
        }
    }
    // 5. Text that went away.
    for (r, old) in before.iter().enumerate() {
        if now.get(r).map(|n| n.trim_end()) == Some(old.trim_end()) {
            continue;
        }
        let piece = cut(old.trim(), MAX_PIECE).trim();
        if piece.chars().count() >= 2 && !after_text.contains(piece) {
            return Wait::Gone(piece.to_string());
        }
    }
    Wait::Idle(INFERRED_IDLE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{EngineKind, Size};

    fn screen(output: &str) -> Screen {
        let mut e = EngineKind::Native.create(Size { cols: 40, rows: 6 });
        e.feed(output);
        e.screen()
    }

    #[test]
    fn new_text_is_waited_for_and_old_text_is_not() {
        let before = rows(&screen("$ "));
        let w = infer_wait(&before, &screen("$ ls\r\nREADME.md  src\r\n$ "));
        // The prompt is where the cursor is, but it was there before: the lines up to it.
        assert!(
            matches!(&w, Wait::Regex(r) if r.is_match("$ ls\nREADME.md  src\n$") && !r.is_match("$ ")),
            "{w:?}"
        );
        let w = infer_wait(&before, &screen("$ ls\r\nREADME.md  src\r\nready> "));
        assert!(matches!(&w, Wait::Text(t) if t == "ready>"), "{w:?}");
        // The echo of the command holds "hi": the output row is waited for as a whole line.
        let before = rows(&screen("$ echo hi"));
        let w = infer_wait(&before, &screen("$ echo hi\r\nhi\r\n$ "));
        assert!(
            matches!(&w, Wait::Regex(r) if r.is_match("x\nhi\n$") && !r.is_match("$ echo hi")),
            "{w:?}"
        );
    }

    #[test]
    fn clocks_are_avoided_and_nothing_new_is_settling_or_gone() {
        let before = rows(&screen("menu"));
        let w = infer_wait(&before, &screen("menu\r\n12:30 Saved"));
        assert!(matches!(&w, Wait::Text(t) if t == "Saved"), "{w:?}");
        let before = rows(&screen("-- INSERT --"));
        let w = infer_wait(&before, &screen(""));
        assert!(matches!(&w, Wait::Gone(t) if t == "-- INSERT --"), "{w:?}");
        let before = rows(&screen("same"));
        let w = infer_wait(&before, &screen("same"));
        assert!(matches!(w, Wait::Idle(d) if d == INFERRED_IDLE), "{w:?}");
    }

    #[test]
    fn inputs_get_the_inferred_waits_and_keystrokes_merge_when_asked() {
        let (a, b, c) = (screen("$ "), screen("$ x"), screen("$ x\r\nok\r\n$ "));
        let mut j = Journal::new(true);
        j.record(Step::new(Action::Type("x".into())), &a, &b);
        j.record(Step::new(Action::Type("y".into())), &b, &b);
        j.record(Step::new(Action::Press(vec!["Enter".into()])), &b, &c);
        let steps = j.finish(&c, Some(0));
        let shown: Vec<String> = steps.iter().map(Step::describe).collect();
        assert_eq!(
            shown,
            [
                "type \"xy\"",
                "wait for \"$ x\"",
                "press Enter",
                "wait for exit 0"
            ]
        );
        let mut j = Journal::new(false);
        j.record(Step::new(Action::Type("x".into())), &a, &b);
        j.record(Step::new(Action::Wait(Wait::Text("x".into()))), &b, &b);
        j.record(Step::new(Action::Press(vec!["Enter".into()])), &b, &c);
        let shown: Vec<String> = j.finish(&c, None).iter().map(Step::describe).collect();
        assert_eq!(
            shown,
            [
                "type \"x\"",
                "wait for \"x\"",
                "press Enter",
                "wait for /(?m)^ *\\\\$ *$/"
            ]
        );
    }
}
