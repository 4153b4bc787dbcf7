//! The real `tuicast` binary: replay, info, convert, exit statuses and help.

use std::fs;

use crate::util::{tuicast, v3_cast, Dir, Tuicast};

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

fn demo(dir: &Dir) -> std::path::PathBuf {
    dir.write("demo.cast", DEMO)
}

#[test]
fn replay_prints_the_final_screen_exactly_one_line_per_row() {
    let dir = Dir::new();
    let out = Tuicast::new().arg("replay").arg(demo(&dir)).run().success();
    assert_eq!(out.stdout(), "$ done\n\n\n");
}

#[test]
fn replay_at_a_checkpoint_and_at_a_time() {
    let dir = Dir::new();
    let cast = demo(&dir);
    let replay = |args: [&str; 2]| Tuicast::new().arg("replay").arg(&cast).args(args).run();
    assert_eq!(
        replay(["--at", "listed"]).stdout(),
        "$ ls\ndir  file\n$\n\n"
    );
    assert_eq!(replay(["--at", "cleared"]).stdout(), "$\n\n\n\n");
    // At 0.55s only the first output event has happened.
    assert_eq!(
        replay(["--time", "0.55"]).stdout(),
        "$ ls\ndir  file\n$\n\n"
    );
    assert_eq!(replay(["--time", "0"]).stdout(), "\n\n\n\n");
}

#[test]
fn unknown_checkpoint_lists_the_existing_ones_and_exits_2() {
    let dir = Dir::new();
    let out = Tuicast::new()
        .arg("replay")
        .arg(demo(&dir))
        .args(["--at", "nope"])
        .run()
        .fails_with(2);
    assert!(out.stdout().is_empty(), "{out}");
    assert!(
        out.stderr().contains("no checkpoint named \"nope\""),
        "{out}"
    );
    assert!(out.stderr().contains("listed, cleared, end"), "{out}");
}

