//! The adapters for the programs agents meet most (issue 44 point 4), each driven live through
//! `tuicast session` on the real program: fzf, the Python and IPython REPLs, sqlite3, gdb,
//! nano, emacs -nw, tig, nnn, btop and gemini-cli (with no network: its trust dialog, input box,
//! busy indicator and a cancelled request's reply). Each ref is checked present with its value where the program shows
//! it, and absent where the program is in another state or has left; on every screen looked
//! at, no other of these adapters has a ref (each is another program's screen for the rest).

use std::collections::BTreeMap;

use crate::refs::need;
use crate::session::Agent;

/// The adapters of this module.
const OURS: &[&str] = &[
    "fzf", "python", "ipython", "sqlite", "gdb", "nano", "emacs", "tig", "nnn", "gemini", "btop",
];

/// The refs of `family` on the session's screen now (`@fzf.query` → its value), after
/// checking that no other adapter of [`OURS`] has a ref there.
fn refs_of(a: &Agent, id: &str, family: &str) -> BTreeMap<String, String> {
    let reply = a.ok(&["inspect", id]);
    let mut out = BTreeMap::new();
    for r in reply["inspect"]["refs"].as_array().expect("refs") {
        let name = r["ref"].as_str().unwrap_or_default();
        let Some(f) = name
            .strip_prefix('@')
            .and_then(|n| n.split(['.', '(']).next())
        else {
            continue;
        };
        if !name.contains('.') || !OURS.contains(&f) {
            continue;
        }
        assert_eq!(f, family, "{name} on a {family} screen: {reply}");
        let value = r["value"].as_str().unwrap_or_default().to_string();
        out.insert(name.to_string(), value);
    }
    out
}

/// Waits for the ref selector `sel`; the refs of `family` then.
fn wait_ref(a: &Agent, id: &str, sel: &str, family: &str) -> BTreeMap<String, String> {
    a.ok(&["wait", id, "--ref", sel]);
    refs_of(a, id, family)
}

/// `(ref, value)` pairs as the map [`refs_of`] gives.
fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn fzf_query_selected_item_and_match_count() {
    if !need("fzf") {
        return;
    }
    let a = Agent::new();
    a.work
        .write("items.txt", "apple\nbanana\ncherry\napricot\n");
    // Through sh: fzf is recognised by its info line, not by the command's name.
    a.ok(&["start", "--name", "f", "--", "sh", "-c", "fzf < items.txt"]);
    let mut first = wait_ref(&a, "f", "@fzf.count[value=\"4/4\"]", "fzf");
    // The list's rows (its value's newlines are issue 42's to keep: its text has them).
    assert!(first.remove("@fzf.list").is_some(), "{first:?}");
    let list = a.ok(&["wait", "f", "--ref", "@fzf.list"]);
    assert_eq!(
        list["matched"]["text"], "  apricot\n  cherry\n  banana\n> apple",
        "{list}"
    );
    assert_eq!(
        first,
        map(&[
            ("@fzf.count", "4/4"),
            ("@fzf.matches", "4"),
            ("@fzf.query", ""),
            ("@fzf.selected", "apple"),
            ("@fzf.total", "4"),
        ])
    );
    a.ok(&["type", "f", "ap"]);
    let typed = wait_ref(&a, "f", "@fzf.count[value=\"2/4\"]", "fzf");
    assert_eq!(typed["@fzf.query"], "ap", "{typed:?}");
    assert_eq!(typed["@fzf.selected"], "apple", "{typed:?}");
    assert_eq!(typed["@fzf.matches"], "2", "{typed:?}");
    a.ok(&["press", "f", "Up"]);
    let up = wait_ref(&a, "f", "@fzf.selected[value=apricot]", "fzf");
    assert_eq!(up["@fzf.query"], "ap", "{up:?}");
    // Nothing matches: no list, no item selected, and the prompt line (`> apzz`) is none.
    a.ok(&["type", "f", "zz"]);
    let none = wait_ref(&a, "f", "@fzf.count[value=\"0/4\"]", "fzf");
    assert_eq!(
        none,
        map(&[
            ("@fzf.count", "0/4"),
            ("@fzf.matches", "0"),
            ("@fzf.query", "apzz"),
            ("@fzf.total", "4"),
        ])
    );
    a.ok(&["press", "f", "C-u", "Enter"]);
    a.ok(&["wait", "f", "--exit", "0"]);
    // fzf has left (its choice printed): none of its refs.
    assert_eq!(refs_of(&a, "f", "fzf"), map(&[]));

    // --multi: the info line has the count of marked items, `(0)`.
    a.ok(&[
        "start",
        "--name",
        "m",
        "--",
        "sh",
        "-c",
        "fzf --multi < items.txt",
    ]);
    let multi = wait_ref(&a, "m", "@fzf.count[value=\"4/4\"]", "fzf");
    assert_eq!(multi["@fzf.marked"], "0", "{multi:?}");
    assert_eq!(multi["@fzf.selected"], "apple", "{multi:?}");
    a.ok(&["press", "m", "Esc"]);
    a.ok(&["wait", "m", "--exit"]);
}

