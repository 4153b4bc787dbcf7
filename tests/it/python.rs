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

/// The wheel built with maturin and installed with `packages` (offline, from `wheelhouse`)
/// into a fresh virtualenv in a new folder: the folder, and the virtualenv's path.
fn wheel_in_a_venv(maturin: &Path, wheelhouse: &Path, packages: &[&str]) -> (Dir, PathBuf) {
    let dir = Dir::new();
    // The wheel, built in a target folder of its own inside this test's (kept between runs).
    // Not the tests' own: maturin's build has other features than `cargo test`'s, so cargo
    // would link target/debug/tuicast again while the other tests run it.
    let mut build = Command::new(maturin);
    build
        .args(["build", "--profile", "dev", "--quiet", "-o"])
        .arg(dir.join("wheels"))
        .current_dir(root().join("python"));
    let target = Path::new(BIN)
        .parent()
        .and_then(Path::parent)
        .expect("the tests' target folder")
        .join("python-wheel");
    std::fs::create_dir_all(&target).unwrap();
    build.env("CARGO_TARGET_DIR", &target);
    // One build at a time (the tests of this file, in threads or in nextest's processes):
    // maturin stages the binary under the target folder, and two builds race there.
    let lock = std::fs::File::create(target.join(".tuicast-test-lock")).unwrap();
    let locked = nix::fcntl::Flock::lock(lock, nix::fcntl::FlockArg::LockExclusive)
        .unwrap_or_else(|(_, e)| panic!("lock the wheel's target folder: {e}"));
    run(build, "maturin build", 0);
    drop(locked);
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
        .arg(wheelhouse)
        .arg(&wheel)
        .args(packages);
    run(install, "pip install", 0);
    let installed = venv.join("bin/tuicast");
    let mut version = Command::new(&installed);
    version.arg("--version");
    let (shown, _) = run(version, "the installed tuicast --version", 0);
    assert!(shown.starts_with("tuicast "), "{shown}");

    (dir, venv)
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
    let (dir, venv) = wheel_in_a_venv(&maturin, &wheelhouse, &["pytest", "prompt_toolkit"]);
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
        // (The live recording is a test of its own.)
        "casts/shopping.cast::shopping",
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
    assert!(out.contains("6 passed"), "{told}");

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
        "3 failed, 3 passed",
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

/// Issue 40 point 6: the pytest plugin suggests `pytest --tuicast-update` only where writing
/// the goldens fixes the failure. Real records of `tuicast test --message-format json` go
/// through the plugin's own `update_fixes`: a mismatch gets the hint, and running what it
/// does (`tuicast test --update`) makes the test pass; a wait that timed out and a failed
/// expectation get none, and the update indeed leaves them failing.
#[test]
fn the_pytest_hint_is_given_only_where_an_update_fixes_the_failure() {
    if !have_python() {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is required under CI"
        );
        eprintln!("skipping: no python3");
        return;
    }
    let dir = Dir::new();
    dir.write(
        "casts/hi.cast",
        crate::util::v3_cast(10, 2, &[r#"[0.1, "o", "hi"]"#, r#"[0.1, "m", "greeted"]"#]),
    );
    dir.write(
        "casts/hi.toml",
        "[[check.expect]]\nname = \"bye\"\nat = \"greeted\"\ncontains = \"bye\"\n",
    );
    dir.write(
        "casts/slow.toml",
        "shell = \"echo ready\"\nlive = true\nsize = \"20x2\"\ntimeout = \"300ms\"\n\
         steps = [{ wait = \"never shown\" }, { checkpoint = \"shown\" }]\n",
    );
    dir.tuicast(["test", "--update", "-k", "hi::"]).run();
    dir.write("snapshots/hi/greeted.txt", "changed by hand\n");
    let fixes = |dir: &Dir| -> Vec<(String, bool)> {
        let out = dir.tuicast(["test", "--message-format", "json"]).run();
        let records: Vec<String> = out
            .stdout()
            .lines()
            .filter(|l| l.contains("\"test\""))
            .map(str::to_string)
            .collect();
        let script = "import json, sys\nfrom tuicast import update_fixes\n\
                      for line in sys.stdin:\n    r = json.loads(line)\n    \
                      print(r['test'], r['passed'], update_fixes(r))\n";
        let mut child = Command::new("python3")
            .args(["-c", script])
            .env("PYTHONPATH", root().join("python"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(records.join("\n").as_bytes()).unwrap();
        }
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", story("python3", &out));
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.contains(" False "))
            .map(|l| {
                let (test, hint) = l.split_once(" False ").unwrap();
                (test.to_string(), hint == "True")
            })
            .collect()
    };
    assert_eq!(
        fixes(&dir),
        [
            ("hi::greeted".to_string(), true),
            ("hi::greeted::bye".to_string(), false),
            // (The recording that timed out is a test of its own; no update fixes it.)
            ("slow".to_string(), false),
            ("slow::shown".to_string(), false),
            ("slow::end".to_string(), false),
        ]
    );
    // What the hint does (pytest --tuicast-update runs `tuicast test --update`) fixes the
    // failure it was given for, and not those it was withheld from.
    dir.tuicast(["test", "--update"]).run().fails_with(1);
    assert_eq!(
        fixes(&dir),
        [
            ("hi::greeted::bye".to_string(), false),
            // (The recording that timed out is a test of its own; no update fixes it.)
            ("slow".to_string(), false),
            ("slow::shown".to_string(), false),
            ("slow::end".to_string(), false),
        ]
    );
}

/// A pytest test of the Textual app of `tests/apps/textualapp`, written with the wheel's
/// Python API (`tuicast.Session`, `tuicast.assert_screen`), run by pytest in a fresh
/// virtualenv: it types into the form and its screen golden passes; a changed app fails with
/// the diff and a `.new`, and the failing test's report carries the screen (the text as a
/// section, the PNG in its junit properties); `tuicast accept` makes it pass; a session left
/// by an exception is stopped (the daemon lists none afterwards); `paste`, `wait_changed`,
/// `wait_idle`, `inspect`, `wait_ref`, `snapshot` (PNG, JSON), `save`, `env`, `cwd` and bad
/// input (a `SessionError` with exit 2) each do what they say.
#[test]
fn a_pytest_test_drives_a_textual_app_through_the_python_api() {
    let Some((maturin, wheelhouse)) = tools() else {
        return;
    };
    let (dir, venv) = wheel_in_a_venv(&maturin, &wheelhouse, &["pytest", "textual"]);
    let project = dir.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let source = std::fs::read_to_string(root().join("tests/apps/textualapp/app.py")).unwrap();
    std::fs::write(project.join("app.py"), &source).unwrap();
    std::fs::write(project.join("tuicast.toml"), "").unwrap();
    std::fs::write(
        project.join("test_signup.py"),
        r#"import itertools
import json
import sys

import pytest

import tuicast


def test_sign_up():
    with tuicast.Session([sys.executable, "app.py"], size="60x12") as s:
        s.wait_text("Tab: next field")
        s.type("Ada")
        s.press("Tab")
        s.type("Paris")
        s.press("Enter")
        s.wait_text("Welcome, 'Ada' of 'Paris'!")
        assert "Welcome" in s.text()
        tuicast.assert_screen(s, "welcome")


def test_a_session_left_by_an_exception_is_stopped():
    with pytest.raises(tuicast.SessionError) as e:
        with tuicast.Session([sys.executable, "app.py"], size="60x12") as s:
            s.wait_text("no such text", timeout="300ms")
    assert e.value.exit == 1 and "timed out" in e.value.message
    assert tuicast.session.live_sessions() == []


def test_the_other_methods(tmp_path):
    with tuicast.Session([sys.executable, "app.py"], size="60x12") as s:
        first = s.wait_text("Tab: next field")
        s.paste("Grace")
        assert s.wait_changed(first["screen_hash"])["matched"]["wait"] == "changed"
        assert s.wait_idle("200ms")["matched"]["wait"] == "silent"
        assert "Grace" in s.text()
        outline = s.inspect()
        assert any(r["role"] == "box" for r in outline["refs"]), outline["refs"]
        assert s.wait_ref("@box")["matched"]["wait"] == "ref"
        assert s.snapshot(tmp_path / "form.png").read_bytes().startswith(b"\x89PNG")
        assert json.loads(s.snapshot(tmp_path / "form.json").read_text())["size"]["cols"] == 60
        saved = s.save(tmp_path / "signup")
        assert saved["steps"] >= 2
    assert "{ paste" in (tmp_path / "signup.toml").read_text()
    assert (tmp_path / "signup.cast").is_file()


def test_events_stream_what_changes_until_left():
    with tuicast.Session([sys.executable, "app.py"], size="60x12") as s:
        s.wait_text("Tab: next field")
        stream = s.events()
        first = next(stream)
        assert first["type"] == "screen" and first["full"], first
        s.type("Ada")
        typed = next(e for e in stream if e["type"] == "screen" and "Ada" in json.dumps(e))
        assert typed["seq"] > first["seq"], typed
        stream.close()
        # From an event on: what came after it, the typed name in it.
        later = s.events(since=first["seq"])
        assert any("Ada" in json.dumps(e) for e in itertools.islice(later, 20))
        later.close()
    with pytest.raises(tuicast.SessionError) as e:
        next(tuicast.Session("true").events())
    assert e.value.exit == 2, e.value.reply


def test_env_cwd_and_bad_input(tmp_path):
    (tmp_path / "here.txt").write_text("in the folder\n")
    with tuicast.Session("echo $GREETING; cat here.txt; sleep 30", env={"GREETING": "hi there"},
                         cwd=tmp_path) as s:
        s.wait_text("hi there")
        s.wait_text("in the folder")
    with pytest.raises(tuicast.SessionError) as e:
        tuicast.Session("true", size="0x0").start()
    assert e.value.exit == 2, e.value.reply
"#,
    )
    .unwrap();
    let runtime = dir.join("runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    let env = |cmd: &mut Command, update: &str| {
        cmd.current_dir(&project)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("TUICAST_SESSION_IDLE", "120s")
            .env("TUICAST_UPDATE", update)
            .env("NO_COLOR", "1")
            .env_remove("CI")
            .env_remove("VIRTUAL_ENV")
            .env_remove("TUICAST_BIN");
    };
    let pytest = |update: &str, what: &str, status: i32| {
        let mut cmd = Command::new(venv.join("bin/pytest"));
        cmd.args(["-p", "no:cacheprovider", "-rA", "--junitxml=junit.xml"]);
        env(&mut cmd, update);
        run(cmd, what, status)
    };
    let golden = project.join("snapshots/@screens/welcome.txt");
    let pending = project.join("snapshots/@screens/welcome.txt.new");

    // The golden written, then checked.
    pytest("always", "pytest writing the golden", 0);
    let text = std::fs::read_to_string(&golden).unwrap();
    assert!(text.contains("checkpoint: welcome\n"), "{text}");
    assert!(text.contains("Welcome, 'Ada' of 'Paris'!"), "{text}");
    assert!(text.contains("│ Sign up "), "{text}");
    let (out, told) = pytest("new", "pytest", 0);
    assert!(out.contains("5 passed"), "{told}");
    assert!(!pending.exists());

    // A changed app fails with the diff, writes the `.new`, and the report has the screen.
    std::fs::write(
        project.join("app.py"),
        source.replace("Label(\"Sign up\")", "Label(\"Register\")"),
    )
    .unwrap();
    let (out, told) = pytest("new", "pytest of a changed app", 1);
    for needed in [
        "screen golden mismatch: snapshots/@screens/welcome.txt",
        "first difference: row 2, column",
        "-     │ Sign up",
        "+     │ Register",
        "to accept: tuicast accept @screens/welcome.txt",
        "tuicast screen py",
        "1 failed, 4 passed",
    ] {
        assert!(out.contains(needed), "{needed:?}\n{told}");
    }
    assert!(pending.is_file(), "{told}");
    let junit = std::fs::read_to_string(project.join("junit.xml")).unwrap();
    let png = junit
        .split("name=\"tuicast_screen_png\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no tuicast_screen_png property:\n{junit}"));
    assert!(std::fs::read(png).unwrap().starts_with(b"\x89PNG"), "{png}");
    assert!(junit.contains("name=\"tuicast_screen\""), "{junit}");

    // `tuicast accept` (the wheel's binary) takes the change; then it passes.
    let mut accept = Command::new(venv.join("bin/tuicast"));
    accept.args(["accept", "@screens/welcome.txt"]);
    env(&mut accept, "new");
    run(accept, "tuicast accept", 0);
    assert!(!pending.exists());
    assert!(std::fs::read_to_string(&golden)
        .unwrap()
        .contains("│ Register "));
    let (out, told) = pytest("new", "pytest after accept", 0);
    assert!(out.contains("5 passed"), "{told}");

    // Every session was stopped, the one left by an exception too.
    let mut list = Command::new(venv.join("bin/tuicast"));
    list.args(["session", "list"]);
    env(&mut list, "new");
    let (listed, told) = run(list, "tuicast session list", 0);
    let listed: Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(listed["sessions"], serde_json::json!([]), "{told}");
}
