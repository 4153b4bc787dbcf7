//! The fresh HOME of a recorded program: a new private folder in the temporary folder,
//! `tuicast-home-<pid>-<random>` (the pid of the recording process, then 16 random hex
//! digits).
//!
//! A recording ended by SIGKILL cannot remove its HOME nor end its program. The next one
//! cleans up after it ([`sweep_stale`]): a folder of this user whose recording process is
//! gone is swept — every process still running with that `HOME` is killed, then the folder
//! is removed.

use std::path::PathBuf;

use super::error::RecordError;

/// A new private HOME for the program: a random name in the temporary folder, created with
/// mode 0700 by this call (an existing path is never reused: another user could have put a
/// `.bashrc` there), so nobody else can read or plant files in it.
pub(super) fn fresh_home() -> Result<PathBuf, RecordError> {
    use std::os::unix::fs::DirBuilderExt;
    let base = std::env::temp_dir();
    let mut last = None;
    for _ in 0..16 {
        let dir = base.join(format!("{PREFIX}{}-{}", std::process::id(), random_name()?));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => {
                return Err(RecordError::Home {
                    folder: base,
                    source: e,
                })
            }
        }
    }
    Err(RecordError::Home {
        folder: base,
        source: last.unwrap_or_else(|| std::io::Error::other("no free name")),
    })
}

/// How HOME folders are named.
const PREFIX: &str = "tuicast-home-";

/// Sweeps what recordings killed by SIGKILL left in the temporary folder: for each
/// `tuicast-home-<pid>-<random>` folder owned by this user whose process `<pid>` no longer
/// exists, the processes whose `HOME` is that folder are killed and the folder removed.
/// Returns how many folders were removed. Errors are ignored: this is housekeeping.
pub(super) fn sweep_stale() -> usize {
    use std::os::unix::fs::MetadataExt;
    let base = std::env::temp_dir();
    let Ok(me) = std::fs::metadata("/proc/self").map(|m| m.uid()) else {
        return 0;
    };
    let Ok(entries) = std::fs::read_dir(&base) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
            continue;
        };
        let Some(pid) = rest
            .split_once('-')
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        // Its recording is alive (or the pid was taken again: kept until that one ends).
        if pid == std::process::id() || crate::util::process_alive(pid) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != me {
            continue;
        }
        super::pty::kill_marked(format!("HOME={}", path.display()).as_bytes());
        if std::fs::remove_dir_all(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// 16 random hex digits from the system's random source.
fn random_name() -> Result<String, RecordError> {
    use std::io::Read;
    let mut bytes = [0u8; 8];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| {
            RecordError::Io(std::io::Error::new(
                e.kind(),
                format!("cannot read /dev/urandom: {e}"),
            ))
        })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
