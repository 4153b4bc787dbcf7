//! Mouse, paste and focus steps with real programs in real PTYs, recorded by the real
//! `tuicast` binary (and the Rust `Session` API): the crossterm `eventsapp` (every tracking
//! mode and encoding byte for byte, and decoded by crossterm), vim (click, drag to select),
//! less (wheel), bash's readline (bracketed paste), mc (a panel entry), htop (a column
//! header) and dialog (a button, through a region anchored by content, as eventsapp's clicks
//! on anchored regions resolved on the live screen); the errors when a program enabled no mouse
//! reporting or focus reporting; the modes in `tuicast info` and the JSON render.

use std::fs;
use std::path::{Path, PathBuf};

use crate::util::{have, record_scenario, root, screen_at, Dir, Tuicast};

/// The eventsapp test program (`tests/apps/eventsapp`), built if need be.
pub(crate) fn eventsapp() -> PathBuf {
    tuicast::record::cargo_bin::locate("eventsapp", &root().join("tests/apps/eventsapp"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A scenario running eventsapp with `args`, at `size`, with `steps` (TOML lines).
fn eventsapp_scenario(args: &[&str], size: &str, steps: &str) -> String {
    let mut argv = vec![format!("{:?}", eventsapp().display().to_string())];
    argv.extend(args.iter().map(|a| format!("{a:?}")));
    format!(
        "command = [{}]\nsize = \"{size}\"\nsteps = [\n  {{ wait = \"ready\" }},\n{steps}\n]\n",
        argv.join(", ")
    )
}

/// The text of every `i` event of `cast`, joined.
fn inputs(cast: &Path) -> String {
    fs::read_to_string(cast)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e[1] == "i")
        .map(|e| e[2].as_str().unwrap().to_string())
        .collect()
}

/// What eventsapp `--raw` printed, its reads joined (`raw ` dropped), as it escapes bytes
/// (the terminal is wide enough that no line wraps).
fn raw_received(screen: &str) -> String {
    screen
        .lines()
        .filter_map(|l| l.strip_prefix("raw "))
        .collect()
}

/// `bytes` escaped as eventsapp `--raw` prints them.
fn escaped(bytes: &str) -> String {
    let mut out = String::new();
    for &b in bytes.as_bytes() {
        match b {
            0x1b => out.push_str("ESC"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

#[test]
fn every_tracking_mode_and_encoding_reaches_the_program_byte_for_byte() {
    let dir = Dir::new();
    // (mode, encoding, size, steps, the bytes a terminal sends for them, as xterm's ctlseqs
    // describes them)
    let click = "  { click = [5, 10] },";
    let drag = "  { drag = { from = [1, 1], to = [3, 4] } },";
    let scroll = "  { scroll = \"down\", at = [2, 2] },";
    let right = "  { click = [2, 3], button = \"right\" },";
    let hover = "  { hover = [7, 7] },";
    type Case<'a> = (&'a str, Option<&'a str>, &'a str, Vec<&'a str>, &'a str);
    let cases: Vec<Case> = vec![
        // X10: presses only (and the wheel), no release.
        (
            "9",
            None,
            "200x24",
            vec![click, scroll, right],
            "\x1b[M *%\x1b[Ma\"\"\x1b[M\"#\"",
        ),
        // Normal tracking: release is button 3, no motion.
        (
            "1000",
            None,
            "200x24",
            vec![click, drag, scroll],
            "\x1b[M *%\x1b[M#*%\x1b[M !!\x1b[M#$#\x1b[Ma\"\"",
        ),
        // Button-event tracking with SGR: motion while the button is down, releases with `m`.
        (
            "1002",
            Some("1006"),
            "200x24",
            vec![click, drag, scroll, right],
            "\x1b[<0;10;5M\x1b[<0;10;5m\x1b[<0;1;1M\x1b[<32;4;3M\x1b[<0;4;3m\x1b[<65;2;2M\
             \x1b[<2;3;2M\x1b[<2;3;2m",
        ),
        // Any-event tracking with urxvt's decimal form: motion with no button too.
        (
            "1003",
            Some("1015"),
            "200x24",
            vec![click, drag, hover],
            "\x1b[32;10;5M\x1b[35;10;5M\x1b[32;1;1M\x1b[64;4;3M\x1b[35;4;3M\x1b[67;7;7M",
        ),
        // UTF-8 positions: column 120 is U+0098, two bytes.
        (
            "1000",
            Some("1005"),
            "130x30",
            vec!["  { click = [30, 120] },"],
            "\x1b[M \u{98}>\x1b[M#\u{98}>",
        ),
    ];
    for (mode, encoding, size, steps, expected) in cases {
        let mut args = vec!["--mouse", mode];
        if let Some(e) = encoding {
            args.extend(["--encoding", e]);
        }
        args.push("--raw");
        let name = format!("m{mode}-{}", encoding.unwrap_or("x10"));
        let steps = format!(
            "{}\n  {{ type = \"Z\" }},\n  {{ wait = {{ regex = \"Z\\\\s*$\" }} }},\n  \
             {{ checkpoint = \"got\" }},\n  {{ press = \"q\" }},\n  {{ exit = 0 }},",
            steps.join("\n")
        );
        let (out, cast) =
            record_scenario(&dir, &name, &eventsapp_scenario(&args, size, &steps), &[]);
        out.success();
        // What the cast recorded is exactly what was sent...
        assert_eq!(inputs(&cast), format!("{expected}Zq"), "{name}");
        // ... and what the program read, byte for byte.
        let screen = screen_at(&cast, "got");
        assert_eq!(
            raw_received(&screen),
            format!("{}Z", escaped(expected)),
            "{name}: {screen}"
        );
    }
}

#[test]
fn crossterm_decodes_clicks_drags_wheels_hovers_focus_and_pastes() {
    let dir = Dir::new();
    for encoding in ["1006", "1015", "none"] {
        let mut args = vec!["--mouse", "1003", "--focus", "--paste"];
        if encoding != "none" {
            args.extend(["--encoding", encoding]);
        }
        let steps = r#"  { click = { text = "ready" }, button = "middle" },
  { drag = { from = [4, 2], to = [6, 9] } },
  { hover = [7, 7] },
  { scroll = "up", at = [2, 2] },
  { paste = "a\tb\u001b[201~c" },
  { focus = false },
  { focus = true },
  { wait = "focus in" },
  { checkpoint = "got" },
  { press = "q" },
  { exit = 0 },"#;
        let name = format!("decoded-{encoding}");
        let (out, cast) =
            record_scenario(&dir, &name, &eventsapp_scenario(&args, "60x16", steps), &[]);
        out.success();
        let screen = screen_at(&cast, "got");
        // (crossterm reads the default encoding's release, button 3, as the left button's.)
        let middle_up = if encoding == "1006" { "Middle" } else { "Left" };
        let left_up = "Left";
        let want = [
            "mouse Down(Middle) row=1 col=3".to_string(),
            format!("mouse Up({middle_up}) row=1 col=3"),
            "mouse Down(Left) row=4 col=2".into(),
            "mouse Drag(Left) row=6 col=9".into(),
            format!("mouse Up({left_up}) row=6 col=9"),
            "mouse Moved row=7 col=7".into(),
            "mouse ScrollUp row=2 col=2".into(),
            // (The end marker in the text is taken out: the paste stays one paste.)
            "paste \"a\\tbc\" (4 bytes)".into(),
            "focus out".into(),
            "focus in".into(),
        ];
        let got: Vec<&str> = screen.lines().skip(1).take(want.len()).collect();
        assert_eq!(got, want, "{name}: {screen}");
        assert!(
            inputs(&cast).contains("\x1b[200~a\tbc\x1b[201~\x1b[O\x1b[I"),
            "{name}"
        );
    }
}

#[test]
fn a_paste_without_bracketed_paste_is_typed() {
    let dir = Dir::new();
    let steps = r#"  { paste = "hi" },
  { wait = "Char('i')" },
  { checkpoint = "got" },
  { press = "q" },
  { exit = 0 },"#;
    let (out, cast) = record_scenario(&dir, "typed", &eventsapp_scenario(&[], "40x6", steps), &[]);
    out.success();
    let screen = screen_at(&cast, "got");
    assert!(
        screen.starts_with("ready, modes\nkey Char('h')\nkey Char('i')\n"),
        "{screen}"
    );
    assert_eq!(inputs(&cast), "hiq");
}

#[test]
fn steps_the_program_did_not_enable_fail_with_their_place_and_the_modes() {
    let dir = Dir::new();
    let cases: [(&[&str], &str, &str, &[&str]); 6] = [
        (
            &[],
            "80x24",
            "{ click = [2, 2], timeout = \"300ms\" }",
            &["a left click needs mouse reporting", "mouse tracking off"],
        ),
        (
            &["--mouse", "1000", "--encoding", "1006"],
            "80x24",
            "{ hover = [2, 2], timeout = \"300ms\" }",
            &[
                "a hover needs any-event tracking (CSI ? 1003 h)",
                "mouse tracking normal (1000) (modes on: mouse normal (1000) sgr (1006))",
            ],
        ),
        (
            &["--mouse", "9"],
            "80x24",
            "{ drag = { from = [1, 1], to = [2, 2] }, timeout = \"300ms\" }",
            &["X10 mode 9 reports presses only", "mouse tracking x10 (9)"],
        ),
        (
            &["--paste"],
            "80x24",
            "{ focus = true, timeout = \"300ms\" }",
            &[
                "has not enabled focus reporting (CSI ? 1004 h)",
                "modes on: bracketed paste (2004)",
            ],
        ),
        (
            &["--mouse", "1000"],
            "130x30",
            "{ drag = { from = [1, 1], to = [3, 120] } }",
            &[
                "a drag at row 3, column 120: column 120 is beyond the default mouse encoding",
                "1006",
            ],
        ),
        (
            &["--mouse", "1000"],
            "80x24",
            "{ click = [25, 1] }",
            &["off the screen (80x24: rows 1 to 24"],
        ),
    ];
    for (i, (args, size, step, expected)) in cases.into_iter().enumerate() {
        let name = format!("refused{i}");
        let toml = eventsapp_scenario(args, size, &format!("  {step},\n  {{ exit = 0 }},"));
        let (out, _) = record_scenario(&dir, &name, &toml, &[]);
        let out = out.fails_with(1);
        let place = format!("{name}.toml:5:3: ");
        assert!(out.stderr().contains(&place), "{name}: {out}");
        for e in expected {
            assert!(out.stderr().contains(e), "{name}: {e:?} in {out}");
        }
        assert!(!out.stderr().contains("panicked"), "{out}");
        // Nothing of a refused step is sent (no press without its release).
        let partial = dir.join(format!("{name}.cast.partial"));
        assert!(!inputs(&partial).contains('\x1b'), "{name}");
    }
}

#[test]
fn info_and_the_json_render_show_the_modes_a_program_left_set() {
    let dir = Dir::new();
    let steps = r#"  { checkpoint = "on" },
  { press = "q" },
  { exit = 0 },"#;
    let args = [
        "--mouse",
        "1002",
        "--encoding",
        "1006",
        "--paste",
        "--focus",
    ];
    let (out, cast) = record_scenario(
        &dir,
        "modes",
        &eventsapp_scenario(&args, "40x6", steps),
        &[],
    );
    out.success();
    let v = Tuicast::new()
        .arg("replay")
        .arg(&cast)
        .args(["--at", "on", "--format", "json"])
        .run()
        .success()
        .json();
    assert_eq!(
        v["modes"],
        serde_json::json!({"bracketed_paste": true, "mouse": "button", "mouse_encoding": "sgr",
            "focus": true, "cursor_keys": false, "keypad": false, "autowrap": true,
            "origin": false})
    );
    // eventsapp resets them as it quits: the final modes are a fresh terminal's.
    let info = Tuicast::new().arg("info").arg(&cast).run().success();
    assert!(info.stdout().contains("final modes  none"), "{info}");
    let v = Tuicast::new()
        .arg("info")
        .arg(&cast)
        .arg("--json")
        .run()
        .success()
        .json();
    assert_eq!(v["modes"]["mouse"], "off");
    // A cast that leaves them set (cut before the program resets them).
    let text = fs::read_to_string(&cast).unwrap();
    let cut: Vec<&str> = text.lines().take_while(|l| !l.contains("bye")).collect();
    let cut_cast = dir.write("cut.cast", cut.join("\n") + "\n");
    let info = Tuicast::new().arg("info").arg(&cut_cast).run().success();
    assert!(
        info.stdout().contains(
            "final modes  mouse button (1002) sgr (1006), bracketed paste (2004), focus reporting (1004)"
        ),
        "{info}"
    );
}

#[test]
fn vim_click_moves_the_cursor_and_a_drag_selects_in_visual_mode() {
    if !have("vim") {
        assert!(std::env::var_os("CI").is_none(), "vim is required under CI");
        return;
    }
    // (vim enables SGR reports, `CSI ? 1006 ; 1000 h`, before it reads its options, and never
    // resets 1006: with ttymouse=xterm2 or urxvt a terminal still sends SGR reports, which vim
    // then does not read. So only sgr.)
    let ttymouse = "sgr";
    {
        let dir = Dir::new();
        dir.write(
            "notes.txt",
            "alpha one\nbravo two\ncharlie three\ndelta four\n",
        );
        let toml = format!(
            r#"command = ["vim", "-u", "NONE", "-N", "-i", "NONE", "--cmd", "set mouse=a ttymouse={ttymouse}", "notes.txt"]
size = "60x10"
steps = [
  {{ wait = "charlie" }},
  {{ click = {{ text = "three" }} }},
  {{ wait = {{ cursor = [3, 11] }} }},
  {{ checkpoint = "clicked" }},
  {{ drag = {{ from = {{ text = "bravo" }}, to = {{ text = "four" }} }} }},
  {{ wait = "-- VISUAL --" }},
  {{ checkpoint = "selected" }},
  {{ press = "y" }},
  {{ wait = {{ gone = "-- VISUAL --" }} }},
  {{ press = ["G", "$", "p"] }},
  {{ wait = "delta fouravo" }},
  {{ checkpoint = "pasted" }},
  {{ press = [":", "q", "!", "Enter"] }},
  {{ exit = 0 }},
]
"#
        );
        let (out, cast) = record_scenario(&dir, "vim", &toml, &[]);
        out.success();
        let v = json_at(&cast, "clicked");
        assert_eq!(v["cursor"]["row"], 2, "{ttymouse}");
        assert_eq!(v["cursor"]["col"], 10, "{ttymouse}");
        let v = json_at(&cast, "selected");
        // The centre of "four" (row 4, columns 7 to 10): the drag ended at column 8.
        assert_eq!(
            (v["cursor"]["row"].as_u64(), v["cursor"]["col"].as_u64()),
            (Some(3), Some(7))
        );
        assert_eq!(v["modes"]["mouse"], "button", "{ttymouse}");
        assert_eq!(v["modes"]["mouse_encoding"], "sgr", "{ttymouse}");
        let visual = v["rows"][9]["text"].as_str().unwrap();
        assert!(visual.starts_with("-- VISUAL --"), "{ttymouse}: {v}");
        // The yank took the selection, from the centre of "bravo" (its "a") to the centre of
        // "four" (its "o"): pasted after the last line's end.
        let pasted = screen_at(&cast, "pasted");
        assert!(
            pasted.contains("delta fouravo two\ncharlie three\ndelta fo\n"),
            "{ttymouse}: {pasted}"
        );
    }
}

#[test]
fn less_scrolls_down_on_the_wheel() {
    if !have("less") {
        assert!(
            std::env::var_os("CI").is_none(),
            "less is required under CI"
        );
        return;
    }
    let dir = Dir::new();
    let lines: String = (1..=200).map(|i| format!("line {i}\n")).collect();
    dir.write("long.txt", lines);
    let (out, cast) = record_scenario(
        &dir,
        "less",
        r#"command = ["less", "--mouse", "long.txt"]
size = "40x10"
steps = [
  { wait = "line 9" },
  { checkpoint = "top" },
  { scroll = "down", at = [5, 5], count = 2 },
  { wait = { regex = "^line 3\n" } },
  { checkpoint = "scrolled" },
  { scroll = "up", at = [5, 5] },
  { wait = { regex = "^line 2\n" } },
  { checkpoint = "back" },
  { press = "q" },
  { exit = 0 },
]
"#,
        &[],
    );
    out.success();
    assert!(screen_at(&cast, "top").starts_with("line 1\nline 2\n"));
    assert!(screen_at(&cast, "scrolled").starts_with("line 3\nline 4\n"));
    assert!(screen_at(&cast, "back").starts_with("line 2\nline 3\n"));
}

#[test]
fn a_bracketed_paste_reaches_bash_readline_whole() {
    // A tab in pasted text is text when bash's readline has bracketed paste on; typed, it
    // would ask for completion (and be dropped).
    for (setting, got) in [
        ("on", r"got [$'one\ttwo  three'] 14"),
        ("off", r"got [onetwo\ \ three] 13"),
    ] {
        use tuicast::record::{Session, SessionOptions};
        let script = format!(
            "bind 'set enable-bracketed-paste {setting}' 2>/dev/null; \
             read -e -p 'paste> ' line; printf 'got [%q] %d\\n' \"$line\" ${{#line}}"
        );
        let mut opts = SessionOptions::new(["bash", "--norc", "--noprofile", "-c", &script]);
        opts.size = tuicast::size::Size { cols: 60, rows: 5 };
        let mut s = Session::spawn_in_memory(opts).unwrap();
        s.wait_text("paste>").unwrap();
        assert_eq!(s.screen().modes.bracketed_paste, setting == "on");
        s.paste("one\ttwo  three").unwrap();
        s.press("Enter").unwrap();
        s.wait_text("got").unwrap();
        let screen = s.screen().text();
        assert_eq!(s.wait_exit(None).unwrap(), 0);
        let done = s.finish().unwrap();
        assert!(screen.contains(got), "{setting}: {screen}");
        let cast = done.cast.unwrap();
        let sent = if setting == "on" {
            r#""\u001b[200~one\ttwo  three\u001b[201~""#
        } else {
            r#""one\ttwo  three""#
        };
        assert!(cast.contains(sent), "{setting}: {cast}");
    }
}

/// The JSON render of checkpoint `at` of `cast`.
fn json_at(cast: &Path, at: &str) -> serde_json::Value {
    Tuicast::new()
        .arg("replay")
        .arg(cast)
        .args(["--at", at, "--format", "json"])
        .run()
        .success()
        .json()
}

#[test]
fn mc_selects_the_panel_entry_clicked() {
    if !have("mc") {
        assert!(std::env::var_os("CI").is_none(), "mc is required under CI");
        return;
    }
    let dir = Dir::new();
    for f in ["alpha.txt", "beta.txt", "gamma.txt"] {
        dir.write(format!("files/{f}"), "");
    }
    let (out, cast) = record_scenario(
        &dir,
        "mc",
        r#"command = ["mc", "-u", "--nosubshell", "."]
cwd = "files"
size = "80x24"
steps = [
  { wait = "gamma.txt" },
  { checkpoint = "start" },
  { click = { text = "beta.txt" } },
  { checkpoint = "clicked" },
  { press = "F10" },
  { exit = "any" },
]
"#,
        &[],
    );
    out.success();
    // The selection bar is the cyan background (6) across the left panel's row.
    let selected = |v: &serde_json::Value| -> Vec<String> {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| {
                r["runs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|run| run["col"] == 1 && run["bg"] == 6)
            })
            .map(|r| r["text"].as_str().unwrap().to_string())
            .collect()
    };
    let start = json_at(&cast, "start");
    assert_eq!(start["modes"]["mouse"], "button");
    let before = selected(&start);
    assert_eq!(before.len(), 1, "{before:?}");
    assert!(!before[0].contains("beta.txt"), "{before:?}");
    let after = selected(&json_at(&cast, "clicked"));
    assert_eq!(after.len(), 1, "{after:?}");
    assert!(after[0].starts_with("│ beta.txt"), "{after:?}");
}

#[test]
fn htop_sorts_by_the_column_header_clicked() {
    if !have("htop") {
        assert!(
            std::env::var_os("CI").is_none(),
            "htop is required under CI"
        );
        return;
    }
    let dir = Dir::new();
    let (out, cast) = record_scenario(
        &dir,
        "htop",
        r#"command = ["htop"]
size = "100x24"
steps = [
  { wait = "MEM%" },
  { checkpoint = "start" },
  { click = { text = "MEM%" } },
  { wait = "MEM%▽" },
  { checkpoint = "clicked" },
  { press = "q" },
  { exit = "any" },
]
"#,
        &[],
    );
    out.success();
    // htop marks the sort column with ▽: CPU% at first, MEM% after the click.
    let header = |at: &str| {
        let v = json_at(&cast, at);
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["text"].as_str().unwrap().to_string())
            .find(|t| t.contains("PID USER"))
            .unwrap_or_else(|| panic!("no header at {at}: {v}"))
    };
    assert!(header("start").contains("CPU%▽MEM%"), "{}", header("start"));
    assert!(
        header("clicked").contains("CPU% MEM%▽"),
        "{}",
        header("clicked")
    );
}

#[test]
fn the_modes_agree_with_tmux() {
    if !have("tmux") {
        assert!(
            std::env::var_os("CI").is_none(),
            "tmux is required under CI"
        );
        return;
    }
    use tuicast::size::Size;
    use tuicast::term::{Engine, Modes, MouseEncoding, MouseTracking, NativeEngine};
    // Sequences whose modes tmux 3.3 and xterm agree on (tmux has no X10 mode 9, keeps 1005
    // and 1006 side by side where xterm keeps one, ignores DECSTR and XTSAVE, and does not
    // restore origin mode on leaving the 1049 screen, where xterm's DECRC does).
    let cases = [
        "",
        "\x1b[?1000h\x1b[?1006h",
        "\x1b[?1002h\x1b[?1000h",
        "\x1b[?1003h",
        "\x1b[?1003;1006h\x1b[?1000l",
        "\x1b[?1002h\x1b[?1006h\x1b[?1006l",
        "\x1b=\x1b[?1h\x1b[?7l\x1b[?6h",
        "\x1b=\x1b>\x1b[?1h\x1b[?1l",
        "\x1b=\x1b[?1h\x1b[?1003;1006h\x1b[?7l\x1bc",
        "\x1b[?7l\x1b7\x1b[?7h\x1b8",
        "\x1b7\x1b[?7l\x1b8",
        "\x1b[?6h\x1b7\x1b[?6l\x1b8",
        "\x1b[?1049h\x1b[?1002;1006h\x1b[?1049l",
    ];
    let dir = Dir::new();
    // A server per case (a new server on a socket just killed may meet the old one dying),
    // its socket in the test's folder.
    let tmux = |case: usize, args: &[&str]| {
        let socket = dir.join(format!("tmux{case}"));
        let out = std::process::Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args(["-f", "/dev/null"])
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let flags = "#{mouse_standard_flag}#{mouse_button_flag}#{mouse_all_flag}#{mouse_sgr_flag} \
                 #{keypad_flag}#{keypad_cursor_flag}#{wrap_flag}#{origin_flag}";
    let ours = |m: &Modes| {
        let b = |on: bool| if on { '1' } else { '0' };
        format!(
            "{}{}{}{} {}{}{}{}",
            b(m.mouse == MouseTracking::Normal),
            b(m.mouse == MouseTracking::Button),
            b(m.mouse == MouseTracking::Any),
            b(m.mouse_encoding == MouseEncoding::Sgr),
            b(m.keypad),
            b(m.cursor_keys),
            b(m.autowrap),
            b(m.origin),
        )
    };
    for (i, seq) in cases.iter().enumerate() {
        let file = dir.write(format!("seq{i}"), seq);
        let command = format!("cat {}; printf '<done>'; exec cat", file.display());
        tmux(i, &["new-session", "-d", "-x", "80", "-y", "24", &command]);
        // Until tmux has read the pane's output (bounded: tmux reads it in milliseconds).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !tmux(i, &["capture-pane", "-p"]).contains("<done>") {
            assert!(
                std::time::Instant::now() < deadline,
                "tmux never showed {seq:?}"
            );
        }
        let theirs = tmux(i, &["display", "-p", flags]);
        tmux(i, &["kill-server"]);
        let mut e = NativeEngine::new(Size { cols: 80, rows: 24 });
        e.feed(seq);
        assert_eq!(ours(&e.screen().modes), theirs.trim(), "{seq:?}");
    }
}

#[test]
fn the_session_api_clicks_scrolls_and_changes_focus() {
    use tuicast::pos::Point;
    use tuicast::record::{
        mouse::{MouseButton, ScrollDirection},
        Session, SessionOptions, Target,
    };
    let exe = eventsapp().display().to_string();
    let mut opts = SessionOptions::new([
        exe.as_str(),
        "--mouse",
        "1000",
        "--encoding",
        "1006",
        "--focus",
    ]);
    opts.size = tuicast::size::Size { cols: 50, rows: 8 };
    let mut s = Session::spawn_in_memory(opts).unwrap();
    s.wait_text("ready").unwrap();
    s.click(
        &Target::Regex(regex::Regex::new("mod.s").unwrap()),
        MouseButton::Right,
    )
    .unwrap();
    s.scroll(ScrollDirection::Down, &Target::Cell(Point::new(3, 4)))
        .unwrap();
    s.focus(false).unwrap();
    s.wait_text("focus out").unwrap();
    let screen = s.screen().text();
    // A hover needs any-event tracking: refused (once the step's time is up), with the modes
    // that are on.
    s.set_timeout(std::time::Duration::from_millis(300));
    let e = s.hover(&Target::Cell(Point::new(0, 0))).unwrap_err();
    assert!(
        e.to_string().contains("mouse tracking normal (1000)"),
        "{e}"
    );
    s.press("q").unwrap();
    assert_eq!(s.wait_exit(None).unwrap(), 0);
    s.finish().unwrap();
    // "modes" is at columns 8 to 12: the click is at its centre, column 10.
    assert!(
        screen.starts_with(
            "ready, modes 1000 1006 1004\nmouse Down(Right) row=1 col=10\n\
             mouse Up(Right) row=1 col=10\nmouse ScrollDown row=4 col=5\nfocus out\n"
        ),
        "{screen}"
    );
}

/// A mouse step on a region anchored by content resolves it on the live screen when the step
/// runs: eventsapp is clicked on its last non-blank row twice, and the second click lands two
/// rows lower, below the lines the first one printed; a region moved off a match lands where
/// its offset says.
#[test]
fn a_click_on_an_anchored_region_finds_it_on_the_live_screen() {
    let dir = Dir::new();
    let steps = r#"  { click = { region = "last" } },
  { wait = "mouse Up(Left) row=1 col=30" },
  { click = { region = "last" } },
  { wait = "mouse Up(Left) row=3 col=30" },
  { click = { region = "below" }, button = "right" },
  { wait = "mouse Up(Right)" },
  { checkpoint = "got" },
  { press = "q" },
  { exit = 0 },"#;
    let toml = eventsapp_scenario(&["--mouse", "1000", "--encoding", "1006"], "60x16", steps)
        + "[regions]\nlast = { last_row = true }\n\
           below = { match = { regex = \"modes\", offset = [6, 2], width = 5 } }\n";
    let (out, cast) = record_scenario(&dir, "anchored", &toml, &[]);
    out.success();
    let screen = screen_at(&cast, "got");
    let got: Vec<&str> = screen.lines().skip(1).take(6).collect();
    // "modes" starts at column 8 of row 1: moved 6 rows down and 2 columns right, 5 wide.
    assert_eq!(
        got,
        [
            "mouse Down(Left) row=1 col=30",
            "mouse Up(Left) row=1 col=30",
            "mouse Down(Left) row=3 col=30",
            "mouse Up(Left) row=3 col=30",
            "mouse Down(Right) row=7 col=12",
            "mouse Up(Right) row=7 col=12",
        ],
        "{screen}"
    );
}

/// dialog answers the button clicked through a region anchored by content: `< No >` from the
/// cast's own `[regions]` (exit status 1), `< Yes >` from `tuicast.toml`'s, in a scenario with
/// no `[regions]` at all (exit status 0). A region that finds nothing fails the step at its
/// place, naming the region, what it looked for and why it found nothing.
#[test]
fn dialog_answers_the_button_clicked_through_an_anchored_region() {
    if !have("dialog") {
        assert!(
            std::env::var_os("CI").is_none(),
            "dialog is required under CI"
        );
        return;
    }
    let dir = Dir::new();
    let scenario = |click: &str, status: i32| {
        format!(
            "command = [\"dialog\", \"--yesno\", \"Delete the file?\", \"7\", \"40\"]\n\
             size = \"80x24\"\nsteps = [\n  {{ wait = \"Delete\" }},\n  {click},\n  \
             {{ exit = {status} }},\n]\n"
        )
    };
    let no = scenario("{ click = { region = \"no\" } }", 1)
        + "[regions]\nno = { match = { regex = \"< *No *>\" } }\n";
    dir.write("no.toml", no);
    dir.tuicast(["record", "no.toml"]).run().success();
    dir.write(
        "tuicast.toml",
        "[regions]\nyes = { match = { regex = \"< *Yes *>\" } }\n\
         cancel = { match = { regex = \"<Cancel>\" } }\n",
    );
    dir.write("yes.toml", scenario("{ click = { region = \"yes\" } }", 0));
    dir.tuicast(["record", "yes.toml"]).run().success();
    // The click reached dialog as mouse reports (a press and a release), no keys.
    assert!(inputs(&dir.join("yes.cast")).starts_with("\x1b["));

    dir.write(
        "cancel.toml",
        scenario(
            "{ click = { region = \"cancel\" }, timeout = \"300ms\" }",
            1,
        ),
    );
    let out = dir.tuicast(["record", "cancel.toml"]).run().fails_with(1);
    assert!(
        out.stderr().contains(
            "cancel.toml:5:3: timed out after 0.3s waiting for region cancel \
             (match = { regex = \"<Cancel>\" }) on the screen for a left click: \
             no text matches regex \"<Cancel>\""
        ),
        "{out}"
    );
    assert!(
        out.stderr().contains("< Yes >"),
        "the screen is shown: {out}"
    );
}

/// Mouse and paste steps the natural way: recorded into a cast beside its scenario, its
/// checkpoints written as goldens, then checked by replay and recorded again live, where the
/// same clicks, drag, wheel and paste give the same screens.
#[test]
fn mouse_and_paste_steps_check_against_goldens_by_replay_and_live() {
    let dir = Dir::new();
    let steps = r#"  { click = { text = "ready" } },
  { drag = { from = [4, 2], to = [6, 9] } },
  { scroll = "down", at = [3, 5] },
  { paste = "two words" },
  { wait = "paste" },
  { checkpoint = "after-input" },
  { press = "q" },
  { exit = 0 },"#;
    let toml = eventsapp_scenario(
        &["--mouse", "1002", "--encoding", "1006", "--paste"],
        "60x16",
        steps,
    );
    let (out, cast) = record_scenario(&dir, "casts/events", &toml, &[]);
    out.success();
    assert!(cast.exists());
    dir.tuicast(["test", "--update"]).run().success();
    let golden = fs::read_to_string(dir.join("snapshots/events/after-input.txt")).unwrap();
    for line in [
        "mouse Down(Left) row=1 col=",
        "mouse Drag(Left) row=6 col=9",
        "mouse ScrollDown row=3 col=5",
        "paste \"two words\" (9 bytes)",
    ] {
        assert!(golden.contains(line), "{line:?} in the golden:\n{golden}");
    }
    let replay = dir.tuicast(["test", "--replay"]).run().success();
    assert!(replay.stdout().contains("0 failed"), "{replay}");
    let live = dir.tuicast(["test", "--live"]).run().success();
    assert!(live.stdout().contains("0 failed"), "{live}");
    // A changed step changes the screen: the live run fails on it.
    let toml = fs::read_to_string(dir.join("casts/events.toml"))
        .unwrap()
        .replace("two words", "other words");
    fs::write(dir.join("casts/events.toml"), toml).unwrap();
    let failed = dir.tuicast(["test", "--live"]).run().fails_with(1);
    assert!(
        failed.stdout().contains("events::after-input ... FAILED"),
        "{failed}"
    );
}
