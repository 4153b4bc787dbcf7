//! The native engine fed at once against itself fed a character at a time (which no fast
//! path reads: no whole control sequence, run of text or jump scroll), on every event of the
//! corpus and the example casts and on generated output; the rules found by comparing it with
//! other engines, as cases of their own. The conformance corpus holds its screens to real
//! terminals.

use proptest::prelude::*;

use super::NativeEngine;
use crate::cast::EventData;
use crate::term::{Engine, Screen, Size};

/// The first row, cell or field where two screens differ, as a message.
fn difference(a: &Screen, b: &Screen) -> Option<String> {
    if a == b {
        return None;
    }
    if a.size != b.size {
        return Some(format!("size {} vs {}", a.size, b.size));
    }
    for (r, (ra, rb)) in a.rows.iter().zip(&b.rows).enumerate() {
        if ra != rb {
            let c = ra.iter().zip(rb).position(|(x, y)| x != y).unwrap_or(0);
            return Some(format!(
                "row {r} col {c}: {:?} vs {:?}\n  a character at a time: {:?}\n  at once:               {:?}",
                ra[c],
                rb[c],
                a.row_text(r),
                b.row_text(r)
            ));
        }
    }
    if a.cursor != b.cursor {
        return Some(format!("cursor {:?} vs {:?}", a.cursor, b.cursor));
    }
    if a.state != b.state {
        return Some(format!("state {:?}\n vs {:?}", a.state, b.state));
    }
    Some(format!(
        "title {:?}/{:?} alternate {}/{} modes {:?}/{:?}",
        a.title, b.title, a.alternate, b.alternate, a.modes, b.modes
    ))
}

fn casts() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["tests/conformance/cases", "casts", "tests/fixtures"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "cast") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Replays `path` into the native engine at once and a character at a time, comparing after
/// every event; the first difference.
fn compare_cast(path: &std::path::Path) -> Option<String> {
    let reader = crate::cast::open(path).ok()?;
    let size = reader.header().term.size;
    let mut each = NativeEngine::new(size);
    let mut native = NativeEngine::new(size);
    for (i, event) in reader.enumerate() {
        let Ok(event) = event else { return None };
        match &event.data {
            EventData::Output(text) => {
                feed_each(&mut each, text);
                native.feed(text);
            }
            EventData::Resize(size) => {
                each.resize(*size);
                native.resize(*size);
            }
            EventData::Marker(_) => {
                each.checkpoint();
                native.checkpoint();
            }
            _ => continue,
        }
        if let Some(d) = difference(&each.screen(), &native.screen()) {
            return Some(format!(
                "{}: event {i} (line {}): {d}",
                path.display(),
                event.line
            ));
        }
    }
    // The sequences not understood, which a replay warns about.
    let kinds = |u: crate::term::Unsupported| {
        u.iter()
            .map(|(k, n)| format!("{k} x{n}"))
            .collect::<Vec<_>>()
    };
    let (a, n) = (kinds(each.unsupported()), kinds(native.unsupported()));
    (a != n).then(|| format!("{}: unsupported {a:?} vs {n:?}", path.display()))
}

#[test]
fn every_event_of_the_corpus_gives_the_same_screen_a_character_at_a_time() {
    let casts = casts();
    assert!(casts.len() > 100, "{} casts", casts.len());
    let failures: Vec<String> = casts.iter().filter_map(|p| compare_cast(p)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} casts differ:\n{}",
        failures.len(),
        casts.len(),
        failures.join("\n")
    );
}

/// Feeds `text` to `e` a character at a time.
fn feed_each(e: &mut NativeEngine, text: &str) {
    let mut buf = [0u8; 4];
    for ch in text.chars() {
        e.feed(ch.encode_utf8(&mut buf));
    }
}

