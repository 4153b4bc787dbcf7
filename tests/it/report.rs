//! The HTML report (`tuicast test --report DIR`, `TUICAST_REPORT`), opened in real headless
//! Chromium; `tuicast accept --from DIR` round trips; the GitHub step summary.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::util::{have, root, v3_cast, Dir};

const TEXT: &str = r#"{"version": 3, "term": {"cols": 20, "rows": 4}}
[0.1, "o", "$ echo hi\r\nhi\r\n"]
[0.2, "m", "greeted"]
[0.3, "o", "$ \u001b[1;31mred\u001b[0m 日本\r\n"]
"#;
const STYLE: &str = r#"{"version": 3, "term": {"cols": 16, "rows": 3}}
[0.1, "o", "\u001b[32mgreen\u001b[0m \u001b[4mline\u001b[0m \u001b[7minv\u001b[0m"]
"#;
const MISSING: &str = r#"{"version": 3, "term": {"cols": 10, "rows": 2}}
[0.1, "o", "new"]
"#;
const BROKEN: &str = "{\"version\": 3, \"term\": {\"cols\": 10, \"rows\": 2}}\n[0.1, \"o\"]\n";
const HOSTILE: &str = r#"{"version": 3, "term": {"cols": 40, "rows": 3}}
[0.1, "o", "</script><script>alert(1)</script>\r\n<img src=x onerror=alert(2)>\u001b]0;</title><b>t\u0007"]
[0.1, "m", "<img src=x onerror=alert(3)>"]
[0.1, "o", "\u001b[2J\u001b[H&amp; \u001b[31m<!-- \u001b[5n"]
"#;

