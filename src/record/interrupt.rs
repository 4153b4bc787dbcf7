//! Interruptions: SIGINT, SIGTERM and SIGHUP sent to a process that records end its
//! recordings cleanly instead of killing the process on the spot.
//!
//! [`install`] (call it first thing in `main`, before any other thread exists) blocks the three
//! signals in the calling thread — so in every thread started after it, and never in the
//! recorded programs: `pty.rs` empties the signal mask before `exec` — and starts one
//! thread that takes them with `sigwait` (no signal handler, no `unsafe`). The first signal is
//! stored (with no session alive the process exits at once); every session checks it at
//! least every 20 ms while it waits for its program and fails with [`RecordError::Interrupted`](super::session::RecordError::Interrupted), which
//! ends the program's whole session, removes its temporary HOME and leaves the `.partial`
//! cast as written (whole lines only). A second signal exits at once with the shell's status
//! (the next recording sweeps what that left: see `home.rs`).
//!
//! A process that did not call [`install`] can still stop its sessions with [`request`].

use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::time::Duration;

use nix::sys::signal::{SigSet, Signal};

/// The signal that asked the recordings to stop (0: none).
static REQUESTED: AtomicI32 = AtomicI32::new(0);

/// Sessions alive in this process: a signal with none to end stops the process at once (a
/// replay-only `cargo test` is not kept waiting for a recording that is not there).
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// Held by every live session: while one exists, a signal is handed to the sessions.
#[derive(Debug)]
pub(crate) struct Active(());

impl Active {
    /// Counts one more live session until dropped.
    pub(crate) fn new() -> Active {
        ACTIVE.fetch_add(1, Ordering::SeqCst);
        Active(())
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How often a waiting session looks for an interruption.
pub(crate) const SLICE: Duration = Duration::from_millis(20);

/// The signals handled: the ones a shell, a terminal closing or a CI runner send.
fn handled() -> SigSet {
    let mut set = SigSet::empty();
    set.add(Signal::SIGINT);
    set.add(Signal::SIGTERM);
    set.add(Signal::SIGHUP);
    set
}

/// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread and takes them in a thread of
/// their own (see the module docs). Call it before starting other threads: a thread that
/// exists already keeps its own mask, and a signal delivered to it kills the process.
pub fn install() -> std::io::Result<()> {
    let set = handled();
    set.thread_block().map_err(std::io::Error::from)?;
    std::thread::Builder::new()
        .name("tuicast-signals".into())
        .spawn(move || loop {
            let Ok(signal) = set.wait() else {
                continue;
            };
            if ACTIVE.load(Ordering::SeqCst) == 0 {
                // Nothing is being recorded: nothing to end cleanly.
                eprintln!("interrupted by {}", signal.as_str());
                std::process::exit(exit_status(signal as i32));
            }
            if REQUESTED
                .compare_exchange(0, signal as i32, Ordering::SeqCst, Ordering::SeqCst)
                .is_err()
            {
                // Asked twice: the person means it.
                std::process::exit(exit_status(signal as i32));
            }
        })?;
    Ok(())
}

/// Asks every session of this process to stop as if `signal` had come.
pub fn request(signal: Signal) {
    let _ = REQUESTED.compare_exchange(0, signal as i32, Ordering::SeqCst, Ordering::SeqCst);
}

/// The signal number that asked the recordings to stop, if one did.
pub fn requested() -> Option<i32> {
    match REQUESTED.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The exit status a shell gives a command ended by signal `signal` (130 for SIGINT, 143
/// for SIGTERM, 129 for SIGHUP).
pub fn exit_status(signal: i32) -> i32 {
    128 + signal
}

/// The signal's name (`SIGINT`), or its number.
pub fn signal_name(signal: i32) -> String {
    Signal::try_from(signal)
        .map(|s| s.as_str().to_string())
        .unwrap_or_else(|_| format!("signal {signal}"))
}
