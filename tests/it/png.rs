//! PNG and GIF rendering: decoded pixels of renders (colours, bold, underline, hidden text,
//! cursor and its shape, box drawing, wide characters, size), determinism against a committed
//! pixel hash, and the CLI (`replay --format png|gif`, `screenshot`, named annotation regions
//! from the scenario file).

use std::fs;

use image::RgbaImage;
use tuicast::render::png::{self, decode_png, Decorations, Layout, PngOptions, Renderer};
use tuicast::replay;
use tuicast::rgb::Rgb;
use tuicast::size::Size;
use tuicast::term::{EngineKind, Screen};
use tuicast::theme::Theme;

use crate::util::{root, tuicast, v3_cast, Dir, Tuicast};

fn screen(size: Size, input: &str) -> Screen {
    let mut e = EngineKind::Native.create(size);
    e.feed(input);
    e.screen()
}

/// Renders through PNG bytes and back, as a reader of the file would see it.
fn render(screen: &Screen, options: &PngOptions) -> (RgbaImage, Layout) {
    let bytes = png::render_png(screen, options, &Decorations::default()).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let layout = Renderer::new(options.clone())
        .unwrap()
        .layout(screen.size)
        .unwrap();
    (decode_png(&bytes).unwrap(), layout)
}

fn rgb(img: &RgbaImage, x: u32, y: u32) -> Rgb {
    let p = img.get_pixel(x, y).0;
    Rgb(p[0], p[1], p[2])
}

/// Every pixel of a cell.
fn cell_pixels(img: &RgbaImage, l: &Layout, row: u16, col: u16) -> Vec<Rgb> {
    let (x, y, w, h) = l.cell_rect(row, col);
    let mut out = Vec::new();
    for yy in y..y + h {
        for xx in x..x + w {
            out.push(rgb(img, xx, yy));
        }
    }
    out
}

const SMALL: Size = Size { cols: 10, rows: 3 };

#[test]
fn a_red_cell_has_the_theme_red_and_colours_resolve() {
    for name in ["asciinema", "dracula", "solarized-light"] {
        let theme = Theme::builtin(name).unwrap();
        let options = PngOptions::default().theme(theme.clone());
        let s = screen(
            SMALL,
            "\x1b[41m \x1b[0m\x1b[48;5;196m \x1b[0m\x1b[48;2;1;2;3m \x1b[0m\x1b[101m \x1b[0m",
        );
        let (img, l) = render(&s, &options);
        assert!(
            cell_pixels(&img, &l, 0, 0)
                .iter()
                .all(|&p| p == theme.palette[1]),
            "{name}"
        );
        assert!(
            cell_pixels(&img, &l, 0, 1)
                .iter()
                .all(|&p| p == Rgb(255, 0, 0)),
            "{name}"
        );
        assert!(
            cell_pixels(&img, &l, 0, 2)
                .iter()
                .all(|&p| p == Rgb(1, 2, 3)),
            "{name}"
        );
        assert!(
            cell_pixels(&img, &l, 0, 3)
                .iter()
                .all(|&p| p == theme.palette[9]),
            "{name}"
        );
        // Padding and empty cells are the theme's background.
        assert_eq!(rgb(&img, 0, 0), theme.bg);
        assert!(cell_pixels(&img, &l, 1, 5).iter().all(|&p| p == theme.bg));
    }
}

#[test]
fn bold_text_uses_the_bold_face() {
    // Default foreground, so only the face can make a difference.
    let (regular, l) = render(&screen(SMALL, "a"), &PngOptions::default());
    let (bold, _) = render(&screen(SMALL, "\x1b[1ma"), &PngOptions::default());
    let fg = Theme::default().fg;
    let ink = |img: &RgbaImage| {
        cell_pixels(img, &l, 0, 0)
            .iter()
            .map(|p| p.0 as u32)
            .sum::<u32>()
    };
    assert_ne!(
        cell_pixels(&regular, &l, 0, 0),
        cell_pixels(&bold, &l, 0, 0)
    );
    assert!(ink(&bold) > ink(&regular), "bold strokes are heavier");
    // With the asciinema theme, bold red is drawn bright red.
    let (img, l) = render(&screen(SMALL, "\x1b[1;41;31m█"), &PngOptions::default());
    let t = Theme::default();
    assert!(cell_pixels(&img, &l, 0, 0).contains(&t.palette[9]));
    assert!(!cell_pixels(&img, &l, 0, 0).contains(&fg));
}

#[test]
fn underline_and_strikethrough_draw_full_width_lines() {
    let fg = Theme::default().fg;
    let full_rows = |input: &str| {
        let (img, l) = render(&screen(SMALL, input), &PngOptions::default());
        let (x, y, w, h) = l.cell_rect(0, 0);
        (y..y + h)
            .filter(|&yy| (x..x + w).all(|xx| rgb(&img, xx, yy) == fg))
            .map(|yy| yy - y)
            .collect::<Vec<u32>>()
    };
    assert!(full_rows(" ").is_empty());
    let under = full_rows("\x1b[4m ");
    assert!(!under.is_empty(), "an underline row is drawn");
    let (_, l) = render(&screen(SMALL, ""), &PngOptions::default());
    assert!(under[0] > l.cell_height / 2, "in the lower half: {under:?}");
    let strike = full_rows("\x1b[9m ");
    assert!(!strike.is_empty() && strike[0] < under[0]);
}

