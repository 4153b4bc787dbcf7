//! `tuicast inspect` and `tuicast::inspect` on real programs' screens: boxes and their titles,
//! the selected row, bars (from the conformance corpus, the example casts and the todoapp).

use tuicast::inspect::{inspect, Inspection};
use tuicast::replay::{self, Found};
use tuicast::term::{EngineKind, Screen};

use crate::util::{have, record_scenario, root, tuicast, Dir};

/// The screen of `cast` (relative to the repository) at checkpoint `at`.
pub(crate) fn screen(cast: &str, at: &str) -> Screen {
    let reader = tuicast::cast::open(root().join(cast)).unwrap();
    match replay::find(reader, EngineKind::Native, at).unwrap() {
        Found::Checkpoint(c) => c.screen,
        Found::Missing(names) => panic!("{cast}: no {at}, only {names:?}"),
    }
}

fn inspected(cast: &str, at: &str) -> Inspection {
    inspect(&screen(cast, at), &builtin()).unwrap()
}

fn box_names(i: &Inspection) -> Vec<&str> {
    i.outline.boxes.iter().map(|b| b.name.as_str()).collect()
}

fn selected_text(i: &Inspection) -> Option<&str> {
    i.outline.selected_row().map(|h| h.text.as_str())
}

#[test]
fn the_todoapp_list_its_selection_status_bar_and_popup() {
    let i = inspected("tests/apps/todoapp/casts/navigate.cast", "down");
    assert_eq!(box_names(&i), ["box(\"Todos\")"]);
    let sel = i.outline.selected_row().unwrap();
    assert_eq!(sel.text, "> Review pull request #42");
    assert_eq!(sel.row, 3, "0-based in the library");
    assert_eq!(sel.container, Some(0));
    let status = i.outline.status.as_ref().unwrap();
    assert!(status.text.starts_with("4 todos │ a add"), "{status:?}");
    assert!(status.styled);

    let i = inspected("tests/apps/todoapp/casts/popup.cast", "open");
    assert_eq!(box_names(&i), ["box(\"Todos\")", "box(\"New todo\")"]);
    let popup = i.outline.find_box("New todo").unwrap();
    assert_eq!(popup.parent, Some(0));
    assert_eq!((popup.rect.row, popup.rect.row_end), (10, 13));
    assert_eq!(popup.style, "single");
    assert_eq!(i.outline.boxes[0].style, "rounded");
}

#[test]
fn dialog_and_whiptail_boxes_with_titles_and_the_highlighted_item() {
    let i = inspected("tests/conformance/cases/dialog-menu.cast", "third");
    assert_eq!(box_names(&i), ["box(\"Editor\")", "box(1)"]);
    assert_eq!(i.outline.boxes[1].parent, Some(0));
    assert_eq!(selected_text(&i), Some("emacs  Extensible"));
    assert_eq!(i.outline.boxes[0].separators, [15]);

    let i = inspected("tests/conformance/cases/whiptail.cast", "yesno");
    assert_eq!(box_names(&i), ["box(\"Confirm\")"], "the title between ┤ ├");
    assert_eq!(
        selected_text(&i),
        None,
        "a highlighted button is no list item"
    );
    assert_eq!(i.outline.highlights[0].text, "<Yes>");

    let i = inspected("tests/conformance/cases/whiptail.cast", "focus-ok");
    assert_eq!(selected_text(&i), Some("wlan0 Wireless"));
    let i = inspected("tests/conformance/cases/dialog-checklist.cast", "toggled");
    assert_eq!(box_names(&i), ["box(\"Toppings\")", "box(1)"]);
    assert_eq!(selected_text(&i), Some("[*] basil      Fresh basil"));
}