#[test]
fn checkpoint_names_from_the_cast_are_escaped_in_errors() {
    let dir = Dir::new();
    let path = dir.write(
        "evil.cast",
        v3_cast(10, 2, &[r#"[0.1, "m", "\u001b[2Jboom\u0007"]"#]),
    );
    let out = Tuicast::new()
        .arg("replay")
        .arg(&path)
        .args(["--at", "x"])
        .run()
        .fails_with(2);
    let stderr = out.stderr();
    assert!(
        !stderr.contains('\x1b') && !stderr.contains('\x07'),
        "{stderr:?}"
    );
    assert!(stderr.contains("\\e[2Jboom\\x07"), "{out}");
}

#[test]
fn json_format_has_size_cursor_title_rows_and_runs() {
    let dir = Dir::new();
    let out = Tuicast::new()
        .arg("replay")
        .arg(demo(&dir))
        .args(["--at", "listed", "--format", "json"])
        .run()
        .success();
    let v = out.json();
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
    let dir = Dir::new();
    let target = dir.path().join("screen.txt");
    let out = Tuicast::new()
        .arg("replay")
        .arg(demo(&dir))
        .arg("-o")
        .arg(&target)
        .run()
        .success();
    assert!(out.stdout().is_empty(), "{out}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "$ done\n\n\n");
}

#[test]
fn both_engines_agree_on_a_simple_cast_and_unknown_engines_are_rejected() {
    let dir = Dir::new();
    let cast = demo(&dir);
    for engine in ["avt", "vt100"] {
        let out = Tuicast::new()
            .arg("replay")
            .arg(&cast)
            .args(["--at", "listed", "--engine", engine])
            .run();
        assert_eq!(out.stdout(), "$ ls\ndir  file\n$\n\n", "engine {engine}");
    }
    let out = Tuicast::new()
        .arg("replay")
        .arg(&cast)
        .args(["--engine", "kitty"])
        .run()
        .fails_with(2);
    assert!(out.stderr().contains("unknown engine"), "{out}");
}

/// `engine = "avt"` is avt 0.17 as the crate is, what asciinema's player shows (issue 45):
/// differential replay shows where it differs from the native engine, which does as xterm
/// does (a combining mark on its character, the title, a national character set, the erase
/// colour from the cursor on), and where vt100 differs too.
#[test]
fn differential_replay_shows_what_asciinemas_player_shows() {
    let dir = Dir::new();
    dir.write(
        "marks.cast",
        "{\"version\": 3, \"term\": {\"cols\": 8, \"rows\": 2}}\n\
         [0.1, \"o\", \"\\u001b]2;t\\u0007e\\u0301\\u001b(A#\\u001b(B\\u001b[44m\\u001b[K\"]\n",
    );
    let out = Tuicast::new()
        .current_dir(dir.path())
        .args(["engines", "marks.cast"])
        .run()
        .fails_with(1);
    assert_eq!(
        out.stdout(),
        "marks.cast: native, avt and vt100 disagree at 1 of 1 checkpoint\n\
         \n\
         @ end (line 2, 0.100s): 3 of 16 cells differ (3 in their character, 0 only in their style)\n  \
         cursor: native row 1, column 3 | avt row 1, column 4 | vt100 row 1, column 3\n  \
         title: native \"t\" | avt \"\" | vt100 \"t\"\n  \
         row   1, col   1  native \"e\\u{301}\" fg=default bg=default  |  avt \"e\" fg=default bg=default  |  vt100 \"e\\u{301}\" fg=default bg=default\n  \
         row   1, col   2  native \"£\" fg=default bg=default  |  avt \"\\u{301}\" fg=default bg=default  |  vt100 \"#\" fg=default bg=default\n  \
         row   1, col   3  native \" \" fg=default bg=4  |  avt \"#\" fg=default bg=default  |  vt100 \" \" fg=default bg=4\n"
    );
    // `--engine avt` replays as avt does: the mark in a cell of its own.
    let out = Tuicast::new()
        .current_dir(dir.path())
        .args([
            "replay",
            "marks.cast",
            "--engine",
            "avt",
            "--format",
            "json",
        ])
        .run()
        .json();
    assert_eq!(out["rows"][0]["text"], "e\u{301}#");
    assert_eq!(out["title"], serde_json::Value::Null);
}

#[test]
fn info_reports_version_size_duration_counts_and_checkpoints() {
    let dir = Dir::new();
    let cast = demo(&dir);
    let out = Tuicast::new().arg("info").arg(&cast).run().success();
    let stdout = out.stdout();
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

    let v = Tuicast::new()
        .arg("info")
        .arg(&cast)
        .arg("--json")
        .run()
        .json();
    assert_eq!(v["version"], 3);
    assert_eq!(v["size"]["cols"], 20);
    assert!((v["duration"].as_f64().unwrap() - 4.2).abs() < 1e-9);
    assert_eq!(v["events"]["o"], 3);
    assert_eq!(v["exit_status"], 0);
    let cleared = &v["checkpoints"][1];
    assert_eq!(
        (&cleared["name"], &cleared["line"], &cleared["time"]),
        (
            &serde_json::json!("cleared"),
            &serde_json::json!(6),
            &serde_json::json!(3.9)
        )
    );
    // The overhead: from the program's last output before the checkpoint to the checkpoint.
    let (output, overhead) = (
        cleared["last_output"].as_f64().unwrap(),
        cleared["overhead_ms"].as_f64().unwrap(),
    );
    assert!(
        (overhead - (3.9 - output) * 1000.0).abs() < 1e-6,
        "{cleared}"
    );
    assert!(v["median_overhead_ms"].is_number(), "{v}");
    assert!(stdout.contains("overhead     median "), "{stdout}");
}

#[test]
fn convert_writes_v3_and_caps_idle_time() {
    let dir = Dir::new();
    let v2 = dir.write(
        "old.cast",
        "{\"version\": 2, \"width\": 10, \"height\": 2, \"env\": {\"TERM\": \"xterm\"}}\n\
         [1.0, \"o\", \"a\"]\n[11.0, \"o\", \"b\"]\n[11.5, \"m\", \"here\"]\n",
    );
    let out3 = dir.path().join("new.cast");
    Tuicast::new()
        .arg("convert")
        .arg(&v2)
        .arg("-o")
        .arg(&out3)
        .args(["--idle-limit", "2"])
        .run()
        .success();
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
    let dir = Dir::new();
    let bad = dir.write(
        "bad.cast",
        v3_cast(10, 2, &[r#"[0.1, "o", "a"]"#, r#"[-1, "o", "b"]"#]),
    );
    let target = dir.path().join("out.cast");
    let out = Tuicast::new()
        .arg("convert")
        .arg(&bad)
        .arg("-o")
        .arg(&target)
        .run()
        .fails_with(2);
    assert!(
        out.stderr()
            .contains("bad.cast:3:2: event time is negative"),
        "{out}"
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
    let out = tuicast(["replay", "/nonexistent/x.cast"]).fails_with(2);
    assert!(out.stderr().contains("/nonexistent/x.cast"), "{out}");
}

#[test]
fn usage_errors_exit_2_and_help_ends_with_examples() {
    tuicast(["replay"]).fails_with(2);
    tuicast(["frobnicate"]).fails_with(2);
    for args in [
        vec!["--help"],
        vec!["replay", "--help"],
        vec!["info", "--help"],
        vec!["convert", "--help"],
        vec!["mcp", "--help"],
    ] {
        let out = tuicast(&args).success();
        let help = out.stdout();
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

/// A cast that switches to 132 columns (DECCOLM) and prints at column 100.
const DECCOLM_CAST: &str = r#"{"version": 3, "term": {"cols": 80, "rows": 3}}
[0.1, "o", "before\u001b[?3h\u001b[1;100Hwide"]
[0.1, "m", "wide"]
"#;

#[test]
fn deccolm_is_ignored_unless_asked_for_by_flag_cast_toml_or_tuicast_toml() {
    let dir = Dir::new();
    let cast = dir.write("casts/wide.cast", DECCOLM_CAST);
    let json = |extra: &[&str]| -> serde_json::Value {
        let out = Tuicast::new()
            .arg("replay")
            .arg(&cast)
            .args(["--format", "json"])
            .args(extra)
            .run()
            .success();
        serde_json::from_str(out.stdout()).unwrap()
    };
    // As xterm and xterm.js: 80 columns, nothing cleared, "wide" at the last column.
    let plain = json(&[]);
    assert_eq!(plain["size"]["cols"], 80, "{plain}");
    let text = tuicast(["replay".as_ref(), cast.as_os_str()]).success();
    assert_eq!(text.stdout().lines().next().unwrap().trim_end().len(), 80);
    assert!(text.stdout().starts_with("before"), "{}", text.stdout());
    // As a VT100: 132 columns, the screen cleared.
    let wide = json(&["--deccolm"]);
    assert_eq!(wide["size"]["cols"], 132, "{wide}");
    let text = Tuicast::new()
        .arg("replay")
        .arg(&cast)
        .arg("--deccolm")
        .run()
        .success();
    assert_eq!(
        text.stdout().lines().next().unwrap(),
        format!("{}wide", " ".repeat(99))
    );
    // The cast's TOML says so.
    dir.write("casts/wide.toml", "[terminal]\ndeccolm = true\n");
    assert_eq!(json(&[])["size"]["cols"], 132);
    dir.write("casts/wide.toml", "[terminal]\ndeccolm = \"yes\"\n");
    let bad = Tuicast::new().arg("replay").arg(&cast).run();
    assert_eq!(bad.code(), Some(2), "{}", bad.stderr());
    assert!(bad.stderr().contains("wide.toml:2:11"), "{}", bad.stderr());
    fs::remove_file(dir.join("casts/wide.toml")).unwrap();
    // `tuicast test`: the goldens follow tuicast.toml's [terminal], and --deccolm.
    let golden = |d: &Dir| fs::read_to_string(d.join("snapshots/wide/wide.txt")).unwrap();
    dir.tuicast(["test", "--update"]).run().success();
    assert!(golden(&dir).contains("size: 80x3\n"), "{}", golden(&dir));
    assert!(golden(&dir).contains("\nbefore "), "{}", golden(&dir));
    let failed = dir.tuicast(["test", "--deccolm"]).run();
    assert_eq!(failed.code(), Some(1), "{}", failed.stdout());
    dir.write("tuicast.toml", "[terminal]\ndeccolm = true\n");
    dir.tuicast(["test", "--update"]).run().success();
    assert!(golden(&dir).contains("size: 132x3\n"), "{}", golden(&dir));
    assert!(golden(&dir).contains(&format!("\n{}wide\n", " ".repeat(99))));
}
