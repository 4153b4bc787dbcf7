//! The flake guard (`tuicast test --live --repeat N`, `tuicast record --repeat N`): a scenario
//! recorded N times, its checkpoints compared between the recordings as goldens would see them
//! (masked, the cursor as the case records it), and a failure — before anything is accepted or
//! written — that lists the cells that varied and the masks that would hide them.
//!
//! A race (a recording whose varied cells still show the checkpoint before) is told from noise
//! (cells that vary otherwise, such as a clock), and masks are proposed for the noise.

use super::Failure;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::check::{failed_once, recording};
use super::discover::Case;
use super::result::CheckResult;
use super::trials::test_name;
use super::Options;
use crate::assert::{self, CursorView, Format, Mask, Style};
use crate::config::Config;
use crate::escape::escape_for_terminal;
use crate::pos::Ordinal;
use crate::record::{Recorded, Scenario};
use crate::replay::{self, Checkpoint};
use crate::term::{describe_runs, row_runs, EngineSpec, Screen};

/// Most recordings one guard makes (`--repeat`); more is an error, never fewer recordings.
pub const MAX_REPEAT: usize = 1000;

/// Most suggested masks listed.
const MAX_MASKS: usize = 12;

/// What the guard compares of each checkpoint: what the case's goldens hold.
#[derive(Debug, Clone, Copy)]
pub struct Compared<'a> {
    /// The engine that replays the recordings.
    pub engine: EngineSpec,
    /// The case's masks, applied before comparing.
    pub masks: &'a [Mask],
    /// Whether goldens record the cursor (`[check] cursor`).
    pub cursor: bool,
    /// Whether goldens record styles (a `styled.txt` or `png` format).
    pub styles: bool,
    /// The named regions the hint may suggest as masks (`{ region = "clock" }`): one that
    /// covers cells that varied generalises better than their rectangle.
    pub regions: &'a BTreeMap<String, crate::inspect::Anchor>,
}

impl<'a> Compared<'a> {
    /// What the goldens of `case` hold, replayed with `engine`.
    pub fn of(case: &'a Case, engine: EngineSpec) -> Compared<'a> {
        Compared {
            engine,
            masks: &case.masks,
            cursor: case.cursor,
            styles: case.formats.iter().any(|f| f.always_styled()),
            regions: &case.regions,
        }
    }
}

/// The path of recording `k` (from 1) of a guard of `cast`: `<cast>.repeat-K`.
pub fn repeat_path(cast: &Path, k: usize) -> PathBuf {
    let mut name = cast.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".repeat-{k}"));
    cast.with_file_name(name)
}

/// What [`record_repeatedly`] made when the recordings agreed.
#[derive(Debug)]
#[non_exhaustive]
pub struct Repeated {
    /// The first recording (kept at `<cast>.repeat-1`).
    pub recorded: Recorded,
    /// How many recordings agreed.
    pub recordings: usize,
    /// Every checkpoint's overhead in every recording, in seconds (see
    /// [`RecordingTimes`](super::RecordingTimes)).
    pub overheads: Vec<f64>,
}

impl Repeated {
    /// `overhead per checkpoint over 5 recordings: median 3.1 ms, max 9.0 ms (20 checkpoints)`.
    pub fn overhead_line(&self) -> String {
        let Some(median) = crate::util::median(&self.overheads) else {
            return format!("no checkpoint in {} recordings", self.recordings);
        };
        let most = self.overheads.iter().copied().fold(0.0, f64::max);
        format!(
            "overhead per checkpoint over {} recordings: median {:.1} ms, max {:.1} ms ({} \
             checkpoints)",
            self.recordings,
            median * 1000.0,
            most * 1000.0,
            self.overheads.len()
        )
    }
}