#[test]
fn mc_has_two_panels_a_menu_bar_and_a_key_bar() {
    let i = inspected("tests/conformance/cases/mc.cast", "panels");
    let panel = "box(\"/tmp/tuicast-conformance/mc/tree\")";
    let second = "box(\"/tmp/tuicast-conformance/mc/tree\", 2)";
    assert_eq!(box_names(&i), [panel, second]);
    assert_eq!(
        i.outline.boxes[0].footer.as_deref(),
        Some("235G / 252G (93%)")
    );
    assert!(selected_text(&i).unwrap().starts_with("/.."));
    assert_eq!(i.outline.selected_row().unwrap().container, Some(0));
    assert!(i.outline.header.as_ref().unwrap().text.starts_with("Left"));
    assert!(i.outline.status.as_ref().unwrap().text.starts_with("1Help"));
    // The mkdir dialog hides part of the panels: they are not boxes any more (nothing rather
    // than a wrong box), and the dialog's input field (the cursor is in it) is no selection.
    let i = inspected("tests/conformance/cases/mc.cast", "mkdir-dialog");
    assert_eq!(box_names(&i), ["box(\"Create a new Directory\")"]);
    assert!(selected_text(&i).unwrap().starts_with("/beta"));
}

#[test]
fn vim_and_htop_have_bars_and_no_invented_boxes() {
    let i = inspected("tests/conformance/cases/vim-editing.cast", "insert");
    assert!(i.outline.boxes.is_empty());
    assert!(i
        .outline
        .status
        .as_ref()
        .unwrap()
        .text
        .starts_with("-- INSERT --"));
    assert_eq!(i.outline.cursor.row, 1);
    let i = inspected("tests/conformance/cases/htop.cast", "main");
    assert!(i.outline.boxes.is_empty());
    assert_eq!(selected_text(&i), None);
    assert!(i
        .outline
        .highlights
        .iter()
        .any(|h| h.text.starts_with("PID USER")));
    // Colour swatches are not selections.
    let i = inspected("tests/conformance/cases/palette-256.cast", "256-bg");
    assert_eq!(selected_text(&i), None);
}

#[test]
fn the_cli_prints_the_outline_and_json_counting_from_1() {
    let cast = "tests/apps/todoapp/casts/navigate.cast";
    let out = tuicast(["inspect", cast, "--at", "down"]).success();
    assert!(
        out.stdout()
            .contains("box(\"Todos\")  rows 1..=23 cols 1..=80 rounded"),
        "{out}"
    );
    assert!(
        out.stdout()
            .contains("selected   row 4 cols 2..=79: \"> Review pull request #42\""),
        "{out}"
    );
    let out = tuicast(["inspect", cast, "--at", "down", "--json"]).success();
    let doc = out.json();
    assert_eq!(doc["schema"], 1);
    assert_eq!(doc["boxes"][0]["name"], "box(\"Todos\")");
    assert_eq!(doc["boxes"][0]["rows"], serde_json::json!([1, 23]));
    assert_eq!(doc["selected"]["row"], 4);
    assert_eq!(doc["selected"]["color"], 3);
    assert_eq!(doc["status"]["row"], 24);
    assert_eq!(doc["checkpoint"]["name"], "down");
    // Compact: a typical screen is a few hundred tokens, not a render of every cell (its refs,
    // which name each part for a selector, are most of it).
    assert!(out.stdout().len() < 3000, "{} bytes", out.stdout().len());
    let out = tuicast(["inspect", cast, "--at", "nope"]).fails_with(2);
    assert!(
        out.stderr()
            .contains("no checkpoint named \"nope\"; the checkpoints are: down, up, deleted, end"),
        "{out}"
    );
}

/// The prompt of a screen drawn from `output` on a `cols`×`rows` terminal.
fn prompt_of(cols: u16, rows: u16, output: &str) -> tuicast::inspect::Prompt {
    let mut e = EngineKind::Native.create(tuicast::size::Size { cols, rows });
    e.feed(output);
    inspect(&e.screen(), &builtin()).unwrap().prompt
}

