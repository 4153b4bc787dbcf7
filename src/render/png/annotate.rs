//! Annotations: boxes drawn around cells or around every match of a regex, each with an
//! optional label badge and a colour; with many labels, numbered badges and a legend.
//!
//! The spec syntax (`--annotate`) is `key=value` pairs separated by commas:
//!
//! ```text
//! rows=2..5,cols=0..40,label=Menu,color=#ff8800
//! regex=error: .*,label=Errors
//! rows=0,label=Title bar
//! ```
//!
//! - `rows`, `cols`: cell ranges as in masks, counted from 1: `3`, `2..5`, `2..`, `..5`, `2..=4`
//!   (end exclusive unless `..=`). A missing one means every row or column.
//! - `regex`: boxes every match in every row's text (within `rows` and `cols` if given).
//! - `label`: text of the badge. `color`: `#rrggbb` (default: a colour per annotation).
//! - `region`: a named region of the scenario file beside the cast (its `[regions]` table
//!   holds the same keys); the spec's other keys override the region's. [`AnnotationSpec`]
//!   reads such a spec, and the caller supplies the region ([`AnnotationSpec::with_region`]).
//!
//! A comma only separates pairs when a known key and `=` follow it, so regexes and labels
//! may contain commas (`regex=a{1,3}`).

use std::str::FromStr;

use super::options::check_size;
use super::raster::{rounded_rect_sdf, Canvas};
use super::text::{fit_text, text_cells};
use super::{PngError, Renderer};
use crate::inspect::{Anchor, AnchorError};
use crate::rgb::Rgb;
use crate::term::{CellRect, CellSelection, Screen};

/// The keys of an annotation spec.
const KEYS: [&str; 6] = ["rows", "cols", "regex", "label", "color", "region"];

/// Colours given to annotations without one, in order.
const PALETTE: [Rgb; 7] = [
    Rgb(0xff, 0x4d, 0x4d),
    Rgb(0xff, 0xb0, 0x20),
    Rgb(0x2e, 0xcc, 0x71),
    Rgb(0x3d, 0x9d, 0xff),
    Rgb(0xc8, 0x6b, 0xff),
    Rgb(0xff, 0x66, 0xc4),
    Rgb(0x00, 0xd0, 0xd0),
];

/// More labels than this are numbered, with the labels in a legend below the screen.
const MAX_INLINE_LABELS: usize = 3;

/// Longest label drawn, in cells.
const MAX_LABEL_CELLS: usize = 60;

/// One annotation: what to box, and how.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Annotation {
    /// The cells to box: fixed cells (a rectangle, or every match of a regex within one,
    /// [`Anchor::Cells`]), or a region anchored by content, found afresh on each screen.
    pub target: Anchor,
    /// The badge text.
    pub label: Option<String>,
    /// The box and badge colour; a colour of the default palette when `None`.
    pub color: Option<Rgb>,
}

/// An annotation spec as written (`rows=2..5,label=Menu`, `region=status`, or a region of a
/// cast's TOML, `[regions]`): its keys, not yet checked. [`AnnotationSpec::build`] makes the
/// [`Annotation`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AnnotationSpec {
    /// The name of a region of the cast's TOML, whose keys this spec's keys override (never
    /// set in a region itself).
    pub region: Option<String>,
    /// Rows, like `2..5`.
    pub rows: Option<String>,
    /// Columns, like `0..40`.
    pub cols: Option<String>,
    /// A regex boxed wherever it matches.
    pub regex: Option<String>,
    /// The badge text (empty: no badge).
    pub label: Option<String>,
    /// `#rrggbb`.
    pub color: Option<String>,
}

impl FromStr for AnnotationSpec {
    type Err = PngError;

    /// Reads `key=value` pairs separated by commas (see the module docs).
    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let err = |m: String| PngError::Annotation(m);
        let shown = crate::escape::escape_for_terminal(spec, 120);
        let mut out = AnnotationSpec::default();
        for pair in split_pairs(spec) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(err(format!(
                    "{shown:?}: expected key=value pairs with keys {}",
                    KEYS.join(", ")
                )));
            };
            let key = key.trim();
            let slot = match key {
                "rows" => &mut out.rows,
                "cols" => &mut out.cols,
                "regex" => &mut out.regex,
                "label" => &mut out.label,
                "color" | "colour" => &mut out.color,
                "region" => &mut out.region,
                other => {
                    return Err(err(format!(
                        "{shown:?}: unknown key {:?}; the keys are {}",
                        crate::escape::escape_for_terminal(other, 40),
                        KEYS.join(", ")
                    )))
                }
            };
            if slot.replace(value.to_string()).is_some() {
                return Err(err(format!("{shown:?}: {key} is given twice")));
            }
        }
        Ok(out)
    }
}

