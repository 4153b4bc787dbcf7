//! `tuicast session` driven as an agent drives it, through the real binary: each test has its
//! own `XDG_RUNTIME_DIR`, so its own daemon, ended when the test ends.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{screen_at, Dir, BIN};

/// One agent: a private runtime folder (so a daemon of its own) and a working folder.
pub(crate) struct Agent {
    pub(crate) runtime: Dir,
    pub(crate) work: Dir,
    pub(crate) env: Vec<(String, String)>,
}

/// What one command printed and its exit status.
pub(crate) struct Reply {
    pub(crate) json: Value,
    pub(crate) code: i32,
    stdout: String,
    stderr: String,
}

impl Reply {
    /// A finished command's reply: its JSON (or null), status and output.
    fn of(out: std::process::Output) -> Reply {
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        Reply {
            json: serde_json::from_str(stdout.trim()).unwrap_or(Value::Null),
            code: out.status.code().unwrap_or(-1),
            stdout,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl std::fmt::Display for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\nstdout: {}\nstderr: {}",
            self.code, self.stdout, self.stderr
        )
    }
}

impl Agent {
    pub(crate) fn new() -> Agent {
        Agent {
            runtime: Dir::new(),
            work: Dir::new(),
            env: Vec::new(),
        }
    }

    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.arg("session")
            .args(args)
            .current_dir(self.work.path())
            .env("XDG_RUNTIME_DIR", self.runtime.path())
            // A daemon a failed test leaves behind does not stay long.
            .env("TUICAST_SESSION_IDLE", "120s");
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    pub(crate) fn run(&self, args: &[&str]) -> Reply {
        Reply::of(self.command(args).output().expect("run tuicast session"))
    }

    /// Runs a command with `input` on its standard input.
    fn run_with_input(&self, args: &[&str], input: &[u8]) -> Reply {
        use std::io::Write as _;
        let mut child = self
            .command(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run tuicast session");
        let mut stdin = child.stdin.take().unwrap();
        // (A refusal may close the pipe before all of it is written.)
        let _ = stdin.write_all(input);
        drop(stdin);
        Reply::of(child.wait_with_output().expect("tuicast session ends"))
    }

    /// Runs a command that must succeed; its reply.
    pub(crate) fn ok(&self, args: &[&str]) -> Value {
        let r = self.run(args);
        assert_eq!(r.code, 0, "tuicast session {}: {r}", args.join(" "));
        r.json
    }

    /// The daemon's folder.
    pub(crate) fn folder(&self) -> PathBuf {
        self.runtime.join("tuicast")
    }

    /// The live daemon's pid.
    pub(crate) fn daemon_pid(&self) -> Option<u32> {
        // `PID START`: the pid and the process's start time.
        let pid: u32 = std::fs::read_to_string(self.folder().join("daemon.pid"))
            .ok()?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        Path::new(&format!("/proc/{pid}")).exists().then_some(pid)
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        // The daemon this test started ends its sessions on SIGTERM.
        if let Some(pid) = self.daemon_pid() {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGTERM,
            );
        }
    }
}

fn screen(reply: &Value) -> &str {
    reply["screen"].as_str().unwrap_or("")
}

#[test]
fn vim_insert_type_save_and_quit() {
    if !crate::util::have("vim") {
        assert!(std::env::var_os("CI").is_none(), "vim is required under CI");
        return;
    }
    let a = Agent::new();
    let file = a.work.join("notes.txt");
    let started = a.ok(&[
        "start",
        "--name",
        "vim",
        "--",
        "vim",
        "-u",
        "NONE",
        "-i",
        "NONE",
        "-N",
        "notes.txt",
    ]);
    assert_eq!(started["id"], "vim", "{started}");
    a.ok(&["wait", "vim", "--text", "notes.txt"]);
    a.ok(&["press", "vim", "i"]);
    let insert = a.ok(&["wait", "vim", "--text=-- INSERT --"]);
    assert_eq!(insert["status"]["state"], "running", "{insert}");
    a.ok(&["type", "vim", "hello from an agent"]);
    a.ok(&["snapshot", "vim", "--mark", "typed"]);
    a.ok(&["press", "vim", "Esc"]);
    a.ok(&["wait", "vim", "--gone=-- INSERT --"]);
    a.ok(&["type", "vim", ":wq"]);
    a.ok(&["press", "vim", "Enter"]);
    let done = a.ok(&["wait", "vim", "--exit", "0"]);
    assert_eq!(done["status"]["state"], "exited", "{done}");
    assert_eq!(done["status"]["code"], 0, "{done}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "hello from an agent\n"
    );
    let stopped = a.ok(&["stop", "vim", "--save", "casts/vim"]);
    assert_eq!(stopped["exit"], 0, "{stopped}");
    assert_eq!(a.ok(&["list"])["sessions"], serde_json::json!([]));
    // The saved scenario goes through the same checkpoints, writing the file in a fresh copy
    // of the folder: the checkout is left as it was.
    std::fs::remove_file(&file).unwrap();
    rerecord_gives_the_same_checkpoints(&a, &a.work.join("casts/vim"), &["typed"]);
    assert!(!file.exists(), "the recording wrote into the checkout");
}

/// The scenario saved from a session, recorded again by `tuicast record`: the same
/// checkpoints.
pub(crate) fn rerecord_gives_the_same_checkpoints(a: &Agent, saved: &Path, names: &[&str]) {
    let again = a.work.join("again.cast");
    let out = Command::new(BIN)
        .arg("record")
        .arg(saved.with_extension("toml"))
        .arg("-o")
        .arg(&again)
        .envs(a.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "re-recording {}: {}\n{}",
        saved.display(),
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(saved.with_extension("toml")).unwrap()
    );
    for name in names {
        assert_eq!(
            screen_at(&saved.with_extension("cast"), name),
            screen_at(&again, name),
            "checkpoint {name}"
        );
    }
}

#[test]
fn a_yes_no_prompt_answered_and_saved_as_a_scenario_that_records_again() {
    let a = Agent::new();
    let script =
        "read -p 'Delete 3 files? [y/N] ' a; echo \"answer: $a\"; read -p 'Done. Press Enter ' b";
    a.ok(&["start", "--", "bash", "-c", script]);
    let asked = a.ok(&["wait", "s1", "--text", "[y/N]"]);
    assert_eq!(asked["prompt"]["kind"], "yesno", "{asked}");
    assert_eq!(asked["prompt"]["default"], "no", "{asked}");
    assert_eq!(asked["status"]["state"], "waiting", "{asked}");
    a.ok(&["snapshot", "s1", "--mark", "asked"]);
    a.ok(&["type", "s1", "y"]);
    // No wait between the answer and Enter: the saved scenario infers one.
    a.ok(&["press", "s1", "Enter"]);
    let answered = a.ok(&["wait", "s1", "--text", "answer: y"]);
    assert!(screen(&answered).contains("Press Enter"), "{answered}");
    a.ok(&["snapshot", "s1", "--mark", "answered"]);
    a.ok(&["press", "s1", "Enter"]);
    a.ok(&["wait", "s1", "--exit"]);
    let saved = a.work.join("casts/yn");
    let stopped = a.ok(&["stop", "s1", "--save", "casts/yn"]);
    assert_eq!(
        stopped["scenario"],
        saved.with_extension("toml").display().to_string()
    );
    let toml = std::fs::read_to_string(saved.with_extension("toml")).unwrap();
    // The whole scenario written back (the wait between `type y` and `press Enter`, the
    // answer's echo, is inferred), and the whole reply to the wait for the prompt.
    crate::outputs::assert_whole("session-saved-scenario", &toml);
    crate::outputs::assert_whole(
        "session-reply-wait-prompt",
        &crate::outputs::normalize_json(&asked, &["idle_ms", "elapsed_ms", "pid", "waited_ms"]),
    );
    rerecord_gives_the_same_checkpoints(&a, &saved, &["asked", "answered", "end"]);
}

#[test]
fn a_secret_from_the_daemons_environment_is_in_no_reply_cast_scenario_or_daemon_file() {
    let secret = "hunter2-Zq9-unlikely-anywhere";
    let mut a = Agent::new();
    // The daemon starts with the first command, with its environment.
    a.env.push(("SESSION_TOKEN".into(), secret.into()));
    // Allowed by name: only TUICAST_SECRET_* and what TUICAST_SECRETS lists may be typed.
    a.env
        .push(("TUICAST_SECRETS".into(), "OTHER, SESSION_TOKEN".into()));
    let script =
        "read -s -p 'Password: ' p; echo; echo \"got ${#p} characters\"; read -p 'again? ' x";
    let mut replies = Vec::new();
    replies.push(a.ok(&["start", "--", "bash", "-c", script]));
    let asked = a.ok(&["wait", "s1", "--echo", "off"]);
    assert_eq!(asked["prompt"]["kind"], "password", "{asked}");
    replies.push(asked);
    replies.push(a.ok(&["secret", "s1", "--env", "SESSION_TOKEN"]));
    replies.push(a.ok(&["press", "s1", "Enter"]));
    let got = a.ok(&["wait", "s1", "--text", "got 29 characters"]);
    replies.push(got);
    replies.push(a.ok(&["snapshot", "s1", "--mark", "in"]));
    let missing = a.run(&["secret", "s1", "--env", "NOT_SET_ANYWHERE"]);
    assert_eq!(missing.code, 2, "{missing}");
    assert!(missing.stdout.contains("NOT_SET_ANYWHERE"), "{missing}");
    replies.push(a.ok(&["inspect", "s1"]));
    replies.push(a.ok(&["stop", "s1", "--save", "casts/login"]));
    for r in &replies {
        assert!(
            !r.to_string().contains(secret),
            "a reply holds the secret: {r}"
        );
    }
    let toml = std::fs::read_to_string(a.work.join("casts/login.toml")).unwrap();
    assert!(
        toml.contains("{ secret = { env = \"SESSION_TOKEN\" } }"),
        "{toml}"
    );
    for dir in [a.work.path().to_path_buf(), a.folder()] {
        for file in walk(&dir) {
            let bytes = std::fs::read(&file).unwrap_or_default();
            let text = String::from_utf8_lossy(&bytes);
            assert!(
                !text.contains(secret),
                "{} holds the secret",
                file.display()
            );
        }
    }
    // The saved scenario records again (the secret from tuicast record's environment).
    rerecord_gives_the_same_checkpoints(&a, &a.work.join("casts/login"), &["in"]);
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                out.extend(walk(&p));
            } else if e.file_type().is_ok_and(|t| t.is_file()) {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn two_sessions_at_once_keep_their_own_screens() {
    let a = Agent::new();
    a.ok(&["start", "--name", "one", "--", "cat"]);
    a.ok(&["start", "--name", "two", "--size", "40x10", "--", "cat"]);
    a.ok(&["type", "one", "first line"]);
    a.ok(&["type", "two", "second session"]);
    let one = a.ok(&["wait", "one", "--text", "first line"]);
    let two = a.ok(&["wait", "two", "--text", "second session"]);
    assert!(!screen(&one).contains("second"), "{one}");
    assert!(!screen(&two).contains("first"), "{two}");
    assert_eq!(two["size"], "40x10");
    let list = a.ok(&["list"]);
    let ids: Vec<&str> = list["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["one", "two"], "{list}");
    // A wait that fails: exit status 1, with what it saw.
    let failed = a.run(&["wait", "one", "--text", "never", "--timeout", "200ms"]);
    assert_eq!(failed.code, 1, "{failed}");
    assert!(
        failed.json["error"].as_str().unwrap().contains("timed out"),
        "{failed}"
    );
    // Bad input: exit status 2.
    assert_eq!(a.run(&["press", "one", "NoSuchKey"]).code, 2);
    assert_eq!(a.run(&["status", "three"]).code, 2);
    // The same name twice is refused.
    assert_eq!(a.run(&["start", "--name", "one", "--", "cat"]).code, 2);
    a.ok(&["stop", "one"]);
    // SIGTERM ends the daemon cleanly: its session and program, its socket and pid file.
    let daemon = a.daemon_pid().unwrap();
    let pid = a.ok(&["status", "two"])["pid"].as_u64().unwrap();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(daemon as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let since = std::time::Instant::now();
    while a.folder().join("daemon.pid").exists()
        || Path::new(&format!("/proc/{pid}/environ")).exists()
    {
        assert!(
            since.elapsed() < std::time::Duration::from_secs(20),
            "the daemon did not end"
        );
        std::thread::yield_now();
    }
    assert!(!a.folder().join("daemon.sock").exists());
    let next = a.ok(&["list"]);
    assert!(next.get("daemon_restarted").is_none(), "{next}");
}

/// The processes whose environment holds `entry`.
fn processes_with(entry: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|e| e == entry.as_bytes()))
        })
        .collect()
}

