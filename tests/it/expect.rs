//! `[[check.expect]]` and regions anchored by content (issue 15 #1, #5), through the real
//! `tuicast test`: small casts written here and the bundled vim and dialog recordings; a pass,
//! and failures on text, on style and on a region that resolves to nothing, each message
//! checked.

use crate::util::{v3_cast, Dir};

/// A 20x5 screen: a name, a bold green mode line, a list between two rules; the checkpoint
/// `saved`; then the end, where a red `-- VISUAL --` replaced the mode line.
fn small_cast() -> String {
    v3_cast(
        20,
        5,
        &[
            r#"[0.1, "o", "Name: Alice\r\n\u001b[1;32m-- INSERT --\u001b[m\r\n---\r\none\r\n===\u001b[5;3H"]"#,
            r#"[0.1, "m", "saved"]"#,
            r#"[0.1, "o", "\u001b[2;1H\u001b[31m-- VISUAL --\u001b[m"]"#,
        ],
    )
}

const REGIONS: &str = "[regions]\n\
    mode = { row = { regex = \"-- [A-Z]+ --\" } }\n\
    name = { match = { regex = \"Name: \", offset = [0, 6], width = 5 } }\n\
    list = { between = { from = \"^---\", to = \"^===\" } }\n\
    last = { last_row = true }\n";

/// A project with the small cast and `toml` beside it, its goldens written.
fn project(toml: &str) -> Dir {
    let dir = Dir::new();
    dir.write("casts/app.cast", small_cast());
    dir.write("casts/app.toml", toml);
    dir.tuicast(["test", "--update"]).run();
    dir
}

#[test]
fn expectations_on_anchored_regions_pass_as_trials_of_their_own() {
    let toml = format!(
        "{REGIONS}\n\
         [[check.expect]]\nname = \"mode\"\nat = \"saved\"\nregion = \"mode\"\n\
         text = \"-- INSERT --\"\nfg = \"green\"\nbold = true\n\n\
         [[check.expect]]\nat = \"*\"\nregion = \"name\"\ntext = \"Alice\"\n\n\
         [[check.expect]]\nat = \"*\"\nregion = \"list\"\nmatches = \"^one$\"\n\n\
         [[check.expect]]\nat = \"end\"\nregion = \"last\"\ncontains = \"===\"\ncursor = [2, 13]\n\n\
         [[check.expect]]\nat = \"end\"\nrows = 2\nfg = 1\ntext = \"-- VISUAL --\"\n"
    );
    let dir = project(&toml);
    let out = dir.tuicast(["test"]).run();
    assert!(out.succeeded(), "{out}");
    let stdout = out.stdout();
    for name in [
        "app::saved ",
        "app::saved::mode ",
        "app::saved::2 ",
        "app::saved::3 ",
        "app::end ",
        "app::end::2 ",
        "app::end::3 ",
        "app::end::4 ",
        "app::end::5 ",
    ] {
        assert!(
            stdout.contains(&format!("test {name}... ok")),
            "{name}: {out}"
        );
    }
    assert!(
        !stdout.contains("app::end::mode"),
        "mode is checked at saved only: {out}"
    );
    assert!(stdout.contains("9 passed"), "{out}");

    // A filter selects expectations by their names.
    let out = dir.tuicast(["test", "--filter", "::mode"]).run().success();
    assert!(out.stdout().contains("1 passed"), "{out}");
}

#[test]
fn an_expectation_that_fails_on_text_says_what_it_found_and_shows_the_rows_around() {
    let toml = format!(
        "{REGIONS}\n[[check.expect]]\nat = \"*\"\nregion = \"mode\"\ntext = \"-- INSERT --\"\n"
    );
    let dir = project(&toml);
    let out = dir.tuicast(["test"]).run().fails_with(1);
    let stdout = out.stdout();
    assert!(stdout.contains("test app::saved::1 ... ok"), "{out}");
    assert!(stdout.contains("test app::end::1 ... FAILED"), "{out}");
    for line in [
        "expectation 1 (casts/app.toml:7) failed at checkpoint \"end\"\n",
        "  region \"mode\" (row = { regex = \"-- [A-Z]+ --\" }): row 2, columns 1-20\n",
        "  expected text \"-- INSERT --\"\n",
        "  found text \"-- VISUAL --\"\n",
        "    1 | Name: Alice\n",
        "  > 2 | -- VISUAL --\n",
        "    4 | one\n",
    ] {
        assert!(stdout.contains(line), "{line:?}: {out}");
    }
}

