//! Pending snapshots (`.new` files) and orphaned goldens: list, accept, reject.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

/// A `.new` file waiting for review.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// image goes too.
    pub fn accept(&self) -> io::Result<()> {
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

    /// Whether `filter` selects this snapshot: no filter, or a substring of its name.
    pub fn matches(&self, filter: Option<&str>) -> bool {
        filter.is_none_or(|f| self.name.contains(f))
    }
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
/// that are produced), sorted.
pub fn orphans(snapshots: &Path, expected: &HashSet<PathBuf>) -> io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = files(snapshots)?
        .into_iter()
        .filter(|f| {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            !name.ends_with(".new")
                && !name.ends_with(".diff.png")
                && !name.starts_with('.')
                && !expected.contains(f)
        })
        .collect();
    out.sort();
    Ok(out)
}

/// `path` relative to `base`, `/`-separated.
pub fn relative_name(base: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
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
