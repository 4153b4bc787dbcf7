//! The test harness: every checkpoint of every cast becomes a test.
//!
//! In a crate that keeps `casts/` and `snapshots/`:
//!
//! ```toml
//! # Cargo.toml
//! [[test]]
//! name = "casts"
//! harness = false
//! ```
//!
//! ```text
//! // tests/casts.rs
//! fn main() {
//!     tuicast::harness::main()
//! }
//! ```
//!
//! `cargo test` then runs one trial per checkpoint, named `<cast>::<checkpoint>` (the cast's
//! path relative to `casts/` without `.cast`), so libtest's filters, `--exact`, `--list`,
//! `--ignored`, `--test-threads` and `--format json` work, and so does cargo-nextest. A cast
//! that fails to parse is one failing trial carrying the parse error. The same checks run from
//! the command line as `tuicast test`.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::assert::{self, Format, Mask, Outcome, Place, UpdateAction};
use crate::cast::CastError;
use crate::config::{CastFile, Config};
use crate::record::Scenario;
use crate::replay::{self, Checkpoint, CheckpointNames};

/// One cast to check: where it is, its checkpoints, and how to check them.
#[derive(Debug, Clone)]
pub struct Case {
    /// The cast file.
    pub cast: PathBuf,
    /// Its name in test names and snapshot paths: the path relative to `casts/`, no `.cast`.
    pub stem: String,
    /// Checkpoint names in order (`end` last), or why the cast or its scenario is unusable.
    pub checkpoints: Result<Vec<CheckpointInfo>, String>,
    /// Snapshot formats to check.
    pub formats: Vec<Format>,
    /// Masks applied before comparing.
    pub masks: Vec<Mask>,
    /// How to record this cast, when its TOML says (live mode).
    pub scenario: Option<Scenario>,
}

/// How checks run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// What a mismatch writes (the `TUICAST_UPDATE` mode, resolved with CI).
    pub update: UpdateAction,
    /// Colour in diffs.
    pub color: bool,
    /// Record casts that have a scenario again now, and check the new recording
    /// (`TUICAST_LIVE=1`, `tuicast test --live`).
    pub live: bool,
}

/// The environment variable that turns on live mode.
pub const LIVE_ENV: &str = "TUICAST_LIVE";

/// Whether `TUICAST_LIVE` asks for live mode (`1`, `true`, `yes`).
pub fn live_from_env() -> bool {
    std::env::var(LIVE_ENV).is_ok_and(|v| matches!(v.trim(), "1" | "true" | "yes"))
}

/// A checkpoint found by scanning a cast's markers (no replay needed).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointInfo {
    /// The unique checkpoint name.
    pub name: String,
    /// The cast line of its marker (or of the last event, for `end`).
    pub line: u64,
}

/// The outcome of checking one checkpoint in every format.
#[derive(Debug, Clone)]
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
}

/// One golden file's outcome.
#[derive(Debug, Clone)]
pub struct SnapshotResult {
    /// The golden file.
    pub path: PathBuf,
    /// The golden's name relative to the snapshots folder (what `tuicast accept` takes).
    pub name: String,
    /// Pass, updated, missing or mismatch.
    pub outcome: Outcome,
    /// The actual render.
    pub actual: String,
}

