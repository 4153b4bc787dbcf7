//! The HTML test report: `tuicast test --report DIR`, or `TUICAST_REPORT=DIR` under
//! `cargo test` and cargo-nextest.
//!
//! Each process writes its results as JSON files in `DIR/data/` (one per cast, by the trial
//! or check that replayed it; each written atomically, so a reader sees whole files only),
//! then regenerates `DIR/index.html` from all of them under a lock file: many processes
//! adding to one folder make one page. The page is self-contained (styles, script and frames
//! inline; PNG pictures as files in `DIR/files/`) and makes no request.
//!
//! A failing golden keeps the actual render and a hash of the golden it was compared with,
//! so [`accept_from`] can apply the change in another checkout (`tuicast accept --from DIR`)
//! and refuse it when that golden changed since.
//!
//! [`ReportDir`] writes only into a new or empty folder or one it marked with
//! `tuicast-report.txt` naming that very folder, and none that holds a symbolic link
//! (`ReportDir::claim`); a failed live case's recording is carried in
//! `files/`, and each cast's project is named relative to the repository ([`repository_root`]).

mod accept;
mod data;
mod grid;
mod html;
mod player;
mod summary;
mod svg_check;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub use accept::{
    accept_from, accept_from_project, plan_accept_from, AcceptError, AcceptPlan, Accepted,
    ProjectCasts,
};
pub use data::{content_hash, CastData, Images, NewCast, ResultData, ShotData, SnapshotData};
pub use html::Counts;
pub use player::{player, Frame, LiveInfo, Marker, Player, Run, StepInfo};
pub use summary::markdown_summary;

use crate::assert::Mask;
use crate::config::Config;

/// What the report needs to know of a checked cast besides its results.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct CaseInfo<'a> {
    /// The cast's stem (its name in test names).
    pub stem: &'a str,
    /// The cast file (replayed again for the player of a failing cast).
    pub cast: &'a Path,
    /// The masks of its checks (applied to pictures drawn for the report).
    pub masks: &'a [Mask],
    /// When it was recorded live: the recording the player plays, and the steps.
    pub live: Option<&'a LiveInfo>,
    /// The engine its checkpoints replay with.
    pub engine: crate::term::EngineSpec,
}

/// The repository a report is made in, at or above `dir`: the nearest folder holding a
/// version control's folder (`.git`, also a worktree's `.git` file, `.jj`, `.hg`, `.svn`), or
/// else the outermost one whose `Cargo.toml` is a `[workspace]`, so that a report's paths are
/// relative to one folder wherever in the checkout it is made and `accept --from` applies
/// from anywhere in it (a workspace root, a member, any folder below).
pub fn repository_root(dir: &Path) -> Option<PathBuf> {
    let dir = crate::util::resolved(dir);
    let vcs = [".git", ".jj", ".hg", ".svn"];
    if let Some(d) = dir
        .ancestors()
        .find(|d| vcs.iter().any(|v| d.join(v).exists()))
    {
        return Some(d.to_path_buf());
    }
    dir.ancestors()
        .filter(|d| {
            crate::config::read_toml_file(&d.join("Cargo.toml")).is_ok_and(|text| {
                text.parse::<toml::Table>()
                    .is_ok_and(|t| t.contains_key("workspace"))
            })
        })
        .last()
        .map(Path::to_path_buf)
}

