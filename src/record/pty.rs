//! A program running in a pseudo-terminal, with its output and its exit delivered as events
//! on one channel.
//!
//! The terminal is opened here on `nix` (`posix_openpt`, with both sides close-on-exec from
//! the start, so a program another thread starts at the same moment cannot inherit them), and
//! the program is started with `std::process::Command` as the leader of a new session whose
//! controlling terminal is the PTY, with the signal dispositions and mask a shell would give it
//! and no descriptor but 0, 1 and 2.
//!
//! The traps handled here: the slave side is dropped right after spawning (or EOF never
//! comes); the writer is kept until the end (dropping it sends EOF to the program), and
//! writes happen on a thread of their own, so typing more than the PTY buffers while the
//! program answers with output (which waits for the recorder) cannot deadlock; `cwd` and
//! `TERM` are always set; reads are retried on EINTR; the child is always reaped, in its own
//! thread, with the real signal number of a killed child; and everything the program started
//! is killed at the end, so no process outlives a recording: its process group, its session
//! (background jobs in groups of their own), its descendants by parent links, and — for
//! daemons that called `setsid` and whose parent exited, so that neither session nor parent
//! links lead to them — every process whose environment holds the session's marker (its
//! private `HOME=…`, see [`Pty::set_marker`]), killed again until none is left.
//!
//! A reader thread and a waiter thread feed one bounded channel (a program faster than the engine
//! waits for it, as it would for a slow terminal, instead of piling its output up in memory); a
//! writer thread takes the input, so typing never blocks the session.

// The only module with `unsafe`: between fork and exec (`pre_exec`) and the PTY's ioctls.
#![allow(unsafe_code)]

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::fcntl::OFlag;
use nix::libc;
use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;

use crate::term::Size;

/// Something that happened on the PTY.
#[derive(Debug)]
#[non_exhaustive]
pub enum PtyEvent {
    /// Bytes the program wrote.
    Output(Vec<u8>),
    /// The PTY was closed: no more output will come.
    Eof,
    /// The program exited with this status (128+signal for a signal).
    Exit(i32),
}

/// A program in a pseudo-terminal.
pub struct Pty {
    /// The master side: the program's output is read from (a copy of) it, its input
    /// written to (another copy), and its size and modes are asked and set through it.
    master: File,
    /// Input for the writing thread; dropping it closes the writer (EOF to the program).
    input: mpsc::Sender<Vec<u8>>,
    /// The first write that failed on the writing thread.
    write_failed: Arc<Mutex<Option<(io::ErrorKind, String)>>>,
    pid: u32,
    rx: Receiver<PtyEvent>,
    /// An environment entry (`HOME=/tmp/tuicast-home-…`) only this session's processes have.
    marker: Option<Vec<u8>>,
    /// What is in flight between the program and the session (see [`Pty::input_pending`],
    /// [`Pty::output_pending`]).
    flight: Arc<Flight>,
    /// The terminal's program side (`/dev/pts/N`): what a process reading it has open.
    tty: PathBuf,
}

/// Bytes between the program and the session, counted by the threads that move them.
#[derive(Debug, Default)]
struct Flight {
    /// Input handed to the writing thread and not yet written.
    queued: AtomicUsize,
    /// Output the reading thread has read, and output the session has received.
    read: AtomicU64,
    received: AtomicU64,
    /// Held by the reading thread from taking bytes out of the terminal until it has counted
    /// them, and by [`Pty::output_pending`] while it looks: so that no look falls between
    /// the two, when bytes are neither in the terminal nor counted.
    taking: Mutex<()>,
}

/// Output chunks (of up to 64 KiB) that may wait in the channel.
const CHANNEL_CHUNKS: usize = 64;

impl std::fmt::Debug for Pty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pty")
            .field("pid", &self.pid)
            .finish_non_exhaustive()
    }
}