/// The differences the property tests found when they compared the native engine with the avt
/// layer it replaced (issue 45), each fixed, as cases of their own: fed at once and a
/// character at a time, and the rows as xterm shows them where they were checked.
#[test]
fn the_differences_found_stay_fixed() {
    let text = |s: &str| vec![s.to_string()];
    let cases: &[(Size, Vec<String>)] = &[
        // A wide character put before the last column without auto-wrap: nothing erased.
        (
            Size { cols: 3, rows: 1 },
            text("\t  \x1b[?7la0\x1b[0;1m\u{65e5}"),
        ),
        // Printing over the second half of a wide character clears its first half's
        // concealment and protection.
        (Size { cols: 3, rows: 1 }, text("\u{1f600}\x08\x1b[8;1m ")),
        // A malformed extended colour is skipped as avt skips it.
        (
            Size { cols: 3, rows: 1 },
            text("\x1b[38;1m \x1b[48;5m \x1b[38;2;1m "),
        ),
        // DECSC and DECRC, and the modes 1048 and 1049, save and restore the character sets.
        (
            Size { cols: 3, rows: 1 },
            vec!["\x1b(0\x0e\x1b#8\x0f".into(), "\x1b[?1048la".into()],
        ),
        // A wide character over the second half of another in the last two columns fits
        // there, as in xterm.
        (
            Size { cols: 4, rows: 1 },
            text("\x1b[1;1m\u{672c}\u{672c}\x1b[177b\x1b[ A\u{65e5}"),
        ),
    ];
    for (size, chunks) in cases {
        let (a, n) = both(*size, chunks);
        assert_eq!(difference(&a, &n), None, "{chunks:?}");
    }
    // As xterm 379 shows them (its print of the screen, `CSI i`, under Xvfb): a wide character
    // fits over the second half of another with a column to spare, and the modes that save
    // the cursor save the character sets with it.
    let size = Size { cols: 4, rows: 5 };
    let input = "\x1b[1;1Ha\u{672c}\x1b[1;3H\u{65e5}\x1b[3;1H\x1b(0\x1b[?1049h\x1b(B\x1b[?1049lq\
                 \x1b[4;1H\x1b(0\x1b[?1048h\x1b(B\x1b[?1048lq";
    let (a, n) = both(size, &[input.to_string()]);
    assert_eq!(difference(&a, &n), None);
    let rows: Vec<String> = (0..4).map(|r| n.row_text(r)).collect();
    assert_eq!(rows, ["a \u{65e5}", "", "\u{2500}", "\u{2500}"]);
    // IL and DL: the cursor to the left margin; outside the scroll region, nothing.
    let input = "xay\x1b[0L03y\x1b[2;5r\x1b[H\x1b[2Lq\x1b[3;4H\x1b[M!";
    let (a, n) = both(Size { cols: 12, rows: 6 }, &[input.to_string()]);
    assert_eq!(difference(&a, &n), None);
    let rows: Vec<String> = (0..3).map(|r| n.row_text(r)).collect();
    assert_eq!(rows, ["q3y", "xay", "!"]);
    // Without auto-wrap, wide characters past the last one that fits leave the row as it is.
    let input = "\x1b[?7l\u{65e5}\u{65e5}\u{65e5}\u{65e5}\u{65e5}\u{65e5}\u{65e5}\u{65e5}\u{65e5}";
    let (a, n) = both(Size { cols: 15, rows: 1 }, &[input.to_string()]);
    assert_eq!(difference(&a, &n), None);
    assert_eq!(n.row_text(0), "\u{65e5}".repeat(7));
    // Resizes: the scroll region goes when only the width changes; the main screen takes the
    // size it missed after the cursor saved on it is back (1049), and a cursor saved on the
    // alternate screen before it got smaller is restored onto it.
    let runs: &[&[Step]] = &[
        &[
            Step::Feed("\x1b[1;40m\x1b7\x1b[0;2r".into()),
            Step::Resize(2, 4),
            Step::Feed("\r\n\r\n".into()),
        ],
        &[
            Step::Feed(" a0a   a0".into()),
            Step::Feed("00aa \x1b[?1049h".into()),
            Step::Resize(2, 1),
            Step::Feed("\x1b[?1049l".into()),
        ],
        &[
            Step::Feed("\x1b[?1049h".into()),
            Step::Feed(" aa 0a a \x1b7\x1b[?1049l".into()),
            Step::Resize(2, 1),
            Step::Feed("\x1b[?1049h\x1b8\x1b[X".into()),
        ],
        &[
            Step::Feed("\x1b[?1049h\r\n\x1b[?1049h\x1b[?1049l".into()),
            Step::Resize(2, 1),
            Step::Feed("\x1b[?1049h".into()),
            Step::Resize(2, 2),
            Step::Feed("\x1b[0;0r0\x1b8".into()),
        ],
        &[
            Step::Feed("0a\r\n\x1b[1;40m\r\n 0\n\n\x1b[?1049h".into()),
            Step::Resize(2, 1),
            Step::Feed("\x1b[?1049l".into()),
        ],
    ];
    for steps in runs {
        assert_eq!(with_resizes(steps), None, "{steps:?}");
    }
}

