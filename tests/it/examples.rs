//! The bundled example suite replays to exactly what tmux showed when it was recorded
//! (`tests/fixtures/examples-oracle/CAST/CHECKPOINT.txt`, written by
//! `scripts/record-examples.sh` from `tmux capture-pane`).

use std::fs;

use tuicast::replay;
use tuicast::term::EngineKind;

use crate::util::{root, tuicast};

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
            replay::checkpoints(tuicast::cast::open(&cast).unwrap(), EngineKind::Avt).unwrap();
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