/// `root`, a project's folder, relative to its repository's (empty when they are one or
/// there is no repository).
fn project_in_repository(root: &Path) -> String {
    let root = crate::util::resolved(root);
    repository_root(&root)
        .and_then(|repo| root.strip_prefix(&repo).ok().map(Path::to_path_buf))
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

/// The largest live recording a report carries (and `accept --from` takes back).
pub const MAX_CARRIED_CAST: u64 = 64 << 20;

/// The environment variable that names a report folder for `cargo test` / nextest runs.
pub const REPORT_ENV: &str = "TUICAST_REPORT";

/// The largest data file read back (a hostile or broken folder cannot exhaust memory).
pub(crate) const MAX_DATA_BYTES: u64 = 256 * 1024 * 1024;

/// The file that marks a folder as a report tuicast made: `tuicast test --report DIR` and
/// `TUICAST_REPORT=DIR` write into a folder only when it is new, empty or holds it, because
/// writing a report replaces `DIR/index.html` and `tuicast test --report` removes `DIR/data/`
/// and `DIR/files/` (`--report .` or `--report docs` would delete a project's own files). Not
/// a hidden name, so that CI artifact uploads, which leave hidden files out, keep it.
///
/// A file of that name is not enough: its last line must name the very folder it is in, by
/// the folder's device, inode and time of birth ([`ReportDir::claim`]), which only a process
/// on this machine that made or saw the folder knows. A report committed to a repository
/// (or copied, or downloaded) names another folder, so it is no report of this run's, and a
/// pull request cannot plant one that tuicast then writes into and an Action uploads.
pub const REPORT_MARKER: &str = "tuicast-report.txt";

/// What the marker file says to a person who finds it (its last line, the proof, follows).
const MARKER_TEXT: &str =
    "This folder is a tuicast report (tuicast test --report, TUICAST_REPORT).\n\
    tuicast replaces index.html, data/ and files/ here on every run.\n";

/// The start of the marker's last line: the folder it was written in.
const MARKER_PROOF: &str = "folder: ";

/// The most entries a report folder may hold (every one is looked at for links before
/// tuicast writes there).
pub const MAX_REPORT_ENTRIES: usize = 1_000_000;

/// A report folder that checks add their results to.
#[derive(Debug, Clone)]
pub struct ReportDir {
    dir: PathBuf,
}

/// What [`ReportDir::merge_from`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Merged {
    /// Files added.
    pub added: usize,
    /// Files of the same name this folder had already (kept).
    pub kept: usize,
    /// Entries not taken, each with why (a symbolic link, not a regular file, too large, a
    /// name tuicast does not write).
    pub refused: Vec<String>,
}

impl ReportDir {
    /// The folder `dir` (made when results are first added).
    pub fn new(dir: impl Into<PathBuf>) -> ReportDir {
        ReportDir { dir: dir.into() }
    }

