//! The limits of `docs/limits.md`, through the real binary under a 1 GiB address-space limit
//! and a CPU-time limit (`ulimit -v`, `ulimit -t` in a shell wrapper: no unsafe code). Each
//! worst small input, generated here, ends in a clean error naming the limit (exit 2) or a
//! normal result, never an abort. Before these limits the same inputs took 1.6 to 19 GB.

use std::process::Command;

use crate::util::{v3_cast, Dir, Run, BIN};

/// The address space a run may use, in KiB (1 GiB).
const MEMORY_KIB: u64 = 1 << 20;

/// Seconds of CPU a run may use (a debug build is several times slower than a release).
const CPU_SECONDS: u64 = 60;

/// Runs `tuicast ARGS` in `dir` under the memory and time limits.
pub(crate) fn limited(dir: &Dir, args: &[&str]) -> Run {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_KIB} && ulimit -t {CPU_SECONDS} && exec \"$0\" \"$@\""
        ))
        .arg(BIN)
        .args(args)
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .env("TUICAST_UPDATE", "no")
        .env_remove("CI");
    let output = cmd.output().expect("sh runs");
    Run::new(format!("tuicast {}", args.join(" ")), output)
}

/// A clean error: exit 2 and `needle` in the message, no panic or abort.
pub(crate) fn assert_refused(run: &Run, needle: &str) {
    assert_eq!(run.code(), Some(2), "{run}");
    assert!(run.stderr().contains(needle), "{needle:?} not in {run}");
    assert!(!run.stderr().contains("panicked"), "{run}");
}

/// A run that finished normally (0, or 1 for a failed check), no panic or abort.
pub(crate) fn assert_finished(run: &Run, code: i32) {
    assert_eq!(run.code(), Some(code), "{run}");
    assert!(!run.stderr().contains("panicked"), "{run}");
}

