//! The program's working folder: a fresh copy, so that a recording never changes the checkout.
//!
//! A scenario that edits `notes.txt` in its working folder would append to the user's file on
//! every run: the checkout changes under `cargo test`, and the next run starts from other files
//! and fails. So a scenario's program runs in a copy of its working folder, made afresh for
//! each recording in a private temporary folder and removed after it:
//!
//! - **What is copied**: in a git work tree, the files git would commit there (tracked, and
//!   untracked ones that are not ignored: `git ls-files --cached --others --exclude-standard`),
//!   so build output (`target/`, `dist/`) and ignored files are not; elsewhere, every file but
//!   those under `.git`, `target` and `node_modules`. Modes are kept.
//! - **Symlinks** are copied as links when they point inside the folder; a link out of it is an
//!   error naming it (the program would write through it into the checkout, or anywhere).
//! - **`node_modules`**: the nearest one at or above the folder (as Node resolves packages and
//!   npm scripts find their tools) is linked from the copy, never copied: packages are read,
//!   not written.
//! - **Bounds**: at most [`MAX_FILES`] files and [`MAX_BYTES`] bytes, an error past either
//!   naming the folder (a scenario whose `cwd` is a large repository: point it at a fixture
//!   folder, or opt out).
//! - **What runs is the original**: a program named by a relative path (`./app`,
//!   `target/debug/app`: it may be build output, which is not copied), and an argument that is
//!   a relative path out of the folder to a file (`python3 ../app.py` run from `casts/`). A
//!   path out of the folder that a program opens by itself, or a shell script names, is not
//!   in the copy: set `cwd` to the folder that holds what the program needs.
//!
//! A scenario opts out with `in_place = true` (the program must see the real folder: it
//! reads files the copy leaves out, or the recording is meant to change them); docs/scenarios.md
//! says when. What the copy costs is measured in docs/performance.md ("The working folder").

use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The most files a working folder's copy may hold.
pub(crate) const MAX_FILES: usize = 10_000;

/// The most bytes a working folder's copy may hold (256 MiB).
pub(crate) const MAX_BYTES: u64 = 256 << 20;

/// A fresh copy of a working folder, removed when dropped.
#[derive(Debug)]
pub(crate) struct WorkCopy {
    /// The temporary folder holding the copy (removed whole).
    root: PathBuf,
    /// The copy of the working folder itself (inside `root`).
    cwd: PathBuf,
}

/// Why a working folder could not be copied.
#[derive(Debug)]
pub struct WorkdirError {
    /// The working folder.
    pub folder: PathBuf,
    /// What went wrong, as a sentence.
    pub message: String,
}

impl std::fmt::Display for WorkdirError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the working folder {} cannot be copied for the recording: {}",
            crate::escape::escape_for_terminal(&self.folder.display().to_string(), 300),
            self.message
        )
    }
}

impl std::error::Error for WorkdirError {}