impl AnnotationSpec {
    /// This spec on top of `region` (a named region's keys): each key given here wins. The
    /// region name is dropped, as it is resolved.
    pub fn with_region(&self, region: &AnnotationSpec) -> AnnotationSpec {
        let pick = |mine: &Option<String>, theirs: &Option<String>| {
            mine.clone().or_else(|| theirs.clone())
        };
        AnnotationSpec {
            region: None,
            rows: pick(&self.rows, &region.rows),
            cols: pick(&self.cols, &region.cols),
            regex: pick(&self.regex, &region.regex),
            label: pick(&self.label, &region.label),
            color: pick(&self.color, &region.color),
        }
    }

    /// Checks the keys and makes the annotation. A spec naming a region must have it
    /// resolved first ([`AnnotationSpec::with_region`]).
    pub fn build(&self) -> Result<Annotation, PngError> {
        let err = |m: String| PngError::Annotation(m);
        if let Some(name) = &self.region {
            return Err(err(format!(
                "region={:?} names a region of a scenario file, and there is none here",
                crate::escape::escape_for_terminal(name, 60)
            )));
        }
        let target = CellSelection::new(
            self.rows.as_deref(),
            self.cols.as_deref(),
            self.regex.as_deref(),
        )
        .map_err(|e| err(e.to_string()))?;
        let color = self
            .color
            .as_deref()
            .map(Rgb::parse)
            .transpose()
            .map_err(|e| err(e.to_string()))?;
        Ok(Annotation {
            target: Anchor::Cells(target),
            label: self.label.clone().filter(|l| !l.is_empty()),
            color,
        })
    }

    /// Checks the label and colour and makes the annotation of a region anchored by
    /// content: it boxes what `anchor` finds on the screen it is drawn on. The cells are the
    /// anchor's, so `rows`, `cols` and `regex` are refused here.
    pub fn build_anchored(&self, anchor: Anchor) -> Result<Annotation, PngError> {
        if self.rows.is_some() || self.cols.is_some() || self.regex.is_some() {
            return Err(PngError::Annotation(format!(
                "the region is anchored by content ({}): rows, cols and regex cannot be \
                 given with it",
                anchor.describe()
            )));
        }
        let fixed = AnnotationSpec {
            rows: Some("1..".into()),
            ..self.clone()
        };
        Ok(Annotation {
            target: anchor,
            ..fixed.build()?
        })
    }
}

impl FromStr for Annotation {
    type Err = PngError;

    /// Reads and checks a spec (see the module docs); `region=` needs a scenario file, so it
    /// is refused here (see [`AnnotationSpec`]).
    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let shown = crate::escape::escape_for_terminal(spec, 120);
        spec.parse::<AnnotationSpec>()?
            .build()
            .map_err(|e| match e {
                PngError::Annotation(m) => PngError::Annotation(format!("{shown:?}: {m}")),
                other => other,
            })
    }
}

impl Annotation {
    /// The rectangles this annotation boxes on `screen` (clipped to it; none when it matches
    /// nothing).
    pub fn regions(&self, screen: &Screen) -> Vec<CellRect> {
        self.resolve(screen).unwrap_or_default()
    }

    /// The rectangles this annotation boxes on `screen`, or why it finds nothing there (an
    /// anchor's [`AnchorError`]: what it looked for).
    pub fn resolve(&self, screen: &Screen) -> Result<Vec<CellRect>, AnchorError> {
        self.target.resolve(screen)
    }
}

