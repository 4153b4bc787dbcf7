//! Fonts: DejaVu Sans Mono (regular, bold, oblique, bold oblique) bundled in the binary,
//! optional fallback fonts from font folders for what it lacks (CJK, emoji), and, last, the
//! system's fonts when asked ([`super::system`]). Glyphs are rasterized once per character,
//! style and width, and cached with the font that drew them, so a render can say which fonts
//! it used ([`Fonts::used`]).
//!
//! Only the bundled fonts are used unless a font folder is given or system fonts are asked
//! for, so output does not depend on the fonts a machine happens to have.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use ab_glyph::{point, Font, FontArc, FontVec, GlyphId, GlyphImageFormat, PxScale};

use super::system::SystemFonts;
use super::PngError;

const REGULAR: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono.ttf");
const BOLD: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono-Bold.ttf");
const ITALIC: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono-Oblique.ttf");
const BOLD_ITALIC: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono-BoldOblique.ttf");

/// Font files read from a font folder, by extension.
pub(crate) const FONT_EXTENSIONS: [&str; 4] = ["ttf", "otf", "ttc", "otc"];

/// Largest font file read from a font folder or the system (Noto CJK collections are about
/// 20–30 MB).
pub(crate) const MAX_FONT_FILE: u64 = 64 << 20;

/// Names of the bundled faces, as a PNG records them when their names cannot be read.
const BUNDLED_FILES: [&str; 4] = [
    "DejaVuSansMono.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSansMono-Oblique.ttf",
    "DejaVuSansMono-BoldOblique.ttf",
];

/// Regular, bold, italic or bold italic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Style {
    Regular = 0,
    Bold = 1,
    Italic = 2,
    BoldItalic = 3,
}

impl Style {
    pub(crate) fn of(bold: bool, italic: bool) -> Style {
        match (bold, italic) {
            (false, false) => Style::Regular,
            (true, false) => Style::Bold,
            (false, true) => Style::Italic,
            (true, true) => Style::BoldItalic,
        }
    }
}

/// A rasterized glyph, positioned relative to the top-left corner of its cell box.
#[derive(Debug, Clone)]
pub(crate) struct Bitmap {
    pub(crate) left: i32,
    pub(crate) top: i32,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) pixels: Pixels,
}

/// What a glyph bitmap holds.
#[derive(Debug, Clone)]
pub(crate) enum Pixels {
    /// Coverage, one byte a pixel, drawn in the text colour.
    Mask(Vec<u8>),
    /// A colour image (emoji), RGBA with straight alpha.
    Color(Vec<u8>),
}

/// Pixel metrics of the grid, all integers so lines join across cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Metrics {
    pub(crate) cell_width: u32,
    pub(crate) cell_height: u32,
    /// Baseline, from the top of the cell.
    pub(crate) baseline: u32,
    pub(crate) underline_y: u32,
    pub(crate) underline_thickness: u32,
    pub(crate) strike_y: u32,
    /// Width of light box-drawing lines.
    pub(crate) light: u32,
    /// Width of heavy box-drawing lines.
    pub(crate) heavy: u32,
}

/// The font a glyph was drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Source {
    /// A bundled face, by [`Style`].
    Bundled(usize),
    /// A font of the font folders, by its place in them.
    FontDir(usize),
    /// A system font, by its place in the system's list.
    System(usize),
}

/// A fallback font of the font folders and its name.
struct Fallback {
    font: FontArc,
    name: String,
}

/// The bundled faces, the fallbacks, the system fonts, and the glyph cache.
pub(crate) struct Fonts {
    faces: [FontArc; 4],
    names: [String; 4],
    fallbacks: Vec<Fallback>,
    /// `None` when system fonts are not used.
    system: Option<SystemFonts>,
    /// Pixels per em.
    size: f32,
    metrics: Metrics,
    cache: HashMap<(char, Style, u8), Option<(Bitmap, Source)>>,
    /// The fonts that drew glyphs since [`Fonts::clear_used`].
    used: BTreeSet<Source>,
    /// Names of the system fonts used, by index.
    system_names: HashMap<usize, String>,
}

