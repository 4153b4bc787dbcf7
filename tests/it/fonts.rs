//! Pictures of any text: a live neovim screen of CJK text and emoji drawn with Debian's Noto
//! CJK and Noto Color Emoji as system fonts (glyphs, not boxes; emoji in colour), the same
//! screen with `--no-system-fonts` (boxes), the fonts each PNG records, and PNG goldens that
//! never use system fonts, whatever the environment or `[png] system_fonts` say.

use std::fs;
use std::path::Path;

use image::RgbaImage;
use tuicast::render::png::{self, decode_png};

use crate::util::{have, record_scenario, Dir};

/// Debian's `fonts-noto-cjk` and `fonts-noto-color-emoji`.
const NOTO_CJK: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
const NOTO_EMOJI: &str = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf";

/// The file neovim shows: CJK on the first row, CJK and three emoji on the second.
const TEXT: &str = "日本語のテキスト\n絵文字 😀🎉🚀\n";

/// Whether nvim and the Noto fonts are here; without them the tests are skipped, except under
/// CI, where `.ci/run` installs them.
pub(crate) fn prerequisites() -> bool {
    let missing: Vec<&str> = [
        (!have("nvim")).then_some("nvim (neovim)"),
        (!Path::new(NOTO_CJK).is_file()).then_some(NOTO_CJK),
        (!Path::new(NOTO_EMOJI).is_file()).then_some(NOTO_EMOJI),
    ]
    .into_iter()
    .flatten()
    .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must have {} (.ci/run installs neovim, fonts-noto-cjk and fonts-noto-color-emoji)",
        missing.join(", ")
    );
    eprintln!(
        "skipped: {} not installed (apt-get install neovim fonts-noto-cjk fonts-noto-color-emoji)",
        missing.join(", ")
    );
    false
}

/// Records neovim showing [`TEXT`] in `dir`; the cast's path.
fn record_neovim(dir: &Dir) -> std::path::PathBuf {
    dir.write("notes.txt", TEXT);
    let (out, cast) = record_scenario(
        dir,
        "nvim",
        r#"command = ["nvim", "--clean", "notes.txt"]
size = "40x6"
env = { LANG = "C.UTF-8" }
steps = [
  { wait = "絵文字" },
  { wait = { idle = "300ms" } },
  { snapshot = "shown" },
  { press = [":", "q", "!", "Enter"] },
  { exit = 0 },
]
"#,
        &[],
    );
    out.success();
    cast
}

/// `tuicast screenshot CAST --at shown` with the system fonts of `system_dirs` (`None`:
/// `--no-system-fonts`): the picture and the fonts it records.
fn screenshot(dir: &Dir, cast: &Path, system_dirs: Option<&str>) -> (RgbaImage, String) {
    let out = dir.join("shot.png");
    let mut run = dir
        .tuicast(["screenshot"])
        .arg(cast)
        .args(["--at", "shown", "-o"])
        .arg(&out)
        // The cursor stays off the cells looked at.
        .args(["--cursor", "hidden"]);
    run = match system_dirs {
        Some(dirs) => run.env(png::SYSTEM_FONT_DIRS_ENV, dirs),
        None => run.arg("--no-system-fonts"),
    };
    run.run().success();
    let bytes = fs::read(&out).unwrap();
    let fonts = png::png_fonts(&bytes).unwrap_or_default();
    (decode_png(&bytes).unwrap(), fonts)
}

/// Whether a PNG's font list names the bundled fonts only.
fn bundled_only(fonts: &str) -> bool {
    !fonts.is_empty()
        && fonts
            .lines()
            .all(|f| f.starts_with("DejaVu Sans Mono") && f.ends_with(" (bundled)"))
}

/// The pixels of the cells `cols` of `row` (default layout: 10x19 cells, 12 pixels of padding).
fn cells(img: &RgbaImage, row: u32, cols: std::ops::Range<u32>) -> Vec<[u8; 4]> {
    let (cw, ch, pad) = (10, 19, 12);
    let mut out = Vec::new();
    for y in pad + row * ch..pad + (row + 1) * ch {
        for x in pad + cols.start * cw..pad + cols.end * cw {
            out.push(img.get_pixel(x, y).0);
        }
    }
    out
}

