//! No new flakes from `settle = "auto"`: every scenario of `casts/` is recorded
//! `TODOAPP_FLAKE_N` times (10 by default) while busy threads (two per core) load every CPU,
//! the recordings' checkpoints are compared with each other as the flake guard compares them
//! (`tuicast test --repeat`), and the first recording is checked against the committed
//! goldens. The same again with the deliberately slow renderer (`TODOAPP_SLOW_DRAW=20`: every
//! frame in four writes with 20 ms pauses between), which must never be caught half-drawn.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tuicast::assert::UpdateAction;
use tuicast::config::Config;
use tuicast::harness::repeat::{record_repeatedly, repeat_path, Compared};
use tuicast::harness::{check_case, discover, Case, LiveMode, Options, Status};
use tuicast::record::Settle;

#[test]
fn auto_settled_checkpoints_are_the_same_under_load() {
    every_scenario_under_load(None);
}

#[test]
fn a_slow_renderer_is_never_caught_half_drawn() {
    every_scenario_under_load(Some("20"));
}

/// Records every scenario N times in auto mode with the CPUs loaded (`slow`: the pause of
/// `TODOAPP_SLOW_DRAW`), and checks that the recordings agree and match the goldens.
fn every_scenario_under_load(slow: Option<&str>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = Config::load(root).expect("tuicast.toml");
    let n: usize = std::env::var("TODOAPP_FLAKE_N")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let cases: Vec<Case> = discover(&config, &[], LiveMode::Never)
        .into_iter()
        .filter(|c| c.scenario.is_some())
        .collect();
    assert!(cases.len() >= 4, "the todoapp's scenarios");
    let out = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir(out.path().join("casts")).expect("a casts folder");
    let _load = Load::start();
    let mut failures = Vec::new();
    for case in &cases {
        let mut scenario = case.scenario.clone().expect("filtered");
        scenario.settle = Some(Settle::DEFAULT);
        if let Some(ms) = slow {
            scenario.env.insert("TODOAPP_SLOW_DRAW".into(), ms.into());
        }
        let cast = out.path().join(format!("{}.cast", case.stem));
        let guarded = record_repeatedly(
            &scenario,
            &cast,
            n,
            Compared::of(case, case.engine),
            &|_| true,
            &case.stem,
        );
        if let Err(e) = guarded {
            failures.push(format!("{}: the {n} recordings differ:\n{e}", case.stem));
            continue;
        }
        // The first recording against the goldens, as a replay checks them (from a
        // `casts/` folder of its own, so that the goldens' `cast:` line reads the same).
        let mut recorded = case.clone();
        recorded.cast = out.path().join("casts").join(format!("{}.cast", case.stem));
        std::fs::rename(repeat_path(&cast, 1), &recorded.cast).expect("the first recording");
        let mut here = config.clone();
        here.root = out.path().to_path_buf();
        let opts = Options::new(UpdateAction::WriteNothing).live(LiveMode::Never);
        for r in check_case(&here, &recorded, &opts) {
            if r.status() == Status::Failed {
                failures.push(format!("{}: {}", r.test, r.message()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Busy threads, two per core, until dropped.
struct Load {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Load {
    fn start() -> Load {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..2 * cores)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        x = std::hint::black_box(
                            x.wrapping_mul(6364136223846793005).wrapping_add(1),
                        );
                    }
                })
            })
            .collect();
        Load { stop, threads }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
