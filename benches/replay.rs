//! Replay throughput: the whole pipeline (cast file on disk → events → engine → screen text)
//! against the raw avt engine fed the same output already decoded in memory.
//!
//! Two corpora, both made by `scripts/bench-corpus.sh` into `target/bench-corpus/` (not
//! committed): `replay-30mb.cast`, long runs of real program output (group `replay`), and
//! `fullscreen-40mb.cast`, the full-screen sessions of the conformance corpus cycled (group
//! `fullscreen`: cursor moves, colours, line drawing, resizes). Each present corpus is
//! benched; set `TUICAST_BENCH_CAST` to bench another cast instead (group `replay`). Without
//! any corpus the benchmark prints how to make them and exits successfully.
//!
//! ```text
//! scripts/bench-corpus.sh                      # both (FULLSCREEN_ONLY=1: only the second)
//! cargo bench --bench replay
//! ```
//!
//! Throughput is counted in bytes of `o` event data (UTF-8), the same for every benchmark,
//! so the MB/s figures compare directly. See docs/performance.md for results.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, Throughput};
use tuicast::cast::{self, EventData};
use tuicast::replay;
use tuicast::size::Size;
use tuicast::term::EngineKind;

/// The corpora, relative to the crate root, with their benchmark groups.
const CORPORA: [(&str, &str); 2] = [
    ("replay", "target/bench-corpus/replay-30mb.cast"),
    ("fullscreen", "target/bench-corpus/fullscreen-40mb.cast"),
];

fn main() {
    let corpora: Vec<(&str, PathBuf)> = match std::env::var_os("TUICAST_BENCH_CAST") {
        Some(p) => vec![("replay", PathBuf::from(p))],
        None => CORPORA
            .iter()
            .map(|(group, rel)| (*group, Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)))
            .filter(|(_, path)| path.is_file())
            .collect(),
    };
    if corpora.is_empty() {
        eprintln!(
            "replay bench: skipped: no corpus in target/bench-corpus/\n\
             replay bench: make them with `scripts/bench-corpus.sh` (real program output, \
             ~2 minutes; FULLSCREEN_ONLY=1 for the full-screen one alone, seconds), or set \
             TUICAST_BENCH_CAST to a cast file"
        );
        return;
    }
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(10))
        .configure_from_args();
    for (name, path) in corpora {
        let corpus = Corpus::load(&path);
        eprintln!(
            "replay bench: {}: {:.1} MB file, {} output events, {:.1} MB of output, {}",
            path.display(),
            corpus.file_bytes as f64 / 1e6,
            corpus.outputs.len(),
            corpus.output_bytes as f64 / 1e6,
            corpus.size,
        );
        corpus.check_same_screen(&path);
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Bytes(corpus.output_bytes));
        bench_all(&mut group, &path, &corpus);
        group.finish();
    }
    c.final_summary();
}

fn bench_all(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    path: &Path,
    corpus: &Corpus,
) {
    // What the issue asks for: the whole pipeline against the raw engine.
    group.bench_function("pipeline/avt", |b| {
        b.iter(|| pipeline(path, EngineKind::Avt))
    });
    group.bench_function("pipeline/native", |b| {
        b.iter(|| pipeline(path, EngineKind::Native))
    });
    group.bench_function("raw-avt/no-scrollback", |b| {
        b.iter(|| raw_avt(corpus, true))
    });
    group.bench_function("raw-avt/Vt::new", |b| b.iter(|| raw_avt(corpus, false)));
    group.bench_function("pipeline/vt100", |b| {
        b.iter(|| pipeline(path, EngineKind::Vt100))
    });
    // Where the pipeline's time goes: reading the cast alone, and the engine adapter alone.
    group.bench_function("parts/read-cast", |b| b.iter(|| read_cast(path)));
    group.bench_function("parts/engine-avt-in-memory", |b| {
        b.iter(|| engine_in_memory(corpus, EngineKind::Avt))
    });
    group.bench_function("parts/engine-native-in-memory", |b| {
        b.iter(|| engine_in_memory(corpus, EngineKind::Native))
    });
}

