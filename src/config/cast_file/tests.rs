//! The cast TOML's tests: every table and step, read and refused at its place.

use super::*;

fn parse(text: &str) -> Result<CastFile, ConfigError> {
    CastFile::parse(
        Path::new("casts/x.toml"),
        text,
        &crate::config::Regions::default(),
    )
}

fn error(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn title_bell_and_clipboard_waits_and_check_scrollback() {
    let f = parse(
        "shell = \"true\"\nsteps = [\n  { wait = { title = \"vim\" } },\n  { wait = { bell = true } },\n  \
         { wait = { clipboard = \"x\" }, timeout = \"1s\" },\n]\n[check]\nscrollback = 7\n",
    )
    .unwrap();
    let steps = &f.recording.as_ref().unwrap().steps;
    assert!(matches!(&steps[0].action, Action::Wait(Wait::Title(t)) if t == "vim"));
    assert!(matches!(&steps[1].action, Action::Wait(Wait::Bell)));
    assert!(matches!(&steps[2].action, Action::Wait(Wait::Clipboard(t)) if t == "x"));
    assert_eq!(steps[1].describe(), "wait for a bell");
    assert_eq!(f.scrollback, 7);
    assert_eq!(parse("[check]\nmask = []\n").unwrap().scrollback, 0);
    let e = error("shell = \"true\"\nsteps = [{ wait = { bell = true, title = \"x\" } }]\n");
    assert!(
        e.contains("casts/x.toml:2:10: a wait takes exactly one of"),
        "{e}"
    );
    assert!(e.contains("title, bell, command_done, clipboard"), "{e}");
    let e = error("[check]\nscrollback = 1001\n");
    assert!(
        e.starts_with("casts/x.toml:2:14: check.scrollback = 1001 is more than"),
        "{e}"
    );
}

#[test]
fn a_whole_file_becomes_a_scenario_masks_and_regions() {
    let f = parse(
        "shell = \"echo hi\"\nsize = \"40x10\"\ntimeout = \"2s\"\ncwd = \"sub\"\n\
         steps = [\n  { wait = \"hi\" },\n  { press = [\"C-c\"], timeout = \"1s\" },\n]\n\
         [check]\nformats = [\"styled.txt\"]\nmask = [{ rows = 1 }, { regex = \"\\\\d\" }]\n\
         [regions]\nstatus = { rows = \"10\", colour = \"#ff8800\" }\n",
    )
    .unwrap();
    let s = f.recording.as_ref().unwrap();
    assert_eq!(s.program, Program::Shell("echo hi".into()));
    // Relative to the file's folder, made absolute: the same from any working folder.
    assert_eq!(s.cwd, std::env::current_dir().unwrap().join("casts/sub"));
    assert_eq!(s.size, Some(Size { cols: 40, rows: 10 }));
    assert_eq!(s.timeout, Some(Duration::from_secs(2)));
    assert_eq!(s.steps.len(), 2);
    let origin = s.steps[1].origin.as_ref().unwrap();
    assert_eq!(origin.to_string(), "casts/x.toml:7:3");
    assert_eq!(s.steps[1].timeout, Some(Duration::from_secs(1)));
    assert!(matches!(&s.steps[1].action, Action::Press(k) if k == &["C-c"]));
    assert_eq!(f.formats, Some(vec![Format::Styled]));
    assert_eq!(f.masks.len(), 2);
    assert!(
        matches!(f.masks[0].anchor(), Anchor::Cells(c) if c.rows() == Some(&(0..1))),
        "{:?}",
        f.masks[0]
    );
    let status = &f.regions["status"];
    assert_eq!(
        status.label.as_deref(),
        Some("status"),
        "the name is the label"
    );
    assert_eq!(status.color.as_deref(), Some("#ff8800"));
    // Checks only: no recording.
    assert!(parse("[check]\nmask = []\n").unwrap().recording.is_none());
}

#[test]
fn rows_and_cols_are_numbers_or_strings_in_masks_and_regions_alike() {
    let f = parse(
        "[check]\nmask = [{ rows = 1 }, { rows = \"1\", cols = 4 }]\n\
         [regions]\nx = { rows = 1 }\ny = { rows = \"1\", cols = 4 }\n",
    )
    .unwrap();
    let screen = crate::term::test_screen(Size { cols: 8, rows: 2 }, "abcdefgh");
    for (mask, region) in f.masks.iter().zip(["x", "y"]) {
        let annotation = f.regions[region].build().unwrap();
        assert_eq!(mask.rects(&screen), annotation.regions(&screen));
        assert!(!annotation.regions(&screen).is_empty());
    }
    for bad in ["rows = -1", "rows = 2.5", "cols = true"] {
        for table in [
            format!("[check]\nmask = [{{ {bad} }}]\n"),
            format!("[regions]\nx = {{ {bad} }}\n"),
        ] {
            let e = error(&table);
            assert!(
                e.contains("a number like 3, or a range like \"2..5\""),
                "{table}: {e}"
            );
        }
    }
}

#[test]
fn mouse_paste_and_focus_steps_and_their_mistakes() {
    let f = parse(
        "shell = \"true\"\nsteps = [\n  { click = { text = \"OK\" } },\n  \
         { click = [2, 3], button = \"right\" },\n  { click = { region = \"menu\" } },\n  \
         { drag = { from = [1, 1], to = { regex = \"x+\" } }, button = \"middle\" },\n  \
         { scroll = \"down\", at = [5, 5] },\n  { scroll = \"up\", at = [1, 1], count = 3 },\n  { hover = { text = \"a\" } },\n  \
         { paste = \"p\" },\n  { focus = false },\n]\n[regions]\nmenu = { rows = \"2..4\", cols = 3 }\n",
    )
    .unwrap();
    let steps = &f.recording.unwrap().steps;
    let described: Vec<String> = steps.iter().map(Step::describe).collect();
    assert_eq!(
        described,
        [
            "click \"OK\"",
            "right-click row 2, column 3",
            "click region menu",
            "drag (middle button) from row 1, column 1 to /x+/",
            "scroll down at row 5, column 5",
            "scroll up 3 notches at row 1, column 1",
            "hover over \"a\"",
            "paste \"p\"",
            "focus out",
        ]
    );
    let Action::Click(Target::Region(_, Anchor::Cells(cells)), _) = &steps[2].action else {
        panic!("{:?}", steps[2].action)
    };
    assert_eq!((cells.rows(), cells.cols()), (Some(&(1..3)), Some(&(2..3))));
    for (step, expected) in [
        (
            "{ click = [0, 3] }",
            "casts/x.toml:2:10: [0, 3] has a 0: rows and columns count from 1",
        ),
        (
            "{ click = { region = \"nope\" } }",
            "no region \"nope\" in [regions] (regions: none)",
        ),
        (
            "{ click = [1, 1], button = \"left-ish\" }",
            "button must be \"left\", \"middle\" or \"right\"",
        ),
        (
            "{ press = \"a\", button = \"left\" }",
            "button goes with a click or drag step",
        ),
        (
            "{ scroll = \"sideways\", at = [1, 1] }",
            "scroll must be \"up\" or \"down\"",
        ),
        ("{ scroll = \"up\" }", "a scroll step needs at ="),
        (
            "{ hover = [1, 1], at = [1, 1] }",
            "at and count go with a scroll step",
        ),
        (
            "{ scroll = \"up\", at = [1, 1], count = 0 }",
            "count must be 1 to 1000 notches, not 0",
        ),
        (
            "{ click = { text = \"a\", regex = \"b\" } }",
            "exactly one of text, regex, region",
        ),
        (
            "{ drag = { from = [1, 1], to = [0, 1] } }",
            "drag to: [0, 1] has a 0",
        ),
        (
            "{ paste = \"a\", focus = true }",
            "a step takes exactly one of",
        ),
    ] {
        let e = error(&format!("shell = \"true\"\nsteps = [{step}]\n"));
        assert!(e.contains(expected), "{step}: {e}");
    }
}

#[test]
fn a_bad_mask_names_its_line_and_column() {
    let e =
        error("[check]\nformats = [\"txt\"]\nmask = [\n  { rows = 2 },\n  { regex = \"(\" },\n]\n");
    assert!(
        e.starts_with("casts/x.toml:5:3: check.mask[1]: regex \"(\" is not valid"),
        "{e}"
    );
    let e = error("[check]\nmask = [{ rows = \"6..3\" }]\n");
    assert!(
        e.starts_with("casts/x.toml:2:9: check.mask[0]: range \"6..3\""),
        "{e}"
    );
    let e = error("[check]\nmask = [{}]\n");
    assert!(
        e.starts_with("casts/x.toml:2:9: check.mask[0]: say which cells"),
        "{e}"
    );
}

#[test]
fn anchored_regions_and_expectations_read_and_their_mistakes_name_their_place() {
    let f = parse(
        "[regions]\nmode = { row = { regex = \"INSERT\" } }\n\
         name = { match = { regex = \"Name: \", offset = [0, 6], width = 5 } }\n\
         todos = { inside = { box = \"Todos\" } }\n\
         list = { between = { from = \"^---\", to = \"^===\" } }\n\
         last = { last_row = true }\nfixed = { rows = 2 }\n\
         \n[[check.expect]]\nat = \"*\"\nregion = \"mode\"\ntext = \"-- INSERT --\"\nfg = \"green\"\nbold = true\n\
         \n[[check.expect]]\nname = \"cursor\"\nat = \"end\"\ncursor = [5, 1]\nbg = 4\n",
    )
    .unwrap();
    assert_eq!(f.anchors.len(), 6);
    assert_eq!(f.anchors["mode"].describe(), "row = { regex = \"INSERT\" }");
    assert_eq!(
        f.anchors["name"].describe(),
        "match = { regex = \"Name: \", offset = [0, 6], width = 5 }"
    );
    assert!(matches!(f.anchors["last"], Anchor::LastRow));
    #[cfg(feature = "png")]
    {
        assert_eq!(f.regions.len(), 6, "every region has annotation keys");
        assert_eq!(f.regions["fixed"].rows.as_deref(), Some("2"));
        assert_eq!(f.regions["mode"].rows, None);
        assert_eq!(f.regions["mode"].label.as_deref(), Some("mode"));
    }
    assert_eq!(f.expects.len(), 2);
    let (a, b) = (&f.expects[0], &f.expects[1]);
    assert_eq!((a.id.as_str(), a.at.as_deref()), ("1", None));
    assert_eq!(a.place, "casts/x.toml:9");
    assert_eq!(a.style.fg, Some(crate::term::Color::Indexed(2)));
    assert_eq!(
        (b.id.as_str(), b.at.as_deref()),
        ("cursor", Some(&["end".to_string()][..]))
    );
    assert_eq!(
        (b.cursor, b.style.bg),
        (
            Some(crate::pos::Point::new(4, 0)),
            Some(crate::term::Color::Indexed(4))
        )
    );

    for (text, why) in [
        ("[regions]\nx = { row = { regex = \"(\" } }\n", "2:5: regions.x: regex \"(\" is not valid"),
        (
            "[regions]\nx = { rows = 1, last_row = true }\n",
            "2:5: regions.x: a region takes rows/cols/regex or exactly one of",
        ),
        ("[regions]\nx = { row = { text = \"a\" } }\n", "unknown field `text`"),
        ("[[check.expect]]\nat = \"end\"\n", "1:1: check.expect[0]: an expectation checks nothing"),
        ("[[check.expect]]\ntext = \"a\"\n", "check.expect[0]: an expectation needs at ="),
        (
            "[[check.expect]]\nat = \"end\"\nregion = \"nope\"\ntext = \"a\"\n",
            "check.expect[0]: no region \"nope\" in [regions] (regions: none)",
        ),
        (
            "[[check.expect]]\nat = \"end\"\ntext = \"a\"\ncontains = \"b\"\n",
            "at most one of text, contains, matches",
        ),
        ("[[check.expect]]\nat = \"end\"\nfg = \"mauve\"\n", "fg: colour \"mauve\" is not one"),
        ("[[check.expect]]\nat = \"end\"\nbg = 300\n", "bg = 300: a palette index is 0 to 255"),
        ("[[check.expect]]\nat = \"end\"\ncursor = [0, 1]\n", "has a 0"),
        (
            "[[check.expect]]\nname = \"a\"\nat = \"end\"\nbold = true\n[[check.expect]]\nname = \"a\"\nat = \"*\"\nbold = true\n",
            "check.expect[1]: name \"a\" is taken",
        ),
    ] {
        let e = error(text);
        assert!(e.contains(why), "{text}: {e}");
    }
}

#[test]
fn a_bad_region_names_its_line_and_column() {
    let e = error("shell = \"true\"\n\n[regions]\nok = { rows = 2 }\nmenu = { regex = \"(\" }\n");
    assert!(
        e.starts_with("casts/x.toml:5:8: regions.menu: annotation: regex \"(\" is not valid"),
        "{e}"
    );
    let e = error("[regions]\nbad = { rows = 2, color = \"red\" }\n");
    assert!(
        e.starts_with("casts/x.toml:2:7: regions.bad: annotation:"),
        "{e}"
    );
    let e = error("[regions]\nbad = { rows = 2, size = 3 }\n");
    assert!(e.starts_with("casts/x.toml:2:"), "{e}");
    assert!(e.contains("unknown field `size`"), "{e}");
}

#[test]
fn recording_mistakes_name_their_place() {
    for (text, expected) in [
        (
            "shell = \"true\"\nsize = \"80by24\"\n",
            "casts/x.toml:2:8: size: ",
        ),
        (
            "shell = \"true\"\ntimeout = \"5 parsecs\"\n",
            "casts/x.toml:2:11: timeout: ",
        ),
        (
            "command = [\"a\"]\nshell = \"b\"\n",
            "casts/x.toml:2:9: give one of bin, command or shell, not several",
        ),
        (
            "shell = \"true\"\nargs = [\"-v\"]\n",
            "casts/x.toml:2:8: args go with bin",
        ),
        (
            "command = [\"${TUICAST_SURELY_UNSET_VAR}/x\"]\n",
            "casts/x.toml:1:11: ${TUICAST_SURELY_UNSET_VAR} is not set",
        ),
        (
            "command = []\n",
            "casts/x.toml:1:11: a scenario needs bin = \"NAME\"",
        ),
        (
            "shell = \"true\"\nredact = [\"ok\", \"(\"]\n",
            "casts/x.toml:2:17: redact: ",
        ),
        (
            "shell = \"true\"\nsteps = [{ press = \"Hyper-x\" }]\n",
            "casts/x.toml:2:10: unknown key",
        ),
        (
            "shell = \"true\"\nsteps = [{ wait = { idle = \"1s\", gone = \"x\" } }]\n",
            "casts/x.toml:2:10: a wait takes exactly one",
        ),
        (
            "shell = \"true\"\nsteps = [{ exit = \"some\" }]\n",
            "casts/x.toml:2:10: exit must be",
        ),
        (
            "shell = \"true\"\nsteps = [{ timeout = \"1s\" }]\n",
            "casts/x.toml:2:10: a step needs one of",
        ),
    ] {
        let e = error(text);
        assert!(e.starts_with(expected), "{text}: {e}");
    }
    let f = parse("[check]\nmask = []\n").unwrap();
    assert!(f
        .scenario()
        .unwrap_err()
        .to_string()
        .starts_with("casts/x.toml: a scenario needs"));
}

#[test]
fn bin_names_the_packages_binary_and_paths_resolve_against_the_file() {
    let f = parse("bin = \"todoapp\"\nargs = [\"--demo\", \"$${HOME}\"]\n").unwrap();
    let here = std::env::current_dir().unwrap().join("casts");
    assert_eq!(
        f.recording.unwrap().program,
        Program::Bin {
            name: "todoapp".into(),
            args: vec!["--demo".into(), "${HOME}".into()],
            from: here.clone(),
        }
    );
    let f = parse("command = [\"../target/debug/app\", \"${HOME}\", \"$5\"]\n").unwrap();
    let home = std::env::var("HOME").unwrap();
    assert_eq!(
        f.recording.unwrap().program,
        Program::Argv(vec![
            here.join("../target/debug/app")
                .to_string_lossy()
                .into_owned(),
            home.clone(),
            "$5".into()
        ])
    );
    let f = parse("shell = \"true\"\nenv = { WHERE = \"${HOME}/x\" }\n").unwrap();
    assert_eq!(f.recording.unwrap().env["WHERE"], format!("{home}/x"));
}

#[test]
fn settle_is_a_scenario_key_and_a_snapshot_steps_key() {
    let f = parse(
        "shell = \"true\"\nsettle = \"150ms\"\nsteps = [\n  { snapshot = \"a\" },\n  \
         { snapshot = \"b\", settle = \"0ms\" },\n]\n",
    )
    .unwrap();
    let s = f.recording.unwrap();
    assert_eq!(s.settle, Some(Settle::Quiet(Duration::from_millis(150))));
    assert_eq!(s.steps[0].settle, None);
    assert_eq!(s.steps[1].settle, Some(Settle::Quiet(Duration::ZERO)));
    let e = error("shell = \"true\"\nsteps = [{ press = \"a\", settle = \"1s\" }]\n");
    assert!(
        e.starts_with("casts/x.toml:2:10: settle goes with a checkpoint step"),
        "{e}"
    );
    let e = error("shell = \"true\"\nsettle = \"soon\"\n");
    assert!(e.starts_with("casts/x.toml:2:10: settle: "), "{e}");
    assert!(e.contains("\"auto\", \"auto:50ms\", \"quiet:50ms\""), "{e}");
}

#[test]
fn settle_is_auto_or_quiet_with_a_period() {
    let rule = |text: &str| parse_settle(text).map_err(|e| e.to_string());
    assert_eq!(rule("auto"), Ok(Settle::DEFAULT));
    assert_eq!(
        rule("auto:200ms"),
        Ok(Settle::Auto(Duration::from_millis(200)))
    );
    assert_eq!(
        rule("quiet:50ms"),
        Ok(Settle::Quiet(Duration::from_millis(50)))
    );
    assert_eq!(rule("80ms"), Ok(Settle::Quiet(Duration::from_millis(80))));
    for rule in [Settle::DEFAULT, Settle::Quiet(Duration::from_millis(120))] {
        assert_eq!(parse_settle(&rule.to_string()), Ok(rule), "read back");
    }
    assert!(rule("auto:soon").unwrap_err().contains("not a duration"));
}

#[test]
fn a_checkpoint_step_is_also_written_snapshot() {
    for key in ["checkpoint", "snapshot"] {
        let f = parse(&format!(
            "shell = \"true\"\nsteps = [{{ {key} = \"here\" }}]\n"
        ))
        .unwrap();
        let steps = &f.recording.unwrap().steps;
        assert!(
            matches!(&steps[0].action, Action::Snapshot(n) if n == "here"),
            "{key}"
        );
    }
    let e = error("shell = \"true\"\nsteps = [{ checkpoint = \"a\", snapshot = \"b\" }]\n");
    assert!(e.contains("duplicate field"), "{e}");
}

#[test]
fn durations_parse() {
    assert_eq!(parse_duration("300ms"), Ok(Duration::from_millis(300)));
    assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
    assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
    assert_eq!(parse_duration("3"), Ok(Duration::from_secs(3)));
    assert!(parse_duration("5 parsecs")
        .unwrap_err()
        .message()
        .contains("unknown unit"));
    assert!(parse_duration("25h").is_err());
    assert!(parse_duration("-1s").is_err());
}

#[test]
fn a_changed_wait_takes_only_a_screen_hash() {
    // Any other string never equals a screen's hash: the wait would pass at once.
    let f = parse("shell = \"true\"\nsteps = [{ wait = { changed = \"3F9A0C1D2B4E5F60\" } }]\n")
        .unwrap();
    let steps = &f.recording.as_ref().unwrap().steps;
    assert!(matches!(&steps[0].action, Action::Wait(Wait::Changed(h)) if h == "3f9a0c1d2b4e5f60"));
    for bad in ["3f9a", "3f9a0c1d2b4e5f6z", "", "3f9a0c1d2b4e5f60a"] {
        let e = error(&format!(
            "shell = \"true\"\nsteps = [{{ wait = {{ changed = \"{bad}\" }} }}]\n"
        ));
        assert!(e.starts_with("casts/x.toml:2:10: wait changed = "), "{e}");
        assert!(e.contains("is not a screen hash: 16 hex digits"), "{e}");
    }
}

#[test]
fn an_empty_formats_list_is_refused_at_its_place() {
    let e = error("[check]\nformats = []\n");
    assert!(
        e.starts_with("casts/x.toml:2:11: check.formats = [] checks nothing here"),
        "{e}"
    );
    assert!(parse("[check]\nformats = [\"styled\"]\n").is_ok());
    // Region goldens or expectations check the cast instead: no whole-screen golden is then
    // a choice.
    assert!(
        parse("[regions]\nr = { rows = 1 }\n[check]\nformats = []\nregions = [\"r\"]\n").is_ok()
    );
    parse("[check]\nformats = []\n[[check.expect]]\nat = \"end\"\ncontains = \"x\"\n").unwrap();
}

#[test]
fn masks_know_where_they_are_declared() {
    let f = parse("[check]\nmask = [\n  { regex = \"\\\\d+\" },\n  { rows = 1 },\n]\n").unwrap();
    let places: Vec<_> = f.masks.iter().map(|m| m.place().unwrap()).collect();
    assert_eq!(places, ["casts/x.toml:3:3", "casts/x.toml:4:3"]);
}

/// Every key of a step, of a wait and of a mouse target, each in the form the writer writes:
/// read, then written back, each step is its text again. A key the schema reads but this list
/// does not use fails, and so does one written otherwise (or not at all).
const EVERY_STEP: &[&str] = &[
    r#"{ wait = "Ready" }"#,
    r#"{ wait = { regex = '(?m)^ *\$ *$' }, timeout = "30000ms" }"#,
    r#"{ wait = { idle = "300ms" } }"#,
    r#"{ wait = { ref = "@vim.mode[value=insert]" } }"#,
    r#"{ wait = { ref = "@vim.mode", gone = true } }"#,
    r#"{ wait = { gone = "Loading" } }"#,
    r#"{ wait = { cursor = [1, 5] } }"#,
    r#"{ wait = { echo = false } }"#,
    r#"{ wait = { title = "vim — x" } }"#,
    r#"{ wait = { bell = true } }"#,
    r#"{ wait = { command_done = true } }"#,
    r#"{ wait = { clipboard = "copied" } }"#,
    r#"{ wait = { prompt = "yesno" } }"#,
    r#"{ wait = { prompt = "any" } }"#,
    r#"{ wait = { silent = "250ms" } }"#,
    r#"{ wait = { changed = "00ff00ff00ff00ff" } }"#,
    r#"{ press = "Enter" }"#,
    r#"{ press = ["Esc", ":", "C-c"] }"#,
    r#"{ type = "a\tb\u001B[A'\"" }"#,
    r#"{ checkpoint = "saved", settle = "200ms" }"#,
    r#"{ checkpoint = "auto", settle = "auto:80ms" }"#,
    r#"{ secret = { env = "TOKEN" } }"#,
    r#"{ resize = "100x30" }"#,
    r#"{ exit = 3 }"#,
    r#"{ exit = "any", timeout = "5000ms" }"#,
    r#"{ sleep = "20ms" }"#,
    r#"{ click = { text = "OK" }, button = "right" }"#,
    r#"{ click = [3, 5] }"#,
    r#"{ click = { region = "ok" } }"#,
    r#"{ click = { ref = "@vim.mode" } }"#,
    r#"{ drag = { from = [1, 1], to = { regex = "x+" } }, button = "middle" }"#,
    r#"{ scroll = "down", at = { text = "list" }, count = 3 }"#,
    r#"{ scroll = "up", at = [10, 10] }"#,
    r#"{ hover = [6, 7] }"#,
    r#"{ paste = 'a "quoted" paste' }"#,
    r#"{ focus = false }"#,
];

/// Steps written in another form than the writer's, and how it writes them.
const OTHER_FORMS: &[(&str, &str)] = &[
    (r#"{ snapshot = "s" }"#, r#"{ checkpoint = "s" }"#),
    (
        r#"{ scroll = "up", at = [1, 2], count = 1 }"#,
        r#"{ scroll = "up", at = [1, 2] }"#,
    ),
    (r#"{ press = ["Up"] }"#, r#"{ press = "Up" }"#),
    (r#"{ wait = { text = "x" } }"#, r#"{ wait = "x" }"#),
    // Text with a line break: a multi-line string (as `toml` writes any string value).
    (
        r#"{ wait = "Ready \"now\"\n\\ é" }"#,
        r#"{ wait = '''
Ready "now"
\ é''' }"#,
    ),
    (
        r#"{ paste = "multi\nline \"quoted\"" }"#,
        r#"{ paste = """
multi
line "quoted"""" }"#,
    ),
];

#[test]
fn every_step_key_reads_back_from_what_is_written() {
    let steps = |texts: &[&str]| -> Vec<Step> {
        let file = format!(
            "shell = \"true\"\nsteps = [\n{}\n]\n[regions]\nok = {{ rows = 1, cols = \"1..3\" }}\n",
            texts.join(",\n")
        );
        let read = parse(&file).unwrap_or_else(|e| panic!("{e}\n{file}"));
        read.recording.unwrap().steps
    };
    let (other, canonical): (Vec<&str>, Vec<&str>) = OTHER_FORMS.iter().copied().unzip();
    let read = steps(EVERY_STEP).into_iter().chain(steps(&other));
    let wrong: Vec<String> = read
        .zip(EVERY_STEP.iter().chain(&canonical))
        .filter(|(step, text)| step_text(step) != **text)
        .map(|(step, text)| format!("{text}\n  written {}", step_text(&step)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every key the types read is used above: a new one needs a line there.
    let mut used: Vec<(&str, String)> = Vec::new();
    for text in EVERY_STEP.iter().chain(&other) {
        let value: toml::Value = toml::from_str(&format!("s = {text}")).unwrap();
        for (key, v) in value["s"].as_table().unwrap() {
            used.push(("step", key.clone()));
            let inner = match (key.as_str(), v) {
                ("drag", v) => vec![("drag", v), ("target", &v["from"]), ("target", &v["to"])],
                ("wait", v) => vec![("wait", v)],
                ("click" | "hover" | "at", v) => vec![("target", v)],
                _ => Vec::new(),
            };
            for (kind, v) in inner {
                for k in v.as_table().into_iter().flat_map(|t| t.keys()) {
                    used.push((kind, k.clone()));
                }
            }
        }
    }
    for (kind, keys) in [
        ("step", keys_of::<StepToml>()),
        ("wait", keys_of::<WaitTableToml>()),
        ("target", keys_of::<TargetTableToml>()),
        ("drag", keys_of::<DragToml>()),
    ] {
        assert!(keys.len() >= 2, "{kind}: {keys:?}");
        for key in keys {
            assert!(
                used.contains(&(kind, key.to_string())),
                "the {kind} key {key} is not in EVERY_STEP"
            );
        }
    }
    // The messages' lists are the types' keys.
    assert_eq!(
        step_keys(),
        "wait, press, type, checkpoint, snapshot, secret, resize, exit, sleep, click, drag, \
         scroll, hover, paste, focus"
    );
    for key in keys_of::<TargetTableToml>() {
        assert!(TARGET_FORMS.contains(&format!("{{ {key} = ")), "{key}");
    }
}
