//! The JSON Schemas (`tuicast schema`, `docs/schemas/`): generated from the types that write
//! and read each format, kept equal to the files in the docs, and every documented example and
//! real output of each format valid against its schema.

use serde_json::Value;

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{root, tuicast, Dir};

/// A compiled schema, from the file in `docs/schemas/`.
struct Schema {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

impl Schema {
    fn load(name: &str) -> Schema {
        Schema::load_at(name, "")
    }

    /// The part of schema `name` at the JSON pointer `pointer` (`/definitions/FailureJson`).
    fn load_at(name: &str, pointer: &str) -> Schema {
        let path = root().join(format!("docs/schemas/{name}.json"));
        let text = std::fs::read_to_string(&path).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        let url = format!("file:///docs/schemas/{name}.json");
        compiler.add_resource(&url, value).unwrap();
        let index = compiler
            .compile(&format!("{url}#{pointer}"), &mut schemas)
            .unwrap_or_else(|e| panic!("{name}: not a valid JSON Schema: {e:#}"));
        Schema { schemas, index }
    }

    fn check(&self, what: &str, instance: &Value) {
        if let Err(e) = self.schemas.validate(instance, self.index) {
            panic!("{what} does not match its schema: {e:#}\n{instance:#}");
        }
    }
}

#[test]
fn the_schema_files_are_what_the_types_give() {
    let list = tuicast(["schema"]).success();
    let names: Vec<String> = list
        .stdout()
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "scenario",
            "config",
            "screen",
            "inspect",
            "info",
            "engines",
            "session-request",
            "session-reply",
            "session-event",
            "run",
            "ask",
            "test-message"
        ]
    );
    for name in &names {
        let printed = tuicast(["schema", name]).success().stdout().to_string();
        let file = root().join(format!("docs/schemas/{name}.json"));
        let kept = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(
            printed == kept,
            "docs/schemas/{name}.json is not what the types give: run \
             `cargo run -- schema {name} > docs/schemas/{name}.json`"
        );
        Schema::load(name);
    }
    let out = tuicast(["schema", "scenario\x1b[2J"]).fails_with(2);
    assert!(
        out.stderr().contains("no schema named \"scenario\\e[2J\""),
        "{out}"
    );
}

#[test]
fn replay_and_inspect_output_of_every_bundled_cast_matches_its_schema() {
    let screen = Schema::load("screen");
    let inspect = Schema::load("inspect");
    let mut seen = 0;
    for entry in std::fs::read_dir(root().join("casts")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("cast") {
            continue;
        }
        let cast = path.display().to_string();
        let out = tuicast(["replay", &cast, "--format", "json"]).success();
        let value: Value = serde_json::from_str(out.stdout()).unwrap();
        screen.check(&format!("replay --format json of {cast}"), &value);
        // Read back as it was: no field the types do not know (the schema lets readers meet
        // fields added later).
        let typed: tuicast::render::ScreenJson = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&typed).unwrap(), value, "{cast}");
        let out = tuicast(["inspect", &cast, "--json"]).success();
        let value: Value = serde_json::from_str(out.stdout()).unwrap();
        inspect.check(&format!("inspect --json of {cast}"), &value);
        let typed: tuicast::inspect::InspectionJson =
            serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&typed).unwrap(), value, "{cast}");
        seen += 1;
    }
    assert!(seen >= 5, "{seen} casts");
    // A screen with every optional part: links, clipboard, colours, a cursor shape.
    let mut engine =
        tuicast::term::EngineKind::Native.create(tuicast::size::Size { cols: 12, rows: 3 });
    engine.feed(
        "\x1b]8;id=a;https://e/\x1b\\ln\x1b]8;;\x1b\\ \x1b[1;2;38;2;1;2;3;48;5;200mx\
         \x1b]52;c;aGk=\x07\x1b[5 q\x1b]2;t\x07\x07",
    );
    let json = tuicast::render::json(&engine.screen());
    for key in ["links", "clipboard"] {
        assert_eq!(json[key].as_array().map(Vec::len), Some(1), "{key}: {json}");
    }
    assert_eq!(json["cursor"]["shape"], "bar", "{json}");
    screen.check(
        "a screen with links, clipboard, colours and a cursor shape",
        &json,
    );
}

