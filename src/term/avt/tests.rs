//! Tests of the avt layer's fixes and fast paths (each fast path against the slow one).

use super::*;

#[test]
fn erased_cells_take_only_the_background() {
    for erase in [
        "\x1b[K", "\x1b[2J", "\x1b[X", "\x1b[L", "\x1b[M", "\x1b[@", "\x1b[P", "\x1b[S",
    ] {
        let s = screen(&format!("\x1b[2;1H\x1b[1;4;7;31;44m{erase}"));
        let col = match erase {
            "\x1b[X" | "\x1b[@" => 0,
            "\x1b[P" => 9,
            _ => 5,
        };
        let row = if matches!(erase, "\x1b[M" | "\x1b[S") {
            3
        } else {
            1
        };
        let cell = &s.rows[row][col];
        assert_eq!(cell.bg, Color::Indexed(4), "{erase:?}");
        assert_eq!(cell.fg, Color::Default, "{erase:?}");
        assert!(cell.attrs.is_empty(), "{erase:?}");
    }
    // Printing after an erase still uses the whole pen.
    let s = screen("\x1b[1;31;44m\x1b[Kx");
    assert!(s.rows[0][0].attrs.bold && s.rows[0][0].fg == Color::Indexed(1));
    // A line scrolled in by a wrap at the bottom, and by a line feed.
    let s = screen("\x1b[4;1H\x1b[7;41m0123456789ab");
    assert!(s.rows[3][1].attrs.inverse && s.rows[3][2].bg == Color::Indexed(1));
    assert!(!s.rows[3][2].attrs.inverse);
    let s = screen("\x1b[4;1H\x1b[7;41m\n");
    assert!(!s.rows[3][0].attrs.inverse && s.rows[3][0].bg == Color::Indexed(1));
}

#[test]
fn deccolm_is_ignored_by_default() {
    let mut e = AvtEngine::new(Size { cols: 80, rows: 4 });
    e.feed("hello\x1b[2;3r\x1b[3;2H\x1b[?3h");
    let s = e.screen();
    assert_eq!(s.size, Size { cols: 80, rows: 4 });
    assert_eq!(s.row_text(0), "hello", "not cleared");
    assert_eq!((s.cursor.row, s.cursor.col), (2, 1), "not moved");
    e.feed("\x1b[4;1Hkeep\x1b[3;1H\n\nx");
    let s = e.screen();
    assert_eq!(
        (s.row_text(2).as_str(), s.row_text(3).as_str()),
        ("x", "keep"),
        "the scroll region is kept: the line feeds scrolled rows 2 and 3 only"
    );
    e.feed("\x1b[?3l");
    assert_eq!(e.screen().size, Size { cols: 80, rows: 4 });
}

#[test]
fn deccolm_switches_to_132_columns_and_back_with_the_option() {
    let options = EngineOptions::default().with_deccolm(true);
    let mut e = AvtEngine::with_options(Size { cols: 80, rows: 4 }, options);
    e.feed("hello\x1b[2;3r\x1b[?3h");
    let s = e.screen();
    assert_eq!(s.size, Size { cols: 132, rows: 4 });
    assert_eq!(s.row_text(0), "");
    assert_eq!((s.cursor.row, s.cursor.col), (0, 0));
    e.feed("\x1b[4;1H\n\x1b[1;132Hx");
    let s = e.screen();
    assert_eq!(s.rows[0][131].text, "x");
    assert_eq!(
        s.row_text(3),
        "",
        "margins were reset: the line feed scrolled"
    );
    e.feed("\x1b[?3l");
    assert_eq!(e.screen().size, Size { cols: 80, rows: 4 });
}

#[test]
fn national_and_graphic_character_sets() {
    let s = screen("\x1b(A#\x1b(B#\x1b)0\x0eq`~\x0fq\x1b*K\x1bN}\x1b+0\x1bo`\x1b(B\x0f");
    assert_eq!(s.row_text(0), "£#─◆·qü◆");
    let s = screen("\x1b(0\x1b7\x1b(Bq\x1b8\x1b[3Gq");
    assert_eq!(s.row_text(0), "q ─", "DECRC restores the character sets");
}

#[test]
fn reverse_index_in_origin_mode_moves_up() {
    let s = screen("\x1b[2;3r\x1b[?6h\x1b[2;1Hb\x1bMa");
    assert_eq!(s.row_text(1), " a");
    assert_eq!(s.row_text(2), "b");
    // At the top margin it scrolls the region down.
    let s = screen("\x1b[2;3r\x1b[2;1Ha\x1bMb");
    assert_eq!(
        (s.row_text(1).as_str(), s.row_text(2).as_str()),
        (" b", "a")
    );
}

