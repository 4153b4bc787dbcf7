//! `tuicast test`: check casts against their golden snapshots.

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;

use tuicast::assert::{self, UpdateAction};
use tuicast::config::Config;
use tuicast::escape::escape_for_terminal;
use tuicast::harness::driver::{self, Suite};
use tuicast::harness::message::{ListedTest, Message, Summary, TestRecord};
use tuicast::harness::{self, CheckResult, LiveMode, Tally};
use tuicast::report::ReportDir;

/// Check casts against their golden snapshots (the same checks as `cargo test`).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast test                          every cast under casts/\n  \
    tuicast test casts/vim.cast           one cast\n  \
    tuicast test --update                 write every mismatch as the new golden\n  \
    tuicast test --live                   re-record every cast that has a scenario, then check\n  \
    tuicast test --replay                 replay every cast, even those of `bin =` scenarios\n  \
    tuicast test --live --repeat 5        record each scenario 5 times first: fail if they differ\n  \
    TUICAST_UPDATE=no tuicast test        check only, write nothing\n  \
    tuicast test --message-format json    one JSON object per checkpoint, for tools\n  \
    tuicast test --list --message-format json   the tests a run would check, as JSON\n  \
    tuicast test --exact -k demo::end     the one test named demo::end\n  \
    tuicast test --message-format junit > junit.xml   JUnit XML for GitLab, Jenkins, Buildkite\n  \
    tuicast test --deccolm                CSI ? 3 h switches to 132 columns, as on a VT100\n  \
    tuicast test --report report          also write report/index.html (TUICAST_REPORT=report)\n  \
    tuicast test --workspace              every suite of the workspace (each member's casts/)\n  \
    tuicast test members/app/casts        one member's casts, with that member's snapshots/")]
pub(super) struct Args {
    /// Casts or folders of casts; default: the casts folder of tuicast.toml (`casts/`).
    paths: Vec<PathBuf>,
    /// Overwrite goldens with the actual screens (TUICAST_UPDATE=always).
    #[arg(long)]
    update: bool,
    /// Only checkpoints whose test name (`cast::checkpoint`) contains this text; given more
    /// than once, those that contain any of them.
    #[arg(long, short = 'k', value_name = "TEXT")]
    filter: Vec<String>,
    /// Filters match whole test names only (as libtest's `--exact`).
    #[arg(long)]
    exact: bool,
    /// List the tests a run would check (`NAME: test`, or one `{"listed": …}` line each with
    /// `--message-format json`) without replaying or recording anything.
    #[arg(long, conflicts_with_all = ["update", "remove_orphans", "report", "repeat"])]
    list: bool,
    /// Output: libtest-like text, one JSON object per result, or a JUnit XML document (one
    /// testcase per checkpoint and expectation) for CI systems.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
    /// Delete goldens that no cast checkpoint produces.
    #[arg(long)]
    remove_orphans: bool,
    /// Record every cast that has a scenario again now and check the new recording
    /// (TUICAST_LIVE=1); a differing recording is kept as CAST.new for review. By default only
    /// casts whose scenario runs the package's own binary (`bin =`) are recorded live.
    #[arg(long, conflicts_with = "replay")]
    live: bool,
    /// Write an HTML report of the run to DIR/index.html (also TUICAST_REPORT=DIR): failing
    /// screens side by side, a player for each failing cast, the changes for
    /// `tuicast accept --from DIR`.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// With --live: record each scenario N times first and fail, before anything is accepted
    /// or written, when its checkpoints differ between the recordings (the flake guard).
    #[arg(long, value_name = "N", requires = "live", value_parser = clap::value_parser!(u16).range(1..=tuicast::harness::repeat::MAX_REPEAT as i64))]
    repeat: Option<u16>,
    /// Replay every cast as committed, even those of `bin =` scenarios (TUICAST_LIVE=0).
    #[arg(long)]
    replay: bool,
    /// Also check every suite below the project (the members of a workspace: each folder with
    /// a casts folder beside a Cargo.toml or tuicast.toml), as `cargo test --workspace`.
    #[arg(long, conflicts_with = "paths")]
    workspace: bool,
    /// DECCOLM (CSI ? 3 h/l) switches to 132/80 columns, as on a VT100 (as `[terminal]
    /// deccolm = true` in tuicast.toml; by default it is ignored, as xterm and xterm.js do).
    #[arg(long)]
    deccolm: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum MessageFormat {
    Human,
    Json,
    /// JUnit XML (one document for the whole run, at its end): for GitLab, Jenkins, Buildkite.
    Junit,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let junit = args.message_format == MessageFormat::Junit;
    let ran = run_checks(args);
    // Bad input (a tuicast.toml that does not parse) is still a JUnit document: one error
    // case naming it, so the CI's reader shows it instead of failing on an empty file.
    if let (true, Err(e)) = (junit, &ran) {
        let mut out = std::io::stdout().lock();
        out.write_all(harness::junit::render_error(&super::message(e)).as_bytes())?;
        out.flush()?;
    }
    ran
}

/// [`run`], its bad input an error.
fn run_checks(args: Args) -> anyhow::Result<ExitCode> {
    let cwd = std::env::current_dir()?;
    let paths: Vec<PathBuf> = args.paths.iter().map(|p| cwd.join(p)).collect();
    for p in &paths {
        if !p.exists() {
            anyhow::bail!("{}: no such file or folder", p.display());
        }
    }
    // Each path is checked in its own project (the nearest tuicast.toml or Cargo.toml
    // package), and a workspace root without a suite of its own runs its members' suites.
    let mut projects: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    if paths.is_empty() {
        let root = tuicast::config::project_root(&cwd).unwrap_or_else(|| cwd.clone());
        let own = Config::load(&root)?.casts.is_dir();
        let members = tuicast::config::suites_below(&root).map_err(anyhow::Error::msg)?;
        if own || members.is_empty() {
            projects.push((root.clone(), Vec::new()));
        }
        if args.workspace || !own {
            projects.extend(members.iter().map(|m| (m.clone(), Vec::new())));
        } else if !members.is_empty() {
            let shown: Vec<String> = members.iter().map(|m| shown_dir(&cwd, m)).collect();
            eprintln!(
                "note: {} more suite(s) below: {} (tuicast test --workspace checks them too)",
                members.len(),
                shown.join(", ")
            );
        }
    } else {
        for p in paths {
            let root = tuicast::config::project_root(&p).unwrap_or_else(|| cwd.clone());
            match projects.iter_mut().find(|(r, _)| *r == root) {
                Some((_, ps)) => ps.push(p),
                None => projects.push((root, vec![p])),
            }
        }
    }
    let report = args
        .report
        .as_ref()
        .map(|d| ReportDir::new(cwd.join(d)))
        .or_else(ReportDir::from_env);
    if let Some(r) = &report {
        // Checked before anything runs: a report replaces files in its folder.
        r.claim()
            .map_err(|e| anyhow::anyhow!("cannot write the report: {e}"))?;
    }
    if let (Some(r), Some(_)) = (&report, &args.report) {
        // A folder named on the command line is this run's report alone.
        r.clear()
            .map_err(|e| anyhow::anyhow!("cannot clear {}: {e}", r.path().display()))?;
    }
    let many = projects.len() > 1;
    let mut worst = 0u8;
    let mut junit = Vec::new();
    for (root, paths) in projects {
        if many {
            match args.message_format {
                MessageFormat::Human => println!("\nsuite {}:", shown_dir(&cwd, &root)),
                // One JSON object per line, as every other line of this format.
                MessageFormat::Json => {
                    println!(
                        "{}",
                        Message::Suite {
                            suite: root.clone()
                        }
                        .line()
                    )
                }
                MessageFormat::Junit => {}
            }
        }
        let code = run_project(&args, &root, &paths, report.as_ref(), &mut junit)?;
        if tuicast::record::interrupt::requested().is_some() {
            break;
        }
        // Bad input (2) outranks a failed check (1).
        worst = worst.max(code);
    }
    if args.message_format == MessageFormat::Junit {
        let mut out = std::io::stdout().lock();
        out.write_all(harness::junit::render(&junit).as_bytes())?;
        out.flush()?;
    }
    if let Some(signal) = tuicast::record::interrupt::requested() {
        return Ok(ExitCode::from(
            tuicast::record::interrupt::exit_status(signal) as u8,
        ));
    }
    Ok(ExitCode::from(worst))
}

/// A case that ran: its index, seconds, and its live recording's length and settling time.
type Timed = (usize, f64, Option<(f64, f64)>);

/// The slowest casts of a run (when it checked more than one) and, when it recorded live,
/// how much of the recordings' time was spent waiting for checkpoints to settle.
fn timing_summary(cases: &[harness::Case], timed: &mut [Timed]) -> String {
    let mut text = String::new();
    if timed.len() < 2 {
        return text;
    }
    timed.sort_by(|a, b| b.1.total_cmp(&a.1));
    let shown: Vec<String> = timed
        .iter()
        .take(SLOWEST_SHOWN)
        .map(|(i, seconds, live)| {
            let stem = escape_for_terminal(&cases[*i].stem, 200);
            match live {
                Some((recording, settling)) => format!(
                    "{stem} {seconds:.2}s (of it {recording:.2}s recording live, \
                     {settling:.3}s of that waiting for checkpoints to settle)"
                ),
                None => format!("{stem} {seconds:.2}s"),
            }
        })
        .collect();
    text.push_str(&format!("slowest: {}\n", shown.join(", ")));
    let live: Vec<(f64, f64)> = timed.iter().filter_map(|t| t.2).collect();
    if !live.is_empty() {
        let recording: f64 = live.iter().map(|t| t.0).sum();
        let settling: f64 = live.iter().map(|t| t.1).sum();
        text.push_str(&format!(
            "live: {} recording(s), {recording:.2}s of programs running, {settling:.3}s of it \
             waiting for checkpoints to settle after the program's last output ({:.1}%)\n",
            live.len(),
            if recording > 0.0 {
                100.0 * settling / recording
            } else {
                0.0
            }
        ));
    }
    text
}

/// How many of the slowest casts `tuicast test` names.
const SLOWEST_SHOWN: usize = 3;

/// `dir` as the user would type it from `cwd` (`.` for the folder itself).
fn shown_dir(cwd: &std::path::Path, dir: &std::path::Path) -> String {
    let rel = match dir.strip_prefix(cwd) {
        Ok(r) if r.as_os_str().is_empty() => std::path::Path::new("."),
        Ok(r) => r,
        Err(_) => dir,
    };
    escape_for_terminal(&rel.display().to_string(), 300)
}

/// Checks the suite of the project at `root` (or the `paths` in it): its exit status.
fn run_project(
    args: &Args,
    root: &std::path::Path,
    paths: &[PathBuf],
    report: Option<&ReportDir>,
    junit: &mut Vec<harness::junit::JunitCase>,
) -> anyhow::Result<u8> {
    let mut config = Config::load(root)?;
    if args.deccolm {
        config.engine.options = config.engine.options.with_deccolm(true);
    }
    if args.remove_orphans {
        // Refused before anything runs: the folder comes from a tuicast.toml that may not be
        // the user's own.
        assert::pending::check_removable(&config.root, &config.casts, &config.snapshots)?;
    }
    let update = if args.update {
        UpdateAction::Overwrite
    } else {
        UpdateAction::from_env().map_err(anyhow::Error::msg)?
    };
    let color = harness::use_color(std::io::stdout().is_terminal())
        && args.message_format == MessageFormat::Human;
    let live = if args.live {
        LiveMode::Always
    } else if args.replay {
        LiveMode::Never
    } else {
        LiveMode::from_env()?
    };
    // The cases and, of the whole suite only, the goldens no cast produces, as every runner
    // finds them (`harness::driver`): those of casts that are gone are a failing test.
    let suite = Suite::open(config, paths, live)?;
    let (config, cases, left) = (&suite.config, &suite.cases, &suite.leftovers);
    let whole = args.paths.is_empty() && args.filter.is_empty();
    // (Where goldens show a suite that moved, recording a new cast is not the fix.)
    if cases.is_empty() && left.gone.is_empty() {
        eprintln!(
            "no casts under {}: record one with `tuicast record SCENARIO.toml` or \
             `tuicast record -o casts/NAME.cast -- PROGRAM`",
            escape_for_terminal(&config.casts.display().to_string(), 300)
        );
    }
    if args.list && args.message_format == MessageFormat::Junit {
        anyhow::bail!("--list prints text or JSON (--message-format json), not JUnit");
    }
    let mut out = std::io::stdout().lock();
    let filter = &Filter {
        texts: &args.filter,
        exact: args.exact,
    };
    // Each `[[screenshot]]` is a check too; when paths name some casts, those drawn from them.
    let named: Vec<PathBuf> = cases
        .iter()
        .map(|c| tuicast::util::resolved(&c.cast))
        .collect();
    let screenshots: Vec<&tuicast::config::Screenshot> = config
        .screenshots
        .iter()
        .filter(|s| paths.is_empty() || named.contains(&tuicast::util::resolved(&s.cast)))
        .filter(|s| wanted(&harness::screenshot::test_name(s), filter))
        .collect();
    let gone = suite.gone().filter(|r| wanted(&r.test, filter));
    if !args.filter.is_empty() {
        let matched = cases
            .iter()
            .map(|c| selected(c, filter, live))
            .sum::<usize>()
            + screenshots.len()
            + usize::from(gone.is_some());
        if matched == 0 {
            // A filter that selects nothing would pass having checked nothing.
            eprintln!(
                "error: no test of {} matches {} (tuicast test --list shows the names)",
                shown_dir(&std::env::current_dir().unwrap_or_default(), &config.root),
                args.filter
                    .iter()
                    .map(|f| format!("-k {:?}", escape_for_terminal(f, 200)))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            return Ok(super::EXIT_BAD_INPUT);
        }
    }
    if args.list {
        list(
            &mut out,
            cases,
            &screenshots,
            gone.as_ref(),
            filter,
            live,
            args.message_format,
        )?;
        return Ok(0);
    }
    // Only failures are kept for the report at the end; passes are counted.
    let opts = harness::Options::new(update).color(color).live(live);
    // A run that records ends its recordings cleanly on SIGINT/SIGTERM/SIGHUP.
    if cases.iter().any(|c| live.records(c)) {
        tuicast::record::interrupt::install().context("cannot set up signal handling")?;
    }
    let mut report_summary = Tally::default().live(live);
    // One result in the chosen format: its line, its JSON record, or its JUnit case (taking
    // `time` seconds); counted in the summary.
    let emit = |out: &mut std::io::StdoutLock<'static>,
                summary: &mut Tally,
                junit: &mut Vec<harness::junit::JunitCase>,
                r: harness::CheckResult,
                time: f64|
     -> std::io::Result<()> {
        match args.message_format {
            MessageFormat::Human => out.write_all(summary.add(r).as_bytes())?,
            MessageFormat::Json => {
                writeln!(out, "{}", Message::Test(TestRecord::of_in(&r, live)).line())?;
                summary.count(r);
            }
            MessageFormat::Junit => {
                junit.push(suite.junit_case(&r, time));
                summary.count(r);
            }
        }
        Ok(())
    };
    // Each case that ran: its index, seconds, and its live recording's times.
    let mut timed: Vec<Timed> = Vec::new();
    let mut bad_input = false;
    if args.message_format == MessageFormat::Human {
        // As libtest does: how many checks will run.
        let total: usize = cases
            .iter()
            .map(|c| selected(c, filter, live))
            .sum::<usize>()
            + screenshots.len()
            + usize::from(gone.is_some());
        out.write_all(Tally::title(total).as_bytes())?;
    }
    // Results are printed as they come, in the order of the cases: each case's lines as soon
    // as it and every case before it are done.
    tuicast::util::par_map_ordered(
        cases,
        |case| -> (Vec<CheckResult>, f64) {
            if selected(case, filter, live) == 0 {
                return (Vec::new(), 0.0);
            }
            let started = std::time::Instant::now();
            let repeat = args.repeat.map_or(1, usize::from);
            let results: Vec<CheckResult> =
                harness::repeat::check_case_repeated(config, case, &opts, repeat)
                    .into_iter()
                    // A broken cast or scenario is reported whatever the filter: its
                    // checkpoints cannot be named, so no filter can be known to skip them;
                    // and so is a failed live recording, which the checkpoints point to.
                    .filter(|r| {
                        wanted(&r.test, filter)
                            || case.checkpoints.is_err()
                            || (live.records(case) && r.test == case.stem && !r.passed())
                    })
                    .collect();
            if let Some(report) = report {
                driver::report_case(report, config, case, &results, started.elapsed());
            }
            (results, started.elapsed().as_secs_f64())
        },
        |i, (case_results, seconds)| -> anyhow::Result<()> {
            if !case_results.is_empty() {
                let live = harness::live_recording_times(&cases[i].cast);
                let live = live.map(|t| (t.recording, t.settling));
                timed.push((i, seconds, live));
            }
            if cases[i].checkpoints.is_err() {
                bad_input |= !case_results.is_empty();
            }
            for (n, r) in case_results.into_iter().enumerate() {
                // A golden refused as bad input (a symbolic link, no regular file) is exit 2.
                bad_input |= r.bad_input;
                // A cast's trials share one replay: the first carries its time.
                let time = if n == 0 { seconds } else { 0.0 };
                emit(&mut out, &mut report_summary, junit, r, time)?;
            }
            out.flush()?;
            Ok(())
        },
    )?;
    tuicast::util::par_map_ordered(
        &screenshots,
        |shot| {
            let started = std::time::Instant::now();
            let (r, drawn) = harness::screenshot::check_drawn(config, shot, update, live);
            if let Some(report) = report {
                let (drawn, took) = (drawn.as_deref(), started.elapsed());
                driver::report_screenshot(report, config, shot, &r, drawn, took);
            }
            r
        },
        |_, r| -> anyhow::Result<()> {
            emit(&mut out, &mut report_summary, junit, r, 0.0)?;
            out.flush()?;
            Ok(())
        },
    )?;
    if let Some(r) = gone {
        emit(&mut out, &mut report_summary, junit, r, 0.0)?;
    }
    if args.message_format == MessageFormat::Human {
        out.write_all(report_summary.failures().as_bytes())?;
        out.write_all(timing_summary(cases, &mut timed).as_bytes())?;
    }
    // Asked to record live, these could not be: say so rather than pass quietly.
    let asked = if args.live {
        "--live"
    } else {
        "TUICAST_LIVE=1"
    };
    let checked = cases.iter().filter(|c| selected(c, filter, live) > 0);
    if let Some(note) = suite.unrecorded_note(asked, checked) {
        eprintln!("{note}");
    }
    if !whole {
        // Orphans are known of the whole suite only.
    } else if !args.remove_orphans {
        // The same words as `cargo test` and pytest print (`harness::Leftovers::note`); in
        // JSON, also as records (`orphan`), with the note on stderr.
        let note = suite.leftovers_note();
        match args.message_format {
            MessageFormat::Human => out.write_all(note.as_bytes())?,
            _ => eprint!("{note}"),
        }
        if args.message_format == MessageFormat::Json {
            for o in &left.orphans {
                let orphan = Message::Orphan {
                    orphan: o.clone(),
                    removed: false,
                };
                writeln!(out, "{}", orphan.line())?;
            }
        }
    } else {
        // Left by a tuicast killed while writing a golden (SIGKILL during --update): listed, and
        // removed with the orphans.
        let stale = assert::pending::stale_temporaries(&config.snapshots)?;
        if !stale.is_empty() {
            if args.remove_orphans {
                assert::pending::check_removable(&config.root, &config.casts, &config.snapshots)?;
                for f in &stale {
                    std::fs::remove_file(f)?;
                }
            }
            if args.message_format == MessageFormat::Human {
                let verb = if args.remove_orphans {
                    "removed"
                } else {
                    "found"
                };
                let heading = format!(
                    "{} temporary file(s) of an interrupted write {verb}:",
                    stale.len()
                );
                list_files(&mut out, &heading, &stale)?;
                if !args.remove_orphans {
                    writeln!(out, "remove them with: tuicast test --remove-orphans")?;
                }
            }
        }
        let orphans = if args.paths.is_empty() && args.filter.is_empty() {
            harness::orphans(config, cases)?
        } else {
            Vec::new()
        };
        if !orphans.is_empty() {
            let (removed, kept) = if args.remove_orphans {
                let stems: HashSet<String> = cases.iter().map(|c| c.stem.clone()).collect();
                assert::pending::remove_orphans(
                    &config.root,
                    &config.casts,
                    &config.snapshots,
                    &orphans,
                    &stems,
                )
                .map_err(|e| anyhow::anyhow!("{e}"))?
            } else {
                (Vec::new(), orphans.clone())
            };
            if args.message_format == MessageFormat::Human {
                if !removed.is_empty() {
                    let heading = format!(
                        "{} orphaned snapshot(s) removed (no cast checkpoint produces them):",
                        removed.len()
                    );
                    list_files(&mut out, &heading, &removed)?;
                }
                if !kept.is_empty() {
                    let heading = format!(
                        "{} orphaned snapshot(s) found (no cast checkpoint produces them):",
                        kept.len()
                    );
                    list_files(&mut out, &heading, &kept)?;
                    if args.remove_orphans {
                        writeln!(
                            out,
                            "kept: their cast is gone (tuicast removes only goldens of a cast it \
                             knows); delete them by hand"
                        )?;
                    } else {
                        writeln!(out, "remove them with: tuicast test --remove-orphans")?;
                    }
                }
            } else if args.message_format == MessageFormat::Json {
                for (list, was_removed) in [(&removed, true), (&kept, false)] {
                    for o in list {
                        writeln!(
                            out,
                            "{}",
                            Message::Orphan {
                                orphan: o.clone(),
                                removed: was_removed
                            }
                            .line()
                        )?;
                    }
                }
            }
        }
    }
    if let Some(dir) = report {
        write_report(dir, &mut out, args.message_format == MessageFormat::Human)?;
    }
    match args.message_format {
        MessageFormat::Human => out.write_all(report_summary.summary().as_bytes())?,
        MessageFormat::Json => writeln!(
            out,
            "{}",
            Message::Summary {
                summary: Summary::new(report_summary.passed(), report_summary.failed().len())
            }
            .line()
        )?,
        // One document for the whole run, written by the caller.
        MessageFormat::Junit => {}
    }
    out.flush()?;
    if let Some(signal) = tuicast::record::interrupt::requested() {
        eprintln!(
            "interrupted by {}: the recordings were ended",
            tuicast::record::interrupt::signal_name(signal)
        );
        return Ok(tuicast::record::interrupt::exit_status(signal) as u8);
    }
    Ok(if bad_input {
        super::EXIT_BAD_INPUT
    } else if report_summary.failed().is_empty() {
        0
    } else {
        super::EXIT_CHECK_FAILED
    })
}

/// The `--filter`s of a run and whether they match whole names (`--exact`).
struct Filter<'a> {
    texts: &'a [String],
    exact: bool,
}

/// Whether a test name passes the filters: no filter, or one it contains (equals, with
/// `--exact`), as libtest's filters.
fn wanted(name: &str, filter: &Filter<'_>) -> bool {
    filter.texts.is_empty()
        || filter.texts.iter().any(|f| {
            if filter.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        })
}

/// `tuicast test --list`: the tests the filters select, in the order a run checks them (a
/// case that cannot be read is its one test, whatever the filter, as in a run).
fn list(
    out: &mut impl Write,
    cases: &[harness::Case],
    screenshots: &[&tuicast::config::Screenshot],
    gone: Option<&harness::CheckResult>,
    filter: &Filter<'_>,
    live: LiveMode,
    format: MessageFormat,
) -> anyhow::Result<()> {
    let mut count = 0usize;
    let shots = screenshots
        .iter()
        .map(|s| (harness::screenshot::listed(s), true))
        .chain(gone.map(|r| (ListedTest::of_result(r), true)));
    for (t, readable) in cases
        .iter()
        .flat_map(|case| {
            ListedTest::of_case(case, live)
                .into_iter()
                .map(|t| (t, case.checkpoints.is_ok()))
        })
        .chain(shots)
    {
        // (A case that cannot be read is listed whatever the filter.)
        if !wanted(&t.test, filter) && readable {
            continue;
        }
        count += 1;
        match format {
            MessageFormat::Json => writeln!(out, "{}", Message::Listed { listed: t }.line())?,
            _ => writeln!(out, "{}: test", escape_for_terminal(&t.test, 300))?,
        }
    }
    if format != MessageFormat::Json {
        writeln!(out, "\n{count} test{}", if count == 1 { "" } else { "s" })?;
    }
    out.flush()?;
    Ok(())
}

/// How many checks of `case` the filter selects: one per checkpoint, named as the harness
/// names them, or one for a cast that could not be read.
fn selected(case: &harness::Case, filter: &Filter<'_>, live: LiveMode) -> usize {
    if case.checkpoints.is_err() {
        return 1;
    }
    case.test_names(live)
        .iter()
        .filter(|name| wanted(name, filter))
        .count()
}

/// A heading, then one file per line, indented and escaped.
fn list_files(out: &mut impl Write, heading: &str, files: &[PathBuf]) -> std::io::Result<()> {
    writeln!(out, "{heading}")?;
    let cwd = std::env::current_dir().unwrap_or_default();
    for f in files {
        // As the user would type it: relative to where tuicast runs, when inside it.
        let shown = f.strip_prefix(&cwd).unwrap_or(f);
        writeln!(
            out,
            "  {}",
            escape_for_terminal(&shown.display().to_string(), 300)
        )?;
    }
    Ok(())
}

/// Writes the report's page and, under GitHub Actions, appends its summary to
/// `GITHUB_STEP_SUMMARY` (`harness::driver::finish_report`); says where the page is.
pub(super) fn write_report(dir: &ReportDir, out: &mut impl Write, say: bool) -> anyhow::Result<()> {
    let line = driver::finish_report(dir, true)?;
    if say {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