#[test]
fn python_repl_prompt_continuation_and_output() {
    if !need("python3") {
        return;
    }
    let a = Agent::new();
    a.ok(&["start", "--name", "p", "--", "python3"]);
    // The banner is no output.
    let first = wait_ref(&a, "p", "@python.prompt[value=\"\"]", "python");
    assert_eq!(first, map(&[("@python.prompt", "")]));
    a.ok(&["type", "p", "6*7"]);
    wait_ref(&a, "p", "@python.prompt[value=\"6*7\"]", "python");
    a.ok(&["press", "p", "Enter"]);
    let out = wait_ref(&a, "p", "@python.output[value=42]", "python");
    assert_eq!(
        out,
        map(&[("@python.output", "42"), ("@python.prompt", "")])
    );
    a.ok(&["type", "p", "for i in 'ab':"]);
    a.ok(&["press", "p", "Enter"]);
    let more = wait_ref(&a, "p", "@python.continuation", "python");
    assert_eq!(
        more,
        map(&[("@python.continuation", ""), ("@python.prompt", "")])
    );
    a.ok(&["type", "p", "    print(i * 2)"]);
    a.ok(&["press", "p", "Enter", "Enter"]);
    // The output of a block: the rows after its last `...` line.
    let block = a.ok(&["wait", "p", "--ref", "@python.output[text~=bb]"]);
    assert_eq!(block["matched"]["text"], "aa\nbb", "{block}");
    assert!(!refs_of(&a, "p", "python").contains_key("@python.continuation"));
    a.ok(&["type", "p", "x = 1"]);
    a.ok(&["press", "p", "Enter"]);
    // A statement that prints nothing has no output.
    let quiet = a.ok(&["wait", "p", "--ref", "@python.output", "--gone"]);
    assert_eq!(quiet["matched"]["wait"], "ref", "{quiet}");
    a.ok(&["type", "p", "exit()"]);
    a.ok(&["press", "p", "Enter"]);
    a.ok(&["wait", "p", "--exit", "0"]);
    // The banner and `>>>` rows are still there; no prompt has the cursor: no refs.
    assert_eq!(refs_of(&a, "p", "python"), map(&[]));
}

#[test]
fn ipython_prompt_number_result_and_error() {
    if !need("ipython3") {
        return;
    }
    let a = Agent::new();
    a.ok(&[
        "start",
        "--name",
        "i",
        "--",
        "ipython3",
        "--no-banner",
        "--no-confirm-exit",
        "--colors=NoColor",
    ]);
    let first = wait_ref(&a, "i", "@ipython.number[value=1]", "ipython");
    assert_eq!(
        first,
        map(&[("@ipython.number", "1"), ("@ipython.prompt", "")])
    );
    a.ok(&["type", "i", "6*7"]);
    a.ok(&["press", "i", "Enter"]);
    let result = wait_ref(&a, "i", "@ipython.result[value=42]", "ipython");
    assert_eq!(result["@ipython.number"], "2", "{result:?}");
    assert!(!result.contains_key("@ipython.error"), "{result:?}");
    a.ok(&["type", "i", "1/0"]);
    a.ok(&["press", "i", "Enter"]);
    let error = wait_ref(
        &a,
        "i",
        "@ipython.error[value=ZeroDivisionError]",
        "ipython",
    );
    assert_eq!(error["@ipython.number"], "3", "{error:?}");
    // The result of the cell before is not this cell's.
    assert!(!error.contains_key("@ipython.result"), "{error:?}");
    a.ok(&["type", "i", "def f():"]);
    a.ok(&["press", "i", "Enter"]);
    let more = wait_ref(&a, "i", "@ipython.continuation", "ipython");
    assert!(!more.contains_key("@ipython.number"), "{more:?}");
    a.ok(&["press", "i", "C-c"]);
    wait_ref(&a, "i", "@ipython.number[value=3]", "ipython");
    a.ok(&["type", "i", "exit"]);
    a.ok(&["press", "i", "Enter"]);
    a.ok(&["wait", "i", "--exit", "0"]);
    assert_eq!(refs_of(&a, "i", "ipython"), map(&[]));
}