#[test]
fn a_killed_daemon_is_reported_replaced_and_leaves_no_process() {
    let a = Agent::new();
    // A program that ignores the hangup a closed terminal sends.
    let started = a.ok(&[
        "start",
        "--",
        "bash",
        "-c",
        "trap '' HUP; echo ready; while :; do sleep 1; done",
    ]);
    a.ok(&["wait", "s1", "--text", "ready"]);
    let pid = started["pid"].as_u64().unwrap() as u32;
    let home = std::fs::read(format!("/proc/{pid}/environ"))
        .unwrap()
        .split(|b| *b == 0)
        .find(|e| e.starts_with(b"HOME="))
        .map(|e| String::from_utf8_lossy(e).into_owned())
        .unwrap();
    assert!(!processes_with(&home).is_empty());
    let daemon = a.daemon_pid().unwrap();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(daemon as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    // Reaped by its parent? It was detached: wait until /proc says it is gone.
    while Path::new(&format!("/proc/{daemon}/stat")).exists()
        && !std::fs::read_to_string(format!("/proc/{daemon}/stat"))
            .unwrap_or_default()
            .contains(") Z")
    {
        std::thread::yield_now();
    }
    // The daemon's watch ends the program when the daemon is gone, before any command.
    let killed = std::time::Instant::now();
    while !processes_with(&home).is_empty() {
        assert!(
            killed.elapsed() < std::time::Duration::from_secs(10),
            "the program outlived its daemon by 10 s"
        );
        std::thread::yield_now();
    }
    let after = a.run(&["status", "s1"]);
    assert_eq!(after.code, 1, "{after}");
    let error = after.json["error"].as_str().unwrap();
    assert!(
        error.contains("daemon was gone") && error.contains("sessions were lost"),
        "{after}"
    );
    // As data: an error (the session it names was lost, not bad input), with the fix.
    assert_eq!(after.json["failure"]["kind"], "error", "{after}");
    assert_eq!(after.json["failure"]["message"], error, "{after}");
    assert!(
        after.json["failure"]["fix"]
            .as_str()
            .is_some_and(|f| f.contains("start the session again")),
        "{after}"
    );
    assert_eq!(
        processes_with(&home),
        Vec::<u32>::new(),
        "the program outlived its daemon"
    );
    let new = a.daemon_pid().expect("a new daemon");
    assert_ne!(new, daemon);
    // The new daemon serves.
    a.ok(&["start", "--", "cat"]);
    assert_eq!(a.ok(&["list"])["sessions"].as_array().unwrap().len(), 1);
}

#[test]
fn another_user_is_refused_and_the_files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let a = Agent::new();
    a.ok(&["start", "--name", "x", "--", "cat"]);
    a.ok(&["type", "x", "private"]);
    a.ok(&["snapshot", "x", "--mark", "m"]);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let folder = a.folder();
    assert_eq!(mode(&folder), 0o700);
    assert_eq!(mode(&folder.join("daemon.sock")), 0o600);
    for f in walk(&folder) {
        assert_eq!(mode(&f), 0o600, "{}", f.display());
    }
    a.ok(&["stop", "x", "--save", "saved/x"]);
    assert_eq!(mode(&a.work.join("saved/x.cast")), 0o600);
    assert_eq!(mode(&a.work.join("saved/x.toml")), 0o600);
    a.ok(&["start", "--name", "y", "--", "cat"]);

    let am_root = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"));
    if !am_root || !crate::util::have("setpriv") {
        assert!(
            std::env::var_os("CI").is_none(),
            "root and setpriv are needed under CI"
        );
        return;
    }
    // Their temporary folder, where they fall back when the runtime folder is not theirs.
    let their_tmp = Dir::new();
    std::os::unix::fs::chown(their_tmp.path(), Some(65534), Some(65534)).unwrap();
    let as_nobody = |runtime: &Path| {
        Command::new("setpriv")
            .args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                BIN,
                "session",
                "list",
            ])
            .env("XDG_RUNTIME_DIR", runtime)
            .env("TMPDIR", their_tmp.path())
            .env("TUICAST_SESSION_IDLE", "3s")
            .output()
            .unwrap()
    };
    // With this user's folder: not theirs, passed over with a warning for a folder of
    // their own in the temporary folder; nothing of this user's daemon is seen.
    let out = as_nobody(a.runtime.path());
    let (said, warned) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        warned.contains("warning: the session daemon uses")
            && warned.contains("tuicast-65534")
            && warned.contains("belongs to another user (uid 0)"),
        "{warned}"
    );
    assert!(!said.contains("\"y\""), "{said}");
    // Their own folder, whose socket leads to this user's daemon (its folders opened up by
    // mistake): the daemon checks the peer's uid and refuses.
    let theirs = Dir::new();
    let folder_of_nobody = theirs.join("tuicast");
    std::fs::create_dir(&folder_of_nobody).unwrap();
    for p in [theirs.path(), folder_of_nobody.as_path()] {
        std::os::unix::fs::chown(p, Some(65534), Some(65534)).unwrap();
    }
    std::os::unix::fs::symlink(
        folder.join("daemon.sock"),
        folder_of_nobody.join("daemon.sock"),
    )
    .unwrap();
    std::fs::write(
        folder_of_nobody.join("daemon.pid"),
        format!("{}\n", a.daemon_pid().unwrap()),
    )
    .unwrap();
    for (p, m) in [
        (a.runtime.path().to_path_buf(), 0o711),
        (folder.clone(), 0o711),
        (folder.join("daemon.sock"), 0o666),
    ] {
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(m)).unwrap();
    }
    let out = as_nobody(theirs.path());
    for (p, m) in [
        (a.runtime.path().to_path_buf(), 0o700),
        (folder.clone(), 0o700),
    ] {
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(m)).unwrap();
    }
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(said.contains("refused"), "{out:?}");
    assert!(!said.contains("\"y\""), "{said}");
    let log = std::fs::read_to_string(folder.join("daemon.log")).unwrap();
    assert!(log.contains("refused a client of uid Ok(65534)"), "{log}");
}

#[test]
fn a_recording_by_hand_with_scenario_replays_to_the_same_final_screen_every_time() {
    use tuicast::record::{Session, SessionOptions};
    let dir = Dir::new();
    let cast = dir.join("hand.cast");
    let scenario = dir.join("hand.toml");
    let script = format!(
        "cd {} && {} record -o hand.cast --scenario hand.toml -- bash --norc --noprofile; echo finished",
        dir.path().display(),
        BIN,
    );
    // The person's terminal is a PTY driven by tuicast's own recorder.
    let mut opts = SessionOptions::new(["bash", "-c", script.as_str()]);
    opts.size = tuicast::size::Size { cols: 80, rows: 24 };
    let mut person = Session::spawn_in_memory(opts).unwrap();
    person.wait_text("bash-").unwrap();
    person.type_text("echo one; echo two\r").unwrap();
    person
        .wait_until("the output and the prompt after it", None, |s| {
            s.text().contains("\none\ntwo\nbash-")
        })
        .unwrap();
    let before = person.screen();
    person.type_text("\x1c").unwrap(); // a marker, named on the spot
    person
        .wait_text("checkpoint name (Enter: mark-1):")
        .unwrap();
    person.type_text("listx\x7f ed").unwrap(); // Backspace is taken; a blank is not
    person.wait_text("(Enter: mark-1): listed").unwrap();
    person.type_text("\r").unwrap();
    person.wait_gone("checkpoint name").unwrap();
    assert_eq!(
        person.screen().text(),
        before.text(),
        "the prompt's row is drawn again as it was"
    );
    person.type_text("printf 'x%.0s' 1 2 3; echo\r").unwrap();
    person
        .wait_until("the x's", None, |s| s.text().contains("\nxxx\n"))
        .unwrap();
    person.type_text("\x1c").unwrap(); // Enter alone keeps the default name
    person
        .wait_text("checkpoint name (Enter: mark-2):")
        .unwrap();
    person.type_text("\r").unwrap();
    person.wait_gone("checkpoint name").unwrap();
    person.type_text("exit 3\r").unwrap();
    person.wait_text("finished").unwrap();
    person.finish().unwrap();
    let toml = std::fs::read_to_string(&scenario).unwrap();
    assert!(toml.contains("{ checkpoint = \"listed\" }"), "{toml}");
    assert!(toml.contains("{ checkpoint = \"mark-2\" }"), "{toml}");
    assert!(toml.contains("{ exit = 3 }"), "{toml}");
    assert!(toml.contains("{ press = \"Enter\" }"), "{toml}");
    let hand_end = screen_at(&cast, "listed");
    for i in 0..10 {
        let again = dir.join(format!("again-{i}.cast"));
        let out = Command::new(BIN)
            .arg("record")
            .arg(&scenario)
            .arg("-o")
            .arg(&again)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "run {i}: {}\n{toml}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(screen_at(&again, "listed"), hand_end, "run {i}:\n{toml}");
        assert_eq!(
            screen_at(&again, "end"),
            screen_at(&cast, "end"),
            "run {i}:\n{toml}"
        );
    }
}

#[test]
fn a_crash_is_reported_with_its_signal_and_snapshots_come_as_json_and_png() {
    let a = Agent::new();
    a.ok(&[
        "start",
        "--name",
        "c",
        "--",
        "bash",
        "-c",
        "echo about to crash; read x; kill -SEGV $$",
    ]);
    a.ok(&["wait", "c", "--text", "about to crash"]);
    let json = a.ok(&["snapshot", "c", "--format", "json"]);
    assert!(json["render"].is_object(), "{json}");
    let png = a.work.join("shot.png");
    let shot = a.ok(&["snapshot", "c", "--format", "png", "-o", "shot.png"]);
    assert_eq!(shot["png"], png.display().to_string());
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let resized = a.ok(&["resize", "c", "100x30"]);
    assert_eq!(resized["size"], "100x30", "{resized}");
    assert_eq!(a.run(&["snapshot", "c", "--format", "gif"]).code, 2);
    a.ok(&["press", "c", "Enter"]);
    let crashed = a.ok(&["wait", "c", "--exit"]);
    assert_eq!(crashed["status"]["state"], "exited", "{crashed}");
    assert_eq!(crashed["status"]["code"], 139, "{crashed}");
    assert_eq!(crashed["status"]["signal"], "SIGSEGV", "{crashed}");
    // A step after the exit is refused with what happened, not hung on.
    let late = a.run(&["type", "c", "more"]);
    assert_eq!(late.code, 1, "{late}");
    assert!(
        late.json["error"].as_str().unwrap().contains("exited"),
        "{late}"
    );
    let human = a.command(&["--human", "status", "c"]).output().unwrap();
    let shown = String::from_utf8_lossy(&human.stdout);
    assert!(
        shown.contains("session c: exited (status 139, SIGSEGV)"),
        "{shown}"
    );
    assert!(shown.contains("│about to crash"), "{shown}");
}