impl std::fmt::Debug for Fonts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fonts")
            .field("size", &self.size)
            .field("fallbacks", &self.fallbacks.len())
            .field("system", &self.system)
            .field("metrics", &self.metrics)
            .finish_non_exhaustive()
    }
}

impl Fonts {
    /// The bundled fonts at `size` pixels per em, cells `line_height` × size tall, with the
    /// fonts found in `dirs` as fallbacks (in the order given; files sorted by path), and the
    /// system fonts of `system_dirs` after them when given (read only when a character needs
    /// them).
    pub(crate) fn new(
        size: f32,
        line_height: f32,
        dirs: &[PathBuf],
        system_dirs: Option<Vec<PathBuf>>,
    ) -> Result<Fonts, PngError> {
        let bundled = |data: &'static [u8], name: &str| {
            FontArc::try_from_slice(data).map_err(|e| PngError::Font {
                path: PathBuf::from(name),
                message: e.to_string(),
            })
        };
        let faces = [
            bundled(REGULAR, "DejaVuSansMono.ttf")?,
            bundled(BOLD, "DejaVuSansMono-Bold.ttf")?,
            bundled(ITALIC, "DejaVuSansMono-Oblique.ttf")?,
            bundled(BOLD_ITALIC, "DejaVuSansMono-BoldOblique.ttf")?,
        ];
        let mut fallbacks = Vec::new();
        for dir in dirs {
            fallbacks.extend(load_dir(dir)?);
        }
        let names = [0, 1, 2, 3].map(|i| {
            let data = [REGULAR, BOLD, ITALIC, BOLD_ITALIC][i];
            let name = describe(data).unwrap_or_else(|| BUNDLED_FILES[i].to_string());
            format!("{name} (bundled)")
        });
        let metrics = metrics(&faces[0], size, line_height);
        Ok(Fonts {
            faces,
            names,
            fallbacks,
            system: system_dirs.map(SystemFonts::new),
            size,
            metrics,
            cache: HashMap::new(),
            used: BTreeSet::new(),
            system_names: HashMap::new(),
        })
    }

    pub(crate) fn metrics(&self) -> Metrics {
        self.metrics
    }

    /// The glyph of `c` in `style`, laid out in a box `span` cells wide; `None` when no font
    /// has it. The font it comes from counts as used.
    pub(crate) fn glyph(&mut self, c: char, style: Style, span: u8) -> Option<&Bitmap> {
        let key = (c, style, span);
        if !self.cache.contains_key(&key) {
            let bitmap = self.rasterize(c, style, span);
            self.cache.insert(key, bitmap);
        }
        let (bitmap, source) = self.cache.get(&key)?.as_ref()?;
        self.used.insert(*source);
        Some(bitmap)
    }

    /// Forgets which fonts were used (before a new picture).
    pub(crate) fn clear_used(&mut self) {
        self.used.clear();
    }

    /// The names of the fonts that drew glyphs since [`Fonts::clear_used`]: the bundled faces
    /// first, then the font folders' and the system's, each as `Full Name, Version (where)`.
    pub(crate) fn used(&self) -> Vec<String> {
        self.used
            .iter()
            .map(|s| match *s {
                Source::Bundled(i) => self.names[i].clone(),
                Source::FontDir(i) => self.fallbacks[i].name.clone(),
                Source::System(i) => self.system_names.get(&i).cloned().unwrap_or_default(),
            })
            .collect()
    }

    fn rasterize(&mut self, c: char, style: Style, span: u8) -> Option<(Bitmap, Source)> {
        let mut candidates: Vec<(&FontArc, Source)> =
            vec![(&self.faces[style as usize], Source::Bundled(style as usize))];
        if style != Style::Regular {
            candidates.push((&self.faces[0], Source::Bundled(0)));
        }
        candidates.extend(
            self.fallbacks
                .iter()
                .enumerate()
                .map(|(i, f)| (&f.font, Source::FontDir(i))),
        );
        for (font, source) in candidates {
            let id = font.glyph_id(c);
            if id.0 != 0 {
                return Some((self.draw(font, id, span), source));
            }
        }
        // Last, the system's fonts (looked for only now, when nothing else has `c`).
        let (i, loaded) = self.system.as_mut()?.find(c, style)?;
        let font = loaded.font.clone();
        self.system_names
            .entry(i)
            .or_insert_with(|| loaded.name.clone());
        let id = font.glyph_id(c);
        Some((self.draw(&font, id, span), Source::System(i)))
    }

    /// Glyph `id` of `font`: its outline, else its colour image, else (a space of some kind)
    /// an empty bitmap.
    fn draw(&self, font: &FontArc, id: GlyphId, span: u8) -> Bitmap {
        self.outline(font, id, span)
            .or_else(|| self.color_image(font, id, span))
            .unwrap_or(Bitmap {
                left: 0,
                top: 0,
                width: 0,
                height: 0,
                pixels: Pixels::Mask(Vec::new()),
            })
    }

    fn outline(&self, font: &FontArc, id: GlyphId, span: u8) -> Option<Bitmap> {
        let m = self.metrics;
        let box_w = m.cell_width as f32 * span as f32;
        let upem = font.units_per_em().unwrap_or(1000.0);
        let mut em = self.size;
        let advance = font.h_advance_unscaled(id) / upem * em;
        // A fallback glyph wider than its box is scaled down to fit.
        if advance > box_w * 1.05 && advance > 0.0 {
            em *= box_w / advance;
        }
        let advance = font.h_advance_unscaled(id) / upem * em;
        let height = font.height_unscaled() / upem * em;
        let x = ((box_w - advance) / 2.0).max(0.0).round();
        let glyph = id.with_scale_and_position(PxScale::from(height), point(x, m.baseline as f32));
        let outlined = font.outline_glyph(glyph)?;
        let bounds = outlined.px_bounds();
        let (w, h) = (bounds.width() as u32, bounds.height() as u32);
        if w == 0 || h == 0 || w > 4096 || h > 4096 {
            return None;
        }
        let mut mask = vec![0u8; (w * h) as usize];
        outlined.draw(|gx, gy, cov| {
            if gx < w && gy < h {
                mask[(gy * w + gx) as usize] = (cov.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
            }
        });
        Some(Bitmap {
            left: bounds.min.x as i32,
            top: bounds.min.y as i32,
            width: w,
            height: h,
            pixels: Pixels::Mask(mask),
        })
    }

    /// A colour bitmap glyph (CBDT/sbix emoji), scaled to fit its box.
    fn color_image(&self, font: &FontArc, id: GlyphId, span: u8) -> Option<Bitmap> {
        let m = self.metrics;
        let img = font.glyph_raster_image2(id, (self.size * 2.0).ceil() as u16)?;
        // Emoji strikes are 136 pixels or less; a larger image is not worth decoding.
        if !matches!(img.format, GlyphImageFormat::Png) || img.width > 1024 || img.height > 1024 {
            return None;
        }
        let decoded = image::load_from_memory_with_format(img.data, image::ImageFormat::Png)
            .ok()?
            .to_rgba8();
        let (sw, sh) = decoded.dimensions();
        if sw == 0 || sh == 0 {
            return None;
        }
        let box_w = m.cell_width * span as u32;
        let box_h = m.cell_height;
        // Fit inside the box, keeping the aspect ratio.
        let (mut w, mut h) = (box_w, (box_w as u64 * sh as u64 / sw as u64) as u32);
        if h > box_h {
            h = box_h;
            w = (box_h as u64 * sw as u64 / sh as u64) as u32;
        }
        let (w, h) = (w.max(1), h.max(1));
        let pixels = downscale(decoded.as_raw(), sw, sh, w, h);
        Some(Bitmap {
            left: ((box_w - w) / 2) as i32,
            top: ((box_h - h) / 2) as i32,
            width: w,
            height: h,
            pixels: Pixels::Color(pixels),
        })
    }
}