/// The screens of the native engine fed `chunks` a character at a time and at once.
fn both(size: Size, chunks: &[String]) -> (Screen, Screen) {
    let mut each = NativeEngine::new(size);
    let mut native = NativeEngine::new(size);
    for c in chunks {
        feed_each(&mut each, c);
        native.feed(c);
    }
    (each.screen(), native.screen())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    /// Generated output: text (wide characters included), controls, the sequences programs
    /// use, at a small size so that wrapping and scrolling happen often.
    #[test]
    fn generated_output_gives_the_same_screen_a_character_at_a_time(chunks in proptest::collection::vec(
        proptest::string::string_regex(concat!(
            "(\\x1b\\[[0-9]{0,2}(;[0-9]{1,2}){0,2}[@A-HJKLMPSTXZ`abdefghmr]",
            "|\\x1b\\[[134579]?[0-9];[0-9]{1,2}m|\\x1b\\[(38|48);(5;[0-9]{1,3}|2;[0-9];[0-9];[0-9])m",
            "|\\x1b\\[\\?(1|6|7|25|47|1047|1048|1049|2004)[hl]|\\x1b\\[[0-9]? [@Aq]|\\x1b\\[[0-2]\"q",
            "|\\x1b\\[\\?[0-3][JK]|\\x1b[78cDEHM=>]|\\x1b[()][0AB]|\\x1b#8|[\\x0e\\x0f]",
            "|\\x1b\\]([0-2]|8;;[a-z]{0,3});[a-z ]{0,4}\\x07|\\x1b\\[[0-9]{0,3}b",
            "|[\\x07-\\x0d]|[a-z0-9 ]{1,8}|[日本é😀]|\\x1b\\[[sub]|\\x1b\\[4[hl]",
            "|\\x1b\\[[0-9]?'[}~]|\\x1b[69])*"
        )).unwrap(),
        1..6,
    ), cols in 3u16..30, rows in 1u16..9) {
        let size = Size { cols, rows };
        let (a, n) = both(size, &chunks);
        if let Some(d) = difference(&a, &n) {
            proptest::prop_assert!(false, "{:?} at {}: {}", chunks, size, d);
        }
    }
}

/// An output chunk or a resize.
#[derive(Debug, Clone)]
enum Step {
    Feed(String),
    Resize(u16, u16),
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

    /// Resizes between the output: the reflow of wrapped lines, the cursor and the lines
    /// pushed into the scrollback.
    #[test]
    fn resizes_give_the_same_screen_a_character_at_a_time(steps in proptest::collection::vec(
        proptest::prop_oneof![
            3 => proptest::string::string_regex(concat!(
                "([a-z0-9 ]{1,12}|[日本]|\\r\\n|\\n|\\x1b\\[[0-9]{0,2}[ABCDHJKX]",
                "|\\x1b\\[\\?1049[hl]|\\x1b\\[[0-9];[0-9]r|\\x1b[78]|\\x1b\\[1;4[0-7]m)*"
            )).unwrap().prop_map(Step::Feed),
            1 => (2u16..14, 1u16..7).prop_map(|(c, r)| Step::Resize(c, r)),
        ],
        1..12,
    )) {
        if let Some(d) = with_resizes(&steps) {
            prop_assert!(false, "{:?}: {}", steps, d);
        }
    }
}

