//! Refs and selectors (issue 22 points 1–3) through the real binary: an agent's vim edit that
//! waits on `@vim.mode` at two sizes with `-- INSERT --` in the buffer, dialog and whiptail
//! buttons and their focus, a shell's prompt and last output, less's position, a project's
//! own app manifest carried by the saved scenario, selector errors with their column, and
//! refs in a cast's regions, expectations and masks under `tuicast test`.

use crate::session::{rerecord_gives_the_same_checkpoints, Agent};
use crate::util::{have, v3_cast, Dir};

/// Whether `program` is on PATH (under CI it must be).
pub(crate) fn need(program: &str) -> bool {
    if have(program) {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{program} is required under CI"
    );
    false
}

/// The value of the ref `name` in a session's `inspect` reply.
fn ref_value(a: &Agent, id: &str, name: &str) -> Option<String> {
    let reply = a.ok(&["inspect", id]);
    reply["inspect"]["refs"]
        .as_array()?
        .iter()
        .find(|r| r["ref"] == name)
        .and_then(|r| r["value"].as_str().map(str::to_string))
}

#[test]
fn vims_mode_is_a_ref_the_buffer_cannot_fool_at_any_size() {
    if !need("vim") {
        return;
    }
    for (size, rows) in [("80x24", 24), ("100x30", 30)] {
        let a = Agent::new();
        a.work.write("notes.txt", "-- INSERT --\n-- VISUAL --\n");
        let args = [
            "start",
            "--name",
            "v",
            "--size",
            size,
            "--",
            "vim",
            "-u",
            "NONE",
            "-i",
            "NONE",
            "-N",
            // Normal mode shows no mode: it is read from vim's ruler with nothing but a file
            // message before it (issue 42; without a ruler this test once took a guess).
            "--cmd",
            "set ruler",
            "notes.txt",
        ];
        a.ok(&args);
        a.ok(&["wait", "v", "--text", "notes.txt"]);
        // The buffer says INSERT; vim is in normal mode, and the ref says so.
        assert_eq!(
            ref_value(&a, "v", "@vim.mode").as_deref(),
            Some("normal"),
            "{size}"
        );
        a.ok(&["press", "v", "i"]);
        let insert = a.ok(&["wait", "v", "--ref", "@vim.mode[value=insert]"]);
        let m = &insert["matched"];
        assert_eq!(m["wait"], "ref", "{insert}");
        assert_eq!(m["ref"], "@vim.mode", "{insert}");
        assert_eq!(m["value"], "insert", "{insert}");
        assert_eq!(
            m["at"]["row"], rows,
            "the mode is on the last row at {size}: {insert}"
        );
        a.ok(&["type", "v", "typed by an agent "]);
        a.ok(&["snapshot", "v", "--mark", "typed"]);
        a.ok(&["press", "v", "Esc"]);
        a.ok(&["wait", "v", "--ref", "@vim.mode[value=normal]"]);
        a.ok(&["type", "v", ":wq"]);
        let cmdline = a.ok(&["wait", "v", "--ref", "@vim.cmdline[value=\":wq\"]"]);
        assert_eq!(cmdline["matched"]["value"], ":wq", "{cmdline}");
        a.ok(&["press", "v", "Enter"]);
        a.ok(&["wait", "v", "--exit", "0"]);
        assert_eq!(
            std::fs::read_to_string(a.work.join("notes.txt")).unwrap(),
            "typed by an agent -- INSERT --\n-- VISUAL --\n"
        );
        a.ok(&["stop", "v", "--save", "casts/v"]);
        let saved = std::fs::read_to_string(a.work.join("casts/v.toml")).unwrap();
        assert!(
            saved.contains("{ wait = { ref = \"@vim.mode[value=insert]\" } }"),
            "{saved}"
        );
        // The saved scenario records again through its ref waits.
        a.work.write("notes.txt", "-- INSERT --\n-- VISUAL --\n");
        rerecord_gives_the_same_checkpoints(&a, &a.work.join("casts/v"), &["typed"]);
    }
}