/// Cell metrics from the regular face: the advance of `M` rounded to whole pixels, the
/// height `line_height` ems, the baseline centring the font's ascent and descent.
fn metrics(font: &FontArc, size: f32, line_height: f32) -> Metrics {
    let upem = font.units_per_em().unwrap_or(2048.0);
    let advance = font.h_advance_unscaled(font.glyph_id('M')) / upem * size;
    let cell_width = (advance.round() as u32).max(1);
    let cell_height = ((size * line_height).round() as u32).max(2);
    let ascent = font.ascent_unscaled() / upem * size;
    let descent = -font.descent_unscaled() / upem * size;
    let top = (cell_height as f32 - (ascent + descent)) / 2.0;
    let baseline = ((top + ascent).round() as u32).clamp(1, cell_height - 1);
    let underline_thickness = ((size / 14.0).round() as u32).max(1);
    let underline_y = (baseline + ((size * 0.1).round() as u32).max(1))
        .min(cell_height.saturating_sub(underline_thickness));
    let strike_y = baseline.saturating_sub((size * 0.3).round() as u32);
    let light = ((size * 0.07).round() as u32).clamp(1, cell_width.max(1));
    let heavy = ((size * 0.14).round() as u32)
        .max(light + 1)
        .min(cell_width.max(2));
    Metrics {
        cell_width,
        cell_height,
        baseline,
        underline_y,
        underline_thickness,
        strike_y,
        light,
        heavy,
    }
}

