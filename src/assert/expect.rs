//! Expectations (`[[check.expect]]` in a cast's TOML): what a region of a checkpoint's screen
//! says and how it looks, checked beside or instead of goldens.
//!
//! ```toml
//! [[check.expect]]
//! at = "saved"            # a checkpoint, or "*" for every one
//! region = "status"       # a region of [regions]; or rows/cols/regex as in masks
//! text = "-- INSERT --"   # or contains = "…", matches = "regex"
//! fg = "green"            # fg, bg, bold, italic, underline, inverse: every cell with text
//! [[check.expect]]
//! at = "end"
//! cursor = [5, 1]         # row and column, from 1
//! ```
//!
//! An [`Expect`] is built by the config stage; [`Expect::check`] says what differs.
//!
//! The failure message shows the rows around the region. The harness checks expectations at
//! each checkpoint as the replay reaches it, one trial each.

use std::fmt::Write as _;

use regex::Regex;

use crate::escape::escape_for_terminal;
use crate::inspect::Anchor;
use crate::pos::{Ordinal, Place, Point};
use crate::term::{rects_text, Attrs, CellRect, Color, Rgb, Screen};

/// What the text of the region must be.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum TextCheck {
    /// The trimmed text equals this.
    Equals(String),
    /// The text contains this.
    Contains(String),
    /// The text matches this regex.
    Matches(Regex),
}

/// The style every cell with text in the region must have; `None` is not checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StyleCheck {
    /// Foreground colour.
    pub fg: Option<Color>,
    /// Background colour.
    pub bg: Option<Color>,
    /// Bold.
    pub bold: Option<bool>,
    /// Italic.
    pub italic: Option<bool>,
    /// Underlined.
    pub underline: Option<bool>,
    /// Reverse video.
    pub inverse: Option<bool>,
}

impl StyleCheck {
    /// Whether anything is checked.
    pub fn is_empty(&self) -> bool {
        *self == StyleCheck::default()
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = self.fg {
            parts.push(format!("fg {}", c.describe()));
        }
        if let Some(c) = self.bg {
            parts.push(format!("bg {}", c.describe()));
        }
        for (v, name) in [
            (self.bold, "bold"),
            (self.italic, "italic"),
            (self.underline, "underline"),
            (self.inverse, "inverse"),
        ] {
            match v {
                Some(true) => parts.push(name.to_string()),
                Some(false) => parts.push(format!("not {name}")),
                None => {}
            }
        }
        parts.join(", ")
    }

    fn accepts(&self, fg: Color, bg: Color, a: &Attrs) -> bool {
        self.fg.is_none_or(|c| c == fg)
            && self.bg.is_none_or(|c| c == bg)
            && self.bold.is_none_or(|v| v == a.bold)
            && self.italic.is_none_or(|v| v == a.italic)
            && self.underline.is_none_or(|v| v == a.underline)
            && self.inverse.is_none_or(|v| v == a.inverse)
    }
}

/// The style of a cell as a message shows it: `fg 2 (green), bg default, bold`.
fn cell_style(fg: Color, bg: Color, a: &Attrs) -> String {
    let mut s = format!("fg {}, bg {}", fg.describe(), bg.describe());
    for n in a.names() {
        s.push_str(", ");
        s.push_str(n);
    }
    s
}

message_error!(
    /// Why a text is not a colour an expectation can name.
    ColorError, ColorErrorKind {
        /// Not a colour's name, a palette index (0–255) or `#rrggbb`.
        Unknown,
    }
);

message_error!(
    /// Why a screen does not meet an expectation: what it looked for, what it found, and the
    /// rows around.
    ExpectFailure, ExpectFailureKind {
        /// The expectation's region resolves to nothing on the screen.
        NoRegion,
        /// The screen does not meet the expectation (the message says which checks fail).
        Unmet,
        /// An adapter its ref asks passed a limit or has a regex that cannot be compiled:
        /// bad input, the message names the adapter's place.
        Adapter,
    }
);

