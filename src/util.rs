//! Small file and process helpers shared by the stages (a leaf: it uses only the leaves
//! before it).
//!
//! - Regular files only: [`open_regular`] and [`read_regular`] (with a size limit) refuse
//!   devices, FIFOs, sockets and folders; [`read_regular_nofollow`] (goldens, `.new` files,
//!   report files) refuses a symbolic link too.
//! - Atomic writes: [`write_atomic`] and [`write_atomic_with`] write a temporary file beside
//!   the target and rename it over; the fill may fail with its own error type. Only a regular
//!   file is replaced: a device, FIFO or link there is refused. An output a person names
//!   (`-o FILE`) goes through [`write_output`], which writes through a device or a FIFO
//!   ([`output_target`]).
//! - Private folders of this user ([`private_dir`]: mode 0700, owned by this user, not a link)
//!   and pid files that name a process by its start time too ([`pid_file_text`],
//!   [`pid_file_alive`]), so a pid reused by another process is not taken for the old one.
//! - [`PidLock`]: the one lock file of tuicast (the daemon's pid file, a live recording's
//!   lock), with one rule for when a holder is gone ([`PidLock::is_stale`]).
//! - [`par_map_ordered`]: a map on every core whose results are handed over in order
//!   (discovery, `tuicast test`).
//! - [`user_regex`]: the one place a regex from a user's file or command is compiled, within
//!   a size per regex ([`MAX_REGEX_BYTES`]) and a [`RegexBudget`] they share (the process's,
//!   or a session's while [`RegexBudget::enter`] holds it); `LazyRegex`: one checked for
//!   syntax when its file is read and compiled (and counted) on its first use only.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The most memory one regex's compiled automaton (its forward Thompson NFA) may take:
/// 1 MiB, about `\w{60}` (Unicode word characters). The regex crate holds four to five times
/// that in all (a reverse NFA, its caches); its own default limit is ten times larger
/// (`\w{170}` in 10 bytes took 14 MB).
pub const MAX_REGEX_BYTES: usize = 1 << 20;

/// The memory the compiled regexes of one process (one project) or one session may take in
/// all, counted as [`MAX_REGEX_BYTES`] counts one: 64 MiB, about 11 000 regexes like
/// `\d\d:\d\d` (5.7 KB each) and at most about 320 MB held.
pub const MAX_REGEX_BUDGET: usize = 64 << 20;

message_error!(
    /// Why a user's regex is not compiled.
    RegexError, RegexErrorKind {
        /// Not a valid regex, or empty.
        Invalid,
        /// Its automaton is larger than [`MAX_REGEX_BYTES`].
        TooLarge,
        /// It would take the regexes past their [`RegexBudget`].
        Budget,
    }
);

/// What the compiled regexes of a project or a session may still take ([`MAX_REGEX_BUDGET`]
/// at first). Shared: clones count against one budget. Compiled regexes are never given
/// back (they are held as long as the project or session is).
#[derive(Debug, Clone)]
pub struct RegexBudget {
    left: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Default for RegexBudget {
    fn default() -> RegexBudget {
        RegexBudget::new(MAX_REGEX_BUDGET)
    }
}

thread_local! {
    /// The budget [`user_regex`] charges on this thread, while [`RegexBudget::enter`] runs.
    static ENTERED: std::cell::RefCell<Option<RegexBudget>> = const { std::cell::RefCell::new(None) };
}

impl RegexBudget {
    /// A budget of `bytes`.
    pub fn new(bytes: usize) -> RegexBudget {
        RegexBudget {
            left: std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(bytes)),
        }
    }

    /// What is left of it.
    pub fn left(&self) -> usize {
        self.left.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Runs `f` with this budget charged by every [`user_regex`] it calls on this thread
    /// (a session's config and steps): the process's budget otherwise.
    pub fn enter<T>(&self, f: impl FnOnce() -> T) -> T {
        let before = ENTERED.with(|e| e.replace(Some(self.clone())));
        struct Restore(Option<RegexBudget>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let before = self.0.take();
                ENTERED.with(|e| *e.borrow_mut() = before);
            }
        }
        let _restore = Restore(before);
        f()
    }

