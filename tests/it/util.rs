//! What every test module shares: the repository's paths, and [`Tuicast`], a builder that runs
//! the real `tuicast` binary and gives back a [`Run`] whose assertions print the whole story
//! (command, folder, environment, exit status, stdout, stderr) when they fail.
//!
//! ```ignore
//! let out = tuicast(["replay", "casts/shell.cast", "--at", "listing"]).success();
//! assert!(out.stdout().contains("$ ls"), "{out}");
//! Tuicast::new().arg("replay").arg(&missing).run().fails_with(2);
//! ```

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};

/// The `tuicast` binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_tuicast");

/// The repository root.
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture under `tests/fixtures/`.
pub(crate) fn fixture(rel: &str) -> PathBuf {
    root().join("tests/fixtures").join(rel)
}

/// Whether a program is on PATH.
pub(crate) fn have(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// A v3 cast of a `cols`×`rows` terminal: the header line, then one line per event
/// (`[0.1, "o", "hi"]`), each ending in a newline.
pub(crate) fn v3_cast(cols: u16, rows: u16, events: &[&str]) -> String {
    let mut cast =
        format!("{{\"version\": 3, \"term\": {{\"cols\": {cols}, \"rows\": {rows}}}}}\n");
    for event in events {
        cast.push_str(event);
        cast.push('\n');
    }
    cast
}

/// A temporary folder for one test, removed when dropped.
pub(crate) struct Dir {
    tmp: tempfile::TempDir,
}

impl Dir {
    /// A new, empty folder.
    pub(crate) fn new() -> Dir {
        Dir {
            tmp: tempfile::tempdir().expect("create a temporary folder"),
        }
    }

    /// The folder.
    pub(crate) fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// `rel` inside the folder.
    pub(crate) fn join(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.tmp.path().join(rel)
    }

    /// Writes `contents` to `rel` (creating its folders) and gives its path.
    pub(crate) fn write(&self, rel: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).unwrap();
        std::fs::write(&path, contents).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        path
    }

    /// Copies the repository's file `repo_rel` to `rel` (creating its folders).
    pub(crate) fn copy_from_repo(&self, repo_rel: &str, rel: impl AsRef<Path>) -> PathBuf {
        let path = self.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).unwrap();
        std::fs::copy(root().join(repo_rel), &path)
            .unwrap_or_else(|e| panic!("copy {repo_rel} to {}: {e}", path.display()));
        path
    }

    /// Every file under the folder, relative to it, sorted.
    pub(crate) fn files(&self) -> Vec<String> {
        fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(base, &path, out);
                } else {
                    out.push(path.strip_prefix(base).unwrap().display().to_string());
                }
            }
        }
        let mut out = Vec::new();
        walk(self.path(), self.path(), &mut out);
        out.sort();
        out
    }

    /// `tuicast ARGS` in this folder, with no `CI` or `TUICAST_*` variable from outside.
    pub(crate) fn tuicast<I, S>(&self, args: I) -> Tuicast
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        Tuicast::new()
            .args(args)
            .current_dir(self.path())
            .clean_update_env()
    }
}

/// Writes `DIR/NAME.toml` and runs `tuicast record` on it (with `env`); gives the run and the
/// cast's path.
pub(crate) fn record_scenario(
    dir: &Dir,
    name: &str,
    toml: &str,
    env: &[(&str, &str)],
) -> (Run, PathBuf) {
    let path = dir.write(format!("{name}.toml"), toml);
    let out = Tuicast::new().arg("record").arg(&path).envs(env).run();
    (out, dir.join(format!("{name}.cast")))
}

/// The screen at checkpoint `at` of `cast` (`tuicast replay CAST --at AT`, which must succeed).
pub(crate) fn screen_at(cast: &Path, at: &str) -> String {
    let out = Tuicast::new()
        .arg("replay")
        .arg(cast)
        .args(["--at", at])
        .run()
        .success();
    out.stdout().to_string()
}

