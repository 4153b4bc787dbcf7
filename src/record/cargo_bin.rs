//! The crate's own binary: `bin = "todoapp"` in a scenario names a `[[bin]]` target of the
//! cargo package the scenario lives in, so a test records the program as built today.
//!
//! Where the binary is found, in order:
//! 1. `CARGO_BIN_EXE_<name>` or `NEXTEST_BIN_EXE_<name>` in tuicast's environment (cargo
//!    sets the first for integration tests, nextest the second, at run time);
//! 2. beside the running test binary: a test runs from `<target>/<profile>/deps/`, and cargo
//!    builds the package's binaries into `<target>/<profile>/` before it runs the tests;
//! 3. outside cargo (the `tuicast` command): `cargo build --bin <name>` in the package
//!    (a no-op when it is up to date, so the recording is of today's code), which says where
//!    the executable is — `CARGO_TARGET_DIR`, workspaces and profiles as cargo resolves them.
//!
//! A binary built once is reused for the rest of the process.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// Why a `bin =` binary was not found: its name and every place that was tried.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BinError {
    /// The binary's name.
    pub name: String,
    /// What was tried, in order, each with why it did not give the binary.
    pub tried: Vec<String>,
}

impl fmt::Display for BinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bin = \"{}\": no such binary; tried:",
            crate::escape::escape_for_terminal(&self.name, 60)
        )?;
        for t in &self.tried {
            write!(f, "\n  - {t}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BinError {}

/// The executable of the package's binary `name`, for a scenario in the folder `from` (see the
/// module docs for the order). Builds it with cargo when tuicast runs outside a test.
pub fn locate(name: &str, from: &Path) -> Result<PathBuf, BinError> {
    let mut tried = Vec::new();
    if name.is_empty() || name.contains(['/', '\\']) || name.chars().any(char::is_control) {
        tried.push("a binary name is a [[bin]] target name, with no slash".to_string());
        return Err(BinError {
            name: name.to_string(),
            tried,
        });
    }
    for var in [
        format!("CARGO_BIN_EXE_{name}"),
        format!("NEXTEST_BIN_EXE_{name}"),
    ] {
        match std::env::var_os(&var) {
            Some(p) if Path::new(&p).is_file() => return Ok(PathBuf::from(p)),
            Some(p) => tried.push(format!("{var}={} (no such file)", Path::new(&p).display())),
            None => tried.push(format!("{var} (not set)")),
        }
    }
    if let Some(dir) = test_profile_dir() {
        let candidate = dir.join(name);
        if candidate.is_file() {
            return Ok(candidate);
        }
        tried.push(format!(
            "{} (beside the running test: not built)",
            candidate.display()
        ));
        // Inside a test run, building with cargo would wait on the lock cargo holds.
        return Err(BinError {
            name: name.to_string(),
            tried,
        });
    }
    match built(name, from) {
        Ok(p) => Ok(p),
        Err(e) => {
            tried.push(e.into());
            Err(BinError {
                name: name.to_string(),
                tried,
            })
        }
    }
}

/// Where the binary would be without building it (for telling whether a cast is older than
/// the program): the same places as [`locate`], then `<target>/debug/<name>` with the target
/// folder from `CARGO_TARGET_DIR` or the nearest `target/` above `from`.
pub fn existing(name: &str, from: &Path) -> Option<PathBuf> {
    for var in [
        format!("CARGO_BIN_EXE_{name}"),
        format!("NEXTEST_BIN_EXE_{name}"),
    ] {
        if let Some(p) = std::env::var_os(&var).map(PathBuf::from) {
            if p.is_file() {
                return Some(p);
            }
        }
    }
    if let Some(dir) = test_profile_dir() {
        return Some(dir.join(name)).filter(|p| p.is_file());
    }
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) => PathBuf::from(t),
        None => from
            .ancestors()
            .map(|a| a.join("target"))
            .find(|t| t.is_dir())?,
    };
    Some(target.join("debug").join(name)).filter(|p| p.is_file())
}

