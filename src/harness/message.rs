//! The lines of `tuicast test --message-format json` as types ([`Message`]): what the CLI
//! writes, one JSON object per line, and what a tool reads back. With the `schema` feature
//! they give its schema (`tuicast schema test-message`); docs/agents.md describes each field.

use std::num::NonZeroU64;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::discover::Case;
use super::{CheckResult, LiveMode};
use crate::assert::{Outcome, Place};
use crate::location::FailureJson;
use crate::pos::Ordinal;

/// One line of `tuicast test --message-format json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(title = "tuicast test --message-format json line")
)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Message {
    /// One test's result.
    Test(TestRecord),
    /// The suite the next lines are about, when one run checks several.
    Suite {
        /// The suite's folder.
        suite: PathBuf,
    },
    /// A golden no checkpoint produces.
    Orphan {
        /// The golden.
        orphan: PathBuf,
        /// Whether `--remove-orphans` removed it.
        removed: bool,
    },
    /// A test `tuicast test --list` would run (it lists them without running any).
    Listed {
        /// The test.
        listed: ListedTest,
    },
    /// The last line: how many tests passed and failed.
    Summary {
        /// The counts.
        summary: Summary,
    },
}

/// The counts of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Summary {
    /// Tests that passed.
    pub passed: usize,
    /// Tests that failed.
    pub failed: usize,
}

impl Summary {
    /// `passed` and `failed` tests.
    pub fn new(passed: usize, failed: usize) -> Summary {
        Summary { passed, failed }
    }
}

/// One test of `tuicast test --list`: what would be checked, found as a run finds it (the
/// checkpoints of a case recorded live planned from its scenario), nothing replayed or
/// recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct ListedTest {
    /// The test's name, as a run's record names it: `cast::checkpoint`,
    /// `cast::checkpoint::NAME` for an expectation, or the cast alone when it cannot be read.
    pub test: String,
    /// The cast file (one that does not exist yet for a scenario without a cast).
    pub cast: PathBuf,
    /// The checkpoint (empty when the cast cannot be read).
    pub checkpoint: String,
    /// The expectation (`[[check.expect]]`'s name), for an expectation's test.
    pub expect: Option<String>,
    /// The cast line of its marker; `null` when it is not known before the run (a checkpoint
    /// planned from a scenario recorded live, a cast that does not read), never 0.
    pub line: Option<NonZeroU64>,
    /// Whether this run records the cast live from its scenario (instead of replaying it).
    pub live: bool,
    /// Why the cast or its scenario cannot be checked (the test then fails with it).
    pub error: Option<String>,
}

/// One test's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct TestRecord {
    /// The test's name: `cast::checkpoint`, `cast::checkpoint::NAME` for an expectation, or
    /// the cast alone when it could not be read.
    pub test: String,
    /// The cast file.
    pub cast: PathBuf,
    /// The checkpoint.
    pub checkpoint: String,
    /// The cast line of its marker (`null` when the cast did not parse), never 0.
    pub line: Option<NonZeroU64>,
    /// Its time in seconds.
    pub time: f64,
    /// Whether it passed.
    pub passed: bool,
    /// Why it could not be checked, or why an expectation failed.
    pub error: Option<String>,
    /// One per golden.
    pub snapshots: Vec<SnapshotRecord>,
    /// The failure message `tuicast test` prints for it (what differs, the golden, the
    /// checkpoint's cast line, the command that accepts or updates), when it failed.
    #[serde(default)]
    pub message: Option<String>,
    /// The failure as data, when it failed: its `kind` (`mismatch`, `missing-golden`,
    /// `timeout`, `exited`, `bad-input`, …), its place (for a golden: the golden's path, and
    /// the row and column of the first difference as `line` and `column`; for a live
    /// recording: the scenario's step), the screen and the fix.
    #[serde(default)]
    pub failure: Option<FailureJson>,
}

/// One golden's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct SnapshotRecord {
    /// The golden file.
    pub path: PathBuf,
    /// Its name, as `tuicast accept` takes it.
    pub name: String,
    /// What happened.
    pub status: SnapshotStatus,
    /// The row of the first difference (from 1).
    pub row: Option<Ordinal>,
    /// The column of the first difference (from 1).
    pub column: Option<Ordinal>,
    /// The header field that differs (`cursor`, `size`), for a difference there.
    pub field: Option<String>,
    /// One line per run of cells whose style changed.
    pub style_changes: Vec<String>,
    /// The golden's text, for a mismatch.
    pub expected: Option<String>,
    /// The screen's render, when it did not pass.
    pub actual: Option<String>,
    /// The `.new` file written.
    pub pending: Option<PathBuf>,
}