/// A font's name as a PNG records it: `Full Name, Version 2.37` (name IDs 4 and 5 of its
/// first face; the version up to its first `;`); `None` when it has no readable name.
pub(crate) fn describe(data: &[u8]) -> Option<String> {
    describe_names(ttf_parser::Face::parse(data, 0).ok()?.names())
}

/// [`describe`] from a font's name table.
pub(crate) fn describe_names(names: ttf_parser::name::Names<'_>) -> Option<String> {
    let name = |id: u16| {
        names
            .into_iter()
            .filter(|n| n.name_id == id)
            .find_map(|n| n.to_string())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let full =
        name(ttf_parser::name_id::FULL_NAME).or_else(|| name(ttf_parser::name_id::FAMILY))?;
    Some(match name(ttf_parser::name_id::VERSION) {
        Some(v) => format!("{full}, {}", v.split(';').next().unwrap_or_default().trim()),
        None => full,
    })
}

/// Reads every font file under `dir` (recursively, sorted by path). Files that are not fonts
/// are skipped; a folder that cannot be read is an error.
fn load_dir(dir: &Path) -> Result<Vec<Fallback>, PngError> {
    let meta = std::fs::metadata(dir).map_err(|e| PngError::FontDir {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    if !meta.is_dir() {
        return Err(PngError::FontDir {
            path: dir.to_path_buf(),
            message: "not a folder".into(),
        });
    }
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| PngError::FontDir {
            path: d.clone(),
            message: e.to_string(),
        })?;
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(ty) = entry.file_type() else { continue };
            if ty.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| FONT_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
            {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for path in files {
        // A regular file within the limit only: `x.ttf -> /dev/zero` has no length to check
        // and never ends (it took 4.2 GB), and a FIFO would block the run.
        let Ok(data) = crate::util::read_regular(&path, MAX_FONT_FILE) else {
            continue;
        };
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = describe(&data).unwrap_or_else(|| file.clone());
        // The first face of a collection (.ttc): the regular one in every common collection.
        if let Ok(font) = FontVec::try_from_vec_and_index(data, 0) {
            out.push(Fallback {
                font: FontArc::new(font),
                name: format!("{name} (font folder: {file})"),
            });
        }
    }
    Ok(out)
}

/// Area-averaging downscale of an RGBA image (alpha-weighted), integer arithmetic only.
fn downscale(src: &[u8], sw: u32, sh: u32, dw: u32, dh: u32) -> Vec<u8> {
    let mut out = vec![0u8; (dw * dh * 4) as usize];
    for dy in 0..dh {
        let y0 = dy as u64 * sh as u64 / dh as u64;
        let y1 = (((dy + 1) as u64 * sh as u64).div_ceil(dh as u64)).max(y0 + 1);
        for dx in 0..dw {
            let x0 = dx as u64 * sw as u64 / dw as u64;
            let x1 = (((dx + 1) as u64 * sw as u64).div_ceil(dw as u64)).max(x0 + 1);
            let (mut r, mut g, mut b, mut a, mut n) = (0u64, 0u64, 0u64, 0u64, 0u64);
            for y in y0..y1.min(sh as u64) {
                for x in x0..x1.min(sw as u64) {
                    let i = ((y * sw as u64 + x) * 4) as usize;
                    let pa = src[i + 3] as u64;
                    r += src[i] as u64 * pa;
                    g += src[i + 1] as u64 * pa;
                    b += src[i + 2] as u64 * pa;
                    a += pa;
                    n += 1;
                }
            }
            let o = ((dy * dw + dx) * 4) as usize;
            let Some(nz) = std::num::NonZeroU64::new(a) else {
                continue;
            };
            out[o] = ((r + a / 2) / nz) as u8;
            out[o + 1] = ((g + a / 2) / nz) as u8;
            out[o + 2] = ((b + a / 2) / nz) as u8;
            out[o + 3] = ((a + n / 2) / n.max(1)) as u8;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_come_from_the_font_in_whole_pixels() {
        let f = Fonts::new(16.0, 1.2, &[], None).unwrap();
        let m = f.metrics();
        assert_eq!((m.cell_width, m.cell_height), (10, 19));
        assert!(m.baseline > m.cell_height / 2 && m.baseline < m.cell_height);
        assert!(m.underline_y > m.baseline && m.underline_y < m.cell_height);
        assert!(m.strike_y < m.baseline);
        let big = Fonts::new(32.0, 1.2, &[], None).unwrap().metrics();
        assert_eq!((big.cell_width, big.cell_height), (19, 38));
    }

    #[test]
    fn bold_glyphs_differ_and_missing_glyphs_are_none() {
        let mut f = Fonts::new(16.0, 1.2, &[], None).unwrap();
        let regular = match &f.glyph('a', Style::Regular, 1).unwrap().pixels {
            Pixels::Mask(m) => m.clone(),
            Pixels::Color(_) => panic!(),
        };
        let bold = match &f.glyph('a', Style::Bold, 1).unwrap().pixels {
            Pixels::Mask(m) => m.clone(),
            Pixels::Color(_) => panic!(),
        };
        assert_ne!(regular, bold);
        assert!(
            f.glyph('日', Style::Regular, 2).is_none(),
            "no CJK in DejaVu"
        );
        let space = f.glyph(' ', Style::Regular, 1).unwrap();
        assert_eq!(space.width, 0);
    }

    #[test]
    fn a_missing_font_dir_is_an_error() {
        let e = Fonts::new(16.0, 1.2, &[PathBuf::from("/no/such/fonts")], None).unwrap_err();
        assert!(e.to_string().contains("/no/such/fonts"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("junk.ttf"), b"not a font").unwrap();
        let f = Fonts::new(16.0, 1.2, &[dir.path().to_path_buf()], None).unwrap();
        assert_eq!(f.fallbacks.len(), 0, "a broken font file is skipped");
    }

    #[test]
    fn downscale_averages() {
        let src = [255, 0, 0, 255, 0, 0, 255, 255];
        assert_eq!(downscale(&src, 2, 1, 1, 1), vec![128, 0, 128, 255]);
    }
}
