//! Screens as the report draws them: a snapshot's text read back into cells ([`Grid`]), the
//! cells that differ between two of them, and the CSS of a cell's style (the asciinema theme
//! of `theme.rs`, the default of PNG renders).

use unicode_width::UnicodeWidthChar;

use crate::assert::{parse_styles, rows_start, Style, HEADER_LINES, STYLES_MARK};
use crate::rgb::Rgb;
use crate::term::Color;
use crate::theme;

/// One cell: its text (empty for a wide character's tail), width and style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct GridCell {
    pub(super) text: String,
    pub(super) width: u8,
    pub(super) style: Style,
}

impl Default for GridCell {
    fn default() -> Self {
        GridCell {
            text: " ".into(),
            width: 1,
            style: Style::default(),
        }
    }
}

/// A screen read from a snapshot's text or taken from a [`Screen`].
#[derive(Debug, Clone, Default)]
pub(super) struct Grid {
    pub(super) cols: usize,
    pub(super) rows: Vec<Vec<GridCell>>,
    /// 0-based row and column, when the cursor is shown.
    pub(super) cursor: Option<(usize, usize)>,
}

/// Largest grid drawn from a snapshot (a hand-edited golden may say anything).
const MAX_SIDE: usize = 1000;

impl Grid {
    /// Reads a `txt` or `styled.txt` snapshot: the header's size and cursor, the rows, and
    /// the styles when there are any.
    pub(super) fn from_snapshot(text: &str) -> Grid {
        let lines: Vec<&str> = text.lines().collect();
        let field = |name: &str| {
            lines
                .iter()
                .take(HEADER_LINES)
                .find_map(|l| l.strip_prefix(name).map(str::trim))
        };
        let (mut cols, mut nrows) = field("size:")
            .and_then(|s| s.parse::<crate::size::Size>().ok())
            .map_or((0, 0), |s| (s.cols as usize, s.rows as usize));
        let body: Vec<&str> = lines
            .iter()
            .skip(rows_start(text))
            .take_while(|l| **l != STYLES_MARK)
            .copied()
            .collect();
        if nrows == 0 {
            nrows = body.len();
        }
        nrows = nrows.min(MAX_SIDE);
        let styles = parse_styles(text);
        let mut rows = Vec::with_capacity(nrows);
        for r in 0..nrows {
            let mut row: Vec<GridCell> = Vec::new();
            for ch in body.get(r).copied().unwrap_or("").chars() {
                let w = ch.width().unwrap_or(0);
                if w == 0 {
                    if let Some(last) = row.iter_mut().rev().find(|c| c.width > 0) {
                        last.text.push(ch);
                        continue;
                    }
                }
                let w = w.clamp(1, 2) as u8;
                row.push(GridCell {
                    text: ch.to_string(),
                    width: w,
                    style: Style::default(),
                });
                if w == 2 {
                    row.push(GridCell {
                        text: String::new(),
                        width: 0,
                        style: Style::default(),
                    });
                }
                if row.len() >= MAX_SIDE {
                    break;
                }
            }
            cols = cols.max(row.len()).min(MAX_SIDE);
            rows.push(row);
        }
        for row in &mut rows {
            row.resize(cols, GridCell::default());
        }
        for ((r, c), style) in styles {
            if let Some(cell) = rows.get_mut(r).and_then(|row| row.get_mut(c)) {
                cell.style = style;
            }
        }
        let cursor = field("cursor:").and_then(|c| {
            if c.contains("hidden") {
                return None;
            }
            let place = c.split_whitespace().next()?;
            let (r, c) = place.split_once(':')?;
            Some((
                r.parse::<usize>().ok()?.checked_sub(1)?,
                c.parse::<usize>().ok()?.checked_sub(1)?,
            ))
        });
        Grid { cols, rows, cursor }
    }

    /// The cells of `self` that differ from `other` (text, and style when `styles`), as
    /// `changed[row][col]`; every cell outside `other` differs.
    pub(super) fn changed(&self, other: &Grid, styles: bool) -> Vec<Vec<bool>> {
        self.rows
            .iter()
            .enumerate()
            .map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .map(|(c, cell)| match other.rows.get(r).and_then(|o| o.get(c)) {
                        None => true,
                        Some(o) => o.text != cell.text || (styles && o.style != cell.style),
                    })
                    .collect()
            })
            .collect()
    }
}