#[test]
fn sqlite3_prompt_continuation_output_and_error() {
    if !need("sqlite3") {
        return;
    }
    let a = Agent::new();
    a.ok(&["start", "--name", "s", "--", "sqlite3"]);
    // The banner is no output.
    let first = wait_ref(&a, "s", "@sqlite.prompt[value=\"\"]", "sqlite");
    assert_eq!(first, map(&[("@sqlite.prompt", "")]));
    a.ok(&[
        "type",
        "s",
        "create table t(a, b); insert into t values (1, 'x');",
    ]);
    a.ok(&["press", "s", "Enter"]);
    a.ok(&["type", "s", "select"]);
    a.ok(&["press", "s", "Enter"]);
    let more = wait_ref(&a, "s", "@sqlite.continuation", "sqlite");
    assert_eq!(
        more,
        map(&[("@sqlite.continuation", ""), ("@sqlite.prompt", "")])
    );
    a.ok(&["type", "s", "* from nope;"]);
    a.ok(&["press", "s", "Enter"]);
    let error = wait_ref(&a, "s", "@sqlite.error", "sqlite");
    assert_eq!(
        error,
        map(&[
            ("@sqlite.error", "no such table: nope"),
            ("@sqlite.output", "Parse error: no such table: nope"),
            ("@sqlite.prompt", ""),
        ])
    );
    a.ok(&["type", "s", "select * from t;"]);
    a.ok(&["press", "s", "Enter"]);
    // The error was the statement before's: gone with its output.
    let rows = wait_ref(&a, "s", "@sqlite.output[value=\"1|x\"]", "sqlite");
    assert_eq!(
        rows,
        map(&[("@sqlite.output", "1|x"), ("@sqlite.prompt", "")])
    );
    a.ok(&["type", "s", ".quit"]);
    a.ok(&["press", "s", "Enter"]);
    // (sqlite3's status is 1 after an error.)
    a.ok(&["wait", "s", "--exit"]);
    assert_eq!(refs_of(&a, "s", "sqlite"), map(&[]));
}

#[test]
fn gdb_prompt_breakpoint_exit_signal_and_questions() {
    if !need("gdb") || !need("cc") {
        return;
    }
    let a = Agent::new();
    a.work.write(
        "crash.c",
        "int main(int argc, char **argv) {\n  int *p = 0;\n  if (argc > 1)\n    return *p;\n  return 3;\n}\n",
    );
    let cc = std::process::Command::new("cc")
        .args(["-g", "-O0", "-o", "crash", "crash.c"])
        .current_dir(a.work.path())
        .status()
        .unwrap();
    assert!(cc.success());
    a.ok(&["start", "--name", "g", "--", "gdb", "-q", "-nx", "./crash"]);
    let first = wait_ref(&a, "g", "@gdb.prompt[value=\"\"]", "gdb");
    // Above the first prompt no earlier prompt shows where the output starts: none, rather
    // than a guess (issue 42's gate; `from_top` is for full-screen lists only).
    assert!(!first.contains_key("@gdb.output"), "{first:?}");
    let step = |line: &str, sel: &str| {
        a.ok(&["type", "g", line]);
        a.ok(&["press", "g", "Enter"]);
        wait_ref(&a, "g", sel, "gdb")
    };
    step("break main", "@gdb.output[text^=Breakpoint]");
    let stopped = step("run", "@gdb.stopped");
    assert!(
        stopped["@gdb.stopped"].starts_with("main (argc=1, argv="),
        "{stopped:?}"
    );
    assert!(
        stopped["@gdb.stopped"].ends_with("at crash.c:2"),
        "{stopped:?}"
    );
    assert!(!stopped.contains_key("@gdb.exited"), "{stopped:?}");
    let exited = step("continue", "@gdb.exited");
    assert_eq!(exited["@gdb.exited"], "exited with code 03", "{exited:?}");
    assert!(!exited.contains_key("@gdb.stopped"), "{exited:?}");
    // A question gdb asks, answered.
    let asked = step("delete", "@gdb.query");
    assert_eq!(asked, map(&[("@gdb.query", "Delete all breakpoints?")]));
    a.ok(&["press", "g", "y", "Enter"]);
    let signal = step("run crash", "@gdb.signal");
    assert_eq!(signal["@gdb.signal"], "SIGSEGV", "{signal:?}");
    assert!(!signal.contains_key("@gdb.stopped"), "{signal:?}");
    assert!(!signal.contains_key("@gdb.exited"), "{signal:?}");
    let quit = step("quit", "@gdb.query");
    assert_eq!(quit, map(&[("@gdb.query", "Quit anyway?")]));
    a.ok(&["press", "g", "y", "Enter"]);
    a.ok(&["wait", "g", "--exit"]);
    assert_eq!(refs_of(&a, "g", "gdb"), map(&[]));
}