    /// The folder of `TUICAST_REPORT`, when it is set and not empty.
    pub fn from_env() -> Option<ReportDir> {
        std::env::var_os(REPORT_ENV)
            .filter(|v| !v.is_empty())
            .map(ReportDir::new)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The page: `DIR/index.html`.
    pub fn index(&self) -> PathBuf {
        self.dir.join("index.html")
    }

    /// Makes sure the folder is one tuicast may write a report into, and marks it: a folder
    /// that does not exist yet (made here), an empty one, or one whose [`REPORT_MARKER`]
    /// proves that tuicast made it here (its last line names this folder's device, inode and
    /// birth). Any other folder is refused with an error that says so: writing a report
    /// replaces files in it. So is a folder that is a symbolic link or holds one anywhere
    /// (a link kept in a report would be followed by whatever reads or uploads it). Every
    /// write of this type checks it first (the walk for links once per process and folder).
    pub fn claim(&self) -> io::Result<()> {
        if !self.marked()? {
            match std::fs::read_dir(&self.dir).map(|mut entries| entries.next().is_some()) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    std::fs::create_dir_all(&self.dir)?
                }
                Err(e) if self.dir.exists() && !self.dir.is_dir() => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("{}: is not a folder ({e})", self.shown()),
                    ))
                }
                Err(e) => return Err(e),
                // Another process may have claimed it since the first look: its marker is the
                // first file it writes, so a folder with files and no marker is no report.
                Ok(true) if !self.marked()? && !self.marked_soon()? => {
                    let why = if self.dir.join(REPORT_MARKER).exists() {
                        format!(
                            "its {REPORT_MARKER} was not written in this folder by tuicast (a \
                             report committed, copied or downloaded names the folder it was \
                             made in)"
                        )
                    } else {
                        format!("it holds files and no {REPORT_MARKER}")
                    };
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "{}: not a report folder tuicast made ({why}); a report is written \
                             only into a new or empty folder, or one an earlier report made \
                             here, because it replaces index.html, data/ and files/ there: \
                             name another folder (`tuicast report NEW FROM...` gathers copied \
                             reports into a new one)",
                            self.shown()
                        ),
                    ));
                }
                Ok(_) => {}
            }
            if !self.marked()? {
                self.mark()?;
            }
        }
        self.refuse_links()
    }

    /// Writes the marker with its proof (through a temporary file, so a reader sees it whole).
    fn mark(&self) -> io::Result<()> {
        let Some(proof) = folder_proof(&self.dir)? else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: is a symbolic link, not a folder", self.shown()),
            ));
        };
        write_replacing(
            &self.dir.join(REPORT_MARKER),
            format!("{MARKER_TEXT}{MARKER_PROOF}{proof}\n").as_bytes(),
        )
    }

    /// Whether the folder holds a marker that proves it, as a regular file (a link is
    /// refused: it would make any folder look like a report).
    fn marked(&self) -> io::Result<bool> {
        let path = self.dir.join(REPORT_MARKER);
        let mut read = crate::util::read_regular_nofollow(&path, 4096);
        // Another process of the same run marking the folder at this moment replaces the
        // marker between our open and our look at it: read it again while what is there is a
        // regular file.
        for _ in 0..50 {
            match &read {
                Err(e)
                    if e.kind() == io::ErrorKind::InvalidInput
                        && std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                    read = crate::util::read_regular_nofollow(&path, 4096);
                }
                _ => break,
            }
        }
        let text = match read {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) if e.kind() == io::ErrorKind::InvalidInput => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{}: its {REPORT_MARKER} is not a regular file ({e}), so it is no \
                         report folder",
                        self.shown()
                    ),
                ))
            }
            // Too large, or under a path that is no folder: `claim` says what is wrong.
            Err(_) => return Ok(false),
        };
        let proof = String::from_utf8_lossy(&text)
            .lines()
            .last()
            .and_then(|l| l.strip_prefix(MARKER_PROOF))
            .map(str::to_string);
        Ok(proof.is_some() && proof == folder_proof(&self.dir)?)
    }

    /// Whether another process that is marking the folder right now (it holds only the
    /// marker or its temporary file) finishes within 200 ms: processes of one `cargo test`
    /// start on one new folder at once.
    fn marked_soon(&self) -> io::Result<bool> {
        let tmp = format!(".{REPORT_MARKER}.tmp");
        for _ in 0..20 {
            let only_marker = std::fs::read_dir(&self.dir)?.all(|e| {
                e.ok().is_some_and(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    name == REPORT_MARKER || name.starts_with(&tmp)
                })
            });
            if !only_marker {
                return Ok(false);
            }
            std::thread::sleep(Duration::from_millis(10));
            if self.marked()? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Refuses the folder when it is a symbolic link or holds one at any depth (looked at
    /// once per process and folder: what this process writes there is no link).
    fn refuse_links(&self) -> io::Result<()> {
        static CHECKED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
        let key = crate::util::resolved(&self.dir);
        let mut checked = CHECKED.lock().unwrap_or_else(|e| e.into_inner());
        if checked.contains(&key) {
            return Ok(());
        }
        let mut pending = vec![self.dir.clone()];
        let mut seen = 0usize;
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir)? {
                let entry = entry?;
                seen += 1;
                if seen > MAX_REPORT_ENTRIES {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "{}: holds more than {MAX_REPORT_ENTRIES} entries, more than a \
                             report writes",
                            self.shown()
                        ),
                    ));
                }
                let kind = entry.file_type()?;
                if kind.is_symlink() {
                    let path = entry.path();
                    let shown = path
                        .strip_prefix(&self.dir)
                        .unwrap_or(&path)
                        .display()
                        .to_string();
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "{}: holds a symbolic link, {}, so tuicast writes no report there \
                             (a link in a report would be followed by what reads or uploads \
                             it): remove the folder",
                            self.shown(),
                            crate::escape::escape_for_terminal(&shown, 200)
                        ),
                    ));
                }
                if kind.is_dir() {
                    pending.push(entry.path());
                }
            }
        }
        checked.push(key);
        Ok(())
    }

    /// The folder as messages show it.
    fn shown(&self) -> String {
        crate::escape::escape_for_terminal(&self.dir.display().to_string(), 300)
    }

    /// Removes the data of earlier runs (`tuicast test --report` starts a report afresh),
    /// once the folder is [claimed](ReportDir::claim).
    pub fn clear(&self) -> io::Result<()> {
        self.claim()?;
        for sub in ["data", "files"] {
            match std::fs::remove_dir_all(self.dir.join(sub)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        Ok(())
    }

    /// `DIR/data/`, made, once the folder is claimed as a report's.
    fn data_dir(&self) -> io::Result<PathBuf> {
        self.claim()?;
        let data = self.dir.join("data");
        std::fs::create_dir_all(&data)?;
        Ok(data)
    }

    /// Adds the results of one case (`key` names its data file: the cast, or one checkpoint):
    /// the failing goldens' texts, PNG pictures, and the cast's frames when something failed.
    pub fn add(
        &self,
        config: &Config,
        case: &CaseInfo<'_>,
        key: &str,
        mut results: Vec<ResultData>,
        duration: Duration,
    ) -> io::Result<()> {
        let data = self.data_dir()?;
        // Files are named by the project too: two members of a workspace may have a cast of
        // the same name, and a report of both keeps each.
        let project = project_in_repository(&config.root);
        let id = qualified(&project, case.stem);
        let failed = results.iter().any(ResultData::failed);
        if failed {
            self.pictures(config, &project, case, &mut results)?;
            let player_file = data.join(format!("p-{}.json", short_hash(&id)));
            if !player_file.exists() || case.live.is_some() {
                let p = match case.live {
                    Some(live) => Player {
                        steps: live.steps.clone(),
                        ..player(case.stem, &live.recording, case.engine)
                    },
                    None => player(case.stem, case.cast, case.engine),
                };
                write_replacing(&player_file, &serde_json::to_vec(&p)?)?;
            }
        }
        // A live recording that failed its checks goes with them: accepting the goldens
        // without it would leave the old cast, which replay and screenshots then show.
        let new_cast = match case.live {
            Some(live) if failed => self.carry_recording(&id, case, &live.recording)?,
            _ => None,
        };
        let cast = CastData {
            cast: crate::assert::pending::relative_name(&config.root, case.cast),
            project: project.clone(),
            stem: case.stem.to_string(),
            command: command_line(),
            duration: duration.as_secs_f64(),
            finished: now_unix(),
            results,
            new_cast,
            overheads_ms: case
                .live
                .map(|l| l.overheads_ms.clone())
                .unwrap_or_default(),
        };
        write_result(&data, &qualified(&cast.project, key), &cast)
    }

    /// Adds the result of a `[[screenshot]]` of `tuicast.toml` (`shot`): for one that failed
    /// with a new image (`actual`, what its cast draws now), the committed image and the new
    /// one go into `DIR/files/`, and [`accept_from_project`] can write the new one over the
    /// output it was compared with.
    pub fn add_screenshot(
        &self,
        config: &Config,
        shot: &crate::config::Screenshot,
        mut result: ResultData,
        actual: Option<&[u8]>,
        duration: Duration,
    ) -> io::Result<()> {
        let data = self.data_dir()?;
        let project = project_in_repository(&config.root);
        let id = qualified(&project, &result.test);
        if let (true, Some(actual)) = (result.failed(), actual) {
            let files = self.dir.join("files");
            std::fs::create_dir_all(&files)?;
            let base = short_hash(&id);
            let ext = shot.format.extension();
            // The committed image as goldens are read (no link, no FIFO, a size limit), and
            // copied only when it is an image as tuicast writes it (the check `accept --from`
            // applies): the report is a public artifact, and a committed SVG may hold a script.
            let committed = crate::assert::read_golden(&shot.output).ok().flatten();
            let expected = match &committed {
                Some(bytes) if accept::check_image(shot.format, bytes).is_ok() => {
                    let name = format!("{base}-expected.{ext}");
                    write_replacing(&files.join(&name), bytes)?;
                    Some(name)
                }
                _ => None,
            };
            let name = format!("{base}-actual.{ext}");
            write_replacing(&files.join(&name), actual)?;
            result.screenshot = Some(ShotData {
                output: shot.name.clone(),
                format: shot.format,
                output_hash: committed.as_deref().map(content_hash),
                images: Images {
                    expected,
                    actual: Some(name),
                    diff: None,
                },
            });
        }
        let cast = CastData {
            cast: crate::assert::pending::relative_name(&config.root, &shot.cast),
            project,
            stem: result.test.clone(),
            command: command_line(),
            duration: duration.as_secs_f64(),
            finished: now_unix(),
            results: vec![result],
            new_cast: None,
            overheads_ms: Vec::new(),
        };
        write_result(&data, &id, &cast)
    }

    /// Copies a complete live recording (not the partial part of a failed one) into
    /// `DIR/files/`, with the hash of the cast it would replace.
    fn carry_recording(
        &self,
        id: &str,
        case: &CaseInfo<'_>,
        recording: &Path,
    ) -> io::Result<Option<NewCast>> {
        if recording.extension().is_some_and(|e| e == "partial") {
            return Ok(None);
        }
        let Ok(bytes) = crate::util::read_regular_nofollow(recording, MAX_CARRIED_CAST) else {
            return Ok(None);
        };
        let files = self.dir.join("files");
        std::fs::create_dir_all(&files)?;
        let file = format!("c-{}.cast", short_hash(id));
        write_replacing(&files.join(&file), &bytes)?;
        let cast_hash = crate::util::read_regular_nofollow(case.cast, MAX_CARRIED_CAST)
            .ok()
            .map(|b| content_hash(&b));
        Ok(Some(NewCast { file, cast_hash }))
    }

    /// Adds the results of another report folder `from` (one CI job of a sharded run) to this
    /// one: its `data/` and `files/`, then the page can be made again ([`ReportDir::regenerate`])
    /// with every job's results, and `tuicast accept --from` applies all of their changes.
    /// `from` is untrusted (an artifact): only regular files with plain names are taken (no
    /// symbolic link, nothing above 256 MiB); a name this folder has already is
    /// kept as it is (the jobs of a partitioned run check different trials).
    pub fn merge_from(&self, from: &Path) -> io::Result<Merged> {
        let shown = crate::escape::escape_for_terminal(&from.display().to_string(), 300);
        if !from.join("data").is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{shown}: not a tuicast report folder (no data/ in it)"),
            ));
        }
        self.claim()?;
        let mut merged = Merged::default();
        for sub in ["data", "files"] {
            let Ok(entries) = std::fs::read_dir(from.join(sub)) else {
                continue;
            };
            let into = self.dir.join(sub);
            std::fs::create_dir_all(&into)?;
            for entry in entries {
                let entry = entry?;
                let name = entry.file_name();
                let plain = name.to_str().is_some_and(|n| {
                    !n.starts_with('.')
                        && n.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
                });
                let bytes = match plain {
                    true => crate::util::read_regular_nofollow(&entry.path(), MAX_DATA_BYTES),
                    false => Err(io::Error::other("a name tuicast does not write")),
                };
                match bytes {
                    Ok(_) if into.join(&name).exists() => merged.kept += 1,
                    Ok(bytes) => {
                        write_replacing(&into.join(&name), &bytes)?;
                        merged.added += 1;
                    }
                    Err(e) => merged.refused.push(format!(
                        "{shown}/{sub}/{}: {e}",
                        crate::escape::escape_for_terminal(&name.to_string_lossy(), 200)
                    )),
                }
            }
        }
        Ok(merged)
    }

    /// Writes `index.html` from every data file, under the folder's lock. When another
    /// process holds the lock, this leaves a mark that makes it generate once more, so the
    /// page always ends with every result, and no process waits for another.
    pub fn regenerate(&self) -> io::Result<()> {
        static IN_PROCESS: Mutex<()> = Mutex::new(());
        self.claim()?;
        let dirty = self.dir.join(".dirty");
        std::fs::write(&dirty, b"")?;
        let _guard = IN_PROCESS.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            // The one pid lock (util::PidLock): a holder killed mid-generation is taken over.
            let Some(lock) = crate::util::PidLock::acquire(&self.dir.join(".lock"))? else {
                return Ok(()); // the holder sees `.dirty` and generates again
            };
            let generated = (|| {
                while dirty.exists() {
                    std::fs::remove_file(&dirty)?;
                    self.generate()?;
                }
                Ok::<(), io::Error>(())
            })();
            lock.release();
            generated?;
            // Marked between the last look and the release: nobody else saw the lock free.
            if !dirty.exists() {
                return Ok(());
            }
        }
    }

    /// Writes `index.html` from every data file now (no lock: see [`ReportDir::regenerate`]).
    pub fn generate(&self) -> io::Result<Counts> {
        self.claim()?;
        let data = self.dir.join("data");
        let mut casts = data::read_all(&data)?;
        // A cast checked again (another run in the same folder) shows its latest results.
        let mut seen = std::collections::HashSet::new();
        casts.reverse();
        for c in &mut casts {
            c.results
                .retain(|r| seen.insert((c.project.clone(), r.test.clone())));
        }
        casts.retain(|c| !c.results.is_empty());
        casts.reverse();
        // Several projects (a workspace): each cast is shown with its project's folder, so
        // two members' casts of one name stay apart.
        let many = casts.iter().any(|c| c.project != casts[0].project);
        let mut players = Vec::new();
        let mut ids: Vec<(String, String)> = casts
            .iter()
            .filter(|c| c.results.iter().any(ResultData::failed))
            .map(|c| (c.project.clone(), c.stem.clone()))
            .collect();
        ids.sort();
        ids.dedup();
        for (project, stem) in ids {
            let id = qualified(&project, &stem);
            let file = data.join(format!("p-{}.json", short_hash(&id)));
            if let Ok(bytes) = crate::util::read_regular_nofollow(&file, MAX_DATA_BYTES) {
                if let Ok(mut p) = serde_json::from_slice::<Player>(&bytes) {
                    if many {
                        p.stem = id;
                    }
                    players.push(p);
                }
            }
        }
        if many {
            for c in &mut casts {
                c.stem = qualified(&c.project, &c.stem);
            }
        }
        casts.sort_by(|a, b| a.stem.cmp(&b.stem));
        let page = html::Page {
            casts: &casts,
            players: &players,
            nonce: short_hash(&format!("{:?}{}", SystemTime::now(), std::process::id())),
        };
        write_replacing(&self.index(), page.render().as_bytes())?;
        Ok(html::counts(&casts))
    }

    /// Every result in the folder, latest first for each test.
    pub fn read(&self) -> io::Result<Vec<CastData>> {
        data::read_all(&self.dir.join("data"))
    }

    /// [`ReportDir::read`] for a report about to be trusted: a data file that does not read
    /// as tuicast's is an error naming it, not skipped.
    /// The projects the report's casts belong to (`CastData::project`), sorted, each once;
    /// checked as `accept --from` reads the folder.
    pub fn projects(&self) -> Result<Vec<String>, (PathBuf, io::Error)> {
        let mut names: Vec<String> = self
            .read_checked()?
            .into_iter()
            .map(|c| c.project)
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }

    fn read_checked(&self) -> Result<Vec<CastData>, (PathBuf, io::Error)> {
        data::read_all_checked(&self.dir.join("data"))
    }

    /// PNG goldens: the golden, the actual picture and the changes, as files in `DIR/files/`.
    fn pictures(
        &self,
        config: &Config,
        project: &str,
        case: &CaseInfo<'_>,
        results: &mut [ResultData],
    ) -> io::Result<()> {
        // Without PNG drawing only the pictures a run wrote are copied.
        #[cfg(not(feature = "png"))]
        let _ = case;
        let files = self.dir.join("files");
        for r in results.iter_mut() {
            for s in r.snapshots.iter_mut().filter(|s| s.format.is_binary()) {
                std::fs::create_dir_all(&files)?;
                let golden = config.snapshots.join(&s.name);
                let base = short_hash(&qualified(project, &s.name));
                // Read as goldens are (`assert::read_golden`: no symbolic link, no FIFO, a
                // size limit): a picture committed as a link to any file would otherwise be
                // copied into the artifact.
                let copy = |from: &Path, suffix: &str| -> io::Result<Option<String>> {
                    let Ok(Some(bytes)) = crate::assert::read_golden(from) else {
                        return Ok(None);
                    };
                    let name = format!("{base}-{suffix}.png");
                    write_replacing(&files.join(&name), &bytes)?;
                    Ok(Some(name))
                };
                s.images.expected = copy(&golden, "expected")?;
                s.images.actual = copy(&crate::assert::pending_path(&golden), "actual")?;
                s.images.diff = copy(&crate::assert::diff_image_path(&golden), "changes")?;
                #[cfg(feature = "png")]
                if s.images.actual.is_none() || s.images.diff.is_none() {
                    let (actual, changes) =
                        self.draw_actual(config, case, &r.checkpoint, &golden, &files, &base)?;
                    s.images.actual = s.images.actual.take().or(actual);
                    s.images.diff = s.images.diff.take().or(changes);
                }
            }
        }
        Ok(())
    }

    /// Draws a checkpoint's actual picture, and the changes from the golden at `golden`, when
    /// the run wrote none (CI writes nothing): file names in `files`, `None` where there is
    /// nothing to draw (no such checkpoint, no readable golden of the same size).
    #[cfg(feature = "png")]
    fn draw_actual(
        &self,
        config: &Config,
        case: &CaseInfo<'_>,
        checkpoint: &str,
        golden: &Path,
        files: &Path,
        base: &str,
    ) -> io::Result<(Option<String>, Option<String>)> {
        use crate::render::png as png_render;
        let cast = case.live.map_or(case.cast, |l| l.recording.as_path());
        let Ok(reader) = crate::cast::open(cast) else {
            return Ok((None, None));
        };
        let Ok(cps) = crate::replay::checkpoints(reader, case.engine) else {
            return Ok((None, None));
        };
        let Some(cp) = cps.iter().find(|c| c.name == checkpoint) else {
            return Ok((None, None));
        };
        let screen = crate::assert::apply_all(case.masks, &cp.screen);
        let check = config.png_check().map_err(io::Error::other)?;
        let mut renderer =
            png_render::Renderer::new(check.options.clone()).map_err(io::Error::other)?;
        let image = renderer.render(&screen).map_err(io::Error::other)?;
        let layout = renderer.layout(screen.size).map_err(io::Error::other)?;
        let name = format!("{base}-actual.png");
        let bytes = png_render::encode_png(&image).map_err(io::Error::other)?;
        crate::util::write_atomic(&files.join(&name), &bytes)?;
        // The changes, when the golden is a picture of the same size (a larger one is not
        // decoded: see `assert::check_png`).
        let golden_image =
            crate::util::read_regular_nofollow(golden, crate::assert::MAX_GOLDEN_BYTES)
                .ok()
                .filter(|b| png_render::png_dimensions(b) == Some(image.dimensions()))
                .and_then(|b| png_render::decode_png(&b).ok());
        let changes = match golden_image {
            Some(g) => {
                let diff = png_render::compare(&g, &image, check.tolerance, &layout);
                let img = png_render::diff_image(&image, &diff, &layout);
                let bytes = png_render::encode_png(&img).map_err(io::Error::other)?;
                let changes = format!("{base}-changes.png");
                crate::util::write_atomic(&files.join(&changes), &bytes)?;
                Some(changes)
            }
            None => None,
        };
        Ok((Some(name), changes))
    }
}

