//! Terminal state beyond the cells (issue 14 #2), through the real CLI and real programs: the
//! window title from a shell prompt, `tput bel`, OSC 52 from `printf | base64`, OSC 8 from
//! `ls --hyperlink=always`, `seq` for the scrollback; waits on them, `tuicast info`, the JSON
//! render, styled goldens with links, `[check] scrollback`; and tmux as the oracle of the
//! title, the clipboard and the scrollback.

use std::process::Command;

use crate::util::{have, Dir};

/// A bash with no startup files whose prompt sets the window title (as distributions'
/// prompts do) and whose commands ring, copy and list with links.
const SHELL_SCENARIO: &str = r#"
command = ["bash", "--norc", "--noprofile", "-i"]
cwd = "shell"
size = "60x12"
env = { PS1 = '\[\e]0;prompt-title \w\a\]$ ' }
steps = [
  { wait = { title = "prompt-title" } },
  { type = "tput bel\n" },
  { wait = { bell = true } },
  { type = "printf '\\033]52;c;%s\\a' $(printf 'copied text' | base64)\n" },
  { wait = { clipboard = "copied text" } },
  { type = "printf '\\033]52;c;?\\a'; echo queried\n" },
  { wait = "queried" },
  { type = "ls --hyperlink=always\n" },
  { wait = "notes.txt" },
  { wait = "$ " },
  { checkpoint = "listed" },
  { type = "tput bel; tput bel; printf '\\033]2;second\\a\\033[?7777h\\033]7;file:///x\\a'; read x\n" },
  { wait = { bell = true } },
  { wait = { bell = true } },
  { wait = { title = "second" } },
  { checkpoint = "rang" },
  { type = "\nexit\n" },
  { exit = 0 },
]

[check]
formats = ["txt", "styled.txt"]
"#;

