//! The `cargo test` side: [`main`] for a `harness = false` test target, [`trials`] (one per
//! checkpoint, one replay per cast shared by its trials), and the test names they carry.
//!
//! The first trial of a cast to run checks the whole cast in one replay; the others read its
//! cached outcomes. Each `[[check.expect]]` is one more trial at each checkpoint it is checked at
//! ([`expect_test_name`]).

use super::Failure;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::check::{case_lead, check_replay, failed_once, missing, recording};
use super::driver::{finish_report, report_case, report_screenshot, Suite};
use super::libtest::Trial;
use super::live::{LiveMode, LiveModeError};
use super::{use_color, CheckResult, Options, LEFTOVERS_TEST};
use crate::assert::UpdateAction;
use crate::config::Config;
use crate::report::ReportDir;

/// The harness entry point for `tests/*.rs` with `harness = false`: reads `tuicast.toml`,
/// makes one libtest trial per checkpoint and exits with libtest's status.
pub fn main() -> ! {
    // Before any thread exists: a signal during a live recording ends it cleanly (its
    // program's whole session, its temporary HOME); with no recording alive it ends the
    // process at once, as without this.
    if let Err(e) = crate::record::interrupt::install() {
        eprintln!("warning: cannot set up signal handling: {e}");
    }
    let args = super::libtest::Arguments::from_args();
    let updated = Updated::default();
    let (trials, broken) = match suite(&updated) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(101);
        }
    };
    // A broken cast or scenario is a failing trial named after its cast; a filter that
    // leaves it out must not make the run pass as if it were fine.
    let filtered_broken: Vec<Failure> = broken
        .into_iter()
        .filter(|(name, _)| !args.selects(name))
        .map(|(_, why)| why)
        .collect();
    let conclusion = super::libtest::run(&args, trials);
    // (nextest runs each test alone with `--exact`, the broken one included: not then.)
    let nextest = std::env::var_os("NEXTEST_RUN_ID").is_some_and(|v| !v.is_empty());
    if !filtered_broken.is_empty() && !args.list && !nextest {
        // The trials that ran are in the JUnit file even so (CI reads it after a failure).
        write_junit();
        for why in &filtered_broken {
            eprintln!("error (filtered out, but broken): {why}");
        }
        eprintln!(
            "error: {} cast(s) or scenario(s) cannot be checked; the filter does not make them pass",
            filtered_broken.len()
        );
        std::process::exit(101);
    }
    // libtest says `ok` for a trial that wrote its goldens: say which did, as `tuicast test`
    // says `updated`.
    let updated = std::mem::take(&mut *updated.lock().unwrap_or_else(|e| e.into_inner()));
    if !updated.is_empty() {
        let mut names = updated;
        names.sort();
        eprintln!(
            "updated: {} trial(s) wrote their goldens (TUICAST_UPDATE=always): {}",
            names.len(),
            crate::escape::escape_for_terminal(&names.join(", "), 2000)
        );
    }
    // Each process (one per test under nextest) adds its results, then the page is made
    // again from all of them (`TUICAST_REPORT`). GitHub's step summary is not written here:
    // a run of many processes has no last one, so `tuicast report DIR` writes it (action.yml).
    if let Some(report) = ReportDir::from_env() {
        if !args.list {
            match finish_report(&report, false) {
                Ok(line) => eprintln!("{line}"),
                Err(e) => eprintln!("warning: {e}"),
            }
        }
    }
    if !args.list {
        write_junit();
        // Orphaned goldens and interrupted writes, in the words `tuicast test` uses.
        let note = std::mem::take(&mut *NOTE.lock().unwrap_or_else(|e| e.into_inner()));
        if !note.is_empty() && !nextest {
            eprint!("{note}");
        }
    }
    if let Some(signal) = crate::record::interrupt::requested() {
        eprintln!(
            "interrupted by {}: the recordings were ended",
            crate::record::interrupt::signal_name(signal)
        );
        std::process::exit(crate::record::interrupt::exit_status(signal));
    }
    conclusion.exit()
}

