//! The author's edit loop (issue 21): a scenario edited as an author edits it — a checkpoint
//! added, renamed or removed, a scenario with no cast yet — is checked, missing or orphaned on
//! the next run, live or replayed, never silently skipped.

use crate::util::Dir;

/// A scenario whose program greets, reads a line and answers; `checkpoints` are the checkpoint
/// steps, in order, spread over the session (`before` the answer, then `after` it).
fn scenario(before: &[&str], after: &[&str]) -> String {
    let steps = |names: &[&str]| -> String {
        names
            .iter()
            .map(|n| format!("  {{ checkpoint = \"{n}\" }},\n"))
            .collect()
    };
    format!(
        "shell = \"echo hello; read x; echo got $x\"\nsize = \"30x4\"\nsteps = [\n  \
         {{ wait = \"hello\" }},\n{}  {{ type = \"abc\\n\" }},\n  {{ wait = \"got\" }},\n{}  \
         {{ exit = 0 }},\n]\n",
        steps(before),
        steps(after)
    )
}

/// A folder with `casts/greet.toml`, recorded and accepted: its cast and goldens committed.
fn recorded(before: &[&str], after: &[&str]) -> Dir {
    let dir = Dir::new();
    dir.write("casts/greet.toml", scenario(before, after));
    dir.tuicast(["record", "casts/greet.toml"]).run().success();
    let out = dir.tuicast(["test", "--update"]).run().success();
    // The summary says how many of the passes wrote their goldens.
    let n = before.len() + after.len() + 1;
    assert!(
        out.stdout()
            .ends_with(&format!("\n{n} passed ({n} updated), 0 failed\n")),
        "{out}"
    );
    dir
}

#[test]
fn a_scenario_with_no_cast_is_a_case_recorded_live_or_a_failure_that_says_how() {
    let dir = Dir::new();
    dir.write("casts/greet.toml", scenario(&["greeted"], &[]));
    // A `shell` scenario replays by default: there is nothing to replay, and it says how to
    // record it instead of "running 0 tests".
    let out = dir.tuicast(["test"]).run();
    assert_ne!(out.code(), Some(0), "{out}");
    assert!(out.stdout().contains("running 1 test\n"), "{out}");
    assert!(
        out.stdout().contains(
            "casts/greet.toml: no cast casts/greet.cast has been recorded from this scenario, \
             and this run records live only scenarios of the project's own code (bin =, live = \
             true, or a script of the project): record it with `tuicast record casts/greet.toml`, or check it live with `tuicast test \
             --live` (TUICAST_LIVE=1 cargo test)\n"
        ),
        "{out}"
    );
    let out = dir.tuicast(["test", "--replay"]).run();
    assert!(
        out.stdout()
            .contains("and this run replays (TUICAST_LIVE=0 or --replay)"),
        "{out}"
    );

    // Live, it is recorded: both checkpoints planned from the scenario, missing goldens
    // written as `.new` with the recording beside the cast-to-be, accepted as one change.
    let out = dir.tuicast(["test", "--live"]).run().fails_with(1);
    assert!(out.stdout().contains("running 3 tests\n"), "{out}");
    assert!(
        out.stdout()
            .contains("snapshot missing: snapshots/greet/greeted.txt\n"),
        "{out}"
    );
    assert_eq!(
        dir.files(),
        [
            "casts/greet.cast.new",
            "casts/greet.toml",
            "snapshots/greet/end.txt.new",
            "snapshots/greet/greeted.txt.new"
        ]
    );
    dir.tuicast(["accept", "greet"]).run().success();
    assert_eq!(
        dir.files(),
        [
            "casts/greet.cast",
            "casts/greet.toml",
            "snapshots/greet/end.txt",
            "snapshots/greet/greeted.txt"
        ]
    );
    // The accepted cast replays to the accepted goldens, and records to them again.
    dir.tuicast(["test"]).run().success();
    dir.tuicast(["test", "--live"]).run().success();
}

