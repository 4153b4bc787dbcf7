//! Checks: a case replayed once ([`replay_case`], or recorded anew in live mode), each of its
//! checkpoints masked and compared with its goldens in every format of the case.

use super::Failure;
use std::borrow::Cow;
use std::collections::HashMap;

use super::declared::Uses;
use super::discover::Case;
use super::live::{live_replay, older_than_binary, warn_once};
use super::result::{CheckResult, SnapshotResult};
use super::trials::{expect_key, expect_test_name, test_name};
use super::Options;
use crate::assert::{self, Check, Format, Mask};
use crate::config::Config;
use crate::replay::{self, Checkpoint};
use crate::term::Screen;

/// Replays a case once and checks every checkpoint as the replay reaches it, holding one
/// screen at a time. Results are in the order of the case's checkpoints (from discovery).
pub fn check_case(config: &Config, case: &Case, opts: &Options) -> Vec<CheckResult> {
    let infos = match &case.checkpoints {
        Ok(i) => i,
        Err(e) => return vec![broken_by(case, e)],
    };
    let mut checked = check_replay(config, case, opts);
    let first = infos.first().map(|i| i.name.as_str()).unwrap_or_default();
    let lead = case_lead(case, opts, first);
    // A live recording is the case's own test, first: a failure to record is told there.
    let own = opts.live.records(case).then(|| {
        let mut r = recording(case, checked.as_ref().err().map(|e| e.message()));
        r.failure = checked.as_ref().err().and_then(|e| e.1.as_deref().cloned());
        r
    });
    let told = |name: &str| (own.is_some() || name != first).then_some(lead.as_str());
    let checkpoints: Vec<CheckResult> = infos
        .iter()
        .flat_map(|info| {
            let mut out = vec![match &mut checked {
                Ok(results) => results
                    .remove(&info.name)
                    .unwrap_or_else(|| missing(case, &info.name)),
                Err(e) => {
                    let told = told(&info.name);
                    let mut r = failed_once(case, e.message(), told, &info.name);
                    // The failure as data, once: where the message is told.
                    if told.is_none() {
                        r.failure = e.1.as_deref().cloned();
                    }
                    r
                }
            }];
            for e in case.expects_at(&info.name) {
                let mut r = match &mut checked {
                    Ok(results) => results
                        .remove(&expect_key(&info.name, &e.id))
                        .unwrap_or_else(|| missing(case, &info.name)),
                    Err(_) => failed_once(case, "", Some(&lead), &info.name),
                };
                r.test = expect_test_name(&case.stem, &info.name, &e.id);
                out.push(r);
            }
            out
        })
        .collect();
    own.into_iter().chain(checkpoints).collect()
}

/// The results of a case's checkpoints by name: its cast replayed once, each checkpoint
/// checked when it is reached and its screen dropped (or, live mode with a scenario, a new
/// recording of it); or why the replay failed.
pub(super) type Checked = Result<HashMap<String, CheckResult>, Failure>;

/// Replays (or, live, records) a case and checks each checkpoint: see [`Checked`].
pub(super) fn check_replay(config: &Config, case: &Case, opts: &Options) -> Checked {
    let mut results = HashMap::new();
    // Only the checkpoints the case checks (`[check] end`, `checkpoints`) are compared.
    let checked = case.checked();
    let wanted = |name: &str| checked.contains(name);
    // How PNG goldens are drawn, made once for the case from the `[png]` table.
    let png = config.png_check().map_err(|e| e.to_string())?;
    // Each declaration's uses over the checkpoints, for those that select nothing anywhere.
    let mut uses = Uses::new(case);
    if let (true, Some(scenario)) = (opts.live.records(case), &case.scenario) {
        for cp in live_replay(config, case, scenario, opts.update, &png)? {
            if wanted(&cp.name) {
                results.insert(
                    cp.name.clone(),
                    check_checkpoint(config, case, &cp, opts, &png, &mut uses),
                );
                check_expects(case, &cp, &mut results);
            }
        }
        uses.fail_unused(case, &mut results);
        remove_stale(config, case, opts, &results);
        return Ok(results);
    }
    if let Some(warning) = older_than_binary(case) {
        warn_once("older-than-binary", &warning);
    }
    let shown = |e: crate::cast::CastError| {
        Failure::of_data(
            e.with_path(crate::util::relative_to_cwd(&case.cast))
                .failure(),
        )
    };
    let reader = crate::cast::open(&case.cast).map_err(shown)?;
    replay::each_checkpoint(reader, case.engine, |cp| {
        if wanted(&cp.name) {
            results.insert(
                cp.name.clone(),
                check_checkpoint(config, case, &cp, opts, &png, &mut uses),
            );
            check_expects(case, &cp, &mut results);
        }
    })
    .map_err(shown)?;
    uses.fail_unused(case, &mut results);
    // Checkpoints the scenario and the cast disagree about fail, whatever the replay showed.
    if let Ok(infos) = &case.checkpoints {
        for info in infos {
            if let Some(why) = &info.stale {
                results.insert(info.name.clone(), failed(case, why, &info.name));
            }
        }
    }
    remove_stale(config, case, opts, &results);
    Ok(results)
}

