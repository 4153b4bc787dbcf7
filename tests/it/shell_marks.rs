//! Issue 43 point 4: a real bash sending OSC 133 marks (`tests/shell/marks.bashrc`), recorded
//! live through `tuicast record` and driven through `tuicast session`: `@shell.*` refs read
//! from the marks (output lines that look like prompts cut nothing, a failing command's
//! status, a cleared screen, marks scrolled off), the wait for a command's end with its
//! status and output, and the same refs replayed from the committed cast
//! `tests/shell/bash-marks.cast` (recorded by the ignored test here).

use std::collections::BTreeMap;
use std::path::Path;

use crate::refs::need;
use crate::session::Agent;
use crate::util::{record_scenario, root, Dir, Tuicast};

/// The scenario: each command waited for by its end (no sleep, no text wait).
fn scenario() -> String {
    // From its folder: the cast names no path of this machine.
    let cwd = root().join("tests/shell");
    format!(
        r#"command = ["bash", "--noprofile", "--rcfile", "marks.bashrc", "-i"]
cwd = {cwd:?}
size = "40x12"
steps = [
  {{ wait = {{ ref = "@shell.prompt" }} }},
  {{ type = "printf '$ one\\n%% two\\n> three\\n'\n" }},
  {{ wait = {{ command_done = true }} }},
  {{ checkpoint = "prompts" }},
  {{ type = "(exit 3)\n" }},
  {{ wait = {{ command_done = true }} }},
  {{ checkpoint = "failed" }},
  {{ type = "seq 1 30\n" }},
  {{ wait = {{ command_done = true }} }},
  {{ checkpoint = "scrolled" }},
  {{ type = "clear\n" }},
  {{ wait = {{ command_done = true }} }},
  {{ checkpoint = "cleared" }},
  {{ type = "exit\n" }},
  {{ exit = 0 }},
]
"#,
        cwd = cwd.display().to_string()
    )
}

/// The `@shell.*` refs of `cast` at checkpoint `at` (`tuicast inspect --json`): name →
/// (value, evidence).
fn shell_refs(cast: &Path, at: &str) -> BTreeMap<String, (String, String)> {
    let json = Tuicast::new()
        .arg("inspect")
        .arg(cast)
        .args(["--at", at, "--json"])
        .run()
        .success()
        .json();
    let mut out = BTreeMap::new();
    for r in json["refs"].as_array().expect("refs") {
        let name = r["ref"].as_str().unwrap_or_default();
        if name.starts_with("@shell.") {
            let value = r["value"].as_str().unwrap_or_default().to_string();
            let evidence = r["evidence"].as_str().unwrap_or_default().to_string();
            out.insert(name.to_string(), (value, evidence));
        }
    }
    out
}

/// The values of `refs`, their evidence checked to name the marks.
fn values(refs: &BTreeMap<String, (String, String)>) -> BTreeMap<&str, &str> {
    for (name, (_, evidence)) in refs {
        assert!(
            evidence.starts_with("shell: OSC 133 marks "),
            "{name}: {evidence}"
        );
    }
    refs.iter()
        .map(|(k, (v, _))| (k.as_str(), v.as_str()))
        .collect()
}

