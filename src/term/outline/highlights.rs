//! Highlighted rows, the one selected row of a list, and the bars on the first and last
//! rows.

#![allow(clippy::needless_range_loop)]

use super::*;

/// The style that tells a highlighted cell: its visible background.
pub(super) fn shade(cell: &crate::term::Cell) -> (bool, Color) {
    if cell.attrs.inverse {
        (true, cell.fg)
    } else {
        (false, cell.bg)
    }
}

/// The usual shade of each container (`None`: the bare screen).
pub(super) type UsualShades = std::collections::HashMap<Option<usize>, (bool, Color)>;

/// Per row and container: its cells on the row, and how many are not in its usual shade.
pub(super) type RowShades = std::collections::HashMap<(usize, Option<usize>), (usize, usize)>;

/// The highlighted rows, the usual shade of each container they were found against, and how
/// each row of each container is shaded.
pub(super) fn highlights(
    screen: &Screen,
    grid: &Grid,
    owner: &[Vec<Owner>],
    work: &Work,
) -> (Vec<Highlight>, UsualShades, RowShades) {
    use std::collections::HashMap;
    // The usual shade and boldness of each container: the most common among its cells.
    // Each shade's count and the first cell it was seen at: of shades as common as each
    // other, the first in reading order is the usual one (not the map's order of the run).
    type Seen = HashMap<(bool, Color), (usize, usize)>;
    let mut shades: HashMap<Option<usize>, Seen> = HashMap::new();
    let mut bold: HashMap<Option<usize>, (usize, usize)> = HashMap::new();
    for r in 0..grid.rows {
        work.add(grid.cols);
        for c in 0..grid.cols {
            if let Some(k) = owner[r][c].container() {
                let cell = &screen.rows[r][c];
                let seen = shades
                    .entry(k)
                    .or_default()
                    .entry(shade(cell))
                    .or_insert((0, r * grid.cols + c));
                seen.0 += 1;
                if !grid.blank(r, c) {
                    let e = bold.entry(k).or_default();
                    e.0 += usize::from(cell.attrs.bold);
                    e.1 += 1;
                }
            }
        }
    }
    let base: UsualShades = shades
        .into_iter()
        .map(|(k, m)| {
            (
                k,
                m.into_iter()
                    .max_by_key(|&(s, (n, first))| {
                        (n, s == (false, Color::Default), std::cmp::Reverse(first))
                    })
                    .map_or((false, Color::Default), |(s, _)| s),
            )
        })
        .collect();
    let mut out = Vec::new();
    let mut row_shades = RowShades::new();
    // The cells of each container on a row, containers in the order the row meets them.
    let mut group_of: Vec<Option<usize>> = vec![None; owner_slots(owner)];
    let mut groups: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
    for r in 0..grid.rows {
        work.add(grid.cols);
        for (k, _) in groups.drain(..) {
            group_of[slot(k)] = None;
        }
        for c in 0..grid.cols {
            let Some(k) = owner[r][c].container() else {
                continue;
            };
            match group_of[slot(k)] {
                Some(g) => groups[g].1.push(c),
                None => {
                    group_of[slot(k)] = Some(groups.len());
                    groups.push((k, vec![c]));
                }
            }
        }
        // One candidate per container on the row.
        for (k, cols) in &groups {
            let (k, cols) = (*k, cols);
            let usual = base[&k];
            let shaded = cols
                .iter()
                .filter(|&&x| shade(&screen.rows[r][x]) != usual)
                .count();
            row_shades.insert((r, k), (cols.len(), shaded));
            let visible: Vec<usize> = cols
                .iter()
                .copied()
                .filter(|&x| !grid.blank(r, x) && !is_line_char(grid.at(r, x)))
                .collect();
            if visible.len() < 2 {
                continue;
            }
            let marked: Vec<usize> = cols
                .iter()
                .copied()
                .filter(|&x| shade(&screen.rows[r][x]) != usual)
                .collect();
            let marked_visible = visible
                .iter()
                .filter(|&&x| shade(&screen.rows[r][x]) != usual)
                .count();
            let first_marked = marked.first().map(|&x| shade(&screen.rows[r][x]));
            // Cells back to the terminal's default colours are no highlight, even where the
            // container is coloured.
            let lit = first_marked.is_some_and(|s| s != (false, Color::Default));
            // One highlight has one colour: rows of colour swatches are not selections.
            let same = marked
                .iter()
                .filter(|&&x| Some(shade(&screen.rows[r][x])) == first_marked)
                .count();
            let lit = lit && same * 2 >= marked.len();
            let (kind, color, span) =
                if lit && marked.len() >= 3 && marked_visible * 2 >= visible.len() {
                    let cell = &screen.rows[r][marked[0]];
                    let kind = if cell.attrs.inverse && !usual.0 {
                        HighlightKind::Inverse
                    } else {
                        HighlightKind::Background
                    };
                    (kind, shade(cell).1, marked[0]..marked[marked.len() - 1] + 1)
                } else {
                    let (b, n) = bold[&k];
                    let all_bold = visible.iter().all(|&x| screen.rows[r][x].attrs.bold);
                    // Bold counts only where most of the container's text is not bold.
                    if !(all_bold && visible.len() >= 3 && b * 2 < n) {
                        continue;
                    }
                    let color = screen.rows[r][visible[0]].fg;
                    (
                        HighlightKind::Bold,
                        color,
                        visible[0]..visible[visible.len() - 1] + 1,
                    )
                };
            let text = grid.text(r, span.clone()).trim().to_string();
            out.push(Highlight {
                row: r,
                cols: span,
                kind,
                color,
                container: k,
                text,
            });
        }
    }
    (out, base, row_shades)
}

