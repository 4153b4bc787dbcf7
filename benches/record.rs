//! Recording: throughput of the recorder on a program that writes ~23 MB as fast as it can,
//! against util-linux `script` doing the same PTY work without a terminal engine; and the
//! latency of a wait, from the awaited text arriving on the PTY to the next step.
//!
//! ```text
//! cargo bench --bench record                    # everything (~5 minutes)
//! cargo bench --bench record -- record/         # throughput only
//! cargo bench --bench record -- wait-latency    # latency only
//! ```
//!
//! Throughput (criterion group `record`, one iteration = one whole recording of
//! `seq 1 3000000`, 22.9 MB of output, 25.9 MB once the PTY turns `\n` into `\r\n`):
//!
//! - `record/session`: the library recorder, [`Session`] writing a cast file;
//! - `record/session-wait_text`: the same with `wait_text("3000000")` before the exit: a
//!   wait is checked whenever output has come in (once per burst of chunks), and each
//!   check copies and renders the screen;
//! - `record/cli`: `tuicast record` on the equivalent scenario file (the binary cargo built
//!   for this bench);
//! - `record/script`: `script -q -f -c 'seq 1 3000000' /dev/null >/dev/null`, the same PTY
//!   work and no engine;
//! - `parts/*`: where the recorder's time goes: `seq` alone into a pipe, tuicast's PTY layer
//!   alone (spawn, read everything, no engine, no cast), the live engine fed the recorded
//!   output in memory (and avt alone, without tuicast's adapter), and the cast writer
//!   writing it to a file (flushing every event, as a recording does).
//!
//! Wait latency (printed, not a criterion benchmark, because criterion keeps no
//! percentiles): a python3 program waits for a line on stdin, then writes its wall-clock
//! time (`time.time_ns()`) and a marker in one `write`; the bench types the line, waits for
//! the marker with [`Session::wait_text`], reads the clock at once, and takes the difference
//! with the time read back from the screen; once with the cast written to a file, once in
//! memory. The same is measured on tuicast's bare PTY layer (reader thread + channel, no
//! engine) to show what the session adds. Both clocks are `CLOCK_REALTIME` (`SystemTime`
//! and `time.time_ns()`; nix's `clock_gettime` needs its `time` feature, not enabled).
//!
//! Missing tools (`script`, `python3`, `seq`) skip their benchmarks with a message.
//! See docs/performance.md for results.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use tuicast::cast::{self, CastWriter, Event, EventData};
use tuicast::record::pty::{Pty, PtyEvent};
use tuicast::record::{base_env, Session, SessionOptions};
use tuicast::size::Size;
use tuicast::term::EngineKind;

/// The last number `seq` prints.
const SEQ_N: u64 = 3_000_000;
/// Iterations of the wait-latency measurement (after a few unmeasured ones).
const LATENCY_ROUNDS: usize = 200;
const LATENCY_WARMUP: usize = 10;

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn main() {
    let filter = name_filter();
    let selected = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    let tmp = tempfile::tempdir().expect("temp dir");

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(20))
        .configure_from_args();

    const IDS: &[&str] = &[
        "record/session",
        "record/session-wait_text",
        "record/cli",
        "record/script",
        "parts/seq-to-pipe",
        "parts/pty-only",
        "parts/engine-avt",
        "parts/raw-avt",
        "parts/cast-write",
    ];
    if IDS.iter().any(|id| selected(id)) {
        if has("seq") {
            throughput(&mut c, tmp.path());
        } else {
            eprintln!("record bench: throughput skipped: no `seq` on PATH or on recordings' PATH");
        }
    }
    if selected("wait-latency") {
        wait_latency();
    }
    c.final_summary();
}