impl Pty {
    /// Starts `argv` in a new PTY of `size`, in `cwd`, with exactly the environment `env`.
    pub fn spawn(
        argv: &[String],
        cwd: &Path,
        env: &BTreeMap<String, String>,
        size: Size,
    ) -> io::Result<Pty> {
        Pty::spawn_with_umask(argv, cwd, env, size, None)
    }

    /// [`Pty::spawn`] with the program's file mode creation mask: `umask` when given (the
    /// session daemon's client's), else the one [`set_program_umask`] set, else this
    /// process's.
    pub fn spawn_with_umask(
        argv: &[String],
        cwd: &Path,
        env: &BTreeMap<String, String>,
        size: Size,
        umask: Option<u32>,
    ) -> io::Result<Pty> {
        let program = argv
            .first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the command is empty"))?;
        let resolved = resolve_program(program, cwd, env.get("PATH").map(String::as_str))?;
        if !cwd.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("the working folder {} does not exist", shown(cwd)),
            ));
        }
        let (master, slave, tty) = open_pty(size)?;
        let mut cmd = Command::new(&resolved);
        cmd.arg0(program)
            .args(&argv[1..])
            .env_clear()
            .envs(env)
            .current_dir(cwd)
            .stdin(Stdio::from(slave.try_clone()?))
            .stdout(Stdio::from(slave.try_clone()?))
            .stderr(Stdio::from(slave));
        if !env.contains_key("TERM") {
            cmd.env("TERM", "xterm-256color");
        }
        let mask = umask.map_or_else(
            || PROGRAM_UMASK.load(std::sync::atomic::Ordering::SeqCst),
            |m| m & 0o777,
        );
        // SAFETY: between fork and exec the closure calls only async-signal-safe functions
        // (signal, sigprocmask, umask, setsid, ioctl, close_range/close) and allocates nothing
        // (it captures a copied integer).
        unsafe {
            cmd.pre_exec(move || become_session_leader(mask));
        }
        let child = cmd.spawn().map_err(|e| {
            io::Error::new(e.kind(), format!("cannot start {}: {e}", shown(program)))
        })?;
        // The child's copies of the slave are its own; ours went with `cmd` (or EOF would
        // never come).
        drop(cmd);
        let pid = child.id();
        let mut reader = master.try_clone()?;
        let mut writer = master.try_clone()?;
        let (input, typed) = mpsc::channel::<Vec<u8>>();
        let write_failed = Arc::new(Mutex::new(None));
        let failed = Arc::clone(&write_failed);
        let flight = Arc::new(Flight::default());
        let written = Arc::clone(&flight);
        std::thread::Builder::new()
            .name("tuicast-pty-write".into())
            .spawn(move || {
                for bytes in typed {
                    let result = writer.write_all(&bytes).and_then(|()| writer.flush());
                    written.queued.fetch_sub(bytes.len(), Ordering::SeqCst);
                    if let Err(e) = result {
                        *failed.lock().unwrap_or_else(|p| p.into_inner()) =
                            Some((e.kind(), e.to_string()));
                        return;
                    }
                }
                // The sender is gone: the writer drops here, which is EOF for the program.
            })?;
        // Bounded: a program faster than the engine waits for it (as it would for a slow
        // terminal) instead of piling its output up in memory.
        let (tx, rx) = mpsc::sync_channel(CHANNEL_CHUNKS);

        let out = tx.clone();
        let read = Arc::clone(&flight);
        std::thread::Builder::new()
            .name("tuicast-pty-read".into())
            .spawn(move || {
                let mut buf = vec![0u8; 1 << 16];
                loop {
                    // Waits for output with the lock free, then takes it (the only reader:
                    // the read does not block) and counts it under the lock.
                    if let Err(e) = poll_in(&reader, -1) {
                        if e.kind() == io::ErrorKind::Interrupted {
                            continue;
                        }
                        break;
                    }
                    let taken = {
                        let _taking = read.taking.lock().unwrap_or_else(|p| p.into_inner());
                        let taken = reader.read(&mut buf);
                        if let Ok(n) = taken {
                            read.read.fetch_add(n as u64, Ordering::SeqCst);
                        }
                        taken
                    };
                    match taken {
                        Ok(0) => break,
                        Ok(n) => {
                            if out.send(PtyEvent::Output(buf[..n].to_vec())).is_err() {
                                return;
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        // EIO: the last holder of the slave side closed it.
                        Err(_) => break,
                    }
                }
                let _ = out.send(PtyEvent::Eof);
            })?;

        let mut child = child;
        std::thread::Builder::new()
            .name("tuicast-pty-wait".into())
            .spawn(move || {
                let status = loop {
                    match child.wait() {
                        Ok(s) => break s.code().unwrap_or_else(|| 128 + s.signal().unwrap_or(0)),
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(_) => break 255,
                    }
                };
                let _ = tx.send(PtyEvent::Exit(status));
            })?;

        Ok(Pty {
            master,
            input,
            write_failed,
            pid,
            rx,
            marker: None,
            flight,
            tty: tty.into(),
        })
    }

    /// The path of the terminal's program side (`/dev/pts/N`).
    pub(crate) fn tty_path(&self) -> &Path {
        &self.tty
    }

    /// Whether input sent to the program is still on its way: queued for the writing
    /// thread, or in the terminal's input buffer, not yet read by the program (`FIONREAD` on
    /// the terminal's program side; a line not yet ended in canonical mode is not counted).
    /// `None` when the terminal does not tell.
    pub fn input_pending(&self) -> Option<bool> {
        if self.flight.queued.load(Ordering::SeqCst) > 0 {
            return Some(true);
        }
        bytes_readable(&peer(&self.master)?).map(|n| n > 0)
    }

    /// Whether output the program wrote has not reached [`Pty::recv`] yet: in the terminal
    /// (`FIONREAD` on the master side), or held by the reading thread. `None` when the
    /// terminal does not tell.
    pub fn output_pending(&self) -> Option<bool> {
        let f = &self.flight;
        let _taking = f.taking.lock().unwrap_or_else(|p| p.into_inner());
        if f.read.load(Ordering::SeqCst) != f.received.load(Ordering::SeqCst) {
            return Some(true);
        }
        bytes_readable(&self.master).map(|n| n > 0)
    }

    /// Names an environment entry (`NAME=value`) that only this session's processes have, so
    /// that [`Pty::signal_all`] finds daemons that left the session and lost their parent.
    pub fn set_marker(&mut self, entry: &str) {
        self.marker = Some(entry.as_bytes().to_vec());
    }

    /// The program's process id (also its process group and session id).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Sends bytes to the program, as if typed. Returns at once: the writing thread delivers
    /// them in order as the program reads; an error is a write that already failed.
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if let Some((kind, message)) = &*self.write_failed.lock().unwrap_or_else(|p| p.into_inner())
        {
            return Err(io::Error::new(*kind, message.clone()));
        }
        self.flight.queued.fetch_add(bytes.len(), Ordering::SeqCst);
        self.input.send(bytes.to_vec()).map_err(|_| {
            self.flight.queued.fetch_sub(bytes.len(), Ordering::SeqCst);
            io::Error::new(io::ErrorKind::BrokenPipe, "the terminal is closed")
        })
    }

    /// Resizes the terminal; the program gets SIGWINCH.
    pub fn resize(&self, size: Size) -> io::Result<()> {
        set_size(&self.master, size)
    }

    /// The terminal's size as the kernel has it now: a program may change it itself
    /// (`stty cols 100`, `TIOCSWINSZ`).
    pub fn size(&self) -> Option<Size> {
        let mut ws = winsize(Size { cols: 0, rows: 0 });
        // SAFETY: TIOCGWINSZ writes one `winsize` into the struct it is given.
        let r = unsafe { libc::ioctl(self.master.as_raw_fd(), libc::TIOCGWINSZ, &mut ws) };
        (r == 0).then_some(Size {
            cols: ws.ws_col,
            rows: ws.ws_row,
        })
    }

    /// The next event, waiting at most `timeout` (forever when `None`).
    pub fn recv(&self, timeout: Option<Duration>) -> Result<PtyEvent, RecvTimeoutError> {
        let event = match timeout {
            Some(t) => self.rx.recv_timeout(t),
            None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        if let Ok(PtyEvent::Output(bytes)) = &event {
            self.flight
                .received
                .fetch_add(bytes.len() as u64, Ordering::SeqCst);
        }
        event
    }

    /// Whether the terminal echoes input (false while a program reads a password).
    pub fn echo_enabled(&self) -> Option<bool> {
        self.local_flags()
            .map(|f| f.contains(nix::sys::termios::LocalFlags::ECHO))
    }

    /// Whether the terminal reads whole lines (canonical mode, `ICANON`): false while a
    /// full-screen program reads keys one at a time (raw mode).
    pub fn canonical(&self) -> Option<bool> {
        self.local_flags()
            .map(|f| f.contains(nix::sys::termios::LocalFlags::ICANON))
    }

    /// The terminal's local modes (`c_lflag`) as the program has set them.
    fn local_flags(&self) -> Option<nix::sys::termios::LocalFlags> {
        nix::sys::termios::tcgetattr(&self.master)
            .ok()
            .map(|t| t.local_flags)
    }

    /// Sends `signal` to everything the program started (see the module docs): its process
    /// group, its session, its descendants and the processes with its marker.
    pub fn signal_all(&self, signal: Signal) {
        if self.pid == 0 {
            return;
        }
        let _ = killpg(Pid::from_raw(self.pid as i32), signal);
        for p in tree(Some(self.pid), self.marker.as_deref()) {
            let _ = kill(Pid::from_raw(p as i32), signal);
        }
    }

    /// SIGKILLs everything the program started until nothing of it is left (at most a
    /// second).
    pub fn kill_all(&self) {
        if self.pid != 0 {
            kill_until_gone(Some(self.pid), self.marker.as_deref());
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        self.kill_all();
    }
}

/// One live (not zombie) process, from `/proc/PID/stat`.
#[derive(Debug, Clone, Copy)]
struct ProcStat {
    pid: u32,
    ppid: u32,
    pgrp: u32,
    session: u32,
}

/// Every live process that `/proc` shows.
fn processes() -> Vec<ProcStat> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // After the command name in parentheses: state ppid pgrp session ...
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let num = |i: usize| fields.get(i).and_then(|s| s.parse::<u32>().ok());
        if matches!(fields.first(), Some(&"Z") | Some(&"X") | None) {
            continue;
        }
        if let (Some(ppid), Some(pgrp), Some(session)) = (num(1), num(2), num(3)) {
            out.push(ProcStat {
                pid,
                ppid,
                pgrp,
                session,
            });
        }
    }
    out
}

