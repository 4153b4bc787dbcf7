//! What a check found and how it is told: [`CheckResult`] and [`SnapshotResult`], the failure
//! message of one checkpoint ([`CheckResult::message`], also the message of a failing trial
//! under `cargo test`), and [`Tally`], the libtest-shaped lines `tuicast test` prints.
//!
//! Under `cargo test` the harness's libtest runner (`libtest.rs`) prints the `running`,
//! `test … ok` and summary lines as libtest does; `tuicast test` prints them with [`Tally`],
//! in the same shape, with an `updated` status that libtest has no word for and a shorter summary.

use std::fmt::{self, Write as _};
use std::path::PathBuf;

use super::LiveMode;
use crate::assert::{self, Outcome, Place};

/// Why a trial failed, or a cast could not be checked: the message the test prints (the
/// golden, the first difference and the diff, the command that fixes it), with any text
/// taken from a cast or a file already escaped.
///
/// A message and no kind, unlike the library's errors: it is what a trial's check returns,
/// made from a `String` or `&str` by the checks a harness user writes (`Err("…".into())`, as
/// libtest-mimic's `Failed`); what failed, as data, is the [`CheckResult`] and its
/// [`Status`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(
    pub(crate) String,
    /// The failure as data, when its cause gave it (a live recording's step, a cast's place).
    pub(crate) Option<Box<crate::location::FailureJson>>,
);

impl Failure {
    /// The failure `data` as a message with its data.
    pub(crate) fn of_data(data: crate::location::FailureJson) -> Failure {
        Failure(data.message.clone(), Some(Box::new(data)))
    }

    /// What is wrong, as a sentence for a message.
    pub fn message(&self) -> &str {
        &self.0
    }

    /// The failure as data (its kind, place, screen and fix), when its cause gave them (a
    /// screen golden's mismatch, a live recording's step, a cast's place).
    pub fn data(&self) -> Option<&crate::location::FailureJson> {
        self.1.as_deref()
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

impl From<Failure> for String {
    fn from(e: Failure) -> String {
        e.0
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure(message, None)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure(message.to_string(), None)
    }
}

impl std::ops::Deref for Failure {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// The outcome of checking one checkpoint in every format.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CheckResult {
    /// `<cast>::<checkpoint>`.
    pub test: String,
    /// The cast file.
    pub cast: PathBuf,
    /// The checkpoint name.
    pub checkpoint: String,
    /// Cast line of the checkpoint's event (0 when the cast did not parse).
    pub line: u64,
    /// Time of the checkpoint.
    pub time: f64,
    /// One entry per format checked.
    pub snapshots: Vec<SnapshotResult>,
    /// Set when the checkpoint could not be checked at all (a malformed cast, a missing
    /// checkpoint); the message says why.
    pub error: Option<String>,
    /// Set with `error` when the checkpoint's input is bad, not its screen: a golden that is a
    /// symbolic link, no regular file or too large. `tuicast test` then exits with status 2.
    pub bad_input: bool,
    /// Set with `error` when its cause is known as data (a live recording's failed step, an
    /// expectation): what [`CheckResult::failure_in`] reports.
    pub failure: Option<crate::location::FailureJson>,
}

/// One golden file's outcome.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SnapshotResult {
    /// The golden file.
    pub path: PathBuf,
    /// The golden's name relative to the snapshots folder (what `tuicast accept` takes).
    pub name: String,
    /// The golden's format, which says how the report shows it: a region golden's is
    /// [`Format::Text`](assert::Format::Text); `None` for the image of a `[[screenshot]]`,
    /// whose format is the screenshot's.
    pub format: Option<assert::Format>,
    /// Pass, updated, missing or mismatch.
    pub outcome: Outcome,
    /// The actual render.
    pub actual: String,
}

/// How many lines a render's header takes (`---`, its fields, `---`); 0 without one.
/// The line and column of a golden file (its text `expected`) where it first differs at
/// `place` (0: not known).
pub(super) fn golden_line(expected: &str, place: &Place) -> (u64, u64) {
    match place {
        Place::Cell(at) => {
            let line = header_lines(expected) + at.row.get();
            (line as u64, at.col.get() as u64)
        }
        Place::Header(field) => {
            let line = expected
                .lines()
                .take(header_lines(expected))
                .position(|l| l.starts_with(&format!("{field}:")));
            (line.map_or(0, |i| i as u64 + 1), 0)
        }
    }
}

/// How many lines of `text` (a render) are its header (`---` lines).
pub(super) fn header_lines(text: &str) -> usize {
    let mut lines = text.lines();
    if lines.next() != Some("---") {
        return 0;
    }
    lines.position(|l| l == "---").map_or(0, |i| i + 2)
}

/// A result in one word, as a test line shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Status {
    /// Every golden matched.
    Ok,
    /// Every golden matched or was written now (`TUICAST_UPDATE=always`, `--update`).
    Updated,
    /// A golden is missing or differs, or the checkpoint could not be checked.
    Failed,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Ok => "ok",
            Status::Updated => "updated",
            Status::Failed => "FAILED",
        })
    }
}