/// Records `scenario` `n` times (`<cast>.repeat-K`, never the cast itself) and compares the
/// checkpoints `wanted` selects. On success the first recording is returned (kept at
/// `<cast>.repeat-1`; the others are removed) with every checkpoint's overhead; on failure
/// every recording is removed and the message says which cells varied and which masks would
/// hide them (`shown` names the scenario in it).
pub fn record_repeatedly(
    scenario: &Scenario,
    cast: &Path,
    n: usize,
    how: Compared<'_>,
    wanted: &dyn Fn(&str) -> bool,
    shown: &str,
) -> Result<Repeated, Failure> {
    guard(scenario, cast, n, how, wanted, shown).map_err(|(e, _)| e)
}

/// [`record_repeatedly`], failing with the names of the checkpoints that varied too (none
/// when a recording failed or the recordings' checkpoints differ).
fn guard(
    scenario: &Scenario,
    cast: &Path,
    n: usize,
    how: Compared<'_>,
    wanted: &dyn Fn(&str) -> bool,
    shown: &str,
) -> Result<Repeated, (Failure, Vec<String>)> {
    if n > MAX_REPEAT {
        return Err((
            Failure::from(format!(
                "{shown}: {n} recordings asked for, at most {MAX_REPEAT} are made"
            )),
            Vec::new(),
        ));
    }
    let n = n.max(1);
    let paths: Vec<PathBuf> = (1..=n).map(|k| repeat_path(cast, k)).collect();
    let remove_all = |paths: &[PathBuf]| {
        for p in paths {
            let _ = std::fs::remove_file(p);
            let _ = std::fs::remove_file(crate::record::run::partial_path(p));
        }
    };
    let mut recordings = Vec::with_capacity(n);
    let mut overheads = Vec::new();
    let mut first = None;
    for (k, path) in paths.iter().enumerate() {
        let replayed = crate::record::record_scenario(scenario, path, &mut |_| {})
            .map_err(|e| failure!("recording {} of {n} failed: {e}\n", k + 1))
            .and_then(|r| {
                first.get_or_insert(r);
                if let Some(times) = super::recording_times(path) {
                    overheads.extend(times.overheads);
                }
                let reader = crate::cast::open(path).map_err(|e| Failure::from(e.to_string()))?;
                replay::checkpoints(reader, how.engine).map_err(|e| Failure::from(e.to_string()))
            });
        match replayed {
            Ok(cps) => recordings.push(
                cps.into_iter()
                    .filter(|cp| wanted(&cp.name))
                    .map(|cp| Seen::of(&cp, how))
                    .collect::<Vec<_>>(),
            ),
            Err(e) => {
                remove_all(&paths);
                return Err((e, Vec::new()));
            }
        }
    }
    match differences(&recordings) {
        None => {
            remove_all(&paths[1..]);
            let recorded =
                first.ok_or_else(|| (Failure::from("nothing was recorded"), Vec::new()))?;
            Ok(Repeated {
                recorded,
                recordings: n,
                overheads,
            })
        }
        Some(report) => {
            remove_all(&paths);
            let varied = report.checkpoints.iter().map(|v| v.name.clone()).collect();
            Err((report.message(n, shown).into(), varied))
        }
    }
}