#[test]
fn the_cursor_cell_is_drawn_unless_hidden() {
    let t = Theme::default();
    let mut s = screen(SMALL, "ab");
    s.cursor.col = 5;
    let (img, l) = render(&s, &PngOptions::default());
    assert!(
        cell_pixels(&img, &l, 0, 5).iter().all(|&p| p == t.fg),
        "a block cursor"
    );
    s.cursor.visible = false;
    let (img, l) = render(&s, &PngOptions::default());
    assert!(cell_pixels(&img, &l, 0, 5).iter().all(|&p| p == t.bg));
    // On a letter the block shows the letter in the background colour.
    s.cursor = tuicast::term::Cursor {
        row: 0,
        col: 0,
        visible: true,
        shape: Default::default(),
    };
    let (img, l) = render(&s, &PngOptions::default());
    let px = cell_pixels(&img, &l, 0, 0);
    assert!(px.contains(&t.fg) && px.contains(&t.bg));
}

#[test]
fn box_drawing_has_no_gaps_between_cells() {
    for size in [11.0, 16.0, 23.0, 40.0] {
        let options = PngOptions::default().font_size(size);
        let s = screen(SMALL, "\x1b[?25l┌────┐ ═══\r\n│    │ ━━━\r\n└────┘ ▀▀▀");
        let (img, l) = render(&s, &options);
        let bg = Theme::default().bg;
        let lit = |x: u32, y: u32| rgb(&img, x, y) != bg;
        // Rows lit in a middle cell of the top line must be lit across the whole line.
        let (x1, y0, cw, ch) = l.cell_rect(0, 2);
        let line_rows: Vec<u32> = (y0..y0 + ch).filter(|&y| lit(x1 + cw / 2, y)).collect();
        assert!(!line_rows.is_empty(), "{size}");
        let (left, _, _, _) = l.cell_rect(0, 1);
        let (right, _, _, _) = l.cell_rect(0, 5);
        for &y in &line_rows {
            assert!(
                (left..right).all(|x| lit(x, y)),
                "gap in ─ at {size}px, y {y}"
            );
        }
        // Columns lit in the middle of │ are lit from the top line through the bottom line.
        let (xv, ym, _, _) = l.cell_rect(1, 0);
        let cols: Vec<u32> = (xv..xv + cw).filter(|&x| lit(x, ym + ch / 2)).collect();
        assert!(!cols.is_empty());
        let (_, bottom_line, _, _) = l.cell_rect(2, 0);
        for &x in &cols {
            assert!(
                (line_rows[0]..bottom_line + ch / 2).all(|y| lit(x, y)),
                "gap in │ at {size}px, x {x}"
            );
        }
        // Double and heavy lines and blocks also run unbroken across their three cells.
        for row in 0..3u16 {
            let (xs, y, _, _) = l.cell_rect(row, 7);
            let ys: Vec<u32> = (y..y + ch).filter(|&yy| lit(xs + 1, yy)).collect();
            assert!(!ys.is_empty());
            for yy in ys {
                assert!(
                    (xs..xs + 3 * cw).all(|x| lit(x, yy)),
                    "row {row} at {size}px"
                );
            }
        }
    }
}

#[test]
fn a_wide_character_spans_two_cells() {
    let t = Theme::default();
    let s = screen(SMALL, "\x1b[41m日\x1b[0mx");
    let (img, l) = render(&s, &PngOptions::default());
    // The background covers both cells; the glyph (here the missing-glyph box, as no font
    // folder is given) reaches into the second cell; `x` is in the third.
    for col in [0, 1] {
        let px = cell_pixels(&img, &l, 0, col);
        assert!(
            px.contains(&t.palette[1]) && !px.contains(&t.bg),
            "cell {col}"
        );
    }
    let (x, y, cw, ch) = l.cell_rect(0, 1);
    let inked = (y..y + ch).any(|yy| (x..x + cw / 2).any(|xx| rgb(&img, xx, yy) == t.fg));
    assert!(inked, "the glyph box spans into the second cell");
    assert!(cell_pixels(&img, &l, 0, 2).contains(&t.fg));
    // With a system CJK font, the real glyph is drawn instead of the box.
    let dir = std::path::Path::new("/usr/share/fonts/truetype/wqy");
    if dir.is_dir() {
        let options = PngOptions::default().font_dirs(vec![dir.to_path_buf()]);
        let (real, _) = render(&s, &options);
        assert_ne!(real, img);
    }
}

