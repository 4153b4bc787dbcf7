//! One session: a thread owning a [`Session`], reading the program's output between commands
//! and running each command as a scenario step ([`run_step`]), journaled for `stop --save`.
//!
//! The worker keeps the `[regions]` of the `tuicast.toml` where the session started, which its
//! mouse steps may name. Every screen a reply, a render or the journal sees is
//! `Session::screen_without_secrets` (a secret the program drew in pieces starred); `stop --save`
//! writes the cast and the scenario (`config::scenario_toml`).
//!
//! Each session's `Session` runs with its client's umask and its `--max-cast`; every error
//! message it sends has the secrets starred. `stop --save` writes `bin =` for the package's own
//! binary and the `[regions]` its steps named (`config::used_regions_toml`).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::events::{Hub, Observed};
use super::protocol::{CursorView, PromptView, Reply, SessionView, State, Status};
use crate::config::{scenario_toml, step_toml, used_regions_toml, Regions};
use crate::escape::escape_for_terminal;
use crate::inspect::{classify, inspect, PromptKind};
use crate::record::journal::Journal;
use crate::record::run::run_step;
use crate::record::{Action, Program, RecordError, Scenario, Session, SessionOptions, Step, Wait};
use crate::term::{Screen, Size};

/// What a client asked of a session.
pub(super) enum Job {
    /// Run one step.
    Step(Box<Step>),
    /// The screen (and a checkpoint when `mark` is given); the render written to `output`
    /// when given (needed for a PNG).
    Snapshot {
        mark: Option<String>,
        format: String,
        output: Option<PathBuf>,
    },
    /// The outline and prompt.
    Inspect,
    /// The status and screen.
    Status,
    /// End the session; with `save`, write `save.cast` and `save.toml` (over files that are
    /// there only with `force`).
    Stop { save: Option<PathBuf>, force: bool },
    /// What the person holding the session typed (`attach --take`): written at once.
    Input(String),
}

/// A request for a worker with where its reply goes.
pub(super) type Envelope = (Job, Sender<Reply>);

/// What `list` shows of a session without asking its thread (which may be in a long wait).
#[derive(Debug, Clone)]
pub(super) struct Brief {
    pub(super) name: Option<String>,
    pub(super) command: String,
    pub(super) state: State,
}

/// A running session as the daemon holds it.
pub(super) struct Handle {
    pub(super) tx: Sender<Envelope>,
    pub(super) brief: Arc<Mutex<Brief>>,
    /// The `[regions]` of the `tuicast.toml` in the folder the session started in: what a
    /// mouse step's `region` target may name.
    pub(super) regions: Arc<crate::config::Regions>,
    /// What the session's regexes may take: its `tuicast.toml`'s and its steps' (held in
    /// its journal) share it, so no session's regexes pass `util::MAX_REGEX_BUDGET`.
    pub(super) regexes: crate::util::RegexBudget,
    /// Its watchers, and who holds its input.
    pub(super) hub: Arc<Hub>,
}

/// How a session is started.
pub(super) struct Start {
    pub(super) id: String,
    pub(super) name: Option<String>,
    pub(super) argv: Vec<String>,
    pub(super) cwd: PathBuf,
    pub(super) size: Size,
    pub(super) timeout: Option<Duration>,
    pub(super) cast: PathBuf,
    /// The client's umask, the program's (`None`: the daemon's starting user's).
    pub(super) umask: Option<u32>,
    /// The most bytes the session's cast may hold.
    pub(super) max_cast: u64,
}

