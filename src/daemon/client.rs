//! The client side: one request, one reply; a daemon started when none runs; a daemon that
//! is gone reported, and what it left running ended.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use super::protocol::{Reply, Request};
use super::{Paths, MAX_LINE};

/// Why a request got no reply: its kind, what happened, and the error beneath (`source()`).
#[derive(Debug)]
pub struct ClientError {
    kind: ClientErrorKind,
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

/// The kind of a [`ClientError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientErrorKind {
    /// The daemon could not be started or reached, or its reply not read.
    Unreachable,
    /// The daemon went away while it answered (killed or crashed): its sessions are lost.
    Lost,
}

impl ClientError {
    fn new(
        kind: ClientErrorKind,
        message: impl Into<String>,
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    ) -> ClientError {
        ClientError {
            kind,
            message: message.into(),
            source,
        }
    }

    /// Its kind.
    pub fn kind(&self) -> ClientErrorKind {
        self.kind
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(s) = &self.source {
            write!(f, ": {s}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

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
                    ClientError::new(
                        ClientErrorKind::Unreachable,
                        "cannot start the session daemon",
                        Some(Box::new(e)),
                    )
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
                return Err(ClientError::new(
                    ClientErrorKind::Unreachable,
                    format!(
                        "the session daemon did not start listening on {} within {} s (its \
                         log: {})",
                        paths.socket().display(),
                        START_TIMEOUT.as_secs(),
                        paths.log().display()
                    ),
                    Some(Box::new(e)),
                ))
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
        ClientError::new(
            ClientErrorKind::Lost,
            format!(
                "the session daemon went away while {what} (killed or crashed): its sessions \
                 are lost; the next command starts a new daemon"
            ),
            None,
        )
    };
    let mut line = serde_json::to_string(request).map_err(|e| {
        ClientError::new(
            ClientErrorKind::Unreachable,
            "cannot encode the request",
            Some(Box::new(e)),
        )
    })?;
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
        ClientError::new(
            ClientErrorKind::Unreachable,
            "the daemon's reply is not one this client reads",
            Some(Box::new(e)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_error_has_a_kind_a_message_and_its_source() {
        let io = io::Error::new(io::ErrorKind::PermissionDenied, "no access");
        let e = ClientError::new(
            ClientErrorKind::Unreachable,
            "cannot start the session daemon",
            Some(Box::new(io)),
        );
        assert_eq!(e.kind(), ClientErrorKind::Unreachable);
        assert_eq!(e.to_string(), "cannot start the session daemon: no access");
        let source = std::error::Error::source(&e).expect("a source");
        assert_eq!(source.to_string(), "no access");
        // A daemon that is not there at all: the reply cannot be read, and says so.
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths {
            dir: dir.path().to_path_buf(),
            passed_over: None,
        };
        let never = || Err(io::Error::other("refused"));
        let err = call(&paths, &Request::List, &never).unwrap_err();
        assert_eq!(err.kind(), ClientErrorKind::Unreachable);
        assert!(
            err.to_string()
                .starts_with("cannot start the session daemon: refused"),
            "{err}"
        );
    }
}