impl CheckResult {
    /// The result of checkpoint `checkpoint` of `cast` named `test`, with nothing checked
    /// yet (no snapshot, no error; line and time 0): the fields are filled as checks run.
    pub fn new(
        test: impl Into<String>,
        cast: impl Into<PathBuf>,
        checkpoint: impl Into<String>,
    ) -> CheckResult {
        CheckResult {
            test: test.into(),
            cast: cast.into(),
            checkpoint: checkpoint.into(),
            line: 0,
            time: 0.0,
            snapshots: Vec::new(),
            error: None,
            bad_input: false,
            failure: None,
        }
    }

    /// True when every snapshot passed and nothing went wrong.
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.snapshots.iter().all(|s| s.outcome.passed())
    }

    /// `ok`, `updated` (a golden was written) or `FAILED`.
    pub fn status(&self) -> Status {
        if !self.passed() {
            Status::Failed
        } else if self
            .snapshots
            .iter()
            .any(|s| matches!(s.outcome, Outcome::Updated))
        {
            Status::Updated
        } else {
            Status::Ok
        }
    }

    /// The failure report: short, escaped, ending with the command that accepts the change.
    pub fn message(&self) -> String {
        self.message_in(LiveMode::Auto)
    }

    /// [`CheckResult::message`] for a run in the live mode `live`: a command it suggests runs
    /// in the same mode (`TUICAST_LIVE=1 …`, `tuicast test --live …`).
    pub fn message_in(&self, live: LiveMode) -> String {
        let mut out = String::new();
        if let Some(e) = &self.error {
            let _ = writeln!(out, "{e}");
            return out;
        }
        let mut accept = Vec::new();
        for s in &self.snapshots {
            let pending = match &s.outcome {
                Outcome::Pass | Outcome::Updated => continue,
                Outcome::Missing { pending } => {
                    let _ = writeln!(out, "snapshot missing: {}", assert::shown_path(&s.path));
                    let _ = writeln!(out, "{}", self.place());
                    pending
                }
                Outcome::Mismatch {
                    difference,
                    pending,
                    ..
                } => {
                    let _ = writeln!(out, "snapshot mismatch: {}", assert::shown_path(&s.path));
                    let _ = writeln!(out, "{}", self.place());
                    match &difference.place {
                        Place::Cell(at) => {
                            let _ = writeln!(out, "  first difference: {at}");
                        }
                        Place::Header(field) => {
                            let _ = writeln!(out, "  first difference: {field}");
                        }
                    }
                    for change in &difference.style_changes {
                        let _ = writeln!(out, "  style: {change}");
                    }
                    out.push_str(&difference.diff);
                    pending
                }
            };
            match pending {
                Some(p) => {
                    let _ = writeln!(
                        out,
                        "  the actual screen was written to {}",
                        assert::shown_path(p)
                    );
                    accept.push(s.name.clone());
                }
                None => {
                    let _ = writeln!(
                        out,
                        "  nothing was written ({}=no; CI is set or asked for)",
                        assert::UPDATE_ENV
                    );
                }
            }
        }
        if let Some(fix) = self.fix_in(live) {
            let verb = if accept.is_empty() {
                "update"
            } else {
                "accept"
            };
            let _ = writeln!(out, "to {verb}: {fix}");
        }
        out
    }

    /// The command that fixes a failed snapshot check in the live mode `live`: `tuicast
    /// accept NAMES` for the goldens a `.new` file was written for, else the update run;
    /// `None` when the result passed or could not be checked (`error`).
    fn fix_in(&self, live: LiveMode) -> Option<String> {
        if self.error.is_some() || self.passed() {
            return None;
        }
        let accept: Vec<&str> = self
            .snapshots
            .iter()
            .filter(|s| match &s.outcome {
                Outcome::Missing { pending } | Outcome::Mismatch { pending, .. } => {
                    pending.is_some()
                }
                _ => false,
            })
            .map(|s| s.name.as_str())
            .collect();
        let (env, flag) = live.command_parts();
        Some(if accept.is_empty() {
            format!(
                "{}=always {env}cargo test, or tuicast test {flag}--update",
                assert::UPDATE_ENV
            )
        } else {
            format!(
                "tuicast accept {}",
                crate::escape::shell_words(
                    accept
                        .iter()
                        .map(|a| crate::escape::escape_for_terminal(a, 300))
                )
            )
        })
    }

    /// The failure as data, in the live mode `live` (its fix's command runs in it); `None`
    /// when it passed. A check that could not run is `bad-input` or `error` at the cast (its
    /// line when known), or the failure its cause gave ([`CheckResult::failure`]); a golden's
    /// is `mismatch` at the golden file's line and column of the first difference (a
    /// header field's line for a difference there), or `missing-golden`, with the actual
    /// screen's rows and the accept or update command.
    pub fn failure_in(&self, live: LiveMode) -> Option<crate::location::FailureJson> {
        use crate::location::{FailureJson, FailureKind};
        if self.passed() {
            return None;
        }
        if let Some(f) = &self.failure {
            return Some(f.clone());
        }
        if let Some(e) = &self.error {
            let kind = if self.bad_input {
                FailureKind::BadInput
            } else {
                FailureKind::Error
            };
            return Some(FailureJson::new(kind, e.clone()).at(&self.cast, self.line, 0));
        }
        let message = self.message_in(live);
        let fix = self.fix_in(live);
        let s = self.snapshots.iter().find(|s| !s.outcome.passed())?;
        // The render's rows come after its header (`---` lines), as in the golden.
        let header = header_lines(&s.actual);
        let failure = match &s.outcome {
            Outcome::Mismatch {
                difference,
                expected,
                ..
            } => {
                let (line, col) = golden_line(expected, &difference.place);
                FailureJson::new(FailureKind::Mismatch, message).at(&s.path, line, col)
            }
            _ => FailureJson::new(FailureKind::MissingGolden, message).at(&s.path, 0, 0),
        };
        let failure = failure.screen(s.actual.lines().skip(header));
        Some(match fix {
            Some(fix) => failure.fix(fix),
            None => failure,
        })
    }

    /// `  checkpoint "NAME" of CAST:LINE at TIMEs`: where a failing snapshot comes from.
    fn place(&self) -> String {
        format!(
            "  checkpoint {:?} of {}:{} at {:.3}s",
            crate::escape::escape_for_terminal(&self.checkpoint, 100),
            assert::shown_path(&self.cast),
            self.line,
            self.time
        )
    }
}

