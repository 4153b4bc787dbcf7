//! Tables on a screen, found from cell positions (display widths count: a wide character
//! takes two cells), never by splitting text, and reported only on evidence (issue 42): a
//! table that is not plainly one is no table, never a guess. Each carries its `evidence`.
//!
//! - **Line-drawn**: a header row, a rule row under it (`─┼─`, `|---|`, `+---+`, `|:--|`), and
//!   data rows, all with vertical rules (`│`, `┃`, `║` or `|`) at the same cells, making at
//!   least two columns; rule rows between data rows (a box's border) are skipped. Without the
//!   rule under the first row (a dialog, a panel of boxes) there is no table.
//! - **Aligned**: a header found, not assumed: a row of at least two words, each with a
//!   letter, none a key name (`^G`) or ending a sentence (`.`, `,`, `;`, `:`, `!`, `?`),
//!   each cell starting with a capital (`USER`, `%CPU`, `Mounted on`) unless a rule row
//!   (`--  ----`) is under it. Under it at least two data rows that agree with its columns: a
//!   run of cells blank in every row between two header words parts them (one run: cells
//!   between two runs would be a guess); where the header has a single space and the data
//!   crosses it, as in `VOLUME NAME`, the words are one cell (in the last column, or from the
//!   first row on). Every row fills at least half the columns and two of them. The last
//!   column may hold spaces (`ps`'s `COMMAND`, `df`'s `Mounted on`). The table ends at a blank
//!   row or the first row that does not agree. A row running to the screen's edge was wrapped
//!   by the terminal: where the next row is one word from its first cell (not the cursor's
//!   row, not a prompt ending in `$`, `#`, `%` or `>`), that word is the rest of its last cell,
//!   and the `evidence` says so; a last row running to the edge with any other row after it
//!   that does not agree is refused with the table. (A row exactly as wide as the screen with
//!   a one-word line under it reads the same: the screen keeps no wrap flag.) A column whose
//!   rows all hold two blocks parted by a blank run is two columns under one header word
//!   (`CPU%▽MEM%`): refused too.
//! - No table on an editor's screen (a row that is `~` alone: vim's and less's end of
//!   buffer).
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
    /// What it was found from: the header row and why it is one, how many rows agree with
    /// its columns.
    pub evidence: String,
}

/// The fewest rows of an aligned table: a header and two rows.
const MIN_ALIGNED_ROWS: usize = 3;

