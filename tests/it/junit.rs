//! JUnit XML (`tuicast test --message-format junit`, `TUICAST_JUNIT=FILE cargo test`, merged
//! across nextest's processes): validated against the published Jenkins schema with xmllint,
//! and read by junitparser, a real consumer (both from `scripts/junit-tools.sh`, which CI runs).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::harness::{text, Crate};
use crate::util::{have, root};

/// The schema and the consumer's python, or `None` (and a note) outside CI when
/// `scripts/junit-tools.sh` has not been run; under CI they must be there.
fn tools() -> Option<(PathBuf, PathBuf)> {
    let from_env = |var: &str, default: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join(default))
    };
    let xsd = from_env("TUICAST_JUNIT_XSD", "target/junit/junit-10.xsd");
    let python = from_env("TUICAST_JUNIT_PYTHON", "target/junit/venv/bin/python");
    let ready = xsd.is_file() && python.is_file() && have("xmllint");
    if !ready {
        assert!(
            std::env::var_os("CI").is_none(),
            "the JUnit schema, junitparser and xmllint are required under CI: run \
             scripts/junit-tools.sh and install libxml2-utils"
        );
        eprintln!("skipping the schema and consumer checks: run scripts/junit-tools.sh");
        return None;
    }
    Some((xsd, python))
}

/// Validates `file` against the schema and reads it with junitparser: (tests, failures) as
/// the consumer counts them, and the failures' messages.
fn consumed(file: &Path) -> Option<(usize, usize, Vec<String>)> {
    let (xsd, python) = tools()?;
    let out = Command::new("xmllint")
        .args(["--noout", "--schema"])
        .arg(&xsd)
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} does not validate against junit-10.xsd: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let script = r#"
import sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
tests = failures = 0
for suite in xml:
    for case in suite:
        tests += 1
        for r in case.result:
            if isinstance(r, Failure):
                failures += 1
                print("failure", case.classname, case.name, r.message, sep="\t")
print(tests, failures)
"#;
    let out = Command::new(&python)
        .args(["-c", script])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<&str> = stdout.lines().collect();
    let counts = lines.pop().unwrap();
    let (tests, failures) = counts.split_once(' ').unwrap();
    Some((
        tests.parse().unwrap(),
        failures.parse().unwrap(),
        lines.into_iter().map(str::to_string).collect(),
    ))
}

/// The `<testcase>` elements of a JUnit document, their times left out, sorted.
fn testcases(xml: &str) -> Vec<String> {
    let time = regex::Regex::new(r#" time="[0-9.]+""#).unwrap();
    let mut cases: Vec<String> = xml
        .split("<testcase ")
        .skip(1)
        .map(|c| {
            let c = &c[..c.find("</testcase>").expect("a closed testcase")];
            time.replace_all(c, "").into_owned()
        })
        .collect();
    cases.sort();
    cases
}

#[test]
fn junit_has_one_testcase_per_trial_under_tuicast_test_cargo_test_and_nextest() {
    let c = Crate::new();
    let golden = c.path("snapshots/progress/done.txt");
    let original = fs::read_to_string(&golden).unwrap();
    fs::write(&golden, original.replace("100%", "99%")).unwrap();

    // tuicast test: one document on stdout, nothing else on it.
    let out = c.tuicast(&["test", "--message-format", "junit"]);
    let xml = out.stdout().to_string();
    assert!(
        xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"),
        "{xml}"
    );
    assert!(xml.ends_with("</testsuites>\n"), "{xml}");
    assert!(
        xml.contains("<testsuites name=\"tuicast\" tests=\"7\" failures=\"1\""),
        "{xml}"
    );
    // The failure: its message, the golden and the cast line.
    let at = xml
        .find("name=\"progress::done\"")
        .expect("the failing trial");
    let case = &xml[at..at + xml[at..].find("</testcase>").unwrap()];
    assert!(
        case.contains("<failure message=\"snapshot mismatch: snapshots/progress/done.txt\""),
        "{case}"
    );
    assert!(
        case.contains("checkpoint &quot;done&quot; of casts/progress.cast:"),
        "{case}"
    );
    assert!(case.contains("cast: casts/progress.cast:"), "{case}");
    assert!(
        case.contains("golden: snapshots/progress/done.txt\n"),
        "{case}"
    );
    let file = c.path("tuicast-junit.xml");
    fs::write(&file, &xml).unwrap();
    if let Some((tests, failures, messages)) = consumed(&file) {
        assert_eq!((tests, failures), (7, 1));
        assert!(
            messages[0].ends_with("progress::done\tsnapshot mismatch: snapshots/progress/done.txt"),
            "{messages:?}"
        );
    }

    // cargo test: TUICAST_JUNIT names the file; it says where it went.
    let junit = c.path("out/junit.xml");
    let env = [("CI", "true"), ("TUICAST_JUNIT", junit.to_str().unwrap())];
    let out = c.cargo(&["test", "--test", "casts"], &env);
    assert!(!out.status.success());
    assert!(
        text(&out).contains(&format!("junit: {}", junit.display())),
        "{}",
        text(&out)
    );
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"7\" failures=\"1\""), "{xml}");
    if let Some((tests, failures, _)) = consumed(&junit) {
        assert_eq!((tests, failures), (7, 1));
    }
    // One driver (`harness::driver`): the same testcases, messages, places and goldens from
    // both runners in the same environment, whatever order their trials finished in.
    let under_ci = c
        .dir
        .tuicast(["test", "--message-format", "junit"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    assert_eq!(testcases(&xml), testcases(under_ci.stdout()));
    // A second run starts the file afresh, not on top of the first.
    fs::write(&golden, &original).unwrap();
    let out = c.cargo(&["test", "--test", "casts"], &env);
    assert!(out.status.success(), "{}", text(&out));
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"7\" failures=\"0\""), "{xml}");

    // nextest: a process per trial, merged into one file.
    if !have("cargo-nextest") {
        assert!(
            std::env::var_os("CI").is_none(),
            "cargo-nextest is required under CI"
        );
        return;
    }
    fs::write(&golden, original.replace("100%", "99%")).unwrap();
    let out = c.cargo(
        &["nextest", "run", "--test", "casts", "--no-fail-fast"],
        &env,
    );
    assert!(!out.status.success(), "{}", text(&out));
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"7\" failures=\"1\""), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 7, "{xml}");
    if let Some((tests, failures, _)) = consumed(&junit) {
        assert_eq!((tests, failures), (7, 1));
    }
    fs::write(&golden, &original).unwrap();
}
