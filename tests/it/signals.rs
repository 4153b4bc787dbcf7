//! Signals and programs that outlive a recording: SIGINT/SIGTERM/SIGHUP to `tuicast record`
//! end the program's whole session (also members that called `setsid` and lost their
//! parent), remove the private HOME and leave a valid `.partial`; a daemon never survives a
//! normal recording nor holds it open; a loop of SIGKILLs and SIGINTs at random moments
//! leaves nothing behind once the next recording has swept up after the SIGKILLs.
//!
//! Every test has its own `TMPDIR` (where the private HOMEs go) and a marker in the argv of
//! its programs; survivors are found in `/proc` by that marker or by a `HOME` inside the
//! test's `TMPDIR` in their environment.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use crate::util::{Dir, Tuicast};

/// A program that ignores SIGHUP and never reads its terminal, with two daemons: one that
/// double-forks into its own session keeping the terminal open, one that also closes it.
fn hostile_shell(marker: &str) -> String {
    format!(
        r#"shell = '''
trap '' HUP
(setsid sh -c 'trap "" HUP; while :; do sleep 1; done' {marker}-daemon &)
setsid sh -c 'while :; do sleep 1; done' {marker}-quiet </dev/null >/dev/null 2>&1 &
echo ready
while :; do sleep 1; done
'''
size = "40x5"
"#
    )
}

/// Processes alive (not zombies) with `marker` in their argv or `tmp` in their environment.
fn survivors(marker: &str, tmp: &Path) -> Vec<String> {
    let tmp = tmp.display().to_string();
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let state = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next());
        if matches!(state, None | Some("Z") | Some("X")) {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        let has =
            |hay: &[u8], needle: &str| hay.windows(needle.len()).any(|w| w == needle.as_bytes());
        if has(&cmdline, marker) || has(&environ, &format!("HOME={tmp}")) {
            out.push(format!(
                "{pid}: {}",
                String::from_utf8_lossy(&cmdline).replace('\0', " ")
            ));
        }
    }
    out
}

/// `tuicast-home-*` folders in `tmp`.
fn homes(tmp: &Path) -> Vec<String> {
    std::fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("tuicast-home-"))
        .collect()
}

/// Waits (at most `limit`) until `f` holds.
fn eventually(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    f()
}

/// `tuicast info CAST` accepts the cast.
fn valid_cast(cast: &Path) -> Result<(), String> {
    let out = Tuicast::new().arg("info").arg(cast).run();
    if out.succeeded() {
        Ok(())
    } else {
        Err(format!(
            "{}\n{out}",
            std::fs::read_to_string(cast).unwrap_or_default()
        ))
    }
}

fn unique(name: &str) -> String {
    format!("tuicast-mark-{}-{name}", std::process::id())
}

struct Setup {
    dir: Dir,
    tmp: PathBuf,
    marker: String,
}

fn setup(name: &str) -> Setup {
    let dir = Dir::new();
    let tmp = dir.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    Setup {
        dir,
        tmp,
        marker: unique(name),
    }
}

#[test]
fn a_daemon_and_a_program_that_ignores_sighup_do_not_outlive_a_recording() {
    let s = setup("normal");
    let toml = format!(
        "{}steps = [{{ wait = \"ready\" }}, {{ snapshot = \"up\" }}]\n",
        hostile_shell(&s.marker)
    );
    let path = s.dir.write("d.toml", toml);
    let started = Instant::now();
    let out = Tuicast::new()
        .arg("record")
        .arg(&path)
        .env("TMPDIR", &s.tmp)
        .run()
        .success();
    let took = started.elapsed();
    // SIGHUP is ignored: SIGKILL after 500 ms. The daemon holding the terminal no longer
    // holds the recording open for seconds.
    assert!(took < Duration::from_secs(3), "took {took:?}\n{out}");
    assert!(
        out.stderr()
            .contains("still running at the end: ended with SIGKILL (status 137)"),
        "{out}"
    );
    assert_eq!(survivors(&s.marker, &s.tmp), Vec::<String>::new());
    assert_eq!(homes(&s.tmp), Vec::<String>::new());
    valid_cast(&s.dir.join("d.cast")).unwrap();
}

#[test]
fn a_program_that_ends_on_sighup_is_named_in_the_summary() {
    let s = setup("hup");
    let path = s.dir.write(
        "h.toml",
        "shell = \"echo ready; while :; do sleep 1; done\"\nsize = \"40x5\"\nsteps = [{ wait = \"ready\" }]\n",
    );
    let out = Tuicast::new()
        .arg("record")
        .arg(&path)
        .env("TMPDIR", &s.tmp)
        .run()
        .success();
    assert!(
        out.stderr()
            .contains("still running at the end: ended with SIGHUP (status 129)"),
        "{out}"
    );
}

#[test]
fn sigint_sigterm_and_sighup_end_the_whole_session_and_keep_a_valid_partial() {
    for (signal, status) in [
        (Signal::SIGINT, 130),
        (Signal::SIGTERM, 143),
        (Signal::SIGHUP, 129),
    ] {
        let s = setup(signal.as_str());
        let toml = format!(
            "{}steps = [{{ wait = \"ready\" }}, {{ sleep = \"60s\" }}]\n",
            hostile_shell(&s.marker)
        );
        let path = s.dir.write("s.toml", toml);
        let partial = s.dir.join("s.cast.partial");
        let mut child = Tuicast::new()
            .arg("record")
            .arg(&path)
            .env("TMPDIR", &s.tmp)
            .spawn();
        assert!(
            eventually(Duration::from_secs(10), || std::fs::read_to_string(
                &partial
            )
            .is_ok_and(|c| c.contains("ready"))
                && survivors(&s.marker, &s.tmp).len() >= 4),
            "the program did not start"
        );
        let before = survivors(&s.marker, &s.tmp).len();
        kill(Pid::from_raw(child.pid()), signal).unwrap();
        let sent = Instant::now();
        assert!(
            eventually(Duration::from_secs(5), || child.try_wait().is_some()),
            "tuicast record did not end after {signal}"
        );
        let out = child.wait();
        let took = sent.elapsed();
        assert_eq!(out.code(), Some(status), "{signal}:\n{out}");
        assert!(took < Duration::from_secs(2), "{signal}: took {took:?}");
        assert!(
            out.stderr().contains(&format!("interrupted by {signal}")),
            "{out}"
        );
        assert!(
            out.stderr().contains("s.cast.partial (a valid cast)"),
            "{out}"
        );
        eprintln!("{signal}: {before} processes before, exit {status} in {took:?}");
        assert_eq!(
            survivors(&s.marker, &s.tmp),
            Vec::<String>::new(),
            "{signal}"
        );
        assert_eq!(homes(&s.tmp), Vec::<String>::new(), "{signal}");
        valid_cast(&partial).unwrap();
        assert!(!s.dir.join("s.cast").exists());
    }
}

/// A tiny deterministic generator (xorshift), seeded from the clock; the seed is printed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn sigkill_and_sigint_at_random_moments_leave_nothing_once_the_next_recording_swept() {
    let s = setup("random");
    let seed = std::env::var("TUICAST_SIGNALS_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    eprintln!("seed {seed} (TUICAST_SIGNALS_SEED={seed} repeats it)");
    let mut rng = Rng(seed);
    let steps = "steps = [{ wait = \"ready\" }, { sleep = \"300ms\" }, { snapshot = \"a\" }, \
                 { type = \"x\" }, { sleep = \"200ms\" }]\n";
    let (mut kills, mut ints) = (0, 0);
    // What each SIGKILL left at once (before the next recording swept it).
    let (mut killed_left, mut killed_homes) = (0, 0);
    // SIGINT outcomes: 130, killed before handling was set up, done before it came.
    let (mut int_130, mut int_early, mut int_late) = (0, 0, 0);
    for round in 0..20 {
        let marker = format!("{}-r{round}-", s.marker);
        let path = s.dir.write(
            format!("r{round}.toml"),
            format!("{}{steps}", hostile_shell(&marker)),
        );
        let sigkill = rng.below(2) == 0;
        let delay = Duration::from_millis(rng.below(1200));
        let mut child = Tuicast::new()
            .arg("record")
            .arg(&path)
            .env("TMPDIR", &s.tmp)
            .spawn();
        std::thread::sleep(delay);
        if sigkill {
            kills += 1;
            child.kill();
        } else {
            ints += 1;
            let _ = kill(Pid::from_raw(child.pid()), Signal::SIGINT);
        }
        assert!(
            eventually(Duration::from_secs(10), || child.try_wait().is_some()),
            "round {round}: tuicast record did not end"
        );
        let out = child.wait();
        // Only this round's programs (by their argv marker); HOMEs are this round's when
        // the previous ones were swept.
        let mine = || {
            survivors(&marker, Path::new("/nonexistent"))
                .into_iter()
                .filter(|p| p.contains(&marker))
                .count()
        };
        if sigkill {
            killed_left += mine();
            killed_homes += homes(&s.tmp).len();
        } else {
            // An interrupted recording leaves none of its processes.
            assert!(
                eventually(Duration::from_millis(500), || mine() == 0),
                "round {round} (SIGINT after {delay:?}): {:?}\n{out}",
                survivors(&marker, &s.tmp)
            );
        }
        if !sigkill {
            // Ended by the signal before its handling was set up, 130, or done before it came.
            assert!(
                matches!(out.code(), None | Some(130) | Some(0)),
                "round {round} (SIGINT after {delay:?}):\n{out}"
            );
            match out.code() {
                Some(130) => int_130 += 1,
                None => int_early += 1,
                _ => int_late += 1,
            }
            if out.code() == Some(130) {
                assert!(out.stderr().contains("interrupted by SIGINT"), "{out}");
            }
        }
    }
    let left = survivors(&s.marker, &s.tmp);
    let folders = homes(&s.tmp);
    let mut partials = 0;
    for round in 0..20 {
        let partial = s.dir.join(format!("r{round}.cast.partial"));
        if partial.exists() {
            partials += 1;
            valid_cast(&partial).unwrap_or_else(|e| panic!("round {round}: {e}"));
        }
    }
    let stray: Vec<String> = s
        .dir
        .files()
        .into_iter()
        .filter(|f| f.contains(".tmp"))
        .collect();
    eprintln!(
        "SIGINTs: {int_130} exited 130, {int_early} came before the handling was set up, \
         {int_late} after tuicast had exited"
    );
    eprintln!(
        "{kills} SIGKILLs left {killed_left} marked processes and {killed_homes} HOME folders \
         at once (in all, each swept by the next recording)"
    );
    eprintln!(
        "{kills} SIGKILLs, {ints} SIGINTs: {} processes and {} HOME folders left, \
         {partials} .partial casts (all valid), {} hidden header files",
        left.len(),
        folders.len(),
        stray.len()
    );
    // The next recording sweeps what the SIGKILLed ones left.
    let path = s.dir.write(
        "after.toml",
        "shell = \"echo ready\"\nsteps = [{ wait = \"ready\" }, { exit = 0 }]\n",
    );
    Tuicast::new()
        .arg("record")
        .arg(&path)
        .env("TMPDIR", &s.tmp)
        .run()
        .success();
    let left_after = survivors(&s.marker, &s.tmp);
    let folders_after = homes(&s.tmp);
    eprintln!(
        "after the next recording: {} processes, {} HOME folders",
        left_after.len(),
        folders_after.len()
    );
    assert_eq!(left_after, Vec::<String>::new());
    assert_eq!(folders_after, Vec::<String>::new());
}

#[test]
fn sigint_to_a_live_test_run_ends_its_recording_cleanly() {
    let s = setup("live");
    // A cast with a scenario, checked live: the recording is interrupted mid-way.
    s.dir.write(
        "casts/l.cast",
        crate::util::v3_cast(40, 5, &[r#"[0.1, "o", "ready"]"#]),
    );
    s.dir.write(
        "casts/l.toml",
        format!(
            "{}steps = [{{ wait = \"ready\" }}, {{ sleep = \"60s\" }}]\n",
            hostile_shell(&s.marker)
        ),
    );
    let mut child = Tuicast::new()
        .args(["test", "--live"])
        .current_dir(s.dir.path())
        .clean_update_env()
        .env("TMPDIR", &s.tmp)
        .spawn();
    assert!(
        eventually(Duration::from_secs(10), || survivors(&s.marker, &s.tmp)
            .len()
            >= 4),
        "the program did not start"
    );
    kill(Pid::from_raw(child.pid()), Signal::SIGINT).unwrap();
    assert!(
        eventually(Duration::from_secs(5), || child.try_wait().is_some()),
        "tuicast test --live did not end after SIGINT"
    );
    let out = child.wait();
    assert_eq!(out.code(), Some(130), "{out}");
    assert!(out.stderr().contains("interrupted by SIGINT"), "{out}");
    assert!(
        eventually(Duration::from_millis(500), || survivors(&s.marker, &s.tmp)
            .is_empty()),
        "{:?}",
        survivors(&s.marker, &s.tmp)
    );
    assert_eq!(homes(&s.tmp), Vec::<String>::new());
}