#[test]
fn prompts_of_real_programs_are_classified_with_evidence() {
    use tuicast::inspect::PromptKind::*;
    for (cast, at, kind, evidence) in [
        (
            "tests/conformance/cases/whiptail.cast",
            "yesno",
            YesNo,
            "<Yes>",
        ),
        (
            "tests/conformance/cases/dialog-menu.cast",
            "third",
            Select,
            "emacs  Extensible",
        ),
        (
            "tests/conformance/cases/whiptail.cast",
            "menu",
            Select,
            "eth0  Wired",
        ),
        (
            "tests/conformance/cases/less.cast",
            "bottom",
            Pager,
            "(END)",
        ),
        ("tests/conformance/cases/less.cast", "search", Pager, ":"),
        (
            "tests/conformance/cases/man.cast",
            "top",
            Pager,
            "Manual page ls(1) line 1",
        ),
        (
            "tests/conformance/cases/nano.cast",
            "save-prompt",
            YesNo,
            "Save modified buffer?",
        ),
        (
            "tests/conformance/cases/htop.cast",
            "help",
            Confirm,
            "Press any key to return.",
        ),
        (
            "tests/conformance/cases/vttest-2-screen-features.cast",
            "tabs",
            Confirm,
            "Push <RETURN>",
        ),
        (
            "tests/conformance/cases/vttest-2-screen-features.cast",
            "menu",
            Text,
            "Enter choice number (0 - 12):",
        ),
        (
            "tests/conformance/cases/bash-line-editing.cast",
            "output",
            Shell,
            "$",
        ),
        (
            "tests/conformance/cases/python-repl.cast",
            "unicode",
            Shell,
            ">>>",
        ),
        (
            "tests/apps/todoapp/casts/navigate.cast",
            "down",
            Select,
            "> Review pull request #42",
        ),
        (
            "tests/apps/todoapp/casts/popup.cast",
            "open",
            Text,
            "New todo",
        ),
        (
            "tests/conformance/cases/mc.cast",
            "mkdir-dialog",
            Text,
            "Create a new Directory",
        ),
        (
            "tests/conformance/cases/vim-editing.cast",
            "insert",
            Unknown,
            "",
        ),
        (
            "tests/conformance/cases/progress-bar.cast",
            "half",
            Unknown,
            "",
        ),
    ] {
        let p = inspected(cast, at).prompt;
        assert_eq!(p.kind, kind, "{cast} at {at}: {p:?}");
        assert!(p.evidence.contains(evidence), "{cast} at {at}: {p:?}");
        assert_eq!(
            p.confidence == 0.0,
            kind == Unknown,
            "{cast} at {at}: {p:?}"
        );
    }
    let p = inspected("tests/conformance/cases/whiptail.cast", "yesno").prompt;
    assert_eq!(p.default.as_deref(), Some("yes"), "the highlighted button");
    let p = inspected("tests/conformance/cases/dialog-menu.cast", "third").prompt;
    assert_eq!(
        p.options,
        [
            "vim    Vi IMproved",
            "nano   Small and friendly",
            "emacs  Extensible",
            "ed     The standard",
            "mc     Midnight Commander"
        ]
    );
    assert_eq!(p.selected, Some(2));
}

#[test]
fn shell_prompts_yes_no_defaults_and_passwords() {
    use tuicast::inspect::PromptKind::*;
    let p = prompt_of(60, 4, "$ apt install x\r\nDo you want to continue? [Y/n] ");
    assert_eq!((p.kind, p.default.as_deref()), (YesNo, Some("yes")));
    let p = prompt_of(60, 4, "$ read -p 'Overwrite? [y/N] '\r\nOverwrite? [y/N] ");
    assert_eq!((p.kind, p.default.as_deref()), (YesNo, Some("no")));
    let p = prompt_of(60, 4, "Continue (yes/no)? ");
    assert_eq!((p.kind, p.default), (YesNo, None));
    let p = prompt_of(60, 4, "$ sudo true\r\n[sudo] password for me: ");
    assert_eq!(p.kind, Password);
    let mut e = EngineKind::Native.create(tuicast::size::Size { cols: 40, rows: 3 });
    e.feed("Secret key: ");
    let s = e.screen();
    let o = s.outline();
    assert_eq!(
        tuicast::inspect::classify(
            &s,
            &o,
            tuicast::inspect::TtyModes {
                echo: Some(false),
                canonical: Some(true),
                reading: None,
            }
        )
        .kind,
        Password,
        "echo off"
    );
    assert_eq!(
        tuicast::inspect::classify(&s, &o, tuicast::inspect::TtyModes::UNKNOWN).kind,
        Text,
        "echo unknown"
    );
    let p = prompt_of(60, 4, "root@vm:~# ");
    assert_eq!(p.kind, Shell);
    assert_eq!(prompt_of(60, 4, "a\r\nb\x1b[4H--More--(40%)").kind, Pager);
    let p = prompt_of(60, 4, "compiling...\r\n  50%");
    assert_eq!((p.kind, p.confidence), (Unknown, 0.0), "{p:?}");
}