#[test]
fn the_image_is_the_grid_times_the_cell_plus_padding() {
    for (size, font, pad) in [
        (SMALL, 16.0, 12),
        (Size { cols: 80, rows: 24 }, 14.0, 0),
        (Size { cols: 3, rows: 1 }, 30.0, 40),
    ] {
        let options = PngOptions::default().font_size(font).padding(pad);
        let r = Renderer::new(options.clone()).unwrap();
        let (cw, ch) = r.cell_size();
        let (img, _) = render(&screen(size, "x"), &options);
        assert_eq!(
            img.dimensions(),
            (
                size.cols as u32 * cw + 2 * pad,
                size.rows as u32 * ch + 2 * pad
            )
        );
    }
}

/// A screen using every feature, for the determinism checks.
fn rich_screen() -> Screen {
    let mut input = String::from(
        "\x1b[1mbold\x1b[0m \x1b[2mdim\x1b[0m \x1b[3mitalic\x1b[0m \x1b[4munder\x1b[0m \
         \x1b[9mstrike\x1b[0m \x1b[7minv\x1b[0m é e\u{301} 日本 ✓\r\n",
    );
    for i in 0..=255u32 {
        input.push_str(&format!("\x1b[48;5;{i}m \x1b[0m"));
        if i % 40 == 39 {
            input.push_str("\r\n");
        }
    }
    input.push_str("\r\n┌─┬─┐ ╔═╗ ╭─╮ ▁▂▃▄▅▆▇█ ░▒▓ ⠿⣿⡇ \u{e0b0} ╱╲\r\n└─┴─┘ ╚═╝ ╰─╯ \x1b[38;2;255;128;0mtruecolor\x1b[0m");
    screen(Size { cols: 48, rows: 14 }, &input)
}

/// FNV-1a over the pixels: a fingerprint that does not depend on the PNG encoder.
fn fingerprint(img: &RgbaImage) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in img.as_raw() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The fingerprint of `rich_screen` with the default options. It changes only when the
/// rendering changes on purpose; a different value on another machine means the output is
/// not deterministic.
const RICH_FINGERPRINT: u64 = 0xb3b3_d034_35e6_f85f;

#[test]
fn the_same_screen_gives_the_same_pixels_everywhere() {
    let s = rich_screen();
    let (a, _) = render(&s, &PngOptions::default());
    let mut renderer = Renderer::new(PngOptions::default()).unwrap();
    let b = renderer.render(&s).unwrap();
    let c = renderer.render(&s).unwrap(); // from the warm glyph cache
    assert_eq!(a, b);
    assert_eq!(b, c);
    let got = fingerprint(&a);
    if got != RICH_FINGERPRINT {
        let out = root().join("target/png-fingerprint-actual.png");
        let _ = fs::write(&out, png::encode_png(&a).unwrap());
        panic!(
            "the pixels of the reference screen changed: fingerprint {got:#018x}, expected \
             {RICH_FINGERPRINT:#018x}; the render is in {}. If the change is on purpose, \
             update RICH_FINGERPRINT in tests/it/png.rs; if this machine differs from \
             another, rendering is not deterministic.",
            out.display()
        );
    }
}

/// The example suite's dialog cast, for the CLI tests.
fn dialog() -> std::path::PathBuf {
    root().join("casts/dialog.cast")
}

#[test]
fn cli_writes_png_files_and_refuses_binary_on_stdout_without_o() {
    let dir = Dir::new();
    let out_path = dir.path().join("menu.png");
    Tuicast::new()
        .arg("replay")
        .arg(dialog())
        .args(["--at", "menu", "--format", "png", "-o"])
        .arg(&out_path)
        .run()
        .success();
    let img = decode_png(&fs::read(&out_path).unwrap()).unwrap();
    assert_eq!(img.dimensions(), (80 * 10 + 24, 24 * 19 + 24));

    let out = Tuicast::new()
        .arg("replay")
        .arg(dialog())
        .args(["--format", "png"])
        .run()
        .fails_with(2);
    assert!(out.stderr().contains("-o FILE"), "{out}");

    // `-o -` into a pipe is fine.
    let out = Tuicast::new()
        .arg("replay")
        .arg(dialog())
        .args(["--format", "png", "-o", "-"])
        .run()
        .success();
    assert!(out.stdout_bytes().starts_with(b"\x89PNG"));
}