#[test]
fn an_expectation_that_fails_on_style_names_the_cell_and_its_style() {
    let toml = format!(
        "{REGIONS}\n[[check.expect]]\nname = \"green\"\nat = \"*\"\nregion = \"mode\"\n\
         fg = \"green\"\nbold = true\n"
    );
    let dir = project(&toml);
    let out = dir.tuicast(["test"]).run().fails_with(1);
    let stdout = out.stdout();
    assert!(stdout.contains("test app::saved::green ... ok"), "{out}");
    assert!(stdout.contains("test app::end::green ... FAILED"), "{out}");
    assert!(
        stdout.contains("  expected style fg 2 (green), bold\n"),
        "{out}"
    );
    assert!(
        stdout.contains("  found at row 2, column 1 (\"-\"): fg 1 (red), bg default\n"),
        "{out}"
    );
}

#[test]
fn a_region_that_resolves_to_nothing_fails_naming_the_region_and_what_it_looked_for() {
    let toml = "[regions]\nmode = { row = { regex = \"NORMAL\" } }\n\
                [[check.expect]]\nat = \"saved\"\nregion = \"mode\"\ncontains = \"NORMAL\"\n";
    let dir = project(toml);
    let out = dir.tuicast(["test"]).run().fails_with(1);
    assert!(
        out.stdout().contains(
            "  region \"mode\" (row = { regex = \"NORMAL\" }) resolves to nothing: \
             no row matches regex \"NORMAL\"\n"
        ),
        "{out}"
    );

    // An expectation at a checkpoint the cast lacks: the cast fails, listing its checkpoints.
    let dir = project("[[check.expect]]\nat = \"later\"\ncontains = \"x\"\n");
    let out = dir.tuicast(["test"]).run();
    assert!(!out.succeeded(), "{out}");
    assert!(
        out.stdout().contains(
            "casts/app.toml:1: expectation 1 has at = \"later\", a checkpoint the cast does not have (it has saved, end)"
        ),
        "{out}"
    );
    // A mistake in an expectation is the TOML's line and column.
    let dir = project("[[check.expect]]\nat = \"end\"\nregion = \"nope\"\ntext = \"x\"\n");
    let out = dir.tuicast(["test"]).run();
    assert!(
        out.stdout().contains(
            "app.toml:1:1: check.expect[0]: no region \"nope\" in [regions] (regions: none)"
        ),
        "{out}"
    );
}

#[test]
fn vims_mode_line_and_dialogs_box_in_real_recordings() {
    let dir = Dir::new();
    dir.copy_from_repo("casts/vim.cast", "casts/vim.cast");
    dir.copy_from_repo("casts/dialog.cast", "casts/dialog.cast");
    dir.write(
        "casts/vim.toml",
        "[regions]\nmode = { row = { regex = \"INSERT\" } }\n\
         [[check.expect]]\nname = \"mode\"\nat = \"insert\"\nregion = \"mode\"\n\
         text = \"-- INSERT --\"\nbold = true\n",
    );
    dir.write(
        "casts/dialog.toml",
        "[regions]\nfruit = { inside = { box = \"Fruit\" } }\n\
         [[check.expect]]\nname = \"question\"\nat = \"menu\"\nregion = \"fruit\"\n\
         contains = \"Pick a fruit:\"\n",
    );
    dir.tuicast(["test", "--update"]).run();
    let out = dir.tuicast(["test"]).run();
    assert!(out.succeeded(), "{out}");
    assert!(
        out.stdout().contains("test vim::insert::mode ... ok"),
        "{out}"
    );
    assert!(
        out.stdout().contains("test dialog::menu::question ... ok"),
        "{out}"
    );

    // At `number` vim has left insert mode: the mode line is gone, and so is the region.
    dir.write(
        "casts/vim.toml",
        "[regions]\nmode = { row = { regex = \"INSERT\" } }\n\
         [[check.expect]]\nname = \"mode\"\nat = \"number\"\nregion = \"mode\"\n\
         text = \"-- INSERT --\"\n",
    );
    dir.write(
        "casts/dialog.toml",
        "[regions]\nveg = { inside = { box = \"Vegetables\" } }\n\
         [[check.expect]]\nat = \"menu\"\nregion = \"veg\"\ncontains = \"Pick\"\n",
    );
    let out = dir.tuicast(["test"]).run().fails_with(1);
    let stdout = out.stdout();
    assert!(
        stdout.contains("test vim::number::mode ... FAILED"),
        "{out}"
    );
    assert!(
        stdout.contains("resolves to nothing: no row matches regex \"INSERT\""),
        "{out}"
    );
    assert!(stdout.contains("test dialog::menu::1 ... FAILED"), "{out}");
    assert!(
        stdout.contains(
            "  region \"veg\" (inside = { box = \"Vegetables\" }) resolves to nothing: \
             no box titled \"Vegetables\" (boxes: box(\"Fruit\"), box(1))"
        ),
        "{out}"
    );
}

