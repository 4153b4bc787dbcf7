//! Regions anchored by content: which cells a named region of a cast's TOML means on one
//! screen, found afresh on every screen. Besides fixed cells (a [`CellSelection`]):
//!
//! - `row = { regex = "…" }`: the whole row of the first match (top to bottom);
//! - `match = { regex = "…", offset = [drow, dcol], width = N }`: the cells of the first
//!   match, moved by the offset, `width` cells wide (the match's width when not given);
//! - `inside = { box = "Title" }`: the inside of a box of the [`Outline`]
//!   (by stable name, by title, else the first whose title contains the text);
//! - `between = { from = "regex", to = "regex" }`: the rows strictly between the first row
//!   matching `from` and the next row below it matching `to`;
//! - `last_row = true`: the last non-blank row.
//!
//! An anchor that finds nothing is an [`AnchorError`] saying what it looked for, never an
//! empty region.

use std::sync::Arc;

use regex::Regex;

use super::{select, Adapters, RefContext, Selector};

use crate::pos::Ordinal;
use crate::term::{hide_rects, rects_text, CellRect, CellSelection, Outline, Screen};

/// How a region finds its cells on a screen (see the module docs).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Anchor {
    /// Fixed rows and columns, or the matches of a regex (`rows`, `cols`, `regex`).
    Cells(CellSelection),
    /// The whole row of the first match.
    Row(Regex),
    /// The cells of the first match, moved by `offset` (rows, columns), `width` cells wide.
    Match {
        /// The pattern.
        regex: Regex,
        /// Rows and columns to move by.
        offset: (i64, i64),
        /// The width in cells; the match's own when `None`.
        width: Option<usize>,
    },
    /// The inside of a box (its name or title).
    Inside(String),
    /// The rows strictly between two matches.
    Between {
        /// The row above.
        from: Regex,
        /// The row below.
        to: Regex,
    },
    /// The last non-blank row.
    LastRow,
    /// The cells of the one ref a selector finds.
    Ref(Box<RefAnchor>),
}

/// A region found by a selector: the cells of the one ref it picks.
#[derive(Debug, Clone)]
pub struct RefAnchor {
    selector: Selector,
    adapters: Arc<Adapters>,
    every: bool,
}

impl RefAnchor {
    /// The anchor of `selector`, whose adapter refs `adapters` give.
    pub fn new(selector: Selector, adapters: Arc<Adapters>) -> RefAnchor {
        RefAnchor {
            selector,
            adapters,
            every: false,
        }
    }

    /// The cells of every ref the selector finds (a mask's), not of the one it must find.
    pub fn every(mut self) -> RefAnchor {
        self.every = true;
        self
    }

    /// Its selector.
    pub fn selector(&self) -> &Selector {
        &self.selector
    }
}

/// A copy of `screen` with the cells every one of `anchors` finds hidden (an anchor that finds
/// nothing on this screen hides nothing).
pub fn hide_all(anchors: &[Anchor], screen: &Screen) -> Screen {
    let mut s = screen.clone();
    let outline = std::cell::OnceCell::new();
    for a in anchors {
        if let Ok(rects) = a.resolve_in(screen, &outline) {
            hide_rects(&mut s, &rects);
        }
    }
    s
}

message_error!(
    /// Why an anchor found nothing on a screen, or why it cannot be made.
    AnchorError, AnchorErrorKind {
        /// A regex of the anchor is empty or not valid.
        Regex,
        /// The anchor finds nothing on the screen.
        NotFound,
        /// What it found, moved by its offset, is off the screen.
        OffScreen,
        /// A ref that must find one part finds several.
        Ambiguous,
        /// An adapter a ref asks passed a limit or has a regex that cannot be compiled (bad
        /// input, at the adapter's place: [`super::Adapter::refs`]).
        Adapter,
    }
);

