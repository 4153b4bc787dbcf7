//! `tuicast accept --from DIR`: the changes a CI run left in a report folder, applied to the
//! local goldens they were computed from.

use std::fmt;
use std::path::{Component, Path, PathBuf};

use super::data::{content_hash, SnapshotData};
use super::ReportDir;

/// A golden written from a report.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Accepted {
    /// The golden's name under the snapshots folder.
    pub name: String,
    /// The file written.
    pub path: PathBuf,
    /// Whether it was new (no golden before).
    pub created: bool,
}

/// Why a report's changes were not applied. Nothing is written when any change is refused.
#[derive(Debug)]
#[non_exhaustive]
pub enum AcceptError {
    /// The folder's data could not be read, or a golden not written.
    Io(PathBuf, std::io::Error),
    /// Goldens that changed (or appeared, or went away) since the report compared them: each
    /// with what changed.
    Stale(Vec<(PathBuf, &'static str)>),
    /// A name in the report that is not a golden's path under the snapshots folder.
    BadName(String),
    /// A PNG change whose picture is not in the folder.
    NoPicture(String),
}

impl fmt::Display for AcceptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |p: &Path| crate::escape::escape_for_terminal(&p.display().to_string(), 300);
        match self {
            AcceptError::Io(p, e) => write!(f, "{}: {e}", shown(p)),
            AcceptError::Stale(list) => {
                writeln!(
                    f,
                    "refused: {} golden(s) changed since the report was made, nothing was written:",
                    list.len()
                )?;
                for (p, why) in list {
                    writeln!(f, "  {} ({why})", shown(p))?;
                }
                write!(f, "run the tests again here and review with tuicast review")
            }
            AcceptError::BadName(n) => write!(
                f,
                "the report names {:?}, which is not a golden under the snapshots folder",
                crate::escape::escape_for_terminal(n, 200)
            ),
            AcceptError::NoPicture(n) => write!(
                f,
                "the report has no actual picture for {}",
                crate::escape::escape_for_terminal(n, 200)
            ),
        }
    }
}

impl std::error::Error for AcceptError {}

/// Applies every failing golden of the report in `dir` whose name contains one of `filters`
/// (all when empty) to `snapshots`: each only if the local golden is still the one the report
/// compared with (same content hash, or still missing); otherwise nothing is written.
pub fn accept_from(
    dir: &Path,
    snapshots: &Path,
    filters: &[String],
) -> Result<Vec<Accepted>, AcceptError> {
    let report = ReportDir::new(dir);
    let casts = report
        .read()
        .map_err(|e| AcceptError::Io(dir.join("data"), e))?;
    // The latest result of each golden.
    let mut changes: std::collections::BTreeMap<String, SnapshotData> = Default::default();
    for cast in &casts {
        for r in &cast.results {
            for s in &r.snapshots {
                if filters.is_empty() || filters.iter().any(|f| s.name.contains(f.as_str())) {
                    changes.insert(s.name.clone(), s.clone());
                }
            }
        }
    }
    let mut stale = Vec::new();
    let mut planned = Vec::new();
    for (name, s) in &changes {
        let rel = Path::new(name);
        if name.is_empty() || !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(AcceptError::BadName(name.clone()));
        }
        let path = snapshots.join(rel);
        let now = match std::fs::read(&path) {
            Ok(bytes) => Some(content_hash(&bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(AcceptError::Io(path, e)),
        };
        match (&s.golden_hash, &now) {
            (a, b) if a == b => {}
            (None, Some(_)) => stale.push((path.clone(), "a golden was written since")),
            (Some(_), None) => stale.push((path.clone(), "the golden was removed since")),
            _ => stale.push((path.clone(), "the golden changed since")),
        }
        let content = if s.format.is_binary() {
            let file = s
                .images
                .actual
                .as_deref()
                .filter(|f| !f.contains('/') && !f.starts_with('.'))
                .ok_or_else(|| AcceptError::NoPicture(name.clone()))?;
            let from = dir.join("files").join(file);
            std::fs::read(&from).map_err(|e| AcceptError::Io(from, e))?
        } else {
            s.actual.clone().into_bytes()
        };
        planned.push((name.clone(), path, content, now.is_none()));
    }
    if !stale.is_empty() {
        return Err(AcceptError::Stale(stale));
    }
    let mut done = Vec::new();
    for (name, path, content, created) in planned {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| AcceptError::Io(parent.into(), e))?;
        }
        crate::util::write_atomic(&path, &content).map_err(|e| AcceptError::Io(path.clone(), e))?;
        // A `.new` from a local run is now outdated.
        let _ = std::fs::remove_file(crate::assert::pending_path(&path));
        done.push(Accepted {
            name,
            path,
            created,
        });
    }
    Ok(done)
}
