//! The libtest protocol, for a `harness = false` test target: the arguments `cargo test`,
//! cargo-nextest and people pass after `--` ([`Arguments`]), trials run on a pool of threads
//! ([`run`]), and libtest's output (`running N tests`, `test NAME ... ok`, the failures, the
//! `test result:` line; `--list`; the terse format), so that tools that read libtest's output
//! read ours. Written here rather than taken from a crate so that the dev-dependency builds no
//! argument parser (see docs/performance.md, "The dev-dependency").
//!
//! An argument libtest would not know is an error, not ignored.

use super::Failure;
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

/// One test: a name, and what checks it (`Err`: the failure message).
pub struct Trial {
    name: String,
    check: Box<dyn FnOnce() -> Result<(), Failure> + Send>,
    /// Trials that share one piece of work (the checkpoints of one cast, checked in one
    /// replay or one live recording by whichever runs first): the pool starts another group
    /// before a second trial of a group that runs now, which would only wait for it.
    group: Option<std::sync::Arc<str>>,
}

impl Trial {
    /// A trial named `name` that passes when `check` returns `Ok`; its error is the failure
    /// message (`Err("…".into())`, or `.into()` of a `String`).
    pub fn test(
        name: impl Into<String>,
        check: impl FnOnce() -> Result<(), Failure> + Send + 'static,
    ) -> Trial {
        Trial {
            name: name.into(),
            check: Box::new(check),
            group: None,
        }
    }

    /// The trial as one of `group`: trials of a group share work, so the pool runs trials
    /// of other groups beside a running one first (the order of the results is kept).
    pub(super) fn in_group(mut self, group: std::sync::Arc<str>) -> Trial {
        self.group = Some(group);
        self
    }

    /// The trial's name, as `--list` prints it and filters match it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs the check (a panic is a failure with its message).
    pub fn run(self) -> Result<(), Failure> {
        let check = self.check;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)).unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            Err(failure!("the check panicked: {message}"))
        })
    }
}

impl std::fmt::Debug for Trial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trial").field("name", &self.name).finish()
    }
}

/// How results are printed: a line per test, or a character per test (`-q`,
/// `--format terse`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Format {
    #[default]
    Pretty,
    Terse,
}

/// The libtest arguments this harness takes. Those that change nothing here (`--nocapture`:
/// nothing is captured; `--show-output`, `--report-time`, `-Z`, `--shuffle` …) are accepted
/// and ignored; an unknown one is an error, as in libtest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Arguments {
    /// Names to run: those that contain any of them (or equal one, with `exact`).
    pub(super) filters: Vec<String>,
    /// Filters match whole names.
    pub(super) exact: bool,
    /// Names that contain any of these (or equal one, with `exact`) are left out.
    pub(super) skip: Vec<String>,
    /// List the trials instead of running them.
    pub(super) list: bool,
    /// Run (or list) only ignored trials: this harness has none.
    pub(super) ignored: bool,
    pub(super) format: Format,
    /// Threads to run trials on (`--test-threads`, else `RUST_TEST_THREADS`, else the cores).
    pub(super) test_threads: Option<usize>,
    /// `--color`: `Some(true)` always, `Some(false)` never, `None` when printing to a
    /// terminal.
    pub(super) color: Option<bool>,
}

/// An argument libtest does not take, or a value it cannot use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ArgumentError(pub(super) String);

impl std::fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgumentError {}

/// What `--help` prints.
const USAGE: &str = "\
Usage: TEST-BINARY [OPTIONS] [FILTERS...]

Runs the checkpoints of the project's casts, one test each (tuicast's harness).

Options:
      --list                list the tests instead of running them
      --exact               filters match whole test names
      --skip FILTER         leave out tests whose names contain FILTER (repeatable)
      --ignored             run only ignored tests (there are none)
      --include-ignored     run ignored tests too
      --test-threads N      run N tests at once (default: RUST_TEST_THREADS, else the cores)
  -q, --quiet               a character per test (--format terse)
      --format pretty|terse
      --color auto|always|never
      --nocapture           accepted (output is never captured)
  -h, --help                this help
";

