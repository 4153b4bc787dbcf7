//! The snapshot harness on a suite of 1000 casts: checking every cast against its goldens,
//! by the library and by `tuicast test`, next to insta doing the same comparisons and to a
//! bare read-and-compare.
//!
//! ```text
//! cargo bench --bench harness
//! TUICAST_BENCH_HARNESS_DIR=/tmp/suite cargo bench --bench harness   # keep the suite
//! ```
//!
//! The suite is made from the real program output in `casts/`: cast `i` is a copy of one of
//! them (in turn) whose own markers are emptied (so they are no checkpoints and the timing is
//! unchanged) and that gets one marker `mid` after its `k`-th output event, `k` varying with
//! `i`. Every cast so has two checkpoints, `mid` and `end`, and the suite 2000 `txt` goldens,
//! made first with `UpdateAction::Overwrite`. Then, per iteration (all of the suite):
//!
//! - `harness/library-check_case`: `harness::check_case` on every case, from one thread
//!   (these casts are under 1 MiB, so `replay::checkpoints` reads them on the same thread);
//! - `harness/library-check_case-parallel`: the same on as many threads as `tuicast test`
//!   uses (`available_parallelism`);
//! - `harness/cli-tuicast-test`: `tuicast test` in the suite folder (`TUICAST_UPDATE=no`,
//!   the binary cargo built for this bench): discovery, replay, check, report, orphans;
//! - `harness/insta-assert_snapshot`: the 2000 renders, already made, checked by
//!   `insta::assert_snapshot!` against `.snap` files (made by insta itself, in a child
//!   process with `INSTA_UPDATE=always`; checked with `INSTA_UPDATE=no`), one folder per cast
//!   as tuicast keeps them; `-one-folder`: all 2000 `.snap` files in one folder, where
//!   insta's per-assertion listing of the folder makes the whole run quadratic;
//! - `harness/insta-with-replay`: what a project would write without tuicast: each cast
//!   read with serde_json, its output fed to a bare avt `Vt` (no scrollback), and the
//!   screen's text at each labelled marker and at the end checked by `insta::assert_snapshot!`
//!   (snapshots made by insta in the same child process);
//! - `harness/baseline-read-and-compare`: the same renders, each golden read and compared
//!   with `==`;
//! - `parts/*`: where the time goes. `discover` names every cast's checkpoints (skimming
//!   each cast once, on all cores) before any check. Then `check_case`'s stages,
//!   cumulatively and on one thread, so that each difference is one stage's cost:
//!   `1-replay-without-screens` (every cast through the avt engine), `2-replay+screens` (and
//!   a screen copied out of the engine at each checkpoint), `3-replay+screens+render` (and
//!   the `txt` render); `2-replay-checkpoints` is stage 2 by the library call `check_case`
//!   makes; `check_file` is the golden check alone (read, compare), on the renders made
//!   beforehand.
//!
//! Modes: `check_case` and `check_file` run with `UpdateAction::WriteNothing` (nothing written; `new`
//! would add one `stat` of `<golden>.new` per passing golden). Throughput is in casts.
//! See docs/performance.md for results.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use tuicast::assert::{self, Format, UpdateAction};
use tuicast::config::Config;
use tuicast::harness::{self, Case, Options};
use tuicast::replay::{self, Checkpoint};

/// Casts in the suite (`TUICAST_BENCH_HARNESS_CASTS` changes it).
const CASTS: usize = 1000;
/// Set in the child process that makes the insta snapshots: the suite folder.
const INSTA_CHILD: &str = "TUICAST_BENCH_INSTA_CREATE";

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

/// One golden and the render it is checked against.
struct Render {
    golden: PathBuf,
    stem: String,
    checkpoint: String,
    actual: String,
}