/// Whether process `pid`'s environment holds the entry `marker` exactly.
pub(crate) fn has_env_entry(pid: u32, marker: &[u8]) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|env| env.split(|b| *b == 0).any(|e| e == marker))
}

/// The live processes the program `root` started: its group and session, its descendants,
/// and (with a marker) every process whose environment holds it. Never this process.
fn tree(root: Option<u32>, marker: Option<&[u8]>) -> Vec<u32> {
    let all = processes();
    let me = std::process::id();
    let mut found: std::collections::BTreeSet<u32> = all
        .iter()
        .filter(|p| root.is_some_and(|r| p.pid == r || p.session == r || p.pgrp == r))
        .map(|p| p.pid)
        .collect();
    if let Some(m) = marker {
        found.extend(
            all.iter()
                .filter(|p| p.pid != me && has_env_entry(p.pid, m))
                .map(|p| p.pid),
        );
    }
    // Descendants of anything found, by parent links.
    loop {
        let before = found.len();
        for p in &all {
            if found.contains(&p.ppid) {
                found.insert(p.pid);
            }
        }
        if found.len() == before {
            break;
        }
    }
    found.remove(&me);
    found.into_iter().collect()
}

/// Processes whose session id is `sid`, from /proc.
pub fn session_members(sid: u32) -> Vec<u32> {
    processes()
        .into_iter()
        .filter(|p| p.session == sid)
        .map(|p| p.pid)
        .collect()
}

