//! The report suite (tests/conformance/reports/) through the real recorder: the program that
//! asked xterm 379 under Xvfb (scripts/xterm-reports.py, run as `--feed`) asks `tuicast
//! record` the same cases in a real PTY, and what it read must be xterm's replies (or
//! tuicast's listed difference). The library test `record::reports_suite` checks every case
//! against xterm with xterm's colours and font; here the recorder answers with its own (the
//! theme's colours, the PNG renderer's cell), so the cases that ask for those are checked by
//! the library test alone. The ignored test asks xterm itself again.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::util::{have, record_scenario, root, Dir};

/// The cases whose replies carry the theme's colours or the cell's pixels.
fn themed(name: &str) -> bool {
    name.starts_with("osc")
        || matches!(
            name,
            "s8c1t-osc" | "xtwinops-14" | "xtwinops-14;2" | "xtwinops-15" | "xtwinops-16"
        )
}

/// A program in tuicast's PTY asks every case and reads the replies (8-bit ones as single
/// bytes; resizes come back as `r` events): all but the themed ones are xterm's.
#[test]
fn the_recorder_answers_the_report_suite_as_xterm() {
    if !crate::refs::need("python3") {
        return;
    }
    let dir = Dir::new();
    let script = root().join("scripts/xterm-reports.py");
    let (out, cast) = record_scenario(
        &dir,
        "reports",
        &format!(
            "in_place = true\ncommand = [\"python3\", {:?}, \"--feed\", \"replies.json\"]\n\
             timeout = \"60s\"\nsteps = [{{ exit = 0 }}]\n",
            script.to_str().unwrap()
        ),
        &[],
    );
    out.success();
    assert!(
        !dir.join("error").exists(),
        "{}",
        std::fs::read_to_string(dir.join("error")).unwrap_or_default()
    );
    let ours: BTreeMap<String, String> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("replies.json")).unwrap()).unwrap();
    let suite = root().join("tests/conformance/reports");
    let xterm: Value =
        serde_json::from_str(&std::fs::read_to_string(suite.join("xterm.json")).unwrap()).unwrap();
    let differences: toml::Table =
        toml::from_str(&std::fs::read_to_string(suite.join("differences.toml")).unwrap()).unwrap();
    let replies = xterm["replies"].as_object().unwrap();
    assert_eq!(ours.len(), replies.len(), "every case asked");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, theirs) in replies {
        if themed(name) {
            continue;
        }
        let want = match differences.get(name) {
            Some(d) => d["tuicast"]
                .as_str()
                .unwrap()
                .replace("{version}", env!("CARGO_PKG_VERSION")),
            None => theirs.as_str().unwrap().to_string(),
        };
        checked += 1;
        if ours[name] != want {
            failures.push(format!("{name}: want {want:?}, got {:?}", ours[name]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 280, "{checked} cases checked");
    // The resize requests are the cast's `r` events (and the feeder's way back to 80x24).
    let text = std::fs::read_to_string(&cast).unwrap();
    let resizes: Vec<&str> = text
        .lines()
        .skip(1)
        .filter(|l| l.contains("\"r\""))
        .collect();
    for size in ["40x10", "80x12", "50x24", "80x30"] {
        assert!(
            resizes.iter().any(|l| l.contains(&format!("\"{size}\""))),
            "no r event to {size}: {resizes:?}"
        );
    }
    // 8-bit replies are in the cast as text (U+009B), and reached the program as one byte.
    let eight_bit = text.lines().skip(1).any(|l| {
        let e: Value = serde_json::from_str(l).unwrap();
        e[1] == "i" && e[2] == "\u{9b}0n"
    });
    assert!(eight_bit, "the 8-bit DSR reply is an i event");
    assert_eq!(ours["decscl-8bit"], "\u{9b}0n");
}

/// xterm itself, asked the suite again, still answers as xterm.json says (where xterm and
/// Xvfb are installed; .ci/run runs it).
#[test]
#[ignore = "needs xterm and Xvfb; run by .ci/run"]
fn xterm_answers_as_recorded() {
    assert!(have("xterm") && have("Xvfb"), "needs xterm and Xvfb");
    let out = std::process::Command::new("python3")
        .arg(root().join("scripts/xterm-reports.py"))
        .arg("--check")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