#[test]
fn nano_file_modified_message_and_question() {
    if !need("nano") {
        return;
    }
    let a = Agent::new();
    a.ok(&["start", "--name", "n", "--", "nano", "notes.txt"]);
    let first = wait_ref(&a, "n", "@nano.message[value=\"New File\"]", "nano");
    assert_eq!(
        first,
        map(&[
            ("@nano.file", "notes.txt"),
            ("@nano.message", "New File"),
            ("@nano.modified", "no"),
        ])
    );
    a.ok(&["type", "n", "hello"]);
    let typed = wait_ref(&a, "n", "@nano.modified[value=yes]", "nano");
    assert_eq!(typed["@nano.file"], "notes.txt", "{typed:?}");
    a.ok(&["press", "n", "C-o"]);
    let asked = wait_ref(&a, "n", "@nano.question", "nano");
    assert_eq!(asked["@nano.question"], "File Name to Write:", "{asked:?}");
    assert_eq!(asked["@nano.answer"], "notes.txt", "{asked:?}");
    assert!(!asked.contains_key("@nano.message"), "{asked:?}");
    a.ok(&["press", "n", "Enter"]);
    let saved = wait_ref(&a, "n", "@nano.message[value=\"Wrote 1 line\"]", "nano");
    assert_eq!(saved["@nano.modified"], "no", "{saved:?}");
    assert!(!saved.contains_key("@nano.question"), "{saved:?}");
    a.ok(&["press", "n", "C-x"]);
    a.ok(&["wait", "n", "--exit", "0"]);
    assert_eq!(refs_of(&a, "n", "nano"), map(&[]));
    assert_eq!(
        std::fs::read_to_string(a.work.join("notes.txt")).unwrap(),
        "hello\n"
    );
}

#[test]
fn emacs_mode_line_minibuffer_and_message() {
    if !need("emacs") {
        return;
    }
    let a = Agent::new();
    a.ok(&[
        "start",
        "--name",
        "e",
        "--",
        "emacs",
        "-nw",
        "-Q",
        "notes.txt",
    ]);
    let first = wait_ref(&a, "e", "@emacs.buffer[value=notes.txt]", "emacs");
    assert_eq!(first["@emacs.modified"], "no", "{first:?}");
    assert_eq!(first["@emacs.mode"], "Text", "{first:?}");
    assert_eq!(first["@emacs.line"], "1", "{first:?}");
    assert!(!first.contains_key("@emacs.minibuffer"), "{first:?}");
    a.ok(&["type", "e", "one"]);
    a.ok(&["press", "e", "Enter"]);
    a.ok(&["type", "e", "two"]);
    let typed = wait_ref(&a, "e", "@emacs.line[value=2]", "emacs");
    assert_eq!(typed["@emacs.modified"], "yes", "{typed:?}");
    a.ok(&["press", "e", "C-x", "C-s"]);
    let saved = wait_ref(&a, "e", "@emacs.message[value^=Wrote]", "emacs");
    assert_eq!(saved["@emacs.modified"], "no", "{saved:?}");
    assert!(saved["@emacs.message"].ends_with("/notes.txt"), "{saved:?}");
    a.ok(&["press", "e", "C-x", "C-f"]);
    let find = wait_ref(&a, "e", "@emacs.minibuffer[value^=\"Find file:\"]", "emacs");
    // The cursor is in the minibuffer: that row is no message.
    assert!(!find.contains_key("@emacs.message"), "{find:?}");
    a.ok(&["press", "e", "C-g", "C-x", "C-c"]);
    a.ok(&["wait", "e", "--exit", "0"]);
    assert_eq!(refs_of(&a, "e", "emacs"), map(&[]));
    assert_eq!(
        std::fs::read_to_string(a.work.join("notes.txt"))
            .unwrap()
            .trim_end(),
        "one\ntwo"
    );
}

