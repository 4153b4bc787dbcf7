//! Pending snapshots (`.new` files) and orphaned goldens: list, accept, reject.
//!
//! A [`Change`] is a `.cast.new` with its cast's `.new` snapshots, accepted or rejected
//! together.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

/// The folder of the snapshots folder where the new images of changed `[[screenshot]]`s wait
/// for review (`.screenshots/<output>.new`): tuicast writes nothing outside the snapshots
/// folder on its own, and accepting one writes its declared output ([`retarget_screenshots`]).
pub const SCREENSHOTS_DIR: &str = ".screenshots";

/// Points the pending files of [`SCREENSHOTS_DIR`] in `pending` (from [`list`] of the
/// snapshots folder `snapshots`) at the screenshot outputs they replace under the project
/// `root` (named `screenshot:<output>`); one whose output is no longer declared (not in
/// `outputs`, the names of the project's screenshots) is left out. One whose output is a
/// symbolic link or (through a linked folder) outside the project is refused: it is left out
/// too, and listed in the second list as (its name, why), for the caller to say.
pub fn retarget_screenshots(
    root: &Path,
    snapshots: &Path,
    outputs: &[String],
    pending: Vec<Pending>,
) -> (Vec<Pending>, Vec<(String, String)>) {
    let prefix = format!("{SCREENSHOTS_DIR}/");
    let mut refused = Vec::new();
    let kept = pending
        .into_iter()
        .filter_map(|mut p| {
            let Some(output) = p.name.strip_prefix(&prefix).map(str::to_string) else {
                return Some(p);
            };
            if !outputs.contains(&output) {
                return None;
            }
            let golden = root.join(&output);
            let name = format!("screenshot:{output}");
            if let Err(e) = check_destination(root, &golden) {
                refused.push((name, e.to_string()));
                return None;
            }
            debug_assert!(p.new.starts_with(snapshots));
            p.golden = golden;
            p.name = name;
            Some(p)
        })
        .collect();
    (kept, refused)
}

/// Refuses a destination outside `root` (after symbolic links) or one that is a symbolic link.
pub(crate) fn check_destination(root: &Path, output: &Path) -> Result<(), std::io::Error> {
    let refuse = |why: &str| {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "refusing to write {}: {why}",
                crate::escape::escape_for_terminal(&output.display().to_string(), 300)
            ),
        ))
    };
    if std::fs::symlink_metadata(output).is_ok_and(|m| m.file_type().is_symlink()) {
        return refuse("it is a symbolic link");
    }
    if !crate::util::is_inside(root, output) {
        return refuse("it is outside the project (after symbolic links)");
    }
    Ok(())
}

/// A `.new` file waiting for review.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Pending {
    /// The `.new` file.
    pub new: PathBuf,
    /// The golden it would replace (which may not exist yet).
    pub golden: PathBuf,
    /// The golden's path relative to the snapshots folder, `/`-separated (what filters match).
    pub name: String,
}

impl Pending {
    /// Replaces the golden with the pending file (atomically, by rename); a PNG golden's diff
    /// image goes too. A pending file that is a symbolic link (or no regular file) is refused:
    /// accepted, it would become a golden that points anywhere.
    pub fn accept(&self) -> io::Result<()> {
        let regular = std::fs::symlink_metadata(&self.new)?.file_type().is_file();
        if !regular {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: not accepted: a pending snapshot must be a regular file, not a symbolic link",
                    crate::escape::escape_for_terminal(&self.new.display().to_string(), 300)
                ),
            ));
        }
        if let Some(dir) = self.golden.parent() {
            // (A screenshot's output folder may not exist yet.)
            std::fs::create_dir_all(dir)?;
        }
        std::fs::rename(&self.new, &self.golden)?;
        let _ = std::fs::remove_file(super::diff_image_path(&self.golden));
        Ok(())
    }

    /// Deletes the pending file (and a PNG golden's diff image).
    pub fn reject(&self) -> io::Result<()> {
        std::fs::remove_file(&self.new)?;
        let _ = std::fs::remove_file(super::diff_image_path(&self.golden));
        Ok(())
    }

    /// The name as it may be printed: control and bidi characters escaped (a cloned
    /// repository chooses its file names).
    pub fn shown_name(&self) -> String {
        crate::escape::escape_for_terminal(&self.name, 300)
    }

    /// Whether `filter` selects this snapshot: no filter, or a substring of its name.
    pub fn matches(&self, filter: Option<&str>) -> bool {
        filter.is_none_or(|f| self.name.contains(f))
    }
}

