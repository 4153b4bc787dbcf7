//! Issue 46: a cast as an animated SVG and an APNG (`--format animated-svg`, `--format apng`),
//! made by the real binary and looked at by real browsers: Chromium plays the SVG's CSS
//! animation (paused at chosen moments) and decodes every APNG frame; Firefox shows the SVG's
//! frames as it shows the still SVG of the same screen.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::util::{have, root, tuicast, v3_cast, Dir};
use crate::webdriver::Browser;

/// A cast of five screens (at 0, 0.5, 1, 1.5 and 2.5 s), the third shown again at the end;
/// markers `start` (0 s), `middle` (1 s) and `late` (2 s).
fn cast(dir: &Dir) -> std::path::PathBuf {
    dir.write(
        "a.cast",
        v3_cast(
            24,
            4,
            &[
                r#"[0.0, "o", "\u001b[?25lone"]"#,
                r#"[0.0, "m", "start"]"#,
                r#"[0.5, "o", "\r\n\u001b[1;31mtwo\u001b[0m ┌─┐"]"#,
                r#"[0.5, "o", "\u001b[2J\u001b[Hthree <&>"]"#,
                r#"[0.0, "m", "middle"]"#,
                r#"[0.5, "o", "\u001b[2J\u001b[H\u001b[44mfour\u001b[0m ⣿"]"#,
                r#"[0.5, "m", "late"]"#,
                r#"[0.5, "o", "\u001b[2J\u001b[Hthree <&>"]"#,
            ],
        ),
    )
}

fn replay(cast: &Path, format: &str, out: &Path, extra: &[&str]) {
    let mut args = vec![
        "replay".to_string(),
        cast.display().to_string(),
        "--format".into(),
        format.into(),
        "-o".into(),
        out.display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    tuicast(&args).success();
}

/// The frames (delays in ms) of an APNG, by its `fcTL` chunks.
fn apng_delays(bytes: &[u8]) -> Vec<u32> {
    let mut at = 8;
    let mut out = Vec::new();
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        if &bytes[at + 4..at + 8] == b"fcTL" {
            let d = &bytes[at + 8..at + 8 + len];
            let num = u32::from(u16::from_be_bytes([d[20], d[21]]));
            let den = u32::from(u16::from_be_bytes([d[22], d[23]])).max(1);
            out.push(num * 1000 / den);
        }
        at += 12 + len;
    }
    out
}

#[test]
fn the_animated_svg_and_the_apng_hold_the_gifs_frames() {
    let dir = Dir::new();
    let cast = cast(&dir);
    let (svg, apng, gif) = (dir.join("a.svg"), dir.join("a.png"), dir.join("a.gif"));
    replay(&cast, "animated-svg", &svg, &[]);
    replay(&cast, "apng", &apng, &[]);
    replay(&cast, "gif", &gif, &[]);
    let text = fs::read_to_string(&svg).unwrap();
    // Five frames shown, four pictures: the last is the third again.
    assert_eq!(text.matches("<g class=\"f f").count(), 4, "{text}");
    assert!(text.contains("animation-duration:5500ms;"), "{text}");
    assert!(
        text.contains(
            "@keyframes k2{18.18%,45.45%,100%{visibility:visible}0%,27.27%{visibility:hidden}}"
        ),
        "{text}"
    );
    assert!(text.contains("three &lt;&amp;&gt;"), "escaped: {text}");
    assert!(!text.contains("<script") && !text.contains("url("));
    let delays = apng_delays(&fs::read(&apng).unwrap());
    assert_eq!(delays, [500, 500, 500, 1000, 3000]);
    // As many frames as the GIF, the same delays.
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let gif_bytes = fs::read(&gif).unwrap();
    let mut decoder = options.read_info(&gif_bytes[..]).unwrap();
    let mut gif_delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        gif_delays.push(u32::from(frame.delay) * 10);
    }
    assert_eq!(gif_delays, delays);

    // A part: from `middle` to `late`, played once.
    replay(
        &cast,
        "animated-svg",
        &svg,
        &[
            "--from",
            "middle",
            "--to",
            "late",
            "--no-loop",
            "--last-frame",
            "1",
        ],
    );
    let part = fs::read_to_string(&svg).unwrap();
    assert_eq!(part.matches("<g class=\"f f").count(), 2, "{part}");
    assert!(part.contains("animation-duration:1500ms;animation-timing-function:steps(1,end);animation-iteration-count:1;"), "{part}");
    assert!(part.contains(">three &lt;&amp;&gt;<") && part.contains(">four<"));
    replay(&cast, "apng", &apng, &["--from", "middle", "--to", "late"]);
    assert_eq!(apng_delays(&fs::read(&apng).unwrap()), [500, 3000]);
    // With a window frame.
    replay(
        &cast,
        "animated-svg",
        &svg,
        &["--chrome", "--title", "demo <1>"],
    );
    let framed = fs::read_to_string(&svg).unwrap();
    assert!(
        framed.contains("clip-path=\"url(#tc-window)\"") && framed.contains(">demo &lt;1&gt;<")
    );
}