fn throughput(c: &mut Criterion, tmp: &Path) {
    let output_bytes = seq_output_bytes(SEQ_N);
    // One recording first: it must work, and its output feeds the `parts/` benchmarks.
    let probe = tmp.join("probe.cast");
    record_session(&probe);
    let outputs = outputs_of(&probe);
    let pty_bytes: usize = outputs.iter().map(String::len).sum();
    assert_eq!(
        pty_bytes as u64,
        output_bytes + SEQ_N,
        "the recording lost output (every \\n should arrive as \\r\\n)"
    );
    eprintln!(
        "record bench: seq 1 {SEQ_N}: {:.1} MB of output, {:.1} MB through the PTY in {} \
         output events, cast {:.1} MB",
        output_bytes as f64 / 1e6,
        pty_bytes as f64 / 1e6,
        outputs.len(),
        file_len(&probe) as f64 / 1e6,
    );

    let mut group = c.benchmark_group("record");
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::BytesDecimal(output_bytes));

    let cast = tmp.join("session.cast");
    group.bench_function("session", |b| b.iter(|| record_session(&cast)));

    // The same recording with a wait for the last line: the wait is checked after each burst
    // of output, so this shows what a wait costs while a program writes a lot.
    let last = SEQ_N.to_string();
    group.bench_function("session-wait_text", |b| {
        b.iter(|| {
            let opts = SessionOptions::new(["seq".to_string(), "1".to_string(), SEQ_N.to_string()]);
            let mut s = Session::spawn(opts, &cast).expect("spawn seq");
            s.set_timeout(Duration::from_secs(120));
            s.wait_text(&last).expect("last line");
            assert_eq!(s.wait_exit(None).expect("exit"), 0);
            s.finish().expect("finish")
        })
    });

    let scenario = tmp.join("seq.toml");
    std::fs::write(
        &scenario,
        format!("shell = \"seq 1 {SEQ_N}\"\nsteps = [{{ exit = 0, timeout = \"120s\" }}]\n"),
    )
    .expect("write scenario");
    let cli_cast = tmp.join("cli.cast");
    group.bench_function("cli", |b| {
        b.iter(|| {
            run_quiet(
                Command::new(env!("CARGO_BIN_EXE_tuicast"))
                    .arg("record")
                    .arg(&scenario)
                    .arg("-o")
                    .arg(&cli_cast),
            )
        })
    });

    if has("script") {
        let cmd = format!("seq 1 {SEQ_N}");
        group.bench_function("script", |b| {
            b.iter(|| run_quiet(Command::new("script").args(["-q", "-f", "-c", &cmd, "/dev/null"])))
        });
    } else {
        eprintln!("record bench: record/script skipped: util-linux `script` is not on PATH");
    }
    group.finish();

    let mut group = c.benchmark_group("parts");
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::BytesDecimal(output_bytes));
    parts(&mut group, tmp, &outputs);
    group.finish();
}

/// The pieces of a recording, each alone.
fn parts(group: &mut Group<'_>, tmp: &Path, outputs: &[String]) {
    let n = SEQ_N.to_string();
    group.bench_function("seq-to-pipe", |b| {
        b.iter(|| {
            let mut child = Command::new("seq")
                .args(["1", &n])
                .stdout(Stdio::piped())
                .spawn()
                .expect("seq");
            let mut out = child.stdout.take().expect("stdout");
            std::io::copy(&mut out, &mut std::io::sink()).expect("read seq");
            assert!(child.wait().expect("wait seq").success());
        })
    });
    group.bench_function("pty-only", |b| b.iter(pty_only));
    group.bench_function("engine-avt", |b| {
        b.iter(|| {
            let mut engine = EngineKind::Avt.create(Size { cols: 80, rows: 24 });
            for o in outputs {
                engine.feed(o);
            }
            engine.screen()
        })
    });
    // avt alone (no adapter): what the engine itself costs on this output.
    group.bench_function("raw-avt", |b| {
        b.iter(|| {
            let mut vt = avt::Vt::builder().size(80, 24).scrollback_limit(0).build();
            for o in outputs {
                std::hint::black_box(vt.feed_str(o));
            }
            vt.cursor()
        })
    });
    let cast = tmp.join("writer.cast");
    group.bench_function("cast-write", |b| {
        b.iter(|| {
            let file = std::fs::File::create(&cast).expect("create cast");
            let mut w = CastWriter::new(std::io::BufWriter::new(file), &Default::default())
                .expect("header");
            for (i, o) in outputs.iter().enumerate() {
                w.write_event(&Event {
                    time: i as f64 * 1e-4,
                    line: 0,
                    data: EventData::Output(o.clone()),
                })
                .expect("write");
                w.flush().expect("flush");
            }
            w.into_inner().expect("flush")
        })
    });
}

/// One recording of `seq` by the library, checked.
fn record_session(cast: &Path) {
    let opts = SessionOptions::new(["seq".to_string(), "1".to_string(), SEQ_N.to_string()]);
    let mut s = Session::spawn(opts, cast).expect("spawn seq");
    let status = s
        .wait_exit(Some(Duration::from_secs(120)))
        .expect("seq exits");
    assert_eq!(status, 0);
    let finished = s.finish().expect("finish");
    assert_eq!(finished.status, 0);
}

