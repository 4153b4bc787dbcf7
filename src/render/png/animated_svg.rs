//! An animated SVG from timed screens: `(seconds, screen)` frames, as `replay::frames` makes
//! them from a cast, played by the viewer's CSS (no script).
//!
//! Each distinct picture is drawn once, as the still SVG draws a screen
//! ([`Renderer::svg_rows`]: text as text on the PNG's grid, the code-drawn characters as
//! shapes defined once for the whole animation), in a `<g class="f fN">`; a screen drawn the
//! same as an earlier one reuses its group. Within the pictures, a row drawn the same in
//! several of them (a prompt above a progress bar, a menu whose selection moves) is defined
//! once, `<g id="rN">`, and placed with `<use>`; a row of one picture stays in it. One `@keyframes kN` per group switches its
//! `visibility` at the moments it is shown and hidden, with `steps(1,end)` so nothing is ever
//! between two frames. Times are whole milliseconds (rounded from absolute times, so rounding
//! never accumulates); a frame that would last less than a millisecond is replaced by the next.
//!
//! Annotations are drawn at checkpoints ([`SvgAnimation::add_annotated_frame`]): the screen
//! with the boxes and badges the still SVG draws on it (its own picture), shown from the
//! checkpoint's moment until the next frame, so they appear during that checkpoint's frame
//! only. Their labels are `<text>`, escaped as every text is.
//!
//! The stylesheet is tuicast's own, made of numbers and fixed words: no text of the cast
//! reaches it, it links nothing (no `url()`, no `@import`), and the report's SVG check
//! (`report::svg_check`) reads it by the same allowlist.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::rc::Rc;

use super::annotate::{self, Annotation};
use super::gif::{animation_layout, GifOptions, GifStats};
use super::svg::{shape_defs, Shapes};
use super::{Decorations, Layout, PngError, Renderer};
use crate::term::{Screen, Size};

/// The most distinct pictures an animated SVG holds: each is a group of elements, and a
/// browser keeps them all.
pub const MAX_SVG_FRAMES: usize = 20_000;

/// The most bytes of drawn frames an animated SVG holds (64 MiB): beyond it a browser plays
/// it poorly, and a GIF or APNG is the better format.
pub const MAX_SVG_BYTES: usize = 64 << 20;

/// Writes an animated SVG one frame at a time: [`SvgAnimation::add_frame`] for each screen
/// in time order, then [`SvgAnimation::finish`]. The document is made at the end, since its
/// stylesheet needs every frame's times.
///
/// ```
/// use tuicast::render::png::{Decorations, GifOptions, PngOptions, Renderer, SvgAnimation};
/// use tuicast::size::Size;
/// use tuicast::term::EngineKind;
///
/// let size = Size { cols: 10, rows: 1 };
/// let mut engine = EngineKind::Native.create(size);
/// let mut renderer = Renderer::new(PngOptions::default())?;
/// let options = GifOptions::default();
/// let mut svg = SvgAnimation::new(&mut renderer, size, &options, &Decorations::default())?;
/// for (i, word) in ["one ", "two"].iter().enumerate() {
///     engine.feed(word);
///     svg.add_frame(i as f64 * 0.5, &engine.screen())?;
/// }
/// let (stats, text) = svg.finish()?;
/// assert_eq!((stats.frames, stats.duration), (2, 3.5));
/// assert!(text.contains("@keyframes k1{"));
/// # Ok::<(), tuicast::render::png::PngError>(())
/// ```
pub struct SvgAnimation<'r> {
    renderer: &'r mut Renderer,
    layout: Layout,
    options: GifOptions,
    /// `Some(title)` for a window frame.
    chrome: Option<Option<String>>,
    shapes: Shapes,
    /// The distinct rows drawn (a row's elements, at their place), by first appearance.
    rows: Vec<Rc<str>>,
    /// Each row's index in `rows`.
    row_index: HashMap<Rc<str>, usize>,
    /// The distinct pictures: the rows each is made of.
    pictures: Vec<Vec<usize>>,
    /// Each picture's index in `pictures`.
    picture_index: HashMap<Vec<usize>, usize>,
    /// What is shown from when: (millisecond, picture), in time order.
    timeline: Vec<(u64, usize)>,
    /// The last screen added: the same screen again is no new frame.
    last: Option<Screen>,
    bytes: usize,
    /// [`MAX_SVG_FRAMES`] and [`MAX_SVG_BYTES`] (lower in a test).
    limits: (usize, usize),
}

impl std::fmt::Debug for SvgAnimation<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SvgAnimation")
            .field("layout", &self.layout)
            .field("pictures", &self.pictures.len())
            .field("frames", &self.timeline.len())
            .finish_non_exhaustive()
    }
}