/// The console tally of a run of checks (not the HTML report: that is `crate::report`), in
/// libtest's shape: a title, one line per result as it comes, then the failures with their
/// messages and a summary. Results are counted as they are added; only failures are kept.
///
/// ```
/// use tuicast::harness::{CheckResult, Tally};
///
/// let mut ok = CheckResult::new("demo::end", "casts/demo.cast", "end");
/// ok.line = 3;
/// let mut report = Tally::default();
/// assert_eq!(Tally::title(1), "running 1 test\n");
/// assert_eq!(report.add(ok), "test demo::end ... ok\n");
/// assert_eq!(report.failures(), "");
/// assert_eq!(report.summary(), "\n1 passed, 0 failed\n");
/// ```
#[derive(Debug, Default)]
pub struct Tally {
    passed: usize,
    updated: usize,
    failed: Vec<CheckResult>,
    live: LiveMode,
}

impl Tally {
    /// `running N tests`: the first line, before any check runs.
    pub fn title(total: usize) -> String {
        format!(
            "running {total} test{}\n",
            if total == 1 { "" } else { "s" }
        )
    }

    /// The same report for a run in the live mode `live` (the commands its messages suggest).
    pub fn live(self, live: LiveMode) -> Tally {
        Tally { live, ..self }
    }

    /// The line of one result, `test NAME ... ok|updated|FAILED`, as [`Tally::line`]; the
    /// result is counted, and kept for [`Tally::failures`] when it failed.
    pub fn add(&mut self, result: CheckResult) -> String {
        let line = Tally::line(&result);
        self.count(result);
        line
    }