/// What happened to one golden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum SnapshotStatus {
    /// It matched.
    Pass,
    /// It was written now.
    Updated,
    /// It is missing.
    Missing,
    /// It differs.
    Mismatch,
}

impl ListedTest {
    /// The listing of a test known by its one result, as [`crate::harness::LEFTOVERS_TEST`]
    /// (its cast: the file it is named after).
    pub fn of_result(r: &CheckResult) -> ListedTest {
        ListedTest {
            test: r.test.clone(),
            cast: r.cast.clone(),
            checkpoint: r.checkpoint.clone(),
            expect: None,
            line: NonZeroU64::new(r.line),
            live: false,
            error: None,
        }
    }

    /// The tests of `case` in the order a run checks them (each checkpoint, then its
    /// expectations), as a run in the live mode `live` finds them; the one test of a case
    /// that cannot be read.
    pub fn of_case(case: &Case, live: LiveMode) -> Vec<ListedTest> {
        let recorded = live.records(case);
        let test = |test: String, checkpoint: &str, expect: Option<&str>, line: u64| ListedTest {
            test,
            cast: case.cast.clone(),
            checkpoint: checkpoint.to_string(),
            expect: expect.map(str::to_string),
            line: NonZeroU64::new(line),
            live: recorded,
            error: None,
        };
        match &case.checkpoints {
            Err(why) => vec![ListedTest {
                error: Some(why.to_string()),
                ..test(case.stem.clone(), "", None, 0)
            }],
            // A live recording is a test of its own, first (as [`Case::test_names`] says).
            Ok(infos) => recorded
                .then(|| test(case.stem.clone(), "", None, 0))
                .into_iter()
                .chain(infos.iter().flat_map(|i| {
                    let own = test(super::test_name(&case.stem, &i.name), &i.name, None, i.line);
                    std::iter::once(own).chain(case.expects_at(&i.name).map(move |e| {
                        let name = super::expect_test_name(&case.stem, &i.name, &e.id);
                        test(name, &i.name, Some(&e.id), i.line)
                    }))
                }))
                .collect(),
        }
    }
}

impl TestRecord {
    /// The record of one result, its message as a run in the default live mode gives it.
    pub fn of(r: &CheckResult) -> TestRecord {
        TestRecord::of_in(r, LiveMode::Auto)
    }

    /// The record of one result of a run in the live mode `live` (the commands its message
    /// suggests run in that mode, as [`CheckResult::message_in`]).
    pub fn of_in(r: &CheckResult, live: LiveMode) -> TestRecord {
        let snapshots = r
            .snapshots
            .iter()
            .map(|s| {
                let (status, expected, place, pending, style_changes) = match &s.outcome {
                    Outcome::Pass => (SnapshotStatus::Pass, None, None, None, Vec::new()),
                    Outcome::Updated => (SnapshotStatus::Updated, None, None, None, Vec::new()),
                    Outcome::Missing { pending } => (
                        SnapshotStatus::Missing,
                        None,
                        None,
                        pending.clone(),
                        Vec::new(),
                    ),
                    Outcome::Mismatch {
                        expected,
                        difference,
                        pending,
                    } => (
                        SnapshotStatus::Mismatch,
                        Some(expected.clone()),
                        Some(difference.place.clone()),
                        pending.clone(),
                        difference.style_changes.clone(),
                    ),
                };
                let (row, column, field) = match place {
                    Some(Place::Cell(at)) => (Some(at.row), Some(at.col), None),
                    Some(Place::Header(f)) => (None, None, Some(f)),
                    None => (None, None, None),
                };
                SnapshotRecord {
                    path: s.path.clone(),
                    name: s.name.clone(),
                    status,
                    row,
                    column,
                    field,
                    style_changes,
                    expected,
                    actual: (status != SnapshotStatus::Pass).then(|| s.actual.clone()),
                    pending,
                }
            })
            .collect();
        TestRecord {
            test: r.test.clone(),
            cast: r.cast.clone(),
            checkpoint: r.checkpoint.clone(),
            line: NonZeroU64::new(r.line),
            time: r.time,
            passed: r.passed(),
            error: r.error.clone(),
            snapshots,
            message: (!r.passed()).then(|| r.message_in(live)),
            failure: r.failure_in(live),
        }
    }
}

impl Message {
    /// The line as written: one JSON object, no newline.
    pub fn line(&self) -> String {
        // (Plain data of strings, numbers and lists: serializing it cannot fail.)
        serde_json::to_string(self).unwrap_or_default()
    }
}