impl<'r> SvgAnimation<'r> {
    /// An animation of terminals up to `size` (the largest screen it shows; for a cast,
    /// `replay::largest_size`) drawn by `renderer`, in a window frame if `decorations` ask
    /// for one. Annotations belong to a checkpoint's frame
    /// ([`SvgAnimation::add_annotated_frame`]): `decorations.annotations` is refused here.
    pub fn new(
        renderer: &'r mut Renderer,
        size: Size,
        options: &GifOptions,
        decorations: &Decorations,
    ) -> Result<Self, PngError> {
        options.check()?;
        if !decorations.annotations.is_empty() {
            return Err(PngError::Annotation(
                "an animation's annotations are drawn on the frame of a checkpoint \
                 (SvgAnimation::add_annotated_frame), not on every frame"
                    .into(),
            ));
        }
        let layout = animation_layout(renderer, size)?;
        Ok(SvgAnimation {
            renderer,
            layout,
            options: options.clone(),
            chrome: decorations.chrome.then(|| decorations.title.clone()),
            shapes: Shapes::new(),
            rows: Vec::new(),
            row_index: HashMap::new(),
            pictures: Vec::new(),
            picture_index: HashMap::new(),
            timeline: Vec::new(),
            last: None,
            bytes: 0,
            limits: (MAX_SVG_FRAMES, MAX_SVG_BYTES),
        })
    }

    /// Shows `screen` from `time` seconds on. Times should not decrease (an earlier time
    /// counts as the last one); a screen drawn like the frame shown is merged into it.
    pub fn add_frame(&mut self, time: f64, screen: &Screen) -> Result<(), PngError> {
        if !(time.is_finite() && time >= 0.0) {
            return Err(PngError::Option(format!(
                "a frame's time must be 0 or more seconds (got {time})"
            )));
        }
        if self.last.as_ref() == Some(screen) {
            return Ok(());
        }
        self.last = Some(screen.clone());
        let rows = self.renderer.svg_rows(screen, &mut self.shapes)?;
        self.show(time, rows)
    }

    /// Shows `screen` with `annotations` drawn on it, as the still SVG draws them, from
    /// `time` seconds (a checkpoint's moment) until the next frame: a picture of its own, so
    /// the boxes and labels are seen only then. Labels are inline: more than three labelled
    /// annotations (numbered, with a legend below the screen that an animation's fixed size
    /// has no room for) are an error.
    pub fn add_annotated_frame(
        &mut self,
        time: f64,
        screen: &Screen,
        annotations: &[Annotation],
    ) -> Result<(), PngError> {
        if !(time.is_finite() && time >= 0.0) {
            return Err(PngError::Option(format!(
                "a frame's time must be 0 or more seconds (got {time})"
            )));
        }
        let (w, h) = (self.layout.width, self.layout.height);
        let plan = annotate::plan(self.renderer, w, h, screen, annotations)?;
        if plan.legend_h > 0 || (plan.width, plan.height) != (w, h) {
            return Err(PngError::Annotation(
                "more than 3 labelled annotations at one checkpoint: a still picture numbers \
                 them with a legend below the screen, which an animation has no room for"
                    .into(),
            ));
        }
        let mut rows = self.renderer.svg_rows(screen, &mut self.shapes)?;
        let mut boxes = String::new();
        self.renderer.svg_annotation_elements(&plan, &mut boxes);
        rows.push(boxes);
        // The same screen after it, without the annotations, is a frame again.
        self.last = None;
        self.show(time, rows)
    }

    /// Shows the picture of `rows` from `time` seconds on.
    fn show(&mut self, time: f64, rows: Vec<String>) -> Result<(), PngError> {
        let picture = self.picture(rows)?;
        let ms = millis(time).max(self.timeline.last().map_or(0, |t| t.0));
        if self.timeline.last().is_some_and(|t| t.0 == ms) {
            // Shown for no whole millisecond: the new frame takes its place.
            self.timeline.pop();
        }
        if self.timeline.last().is_some_and(|t| t.1 == picture) {
            return Ok(());
        }
        self.timeline.push((ms, picture));
        Ok(())
    }

