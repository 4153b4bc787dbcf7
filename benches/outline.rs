//! The outline of a screen (`Screen::outline`, run at every checkpoint that inspects, masks
//! or anchors a region): screens tiled with 3x3 boxes, the worst case the issue found (each
//! box was compared with every other), at four sizes. The time should grow with the cells.
//!
//! ```text
//! cargo bench --bench outline
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use tuicast::size::Size;
use tuicast::term::{EngineKind, Screen};

/// A `cols`x`rows` screen of 3x3 boxes with a letter in each.
fn tiny_boxes(cols: u16, rows: u16) -> Screen {
    let n = cols as usize / 3;
    let mut input = String::new();
    for _ in 0..rows as usize / 3 {
        input += &"┌─┐".repeat(n);
        input += "\r\n";
        input += &"│x│".repeat(n);
        input += "\r\n";
        input += &"└─┘".repeat(n);
        input += "\r\n";
    }
    let mut engine = EngineKind::Avt.create(Size { cols, rows });
    engine.feed(input.trim_end());
    engine.screen()
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();
    let mut group = c.benchmark_group("outline");
    for (cols, rows) in [(150, 63), (300, 126), (600, 252), (1200, 504)] {
        let screen = tiny_boxes(cols, rows);
        group.throughput(Throughput::Elements(u64::from(cols) * u64::from(rows)));
        group.bench_function(format!("tiny-boxes/{cols}x{rows}"), |b| {
            b.iter(|| black_box(screen.outline()))
        });
    }
    group.finish();
    c.final_summary();
}
