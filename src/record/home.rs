//! The fresh HOME of a recorded program: a new private folder in the temporary folder.

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
        let dir = base.join(format!("tuicast-home-{}", random_name()?));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => {
                return Err(RecordError::Setup(format!(
                    "cannot create a private HOME in {}: {e}",
                    base.display()
                )))
            }
        }
    }
    Err(RecordError::Setup(format!(
        "cannot create a private HOME in {}: {}",
        base.display(),
        last.map(|e| e.to_string()).unwrap_or_default()
    )))
}

/// 16 random hex digits from the system's random source.
fn random_name() -> Result<String, RecordError> {
    use std::io::Read;
    let mut bytes = [0u8; 8];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| RecordError::Setup(format!("cannot read /dev/urandom: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