/// Reads a colour as an expectation writes it: a name (`green`, `bright-red`, `default`), a
/// palette index (`0`–`255`) or `#rrggbb`.
pub fn parse_color(text: &str) -> Result<Color, ColorError> {
    const NAMES: [&str; 8] = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
    ];
    let t = text.trim().to_ascii_lowercase();
    if t == "default" {
        return Ok(Color::Default);
    }
    if let Ok(i) = t.parse::<u8>() {
        return Ok(Color::Indexed(i));
    }
    if t.starts_with('#') {
        return Rgb::parse(&t)
            .map(Color::Rgb)
            .map_err(|e| ColorError::new(ColorErrorKind::Unknown, e.to_string()));
    }
    let (bright, name) = match t
        .strip_prefix("bright-")
        .or_else(|| t.strip_prefix("bright_"))
    {
        Some(n) => (true, n),
        None => (false, t.as_str()),
    };
    match NAMES.iter().position(|n| *n == name) {
        Some(i) => Ok(Color::Indexed(i as u8 + if bright { 8 } else { 0 })),
        None => Err(ColorError::new(
            ColorErrorKind::Unknown,
            format!(
                "colour \"{}\" is not one: a name (green, bright-red, default), 0-255 or #rrggbb",
                escape_for_terminal(text, 40)
            ),
        )),
    }
}

/// One `[[check.expect]]`.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Expect {
    /// Its name in test names: the `name` key, or its number in the file (from 1).
    pub id: String,
    /// The checkpoints it is checked at (`at = "name"` or `at = ["a", "b"]`); `None` for
    /// every one (`at = "*"`).
    pub at: Option<Vec<String>>,
    /// Where it is written, `path:line`.
    pub place: String,
    /// The region: a label for messages (`region "status"`, or the cells' keys) and its
    /// anchor; the whole screen when `None`.
    pub region: Option<(String, Anchor)>,
    /// The text check.
    pub text: Option<TextCheck>,
    /// The style check.
    pub style: StyleCheck,
    /// The cursor's position.
    pub cursor: Option<Point>,
    /// Text the window title holds.
    pub title: Option<String>,
    /// The kind of prompt the screen shows (`inspect::classify`, the echo flag unknown as in
    /// replay).
    pub prompt: Option<crate::inspect::PromptKind>,
    /// The data rows of the first table in the region (or on the screen).
    pub table_rows: Option<usize>,
}

impl Expect {
    /// Whether this expectation is checked at the checkpoint `name`.
    pub fn applies_to(&self, name: &str) -> bool {
        self.at
            .as_ref()
            .is_none_or(|at| at.iter().any(|a| a == name))
    }