/// `tuicast info --json` and `tuicast engines --json` of every bundled cast, and of a cast
/// with every optional part (clipboard, a link, a title, an exit status, a sequence the engine
/// does not follow, a cell the engines draw differently), match their schemas and read back
/// through their types.
#[test]
fn info_and_engines_output_matches_its_schema() {
    let info = Schema::load("info");
    let engines = Schema::load("engines");
    let dir = crate::util::Dir::new();
    dir.write(
        "every.cast",
        "{\"version\": 3, \"term\": {\"cols\": 10, \"rows\": 2}}\n\
         [0.1, \"o\", \"\\u001b]8;;http://e/\\u001b\\\\L\\u001b]8;;\\u001b\\\\\\u001b]52;c;aGk=\\u0007\"]\n\
         [0.1, \"i\", \"x\"]\n\
         [0.1, \"o\", \"\\u001b]0;t\\u0007\\u001b[1;2mB\\u001b_x\\u001b\\\\\\u0007\"]\n\
         [0.01, \"m\", \"shown\"]\n\
         [0.1, \"x\", \"3\"]\n",
    );
    let mut casts: Vec<String> = std::fs::read_dir(root().join("casts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("cast"))
        .map(|p| p.display().to_string())
        .collect();
    assert!(casts.len() >= 5, "{casts:?}");
    let every = dir.join("every.cast").display().to_string();
    casts.push(every.clone());
    for cast in &casts {
        let out = tuicast(["info", cast, "--json"]).success();
        let value: Value = serde_json::from_str(out.stdout()).unwrap();
        info.check(&format!("info --json of {cast}"), &value);
        let typed: tuicast::replay::info::CastInfo = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&typed).unwrap(), value, "{cast}");
        if cast == &every {
            let t = &typed.terminal;
            assert_eq!(typed.exit_status, Some(3), "{value}");
            assert_eq!(
                (t.titles.len(), t.clipboard.len(), t.links.len()),
                (1, 1, 1),
                "{value}"
            );
            assert!(t.unsupported_total() > 0, "{value}");
            assert!(typed.checkpoints[0].overhead_ms.is_some(), "{value}");
        }
        let out = tuicast(["engines", cast, "--json"]);
        let value: Value = serde_json::from_str(out.stdout()).unwrap();
        engines.check(&format!("engines --json of {cast}"), &value);
        let typed: tuicast::replay::differential::EnginesJson =
            serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&typed).unwrap(), value, "{cast}");
        if cast == &every && cfg!(feature = "vt100") {
            assert!(
                typed.checkpoints.iter().any(|c| !c.cells.is_empty()),
                "the engines should disagree on a cell: {value}"
            );
        }
    }
}