impl WorkCopy {
    /// Copies `folder` (see the module docs) into a new private temporary folder.
    pub(crate) fn new(folder: &Path) -> Result<WorkCopy, WorkdirError> {
        let err = |message: String| WorkdirError {
            folder: folder.to_path_buf(),
            message,
        };
        let folder = std::fs::canonicalize(folder).map_err(|e| err(e.to_string()))?;
        sweep_stale_copies();
        let mut files = list_files(&folder).map_err(|e| err(e.to_string()))?;
        // The temporary folder may be inside the working folder (TMPDIR set there): other
        // recordings' copies there are not the project's files, and copying them grew each
        // copy by all the earlier ones.
        if let Ok(tmp) = std::fs::canonicalize(std::env::temp_dir()) {
            if let Ok(rel) = tmp.strip_prefix(&folder) {
                files.retain(|f| {
                    f.strip_prefix(rel).map_or(true, |in_tmp| {
                        !in_tmp
                            .components()
                            .next()
                            .is_some_and(|c| c.as_os_str().to_string_lossy().starts_with(PREFIX))
                    })
                });
            }
        }
        if files.len() > MAX_FILES {
            return Err(err(format!(
                "it holds more than {MAX_FILES} files (point `cwd` at a fixture folder, or set \
                 `in_place = true` to run in the folder itself)"
            )));
        }
        let root = temp_folder().map_err(|e| err(format!("a temporary folder: {e}")))?;
        let name = folder.file_name().map_or("work".into(), |n| n.to_owned());
        let copy = WorkCopy {
            cwd: root.join(name),
            root,
        };
        std::fs::create_dir(&copy.cwd).map_err(|e| err(e.to_string()))?;
        let mut bytes = 0u64;
        for rel in &files {
            let from = folder.join(rel);
            let to = copy.cwd.join(rel);
            let Ok(meta) = std::fs::symlink_metadata(&from) else {
                continue; // tracked but deleted in the work tree
            };
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(|e| err(e.to_string()))?;
            }
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&from).map_err(|e| err(e.to_string()))?;
                if !stays_inside(rel, &target) {
                    return Err(err(format!(
                        "{} is a link out of it, to {} (the program could change what it \
                         points to: make it a file, or set `in_place = true`)",
                        crate::escape::escape_for_terminal(&rel.display().to_string(), 300),
                        crate::escape::escape_for_terminal(&target.display().to_string(), 300)
                    )));
                }
                std::os::unix::fs::symlink(&target, &to).map_err(|e| err(e.to_string()))?;
            } else if meta.is_file() {
                bytes += meta.len();
                if bytes > MAX_BYTES {
                    return Err(err(format!(
                        "it holds more than {} MiB (point `cwd` at a fixture folder, or set \
                         `in_place = true` to run in the folder itself)",
                        MAX_BYTES >> 20
                    )));
                }
                std::fs::copy(&from, &to).map_err(|e| err(format!("{}: {e}", rel.display())))?;
            }
        }
        if let Some(modules) = folder
            .ancestors()
            .map(|d| d.join("node_modules"))
            .find(|m| m.is_dir())
        {
            let link = copy.cwd.join("node_modules");
            if std::fs::symlink_metadata(&link).is_err() {
                std::os::unix::fs::symlink(&modules, &link).map_err(|e| err(e.to_string()))?;
            }
        }
        Ok(copy)
    }

    /// The copy of the working folder: the program's working folder.
    pub(crate) fn cwd(&self) -> &Path {
        &self.cwd
    }
}

impl Drop for WorkCopy {
    fn drop(&mut self) {
        // `remove_dir_all` removes links, never what they point to.
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Points `argv` at the original folder `cwd` where it names code the copy may lack: a program
/// named by a relative path (`target/debug/app`: build output is not copied), and an argument
/// that is a relative path out of the folder to a file there (`python3 ../app.py` from
/// `casts/`: the script beside the project's scenarios). Data the program opens by itself
/// stays the copy's.
pub(crate) fn run_from_original(argv: &mut [String], cwd: &Path) {
    let Some((program, args)) = argv.split_first_mut() else {
        return;
    };
    if program.contains('/') && Path::new(program.as_str()).is_relative() {
        *program = cwd.join(&*program).display().to_string();
    }
    for arg in args {
        let path = Path::new(arg.as_str());
        if !arg.starts_with('-')
            && path.is_relative()
            && !stays_inside(Path::new("x"), path)
            && cwd.join(path).is_file()
        {
            *arg = cwd.join(path).display().to_string();
        }
    }
}

/// The files to copy, relative to `folder`.
fn list_files(folder: &Path) -> io::Result<Vec<PathBuf>> {
    let git = std::process::Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(folder)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    if let Some(out) = git.ok().filter(|o| o.status.success()) {
        let mut files: Vec<PathBuf> = out
            .stdout
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| PathBuf::from(String::from_utf8_lossy(p).into_owned()))
            .filter(|p| p.components().all(|c| matches!(c, Component::Normal(_))))
            .collect();
        files.dedup();
        return Ok(files);
    }
    let mut files = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(rel) = pending.pop() {
        for entry in std::fs::read_dir(folder.join(&rel))? {
            let entry = entry?;
            let name = entry.file_name();
            let path = rel.join(&name);
            let kind = entry.file_type()?;
            if matches!(name.to_str(), Some(".git" | "target" | "node_modules")) {
                continue;
            }
            if kind.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
                if files.len() > MAX_FILES {
                    return Ok(files);
                }
            }
        }
    }
    Ok(files)
}