#[test]
fn a_checkpoint_added_to_the_scenario_is_checked_live_and_fails_a_stale_replay() {
    let dir = recorded(&["greeted"], &[]);
    dir.write("casts/greet.toml", scenario(&["greeted"], &["answered"]));

    // Replayed, the committed cast lacks it: that checkpoint fails with its step's place and
    // the command that records the cast again; the others still pass.
    let out = dir.tuicast(["test"]).run().fails_with(1);
    let t = out.stdout();
    assert!(t.contains("running 3 tests\n"), "{out}");
    assert!(t.contains("test greet::greeted ... ok\n"), "{out}");
    assert!(t.contains("test greet::answered ... FAILED\n"), "{out}");
    assert!(
        t.contains(
            "casts/greet.toml:8:3: checkpoint \"answered\" is not in casts/greet.cast, which was \
             recorded before the step was added: record the cast again with `tuicast record \
             casts/greet.toml`, or check it live with `tuicast test --live` (TUICAST_LIVE=1 \
             cargo test)\n"
        ),
        "{out}"
    );
    // `--list`-like planning: a filter sees it too.
    let out = dir.tuicast(["test", "-k", "answered"]).run().fails_with(1);
    assert!(out.stdout().contains("running 1 test\n"), "{out}");

    // Live, the new checkpoint is recorded and its golden is missing: one pending change.
    let out = dir.tuicast(["test", "--live"]).run().fails_with(1);
    assert!(
        out.stdout()
            .contains("snapshot missing: snapshots/greet/answered.txt\n"),
        "{out}"
    );
    assert!(dir.join("casts/greet.cast.new").is_file());
    dir.tuicast(["accept", "greet"]).run().success();
    // Accepted whole: the cast now has the checkpoint, so the replay passes too.
    dir.tuicast(["test"]).run().success();
    dir.tuicast(["test", "--live"]).run().success();
}

#[test]
fn a_renamed_checkpoint_is_missing_under_its_new_name_and_its_old_golden_an_orphan() {
    let dir = recorded(&["greeted"], &[]);
    dir.write("casts/greet.toml", scenario(&["welcomed"], &[]));

    let out = dir.tuicast(["test"]).run().fails_with(1);
    let t = out.stdout();
    assert!(t.contains("test greet::welcomed ... FAILED\n"), "{out}");
    assert!(t.contains("test greet::greeted ... FAILED\n"), "{out}");
    assert!(
        t.contains(
            ") is no longer made by its scenario \
             casts/greet.toml, which was edited after the cast was recorded: record the cast \
             again with `tuicast record casts/greet.toml`"
        ),
        "{out}"
    );

    let out = dir.tuicast(["test", "--live"]).run().fails_with(1);
    let t = out.stdout();
    assert!(t.contains("running 3 tests\n"), "{out}");
    assert!(
        t.contains("snapshot missing: snapshots/greet/welcomed.txt\n"),
        "{out}"
    );
    assert!(
        t.contains("1 orphaned snapshot(s) found (no cast checkpoint produces them):\n  snapshots/greet/greeted.txt\n"),
        "{out}"
    );
    dir.tuicast(["accept", "greet"]).run().success();
    let out = dir.tuicast(["test", "--remove-orphans"]).run().success();
    assert!(
        out.stdout().contains("1 orphaned snapshot(s) removed"),
        "{out}"
    );
    assert_eq!(
        dir.files(),
        [
            "casts/greet.cast",
            "casts/greet.toml",
            "snapshots/greet/end.txt",
            "snapshots/greet/welcomed.txt"
        ]
    );
}

