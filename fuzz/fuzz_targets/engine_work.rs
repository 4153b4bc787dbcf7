//! The native engine's work per byte of output (issue 41): whatever the bytes, on a screen
//! of up to 2000x2000 cells, a replay takes at most its work budget (`WORK_BASE` cells and
//! `WORK_PER_BYTE` more for each byte, shared by REP, the rectangle operations, erases,
//! scrolls, inserts and deletes, and resizes) and the resizes made past it (two screens each
//! at most: a resize is always made), and the time it takes stays within what that work
//! costs: an operation that costs a screen and is not counted is found as a slow input.
//!
//! Input: two bytes for the size (`byte % 16 + 1` times 125 columns, `byte % 16 + 1` times
//! 125 rows: 125 to 2000, within `MAX_CELLS`), then output; a NUL followed by two bytes is a
//! resize to a size read the same way.
#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use tuicast::size::{Size, MAX_CELLS};
use tuicast::term::{Engine, NativeEngine, WORK_BASE, WORK_PER_BYTE};

/// Marks a resize in the input.
const RESIZE: u8 = 0;

/// The time one unit of work may take, generously (an instrumented build is several times
/// slower than a release one): a budget's worth at most 20 s, libFuzzer's `-timeout`.
const PER_UNIT: Duration = Duration::from_nanos(100);

fn size(c: u8, r: u8) -> Size {
    let cols = (u16::from(c) % 16 + 1) * 125;
    let mut rows = (u16::from(r) % 16 + 1) * 125;
    while u64::from(cols) * u64::from(rows) > MAX_CELLS {
        rows -= 125;
    }
    Size { cols, rows }
}

fuzz_target!(|data: &[u8]| {
    let [c, r, rest @ ..] = data else {
        return;
    };
    let start = Instant::now();
    let mut engine = NativeEngine::new(size(*c, *r));
    let mut rest = rest;
    loop {
        let end = rest.iter().position(|&b| b == RESIZE).unwrap_or(rest.len());
        engine.feed(&String::from_utf8_lossy(&rest[..end]));
        match &rest[end..] {
            [RESIZE, c, r, more @ ..] => {
                engine.resize(size(*c, *r));
                rest = more;
            }
            _ => break,
        }
    }
    let elapsed = start.elapsed();
    let bytes = data.len() as u64;
    // A resize is made even past the budget (the screen must have the size it was given): each
    // costs the old and the new screen at most.
    let resizes = data.iter().filter(|&&b| b == RESIZE).count() as u64;
    let allowed = WORK_BASE + WORK_PER_BYTE * bytes + resizes * 2 * MAX_CELLS;
    let work = engine.work_done();
    assert!(
        work <= allowed,
        "{work} units of work for {bytes} bytes, more than {allowed}"
    );
    // The screens the engine was made with and resized to, and the budget's worth of work.
    let screens = 2 + data.iter().filter(|&&b| b == RESIZE).count() as u64;
    let cost = PER_UNIT * u32::try_from(work + screens * MAX_CELLS).unwrap_or(u32::MAX);
    assert!(
        elapsed <= cost.max(Duration::from_secs(1)),
        "{bytes} bytes took {elapsed:?} for {work} units of work"
    );
    let _ = engine.screen();
});
