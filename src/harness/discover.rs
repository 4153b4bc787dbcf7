//! Discovery: the casts to check, each a [`Case`] with its scenario's `[check]` and its
//! checkpoint names, found by scanning markers of skimmed casts (no replay), on every core.
//!
//! Casts are found below `casts/` without following symbolic links to folders, within depth,
//! count and entry limits (`MAX_CAST_DEPTH`, `MAX_CASTS`, `MAX_DISCOVERY_ENTRIES`); a scenario
//! without a cast counts as the cast it would record. A case the run records live takes its
//! checkpoints from its scenario's checkpoint steps (planned, before recording); the others from
//! the markers of their skimmed casts, with the checkpoints a changed scenario disagrees about
//! marked `stale` (they fail with the command that records the cast again). At most `MAX_TRIALS`
//! tests and `MAX_REGION_GOLDENS` region goldens a run; the expected goldens and the orphans are
//! found here too.

use super::Failure;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::live::LiveMode;
use crate::assert::{self, Format, Mask};
use crate::cast::CastError;
use crate::config::{CastFile, Config, NO_FORMATS};
use crate::record::{Action, Scenario, Step};
use crate::replay::CheckpointNames;
use crate::term::EngineSpec;

/// One cast to check: where it is, its checkpoints, and how to check them.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Case {
    /// The cast file.
    pub cast: PathBuf,
    /// Its name in test names and snapshot paths: the path relative to `casts/`, no `.cast`.
    pub stem: String,
    /// Checkpoint names in order (`end` last), or why the cast or its scenario is unusable.
    pub checkpoints: Result<Vec<CheckpointInfo>, Failure>,
    /// Snapshot formats to check.
    pub formats: Vec<Format>,
    /// Masks applied before comparing.
    pub masks: Vec<Mask>,
    /// Whether goldens record the cursor (`[check] cursor`).
    pub cursor: bool,
    /// Whether `txt` goldens carry the screen's style runs (`[check] styles`, else the
    /// project's `styles`).
    pub styles: bool,
    /// Scrolled-off lines text goldens show above the screen (`[check] scrollback`).
    pub scrollback: usize,
    /// Where `[check] scrollback` is declared, when it is.
    pub scrollback_at: Option<String>,
    /// How to record this cast, when its TOML says (live mode).
    pub scenario: Option<Scenario>,
    /// The engine its checkpoints replay with: the project's, with the cast TOML's
    /// `[terminal]` over its options.
    pub engine: EngineSpec,
    /// Expectations (`[[check.expect]]`), each a test of its own at the checkpoints it
    /// names.
    pub expects: Vec<crate::assert::Expect>,
    /// Regions with goldens of their own (`[check] regions`): `<checkpoint>.<region>.txt`.
    pub region_goldens: Vec<(String, crate::inspect::Anchor)>,
    /// Every named region of the cast's TOML and `tuicast.toml` (what the flake guard may
    /// suggest masking by name).
    pub regions: std::collections::BTreeMap<String, crate::inspect::Anchor>,
}

/// A checkpoint of a case: found by scanning a cast's markers (no replay needed), or, for a
/// case recorded live, planned from its scenario's checkpoint steps.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CheckpointInfo {
    /// The unique checkpoint name.
    pub name: String,
    /// The cast line of its marker (or of the last event, for `end`); 0 for a checkpoint
    /// planned from a scenario, whose line is known once it is recorded.
    pub line: u64,
    /// Why this checkpoint fails whatever the replay shows: the scenario and the committed
    /// cast disagree about it (a checkpoint step added, renamed or removed since the cast was
    /// recorded, and the cast replayed instead of recorded again).
    pub stale: Option<String>,
}

impl Case {
    /// The expectations checked at the checkpoint `name`.
    pub fn expects_at<'a>(
        &'a self,
        name: &'a str,
    ) -> impl Iterator<Item = &'a crate::assert::Expect> + 'a {
        self.expects.iter().filter(move |e| e.applies_to(name))
    }

    /// The test names of this case in order, in a run of the live mode `live`: its
    /// recording's when `live` records it (the stem: the recording is a test of its own),
    /// then each checkpoint's, then its expectations'.
    pub fn test_names(&self, live: LiveMode) -> Vec<String> {
        match &self.checkpoints {
            Ok(infos) => live
                .records(self)
                .then(|| self.stem.clone())
                .into_iter()
                .chain(infos.iter().flat_map(|i| {
                    std::iter::once(super::test_name(&self.stem, &i.name)).chain(
                        self.expects_at(&i.name)
                            .map(|e| super::trials::expect_test_name(&self.stem, &i.name, &e.id)),
                    )
                }))
                .collect(),
            Err(_) => vec![self.stem.clone()],
        }
    }

    /// The names of the checkpoints this case checks (see `[check] end` and
    /// `checkpoints`), to look each replayed checkpoint up in once per case: a cast may
    /// hold thousands.
    pub fn checked(&self) -> std::collections::HashSet<&str> {
        match &self.checkpoints {
            Ok(infos) => infos.iter().map(|i| i.name.as_str()).collect(),
            Err(_) => Default::default(),
        }
    }
}