/// A project with failures of each kind: text, style only, missing golden, unparsable cast,
/// and a hostile cast whose text and labels are HTML.
fn failing_project() -> Dir {
    let dir = Dir::new();
    dir.write("casts/text.cast", TEXT);
    dir.write("casts/style.cast", STYLE);
    dir.write(
        "casts/style.toml",
        "[check]\nformats = [\"txt\", \"styled.txt\"]\n",
    );
    dir.write("casts/missing.cast", MISSING);
    dir.write("casts/hostile.cast", HOSTILE);
    dir.tuicast(["test"])
        .env("TUICAST_UPDATE", "always")
        .run()
        .success();
    std::fs::remove_file(dir.join("snapshots/missing/end.txt")).unwrap();
    edit(&dir.join("snapshots/text/greeted.txt"), "\nhi\n", "\nho\n");
    edit(&dir.join("snapshots/style/end.styled.txt"), "fg=2", "fg=3");
    edit(
        &dir.join("snapshots/hostile/end.txt"),
        "&amp; <!--",
        "&amp; x",
    );
    dir.write("casts/broken.cast", BROKEN);
    dir
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{}: {text}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn every_kind_of_failure_is_in_the_report_and_chromium_shows_it() {
    let dir = failing_project();
    let run = dir
        .tuicast(["test", "--report", "rep"])
        .env("TUICAST_UPDATE", "no")
        .run();
    assert_eq!(run.code(), Some(2), "a broken cast is bad input:\n{run}");
    assert!(run.stdout().contains("report: "), "{run}");
    let html = std::fs::read_to_string(dir.join("rep/index.html")).unwrap();
    // As a person would type it, and places relative to the project.
    assert!(
        html.contains("command: <code>tuicast test --report rep</code>"),
        "{}",
        between(&html, "<header", "</header>")
    );
    assert!(
        html.contains("<pre class=\"error\">casts/broken.cast:2:1: "),
        "{}",
        between(&html, "data-test=\"broken\"", "</section>")
    );

    // Self-contained, and nothing from a cast is markup.
    for url in ["http://", "https://", "src=\"//", "<link"] {
        assert!(!html.contains(url), "the page has {url}");
    }
    assert_eq!(
        html.matches("<script").count(),
        2,
        "only the page's own two scripts"
    );
    assert!(
        !html.contains("<img"),
        "no image element (no PNG golden here)"
    );
    assert!(!html.contains("</script><script>alert"));
    assert!(
        html.contains("\\u003cimg src=x onerror=alert(3)\\u003e"),
        "the label, escaped in JSON"
    );
    assert!(
        html.contains("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"),
        "output, in JSON"
    );
    assert!(
        html.contains(
            "&amp;amp; </span><span class=\"d\" data-col=\"7\" style=\"color:#dd3c69;\">&lt;</span>"
        ),
        "cells, escaped (in the cast's colour: a txt golden carries it)"
    );
    for test in [
        "broken",
        "hostile::end",
        "missing::end",
        "style::end",
        "text::greeted",
    ] {
        assert!(
            html.contains(&format!("data-test=\"{test}\"")),
            "{test} listed"
        );
    }
    assert!(
        !html.contains("data-test=\"text::end\""),
        "passing checkpoints are not failures"
    );

    if !have("chromium") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have chromium (.ci/run installs it)"
        );
        eprintln!("skipped: no chromium");
        return;
    }
    let url = format!(
        "file://{}#cast=text&checkpoint=greeted",
        dir.join("rep/index.html").display()
    );
    let dom = quiet_dom(&dir, &url);
    assert_eq!(dom.matches("<script").count(), 2, "no script was added");
    assert!(!dom.contains("<img"), "no element from the hostile cast");
    assert!(
        dom.contains(">&lt;img src=x onerror=alert(3)&gt;</button>"),
        "the marker, as text"
    );

    // Changed cells: text::greeted's row 2 column 2 (`ho` → `hi`), on both sides.
    let section = between(&dom, "data-test=\"text::greeted\"", "</section>");
    let row2: Vec<&str> = section
        .match_indices("data-row=\"2\"")
        .map(|(i, _)| &section[i..])
        .collect();
    assert_eq!(row2.len(), 2, "expected and actual");
    for r in &row2 {
        let row = &r[..r.find("</div>").unwrap()];
        assert!(row.contains("class=\"d\" data-col=\"2\""), "{row}");
        assert_eq!(row.matches("class=\"d\"").count(), 1, "{row}");
    }
    // The style-only failure highlights the green cells 1–5 of row 1.
    let style = between(&dom, "data-test=\"style::end\"", "</section>");
    for col in 1..=5 {
        assert!(
            style.contains(&format!("class=\"d\" data-col=\"{col}\"")),
            "col {col}"
        );
    }
    assert!(
        !style.contains("data-col=\"7\""),
        "underlined cells did not change"
    );

    // The player, sent to the checkpoint by the URL, shows what `tuicast replay --at` shows.
    let player = between(&dom, "data-stem=\"text\"", "</section>");
    assert!(player.contains("data-checkpoint=\"greeted\""), "{player}");
    let replay = dir
        .tuicast(["replay", "casts/text.cast", "--at", "greeted"])
        .run()
        .success();
    assert_eq!(screen_text(player), replay.stdout());
    let (dom, _) = chromium(
        &dir,
        &[
            "--dump-dom",
            &url.replace("checkpoint=greeted", "checkpoint=end"),
        ],
    );
    let player = between(&dom, "data-stem=\"text\"", "</section>");
    let end = dir.tuicast(["replay", "casts/text.cast"]).run().success();
    assert_eq!(screen_text(player), end.stdout());
    assert!(end.stdout().contains("red 日本"), "a wide character");

    // A picture for people: kept as a test artifact.
    let shot = root().join("target/report-screenshot.png");
    let page = format!("file://{}", dir.join("rep/index.html").display());
    chromium(
        &dir,
        &[
            "--screenshot=".to_string() + &shot.display().to_string(),
            "--window-size=1200,900".into(),
            page,
        ]
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>(),
    );
    assert!(std::fs::metadata(&shot).unwrap().len() > 10_000);
}

