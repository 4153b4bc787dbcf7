//! Quiescence: whether the program's process tree is waiting for input, read from `/proc`.
//!
//! A checkpoint in `auto` mode (see `settle.rs`) fires once the screen is unchanged *and* the
//! program is known to be waiting: every thread of every process of its tree (the program
//! and its descendants, by `/proc/PID/task/TID/children`) is asleep in a system call that
//! waits for an event — a read, `poll`/`select`/`epoll_wait` with no timeout or one longer
//! than the settle period, a futex (another thread), `wait4` (a child, itself in the tree),
//! `sigsuspend`, a socket receive — and not one that ends by itself soon: a sleep, or any of
//! those with a timeout within the settle period (a frame drawn in pieces with pauses between
//! is never "waiting"; a pause of more than the period was never caught by the quiet rule
//! either). A thread that runs, is runnable, or is in any other call (a write, disk I/O) is
//! busy. Two looks at the tree a few milliseconds apart that find the same threads, each
//! with the same CPU time and the same count of times it was scheduled
//! (`/proc/PID/task/TID/schedstat`), confirm that nothing ran in between.
//!
//! Where `/proc` does not tell (another system, `hidepid`, a kernel without schedstat, a
//! process gone), a look gives `None` and the checkpoint falls back to the quiet rule.
//!
//! What a look reads, per thread: `stat` (the state), `schedstat` (CPU nanoseconds and how
//! many times it was scheduled) and `syscall` (the call it is blocked in and its arguments;
//! `wchan` where `syscall` cannot be read, without timeouts). The waiting calls are `read`,
//! `readv`, `pread`, `poll`, `select`, `epoll_wait`/`epoll_pwait`/`epoll_pwait2`,
//! `ppoll`/`pselect6`, a futex wait, `wait4`/`waitid`, `rt_sigsuspend`/`pause`,
//! `rt_sigtimedwait` and a socket receive or accept. Their timeouts are read from the register
//! (`poll`, `epoll_wait`) or from `/proc/PID/mem` (the `timespec` or `timeval` of the others; a
//! futex's absolute time against `CLOCK_MONOTONIC` or `CLOCK_REALTIME`). Busy is `R` (running
//! or runnable), `D`, stopped, a write, a zero or short timeout (an animation's frame timer);
//! a `nanosleep` or `clock_nanosleep` within the period is a *pause* (maybe in the middle of a
//! frame), which `settle.rs` counts as working. The tree is at most 256 processes.
//!
//! The terminal's half is the PTY's ([`Pty::input_pending`](super::pty::Pty::input_pending),
//! [`Pty::output_pending`](super::pty::Pty::output_pending)): nothing the program wrote unread,
//! no input unread (the writing thread's queue empty, `FIONREAD` on the program's side), and
//! the last input taken (the tree's schedule count changed since a look taken when it was sent;
//! a key that wakes nothing, such as an unfinished line in canonical mode, falls back). Bytes
//! cross a PTY through the kernel's flip buffer, moved by a worker thread, and `FIONREAD`
//! counts only what it has moved, so each count comes after a zero-timeout `poll` of that side
//! (which waits for a pending worker), and input or output on its way counts as working: under
//! load a key on its way, uncounted, once let the quiet rule fire on the old screen
//! (docs/performance-history.md, "The race that was left").
//!
//! Edge cases, as decided:
//! - multi-threaded runtimes (tokio, a crossterm reader thread, Textual's asyncio): every
//!   thread must wait; a timer due within the period (a refresh, a debounce) is busy until it
//!   has fired;
//! - child processes (`bash -c "…; sleep 0.03; …"`): the shell waits in `wait4` and its child
//!   decides; `sleep` is a pause, so the quiet rule, held while it sleeps;
//! - polling with a zero timeout in a loop: never waiting, so the quiet rule, held back while
//!   the loop is seen running (the price of never being seen waiting);
//! - a wait on the network or on a pipe from outside the tree counts as waiting: a program
//!   that shows "Loading" looks done (as it did for the quiet rule); wait for the text instead;
//! - daemons that left the session and lost their parent are not in the tree;
//! - a clock that ticks every 250 ms (todoapp) waits in `epoll_wait` between ticks; a tick
//!   during the confirmation restarts it, and masked changes are no change;
//! - a 60 fps animation polling with a 16 ms timeout, or a Go program whose `sysmon` thread
//!   sleeps in `nanosleep`, is never seen waiting: the quiet rule.

