//! `tuicast mcp` driven by a real MCP client, the official Python SDK (`mcp` from PyPI,
//! installed offline from the wheels of `scripts/python-tools.sh`): an agent edits a file in
//! vim over MCP with no sleeps (`tests/it/mcp_agent.py` says what it checks), and the session
//! it saved is a test `tuicast test` passes, replayed and live.

use std::process::Command;

use crate::session::Agent;
use crate::util::{root, Dir, Tuicast, BIN};

/// The secret the agent types: in no result and no file.
const SECRET: &str = "s3cr3t-Zq9-mcp-unlikely-anywhere";

#[test]
fn an_agent_edits_a_file_in_vim_over_mcp_and_saves_the_session_as_a_test() {
    let Some((_, wheels)) = crate::python::tools() else {
        return;
    };
    if !crate::util::have("vim") {
        assert!(std::env::var_os("CI").is_none(), "vim is required under CI");
        return;
    }
    let venv = Dir::new();
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(venv.path())
        .output()
        .expect("python3 -m venv");
    assert!(made.status.success(), "python3 -m venv: {made:?}");
    let installed = Command::new(venv.join("bin/pip"))
        .args(["install", "-q", "--disable-pip-version-check", "--no-index"])
        .arg("--find-links")
        .arg(&wheels)
        .arg("mcp")
        .output()
        .expect("pip install mcp");
    assert!(installed.status.success(), "pip install mcp: {installed:?}");

    let mut a = Agent::new();
    // The daemon, started by the first command, has the secret in its environment.
    a.env.push(("TUICAST_SECRET_MCP".into(), SECRET.into()));
    // A session started by the CLI: the MCP server sees it in session_list (one daemon).
    a.ok(&["start", "--name", "cli", "--", "sh", "-c", "read x"]);
    let out = Command::new(venv.join("bin/python"))
        .arg(root().join("tests/it/mcp_agent.py"))
        .arg(BIN)
        .arg(a.work.path())
        .env("XDG_RUNTIME_DIR", a.runtime.path())
        .env("TUICAST_SESSION_IDLE", "120s")
        .env("TUICAST_SECRET_MCP", SECRET)
        .output()
        .expect("run the MCP agent");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the MCP agent failed: {}\n--- stdout\n{stdout}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_str(stdout.trim()).expect("its summary");
    assert!(summary["results"].as_u64().unwrap() > 30, "{summary}");
    // The sessions the agent started over MCP are gone; the CLI's is there.
    let listed = a.ok(&["list"]);
    assert_eq!(listed["sessions"][0]["id"], "cli", "{listed}");
    assert_eq!(listed["sessions"].as_array().unwrap().len(), 1, "{listed}");
    a.ok(&["stop", "cli"]);

    assert_eq!(
        std::fs::read_to_string(a.work.join("notes.txt")).unwrap(),
        "hello over MCP\n"
    );
    let toml = std::fs::read_to_string(a.work.join("casts/vim.toml")).unwrap();
    assert!(
        toml.contains(r#"{ wait = { ref = "@vim.mode[value=insert]" } }"#),
        "{toml}"
    );
    for dir in [a.work.path().to_path_buf(), a.folder()] {
        for entry in walk(&dir) {
            let text =
                String::from_utf8_lossy(&std::fs::read(&entry).unwrap_or_default()).into_owned();
            assert!(
                !text.contains(SECRET),
                "{} holds the secret",
                entry.display()
            );
        }
    }
    // No PNG left behind in the daemon's folder by session_snapshot.
    assert!(
        !walk(&a.folder())
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "png")),
        "a PNG snapshot's file was left"
    );

    // The saved session is a test: goldens written from the cast, then checked replayed and
    // recorded again live (vim writes notes.txt anew in a copy of the folder).
    std::fs::remove_file(a.work.join("notes.txt")).unwrap();
    for args in [&["test", "--update"][..], &["test"], &["test", "--live"]] {
        let run = Tuicast::new()
            .args(args)
            .current_dir(a.work.path())
            .clean_update_env()
            .run();
        assert!(run.succeeded(), "tuicast {args:?}: {run}");
        assert!(run.stdout().contains("vim::typed"), "{run}");
    }
    assert!(
        !a.work.join("notes.txt").exists(),
        "the live run wrote into the checkout"
    );
}

