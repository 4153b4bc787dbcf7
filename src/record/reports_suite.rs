//! The report suite (issue 43): every case of tests/conformance/reports/cases.toml asked of
//! the recorder's [`Responder`] on a fresh 80x24 native engine, compared with the reply
//! xterm 379 gave under Xvfb (xterm.json, written by scripts/xterm-reports.py). A case whose
//! reply differs on purpose is in differences.toml with tuicast's reply and the reason
//! (docs/reports.md shows them); an entry there that no longer differs, or whose xterm
//! reply changed, fails too, so the list stays true.
//!
//! The responder is set up as xterm was: its default colours (black on white, xterm's
//! palette) and its font's cell (6x13 pixels), so what is compared is how each answer is
//! made, not the theme or the font.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::query::{AnswerColors, Reply, Responder};
use crate::term::{NativeEngine, Size};

/// The suite's folder.
fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/reports")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    #[serde(default)]
    case: Vec<Case>,
    #[serde(default)]
    each: Vec<Each>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default)]
    setup: String,
    query: String,
}

/// One case per value: `{n}` in the name, setup and query is the value.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Each {
    name: String,
    #[serde(default)]
    setup: String,
    query: String,
    values: Vec<toml::Value>,
}

#[derive(Deserialize)]
struct Xterm {
    xterm: String,
    replies: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Difference {
    /// tuicast's reply (`{version}` is tuicast's version).
    tuicast: String,
    /// Why it differs from xterm's.
    reason: String,
}

/// The cases, `[[each]]` expanded.
fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(suite().join("cases.toml")).unwrap();
    let parsed: Cases = toml::from_str(&text).unwrap();
    let mut all = parsed.case;
    for each in parsed.each {
        for v in each.values {
            let v = match v {
                toml::Value::String(s) => s,
                other => other.to_string(),
            };
            let sub = |s: &str| s.replace("{n}", &v);
            all.push(Case {
                name: sub(&each.name),
                setup: sub(&each.setup),
                query: sub(&each.query),
            });
        }
    }
    all
}

/// xterm's default colours: black on white, and its 16-colour palette
/// ([`Theme::xterm`](crate::theme::Theme::xterm); not asciinema's, which a recording answers
/// with: what is compared is xterm's replies, made from its own colours).
fn xterm_colors() -> AnswerColors {
    AnswerColors::of(&crate::theme::Theme::xterm())
}

/// tuicast's reply to `case`: its setup, then its query, on a fresh terminal.
fn reply(case: &Case) -> String {
    let mut engine = NativeEngine::new(Size { cols: 80, rows: 24 });
    let mut responder = Responder::new(xterm_colors(), "xterm");
    responder.set_cell_pixels((6, 13));
    responder.respond_spans(&case.setup, &mut engine);
    responder
        .respond_spans(&case.query, &mut engine)
        .into_iter()
        .filter_map(|(_, _, r)| match r {
            Reply::Answer(a) => Some(a),
            Reply::Resize(_) => None,
        })
        .collect()
}

#[test]
fn engine_answers_as_xterm() {
    let xterm: Xterm =
        serde_json::from_str(&std::fs::read_to_string(suite().join("xterm.json")).unwrap())
            .unwrap();
    let differences: BTreeMap<String, Difference> =
        toml::from_str(&std::fs::read_to_string(suite().join("differences.toml")).unwrap())
            .unwrap();
    let cases = cases();
    let mut failures = Vec::new();
    let mut same = 0;
    for case in &cases {
        let Some(theirs) = xterm.replies.get(&case.name) else {
            failures.push(format!(
                "{}: no reply in xterm.json (run scripts/xterm-reports.py)",
                case.name
            ));
            continue;
        };
        let ours = reply(case);
        if &ours == theirs {
            same += 1;
        }
        match differences.get(&case.name) {
            None if &ours != theirs => failures.push(format!(
                "{}:\n  xterm   {theirs:?}\n  tuicast {ours:?}",
                case.name
            )),
            Some(d) => {
                let want = d.tuicast.replace("{version}", env!("CARGO_PKG_VERSION"));
                if ours != want || &ours == theirs || d.reason.trim().is_empty() {
                    failures.push(format!(
                        "{}: listed as a difference, tuicast {want:?}, but xterm {theirs:?}, tuicast {ours:?}",
                        case.name
                    ));
                }
            }
            None => {}
        }
    }
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reports.md"))
            .unwrap();
    for name in differences.keys() {
        if !cases.iter().any(|c| &c.name == name) {
            failures.push(format!("differences.toml: no case {name}"));
        }
        if !docs.contains(&format!("`{name}`")) {
            failures.push(format!(
                "docs/reports.md does not list the difference {name}"
            ));
        }
    }
    eprintln!(
        "report suite: tuicast answers as {} in {same} of {} cases ({} deliberate differences)",
        xterm.xterm,
        cases.len(),
        differences.len()
    );
    assert!(
        failures.is_empty(),
        "{}\n{} failures",
        failures.join("\n"),
        failures.len()
    );
}