/// One change to take or leave whole: a live recording (`casts/NAME.cast.new`) with the
/// `.new` snapshots of that cast, or a `.new` snapshot of its own. Accepting any part of a
/// recording's change accepts all of it: a golden taken from a new recording without the
/// recording itself fails the next replay.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Change {
    /// The live recording, when there is one.
    pub cast: Option<Pending>,
    /// Its `.new` snapshots (or the one snapshot of a change without a recording).
    pub snapshots: Vec<Pending>,
}

impl Change {
    /// Its name: the recording's (`casts/NAME.cast`), else the snapshot's.
    pub fn name(&self) -> &str {
        match (&self.cast, self.snapshots.first()) {
            (Some(c), _) => &c.name,
            (None, Some(s)) => &s.name,
            (None, None) => "",
        }
    }

    /// Every pending file of the change: the snapshots, then the recording.
    pub fn items(&self) -> impl Iterator<Item = &Pending> {
        self.snapshots.iter().chain(self.cast.iter())
    }

    /// Whether `filter` selects any part of the change (no filter selects all).
    pub fn matches(&self, filter: Option<&str>) -> bool {
        self.items().any(|p| p.matches(filter))
    }

    /// Accepts every part: the snapshots first, the recording last (an interrupted accept
    /// leaves the recording pending, to be accepted again).
    pub fn accept(&self) -> io::Result<()> {
        self.items().try_for_each(Pending::accept)
    }

    /// Rejects every part.
    pub fn reject(&self) -> io::Result<()> {
        self.items().try_for_each(Pending::reject)
    }
}

/// Groups pending files into [`Change`]s: each recording of `recordings` (pending files whose
/// golden is `<casts>/STEM.cast`) takes the snapshots of `snapshots` under `<snapshots
/// folder>/STEM/`; the other snapshots are a change each. Sorted by name.
pub fn group(
    snapshots_dir: &Path,
    snapshots: Vec<Pending>,
    casts_dir: &Path,
    recordings: Vec<Pending>,
) -> Vec<Change> {
    let mut changes: Vec<Change> = recordings
        .into_iter()
        .map(|cast| Change {
            cast: Some(cast),
            snapshots: Vec::new(),
        })
        .collect();
    let stem_of_cast = |c: &Change| {
        c.cast.as_ref().map(|p| {
            let rel = relative_name(casts_dir, &p.golden);
            rel.strip_suffix(".cast").unwrap_or(&rel).to_string()
        })
    };
    let stems: Vec<Option<String>> = changes.iter().map(stem_of_cast).collect();
    let mut alone = Vec::new();
    for s in snapshots {
        let stem = golden_stem(snapshots_dir, &s.golden);
        match stems.iter().position(|c| c.is_some() && *c == stem) {
            Some(i) => changes[i].snapshots.push(s),
            None => alone.push(Change {
                cast: None,
                snapshots: vec![s],
            }),
        }
    }
    changes.extend(alone);
    changes.sort_by(|a, b| a.name().cmp(b.name()));
    changes
}