use std::collections::BTreeMap;
use std::time::Duration;

/// What one thread is doing, as far as quiescence goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Activity {
    /// Asleep until an event (input, another thread, a child, a signal, or a timer further
    /// away than the settle period).
    Waiting,
    /// Running, runnable, in a call that is no wait, or in a wait for input that ends by
    /// itself within the settle period (an animation's frame timer).
    Busy,
    /// In a sleep (`nanosleep`) that ends within the settle period: a pause, maybe in the
    /// middle of a frame.
    Pausing,
}

/// One thread at one look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Task {
    /// Nanoseconds on a CPU, and how many times it was scheduled (`schedstat`).
    run_ns: u64,
    runs: u64,
    activity: Activity,
    /// Running or runnable (`R`), or in an uninterruptible wait (`D`, disk): working.
    working: bool,
}

/// One look at the whole tree: every thread by (pid, tid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TreeLook {
    tasks: BTreeMap<(u32, u32), Task>,
}

impl TreeLook {
    /// Looks at the tree of `root` (the program and its descendants); `soon` is the settle
    /// period: a wait that ends by itself within it is busy. `None` when `/proc` does not
    /// tell (see the module docs).
    pub(super) fn take(root: u32, soon: Duration) -> Option<TreeLook> {
        if root == 0 || !cfg!(target_os = "linux") {
            return None;
        }
        let mut tasks = BTreeMap::new();
        walk_tree(root, true, |pid, tid, base| match task(pid, base, soon) {
            Some(t) => {
                tasks.insert((pid, tid), t);
                Visit::Next
            }
            // A thread that ended between the listing and the look: the tree is changing,
            // which is no quiet tree.
            None => Visit::Changed,
        })?;
        Some(TreeLook { tasks })
    }

    /// Whether every thread waits for an event.
    pub(super) fn waiting(&self) -> bool {
        self.tasks.values().all(|t| t.activity == Activity::Waiting)
    }

    /// Whether nothing ran between this look and `later`: the same threads, with the same CPU
    /// time and schedule counts, all waiting in both.
    pub(super) fn still_at(&self, later: &TreeLook) -> bool {
        self.waiting() && self == later
    }

    /// Whether a thread is running, wants to run, is in disk I/O or pauses in a short sleep:
    /// the program is working (or starved of CPU), not waiting for input or an animation's
    /// next frame.
    pub(super) fn working(&self) -> bool {
        self.tasks
            .values()
            .any(|t| t.working || t.activity == Activity::Pausing)
    }

    /// How many times the tree's threads were scheduled in all: a change says the program
    /// ran.
    pub(super) fn runs(&self) -> u64 {
        self.tasks.values().map(|t| t.runs).sum()
    }
}

/// More processes than this in the tree: not looked at (a fork bomb, a build).
const MAX_PROCESSES: usize = 256;

/// What a walk of the tree does after a thread ([`walk_tree`]).
enum Visit {
    /// Goes on.
    Next,
    /// Stops: what was looked for is found.
    Stop,
    /// Gives up: the tree changed under the look.
    Changed,
}