    /// Takes `bytes` from the budget, or says it has not that much left.
    fn take(&self, bytes: usize) -> bool {
        use std::sync::atomic::Ordering;
        self.left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
                left.checked_sub(bytes)
            })
            .is_ok()
    }

    /// The budget of this thread: the entered one, else the process's.
    fn current() -> RegexBudget {
        static PROCESS: std::sync::OnceLock<RegexBudget> = std::sync::OnceLock::new();
        ENTERED
            .with(|e| e.borrow().clone())
            .unwrap_or_else(|| PROCESS.get_or_init(RegexBudget::default).clone())
    }
}

/// Compiles `pattern`, a regex a user wrote (a file's, a command's), within
/// [`MAX_REGEX_BYTES`] and the current [`RegexBudget`] (see [`RegexBudget::enter`]). Its
/// size is measured by compiling its forward NFA first, bounded: a pattern past the limit
/// costs no more than the limit to refuse.
pub fn user_regex(pattern: &str) -> Result<regex::Regex, RegexError> {
    use regex_automata::nfa::thompson;
    if pattern.is_empty() {
        return Err(RegexError::new(RegexErrorKind::Invalid, "is empty"));
    }
    let invalid = |e: &dyn std::fmt::Display| {
        RegexError::new(RegexErrorKind::Invalid, format!("is not valid: {e}"))
    };
    let too_large = || {
        RegexError::new(
            RegexErrorKind::TooLarge,
            format!(
                "is too large: its automaton would take more than {} (MAX_REGEX_BYTES), \
                 the most tuicast compiles of one regex; a shorter repetition, or an ASCII \
                 class ((?-u:\\w), [a-z]) instead of a Unicode one, is smaller",
                human_bytes(MAX_REGEX_BYTES as u64)
            ),
        )
    };
    let nfa = thompson::Compiler::new()
        .configure(thompson::Config::new().nfa_size_limit(Some(MAX_REGEX_BYTES)))
        .build(pattern);
    let bytes = match nfa {
        Ok(nfa) => nfa.memory_usage(),
        Err(e) if e.size_limit().is_some() => return Err(too_large()),
        Err(e) => {
            // The regex crate's own message is the one users know.
            return Err(match regex::Regex::new(pattern) {
                Err(e) => invalid(&e),
                Ok(_) => invalid(&e),
            });
        }
    };
    let budget = RegexBudget::current();
    if !budget.take(bytes) {
        return Err(RegexError::new(
            RegexErrorKind::Budget,
            format!(
                "would take the regexes of this project or session past {} in all \
                 (MAX_REGEX_BUDGET, {} left, this one {})",
                human_bytes(MAX_REGEX_BUDGET as u64),
                human_bytes(budget.left() as u64),
                human_bytes(bytes as u64)
            ),
        ));
    }
    regex::RegexBuilder::new(pattern)
        // The forward NFA fits MAX_REGEX_BYTES: the crate's own count is a few times that.
        .size_limit(16 * MAX_REGEX_BYTES)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => too_large(),
            e => invalid(&e),
        })
}

/// A user's regex checked for syntax when its file is read and compiled, within
/// [`MAX_REGEX_BYTES`] and the [`RegexBudget`] current when it was made (a session's config
/// charges the session's), on its first use only: a regex of an adapter no screen asks for
/// costs its parse alone. A failure at first use is an error that starts with the place
/// given when it was made (`tuicast.toml:1:1: adapters.x: regex "…"`), and every later use
/// gives it again. Clones share the compiled regex.
#[derive(Debug, Clone)]
pub(crate) struct LazyRegex(std::sync::Arc<LazyInner>);

#[derive(Debug)]
struct LazyInner {
    pattern: String,
    /// What an error at first use starts with.
    place: String,
    budget: RegexBudget,
    compiled: std::sync::OnceLock<Result<regex::Regex, RegexError>>,
}

impl LazyRegex {
    /// `pattern`, checked for syntax only (the parse of the regex crate, whose errors it
    /// gives); `place` starts the message of an error when it is compiled.
    pub(crate) fn new(pattern: &str, place: String) -> Result<LazyRegex, RegexError> {
        LazyRegex::new_in(pattern, place, RegexBudget::current())
    }

