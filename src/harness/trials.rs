//! The libtest-mimic side: [`main`] for a `harness = false` test target, [`trials`] (one per
//! checkpoint, one replay per cast shared by its trials), and the test names they carry.

use std::sync::{Arc, OnceLock};

use super::check::{check_checkpoint, replay_case, Replayed};
use super::discover::discover;
use super::live::live_from_env;
use super::{use_color, Options};
use crate::assert::UpdateAction;
use crate::config::Config;
use crate::report::ReportDir;

/// The harness entry point for `tests/*.rs` with `harness = false`: reads `tuicast.toml`,
/// makes one libtest trial per checkpoint and exits with libtest's status.
pub fn main() -> ! {
    let args = libtest_mimic::Arguments::from_args();
    let trials = match trials() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(101);
        }
    };
    let conclusion = libtest_mimic::run(&args, trials);
    // Each process (one per test under nextest) adds its results, then the page is made
    // again from all of them (`TUICAST_REPORT`).
    if let Some(report) = ReportDir::from_env() {
        if !args.list {
            if let Err(e) = report.regenerate() {
                eprintln!(
                    "warning: cannot write the report in {}: {e}",
                    report.path().display()
                );
            }
        }
    }
    conclusion.exit()
}

/// Why the harness cannot start: the project's `tuicast.toml` or `TUICAST_UPDATE` is wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum HarnessError {
    /// `tuicast.toml` did not read.
    Config(crate::config::ConfigError),
    /// `TUICAST_UPDATE` is not an update mode.
    Update(crate::assert::UpdateModeError),
}

impl std::fmt::Display for HarnessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HarnessError::Config(e) => e.fmt(f),
            HarnessError::Update(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for HarnessError {}

/// The trials of the project's suite, one per checkpoint, sharing one replay per cast.
pub fn trials() -> Result<Vec<libtest_mimic::Trial>, HarnessError> {
    let config = Arc::new(Config::discover().map_err(HarnessError::Config)?);
    let opts = Options {
        update: UpdateAction::from_env().map_err(HarnessError::Update)?,
        color: use_color(std::io::IsTerminal::is_terminal(&std::io::stdout())),
        live: live_from_env(),
    };
    let report = ReportDir::from_env().map(Arc::new);
    let mut trials = Vec::new();
    for case in discover(&config, &[]) {
        let case = Arc::new(case);
        let infos = match &case.checkpoints {
            Ok(infos) => infos.clone(),
            Err(e) => {
                let e = e.clone();
                let (config, case, report) = (config.clone(), case.clone(), report.clone());
                trials.push(libtest_mimic::Trial::test(case.stem.clone(), move || {
                    if let Some(report) = &report {
                        let result = super::CheckResult {
                            test: case.stem.clone(),
                            cast: case.cast.clone(),
                            checkpoint: String::new(),
                            line: 0,
                            time: 0.0,
                            snapshots: Vec::new(),
                            error: Some(e.clone()),
                        };
                        let results = std::slice::from_ref(&result);
                        let key = case.stem.clone();
                        let done = super::add_to_report(
                            report,
                            &config,
                            &case,
                            &key,
                            results,
                            std::time::Duration::ZERO,
                        );
                        if let Err(e) = done {
                            eprintln!("warning: report: {e}");
                        }
                    }
                    Err(e.into())
                }));
                continue;
            }
        };
        let replayed: Arc<OnceLock<Replayed>> = Arc::new(OnceLock::new());
        for info in infos {
            let (config, case, replayed) = (config.clone(), case.clone(), replayed.clone());
            let report = report.clone();
            let name = test_name(&case.stem, &info.name);
            trials.push(libtest_mimic::Trial::test(name.clone(), move || {
                let started = std::time::Instant::now();
                let replayed = replayed.get_or_init(|| replay_case(&config, &case, &opts));
                let result = check_checkpoint(&config, &case, replayed, &info.name, &opts);
                if let Some(report) = &report {
                    let results = std::slice::from_ref(&result);
                    let done = super::add_to_report(
                        report,
                        &config,
                        &case,
                        &name,
                        results,
                        started.elapsed(),
                    );
                    if let Err(e) = done {
                        eprintln!("warning: report: {e}");
                    }
                }
                if result.passed() {
                    Ok(())
                } else {
                    Err(result.message().into())
                }
            }));
        }
    }
    Ok(trials)
}

/// The test name of a checkpoint: `<cast stem>::<checkpoint>`, with anything from the cast
/// escaped so that printing it is safe.
pub fn test_name(stem: &str, checkpoint: &str) -> String {
    format!(
        "{stem}::{}",
        crate::escape::escape_for_terminal(checkpoint, 100)
    )
}
