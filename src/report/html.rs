//! `index.html`: one self-contained page (styles and script inline, no request) made from the
//! data files of a report folder. Every text from a cast, a golden or a file name is escaped
//! here ([`escape`]) or handed to the script as JSON that cannot end its `<script>` element
//! ([`json_for_script`]); the script writes text only with `textContent`.

use std::fmt::Write as _;

use super::data::{CastData, ResultData, SnapshotData};
use super::grid::{css, Grid};
use super::player::Player;
use crate::pos::Ordinal;

const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");

/// What the page shows: every cast's results, and players for the casts that failed.
pub(super) struct Page<'a> {
    pub(super) casts: &'a [CastData],
    pub(super) players: &'a [Player],
    /// A per-page secret for the Content-Security-Policy nonce of the page's own script.
    pub(super) nonce: String,
}

/// Counts shown in the summary.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counts {
    /// Checkpoints that matched.
    pub passed: usize,
    /// Checkpoints whose golden was written now.
    pub updated: usize,
    /// Checkpoints that failed.
    pub failed: usize,
    /// Failing goldens with a change `tuicast accept --from` can apply.
    pub pending: usize,
}

pub(super) fn counts(casts: &[CastData]) -> Counts {
    let mut c = Counts::default();
    for r in casts.iter().flat_map(|c| &c.results) {
        match r.status.as_str() {
            "ok" => c.passed += 1,
            "updated" => c.updated += 1,
            _ => c.failed += 1,
        }
        c.pending += r.snapshots.len() + usize::from(r.screenshot.is_some());
    }
    c
}