/// tuicast's PTY layer alone: spawn `seq`, read every chunk, wait for the exit.
fn pty_only() -> usize {
    let argv = ["seq".to_string(), "1".to_string(), SEQ_N.to_string()];
    let pty = Pty::spawn(
        &argv,
        &std::env::temp_dir(),
        &base_env(),
        Size { cols: 80, rows: 24 },
    )
    .expect("spawn seq");
    let (mut bytes, mut eof, mut exited) = (0, false, false);
    while !(eof && exited) {
        match pty.recv(Some(Duration::from_secs(120))) {
            Ok(PtyEvent::Output(b)) => bytes += b.len(),
            Ok(PtyEvent::Eof) => eof = true,
            Ok(PtyEvent::Exit(status)) => {
                assert_eq!(status, 0);
                exited = true;
            }
            Ok(_) => {}
            Err(e) => panic!("pty: {e}"),
        }
    }
    bytes
}

/// The program of the latency benchmark: for each line on stdin, one write of the wall-clock
/// time and a marker made from the line.
const ECHO_TIME: &str = r#"
import os, sys, time
os.write(1, b"ready\n")
for line in sys.stdin:
    n = line.strip()
    if n == "q":
        break
    os.write(1, ("T%d M<%s>E\n" % (time.time_ns(), n)).encode())
"#;

fn wait_latency() {
    if !has("python3") {
        eprintln!("record bench: wait-latency skipped: no python3 on PATH or on recordings' PATH");
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut session = session_latency(Some(&tmp.path().join("latency.cast")));
    let mut in_memory = session_latency(None);
    let mut raw = raw_pty_latency();
    println!(
        "\nwait latency: {LATENCY_ROUNDS} rounds in one session (after {LATENCY_WARMUP} \
         unmeasured), time from the program's write to the step after the wait"
    );
    println!("| path | min | median | p95 | max | mean |");
    println!("| --- | --: | --: | --: | --: | --: |");
    print_row("Session::wait_text, cast file", &mut session.0);
    print_row("Session::wait_text, cast in memory", &mut in_memory.0);
    print_row("bare PTY layer (no engine, no cast)", &mut raw);
    println!(
        "one wait check on this 80x24 screen: Session::screen() {:.1} µs, \
         screen().text() {:.1} µs",
        session.1.as_secs_f64() * 1e6,
        session.2.as_secs_f64() * 1e6
    );
}

/// The latencies of the waits in one session recording to `cast` (in memory for `None`),
/// and what one `screen()` and one `screen().text()` cost on its screen.
fn session_latency(cast: Option<&Path>) -> (Vec<i128>, Duration, Duration) {
    let mut opts = SessionOptions::new(["python3", "-S", "-c", ECHO_TIME]);
    opts.timeout = Duration::from_secs(10);
    let mut s = match cast {
        Some(path) => Session::spawn(opts, path),
        None => Session::spawn_in_memory(opts),
    }
    .expect("spawn python3");
    s.wait_text("ready").expect("python3 starts");
    let mut session = Vec::new();
    for i in 0..LATENCY_WARMUP + LATENCY_ROUNDS {
        let marker = format!("M<{i}>E");
        s.type_text(&i.to_string()).expect("type");
        s.press("Enter").expect("press");
        s.wait_text(&marker).expect("wait");
        let now = now_ns();
        let sent = stamp_before(&s.screen().text(), &marker).expect("timestamp on screen");
        if i >= LATENCY_WARMUP {
            session.push(now - sent);
        }
    }
    // What each check of a wait costs: the screen is copied out of the engine and rendered.
    let t = Instant::now();
    for _ in 0..1000 {
        std::hint::black_box(s.screen());
    }
    let screen_cost = t.elapsed() / 1000;
    let t = Instant::now();
    for _ in 0..1000 {
        std::hint::black_box(s.screen().text());
    }
    let check_cost = t.elapsed() / 1000;
    s.type_text("q").expect("type");
    s.press("Enter").expect("press");
    s.wait_exit(None).expect("python3 exits");
    s.finish().expect("finish");
    (session, screen_cost, check_cost)
}

/// The same round trip on tuicast's PTY layer alone: search the raw bytes.
fn raw_pty_latency() -> Vec<i128> {
    let argv: Vec<String> = ["python3", "-S", "-c", ECHO_TIME]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut pty = Pty::spawn(
        &argv,
        &std::env::temp_dir(),
        &base_env(),
        Size { cols: 80, rows: 24 },
    )
    .expect("spawn python3");
    let mut seen = String::new();
    read_until(&pty, &mut seen, "ready");
    let mut out = Vec::new();
    for i in 0..LATENCY_WARMUP + LATENCY_ROUNDS {
        let marker = format!("M<{i}>E");
        seen.clear();
        pty.write(format!("{i}\r").as_bytes()).expect("write");
        read_until(&pty, &mut seen, &marker);
        let now = now_ns();
        let sent = stamp_before(&seen, &marker).expect("timestamp in output");
        if i >= LATENCY_WARMUP {
            out.push(now - sent);
        }
    }
    let _ = pty.write(b"q\r");
    out
}

/// Reads PTY output into `seen` until it holds `text`.
fn read_until(pty: &Pty, seen: &mut String, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !seen.contains(text) {
        let left = deadline.saturating_duration_since(Instant::now());
        match pty.recv(Some(left)) {
            Ok(PtyEvent::Output(b)) => seen.push_str(&String::from_utf8_lossy(&b)),
            other => panic!("python3 ended or timed out: {other:?}"),
        }
    }
}

/// The number after `T` on the line that holds `marker`.
fn stamp_before(text: &str, marker: &str) -> Option<i128> {
    let line = text.lines().find(|l| l.contains(marker))?;
    let t = line.find('T')?;
    line[t + 1..].split_whitespace().next()?.parse().ok()
}

fn now_ns() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos() as i128
}