/// Runs `tuicast ARGS...` (with `NO_COLOR=1`, nothing on stdin) and waits for it.
pub(crate) fn tuicast<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Tuicast::new().args(args).run()
}

/// One invocation of the real `tuicast` binary, built step by step.
pub(crate) struct Tuicast {
    cmd: Command,
    args: Vec<OsString>,
    dir: Option<PathBuf>,
    env: Vec<String>,
    stdin: Option<Vec<u8>>,
}

impl Tuicast {
    /// `tuicast` with no arguments, `NO_COLOR=1`, in the test's working directory.
    pub(crate) fn new() -> Tuicast {
        let mut cmd = Command::new(BIN);
        cmd.env("NO_COLOR", "1");
        Tuicast {
            cmd,
            args: Vec::new(),
            dir: None,
            env: Vec::new(),
            stdin: None,
        }
    }

    /// Appends one argument (a `&str`, `String`, `Path`, ...).
    pub(crate) fn arg(mut self, arg: impl AsRef<OsStr>) -> Tuicast {
        self.args.push(arg.as_ref().to_owned());
        self.cmd.arg(arg);
        self
    }

    /// Appends arguments.
    pub(crate) fn args<I, S>(self, args: I) -> Tuicast
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        args.into_iter().fold(self, Tuicast::arg)
    }

    /// Runs in `dir` instead of the test's working directory.
    pub(crate) fn current_dir(mut self, dir: impl AsRef<Path>) -> Tuicast {
        self.dir = Some(dir.as_ref().to_owned());
        self.cmd.current_dir(dir);
        self
    }

    /// Sets an environment variable.
    pub(crate) fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Tuicast {
        self.env
            .push(format!("{key}={}", value.as_ref().to_string_lossy()));
        self.cmd.env(key, value);
        self
    }

    /// Sets each `(key, value)`.
    pub(crate) fn envs(self, vars: &[(&str, &str)]) -> Tuicast {
        vars.iter().fold(self, |t, (k, v)| t.env(k, v))
    }

    /// Removes an environment variable.
    pub(crate) fn env_remove(mut self, key: &str) -> Tuicast {
        self.env.push(format!("-{key}"));
        self.cmd.env_remove(key);
        self
    }

    /// Removes what decides what a snapshot run writes or records (`CI`, `TUICAST_UPDATE`,
    /// `TUICAST_LIVE`), so the test's own environment cannot change its outcome.
    pub(crate) fn clean_update_env(self) -> Tuicast {
        self.env_remove("CI")
            .env_remove("TUICAST_UPDATE")
            .env_remove("TUICAST_LIVE")
    }

    /// Gives the program `input` on stdin (otherwise stdin is empty).
    pub(crate) fn stdin(mut self, input: impl Into<Vec<u8>>) -> Tuicast {
        self.stdin = Some(input.into());
        self
    }

    /// Runs to the end and collects stdout and stderr.
    pub(crate) fn run(self) -> Run {
        let shown = self.to_string();
        let Tuicast { mut cmd, stdin, .. } = self;
        let output = match stdin {
            None => cmd.output(),
            Some(input) => cmd
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .and_then(|mut child| {
                    let mut pipe = child.stdin.take().expect("piped stdin");
                    // A thread, so a program that answers before reading everything can't
                    // deadlock against a full pipe.
                    let writer = std::thread::spawn(move || pipe.write_all(&input));
                    let output = child.wait_with_output();
                    // A program that exits before reading all of it (an early error)
                    // closes the pipe: that is its answer, not the test's failure.
                    match writer.join().expect("stdin writer") {
                        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                            panic!("write stdin: {e}")
                        }
                        _ => {}
                    }
                    output
                }),
        };
        Run::new(
            shown,
            output.unwrap_or_else(|e| panic!("cannot run {BIN}: {e}")),
        )
    }

    /// Starts the program (stdout and stderr piped, stdin empty) without waiting for it.
    pub(crate) fn spawn(self) -> Spawned {
        let shown = self.to_string();
        let child = { self.cmd }
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
        Spawned { child, shown }
    }
}

