//! The daemon: the socket, the peer check, the requests, the idle exit.
//!
//! JSON lines on the Unix socket, one request per connection, peers of another uid refused;
//! an exited session's name is given to the next start.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::protocol::{Listed, Reply, Request, State};
use super::worker::{self, Handle, Job, Start};
use super::{
    Paths, MAX_LINE, MAX_SESSIONS, MAX_SESSION_CAST_BYTES, MAX_SESSION_CELLS,
    MAX_TOTAL_SESSION_CELLS, MIN_SESSION_CAST_BYTES,
};
use crate::config::{parse_duration, parse_step};
use crate::escape::escape_for_terminal;
use crate::term::Size;

/// The most requests the daemon serves at once (each on a thread of its own).
const MAX_CONNECTIONS: usize = 256;

/// The size past which the daemon's log starts over.
const MAX_LOG: u64 = 1 << 20;

/// The daemon's shared state.
struct Daemon {
    paths: Paths,
    sessions: Mutex<BTreeMap<String, Handle>>,
    /// The ids of the sessions running and of those starting: taken, under this one lock,
    /// before a session's program starts, so that two starts with one name cannot both start
    /// one and concurrent starts cannot pass [`MAX_SESSIONS`] (they were counted only once
    /// running).
    /// Each taken id's screen size in cells, for [`MAX_SESSION_CELLS`] and
    /// [`MAX_TOTAL_SESSION_CELLS`].
    taken: Mutex<BTreeMap<String, u64>>,
    next: Mutex<u64>,
    last_request: Mutex<Instant>,
    log: Arc<dyn Fn(&str) + Send + Sync>,
    uid: u32,
}

/// Runs the daemon in this process until it has been idle for `idle` (no request; its
/// sessions are then ended) or a SIGINT/SIGTERM/SIGHUP comes. Call it with signal handling
/// installed ([`crate::record::interrupt::install`]) and the umask at 077. Returns when another
/// daemon already serves `paths`.
pub fn serve(paths: &Paths, idle: Duration) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let uid = std::fs::metadata("/proc/self")?.uid();
    if !take_pid_file(paths)? {
        return Ok(());
    }
    // Counted as a live recording for as long as it serves, so that SIGTERM, SIGINT and SIGHUP
    // reach the watch below (which ends the sessions and removes the socket and pid file)
    // instead of ending the process at once.
    let _serving = crate::record::interrupt::Active::new();
    let socket = paths.socket();
    let _ = std::fs::remove_file(&socket);
    let listener = UnixListener::bind(&socket)?;
    std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o600))?;
    let log_path = paths.log();
    let log: Arc<dyn Fn(&str) + Send + Sync> = Arc::new(move |line: &str| {
        // Kept small: past MAX_LOG the log starts over, the old one kept as `daemon.log.1`.
        if std::fs::metadata(&log_path).is_ok_and(|m| m.len() > MAX_LOG) {
            let _ = std::fs::rename(&log_path, log_path.with_extension("log.1"));
        }
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
        {
            let _ = writeln!(f, "{} {line}", std::process::id());
        }
    });
    log(&format!("daemon started (idle {} s)", idle.as_secs()));
    let daemon = Arc::new(Daemon {
        paths: paths.clone(),
        sessions: Mutex::new(BTreeMap::new()),
        taken: Mutex::new(BTreeMap::new()),
        next: Mutex::new(1),
        last_request: Mutex::new(Instant::now()),
        log,
        uid,
    });
    // The watch: the idle time, and signals.
    let watched = Arc::clone(&daemon);
    std::thread::Builder::new()
        .name("tuicast-daemon-watch".into())
        .spawn(move || loop {
            std::thread::sleep(Duration::from_millis(100));
            let quiet = lock(&watched.last_request).elapsed();
            let signal = crate::record::interrupt::requested();
            if quiet >= idle || signal.is_some() {
                let why = match signal {
                    Some(s) => crate::record::interrupt::signal_name(s),
                    None => format!("idle for {} s", quiet.as_secs()),
                };
                shut_down(&watched, &why);
                std::process::exit(0);
            }
        })?;
    let open = Arc::new(AtomicUsize::new(0));
    for conn in listener.incoming() {
        let Ok(mut stream) = conn else { continue };
        if open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let busy = format!("{MAX_CONNECTIONS} requests are open already: try again");
            let _ = reply(&mut stream, &bad(busy));
            continue;
        }
        open.fetch_add(1, Ordering::SeqCst);
        let d = Arc::clone(&daemon);
        let count = Arc::clone(&open);
        let spawned = std::thread::Builder::new()
            .name("tuicast-daemon-client".into())
            .spawn(move || {
                connection(&d, stream);
                count.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            open.fetch_sub(1, Ordering::SeqCst);
        }
    }
    Ok(())
}

