//! Live mode: a case with a scenario is recorded again now and the new recording checked; a
//! recording that differs from the goldens is kept as `<cast>.new` for review, or replaces the
//! cast with `always`.
//!
//! When ([`LiveMode`]): by default a cast whose scenario runs the package's own binary
//! (`bin =`) is recorded live — replaying last month's cast of today's program tests nothing —
//! and every other cast replays; `TUICAST_LIVE=1|0` (`tuicast test --live` / `--replay`)
//! forces one or the other.
//!
//! Once per run ([`run_dir`]): under cargo-nextest every trial is its own process, so the
//! recording of a cast is shared through a per-run folder under the target folder, keyed by
//! `NEXTEST_RUN_ID` (else this process). The first trial of a cast to take its lock (a file
//! made with `create_new`) records it and decides its `.cast.new` once; the others wait for its
//! result (a lock whose process is gone is taken over) and replay the same recording.
//!
//! `Scenario::runs_project_code` says which scenarios run the project's own code (`bin =`,
//! `live = true`, a script of the project). A replayed cast older than its binary gets a warning.
//! The run folder is private (`util::private_dir`), and a stale lock is taken over by its pid and
//! its start time. [`recording_times`] (a recording's length, each checkpoint's overhead after
//! the program's last output) feeds `tuicast test`'s slowest-casts lines, `--repeat` and the
//! report.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::check::Replayed;
use super::discover::Case;
use super::Failure;
use crate::assert::{self, UpdateAction};
use crate::config::Config;
use crate::location::FailureJson;
use crate::record::{Program, Scenario};
use {super::check::masked, crate::assert::Check, crate::replay};

/// The environment variable that forces live mode on (`1`) or off (`0`).
pub const LIVE_ENV: &str = "TUICAST_LIVE";

/// Which casts are recorded again now instead of replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum LiveMode {
    /// Casts whose scenario runs the project's own code (`bin =`, `live = true`, a script of
    /// the project) are recorded live; the others replay. The default.
    #[default]
    Auto,
    /// Every cast that has a scenario is recorded live (`TUICAST_LIVE=1`, `--live`); casts
    /// without one replay, and `tuicast test` says so.
    Always,
    /// Every cast replays (`TUICAST_LIVE=0`, `--replay`).
    Never,
}

/// `TUICAST_LIVE` holds something other than `1`/`0` (or `true`/`false`, `yes`/`no`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveModeError(pub String);

impl std::fmt::Display for LiveModeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{LIVE_ENV}={}: expected 1 (record every cast with a scenario live) or 0 (replay \
             every cast); unset, casts of `bin =` scenarios are recorded live",
            crate::escape::escape_for_terminal(&self.0, 60)
        )
    }
}

impl std::error::Error for LiveModeError {}

impl LiveMode {
    /// The mode `TUICAST_LIVE` asks for: `1`/`true`/`yes` is [`LiveMode::Always`],
    /// `0`/`false`/`no` [`LiveMode::Never`], unset or empty [`LiveMode::Auto`].
    pub fn from_env() -> Result<LiveMode, LiveModeError> {
        match std::env::var(LIVE_ENV) {
            Err(_) => Ok(LiveMode::Auto),
            Ok(v) => LiveMode::parse(&v).ok_or(LiveModeError(v)),
        }
    }

    /// `1`/`true`/`yes`, `0`/`false`/`no`, or empty (auto).
    pub fn parse(value: &str) -> Option<LiveMode> {
        match value.trim() {
            "" => Some(LiveMode::Auto),
            "1" | "true" | "yes" => Some(LiveMode::Always),
            "0" | "false" | "no" => Some(LiveMode::Never),
            _ => None,
        }
    }

    /// What a command line must add to run in this mode: `(environment, tuicast test flag)`,
    /// `("TUICAST_LIVE=1 ", "--live ")`, `("TUICAST_LIVE=0 ", "--replay ")` or nothing for the
    /// default. Hints use it, so that the command they give is the run's own.
    pub fn command_parts(self) -> (&'static str, &'static str) {
        match self {
            LiveMode::Auto => ("", ""),
            LiveMode::Always => ("TUICAST_LIVE=1 ", "--live "),
            LiveMode::Never => ("TUICAST_LIVE=0 ", "--replay "),
        }
    }

