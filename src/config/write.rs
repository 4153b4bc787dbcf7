//! Scenarios written as TOML, in the schema [`CastFile`](super::CastFile) reads: what
//! `tuicast session stop --save` and `tuicast record --scenario` write, and how `tuicast
//! session` sends one step to its daemon. What is written reads back as the same steps (the
//! round trip is tested).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::record::scenario::Target;
use crate::record::{Action, Program, Scenario, Settle, Step, Wait};

/// A TOML string (quoted and escaped).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A value the schema expands `${VAR}` in (`command`, `args`, `cwd`, `env`): each `$` doubled,
/// so it reads back as written.
fn literal(s: &str) -> String {
    quoted(&s.replace('$', "$$"))
}

/// A list of such values.
fn literal_list(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|i| literal(i)).collect();
    format!("[{}]", inner.join(", "))
}

/// A duration as the schema reads it: `"300ms"`.
fn duration(d: Duration) -> String {
    quoted(&super::cast_file::millis(d))
}

/// A settle rule as `settle =` reads it.
fn settle(s: Settle) -> String {
    quoted(&super::cast_file::settle_text(s))
}

/// A TOML key: bare when it can be, else quoted.
fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        quoted(k)
    }
}

/// A list of strings.
fn list(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|i| quoted(i)).collect();
    format!("[{}]", inner.join(", "))
}

/// One step as an inline table: `{ press = "Enter" }`, `{ wait = { idle = "300ms" }, timeout
/// = "5s" }`, written through the types the schema reads it with.
pub fn step_toml(step: &Step) -> String {
    super::cast_file::step_text(step)
}

/// The regions the mouse steps of `steps` name, as a `[regions]` table of the regions of
/// `regions` (the project's, where the session started) to write after [`scenario_toml`]'s
/// text: so the scenario finds them wherever it is recorded or replayed. Empty when the steps
/// name none.
pub fn used_regions_toml(steps: &[Step], regions: &super::Regions) -> String {
    let mut names = std::collections::BTreeSet::new();
    let mut adapters = std::collections::BTreeSet::new();
    let mut selectors = Vec::new();
    for step in steps {
        if let Action::Wait(Wait::Ref(r)) = &step.action {
            selectors.push(&r.selector);
        }
        for t in step.action.targets() {
            match t {
                Target::Region(_, crate::inspect::Anchor::Ref(r)) => selectors.push(r.selector()),
                Target::Region(name, _) => {
                    names.insert(name.as_str());
                }
                _ => {}
            }
        }
    }
    for s in selectors {
        names.extend(s.region_names());
        adapters.extend(s.adapters());
    }
    let written: Vec<String> = names
        .into_iter()
        .filter_map(|n| Some(format!("{} = {}", key(n), regions.toml(n)?)))
        .collect();
    // The project's own adapters its refs name (the built-in ones every tuicast has).
    let manifests: Vec<String> = regions
        .adapters()
        .written()
        .filter(|(name, _)| adapters.contains(name))
        .map(|(name, toml)| format!("{} = {toml}", key(name)))
        .collect();
    let mut out = String::new();
    if !written.is_empty() {
        out.push_str(&format!(
            "\n# The regions its steps name, from the tuicast.toml where the session ran.\n\
             [regions]\n{}\n",
            written.join("\n")
        ));
    }
    if !manifests.is_empty() {
        out.push_str(&format!(
            "\n# The app manifests its refs name, from the tuicast.toml where the session ran.\n\
             [adapters]\n{}\n",
            manifests.join("\n")
        ));
    }
    out
}