/// The note on leftovers of the snapshots folder, printed after the run
/// ([`super::Leftovers::note`]).
static NOTE: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// The trials this process ran, for the JUnit file (only kept when `TUICAST_JUNIT` is set).
static JUNIT: std::sync::Mutex<Vec<super::junit::JunitCase>> = std::sync::Mutex::new(Vec::new());

/// The JUnit file `TUICAST_JUNIT` names, made absolute from the folder the run started in
/// (looked up once).
fn junit_path() -> Option<&'static std::path::Path> {
    static PATH: OnceLock<Option<std::path::PathBuf>> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = std::env::var_os(super::junit::JUNIT_ENV).filter(|v| !v.is_empty())?;
        Some(std::env::current_dir().ok()?.join(path))
    })
    .as_deref()
}

/// Notes a finished trial for the JUnit file, when one is written.
fn junit_note(case: super::junit::JunitCase) {
    if junit_path().is_some() {
        JUNIT.lock().unwrap_or_else(|e| e.into_inner()).push(case);
    }
}

/// Adds this process's trials to the run's JUnit file, when `TUICAST_JUNIT` names one.
fn write_junit() {
    let Some(path) = junit_path() else { return };
    let cases = std::mem::take(&mut *JUNIT.lock().unwrap_or_else(|e| e.into_inner()));
    match super::junit::add_to_file(path, &super::junit::run_key(), &cases) {
        Ok(()) => eprintln!(
            "junit: {}",
            crate::escape::escape_for_terminal(&path.display().to_string(), 500)
        ),
        Err(e) => eprintln!("warning: {e}"),
    }
}

/// Why the harness cannot start: the project's `tuicast.toml` or `TUICAST_UPDATE` is wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum HarnessError {
    /// `tuicast.toml` did not read.
    Config(crate::config::ConfigError),
    /// `TUICAST_UPDATE` is not an update mode.
    Update(crate::assert::UpdateModeError),
    /// `TUICAST_LIVE` is neither `1` nor `0`.
    Live(LiveModeError),
    /// The snapshots folder could not be searched for goldens no cast produces.
    Leftovers(std::io::Error),
}

impl std::fmt::Display for HarnessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HarnessError::Config(e) => e.fmt(f),
            HarnessError::Update(e) => e.fmt(f),
            HarnessError::Live(e) => e.fmt(f),
            HarnessError::Leftovers(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for HarnessError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HarnessError::Config(e) => Some(e),
            HarnessError::Update(e) => Some(e),
            HarnessError::Live(e) => Some(e),
            HarnessError::Leftovers(e) => Some(e),
        }
    }
}

/// The trials of the project's suite, one per checkpoint, sharing one replay per cast.
pub fn trials() -> Result<Vec<Trial>, HarnessError> {
    suite(&Updated::default()).map(|(trials, _)| trials)
}

/// A case that cannot be checked: its trial's name, and why.
type Broken = (String, Failure);

/// The trials that passed by writing their goldens, by name (libtest says only `ok`).
type Updated = Arc<std::sync::Mutex<Vec<String>>>;