/// Takes the pid file: false when a live daemon holds it (or is starting).
fn take_pid_file(paths: &Paths) -> io::Result<bool> {
    // Kept until `shut_down` removes the file.
    Ok(crate::util::PidLock::acquire(&paths.pid_file())?.is_some())
}

/// Ends every session (their programs with them) and removes the socket and pid file.
fn shut_down(d: &Daemon, why: &str) {
    (d.log)(&format!("daemon stopping: {why}"));
    let handles: Vec<Handle> = std::mem::take(&mut *lock(&d.sessions))
        .into_values()
        .collect();
    for h in handles {
        let (tx, rx) = mpsc::channel();
        if h.tx
            .send((
                Job::Stop {
                    save: None,
                    force: false,
                },
                tx,
            ))
            .is_ok()
        {
            let _ = rx.recv_timeout(Duration::from_secs(5));
        }
    }
    let _ = std::fs::remove_file(d.paths.socket());
    let _ = std::fs::remove_file(d.paths.pid_file());
}

/// One client: its uid checked, one request line read, one reply line written.
fn connection(d: &Daemon, mut stream: UnixStream) {
    use nix::sys::socket::{getsockopt, sockopt::PeerCredentials};
    let peer = getsockopt(&stream, PeerCredentials).map(|c| c.uid());
    if peer != Ok(d.uid) {
        (d.log)(&format!("refused a client of uid {peer:?}"));
        let _ = reply(
            &mut stream,
            &Reply::error("refused: the session daemon serves only its own user", 2),
        );
        return;
    }
    // A client that connects and sends nothing does not hold a thread for long.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut line = Vec::new();
    let read = BufReader::new((&stream).take(MAX_LINE as u64 + 1)).read_until(b'\n', &mut line);
    let answer = match read {
        Err(e) => bad(format!("cannot read the request: {e}")),
        Ok(_) if line.len() > MAX_LINE => {
            bad(format!("the request is longer than {MAX_LINE} bytes"))
        }
        Ok(_) => match parse_request(&line) {
            Ok(Request::Events { id, since }) => return watch(d, stream, &id, since, None),
            Ok(Request::Attach { id, take }) => return watch(d, stream, &id, None, Some(take)),
            Ok(req) => {
                *lock(&d.last_request) = Instant::now();
                // A request that panics fails alone: its reply says so, and the daemon, its
                // other requests and every session go on (`catch_unwind` at the boundary;
                // the locks it held are taken back, see `lock`).
                let answer = caught(&*d.log, "the daemon and its sessions go on", || {
                    request(d, &req)
                });
                *lock(&d.last_request) = Instant::now();
                answer
            }
            Err(e) => bad(e),
        },
    };
    let _ = reply(&mut stream, &answer);
}

