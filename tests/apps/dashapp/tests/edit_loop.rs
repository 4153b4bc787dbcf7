//! The author's edit loop on this app, through tuicast's library as `cargo test` runs it: a
//! checkpoint added to a scenario, one renamed, a scenario with no cast, a crash on a key, and
//! an animation that never stops, masked. Each runs in a temporary project whose scenarios
//! name this package's binary as cargo built it.

use std::path::Path;

use tuicast::assert::UpdateAction;
use tuicast::config::Config;
use tuicast::harness::{self, CheckResult, LiveMode, Options, Status};

const MASKS: &str = "[check]\nmask = [{ region = \"load\" }, { region = \"latest\" }, \
    { region = \"spinner\" }, { region = \"uptime\" }";

/// A scenario of the dashboard: wait for it, then `steps`, then quit. Masked, it masks what
/// changes on every run; the sample count only where the steps open the popup that shows it
/// (a mask that hides nothing on any checkpoint is an error).
fn scenario(steps: &str, masked: bool) -> String {
    let masks = match (masked, steps.contains("Details")) {
        (false, _) => String::new(),
        (true, false) => format!("{MASKS}]\n"),
        (true, true) => format!("{MASKS}, {{ region = \"samples\" }}]\n"),
    };
    format!(
        "command = [{:?}]\nsize = \"80x24\"\ntimeout = \"3s\"\nsteps = [\n  {{ wait = \"Load\" }},\n{steps}  \
         {{ press = \"q\" }},\n  {{ exit = 0 }},\n]\n{masks}",
        env!("CARGO_BIN_EXE_dashapp"),
    )
}

/// A project holding this app's `tuicast.toml` (its regions) and `casts/dash.toml`.
fn project(toml: &str) -> (tempfile::TempDir, Config) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("casts")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tuicast.toml"),
        dir.path().join("tuicast.toml"),
    )
    .unwrap();
    std::fs::write(dir.path().join("casts/dash.toml"), toml).unwrap();
    let config = Config::load(dir.path()).unwrap();
    (dir, config)
}

/// Every case of the project checked live, writing `.new` files as a developer's run does.
fn check(config: &Config) -> Vec<CheckResult> {
    let opts = Options::new(UpdateAction::WriteNew).live(LiveMode::Always);
    harness::discover(config, &[], LiveMode::Always)
        .iter()
        .flat_map(|case| harness::check_case(config, case, &opts))
        .collect()
}

fn statuses(results: &[CheckResult]) -> Vec<(String, Status)> {
    results
        .iter()
        .map(|r| (r.test.clone(), r.status()))
        .collect()
}

/// Accepts every pending change: the cast and the goldens.
fn accept(config: &Config) {
    let snapshots = tuicast::assert::pending::list(&config.snapshots).unwrap();
    for p in snapshots {
        std::fs::rename(&p.new, &p.golden).unwrap();
    }
    let cast = config.casts.join("dash.cast");
    let new = harness::live_cast_path(&cast);
    if new.exists() {
        std::fs::rename(new, cast).unwrap();
    }
}

