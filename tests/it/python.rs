//! Python projects: `tuicast test`'s machine interface the pytest plugin drives (`--list`,
//! `--exact -k`, the failure `message` of a JSON record), and the `tuicast` wheel built with
//! maturin (`python/pyproject.toml`), installed with pytest and prompt_toolkit into a fresh
//! virtualenv, checking the prompt_toolkit app of `tests/apps/pyapp` with `pytest`: every
//! checkpoint an item, a changed UI failing with tuicast's message, `--tuicast-update`, a
//! checkpoint added to the scenario checked live, and no silent zero. The tools come from
//! `scripts/python-tools.sh` (CI runs it); without them the wheel test skips, except under CI.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use serde_json::Value;

use crate::util::{root, Dir, BIN};

/// `--list --message-format json` lists every test a run checks, with its cast, checkpoint,
/// expectation and whether it is recorded live, running nothing; `--exact -k` runs exactly
/// the tests named; a failing record carries the message `tuicast test` prints.
#[test]
fn tuicast_test_lists_its_tests_and_runs_those_named_exactly() {
    let (dir, _, _) = crate::util::project_with_a_changed_golden();
    dir.write(
        "casts/shell.toml",
        "[[check.expect]]\nname = \"prompt\"\nat = \"end\"\ncontains = \"$\"\n",
    );
    let listed = dir
        .tuicast(["test", "--list", "--message-format", "json"])
        .run()
        .success();
    let tests: Vec<Value> = listed
        .stdout()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["listed"].clone())
        .collect();
    let names: Vec<&str> = tests.iter().map(|t| t["test"].as_str().unwrap()).collect();
    assert!(names.len() >= 3, "{listed}");
    assert_eq!(names.last(), Some(&"shell::end::prompt"), "{listed}");
    assert!(names.contains(&"shell::end"), "{listed}");
    let end = &tests[names.iter().position(|n| *n == "shell::end").unwrap()];
    assert_eq!(end["checkpoint"], "end");
    assert_eq!(end["expect"], Value::Null);
    assert_eq!(end["live"], false);
    assert!(end["line"].as_u64().unwrap() > 1, "{end}");
    assert!(
        end["cast"].as_str().unwrap().ends_with("casts/shell.cast"),
        "{end}"
    );
    assert_eq!(tests.last().unwrap()["expect"], "prompt");
    // Nothing ran: no `.new` file beside the changed golden.
    assert!(!dir.join("snapshots/shell/end.txt.new").exists());
    let text = dir.tuicast(["test", "--list"]).run().success();
    assert!(text.stdout().contains("shell::end: test\n"), "{text}");
    assert!(
        text.stdout()
            .ends_with(&format!("\n{} tests\n", names.len())),
        "{text}"
    );

    // Exactly the one named (`shell::end` is also a prefix of its expectation's name).
    let out = dir
        .tuicast([
            "test",
            "--message-format",
            "json",
            "--exact",
            "-k",
            "shell::end",
        ])
        .env("TUICAST_UPDATE", "no")
        .run()
        .fails_with(1);
    let records: Vec<Value> = out
        .stdout()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2, "{out}");
    assert_eq!(records[0]["test"], "shell::end");
    assert_eq!(records[1]["summary"]["failed"], 1);
    // The message is the human run's: what differs, where, and the command that fixes it.
    let message = records[0]["message"].as_str().unwrap();
    let human = dir
        .tuicast(["test", "--exact", "-k", "shell::end"])
        .env("TUICAST_UPDATE", "no")
        .run()
        .fails_with(1);
    assert!(human.stdout().contains(message), "{message}\n{human}");
    assert!(
        message.starts_with("snapshot mismatch: snapshots/shell/end.txt\n"),
        "{message}"
    );
    assert!(message.contains("  checkpoint \"end\" of casts/shell.cast:"));
    assert!(message.ends_with("tuicast test --update\n"), "{message}");
    // Two filters: either; with no `--exact` a filter is a substring as before.
    let two = dir
        .tuicast(["test", "--list", "--exact", "-k", "shell::end", "-k"])
        .arg("shell::end::prompt")
        .run()
        .success();
    assert_eq!(
        two.stdout(),
        "shell::end: test\nshell::end::prompt: test\n\n2 tests\n"
    );
    let loose = dir.tuicast(["test", "--list", "-k", "end"]).run().success();
    assert!(loose.stdout().ends_with("\n2 tests\n"), "{loose}");
    // A run's listing changes nothing and is no JUnit document.
    dir.tuicast(["test", "--list", "--message-format", "junit"])
        .run()
        .fails_with(2);
    dir.tuicast(["test", "--list", "--update"])
        .run()
        .fails_with(2);
}

