//! The one suite driver: what `tuicast test` (`cli/test.rs`) and `cargo test`
//! ([`super::main`], and so cargo-nextest and pytest, which go through one of them) share when
//! they check a suite — its cases and leftovers found once ([`Suite::open`]), the failing
//! test of goldens whose casts are gone, the notes after a run (orphans, temporary files of an
//! interrupted write, casts asked to record live that have no scenario), each result's JUnit
//! testcase and its entry in the HTML report, and the report's page at the end — so that the
//! two runners' words, orphans and reports cannot drift apart.
//!
//! What differs stays with each runner: how results are printed (libtest's lines, or the
//! tally, JSON records and one JUnit document of `tuicast test`), `--remove-orphans`, and how
//! trials are scheduled.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::discover::Case;
use super::junit::JunitCase;
use super::leftovers::Leftovers;
use super::live::LiveMode;
use super::result::CheckResult;
use crate::config::Config;
use crate::escape::escape_for_terminal;
use crate::report::ReportDir;

/// A suite as every runner checks it: its project's configuration, its cases, and the goldens
/// no case produces.
#[derive(Debug)]
#[non_exhaustive]
pub struct Suite {
    /// The project's `tuicast.toml` (its defaults when there is none).
    pub config: Config,
    /// The casts to check, in the order every runner checks and lists them.
    pub cases: Vec<Case>,
    /// Goldens no case produces (none looked for when only some casts are checked).
    pub leftovers: Leftovers,
    /// Which cases are recorded live.
    pub live: LiveMode,
    /// The suite's name in JUnit files (the project folder's name).
    pub name: String,
}

impl Suite {
    /// The cases of `config`'s project (those under `paths`, when some are named: then no
    /// leftovers are looked for, as they are known of the whole suite only).
    pub fn open(config: Config, paths: &[PathBuf], live: LiveMode) -> std::io::Result<Suite> {
        let cases = super::discover(&config, paths, live);
        let leftovers = if paths.is_empty() {
            super::leftovers(&config, &cases).map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!(
                        "cannot look for orphaned goldens in {}: {e}",
                        crate::assert::shown_path(&config.snapshots)
                    ),
                )
            })?
        } else {
            Leftovers::default()
        };
        Ok(Suite {
            name: super::junit::suite_name(&config.root),
            config,
            cases,
            leftovers,
            live,
        })
    }

    /// The failing test of goldens whose casts are gone ([`super::LEFTOVERS_TEST`]).
    pub fn gone(&self) -> Option<CheckResult> {
        self.leftovers.failure(&self.config)
    }

    /// The note on orphaned goldens and temporary files after a run of the whole suite
    /// (empty when there are none), paths shown from where the run started.
    pub fn leftovers_note(&self) -> String {
        self.leftovers
            .note(&std::env::current_dir().unwrap_or_default())
    }

    /// When every case was asked to record live (`asked`: `--live`, `TUICAST_LIVE=1`), the
    /// note on the cases among `checked` that have no scenario and so were replayed.
    pub fn unrecorded_note<'a>(
        &self,
        asked: &str,
        checked: impl IntoIterator<Item = &'a Case>,
    ) -> Option<String> {
        if self.live != LiveMode::Always {
            return None;
        }
        let replayed: Vec<String> = checked
            .into_iter()
            .filter(|c| c.scenario.is_none())
            .map(|c| escape_for_terminal(&c.stem, 200))
            .collect();
        (!replayed.is_empty()).then(|| {
            format!(
                "note: {asked} replayed {} cast(s) that have no scenario to record them from: {} \
                 (a scenario is CAST.toml beside the cast; see docs/scenarios.md)",
                replayed.len(),
                replayed.join(", ")
            )
        })
    }

    /// The JUnit testcase of `result`, which took `time` seconds.
    pub fn junit_case(&self, result: &CheckResult, time: f64) -> JunitCase {
        JunitCase::from_result(&self.name, result, self.live, time)
    }
}

/// Adds `case`'s `results` to the HTML report; a report that cannot be written is a warning,
/// never a failed check.
pub fn report_case(
    report: &ReportDir,
    config: &Config,
    case: &Case,
    results: &[CheckResult],
    duration: Duration,
) {
    // One data file per cast, under every runner (a process of nextest adds its cast's).
    let key = format!("cast {}", case.stem);
    if let Err(e) = super::add_to_report(report, config, case, &key, results, duration) {
        eprintln!("warning: report: {e}");
    }
}

