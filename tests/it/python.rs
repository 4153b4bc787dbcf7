//! Python projects: `tuicast test`'s machine interface a pytest plugin drives (`--list`,
//! `--exact -k`, the failure `message` of a JSON record).

use serde_json::Value;

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