    /// [`LazyRegex::new`] charging `budget` when it is compiled.
    pub(crate) fn new_in(
        pattern: &str,
        place: String,
        budget: RegexBudget,
    ) -> Result<LazyRegex, RegexError> {
        if pattern.is_empty() {
            return Err(RegexError::new(RegexErrorKind::Invalid, "is empty"));
        }
        regex_automata::util::syntax::parse(pattern)
            .map_err(|e| RegexError::new(RegexErrorKind::Invalid, format!("is not valid: {e}")))?;
        Ok(LazyRegex(std::sync::Arc::new(LazyInner {
            pattern: pattern.to_string(),
            place,
            budget,
            compiled: std::sync::OnceLock::new(),
        })))
    }

    /// Whether it has been compiled (or failed to be) already.
    #[cfg(test)]
    pub(crate) fn is_compiled(&self) -> bool {
        self.0.compiled.get().is_some()
    }

    /// The regex, compiled on the first call ([`user_regex`] within its budget); the same
    /// error on every call when that failed, its message after the place.
    pub(crate) fn get(&self) -> Result<&regex::Regex, RegexError> {
        let inner = &*self.0;
        inner
            .compiled
            .get_or_init(|| {
                inner
                    .budget
                    .enter(|| user_regex(&inner.pattern))
                    .map_err(|e| RegexError::new(e.kind(), format!("{} {e}", inner.place)))
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// Opens `path` for reading only when it is a regular file (symlinks followed). A FIFO would
/// block forever, `/dev/zero` never ends, a folder is no file: a cloned repository can hold any
/// of them (git stores symlinks), so each is an error naming what the path is.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let kind = |m: &std::fs::Metadata| {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        match () {
            _ if t.is_file() => None,
            _ if t.is_dir() => Some("a folder"),
            _ if t.is_fifo() => Some("a FIFO"),
            _ if t.is_socket() => Some("a socket"),
            _ if t.is_char_device() || t.is_block_device() => Some("a device"),
            _ => Some("not a regular file"),
        }
    };
    let refuse = |what: &str| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("is {what}, not a regular file"),
        )
    };
    // Checked before opening, because opening a FIFO blocks until someone writes to it.
    if let Some(what) = kind(&std::fs::metadata(path)?) {
        return Err(refuse(what));
    }
    let file = File::open(path)?;
    if let Some(what) = kind(&file.metadata()?) {
        return Err(refuse(what));
    }
    Ok(file)
}

/// Opens `path` like [`open_regular`], but refuses a symbolic link instead of following it.
/// For the files a repository or a report chooses whose content tuicast shows or copies
/// (goldens, `.new` files, report pictures): a golden committed as a link to
/// `/proc/self/environ` or `../../.git/config` would otherwise be printed in a CI log's diff
/// and copied into a report. The file opened is checked to be the one looked at, so a link
/// swapped in between is refused too.
pub fn open_regular_nofollow(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::MetadataExt;
    let seen = std::fs::symlink_metadata(path)?;
    if seen.file_type().is_symlink() {
        let target = std::fs::read_link(path)
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "is a symbolic link (to {}), which tuicast does not read through",
                crate::escape::escape_for_terminal(&target, 200)
            ),
        ));
    }
    // Not a link, so `open_regular` looks at this very file.
    let file = open_regular(path)?;
    let opened = file.metadata()?;
    if (opened.dev(), opened.ino()) != (seen.dev(), seen.ino()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "was replaced while it was opened",
        ));
    }
    Ok(file)
}

/// Reads the regular file `path` whole, refusing one of more than `limit` bytes (see
/// [`open_regular`]). Errors do not repeat the path: the caller names the file once.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_limited(open_regular(path)?, limit)
}

/// [`read_regular`] that refuses a symbolic link (see [`open_regular_nofollow`]).
pub fn read_regular_nofollow(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_limited(open_regular_nofollow(path)?, limit)
}

/// The whole of `file`, at most `limit` bytes.
fn read_limited(file: File, limit: u64) -> io::Result<Vec<u8>> {
    let len = file.metadata()?.len();
    let too_big = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("is larger than the limit of {}", human_bytes(limit)),
        )
    };
    if len > limit {
        return Err(too_big());
    }
    let mut out = Vec::with_capacity(len as usize);
    // `take` guards against a file that grows while it is read.
    file.take(limit + 1).read_to_end(&mut out)?;
    if out.len() as u64 > limit {
        return Err(too_big());
    }
    Ok(out)
}