#[test]
fn bad_animation_options_are_refused_with_exit_2() {
    let dir = Dir::new();
    let cast = cast(&dir);
    let cast = cast.to_str().unwrap();
    let out = dir.join("x.svg");
    let out = out.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["--format", "animated-svg", "--from", "nope"],
            "--from nope: no such checkpoint; the checkpoints are: start, middle, late, end",
        ),
        (
            vec!["--format", "apng", "--from", "late", "--to", "start"],
            "--to start comes before --from late",
        ),
        (
            vec!["--format", "animated-svg", "--annotate", "at=nope,rows=1"],
            "--annotate at=nope: no such checkpoint; the checkpoints are: start, middle, late, end",
        ),
        (
            vec!["--format", "animated-svg", "--annotate", "at=middle"],
            "at=CHECKPOINT comes before the annotation, with a comma",
        ),
        (
            vec![
                "--format",
                "animated-svg",
                "--from",
                "late",
                "--annotate",
                "at=middle,rows=1",
            ],
            "--annotate at=middle: the checkpoint (at 1.000s) is outside the part animated",
        ),
        (
            vec!["--format", "svg", "--annotate", "at=middle,rows=1"],
            "--annotate at=CHECKPOINT applies to --format animated-svg",
        ),
        (
            vec!["--format", "apng", "--annotate", "rows=1"],
            "--annotate only apply to --format png, svg and animated-svg",
        ),
        (
            vec!["--format", "apng", "--chrome"],
            "--chrome only apply to --format png, svg and animated-svg",
        ),
        (
            vec!["--format", "apng", "--at", "middle"],
            "--at and --time do not apply",
        ),
        (
            vec!["--format", "svg", "--from", "middle"],
            "--from only apply to animations",
        ),
    ] {
        let mut all = vec!["replay", cast, "-o", out];
        all.extend(args);
        let run = tuicast(&all).fails_with(2);
        assert!(run.stderr().contains(needle), "{needle}: {run}");
        assert!(!Path::new(out).exists(), "nothing written");
    }
}

/// Issue 46 point 2: lossless, and no larger than the GIF where the GIF is lossless too (at
/// most 256 colours): the example casts `progress` and `less`.
#[test]
fn an_apng_is_no_larger_than_the_gif_of_the_same_cast() {
    let dir = Dir::new();
    for name in ["progress", "less"] {
        let cast = root().join(format!("casts/{name}.cast"));
        let (apng, gif) = (
            dir.join(format!("{name}.png")),
            dir.join(format!("{name}.gif")),
        );
        replay(&cast, "apng", &apng, &[]);
        replay(&cast, "gif", &gif, &[]);
        let (a, g) = (
            fs::metadata(&apng).unwrap().len(),
            fs::metadata(&gif).unwrap().len(),
        );
        assert!(a <= g, "{name}: APNG {a} bytes, GIF {g}");
        assert_eq!(fs::read(&apng).unwrap()[25], 3, "{name}: one palette");
    }
}