impl Page<'_> {
    pub(super) fn render(&self) -> String {
        let counts = counts(self.casts);
        let mut out = String::with_capacity(64 * 1024);
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
             img-src 'self' data: file:; style-src 'unsafe-inline'; script-src 'nonce-{nonce}'\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>tuicast report: {} failed, {} passed</title>\n<style>{STYLE}\
             .screen{{background:{bg};color:{fg}}}</style></head>\n<body>\n",
            counts.failed,
            counts.passed + counts.updated,
            nonce = self.nonce,
            bg = crate::theme::default_theme().bg,
            fg = crate::theme::default_theme().fg,
        );
        self.summary(&mut out, counts);
        let failed: Vec<(&CastData, &ResultData)> = self
            .casts
            .iter()
            .flat_map(|c| c.results.iter().map(move |r| (c, r)))
            .filter(|(_, r)| r.failed())
            .collect();
        if !failed.is_empty() {
            out.push_str("<nav id=\"failures\"><h2>Failures</h2><ol>\n");
            for (i, (_, r)) in failed.iter().enumerate() {
                let _ = writeln!(out, "<li><a href=\"#f{i}\">{}</a></li>", escape(&r.test));
            }
            out.push_str(
                "</ol><p class=\"keys\">j / k: next / previous failure</p></nav>\n<main>\n",
            );
            for (i, (cast, r)) in failed.iter().enumerate() {
                self.failure(&mut out, i, cast, r);
            }
            out.push_str("</main>\n");
        }
        if !self.players.is_empty() {
            out.push_str("<section id=\"players\"><h2>Casts</h2>\n");
            for (i, p) in self.players.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "<div class=\"player\" id=\"p{i}\" data-index=\"{i}\" data-stem=\"{stem}\">\
                     <h3>{stem}</h3><div class=\"controls\">\
                     <button class=\"play\" type=\"button\">play</button>\
                     <button class=\"prev\" type=\"button\">&#9664; step</button>\
                     <button class=\"next\" type=\"button\">step &#9654;</button>\
                     <input class=\"seek\" type=\"range\" min=\"0\" max=\"{max}\" value=\"0\" aria-label=\"frame\">\
                     <span class=\"clock\"></span></div>\
                     <div class=\"timeline\"></div><div class=\"marks\"></div>\
                     <div class=\"body\"><div class=\"screen live\"></div>{steps}</div>{error}</div>",
                    steps = steps(i, p),
                    stem = escape(&p.stem),
                    max = p.frames.len().saturating_sub(1),
                    error = p
                        .error
                        .as_deref()
                        .map(|e| format!("<p class=\"error\">replay stopped: {}</p>", escape(e)))
                        .unwrap_or_default(),
                );
            }
            out.push_str("</section>\n");
        }
        let data = PlayerData {
            players: self.players,
        };
        let _ = write!(
            out,
            "<script type=\"application/json\" id=\"tuicast-data\">{}</script>\n\
             <script nonce=\"{}\">{SCRIPT}</script>\n</body></html>\n",
            json_for_script(&data),
            self.nonce
        );
        out
    }

    fn summary(&self, out: &mut String, c: Counts) {
        let duration: f64 = self.casts.iter().map(|c| c.duration).sum();
        let mut commands: Vec<&str> = self.casts.iter().map(|c| c.command.as_str()).collect();
        commands.sort_unstable();
        commands.dedup();
        let slowest = self
            .casts
            .iter()
            .max_by(|a, b| a.duration.total_cmp(&b.duration));
        let _ = write!(
            out,
            "<header id=\"summary\"><h1>tuicast report</h1>\
             <p class=\"counts\"><span class=\"passed\">{} passed</span> \
             <span class=\"failed\">{} failed</span> <span class=\"updated\">{} updated</span> \
             <span class=\"pending\">{} pending</span> in {} cast(s)</p>\
             <p>checks took {:.3}s in all",
            c.passed,
            c.failed,
            c.updated,
            c.pending,
            self.casts.len(),
            duration
        );
        if let Some(s) = slowest {
            let _ = write!(
                out,
                "; slowest cast {} ({:.3}s)",
                escape(&s.cast),
                s.duration
            );
        }
        out.push_str("</p>");
        let overheads: Vec<f64> = self
            .casts
            .iter()
            .flat_map(|c| c.overheads_ms.iter().copied())
            .filter(|o| o.is_finite())
            .collect();
        if let Some(median) = crate::util::median(&overheads) {
            let most = overheads.iter().copied().fold(0.0, f64::max);
            let _ = write!(
                out,
                "<p class=\"overhead\">live checkpoints: {}, settled a median {median:.1} ms \
                 (at most {most:.1} ms) after the program's last output</p>",
                overheads.len()
            );
        }
        for cmd in commands {
            let _ = write!(out, "<p>command: <code>{}</code></p>", escape(cmd));
        }
        if c.pending > 0 {
            out.push_str(
                "<p>apply the changes in your checkout: <code>tuicast accept --from DIR</code> \
                 (DIR: this folder)</p>",
            );
        }
        out.push_str("</header>\n");
    }

    fn failure(&self, out: &mut String, i: usize, cast: &CastData, r: &ResultData) {
        let player = self
            .players
            .iter()
            .position(|p| p.stem == cast.stem && !p.markers.is_empty());
        let _ = write!(
            out,
            "<section class=\"failure\" id=\"f{i}\" data-test=\"{}\" tabindex=\"-1\">\
             <h2>{}</h2><p class=\"place\">",
            escape(&r.test),
            escape(&r.test),
        );
        if r.test.starts_with("screenshot:") {
            let _ = write!(
                out,
                "a [[screenshot]] of tuicast.toml: checkpoint <b>{}</b> of {}",
                escape(&r.checkpoint),
                escape(&cast.cast)
            );
        } else if r.checkpoint.is_empty() {
            let _ = write!(out, "{} could not be checked", escape(&cast.cast));
        } else {
            let _ = write!(
                out,
                "checkpoint <b>{}</b> of {}:{} at {:.3}s",
                escape(&r.checkpoint),
                escape(&cast.cast),
                r.line,
                r.time
            );
        }
        if let Some(p) = player {
            let _ = write!(
                out,
                " · <a class=\"jump\" href=\"#cast={}&amp;checkpoint={}\" data-player=\"{p}\">play the cast to here</a>",
                escape(&fragment(&cast.stem)),
                escape(&fragment(&r.checkpoint))
            );
        }
        out.push_str("</p>\n");
        if let Some(e) = &r.error {
            let _ = writeln!(out, "<pre class=\"error\">{}</pre>", escape(e));
        }
        for s in &r.snapshots {
            snapshot(out, s);
        }
        if let Some(shot) = &r.screenshot {
            screenshot(out, shot);
        }
        out.push_str("</section>\n");
    }
}

/// The steps of a live run beside its player: checkpoint steps jump to their checkpoint, the
/// step that failed is marked.
fn steps(index: usize, p: &Player) -> String {
    if p.steps.is_empty() {
        return String::new();
    }
    let mut out = String::from("<div class=\"steps\"><h4>scenario steps (recorded live)</h4><ol>");
    for step in &p.steps {
        let line = if step.line > 0 {
            format!("<span class=\"ln\">{}</span> ", step.line)
        } else {
            String::new()
        };
        let text = match &step.checkpoint {
            Some(name) if p.markers.iter().any(|m| &m.name == name) => format!(
                "<a class=\"jump\" href=\"#cast={}&amp;checkpoint={}\" data-player=\"{index}\">{}</a>",
                escape(&fragment(&p.stem)),
                escape(&fragment(name)),
                escape(&step.text)
            ),
            _ => escape(&step.text),
        };
        let _ = write!(
            out,
            "<li{} data-line=\"{}\">{line}{text}{}</li>",
            if step.failed { " class=\"failed\"" } else { "" },
            step.line,
            if step.failed {
                " <b>&#8592; failed here (the screen then is the last frame)</b>"
            } else {
                ""
            },
        );
    }
    out.push_str("</ol></div>");
    out
}