/// [`check_case`](super::check_case) after a flake guard of `repeat` recordings (live mode, a
/// case with a scenario, `repeat` > 1): when the recordings differ, every checkpoint of the
/// case fails with the guard's message and nothing is recorded, accepted or written.
pub fn check_case_repeated(
    config: &Config,
    case: &Case,
    opts: &Options,
    repeat: usize,
) -> Vec<CheckResult> {
    if let (true, true, Some(scenario), Ok(infos)) = (
        opts.live.records(case),
        repeat > 1,
        &case.scenario,
        &case.checkpoints,
    ) {
        let shown = scenario_label(config, case, scenario);
        let checked = case.checked();
        let guarded = guard(
            scenario,
            &case.cast,
            repeat,
            Compared::of(case, case.engine),
            &|name| checked.contains(name),
            &shown,
        );
        match guarded {
            Ok(repeated) => {
                eprintln!("{shown}: {}", repeated.overhead_line());
                let _ = std::fs::remove_file(repeated.recorded.cast);
            }
            Err((e, varied)) => {
                // Said once, under the first checkpoint that varied, or (none is to blame: a
                // recording failed) under the case's own test; the others point there.
                let first = varied
                    .first()
                    .and_then(|v| infos.iter().find(|i| i.name == *v))
                    .map(|i| i.name.as_str());
                let Some(first) = first else {
                    let stem = case.stem.as_str();
                    return std::iter::once(recording(case, Some(&e)))
                        .chain(
                            infos
                                .iter()
                                .map(|i| failed_once(case, &e, Some(stem), &i.name)),
                        )
                        .collect();
                };
                let lead = test_name(&case.stem, first);
                return infos
                    .iter()
                    .map(|info| {
                        let lead = (info.name != first).then_some(lead.as_str());
                        failed_once(case, &e, lead, &info.name)
                    })
                    .collect();
            }
        }
    }
    super::check_case(config, case, opts)
}

fn scenario_label(config: &Config, case: &Case, scenario: &Scenario) -> String {
    let file = scenario
        .source
        .clone()
        .unwrap_or_else(|| case.cast.with_extension("toml"));
    assert::pending::relative_name(&config.root, &file)
}

/// One checkpoint as its goldens see it.
#[derive(Clone)]
struct Seen {
    name: String,
    screen: Screen,
    cursor: String,
    styles: bool,
    /// Each named region's cells on this screen (as the case's TOML names them).
    regions: Vec<(String, Vec<crate::term::CellRect>)>,
}

impl Seen {
    fn of(cp: &Checkpoint, how: Compared<'_>) -> Seen {
        let view = assert::cursor_view(how.masks, &cp.screen, how.cursor);
        let screen = assert::apply_all(how.masks, &cp.screen);
        let cursor = match view {
            CursorView::Omitted => String::new(),
            _ => assert::render_with(Format::Text, "", "", &screen, view)
                .lines()
                .find_map(|l| l.strip_prefix("cursor: ").map(str::to_string))
                .unwrap_or_default(),
        };
        let outline = std::cell::OnceCell::new();
        let regions = how
            .regions
            .iter()
            .filter_map(|(name, a)| Some((name.clone(), a.resolve_in(&cp.screen, &outline).ok()?)))
            .collect();
        Seen {
            name: cp.name.clone(),
            screen,
            cursor,
            styles: how.styles,
            regions,
        }
    }

    fn cell_differs(&self, other: &Seen, row: usize, col: usize) -> bool {
        let (a, b) = (&self.screen.rows[row][col], &other.screen.rows[row][col]);
        a.text != b.text || (self.styles && Style::of(a) != Style::of(b))
    }
}

/// A row of two recordings' screens that differs: (row, the first's text, the other's).
type DifferingRow = (usize, String, String);

/// What varied between the recordings.
#[derive(Default)]
struct Repeats {
    /// Checkpoint names of a recording that differ from the first's: (recording, names).
    names: Option<(usize, Vec<String>, Vec<String>)>,
    /// Per checkpoint: the cells that varied (0-based), size and cursor changes.
    checkpoints: Vec<Varied>,
}

struct Varied {
    name: String,
    cells: BTreeSet<(usize, usize)>,
    sizes: BTreeSet<String>,
    cursors: BTreeSet<String>,
    /// Recordings whose checkpoint is the first recording's, the first included.
    same_as_first: usize,
    /// The first recording (from 1) that differs here, and its screen's rows that differ
    /// from the first's, side by side: (row, first's text, its text).
    sample: Option<(usize, Vec<DifferingRow>)>,
    /// The named regions of the first recording's screen here, and their cells.
    regions: Vec<(String, Vec<crate::term::CellRect>)>,
    /// A race: a recording (from 1) whose varied cells still show what they showed at the
    /// checkpoint before (its name; `None`: the blank screen of the start), while another
    /// recording's had changed — the checkpoint was taken before the program had answered.
    race: Option<(usize, Option<String>)>,
}