/// The moments of `cast` (seconds) and the screen's text then, one of each frame.
const MOMENTS: [f64; 5] = [0.25, 0.75, 1.25, 1.75, 2.75];

/// The animated SVG paused at `ms` (the CSS animation's delay made negative), as a file.
fn paused_at(svg: &str, ms: u32, dir: &Dir, name: &str) -> std::path::PathBuf {
    let paused = svg.replacen(
        ".f{visibility:hidden;",
        &format!(".f{{visibility:hidden;animation-play-state:paused;animation-delay:-{ms}ms;"),
        1,
    );
    assert_ne!(paused, svg);
    dir.write(name, paused)
}

/// A headless screenshot of `file` by `browser` ("chromium" or "firefox-esr"), bounded.
fn screenshot(browser: &str, file: &Path, out: &Path, (w, h): (u32, u32), dir: &Dir) {
    let profile = tempfile::tempdir_in(dir.path()).unwrap();
    let url = format!("file://{}", file.display());
    let mut cmd = Command::new("timeout");
    cmd.arg("120").arg(browser);
    if browser == "chromium" {
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg("--hide-scrollbars")
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", out.display()))
        // The new headless mode takes a browser's bars off the window's height.
        .arg(format!("--window-size={w},{}", h + 200));
    } else {
        cmd.args(["--headless", "--no-remote", "--profile"])
            .arg(profile.path())
            .arg("--screenshot")
            .arg(out)
            .arg("--window-size")
            .arg(format!("{w},{h}"))
            .env("MOZ_HEADLESS", "1");
    }
    let run = cmd.arg(&url).output().expect("the browser runs");
    assert!(
        out.is_file(),
        "{browser} made no screenshot: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// Issue 46 point 4: at each moment the browser shows the animated SVG exactly as it shows
/// the still SVG of the screen at that moment (`replay --format svg --time`): the same
/// pixels, so the frame shown is the right one, on the same grid, with nothing of the other
/// frames showing through.
fn browser_shows_each_frame_as_its_still(browser: &str) {
    if !have(browser) {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have {browser} (.ci/run installs it)"
        );
        return;
    }
    let dir = Dir::new();
    let cast = cast(&dir);
    let svg = dir.join("a.svg");
    replay(&cast, "animated-svg", &svg, &[]);
    let animated = fs::read_to_string(&svg).unwrap();
    let size = {
        let layout = tuicast::render::png::Renderer::new(Default::default())
            .unwrap()
            .layout(tuicast::size::Size { cols: 24, rows: 4 })
            .unwrap();
        (layout.width, layout.height)
    };
    let mut shots = Vec::new();
    for (i, t) in MOMENTS.iter().enumerate() {
        let paused = paused_at(&animated, (t * 1000.0) as u32, &dir, &format!("p{i}.svg"));
        let still = dir.join(format!("s{i}.svg"));
        tuicast([
            "replay",
            cast.to_str().unwrap(),
            "--format",
            "svg",
            "--time",
            &t.to_string(),
            "-o",
            still.to_str().unwrap(),
        ])
        .success();
        let (a, b) = (dir.join(format!("p{i}.png")), dir.join(format!("s{i}.png")));
        screenshot(browser, &paused, &a, size, &dir);
        screenshot(browser, &still, &b, size, &dir);
        let (pa, pb) = (
            image::open(&a).unwrap().to_rgba8(),
            image::open(&b).unwrap().to_rgba8(),
        );
        assert!(
            pa == pb,
            "{browser}: the animation at {t}s is not the still"
        );
        shots.push(pa);
    }
    assert!(shots[0] != shots[1] && shots[1] != shots[2] && shots[2] != shots[3]);
    assert!(shots[2] == shots[4], "the third screen again");
}

#[test]
fn chromium_shows_each_frame_of_the_animated_svg_as_the_still_svg() {
    browser_shows_each_frame_as_its_still("chromium");
}

#[test]
fn firefox_shows_each_frame_of_the_animated_svg_as_the_still_svg() {
    browser_shows_each_frame_as_its_still("firefox-esr");
}

/// The animation plays by itself in Chromium: with nothing paused, after some time a later
/// frame shows; the document's animations are CSS animations only.
#[test]
fn chromium_plays_the_animated_svg_by_itself() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = Dir::new();
    let cast = cast(&dir);
    let svg = dir.join("a.svg");
    replay(&cast, "animated-svg", &svg, &[]);
    browser.open(&format!("file://{}", svg.display()));
    // A group's text, its rows placed with `<use>` included.
    let text = "const text = g => Array.from(g.children).map(c => c.tagName === 'use' \
                ? document.querySelector(c.getAttribute('href')).textContent : c.textContent)\
                .join('').replace(/\\s+/g, '');";
    let shown = format!(
        "{text} return Array.from(document.querySelectorAll('g.f'))\
         .filter(g => getComputedStyle(g).visibility === 'visible').map(text);"
    );
    let first = browser.eval(&shown);
    assert_eq!(first, serde_json::json!(["one"]), "at the start");
    assert!(
        browser.wait_for(
            &format!(
                "{text} return Array.from(document.querySelectorAll('g.f')).some(g => \
                 getComputedStyle(g).visibility === 'visible' && text(g).includes('four'))"
            ),
            Duration::from_secs(10)
        ),
        "the fourth frame shows within 10 s"
    );
    let kinds = browser.eval(
        "return document.getAnimations().map(a => a.constructor.name + ' ' + a.animationName);",
    );
    assert_eq!(
        kinds,
        serde_json::json!([
            "CSSAnimation k0",
            "CSSAnimation k1",
            "CSSAnimation k2",
            "CSSAnimation k3"
        ])
    );
}

