//! The real `tuicast` binary: replay, info, convert, exit statuses and help.

use std::fs;

use crate::{text, tuicast};

/// A small v3 cast with two checkpoints, a resize and an exit.
const DEMO: &str = r#"{"version": 3, "term": {"cols": 20, "rows": 4}, "title": "demo"}
[0.5, "o", "$ ls\r\n\u001b[1;34mdir\u001b[0m  file\r\n$ "]
[0.1, "m", "listed"]
[0.2, "i", "clear\r"]
[0.1, "o", "\u001b[H\u001b[2J$ "]
[3.0, "m", "cleared"]
[0.1, "r", "10x3"]
[0.1, "o", "done"]
[0.1, "x", "0"]
"#;

fn demo(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("demo.cast");
    fs::write(&path, DEMO).unwrap();
    path
}

#[test]
fn replay_prints_the_final_screen_exactly_one_line_per_row() {
    let dir = tempfile::tempdir().unwrap();
    let out = tuicast(["replay".as_ref(), demo(&dir).as_os_str()]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout, "$ done\n\n\n");
}

#[test]
fn replay_at_a_checkpoint_and_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let cast = demo(&dir);
    let out = tuicast([
        "replay".as_ref(),
        cast.as_os_str(),
        "--at".as_ref(),
        "listed".as_ref(),
    ]);
    assert_eq!(text(&out).0, "$ ls\ndir  file\n$\n\n");
    let out = tuicast([
        "replay".as_ref(),
        cast.as_os_str(),
        "--at".as_ref(),
        "cleared".as_ref(),
    ]);
    assert_eq!(text(&out).0, "$\n\n\n\n");
    // At 0.55s only the first output event has happened.
    let out = tuicast([
        "replay".as_ref(),
        cast.as_os_str(),
        "--time".as_ref(),
        "0.55".as_ref(),
    ]);
    assert_eq!(text(&out).0, "$ ls\ndir  file\n$\n\n");
    let out = tuicast([
        "replay".as_ref(),
        cast.as_os_str(),
        "--time".as_ref(),
        "0".as_ref(),
    ]);
    assert_eq!(text(&out).0, "\n\n\n\n");
}

#[test]
fn unknown_checkpoint_lists_the_existing_ones_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = tuicast([
        "replay".as_ref(),
        demo(&dir).as_os_str(),
        "--at".as_ref(),
        "nope".as_ref(),
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout.is_empty());
    assert!(stderr.contains("no checkpoint named \"nope\""), "{stderr}");
    assert!(stderr.contains("listed, cleared, end"), "{stderr}");
}

