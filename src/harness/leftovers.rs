//! Leftovers: goldens no cast of the suite produces, in the same words under every runner
//! (`tuicast test`, `cargo test`, nextest and pytest, which reads `tuicast test`).
//!
//! Goldens whose cast is gone altogether (a suite moved or renamed, `git mv casts tests/casts`
//! without telling `tuicast.toml`) fail the run as the test [`LEFTOVERS_TEST`]: otherwise the
//! run finds no casts and passes, having checked nothing. Where a cast of the same name is
//! found elsewhere in the project, the message names the move and the `casts =` line that
//! follows it. Orphans of a cast that still exists (a checkpoint renamed or removed) and
//! temporary files of an interrupted write are a note ([`Leftovers::note`]), which every
//! runner prints.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::discover::Case;
use super::result::CheckResult;
use crate::assert;
use crate::config::Config;

/// The name of the test that fails when goldens belong to no cast at all.
pub const LEFTOVERS_TEST: &str = "@goldens";

/// How many folders the search for a moved cast looks through, and how deep.
const MAX_MOVE_SEARCH: (usize, usize) = (20_000, 8);

/// The goldens of the snapshots folder that no case produces, sorted out.
#[derive(Debug, Default, Clone)]
#[non_exhaustive]
pub struct Leftovers {
    /// Goldens no checkpoint produces whose cast exists (a checkpoint renamed or removed).
    pub orphans: Vec<PathBuf>,
    /// Goldens of casts that are gone, by their cast's stem: the files, and where a cast of
    /// that name is now (relative to the project), when one was found.
    pub gone: BTreeMap<String, (Vec<PathBuf>, Option<PathBuf>)>,
    /// Temporary files of an interrupted write.
    pub temporaries: Vec<PathBuf>,
}

/// The leftovers of the snapshots folder when `cases` are the whole suite (none while a case
/// cannot be read: its goldens cannot be named).
pub fn leftovers(config: &Config, cases: &[Case]) -> std::io::Result<Leftovers> {
    let temporaries = assert::pending::stale_temporaries(&config.snapshots)?;
    if cases.iter().any(|c| c.checkpoints.is_err()) {
        return Ok(Leftovers {
            temporaries,
            ..Leftovers::default()
        });
    }
    let found = super::discover::orphans(config, cases)?;
    let stems: HashSet<&str> = cases.iter().map(|c| c.stem.as_str()).collect();
    let mut out = Leftovers {
        temporaries,
        ..Leftovers::default()
    };
    for f in found {
        match assert::pending::golden_stem(&config.snapshots, &f) {
            Some(stem) if !stems.contains(stem.as_str()) => {
                out.gone.entry(stem).or_default().0.push(f)
            }
            _ => out.orphans.push(f),
        }
    }
    if !out.gone.is_empty() {
        let wanted: HashSet<String> = out.gone.keys().map(|s| format!("{s}.cast")).collect();
        for (stem, place) in moved_casts(config, &wanted) {
            if let Some(entry) = out.gone.get_mut(stem.trim_end_matches(".cast")) {
                entry.1 = Some(place);
            }
        }
    }
    Ok(out)
}

impl Leftovers {
    /// The failing result of goldens whose casts are gone (test [`LEFTOVERS_TEST`]), named
    /// after the project's `tuicast.toml`; `None` when there are none.
    pub fn failure(&self, config: &Config) -> Option<CheckResult> {
        if self.gone.is_empty() {
            return None;
        }
        let files: usize = self.gone.values().map(|(f, _)| f.len()).sum();
        let mut m = format!(
            "{files} golden(s) under {} belong to no cast: their casts are gone, so nothing \
             checks them\n",
            assert::shown_path(&config.snapshots)
        );
        let casts = assert::pending::relative_name(&config.root, &config.casts);
        let mut moved_to = BTreeMap::<String, usize>::new();
        for (stem, (files, now)) in &self.gone {
            let shown = crate::escape::escape_for_terminal(stem, 200);
            let _ = write!(
                m,
                "  {}/ ({} golden(s)): no {casts}/{shown}.cast",
                assert::shown_path(&config.snapshots.join(stem)),
                files.len()
            );
            match now {
                Some(p) => {
                    let _ = writeln!(
                        m,
                        "; {} is there",
                        crate::escape::escape_for_terminal(
                            &p.join(format!("{stem}.cast")).display().to_string(),
                            300
                        )
                    );
                    *moved_to
                        .entry(p.to_string_lossy().replace('\\', "/"))
                        .or_default() += 1;
                }
                None => m.push('\n'),
            }
        }
        match moved_to.keys().next() {
            Some(dir) if moved_to.len() == 1 => {
                let dir = crate::escape::escape_for_terminal(dir, 300);
                let _ = writeln!(
                    m,
                    "the casts moved from {casts}/ to {dir}/: to check them there, add \
                     `casts = \"{dir}\"` to {} (or move them back)",
                    assert::shown_path(&config.root.join(crate::config::CONFIG_FILE))
                );
            }
            _ => {
                let _ = writeln!(
                    m,
                    "a cast renamed, moved or removed leaves its goldens behind: point `casts =` \
                     in {} at the casts, or delete the goldens of casts that are gone",
                    assert::shown_path(&config.root.join(crate::config::CONFIG_FILE))
                );
            }
        }
        Some(CheckResult {
            test: LEFTOVERS_TEST.to_string(),
            cast: config.root.join(crate::config::CONFIG_FILE),
            checkpoint: String::new(),
            line: 0,
            time: 0.0,
            snapshots: Vec::new(),
            error: Some(m),
            bad_input: false,
            failure: None,
        })
    }

