//! README.md's command lines are tests. Every command line of a ```` ```sh ```` block that runs
//! tuicast (`tuicast ...`, or `cargo run ... -- ...`, which runs the same binary) runs with the
//! real binary, in README order, in a temporary copy of the example suite (`casts/`,
//! `snapshots/`, `tuicast.toml` if any, and the repository files the command names), so what it
//! writes lands there and never in the repository. Each must exit 0 and write the `-o` file
//! it names. A line that cannot run here is listed in [`EXCUSED`] with the reason; a line that
//! is neither run nor excused fails the test, and so does a list entry the README no longer has.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::util::{root, Run, BIN};

/// Command lines that are not run, exactly as the README writes them (continuations joined,
/// comments dropped), with why.
const EXCUSED: &[(&str, &str)] = &[(
    "cargo test --workspace",
    "runs the repository's whole test suite, this test included; CI runs it anyway",
)];

/// README commands that fail today, with the error they give. The test checks that each still
/// fails, so fixing the command (or the README) means taking it off this list.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

#[test]
fn every_command_line_in_the_readme_runs_or_is_excused() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let commands = sh_commands(&readme);
    assert!(
        commands.len() >= 5,
        "found only {} sh command lines in README.md: {commands:?}",
        commands.len()
    );

    let suite = Suite::new();
    let mut ran = 0;
    let mut problems = Vec::new();
    for (line_no, command) in &commands {
        if EXCUSED.iter().any(|(c, _)| *c == command) {
            continue;
        }
        let Some(args) = tuicast_args(command) else {
            problems.push(format!(
                "README.md:{line_no}: `{command}` does not run tuicast: run it here or add it \
                 to EXCUSED in tests/it/readme.rs with the reason"
            ));
            continue;
        };
        suite.copy_files_named_by(args);
        let out = suite.run(*line_no, command, args);
        ran += 1;
        let known = KNOWN_FAILURES.iter().find(|(c, _)| *c == command);
        match (out.succeeded(), known) {
            (true, None) => {
                for file in outputs(args) {
                    let path = suite.dir.path().join(file);
                    if fs::metadata(&path).map_or(true, |m| m.len() == 0) {
                        problems.push(format!(
                            "README.md:{line_no}: `{command}` wrote no {file}\n{out}"
                        ));
                    }
                }
            }
            (false, None) => problems.push(format!("README.md:{line_no}: failed\n{out}")),
            (true, Some(_)) => problems.push(format!(
                "README.md:{line_no}: `{command}` works now: take it off KNOWN_FAILURES\n{out}"
            )),
            (false, Some((_, error))) => {
                if !out.stderr().contains(error) {
                    problems.push(format!(
                        "README.md:{line_no}: a known failure fails differently now \
                         (expected {error:?})\n{out}"
                    ));
                }
            }
        }
    }
    for (listed, _) in EXCUSED.iter().chain(KNOWN_FAILURES) {
        if !commands.iter().any(|(_, c)| c == listed) {
            problems.push(format!(
                "`{listed}` is listed in tests/it/readme.rs but README.md no longer has it"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s) with README.md's commands ({ran} run):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
    assert!(ran >= 5, "only {ran} README commands ran");
}

#[test]
fn command_lines_are_found_joined_and_stripped_of_comments() {
    let md = "text\n```sh\n# a comment\ntuicast a   # why\n\ntuicast b \\\n    --x 'y # z'\n```\n\
              ```text\ntuicast not-sh\n```\n```rust\ntuicast();\n```\n";
    assert_eq!(
        sh_commands(md),
        [
            (4, "tuicast a".to_string()),
            (6, "tuicast b --x 'y # z'".to_string())
        ]
    );
    assert_eq!(tuicast_args("tuicast replay x"), Some("replay x"));
    assert_eq!(tuicast_args("cargo run --release -- test"), Some("test"));
    assert_eq!(tuicast_args("cargo test"), None);
    assert_eq!(
        outputs("replay a.cast --format png -o 'b.png' --chrome"),
        ["b.png"]
    );
}

/// The command lines of the ```` ```sh ```` blocks of `markdown`, each with the README line it
/// starts on: continuation lines (`\` at the end) joined, comments and blank lines dropped.
fn sh_commands(markdown: &str) -> Vec<(usize, String)> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        if let Some(info) = fence {
            in_sh = !in_sh && info.trim() == "sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let code = strip_comment(line).trim();
        let (start, mut text) = pending.take().unwrap_or((i + 1, String::new()));
        if let Some(head) = code.strip_suffix('\\') {
            text.push_str(head.trim_end());
            text.push(' ');
            pending = Some((start, text));
        } else {
            text.push_str(code);
            if !text.trim().is_empty() {
                commands.push((start, text.trim().to_string()));
            }
        }
    }
    commands
}

/// `line` without a shell comment: a `#` that starts a word, outside quotes.
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut word_start = true;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '#') if word_start => return &line[..i],
            _ => {}
        }
        word_start = quote.is_none() && c.is_whitespace();
    }
    line
}

