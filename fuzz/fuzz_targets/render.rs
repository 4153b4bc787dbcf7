//! PNG and GIF renders of tiny and odd screens: never a panic, an image of exactly the
//! layout's size, a PNG that decodes to it, a GIF that is one.
//!
//! Input: byte 0 and 1 the screen (1 to 20 columns, 1 to 8 rows); byte 2 the flags: bit 3 a
//! GIF whose screens change size, bits 4-7 the frame times' step, and bits 0-2 all set a
//! window frame with a title (one input in eight: its shadow is slow to draw); the rest is
//! output fed to the screen (for the GIF, in up to three frames).
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use tuicast::render::png::{
    decode_png, encode_png_with, Compression, Decorations, GifEncoder, GifOptions, PngOptions,
    Renderer,
};
use tuicast::size::Size;
use tuicast::term::EngineKind;

thread_local! {
    // Fonts are read and glyphs drawn once, not once per input.
    static RENDERER: RefCell<Renderer> =
        RefCell::new(Renderer::new(PngOptions::default()).expect("default options"));
}

fuzz_target!(|data: &[u8]| {
    let [c, r, flags, rest @ ..] = data else {
        return;
    };
    let size = Size {
        cols: 1 + (*c % 20) as u16,
        rows: 1 + (*r % 8) as u16,
    };
    let text = String::from_utf8_lossy(rest);
    RENDERER.with(|renderer| {
        let renderer = &mut *renderer.borrow_mut();
        let mut engine = EngineKind::Avt.create(size);
        engine.feed(&text);
        let screen = engine.screen();

        let layout = renderer.layout(screen.size).expect("a small screen fits");
        let image = renderer.render(&screen).expect("a small screen renders");
        assert_eq!(image.dimensions(), (layout.width, layout.height));
        let png = encode_png_with(&image, Compression::Fast).expect("encodes");
        let back = decode_png(&png).expect("our own PNG decodes");
        assert_eq!(back.dimensions(), image.dimensions());

        if flags & 7 == 7 {
            let mut decorations = Decorations::default();
            decorations.chrome = true;
            decorations.title = Some(text.chars().take(40).collect());
            let framed = renderer
                .render_decorated(&screen, &decorations)
                .expect("a small framed screen renders");
            assert!(framed.width() >= image.width() && framed.height() >= image.height());
        }

        // The GIF: up to three frames of the output, at times `step` apart (0 too: frames at
        // one time), on a canvas of `size`; with bit 3 the engine is resized between frames
        // so screens are smaller and larger than the canvas.
        let step = (flags >> 4) as f64 / 20.0;
        let mut gif = GifEncoder::new(renderer, size, &GifOptions::default(), Vec::new())
            .expect("a small GIF");
        let mut engine = EngineKind::Avt.create(size);
        let chars: Vec<char> = text.chars().collect();
        let per = chars.len().div_ceil(3).max(1);
        for (i, chunk) in chars.chunks(per).enumerate().chain(
            // An input without output still makes one frame.
            std::iter::once((0, &[][..])).filter(|_| chars.is_empty()),
        ) {
            if flags & 8 != 0 {
                engine.resize(Size {
                    cols: 1 + (size.cols + i as u16 * 7) % 24,
                    rows: 1 + (size.rows + i as u16 * 3) % 10,
                });
            }
            engine.feed(&chunk.iter().collect::<String>());
            gif.add_frame(i as f64 * step, &engine.screen())
                .expect("a frame");
        }
        let (stats, bytes) = gif.finish().expect("the GIF ends");
        assert!(stats.frames >= 1);
        assert!(bytes.starts_with(b"GIF89a"));
        assert_eq!(bytes.last(), Some(&0x3b), "a GIF ends with its trailer");
    });
});
