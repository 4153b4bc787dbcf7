//! The session daemon behind `tuicast session`: live recording sessions that a stateless
//! client (an agent, a script, a person) drives one command at a time, each command one
//! scenario step run by the recorder's own code ([`record::run_step`] on a
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
//!
//! A folder in the temporary folder that another user took (or a link) is passed over for the
//! next name, `tuicast-UID-2` and on, up to [`TEMP_DIR_CHOICES`] of them.

mod client;
mod events;
mod matched;
pub mod protocol;
mod server;
mod worker;

use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use client::{call, Called, ClientError, ClientErrorKind};
pub use server::serve;

#[cfg(doc)]
use crate::config;
use crate::record;

/// The longest request or reply line (a reply holds one screen: far less).
pub const MAX_LINE: usize = 4 << 20;

/// The prefix of the daemon's variables that `tuicast session secret --env VAR` may type
/// (`TUICAST_SECRET_TOKEN`); others only when listed in [`SECRETS_ALLOWED`].
pub const SECRET_PREFIX: &str = "TUICAST_SECRET_";

/// The daemon's variable that lists (comma-separated) more variables `session secret` may
/// type: `TUICAST_SECRETS=DEPLOY_TOKEN,DB_PASSWORD`.
pub const SECRETS_ALLOWED: &str = "TUICAST_SECRETS";

/// Whether `session secret` may type the daemon's variable `var` (and `tuicast run --secret`
/// pass tuicast's own): named with [`SECRET_PREFIX`], or listed in [`SECRETS_ALLOWED`] in
/// the environment. Any other (`HOME`, a cloud key the daemon happens to hold) is refused: an
/// agent could otherwise have any of them typed into a program that shows it.
pub fn secret_allowed(var: &str) -> bool {
    var.starts_with(SECRET_PREFIX)
        || std::env::var(SECRETS_ALLOWED).is_ok_and(|list| {
            list.split(|c: char| c == ',' || c.is_whitespace())
                .any(|name| !name.is_empty() && name == var)
        })
}

/// The most cells one session's screen may have (columns × rows), at its start and after a
/// resize: an idle session costs about 140 bytes a cell (a 4000x1000 one held ~570 MB).
pub const MAX_SESSION_CELLS: u64 = 1_000_000;

/// The most cells the screens of all of one daemon's sessions may have together (about
/// 300 MB).
pub const MAX_TOTAL_SESSION_CELLS: u64 = 2_000_000;

/// The most bytes a session's cast may hold when `start --max-cast` does not say: past it the
/// session fails (its program's output is read no further, so the cast stops growing; `yes`
/// wrote 73 MB in 4 s).
pub const MAX_SESSION_CAST_BYTES: u64 = 64 << 20;

/// The smallest `--max-cast` a session takes (a cast's header alone is a few hundred bytes).
pub const MIN_SESSION_CAST_BYTES: u64 = 4096;

/// The most sessions one daemon runs at once.
pub const MAX_SESSIONS: usize = 64;

/// How long a daemon waits for a request before it ends its sessions and exits, when
/// neither `--idle` nor `TUICAST_SESSION_IDLE` says.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(600);

/// The daemon's files: all in one private folder of this user.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Paths {
    /// The folder (mode 0700).
    pub dir: PathBuf,
    /// Why the folder is not the first choice, when it is not: the folders passed over (another
    /// user's, a symbolic link), for a warning.
    pub passed_over: Option<String>,
}

/// How many folders `tuicast-UID`, `tuicast-UID-2`, … in the temporary folder the daemon tries
/// when another user took the first ones.
pub const TEMP_DIR_CHOICES: usize = 8;

impl Paths {
    /// The folder for this user: `$XDG_RUNTIME_DIR/tuicast/` when that variable names a
    /// folder, else `tuicast-UID` in the temporary folder (`tuicast-UID-2` … when another
    /// user made that one first, up to [`TEMP_DIR_CHOICES`]). Created with mode 0700 when
    /// missing; one that belongs to someone else or is a symbolic link is passed over (said
    /// in [`Paths::passed_over`]), and when every choice is, an error names them.
    pub fn for_user() -> io::Result<Paths> {
        let uid = std::fs::metadata("/proc/self")?.uid();
        let mut choices = Vec::new();
        if let Some(x) = std::env::var_os("XDG_RUNTIME_DIR") {
            if !x.is_empty() && Path::new(&x).is_dir() {
                choices.push(PathBuf::from(x).join("tuicast"));
            }
        }
        let temp = std::env::temp_dir();
        choices.push(temp.join(format!("tuicast-{uid}")));
        choices.extend((2..=TEMP_DIR_CHOICES).map(|n| temp.join(format!("tuicast-{uid}-{n}"))));
        let mut refused: Vec<String> = Vec::new();
        for dir in choices {
            match crate::util::private_dir(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                    refused.push(e.to_string());
                    continue;
                }
                Err(e) => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!("cannot create {}: {e}", dir.display()),
                    ))
                }
            }
            std::fs::DirBuilder::new()
                .mode(0o700)
                .recursive(true)
                .create(dir.join("sessions"))?;
            let passed_over = (!refused.is_empty()).then(|| {
                format!(
                    "the session daemon uses {} instead: {}",
                    crate::escape::escape_for_terminal(&dir.display().to_string(), 300),
                    refused.join("; ")
                )
            });
            return Ok(Paths { dir, passed_over });
        }
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "no private folder for the session daemon: {}; set XDG_RUNTIME_DIR to a folder \
                 of your own",
                refused.join("; ")
            ),
        ))
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

    /// The pid in the pid file, when it names a live process: the one that wrote it, by its
    /// start time too (a pid reused by another process after the daemon died is no daemon).
    pub fn running_pid(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.pid_file()).ok()?;
        crate::util::pid_file_alive(&text)
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
