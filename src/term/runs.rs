//! Cells as people read them in messages: runs of columns per row (`1:7-12, 3:1`), and the
//! masks of a cast's TOML that would hide them (`{ rows = 1, cols = "7..=12" }`), counted from
//! 1 like every other position a person reads. Used wherever tuicast reports cells that
//! changed (a screen that never settled, recordings that differ).

/// One run of cells on a row, 0-based and inclusive: `row`, columns `first..=last`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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
        .map(|r| {
            if r.first == r.last {
                format!("{}:{}", r.row + 1, r.first + 1)
            } else {
                format!("{}:{}-{}", r.row + 1, r.first + 1, r.last + 1)
            }
        })
        .collect();
    if runs.len() > max {
        parts.push(format!("… and {} more", runs.len() - max));
    }
    parts.join(", ")
}

/// Masks that hide `runs`, written as in a cast's TOML (counted from 1): one rectangle per
/// run of columns, consecutive rows with the same columns merged; at most `max`, then
/// `… N more`.
pub fn suggest_masks(runs: &[CellRun], max: usize) -> Vec<String> {
    // (first row, last row, first column, last column)
    let mut rects: Vec<(usize, usize, usize, usize)> = Vec::new();
    let mut sorted = runs.to_vec();
    sorted.sort_by_key(|r| (r.first, r.last, r.row));
    for r in sorted {
        match rects.last_mut() {
            Some((_, last, a, b)) if *a == r.first && *b == r.last && *last + 1 == r.row => {
                *last = r.row
            }
            _ => rects.push((r.row, r.row, r.first, r.last)),
        }
    }
    rects.sort();
    let total = rects.len();
    let mut out: Vec<String> = rects
        .into_iter()
        .take(max)
        .map(|(r1, r2, a, b)| {
            let rows = if r1 == r2 {
                format!("{}", r1 + 1)
            } else {
                format!("\"{}..={}\"", r1 + 1, r2 + 1)
            };
            format!("{{ rows = {rows}, cols = \"{}..={}\" }}", a + 1, b + 1)
        })
        .collect();
    if total > max {
        out.push(format!("… {} more", total - max));
    }
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
        assert_eq!(
            suggest_masks(&runs, 10),
            [
                "{ rows = 1, cols = \"6..=8\" }",
                "{ rows = \"3..=4\", cols = \"3..=4\" }",
                "{ rows = 5, cols = \"1..=1\" }"
            ]
        );
        assert_eq!(suggest_masks(&runs, 1).last().unwrap(), "… 2 more");
    }
}