/// One event the in-memory benchmarks replay.
enum Chunk {
    Output(String),
    Resize(Size),
}

/// The cast's output and resizes, decoded once, for the in-memory benchmarks.
struct Corpus {
    size: Size,
    outputs: Vec<Chunk>,
    output_bytes: u64,
    file_bytes: u64,
}

impl Corpus {
    fn load(path: &Path) -> Corpus {
        let reader = cast::open(path).unwrap_or_else(|e| panic!("{e}"));
        let size = reader.header().term.size;
        let mut outputs = Vec::new();
        for event in reader {
            let event = event.unwrap_or_else(|e| panic!("{e}"));
            match event.data {
                EventData::Output(text) => outputs.push(Chunk::Output(text)),
                EventData::Resize(size) => outputs.push(Chunk::Resize(size)),
                _ => {}
            }
        }
        let output_bytes = outputs
            .iter()
            .map(|c| match c {
                Chunk::Output(s) => s.len() as u64,
                Chunk::Resize(_) => 0,
            })
            .sum();
        let file_bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        Corpus {
            size,
            outputs,
            output_bytes,
            file_bytes,
        }
    }

    /// Says whether the pipeline and the raw engine end on the same text, so the two
    /// benchmarks are known to do the same work.
    fn check_same_screen(&self, path: &Path) {
        let pipeline = pipeline(path, EngineKind::Avt);
        let raw = raw_avt(self, true);
        if pipeline == raw {
            eprintln!("replay bench: pipeline and raw avt end on the same screen text");
        } else {
            eprintln!("replay bench: warning: pipeline and raw avt end on different text");
        }
    }
}

/// Cast file on disk → streaming reader → replay → final screen as text.
fn pipeline(path: &Path, kind: EngineKind) -> String {
    let reader = cast::open(path).expect("open cast");
    let checkpoints = replay::checkpoints(reader, kind).expect("replay cast");
    let end = checkpoints.last().expect("the end checkpoint");
    tuicast::render::text(&end.screen)
}

/// The raw avt engine fed the pre-decoded output. `no_scrollback` matches what tuicast
/// keeps (nothing above the screen); `Vt::new` keeps every line scrolled off.
fn raw_avt(corpus: &Corpus, no_scrollback: bool) -> String {
    let (cols, rows) = (corpus.size.cols as usize, corpus.size.rows as usize);
    let mut vt = if no_scrollback {
        avt::Vt::builder()
            .size(cols, rows)
            .scrollback_limit(0)
            .build()
    } else {
        avt::Vt::new(cols, rows)
    };
    for chunk in &corpus.outputs {
        match chunk {
            Chunk::Output(text) => {
                black_box(vt.feed_str(text));
            }
            Chunk::Resize(s) => {
                black_box(vt.resize(s.cols as usize, s.rows as usize));
            }
        }
    }
    let mut out = String::new();
    for line in vt.view() {
        out.push_str(line.text().trim_end());
        out.push('\n');
    }
    out
}

/// Parses every event of the cast and does nothing with them.
fn read_cast(path: &Path) -> usize {
    let reader = cast::open(path).expect("open cast");
    let mut n = 0;
    for event in reader {
        if let EventData::Output(text) = event.expect("read event").data {
            n += text.len();
        }
    }
    n
}

/// tuicast's engine adapter fed the pre-decoded output.
fn engine_in_memory(corpus: &Corpus, kind: EngineKind) -> String {
    let mut engine = kind.create(corpus.size);
    for chunk in &corpus.outputs {
        match chunk {
            Chunk::Output(text) => engine.feed(text),
            Chunk::Resize(s) => engine.resize(*s),
        }
    }
    tuicast::render::text(&engine.screen())
}
