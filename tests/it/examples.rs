//! The bundled example suite replays to exactly what tmux showed when it was recorded
//! (`tests/fixtures/examples-oracle/CAST/CHECKPOINT.txt`, written by
//! `scripts/record-examples.sh` from `tmux capture-pane`).

use std::fs;

use tuicast::replay;
use tuicast::term::EngineKind;

use crate::util::{root, tuicast, Dir};

#[test]
fn every_example_checkpoint_matches_the_tmux_oracle() {
    let oracle_dir = root().join("tests/fixtures/examples-oracle");
    let mut checked = 0;
    let mut failures = Vec::new();
    for entry in fs::read_dir(root().join("casts")).unwrap() {
        let cast = entry.unwrap().path();
        if cast.extension().is_none_or(|e| e != "cast") {
            continue;
        }
        let name = cast.file_stem().unwrap().to_string_lossy().into_owned();
        let checkpoints =
            replay::checkpoints(tuicast::cast::open(&cast).unwrap(), EngineKind::Native).unwrap();
        for cp in checkpoints {
            let oracle = oracle_dir.join(&name).join(format!("{}.txt", cp.name));
            let Ok(expected) = fs::read_to_string(&oracle) else {
                failures.push(format!(
                    "{name}::{}: no oracle file {}",
                    cp.name,
                    oracle.display()
                ));
                continue;
            };
            let actual = cp.screen.text();
            if actual.trim_end() != expected.trim_end() {
                failures.push(format!(
                    "{name}::{}\n--- tmux\n{expected}\n--- tuicast\n{actual}",
                    cp.name
                ));
            }
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} checkpoints checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_readme_main_command_replays_the_whole_suite() {
    let mut args = vec!["replay".to_string()];
    let mut casts: Vec<String> = fs::read_dir(root().join("casts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cast"))
        .map(|p| p.display().to_string())
        .collect();
    casts.sort();
    args.extend(casts.iter().cloned());
    let out = tuicast(&args).success();
    let stdout = out.stdout();
    for cast in &casts {
        assert!(
            stdout.contains(&format!("==> {cast} @ end <==")),
            "{stdout}"
        );
    }
    assert!(stdout.contains("picked: banana"), "{stdout}");
}

/// The bundled suite is recorded by tuicast from the scenarios beside its casts, so `tuicast
/// test --live` records every cast again: the copy of the suite passes as it is, and a changed
/// scenario fails live at the checkpoint it changes while the replay of the old cast passes.
#[test]
fn the_bundled_suite_records_again_from_its_scenarios() {
    let dir = Dir::new();
    let mut names = Vec::new();
    for sub in ["casts", "snapshots"] {
        for entry in walk(&root().join(sub)) {
            let rel = entry.strip_prefix(root()).unwrap().display().to_string();
            if rel.ends_with(".new") || rel.ends_with(".partial") {
                continue;
            }
            if rel.ends_with(".cast") {
                names.push(rel.clone());
            }
            dir.copy_from_repo(&rel, &rel);
        }
    }
    assert_eq!(names.len(), 5, "{names:?}");
    for cast in &names {
        let toml = cast.replace(".cast", ".toml");
        assert!(dir.join(&toml).exists(), "{cast} has no scenario {toml}");
    }
    let live = dir.tuicast(["test", "--live"]).run().success();
    // 5 recordings, 16 checkpoints and two expectations (vim's mode line, dialog's question).
    assert!(live.stdout().contains("23 passed, 0 failed"), "{live}");
    assert!(
        !live.stderr().contains("replayed"),
        "every cast has a scenario: {live}"
    );
    // The slowest casts, and how much of the recordings was waiting for settled screens.
    let slowest = live
        .stdout()
        .lines()
        .find(|l| l.starts_with("slowest: "))
        .unwrap_or_else(|| panic!("no slowest line: {live}"));
    assert_eq!(
        slowest.matches("s recording live, ").count(),
        3,
        "{slowest}"
    );
    assert!(live.stdout().contains("live: 5 recording(s), "), "{live}");
    assert!(
        live.stdout()
            .contains("of it waiting for checkpoints to settle after the program's last output"),
        "{live}"
    );
    // A replay has no live line.
    let replayed = dir.tuicast(["test", "--replay"]).run().success();
    assert!(replayed.stdout().contains("slowest: "), "{replayed}");
    assert!(!replayed.stdout().contains("live: "), "{replayed}");

    let shell = dir.join("casts/shell.toml");
    let changed = fs::read_to_string(&shell)
        .unwrap()
        .replace("naïve", "naive");
    fs::write(&shell, changed).unwrap();
    let failed = dir.tuicast(["test", "--live"]).run().fails_with(1);
    assert!(
        failed.stdout().contains("shell::unicode ... FAILED"),
        "{failed}"
    );
    assert!(
        failed.stdout().contains("21 passed, 2 failed"),
        "the changed checkpoint and the final screen: {failed}"
    );
    dir.tuicast(["test", "--replay"]).run().success();
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