/// Every kind of line `tuicast test --message-format json` writes (a passing and a failing
/// test, an orphan golden, the summary) matches its schema and reads back through its type.
#[test]
fn every_line_of_message_format_json_matches_its_schema() {
    let schema = Schema::load("test-message");
    let (dir, _, _) = crate::util::project_with_a_changed_golden();
    dir.write("snapshots/shell/gone.txt", "an orphan\n");
    let out = dir
        .tuicast(["test", "--message-format", "json"])
        .run()
        .fails_with(1);
    let mut kinds = std::collections::BTreeSet::new();
    for line in out.stdout().lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        schema.check("a line of --message-format json", &value);
        let typed: tuicast::harness::message::Message =
            serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&typed).unwrap(), value, "{line}");
        let kind = match (&value["passed"], value.get("orphan"), value.get("summary")) {
            (Value::Bool(p), _, _) => format!("test passed={p}"),
            (_, Some(_), _) => "orphan".into(),
            (_, _, Some(_)) => "summary".into(),
            _ => line.to_string(),
        };
        kinds.insert(kind);
    }
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["orphan", "summary", "test passed=false", "test passed=true"],
        "{out}"
    );
    // And the lines of `--list`.
    let listed = dir
        .tuicast(["test", "--list", "--message-format", "json"])
        .run()
        .success();
    assert!(listed.stdout().lines().count() >= 2, "{listed}");
    for line in listed.stdout().lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        schema.check("a line of --list --message-format json", &value);
        let typed: tuicast::harness::message::Message =
            serde_json::from_value(value.clone()).unwrap();
        assert!(
            matches!(typed, tuicast::harness::message::Message::Listed { .. }),
            "{line}"
        );
        assert_eq!(serde_json::to_value(&typed).unwrap(), value, "{line}");
    }
}

/// The ```json blocks of the docs: the render's and the reply's examples, and the list of
/// requests in docs/agents.md, each valid against its schema.
#[test]
fn the_documented_examples_match_their_schemas() {
    let reply = Schema::load("session-reply");
    let request = Schema::load("session-request");
    let screen = Schema::load("screen");
    let run = Schema::load("run");
    let ask = Schema::load("ask");
    let failure = Schema::load_at("run", "/definitions/FailureJson");
    let agents = std::fs::read_to_string(root().join("docs/agents.md")).unwrap();
    let blocks = json_blocks(&agents);
    assert!(blocks.len() >= 2, "{} blocks", blocks.len());
    let (mut replies, mut requests, mut runs, mut asks, mut failures) = (0, 0, 0, 0, 0);
    for (line, value) in &blocks {
        match value {
            Value::Array(items) => {
                for item in items {
                    request.check(&format!("docs/agents.md:{line}: a request"), item);
                    requests += 1;
                }
            }
            // `tuicast ask`'s output (it alone has `answer`).
            _ if value.get("answer").is_some() => {
                ask.check(&format!("docs/agents.md:{line}: an answer"), value);
                asks += 1;
            }
            // A failure as data alone (it alone has `kind` and no `exit`).
            _ if value.get("kind").is_some() && value.get("exit").is_none() => {
                failure.check(&format!("docs/agents.md:{line}: a failure"), value);
                failures += 1;
            }
            // `tuicast run`'s output (it alone has `duration_ms` besides `ask`'s).
            _ if value.get("duration_ms").is_some() => {
                run.check(&format!("docs/agents.md:{line}: a run"), value);
                runs += 1;
            }
            _ => {
                reply.check(&format!("docs/agents.md:{line}: a reply"), value);
                replies += 1;
            }
        }
    }
    assert!(
        replies >= 1 && requests >= 7 && runs >= 2 && asks >= 1 && failures >= 1,
        "{replies} replies, {requests} requests, {runs} runs, {asks} answers, {failures} failures"
    );
    // The render's example, in the module docs of `render` (`//! ` lines).
    let render = std::fs::read_to_string(root().join("src/render/mod.rs")).unwrap();
    let docs: String = render
        .lines()
        .filter_map(|l| {
            l.strip_prefix("//!")
                .map(|t| t.strip_prefix(' ').unwrap_or(t))
        })
        .collect::<Vec<_>>()
        .join("\n");
    let examples = json_blocks(&docs);
    assert_eq!(examples.len(), 1);
    screen.check("src/render/mod.rs's example", &examples[0].1);
}

/// Every ```json block of a Markdown text, parsed, with the line it starts on.
fn json_blocks(text: &str) -> Vec<(usize, Value)> {
    let mut out = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        match &mut block {
            None if line.trim() == "```json" => block = Some((n + 1, String::new())),
            Some((start, body)) if line.trim() == "```" => {
                let value = serde_json::from_str(body)
                    .unwrap_or_else(|e| panic!("line {start}: not JSON: {e}\n{body}"));
                out.push((*start, value));
                block = None;
            }
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
            None => {}
        }
    }
    out
}