    /// Counts a result without a line (for reports in another format).
    pub fn count(&mut self, result: CheckResult) {
        if result.passed() {
            self.passed += 1;
            self.updated += usize::from(result.status() == Status::Updated);
        } else {
            self.failed.push(result);
        }
    }

    /// `test NAME ... ok|updated|FAILED`.
    pub fn line(result: &CheckResult) -> String {
        format!("test {} ... {}\n", result.test, result.status())
    }

    /// How many results passed.
    pub fn passed(&self) -> usize {
        self.passed
    }

    /// The results that failed, in the order they were added.
    pub fn failed(&self) -> &[CheckResult] {
        &self.failed
    }

    /// The failures section: `failures:`, then `---- NAME ----` and the message of each
    /// failed result. Empty when nothing failed.
    pub fn failures(&self) -> String {
        let mut out = String::new();
        if self.failed.is_empty() {
            return out;
        }
        out.push_str("\nfailures:\n\n");
        for r in &self.failed {
            let _ = writeln!(out, "---- {} ----\n{}", r.test, r.message_in(self.live));
        }
        out
    }

    /// The last line: `N passed, M failed` (`N passed (K updated), M failed` when some passed
    /// by writing their goldens), after a blank line.
    pub fn summary(&self) -> String {
        let updated = if self.updated > 0 {
            format!(" ({} updated)", self.updated)
        } else {
            String::new()
        };
        format!(
            "\n{} passed{updated}, {} failed\n",
            self.passed,
            self.failed.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(test: &str, outcome: Option<Outcome>, error: Option<&str>) -> CheckResult {
        CheckResult {
            test: test.into(),
            cast: "casts/demo.cast".into(),
            checkpoint: test.rsplit("::").next().unwrap().into(),
            line: 7,
            time: 1.25,
            snapshots: outcome
                .into_iter()
                .map(|outcome| SnapshotResult {
                    path: "snapshots/demo/end.txt".into(),
                    name: "demo/end.txt".into(),
                    format: Some(assert::Format::Text),
                    outcome,
                    actual: "actual\n".into(),
                })
                .collect(),
            error: error.map(String::from),
            bad_input: false,
            failure: None,
        }
    }

    #[test]
    fn the_report_has_libtests_shape_with_an_updated_status() {
        let mut report = Tally::default();
        let mut out = Tally::title(4);
        out += &report.add(result("demo::first", Some(Outcome::Pass), None));
        out += &report.add(result("demo::end", Some(Outcome::Updated), None));
        let missing = Outcome::Missing {
            pending: Some("snapshots/demo/end.txt.new".into()),
        };
        out += &report.add(result("demo::gone", Some(missing), None));
        out += &report.add(result("bad", None, Some("casts/bad.cast:2:1: no")));
        out += &report.failures();
        out += &report.summary();
        assert_eq!(
            out,
            "running 4 tests\n\
             test demo::first ... ok\n\
             test demo::end ... updated\n\
             test demo::gone ... FAILED\n\
             test bad ... FAILED\n\
             \n\
             failures:\n\
             \n\
             ---- demo::gone ----\n\
             snapshot missing: snapshots/demo/end.txt\n  \
             checkpoint \"gone\" of casts/demo.cast:7 at 1.250s\n  \
             the actual screen was written to snapshots/demo/end.txt.new\n\
             to accept: tuicast accept demo/end.txt\n\
             \n\
             ---- bad ----\n\
             casts/bad.cast:2:1: no\n\
             \n\
             \n\
             2 passed (1 updated), 2 failed\n"
        );
        assert_eq!(report.passed(), 2);
        let failed: Vec<&str> = report.failed().iter().map(|r| r.test.as_str()).collect();
        assert_eq!(failed, ["demo::gone", "bad"]);
        assert_eq!(Tally::title(1), "running 1 test\n");
        assert_eq!(Tally::title(0), "running 0 tests\n");
    }

    #[test]
    fn results_counted_without_lines_still_make_the_summary() {
        let mut report = Tally::default();
        report.count(result("demo::end", Some(Outcome::Pass), None));
        report.count(result(
            "demo::gone",
            Some(Outcome::Missing { pending: None }),
            None,
        ));
        assert_eq!(report.summary(), "\n1 passed, 1 failed\n");
        let message = report.failed()[0].message();
        assert!(
            message.ends_with(
                "  nothing was written (TUICAST_UPDATE=no; CI is set or asked for)\n\
                 to update: TUICAST_UPDATE=always cargo test, or tuicast test --update\n"
            ),
            "{message}"
        );
    }
}