#[test]
fn an_idle_daemon_ends_its_sessions_and_exits() {
    let a = Agent::new();
    let started = a.ok(&["start", "--idle", "1s", "--", "cat"]);
    let pid = started["pid"].as_u64().unwrap();
    let daemon = a.daemon_pid().unwrap();
    let since = std::time::Instant::now();
    while a.daemon_pid() == Some(daemon) || Path::new(&format!("/proc/{pid}/environ")).exists() {
        assert!(
            since.elapsed() < std::time::Duration::from_secs(20),
            "the idle daemon or its program is still there"
        );
        std::thread::yield_now();
    }
    assert!(since.elapsed() >= std::time::Duration::from_millis(900));
    assert!(!a.folder().join("daemon.sock").exists());
    let log = std::fs::read_to_string(a.folder().join("daemon.log")).unwrap();
    assert!(log.contains("daemon stopping: idle"), "{log}");
}

/// Mouse, paste and focus commands reach the program encoded for the modes it enabled (the
/// crossterm eventsapp prints what it decoded), a command the modes do not allow fails with
/// the modes that are on, and the saved scenario holds the same steps and records again.
#[test]
fn click_scroll_paste_focus_and_any_step_reach_the_program() {
    let a = Agent::new();
    let app = crate::input::eventsapp().display().to_string();
    a.ok(&[
        "start",
        "--",
        &app,
        "--mouse",
        "1000",
        "--encoding",
        "1006",
        "--paste",
        "--focus",
    ]);
    a.ok(&["wait", "s1", "--idle", "200ms"]);
    a.ok(&["click", "s1", "--at", "3,5"]);
    a.ok(&["wait", "s1", "--text", "mouse Up(Left) row=3 col=5"]);
    let screen_now = a.ok(&["status", "s1"]);
    assert!(
        screen(&screen_now).contains("mouse Down(Left) row=3 col=5"),
        "{screen_now}"
    );
    a.ok(&["click", "s1", "--text", "row=3", "--button", "right"]);
    a.ok(&["wait", "s1", "--text", "mouse Down(Right)"]);
    a.ok(&["scroll", "s1", "down", "--at", "10,20", "--count", "2"]);
    a.ok(&["wait", "s1", "--text", "mouse ScrollDown row=10 col=20"]);
    a.ok(&["paste", "s1", "one\ttwo"]);
    a.ok(&["wait", "s1", "--text", "paste \"one\\ttwo\" (7 bytes)"]);
    a.ok(&["focus", "s1", "off"]);
    a.ok(&["wait", "s1", "--text", "focus out"]);
    a.ok(&["step", "s1", "{ drag = { from = [5, 1], to = [5, 9] } }"]);
    a.ok(&["wait", "s1", "--text", "mouse Up(Left) row=5 col=9"]);
    a.ok(&["snapshot", "s1", "--mark", "events"]);
    // Any-event motion is not on: a hover is refused, naming the modes, and nothing is sent.
    let refused = a.run(&["step", "s1", "{ hover = [2, 2] }"]);
    assert_eq!(refused.code, 1, "{refused}");
    assert!(refused.stdout.contains("1000"), "{refused}");
    let bad = a.run(&["step", "s1", "{ hover = [0, 2] }"]);
    assert_eq!(bad.code, 2, "a position 0 is bad input: {bad}");
    let saved = a.work.join("casts/events");
    a.ok(&["stop", "s1", "--save", "casts/events"]);
    let toml = std::fs::read_to_string(saved.with_extension("toml")).unwrap();
    for step in [
        "{ click = [3, 5] }",
        "{ click = { text = \"row=3\" }, button = \"right\" }",
        "{ scroll = \"down\", at = [10, 20], count = 2 }",
        "{ paste = \"one\\ttwo\" }",
        "{ focus = false }",
        "{ drag = { from = [5, 1], to = [5, 9] } }",
    ] {
        assert!(toml.contains(step), "{step} in:\n{toml}");
    }
    assert!(
        !toml.contains("hover"),
        "a refused step is not saved:\n{toml}"
    );
    rerecord_gives_the_same_checkpoints(&a, &saved, &["events"]);
}

#[test]
fn a_click_names_a_region_of_the_tuicast_toml_where_the_session_started() {
    let a = Agent::new();
    a.work.write(
        "tuicast.toml",
        "[regions]\nlast = { last_row = true }\nready = { match = { regex = \"ready\", offset = [0, 1], width = 1 } }\nnone = { match = { regex = \"no such text\" } }\n",
    );
    let app = crate::input::eventsapp().display().to_string();
    a.ok(&["start", "--", &app, "--mouse", "1000", "--encoding", "1006"]);
    a.ok(&["wait", "s1", "--text", "ready"]);
    // The word "ready" is on row 1: one cell into it is column 2.
    a.ok(&["click", "s1", "--region", "ready"]);
    a.ok(&["wait", "s1", "--text", "mouse Up(Left) row=1 col=2"]);
    // Found afresh on the screen of the moment: the last row is now the release just printed.
    let status = a.ok(&["status", "s1"]);
    let rows: Vec<&str> = screen(&status).lines().collect();
    let last = rows
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .expect("a row with text")
        + 1;
    a.ok(&["click", "s1", "--region", "last"]);
    a.ok(&[
        "wait",
        "s1",
        "--text",
        &format!("mouse Up(Left) row={last} col="),
    ]);
    // A region the file does not have is bad input; one that finds nothing fails the step.
    let unknown = a.run(&["click", "s1", "--region", "nope"]);
    assert_eq!(unknown.code, 2, "{unknown}");
    assert!(unknown.stdout.contains("nope"), "{unknown}");
    let missing = a.run(&[
        "step",
        "s1",
        "{ click = { region = \"none\" }, timeout = \"300ms\" }",
    ]);
    assert_eq!(missing.code, 1, "{missing}");
    assert!(missing.stdout.contains("no such text"), "{missing}");
    a.ok(&["stop", "s1"]);

    // A broken tuicast.toml is bad input at its line and column, and nothing starts.
    let b = Agent::new();
    b.work
        .write("tuicast.toml", "[regions]\nx = { rows = \"nope\" }\n");
    let refused = b.run(&["start", "--", "true"]);
    assert_eq!(refused.code, 2, "{refused}");
    assert!(refused.stdout.contains("tuicast.toml:2:"), "{refused}");
}