/// The page as a person uses it, in real Chromium through WebDriver: j / k move between the
/// failures, "differences only" hides the unchanged rows, and the player steps, plays to the
/// end and jumps to a checkpoint; nothing is logged to the console.
#[test]
fn the_report_answers_keys_and_clicks_in_chromium() {
    let dir = failing_project();
    dir.tuicast(["test", "--report", "rep"])
        .env("TUICAST_UPDATE", "no")
        .run()
        .fails_with(2);
    let Some(b) = crate::webdriver::Browser::start() else {
        eprintln!("skipped: no chromium or chromedriver");
        return;
    };
    b.open(&format!("file://{}", dir.join("rep/index.html").display()));
    let current = "var c = document.querySelector('.failure.current'); return c ? c.getAttribute('data-test') : null;";
    assert_eq!(b.eval(current), serde_json::Value::Null);
    b.press("j");
    assert_eq!(b.eval(current), "broken");
    b.press("jj");
    assert_eq!(b.eval(current), "missing::end");
    b.press("k");
    assert_eq!(b.eval(current), "hostile::end");
    assert_eq!(
        b.eval("return document.activeElement.getAttribute('data-test');"),
        "hostile::end",
        "the failure has the focus"
    );
    assert_eq!(
        b.eval("return document.querySelectorAll('.failure.current').length;"),
        1
    );

    // "differences only" in text::greeted: the rows without a changed cell are hidden.
    let section = "section[data-test='text::greeted']";
    let hidden = format!(
        "return Array.prototype.filter.call(document.querySelectorAll(\"{section} .screen .row\"), \
         function (r) {{ return getComputedStyle(r).display === 'none'; }}).length;"
    );
    assert_eq!(b.eval(&hidden), 0);
    b.click(&format!("{section} input.only-d"));
    let rows = b.eval(&format!(
        "return document.querySelectorAll(\"{section} .screen .row\").length;"
    ));
    let hidden_now = b.eval(&hidden).as_u64().unwrap();
    assert!(
        hidden_now > 0 && hidden_now < rows.as_u64().unwrap(),
        "{hidden_now} of {rows} rows hidden"
    );
    b.click(&format!("{section} input.only-d"));
    assert_eq!(b.eval(&hidden), 0, "toggled back");

    // The player of text.cast: step forward and back, play to the end, jump to a checkpoint.
    let player = "div.player[data-stem='text']";
    let frame = format!(
        "return parseInt(document.querySelector(\"{player}\").getAttribute('data-frame'), 10);"
    );
    let last = b
        .eval(&format!(
            "return parseInt(document.querySelector(\"{player} .seek\").max, 10);"
        ))
        .as_u64()
        .unwrap();
    assert!(last >= 2, "{last}");
    assert_eq!(b.eval(&frame), 0);
    b.click(&format!("{player} .next"));
    assert_eq!(b.eval(&frame), 1);
    b.click(&format!("{player} .prev"));
    assert_eq!(b.eval(&frame), 0);
    b.click(&format!("{player} .play"));
    assert!(
        b.wait_for(
            &format!(
                "return document.querySelector(\"{player}\").getAttribute('data-frame') == '{last}' \
                 && document.querySelector(\"{player} .play\").textContent == 'play';"
            ),
            Duration::from_secs(10)
        ),
        "played to the end and stopped"
    );
    let screen = format!(
        "return Array.prototype.map.call(document.querySelectorAll(\"{player} .screen .row\"), \
         function (r) {{ return r.textContent.replace(/\\s+$/, ''); }}).join('\\n');"
    );
    let end = dir.tuicast(["replay", "casts/text.cast"]).run().success();
    assert_eq!(
        b.eval(&screen).as_str().unwrap().trim_end(),
        end.stdout().trim_end()
    );
    b.click(&format!("{player} .marks button.mark"));
    assert_eq!(
        b.eval(&format!(
            "return document.querySelector(\"{player}\").getAttribute('data-checkpoint');"
        )),
        "greeted"
    );
    let greeted = dir
        .tuicast(["replay", "casts/text.cast", "--at", "greeted"])
        .run()
        .success();
    assert_eq!(
        b.eval(&screen).as_str().unwrap().trim_end(),
        greeted.stdout().trim_end()
    );
    let console = b.console();
    assert!(console.is_empty(), "{console:?}");
}