/// Visits every thread of the tree of `root` (the program and its descendants, found by each
/// thread's `children`) as `visit(pid, tid, its /proc/PID/task/TID folder)`, at most
/// [`MAX_PROCESSES`] processes. `None` past that, when `visit` says the tree changed, or (with
/// `strict`) when a process's threads or children cannot be read (it ended during the walk);
/// else whether `visit` stopped it.
fn walk_tree(
    root: u32,
    strict: bool,
    mut visit: impl FnMut(u32, u32, &str) -> Visit,
) -> Option<bool> {
    let mut pending = vec![root];
    let mut seen = 0usize;
    while let Some(pid) = pending.pop() {
        seen += 1;
        if seen > MAX_PROCESSES {
            return None;
        }
        let dir = format!("/proc/{pid}/task");
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(_) if strict => return None,
            Err(_) => continue,
        };
        for entry in entries.flatten() {
            let Some(tid) = entry
                .file_name()
                .to_str()
                .and_then(|t| t.parse::<u32>().ok())
            else {
                continue;
            };
            let base = format!("{dir}/{tid}");
            match visit(pid, tid, &base) {
                Visit::Next => {}
                Visit::Stop => return Some(true),
                Visit::Changed => return None,
            }
            match std::fs::read_to_string(format!("{base}/children")) {
                Ok(children) => pending.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<u32>().ok()),
                ),
                Err(_) if strict => return None,
                Err(_) => {}
            }
        }
    }
    Some(false)
}

/// One thread: `schedstat` for its CPU time, `stat` for its state, `syscall` (or `wchan`) for
/// what it waits in.
fn task(pid: u32, base: &str, soon: Duration) -> Option<Task> {
    let sched = std::fs::read_to_string(format!("{base}/schedstat")).ok()?;
    let mut fields = sched.split_whitespace().map(|f| f.parse::<u64>().ok());
    let run_ns = fields.next()??;
    let runs = fields.nth(1)??;
    let stat = std::fs::read_to_string(format!("{base}/stat")).ok()?;
    let state = stat
        .rfind(')')
        .and_then(|i| stat[i + 1..].split_whitespace().next())?;
    let activity = if state != "S" {
        // R (running or runnable), D (disk), T/t (stopped), Z, X, I: not waiting for input.
        Activity::Busy
    } else {
        match std::fs::read_to_string(format!("{base}/syscall")) {
            Ok(s) => syscall_activity(pid, &s, soon),
            Err(_) => std::fs::read_to_string(format!("{base}/wchan"))
                .map_or(Activity::Busy, |w| wchan_activity(&w)),
        }
    };
    Some(Task {
        run_ns,
        runs,
        activity,
        working: state == "R" || state == "D",
    })
}

/// What a thread is doing from its `syscall` line: `NR arg1 … arg6 sp pc`, `running`, or
/// `-1 sp pc` (blocked outside a system call).
fn syscall_activity(pid: u32, line: &str, soon: Duration) -> Activity {
    let mut words = line.split_whitespace();
    let Some(nr) = words.next().and_then(|n| n.parse::<i64>().ok()) else {
        return Activity::Busy;
    };
    let args: Vec<u64> = words
        .take(6)
        .filter_map(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok())
        .collect();
    let arg = |i: usize| args.get(i).copied().unwrap_or(0);
    match classify(nr) {
        Some(Call::Event) => Activity::Waiting,
        Some(Call::Millis(i)) => timed(Timeout::from_millis(arg(i) as i32), soon),
        Some(Call::Relative(i, kind)) => timed(relative(pid, arg(i), kind), soon),
        Some(Call::Futex) => {
            // The command in the low bits; FUTEX_WAIT's timeout is relative, the bitset
            // waits' absolute (on CLOCK_REALTIME with FUTEX_CLOCK_REALTIME).
            let op = arg(1) as u32;
            match op & 0x7f {
                0 => timed(relative(pid, arg(3), Layout::Timespec), soon),
                9 | 10 => {
                    let clock = if op & 256 != 0 {
                        Clock::Realtime
                    } else {
                        Clock::Monotonic
                    };
                    timed(absolute(pid, arg(3), clock), soon)
                }
                // Wakes, requeues, locks: a thread that does them is not waiting.
                _ => Activity::Busy,
            }
        }
        Some(Call::ClockNanosleep) => {
            // A sleep of more than the period is a timer (a clock's tick), not a pause in a
            // frame.
            let clock = match arg(0) {
                0 => Clock::Realtime,
                _ => Clock::Monotonic,
            };
            let timeout = if arg(1) & 1 != 0 {
                absolute(pid, arg(2), clock)
            } else {
                relative(pid, arg(2), Layout::Timespec)
            };
            pause(timed(timeout, soon))
        }
        Some(Call::Sleep(i)) => pause(timed(relative(pid, arg(i), Layout::Timespec), soon)),
        None => Activity::Busy,
    }
}

