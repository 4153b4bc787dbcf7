//! The cursor in goldens (issue 10 #2), through the real CLI: a hidden cursor has no position,
//! `[check] cursor = false` drops the line, a cursor inside a masked cell is masked.

use crate::util::Dir;

/// A scenario whose program moves the cursor on each recording: `n` counts the recordings
/// (a file beside the scenario, so the program runs in the folder itself: `in_place`), `print`
/// is a `printf` of the screen that may use `$n`.
fn scenario(print: &str, check: &str) -> String {
    format!(
        "in_place = true\n\
         shell = '''n=$(cat n 2>/dev/null || echo 1); echo $((n+1)) > n; {print}'''\n\
         size = \"20x5\"\n\
         steps = [{{ wait = \"hello\" }}, {{ snapshot = \"shown\" }}, {{ exit = 0 }}]\n\
         [check]\n{check}\n"
    )
}

/// Records `casts/NAME.toml` once, writes its goldens, records it again (the cursor
/// elsewhere) and checks: the second recording must pass. Then a live run, a third recording.
fn passes_when_the_cursor_moves(dir: &Dir, name: &str) -> String {
    dir.tuicast(["record", &format!("casts/{name}.toml")])
        .run()
        .success();
    dir.tuicast(["test", "--update"]).run().success();
    let golden = std::fs::read_to_string(dir.join(format!("snapshots/{name}/shown.txt"))).unwrap();
    dir.tuicast(["record", &format!("casts/{name}.toml")])
        .run()
        .success();
    let out = dir.tuicast(["test"]).run();
    assert!(out.succeeded(), "{name}: {out}\ngolden:\n{golden}");
    let out = dir.tuicast(["test", "--live"]).run();
    assert!(out.succeeded(), "{name}, live: {out}");
    assert!(!dir.join(format!("casts/{name}.cast.new")).exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("casts/n")).unwrap().trim(),
        "4",
        "three recordings"
    );
    golden
}

#[test]
fn a_hidden_cursor_that_moves_between_recordings_passes() {
    let dir = Dir::new();
    dir.write(
        "casts/hidden.toml",
        scenario(
            r"printf 'hello\033[?25l\033[%d;%dH' $((n+1)) $((n*3))",
            "formats = [\"txt\", \"styled.txt\"]",
        ),
    );
    let golden = passes_when_the_cursor_moves(&dir, "hidden");
    assert!(
        golden.contains("\ncursor: hidden\n---\nhello\n"),
        "{golden}"
    );

    // A golden written before hidden cursors lost their position still passes.
    let path = dir.join("snapshots/hidden/shown.styled.txt");
    let new = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, new.replace("cursor: hidden", "cursor: 24:80 hidden")).unwrap();
    let out = dir.tuicast(["test"]).run();
    assert!(out.succeeded(), "{out}");
    // A moved shown cursor still fails, with the field named.
    std::fs::write(&path, new.replace("cursor: hidden", "cursor: 2:3")).unwrap();
    let out = dir.tuicast(["test"]).run().fails_with(1);
    assert!(out.stdout().contains("cursor"), "{out}");
}

#[test]
fn cursor_false_drops_the_cursor_line() {
    let dir = Dir::new();
    dir.write(
        "casts/nocursor.toml",
        scenario(
            r"printf 'hello\033[%d;%dH' $((n+1)) $((n*3))",
            "cursor = false",
        ),
    );
    let golden = passes_when_the_cursor_moves(&dir, "nocursor");
    assert!(!golden.contains("cursor:"), "{golden}");
    assert!(golden.contains("\nsize: 20x5\n---\nhello\n"), "{golden}");
}

#[test]
fn a_cursor_inside_a_masked_cell_is_masked() {
    let dir = Dir::new();
    // A visible cursor that lands inside the masked number, at another cell each time.
    dir.write(
        "casts/masked.toml",
        scenario(
            r"printf 'hello %s\033[1;%dH' $((n*111)) $((n+6))",
            "mask = [{ regex = '\\d+' }]",
        ),
    );
    let golden = passes_when_the_cursor_moves(&dir, "masked");
    assert!(
        golden.contains("\ncursor: masked\n---\nhello ▒▒▒\n"),
        "{golden}"
    );
}
