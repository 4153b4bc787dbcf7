//! The adapters for the programs agents meet most (issue 44 point 4), each driven live through
//! `tuicast session` on the real program: fzf, the Python and IPython REPLs, sqlite3, gdb,
//! nano, emacs -nw, tig, nnn, btop, gemini-cli, claude-code and codex (with no network: their
//! trust and sign-in dialogs, input box, busy indicator and the reply to a request that fails or
//! is cancelled) and psql (on a throwaway server of pg_virtualenv). Each ref is checked present with its value where the program shows
//! it, and absent where the program is in another state or has left; on every screen looked
//! at, no other of these adapters has a ref (each is another program's screen for the rest).

use std::collections::BTreeMap;

use crate::refs::need;
use crate::session::Agent;

/// The adapters of this module.
const OURS: &[&str] = &[
    "fzf", "python", "ipython", "sqlite", "gdb", "nano", "emacs", "tig", "nnn", "gemini", "btop",
    "claude", "codex", "psql",
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

/// None of `absent` is among `refs` (what a screen does not show is no ref).
fn assert_absent(refs: &BTreeMap<String, String>, absent: &[&str]) {
    for a in absent {
        assert!(!refs.contains_key(*a), "{a}: {refs:?}");
    }
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
    assert_absent(
        &trust,
        &["@gemini.input", "@gemini.busy", "@gemini.response"],
    );
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
    assert_absent(
        &idle,
        &[
            "@gemini.response",
            "@gemini.busy",
            "@gemini.question",
            "@gemini.choice",
        ],
    );
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

/// An AI CLI that scripts/ai-tools.sh installs in target/apps/FOLDER: its path, or none
/// (which fails under CI, where the script always runs).
fn ai_cli(folder: &str, bin: &str) -> Option<std::path::PathBuf> {
    let path = crate::util::root().join(format!("target/apps/{folder}/node_modules/.bin/{bin}"));
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{bin} is required under CI: scripts/ai-tools.sh installs it"
    );
    None
}

/// Starts session `name` of an AI CLI: `sh -c SCRIPT` at 100x30, waits bounded by 60 s.
fn start_ai_cli(a: &Agent, name: &str, script: &str) {
    a.ok(&[
        "start",
        "--name",
        name,
        "--size",
        "100x30",
        "--timeout",
        "60s",
        "--",
        "sh",
        "-c",
        script,
    ]);
}

/// The live processes (not zombies) whose command line names a private HOME of the session
/// daemon of `a` (`…/tuicast-home-<daemon pid>-…`): what a program started from its HOME,
/// codex's app-server daemon among them.
fn started_from_home(a: &Agent) -> Vec<String> {
    let Some(daemon) = a.daemon_pid() else {
        return Vec::new();
    };
    let mark = format!("/tuicast-home-{daemon}-");
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let p = entry.path();
        let stat = std::fs::read_to_string(p.join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']));
        let cmdline = std::fs::read(p.join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if !zombie && cmdline.contains(&mark) {
            out.push(cmdline);
        }
    }
    out
}

#[test]
fn claude_code_dialogs_input_busy_response_and_errors_with_no_network() {
    let Some(claude) = ai_cli("claude", "claude") else {
        return;
    };
    let a = Agent::new();
    // In the session's own private HOME: onboarding done, a key of no use (no request reaches
    // a server) and two retries, so the busy indicator shows, then the error; through sh, so
    // claude is recognised by what it shows.
    let script = format!(
        "printf '{{\"hasCompletedOnboarding\": true}}' > \"$HOME/.claude.json\" && \
         ANTHROPIC_API_KEY=sk-ant-dummy DISABLE_AUTOUPDATER=1 CLAUDE_CODE_MAX_RETRIES=2 exec {}",
        claude.display()
    );
    let start = |name: &str, script: &str| start_ai_cli(&a, name, script);
    start("c", &script);
    // The folder trust dialog: an approval dialog, its first option chosen.
    let trust = wait_ref(&a, "c", "@claude.choice", "claude");
    assert_eq!(
        trust["@claude.choice"], "1. Yes, I trust this folder",
        "{trust:?}"
    );
    assert_eq!(
        trust["@claude.question"], "Is this a project you created or one you trust?",
        "{trust:?}"
    );
    assert!(
        trust.contains_key("@claude.option(\"2. No, exit\")"),
        "{trust:?}"
    );
    assert_absent(
        &trust,
        &[
            "@claude.input",
            "@claude.busy",
            "@claude.response",
            "@claude.error",
        ],
    );
    a.ok(&["press", "c", "Down"]);
    wait_ref(&a, "c", "@claude.choice[value=\"2. No, exit\"]", "claude");
    a.ok(&["press", "c", "Up", "Enter"]);
    // Whether to use the key: another dialog, "No" chosen by default.
    let key = wait_ref(
        &a,
        "c",
        "@claude.question[value=\"Do you want to use this API key?\"]",
        "claude",
    );
    assert_eq!(key["@claude.choice"], "2. No (recommended)", "{key:?}");
    assert!(key.contains_key("@claude.option(\"1. Yes\")"), "{key:?}");
    a.ok(&["press", "c", "Up"]);
    wait_ref(&a, "c", "@claude.choice[value=\"1. Yes\"]", "claude");
    a.ok(&["press", "c", "Enter"]);
    // The main screen: the empty input box; nothing sent, so no response.
    let idle = wait_ref(&a, "c", "@claude.input[value=\"\"]", "claude");
    assert_absent(
        &idle,
        &[
            "@claude.response",
            "@claude.busy",
            "@claude.error",
            "@claude.question",
            "@claude.choice",
        ],
    );
    a.ok(&["type", "c", "list the files here"]);
    wait_ref(
        &a,
        "c",
        "@claude.input[value=\"list the files here\"]",
        "claude",
    );
    a.ok(&["press", "c", "Enter"]);
    // Busy: the request retried, the box emptied, the question above it.
    let busy = wait_ref(
        &a,
        "c",
        "@claude.busy[value^=\"Unable to connect to API\"]",
        "claude",
    );
    // (Under load the wait may first look at the second attempt.)
    assert!(
        ["attempt 1/2", "attempt 2/2"]
            .iter()
            .any(|a| busy["@claude.busy"].ends_with(a)),
        "{busy:?}"
    );
    assert_eq!(busy["@claude.input"], "", "{busy:?}");
    // The busy row is in the response area too (where the reply will be).
    assert!(
        busy["@claude.response"].contains(&busy["@claude.busy"]),
        "{busy:?}"
    );
    assert!(!busy.contains_key("@claude.error"), "{busy:?}");
    // The retries spent: the error in the response area, no longer busy.
    let failed = wait_ref(&a, "c", "@claude.error", "claude");
    assert!(
        failed["@claude.error"].starts_with("Unable to connect to API"),
        "{failed:?}"
    );
    assert!(
        failed["@claude.response"].starts_with("● API Error: Unable to connect to API"),
        "{failed:?}"
    );
    assert!(!failed.contains_key("@claude.busy"), "{failed:?}");
    assert_eq!(failed["@claude.input"], "", "{failed:?}");
    a.ok(&["press", "c", "C-c"]);
    a.ok(&["press", "c", "C-c"]);
    a.ok(&["wait", "c", "--exit"]);
    a.ok(&["stop", "c"]);

    // Onboarding not done: with no network it exits at once, on an error screen.
    start(
        "e",
        &format!(
            "ANTHROPIC_API_KEY=sk-ant-dummy DISABLE_AUTOUPDATER=1 exec {}",
            claude.display()
        ),
    );
    a.ok(&["wait", "e", "--exit", "1"]);
    let error = refs_of(&a, "e", "claude");
    assert_eq!(
        error,
        map(&[("@claude.error", "Unable to connect to Anthropic services")])
    );
    a.ok(&["stop", "e"]);
    assert_eq!(started_from_home(&a), Vec::<String>::new());
}

#[test]
fn codex_dialogs_input_busy_response_and_error_with_no_network_and_no_daemon_left() {
    let Some(codex) = ai_cli("codex", "codex") else {
        return;
    };
    if !need("git") {
        return;
    }
    let a = Agent::new();
    let git = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(a.work.path())
        .status()
        .unwrap();
    assert!(git.success());
    let start = |name: &str, script: &str| start_ai_cli(&a, name, script);
    // Not logged in: the sign-in menu, a dialog of its own.
    start("s", &format!("exec {}", codex.display()));
    let menu = wait_ref(&a, "s", "@codex.choice", "codex");
    assert_eq!(menu["@codex.choice"], "1. Sign in with ChatGPT", "{menu:?}");
    assert!(
        menu.contains_key("@codex.option(\"3. Sign in another way\")"),
        "{menu:?}"
    );
    assert_absent(&menu, &["@codex.input", "@codex.busy", "@codex.response"]);
    a.ok(&["stop", "s"]);

    // Logged in with a key of no use, in the session's private HOME (no request reaches a
    // server); through sh, so codex is recognised by what it shows.
    let script = format!(
        "echo sk-dummy | {0} login --with-api-key >/dev/null 2>&1 && exec {0}",
        codex.display()
    );
    start("x", &script);
    // The folder trust dialog: an approval dialog.
    let trust = wait_ref(&a, "x", "@codex.choice", "codex");
    assert_eq!(trust["@codex.choice"], "1. Trust and continue", "{trust:?}");
    assert_eq!(trust["@codex.question"], "Trust this folder?", "{trust:?}");
    assert!(
        trust.contains_key("@codex.option(\"2. Back to Agent Command Center\")"),
        "{trust:?}"
    );
    assert_absent(&trust, &["@codex.input", "@codex.busy", "@codex.response"]);
    a.ok(&["press", "x", "Down"]);
    wait_ref(
        &a,
        "x",
        "@codex.choice[value=\"2. Back to Agent Command Center\"]",
        "codex",
    );
    a.ok(&["press", "x", "Up", "Enter"]);
    // The main screen: the input shows its placeholder; nothing sent, no response.
    let idle = wait_ref(&a, "x", "@codex.input[value=\"\"]", "codex");
    assert_absent(
        &idle,
        &[
            "@codex.response",
            "@codex.busy",
            "@codex.error",
            "@codex.choice",
        ],
    );
    // codex started its app-server daemon (a session of its own, from the private HOME).
    assert!(!started_from_home(&a).is_empty(), "no app-server running");
    a.ok(&["type", "x", "list the files here"]);
    wait_ref(
        &a,
        "x",
        "@codex.input[value=\"list the files here\"]",
        "codex",
    );
    a.ok(&["press", "x", "Enter"]);
    // Busy, reconnecting: the reason under the busy row is the error.
    let busy = wait_ref(&a, "x", "@codex.busy[value^=Reconnecting]", "codex");
    assert_eq!(busy["@codex.input"], "", "{busy:?}");
    assert!(
        busy["@codex.response"].starts_with("• Reconnecting..."),
        "{busy:?}"
    );
    let error = wait_ref(&a, "x", "@codex.error", "codex");
    assert!(error.contains_key("@codex.busy"), "{error:?}");
    a.ok(&["press", "x", "Esc"]);
    // Interrupted: no longer busy, the notice in the response.
    let stopped = wait_ref(
        &a,
        "x",
        "@codex.error[value^=\"Conversation interrupted\"]",
        "codex",
    );
    assert!(!stopped.contains_key("@codex.busy"), "{stopped:?}");
    assert_eq!(stopped["@codex.input"], "", "{stopped:?}");
    // Idle with an empty input, C-c quits.
    a.ok(&["press", "x", "C-c"]);
    a.ok(&["wait", "x", "--exit"]);
    a.ok(&["stop", "x"]);
    // The app-server daemon outlived codex (it called setsid and lost its parent): the
    // session's end killed it by its HOME.
    assert_eq!(started_from_home(&a), Vec::<String>::new());
}

/// The pids of the live processes whose command line names `dir` (a throwaway PostgreSQL
/// server's data folder is in it).
fn processes_naming(dir: &std::path::Path) -> Vec<u32> {
    let dir = dir.display().to_string();
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']));
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if !zombie && String::from_utf8_lossy(&cmdline).contains(&dir) {
            out.push(pid);
        }
    }
    out
}

/// Kills, when dropped, what is still running from a folder (a server a failed test left).
struct KillNaming(std::path::PathBuf);

impl Drop for KillNaming {
    fn drop(&mut self) {
        for pid in processes_naming(&self.0) {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

#[test]
fn psql_prompt_continuation_rows_table_and_error_on_a_throwaway_server() {
    if !need("pg_virtualenv") || !need("psql") {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let a = Agent::new();
    // pg_virtualenv -t: a throwaway cluster in a temporary folder, root or not (the server
    // runs as postgres under root, so the folder is open to it), dropped when psql exits.
    let pg = a.work.join("pg");
    std::fs::create_dir(&pg).unwrap();
    std::fs::set_permissions(&pg, std::fs::Permissions::from_mode(0o777)).unwrap();
    std::fs::set_permissions(a.work.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let _guard = KillNaming(pg.clone());
    a.ok(&[
        "start",
        "--name",
        "p",
        "--timeout",
        "120s",
        "--",
        "sh",
        "-c",
        "TMPDIR=\"$PWD/pg\" exec pg_virtualenv -t psql",
    ]);
    // The banner is no output.
    let first = wait_ref(&a, "p", "@psql.prompt[value=\"\"]", "psql");
    assert_eq!(first, map(&[("@psql.prompt", "")]));
    a.ok(&["type", "p", "select 1 as a, 'x' as b"]);
    a.ok(&["press", "p", "Enter"]);
    let more = wait_ref(&a, "p", "@psql.continuation", "psql");
    assert_eq!(
        more,
        map(&[("@psql.continuation", ""), ("@psql.prompt", "")])
    );
    a.ok(&["type", "p", "union select 2, 'yy' order by 1;"]);
    a.ok(&["press", "p", "Enter"]);
    let rows = wait_ref(&a, "p", "@psql.rows[value=2]", "psql");
    assert_eq!(
        rows,
        map(&[
            (
                "@psql.output",
                " a | b\n---+----\n 1 | x\n 2 | yy\n(2 rows)"
            ),
            ("@psql.prompt", ""),
            ("@psql.rows", "2"),
        ])
    );
    // With a border on every side the table reader reads the result as a table.
    a.ok(&["type", "p", "\\pset border 2"]);
    a.ok(&["press", "p", "Enter"]);
    a.ok(&[
        "wait",
        "p",
        "--ref",
        "@psql.output[value^=\"Border style\"]",
    ]);
    a.ok(&[
        "type",
        "p",
        "select 1 as a, 'x' as b union select 2, 'yy' order by 1;",
    ]);
    a.ok(&["press", "p", "Enter"]);
    wait_ref(&a, "p", "@psql.rows[value=2]", "psql");
    let inspect = a.ok(&["inspect", "p"]);
    let tables = inspect["inspect"]["tables"].as_array().expect("tables");
    let table = tables
        .last()
        .unwrap_or_else(|| panic!("no table: {inspect}"));
    assert_eq!(table["header"], serde_json::json!(["a", "b"]), "{table}");
    assert_eq!(
        table["rows"],
        serde_json::json!([["1", "x"], ["2", "yy"]]),
        "{table}"
    );
    a.ok(&["type", "p", "select nope;"]);
    a.ok(&["press", "p", "Enter"]);
    let error = wait_ref(&a, "p", "@psql.error", "psql");
    assert_eq!(
        error["@psql.error"], "column \"nope\" does not exist",
        "{error:?}"
    );
    // The row count was the statement before's.
    assert!(!error.contains_key("@psql.rows"), "{error:?}");
    a.ok(&["type", "p", "\\q"]);
    a.ok(&["press", "p", "Enter"]);
    a.ok(&["wait", "p", "--exit", "0"]);
    assert_eq!(refs_of(&a, "p", "psql"), map(&[]));
    // pg_virtualenv dropped its cluster: no server is left.
    assert_eq!(processes_naming(&pg), Vec::<u32>::new());
}
