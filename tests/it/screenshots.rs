//! `[[screenshot]]` tables of `tuicast.toml`: `tuicast screenshots` draws them, `tuicast test`
//! fails for a stale or missing one with its new image pending under the snapshots folder,
//! `accept` writes the declared output and `reject` drops it; hostile outputs are refused.

use crate::util::{v3_cast, Dir};

/// The report's data files, parsed.
fn report_data(rep: &std::path::Path) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(rep.join("data")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("r-") {
            out.push(serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap());
        }
    }
    out
}

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
        ("docs/x.sh", ".png, .svg, .gif or .apng"),
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
    // Said, not skipped: the command fails with what to do.
    let accept = dir.tuicast(["accept"]).run().fails_with(2);
    assert!(
        accept.stderr().contains(
            "error: screenshot:docs/shots/hello.png: cannot be accepted: refusing to write"
        ) && accept.stderr().contains("it is a symbolic link"),
        "{accept}"
    );
    assert!(!outside.join("y.png").exists());
    let refused = dir.tuicast(["screenshots"]).run().fails_with(2);
    assert!(refused.stderr().contains("symbolic link"), "{refused}");
    assert!(!outside.join("y.png").exists());
}

/// The cast of `project` changed: its screenshots are stale (the casts' own goldens updated).
fn changed(dir: &Dir) {
    dir.write(
        "casts/hello.cast",
        v3_cast(
            20,
            4,
            &[
                "[0.1, \"o\", \"HELLO\"]",
                "[0.1, \"m\", \"greeted\"]",
                "[0.1, \"o\", \" WORLD\"]",
            ],
        ),
    );
    dir.tuicast(["test", "--update", "-k", "hello::"])
        .run()
        .success();
}