#[test]
fn accept_from_applies_a_reports_changes_and_refuses_a_golden_changed_since() {
    let dir = failing_project();
    std::fs::remove_file(dir.join("casts/broken.cast")).unwrap();
    std::fs::remove_file(dir.join("casts/hostile.cast")).unwrap();
    // (A cast's goldens go with it: left behind, they fail the run as `@goldens`.)
    std::fs::remove_dir_all(dir.join("snapshots/hostile")).unwrap();
    let summary = dir.join("summary.md");
    dir.tuicast(["test", "--report", "rep"])
        .env("TUICAST_UPDATE", "no")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .run()
        .fails_with(1);
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("### tuicast: 1 passed, 3 failed"), "{md}");
    assert!(
        md.contains("| text::greeted | text/greeted.txt | row 2: expected `ho`, actual `hi` |"),
        "{md}"
    );
    assert!(md.contains("golden missing"), "{md}");
    assert!(md.contains("rep/index.html"), "{md}");

    // A stale golden: changed here since CI compared it. Nothing is written.
    let greeted = dir.join("snapshots/text/greeted.txt");
    let before_style = std::fs::read(dir.join("snapshots/style/end.styled.txt")).unwrap();
    edit(&greeted, "\nho\n", "\nhu\n");
    let run = dir.tuicast(["accept", "--from", "rep"]).run().fails_with(1);
    assert!(
        run.stderr()
            .contains("snapshots/text/greeted.txt (the golden changed since)"),
        "{run}"
    );
    assert!(std::fs::read_to_string(&greeted)
        .unwrap()
        .contains("\nhu\n"));
    assert_eq!(
        std::fs::read(dir.join("snapshots/style/end.styled.txt")).unwrap(),
        before_style
    );
    assert!(!dir.join("snapshots/missing/end.txt").exists());

    // Back as CI saw it: every change applies, and the suite passes.
    edit(&greeted, "\nhu\n", "\nho\n");
    let run = dir.tuicast(["accept", "--from", "rep"]).run().success();
    assert!(
        run.stdout().contains("accepted missing/end.txt (new)"),
        "{run}"
    );
    assert!(
        run.stdout().contains("accepted text/greeted.txt (changed)"),
        "{run}"
    );
    dir.tuicast(["test"])
        .env("TUICAST_UPDATE", "no")
        .run()
        .success();

    // Applied again, the same report changes nothing: its goldens hold what it brings.
    let contents = || {
        dir.files()
            .into_iter()
            .map(|f| (std::fs::read(dir.join(&f)).unwrap(), f))
            .collect::<Vec<_>>()
    };
    let before = contents();
    let again = dir.tuicast(["accept", "--from", "rep"]).run().success();
    assert!(before == contents(), "{again}");
    // A golden written since a report saw it missing, with other content, is refused.
    std::fs::write(dir.join("snapshots/missing/end.txt"), "written by hand\n").unwrap();
    let run = dir.tuicast(["accept", "--from", "rep"]).run().fails_with(1);
    assert!(
        run.stderr()
            .contains("snapshots/missing/end.txt (a golden was written since)"),
        "{run}"
    );
}