/// A program that ends between commands is `exited` in `session list` (the worker's one job
/// loop updates what `list` shows on every path, and while it waits).
#[test]
fn a_session_that_ends_between_commands_is_listed_as_exited() {
    let a = Agent::new();
    a.ok(&[
        "start",
        "--name",
        "short",
        "--",
        "bash",
        "-c",
        "read x; echo bye",
    ]);
    a.ok(&["press", "short", "Enter"]);
    let since = std::time::Instant::now();
    loop {
        let list = a.ok(&["list"]);
        let state = list["sessions"][0]["state"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if state == "exited" {
            break;
        }
        assert!(
            since.elapsed() < std::time::Duration::from_secs(5),
            "still {state} 5 s after the program ended: {list}"
        );
        std::thread::yield_now();
    }
}

/// Issue 23: `stop --save` replaced `Cargo.toml`, `tuicast.toml` or a hand-written scenario
/// without a word. A file that is there already is refused (exit status 2), the session goes
/// on so it can be saved elsewhere, and `--force` writes over it.
#[test]
fn stop_save_writes_over_no_file_without_force() {
    let a = Agent::new();
    let cargo = "[package]\nname = \"mine\"\n";
    std::fs::write(a.work.join("Cargo.toml"), cargo).unwrap();
    std::fs::create_dir(a.work.join("casts")).unwrap();
    std::fs::write(a.work.join("casts/old.cast"), "by hand\n").unwrap();
    a.ok(&["start", "--name", "x", "--", "cat"]);
    for (save, taken) in [
        ("Cargo", "Cargo.toml"),
        ("casts/old.toml", "casts/old.cast"),
    ] {
        let r = a.run(&["stop", "x", "--save", save]);
        assert_eq!(r.code, 2, "{r}");
        let error = r.json["error"].as_str().unwrap_or_default();
        assert!(
            error.contains(taken) && error.contains("exists already") && error.contains("--force"),
            "{r}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(a.work.join("Cargo.toml")).unwrap(),
        cargo
    );
    assert_eq!(
        std::fs::read_to_string(a.work.join("casts/old.cast")).unwrap(),
        "by hand\n"
    );
    // The session is still there; saved elsewhere it is written.
    a.ok(&["type", "x", "hi"]);
    a.ok(&["stop", "x", "--save", "casts/new"]);
    assert!(a.work.join("casts/new.toml").is_file());
    a.ok(&["start", "--name", "y", "--", "cat"]);
    a.ok(&["stop", "y", "--save", "casts/new", "--force"]);
}

/// Issue 41 (left from round 3): `stop --save casts/` wrote the hidden `casts/.cast` and
/// `casts/.toml`. A folder (or a hidden name) is refused, even with `--force`, exit status 2,
/// and the session goes on.
#[test]
fn stop_save_refuses_a_folder_or_a_hidden_name() {
    let a = Agent::new();
    std::fs::create_dir(a.work.join("casts")).unwrap();
    a.ok(&["start", "--name", "x", "--", "cat"]);
    for save in ["casts/", "casts", "casts/.x", "."] {
        for force in [false, true] {
            let mut args = vec!["stop", "x", "--save", save];
            if force {
                args.push("--force");
            }
            let r = a.run(&args);
            assert_eq!(r.code, 2, "{save}: {r}");
            let error = r.json["error"].as_str().unwrap_or_default();
            assert!(
                error.contains("takes the name of the files to write"),
                "{r}"
            );
        }
    }
    let left: Vec<_> = std::fs::read_dir(a.work.join("casts")).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    a.ok(&["stop", "x", "--save", "casts/x"]);
    assert!(a.work.join("casts/x.cast").is_file());
}

/// Issue 23: another user who made `/tmp/tuicast-UID` first disabled this user's sessions for
/// good, and a stale `daemon.pid` whose pid a later process got made every command wait 10 s
/// and fail. The folder is passed over for the next private one, with a warning; the pid file
/// names the daemon by its start time too.
#[test]
fn a_folder_taken_by_another_user_is_passed_over_and_a_reused_pid_is_no_daemon() {
    // A pid file of this very (live) process, with another start time: a reused pid.
    let a = Agent::new();
    std::fs::create_dir(a.folder()).unwrap();
    let me = std::process::id();
    std::fs::write(a.folder().join("daemon.pid"), format!("{me} 1\n")).unwrap();
    let r = a.run(&["list"]);
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(r.json["sessions"], serde_json::json!([]), "{r}");
    let pid = std::fs::read_to_string(a.folder().join("daemon.pid")).unwrap();
    assert_eq!(
        pid.split_whitespace().count(),
        2,
        "the pid and its start time: {pid}"
    );

    let am_root = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"));
    if !am_root {
        assert!(std::env::var_os("CI").is_none(), "root is needed under CI");
        return;
    }
    // No runtime folder; the first two in the temporary folder are another user's.
    let tmp = Dir::new();
    let mut b = Agent::new();
    b.env.push(("XDG_RUNTIME_DIR".into(), String::new()));
    b.env
        .push(("TMPDIR".into(), tmp.path().display().to_string()));
    b.env.push(("TUICAST_SESSION_IDLE".into(), "3s".into()));
    for taken in ["tuicast-0", "tuicast-0-2"] {
        std::fs::create_dir(tmp.join(taken)).unwrap();
        std::os::unix::fs::chown(tmp.join(taken), Some(65534), Some(65534)).unwrap();
    }
    let r = b.run(&["start", "--name", "x", "--", "cat"]);
    assert_eq!(r.code, 0, "{r}");
    assert!(
        r.stderr.contains("warning: the session daemon uses")
            && r.stderr.contains("tuicast-0-3 instead")
            && r.stderr
                .contains("tuicast-0: belongs to another user (uid 65534)"),
        "{r}"
    );
    assert!(tmp.join("tuicast-0-3/daemon.sock").exists());
    b.ok(&["stop", "x"]);
}

/// Issue 23: `session secret` typed any variable of the daemon (even `HOME`), and a program
/// that printed the secret reversed, base64-encoded, in hex or cut short got it into replies
/// and the cast. Only variables the user allowed are typed; the transformations are starred.
#[test]
fn only_allowed_secrets_are_typed_and_their_transformations_never_reach_a_reply_or_the_cast() {
    let secret = "hunter2-Zq9-unlikely-anywhere";
    let mut a = Agent::new();
    a.env.push(("TUICAST_SECRET_TOKEN".into(), secret.into()));
    a.env.push(("PLAIN_TOKEN".into(), secret.into()));
    let script = "read -s -p 'Password: ' p; echo; echo \"$p\" | rev; printf %s \"$p\" | base64; \
                  printf %s \"$p\" | od -An -tx1 | tr -d ' \\n'; echo; echo \"cut ${p:0:16}\"; \
                  echo done; read x";
    let mut replies = vec![a.ok(&["start", "--", "bash", "-c", script])];
    a.ok(&["wait", "s1", "--echo", "off"]);
    for var in ["HOME", "PLAIN_TOKEN"] {
        let r = a.run(&["secret", "s1", "--env", var]);
        assert_eq!(r.code, 2, "{r}");
        assert!(
            r.json["error"]
                .as_str()
                .is_some_and(|e| e.contains(var) && e.contains("TUICAST_SECRET_")),
            "{r}"
        );
    }
    replies.push(a.ok(&["secret", "s1", "--env", "TUICAST_SECRET_TOKEN"]));
    replies.push(a.ok(&["press", "s1", "Enter"]));
    replies.push(a.ok(&["wait", "s1", "--text", "done"]));
    replies.push(a.ok(&["snapshot", "s1", "--mark", "shown"]));
    replies.push(a.ok(&["stop", "s1", "--save", "casts/shown"]));
    let reversed: String = secret.chars().rev().collect();
    let hex: String = secret.bytes().map(|b| format!("{b:02x}")).collect();
    let forms = [
        secret.to_string(),
        reversed,
        "aHVudGVyMi1acTktdW5saWtlbHktYW55d2hlcmU=".to_string(),
        hex,
        secret[..16].to_string(),
    ];
    let cast = std::fs::read_to_string(a.work.join("casts/shown.cast")).unwrap();
    for form in &forms {
        for r in &replies {
            assert!(
                !r.to_string().contains(form.as_str()),
                "{form} in a reply: {r}"
            );
        }
        assert!(!cast.contains(form.as_str()), "{form} in the cast: {cast}");
    }
    assert!(cast.contains("cut ****"), "{cast}");
}

/// Issue 22: a program that draws the secret one character at a time (cursor moves between)
/// fails the session and its cast is deleted, but the `screen` of every reply after it
/// showed the secret in clear. Replies show the screen with the secret's cells starred.
#[test]
fn a_secret_drawn_in_pieces_is_starred_in_every_reply() {
    let secret = "hunter2-Zq9-unlikely-anywhere";
    let mut a = Agent::new();
    a.env.push(("TUICAST_SECRET_TOKEN".into(), secret.into()));
    let script = "read -s -p 'Password: ' p; echo; \
                  for ((i=0; i<${#p}; i++)); do printf '%s\\033[C\\033[D' \"${p:$i:1}\"; sleep 0.01; done; \
                  echo; echo done; read x";
    let mut replies = vec![a.ok(&["start", "--", "bash", "-c", script]).to_string()];
    a.ok(&["wait", "s1", "--echo", "off"]);
    replies.push(
        a.ok(&["secret", "s1", "--env", "TUICAST_SECRET_TOKEN"])
            .to_string(),
    );
    replies.push(a.run(&["press", "s1", "Enter"]).to_string());
    replies.push(a.run(&["wait", "s1", "--text", "done"]).to_string());
    for command in ["status", "snapshot", "inspect"] {
        replies.push(a.run(&[command, "s1"]).to_string());
    }
    replies.push(a.run(&["snapshot", "s1", "--format", "json"]).to_string());
    // Drawn in separate reads of the program's output, the secret fails the session ("drawn
    // in separate writes"); arriving in one read, it is starred in the output itself (which
    // of the two depends on the machine's timing). Either way the screen shows stars: for
    // the session failed as soon as its long prefix (15 of its 29 characters) was drawn, or
    // for all of it.
    let status = a.run(&["status", "s1"]);
    assert!(
        status.json["screen"]
            .as_str()
            .is_some_and(|s| s.contains(&"*".repeat(15))),
        "{status}"
    );
    replies.push(status.to_string());
    replies.push(a.run(&["stop", "s1"]).to_string());
    for r in &replies {
        assert!(
            !r.to_string().contains(secret),
            "the secret in a reply: {r}"
        );
        assert!(
            !r.to_string().contains("hunter2"),
            "a part of it in a reply: {r}"
        );
    }
}

/// Issue 22: a secret whose other forms the redactor knows (here reversed) the program drew
/// one piece at a time, in separate writes, reached the screen and the cast, since only the
/// value itself was looked for on the screen. Every form fails the session now, its cast
/// deleted, and neither the value nor the form is in any reply, error message, log or file
/// (a wait for the secret's own text says so with it starred).
#[test]
fn a_secrets_reversed_form_drawn_in_pieces_fails_the_session_and_is_in_no_message() {
    let secret = "hunter2-Zq9-unlikely-anywhere";
    let reversed: String = secret.chars().rev().collect();
    let (first, second) = reversed.split_at(14);
    let mut a = Agent::new();
    a.env.push(("TUICAST_SECRET_TOKEN".into(), secret.into()));
    // The first half of the reversed value on row 2; after a key, the second half beside it.
    let script = "read -s -p 'Password: ' p; echo; r=$(printf %s \"$p\" | rev); \
                  printf '%s\\033[5;1Hhalf' \"${r:0:14}\"; read -rsn1 k; \
                  printf '\\033[2;15H%s\\033[6;1Hdrawn' \"${r:14}\"; read x";
    let mut replies = vec![a.run(&["start", "--name", "rev", "--", "bash", "-c", script])];
    replies.push(a.run(&["wait", "rev", "--echo", "off"]));
    replies.push(a.run(&["secret", "rev", "--env", "TUICAST_SECRET_TOKEN"]));
    replies.push(a.run(&["press", "rev", "Enter"]));
    let half = a.run(&["wait", "rev", "--text", "half"]);
    assert_eq!(half.code, 0, "{half}");
    assert!(screen(&half.json).contains(first), "{half}");
    replies.push(half);
    // A wait for the secret's own text fails with it starred in its message.
    let waited = a.run(&["wait", "rev", "--text", secret, "--timeout", "200ms"]);
    assert_eq!(waited.code, 1, "{waited}");
    assert!(
        waited.stdout.contains(&"*".repeat(secret.len())),
        "{waited}"
    );
    replies.push(waited);
    replies.push(a.run(&["press", "rev", "a"]));
    let status = a.run(&["status", "rev"]);
    assert_eq!(status.code, 1, "{status}");
    assert_eq!(status.json["status"]["state"], "failed", "{status}");
    let why = status.json["error"].as_str().unwrap_or_default();
    assert!(
        why.contains("TUICAST_SECRET_TOKEN") && why.contains("reversed"),
        "{status}"
    );
    assert!(
        screen(&status.json).contains(&"*".repeat(secret.len())),
        "{status}"
    );
    replies.push(status);
    for command in ["snapshot", "inspect"] {
        replies.push(a.run(&[command, "rev"]));
    }
    replies.push(a.run(&["snapshot", "rev", "--format", "json"]));
    replies.push(a.run(&["wait", "rev", "--text", "drawn"]));
    replies.push(a.run(&["list"]));
    assert!(
        !a.folder().join("sessions/rev.cast").exists(),
        "the cast is deleted"
    );
    let saved = a.run(&["stop", "rev", "--save", "casts/rev"]);
    assert_eq!(saved.code, 1, "{saved}");
    replies.push(saved);
    assert!(!a.work.join("casts/rev.cast").exists());
    assert!(!a.work.join("casts/rev.toml").exists());
    let files: Vec<(PathBuf, String)> = walk(a.runtime.path())
        .into_iter()
        .chain(walk(a.work.path()))
        .filter_map(|p| {
            Some((
                p.clone(),
                String::from_utf8_lossy(&std::fs::read(&p).ok()?).into_owned(),
            ))
        })
        .collect();
    for form in [secret, reversed.as_str(), second] {
        for r in &replies {
            assert!(!r.to_string().contains(form), "{form} in a reply: {r}");
        }
        for (path, text) in &files {
            assert!(!text.contains(form), "{form} in {}: {text}", path.display());
        }
    }
}

/// Issue 22: `type` and `paste` took their text only as an argument (past 128 KiB: "Argument
/// list too long"), and the reply echoed all of it back. `--stdin` reads up to 1 MiB; the
/// reply shows the step cut at 200 characters with its length.
#[test]
fn type_and_paste_read_long_text_from_stdin_and_reply_briefly() {
    let a = Agent::new();
    a.ok(&[
        "start",
        "--",
        "bash",
        "-c",
        "read -n 5 x; echo \"got $x\"; cat > /dev/null",
    ]);
    let r = a.run_with_input(&["type", "s1", "--stdin"], b"hello");
    assert_eq!(r.code, 0, "{r}");
    a.ok(&["wait", "s1", "--text", "got hello"]);
    // The reply says how long the text was, never the text.
    assert_eq!(r.json["step"], "{ type = (5 characters) }", "{r}");
    assert_eq!(r.json["text_length"], 5, "{r}");
    let big = "a".repeat(300_000);
    for command in ["type", "paste"] {
        let r = a.run_with_input(&[command, "s1", "--stdin"], big.as_bytes());
        assert_eq!(r.code, 0, "{r}");
        assert_eq!(
            r.json["step"],
            format!("{{ {command} = (300000 characters) }}"),
            "{r}"
        );
        assert_eq!(r.json["text_length"], 300_000, "{r}");
        assert!(
            r.stdout.len() < 4000,
            "the reply is short: {} bytes",
            r.stdout.len()
        );
    }
    let r = a.ok(&["type", "s1", "--", "a password typed as text"]);
    assert_eq!(r["step"], "{ type = (24 characters) }", "{r}");
    let r = a.ok(&["step", "s1", "{ paste = \"x\", timeout = \"5s\" }"]);
    assert_eq!(
        r["step"], "{ paste = (1 character), timeout = \"5000ms\" }",
        "{r}"
    );
    let too_much = vec![b'a'; (1 << 20) + 1];
    let r = a.run_with_input(&["paste", "s1", "--stdin"], &too_much);
    assert_eq!(r.code, 2, "{r}");
    let error = r.json["error"].as_str().unwrap_or_default();
    assert!(error.contains("more than 1048576 bytes"), "{r}");
    let r = a.run_with_input(&["type", "s1", "--stdin"], b"\xff\xfe");
    assert_eq!(r.code, 2, "{r}");
    let error = r.json["error"].as_str().unwrap_or_default();
    assert!(error.contains("not UTF-8"), "{r}");
    a.ok(&["stop", "s1"]);
}

/// Issue 23: concurrent `session start` calls with one name started two programs (one deleted
/// the other's cast), and 90 of 90 concurrent starts got a session despite the limit of 64:
/// both were checked before the program started and counted only once it ran.
#[test]
fn concurrent_starts_keep_names_unique_and_the_session_limit() {
    let a = Agent::new();
    a.ok(&["list"]);
    let starts = |args: &[&str], n: usize| -> Vec<Reply> {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..n).map(|_| s.spawn(|| a.run(args))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    };
    let same = starts(&["start", "--name", "same", "--", "cat"], 8);
    let started = same.iter().filter(|r| r.code == 0).count();
    assert_eq!(
        started,
        1,
        "{}",
        same.iter().map(|r| r.to_string()).collect::<String>()
    );
    assert!(same
        .iter()
        .filter(|r| r.code != 0)
        .all(|r| r.code == 2 && r.stdout.contains("running already")));
    let many = starts(&["start", "--", "cat"], 90);
    let started = many.iter().filter(|r| r.code == 0).count();
    assert_eq!(started, 63, "63 more beside \"same\"");
    assert!(many
        .iter()
        .filter(|r| r.code != 0)
        .all(|r| r.code == 2 && r.stdout.contains("64 sessions are running already")));
    assert_eq!(a.ok(&["list"])["sessions"].as_array().unwrap().len(), 64);
}

/// Issue 23: an idle 4000x1000 session cost ~570 MB, and 64 of them ~36 GB. A session's
/// screen has at most a million cells, and all of one daemon's at most two million, at the
/// start and at a resize; past either the command is bad input (exit status 2), naming the
/// size and the limit.
#[test]
fn session_screens_are_bounded_one_by_one_and_in_all() {
    let a = Agent::new();
    let r = a.run(&["start", "--size", "4000x1000", "--", "cat"]);
    assert_eq!(r.code, 2, "{r}");
    assert!(
        r.stdout
            .contains("size 4000x1000 is 4000000 cells, more than the 1000000"),
        "{r}"
    );
    a.ok(&["start", "--name", "big", "--size", "1000x1000", "--", "cat"]);
    a.ok(&["start", "--name", "small", "--", "cat"]);
    // Up to the limit in all: two million cells.
    a.ok(&["step", "small", "{ resize = \"1000x1000\" }"]);
    let r = a.run(&["start", "--name", "third", "--", "cat"]);
    assert_eq!(r.code, 2, "{r}");
    assert!(
        r.stdout
            .contains("2001920 cells in all, more than the 2000000 one daemon holds"),
        "{r}"
    );
    let r = a.run(&["step", "small", "{ resize = \"1000x1001\" }"]);
    assert_eq!(r.code, 2, "{r}");
    assert!(
        r.stdout.contains("1001000 cells, more than the 1000000"),
        "{r}"
    );
    // A smaller resize is made, and a stopped session's cells are free again.
    a.ok(&["step", "small", "{ resize = \"100x30\" }"]);
    a.ok(&["start", "--name", "third", "--", "cat"]);
    a.ok(&["stop", "big"]);
    a.ok(&["step", "small", "{ resize = \"1000x1000\" }"]);
}

/// Issue 25: the daemon's wire format is typed (`tuicast::daemon::protocol`). `stop`'s reply
/// said `exit` was the program's status, but the command's status overwrote it: the program's
/// status is `status.code` now. A request the daemon does not know is named, escaped.
#[test]
fn replies_are_typed_requests_are_checked_and_stop_gives_the_programs_status() {
    use std::io::{BufRead, Write};
    let a = Agent::new();
    a.ok(&["start", "--name", "four", "--", "sh", "-c", "exit 4"]);
    let exited = a.ok(&["wait", "four", "--exit", "4"]);
    let stopped = a.ok(&["stop", "four"]);
    assert_eq!(stopped["stopped"], true, "{stopped}");
    assert_eq!(stopped["status"]["code"], 4, "{stopped}");
    assert_eq!(stopped["status"]["state"], "stopped", "{stopped}");
    assert_eq!(stopped["exit"], 0, "{stopped}");
    for reply in [&exited, &stopped, &a.ok(&["list"])] {
        let typed: tuicast::daemon::protocol::Reply =
            serde_json::from_value(reply.clone()).unwrap();
        assert_eq!(
            &serde_json::to_value(&typed).unwrap(),
            reply,
            "read back as it was"
        );
    }

    // Requests written by hand on the daemon's socket.
    let ask = |line: &str| -> Value {
        let mut s = std::os::unix::net::UnixStream::connect(a.folder().join("daemon.sock"))
            .expect("the daemon listens");
        s.write_all(format!("{line}\n").as_bytes()).unwrap();
        let mut answer = String::new();
        std::io::BufReader::new(s).read_line(&mut answer).unwrap();
        serde_json::from_str(&answer).unwrap()
    };
    let none = ask("{}");
    assert_eq!(none["error"], "the request has no \"op\"", "{none}");
    assert_eq!(none["exit"], 2);
    let unknown = ask(r#"{"op": "frob\u001b[31m"}"#);
    let message = unknown["error"].as_str().unwrap();
    assert!(message.contains("unknown variant"), "{unknown}");
    assert!(message.contains("frob\\e[31m"), "escaped: {unknown}");
    assert!(!message.contains('\x1b'), "{unknown}");
    let no_id = ask(r#"{"op": "status"}"#);
    assert!(
        no_id["error"]
            .as_str()
            .unwrap()
            .contains("missing field `id`"),
        "{no_id}"
    );
    assert_eq!(no_id["exit"], 2);
}

/// Issue 22's reply bugs: a failure of any kind is one JSON object (a regex that does not
/// compile, an unknown prompt kind, a size of 0x0, a usage error), `snapshot -o` writes every
/// format, and the programs get the user's umask, not the daemon's 077.
#[test]
fn bad_input_is_a_json_reply_snapshots_write_files_and_programs_get_the_users_umask() {
    let a = Agent::new();
    for args in [
        &["wait", "x", "--regex", "("][..],
        &["wait", "x", "--prompt", "bogus"],
        &["resize", "x", "0x0"],
        &["wait"],
        &["frobnicate"],
    ] {
        let r = a.run(args);
        assert_eq!(r.code, 2, "{args:?}: {r}");
        assert_eq!(r.json["exit"], 2, "{args:?}: {r}");
        assert!(
            r.json["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{args:?}: {r}"
        );
    }

    // The first command starts the daemon: with the umask of this shell.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("umask 027 && exec \"$0\" \"$@\"")
        .arg(BIN)
        .args(["session", "start", "--name", "u", "--", "sh", "-c"])
        .arg("echo mask=$(umask); touch made; ls -l made | cut -c1-10; read x")
        .current_dir(a.work.path())
        .env("XDG_RUNTIME_DIR", a.runtime.path())
        .env("TUICAST_SESSION_IDLE", "120s")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", Reply::of(out));
    let shown = a.ok(&["wait", "u", "--text=-rw-"]);
    let text = screen(&shown);
    assert!(text.contains("mask=0027"), "{text}");
    assert!(text.contains("-rw-r-----"), "{text}");
    // The daemon's own files stay private.
    use std::os::unix::fs::PermissionsExt;
    let log = a.folder().join("daemon.log");
    assert_eq!(
        std::fs::metadata(&log).unwrap().permissions().mode() & 0o777,
        0o600
    );

    for (format, check) in [("text", "mask=0027"), ("json", "\"rows\": [")] {
        let file = a.work.join(format!("screen.{format}"));
        let r = a.ok(&[
            "snapshot",
            "u",
            "--format",
            format,
            "-o",
            file.to_str().unwrap(),
        ]);
        assert_eq!(r["output"], file.display().to_string(), "{r}");
        let written = std::fs::read_to_string(&file).unwrap();
        assert!(written.contains(check), "{format}: {written}");
    }
    a.ok(&["stop", "u"]);
}

/// Issue 22: a live session's cast grew without bound (`yes`: 73 MB in 4 s). `start
/// --max-cast SIZE` (64 MiB when not given) bounds it: past it the session fails with one
/// JSON error (`error`, `exit` 1), the cast stops growing, and nothing can be saved.
#[test]
fn a_session_that_floods_its_terminal_stops_at_its_cast_limit() {
    let a = Agent::new();
    for (size, why) in [("10", "less than the 4096"), ("1XB", "unknown unit")] {
        let r = a.run(&["start", "--max-cast", size, "--", "yes"]);
        assert_eq!(r.code, 2, "{r}");
        assert_eq!(r.json["exit"], 2, "{r}");
        assert!(
            r.json["error"].as_str().is_some_and(|e| e.contains(why)),
            "{r}"
        );
    }
    a.ok(&[
        "start",
        "--name",
        "flood",
        "--max-cast",
        "1MiB",
        "--",
        "yes",
        "a flood of output",
    ]);
    // The wait ends when the session fails (or, when the limit came first, says it failed).
    let failed = a.run(&["wait", "flood", "--text", "never shown", "--timeout", "60s"]);
    assert_eq!(failed.code, 1, "{failed}");
    assert_eq!(failed.json["exit"], 1, "{failed}");
    let error = failed.json["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("the cast passed its limit of 1 MiB (1048576 bytes)"),
        "{failed}"
    );
    let cast = a.folder().join("sessions/flood.cast");
    let size = std::fs::metadata(&cast).unwrap().len();
    // At most one read of output (64 KiB, escaped) past the limit.
    assert!(
        size > 1 << 20 && size < (1 << 20) + (128 << 10),
        "the cast is {size} bytes"
    );
    for _ in 0..3 {
        let status = a.run(&["status", "flood"]);
        assert_eq!(status.code, 1, "{status}");
        assert_eq!(status.json["status"]["state"], "failed", "{status}");
        assert!(
            status.json["error"]
                .as_str()
                .is_some_and(|e| e.contains("passed its limit of 1 MiB")),
            "{status}"
        );
    }
    assert_eq!(
        std::fs::metadata(&cast).unwrap().len(),
        size,
        "the cast stopped growing"
    );
    let saved = a.run(&["stop", "flood", "--save", "casts/flood"]);
    assert_eq!(saved.code, 1, "{saved}");
    assert!(!a.work.join("casts/flood.cast").exists());
    assert!(!cast.exists());
}

/// Issue 22: the daemon gave every program the umask of the client that happened to start
/// it. Each `start` sends its client's umask, and its program gets that one.
#[test]
fn each_session_gets_the_umask_of_the_client_that_started_it() {
    let a = Agent::new();
    for (mask, mode) in [
        ("027", "-rw-r-----"),
        ("002", "-rw-rw-r--"),
        ("077", "-rw-------"),
        ("022", "-rw-r--r--"),
    ] {
        let name = format!("u{mask}");
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("umask {mask} && exec \"$0\" \"$@\""))
            .arg(BIN)
            .args(["session", "start", "--name", &name, "--", "sh", "-c"])
            .arg(format!(
                "echo mask=$(umask); touch made-{mask}; ls -l made-{mask} | cut -c1-10; read x"
            ))
            .current_dir(a.work.path())
            .env("XDG_RUNTIME_DIR", a.runtime.path())
            .env("TUICAST_SESSION_IDLE", "120s")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", Reply::of(out));
        let shown = a.ok(&["wait", &name, "--text=-rw"]);
        let text = screen(&shown);
        assert!(text.contains(&format!("mask=0{mask}")), "{mask}: {text}");
        assert!(text.contains(mode), "{mask}: {text}");
    }
    // The daemon's own files stay private whatever its first client's umask.
    use std::os::unix::fs::PermissionsExt;
    let log = a.folder().join("daemon.log");
    assert_eq!(
        std::fs::metadata(&log).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

/// Issue 22: an exited session's name stayed taken until `stop`, and `stop`'s reply said
/// `exit: 0` for a program that exited 3. A new `start` takes the name of a session whose
/// program has exited (that session ends, unsaved); `exit` is always the tuicast command's
/// exit status, and the program's is `status.code`.
#[test]
fn an_exited_sessions_name_is_taken_again_and_stop_says_the_programs_status() {
    let a = Agent::new();
    a.ok(&["start", "--name", "job", "--", "sh", "-c", "exit 3"]);
    let exited = a.ok(&["wait", "job", "--exit", "3"]);
    assert_eq!(exited["status"]["state"], "exited", "{exited}");
    assert_eq!(exited["status"]["code"], 3, "{exited}");
    let stopped = a.run(&["stop", "job"]);
    assert_eq!(stopped.code, 0, "{stopped}");
    assert_eq!(stopped.json["exit"], 0, "{stopped}");
    assert_eq!(stopped.json["status"]["code"], 3, "{stopped}");
    assert_eq!(stopped.json["status"]["state"], "stopped", "{stopped}");

    // Exited and not stopped: the name is free for the next start.
    a.ok(&["start", "--name", "job", "--", "sh", "-c", "exit 5"]);
    a.ok(&["wait", "job", "--exit", "5"]);
    let again = a.ok(&[
        "start",
        "--name",
        "job",
        "--",
        "sh",
        "-c",
        "echo second; read x; exit 7",
    ]);
    assert_eq!(again["id"], "job", "{again}");
    a.ok(&["wait", "job", "--text", "second"]);
    let list = a.ok(&["list"]);
    let sessions = list["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{list}");
    assert!(
        sessions[0]["command"]
            .as_str()
            .is_some_and(|c| c.contains("second")),
        "{list}"
    );
    // A session whose program runs keeps its name.
    let taken = a.run(&["start", "--name", "job", "--", "true"]);
    assert_eq!(taken.code, 2, "{taken}");
    assert!(taken.stdout.contains("running already"), "{taken}");
    a.ok(&["press", "job", "Enter"]);
    a.ok(&["wait", "job", "--exit", "7"]);
    let stopped = a.run(&["stop", "job", "--save", "casts/job"]);
    assert_eq!(stopped.code, 0, "{stopped}");
    assert_eq!(stopped.json["exit"], 0, "{stopped}");
    assert_eq!(stopped.json["status"]["code"], 7, "{stopped}");
    // The cast saved is the new session's alone.
    let cast = std::fs::read_to_string(a.work.join("casts/job.cast")).unwrap();
    assert!(cast.contains("second"), "{cast}");
    assert!(cast.contains("\"x\", \"7\""), "{cast}");
}

/// Issue 22: a session of `./menu.sh` saved as `casts/NAME` wrote `command = ["./menu.sh"]`,
/// which a scenario reads from `casts/` ("`casts/./menu.sh` is not an executable file"), and
/// an absolute `cwd`. The program and the folder are written relative to the scenario now, so
/// the saved session records again, live, twice the same.
#[test]
fn a_saved_session_of_a_relative_program_records_again_from_its_scenario() {
    use std::os::unix::fs::PermissionsExt;
    let a = Agent::new();
    let script = a.work.write(
        "menu.sh",
        "#!/bin/sh\nprintf 'pick one: '\nread answer\necho \"got $answer\"\nread end\n",
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    a.ok(&[
        "start",
        "--name",
        "menu",
        "--size",
        "40x6",
        "--",
        "./menu.sh",
    ]);
    a.ok(&["wait", "menu", "--text", "pick one:"]);
    a.ok(&["type", "menu", "blue"]);
    a.ok(&["press", "menu", "Enter"]);
    a.ok(&["wait", "menu", "--text", "got blue"]);
    a.ok(&["snapshot", "menu", "--mark", "picked"]);
    a.ok(&["press", "menu", "Enter"]);
    a.ok(&["wait", "menu", "--exit", "0"]);
    a.ok(&["stop", "menu", "--save", "casts/menu"]);
    let toml = std::fs::read_to_string(a.work.join("casts/menu.toml")).unwrap();
    assert!(toml.contains("command = [\"../menu.sh\"]"), "{toml}");
    assert!(toml.contains("cwd = \"..\""), "{toml}");
    assert!(
        !toml.contains(&a.work.path().display().to_string()),
        "no absolute path: {toml}"
    );
    for args in [
        &["test", "--live", "--update"][..],
        &["test", "--live"],
        &["test", "--live"],
        &["test", "--live", "--repeat", "3"],
        &["test"],
    ] {
        let out = crate::util::Tuicast::new()
            .args(args)
            .current_dir(a.work.path())
            .run();
        assert!(out.succeeded(), "tuicast {args:?}: {out}");
        assert!(out.stdout().contains("menu::picked"), "{out}");
    }
}

/// `tuicast test` in `dir`, with `args`: it must pass and run checkpoint `name`.
fn test_passes(dir: &Path, args: &[&str], name: &str) {
    let out = crate::util::Tuicast::new()
        .args(args)
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        .clean_update_env()
        .run();
    assert!(out.succeeded(), "tuicast {args:?}: {out}");
    assert!(out.stdout().contains(name), "{out}");
}

/// Issue 22: a saved session that clicked named regions failed even to replay elsewhere (`no
/// region "third"`): the regions were the `tuicast.toml`'s where the session ran. The saved
/// scenario carries the regions its steps name, as they were written there, so it replays
/// and records again in a folder without them.
#[test]
fn a_saved_session_that_clicked_a_region_carries_it_and_records_again_elsewhere() {
    let a = Agent::new();
    a.work.write(
        "tuicast.toml",
        "[regions]\nready = { match = { regex = \"ready\", offset = [0, 1], width = 1 } }\n\
         unused = { last_row = true }\n\
         [regions.third]\nrows = \"1\"\ncols = \"3\"\n",
    );
    let app = crate::input::eventsapp().display().to_string();
    a.ok(&[
        "start",
        "--name",
        "ev",
        "--size",
        "60x10",
        "--",
        &app,
        "--mouse",
        "1000",
        "--encoding",
        "1006",
    ]);
    a.ok(&["wait", "ev", "--text", "ready"]);
    a.ok(&["click", "ev", "--region", "ready"]);
    a.ok(&["wait", "ev", "--text", "mouse Up(Left) row=1 col=2"]);
    a.ok(&["click", "ev", "--region", "third"]);
    a.ok(&["wait", "ev", "--text", "mouse Up(Left) row=1 col=3"]);
    a.ok(&["snapshot", "ev", "--mark", "clicked"]);
    a.ok(&["stop", "ev", "--save", "casts/clicks"]);
    let toml = std::fs::read_to_string(a.work.join("casts/clicks.toml")).unwrap();
    assert!(toml.contains("\n[regions]\n"), "{toml}");
    assert!(
        toml.contains("ready = { match = { offset = [0, 1], regex = \"ready\", width = 1 } }"),
        "{toml}"
    );
    assert!(
        toml.contains("third = { cols = \"3\", rows = \"1\" }"),
        "{toml}"
    );
    assert!(!toml.contains("unused"), "only the regions it used: {toml}");

    // Elsewhere: no tuicast.toml, no regions but the scenario's own.
    let elsewhere = Dir::new();
    for ext in ["toml", "cast"] {
        std::fs::create_dir_all(elsewhere.join("casts")).unwrap();
        std::fs::copy(
            a.work.join(format!("casts/clicks.{ext}")),
            elsewhere.join(format!("casts/clicks.{ext}")),
        )
        .unwrap();
    }
    test_passes(elsewhere.path(), &["test", "--update"], "clicks::clicked");
    test_passes(elsewhere.path(), &["test", "--live"], "clicks::clicked");
    test_passes(elsewhere.path(), &["test", "--live"], "clicks::clicked");
    test_passes(
        elsewhere.path(),
        &["test", "--live", "--repeat", "3"],
        "clicks::clicked",
    );
}

/// Copies `names` (files under `from`, with their folders) into a new folder: a fresh copy of a
/// project, without what else `from` holds (its `tuicast.toml`, its goldens).
fn fresh_copy(from: &Path, names: &[&str]) -> Dir {
    let to = Dir::new();
    for name in names {
        let dest = to.join(name);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(from.join(name), &dest).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    to
}

/// Issue 22 point 6: dialog's menu driven by clicks on regions named in `tuicast.toml`, saved,
/// then replayed and recorded again in a fresh copy of the project that has no `tuicast.toml`:
/// the scenario carries the regions it clicked.
#[test]
fn a_dialog_menu_clicked_by_named_regions_is_saved_and_replays_in_a_fresh_copy() {
    use std::os::unix::fs::PermissionsExt;
    if !crate::util::have("dialog") {
        assert!(std::env::var_os("CI").is_none(), "CI has dialog");
        eprintln!("skipped: no dialog");
        return;
    }
    let a = Agent::new();
    a.work.write(
        "tuicast.toml",
        "[regions]\ncherry = { match = { regex = \"Cherry\" } }\n\
         ok = { match = { regex = \"<  OK  >\", offset = [0, 3], width = 2 } }\n",
    );
    let script = a.work.write(
        "menu.sh",
        "#!/bin/sh\ndialog --menu 'Pick a fruit:' 12 40 4 a Apple b Banana c Cherry 2>choice\n\
         clear\necho \"picked $(cat choice)\"\nread end\n",
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    a.ok(&[
        "start",
        "--name",
        "menu",
        "--size",
        "60x16",
        "--",
        "./menu.sh",
    ]);
    a.ok(&["wait", "menu", "--text", "Cherry"]);
    let before = a.ok(&["snapshot", "menu", "--mark", "menu"]);
    a.ok(&["click", "menu", "--region", "cherry"]);
    // The highlight moves once dialog has the click (ncurses holds a click back for its
    // double-click interval, and a second click in it is taken for one): wait for the change
    // from the screen before the click.
    let hash = before["screen_hash"].as_str().unwrap().to_string();
    a.ok(&["wait", "menu", "--changed", &hash]);
    let moved = a.ok(&["snapshot", "menu", "--mark", "cherry"]);
    assert_eq!(moved["prompt"]["evidence"], "c  Cherry", "{moved}");
    a.ok(&["click", "menu", "--region", "ok"]);
    a.ok(&["wait", "menu", "--text", "picked c"]);
    a.ok(&["snapshot", "menu", "--mark", "picked"]);
    a.ok(&["press", "menu", "Enter"]);
    a.ok(&["wait", "menu", "--exit", "0"]);
    a.ok(&["stop", "menu", "--save", "casts/menu"]);
    let toml = std::fs::read_to_string(a.work.join("casts/menu.toml")).unwrap();
    assert!(toml.contains("click = { region = \"cherry\" }"), "{toml}");
    assert!(
        toml.contains("cherry = { match = { regex = \"Cherry\" } }"),
        "{toml}"
    );
    assert!(toml.contains("command = [\"../menu.sh\"]"), "{toml}");

    let fresh = fresh_copy(
        a.work.path(),
        &["menu.sh", "casts/menu.toml", "casts/menu.cast"],
    );
    std::fs::set_permissions(
        fresh.join("menu.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    for args in [
        &["test", "--update"][..],
        &["test"],
        &["test", "--live"],
        &["test", "--live"],
        &["test", "--live", "--repeat", "3"],
    ] {
        let out = crate::util::Tuicast::new()
            .args(args)
            .current_dir(fresh.path())
            .clean_update_env()
            .run();
        assert!(out.succeeded(), "tuicast {args:?}: {out}");
        for checkpoint in ["menu::menu", "menu::cherry", "menu::picked"] {
            assert!(out.stdout().contains(checkpoint), "{checkpoint}: {out}");
        }
    }
    let picked = std::fs::read_to_string(fresh.join("snapshots/menu/picked.txt")).unwrap();
    assert!(picked.contains("picked c"), "{picked}");
}

/// Issue 22 point 6: the todoapp of `tests/apps/` started from its development build in a
/// fresh copy of its package, driven, saved as a `bin = "todoapp"` scenario, then replayed and
/// recorded again there (`tuicast test` builds the binary with cargo, as a user's run does).
#[test]
fn a_todoapp_session_is_saved_and_replays_and_records_again_in_a_fresh_copy() {
    let app = crate::util::root().join("tests/apps/todoapp");
    let fresh = fresh_copy(&app, &["Cargo.toml", "src/main.rs", "tuicast.toml"]);
    // A package of its own (outside the workspace), with the workspace's locked versions.
    let manifest = std::fs::read_to_string(fresh.join("Cargo.toml")).unwrap();
    let manifest = manifest[..manifest.find("[dev-dependencies]").unwrap()].to_string();
    std::fs::write(fresh.join("Cargo.toml"), format!("{manifest}[workspace]\n")).unwrap();
    std::fs::copy(
        crate::util::root().join("Cargo.lock"),
        fresh.join("Cargo.lock"),
    )
    .unwrap();
    // Its own target folder, kept between runs so that only the first builds the crates.
    let target = crate::util::root().join("target/fresh-todoapp");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(&cargo)
        .args(["build", "--quiet", "--offline"])
        .current_dir(fresh.path())
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let program = target.join("debug/todoapp").display().to_string();
    let mut a = Agent::new();
    a.work = fresh;
    a.env
        .push(("CARGO_TARGET_DIR".into(), target.display().to_string()));
    a.ok(&["start", "--name", "todo", "--", &program]);
    a.ok(&["wait", "todo", "--text", "4 todos"]);
    a.ok(&["press", "todo", "j"]);
    a.ok(&["wait", "todo", "--text", "> Write the release notes"]);
    a.ok(&["snapshot", "todo", "--mark", "moved"]);
    a.ok(&["press", "todo", "a"]);
    a.ok(&["wait", "todo", "--text", "New todo"]);
    a.ok(&["type", "todo", "Call mom"]);
    a.ok(&["wait", "todo", "--text", "Call mom"]);
    a.ok(&["press", "todo", "Enter"]);
    a.ok(&["wait", "todo", "--text", "5 todos"]);
    a.ok(&["snapshot", "todo", "--mark", "added"]);
    a.ok(&["press", "todo", "q"]);
    a.ok(&["wait", "todo", "--exit", "0"]);
    a.ok(&["stop", "todo", "--save", "casts/todo"]);
    let saved = a.work.join("casts/todo.toml");
    let toml = std::fs::read_to_string(&saved).unwrap();
    assert!(toml.contains("\nbin = \"todoapp\"\n"), "{toml}");
    assert!(
        !toml.contains("fresh-todoapp"),
        "no path of the build: {toml}"
    );
    // The status bar's clock ticks: mask it, as the todoapp's own scenarios do.
    std::fs::write(
        &saved,
        format!("{toml}\n[check]\nmask = [{{ regex = \"\\\\d\\\\d:\\\\d\\\\d:\\\\d\\\\d\" }}]\n"),
    )
    .unwrap();
    for args in [
        &["test", "--update"][..],
        &["test"],
        &["test", "--live"],
        &["test", "--live"],
        &["test", "--live", "--repeat", "3"],
    ] {
        let out = crate::util::Tuicast::new()
            .args(args)
            .current_dir(a.work.path())
            .env("CARGO_TARGET_DIR", &target)
            .clean_update_env()
            .run();
        assert!(out.succeeded(), "tuicast {args:?}: {out}");
        for checkpoint in ["todo::moved", "todo::added"] {
            assert!(out.stdout().contains(checkpoint), "{checkpoint}: {out}");
        }
    }
    let added = std::fs::read_to_string(a.work.join("snapshots/todo/added.txt")).unwrap();
    assert!(added.contains("Call mom"), "{added}");
}

/// Issue 22: a session of the package's own binary (`./target/debug/NAME`) saved an absolute
/// path, which records a stale build, and only on this machine. It saves `bin = "NAME"`: the
/// recording builds today's code, wherever the checkout is.
#[test]
fn a_saved_session_of_the_packages_own_binary_is_a_bin_scenario() {
    let a = Agent::new();
    a.work.write(
        "Cargo.toml",
        "[package]\nname = \"greeter\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    a.work.write(
        "src/main.rs",
        "use std::io::{BufRead, Write};\n\
         fn main() {\n\
             print!(\"name? \");\n\
             std::io::stdout().flush().unwrap();\n\
             let mut lines = std::io::stdin().lock().lines();\n\
             let name = lines.next().unwrap().unwrap();\n\
             println!(\"hello {name}\");\n\
             let _ = lines.next();\n\
         }\n",
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(cargo)
        .args(["build", "--quiet", "--offline"])
        .current_dir(a.work.path())
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    a.ok(&[
        "start",
        "--name",
        "g",
        "--size",
        "40x6",
        "--",
        "./target/debug/greeter",
    ]);
    a.ok(&["wait", "g", "--text", "name?"]);
    a.ok(&["type", "g", "ada"]);
    a.ok(&["press", "g", "Enter"]);
    a.ok(&["wait", "g", "--text", "hello ada"]);
    a.ok(&["snapshot", "g", "--mark", "greeted"]);
    a.ok(&["press", "g", "Enter"]);
    a.ok(&["wait", "g", "--exit", "0"]);
    a.ok(&["stop", "g", "--save", "casts/greet"]);
    let toml = std::fs::read_to_string(a.work.join("casts/greet.toml")).unwrap();
    assert!(toml.contains("\nbin = \"greeter\"\n"), "{toml}");
    assert!(toml.contains("\ncwd = \"..\"\n"), "{toml}");
    assert!(!toml.contains("command ="), "{toml}");
    assert!(!toml.contains("target/debug"), "{toml}");
    assert!(
        !toml.contains(&a.work.path().display().to_string()),
        "no absolute path: {toml}"
    );
    test_passes(
        a.work.path(),
        &["test", "--live", "--update"],
        "greet::greeted",
    );
    test_passes(a.work.path(), &["test", "--live"], "greet::greeted");
    test_passes(
        a.work.path(),
        &["test", "--live", "--repeat", "3"],
        "greet::greeted",
    );
}

/// Issue 22: the reply to an input command showed the screen from before the program had
/// answered the input. It shows the settled answer now (settled as a checkpoint is, within
/// half a second), with how long the answer took. (A program that sleeps longer than the
/// settle period before it answers is waiting on a timer, as for checkpoints: wait for its
/// answer.)
#[test]
fn the_reply_to_input_shows_the_programs_answer() {
    let a = Agent::new();
    a.ok(&[
        "start",
        "--name",
        "slow",
        "--",
        "bash",
        "-c",
        "while true; do IFS= read -rsn1 k; sleep 0.02; echo \"answered $k\"; done",
    ]);
    a.ok(&["wait", "slow", "--echo", "off"]);
    for key in ["a", "b", "c"] {
        let r = a.ok(&["press", "slow", key]);
        assert!(screen(&r).contains(&format!("answered {key}")), "{r}");
        assert!(r["settled_ms"].as_u64().is_some_and(|ms| ms >= 15), "{r}");
    }
    let r = a.ok(&["type", "slow", "d"]);
    assert!(screen(&r).contains("answered d"), "{r}");
    a.ok(&["stop", "slow"]);
}

#[test]
#[cfg(feature = "png")]
fn a_session_snapshot_draws_cjk_with_the_system_fonts_as_a_screenshot_does() {
    if !crate::fonts::prerequisites() {
        return;
    }
    let a = Agent::new();
    a.ok(&[
        "start",
        "--name",
        "cjk",
        "--",
        "bash",
        "-c",
        "printf '日本語\\n'; read x",
    ]);
    a.ok(&["wait", "cjk", "--text", "日本語"]);
    a.ok(&["snapshot", "cjk", "--format", "png", "-o", "cjk.png"]);
    let bytes = std::fs::read(a.work.join("cjk.png")).unwrap();
    let fonts = tuicast::render::png::png_fonts(&bytes).unwrap_or_default();
    assert!(fonts.contains("(system: "), "fonts recorded:\n{fonts}");
    a.ok(&["press", "cjk", "Enter"]);
    a.ok(&["wait", "cjk", "--exit", "0"]);
}

/// Issue 22 point 3: `wait --idle` is "nothing changed and nothing is being written". `yes`
/// keeps its screen looking the same while it floods: the wait times out, says the program
/// kept writing, and the reply's `idle_ms` is honest (a few ms, not the wait's period).
#[test]
fn wait_idle_fails_while_yes_floods_and_holds_when_the_program_is_silent() {
    let a = Agent::new();
    a.ok(&["start", "--name", "flood", "--", "yes"]);
    let r = a.run(&["wait", "flood", "--idle", "300ms", "--timeout", "1s"]);
    assert_eq!(r.code, 1, "{r}");
    let error = r.json["error"].as_str().unwrap_or("");
    assert!(error.contains("the program kept writing"), "{r}");
    assert!(r.json["idle_ms"].as_u64().unwrap() < 300, "{r}");
    assert!(r.json.get("matched").is_none(), "{r}");
    // (Its cast may have passed the 64 MiB limit by now: the stop says so, and ends it.)
    a.run(&["stop", "flood"]);

    a.ok(&[
        "start",
        "--name",
        "quiet",
        "--",
        "sh",
        "-c",
        "printf 'ready> '; read x",
    ]);
    a.ok(&["wait", "quiet", "--text", "ready>"]);
    let r = a.ok(&["wait", "quiet", "--idle", "200ms"]);
    assert_eq!(r["matched"]["wait"], "silent", "{r}");
    assert!(r["matched"]["idle_ms"].as_u64().unwrap() >= 200, "{r}");
    assert!(r["idle_ms"].as_u64().unwrap() >= 200, "{r}");
    assert_eq!(r["step"], "{ wait = { silent = \"200ms\" } }", "{r}");
    a.ok(&["stop", "quiet"]);
}

/// Every reply carries `screen_hash`; `wait --changed HASH` waits until the screen is another
/// and replies the new hash with the cells that changed since the screen of HASH.
#[test]
fn wait_changed_replies_the_new_hash_and_the_cells_that_changed() {
    let a = Agent::new();
    a.ok(&[
        "start",
        "--name",
        "h",
        "--",
        "sh",
        "-c",
        "printf 'name? '; read x; echo \"hello $x\"; read y",
    ]);
    let asked = a.ok(&["wait", "h", "--text", "name?"]);
    let hash = asked["screen_hash"].as_str().unwrap().to_string();
    assert_eq!(hash.len(), 16, "{asked}");
    // The same screen, the same hash.
    assert_eq!(a.ok(&["status", "h"])["screen_hash"], hash.as_str());
    // Nothing changes: the wait times out.
    let r = a.run(&["wait", "h", "--changed", &hash, "--timeout", "300ms"]);
    assert_eq!(r.code, 1, "{r}");
    let typed = a.ok(&["type", "h", "bob"]);
    assert_ne!(typed["screen_hash"], hash.as_str(), "{typed}");
    let r = a.ok(&["wait", "h", "--changed", &hash]);
    let m = &r["matched"];
    assert_eq!(m["wait"], "changed", "{r}");
    assert_eq!(m["screen_hash"], r["screen_hash"], "{r}");
    assert_eq!(m["screen_hash"], typed["screen_hash"], "{r}");
    // "name? bob": the echo of bob, columns 7 to 9 of row 1.
    assert_eq!(m["at"], serde_json::json!({"row": 1, "col": 7}), "{r}");
    assert_eq!(m["to"], serde_json::json!({"row": 1, "col": 9}), "{r}");
    // Not a hash: bad input, one JSON object.
    // Not a hash: bad input, one JSON object, in the words of a scenario's `changed` wait
    // (the session's flags are read by the scenario's parser).
    let r = a.run(&["wait", "h", "--changed", "xyz"]);
    assert_eq!(r.code, 2, "{r}");
    let error = r.json["error"].as_str().unwrap();
    assert!(error.starts_with("step:1:"), "{r}");
    assert!(
        error.ends_with(
            ": wait changed = xyz is not a screen hash: 16 hex digits (the `screen_hash` of a \
             session reply)"
        ),
        "{r}"
    );
    // Saved, the wait on the hash is the wait for what changed: the hash is this run's.
    a.ok(&["stop", "h", "--save", "casts/h"]);
    let toml = std::fs::read_to_string(a.work.join("casts/h.toml")).unwrap();
    assert!(toml.contains("{ wait = \"bob\" }"), "{toml}");
    assert!(!toml.contains("changed"), "{toml}");
}

/// `wait --prompt any` waits for any prompt kind the classifier knows, and says which, with
/// the place of its evidence; text and regex waits say where they matched.
#[test]
fn wait_prompt_any_and_text_waits_say_what_matched_and_where() {
    let a = Agent::new();
    a.ok(&[
        "start",
        "--name",
        "p",
        "--",
        "sh",
        "-c",
        "echo first line; printf 'Delete all files? [y/N] '; read a",
    ]);
    let r = a.ok(&["wait", "p", "--prompt", "any"]);
    let m = &r["matched"];
    assert_eq!(m["wait"], "prompt", "{r}");
    assert_eq!(m["prompt"], "yesno", "{r}");
    assert_eq!(m["prompt"], r["prompt"]["kind"], "{r}");
    assert_eq!(m["at"]["row"], 2, "{r}");
    assert_eq!(r["step"], "{ wait = { prompt = \"any\" } }", "{r}");
    let r = a.ok(&["wait", "p", "--text", "all files"]);
    assert_eq!(
        r["matched"],
        serde_json::json!({"wait": "text", "text": "all files",
            "at": {"row": 2, "col": 8}, "to": {"row": 2, "col": 16}}),
        "{r}"
    );
    let r = a.ok(&["wait", "p", "--regex", "(?m)^first (\\w+)$"]);
    assert_eq!(
        r["matched"],
        serde_json::json!({"wait": "regex", "text": "first line",
            "at": {"row": 1, "col": 1}, "to": {"row": 1, "col": 10}}),
        "{r}"
    );
    let r = a.ok(&["wait", "p", "--cursor", "2,25"]);
    assert_eq!(
        r["matched"]["at"],
        serde_json::json!({"row": 2, "col": 25}),
        "{r}"
    );
    a.ok(&["press", "p", "y", "Enter"]);
    let r = a.ok(&["wait", "p", "--exit", "0"]);
    assert_eq!(
        r["matched"],
        serde_json::json!({"wait": "exit", "code": 0}),
        "{r}"
    );
}

/// htop by idle (issue 22's demo): between its refreshes nothing is written, so `wait --idle`
/// holds there; its next refresh changes the screen, which `wait --changed` sees, with the
/// cells that changed.
#[test]
fn htop_waited_for_by_idle_and_by_a_changed_screen() {
    if !crate::util::have("htop") {
        assert!(
            std::env::var_os("CI").is_none(),
            "htop is required under CI"
        );
        return;
    }
    let a = Agent::new();
    a.ok(&["start", "--name", "htop", "--", "htop"]);
    let r = a.ok(&["wait", "htop", "--text", "PID"]);
    assert_eq!(r["matched"]["wait"], "text", "{r}");
    let idle = a.ok(&["wait", "htop", "--idle", "300ms"]);
    assert!(
        idle["matched"]["idle_ms"].as_u64().unwrap() >= 300,
        "{idle}"
    );
    let hash = idle["screen_hash"].as_str().unwrap();
    let changed = a.ok(&["wait", "htop", "--changed", hash]);
    let m = &changed["matched"];
    assert_ne!(m["screen_hash"], hash, "{changed}");
    assert!(
        m["at"]["row"].as_u64().is_some(),
        "the cells that changed: {changed}"
    );
    assert!(
        m["to"]["row"].as_u64() >= m["at"]["row"].as_u64(),
        "{changed}"
    );
    a.ok(&["stop", "htop"]);
}

/// `session check ID NAME` checks the settled screen against `snapshots/@screens/NAME.txt` of
/// the project it runs in, as `assert_screen!` does: missing (a `.new`, exit 1), written
/// (`TUICAST_UPDATE=always`), passing, a changed screen failing with the diff and a `.new`
/// that `tuicast accept` takes; CI writes nothing; a bad `TUICAST_UPDATE` is bad input.
#[test]
fn check_compares_the_live_screen_with_a_screen_golden_and_accept_takes_it() {
    let mut a = Agent::new();
    a.work.write("tuicast.toml", "");
    a.env.push(("TUICAST_UPDATE".into(), "new".into()));
    a.env.push(("CI".into(), String::new()));
    a.ok(&[
        "start",
        "--name",
        "g",
        "--",
        "bash",
        "--norc",
        "--noprofile",
    ]);
    a.ok(&["type", "g", "PS1='> '; clear"]);
    a.ok(&["press", "g", "Enter"]);
    a.ok(&["wait", "g", "--cursor", "1,3"]);
    let golden = a.work.join("snapshots/@screens/home.txt");
    let pending = a.work.join("snapshots/@screens/home.txt.new");
    let missing = a.run(&["check", "g", "home"]);
    assert_eq!(missing.code, 1, "{missing}");
    assert_eq!(missing.json["check"]["passed"], false, "{missing}");
    assert_eq!(
        missing.json["check"]["golden"],
        golden.display().to_string()
    );
    assert!(missing.json.get("model").is_none(), "{missing}");
    assert!(
        missing.json["error"]
            .as_str()
            .unwrap()
            .contains("tuicast accept @screens/home.txt"),
        "{missing}"
    );
    assert!(pending.is_file() && !golden.exists());
    // The failure as data: its kind, the golden, the screen and the command that accepts it.
    let failure = &missing.json["failure"];
    assert_eq!(failure["kind"], "missing-golden", "{missing}");
    assert_eq!(failure["path"], golden.display().to_string(), "{missing}");
    assert_eq!(failure["line"], serde_json::Value::Null, "{missing}");
    assert_eq!(
        failure["fix"], "tuicast accept @screens/home.txt",
        "{missing}"
    );
    assert_eq!(failure["screen"][0], ">", "{missing}");
    // A bad update mode is bad input, and nothing is asked of the daemon.
    let mut bad = a.command(&["check", "g", "home"]);
    bad.env("TUICAST_UPDATE", "sometimes");
    let bad = Reply::of(bad.output().unwrap());
    assert_eq!(bad.code, 2, "{bad}");
    assert!(
        bad.json["error"]
            .as_str()
            .unwrap()
            .contains("TUICAST_UPDATE"),
        "{bad}"
    );
    let mut always = a.command(&["check", "g", "home"]);
    always.env("TUICAST_UPDATE", "always");
    let written = Reply::of(always.output().unwrap());
    assert_eq!(written.code, 0, "{written}");
    let text = std::fs::read_to_string(&golden).unwrap();
    assert!(
        text.contains("checkpoint: home\n") && text.contains("cursor: 1:3\n---\n>"),
        "{text}"
    );
    assert!(!pending.exists());
    assert_eq!(a.ok(&["check", "g", "home"])["check"]["passed"], true);

    a.ok(&["type", "g", "echo changed"]);
    a.ok(&["press", "g", "Enter"]);
    a.ok(&["wait", "g", "--regex", "(?m)^changed$"]);
    // Under CI nothing is written.
    let mut ci = a.command(&["check", "g", "home"]);
    ci.env("CI", "true").env("TUICAST_UPDATE", "auto");
    let ci = Reply::of(ci.output().unwrap());
    assert_eq!(ci.code, 1, "{ci}");
    assert!(!pending.exists(), "{ci}");
    let changed = a.run(&["check", "g", "home"]);
    assert_eq!(changed.code, 1, "{changed}");
    let message = changed.json["error"].as_str().unwrap();
    assert!(
        message.starts_with("screen golden mismatch: snapshots/@screens/home.txt\n"),
        "{message}"
    );
    assert!(message.contains("\n+> echo changed\n"), "{message}");
    assert!(message.contains("\n+changed\n"), "{message}");
    assert!(
        message.ends_with("to accept: tuicast accept @screens/home.txt"),
        "{message}"
    );
    // As data: `mismatch` at the golden's line of the first difference (the header's
    // `cursor: 1:3`: the cursor moved down first), the whole line.
    let failure = &changed.json["failure"];
    assert_eq!(failure["kind"], "mismatch", "{changed}");
    assert_eq!(failure["path"], golden.display().to_string(), "{changed}");
    let cursor_line = text.lines().position(|l| l == "cursor: 1:3").unwrap() + 1;
    assert_eq!(failure["line"], cursor_line as u64, "{changed}");
    assert_eq!(failure["column"], serde_json::Value::Null, "{changed}");
    assert_eq!(failure["screen"][0], "> echo changed", "{changed}");
    assert_eq!(
        failure["fix"], "tuicast accept @screens/home.txt",
        "{changed}"
    );
    assert!(pending.is_file());
    let accepted = Command::new(BIN)
        .args(["accept", "@screens/home.txt"])
        .current_dir(a.work.path())
        .output()
        .unwrap();
    assert!(accepted.status.success(), "{accepted:?}");
    assert!(!pending.exists());
    assert_eq!(a.ok(&["check", "g", "home"])["check"]["passed"], true);
    a.ok(&["stop", "g"]);
    // An unknown session is bad input, and the model is no format of `snapshot`.
    assert_eq!(a.run(&["check", "nosuch", "home"]).code, 2);
    let model = a.run(&["snapshot", "g", "--format", "screen"]);
    assert_eq!(model.code, 2, "{model}");
    assert!(model.json.get("model").is_none(), "{model}");
}
