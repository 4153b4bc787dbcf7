//! Live regression of the user's own program (issue 10): scenarios that name the package's
//! binary, paths that mean the same from any folder, checkpoints on a settled screen.

use crate::util::{record_scenario, screen_at, Dir, Tuicast};

#[test]
fn bin_names_the_packages_binary_and_says_where_it_looked_when_missing() {
    let dir = Dir::new();
    // This test runs under cargo, which tells its processes where the crate's binary is.
    dir.write(
        "casts/version.toml",
        "bin = \"tuicast\"\nargs = [\"--version\"]\nsize = \"40x3\"\nsteps = [{ wait = \"tuicast\" }, { exit = 0 }]\n",
    );
    dir.tuicast(["record", "casts/version.toml"])
        .run()
        .success();
    let out = dir
        .tuicast(["replay", "casts/version.cast"])
        .run()
        .success();
    assert!(out.stdout().starts_with("tuicast 0."), "{out}");

    dir.write(
        "casts/missing.toml",
        "bin = \"no-such-app\"\nsteps = [{ exit = 0 }]\n",
    );
    let out = dir
        .tuicast(["record", "casts/missing.toml"])
        .run()
        .fails_with(2);
    let err = out.stderr();
    assert!(
        err.contains("bin = \"no-such-app\": no such binary; tried:"),
        "{out}"
    );
    assert!(err.contains("CARGO_BIN_EXE_no-such-app (not set)"), "{out}");
    assert!(err.contains("a Cargo.toml in"), "{out}");
}

#[test]
fn relative_commands_and_cwd_resolve_against_the_scenario_from_any_folder() {
    let dir = Dir::new();
    dir.write("bin/hello", "#!/bin/sh\necho \"hello from $(pwd)\"\n");
    std::fs::set_permissions(
        dir.join("bin/hello"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("work")).unwrap();
    dir.write(
        "casts/hello.toml",
        "command = [\"../bin/hello\"]\ncwd = \"../work\"\nsize = \"80x3\"\nsteps = [{ wait = \"hello\" }, { exit = 0 }]\n",
    );
    // From the project folder, from inside casts/, and from somewhere else entirely.
    let elsewhere = Dir::new();
    for (folder, scenario) in [
        (dir.path().to_path_buf(), "casts/hello.toml".to_string()),
        (dir.join("casts"), "hello.toml".to_string()),
        (
            elsewhere.path().to_path_buf(),
            dir.join("casts/hello.toml").display().to_string(),
        ),
    ] {
        Tuicast::new()
            .args(["record", &scenario])
            .current_dir(&folder)
            .clean_update_env()
            .run()
            .success();
        let out = dir.tuicast(["replay", "casts/hello.cast"]).run().success();
        // The program ran in a fresh copy of `work` (src/record/workdir.rs), named by the
        // relative path from the original folder (`../bin/hello` is not in the copy).
        let line = out
            .stdout()
            .lines()
            .find(|l| l.starts_with("hello from "))
            .unwrap_or_else(|| panic!("from {}: {out}", folder.display()));
        let ran_in = line.trim_end().trim_start_matches("hello from ");
        assert!(
            ran_in.ends_with("/work"),
            "from {}: {out}",
            folder.display()
        );
        assert!(
            ran_in.contains("/tuicast-cwd-"),
            "from {}: {out}",
            folder.display()
        );
    }
}

/// The cast's events as `(time, code, data)`, times absolute, read by tuicast's own reader.
fn events(cast: &std::path::Path) -> Vec<(f64, String, String)> {
    use tuicast::cast::EventData;
    tuicast::cast::open(cast)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let data = match &e.data {
                EventData::Output(d) | EventData::Input(d) | EventData::Marker(d) => d.clone(),
                other => format!("{other:?}"),
            };
            (e.time, e.data.code().to_string(), data)
        })
        .collect()
}