/// Starts the session's program and its thread; the reply to `start` comes on `reply`.
pub(super) fn spawn(
    start: Start,
    log: Arc<dyn Fn(&str) + Send + Sync>,
) -> Result<Handle, Box<Reply>> {
    let mut opts = SessionOptions::new(start.argv.clone());
    opts.cwd = start.cwd.clone();
    opts.size = start.size;
    if let Some(t) = start.timeout {
        opts.timeout = t;
    }
    opts.umask = start.umask;
    opts.max_cast = Some(start.max_cast);
    // The project's regions, read first: a broken tuicast.toml is bad input, named by its
    // line and column, before any program runs.
    let regexes = crate::util::RegexBudget::default();
    let regions = regexes
        .enter(|| crate::config::Config::load(&start.cwd))
        .map(|c| Arc::new(c.regions))
        .map_err(|e| Box::new(Reply::error(e.to_string(), 2)))?;
    let mut session = Session::spawn(opts, &start.cast).map_err(|e| Box::new(failure(&e)))?;
    let hub = Hub::new();
    session.set_observer(Box::new(Observed(Arc::clone(&hub))));
    let brief = Arc::new(Mutex::new(Brief {
        name: start.name.clone(),
        command: start
            .argv
            .iter()
            .map(|a| escape_for_terminal(a, 200))
            .collect::<Vec<_>>()
            .join(" "),
        state: State::Running,
    }));
    let (tx, rx) = mpsc::channel::<Envelope>();
    let shared = Arc::clone(&brief);
    std::thread::Builder::new()
        .name(format!("tuicast-session-{}", start.id))
        .spawn({
            let regions = Arc::clone(&regions);
            let hub = Arc::clone(&hub);
            move || Worker::new(start, regions, session, shared, log, hub).run(rx)
        })
        .map_err(|e| {
            Box::new(Reply::error(
                format!("cannot start a session thread: {e}"),
                2,
            ))
        })?;
    Ok(Handle {
        tx,
        brief,
        regions,
        regexes,
        hub,
    })
}

/// The thread's state.
struct Worker {
    start: Start,
    /// The `[regions]` where the session started: a saved scenario carries those it used.
    regions: Arc<Regions>,
    session: Option<Session>,
    journal: Journal,
    /// Why the session cannot go on (a secret reached the screen, the output failed).
    broken: Option<String>,
    brief: Arc<Mutex<Brief>>,
    /// When `brief` was last brought up to date.
    briefed: std::time::Instant,
    /// The last screens replies showed, by their `screen_hash` (at most [`SHOWN_KEPT`]):
    /// `wait --changed HASH` says which cells changed since the screen of HASH.
    shown: std::cell::RefCell<std::collections::VecDeque<(String, Screen)>>,
    log: Arc<dyn Fn(&str) + Send + Sync>,
    /// The session's watchers: told when it ends.
    hub: Arc<Hub>,
    /// What the person holding the session has typed since their last pause, with the
    /// screen before it: journaled as one step when anything else comes.
    typed: Option<(Screen, String)>,
}

/// How often `list`'s view of a busy session is brought up to date.
const BRIEF_EVERY: Duration = Duration::from_millis(100);

/// How long the thread reads output before it looks for a command again.
const SLICE: Duration = Duration::from_millis(2);

impl Worker {
    fn new(
        start: Start,
        regions: Arc<Regions>,
        session: Session,
        brief: Arc<Mutex<Brief>>,
        log: Arc<dyn Fn(&str) + Send + Sync>,
        hub: Arc<Hub>,
    ) -> Worker {
        let mut journal = Journal::new(false);
        journal.started(&session.screen());
        Worker {
            start,
            regions,
            session: Some(session),
            journal,
            broken: None,
            brief,
            briefed: std::time::Instant::now(),
            shown: Default::default(),
            log,
            hub,
            typed: None,
        }
    }

    fn run(mut self, rx: Receiver<Envelope>) {
        loop {
            // A command first, whenever one is waiting; otherwise read the program's output
            // (while it runs) or wait for a command.
            let live = self.broken.is_none() && self.session.as_ref().is_some_and(|s| !s.is_done());
            let next = match rx.try_recv() {
                Ok(envelope) => Some(envelope),
                Err(TryRecvError::Disconnected) => return self.end(),
                Err(TryRecvError::Empty) if live => {
                    let s = self.session.as_mut().expect("a live session");
                    match s.poll(SLICE) {
                        Err(e) => self.break_with(&e),
                        // What `list` shows, at most every 100 ms: classifying a screen costs.
                        Ok(true) if self.briefed.elapsed() >= BRIEF_EVERY => self.update_brief(),
                        Ok(_) => {}
                    }
                    None
                }
                Err(TryRecvError::Empty) => match rx.recv_timeout(Duration::from_millis(200)) {
                    Ok(envelope) => Some(envelope),
                    Err(RecvTimeoutError::Timeout) => {
                        // The program may have ended since the last look: `list` says so.
                        self.update_brief();
                        None
                    }
                    Err(RecvTimeoutError::Disconnected) => return self.end(),
                },
            };
            if let Some((job, reply)) = next {
                if self.serve(job, reply) {
                    return;
                }
            }
            self.tell_end();
        }
    }