/// A watcher (`events`, or with `take` given `attach`): the session's event lines written
/// until the session ends or the client goes; an `attach` client's control lines read on a
/// thread of their own (its hold given back when it goes, however it goes).
fn watch(d: &Daemon, mut stream: UnixStream, id: &str, since: Option<u64>, take: Option<bool>) {
    let found = lock(&d.sessions)
        .get(id)
        .map(|h| (Arc::clone(&h.hub), h.tx.clone()));
    let Some((hub, tx)) = found else {
        let _ = reply(&mut stream, &no_session(id));
        return;
    };
    let (me, queue) = match hub.watch(since) {
        Ok(w) => w,
        Err(e) => {
            let _ = reply(&mut stream, &Reply::error(e.to_string(), 1));
            return;
        }
    };
    let _ = stream.set_write_timeout(Some(super::events::WRITE_TIMEOUT));
    if let Some(take) = take {
        if take {
            hub.take(me, true);
        }
        let _ = stream.set_read_timeout(None);
        let reader = stream.try_clone();
        let (theirs, queue) = (Arc::clone(&hub), Arc::clone(&queue));
        let spawned = reader.and_then(|reader| {
            std::thread::Builder::new()
                .name("tuicast-daemon-attach".into())
                .spawn(move || {
                    controls(&theirs, me, &tx, reader);
                    theirs.unwatch(me);
                    queue.close();
                })
        });
        if spawned.is_err() {
            hub.unwatch(me);
            return;
        }
    }
    let mut skip_to = None;
    let write = |text: &str| -> bool {
        let mut line = Vec::with_capacity(text.len() + 1);
        line.extend_from_slice(text.as_bytes());
        line.push(b'\n');
        (&stream).write_all(&line).is_ok()
    };
    loop {
        let next = queue.next(Duration::from_secs(1), skip_to);
        // A session watched is no idle daemon.
        *lock(&d.last_request) = Instant::now();
        match next {
            super::events::Next::Line(line, last) => {
                if !write(&line) || last {
                    break;
                }
            }
            super::events::Next::Lost(count) => {
                let (seq, state) = hub.current(me);
                skip_to = Some(seq);
                let lost = super::protocol::SessionEvent::Lost { seq, count };
                let lost = serde_json::to_string(&lost).unwrap_or_default();
                if !write(&lost) || !state.iter().all(|l| write(l)) {
                    break;
                }
            }
            // A session watched is no idle daemon.
            // (An `attach` client's going is seen by its reader.)
            super::events::Next::Nothing => {
                if take.is_none() && gone(&stream) {
                    break;
                }
            }
            super::events::Next::Closed => break,
        }
    }
    hub.unwatch(me);
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// Whether an `events` client (which sends nothing after its request) has closed its end.
fn gone(stream: &UnixStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return false;
    }
    let mut byte = [0u8; 1];
    let read = (&*stream).read(&mut byte);
    let _ = stream.set_nonblocking(false);
    match read {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != io::ErrorKind::WouldBlock,
    }
}

/// The longest control line an `attach` client may send (its input in one line).
const MAX_CONTROL: usize = 64 << 10;

/// An `attach` client's control lines, until it goes: `{"take":BOOL}`, `{"input":TEXT}`.
fn controls(
    hub: &super::events::Hub,
    me: u64,
    tx: &mpsc::Sender<worker::Envelope>,
    stream: UnixStream,
) {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Control {
        #[serde(default)]
        take: Option<bool>,
        #[serde(default)]
        input: Option<String>,
    }
    let mut reader = BufReader::new(stream);
    loop {
        let mut line = Vec::new();
        match (&mut reader)
            .take(MAX_CONTROL as u64 + 1)
            .read_until(b'\n', &mut line)
        {
            Ok(0) | Err(_) => return,
            Ok(_) if line.len() > MAX_CONTROL => {
                hub.refuse(
                    me,
                    format!("a control line is longer than {MAX_CONTROL} bytes"),
                );
                return;
            }
            Ok(_) => {}
        }
        let control: Control = match serde_json::from_slice(&line) {
            Ok(c) => c,
            Err(e) => {
                hub.refuse(
                    me,
                    format!(
                        "not a control line ({{\"take\":true}}, {{\"input\":\"...\"}}): {}",
                        escape_for_terminal(&e.to_string(), 200)
                    ),
                );
                continue;
            }
        };
        if let Some(take) = control.take {
            hub.take(me, take);
        }
        if let Some(text) = control.input.filter(|t| !t.is_empty()) {
            if !hub.holds(me) {
                hub.refuse(
                    me,
                    "input is sent only while holding the session (take it first)".into(),
                );
                continue;
            }
            // Typed in order after any command before it; no reply is waited for.
            let (rtx, _) = mpsc::channel();
            if tx.send((Job::Input(text), rtx)).is_err() {
                return;
            }
        }
    }
}