/// Finds the casts to check: every `*.cast` under the configured casts folder, or under the
/// given paths (files or folders), sorted, and every scenario (`NAME.toml`) there that has no
/// cast yet: a case that `live` records, or one failing check that says how to record it.
///
/// A case that `live` records takes its checkpoints from its scenario, so that a checkpoint
/// step added, renamed or removed is checked, missing or orphaned on this run; every other
/// case takes them from its cast, and where its scenario disagrees the checkpoints concerned
/// fail with the command that records the cast again.
pub fn discover(config: &Config, paths: &[PathBuf], live: LiveMode) -> Vec<Case> {
    let roots: Vec<PathBuf> = if paths.is_empty() {
        // No casts folder is no casts (not a failing test named after a missing folder).
        if !config.casts.exists() {
            return Vec::new();
        }
        vec![config.casts.clone()]
    } else {
        paths.to_vec()
    };
    let mut casts = Vec::new();
    for root in roots {
        if root.is_dir() {
            if let Err(e) = collect_casts(&root, &mut casts) {
                return vec![walk_failure(config, &root, e)];
            }
        } else if root.extension().is_some_and(|e| e == "toml") {
            // `tuicast test casts/x.toml`: the case of its cast.
            casts.push(root.with_extension("cast"));
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
        |cast| load_case(config, cast.clone(), live),
        |_, case| {
            cases.push(case);
            Ok(())
        },
    );
    let Ok(()) = loaded;
    refuse_shared_goldens(config, &mut cases);
    refuse_fan_out(&mut cases);
    cases
}

/// Two checkpoints (of one cast or two) whose names sanitize to the same golden would share
/// it, and one screen would pass for the other: the later case fails, naming both.
fn refuse_shared_goldens(config: &Config, cases: &mut [Case]) {
    let mut owners: std::collections::HashMap<PathBuf, (PathBuf, String)> = Default::default();
    for case in cases.iter_mut() {
        let Ok(infos) = &case.checkpoints else {
            continue;
        };
        let mut clash = None;
        for info in infos {
            let txt = assert::Format::Text.extension();
            let golden = assert::snapshot_path(&config.snapshots, &case.stem, &info.name, txt);
            match owners.get(&golden) {
                Some((cast, name)) => {
                    clash = Some(format!(
                        "{}: checkpoint \"{}\" and checkpoint \"{}\" of {} would share the golden {}: rename one",
                        assert::shown_path(&case.cast),
                        crate::escape::escape_for_terminal(&info.name, 100),
                        crate::escape::escape_for_terminal(name, 100),
                        assert::shown_path(cast),
                        assert::shown_path(&golden.with_extension("")),
                    ));
                    break;
                }
                None => {
                    owners.insert(golden, (case.cast.clone(), info.name.clone()));
                }
            }
        }
        if let Some(message) = clash {
            case.checkpoints = Err(message.into());
        }
    }
}

/// Why goldens of `stem` may not be written: a folder on the way from the snapshots folder to
/// `snapshots/<stem>/` that is a symlink to somewhere outside it.
fn leaves_snapshots(config: &Config, stem: &str) -> Option<String> {
    let mut dir = config.snapshots.clone();
    let mut root = None;
    for part in stem.split('/') {
        dir.push(part);
        let Ok(meta) = std::fs::symlink_metadata(&dir) else {
            return None; // not made yet: tuicast makes it a real folder
        };
        if meta.file_type().is_symlink() {
            let root = root.get_or_insert_with(|| crate::util::resolved(&config.snapshots));
            let target = std::fs::canonicalize(&dir).unwrap_or_default();
            if !target.starts_with(&*root) {
                return Some(format!(
                    "{} is a symlink out of the snapshots folder: goldens are not written through it",
                    assert::shown_path(&dir)
                ));
            }
        }
    }
    None
}

/// The snapshot stem of `cast`: its path under the casts folder; for a cast given from
/// elsewhere, under the project folder, or else its file name alone — never a path of the
/// machine it runs on (`tuicast test /abs/y.cast`, `../y.cast`).
fn stem_of(config: &Config, cast: &Path) -> String {
    let plain = !cast
        .components()
        .any(|c| matches!(c, std::path::Component::ParentDir));
    if plain && cast.starts_with(&config.casts) {
        // The common case, found by discovery: no file system look-up needed.
        return assert::cast_stem(&config.casts, cast);
    }
    let cast = crate::util::resolved(cast);
    let casts = crate::util::resolved(&config.casts);
    let root = crate::util::resolved(&config.root);
    if cast.starts_with(&casts) {
        assert::cast_stem(&casts, &cast)
    } else if cast.starts_with(&root) {
        assert::cast_stem(&root, &cast)
    } else {
        let dir = cast.parent().unwrap_or(Path::new(""));
        assert::cast_stem(dir, &cast)
    }
}

/// Builds the [`Case`] of one cast: its scenario's `[check]`, and its checkpoint names (from
/// the scenario when `live` records the case, else from the cast; see [`discover`]).
pub fn load_case(config: &Config, cast: PathBuf, live: LiveMode) -> Case {
    let stem = stem_of(config, &cast);
    let mut formats = config.formats.clone();
    let mut masks = Vec::new();
    let mut cursor = true;
    let mut styles = config.styles;
    let mut scrollback = 0;
    let mut scrollback_at = None;
    let mut problem = None;
    // The problem as data, when its cause gave it (a cast TOML's place).
    let mut problem_data = None;
    let mut scenario = None;
    let mut checked = crate::config::Checked::all();
    let mut engine = config.engine;
    let mut expects = Vec::new();
    let mut region_goldens = Vec::new();
    let mut regions = config.regions.anchors.clone();
    // Goldens are written under snapshots/<stem>/: never through a symlink that leads out of
    // the snapshots folder (a cloned repository can hold one pointing anywhere).
    if let Some(p) = leaves_snapshots(config, &stem) {
        problem = Some(p);
    }
    match CastFile::beside(&cast, &config.regions) {
        Ok(Some(file)) => {
            if let Some(f) = file.formats {
                formats = f;
            }
            masks = file.masks;
            cursor = file.cursor;
            styles = file.styles.unwrap_or(styles);
            scrollback = file.scrollback;
            scrollback_at = file.scrollback_at;
            engine.options = file.terminal.apply(engine.options);
            scenario = file.recording.map(|mut s| {
                s.terminal = engine.options;
                s.live = s.live.or(config.live);
                s
            });
            checked = file.checked;
            expects = file.expects;
            region_goldens = file.region_goldens;
            regions = file.anchors;
        }
        Ok(None) => {}
        Err(e) => {
            problem = Some(e.to_string());
            problem_data = Some(Box::new(e.failure()));
        }
    }
    // No format, no region golden, no expectation: every test of the cast would pass having
    // checked nothing (`formats = []` in tuicast.toml; a cast TOML's own is refused as read).
    if formats.is_empty() && region_goldens.is_empty() && expects.is_empty() && problem.is_none() {
        let place = config.no_formats_at.clone().unwrap_or_default();
        problem = Some(format!(
            "{place}: {NO_FORMATS} for {}",
            assert::shown_path(&cast)
        ));
    }
    let records = scenario.as_ref().is_some_and(|s| live.records_scenario(s));
    let checkpoints = match problem {
        Some(p) => Err(Failure(p, problem_data)),
        None => match (&scenario, records) {
            (Some(s), true) => Ok(planned_checkpoints(s)),
            (Some(s), false) if !cast.exists() => Err(unrecorded(&cast, s, live)),
            (None, _) if !cast.exists() && cast.with_extension("toml").is_file() => Err(failure!(
                "{}: no cast {} beside it, and no scenario (command, shell or bin) to \
                     record one from",
                assert::shown_path(&cast.with_extension("toml")),
                assert::shown_path(&cast)
            )),
            _ => scan_checkpoints(&cast)
                .map_err(|e| {
                    Failure::of_data(e.with_path(crate::util::relative_to_cwd(&cast)).failure())
                })
                .map(|all| match &scenario {
                    Some(s) => with_stale(&cast, all, s),
                    None => all,
                }),
        }
        .and_then(|all| {
            expected_checkpoints(&all, &expects)?;
            choose(&cast, all, &checked)
        }),
    };
    Case {
        cast,
        stem,
        checkpoints,
        formats,
        masks,
        cursor,
        styles,
        scrollback,
        scrollback_at,
        scenario,
        engine,
        expects,
        region_goldens,
        regions,
    }
}

/// The checkpoints a recording of `scenario` makes: one per checkpoint step, named as replay
/// names markers, then `end`.
pub(super) fn planned_checkpoints(scenario: &Scenario) -> Vec<CheckpointInfo> {
    planned_steps(scenario)
        .into_iter()
        .map(|(name, _)| CheckpointInfo {
            name,
            line: 0,
            stale: None,
        })
        .collect()
}

/// The checkpoint names of `scenario` in order (`end` last), each with the step that makes
/// it (`None` for `end`).
fn planned_steps(scenario: &Scenario) -> Vec<(String, Option<&Step>)> {
    let mut names = CheckpointNames::default();
    let mut out: Vec<(String, Option<&Step>)> = scenario
        .steps
        .iter()
        .filter_map(|step| match &step.action {
            Action::Snapshot(label) => names
                .event(&crate::cast::EventData::Marker(label.clone()))
                .map(|name| (name, Some(step))),
            _ => None,
        })
        .collect();
    out.push((names.end(), None));
    out
}

/// The failure of a scenario whose cast does not exist and that this run does not record.
fn unrecorded(cast: &Path, scenario: &Scenario, live: LiveMode) -> Failure {
    let toml = scenario
        .source
        .clone()
        .unwrap_or_else(|| cast.with_extension("toml"));
    let why = if live == LiveMode::Never {
        "this run replays (TUICAST_LIVE=0 or --replay)"
    } else {
        "this run records live only scenarios of the project's own code (bin =, live = true, \
         or a script of the project)"
    };
    failure!(
        "{}: no cast {} has been recorded from this scenario, and {why}: {}",
        assert::shown_path(&toml),
        assert::shown_path(cast),
        how_to_record(&toml, "it")
    )
}

/// `record it with `tuicast record casts/x.toml`` (`what`: "it", "the cast again"), and how
/// to check it live where this build can.
fn how_to_record(toml: &Path, what: &str) -> String {
    format!(
        "record {what} with `tuicast record {}`, or check it live with `tuicast test --live` \
         (TUICAST_LIVE=1 cargo test)",
        crate::escape::shell_quote(&assert::shown_path(toml)),
    )
}

/// The cast's checkpoints `all`, checked against its scenario: a checkpoint step the cast
/// lacks is added and one the cast has that no step makes is kept, both `stale`, failing with
/// the command that records the cast again (the cast predates the scenario's last edit).
fn with_stale(cast: &Path, all: Vec<CheckpointInfo>, scenario: &Scenario) -> Vec<CheckpointInfo> {
    let planned = planned_steps(scenario);
    let toml = scenario
        .source
        .clone()
        .unwrap_or_else(|| cast.with_extension("toml"));
    let again = how_to_record(&toml, "the cast again");
    let shown = |n: &str| crate::escape::escape_for_terminal(n, 100);
    // By name, once each: a cast may hold thousands of checkpoints.
    let position: std::collections::HashMap<&str, usize> = planned
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.as_str(), i))
        .collect();
    let in_cast: HashSet<String> = all.iter().map(|i| i.name.clone()).collect();
    let mut out = Vec::with_capacity(all.len());
    let mut next = 0; // planned steps before this index are placed
    for mut info in all {
        match position.get(info.name.as_str()) {
            Some(&at) => {
                // Scenario checkpoints the cast lacks go before the next one it has.
                for (name, step) in planned.iter().take(at).skip(next) {
                    if !in_cast.contains(name) {
                        out.push(missing_from_cast(cast, name, *step, &again));
                    }
                }
                next = next.max(at + 1);
            }
            None => {
                info.stale = Some(format!(
                    "{}: checkpoint \"{}\" (line {}) is no longer made by its scenario {}, \
                     which was edited after the cast was recorded: {again}",
                    assert::shown_path(cast),
                    shown(&info.name),
                    info.line,
                    assert::shown_path(&toml),
                ));
            }
        }
        out.push(info);
    }
    for (name, step) in planned.iter().skip(next) {
        if !in_cast.contains(name) {
            out.push(missing_from_cast(cast, name, *step, &again));
        }
    }
    out
}

