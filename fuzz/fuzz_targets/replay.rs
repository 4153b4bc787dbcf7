//! Any output bytes replay without a panic in either engine (replay is total).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tuicast::size::Size;
use tuicast::term::EngineKind;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for kind in EngineKind::ALL {
        let mut engine = kind.create(Size { cols: 20, rows: 5 });
        // Split in two so chunk boundaries are exercised too.
        let cut = text
            .char_indices()
            .nth(text.chars().count() / 2)
            .map(|(i, _)| i)
            .unwrap_or(0);
        engine.feed(&text[..cut]);
        engine.feed(&text[cut..]);
        let _ = tuicast::render::text(&engine.screen());
        let _ = tuicast::render::json(&engine.screen());
    }
});
