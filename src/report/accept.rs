//! `tuicast accept --from DIR`: the changes a CI run left in a report folder, applied to the
//! local goldens they were computed from.
//!
//! Every entry is checked against the checkout before anything is written: a golden that the
//! checkout's casts produce, no symbolic link on the way, regular report files, a PNG that
//! decodes; and a change applies only onto the golden it was computed from.
//! [`accept_from_project`] also writes a live case's new recording over its cast, for the
//! report's own project.

use std::collections::HashSet;
use std::fmt;
use std::path::{Component, Path, PathBuf};

use super::data::{content_hash, SnapshotData};
use super::ReportDir;
use crate::assert::MAX_GOLDEN_BYTES;

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
    /// An entry of the report that does not hold up against the checkout (a golden no cast
    /// and checkpoint here produces, a picture that is no PNG, a file of the report that is a
    /// link, a folder that leads out of the snapshots folder): the entry, and what is wrong.
    /// The whole report is refused.
    Refused(String, String),
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
            AcceptError::Refused(entry, why) => write!(
                f,
                "refused the whole report, nothing was written: {}: {why}",
                crate::escape::escape_for_terminal(entry, 200)
            ),
        }
    }
}

impl std::error::Error for AcceptError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AcceptError::Io(_, e) => Some(e),
            _ => None,
        }
    }
}

/// Applies every failing golden of the report in `dir` whose name contains one of `filters`
/// (all when empty) to `snapshots`: each only if the local golden is still the one the report
/// compared with (same content hash, or still missing); otherwise nothing is written.
///
/// A report is an artifact of a CI run over whatever a pull request held, so every entry is
/// checked against the checkout first, filtered or not, and one that fails refuses the whole
/// report ([`AcceptError::Refused`]): its name must be one of `known` (the goldens the
/// checkout's casts produce, by name under `snapshots`: a known cast and checkpoint in a
/// format tuicast writes); its data and picture files must be regular files (no link, no
/// FIFO, within a size limit); a picture must be a PNG; and no folder on the way to the golden
/// may be a symbolic link.
pub fn accept_from(
    dir: &Path,
    snapshots: &Path,
    filters: &[String],
    known: &HashSet<String>,
) -> Result<Vec<Accepted>, AcceptError> {
    accept_from_project(dir, snapshots, filters, known, None)
}

/// The casts of a project, for [`accept_from_project`]: its folder, and the casts its cases
/// check (by name relative to it, as a report names them; a scenario's cast-to-be included).
#[derive(Debug, Clone, Copy)]
pub struct ProjectCasts<'a> {
    /// The project's folder.
    pub root: &'a Path,
    /// The casts that may be written.
    pub known: &'a HashSet<String>,
    /// The project's folder as the report names it (`CastData::project`): only its casts
    /// are taken from a report of several projects (a workspace).
    pub name: &'a str,
    /// The project's `[[screenshot]]`s: the only images outside the snapshots folder a
    /// report may write, each over its declared output.
    pub screenshots: &'a [crate::config::Screenshot],
}

/// [`accept_from`], also writing the new recordings the report carries for live cases
/// (`CastData::new_cast`) into `project`'s casts: a cast travels with its goldens. A recording
/// is taken when one of its cast's goldens is, or, when only its checkpoints changed (every
/// golden matched), when a filter names the cast's stem or no filter is given; each only over
/// the cast it was compared with (same content hash), and only for a cast of this checkout,
/// a regular file that reads as a cast.
pub fn accept_from_project(
    dir: &Path,
    snapshots: &Path,
    filters: &[String],
    known: &HashSet<String>,
    project: Option<ProjectCasts<'_>>,
) -> Result<Vec<Accepted>, AcceptError> {
    plan_accept_from(dir, snapshots, filters, known, project)?.apply()
}

/// What [`accept_from_project`] would write, checked whole and nothing written yet: the
/// plans of every project of a workspace are made first, so that one refused project leaves
/// every other one untouched too ([`AcceptPlan::apply`] writes).
#[derive(Debug, Default)]
pub struct AcceptPlan {
    /// Casts before goldens and screenshots.
    writes: Vec<Write>,
}