/// Feeds `steps` from 8x4 at once and a character at a time (as [`both`] does); the first
/// difference at the end.
fn with_resizes(steps: &[Step]) -> Option<String> {
    let size = Size { cols: 8, rows: 4 };
    let mut each = NativeEngine::new(size);
    let mut native = NativeEngine::new(size);
    for step in steps.iter().cloned() {
        match step {
            Step::Feed(text) => {
                feed_each(&mut each, &text);
                native.feed(&text);
            }
            Step::Resize(cols, rows) => {
                let size = Size { cols, rows };
                each.resize(size);
                native.resize(size);
            }
        }
    }
    difference(&each.screen(), &native.screen())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Plain lines that scroll away unseen are skipped (`NativeEngine::jump`): feeding at
    /// once (which may skip) and a character at a time (which cannot) give the same screen,
    /// scrollback included, at scrollbacks of 0, 3 and 40.
    #[test]
    fn skipping_plain_lines_that_scroll_away_changes_nothing(
        head in proptest::string::string_regex(
            "(\\x1b\\[[0-9]{1,2}(;[0-9]{1,2})?[Hmr]|\\x1b\\[\\?1049[hl]|\\x1bN|\\x1b\\(0|[a-z]{0,5})*"
        ).unwrap(),
        lines in proptest::collection::vec(
            proptest::string::string_regex("[a-z0-9 ]{0,12}(\\r\\n|\\n|\\r)").unwrap(),
            0..120,
        ),
        end in proptest::string::string_regex("[a-z]{0,4}").unwrap(),
        rows in 1u16..6,
        cols in 2u16..10,
        scrollback in proptest::sample::select(vec![0usize, 3, 40]),
    ) {
        let size = Size { cols, rows };
        let text = format!("{head}{}{end}", lines.concat());
        let options = crate::term::EngineOptions::default();
        let mut whole = NativeEngine::with_options_and_scrollback(size, options, scrollback);
        whole.feed(&text);
        let mut each = NativeEngine::with_options_and_scrollback(size, options, scrollback);
        let mut buf = [0u8; 4];
        for ch in text.chars() {
            each.feed(ch.encode_utf8(&mut buf));
        }
        prop_assert_eq!(whole.screen(), each.screen(), "{:?}", text);
    }
}

#[test]
fn line_feeds_are_counted_a_word_at_a_time() {
    for text in [
        "",
        "\n",
        "a\nb\n\n\r\n0123456789\n\n\n\n\n\n\n\n\n",
        "\u{a}\u{8a}\u{ff}\u{b}\u{9}x",
    ] {
        let want = text.bytes().filter(|&b| b == b'\n').count();
        assert_eq!(super::line_feeds(text.as_bytes()), want, "{text:?}");
    }
    let bytes: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    assert_eq!(super::line_feeds(&bytes), 16);
}