/// A stale or missing screenshot: the committed image beside the one its cast draws now
/// (an SVG too, as an `<img>`, where no script of it runs).
fn screenshot(out: &mut String, shot: &super::ShotData) {
    let what = if shot.images.expected.is_some() {
        "stale"
    } else {
        "missing"
    };
    let _ = write!(
        out,
        "<div class=\"snap\" data-screenshot=\"{}\"><h3>{what}: {}</h3>\
         <div class=\"sides images\">",
        escape(&shot.output),
        escape(&shot.output)
    );
    for (label, file) in [
        ("committed", &shot.images.expected),
        ("drawn now", &shot.images.actual),
    ] {
        match file {
            Some(f) => {
                let _ = write!(
                    out,
                    "<figure class=\"{}\"><figcaption>{label}</figcaption>\
                     <img src=\"files/{}\" alt=\"{label}\"></figure>",
                    if label == "committed" {
                        "expected"
                    } else {
                        "actual"
                    },
                    escape(&fragment(f))
                );
            }
            None => {
                let _ = write!(
                    out,
                    "<figure class=\"expected\"><figcaption>{label}</figcaption>\
                     <p class=\"none\">no image yet</p></figure>"
                );
            }
        }
    }
    out.push_str("</div></div>");
}

fn snapshot(out: &mut String, s: &SnapshotData) {
    let what = if s.missing { "missing" } else { "mismatch" };
    let _ = write!(
        out,
        "<div class=\"snap\" data-golden=\"{}\"><h3>{what}: {}</h3>",
        escape(&s.name),
        escape(&s.name)
    );
    if let Some(place) = &s.place {
        let _ = write!(out, "<p>first difference: {}</p>", escape(place));
    }
    if !s.format.is_binary() {
        let actual = Grid::from_snapshot(&s.actual);
        let expected = s.expected.as_deref().map(Grid::from_snapshot);
        // Both text formats carry the styles (`txt` when the screen has any and `styles` is
        // on): a cell whose colour changed is marked as one whose text did.
        let styles = true;
        let empty = Grid::default();
        let changed_actual = match &expected {
            Some(e) => actual.changed(e, styles),
            None => actual.changed(&actual, styles),
        };
        out.push_str(
            "<label class=\"only\"><input type=\"checkbox\" class=\"only-d\"> differences only</label>\
             <label class=\"only\"><input type=\"checkbox\" class=\"overlay\"> actual over \
             expected (<kbd>o</kbd> flips between them)</label>\
             <div class=\"sides\">",
        );
        match &expected {
            Some(e) => {
                let changed = e.changed(&actual, styles);
                screen(out, "expected", e, &changed);
            }
            None => {
                let _ = write!(
                    out,
                    "<figure class=\"expected\"><figcaption>expected</figcaption>\
                     <p class=\"none\">no golden yet</p></figure>"
                );
                let _ = &empty;
            }
        }
        screen(out, "actual", &actual, &changed_actual);
        out.push_str("</div>");
    } else {
        out.push_str("<div class=\"sides images\">");
        for (label, file) in [
            ("expected", &s.images.expected),
            ("actual", &s.images.actual),
            ("changes", &s.images.diff),
        ] {
            if let Some(f) = file {
                let _ = write!(
                    out,
                    "<figure class=\"{label}\"><figcaption>{label}</figcaption>\
                     <img src=\"files/{}\" alt=\"{label}\"></figure>",
                    escape(&fragment(f))
                );
            }
        }
        out.push_str("</div>");
    }
    if !s.style_changes.is_empty() {
        out.push_str("<ul class=\"style-changes\">");
        for c in &s.style_changes {
            let _ = write!(out, "<li>{}</li>", escape(c));
        }
        out.push_str("</ul>");
    }
    if !s.diff.is_empty() {
        let _ = write!(
            out,
            "<details open><summary>text diff</summary><pre class=\"diff\">"
        );
        for line in s.diff.lines() {
            let class = match line.chars().next() {
                Some('+') => "add",
                Some('-') => "del",
                Some('@') => "hunk",
                _ => "ctx",
            };
            let _ = write!(out, "<span class=\"{class}\">{}</span>", escape(line));
        }
        out.push_str("</pre></details>");
    }
    out.push_str("</div>\n");
}

