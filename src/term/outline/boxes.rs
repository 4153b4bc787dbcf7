//! Boxes: found from their corners and edges, linked to the innermost box around them,
//! named (`box("Title")`, `box(N)`), and the owner of every cell (a box's edge or inside).

#![allow(clippy::needless_range_loop)]

use std::ops::Range;

use super::*;

pub(super) fn find_boxes(grid: &Grid, work: &Work) -> Vec<BoxPart> {
    let mut out = Vec::new();
    for r in 0..grid.rows {
        work.add(grid.cols);
        for c in 0..grid.cols {
            let ch = grid.at(r, c);
            if Unicode.top_left(ch) {
                if let Some(b) = box_at(grid, &Unicode, r, c, work) {
                    out.push(b);
                }
            } else if ch == '+' {
                if let Some(b) = box_at(grid, &Ascii, r, c, work) {
                    out.push(b);
                }
            }
        }
    }
    out
}

/// The box whose top-left corner is at (`r`, `c`), if the borders close.
pub(super) fn box_at(
    grid: &Grid,
    style: &dyn BoxStyle,
    r: usize,
    c: usize,
    work: &Work,
) -> Option<BoxPart> {
    let ascii = grid.at(r, c) == '+';
    // The top edge runs to the first top-right corner.
    let mut c2 = None;
    for x in c + 1..grid.cols {
        work.add(1);
        let ch = grid.at(r, x);
        if style.top_right(ch) && x > c + 1 {
            c2 = Some(x);
            break;
        }
        if style.breaks_edge(ch) {
            return None;
        }
    }
    let c2 = c2?;
    if !edge_is_a_line(grid, style, r, c + 1..c2, ascii) {
        return None;
    }
    // Down both sides together, to the first row that closes the box.
    let mut separators = Vec::new();
    for y in r + 1..grid.rows {
        work.add(1);
        let (left, right) = (grid.at(y, c), grid.at(y, c2));
        if style.bottom_left(left) && style.bottom_right(right) {
            work.add(c2 - c);
            if y == r + 1 || !edge_is_a_line(grid, style, y, c + 1..c2, ascii) {
                return None;
            }
            let title = edge_text(grid, r, c + 1..c2, ascii);
            let footer = edge_text(grid, y, c + 1..c2, ascii);
            return Some(BoxPart {
                name: String::new(),
                title,
                footer,
                rect: CellRect {
                    row: r,
                    row_end: y + 1,
                    col: c,
                    col_end: c2 + 1,
                },
                style: line_style(grid.at(r, c)),
                parent: None,
                separators,
            });
        }
        if !(style.vertical(left) && style.vertical(right)) {
            return None;
        }
        let tee = |ch: char, want_right: bool| {
            if ascii {
                ch == '+'
            } else {
                arms(ch).is_some_and(|a| if want_right { a.right } else { a.left })
            }
        };
        if tee(left, true) && tee(right, false) && {
            work.add(c2 - c);
            (c + 1..c2).all(|x| style.horizontal(grid.at(y, x)))
        } {
            separators.push(y);
        }
    }
    None
}

/// True when a horizontal edge is mostly line: at least two line cells (or the whole edge when
/// it is shorter), and for ASCII at least half the edge, so `+ text +` is not a box.
pub(super) fn edge_is_a_line(
    grid: &Grid,
    style: &dyn BoxStyle,
    r: usize,
    cols: Range<usize>,
    ascii: bool,
) -> bool {
    let len = cols.len();
    let mut lines = 0;
    for x in cols {
        let ch = grid.at(r, x);
        if style.horizontal(ch) {
            lines += 1;
        } else if style.breaks_edge(ch) {
            return false;
        }
    }
    if ascii {
        lines * 2 >= len && lines >= 2
    } else {
        lines >= len.min(2)
    }
}

/// The first run of text on an edge that holds a letter or digit, trimmed.
pub(super) fn edge_text(grid: &Grid, r: usize, cols: Range<usize>, ascii: bool) -> Option<String> {
    let text = grid.text(r, cols);
    let is_line = |ch: char| {
        if ascii {
            matches!(ch, '-' | '=' | '+')
        } else {
            is_line_char(ch)
        }
    };
    text.split(is_line)
        .map(str::trim)
        .find(|s| s.chars().any(char::is_alphanumeric))
        .map(str::to_string)
}

pub(super) fn line_style(corner: char) -> &'static str {
    match corner {
        '╭' => "rounded",
        '┏' => "heavy",
        '╔' => "double",
        '+' => "ascii",
        _ => "single",
    }
}