#[test]
fn a_capped_rep_leaves_the_screen_that_every_repeat_would() {
    let cases = [
        (Size { cols: 10, rows: 4 }, "x", ""),
        (Size { cols: 9, rows: 3 }, "é", ""),
        (Size { cols: 8, rows: 5 }, "y", "\x1b[2;4r\x1b[3;5H"),
        (Size { cols: 8, rows: 3 }, "z", "\x1b[?7l"),
    ];
    for (size, ch, setup) in cases {
        for n in [1u16, 7, 39, 40, 41, 57, 100, 1001, 65535] {
            let mut capped = AvtEngine::new(size);
            capped.feed(&format!("{setup}ab{ch}\x1b[{n}b"));
            let mut every = AvtEngine::new(size);
            every.feed(&format!("{setup}ab{}", ch.repeat(usize::from(n) + 1)));
            // (The scrollback differs: a capped REP scrolls fewer lines off.)
            let view = |e: &AvtEngine| Screen {
                state: Default::default(),
                ..e.screen()
            };
            assert_eq!(view(&capped), view(&every), "{size} {ch:?} {setup:?} {n}");
        }
    }
    let size = Size { cols: 80, rows: 24 };
    assert_eq!(rep_count(65535, size, 1), 1920 + (65535 - 1920) % 80);
    assert_eq!(rep_count(0, size, 1), 1);
}

#[test]
fn without_a_scrollback_line_feeds_are_dropped_in_batches_with_the_same_screens() {
    let size = Size { cols: 10, rows: 4 };
    let mut none = AvtEngine::with_scrollback(size, 0);
    let mut kept = AvtEngine::with_scrollback(size, 100);
    // Line feeds, wrapping prints, a switch of screens and resizes between them.
    let text = "1\r\n2\r\n3\n\n\rabcdefghijklmnop\n\x1b[?1049hx\ny\n\x1b[?1049l\r\nz";
    for (i, piece) in text.split_inclusive('\n').enumerate() {
        none.feed(piece);
        kept.feed(piece);
        assert_eq!(
            none.screen().text(),
            kept.screen().text(),
            "after {piece:?}"
        );
        let cols = if i % 2 == 0 { 7 } else { 10 };
        none.resize(Size { cols, rows: 4 });
        kept.resize(Size { cols, rows: 4 });
    }
    none.feed(&"\n".repeat(LF_BATCH * 3 + 5));
    assert_eq!(none.terminal.lines().count(), 4);
    none.feed("\x1b[Hend");
    assert_eq!(none.screen().row_text(0), "end");
}