/// A checkpoint of the scenario that its cast does not have.
fn missing_from_cast(cast: &Path, name: &str, step: Option<&Step>, again: &str) -> CheckpointInfo {
    let place = step
        .and_then(|s| s.origin.as_ref())
        .map_or_else(String::new, |o| {
            format!("{}:{}:{}: ", assert::shown_path(&o.path), o.line, o.column)
        });
    CheckpointInfo {
        name: name.to_string(),
        line: 0,
        stale: Some(format!(
            "{place}checkpoint \"{}\" is not in {}, which was recorded before the step was \
             added: {again}",
            crate::escape::escape_for_terminal(name, 100),
            assert::shown_path(cast),
        )),
    }
}

/// An expectation's `at` must name a checkpoint of the cast.
fn expected_checkpoints(
    all: &[CheckpointInfo],
    expects: &[crate::assert::Expect],
) -> Result<(), Failure> {
    let have: HashSet<&str> = all.iter().map(|c| c.name.as_str()).collect();
    for e in expects {
        let Some(names) = &e.at else { continue };
        if let Some(at) = names.iter().find(|at| !have.contains(at.as_str())) {
            let have: Vec<String> = all
                .iter()
                .map(|c| crate::escape::escape_for_terminal(&c.name, 60))
                .collect();
            return Err(failure!(
                "{}: expectation {} has at = \"{}\", a checkpoint the cast does not have (it has {})",
                e.place,
                crate::escape::escape_for_terminal(&e.id, 60),
                crate::escape::escape_for_terminal(at, 60),
                have.join(", ")
            ));
        }
    }
    Ok(())
}