/// The number of container slots the owners name (the screen and every box inside).
pub(super) fn owner_slots(owner: &[Vec<Owner>]) -> usize {
    owner
        .iter()
        .flatten()
        .filter_map(|o| match o {
            Owner::Inside(i) => Some(i + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0)
        + 1
}

/// Whether `h` is a window's status line: across every column of the bare screen, right
/// above a last row that is not styled (vim's status line over its command line), or the
/// same bar (kind and colour, every column) higher up on a screen that has one there (the
/// status lines of vim's other windows).
pub(super) fn status_line(bottoms: &[&Highlight], h: &Highlight, grid: &Grid) -> bool {
    full_width(h, grid)
        && bottoms
            .iter()
            .any(|bottom| bottom.kind == h.kind && bottom.color == h.color && bottom.row >= h.row)
}

/// A highlight across every column of the bare screen.
pub(super) fn full_width(h: &Highlight, grid: &Grid) -> bool {
    h.container.is_none() && h.cols == (0..grid.cols)
}

/// The status lines at the bottom that [`status_line`] matches others with: full width, right
/// above a last row that is not styled.
pub(super) fn status_bottoms<'h>(
    highlights: &'h [Highlight],
    grid: &Grid,
    screen: &Screen,
) -> Vec<&'h Highlight> {
    let last = grid.rows.saturating_sub(1);
    let plain_last = screen
        .rows
        .get(last)
        .is_some_and(|row| row.iter().all(|c| shade(c) == (false, Color::Default)));
    highlights
        .iter()
        .filter(|x| plain_last && full_width(x, grid) && x.row + 1 == last)
        .collect()
}

/// Whether `h` is a column header: three or more labels set apart as columns are (by two
/// spaces or more) and no digit, right above a row of its block that holds digits (the rows
/// of a table below the labels of its columns).
pub(super) fn column_header(
    blocks: &[TextBlock],
    block_at: &BlocksByRow,
    h: &Highlight,
    grid: &Grid,
) -> bool {
    let labels = h.text.split("  ").filter(|l| !l.trim().is_empty()).count();
    if labels < 3 || h.text.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    let below = h.row + 1;
    block_at.get(&(h.container, h.row)).is_some_and(|&i| {
        let b = &blocks[i];
        below < b.rect.row_end
            && below < grid.rows
            && b.lines[below - b.rect.row]
                .chars()
                .any(|c| c.is_ascii_digit())
    })
}

/// The one highlighted row that stands out in a list: in a block of at least two rows whose
/// other rows are not highlighted alike. When several do, the innermost container wins; a tie
/// names none.
pub(super) fn selected(
    highlights: &[Highlight],
    blocks: &[TextBlock],
    block_at: &BlocksByRow,
    grid: &Grid,
    excluded: impl Fn(&Highlight) -> bool,
    plain_shade: impl Fn(usize, Option<usize>) -> bool,
) -> Option<usize> {
    let lit_rows: std::collections::HashSet<(usize, Option<usize>, HighlightKind)> = highlights
        .iter()
        .map(|o| (o.row, o.container, o.kind))
        .collect();
    let candidates: Vec<usize> = (0..highlights.len())
        .filter(|&i| {
            let h = &highlights[i];
            if excluded(h) {
                return false;
            }
            let Some(block) = block_at.get(&(h.container, h.row)).map(|&b| &blocks[b]) else {
                return false;
            };
            // A list: a neighbour row that is not highlighted alike and starts between the
            // highlight's start and its text's start (give or take three cells).
            let start = |r: usize| {
                let line = &block.lines[r - block.rect.row];
                (!line.trim().is_empty())
                    .then(|| block.rect.col + line.chars().take_while(|c| *c == ' ').count())
            };
            let lo = h.cols.start.saturating_sub(3);
            let hi = h.cols.start.max(start(h.row).unwrap_or(h.cols.start)) + 3;
            let mut plain = 0;
            for r in [h.row.wrapping_sub(1), h.row + 1] {
                if !(block.rect.row..block.rect.row_end).contains(&r) {
                    continue;
                }
                let lit = lit_rows.contains(&(r, h.container, h.kind));
                if !lit
                    && plain_shade(r, h.container)
                    && start(r).is_some_and(|s| (lo..=hi).contains(&s))
                {
                    plain += 1;
                }
            }
            plain >= 1 && h.row + 1 < grid.rows && h.row > 0
        })
        .collect();
    let pick = |set: Vec<usize>| match set.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    if candidates.len() == 1 {
        return Some(candidates[0]);
    }
    // Several: a background or reverse highlight beats bold; then one inside a box beats
    // ones on the bare screen (headers of a whole-screen table); else none.
    let strong: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| highlights[i].kind != HighlightKind::Bold)
        .collect();
    if strong.len() == 1 {
        return Some(strong[0]);
    }
    let pool = if strong.is_empty() {
        candidates
    } else {
        strong
    };
    pick(
        pool.into_iter()
            .filter(|&i| highlights[i].container.is_some())
            .collect(),
    )
}

pub(super) fn bar(screen: &Screen, grid: &Grid, owner: &[Vec<Owner>], r: usize) -> Option<Bar> {
    if (0..grid.cols).any(|c| owner[r][c] != Owner::Screen) {
        return None;
    }
    let text = screen.row_text(r).trim().to_string();
    if text.is_empty() {
        return None;
    }
    let shaded = screen.rows[r]
        .iter()
        .filter(|cell| shade(cell) != (false, Color::Default))
        .count();
    Some(Bar {
        row: r,
        text,
        styled: shaded * 2 >= grid.cols,
    })
}
