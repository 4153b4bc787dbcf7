//! PNG goldens: [`PngCheck`] (how a picture is drawn and how far it may differ) and
//! [`check_png`], which compares decoded pixels, draws the changed cells beside a mismatch and
//! keeps one renderer per thread.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use super::check::{read_golden, remove_if_exists, write_as_allowed, write_file, Outcome, Verdict};
use super::diff::{Difference, Place};
use super::layout::diff_image_path;
use super::update::UpdateAction;
use crate::render::png::{self as png_render, PngConfig, PngOptions, Renderer};
use crate::term::Screen;

/// How PNG goldens are drawn and compared.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct PngCheck {
    /// How the screen is drawn (theme, font size, ...). The default draws with the bundled
    /// fonts only, so goldens are the same on every machine; [`PngOptions::system_fonts`] is
    /// ignored: a golden is drawn with the bundled fonts and the font folders only.
    pub options: PngOptions,
    /// The largest difference of one colour channel that still counts as equal (default 0).
    pub tolerance: u8,
    /// How many pixels may differ beyond the tolerance (default 0: exact).
    pub max_diff_pixels: u64,
}

impl PngCheck {
    /// The check set by a `[png]` table; relative font folders are taken from `root`.
    pub fn from_config(
        config: &PngConfig,
        root: &Path,
    ) -> Result<PngCheck, crate::render::png::PngConfigError> {
        let mut check = PngCheck::default();
        config.apply(&mut check.options, root)?;
        // `[png] system_fonts` is for screenshots: goldens are the same on every machine.
        check.options.system_fonts = false;
        check.tolerance = config.tolerance.unwrap_or(0);
        check.max_diff_pixels = config.max_diff_pixels.unwrap_or(0);
        Ok(check)
    }
}

thread_local! {
    /// The renderer of this thread's last PNG check: fonts are read and glyphs drawn once
    /// per thread and set of options, not once per checkpoint.
    static RENDERER: std::cell::RefCell<Option<Renderer>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with this thread's renderer for `options`, made anew only when they change.
fn with_renderer<T>(
    options: &PngOptions,
    f: impl FnOnce(&mut Renderer) -> Result<T, png_render::PngError>,
) -> Result<T, png_render::PngError> {
    RENDERER.with(|slot| {
        let mut renderer = match slot.borrow_mut().take() {
            Some(r) if r.options() == options => r,
            _ => Renderer::new(options.clone())?,
        };
        let out = f(&mut renderer);
        *slot.borrow_mut() = Some(renderer);
        out
    })
}

/// Draws `screen` as PNG and compares it, by decoded pixels, with the golden at `golden`.
/// Files are written as `action` allows, like [`check_file`](super::check_file); a mismatch with `WriteNew` also
/// writes [`diff_image_path`], the actual render with the changed cells outlined, and the
/// difference's text names it. Stale `.new` and diff files beside a passing golden are removed.
pub fn check_png(
    golden: &Path,
    screen: &Screen,
    check: &PngCheck,
    action: UpdateAction,
) -> io::Result<Outcome> {
    let diff_path = diff_image_path(golden);
    // Never the system's fonts: a golden is drawn the same on every machine.
    let forced;
    let options = if check.options.system_fonts {
        forced = check.options.clone().system_fonts(false);
        &forced
    } else {
        &check.options
    };
    let (image, layout, fonts) = with_renderer(options, |renderer| {
        let image = renderer.render(screen)?;
        Ok((image, renderer.layout(screen.size)?, renderer.fonts_used()))
    })
    .map_err(io::Error::other)?;
    // Whether this check drew the changes (mode `new`, a readable golden that differs).
    let mut drawn = false;
    let verdict = match read_golden(golden)? {
        None => Verdict::Missing,
        Some(bytes) => {
            let declared = png_render::png_dimensions(&bytes);
            let decoded = match declared {
                // A golden of another size is a mismatch without decoding it (a 470 KB file
                // can decode to 22000x22000 pixels, 2 GB).
                Some(size) if size != image.dimensions() => Err(size),
                _ => Ok(png_render::decode_png(&bytes)),
            };
            let (diff, expected) = match decoded {
                Err((w, h)) => {
                    let d = png_render::PixelDiff {
                        size: Some(((w, h), image.dimensions())),
                        ..Default::default()
                    };
                    (Some(d), format!("PNG {w}x{h}"))
                }
                Ok(Ok(golden_image)) => {
                    let d = png_render::compare(&golden_image, &image, check.tolerance, &layout);
                    let described =
                        format!("PNG {}x{}", golden_image.width(), golden_image.height());
                    (Some(d), described)
                }
                Ok(Err(_)) => (None, "a file that is not a readable PNG".to_string()),
            };
            match diff {
                Some(d) if d.passes(check.max_diff_pixels) => Verdict::Pass,
                diff => {
                    // Mode `new` draws the changes beside the `.new` file.
                    let diff_image = match (&diff, action) {
                        (Some(d), UpdateAction::WriteNew) => {
                            let img = png_render::diff_image(&image, d, &layout);
                            Some(png_render::encode_png(&img).map_err(io::Error::other)?)
                        }
                        _ => None,
                    };
                    let shown = diff_image.as_ref().map(|_| diff_path.as_path());
                    let mut difference = png_difference(diff.as_ref(), check, shown);
                    if let Some(recorded) = png_render::png_fonts(&bytes) {
                        difference
                            .diff
                            .push_str(&fonts_difference(&recorded, &fonts));
                    }
                    if let Some(data) = diff_image {
                        write_file(&diff_path, &data)?;
                        drawn = true;
                    }
                    Verdict::Mismatch {
                        expected,
                        difference,
                    }
                }
            }
        }
    };
    // No picture of the changes belongs beside a golden that passes, is replaced, or has no
    // readable picture to compare with: not even one from an earlier run.
    if action != UpdateAction::WriteNothing && !drawn {
        remove_if_exists(&diff_path)?;
    }
    // Encoded only when written: a passing check decodes the golden and compares pixels.
    write_as_allowed(golden, action, verdict, |path| {
        let bytes = png_render::encode_png_with_fonts(&image, Default::default(), &fonts)
            .map_err(io::Error::other)?;
        write_file(path, &bytes)
    })
}

/// Lines naming how the fonts a golden records ([`png_render::FONTS_KEY`]) differ from those
/// of this render; empty when they are the same.
fn fonts_difference(recorded: &str, now: &[String]) -> String {
    let then: Vec<&str> = recorded.lines().collect();
    let gone: Vec<&str> = then
        .iter()
        .copied()
        .filter(|f| !now.iter().any(|n| n == f))
        .collect();
    let new: Vec<&str> = now
        .iter()
        .map(String::as_str)
        .filter(|n| !then.contains(n))
        .collect();
    if gone.is_empty() && new.is_empty() {
        return String::new();
    }
    let list = |v: &[&str]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|f| crate::escape::escape_for_terminal(f, 200))
                .collect::<Vec<_>>()
                .join("; ")
        }
    };
    format!(
        "  the fonts differ (a font was added, removed or updated):\n    \
         the golden's only: {}\n    this render's only: {}\n",
        list(&gone),
        list(&new)
    )
}