/// A case checked whole that passed leaves no pending file of its own behind (a `.new` of a
/// checkpoint renamed or no longer checked, a half-drawn screen of an earlier run); a run
/// that may write nothing (`TUICAST_UPDATE=no`, CI) removes nothing either, and neither does
/// a replay while a live recording (`<cast>.new`) waits for review with its snapshots.
fn remove_stale(
    config: &Config,
    case: &Case,
    opts: &Options,
    results: &HashMap<String, CheckResult>,
) {
    let whole = case
        .checkpoints
        .as_ref()
        .is_ok_and(|infos| infos.iter().all(|i| results.contains_key(&i.name)));
    if whole
        && opts.update != assert::UpdateAction::WriteNothing
        && !super::live::live_cast_path(&case.cast).exists()
        && results.values().all(CheckResult::passed)
    {
        for f in super::discover::pending_files(config, case) {
            let _ = std::fs::remove_file(f);
        }
    }
}

/// The checkpoints of a live recording, replayed, or why they could not be.
pub(super) type Replayed = Result<Vec<Checkpoint>, Failure>;

/// The result of a checkpoint the replay did not reach.
pub(super) fn missing(case: &Case, name: &str) -> CheckResult {
    let mut r = broken(
        case,
        &format!("{}: no checkpoint named {name:?}", case.cast.display()),
    );
    r.test = test_name(&case.stem, name);
    r
}

/// The result of a checkpoint of a case whose replay (or live recording) failed with `error`:
/// the whole message here when `lead` is `None`, else a line that points to the test `lead`
/// that has it — one failure is reported once, not once per checkpoint.
pub(super) fn failed_once(case: &Case, error: &str, lead: Option<&str>, name: &str) -> CheckResult {
    let Some(lead) = lead else {
        return failed(case, error, name);
    };
    failed(
        case,
        &format!(
            "not checked: {} could not be {} (the error is under {lead})\n",
            crate::assert::shown_path(&case.cast),
            if lead == case.stem {
                "recorded"
            } else {
                "replayed or recorded"
            },
        ),
        name,
    )
}

/// Where a failure of the whole case is told: the case's own test (its name, [`Case::stem`])
/// for a live recording — the recording is a test of its own, which fails when the program
/// could not be recorded — else the test of its first checkpoint (`first`).
pub(super) fn case_lead(case: &Case, opts: &Options, first: &str) -> String {
    if opts.live.records(case) {
        case.stem.clone()
    } else {
        test_name(&case.stem, first)
    }
}

/// The result of a live-recorded case's own test: passed, or the recording's `error`.
pub(super) fn recording(case: &Case, error: Option<&str>) -> CheckResult {
    let mut r = broken(case, error.unwrap_or_default());
    if error.is_none() {
        r.error = None;
    }
    r
}

/// The result of a checkpoint of a case whose replay failed with `error`.
pub(super) fn failed(case: &Case, error: &str, name: &str) -> CheckResult {
    let mut r = broken(case, error);
    r.test = test_name(&case.stem, name);
    r.checkpoint = name.to_string();
    r
}

