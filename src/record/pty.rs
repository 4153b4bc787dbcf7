//! A program running in a pseudo-terminal (on portable-pty), with its output and its exit
//! delivered as events on one channel.
//!
//! The traps handled here: the slave side is dropped right after spawning (or EOF never
//! comes); the writer is kept until the end (dropping it sends EOF to the program), and
//! writes happen on a thread of their own, so typing more than the PTY buffers while the
//! program answers with output (which waits for the recorder) cannot deadlock; `cwd` and
//! `TERM` are always set; reads are retried on EINTR; the child is always reaped, in its own
//! thread, with the real signal number of a killed child; and the whole session of the
//! program (its process group, and background jobs that moved to groups of their own) is
//! killed at the end, so no process outlives a recording.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;
use portable_pty::{native_pty_system, CommandBuilder, MasterPty, PtySize};

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
    master: Box<dyn MasterPty + Send>,
    /// Input for the writing thread; dropping it closes the writer (EOF to the program).
    input: mpsc::Sender<Vec<u8>>,
    /// The first write that failed on the writing thread.
    write_failed: Arc<Mutex<Option<(io::ErrorKind, String)>>>,
    pid: u32,
    rx: Receiver<PtyEvent>,
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
        let program = argv
            .first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the command is empty"))?;
        let resolved = resolve_program(program, cwd, env.get("PATH").map(String::as_str))?;
        if !cwd.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("the working folder {} does not exist", cwd.display()),
            ));
        }
        let pair = native_pty_system()
            .openpty(pty_size(size))
            .map_err(|e| io::Error::other(format!("cannot open a pseudo-terminal: {e}")))?;
        let mut cmd = CommandBuilder::new(&resolved);
        cmd.args(&argv[1..]);
        cmd.env_clear();
        for (k, v) in env {
            cmd.env(k, v);
        }
        if !env.contains_key("TERM") {
            cmd.env("TERM", "xterm-256color");
        }
        cmd.cwd(cwd);
        let child = pair
            .slave
            .spawn_command(cmd)
            .map_err(|e| io::Error::other(format!("cannot start {program}: {e}")))?;
        // Without this the PTY never reports EOF: our copy of the slave keeps it open.
        drop(pair.slave);
        let pid = child.process_id().unwrap_or(0);
        let mut reader = pair.master.try_clone_reader().map_err(io::Error::other)?;
        let mut writer = pair.master.take_writer().map_err(io::Error::other)?;
        let (input, typed) = mpsc::channel::<Vec<u8>>();
        let write_failed = Arc::new(Mutex::new(None));
        let failed = Arc::clone(&write_failed);
        std::thread::Builder::new()
            .name("tuicast-pty-write".into())
            .spawn(move || {
                for bytes in typed {
                    if let Err(e) = writer.write_all(&bytes).and_then(|()| writer.flush()) {
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
        std::thread::Builder::new()
            .name("tuicast-pty-read".into())
            .spawn(move || {
                let mut buf = vec![0u8; 1 << 16];
                loop {
                    match reader.read(&mut buf) {
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
                // The std child is inside: its status has the real signal number.
                let inner: &mut dyn portable_pty::Child = &mut *child;
                let status = match inner.downcast_mut::<std::process::Child>() {
                    Some(c) => loop {
                        match c.wait() {
                            Ok(s) => {
                                break s.code().unwrap_or_else(|| 128 + s.signal().unwrap_or(0))
                            }
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                            Err(_) => break 255,
                        }
                    },
                    None => child.wait().map(|s| s.exit_code() as i32).unwrap_or(255),
                };
                let _ = tx.send(PtyEvent::Exit(status));
            })?;

        Ok(Pty {
            master: pair.master,
            input,
            write_failed,
            pid,
            rx,
        })
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
        self.input
            .send(bytes.to_vec())
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the terminal is closed"))
    }

    /// Resizes the terminal; the program gets SIGWINCH.
    pub fn resize(&self, size: Size) -> io::Result<()> {
        self.master.resize(pty_size(size)).map_err(io::Error::other)
    }

    /// The next event, waiting at most `timeout` (forever when `None`).
    pub fn recv(&self, timeout: Option<Duration>) -> Result<PtyEvent, RecvTimeoutError> {
        match timeout {
            Some(t) => self.rx.recv_timeout(t),
            None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        }
    }

    /// Whether the terminal echoes input (false while a program reads a password).
    pub fn echo_enabled(&self) -> Option<bool> {
        self.master
            .get_termios()
            .map(|t| t.local_flags.contains(nix::sys::termios::LocalFlags::ECHO))
    }

    /// Sends `signal` to the program's whole session: its process group and any process that
    /// moved to another group of the same session (background jobs of a shell).
    pub fn signal_all(&self, signal: Signal) {
        if self.pid == 0 {
            return;
        }
        let pid = Pid::from_raw(self.pid as i32);
        let _ = killpg(pid, signal);
        for p in session_members(self.pid) {
            let _ = kill(Pid::from_raw(p as i32), signal);
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        self.signal_all(Signal::SIGKILL);
    }
}

/// Processes whose session id is `sid`, from /proc.
pub fn session_members(sid: u32) -> Vec<u32> {
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
        if fields.get(3).and_then(|s| s.parse::<u32>().ok()) == Some(sid)
            && fields.first() != Some(&"Z")
        {
            out.push(pid);
        }
    }
    out
}

fn pty_size(size: Size) -> PtySize {
    PtySize {
        rows: size.rows,
        cols: size.cols,
        pixel_width: 0,
        pixel_height: 0,
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
                format!("{} is not an executable file", p.display()),
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
        format!("command not found: {program} (searched PATH={path})"),
    ))
}