impl CheckResult {
    /// True when every snapshot passed and nothing went wrong.
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.snapshots.iter().all(|s| s.outcome.passed())
    }

    /// The failure report: short, escaped, ending with the command that accepts the change.
    pub fn message(&self) -> String {
        let mut out = String::new();
        if let Some(e) = &self.error {
            let _ = writeln!(out, "{e}");
            return out;
        }
        let mut accept = Vec::new();
        for s in &self.snapshots {
            let place = format!(
                "  checkpoint {:?} of {}:{} at {:.3}s",
                crate::escape::escape_for_terminal(&self.checkpoint, 100),
                assert::shown_path(&self.cast),
                self.line,
                self.time
            );
            match &s.outcome {
                Outcome::Pass | Outcome::Updated => {}
                Outcome::Missing { pending } => {
                    let _ = writeln!(out, "snapshot missing: {}", assert::shown_path(&s.path));
                    let _ = writeln!(out, "{place}");
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
                Outcome::Mismatch {
                    difference,
                    pending,
                    ..
                } => {
                    let _ = writeln!(out, "snapshot mismatch: {}", assert::shown_path(&s.path));
                    let _ = writeln!(out, "{place}");
                    match &difference.place {
                        Place::Cell { row, column } => {
                            let _ = writeln!(out, "  first difference: row {row}, column {column}");
                        }
                        Place::Header(field) => {
                            let _ = writeln!(out, "  first difference: {field}");
                        }
                    }
                    for change in &difference.style_changes {
                        let _ = writeln!(out, "  style: {change}");
                    }
                    out.push_str(&difference.diff);
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
            }
        }
        if !accept.is_empty() {
            let _ = writeln!(out, "to accept: tuicast accept {}", accept.join(" "));
        } else if !self.passed() {
            let _ = writeln!(
                out,
                "to update: {}=always cargo test, or tuicast test --update",
                assert::UPDATE_ENV
            );
        }
        out
    }
}

/// Finds the casts to check: every `*.cast` under the configured casts folder, or under the
/// given paths (files or folders), sorted.
pub fn discover(config: &Config, paths: &[PathBuf]) -> Vec<Case> {
    let roots: Vec<PathBuf> = if paths.is_empty() {
        vec![config.casts.clone()]
    } else {
        paths.to_vec()
    };
    let mut casts = Vec::new();
    for root in roots {
        if root.is_dir() {
            collect_casts(&root, &mut casts);
        } else {
            casts.push(root);
        }
    }
    casts.sort();
    casts.dedup();
    // Naming checkpoints reads every cast once: spread over the cores, order kept.
    let mut cases = Vec::with_capacity(casts.len());
    let loaded: Result<(), std::convert::Infallible> = crate::util::par_map_ordered(
        &casts,
        |cast| load_case(config, cast.clone()),
        |_, case| {
            cases.push(case);
            Ok(())
        },
    );
    let Ok(()) = loaded;
    cases
}

/// Builds the [`Case`] of one cast: its scenario's `[check]`, and its checkpoint names.
pub fn load_case(config: &Config, cast: PathBuf) -> Case {
    let stem = assert::cast_stem(&config.casts, &cast);
    let mut formats = config.formats.clone();
    let mut masks = Vec::new();
    let mut problem = None;
    let mut scenario = None;
    match CastFile::beside(&cast) {
        Ok(Some(file)) => {
            if let Some(f) = file.formats {
                formats = f;
            }
            masks = file.masks;
            scenario = file.recording;
        }
        Ok(None) => {}
        Err(e) => problem = Some(e.to_string()),
    }
    let checkpoints = match problem {
        Some(p) => Err(p),
        None => scan_checkpoints(&cast).map_err(|e| e.to_string()),
    };
    Case {
        cast,
        stem,
        checkpoints,
        formats,
        masks,
        scenario,
    }
}

/// The checkpoint names of a cast, from its markers (fast: no terminal engine involved).
pub fn scan_checkpoints(cast: &Path) -> Result<Vec<CheckpointInfo>, CastError> {
    let reader = crate::cast::open(cast)?.skim();
    let mut names = CheckpointNames::default();
    let mut out = Vec::new();
    let mut last = 1;
    for event in reader {
        let event = event?;
        last = event.line;
        if let Some(name) = names.event(&event.data) {
            out.push(CheckpointInfo {
                name,
                line: event.line,
            });
        }
    }
    out.push(CheckpointInfo {
        name: names.end(),
        line: last,
    });
    Ok(out)
}

/// The golden files a case produces (for finding orphans).
pub fn expected_snapshots(config: &Config, case: &Case) -> Vec<PathBuf> {
    let Ok(checkpoints) = &case.checkpoints else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in checkpoints {
        for f in &case.formats {
            out.push(assert::snapshot_path(
                &config.snapshots,
                &case.stem,
                &c.name,
                f.extension(),
            ));
        }
    }
    out
}

/// Goldens under the snapshots folder that none of `cases` produce. Only meaningful when
/// `cases` is the whole suite.
pub fn orphans(config: &Config, cases: &[Case]) -> std::io::Result<Vec<PathBuf>> {
    if cases.iter().any(|c| c.checkpoints.is_err()) {
        // A cast that did not parse may produce goldens we cannot name: report none.
        return Ok(Vec::new());
    }
    let expected: HashSet<PathBuf> = cases
        .iter()
        .flat_map(|c| expected_snapshots(config, c))
        .collect();
    assert::pending::orphans(&config.snapshots, &expected)
}

/// Replays a case once and checks every checkpoint. Results are in checkpoint order.
pub fn check_case(config: &Config, case: &Case, opts: &Options) -> Vec<CheckResult> {
    let infos = match &case.checkpoints {
        Ok(i) => i.clone(),
        Err(e) => return vec![broken(case, e)],
    };
    let replayed = replay_case(config, case, opts);
    infos
        .iter()
        .map(|info| check_checkpoint(config, case, &replayed, &info.name, opts))
        .collect()
}

type Replayed = Result<Vec<Checkpoint>, String>;

fn replay_case(config: &Config, case: &Case, opts: &Options) -> Replayed {
    if opts.live {
        if let Some(scenario) = &case.scenario {
            return live_replay(config, case, scenario, opts.update);
        }
    }
    let reader = crate::cast::open(&case.cast).map_err(|e| e.to_string())?;
    replay::checkpoints(reader, config.engine).map_err(|e| e.to_string())
}

/// The file a live recording is kept in when it differs from the goldens: `<cast>.new`.
pub fn live_cast_path(cast: &Path) -> PathBuf {
    assert::pending_path(cast)
}

/// Live mode: records the scenario again now, replays the new cast, and keeps it as
/// `<cast>.new` when any checkpoint differs from its golden (`always` replaces the cast).
fn live_replay(
    config: &Config,
    case: &Case,
    scenario: &Scenario,
    update: UpdateAction,
) -> Replayed {
    let new_cast = live_cast_path(&case.cast);
    let recorded = crate::record::record_scenario(scenario, &new_cast, &mut |_| {});
    if let Err(e) = recorded {
        let partial = crate::record::run::partial_path(&new_cast);
        let _ = std::fs::remove_file(&partial);
        let file = scenario
            .source
            .clone()
            .unwrap_or_else(|| case.cast.with_extension("toml"));
        return Err(format!(
            "live recording of {} failed: {e}",
            assert::shown_path(&file)
        ));
    }
    let replayed = crate::cast::open(&new_cast)
        .map_err(|e| e.to_string())
        .and_then(|r| replay::checkpoints(r, config.engine).map_err(|e| e.to_string()));
    let Ok(checkpoints) = &replayed else {
        let _ = std::fs::remove_file(&new_cast);
        return replayed;
    };
    // Does the new recording match every golden? Compare without writing anything.
    let cast_label = assert::pending::relative_name(&config.root, &case.cast);
    let matches = checkpoints.iter().all(|cp| {
        let screen = masked(&case.masks, &cp.screen);
        case.formats.iter().all(|f| {
            let golden =
                assert::snapshot_path(&config.snapshots, &case.stem, &cp.name, f.extension());
            let check = assert::Check {
                format: *f,
                golden: &golden,
                cast: &cast_label,
                checkpoint: &cp.name,
                action: UpdateAction::WriteNothing,
                color: false,
                png: &config.png,
            };
            check
                .check(&screen)
                .is_ok_and(|(outcome, _)| outcome.passed())
        })
    });
    match (matches, update) {
        // A differing recording replaces the cast, or waits beside it for review.
        (false, UpdateAction::Overwrite) => {
            if let Err(e) = std::fs::rename(&new_cast, &case.cast) {
                return Err(format!(
                    "cannot replace {}: {e}",
                    assert::shown_path(&case.cast)
                ));
            }
        }
        (false, UpdateAction::WriteNew) => {}
        _ => {
            let _ = std::fs::remove_file(&new_cast);
        }
    }
    replayed
}

fn broken(case: &Case, error: &str) -> CheckResult {
    CheckResult {
        test: case.stem.clone(),
        cast: case.cast.clone(),
        checkpoint: String::new(),
        line: 0,
        time: 0.0,
        snapshots: Vec::new(),
        error: Some(error.to_string()),
    }
}

/// Checks one checkpoint of a replayed case in every format of the case.
fn check_checkpoint(
    config: &Config,
    case: &Case,
    replayed: &Replayed,
    name: &str,
    opts: &Options,
) -> CheckResult {
    let (update, color) = (opts.update, opts.color);
    let test = test_name(&case.stem, name);
    let checkpoints = match replayed {
        Ok(c) => c,
        Err(e) => {
            let mut r = broken(case, e);
            r.test = test;
            r.checkpoint = name.to_string();
            return r;
        }
    };
    let Some(cp) = checkpoints.iter().find(|c| c.name == name) else {
        let mut r = broken(
            case,
            &format!("{}: no checkpoint named {name:?}", case.cast.display()),
        );
        r.test = test;
        return r;
    };
    let screen = masked(&case.masks, &cp.screen);
    let cast_label = assert::pending::relative_name(&config.root, &case.cast);
    let mut snapshots = Vec::new();
    let mut error = None;
    for format in &case.formats {
        let path =
            assert::snapshot_path(&config.snapshots, &case.stem, &cp.name, format.extension());
        let check = assert::Check {
            format: *format,
            golden: &path,
            cast: &cast_label,
            checkpoint: &cp.name,
            action: update,
            color,
            png: &config.png,
        };
        let checked = check.check(&screen);
        match checked {
            Ok((outcome, actual)) => snapshots.push(SnapshotResult {
                name: assert::pending::relative_name(&config.snapshots, &path),
                path,
                outcome,
                actual,
            }),
            Err(e) => {
                error = Some(format!("{}: {e}", path.display()));
                break;
            }
        }
    }
    CheckResult {
        test,
        cast: case.cast.clone(),
        checkpoint: cp.name.clone(),
        line: cp.line,
        time: cp.time,
        snapshots,
        error,
    }
}

/// The test name of a checkpoint: `<cast stem>::<checkpoint>`, with anything from the cast
/// escaped so that printing it is safe.
pub fn test_name(stem: &str, checkpoint: &str) -> String {
    format!(
        "{stem}::{}",
        crate::escape::escape_for_terminal(checkpoint, 100)
    )
}

/// The screen with the masks applied; borrowed as it is when there are none (no copy).
fn masked<'a>(
    masks: &[Mask],
    screen: &'a crate::term::Screen,
) -> std::borrow::Cow<'a, crate::term::Screen> {
    if masks.is_empty() {
        std::borrow::Cow::Borrowed(screen)
    } else {
        std::borrow::Cow::Owned(assert::apply_all(masks, screen))
    }
}

