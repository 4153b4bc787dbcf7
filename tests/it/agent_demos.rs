//! Issue 22's demos, each driven as an agent drives it, saved with `stop --save` and
//! recorded again from the saved scenario: tuicast driving tuicast (`tuicast review` in a
//! session), a gh-style select, and htop waited for by idle. (vim by `@vim.mode` with
//! `-- INSERT --` in its buffer is `refs::vims_mode_is_a_ref_the_buffer_cannot_fool_at_any_size`;
//! a password from the daemon's environment is
//! `session::a_secret_from_the_daemons_environment_is_in_no_reply_cast_scenario_or_daemon_file`.)

use std::process::Command;

use crate::session::{rerecord_gives_the_same_checkpoints, Agent};
use crate::util::{have, BIN};

/// A project with one cast whose golden is pending: `snapshots/app/end.txt.new`.
fn project_with_a_pending_golden(a: &Agent) {
    a.work.write(
        "casts/app.cast",
        crate::util::v3_cast(20, 3, &[r#"[0.1, "o", "new text"]"#]),
    );
    a.work.write("snapshots/app/end.txt", "old text\n");
    let out = Command::new(BIN)
        .args(["test"])
        .current_dir(a.work.path())
        .env("TUICAST_UPDATE", "new")
        .env_remove("CI")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(a.work.join("snapshots/app/end.txt.new").exists());
}

#[test]
fn tuicast_drives_tuicast_review_in_a_session_and_the_session_replays() {
    let a = Agent::new();
    project_with_a_pending_golden(&a);
    a.ok(&["start", "--name", "review", "--", BIN, "review"]);
    let asked = a.ok(&[
        "wait",
        "review",
        "--regex",
        r"\(a\)ccept|a \(accept\)|accept",
    ]);
    assert!(
        screen(&asked).contains("new text"),
        "the diff is shown: {asked}"
    );
    a.ok(&["snapshot", "review", "--mark", "asked"]);
    a.ok(&["press", "review", "a"]);
    let done = a.ok(&["wait", "review", "--exit"]);
    assert_eq!(done["status"]["code"], 0, "{done}");
    let golden = std::fs::read_to_string(a.work.join("snapshots/app/end.txt")).unwrap();
    assert!(
        golden.contains("new text") && !golden.contains("old text"),
        "accepted through the nested tuicast: {golden}"
    );
    // Saved outside casts/: `tuicast test` would take it for a cast of the project.
    a.ok(&["stop", "review", "--save", "sessions/review"]);
    // Pending again, the saved scenario goes through the same screens.
    a.work.write("snapshots/app/end.txt", "old text\n");
    project_with_a_pending_golden(&a);
    rerecord_gives_the_same_checkpoints(&a, &a.work.join("sessions/review"), &["asked"]);
    // It accepted in a fresh copy of the folder: the checkout's golden is as it was.
    let golden = std::fs::read_to_string(a.work.join("snapshots/app/end.txt")).unwrap();
    assert_eq!(golden, "old text\n");
}

fn screen(reply: &serde_json::Value) -> &str {
    reply["screen"].as_str().unwrap_or("")
}

/// A gh-style select (`gh auth login`'s first question): arrow keys move the `>`, Enter
/// answers, in raw mode as survey and inquirer read keys.
const SELECT: &str = r#"import sys, termios, tty
options = ["GitHub.com", "Other"]
at = 0
fd = sys.stdin.fileno()
saved = termios.tcgetattr(fd)
tty.setraw(fd)
def draw(first):
    if not first:
        sys.stdout.write("\x1b[%dA" % len(options))
    for i, o in enumerate(options):
        mark = "\x1b[36;1m> " if i == at else "  "
        sys.stdout.write("\r\x1b[2K" + mark + o + "\x1b[0m\r\n")
    sys.stdout.flush()
sys.stdout.write("\x1b[32m?\x1b[0m \x1b[1mWhere do you use GitHub?\x1b[0m  [Use arrows to move, type to filter]\r\n")
draw(True)
while True:
    k = sys.stdin.read(1)
    if k == "\x1b":
        k += sys.stdin.read(2)
        if k == "\x1b[B": at = min(at + 1, len(options) - 1)
        if k == "\x1b[A": at = max(at - 1, 0)
        draw(False)
    elif k in "\r\n":
        break
termios.tcsetattr(fd, termios.TCSADRAIN, saved)
print("? Where do you use GitHub? " + options[at])
"#;

#[test]
fn a_gh_style_select_is_answered_by_its_options_and_replays() {
    let a = Agent::new();
    a.work.write("select.py", SELECT);
    a.ok(&["start", "--name", "gh", "--", "python3", "select.py"]);
    let asked = a.ok(&["wait", "gh", "--prompt", "select"]);
    assert_eq!(
        asked["prompt"]["options"],
        serde_json::json!(["GitHub.com", "Other"]),
        "{asked}"
    );
    let inspected = a.ok(&["inspect", "gh"]);
    assert_eq!(inspected["inspect"]["prompt"]["selected"], 0, "{inspected}");
    a.ok(&["snapshot", "gh", "--mark", "asked"]);
    a.ok(&["press", "gh", "Down"]);
    a.ok(&["wait", "gh", "--text", "> Other"]);
    let inspected = a.ok(&["inspect", "gh"]);
    assert_eq!(inspected["inspect"]["prompt"]["selected"], 1, "{inspected}");
    a.ok(&["press", "gh", "Enter"]);
    a.ok(&["wait", "gh", "--text", "? Where do you use GitHub? Other"]);
    let done = a.ok(&["wait", "gh", "--exit", "0"]);
    assert_eq!(done["status"]["code"], 0, "{done}");
    a.ok(&["stop", "gh", "--save", "casts/gh"]);
    rerecord_gives_the_same_checkpoints(&a, &a.work.join("casts/gh"), &["asked"]);
}

#[test]
fn htop_by_idle_is_saved_and_records_again() {
    if !have("htop") {
        assert!(
            std::env::var_os("CI").is_none(),
            "htop is required under CI"
        );
        return;
    }
    let a = Agent::new();
    a.ok(&["start", "--name", "htop", "--", "htop"]);
    a.ok(&["wait", "htop", "--ref", "@htop.tasks"]);
    a.ok(&["wait", "htop", "--idle", "300ms"]);
    a.ok(&["press", "htop", "q"]);
    a.ok(&["wait", "htop", "--exit", "0"]);
    a.ok(&["stop", "htop", "--save", "casts/htop"]);
    let saved = std::fs::read_to_string(a.work.join("casts/htop.toml")).unwrap();
    assert!(
        saved.contains("{ wait = { ref = \"@htop.tasks\" } }"),
        "{saved}"
    );
    assert!(
        saved.contains("{ wait = { silent = \"300ms\" } }"),
        "{saved}"
    );
    // Its figures are of the moment; the scenario records again through the same waits.
    let out = Command::new(BIN)
        .arg("record")
        .arg(a.work.join("casts/htop.toml"))
        .arg("-o")
        .arg(a.work.join("again.cast"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