/// Writes `path` whole through a temporary file renamed over it: readers see the old file or
/// the new one, never a part. Not synced to disk (a report is remade by running again), which
/// keeps a suite of a thousand casts from waiting on a thousand syncs.
fn write_replacing(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(
        crate::util::temporary_name(&name, std::process::id())
            + &format!(".{:?}", std::thread::current().id()).replace(['(', ')'], ""),
    );
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// The command line of this process, as one shell-like line (arguments with spaces quoted).
/// The command that ran, as a person would type it: the program by its file name (`tuicast
/// test --report rep`, not the absolute path of the binary), arguments quoted where needed.
fn command_line() -> String {
    // A test binary cargo built (`target/debug/deps/casts-305ffe4eaa9a0c24`) is the command
    // that ran it: `cargo test --test casts` (or nextest's), its libtest arguments after `--`.
    if let Some(target) = cargo_test_target() {
        if std::env::var_os("NEXTEST_RUN_ID").is_some() {
            return format!("cargo nextest run --test {target}");
        }
        let rest: Vec<String> = std::env::args().skip(1).collect();
        return if rest.is_empty() {
            format!("cargo test --test {target}")
        } else {
            format!(
                "cargo test --test {target} -- {}",
                crate::escape::shell_words(rest)
            )
        };
    }
    crate::escape::shell_words(std::env::args().enumerate().map(|(i, a)| {
        match Path::new(&a).file_name() {
            Some(name) if i == 0 => name.to_string_lossy().into_owned(),
            _ => a,
        }
    }))
}

/// The test target this process is, when it is a test binary cargo built: `deps/NAME-HASH`
/// with a 16-digit hex hash gives `NAME`.
fn cargo_test_target() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    if exe.parent()?.file_name()? != "deps" {
        return None;
    }
    let stem = exe.file_name()?.to_str()?;
    let (name, hash) = stem.rsplit_once('-')?;
    (hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) && !name.is_empty())
        .then(|| name.to_string())
}