#[test]
fn checkpoint_names_from_the_cast_are_escaped_in_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("evil.cast");
    fs::write(
        &path,
        "{\"version\": 3, \"term\": {\"cols\": 10, \"rows\": 2}}\n[0.1, \"m\", \"\\u001b[2Jboom\\u0007\"]\n",
    )
    .unwrap();
    let out = tuicast([
        "replay".as_ref(),
        path.as_os_str(),
        "--at".as_ref(),
        "x".as_ref(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !stderr.contains('\x1b') && !stderr.contains('\x07'),
        "{stderr:?}"
    );
    assert!(stderr.contains("\\e[2Jboom\\x07"), "{stderr}");
}

#[test]
fn json_format_has_size_cursor_title_rows_and_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = tuicast([
        "replay".as_ref(),
        demo(&dir).as_os_str(),
        "--at".as_ref(),
        "listed".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema"], 1);
    assert_eq!(v["size"], serde_json::json!({"cols": 20, "rows": 4}));
    assert_eq!(
        v["cursor"],
        serde_json::json!({"row": 2, "col": 2, "visible": true})
    );
    assert_eq!(v["alternate"], false);
    assert_eq!(v["rows"].as_array().unwrap().len(), 4);
    assert_eq!(v["rows"][1]["text"], "dir  file");
    assert_eq!(
        v["rows"][1]["runs"],
        serde_json::json!([{"col": 0, "width": 3, "fg": 4, "attrs": ["bold"]}])
    );
    assert_eq!(v["rows"][0]["runs"], serde_json::json!([]));
    assert_eq!(v["checkpoint"]["name"], "listed");
    assert_eq!(v["checkpoint"]["line"], 3);
}

#[test]
fn output_file_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("screen.txt");
    let out = tuicast([
        "replay".as_ref(),
        demo(&dir).as_os_str(),
        "-o".as_ref(),
        target.as_os_str(),
    ]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(fs::read_to_string(&target).unwrap(), "$ done\n\n\n");
}

#[test]
fn both_engines_agree_on_a_simple_cast_and_unknown_engines_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let cast = demo(&dir);
    for engine in ["avt", "vt100"] {
        let out = tuicast([
            "replay".as_ref(),
            cast.as_os_str(),
            "--at".as_ref(),
            "listed".as_ref(),
            "--engine".as_ref(),
            engine.as_ref(),
        ]);
        assert_eq!(text(&out).0, "$ ls\ndir  file\n$\n\n", "engine {engine}");
    }
    let out = tuicast([
        "replay".as_ref(),
        cast.as_os_str(),
        "--engine".as_ref(),
        "kitty".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("unknown engine"));
}

#[test]
fn info_reports_version_size_duration_counts_and_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let cast = demo(&dir);
    let out = tuicast(["info".as_ref(), cast.as_os_str()]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("version      3"), "{stdout}");
    assert!(stdout.contains("size         20x4"), "{stdout}");
    assert!(stdout.contains("duration     4.200s"), "{stdout}");
    assert!(
        stdout.contains("events       i 1, m 2, o 3, r 1, x 1"),
        "{stdout}"
    );
    assert!(stdout.contains("listed   line 3"), "{stdout}");
    assert!(stdout.contains("cleared  line 6"), "{stdout}");
    assert!(stdout.contains("end      line 9"), "{stdout}");

    let out = tuicast(["info".as_ref(), cast.as_os_str(), "--json".as_ref()]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["version"], 3);
    assert_eq!(v["size"]["cols"], 20);
    assert!((v["duration"].as_f64().unwrap() - 4.2).abs() < 1e-9);
    assert_eq!(v["events"]["o"], 3);
    assert_eq!(v["exit_status"], 0);
    assert_eq!(
        v["checkpoints"][1],
        serde_json::json!({"name": "cleared", "line": 6, "time": 3.9})
    );
}

#[test]
fn convert_writes_v3_and_caps_idle_time() {
    let dir = tempfile::tempdir().unwrap();
    let v2 = dir.path().join("old.cast");
    fs::write(
        &v2,
        "{\"version\": 2, \"width\": 10, \"height\": 2, \"env\": {\"TERM\": \"xterm\"}}\n\
         [1.0, \"o\", \"a\"]\n[11.0, \"o\", \"b\"]\n[11.5, \"m\", \"here\"]\n",
    )
    .unwrap();
    let out3 = dir.path().join("new.cast");
    let out = tuicast([
        "convert".as_ref(),
        v2.as_os_str(),
        "-o".as_ref(),
        out3.as_os_str(),
        "--idle-limit".as_ref(),
        "2".as_ref(),
    ]);
    assert!(out.status.success(), "{}", text(&out).1);
    let written = fs::read_to_string(&out3).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    let header: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(header["version"], 3);
    assert_eq!(header["term"]["cols"], 10);
    assert_eq!(header["term"]["type"], "xterm");
    assert_eq!(header["idle_time_limit"], 2.0);
    assert_eq!(
        &lines[1..],
        [
            "[1.0, \"o\", \"a\"]",
            "[2.0, \"o\", \"b\"]",
            "[0.5, \"m\", \"here\"]"
        ]
    );
}

#[test]
fn convert_of_a_malformed_cast_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.cast");
    fs::write(&bad, "{\"version\": 3, \"term\": {\"cols\": 10, \"rows\": 2}}\n[0.1, \"o\", \"a\"]\n[-1, \"o\", \"b\"]\n").unwrap();
    let target = dir.path().join("out.cast");
    let out = tuicast([
        "convert".as_ref(),
        bad.as_os_str(),
        "-o".as_ref(),
        target.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out)
            .1
            .contains("bad.cast:3:2: event time is negative"),
        "{}",
        text(&out).1
    );
    assert!(!target.exists());
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left behind"
    );
}

#[test]
fn a_missing_file_is_bad_input() {
    let out = tuicast(["replay", "/nonexistent/x.cast"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("/nonexistent/x.cast"));
}

#[test]
fn usage_errors_exit_2_and_help_ends_with_examples() {
    assert_eq!(tuicast(["replay"]).status.code(), Some(2));
    assert_eq!(tuicast(["frobnicate"]).status.code(), Some(2));
    for args in [
        vec!["--help"],
        vec!["replay", "--help"],
        vec!["info", "--help"],
        vec!["convert", "--help"],
    ] {
        let out = tuicast(&args);
        assert!(out.status.success());
        let help = text(&out).0;
        let tail = help
            .trim_end()
            .lines()
            .rev()
            .take(6)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            tail.contains("tuicast "),
            "help of {args:?} should end with examples:\n{help}"
        );
        assert!(help.contains("Examples:"), "{help}");
    }
}