/// The checkpoints of `all` that `checked` selects; a name it asks for that the cast lacks,
/// or nothing left to check, is an error.
fn choose(
    cast: &Path,
    all: Vec<CheckpointInfo>,
    checked: &crate::config::Checked,
) -> Result<Vec<CheckpointInfo>, Failure> {
    let last = all.len().saturating_sub(1);
    if let Some(names) = &checked.only {
        if let Some(missing) = names.iter().find(|n| !all.iter().any(|c| &c.name == *n)) {
            let have: Vec<String> = all
                .iter()
                .map(|c| crate::escape::escape_for_terminal(&c.name, 60))
                .collect();
            return Err(failure!(
                "{}: [check] checkpoints names \"{}\", which the cast does not have (it has {})",
                assert::shown_path(&cast.with_extension("toml")),
                crate::escape::escape_for_terminal(missing, 60),
                have.join(", ")
            ));
        }
    }
    let chosen: Vec<CheckpointInfo> = all
        .into_iter()
        .enumerate()
        .filter(|(i, c)| checked.includes(&c.name, *i == last))
        .map(|(_, c)| c)
        .collect();
    if chosen.is_empty() {
        return Err(failure!(
            "{}: [check] leaves no checkpoint to check",
            assert::shown_path(&cast.with_extension("toml"))
        ));
    }
    Ok(chosen)
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
        if let Some(name) = names.checked(&event).map_err(|e| e.with_path(cast))? {
            out.push(CheckpointInfo {
                name,
                line: event.line,
                stale: None,
            });
        }
    }
    out.push(CheckpointInfo {
        name: names.end(),
        line: last,
        stale: None,
    });
    Ok(out)
}