/// [`trials`], each noting in `updated` when it wrote its goldens, and the cases that cannot
/// be checked: (trial name, why).
fn suite(updated: &Updated) -> Result<(Vec<Trial>, Vec<Broken>), HarnessError> {
    let mut broken = Vec::new();
    let config = Config::discover().map_err(HarnessError::Config)?;
    let opts = Options {
        update: UpdateAction::from_env().map_err(HarnessError::Update)?,
        color: use_color(std::io::IsTerminal::is_terminal(&std::io::stdout())),
        live: LiveMode::from_env().map_err(HarnessError::Live)?,
    };
    let report = ReportDir::from_env().map(Arc::new);
    let mut trials = Vec::new();
    let mut suite = Suite::open(config, &[], opts.live).map_err(HarnessError::Leftovers)?;
    let cases = std::mem::take(&mut suite.cases);
    let suite = Arc::new(suite);
    // Goldens no cast produces: those of casts that are gone fail as a test of their own (a
    // moved suite otherwise runs no test and passes); the others are a note after the run.
    if let Some(result) = suite.gone() {
        let suite = suite.clone();
        trials.push(Trial::test(LEFTOVERS_TEST, move || {
            junit_note(suite.junit_case(&result, 0.0));
            Err(result.message_in(opts.live).into())
        }));
    }
    *NOTE.lock().unwrap_or_else(|e| e.into_inner()) = suite.leftovers_note();
    if let Some(note) = suite.unrecorded_note(&format!("{}=1", super::LIVE_ENV), &cases) {
        super::live::warn_once("replayed-without-scenario", &note);
    }
    for case in cases {
        let case = Arc::new(case);
        let infos = match &case.checkpoints {
            Ok(infos) => infos.clone(),
            Err(e) => {
                let e = e.clone();
                broken.push((case.stem.clone(), e.clone()));
                let (suite, case, report) = (suite.clone(), case.clone(), report.clone());
                trials.push(Trial::test(case.stem.clone(), move || {
                    let result = super::check::broken_by(&case, &e);
                    if let Some(report) = &report {
                        let results = std::slice::from_ref(&result);
                        report_case(report, &suite.config, &case, results, Duration::ZERO);
                    }
                    junit_note(suite.junit_case(&result, 0.0));
                    Err(e)
                }));
                continue;
            }
        };
        // The first trial of a cast to run checks all of its checkpoints in one replay (one
        // screen in memory at a time); the others find their outcome here. Only outcomes are
        // kept (pass, or the failure message, and the JUnit testcase), never screens or
        // renders.
        let outcomes: Arc<OnceLock<Outcomes>> = Arc::new(OnceLock::new());
        let keys: Vec<(String, String)> = infos
            .iter()
            .flat_map(|info| {
                std::iter::once((test_name(&case.stem, &info.name), info.name.clone())).chain(
                    case.expects_at(&info.name).map(|e| {
                        (
                            expect_test_name(&case.stem, &info.name, &e.id),
                            expect_key(&info.name, &e.id),
                        )
                    }),
                )
            })
            .collect();
        // A case that fails whole says why once: in its own test when it is recorded live
        // (the recording is a test of its own), else at its first checkpoint.
        let first_name = Arc::new(infos.first().map(|i| i.name.clone()).unwrap_or_default());
        let lead = Arc::new(case_lead(&case, &opts, &first_name));
        let records = opts.live.records(&case);
        // The cast's trials share its one check: the pool starts other casts beside it.
        let group: Arc<str> = Arc::from(case.stem.as_str());
        // The live recording's own test: it runs the case's one check (as any of its trials
        // may) and fails with the recording's error; its checkpoints then point here.
        let own = records.then(|| (case.stem.clone(), String::new()));
        for (name, key) in own.into_iter().chain(keys) {
            let lead = lead.clone();
            let (suite, case, outcomes) = (suite.clone(), case.clone(), outcomes.clone());
            let first_name = first_name.clone();
            let name_shown = name.clone();
            let updated = updated.clone();
            let report = report.clone();
            let checkpoint = key.split('\0').next().unwrap_or_default().to_string();
            trials.push(
                Trial::test(name, move || {
                    let started = Instant::now();
                    let outcomes = outcomes.get_or_init(|| {
                        let started = Instant::now();
                        let checked = check_replay(&suite.config, &case, &opts);
                        // The whole cast goes into the report once, by the trial that checked it.
                        if let (Some(report), Ok(results)) = (&report, &checked) {
                            let mut all: Vec<CheckResult> = results.values().cloned().collect();
                            all.sort_by_key(|r| r.line);
                            report_case(report, &suite.config, &case, &all, started.elapsed());
                        }
                        checked.map(|results| {
                            results
                                .into_iter()
                                .map(|(name, r)| (name, Outcome::of(&suite, &r)))
                                .collect()
                        })
                    });
                    let outcome = match outcomes {
                        // The recording's own test passes once the recording is checked.
                        Ok(_) if key.is_empty() => Outcome::of(&suite, &recording(&case, None)),
                        Ok(map) => match map.get(&key) {
                            Some(outcome) => outcome.clone(),
                            None => Outcome::of(&suite, &missing(&case, &checkpoint)),
                        },
                        Err(e) if key.is_empty() => {
                            Outcome::of(&suite, &recording(&case, Some(e.message())))
                        }
                        // The whole message once: in the recording's own test, else at the
                        // case's first checkpoint (not its expectations); the others point
                        // there.
                        Err(e) => {
                            let told = records || key != *first_name;
                            let r =
                                failed_once(&case, e, told.then_some(lead.as_str()), &checkpoint);
                            Outcome::of(&suite, &r)
                        }
                    };
                    if outcome.passed == Ok(true) {
                        updated
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(name_shown.clone());
                    }
                    if let Some(mut junit) = outcome.junit {
                        junit.time = started.elapsed().as_secs_f64();
                        junit_note(junit);
                    }
                    outcome.passed.map(|_| ())
                })
                .in_group(group.clone()),
            );
        }
    }
    // Each `[[screenshot]]` of tuicast.toml: the committed image is what its cast draws.
    for shot in suite.config.screenshots.clone() {
        let (suite, updated, report) = (suite.clone(), updated.clone(), report.clone());
        trials.push(Trial::test(
            super::screenshot::test_name(&shot),
            move || {
                let started = Instant::now();
                let (result, drawn) =
                    super::screenshot::check_drawn(&suite.config, &shot, opts.update, opts.live);
                if let Some(report) = &report {
                    let (config, drawn) = (&suite.config, drawn.as_deref());
                    report_screenshot(report, config, &shot, &result, drawn, started.elapsed());
                }
                if result.status() == super::Status::Updated {
                    updated
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(result.test.clone());
                }
                junit_note(suite.junit_case(&result, started.elapsed().as_secs_f64()));
                if result.passed() {
                    Ok(())
                } else {
                    Err(result.message_in(opts.live).into())
                }
            },
        ));
    }
    Ok((trials, broken))
}

