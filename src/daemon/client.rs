//! The client side: one request, one reply; a daemon started when none runs; a daemon that
//! is gone reported, and what it left running ended.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use super::protocol::{Reply, Request};
use super::{Paths, MAX_LINE};

/// Why a request got no reply.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// The daemon could not be started or reached.
    Unreachable(String),
    /// The daemon went away while it answered (killed or crashed): its sessions are lost.
    Lost(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Unreachable(m) | ClientError::Lost(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ClientError {}

/// A reply, and whether the daemon that held the sessions was found gone first (killed or
/// crashed: its sessions lost, what it left running ended, a new daemon started).
#[derive(Debug)]
#[non_exhaustive]
pub struct Called {
    /// The reply.
    pub reply: Reply,
    /// The earlier daemon was gone.
    pub daemon_was_gone: bool,
}

/// How long a new daemon may take to listen.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// Sends `request` to the daemon of `paths`, starting one with `start` when none runs.
pub fn call(
    paths: &Paths,
    request: &Request,
    start: &dyn Fn() -> io::Result<()>,
) -> Result<Called, ClientError> {
    let mut gone = false;
    let stream = match UnixStream::connect(paths.socket()) {
        Ok(s) => s,
        Err(_) => {
            // A socket or pid file with no daemon answering: it was killed or crashed. A
            // daemon that is starting holds its pid file (the lock's rule gives it time to
            // write its pid): it is waited for, not taken for a dead one.
            let pid_file = paths.pid_file();
            let held = pid_file.exists() && !crate::util::PidLock::is_stale(&pid_file);
            if !held {
                if paths.socket().exists() || pid_file.exists() {
                    gone = true;
                    let _ = std::fs::remove_file(paths.socket());
                    let _ = std::fs::remove_file(&pid_file);
                    super::sweep();
                }
                start().map_err(|e| {
                    ClientError::Unreachable(format!("cannot start the session daemon: {e}"))
                })?;
            }
            connect_new(paths)?
        }
    };
    let reply = exchange(stream, request)?;
    Ok(Called {
        reply,
        daemon_was_gone: gone,
    })
}

/// Connects to a daemon that is starting, for at most [`START_TIMEOUT`].
fn connect_new(paths: &Paths) -> Result<UnixStream, ClientError> {
    let until = Instant::now() + START_TIMEOUT;
    let mut pause = Duration::from_millis(1);
    loop {
        match UnixStream::connect(paths.socket()) {
            Ok(s) => return Ok(s),
            Err(e) if Instant::now() >= until => {
                return Err(ClientError::Unreachable(format!(
                    "the session daemon did not start listening on {} within {} s: {e} \
                     (its log: {})",
                    paths.socket().display(),
                    START_TIMEOUT.as_secs(),
                    paths.log().display()
                )))
            }
            Err(_) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
        }
    }
}

fn exchange(mut stream: UnixStream, request: &Request) -> Result<Reply, ClientError> {
    let lost = |what: &str| {
        ClientError::Lost(format!(
            "the session daemon went away while {what} (killed or crashed): its sessions are \
             lost; the next command starts a new daemon"
        ))
    };
    let mut line = serde_json::to_string(request)
        .map_err(|e| ClientError::Unreachable(format!("cannot encode the request: {e}")))?;
    line.push('\n');
    // A daemon that refuses a client answers before it reads: its answer still counts.
    let sent = stream.write_all(line.as_bytes());
    let mut answer = Vec::new();
    let read = BufReader::new((&stream).take(MAX_LINE as u64 + 1)).read_until(b'\n', &mut answer);
    if answer.is_empty() || read.is_err() {
        return Err(lost(if sent.is_err() {
            "reading the request"
        } else {
            "answering"
        }));
    }
    serde_json::from_slice(&answer).map_err(|e| {
        ClientError::Unreachable(format!(
            "the daemon's reply is not one this client reads: {e}"
        ))
    })
}