#[test]
fn a_frame_drawn_in_several_writes_is_checkpointed_whole() {
    let dir = Dir::new();
    // The way ratatui's first frame arrives: the top, then (10 ms later) the middle, then the
    // status bar, then nothing until a key.
    let (out, cast) = record_scenario(
        &dir,
        "frame",
        r#"shell = '''
printf '\e[?25l\e[1;1H+- Todos -+'; sleep 0.01
printf '\e[2;1H| one    |\e[3;1H| two    |'; sleep 0.01
printf '\e[6;1H\e[7m 2 todos  q quit \e[0m'
read -rsn1 key
'''
size = "30x6"
settle = "200ms"   # far above the 10 ms pauses, even with every test running at once
steps = [
  { wait = "Todos" },
  { snapshot = "first" },
  { press = "q" },
  { exit = 0 },
]
"#,
        &[],
    );
    out.success();
    let first = screen_at(&cast, "first");
    assert_eq!(
        first, "+- Todos -+\n| one    |\n| two    |\n\n\n 2 todos  q quit\n",
        "the whole frame, status bar included"
    );
    // The marker comes after the output that made the settled screen, at least a settle
    // period after it.
    let ev = events(&cast);
    let marker = ev.iter().position(|e| e.1 == "m").unwrap();
    let last_output = ev[..marker].iter().rposition(|e| e.1 == "o").unwrap();
    assert!(ev[last_output].2.contains("q quit"), "{ev:?}");
    assert!(ev[marker].0 - ev[last_output].0 >= 0.199, "{ev:?}");
}

#[test]
fn a_key_is_answered_before_the_checkpoint_without_a_wait() {
    let dir = Dir::new();
    // The answer takes 10 ms and comes in two writes; `press` then `snapshot`, no wait.
    let (out, cast) = record_scenario(
        &dir,
        "key",
        r#"shell = '''
printf 'press a key'
read -rsn1 key; sleep 0.01; printf '\r\e[Kgot '; sleep 0.01; printf '%s' "$key"
read -rsn1 key
'''
size = "20x3"
settle = "200ms"
steps = [
  { wait = "press" },
  { press = "j" },
  { snapshot = "answered" },
  { press = "q" },
  { exit = 0 },
]
"#,
        &[],
    );
    out.success();
    assert_eq!(screen_at(&cast, "answered"), "got j\n\n\n");
}

#[test]
fn output_that_changes_nothing_lets_the_screen_settle_and_idle() {
    let dir = Dir::new();
    // A TUI's tick: every 50 ms pen resets, a cursor hide (the cursor is hidden already), and
    // a move of the hidden cursor. The screen never changes, so idle and snapshots fire.
    let (out, cast) = record_scenario(
        &dir,
        "tick",
        r#"shell = '''
printf '\e[?25l\e[2;3Hready'
while true; do printf '\e[39m\e[49m\e[59m\e[0m\e[?25l\e[%d;1H' $((RANDOM % 3 + 1)); sleep 0.05; done
'''
size = "20x3"
timeout = "3s"
steps = [
  { wait = "ready" },
  { wait = { idle = "300ms" } },
  { snapshot = "quiet" },
]
"#,
        &[],
    );
    out.success();
    assert_eq!(screen_at(&cast, "quiet"), "\n  ready\n\n");
    // The program kept writing all along.
    let ev = events(&cast);
    let outputs = ev.iter().filter(|e| e.1 == "o").count();
    assert!(outputs >= 3, "{ev:?}");
}

/// A program that draws on a throttle timer, as ink does, may draw the key before just as the
/// next key arrives, and then take longer than the settle period for the next one while it waits
/// on short timers (never seen working, never seen waiting for input). The draw of the key before
/// comes after the next key was sent, but before the program read it: it is no answer, and the
/// checkpoint waits for the draw of what was typed. (Under load, ink's sign-up form once showed
/// `Pari_` at a checkpoint after typing `Paris`: tests/it/pacing.rs.)
#[test]
fn a_draw_of_the_key_before_is_no_answer_to_the_next_key() {
    if !crate::refs::need("python3") {
        return;
    }
    let dir = Dir::new();
    dir.write(
        "throttle.py",
        r#"import os, select, time, tty
tty.setraw(0)
typed, due, last = "", None, None
os.write(1, b"\x1b[2J\x1b[Hready")
while True:
    now = time.monotonic()
    if due is not None and now >= due:
        # The throttled draw: what has been read so far.
        os.write(1, ("\x1b[H\x1b[2Ktext: " + typed).encode())
        due = None
    wait = None if due is None else max(0.0, min(0.03, due - time.monotonic()))
    if not select.select([0], [], [], wait)[0]:
        continue
    key = os.read(0, 1).decode()
    if key == "q":
        break
    first = not typed
    typed += key
    if first:
        # The first key: its draw is due soon, and the program is slow for a moment (as
        # a starved one is): the next key arrives meanwhile and waits in the terminal.
        due = time.monotonic() + 0.01
        time.sleep(0.02)
    else:
        # The next key: drawn only after three short waits, 90 ms in all.
        due = time.monotonic() + 0.09
"#,
    );
    let (out, cast) = record_scenario(
        &dir,
        "throttle",
        r#"command = ["python3", "throttle.py"]
size = "20x2"
steps = [
  { wait = "ready" },
  { type = "ab" },
  { snapshot = "typed" },
  { press = "q" },
  { exit = 0 },
]
"#,
        &[],
    );
    out.success();
    assert_eq!(screen_at(&cast, "typed"), "text: ab\n\n");
}

#[test]
fn a_checkpoint_never_falls_inside_a_synchronized_update() {
    let dir = Dir::new();
    // Begin a synchronized update, draw the top, pause 300 ms (longer than the settle period
    // of 50 ms), draw the bottom and end the update.
    let (out, cast) = record_scenario(
        &dir,
        "sync",
        r#"shell = '''
printf '\e[?2026h\e[1;1Htop'; sleep 0.3
printf '\e[3;1Hbottom\e[?2026l'
read -rsn1 key
'''
size = "20x3"
settle = "50ms"
steps = [
  { wait = "top" },
  { snapshot = "frame" },
  { press = "q" },
  { exit = 0 },
]
"#,
        &[],
    );
    out.success();
    assert_eq!(screen_at(&cast, "frame"), "top\n\nbottom\n");
}

#[test]
fn settle_0ms_marks_at_once_and_a_step_may_choose_its_own_period() {
    let dir = Dir::new();
    let (out, cast) = record_scenario(
        &dir,
        "now",
        r#"shell = '''
printf 'a'; sleep 0.3; printf 'b'; sleep 0.3; printf 'c'
read -rsn1 key
'''
size = "20x3"
steps = [
  { wait = "a" },
  { snapshot = "now", settle = "0ms" },
  { wait = "b" },
  { snapshot = "late", settle = "500ms" },
  { press = "q" },
  { exit = 0 },
]
"#,
        &[],
    );
    out.success();
    assert_eq!(screen_at(&cast, "now"), "a\n\n\n");
    assert_eq!(screen_at(&cast, "late"), "abc\n\n\n");
}

#[test]
fn the_last_checkpoint_of_a_program_still_running_is_settled_too() {
    let dir = Dir::new();
    // No exit step: the program is still running when the steps end.
    let (out, cast) = record_scenario(
        &dir,
        "running",
        r#"shell = '''
printf 'one'; sleep 0.01; printf ' two'; sleep 0.01; printf ' three'; sleep 30
'''
size = "20x3"
settle = "200ms"
steps = [{ wait = "one" }]
"#,
        &[],
    );
    out.success();
    assert_eq!(screen_at(&cast, "end"), "one two three\n\n\n");
}

#[test]
fn a_screen_that_never_settles_fails_with_the_cells_that_kept_changing() {
    let dir = Dir::new();
    // A spinner at row 3, column 5 (1-based) that never stops, changing every ~20 ms: far
    // inside this scenario's settle period of 300 ms, even on a loaded machine.
    let (out, _) = record_scenario(
        &dir,
        "spinner",
        r#"shell = '''
printf 'working'
i=0; while true; do printf '\e[3;5H%d' $((i++ % 10)); sleep 0.02; done
'''
size = "20x4"
timeout = "1s"
settle = "300ms"
steps = [
  { wait = "working" },
  { snapshot = "done" },
]
"#,
        &[],
    );
    let out = out.fails_with(1);
    let err = out.stderr();
    assert!(
        err.contains("spinner.toml:10:3: "),
        "the step's place: {out}"
    );
    assert!(
        err.contains("the screen never stayed the same for 300 ms"),
        "{out}"
    );
    assert!(
        err.contains("cells that kept changing (row:column, 1-based): 3:5\n"),
        "{out}"
    );
    assert!(
        err.contains("[check] mask = [{ rows = 3, cols = \"5..=5\" }])"),
        "{out}"
    );
    assert!(err.contains("or wait for something specific"), "{out}");
    assert!(err.contains("working"), "the screen: {out}");
}

/// A live recording runs its program in a fresh copy of its working folder (issue 40 point 4):
/// a scenario that appends to a tracked file sees the same file on every run, the checkout
/// never changes, build output the repository ignores is not copied, and the copy is gone
/// after the run. `in_place = true` runs in the folder itself; a link out of the folder is an
/// error naming it.
#[test]
fn live_runs_leave_the_checkout_as_it_was() {
    let dir = Dir::new();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    git(&["init", "-q"]);
    dir.write("notes.txt", "first\n");
    dir.write(".gitignore", "target/\n");
    dir.write("target/build.log", "built\n");
    let scenario = r#"shell = '''echo more >> notes.txt && echo "lines: $(wc -l < notes.txt)" && (test -e target/build.log && echo build || echo no build)'''
cwd = ".."
size = "40x5"
steps = [{ wait = "build" }, { checkpoint = "after" }, { exit = 0 }]
"#;
    dir.write("casts/notes.toml", scenario);
    git(&["add", "."]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@e",
        "commit",
        "-qm",
        "start",
    ]);
    assert_eq!(git(&["status", "--porcelain"]), "");

    dir.tuicast(["test", "--live", "--update"]).run().success();
    let golden = std::fs::read_to_string(dir.join("snapshots/notes/after.txt")).unwrap();
    assert!(golden.contains("lines: 2\nno build\n"), "{golden}");
    for _ in 0..2 {
        dir.tuicast(["test", "--live"])
            .env("TUICAST_UPDATE", "no")
            .run()
            .success();
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "first\n"
    );
    // Nothing but what `--update` wrote: the cast (new) and its goldens.
    let changed = git(&["status", "--porcelain"]);
    assert_eq!(changed, "?? casts/notes.cast\n?? snapshots/\n", "{changed}");
    let ours = |e: &std::fs::DirEntry| {
        e.file_name().to_string_lossy().starts_with("tuicast-cwd-")
            && std::fs::read_dir(e.path())
                .into_iter()
                .flatten()
                .flatten()
                .any(|w| w.path().join("casts/notes.toml").exists())
    };
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(ours)
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "copies left behind: {left:?}");

    // Opted out: the program runs in the folder itself, sees its build output, and changes
    // the file.
    dir.write("casts/notes.toml", format!("in_place = true\n{scenario}"));
    let out = dir
        .tuicast(["test", "--live"])
        .env("TUICAST_UPDATE", "no")
        .run()
        .fails_with(1);
    assert!(out.stdout().contains("\n-no build\n+build\n"), "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "first\nmore\n"
    );

    // A link out of the working folder: the program could write through it.
    dir.write("casts/notes.toml", scenario);
    std::os::unix::fs::symlink("/etc/hostname", dir.join("leak")).unwrap();
    let out = dir
        .tuicast(["record", "casts/notes.toml"])
        .run()
        .fails_with(2);
    assert!(
        out.stderr()
            .contains("leak is a link out of it, to /etc/hostname"),
        "{out}"
    );
}
