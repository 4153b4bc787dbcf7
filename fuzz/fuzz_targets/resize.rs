//! Replay with resizes to every size down to 1x1, interleaved with output, in both engines:
//! never a panic, and every screen has the size the engine was given (at least `MIN_COLS`
//! wide, one row tall) with the cursor on it.
//!
//! Input: two bytes for the first size, then output; a NUL byte followed by two bytes is a
//! resize (NUL does nothing in terminal output, so the output of a real cast keeps its
//! meaning). Sizes are `byte % 41` columns by `byte % 13` rows, 0 included (engines clamp it).
//! After the input, the screen is narrowed one column at a time to 1 column, then lowered
//! one row at a time to 1 row, printing a wide character at every size.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tuicast::size::Size;
use tuicast::term::{Engine, EngineKind};

/// Marks a resize in the input.
const RESIZE: u8 = 0;

fuzz_target!(|data: &[u8]| {
    let [c, r, rest @ ..] = data else {
        return;
    };
    for kind in EngineKind::ALL {
        let first = size(*c, *r);
        let mut engine = kind.create(first);
        check(kind, &*engine, first);
        let mut rest = rest;
        loop {
            let end = rest.iter().position(|&b| b == RESIZE).unwrap_or(rest.len());
            engine.feed(&String::from_utf8_lossy(&rest[..end]));
            check(kind, &*engine, engine.size());
            match &rest[end..] {
                [RESIZE, c, r, more @ ..] => {
                    let to = size(*c, *r);
                    engine.resize(to);
                    check(kind, &*engine, to);
                    rest = more;
                }
                _ => break,
            }
        }
        // Every width down to 1, then every height down to 1.
        let mut to = engine.size();
        while to.cols > 1 || to.rows > 1 {
            if to.cols > 1 {
                to.cols -= 1;
            } else {
                to.rows -= 1;
            }
            engine.resize(to);
            check(kind, &*engine, to);
            engine.feed("\u{754c}x\u{301}\u{1F600}");
            check(kind, &*engine, to);
        }
        // Renders read every cell: once per input (they are the slow part of an execution).
        let screen = engine.screen();
        let _ = tuicast::render::text(&screen);
        let _ = tuicast::render::json(&screen);
    }
});

fn size(c: u8, r: u8) -> Size {
    Size {
        cols: (c % 41) as u16,
        rows: (r % 13) as u16,
    }
}

/// The engine's screen has the size it was given (as the engine clamps it), every row
/// `cols` cells, and the cursor on the grid.
fn check(kind: EngineKind, engine: &dyn Engine, asked: Size) {
    let want = asked.at_least_min();
    let screen = engine.screen();
    assert_eq!(
        engine.size(),
        want,
        "{kind:?}: engine size after asking {asked:?}"
    );
    assert_eq!(
        screen.size, want,
        "{kind:?}: screen size after asking {asked:?}"
    );
    assert_eq!(screen.rows.len(), want.rows as usize, "{kind:?}: rows");
    for row in &screen.rows {
        assert_eq!(row.len(), want.cols as usize, "{kind:?}: cells in a row");
    }
    assert!(
        screen.cursor.row < want.rows,
        "{kind:?}: cursor row {:?} on {want:?}",
        screen.cursor
    );
    assert!(
        screen.cursor.col <= want.cols,
        "{kind:?}: cursor col {:?} on {want:?}",
        screen.cursor
    );
}