/// `tuicast inspect --json` finds the table a real program prints (`ps -o pid,user,comm`:
/// right-aligned numbers, left-aligned names) with its header and one row per process.
#[test]
fn inspect_finds_the_table_ps_prints() {
    let dir = crate::util::Dir::new();
    let (out, cast) = crate::util::record_scenario(
        &dir,
        "ps",
        "shell = \"ps -o pid,user,comm; sleep 5\"\nsteps = [{ wait = \"COMMAND\" }, { checkpoint = \"listed\" }]\n",
        &[],
    );
    out.success();
    let run = crate::util::Tuicast::new()
        .arg("inspect")
        .arg(&cast)
        .args(["--at", "listed", "--json"])
        .run()
        .success();
    let json = run.json();
    let table = &json["tables"][0];
    assert_eq!(table["kind"], "aligned", "{json}");
    assert_eq!(
        table["header"],
        serde_json::json!(["PID", "USER", "COMMAND"]),
        "{json}"
    );
    let rows = table["rows"].as_array().unwrap();
    assert!(rows.len() >= 2, "bash and ps at least: {json}");
    assert!(
        rows.iter().any(|r| r[2] == "ps"),
        "the ps process itself: {json}"
    );
    assert!(rows
        .iter()
        .all(|r| r[0].as_str().unwrap().parse::<u32>().is_ok()));
}

/// The highlighted row of `i` at `row` (0-based), which must be there.
fn highlight_at(i: &Inspection, row: usize) -> &tuicast::term::Highlight {
    i.outline
        .highlights
        .iter()
        .find(|h| h.row == row)
        .unwrap_or_else(|| panic!("no highlight on row {row}: {:?}", i.outline.highlights))
}

/// vim's status line (reverse video across the screen above the command line) and htop's
/// header bars stay highlights, and are no `selected`; dialog, whiptail, mc and ncdu keep
/// theirs, on the conformance corpus's real screens.
#[test]
fn vims_status_line_and_htops_headers_are_no_selection_and_real_lists_keep_theirs() {
    for at in ["vsplit", "hsplit", "focus-moved"] {
        let i = inspected("tests/conformance/cases/vim-splits.cast", at);
        let bar = highlight_at(&i, 34);
        assert_eq!(bar.cols, 0..120, "{at}: across the screen");
        assert!(bar.text.starts_with("count.c"), "{at}: {bar:?}");
        assert_eq!(selected_text(&i), None, "{at}");
        assert_ne!(
            i.prompt.kind,
            tuicast::inspect::PromptKind::Select,
            "{at}: no list"
        );
    }
    for at in ["setup", "end"] {
        let i = inspected("tests/conformance/cases/htop.cast", at);
        assert!(highlight_at(&i, 7).text.starts_with("Categories"), "{at}");
        assert_eq!(selected_text(&i), None, "{at}");
    }
    for (cast, at, want) in [
        ("dialog-menu", "menu", "vim    Vi IMproved"),
        ("dialog-checklist", "checklist", "[*] cheese     Mozzarella"),
        ("whiptail", "menu", "eth0  Wired"),
        ("ncdu", "listing", "196.0 KiB [############]  big.bin"),
        ("ncdu", "subdir", "/.."),
    ] {
        let i = inspected(&format!("tests/conformance/cases/{cast}.cast"), at);
        assert_eq!(selected_text(&i), Some(want), "{cast}@{at}");
    }
    let i = inspected("tests/conformance/cases/mc.cast", "cursor");
    assert!(selected_text(&i).unwrap().starts_with("/beta"));
    assert_eq!(i.outline.selected_row().unwrap().container, Some(0));
    // A ratatui list's item of plain words over one with a number (`#42`) is no header.
    for (at, want) in [
        ("down", "> Review pull request #42"),
        ("up", "> Write the release notes"),
    ] {
        let i = inspected("tests/apps/todoapp/casts/navigate.cast", at);
        assert_eq!(selected_text(&i), Some(want), "{at}");
    }
    // vim's status line over its command line, at every size of the resize case.
    for at in ["vim-80x24", "vim-100x30", "vim-60x15"] {
        let i = inspected("tests/conformance/cases/resize.cast", at);
        assert!(
            i.outline.highlights.iter().any(|h| h.text == "sample.py"),
            "{at}: {:?}",
            i.outline.highlights
        );
        assert_eq!(selected_text(&i), None, "{at}");
    }
}