/// Each box's innermost enclosing box: the smallest box whose inside holds the box's top-left
/// corner, when it holds the whole box (always, for boxes that nest); for a box that overlaps
/// another without nesting, the smallest of the boxes around it, looked for within
/// [`MAX_OVERLAP_COMPARISONS`].
pub(super) fn link_parents(grid: &Grid, boxes: &mut [BoxPart], work: &Work) {
    let inside = |outer: &CellRect, inner: &CellRect| {
        outer.row < inner.row
            && inner.row_end < outer.row_end
            && outer.col < inner.col
            && inner.col_end < outer.col_end
    };
    // The smallest box whose inside holds each cell (of equal ones the first), each cell
    // painted once.
    const NONE: u32 = u32::MAX;
    let mut inner = vec![NONE; grid.rows * grid.cols];
    let mut painter = Painter::new(grid.rows, grid.cols);
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by_key(|&i| (area(&boxes[i].rect), i));
    for &i in &order {
        let r = boxes[i].rect;
        for row in r.row + 1..(r.row_end - 1).min(grid.rows) {
            work.add(1);
            painter.paint(row, r.col + 1..(r.col_end - 1).min(grid.cols), |c| {
                work.add(1);
                inner[row * grid.cols + c] = i as u32;
            });
        }
    }
    let mut comparisons = 0;
    for i in 0..boxes.len() {
        let rect = boxes[i].rect;
        let j = inner
            .get(rect.row * grid.cols + rect.col)
            .copied()
            .unwrap_or(NONE);
        boxes[i].parent = if j != NONE && inside(&boxes[j as usize].rect, &rect) {
            Some(j as usize)
        } else if j != NONE && comparisons + boxes.len() <= MAX_OVERLAP_COMPARISONS {
            // Boxes that overlap: the smallest of all around it.
            comparisons += boxes.len();
            work.add(boxes.len());
            (0..boxes.len())
                .filter(|&k| k != i && inside(&boxes[k].rect, &rect))
                .min_by_key(|&k| area(&boxes[k].rect))
        } else {
            None
        };
    }
}

/// Paints the cells of rectangles once each: per row, the next column not painted yet (a
/// union-find over the columns), so a rectangle costs its height and the cells it paints,
/// however many others cover it.
pub(super) struct Painter {
    pub(super) cols: usize,
    pub(super) next: Vec<u32>,
}

impl Painter {
    pub(super) fn new(rows: usize, cols: usize) -> Painter {
        let next = (0..rows)
            .flat_map(|_| 0..=cols as u32)
            .collect::<Vec<u32>>();
        Painter { cols, next }
    }

    /// The first column from `c` on in row `r` that is not painted (`cols` when none is).
    pub(super) fn find(&mut self, r: usize, c: usize) -> usize {
        let base = r * (self.cols + 1);
        let mut x = c;
        while self.next[base + x] as usize != x {
            let up = self.next[base + x] as usize;
            self.next[base + x] = self.next[base + up];
            x = up;
        }
        x
    }

    /// Calls `f` for each column of `cols` in row `r` not painted before, and paints it.
    pub(super) fn paint(&mut self, r: usize, cols: Range<usize>, mut f: impl FnMut(usize)) {
        if cols.is_empty() {
            return;
        }
        let base = r * (self.cols + 1);
        let mut c = self.find(r, cols.start);
        while c < cols.end {
            f(c);
            self.next[base + c] = c as u32 + 1;
            c = self.find(r, c + 1);
        }
    }
}

pub(super) fn area(r: &CellRect) -> usize {
    (r.row_end - r.row) * (r.col_end - r.col)
}

pub(super) fn name_boxes(boxes: &mut [BoxPart]) {
    let mut untitled = 0;
    let mut titles: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for b in boxes.iter_mut() {
        b.name = match b.title.clone() {
            Some(t) => {
                let quoted = serde_json::to_string(&t).unwrap_or_default();
                let n = titles.entry(t).or_default();
                *n += 1;
                if *n == 1 {
                    format!("box({quoted})")
                } else {
                    format!("box({quoted}, {n})")
                }
            }
            None => {
                untitled += 1;
                format!("box({untitled})")
            }
        };
    }
}

/// What a cell belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Owner {
    /// The screen outside every box.
    Screen,
    /// The inside of box `i`.
    Inside(usize),
    /// The border of a box.
    Border,
}

impl Owner {
    pub(super) fn container(self) -> Option<Option<usize>> {
        match self {
            Owner::Screen => Some(None),
            Owner::Inside(i) => Some(Some(i)),
            Owner::Border => None,
        }
    }
}

pub(super) fn owners(grid: &Grid, boxes: &[BoxPart], work: &Work) -> Vec<Vec<Owner>> {
    let mut owner = vec![vec![Owner::Screen; grid.cols]; grid.rows];
    // The smallest box over a cell owns it (of equal ones the last), so a box inside another
    // owns its cells: the smallest first, each cell painted once.
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by_key(|&i| (area(&boxes[i].rect), std::cmp::Reverse(i)));
    let mut painter = Painter::new(grid.rows, grid.cols);
    for i in order {
        let b = &boxes[i];
        for r in b.rect.row..b.rect.row_end.min(grid.rows) {
            work.add(1);
            let edge_row = r == b.rect.row
                || r + 1 == b.rect.row_end
                || b.separators.binary_search(&r).is_ok();
            let row = &mut owner[r];
            painter.paint(r, b.rect.col..b.rect.col_end.min(grid.cols), |c| {
                work.add(1);
                let edge = edge_row || c == b.rect.col || c + 1 == b.rect.col_end;
                row[c] = if edge {
                    Owner::Border
                } else {
                    Owner::Inside(i)
                };
            });
        }
    }
    owner
}

/// The slot of a container in per-container tables: 0 the screen, `i + 1` box `i`.
pub(super) fn slot(k: Option<usize>) -> usize {
    k.map_or(0, |i| i + 1)
}