fn print_row(label: &str, ns: &mut [i128]) {
    ns.sort_unstable();
    let ms = |v: i128| format!("{:.3} ms", v as f64 / 1e6);
    let at = |q: f64| ns[((ns.len() - 1) as f64 * q).round() as usize];
    let mean = ns.iter().sum::<i128>() / ns.len() as i128;
    println!(
        "| {label} | {} | {} | {} | {} | {} |",
        ms(ns[0]),
        ms(at(0.5)),
        ms(at(0.95)),
        ms(ns[ns.len() - 1]),
        ms(mean)
    );
}

/// Bytes `seq 1 n` writes: every number and its newline.
fn seq_output_bytes(n: u64) -> u64 {
    let mut total = 0;
    let mut start = 1;
    let mut digits = 1;
    while start <= n {
        let end = (start * 10 - 1).min(n);
        total += (end - start + 1) * (digits + 1);
        start *= 10;
        digits += 1;
    }
    total
}

fn outputs_of(cast: &Path) -> Vec<String> {
    cast::open(cast)
        .expect("open cast")
        .map(|e| e.expect("event"))
        .filter_map(|e| match e.data {
            EventData::Output(o) => Some(o),
            _ => None,
        })
        .collect()
}

fn file_len(p: &Path) -> u64 {
    std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)
}

fn run_quiet(cmd: &mut Command) {
    let out = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("run command");
    if !out.status.success() {
        let _ = std::io::stderr().write_all(&out.stderr);
        panic!("{cmd:?} failed: {}", out.status);
    }
}

/// Whether `program` can be run both by this process (its PATH) and in a recording (the PATH
/// of [`base_env`], which recorded programs get).
fn has(program: &str) -> bool {
    let recorded = base_env().get("PATH").cloned().unwrap_or_default();
    [
        std::env::var_os("PATH").unwrap_or_default(),
        recorded.into(),
    ]
    .iter()
    .all(|paths| std::env::split_paths(paths).any(|d: PathBuf| d.join(program).is_file()))
}

/// The benchmark name filter given on the command line, if any (criterion's first
/// positional argument; options that take a value are skipped with their value).
fn name_filter() -> Option<String> {
    const TAKES_VALUE: &[&str] = &[
        "--save-baseline",
        "-s",
        "--baseline",
        "-b",
        "--baseline-lenient",
        "--load-baseline",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--profile-time",
        "--plotting-backend",
        "--output-format",
        "--color",
        "--format",
        "--logfile",
    ];
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if TAKES_VALUE.contains(&a.as_str()) {
            i += 2;
            continue;
        }
        if !a.starts_with('-') {
            return Some(a.clone());
        }
        i += 1;
    }
    None
}