/// The reply for a session that is not there.
fn no_session(id: &str) -> Reply {
    bad(format!(
        "no session \"{}\" (tuicast session list shows them)",
        escape_for_terminal(id, 60)
    ))
}

/// What `answer` replies, or, when it panics, an error reply (exit 2) saying so and `after`
/// (what goes on), the panic's message logged: one request's failure is its own.
pub(super) fn caught(log: &dyn Fn(&str), after: &str, answer: impl FnOnce() -> Reply) -> Reply {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(answer)).unwrap_or_else(|panic| {
        let text = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        let why = escape_for_terminal(&text, 300);
        log(&format!("a request failed unexpectedly: {why}"));
        Reply::error(
            format!("the request failed unexpectedly ({why}); {after}"),
            2,
        )
    })
}

/// The daemon's state behind `m`, even when a request panicked holding it: each change made
/// under these locks is one insert or remove, whole before anything can panic, and one
/// request's failure must not fail the others.
pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn reply(stream: &mut UnixStream, answer: &Reply) -> io::Result<()> {
    let mut text = serde_json::to_string(answer)?;
    text.push('\n');
    stream.write_all(text.as_bytes())
}

fn bad(message: impl Into<String>) -> Reply {
    Reply::error(message, 2)
}

message_error!(
    /// Why a request is refused before it reaches a session: not a request, or a screen
    /// larger than the daemon keeps.
    pub(crate) BadRequest
);

/// A request line read as a [`Request`]; what is wrong with it otherwise, escaped (serde's
/// messages quote what the client sent).
fn parse_request(line: &[u8]) -> Result<Request, BadRequest> {
    let value: serde_json::Value =
        serde_json::from_slice(line).map_err(|e| format!("the request is not JSON: {e}"))?;
    if value.get("op").is_none() {
        return Err("the request has no \"op\"".into());
    }
    serde_json::from_value(value).map_err(|e| {
        message!(
            "the request is not one the daemon knows: {} (the requests are in docs/agents.md, \
             and `tuicast schema session-request` prints their schema)",
            escape_for_terminal(&e.to_string(), 300)
        )
    })
}

/// Whether a screen of `size` for session `id` (`None`: a new one) fits the limits: at most
/// [`MAX_SESSION_CELLS`] cells, and with the other sessions' screens at most
/// [`MAX_TOTAL_SESSION_CELLS`] (an idle 4000x1000 session held ~570 MB).
fn screen_fits(
    taken: &BTreeMap<String, u64>,
    id: Option<&str>,
    size: Size,
) -> Result<(), BadRequest> {
    let cells = size.cells();
    if cells > MAX_SESSION_CELLS {
        return Err(message!(
            "size {size} is {cells} cells, more than the {MAX_SESSION_CELLS} a session's screen \
             may have"
        ));
    }
    let others: u64 = taken
        .iter()
        .filter(|(k, _)| Some(k.as_str()) != id)
        .map(|(_, c)| c)
        .sum();
    if others + cells > MAX_TOTAL_SESSION_CELLS {
        return Err(message!(
            "a {size} screen would make the sessions' screens {} cells in all, more than the \
             {MAX_TOTAL_SESSION_CELLS} one daemon holds: stop a session or use a smaller size",
            others + cells
        ));
    }
    Ok(())
}