/// The golden files a case produces (for finding orphans).
pub fn expected_snapshots(config: &Config, case: &Case) -> Vec<PathBuf> {
    let Ok(checkpoints) = &case.checkpoints else {
        return Vec::new();
    };
    checkpoints
        .iter()
        .flat_map(|c| checkpoint_goldens(config, case, &c.name))
        .collect()
}

/// The goldens of one checkpoint of `case`: one per format, one per region golden.
pub fn checkpoint_goldens(config: &Config, case: &Case, checkpoint: &str) -> Vec<PathBuf> {
    let formats = case
        .formats
        .iter()
        .map(|f| assert::snapshot_path(&config.snapshots, &case.stem, checkpoint, f.extension()));
    let regions = case
        .region_goldens
        .iter()
        .map(|(region, _)| region_golden_path(config, case, checkpoint, region));
    formats.chain(regions).collect()
}

/// The golden of `region` at `checkpoint`: `snapshots/<stem>/<checkpoint>.<region>.txt`.
pub(crate) fn region_golden_path(
    config: &Config,
    case: &Case,
    checkpoint: &str,
    region: &str,
) -> PathBuf {
    // A region golden is text: `txt`.
    let txt = assert::Format::Text.extension();
    let mut p = assert::snapshot_path(&config.snapshots, &case.stem, checkpoint, txt);
    p.set_extension(format!("{region}.{txt}"));
    p
}