    /// Whether this mode records `case` live (it needs a scenario).
    pub fn records(self, case: &Case) -> bool {
        case.scenario
            .as_ref()
            .is_some_and(|s| self.records_scenario(s))
    }

    /// Whether this mode records a case of `scenario` live: always with
    /// [`LiveMode::Always`], never with [`LiveMode::Never`], and by default when it runs the
    /// project's own code (`bin =`, `live = true`, a script of the project: see
    /// [`Scenario::runs_project_code`]) — in every build: the recorder is never left out.
    pub fn records_scenario(self, scenario: &Scenario) -> bool {
        match self {
            LiveMode::Always => true,
            LiveMode::Never => false,
            LiveMode::Auto => scenario.runs_project_code(),
        }
    }
}

/// The file a live recording is kept in when it differs from the goldens: `<cast>.new`.
pub fn live_cast_path(cast: &Path) -> PathBuf {
    assert::pending_path(cast)
}

/// The folder this run's live recordings are shared in: `<target>/tuicast-live/<run>/`, the
/// target folder being the one the running test binary is in (`<target>/<profile>/deps/`),
/// else `CARGO_TARGET_DIR`, else `tuicast-live-UID` in the temporary folder (a folder per
/// user: another could read or swap a recording in a shared one); `<run>` is
/// `NEXTEST_RUN_ID`, else this process. Both folders are made private (mode 0700) and refused
/// when another user owns them.
pub fn run_dir() -> PathBuf {
    live_base().join(run_id())
}

fn live_base() -> PathBuf {
    match target_dir() {
        Some(target) => target.join("tuicast-live"),
        None => {
            let uid =
                crate::util::current_uid().map_or_else(|_| "unknown".into(), |u| u.to_string());
            std::env::temp_dir().join(format!("tuicast-live-{uid}"))
        }
    }
}

fn target_dir() -> Option<PathBuf> {
    let from_exe = std::env::current_exe().ok().and_then(|exe| {
        let deps = exe.parent()?;
        (deps.file_name()? == "deps").then(|| deps.parent()?.parent().map(Path::to_path_buf))?
    });
    from_exe.or_else(|| std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from))
}

fn run_id() -> String {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| match std::env::var("NEXTEST_RUN_ID") {
        Ok(id) if !id.is_empty() => format!("nextest-{}", file_safe(&id)),
        _ => {
            let nanos = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            format!("process-{}-{nanos}", std::process::id())
        }
    })
    .clone()
}

/// `name` as one file name: letters, digits, `-` and `_` kept, anything else as `.XX` hex.
pub(super) fn file_safe(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            out.push(b as char);
        } else {
            out.push_str(&format!(".{b:02x}"));
        }
    }
    out
}

