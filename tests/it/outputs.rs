//! Whole outputs pinned as goldens (issue 25 point 5): where an output is a contract — the
//! `--help` of every command with its examples, the CLI's messages for bad input and failed
//! checks, JSON replies, TOML written back, the report's HTML structure — a test compares all
//! of it with a golden under `tests/it/outputs/`, after [`normalize`] has replaced what changes
//! from run to run (temporary folders, the repository's path, durations, pids). Substring
//! checks stay for what is truly partial.
//!
//! The goldens are tuicast's own: [`tuicast::assert::check_file`] compares and writes them as
//! cast goldens are (`TUICAST_UPDATE`: `new` writes `NAME.txt.new` beside a mismatch, `always`
//! overwrites, nothing is written under CI), and `tests/it/tuicast.toml` makes the folder a
//! snapshots folder, so a change is reviewed with tuicast itself:
//!
//! ```text
//! cargo test --test it outputs          # a mismatch writes tests/it/outputs/NAME.txt.new
//! (cd tests/it && cargo run -q -- review)
//! ```

use std::path::Path;

use serde_json::Value;

use crate::util::{root, tuicast, Dir};

/// The command that reviews the outputs' pending goldens.
const REVIEW: &str = "(cd tests/it && cargo run -q -- review)";

/// Checks `text`, already normalised, against `tests/it/outputs/NAME.txt`; a mismatch or a
/// missing golden panics with the difference and the command that reviews it.
#[track_caller]
pub(crate) fn assert_whole(name: &str, text: &str) {
    use tuicast::assert::{check_file, Outcome, UpdateAction};
    let golden = root().join("tests/it/outputs").join(format!("{name}.txt"));
    let action = UpdateAction::from_env().expect("TUICAST_UPDATE");
    let outcome = check_file(&golden, text, action, false).expect("the golden reads and writes");
    let pending = |p: &Option<std::path::PathBuf>| match p {
        Some(p) => format!("written: {}\nreview: {REVIEW}", p.display()),
        None => "nothing written (CI, or TUICAST_UPDATE=no)".to_string(),
    };
    match outcome {
        Outcome::Pass | Outcome::Updated => {}
        Outcome::Missing { pending: p } => panic!(
            "no golden {} yet for this output:\n{text}\n{}",
            golden.display(),
            pending(&p)
        ),
        Outcome::Mismatch {
            expected,
            pending: p,
            ..
        } => panic!(
            "the whole output differs from {}:\n{}\n{}",
            golden.display(),
            tuicast::assert::unified(&expected, text, false),
            pending(&p)
        ),
        other => panic!("{other:?}"),
    }
}

/// `text` with what changes between runs replaced: each of `dirs` (a test's folders) by its
/// name in brackets, the repository's path by `[ROOT]`, other temporary folders by `[TMP]`,
/// and durations (`0.25s`, `12ms`, `finished in 0.01s`) by `[TIME]`.
pub(crate) fn normalize(text: &str, dirs: &[(&Path, &str)]) -> String {
    let mut out = text.to_string();
    for (dir, name) in dirs {
        // The folder as given and after symbolic links (macOS /tmp, a test's canonical path).
        let mut forms = vec![dir.display().to_string()];
        if let Ok(c) = dir.canonicalize() {
            forms.push(c.display().to_string());
        }
        forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
        for f in forms {
            out = out.replace(&f, &format!("[{name}]"));
        }
    }
    out = out.replace(&root().display().to_string(), "[ROOT]");
    let tmp = regex::Regex::new(r"/tmp/\.tmp[A-Za-z0-9]+").unwrap();
    out = tmp.replace_all(&out, "[TMP]").into_owned();
    let time = regex::Regex::new(r"\b\d+(\.\d+)?(ms|s)\b").unwrap();
    time.replace_all(&out, "[TIME]").into_owned()
}