/// Answers one request.
fn request(d: &Daemon, req: &Request) -> Reply {
    let (id, job) = match req {
        Request::Start { .. } => return start(d, req),
        Request::List => {
            let sessions = lock(&d.sessions)
                .iter()
                .map(|(id, h)| {
                    let b = lock(&h.brief).clone();
                    Listed {
                        id: id.clone(),
                        name: b.name.clone(),
                        command: Some(b.command.clone()),
                        state: Some(b.state),
                    }
                })
                .collect::<Vec<_>>();
            return Reply {
                sessions: Some(sessions),
                ..Reply::default()
            };
        }
        Request::Step { id, .. }
        | Request::Snapshot { id, .. }
        | Request::Inspect { id }
        | Request::Status { id }
        | Request::Stop { id, .. } => (id.clone(), req),
        Request::Events { .. } | Request::Attach { .. } => {
            return bad("events and attach are served as streams")
        }
        // (A request kind this daemon does not serve.)
        #[allow(unreachable_patterns)]
        _ => return bad("the daemon does not serve this request"),
    };
    if let Request::Stop {
        save: Some(save),
        force,
        ..
    } = job
    {
        if let Some(e) = super::worker::refused_save(save, *force) {
            return bad(e);
        }
    }
    // The session's channel, and the regions its steps may name.
    let (tx, regions, regexes, hub) = {
        let mut sessions = lock(&d.sessions);
        let found = match sessions.get(&id) {
            Some(h) => (
                h.tx.clone(),
                Arc::clone(&h.regions),
                h.regexes.clone(),
                Arc::clone(&h.hub),
            ),
            None => return no_session(&id),
        };
        if matches!(job, Request::Stop { .. }) && found.3.held() {
            return held(&id);
        }
        if matches!(job, Request::Stop { .. }) {
            sessions.remove(&id);
            lock(&d.taken).remove(&id);
        }
        found
    };
    let job = match job {
        Request::Step { step: text, .. } => {
            let step = match regexes.enter(|| parse_step(Path::new("step"), text, &regions)) {
                Ok(step) => step,
                Err(e) => return bad(e.to_string()),
            };
            if step.action.is_input() && hub.held() {
                return held(&id);
            }
            // A resize is held to the screen limits before it is made.
            if let crate::record::Action::Resize(size) = step.action {
                let mut taken = lock(&d.taken);
                if let Err(e) = screen_fits(&taken, Some(&id), size) {
                    return bad(e);
                }
                taken.insert(id.clone(), size.cells());
            }
            Job::Step(Box::new(step))
        }
        Request::Snapshot {
            mark,
            format,
            output,
            ..
        } => Job::Snapshot {
            mark: mark.clone().filter(|m| !m.is_empty()),
            format: format.clone().unwrap_or_else(|| "text".into()),
            output: output.clone(),
        },
        Request::Inspect { .. } => Job::Inspect,
        Request::Status { .. } => Job::Status,
        Request::Stop { save, force, .. } => Job::Stop {
            save: save.clone(),
            force: *force,
        },
        _ => return bad("the daemon does not serve this request"),
    };
    ask(&tx, job, &id)
}

/// The reply to an agent's input (or `stop`) while a person holds the session.
fn held(id: &str) -> Reply {
    Reply {
        id: Some(id.to_string()),
        ..Reply::error(
            format!(
                "session \"{}\" is held by a person via attach: its input is theirs until they \
                 give it back (waits, snapshot, inspect and status still work; `tuicast session \
                 events` says when it is given back with a \"hold\" event)",
                escape_for_terminal(id, 60)
            ),
            1,
        )
    }
}

/// Sends `job` to a session's thread and waits for its reply.
fn ask(tx: &mpsc::Sender<worker::Envelope>, job: Job, id: &str) -> Reply {
    let ended = || Reply {
        id: Some(id.to_string()),
        ..Reply::error("the session's thread has ended", 1)
    };
    let (rtx, rrx) = mpsc::channel();
    if tx.send((job, rtx)).is_err() {
        return ended();
    }
    rrx.recv().unwrap_or_else(|_| ended())
}

