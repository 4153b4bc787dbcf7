//! App manifests and selectors (issue 41): a `tuicast.toml` of `[adapters]` and `[regions]`,
//! then a selector, then output for a screen. Any text gives adapters or a positioned error,
//! and their refs on any screen are found within their budgets: no stack overflow (`above`
//! cycles are errors), at most `MAX_MANY` refs of one `many` ref, regexes within
//! `MAX_REGEX_BYTES`, never a panic.
//!
//! Input: the manifest, a line `\n@@\n`, the selector, a line `\n@@\n`, then output for a
//! 60x12 screen (each part optional: a manifest alone is read, and looked at on a blank
//! screen).
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tuicast::config::{Config, CONFIG_FILE};
use tuicast::inspect::{inspect, select, RefContext, Selector, MAX_MANY};
use tuicast::size::Size;
use tuicast::term::EngineKind;

/// A private folder for this process's `tuicast.toml`, made once.
fn root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("tuicast-fuzz-adapters-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.splitn(3, "\n@@\n");
    let manifest = parts.next().unwrap_or("");
    let selector = parts.next().unwrap_or("@cursor");
    let output = parts.next().unwrap_or("");
    let root = root();
    std::fs::write(root.join(CONFIG_FILE), manifest).expect("writes tuicast.toml");
    // Each run its own regex budget: the process's would run out across runs.
    let budget = tuicast::util::RegexBudget::default();
    let Ok(config) = budget.enter(|| Config::load(root)) else {
        return;
    };
    let mut engine = EngineKind::Native.create(Size { cols: 60, rows: 12 });
    engine.feed(output);
    let screen = engine.screen();
    let adapters = config.regions.adapters();
    let cx = RefContext::new(adapters).regions(&config.regions.anchors);
    // A limit passed or a regex past the budget is an error, never more refs.
    let found = inspect(&screen, &cx);
    for a in adapters.recognising(&screen, None).flatten() {
        let Ok(refs) = a.refs(&screen) else {
            continue;
        };
        let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
        for r in &refs {
            *kinds.entry(r.kind.as_str()).or_default() += 1;
        }
        assert!(kinds.values().all(|&n| n <= MAX_MANY), "{kinds:?}");
    }
    if let Ok(found) = found {
        let _ = found.json();
    }
    if let Ok(sel) = budget.enter(|| Selector::parse(selector)) {
        let _ = select(&sel, &screen, &cx);
    }
});