/// Pieces of output around plain lines: lines that wrap, bare CR and LF, colours, a
/// scroll region, cursor moves, conceal, a link, a single shift, a combining mark, a wide
/// character, the alternate screen, a sequence cut in two.
fn jump_piece() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::strategy::Strategy;
    proptest::sample::select(vec![
        "ab\r\n",
        "line\r\n",
        "a long line that wraps twice here\r\n",
        "x\n",
        "\r\n",
        "\r",
        "\n",
        "\x1b[31m",
        "\x1b[0m",
        "\x1b[44;1m",
        "\x1b[2;4r",
        "\x1b[r",
        "\x1b[H",
        "\x1b[3;5H",
        "\x1b[8m",
        "\x1b[28m",
        "\x1b]8;;http://x\x1b\\",
        "\x1b]8;;\x1b\\",
        "\x1bN",
        "e\u{301}",
        "e\u{301}\re",
        "0123456789ab\tZ",
        "0123456789ab\x1b[ZZ",
        "+\x1b[1b\x1b[2b",
        "\x1b[3b",
        "cd\x1b[2b",
        "ab\x1b[\n2b",
        "\x1b[1;2m",
        "\x1b[22m",
        "\x1b[1\"q",
        "\x1b[0\"q",
        "\x1b[?2K",
        "\x1b[?J",
        "\x1b[?1J",
        "\x1b[2 @",
        "\x1b[ A",
        "\u{4e2d}",
        "\x1b[?1049h",
        "\x1b[?1049l",
        "\x1b[3",
        "\x1b[4h",
        "\x1b[4l",
        // Every fast path against the character-at-a-time one: C0 controls, ESC
        // sequences, charsets, SGR avt misreads, erases, REP, modes, strings.
        "\x1b(0qx\x1b(B",
        "\x1b)0\x0eqx\x0f",
        "\x1b*0\x1bNq",
        "\x1b7",
        "\x1b8",
        "\x1bM",
        "\x1bD",
        "\x1bE",
        "\x1b=",
        "\x1b>",
        "\x1b#8",
        "\x1b[?25l",
        "\x1b[?7l",
        "\x1b[?7h",
        "\x1b[?6h",
        "\x1b[?6l",
        "\x1b[6m",
        "\x1b[4:3m",
        "\x1b[58;5;1m",
        "\x1b[38;2;1;2;3m",
        "\x1b[5J",
        "\x1b[2J",
        "\x1b[1 q",
        "\x1b[2K",
        "\x1b[3X",
        "\x1b[2P",
        "\x1b[2@",
        "\x1b[10b",
        "\x1b[2S",
        "\x1b[2T",
        "\x1b[L",
        "\x1b[M",
        "\x07\x08\t\x0b\x0c",
        "\x1b]0;title\x07",
        "\x1b]2;t\x1b\\",
        "\x1bP$qm\x1b\\",
        "\x1b[?1049h\x1b[2;3H",
        "\x1b[?1000h\x1b[?1006h",
        "\x1b[!p",
        "\x1bc",
        "\x7f",
        "\u{2500}\u{2502}\u{e9}",
    ])
    .prop_map(str::to_string)
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(1000))]

    /// Fed at once (where many plain lines are skipped, and whole sequences take the
    /// fast paths), the output leaves the same screen, cursor, state and scrollback as fed
    /// a character at a time (where no line is skipped and every sequence is stepped).
    #[test]
    fn skipping_plain_lines_that_scroll_away_changes_nothing(
        pieces in proptest::collection::vec((jump_piece(), 0usize..40), 1..12),
        scrollback in proptest::sample::select(vec![0usize, 3, 40]),
    ) {
        let size = Size { cols: 12, rows: 5 };
        let mut text = String::new();
        for (piece, lines) in &pieces {
            text.push_str(piece);
            for n in 0..*lines {
                match n % 3 {
                    0 => text.push_str(&format!("{n} plain\r\n")),
                    1 => text.push_str(&format!("\x1b[0{};3{}m{n} dir\x1b[0m\r\n", n % 2, n % 8)),
                    _ => text.push_str(&format!("{n} \x1b[44mbg\x1b[K\r\n")),
                }
            }
        }
        let mut whole = AvtEngine::with_scrollback(size, scrollback);
        let mut by_char = AvtEngine::with_scrollback(size, scrollback);
        whole.feed(&text);
        let mut buf = [0u8; 4];
        for ch in text.chars() {
            by_char.feed(ch.encode_utf8(&mut buf));
        }
        proptest::prop_assert_eq!(whole.screen(), by_char.screen());
    }
}

#[test]
fn plain_lines_that_scroll_away_are_skipped_only_where_nothing_stays() {
    let size = Size { cols: 12, rows: 5 };
    let e = AvtEngine::with_scrollback(size, 0);
    let lines = |n: usize| (0..n).map(|i| format!("{i}\r\n")).collect::<String>();
    // A screenful before the cut and one after it.
    assert_eq!(e.jump_span(&lines(10)), Some((0, 15, 5)));
    // A screenful after the cut; before it, what is there (the cursor decides).
    assert_eq!(e.jump_span(&lines(6)), Some((0, 3, 1)));
    assert_eq!(e.jump_span(&lines(5)), None);
    // From after the line of the last escape other than SGR and EL; never cutting after
    // a bare LF.
    let text = format!("\x1b[2;3Hred\r\n{}", lines(12));
    assert_eq!(e.jump_span(&text), Some((11, 11 + 7 * 3, 7)));
    let text = format!("\x1b[31mred\x1b[K\r\n{}", lines(12));
    assert_eq!(e.jump_span(&text), Some((0, 13 + 7 * 3, 8)));
    assert_eq!(e.jump_span(&"x\n".repeat(20)), None);
    // The scrollback's lines must be pushed out too.
    let kept = AvtEngine::with_scrollback(size, 40);
    assert_eq!(kept.jump_span(&lines(45)), None);
    assert_eq!(kept.jump_span(&lines(46)), Some((0, 3, 1)));
    // A scroll region keeps rows that a skip would lose.
    let mut region = AvtEngine::with_scrollback(size, 0);
    region.feed("\x1b[2;4r");
    assert!(!region.can_jump());
    let mut e = AvtEngine::with_scrollback(size, 0);
    e.feed(&lines(1000));
    assert_eq!(e.screen().row_text(3), "999");
    assert_eq!((e.screen().cursor.row, e.screen().cursor.col), (4, 0));
}

