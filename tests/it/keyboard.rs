//! Keys by the keyboard mode a real program set (issue 43 point 3), through the real binary:
//! `tests/apps/keysapp/keysapp.py` pushes the kitty keyboard protocol's flags or sets xterm's
//! modifyOtherKeys, asks `CSI ? u` (answered from the live engine's flag stack), and prints
//! every read; scenarios and a session press `S-Enter`, `C-S-a` and more, and the program
//! must read what kitty and xterm send for them. With no mode set the legacy bytes are
//! unchanged. `tuicast info` lists the flags the program used.

use std::path::PathBuf;

use crate::session::Agent;
use crate::util::{record_scenario, root, screen_at, tuicast, Dir, BIN};

fn keysapp() -> PathBuf {
    root().join("tests/apps/keysapp/keysapp.py")
}

/// A scenario running keysapp with `args` that presses each of `keys` (waiting for the
/// program to print what it read after each), then `q`.
fn scenario(args: &[&str], keys: &[&str]) -> String {
    let mut argv = vec![
        "\"python3\"".to_string(),
        format!("{:?}", keysapp().display().to_string()),
    ];
    argv.extend(args.iter().map(|a| format!("{a:?}")));
    let mut steps = vec!["  { wait = \"ready\" },".to_string()];
    for (i, k) in keys.iter().enumerate() {
        steps.push(format!("  {{ press = {k:?} }},"));
        // The program prints a line per read: wait for the one of this key.
        steps.push(format!(
            "  {{ wait = {{ regex = '(?s)(got .*){{{}}}' }} }},",
            i + 1
        ));
    }
    steps.push("  { snapshot = \"keys\" },".to_string());
    steps.push("  { press = \"q\" },".to_string());
    steps.push("  { exit = 0 },".to_string());
    format!(
        "command = [{}]\nsize = \"100x30\"\nsteps = [\n{}\n]\n",
        argv.join(", "),
        steps.join("\n")
    )
}

/// What the program printed: its `flags` line and each `got` line.
fn printed(screen: &str) -> Vec<String> {
    screen
        .lines()
        .map(str::trim_end)
        .filter(|l| l.starts_with("flags ") || l.starts_with("got "))
        .map(str::to_string)
        .collect()
}