    /// The SVG document, the last frame held for the options' `last_frame`; an animation
    /// needs at least one frame. `frames` in the stats counts the frames shown, repeats
    /// of an earlier picture included.
    pub fn finish(self) -> Result<(GifStats, String), PngError> {
        let Some(&(last, _)) = self.timeline.last() else {
            return Err(PngError::Option(
                "an animation needs at least one frame".into(),
            ));
        };
        let end = last + millis(self.options.last_frame).max(1);
        let (w, h) = (self.layout.width, self.layout.height);
        let style = self.stylesheet(end);
        let mut content = String::new();
        let _ = writeln!(
            content,
            r#"<rect width="{w}" height="{h}" fill="{}"/>"#,
            self.renderer.theme().bg
        );
        // Rows in more than one picture are defined once; the others stay in their picture.
        let mut uses = vec![0usize; self.rows.len()];
        for row in self.pictures.iter().flatten() {
            uses[*row] += 1;
        }
        let mut defs = shape_defs(&self.shapes);
        for (i, row) in self.rows.iter().enumerate() {
            if uses[i] > 1 {
                let _ = write!(defs, r#"<g id="r{i}">"#);
                defs.push_str(row);
                defs.push_str("</g>\n");
            }
        }
        for (i, picture) in self.pictures.iter().enumerate() {
            let _ = writeln!(content, r#"<g class="f f{i}">"#);
            for &row in picture {
                if uses[row] > 1 {
                    let _ = writeln!(content, r##"<use href="#r{row}"/>"##);
                } else {
                    content.push_str(&self.rows[row]);
                }
            }
            content.push_str("</g>\n");
        }
        let chrome = self.chrome.as_ref().map(|t| t.as_deref());
        let svg = self
            .renderer
            .svg_document((w, h), &style, defs, content, chrome)?;
        let (width, height) = svg_size(&svg).unwrap_or((w, h));
        Ok((
            GifStats {
                frames: self.timeline.len(),
                duration: end as f64 / 1000.0,
                width,
                height,
            },
            svg,
        ))
    }

    /// The index of the picture made of `rows` (each row's elements, possibly empty),
    /// added if it is new.
    fn picture(&mut self, rows: Vec<String>) -> Result<usize, PngError> {
        let (max_frames, max_bytes) = self.limits;
        let mut ids = Vec::with_capacity(rows.len());
        for row in rows.into_iter().filter(|r| !r.is_empty()) {
            if let Some(&i) = self.row_index.get(row.as_str()) {
                ids.push(i);
                continue;
            }
            self.bytes += row.len();
            if self.bytes > max_bytes {
                return Err(PngError::Option(format!(
                    "the animated SVG would hold more than {} MiB of pictures; make a GIF or an \
                     APNG, or animate a part of the cast (--from, --to)",
                    max_bytes >> 20
                )));
            }
            let row: Rc<str> = row.into();
            self.row_index.insert(row.clone(), self.rows.len());
            ids.push(self.rows.len());
            self.rows.push(row);
        }
        if let Some(&i) = self.picture_index.get(&ids) {
            return Ok(i);
        }
        if self.pictures.len() >= max_frames {
            return Err(PngError::Option(format!(
                "the animated SVG would hold more than {max_frames} distinct pictures; make a \
                 GIF or an APNG, or animate a part of the cast (--from, --to)"
            )));
        }
        self.bytes += ids.len() * 8;
        self.picture_index.insert(ids.clone(), self.pictures.len());
        self.pictures.push(ids);
        Ok(self.pictures.len() - 1)
    }

    /// The CSS that shows each picture in its time slots of an animation `end` ms long.
    fn stylesheet(&self, end: u64) -> String {
        let count = if self.options.repeat { "infinite" } else { "1" };
        let mut css = format!(
            ".f{{visibility:hidden;animation-duration:{end}ms;\
             animation-timing-function:steps(1,end);animation-iteration-count:{count};\
             animation-fill-mode:both}}\n"
        );
        // Digits of a percentage that tell one millisecond from the next.
        let digits = (end as f64 / 100.0).log10().ceil().clamp(0.0, 9.0) as usize;
        let pct = |t: u64| {
            let p = format!("{:.*}", digits, t as f64 * 100.0 / end as f64);
            let p = if p.contains('.') {
                p.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                p
            };
            format!("{p}%")
        };
        // Each picture's moments of change: (ms, shown).
        let mut changes: Vec<Vec<(u64, bool)>> = vec![Vec::new(); self.pictures.len()];
        for (k, &(start, picture)) in self.timeline.iter().enumerate() {
            let until = self.timeline.get(k + 1).map_or(end, |t| t.0);
            changes[picture].push((start, true));
            // The last frame stays shown at the end (an animation played once ends on it).
            changes[picture].push((until, until == end));
        }
        for (i, moments) in changes.iter().enumerate() {
            let (mut shown, mut hidden) = (Vec::new(), Vec::new());
            if moments.first().is_some_and(|m| m.0 > 0) {
                hidden.push(pct(0));
            }
            for &(t, on) in moments {
                if on {
                    shown.push(pct(t))
                } else {
                    hidden.push(pct(t))
                }
            }
            let _ = write!(css, ".f{i}{{animation-name:k{i}}}@keyframes k{i}{{");
            if !shown.is_empty() {
                let _ = write!(css, "{}{{visibility:visible}}", shown.join(","));
            }
            if !hidden.is_empty() {
                let _ = write!(css, "{}{{visibility:hidden}}", hidden.join(","));
            }
            css.push_str("}\n");
        }
        css
    }
}

/// Whole milliseconds of `seconds` (rounded; an endless time is the longest).
fn millis(seconds: f64) -> u64 {
    let ms = (seconds * 1000.0).round();
    if ms.is_nan() {
        u64::MAX / 4
    } else {
        ms.clamp(0.0, (u64::MAX / 4) as f64) as u64
    }
}

/// The `width` and `height` of the document's root element.
fn svg_size(svg: &str) -> Option<(u32, u32)> {
    let head = &svg[..svg.find('>')?];
    let attr = |name: &str| -> Option<u32> {
        let at = head.find(&format!(" {name}=\""))? + name.len() + 3;
        head[at..].split('"').next()?.parse().ok()
    };
    Some((attr("width")?, attr("height")?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::png::PngOptions;
    use crate::term::EngineKind;

    fn screens(steps: &[&str]) -> Vec<Screen> {
        let mut engine = EngineKind::Native.create(Size { cols: 12, rows: 3 });
        steps
            .iter()
            .map(|s| {
                engine.feed(s);
                engine.screen()
            })
            .collect()
    }

    fn animate(frames: &[(f64, Screen)], options: &GifOptions) -> (GifStats, String) {
        let mut renderer = Renderer::new(PngOptions::default()).unwrap();
        let size = Size { cols: 12, rows: 3 };
        let mut svg =
            SvgAnimation::new(&mut renderer, size, options, &Decorations::default()).unwrap();
        for (t, s) in frames {
            svg.add_frame(*t, s).unwrap();
        }
        svg.finish().unwrap()
    }

    /// A screen shown again reuses its group: A, B, A is two pictures shown three times,
    /// and A's keyframes show it in both of its slots.
    #[test]
    fn a_picture_shown_again_is_drawn_once() {
        let s = screens(&["\x1b[?25la", "\x1b[2J\x1b[Hb", "\x1b[2J\x1b[Ha"]);
        let frames = [
            (0.0, s[0].clone()),
            (1.0, s[1].clone()),
            (2.0, s[2].clone()),
        ];
        let (stats, svg) = animate(&frames, &GifOptions::default().last_frame(2.0));
        assert_eq!((stats.frames, stats.duration), (3, 4.0));
        assert_eq!(svg.matches("<g class=\"f f").count(), 2, "{svg}");
        assert!(svg.contains(".f{visibility:hidden;animation-duration:4000ms;"));
        assert!(svg.contains("animation-iteration-count:infinite;"));
        assert!(
            svg.contains("@keyframes k0{0%,50%,100%{visibility:visible}25%{visibility:hidden}}"),
            "{svg}"
        );
        assert!(
            svg.contains("@keyframes k1{25%{visibility:visible}0%,50%{visibility:hidden}}"),
            "{svg}"
        );
        assert_eq!(svg.matches(">a</text>").count(), 1);
    }

    /// Played once, the last frame stays: its keyframes end visible, and `fill-mode: both`
    /// keeps the end.
    #[test]
    fn played_once_it_ends_on_the_last_frame() {
        let s = screens(&["a", "b"]);
        let frames = [(0.0, s[0].clone()), (0.5, s[1].clone())];
        let (_, svg) = animate(&frames, &GifOptions::default().repeat(false));
        assert!(svg.contains("animation-iteration-count:1;animation-fill-mode:both"));
        assert!(
            svg.contains("@keyframes k1{14.29%,100%{visibility:visible}0%{visibility:hidden}}"),
            "{svg}"
        );
    }

    /// The same screen again, or a frame replaced within its millisecond, adds nothing.
    #[test]
    fn repeats_and_instant_frames_are_merged() {
        let s = screens(&["a", "b", "c"]);
        let frames = [
            (0.0, s[0].clone()),
            (0.0, s[0].clone()),
            (1.0, s[1].clone()),
            (1.0002, s[2].clone()),
        ];
        let (stats, svg) = animate(&frames, &GifOptions::default());
        assert_eq!(stats.frames, 2, "{svg}");
        assert!(svg.contains(">abc</text>"));
    }

    /// Distinct pictures past the limits are an error; the same picture again is not.
    #[test]
    fn pictures_past_the_limits_are_refused() {
        let mut renderer = Renderer::new(PngOptions::default()).unwrap();
        let size = Size { cols: 12, rows: 3 };
        let options = GifOptions::default();
        let mut engine = EngineKind::Native.create(size);
        let mut svg =
            SvgAnimation::new(&mut renderer, size, &options, &Decorations::default()).unwrap();
        svg.limits = (3, MAX_SVG_BYTES);
        for (i, text) in ["a", "b", "c", "\x1b[2J\x1b[Ha"].iter().enumerate() {
            engine.feed(text);
            svg.add_frame(i as f64, &engine.screen()).unwrap();
        }
        engine.feed("d");
        let e = svg
            .add_frame(9.0, &engine.screen())
            .unwrap_err()
            .to_string();
        assert!(e.contains("more than 3 distinct pictures"), "{e}");
        svg.limits = (100, 0);
        engine.feed("z");
        let e = svg
            .add_frame(200.0, &engine.screen())
            .unwrap_err()
            .to_string();
        assert!(e.contains("more than 0 MiB of pictures"), "{e}");
    }

    /// A row drawn the same in two pictures is defined once and used by both; a row of one
    /// picture stays in it.
    #[test]
    fn a_row_of_several_pictures_is_defined_once() {
        let s = screens(&["\x1b[?25lprompt\r\n[#  ]", "\r[## ]", "\r[###]"]);
        let frames = [
            (0.0, s[0].clone()),
            (1.0, s[1].clone()),
            (2.0, s[2].clone()),
        ];
        let (_, svg) = animate(&frames, &GifOptions::default());
        assert_eq!(svg.matches(">prompt</text>").count(), 1, "{svg}");
        assert_eq!(svg.matches("<g id=\"r0\">").count(), 1, "{svg}");
        assert_eq!(svg.matches("<use href=\"#r0\"/>").count(), 3, "{svg}");
        assert_eq!(svg.matches(">[###]</text>").count(), 1, "{svg}");
        assert!(
            !svg.contains("<g id=\"r2\">"),
            "a row of one picture stays: {svg}"
        );
    }

    /// The document passes the same structure as a still: one root, a stylesheet of
    /// tuicast's, the frames in groups; and its bytes are the same every time.
    #[test]
    fn the_document_is_deterministic() {
        let s = screens(&["┌─┐\r\n│x│", "\x1b[31mred"]);
        let frames = [(0.0, s[0].clone()), (0.25, s[1].clone())];
        let (_, a) = animate(&frames, &GifOptions::default());
        let (_, b) = animate(&frames, &GifOptions::default());
        assert_eq!(a, b);
        assert!(a.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(a.matches("<style>").count(), 1);
        assert_eq!(
            a.matches("<g id=\"c2500-1\">").count(),
            1,
            "a shape defined once"
        );
    }

    /// An annotated frame is a picture of its own, shown from its time; more than three
    /// labels (a legend below the screen) are refused.
    #[test]
    fn an_annotated_frame_is_its_own_picture_and_labels_stay_inline() {
        use crate::render::png::AnnotationSpec;
        let s = screens(&["\x1b[?25lok"]);
        let spec = |label: &str| -> Annotation {
            format!("regex=ok,label={label}")
                .parse::<AnnotationSpec>()
                .unwrap()
                .build()
                .unwrap()
        };
        let mut renderer = Renderer::new(PngOptions::default()).unwrap();
        let size = Size { cols: 12, rows: 3 };
        let options = GifOptions::default();
        let mut svg =
            SvgAnimation::new(&mut renderer, size, &options, &Decorations::default()).unwrap();
        svg.add_frame(0.0, &s[0]).unwrap();
        svg.add_annotated_frame(1.0, &s[0], &[spec("<b>")]).unwrap();
        let four: Vec<Annotation> = ["a", "b", "c", "d"].iter().map(|l| spec(l)).collect();
        let e = svg.add_annotated_frame(2.0, &s[0], &four).unwrap_err();
        assert!(
            e.to_string().contains("more than 3 labelled annotations"),
            "{e}"
        );
        let (stats, text) = svg.finish().unwrap();
        assert_eq!(stats.frames, 2);
        assert_eq!(text.matches("<g class=\"f f").count(), 2, "{text}");
        assert_eq!(text.matches(">&lt;b&gt;</text>").count(), 1, "{text}");
        assert_eq!(text.matches("class=\"box\"").count(), 1, "{text}");
    }
}
