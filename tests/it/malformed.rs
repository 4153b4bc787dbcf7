//! Every malformed fixture in `tests/fixtures/malformed/` (made by `generate.py`) gives an
//! error at the place `expected.json` names: `PATH:LINE:COLUMN: message` on stderr and exit
//! status 2 from the CLI, and `err.line`/`err.column` from the library.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::util::{fixture, Tuicast};

/// One entry of `expected.json`.
struct Expected {
    name: String,
    path: PathBuf,
    line: u64,
    column: u64,
    contains: String,
}

fn expected() -> Vec<Expected> {
    let json = std::fs::read_to_string(fixture("malformed/expected.json"))
        .expect("read tests/fixtures/malformed/expected.json (run tests/fixtures/generate.py)");
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&json).expect("expected.json is a JSON object");
    assert!(!map.is_empty(), "expected.json lists no cases");
    map.into_iter()
        .map(|(name, v)| {
            let field = |key: &str| {
                v.get(key)
                    .unwrap_or_else(|| panic!("expected.json: {name} has no \"{key}\""))
            };
            Expected {
                path: fixture(&format!("malformed/{name}")),
                line: field("line").as_u64().expect("line is an integer"),
                column: field("column").as_u64().expect("column is an integer"),
                contains: field("contains")
                    .as_str()
                    .expect("contains is a string")
                    .to_string(),
                name,
            }
        })
        .collect()
}

/// Runs `tuicast SUBCOMMAND FILE` on every case and checks exit status, place, message, and
/// that stderr is safe to print and free of panics. All failures are reported together.
fn check_cli(subcommand: &str) {
    let mut failures = Vec::new();
    for case in expected() {
        let out = Tuicast::new().arg(subcommand).arg(&case.path).run();
        let (stdout, stderr) = (out.stdout(), out.stderr());
        let place = format!("{}:{}:{}:", case.path.display(), case.line, case.column);
        let mut problems = Vec::new();
        if out.code() != Some(2) {
            problems.push(format!("exit status {:?}, expected 2", out.code()));
        }
        if !stderr.contains(&place) {
            problems.push(format!("stderr lacks the place `{place}`"));
        }
        if !stderr.contains(&case.contains) {
            problems.push(format!("stderr lacks `{}`", case.contains));
        }
        if stderr.contains('\x1b') {
            problems.push("stderr holds a raw ESC byte".to_string());
        }
        if stderr.contains("panicked") {
            problems.push("tuicast panicked".to_string());
        }
        if !problems.is_empty() {
            failures.push(format!(
                "tuicast {subcommand} {}:\n    {}\n    stderr: {}    stdout: {} bytes",
                case.name,
                problems.join("\n    "),
                stderr,
                stdout.len()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} malformed case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn replay_reports_the_place_of_every_malformed_input() {
    check_cli("replay");
}

#[test]
fn info_reports_the_place_of_every_malformed_input() {
    check_cli("info");
}

/// The library reports the same places: opening (header errors) or iterating the events.
#[test]
fn library_reports_line_and_column_of_every_malformed_input() {
    let mut failures = Vec::new();
    for case in expected() {
        let result = tuicast::cast::open(&case.path).and_then(|reader| {
            for event in reader {
                event?;
            }
            Ok(())
        });
        let err = match result {
            Ok(()) => {
                failures.push(format!("{}: read without error", case.name));
                continue;
            }
            Err(err) => err,
        };
        let placed = (err.line, err.column) == (case.line, case.column);
        if !placed {
            failures.push(format!(
                "{}: error at {}:{}, expected {}:{} ({err})",
                case.name, err.line, err.column, case.line, case.column
            ));
        }
        if !err.message.contains(&case.contains) {
            failures.push(format!(
                "{}: message `{}` lacks `{}`",
                case.name, err.message, case.contains
            ));
        }
        if err.path.as_deref() != Some(case.path.as_path()) {
            failures.push(format!("{}: error path is {:?}", case.name, err.path));
        }
        let shown = err.to_string();
        let place = format!("{}:{}:{}: ", case.path.display(), case.line, case.column);
        if placed && !shown.starts_with(&place) {
            failures.push(format!(
                "{}: displayed as `{shown}`, expected it to start with `{place}`",
                case.name
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} malformed case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// No fixture goes untested, and every expectation has its fixture.
#[test]
fn expected_json_covers_every_malformed_fixture() {
    let dir = fixture("malformed");
    let on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
        .expect("read tests/fixtures/malformed")
        .map(|entry| entry.expect("directory entry").file_name())
        .map(|name| name.into_string().expect("UTF-8 file name"))
        .filter(|name| name != "expected.json")
        .collect();
    let listed: BTreeSet<String> = expected().into_iter().map(|case| case.name).collect();
    let untested: Vec<_> = on_disk.difference(&listed).collect();
    let missing: Vec<_> = listed.difference(&on_disk).collect();
    assert!(
        untested.is_empty() && missing.is_empty(),
        "fixtures without an expectation: {untested:?}; expectations without a fixture: \
         {missing:?} (regenerate with `python3 tests/fixtures/generate.py`)"
    );
}