    /// The note on orphans of existing casts and temporary files, as every runner prints it
    /// (empty when there are none): shown relative to `cwd`.
    pub fn note(&self, cwd: &Path) -> String {
        let mut out = String::new();
        let list = |out: &mut String, heading: &str, files: &[PathBuf]| {
            let _ = writeln!(out, "{heading}");
            for f in files {
                let shown = f.strip_prefix(cwd).unwrap_or(f);
                let _ = writeln!(
                    out,
                    "  {}",
                    crate::escape::escape_for_terminal(&shown.display().to_string(), 300)
                );
            }
            let _ = writeln!(out, "remove them with: tuicast test --remove-orphans");
        };
        if !self.temporaries.is_empty() {
            let heading = format!(
                "{} temporary file(s) of an interrupted write found:",
                self.temporaries.len()
            );
            list(&mut out, &heading, &self.temporaries);
        }
        if !self.orphans.is_empty() {
            let heading = format!(
                "{} orphaned snapshot(s) found (no cast checkpoint produces them):",
                self.orphans.len()
            );
            list(&mut out, &heading, &self.orphans);
        }
        out
    }
}

/// Where the casts named in `wanted` (`stem.cast`, a stem may hold `/`) are in the project
/// outside its casts folder: stem → the folder (relative to the project) they are under.
/// Hidden folders, `target` and `node_modules` are skipped, no symlink followed, and the
/// search stops at [`MAX_MOVE_SEARCH`] (a move then goes unnamed, never a wrong one).
fn moved_casts(config: &Config, wanted: &HashSet<String>) -> Vec<(String, PathBuf)> {
    let (max_dirs, max_depth) = MAX_MOVE_SEARCH;
    let mut out = Vec::new();
    let mut queue = std::collections::VecDeque::from([(config.root.clone(), 0usize)]);
    let mut seen = 0;
    while let Some((dir, depth)) = queue.pop_front() {
        seen += 1;
        if seen > max_dirs {
            break;
        }
        if dir != config.casts {
            for name in wanted {
                let cast = dir.join(name);
                if cast.is_file() && !out.iter().any(|(n, _)| n == name) {
                    if let Ok(rel) = dir.strip_prefix(&config.root) {
                        out.push((name.clone(), rel.to_path_buf()));
                    }
                }
            }
        }
        if depth >= max_depth {
            continue;
        }
        let mut subs = crate::config::searched_subfolders(&dir);
        subs.retain(|p| *p != config.snapshots);
        queue.extend(subs.into_iter().map(|d| (d, depth + 1)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::discover::tests::{project, TWO};
    use crate::harness::{discover, LiveMode};

    #[test]
    fn goldens_of_a_moved_suite_fail_naming_the_move_and_orphans_of_a_cast_are_a_note() {
        let (dir, config) = project(&[
            ("tests/casts/two.cast", TWO),
            ("snapshots/two/first.txt", "x"),
            ("snapshots/two/end.txt", "x"),
            ("casts/three.cast", TWO),
            ("snapshots/three/first.txt", "x"),
            ("snapshots/three/end.txt", "x"),
            ("snapshots/three/renamed.txt", "x"),
        ]);
        let cases = discover(&config, &[], LiveMode::Auto);
        assert_eq!(cases.len(), 1, "only casts/three.cast");
        let l = leftovers(&config, &cases).unwrap();
        let failure = l.failure(&config).unwrap();
        assert_eq!(failure.test, LEFTOVERS_TEST);
        let m = failure.message();
        assert!(
            m.starts_with("2 golden(s) under ") && m.contains(" belong to no cast"),
            "{m}"
        );
        assert!(
            m.contains("two/ (2 golden(s)): no casts/two.cast; tests/casts/two.cast is there\n"),
            "{m}"
        );
        assert!(
            m.contains("the casts moved from casts/ to tests/casts/: to check them there, add `casts = \"tests/casts\"` to "),
            "{m}"
        );
        let note = l.note(dir.path());
        assert_eq!(
            note,
            "1 orphaned snapshot(s) found (no cast checkpoint produces them):\n  \
             snapshots/three/renamed.txt\nremove them with: tuicast test --remove-orphans\n"
        );

        // A cast removed, found nowhere: the failure says what to do without naming a move.
        std::fs::remove_file(dir.path().join("tests/casts/two.cast")).unwrap();
        let m = leftovers(&config, &cases)
            .unwrap()
            .failure(&config)
            .unwrap()
            .message();
        assert!(m.contains("no casts/two.cast\n"), "{m}");
        assert!(m.contains("a cast renamed, moved or removed"), "{m}");

        // With nothing left over, no failure and no note.
        std::fs::remove_dir_all(config.snapshots.join("two")).unwrap();
        std::fs::remove_file(config.snapshots.join("three/renamed.txt")).unwrap();
        let l = leftovers(&config, &cases).unwrap();
        assert!(l.failure(&config).is_none() && l.note(dir.path()).is_empty());
    }
}