#[test]
fn dialog_and_whiptail_buttons_are_refs_with_their_focus() {
    for program in ["dialog", "whiptail"] {
        if !need(program) {
            continue;
        }
        let a = Agent::new();
        a.ok(&[
            "start",
            "--name",
            "d",
            "--",
            program,
            "--yesno",
            "Delete it?",
            "8",
            "30",
        ]);
        let yes = a.ok(&["wait", "d", "--ref", "@dialog.button(\"Yes\")[focused]"]);
        assert_eq!(
            yes["matched"]["ref"], "@dialog.button(\"Yes\")",
            "{program}: {yes}"
        );
        let refs = a.ok(&["inspect", "d"]);
        let buttons: Vec<(String, bool)> = refs["inspect"]["refs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["role"] == "button")
            .map(|r| {
                (
                    r["value"].as_str().unwrap().to_string(),
                    r["focused"] == true,
                )
            })
            .collect();
        assert_eq!(
            buttons,
            [("Yes".to_string(), true), ("No".to_string(), false)],
            "{program}"
        );
        a.ok(&["press", "d", "Tab"]);
        let no = a.ok(&["wait", "d", "--ref", "@dialog.button[focused][value=No]"]);
        assert_eq!(no["matched"]["value"], "No", "{program}: {no}");
        a.ok(&["press", "d", "Enter"]);
        let done = a.ok(&["wait", "d", "--exit"]);
        assert_eq!(
            done["status"]["code"], 1,
            "No was pressed: {program}: {done}"
        );
    }
}

#[test]
fn a_shells_prompt_and_the_output_of_its_last_command() {
    let mut a = Agent::new();
    a.env.push(("PS1".into(), "work$ ".into()));
    a.ok(&[
        "start",
        "--name",
        "b",
        "--",
        "bash",
        "--norc",
        "--noprofile",
    ]);
    a.ok(&["wait", "b", "--ref", "@shell.prompt"]);
    a.ok(&["type", "b", "printf 'one\\ntwo\\n'"]);
    let typed = a.ok(&["wait", "b", "--ref", "@shell.prompt[value^=printf]"]);
    assert_eq!(
        typed["matched"]["value"], "printf 'one\\ntwo\\n'",
        "{typed}"
    );
    a.ok(&["press", "b", "Enter"]);
    let out = a.ok(&["wait", "b", "--ref", "@shell.output[text~=\"two\"]"]);
    assert_eq!(out["matched"]["text"], "one\ntwo", "{out}");
    assert_eq!(out["matched"]["at"]["row"], 2, "{out}");
    a.ok(&["wait", "b", "--ref", "@shell.prompt[value=\"\"]"]);
    a.ok(&["type", "b", "exit"]);
    a.ok(&["press", "b", "Enter"]);
    a.ok(&["wait", "b", "--exit", "0"]);
}

#[test]
fn a_pagers_position_and_a_ref_that_goes() {
    if !need("less") {
        return;
    }
    let a = Agent::new();
    let lines: String = (1..=200).map(|i| format!("{i}\n")).collect();
    a.work.write("n.txt", lines);
    a.ok(&["start", "--name", "l", "--", "less", "n.txt"]);
    // The first screen shows the file's name where the position goes: the top.
    let top = a.ok(&["wait", "l", "--ref", "@pager.position[value=top]"]);
    assert_eq!(top["matched"]["text"], "n.txt", "{top}");
    a.ok(&["press", "l", "G"]);
    let end = a.ok(&["wait", "l", "--ref", "@pager.position[value=end]"]);
    assert_eq!(end["matched"]["text"], "(END)", "{end}");
    a.ok(&["press", "l", "g"]);
    let gone = a.ok(&["wait", "l", "--ref", "@pager.position[value=end]", "--gone"]);
    assert_eq!(gone["matched"]["wait"], "ref", "{gone}");
    a.ok(&["press", "l", "q"]);
    a.ok(&["wait", "l", "--exit"]);
}

#[test]
fn bad_selectors_are_json_errors_with_the_column() {
    let a = Agent::new();
    a.ok(&[
        "start",
        "--name",
        "s",
        "--",
        "sh",
        "-c",
        "echo ready; read x",
    ]);
    a.ok(&["wait", "s", "--text", "ready"]);
    for (sel, want) in [
        (
            "@vim.mode[valu=insert]",
            "selector column 11: unknown `valu`",
        ),
        ("@vim.mode[value=insert", "selector column 23: expected `]`"),
        ("vim.mode", "selector column 1: a ref begins with `@`"),
        ("@nosuch", "no ref `@nosuch`"),
        ("@vim.nosuch", "no ref `@vim.nosuch`"),
    ] {
        let r = a.run(&["wait", "s", "--ref", sel]);
        assert_eq!(r.code, 2, "{sel}: {r}");
        let error = r.json["error"].as_str().unwrap_or_default();
        assert!(error.contains(want), "{sel}: {error}");
    }
    // The scenario's own wait parser reads the flags, in its words.
    let r = a.run(&["wait", "s", "--gone"]);
    assert_eq!(r.code, 2, "{r}");
    assert!(
        r.json["error"]
            .as_str()
            .unwrap()
            .contains("wait gone = true goes with ref = \"SELECTOR\""),
        "{r}"
    );
}

#[test]
fn a_projects_app_manifest_names_refs_and_travels_with_the_saved_scenario() {
    let a = Agent::new();
    a.work.write(
        "app.sh",
        "#!/bin/sh\nprintf 'count: 1\\n'\nread x\nprintf '\\033[2J\\033[Hcount: 2\\n'\nread y\n",
    );
    std::fs::set_permissions(
        a.work.join("app.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    a.work.write(
        "tuicast.toml",
        "[adapters.counter]\nprograms = [\"app.sh\"]\n\
         refs.count = { regex = 'count: (?P<value>\\d+)' }\n",
    );
    a.ok(&["start", "--name", "c", "--", "./app.sh"]);
    a.ok(&["wait", "c", "--ref", "@counter.count[value=\"1\"]"]);
    a.ok(&["press", "c", "Enter"]);
    let two = a.ok(&["wait", "c", "--ref", "@counter.count[value=\"2\"]"]);
    assert_eq!(two["matched"]["ref"], "@counter.count", "{two}");
    a.ok(&["snapshot", "c", "--mark", "two"]);
    a.ok(&["press", "c", "Enter"]);
    a.ok(&["wait", "c", "--exit"]);
    a.ok(&["stop", "c", "--save", "casts/c"]);
    let saved = std::fs::read_to_string(a.work.join("casts/c.toml")).unwrap();
    assert!(saved.contains("[adapters]\ncounter = {"), "{saved}");
    // Without the project's manifest, the scenario's own still names the ref.
    std::fs::remove_file(a.work.join("tuicast.toml")).unwrap();
    rerecord_gives_the_same_checkpoints(&a, &a.work.join("casts/c"), &["two"]);
}

/// A 30x6 vim-like screen: `-- VISUAL --` in the buffer, `-- INSERT --` and the ruler on the
/// last row (what vim is recognised by in a cast alone, issue 42), and a dialog's box with a
/// focused `< OK >`; then the end, the last row erased.
fn vim_cast() -> String {
    v3_cast(
        30,
        6,
        &[
            r#"[0.1, "o", "-- VISUAL --\r\n~\r\n\u250c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2510\r\n\u2502 \u001b[7m< OK >\u001b[m  < Cancel > \u2502\r\n\u2514\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2518\r\n-- INSERT --   0,1   All"]"#,
            r#"[0.1, "m", "typing"]"#,
            r#"[0.1, "o", "\u001b[6;1H\u001b[2K"]"#,
        ],
    )
}

#[test]
fn refs_find_a_casts_regions_expectations_and_masks() {
    let dir = Dir::new();
    dir.write("casts/app.cast", vim_cast());
    dir.write(
        "casts/app.toml",
        "[regions]\nmode = { ref = \"@vim.mode\" }\n\n\
         [[check.mask]]\nref = \"@dialog.button\"\n\n\
         [[check.expect]]\nname = \"mode\"\nat = \"typing\"\nregion = \"mode\"\ntext = \"-- INSERT --\"\n\n\
         [[check.expect]]\nname = \"ok\"\nat = \"typing\"\nref = '@dialog.button[focused]'\ntext = \"< OK >\"\ninverse = true\n",
    );
    dir.tuicast(["test", "--update"]).run().success();
    let golden = std::fs::read_to_string(dir.join("snapshots/app/typing.txt")).unwrap();
    let out = dir.tuicast(["test"]).run();
    assert!(out.succeeded(), "{out}");
    assert!(out.stdout().contains("app::typing::mode ... ok"), "{out}");
    assert!(out.stdout().contains("app::typing::ok ... ok"), "{out}");
    assert!(
        !golden.contains("< OK >") && !golden.contains("< Cancel >") && golden.contains("▒"),
        "both buttons are masked: {golden}"
    );
    assert!(golden.contains("-- INSERT --"), "the rest is not: {golden}");
    // An expectation whose ref finds nothing fails, naming it.
    dir.write(
        "casts/app.toml",
        "[[check.expect]]\nname = \"visual\"\nat = \"typing\"\nref = \"@vim.mode[value=visual]\"\ncontains = \"VISUAL\"\n",
    );
    let out = dir.tuicast(["test"]).run();
    assert_eq!(out.code(), Some(1), "{out}");
    assert!(out.stdout().contains("@vim.mode[value=visual]"), "{out}");
    assert!(out.stdout().contains("finds nothing"), "{out}");
    // A selector that names no ref is bad input, placed in the file.
    dir.write(
        "casts/app.toml",
        "[[check.expect]]\nat = \"typing\"\nref = \"@vim.mood\"\ncontains = \"x\"\n",
    );
    let out = dir.tuicast(["test"]).run();
    assert_eq!(out.code(), Some(2), "{out}");
    assert!(
        out.stdout()
            .contains("casts/app.toml:1:1: check.expect[0]: ref \"@vim.mood\": no ref `@vim.mood`"),
        "{out}"
    );
}

#[test]
fn a_click_on_a_ref_presses_the_button_it_names() {
    if !need("dialog") {
        return;
    }
    let a = Agent::new();
    a.ok(&[
        "start",
        "--name",
        "d",
        "--",
        "dialog",
        "--yesno",
        "Delete it?",
        "8",
        "30",
    ]);
    a.ok(&["wait", "d", "--ref", "@dialog.button(\"Yes\")[focused]"]);
    let clicked = a.ok(&[
        "step",
        "d",
        "{ click = { ref = '@dialog.button(\"No\")' } }",
    ]);
    assert_eq!(
        clicked["step"], "{ click = { ref = '@dialog.button(\"No\")' } }",
        "{clicked}"
    );
    let done = a.ok(&["wait", "d", "--exit"]);
    assert_eq!(done["status"]["code"], 1, "the click pressed No: {done}");
    // A ref that finds several is no target: the message lists them.
    let b = Agent::new();
    b.ok(&[
        "start",
        "--name",
        "d",
        "--",
        "dialog",
        "--yesno",
        "Delete it?",
        "8",
        "30",
    ]);
    b.ok(&["wait", "d", "--ref", "@dialog.button"]);
    let r = b.run(&[
        "step",
        "d",
        "{ click = { ref = '@dialog.button' }, timeout = \"1s\" }",
    ]);
    assert_eq!(r.code, 1, "{r}");
    let error = r.json["error"].as_str().unwrap_or_default();
    assert!(error.contains("finds 2 refs"), "{error}");
    assert!(
        error.contains("@dialog.button(\"Yes\"), @dialog.button(\"No\")"),
        "{error}"
    );
}

#[test]
fn an_annotation_names_a_region_found_by_a_ref() {
    let dir = Dir::new();
    dir.write("casts/app.cast", vim_cast());
    dir.write(
        "casts/app.toml",
        "[regions]\nmode = { ref = \"@vim.mode\", label = \"mode\" }\n\
         visual = { ref = \"@vim.mode[value=visual]\" }\n",
    );
    let png = dir.join("mode.png");
    let png_arg = png.to_string_lossy().into_owned();
    dir.tuicast([
        "replay",
        "casts/app.cast",
        "--at",
        "typing",
        "--format",
        "png",
        "--annotate",
        "region=mode",
        "-o",
        &png_arg,
    ])
    .run()
    .success();
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    // One whose ref finds nothing on the screen is an error, not a picture without it.
    let out = dir
        .tuicast([
            "replay",
            "casts/app.cast",
            "--at",
            "typing",
            "--format",
            "png",
            "--annotate",
            "region=visual",
            "-o",
            &png_arg,
        ])
        .run();
    assert_eq!(out.code(), Some(2), "{out}");
    assert!(format!("{out}").contains("finds nothing"), "{out}");
}