#[test]
fn a_header_or_resize_past_the_largest_screen_is_an_error_at_its_place() {
    let dir = Dir::new();
    dir.write("big.cast", v3_cast(10_000, 10_000, &[r#"[0.1, "o", "x"]"#]));
    let run = limited(&dir, &["replay", "big.cast"]);
    assert_refused(&run, "big.cast:1:");
    assert!(run
        .stderr()
        .contains("size 10000x10000 is too large: more than 4000 columns"));
    let flap: Vec<String> = (0..60)
        .map(|i| {
            format!(
                "[0.1, \"r\", \"{}\"]",
                if i % 2 == 0 { "10000x10000" } else { "1x1" }
            )
        })
        .collect();
    let flap: Vec<&str> = flap.iter().map(String::as_str).collect();
    dir.write("flap.cast", v3_cast(80, 24, &flap));
    assert_refused(&limited(&dir, &["replay", "flap.cast"]), "flap.cast:2:");
    dir.write("cells.cast", v3_cast(2001, 2000, &[]));
    assert_refused(
        &limited(&dir, &["replay", "cells.cast"]),
        "4002000 cells, more than 4000000",
    );
    dir.write("s.toml", "command = [\"true\"]\nsize = \"5000x10\"\n");
    assert_refused(
        &limited(&dir, &["record", "s.toml"]),
        "more than 4000 columns",
    );
    // The largest screen replays within the budget.
    dir.write("max.cast", v3_cast(2000, 2000, &[r#"[0.1, "o", "x"]"#]));
    assert_finished(&limited(&dir, &["replay", "max.cast"]), 0);
}

#[test]
fn a_png_too_large_to_draw_is_refused_before_the_replay() {
    let dir = Dir::new();
    dir.write("wide.cast", v3_cast(4000, 10, &[r#"[0.1, "o", "x"]"#]));
    let run = limited(
        &dir,
        &["replay", "wide.cast", "--format", "png", "-o", "w.png"],
    );
    assert_refused(&run, "wide.cast: the image would be");
}

#[test]
fn one_event_of_many_line_feeds_or_repeats_holds_one_screen() {
    let dir = Dir::new();
    let feeds = serde_json::to_string(&"\n".repeat(2_000_000)).unwrap();
    dir.write(
        "lf.cast",
        v3_cast(80, 24, &[&format!("[0.1, \"o\", {feeds}]")]),
    );
    assert_finished(&limited(&dir, &["replay", "lf.cast"]), 0);
    let reps = serde_json::to_string(&format!("x{}", "\x1b[65535b".repeat(1000))).unwrap();
    dir.write(
        "rep.cast",
        v3_cast(80, 24, &[&format!("[0.1, \"o\", {reps}]")]),
    );
    let run = limited(&dir, &["replay", "rep.cast"]);
    assert_finished(&run, 0);
    assert!(
        run.stdout().lines().all(|l| l.chars().all(|c| c == 'x')),
        "{run}"
    );
}

#[test]
fn repeats_past_the_work_budget_are_an_error_at_their_event() {
    // A character, then REP of 65,535, ten thousand times, at the largest screen: 90 KB that
    // asked for 655 million prints (7.2 s and 406 MB in a release build before the budget).
    let dir = Dir::new();
    let attack = serde_json::to_string(&"x\x1b[65535b".repeat(10_000)).unwrap();
    dir.write(
        "rep.cast",
        v3_cast(
            2000,
            2000,
            &[r#"[0.1, "o", "a"]"#, &format!("[0.2, \"o\", {attack}]")],
        ),
    );
    let run = limited(&dir, &["replay", "rep.cast"]);
    assert_refused(
        &run,
        "rep.cast:3:1: the output repeats characters (REP, `CSI n b`) more than tuicast replays",
    );
    // The same through the GIF path.
    let run = limited(
        &dir,
        &[
            "replay",
            "rep.cast",
            "--format",
            "gif",
            "--font-size",
            "1",
            "-o",
            "r.gif",
        ],
    );
    assert_eq!(run.code(), Some(2), "{run}");
    assert!(!dir.path().join("r.gif").exists(), "{run}");
    // Within the budget the repeats are all done: 200 of them, 13 million prints.
    let honest = serde_json::to_string(&"y\x1b[65535b".repeat(200)).unwrap();
    dir.write(
        "ok.cast",
        v3_cast(2000, 2000, &[&format!("[0.1, \"o\", {honest}]")]),
    );
    let run = limited(&dir, &["replay", "ok.cast"]);
    assert_finished(&run, 0);
    let rows: Vec<&str> = run.stdout().lines().collect();
    assert_eq!(rows.len(), 2000, "{}", rows.len());
    // 200 × 65,536 characters from the top: 6553 full rows of 2000 (the screen scrolled),
    // then 1200 on the last row.
    assert!(rows.iter().all(|l| l.chars().all(|c| c == 'y')));
    let lengths: Vec<usize> = rows.iter().map(|l| l.chars().count()).collect();
    assert!(lengths[..1999].iter().all(|&n| n == 2000));
    assert_eq!(lengths[1999], 1200);
}

#[test]
fn an_animation_too_large_to_make_is_refused_before_the_replay() {
    // A 1500x390 terminal: 15024x7434 pixels a frame (1.13 GB and 14.5 s before the limit).
    let dir = Dir::new();
    dir.write("wide.cast", v3_cast(1500, 390, &[r#"[0.1, "o", "x"]"#]));
    let run = limited(
        &dir,
        &["replay", "wide.cast", "--format", "gif", "-o", "w.gif"],
    );
    assert_refused(
        &run,
        "wide.cast: the animation would be 15024x7434 pixels a frame",
    );
    assert!(!dir.path().join("w.gif").exists());
    // A smaller font makes it.
    let run = limited(
        &dir,
        &[
            "replay",
            "wide.cast",
            "--format",
            "gif",
            "--font-size",
            "6",
            "-o",
            "w.gif",
        ],
    );
    assert_finished(&run, 0);
}

#[test]
fn checkpoints_stream_and_are_capped_per_cast() {
    let dir = Dir::new();
    // 500 checkpoints of a 500x200 screen: 2.4 GB when every screen was kept.
    let markers: Vec<String> = (0..500)
        .map(|i| format!("[0.001, \"m\", \"m{i}\"]"))
        .collect();
    let markers: Vec<&str> = markers.iter().map(String::as_str).collect();
    dir.write("casts/many.cast", v3_cast(500, 200, &markers));
    let run = limited(&dir, &["test"]);
    assert_finished(&run, 1);
    assert!(run.stdout().contains("snapshot missing"), "{run}");

    let past: Vec<String> = (0..10_001)
        .map(|i| format!("[0, \"m\", \"m{i}\"]"))
        .collect();
    let past: Vec<&str> = past.iter().map(String::as_str).collect();
    dir.write("past.cast", v3_cast(80, 24, &past));
    for args in [
        &["replay", "past.cast"][..],
        &["info", "past.cast", "--json"],
        &["test", "past.cast"],
    ] {
        let run = limited(&dir, args);
        assert!(
            run.stderr()
                .contains("past.cast:10002:1: more than 10000 checkpoints")
                || run
                    .stdout()
                    .contains("past.cast:10002:1: more than 10000 checkpoints"),
            "{run}"
        );
        assert!(!run.stderr().contains("panicked"), "{run}");
    }

    // --at a name that is not there lists a few names, not thousands.
    dir.write("casts/many.cast", v3_cast(10, 2, &markers));
    let run = limited(&dir, &["replay", "casts/many.cast", "--at", "nope"]);
    assert_refused(&run, "m19, … and 481 more");
}

#[test]
fn a_cast_line_longer_than_16_mib_is_an_error_at_its_line() {
    let dir = Dir::new();
    let mut cast = v3_cast(80, 24, &[r#"[0.1, "o", "x"]"#]);
    cast.push_str(&" ".repeat((16 << 20) + 10));
    cast.push('\n');
    dir.write("blank.cast", cast);
    assert_refused(
        &limited(&dir, &["replay", "blank.cast"]),
        "blank.cast:3:1: the line is longer than 16 MiB",
    );
}

#[test]
fn hostile_goldens_cost_no_more_than_the_screen() {
    let dir = Dir::new();
    dir.write(
        "casts/g.cast",
        v3_cast(20, 2, &[r#"[0.1, "o", "\u001b[1mhi"]"#]),
    );
    dir.write(
        "casts/g.toml",
        "[check]\nformats = [\"styled.txt\", \"png\"]\n",
    );
    // A styled golden of ranges far past the screen (35 KB of it took 2 GB).
    let mut styled = String::from(
        "---\ncast: casts/g.cast\ncheckpoint: end\nsize: 20x2\ncursor: 1:3\n---\nhi\n\n--- styles\n",
    );
    for _ in 0..2400 {
        styled.push_str("1:1-10001 bold\n");
    }
    dir.write("snapshots/g/end.styled.txt", styled);
    // A PNG golden whose header says 22000x22000 (it would decode to 2 GB).
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend(22_000u32.to_be_bytes());
    png.extend(22_000u32.to_be_bytes());
    png.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
    dir.write("snapshots/g/end.png", png);
    let run = limited(&dir, &["test"]);
    assert_finished(&run, 1);
    assert!(
        run.stdout()
            .contains("image size differs: golden 22000x22000"),
        "{run}"
    );
    assert!(run.stdout().contains("snapshot mismatch"), "{run}");
}