/// The `.new` files (and `.diff.png` images) in a case's own snapshots folder
/// (`snapshots/<stem>/`, not the folders of other casts below it): what a run that checked
/// the whole case and passed removes, as stale.
pub(super) fn pending_files(config: &Config, case: &Case) -> Vec<PathBuf> {
    let dir = config.snapshots.join(&case.stem);
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name();
            let name = name.to_string_lossy();
            let pending = name.ends_with(".new") || name.ends_with(".diff.png");
            if pending && e.file_type().is_ok_and(|t| t.is_file()) {
                out.push(path);
            }
        }
    }
    out.sort();
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
    let mut found = assert::pending::orphans(&config.snapshots, &expected)?;
    // `assert_screen!` goldens belong to Rust tests, not to casts.
    let screens = config.snapshots.join(super::SCREENS_DIR);
    found.retain(|f| !f.starts_with(&screens));
    Ok(found)
}

/// Adds the casts under `dir` to `out`, and the casts-to-be of scenarios not recorded yet
/// ([`case_file`]). Symbolic links to folders are not followed (two one-byte links `casts/a -> .` and `casts/b -> .` made 2^40 paths, `casts/root -> /` the
/// whole file system); a link named `*.cast` is a cast like any file. Past
/// [`MAX_CAST_DEPTH`] folders deep, [`MAX_CASTS`] casts (in `out`, over every root) or
/// [`MAX_DISCOVERY_ENTRIES`] entries read, the walk stops with an error that says which.
fn collect_casts(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Failure> {
    let mut stack = vec![(dir.to_path_buf(), 0)];
    let mut seen = 0;
    while let Some((folder, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > MAX_DISCOVERY_ENTRIES {
                return Err(failure!(
                    "{}: more than {MAX_DISCOVERY_ENTRIES} files and folders to look through for \
                     casts, the most discovery reads: name the folders to check (`tuicast test PATH`)",
                    assert::shown_path(dir)
                ));
            }
            let path = entry.path();
            // The entry itself: `file_type` does not follow a symbolic link.
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if depth >= MAX_CAST_DEPTH {
                    return Err(failure!(
                        "{}: folders nested more than {MAX_CAST_DEPTH} deep under {}, deeper \
                         than discovery looks for casts",
                        assert::shown_path(&path),
                        assert::shown_path(dir)
                    ));
                }
                stack.push((path, depth + 1));
            } else if let Some(cast) = case_file(&path) {
                if out.len() >= MAX_CASTS {
                    return Err(failure!(
                        "{}: more than {MAX_CASTS} casts, the most one run checks: name the \
                         folders or casts to check (`tuicast test PATH`)",
                        assert::shown_path(dir)
                    ));
                }
                out.push(cast);
            }
        }
    }
    Ok(())
}

/// The cast a file found by discovery stands for: a `.cast` itself; a scenario (`NAME.toml`,
/// not `tuicast.toml`) whose cast has not been recorded yet, the cast it would record (a
/// scenario beside its cast is found with the cast, so no cast is counted twice).
fn case_file(path: &Path) -> Option<PathBuf> {
    let ext = path.extension()?;
    if ext == "cast" {
        return Some(path.to_path_buf());
    }
    let scenario = ext == "toml" && path.file_name()? != crate::config::CONFIG_FILE;
    let cast = path.with_extension("cast");
    (scenario && !cast.exists()).then_some(cast)
}

/// The deepest folder below a casts folder that discovery looks into.
pub(crate) const MAX_CAST_DEPTH: usize = 32;

/// The most casts one discovery finds.
pub(crate) const MAX_CASTS: usize = 10_000;

/// The most files and folders one discovery reads while looking for casts.
pub(crate) const MAX_DISCOVERY_ENTRIES: usize = 1_000_000;

/// The one case of a discovery that stopped at a limit: named after the folder, failing with
/// `error` (so `tuicast test` exits 2 and the harness runs one failing test, not none).
fn walk_failure(config: &Config, root: &Path, error: Failure) -> Case {
    Case {
        cast: root.to_path_buf(),
        stem: assert::pending::relative_name(&config.root, root),
        checkpoints: Err(error),
        formats: Vec::new(),
        masks: Vec::new(),
        cursor: true,
        styles: true,
        scrollback: 0,
        scrollback_at: None,
        scenario: None,
        engine: config.engine,
        expects: Vec::new(),
        region_goldens: Vec::new(),
        regions: Default::default(),
    }
}