/// Adds a `[[screenshot]]`'s result to the HTML report, with the image its cast draws now
/// (`drawn`) when that differs; as [`report_case`], a failure to write is a warning.
pub fn report_screenshot(
    report: &ReportDir,
    config: &Config,
    shot: &crate::config::Screenshot,
    result: &CheckResult,
    drawn: Option<&[u8]>,
    duration: Duration,
) {
    if let Err(e) = super::add_screenshot_to_report(report, config, shot, result, drawn, duration) {
        eprintln!("warning: report: {e}");
    }
}

/// Why the report's page could not be made.
#[derive(Debug)]
#[non_exhaustive]
pub struct ReportError(String);

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReportError {}

/// Makes the report's page again from every result its folder holds and, when
/// `step_summary` (under GitHub Actions, once per run), appends its summary to
/// `GITHUB_STEP_SUMMARY`. Returns the line that says where the page is (`report: PATH`).
pub fn finish_report(dir: &ReportDir, step_summary: bool) -> Result<String, ReportError> {
    let err = |what: String| ReportError(what);
    dir.regenerate().map_err(|e| {
        err(format!(
            "cannot write the report in {}: {e}",
            dir.path().display()
        ))
    })?;
    let index = dir.index();
    let summary_file = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|v| !v.is_empty());
    if let (true, Some(summary)) = (step_summary, summary_file) {
        let casts = dir
            .read()
            .map_err(|e| err(format!("cannot read the report: {e}")))?;
        let text = crate::report::markdown_summary(&casts, &index.display().to_string());
        append(Path::new(&summary), text.as_bytes())
            .map_err(|e| err(format!("cannot append to GITHUB_STEP_SUMMARY: {e}")))?;
    }
    Ok(format!(
        "report: {}",
        escape_for_terminal(&index.display().to_string(), 300)
    ))
}

/// Appends `bytes` to the file at `path`, making it when there is none.
fn append(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?
        .write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::discover::tests::{project, TWO};

    #[test]
    fn leftovers_are_looked_for_in_the_whole_suite_only_and_noted_once_for_every_runner() {
        let (dir, config) = project(&[
            ("casts/three.cast", TWO),
            ("snapshots/three/first.txt", "x"),
            ("snapshots/three/renamed.txt", "x"),
            ("snapshots/gone/first.txt", "x"),
        ]);
        let named = [dir.path().join("casts/three.cast")];
        let some = Suite::open(config.clone(), &named, LiveMode::Auto).unwrap();
        assert_eq!(some.cases.len(), 1);
        assert!(some.gone().is_none() && some.leftovers_note().is_empty());
        let whole = Suite::open(config, &[], LiveMode::Auto).unwrap();
        assert_eq!(whole.gone().unwrap().test, crate::harness::LEFTOVERS_TEST);
        let note = whole.leftovers_note();
        assert!(note.starts_with("1 orphaned snapshot(s) found"), "{note}");
        assert!(note.contains("renamed.txt\n"), "{note}");
        let junit = whole.junit_case(&whole.gone().unwrap(), 0.5);
        assert_eq!(
            (junit.suite.as_str(), junit.time, junit.failure.is_some()),
            (whole.name.as_str(), 0.5, true)
        );
    }

    #[test]
    fn casts_asked_to_record_live_without_a_scenario_are_one_note_naming_what_asked() {
        let (_dir, config) = project(&[("casts/three.cast", TWO)]);
        let auto = Suite::open(config.clone(), &[], LiveMode::Auto).unwrap();
        assert_eq!(auto.unrecorded_note("--live", &auto.cases), None);
        let live = Suite::open(config, &[], LiveMode::Always).unwrap();
        assert_eq!(
            live.unrecorded_note("TUICAST_LIVE=1", &live.cases)
                .as_deref(),
            Some(
                "note: TUICAST_LIVE=1 replayed 1 cast(s) that have no scenario to record them \
                 from: three (a scenario is CAST.toml beside the cast; see docs/scenarios.md)"
            )
        );
        assert_eq!(live.unrecorded_note("--live", []), None);
    }
}