impl Arguments {
    /// The process's arguments; `--help` prints the usage and exits 0, a bad argument prints
    /// the error and exits 101, as libtest does.
    pub(super) fn from_args() -> Arguments {
        match Arguments::parse(std::env::args().skip(1)) {
            Ok(Some(args)) => args,
            Ok(None) => {
                print!("{USAGE}");
                std::process::exit(0);
            }
            Err(e) => {
                eprintln!("error: {e}\n\n{USAGE}");
                std::process::exit(101);
            }
        }
    }

    /// `args` read as libtest reads them (`None`: `--help` was asked for).
    pub(super) fn parse(
        args: impl IntoIterator<Item = String>,
    ) -> Result<Option<Arguments>, ArgumentError> {
        let mut parsed = Arguments::default();
        let mut args = args.into_iter();
        let bad = |what: String| Err(ArgumentError(what));
        while let Some(arg) = args.next() {
            if !arg.starts_with('-') || arg == "-" {
                parsed.filters.push(arg);
                continue;
            }
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
                _ => (arg.clone(), None),
            };
            let mut value = |name: &str| -> Result<String, ArgumentError> {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or_else(|| ArgumentError(format!("{name} needs a value")))
            };
            match flag.as_str() {
                "-h" | "--help" => return Ok(None),
                "--list" => parsed.list = true,
                "--exact" => parsed.exact = true,
                "--ignored" => parsed.ignored = true,
                "--skip" => parsed.skip.push(value("--skip")?),
                "-q" | "--quiet" => parsed.format = Format::Terse,
                "--format" => {
                    parsed.format = match value("--format")?.as_str() {
                        "pretty" => Format::Pretty,
                        "terse" => Format::Terse,
                        other => {
                            return bad(format!(
                                "--format {other} is not one this harness prints (pretty, terse)"
                            ))
                        }
                    }
                }
                "--test-threads" => {
                    let n = value("--test-threads")?;
                    match n.parse::<usize>() {
                        Ok(n) if n > 0 => parsed.test_threads = Some(n),
                        _ => return bad(format!("--test-threads {n} is not a count of threads")),
                    }
                }
                "--color" => {
                    parsed.color = match value("--color")?.as_str() {
                        "auto" => None,
                        "always" => Some(true),
                        "never" => Some(false),
                        other => {
                            return bad(format!("--color {other}: auto, always or never"));
                        }
                    }
                }
                // Nothing to change here: output is never captured, times are not reported,
                // the order does not matter.
                "--nocapture"
                | "--no-capture"
                | "--show-output"
                | "--include-ignored"
                | "--test"
                | "--report-time"
                | "--ensure-time"
                | "--force-run-in-process"
                | "--exclude-should-panic"
                | "--shuffle" => {}
                "-Z" | "--shuffle-seed" | "--logfile" => {
                    value(&flag)?;
                }
                _ if flag.starts_with("-Z") => {}
                _ => return bad(format!("unknown argument {arg:?}")),
            }
        }
        Ok(Some(parsed))
    }

    /// Whether the trial `name` is one to run: it passes a filter (when there are any) and
    /// no `--skip`.
    pub(super) fn selects(&self, name: &str) -> bool {
        let hits = |f: &String| {
            if self.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(hits)) && !self.skip.iter().any(hits)
    }

    fn threads(&self) -> usize {
        self.test_threads
            .or_else(|| {
                std::env::var("RUST_TEST_THREADS")
                    .ok()?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
            })
            .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
            .unwrap_or(1)
    }
}

/// What a run came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Conclusion {
    pub(super) passed: usize,
    pub(super) failed: usize,
    pub(super) filtered_out: usize,
}

impl Conclusion {
    /// Exits the process as libtest does: 101 when a trial failed, else 0.
    pub(super) fn exit(&self) -> ! {
        std::process::exit(if self.failed > 0 { 101 } else { 0 })
    }
}

/// The trials not started yet, in order, and the groups of those running.
struct Queue {
    waiting: std::collections::VecDeque<(usize, Trial)>,
    running: Vec<std::sync::Arc<str>>,
}

impl Queue {
    /// The first waiting trial whose group is not running now (a trial of a running group
    /// would wait for its work), else the first waiting one.
    fn take(&mut self) -> Option<(usize, Trial)> {
        let free = self.waiting.iter().position(|(_, t)| {
            t.group
                .as_ref()
                .is_none_or(|g| !self.running.iter().any(|r| r == g))
        });
        let (i, trial) = self.waiting.remove(free.unwrap_or(0))?;
        if let Some(g) = &trial.group {
            self.running.push(g.clone());
        }
        Some((i, trial))
    }
}