#[test]
fn a_ci_report_shows_stale_screenshots_and_accept_from_applies_them() {
    let dir = project();
    dir.tuicast(["screenshots"]).run().success();
    let (png, svg) = (
        std::fs::read(dir.join("docs/shots/hello.png")).unwrap(),
        std::fs::read(dir.join("docs/shots/hello.svg")).unwrap(),
    );
    changed(&dir);
    // As CI runs it: nothing written but the report.
    let rep = dir.join("rep");
    let ci = dir
        .tuicast(["test", "--report", "rep"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    assert!(ci.stdout().contains("2 passed, 2 failed"), "{ci}");
    assert!(
        !dir.join("snapshots/.screenshots").exists(),
        "CI writes no .new"
    );
    let data = report_data(&rep);
    let shots: Vec<&serde_json::Value> = data
        .iter()
        .flat_map(|c| c["results"].as_array().unwrap())
        .filter(|r| !r["screenshot"].is_null())
        .collect();
    assert_eq!(shots.len(), 2, "{data:?}");
    for r in &shots {
        let shot = &r["screenshot"];
        let output = shot["output"].as_str().unwrap();
        assert_eq!(r["test"], format!("screenshot:{output}"));
        let committed = std::fs::read(
            rep.join("files")
                .join(shot["images"]["expected"].as_str().unwrap()),
        )
        .unwrap();
        let drawn = std::fs::read(
            rep.join("files")
                .join(shot["images"]["actual"].as_str().unwrap()),
        )
        .unwrap();
        assert_eq!(
            committed,
            std::fs::read(dir.join(output)).unwrap(),
            "{output}"
        );
        assert_ne!(committed, drawn, "{output}");
    }
    let page = std::fs::read_to_string(rep.join("index.html")).unwrap();
    for output in ["docs/shots/hello.png", "docs/shots/hello.svg"] {
        let at = page
            .find(&format!(
                "<div class=\"snap\" data-screenshot=\"{output}\"><h3>stale: {output}</h3>"
            ))
            .unwrap_or_else(|| panic!("{output} in {page}"));
        let figures = &page[at..page[at..].find("</section>").unwrap() + at];
        assert!(
            figures.contains("<figcaption>committed</figcaption><img src=\"files/"),
            "{figures}"
        );
        assert!(
            figures.contains("<figcaption>drawn now</figcaption><img src=\"files/"),
            "{figures}"
        );
    }
    assert!(
        page.contains(
            "a [[screenshot]] of tuicast.toml: checkpoint <b>greeted</b> of casts/hello.cast"
        ),
        "{page}"
    );

    // A local image changed since the report: refused whole, exit 1, nothing written.
    dir.write("docs/shots/hello.svg", "<svg></svg>");
    let stale = dir.tuicast(["accept", "--from", "rep"]).run().fails_with(1);
    assert!(
        stale
            .stderr()
            .contains("docs/shots/hello.svg (the image changed since)"),
        "{stale}"
    );
    assert_eq!(
        std::fs::read(dir.join("docs/shots/hello.png")).unwrap(),
        png
    );
    // Only the PNG, by a filter: the SVG's change is not taken, so not checked against it.
    let one = dir
        .tuicast(["accept", "--from", "rep", "hello.png"])
        .run()
        .success();
    assert_eq!(
        one.stdout(),
        "accepted screenshot:docs/shots/hello.png (changed)\n",
        "{one}"
    );
    assert_ne!(
        std::fs::read(dir.join("docs/shots/hello.png")).unwrap(),
        png
    );
    std::fs::write(dir.join("docs/shots/hello.svg"), &svg).unwrap();
    let all = dir.tuicast(["accept", "--from", "rep"]).run().success();
    assert!(
        all.stdout()
            .contains("accepted screenshot:docs/shots/hello.svg (changed)"),
        "{all}"
    );
    dir.tuicast(["test"]).run().success();
    dir.tuicast(["screenshots", "--check"]).run().success();
}

#[test]
fn a_report_that_lies_about_a_screenshot_is_refused_whole() {
    let dir = project();
    dir.tuicast(["screenshots"]).run().success();
    changed(&dir);
    dir.tuicast(["test", "--report", "rep"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    let rep = dir.join("rep");
    let original: Vec<(std::path::PathBuf, Vec<u8>)> = std::fs::read_dir(rep.join("data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect();
    let restore = || {
        for (p, b) in &original {
            std::fs::write(p, b).unwrap();
        }
    };
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        for (p, b) in &original {
            let mut v: serde_json::Value = serde_json::from_slice(b).unwrap();
            for r in v["results"].as_array_mut().unwrap() {
                if !r["screenshot"].is_null() {
                    f(r);
                }
            }
            std::fs::write(p, serde_json::to_vec(&v).unwrap()).unwrap();
        }
    };
    let before = dir.files();
    // An output no [[screenshot]] declares (a file the report would like written).
    edit(&|r| {
        r["screenshot"]["output"] = "src/main.rs".into();
        r["test"] = "screenshot:src/main.rs".into();
    });
    let run = dir.tuicast(["accept", "--from", "rep"]).run().fails_with(2);
    assert!(run.stderr().contains("screenshot:src/main.rs: no [[screenshot]] of this checkout's tuicast.toml has this output"), "{run}");
    // An SVG that runs a script, or links out.
    restore();
    let svg_file = |r: &serde_json::Value| {
        r["screenshot"]["images"]["actual"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut svg = None;
    for (_, b) in &original {
        let v: serde_json::Value = serde_json::from_slice(b).unwrap();
        for r in v["results"].as_array().unwrap() {
            if r["screenshot"]["format"] == "svg" {
                svg = Some(svg_file(r));
            }
        }
    }
    let svg = rep.join("files").join(svg.unwrap());
    let drawn = std::fs::read_to_string(&svg).unwrap();
    for (evil, needle) in [
        (
            drawn.replace("</svg>", "<script>alert(1)</script></svg>"),
            "holds a <script>",
        ),
        (
            drawn.replace("<svg ", "<svg onload =\"alert(1)\" "),
            "holds the attribute onload=",
        ),
        (
            drawn.replace("</svg>", "<a href=\"https://example.com\">x</a></svg>"),
            "holds a <a> element",
        ),
        (
            drawn.replacen("<rect ", "<rect fill=\"url(https://example.com/x)\" ", 1),
            "a link out of the picture",
        ),
        ("GIF89a".to_string(), "is not an SVG"),
    ] {
        std::fs::write(&svg, &evil).unwrap();
        let run = dir.tuicast(["accept", "--from", "rep"]).run().fails_with(2);
        assert!(
            run.stderr().contains(
                "refused the whole report, nothing was written: screenshot:docs/shots/hello.svg"
            ),
            "{run}"
        );
        assert!(run.stderr().contains(needle), "{needle}: {run}");
    }
    std::fs::write(&svg, &drawn).unwrap();
    // A PNG that is no picture.
    edit(&|r| {
        if r["screenshot"]["format"] == "png" {
            r["screenshot"]["format"] = "gif".into();
        }
    });
    let run = dir.tuicast(["accept", "--from", "rep"]).run().fails_with(2);
    assert!(
        run.stderr()
            .contains("its format or name is not the one tuicast.toml declares"),
        "{run}"
    );
    assert_eq!(dir.files(), before, "nothing was written");
    restore();
    dir.tuicast(["accept", "--from", "rep"]).run().success();
}

#[test]
fn a_screenshot_of_a_scenario_not_recorded_yet_records_it() {
    let dir = Dir::new();
    dir.write(
        "casts/greet.toml",
        "command = [\"sh\", \"-c\", \"printf 'hello from a scenario'; read x\"]\nsize = \"30x3\"\n\
         steps = [{ wait = \"scenario\" }, { checkpoint = \"greeted\" }, { press = \"Enter\" }, { exit = 0 }]\n",
    );
    dir.write(
        "tuicast.toml",
        "[[screenshot]]\ncast = \"casts/greet.cast\"\ncheckpoint = \"greeted\"\noutput = \"docs/greet.svg\"\n\n\
         [[screenshot]]\ncast = \"casts/greet.cast\"\noutput = \"docs/greet.gif\"\n",
    );
    let wrote = dir.tuicast(["screenshots", "svg"]).run().success();
    assert!(
        wrote.stdout().contains("wrote docs/greet.svg (new)"),
        "{wrote}"
    );
    let svg = std::fs::read_to_string(dir.join("docs/greet.svg")).unwrap();
    assert!(svg.contains("hello"), "{svg}");
    assert!(
        !dir.join("casts/greet.cast").exists(),
        "the cast is written by tuicast record only"
    );
    // Recorded again, it draws the same: the screenshot's trial passes (the scenario's own
    // checkpoint still fails, whatever the filter, until its cast is recorded).
    let ok = dir
        .tuicast(["test", "--filter", "screenshot:docs/greet.svg"])
        .run()
        .fails_with(2);
    assert!(
        ok.stdout()
            .contains("test screenshot:docs/greet.svg ... ok")
            && ok
                .stdout()
                .contains("record it with `tuicast record casts/greet.toml`"),
        "{ok}"
    );
    // Live, the scenario records: only the screenshot is selected.
    let live = dir
        .tuicast(["test", "--live", "--filter", "greet.svg"])
        .run()
        .success();
    assert!(
        live.stdout()
            .contains("test screenshot:docs/greet.svg ... ok")
            && live.stdout().contains("1 passed, 0 failed"),
        "{live}"
    );
    // A GIF needs a recorded cast; --replay records nothing: each says what to do.
    let gif = dir.tuicast(["screenshots", "gif"]).run().fails_with(2);
    assert!(
        gif.stderr()
            .contains("an animation (gif) is drawn from a recorded cast")
            && gif.stderr().contains("record it with: tuicast record"),
        "{gif}"
    );
    let replay = dir
        .tuicast(["test", "--replay", "--filter", "screenshot:docs/greet.svg"])
        .run()
        .fails_with(2);
    assert!(
        replay
            .stdout()
            .contains("--replay (TUICAST_LIVE=0) records nothing: record it with: tuicast record"),
        "{replay}"
    );
    // `tuicast screenshots` under TUICAST_LIVE=0 records nothing either.
    let replay = dir
        .tuicast(["screenshots", "svg"])
        .env("TUICAST_LIVE", "0")
        .run()
        .fails_with(2);
    assert!(
        replay
            .stderr()
            .contains("--replay (TUICAST_LIVE=0) records nothing: record it with: tuicast record"),
        "{replay}"
    );
    assert_eq!(
        dir.files(),
        ["casts/greet.toml", "docs/greet.svg", "tuicast.toml"]
            .map(String::from)
            .to_vec(),
        "no recording left behind"
    );
}

#[test]
fn naming_a_cast_runs_the_screenshots_drawn_from_it() {
    let dir = project();
    dir.write(
        "casts/other.cast",
        v3_cast(10, 2, &["[0.1, \"o\", \"other\"]"]),
    );
    dir.tuicast(["test", "--update"]).run().success();
    let one = dir.tuicast(["test", "casts/hello.cast"]).run().success();
    assert!(
        one.stdout()
            .contains("test screenshot:docs/shots/hello.png ... ok"),
        "{one}"
    );
    let other = dir.tuicast(["test", "casts/other.cast"]).run().success();
    assert!(!other.stdout().contains("screenshot:"), "{other}");
}

/// Issue 46 point 3: an APNG and an animated SVG as `[[screenshot]]` outputs: written by
/// `tuicast screenshots`, stale when the cast changes, shown in the CI report as images
/// (which a browser plays), accepted from it with the checks of stills: an animated SVG
/// whose stylesheet links out and an APNG that is a still PNG are refused.
#[test]
fn animated_screenshots_are_checked_reported_and_accepted() {
    let dir = Dir::new();
    dir.write(
        "casts/hello.cast",
        v3_cast(
            20,
            4,
            &["[0.1, \"o\", \"hello\"]", "[0.5, \"o\", \" world\"]"],
        ),
    );
    dir.write(
        "tuicast.toml",
        "[[screenshot]]\ncast = \"casts/hello.cast\"\noutput = \"docs/hello.png\"\nformat = \"apng\"\n\n\
         [[screenshot]]\ncast = \"casts/hello.cast\"\noutput = \"docs/hello.svg\"\n\
         format = \"animated-svg\"\nchrome = true\n",
    );
    dir.tuicast(["test", "--update", "-k", "hello::"])
        .run()
        .success();
    let wrote = dir.tuicast(["screenshots"]).run().success();
    assert!(
        wrote.stdout().contains("wrote docs/hello.png (new)"),
        "{wrote}"
    );
    let svg = std::fs::read_to_string(dir.join("docs/hello.svg")).unwrap();
    assert!(
        svg.contains("@keyframes k1{") && svg.contains(">hello<"),
        "{svg}"
    );
    let apng = std::fs::read(dir.join("docs/hello.png")).unwrap();
    assert!(apng.windows(4).any(|w| w == b"acTL"), "an animated PNG");
    dir.tuicast(["test"]).run().success();
    // The cast changes: both are stale; CI writes the report only.
    dir.write(
        "casts/hello.cast",
        v3_cast(
            20,
            4,
            &["[0.1, \"o\", \"HELLO\"]", "[0.5, \"o\", \" WORLD\"]"],
        ),
    );
    dir.tuicast(["test", "--update", "-k", "hello::"])
        .run()
        .success();
    let ci = dir
        .tuicast(["test", "--report", "rep"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    assert!(
        ci.stdout()
            .contains("screenshot docs/hello.svg is stale: the committed ANIMATED-SVG")
            && ci
                .stdout()
                .contains("screenshot docs/hello.png is stale: the committed APNG"),
        "{ci}"
    );
    let rep = dir.join("rep");
    let page = std::fs::read_to_string(rep.join("index.html")).unwrap();
    let mut files = Vec::new();
    for r in report_data(&rep)
        .iter()
        .flat_map(|c| c["results"].as_array().unwrap().clone())
        .filter(|r| !r["screenshot"].is_null())
    {
        let actual = r["screenshot"]["images"]["actual"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            page.contains(&format!("<img src=\"files/{actual}\"")),
            "{page}"
        );
        files.push((
            r["screenshot"]["format"].as_str().unwrap().to_string(),
            actual,
        ));
    }
    files.sort();
    assert_eq!(files.len(), 2);
    assert!(
        files[0].0 == "animated-svg" && files[0].1.ends_with("-actual.svg"),
        "{files:?}"
    );
    assert!(
        files[1].0 == "apng" && files[1].1.ends_with("-actual.png"),
        "{files:?}"
    );
    let (svg_file, png_file) = (
        rep.join("files").join(&files[0].1),
        rep.join("files").join(&files[1].1),
    );
    let (drawn_svg, drawn_png) = (
        std::fs::read_to_string(&svg_file).unwrap(),
        std::fs::read(&png_file).unwrap(),
    );
    // The report's page, in Chromium under its Content-Security-Policy: both animations load
    // as images at their size (an image plays its CSS animation and its APNG frames).
    if let Some(browser) = crate::webdriver::Browser::start() {
        browser.open(&format!("file://{}", rep.join("index.html").display()));
        let sizes = browser.eval(&format!(
            "return ['{}', '{}'].map(f => {{ const i = document.querySelector(`img[src=\"files/${{f}}\"]`); \
             return i && i.complete ? [i.naturalWidth, i.naturalHeight] : null; }});",
            files[0].1, files[1].1
        ));
        let (svg_w, png_w) = (sizes[0][0].as_u64(), sizes[1][0].as_u64());
        assert!(svg_w > Some(200) && png_w > Some(200), "{sizes}");
    }
    // Hostile images in the report: refused whole, nothing written.
    let before = dir.files();
    for (evil, needle) in [
        (
            drawn_svg.replacen(".f{", ".f{background:url(https://example.com/x);", 1),
            "a stylesheet with",
        ),
        (
            drawn_svg.replacen("<style>", "<style>@import x;", 1),
            "at-rule",
        ),
    ] {
        std::fs::write(&svg_file, &evil).unwrap();
        let run = dir.tuicast(["accept", "--from", "rep"]).run().fails_with(2);
        assert!(run.stderr().contains(needle), "{needle}: {run}");
        assert_eq!(dir.files(), before, "nothing was written");
    }
    std::fs::write(&svg_file, &drawn_svg).unwrap();
    let still = dir.join("still.png");
    dir.tuicast([
        "replay",
        "casts/hello.cast",
        "--format",
        "png",
        "-o",
        still.to_str().unwrap(),
    ])
    .run()
    .success();
    std::fs::copy(&still, &png_file).unwrap();
    std::fs::remove_file(&still).unwrap();
    let run = dir.tuicast(["accept", "--from", "rep"]).run().fails_with(2);
    assert!(run.stderr().contains("not an animated one"), "{run}");
    std::fs::write(&png_file, &drawn_png).unwrap();
    let all = dir.tuicast(["accept", "--from", "rep"]).run().success();
    assert!(
        all.stdout()
            .contains("accepted screenshot:docs/hello.svg (changed)")
            && all
                .stdout()
                .contains("accepted screenshot:docs/hello.png (changed)"),
        "{all}"
    );
    dir.tuicast(["test"]).run().success();
}

/// Issue 40 point 1: a `[[screenshot]]` of a checkpoint the cast no longer has fails its test
/// at the table's place in tuicast.toml, naming the checkpoints there are.
#[test]
fn a_screenshot_of_a_checkpoint_that_is_gone_fails_at_its_place() {
    let dir = project();
    dir.tuicast(["screenshots"]).run().success();
    dir.write(
        "casts/hello.cast",
        v3_cast(20, 4, &["[0.1, \"o\", \"hello\"]", "[0.1, \"m\", \"hi\"]"]),
    );
    let out = dir.tuicast(["test"]).run().fails_with(1);
    assert!(
        out.stdout()
            .contains("screenshot docs/shots/hello.png (tuicast.toml line 1): ")
            && out
                .stdout()
                .contains("has no checkpoint named \"greeted\"; its checkpoints are: hi, end"),
        "{out}"
    );
}

/// Issue 40 point 5: in a live run the screenshot of a cast recorded live is drawn from the
/// new recording, so the first CI run after a UI change fails the stale screenshot beside the
/// changed checkpoint, its report carries the new image, and one `accept --from` makes the
/// next run pass. Replayed, the same screenshot is drawn from the committed cast.
#[test]
fn a_live_run_draws_screenshots_from_its_new_recording() {
    let dir = Dir::new();
    dir.write("ui.txt", "hello world\n");
    dir.write(
        "casts/hello.toml",
        "shell = \"cat ui.txt\"\ncwd = \"..\"\nsize = \"20x4\"\n\
         steps = [{ wait = \"hello\" }, { checkpoint = \"greeted\" }, { exit = 0 }]\n",
    );
    dir.write(
        "tuicast.toml",
        "[[screenshot]]\ncast = \"casts/hello.cast\"\ncheckpoint = \"greeted\"\n\
         output = \"docs/hello.png\"\n",
    );
    dir.tuicast(["record", "casts/hello.toml"]).run().success();
    dir.tuicast(["test", "--update"]).run().success();
    let before = std::fs::read(dir.join("docs/hello.png")).unwrap();
    dir.tuicast(["test", "--live"]).run().success();

    // The UI changes.
    dir.write("ui.txt", "hello there\n");
    // Replayed, nothing has changed yet: the committed cast draws the committed image.
    dir.tuicast(["test", "--replay"]).run().success();
    let ci = dir
        .tuicast(["test", "--live", "--report", "rep"])
        .env("CI", "true")
        .run()
        .fails_with(1);
    let out = ci.stdout();
    assert!(out.contains("test hello::greeted ... FAILED"), "{ci}");
    assert!(
        out.contains("test screenshot:docs/hello.png ... FAILED"),
        "{ci}"
    );
    assert!(
        out.contains("screenshot docs/hello.png is stale: the committed PNG is not what casts/hello.cast draws now"),
        "{ci}"
    );
    assert!(
        out.contains("regenerate it with: TUICAST_LIVE=1 tuicast screenshots docs/hello.png"),
        "{ci}"
    );
    assert_eq!(std::fs::read(dir.join("docs/hello.png")).unwrap(), before);
    // One round trip: the report's new cast, goldens and image, accepted.
    dir.tuicast(["accept", "--from", "rep"]).run().success();
    assert_ne!(std::fs::read(dir.join("docs/hello.png")).unwrap(), before);
    dir.tuicast(["test", "--live"])
        .env("CI", "true")
        .run()
        .success();
    dir.tuicast(["test", "--replay"])
        .env("CI", "true")
        .run()
        .success();
}