/// The run folder, made, with run folders of earlier runs older than a day removed.
pub(super) fn make_run_dir() -> std::io::Result<PathBuf> {
    let dir = run_dir();
    // Checked every time: the folders are this user's alone before anything is read there.
    crate::util::private_dir(&live_base())?;
    let made = !dir.is_dir();
    crate::util::private_dir(&dir)?;
    if made {
        if let Some(Ok(entries)) = dir.parent().map(std::fs::read_dir) {
            let day = Duration::from_secs(24 * 3600);
            for e in entries.flatten() {
                let old = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > day);
                if old && e.path() != dir {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
    }
    Ok(dir)
}

/// Prints `message` to stderr once per run (under nextest, once across its processes).
pub(super) fn warn_once(key: &str, message: &str) {
    static SHOWN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut shown = SHOWN.lock().unwrap_or_else(|e| e.into_inner());
    if shown.iter().any(|k| k == key) {
        return;
    }
    shown.push(key.to_string());
    let first_in_run = make_run_dir()
        .and_then(|d| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(d.join(format!("{}.warned", file_safe(key))))
        })
        .map(|_| true)
        .or_else(|e| Ok::<bool, ()>(e.kind() != std::io::ErrorKind::AlreadyExists))
        .unwrap_or(true);
    if first_in_run {
        eprintln!("{message}");
    }
}

/// In replay mode: a warning when `case`'s scenario runs the project's own code — the
/// package's binary as built now, or a script of the project — and the cast is older than it
/// (`None` when it is not, or either cannot be found).
pub(super) fn older_than_binary(case: &Case) -> Option<String> {
    let scenario = case.scenario.as_ref()?;
    let (what, program) = match &scenario.program {
        Program::Bin { name, from, .. } => (
            format!(
                "the binary {}",
                crate::escape::escape_for_terminal(name, 60)
            ),
            crate::record::cargo_bin::existing(name, from)?,
        ),
        _ => {
            let newest = scenario
                .project_files()
                .into_iter()
                .filter_map(|f| Some((std::fs::metadata(&f).ok()?.modified().ok()?, f)))
                .max()?;
            ("the file".to_string(), newest.1)
        }
    };
    let built = std::fs::metadata(&program).ok()?.modified().ok()?;
    let recorded = std::fs::metadata(&case.cast).ok()?.modified().ok()?;
    (built > recorded).then(|| {
        format!(
            "warning: {} is older than {what} its scenario runs ({}): replaying it tests the \
             program as it was; record it live with `tuicast test --live` or \
             `{LIVE_ENV}=1 cargo test`",
            assert::shown_path(&case.cast),
            assert::shown_path(&program),
        )
    })
}

/// How long a trial waits for another process's recording of the same cast.
const WAIT_FOR_RECORDING: Duration = Duration::from_secs(600);

/// Live mode: the scenario recorded once per run (see the module docs), the recording
/// replayed, and kept as `<cast>.new` when any checkpoint differs from its golden (`always`
/// replaces the cast).
pub(super) fn live_replay(
    config: &Config,
    case: &Case,
    scenario: &Scenario,
    update: UpdateAction,
    png: &assert::PngCheck,
) -> Replayed {
    let dir = make_run_dir().map_err(|e| {
        format!(
            "cannot make the folder for live recordings {}: {e}",
            assert::shown_path(&run_dir())
        )
    })?;
    let key = file_safe(&crate::util::resolved(&case.cast).display().to_string());
    let recorded = dir.join(format!("{key}.cast"));
    let done = dir.join(format!("{key}.done"));
    let lock = dir.join(format!("{key}.lock"));
    let deadline = std::time::Instant::now() + WAIT_FOR_RECORDING;
    let mut won = false;
    loop {
        if let Some(result) = read_done(&done) {
            note_outcome(case, &recorded, &result);
            result.map_err(Failure::from)?;
            break;
        }
        match crate::util::PidLock::acquire(&lock) {
            Ok(Some(held)) => {
                if let Some(result) = read_done(&done) {
                    // Finished between our look and our lock.
                    held.release();
                    note_outcome(case, &recorded, &result);
                    result.map_err(Failure::from)?;
                    break;
                }
                won = true;
                let result = record_and_decide(config, case, scenario, update, &recorded, png);
                if result.is_ok() || shared_between_processes() {
                    let _ = crate::util::write_atomic(&done, &Done::of(&result).to_json());
                }
                held.release();
                note_outcome(case, &recorded, &result);
                result.map_err(Failure::from)?;
                break;
            }
            // Another process records it (a stale lock was taken over above).
            Ok(None) => {
                if std::time::Instant::now() > deadline {
                    return Err(failure!(
                        "live recording of {}: waited {}s for the process recording it (lock {})",
                        assert::shown_path(&case.cast),
                        WAIT_FOR_RECORDING.as_secs(),
                        assert::shown_path(&lock)
                    ));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(failure!("cannot lock {}: {e}", assert::shown_path(&lock))),
        }
    }
    let replayed = crate::cast::open(&recorded)
        .map_err(|e| Failure::from(e.to_string()))
        .and_then(|r| {
            replay::checkpoints(r, case.engine).map_err(|e| Failure::from(e.to_string()))
        });
    if won && !shared_between_processes() {
        // The trials of this process share their cast's outcome already; a later check in the
        // same process (a library caller checking again) records again. The recording stays
        // in the run's folder for the report's player until then.
        let _ = std::fs::remove_file(&done);
    }
    replayed
}

/// Why a live recording failed: the message, and the line of the scenario step that failed
/// when one did.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Failed {
    message: String,
    step_line: Option<u64>,
    /// The failure as data (a recording's failed step), when known.
    failure: Option<Box<FailureJson>>,
}

impl From<String> for Failed {
    fn from(message: String) -> Failed {
        Failed {
            message,
            step_line: None,
            failure: None,
        }
    }
}

impl From<Failed> for Failure {
    fn from(f: Failed) -> Failure {
        Failure(f.message, f.failure)
    }
}

/// What the last live recording of a cast in this process left for the report: the
/// recording (its partial part when it failed) and the step that failed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LiveOutcome {
    /// The new recording, in the run's folder.
    pub(crate) recording: PathBuf,
    /// The 1-based line of the scenario step that failed.
    pub(crate) failed_line: Option<u64>,
}

/// The live outcomes of this process, by cast.
static OUTCOMES: std::sync::Mutex<Option<std::collections::HashMap<PathBuf, LiveOutcome>>> =
    std::sync::Mutex::new(None);

fn note_outcome(case: &Case, recorded: &Path, result: &Result<(), Failed>) {
    let partial = crate::record::run::partial_path(recorded);
    let outcome = LiveOutcome {
        recording: if result.is_err() && partial.is_file() {
            partial
        } else {
            recorded.to_path_buf()
        },
        failed_line: result.as_ref().err().and_then(|f| f.step_line),
    };
    let mut map = OUTCOMES.lock().unwrap_or_else(|e| e.into_inner());
    map.get_or_insert_with(Default::default)
        .insert(case.cast.clone(), outcome);
}

/// The outcome of the last live recording of `cast` in this process, if it was recorded live.
pub(crate) fn live_outcome(cast: &Path) -> Option<LiveOutcome> {
    let map = OUTCOMES.lock().unwrap_or_else(|e| e.into_inner());
    map.as_ref().and_then(|m| m.get(cast).cloned())
}

/// Where a live recording's time went: its length, and how much of it was spent waiting for
/// checkpoints to settle after the program's last output (the sum of their overheads, as
/// `tuicast info` shows them one by one).
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct RecordingTimes {
    /// Seconds from the program's start to the recording's last event.
    pub recording: f64,
    /// Seconds, of those, from the program's last output to each checkpoint, summed.
    pub settling: f64,
    /// Each checkpoint's overhead (from the program's last output before it), in seconds.
    pub overheads: Vec<f64>,
}

/// [`RecordingTimes`] of the recording at `path` (`None`: it cannot be read).
pub fn recording_times(path: &Path) -> Option<RecordingTimes> {
    let reader = crate::cast::open(path).ok()?;
    let mut times = RecordingTimes::default();
    let mut last_output = 0.0f64;
    for event in reader {
        let event = event.ok()?;
        match &event.data {
            crate::cast::EventData::Output(_) => last_output = event.time,
            crate::cast::EventData::Marker(label) if !label.is_empty() => {
                let overhead = (event.time - last_output).max(0.0);
                times.settling += overhead;
                times.overheads.push(overhead);
            }
            _ => {}
        }
        times.recording = event.time;
    }
    Some(times)
}

/// [`RecordingTimes`] of the live recording this process made of `cast` (`None`: it was not
/// recorded live here, or the recording cannot be read).
pub fn live_recording_times(cast: &Path) -> Option<RecordingTimes> {
    recording_times(&live_outcome(cast)?.recording)
}

/// Whether trials of this run are separate processes (cargo-nextest).
fn shared_between_processes() -> bool {
    std::env::var_os("NEXTEST_RUN_ID").is_some_and(|v| !v.is_empty())
}

/// The result a finished recording left: `Some(Ok)`, `Some(Err(why))`, or `None` (not yet).
/// The file holds `ok`, or `error [LINE]` and the message on the lines after.
fn read_done(done: &Path) -> Option<Result<(), Failed>> {
    use std::io::Read as _;
    let file = std::fs::File::open(done).ok()?;
    let mut bytes = Vec::new();
    // A message is a few lines; more than the limit is not a file of ours.
    if let Err(e) = file.take(MAX_DONE_BYTES + 1).read_to_end(&mut bytes) {
        return Some(Err(Failed::from(format!(
            "cannot read the live recording's outcome {}: {e}",
            assert::shown_path(done)
        ))));
    }
    let read = (bytes.len() as u64 <= MAX_DONE_BYTES)
        .then(|| serde_json::from_slice::<Done>(&bytes).ok())
        .flatten();
    Some(match read {
        Some(Done::Ok) => Ok(()),
        Some(Done::Error {
            message,
            step_line,
            failure,
        }) => Err(Failed {
            message,
            step_line,
            failure,
        }),
        // Never a pass from a file that does not say so.
        None => Err(Failed::from(format!(
            "the live recording's outcome {} is not one tuicast wrote (remove the folder {} \
             and run again)",
            assert::shown_path(done),
            assert::shown_path(done.parent().unwrap_or(done))
        ))),
    })
}

/// The largest outcome file read.
const MAX_DONE_BYTES: u64 = 1 << 20;

/// A live recording's outcome, as the process that recorded it leaves it for the others of
/// the run (`<key>.done` in the run's folder, JSON): `"ok"`, or
/// `{"error": {"message": …, "step_line": …}}`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Done {
    Ok,
    Error {
        message: String,
        step_line: Option<u64>,
        #[serde(default)]
        failure: Option<Box<FailureJson>>,
    },
}