    /// Checks `screen`, the checkpoint `checkpoint`'s; the failure message when it differs.
    pub fn check(&self, screen: &Screen, checkpoint: &str) -> Result<(), ExpectFailure> {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "expectation {} ({}) failed at checkpoint \"{}\"",
            escape_for_terminal(&self.id, 60),
            self.place,
            escape_for_terminal(checkpoint, 60)
        );
        let nrows = screen.rows.len().min(screen.size.rows as usize);
        let whole = [CellRect {
            row: 0,
            row_end: nrows,
            col: 0,
            col_end: screen.size.cols as usize,
        }];
        let rects = match &self.region {
            None => whole.to_vec(),
            Some((label, anchor)) => match anchor.resolve(screen) {
                Ok(r) => r,
                Err(e) if e.kind() == crate::inspect::AnchorErrorKind::Adapter => {
                    let _ = write!(out, "  {label} ({}): {e}", anchor.describe());
                    return Err(ExpectFailure::new(ExpectFailureKind::Adapter, out));
                }
                Err(e) => {
                    let _ = writeln!(
                        out,
                        "  {label} ({}) resolves to nothing: {e}",
                        anchor.describe()
                    );
                    let _ = write!(out, "{}", around(screen, &[]));
                    return Err(ExpectFailure::new(ExpectFailureKind::NoRegion, out));
                }
            },
        };
        let mut failed = false;
        if let Some((label, anchor)) = &self.region {
            let _ = writeln!(out, "  {label} ({}): {}", anchor.describe(), places(&rects));
        }
        let text = rects_text(screen, &rects);
        let trimmed = text.trim();
        let shown = |s: &str| escape_for_terminal(s, 400);
        if let Some(check) = &self.text {
            let (ok, expected) = match check {
                TextCheck::Equals(t) => (trimmed == t.trim(), format!("text \"{}\"", shown(t))),
                TextCheck::Contains(t) => (
                    text.contains(t.as_str()),
                    format!("text containing \"{}\"", shown(t)),
                ),
                TextCheck::Matches(r) => (
                    r.is_match(&text),
                    format!("text matching regex \"{}\"", shown(r.as_str())),
                ),
            };
            if !ok {
                failed = true;
                let _ = writeln!(out, "  expected {expected}");
                let _ = writeln!(out, "  found text \"{}\"", shown(trimmed));
            }
        }
        if !self.style.is_empty() {
            let mut bad = None;
            let mut any = false;
            'cells: for rect in &rects {
                for r in rect.row..rect.row_end {
                    let Some(cells) = screen.rows.get(r) else {
                        continue;
                    };
                    let end = rect.col_end.min(cells.len());
                    let row = cells.get(rect.col..end).unwrap_or(&[]);
                    for (c, cell) in (rect.col..).zip(row) {
                        if cell.width == 0 || cell.text.chars().all(char::is_whitespace) {
                            continue;
                        }
                        any = true;
                        if !self.style.accepts(cell.fg, cell.bg, &cell.attrs) {
                            bad = Some((r, c, cell.clone()));
                            break 'cells;
                        }
                    }
                }
            }
            if let Some((r, c, cell)) = bad {
                failed = true;
                let _ = writeln!(out, "  expected style {}", self.style.describe());
                let _ = writeln!(
                    out,
                    "  found at {} (\"{}\"): {}",
                    Place::of(r, c),
                    shown(&cell.text),
                    cell_style(cell.fg, cell.bg, &cell.attrs)
                );
            } else if !any {
                failed = true;
                let _ = writeln!(out, "  expected style {}", self.style.describe());
                let _ = writeln!(out, "  found no cell with text to have it");
            }
        }
        if let Some(want) = self.cursor {
            let c = screen.cursor;
            if c.point() != want {
                failed = true;
                let _ = writeln!(out, "  expected the cursor at {}", want.place().pair());
                let _ = writeln!(
                    out,
                    "  found it at {}{}",
                    c.place().pair(),
                    if c.visible { "" } else { " (hidden)" }
                );
            }
        }
        if let Some(want) = &self.title {
            let title = screen.title.as_deref().unwrap_or("");
            if !title.contains(want.as_str()) {
                failed = true;
                let _ = writeln!(out, "  expected a title containing \"{}\"", shown(want));
                let _ = writeln!(out, "  found the title \"{}\"", shown(title));
            }
        }
        if let Some(want) = self.prompt {
            let p = crate::inspect::classify(
                screen,
                &screen.outline(),
                crate::inspect::TtyModes::UNKNOWN,
            );
            if p.kind != want {
                failed = true;
                let _ = writeln!(out, "  expected a {} prompt", want.name());
                let _ = writeln!(
                    out,
                    "  found {} ({:.2}): \"{}\"",
                    p.kind.name(),
                    p.confidence,
                    shown(&p.evidence)
                );
            }
        }
        if let Some(want) = self.table_rows {
            let top = rects.first().map_or(0, |r| r.row);
            let bottom = rects.last().map_or(nrows, |r| r.row_end);
            let tables = crate::inspect::tables(screen);
            let found = tables.iter().find(|t| t.row >= top && t.row < bottom);
            match found {
                Some(t) if t.rows.len() == want => {}
                Some(t) => {
                    failed = true;
                    let _ = writeln!(out, "  expected a table of {want} rows");
                    let _ = writeln!(
                        out,
                        "  found {} rows at row {} (header: {})",
                        t.rows.len(),
                        Ordinal::of(t.row),
                        t.header
                            .as_ref()
                            .map_or("none".into(), |h| shown(&h.join(" | ")))
                    );
                }
                None => {
                    failed = true;
                    let _ = writeln!(out, "  expected a table of {want} rows");
                    let _ = writeln!(out, "  found no table");
                }
            }
        }
        if !failed {
            return Ok(());
        }
        let shown_rects = if self.region.is_some() {
            rects
        } else if let Some(Point { row, col }) = self.cursor {
            let (row, col) = (usize::from(row), usize::from(col));
            vec![CellRect {
                row,
                row_end: row + 1,
                col,
                col_end: col + 1,
            }]
        } else {
            Vec::new()
        };
        let _ = write!(out, "{}", around(screen, &shown_rects));
        Err(ExpectFailure::new(ExpectFailureKind::Unmet, out))
    }
}