/// `path` as written in a file of folder `dir` (both absolute): relative when they share a
/// folder below the root (`sub`, `..`, `../work/x.sh`), so the files can move together with
/// what they name; else absolute. `.` and `..` in `path` are resolved first, as names.
fn relative_to(path: &Path, dir: &Path) -> PathBuf {
    use std::path::Component;
    let clean = |p: &Path| -> Vec<std::ffi::OsString> {
        let mut parts: Vec<std::ffi::OsString> = Vec::new();
        for c in p.components() {
            match c {
                Component::Normal(n) => parts.push(n.to_os_string()),
                Component::ParentDir => {
                    parts.pop();
                }
                _ => {}
            }
        }
        parts
    };
    let (to, from) = (clean(path), clean(dir));
    let common = to.iter().zip(&from).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return path.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for part in &to[common..] {
        out.push(part);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// `scenario` as a cast's TOML file placed in `dir` (its `cwd` and a program path written
/// relative to `dir` where they share a folder with it), after the comment lines of `comment`.
pub fn scenario_toml(scenario: &Scenario, dir: &Path, comment: &str) -> String {
    let mut out = String::new();
    for line in comment.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let cwd = std::path::absolute(&scenario.cwd).unwrap_or_else(|_| scenario.cwd.clone());
    match &scenario.program {
        Program::Argv(argv) => {
            // A program path with a `/` is read relative to the file's folder: one the program
            // was started by relative to its working folder (`./menu.sh`) is written so.
            let mut argv = argv.clone();
            if let Some(program) = argv.first_mut() {
                let path = Path::new(program.as_str());
                if program.contains('/') && path.is_relative() {
                    *program = relative_to(&cwd.join(path), &dir)
                        .to_string_lossy()
                        .into_owned();
                }
            }
            let _ = writeln!(out, "command = {}", literal_list(&argv));
        }
        Program::Shell(script) => {
            let _ = writeln!(out, "shell = {}", quoted(script));
        }
        Program::Bin { name, args, .. } => {
            let _ = writeln!(out, "bin = {}", quoted(name));
            if !args.is_empty() {
                let _ = writeln!(out, "args = {}", literal_list(args));
            }
        }
    }
    if cwd != dir {
        let shown = relative_to(&cwd, &dir);
        let _ = writeln!(out, "cwd = {}", literal(&shown.to_string_lossy()));
    }
    if scenario.in_place {
        let _ = writeln!(out, "in_place = true");
    }
    if let Some(size) = scenario.size {
        let _ = writeln!(out, "size = {}", quoted(&size.to_string()));
    }
    if !scenario.env.is_empty() {
        let pairs: Vec<String> = scenario
            .env
            .iter()
            .map(|(k, v)| format!("{} = {}", key(k), literal(v)))
            .collect();
        let _ = writeln!(out, "env = {{ {} }}", pairs.join(", "));
    }
    if !scenario.inherit_env.is_empty() {
        let _ = writeln!(out, "inherit_env = {}", list(&scenario.inherit_env));
    }
    if let Some(t) = scenario.timeout {
        let _ = writeln!(out, "timeout = {}", duration(t));
    }
    if let Some(s) = scenario.settle {
        let _ = writeln!(out, "settle = {}", settle(s));
    }
    if let Some(t) = &scenario.title {
        let _ = writeln!(out, "title = {}", quoted(t));
    }
    if !scenario.redact.is_empty() {
        let patterns: Vec<String> = scenario
            .redact
            .iter()
            .map(|r| r.as_str().to_string())
            .collect();
        let _ = writeln!(out, "redact = {}", list(&patterns));
    }
    out.push_str("steps = [\n");
    for step in &scenario.steps {
        let _ = writeln!(out, "  {},", step_toml(step));
    }
    out.push_str("]\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_written_relative_to_the_file_where_they_share_a_folder() {
        let rel = |p: &str, d: &str| relative_to(Path::new(p), Path::new(d));
        assert_eq!(rel("/w/p/casts/sub", "/w/p/casts"), PathBuf::from("sub"));
        assert_eq!(rel("/w/p", "/w/p/casts"), PathBuf::from(".."));
        assert_eq!(rel("/w/p/./x.sh", "/w/p/casts"), PathBuf::from("../x.sh"));
        assert_eq!(
            rel("/w/q/../p/x.sh", "/w/p/casts/a"),
            PathBuf::from("../../x.sh")
        );
        assert_eq!(rel("/w/p/casts", "/w/p/casts"), PathBuf::from("."));
        assert_eq!(
            rel("/usr/bin/vim", "/w/p/casts"),
            PathBuf::from("/usr/bin/vim")
        );
    }
    use crate::config::{parse_step, CastFile};
    use crate::pos::Point;
    use crate::record::mouse::{MouseButton, ScrollDirection};
    use crate::term::Size;
    use regex::Regex;

    fn every_step() -> Vec<Step> {
        let mut steps: Vec<Step> = [
            Action::Wait(Wait::Text("Ready \"now\"\n\\ é".into())),
            Action::Wait(Wait::Regex(Regex::new(r"(?m)^ *\$ *$").unwrap())),
            Action::Wait(Wait::Idle(Duration::from_millis(300))),
            Action::Wait(Wait::Gone("Loading".into())),
            Action::Wait(Wait::Cursor(Point::new(0, 4))),
            Action::Wait(Wait::Echo(false)),
            Action::Wait(Wait::Echo(true)),
            Action::Press(vec!["Enter".into()]),
            Action::Press(vec!["Esc".into(), ":".into(), "C-c".into()]),
            Action::Type("a\tb\u{1b}[A'\"".into()),
            Action::Snapshot("saved".into()),
            Action::Secret("TOKEN".into()),
            Action::Resize(Size {
                cols: 100,
                rows: 30,
            }),
            Action::Exit(Some(3)),
            Action::Exit(None),
            Action::Sleep(Duration::from_millis(20)),
            Action::Wait(Wait::Title("vim — x".into())),
            Action::Wait(Wait::Bell),
            Action::Wait(Wait::Clipboard("copied".into())),
            Action::Wait(Wait::Prompt(crate::inspect::PromptKind::YesNo)),
            Action::Wait(Wait::AnyPrompt),
            Action::Wait(Wait::Silent(Duration::from_millis(250))),
            Action::Wait(Wait::Changed("00ff00ff00ff00ff".into())),
            Action::Click(Target::Text("OK".into()), MouseButton::Right),
            Action::Click(Target::Cell(Point::new(2, 4)), MouseButton::Left),
            Action::Drag {
                from: Target::Cell(Point::new(0, 0)),
                to: Target::Regex(Regex::new("x+").unwrap()),
                button: MouseButton::Middle,
            },
            Action::Scroll(ScrollDirection::Down, Target::Text("list".into()), 3),
            Action::Scroll(ScrollDirection::Up, Target::Cell(Point::new(9, 9)), 1),
            Action::Hover(Target::Cell(Point::new(5, 6))),
            Action::Paste("multi\nline \"quoted\"".into()),
            Action::Focus(false),
        ]
        .into_iter()
        .map(Step::new)
        .collect();
        steps[0].timeout = Some(Duration::from_secs(30));
        steps[10].settle = Some(Settle::Quiet(Duration::from_millis(200)));
        steps
    }

    fn same(a: &[Step], b: &[Step]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert_eq!(x.describe(), y.describe());
            assert_eq!(
                (x.timeout, x.settle),
                (y.timeout, y.settle),
                "{}",
                x.describe()
            );
            match (&x.action, &y.action) {
                (Action::Type(p), Action::Type(q)) | (Action::Paste(p), Action::Paste(q)) => {
                    assert_eq!(p, q)
                }
                (Action::Wait(Wait::Text(p)), Action::Wait(Wait::Text(q))) => assert_eq!(p, q),
                (Action::Wait(Wait::Regex(p)), Action::Wait(Wait::Regex(q))) => {
                    assert_eq!(p.as_str(), q.as_str())
                }
                _ => {}
            }
        }
    }

    /// The regions a step names, as their anchors print.
    fn region_anchors(steps: &[Step]) -> Vec<String> {
        steps
            .iter()
            .filter_map(|s| match &s.action {
                Action::Click(Target::Region(n, a), _) | Action::Hover(Target::Region(n, a)) => {
                    Some(format!("{n}: {a:?}"))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_regions_a_scenario_names_are_written_with_it_and_read_back_the_same() {
        let dir = std::env::temp_dir().join(format!("tuicast-regions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("tuicast.toml"),
            "[regions]\nready = { match = { regex = \"re\\\\dy\", offset = [0, 1], width = 1 } }\n\
             unused = { last_row = true }\n\"odd name\" = { inside = { box = \"Todos\" } }\n\
             [regions.third]\nrows = \"1..=2\"\ncols = 3\nlabel = \"the third\"\n",
        )
        .unwrap();
        let regions = crate::config::Config::load(&dir).unwrap().regions;
        let _ = std::fs::remove_dir_all(&dir);
        let steps: Vec<Step> = [
            "{ click = { region = \"ready\" } }",
            "{ hover = { region = \"third\" } }",
            "{ click = { region = \"odd name\" }, button = \"right\" }",
            "{ click = { region = \"ready\" } }",
        ]
        .iter()
        .map(|t| crate::config::parse_step(Path::new("step"), t, &regions).unwrap())
        .collect();
        let mut s = Scenario::new(Program::Argv(vec!["true".into()]), &dir);
        s.steps = steps;
        let table = used_regions_toml(&s.steps, &regions);
        assert!(!table.contains("unused"), "{table}");
        let text = scenario_toml(&s, &dir, "") + &table;
        // Read without the project's regions: the scenario's own find the same cells.
        let file = CastFile::parse(
            &dir.join("x.toml"),
            &text,
            &crate::config::Regions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let back = file.scenario().unwrap();
        assert_eq!(
            region_anchors(&back.steps),
            region_anchors(&s.steps),
            "{text}"
        );
        assert_eq!(region_anchors(&s.steps).len(), 4);
        // Steps that name no region add nothing.
        assert_eq!(used_regions_toml(&every_step(), &regions), "");
    }

    #[test]
    fn a_written_scenario_reads_back_as_the_same_steps() {
        let dir = std::env::temp_dir();
        let mut s = Scenario::new(
            Program::Argv(vec![
                "/bin/sh".into(),
                "-c".into(),
                "echo 'hi' ${#x} $$".into(),
            ]),
            &dir.join("sub"),
        );
        s.size = Some(Size { cols: 90, rows: 20 });
        s.env.insert("A B".into(), "x\"y${HOME}".into());
        s.timeout = Some(Duration::from_secs(5));
        s.settle = Some(Settle::Auto(Duration::from_millis(80)));
        s.steps = every_step();
        let text = scenario_toml(&s, &dir, "written by a test\nsecond line");
        let path = dir.join("round-trip.toml");
        let file = CastFile::parse(&path, &text, &crate::config::Regions::default())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let back = file.scenario().unwrap();
        same(&s.steps, &back.steps);
        assert_eq!(back.program, s.program);
        assert_eq!(back.cwd, dir.join("sub"));
        // A folder above the file's is written with `..`.
        s.cwd = dir.clone();
        let text = scenario_toml(&s, &dir.join("a/b"), "");
        assert!(text.contains("cwd = \"../..\""), "{text}");
        let file = CastFile::parse(
            &dir.join("a/b/x.toml"),
            &text,
            &crate::config::Regions::default(),
        )
        .unwrap();
        assert_eq!(file.scenario().unwrap().cwd, dir.join("a/b/../.."));
        assert_eq!(back.size, s.size);
        assert_eq!(back.env, s.env);
        assert_eq!(back.timeout, s.timeout);
        assert_eq!(back.settle, s.settle);
        for step in &s.steps {
            let one =
                parse_step(&path, &step_toml(step), &crate::config::Regions::default()).unwrap();
            same(std::slice::from_ref(step), &[one]);
        }
    }

    #[test]
    fn a_bad_step_names_its_column() {
        let e = parse_step(
            Path::new("cmd"),
            "{ press = \"NoSuchKey\" }",
            &crate::config::Regions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (1, 1), "{e}");
        let e = parse_step(
            Path::new("cmd"),
            "{ wait = 3 }",
            &crate::config::Regions::default(),
        )
        .unwrap_err();
        assert_eq!(e.line, 1, "{e}");
        assert!(e.column >= 1, "{e}");
    }
}