impl fmt::Display for Tuicast {
    /// The command as one could paste it into a shell, then its folder and environment.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tuicast")?;
        for arg in &self.args {
            write!(f, " {}", shell_quote(&arg.to_string_lossy()))?;
        }
        if let Some(dir) = &self.dir {
            write!(f, "\n  in {}", dir.display())?;
        }
        if !self.env.is_empty() {
            write!(f, "\n  env NO_COLOR=1 {}", self.env.join(" "))?;
        }
        Ok(())
    }
}

/// A `tuicast` started by [`Tuicast::spawn`].
pub(crate) struct Spawned {
    child: Child,
    shown: String,
}

impl Spawned {
    /// The process id.
    pub(crate) fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// The exit status, if it has ended.
    pub(crate) fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().expect("try_wait")
    }

    /// Kills it (SIGKILL).
    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill();
    }

    /// Waits for the end and collects stdout and stderr.
    pub(crate) fn wait(self) -> Run {
        let output = self.child.wait_with_output().expect("wait for tuicast");
        Run::new(self.shown, output)
    }
}

/// A finished run: exit status, stdout and stderr. Its `Display` shows all of it.
pub(crate) struct Run {
    shown: String,
    output: Output,
    stdout: String,
    stderr: String,
}

impl Run {
    /// A run of any program, `shown` as its command line.
    pub(crate) fn new(shown: String, output: Output) -> Run {
        Run {
            shown,
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            output,
        }
    }

    /// The exit code (`None` after a signal).
    pub(crate) fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    /// Whether it exited with status 0.
    pub(crate) fn succeeded(&self) -> bool {
        self.output.status.success()
    }

    /// stdout as text (invalid UTF-8 replaced).
    pub(crate) fn stdout(&self) -> &str {
        &self.stdout
    }

    /// stderr as text (invalid UTF-8 replaced).
    pub(crate) fn stderr(&self) -> &str {
        &self.stderr
    }

    /// stdout as it was written.
    pub(crate) fn stdout_bytes(&self) -> &[u8] {
        &self.output.stdout
    }

    /// stdout parsed as one JSON value.
    #[track_caller]
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not one JSON value ({e}):\n{self}"))
    }

    /// Asserts exit status 0.
    #[track_caller]
    pub(crate) fn success(self) -> Run {
        assert!(self.succeeded(), "expected success:\n{self}");
        self
    }

    /// Asserts exit status `code`.
    #[track_caller]
    pub(crate) fn fails_with(self, code: i32) -> Run {
        assert_eq!(
            self.code(),
            Some(code),
            "expected exit status {code}:\n{self}"
        );
        self
    }
}

impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "command: {}", self.shown)?;
        writeln!(f, "status:  {}", self.output.status)?;
        for (name, text) in [("stdout", &self.stdout), ("stderr", &self.stderr)] {
            if text.is_empty() {
                writeln!(f, "{name}:  (empty)")?;
            } else {
                writeln!(f, "--- {name}\n{}", text.trim_end_matches('\n'))?;
            }
        }
        write!(f, "---")
    }
}

/// `arg` quoted for a POSIX shell when it needs it.
fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// A project of the bundled `shell` cast with its goldens, the final screen's golden then
/// changed (`$ exit` to `$ exot`): one failing check. The folder, that golden, and its text as
/// the cast draws it.
pub(crate) fn project_with_a_changed_golden() -> (Dir, PathBuf, String) {
    let dir = Dir::new();
    dir.copy_from_repo("casts/shell.cast", "casts/shell.cast");
    dir.tuicast(["test", "--update"]).run().success();
    let golden = dir.join("snapshots/shell/end.txt");
    let text = std::fs::read_to_string(&golden).unwrap();
    std::fs::write(&golden, text.replace("$ exit", "$ exot")).unwrap();
    (dir, golden, text)
}
