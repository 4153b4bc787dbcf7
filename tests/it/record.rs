//! The recorder with real programs in real PTYs: scenarios, waits, secrets, terminal queries,
//! resizes, exits, timeouts, process clean-up, and casts that asciinema accepts.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{have, record_scenario, screen_at, Dir, Run, Tuicast, BIN};

/// Every cast tuicast writes must convert cleanly with asciinema 3 (when it is installed;
/// `.ci/run` installs it).
fn asciinema_accepts(cast: &Path) {
    if !have("asciinema") {
        assert!(
            std::env::var_os("CI").is_none(),
            "asciinema is required under CI"
        );
        return;
    }
    let txt = cast.with_extension("txt");
    let out = Command::new("asciinema")
        .arg("convert")
        .arg("-f")
        .arg("txt")
        .arg(cast)
        .arg(&txt)
        .arg("--overwrite")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "asciinema convert failed on {}: {}",
        cast.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn events(cast: &Path) -> Vec<serde_json::Value> {
    fs::read_to_string(cast)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_prompt_is_answered_and_the_exit_status_recorded() {
    let dir = Dir::new();
    let (out, cast) = record_scenario(
        &dir,
        "yn",
        r#"shell = "read -p 'Delete everything? [y/N] ' a; echo \"answer: $a\"; exit 3"
size = "50x6"
steps = [
  { wait = "[y/N]" },
  { snapshot = "asked" },
  { press = ["n", "Enter"] },
  { wait = "answer:" },
  { exit = 3 },
]
"#,
        &[],
    );
    let out = out.success();
    assert!(out.stderr().contains("exit status 3"), "{out}");
    assert_eq!(
        screen_at(&cast, "asked"),
        "Delete everything? [y/N]\n\n\n\n\n\n"
    );
    assert!(screen_at(&cast, "end").starts_with("Delete everything? [y/N] n\nanswer: n\n"));
    let ev = events(&cast);
    assert_eq!(ev.last().unwrap()[1], "x");
    assert_eq!(ev.last().unwrap()[2], "3");
    assert!(ev.iter().any(|e| e[1] == "i" && e[2] == "n"));
    assert!(ev.iter().any(|e| e[1] == "m" && e[2] == "asked"));
    let header: serde_json::Value =
        serde_json::from_str(fs::read_to_string(&cast).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(header["term"]["cols"], 50);
    assert!(!dir.path().join("yn.cast.partial").exists());
    asciinema_accepts(&cast);
}

#[test]
fn vim_edits_and_saves_a_file() {
    if !have("vim") {
        assert!(std::env::var_os("CI").is_none(), "vim is required under CI");
        return;
    }
    let dir = Dir::new();
    fs::write(dir.path().join("notes.txt"), "first line\n").unwrap();
    let scenario = r#"command = ["vim", "-u", "NONE", "-N", "-i", "NONE", "notes.txt"]
steps = [
  { wait = "first line" },
  { press = ["G", "o"] },
  { wait = "-- INSERT --" },
  { type = "added by tuicast" },
  { wait = "added by tuicast" },
  { press = "Esc" },
  { wait = { gone = "-- INSERT --" } },
  { snapshot = "edited" },
  { press = [":", "w", "q", "Enter"] },
  { exit = 0 },
]
"#;
    let (out, cast) = record_scenario(&dir, "vim", scenario, &[]);
    out.success();
    // vim saved into a fresh copy of the folder: the checkout's file is as it was.
    assert_eq!(
        fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "first line\n"
    );
    // In the folder itself (`in_place = true`), the file is the one vim saved.
    let in_place = format!("in_place = true\n{scenario}");
    record_scenario(&dir, "vim-in-place", &in_place, &[])
        .0
        .success();
    assert_eq!(
        fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "first line\nadded by tuicast\n"
    );
    let screen = screen_at(&cast, "edited");
    assert!(
        screen.starts_with("first line\nadded by tuicast\n~"),
        "{screen}"
    );
    asciinema_accepts(&cast);
}

#[test]
fn secrets_never_reach_the_cast() {
    let dir = Dir::new();
    let secret = "s3cr3t-Hunter2-ÿ";
    let (out, cast) = record_scenario(
        &dir,
        "pw",
        r#"shell = "read -rs -p 'Password: ' pw; echo; echo \"you typed: $pw\"; echo \"length ${#pw}\""
redact = ["tok_[a-z0-9]+"]
steps = [
  { wait = "Password:" },
  { wait = { echo = false } },
  { secret = { env = "TUICAST_TEST_PASSWORD" } },
  { press = "Enter" },
  { wait = "length" },
  { exit = 0 },
]
"#,
        &[("TUICAST_TEST_PASSWORD", secret)],
    );
    out.success();
    let raw = fs::read(&cast).unwrap();
    let body = String::from_utf8_lossy(&raw);
    assert!(
        !body.contains("s3cr3t"),
        "the secret leaked into the cast:\n{body}"
    );
    assert!(!body.contains("Hunter2"));
    let screen = screen_at(&cast, "end");
    assert!(screen.contains("you typed: ****************\n"), "{screen}");
    assert!(screen.contains("length 16"), "{screen}");
    assert!(events(&cast)
        .iter()
        .any(|e| e[1] == "i" && e[2] == "<secret TUICAST_TEST_PASSWORD>"));

    // A missing secret variable is bad input, caught before anything runs.
    let (out, cast) = record_scenario(
        &dir,
        "missing",
        "shell = \"true\"\nsteps = [{ secret = { env = \"NOPE_NOT_SET\" } }]\n",
        &[],
    );
    let out = out.fails_with(2);
    assert!(
        out.stderr().contains(
            "missing.toml:2:10: the secret's environment variable NOPE_NOT_SET is not set"
        ),
        "{out}"
    );
    assert!(!cast.exists());
}

#[test]
fn terminal_queries_are_answered_and_recorded() {
    let dir = Dir::new();
    let (out, cast) = record_scenario(
        &dir,
        "queries",
        r#"shell = '''
stty -echo -icanon
printf 'abc\e[6n'; IFS= read -rs -d R cpr; echo "cpr=${cpr#*[}"
printf '\e[c'; IFS= read -rs -d c da; echo "da=${da#*[}"
printf '\e]11;?\a'; IFS= read -rs -d $'\a' bg; echo "bg=${bg#*;}"
'''
timeout = "5s"
steps = [{ wait = "bg=" }, { exit = 0 }]
"#,
        &[],
    );
    out.success();
    let screen = screen_at(&cast, "end");
    assert!(screen.contains("abccpr=1;4\n"), "{screen}");
    assert!(
        screen.contains("da=?65;1;2;6;9;15;16;17;18;21;22;28\n"),
        "{screen}"
    );
    assert!(screen.contains("bg=rgb:1212/1313/1414\n"), "{screen}");
    let answers: Vec<String> = events(&cast)
        .iter()
        .filter(|e| e[1] == "i")
        .map(|e| e[2].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        answers,
        [
            "\x1b[1;4R",
            "\x1b[?65;1;2;6;9;15;16;17;18;21;22;28c",
            "\x1b]11;rgb:1212/1313/1414\x07"
        ]
    );
    asciinema_accepts(&cast);
}

/// Echo off while a line is read is a password prompt; a full-screen program in raw mode
/// (no echo either) is not one, and the report does not say it is.
#[test]
fn only_a_line_read_without_echo_is_reported_as_a_password_prompt() {
    let dir = Dir::new();
    let run = |name: &str, shell: &str| {
        let (out, _) = record_scenario(
            &dir,
            name,
            &format!("shell = \"{shell}\"\ntimeout = \"500ms\"\nsteps = [{{ wait = \"Done\" }}]\n"),
            &[],
        );
        out.fails_with(1).stderr().to_string()
    };
    let password = run("password", "read -s -p 'Password: ' a");
    assert!(
        password.contains("echo is off while the program reads a line (a password prompt)"),
        "{password}"
    );
    let raw = run("raw", "stty raw -echo; printf 'full screen'; read -n 1 a");
    assert!(raw.contains("  1 | full screen"), "{raw}");
    assert!(
        !raw.contains("password"),
        "raw mode is no password prompt: {raw}"
    );
}

#[test]
fn a_timed_out_wait_says_the_program_waits_for_input() {
    let dir = Dir::new();
    let (out, cast) = record_scenario(
        &dir,
        "stuck",
        "shell = \"read -p 'Overwrite file? [y/N] ' a\"\ntimeout = \"1s\"\nsteps = [{ wait = \"Done\" }]\n",
        &[],
    );
    let out = out.fails_with(1);
    let err = out.stderr();
    assert!(
        err.contains("timed out after 1.0s waiting for text \"Done\""),
        "{err}"
    );
    assert!(err.contains("looks like it is waiting for input"), "{err}");
    assert!(
        err.contains("the last line ends like a prompt: \"Overwrite file? [y/N]\""),
        "{err}"
    );
    assert!(err.contains("no output for"), "{err}");
    assert!(err.contains("  1 | Overwrite file? [y/N]"), "{err}");
    assert!(err.contains("stuck.cast.partial (a valid cast)"), "{err}");
    assert!(
        !cast.exists(),
        "a failed recording does not replace the cast"
    );
    let partial = dir.path().join("stuck.cast.partial");
    Tuicast::new().arg("replay").arg(&partial).run().success();
}

#[test]
fn a_wait_that_cannot_succeed_fails_early_with_fail_fast() {
    // A UI text changed ("Done" became "Finished"): the program waits for input and its
    // screen stays as it is. With `fail_fast` the wait fails after the bound, not the 10 s
    // timeout, with the timeout's message and why it ended early.
    let dir = Dir::new();
    let started = std::time::Instant::now();
    let (out, _) = record_scenario(
        &dir,
        "renamed",
        "shell = \"echo Finished; read a\"\nfail_fast = \"500ms\"\nsteps = [{ wait = \"Done\" }]\n",
        &[],
    );
    let took = started.elapsed();
    let out = out.fails_with(1);
    let err = out.stderr();
    assert!(err.contains("renamed.toml:3:"), "{err}");
    assert!(err.contains("s waiting for text \"Done\""), "{err}");
    assert!(
        err.contains("failed early (fail_fast = \"500ms\"): the program waits for input"),
        "{err}"
    );
    assert!(err.contains("  1 | Finished"), "{err}");
    assert!(
        took < std::time::Duration::from_secs(5),
        "{took:?}: not the 10 s timeout"
    );
    // A program that answers after a pause shorter than the bound still passes; without
    // `fail_fast` nothing changes.
    for extra in ["fail_fast = true\n", ""] {
        let (out, _) = record_scenario(
            &dir,
            "slow",
            &format!(
                "shell = \"echo working; sleep 0.3; echo Done; read a\"\n{extra}\
                 steps = [{{ wait = \"Done\" }}, {{ checkpoint = \"done\" }}]\n"
            ),
            &[],
        );
        out.success();
    }
    // Bad values are errors at their place.
    for (value, message) in [
        ("\"0s\"", "fail_fast: \"0s\" is not a duration above zero"),
        (
            "\"soon\"",
            "fail_fast: \"soon\" is not a duration above zero",
        ),
        ("3", "fail_fast: 3 is not a duration above zero"),
    ] {
        let (out, _) = record_scenario(
            &dir,
            "bad",
            &format!("shell = \"true\"\nfail_fast = {value}\n"),
            &[],
        );
        let out = out.fails_with(2);
        assert!(out.stderr().contains("bad.toml:2:"), "{}", out.stderr());
        assert!(out.stderr().contains(message), "{}", out.stderr());
    }
}

#[test]
fn no_process_is_left_behind() {
    let dir = Dir::new();
    let marker = format!("tuicast-bg-{}", std::process::id());
    let (out, _cast) = record_scenario(
        &dir,
        "bg",
        &format!(
            "shell = \"(exec -a {marker} sleep 300) & disown; echo started; sleep 0.2\"\nsteps = [{{ wait = \"started\" }}, {{ exit = 0 }}]\n"
        ),
        &[],
    );
    out.success();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let ps = Command::new("ps").args(["-eo", "args"]).output().unwrap();
    let left: Vec<String> = String::from_utf8_lossy(&ps.stdout)
        .lines()
        .filter(|l| l.contains(&marker))
        .map(String::from)
        .collect();
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

#[test]
fn multibyte_characters_written_one_byte_at_a_time_survive() {
    let dir = Dir::new();
    let (out, cast) = record_scenario(
        &dir,
        "bytes",
        r#"shell = "for b in 63 61 66 c3 a9 20 e6 97 a5 e6 9c ac 20 f0 9f 98 80 0a; do printf \"\\x$b\"; sleep 0.005; done"
steps = [{ wait = "😀" }, { exit = 0 }]
"#,
        &[],
    );
    out.success();
    assert!(screen_at(&cast, "end").starts_with("café 日本 😀\n"));
    let body = fs::read_to_string(&cast).unwrap();
    assert!(
        !body.contains("\\ufffd") && !body.contains('\u{fffd}'),
        "{body}"
    );
}

#[test]
fn a_resize_reaches_the_program_and_replays() {
    let dir = Dir::new();
    let (out, cast) = record_scenario(
        &dir,
        "resize",
        r#"shell = "trap 'echo \"now $(tput cols)x$(tput lines)\"' WINCH; echo ready; while :; do sleep 0.05; done"
size = "40x8"
steps = [
  { wait = "ready" },
  { snapshot = "small" },
  { resize = "60x10" },
  { wait = "now 60x10" },
  { snapshot = "big" },
]
"#,
        &[],
    );
    out.success();
    let ev = events(&cast);
    assert!(ev.iter().any(|e| e[1] == "r" && e[2] == "60x10"));
    assert_eq!(screen_at(&cast, "small").lines().count(), 8);
    let big = screen_at(&cast, "big");
    assert_eq!(big.lines().count(), 10);
    assert!(big.contains("now 60x10"), "{big}");
    // The program was still running at the end: it is ended and its status recorded.
    assert_eq!(ev.last().unwrap()[1], "x");
    asciinema_accepts(&cast);
}

#[test]
fn scenario_mistakes_are_bad_input_with_their_place() {
    let dir = Dir::new();
    let cases = [
        (
            "key",
            "shell = \"true\"\nsteps = [\n  { press = \"Hyper-x\" },\n]\n",
            "key.toml:3:3: unknown key",
        ),
        (
            "two",
            "shell = \"true\"\nsteps = [{ type = \"a\", press = \"b\" }]\n",
            "two.toml:2:10: a step takes exactly one",
        ),
        ("field", "shell = \"true\"\nstep = []\n", "field.toml:2:1"),
        (
            "size",
            "shell = \"true\"\nsize = \"80by24\"\n",
            "size: a size must be COLSxROWS",
        ),
        (
            "cmd",
            "command = [\"no-such-program-xyz\"]\n",
            "command not found: no-such-program-xyz",
        ),
        (
            "dur",
            "shell = \"true\"\nsteps = [{ sleep = \"5 parsecs\" }]\n",
            "unknown unit",
        ),
        (
            "region",
            "shell = \"true\"\n[regions]\nmenu = { regex = \"(\" }\n",
            "regions.menu: annotation: regex",
        ),
        (
            "regionkey",
            "shell = \"true\"\n[regions]\nmenu = { rows = \"2\", colour = \"#ff0000\", size = 3 }\n",
            "regionkey.toml:3:",
        ),
    ];
    for (name, toml, expected) in cases {
        let (out, cast) = record_scenario(&dir, name, toml, &[]);
        let out = out.fails_with(2);
        let err = out.stderr();
        assert!(
            err.contains(expected),
            "{name}: expected {expected:?} in:\n{err}"
        );
        assert!(!err.contains("panicked"));
        assert!(!cast.exists());
    }
}

#[test]
fn several_scenarios_record_in_parallel_and_are_each_reported() {
    let dir = Dir::new();
    // Each program marks that it started, then waits (at most 10 s) until all three have: one
    // recording after another, the first would see only itself. (A barrier, not a timed
    // assertion: a loaded machine makes it slower, never wrong.)
    let marks = dir.path().join("started");
    fs::create_dir(&marks).unwrap();
    let m = marks.display();
    for i in 0..3 {
        let shell = format!(
            "touch {m}/{i}; n=0; while [ $(ls {m} | wc -l) -lt 3 ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n+1)); done; echo seen $(ls {m} | wc -l); echo job {i}"
        );
        fs::write(
            dir.path().join(format!("p{i}.toml")),
            format!("shell = {shell:?}\nsteps = [{{ wait = \"job {i}\", timeout = \"30s\" }}, {{ exit = 0 }}]\n"),
        )
        .unwrap();
    }
    let out = Tuicast::new()
        .arg("record")
        .args((0..3).map(|i| dir.path().join(format!("p{i}.toml"))))
        .run()
        .success();
    for i in 0..3 {
        assert!(
            screen_at(&dir.path().join(format!("p{i}.cast")), "end").contains("seen 3"),
            "not parallel: recording {i} ran while not all three had started"
        );
    }
    for i in 0..3 {
        assert!(
            out.stderr().contains(&format!(
                "recorded {}",
                dir.path().join(format!("p{i}.cast")).display()
            )),
            "{out}"
        );
        assert!(
            screen_at(&dir.path().join(format!("p{i}.cast")), "end").contains(&format!("job {i}"))
        );
    }
}

#[test]
fn an_interrupted_recording_leaves_a_valid_cast() {
    let dir = Dir::new();
    let path = dir.path().join("long.toml");
    fs::write(&path, "shell = \"for i in $(seq 1 1000); do echo line $i; sleep 0.01; done\"\nsteps = [{ exit = 0, timeout = \"60s\" }]\n").unwrap();
    let child = Tuicast::new().arg("record").arg(&path).spawn();
    std::thread::sleep(std::time::Duration::from_millis(600));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.pid()),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    child.wait();
    let partial = dir.path().join("long.cast.partial");
    let out = Tuicast::new().arg("replay").arg(&partial).run().success();
    assert!(out.stdout().contains("line "), "{out}");
    assert!(!dir.path().join("long.cast").exists());
}

#[test]
fn the_rust_session_api_records_in_code() {
    use tuicast::record::{Session, SessionOptions};
    let mut opts = SessionOptions::new(["bash", "--norc", "--noprofile"]);
    opts.env.insert("PS1".into(), "$ ".into());
    opts.size = tuicast::size::Size { cols: 40, rows: 5 };
    let mut s = Session::spawn_in_memory(opts).unwrap();
    s.wait_text("$").unwrap();
    s.type_text("echo $((6*7))").unwrap();
    s.press("Enter").unwrap();
    s.wait_text("42").unwrap();
    s.snapshot("answered").unwrap();
    s.type_text("exit 5").unwrap();
    s.press("Enter").unwrap();
    assert_eq!(s.wait_exit(None).unwrap(), 5);
    let done = s.finish().unwrap();
    assert_eq!(done.status, 5);
    let cast = done.cast.unwrap();
    let reader = tuicast::cast::CastReader::new(cast.as_bytes()).unwrap();
    let cps = tuicast::replay::checkpoints(reader, tuicast::term::EngineKind::Native).unwrap();
    assert_eq!(cps[0].name, "answered");
    assert_eq!(cps[0].screen.row_text(1), "42");
}

#[test]
fn live_mode_records_again_and_keeps_a_differing_cast_for_review() {
    let dir = Dir::new();
    let casts = dir.join("casts");
    dir.write("casts/name.txt", "world\n");
    dir.write(
        "casts/greet.toml",
        "shell = \"echo \\\"hello $(cat name.txt)\\\"\"\nsize = \"30x3\"\nsteps = [{ wait = \"hello\" }, { snapshot = \"greeted\" }, { exit = 0 }]\n",
    );
    let run = |args: &[&str], env: &[(&str, &str)]| dir.tuicast(args).envs(env).run();
    run(&["record", "casts/greet.toml"], &[]).success();
    run(&["test", "--update"], &[]).success();
    run(&["test", "--live"], &[]).success();
    assert!(
        !casts.join("greet.cast.new").exists(),
        "a matching live recording is not kept"
    );

    // The program's behaviour changes: live mode notices, the committed cast does not.
    fs::write(casts.join("name.txt"), "there\n").unwrap();
    let out = run(&["test"], &[]);
    assert!(
        out.succeeded(),
        "plain mode replays the committed cast:\n{out}"
    );
    run(&["test"], &[("TUICAST_LIVE", "1"), ("CI", "true")]).fails_with(1);
    assert!(!casts.join("greet.cast.new").exists(), "CI writes nothing");
    let out = run(&["test", "--live"], &[]).fails_with(1);
    let t = out.stdout();
    assert!(t.contains("-hello world\n+hello there"), "{t}");
    assert!(casts.join("greet.cast.new").exists());
    let pending = run(&["pending"], &[]).stdout().to_string();
    assert!(pending.contains("casts/greet.cast"), "{pending}");

    run(&["accept"], &[]).success();
    assert!(!casts.join("greet.cast.new").exists());
    assert!(screen_at(&casts.join("greet.cast"), "greeted").starts_with("hello there"));
    run(&["test"], &[]).success();
    run(&["test", "--live"], &[]).success();
}

/// A person recording by hand: `tuicast record -o CAST -- bash` (prompt `inner$ `), then
/// `after`, in a terminal that is itself a PTY of tuicast's own recorder (which answers queries
/// too); returned at bash's first prompt.
fn recording_by_hand(cast: &std::path::Path, after: &str) -> tuicast::record::Session {
    use tuicast::record::{Session, SessionOptions};
    let script = format!(
        "PS1='inner$ ' {} record -o {} -- bash --norc --noprofile; {after}",
        BIN,
        cast.display()
    );
    let mut opts = SessionOptions::new(["bash", "-c", script.as_str()]);
    opts.size = tuicast::size::Size { cols: 70, rows: 12 };
    let mut outer = Session::spawn_in_memory(opts).unwrap();
    outer.wait_text("inner$").unwrap();
    outer
}

#[test]
fn recording_by_hand_passes_keys_through_drops_markers_and_restores_the_terminal() {
    let dir = Dir::new();
    let cast = dir.path().join("hand.cast");
    let mut outer = recording_by_hand(
        &cast,
        "echo; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\?icanon'; echo done",
    );
    outer.type_text("echo one\r").unwrap();
    outer
        .wait_until("the output of echo", None, |s| s.text().contains("\none\n"))
        .unwrap();
    outer.type_text("\x1c").unwrap(); // Ctrl-\ marks a checkpoint, named on the spot
    outer.wait_text("checkpoint name (Enter: mark-1):").unwrap();
    outer.type_text("\r").unwrap(); // the default name
    outer.wait_gone("checkpoint name").unwrap();
    // The cursor is back where the program left it, after its prompt (row 5, column 8),
    // not where the checkpoint prompt ended on the bottom row.
    outer
        .wait_until("the cursor back after the prompt", None, |s| {
            (s.cursor.row, s.cursor.col) == (4, 7)
        })
        .unwrap();
    outer
        .resize(tuicast::size::Size { cols: 90, rows: 14 })
        .unwrap();
    outer.type_text("echo two\r").unwrap();
    outer
        .wait_until("the output of echo two", None, |s| {
            s.text().contains("\ntwo\n")
        })
        .unwrap();
    outer.type_text("exit 4\r").unwrap();
    outer.wait_text("done").unwrap();
    let screen = outer.screen().text();
    assert!(
        screen.contains("\nicanon\n"),
        "the terminal was left in raw mode:\n{screen}"
    );
    assert!(screen.contains("recorded "), "{screen}");
    outer.finish().unwrap();

    let ev = events(&cast);
    assert!(ev.iter().any(|e| e[1] == "m" && e[2] == "mark-1"), "{ev:?}");
    assert!(ev.iter().any(|e| e[1] == "r" && e[2] == "90x14"), "{ev:?}");
    // The keys as they were read, one `i` event each (the outer session types as a person).
    let typed: String = ev
        .iter()
        .filter(|e| e[1] == "i")
        .map(|e| e[2].as_str().unwrap())
        .collect();
    assert!(typed.contains("echo two"), "{ev:?}");
    assert_eq!(ev.last().unwrap()[2], "4");
    let at_mark = screen_at(&cast, "mark-1");
    assert!(at_mark.contains("one\ninner$"), "{at_mark}");
    assert!(!at_mark.contains("two"), "{at_mark}");
    asciinema_accepts(&cast);
}

/// A recording by hand answers the program's queries once: the recorder answers (and records)
/// them, and the person's terminal it mirrors to never sees them, so it cannot answer too (its
/// answers came back as typed text, into the program and the cast's input).
#[test]
fn recording_by_hand_answers_queries_once_and_the_persons_terminal_never_sees_them() {
    let dir = Dir::new();
    let cast = dir.path().join("hand.cast");
    let mut outer = recording_by_hand(&cast, "echo done");
    // Device attributes, the cursor position and the background colour, their answers read
    // (up to the BEL that ends the last).
    outer
        .type_text("printf '\\e[c\\e[6n\\e]11;?\\a'; read -rs -d $'\\a' x; echo asked\r")
        .unwrap();
    outer
        .wait_until("the output of echo", None, |s| {
            s.text().contains("\nasked\n")
        })
        .unwrap();
    // Typed after the queries: an answer of the outer terminal would have come before it.
    outer.type_text("echo after\r").unwrap();
    outer
        .wait_until("the output of echo after", None, |s| {
            s.text().contains("\nafter\n")
        })
        .unwrap();
    outer.type_text("exit\r").unwrap();
    outer.wait_text("done").unwrap();
    outer.finish().unwrap();
    let input: String = events(&cast)
        .iter()
        .filter(|e| e[1] == "i")
        .map(|e| e[2].as_str().unwrap().to_string())
        .collect();
    for (what, answer) in [
        ("device attributes", "\x1b[?"),
        ("cursor position", ";1R"),
        ("background colour", "\x1b]11;rgb:"),
    ] {
        assert_eq!(input.matches(answer).count(), 1, "{what}: {input:?}");
    }
}

#[test]
fn every_kind_of_wait_and_a_signal_exit_status() {
    let dir = Dir::new();
    let (out, cast) = record_scenario(
        &dir,
        "waits",
        r#"shell = '''
printf 'Loading...'; sleep 0.2; printf '\r\e[KReady 42\r\n'
printf '\e[?1h'; IFS= read -rsn3 key; printf 'key=%q\r\n' "$key"
printf '\e[5;10Hhere'; sleep 0.3; printf '\e[6;1Hafter idle'
kill -TERM $$
'''
size = "40x8"
steps = [
  { wait = { gone = "Loading" } },
  { wait = { regex = "Ready \\d+" } },
  { wait = { echo = false } },
  { press = "Up" },
  { wait = "key=" },
  { wait = { cursor = [5, 14] } },
  { wait = { idle = "150ms" } },
  { snapshot = "idle" },
  { sleep = "50ms" },
  { exit = 143 },
]
"#,
        &[],
    );
    out.success();
    let idle = screen_at(&cast, "idle");
    assert!(idle.contains("Ready 42\n"), "{idle}");
    // Application cursor mode was on: Up is sent as ESC O A.
    assert!(idle.contains("key=$'\\EOA'"), "{idle}");
    assert!(idle.contains("    here"), "{idle}");
    let ev = events(&cast);
    assert!(ev.iter().any(|e| e[1] == "i" && e[2] == "\x1bOA"));
    assert_eq!(
        ev.last().unwrap()[2],
        "143",
        "SIGTERM is recorded as 128+15"
    );

    // A wrong expected status is a failed check (exit 1), and names both statuses.
    let (out, _) = record_scenario(
        &dir,
        "status",
        "shell = \"exit 7\"\nsteps = [{ exit = 0 }]\n",
        &[],
    );
    let out = out.fails_with(1);
    assert!(
        out.stderr().contains("exited with status 7, expected 0"),
        "{out}"
    );
}

#[test]
fn typing_more_than_the_terminal_buffers_does_not_deadlock() {
    // 500 lines of 79 characters: far more than a PTY buffers, while `cat` echoes and copies
    // every line back (output the recorder must keep reading while it types).
    let dir = Dir::new();
    let lines: Vec<String> = (0..500)
        .map(|i| format!("{i:04} {}", "x".repeat(74)))
        .collect();
    let toml = format!(
        "command = [\"cat\"]\nsize = \"80x24\"\ntimeout = \"30s\"\nsteps = [\n  {{ type = \"{}\\n\" }},\n  {{ wait = \"0499 x\" }},\n  {{ press = [\"C-d\"] }},\n  {{ exit = 0 }},\n]\n",
        lines.join("\\n")
    );
    let path = dir.path().join("big.toml");
    fs::write(&path, toml).unwrap();
    let mut child = Tuicast::new().arg("record").arg(&path).spawn();
    let started = std::time::Instant::now();
    while child.try_wait().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(90) {
            child.kill();
            panic!("tuicast record hung typing 40 KB into cat");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait().success();
    let end = screen_at(&dir.path().join("big.cast"), "end");
    assert!(end.contains("0499 xxxx"), "{end}");
}

#[test]
fn a_bad_mask_or_region_stops_a_recording_with_its_place_printed_once() {
    let dir = Dir::new();
    for (name, toml, place) in [
        (
            "badmask",
            "shell = \"true\"\n\n[check]\nmask = [{ rows = 1 }, { regex = \"(\" }]\n",
            "badmask.toml:4:23: check.mask[1]: regex \"(\" is not valid",
        ),
        (
            "badregion",
            "shell = \"true\"\n\n[regions]\nmenu = { rows = \"10..3\" }\n",
            "badregion.toml:4:8: regions.menu: annotation: range \"10..3\"",
        ),
        (
            "badstep",
            "shell = \"true\"\nsteps = [\n  { wait = \"x\" },\n  { press = \"Hyper-x\" },\n]\n",
            "badstep.toml:4:3: unknown key",
        ),
    ] {
        let (out, cast) = record_scenario(&dir, name, toml, &[]);
        let out = out.fails_with(2);
        let err = out.stderr();
        assert!(err.contains(place), "{name}: expected {place:?} in:\n{err}");
        let file = format!("{name}.toml");
        assert_eq!(
            err.matches(&file).count(),
            1,
            "{name}: the file once:\n{err}"
        );
        assert!(!cast.exists());
    }
    // Rows written as a number are a mask and a region alike.
    let (out, _) = record_scenario(
        &dir,
        "rowzero",
        "shell = \"true\"\n\n[check]\nmask = [{ rows = 1 }]\n\n[regions]\ntop = { rows = 1 }\n",
        &[],
    );
    out.success();
}

/// A program that reads a secret without echo, then draws it with `draw` (bash, the value in
/// `$s`); the recording's run and the cast's path.
fn draw_secret(dir: &Dir, name: &str, draw: &str) -> (Run, PathBuf) {
    let toml = format!(
        r#"shell = '''read -rs -p 'Secret: ' s; echo; {draw}; echo; echo done'''
size = "40x6"
steps = [
  {{ wait = "Secret:" }},
  {{ wait = {{ echo = false }} }},
  {{ secret = {{ env = "TUICAST_TEST_SECRET" }} }},
  {{ press = "Enter" }},
  {{ wait = "done" }},
  {{ exit = 0 }},
]
"#
    );
    record_scenario(dir, name, &toml, &[("TUICAST_TEST_SECRET", SECRET)])
}

const SECRET: &str = "Zq7hunter2";

/// The recording succeeded and neither the cast nor the replayed screen shows the secret.
fn starred(out: Run, cast: &Path) {
    let out = out.success();
    let body = fs::read_to_string(cast).unwrap();
    assert!(!body.contains("hunter2"), "the secret leaked:\n{body}");
    let screen = screen_at(cast, "end");
    assert!(screen.contains("**********"), "{screen}\n{out}");
    assert!(!screen.contains("hunter2"), "{screen}");
}

/// The recording failed naming the step (the wait during which the last piece came: line 8) and the secret's name, never its value, and left
/// no cast.
fn refused(out: Run, dir: &Dir, name: &str) {
    let out = out.fails_with(1);
    assert!(
        out.stderr().contains(&format!("{name}.toml:8:3:")),
        "names the step:\n{out}"
    );
    assert!(
        out.stderr()
            .contains("the secret TUICAST_TEST_SECRET appeared on the screen"),
        "{out}"
    );
    assert!(!out.stderr().contains("hunter2") && !out.stdout().contains("hunter2"));
    for f in dir.files() {
        let body = fs::read(dir.join(&f)).unwrap();
        assert!(
            !String::from_utf8_lossy(&body).contains("Zq7") || f.ends_with(".toml"),
            "{f} keeps a part of the secret"
        );
    }
    assert!(!dir.join(format!("{name}.cast")).exists());
    assert!(!dir.join(format!("{name}.cast.partial")).exists());
}

#[test]
fn a_secret_split_by_a_style_change_is_starred() {
    let dir = Dir::new();
    let (out, cast) = draw_secret(
        &dir,
        "style",
        r#"printf 'A:%s\033[1m%s\033[0m' "${s:0:3}" "${s:3}""#,
    );
    starred(out, &cast);
}

#[test]
fn a_secret_drawn_one_character_at_a_time_in_one_write_is_starred() {
    let dir = Dir::new();
    let (out, cast) = draw_secret(
        &dir,
        "cursor",
        r#"o=''; for i in $(seq 0 $((${#s}-1))); do o="$o\033[3;$((i+1))H${s:i:1}"; done; printf "$o""#,
    );
    starred(out, &cast);
}

#[test]
fn a_secret_drawn_in_two_writes_fails_the_recording_without_showing_it() {
    let dir = Dir::new();
    let (out, _) = draw_secret(
        &dir,
        "two",
        r#"printf '%s' "${s:0:3}"; sleep 0.3; printf '%s' "${s:3}""#,
    );
    refused(out, &dir, "two");
}

#[test]
fn a_secret_drawn_one_character_per_write_with_cursor_moves_fails_the_recording() {
    let dir = Dir::new();
    let (out, _) = draw_secret(
        &dir,
        "chars",
        r#"for i in $(seq 0 $((${#s}-1))); do printf '\033[3;%dH%s' $((i+1)) "${s:i:1}"; sleep 0.1; done"#,
    );
    refused(out, &dir, "chars");
}

#[test]
fn a_secret_wrapped_from_one_row_into_the_next_in_two_writes_fails_the_recording() {
    let dir = Dir::new();
    let (out, _) = draw_secret(
        &dir,
        "wrap",
        r#"printf '\033[3;36H%s' "${s:0:5}"; sleep 0.3; printf '\033[4;1H%s' "${s:5}""#,
    );
    refused(out, &dir, "wrap");
}

/// A real program (python3 in the PTY) asks XTGETTCAP, DECRQSS, XTWINOPS, DA3 and the kitty
/// keyboard query, and writes the answers it read to a file: they are the cast's `i` events.
#[test]
fn xtgettcap_decrqss_window_reports_and_da3_reach_a_real_program() {
    if !crate::util::have("python3") || !crate::util::have("infocmp") {
        eprintln!("skipped: needs python3 and infocmp");
        return;
    }
    let dir = Dir::new();
    dir.write(
        "ask.py",
        r#"import os, sys, tty
fd = sys.stdin.fileno()
tty.setraw(fd)
got = []
def ask(query, end):
    os.write(1, query)
    buf = b""
    while not buf.endswith(end):
        buf += os.read(fd, 1)
    got.append(buf)
ask(b"\x1bP+q636f6c6f7273;6e6f7065\x1b\\", b"6e6f7065\x1b\\")
ask(b"\x1b[1;31m\x1bP$qm\x1b\\\x1b[0m", b"\x1b\\")
ask(b"\x1b[5 q\x1bP$q q\x1b\\", b"\x1b\\")
ask(b"\x1b[18t", b"t")
ask(b"\x1b[14t", b"t")
ask(b"\x1b[=c", b"\x1b\\")
ask(b"\x1b[?u\x1b[c", b"c")
open("got.txt", "w").write("\n".join(g.hex() for g in got) + "\n")
os.write(1, b"asked\r\n")
"#,
    );
    let (out, cast) = record_scenario(
        &dir,
        "ask",
        // The program writes what it read to got.txt: in the folder itself, to read it here.
        "in_place = true\ncommand = [\"python3\", \"ask.py\"]\nsize = \"100x30\"\ntimeout = \"10s\"\nsteps = [{ wait = \"asked\" }, { exit = 0 }]\n",
        &[],
    );
    out.success();
    let answers: Vec<String> = events(&cast)
        .iter()
        .filter(|e| e[1] == "i")
        .map(|e| e[2].as_str().unwrap().to_string())
        .collect();
    let hex = |s: &str| s.bytes().map(|b| format!("{b:02X}")).collect::<String>();
    assert_eq!(
        answers,
        [
            format!(
                "\x1bP1+r636f6c6f7273={}\x1b\\\x1bP0+r6e6f7065\x1b\\",
                hex("256")
            ),
            "\x1bP1$r0;1;91m\x1b\\".to_string(),
            "\x1bP1$r5 q\x1b\\".to_string(),
            "\x1b[8;30;100t".to_string(),
            "\x1b[4;570;1000t".to_string(),
            "\x1bP!|00000000\x1b\\".to_string(),
            "\x1b[?0u".to_string(),
            "\x1b[?65;1;2;6;9;15;16;17;18;21;22;28c".to_string(),
        ],
        "the kitty keyboard query answered (no flags pushed), then DA1"
    );
    let got = std::fs::read_to_string(dir.join("got.txt")).unwrap();
    // (The kitty answer and DA1 are read as one answer: the program reads up to DA1's `c`.)
    let want: String = answers
        .iter()
        .map(|a| a.bytes().map(|b| format!("{b:02x}")).collect::<String>())
        .collect();
    assert_eq!(
        got.replace('\n', ""),
        want,
        "what the program read is what the cast holds"
    );
}

/// `[terminal] deccolm = true` in a scenario: the live engine switches to 132 columns too, so
/// a wait sees text past column 80 where replay will show it.
#[test]
fn a_scenario_with_deccolm_waits_on_the_132_column_screen() {
    let dir = Dir::new();
    let toml = |timeout: &str| {
        format!(
            "shell = '''printf 'x\\033[?3h\\033[1;120Hfar'; read -r'''\ntimeout = \"{timeout}\"\n\
             steps = [{{ wait = {{ regex = \"^ {{119}}far\" }} }}, {{ press = \"Enter\" }}, {{ exit = 0 }}]\n"
        )
    };
    let wide = format!("{}[terminal]\ndeccolm = true\n", toml("5s"));
    let (out, cast) = record_scenario(&dir, "wide", &wide, &[]);
    out.success();
    let end = screen_at(&cast, "end");
    assert!(end.contains(&format!("{}far", " ".repeat(119))), "{end}");
    // Without the option the same wait times out: the line wrapped at column 80.
    let (out, _) = record_scenario(&dir, "narrow", &toml("1s"), &[]);
    out.fails_with(1);
}

/// `{ wait = { prompt = KIND } }` waits for what `tuicast inspect` would call the screen: a
/// yes/no question, a password prompt (echo off), a pager; and a prompt that never comes is a
/// timeout that says which kind it waited for.
#[test]
fn a_wait_for_a_prompt_kind_takes_the_screen_and_the_echo_flag() {
    let dir = Dir::new();
    let script = "sleep 0.2; read -p 'Delete 3 files? [y/N] ' a; read -s -p 'Password: ' p; echo; \
                  echo \"answer $a, ${#p} characters\" | less";
    let toml = format!(
        "shell = '''{script}'''\ntimeout = \"5s\"\nsteps = [\n\
         {{ wait = {{ prompt = \"yesno\" }} }}, {{ checkpoint = \"asked\" }},\n\
         {{ type = \"y\" }}, {{ press = \"Enter\" }},\n\
         {{ wait = {{ prompt = \"password\" }} }}, {{ type = \"hunter2\" }}, {{ press = \"Enter\" }},\n\
         {{ wait = {{ prompt = \"pager\" }} }}, {{ checkpoint = \"paged\" }},\n\
         {{ press = \"q\" }}, {{ exit = 0 }},\n]\n"
    );
    let (out, cast) = record_scenario(&dir, "prompts", &toml, &[]);
    out.success();
    assert!(screen_at(&cast, "asked").contains("Delete 3 files? [y/N]"));
    assert!(screen_at(&cast, "paged").contains("answer y, 7 characters"));

    let (out, _) = record_scenario(
        &dir,
        "never",
        "shell = \"echo plain output; sleep 5\"\ntimeout = \"500ms\"\nsteps = [{ wait = { prompt = \"yesno\" } }]\n",
        &[],
    );
    let out = out.fails_with(1);
    assert!(out.stderr().contains("waiting for a yesno prompt"), "{out}");
    let (out, _) = record_scenario(
        &dir,
        "bad",
        "shell = \"true\"\nsteps = [{ wait = { prompt = \"maybe\" } }]\n",
        &[],
    );
    let out = out.fails_with(2);
    assert!(out.stderr().contains("bad.toml:2:"), "{out}");
    assert!(out.stderr().contains("yesno, select, password"), "{out}");
}

/// A program that resizes its own terminal (`stty cols 100 rows 30`) gives the cast an `r`
/// event, so the replay has the size the program drew at.
#[test]
fn a_program_resizing_its_own_terminal_leaves_a_resize_event() {
    let dir = Dir::new();
    let (out, cast) = record_scenario(
        &dir,
        "stty",
        "shell = \"stty cols 100 rows 30; tput cols; tput lines; read x\"\nsteps = [\n\
         { wait = \"30\" }, { checkpoint = \"resized\" }, { press = \"Enter\" }, { exit = 0 },\n]\n",
        &[],
    );
    out.success();
    let text = std::fs::read_to_string(&cast).unwrap();
    assert!(text.contains(r#""r", "100x30""#), "{text}");
    let shown = Tuicast::new()
        .args(["replay", "--format", "json"])
        .arg(&cast)
        .args(["--at", "resized"])
        .run()
        .success();
    let json: serde_json::Value = serde_json::from_str(shown.stdout().trim()).unwrap();
    assert_eq!(
        json["size"],
        serde_json::json!({"cols": 100, "rows": 30}),
        "{json}"
    );
    assert!(screen_at(&cast, "resized").contains("100\n30"));
}

/// A `redact` token printed in two writes with a pause between them: its first part left
/// before the rest came, so the recording stops and its cast is deleted; printed in one go, or
/// in two writes close together, it is starred.
#[test]
fn a_redact_token_split_by_a_pause_stops_the_recording() {
    let dir = Dir::new();
    let scenario = |shell: &str| {
        format!(
            "shell = \"{shell}\"\nredact = [\"tok_[a-z0-9]+\"]\nsteps = [{{ wait = \"end\" }}]\n"
        )
    };
    let (out, cast) = record_scenario(
        &dir,
        "split",
        &scenario("printf 'key tok'; sleep 0.4; printf '_ab12 end'; sleep 1"),
        &[],
    );
    let out = out.fails_with(1);
    assert!(
        out.stderr()
            .contains("the redact pattern /tok_[a-z0-9]+/ matched a token printed in two writes"),
        "{out}"
    );
    assert!(!cast.exists());
    assert!(
        !dir.join("split.cast.partial").exists(),
        "no part of the token is kept"
    );
    let (out, cast) = record_scenario(
        &dir,
        "whole",
        &scenario("printf 'key tok_ab12 end'; sleep 1"),
        &[],
    );
    out.success();
    let text = std::fs::read_to_string(&cast).unwrap();
    assert!(text.contains("\"key ******** \""), "{text}");
    assert!(
        !text.contains("ab12"),
        "not in the output, nor in the header's command: {text}"
    );
}

/// The Rust API for assertions in ordinary tests: `Session::wait_region` on vim's mode line,
/// then `Screen::find`, `Screen::region` and `Screen::style_at` on the screen.
#[test]
fn wait_region_find_region_and_style_at_on_a_real_vim() {
    use tuicast::inspect::{anchor_regex, Anchor};
    use tuicast::record::{Session, SessionOptions};
    if !have("vim") {
        assert!(std::env::var_os("CI").is_none(), "CI installs vim");
        return;
    }
    let mut opts = SessionOptions::new(["vim", "-u", "NONE", "-N", "-i", "NONE"]);
    opts.size = tuicast::size::Size { cols: 60, rows: 10 };
    let mut s = Session::spawn_in_memory(opts).unwrap();
    s.wait_text("~").unwrap();
    s.press("i").unwrap();
    let mode = Anchor::LastRow;
    s.wait_region(&mode, |t| t.contains("-- INSERT --"))
        .unwrap();
    s.type_text("hello region").unwrap();
    s.wait_text("hello region").unwrap();
    let screen = s.screen();
    assert_eq!(screen.find("region"), Some((0, 6)));
    assert_eq!(
        screen
            .region(&Anchor::Row(anchor_regex("hello").unwrap()))
            .unwrap(),
        "hello region"
    );
    let (row, col) = screen.find("-- INSERT --").unwrap();
    assert!(
        screen.style_at(row, col).unwrap().attrs.bold,
        "vim shows the mode in bold"
    );
    s.set_timeout(std::time::Duration::from_millis(300));
    let missing = s
        .wait_region(&Anchor::Row(anchor_regex("VISUAL").unwrap()), |_| true)
        .unwrap_err();
    assert!(
        missing.to_string().contains("the region"),
        "a region that finds nothing never passes: {missing}"
    );
    s.set_timeout(std::time::Duration::from_secs(10));
    s.press("Esc").unwrap();
    s.type_text(":q!\r").unwrap();
    s.wait_exit(None).unwrap();
}

/// The program starts as a shell would start it, whatever state `tuicast` itself was started
/// in: the leader of a session of its own with the PTY as its controlling terminal, no signal
/// blocked or ignored (here `tuicast` was started with SIGINT, SIGQUIT and SIGTERM ignored),
/// and no descriptor but 0, 1 and 2 (here `tuicast` inherited descriptor 7).
#[test]
fn the_program_starts_in_a_session_of_its_own_with_nothing_inherited() {
    let dir = Dir::new();
    let scenario = dir.write(
        "clean.toml",
        r#"shell = '''
grep -E '^Sig(Blk|Ign)' /proc/self/status
echo "fds=$(ls /proc/self/fd | tr '\n' ' ')"
echo "sid=$(ps -o sid= -p $$ | tr -d ' ') pid=$$ tty=$(ps -o tty= -p $$)"
'''
size = "60x8"
"#,
    );
    let status = std::process::Command::new("bash")
        .arg("-c")
        .arg(r#"exec 7</dev/null; trap '' INT QUIT TERM; exec "$0" record "$1""#)
        .arg(crate::util::BIN)
        .arg(&scenario)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let screen = screen_at(&dir.join("clean.cast"), "end");
    let lines: Vec<&str> = screen.lines().collect();
    // The standard signals 1 to 31 (the real-time ones above may be glibc's or the machine's).
    let standard = |line: &str, name: &str| {
        let hex = line.strip_prefix(name).map(str::trim).unwrap_or("?");
        u64::from_str_radix(hex, 16).map(|set| set & 0x7fff_ffff)
    };
    assert_eq!(standard(lines[0], "SigBlk:"), Ok(0), "{screen}");
    assert_eq!(standard(lines[1], "SigIgn:"), Ok(0), "{screen}");
    assert_eq!(lines[2], "fds=0 1 2 3", "{screen}");
    let ids = lines[3];
    let field = |name: &str| {
        ids.split(' ')
            .find_map(|f| f.strip_prefix(&format!("{name}=")))
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(field("sid"), field("pid"), "{screen}");
    assert!(field("tty").starts_with("pts/"), "{screen}");
}

/// Scenario waits of issue 22 point 3: `{ prompt = "any" }` and `{ silent = … }` (no change
/// and no output) pass on a program at its prompt; `silent` times out on one that keeps
/// rewriting the same screen, where `idle` (the screen alone) passes.
#[test]
fn scenario_waits_on_any_prompt_and_on_silence() {
    let dir = Dir::new();
    let (out, cast) = record_scenario(
        &dir,
        "any",
        r#"shell = "printf 'Overwrite? [y/N] '; read a"
size = "40x4"
steps = [
  { wait = { prompt = "any" } },
  { wait = { silent = "200ms" } },
  { snapshot = "asked" },
  { press = ["y", "Enter"] },
  { exit = 0 },
]
"#,
        &[],
    );
    out.success();
    assert_eq!(screen_at(&cast, "asked"), "Overwrite? [y/N]\n\n\n\n");
    let rewriting = r#"shell = "while :; do printf '\rsame'; done"
size = "40x4"
timeout = "600ms"
steps = [
  { wait = "same" },
  { wait = { idle = "200ms" } },
  { wait = { silent = "200ms" } },
]
"#;
    let (out, _) = record_scenario(&dir, "rewriting", rewriting, &[]);
    let out = out.fails_with(1);
    assert!(
        out.stderr()
            .contains("200 ms without output or a screen change"),
        "{out}"
    );
    assert!(out.stderr().contains("the program kept writing"), "{out}");
    assert!(
        out.stderr().contains("rewriting.toml:7:"),
        "the silent step's place: {out}"
    );
}
