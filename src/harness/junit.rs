//! JUnit XML, the test report GitLab, Jenkins, Buildkite and most CI systems read: one
//! `<testcase>` per trial (a checkpoint or an expectation), its failure message, the cast line
//! of the checkpoint and its golden files. `tuicast test --message-format junit` prints it;
//! `TUICAST_JUNIT=FILE cargo test` writes it, merged across the processes of one run (every
//! test binary of `cargo test`, every test of nextest, which runs each in a process of its own).
//!
//! The XML follows the Jenkins JUnit schema (`junit-10.xsd`, the one pytest's `xunit2` output
//! and nextest's follow): `testsuites` > `testsuite` (one per project) > `testcase` with `name`,
//! `classname` and `time` (seconds, three decimals), a `failure` with its `message` (the first
//! line) and the whole text, and a `system-out` naming the cast line and the goldens. Text from
//! a cast is escaped for XML, and characters XML 1.0 cannot hold (control characters) are
//! written as U+FFFD (failure messages have them spelled out as `\e` already).
//!
//! Merging: each process adds its cases, under an exclusive lock, to a data file beside the
//! XML (`.NAME.tuicast-parts`, one JSON line per case, after a line naming the run), then
//! writes the whole XML again from every case of the run. A run is nextest's `NEXTEST_RUN_ID`,
//! else the process that started the test binaries (cargo): a new run starts the file afresh.

use std::fmt::Write as _;
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{CheckResult, LiveMode};

/// The environment variable naming the JUnit file of a `cargo test` / nextest run.
pub const JUNIT_ENV: &str = "TUICAST_JUNIT";

/// The largest merge data file read back (about 100,000 failing trials with long messages).
pub const MAX_JUNIT_DATA: u64 = 256 << 20;

/// One trial as JUnit shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct JunitCase {
    /// The `testsuite` it belongs to: the project (its folder's name).
    pub suite: String,
    /// The `classname`: the suite and the cast (`demo::vim`).
    pub classname: String,
    /// The trial's name, as `cargo test` prints it (`vim::insert`).
    pub name: String,
    /// Seconds it took (a cast's replay is shared by its trials: the first carries it).
    pub time: f64,
    /// The failure message, when it failed.
    pub failure: Option<String>,
    /// Where the checkpoint is: `casts/vim.cast:12` (or the cast alone when not known).
    pub place: String,
    /// The golden files it compares with, as messages show them.
    pub goldens: Vec<String>,
}

impl JunitCase {
    /// The case of `result`, a trial of the project `suite`, that took `time` seconds; a
    /// failure's message suggests commands in the live mode `live`.
    pub fn from_result(suite: &str, result: &CheckResult, live: LiveMode, time: f64) -> JunitCase {
        JunitCase {
            suite: suite.to_string(),
            classname: classname(suite, &result.test),
            name: result.test.clone(),
            time,
            failure: (!result.passed()).then(|| result.message_in(live)),
            place: place(&result.cast, result.line),
            goldens: result
                .snapshots
                .iter()
                .map(|s| crate::assert::shown_path(&s.path))
                .collect(),
        }
    }
}

/// Where a checkpoint is, as a case says it: `casts/vim.cast:12`, or the cast alone for line 0
/// (not known: a checkpoint planned from a scenario, a cast that did not read).
pub fn place(cast: &Path, line: u64) -> String {
    let cast = crate::assert::shown_path(cast);
    if line > 0 {
        format!("{cast}:{line}")
    } else {
        cast
    }
}

/// The `classname` of the trial `test` (`cast::checkpoint…`) of `suite`: `suite::cast`.
pub fn classname(suite: &str, test: &str) -> String {
    let cast = test.split("::").next().unwrap_or(test);
    format!("{suite}::{cast}")
}

/// The name of the project at `root` as a JUnit suite: its folder's name.
pub fn suite_name(root: &Path) -> String {
    root.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "tuicast".to_string())
}