/// Whether process `pid` exists and is not a zombie: a process killed by SIGKILL whose
/// parent has not reaped it yet (pid 1 of a container may never do it) is gone, though its
/// `/proc/PID` is still there.
pub fn process_alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// When process `pid` started (field 22 of `/proc/PID/stat`, in clock ticks since boot), if
/// it is running: with the pid, it names one process, where a pid alone may be reused.
pub fn process_start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces and parentheses) start with
    // the state, field 3.
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(22 - 3)?.parse().ok()
}

/// What a pid file holds for process `pid`: `PID START`, its start time beside it (see
/// [`process_start_time`]), so that a reused pid is not taken for it ([`pid_file_alive`]).
pub fn pid_file_text(pid: u32) -> String {
    match process_start_time(pid) {
        Some(start) => format!("{pid} {start}\n"),
        None => format!("{pid}\n"),
    }
}

/// The pid a pid file's `text` names ([`pid_file_text`]), when that very process still runs:
/// alive, and started when the file says (a file of only a pid: alive). A stale file whose
/// pid now belongs to another process is `None`.
pub fn pid_file_alive(text: &str) -> Option<u32> {
    let mut words = text.split_whitespace();
    let pid: u32 = words.next()?.parse().ok()?;
    if !process_alive(pid) {
        return None;
    }
    match words.next() {
        None => Some(pid),
        Some(start) => {
            let start: u64 = start.parse().ok()?;
            (process_start_time(pid) == Some(start)).then_some(pid)
        }
    }
}

/// A lock file that names the process holding it ([`pid_file_text`]): taken by creating it
/// (`O_EXCL`), released by removing it. One rule says when a holder is gone
/// ([`PidLock::is_stale`]), for the daemon's pid file and a live recording's lock alike.
#[derive(Debug)]
pub struct PidLock {
    path: std::path::PathBuf,
}

impl PidLock {
    /// How long a lock file that names no process yet is taken to be in the middle of being
    /// written by its holder, before it is stale.
    pub const GRACE: std::time::Duration = std::time::Duration::from_secs(5);

    /// Takes the lock at `path`, taking over a stale one; `Ok(None)` when a live process
    /// holds it (or is writing it, within [`GRACE`](Self::GRACE)).
    pub fn acquire(path: &Path) -> io::Result<Option<PidLock>> {
        for _ in 0..3 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
            {
                Ok(mut f) => {
                    f.write_all(pid_file_text(std::process::id()).as_bytes())?;
                    return Ok(Some(PidLock {
                        path: path.to_path_buf(),
                    }));
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    if !PidLock::is_stale(path) {
                        return Ok(None);
                    }
                    let _ = std::fs::remove_file(path);
                }
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }

    /// Whether the lock file at `path` has no live holder: the process it names is gone (or
    /// its pid now belongs to another process), or it names none and is older than
    /// [`GRACE`](Self::GRACE). A missing file is not stale (there is nothing to take over).
    pub fn is_stale(path: &Path) -> bool {
        let Ok(text) = std::fs::read_to_string(path) else {
            return false;
        };
        match text.split_whitespace().next().map(str::parse::<u32>) {
            Some(Ok(_)) => pid_file_alive(&text).is_none(),
            _ => std::fs::metadata(path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > PidLock::GRACE),
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Gives the lock up (removes its file).
    pub fn release(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// This process's user id (the owner of `/proc/self`).
pub fn current_uid() -> io::Result<u32> {
    use std::os::unix::fs::MetadataExt;
    Ok(std::fs::metadata("/proc/self")?.uid())
}

/// Makes `dir` a private folder of this user, or says why it cannot be: created with mode
/// 0700 when missing (its parents as usual); refused when it is a symbolic link, no folder,
/// or another user's (who could read or swap what tuicast keeps there); made 0700 when it is
/// this user's and open to others.
pub fn private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
        _ => {}
    }
    let uid = current_uid()?;
    let meta = std::fs::symlink_metadata(dir)?;
    let refuse = |why: String| {
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{}: {why}, so it is not a private folder of this user",
                crate::escape::escape_for_terminal(&dir.display().to_string(), 300)
            ),
        )
    };
    if meta.file_type().is_symlink() {
        return Err(refuse("is a symbolic link".into()));
    }
    if !meta.is_dir() {
        return Err(refuse("is no folder".into()));
    }
    if meta.uid() != uid {
        return Err(refuse(format!(
            "belongs to another user (uid {})",
            meta.uid()
        )));
    }
    if meta.mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// The temporary file [`write_atomic_with`] fills before renaming it over `name`:
/// `.NAME.tmpPID`.
pub fn temporary_name(name: &str, pid: u32) -> String {
    format!(".{name}.tmp{pid}")
}

/// The process id in a name [`temporary_name`] made, when the name is one.
pub fn temporary_pid(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?;
    let (_, pid) = rest.rsplit_once(".tmp")?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// `path` with its folder resolved (symlinks, `..`) and its own name kept: two spellings of
/// one destination (`x.cast`, `./x.cast`, `sub/../x.cast`) give the same value, whether the
/// file exists yet or not.
pub fn resolved(path: &Path) -> std::path::PathBuf {
    let name = path.file_name();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(dir), name) {
        (Ok(d), Some(n)) => {
            let joined = d.join(n);
            // A file that exists and is a symlink is its target.
            std::fs::canonicalize(&joined).unwrap_or(joined)
        }
        _ => path.to_path_buf(),
    }
}

/// Whether `path` is `root` or inside it once symbolic links and `..` are resolved, whether
/// `path` exists yet or not: its longest existing ancestor is resolved and the rest must be
/// plain names. A link to a folder elsewhere (`snapshots -> /home/me`) is outside.
pub fn is_inside(root: &Path, path: &Path) -> bool {
    use std::path::Component;
    let Ok(root) = std::fs::canonicalize(root) else {
        return false;
    };
    let mut existing = path;
    let mut rest = Vec::new();
    let base = loop {
        match std::fs::canonicalize(existing) {
            Ok(b) => break b,
            Err(_) => match (existing.parent(), existing.file_name()) {
                (Some(parent), Some(name)) => {
                    rest.push(name.to_owned());
                    existing = if parent.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        parent
                    };
                }
                // `..` or a root that does not resolve: not provably inside.
                _ => return false,
            },
        }
    };
    let plain = rest
        .iter()
        .all(|n| matches!(Path::new(n).components().next(), Some(Component::Normal(_))));
    plain && base.starts_with(&root)
}

/// `n` bytes as a person reads them: `64 MiB`, `1 GiB`, `512 bytes`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (size, unit) in UNITS {
        if n >= size && n % size == 0 {
            return format!("{} {unit}", n / size);
        }
    }
    format!("{n} bytes")
}