/// Draws the annotations over a plain render (the grid at the padding offset); adds a legend
/// below it when there are many labels.
pub(crate) fn draw(
    renderer: &mut Renderer,
    canvas: Canvas,
    screen: &Screen,
    annotations: &[Annotation],
) -> Result<Canvas, PngError> {
    let plan = plan(renderer, canvas.width, canvas.height, screen, annotations)?;
    let theme = renderer.theme().clone();
    let mut canvas = if plan.legend_h > 0 {
        // The legend makes the picture taller: within the limits, checked by `plan`.
        let mut bigger = Canvas::new(plan.width, plan.height, theme.bg, 255);
        bigger.draw_canvas(&canvas, 0, 0, None);
        bigger
    } else {
        canvas
    };
    for b in &plan.boxes {
        let [x0, y0, x1, y1] = b.cells;
        // A light wash over the cells, then the outline just outside them so no glyph is
        // covered.
        canvas.blend_rect(x0, y0, x1 - x0, y1 - y0, b.color, WASH_ALPHA);
        let [rx, ry, rw, rh] = b.outline;
        let (half, radius) = (b.stroke as f32 / 2.0, b.radius);
        let out = b.out;
        canvas.fill_sdf(
            [
                x0 - out - 1,
                y0 - out - 1,
                x1 - x0 + 2 * out + 2,
                y1 - y0 + 2 * out + 2,
            ],
            b.color,
            255,
            |px, py| rounded_rect_sdf(px, py, rx, ry, rw, rh, radius).abs() - half,
        );
    }
    for badge in &plan.badges {
        badge.draw(renderer, &mut canvas);
    }
    for (text, x, y) in &plan.legend {
        renderer.draw_text(&mut canvas, text, *x, *y, theme.fg, false);
    }
    Ok(canvas)
}

/// How much of an annotation's colour washes over its cells (of 255).
pub(crate) const WASH_ALPHA: u8 = 28;

/// Where annotations go on a picture of the screen, in pixels: the one geometry the PNG and
/// the SVG draw from, so that their boxes and badges land on the same cells.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// The picture's size with the legend.
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// The legend's height below the screen (0: labels are inline).
    pub(crate) legend_h: u32,
    pub(crate) boxes: Vec<BoxShape>,
    /// Badges, then the legend's number badges.
    pub(crate) badges: Vec<Badge>,
    /// The legend's labels: text, x, y (top of the cell).
    pub(crate) legend: Vec<(String, i32, i32)>,
}

/// One annotation box.
#[derive(Debug, Clone)]
pub(crate) struct BoxShape {
    pub(crate) color: Rgb,
    /// The cells: left, top, right, bottom.
    pub(crate) cells: [i32; 4],
    /// The outline's centre line: x, y, width, height.
    pub(crate) outline: [f32; 4],
    pub(crate) stroke: i32,
    pub(crate) radius: f32,
    out: i32,
}

