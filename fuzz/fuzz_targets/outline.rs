//! The outline (`Screen::outline`: boxes, blocks, highlights, bars) of any screen, never a
//! panic, and its parts where they say they are.
//!
//! Input: byte 0 the columns (1 to 120), byte 1 the rows (1 to 40), the rest output fed to
//! the native engine (line drawing with `ESC ( 0` included).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tuicast::size::Size;
use tuicast::term::EngineKind;

fuzz_target!(|data: &[u8]| {
    let [cols, rows, rest @ ..] = data else {
        return;
    };
    let size = Size {
        cols: u16::from(*cols % 120) + 1,
        rows: u16::from(*rows % 40) + 1,
    }
    .at_least_min();
    let mut engine = EngineKind::Native.create(size);
    engine.feed(&String::from_utf8_lossy(rest));
    let screen = engine.screen();
    let o = screen.outline();
    let (w, h) = (usize::from(size.cols), usize::from(size.rows));
    let inside = |outer: &tuicast::term::CellRect, inner: &tuicast::term::CellRect| {
        outer.row < inner.row
            && inner.row_end < outer.row_end
            && outer.col < inner.col
            && inner.col_end < outer.col_end
    };
    let mut names = std::collections::HashSet::new();
    for (i, b) in o.boxes.iter().enumerate() {
        let r = b.rect;
        assert!(r.row < r.row_end && r.row_end <= h && r.col < r.col_end && r.col_end <= w);
        assert!(names.insert(b.name.clone()), "two boxes named {}", b.name);
        if let Some(p) = b.parent {
            assert!(p != i && inside(&o.boxes[p].rect, &r), "box {i} in {p}");
        }
        assert!(b.separators.iter().all(|&s| s > r.row && s + 1 < r.row_end));
        assert!(o.find_box(&b.name).is_some());
    }
    for b in &o.blocks {
        let r = b.rect;
        assert!(r.row < r.row_end && r.row_end <= h && r.col < r.col_end && r.col_end <= w);
        assert_eq!(b.lines.len(), r.row_end - r.row);
        assert!(b.container.is_none_or(|k| k < o.boxes.len()));
    }
    for x in &o.highlights {
        assert!(x.row < h && x.cols.start < x.cols.end && x.cols.end <= w);
    }
    if let Some(s) = o.selected {
        assert!(s < o.highlights.len());
    }
});
