//! Tables on a screen, found from cell positions (display widths count: a wide character
//! takes two cells), never by splitting text:
//!
//! - **Line-drawn**: consecutive rows holding a vertical rule (`│`, `┃`, `║` or `|`) at the
//!   same cells, rule rows (`─┼├┤┬┴`, `-+`) between them skipped. The cells between two rules
//!   are a column; the first row is the header when a rule row follows it.
//! - **Aligned**: at least three consecutive non-blank rows whose blank cells line up: a run
//!   of cells blank in every row parts two columns. It takes at least two columns, every row
//!   with text in at least half of them, and the first row (the header) with text in every
//!   column; anything ragged (prose, a list) gives no table rather than a wrong one.
//!
//! A table's cells are their text, trimmed.

use crate::term::Screen;

/// A table found on a screen.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Table {
    /// `lines` or `aligned`.
    pub kind: &'static str,
    /// Its first row and first column (0-based).
    pub row: usize,
    /// Its first column (0-based).
    pub col: usize,
    /// Each column's cells, `[first, last]` (0-based, inclusive).
    pub columns: Vec<(usize, usize)>,
    /// The header row's cells, when it has one.
    pub header: Option<Vec<String>>,
    /// The data rows' cells, one per column.
    pub rows: Vec<Vec<String>>,
}

/// The fewest rows of an aligned table: a header and two rows.
const MIN_ALIGNED_ROWS: usize = 3;

/// The tables of `screen`, top to bottom.
pub fn tables(screen: &Screen) -> Vec<Table> {
    let grid = Grid::of(screen);
    let mut out = Vec::new();
    let mut r = 0;
    while r < grid.rows.len() {
        if let Some((t, next)) = lined(&grid, r).or_else(|| aligned(&grid, r)) {
            out.push(t);
            r = next;
        } else {
            r += 1;
        }
    }
    out
}

/// The screen as rows of cells: the text of each cell (a wide character's second cell is
/// empty and counts as taken).
struct Grid {
    rows: Vec<Vec<(String, bool)>>,
}

impl Grid {
    fn of(screen: &Screen) -> Grid {
        let rows = screen
            .rows
            .iter()
            .map(|row| {
                let mut cells: Vec<(String, bool)> = Vec::with_capacity(row.len());
                for cell in row {
                    if cell.width == 0 {
                        // The second half of a wide character: taken, no text of its own.
                        cells.push((String::new(), true));
                    } else {
                        let text: String = cell.text.chars().map(crate::term::safe_char).collect();
                        let taken = !text.trim().is_empty();
                        cells.push((text, taken));
                    }
                }
                cells
            })
            .collect();
        Grid { rows }
    }

    fn taken(&self, r: usize, c: usize) -> bool {
        self.rows[r].get(c).is_some_and(|x| x.1)
    }

    fn blank(&self, r: usize) -> bool {
        !self.rows[r].iter().any(|c| c.1)
    }

    fn text(&self, r: usize, cols: (usize, usize)) -> String {
        let row = &self.rows[r];
        let end = (cols.1 + 1).min(row.len());
        let s: String = row[cols.0.min(end)..end]
            .iter()
            .map(|c| c.0.as_str())
            .collect();
        s.trim().to_string()
    }

    fn char_at(&self, r: usize, c: usize) -> Option<char> {
        self.rows[r].get(c).and_then(|x| x.0.chars().next())
    }
}

fn is_vertical(c: char) -> bool {
    matches!(c, '│' | '┃' | '║' | '|')
}

fn is_rule_char(c: char) -> bool {
    matches!(
        c,
        '─' | '━'
            | '═'
            | '┼'
            | '╋'
            | '╬'
            | '├'
            | '┤'
            | '┬'
            | '┴'
            | '┌'
            | '┐'
            | '└'
            | '┘'
            | '╭'
            | '╮'
            | '╰'
            | '╯'
            | '-'
            | '+'
            | '='
            | '│'
            | '|'
            | ' '
    )
}

/// A rule row: only rule characters, at least one of them horizontal.
fn is_rule_row(g: &Grid, r: usize) -> bool {
    let mut horizontal = false;
    for c in 0..g.rows[r].len() {
        match g.char_at(r, c) {
            Some(ch) if !is_rule_char(ch) => return false,
            Some('─' | '━' | '═' | '-' | '=') => horizontal = true,
            _ => {}
        }
    }
    horizontal
}

/// The cells of row `r` holding a vertical rule.
fn verticals(g: &Grid, r: usize) -> Vec<usize> {
    (0..g.rows[r].len())
        .filter(|&c| g.char_at(r, c).is_some_and(is_vertical))
        .collect()
}

/// A line-drawn table starting at row `r`, and the row after it.
fn lined(g: &Grid, start: usize) -> Option<(Table, usize)> {
    let rules = verticals(g, start);
    if rules.len() < 2 || is_rule_row(g, start) {
        return None;
    }
    let mut text_rows = vec![start];
    let mut header_rule = false;
    let mut r = start + 1;
    while r < g.rows.len() {
        if is_rule_row(g, r) {
            if text_rows.len() == 1 {
                header_rule = true;
            }
            r += 1;
            continue;
        }
        if verticals(g, r) != rules {
            break;
        }
        text_rows.push(r);
        r += 1;
    }
    if text_rows.len() < 2 {
        return None;
    }
    let columns: Vec<(usize, usize)> = rules
        .windows(2)
        .filter(|w| w[1] > w[0] + 1)
        .map(|w| (w[0] + 1, w[1] - 1))
        .collect();
    if columns.is_empty() {
        return None;
    }
    let cells = |r: usize| columns.iter().map(|&c| g.text(r, c)).collect::<Vec<_>>();
    let (header, data) = if header_rule {
        (Some(cells(text_rows[0])), &text_rows[1..])
    } else {
        (None, &text_rows[..])
    };
    let rows = data.iter().map(|&r| cells(r)).collect();
    let table = Table {
        kind: "lines",
        row: start,
        col: rules[0],
        columns,
        header,
        rows,
    };
    Some((table, r))
}