fn main() {
    if let Some(root) = std::env::var_os(INSTA_CHILD) {
        make_insta_snapshots(Path::new(&root));
        return;
    }
    let casts = std::env::var("TUICAST_BENCH_HARNESS_CASTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CASTS);
    let (_tmp, root) = match std::env::var_os("TUICAST_BENCH_HARNESS_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.exists() {
                std::fs::remove_dir_all(&dir).expect("clear TUICAST_BENCH_HARNESS_DIR");
            }
            (None, dir)
        }
        None => {
            let t = tempfile::tempdir().expect("temp dir");
            let p = t.path().to_path_buf();
            (Some(t), p)
        }
    };
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("casts");
    let made = make_suite(&sources, &root, casts);
    if made == 0 {
        eprintln!(
            "harness bench: skipped: no v3 cast with output in {}",
            sources.display()
        );
        return;
    }
    let config = Config::load(&root).expect("config");
    let cases = harness::discover(&config, &[], harness::LiveMode::Never);
    assert_eq!(cases.len(), made);
    make_goldens(&config, &cases);
    let renders = renders(&config, &cases);
    let checkpoints = renders.len();
    let bytes: usize = renders.iter().map(|r| r.actual.len()).sum();
    eprintln!(
        "harness bench: {} casts ({:.1} MB), {checkpoints} checkpoints, {:.1} MB of goldens, in {}",
        cases.len(),
        dir_bytes(&config.casts) as f64 / 1e6,
        bytes as f64 / 1e6,
        root.display()
    );
    let insta_ok = match insta_snapshots(&root, checkpoints) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("harness bench: harness/insta-assert_snapshot skipped: {e}");
            false
        }
    };
    // From here on insta only checks.
    std::env::set_var("INSTA_UPDATE", "no");
    std::env::set_var("INSTA_WORKSPACE_ROOT", env!("CARGO_MANIFEST_DIR"));
    std::env::remove_var("INSTA_FORCE_PASS");

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(10))
        .configure_from_args();
    let mut group = c.benchmark_group("harness");
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(cases.len() as u64));
    whole(&mut group, &root, &config, &cases, &renders, insta_ok);
    group.finish();

    let mut group = c.benchmark_group("parts");
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(cases.len() as u64));
    parts(&mut group, &config, &cases, &renders);
    group.finish();
    c.final_summary();
}