/// Whether a link at `rel` (relative to the folder) pointing to `target` stays inside it.
fn stays_inside(rel: &Path, target: &Path) -> bool {
    if target.is_absolute() {
        return false;
    }
    let mut depth = rel.components().count() as i64 - 1;
    for c in target.components() {
        match c {
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            _ => return false,
        }
        if depth < 0 {
            return false;
        }
    }
    true
}

/// The name of every copy's temporary folder starts so, then the pid of the process that made it.
const PREFIX: &str = "tuicast-cwd-";

/// Removes the copies of recordings whose process is gone (killed before it could remove its
/// own): they would pile up in the temporary folder.
fn sweep_stale_copies() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        let alive = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None).is_ok();
        let ours = entry.metadata().is_ok_and(|m| {
            Ok(std::os::unix::fs::MetadataExt::uid(&m))
                == crate::util::current_uid().map_err(|_| ())
        });
        if !alive && ours && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A new private folder under the system's temporary folder.
fn temp_folder() -> io::Result<PathBuf> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    use std::os::unix::fs::DirBuilderExt;
    let base = std::env::temp_dir();
    for _ in 0..100 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = base.join(format!(
            "{PREFIX}{}-{}-{nanos:x}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name for a temporary folder",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_inside_the_folder_stay_and_links_out_do_not() {
        assert!(stays_inside(Path::new("a"), Path::new("b")));
        assert!(stays_inside(Path::new("d/a"), Path::new("../b")));
        assert!(!stays_inside(Path::new("a"), Path::new("../b")));
        assert!(!stays_inside(Path::new("d/a"), Path::new("../../b")));
        assert!(!stays_inside(Path::new("a"), Path::new("/etc/passwd")));
        assert!(!stays_inside(Path::new("d/a"), Path::new("x/../../../b")));
    }

    #[test]
    fn what_runs_is_the_original_and_data_stays_the_copys() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path().join("casts");
        std::fs::create_dir(&cwd).unwrap();
        std::fs::write(dir.path().join("app.py"), "").unwrap();
        std::fs::write(cwd.join("data.txt"), "").unwrap();
        let mut argv: Vec<String> = ["python3", "../app.py", "data.txt", "../missing", "-x"]
            .map(String::from)
            .to_vec();
        run_from_original(&mut argv, &cwd);
        let app = cwd.join("../app.py").display().to_string();
        assert_eq!(argv, ["python3", &app, "data.txt", "../missing", "-x"]);
        let mut argv = vec!["target/debug/app".to_string()];
        run_from_original(&mut argv, &cwd);
        assert_eq!(argv, [cwd.join("target/debug/app").display().to_string()]);
    }

    #[test]
    fn a_copy_holds_the_files_and_is_removed_after() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "hello\n").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/x"), "x").unwrap();
        std::os::unix::fs::symlink("notes.txt", dir.path().join("link")).unwrap();
        let copy = WorkCopy::new(dir.path()).unwrap();
        let cwd = copy.cwd().to_path_buf();
        assert_eq!(
            std::fs::read_to_string(cwd.join("notes.txt")).unwrap(),
            "hello\n"
        );
        assert_eq!(std::fs::read_to_string(cwd.join("sub/x")).unwrap(), "x");
        assert_eq!(
            std::fs::read_to_string(cwd.join("link")).unwrap(),
            "hello\n"
        );
        std::fs::write(cwd.join("notes.txt"), "changed").unwrap();
        drop(copy);
        assert!(!cwd.exists());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
            "hello\n"
        );
    }

    #[test]
    fn a_link_out_of_the_folder_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/etc/hostname", dir.path().join("leak")).unwrap();
        let e = WorkCopy::new(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("leak is a link out of it, to /etc/hostname"),
            "{e}"
        );
    }
}