#[test]
fn a_removed_checkpoint_fails_a_stale_replay_and_is_an_orphan_live() {
    let dir = recorded(&["greeted"], &["answered"]);
    dir.write("casts/greet.toml", scenario(&["greeted"], &[]));
    // Under CI nothing is written, and the stale cast is said all the same.
    let out = dir
        .tuicast(["test", "--live"])
        .env("CI", "true")
        .run()
        .success();
    assert!(
        out.stderr().contains(
            "makes other checkpoints than its scenario now makes (greeted, end): this run \
             writes nothing; record it again with `tuicast record casts/greet.toml`"
        ),
        "{out}"
    );
    let out = dir.tuicast(["test"]).run().fails_with(1);
    assert!(
        out.stdout().contains("test greet::answered ... FAILED\n"),
        "{out}"
    );
    // (the marker's line depends on how the output came in)
    let t = out.stdout();
    assert!(
        t.contains("casts/greet.cast: checkpoint \"answered\" (line "),
        "{out}"
    );
    assert!(t.contains(") is no longer made by its scenario"), "{out}");
    let out = dir.tuicast(["test", "--live"]).run();
    assert!(out.stdout().contains("running 3 tests\n"), "{out}");
    assert!(
        out.stdout()
            .contains("1 orphaned snapshot(s) found (no cast checkpoint produces them):\n  snapshots/greet/answered.txt\n"),
        "{out}"
    );
    // Every golden still matches, but the committed cast would fail a replay: the recording
    // is kept for review, and said so, until accepted.
    assert!(
        out.stderr().contains(
            "note: casts/greet.cast makes other checkpoints than its scenario now makes \
             (greeted, end): the new recording is kept for review as casts/greet.cast.new: \
             accept it with `tuicast accept greet`\n"
        ),
        "{out}"
    );
    dir.tuicast(["accept", "greet"]).run().success();
    dir.tuicast(["test", "--remove-orphans"]).run().success();
    dir.tuicast(["test", "--live"]).run().success();
    assert!(!dir.join("casts/greet.cast.new").exists());
}

#[test]
fn a_crash_fails_the_step_it_happened_in_with_its_status_and_last_screen_once() {
    let dir = Dir::new();
    // A program that panics on the first key, as a Rust TUI does on a bug.
    dir.write(
        "casts/crash.toml",
        "shell = \"echo ready; read -n1 k; echo; echo \\\"thread 'main' panicked at src/main.rs:10:5:\\\"; echo oops; exit 101\"\n\
         size = \"60x6\"\n\
         steps = [\n\
           { wait = \"ready\" },\n\
           { press = \"t\" },\n\
           { checkpoint = \"after-t\" },\n\
           { resize = \"70x6\" },\n\
           { checkpoint = \"resized\" },\n\
           { press = \"q\" },\n\
           { exit = 0 },\n\
         ]\n",
    );
    let out = dir
        .tuicast(["record", "casts/crash.toml"])
        .run()
        .fails_with(1);
    let e = out.stderr();
    // Not `press q` (line 9), and no checkpoint or resize after the end.
    assert!(
        e.contains(
            "casts/crash.toml:6:1: the program exited (status 101) while this step ran \
             (snapshot after-t), after the input of line 5: press t; the steps after it were \
             not run on the ended program (line 7: resize to 70x6 needed it running)\n"
        ),
        "{out}"
    );
    assert!(
        e.contains("| thread 'main' panicked at src/main.rs:10:5:\n"),
        "the panic is on the screen shown: {out}"
    );
    let partial = std::fs::read_to_string(dir.join("casts/crash.cast.partial")).unwrap();
    assert!(
        !partial.contains("resized") && !partial.contains("\"r\""),
        "{partial}"
    );

    // Under the harness, one failure, said once.
    let out = dir.tuicast(["test", "--live"]).run().fails_with(1);
    let t = out.stdout();
    assert_eq!(
        t.matches("the program exited (status 101)").count(),
        1,
        "{out}"
    );
    // The recording is the scenario's own test (issue 40 point 6): the failure is told there,
    // and the checkpoints it could not check point to it.
    let own = t.split("---- crash ----\n").nth(1).unwrap_or_default();
    assert!(
        own.split("\n----")
            .next()
            .unwrap_or_default()
            .contains("the program exited (status 101)"),
        "the recording's failure under its own name: {out}"
    );
    assert!(
        t.contains(
            "---- crash::after-t ----\nnot checked: casts/crash.cast could not be recorded (the \
             error is under crash)\n"
        ),
        "{out}"
    );
    // A recording that works is a passing test of its own.
    dir.write(
        "casts/crash.toml",
        "shell = \"echo ready; read -n1 k; echo got $k\"\nsize = \"60x6\"\n\
         steps = [{ wait = \"ready\" }, { press = \"t\" }, { wait = \"got t\" }, { checkpoint = \"after-t\" }, { exit = 0 }]\n",
    );
    let out = dir.tuicast(["test", "--live", "--update"]).run().success();
    let t = out.stdout();
    assert!(t.contains("running 3 tests\n"), "{out}");
    assert!(t.contains("test crash ... ok\n"), "{out}");
    assert!(t.contains("test crash::after-t ... updated\n"), "{out}");
}

