//! Blocks of text: consecutive non-blank rows of one container.

#![allow(clippy::needless_range_loop)]

use super::*;

pub(super) fn text_blocks(
    grid: &Grid,
    boxes: &[BoxPart],
    owner: &[Vec<Owner>],
    work: &Work,
) -> Vec<TextBlock> {
    let slots = boxes.len() + 1;
    // Each container's block still growing, and its first and last text column on this row.
    let mut open: Vec<Option<TextBlock>> = vec![None; slots];
    let mut open_slots: Vec<usize> = Vec::new();
    let mut span: Vec<Option<(usize, usize)>> = vec![None; slots];
    let mut touched: Vec<usize> = Vec::new();
    let mut blocks = Vec::new();
    for r in 0..grid.rows {
        work.add(grid.cols);
        for c in 0..grid.cols {
            let Some(k) = owner[r][c].container() else {
                continue;
            };
            if grid.blank(r, c) || is_line_char(grid.at(r, c)) {
                continue;
            }
            let s = slot(k);
            match &mut span[s] {
                Some((_, last)) => *last = c,
                none => {
                    *none = Some((c, c));
                    touched.push(s);
                }
            }
        }
        // A block ends at a row without text of its container.
        open_slots.retain(|&s| {
            let goes_on = span[s].is_some();
            if !goes_on {
                blocks.extend(open[s].take());
            }
            goes_on
        });
        for &s in &touched {
            let Some((first, last)) = span[s].take() else {
                continue;
            };
            let b = open[s].get_or_insert_with(|| {
                open_slots.push(s);
                TextBlock {
                    container: s.checked_sub(1),
                    rect: CellRect {
                        row: r,
                        row_end: r,
                        col: first,
                        col_end: last + 1,
                    },
                    lines: Vec::new(),
                }
            });
            b.rect.row_end = r + 1;
            b.rect.col = b.rect.col.min(first);
            b.rect.col_end = b.rect.col_end.max(last + 1);
        }
        touched.clear();
    }
    for s in open_slots {
        blocks.extend(open[s].take());
    }
    for b in &mut blocks {
        work.add((b.rect.row_end - b.rect.row) * (b.rect.col_end - b.rect.col));
        b.lines = (b.rect.row..b.rect.row_end)
            .map(|r| {
                let text: String = (b.rect.col..b.rect.col_end)
                    .map(|c| {
                        if owner[r][c].container() == Some(b.container) {
                            grid.at(r, c)
                        } else {
                            ' '
                        }
                    })
                    .filter(|&ch| ch != '\0')
                    .collect();
                text.trim_end().to_string()
            })
            .collect();
    }
    // Of blocks that start at one cell, the screen's first, then by box.
    blocks.sort_by_key(|b| (b.rect.row, b.rect.col, b.container));
    blocks
}

/// The block of each container at each row (a container's blocks share no row).
pub(super) type BlocksByRow = std::collections::HashMap<(Option<usize>, usize), usize>;

pub(super) fn blocks_by_row(blocks: &[TextBlock]) -> BlocksByRow {
    let mut at = BlocksByRow::new();
    for (i, b) in blocks.iter().enumerate() {
        for r in b.rect.row..b.rect.row_end {
            at.entry((b.container, r)).or_insert(i);
        }
    }
    at
}