/// Every `.new` file under `snapshots`, sorted by name.
pub fn list(snapshots: &Path) -> io::Result<Vec<Pending>> {
    let mut out = Vec::new();
    for file in files(snapshots)? {
        let Some(golden) = file
            .to_str()
            .and_then(|s| s.strip_suffix(".new"))
            .map(PathBuf::from)
        else {
            continue;
        };
        let name = relative_name(snapshots, &golden);
        out.push(Pending {
            new: file,
            golden,
            name,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Goldens under `snapshots` that no cast checkpoint produces (`expected` holds the goldens
/// that are produced), sorted. Only files shaped like a golden tuicast writes count: a
/// sanitized checkpoint name with a snapshot extension (`.txt`, `.styled.txt`, `.png`) in a
/// cast's folder; anything else in the folder is none of tuicast's business. The changes
/// picture of an expected PNG golden (`end.png.diff.png`, which a mismatch writes) is no
/// orphan either: removing it would delete what the failure message points at.
pub fn orphans(snapshots: &Path, expected: &HashSet<PathBuf>) -> io::Result<Vec<PathBuf>> {
    let changes_of_expected = |f: &Path| {
        f.to_str()
            .and_then(|s| s.strip_suffix(".diff.png"))
            .is_some_and(|golden| expected.contains(Path::new(golden)))
    };
    let mut out: Vec<PathBuf> = files(snapshots)?
        .into_iter()
        .filter(|f| {
            golden_stem(snapshots, f).is_some() && !expected.contains(f) && !changes_of_expected(f)
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Temporary files of atomic writes left under `snapshots` by a process that no longer runs
/// (killed while writing a golden): `.NAME.tmpPID`, sorted. Never a golden themselves.
pub fn stale_temporaries(snapshots: &Path) -> io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = hidden_files(snapshots)?
        .into_iter()
        .filter(|f| {
            let pid = f
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(crate::util::temporary_pid);
            pid.is_some_and(|pid| !crate::util::process_alive(pid))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Why orphans are not removed from a snapshots folder: it is the project itself, holds the
/// casts, or lies outside the project. A `tuicast.toml` from a cloned repository chooses the
/// folder, so removal never trusts it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnsafeSnapshotsFolder {
    /// The snapshots folder.
    pub snapshots: PathBuf,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl std::fmt::Display for UnsafeSnapshotsFolder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "refusing to remove orphaned snapshots: the snapshots folder {} {}; set `snapshots` \
             in tuicast.toml to a folder of its own inside the project",
            crate::escape::escape_for_terminal(&self.snapshots.display().to_string(), 300),
            self.reason
        )
    }
}

impl std::error::Error for UnsafeSnapshotsFolder {}

/// Checks that orphans may be removed from `snapshots`: a folder inside the project `root`,
/// not the root itself, and neither the `casts` folder nor one containing it or inside it
/// (compared after resolving symlinks).
pub fn check_removable(
    root: &Path,
    casts: &Path,
    snapshots: &Path,
) -> Result<(), UnsafeSnapshotsFolder> {
    let resolve = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (root_r, casts_r, snap_r) = (resolve(root), resolve(casts), resolve(snapshots));
    let refuse = |reason| {
        Err(UnsafeSnapshotsFolder {
            snapshots: snapshots.to_path_buf(),
            reason,
        })
    };
    if snap_r == root_r || root_r.starts_with(&snap_r) {
        return refuse("is the project folder (or holds it)");
    }
    if !snap_r.starts_with(&root_r) {
        return refuse("is outside the project");
    }
    if casts_r.starts_with(&snap_r) || snap_r.starts_with(&casts_r) {
        return refuse("overlaps the casts folder");
    }
    Ok(())
}

/// Removes the orphans that belong to a cast of `stems` (the stems of the suite's casts):
/// golden-shaped files that tuicast itself would write for a known cast. The folder is
/// checked first ([`check_removable`]). Returns the removed files and those kept (a golden of
/// a cast that no longer exists: delete its folder by hand).
pub fn remove_orphans(
    root: &Path,
    casts: &Path,
    snapshots: &Path,
    orphans: &[PathBuf],
    stems: &HashSet<String>,
) -> Result<(Vec<PathBuf>, Vec<PathBuf>), RemoveError> {
    check_removable(root, casts, snapshots).map_err(RemoveError::Unsafe)?;
    let (mut removed, mut kept) = (Vec::new(), Vec::new());
    for o in orphans {
        let known = golden_stem(snapshots, o).is_some_and(|stem| stems.contains(&stem));
        // Only a regular file, not a symlink that might point anywhere.
        let regular = std::fs::symlink_metadata(o).is_ok_and(|m| m.file_type().is_file());
        if known && regular {
            std::fs::remove_file(o).map_err(|e| RemoveError::Io(o.clone(), e))?;
            removed.push(o.clone());
        } else {
            kept.push(o.clone());
        }
    }
    Ok((removed, kept))
}

/// Why [`remove_orphans`] stopped.
#[derive(Debug)]
#[non_exhaustive]
pub enum RemoveError {
    /// The snapshots folder is not one to remove files from.
    Unsafe(UnsafeSnapshotsFolder),
    /// Removing this file failed.
    Io(PathBuf, io::Error),
}

impl std::fmt::Display for RemoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RemoveError::Unsafe(e) => e.fmt(f),
            RemoveError::Io(p, e) => write!(
                f,
                "cannot remove {}: {e}",
                crate::escape::escape_for_terminal(&p.display().to_string(), 300)
            ),
        }
    }
}

impl std::error::Error for RemoveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RemoveError::Unsafe(e) => Some(e),
            RemoveError::Io(_, e) => Some(e),
        }
    }
}

/// The cast stem of a golden-shaped file under `snapshots` (`<stem>/<name>.<format>`, `name`
/// as [`super::sanitize`] makes it), or `None` for anything else.
pub(crate) fn golden_stem(snapshots: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(snapshots).ok()?;
    let name = rel.file_name()?.to_str()?;
    let (base, _) = super::Format::of_name(name)?;
    if base.is_empty() || super::sanitize(base) != base {
        return None;
    }
    let parent = rel.parent()?;
    let parts: Vec<&str> = parent
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<_>>()?;
    if parts.is_empty() || parts.iter().any(|p| super::sanitize(p) != *p) {
        return None;
    }
    Some(parts.join("/"))
}

/// `path` relative to `base`, `/`-separated.
pub fn relative_name(base: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Every regular file under `dir` whose name starts with `.`, recursively.
fn hidden_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    Ok(files(dir)?
        .into_iter()
        .filter(|f| {
            f.file_name()
                .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."))
        })
        .collect())
}

/// Every regular file under `dir`, recursively (none when `dir` does not exist).
fn files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for entry in entries {
            let entry = entry?;
            let ty = entry.file_type()?;
            if ty.is_dir() {
                stack.push(entry.path());
            } else if ty.is_file() {
                out.push(entry.path());
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recording_and_the_snapshots_of_its_cast_are_one_change() {
        let dir = tempfile::tempdir().unwrap();
        let (casts, snaps) = (dir.path().join("casts"), dir.path().join("snapshots"));
        for f in [
            "casts/sub/a.cast.new",
            "snapshots/sub/a/one.txt.new",
            "snapshots/sub/a/end.styled.txt.new",
            "snapshots/b/end.txt.new",
        ] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        }
        std::fs::write(snaps.join("sub/a/one.txt"), "old").unwrap();
        let mut recordings = list(&casts).unwrap();
        for r in &mut recordings {
            r.name = format!("casts/{}", r.name);
        }
        let changes = group(&snaps, list(&snaps).unwrap(), &casts, recordings);
        let names: Vec<Vec<&str>> = changes
            .iter()
            .map(|c| c.items().map(|p| p.name.as_str()).collect())
            .collect();
        assert_eq!(
            names,
            [
                vec!["b/end.txt"],
                vec!["sub/a/end.styled.txt", "sub/a/one.txt", "casts/sub/a.cast"]
            ]
        );
        assert!(
            changes[1].matches(Some("a/one.txt")),
            "a snapshot selects its recording"
        );
        changes[1].accept().unwrap();
        assert_eq!(
            std::fs::read_to_string(snaps.join("sub/a/one.txt")).unwrap(),
            "x"
        );
        assert!(casts.join("sub/a.cast").exists() && !casts.join("sub/a.cast.new").exists());
        changes[0].reject().unwrap();
        assert!(list(&snaps).unwrap().is_empty());
    }
}