/// SIGKILLs, until none is left, every process of this user whose environment holds
/// `marker` (with their descendants): what a recording killed by SIGKILL left running.
pub(crate) fn kill_marked(marker: &[u8]) {
    kill_until_gone(None, Some(marker));
}

/// SIGKILLs everything the program `root` started (its group, its session, its descendants
/// and, with `marker`, every process whose environment holds it) until none is left: what
/// `tuicast run` does when its command ends, as a recording does.
pub(crate) fn kill_started(root: u32, marker: Option<&[u8]>) {
    kill_until_gone(Some(root), marker);
}

/// SIGKILLs [`tree`] again and again until a look at `/proc` finds nothing left (a process
/// that forks while it is being killed has a child the next round finds), for at most a
/// second.
fn kill_until_gone(root: Option<u32>, marker: Option<&[u8]>) {
    let until = std::time::Instant::now() + Duration::from_secs(1);
    loop {
        if let Some(r) = root {
            let _ = killpg(Pid::from_raw(r as i32), Signal::SIGKILL);
        }
        let left = tree(root, marker);
        if left.is_empty() || std::time::Instant::now() >= until {
            return;
        }
        for p in left {
            let _ = kill(Pid::from_raw(p as i32), Signal::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// How many bytes `file` (a side of the terminal) holds to be read (`FIONREAD`), including
/// bytes written to the other side that the kernel has not yet handed over: a write to one
/// side of a pseudo-terminal only queues its bytes for a kernel worker, which moves them to
/// the reading side later (on a loaded machine, many milliseconds later), and `FIONREAD`
/// counts only what has been moved. A `poll` of the side with no timeout waits for that
/// worker first (the terminal's line discipline flushes its queue when a poll finds nothing
/// to read), so the count is of everything written before this call.
fn bytes_readable(file: &File) -> Option<usize> {
    poll_in(file, 0).ok()?;
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one `int` into the place it is given.
    let r = unsafe { libc::ioctl(file.as_raw_fd(), libc::FIONREAD, &mut n) };
    (r == 0).then(|| usize::try_from(n).unwrap_or(0))
}

/// Waits up to `timeout_ms` (negative: without end) for `file` to be readable or hung up.
fn poll_in(file: &File, timeout_ms: libc::c_int) -> io::Result<()> {
    let mut fd = libc::pollfd {
        fd: file.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one `pollfd` in the place given, for a descriptor `file` holds open.
    let polled = unsafe { libc::poll(&mut fd, 1, timeout_ms) };
    if polled < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The slave side of `master`, opened anew for a question (`TIOCGPTPEER`; never as a
/// controlling terminal). Closing it is no hang-up while the program holds the side open.
#[cfg(target_os = "linux")]
fn peer(master: &File) -> Option<File> {
    let flags = libc::O_RDONLY | libc::O_NOCTTY | libc::O_NONBLOCK | libc::O_CLOEXEC;
    // SAFETY: TIOCGPTPEER takes open flags and returns a new descriptor (or -1).
    let fd = unsafe { libc::ioctl(master.as_raw_fd(), libc::TIOCGPTPEER, flags) };
    // SAFETY: the descriptor is new and ours alone.
    (fd >= 0).then(|| unsafe { File::from_raw_fd(fd) })
}

/// Other systems: not asked.
#[cfg(not(target_os = "linux"))]
fn peer(_master: &File) -> Option<File> {
    None
}

/// Opens a new pseudo-terminal of `size`: its master and slave sides, both close-on-exec,
/// and the slave's path.
fn open_pty(size: Size) -> io::Result<(File, File, String)> {
    let cannot = |what: &str, e: nix::Error| {
        io::Error::other(format!("cannot open a pseudo-terminal: {what}: {e}"))
    };
    let master = nix::pty::posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_CLOEXEC)
        .map_err(|e| cannot("posix_openpt", e))?;
    nix::pty::grantpt(&master).map_err(|e| cannot("grantpt", e))?;
    nix::pty::unlockpt(&master).map_err(|e| cannot("unlockpt", e))?;
    let name = slave_name(&master).map_err(|e| cannot("ptsname", e))?;
    // SAFETY: `into_raw_fd` gives up ownership of an open descriptor, which `File` takes.
    let master = unsafe { File::from_raw_fd(master.into_raw_fd()) };
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY | libc::O_CLOEXEC)
        .open(&name)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot open {name}: {e}")))?;
    set_size(&master, size)?;
    Ok((master, slave, name))
}

/// The path of the slave side of `master`.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn slave_name(master: &nix::pty::PtyMaster) -> nix::Result<String> {
    nix::pty::ptsname_r(master)
}

/// The path of the slave side of `master` (`ptsname` uses a static buffer: one at a time).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn slave_name(master: &nix::pty::PtyMaster) -> nix::Result<String> {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    // SAFETY: the lock keeps other threads of tuicast from using the static buffer meanwhile.
    unsafe { nix::pty::ptsname(master) }
}

fn winsize(size: Size) -> libc::winsize {
    libc::winsize {
        ws_row: size.rows,
        ws_col: size.cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    }
}

/// Sets the terminal's size (the program in it gets SIGWINCH).
fn set_size(master: &File, size: Size) -> io::Result<()> {
    let ws = winsize(size);
    // SAFETY: TIOCSWINSZ reads one `winsize` from the struct it is given.
    if unsafe { libc::ioctl(master.as_raw_fd(), libc::TIOCSWINSZ, &ws) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// A pseudo-terminal of `size` for a program started with pipes (`tuicast run`): its master
/// and slave sides, both close-on-exec. The slave becomes the program's controlling terminal
/// with [`in_session_of_its_own`].
pub(crate) fn open_terminal(size: Size) -> io::Result<(File, File)> {
    open_pty(size).map(|(master, slave, _)| (master, slave))
}

/// Starts `cmd` as the leader of a new session (no controlling terminal of the caller, its
/// own process group), with `tty` (a slave side from [`open_terminal`], open in this process)
/// as its controlling terminal and the signal dispositions and mask of [`Pty::spawn`]'s
/// programs. `cmd` must not ask for a process group of its own (`setsid`
/// fails for a group leader).
pub(crate) fn in_session_of_its_own(cmd: &mut Command, tty: &File) {
    let fd = tty.as_raw_fd();
    // SAFETY: between fork and exec the closure calls only async-signal-safe functions
    // (signal, sigprocmask, setsid, ioctl) and allocates nothing (it captures a copied
    // integer). `fd` is open in the child until exec (close-on-exec).
    unsafe {
        cmd.pre_exec(move || session_with_terminal(fd));
    }
}

/// [`become_session_leader`] for a program whose standard descriptors are not all the
/// terminal: the terminal on `fd` becomes its controlling one.
fn session_with_terminal(fd: libc::c_int) -> io::Result<()> {
    // SAFETY: plain system calls on values owned by this (single-threaded) child.
    unsafe {
        default_signals();
        if libc::setsid() == -1 {
            return Err(io::Error::last_os_error());
        }
        #[allow(clippy::useless_conversion)]
        if libc::ioctl(fd, libc::TIOCSCTTY as _, 0) == -1 {
            return Err(io::Error::last_os_error());
        }
        // Descriptors above 2 are left to close-on-exec: the standard library reports a
        // failed exec through one of its own, which must stay open.
    }
    Ok(())
}

/// The file mode creation mask programs started from now on get, when set
/// ([`set_program_umask`]); `u32::MAX` while not set (they get this process's).
static PROGRAM_UMASK: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(u32::MAX);

/// Programs started in a PTY from now on get `mask` as their umask instead of this process's:
/// the session daemon keeps its own files private with 077 but gives programs the umask of
/// the user who started it (vim would otherwise write 0600 files that a re-recording does not).
pub fn set_program_umask(mask: u32) {
    PROGRAM_UMASK.store(mask & 0o777, std::sync::atomic::Ordering::SeqCst);
}

/// Runs in the child between fork and exec: default dispositions for the signals a parent
/// may have ignored or handled, an empty signal mask, the umask `mask` (`u32::MAX`: this
/// process's is kept), a new session whose controlling terminal is the PTY on
/// descriptor 0, and every descriptor above 2 closed. Only
/// async-signal-safe calls, no allocation.
fn become_session_leader(mask: u32) -> io::Result<()> {
    // SAFETY: plain system calls on values owned by this (single-threaded) child.
    unsafe {
        default_signals();
        if mask != u32::MAX {
            libc::umask(mask as libc::mode_t);
        }
        if libc::setsid() == -1 {
            return Err(io::Error::last_os_error());
        }
        #[allow(clippy::useless_conversion)]
        if libc::ioctl(0, libc::TIOCSCTTY as _, 0) == -1 {
            return Err(io::Error::last_os_error());
        }
        close_descriptors_above_2();
    }
    Ok(())
}

/// Default dispositions for the signals a parent may have ignored or handled, and an empty
/// signal mask, as a shell gives a program.
///
/// # Safety
/// Only between fork and exec.
unsafe fn default_signals() {
    // SAFETY: signal, sigemptyset and sigprocmask on values owned by this child.
    unsafe {
        for signal in [
            libc::SIGCHLD,
            libc::SIGHUP,
            libc::SIGINT,
            libc::SIGQUIT,
            libc::SIGTERM,
            libc::SIGALRM,
            libc::SIGPIPE,
        ] {
            libc::signal(signal, libc::SIG_DFL);
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
    }
}

/// Closes every descriptor above 2 in the child, so the program inherits nothing of ours
/// (a parent's pipe left open, a test harness's descriptors).
///
/// # Safety
/// Only between fork and exec.
unsafe fn close_descriptors_above_2() {
    #[cfg(target_os = "linux")]
    // SAFETY: close_range(2) takes three integers and touches no memory.
    if unsafe { libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32) } == 0 {
        return;
    }
    // SAFETY: sysconf takes an integer and touches no memory.
    let max = unsafe { libc::sysconf(libc::_SC_OPEN_MAX) };
    let max = if max <= 0 { 1024 } else { max.min(65_536) } as libc::c_int;
    for fd in 3..max {
        // SAFETY: close takes an integer; closing a descriptor that is not open fails
        // harmlessly, and this child owns every descriptor it has.
        unsafe { libc::close(fd) };
    }
}

/// Finds `program` the way a shell would, with the child's PATH, so a missing program is a
/// clear error before anything starts.
fn resolve_program(program: &str, cwd: &Path, path: Option<&str>) -> io::Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &Path| {
        p.is_file()
            && p.metadata()
                .map(|m| m.permissions().mode() & 0o111 != 0)
                .unwrap_or(false)
    };
    if program.contains('/') {
        let p = cwd.join(program);
        return if runnable(&p) {
            Ok(p)
        } else {
            Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{} is not an executable file", shown(&p)),
            ))
        };
    }
    let path = path.unwrap_or("/usr/local/bin:/usr/bin:/bin");
    for dir in path.split(':').filter(|d| !d.is_empty()) {
        let p = Path::new(dir).join(program);
        if runnable(&p) {
            return Ok(p);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::NotFound,
        format!(
            "command not found: {} (searched PATH={})",
            shown(program),
            shown(path)
        ),
    ))
}

/// A scenario's program, folder or PATH as a message shows it: escaped, so that a name holding
/// OSC 52 or OSC 0 never reaches the terminal raw.
fn shown(text: impl AsRef<std::ffi::OsStr>) -> String {
    crate::escape::escape_for_terminal(&text.as_ref().to_string_lossy(), 300)
}