/// Writes `bytes` to `path` atomically: into a temporary file in the same folder, then renamed
/// over `path`. A reader never sees a half-written file, and a failure leaves `path` as it was.
/// Only a regular file (or nothing) is replaced: a device, a FIFO, a symbolic link or a folder
/// at `path` is refused, never replaced by a file and never written through — the paths
/// tuicast writes by itself (goldens, `.new` files, screenshots) are a repository's choice, and
/// a golden committed as a link to `/dev/tty` must not reach the terminal. An output a person
/// names (`-o FILE`) goes through [`write_output`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Writes `bytes` to an output a person named (`-o FILE`, `--scenario FILE`, a session's
/// `snapshot --output`): what is there decides (see [`output_target`]). A regular file (or
/// nothing) is replaced atomically, as [`write_atomic`] does; a character device or a FIFO
/// (`/dev/null`, `/dev/stdout`, `>(…)`), or a link to one, is written through, never replaced
/// by a file (as root, `--format svg -o /dev/null` once made the machine's `/dev/null` a
/// file); a link to a file, a block device, a socket or a folder is refused.
pub fn write_output(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_output_with(path, |w| w.write_all(bytes))
}

/// [`write_output`] with the content produced by `fill`, as [`write_atomic_with`].
pub fn write_output_with<T, E: From<io::Error>>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<T, E>,
) -> Result<T, E> {
    if output_target(path)? == OutputTarget::Through {
        // Not created, not truncated: it is there, and it is not a file.
        let file = std::fs::OpenOptions::new().write(true).open(path)?;
        let mut w = io::BufWriter::new(file);
        let value = fill(&mut w)?;
        w.flush()?;
        return Ok(value);
    }
    write_atomic_with(path, fill)
}

/// How [`write_output`] writes to a path, from what is there now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutputTarget {
    /// Nothing, or a regular file: a new file is renamed over it.
    Replace,
    /// A character device or a FIFO, or a symbolic link to one: opened and written to as it
    /// is (a rename would put a file where the device was: as root, `-o /dev/null` once made
    /// the machine's `/dev/null` a regular file).
    Through,
}