/// `row 24, columns 1-80` or `rows 2-5, columns 3-10` for each rectangle.
fn places(rects: &[CellRect]) -> String {
    let span = |what: &str, a: usize, b: usize| match Ordinal::span(a..b) {
        [first, last] if first == last => format!("{what} {first}"),
        [first, last] => format!("{what}s {first}-{last}"),
    };
    let mut parts: Vec<String> = rects
        .iter()
        .take(4)
        .map(|r| {
            format!(
                "{}, {}",
                span("row", r.row, r.row_end),
                span("column", r.col, r.col_end)
            )
        })
        .collect();
    if rects.len() > 4 {
        parts.push(format!("and {} more", rects.len() - 4));
    }
    parts.join("; ")
}

/// The screen's rows around `rects` (two above and below, the region's rows marked `>`; at
/// most 12 rows), or its first rows when there is no region.
fn around(screen: &Screen, rects: &[CellRect]) -> String {
    let nrows = screen.rows.len().min(screen.size.rows as usize);
    let (first, last) = match (
        rects.iter().map(|r| r.row).min(),
        rects.iter().map(|r| r.row_end).max(),
    ) {
        (Some(a), Some(b)) => (a.saturating_sub(2), (b + 2).min(nrows)),
        _ => (0, nrows),
    };
    let last = last.min(first + 12);
    let width = last.to_string().len();
    let mut out = String::from("  screen:\n");
    for r in first..last {
        let marked = rects.iter().any(|x| (x.row..x.row_end).contains(&r));
        let _ = writeln!(
            out,
            "  {} {:>width$} | {}",
            if marked { '>' } else { ' ' },
            Ordinal::of(r),
            escape_for_terminal(&screen.row_text(r), 400)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::anchor_regex;
    use crate::term::{test_screen, CellSelection, Size};

    fn screen() -> Screen {
        test_screen(
            Size { cols: 20, rows: 4 },
            "top\r\n\x1b[1;32m-- INSERT --\x1b[m\r\nplain\x1b[2;3H",
        )
    }

    fn expect(region: Option<Anchor>) -> Expect {
        Expect {
            id: "1".into(),
            at: None,
            place: "casts/x.toml:3".into(),
            region: region.map(|a| ("region \"status\"".to_string(), a)),
            text: None,
            style: StyleCheck::default(),
            cursor: None,
            title: None,
            prompt: None,
            table_rows: None,
        }
    }

    fn status() -> Option<Anchor> {
        Some(Anchor::Row(anchor_regex("INSERT").unwrap()))
    }

    #[test]
    fn colours_read_as_names_indices_and_rgb() {
        assert_eq!(parse_color("green"), Ok(Color::Indexed(2)));
        assert_eq!(parse_color("bright-red"), Ok(Color::Indexed(9)));
        assert_eq!(parse_color("Bright_White"), Ok(Color::Indexed(15)));
        assert_eq!(parse_color("208"), Ok(Color::Indexed(208)));
        assert_eq!(parse_color("default"), Ok(Color::Default));
        assert_eq!(parse_color("#ff8800"), Ok(Color::Rgb(Rgb(255, 136, 0))));
        assert!(parse_color("mauve")
            .unwrap_err()
            .message()
            .contains("bright-red"));
        assert!(parse_color("256").is_err());
    }

    #[test]
    fn text_style_and_cursor_pass() {
        let s = screen();
        let mut e = expect(status());
        e.text = Some(TextCheck::Equals("-- INSERT --".into()));
        e.style.fg = Some(Color::Indexed(2));
        e.style.bold = Some(true);
        e.cursor = Some(Point::new(1, 2));
        assert_eq!(e.check(&s, "end"), Ok(()));
        e.text = Some(TextCheck::Contains("INSERT".into()));
        assert_eq!(e.check(&s, "end"), Ok(()));
        e.text = Some(TextCheck::Matches(Regex::new("^-- [A-Z]+ --$").unwrap()));
        assert_eq!(e.check(&s, "end"), Ok(()));
        // No region: the whole screen.
        let mut e = expect(None);
        e.text = Some(TextCheck::Contains("plain".into()));
        assert_eq!(e.check(&s, "end"), Ok(()));
    }

    #[test]
    fn a_text_failure_shows_what_was_found_and_the_rows_around() {
        let s = screen();
        let mut e = expect(status());
        e.text = Some(TextCheck::Equals("-- VISUAL --".into()));
        let m = String::from(e.check(&s, "saved").unwrap_err());
        assert!(
            m.starts_with("expectation 1 (casts/x.toml:3) failed at checkpoint \"saved\"\n"),
            "{m}"
        );
        assert!(
            m.contains("  region \"status\" (row = { regex = \"INSERT\" }): row 2, columns 1-20\n"),
            "{m}"
        );
        assert!(
            m.contains("  expected text \"-- VISUAL --\"\n  found text \"-- INSERT --\"\n"),
            "{m}"
        );
        assert!(m.contains("  > 2 | -- INSERT --\n"), "{m}");
        assert!(m.contains("    1 | top\n"), "{m}");
    }

    #[test]
    fn a_style_failure_names_the_first_cell_that_differs() {
        let s = screen();
        let mut e = expect(status());
        e.style.fg = Some(Color::Indexed(1));
        let m = String::from(e.check(&s, "end").unwrap_err());
        assert!(m.contains("  expected style fg 1 (red)\n"), "{m}");
        assert!(
            m.contains("  found at row 2, column 1 (\"-\"): fg 2 (green), bg default, bold\n"),
            "{m}"
        );
        let mut e = expect(Some(Anchor::Row(anchor_regex("plain").unwrap())));
        e.style.bold = Some(true);
        let m = String::from(e.check(&s, "end").unwrap_err());
        assert!(m.contains("expected style bold\n"), "{m}");
        assert!(m.contains("(\"p\"): fg default, bg default\n"), "{m}");
    }

    #[test]
    fn a_region_that_resolves_to_nothing_and_a_wrong_cursor_fail() {
        let s = screen();
        let mut e = expect(Some(Anchor::Row(anchor_regex("NORMAL").unwrap())));
        e.text = Some(TextCheck::Contains("x".into()));
        let m = String::from(e.check(&s, "end").unwrap_err());
        assert!(
            m.contains("  region \"status\" (row = { regex = \"NORMAL\" }) resolves to nothing: no row matches regex \"NORMAL\"\n"),
            "{m}"
        );
        let mut e = expect(Some(Anchor::Cells(
            CellSelection::new(Some("1"), None, None).unwrap(),
        )));
        e.cursor = Some(Point::new(0, 0));
        let m = String::from(e.check(&s, "end").unwrap_err());
        assert!(
            m.contains("  expected the cursor at [1, 1]\n  found it at [2, 3]\n"),
            "{m}"
        );
    }
}