/// Compiles a regex of an anchor; empty or invalid ones are errors that show the pattern.
pub fn anchor_regex(r: &str) -> Result<Regex, AnchorError> {
    if r.is_empty() {
        return Err(AnchorError::new(
            AnchorErrorKind::Regex,
            "the regex is empty",
        ));
    }
    crate::util::user_regex(r).map_err(|e| {
        AnchorError::new(
            AnchorErrorKind::Regex,
            format!(
                "regex \"{}\" {e}",
                crate::escape::escape_for_terminal(r, 80)
            ),
        )
    })
}

fn shown(r: &Regex) -> String {
    crate::escape::escape_for_terminal(r.as_str(), 80)
}

impl Anchor {
    /// What the anchor looks for, as written in the TOML (for messages).
    pub fn describe(&self) -> String {
        match self {
            Anchor::Cells(c) => {
                let mut parts = Vec::new();
                let range = |r: &std::ops::Range<usize>| {
                    let [first, last] = Ordinal::span(r.clone());
                    format!("\"{first}..={last}\"")
                };
                if let Some(r) = c.rows() {
                    parts.push(format!("rows = {}", range(r)));
                }
                if let Some(r) = c.cols() {
                    parts.push(format!("cols = {}", range(r)));
                }
                if let Some(r) = c.regex() {
                    parts.push(format!("regex = \"{}\"", shown(r)));
                }
                parts.join(", ")
            }
            Anchor::Row(r) => format!("row = {{ regex = \"{}\" }}", shown(r)),
            Anchor::Match {
                regex,
                offset,
                width,
            } => {
                let mut s = format!("match = {{ regex = \"{}\"", shown(regex));
                if *offset != (0, 0) {
                    s.push_str(&format!(", offset = [{}, {}]", offset.0, offset.1));
                }
                if let Some(w) = width {
                    s.push_str(&format!(", width = {w}"));
                }
                s + " }"
            }
            Anchor::Inside(b) => format!(
                "inside = {{ box = \"{}\" }}",
                crate::escape::escape_for_terminal(b, 80)
            ),
            Anchor::Between { from, to } => format!(
                "between = {{ from = \"{}\", to = \"{}\" }}",
                shown(from),
                shown(to)
            ),
            Anchor::LastRow => "last_row = true".into(),
            Anchor::Ref(r) => format!(
                "ref = \"{}\"",
                crate::escape::escape_for_terminal(r.selector.as_str(), 80)
            ),
        }
    }

    /// The cells of this anchor on `screen`, clipped to it; an error saying what was looked
    /// for when nothing is found.
    pub fn resolve(&self, screen: &Screen) -> Result<Vec<CellRect>, AnchorError> {
        self.resolve_in(screen, &std::cell::OnceCell::new())
    }