/// The JUnit XML document of `cases`: one `testsuite` per suite, in the order they first
/// appear; a trial that appears twice (run again in the same run) counts once, as last seen.
pub fn render(cases: &[JunitCase]) -> String {
    let mut latest: Vec<&JunitCase> = Vec::new();
    let mut index: std::collections::HashMap<(&str, &str), usize> = Default::default();
    for c in cases {
        match index.entry((&c.classname, &c.name)) {
            std::collections::hash_map::Entry::Occupied(at) => latest[*at.get()] = c,
            std::collections::hash_map::Entry::Vacant(at) => {
                at.insert(latest.len());
                latest.push(c);
            }
        }
    }
    let mut suites: Vec<(&str, Vec<&JunitCase>)> = Vec::new();
    let mut suite_index: std::collections::HashMap<&str, usize> = Default::default();
    for c in latest {
        let i = *suite_index.entry(&c.suite).or_insert_with(|| {
            suites.push((&c.suite, Vec::new()));
            suites.len() - 1
        });
        suites[i].1.push(c);
    }
    let failures = |list: &[&JunitCase]| list.iter().filter(|c| c.failure.is_some()).count();
    let time = |list: &[&JunitCase]| list.iter().map(|c| c.time).sum::<f64>();
    let all: Vec<&JunitCase> = suites.iter().flat_map(|(_, l)| l.iter().copied()).collect();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"tuicast\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{}\">",
        all.len(),
        failures(&all),
        seconds(time(&all))
    );
    for (suite, list) in &suites {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" \
             time=\"{}\">",
            xml(suite),
            list.len(),
            failures(list),
            seconds(time(list))
        );
        for c in list {
            let _ = write!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{}\">",
                xml(&c.name),
                xml(&c.classname),
                seconds(c.time)
            );
            if let Some(message) = &c.failure {
                let first = message.lines().next().unwrap_or_default();
                let _ = write!(
                    out,
                    "\n      <failure message=\"{}\" type=\"tuicast\">{}</failure>",
                    xml(first),
                    xml(message)
                );
            }
            let mut said = format!("cast: {}\n", c.place);
            for g in &c.goldens {
                let _ = writeln!(said, "golden: {g}");
            }
            let _ = write!(
                out,
                "\n      <system-out>{}</system-out>\n    </testcase>\n",
                xml(&said)
            );
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// The JUnit XML document of a run that could not start (bad input: a configuration that
/// does not parse, a path that is not there): one suite `tuicast` with one test case,
/// `tuicast`, whose `error` is `message` (its first line the attribute). A CI's reader then
/// shows the error as a failed test, where an empty file would fail to read.
pub fn render_error(message: &str) -> String {
    let first = message.lines().next().unwrap_or_default();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"tuicast\" tests=\"1\" failures=\"0\" errors=\"1\" time=\"0.000\">\n  \
         <testsuite name=\"tuicast\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" \
         time=\"0.000\">\n    \
         <testcase name=\"tuicast\" classname=\"tuicast\" time=\"0.000\">\n      \
         <error message=\"{}\" type=\"tuicast\">{}</error>\n    </testcase>\n  </testsuite>\n\
         </testsuites>\n",
        xml(first),
        xml(message)
    )
}

/// Seconds as the schema's time pattern takes them: three decimals at most.
fn seconds(t: f64) -> String {
    format!("{:.3}", if t.is_finite() && t > 0.0 { t } else { 0.0 })
}

/// `text` escaped for an XML attribute or element (see [`crate::escape::escape_markup`]).
fn xml(text: &str) -> String {
    crate::escape::escape_markup(text)
}

/// What went wrong writing a JUnit file.
#[derive(Debug)]
#[non_exhaustive]
pub struct JunitError {
    /// The file.
    pub path: PathBuf,
    /// What happened.
    pub error: io::Error,
}

impl std::fmt::Display for JunitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot write the JUnit file {}: {}",
            crate::escape::escape_for_terminal(&self.path.display().to_string(), 300),
            self.error
        )
    }
}

impl std::error::Error for JunitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The run the cases of this process belong to: nextest's run, else the process that
/// started this one (cargo, which runs every test binary of a `cargo test`), by its pid and
/// start time (so a pid used again is another run).
pub fn run_key() -> String {
    if let Some(id) = std::env::var("NEXTEST_RUN_ID")
        .ok()
        .filter(|v| !v.is_empty())
    {
        return format!("nextest {id}");
    }
    let parent = std::os::unix::process::parent_id();
    let started = std::fs::read_to_string(format!("/proc/{parent}/stat"))
        .ok()
        .and_then(|s| {
            // After the command name in parentheses, the start time is the 20th field.
            let rest = &s[s.rfind(')')? + 1..];
            rest.split_whitespace().nth(19).map(str::to_string)
        })
        .unwrap_or_default();
    format!("parent {parent} {started}")
}

/// The first line of a JUnit file's merge data: the run its cases belong to.
#[derive(Serialize)]
struct PartsHeader<'a> {
    run: &'a str,
}