/// How a system call waits.
#[derive(Debug, Clone, Copy)]
enum Call {
    /// Until an event, with no timeout.
    Event,
    /// With a timeout in milliseconds in this argument (negative: none).
    Millis(usize),
    /// With a relative timeout at the pointer in this argument (null: none).
    Relative(usize, Layout),
    Futex,
    ClockNanosleep,
    /// `nanosleep` with its relative time at the pointer in this argument.
    Sleep(usize),
}

/// A sleep that is not a wait is a pause.
fn pause(activity: Activity) -> Activity {
    match activity {
        Activity::Busy => Activity::Pausing,
        other => other,
    }
}

/// A timeout in memory.
#[derive(Debug, Clone, Copy)]
enum Layout {
    /// `struct timespec`: seconds, nanoseconds.
    Timespec,
    /// `struct timeval`: seconds, microseconds.
    Timeval,
}

#[derive(Debug, Clone, Copy)]
enum Clock {
    Realtime,
    Monotonic,
}

/// When a wait ends by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Timeout {
    Never,
    After(Duration),
    /// The timeout could not be read.
    Unknown,
}

impl Timeout {
    fn from_millis(ms: i32) -> Timeout {
        u64::try_from(ms).map_or(Timeout::Never, |ms| {
            Timeout::After(Duration::from_millis(ms))
        })
    }
}

/// A wait with `timeout` is a wait for an event unless it ends by itself within `soon` (or
/// when it cannot be told).
fn timed(timeout: Timeout, soon: Duration) -> Activity {
    match timeout {
        Timeout::Never => Activity::Waiting,
        Timeout::After(d) if d > soon => Activity::Waiting,
        _ => Activity::Busy,
    }
}

/// The system calls that wait, by number for this architecture.
fn classify(nr: i64) -> Option<Call> {
    use nix::libc as c;
    #[cfg(target_arch = "x86_64")]
    {
        match nr {
            c::SYS_poll => return Some(Call::Millis(2)),
            c::SYS_epoll_wait => return Some(Call::Millis(3)),
            c::SYS_select => return Some(Call::Relative(4, Layout::Timeval)),
            c::SYS_pause | c::SYS_wait4 => return Some(Call::Event),
            c::SYS_nanosleep => return Some(Call::Sleep(0)),
            _ => {}
        }
    }
    Some(match nr {
        c::SYS_read
        | c::SYS_readv
        | c::SYS_pread64
        | c::SYS_preadv
        | c::SYS_waitid
        | c::SYS_rt_sigsuspend
        | c::SYS_recvfrom
        | c::SYS_recvmsg
        | c::SYS_accept
        | c::SYS_accept4 => Call::Event,
        c::SYS_epoll_pwait => Call::Millis(3),
        c::SYS_ppoll => Call::Relative(2, Layout::Timespec),
        c::SYS_pselect6 => Call::Relative(4, Layout::Timespec),
        c::SYS_epoll_pwait2 => Call::Relative(3, Layout::Timespec),
        c::SYS_rt_sigtimedwait => Call::Relative(2, Layout::Timespec),
        c::SYS_futex => Call::Futex,
        c::SYS_clock_nanosleep => Call::ClockNanosleep,
        #[cfg(not(target_arch = "x86_64"))]
        c::SYS_wait4 => Call::Event,
        _ => return None,
    })
}

/// A relative timeout at `addr` in the memory of `pid` (null: none).
fn relative(pid: u32, addr: u64, layout: Layout) -> Timeout {
    if addr == 0 {
        return Timeout::Never;
    }
    match read_time(pid, addr) {
        Some((s, sub)) => match layout {
            Layout::Timespec => after(s, sub),
            Layout::Timeval => after(s, sub.saturating_mul(1000)),
        },
        None => Timeout::Unknown,
    }
}