/// The colour of `color` in the report's theme, asciinema's ([`theme::default_theme`], the
/// default of PNG renders and the colours a recording answers queries with).
fn rgb(color: Color, default: Rgb, bold: bool) -> Rgb {
    let theme = theme::default_theme();
    match color {
        Color::Default => default,
        // Bold brightens the first eight colours, as asciinema's player does.
        Color::Indexed(i) if i < 8 && bold => theme.indexed(i + 8),
        Color::Indexed(i) => theme.indexed(i),
        Color::Rgb(c) => c,
        #[allow(unreachable_patterns)]
        _ => default,
    }
}

/// The CSS declarations of a style (empty for the default style): colours resolved through
/// the theme, inverse swapped, attributes as font and decoration. Made from typed values
/// only, never from text of a cast.
pub(super) fn css(style: &Style) -> String {
    if *style == Style::default() {
        return String::new();
    }
    let a = style.attrs;
    let theme = theme::default_theme();
    let mut fg = rgb(style.fg, theme.fg, a.bold);
    let mut bg = rgb(style.bg, theme.bg, false);
    if a.inverse {
        std::mem::swap(&mut fg, &mut bg);
    }
    let mut out = String::new();
    if fg != theme.fg || a.inverse {
        out.push_str(&format!("color:{fg};"));
    }
    if bg != theme.bg || a.inverse {
        out.push_str(&format!("background:{bg};"));
    }
    if a.bold {
        out.push_str("font-weight:bold;");
    }
    if a.italic {
        out.push_str("font-style:italic;");
    }
    if a.dim {
        out.push_str("opacity:.6;");
    }
    match (a.underline, a.strikethrough) {
        (true, true) => out.push_str("text-decoration:underline line-through;"),
        (true, false) => out.push_str("text-decoration:underline;"),
        (false, true) => out.push_str("text-decoration:line-through;"),
        _ => {}
    }
    if a.hidden {
        out.push_str("color:transparent;");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_styled_snapshot_reads_back_with_wide_cells_styles_and_cursor() {
        let text = "---\ncast: a\ncheckpoint: b\nsize: 6x2\ncursor: 2:3\n---\n日x\nab\n--- styles\n1:3 fg=1 bold\n";
        let g = Grid::from_snapshot(text);
        assert_eq!((g.cols, g.rows.len(), g.cursor), (6, 2, Some((1, 2))));
        assert_eq!((g.rows[0][0].width, g.rows[0][1].width), (2, 0));
        assert_eq!(g.rows[0][2].text, "x");
        assert!(g.rows[0][2].style.attrs.bold);
        assert_eq!(css(&g.rows[0][2].style), "color:#dd3c69;font-weight:bold;");
        let other = Grid::from_snapshot(&text.replace("ab", "aB"));
        let changed = g.changed(&other, true);
        assert_eq!(changed[1], [false, true, false, false, false, false]);
        assert!(!changed[0].iter().any(|c| *c));
    }

    #[test]
    fn colours_are_the_asciinema_themes_with_the_cube_greys_and_bright_bold() {
        let style = |desc: &str| {
            let text =
                format!("---\ncast: a\ncheckpoint: b\nsize: 1x1\n---\na\n--- styles\n1:1 {desc}\n");
            css(&Grid::from_snapshot(&text).rows[0][0].style)
        };
        assert_eq!(style("fg=4"), "color:#26b0d7;");
        assert_eq!(
            style("fg=4 bold"),
            "color:#26b0d7;font-weight:bold;",
            "4+8 is the same blue"
        );
        assert_eq!(style("fg=0 bold"), "color:#4d4d4d;font-weight:bold;");
        assert_eq!(style("fg=7 bold"), "color:#ffffff;font-weight:bold;");
        assert_eq!(style("fg=12 bold"), "color:#26b0d7;font-weight:bold;");
        assert_eq!(style("bg=196"), "background:#ff0000;");
        assert_eq!(style("fg=67"), "color:#5f87af;");
        assert_eq!(style("fg=244"), "color:#808080;");
        assert_eq!(style("fg=#0a0b0c"), "color:#0a0b0c;");
        assert_eq!(style("inverse"), "color:#121314;background:#cccccc;");
        assert_eq!(
            style("fg=#cccccc"),
            "",
            "the default foreground needs no declaration"
        );
    }

    #[test]
    fn bold_with_dim_draws_both() {
        let text = "---\ncast: a\ncheckpoint: b\nsize: 2x1\n---\nab\n--- styles\n1:1 bold dim\n";
        let g = Grid::from_snapshot(text);
        let a = g.rows[0][0].style.attrs;
        assert!(a.bold && a.dim, "{a:?}");
        assert_eq!(css(&g.rows[0][0].style), "font-weight:bold;opacity:.6;");
    }
}