/// Checks one checkpoint of a replayed case in every format of the case.
pub(super) fn check_checkpoint(
    config: &Config,
    case: &Case,
    cp: &Checkpoint,
    opts: &Options,
    png: &assert::PngCheck,
    uses: &mut Uses,
) -> CheckResult {
    let test = test_name(&case.stem, &cp.name);
    let screen = uses.masked(case, &cp.screen);
    let cursor = assert::cursor_view(&case.masks, &cp.screen, case.cursor);
    let cast_label = assert::pending::relative_name(&config.root, &case.cast);
    let mut snapshots = Vec::new();
    let mut error = None;
    let mut bad_input = false;
    for &format in &case.formats {
        let path =
            assert::snapshot_path(&config.snapshots, &case.stem, &cp.name, format.extension());
        let check = Check {
            format,
            golden: &path,
            cast: &cast_label,
            checkpoint: &cp.name,
            action: opts.update,
            color: opts.color,
            png,
            scrollback: case.scrollback,
            styles: case.styles,
        };
        let checked = check.check_with(&screen, cursor);
        if let Err((e, bad)) = take(config, path, format, checked, &mut snapshots) {
            (error, bad_input) = (Some(e), bad);
            break;
        }
    }
    // Region goldens: the text of each region as the masked screen shows it.
    for (region, anchor) in case.region_goldens.iter().filter(|_| error.is_none()) {
        let path = super::discover::region_golden_path(config, case, &cp.name, region);
        let text = match screen.region(anchor) {
            Ok(t) => t,
            Err(e) => {
                bad_input = e.kind() == crate::inspect::AnchorErrorKind::Adapter;
                error = Some(format!(
                    "region \"{}\" ({}) resolves to nothing at checkpoint \"{}\": {e}",
                    crate::escape::escape_for_terminal(region, 60),
                    anchor.describe(),
                    crate::escape::escape_for_terminal(&cp.name, 60)
                ));
                break;
            }
        };
        let actual = format!(
            "---\ncast: {cast_label}\ncheckpoint: {}\nregion: {}\n---\n{text}\n",
            crate::escape::escape_for_terminal(&cp.name, 200),
            crate::escape::escape_for_terminal(region, 200)
        );
        let checked = assert::check_file(&path, &actual, opts.update, opts.color);
        // A region golden is text, compared whole as a `txt` golden is.
        let checked = checked.map(|o| (o, actual));
        if let Err((e, bad)) = take(config, path, Format::Text, checked, &mut snapshots) {
            (error, bad_input) = (Some(e), bad);
            break;
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
        bad_input,
        failure: None,
    }
}

/// Keeps the outcome of checking the golden at `path` in `format` (and the render it was
/// compared with) in `snapshots`, or gives the error that stops the checkpoint's checks, and whether it is
/// bad input: a golden refused as it is read (a symbolic link, no regular file, too large:
/// `util::open_regular_nofollow` and its limit say so with `InvalidInput`/`InvalidData`).
fn take(
    config: &Config,
    path: std::path::PathBuf,
    format: Format,
    checked: std::io::Result<(assert::Outcome, String)>,
    snapshots: &mut Vec<SnapshotResult>,
) -> Result<(), (String, bool)> {
    let (outcome, actual) = checked.map_err(|e| {
        let bad = matches!(
            e.kind(),
            std::io::ErrorKind::InvalidInput | std::io::ErrorKind::InvalidData
        );
        (format!("{}: {e}", path.display()), bad)
    })?;
    snapshots.push(SnapshotResult {
        name: assert::pending::relative_name(&config.snapshots, &path),
        format: Some(format),
        path,
        outcome,
        actual,
    });
    Ok(())
}

/// Checks the case's expectations at the checkpoint `cp` (on its screen as replayed, not
/// masked), each result under its [`expect_key`].
fn check_expects(case: &Case, cp: &Checkpoint, results: &mut HashMap<String, CheckResult>) {
    for e in case.expects_at(&cp.name) {
        let failed = e.check(&cp.screen, &cp.name).err();
        // An adapter's limit or regex at first use is bad input, not a failed check.
        let bad_input = failed
            .as_ref()
            .is_some_and(|f| f.kind() == crate::assert::ExpectFailureKind::Adapter);
        let error = failed.map(|f| f.message().to_string());
        // An expectation that does not hold: a check failure at the checkpoint's marker,
        // with the screen it looked at.
        let failure = error.as_ref().map(|why| {
            let rows =
                (0..cp.screen.rows.len()).map(|r| cp.screen.row_text(r).trim_end().to_string());
            let kind = if bad_input {
                crate::location::FailureKind::BadInput
            } else {
                crate::location::FailureKind::Check
            };
            crate::location::FailureJson::new(kind, why.clone())
                .at(&case.cast, cp.line, 0)
                .screen(rows)
        });
        results.insert(
            expect_key(&cp.name, &e.id),
            CheckResult {
                test: expect_test_name(&case.stem, &cp.name, &e.id),
                cast: case.cast.clone(),
                checkpoint: cp.name.clone(),
                line: cp.line,
                time: cp.time,
                snapshots: Vec::new(),
                error,
                bad_input,
                failure,
            },
        );
    }
}

/// [`broken`] with the failure as data its cause gave, when it gave one.
pub(super) fn broken_by(case: &Case, error: &Failure) -> CheckResult {
    CheckResult {
        failure: error.1.as_deref().cloned(),
        ..broken(case, error.message())
    }
}

/// The one result of a case that cannot be checked: named after the cast, carrying `error`.
pub(super) fn broken(case: &Case, error: &str) -> CheckResult {
    CheckResult {
        test: case.stem.clone(),
        cast: case.cast.clone(),
        checkpoint: String::new(),
        line: 0,
        time: 0.0,
        snapshots: Vec::new(),
        error: Some(error.to_string()),
        bad_input: false,
        failure: None,
    }
}

/// The screen with the masks applied; borrowed as it is when there are none (no copy).
pub(super) fn masked<'a>(masks: &[Mask], screen: &'a Screen) -> Cow<'a, Screen> {
    if masks.is_empty() {
        Cow::Borrowed(screen)
    } else {
        Cow::Owned(assert::apply_all(masks, screen))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert::{Outcome, Place, UpdateAction};
    use crate::harness::discover::tests::{project, TWO};
    use crate::harness::discover::{discover, load_case};
    use crate::harness::{LiveMode, Status};
    use crate::term::PLACEHOLDER;

    fn opts(update: UpdateAction) -> Options {
        Options {
            update,
            ..Options::default()
        }
    }

    fn statuses(results: &[CheckResult]) -> Vec<(String, Status)> {
        results
            .iter()
            .map(|r| (r.test.clone(), r.status()))
            .collect()
    }

    #[test]
    fn two_checkpoints_with_a_mask_are_written_then_pass_when_only_masked_cells_change() {
        let (_dir, config) = project(&[
            ("casts/two.cast", TWO),
            (
                "casts/two.toml",
                "[check]\nmask = [{ regex = \"\\\\d+\" }]\n",
            ),
        ]);
        let case = &discover(&config, &[], LiveMode::Auto)[0];
        let results = check_case(&config, case, &opts(UpdateAction::Overwrite));
        assert_eq!(
            statuses(&results),
            [
                ("two::first".to_string(), Status::Updated),
                ("two::end".to_string(), Status::Updated)
            ]
        );
        assert_eq!((results[0].line, results[1].line), (3, 4));
        assert!((results[1].time - 0.4).abs() < 1e-9, "{}", results[1].time);
        let golden = std::fs::read_to_string(config.snapshots.join("two/end.txt")).unwrap();
        let masked = format!("count {PLACEHOLDER}\ncount {PLACEHOLDER}{PLACEHOLDER}\n");
        assert!(golden.ends_with(&masked), "{golden}");
        assert!(
            golden.contains("two.cast"),
            "the header names the cast: {golden}"
        );

        // Other digits, same masked screens: both pass, and nothing is written.
        std::fs::write(&case.cast, TWO.replace("count 1", "count 7")).unwrap();
        let results = check_case(&config, case, &opts(UpdateAction::WriteNothing));
        assert!(results.iter().all(|r| r.status() == Status::Ok));
        assert!(results[0].message().is_empty());
        assert_eq!(results[0].snapshots[0].name, "two/first.txt");

        // Text the mask does not cover fails, with its place.
        std::fs::write(&case.cast, TWO.replace("count 22", "Count 22")).unwrap();
        let results = check_case(&config, case, &opts(UpdateAction::WriteNothing));
        assert_eq!(results[0].status(), Status::Ok);
        let end = &results[1];
        assert_eq!(end.status(), Status::Failed);
        let Outcome::Mismatch { difference, .. } = &end.snapshots[0].outcome else {
            panic!("{:?}", end.snapshots[0].outcome)
        };
        assert_eq!(
            difference.place,
            Place::Cell(crate::pos::Place::new(2, 1).unwrap())
        );
        let message = end.message();
        assert!(message.starts_with("snapshot mismatch: "), "{message}");
        assert!(
            message.contains("two/end.txt\n  checkpoint \"end\" of "),
            "{message}"
        );
        assert!(message.contains("two.cast:4 at 0.400s\n"), "{message}");
        assert!(
            message.contains("first difference: row 2, column 1"),
            "{message}"
        );
        assert!(message.contains("nothing was written"), "{message}");
        assert!(
            message.ends_with(
                "to update: TUICAST_UPDATE=always cargo test, or tuicast test --update\n"
            ),
            "{message}"
        );
    }

    #[test]
    fn a_mask_that_hides_nothing_anywhere_fails_the_case_at_its_place() {
        let (_dir, config) = project(&[
            ("casts/two.cast", TWO),
            (
                "casts/two.toml",
                "[check]\nmask = [\n  { regex = \"\\\\d+\" },\n  { regex = \"elapsed \\\\d+s\" },\n]\n",
            ),
        ]);
        let case = &discover(&config, &[], LiveMode::Auto)[0];
        let results = check_case(&config, case, &opts(UpdateAction::Overwrite));
        // The first checkpoint passes; the last carries the unused mask, by its place.
        assert_eq!(
            statuses(&results),
            [
                ("two::first".to_string(), Status::Updated),
                ("two::end".to_string(), Status::Failed)
            ]
        );
        let m = results[1].message();
        assert!(
            m.contains("two.toml:4:3: the mask { regex = \"elapsed \\\\d+s\" } hid nothing on any of the 2 checkpoint(s) of "),
            "{m}"
        );
        assert!(
            !m.contains("toml:3:3"),
            "the mask that hid digits is used: {m}"
        );
        // Corrected, the case passes.
        std::fs::write(
            config.casts.join("two.toml"),
            "[check]\nmask = [{ regex = \"\\\\d+\" }]\n",
        )
        .unwrap();
        let case = &discover(&config, &[], LiveMode::Auto)[0];
        let results = check_case(&config, case, &opts(UpdateAction::WriteNothing));
        assert!(results.iter().all(CheckResult::passed), "{results:?}");
    }

    #[test]
    fn a_scrollback_that_no_checkpoint_shows_fails_at_its_place() {
        let (_dir, config) = project(&[
            ("casts/two.cast", TWO),
            ("casts/two.toml", "[check]\nscrollback = 5\n"),
        ]);
        let case = &discover(&config, &[], LiveMode::Auto)[0];
        let results = check_case(&config, case, &opts(UpdateAction::Overwrite));
        let m = results[1].message();
        assert!(
            m.contains("two.toml:2:14: [check] scrollback = 5 shows nothing: no line scrolled off the top at any of the 2 checkpoint(s) of "),
            "{m}"
        );
        // A cast that scrolls: the declaration has its effect.
        let scrolled = TWO.replace("\\r\\ncount 22", "\\r\\ncount 22\\r\\nthree\\r\\nfour");
        std::fs::write(config.casts.join("two.cast"), scrolled).unwrap();
        let case = &discover(&config, &[], LiveMode::Auto)[0];
        let results = check_case(&config, case, &opts(UpdateAction::Overwrite));
        assert!(
            results.iter().all(CheckResult::passed),
            "{}",
            results[1].message()
        );
    }

    #[test]
    fn expectations_are_results_of_their_own_after_their_checkpoint() {
        let (_dir, config) = project(&[
            ("casts/two.cast", TWO),
            (
                "casts/two.toml",
                "[regions]\nlast = { last_row = true }\n\
                 [[check.expect]]\nat = \"*\"\nregion = \"last\"\ncontains = \"count 1\"\n\
                 [[check.expect]]\nname = \"second\"\nat = \"end\"\nrows = 2\ntext = \"count 22\"\n",
            ),
        ]);
        let case = &discover(&config, &[], LiveMode::Auto)[0];
        assert_eq!(
            case.test_names(LiveMode::Auto),
            [
                "two::first",
                "two::first::1",
                "two::end",
                "two::end::1",
                "two::end::second"
            ]
        );
        let results = check_case(&config, case, &opts(UpdateAction::Overwrite));
        assert_eq!(
            statuses(&results),
            [
                ("two::first".to_string(), Status::Updated),
                ("two::first::1".to_string(), Status::Ok),
                ("two::end".to_string(), Status::Updated),
                ("two::end::1".to_string(), Status::Failed),
                ("two::end::second".to_string(), Status::Ok),
            ]
        );
        let m = results[3].message();
        assert!(
            m.starts_with("expectation 1 (")
                && m.contains("two.toml:3) failed at checkpoint \"end\"\n"),
            "{m}"
        );
        assert!(
            m.contains("  expected text containing \"count 1\"\n  found text \"count 22\"\n"),
            "{m}"
        );
        assert_eq!(
            (results[3].checkpoint.as_str(), results[3].line),
            ("end", 4)
        );
    }

    #[test]
    fn an_expectation_may_name_a_list_of_checkpoints() {
        let (_dir, config) = project(&[
            ("casts/two.cast", TWO),
            (
                "casts/two.toml",
                "[[check.expect]]\nname = \"count\"\nat = [\"first\", \"end\"]\ncontains = \"count\"\n",
            ),
        ]);
        let case = &discover(&config, &[], LiveMode::Auto)[0];
        assert_eq!(
            case.test_names(LiveMode::Auto),
            [
                "two::first",
                "two::first::count",
                "two::end",
                "two::end::count"
            ]
        );
        // A name in the list that the cast lacks is an error naming it.
        let (_dir, config) = project(&[
            ("casts/two.cast", TWO),
            (
                "casts/two.toml",
                "[[check.expect]]\nat = [\"first\", \"later\"]\ncontains = \"count\"\n",
            ),
        ]);
        let case = &discover(&config, &[], LiveMode::Auto)[0];
        let e = case.checkpoints.as_ref().unwrap_err();
        assert!(
            e.contains("has at = \"later\", a checkpoint the cast does not have"),
            "{e}"
        );
    }

    #[test]
    fn a_missing_golden_fails_and_says_what_was_written() {
        let (_dir, config) = project(&[("casts/two.cast", TWO)]);
        let case = load_case(&config, config.casts.join("two.cast"), LiveMode::Auto);
        let results = check_case(&config, &case, &opts(UpdateAction::WriteNothing));
        assert!(results.iter().all(|r| r.status() == Status::Failed));
        assert!(matches!(
            results[0].snapshots[0].outcome,
            Outcome::Missing { pending: None }
        ));
        assert!(results[0].message().starts_with("snapshot missing: "));
        assert!(!config.snapshots.exists(), "nothing was written");

        let results = check_case(&config, &case, &opts(UpdateAction::WriteNew));
        let message = results[1].message();
        assert!(
            message.contains("the actual screen was written to "),
            "{message}"
        );
        assert!(
            message.ends_with("to accept: tuicast accept two/end.txt\n"),
            "{message}"
        );
        let new = config.snapshots.join("two/end.txt.new");
        assert_eq!(
            std::fs::read_to_string(new).unwrap(),
            results[1].snapshots[0].actual
        );
        assert!(!config.snapshots.join("two/end.txt").exists());
    }

    #[test]
    fn a_broken_cast_is_one_failing_result_named_after_the_cast() {
        let (_dir, config) = project(&[(
            "casts/bad.cast",
            "{\"version\": 3, \"term\": {\"cols\": 10, \"rows\": 2}}\n[0.1, \"o\"]\n",
        )]);
        let case = &discover(&config, &[], LiveMode::Auto)[0];
        let results = check_case(&config, case, &opts(UpdateAction::Overwrite));
        assert_eq!(statuses(&results), [("bad".to_string(), Status::Failed)]);
        let message = results[0].message();
        assert!(
            message.contains("bad.cast:2:1: an event must have 3 elements"),
            "{message}"
        );
        assert!(!config.snapshots.exists());
    }

    #[test]
    fn a_checkpoint_the_replay_lacks_or_a_failed_replay_fails_that_checkpoint() {
        let (_dir, config) = project(&[("casts/two.cast", TWO)]);
        let mut case = load_case(&config, config.casts.join("two.cast"), LiveMode::Auto);
        let opts = opts(UpdateAction::WriteNothing);
        let checked = check_replay(&config, &case, &opts).unwrap();
        assert_eq!(checked.len(), 2, "first and end");
        let r = missing(&case, "later");
        assert_eq!(r.test, "two::later");
        assert!(
            r.message().contains("no checkpoint named \"later\""),
            "{}",
            r.message()
        );
        // Discovery saw a checkpoint the replay does not reach.
        if let Ok(infos) = &mut case.checkpoints {
            infos[0].name = "later".into();
        }
        let results = check_case(&config, &case, &opts);
        assert!(results[0]
            .message()
            .contains("no checkpoint named \"later\""));
        let r = failed(&case, "the cast went away", "first");
        assert_eq!(
            (r.test.as_str(), r.checkpoint.as_str()),
            ("two::first", "first")
        );
        assert_eq!(r.message(), "the cast went away\n");
    }
}