    /// Tells the watchers once the program has exited (and its output ended) or the session
    /// has failed.
    fn tell_end(&self) {
        if self.hub.ended() {
            return;
        }
        let Some(s) = &self.session else { return };
        if self.broken.is_none() && !s.is_done() {
            return;
        }
        let state = if self.broken.is_some() {
            State::Failed
        } else {
            State::Exited
        };
        self.hub.end(super::events::status(
            state,
            s.status(),
            self.broken.clone(),
        ));
    }

    /// Journals what the person holding the session typed since their last pause.
    fn journal_typed(&mut self) {
        let (Some((before, text)), Some(s)) = (self.typed.take(), &self.session) else {
            return;
        };
        let after = s.screen_without_secrets();
        for piece in crate::record::keys::split_typed(&text) {
            let action = match piece {
                crate::record::keys::Typed::Text(t) => Action::Type(t),
                crate::record::keys::Typed::Key(k) => Action::Press(vec![k]),
            };
            self.journal.record(Step::new(action), &before, &after);
        }
    }

    /// Runs one command and sends its answer; the reply's state is what `list` shows from
    /// now on. Whether the session is over (`stop`).
    fn serve(&mut self, job: Job, reply: Sender<Reply>) -> bool {
        let stop = matches!(job, Job::Stop { .. });
        if let Job::Input(text) = job {
            self.input(&text);
            return false;
        }
        self.journal_typed();
        // A command that panics fails alone: the session, its program and its cast go on.
        let log = Arc::clone(&self.log);
        let answer = super::server::caught(&*log, "the session goes on", || self.handle(job));
        if let Some(view) = &answer.session {
            super::server::lock(&self.brief).state = view.status.state;
        }
        let _ = reply.send(answer);
        stop
    }

    /// Types what the person holding the session typed, at once; a failure breaks the
    /// session as a failed step does.
    fn input(&mut self, text: &str) {
        if self.broken.is_some() {
            return;
        }
        let Some(s) = self.session.as_mut() else {
            return;
        };
        if s.status().is_some() {
            return;
        }
        let before = s.screen_without_secrets();
        if let Err(e) = s.send_typed(text) {
            self.break_with(&e);
            return;
        }
        let (_, typed) = self.typed.get_or_insert_with(|| (before, String::new()));
        typed.push_str(text);
    }

    /// The daemon is ending: the program with it, and its cast.
    fn end(&mut self) {
        if let Some(s) = self.session.take() {
            let code = s.finish().ok().map(|f| f.status);
            self.hub
                .end(super::events::status(State::Stopped, code, None));
        }
        let _ = std::fs::remove_file(&self.start.cast);
    }

    fn break_with(&mut self, e: &RecordError) {
        let message = self.starred(e.to_string());
        (self.log)(&format!(
            "session {}: {}",
            self.start.id,
            escape_for_terminal(&message, 300)
        ));
        self.broken = Some(message);
    }

    fn update_brief(&mut self) {
        self.briefed = std::time::Instant::now();
        let state = self.state();
        super::server::lock(&self.brief).state = state;
    }

    /// `running`, `waiting` (for input: the screen shows a prompt, `inspect::prompt`),
    /// `exited` or `failed`.
    fn state(&self) -> State {
        let prompt = self.session.as_ref().map(|s| {
            let screen = s.screen();
            classify(&screen, &screen.outline(), s.modes()).kind
        });
        self.state_with(prompt)
    }