/// An aligned table starting at row `r` (its header), and the row after it.
fn aligned(g: &Grid, start: usize) -> Option<(Table, usize)> {
    if g.blank(start) {
        return None;
    }
    let end = (start..g.rows.len())
        .find(|&r| g.blank(r))
        .unwrap_or(g.rows.len());
    if end - start < MIN_ALIGNED_ROWS {
        return None;
    }
    let width = (start..end).map(|r| g.rows[r].len()).max().unwrap_or(0);
    // Cells taken in some row of the block; columns are the runs of them.
    let used: Vec<bool> = (0..width)
        .map(|c| (start..end).any(|r| g.taken(r, c)))
        .collect();
    let mut columns = Vec::new();
    let mut c = 0;
    while c < width {
        if used[c] {
            let first = c;
            while c < width && used[c] {
                c += 1;
            }
            columns.push((first, c - 1));
        } else {
            c += 1;
        }
    }
    if columns.len() < 2 {
        return None;
    }
    let has = |r: usize, col: (usize, usize)| (col.0..=col.1).any(|c| g.taken(r, c));
    // The header names every column; every row fills at least half of them.
    if !columns.iter().all(|&col| has(start, col)) {
        return None;
    }
    if (start..end).any(|r| 2 * columns.iter().filter(|&&col| has(r, col)).count() < columns.len())
    {
        return None;
    }
    let cells = |r: usize| {
        columns
            .iter()
            .map(|&col| g.text(r, col))
            .collect::<Vec<_>>()
    };
    let (header, rows) = (Some(cells(start)), (start + 1..end).map(cells).collect());
    let table = Table {
        kind: "aligned",
        row: start,
        col: columns[0].0,
        header,
        rows,
        columns,
    };
    Some((table, end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Size;

    fn screen(lines: &[&str]) -> Screen {
        let cols = 60;
        crate::term::test_screen(
            Size {
                cols,
                rows: lines.len() as u16 + 1,
            },
            &lines.join("\r\n"),
        )
    }

    #[test]
    fn ps_style_aligned_columns() {
        let s = screen(&[
            "USER         PID %CPU %MEM COMMAND",
            "root           1  0.0  0.1 /sbin/init",
            "root          42  1.5  2.0 sshd",
            "www-data    1234 10.0  0.5 nginx",
        ]);
        let t = tables(&s);
        assert_eq!(t.len(), 1, "{t:?}");
        let t = &t[0];
        assert_eq!(t.kind, "aligned");
        assert_eq!(
            t.header.as_deref().unwrap(),
            ["USER", "PID", "%CPU", "%MEM", "COMMAND"]
        );
        assert_eq!(t.rows[2], ["www-data", "1234", "10.0", "0.5", "nginx"]);
    }

    #[test]
    fn df_style_keeps_a_header_with_a_space_in_one_column() {
        let s = screen(&[
            "Filesystem      Size  Used Avail Use% Mounted-on",
            "/dev/vda1        50G   20G   28G  42% /",
            "tmpfs           2.0G     0  2.0G   0% /dev/shm",
        ]);
        let t = &tables(&s)[0];
        assert_eq!(t.columns.len(), 6, "{t:?}");
        assert_eq!(t.rows[1][0], "tmpfs");
        assert_eq!(t.rows[1][5], "/dev/shm");
    }

    #[test]
    fn a_line_drawn_table_with_a_header_rule() {
        let s = screen(&[
            "│ name  │ size │",
            "├───────┼──────┤",
            "│ a.txt │  12K │",
            "│ b.rs  │   3K │",
        ]);
        let t = tables(&s);
        assert_eq!(t.len(), 1, "{t:?}");
        let t = &t[0];
        assert_eq!(t.kind, "lines");
        assert_eq!(t.header.as_deref().unwrap(), ["name", "size"]);
        assert_eq!(t.rows, [["a.txt", "12K"], ["b.rs", "3K"]]);
    }

    #[test]
    fn wide_characters_take_their_two_cells() {
        let s = screen(&[
            "名前      数    色",
            "りんご    12    赤",
            "バナナ     3    黄",
        ]);
        let t = &tables(&s)[0];
        assert_eq!(t.header.as_deref().unwrap(), ["名前", "数", "色"]);
        assert_eq!(t.rows[1], ["バナナ", "3", "黄"]);
    }

    #[test]
    fn ragged_text_is_no_table() {
        let s = screen(&[
            "This is a paragraph of text that wraps",
            "over a few lines, the way prose does, with",
            "words that never line up in columns at all.",
        ]);
        assert_eq!(tables(&s), []);
        let list = screen(&["- one item", "- another, longer item", "- third"]);
        assert_eq!(tables(&list), [], "a list is one column");
    }
}