/// 16 hex digits naming a data file for `key`.
/// `name` of the project `project` (its folder in the repository, empty for the repository's
/// own): `project/name`, or `name` alone.
fn qualified(project: &str, name: &str) -> String {
    if project.is_empty() {
        name.to_string()
    } else {
        format!("{project}/{name}")
    }
}

fn short_hash(key: &str) -> String {
    content_hash(key.as_bytes())[..16].to_string()
}

/// Now, in seconds since the Unix epoch (0 on a clock before it).
fn now_unix() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Writes one data file, `data/r-<hash of id>.json`, replacing the one before.
fn write_result(data: &Path, id: &str, cast: &CastData) -> io::Result<()> {
    let file = data.join(format!("r-{}.json", short_hash(id)));
    write_replacing(&file, &serde_json::to_vec(cast)?)
}

/// What names the folder `dir` on this machine and no other: its device, inode and time of
/// birth (nanoseconds, where the file system keeps it), as the marker's last line holds them.
/// `None` when `dir` is a symbolic link.
fn folder_proof(dir: &Path) -> io::Result<Option<String>> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::symlink_metadata(dir)?;
    if m.file_type().is_symlink() {
        return Ok(None);
    }
    let born = m
        .created()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Ok(Some(format!("{}:{}:{born}", m.dev(), m.ino())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processes_claiming_one_new_folder_at_once_all_get_it() {
        for round in 0..300 {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join(format!("rep{round}"));
            let barrier = std::sync::Barrier::new(8);
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..8)
                    .map(|_| {
                        s.spawn(|| {
                            barrier.wait();
                            ReportDir::new(&dir).claim()
                        })
                    })
                    .collect();
                for h in handles {
                    h.join().unwrap().unwrap();
                }
            });
            assert!(ReportDir::new(&dir).marked().unwrap());
        }
    }

    #[test]
    fn a_marker_naming_another_folder_proves_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let made = tmp.path().join("made");
        ReportDir::new(&made).claim().unwrap();
        let text = std::fs::read_to_string(made.join(REPORT_MARKER)).unwrap();
        let other = tmp.path().join("other");
        std::fs::create_dir(&other).unwrap();
        std::fs::write(other.join(REPORT_MARKER), &text).unwrap();
        std::fs::write(other.join("index.html"), "mine").unwrap();
        let e = ReportDir::new(&other).claim().unwrap_err();
        assert!(
            e.to_string().contains("was not written in this folder"),
            "{e}"
        );
        assert_eq!(
            std::fs::read_to_string(other.join("index.html")).unwrap(),
            "mine"
        );
    }
}