/// Expectations on what the screen *is*: the window title, the prompt it shows, and the rows
/// of a table; each passes on the right screen, and each failure says what it found.
#[test]
fn expectations_on_the_title_the_prompt_and_a_table() {
    let cast = v3_cast(
        40,
        8,
        &[
            r#"[0.1, "o", "\u001b]2;deploy: step 2\u0007NAME   STATUS  AGE\r\nweb    Running 3d\r\ndb     Running 9d\r\ncache  Pending 1m\r\n\r\nRestart them all? [y/N] "]"#,
            r#"[0.1, "m", "asked"]"#,
        ],
    );
    let dir = Dir::new();
    dir.write("casts/ops.cast", &cast);
    let toml = |prompt: &str, rows: usize, title: &str| {
        format!(
            "[[check.expect]]\nname = \"question\"\nat = \"asked\"\nprompt = \"{prompt}\"\n\
             [[check.expect]]\nname = \"pods\"\nat = \"asked\"\ntable = {{ rows = {rows} }}\n\
             [[check.expect]]\nname = \"title\"\nat = \"asked\"\ntitle = \"{title}\"\n"
        )
    };
    dir.write("casts/ops.toml", toml("yesno", 3, "step 2"));
    dir.tuicast(["test", "--update"]).run().success();
    let run = dir.tuicast(["test"]).run().success();
    for t in [
        "ops::asked::question",
        "ops::asked::pods",
        "ops::asked::title",
    ] {
        assert!(run.stdout().contains(&format!("test {t} ... ok")), "{run}");
    }
    dir.write("casts/ops.toml", toml("password", 4, "step 3"));
    let out = dir.tuicast(["test"]).run().fails_with(1);
    for line in [
        "  expected a password prompt\n",
        "  found yesno (0.90): \"Restart them all? [y/N]\"\n",
        "  expected a table of 4 rows\n",
        "  found 3 rows at row 1 (header: NAME | STATUS | AGE)\n",
        "  expected a title containing \"step 3\"\n",
        "  found the title \"deploy: step 2\"\n",
    ] {
        assert!(out.stdout().contains(line), "{line:?}: {out}");
    }
    dir.write(
        "casts/ops.toml",
        "[[check.expect]]\nat = \"asked\"\nprompt = \"maybe\"\n",
    );
    let out = dir.tuicast(["test"]).run().fails_with(2);
    assert!(
        out.stdout()
            .contains("ops.toml:1:1: check.expect[0]: prompt = \"maybe\" is not a prompt kind"),
        "{out}"
    );
}

/// `[check] regions = ["mode"]`: each checkpoint's region golden `<checkpoint>.mode.txt` holds
/// just that region's text, written, reviewed and accepted like any golden, not an orphan; a
/// change inside the region fails it, a change elsewhere does not.
#[test]
fn region_goldens_check_just_their_region() {
    let toml = format!("{REGIONS}\n[check]\nformats = []\nregions = [\"mode\"]\n");
    let dir = project(&toml);
    let golden = dir.join("snapshots/app/saved.mode.txt");
    let text = std::fs::read_to_string(&golden).unwrap();
    assert!(text.ends_with("---\n-- INSERT --\n"), "{text}");
    assert!(text.contains("region: mode\n"), "{text}");
    assert!(
        std::fs::read_to_string(dir.join("snapshots/app/end.mode.txt"))
            .unwrap()
            .ends_with("---\n-- VISUAL --\n")
    );
    let run = dir.tuicast(["test", "--remove-orphans"]).run().success();
    assert!(!run.stdout().contains("orphan"), "{run}");
    // Outside the region: still passes.
    let cast = std::fs::read_to_string(dir.join("casts/app.cast")).unwrap();
    dir.write("casts/app.cast", cast.replace("Alice", "Bobby"));
    dir.tuicast(["test"]).run().success();
    // Inside it: the region golden fails, with the accept command.
    dir.write(
        "casts/app.cast",
        cast.replace("-- INSERT --", "-- REPLACE --"),
    );
    let out = dir.tuicast(["test"]).run().fails_with(1);
    assert!(out.stdout().contains("test app::saved ... FAILED"), "{out}");
    assert!(out.stdout().contains("app/saved.mode.txt"), "{out}");
    // (The end's mode line changed too: `-- VISUAL --` over the longer `-- REPLACE --`.)
    dir.tuicast(["accept", "app/saved.mode.txt", "app/end.mode.txt"])
        .run()
        .success();
    dir.tuicast(["test"]).run().success();
    // A region that finds nothing is a failure naming it.
    dir.write(
        "casts/app.cast",
        cast.replace("-- INSERT --", "insert")
            .replace("-- VISUAL --", "visual"),
    );
    let out = dir.tuicast(["test"]).run().fails_with(1);
    assert!(
        out.stdout()
            .contains("region \"mode\" (row = { regex = \"-- [A-Z]+ --\" }) resolves to nothing"),
        "{out}"
    );
    // An unknown region name is bad input at its place.
    dir.write(
        "casts/app.toml",
        format!("{REGIONS}\n[check]\nregions = [\"nope\"]\n"),
    );
    let out = dir.tuicast(["test"]).run().fails_with(2);
    assert!(
        out.stdout().contains("check.regions: no region \"nope\""),
        "{out}"
    );
}