/// Lays out `annotations` on a `width` × `height` picture of `screen`.
pub(crate) fn plan(
    renderer: &mut Renderer,
    width: u32,
    height: u32,
    screen: &Screen,
    annotations: &[Annotation],
) -> Result<Plan, PngError> {
    let m = renderer.metrics();
    let (cw, ch) = (m.cell_width as i32, m.cell_height as i32);
    let pad = renderer.options().padding as i32;
    let size = renderer.options().font_size;
    let labelled: Vec<usize> = (0..annotations.len())
        .filter(|&i| annotations[i].label.is_some())
        .collect();
    let legend = labelled.len() > MAX_INLINE_LABELS;
    let line_h = ch + ch / 3;
    let (cw_px, screen_h) = (width as i32, height as i32);
    let stroke = ((size / 8.0).round() as i32).max(2);
    let gap = 1;
    let mut boxes = Vec::new();
    let mut badges = Vec::new();
    for (i, a) in annotations.iter().enumerate() {
        let color = a.color.unwrap_or(PALETTE[i % PALETTE.len()]);
        let regions = a.regions(screen);
        for (k, reg) in regions.iter().enumerate() {
            let x0 = pad + reg.col as i32 * cw;
            let y0 = pad + reg.row as i32 * ch;
            let x1 = pad + reg.col_end as i32 * cw;
            let y1 = pad + reg.row_end as i32 * ch;
            let out = gap + stroke;
            let (rx, ry) = ((x0 - out) as f32, (y0 - out) as f32);
            let (rw, rh) = ((x1 - x0 + 2 * out) as f32, (y1 - y0 + 2 * out) as f32);
            let half = stroke as f32 / 2.0;
            let radius = stroke as f32 + 2.0;
            boxes.push(BoxShape {
                color,
                cells: [x0, y0, x1, y1],
                outline: [rx + half, ry + half, rw - stroke as f32, rh - stroke as f32],
                stroke,
                radius: radius - half,
                out,
            });
            if k == 0 {
                if let Some(label) = &a.label {
                    let n = labelled.iter().position(|&j| j == i).unwrap_or(0) + 1;
                    let text = if legend {
                        n.to_string()
                    } else {
                        fit_text(label, MAX_LABEL_CELLS)
                    };
                    badges.push((i, text, color, x0 - out, x1 + out, y0 - out, y1 + out));
                }
            }
        }
    }
    // Badges last, so no box is drawn over a label. Each goes where it hides no text of the
    // screen and no other badge, inside the screen's picture: above the box at its left or
    // right end, else below it, else anywhere along the rows around it. A badge
    // with no such place is drawn nowhere near the box: its label goes to the legend below the
    // screen (with a swatch of the box's colour), so a badge never hides a glyph.
    let grid = Grid {
        screen,
        pad,
        cw,
        ch,
    };
    let mut placed: Vec<[i32; 4]> = Vec::new();
    let mut out_badges = Vec::new();
    let mut moved: Vec<usize> = Vec::new();
    for (i, text, color, x, right, top, bottom) in badges {
        let bw = (text_cells(&text) as i32 + 1) * cw;
        let bh = ch + 2;
        let clamp_x = |x: i32| x.min(cw_px - bw).max(0);
        let mut candidates = vec![
            (clamp_x(x), top - bh),
            (clamp_x(right - bw), top - bh),
            (clamp_x(x), bottom),
            (clamp_x(right - bw), bottom),
        ];
        // Then along the rows around the box, nearest first (within two rows).
        for y in [
            top - bh,
            bottom,
            top - bh - ch,
            bottom + ch,
            top - bh - 2 * ch,
            bottom + 2 * ch,
        ] {
            let mut xs: Vec<i32> = (0..=(cw_px - bw).max(0) / cw).map(|k| k * cw).collect();
            xs.sort_by_key(|&at| (at - x).abs());
            candidates.extend(xs.into_iter().map(|at| (at, y)));
        }
        let fits = |&(_, y): &(i32, i32)| y >= 0 && y + bh <= screen_h;
        let free = |&(x, y): &(i32, i32)| {
            let rect = [x, y, bw, bh];
            !grid.covers_text(rect) && !placed.iter().any(|p| overlaps(*p, rect))
        };
        match candidates.iter().copied().find(|c| fits(c) && free(c)) {
            Some((x, y)) => {
                placed.push([x, y, bw, bh]);
                out_badges.push(Badge {
                    text,
                    color,
                    x,
                    y,
                    w: bw,
                    h: bh,
                });
            }
            None => moved.push(i),
        }
    }
    // The legend: every label when there are many (numbered), else the labels that found no
    // place beside their box (a blank swatch of the box's colour).
    let in_legend: Vec<usize> = if legend { labelled.clone() } else { moved };
    let legend_h = if in_legend.is_empty() {
        0
    } else {
        in_legend.len() as u64 * line_h as u64 + pad as u64
    };
    let total_h = height as u64 + legend_h;
    if legend_h > 0 {
        check_size(width as u64, total_h)?;
    }
    let mut legend_lines = Vec::new();
    let top = height as i32;
    for (n, &i) in in_legend.iter().enumerate() {
        let a = &annotations[i];
        let color = a.color.unwrap_or(PALETTE[i % PALETTE.len()]);
        let y = top + n as i32 * line_h + (line_h - ch) / 2;
        let number = if legend {
            let k = labelled.iter().position(|&j| j == i).unwrap_or(n) + 1;
            k.to_string()
        } else {
            " ".to_string()
        };
        let bw = (text_cells(&number) as i32 + 1) * cw;
        out_badges.push(Badge {
            text: number,
            color,
            x: pad,
            y: y - 1,
            w: bw,
            h: ch + 2,
        });
        let max_cells = ((cw_px - 2 * pad - bw) / cw - 1).max(1) as usize;
        let label = fit_text(a.label.as_deref().unwrap_or(""), max_cells);
        legend_lines.push((label, pad + bw + cw, y));
    }
    Ok(Plan {
        width,
        height: total_h as u32,
        legend_h: legend_h as u32,
        boxes,
        badges: out_badges,
        legend: legend_lines,
    })
}