/// What every checkpoint of the scenario's cast shows, live or replayed.
fn check(cast: &Path) {
    // Output lines starting `$ `, `% `, `> ` (the guess cuts there) are output.
    let prompts = shell_refs(cast, "prompts");
    assert_eq!(
        values(&prompts),
        BTreeMap::from([
            ("@shell.command", "printf '$ one\\n%% two\\n> three\\n'"),
            ("@shell.output", "$ one\n% two\n> three"),
            ("@shell.prompt", ""),
            ("@shell.status", "0"),
        ]),
        "{prompts:#?}"
    );
    assert!(
        prompts["@shell.output"]
            .1
            .contains("C on row 2, D;0 on row 5"),
        "{prompts:#?}"
    );
    // A failing command: its status; no output, so no output ref.
    let failed = shell_refs(cast, "failed");
    assert_eq!(
        values(&failed),
        BTreeMap::from([
            ("@shell.command", "(exit 3)"),
            ("@shell.prompt", ""),
            ("@shell.status", "3"),
        ]),
        "{failed:#?}"
    );
    // Thirty lines on twelve rows: the C (and the command) scrolled off; the output is read
    // from the top row down to the D.
    let scrolled = shell_refs(cast, "scrolled");
    let expected: Vec<String> = (20..=30).map(|i| i.to_string()).collect();
    let expected = expected.join("\n");
    assert_eq!(
        values(&scrolled),
        BTreeMap::from([
            ("@shell.output", expected.as_str()),
            ("@shell.prompt", ""),
            ("@shell.status", "0"),
        ]),
        "{scrolled:#?}"
    );
    assert!(
        scrolled["@shell.output"].1.contains("C in the scrollback"),
        "{scrolled:#?}"
    );
    // `clear` erased its own C: its status and the new prompt, at the top.
    let cleared = shell_refs(cast, "cleared");
    assert_eq!(
        values(&cleared),
        BTreeMap::from([("@shell.prompt", ""), ("@shell.status", "0")]),
        "{cleared:#?}"
    );
    assert!(
        cleared["@shell.prompt"].1.contains("A on row 1"),
        "{cleared:#?}"
    );
}

#[test]
fn bash_marks_recorded_live_give_the_shell_refs_and_the_command_waits() {
    if !need("bash") {
        return;
    }
    let dir = Dir::new();
    let (out, cast) = record_scenario(&dir, "marks", &scenario(), &[]);
    out.success();
    check(&cast);
}

#[test]
fn the_committed_cast_replays_to_the_same_refs() {
    check(&root().join("tests/shell/bash-marks.cast"));
}

/// Records `tests/shell/bash-marks.cast` again (`cargo test --test it shell_marks:: --
/// --ignored`).
#[test]
#[ignore]
fn record_the_committed_cast() {
    let dir = Dir::new();
    let (out, cast) = record_scenario(&dir, "marks", &scenario(), &[]);
    out.success();
    std::fs::copy(&cast, root().join("tests/shell/bash-marks.cast")).unwrap();
}

#[test]
fn a_session_waits_for_each_command_and_replies_with_its_status_and_output() {
    if !need("bash") {
        return;
    }
    let a = Agent::new();
    let rc = root().join("tests/shell/marks.bashrc");
    let rc = rc.to_str().unwrap();
    a.ok(&[
        "start",
        "--name",
        "b",
        "--",
        "bash",
        "--noprofile",
        "--rcfile",
        rc,
        "-i",
    ]);
    a.ok(&["wait", "b", "--ref", "@shell.prompt"]);
    a.ok(&["type", "b", "printf 'a\\n> b\\n'; false\n"]);
    let done = a.ok(&["wait", "b", "--command-done"]);
    let m = &done["matched"];
    assert_eq!(m["wait"], "command_done", "{done}");
    assert_eq!(m["code"], 1, "{done}");
    assert_eq!(m["text"], "a\n> b", "{done}");
    // The next wait waits for the next command, not the one taken.
    a.ok(&["type", "b", "echo second\n"]);
    let done = a.ok(&["wait", "b", "--command-done"]);
    assert_eq!(done["matched"]["code"], 0, "{done}");
    assert_eq!(done["matched"]["text"], "second", "{done}");
    // The same wait as a scenario step.
    a.ok(&["type", "b", "(exit 7)\n"]);
    let done = a.ok(&["step", "b", "{ wait = { command_done = true } }"]);
    assert_eq!(done["matched"]["code"], 7, "{done}");
    // A shell without marks never says a command ended: the wait times out, saying why.
    a.ok(&["start", "--name", "n", "--", "bash", "--norc", "-i"]);
    a.ok(&["type", "n", "true\n"]);
    let r = a.run(&["wait", "n", "--command-done", "--timeout", "300ms"]);
    assert_eq!(r.code, 1, "{r}");
    assert!(r.to_string().contains("OSC 133"), "{r}");
    a.ok(&["stop", "b"]);
    a.ok(&["stop", "n"]);
}