/// One file an [`AcceptPlan`] writes.
#[derive(Debug)]
struct Write {
    /// The name shown (a golden's, a cast's, `screenshot:<output>`).
    name: String,
    /// The file written.
    path: PathBuf,
    content: Vec<u8>,
    /// Whether the file is new.
    created: bool,
    /// The local pending file it makes outdated (removed once written).
    pending: PathBuf,
}

impl Write {
    /// A golden or a cast, whose pending file is beside it (`.new`).
    fn beside(name: String, path: PathBuf, content: Vec<u8>, created: bool) -> Write {
        let pending = crate::assert::pending_path(&path);
        Write {
            name,
            path,
            content,
            created,
            pending,
        }
    }
}

impl AcceptPlan {
    /// How many files the plan writes (casts and goldens).
    pub fn len(&self) -> usize {
        self.writes.len()
    }

    /// Whether the plan writes nothing.
    pub fn is_empty(&self) -> bool {
        self.writes.is_empty()
    }

    /// Writes the plan: the casts first, then their goldens, each atomically, removing the
    /// local `.new` each replaces.
    pub fn apply(self) -> Result<Vec<Accepted>, AcceptError> {
        let mut done = Vec::new();
        for w in self.writes {
            if let Some(parent) = w.path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| AcceptError::Io(parent.into(), e))?;
            }
            crate::util::write_atomic(&w.path, &w.content)
                .map_err(|e| AcceptError::Io(w.path.clone(), e))?;
            // A `.new` (or `.cast.new`) from a local run is now outdated.
            let _ = std::fs::remove_file(&w.pending);
            done.push(Accepted {
                name: w.name,
                path: w.path,
                created: w.created,
            });
        }
        Ok(done)
    }
}