impl Done {
    fn of(result: &Result<(), Failed>) -> Done {
        match result {
            Ok(()) => Done::Ok,
            Err(f) => Done::Error {
                message: f.message.clone(),
                step_line: f.step_line,
                failure: f.failure.clone(),
            },
        }
    }

    fn to_json(&self) -> Vec<u8> {
        // A unit variant and strings: serializing cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }
}

/// Records the scenario into `recorded` and decides, once, what becomes of it beside the cast:
/// matching every golden, an old `<cast>.new` goes; differing, it is kept as `<cast>.new`
/// (`new`) or replaces the cast (`always`); `no` writes nothing.
fn record_and_decide(
    config: &Config,
    case: &Case,
    scenario: &Scenario,
    update: UpdateAction,
    recorded: &Path,
    png: &assert::PngCheck,
) -> Result<(), Failed> {
    if let Err(e) = crate::record::record_scenario(scenario, recorded, &mut |_| {}) {
        // The partial recording stays in the run's folder: the report plays it.
        let file = scenario
            .source
            .clone()
            .unwrap_or_else(|| case.cast.with_extension("toml"));
        let message = format!(
            "live recording of {} failed: {e}",
            assert::shown_path(&file)
        );
        let mut failure = e.failure();
        failure.message.clone_from(&message);
        return Err(Failed {
            message,
            step_line: e.origin().map(|o| o.line),
            failure: Some(Box::new(failure)),
        });
    }
    let checkpoints = crate::cast::open(recorded)
        .map_err(|e| e.to_string())
        .and_then(|r| replay::checkpoints(r, case.engine).map_err(|e| e.to_string()))
        .map_err(Failed::from)?;
    // Does the new recording match every golden it is checked against? Compare without
    // writing anything.
    let cast_label = assert::pending::relative_name(&config.root, &case.cast);
    let checked = case.checked();
    let matches = checkpoints
        .iter()
        .filter(|cp| checked.contains(cp.name.as_str()))
        .all(|cp| {
            let screen = masked(&case.masks, &cp.screen);
            let cursor = assert::cursor_view(&case.masks, &cp.screen, case.cursor);
            case.formats.iter().all(|f| {
                let golden =
                    assert::snapshot_path(&config.snapshots, &case.stem, &cp.name, f.extension());
                let check = Check {
                    format: *f,
                    golden: &golden,
                    cast: &cast_label,
                    checkpoint: &cp.name,
                    action: UpdateAction::WriteNothing,
                    color: false,
                    png,
                    scrollback: case.scrollback,
                    styles: case.styles,
                };
                check
                    .check_with(&screen, cursor)
                    .is_ok_and(|(outcome, _)| outcome.passed())
            })
        });
    // The committed cast must also make the same checkpoints: a checkpoint step removed from
    // the scenario leaves every golden matching, and the old cast would then fail a replay.
    let names: Vec<&str> = checkpoints.iter().map(|c| c.name.as_str()).collect();
    let same_checkpoints = super::discover::scan_checkpoints(&case.cast).is_ok_and(|old| {
        old.iter()
            .map(|c| c.name.as_str())
            .eq(names.iter().copied())
    });
    if matches && !same_checkpoints {
        let what = if update == UpdateAction::Overwrite {
            "it is replaced by the new recording".to_string()
        } else if update == UpdateAction::WriteNothing {
            // CI: nothing is written, but a replay of the committed cast would fail.
            format!(
                "this run writes nothing; record it again with `tuicast record {}`",
                crate::escape::shell_quote(&assert::shown_path(&case.cast.with_extension("toml")))
            )
        } else {
            format!(
                "the new recording is kept for review as {}: accept it with `tuicast accept {}`",
                assert::shown_path(&live_cast_path(&case.cast)),
                crate::escape::shell_quote(&crate::escape::escape_for_terminal(&case.stem, 200))
            )
        };
        warn_once(
            &format!("checkpoints-changed-{}", case.stem),
            &format!(
                "note: {} makes other checkpoints than its scenario now makes ({}): {what}",
                assert::shown_path(&case.cast),
                crate::escape::escape_for_terminal(&names.join(", "), 300),
            ),
        );
    }
    let matches = matches && same_checkpoints;
    let new_cast = live_cast_path(&case.cast);
    let copy = |to: &Path| {
        std::fs::read(recorded)
            .and_then(|bytes| crate::util::write_atomic(to, &bytes))
            .map_err(|e| format!("cannot write {}: {e}", assert::shown_path(to)))
    };
    match (matches, update) {
        (true, _) => {
            // What this run checked passed: a `.cast.new` left by an earlier run is stale.
            if update != UpdateAction::WriteNothing {
                let _ = std::fs::remove_file(&new_cast);
            }
        }
        (false, UpdateAction::Overwrite) => {
            copy(&case.cast).map_err(Failed::from)?;
            let _ = std::fs::remove_file(&new_cast);
        }
        (false, UpdateAction::WriteNew) => copy(&new_cast).map_err(Failed::from)?,
        (false, _) => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_switch_reads_one_zero_or_nothing() {
        assert_eq!(LiveMode::parse("1"), Some(LiveMode::Always));
        assert_eq!(LiveMode::parse(" yes "), Some(LiveMode::Always));
        assert_eq!(LiveMode::parse("0"), Some(LiveMode::Never));
        assert_eq!(LiveMode::parse("false"), Some(LiveMode::Never));
        assert_eq!(LiveMode::parse(""), Some(LiveMode::Auto));
        assert_eq!(LiveMode::parse("sometimes"), None);
        let e = LiveModeError("sometimes".into()).to_string();
        assert!(e.starts_with("TUICAST_LIVE=sometimes: expected 1"), "{e}");
    }

    #[test]
    fn run_folders_are_one_file_name_per_cast_and_live_under_the_target_folder() {
        assert_eq!(file_safe("a/b c"), "a.2fb.20c");
        let dir = run_dir();
        // Unit tests run from target/<profile>/deps/.
        assert!(dir.parent().unwrap().ends_with("tuicast-live"), "{dir:?}");
        assert_eq!(run_dir(), dir, "one folder for the whole run");
    }

    #[test]
    fn a_done_file_says_the_outcome() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        let failed = Err(Failed {
            message: "line 7 broke\nmore".into(),
            step_line: Some(7),
            failure: Some(Box::new(
                FailureJson::new(crate::location::FailureKind::Timeout, "line 7 broke")
                    .at("s.toml", 7, 3),
            )),
        });
        for result in [Ok(()), Err(Failed::from("it broke".to_string())), failed] {
            std::fs::write(at("x.done"), Done::of(&result).to_json()).unwrap();
            assert_eq!(read_done(&at("x.done")), Some(result));
        }
        assert_eq!(read_done(&at("none.done")), None);
        // Only what says so is a pass: not an old text form, a stray file or a huge one.
        let huge = vec![b' '; MAX_DONE_BYTES as usize + 1];
        for (name, text) in [("a", &b"ok\n"[..]), ("b", b"{}"), ("c", &huge)] {
            std::fs::write(at(name), text).unwrap();
            match read_done(&at(name)) {
                Some(Err(f)) => assert!(f.message.contains("not one tuicast wrote"), "{f:?}"),
                other => panic!("{name}: {other:?}"),
            }
        }
        assert_eq!(
            String::from_utf8(Done::of(&Ok(())).to_json()).unwrap(),
            "\"ok\""
        );
    }
}
