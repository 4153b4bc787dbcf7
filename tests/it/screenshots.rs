//! `[[screenshot]]` tables of `tuicast.toml`: `tuicast screenshots` draws them, `tuicast test`
//! fails for a stale or missing one with its new image pending under the snapshots folder,
//! `accept` writes the declared output and `reject` drops it; hostile outputs are refused.

use crate::util::{v3_cast, Dir};

/// A project with one cast (`hello` at the end) and a PNG and an SVG screenshot of it.
fn project() -> Dir {
    let dir = Dir::new();
    dir.write(
        "casts/hello.cast",
        v3_cast(
            20,
            4,
            &[
                "[0.1, \"o\", \"hello\"]",
                "[0.1, \"m\", \"greeted\"]",
                "[0.1, \"o\", \" world\"]",
            ],
        ),
    );
    dir.write(
        "tuicast.toml",
        "[[screenshot]]\ncast = \"casts/hello.cast\"\ncheckpoint = \"greeted\"\nchrome = true\n\
         output = \"docs/shots/hello.png\"\n\n\
         [[screenshot]]\ncast = \"casts/hello.cast\"\noutput = \"docs/shots/hello.svg\"\n",
    );
    // The casts' goldens (a filter leaves the screenshots out).
    dir.tuicast(["test", "--update", "-k", "hello::"])
        .run()
        .success();
    dir
}

