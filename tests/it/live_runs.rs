//! Live runs (issue 10, points 4–6): which casts are recorded live by default, one recording
//! per cast under cargo-nextest (one process per trial), and one change accepted whole.

use std::fs;

use crate::harness::{text, Crate};
use crate::util::{have, Dir};

/// How many times the counted program ran: the lines of its counter file.
fn runs(counter: &std::path::Path) -> usize {
    fs::read_to_string(counter).map_or(0, |t| t.lines().count())
}

/// A scenario whose program appends a line to `counter` each time it runs and greets, with
/// three checkpoints (`a`, `b`, `end`).
fn counted(counter: &std::path::Path, greeting: &str) -> String {
    format!(
        "shell = \"echo run >> {}; echo {greeting}\"\nsize = \"30x3\"\n\
         steps = [{{ wait = \"{greeting}\" }}, {{ snapshot = \"a\" }}, {{ snapshot = \"b\" }}, {{ exit = 0 }}]\n",
        counter.display()
    )
}

#[test]
fn under_nextest_a_cast_is_recorded_once_and_its_change_is_accepted_whole() {
    if !have("cargo-nextest") {
        assert!(
            std::env::var_os("CI").is_none(),
            "cargo-nextest is required under CI"
        );
        eprintln!("skipping: cargo-nextest is not installed");
        return;
    }
    let c = Crate::empty("\"record\"");
    let counter = c.path("counter.txt");
    c.dir.write("casts/count.toml", counted(&counter, "hello"));
    c.tuicast(&["record", "casts/count.toml"]).success();
    c.tuicast(&["test", "--update"]).success();
    assert_eq!(
        runs(&counter),
        1,
        "a `command`/`shell` scenario replays by default"
    );
    fs::remove_file(&counter).unwrap();

    // Three trials, three processes, one recording.
    let out = c.cargo(
        &["nextest", "run", "--test", "casts"],
        &[("TUICAST_LIVE", "1")],
    );
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    // (The recording is a test of its own, `count`, beside its three checkpoints.)
    assert!(t.contains("4 tests run: 4 passed"), "{t}");
    assert_eq!(runs(&counter), 1, "recorded once under nextest:\n{t}");
    // cargo test's threads share it too.
    fs::remove_file(&counter).unwrap();
    let out = c.cargo(&["test", "--test", "casts"], &[("TUICAST_LIVE", "1")]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(runs(&counter), 1, "recorded once under cargo test");
    fs::remove_file(&counter).unwrap();
    // Without TUICAST_LIVE the `shell` scenario's cast replays.
    let out = c.cargo(&["nextest", "run", "--test", "casts"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(runs(&counter), 0);

    // The program changes: one recording, kept once as casts/count.cast.new, with the three
    // snapshots it changes; the hint under CI names the live mode.
    c.dir.write("casts/count.toml", counted(&counter, "there"));
    let out = c.cargo(
        &["nextest", "run", "--test", "casts", "--no-fail-fast"],
        &[("TUICAST_LIVE", "1"), ("CI", "true")],
    );
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains("to update: TUICAST_UPDATE=always TUICAST_LIVE=1 cargo test, or tuicast test --live --update"),
        "{t}"
    );
    assert!(
        !c.path("casts/count.cast.new").exists(),
        "CI writes nothing"
    );
    assert_eq!(runs(&counter), 1, "{t}");
    fs::remove_file(&counter).unwrap();
    let out = c.cargo(
        &["nextest", "run", "--test", "casts", "--no-fail-fast"],
        &[("TUICAST_LIVE", "1")],
    );
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert_eq!(runs(&counter), 1, "{t}");
    assert!(t.contains("to accept: tuicast accept count/"), "{t}");
    // The kept recording is a whole, valid cast.
    let replayed = c.tuicast(&["replay", "casts/count.cast.new"]).success();
    assert!(replayed.stdout().contains("there"), "{replayed}");
    let pending = c.tuicast(&["pending"]).success();
    assert_eq!(pending.stdout().lines().count(), 4, "{pending}");

    // Review shows the recording's checkpoints as screens, not JSON lines.
    let review = c.dir.tuicast(["review"]).stdin("s\ns\n").run().success();
    let shown = review.stdout();
    assert!(shown.contains("[1/1] casts/count.cast"), "{shown}");
    assert!(shown.contains("checkpoint \"a\":"), "{shown}");
    assert!(
        shown.contains("-hello") && shown.contains("+there"),
        "{shown}"
    );
    assert!(!shown.contains("[0."), "no event lines: {shown}");
    assert!(shown.contains("count/a.txt"), "{shown}");

    // Accepting one of its snapshots accepts the whole change, recording included.
    let accepted = c.tuicast(&["accept", "count/a.txt"]).success();
    assert!(
        accepted.stdout().contains("accepted casts/count.cast"),
        "{accepted}"
    );
    assert!(c.tuicast(&["pending"]).success().stdout().is_empty());
    let out = c.cargo(&["nextest", "run", "--test", "casts"], &[]);
    assert!(
        out.status.success(),
        "the accepted cast replays: {}",
        text(&out)
    );

    // A recording that fails is its own failing test, under every runner (issue 40 point 6):
    // the error once, in `count`; each checkpoint points there.
    c.dir.write(
        "casts/count.toml",
        counted(&counter, "there").replace("{ exit = 0 }", "{ exit = 3 }"),
    );
    for runner in [
        &["test", "--test", "casts"][..],
        &["nextest", "run", "--test", "casts", "--no-fail-fast"],
    ] {
        let out = c.cargo(runner, &[("TUICAST_LIVE", "1"), ("CI", "true")]);
        let t = text(&out);
        assert!(!out.status.success(), "{t}");
        assert!(t.contains("exited with status 0, expected 3"), "{t}");
        assert!(
            t.contains(
                "not checked: casts/count.cast could not be recorded (the error is under count)"
            ),
            "{t}"
        );
    }
}

#[test]
fn casts_of_bin_scenarios_are_recorded_live_by_default_and_warn_when_replayed_stale() {
    let c = Crate::empty("\"record\"");
    let counter = c.path("counter.txt");
    c.dir.write(
        "src/main.rs",
        format!(
            "fn main() {{\n    use std::io::Write;\n    let mut f = std::fs::OpenOptions::new().create(true).append(true).open({:?}).unwrap();\n    writeln!(f, \"run\").unwrap();\n    println!(\"app says {{}}\", include_str!(\"../greeting.txt\").trim());\n}}\n",
            counter.display().to_string()
        ),
    );
    c.dir.write("greeting.txt", "hello\n");
    c.dir.write(
        "casts/app.toml",
        "bin = \"uses-tuicast\"\nsize = \"30x3\"\nsteps = [{ wait = \"app says\" }, { snapshot = \"said\" }, { exit = 0 }]\n",
    );
    c.tuicast(&["record", "casts/app.toml"]).success();
    c.tuicast(&["test", "--update", "--replay"]).success();
    fs::remove_file(&counter).unwrap();

    // Plain cargo test records the crate's own program.
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(runs(&counter), 1, "{}", text(&out));

    // A UI change fails plain cargo test, with the cast and checkpoint.
    c.dir.write("greeting.txt", "goodbye\n");
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains("snapshot mismatch: snapshots/app/said.txt"),
        "{t}"
    );
    assert!(t.contains("to accept: tuicast accept app/said.txt"), "{t}");

    // The scenario gains a checkpoint: cargo test lists it before anything is recorded.
    c.dir.write(
        "casts/app.toml",
        "bin = \"uses-tuicast\"\nsize = \"30x3\"\nsteps = [{ wait = \"app says\" }, { snapshot = \"said\" }, { snapshot = \"again\" }, { exit = 0 }]\n",
    );
    let out = c.cargo(&["test", "--test", "casts", "--", "--list"], &[]);
    let t = text(&out);
    assert!(t.contains("app::again: test"), "{t}");
    // Updating says which trials wrote their goldens, and where the report is; the page
    // names the command as it was typed.
    let report = c.path("report");
    let out = c.cargo(
        &["test", "--test", "casts"],
        &[
            ("TUICAST_UPDATE", "always"),
            ("TUICAST_REPORT", report.to_str().unwrap()),
        ],
    );
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains(
            "updated: 3 trial(s) wrote their goldens (TUICAST_UPDATE=always): app::again, \
             app::end, app::said\n"
        ),
        "{t}"
    );
    assert!(
        t.contains(&format!("report: {}/index.html\n", report.display())),
        "{t}"
    );
    let page = fs::read_to_string(report.join("index.html")).unwrap();
    assert!(
        page.contains("<code>cargo test --test casts</code>"),
        "{page}"
    );
    // The program changes again, after its cast and goldens were written.
    c.dir.write("greeting.txt", "hello again\n");

    // Replayed (TUICAST_LIVE=0), the old cast passes, with one warning that it is older than
    // the binary.
    fs::remove_file(&counter).unwrap();
    let out = c.cargo(&["test", "--test", "casts"], &[("TUICAST_LIVE", "0")]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert_eq!(runs(&counter), 0);
    assert_eq!(
        t.matches("is older than the binary uses-tuicast").count(),
        1,
        "{t}"
    );
    // A value that is neither 1 nor 0 is refused.
    let out = c.cargo(&["test", "--test", "casts"], &[("TUICAST_LIVE", "maybe")]);
    assert!(
        text(&out).contains("TUICAST_LIVE=maybe: expected 1"),
        "{}",
        text(&out)
    );
}

#[test]
fn live_on_casts_without_a_scenario_says_it_replayed_them_and_passing_runs_clear_stale_files() {
    let dir = Dir::new();
    dir.copy_from_repo("casts/progress.cast", "casts/progress.cast");
    dir.tuicast(["test", "--update"]).run().success();
    // Left by an earlier run: a checkpoint no longer checked, a half-drawn screen.
    dir.write("snapshots/progress/gone.txt.new", "stale\n");
    dir.write("snapshots/progress/done.txt.new", "half\n");
    let out = dir.tuicast(["test", "--live"]).run().success();
    assert!(
        out.stderr().contains(
            "note: --live replayed 1 cast(s) that have no scenario to record them from: progress"
        ),
        "{out}"
    );
    assert!(!dir.join("snapshots/progress/gone.txt.new").exists());
    assert!(!dir.join("snapshots/progress/done.txt.new").exists());
    // A run that writes nothing removes nothing.
    dir.write("snapshots/progress/gone.txt.new", "stale\n");
    dir.tuicast(["test"])
        .env("TUICAST_UPDATE", "no")
        .run()
        .success();
    assert!(dir.join("snapshots/progress/gone.txt.new").exists());
    dir.tuicast(["test", "--live", "--replay"])
        .run()
        .fails_with(2);
}

/// The leanest build (`default-features = false`: no CLI, PNG or second engine) still has the
/// recorder, so a `bin =` case is checked live there as in every build: a UI change fails,
/// never passes on the committed cast; after the change is accepted, the clean checkout passes
/// in that build live and replayed.
#[test]
fn a_lean_build_records_a_bin_case_live() {
    let c = Crate::named("lean-app", "");
    c.dir.write(
        "src/main.rs",
        "fn main() {\n    println!(\"lean app\");\n}\n",
    );
    c.dir.write(
        "casts/app.toml",
        "bin = \"lean-app\"\nsize = \"30x3\"\nsteps = [{ wait = \"lean app\" }, { exit = 0 }]\n",
    );
    c.tuicast(&["record", "casts/app.toml"]).success();
    c.tuicast(&["test", "--update", "--replay"]).success();
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    // The UI changes: the lean build records it and fails, leaving the new cast to accept.
    c.dir.write(
        "src/main.rs",
        "fn main() {\n    println!(\"lean app 2\");\n}\n",
    );
    let out = c.cargo(&["test", "--test", "casts"], &[]);
    let t = text(&out);
    assert!(!out.status.success(), "a lean build does not pass it: {t}");
    assert!(t.contains("lean app 2"), "the live screen: {t}");
    c.tuicast(&["accept"]).success();
    for live in ["1", "0"] {
        let out = c.cargo(&["test", "--test", "casts"], &[("TUICAST_LIVE", live)]);
        assert!(out.status.success(), "TUICAST_LIVE={live}: {}", text(&out));
    }
}