/// The name of the package's binary that the executable `program` is, for a scenario in the
/// folder `dir`: its development build, `TARGET/debug/NAME`, where TARGET is the target folder
/// cargo uses for the package holding `dir` and NAME one of that package's `[[bin]]` targets
/// — the program `bin = "NAME"` records there (built afresh). `None` for any other program, or
/// when cargo cannot tell (`cargo metadata --no-deps`, run once).
pub fn package_binary(program: &Path, dir: &Path) -> Option<String> {
    let program = program.canonicalize().ok()?;
    let name = program.file_name()?.to_str()?.to_string();
    let profile = program.parent()?;
    if profile.file_name()? != "debug" {
        return None;
    }
    let package = dir.ancestors().find(|a| a.join("Cargo.toml").is_file())?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(package)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let target = Path::new(meta["target_directory"].as_str()?)
        .canonicalize()
        .ok()?;
    if profile.parent()? != target {
        return None;
    }
    let manifest = package.join("Cargo.toml").canonicalize().ok()?;
    let same = |m: &serde_json::Value| {
        m.as_str()
            .and_then(|m| Path::new(m).canonicalize().ok())
            .is_some_and(|m| m == manifest)
    };
    let is_bin = meta["packages"]
        .as_array()?
        .iter()
        .filter(|p| same(&p["manifest_path"]))
        .flat_map(|p| p["targets"].as_array().into_iter().flatten())
        .any(|t| {
            t["name"] == name.as_str()
                && t["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == "bin"))
        });
    is_bin.then_some(name)
}

/// `<target>/<profile>/` when this process is a cargo test binary (it runs from `deps/`).
fn test_profile_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    (deps.file_name()? == "deps").then(|| deps.parent().map(Path::to_path_buf))?
}

message_error!(
    /// Why one place tried for a `bin =` binary did not give it (one of [`BinError::tried`]).
    pub(crate) NotBuilt
);

/// Builds `name` with cargo in the package holding `from` (once per process) and gives the
/// executable cargo reports; an error says what failed.
fn built(name: &str, from: &Path) -> Result<PathBuf, NotBuilt> {
    static BUILT: OnceLock<Mutex<HashMap<(String, PathBuf), PathBuf>>> = OnceLock::new();
    let package = from
        .ancestors()
        .find(|a| a.join("Cargo.toml").is_file())
        .ok_or_else(|| {
            format!(
                "a Cargo.toml in {} or above (none: bin = needs a cargo package)",
                from.display()
            )
        })?
        .to_path_buf();
    let key = (name.to_string(), package.clone());
    let cache = BUILT.get_or_init(Default::default);
    if let Some(p) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(p.clone());
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let shown = format!("cargo build --bin {name} in {}", package.display());
    let out = Command::new(&cargo)
        .args([
            "build",
            "--quiet",
            "--message-format=json-render-diagnostics",
            "--bin",
            name,
        ])
        .current_dir(&package)
        .output()
        .map_err(|e| format!("{shown} (cannot run cargo: {e})"))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last: Vec<&str> = stderr.lines().rev().take(6).collect();
        let last: Vec<&str> = last.into_iter().rev().collect();
        return Err(message!(
            "{shown} (failed: {})",
            crate::escape::escape_for_terminal(&last.join(" | "), 600)
        ));
    }
    let exe = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
        .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
        .next_back()
        .ok_or_else(|| format!("{shown} (built, but cargo named no executable {name})"))?;
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, exe.clone());
    Ok(exe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_a_slash_is_refused_with_what_was_tried() {
        let e = locate("../x", Path::new("/")).unwrap_err();
        assert!(e.to_string().contains("no slash"), "{e}");
    }

    #[test]
    fn unit_tests_find_binaries_beside_them_or_say_where_they_looked() {
        // This unit test runs from target/<profile>/deps/, as an integration test would.
        let e = locate("no-such-binary-here", Path::new(".")).unwrap_err();
        let shown = e.to_string();
        assert!(
            shown.contains("CARGO_BIN_EXE_no-such-binary-here (not set)"),
            "{shown}"
        );
        assert!(shown.contains("beside the running test"), "{shown}");
        // The crate's own binary is built before tests run (`cargo test` builds [[bin]]s).
        if let Some(dir) = test_profile_dir() {
            if dir.join("tuicast").is_file() {
                assert_eq!(
                    locate("tuicast", Path::new(".")).unwrap(),
                    dir.join("tuicast")
                );
            }
        }
    }
}