fn differences(recordings: &[Vec<Seen>]) -> Option<Repeats> {
    let first = recordings.first()?;
    let mut report = Repeats::default();
    let names = |r: &[Seen]| r.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
    for (k, other) in recordings.iter().enumerate().skip(1) {
        if names(other) != names(first) {
            report.names = Some((k + 1, names(first), names(other)));
            return Some(report);
        }
    }
    for (i, base) in first.iter().enumerate() {
        let mut v = Varied {
            name: base.name.clone(),
            cells: BTreeSet::new(),
            sizes: BTreeSet::new(),
            cursors: BTreeSet::new(),
            same_as_first: 1,
            sample: None,
            race: None,
            regions: base.regions.clone(),
        };
        for (k, other) in recordings
            .iter()
            .enumerate()
            .skip(1)
            .map(|(k, r)| (k, &r[i]))
        {
            if other.screen.size != base.screen.size {
                v.sizes.insert(base.screen.size.to_string());
                v.sizes.insert(other.screen.size.to_string());
                continue;
            }
            if other.cursor != base.cursor {
                v.cursors.insert(base.cursor.clone());
                v.cursors.insert(other.cursor.clone());
            }
            let mut differs = other.cursor != base.cursor;
            let rows = base.screen.rows.len().min(other.screen.rows.len());
            for row in 0..rows {
                let cols = base.screen.rows[row]
                    .len()
                    .min(other.screen.rows[row].len());
                for col in 0..cols {
                    if base.cell_differs(other, row, col) {
                        v.cells.insert((row, col));
                        differs = true;
                    }
                }
            }
            if !differs {
                v.same_as_first += 1;
            } else if v.sample.is_none() {
                let shown: Vec<DifferingRow> = (0..rows)
                    .filter(|&r| base.screen.row_text(r) != other.screen.row_text(r))
                    .map(|r| (r, base.screen.row_text(r), other.screen.row_text(r)))
                    .collect();
                v.sample = Some((k + 1, shown));
            }
        }
        if !v.cells.is_empty() {
            v.race = race(recordings, i, &v.cells);
        }
        if !(v.cells.is_empty() && v.sizes.is_empty() && v.cursors.is_empty()) {
            report.checkpoints.push(v);
        }
    }
    (report.names.is_some() || !report.checkpoints.is_empty()).then_some(report)
}

/// Whether checkpoint `i` varied by a race: in some recording the `cells` that varied still
/// show what they showed at the checkpoint before it (or are blank, for the first), while in
/// another they had changed. Noise (a clock, random data) changes them in every recording.
fn race(
    recordings: &[Vec<Seen>],
    i: usize,
    cells: &BTreeSet<(usize, usize)>,
) -> Option<(usize, Option<String>)> {
    let unchanged = |r: &[Seen]| -> bool {
        let now = &r[i];
        cells.iter().all(|&(row, col)| {
            let cell = now.screen.rows.get(row).and_then(|l| l.get(col));
            match i.checked_sub(1).map(|p| &r[p]) {
                Some(before) if before.screen.size == now.screen.size => {
                    cell == before.screen.rows.get(row).and_then(|l| l.get(col))
                }
                Some(_) => false,
                None => cell.is_none_or(|c| c.text.trim().is_empty()),
            }
        })
    };
    let stale: Vec<usize> = recordings
        .iter()
        .enumerate()
        .filter(|(_, r)| unchanged(r))
        .map(|(k, _)| k)
        .collect();
    (!stale.is_empty() && stale.len() < recordings.len()).then(|| {
        (
            stale[0] + 1,
            i.checked_sub(1).map(|p| recordings[0][p].name.clone()),
        )
    })
}

