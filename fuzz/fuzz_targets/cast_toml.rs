//! The TOML parsers: a cast's TOML (`CastFile::parse`: recording, steps, `[check]`,
//! `[regions]`), `tuicast.toml` (`Config::load`, read from a file as tuicast reads it, and its
//! `[regions]` under a cast's: `CastFile::parse_with`), and the value parsers they use
//! (durations, sizes). Any text gives a value or a positioned error, never a panic.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tuicast::config::{parse_duration, parse_toml, CastFile, Config, CONFIG_FILE};
use tuicast::size::Size;

/// A private folder for this process's `tuicast.toml`, made once.
fn root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tuicast-fuzz-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("casts/fuzz.toml");
    match CastFile::parse(path, text, &tuicast::config::Regions::default()) {
        Ok(file) => {
            let _ = file.scenario();
        }
        Err(e) => {
            assert_eq!(e.path, path);
            let _ = e.to_string();
        }
    }
    let _: Result<toml::Value, _> = parse_toml(path, text);

    let root = root();
    std::fs::write(root.join(CONFIG_FILE), text).expect("writes tuicast.toml");
    match Config::load(root) {
        // The project's regions under the same text read as a cast's TOML.
        Ok(config) => {
            if let Err(e) = CastFile::parse(path, text, &config.regions) {
                assert_eq!(e.path, path);
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }

    // Lines as values: durations and sizes are written by hand in both files.
    for line in text.lines().take(8) {
        let _ = parse_duration(line);
        let _ = line.parse::<Size>();
    }
});