/// Issue 46 point 4: Chromium decodes every frame of the APNG (WebCodecs' `ImageDecoder`)
/// to the very pixels tuicast draws for that screen as a still PNG.
#[test]
fn chromium_decodes_every_apng_frame_as_the_still_png() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = Dir::new();
    let cast = cast(&dir);
    let apng = dir.join("a.png");
    replay(&cast, "apng", &apng, &[]);
    let b64 = |p: &Path| base64_encode(&fs::read(p).unwrap());
    let mut stills = Vec::new();
    for (i, t) in MOMENTS.iter().enumerate() {
        let still = dir.join(format!("s{i}.png"));
        tuicast([
            "replay",
            cast.to_str().unwrap(),
            "--format",
            "png",
            "--time",
            &t.to_string(),
            "-o",
            still.to_str().unwrap(),
        ])
        .success();
        stills.push(format!("'{}'", b64(&still)));
    }
    let page = dir.write(
        "page.html",
        "<!doctype html><title>apng</title><body></body>",
    );
    browser.open(&format!("file://{}", page.display()));
    let script = format!(
        "const bytes = s => Uint8Array.from(atob(s), c => c.charCodeAt(0));
         const pixels = (img, w, h) => {{
           const c = new OffscreenCanvas(w, h); const x = c.getContext('2d');
           x.drawImage(img, 0, 0); return x.getImageData(0, 0, w, h).data; }};
         const dec = new ImageDecoder({{data: bytes('{apng}'), type: 'image/png'}});
         await dec.tracks.ready;
         const track = dec.tracks.selectedTrack;
         const stills = [{stills}];
         const out = {{frames: track.frameCount, animated: track.animated, differ: []}};
         for (let i = 0; i < track.frameCount; i++) {{
           const f = (await dec.decode({{frameIndex: i}})).image;
           const w = f.displayWidth, h = f.displayHeight;
           const a = pixels(f, w, h); f.close();
           const bmp = await createImageBitmap(new Blob([bytes(stills[i])], {{type: 'image/png'}}));
           const b = pixels(bmp, w, h);
           let n = 0; for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) n++;
           out.differ.push(n);
         }}
         return out;",
        apng = b64(&apng),
        stills = stills.join(",")
    );
    let got = browser.eval(&format!("return (async () => {{ {script} }})();"));
    assert_eq!(
        got,
        serde_json::json!({"frames": 5, "animated": true, "differ": [0, 0, 0, 0, 0]}),
        "frames decoded by Chromium against the stills"
    );
}