/// The arguments a command line passes to tuicast, if it runs tuicast.
fn tuicast_args(command: &str) -> Option<&str> {
    if let Some(args) = command.strip_prefix("tuicast ") {
        return Some(args.trim());
    }
    if command.starts_with("cargo run") {
        return command.split_once(" -- ").map(|(_, args)| args.trim());
    }
    None
}

/// The files a command line writes with `-o FILE` (unquoted as the shell would).
fn outputs(args: &str) -> Vec<&str> {
    let words: Vec<&str> = args.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[0] == "-o" || w[0] == "--output")
        .map(|w| w[1].trim_matches(|c| c == '\'' || c == '"'))
        .filter(|f| *f != "-")
        .collect()
}

/// A temporary copy of the example suite with `tuicast` (the binary under test) on PATH.
struct Suite {
    dir: tempfile::TempDir,
    bin: tempfile::TempDir,
}

impl Suite {
    fn new() -> Suite {
        let dir = tempfile::tempdir().unwrap();
        // (tuicast.toml's [[screenshot]]s are drawn from these casts into docs/screenshots.)
        for rel in [
            "casts",
            "snapshots",
            "tuicast.toml",
            "docs/screenshots",
            "tests/conformance/cases/mc.cast",
        ] {
            copy(&root().join(rel), &dir.path().join(rel));
        }
        let bin = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(BIN, bin.path().join("tuicast")).unwrap();
        Suite { dir, bin }
    }

    /// Copies in every repository file a command names (`tests/conformance/cases/mc.cast`),
    /// with the scenario file beside a cast.
    fn copy_files_named_by(&self, args: &str) {
        for word in args.split_whitespace() {
            let word = word.trim_matches(|c| c == '\'' || c == '"');
            if word.starts_with('-') || word.contains("..") || Path::new(word).is_absolute() {
                continue;
            }
            let from = root().join(word);
            if from.is_file() {
                copy(&from, &self.dir.path().join(word));
                let toml = Path::new(word).with_extension("toml");
                copy(&root().join(&toml), &self.dir.path().join(&toml));
            }
        }
    }

    /// Runs `tuicast ARGS` through `sh`, as a reader who pastes the line would.
    fn run(&self, line_no: usize, command: &str, args: &str) -> Run {
        let path = std::env::join_paths(std::iter::once(self.bin.path().to_path_buf()).chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ))
        .unwrap();
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("tuicast {args}"))
            .current_dir(self.dir.path())
            .env("PATH", path)
            .env("NO_COLOR", "1")
            .env_remove("CI")
            .env_remove("TUICAST_UPDATE")
            .env_remove("TUICAST_LIVE")
            .output()
            .expect("run sh");
        let run_as = format!("tuicast {args}");
        let shown = if *command == run_as {
            format!(
                "{command}\n  (README.md:{line_no}, in {})",
                self.dir.path().display()
            )
        } else {
            format!(
                "{command}\n  (README.md:{line_no}, run as `{run_as}` in {})",
                self.dir.path().display()
            )
        };
        Run::new(shown, output)
    }
}