/// taplo (from `scripts/taplo.sh`, which CI runs), or `None` and a note outside CI when it has
/// not been run; under CI it must be there.
fn taplo() -> Option<PathBuf> {
    let path = std::env::var_os("TUICAST_TAPLO")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/taplo/node_modules/.bin/taplo"));
    if path.is_file() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "taplo is required under CI: run scripts/taplo.sh"
    );
    eprintln!(
        "note: taplo is not installed (scripts/taplo.sh): the TOML schema checks are skipped"
    );
    None
}

/// `taplo check` of `files` against the schema `name` (or, without one, as the files' own
/// `#:schema` lines say): whether they passed, and what taplo said.
fn taplo_check(taplo: &Path, name: Option<&str>, files: &[PathBuf]) -> (bool, String) {
    let mut cmd = Command::new(taplo);
    cmd.arg("check").env("RUST_LOG", "warn");
    if let Some(name) = name {
        let schema = root().join(format!("docs/schemas/{name}.json"));
        cmd.arg("--schema")
            .arg(format!("file://{}", schema.display()));
    }
    let out = cmd.args(files).output().expect("taplo runs");
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), said)
}

/// Every scenario in the repository (a `.toml` beside a `.cast`, or in a `casts` folder).
fn scenarios_of_the_repository() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if !["target", ".git", "node_modules", "fuzz"].contains(&name.as_str()) {
                    walk(&path, out);
                }
            } else if name.ends_with(".toml")
                && (path.with_extension("cast").exists()
                    || path.parent().is_some_and(|p| p.ends_with("casts")))
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &mut out);
    out.sort();
    out
}

/// Issue 26: every scenario of the repository and every TOML block of the docs is valid against
/// the schemas as an editor (taplo) checks it, a wrong key anywhere is not, and a `#:schema`
/// line is all a file needs.
#[test]
fn every_scenario_and_toml_block_of_the_docs_validates_with_taplo_and_a_wrong_key_fails() {
    let Some(taplo) = taplo() else { return };
    let scenarios = scenarios_of_the_repository();
    assert!(scenarios.len() >= 10, "{scenarios:?}");
    let (ok, said) = taplo_check(&taplo, Some("scenario"), &scenarios);
    assert!(ok, "{said}");

    // The docs' TOML blocks: `# tuicast.toml` (or a [png] table) is the project file; a
    // `# Cargo.toml` block is cargo's; the others are scenarios.
    let dir = Dir::new();
    let (mut scenario_blocks, mut config_blocks) = (Vec::new(), Vec::new());
    for doc in ["README.md", "docs/scenarios.md", "docs/png.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        for (line, block) in toml_blocks(&text) {
            if block.starts_with("# Cargo.toml") {
                continue;
            }
            let config = block.starts_with("# tuicast.toml") || block.contains("[png]");
            let name = format!("{}-{line}.toml", doc.replace('/', "-"));
            let file = dir.write(&name, &block);
            if config {
                config_blocks.push(file);
            } else {
                scenario_blocks.push(file);
            }
        }
    }
    assert!(scenario_blocks.len() >= 5 && config_blocks.len() >= 2);
    let (ok, said) = taplo_check(&taplo, Some("scenario"), &scenario_blocks);
    assert!(ok, "{said}");
    let (ok, said) = taplo_check(&taplo, Some("config"), &config_blocks);
    assert!(ok, "{said}");

    // Wrong keys and values, each refused by the schema as by tuicast itself.
    for (name, text, wrong) in [
        ("scenario", "shell = \"x\"\nstpes = []\n", "stpes"),
        (
            "scenario",
            "shell = \"x\"\nsteps = [{ wiat = \"a\" }]\n",
            "wiat",
        ),
        ("scenario", "[check]\nformats = [\"jpeg\"]\n", "jpeg"),
        (
            "scenario",
            "[check]\nmask = [{ rows = 1, colls = 2 }]\n",
            "colls",
        ),
        (
            "scenario",
            "[regions]\nx = { row = { regexp = \"a\" } }\n",
            "regexp",
        ),
        ("config", "snapshot = \"snaps\"\n", "snapshot"),
        ("config", "[png]\nfont = 3\n", "font"),
    ] {
        let file = dir.write(format!("wrong-{wrong}.toml"), text);
        let (ok, said) = taplo_check(&taplo, Some(name), std::slice::from_ref(&file));
        assert!(
            !ok && said.contains(wrong),
            "{name}: {text:?} passed taplo:\n{said}"
        );
        let read = if name == "config" {
            let project = dir.join(format!("project-{wrong}"));
            std::fs::create_dir_all(&project).unwrap();
            std::fs::write(project.join("tuicast.toml"), text).unwrap();
            tuicast::config::Config::load(&project).map(drop)
        } else {
            tuicast::config::CastFile::load(&file, &tuicast::config::Regions::default()).map(drop)
        };
        assert!(read.is_err(), "tuicast read {text:?}");
    }

    // The line that gives an editor the schema, as docs/scenarios.md shows it.
    let schema = root().join("docs/schemas/scenario.json");
    let with_line = dir.write(
        "with-line.toml",
        format!("#:schema {}\nshell = \"x\"\nstpes = []\n", schema.display()),
    );
    let (ok, said) = taplo_check(&taplo, None, &[with_line]);
    assert!(!ok && said.contains("stpes"), "{said}");
    let good = dir.write(
        "good.toml",
        format!("#:schema {}\nshell = \"x\"\n", schema.display()),
    );
    let (ok, said) = taplo_check(&taplo, None, &[good]);
    assert!(ok, "{said}");
}

