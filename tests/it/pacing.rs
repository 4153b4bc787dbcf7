//! Keys as a person types them (`src/record/pace.rs`), on the apps of three frameworks in
//! `tests/apps/`: an ink form (npm), a Textual form (PyPI) and a curses key logger that tells a
//! lone Esc from Alt+key by time (ncurses' `ESCDELAY`). Each app's suite is its scenario as an
//! author writes it (`{ type = "Ada" }, { press = "Tab" }, …`, no waits between the keys) with
//! goldens of what a person typing sees; `tuicast test --live` records it again in a copy of
//! the app and every recording must pass those goldens. `tuicast test` (replay) checks the
//! committed casts too.
//!
//! The ordinary tests record each app [`RUNS`] times; `pacing_holds_under_four_times_cpu_load`
//! (ignored in `cargo test`, run alone by `.ci/run` and for docs/performance.md with
//! `TUICAST_PACING_RUNS=50`) records them under a load of four busy processes per core. The
//! tools come from `scripts/app-tools.sh` (CI runs it); without them the tests skip, except
//! under CI.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::util::{root, Dir};

/// Recordings of each app per ordinary test run.
const RUNS: usize = 3;

/// The ink form: Tab reaches ink as a key of its own, not as text with the letters after it.
#[test]
fn ink_form_gets_tab_and_letters_as_separate_keys() {
    if let Some(app) = App::ink() {
        app.check(RUNS);
    }
}

/// The Textual form: no letter is lost or lands in the field the Tab just left.
#[test]
fn textual_form_gets_every_letter_in_the_focused_field() {
    if let Some(app) = App::textual() {
        app.check(RUNS);
    }
}

/// The curses key logger: `press Esc` then `type x` is Esc then x, never Alt+x, and a
/// checkpoint after an Esc shows the program after it took the Esc alone.
#[test]
fn curses_program_sees_a_lone_esc_never_alt() {
    if let Some(app) = App::curses() {
        app.check(RUNS);
    }
}

/// Every app recorded `TUICAST_PACING_RUNS` times (default 10) while four busy processes per
/// core load the machine: every recording passes the goldens.
#[test]
#[ignore = "loads the machine: run alone (.ci/run does)"]
fn pacing_holds_under_four_times_cpu_load() {
    let runs = std::env::var("TUICAST_PACING_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let apps: Vec<App> = [App::ink(), App::textual(), App::curses()]
        .into_iter()
        .flatten()
        .collect();
    if apps.is_empty() {
        return;
    }
    let _load = Load::start(4);
    for app in apps {
        let started = std::time::Instant::now();
        app.check(runs);
        eprintln!(
            "{}: {runs} recordings under load passed, {:.1}s each",
            app.name,
            started.elapsed().as_secs_f64() / runs as f64
        );
    }
}

/// One app of `tests/apps/` and what its program needs.
struct App {
    name: &'static str,
    /// A `node_modules` folder to link into the copy.
    node_modules: Option<PathBuf>,
    /// A virtualenv to run the program in.
    venv: Option<PathBuf>,
}

impl App {
    fn ink() -> Option<App> {
        let modules = root().join("target/apps/inkapp/node_modules");
        let ready = modules.join("ink/package.json").is_file() && have("node");
        App::ready("inkapp", ready).then_some(App {
            name: "inkapp",
            node_modules: Some(modules),
            venv: None,
        })
    }

    fn textual() -> Option<App> {
        let venv = root().join("target/apps/textual");
        let ready = venv.join(".wanted").is_file();
        App::ready("textualapp", ready).then_some(App {
            name: "textualapp",
            node_modules: None,
            venv: Some(venv),
        })
    }

    fn curses() -> Option<App> {
        App::ready("cursesapp", have("python3")).then_some(App {
            name: "cursesapp",
            node_modules: None,
            venv: None,
        })
    }

    /// Whether the app's tools are there; under CI they must be.
    fn ready(name: &str, ready: bool) -> bool {
        if !ready {
            assert!(
                std::env::var_os("CI").is_none(),
                "the tools of tests/apps/{name} are required under CI: run scripts/app-tools.sh"
            );
            eprintln!("skipping tests/apps/{name}: run scripts/app-tools.sh");
        }
        ready
    }

    /// Replays the committed casts, then records the suite `runs` times in a copy of the
    /// app: every run passes every golden, and the copy's casts and goldens are left as they
    /// were (no `.new` file).
    fn check(&self, runs: usize) {
        let dir = Dir::new();
        copy_app(&root().join("tests/apps").join(self.name), dir.path());
        if let Some(modules) = &self.node_modules {
            std::os::unix::fs::symlink(modules, dir.join("node_modules")).unwrap();
        }
        let tuicast = |args: &[&str]| {
            let run = dir.tuicast(args).env("TUICAST_UPDATE", "no");
            match &self.venv {
                Some(venv) => run.env("VIRTUAL_ENV", venv),
                None => run,
            }
        };
        let replayed = tuicast(&["test"]).run().success();
        assert!(
            replayed.stdout().contains(" passed, 0 failed"),
            "{replayed}"
        );
        for run in 1..=runs {
            let out = tuicast(&["test", "--live"]).run();
            assert!(
                out.succeeded(),
                "{}: recording {run} of {runs} failed:\n{out}",
                self.name
            );
            let left: Vec<String> = dir
                .files()
                .into_iter()
                .filter(|f| f.ends_with(".new"))
                .collect();
            assert!(left.is_empty(), "{}: {left:?}\n{out}", self.name);
        }
    }
}

/// Copies an app's folder (not its `node_modules` or pending `.new` files).
fn copy_app(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        let target = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            if name != "node_modules" {
                std::fs::create_dir_all(&target).unwrap();
                copy_app(&entry.path(), &target);
            }
        } else if !name.to_string_lossy().ends_with(".new") {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Busy processes, `per_core` for each core, killed when dropped.
struct Load(Vec<Child>);

impl Load {
    fn start(per_core: usize) -> Load {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let children = (0..cores * per_core)
            .map(|_| {
                Command::new("sh")
                    .args(["-c", "while :; do :; done"])
                    .stdin(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        Load(children)
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