/// Standard base64 (the test's own: no dependency for it).
fn base64_encode(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = u32::from(c[0]) << 16
            | u32::from(*c.get(1).unwrap_or(&0)) << 8
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Issue 46: an annotation at a checkpoint is drawn in that checkpoint's frame only. The
/// SVG holds its label once, in one picture shown from the checkpoint (1 s) to the next
/// frame (1.5 s); Chromium shows the animation there as the still SVG of the checkpoint with
/// the same annotation, and the same screen later (2.75 s) without it.
#[test]
fn an_annotation_at_a_checkpoint_shows_in_its_frame_only() {
    let dir = Dir::new();
    let cast = cast(&dir);
    let svg = dir.join("a.svg");
    let box_ = "regex=three,label=Third <&>";
    replay(
        &cast,
        "animated-svg",
        &svg,
        &["--annotate", &format!("at=middle,{box_}")],
    );
    let animated = fs::read_to_string(&svg).unwrap();
    assert!(
        !animated.contains("<script") && !animated.contains("href=\"http"),
        "plain SVG"
    );
    assert_eq!(animated.matches(">Third &lt;&amp;&gt;</text>").count(), 1);
    // The picture holding the label, and its moments: shown at 1 s, hidden at 1.5 s of 5.5 s.
    let at = animated.find(">Third &lt;&amp;&gt;</text>").unwrap();
    let group = animated[..at].rfind("<g class=\"f f").unwrap();
    let id: String = animated[group + 13..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let keyframes =
        format!("@keyframes k{id}{{18.18%{{visibility:visible}}0%,27.27%{{visibility:hidden}}}}");
    assert!(
        animated.contains(&keyframes),
        "{keyframes} not in {animated}"
    );
    if !have("chromium") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have chromium (.ci/run installs it)"
        );
        return;
    }
    let size = {
        let layout = tuicast::render::png::Renderer::new(Default::default())
            .unwrap()
            .layout(tuicast::size::Size { cols: 24, rows: 4 })
            .unwrap();
        (layout.width, layout.height)
    };
    let still = |name: &str, args: &[&str]| {
        let out = dir.join(name);
        let mut all = vec!["replay", cast.to_str().unwrap(), "--format", "svg"];
        all.extend(args);
        all.extend(["-o", out.to_str().unwrap()]);
        tuicast(&all).success();
        out
    };
    let annotated = still("annotated.svg", &["--at", "middle", "--annotate", box_]);
    let plain = still("plain.svg", &["--at", "middle"]);
    let shot = |file: &Path, name: &str| {
        let out = dir.join(name);
        screenshot("chromium", file, &out, size, &dir);
        image::open(&out).unwrap().to_rgba8()
    };
    let (with, without) = (shot(&annotated, "with.png"), shot(&plain, "without.png"));
    assert!(with != without, "the annotation shows in the still");
    let inside = shot(&paused_at(&animated, 1250, &dir, "in.svg"), "in.png");
    assert!(
        inside == with,
        "at 1.25 s the animation shows the annotated checkpoint"
    );
    let later = shot(&paused_at(&animated, 2750, &dir, "out.svg"), "out.png");
    assert!(
        later == without,
        "at 2.75 s the same screen shows without it"
    );
}