/// Pixels of a clear colour (not a grey: the theme's text and background are greys).
fn coloured(pixels: &[[u8; 4]]) -> usize {
    pixels
        .iter()
        .filter(|p| {
            let (hi, lo) = (p[0].max(p[1]).max(p[2]), p[0].min(p[1]).min(p[2]));
            hi - lo > 80
        })
        .count()
}

#[test]
fn a_neovim_screen_of_cjk_and_emoji_is_drawn_with_system_fonts() {
    if !prerequisites() {
        return;
    }
    let dir = Dir::new();
    let cast = record_neovim(&dir);
    let text = crate::util::screen_at(&cast, "shown");
    assert!(text.starts_with(TEXT), "{text}");

    let (with, fonts) = screenshot(&dir, &cast, Some("/usr/share/fonts"));
    let (without, bundled) = screenshot(&dir, &cast, None);
    assert_eq!(with.dimensions(), without.dimensions());
    assert!(fonts.contains("Noto Sans CJK"), "{fonts}");
    assert!(fonts.contains("Noto Color Emoji"), "{fonts}");
    assert!(bundled_only(&bundled), "{bundled}");
    assert!(bundled.starts_with("DejaVu Sans Mono, Version 2.37 (bundled)\n"));

    // 日 and 本 (row 1, cells 1-2 and 3-4): without system fonts the same box, with them two
    // different glyphs, neither the box.
    let (ri, bi) = (cells(&with, 0, 0..2), cells(&with, 0, 2..4));
    let (rb, bb) = (cells(&without, 0, 0..2), cells(&without, 0, 2..4));
    assert_eq!(
        rb, bb,
        "the missing-glyph box is the same for every character"
    );
    assert_ne!(ri, bi, "two glyphs");
    assert_ne!(ri, rb, "a glyph, not the box");
    let bg = with.get_pixel(1, 1).0;
    assert!(
        ri.iter().filter(|p| **p != bg).count() > 30,
        "the glyph has ink"
    );

    // The emoji (row 2, cells 8-13) are in colour, each its own picture; the boxes are grey.
    let emoji = [7, 9, 11].map(|c| cells(&with, 1, c..c + 2));
    for (i, e) in emoji.iter().enumerate() {
        assert!(coloured(e) > 40, "emoji {i} is in colour: {}", coloured(e));
        assert_eq!(
            coloured(&cells(&without, 1, 7 + 2 * i as u32..9 + 2 * i as u32)),
            0
        );
    }
    assert_ne!(emoji[0], emoji[1]);
    // The ASCII text around them is the same either way.
    assert_eq!(
        cells(&with, 5, 0..40),
        cells(&without, 5, 0..40),
        "the status row"
    );

    // No system font folder: the same as --no-system-fonts.
    let (none, fonts) = screenshot(&dir, &cast, Some(""));
    assert_eq!(none, without);
    assert_eq!(fonts, bundled);
}

#[test]
fn png_goldens_never_use_system_fonts() {
    if !prerequisites() {
        return;
    }
    let recorded = Dir::new();
    let cast = record_neovim(&recorded);
    let dir = Dir::new();
    fs::create_dir(dir.join("casts")).unwrap();
    fs::copy(&cast, dir.join("casts/nvim.cast")).unwrap();
    // Even asked for in `[png]`, system fonts are for screenshots only.
    dir.write(
        "tuicast.toml",
        "formats = [\"png\"]\n[png]\nsystem_fonts = true\n",
    );
    dir.tuicast(["test", "--update"])
        .env(png::SYSTEM_FONT_DIRS_ENV, "/usr/share/fonts")
        .run()
        .success();
    let golden = dir.join("snapshots/nvim/shown.png");
    let bytes = fs::read(&golden).unwrap();
    let fonts = png::png_fonts(&bytes).unwrap();
    assert!(
        bundled_only(&fonts),
        "a golden records the fonts that drew it, the bundled ones only: {fonts}"
    );
    for dirs in ["/usr/share/fonts", ""] {
        let out = dir
            .tuicast(["test"])
            .env(png::SYSTEM_FONT_DIRS_ENV, dirs)
            .run();
        assert!(
            out.succeeded(),
            "{dirs:?}: {}{}",
            out.stdout(),
            out.stderr()
        );
    }
    assert_eq!(fs::read(&golden).unwrap(), bytes, "the golden is untouched");
}