/// Live: vim's status lines with two windows (`:split`) and with one (`laststatus=2`) are no
/// selection; in htop with the selection moved two rows down, the column header above the
/// processes is no selection, and the process row in the selection bar is.
#[test]
fn live_vim_status_lines_and_htops_column_header_are_no_selection() {
    if !(have("vim") && have("htop")) {
        assert!(
            std::env::var_os("CI").is_none(),
            "vim and htop are required under CI"
        );
        return;
    }
    let dir = Dir::new();
    dir.write("notes.txt", "line one\nline two\nline three\n");
    let (out, cast) = record_scenario(
        &dir,
        "vim",
        r#"command = ["vim", "-u", "NONE", "-N", "notes.txt"]
size = "80x24"
steps = [
  { wait = "line three" },
  { press = [":", "s", "p", "l", "i", "t", "Enter"] },
  { wait = ":split" },
  { checkpoint = "split" },
  { press = [":", "o", "n", "l", "y", "Enter"] },
  { wait = ":only" },
  { press = [":", "s", "e", "t", " ", "l", "s", "=", "2", "Enter"] },
  { wait = ":set ls=2" },
  { checkpoint = "one-window" },
  { press = [":", "q", "!", "Enter"] },
  { exit = 0 },
]
"#,
        &[],
    );
    out.success();
    let at = |name: &str| inspect(&cast_screen(&cast, name), &builtin()).unwrap();
    let split = at("split");
    let bars: Vec<usize> = split.outline.highlights.iter().map(|h| h.row).collect();
    assert_eq!(bars.len(), 2, "a status line per window: {bars:?}");
    assert_eq!(*bars.last().unwrap(), 22, "the last above the command line");
    assert_eq!(selected_text(&split), None);
    let one = at("one-window");
    assert_eq!(highlight_at(&one, 22).text, "notes.txt");
    assert_eq!(selected_text(&one), None);

    let (out, cast) = record_scenario(
        &dir,
        "htop",
        r#"command = ["htop", "-d", "100"]
size = "100x24"
steps = [
  { wait = { regex = "\\d+ \\w+ +\\d+ " } },
  { press = ["Down", "Down"] },
  { checkpoint = "moved" },
  { press = "q" },
  { exit = "any" },
]
"#,
        &[],
    );
    out.success();
    let i = inspect(&cast_screen(&cast, "moved"), &builtin()).unwrap();
    let header = i
        .outline
        .highlights
        .iter()
        .find(|h| h.text.starts_with("PID USER"))
        .unwrap_or_else(|| panic!("{:?}", i.outline.highlights));
    let sel = i.outline.selected_row().expect("the selection bar");
    assert_eq!(sel.row, header.row + 3, "two rows below the first process");
    assert!(
        sel.text
            .split_whitespace()
            .next()
            .unwrap()
            .parse::<u32>()
            .is_ok(),
        "{sel:?}"
    );
    assert_ne!(sel.color, header.color);
}

/// The screen of the cast at `path` at checkpoint `at`.
fn cast_screen(path: &std::path::Path, at: &str) -> Screen {
    let reader = tuicast::cast::open(path).unwrap();
    match replay::find(reader, EngineKind::Native, at).unwrap() {
        Found::Checkpoint(c) => c.screen,
        Found::Missing(names) => panic!("{}: no {at}, only {names:?}", path.display()),
    }
}

/// The context of a cast replayed alone: the built-in adapters.
fn builtin() -> tuicast::inspect::RefContext<'static> {
    tuicast::inspect::RefContext::new(tuicast::inspect::Adapters::builtin())
}