#[test]
fn tig_views_commit_and_position() {
    if !need("tig") || !need("git") {
        return;
    }
    let a = Agent::new();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=Ann", "-c", "user.email=ann@example.com"])
            .args(args)
            .current_dir(a.work.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    git(&["init", "-q"]);
    for i in 1..=3 {
        a.work.write(format!("f{i}"), format!("{i}\n"));
        git(&["add", "."]);
        git(&["commit", "-qm", &format!("commit number {i}")]);
    }
    let head = git(&["rev-parse", "HEAD"]).trim().to_string();
    a.ok(&["start", "--name", "t", "--", "tig"]);
    let main = wait_ref(&a, "t", "@tig.view(\"main\")", "tig");
    assert_eq!(
        main,
        map(&[
            ("@tig.commit", &head),
            ("@tig.position", "commit 1 of 3"),
            ("@tig.view(\"main\")", "main"),
        ])
    );
    a.ok(&["press", "t", "Enter"]);
    let diff = wait_ref(&a, "t", "@tig.view(\"diff\")", "tig");
    assert_eq!(diff["@tig.view(\"main\")"], "main", "{diff:?}");
    assert_eq!(diff["@tig.commit"], head, "{diff:?}");
    a.ok(&["press", "t", "q", "q"]);
    a.ok(&["wait", "t", "--exit", "0"]);
    assert_eq!(refs_of(&a, "t", "tig"), map(&[]));
}

#[test]
fn nnn_folder_position_and_the_focused_entry() {
    if !need("nnn") {
        return;
    }
    let a = Agent::new();
    a.work.write("d/my report.txt", "");
    a.work.write("d/b.txt", "");
    a.work.write("d/sub/inner.txt", "");
    let folder = a.work.join("d").canonicalize().unwrap();
    let folder = folder.to_str().unwrap();
    a.ok(&["start", "--name", "n", "--", "nnn", "d"]);
    let first = wait_ref(&a, "n", "@nnn.position[value=\"1/3\"]", "nnn");
    let entries: Vec<&str> = first
        .keys()
        .filter(|k| k.starts_with("@nnn.entry"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        entries,
        [
            "@nnn.entry(\"b.txt\")",
            "@nnn.entry(\"my report.txt\")",
            "@nnn.entry(\"sub/\")"
        ],
        "{first:?}"
    );
    assert_eq!(first["@nnn.folder"], folder, "{first:?}");
    // Folders first: the highlight is on sub/.
    a.ok(&["wait", "n", "--ref", "@nnn.entry(\"sub/\")[focused]"]);
    a.ok(&["press", "n", "j"]);
    a.ok(&["wait", "n", "--ref", "@nnn.position[value=\"2/3\"]"]);
    let focused = a.ok(&["wait", "n", "--ref", "@nnn.entry[focused]"]);
    assert_eq!(focused["matched"]["value"], "b.txt", "{focused}");
    a.ok(&["press", "n", "k", "Enter"]);
    let inner = wait_ref(&a, "n", "@nnn.position[value=\"1/1\"]", "nnn");
    assert_eq!(inner["@nnn.folder"], format!("{folder}/sub"), "{inner:?}");
    assert!(inner.contains_key("@nnn.entry(\"inner.txt\")"), "{inner:?}");
    assert!(!inner.contains_key("@nnn.entry(\"b.txt\")"), "{inner:?}");
    a.ok(&["press", "n", "q"]);
    a.ok(&["wait", "n", "--exit", "0"]);
    assert_eq!(refs_of(&a, "n", "nnn"), map(&[]));
}

#[test]
fn gemini_cli_dialog_input_busy_and_response_with_no_network() {
    let gemini = crate::util::root().join("target/apps/gemini/node_modules/.bin/gemini");
    if !gemini.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "gemini-cli is required under CI: scripts/ai-tools.sh installs it"
        );
        return;
    }
    let a = Agent::new();
    // A key of no use (no request reaches a server) and a home of its own; through sh, so
    // gemini is recognised by what it shows.
    let script = format!(
        "GEMINI_API_KEY=not-a-key HOME=\"$PWD/home\" exec {}",
        gemini.display()
    );
    a.ok(&[
        "start",
        "--name",
        "g",
        "--size",
        "100x30",
        "--timeout",
        "60s",
        "--",
        "sh",
        "-c",
        &script,
    ]);
    // The folder trust dialog: an approval dialog.
    let trust = wait_ref(&a, "g", "@gemini.choice", "gemini");
    assert_eq!(
        trust["@gemini.question"], "Do you trust the files in this folder?",
        "{trust:?}"
    );
    assert!(
        trust["@gemini.choice"].starts_with("1. Trust folder ("),
        "{trust:?}"
    );
    assert!(
        trust.contains_key("@gemini.option(\"3. Don't trust\")"),
        "{trust:?}"
    );
    for absent in ["@gemini.input", "@gemini.busy", "@gemini.response"] {
        assert!(!trust.contains_key(absent), "{absent}: {trust:?}");
    }
    a.ok(&["press", "g", "Down"]);
    wait_ref(
        &a,
        "g",
        "@gemini.choice[value^=\"2. Trust parent\"]",
        "gemini",
    );
    a.ok(&["press", "g", "Down", "Enter"]);
    // How to sign in: another dialog, the key chosen.
    let auth = wait_ref(
        &a,
        "g",
        "@gemini.question[value=\"How would you like to authenticate for this project?\"]",
        "gemini",
    );
    assert_eq!(auth["@gemini.choice"], "2. Use Gemini API Key", "{auth:?}");
    assert!(!auth.contains_key("@gemini.input"), "{auth:?}");
    a.ok(&["press", "g", "Enter"]);
    // It asks for the key (GEMINI_API_KEY is there): accepted as it is.
    a.ok(&["wait", "g", "--text", "Enter Gemini API Key"]);
    a.ok(&["press", "g", "Enter"]);
    let idle = wait_ref(&a, "g", "@gemini.input[value=\"\"]", "gemini");
    // Nothing sent yet: no response (the tips above are none), no dialog.
    for absent in [
        "@gemini.response",
        "@gemini.busy",
        "@gemini.question",
        "@gemini.choice",
    ] {
        assert!(!idle.contains_key(absent), "{absent}: {idle:?}");
    }
    a.ok(&["type", "g", "say hi"]);
    wait_ref(&a, "g", "@gemini.input[value=\"say hi\"]", "gemini");
    a.ok(&["press", "g", "Enter"]);
    let busy = wait_ref(&a, "g", "@gemini.busy[value=\"Thinking...\"]", "gemini");
    assert_eq!(busy["@gemini.input"], "", "{busy:?}");
    assert!(!busy.contains_key("@gemini.response"), "{busy:?}");
    a.ok(&["press", "g", "Esc"]);
    let reply = wait_ref(&a, "g", "@gemini.response", "gemini");
    assert_eq!(
        reply["@gemini.response"], "ℹ Request cancelled.",
        "{reply:?}"
    );
    assert!(!reply.contains_key("@gemini.busy"), "{reply:?}");
    a.ok(&["press", "g", "C-c"]);
    a.ok(&["press", "g", "C-c"]);
    a.ok(&["wait", "g", "--exit"]);
    assert_eq!(refs_of(&a, "g", "gemini"), map(&[]));
}