    /// [`Worker::state`] with the prompt's kind already found.
    fn state_with(&self, prompt: Option<PromptKind>) -> State {
        match (&self.broken, &self.session) {
            (Some(_), _) => State::Failed,
            (None, Some(s)) if s.status().is_some() => State::Exited,
            (None, Some(_)) if prompt.is_some_and(|k| k != PromptKind::Unknown) => State::Waiting,
            (None, Some(_)) => State::Running,
            (None, None) => State::Stopped,
        }
    }

    /// The fields every reply has: the session, its status, screen, prompt, idle time.
    fn view(&self) -> Reply {
        let mut reply = Reply {
            id: Some(self.start.id.clone()),
            ..Reply::default()
        };
        let Some(s) = &self.session else {
            return reply;
        };
        let screen = s.screen_without_secrets();
        let outline = screen.outline();
        let prompt = classify(&screen, &outline, s.modes());
        let code = s.status();
        let signal = code
            .filter(|c| (129..=192).contains(c))
            .and_then(|c| nix::sys::signal::Signal::try_from(c - 128).ok())
            .map(|sig| sig.as_str().to_string());
        reply.session = Some(SessionView {
            name: self.start.name.clone(),
            pid: s.pid(),
            status: Status {
                state: self.state_with(Some(prompt.kind)),
                code,
                signal,
                error: self.broken.clone(),
            },
            size: s.size().to_string(),
            // A secret the program drew in pieces is on the live screen: never in a reply.
            screen: screen_text(&screen),
            cursor: CursorView {
                row: screen.cursor.place().row,
                col: screen.cursor.place().col,
                visible: screen.cursor.visible,
            },
            prompt: PromptView {
                kind: prompt.kind.name().to_string(),
                confidence: prompt.rounded_confidence(),
                evidence: prompt.evidence,
                default: prompt.default,
                options: prompt.options,
            },
            echo: s.echo(),
            idle_ms: s.since_output().as_millis() as u64,
            screen_hash: self.remember(&screen),
        });
        reply
    }

    /// The hash of `screen`, shown in a reply: kept with it for `wait --changed`.
    fn remember(&self, screen: &Screen) -> String {
        let hash = screen.hash_hex();
        let mut shown = self.shown.borrow_mut();
        if !shown.iter().any(|(h, _)| *h == hash) {
            if shown.len() >= SHOWN_KEPT {
                shown.pop_front();
            }
            shown.push_back((hash.clone(), screen.clone()));
        }
        hash
    }

    /// A screen a reply showed, by its hash.
    fn shown_screen(&self, hash: &str) -> Option<Screen> {
        let shown = self.shown.borrow();
        shown
            .iter()
            .find(|(h, _)| h == hash)
            .map(|(_, s)| s.clone())
    }

    /// [`Worker::view`] with an error and an exit status.
    fn failed(&self, error: impl Into<String>, exit: u8) -> Reply {
        let message = error.into();
        let failure =
            crate::location::FailureJson::new(super::protocol::kind_of_exit(exit), &message);
        self.failed_as(failure, exit)
    }

    /// [`Worker::view`] with a failure as data (its message starred, the screen of the
    /// reply as its screen) and an exit status.
    fn failed_as(&self, mut failure: crate::location::FailureJson, exit: u8) -> Reply {
        let view = self.view();
        // Every field that may quote what was typed or looked for, starred (the screen is
        // the reply's, already without secrets).
        failure.message = self.starred(failure.message);
        failure.step = failure.step.map(|s| self.starred(s));
        failure.fix = failure.fix.map(|s| self.starred(s));
        failure.screen = failure
            .screen
            .map(|rows| rows.into_iter().map(|r| self.starred(r)).collect());
        if let Some(v) = &view.session {
            failure = failure.screen(v.screen.lines());
        }
        Reply {
            error: Some(failure.message.clone()),
            failure: Some(Box::new(failure)),
            exit,
            ..view
        }
    }

