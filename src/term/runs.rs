//! Cells as people read them in messages: runs of columns per row (`1:7-12, 3:1`), and the
//! masks of a cast's TOML that would hide them (`{ rows = 1, cols = "7..=12" }`), counted from
//! 1 like every other position a person reads. Used wherever tuicast reports cells that
//! changed (a screen that never settled, recordings that differ).

/// One run of cells on a row, 0-based and inclusive: `row`, columns `first..=last`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub struct CellRun {
    /// The row.
    pub row: usize,
    /// The first column.
    pub first: usize,
    /// The last column (inclusive).
    pub last: usize,
}

/// The runs of `cells` (0-based `(row, column)`, in reading order): neighbours on a row join.
pub fn row_runs(cells: impl IntoIterator<Item = (usize, usize)>) -> Vec<CellRun> {
    let mut runs: Vec<CellRun> = Vec::new();
    for (row, col) in cells {
        match runs.last_mut() {
            Some(r) if r.row == row && r.last + 1 == col => r.last = col,
            _ => runs.push(CellRun {
                row,
                first: col,
                last: col,
            }),
        }
    }
    runs
}

/// `1:7-12, 3:1` (row:column, counted from 1), at most `max` runs and then `… and N more`.
pub fn describe_runs(runs: &[CellRun], max: usize) -> String {
    let mut parts: Vec<String> = runs
        .iter()
        .take(max)
        .map(|r| crate::pos::run_text(r.row, r.first, r.last))
        .collect();
    if runs.len() > max {
        parts.push(format!("… and {} more", runs.len() - max));
    }
    parts.join(", ")
}

/// Columns of a row closer than this many unchanged cells are masked as one run: the digits
/// of a clock, the bars of a chart, the words of a changing label.
pub(crate) const MASK_GAP: usize = 2;

/// Masks that hide `runs` and what varies like them, written as in a cast's TOML (counted from
/// 1): runs on a row closed over gaps of up to two cells (`MASK_GAP`), then rows whose column
/// spans overlap (or come within that gap), on neighbouring rows, joined into one rectangle (a chart
/// whose bars differ in height varies on different cells of the same columns). All of them,
/// never a cut list: past `max` rectangles, their bounding rectangle, which generalises best.
pub fn suggest_masks(runs: &[CellRun], max: usize) -> Vec<String> {
    // (first row, last row, first column, last column), closed over small gaps per row.
    let mut closed: Vec<(usize, usize, usize, usize)> = Vec::new();
    let mut sorted = runs.to_vec();
    sorted.sort();
    for r in sorted {
        match closed.last_mut() {
            Some((row, _, _, b)) if *row == r.row && r.first <= *b + MASK_GAP + 1 => {
                *b = (*b).max(r.last)
            }
            _ => closed.push((r.row, r.row, r.first, r.last)),
        }
    }
    // Join overlapping rectangles of nearby rows until nothing changes.
    let near = |x: &(usize, usize, usize, usize), y: &(usize, usize, usize, usize)| {
        x.0 <= y.1 + 1 && y.0 <= x.1 + 1 && x.2 <= y.3 + MASK_GAP + 1 && y.2 <= x.3 + MASK_GAP + 1
    };
    let mut rects: Vec<(usize, usize, usize, usize)> = Vec::new();
    for r in closed {
        let mut r = r;
        while let Some(i) = rects.iter().position(|o| near(o, &r)) {
            let o = rects.swap_remove(i);
            r = (o.0.min(r.0), o.1.max(r.1), o.2.min(r.2), o.3.max(r.3));
        }
        rects.push(r);
    }
    if rects.len() > max.max(1) {
        let all = rects.iter().fold(rects[0], |a, b| {
            (a.0.min(b.0), a.1.max(b.1), a.2.min(b.2), a.3.max(b.3))
        });
        rects = vec![all];
    }
    rects.sort();
    rects
        .into_iter()
        .map(|(r1, r2, a, b)| {
            let rows = if r1 == r2 {
                format!("{}", r1 + 1)
            } else {
                format!("\"{}..={}\"", r1 + 1, r2 + 1)
            };
            format!("{{ rows = {rows}, cols = \"{}..={}\" }}", a + 1, b + 1)
        })
        .collect()
}

/// [`suggest_masks`] that names a region where one holds cells of `runs`: each region (name,
/// its cells on the screen) holding any of them is `{ region = "NAME" }` — it follows the
/// layout at any size — and rectangles cover only the cells no region holds.
pub fn suggest_masks_in(
    runs: &[CellRun],
    regions: &[(String, Vec<super::CellRect>)],
    max: usize,
) -> Vec<String> {
    let holds = |r: &[super::CellRect], row: usize, col: usize| {
        r.iter()
            .any(|r| (r.row..r.row_end).contains(&row) && (r.col..r.col_end).contains(&col))
    };
    let mut cells: Vec<(usize, usize)> = runs
        .iter()
        .flat_map(|r| (r.first..=r.last).map(move |c| (r.row, c)))
        .collect();
    let mut out = Vec::new();
    for (name, rects) in regions {
        if cells.iter().any(|&(row, col)| holds(rects, row, col)) {
            cells.retain(|&(row, col)| !holds(rects, row, col));
            out.push(format!(
                "{{ region = \"{}\" }}",
                crate::escape::escape_for_terminal(name, 60)
            ));
        }
    }
    out.extend(suggest_masks(&row_runs(cells), max));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_read_from_1_and_masks_merge_rows_with_the_same_columns() {
        let runs = row_runs([
            (0, 5),
            (0, 6),
            (0, 7),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (4, 0),
        ]);
        assert_eq!(describe_runs(&runs, 10), "1:6-8, 3:3-4, 4:3-4, 5:1");
        assert_eq!(describe_runs(&runs, 2), "1:6-8, 3:3-4, … and 2 more");
        // Rows 3 to 5 vary in overlapping columns: one rectangle; row 1 stands apart.
        assert_eq!(
            suggest_masks(&runs, 10),
            [
                "{ rows = 1, cols = \"6..=8\" }",
                "{ rows = \"3..=5\", cols = \"1..=4\" }",
            ]
        );
        // Past the most, one rectangle that holds them all, never a cut list.
        assert_eq!(
            suggest_masks(&runs, 1),
            ["{ rows = \"1..=5\", cols = \"1..=8\" }"]
        );
        // Small gaps close; far cells stay apart.
        let clock = row_runs([(0, 0), (0, 1), (0, 3), (0, 4), (0, 20)]);
        assert_eq!(
            suggest_masks(&clock, 10),
            [
                "{ rows = 1, cols = \"1..=5\" }",
                "{ rows = 1, cols = \"21..=21\" }"
            ]
        );
    }
}