/// A program whose second row ticks every 20 ms, for ever (an animation), under a title.
const TICKING: &str = "shell = \"printf 'Dashboard\\\\n'; i=0; while :; do i=$((i+1)); printf '\\\\rtick %06d' $i; sleep 0.02; done\"\n\
size = \"30x3\"\ntimeout = \"2s\"\nsteps = [{ wait = \"tick\" }, { checkpoint = \"shown\" }]\n";

#[test]
fn a_screen_whose_only_changes_are_masked_settles_and_the_hint_gives_whole_masks() {
    let dir = Dir::new();
    dir.write("casts/tick.toml", TICKING);
    let out = dir
        .tuicast(["record", "casts/tick.toml"])
        .run()
        .fails_with(1);
    let e = out.stderr();
    assert!(
        e.contains("the screen never stayed the same for 50 ms"),
        "{out}"
    );
    // One mask for the digits that changed, whole, not a cut list.
    assert!(
        e.contains("(in the cast's TOML: [check] mask = [{ rows = 2, cols = \""),
        "{out}"
    );
    assert!(!e.contains("more]"), "{out}");

    // Masked by a regex: the checkpoint settles although the digits never stop.
    dir.write(
        "casts/tick.toml",
        format!("{TICKING}[check]\nmask = [{{ regex = \"\\\\d+\" }}]\n"),
    );
    dir.tuicast(["record", "casts/tick.toml"]).run().success();
    dir.tuicast(["test", "--update"]).run().success();
    let golden = std::fs::read_to_string(dir.join("snapshots/tick/shown.txt")).unwrap();
    assert!(golden.contains("\nDashboard\ntick ▒▒▒▒▒▒\n"), "{golden}");

    // Masked by a named region, anchored by content.
    dir.write(
        "casts/tick.toml",
        format!(
            "{TICKING}[regions]\ncounter = {{ row = {{ regex = \"^tick\" }} }}\n\
             [check]\nmask = [{{ region = \"counter\" }}]\n"
        ),
    );
    dir.tuicast(["record", "casts/tick.toml"]).run().success();
    let out = dir.tuicast(["test", "--update"]).run().success();
    let golden = std::fs::read_to_string(dir.join("snapshots/tick/shown.txt")).unwrap();
    assert!(golden.contains("\nDashboard\n▒▒▒▒"), "{golden}\n{out}");
    // A region the file does not have is an error at its place.
    dir.write(
        "casts/tick.toml",
        format!("{TICKING}[check]\nmask = [{{ region = \"nope\" }}]\n"),
    );
    let out = dir.tuicast(["test"]).run().fails_with(2);
    assert!(
        out.stdout()
            .contains("casts/tick.toml:6:9: check.mask[0]: no region \"nope\" in [regions]"),
        "{out}"
    );
}

/// A Python program of the project, as a Python author writes one (no TUI library needed).
fn python_app(label: &str) -> String {
    format!("import sys\nprint('{label}')\nsys.stdin.readline()\nprint('bye')\n")
}