/// A screen as rows of spans: runs of ASCII text of one style, each changed cell its own
/// `span.d` with its 1-based `data-col`, every other character in a box of its cells (`span.w`
/// two wide, `span.g` one: a braille, box-drawing or CJK glyph of a fallback font with another
/// advance cannot shift the row), the cursor cell `span.cur`.
fn screen(out: &mut String, label: &str, grid: &Grid, changed: &[Vec<bool>]) {
    let _ = write!(
        out,
        "<figure class=\"{label}\"><figcaption>{label}</figcaption><div class=\"screen\" style=\"width:{}ch\">",
        grid.cols
    );
    for (r, row) in grid.rows.iter().enumerate() {
        let any = changed.get(r).is_some_and(|c| c.iter().any(|x| *x));
        let _ = write!(
            out,
            "<div class=\"row{}\" data-row=\"{}\">",
            if any { " has-d" } else { "" },
            Ordinal::of(r)
        );
        let mut c = 0;
        while c < row.len() {
            let cell = &row[c];
            if cell.width == 0 {
                c += 1;
                continue;
            }
            let is_changed = |c: usize| {
                changed
                    .get(r)
                    .and_then(|x| x.get(c))
                    .copied()
                    .unwrap_or(false)
            };
            let is_cursor = |c: usize| grid.cursor == Some((r, c));
            let boxed = !cell.text.is_ascii();
            let single = cell.width > 1 || boxed || is_changed(c) || is_cursor(c);
            let mut end = c + 1;
            if !single {
                while end < row.len()
                    && row[end].width == 1
                    && row[end].text.is_ascii()
                    && row[end].style == cell.style
                    && !is_changed(end)
                    && !is_cursor(end)
                {
                    end += 1;
                }
            }
            let text: String = row[c..end].iter().map(|x| x.text.as_str()).collect();
            let mut classes = Vec::new();
            if cell.width > 1 {
                classes.push("w");
            } else if boxed {
                classes.push("g");
            }
            if is_changed(c) {
                classes.push("d");
            }
            if is_cursor(c) {
                classes.push("cur");
            }
            // A boxed character is placed at its cell (one rounding, so none add up along
            // the row), with blanks in the flow where it stands.
            let placed = cell.width > 1 || boxed;
            if placed {
                // (Blanks drawn by CSS: not in the page's text, so a copy has none.)
                out.push_str(if cell.width > 1 {
                    "<span class=\"sp two\"></span>"
                } else {
                    "<span class=\"sp\"></span>"
                });
            }
            out.push_str("<span");
            if !classes.is_empty() {
                let _ = write!(out, " class=\"{}\"", classes.join(" "));
            }
            let mut style = css(&cell.style);
            if placed {
                style.push_str(&format!("left:{c}ch;"));
            }
            if is_changed(c) {
                let _ = write!(out, " data-col=\"{}\"", Ordinal::of(c));
            }
            if !style.is_empty() {
                let _ = write!(out, " style=\"{style}\"");
            }
            let _ = write!(out, ">{}</span>", escape(&text));
            c = end;
        }
        out.push_str("</div>");
    }
    out.push_str("</div></figure>");
}

/// The page's data for its script: `{"players": [...]}`.
#[derive(serde::Serialize)]
struct PlayerData<'a> {
    players: &'a [Player],
}

/// Text as HTML: see [`crate::escape::escape_markup`].
pub(crate) use crate::escape::escape_markup as escape;

/// JSON that is safe inside `<script type="application/json">`: `<`, `>` and `&` written as
/// `\u` escapes, so no text can close the element or open a comment.
pub(super) fn json_for_script(value: &impl serde::Serialize) -> String {
    // Serializing the report's own types cannot fail (string keys only).
    let text = serde_json::to_string(value).unwrap_or_else(|_| "null".to_string());
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// A value for a URL fragment or file name in an attribute: percent-encoded but for
/// letters, digits and `-._~`.
pub(super) fn fragment(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_cannot_become_markup() {
        assert_eq!(
            escape("</script><img src=x onerror='a()'>\u{1b}[31m&"),
            "&lt;/script&gt;&lt;img src=x onerror=&#39;a()&#39;&gt;\u{fffd}[31m&amp;"
        );
        let v = serde_json::json!({"t": "</script><!--"});
        assert_eq!(
            json_for_script(&v),
            r#"{"t":"\u003c/script\u003e\u003c!--"}"#
        );
        assert_eq!(fragment("a b/ü"), "a%20b%2F%C3%BC");
    }
}