#[test]
fn cli_picture_options_are_checked() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["--theme", "dracula"],
            "only apply to pictures and animations",
        ),
        (
            &["--format", "png", "-o", "x.png", "--theme", "plaid"],
            "unknown theme",
        ),
        (
            &["--format", "png", "-o", "x.png", "--font-size", "0"],
            "font size",
        ),
        (
            &["--format", "png", "-o", "x.png", "--annotate", "rows=10..3"],
            "range",
        ),
        (
            &["--format", "png", "-o", "x.png", "--fps", "10"],
            "only apply to animations (--format gif, apng or animated-svg)",
        ),
        (
            &["--format", "gif", "-o", "x.gif", "--chrome"],
            "only apply to --format png, svg and animated-svg",
        ),
        (
            &["--format", "gif", "-o", "x.gif", "--fps", "500"],
            "frame rate",
        ),
    ];
    let dir = Dir::new();
    for (args, why) in cases {
        let mut all = vec!["replay".to_string(), dialog().display().to_string()];
        all.extend(args.iter().map(|a| {
            if a.ends_with(".png") || a.ends_with(".gif") {
                dir.path().join(a).display().to_string()
            } else {
                a.to_string()
            }
        }));
        let out = tuicast(&all).fails_with(2);
        assert!(out.stderr().contains(why), "{args:?}: {out}");
    }
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn cli_annotations_and_chrome_are_drawn() {
    let dir = Dir::new();
    let plain = dir.path().join("plain.png");
    let fancy = dir.path().join("fancy.png");
    let base = |out: &std::path::Path| {
        vec![
            "replay".to_string(),
            dialog().display().to_string(),
            "--at".into(),
            "menu".into(),
            "--format".into(),
            "png".into(),
            "-o".into(),
            out.display().to_string(),
        ]
    };
    tuicast(base(&plain)).success();
    let mut args = base(&fancy);
    args.extend([
        "--chrome".to_string(),
        "--annotate".into(),
        "regex=banana,label=Picked,color=#00ff00".into(),
        "--annotate".into(),
        "regex=no such text".into(),
    ]);
    let out = tuicast(&args).success();
    assert!(out.stderr().contains("boxes nothing"), "{out}");
    let plain = decode_png(&fs::read(&plain).unwrap()).unwrap();
    let fancy = decode_png(&fs::read(&fancy).unwrap()).unwrap();
    assert!(fancy.width() > plain.width() && fancy.height() > plain.height());
    assert_eq!(fancy.get_pixel(0, 0).0[3], 0, "the margin is transparent");
    assert!(
        fancy.pixels().any(|p| p.0 == [0, 255, 0, 255]),
        "the annotation colour"
    );
}

#[test]
fn cli_gif_animates_the_whole_cast() {
    let dir = Dir::new();
    let out_path = dir.path().join("progress.gif");
    let cast = root().join("casts/progress.cast");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "replay".to_string(),
            cast.display().to_string(),
            "--format".into(),
            "gif".into(),
            "-o".into(),
            out_path.display().to_string(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        tuicast(&args).success();
        frames(&fs::read(&out_path).unwrap())
    };
    let normal = run(&[]);
    assert!(
        normal.len() >= 10,
        "one frame per progress step: {}",
        normal.len()
    );
    let total = |f: &[u16]| f.iter().map(|&d| d as u32).sum::<u32>();
    assert_eq!(*normal.last().unwrap(), 300, "the last frame is held 3 s");
    let fast = run(&["--speed", "2", "--last-frame", "1"]);
    assert!(total(&fast) < total(&normal));
    let capped = run(&["--fps", "2"]);
    assert!(
        capped.len() < normal.len(),
        "{} vs {}",
        capped.len(),
        normal.len()
    );
}

/// The delays (centiseconds) of a GIF's frames.
fn frames(bytes: &[u8]) -> Vec<u16> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).unwrap();
    let mut out = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        out.push(frame.delay);
    }
    out
}

#[test]
fn cli_uses_the_casts_own_theme_unless_told_otherwise() {
    let dir = Dir::new();
    let palette: Vec<String> = (0..16)
        .map(|i| format!("\"#{:02x}0000\"", i * 16))
        .collect();
    let cast = dir.write(
        "themed.cast",
        format!(
            "{{\"version\": 3, \"term\": {{\"cols\": 4, \"rows\": 1, \"theme\": {{\"fg\": \"#ffffff\", \
             \"bg\": \"#102030\", \"palette\": \"{}\"}}}}}}\n[0.1, \"o\", \"\\u001b[?25lab\"]\n",
            palette.join(":").replace('"', "")
        ),
    );
    let out_path = dir.path().join("t.png");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "replay".to_string(),
            cast.display().to_string(),
            "--format".into(),
            "png".into(),
            "-o".into(),
            out_path.display().to_string(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        tuicast(&args).success();
        decode_png(&fs::read(&out_path).unwrap()).unwrap()
    };
    assert_eq!(
        rgb(&run(&[]), 0, 0),
        Rgb(0x10, 0x20, 0x30),
        "the cast's background"
    );
    let nord = Theme::builtin("nord").unwrap();
    assert_eq!(rgb(&run(&["--theme", "nord"]), 0, 0), nord.bg);
    assert_eq!(
        rgb(
            &run(&["--theme", "000001,ffffff,000,111,222,333,444,555,666,777"]),
            0,
            0
        ),
        Rgb(0, 0, 1)
    );
}

