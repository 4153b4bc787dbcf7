//! What a report folder keeps between processes: one JSON file per cast (or per checkpoint
//! under `cargo test`) in `DIR/data/`, written atomically, read back when `index.html` is
//! generated and by `tuicast accept --from`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::assert::Format;

/// The results of one process for one cast (or one checkpoint): a `DIR/data/r-*.json` file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CastData {
    /// The cast's name: its path relative to the project (or its file name).
    pub cast: String,
    /// The project's folder relative to the repository's (the nearest folder above holding
    /// `.git`): empty when they are one, `members/app` in a workspace. `accept --from`
    /// finds the project from any folder of the checkout by it.
    #[serde(default)]
    pub project: String,
    /// The cast's stem, as in test names.
    pub stem: String,
    /// The command line of the process that checked it.
    pub command: String,
    /// Seconds the checks took (replay included).
    pub duration: f64,
    /// Seconds since the Unix epoch when the checks ended.
    pub finished: f64,
    /// One per checkpoint checked.
    pub results: Vec<ResultData>,
    /// The new recording of a case recorded live whose checks failed: accepted with its
    /// goldens (`accept --from`), so the cast and its goldens travel as one change.
    #[serde(default)]
    pub new_cast: Option<NewCast>,
    /// A case recorded live: each checkpoint's overhead in the recording (milliseconds from
    /// the program's last output to the checkpoint).
    #[serde(default)]
    pub overheads_ms: Vec<f64>,
}

/// A live recording carried in the report: a file in `DIR/files/`, and what it replaces.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct NewCast {
    /// Its file name in `DIR/files/`.
    pub file: String,
    /// [`content_hash`] of the committed cast it replaces; `None` when there was none.
    pub cast_hash: Option<String>,
}

/// One checkpoint's result.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ResultData {
    /// `<cast>::<checkpoint>`.
    pub test: String,
    /// The checkpoint (empty for a cast that did not read).
    pub checkpoint: String,
    /// The cast line of the checkpoint.
    pub line: u64,
    /// Its time in the cast.
    pub time: f64,
    /// `ok`, `updated` or `failed`.
    pub status: String,
    /// Why the checkpoint could not be checked.
    pub error: Option<String>,
    /// The failing goldens only.
    pub snapshots: Vec<SnapshotData>,
    /// A `[[screenshot]]` of `tuicast.toml` that failed: its output and the image its cast
    /// draws now (`None` for a checkpoint's result, and for a screenshot that passed).
    #[serde(default)]
    pub screenshot: Option<ShotData>,
}

/// A docs screenshot that is missing or stale: the declared output, the image that would
/// replace it, and a hash of the committed one it was compared with (`accept --from` writes
/// the new image only over that same file).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ShotData {
    /// The output, relative to the project, `/`-separated (`docs/screenshots/demo.png`).
    pub output: String,
    /// Its format, as the `[[screenshot]]` declares it.
    pub format: crate::config::ScreenshotFormat,
    /// [`content_hash`] of the committed image; `None` when there was none.
    pub output_hash: Option<String>,
    /// Files in `DIR/files/`: the committed image (`expected`) and the new one (`actual`).
    pub images: Images,
}

/// A golden that failed: what it held, what the run saw, and what would replace it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SnapshotData {
    /// The golden's name under the snapshots folder (`vim/saved.txt`).
    pub name: String,
    /// Its format.
    pub format: Format,
    /// The golden did not exist.
    pub missing: bool,
    /// The golden's text (text formats with a golden).
    pub expected: Option<String>,
    /// The actual render (for PNG, its text render; the picture is `images.actual`).
    pub actual: String,
    /// [`content_hash`] of the golden the actual was compared with; `None` when it was missing.
    pub golden_hash: Option<String>,
    /// The unified diff, without colour.
    pub diff: String,
    /// The first difference: `row:column` (1-based) or a header field.
    pub place: Option<String>,
    /// The 1-based row of the first difference, when it is a cell.
    pub row: Option<crate::pos::Ordinal>,
    /// Cells whose style changed, one line per run.
    pub style_changes: Vec<String>,
    /// Files in `DIR/files/` (PNG goldens): the golden, the actual picture, the changes.
    pub images: Images,
}

/// Pictures of a PNG golden's failure, as file names in `DIR/files/`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Images {
    /// The golden.
    pub expected: Option<String>,
    /// The actual picture (what `accept --from` writes).
    pub actual: Option<String>,
    /// The actual picture with the changed cells outlined.
    pub diff: Option<String>,
}

impl ResultData {
    /// Whether the checkpoint failed.
    pub fn failed(&self) -> bool {
        self.status == "failed"
    }
}

/// A short, stable hash of a golden's bytes (64-bit FNV-1a and the length, in hex): enough to
/// tell that a golden changed since a report was made. Not a defence against forgery: a
/// report is trusted as much as the CI run that made it.
pub fn content_hash(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}-{}", bytes.len())
}

/// Reads every `r-*.json` in `data`, oldest first, skipping files that do not read (a
/// process killed mid-write leaves only its temporary file, which is not named so). Data
/// beyond [`MAX_TOTAL_DATA_BYTES`] in all is an error.
pub(super) fn read_all(data: &Path) -> std::io::Result<Vec<CastData>> {
    read_data(data, false).map_err(|(path, e)| {
        std::io::Error::new(
            e.kind(),
            format!(
                "{}: {e}",
                crate::escape::escape_for_terminal(&path.display().to_string(), 300)
            ),
        )
    })
}

/// [`read_all`] for a report that is about to be trusted (`accept --from`): a data file that
/// is a symbolic link, not a regular file, too large or not tuicast's JSON is an error naming
/// it, not skipped.
pub(super) fn read_all_checked(data: &Path) -> Result<Vec<CastData>, (PathBuf, std::io::Error)> {
    read_data(data, true)
}

/// The most report data read back in all (every `r-*.json` together): eight files of 250 MB
/// made `tuicast report` and `accept --from` abort on memory.
pub(crate) const MAX_TOTAL_DATA_BYTES: u64 = super::MAX_DATA_BYTES;

fn read_data(data: &Path, strict: bool) -> Result<Vec<CastData>, (PathBuf, std::io::Error)> {
    let at = |e| (data.to_path_buf(), e);
    let mut files = Vec::new();
    let entries = match std::fs::read_dir(data) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(at(e)),
    };
    for entry in entries {
        let entry = entry.map_err(at)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("r-") && name.ends_with(".json") {
            files.push(entry.path());
        }
    }
    files.sort();
    let mut out: Vec<CastData> = Vec::new();
    let mut total = 0;
    for p in files {
        // Never through a link: a report folder is an artifact from elsewhere.
        let bytes = match crate::util::read_regular_nofollow(&p, super::MAX_DATA_BYTES) {
            Ok(b) => b,
            Err(e) if strict => return Err((p, e)),
            Err(_) => continue,
        };
        total += bytes.len() as u64;
        if total > MAX_TOTAL_DATA_BYTES {
            let e = std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "the report's data files are larger than {} in all, the most tuicast reads",
                    crate::util::human_bytes(MAX_TOTAL_DATA_BYTES)
                ),
            );
            return Err((data.to_path_buf(), e));
        }
        match serde_json::from_slice(&bytes) {
            Ok(c) => out.push(c),
            Err(e) if strict => {
                let e = std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("not the data of a tuicast report: {e}"),
                );
                return Err((p, e));
            }
            Err(_) => {}
        }
    }
    out.sort_by(|a: &CastData, b| a.finished.total_cmp(&b.finished));
    Ok(out)
}