/// A trial of a group running: the group is taken off the running ones when it is dropped.
struct Running<'a>(&'a Mutex<Queue>, Option<std::sync::Arc<str>>);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        if let Some(g) = &self.1 {
            let mut q = lock(self.0);
            if let Some(at) = q.running.iter().position(|r| r == g) {
                q.running.swap_remove(at);
            }
        }
    }
}

/// Runs (or, with `--list`, lists) the trials `args` selects, printing as libtest prints.
pub(super) fn run(args: &Arguments, trials: Vec<Trial>) -> Conclusion {
    let color = args
        .color
        .unwrap_or_else(|| super::use_color(std::io::IsTerminal::is_terminal(&std::io::stdout())));
    run_to(args, trials, Box::new(std::io::stdout()), color)
}

/// [`run`], printing to `out`.
fn run_to(
    args: &Arguments,
    trials: Vec<Trial>,
    out: Box<dyn Write + Send>,
    color: bool,
) -> Conclusion {
    let total = trials.len();
    // No trial is ignored: `--ignored` selects none.
    let chosen: Vec<Trial> = trials
        .into_iter()
        .filter(|t| !args.ignored && args.selects(&t.name))
        .collect();
    let filtered_out = total - chosen.len();
    let count = chosen.len();
    let mut printer = Printer {
        out,
        format: args.format,
        color,
        count,
        shown: 0,
    };
    if args.list {
        for t in &chosen {
            printer.line(&format!("{}: test", t.name));
        }
        if args.format == Format::Pretty {
            printer.line(&format!("\n{count} tests, 0 benchmarks"));
        }
        return Conclusion {
            filtered_out,
            ..Conclusion::default()
        };
    }
    let started = Instant::now();
    printer.line(&format!(
        "\nrunning {count} test{}",
        if count == 1 { "" } else { "s" }
    ));
    let threads = args.threads().min(count).max(1);
    let (failures, mut printer) = run_on(chosen, threads, printer);
    if args.format == Format::Terse && printer.shown % TERSE_LINE != 0 {
        printer.line("");
    }
    if !failures.is_empty() {
        printer.line("\nfailures:\n");
        for (name, message) in &failures {
            printer.line(&format!("---- {name} ----\n{message}\n"));
        }
        printer.line("\nfailures:");
        for (name, _) in &failures {
            printer.line(&format!("    {name}"));
        }
    }
    let failed = failures.len();
    let verdict = if failed == 0 {
        paint("ok", GREEN, color)
    } else {
        paint("FAILED", RED, color)
    };
    printer.line(&format!(
        "\ntest result: {verdict}. {} passed; {failed} failed; 0 ignored; 0 measured; \
         {filtered_out} filtered out; finished in {:.2}s\n",
        count - failed,
        started.elapsed().as_secs_f64()
    ));
    Conclusion {
        passed: count - failed,
        failed,
        filtered_out,
    }
}