/// What [`write_output`] does with `path`, or why it refuses it: a symbolic link is followed
/// only to a character device or a FIFO (`/dev/stdout` is a link to `/proc/self/fd/1`); a link
/// to a file is refused (replacing it would drop the link, writing through it would write
/// where a cloned repository's link points), and so are a block device (a disk), a socket and
/// a folder.
pub fn output_target(path: &Path) -> io::Result<OutputTarget> {
    use std::os::unix::fs::FileTypeExt;
    let refuse = |what: String| io::Error::new(io::ErrorKind::InvalidInput, what);
    let seen = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(OutputTarget::Replace),
        Err(e) => return Err(e),
        Ok(m) => m.file_type(),
    };
    if seen.is_file() {
        return Ok(OutputTarget::Replace);
    }
    let kind = if seen.is_symlink() {
        match std::fs::metadata(path) {
            Ok(m) => m.file_type(),
            Err(_) => {
                return Err(refuse(
                    "is a symbolic link to nothing, which tuicast does not replace or write \
                     through: name the file itself"
                        .into(),
                ))
            }
        }
    } else {
        seen
    };
    match () {
        _ if kind.is_char_device() || kind.is_fifo() => Ok(OutputTarget::Through),
        _ if seen.is_symlink() && kind.is_file() => Err(refuse(
            "is a symbolic link to a file, which tuicast does not replace or write through: \
             name the file itself"
                .into(),
        )),
        _ if kind.is_dir() => Err(refuse("is a folder, not a file".into())),
        _ if kind.is_block_device() => Err(refuse(
            "is a block device, which tuicast does not write to".into(),
        )),
        _ if kind.is_socket() => Err(refuse("is a socket, not a file".into())),
        _ => Err(refuse("is not a regular file".into())),
    }
}

/// Like [`write_atomic`], with the content produced by `fill` writing into the temporary file.
/// `fill` may fail with its own error type (a malformed input found while writing): then, as
/// on any error, `path` is left as it was.
pub fn write_atomic_with<T, E: From<io::Error>>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<T, E>,
) -> Result<T, E> {
    if output_target(path)? == OutputTarget::Through {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a device or a FIFO (or a link to one), which tuicast does not replace or \
             write through here",
        )
        .into());
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(temporary_name(&name, std::process::id()));
    let result = (|| {
        let file = std::fs::File::create(&tmp)?;
        let mut w = io::BufWriter::new(file);
        let value = fill(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(value)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The median of `values` (the mean of the two middle ones for an even count; NaNs sort
/// last), or `None` when there are none.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut all = values.to_vec();
    all.sort_by(f64::total_cmp);
    let n = all.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(all[n / 2]),
        _ => Some((all[n / 2 - 1] + all[n / 2]) / 2.0),
    }
}

/// Runs `f` over `items` on every core and hands each result to `on_ready` in the order of
/// `items`, as soon as it and all before it are done (so output can stream in a stable
/// order). Stops at the first error of `on_ready` (the threads finish the items they hold).
/// Runs on the calling thread when the system gives no thread.
pub fn par_map_ordered<T: Sync, R: Send, E>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
    mut on_ready: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let (done, results) = std::sync::mpsc::channel::<(usize, R)>();
        let mut spawned = 0;
        for _ in 0..threads {
            let (done, next, f) = (done.clone(), &next, &f);
            let worker = move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if done.send((i, f(item))).is_err() {
                    break;
                }
            };
            if std::thread::Builder::new().spawn_scoped(s, worker).is_ok() {
                spawned += 1;
            }
        }
        drop(done);
        if spawned == 0 {
            for (i, item) in items.iter().enumerate() {
                on_ready(i, f(item))?;
            }
            return Ok(());
        }
        let mut waiting = std::collections::BTreeMap::new();
        let mut ready = 0;
        for (i, result) in results {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&ready) {
                on_ready(ready, result)?;
                ready += 1;
            }
        }
        Ok(())
    })
}