#[test]
fn a_scenario_with_no_cast_then_a_checkpoint_added_then_renamed() {
    let steps = "  { checkpoint = \"shown\" },\n";
    let (_dir, config) = project(&scenario(steps, true));
    // No cast yet: recorded (the recording is a test of its own, `dash`), its goldens
    // missing, nothing silently skipped.
    let r = check(&config);
    assert_eq!(
        statuses(&r),
        [
            ("dash".to_string(), Status::Ok),
            ("dash::shown".to_string(), Status::Failed),
            ("dash::end".to_string(), Status::Failed)
        ],
        "{}",
        r[1].message()
    );
    accept(&config);
    assert!(check(&config).iter().all(|r| r.status() == Status::Ok));

    // A checkpoint added: checked, its golden missing; the others pass.
    let more = "  { checkpoint = \"shown\" },\n  { press = \"d\" },\n  { wait = \"Details\" },\n  \
                { checkpoint = \"details\" },\n";
    std::fs::write(config.casts.join("dash.toml"), scenario(more, true)).unwrap();
    let r = check(&config);
    assert_eq!(
        statuses(&r),
        [
            ("dash".to_string(), Status::Ok),
            ("dash::shown".to_string(), Status::Ok),
            ("dash::details".to_string(), Status::Failed),
            ("dash::end".to_string(), Status::Ok)
        ]
    );
    assert!(
        r[2].message().starts_with("snapshot missing: "),
        "{}",
        r[2].message()
    );
    accept(&config);

    // Renamed: missing under its new name, the old golden an orphan.
    let renamed = more.replace("\"details\" }", "\"popup\" }");
    std::fs::write(config.casts.join("dash.toml"), scenario(&renamed, true)).unwrap();
    let cases = harness::discover(&config, &[], LiveMode::Always);
    let orphans = harness::orphans(&config, &cases).unwrap();
    assert_eq!(orphans, [config.snapshots.join("dash/details.txt")]);
    let r = check(&config);
    assert_eq!(r[2].test, "dash::popup");
    assert_eq!(r[2].status(), Status::Failed);
    // Replayed, the committed cast (from before the rename) fails the names it disagrees
    // about, with the command that records it again.
    let opts = Options::new(UpdateAction::WriteNothing).live(LiveMode::Never);
    let case = &harness::discover(&config, &[], LiveMode::Never)[0];
    let replayed = harness::check_case(&config, case, &opts);
    let stale: Vec<&CheckResult> = replayed
        .iter()
        .filter(|r| r.status() == Status::Failed)
        .collect();
    assert_eq!(
        stale.len(),
        2,
        "popup is not in the cast, details is not in the scenario"
    );
    assert!(stale.iter().all(|r| r.message().contains("tuicast record")));
}

#[test]
fn the_animation_never_settles_unmasked_and_settles_masked() {
    // 200 ms of stillness: ten frames in a row would have to be missed.
    let steps = "  { checkpoint = \"shown\", settle = \"200ms\" },\n";
    let (_dir, config) = project(&scenario(steps, false));
    let r = check(&config);
    // The recording's own test tells why it failed; the checkpoints point to it.
    assert_eq!(r[0].test, "dash");
    let m = r[0].message();
    assert!(
        m.contains("the screen never stayed the same for 200 ms"),
        "{m}"
    );
    // The hint names the regions of tuicast.toml that hold what moved (they follow the
    // layout at any size), never a cut list, and no mask over the still services panel.
    assert!(
        m.contains(
            "[check] mask = [{ region = \"latest\" }, { region = \"load\" }, \
             { region = \"spinner\" }, { region = \"uptime\" }]"
        ),
        "masks to copy: {m}"
    );
    let (_dir, config) = project(&scenario(steps, true));
    let r = check(&config);
    assert_eq!(r[0].status(), Status::Ok, "recorded: {}", r[0].message());
    assert!(
        r[1..].iter().all(|r| r.status() == Status::Failed),
        "missing goldens only"
    );
    assert!(
        r[1].message().starts_with("snapshot missing: "),
        "{}",
        r[1].message()
    );
}

#[test]
fn a_crash_is_blamed_on_the_key_that_caused_it_with_the_panic_message() {
    let steps =
        "  { checkpoint = \"shown\" },\n  { press = \"!\" },\n  { checkpoint = \"after\" },\n  \
                 { press = \"d\" },\n";
    let (_dir, config) = project(&scenario(steps, true));
    let r = check(&config);
    let m = r
        .iter()
        .map(CheckResult::message)
        .find(|m| m.contains("the program exited"))
        .unwrap_or_else(|| panic!("{:?}", statuses(&r)));
    assert!(
        m.contains(
            "dash.toml:8:3: the program exited (status 101) while this step ran (snapshot \
             after), after the input of line 7: press !; the steps after it were not run on \
             the ended program (line 9: press d needed it running)"
        ),
        "{m}"
    );
    assert!(
        m.contains("dashboard bug: the '!' key is not handled"),
        "the panic is shown: {m}"
    );
    // Said once.
    let said = r
        .iter()
        .filter(|r| r.message().contains("the program exited"))
        .count();
    assert_eq!(said, 1);
}