#[test]
fn lines_a_wrap_scrolled_off_are_kept_across_a_switch_to_the_alternate_screen() {
    // The wrap scrolls `top` off; nothing collects it before the switch in the same
    // event but the switch itself.
    let size = Size { cols: 12, rows: 3 };
    let text = "top\r\n\r\n0123456789abZ\x1b[?1049h";
    let mut e = AvtEngine::with_scrollback(size, 10);
    e.feed(text);
    assert_eq!(e.screen().state.scrollback, vec!["top".to_string()].into());
    let mut by_char = AvtEngine::with_scrollback(size, 10);
    for ch in text.chars() {
        by_char.feed(&ch.to_string());
    }
    assert_eq!(e.screen(), by_char.screen());
}

#[test]
fn lines_scrolled_off_in_one_event_are_dropped_as_they_go() {
    // avt keeps scrolled-off lines until gc; one event of many line feeds (or wrapping
    // prints) must not keep them all.
    let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
    e.feed(&"\n".repeat(100_000));
    assert!(e.terminal.lines().count() <= 4, "line feeds");
    e.feed(&"x".repeat(FEED_CHUNK * 3));
    assert!(
        e.terminal.lines().count() <= 4 + FEED_CHUNK / 10 + 1,
        "wrapping prints"
    );
    e.feed("\x1b[1000S\x1b[1000S\n\x1b[Hend");
    assert_eq!(e.terminal.lines().count(), 4);
    assert_eq!(e.screen().row_text(0), "end");
}

#[test]
fn setting_reports_follow_the_pen_the_margins_and_the_cursor_shape() {
    let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
    let r = |e: &AvtEngine, pt: &str| e.setting_report(pt).unwrap();
    assert_eq!(
        (r(&e, "m"), r(&e, "r"), r(&e, " q")),
        ("0m".into(), "1;4r".into(), "2 q".into())
    );
    e.feed("\x1b[1;4;7;31;48;5;200m\x1b[2;3r\x1b[5 q");
    // Bold red is reported bright, as xterm shows it (`boldColors`), and the 256-colour and
    // direct forms with colons, as xterm 379 writes them.
    assert_eq!(r(&e, "m"), "0;1;4;7;91;48:5:200m");
    assert_eq!(r(&e, "r"), "2;3r");
    assert_eq!(r(&e, " q"), "5 q");
    e.feed("\x1b[0;2;8;94;48;2;1;2;3m\x1b[4 q");
    assert_eq!(r(&e, "m"), "0;8;2;94;48:2::1:2:3m");
    assert_eq!(r(&e, " q"), "4 q");
    assert_eq!(e.setting_report("x"), None);
}

#[test]
fn an_overwritten_cell_loses_its_combining_marks() {
    // The same base character printed again is a new cell (neovim redraws accented text
    // so); the marks of other cells stay.
    assert_eq!(screen("e\u{301}x\rey").row_text(0), "ey");
    assert_eq!(screen("e\u{301}a\u{301}\rx").row_text(0), "xa\u{301}");
    assert_eq!(screen("e\u{301}\re\u{302}").row_text(0), "e\u{302}");
    // Over the last column with auto-wrap off, after a wrap, and by a wide character.
    let s = screen("\x1b[?7l\x1b[1;10He\u{301}e");
    assert_eq!(s.rows[0][9].text, "e");
    let s = screen("\x1b[2;1He\u{301}\x1b[1;10Hxe");
    assert_eq!(s.rows[1][0].text, "e");
    let s = screen("e\u{301}a\u{301}\r\u{4e2d}");
    assert_eq!(s.row_text(0), "\u{4e2d}");
    // A repeat overwrites too.
    assert_eq!(screen("ae\u{301}\rx\x1b[b").row_text(0), "xx");
}

#[test]
fn combining_marks_move_and_go_with_their_cells() {
    // As tmux (and xterm) do: inserted and deleted characters move them, erases take
    // them (even off a space, which printing the space again would not show).
    for (input, row) in [
        ("e\u{301}\r\x1b[@", " e\u{301}"),
        ("e\u{301}\r\x1b[2@", "  e\u{301}"),
        ("xe\u{301}\r\x1b[P", "e\u{301}"),
        ("xe\u{301}\r\x1b[2P", ""),
        ("e\u{301}\r\x1b[4hx", "xe\u{301}"),
        (" \u{301}a\u{301}\r\x1b[K", ""),
        (" \u{301}a\u{301}\r\x1b[X", " a\u{301}"),
        ("a\u{301} \u{301}\x1b[1K", ""),
        (" \u{301}\x1b[2K", ""),
        (" \u{301}\x1b[J", " \u{301}"),
        (" \u{301}\r\x1b[J", ""),
        (" \u{301}\x1b[1J", ""),
        (" \u{301}\x1b[2J", ""),
        // The last column: ICH pushes it off.
        ("\x1b[1;10He\u{301}\r\x1b[@", ""),
    ] {
        assert_eq!(screen(input).row_text(0), row, "{input:?}");
    }
    // On another row they stay.
    let s = screen("e\u{301}\r\n\x1b[@\x1b[P\x1b[X\x1b[2K");
    assert_eq!(s.row_text(0), "e\u{301}");
}

