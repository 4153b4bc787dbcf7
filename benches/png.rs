//! PNG and GIF rendering speed: render + encode of a busy 80x24 and 200x60 screen (colours,
//! attributes, box drawing), the parts on their own, both PNG compressions, and whole casts as
//! animated GIFs.
//!
//! The screens are made by `busy_screen` and also written, as one-event casts, to
//! `target/png-bench/busy-80x24.cast` and `busy-200x60.cast`, so other renderers (agg) can be
//! timed on the same bytes. See docs/performance.md, "PNG rendering".
//!
//! ```text
//! cargo bench --bench png
//! ```

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::Criterion;
use tuicast::render::png::{self, Compression, GifEncoder, GifOptions, PngOptions, Renderer};
use tuicast::size::Size;
use tuicast::term::{EngineKind, Screen};
use tuicast::{cast, replay};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = root.join("target/png-bench");
    let _ = std::fs::create_dir_all(&out);
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();

    let mut group = c.benchmark_group("png");
    for size in [
        Size { cols: 80, rows: 24 },
        Size {
            cols: 200,
            rows: 60,
        },
    ] {
        let output = busy_output(size);
        write_cast(&out.join(format!("busy-{size}.cast")), size, &output);
        let screen = screen(size, &output);
        let mut renderer = Renderer::new(PngOptions::default()).expect("renderer");
        let image = renderer.render(&screen).expect("render");
        let bytes = png::encode_png(&image).expect("encode");
        eprintln!(
            "png bench: {size}: {}x{} pixels, {} KB PNG",
            image.width(),
            image.height(),
            bytes.len() / 1024
        );
        group.bench_function(format!("render+encode {size}"), |b| {
            b.iter(|| {
                let image = renderer.render(black_box(&screen)).expect("render");
                black_box(png::encode_png(&image).expect("encode"))
            })
        });
        group.bench_function(format!("render {size}"), |b| {
            b.iter(|| black_box(renderer.render(black_box(&screen)).expect("render")))
        });
        group.bench_function(format!("encode {size}"), |b| {
            b.iter(|| black_box(png::encode_png(black_box(&image)).expect("encode")))
        });
        let fast = png::encode_png_with(&image, Compression::Fast).expect("encode");
        eprintln!("png bench: {size}: {} KB PNG (fast)", fast.len() / 1024);
        group.bench_function(format!("render+encode fast {size}"), |b| {
            b.iter(|| {
                let image = renderer.render(black_box(&screen)).expect("render");
                black_box(png::encode_png_with(&image, Compression::Fast).expect("encode"))
            })
        });
        group.bench_function(format!("new renderer+render+encode {size}"), |b| {
            b.iter(|| {
                let mut r = Renderer::new(PngOptions::default()).expect("renderer");
                let image = r.render(black_box(&screen)).expect("render");
                black_box(png::encode_png(&image).expect("encode"))
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("gif");
    group.sample_size(10);
    for name in ["vim", "dialog", "progress"] {
        let cast: PathBuf = root.join(format!("casts/{name}.cast"));
        group.bench_function(format!("cast {name}"), |b| {
            b.iter(|| {
                let mut r = Renderer::new(PngOptions::default()).expect("renderer");
                let size = replay::largest_size(cast::open(&cast).expect("cast")).expect("size");
                let reader = cast::open(&cast).expect("cast");
                let header = reader.header().clone();
                let mut gif =
                    GifEncoder::new(&mut r, size, &GifOptions::default(), Vec::new()).expect("gif");
                for frame in replay::frames(&header, reader, EngineKind::Avt, 30) {
                    let (time, screen) = frame.expect("frame");
                    gif.add_frame(time, &screen).expect("gif");
                }
                black_box(gif.finish().expect("gif"))
            })
        });
    }
    group.finish();
    c.final_summary();
}

fn screen(size: Size, output: &str) -> Screen {
    let mut e = EngineKind::Avt.create(size);
    e.feed(output);
    e.screen()
}

/// A full screen in the style of a monitoring TUI: a framed title bar, a table of coloured
/// log lines with 16, 256 and truecolour, bold, underline and inverse, and a status line.
fn busy_output(size: Size) -> String {
    let (cols, rows) = (size.cols as usize, size.rows as usize);
    let words = [
        "connect",
        "GET",
        "/api/v1/items",
        "200",
        "cache",
        "miss",
        "retry",
        "worker-3",
        "flush",
        "ok",
        "WARN",
        "queue",
        "latency",
        "ms",
        "error:",
        "timeout",
    ];
    let mut s = String::from("\x1b[?25l\x1b[H");
    // Title bar.
    let title = " busy screen — tuicast png bench ";
    let _ = write!(s, "\x1b[1;37;44m{title:─^w$}\x1b[0m\r\n", w = cols);
    s.push('┌');
    s.push_str(&"─".repeat(cols - 2));
    s.push_str("┐\r\n");
    for r in 0..rows - 4 {
        s.push('│');
        let mut used = 0;
        let mut k = r * 7;
        while used + 15 <= cols - 2 {
            let w = words[k % words.len()];
            let style = match k % 9 {
                0 => format!("\x1b[3{}m", 1 + k % 7),
                1 => format!("\x1b[1;9{}m", 1 + k % 7),
                2 => format!("\x1b[38;5;{}m", 16 + (k * 37) % 216),
                3 => format!("\x1b[38;2;{};{};{}m", (k * 53) % 256, (k * 97) % 256, 200),
                4 => "\x1b[4m".to_string(),
                5 => format!("\x1b[7;3{}m", 1 + k % 7),
                6 => format!("\x1b[48;5;{}m", 232 + k % 24),
                _ => String::new(),
            };
            let _ = write!(s, "{style}{w}\x1b[0m ");
            used += w.chars().count() + 1;
            k += 1;
        }
        s.push_str(&" ".repeat(cols - 2 - used));
        s.push_str("│\r\n");
    }
    s.push('└');
    s.push_str(&"─".repeat(cols - 2));
    s.push_str("┘\r\n");
    let status = format!(" {rows} rows  ▁▂▃▅▇ load ⣿⣿⡇ ");
    let _ = write!(s, "\x1b[30;42m{status:<w$}\x1b[0m", w = cols);
    s
}

fn write_cast(path: &Path, size: Size, output: &str) {
    let header = format!(
        "{{\"version\": 2, \"width\": {}, \"height\": {}}}\n",
        size.cols, size.rows
    );
    let event = serde_json::to_string(&serde_json::json!([0.1, "o", output])).expect("json");
    let _ = std::fs::write(path, format!("{header}{event}\n"));
}