fn start(d: &Daemon, req: &Request) -> Reply {
    let Request::Start {
        argv,
        cwd,
        name,
        size,
        timeout,
        umask,
        max_cast,
    } = req
    else {
        return bad("not a start request");
    };
    if argv.is_empty() {
        return bad("start needs a command (tuicast session start -- CMD ...)");
    }
    let (argv, cwd) = (argv.clone(), cwd.clone());
    let size = match size {
        Some(s) => match s.parse::<Size>().and_then(Size::for_terminal) {
            Ok(size) => size,
            Err(e) => return bad(format!("size: {e}")),
        },
        None => Size { cols: 80, rows: 24 },
    };
    let timeout = match timeout {
        Some(t) => match parse_duration(t) {
            Ok(t) => Some(t),
            Err(e) => return bad(format!("timeout: {e}")),
        },
        None => None,
    };
    let max_cast = max_cast.unwrap_or(MAX_SESSION_CAST_BYTES);
    if max_cast < MIN_SESSION_CAST_BYTES {
        return bad(format!(
            "max_cast: {max_cast} bytes is less than the {MIN_SESSION_CAST_BYTES} a cast needs"
        ));
    }
    if umask.is_some_and(|m| m > 0o777) {
        return bad("umask: a file mode creation mask is at most 0777 (511)");
    }
    let name = name.clone().filter(|n| !n.is_empty());
    if let Some(n) = &name {
        if n.len() > 64
            || !n
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
            || n.starts_with('.')
        {
            return bad("a session name is 1 to 64 letters, digits, '-', '_' or '.'");
        }
    }
    // A session of this name whose program has exited gives its name up: it is ended (its
    // cast, never saved, removed) before the new one starts under the name.
    let mut replaced: Option<Handle> = None;
    let id = {
        let mut running = lock(&d.sessions);
        let mut sessions = lock(&d.taken);
        let exited = name.as_ref().filter(|n| {
            running
                .get(n.as_str())
                .is_some_and(|h| matches!(lock(&h.brief).state, State::Exited | State::Stopped))
        });
        // (The exited session's place and cells are the new one's.)
        if sessions.len() - usize::from(exited.is_some()) >= MAX_SESSIONS {
            return bad(format!(
                "{MAX_SESSIONS} sessions are running already: stop one first"
            ));
        }
        if let Err(e) = screen_fits(&sessions, exited.map(String::as_str), size) {
            return bad(e);
        }
        if let Some(n) = exited {
            replaced = running.remove(n);
        }
        drop(running);
        let id = match &name {
            Some(n) if sessions.contains_key(n) && replaced.is_none() => {
                return bad(format!(
                    "a session named \"{n}\" is running already (the name is free again once \
                     its program has exited, or after `stop`)"
                ))
            }
            Some(n) => n.clone(),
            None => {
                let mut next = lock(&d.next);
                loop {
                    let id = format!("s{next}");
                    *next += 1;
                    if !sessions.contains_key(&id) {
                        break id;
                    }
                }
            }
        };
        sessions.insert(id.clone(), size.cells());
        id
    };
    if let Some(old) = replaced {
        // Waited for: the old session's cast is the new one's path.
        let _ = ask(
            &old.tx,
            Job::Stop {
                save: None,
                force: false,
            },
            &id,
        );
        (d.log)(&format!("session {id} ended: its name is taken again"));
    }
    let release = || {
        lock(&d.taken).remove(&id);
    };
    let cast = d.paths.cast(&id);
    let shown = argv
        .iter()
        .map(|a| escape_for_terminal(a, 100))
        .collect::<Vec<_>>()
        .join(" ");
    let handle = match worker::spawn(
        Start {
            id: id.clone(),
            name,
            argv,
            cwd,
            size,
            timeout,
            cast,
            umask: *umask,
            max_cast,
        },
        Arc::clone(&d.log),
    ) {
        Ok(h) => h,
        Err(reply) => {
            release();
            return *reply;
        }
    };
    (d.log)(&format!("session {id} started: {shown}"));
    let tx = handle.tx.clone();
    lock(&d.sessions).insert(id.clone(), handle);
    ask(&tx, Job::Status, &id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_that_panics_is_an_error_reply_and_a_log_line() {
        let logged = Mutex::new(Vec::<String>::new());
        let log = |l: &str| lock(&logged).push(l.to_string());
        let reply = caught(&log, "the others go on", || panic!("boom \x1b[2J"));
        assert_eq!(reply.exit, 2);
        let e = reply.error.as_deref().unwrap_or_default();
        assert!(e.contains("failed unexpectedly (boom"), "{e}");
        assert!(e.ends_with("; the others go on"), "{e}");
        assert!(!e.contains('\x1b'), "escaped: {e}");
        assert_eq!(lock(&logged).len(), 1);
        // A poisoned lock is still the state.
        let m = Mutex::new(1);
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _g = m.lock().unwrap();
            panic!("held");
        }));
        assert!(m.is_poisoned());
        assert_eq!(*lock(&m), 1);
        assert_eq!(caught(&log, "", || Reply::error("fine", 1)).exit, 1);
    }
}