#[test]
fn cli_warns_about_a_cast_theme_it_cannot_read_and_draws_anyway() {
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("odd.cast");
    fs::write(
        &cast,
        "{\"version\": 3, \"term\": {\"cols\": 4, \"rows\": 1, \"theme\": {\"fg\": \"#ffffff\", \
         \"bg\": \"navy\", \"palette\": \"#000000\"}}}\n[0.1, \"o\", \"ab\"]\n",
    )
    .unwrap();
    let out_path = dir.path().join("t.png");
    let out = Tuicast::new()
        .arg("replay")
        .arg(&cast)
        .args(["--format", "png", "-o"])
        .arg(&out_path)
        .run()
        .success();
    let stderr = out.stderr();
    assert!(
        stderr.contains("the cast's theme is not used") && stderr.contains("\"navy\""),
        "{stderr}"
    );
    let img = decode_png(&fs::read(&out_path).unwrap()).unwrap();
    assert_eq!(rgb(&img, 0, 0), Theme::default().bg);
}

#[test]
fn many_labels_get_numbers_and_a_legend() {
    let s = screen(Size { cols: 20, rows: 6 }, "one two three four five");
    let specs = [
        "regex=one",
        "regex=two",
        "regex=three",
        "regex=four",
        "regex=five",
    ];
    let annotations: Vec<png::Annotation> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| format!("{spec},label=word {i}").parse().unwrap())
        .collect();
    let mut r = Renderer::new(PngOptions::default()).unwrap();
    let plain = r.render(&s).unwrap();
    let few = r
        .render_decorated(&s, &Decorations::annotated(annotations[..3].to_vec()))
        .unwrap();
    assert_eq!(
        few.dimensions(),
        plain.dimensions(),
        "three labels fit inline"
    );
    let many = r
        .render_decorated(&s, &Decorations::annotated(annotations))
        .unwrap();
    assert_eq!(many.width(), plain.width());
    assert!(
        many.height() > plain.height() + 5 * r.cell_size().1,
        "a legend line per label"
    );
    // A legend past the size limit is refused before anything is drawn.
    let huge: Vec<png::Annotation> = (0..150)
        .map(|i| format!("rows=1,label=L{i}").parse().unwrap())
        .collect();
    let mut big = Renderer::new(PngOptions::default().font_size(60.0).line_height(4.0)).unwrap();
    let err = big
        .render_decorated(&s, &Decorations::annotated(huge))
        .unwrap_err();
    assert!(matches!(err, png::PngError::TooLarge { .. }), "{err}");
}

#[test]
fn a_gif_of_a_resizing_cast_is_as_large_as_its_largest_screen() {
    let dir = Dir::new();
    let cast = dir.write(
        "resize.cast",
        v3_cast(
            10,
            2,
            &[
                r#"[0.1, "o", "small"]"#,
                r#"[0.5, "r", "30x4"]"#,
                r#"[0.1, "o", "\r\nbigger now"]"#,
            ],
        ),
    );
    let mut r = Renderer::new(PngOptions::default()).unwrap();
    let (stats, buf) = gif_of_cast(&cast, &mut r).unwrap();
    let big = r.layout(Size { cols: 30, rows: 4 }).unwrap();
    assert_eq!((stats.width, stats.height), (big.width, big.height));
    assert!(stats.frames >= 2, "{stats:?}");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let decoder = options.read_info(buf.as_slice()).unwrap();
    assert_eq!(
        (decoder.width() as u32, decoder.height() as u32),
        (big.width, big.height)
    );
    // A malformed cast is an error with its place, not a panic.
    fs::write(
        &cast,
        "{\"version\": 3, \"term\": {\"cols\": 10, \"rows\": 2}}\n[oops]\n",
    )
    .unwrap();
    let e = gif_of_cast(&cast, &mut r).unwrap_err();
    assert!(e.contains("resize.cast:2"), "{e}");
}

