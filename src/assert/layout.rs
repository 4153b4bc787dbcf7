//! Where snapshots live: `snapshots/<cast path relative to casts/, without .cast>/<checkpoint>.<format>`.
//!
//! Checkpoint names come from marker labels inside casts, and casts are untrusted: every name
//! is sanitized into a plain file name, so nothing can write outside the snapshots folder.

use std::path::{Component, Path, PathBuf};

/// The longest file name component tuicast writes (well under every file system's limit).
const MAX_COMPONENT: usize = 100;

/// Turns any text into a safe single path component: letters, digits, `.`, `-`, `_` and `+`
/// are kept, anything else (slashes, spaces, control characters, non-ASCII) becomes `_`, and a
/// leading `.` becomes `_`. When the result differs from the input, a short hash of the input
/// is appended, so two different names never share a file.
pub fn sanitize(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '+') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.starts_with('.') {
        out.replace_range(0..1, "_");
    }
    if out.is_empty() {
        out.push('_');
    }
    let changed = out != name;
    if out.len() > MAX_COMPONENT {
        out.truncate(MAX_COMPONENT - 10);
    }
    if changed || out.len() != name.len() {
        out.push_str(&format!("-{:08x}", fnv1a(name.as_bytes()) as u32));
    }
    out
}

/// The snapshot-relative stem of a cast: its path relative to `casts_dir` without `.cast`,
/// each component sanitized, `/`-separated. A cast outside `casts_dir` uses its path as given
/// (made relative, `..` and roots dropped).
pub fn cast_stem(casts_dir: &Path, cast: &Path) -> String {
    let rel = cast.strip_prefix(casts_dir).unwrap_or(cast);
    let rel = rel.with_extension("");
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(sanitize(&s.to_string_lossy())),
            _ => None,
        })
        .collect();
    if parts.is_empty() {
        "_".to_string()
    } else {
        parts.join("/")
    }
}

/// The golden file of `checkpoint` of the cast with stem `stem`, in `format` (its extension).
pub fn snapshot_path(
    snapshots_dir: &Path,
    stem: &str,
    checkpoint: &str,
    extension: &str,
) -> PathBuf {
    let mut path = snapshots_dir.to_path_buf();
    for part in stem.split('/') {
        path.push(part);
    }
    path.push(format!("{}.{extension}", sanitize(checkpoint)));
    path
}

/// The diff image written beside a PNG golden on mismatch: `<golden>.diff.png`.
pub fn diff_image_path(golden: &Path) -> PathBuf {
    let mut s = golden.as_os_str().to_owned();
    s.push(".diff.png");
    PathBuf::from(s)
}

/// The pending file written beside a golden on mismatch: `<golden>.new`.
pub fn pending_path(golden: &Path) -> PathBuf {
    let mut s = golden.as_os_str().to_owned();
    s.push(".new");
    PathBuf::from(s)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_are_kept() {
        assert_eq!(sanitize("saved"), "saved");
        assert_eq!(sanitize("step-2.ok_x+y"), "step-2.ok_x+y");
    }

    #[test]
    fn hostile_names_stay_inside_and_stay_distinct() {
        for name in [
            "../../etc/passwd",
            "/abs",
            "..",
            ".",
            ".hidden",
            "a/b",
            "a\\b",
            "\x1b[2J",
            "",
            "日本",
        ] {
            let s = sanitize(name);
            assert!(
                !s.contains('/') && !s.contains('\\') && !s.starts_with('.'),
                "{name:?} -> {s}"
            );
            assert!(s.chars().all(|c| c.is_ascii_graphic()), "{name:?} -> {s}");
            let p = snapshot_path(Path::new("snaps"), "cast", name, "txt");
            assert!(p.starts_with("snaps/cast"), "{p:?}");
            assert_eq!(p.components().count(), 3, "{p:?}");
        }
        assert_ne!(sanitize("a/b"), sanitize("a_b"));
        assert_ne!(sanitize("a/b"), sanitize("a b"));
        assert!(sanitize(&"x".repeat(500)).len() <= MAX_COMPONENT);
    }

    #[test]
    fn cast_stems_follow_the_casts_folder() {
        let casts = Path::new("casts");
        assert_eq!(cast_stem(casts, Path::new("casts/shell.cast")), "shell");
        assert_eq!(cast_stem(casts, Path::new("casts/sub/vim.cast")), "sub/vim");
        assert_eq!(
            cast_stem(casts, Path::new("../elsewhere/x.cast")),
            "elsewhere/x"
        );
        assert_eq!(cast_stem(casts, Path::new("/tmp/y.cast")), "tmp/y");
    }
}
