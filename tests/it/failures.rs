//! Failures as data (issue 42 point 3), through the real CLI: every JSON output that reports a
//! failure — `tuicast run`, `tuicast test --message-format json`, the session daemon's
//! replies — carries one `failure` object (`tuicast::location::FailureJson`) with a stable
//! `kind`, its place as `path`, `line` and `column` (`null` when not known, never 0), the
//! step, the screen at that moment and the fix.

use serde_json::Value;

use crate::util::Dir;

/// The JSON lines of `out`, parsed.
fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// The record of test `name` among `records`.
fn record<'a>(records: &'a [Value], name: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["test"] == name)
        .unwrap_or_else(|| panic!("no record of {name} in {records:#?}"))
}

#[test]
fn tuicast_run_reports_timeout_limit_waiting_and_bad_input_as_data() {
    let dir = Dir::new();
    let run = |args: &[&str], code: i32| -> Value {
        let out = dir
            .tuicast(["run"].iter().chain(args))
            .run()
            .fails_with(code);
        serde_json::from_str(out.stdout().trim()).unwrap()
    };
    let j = run(
        &[
            "--timeout",
            "1s",
            "--",
            "sh",
            "-c",
            "echo started; sleep 30",
        ],
        1,
    );
    let f = &j["failure"];
    assert_eq!(f["kind"], "timeout", "{j}");
    assert_eq!(f["screen"], serde_json::json!(["started"]), "{j}");
    assert!(f["fix"].as_str().unwrap().contains("--timeout"), "{j}");
    assert!(f["message"].as_str().unwrap().contains("1000 ms"), "{j}");
    assert_eq!(
        (&f["path"], &f["line"], &f["column"]),
        (&Value::Null, &Value::Null, &Value::Null)
    );
    let j = run(&["--max-output", "1KiB", "--", "yes"], 1);
    assert_eq!(j["failure"]["kind"], "limit", "{j}");
    assert!(
        j["failure"]["fix"]
            .as_str()
            .unwrap()
            .contains("--max-output"),
        "{j}"
    );
    let j = run(&["--", "bash", "-c", "read -p 'Overwrite? [y/N] ' a"], 1);
    assert_eq!(j["failure"]["kind"], "waiting-for-input", "{j}");
    assert_eq!(
        j["failure"]["screen"],
        serde_json::json!(["Overwrite? [y/N]"]),
        "{j}"
    );
    assert!(
        j["failure"]["fix"].as_str().unwrap().contains("--stdin"),
        "{j}"
    );
    let j = run(&["--", "no-such-program-xyz"], 2);
    assert_eq!(j["failure"]["kind"], "bad-input", "{j}");
    assert_eq!(j["failure"]["message"], j["error"], "{j}");
    assert_eq!(j["failure"]["line"], Value::Null, "{j}");
    // A command that ended by itself, whatever its status, is no failure of tuicast's.
    let out = dir
        .tuicast(["run", "--", "sh", "-c", "exit 3"])
        .run()
        .success();
    let j: Value = serde_json::from_str(out.stdout().trim()).unwrap();
    assert_eq!(j["failure"], Value::Null, "{j}");
}

/// A cast of two checkpoints: `shown` (the screen `hello`) and `end` (`hello` and `world`).
const CAST: &str = "{\"version\": 2, \"width\": 20, \"height\": 3}\n\
                    [0.1, \"o\", \"hello\\r\\n\"]\n\
                    [0.2, \"m\", \"shown\"]\n\
                    [0.3, \"o\", \"world\"]\n";

#[test]
fn test_messages_carry_mismatch_missing_golden_and_bad_input_with_their_places() {
    let dir = Dir::new();
    dir.write("tuicast.toml", "casts = \"casts\"\n");
    dir.write("casts/two.cast", CAST);
    // `shown`'s golden differs at row 1 (line 7 of the file, after its header), column 5;
    // `end` has none.
    let golden = |rows: &str, cursor: &str, name: &str| {
        format!("---\ncast: casts/two.cast\ncheckpoint: {name}\nsize: 20x3\ncursor: {cursor}\n---\n{rows}")
    };
    dir.write(
        "snapshots/two/shown.txt",
        golden("hellx\n\n\n", "2:1", "shown"),
    );
    // A cast whose line 3 is cut short.
    dir.write(
        "casts/bad.cast",
        "{\"version\": 2, \"width\": 20, \"height\": 3}\n[0.1, \"o\", \"a\"]\n[0.2, \"o\"\n",
    );
    let out = dir
        .tuicast(["test", "--message-format", "json"])
        .env("TUICAST_UPDATE", "new")
        .run();
    let records = lines(out.stdout());
    let shown = record(&records, "two::shown");
    let f = &shown["failure"];
    assert_eq!(f["kind"], "mismatch", "{shown:#}");
    let path = f["path"].as_str().unwrap();
    assert!(path.ends_with("/snapshots/two/shown.txt"), "{shown:#}");
    assert_eq!(f["path"], shown["snapshots"][0]["path"], "{shown:#}");
    assert_eq!(
        (&f["line"], &f["column"]),
        (&7.into(), &5.into()),
        "{shown:#}"
    );
    assert_eq!(f["screen"], serde_json::json!(["hello"]), "{shown:#}");
    assert_eq!(f["fix"], "tuicast accept two/shown.txt", "{shown:#}");
    assert_eq!(f["message"], shown["message"], "{shown:#}");
    let end = record(&records, "two::end");
    let f = &end["failure"];
    assert_eq!(f["kind"], "missing-golden", "{end:#}");
    assert!(
        f["path"]
            .as_str()
            .unwrap()
            .ends_with("/snapshots/two/end.txt"),
        "{end:#}"
    );
    assert_eq!(
        (&f["line"], &f["column"]),
        (&Value::Null, &Value::Null),
        "{end:#}"
    );
    assert_eq!(
        f["screen"],
        serde_json::json!(["hello", "world"]),
        "{end:#}"
    );
    let bad = record(&records, "bad");
    let f = &bad["failure"];
    assert_eq!(f["kind"], "bad-input", "{bad:#}");
    assert!(f["path"].as_str().unwrap().ends_with("bad.cast"), "{bad:#}");
    assert_eq!(f["line"], 3, "{bad:#}");
    assert!(f["column"].as_u64().unwrap() > 0, "{bad:#}");
    // Its checkpoint's line is not known: null, not 0.
    assert_eq!(bad["line"], Value::Null, "{bad:#}");
    // A passing test has no failure.
    dir.write(
        "snapshots/two/shown.txt",
        golden("hello\n\n\n", "2:1", "shown"),
    );
    dir.write(
        "snapshots/two/end.txt",
        golden("hello\nworld\n\n", "2:6", "end"),
    );
    std::fs::remove_file(dir.join("casts/bad.cast")).unwrap();
    let out = dir
        .tuicast(["test", "--message-format", "json"])
        .run()
        .success();
    let records = lines(out.stdout());
    assert_eq!(record(&records, "two::shown")["failure"], Value::Null);
}