/// An absolute timeout on `clock` at `addr` (null: none), as the time left.
fn absolute(pid: u32, addr: u64, clock: Clock) -> Timeout {
    if addr == 0 {
        return Timeout::Never;
    }
    let Some((s, ns)) = read_time(pid, addr) else {
        return Timeout::Unknown;
    };
    use nix::time::{clock_gettime, ClockId};
    let Ok(now) = clock_gettime(match clock {
        Clock::Realtime => ClockId::CLOCK_REALTIME,
        Clock::Monotonic => ClockId::CLOCK_MONOTONIC,
    }) else {
        return Timeout::Unknown;
    };
    let at = i128::from(s) * 1_000_000_000 + i128::from(ns);
    let now = i128::from(now.tv_sec()) * 1_000_000_000 + i128::from(now.tv_nsec());
    let left = u64::try_from((at - now).max(0)).unwrap_or(u64::MAX);
    Timeout::After(Duration::from_nanos(left))
}

fn after(s: i64, ns: i64) -> Timeout {
    match (u64::try_from(s), u64::try_from(ns)) {
        (Ok(s), Ok(ns)) => Timeout::After(Duration::from_secs(s) + Duration::from_nanos(ns)),
        _ => Timeout::Unknown,
    }
}

/// Two 64-bit words at `addr` in the memory of `pid` (`/proc/PID/mem`; a 64-bit layout of
/// `timespec` and `timeval`).
fn read_time(pid: u32, addr: u64) -> Option<(i64, i64)> {
    use std::os::unix::fs::FileExt;
    if !cfg!(target_pointer_width = "64") {
        return None;
    }
    let mem = std::fs::File::open(format!("/proc/{pid}/mem")).ok()?;
    let mut buf = [0u8; 16];
    mem.read_exact_at(&mut buf, addr).ok()?;
    let word = |b: &[u8]| b.try_into().ok().map(i64::from_ne_bytes);
    Some((word(&buf[..8])?, word(&buf[8..])?))
}

/// Which process of the tree of `root` waits on the terminal `tty` (its path, `/dev/pts/N`,
/// the tree's controlling terminal, so also `/dev/tty`): a thread blocked in a `read`
/// (`readv`, `pread`) of a descriptor open on it, or in a `poll`,
/// `select` or `epoll` wait while the process holds it open. Its evidence when one does, as
/// `pid 12 (bash) reads /dev/pts/4`; `None` when none does or `/proc` does not tell.
pub(super) fn reads_terminal(root: u32, tty: &std::path::Path) -> Option<String> {
    use nix::libc as c;
    if root == 0 || !cfg!(target_os = "linux") {
        return None;
    }
    let holds = |pid: u32, fd: Option<u64>| -> bool {
        // `/dev/tty` is the process's controlling terminal: in the tree, that one.
        let on_tty = |path: std::path::PathBuf| {
            std::fs::read_link(path)
                .is_ok_and(|l| l == tty || l == std::path::Path::new("/dev/tty"))
        };
        match fd {
            Some(fd) => on_tty(format!("/proc/{pid}/fd/{fd}").into()),
            None => std::fs::read_dir(format!("/proc/{pid}/fd"))
                .map(|d| d.flatten().any(|e| on_tty(e.path())))
                .unwrap_or(false),
        }
    };
    let mut found = None;
    walk_tree(root, false, |pid, _, base| {
        let Ok(line) = std::fs::read_to_string(format!("{base}/syscall")) else {
            return Visit::Next;
        };
        let mut words = line.split_whitespace();
        let nr = words.next().and_then(|n| n.parse::<i64>().ok());
        let fd = words
            .next()
            .and_then(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok());
        let reads = matches!(nr, Some(c::SYS_read | c::SYS_readv | c::SYS_pread64));
        #[cfg(target_arch = "x86_64")]
        let polls = matches!(nr, Some(c::SYS_poll | c::SYS_select | c::SYS_epoll_wait))
            || matches!(
                nr,
                Some(c::SYS_ppoll | c::SYS_pselect6 | c::SYS_epoll_pwait | c::SYS_epoll_pwait2)
            );
        #[cfg(not(target_arch = "x86_64"))]
        let polls = matches!(
            nr,
            Some(c::SYS_ppoll | c::SYS_pselect6 | c::SYS_epoll_pwait | c::SYS_epoll_pwait2)
        );
        if !((reads && holds(pid, fd)) || (polls && holds(pid, None))) {
            return Visit::Next;
        }
        let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        found = Some(format!(
            "pid {pid} ({}) {} {}",
            crate::escape::escape_for_terminal(name.trim(), 40),
            if reads { "reads" } else { "waits on" },
            tty.display()
        ));
        Visit::Stop
    })?;
    found
}