#[test]
fn a_tab_at_the_pending_wrap_keeps_the_wrap() {
    // xterm, tmux and xterm.js: the tab finds no stop, the wrap stays pending, and the
    // next character wraps.
    for tab in ["\t", "\x1b[I", "\x1b[3I"] {
        let s = screen(&format!("0123456789{tab}Z"));
        assert_eq!(
            (s.row_text(0).as_str(), s.row_text(1).as_str()),
            ("0123456789", "Z"),
            "{tab:?}"
        );
    }
    // Before the last column a tab still stops on it.
    assert_eq!(screen("012345678\tZ").row_text(0), "012345678Z");
}

#[test]
fn a_backward_tab_at_the_pending_wrap_does_nothing() {
    // As xterm (379, run headless) and xterm.js: CBT leaves the cursor and its pending
    // wrap alone (tmux moves back from the last column).
    for cbt in ["\x1b[Z", "\x1b[Z\x1b[Z", "\x1b[2Z"] {
        let s = screen(&format!("0123456789{cbt}Z"));
        assert_eq!(
            (s.row_text(0).as_str(), s.row_text(1).as_str()),
            ("0123456789", "Z"),
            "{cbt:?}"
        );
    }
    // Anywhere else it moves back to the stop before.
    assert_eq!(screen("012345678\x1b[ZZ").row_text(0), "01234567Z");
    assert_eq!(screen("0123456789\x1b[D\x1b[ZZ").row_text(0), "Z123456789");
}

#[test]
fn rep_repeats_only_a_character_just_printed() {
    // As xterm's `doparsing` keeps `lastchar` (vttest 11.7); tmux and xterm.js agree but
    // where said.
    for (input, row) in [
        ("+\x1b[1b\x1b[2b", "++"),
        ("+\x1b[2b", "+++"),
        ("+\r\x1b[2b", "+"),
        ("ab\x1b[C\x1b[2b", "ab"),
        ("+\x1b[31m\x1b[2b", "+"),
        // xterm's own choices, where tmux and xterm.js differ: after a combining mark the
        // base character (tmux: nothing; xterm.js: with the mark); after DEL nothing
        // (both: the character before it).
        ("e\u{301}\x1b[2b", "e\u{301}ee"),
        ("ab\x7f\x1b[2b", "ab"),
        // What was printed, not what is before the cursor.
        ("ab\x1b[Dc\x1b[b", "acc"),
        ("\x1b[1;9Hxy\x1b[2b", "        xy\nyy"),
        // Through the character set in use now, as printed anew.
        ("\x1b(0q\x1b[b", "──"),
        ("\x1b*0\x1bNq\x1b[2b", "─qq"),
        // A control inside the REP sequence runs first and leaves the character (as in
        // xterm 379, run headless).
        ("ab\x1b[\n2b", "ab\n  bb"),
        ("ab\x1b[\r2b", "bb"),
        ("ab\x1b[2\n;b", "ab\n  bb"),
        // Insert mode and the last column with auto-wrap off (xterm too).
        ("\x1b[4hab\x1b[Hcd\x1b[2b", "cdddab"),
        ("\x1b[?7l\x1b[1;9Habc\x1b[2b", "        ac"),
    ] {
        let s = screen(input);
        let text = format!("{}\n{}", s.row_text(0), s.row_text(1));
        assert_eq!(text.trim_end(), row, "{input:?}");
    }
}

#[test]
fn rep_repeats_the_character_printed_before_a_resize() {
    // (A run of plain text leaves the column of its last character, read when REP
    // needs it: the resize reads it first.)
    let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
    e.feed("012345678");
    e.resize(Size { cols: 5, rows: 4 });
    e.feed("\x1b[2b");
    let text = e.screen().text();
    assert!(text.trim_end().ends_with("56788\n8"), "{text:?}");
    let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
    e.feed("ab");
    e.resize(Size { cols: 20, rows: 4 });
    e.feed("\x1b[2b");
    assert_eq!(e.screen().row_text(0), "abbb");
}

#[test]
fn del_draws_nothing() {
    assert_eq!(screen("a\x7fb").row_text(0), "ab");
}
