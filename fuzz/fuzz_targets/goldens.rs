//! The golden parsers: `styled.txt` styles (`assert::parse_styles`) on any text and PNG
//! goldens (`render::png::decode_png`) on any bytes, never a panic; and a round trip: the
//! styles parsed from a screen's `styled.txt` render are the screen's own.
//!
//! Input: byte 0 chooses: even, the rest is golden text then PNG bytes (both parsers see
//! it); odd, the rest is output fed to a 12x4 screen whose `styled.txt` render is parsed back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tuicast::assert::{parse_styles, render, Format, Style};
use tuicast::render::png::decode_png;
use tuicast::size::Size;
use tuicast::term::EngineKind;

fuzz_target!(|data: &[u8]| {
    let [choice, rest @ ..] = data else {
        return;
    };
    if choice % 2 == 0 {
        let _ = parse_styles(&String::from_utf8_lossy(rest));
        if let Ok(image) = decode_png(rest) {
            assert!(image.width() > 0 && image.height() > 0);
        }
        return;
    }
    let size = Size { cols: 12, rows: 4 };
    let mut engine = EngineKind::Avt.create(size);
    engine.feed(&String::from_utf8_lossy(rest));
    let screen = engine.screen();
    let golden = render(Format::Styled, "fuzz", "end", &screen);
    let styles = parse_styles(&golden);
    for (r, row) in screen.rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let parsed = styles.get(&(r, c)).copied().unwrap_or_default();
            assert_eq!(
                parsed,
                Style::of(cell),
                "cell {}:{} of\n{golden}",
                r + 1,
                c + 1
            );
        }
    }
});