/// What a thread is doing from its `wchan` (where `syscall` is not readable): the kernel
/// functions of waits for input. No timeout can be read here, so a wait with one counts.
fn wchan_activity(wchan: &str) -> Activity {
    const WAITS: [&str; 8] = [
        "do_select",
        "do_sys_poll",
        "ep_poll",
        "futex_wait",
        "wait_woken",
        "n_tty_read",
        "do_wait",
        "sigsuspend",
    ];
    if WAITS.iter().any(|w| wchan.contains(w)) {
        Activity::Waiting
    } else {
        Activity::Busy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOON: Duration = Duration::from_millis(50);

    #[test]
    fn waits_for_events_and_timers_past_the_period_count_as_waiting() {
        let me = std::process::id();
        // read(0, …): waiting for input.
        let read = format!(
            "{} 0x0 0x7ffd 0x1 0x0 0x0 0x0 0x7ffd 0x7f00",
            nix::libc::SYS_read
        );
        assert_eq!(syscall_activity(me, &read, SOON), Activity::Waiting);
        // epoll_pwait with 250 ms (a clock tick): waiting; with 16 ms (a frame): busy; with
        // none (-1): waiting.
        let ep = |ms: &str| {
            format!(
                "{} 0x3 0x7ffd 0x400 {ms} 0x0 0x8 0x7ffd 0x7f00",
                nix::libc::SYS_epoll_pwait
            )
        };
        assert_eq!(syscall_activity(me, &ep("0xfa"), SOON), Activity::Waiting);
        assert_eq!(syscall_activity(me, &ep("0x10"), SOON), Activity::Busy);
        assert_eq!(
            syscall_activity(me, &ep("0xffffffffffffffff"), SOON),
            Activity::Waiting
        );
        // Zero timeout: a poll, not a wait.
        assert_eq!(syscall_activity(me, &ep("0x0"), SOON), Activity::Busy);
        assert_eq!(syscall_activity(me, "running", SOON), Activity::Busy);
        // write(1, …): busy.
        let write = format!(
            "{} 0x1 0x7ffd 0x10 0x0 0x0 0x0 0x7ffd 0x7f00",
            nix::libc::SYS_write
        );
        assert_eq!(syscall_activity(me, &write, SOON), Activity::Busy);
        assert_eq!(wchan_activity("do_sys_poll"), Activity::Waiting);
        assert_eq!(wchan_activity("hrtimer_nanosleep"), Activity::Busy);
    }

    #[test]
    fn a_timeout_is_read_from_the_program_s_memory() {
        // This process's own memory, as the recorder reads a program's.
        let ts: [i64; 2] = [0, 20_000_000];
        let addr = ts.as_ptr() as u64;
        let me = std::process::id();
        assert_eq!(
            relative(me, addr, Layout::Timespec),
            Timeout::After(Duration::from_millis(20))
        );
        assert_eq!(relative(me, 0, Layout::Timespec), Timeout::Never);
        let tv: [i64; 2] = [1, 500_000];
        assert_eq!(
            relative(me, tv.as_ptr() as u64, Layout::Timeval),
            Timeout::After(Duration::from_millis(1500))
        );
    }

    #[test]
    fn this_test_s_own_tree_is_busy() {
        // The thread running this test is running: never waiting.
        if let Some(look) = TreeLook::take(std::process::id(), SOON) {
            assert!(!look.waiting());
        }
    }
}