/// The tables of `screen`, top to bottom.
pub fn tables(screen: &Screen) -> Vec<Table> {
    let grid = Grid::of(screen);
    let mut out = Vec::new();
    // An editor's (or a pager's) buffer: text being edited or read, no table.
    if (0..grid.rows.len()).any(|r| grid.row_text(r).trim_end() == "~") {
        return out;
    }
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
    /// The cursor's row: where a program writes or waits, never the rest of a wrapped row.
    cursor_row: usize,
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
        Grid {
            rows,
            cursor_row: usize::from(screen.cursor.row),
        }
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

    fn row_text(&self, r: usize) -> String {
        self.rows[r].iter().map(|c| c.0.as_str()).collect()
    }

    /// Whether row `r` has text in the cells `cols` (inclusive).
    fn has(&self, r: usize, cols: (usize, usize)) -> bool {
        (cols.0..=cols.1).any(|c| self.taken(r, c))
    }

    /// The runs of taken cells of row `r` (words parted by at least one blank cell).
    fn words(&self, r: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut c = 0;
        let n = self.rows[r].len();
        while c < n {
            if self.taken(r, c) {
                let first = c;
                while c < n && self.taken(r, c) {
                    c += 1;
                }
                out.push((first, c - 1));
            } else {
                c += 1;
            }
        }
        out
    }

    /// The last taken cell of row `r`.
    fn last_taken(&self, r: usize) -> Option<usize> {
        (0..self.rows[r].len()).rev().find(|&c| self.taken(r, c))
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
            | ':'
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
    // The header is found, not assumed: a rule row under the first row.
    if text_rows.len() < 2 || !header_rule {
        return None;
    }
    let columns: Vec<(usize, usize)> = rules
        .windows(2)
        .filter(|w| w[1] > w[0] + 1)
        .map(|w| (w[0] + 1, w[1] - 1))
        .collect();
    if columns.len() < 2 {
        return None;
    }
    let cells = |r: usize| columns.iter().map(|&c| g.text(r, c)).collect::<Vec<_>>();
    let (header, data) = (Some(cells(text_rows[0])), &text_rows[1..]);
    let rows: Vec<Vec<String>> = data.iter().map(|&r| cells(r)).collect();
    let evidence = format!(
        "header row {} over a rule row; {} columns between vertical rules at the same cells in all {} rows",
        crate::pos::Ordinal::of(start),
        columns.len(),
        text_rows.len()
    );
    let table = Table {
        kind: "lines",
        row: start,
        col: rules[0],
        columns,
        header,
        rows,
        evidence,
    };
    Some((table, r))
}

/// Whether `word` can be a header's word: a letter in it, no key name (`^G`, `M-U`), no end
/// of a sentence.
fn header_word(word: &str) -> bool {
    word.chars().any(char::is_alphabetic)
        && !word.starts_with('^')
        && !word.starts_with("M-")
        && !word.ends_with(['.', ',', ';', ':', '!', '?'])
        && word.chars().count() <= 24
}

/// Whether a header cell starts with a capital (its first letter; `%CPU`, `TIME+`).
fn capitalised(cell: &str) -> bool {
    cell.chars()
        .find(|c| c.is_alphabetic())
        .is_some_and(|c| c.is_uppercase() || !c.is_lowercase())
}

/// An aligned table whose header is row `start`, and the row after it (the rules are in the
/// module docs).
fn aligned(g: &Grid, start: usize) -> Option<(Table, usize)> {
    let head = g.words(start);
    if head.len() < 2 || !head.iter().all(|&w| header_word(&g.text(start, w))) {
        return None;
    }
    let n = g.rows.len();
    let width = g.rows[start].len();
    let mut r = start + 1;
    let ruled = r < n && is_rule_row(g, r);
    if ruled {
        r += 1;
    }
    // Between each two header words: the cells still blank in every data row, and whether
    // a one-cell gap is crossed (the two words one cell).
    // Under a rule row, its runs of dashes are the columns' words (sqlite3's `-column`
    // centres no header, but `banana split` would part a run of blanks in two).
    let head = if ruled { g.words(start + 1) } else { head };
    if head.len() < 2 {
        return None;
    }
    let gaps: Vec<(usize, usize)> = head.windows(2).map(|w| (w[0].1 + 1, w[1].0 - 1)).collect();
    let last_gap = gaps.len() - 1;
    let mut open: Vec<Vec<bool>> = gaps.iter().map(|&(a, b)| vec![true; b + 1 - a]).collect();
    let mut crossed = vec![false; gaps.len()];
    let mut data: Vec<usize> = Vec::new();
    // Data rows whose last cell ran to the screen's edge and went on at the start of the
    // next row (the terminal wrapped it): the row, and the row it went on.
    let mut joined: Vec<(usize, usize)> = Vec::new();
    let edge = g.rows.iter().map(Vec::len).max().unwrap_or(0);
    let at_edge = |row: usize| g.last_taken(row).is_some_and(|c| c + 1 >= edge);
    while r < n && !g.blank(r) && !is_rule_row(g, r) {
        if let Some(&last) = data.last() {
            let words = g.words(r);
            // Not the cursor's row, nor a prompt (`bash-5.2$`): a shell's prompt under a row
            // exactly as wide as the screen is no rest of it.
            if at_edge(last)
                && !joined.iter().any(|j| j.0 == last)
                && words.len() == 1
                && words[0].0 == 0
                && !at_edge(r)
                && r != g.cursor_row
                && !g.text(r, words[0]).ends_with(['$', '#', '%', '>'])
            {
                joined.push((last, r));
                r += 1;
                continue;
            }
        }
        let mut next_open = open.clone();
        let mut next_crossed = crossed.clone();
        let mut agrees = true;
        for (k, &(a, b)) in gaps.iter().enumerate() {
            for c in a..=b {
                if g.taken(r, c) {
                    next_open[k][c - a] = false;
                }
            }
            // The cells still blank: one run, or which column the cells between belong
            // to is a guess.
            let runs = next_open[k]
                .iter()
                .zip(next_open[k].iter().skip(1))
                .filter(|(x, y)| !**x && **y)
                .count()
                + usize::from(next_open[k].first() == Some(&true));
            if runs > 1 {
                agrees = false;
                break;
            }
            if !next_open[k].iter().any(|&x| x) {
                // A one-cell gap crossed: one cell of two words, from the first row on or
                // in the last column; else the row does not agree.
                if a == b && (data.is_empty() || k == last_gap || crossed[k]) {
                    next_crossed[k] = true;
                } else {
                    agrees = false;
                    break;
                }
            }
        }
        if !agrees {
            break;
        }
        let columns = columns_of(&gaps, &next_open, &next_crossed, width.max(g.rows[r].len()));
        let filled = columns.iter().filter(|&&c| g.has(r, c)).count();
        if filled < 2 || 2 * filled < columns.len() {
            break;
        }
        open = next_open;
        crossed = next_crossed;
        data.push(r);
        r += 1;
    }
    if data.len() + 1 < MIN_ALIGNED_ROWS {
        return None;
    }
    // A row that runs to the screen's edge with a row after it that is no row and does not
    // go on with its last cell alone: wrapped, and not to be told apart.
    if r < n
        && !g.blank(r)
        && data
            .last()
            .is_some_and(|&l| at_edge(l) && !joined.iter().any(|j| j.0 == l))
    {
        return None;
    }
    let full = g.rows[start..r].iter().map(Vec::len).max().unwrap_or(width);
    let mut columns = columns_of(&gaps, &open, &crossed, full);
    // A one-cell gap with nothing under the right word in any row: one header cell
    // (`Mounted on` over short mount points).
    let mut k = 1;
    while k < columns.len() {
        let left_end = (columns[k - 1].0..=columns[k - 1].1)
            .rev()
            .find(|&c| g.taken(start, c));
        let right_start = (columns[k].0..=columns[k].1).find(|&c| g.taken(start, c));
        let one_space = matches!((left_end, right_start), (Some(e), Some(s)) if s == e + 2);
        if one_space && data.iter().all(|&d| !g.has(d, columns[k])) {
            columns[k - 1].1 = columns[k].1;
            columns.remove(k);
        } else {
            k += 1;
        }
    }
    if columns.len() < 2 {
        return None;
    }
    // Every column but the last explained by its header word: not two blocks in every row.
    for &col in &columns[..columns.len() - 1] {
        let split = (col.0 + 1..col.1).any(|c| {
            data.iter().all(|&d| {
                !g.taken(d, c)
                    && (col.0..c).any(|x| g.taken(d, x))
                    && (c + 1..=col.1).any(|x| g.taken(d, x))
            })
        });
        if split {
            return None;
        }
    }
    // A wrapped row goes on in its last cell only: the cell must reach the edge.
    let last_col = columns[columns.len() - 1];
    if joined.iter().any(|&(d, _)| !g.has(d, last_col)) {
        return None;
    }
    let cells = |row: usize| {
        let mut cells: Vec<String> = columns.iter().map(|&c| g.text(row, c)).collect();
        if let Some(&(_, next)) = joined.iter().find(|j| j.0 == row) {
            if let Some(last) = cells.last_mut() {
                last.push_str(&g.text(next, (0, edge.max(1) - 1)));
            }
        }
        cells
    };
    let header = cells(start);
    if !ruled && !header.iter().all(|h| capitalised(h)) {
        return None;
    }
    let wraps: String = joined
        .iter()
        .map(|&(d, next)| {
            format!(
                "; row {}'s last cell runs to the screen's edge and goes on alone at the start of row {}",
                crate::pos::Ordinal::of(d),
                crate::pos::Ordinal::of(next)
            )
        })
        .collect();
    let evidence = format!(
        "header row {} ({}); {} columns parted by cells blank in all {} rows under it{wraps}",
        crate::pos::Ordinal::of(start),
        if ruled {
            "a rule row under it"
        } else {
            "every cell a capitalised word"
        },
        columns.len(),
        data.len()
    );
    let table = Table {
        kind: "aligned",
        row: start,
        col: columns[0].0,
        header: Some(header),
        rows: data.iter().map(|&d| cells(d)).collect(),
        columns,
        evidence,
    };
    Some((table, r))
}

/// The columns the header's gaps make: a column from each boundary (the first cell still
/// blank in every row of a gap, none where a one-cell gap is crossed) to the next; the first
/// from the row's start, the last to `width`.
fn columns_of(
    gaps: &[(usize, usize)],
    open: &[Vec<bool>],
    crossed: &[bool],
    width: usize,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    for (k, &(a, _)) in gaps.iter().enumerate() {
        if crossed[k] {
            continue;
        }
        if let Some(i) = open[k].iter().position(|&x| x) {
            let boundary = a + i;
            if boundary > from {
                out.push((from, boundary - 1));
            }
            from = boundary + 1;
        }
    }
    out.push((from, width.max(from + 1) - 1));
    out
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
    #[test]
    fn issue_42_no_table_without_evidence() {
        // ls -l has no header; git log --oneline, prose with double spaces, a key bar: none.
        for lines in [
            &[
                "total 0",
                "-rw-r--r-- 1 root root 0 Dec  7 18:11  b.txt",
                "-rw-r--r-- 1 root root 0 Dec  7 18:11 'my report final.pdf'",
            ][..],
            &[
                "d156f33 (HEAD -> master) Bump version",
                "a5b3fb3 Docs: a  table of  options",
                "ce92a9a Fix  the  lexer  spacing",
            ],
            &[
                "This is a sentence.  It has two spaces.  Old typists  did this.",
                "Another line  with  gaps  in it, as  they  come.",
                "And a third  line here  too.",
            ],
            &[
                "^G Help      ^O Write Out ^W Where Is  ^K Cut",
                "^X Exit      ^J Justify   ^\\ Replace   ^U Paste",
                "^X Exit      ^J Justify   ^\\ Replace   ^U Paste",
            ],
            // One header word over two columns in every row (htop's `CPU%▽MEM%`).
            &[
                "PID  CPU%▽MEM%  Command",
                "17   30.8  3.5  rustc",
                "18   15.4  2.5  cargo",
            ],
        ] {
            let s = screen(lines);
            assert_eq!(tables(&s), [], "{lines:?}");
        }
        // A row that runs to the edge and goes on in more than one word: refused.
        let wrapped = format!("model_tools  4.0K  /mnt/{}1/py thon", "a".repeat(36));
        let s = screen(&[
            "Filesystem   Size  Mounted on",
            "tmpfs         12G  /dev",
            &wrapped,
        ]);
        assert_eq!(tables(&s), []);
    }

    #[test]
    fn a_prompt_under_a_row_as_wide_as_the_screen_is_no_rest_of_it() {
        // The row ends at the edge without wrapping, and the shell's prompt follows: with the
        // cursor after it, or gone on below it.
        let full = format!("model_tools  4.0K  /mnt/{}", "a".repeat(36));
        for tail in ["bash-5.2$ ", "bash-5.2$\r\n$ ls"] {
            let text =
                format!("Filesystem   Size  Mounted on\r\ntmpfs         12G  /dev\r\n{full}{tail}");
            let s = crate::term::test_screen(Size { cols: 60, rows: 8 }, &text);
            let t = tables(&s);
            assert!(
                t.iter()
                    .all(|t| t.rows.iter().all(|r| !r.concat().contains("bash"))),
                "{tail:?}: {t:?}"
            );
        }
    }

    #[test]
    fn a_wrapped_last_cell_is_joined() {
        // `df` on a narrow terminal: the mount point runs to the edge (60 cells here) and the
        // terminal wraps it; the row after it is a row again.
        let wrapped = format!("model_tools  4.0K  /mnt/{}1/python", "a".repeat(36));
        let s = screen(&[
            "Filesystem   Size  Mounted on",
            "tmpfs         12G  /dev",
            &wrapped,
            "tmpfs         12G  /sys",
        ]);
        let t = tables(&s);
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(t[0].rows.len(), 3, "{t:?}");
        assert_eq!(t[0].rows[1][2], format!("/mnt/{}1/python", "a".repeat(36)));
        assert_eq!(t[0].rows[2], ["tmpfs", "12G", "/sys"]);
        assert!(
            t[0].evidence
                .contains("row 3's last cell runs to the screen's edge"),
            "{}",
            t[0].evidence
        );
    }

    #[test]
    fn issue_42_headers_found_and_the_last_column_holds_spaces() {
        // A finished progress line above the table is no header; COMMAND keeps its spaces.
        let s = screen(&[
            "Downloading [####################] 100%",
            "  PID STAT COMMAND",
            "21505 Ss+  bash -c sleep 300 & sleep 301",
            "21506 S+   sleep 300",
        ]);
        let t = tables(&s);
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(t[0].header.as_deref().unwrap(), ["PID", "STAT", "COMMAND"]);
        assert_eq!(t[0].rows[0][2], "bash -c sleep 300 & sleep 301");
        assert!(t[0].evidence.contains("header row 2"), "{}", t[0].evidence);
        // `VOLUME NAME` is one cell; sqlite3's banner and `--` rule are no rows.
        let s = screen(&[
            "DRIVER    VOLUME NAME",
            "local     0f3a9c2b7d1e4f5a6b7c8d9e0f1a2b3c",
            "local     my_data",
        ]);
        assert_eq!(
            tables(&s)[0].header.as_deref().unwrap(),
            ["DRIVER", "VOLUME NAME"]
        );
        let s = screen(&[
            "SQLite version 3.40.1 2022-12-28 14:03:47",
            "Enter \".help\" for usage hints.",
            "sqlite> select * from t;",
            "id  name          qty",
            "--  ------------  ---",
            "1   apple         3",
            "2   banana split  12",
            "sqlite> ",
        ]);
        let t = tables(&s);
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(t[0].header.as_deref().unwrap(), ["id", "name", "qty"]);
        assert_eq!(
            t[0].rows,
            [["1", "apple", "3"], ["2", "banana split", "12"]]
        );
        // A Markdown table: the `|---|` row is its rule, no data row.
        let s = screen(&[
            "| Name | Age |",
            "|------|-----|",
            "| Ann  | 31  |",
            "| Bob  | 4   |",
        ]);
        let t = tables(&s);
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(t[0].rows, [["Ann", "31"], ["Bob", "4"]]);
        // A box without the rule under its first row (a dialog) is no table.
        let s = screen(&[
            "│ Delete it?      │",
            "│                 │",
            "│ < Yes >  < No > │",
        ]);
        assert_eq!(tables(&s), []);
    }
}