fn whole(
    group: &mut Group<'_>,
    root: &Path,
    config: &Config,
    cases: &[Case],
    renders: &[Render],
    insta_ok: bool,
) {
    let opts = Options::new(UpdateAction::WriteNothing);
    group.bench_function("library-check_case", |b| {
        b.iter(|| {
            cases
                .iter()
                .map(|case| expect_pass(harness::check_case(config, case, &opts)))
                .sum::<usize>()
        })
    });
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    eprintln!("harness bench: library-check_case-parallel uses {threads} threads");
    group.bench_function("library-check_case-parallel", |b| {
        b.iter(|| {
            // As `tuicast test` spreads the cases.
            let mut done = 0;
            let r: Result<(), ()> = tuicast::util::par_map_ordered(
                cases,
                |case| expect_pass(harness::check_case(config, case, &opts)),
                |_, n| {
                    done += n;
                    Ok(())
                },
            );
            r.map(|()| done)
        })
    });
    group.bench_function("cli-tuicast-test", |b| {
        b.iter(|| {
            let out = Command::new(env!("CARGO_BIN_EXE_tuicast"))
                .arg("test")
                .current_dir(root)
                .env("TUICAST_UPDATE", "no")
                .env_remove("TUICAST_LIVE")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .output()
                .expect("run tuicast test");
            assert!(
                out.status.success(),
                "tuicast test failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        })
    });
    if insta_ok {
        let dir = insta_dir(root);
        group.bench_function("insta-assert_snapshot", |b| {
            b.iter(|| insta_check(&dir, renders, Layout::PerCast))
        });
        group.bench_function("insta-assert_snapshot-one-folder", |b| {
            b.iter(|| insta_check(&dir, renders, Layout::OneFolder))
        });
        let replay_dir = insta_replay_dir(root);
        group.bench_function("insta-with-replay", |b| {
            b.iter(|| {
                for case in cases {
                    insta_replay_check(&replay_dir, case);
                }
            })
        });
    }
    group.bench_function("baseline-read-and-compare", |b| {
        b.iter(|| {
            renders
                .iter()
                .filter(|r| {
                    let golden = std::fs::read_to_string(&r.golden).expect("read golden");
                    assert!(golden == r.actual, "{} differs", r.golden.display());
                    true
                })
                .count()
        })
    });
}

/// The stages of `check_case`, cumulatively (each case replayed and taken as far as the
/// stage while its screens are fresh, as `check_case` does), and the golden check alone.
fn parts(group: &mut Group<'_>, config: &Config, cases: &[Case], renders: &[Render]) {
    group.bench_function("discover", |b| {
        b.iter(|| harness::discover(config, &[], harness::LiveMode::Never).len())
    });
    for stage in [Stage::Replay, Stage::Screens, Stage::Render] {
        group.bench_function(stage.name(), |b| {
            b.iter(|| {
                cases
                    .iter()
                    .map(|case| up_to(config, case, stage))
                    .sum::<usize>()
            })
        });
    }
    // Stage 2 by the library call check_case makes (on these small casts it reads on the
    // same thread; casts over 1 MiB get a reading thread).
    group.bench_function("2-replay-checkpoints", |b| {
        b.iter(|| {
            cases
                .iter()
                .map(|case| replay_case(config, case).len())
                .sum::<usize>()
        })
    });
    group.bench_function("check_file", |b| {
        b.iter(|| {
            for r in renders {
                let outcome =
                    assert::check_file(&r.golden, &r.actual, UpdateAction::WriteNothing, false)
                        .expect("check");
                assert!(outcome.passed(), "{} differs", r.golden.display());
            }
        })
    });
}

/// How far [`up_to`] takes a case.
#[derive(Clone, Copy, PartialEq)]
enum Stage {
    /// Events through the engine, nothing taken out.
    Replay,
    /// And a screen copied out of the engine at each checkpoint.
    Screens,
    /// And the `txt` render of each (the masks, none here, would apply first).
    Render,
}

impl Stage {
    fn name(self) -> &'static str {
        match self {
            Stage::Replay => "1-replay-without-screens",
            Stage::Screens => "2-replay+screens",
            Stage::Render => "3-replay+screens+render",
        }
    }
}

/// `check_case`'s work on one case up to `stage`, all on this thread.
fn up_to(config: &Config, case: &Case, stage: Stage) -> usize {
    let reader = tuicast::cast::open(&case.cast).expect("open cast");
    let mut replayer = replay::Replayer::new(reader.header(), config.engine);
    let mut checkpoints = Vec::new();
    for event in reader {
        let event = event.expect("event");
        if let Some(name) = replayer.apply(&event) {
            if stage != Stage::Replay {
                checkpoints.push(Checkpoint {
                    name,
                    line: event.line,
                    time: event.time,
                    screen: replayer.screen(),
                });
            }
        }
    }
    if stage == Stage::Replay {
        return 0;
    }
    checkpoints.push(replayer.finish());
    if stage == Stage::Screens {
        return checkpoints.len();
    }
    let label = assert::pending::relative_name(&config.root, &case.cast);
    checkpoints
        .iter()
        .map(|cp| assert::render(Format::Text, &label, &cp.name, &cp.screen).len())
        .sum()
}

/// Writes `n` casts into `root/casts`, copies of the v3 casts in `sources` taken in turn;
/// returns how many were written (0 when there is no usable source).
fn make_suite(sources: &Path, root: &Path, n: usize) -> usize {
    let mut material: Vec<(String, Vec<String>)> = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(sources)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    names.sort();
    for path in names {
        if path.extension().is_none_or(|e| e != "cast") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let v3 = lines
            .first()
            .and_then(|h| serde_json::from_str::<serde_json::Value>(h).ok())
            .is_some_and(|h| h["version"] == 3);
        let outputs = lines.iter().filter(|l| event_code(l) == Some("o")).count();
        if v3 && outputs > 0 {
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            material.push((stem.into_owned(), lines));
        }
    }
    if material.is_empty() {
        return 0;
    }
    let casts = root.join("casts");
    std::fs::create_dir_all(&casts).expect("create casts folder");
    for i in 0..n {
        let (stem, lines) = &material[i % material.len()];
        let outputs = lines.iter().filter(|l| event_code(l) == Some("o")).count();
        let k = (i / material.len()) % outputs + 1;
        let mut out = String::new();
        let mut seen = 0;
        for (j, line) in lines.iter().enumerate() {
            match event_code(line) {
                // The source's own checkpoints: keep the event (and its interval), drop the label.
                Some("m") if j > 0 => {
                    let interval = line[1..].split(',').next().unwrap_or("0.0");
                    out.push_str(&format!("[{interval}, \"m\", \"\"]\n"));
                }
                code => {
                    out.push_str(line);
                    out.push('\n');
                    if code == Some("o") {
                        seen += 1;
                        if seen == k {
                            out.push_str("[0.0, \"m\", \"mid\"]\n");
                        }
                    }
                }
            }
        }
        std::fs::write(casts.join(format!("{stem}-{i:04}.cast")), out).expect("write cast");
    }
    n
}

/// The code of an event line (`o`, `i`, `m`, …), or `None` for the header and comments.
fn event_code(line: &str) -> Option<&str> {
    if !line.starts_with('[') {
        return None;
    }
    let rest = line.split_once(',')?.1.trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(&rest[..rest.find('"')?])
}

/// Writes every golden (`UpdateAction::Overwrite`) and checks that the suite then passes.
fn make_goldens(config: &Config, cases: &[Case]) {
    let always = Options::new(UpdateAction::Overwrite);
    let no = Options::new(UpdateAction::WriteNothing);
    for case in cases {
        let results = harness::check_case(config, case, &always);
        assert_eq!(results.len(), 2, "{}: two checkpoints", case.cast.display());
        for r in &results {
            assert!(r.passed(), "{}", r.message());
        }
        expect_pass(harness::check_case(config, case, &no));
    }
}

fn expect_pass(results: Vec<harness::CheckResult>) -> usize {
    for r in &results {
        assert!(r.passed(), "{}", r.message());
    }
    results.len()
}

fn replay_case(config: &Config, case: &Case) -> Vec<Checkpoint> {
    let reader = tuicast::cast::open(&case.cast).expect("open cast");
    replay::checkpoints(reader, config.engine).expect("replay")
}

/// Every checkpoint's render and golden, the way `check_case` makes them.
fn renders(config: &Config, cases: &[Case]) -> Vec<Render> {
    let mut out = Vec::new();
    for case in cases {
        let label = assert::pending::relative_name(&config.root, &case.cast);
        for cp in replay_case(config, case) {
            out.push(Render {
                golden: assert::snapshot_path(&config.snapshots, &case.stem, &cp.name, "txt"),
                stem: case.stem.clone(),
                checkpoint: cp.name.clone(),
                actual: assert::render(Format::Text, &label, &cp.name, &cp.screen),
            });
        }
    }
    out
}

fn insta_dir(root: &Path) -> PathBuf {
    root.join("insta")
}

/// Makes the insta snapshots in a child process (insta reads `INSTA_UPDATE` once per process)
/// and checks that there is one per checkpoint.
fn insta_snapshots(root: &Path, expected: usize) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = Command::new(exe)
        .env(INSTA_CHILD, root)
        .env("INSTA_UPDATE", "always")
        .env("INSTA_OUTPUT", "none")
        .env("INSTA_WORKSPACE_ROOT", env!("CARGO_MANIFEST_DIR"))
        .env_remove("INSTA_FORCE_PASS")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run {INSTA_CHILD} child: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "making the insta snapshots failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let made = count_snaps(&insta_dir(root)) + count_snaps(&insta_replay_dir(root));
    if made != 3 * expected {
        return Err(format!(
            "{made} insta snapshots made, {} expected",
            3 * expected
        ));
    }
    Ok(())
}

/// The child process: every render asserted with `INSTA_UPDATE=always`, which writes them,
/// in both layouts.
fn make_insta_snapshots(root: &Path) {
    let config = Config::load(root).expect("config");
    let cases = harness::discover(&config, &[], harness::LiveMode::Never);
    let renders = renders(&config, &cases);
    insta_check(&insta_dir(root), &renders, Layout::PerCast);
    insta_check(&insta_dir(root), &renders, Layout::OneFolder);
    for case in &cases {
        insta_replay_check(&insta_replay_dir(root), case);
    }
}

/// Where the snapshots of `insta-with-replay` are.
fn insta_replay_dir(root: &Path) -> PathBuf {
    root.join("insta-replay")
}

/// What a project would write to test its casts with insta and no tuicast: read the cast
/// with serde_json, feed the output to avt (the engine tuicast uses, bare, no scrollback),
/// and at each labelled marker and at the end assert the screen's text, trimmed.
fn insta_replay_check(dir: &Path, case: &Case) {
    let text = std::fs::read_to_string(&case.cast).expect("read cast");
    let mut lines = text.lines();
    let header: serde_json::Value =
        serde_json::from_str(lines.next().expect("header")).expect("header");
    let dim = |k: &str| header["term"][k].as_u64().expect("term size") as usize;
    let mut vt = avt::Vt::builder()
        .size(dim("cols"), dim("rows"))
        .scrollback_limit(0)
        .build();
    let screen = |vt: &avt::Vt| -> String {
        vt.view()
            .map(|l| {
                let mut t = l.text().trim_end().to_string();
                t.push('\n');
                t
            })
            .collect()
    };
    insta::with_settings!({
        snapshot_path => dir.join(&case.stem),
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        for line in lines {
            let (_, code, data): (f64, String, String) =
                serde_json::from_str(line).expect("event");
            match code.as_str() {
                "o" => {
                    vt.feed_str(&data);
                }
                "m" if !data.is_empty() => insta::assert_snapshot!(data.as_str(), screen(&vt)),
                "r" => {
                    if let Some((c, r)) = data.split_once('x') {
                        vt.resize(c.parse().expect("cols"), r.parse().expect("rows"));
                    }
                }
                _ => {}
            }
        }
        insta::assert_snapshot!("end", screen(&vt));
    });
}

/// Where the insta snapshots are.
#[derive(Clone, Copy)]
enum Layout {
    /// `insta/<cast>/<checkpoint>.snap`, like tuicast's `snapshots/<cast>/<checkpoint>.txt`.
    PerCast,
    /// `insta/all/<cast>__<checkpoint>.snap`: one folder of 2000 files. insta lists the
    /// snapshot's folder on every assertion (looking for stale `.snap.new.*` files), so this
    /// costs O(files in the folder) per assertion.
    OneFolder,
}

fn insta_check(dir: &Path, renders: &[Render], layout: Layout) {
    match layout {
        Layout::PerCast => {
            // One settings scope per cast, as one test function per cast would have.
            for chunk in renders.chunk_by(|a, b| a.stem == b.stem) {
                insta::with_settings!({
                    snapshot_path => dir.join(&chunk[0].stem),
                    prepend_module_to_snapshot => false,
                    omit_expression => true,
                }, {
                    for r in chunk {
                        insta::assert_snapshot!(r.checkpoint.as_str(), r.actual.as_str());
                    }
                });
            }
        }
        Layout::OneFolder => {
            insta::with_settings!({
                snapshot_path => dir.join("all"),
                prepend_module_to_snapshot => false,
                omit_expression => true,
            }, {
                for r in renders {
                    let name = format!("{}__{}", r.stem, r.checkpoint);
                    insta::assert_snapshot!(name.as_str(), r.actual.as_str());
                }
            });
        }
    }
}

fn count_snaps(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| {
            let p = e.path();
            if p.is_dir() {
                count_snaps(&p)
            } else {
                usize::from(p.extension().is_some_and(|x| x == "snap"))
            }
        })
        .sum()
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}
