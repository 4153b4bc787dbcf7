//! Interoperability with asciinema 3: casts it records replay in tuicast, casts tuicast writes
//! convert cleanly with `asciinema convert -f txt`.
//!
//! asciinema is installed by `.ci/run` (`cargo install asciinema`). Outside CI the tests say
//! so and return when it is missing; under CI a missing asciinema fails them.

use std::fs;
use std::process::Command;

use crate::util::{have, Tuicast};

fn asciinema_available() -> bool {
    if have("asciinema") {
        let out = Command::new("asciinema").arg("--version").output().unwrap();
        if String::from_utf8_lossy(&out.stdout).contains("asciinema 3") {
            return true;
        }
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "asciinema 3 must be installed under CI (.ci/run installs it)"
    );
    eprintln!("skipping: asciinema 3 is not installed (cargo install asciinema)");
    false
}

#[test]
fn casts_recorded_by_asciinema_replay() {
    if !asciinema_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("rec.cast");
    let status = Command::new("asciinema")
        .args(["rec", "--headless", "-q", "--window-size", "40x5", "-c"])
        .arg("printf 'hello \\033[1;31mred\\033[0m\\n'; printf 'caf\\303\\251 \\346\\227\\245\\346\\234\\254\\n'")
        .arg(&cast)
        .stdin(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let out = Tuicast::new().arg("replay").arg(&cast).run().success();
    let lines: Vec<&str> = out.stdout().lines().collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0], "hello red");
    assert_eq!(lines[1], "café 日本");
    let v = Tuicast::new()
        .arg("info")
        .arg(&cast)
        .arg("--json")
        .run()
        .json();
    assert_eq!(v["version"], 3);
    assert_eq!(v["size"], serde_json::json!({"cols": 40, "rows": 5}));
    assert_eq!(v["exit_status"], 0);
}

#[test]
fn casts_written_by_tuicast_convert_cleanly_with_asciinema() {
    if !asciinema_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let v1 = dir.path().join("v1.json");
    fs::write(
        &v1,
        r#"{
  "version": 1,
  "width": 30,
  "height": 3,
  "duration": 1.5,
  "command": "/bin/bash",
  "title": "old",
  "env": {"TERM": "xterm-256color", "SHELL": "/bin/bash"},
  "stdout": [
    [0.5, "$ echo \u001b[32mgreen\u001b[0m\r\n"],
    [1.0, "green\r\n$ "]
  ]
}"#,
    )
    .unwrap();
    let v3 = dir.path().join("v3.cast");
    Tuicast::new()
        .arg("convert")
        .arg(&v1)
        .arg("-o")
        .arg(&v3)
        .run()
        .success();
    let txt = dir.path().join("out.txt");
    let status = Command::new("asciinema")
        .arg("convert")
        .arg("-f")
        .arg("txt")
        .arg(&v3)
        .arg(&txt)
        .status()
        .unwrap();
    assert!(status.success());
    let theirs = fs::read_to_string(&txt).unwrap();
    let run = Tuicast::new().arg("replay").arg(&v3).run();
    let ours = run.stdout();
    assert_eq!(theirs.trim_end(), ours.trim_end());
    assert_eq!(ours, "$ echo green\ngreen\n$\n");
}