#[test]
fn screenshots_are_drawn_checked_and_reviewed() {
    let dir = project();
    // Missing: a failure with its fix, never skipped.
    let missing = dir.tuicast(["test"]).run().fails_with(1);
    assert!(
        missing
            .stdout()
            .contains("test screenshot:docs/shots/hello.png ... FAILED"),
        "{missing}"
    );
    assert!(
        missing
            .stdout()
            .contains("screenshot docs/shots/hello.png is missing"),
        "{missing}"
    );
    assert!(
        missing
            .stdout()
            .contains("regenerate it with: tuicast screenshots docs/shots/hello.png"),
        "{missing}"
    );
    assert!(missing.stdout().contains("2 passed, 2 failed"), "{missing}");
    // The pending images wait under the snapshots folder; nothing is written outside it.
    assert!(!dir.join("docs").exists());
    assert!(dir
        .join("snapshots/.screenshots/docs/shots/hello.png.new")
        .is_file());
    dir.tuicast(["reject", "screenshot:"]).run().success();
    assert!(!dir
        .join("snapshots/.screenshots/docs/shots/hello.png.new")
        .exists());

    let check = dir.tuicast(["screenshots", "--check"]).run().fails_with(1);
    assert!(
        check.stdout().contains("stale docs/shots/hello.png (new)"),
        "{check}"
    );
    assert!(!dir.join("docs").exists(), "--check writes nothing");
    let wrote = dir.tuicast(["screenshots"]).run().success();
    assert!(
        wrote.stdout().contains("wrote docs/shots/hello.png (new)"),
        "{wrote}"
    );
    assert!(
        wrote.stdout().contains("wrote docs/shots/hello.svg (new)"),
        "{wrote}"
    );
    let png = std::fs::read(dir.join("docs/shots/hello.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let svg = std::fs::read_to_string(dir.join("docs/shots/hello.svg")).unwrap();
    assert!(svg.contains("world"), "the SVG is the last screen");
    let again = dir.tuicast(["screenshots"]).run().success();
    assert!(
        again.stdout().contains("unchanged docs/shots/hello.png"),
        "{again}"
    );
    dir.tuicast(["screenshots", "--check"]).run().success();
    let listed = dir.tuicast(["test", "--list"]).run().success();
    assert!(
        listed
            .stdout()
            .contains("screenshot:docs/shots/hello.svg: test\n\n4 tests"),
        "{listed}"
    );
    let ok = dir.tuicast(["test"]).run().success();
    assert!(ok.stdout().contains("4 passed, 0 failed"), "{ok}");
    // Only some: by a part of the output's name; a name that matches none is an error.
    let one = dir.tuicast(["screenshots", "svg"]).run().success();
    assert!(!one.stdout().contains("hello.png"), "{one}");
    let none = dir.tuicast(["screenshots", "nope"]).run().fails_with(2);
    assert!(
        none.stderr()
            .contains("the screenshots are: docs/shots/hello.png, docs/shots/hello.svg"),
        "{none}"
    );

    // The cast changes: the PNG is stale (by its pixels), the test fails with its new image.
    dir.write(
        "casts/hello.cast",
        v3_cast(
            20,
            4,
            &[
                "[0.1, \"o\", \"HELLO\"]",
                "[0.1, \"m\", \"greeted\"]",
                "[0.1, \"o\", \" world\"]",
            ],
        ),
    );
    dir.tuicast(["test", "--update", "-k", "hello::"])
        .run()
        .success();
    let stale = dir.tuicast(["test"]).run().fails_with(1);
    assert!(
        stale
            .stdout()
            .contains("screenshot docs/shots/hello.png is stale: the committed PNG"),
        "{stale}"
    );
    assert!(stale.stdout().contains("pixel(s) differ"), "{stale}");
    assert!(
        stale
            .stdout()
            .contains("the committed SVG is not what casts/hello.cast draws now"),
        "{stale}"
    );
    assert!(
        stale
            .stdout()
            .contains("tuicast accept screenshot:docs/shots/hello.png"),
        "{stale}"
    );
    assert_eq!(
        std::fs::read(dir.join("docs/shots/hello.png")).unwrap(),
        png,
        "the output is left"
    );
    let pending = dir.tuicast(["pending"]).run().success();
    assert!(
        pending
            .stdout()
            .contains("changed\tscreenshot:docs/shots/hello.png\t"),
        "{pending}"
    );
    dir.tuicast(["accept", "hello.png"]).run().success();
    assert_ne!(
        std::fs::read(dir.join("docs/shots/hello.png")).unwrap(),
        png,
        "accepted"
    );
    assert!(!dir
        .join("snapshots/.screenshots/docs/shots/hello.png.new")
        .exists());
    dir.tuicast(["reject", "hello.svg"]).run().success();
    assert!(!dir
        .join("snapshots/.screenshots/docs/shots/hello.svg.new")
        .exists());
    let svg_stale = dir
        .tuicast(["test", "--filter", "screenshot:"])
        .run()
        .fails_with(1);
    assert!(
        svg_stale.stdout().contains("1 passed, 1 failed"),
        "{svg_stale}"
    );
    // --update writes the declared output.
    dir.tuicast(["test", "--update"]).run().success();
    dir.tuicast(["test"]).run().success();
    dir.tuicast(["screenshots", "--check"]).run().success();
}

#[test]
fn hostile_outputs_are_refused() {
    let outside = Dir::new();
    for (output, needle) in [
        ("../x.png", "without `..`"),
        ("/tmp/x.png", "relative path"),
        ("docs/x.sh", ".png, .svg or .gif"),
        ("linked/x.png", "outside the project"),
    ] {
        let dir = project();
        std::os::unix::fs::symlink(outside.path(), dir.join("linked")).unwrap();
        dir.write(
            "tuicast.toml",
            format!("[[screenshot]]\ncast = \"casts/hello.cast\"\noutput = \"{output}\"\n"),
        );
        for args in [&["screenshots"][..], &["test"][..]] {
            let run = dir.tuicast(args).run().fails_with(2);
            assert!(
                run.stderr()
                    .contains("tuicast.toml:3:10: screenshot.output"),
                "{output}: {run}"
            );
            assert!(run.stderr().contains(needle), "{output}: {run}");
        }
        assert!(std::fs::read_dir(outside.path()).unwrap().next().is_none());
    }
    // A pending image is never accepted onto a symbolic link.
    let dir = project();
    dir.tuicast(["test"]).run().fails_with(1);
    std::fs::create_dir_all(dir.join("docs/shots")).unwrap();
    std::os::unix::fs::symlink(outside.join("y.png"), dir.join("docs/shots/hello.png")).unwrap();
    dir.tuicast(["accept"]).run();
    assert!(!outside.join("y.png").exists());
    let refused = dir.tuicast(["screenshots"]).run().fails_with(2);
    assert!(refused.stderr().contains("symbolic link"), "{refused}");
    assert!(!outside.join("y.png").exists());
}