/// A GIF of a whole cast with the default options, composed as the CLI does: the largest
/// size, then cast → frames → encoder.
fn gif_of_cast(
    cast: &std::path::Path,
    r: &mut Renderer,
) -> Result<(png::GifStats, Vec<u8>), String> {
    let size = replay::largest_size(tuicast::cast::open(cast).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let reader = tuicast::cast::open(cast).map_err(|e| e.to_string())?;
    let header = reader.header().clone();
    let frames = replay::frames(&header, reader, EngineKind::Native, 30)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    png::render_gif(r, size, &png::GifOptions::default(), frames, Vec::new())
        .map_err(|e| e.to_string())
}

#[test]
fn a_gif_is_made_from_screens_in_memory() {
    // No cast file: screens from an engine fed by hand, timed by the caller.
    let small = Size { cols: 6, rows: 1 };
    let mut e = EngineKind::Native.create(small);
    let mut shots = Vec::new();
    for (t, text) in [(0.0, "one"), (0.5, " two"), (0.75, "")] {
        e.feed(text);
        shots.push((t, e.screen()));
    }
    let big = Size { cols: 12, rows: 2 };
    shots.push((1.0, screen(big, "bigger\r\nscreen")));
    let mut r = Renderer::new(PngOptions::default()).unwrap();
    let options = png::GifOptions::default().last_frame(2.0).repeat(false);
    let mut encoder = png::GifEncoder::new(&mut r, big, &options, Vec::new()).unwrap();
    for (t, s) in &shots {
        encoder.add_frame(*t, s).unwrap();
    }
    let (stats, bytes) = encoder.finish().unwrap();
    assert_eq!(stats.frames, 3, "the unchanged screen at 0.75 s is merged");
    assert_eq!(stats.duration, 3.0);
    assert_eq!(frames(&bytes), [50, 50, 200]);
    let layout = r.layout(big).unwrap();
    assert_eq!((stats.width, stats.height), (layout.width, layout.height));
    // The same frames through the one-call form make the same bytes.
    let (_, again) = png::render_gif(&mut r, big, &options, shots, Vec::new()).unwrap();
    assert_eq!(again, bytes);
    // No frame is no animation.
    let empty = png::GifEncoder::new(&mut r, big, &options, Vec::new()).unwrap();
    assert!(empty
        .finish()
        .unwrap_err()
        .to_string()
        .contains("one frame"));
}

#[test]
fn hidden_text_shows_only_its_background() {
    let t = Theme::default();
    // Cursor hidden, so only the cells count.
    let (img, l) = render(
        &screen(
            SMALL,
            "\x1b[?25l\x1b[41;8mX\x1b[0;4;8mY\x1b[0;8;7mZ\x1b[28mW",
        ),
        &PngOptions::default(),
    );
    assert!(
        cell_pixels(&img, &l, 0, 0)
            .iter()
            .all(|&p| p == t.palette[1]),
        "the red background, no glyph"
    );
    assert!(
        cell_pixels(&img, &l, 0, 1).iter().all(|&p| p == t.bg),
        "no glyph and no underline"
    );
    assert!(
        cell_pixels(&img, &l, 0, 2).iter().all(|&p| p == t.fg),
        "inverse: the foreground as background, no glyph"
    );
    assert!(
        cell_pixels(&img, &l, 0, 3).contains(&t.fg),
        "revealed text is drawn"
    );
}

#[test]
fn the_cursor_takes_the_shape_the_program_set_unless_overridden() {
    let t = Theme::default();
    let lit_columns = |img: &RgbaImage, l: &Layout| {
        let (x, y, w, h) = l.cell_rect(0, 2);
        (x..x + w)
            .filter(|&xx| (y..y + h).all(|yy| rgb(img, xx, yy) == t.fg))
            .count() as u32
    };
    let lit_rows = |img: &RgbaImage, l: &Layout| {
        let (x, y, w, h) = l.cell_rect(0, 2);
        (y..y + h)
            .filter(|&yy| (x..x + w).all(|xx| rgb(img, xx, yy) == t.fg))
            .count() as u32
    };
    let (img, l) = render(&screen(SMALL, "ab"), &PngOptions::default());
    assert_eq!(lit_columns(&img, &l), l.cell_width, "a block by default");
    let (img, l) = render(&screen(SMALL, "ab\x1b[6 q"), &PngOptions::default());
    let bar = lit_columns(&img, &l);
    assert!(bar > 0 && bar < l.cell_width / 2, "a bar: {bar} columns");
    let (img, l) = render(&screen(SMALL, "ab\x1b[3 q"), &PngOptions::default());
    let under = lit_rows(&img, &l);
    assert!(
        under > 0 && under < l.cell_height / 4,
        "an underline: {under} rows"
    );
    assert_eq!(lit_columns(&img, &l), 0);
    // The option overrides the program's shape.
    let block = PngOptions::default().cursor(Some(tuicast::term::CursorKind::Block));
    let (img, l) = render(&screen(SMALL, "ab\x1b[6 q"), &block);
    assert_eq!(lit_columns(&img, &l), l.cell_width);
    let hidden = PngOptions::default().hide_cursor(true);
    let (img, l) = render(&screen(SMALL, "ab\x1b[6 q"), &hidden);
    assert!(cell_pixels(&img, &l, 0, 2).iter().all(|&p| p == t.bg));
}

#[test]
fn cli_screenshot_is_replay_format_png() {
    let dir = Dir::new();
    let a = dir.path().join("a.png");
    let b = dir.path().join("b.png");
    let cast = dialog().display().to_string();
    tuicast([
        "replay",
        &cast,
        "--at",
        "menu",
        "--format",
        "png",
        "--theme",
        "nord",
        "-o",
        &a.display().to_string(),
    ])
    .success();
    tuicast([
        "screenshot",
        &cast,
        "--at",
        "menu",
        "--theme",
        "nord",
        "-o",
        &b.display().to_string(),
    ])
    .success();
    assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());
    // -o is required; GIF options are not screenshot options; --help ends with examples.
    let out = tuicast(["screenshot", &cast]).fails_with(2);
    assert!(out.stderr().contains("--output"), "{out}");
    tuicast(["screenshot", &cast, "-o", "x.png", "--fps", "3"]).fails_with(2);
    let out = tuicast(["screenshot", "--help"]).success();
    let help = out.stdout();
    let tail = &help[help.rfind("Examples:").expect("examples")..];
    assert!(
        tail.lines()
            .skip(1)
            .all(|l| l.trim().is_empty() || l.starts_with("  ")),
        "{tail}"
    );
    assert!(tail.contains("tuicast screenshot "), "{tail}");
    let out = tuicast([
        "screenshot",
        &cast,
        "--at",
        "nowhere",
        "-o",
        &a.display().to_string(),
    ])
    .fails_with(2);
    assert!(out.stderr().contains("no checkpoint named"), "{out}");
}