/// The screen's cells as laid out on the picture.
struct Grid<'a> {
    screen: &'a Screen,
    pad: i32,
    cw: i32,
    ch: i32,
}

impl Grid<'_> {
    /// Whether the pixel rectangle `[x, y, w, h]` covers any cell with text.
    fn covers_text(&self, [x, y, w, h]: [i32; 4]) -> bool {
        let cells = |from: i32, len: i32, size: i32, n: usize| {
            let first = (from - self.pad).div_euclid(size).max(0) as usize;
            let last = (from + len - 1 - self.pad).div_euclid(size);
            let end = if last < 0 {
                0
            } else {
                (last as usize + 1).min(n)
            };
            (first < end).then_some(first..end)
        };
        let (Some(rows), Some(cols)) = (
            cells(y, h, self.ch, self.screen.rows.len()),
            cells(x, w, self.cw, self.screen.size.cols as usize),
        ) else {
            return false;
        };
        rows.into_iter().any(|r| {
            self.screen.rows[r][cols.clone()]
                .iter()
                .any(|c| !c.text.trim().is_empty())
        })
    }
}

/// Whether two pixel rectangles `[x, y, w, h]` overlap.
fn overlaps(a: [i32; 4], b: [i32; 4]) -> bool {
    a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
}

/// A label drawn as a rounded badge: its text, its colour, and its box in pixels (top-left
/// corner, width, height).
#[derive(Debug, Clone)]
pub(crate) struct Badge {
    pub(crate) text: String,
    pub(crate) color: Rgb,
    pub(crate) x: i32,
    pub(crate) y: i32,
    pub(crate) w: i32,
    pub(crate) h: i32,
}

impl Badge {
    /// The corner radius of the badge.
    pub(crate) fn radius(&self) -> f32 {
        (self.h as f32 / 4.0).max(2.0)
    }

    /// Black or white, whichever reads better on the badge's colour.
    pub(crate) fn ink(&self) -> Rgb {
        if self.color.luma() > 150 {
            Rgb(0, 0, 0)
        } else {
            Rgb(255, 255, 255)
        }
    }

    /// Draws the badge in its colour with its text in black or white, whichever reads better.
    fn draw(&self, renderer: &mut Renderer, canvas: &mut Canvas) {
        let (x, y, w, h) = (self.x, self.y, self.w, self.h);
        let r = self.radius();
        let (fx, fy, fw, fh) = (x as f32, y as f32, w as f32, h as f32);
        canvas.fill_sdf([x, y, w, h], self.color, 255, |px, py| {
            rounded_rect_sdf(px, py, fx, fy, fw, fh, r)
        });
        let (text, ink) = (self.text.as_str(), self.ink());
        let cw = renderer.metrics().cell_width as i32;
        renderer.draw_text(canvas, text, x + cw / 2, y + 1, ink, true);
    }
}