/// maturin, and the folder of the wheels of pytest, prompt_toolkit and mcp, from
/// `scripts/python-tools.sh`; `None` (and a note) outside CI when it has not been run.
pub(crate) fn tools() -> Option<(PathBuf, PathBuf)> {
    let pyenv = std::env::var_os("TUICAST_PYENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/pyenv"));
    let maturin = pyenv.join("bin/maturin");
    let wheels = pyenv.join("wheels");
    let ready = maturin.is_file() && wheels.join(".wanted").is_file() && have_python();
    if !ready {
        assert!(
            std::env::var_os("CI").is_none(),
            "maturin, pytest, prompt_toolkit and mcp are required under CI: run scripts/python-tools.sh"
        );
        eprintln!("skipping a Python test: run scripts/python-tools.sh");
        return None;
    }
    Some((maturin, wheels))
}

fn have_python() -> bool {
    Command::new("python3")
        .args(["-m", "venv", "--help"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A finished command's whole story, for assertions.
fn story(what: &str, out: &Output) -> String {
    format!(
        "{what}: {}\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `cmd`, asserting its exit status; gives its stdout and the whole story.
fn run(mut cmd: Command, what: &str, status: i32) -> (String, String) {
    let started = Instant::now();
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let told = story(what, &out);
    eprintln!("{what}: {:.2}s", started.elapsed().as_secs_f64());
    assert_eq!(out.status.code(), Some(status), "{told}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), told)
}

/// Copies the test project (the app, tuicast.toml, casts and goldens) into `to`.
fn copy_project(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_project(&entry.path(), &target);
        } else if !entry.file_name().to_string_lossy().ends_with(".new") {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The wheel installs `tuicast` and the plugin into a fresh virtualenv, and `pytest` checks the
/// prompt_toolkit app's casts as tuicast would: each checkpoint and expectation an item that
/// passes; a changed title fails with tuicast's message (diff, golden, cast line, the fix);
/// `--tuicast-update` writes the goldens; a checkpoint added to the scenario is an item checked
/// live; casts that pytest does not collect are an error, never a pass.
#[test]
fn pytest_checks_a_prompt_toolkit_app_through_the_wheel() {
    let Some((maturin, wheelhouse)) = tools() else {
        return;
    };
    let dir = Dir::new();
    // The wheel, built in a target folder of its own inside this test's (kept between runs).
    // Not the tests' own: maturin's build has other features than `cargo test`'s, so cargo
    // would link target/debug/tuicast again while the other tests run it.
    let mut build = Command::new(&maturin);
    build
        .args(["build", "--profile", "dev", "--quiet", "-o"])
        .arg(dir.join("wheels"))
        .current_dir(root().join("python"));
    if let Some(target) = Path::new(BIN).parent().and_then(Path::parent) {
        build.env("CARGO_TARGET_DIR", target.join("python-wheel"));
    }
    run(build, "maturin build", 0);
    let wheel = std::fs::read_dir(dir.join("wheels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .expect("a wheel");
    let venv = dir.join("venv");
    let mut make = Command::new("python3");
    make.args(["-m", "venv"]).arg(&venv);
    run(make, "python3 -m venv", 0);
    let mut install = Command::new(venv.join("bin/pip"));
    install
        .args(["install", "-q", "--disable-pip-version-check", "--no-index"])
        .arg("--find-links")
        .arg(&wheelhouse)
        .arg(&wheel)
        .args(["pytest", "prompt_toolkit"]);
    run(install, "pip install", 0);
    let installed = venv.join("bin/tuicast");
    let mut version = Command::new(&installed);
    version.arg("--version");
    let (shown, _) = run(version, "the installed tuicast --version", 0);
    assert!(shown.starts_with("tuicast "), "{shown}");

    let project = dir.join("project");
    std::fs::create_dir_all(&project).unwrap();
    copy_project(&root().join("tests/apps/pyapp"), &project);
    let pytest = |args: &[&str], what: &str, status: i32| {
        let mut cmd = Command::new(venv.join("bin/pytest"));
        cmd.args(["-p", "no:cacheprovider", "-rA"])
            .args(args)
            .current_dir(&project)
            .env("TUICAST_UPDATE", "new")
            .env("NO_COLOR", "1")
            .env_remove("CI")
            .env_remove("VIRTUAL_ENV")
            .env_remove("TUICAST_LIVE")
            .env_remove("TUICAST_BIN");
        run(cmd, what, status)
    };
    let items = [
        "casts/shopping.cast::start",
        "casts/shopping.cast::added",
        "casts/shopping.cast::added[header]",
        "casts/shopping.cast::ticked",
        "casts/shopping.cast::end",
    ];

    // Collected from tuicast's own listing: every checkpoint and expectation, in order.
    let (collected, told) = pytest(&["--collect-only", "-q"], "pytest --collect-only", 0);
    let ids: Vec<&str> = collected.lines().filter(|l| l.contains("::")).collect();
    assert_eq!(ids, items, "{told}");

    // Every item passes, recorded live (the scenario runs the project's app.py).
    let (out, told) = pytest(&["-v"], "pytest", 0);
    for item in items {
        assert!(out.contains(&format!("{item} PASSED")), "{item}\n{told}");
    }
    assert!(out.contains("5 passed"), "{told}");

    // A changed UI fails with tuicast's message; the expectation still passes.
    let app = project.join("app.py");
    let source = std::fs::read_to_string(&app).unwrap();
    std::fs::write(
        &app,
        source.replace("TITLE = \"Shopping list\"", "TITLE = \"Groceries\""),
    )
    .unwrap();
    let (out, told) = pytest(&[], "pytest of a changed UI", 1);
    for needed in [
        "snapshot mismatch: snapshots/shopping/start.txt",
        "  checkpoint \"start\" of casts/shopping.cast:",
        "  first difference: row 1, column 2",
        "- Shopping list - 2 items, 0 done",
        "+ Groceries - 2 items, 0 done",
        "  the actual screen was written to snapshots/shopping/start.txt.new",
        "to accept: tuicast accept shopping/start.txt shopping/start.styled.txt",
        "or, from pytest: pytest --tuicast-update casts/shopping.cast::start",
        "PASSED casts/shopping.cast::added[header]",
        "3 failed, 2 passed",
    ] {
        assert!(out.contains(needed), "{needed:?}\n{told}");
    }
    assert!(project.join("snapshots/shopping/start.txt.new").is_file());

    // --tuicast-update writes the goldens (and clears the pending files); then all pass.
    let (out, told) = pytest(&["--tuicast-update"], "pytest --tuicast-update", 0);
    assert!(
        out.contains("tuicast: 3 test(s) wrote their goldens"),
        "{told}"
    );
    let golden = std::fs::read_to_string(project.join("snapshots/shopping/start.txt")).unwrap();
    assert!(golden.contains(" Groceries - 2 items, 0 done"), "{golden}");
    assert!(!project.join("snapshots/shopping/start.txt.new").exists());
    pytest(&[], "pytest after the update", 0);

    // A checkpoint added to the scenario is an item at once, checked live: missing, then
    // written by --tuicast-update.
    let scenario = project.join("casts/shopping.toml");
    let text = std::fs::read_to_string(&scenario).unwrap();
    std::fs::write(
        &scenario,
        text.replace(
            "  { press = \"C-q\" },",
            "  { type = \"tea\" },\n  { press = \"Enter\" },\n  { wait = \"4 items\" },\n  \
             { checkpoint = \"more\" },\n  { press = \"C-q\" },",
        ),
    )
    .unwrap();
    let (out, told) = pytest(&["-v"], "pytest with a new checkpoint", 1);
    assert!(out.contains("casts/shopping.cast::more FAILED"), "{told}");
    assert!(
        out.contains("snapshot missing: snapshots/shopping/more.txt"),
        "{told}"
    );
    pytest(&["--tuicast-update"], "pytest --tuicast-update (new)", 0);
    let more = std::fs::read_to_string(project.join("snapshots/shopping/more.txt")).unwrap();
    assert!(more.contains("[ ] tea"), "{more}");
    // A scenario with no cast yet is collected from its TOML.
    std::fs::copy(&scenario, project.join("casts/fresh.toml")).unwrap();
    let (collected, told) = pytest(&["--collect-only", "-q"], "pytest of a new scenario", 0);
    assert!(collected.contains("casts/fresh.toml::more\n"), "{told}");
    std::fs::remove_file(project.join("casts/fresh.toml")).unwrap();
    // Selecting one checkpoint runs it (and its expectations) alone.
    let (out, told) = pytest(
        &["-v", "casts/shopping.cast::added"],
        "pytest of one checkpoint",
        0,
    );
    assert!(out.contains("2 passed"), "{told}");

    // Never less silently: casts pytest does not walk, or a testpaths without them, fail.
    let (_, told) = pytest(
        &["-o", "norecursedirs=casts"],
        "pytest without the casts",
        4,
    );
    assert!(told.contains("were not collected"), "{told}");
    std::fs::write(project.join("test_unit.py"), "def test_unit():\n    pass\n").unwrap();
    let (_, told) = pytest(&["-o", "testpaths=test_unit.py"], "pytest of testpaths", 4);
    assert!(told.contains("but pytest collected none"), "{told}");
    // Naming a Python file on the command line is a choice: no error.
    pytest(&["test_unit.py"], "pytest of one Python file", 0);
}
