//! The session daemon behind `tuicast session`: live recording sessions that a stateless
//! client (an agent, a script, a person) drives one command at a time, each command one
//! scenario step run by the recorder's own code ([`record::run::run_step`] on a
//! [`record::Session`], exactly as `tuicast record` runs a scenario), each session recorded
//! into a cast and journaled ([`record::journal`]) so that `stop --save` writes the cast and
//! the scenario that reproduces it.
//!
//! - [`Paths`]: the private folder (`$XDG_RUNTIME_DIR/tuicast/`, else
//!   `$TMPDIR/tuicast-UID/`, mode 0700, owned by this user), its socket (mode 0600), the
//!   daemon's pid file and log, and the casts of running sessions.
//! - `server.rs` ([`serve`]): the daemon: JSON lines over the Unix socket, one request and one
//!   reply per connection, peers of another uid refused (`SO_PEERCRED`), no network listener;
//!   it exits when no request came for its idle time, ending its sessions.
//! - `worker.rs`: one thread per session, owning its [`record::Session`]: between commands it
//!   keeps reading the program's output into the cast and the live engine (so queries are
//!   answered and the screen is current), and runs the commands in order.
//! - `client.rs` ([`call`]): connect, start a daemon when none runs, report a daemon that is
//!   gone (killed, crashed) and end what it left running.
//!
//! The protocol (requests and the JSON schema of every reply) is in `docs/agents.md`. Steps
//! travel as the TOML of one scenario step (`{ press = "Enter" }`), read on the daemon's side
//! by [`config::parse_step`]: every step kind a scenario has is a command.

mod client;
mod server;
mod worker;

use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use client::{call, Called, ClientError};
pub use server::serve;

#[cfg(doc)]
use crate::config;
use crate::record;

/// The longest request or reply line (a reply holds one screen: far less).
pub const MAX_LINE: usize = 4 << 20;

/// The most sessions one daemon runs at once.
pub const MAX_SESSIONS: usize = 64;

/// How long a daemon waits for a request before it ends its sessions and exits, when
/// neither `--idle` nor `TUICAST_SESSION_IDLE` says.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(600);

/// The daemon's files: all in one private folder of this user.
#[derive(Debug, Clone)]
pub struct Paths {
    /// The folder (mode 0700).
    pub dir: PathBuf,
}

impl Paths {
    /// The folder for this user: `$XDG_RUNTIME_DIR/tuicast/` when that variable names a
    /// folder, else `tuicast-UID` in the temporary folder. Created with mode 0700 when missing;
    /// refused when it belongs to someone else, is a symbolic link, or others may use it.
    pub fn for_user() -> io::Result<Paths> {
        let uid = std::fs::metadata("/proc/self")?.uid();
        let dir = match std::env::var_os("XDG_RUNTIME_DIR") {
            Some(x) if !x.is_empty() && Path::new(&x).is_dir() => PathBuf::from(x).join("tuicast"),
            _ => std::env::temp_dir().join(format!("tuicast-{uid}")),
        };
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("cannot create {}: {e}", dir.display()),
                ))
            }
        }
        let meta = std::fs::symlink_metadata(&dir)?;
        if !meta.is_dir() || meta.uid() != uid {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "{} is not a folder of this user: refusing to use it for the session daemon",
                    dir.display()
                ),
            ));
        }
        if meta.mode() & 0o077 != 0 {
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
        }
        std::fs::DirBuilder::new()
            .mode(0o700)
            .recursive(true)
            .create(dir.join("sessions"))?;
        Ok(Paths { dir })
    }

    /// The daemon's socket.
    pub fn socket(&self) -> PathBuf {
        self.dir.join("daemon.sock")
    }

    /// The running daemon's pid.
    pub fn pid_file(&self) -> PathBuf {
        self.dir.join("daemon.pid")
    }

    /// What the daemon reports about itself (starts, stops, errors; never typed text).
    pub fn log(&self) -> PathBuf {
        self.dir.join("daemon.log")
    }

    /// The cast a running session is recorded into.
    pub fn cast(&self, id: &str) -> PathBuf {
        self.dir.join("sessions").join(format!("{id}.cast"))
    }

    /// The pid in the pid file, when it names a live process.
    pub fn running_pid(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.pid_file()).ok()?;
        let pid: u32 = text.trim().parse().ok()?;
        crate::util::process_alive(pid).then_some(pid)
    }
}

/// The idle time from `TUICAST_SESSION_IDLE` (`30s`, `10m`), when set and valid.
pub fn idle_from_env() -> Option<Duration> {
    std::env::var("TUICAST_SESSION_IDLE")
        .ok()
        .and_then(|v| crate::config::parse_duration(&v).ok())
}

/// Ends what a daemon killed by SIGKILL left running (its sessions' programs): see
/// [`record::sweep_orphans`].
pub(crate) fn sweep() {
    record::sweep_orphans();
}