    /// [`Anchor::resolve`] with the screen's outline made at most once for several anchors
    /// (`outline` is filled the first time an anchor needs it): the recorder resolves every
    /// mask on every chunk of output while it waits for a still screen.
    pub fn resolve_in(
        &self,
        screen: &Screen,
        outline: &std::cell::OnceCell<Outline>,
    ) -> Result<Vec<CellRect>, AnchorError> {
        let nrows = screen.rows.len().min(screen.size.rows as usize);
        let ncols = screen.size.cols as usize;
        let whole_rows = |row: usize, row_end: usize| CellRect {
            row,
            row_end,
            col: 0,
            col_end: ncols,
        };
        let first_match = |regex: &Regex, from: usize| {
            (from..nrows).find_map(|r| screen.find_cells(r, regex).first().map(|m| (r, m.clone())))
        };
        let rects = match self {
            Anchor::Cells(c) => {
                let rects = c.rects(screen);
                if rects.is_empty() {
                    return Err(AnchorError::new(
                        AnchorErrorKind::NotFound,
                        match c.regex() {
                            Some(r) => format!("no text matches regex \"{}\"", shown(r)),
                            None => format!("no cells of the screen ({}x{})", ncols, nrows),
                        },
                    ));
                }
                rects
            }
            Anchor::Row(regex) => match first_match(regex, 0) {
                Some((r, _)) => vec![whole_rows(r, r + 1)],
                None => {
                    return Err(AnchorError::new(
                        AnchorErrorKind::NotFound,
                        format!("no row matches regex \"{}\"", shown(regex)),
                    ))
                }
            },
            Anchor::Match {
                regex,
                offset,
                width,
            } => {
                let Some((r, m)) = first_match(regex, 0) else {
                    return Err(AnchorError::new(
                        AnchorErrorKind::NotFound,
                        format!("no text matches regex \"{}\"", shown(regex)),
                    ));
                };
                let row = r as i64 + offset.0;
                let col = m.start as i64 + offset.1;
                let w = width.unwrap_or(m.end - m.start) as i64;
                let (col_start, col_end) = (col.max(0), (col + w).min(ncols as i64));
                if row < 0 || row >= nrows as i64 || col_start >= col_end {
                    return Err(AnchorError::new(AnchorErrorKind::OffScreen, format!(
                        "the match of regex \"{}\" (row {}, column {}) moved by [{}, {}] is off the screen",
                        shown(regex),
                        Ordinal::of(r),
                        Ordinal::of(m.start),
                        offset.0,
                        offset.1
                    )));
                }
                vec![CellRect {
                    row: row as usize,
                    row_end: row as usize + 1,
                    col: col_start as usize,
                    col_end: col_end as usize,
                }]
            }
            Anchor::Inside(name) => {
                let outline = outline.get_or_init(|| screen.outline());
                let found = outline.find_box(name).or_else(|| {
                    outline.boxes.iter().find(|b| {
                        b.title
                            .as_deref()
                            .is_some_and(|t| t.contains(name.as_str()))
                    })
                });
                let shown_name = crate::escape::escape_for_terminal(name, 80);
                let Some(b) = found else {
                    let titles: Vec<String> = outline
                        .boxes
                        .iter()
                        .map(|b| crate::escape::escape_for_terminal(&b.name, 60))
                        .collect();
                    return Err(AnchorError::new(
                        AnchorErrorKind::NotFound,
                        format!(
                            "no box titled \"{shown_name}\" (boxes: {})",
                            if titles.is_empty() {
                                "none".to_string()
                            } else {
                                titles.join(", ")
                            }
                        ),
                    ));
                };
                let inner = b.inner();
                if inner.row >= inner.row_end || inner.col >= inner.col_end {
                    return Err(AnchorError::new(
                        AnchorErrorKind::NotFound,
                        format!("the box \"{shown_name}\" has no inside"),
                    ));
                }
                vec![inner]
            }
            Anchor::Between { from, to } => {
                let Some((top, _)) = first_match(from, 0) else {
                    return Err(AnchorError::new(
                        AnchorErrorKind::NotFound,
                        format!("no row matches regex \"{}\" (from)", shown(from)),
                    ));
                };
                let Some((bottom, _)) = first_match(to, top + 1) else {
                    return Err(AnchorError::new(
                        AnchorErrorKind::NotFound,
                        format!(
                            "no row below row {} matches regex \"{}\" (to)",
                            Ordinal::of(top),
                            shown(to)
                        ),
                    ));
                };
                if bottom == top + 1 {
                    return Err(AnchorError::new(
                        AnchorErrorKind::NotFound,
                        format!(
                            "no rows between row {} (\"{}\") and row {} (\"{}\")",
                            Ordinal::of(top),
                            shown(from),
                            Ordinal::of(bottom),
                            shown(to)
                        ),
                    ));
                }
                vec![whole_rows(top + 1, bottom)]
            }
            Anchor::LastRow => match (0..nrows).rev().find(|&r| !screen.row_text(r).is_empty()) {
                Some(r) => vec![whole_rows(r, r + 1)],
                None => {
                    return Err(AnchorError::new(
                        AnchorErrorKind::NotFound,
                        "no non-blank row: the screen is blank",
                    ))
                }
            },
            Anchor::Ref(r) => {
                let found = select(&r.selector, screen, &RefContext::new(&r.adapters))
                    .map_err(|e| AnchorError::new(AnchorErrorKind::Adapter, e.to_string()))?;
                let shown = crate::escape::escape_for_terminal(r.selector.as_str(), 80);
                match found.as_slice() {
                    [_, ..] if r.every => found.iter().map(|f| f.rect).collect(),
                    [] => {
                        return Err(AnchorError::new(
                            AnchorErrorKind::NotFound,
                            format!("the ref \"{shown}\" finds nothing"),
                        ))
                    }
                    [one] => vec![one.rect],
                    several => {
                        let names: Vec<String> = several
                            .iter()
                            .take(6)
                            .map(|f| crate::escape::escape_for_terminal(&f.name, 40))
                            .collect();
                        return Err(AnchorError::new(
                            AnchorErrorKind::Ambiguous,
                            format!(
                                "the ref \"{shown}\" finds {} refs ({}): a region is one; pick \
                             it with an index ([0]), an argument or `>>`",
                                several.len(),
                                names.join(", ")
                            ),
                        ));
                    }
                }
            }
        };
        Ok(rects)
    }
}