#[test]
fn cli_annotates_named_regions_of_the_scenario_file() {
    let dir = Dir::new();
    let cast = dir.write(
        "menu.cast",
        v3_cast(
            20,
            4,
            &[r#"[0.1, "o", "apple\r\nbanana\r\ncherry\r\nstatus: ok"]"#],
        ),
    );
    let out_path = dir.path().join("menu.png");
    let run = |specs: &[&str]| {
        let mut args = vec![
            "screenshot".to_string(),
            cast.display().to_string(),
            "-o".into(),
            out_path.display().to_string(),
            "--padding".into(),
            "40".into(),
        ];
        for s in specs {
            args.push("--annotate".into());
            args.push(s.to_string());
        }
        tuicast(&args)
    };
    // No scenario beside the cast: the error names the file it looked for.
    let out = run(&["region=status"]).fails_with(2);
    let stderr = out.stderr();
    assert!(
        stderr.contains("menu.toml") && stderr.contains("no scenario file"),
        "{stderr}"
    );
    let scenario = dir.path().join("menu.toml");
    fs::write(
        &scenario,
        "command = [\"true\"]\n\n[regions]\n\
         status = { rows = \"4\", cols = \"1..11\", label = \"status line\", color = \"#ff8800\" }\n\
         menu = { regex = \"apple|banana\" }\n",
    )
    .unwrap();
    run(&["region=status"]).success();
    let img = decode_png(&fs::read(&out_path).unwrap()).unwrap();
    assert!(
        img.pixels().any(|p| p.0 == [0xff, 0x88, 0x00, 255]),
        "the region's colour"
    );
    // The spec's own keys override the region's; a regex region boxes its matches.
    run(&["region=status,color=#00ff00", "region=menu,color=#0000ff"]).success();
    let img = decode_png(&fs::read(&out_path).unwrap()).unwrap();
    assert!(img.pixels().any(|p| p.0 == [0, 255, 0, 255]));
    assert!(img.pixels().any(|p| p.0 == [0, 0, 255, 255]));
    assert!(!img.pixels().any(|p| p.0 == [0xff, 0x88, 0x00, 255]));
    // An unknown name: the file and the regions it has.
    let out = run(&["region=sidebar"]).fails_with(2);
    let stderr = out.stderr();
    assert!(
        stderr.contains("menu.toml")
            && stderr.contains("no region named \"sidebar\"")
            && stderr.contains("menu, status"),
        "{stderr}"
    );
    // An anchored region takes its cells from its anchor: the spec cannot give others.
    fs::write(&scenario, "[regions]\nlast = { last_row = true }\n").unwrap();
    run(&["region=last"]).success();
    let out = run(&["region=last,rows=1"]).fails_with(2);
    assert!(
        out.stderr()
            .contains("region is anchored by content (last_row = true): rows, cols and regex"),
        "{out}"
    );
    // A bad region is reported with its name and file.
    fs::write(&scenario, "[regions]\nbroken = { rows = \"10..3\" }\n").unwrap();
    let out = run(&["region=broken"]).fails_with(2);
    let stderr = out.stderr();
    assert!(
        stderr.contains("broken") && stderr.contains("menu.toml") && stderr.contains("range"),
        "{stderr}"
    );
    // Unknown keys in a region are a scenario error with its place.
    fs::write(&scenario, "[regions]\nx = { rowz = \"1\" }\n").unwrap();
    let out = run(&["region=x"]).fails_with(2);
    let stderr = out.stderr();
    assert!(stderr.contains("menu.toml:2"), "{stderr}");
    // Without a scenario file at all, `replay` says the same as `screenshot`.
    fs::remove_file(&scenario).unwrap();
    let out = tuicast([
        "replay".to_string(),
        cast.display().to_string(),
        "--format".into(),
        "png".into(),
        "-o".into(),
        out_path.display().to_string(),
        "--annotate".into(),
        "region=menu".into(),
    ]);
    assert!(out.stderr().contains("no scenario file"), "{out}");
}

#[test]
fn a_gif_of_a_malformed_cast_names_the_problem_once() {
    let dir = Dir::new();
    let cast = dir.write("bad.cast", v3_cast(10, 2, &[r#"[0.1, "r", "0x0"]"#]));
    let gif = dir.path().join("x.gif");
    let out = Tuicast::new()
        .arg("replay")
        .arg(&cast)
        .args(["--format", "gif", "-o"])
        .arg(&gif)
        .run()
        .fails_with(2);
    let stderr = out.stderr();
    assert_eq!(stderr.matches("zero columns").count(), 1, "{stderr}");
    assert!(!gif.exists());
}

/// The cell size the recorder reports to XTWINOPS (`CSI 16 t`, and `CSI 14 t` through it) is
/// the renderer's cell at its default font, so a program that sizes pictures from it fits
/// them to tuicast's screenshots.
#[test]
fn the_cell_size_reported_to_programs_is_the_renderers() {
    let layout = Renderer::new(PngOptions::default())
        .unwrap()
        .layout(Size { cols: 80, rows: 24 })
        .unwrap();
    let (w, h) = tuicast::record::CELL_PIXELS;
    assert_eq!(
        (layout.cell_width, layout.cell_height),
        (u32::from(w), u32::from(h))
    );
}

/// The bounds (x0, y0, x1, y1) of the pixels of exactly `colour`, if any.
fn bounds_of(img: &RgbaImage, colour: [u8; 3]) -> Option<(u32, u32, u32, u32)> {
    let mut b: Option<(u32, u32, u32, u32)> = None;
    for (x, y, p) in img.enumerate_pixels() {
        if p.0 == [colour[0], colour[1], colour[2], 255] {
            b = Some(match b {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
    }
    b
}

/// An annotation on a region anchored by content (here from `tuicast.toml`, there is no
/// scenario beside the cast) boxes what the anchor finds on the checkpoint's own screen: the
/// status line on row 2 at `early`, on row 4 at the end; one that finds nothing there fails,
/// naming the region and what it looked for.
#[test]
fn an_annotation_on_an_anchored_region_boxes_what_it_finds_on_that_screen() {
    let dir = Dir::new();
    let cast = dir.write(
        "casts/menu.cast",
        v3_cast(
            20,
            4,
            &[
                r#"[0.1, "o", "apple\r\nstatus: ok"]"#,
                r#"[0.1, "m", "early"]"#,
                r#"[0.1, "o", "\u001b[2J\u001b[Happle\r\nbanana\r\ncherry\r\nstatus: ok"]"#,
            ],
        ),
    );
    dir.write(
        "tuicast.toml",
        "[regions]\nstatus = { match = { regex = \"status: \\\\w+\" }, color = \"#00ff00\", label = \"\" }\n\
         gone = { row = { regex = \"NOPE\" } }\n",
    );
    let png = dir.path().join("menu.png");
    let shot = |at: &str, spec: &str| {
        dir.tuicast([
            "screenshot",
            &cast.display().to_string(),
            "--at",
            at,
            "-o",
            &png.display().to_string(),
            "--padding",
            "40",
            "--annotate",
            spec,
        ])
        .run()
    };
    let layout = Renderer::new(PngOptions::default().padding(40))
        .unwrap()
        .layout(Size { cols: 20, rows: 4 })
        .unwrap();
    for (at, row) in [("early", 1u16), ("end", 3)] {
        shot(at, "region=status").success();
        let img = decode_png(&fs::read(&png).unwrap()).unwrap();
        let (x0, y0, x1, y1) = bounds_of(&img, [0, 255, 0]).expect("the region's colour");
        // The box is drawn just outside the cells of "status: ok" (columns 1 to 10).
        let (cx0, cy0, _, _) = layout.cell_rect(row, 0);
        let (cx1, cy1, cw, ch) = layout.cell_rect(row, 9);
        let (right, bottom) = (cx1 + cw, cy1 + ch);
        assert!(x0 < cx0 && x0 + cw / 2 > cx0, "{at}: left {x0} by {cx0}");
        assert!(
            x1 >= right && x1 < right + cw / 2,
            "{at}: right {x1} by {right}"
        );
        assert!(y0 < cy0 && y0 + ch / 2 > cy0, "{at}: top {y0} by {cy0}");
        assert!(
            y1 >= bottom && y1 < bottom + ch / 2,
            "{at}: bottom {y1} by {bottom}"
        );
    }
    let out = shot("end", "region=gone").fails_with(2);
    assert!(
        out.stderr().contains(
            "--annotate \"region=gone\": region \"gone\" (row = { regex = \"NOPE\" }) finds \
             nothing on this screen: no row matches regex \"NOPE\""
        ),
        "{out}"
    );
    assert!(!out.stderr().contains("panicked"), "{out}");
    let out = shot("end", "region=nope").fails_with(2);
    assert!(
        out.stderr()
            .contains("tuicast.toml: no region named \"nope\"; the regions are: gone, status"),
        "{out}"
    );
}