/// Adds `cases` to the JUnit file `path` of the run `run` and writes the file again from
/// every case of the run (see the module docs); the file is replaced atomically.
pub fn add_to_file(path: &Path, run: &str, cases: &[JunitCase]) -> Result<(), JunitError> {
    let err = |error: io::Error| JunitError {
        path: path.to_path_buf(),
        error,
    };
    let name = path
        .file_name()
        .ok_or_else(|| err(io::Error::other("it names no file")))?;
    let parts = path.with_file_name(format!(".{}.tuicast-parts", name.to_string_lossy()));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    // Not through a symbolic link: the data file is ours, beside the report.
    if std::fs::symlink_metadata(&parts).is_ok_and(|m| !m.file_type().is_file()) {
        return Err(err(io::Error::other(format!(
            "{} is not a regular file",
            parts.display()
        ))));
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&parts)
        .map_err(err)?;
    let mut file = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusive)
        .map_err(|(_, e)| err(io::Error::from(e)))?;
    if file.metadata().map_err(err)?.len() > MAX_JUNIT_DATA {
        return Err(err(io::Error::other(format!(
            "its merge data {} is over {MAX_JUNIT_DATA} bytes",
            parts.display()
        ))));
    }
    let mut text = String::new();
    file.read_to_string(&mut text).map_err(err)?;
    let header = serde_json::to_string(&PartsHeader { run }).map_err(|e| err(e.into()))?;
    let mut all: Vec<JunitCase> = Vec::new();
    let mut lines = text.lines();
    if lines.next() == Some(header.as_str()) {
        // The same run: keep what the other processes added (a line that does not read is
        // one a killed process left half-written).
        all.extend(lines.filter_map(|l| serde_json::from_str(l).ok()));
    }
    all.extend(cases.iter().cloned());
    let mut data = header;
    data.push('\n');
    for c in &all {
        data.push_str(&serde_json::to_string(c).map_err(|e| err(e.into()))?);
        data.push('\n');
    }
    file.set_len(0).map_err(err)?;
    file.rewind().map_err(err)?;
    file.write_all(data.as_bytes()).map_err(err)?;
    crate::util::write_atomic(path, render(&all).as_bytes()).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str, failure: Option<&str>) -> JunitCase {
        JunitCase {
            suite: "app".into(),
            classname: classname("app", name),
            name: name.into(),
            time: 0.25,
            failure: failure.map(str::to_string),
            place: "casts/vim.cast:3".into(),
            goldens: vec!["snapshots/vim/end.txt".into()],
        }
    }

    #[test]
    fn text_from_a_cast_is_escaped_and_controls_are_replaced() {
        assert_eq!(
            xml("<a href=\"x\">&'\u{1b}[31m\r\u{ffff}"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;\u{fffd}[31m\u{fffd}\u{fffd}"
        );
    }

    #[test]
    fn a_trial_run_again_counts_once_as_last_seen() {
        let xml = render(&[
            case("vim::end", Some("snapshot mismatch: x\nmore")),
            case("vim::end", None),
        ]);
        assert!(xml.contains("tests=\"1\" failures=\"0\""), "{xml}");
        assert!(!xml.contains("<failure"), "{xml}");
    }

    #[test]
    fn a_failure_carries_its_first_line_as_message_and_the_whole_text() {
        let xml = render(&[case(
            "vim::end",
            Some("snapshot mismatch: a\nat casts/vim.cast:3"),
        )]);
        assert!(
            xml.contains(
                "<failure message=\"snapshot mismatch: a\" type=\"tuicast\">snapshot mismatch: \
                 a\nat casts/vim.cast:3</failure>"
            ),
            "{xml}"
        );
        assert!(
            xml.contains(
                "<system-out>cast: casts/vim.cast:3\ngolden: snapshots/vim/end.txt\n</system-out>"
            ),
            "{xml}"
        );
        assert!(xml.contains("time=\"0.250\""), "{xml}");
    }

    #[test]
    fn processes_of_one_run_merge_and_a_new_run_starts_afresh() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out/junit.xml");
        add_to_file(&path, "run 1", &[case("a::end", None)]).unwrap();
        add_to_file(&path, "run 1", &[case("b::end", Some("failed"))]).unwrap();
        let xml = std::fs::read_to_string(&path).unwrap();
        assert!(xml.contains("tests=\"2\" failures=\"1\""), "{xml}");
        add_to_file(&path, "run 2", &[case("c::end", None)]).unwrap();
        let xml = std::fs::read_to_string(&path).unwrap();
        assert!(xml.contains("tests=\"1\" failures=\"0\""), "{xml}");
        assert!(xml.contains("name=\"c::end\""), "{xml}");
    }
}