/// Copies a file or a folder tree; nothing if `from` does not exist.
fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy(&entry.path(), &to.join(entry.file_name()));
        }
    } else if from.is_file() {
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(from, to).unwrap();
    }
}

/// Issue 23: `tuicast test` builds the package (runs its `build.rs`) for `bin =` scenarios, and
/// docs/ci.md did not say that only replay avoids it. It says so, and its workflow for pull
/// requests you do not trust replays only and builds nothing of the checkout.
#[test]
fn the_ci_docs_say_live_runs_build_the_package_and_untrusted_pull_requests_replay() {
    let ci =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ci.md")).unwrap();
    assert!(
        ci.contains("`build.rs`") && ci.contains("`cargo build`"),
        "docs/ci.md"
    );
    let section = ci
        .split("### Pull requests you do not trust")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("docs/ci.md has a section for untrusted pull requests");
    let workflow = section
        .split("```yaml")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("the section has a workflow");
    let runs: Vec<&str> = workflow
        .lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("run: "))
        .collect();
    assert!(
        runs.iter().any(|r| r.starts_with("tuicast test --replay")),
        "{runs:?}"
    );
    for r in &runs {
        assert!(
            r.starts_with("tuicast ") && r.contains("--replay") || r.starts_with("cargo install"),
            "a step of the untrusted workflow may run the pull request's code: {r}"
        );
    }
    assert!(!workflow.contains("pull_request_target"), "{workflow}");
}

/// Issue 40 point 8: the README and the docs agree with each other and with the code: the
/// scenario comment's default settle is the one `Settle::DEFAULT` is (and docs/scenarios.md
/// says), every schema file the docs name exists under docs/schemas/ under the name
/// `tuicast schema` gives it, and the dependency snippet names the package's version, no
/// placeholder URL.
#[test]
fn the_readme_and_the_docs_agree() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let scenarios = fs::read_to_string(root().join("docs/scenarios.md")).unwrap();
    assert_eq!(
        tuicast::record::Settle::DEFAULT.to_string(),
        "auto:50ms",
        "the default the docs describe"
    );
    let line = readme
        .lines()
        .find(|l| l.starts_with("settle = "))
        .expect("the README's scenario sets settle");
    assert!(
        line.starts_with("settle = \"auto\"") && line.contains("(the default)"),
        "{line}"
    );
    assert!(
        scenarios.contains("| `settle = \"auto\"` | When a checkpoint is taken (below). `\"auto\"` (the default, `\"auto:50ms\"`)"),
        "docs/scenarios.md's settle row"
    );
    assert!(
        !readme.contains("50 ms by default"),
        "README: settle is auto by default"
    );
    // Schema files the docs and README name are the ones docs/schemas/ holds.
    for (name, text) in [("README.md", &readme), ("docs/scenarios.md", &scenarios)] {
        for word in text.split(|c: char| c.is_whitespace() || "`()[]\"'".contains(c)) {
            if word.ends_with(".schema.json") {
                panic!("{name} names {word}: the schemas are docs/schemas/NAME.json");
            }
            if let Some(rel) = word.strip_prefix("docs/schemas/").filter(|r| !r.is_empty()) {
                assert!(
                    root().join("docs/schemas").join(rel).is_file(),
                    "{name}: {word}"
                );
            }
        }
    }
    // The dependency snippet: the package's own version, no placeholder.
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        readme.contains(&format!(
            "tuicast = {{ version = \"{version}\", default-features = false }}"
        )),
        "README's dev-dependency line names version {version}"
    );
    assert!(
        !readme.contains("…/tuicast"),
        "a placeholder URL in the README"
    );
}