    /// A message with every secret typed so far (and each form of it the redactor knows)
    /// starred: a wait's report quotes the screen, a step quotes what it looked for.
    fn starred(&self, message: String) -> String {
        match &self.session {
            Some(s) => s.scrub_secrets(&message),
            None => message,
        }
    }

    fn handle(&mut self, job: Job) -> Reply {
        if let Job::Stop { save, force } = job {
            return self.stop(save.as_deref(), force);
        }
        if let Some(why) = &self.broken {
            return self.failed(format!("the session failed: {why}"), 1);
        }
        match job {
            Job::Step(step) => self.step(*step),
            Job::Snapshot {
                mark,
                format,
                output,
            } => {
                if let Some(name) = mark {
                    let marked = self.step(Step::new(Action::Snapshot(name)));
                    if marked.exit != 0 {
                        return marked;
                    }
                }
                self.snapshot(&format, output.as_deref())
            }
            Job::Inspect => {
                let mut v = self.view();
                if let Some(s) = &self.session {
                    let screen = s.screen_without_secrets();
                    let cx = crate::inspect::RefContext::new(self.regions.adapters())
                        .regions(&self.regions.anchors)
                        .program(s.program_name())
                        .modes(s.modes());
                    let found = match inspect(&screen, &cx) {
                        Ok(found) => found,
                        Err(e) => return self.failed(e.to_string(), 2),
                    };
                    v.inspect = Some(Box::new(crate::inspect::InspectionJson::of(&found)));
                }
                v
            }
            Job::Status => self.view(),
            Job::Stop { .. } | Job::Input(_) => unreachable!("handled above"),
        }
    }

    fn step(&mut self, step: Step) -> Reply {
        let Some(s) = self.session.as_mut() else {
            return Reply::error("the session has ended", 2);
        };
        let secret = match &step.action {
            Action::Secret(var) if !super::secret_allowed(var) => {
                return self.failed(
                    format!(
                        "{} is not a variable the session daemon may type as a secret: only \
                         those named {}* or listed in {} (comma-separated) in the daemon's \
                         environment are (see docs/agents.md, \"Secrets\")",
                        escape_for_terminal(var, 60),
                        super::SECRET_PREFIX,
                        super::SECRETS_ALLOWED
                    ),
                    2,
                );
            }
            Action::Secret(var) => match std::env::var(var) {
                Ok(v) => Some(v),
                Err(_) => {
                    return self.failed(
                        format!(
                            "{} is not set in the session daemon's environment: start the \
                             daemon with it (see docs/agents.md, \"Secrets\")",
                            escape_for_terminal(var, 60)
                        ),
                        2,
                    );
                }
            },
            _ => None,
        };
        // (Screens the journal infers waits from: a secret on them must not become a wait.)
        let before = s.screen_without_secrets();
        let mut result = run_step(&step, secret.as_deref(), s);
        // After input, the reply shows the program's answer to it: the screen once settled,
        // for at most REPLY_SETTLE (a program that never stops drawing is answered then).
        if result.is_ok() && step.action.is_input() {
            result = s.settle_for_reply(REPLY_SETTLE);
        }
        let after = s.screen_without_secrets();
        match result {
            Ok(settled) => {
                // `changed`: the cells that changed since the screen of the hash, when a
                // reply showed it.
                let since = match &step.action {
                    Action::Wait(Wait::Changed(h)) => self.shown_screen(h),
                    _ => None,
                };
                let s = self.session.as_ref().expect("a session");
                let from = since.as_ref().unwrap_or(&before);
                let matched = super::matched::matched(&step.action, s, from, &after);
                let (shown, text_length) = shown_step(&step);
                // (A `changed` wait is saved as the wait inferred from that screen.)
                self.journal.record(step, from, &after);
                Reply {
                    step: Some(shown),
                    text_length,
                    settled_ms: settled.map(|d| d.as_millis() as u64),
                    matched: matched.map(Box::new),
                    ..self.view()
                }
            }
            Err(e) => {
                let code = if e.is_check_failure() { 1 } else { 2 };
                // The session cannot go on: its cast is gone, or full, or cannot be written.
                if matches!(
                    e,
                    RecordError::SecretOnScreen(_)
                        | RecordError::SplitPattern(_)
                        | RecordError::CastTooLarge(_)
                        | RecordError::Io(_)
                ) {
                    self.break_with(&e);
                }
                let (shown, _) = shown_step(&step);
                self.failed_as(e.failure().step(shown), code)
            }
        }
    }