/// The protocol itself, with no SDK (so it runs wherever the binary does): JSON-RPC lines on
/// stdio; tools listed with input schemas; a request that fails is a tool result with
/// `isError` and the message, and the server answers the next one; the end of its input ends
/// it with status 0.
#[test]
fn tuicast_mcp_speaks_json_rpc_on_stdio_and_survives_bad_requests() {
    use std::io::{BufRead, BufReader, Write};
    let a = Agent::new();
    let mut child = Command::new(BIN)
        .arg("mcp")
        .current_dir(a.work.path())
        .env("XDG_RUNTIME_DIR", a.runtime.path())
        .env("TUICAST_SESSION_IDLE", "120s")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start tuicast mcp");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |id: u64, method: &str, params: serde_json::Value| -> serde_json::Value {
        let line =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(input, "{line}").unwrap();
        if method == "initialize" {
            let reply = read_line(&mut output);
            let note = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            writeln!(input, "{note}").unwrap();
            return reply;
        }
        read_line(&mut output)
    };
    fn read_line(from: &mut impl BufRead) -> serde_json::Value {
        let mut line = String::new();
        from.read_line(&mut line).expect("a reply");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    }
    let init = ask(
        1,
        "initialize",
        serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {},
                           "clientInfo": {"name": "it", "version": "0"}}),
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "tuicast", "{init}");
    let tools = ask(2, "tools/list", serde_json::json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for wanted in [
        "session_start",
        "session_wait",
        "session_stop",
        "replay",
        "run",
    ] {
        assert!(names.contains(&wanted), "{wanted} missing: {names:?}");
    }
    let wait = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "session_wait")
        .unwrap();
    assert!(
        wait["inputSchema"]["properties"]["ref"].is_object(),
        "{wait}"
    );
    let unknown = ask(
        3,
        "tools/call",
        serde_json::json!({"name": "session_press", "arguments": {"id": "nope", "keys": ["a"]}}),
    );
    assert_eq!(unknown["result"]["isError"], true, "{unknown}");
    assert!(unknown["result"]["structuredContent"]["error"]
        .as_str()
        .unwrap()
        .contains("nope"));
    let bad_size = ask(
        4,
        "tools/call",
        serde_json::json!({"name": "session_start", "arguments": {"command": ["true"], "size": "0x0"}}),
    );
    assert_eq!(bad_size["result"]["isError"], true, "{bad_size}");
    assert_eq!(
        bad_size["result"]["structuredContent"]["exit"], 2,
        "{bad_size}"
    );
    let listed = ask(
        5,
        "tools/call",
        serde_json::json!({"name": "session_list", "arguments": {}}),
    );
    assert_eq!(listed["result"]["isError"], false, "{listed}");
    assert_eq!(
        listed["result"]["structuredContent"]["sessions"],
        serde_json::json!([])
    );
    // A wait is read by the scenario's parser, as `tuicast session wait`'s flags are: two
    // kinds at once are refused (the tool's JSON has no flag group to stop them), and a
    // bad hash is told in a scenario's words.
    let started = ask(
        6,
        "tools/call",
        serde_json::json!({"name": "session_start", "arguments": {"command": ["cat"], "name": "w"}}),
    );
    assert_eq!(started["result"]["isError"], false, "{started}");
    for (id, arguments, said) in [
        (
            7,
            serde_json::json!({"id": "w", "text": "a", "regex": "b"}),
            "a wait takes exactly one of text, regex, idle, ref, gone",
        ),
        (
            8,
            serde_json::json!({"id": "w", "changed": "xyz"}),
            "wait changed = xyz is not a screen hash: 16 hex digits",
        ),
        (
            9,
            serde_json::json!({"id": "w", "exit": "soon"}),
            "exit must be a status number or \"any\", not \"soon\"",
        ),
    ] {
        let r = ask(
            id,
            "tools/call",
            serde_json::json!({"name": "session_wait", "arguments": arguments}),
        );
        assert_eq!(r["result"]["isError"], true, "{r}");
        let content = &r["result"]["structuredContent"];
        assert_eq!(content["exit"], 2, "{r}");
        let error = content["error"].as_str().unwrap();
        assert!(error.starts_with("step:1:"), "{r}");
        assert!(error.contains(said), "{said}: {r}");
    }
    let stopped = ask(
        10,
        "tools/call",
        serde_json::json!({"name": "session_stop", "arguments": {"id": "w"}}),
    );
    assert_eq!(stopped["result"]["isError"], false, "{stopped}");
    drop(input);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// A message longer than a session request may be (4 MiB) ends the server with exit status 2
/// and says so, where the SDK alone would read on without a bound.
#[test]
fn a_message_longer_than_4_mib_ends_the_server_with_status_2() {
    use std::io::Write;
    let a = Agent::new();
    let mut child = Command::new(BIN)
        .arg("mcp")
        .current_dir(a.work.path())
        .env("XDG_RUNTIME_DIR", a.runtime.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start tuicast mcp");
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The server stops reading at the limit: the rest may find the pipe closed.
        let _ = input.write_all(&vec![b'x'; (4 << 20) + 4096]);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("longer than 4194304 bytes, the most `tuicast mcp` reads"),
        "{stderr}"
    );
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files
}