impl Repeats {
    fn message(&self, n: usize, shown: &str) -> String {
        let mut out = format!("checkpoints differ between {n} recordings of {shown}:\n");
        if let Some((k, first, other)) = &self.names {
            let _ = writeln!(
                out,
                "  recording 1 has checkpoints {}, recording {k} {}",
                list(first),
                list(other)
            );
            return out;
        }
        let mut all_masks: Vec<String> = Vec::new();
        let mut cursor = false;
        for v in &self.checkpoints {
            let name = escape_for_terminal(&v.name, 80);
            if !v.sizes.is_empty() {
                let sizes: Vec<&str> = v.sizes.iter().map(String::as_str).collect();
                let _ = writeln!(out, "  {name}: the size varied: {}", sizes.join(", "));
            }
            if !v.cursors.is_empty() {
                // A race moves the cursor too: no hint to stop checking it then.
                cursor |= v.race.is_none();
                let c: Vec<&str> = v.cursors.iter().map(String::as_str).collect();
                let _ = writeln!(out, "  {name}: the cursor varied: {}", c.join(", "));
            }
            if !v.cells.is_empty() {
                let _ = writeln!(
                    out,
                    "  {name}: {} {} varied: {} ({} of {n} recordings identical to the first)",
                    v.cells.len(),
                    if v.cells.len() == 1 { "cell" } else { "cells" },
                    describe_cells(&v.cells),
                    v.same_as_first
                );
            }
            if let Some((k, rows)) = &v.sample {
                side_by_side(&mut out, *k, rows, &v.cells);
            }
            match &v.race {
                Some((k, before)) => {
                    let before = match before {
                        Some(b) => format!(
                            "at the checkpoint before (\"{}\")",
                            escape_for_terminal(b, 60)
                        ),
                        None => "on the blank screen of the start".to_string(),
                    };
                    let _ = writeln!(
                        out,
                        "  {name}: a race, not noise: in recording {k} those cells still show what \
                         they showed {before}, while other recordings had changed them: the \
                         checkpoint was taken before the program had answered. Wait for what it \
                         should show before the checkpoint ({{ wait = \"...\" }}), or give it a \
                         longer settle ({{ checkpoint = \"{name}\", settle = \"200ms\" }}); a \
                         mask would hide the bug"
                    );
                }
                // Masks per checkpoint, at its size: cells of two checkpoints (another size,
                // another layout) are never joined into one rectangle.
                None => {
                    for m in v.masks() {
                        if !all_masks.contains(&m) {
                            all_masks.push(m);
                        }
                    }
                }
            }
        }
        let masks = all_masks;
        if !masks.is_empty() {
            let _ = writeln!(
                out,
                "hint: if they may vary, mask them in {shown} (counted from 1):\n  [check]\n  mask = [{}]",
                masks.join(", ")
            );
        }
        if cursor {
            let _ = writeln!(
                out,
                "hint: if the cursor may move, mask its cells or add `cursor = false` to [check]"
            );
        }
        out
    }
}

impl Varied {
    /// The masks that hide the cells that varied here: each named region that holds some of
    /// them, then rectangles for the cells no region holds.
    fn masks(&self) -> Vec<String> {
        crate::term::suggest_masks_in(
            &row_runs(self.cells.iter().copied()),
            &self.regions,
            MAX_MASKS,
        )
    }
}