/// Every ```toml block of a Markdown text, with the line it starts on.
fn toml_blocks(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        match &mut block {
            None if line.trim() == "```toml" => block = Some((n + 1, String::new())),
            Some(_) if line.trim() == "```" => out.extend(block.take()),
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
            None => {}
        }
    }
    out
}

/// `tuicast run`'s outputs (a run, one a limit ended, bytes in base64, a refusal) match the
/// `run` schema.
#[test]
fn tuicast_run_output_matches_its_schema() {
    let run = Schema::load("run");
    for args in [
        &["run", "--", "sh", "-c", "echo out; exit 3"][..],
        &["run", "--max-output", "10", "--", "yes"][..],
        &["run", "--", "printf", "\\377"][..],
        &["run", "--", "no-such-program-xyz"][..],
    ] {
        let out = Command::new(crate::util::BIN).args(args).output().unwrap();
        let value: Value = serde_json::from_slice(&out.stdout).unwrap();
        run.check(&format!("tuicast {}", args.join(" ")), &value);
    }
}

/// `tuicast ask`'s outputs (an answer, one a limit ended, bytes in base64, a refusal) match
/// the `ask` schema.
#[test]
fn tuicast_ask_output_matches_its_schema() {
    let ask = Schema::load("ask");
    for args in [
        &["ask", "--prompt", "q", "--", "sh", "-c", "cat; exit 3"][..],
        &["ask", "--prompt", "q", "--max-output", "10", "--", "yes"][..],
        &["ask", "--prompt", "q", "--", "printf", "\\377"][..],
        &["ask", "--prompt", "q", "--", "no-such-program-xyz"][..],
    ] {
        let out = Command::new(crate::util::BIN).args(args).output().unwrap();
        let value: Value = serde_json::from_slice(&out.stdout).unwrap();
        ask.check(&format!("tuicast {}", args.join(" ")), &value);
    }
}