#[test]
fn keys_reach_the_program_as_the_keyboard_mode_it_set_says() {
    if !crate::refs::need("python3") {
        return;
    }
    let dir = Dir::new();
    let keys = [
        "S-Enter", "C-S-a", "Enter", "a", "A", "Esc", "C-c", "S-Up", "M-x",
    ];
    type Case<'a> = (&'a str, &'a [&'a str], [&'a str; 10]);
    let cases: [Case; 5] = [
        // No mode: the legacy bytes, as before (Shift on Enter sends Enter, as xterm does).
        (
            "legacy",
            &["legacy"],
            [
                "flags ESC[?0u",
                "got \\x0d",
                "got \\x01",
                "got \\x0d",
                "got a",
                "got A",
                "got ESC",
                "got \\x03",
                "got ESC[1;2A",
                "got ESCx",
            ],
        ),
        // Flag 1, disambiguate: S-Enter is CSI 13;2u, Esc and Ctrl/Alt keys are CSI u.
        (
            "kitty-1",
            &["kitty", "1"],
            [
                "flags ESC[?1u",
                "got ESC[13;2u",
                "got ESC[97;6u",
                "got \\x0d",
                "got a",
                "got A",
                "got ESC[27u",
                "got ESC[99;5u",
                "got ESC[1;2A",
                "got ESC[120;3u",
            ],
        ),
        // 1 + 2 + 8 + 16: every key an escape code with its text, followed by its release.
        (
            "kitty-27",
            &["kitty", "27"],
            [
                "flags ESC[?27u",
                "got ESC[13;2uESC[13;2:3u",
                "got ESC[97;6uESC[97;6:3u",
                "got ESC[13uESC[13;1:3u",
                "got ESC[97;;97uESC[97;1:3u",
                "got ESC[97;2;65uESC[97;2:3u",
                "got ESC[27uESC[27;1:3u",
                "got ESC[99;5uESC[99;5:3u",
                "got ESC[1;2AESC[1;2:3A",
                "got ESC[120;3uESC[120;3:3u",
            ],
        ),
        // modifyOtherKeys 2: CSI 27 ; mod ; code ~ for every modified key but Shift on text.
        (
            "other-2",
            &["other", "2"],
            [
                "flags ESC[?0u",
                "got ESC[27;2;13~",
                "got ESC[27;6;65~",
                "got \\x0d",
                "got a",
                "got A",
                "got ESC",
                "got ESC[27;5;99~",
                "got ESC[1;2A",
                "got ESC[27;3;120~",
            ],
        ),
        // Level 1 keeps the keys with a well-known code.
        (
            "other-1",
            &["other", "1"],
            [
                "flags ESC[?0u",
                "got ESC[27;2;13~",
                "got ESC[27;6;65~",
                "got \\x0d",
                "got a",
                "got A",
                "got ESC",
                "got \\x03",
                "got ESC[1;2A",
                "got ESCx",
            ],
        ),
    ];
    for (name, args, want) in cases {
        let (out, cast) = record_scenario(&dir, name, &scenario(args, &keys), &[]);
        assert!(out.succeeded(), "{name}: {out}");
        let screen = screen_at(&cast, "keys");
        assert_eq!(printed(&screen), want, "{name}:\n{screen}");
    }
    // The answer to the program's query is in the cast, as an `i` event.
    let cast = std::fs::read_to_string(dir.join("kitty-1.cast")).unwrap();
    assert!(cast.contains(r#""i", "\u001b[?1u""#), "{cast}");

    // `tuicast info` lists the flags and levels the program used (it popped them on exit).
    let info = tuicast(["info".as_ref(), dir.join("kitty-27.cast").as_os_str()]).success();
    assert!(
        info.stdout()
            .contains("kitty keys   flags 27 (disambiguate+event types+all keys+associated text)"),
        "{}",
        info.stdout()
    );
    assert!(
        info.stdout().contains("final modes  none"),
        "{}",
        info.stdout()
    );
    let json = tuicast([
        "info".as_ref(),
        dir.join("other-2.cast").as_os_str(),
        "--json".as_ref(),
    ])
    .success()
    .json();
    assert_eq!(
        json["terminal"]["modify_other_keys"],
        serde_json::json!([2])
    );
    assert_eq!(json["terminal"]["keyboard_flags"], serde_json::json!([]));
}

#[test]
fn a_session_presses_keys_by_the_flags_the_program_pushed() {
    if !crate::refs::need("python3") {
        return;
    }
    let a = Agent::new();
    let app = keysapp().display().to_string();
    a.ok(&["start", "--name", "k", "--", "python3", &app, "kitty", "1"]);
    a.ok(&["wait", "k", "--text=ready"]);
    a.ok(&["press", "k", "S-Enter"]);
    a.ok(&["wait", "k", "--text=got ESC[13;2u"]);
    a.ok(&["press", "k", "C-S-a"]);
    let shown = a.ok(&["wait", "k", "--text=got ESC[97;6u"]);
    let text = shown["screen"]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let text = if text.is_empty() {
        shown.to_string()
    } else {
        text
    };
    assert!(text.contains("flags ESC[?1u"), "{text}");
    // An unknown key is bad input: exit 2, with the names there are.
    let r = a.run(&["press", "k", "Hyper-x"]);
    assert_eq!(r.code, 2, "{r}");
    assert!(
        r.json["error"]
            .as_str()
            .unwrap_or("")
            .contains("S- (Shift)"),
        "{r}"
    );
    a.ok(&["press", "k", "q"]);

    // Under flag 8 typed text is sent as keys too: `h` is CSI 104 u.
    a.ok(&["start", "--name", "k8", "--", "python3", &app, "kitty", "8"]);
    a.ok(&["wait", "k8", "--text=ready"]);
    a.ok(&["type", "k8", "hI"]);
    let shown = a.ok(&["wait", "k8", "--text=got ESC[105;2u"]);
    assert!(shown.to_string().contains("got ESC[104u"), "{shown}");
    a.ok(&["press", "k8", "q"]);
}

/// A recording by hand, in a session's terminal (a real PTY standing in for the person's):
/// the program's kitty flags reach that terminal through the mirror, so the session sends
/// `S-Enter` as `CSI 13;2u`; `tuicast record` passes it on as sent, records it, and its
/// `--scenario` names it `S-Enter` again.
#[test]
fn a_recording_by_hand_passes_kitty_keys_on_and_names_them() {
    if !crate::refs::need("python3") {
        return;
    }
    let a = Agent::new();
    let app = keysapp().display().to_string();
    let cast = a.work.join("hand.cast").display().to_string();
    let toml = a.work.join("hand.toml").display().to_string();
    a.ok(&[
        "start",
        "--name",
        "h",
        "--size",
        "100x30",
        "--",
        BIN,
        "record",
        "-o",
        &cast,
        "--scenario",
        &toml,
        "--",
        "python3",
        &app,
        "kitty",
        "1",
    ]);
    a.ok(&["wait", "h", "--text=ready"]);
    a.ok(&["press", "h", "S-Enter"]);
    a.ok(&["wait", "h", "--text=got ESC[13;2u"]);
    a.ok(&["press", "h", "C-S-a"]);
    a.ok(&["wait", "h", "--text=got ESC[97;6u"]);
    a.ok(&["press", "h", "q"]);
    a.ok(&["wait", "h", "--exit", "0"]);
    let recorded = std::fs::read_to_string(&cast).unwrap();
    assert!(recorded.contains(r#""i", "\u001b[13;2u""#), "{recorded}");
    let scenario = std::fs::read_to_string(&toml).unwrap();
    assert!(scenario.contains("\"S-Enter\""), "{scenario}");
    assert!(scenario.contains("\"C-S-a\""), "{scenario}");
}