    fn snapshot(&mut self, format: &str, output: Option<&Path>) -> Reply {
        // The screen a golden sees (`session check`): settled first, as `assert_screen!`
        // takes a live session's, so that a frame drawn in several writes is never caught
        // half-drawn; the reply's screen is that one.
        if format == "screen" {
            let settled = self.session.as_mut().map(|s| {
                let settle = s.settle();
                s.wait_settled(settle)
                    .map(|_| Box::new(s.screen_without_secrets()))
            });
            let mut v = self.view();
            match settled {
                Some(Ok(model)) => v.model = Some(model),
                Some(Err(e)) => return self.failed(e.to_string(), 1),
                None => v.exit = 2,
            }
            return v;
        }
        let mut v = self.view();
        let Some(s) = &self.session else {
            v.exit = 2;
            return v;
        };
        let screen = s.screen_without_secrets();
        let write = |path: &Path, bytes: &[u8]| {
            crate::util::write_output(path, bytes)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        match format {
            "text" => {
                if let Some(path) = output {
                    let mut text = screen_text(&screen);
                    text.push('\n');
                    if let Err(e) = write(path, text.as_bytes()) {
                        return self.failed(e, 2);
                    }
                    v.output = Some(path.to_path_buf());
                }
            }
            "json" => {
                let json = crate::render::ScreenJson::of(&screen);
                if let Some(path) = output {
                    let value = serde_json::to_value(&json).unwrap_or_default();
                    if let Err(e) = write(path, crate::render::json_lines(&value).as_bytes()) {
                        return self.failed(e, 2);
                    }
                    v.output = Some(path.to_path_buf());
                }
                v.render = Some(Box::new(json));
            }
            #[cfg(feature = "png")]
            "png" => {
                let Some(path) = output else {
                    return self.failed("--format png needs --output FILE.png", 2);
                };
                let drawn = crate::render::png::render_png(
                    &screen,
                    // As `tuicast screenshot` draws: a character the bundled font lacks from
                    // the system's fonts.
                    &crate::render::png::PngOptions::default().system_fonts(true),
                    &crate::render::png::Decorations::default(),
                );
                match drawn
                    .map_err(|e| format!("cannot draw the screen: {e}"))
                    .and_then(|bytes| write(path, &bytes))
                {
                    Ok(()) => {
                        v.png = Some(path.to_path_buf());
                        v.output = Some(path.to_path_buf());
                    }
                    Err(e) => return self.failed(e, 2),
                }
            }
            other => {
                return self.failed(
                    format!(
                        "unknown format \"{}\": use text, json or png",
                        escape_for_terminal(other, 40)
                    ),
                    2,
                );
            }
        }
        v
    }

    fn stop(&mut self, save: Option<&Path>, force: bool) -> Reply {
        if self.session.is_none() {
            return Reply::error("the session has ended", 2);
        }
        // The daemon refuses before the session ends (`refused_save`); a file made since
        // is still not written over.
        if let Some(e) = save.and_then(|s| refused_save(s, force)) {
            return self.failed(e, 2);
        }
        let mut v = self.view();
        let session = self.session.take().expect("a session");
        let exited_by_itself = session.status();
        let last = session.screen();
        let finished = session.finish();
        let cast = self.start.cast.clone();
        let finished = match finished {
            Ok(f) => f,
            Err(e) => {
                let _ = std::fs::remove_file(&cast);
                let error = self.starred(format!("the recording failed: {e}"));
                self.hub
                    .end(super::events::status(State::Failed, None, Some(error)));
                v.error = Some(format!("the recording failed: {e}"));
                v.exit = 1;
                return v;
            }
        };
        (self.log)(&format!(
            "session {} stopped (status {})",
            self.start.id, finished.status
        ));
        v.stopped = Some(true);
        // The program's status, now that it has ended (by itself, or by the stop).
        if let Some(view) = &mut v.session {
            view.status.state = State::Stopped;
            view.status.code = Some(finished.status);
        }
        self.hub.end(super::events::status(
            State::Stopped,
            Some(finished.status),
            None,
        ));
        let Some(save) = save else {
            let _ = std::fs::remove_file(&cast);
            return v;
        };
        let fail = |mut v: Reply, error: String, exit: u8| {
            let _ = std::fs::remove_file(&cast);
            v.error = Some(error);
            v.exit = exit;
            v
        };
        if self.broken.is_some() {
            return fail(v, "the session failed: nothing to save".into(), 1);
        }
        if self.journal.is_full() {
            let error = format!(
                "the session ran more than {} steps: its scenario would be cut short, so \
                 nothing was saved",
                crate::record::journal::MAX_STEPS
            );
            return fail(v, error, 2);
        }
        let journal = std::mem::take(&mut self.journal);
        let steps = journal.finish(&last, exited_by_itself);
        let program = saved_program(&self.start.argv, &self.start.cwd, &save_dir(save));
        let mut scenario = Scenario::new(program, &self.start.cwd);
        scenario.size = Some(self.start.size);
        scenario.timeout = self.start.timeout;
        scenario.steps = steps;
        let regions = used_regions_toml(&scenario.steps, &self.regions);
        match save_files(save, &scenario, &regions, &cast) {
            Ok((cast_to, toml_to)) => Reply {
                cast: Some(cast_to),
                scenario: Some(toml_to),
                steps: Some(scenario.steps.len()),
                ..v
            },
            Err(e) => {
                v.error = Some(e.into());
                v.exit = 2;
                v
            }
        }
    }
}

/// A step as a reply shows it, and for `type` and `paste` the length of their text in
/// characters: their text is never echoed back (a pasted megabyte, a password typed as
/// plain text), only its length (`{ type = (11 characters) }`); any other step whole up to
/// [`STEP_SHOWN`] characters, else cut there with how long it was.
fn shown_step(step: &Step) -> (String, Option<usize>) {
    let text = match &step.action {
        Action::Type(t) => Some(("type", t)),
        Action::Paste(t) => Some(("paste", t)),
        _ => None,
    };
    if let Some((kind, text)) = text {
        let n = text.chars().count();
        let mut brief = Step::new(Action::Type(String::new()));
        brief.timeout = step.timeout;
        brief.settle = step.settle;
        // The step's other keys (a timeout) as written, the text replaced by its length.
        let rest = step_toml(&brief);
        let rest = rest
            .strip_prefix("{ type = \"\"")
            .unwrap_or(" }")
            .to_string();
        let unit = if n == 1 { "character" } else { "characters" };
        return (format!("{{ {kind} = ({n} {unit}){rest}"), Some(n));
    }
    let step = step_toml(step);
    let n = step.chars().count();
    if n <= STEP_SHOWN {
        return (step, None);
    }
    let head: String = step.chars().take(STEP_SHOWN).collect();
    (format!("{head}… ({n} characters)"), None)
}

/// How many screens shown in replies are kept by their hash.
const SHOWN_KEPT: usize = 16;

/// See [`shown_step`].
const STEP_SHOWN: usize = 200;

/// How long the reply to an input step waits for the program's answer to settle.
const REPLY_SETTLE: Duration = Duration::from_millis(500);

/// The screen's rows as text, trailing blanks removed, joined by newlines.
fn screen_text(screen: &Screen) -> String {
    let rows: Vec<String> = (0..screen.rows.len())
        .map(|r| screen.row_text(r).trim_end().to_string())
        .collect();
    let used = rows
        .iter()
        .rposition(|r| !r.is_empty())
        .map_or(0, |i| i + 1);
    rows[..used].join("\n")
}

message_error!(
    /// Why a session's scenario and cast could not be saved where `--save` names.
    pub(crate) SaveError
);

/// The folder `stop --save` writes into.
fn save_dir(save: &Path) -> PathBuf {
    with_suffix(save, "toml")
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// The program of a saved session's scenario in `dir`: `bin = "NAME"` when the session ran the
/// development build of a `[[bin]]` of the package holding `dir` (`./target/debug/NAME`, by
/// a path from the session's folder `cwd`), so that recording it again builds today's code;
/// else the argv (a relative program path written relative to the scenario by
/// [`scenario_toml`]).
fn saved_program(argv: &[String], cwd: &Path, dir: &Path) -> Program {
    let named_by_path = argv.first().filter(|p| p.contains('/'));
    if let Some(path) = named_by_path {
        if let Some(name) = crate::record::cargo_bin::package_binary(&cwd.join(path), dir) {
            return Program::Bin {
                name,
                args: argv[1..].to_vec(),
                from: dir.to_path_buf(),
            };
        }
    }
    Program::Argv(argv.to_vec())
}

/// Writes `save.cast` (the session's cast, moved) and `save.toml` (the scenario, then the
/// `[regions]` table `regions` when not empty).
fn save_files(
    save: &Path,
    scenario: &Scenario,
    regions: &str,
    cast: &Path,
) -> Result<(PathBuf, PathBuf), SaveError> {
    let cast_to = with_suffix(save, "cast");
    let toml_to = with_suffix(save, "toml");
    let dir = save_dir(save);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut text = scenario_toml(
        scenario,
        &dir,
        "Written by `tuicast session stop --save`: the steps of the session, with the waits\n\
         it used and (where it used none) the waits inferred from the screen.\n\
         Record it again with `tuicast record` on this file.",
    );
    text.push_str(regions);
    crate::util::write_atomic(&toml_to, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", toml_to.display()))?;
    if std::fs::rename(cast, &cast_to).is_err() {
        std::fs::copy(cast, &cast_to)
            .map_err(|e| format!("cannot write {}: {e}", cast_to.display()))?;
        let _ = std::fs::remove_file(cast);
    }
    Ok((cast_to, toml_to))
}

/// Why `stop --save` may not write at `save`: a file it would write is there already (a
/// link too) and `force` was not given. Checked before a session ends, so that it can be
/// saved elsewhere.
pub(crate) fn refused_save(save: &Path, force: bool) -> Option<String> {
    // `--save casts/` (or `casts/.x`) would write the hidden `casts/.cast` and `casts/.toml`:
    // a folder is no name, whatever `--force` says.
    let shown = || crate::escape::escape_for_terminal(&save.display().to_string(), 300);
    let named = save
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| !n.starts_with('.'));
    let folder = save.as_os_str().as_encoded_bytes().ends_with(b"/") || save.is_dir();
    if folder || !named {
        return Some(format!(
            "{}: `stop --save` takes the name of the files to write (casts/NAME writes \
             casts/NAME.cast and casts/NAME.toml), not {} (the session goes on)",
            shown(),
            if folder { "a folder" } else { "a hidden name" }
        ));
    }
    if force {
        return None;
    }
    let taken = ["toml", "cast"]
        .into_iter()
        .map(|ext| with_suffix(save, ext))
        .find(|p| p.symlink_metadata().is_ok())?;
    Some(format!(
        "{} exists already: `stop --save` writes over a file only with --force (the session \
         goes on; save it elsewhere or add --force)",
        crate::escape::escape_for_terminal(&taken.display().to_string(), 300)
    ))
}

/// `casts/NAME` → `casts/NAME.cast` (a given `.cast` or `.toml` is replaced).
fn with_suffix(save: &Path, ext: &str) -> PathBuf {
    match save.extension().and_then(|e| e.to_str()) {
        Some("cast" | "toml") => save.with_extension(ext),
        _ => {
            let mut s = save.as_os_str().to_owned();
            s.push(format!(".{ext}"));
            PathBuf::from(s)
        }
    }
}

/// A failed start as a reply.
fn failure(e: &RecordError) -> Reply {
    Reply {
        failure: Some(Box::new(e.failure())),
        ..Reply::error(e.to_string(), if e.is_check_failure() { 1 } else { 2 })
    }
}
