//! Replay throughput of each engine on the conformance corpus (`tests/conformance/cases/`:
//! real programs recorded in tmux, committed, so this benchmark needs nothing generated).
//!
//! ```text
//! cargo bench --bench conformance
//! ```
//!
//! Three measurements per engine, all over every cast of the corpus:
//! - `pipeline/ENGINE`: cast files on disk → events → engine → every checkpoint's screen
//!   (what `cargo test` and `tuicast replay` do);
//! - `feed/ENGINE`: the engine alone, fed the output events already decoded in memory, with
//!   the resizes, and the final screen read once per cast;
//! - `feed/avt-raw`: avt's own `Vt`, the same way, without tuicast's layer (what the layer
//!   costs: character sets, DECCOLM, erase colours, combining marks, titles).
//!
//! Throughput is counted in bytes of `o` event data (UTF-8), the same for every benchmark.
//! See docs/performance.md for results.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, Throughput};
use tuicast::cast::{self, EventData};
use tuicast::replay;
use tuicast::size::Size;
use tuicast::term::EngineKind;

/// One cast of the corpus, decoded.
struct Cast {
    path: PathBuf,
    size: Size,
    /// Output text, or a resize.
    events: Vec<Step>,
}

enum Step {
    Output(String),
    Resize(Size),
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/cases");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/conformance/cases")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cast"))
        .collect();
    paths.sort();
    let casts: Vec<Cast> = paths.iter().map(|p| load(p)).collect();
    let output_bytes: u64 = casts
        .iter()
        .flat_map(|c| &c.events)
        .map(|s| match s {
            Step::Output(t) => t.len() as u64,
            Step::Resize(_) => 0,
        })
        .sum();
    let file_bytes: u64 = paths
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    eprintln!(
        "conformance bench: {} casts, {:.2} MB of files, {:.2} MB of output",
        casts.len(),
        file_bytes as f64 / 1e6,
        output_bytes as f64 / 1e6
    );

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();
    let mut group = c.benchmark_group("conformance");
    group.throughput(Throughput::Bytes(output_bytes));
    for kind in EngineKind::ALL {
        group.bench_function(format!("pipeline/{kind}"), |b| {
            b.iter(|| pipeline(&casts, kind))
        });
        group.bench_function(format!("feed/{kind}"), |b| b.iter(|| feed(&casts, kind)));
    }
    group.bench_function("feed/avt-raw", |b| b.iter(|| feed_raw_avt(&casts)));
    group.finish();
    c.final_summary();
}

fn load(path: &Path) -> Cast {
    let reader = cast::open(path).unwrap_or_else(|e| panic!("{e}"));
    let size = reader.header().term.size;
    let mut events = Vec::new();
    for event in reader {
        match event.unwrap_or_else(|e| panic!("{e}")).data {
            EventData::Output(text) => events.push(Step::Output(text)),
            EventData::Resize(size) => events.push(Step::Resize(size)),
            _ => {}
        }
    }
    Cast {
        path: path.to_path_buf(),
        size,
        events,
    }
}

/// Every cast replayed from its file, every checkpoint's screen built.
fn pipeline(casts: &[Cast], kind: EngineKind) -> usize {
    let mut n = 0;
    for c in casts {
        let reader = cast::open(&c.path).expect("open cast");
        n += black_box(replay::checkpoints(reader, kind).expect("replay")).len();
    }
    n
}

/// The engine fed pre-decoded output; the final screen read once per cast.
fn feed(casts: &[Cast], kind: EngineKind) -> usize {
    let mut n = 0;
    for c in casts {
        let mut engine = kind.create(c.size);
        for step in &c.events {
            match step {
                Step::Output(text) => engine.feed(text),
                Step::Resize(size) => engine.resize(*size),
            }
        }
        n += black_box(engine.screen()).rows.len();
    }
    n
}

/// avt's own `Vt` without tuicast's layer, fed the same way.
fn feed_raw_avt(casts: &[Cast]) -> usize {
    let mut n = 0;
    for c in casts {
        let mut vt = avt::Vt::builder()
            .size(c.size.cols as usize, c.size.rows as usize)
            .scrollback_limit(0)
            .build();
        for step in &c.events {
            match step {
                Step::Output(text) => {
                    black_box(vt.feed_str(text));
                }
                Step::Resize(size) => {
                    black_box(vt.resize(size.cols as usize, size.rows as usize));
                }
            }
        }
        n += black_box(vt.view().count());
    }
    n
}