#[test]
fn btop_cpu_load_uptime_and_processes() {
    if !need("btop") {
        return;
    }
    let a = Agent::new();
    a.ok(&["start", "--name", "b", "--size", "100x30", "--", "btop"]);
    let shown = wait_ref(&a, "b", "@btop.processes", "btop");
    let number = |s: &str| s.parse::<f64>().is_ok();
    let cpu = &shown["@btop.cpu"];
    assert!(cpu.parse::<u32>().is_ok_and(|c| c <= 100), "{shown:?}");
    let load: Vec<&str> = shown["@btop.load"].split(' ').collect();
    assert!(
        load.len() == 3 && load.iter().all(|l| number(l)),
        "{shown:?}"
    );
    assert!(
        shown["@btop.uptime"].chars().filter(|c| *c == ':').count() >= 1,
        "{shown:?}"
    );
    let (selected, total) = shown["@btop.processes"].split_once('/').unwrap();
    assert!(
        number(selected) && total.parse::<u32>().unwrap() > 1,
        "{shown:?}"
    );
    a.ok(&["press", "b", "q"]);
    a.ok(&["wait", "b", "--exit", "0"]);
    // The screen btop leaves: none of its refs.
    assert_eq!(refs_of(&a, "b", "btop"), map(&[]));
}
