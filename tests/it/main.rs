//! Integration tests, one binary (`cargo test --test it`). Modules:
//! - `codec`: reading v1/v2/v3 fixtures, every header field and event code, write→read round trips.
//! - `malformed`: every malformed-input fixture gives its `path:line:column` error and exit 2.
//! - `cli`: the real `tuicast` binary: replay, info, convert, exit statuses, help.
//! - `asciinema`: interoperability with asciinema 3 (`asciinema rec`, `asciinema convert`).
//! - `examples`: the bundled example suite in `casts/` replays to what tmux showed.
//! - `snapshots`: goldens, update modes, review commands, masks, orphans (real binary).
//! - `record`: the recorder with real programs in real PTYs.
//! - `conformance`: the conformance corpus replays (avt) to what tmux or xterm showed; docs table.
//! - `png`: PNG and GIF renders checked by decoded pixels, determinism, the picture CLI.
//! - `harness`: a temporary crate using `tuicast::harness` under cargo test and nextest.
//! - `layers`: ARCHITECTURE.md's layer rule, checked on the sources.

mod asciinema;
mod cli;
mod codec;
mod conformance;
mod examples;
mod harness;
mod layers;
mod malformed;
mod png;
mod record;
mod snapshots;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture under `tests/fixtures/`.
pub fn fixture(rel: &str) -> PathBuf {
    root().join("tests/fixtures").join(rel)
}

/// Runs the real `tuicast` binary with `args`.
pub fn tuicast<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_tuicast"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run tuicast")
}

/// stdout and stderr of a run as text.
pub fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether a program is on PATH.
pub fn have(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[allow(dead_code)]
fn _unused(_: &Path) {}