#[test]
fn titles_bells_clipboard_and_links_of_real_programs() {
    let dir = Dir::new();
    dir.write("casts/shell/notes.txt", "");
    dir.write("casts/shell.toml", SHELL_SCENARIO);
    dir.tuicast(["record", "casts/shell.toml"]).run().success();

    let info = dir
        .tuicast(["info", "casts/shell.cast", "--json"])
        .run()
        .success()
        .json();
    let t = &info["terminal"];
    assert_eq!(t["bells"], 3, "{t}");
    let clipboard = t["clipboard"].as_array().unwrap();
    assert_eq!(clipboard.len(), 1, "a query is not a write: {t}");
    assert_eq!(clipboard[0]["text"], "copied text");
    assert_eq!(clipboard[0]["selection"], "c");
    assert_eq!(clipboard[0]["checkpoint"], "listed");
    let titles: Vec<&str> = t["titles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(titles[0].starts_with("prompt-title"), "{titles:?}");
    assert_eq!(titles[1], "second");
    assert!(
        t["icon"].as_str().unwrap().starts_with("prompt-title"),
        "OSC 0 sets the icon too"
    );
    let links = t["links"].as_array().unwrap();
    assert!(
        links
            .iter()
            .any(|l| l["uri"].as_str().unwrap().ends_with("/notes.txt")),
        "{t}"
    );
    assert_eq!(t["unsupported"]["CSI ?7777 h"], 1, "{t}");
    assert_eq!(t["unsupported"]["OSC 7"], 1, "{t}");
    let text = dir.tuicast(["info", "casts/shell.cast"]).run().success();
    assert!(text.stdout().contains("  bells        3\n"), "{text}");
    assert!(text.stdout().contains("CSI ?7777 h  1"), "{text}");

    // The JSON render: bells and writes since the previous checkpoint, links on cells.
    let listed = dir
        .tuicast([
            "replay",
            "casts/shell.cast",
            "--at",
            "listed",
            "--format",
            "json",
        ])
        .run()
        .success()
        .json();
    assert_eq!(listed["bells"], 1);
    assert_eq!(listed["clipboard"][0]["text"], "copied text");
    let row = listed["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["text"] == "notes.txt")
        .expect("the listing");
    assert_eq!(row["links"][0]["col"], 0);
    assert_eq!(row["links"][0]["width"], 9);
    let rang = dir
        .tuicast([
            "replay",
            "casts/shell.cast",
            "--at",
            "rang",
            "--format",
            "json",
        ])
        .run()
        .success()
        .json();
    assert_eq!(rang["bells"], 2, "counted afresh after `listed`");
    assert_eq!(rang["clipboard"], serde_json::json!([]));
    assert_eq!(rang["title"], "second");

    // The styled golden lists the link; the text golden does not.
    dir.tuicast(["test", "--update"]).run().success();
    let styled = std::fs::read_to_string(dir.join("snapshots/shell/listed.styled.txt")).unwrap();
    let links = styled.split_once("\n--- links\n").expect(&styled).1;
    assert!(
        links.contains(":1-9 file://") && links.contains("/notes.txt\n"),
        "{styled}"
    );
    let text = std::fs::read_to_string(dir.join("snapshots/shell/listed.txt")).unwrap();
    assert!(!text.contains("file://"), "{text}");
    dir.tuicast(["test"]).run().success();
}

#[test]
fn scrollback_lines_above_the_screen_in_text_goldens() {
    let dir = Dir::new();
    dir.write(
        "casts/seq.toml",
        "shell = \"seq 1 200; echo done; read x\"\nsize = \"20x5\"\n\
         steps = [{ wait = \"done\" }, { checkpoint = \"counted\" }, { type = \"\\n\" }, { exit = 0 }]\n\
         [check]\nscrollback = 3\nend = false\n",
    );
    dir.tuicast(["record", "casts/seq.toml"]).run().success();
    dir.tuicast(["test", "--update"]).run().success();
    let golden = std::fs::read_to_string(dir.join("snapshots/seq/counted.txt")).unwrap();
    assert!(
        golden
            .ends_with("---\n--- scrollback 3\n195\n196\n197\n--- screen\n198\n199\n200\ndone\n\n"),
        "{golden}"
    );
    dir.tuicast(["test"]).run().success();
    // A changed scrolled-off line fails, and the diff says it is in the scrollback.
    let path = dir.join("snapshots/seq/counted.txt");
    std::fs::write(&path, golden.replace("\n195\n", "\n1950\n")).unwrap();
    let out = dir.tuicast(["test"]).run().fails_with(1);
    assert!(
        out.stdout().contains("first difference: scrollback\n"),
        "{out}"
    );

    // Bad values are errors at their place.
    dir.write(
        "casts/seq.toml",
        "shell = \"true\"\n[check]\nscrollback = 5000\n",
    );
    let out = dir.tuicast(["test"]).run().fails_with(2);
    assert!(out.stdout().contains("seq.toml:3:14"), "{out}");
    assert!(out.stdout().contains("1000 lines"), "{out}");
    dir.write(
        "casts/seq.toml",
        "shell = \"true\"\nsteps = [{ wait = { bell = false } }]\n",
    );
    let out = dir
        .tuicast(["record", "casts/seq.toml"])
        .run()
        .fails_with(2);
    assert!(out.stderr().contains("seq.toml:2:"), "{out}");
    assert!(out.stderr().contains("bell = true"), "{out}");
}

/// A tmux server of its own, killed when dropped.
struct Tmux {
    socket: std::path::PathBuf,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "tmux {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .output();
    }
}

/// The same script in tmux and under `tuicast record`: tmux's pane title, paste buffer (OSC 52
/// with `set-clipboard on`) and history are what the replay's title, clipboard write and
/// scrollback say.
#[test]
fn title_clipboard_and_scrollback_agree_with_tmux() {
    if !have("tmux") {
        eprintln!("skipped: no tmux");
        return;
    }
    let dir = Dir::new();
    let script = "printf '\\033]2;oracle title\\033\\\\'; \
                  printf '\\033]52;c;%s\\a' $(printf 'from osc 52' | base64); \
                  for i in $(seq 1 30); do echo \"line $i with some words\"; done; \
                  printf 'x\\033[31mred\\033[0m tail'";
    dir.write("script.sh", script);

    let tmux = Tmux {
        socket: dir.join("tmux.sock"),
    };
    // (Set before the session starts, so the script's OSC 52 finds it on.)
    let conf = dir.write("tmux.conf", "set -g set-clipboard on\n");
    let sh = format!(
        "sh {}; tmux -S {} wait-for -S done; read x",
        dir.join("script.sh").display(),
        tmux.socket.display()
    );
    let conf = conf.display().to_string();
    tmux.cmd(&[
        "-f",
        &conf,
        "new-session",
        "-d",
        "-x",
        "40",
        "-y",
        "8",
        "-s",
        "o",
        &sh,
    ]);
    // (A signal sent before this waits is kept: it returns at once.)
    tmux.cmd(&["wait-for", "done"]);
    let title = tmux.cmd(&["display-message", "-p", "-t", "o", "#{pane_title}"]);
    let history = tmux.cmd(&["capture-pane", "-p", "-t", "o", "-S", "-5", "-E", "-1"]);
    let buffer = tmux.cmd(&["show-buffer"]);

    dir.write(
        "t.toml",
        format!(
            "shell = \"sh {}; read x\"\nsize = \"40x8\"\n\
             steps = [{{ wait = \"red tail\" }}, {{ checkpoint = \"done\" }}, {{ type = \"\\n\" }}, {{ exit = 0 }}]\n",
            dir.join("script.sh").display()
        ),
    );
    dir.tuicast(["record", "t.toml"]).run().success();
    let screen = dir
        .tuicast(["replay", "t.cast", "--at", "done", "--format", "json"])
        .run()
        .success()
        .json();
    assert_eq!(screen["title"], title.trim_end_matches('\n'));
    assert_eq!(screen["clipboard"][0]["text"], buffer.as_str());
    let ours: Vec<&str> = screen["scrollback"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let theirs: Vec<&str> = history.lines().map(str::trim_end).collect();
    assert_eq!(theirs.len(), 5, "{history}");
    assert_eq!(&ours[ours.len() - 5..], theirs.as_slice());
}