/// The table of combining marks is collected as marked cells are overwritten, and what is still
/// shown keeps its marks: 200,000 marked characters on a 10x4 screen keep the table small.
#[test]
fn combining_marks_stay_on_their_cells_and_the_table_stays_small() {
    let mut e = NativeEngine::new(Size { cols: 10, rows: 4 });
    for i in 0..200_000u32 {
        e.feed(if i % 7 == 0 {
            "a\u{301}\u{302}"
        } else {
            "e\u{301}"
        });
    }
    assert!(
        e.marks.entries.len() <= 2 * super::MARKS_COLLECT,
        "{}",
        e.marks.entries.len()
    );
    let s = e.screen();
    for row in &s.rows {
        for c in row {
            assert!(
                matches!(c.text.as_str(), "e\u{301}" | "a\u{301}\u{302}"),
                "{:?}",
                c.text
            );
        }
    }
    // The same marks a character at a time, on a screen that scrolls them.
    let (a, n) = both(
        Size { cols: 5, rows: 2 },
        &["e\u{301}x\r\ny\u{308}\r\nz".to_string()],
    );
    assert_eq!(difference(&a, &n), None);
    assert_eq!(n.row_text(0), "y\u{308}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

    /// What only the native engine does (the rectangular operations, VT52 mode, with wide
    /// characters, margins, origin mode and protection around them) never panics and keeps
    /// every wide character whole: a cell of width 2 followed by its tail, and no tail alone.
    #[test]
    fn rectangular_operations_and_vt52_mode_keep_the_grid_whole(chunks in proptest::collection::vec(
        proptest::string::string_regex(concat!(
            "(\\x1b\\[[0-9]{0,3}(;[0-9]{0,3}){0,8}\\$[xzv{rt]|\\x1b\\[[0-2]\\*x",
            "|\\x1b\\[\\?[26][hl]|\\x1b\\[[0-9]{0,2};[0-9]{0,2}r|\\x1b\\[[0-2]\"q",
            "|\\x1bY[ -~]{0,2}|\\x1b[ABCDFGHIJKZ<=>]|[日本a-c ]{1,6}|\\x1b#8|\\r\\n|\\x1b\\[[0-9]{0,2}m)*"
        )).unwrap(),
        1..6,
    ), cols in 2u16..24, rows in 1u16..9) {
        let mut e = NativeEngine::new(Size { cols, rows });
        for c in &chunks {
            e.feed(c);
        }
        for (r, row) in e.rows.iter().enumerate() {
            for (c, cell) in row.cells.iter().enumerate() {
                let whole = match cell.width {
                    2 => row.cells.get(c + 1).is_some_and(|t| t.width == 0),
                    0 => c > 0 && row.cells[c - 1].width == 2,
                    _ => true,
                };
                proptest::prop_assert!(whole, "{:?}: row {} col {}: {:?}", chunks, r, c, row.cells);
            }
        }
        let _ = e.screen();
    }
}

/// Every operation whose cost grows with the screen takes it from the work budget (issue
/// 41): repeated at the largest screen, each passes the budget, is named by the message, and
/// stops costing (what the budget allows is all it did).
#[test]
fn every_screen_sized_operation_takes_from_the_work_budget() {
    use crate::term::{WORK_BASE, WORK_PER_BYTE};
    let size = Size {
        cols: 2000,
        rows: 2000,
    };
    let ops: &[(&str, &str)] = &[
        ("\x1b[1;1;2000;2000;1;1;1;1$v", "DECCRA"),
        ("\x1b[1;1;2000;2000$z", "DECERA"),
        ("\x1b[88;1;1;2000;2000$x", "DECFRA"),
        ("\x1b[1;1;2000;2000${", "DECSERA"),
        ("\x1b[1;1;2000;2000;1;4;5;7$r", "DECCARA"),
        ("\x1b[2J", "ED (CSI J)"),
        ("\x1b[?2J", "DECSED"),
        ("\x1b[H\x1b[2000L", "a scroll (RI, SD, IL)"),
        ("\x1b[2000S", "a scroll (LF, IND, SU, DL)"),
        // (The whole region's edits are taken first, then each row's: either names it.)
        ("\x1b[2000'}", "DECIC"),
        ("\x1b[2000'~", "DECDC"),
        // (DCH costs a sixteenth of a row: a few units a byte more than its bytes bring, so
        // only a long flood passes the budget; ICH writes each blank it inserts.)
        ("\x1b[2000@", "an insert (ICH, DECIC, SR)"),
        ("\x1b#8", "DECALN"),
        ("\x1bc", "RIS"),
        ("\x1b[?1049h\x1b[?1049l", "the alternate screen"),
    ];
    for (seq, name) in ops {
        let mut e = NativeEngine::new(size);
        let mut fed = 0u64;
        for _ in 0..100_000 {
            e.feed(seq);
            fed += seq.len() as u64;
            if e.limit_passed().is_some() {
                break;
            }
        }
        let m = e
            .limit_passed()
            .unwrap_or_else(|| panic!("{name}: no limit"));
        assert!(m.contains(name), "{name}: {m}");
        assert!(e.work_done() <= WORK_BASE + WORK_PER_BYTE * fed, "{name}");
        // Skipped from now on: more of it costs nothing.
        let done = e.work_done();
        e.feed(seq);
        assert_eq!(e.work_done(), done, "{name}");
    }
    // Resizes are made whatever the budget says, and counted.
    let mut e = NativeEngine::new(size);
    for i in 0..8 {
        e.resize(if i % 2 == 0 {
            Size { cols: 2, rows: 1 }
        } else {
            size
        });
    }
    assert_eq!(e.size(), size);
    assert!(e
        .limit_passed()
        .is_some_and(|m| m.contains("(a resize passed it)")));
}

/// No committed cast comes near the work budget: the screens are the same with it as
/// without it (the most work per byte of any cast is printed with `--nocapture`).
#[test]
fn every_committed_cast_replays_far_within_the_work_budget() {
    use crate::term::{WORK_BASE, WORK_PER_BYTE};
    let mut most = (0.0f64, String::new());
    for path in casts() {
        let Ok(reader) = crate::cast::open(&path) else {
            continue;
        };
        let mut e = NativeEngine::new(reader.header().term.size);
        let mut fed = 0u64;
        for event in reader.flatten() {
            match &event.data {
                EventData::Output(text) => {
                    e.feed(text);
                    fed += text.len() as u64;
                }
                EventData::Resize(size) => e.resize(*size),
                _ => {}
            }
        }
        assert_eq!(e.limit_passed(), None, "{}", path.display());
        let allowed = WORK_BASE + WORK_PER_BYTE * fed;
        assert!(
            e.work_done() < allowed / 4,
            "{}: {} of {allowed}",
            path.display(),
            e.work_done()
        );
        let per_byte = e.work_done() as f64 / fed.max(1) as f64;
        if per_byte > most.0 {
            most = (per_byte, path.display().to_string());
        }
    }
    println!("the most work per byte: {:.2} units ({})", most.0, most.1);
}

/// The shell marks of `screen` as `(letter, row, col, status)`.
fn marks(screen: &Screen) -> Vec<(char, i32, u16, Option<i32>)> {
    screen
        .state
        .shell_marks
        .iter()
        .map(|m| (m.kind.letter(), m.row, m.col, m.status))
        .collect()
}

#[test]
fn shell_marks_stay_on_their_rows_scroll_away_and_go_with_an_erase() {
    let mut e = NativeEngine::new(Size { cols: 10, rows: 4 });
    // A prompt, a command, its output and its end, as bash with OSC 133 sends them.
    e.feed("\x1b]133;A\x07$ \x1b]133;B\x07ls\r\n\x1b]133;C\x07a\r\nb\r\n\x1b]133;D;2\x07");
    let s = e.screen();
    assert_eq!(
        marks(&s),
        [
            ('A', 0, 0, None),
            ('B', 0, 2, None),
            ('C', 1, 0, None),
            ('D', 3, 0, Some(2))
        ]
    );
    assert_eq!(s.state.commands_ended, 1);
    // Two more lines: the first two rows scroll into the scrollback, their marks with them.
    e.feed("\x1b]133;A\x1b\\$ x\r\ny\r\nz");
    assert_eq!(
        marks(&e.screen()),
        [
            ('A', -2, 0, None),
            ('B', -2, 2, None),
            ('C', -1, 0, None),
            ('D', 1, 0, Some(2)),
            ('A', 1, 0, None)
        ]
    );
    // An erase of the screen takes the screen's marks, not the scrollback's; an erased cell
    // takes its own.
    e.feed("\x1b[H\x1b[2J\x1b]133;A\x07$ \x1b]133;B\x07\r\x1b[K");
    assert_eq!(
        marks(&e.screen()),
        [('A', -2, 0, None), ('B', -2, 2, None), ('C', -1, 0, None)]
    );
    // A D with no C open ends no command; the alternate screen shows none of the main's.
    e.feed("\x1b]133;D;0\x07\x1b[?1049h");
    let s = e.screen();
    assert_eq!(s.state.commands_ended, 1);
    assert_eq!(marks(&s), []);
    e.feed("\x1b[?1049l\x1b[3J");
    assert_eq!(marks(&e.screen()), [('D', 0, 0, Some(0))]);
}

#[test]
fn shell_marks_move_with_their_text_on_a_resize_and_are_bounded_per_row() {
    let mut e = NativeEngine::new(Size { cols: 10, rows: 5 });
    // A line of 14 characters wraps; the mark at its 12th (`l`) is on the second row.
    e.feed("abcdefghijk\x1b]633;C\x07lmn\r\n");
    assert_eq!(marks(&e.screen()), [('C', 1, 1, None)]);
    e.resize(Size { cols: 20, rows: 5 });
    assert_eq!(marks(&e.screen()), [('C', 0, 11, None)]);
    e.resize(Size { cols: 6, rows: 5 });
    // (The rewrap keeps the cursor's row: the rows above it go into the scrollback.)
    let s = e.screen();
    assert_eq!(marks(&s), [('C', -1, 5, None)]);
    assert_eq!(s.state.scrollback.last(1), ["ghijkl"]);
    // A flood of marks on one row keeps the last MAX_ROW_MARKS.
    let mut e = NativeEngine::new(Size { cols: 10, rows: 3 });
    for _ in 0..1000 {
        e.feed("\x1b]133;A\x07");
    }
    e.feed("\x1b]133;D;7\x07");
    let m = marks(&e.screen());
    assert_eq!(m.len(), crate::term::MAX_ROW_MARKS);
    assert_eq!(m.last(), Some(&('D', 0, 0, Some(7))));
    // VS Code's E and P change nothing; an unknown letter is unsupported.
    e.feed("\x1b]633;E;ls\x07\x1b]633;P;Cwd=/\x07\x1b]133;Z\x07");
    assert_eq!(marks(&e.screen()).len(), crate::term::MAX_ROW_MARKS);
    assert_eq!(e.unsupported().iter().collect::<Vec<_>>(), [("OSC 133", 1)]);
}