/// Where a region's rule found its cells on one screen, and why there (a region ref's
/// `evidence`, [`Anchor::locate`]).
#[derive(Debug, Clone)]
pub(crate) struct Located {
    /// The cells, as [`Anchor::resolve`] gives them.
    pub(crate) rects: Vec<CellRect>,
    /// What the rule matched, and where (rows and columns from 1).
    pub(crate) evidence: String,
    /// The other places the rule matched as well, where it takes the first (`row 7`, `box
    /// "Log" 2`): the region is not one place on this screen.
    pub(crate) also: Vec<String>,
}

impl Anchor {
    /// [`Anchor::resolve_in`] with the evidence the cells rest on and the other places the
    /// rule matched too: a rule that takes the first of several matches (`row`, `match`,
    /// `between`'s `from`, a box title several boxes have) is not sure of its place there.
    pub(crate) fn locate(
        &self,
        screen: &Screen,
        outline: &std::cell::OnceCell<Outline>,
    ) -> Result<Located, AnchorError> {
        let rects = self.resolve_in(screen, outline)?;
        let nrows = screen.rows.len().min(screen.size.rows as usize);
        let rows_of = |regex: &Regex| -> Vec<usize> {
            (0..nrows)
                .filter(|&r| !screen.find_cells(r, regex).is_empty())
                .collect()
        };
        let row_names = |rows: &[usize]| -> Vec<String> {
            rows.iter()
                .map(|&r| format!("row {}", Ordinal::of(r)))
                .collect()
        };
        let first_row = rects.first().map_or(0, |r| r.row);
        let (evidence, also) = match self {
            Anchor::Cells(c) => match c.regex() {
                Some(_) => (
                    format!("{}: every match, {} in all", self.describe(), rects.len()),
                    Vec::new(),
                ),
                None => (format!("{}: fixed cells", self.describe()), Vec::new()),
            },
            Anchor::Row(regex) => {
                let rows = rows_of(regex);
                (
                    format!(
                        "{}: matched on row {}",
                        self.describe(),
                        Ordinal::of(first_row)
                    ),
                    row_names(&rows[1.min(rows.len())..]),
                )
            }
            Anchor::Match { regex, .. } => {
                let all: Vec<(usize, usize)> = (0..nrows)
                    .flat_map(|r| {
                        screen
                            .find_cells(r, regex)
                            .into_iter()
                            .map(move |m| (r, m.start))
                    })
                    .collect();
                let place = |&(r, c): &(usize, usize)| {
                    format!("row {} column {}", Ordinal::of(r), Ordinal::of(c))
                };
                (
                    format!(
                        "{}: matched at {}",
                        self.describe(),
                        all.first().map(place).unwrap_or_default()
                    ),
                    all.iter().skip(1).map(place).collect(),
                )
            }
            Anchor::Inside(name) => {
                let outline = outline.get_or_init(|| screen.outline());
                let by_name = outline.boxes.iter().filter(|b| b.name == *name).count();
                let titled: Vec<&crate::term::BoxPart> = if by_name > 0 {
                    Vec::new()
                } else {
                    let exact: Vec<_> = outline
                        .boxes
                        .iter()
                        .filter(|b| b.title.as_deref() == Some(name.as_str()))
                        .collect();
                    if exact.is_empty() {
                        outline
                            .boxes
                            .iter()
                            .filter(|b| {
                                b.title
                                    .as_deref()
                                    .is_some_and(|t| t.contains(name.as_str()))
                            })
                            .collect()
                    } else {
                        exact
                    }
                };
                let inner = rects.first().copied();
                (
                    format!(
                        "{}: the inside of the box at {}",
                        self.describe(),
                        inner.map(|r| r.describe()).unwrap_or_default()
                    ),
                    titled
                        .iter()
                        .skip(1)
                        .map(|b| crate::escape::escape_for_terminal(&b.name, 60))
                        .collect(),
                )
            }
            Anchor::Between { from, .. } => {
                let rows = rows_of(from);
                let last = rects.first().map_or(0, |r| r.row_end);
                (
                    format!(
                        "{}: the rows between row {} and row {}",
                        self.describe(),
                        Ordinal::of(first_row.saturating_sub(1)),
                        Ordinal::of(last)
                    ),
                    row_names(&rows[1.min(rows.len())..]),
                )
            }
            Anchor::LastRow => (
                format!("{}: row {}", self.describe(), Ordinal::of(first_row)),
                Vec::new(),
            ),
            Anchor::Ref(_) => (format!("{}: its one ref", self.describe()), Vec::new()),
        };
        Ok(Located {
            rects,
            evidence,
            also,
        })
    }
}