/// `path` relative to the current directory when it is inside it, as messages show a file
/// (`casts/x.cast:2:1`, not the absolute path discovery works with).
pub(crate) fn relative_to_cwd(path: &Path) -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_users_regex_is_held_to_its_size_and_to_the_budget_it_shares() {
        // issue 41: `\w{170}` (10 bytes) came close to the regex crate's 10 MiB.
        let e = user_regex(r"\w{170}").unwrap_err();
        assert_eq!(e.kind(), RegexErrorKind::TooLarge);
        assert!(
            e.message()
                .starts_with("is too large: its automaton would take more than 1 MiB"),
            "{e}"
        );
        assert!(
            user_regex(r"(?-u:\w){170}").is_ok(),
            "ASCII classes are small"
        );
        assert_eq!(user_regex("(").unwrap_err().kind(), RegexErrorKind::Invalid);
        assert!(user_regex("(")
            .unwrap_err()
            .message()
            .starts_with("is not valid: regex parse error"));
        assert_eq!(user_regex("").unwrap_err().kind(), RegexErrorKind::Invalid);
        // A budget shared by clones, charged only while entered, on this thread.
        let budget = RegexBudget::new(100_000);
        let shared = budget.clone();
        let one = shared.enter(|| user_regex(r"\d\d:\d\d")).unwrap();
        assert!(one.is_match("12:34"));
        let cost = 100_000 - budget.left();
        assert!(cost > 1000 && cost < 20_000, "{cost}");
        let e = budget.enter(|| user_regex(r"\w{10}")).unwrap_err();
        assert_eq!(e.kind(), RegexErrorKind::Budget);
        assert!(e.message().contains("past 64 MiB in all"), "{e}");
        assert_eq!(
            100_000 - budget.left(),
            cost,
            "a refused regex costs nothing"
        );
        // Outside `enter`, the process's budget is charged, not this one.
        user_regex(r"\w{10}").unwrap();
        assert_eq!(100_000 - budget.left(), cost);
    }

    #[test]
    fn a_pid_lock_is_held_by_a_live_process_and_taken_over_from_a_gone_one() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("x.lock");
        assert!(!PidLock::is_stale(&lock), "no file: nothing to take over");
        let held = PidLock::acquire(&lock).unwrap().expect("a free lock");
        assert_eq!(held.path(), lock);
        assert_eq!(
            pid_file_alive(&std::fs::read_to_string(&lock).unwrap()),
            Some(std::process::id())
        );
        assert!(!PidLock::is_stale(&lock), "this process holds it");
        assert!(PidLock::acquire(&lock).unwrap().is_none(), "held");
        held.release();
        assert!(!lock.exists());

        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        std::fs::write(&lock, gone.to_string()).unwrap();
        assert!(PidLock::is_stale(&lock), "process {gone} is gone");
        let taken = PidLock::acquire(&lock)
            .unwrap()
            .expect("a stale lock is taken over");
        assert!(!PidLock::is_stale(taken.path()));
        taken.release();
        // This pid, but another start time: the pid was reused, the holder is gone.
        let start = process_start_time(std::process::id()).unwrap();
        std::fs::write(&lock, format!("{} {}", std::process::id(), start + 1)).unwrap();
        assert!(PidLock::is_stale(&lock), "a reused pid");
        // A lock that names nobody yet is being written: given time, then stale.
        std::fs::write(&lock, "").unwrap();
        assert!(
            !PidLock::is_stale(&lock),
            "a lock being written is given time"
        );
        assert!(PidLock::acquire(&lock).unwrap().is_none());
        let old = std::time::SystemTime::now() - PidLock::GRACE * 2;
        std::fs::File::options()
            .write(true)
            .open(&lock)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(
            PidLock::is_stale(&lock),
            "an empty lock older than the grace"
        );
        assert!(PidLock::acquire(&lock).unwrap().is_some());
    }

    #[test]
    fn a_pid_file_names_one_process_by_its_start_time_too() {
        // Issue 23: a stale pid file whose pid a later process got was taken for a live
        // daemon (every session command waited 10 s and failed).
        let me = std::process::id();
        let text = pid_file_text(me);
        assert_eq!(pid_file_alive(&text), Some(me), "{text}");
        let start = process_start_time(me).unwrap();
        assert_eq!(pid_file_alive(&format!("{me} {}", start + 1)), None);
        assert_eq!(
            pid_file_alive(&format!("{me}\n")),
            Some(me),
            "an old file: the pid"
        );
        assert_eq!(pid_file_alive("x 1"), None);
    }

    #[test]
    fn a_private_folder_is_this_users_alone() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("a/private");
        private_dir(&dir).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        private_dir(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700, "made private again");
        let link = t.path().join("link");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        let e = private_dir(&link).unwrap_err();
        assert!(e.to_string().contains("is a symbolic link"), "{e}");
        std::fs::write(t.path().join("file"), "").unwrap();
        let e = private_dir(&t.path().join("file")).unwrap_err();
        assert!(e.to_string().contains("is no folder"), "{e}");
        // Another user's folder (made so where this runs as root).
        if current_uid().unwrap() == 0 {
            let theirs = t.path().join("theirs");
            std::fs::create_dir(&theirs).unwrap();
            std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).unwrap();
            let e = private_dir(&theirs).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
            assert!(
                e.to_string()
                    .contains("belongs to another user (uid 65534)"),
                "{e}"
            );
        }
    }

    #[test]
    fn a_zombie_is_no_live_process() {
        assert!(process_alive(std::process::id()));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        // Not reaped yet: a zombie, whose /proc entry is still there.
        while std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z"))
        {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(std::path::Path::new(&format!("/proc/{pid}")).exists());
        assert!(!process_alive(pid));
        child.wait().unwrap();
        assert!(!process_alive(pid));
    }

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        std::fs::write(&f, b"12345").unwrap();
        assert_eq!(read_regular(&f, 5).unwrap(), b"12345");
        let e = read_regular(&f, 4).unwrap_err();
        assert_eq!(e.to_string(), "is larger than the limit of 4 bytes");
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert_eq!(
            read_regular(&link, 1 << 30).unwrap_err().to_string(),
            "is a device, not a regular file"
        );
        assert_eq!(
            open_regular(dir.path()).unwrap_err().to_string(),
            "is a folder, not a regular file"
        );
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        assert_eq!(
            open_regular(&fifo).unwrap_err().to_string(),
            "is a FIFO, not a regular file"
        );
        assert_eq!(human_bytes(64 << 20), "64 MiB");
    }

    #[test]
    fn nofollow_reads_refuse_a_symbolic_link_and_name_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        std::fs::write(&f, b"secret").unwrap();
        assert_eq!(read_regular_nofollow(&f, 6).unwrap(), b"secret");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("f\x1b]0;x\x07", &link).unwrap();
        let e = read_regular_nofollow(&link, 1 << 20).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("is a symbolic link (to f\\e]0;x\\x07)"),
            "escaped: {e}"
        );
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&f, &link).unwrap();
        assert!(read_regular_nofollow(&link, 1 << 20).is_err());
        assert_eq!(read_regular(&link, 1 << 20).unwrap(), b"secret");
        assert_eq!(
            open_regular_nofollow(dir.path()).unwrap_err().to_string(),
            "is a folder, not a regular file"
        );
    }

    #[test]
    fn inside_means_inside_once_links_and_dots_are_resolved() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("p");
        std::fs::create_dir_all(root.join("snapshots")).unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("away")).unwrap();
        assert!(is_inside(&root, &root));
        assert!(is_inside(&root, &root.join("snapshots")));
        assert!(is_inside(&root, &root.join("not/made/yet")));
        assert!(!is_inside(&root, &root.join("../x")));
        assert!(!is_inside(&root, &root.join("not/../../x")));
        assert!(!is_inside(&root, &root.join("away")));
        assert!(!is_inside(&root, &root.join("away/sub")));
        assert!(!is_inside(&root, outside.path()));
    }

    #[test]
    fn par_map_ordered_hands_results_over_in_order() {
        let items: Vec<u64> = (0..500).collect();
        let mut seen = Vec::new();
        let r: Result<(), ()> = par_map_ordered(
            &items,
            |&x| {
                // Uneven work, so results finish out of order.
                std::thread::sleep(std::time::Duration::from_micros((x * 7919) % 300));
                x * 2
            },
            |i, v| {
                assert_eq!(v, items[i] * 2);
                seen.push(i);
                Ok(())
            },
        );
        assert!(r.is_ok());
        assert_eq!(seen, (0..500).collect::<Vec<usize>>());
        let stopped = par_map_ordered(&items, |&x| x, |i, _| if i == 3 { Err(i) } else { Ok(()) });
        assert_eq!(stopped, Err(3));
        assert_eq!(par_map_ordered(&[] as &[u8], |_| 0, |_, _| Err(())), Ok(()));
    }
}
