//! `accept --from` on a hostile report (`report::accept_from`): any bytes as the report's data
//! file and as the picture it points at, against a checkout with one cast's goldens. Never a
//! panic, and nothing written but a golden the checkout knows: no other name under
//! `snapshots/`, nothing outside it, no symbolic link.
//!
//! Input: the data file (`data/r-fuzz.json`, tuicast's JSON: one cast's results); the same
//! bytes are `files/demo/end.png`.
#![no_main]

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;

/// The goldens of the checkout's one cast (`demo`, checkpoints `greeted` and `end`).
const KNOWN: [&str; 4] = [
    "demo/end.txt",
    "demo/greeted.txt",
    "demo/end.png",
    "demo/end.styled.txt",
];

fn root() -> &'static Path {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tuicast-fuzz-accept-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir
    })
}

/// Every path under `dir`, relative to it; links listed, never followed.
fn walk(dir: &Path, base: &Path, out: &mut Vec<(String, bool)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let t = e.file_type().expect("a file type");
        let rel = p.strip_prefix(base).unwrap().display().to_string();
        if t.is_dir() {
            walk(&p, base, out);
        } else {
            out.push((rel, t.is_symlink()));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let project = root().join("project");
    let report = root().join("report");
    for d in [&project, &report] {
        let _ = std::fs::remove_dir_all(d);
    }
    let snapshots = project.join("snapshots");
    std::fs::create_dir_all(snapshots.join("demo")).unwrap();
    std::fs::write(snapshots.join("demo/end.txt"), "bye\n").unwrap();
    std::fs::write(snapshots.join("demo/greeted.txt"), "hi\n").unwrap();
    std::fs::create_dir_all(report.join("data")).unwrap();
    std::fs::create_dir_all(report.join("files/demo")).unwrap();
    std::fs::write(report.join("data/r-fuzz.json"), data).unwrap();
    std::fs::write(report.join("files/demo/end.png"), data).unwrap();
    let known: HashSet<String> = KNOWN.iter().map(|s| s.to_string()).collect();
    let _ = tuicast::report::accept_from(&report, &snapshots, &[], &known);
    let mut files = Vec::new();
    walk(&project, &project, &mut files);
    for (f, link) in files {
        assert!(!link, "{f} is a link");
        let name = f
            .strip_prefix("snapshots/")
            .unwrap_or_else(|| panic!("{f} written"));
        assert!(KNOWN.contains(&name), "{f} written");
    }
});