/// What a trial came to: passed (`true`: writing its goldens), or the failure message; and
/// its JUnit testcase when a JUnit file is written (its time set by the trial).
#[derive(Clone)]
struct Outcome {
    passed: Result<bool, Failure>,
    junit: Option<super::junit::JunitCase>,
}

impl Outcome {
    /// The outcome of `result`, a check of `suite`.
    fn of(suite: &Suite, result: &CheckResult) -> Outcome {
        Outcome {
            passed: if result.passed() {
                Ok(result.status() == super::Status::Updated)
            } else {
                Err(result.message_in(suite.live).into())
            },
            junit: junit_path()
                .is_some()
                .then(|| suite.junit_case(result, 0.0)),
        }
    }
}

/// What each checkpoint of a cast came to, by name; or why the cast could not be replayed.
type Outcomes = Result<HashMap<String, Outcome>, Failure>;

/// The test name of a checkpoint: `<cast stem>::<checkpoint>`, with anything from the cast
/// escaped so that printing it is safe.
pub fn test_name(stem: &str, checkpoint: &str) -> String {
    format!(
        "{stem}::{}",
        crate::escape::escape_for_terminal(checkpoint, 100)
    )
}

/// The test name of an expectation at a checkpoint: `<cast>::<checkpoint>::<name or N>`.
pub fn expect_test_name(stem: &str, checkpoint: &str, id: &str) -> String {
    format!(
        "{}::{}",
        test_name(stem, checkpoint),
        crate::escape::escape_for_terminal(id, 100)
    )
}

/// The key of an expectation's result among a case's results by name (a checkpoint's own
/// key is its name; no checkpoint name holds a NUL).
pub(super) fn expect_key(checkpoint: &str, id: &str) -> String {
    format!("{checkpoint}\0{id}")
}
