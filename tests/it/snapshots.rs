//! Snapshot testing end to end with the real binary in a temporary project: missing goldens,
//! mismatches, update modes, CI, review commands, masks, orphans, hostile names, JSON output.

use std::fs;
use std::path::PathBuf;

use crate::util::{v3_cast, Dir, Run};

/// A temporary project with `casts/` holding copies of example casts.
struct Project {
    dir: Dir,
}

impl Project {
    fn new(casts: &[&str]) -> Project {
        let dir = Dir::new();
        fs::create_dir_all(dir.join("casts")).unwrap();
        for c in casts {
            dir.copy_from_repo(&format!("casts/{c}"), format!("casts/{c}"));
        }
        Project { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    /// Runs `tuicast ARGS` in the project with a clean CI/update environment plus `env`.
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        self.dir.tuicast(args).envs(env).run()
    }

    fn files(&self) -> Vec<String> {
        self.dir.files()
    }
}

#[test]
fn missing_goldens_are_written_as_new_and_fail_until_accepted() {
    let p = Project::new(&["shell.cast"]);
    let out = p.run(&["test"], &[]).fails_with(1);
    let text = out.stdout();
    assert!(text.contains("test shell::listing ... FAILED"), "{text}");
    assert!(
        text.contains("snapshot missing: snapshots/shell/listing.txt"),
        "{text}"
    );
    assert!(
        text.contains("to accept: tuicast accept shell/listing.txt"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("0 passed, 4 failed"), "{text}");
    assert!(p.path("snapshots/shell/listing.txt.new").exists());
    assert!(!p.path("snapshots/shell/listing.txt").exists());

    let pending = p.run(&["pending"], &[]).stdout().to_string();
    assert_eq!(pending.lines().count(), 4, "{pending}");
    assert!(pending.starts_with("new\tshell/end.txt\t"), "{pending}");

    let out = p.run(&["accept", "listing"], &[]).success();
    assert_eq!(out.stdout(), "accepted shell/listing.txt\n");
    assert!(p.path("snapshots/shell/listing.txt").exists());
    let out = p.run(&["accept"], &[]);
    assert!(out.stdout().contains("accepted shell/unicode.txt"), "{out}");
    let out = p.run(&["test"], &[]).success();
    assert!(out.stdout().trim_end().ends_with("4 passed, 0 failed"));
    assert!(out.stdout().starts_with("running 4 tests\ntest shell::"));
    assert!(
        p.files().iter().all(|f| !f.ends_with(".new")),
        "{:?}",
        p.files()
    );
}

#[test]
fn a_changed_golden_fails_with_place_diff_and_pending_file() {
    let p = Project::new(&["shell.cast"]);
    p.run(&["test", "--update"], &[]);
    let golden = p.path("snapshots/shell/unicode.txt");
    let original = fs::read_to_string(&golden).unwrap();
    assert!(original.contains("café, naïve, 日本語, ✓"), "{original}");
    fs::write(&golden, original.replace("naïve", "naive")).unwrap();

    let out = p.run(&["test"], &[]).fails_with(1);
    let text = out.stdout();
    assert!(
        text.contains("snapshot mismatch: snapshots/shell/unicode.txt"),
        "{text}"
    );
    assert!(
        text.contains("checkpoint \"unicode\" of casts/shell.cast:"),
        "{text}"
    );
    let row = original
        .lines()
        .skip(6)
        .position(|l| l.contains("naïve"))
        .unwrap()
        + 1;
    assert!(
        text.contains(&format!("first difference: row {row}, column 17")),
        "{text}"
    );
    assert!(text.contains("\n-café, naive, 日本語, ✓\n"), "{text}");
    assert!(text.contains("\n+café, naïve, 日本語, ✓\n"), "{text}");
    assert!(
        text.contains("to accept: tuicast accept shell/unicode.txt"),
        "{text}"
    );
    assert!(
        text.lines().count() < 40,
        "the message stays short:\n{text}"
    );
    assert_eq!(
        fs::read_to_string(p.path("snapshots/shell/unicode.txt.new")).unwrap(),
        original
    );

    // Rejecting removes the pending file; the golden stays as it was.
    assert_eq!(
        p.run(&["reject"], &[]).stdout(),
        "rejected shell/unicode.txt\n"
    );
    assert!(!p.path("snapshots/shell/unicode.txt.new").exists());
    assert!(fs::read_to_string(&golden).unwrap().contains("naive"));
}

#[test]
fn under_ci_nothing_is_written_and_always_overwrites() {
    let p = Project::new(&["shell.cast"]);
    let before = p.files();
    let out = p.run(&["test"], &[("CI", "true")]).fails_with(1);
    assert!(
        out.stdout().contains("nothing was written"),
        "{}",
        out.stdout()
    );
    assert_eq!(p.files(), before, "CI=true writes nothing");
    p.run(&["test"], &[("TUICAST_UPDATE", "no")]).fails_with(1);
    assert_eq!(p.files(), before);
    let out = p
        .run(&["test"], &[("CI", "true"), ("TUICAST_UPDATE", "always")])
        .success();
    assert!(out.stdout().contains("test shell::end ... updated"));
    assert!(p.path("snapshots/shell/end.txt").exists());
    p.run(&["test"], &[("TUICAST_UPDATE", "sometimes")])
        .fails_with(2);
}

#[test]
fn review_takes_answers_from_stdin() {
    let p = Project::new(&["progress.cast"]);
    p.run(&["test"], &[]);
    let out = p.dir.tuicast(["review"]).stdin("a\nr\ns\n").run();
    let text = out.stdout();
    assert!(text.contains("[1/3] progress/done.txt"), "{text}");
    assert!(text.contains("1 accepted, 1 rejected, 1 skipped"), "{text}");
    assert!(p.path("snapshots/progress/done.txt").exists());
    assert!(!p.path("snapshots/progress/end.txt.new").exists());
    assert!(p.path("snapshots/progress/half.txt.new").exists());
}

#[test]
fn styled_snapshots_explain_style_only_changes() {
    let p = Project::new(&["dialog.cast"]);
    fs::write(p.path("tuicast.toml"), "formats = [\"styled.txt\"]\n").unwrap();
    p.run(&["test", "--update"], &[]);
    // The menu before and after Down differs only in the highlighted item's style.
    let menu = fs::read_to_string(p.path("snapshots/dialog/menu.styled.txt")).unwrap();
    let down = fs::read_to_string(p.path("snapshots/dialog/down.styled.txt")).unwrap();
    fs::write(
        p.path("snapshots/dialog/down.styled.txt"),
        menu.replace("checkpoint: menu", "checkpoint: down"),
    )
    .unwrap();
    let out = p.run(&["test", "-k", "down"], &[]);
    let out = out.fails_with(1);
    let text = out.stdout();
    assert!(
        text.contains("first difference: row 9, column 28"),
        "{text}"
    );
    assert!(
        text.contains("style: row 9, col 28: bg 4 (blue) → 7 (white), bold removed"),
        "{text}"
    );
    assert!(
        text.contains(
            "style: row 10, cols 29-33: fg 4 (blue) → 3 (yellow), bg 7 (white) → 4 (blue)"
        ),
        "{text}"
    );
    assert!(down != menu);
}

#[test]
fn masks_hide_changing_cells() {
    let p = Project::new(&["shell.cast"]);
    fs::write(
        p.path("casts/shell.toml"),
        "[check]\nmask = [{ regex = \"\\\\d\" }, { rows = \"1\", cols = \"1..3\" }]\n",
    )
    .unwrap();
    p.run(&["test", "--update"], &[]);
    let g = fs::read_to_string(p.path("snapshots/shell/listing.txt")).unwrap();
    assert!(g.contains("▒▒ls --color=always"), "{g}");
    let bad = p.path("casts/shell.toml");
    fs::write(&bad, "[check]\nmask = [{ regex = \"(\" }]\n").unwrap();
    let out = p.run(&["test"], &[]).fails_with(2);
    assert!(
        out.stdout()
            .contains("casts/shell.toml:2:9: check.mask[0]: regex"),
        "{}",
        out.stdout()
    );
    fs::write(&bad, "[check]\nformats = [\"gif\"]\n").unwrap();
    let out = p.run(&["test"], &[]);
    assert!(out.stdout().contains("shell.toml:2:12"), "{}", out.stdout());
}

#[test]
fn orphans_are_reported_and_removable() {
    let p = Project::new(&["progress.cast"]);
    p.run(&["test", "--update"], &[]);
    fs::write(p.path("snapshots/progress/gone.txt"), "old\n").unwrap();
    let out = p.run(&["test"], &[]).success();
    assert!(
        out.stdout().contains("1 orphaned snapshot(s) found"),
        "{}",
        out.stdout()
    );
    p.run(&["test", "--remove-orphans"], &[]).success();
    assert!(!p.path("snapshots/progress/gone.txt").exists());
}

#[test]
fn hostile_checkpoint_names_stay_inside_snapshots() {
    let p = Project::new(&[]);
    p.dir.write(
        "casts/evil.cast",
        v3_cast(
            10,
            2,
            &[
                r#"[0.1, "o", "hi"]"#,
                r#"[0.1, "m", "../../../escaped"]"#,
                r#"[0.1, "m", "/etc/x"]"#,
                r#"[0.1, "m", "\u001b[2J"]"#,
            ],
        ),
    );
    let out = p.run(&["test", "--update"], &[]).success();
    assert!(!out.stdout().contains('\x1b'));
    for f in p.files() {
        assert!(
            f.starts_with("casts/") || f.starts_with("snapshots/evil/"),
            "{f}"
        );
    }
    assert_eq!(p.files().len(), 5, "{:?}", p.files());
    p.run(&["test"], &[]).success();
    // The filter matches the names as printed (escaped), like the harness's trials.
    let out = p.run(&["test", "--filter", "evil::\\e[2J"], &[]);
    assert!(
        out.stdout()
            .starts_with("running 1 test\ntest evil::\\e[2J ... ok\n"),
        "{}",
        out.stdout()
    );
}

#[test]
fn a_malformed_cast_is_one_failure_with_its_place() {
    let p = Project::new(&["progress.cast"]);
    p.dir
        .write("casts/bad.cast", v3_cast(10, 2, &[r#"[0.1, "o"]"#]));
    let out = p.run(&["test", "--update"], &[]).fails_with(2);
    let text = out.stdout();
    assert!(text.contains("test bad ... FAILED"), "{text}");
    assert!(
        text.contains("casts/bad.cast:2:1: an event must have 3 elements"),
        "{text}"
    );
    assert!(text.contains("test progress::end ... updated"), "{text}");
}

#[test]
fn json_messages_carry_the_fields_tools_need() {
    let p = Project::new(&["shell.cast"]);
    p.run(&["test", "--update"], &[]);
    let g = p.path("snapshots/shell/end.txt");
    fs::write(
        &g,
        fs::read_to_string(&g).unwrap().replace("$ exit", "$ exot"),
    )
    .unwrap();
    let out = p.run(&["test", "--message-format", "json"], &[]);
    let lines: Vec<serde_json::Value> = out
        .stdout()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let end = lines.iter().find(|v| v["test"] == "shell::end").unwrap();
    assert_eq!(end["passed"], false);
    assert_eq!(end["checkpoint"], "end");
    assert!(end["line"].as_u64().unwrap() > 1);
    let s = &end["snapshots"][0];
    assert_eq!(s["status"], "mismatch");
    assert!(s["path"]
        .as_str()
        .unwrap()
        .ends_with("snapshots/shell/end.txt"));
    assert_eq!(s["column"], 5);
    assert!(s["row"].as_u64().unwrap() >= 1);
    assert!(s["expected"].as_str().unwrap().contains("$ exot"));
    assert!(s["actual"].as_str().unwrap().contains("$ exit"));
    assert!(s["pending"].as_str().unwrap().ends_with("end.txt.new"));
    assert_eq!(
        lines.last().unwrap()["summary"],
        serde_json::json!({"passed": 3, "failed": 1})
    );
}

#[test]
fn positions_count_from_1_wherever_a_person_writes_or_reads_them() {
    let dir = Dir::new();
    dir.write(
        "casts/grid.cast",
        v3_cast(6, 3, &[r#"[0.1, "o", "abcdef\r\nghijkl\r\nmnopqr"]"#]),
    );
    // Row 1 is the top row, column 2 the second: what goldens and messages call them.
    dir.write(
        "casts/grid.toml",
        "[check]\nmask = [{ rows = 1, cols = \"2..=3\" }]\n",
    );
    dir.tuicast(["test", "--update"]).run().success();
    let golden = std::fs::read_to_string(dir.join("snapshots/grid/end.txt")).unwrap();
    assert!(golden.contains("\na▒▒def\nghijkl\n"), "{golden}");
    // A 0 is a mistake that says why, with its place.
    dir.write("casts/grid.toml", "[check]\nmask = [{ rows = 0 }]\n");
    let out = dir.tuicast(["test"]).run().fails_with(2);
    assert!(
        out.stdout().contains("casts/grid.toml:2:9: check.mask[0]: range \"0\" has a 0: rows and columns count from 1"),
        "{out}"
    );
    dir.write(
        "casts/grid.toml",
        "shell = \"true\"\nsteps = [{ wait = { cursor = [0, 1] } }]\n",
    );
    let out = dir
        .tuicast(["record", "casts/grid.toml"])
        .run()
        .fails_with(2);
    assert!(
        out.stderr()
            .contains("count from 1 (the top-left cell is [1, 1])"),
        "{out}"
    );
}

#[test]
fn check_chooses_the_checkpoints_that_mean_something() {
    let dir = Dir::new();
    let cast = v3_cast(
        10,
        2,
        &[
            r#"[0.1, "o", "menu"]"#,
            r#"[0.1, "m", "menu"]"#,
            r#"[0.1, "o", "\r\nnoise 1"]"#,
        ],
    );
    dir.write("casts/app.cast", &cast);
    dir.write("casts/app.toml", "[check]\nend = false\n");
    let out = dir.tuicast(["test", "--update"]).run().success();
    assert!(out.stdout().starts_with("running 1 test\n"), "{out}");
    assert!(
        dir.join("snapshots/app/menu.txt").exists() && !dir.join("snapshots/app/end.txt").exists()
    );
    // The noise at the end changes: nothing fails.
    dir.write("casts/app.cast", cast.replace("noise 1", "noise 2"));
    dir.tuicast(["test"]).run().success();
    // A list names the checkpoints; a name the cast lacks says which it has.
    dir.write(
        "casts/app.toml",
        "[check]\ncheckpoints = [\"menu\", \"gone\"]\n",
    );
    let out = dir.tuicast(["test"]).run().fails_with(2);
    assert!(
        out.stdout().contains(
            "[check] checkpoints names \"gone\", which the cast does not have (it has menu, end)"
        ),
        "{out}"
    );
}

/// `assert_screen!`'s goldens (`snapshots/@screens/NAME.txt`): missing, the screen waits in
/// `.new` and `tuicast accept` takes it; then it passes; a changed screen fails with the first
/// difference and the diff; and `tuicast test` never calls the golden an orphan.
#[test]
fn screen_goldens_of_rust_tests_are_checked_accepted_and_not_orphans() {
    use tuicast::assert::UpdateAction;
    use tuicast::harness::check_screen_golden;
    let dir = Dir::new();
    dir.write("casts/a.cast", v3_cast(10, 2, &[r#"[0.1, "o", "hi"]"#]));
    dir.tuicast(["test", "--update"]).run().success();
    let screen = |text: &str| {
        let mut e =
            tuicast::term::EngineKind::Native.create(tuicast::size::Size { cols: 10, rows: 2 });
        e.feed(text);
        e.screen()
    };
    let e = check_screen_golden(
        dir.path(),
        &screen("ready"),
        "start",
        UpdateAction::WriteNew,
    )
    .unwrap_err();
    assert!(e.contains("tuicast accept @screens/start.txt"), "{e}");
    let e = check_screen_golden(
        dir.path(),
        &screen("ready"),
        "start",
        UpdateAction::WriteNothing,
    )
    .unwrap_err();
    assert!(e.contains("may write nothing"), "{e}");
    dir.tuicast(["accept", "@screens/start.txt"])
        .run()
        .success();
    check_screen_golden(
        dir.path(),
        &screen("ready"),
        "start",
        UpdateAction::WriteNothing,
    )
    .unwrap();
    let e = check_screen_golden(
        dir.path(),
        &screen("reXdy"),
        "start",
        UpdateAction::WriteNothing,
    )
    .unwrap_err();
    assert!(e.contains("screen golden mismatch: "), "{e}");
    assert!(e.contains("first difference: row 1, column 3"), "{e}");
    assert!(e.contains("+reXdy"), "{e}");
    let run = dir.tuicast(["test", "--remove-orphans"]).run().success();
    assert!(!run.stdout().contains("orphan"), "{run}");
    assert!(dir.join("snapshots/@screens/start.txt").exists());
}

/// The macro itself, on a real program's live screen, against the golden committed in this
/// repository (`snapshots/@screens/bash-read.txt`).
#[test]
fn assert_screen_checks_a_sessions_live_screen() {
    use tuicast::record::{Session, SessionOptions};
    let mut opts = SessionOptions::new(["bash", "-c", "read -p 'Name? ' n"]);
    opts.size = tuicast::size::Size { cols: 20, rows: 3 };
    let mut s = Session::spawn_in_memory(opts).unwrap();
    s.wait_text("Name?").unwrap();
    tuicast::assert_screen!(s, "bash-read");
}

/// A live screen is taken as a checkpoint's, settled: a frame drawn in two writes with a pause
/// between is never caught half-drawn after a wait for its first part; and a mismatch panics
/// at the test's own line (`#[track_caller]`), not in tuicast's sources.
#[test]
fn assert_screen_waits_for_a_settled_screen_and_blames_the_callers_line() {
    use tuicast::record::{Session, SessionOptions};
    let frame = "printf 'Title\\n'; sleep 0.03; printf 'body of the frame'; read x";
    for _ in 0..3 {
        let mut opts = SessionOptions::new(["bash", "-c", frame]);
        opts.size = tuicast::size::Size { cols: 20, rows: 3 };
        // The settle period is the session's: long enough for the pause on a busy machine.
        opts.settle = tuicast::record::Settle::Auto(std::time::Duration::from_millis(300));
        let mut s = Session::spawn_in_memory(opts).unwrap();
        s.wait_text("Title").unwrap();
        tuicast::assert_screen!(s, "two-writes");
    }

    // The panic's place is this file.
    let mut opts = SessionOptions::new(["bash", "-c", "printf 'other'; read x"]);
    opts.size = tuicast::size::Size { cols: 20, rows: 3 };
    let mut s = Session::spawn_in_memory(opts).unwrap();
    s.wait_text("other").unwrap();
    let me = std::thread::current().id();
    let place = std::sync::Arc::new(std::sync::Mutex::new(None));
    let previous = std::sync::Arc::new(std::panic::take_hook());
    {
        let (place, previous) = (place.clone(), previous.clone());
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().id() == me {
                *place.lock().unwrap() = info.location().map(|l| l.file().to_string());
            } else {
                previous(info);
            }
        }));
    }
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        tuicast::assert_screen!(s, "two-writes");
    }));
    let _ = std::panic::take_hook();
    // The mismatch wrote its `.new` beside the golden (outside CI): this test's own, removed so
    // that a test run leaves the checkout as it found it.
    let _ = std::fs::remove_file(crate::util::root().join("snapshots/@screens/two-writes.txt.new"));
    assert!(caught.is_err(), "a different screen fails");
    let file = place.lock().unwrap().clone();
    assert_eq!(file.as_deref(), Some("tests/it/snapshots.rs"));
}