/// Splits a spec at the commas that start a new `key=` pair.
fn split_pairs(spec: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, _) in spec.match_indices(',') {
        let rest = &spec[i + 1..];
        let rest = rest.trim_start();
        if KEYS
            .iter()
            .chain(&["colour"])
            .any(|k| rest.strip_prefix(k).is_some_and(|r| r.starts_with('=')))
        {
            out.push(&spec[start..i]);
            start = i + 1;
        }
    }
    out.push(&spec[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Size;

    fn cells(a: &Annotation) -> &CellSelection {
        match &a.target {
            Anchor::Cells(c) => c,
            other => panic!("{other:?}"),
        }
    }

    fn screen(input: &str) -> Screen {
        crate::term::test_screen(Size { cols: 20, rows: 3 }, input)
    }

    #[test]
    fn specs_parse() {
        let a: Annotation = "rows=3..6,cols=1..41,label=Menu, with comma,color=#ff0000"
            .parse()
            .unwrap();
        assert_eq!(a.label.as_deref(), Some("Menu, with comma"));
        assert_eq!(a.color, Some(Rgb(255, 0, 0)));
        assert_eq!(
            (
                cells(&a).rows(),
                cells(&a).cols(),
                cells(&a).regex().is_none()
            ),
            (Some(&(2..5)), Some(&(0..40)), true)
        );
        // The `colour` spelling splits pairs like `color` does, wherever it stands.
        let a: Annotation = "rows=1,label=x,colour=#00ff00".parse().unwrap();
        assert_eq!(
            (a.label.as_deref(), a.color),
            (Some("x"), Some(Rgb(0, 255, 0)))
        );
        let a: Annotation = "regex=a{1,3},label=As".parse().unwrap();
        assert_eq!(cells(&a).regex().map(|r| r.as_str()), Some("a{1,3}"));
        let a: Annotation = "rows=1".parse().unwrap();
        assert!(a.label.is_none());
    }

    #[test]
    fn bad_specs_say_why() {
        for (spec, why) in [
            ("label=x", "rows, cols or regex"),
            ("rows=6..3", "range"),
            ("regex=(", "not valid"),
            ("rows=2,rows=3", "twice"),
            ("size=3", "unknown key"),
            ("rows=2,color=red", "colour"),
            ("nonsense", "key=value"),
            ("region=status", "scenario file"),
            ("regex=", "empty"),
        ] {
            let e = spec.parse::<Annotation>().unwrap_err().to_string();
            assert!(e.contains(why), "{spec}: {e}");
        }
    }

    #[test]
    fn a_spec_naming_a_region_takes_the_regions_keys_under_its_own() {
        let spec: AnnotationSpec = "region=status,label=Mine, with comma".parse().unwrap();
        assert_eq!(spec.region.as_deref(), Some("status"));
        assert_eq!(spec.label.as_deref(), Some("Mine, with comma"));
        let region = AnnotationSpec {
            rows: Some("24".into()),
            label: Some("status line".into()),
            color: Some("#ff8800".into()),
            ..AnnotationSpec::default()
        };
        let a = spec.with_region(&region).build().unwrap();
        assert_eq!(a.label.as_deref(), Some("Mine, with comma"));
        assert_eq!(a.color, Some(Rgb(0xff, 0x88, 0x00)));
        assert_eq!(cells(&a).rows(), Some(&(23..24)));
        // An empty label removes the region's badge.
        let spec: AnnotationSpec = "region=status,label=".parse().unwrap();
        assert!(spec.with_region(&region).build().unwrap().label.is_none());
        let e = AnnotationSpec {
            regex: Some("(".into()),
            ..AnnotationSpec::default()
        }
        .build()
        .unwrap_err();
        assert!(e.to_string().contains("not valid"), "{e}");
    }

    #[test]
    fn an_anchored_annotation_boxes_what_its_anchor_finds_on_each_screen() {
        let spec = AnnotationSpec {
            label: Some("mode".into()),
            color: Some("#00ff00".into()),
            ..AnnotationSpec::default()
        };
        let anchor = Anchor::Row(crate::inspect::anchor_regex("INSERT").unwrap());
        let a = spec.build_anchored(anchor).unwrap();
        assert_eq!(a.label.as_deref(), Some("mode"));
        let rect = |row| CellRect {
            row,
            row_end: row + 1,
            col: 0,
            col_end: 20,
        };
        assert_eq!(
            a.resolve(&screen("x\r\n-- INSERT --")).unwrap(),
            vec![rect(1)]
        );
        assert_eq!(a.regions(&screen("-- INSERT --")), vec![rect(0)]);
        let e = a.resolve(&screen("-- NORMAL --")).unwrap_err();
        assert_eq!(e.message(), "no row matches regex \"INSERT\"");
        assert!(a.regions(&screen("-- NORMAL --")).is_empty());
        let e = AnnotationSpec {
            rows: Some("2".into()),
            ..AnnotationSpec::default()
        }
        .build_anchored(Anchor::LastRow)
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("anchored by content (last_row = true)"),
            "{e}"
        );
    }

    #[test]
    fn regions_come_from_ranges_and_matches() {
        let s = screen("error: one\r\nok 日本 error: two");
        let a: Annotation = "regex=error: \\w+".parse().unwrap();
        let r = a.regions(&s);
        assert_eq!(
            r,
            vec![
                CellRect {
                    row: 0,
                    row_end: 1,
                    col: 0,
                    col_end: 10
                },
                CellRect {
                    row: 1,
                    row_end: 2,
                    col: 8,
                    col_end: 18
                },
            ]
        );
        let a: Annotation = "regex=日本".parse().unwrap();
        assert_eq!(a.regions(&s)[0].col..a.regions(&s)[0].col_end, 3..7);
        let a: Annotation = "rows=2..,cols=16..".parse().unwrap();
        assert_eq!(
            a.regions(&s),
            vec![CellRect {
                row: 1,
                row_end: 3,
                col: 15,
                col_end: 20
            }]
        );
        let a: Annotation = "rows=11".parse().unwrap();
        assert!(a.regions(&s).is_empty());
        let a: Annotation = "regex=nothing here".parse().unwrap();
        assert!(a.regions(&s).is_empty());
    }

    /// The pixels of the cells of `rows` (0-based) differ between two renders, apart from
    /// the few pixels at their top and bottom where a box's outline may reach.
    fn rows_differ(
        a: &image::RgbaImage,
        b: &image::RgbaImage,
        r: &Renderer,
        rows: std::ops::Range<u32>,
    ) -> bool {
        let m = r.metrics();
        let pad = r.options().padding;
        let edge = 5;
        (rows.start * m.cell_height + pad + edge..rows.end * m.cell_height + pad - edge)
            .any(|y| (0..a.width()).any(|x| a.get_pixel(x, y) != b.get_pixel(x, y)))
    }

    #[test]
    fn a_badge_with_no_free_place_goes_to_the_legend_never_over_a_glyph() {
        let mut r = Renderer::new(crate::render::png::PngOptions::default()).unwrap();
        // A box whose title row and the rows around it are full of text: no free place.
        let full = "┌─ Title of a box ─┐\r\n│ item one  item 2 │\r\n└─ more text here ─┘";
        let s = screen(full);
        let a: Annotation = "rows=2,label=items".parse().unwrap();
        let img = r.render(&s).unwrap();
        let (w, h) = (img.width(), img.height());
        let laid = super::plan(&mut r, w, h, &s, std::slice::from_ref(&a)).unwrap();
        let m = r.metrics();
        let grid = Grid {
            screen: &s,
            pad: r.options().padding as i32,
            cw: m.cell_width as i32,
            ch: m.cell_height as i32,
        };
        for b in &laid.badges {
            assert!(
                !grid.covers_text([b.x, b.y, b.w, b.h]),
                "a badge over text at {:?}",
                (b.x, b.y)
            );
            assert!(
                b.y >= h as i32,
                "the badge is below the screen, in the legend"
            );
        }
        assert_eq!(laid.legend.len(), 1);
        assert_eq!(laid.legend[0].0, "items");
        assert!(laid.height > h, "the picture grew by the legend");
        // With room on the row below, the badge stays by its box and no legend is made.
        let s = screen("┌─ Title of a box ─┐\r\n│ item one  item 2 │\r\n");
        let laid = super::plan(&mut r, w, h, &s, std::slice::from_ref(&a)).unwrap();
        assert!(laid.legend.is_empty() && laid.height == h);
        let grid = Grid { screen: &s, ..grid };
        assert!(laid
            .badges
            .iter()
            .all(|b| !grid.covers_text([b.x, b.y, b.w, b.h])));
    }

    #[test]
    fn a_badge_hides_no_text_where_there_is_room() {
        let mut r = Renderer::new(crate::render::png::PngOptions::default()).unwrap();
        let label = |spec: &str| crate::render::png::Decorations {
            annotations: vec![spec.parse().unwrap()],
            ..crate::render::png::Decorations::default()
        };
        // Text right above the box: the badge goes below it, over the blank row.
        let s = screen("the row above\r\nTARGET");
        let plain = r.render(&s).unwrap();
        let boxed = r
            .render_decorated(&s, &label("regex=TARGET,label=here"))
            .unwrap();
        assert!(
            !rows_differ(&plain, &boxed, &r, 0..1),
            "the row above is intact"
        );
        assert!(rows_differ(&plain, &boxed, &r, 2..3), "the badge is below");
        // A blank row above: the badge goes there, as before.
        let s = screen("\r\nTARGET\r\nthe row below");
        let plain = r.render(&s).unwrap();
        let boxed = r
            .render_decorated(&s, &label("regex=TARGET,label=here"))
            .unwrap();
        assert!(rows_differ(&plain, &boxed, &r, 0..1), "the badge is above");
        assert!(
            !rows_differ(&plain, &boxed, &r, 2..3),
            "the row below is intact"
        );
    }
}