/// Runs `trials` on `threads` threads, each taking the next from a shared queue and printing
/// its result when done; returns the failures in the trials' order (name, message).
fn run_on(
    trials: Vec<Trial>,
    threads: usize,
    printer: Printer,
) -> (Vec<(String, String)>, Printer) {
    let queue = Mutex::new(Queue {
        waiting: trials.into_iter().enumerate().collect(),
        running: Vec::new(),
    });
    let printer = Mutex::new(printer);
    let failures = Mutex::new(Vec::new());
    let single = threads == 1;
    let work = || loop {
        let next = lock(&queue).take();
        let Some((i, trial)) = next else {
            return;
        };
        let group = trial.group.clone();
        // The group is done with once this trial is (whatever its outcome).
        let _running = Running(&queue, group);
        let name = trial.name.clone();
        if single {
            // One at a time: the name before the check, as libtest prints it.
            lock(&printer).start(&name);
        }
        let result = trial.run();
        lock(&printer).finish(&name, result.is_ok(), single);
        if let Err(message) = result {
            lock(&failures).push((i, name, message));
        }
    };
    if single {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
    let mut failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    failures.sort_by_key(|(i, _, _)| *i);
    let failures = failures
        .into_iter()
        .map(|(_, n, m)| (n, String::from(m)))
        .collect();
    (
        failures,
        printer.into_inner().unwrap_or_else(|p| p.into_inner()),
    )
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Prints results as they come.
struct Printer {
    out: Box<dyn Write + Send>,
    format: Format,
    color: bool,
    count: usize,
    /// Results printed in the terse format so far.
    shown: usize,
}

/// Terse lines are this many results long, as libtest's.
const TERSE_LINE: usize = 88;

impl Printer {
    /// A line (a closed pipe is no error of the tests').
    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn start(&mut self, name: &str) {
        if self.format == Format::Pretty {
            let _ = write!(self.out, "test {name} ... ");
            let _ = self.out.flush();
        }
    }

    fn finish(&mut self, name: &str, passed: bool, started: bool) {
        match self.format {
            Format::Pretty => {
                if !started {
                    let _ = write!(self.out, "test {name} ... ");
                }
                let word = if passed {
                    paint("ok", GREEN, self.color)
                } else {
                    paint("FAILED", RED, self.color)
                };
                let _ = writeln!(self.out, "{word}");
            }
            Format::Terse => {
                let mark = if passed {
                    paint(".", GREEN, self.color)
                } else {
                    paint("F", RED, self.color)
                };
                let _ = write!(self.out, "{mark}");
                self.shown += 1;
                if self.shown % TERSE_LINE == 0 {
                    let _ = writeln!(self.out, " {}/{}", self.shown, self.count);
                }
            }
        }
        let _ = self.out.flush();
    }
}

const GREEN: &str = "32";
const RED: &str = "31";

fn paint(word: &str, sgr: &str, color: bool) -> String {
    if color {
        format!("\x1b[{sgr}m{word}\x1b[0m")
    } else {
        word.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many trials ran.
    type Counter = std::sync::Arc<std::sync::atomic::AtomicUsize>;

    /// Output kept for a look at it.
    #[derive(Clone, Default)]
    struct Shared(std::sync::Arc<Mutex<Vec<u8>>>);

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(lock(&self.0).clone()).unwrap()
        }
    }

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            lock(&self.0).extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn parse(args: &[&str]) -> Result<Option<Arguments>, ArgumentError> {
        Arguments::parse(args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn arguments_are_read_as_libtest_reads_them() {
        let a = parse(&[
            "cast::a",
            "--exact",
            "--skip=b",
            "--skip",
            "c",
            "--test-threads",
            "3",
            "--format=terse",
            "--nocapture",
            "-Z",
            "unstable-options",
            "--color",
            "never",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(a.filters, ["cast::a"]);
        assert!(a.exact);
        assert_eq!(a.skip, ["b", "c"]);
        assert_eq!(a.test_threads, Some(3));
        assert_eq!(a.format, Format::Terse);
        assert_eq!(a.color, Some(false));
        // nextest's listing.
        let l = parse(&["--list", "--format", "terse", "--ignored"])
            .unwrap()
            .unwrap();
        assert!(l.list && l.ignored);
        assert_eq!(parse(&["--help"]), Ok(None));
        assert_eq!(
            parse(&["--bogus"]),
            Err(ArgumentError("unknown argument \"--bogus\"".into()))
        );
        assert!(parse(&["--test-threads", "0"]).is_err());
        assert!(parse(&["--skip"]).is_err());
        assert!(parse(&["--format", "json"]).is_err());
    }

    #[test]
    fn filters_and_skips_select_names() {
        let a = parse(&["progress", "shell::end", "--skip", "done"])
            .unwrap()
            .unwrap();
        assert!(a.selects("progress::half"));
        assert!(!a.selects("progress::done"), "skipped");
        assert!(a.selects("sub/shell::end"));
        assert!(!a.selects("vim::end"));
        let exact = parse(&["--exact", "progress::half"]).unwrap().unwrap();
        assert!(exact.selects("progress::half"));
        assert!(!exact.selects("progress::half2"));
        assert!(Arguments::default().selects("anything"));
    }

    #[test]
    fn the_pool_starts_another_group_before_a_second_trial_of_a_running_one() {
        // a::1 does its group's work, which here needs b::1 to have started; a::2 only
        // waits for a::1's work. Taken in order, the second thread would take a::2 and wait
        // with a::1, and b::1 would start only after both: a::1 would give up.
        let (started, seen) = std::sync::mpsc::channel::<()>();
        let work = std::sync::Arc::new(std::sync::OnceLock::<bool>::new());
        let a: std::sync::Arc<str> = "a".into();
        let b: std::sync::Arc<str> = "b".into();
        let w1 = work.clone();
        let w2 = work.clone();
        let trials = vec![
            Trial::test("a::1", move || {
                let ok = *w1.get_or_init(|| {
                    seen.recv_timeout(std::time::Duration::from_secs(10))
                        .is_ok()
                });
                if ok {
                    Ok(())
                } else {
                    Err("b::1 did not start beside a::1".into())
                }
            })
            .in_group(a.clone()),
            Trial::test("a::2", move || {
                while w2.get().is_none() {
                    std::thread::yield_now();
                }
                Ok(())
            })
            .in_group(a),
            Trial::test("b::1", move || {
                started.send(()).map_err(|_| failure!("a::1 is gone"))
            })
            .in_group(b),
        ];
        let args = Arguments {
            test_threads: Some(2),
            color: Some(false),
            ..Arguments::default()
        };
        let c = run_to(&args, trials, Box::new(std::io::sink()), false);
        assert_eq!(c.failed, 0, "{c:?}");
        assert_eq!(c.passed, 3);
    }

    #[test]
    fn every_selected_trial_runs_once_on_the_pool_and_failures_are_counted() {
        let ran = Counter::default();
        let trials = (0..40)
            .map(|i| {
                let ran = ran.clone();
                Trial::test(format!("t::{i}"), move || {
                    ran.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    match i {
                        7 => Err("seven".into()),
                        9 => panic!("nine"),
                        _ => Ok(()),
                    }
                })
            })
            .collect();
        let args = Arguments {
            skip: vec!["t::3".into()],
            test_threads: Some(4),
            format: Format::Terse,
            color: Some(false),
            ..Arguments::default()
        };
        let c = run_to(&args, trials, Box::new(std::io::sink()), false);
        // t::3 and t::30-39 are skipped by "t::3".
        assert_eq!(ran.load(std::sync::atomic::Ordering::SeqCst), 29);
        assert_eq!(
            c,
            Conclusion {
                passed: 27,
                failed: 2,
                filtered_out: 11
            }
        );
        // The whole output of a run in one thread, as libtest prints it.
        let out = Shared::default();
        let args = Arguments {
            test_threads: Some(1),
            ..Arguments::default()
        };
        let trials = vec![
            Trial::test("a::one", || Ok(())),
            Trial::test("a::two", || Err("the screen differs".into())),
            Trial::test("b::three", || panic!("three")),
            Trial::test("c::four", || Ok(())),
        ];
        let args = Arguments {
            skip: vec!["c::".into()],
            ..args
        };
        let c = run_to(&args, trials, Box::new(out.clone()), false);
        assert_eq!(c.failed, 2);
        let text = out.text();
        let (head, tail) = text.rsplit_once("finished in ").unwrap();
        assert_eq!(
            head,
            "\nrunning 3 tests\n\
             test a::one ... ok\n\
             test a::two ... FAILED\n\
             test b::three ... FAILED\n\
             \nfailures:\n\n\
             ---- a::two ----\nthe screen differs\n\n\
             ---- b::three ----\nthe check panicked: three\n\n\
             \nfailures:\n    a::two\n    b::three\n\
             \ntest result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 1 filtered out; "
        );
        assert!(tail.ends_with("s\n\n"), "{tail:?}");
        // `--list`, as nextest reads it (terse) and as people read it.
        for (format, expected) in [
            (Format::Terse, "x::a: test\nx::b: test\n"),
            (
                Format::Pretty,
                "x::a: test\nx::b: test\n\n2 tests, 0 benchmarks\n",
            ),
        ] {
            let out = Shared::default();
            let args = Arguments {
                list: true,
                format,
                ..Arguments::default()
            };
            let trials = vec![
                Trial::test("x::a", || Ok(())),
                Trial::test("x::b", || Ok(())),
            ];
            run_to(&args, trials, Box::new(out.clone()), false);
            assert_eq!(out.text(), expected);
        }
    }
}