/// The most tests one run makes: each checkpoint is one, and each expectation one more at
/// every checkpoint it is checked at (`at = "*"`: all of them). 10,000 markers and 1,000
/// expectations at `"*"` (240 KB of TOML) made 10 M and aborted on memory.
pub(crate) const MAX_TRIALS: usize = 100_000;

/// The most region goldens (`[check] regions`, one file per region and checkpoint) one run
/// checks: 22 KB of input asked for 100,100, which mode `new` wrote as 395 MB of `.new` files.
pub(crate) const MAX_REGION_GOLDENS: usize = 10_000;

/// Fails each case whose tests or region goldens would take the run past [`MAX_TRIALS`] or
/// [`MAX_REGION_GOLDENS`], naming the expectation (or the cast's TOML) that fans out; it is
/// then one failing test. Counted before any trial is made, so the run never holds them.
fn refuse_fan_out(cases: &mut [Case]) {
    let (mut trials_total, mut regions_total) = (0usize, 0usize);
    for case in cases.iter_mut() {
        let Ok(infos) = &case.checkpoints else {
            trials_total += 1;
            continue;
        };
        let names: HashSet<&str> = infos.iter().map(|i| i.name.as_str()).collect();
        let every = case.expects.iter().filter(|e| e.at.is_none()).count();
        let named = case
            .expects
            .iter()
            .filter_map(|e| e.at.as_ref())
            .map(|at| at.iter().filter(|a| names.contains(a.as_str())).count())
            .sum::<usize>();
        let trials = infos.len().saturating_mul(every + 1).saturating_add(named);
        let regions = infos.len().saturating_mul(case.region_goldens.len());
        let toml = || assert::shown_path(&case.cast.with_extension("toml"));
        let problem = if trials_total.saturating_add(trials) > MAX_TRIALS {
            let place = case
                .expects
                .iter()
                .find(|e| e.at.is_none())
                .map_or_else(toml, |e| e.place.clone());
            Some(format!(
                "{place}: {} checkpoints and {} expectations make {trials} tests, which takes \
                 the run past {MAX_TRIALS}, the most one run makes: give expectations a \
                 checkpoint (`at`) or check fewer checkpoints (`[check] checkpoints`)",
                infos.len(),
                case.expects.len()
            ))
        } else if regions_total.saturating_add(regions) > MAX_REGION_GOLDENS {
            Some(format!(
                "{}: [check] regions asks for {} regions at {} checkpoints, {regions} region \
                 goldens, which takes the run past {MAX_REGION_GOLDENS}, the most one run \
                 checks: name fewer regions or check fewer checkpoints (`[check] checkpoints`)",
                toml(),
                case.region_goldens.len(),
                infos.len()
            ))
        } else {
            None
        };
        match problem {
            Some(p) => {
                case.checkpoints = Err(p.into());
                trials_total += 1;
            }
            None => {
                trials_total += trials;
                regions_total += regions;
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::replay;

    /// A project in a temporary folder: `files` written under it (folders made), and its
    /// default configuration (`casts/`, `snapshots/`, `txt` goldens).
    pub(in crate::harness) fn project(files: &[(&str, &str)]) -> (tempfile::TempDir, Config) {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let config = Config::defaults(dir.path());
        (dir, config)
    }

    /// Two checkpoints: `first` (line 3) and `end` (line 4), with digits that change.
    pub(in crate::harness) const TWO: &str = r#"{"version": 3, "term": {"cols": 12, "rows": 2}}
[0.1, "o", "count 1"]
[0.1, "m", "first"]
[0.2, "o", "\r\ncount 22"]
"#;

    fn names(case: &Case) -> Vec<(String, u64)> {
        case.checkpoints
            .as_ref()
            .unwrap()
            .iter()
            .map(|c| (c.name.clone(), c.line))
            .collect()
    }

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

    #[test]
    fn every_cast_under_the_casts_folder_is_a_case_with_its_check_table() {
        let (_dir, config) = project(&[
            ("casts/b.cast", TWO),
            ("casts/sub/a.cast", TWO),
            (
                "casts/sub/a.toml",
                "[check]\nformats = [\"styled.txt\", \"txt\"]\nmask = [{ regex = \"\\\\d\" }]\n",
            ),
            ("casts/notes.txt", "not a cast"),
            ("casts/sub/a.cast.new", TWO),
        ]);
        let cases = discover(&config, &[], LiveMode::Auto);
        let stems: Vec<&str> = cases.iter().map(|c| c.stem.as_str()).collect();
        assert_eq!(stems, ["b", "sub/a"], "sorted, only `.cast` files");
        let first = [("first".to_string(), 3), ("end".to_string(), 4)];
        assert_eq!(names(&cases[0]), first);
        assert_eq!(names(&cases[1]), first);
        assert_eq!(cases[0].formats, [Format::Text], "the project's default");
        assert!(cases[0].masks.is_empty() && cases[0].scenario.is_none());
        assert_eq!(cases[1].formats, [Format::Styled, Format::Text]);
        assert_eq!(cases[1].masks.len(), 1);
        assert!(
            cases[1].scenario.is_none(),
            "a `[check]` alone records nothing"
        );

        // Given paths: a file and a folder holding it are one case, not two.
        let sub = config.casts.join("sub");
        let cases = discover(&config, &[sub.join("a.cast"), sub.clone()], LiveMode::Auto);
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].stem, "sub/a");

        let goldens = expected_snapshots(&config, &cases[0]);
        let rel: Vec<String> = goldens
            .iter()
            .map(|g| assert::pending::relative_name(&config.snapshots, g))
            .collect();
        assert_eq!(
            rel,
            [
                "sub/a/first.styled.txt",
                "sub/a/first.txt",
                "sub/a/end.styled.txt",
                "sub/a/end.txt"
            ]
        );
    }

    #[test]
    fn a_broken_cast_or_scenario_is_a_case_that_says_why() {
        let (_dir, config) = project(&[
            (
                "casts/bad.cast",
                "{\"version\": 3, \"term\": {\"cols\": 10, \"rows\": 2}}\n[0.1, \"o\"]\n",
            ),
            ("casts/good.cast", TWO),
            ("casts/good.toml", "[check]\nmask = [{ regex = \"(\" }]\n"),
        ]);
        let cases = discover(&config, &[], LiveMode::Auto);
        let errors: Vec<&super::Failure> = cases
            .iter()
            .map(|c| c.checkpoints.as_ref().unwrap_err())
            .collect();
        assert!(
            errors[0].contains("bad.cast:2:1: an event must have 3 elements"),
            "{}",
            errors[0]
        );
        assert!(errors[1].contains("good.toml:2:9:"), "{}", errors[1]);
        assert!(expected_snapshots(&config, &cases[0]).is_empty());
        // The goldens of a broken cast cannot be named: no orphans are reported.
        std::fs::create_dir_all(config.snapshots.join("bad")).unwrap();
        std::fs::write(config.snapshots.join("bad/end.txt"), "old\n").unwrap();
        assert!(orphans(&config, &cases).unwrap().is_empty());
    }

    #[test]
    fn goldens_no_checkpoint_produces_are_orphans() {
        let (_dir, config) = project(&[
            ("casts/two.cast", TWO),
            ("snapshots/two/first.txt", "x\n"),
            ("snapshots/two/gone.txt", "x\n"),
            ("snapshots/gone/end.txt", "x\n"),
        ]);
        let cases = discover(&config, &[], LiveMode::Auto);
        let found: Vec<String> = orphans(&config, &cases)
            .unwrap()
            .iter()
            .map(|o| assert::pending::relative_name(&config.snapshots, o))
            .collect();
        assert_eq!(found, ["gone/end.txt", "two/gone.txt"]);
    }

    #[test]
    fn no_formats_in_tuicast_toml_fail_a_cast_that_nothing_else_checks() {
        let (_dir, mut config) = project(&[
            ("casts/two.cast", TWO),
            ("casts/three.cast", TWO),
            (
                "casts/three.toml",
                "[[check.expect]]\nat = \"end\"\ncontains = \"count\"\n",
            ),
        ]);
        config.formats = Vec::new();
        config.no_formats_at = Some("tuicast.toml:1:11".into());
        let cases = discover(&config, &[], LiveMode::Auto);
        let e = cases[1].checkpoints.as_ref().unwrap_err().to_string();
        assert!(
            e.starts_with("tuicast.toml:1:11: formats = [] checks nothing here")
                && e.contains("two.cast"),
            "{e}"
        );
        assert!(
            cases[0].checkpoints.is_ok(),
            "three.cast has an expectation"
        );
    }
}