/// A live run whose step times out and a PNG golden that differs: the report lists the
/// scenario's steps beside the player of the new recording, marks the step that failed, shows
/// the PNG golden, the actual picture and the changes, and `accept --from` applies the PNG.
#[test]
fn a_live_timeout_and_a_png_golden_in_the_report() {
    let dir = Dir::new();
    dir.write("casts/pic.cast", STYLE);
    dir.write("casts/pic.toml", "[check]\nformats = [\"png\"]\n");
    let ask = "shell = \"printf 'Overwrite? [y/N] '; read a; echo Completed; read b\"\n\
               timeout = \"2s\"\n\
               steps = [\n\
               { wait = \"[y/N]\" },\n\
               { checkpoint = \"asked\" },\n\
               { type = \"y\" }, { press = \"Enter\" },\n\
               { wait = \"WAIT\" },\n\
               { press = \"Enter\" }, { exit = 0 },\n\
               ]\n";
    dir.write("casts/ask.toml", ask.replace("WAIT", "Completed"));
    dir.tuicast(["record", "casts/ask.toml"]).run().success();
    dir.tuicast(["test"])
        .env("TUICAST_UPDATE", "always")
        .run()
        .success();
    // The picture's cast changes; the scenario now waits for what never comes (line 7).
    dir.write("casts/pic.cast", STYLE.replace("green", "GREEN"));
    dir.write("casts/ask.toml", ask.replace("WAIT", "Finished"));
    let run = dir
        .tuicast(["test", "--live", "--report", "rep"])
        .env("TUICAST_UPDATE", "no")
        .run()
        .fails_with(1);
    assert!(run.stdout().contains("ask::asked ... FAILED"), "{run}");
    let html = std::fs::read_to_string(dir.join("rep/index.html")).unwrap();
    // The live recording's checkpoint ("asked", before the wait that failed): its overhead.
    let overhead = between(&html, "<p class=\"overhead\">", "</p>");
    assert!(
        overhead.contains(">live checkpoints: 1, settled a median ")
            && overhead.contains(" ms) after the program's last output"),
        "{overhead}"
    );

    // The PNG failure: three pictures, files beside the page.
    let pic = between(&html, "data-test=\"pic::end\"", "</section>");
    let srcs: Vec<&str> = pic
        .match_indices("<img src=\"")
        .map(|(i, m)| {
            let rest = &pic[i + m.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(srcs.len(), 3, "expected, actual, changes: {pic}");
    for src in &srcs {
        assert!(src.starts_with("files/"), "{src}");
        assert!(dir.join("rep").join(src).is_file(), "{src}");
    }

    // The live failure: the steps beside the player, the one that failed marked, and the
    // frames of the new recording (its partial part: "Completed" is only in it).
    // (Under the recording's own test, `ask`; its checkpoint points there.)
    let ask_failure = between(&html, "data-test=\"ask\"", "</section>");
    assert!(
        ask_failure.contains("timed out after 2.0s waiting for text"),
        "{ask_failure}"
    );
    let player = between(&html, "data-stem=\"ask\"", "</div></div>");
    assert!(
        player.contains("<li class=\"failed\" data-line=\"7\"><span class=\"ln\">7</span> wait for &quot;Finished&quot;"),
        "{player}"
    );
    assert_eq!(player.matches("class=\"failed\"").count(), 1, "{player}");
    assert!(
        player.contains("checkpoint=asked\" data-player="),
        "the checkpoint step jumps to it: {player}"
    );
    let data = between(&html, "id=\"tuicast-data\">", "</script>");
    assert!(data.contains("Completed"), "the new recording is played");

    if have("chromium") {
        let url = format!(
            "file://{}#cast=ask&checkpoint=asked",
            dir.join("rep/index.html").display()
        );
        let dom = quiet_dom(&dir, &url);
        let player = between(&dom, "data-stem=\"ask\"", "</section>");
        assert!(
            screen_text(player).starts_with("Overwrite? [y/N]"),
            "{player}"
        );
        assert!(player.contains("class=\"failed\""), "{player}");
    }

    // The CI round trip applies the picture.
    let accepted = dir.tuicast(["accept", "--from", "rep"]).run().success();
    assert!(
        accepted.stdout().contains("accepted pic/end.png (changed)"),
        "{accepted}"
    );
    dir.tuicast(["test", "casts/pic.cast"])
        .env("TUICAST_UPDATE", "no")
        .run()
        .success();
}

#[test]
fn processes_sharing_a_report_folder_make_one_page() {
    let dir = failing_project();
    std::fs::remove_file(dir.join("casts/broken.cast")).unwrap();
    let rep = dir.join("shared");
    let spawned: Vec<_> = [
        "casts/text.cast",
        "casts/style.cast",
        "casts/missing.cast",
        "casts/hostile.cast",
    ]
    .iter()
    .map(|cast| {
        dir.tuicast(["test", cast])
            .env("TUICAST_UPDATE", "no")
            .env("TUICAST_REPORT", &rep)
            .spawn()
    })
    .collect();
    for s in spawned {
        s.wait().fails_with(1);
    }
    let html = std::fs::read_to_string(rep.join("index.html")).unwrap();
    assert!(
        html.contains("2 passed</span> <span class=\"failed\">4 failed"),
        "{}",
        between(&html, "<header", "</header>")
    );
    assert!(!rep.join(".lock").exists() && !rep.join(".dirty").exists());
    // `tuicast report DIR` makes the same page again (after gathering CI jobs' data).
    let run = dir.tuicast(["report", "shared"]).run().fails_with(1);
    assert!(run.stdout().contains("report: "), "{run}");
}

/// The DOM of the page at `url` after its script ran, in headless Chromium; the page must
/// log nothing (any console message, an uncaught error or a refused request, fails).
fn quiet_dom(dir: &Dir, url: &str) -> String {
    let (dom, log) = chromium(dir, &["--dump-dom", url]);
    let lower = log.to_lowercase();
    assert!(
        !lower.contains("uncaught") && !lower.contains("console"),
        "{log}"
    );
    dom
}

/// Runs headless Chromium with a fresh profile; gives stdout and stderr.
fn chromium(dir: &Dir, args: &[&str]) -> (String, String) {
    let profile = tempfile::tempdir_in(dir.path()).unwrap();
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
        ])
        .args(["--no-first-run", "--enable-logging=stderr", "--v=0"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .output()
        .expect("chromium runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The text from `start` to the next `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let i = text.find(start).unwrap_or_else(|| panic!("no {start}"));
    let rest = &text[i..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

/// A player's screen as `tuicast replay` prints it: each row's text, trailing spaces trimmed.
fn screen_text(player: &str) -> String {
    let screen = between(player, "class=\"screen live\"", "class=\"cursor\"");
    let mut out = String::new();
    for row in screen.split("<div class=\"row\"").skip(1) {
        let body = &row[row.find('>').unwrap() + 1..];
        let body = &body[..body.find("</div>").unwrap_or(body.len())];
        let mut text = String::new();
        let mut in_tag = false;
        for ch in body.chars() {
            match ch {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        let text = text
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&nbsp;", "\u{a0}")
            .replace("&amp;", "&");
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// Issue 26 point 7: in the report's screens every character sits on its cell, whatever
/// advance its font gives it (braille, box drawing, CJK and symbols come from fallback fonts
/// with other widths: a ratatui chart's right border fell off its panel), measured in
/// Chromium; expected and actual stand side by side on a wide window and stack on a narrow one.
#[test]
fn report_screens_keep_every_glyph_on_its_cell_and_sit_side_by_side_when_wide() {
    let dir = Dir::new();
    let row = |s: &str| format!("{s}\\r\\n");
    let output = [
        row("┌chart───────────────────────┐"),
        row("│⣀⣠⣤⣶⣿⡇⢸⣿⠿⠛⠉ ⣀⣠⣤⣶⣿⡇⢸⣿⠿⠛⠉ ⣿│"),
        row("│日本語 中文 한국어 テキスト│"),
        row("│▁▂▃▄▅▆▇█ ★☆✓✗ ⏻ ⌘ ∑∫≠ x    │"),
        "└────────────────────────────┘".to_string(),
    ]
    .concat();
    dir.write(
        "casts/glyphs.cast",
        v3_cast(40, 6, &[&format!(r#"[0.1, "o", "{output}"]"#)]),
    );
    dir.tuicast(["test"])
        .env("TUICAST_UPDATE", "always")
        .run()
        .success();
    edit(&dir.join("snapshots/glyphs/end.txt"), "chart", "CHART");
    dir.tuicast(["test", "--report", "rep"])
        .env("TUICAST_UPDATE", "no")
        .run()
        .fails_with(1);
    let Some(b) = crate::webdriver::Browser::start() else {
        eprintln!("skipped: no chromium or chromedriver");
        return;
    };
    b.open(&format!("file://{}", dir.join("rep/index.html").display()));
    // Each span's left edge against the cell it starts at (ASCII runs count their characters,
    // boxed characters their cells), in units of the screen's cell width.
    let misplaced = b.eval(
        r#"
        var out = [];
        document.querySelectorAll('.screen').forEach(function (screen) {
          var cols = parseFloat(screen.style.width);
          screen.querySelectorAll('.row').forEach(function (row) {
            var left = row.getBoundingClientRect().left;
            var cw = row.getBoundingClientRect().width / cols;
            var col = 0;
            row.querySelectorAll('span').forEach(function (s) {
              if (s.classList.contains('sp')) return;
              var x = (s.getBoundingClientRect().left - left) / cw;
              if (Math.abs(x - col) > 0.05) out.push(row.dataset.row + ':' + col + ' ' + s.textContent + ' at ' + x.toFixed(2));
              col += s.classList.contains('w') ? 2 : s.classList.contains('g') ? 1 : Array.from(s.textContent).length;
            });
            var right = (row.lastElementChild ? row.lastElementChild.getBoundingClientRect().right - left : 0) / cw;
            if (right > cols + 0.05) out.push(row.dataset.row + ' ends at ' + right.toFixed(2) + ' of ' + cols);
          });
        });
        return out;
        "#,
    );
    assert_eq!(misplaced, serde_json::json!([]), "glyphs off their cells");
    let boxed = b.eval("return document.querySelectorAll('.screen .g').length;");
    assert!(boxed.as_u64().unwrap() > 40, "{boxed}");
    let tops = "var f = document.querySelectorAll('.sides figure'); \
                return [f[0].getBoundingClientRect().top, f[1].getBoundingClientRect().top];";
    let t = b.eval(tops);
    assert_eq!(t[0], t[1], "side by side at 1200 px: {t}");
    // Actual over expected, and `o` flips between them.
    b.click("input.overlay");
    let place = "var f = document.querySelectorAll('.sides figure'); \
                 var a = f[0].getBoundingClientRect(), e = f[1].getBoundingClientRect(); \
                 return [a.left === e.left && a.top === e.top, getComputedStyle(f[1]).opacity, \
                         getComputedStyle(f[0]).visibility];";
    assert_eq!(b.eval(place), serde_json::json!([true, "0.5", "visible"]));
    b.press("o");
    assert_eq!(b.eval(place), serde_json::json!([true, "1", "hidden"]));
    b.click("input.overlay");
    assert_eq!(b.eval(tops)[0], b.eval(tops)[1], "side by side again");
    b.set_window(600, 900);
    let t = b.eval(tops);
    assert!(t[1].as_f64() > t[0].as_f64(), "stacked at 600 px: {t}");
}