/// `value` pretty-printed with the values of `keys` (anywhere in it) replaced by `"[KEY]"`:
/// what a reply says of time and processes.
pub(crate) fn normalize_json(value: &Value, keys: &[&str]) -> String {
    fn walk(v: &mut Value, keys: &[&str]) {
        match v {
            Value::Object(map) => {
                for (k, x) in map.iter_mut() {
                    if keys.contains(&k.as_str()) && !x.is_null() {
                        *x = Value::String(format!("[{k}]"));
                    } else {
                        walk(x, keys);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|x| walk(x, keys)),
            _ => {}
        }
    }
    let mut v = value.clone();
    walk(&mut v, keys);
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

/// The subcommands `tuicast --help` lists, and theirs (`session start`…), `help` aside.
fn subcommands(path: &[&str]) -> Vec<String> {
    let mut args: Vec<&str> = path.to_vec();
    args.push("--help");
    let help = tuicast(args).success();
    let mut names = Vec::new();
    let mut inside = false;
    for line in help.stdout().lines() {
        if line == "Commands:" {
            inside = true;
        } else if inside && !line.starts_with("  ") {
            break;
        } else if inside {
            let name = line.split_whitespace().next().unwrap_or_default();
            if line.starts_with("  ") && !line.starts_with("   ") && name != "help" {
                names.push(name.to_string());
            }
        }
    }
    names
}

#[test]
fn every_commands_help_with_its_examples() {
    let mut all = vec![vec![]];
    for sub in subcommands(&[]) {
        let nested = subcommands(&[sub.as_str()]);
        all.push(vec![sub.clone()]);
        for n in nested {
            all.push(vec![sub.clone(), n]);
        }
    }
    assert!(all.len() > 25, "{all:?}");
    let mut failures = Vec::new();
    for path in &all {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = tuicast(&args).success();
        let name = if path.is_empty() {
            "help".to_string()
        } else {
            format!("help-{}", path.join("-"))
        };
        // Every command's help ends with its examples (DESIGN.md), so they are pinned too.
        if !out.stdout().contains("Examples:") {
            failures.push(format!("tuicast {}: no examples", path.join(" ")));
        }
        let text = out.stdout().to_string();
        if let Err(e) = std::panic::catch_unwind(|| assert_whole(&name, &text)) {
            failures.push(
                e.downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| name.clone()),
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_messages_of_bad_input_and_of_a_failed_check() {
    let dir = Dir::new();
    let d = [(dir.path(), "DIR")];
    let mut text = String::new();
    let mut case = |title: &str, out: crate::util::Run| {
        text.push_str(&format!(
            "== {title}: exit {}\n-- stdout\n{}-- stderr\n{}",
            out.code().unwrap_or(-1),
            out.stdout(),
            out.stderr()
        ));
    };
    case(
        "a missing cast",
        dir.tuicast(["replay", "missing.cast"]).run().fails_with(2),
    );
    dir.write(
        "bad.cast",
        "{\"version\": 3, \"term\": {\"cols\": 20, \"rows\": 2}}\n[0.1, \"o\", \"hi\"]\n[0.2, \"o\"\n",
    );
    case(
        "a cast cut short",
        dir.tuicast(["replay", "bad.cast"]).run().fails_with(2),
    );
    dir.write(
        "two.cast",
        "{\"version\": 3, \"term\": {\"cols\": 20, \"rows\": 2}}\n[0.1, \"o\", \"hi\"]\n[0.1, \"m\", \"shown\"]\n",
    );
    case(
        "an unknown checkpoint",
        dir.tuicast(["replay", "two.cast", "--at", "hidden"])
            .run()
            .fails_with(2),
    );
    dir.write(
        "casts/s.toml",
        "command = [\"true\"]\nsteps = [{ wait = { idle = \"soon\" } }]\nsize = \"80x24\"\n",
    );
    case(
        "a scenario with a wrong value",
        dir.tuicast(["test"]).clean_update_env().run().fails_with(2),
    );
    std::fs::remove_file(dir.join("casts/s.toml")).unwrap();
    dir.write("casts/t.toml", "command = [\"true\"]\nstep = []\n");
    case(
        "a scenario with an unknown key",
        dir.tuicast(["test"]).clean_update_env().run().fails_with(2),
    );
    assert_whole("messages-bad-input", &normalize(&text, &d));

    let (project, _golden, _) = crate::util::project_with_a_changed_golden();
    let out = project
        .tuicast(["test"])
        .clean_update_env()
        .env("CI", "true")
        .run()
        .fails_with(1);
    let text = format!("-- stdout\n{}-- stderr\n{}", out.stdout(), out.stderr());
    assert_whole(
        "messages-failed-check",
        &normalize(&text, &[(project.path(), "PROJECT")]),
    );
}

#[test]
fn the_json_of_a_screen_and_of_an_inspection() {
    let cast = root().join("casts/shell.cast");
    let screen = tuicast([
        "replay",
        cast.to_str().unwrap(),
        "--at",
        "listing",
        "--format",
        "json",
    ])
    .success();
    assert_whole("json-screen", &normalize_json(&screen.json(), &[]));
    let dialog = root().join("casts/dialog.cast");
    let inspected = tuicast(["inspect", dialog.to_str().unwrap(), "--json"]).success();
    assert_whole("json-inspect", &normalize_json(&inspected.json(), &[]));
}

/// The element tree of an HTML page, one element a line, indented by depth: its tag, id and
/// classes, and the text directly inside it (trimmed, cut at 120 characters); the contents of
/// `script` and `style` are left out (their size is said) and so are the `data-` attributes.
fn html_outline(html: &str) -> String {
    let tag = regex::Regex::new(r#"(?s)<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*?)(/?)>"#).unwrap();
    let attr = regex::Regex::new(r#"\b(id|class)="([^"]*)""#).unwrap();
    let void = [
        "meta", "link", "br", "img", "input", "hr", "col", "source", "wbr",
    ];
    let mut out = String::new();
    let mut depth = 0usize;
    let mut at = 0;
    let mut skip_until: Option<String> = None;
    for m in tag.captures_iter(html) {
        let whole = m.get(0).unwrap();
        let name = m[2].to_ascii_lowercase();
        let closing = &m[1] == "/";
        if let Some(end) = &skip_until {
            if closing && *end == name {
                out.push_str(&format!(
                    "{}({} bytes)\n",
                    "  ".repeat(depth),
                    whole.start() - at
                ));
                skip_until = None;
                depth = depth.saturating_sub(1);
                at = whole.end();
            }
            continue;
        }
        let text: String = html[at..whole.start()]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if !text.is_empty() {
            let cut: String = text.chars().take(120).collect();
            out.push_str(&format!("{}\"{cut}\"\n", "  ".repeat(depth)));
        }
        at = whole.end();
        if closing {
            depth = depth.saturating_sub(1);
            continue;
        }
        let mut line = format!("{}{name}", "  ".repeat(depth));
        for a in attr.captures_iter(&m[3]) {
            match &a[1] {
                "id" => line.push_str(&format!("#{}", &a[2])),
                _ => {
                    for c in a[2].split_whitespace() {
                        line.push_str(&format!(".{c}"));
                    }
                }
            }
        }
        out.push_str(&line);
        out.push('\n');
        if &m[4] != "/" && !void.contains(&name.as_str()) {
            depth += 1;
            if name == "script" || name == "style" {
                skip_until = Some(name);
            }
        }
    }
    out
}

#[test]
fn the_reports_html_structure() {
    let (project, _golden, _) = crate::util::project_with_a_changed_golden();
    project
        .tuicast(["test", "--report", "rep"])
        .clean_update_env()
        .env("CI", "true")
        .run()
        .fails_with(1);
    let html = std::fs::read_to_string(project.join("rep/index.html")).unwrap();
    let outline = html_outline(&normalize(&html, &[(project.path(), "PROJECT")]));
    // Byte counts of the page's script and style change with any edit of them: the structure
    // is what is pinned here (tests/it/report.rs drives the page in Chromium).
    let bytes = regex::Regex::new(r"\(\d+ bytes\)").unwrap();
    let outline = bytes.replace_all(&outline, "(… bytes)");
    assert_whole("report-html-outline", &outline);
}