#[test]
fn a_script_of_the_project_is_recorded_live_by_default_so_a_ui_change_fails() {
    let dir = Dir::new();
    dir.write("app.py", python_app("Hello from the app"));
    dir.write(
        "casts/app.toml",
        "command = [\"python3\", \"../app.py\"]\nsize = \"30x3\"\nsteps = [\n  \
         { wait = \"Hello\" },\n  { checkpoint = \"greeted\" },\n  { press = \"Enter\" },\n  \
         { exit = 0 },\n]\n",
    );
    dir.tuicast(["test"]).run().fails_with(1);
    dir.tuicast(["accept", "app"]).run().success();
    let counted = dir.tuicast(["test"]).run().success();
    assert!(counted.stdout().contains("3 passed"), "{counted}");

    // The label changes: plain `tuicast test` notices, without --live.
    dir.write("app.py", python_app("Hello from the new app"));
    let out = dir.tuicast(["test"]).run().fails_with(1);
    assert!(
        out.stdout().contains("+Hello from the new app"),
        "the diff shows the new label: {out}"
    );
    assert!(dir.join("casts/app.cast.new").is_file());

    // `live = false` replays it knowingly, and warns that the file is newer than the cast.
    let toml = std::fs::read_to_string(dir.join("casts/app.toml")).unwrap();
    dir.write("casts/app.toml", format!("live = false\n{toml}"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    dir.write("app.py", python_app("Hello from the app"));
    let out = dir.tuicast(["test"]).run().success();
    assert!(
        out.stderr()
            .contains("warning: casts/app.cast is older than the file its scenario runs (app.py)"),
        "{out}"
    );
    // A project that says so records every scenario live, even one whose program is not a
    // file of the project.
    dir.write(
        "casts/inline.toml",
        "command = [\"python3\", \"-c\", \"print('inline')\"]\nsize = \"30x3\"\n",
    );
    let out = dir
        .tuicast(["test", "casts/inline.toml"])
        .run()
        .fails_with(2);
    assert!(out.stdout().contains("has been recorded"), "{out}");
    dir.write("tuicast.toml", "live = true\n");
    let out = dir
        .tuicast(["test", "casts/inline.toml"])
        .run()
        .fails_with(1);
    assert!(
        out.stdout()
            .contains("snapshot missing: snapshots/inline/end.txt\n"),
        "{out}"
    );
}

#[test]
fn an_activated_virtualenv_is_the_recorded_programs_python() {
    let dir = Dir::new();
    let python = dir.write(
        "venv/bin/python3",
        "#!/bin/sh\necho \"the venv's python: $VIRTUAL_ENV\"\n",
    );
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir.write(
        "casts/py.toml",
        "command = [\"python3\"]\nsize = \"60x3\"\nsteps = [{ wait = \"python\" }, { exit = 0 }]\n",
    );
    let venv = dir.join("venv");
    dir.tuicast(["record", "casts/py.toml"])
        .env("VIRTUAL_ENV", &venv)
        .run()
        .success();
    let screen = crate::util::screen_at(&dir.join("casts/py.cast"), "end");
    assert!(
        screen.contains(&format!("the venv's python: {}", venv.display())),
        "{screen}"
    );
}

/// A workspace of two members, `apps/a` and `apps/b`, each with one recorded scenario
/// (`casts/greet`, checkpoint `greeted`) and no golden yet.
fn workspace_of_two() -> Dir {
    let dir = Dir::new();
    dir.write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"apps/a\", \"apps/b\"]\n",
    );
    for app in ["a", "b"] {
        dir.write(
            format!("apps/{app}/Cargo.toml"),
            format!("[package]\nname = \"{app}\"\nversion = \"0.0.0\"\n"),
        );
        dir.write(
            format!("apps/{app}/casts/greet.toml"),
            scenario(&["greeted"], &[]),
        );
    }
    dir.tuicast([
        "record",
        "apps/a/casts/greet.toml",
        "apps/b/casts/greet.toml",
    ])
    .run()
    .success();
    dir
}

#[test]
fn at_a_workspace_root_each_members_suite_runs_in_its_own_folder() {
    // Recorded from the root; now check one member by its path: its goldens go to that
    // member's snapshots folder, never ./snapshots/apps/....
    let dir = workspace_of_two();
    dir.tuicast(["test", "--update", "apps/a/casts"])
        .run()
        .success();
    assert!(dir.join("apps/a/snapshots/greet/greeted.txt").is_file());
    assert!(!dir.join("snapshots").exists(), "{:?}", dir.files());

    // Plain `tuicast test` at the root: no casts of its own, so every member's suite runs,
    // each said; one failing member fails the run.
    let out = dir.tuicast(["test"]).run().fails_with(1);
    let t = out.stdout();
    assert!(t.contains("\nsuite apps/a:\nrunning 2 tests\n"), "{out}");
    assert!(t.contains("\nsuite apps/b:\nrunning 2 tests\n"), "{out}");
    assert!(
        t.contains("snapshot missing: apps/b/snapshots/greet/greeted.txt"),
        "{out}"
    );
    assert!(!dir.join("snapshots").exists());
    // From inside a member, its own suite alone.
    dir.tuicast(["test"])
        .current_dir(dir.join("apps/a/casts"))
        .run()
        .success();

    // A CI report made at the root names each cast's member, so `accept --from` at the root
    // (where the artifact is downloaded) writes into the member's snapshots.
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    dir.tuicast(["test", "--report", "report"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    let out = dir.tuicast(["accept", "--from", "report"]).run().success();
    assert!(
        out.stdout().contains("accepted greet/greeted.txt (new)"),
        "{out}"
    );
    assert!(dir.join("apps/b/snapshots/greet/greeted.txt").is_file());
    assert!(!dir.join("snapshots").exists());
    dir.tuicast(["test"]).run().success();
}

/// Issue 40 point 7: a report names each cast's project relative to the repository (a
/// version control's folder, or else the outermost cargo workspace), so `accept --from`
/// applies at a workspace root with no `.git` (a tarball, another VCS) and from any folder of
/// the checkout: a member's, one below it.
#[test]
fn accept_from_works_at_a_workspace_root_and_in_any_folder_without_git() {
    let dir = workspace_of_two();
    assert!(!dir.join(".git").exists());
    dir.tuicast(["test", "--report", "report"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    // At the root: every member's changes, each into its own snapshots.
    let out = dir.tuicast(["accept", "--from", "report"]).run().success();
    let accepted = |out: &crate::util::Run| {
        out.stdout()
            .matches("accepted greet/greeted.txt (new)")
            .count()
    };
    assert_eq!(accepted(&out), 2, "{out}");
    assert!(!dir.join("snapshots").exists());
    dir.tuicast(["test"]).run().success();
    // From a folder below a member, the same report applies to both members.
    for app in ["a", "b"] {
        std::fs::remove_file(dir.join(format!("apps/{app}/snapshots/greet/greeted.txt"))).unwrap();
    }
    let out = dir
        .tuicast(["accept", "--from", "../../../report"])
        .current_dir(dir.join("apps/a/casts"))
        .run()
        .success();
    assert_eq!(accepted(&out), 2, "{out}");
    dir.tuicast(["test"]).run().success();
}

/// `accept --from` over a workspace is one change: every member's entries are checked before
/// anything is written, so one member's stale golden leaves the other member untouched too.
#[test]
fn accept_from_a_workspace_report_writes_every_member_or_none() {
    let dir = workspace_of_two();
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    dir.tuicast(["test", "--report", "report"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    // Both members' casts are named `greet`: the report keeps and shows each.
    let page = std::fs::read_to_string(dir.join("report/index.html")).unwrap();
    for app in ["a", "b"] {
        assert!(page.contains(&format!("apps/{app}/greet")), "{page}");
    }
    // Since the report, someone wrote b's golden by hand: b's change is stale.
    dir.write("apps/b/snapshots/greet/greeted.txt", "by hand\n");
    let out = dir
        .tuicast(["accept", "--from", "report"])
        .run()
        .fails_with(1);
    assert!(
        out.stderr().contains("apps/b/snapshots/greet/greeted.txt"),
        "{out}"
    );
    assert!(
        !dir.join("apps/a/snapshots").exists(),
        "a's golden was written although b's was refused: {:?}",
        dir.files()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("apps/b/snapshots/greet/greeted.txt")).unwrap(),
        "by hand\n"
    );
    // Without the stale entry, both members are written.
    std::fs::remove_file(dir.join("apps/b/snapshots/greet/greeted.txt")).unwrap();
    let out = dir.tuicast(["accept", "--from", "report"]).run().success();
    for app in ["a", "b"] {
        assert!(
            dir.join(format!("apps/{app}/snapshots/greet/greeted.txt"))
                .is_file(),
            "{out}\n{:?}",
            dir.files()
        );
    }
    dir.tuicast(["test"]).run().success();
}

#[test]
fn the_flake_guard_tells_a_race_from_noise_and_shows_both_screens() {
    let dir = Dir::new();
    // Answers a key at once or, one time in two, after 150 ms: a checkpoint with a 40 ms
    // settle is then taken before the answer — a race the scenario must wait for.
    dir.write(
        "casts/race.toml",
        "shell = \"echo ready; read -n1 k; [ $((RANDOM % 2)) = 0 ] && sleep 0.15; echo; echo answered\"\n\
         size = \"30x4\"\nsettle = \"40ms\"\n\
         steps = [\n  { wait = \"ready\" },\n  { checkpoint = \"ready\" },\n  { press = \"x\" },\n  \
         { checkpoint = \"answer\" },\n  { exit = 0 },\n]\n",
    );
    let out = dir
        .tuicast(["test", "--live", "--repeat", "14"])
        .run()
        .fails_with(1);
    let t = out.stdout();
    assert!(
        t.contains("answer: a race, not noise: in recording "),
        "{out}"
    );
    assert!(
        t.contains("those cells still show what they showed at the checkpoint before (\"ready\")"),
        "{out}"
    );
    assert!(t.contains(" recordings identical to the first)"), "{out}");
    assert!(t.contains("answered"), "the screens side by side: {out}");
    assert!(!t.contains("mask = ["), "no mask for a race: {out}");
    // Said once, not once per checkpoint: under the checkpoint that varied, and the other
    // points there (issue 40 point 6).
    assert_eq!(t.matches("a race, not noise").count(), 1, "{out}");
    let under = t
        .split("---- race::answer ----\n")
        .nth(1)
        .unwrap_or_default();
    assert!(
        under.starts_with("checkpoints differ between 14 recordings"),
        "{out}"
    );
    assert!(
        t.contains("---- race::ready ----\nnot checked: casts/race.cast could not be replayed or recorded (the error is under race::answer)"),
        "{out}"
    );
}

#[test]
fn a_broken_scenario_fails_whatever_the_filter() {
    let dir = recorded(&["greeted"], &[]);
    dir.write(
        "casts/greet.toml",
        scenario(&["greeted"], &[]).replace("size = \"30x4\"", "size = \"wide\""),
    );
    let out = dir.tuicast(["test", "-k", "greeted"]).run().fails_with(2);
    assert!(out.stdout().contains("running 1 test\n"), "{out}");
    assert!(out.stdout().contains("casts/greet.toml:2:"), "{out}");
}

#[test]
fn accept_from_a_ci_report_takes_the_new_recording_with_its_goldens() {
    let dir = recorded(&["greeted"], &[]);
    // The program's output changes; CI records it live, writes nothing, and keeps a report.
    let changed = scenario(&["greeted"], &[]).replace("echo hello", "echo hello there");
    dir.write("casts/greet.toml", changed);
    let out = dir
        .tuicast(["test", "--live", "--report", "report"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    assert!(
        !dir.join("casts/greet.cast.new").exists(),
        "CI writes nothing: {out}"
    );
    let old_cast = std::fs::read_to_string(dir.join("casts/greet.cast")).unwrap();
    assert!(!old_cast.contains("hello there"));

    // From a folder inside the project, as after downloading the artifact.
    let out = dir
        .tuicast(["accept", "--from", "../report"])
        .current_dir(dir.join("casts"))
        .run()
        .success();
    assert!(out.stdout().contains("casts/greet.cast"), "{out}");
    let cast = std::fs::read_to_string(dir.join("casts/greet.cast")).unwrap();
    assert!(
        cast.contains("hello there"),
        "the cast travelled with its goldens"
    );
    // A clean checkout passes replayed and live.
    dir.tuicast(["test", "--replay"]).run().success();
    dir.tuicast(["test", "--live"]).run().success();
    // Applying it again changes nothing: the cast and goldens hold what it brings.
    let cast_before = std::fs::read(dir.join("casts/greet.cast")).unwrap();
    dir.tuicast(["accept", "--from", "report"]).run().success();
    assert_eq!(
        std::fs::read(dir.join("casts/greet.cast")).unwrap(),
        cast_before
    );
    dir.tuicast(["test", "--replay"]).run().success();
    // The cast recorded again since (another recording): the report is stale.
    dir.tuicast(["record", "casts/greet.toml"]).run().success();
    let stale = dir
        .tuicast(["accept", "--from", "report"])
        .run()
        .fails_with(1);
    assert!(
        stale.stderr().contains("(the cast changed since)"),
        "{stale}"
    );
}

#[test]
fn a_program_missing_from_the_clean_path_says_how_to_pass_yours() {
    let dir = Dir::new();
    dir.write(
        "casts/tool.toml",
        "command = [\"my-project-tool\"]\nsteps = [{ exit = 0 }]\n",
    );
    let out = dir
        .tuicast(["record", "casts/tool.toml"])
        .run()
        .fails_with(2);
    assert!(
        out.stderr().contains(
            "(my-project-tool is not in the recording's PATH /usr/local/sbin:/usr/local/bin:"
        ),
        "{out}"
    );
    assert!(out.stderr().contains("`inherit_env = [\"PATH\"]`"), "{out}");
}

#[test]
fn a_tool_of_the_projects_node_modules_is_found_on_the_recorded_path() {
    let dir = Dir::new();
    let tool = dir.write(
        "node_modules/.bin/greet-tool",
        "#!/bin/sh\necho greetings from the project tool\n",
    );
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir.write(
        "casts/tool.toml",
        "command = [\"greet-tool\"]\nsize = \"40x3\"\nsteps = [{ wait = \"greetings\" }, { exit = 0 }]\n",
    );
    dir.tuicast(["record", "casts/tool.toml"]).run().success();
}

#[test]
fn a_screen_that_never_settles_suggests_the_region_that_holds_what_changed() {
    let dir = Dir::new();
    dir.write(
        "casts/tick.toml",
        format!("{TICKING}[regions]\ncounter = {{ match = {{ regex = \"\\\\d+\" }} }}\n"),
    );
    let out = dir
        .tuicast(["record", "casts/tick.toml"])
        .run()
        .fails_with(1);
    assert!(
        out.stderr()
            .contains("(in the cast's TOML: [check] mask = [{ region = \"counter\" }])"),
        "{out}"
    );
}

#[test]
fn a_workspace_member_whose_config_does_not_read_is_an_error_not_skipped() {
    let dir = Dir::new();
    dir.write("Cargo.toml", "[workspace]\nmembers = [\"a\", \"b\"]\n");
    dir.write("a/Cargo.toml", "[package]\nname = \"a\"\n");
    dir.write("a/casts/x.toml", scenario(&["greeted"], &[]));
    dir.write("b/Cargo.toml", "[package]\nname = \"b\"\n");
    dir.write("b/tuicast.toml", "casts = 3\n");
    let out = dir.tuicast(["test"]).run().fails_with(2);
    assert!(out.stderr().contains("b/tuicast.toml"), "{out}");
    // In JSON, each suite is a line of its own.
    let out = dir
        .tuicast(["test", "--message-format", "json", "--live"])
        .run();
    let first = out.stdout().lines().next().unwrap_or_default();
    let suite: serde_json::Value = serde_json::from_str(first).unwrap();
    assert!(suite["suite"].as_str().unwrap().ends_with("/a"), "{out}");
}

#[test]
fn a_script_named_as_the_command_is_recorded_live_by_default() {
    let dir = Dir::new();
    let script = dir.write("casts/run.sh", "#!/bin/sh\necho script says hi\n");
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir.write(
        "casts/run.toml",
        "command = [\"./run.sh\"]\nsize = \"30x3\"\nsteps = [{ wait = \"says\" }, { exit = 0 }]\n",
    );
    // No cast yet: a project script is recorded (goldens missing), not "record it first".
    let out = dir.tuicast(["test"]).run().fails_with(1);
    assert!(
        out.stdout()
            .contains("snapshot missing: snapshots/run/end.txt"),
        "{out}"
    );
    // A system program stays replayed by default.
    dir.write(
        "casts/sys.toml",
        "command = [\"/bin/echo\", \"hi\"]\nsteps = [{ exit = 0 }]\n",
    );
    let out = dir.tuicast(["test", "casts/sys.toml"]).run().fails_with(2);
    assert!(
        out.stdout()
            .contains("no cast casts/sys.cast has been recorded"),
        "{out}"
    );
}