/// Checks the report in `dir` as [`accept_from_project`] does and returns what it would
/// write, writing nothing.
pub fn plan_accept_from(
    dir: &Path,
    snapshots: &Path,
    filters: &[String],
    known: &HashSet<String>,
    project: Option<ProjectCasts<'_>>,
) -> Result<AcceptPlan, AcceptError> {
    let refuse = |entry: &str, why: &str| AcceptError::Refused(entry.to_string(), why.to_string());
    for sub in ["data", "files"] {
        let path = dir.join(sub);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.file_type().is_dir()) {
            return Err(refuse(
                &path.display().to_string(),
                "is not a folder (a symbolic link or a file)",
            ));
        }
    }
    let mut casts = ReportDir::new(dir)
        .read_checked()
        .map_err(|(p, e)| refuse(&p.display().to_string(), &e.to_string()))?;
    if let Some(project) = project {
        casts.retain(|c| c.project == project.name);
    }
    // The latest result of each golden.
    let mut changes: std::collections::BTreeMap<String, SnapshotData> = Default::default();
    for cast in &casts {
        for r in &cast.results {
            for s in &r.snapshots {
                if !known.contains(&s.name) {
                    return Err(refuse(
                        &s.name,
                        "no cast and checkpoint of this checkout has this golden (a known cast, \
                         checkpoint and format)",
                    ));
                }
                if crate::assert::Format::of_name(&s.name).map(|(_, f)| f) != Some(s.format) {
                    return Err(refuse(&s.name, "its format is not the one its name says"));
                }
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
        if let Some(link) = linked_folder(snapshots, rel) {
            return Err(refuse(
                name,
                &format!(
                    "{} is a symbolic link: accept --from writes no golden through one",
                    crate::escape::escape_for_terminal(&link.display().to_string(), 300)
                ),
            ));
        }
        let path = snapshots.join(rel);
        let now = match crate::util::read_regular_nofollow(&path, MAX_GOLDEN_BYTES) {
            Ok(bytes) => Some(content_hash(&bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(refuse(name, &format!("the local golden: {e}"))),
        };
        let content = if s.format.is_binary() {
            let file = s
                .images
                .actual
                .as_deref()
                .filter(|f| !f.contains('/') && !f.starts_with('.'))
                .ok_or_else(|| AcceptError::NoPicture(name.clone()))?;
            let from = dir.join("files").join(file);
            // The report chooses the file's name: escaped where it is shown.
            let shown = crate::escape::escape_for_terminal(file, 200);
            let bytes = crate::util::read_regular_nofollow(&from, MAX_GOLDEN_BYTES)
                .map_err(|e| refuse(name, &format!("its picture files/{shown}: {e}")))?;
            if let Err(why) = check_picture(&bytes) {
                return Err(refuse(name, &format!("its picture files/{shown} {why}")));
            }
            bytes
        } else {
            if s.actual.len() as u64 > MAX_GOLDEN_BYTES {
                return Err(refuse(name, "its text is larger than a golden may be"));
            }
            s.actual.clone().into_bytes()
        };
        // A golden that already holds the new content was accepted before: not stale.
        match (&s.golden_hash, &now) {
            (a, b) if a == b => {}
            (_, Some(b)) if *b == content_hash(&content) => {}
            (None, Some(_)) => stale.push((path.clone(), "a golden was written since")),
            (Some(_), None) => stale.push((path.clone(), "the golden was removed since")),
            _ => stale.push((path.clone(), "the golden changed since")),
        }
        planned.push(Write::beside(name.clone(), path, content, now.is_none()));
    }
    // The docs screenshots whose new images are taken (a project's only: their outputs are
    // checked against its `[[screenshot]]`s).
    if let Some(project) = project {
        for cast in &casts {
            for r in &cast.results {
                let Some(shot) = &r.screenshot else { continue };
                // Every entry is checked; only those a filter names are written.
                let mut changed = Vec::new();
                let write =
                    planned_screenshot(dir, snapshots, project, &r.test, shot, &mut changed)?;
                let named = filters.is_empty()
                    || filters
                        .iter()
                        .any(|f| r.test.contains(f.as_str()) || shot.output.contains(f.as_str()));
                if named {
                    // The latest result of each screenshot.
                    planned.retain(|w| w.path != write.path);
                    stale.retain(|(p, _)| *p != write.path);
                    stale.extend(changed);
                    planned.push(write);
                }
            }
        }
    }
    // The new recordings of the casts whose changes are taken.
    let mut recordings = Vec::new();
    if let Some(project) = project {
        for cast in &casts {
            let Some(new) = &cast.new_cast else { continue };
            let goldens_taken = cast
                .results
                .iter()
                .flat_map(|r| &r.snapshots)
                .any(|s| changes.contains_key(&s.name));
            let named =
                filters.is_empty() || filters.iter().any(|f| cast.stem.contains(f.as_str()));
            let only_checkpoints = cast.results.iter().all(|r| r.snapshots.is_empty());
            if !(goldens_taken || named && only_checkpoints) {
                continue;
            }
            recordings.push(planned_cast(dir, project, cast, new, &mut stale)?);
        }
    }
    if !stale.is_empty() {
        return Err(AcceptError::Stale(stale));
    }
    recordings.extend(planned);
    Ok(AcceptPlan { writes: recordings })
}

/// A change of the cast itself: where it goes, its bytes, whether it is new. Refused unless
/// the cast is one of the project's, its file in the report a regular file that reads as a
/// cast, and no folder on its way a link; stale when the cast changed since the report.
fn planned_cast(
    dir: &Path,
    project: ProjectCasts<'_>,
    cast: &super::CastData,
    new: &super::NewCast,
    stale: &mut Vec<(PathBuf, &'static str)>,
) -> Result<Write, AcceptError> {
    let refuse = |why: &str| AcceptError::Refused(cast.cast.clone(), why.to_string());
    let rel = Path::new(&cast.cast);
    let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
    if !plain || !project.known.contains(&cast.cast) || rel.extension().is_none_or(|e| e != "cast")
    {
        return Err(refuse("is not a cast this checkout checks"));
    }
    if let Some(link) = linked_folder(project.root, rel) {
        return Err(refuse(&format!(
            "{} is a symbolic link: accept --from writes no cast through one",
            crate::escape::escape_for_terminal(&link.display().to_string(), 300)
        )));
    }
    let file = &new.file;
    if file.contains('/') || file.starts_with('.') {
        return Err(refuse("its recording is not a file of the report"));
    }
    let bytes =
        crate::util::read_regular_nofollow(&dir.join("files").join(file), super::MAX_CARRIED_CAST)
            .map_err(|e| {
                refuse(&format!(
                    "its recording files/{}: {e}",
                    crate::escape::escape_for_terminal(file, 100)
                ))
            })?;
    let reads = crate::cast::CastReader::new(bytes.as_slice())
        .map_err(|e| e.to_string())
        .and_then(|r| {
            r.skim()
                .try_for_each(|e| e.map(|_| ()))
                .map_err(|e| e.to_string())
        });
    if let Err(e) = reads {
        return Err(refuse(&format!("its recording is not a cast: {e}")));
    }
    let path = project.root.join(rel);
    let now = match crate::util::read_regular_nofollow(&path, super::MAX_CARRIED_CAST) {
        Ok(b) => Some(content_hash(&b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(refuse(&format!("the local cast: {e}"))),
    };
    if now != new.cast_hash && now != Some(content_hash(&bytes)) {
        stale.push((path.clone(), "the cast changed since"));
    }
    Ok(Write::beside(cast.cast.clone(), path, bytes, now.is_none()))
}

/// The new image of a screenshot (the trial `test`): where it goes, its bytes. Refused unless
/// its output is one of the project's `[[screenshot]]`s, in the format declared, inside the
/// project with no link on the way, and its file in the report a regular file that holds an
/// image of that format tuicast could have drawn; stale when the committed image changed
/// since the report.
fn planned_screenshot(
    dir: &Path,
    snapshots: &Path,
    project: ProjectCasts<'_>,
    test: &str,
    shot: &super::ShotData,
    stale: &mut Vec<(PathBuf, &'static str)>,
) -> Result<Write, AcceptError> {
    let refuse = |why: &str| AcceptError::Refused(test.to_string(), why.to_string());
    let Some(declared) = project.screenshots.iter().find(|s| s.name == shot.output) else {
        return Err(refuse(
            "no [[screenshot]] of this checkout's tuicast.toml has this output",
        ));
    };
    if declared.format != shot.format || test != format!("screenshot:{}", shot.output) {
        return Err(refuse(
            "its format or name is not the one tuicast.toml declares",
        ));
    }
    let rel = Path::new(&shot.output);
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(refuse("its output is not a path inside the project"));
    }
    if let Some(link) = linked_folder(project.root, rel) {
        return Err(refuse(&format!(
            "{} is a symbolic link: accept --from writes no screenshot through one",
            crate::escape::escape_for_terminal(&link.display().to_string(), 300)
        )));
    }
    let path = project.root.join(rel);
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(refuse(
            "its output is a symbolic link: accept --from writes no screenshot through one",
        ));
    }
    let file = shot
        .images
        .actual
        .as_deref()
        .filter(|f| !f.contains('/') && !f.starts_with('.'))
        .ok_or_else(|| AcceptError::NoPicture(test.to_string()))?;
    let shown = crate::escape::escape_for_terminal(file, 200);
    let bytes = crate::util::read_regular_nofollow(&dir.join("files").join(file), MAX_GOLDEN_BYTES)
        .map_err(|e| refuse(&format!("its image files/{shown}: {e}")))?;
    if let Err(why) = check_image(shot.format, &bytes) {
        return Err(refuse(&format!("its image files/{shown} {why}")));
    }
    let now = match crate::util::read_regular_nofollow(&path, MAX_GOLDEN_BYTES) {
        Ok(b) => Some(content_hash(&b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(refuse(&format!("the committed image: {e}"))),
    };
    match (&shot.output_hash, &now) {
        (a, b) if a == b => {}
        // Already accepted: the committed image is the new one.
        (_, Some(b)) if *b == content_hash(&bytes) => {}
        (None, Some(_)) => stale.push((path.clone(), "an image was written since")),
        (Some(_), None) => stale.push((path.clone(), "the image was removed since")),
        _ => stale.push((path.clone(), "the image changed since")),
    }
    let pending = snapshots
        .join(crate::assert::pending::SCREENSHOTS_DIR)
        .join(format!("{}.new", shot.output));
    Ok(Write {
        name: test.to_string(),
        path,
        content: bytes,
        created: now.is_none(),
        pending,
    })
}

/// Whether `bytes` are an image of `format` as tuicast writes it: what `accept --from`
/// writes into a checkout and what a report copies of a committed screenshot (an SVG with a
/// script or a link out of it goes into neither).
pub(super) fn check_image(
    format: crate::config::ScreenshotFormat,
    bytes: &[u8],
) -> Result<(), NotAPicture> {
    match format {
        crate::config::ScreenshotFormat::Png => check_picture(bytes),
        crate::config::ScreenshotFormat::Gif => check_gif(bytes),
        crate::config::ScreenshotFormat::Apng => check_apng(bytes),
        crate::config::ScreenshotFormat::Svg | crate::config::ScreenshotFormat::AnimatedSvg => {
            super::svg_check::check_svg(bytes)
        }
    }
}

/// Whether `bytes` are a GIF (its signature and a logical screen no larger than tuicast
/// draws).
fn check_gif(bytes: &[u8]) -> Result<(), NotAPicture> {
    if !(bytes.starts_with(b"GIF89a") || bytes.starts_with(b"GIF87a")) || bytes.len() < 13 {
        return Err("is not a GIF".into());
    }
    let w = u32::from(u16::from_le_bytes([bytes[6], bytes[7]]));
    let h = u32::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    #[cfg(feature = "png")]
    if w > crate::render::png::MAX_SIDE || h > crate::render::png::MAX_SIDE {
        return Err(message!("is {w}x{h} pixels, larger than tuicast draws"));
    }
    if w == 0 || h == 0 {
        return Err("is a GIF of no size".into());
    }
    Ok(())
}

/// Whether `bytes` are an animated PNG: a PNG as [`check_picture`] checks it (its size, its
/// default image decoded) whose chunks before the image data include the animation's
/// `acTL`.
fn check_apng(bytes: &[u8]) -> Result<(), NotAPicture> {
    check_picture(bytes)?;
    let mut at = 8;
    while let Some(head) = bytes.get(at..at + 8) {
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        match &head[4..8] {
            b"acTL" => return Ok(()),
            b"IDAT" | b"IEND" => break,
            _ => at = at.saturating_add(12).saturating_add(len),
        }
    }
    Err("is a PNG but not an animated one (no acTL chunk before its image)".into())
}

/// The first folder from `snapshots` down to the golden `rel`'s folder that is a symbolic
/// link, if any: a golden written through one lands wherever it points (`authorized_keys`).
/// Folders that do not exist yet are made as real folders.
fn linked_folder(snapshots: &Path, rel: &Path) -> Option<PathBuf> {
    let mut dir = snapshots.to_path_buf();
    for part in rel.parent()?.components() {
        dir.push(part);
        match std::fs::symlink_metadata(&dir) {
            Ok(m) if m.file_type().is_symlink() => return Some(dir),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    None
}

message_error!(
    /// What a report's picture is instead of a PNG tuicast could have drawn.
    pub(crate) NotAPicture
);

/// Whether `bytes` are a PNG picture tuicast could have drawn: decoded whole, after its header's
/// size is checked against the largest picture tuicast draws (a small file can decode to
/// gigabytes). The error says what it is instead.
fn check_picture(bytes: &[u8]) -> Result<(), NotAPicture> {
    #[cfg(feature = "png")]
    {
        use crate::render::png as png_render;
        let Some((w, h)) = png_render::png_dimensions(bytes) else {
            return Err("is not a PNG".into());
        };
        if w > png_render::MAX_SIDE
            || h > png_render::MAX_SIDE
            || u64::from(w) * u64::from(h) > png_render::MAX_PIXELS
        {
            return Err(message!("is {w}x{h} pixels, larger than tuicast draws"));
        }
        png_render::decode_png(bytes)
            .map(|_| ())
            .map_err(|e| message!("is not a readable PNG: {e}"))
    }
    #[cfg(not(feature = "png"))]
    {
        const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
        if bytes.starts_with(SIGNATURE) {
            Ok(())
        } else {
            Err("is not a PNG".into())
        }
    }
}