/// The rows of two recordings that differ, side by side: recording 1 left, recording `k`
/// right, each 38 columns wide, at most 8 rows. Each row is shown from its first cell that
/// varied (of `cells`) less a little context, so the cells that varied are in view however
/// far right they are (`…` marks the columns left out on the left).
fn side_by_side(
    out: &mut String,
    k: usize,
    rows: &[DifferingRow],
    cells: &BTreeSet<(usize, usize)>,
) {
    const WIDTH: usize = 38;
    const CONTEXT: usize = 8;
    let cut = |t: &str, from: usize| -> String {
        let mut s = String::new();
        if from > 0 {
            s.push('…');
        }
        let rest: String = t.chars().skip(from).collect();
        let rest = escape_for_terminal(rest.trim_end(), 4 * WIDTH);
        s.extend(rest.chars().take(WIDTH - s.chars().count()));
        let pad = WIDTH.saturating_sub(s.chars().count());
        s.extend(std::iter::repeat_n(' ', pad));
        s
    };
    let head = format!(
        "        {} │ {}",
        cut("recording 1", 0),
        cut(&format!("recording {k}"), 0)
    );
    let _ = writeln!(out, "{}", head.trim_end());
    for (row, a, b) in rows.iter().take(8) {
        let first = cells
            .range((*row, 0)..(*row + 1, 0))
            .next()
            .map_or(0, |&(_, c)| c);
        let from = if first + 1 > WIDTH - CONTEXT {
            first - CONTEXT
        } else {
            0
        };
        let line = format!(
            "  {:>3} | {} │ {}",
            Ordinal::of(*row),
            cut(a, from),
            cut(b, from)
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if rows.len() > 8 {
        let _ = writeln!(out, "        ({} more rows differ)", rows.len() - 8);
    }
}

fn list(names: &[String]) -> String {
    let names: Vec<String> = names
        .iter()
        .map(|n| format!("\"{}\"", escape_for_terminal(n, 60)))
        .collect();
    format!("[{}]", names.join(", "))
}

/// `1:7-12, 3:1` (row:column, counted from 1), at most 10 runs.
fn describe_cells(cells: &BTreeSet<(usize, usize)>) -> String {
    describe_runs(&row_runs(cells.iter().copied()), 10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Size;

    fn seen(input: &str, styles: bool) -> Seen {
        let cp = Checkpoint {
            name: "end".into(),
            line: 1,
            time: 0.0,
            screen: crate::term::test_screen(Size { cols: 20, rows: 4 }, input),
        };
        Seen::of(
            &cp,
            Compared {
                engine: crate::term::EngineKind::Avt.into(),
                masks: &[],
                cursor: true,
                styles,
                regions: &BTreeMap::new(),
            },
        )
    }

    #[test]
    fn equal_recordings_have_no_differences() {
        let r = || vec![seen("hello\x1b[?25l", true)];
        assert!(differences(&[r(), r(), r()]).is_none());
        // A hidden cursor elsewhere is no difference.
        assert!(differences(&[r(), vec![seen("hello\x1b[3;3H\x1b[?25l", true)]]).is_none());
    }

    #[test]
    fn varied_cells_are_listed_from_1_with_masks_to_copy() {
        let a = vec![seen("t 123456\r\n\r\nx 12\r\ny 34", false)];
        let b = vec![seen("t 123999\r\n\r\nx 99\r\ny 99\x1b[1;1H", false)];
        let report = differences(&[a, b]).unwrap();
        let msg = report.message(2, "casts/clock.toml");
        assert!(
            msg.contains("end: 7 cells varied: 1:6-8, 3:3-4, 4:3-4"),
            "{msg}"
        );
        assert!(msg.contains("end: the cursor varied: 1:1, 4:5"), "{msg}");
        assert!(
            msg.contains(
                "mask = [{ rows = 1, cols = \"6..=8\" }, { rows = \"3..=4\", cols = \"3..=4\" }]"
            ),
            "{msg}"
        );
        assert!(msg.contains("cursor = false"), "{msg}");
    }

    fn named(name: &str, input: &str) -> Seen {
        let mut s = seen(input, false);
        s.name = name.into();
        s
    }

    #[test]
    fn cells_that_varied_far_right_are_in_the_excerpt() {
        let at = |t: &str| {
            let mut s = seen("", false);
            s.screen = crate::term::test_screen(
                Size { cols: 80, rows: 2 },
                &format!("{:<60}{t}", "results: 42 words per minute, accuracy 98%"),
            );
            vec![s]
        };
        let report = differences(&[at("took 12.1s"), at("took 13.4s")]).unwrap();
        let msg = report.message(2, "casts/typing.toml");
        assert!(msg.contains("  end: 2 cells varied: 1:67, 1:69"), "{msg}");
        let row = msg.lines().find(|l| l.starts_with("    1 | ")).unwrap();
        assert!(
            row.contains("…") && row.contains("took 12.1s") && row.contains("took 13.4s"),
            "{msg}"
        );
    }

    #[test]
    fn a_checkpoint_taken_before_the_program_answered_is_a_race_not_noise() {
        // Recording 2 took "added" while its screen still showed what "typed" showed.
        let good = vec![named("typed", "> Call mom"), named("added", "5 todos")];
        let early = vec![named("typed", "> Call mom"), named("added", "> Call mom")];
        let report = differences(&[good.clone(), good, early]).unwrap();
        let msg = report.message(3, "casts/add.toml");
        assert!(
            msg.contains("(2 of 3 recordings identical to the first)"),
            "{msg}"
        );
        assert!(
            msg.contains(
                "added: a race, not noise: in recording 3 those cells still show what they \
                 showed at the checkpoint before (\"typed\")"
            ),
            "{msg}"
        );
        assert!(!msg.contains("mask = ["), "a race gets no mask: {msg}");
        // The two screens, side by side.
        assert!(msg.contains("recording 1"), "{msg}");
        assert!(msg.contains("recording 3"), "{msg}");
        assert!(msg.contains("    1 | 5 todos"), "{msg}");
        assert!(msg.contains("│ > Call mom"), "{msg}");

        // A clock differs in every recording: noise, masked.
        let at = |t: &str| vec![named("typed", "> Call mom"), named("added", t)];
        let report = differences(&[at("12:00:01"), at("12:00:02"), at("12:00:03")]).unwrap();
        let msg = report.message(3, "casts/add.toml");
        assert!(!msg.contains("race"), "{msg}");
        assert!(
            msg.contains("mask = [{ rows = 1, cols = \"8..=8\" }]"),
            "{msg}"
        );
    }

    #[test]
    fn a_region_that_holds_the_varied_cells_is_the_mask_suggested() {
        let regions: BTreeMap<String, crate::inspect::Anchor> = [(
            "clock".to_string(),
            crate::inspect::Anchor::Match {
                regex: regex::Regex::new(r"\d\d:\d\d").unwrap(),
                offset: (0, 0),
                width: None,
            },
        )]
        .into();
        let at = |input: &str| {
            let cp = Checkpoint {
                name: "end".into(),
                line: 1,
                time: 0.0,
                screen: crate::term::test_screen(Size { cols: 20, rows: 4 }, input),
            };
            let how = Compared {
                engine: crate::term::EngineKind::Avt.into(),
                masks: &[],
                cursor: false,
                styles: false,
                regions: &regions,
            };
            vec![Seen::of(&cp, how)]
        };
        let report = differences(&[at("up 12:01 x1"), at("up 12:02 x2")]).unwrap();
        let msg = report.message(2, "casts/c.toml");
        // The clock by name; the other cell, which no region holds, by its place.
        assert!(
            msg.contains("mask = [{ region = \"clock\" }, { rows = 1, cols = \"11..=11\" }]"),
            "{msg}"
        );
    }

    #[test]
    fn styles_count_only_when_goldens_have_them() {
        let plain = |s| vec![seen("\x1b[31mab\x1b[0m", s)];
        let other = |s| vec![seen("\x1b[32mab\x1b[0m", s)];
        assert!(differences(&[plain(false), other(false)]).is_none());
        let report = differences(&[plain(true), other(true)]).unwrap();
        assert!(report.message(2, "x").contains("2 cells varied: 1:1-2"));
    }

    #[test]
    fn the_repeat_path_is_beside_the_cast() {
        assert_eq!(
            repeat_path(Path::new("casts/a.cast"), 2),
            Path::new("casts/a.cast.repeat-2")
        );
    }
}