fn collect_casts(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_casts(&path, out);
        } else if path.extension().is_some_and(|e| e == "cast") {
            out.push(path);
        }
    }
}

/// Whether failure output may use colour: a terminal, and `NO_COLOR` unset.
pub fn use_color(is_terminal: bool) -> bool {
    is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

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
    libtest_mimic::run(&args, trials).exit()
}

/// The trials of the project's suite, one per checkpoint, sharing one replay per cast.
pub fn trials() -> Result<Vec<libtest_mimic::Trial>, String> {
    let config = Arc::new(Config::discover().map_err(|e| e.to_string())?);
    let opts = Options {
        update: UpdateAction::from_env()?,
        color: use_color(std::io::IsTerminal::is_terminal(&std::io::stdout())),
        live: live_from_env(),
    };
    let mut trials = Vec::new();
    for case in discover(&config, &[]) {
        let case = Arc::new(case);
        let infos = match &case.checkpoints {
            Ok(infos) => infos.clone(),
            Err(e) => {
                let e = e.clone();
                trials.push(libtest_mimic::Trial::test(case.stem.clone(), move || {
                    Err(e.into())
                }));
                continue;
            }
        };
        let replayed: Arc<OnceLock<Replayed>> = Arc::new(OnceLock::new());
        for info in infos {
            let (config, case, replayed) = (config.clone(), case.clone(), replayed.clone());
            let name = test_name(&case.stem, &info.name);
            trials.push(libtest_mimic::Trial::test(name, move || {
                let replayed = replayed.get_or_init(|| replay_case(&config, &case, &opts));
                let result = check_checkpoint(&config, &case, replayed, &info.name, &opts);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_names_checkpoints_as_replay_does() {
        let dir = tempfile::tempdir().unwrap();
        let cast = dir.path().join("names.cast");
        std::fs::write(&cast, replay::tests::CAST).unwrap();
        let scanned: Vec<(String, u64)> = scan_checkpoints(&cast)
            .unwrap()
            .into_iter()
            .map(|c| (c.name, c.line))
            .collect();
        let reader = crate::cast::open(&cast).unwrap();
        let replayed: Vec<(String, u64)> =
            replay::checkpoints(reader, crate::term::EngineKind::Avt)
                .unwrap()
                .into_iter()
                .map(|c| (c.name, c.line))
                .collect();
        assert_eq!(scanned, replayed);
        assert_eq!(scanned.len(), 4, "{scanned:?}");
    }
}