impl Screen {
    /// The text of the region `anchor` finds on this screen (each row's trailing blanks
    /// trimmed, rows joined by `\n`), or why it finds nothing.
    pub fn region(&self, anchor: &Anchor) -> Result<String, AnchorError> {
        anchor.resolve(self).map(|rects| rects_text(self, &rects))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::select::tests::rect;
    use crate::term::{test_screen, Size};

    fn re(r: &str) -> Regex {
        anchor_regex(r).unwrap()
    }

    fn screen() -> Screen {
        test_screen(
            Size { cols: 20, rows: 6 },
            "Name: Alice\r\n---\r\none\r\ntwo\r\n===\r\n-- INSERT --",
        )
    }

    #[test]
    fn a_row_anchor_takes_the_whole_row_of_the_first_match() {
        let s = screen();
        let a = Anchor::Row(re("INSERT"));
        assert_eq!(a.resolve(&s).unwrap(), vec![rect(5, 6, 0, 20)]);
        assert_eq!(rects_text(&s, &a.resolve(&s).unwrap()), "-- INSERT --");
        let e = Anchor::Row(re("VISUAL")).resolve(&s).unwrap_err();
        assert_eq!(e.message(), "no row matches regex \"VISUAL\"");
    }

    #[test]
    fn a_match_anchor_moves_the_match_and_sets_its_width() {
        let s = screen();
        let a = Anchor::Match {
            regex: re("Name: "),
            offset: (0, 6),
            width: Some(5),
        };
        let r = a.resolve(&s).unwrap();
        assert_eq!(r, vec![rect(0, 1, 6, 11)]);
        assert_eq!(rects_text(&s, &r), "Alice");
        let plain = Anchor::Match {
            regex: re("one"),
            offset: (1, 0),
            width: None,
        };
        assert_eq!(rects_text(&s, &plain.resolve(&s).unwrap()), "two");
        let off = Anchor::Match {
            regex: re("INSERT"),
            offset: (1, 0),
            width: None,
        };
        let e = off.resolve(&s).unwrap_err();
        assert!(e.message().contains("off the screen"), "{e}");
        assert!(e.message().contains("row 6, column 4"), "{e}");
    }

    #[test]
    fn a_between_anchor_takes_the_rows_strictly_between() {
        let s = screen();
        let a = Anchor::Between {
            from: re("^---"),
            to: re("^==="),
        };
        let r = a.resolve(&s).unwrap();
        assert_eq!(r, vec![rect(2, 4, 0, 20)]);
        assert_eq!(rects_text(&s, &r), "one\ntwo");
        let e = Anchor::Between {
            from: re("one"),
            to: re("two"),
        }
        .resolve(&s)
        .unwrap_err();
        assert!(e.message().starts_with("no rows between row 3"), "{e}");
        let e = Anchor::Between {
            from: re("two"),
            to: re("Name"),
        }
        .resolve(&s)
        .unwrap_err();
        assert_eq!(
            e.message(),
            "no row below row 4 matches regex \"Name\" (to)"
        );
    }

    #[test]
    fn the_last_row_anchor_skips_blank_rows() {
        let s = test_screen(Size { cols: 10, rows: 5 }, "a\r\nlast\r\n\r\n");
        let r = Anchor::LastRow.resolve(&s).unwrap();
        assert_eq!(r, vec![rect(1, 2, 0, 10)]);
        let blank = test_screen(Size { cols: 10, rows: 3 }, "");
        let e = Anchor::LastRow.resolve(&blank).unwrap_err();
        assert!(e.message().contains("blank"), "{e}");
    }

    #[test]
    fn an_inside_anchor_takes_the_inside_of_the_titled_box() {
        let s = test_screen(
            Size { cols: 20, rows: 5 },
            "┌─ Todos ──┐\r\n│ milk     │\r\n│ eggs     │\r\n└──────────┘",
        );
        let r = Anchor::Inside("Todos".into()).resolve(&s).unwrap();
        assert_eq!(r, vec![rect(1, 3, 1, 11)]);
        assert_eq!(rects_text(&s, &r), " milk\n eggs");
        // A part of the title is enough when no title equals it.
        assert!(Anchor::Inside("Tod".into()).resolve(&s).is_ok());
        let e = Anchor::Inside("Done".into()).resolve(&s).unwrap_err();
        assert_eq!(
            e.message(),
            "no box titled \"Done\" (boxes: box(\"Todos\"))"
        );
    }

    #[test]
    fn fixed_cells_that_select_nothing_say_so() {
        let s = screen();
        let a = Anchor::Cells(CellSelection::new(None, None, Some("zzz")).unwrap());
        assert_eq!(
            a.resolve(&s).unwrap_err().message(),
            "no text matches regex \"zzz\""
        );
        let a = Anchor::Cells(CellSelection::new(Some("2..=3"), Some("1..4"), None).unwrap());
        assert_eq!(a.describe(), "rows = \"2..=3\", cols = \"1..=3\"");
        assert_eq!(rects_text(&s, &a.resolve(&s).unwrap()), "---\none");
        assert!(anchor_regex("(")
            .unwrap_err()
            .message()
            .contains("not valid"));
    }

    #[test]
    fn find_region_and_style_for_assertions() {
        let s = test_screen(
            Size { cols: 20, rows: 3 },
            "top\r\n-- \x1b[1;32mINSERT\x1b[0m --\r\n日本 end",
        );
        assert_eq!(s.find("INSERT"), Some((1, 3)));
        assert_eq!(
            s.find("end"),
            Some((2, 5)),
            "after two wide characters: cell 5"
        );
        assert_eq!(s.find("nowhere"), None);
        let mode = Anchor::Row(anchor_regex("INSERT").unwrap());
        assert_eq!(s.region(&mode).unwrap(), "-- INSERT --");
        assert!(s
            .region(&Anchor::Row(anchor_regex("NORMAL").unwrap()))
            .is_err());
        let style = s.style_at(1, 3).unwrap();
        assert!(style.attrs.bold);
        assert_eq!(style.fg, crate::term::Color::Indexed(2));
        assert!(!s.style_at(1, 0).unwrap().attrs.bold);
        assert_eq!(s.style_at(9, 0), None);
    }
}
