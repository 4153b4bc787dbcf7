//! Live mode (`TUICAST_LIVE=1`, `tuicast test --live`): a case with a scenario is recorded
//! again now and the new recording checked; a recording that differs from the goldens is kept
//! as `<cast>.new` for review, or replaces the cast with `always`.

use std::path::{Path, PathBuf};

use super::check::Replayed;
use super::discover::Case;
use crate::assert::{self, UpdateAction};
use crate::config::Config;
use crate::record::Scenario;
#[cfg(feature = "record")]
use {super::check::masked, crate::assert::Check, crate::replay};

/// The environment variable that turns on live mode.
pub const LIVE_ENV: &str = "TUICAST_LIVE";

/// Whether `TUICAST_LIVE` asks for live mode (`1`, `true`, `yes`).
pub fn live_from_env() -> bool {
    std::env::var(LIVE_ENV).is_ok_and(|v| matches!(v.trim(), "1" | "true" | "yes"))
}

/// The file a live recording is kept in when it differs from the goldens: `<cast>.new`.
pub fn live_cast_path(cast: &Path) -> PathBuf {
    assert::pending_path(cast)
}

/// Live mode in a build without the `record` feature: an error saying so.
#[cfg(not(feature = "record"))]
pub(super) fn live_replay(
    _config: &Config,
    _case: &Case,
    _scenario: &Scenario,
    _update: UpdateAction,
) -> Replayed {
    Err("live mode records casts, which needs tuicast's `record` feature (this build leaves it out)".into())
}

/// Live mode: records the scenario again now, replays the new cast, and keeps it as
/// `<cast>.new` when any checkpoint differs from its golden (`always` replaces the cast).
#[cfg(feature = "record")]
pub(super) fn live_replay(
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
    // Does the new recording match every golden it is checked against? Compare without
    // writing anything.
    let cast_label = assert::pending::relative_name(&config.root, &case.cast);
    let matches = checkpoints
        .iter()
        .filter(|cp| case.checks(&cp.name))
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
                    png: &config.png,
                };
                check
                    .check_with(&screen, cursor)
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