#[test]
fn a_failed_live_recording_names_its_step_and_screen_as_fields() {
    let dir = Dir::new();
    dir.write("tuicast.toml", "casts = \"casts\"\n");
    // Line 3, column 3: the wait that times out; the program shows `ready?`.
    dir.write(
        "casts/pw.toml",
        "command = [\"sh\", \"-c\", \"echo ready?; sleep 30\"]\nsteps = [\n  { wait = \"never shown\", timeout = \"500ms\" },\n]\n",
    );
    // The program exits while the wait still needs it.
    dir.write(
        "casts/gone.toml",
        "command = [\"sh\", \"-c\", \"echo bye\"]\nsteps = [\n  { wait = \"never shown\", timeout = \"5s\" },\n]\n",
    );
    let out = dir
        .tuicast(["test", "--live", "--message-format", "json"])
        .env("TUICAST_UPDATE", "no")
        .run();
    let records = lines(out.stdout());
    let find = |cast: &str| {
        records
            .iter()
            .find(|r| {
                r["cast"].as_str().is_some_and(|c| c.ends_with(cast)) && !r["failure"].is_null()
            })
            .unwrap_or_else(|| panic!("no failure of {cast}: {}", out.stdout()))
    };
    let pw = find("pw.cast");
    let f = &pw["failure"];
    assert_eq!(f["kind"], "timeout", "{pw:#}");
    assert!(
        f["path"].as_str().unwrap().ends_with("casts/pw.toml"),
        "{pw:#}"
    );
    assert_eq!((&f["line"], &f["column"]), (&3.into(), &3.into()), "{pw:#}");
    assert_eq!(f["screen"], serde_json::json!(["ready?"]), "{pw:#}");
    assert!(f["fix"].is_string(), "{pw:#}");
    let gone = find("gone.cast");
    assert_eq!(gone["failure"]["kind"], "exited", "{gone:#}");
    assert_eq!(gone["failure"]["line"], 3, "{gone:#}");
    assert_eq!(
        gone["failure"]["screen"],
        serde_json::json!(["bye"]),
        "{gone:#}"
    );
}

#[test]
fn session_replies_carry_timeout_exited_and_bad_input_with_the_step_and_screen() {
    let a = crate::session::Agent::new();
    a.ok(&[
        "start",
        "--name",
        "s",
        "--",
        "sh",
        "-c",
        "echo ready; exec cat",
    ]);
    a.ok(&["wait", "s", "--text", "ready"]);
    let r = a.run(&["wait", "s", "--text", "never", "--timeout", "200ms"]);
    assert_eq!(r.code, 1, "{r}");
    let f = &r.json["failure"];
    assert_eq!(f["kind"], "timeout", "{r}");
    assert_eq!(f["message"], r.json["error"], "{r}");
    assert!(f["step"].as_str().unwrap().contains("never"), "{r}");
    assert_eq!(f["screen"], serde_json::json!(["ready"]), "{r}");
    assert!(f["fix"].is_string(), "{r}");
    assert_eq!(
        (&f["path"], &f["line"]),
        (&Value::Null, &Value::Null),
        "{r}"
    );
    // Bad input: a key that does not exist.
    let r = a.run(&["press", "s", "NoSuchKey"]);
    assert_eq!(r.code, 2, "{r}");
    assert_eq!(r.json["failure"]["kind"], "bad-input", "{r}");
    // The program exits while a wait still needs it.
    a.ok(&["start", "--name", "gone", "--", "sh", "-c", "echo bye"]);
    let r = a.run(&["wait", "gone", "--text", "never", "--timeout", "5s"]);
    assert_eq!(r.code, 1, "{r}");
    assert_eq!(r.json["failure"]["kind"], "exited", "{r}");
    assert_eq!(
        r.json["failure"]["screen"],
        serde_json::json!(["bye"]),
        "{r}"
    );
}
