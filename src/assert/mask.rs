//! Masks: cells whose content changes from run to run (clocks, PIDs, spinners) are replaced by
//! a placeholder before comparing and in the golden.
//!
//! In a scenario's `[check]` table:
//!
//! ```toml
//! [check]
//! mask = [
//!   { rows = "0", cols = "60..80" },          # a rectangle: 0-based, end exclusive
//!   { regex = "\\d\\d:\\d\\d:\\d\\d" },       # every match, in every row
//!   { rows = "2..", regex = "pid \\d+" },     # matches in some rows only
//! ]
//! ```

use std::ops::Range;

use regex::Regex;

use crate::term::{Cell, Screen};

/// The character drawn in masked cells.
pub const PLACEHOLDER: &str = "▒";

/// One mask: a rectangle of cells, or the matches of a regex (within a rectangle).
#[derive(Debug, Clone)]
pub struct Mask {
    rows: Option<Range<usize>>,
    cols: Option<Range<usize>>,
    regex: Option<Regex>,
}

/// How a mask is written in TOML.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaskSpec {
    /// Rows, 0-based: `"3"`, `"2..5"`, `"2.."`, `"..5"`, `"2..=4"`, or a number.
    #[serde(default)]
    pub rows: Option<RangeSpec>,
    /// Columns, same syntax as rows.
    #[serde(default)]
    pub cols: Option<RangeSpec>,
    /// A regular expression matched against each row's text.
    #[serde(default)]
    pub regex: Option<String>,
}

/// A range written as a number or a string.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(untagged)]
pub enum RangeSpec {
    /// One index.
    Index(usize),
    /// `"a"`, `"a..b"`, `"a.."`, `"..b"`, `"a..=b"`.
    Text(String),
}

impl Mask {
    /// Builds a mask, checking the ranges and compiling the regex.
    pub fn new(spec: &MaskSpec) -> Result<Mask, String> {
        if spec.rows.is_none() && spec.cols.is_none() && spec.regex.is_none() {
            return Err("a mask needs rows, cols or regex".into());
        }
        let regex = match &spec.regex {
            Some(r) => {
                Some(Regex::new(r).map_err(|e| format!("mask regex {r:?} is not valid: {e}"))?)
            }
            None => None,
        };
        Ok(Mask {
            rows: spec.rows.as_ref().map(parse_range).transpose()?,
            cols: spec.cols.as_ref().map(parse_range).transpose()?,
            regex,
        })
    }

    /// Replaces the covered cells of `screen` with [`PLACEHOLDER`] in the default style.
    pub fn apply(&self, screen: &mut Screen) {
        let rows = self.rows.clone().unwrap_or(0..usize::MAX);
        let cols = self.cols.clone().unwrap_or(0..usize::MAX);
        let nrows = screen.rows.len();
        for r in rows.start.min(nrows)..rows.end.min(nrows) {
            let mut covered = vec![false; screen.rows[r].len()];
            match &self.regex {
                None => {
                    for (c, flag) in covered.iter_mut().enumerate() {
                        *flag = cols.contains(&c);
                    }
                }
                Some(re) => {
                    for found in screen.find_cells(r, re) {
                        for c in found.filter(|c| cols.contains(c)) {
                            if let Some(flag) = covered.get_mut(c) {
                                *flag = true;
                            }
                        }
                    }
                }
            }
            mask_cells(&mut screen.rows[r], &covered);
        }
    }
}

/// Applies every mask to a copy of `screen`.
pub fn apply_all(masks: &[Mask], screen: &Screen) -> Screen {
    let mut s = screen.clone();
    for m in masks {
        m.apply(&mut s);
    }
    s
}

fn mask_cells(row: &mut [Cell], covered: &[bool]) {
    for c in 0..row.len() {
        if !covered[c] {
            continue;
        }
        // A wide character half covered is masked whole.
        let start = if row[c].width == 0 && c > 0 { c - 1 } else { c };
        let end = if row[start].width == 2 {
            (start + 2).min(row.len())
        } else {
            start + 1
        };
        for cell in &mut row[start..end] {
            *cell = Cell {
                text: PLACEHOLDER.into(),
                width: 1,
                ..Cell::default()
            };
        }
    }
}

fn parse_range(spec: &RangeSpec) -> Result<Range<usize>, String> {
    match spec {
        RangeSpec::Index(i) => crate::term::parse_cell_range(&i.to_string()),
        RangeSpec::Text(t) => crate::term::parse_cell_range(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Size;

    fn screen(input: &str) -> Screen {
        crate::term::test_screen(Size { cols: 20, rows: 3 }, input)
    }

    fn mask(rows: Option<&str>, cols: Option<&str>, regex: Option<&str>) -> Mask {
        Mask::new(&MaskSpec {
            rows: rows.map(|s| RangeSpec::Text(s.into())),
            cols: cols.map(|s| RangeSpec::Text(s.into())),
            regex: regex.map(String::from),
        })
        .unwrap()
    }

    #[test]
    fn rectangles_and_regexes_mask_cells() {
        let s = screen("time 12:34:56 ok\r\npid 4242 \x1b[31mred\x1b[0m");
        let m = apply_all(&[mask(None, None, Some(r"\d\d:\d\d:\d\d"))], &s);
        assert_eq!(m.row_text(0), "time ▒▒▒▒▒▒▒▒ ok");
        let m = apply_all(&[mask(Some("1"), Some("4..8"), None)], &s);
        assert_eq!(m.row_text(1), "pid ▒▒▒▒ red");
        let m = apply_all(&[mask(Some("1"), Some("9.."), None)], &s);
        assert_eq!(m.row_text(1), "pid 4242 ▒▒▒▒▒▒▒▒▒▒▒");
        assert_eq!(m.rows[1][9].fg, crate::term::Color::Default);
        let m = apply_all(&[mask(Some("0"), None, Some(r"\d+"))], &s);
        assert_eq!(
            m.row_text(1),
            "pid 4242 red",
            "row 1 is outside the mask's rows"
        );
    }

    #[test]
    fn wide_characters_are_masked_whole() {
        let s = screen("a日本b");
        let m = apply_all(&[mask(None, Some("2"), None)], &s);
        assert_eq!(m.row_text(0), "a▒▒本b");
        let m = apply_all(&[mask(None, None, Some("本"))], &s);
        assert_eq!(m.row_text(0), "a日▒▒b");
    }

    #[test]
    fn bad_specs_are_errors() {
        for r in ["x", "5..2", "1..b"] {
            assert!(Mask::new(&MaskSpec {
                rows: Some(RangeSpec::Text(r.into())),
                cols: None,
                regex: None
            })
            .is_err());
        }
        assert!(Mask::new(&MaskSpec {
            rows: None,
            cols: None,
            regex: Some("(".into())
        })
        .is_err());
        assert!(Mask::new(&MaskSpec {
            rows: None,
            cols: None,
            regex: None
        })
        .is_err());
    }
}
