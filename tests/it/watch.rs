//! `tuicast session events` and `tuicast session attach` through the real binary: a real
//! program's changes, title, bell, secret and exit streamed to two watchers while a third
//! stops reading; a person attached in a real PTY (tuicast's own recorder) watching, taking
//! the input over, typing, giving it back, detaching, and killed by a signal, the terminal
//! restored each time. No sleeps: every wait is on a stream or a screen.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;
use tuicast::daemon::protocol::SessionEvent;
use tuicast::record::{Session, SessionOptions};

use crate::session::Agent;
use crate::util::BIN;

/// A running `tuicast session events` whose lines a thread reads.
struct Watcher {
    child: Child,
    lines: mpsc::Receiver<Value>,
}

impl Watcher {
    fn start(a: &Agent, id: &str) -> Watcher {
        let mut child = a
            .command(&["events", id])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tuicast session events");
        let out = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in out.lines() {
                let line = line.expect("a line");
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
                // Each line is the typed event the schema describes, and nothing more.
                let typed: SessionEvent = serde_json::from_value(value.clone())
                    .unwrap_or_else(|e| panic!("not a session event ({e}): {line}"));
                assert_eq!(serde_json::to_value(&typed).unwrap(), value);
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        Watcher { child, lines }
    }

    /// The next event (a generous bound: the stream is waited on, never slept for).
    fn next(&self) -> Value {
        self.lines
            .recv_timeout(Duration::from_secs(60))
            .expect("an event within 60 s")
    }

    /// Every event up to the `exit`, then the status of the command.
    fn rest(mut self) -> (Vec<Value>, i32) {
        let mut events = Vec::new();
        loop {
            let e = self.next();
            let end = e["type"] == "exit";
            events.push(e);
            if end {
                break;
            }
        }
        let status = self.child.wait().unwrap().code().unwrap_or(-1);
        (events, status)
    }
}

/// The screen the events describe, applied in order (as `attach` keeps it).
fn apply(rows: &mut Vec<String>, e: &Value) {
    if e["type"] != "screen" {
        return;
    }
    let size = e["size"].as_str().unwrap();
    let n: usize = size.split_once('x').unwrap().1.parse().unwrap();
    rows.resize(n, String::new());
    if e["full"] == true {
        rows.iter_mut().for_each(String::clear);
    }
    for r in e["rows"].as_array().unwrap() {
        let i = r["row"].as_u64().unwrap() as usize - 1;
        rows[i] = r["text"].as_str().unwrap().to_string();
    }
}

fn text_of(rows: &[String]) -> String {
    let mut t = rows.join("\n");
    t.truncate(t.trim_end().len());
    t
}

#[test]
fn events_stream_changes_title_bell_and_exit_to_two_watchers_while_a_third_stops_reading() {
    let mut a = Agent::new();
    let secret = "hunter2-s3cr3t-value";
    a.env.push(("TUICAST_SECRET_PW".into(), secret.into()));
    // A watcher's queue of 64 KiB (8 MiB unless the daemon's environment says).
    a.env.push(("TUICAST_WATCH_BUFFER".into(), "65536".into()));
    // 150 frames of the whole screen (each 50 rows of 190 characters), a pause after each.
    let script = "read name; printf '\\033]2;T-%s\\007\\a' \"$name\"; echo \"got $name\"; \
                  stty -echo; read pw; stty echo; echo \"pw=$pw\"; read go; \
                  for i in $(seq 100 249); do yes \"$(printf '%0190d' $i)\" | head -n 50; \
                  sleep 0.02; done; echo flood-done; read last; exit 7";
    a.ok(&[
        "start", "--name", "demo", "--size", "200x50", "--", "sh", "-c", script,
    ]);
    let first = Watcher::start(&a, "demo");
    let second = Watcher::start(&a, "demo");
    // The third reads its first line, then nothing: its pipe and socket fill.
    let mut stalled = a
        .command(&["events", "demo"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stalled_out = BufReader::new(stalled.stdout.take().unwrap());
    let mut line = String::new();
    stalled_out.read_line(&mut line).unwrap();
    let state: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        (state["type"].as_str(), state["full"].as_bool()),
        (Some("screen"), Some(true))
    );
    // Each watcher starts with the whole screen as it is.
    for w in [&first, &second] {
        let e = w.next();
        assert_eq!(e["type"], "screen", "{e}");
        assert_eq!(e["full"], true, "{e}");
        assert_eq!(e["rows"].as_array().unwrap().len(), 50, "{e}");
        assert_eq!(
            e["rect"],
            serde_json::json!({"top":1,"left":1,"bottom":50,"right":200})
        );
    }

    a.ok(&["type", "demo", "ada"]);
    a.ok(&["press", "demo", "Enter"]);
    a.ok(&["wait", "demo", "--text", "got ada"]);
    a.ok(&["secret", "demo", "--env", "TUICAST_SECRET_PW"]);
    a.ok(&["press", "demo", "Enter"]);
    a.ok(&["wait", "demo", "--text", "pw="]);
    a.ok(&["press", "demo", "Enter"]);
    // The session goes on while one watcher reads nothing.
    a.ok(&["wait", "demo", "--text", "flood-done", "--timeout", "120s"]);
    // (Read from now on: a watcher that takes nothing for a minute is let go.)
    let stalled_rest = std::thread::spawn(move || {
        let mut rest = String::new();
        stalled_out.read_to_string(&mut rest).unwrap();
        rest
    });
    let last = a.ok(&["type", "demo", "bye"]);
    a.ok(&["press", "demo", "Enter"]);
    a.ok(&["wait", "demo", "--exit", "7"]);
    let final_screen = a.ok(&["status", "demo"]);
    assert!(last["screen"].as_str().unwrap().contains("flood-done"));

    for w in [first, second] {
        let (events, status) = w.rest();
        assert_eq!(status, 0, "the watch ends with the session");
        let kinds = |k: &str| events.iter().filter(|e| e["type"] == k).count();
        let title = events
            .iter()
            .find(|e| e["type"] == "title")
            .expect("a title");
        assert_eq!(title["title"], "T-ada");
        let bell = events.iter().find(|e| e["type"] == "bell").expect("a bell");
        assert_eq!(bell["count"], 1);
        // The change that showed "got ada": its rectangle and rows.
        let got = events
            .iter()
            .find(|e| {
                e["type"] == "screen"
                    && e["rows"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|r| r["text"] == "got ada")
            })
            .expect("the screen change that shows `got ada`");
        let rect = &got["rect"];
        assert!(
            rect["top"].as_u64() <= Some(2) && rect["left"] == 1,
            "{got}"
        );
        assert!(kinds("screen") >= 50, "{} screen events", kinds("screen"));
        assert!(kinds("prompt") >= 1);
        let exit = events.last().unwrap();
        assert_eq!(exit["status"]["state"], "exited", "{exit}");
        assert_eq!(exit["status"]["code"], 7, "{exit}");
        // The numbers only grow (the state a watcher gets first has the latest number).
        let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        assert!(seqs.windows(2).all(|p| p[0] <= p[1]), "{seqs:?}");
        // Applied in order, the events give the session's last screen.
        let mut rows = Vec::new();
        events.iter().for_each(|e| apply(&mut rows, e));
        assert_eq!(text_of(&rows), final_screen["screen"].as_str().unwrap());
        let all = serde_json::to_string(&events).unwrap();
        assert!(!all.contains(secret), "the secret is in an event");
        assert!(all.contains("pw=*"), "the secret is starred");
    }

    // The stalled watcher, read at last: it missed events, was told how many, got the
    // state again, and its stream still ends with the exit.
    let rest = stalled_rest.join().unwrap();
    let status = stalled.wait().unwrap();
    assert!(status.success(), "{status}: {rest}");
    let events: Vec<Value> = rest
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let lost = events
        .iter()
        .position(|e| e["type"] == "lost")
        .expect("a lost event for the watcher that stopped reading");
    assert!(events[lost]["count"].as_u64().unwrap() > 0);
    assert_eq!(events[lost + 1]["type"], "screen");
    assert_eq!(events[lost + 1]["full"], true);
    assert_eq!(events.last().unwrap()["type"], "exit");
    assert_eq!(events.last().unwrap()["status"]["code"], 7);
    let mut rows = Vec::new();
    std::iter::once(&state)
        .chain(&events)
        .for_each(|e| apply(&mut rows, e));
    assert_eq!(text_of(&rows), final_screen["screen"].as_str().unwrap());

    // A watcher of a session that is not there: the reply every command gives, exit 2.
    let r = a.run(&["events", "nope"]);
    assert_eq!(r.code, 2, "{r}");
    assert!(r.json["error"]
        .as_str()
        .unwrap()
        .contains("no session \"nope\""));
    a.ok(&["stop", "demo"]);
}

/// `tuicast session attach ARGS` in a real PTY of tuicast's recorder, in a shell that shows
/// its status and the terminal's modes once it ends.
fn person(a: &Agent, args: &str) -> Session {
    person_sized(a, args, 120, 30)
}

/// [`person`] with a terminal of `cols` x `rows`.
fn person_sized(a: &Agent, args: &str, cols: u16, rows: u16) -> Session {
    let script = format!(
        "{BIN} session attach {args}; echo \"attach-status=$?\"; \
         stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; \
         echo modes-shown; read _"
    );
    let mut opts = SessionOptions::new(["sh", "-c", &script]);
    opts.size = tuicast::size::Size { cols, rows };
    opts.cwd = a.work.path().to_path_buf();
    opts.env.insert(
        "XDG_RUNTIME_DIR".into(),
        a.runtime.path().display().to_string(),
    );
    opts.timeout = Duration::from_secs(30);
    Session::spawn_in_memory(opts).expect("a PTY for the person")
}

/// The pid of the attach command the person's shell runs.
fn attach_pid(s: &Session) -> i32 {
    let pid = s.pid();
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap();
    children
        .split_whitespace()
        .next()
        .expect("the attach process")
        .parse()
        .unwrap()
}

/// The shell's report once attach has ended: its status and the terminal's modes restored.
fn restored(s: &mut Session, status: i32) {
    s.wait_text("modes-shown").unwrap();
    let screen = s.screen();
    let text = (0..screen.rows.len())
        .map(|r| screen.row_text(r))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!screen.alternate, "the alternate screen is left:\n{text}");
    assert!(screen.cursor.visible, "the cursor is shown again");
    assert!(text.contains(&format!("attach-status={status}")), "{text}");
    let modes = text
        .lines()
        .find(|l| l.contains("icanon"))
        .expect("stty's modes");
    assert!(
        modes.split_whitespace().any(|m| m == "icanon")
            && modes.split_whitespace().any(|m| m == "echo"),
        "raw mode is off again: {modes}"
    );
}

#[test]
fn a_person_attaches_watches_takes_over_types_gives_back_and_the_terminal_is_restored() {
    let a = Agent::new();
    let script = "while IFS= read -r l; do echo \"got:$l\"; done";
    a.ok(&[
        "start", "--name", "demo", "--size", "60x12", "--", "sh", "-c", script,
    ]);
    a.ok(&["type", "demo", "one"]);
    a.ok(&["press", "demo", "Enter"]);
    a.ok(&["wait", "demo", "--text", "got:one"]);

    let mut p = person(&a, "demo");
    p.wait_text("got:one").unwrap();
    p.wait_text("read-only · t take over · q detach").unwrap();
    assert!(p.screen().alternate, "attach draws on the alternate screen");
    // A key while watching is not sent: the status line says so.
    p.type_text("x").unwrap();
    p.wait_text("read-only: keys are not sent").unwrap();
    // The agent's input still goes through, and the person sees it.
    a.ok(&["type", "demo", "two"]);
    a.ok(&["press", "demo", "Enter"]);
    p.wait_text("got:two").unwrap();
    assert!(!a.ok(&["status", "demo"])["screen"]
        .as_str()
        .unwrap()
        .contains("xtwo"));

    // Taken over: the agent's input is refused, the person's keys go to the program.
    p.type_text("t").unwrap();
    p.wait_text("YOU HOLD THE INPUT").unwrap();
    let refused = a.run(&["type", "demo", "zz"]);
    assert_eq!(refused.code, 1, "{refused}");
    let error = refused.json["error"].as_str().unwrap();
    assert!(error.contains("held by a person via attach"), "{error}");
    let refused = a.run(&["stop", "demo"]);
    assert_eq!(refused.code, 1, "{refused}");
    p.type_text("three").unwrap();
    p.press("Enter").unwrap();
    p.wait_text("got:three").unwrap();
    // Waits still work for the agent while the person holds the session.
    a.ok(&["wait", "demo", "--text", "got:three"]);

    // Given back (Ctrl-]): the agent types again.
    p.press("C-]").unwrap();
    p.wait_text("read-only · t take over").unwrap();
    a.ok(&["type", "demo", "four"]);
    a.ok(&["press", "demo", "Enter"]);
    p.wait_text("got:four").unwrap();

    // Detached with q: the terminal is as it was.
    p.type_text("q").unwrap();
    restored(&mut p, 0);
    p.press("Enter").unwrap();
    drop(p);

    // `--take` holds at once; a SIGTERM ends attach, restores the terminal and gives the
    // session back.
    let mut p = person(&a, "demo --take");
    p.wait_text("YOU HOLD THE INPUT").unwrap();
    assert_eq!(a.run(&["press", "demo", "Enter"]).code, 1);
    p.type_text("five\r").unwrap();
    p.wait_text("got:five").unwrap();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(attach_pid(&p)),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    restored(&mut p, 143);
    a.ok(&["type", "demo", "six"]);
    a.ok(&["press", "demo", "Enter"]);
    a.ok(&["wait", "demo", "--text", "got:six"]);

    // A terminal smaller than the session: what fits, and the status line says so.
    let mut small = person_sized(&a, "demo", 44, 8);
    small
        .wait_text("your terminal is 44x8, the session 60x12")
        .unwrap();
    small.type_text("q").unwrap();
    restored(&mut small, 0);
    drop(small);

    // What the person typed is in the saved scenario, as typed.
    let saved = a.ok(&["stop", "demo", "--save", "casts/helped"]);
    let toml = std::fs::read_to_string(saved["scenario"].as_str().unwrap()).unwrap();
    assert!(toml.contains("three") && toml.contains("five"), "{toml}");
}