/// `[regions]` in `tuicast.toml`: every cast has them. A cast with no `[regions]` of its own
/// checks an expectation and a region golden on them; a cast's own region of the same name
/// wins; a bad entry is bad input naming `tuicast.toml`, its line and column.
#[test]
fn regions_of_tuicast_toml_serve_every_cast_and_a_casts_own_region_wins() {
    let dir = Dir::new();
    dir.write("tuicast.toml", format!("formats = []\n\n{REGIONS}"));
    dir.write("casts/app.cast", small_cast());
    dir.write(
        "casts/app.toml",
        "[check]\nregions = [\"name\"]\n\n\
         [[check.expect]]\nname = \"mode\"\nat = \"saved\"\nregion = \"mode\"\n\
         text = \"-- INSERT --\"\nbold = true\n",
    );
    dir.tuicast(["test", "--update"]).run().success();
    let golden = dir.join("snapshots/app/saved.name.txt");
    let text = std::fs::read_to_string(&golden).unwrap();
    assert!(text.ends_with("---\nAlice\n"), "{text}");
    let out = dir.tuicast(["test"]).run().success();
    assert!(
        out.stdout().contains("test app::saved::mode ... ok"),
        "{out}"
    );
    assert!(out.stdout().contains("test app::saved ... ok"), "{out}");

    // The cast's own `mode` (the first row) wins over the project's.
    dir.write(
        "casts/app.toml",
        "[regions]\nmode = { rows = 1 }\n\n\
         [[check.expect]]\nname = \"mode\"\nat = \"saved\"\nregion = \"mode\"\n\
         text = \"-- INSERT --\"\n",
    );
    let out = dir.tuicast(["test"]).run().fails_with(1);
    let stdout = out.stdout();
    assert!(stdout.contains("test app::saved::mode ... FAILED"), "{out}");
    assert!(
        stdout.contains("  region \"mode\" (rows = \"1..=1\"): row 1, columns 1-20\n"),
        "{out}"
    );
    assert!(stdout.contains("  found text \"Name: Alice\"\n"), "{out}");

    // A bad entry: exit 2, with tuicast.toml's line and column, before any test runs.
    dir.write(
        "tuicast.toml",
        "formats = []\n\n[regions]\nmode = { rows = 2 }\nbroken = { between = { from = \"(\", to = \"x\" } }\n",
    );
    let out = dir.tuicast(["test"]).run().fails_with(2);
    assert!(
        out.stderr()
            .contains("tuicast.toml:5:10: regions.broken: regex \"(\" is not valid"),
        "{out}"
    );
    assert!(!out.stdout().contains("test app::"), "{out}");
    dir.write(
        "tuicast.toml",
        "[regions]\nmode = { row = { regex = \"x\" }, rows = 2 }\n",
    );
    let out = dir.tuicast(["test"]).run().fails_with(2);
    assert!(
        out.stderr().contains(
            "tuicast.toml:2:8: regions.mode: a region takes rows/cols/regex or exactly one of"
        ),
        "{out}"
    );
    // `tuicast record` reads the project's regions too: the same error, nothing recorded.
    dir.write("casts/new.toml", "shell = \"true\"\n");
    let out = dir
        .tuicast(["record", "casts/new.toml"])
        .run()
        .fails_with(2);
    assert!(
        out.stderr().contains("tuicast.toml:2:8: regions.mode:"),
        "{out}"
    );
    assert!(!dir.join("casts/new.cast").exists());
}