/// Explains a PNG mismatch: where, how many pixels and cells, and the diff image.
fn png_difference(
    diff: Option<&png_render::PixelDiff>,
    check: &PngCheck,
    diff_image: Option<&Path>,
) -> Difference {
    let mut text = String::new();
    let place = match diff {
        None => {
            let _ = writeln!(text, "  the golden is not a readable PNG");
            Place::Header("content".into())
        }
        Some(d) => match d.size {
            Some(((ew, eh), (aw, ah))) => {
                let _ = writeln!(
                    text,
                    "  image size differs: golden {ew}x{eh}, actual {aw}x{ah} (a different terminal size, font size or padding)"
                );
                Place::Header("size".into())
            }
            None => {
                let (row, col) = d.cells.first().copied().unwrap_or((0, 0));
                let rows: std::collections::BTreeSet<u16> =
                    d.cells.iter().map(|c| c.0 + 1).collect();
                let shown: Vec<String> = rows.iter().take(12).map(|r| r.to_string()).collect();
                let _ = writeln!(
                    text,
                    "  {} pixels differ by more than {} ({} allowed) in {} cells of {} {}{}; largest channel difference {}",
                    d.pixels,
                    check.tolerance,
                    check.max_diff_pixels,
                    d.cells.len(),
                    if rows.len() == 1 { "row" } else { "rows" },
                    shown.join(", "),
                    if rows.len() > 12 { ", …" } else { "" },
                    d.max_delta
                );
                Place::Cell(crate::pos::Place::of(row as usize, col as usize))
            }
        },
    };
    if let Some(p) = diff_image {
        let _ = writeln!(
            text,
            "  diff image (changed cells outlined): {}",
            super::shown_path(p)
        );
    }
    Difference {
        place,
        diff: text,
        style_changes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert::{check_file, pending_path, Check, Format};

    fn screen(text: &str) -> Screen {
        crate::term::test_screen(crate::term::Size { cols: 8, rows: 2 }, text)
    }

    #[test]
    fn png_goldens_compare_by_pixels_and_explain_mismatches() {
        let dir = tempfile::tempdir().unwrap();
        let golden = dir.path().join("c/end.png");
        let new = pending_path(&golden);
        let diff = diff_image_path(&golden);
        let check = PngCheck::default();
        let hello = screen("hello");

        let o = check_png(&golden, &hello, &check, UpdateAction::WriteNew).unwrap();
        assert!(matches!(o, Outcome::Missing { pending: Some(_) }));
        assert!(crate::render::png::decode_png(&std::fs::read(&new).unwrap()).is_ok());
        let o = check_png(&golden, &hello, &check, UpdateAction::Overwrite).unwrap();
        assert!(matches!(o, Outcome::Updated));
        assert!(!new.exists());
        assert!(
            check_png(&golden, &hello, &check, UpdateAction::WriteNothing)
                .unwrap()
                .passed()
        );

        // One letter differs: the cell is named, `.new` and the diff image are written.
        let o = check_png(&golden, &screen("hellp"), &check, UpdateAction::WriteNew).unwrap();
        let Outcome::Mismatch {
            difference,
            pending: Some(_),
            ..
        } = &o
        else {
            panic!("{o:?}")
        };
        assert_eq!(
            difference.place,
            Place::Cell(crate::pos::Place::new(1, 5).unwrap())
        );
        assert!(
            difference.diff.contains("in 1 cells"),
            "{}",
            difference.diff
        );
        assert!(
            difference.diff.contains("end.png.diff.png"),
            "{}",
            difference.diff
        );
        assert!(new.exists() && diff.exists());
        let diff_image = crate::render::png::decode_png(&std::fs::read(&diff).unwrap()).unwrap();
        let actual = crate::render::png::decode_png(&std::fs::read(&new).unwrap()).unwrap();
        assert_eq!(diff_image.dimensions(), actual.dimensions());
        assert_ne!(diff_image, actual, "the changed cell is outlined");

        // The golden records its fonts; when they differ from this render's, the message
        // says so. The same fonts say nothing.
        assert!(
            !difference.diff.contains("fonts differ"),
            "{}",
            difference.diff
        );
        let recorded = crate::render::png::png_fonts(&std::fs::read(&golden).unwrap()).unwrap();
        assert!(
            recorded.starts_with("DejaVu Sans Mono, Version 2.37 (bundled)"),
            "{recorded}"
        );
        let good = std::fs::read(&golden).unwrap();
        let image = crate::render::png::decode_png(&good).unwrap();
        let other = vec!["Other Mono, Version 1 (font folder: other.ttf)".to_string()];
        let relabelled =
            crate::render::png::encode_png_with_fonts(&image, Default::default(), &other).unwrap();
        std::fs::write(&golden, relabelled).unwrap();
        let o = check_png(
            &golden,
            &screen("hellp"),
            &check,
            UpdateAction::WriteNothing,
        )
        .unwrap();
        let Outcome::Mismatch { difference, .. } = &o else {
            panic!("{o:?}")
        };
        assert!(
            difference.diff.contains(
                "the fonts differ (a font was added, removed or updated):\n    \
                 the golden's only: Other Mono, Version 1 (font folder: other.ttf)\n    \
                 this render's only: DejaVu Sans Mono, Version 2.37 (bundled)\n"
            ),
            "{}",
            difference.diff
        );
        std::fs::write(&golden, good).unwrap();

        // Allowed to differ: passes, and the stale files go.
        let lenient = PngCheck {
            max_diff_pixels: 10_000,
            ..PngCheck::default()
        };
        assert!(
            check_png(&golden, &screen("hellp"), &lenient, UpdateAction::WriteNew)
                .unwrap()
                .passed()
        );
        assert!(!new.exists() && !diff.exists());

        // A golden that is not a PNG gets no diff image, and an old one does not linger.
        let good = std::fs::read(&golden).unwrap();
        std::fs::write(&golden, b"not a png").unwrap();
        std::fs::write(&diff, b"stale").unwrap();
        let o = check_png(&golden, &hello, &check, UpdateAction::WriteNew).unwrap();
        assert!(!o.passed() && new.exists() && !diff.exists(), "{o:?}");
        std::fs::write(&golden, good).unwrap();
        std::fs::remove_file(&new).unwrap();

        // Mode no writes nothing; a bigger screen is a size mismatch.
        let mut big = hello.clone();
        big.size.cols = 9;
        for row in &mut big.rows {
            row.push(crate::term::Cell::default());
        }
        let o = check_png(&golden, &big, &check, UpdateAction::WriteNothing).unwrap();
        let Outcome::Mismatch {
            difference,
            pending: None,
            ..
        } = &o
        else {
            panic!("{o:?}")
        };
        assert_eq!(difference.place, Place::Header("size".into()));
        assert!(!new.exists() && !diff.exists());

        // A golden that is not a PNG is a mismatch, not a crash; text checks refuse PNGs.
        std::fs::write(&golden, "not a png").unwrap();
        let o = check_png(&golden, &hello, &check, UpdateAction::WriteNothing).unwrap();
        assert!(!o.passed());
        assert!(check_file(&golden, "x", UpdateAction::WriteNothing, false).is_err());
        let (o, text) = Check {
            format: Format::Png,
            golden: &golden,
            cast: "c.cast",
            checkpoint: "end",
            action: UpdateAction::Overwrite,
            color: false,
            png: &check,
            scrollback: 0,
            styles: true,
        }
        .check(&hello)
        .unwrap();
        assert!(matches!(o, Outcome::Updated));
        assert!(text.contains("hello"));
    }
}
