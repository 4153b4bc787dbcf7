//! The outline of a screen: what a person sees at a glance, found from the cells alone, for
//! any program — boxes and panels drawn with line-drawing characters (and ASCII `+--+`), their
//! titles, the blocks of text inside them, highlighted rows (selection candidates), a status
//! bar on the last row, a header bar on the first, and the cursor's row.
//!
//! Each part has a stable name a scenario or a person can use: `box("Todos")` (a box by its
//! title; `box("Todos", 2)` for the second box with the same title, `box(1)` for the first
//! untitled box), `selected` (the one highlighted row of a list), `status`, `header`,
//! `cursor`. Positions in this module are 0-based (cells); what shows them to people
//! (`inspect`) adds 1.
//!
//! The rules, so that a reader can predict them:
//! - A box has four corners with exactly two arms each (`┌ ┐ └ ┘` and their heavy, double and
//!   rounded forms, or `+` in an ASCII box), a top and a bottom edge of horizontal lines (text
//!   and tees may interrupt them: titles, `┤ Title ├`), and left and right edges of vertical
//!   lines (tees allowed: `├` starts a separator). A box hidden in part by another is not
//!   found: nothing rather than a wrong box.
//! - The title is the first run of text on the top edge that holds a letter or a digit; the
//!   footer the same on the bottom edge.
//! - A highlighted row has, inside its container (the innermost box, or the screen), cells
//!   whose background (or reverse video) differs from the container's usual one, covering at
//!   least half of the row's visible characters; or all its characters bold where the
//!   container's text is not. `selected` is the one such row in a list (a block whose other
//!   rows are not highlighted), never a bar, and never a row with the visible cursor in it
//!   (that is an input field).
//! - A list row beside a selection is plain: not highlighted alike, and most of its cells in
//!   the container's usual shade (a header bar above a row of panel cursors is no selection:
//!   htop's setup screen).
//! - A window's status line is no selection: a highlight across every column of the bare
//!   screen right above an unstyled last row (vim's status line over its command line), and
//!   the same bar higher up (the status lines of vim's other windows).
//! - A column header is no selection: a highlight of three or more labels set apart as
//!   columns (by two spaces or more) and no digit, right above a row of its block that holds
//!   digits (htop's `PID USER … Command` over the processes).

// The screen, the grid of characters and the owner of each cell are read at the same
// (row, column): indices say that more plainly than three zipped iterators.
#![allow(clippy::needless_range_loop)]

use std::ops::Range;

use super::{CellRect, Color, Screen};

/// The outline of one screen ([`Screen::outline`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Outline {
    /// Boxes in reading order (by top row, then left column).
    pub boxes: Vec<BoxPart>,
    /// Blocks of text: consecutive non-blank rows of one container.
    pub blocks: Vec<TextBlock>,
    /// Highlighted rows, top to bottom.
    pub highlights: Vec<Highlight>,
    /// The index in `highlights` of the `selected` row, when exactly one highlighted row
    /// stands out in a list (its neighbours in the same block are not highlighted).
    pub selected: Option<usize>,
    /// The last row, when it is a bar: non-blank, outside every box, and styled across at
    /// least half the width or on the alternate screen (full-screen programs).
    pub status: Option<Bar>,
    /// The first row, when it is a styled bar (a menu bar, a title bar).
    pub header: Option<Bar>,
    /// The cursor's row and its text.
    pub cursor: CursorRow,
}

/// A box (a panel, a dialog, a frame) drawn with line-drawing characters.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BoxPart {
    /// The stable name: `box("Title")`, `box("Title", 2)`, or `box(N)` for the N-th untitled
    /// box.
    pub name: String,
    /// Text on the top edge.
    pub title: Option<String>,
    /// Text on the bottom edge.
    pub footer: Option<String>,
    /// The cells of the box, borders included.
    pub rect: CellRect,
    /// The line style: `single`, `heavy`, `double`, `rounded` or `ascii`.
    pub style: &'static str,
    /// The innermost box around this one (an index in [`Outline::boxes`]).
    pub parent: Option<usize>,
    /// Rows of horizontal separators inside the box (`├────┤`).
    pub separators: Vec<usize>,
}

impl BoxPart {
    /// The cells inside the borders (empty when the box has no inside).
    pub fn inner(&self) -> CellRect {
        CellRect {
            row: self.rect.row + 1,
            row_end: (self.rect.row_end - 1).max(self.rect.row + 1),
            col: self.rect.col + 1,
            col_end: (self.rect.col_end - 1).max(self.rect.col + 1),
        }
    }
}

/// Consecutive non-blank rows of one container.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TextBlock {
    /// The box it is in (an index in [`Outline::boxes`]), or `None` for the screen.
    pub container: Option<usize>,
    /// The rows and the columns its text spans.
    pub rect: CellRect,
    /// Each row's text within `rect`, trailing spaces trimmed.
    pub lines: Vec<String>,
}

/// How a row is highlighted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HighlightKind {
    /// Reverse video.
    Inverse,
    /// A background colour other than the container's.
    Background,
    /// Bold where the container's text is not.
    Bold,
}

impl HighlightKind {
    /// `inverse`, `background` or `bold`.
    pub fn name(self) -> &'static str {
        match self {
            HighlightKind::Inverse => "inverse",
            HighlightKind::Background => "background",
            HighlightKind::Bold => "bold",
        }
    }
}

/// A highlighted row: a selection candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Highlight {
    /// The row.
    pub row: usize,
    /// The highlighted columns (first to last highlighted cell).
    pub cols: Range<usize>,
    /// How it is highlighted.
    pub kind: HighlightKind,
    /// The highlight's colour: the background, or for reverse video the foreground.
    pub color: Color,
    /// The box it is in, or `None` for the screen.
    pub container: Option<usize>,
    /// The text of the highlighted cells, trimmed.
    pub text: String,
}

/// A bar across a row (the status line, a menu bar).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Bar {
    /// The row.
    pub row: usize,
    /// Its text, trimmed.
    pub text: String,
    /// Whether it is styled (a background or reverse video across at least half the width).
    pub styled: bool,
}

/// The cursor and the text of its row.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CursorRow {
    /// The cursor's row.
    pub row: usize,
    /// The cursor's column.
    pub col: usize,
    /// Whether the cursor is shown.
    pub visible: bool,
    /// The row's text (trailing spaces trimmed).
    pub text: String,
}

impl Screen {
    /// The outline of this screen: boxes, titles, text blocks, highlighted rows, bars and the
    /// cursor (the rules are in the module docs).
    pub fn outline(&self) -> Outline {
        self.outline_counted(&Work::default())
    }

    /// The outline, counting the cells and boxes its stages look at in `work` (the test of
    /// its cost: near-linear in the screen's cells).
    pub(crate) fn outline_counted(&self, work: &Work) -> Outline {
        let grid = Grid::new(self);
        let mut boxes = find_boxes(&grid, work);
        let owner = owners(&grid, &boxes, work);
        link_parents(&grid, &mut boxes, work);
        name_boxes(&mut boxes);
        let blocks = text_blocks(&grid, &boxes, &owner, work);
        let block_at = blocks_by_row(&blocks);
        let (highlights, usual, row_shades) = highlights(self, &grid, &owner, work);
        // A highlighted row with the visible cursor in it is an input field, not a selection.
        let c = self.cursor;
        let typing = |h: &Highlight| {
            c.visible && h.row == c.row as usize && h.cols.contains(&(c.col as usize))
        };
        // Whether row `r` of container `k` is mostly in the container's usual shade.
        let plain = |r: usize, k: Option<usize>| match row_shades.get(&(r, k)) {
            Some(&(cells, shaded)) => shaded * 2 < cells.max(1),
            None => usual.contains_key(&k),
        };
        let bottoms = status_bottoms(&highlights, &grid, self);
        let not_a_list_row = |h: &Highlight| {
            status_line(&bottoms, h, &grid) || column_header(&blocks, &block_at, h, &grid)
        };
        let selected = selected(
            &highlights,
            &blocks,
            &block_at,
            &grid,
            |h| typing(h) || not_a_list_row(h),
            plain,
        );
        let nrows = grid.rows;
        let status = (nrows > 1)
            .then(|| bar(self, &grid, &owner, nrows - 1))
            .flatten()
            .filter(|b| b.styled || self.alternate);
        let header = (nrows > 1)
            .then(|| bar(self, &grid, &owner, 0))
            .flatten()
            .filter(|b| b.styled);
        // A bar is not also a selection.
        let selected = selected.filter(|&i| {
            let r = highlights[i].row;
            status.as_ref().is_none_or(|b| b.row != r) && header.as_ref().is_none_or(|b| b.row != r)
        });
        Outline {
            boxes,
            blocks,
            highlights,
            selected,
            status,
            header,
            cursor: CursorRow {
                row: c.row as usize,
                col: c.col as usize,
                visible: c.visible,
                text: self.row_text(c.row as usize),
            },
        }
    }
}

impl Outline {
    /// The box of a stable name (`box("Todos")`, `box("Todos", 2)`, `box(1)`) or a plain
    /// title (`Todos`, the first box with that title).
    pub fn find_box(&self, name: &str) -> Option<&BoxPart> {
        self.boxes
            .iter()
            .find(|b| b.name == name)
            .or_else(|| self.boxes.iter().find(|b| b.title.as_deref() == Some(name)))
    }

    /// The selected row, if one stands out.
    pub fn selected_row(&self) -> Option<&Highlight> {
        self.selected.map(|i| &self.highlights[i])
    }
}

/// The arms of a line-drawing character: which neighbours its lines reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Arms {
    up: bool,
    down: bool,
    left: bool,
    right: bool,
}

/// Arms of a character of U+2500–U+257F (light, heavy, double, rounded and dashed forms).
fn arms(ch: char) -> Option<Arms> {
    let a = |up, down, left, right| {
        Some(Arms {
            up,
            down,
            left,
            right,
        })
    };
    match ch {
        '─' | '━' | '═' | '┄' | '┅' | '┈' | '┉' | '╌' | '╍' | '╼' | '╾' => {
            a(false, false, true, true)
        }
        '│' | '┃' | '║' | '┆' | '┇' | '┊' | '┋' | '╎' | '╏' | '╽' | '╿' => {
            a(true, true, false, false)
        }
        '┌' | '┍' | '┎' | '┏' | '╒' | '╓' | '╔' | '╭' => {
            a(false, true, false, true)
        }
        '┐' | '┑' | '┒' | '┓' | '╕' | '╖' | '╗' | '╮' => {
            a(false, true, true, false)
        }
        '└' | '┕' | '┖' | '┗' | '╘' | '╙' | '╚' | '╰' => {
            a(true, false, false, true)
        }
        '┘' | '┙' | '┚' | '┛' | '╛' | '╜' | '╝' | '╯' => {
            a(true, false, true, false)
        }
        '├'..='┣' | '╞' | '╟' | '╠' => a(true, true, false, true),
        '┤'..='┫' | '╡' | '╢' | '╣' => a(true, true, true, false),
        '┬'..='┳' | '╤' | '╥' | '╦' => a(false, true, true, true),
        '┴'..='┻' | '╧' | '╨' | '╩' => a(true, false, true, true),
        '┼'..='╋' | '╪' | '╫' | '╬' => a(true, true, true, true),
        '╴' | '╸' => a(false, false, true, false),
        '╶' | '╺' => a(false, false, false, true),
        '╵' | '╹' => a(true, false, false, false),
        '╷' | '╻' => a(false, true, false, false),
        _ => None,
    }
}

/// True for a character of the box-drawing block (lines of any kind).
pub(crate) fn is_line_char(ch: char) -> bool {
    ('\u{2500}'..='\u{257f}').contains(&ch)
}

/// The screen as one character per cell (a wide character's tail is `\0`), for quick looks.
pub(crate) struct Grid {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    chars: Vec<char>,
}

impl Grid {
    pub(crate) fn new(screen: &Screen) -> Grid {
        let rows = screen.rows.len().min(screen.size.rows as usize);
        let cols = screen.size.cols as usize;
        let mut chars = vec![' '; rows * cols];
        for (r, row) in screen.rows.iter().take(rows).enumerate() {
            for (c, cell) in row.iter().take(cols).enumerate() {
                chars[r * cols + c] = if cell.width == 0 {
                    '\0'
                } else {
                    cell.text.chars().next().unwrap_or(' ')
                };
            }
        }
        Grid { rows, cols, chars }
    }

    pub(crate) fn at(&self, r: usize, c: usize) -> char {
        if r < self.rows && c < self.cols {
            self.chars[r * self.cols + c]
        } else {
            ' '
        }
    }

    /// True when the cell shows nothing: a space, or a wide character's tail.
    fn blank(&self, r: usize, c: usize) -> bool {
        let ch = self.at(r, c);
        ch == '\0' || ch.is_whitespace()
    }

    /// The text of cells `cols` of row `r` (tails skipped).
    pub(crate) fn text(&self, r: usize, cols: Range<usize>) -> String {
        cols.map(|c| self.at(r, c)).filter(|&c| c != '\0').collect()
    }
}

/// Which corner, edge or line a cell may be in one style of box.
trait BoxStyle {
    fn top_left(&self, ch: char) -> bool;
    fn top_right(&self, ch: char) -> bool;
    fn bottom_left(&self, ch: char) -> bool;
    fn bottom_right(&self, ch: char) -> bool;
    fn vertical(&self, ch: char) -> bool;
    /// Lines that may be part of a top or bottom edge (titles may interrupt them).
    fn horizontal(&self, ch: char) -> bool;
    /// A character that may not be on a horizontal edge at all.
    fn breaks_edge(&self, ch: char) -> bool;
}

struct Unicode;
struct Ascii;

impl BoxStyle for Unicode {
    fn top_left(&self, ch: char) -> bool {
        arms(ch)
            == Some(Arms {
                up: false,
                down: true,
                left: false,
                right: true,
            })
    }
    fn top_right(&self, ch: char) -> bool {
        arms(ch)
            == Some(Arms {
                up: false,
                down: true,
                left: true,
                right: false,
            })
    }
    fn bottom_left(&self, ch: char) -> bool {
        arms(ch)
            == Some(Arms {
                up: true,
                down: false,
                left: false,
                right: true,
            })
    }
    fn bottom_right(&self, ch: char) -> bool {
        arms(ch)
            == Some(Arms {
                up: true,
                down: false,
                left: true,
                right: false,
            })
    }
    fn vertical(&self, ch: char) -> bool {
        arms(ch).is_some_and(|a| a.up && a.down)
    }
    fn horizontal(&self, ch: char) -> bool {
        arms(ch).is_some_and(|a| a.left && a.right)
    }
    fn breaks_edge(&self, ch: char) -> bool {
        // A pure vertical line, or a corner, cannot be on a horizontal edge; tees can
        // (`┤ Title ├`).
        arms(ch).is_some_and(|a| !a.left && !a.right || (a.left != a.right && !(a.up && a.down)))
    }
}

impl BoxStyle for Ascii {
    fn top_left(&self, ch: char) -> bool {
        ch == '+'
    }
    fn top_right(&self, ch: char) -> bool {
        ch == '+'
    }
    fn bottom_left(&self, ch: char) -> bool {
        ch == '+'
    }
    fn bottom_right(&self, ch: char) -> bool {
        ch == '+'
    }
    fn vertical(&self, ch: char) -> bool {
        ch == '|' || ch == '+'
    }
    fn horizontal(&self, ch: char) -> bool {
        ch == '-' || ch == '=' || ch == '+'
    }
    fn breaks_edge(&self, ch: char) -> bool {
        ch == '|'
    }
}

/// The cells and boxes the stages of an outline look at: each stage costs about the screen's
/// cells, a box its height (see `Screen::outline_counted`).
#[derive(Debug, Default)]
pub(crate) struct Work(std::cell::Cell<u64>);

impl Work {
    fn add(&self, n: usize) {
        self.0.set(self.0.get().saturating_add(n as u64));
    }

    /// The count so far.
    #[cfg(test)]
    pub(crate) fn get(&self) -> u64 {
        self.0.get()
    }
}

/// At most this many box-to-box comparisons a screen for the parents of boxes that overlap
/// others without nesting (nested boxes find their parent in one look); past it such a box
/// has no parent.
pub(crate) const MAX_OVERLAP_COMPARISONS: usize = 1 << 20;

fn find_boxes(grid: &Grid, work: &Work) -> Vec<BoxPart> {
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
fn box_at(grid: &Grid, style: &dyn BoxStyle, r: usize, c: usize, work: &Work) -> Option<BoxPart> {
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
fn edge_is_a_line(
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
fn edge_text(grid: &Grid, r: usize, cols: Range<usize>, ascii: bool) -> Option<String> {
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

fn line_style(corner: char) -> &'static str {
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
fn link_parents(grid: &Grid, boxes: &mut [BoxPart], work: &Work) {
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
struct Painter {
    cols: usize,
    next: Vec<u32>,
}

impl Painter {
    fn new(rows: usize, cols: usize) -> Painter {
        let next = (0..rows)
            .flat_map(|_| 0..=cols as u32)
            .collect::<Vec<u32>>();
        Painter { cols, next }
    }

    /// The first column from `c` on in row `r` that is not painted (`cols` when none is).
    fn find(&mut self, r: usize, c: usize) -> usize {
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
    fn paint(&mut self, r: usize, cols: Range<usize>, mut f: impl FnMut(usize)) {
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

fn area(r: &CellRect) -> usize {
    (r.row_end - r.row) * (r.col_end - r.col)
}

fn name_boxes(boxes: &mut [BoxPart]) {
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
enum Owner {
    /// The screen outside every box.
    Screen,
    /// The inside of box `i`.
    Inside(usize),
    /// The border of a box.
    Border,
}

impl Owner {
    fn container(self) -> Option<Option<usize>> {
        match self {
            Owner::Screen => Some(None),
            Owner::Inside(i) => Some(Some(i)),
            Owner::Border => None,
        }
    }
}

fn owners(grid: &Grid, boxes: &[BoxPart], work: &Work) -> Vec<Vec<Owner>> {
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
fn slot(k: Option<usize>) -> usize {
    k.map_or(0, |i| i + 1)
}

fn text_blocks(
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
type BlocksByRow = std::collections::HashMap<(Option<usize>, usize), usize>;

fn blocks_by_row(blocks: &[TextBlock]) -> BlocksByRow {
    let mut at = BlocksByRow::new();
    for (i, b) in blocks.iter().enumerate() {
        for r in b.rect.row..b.rect.row_end {
            at.entry((b.container, r)).or_insert(i);
        }
    }
    at
}

/// The style that tells a highlighted cell: its visible background.
fn shade(cell: &super::Cell) -> (bool, Color) {
    if cell.attrs.inverse {
        (true, cell.fg)
    } else {
        (false, cell.bg)
    }
}

/// The usual shade of each container (`None`: the bare screen).
type UsualShades = std::collections::HashMap<Option<usize>, (bool, Color)>;

/// Per row and container: its cells on the row, and how many are not in its usual shade.
type RowShades = std::collections::HashMap<(usize, Option<usize>), (usize, usize)>;

/// The highlighted rows, the usual shade of each container they were found against, and how
/// each row of each container is shaded.
fn highlights(
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
fn owner_slots(owner: &[Vec<Owner>]) -> usize {
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
fn status_line(bottoms: &[&Highlight], h: &Highlight, grid: &Grid) -> bool {
    full_width(h, grid)
        && bottoms
            .iter()
            .any(|bottom| bottom.kind == h.kind && bottom.color == h.color && bottom.row >= h.row)
}

/// A highlight across every column of the bare screen.
fn full_width(h: &Highlight, grid: &Grid) -> bool {
    h.container.is_none() && h.cols == (0..grid.cols)
}

/// The status lines at the bottom that [`status_line`] matches others with: full width, right
/// above a last row that is not styled.
fn status_bottoms<'h>(
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
fn column_header(blocks: &[TextBlock], block_at: &BlocksByRow, h: &Highlight, grid: &Grid) -> bool {
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
fn selected(
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

fn bar(screen: &Screen, grid: &Grid, owner: &[Vec<Owner>], r: usize) -> Option<Bar> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{test_screen, Size};

    #[test]
    fn a_titled_box_with_a_highlighted_row_and_a_status_bar() {
        let s = test_screen(
            Size { cols: 20, rows: 6 },
            "╭ Todos ─────────╮\r\n│ one            │\r\n│\x1b[7m two            \x1b[0m│\r\n│ three          │\r\n╰────────────────╯\r\n\x1b[44m 3 todos          \x1b[0m",
        );
        let o = s.outline();
        assert_eq!(o.boxes.len(), 1);
        let b = &o.boxes[0];
        assert_eq!(b.name, "box(\"Todos\")");
        assert_eq!(b.title.as_deref(), Some("Todos"));
        assert_eq!(b.style, "rounded");
        assert_eq!(
            b.rect,
            CellRect {
                row: 0,
                row_end: 5,
                col: 0,
                col_end: 18
            }
        );
        let sel = o.selected_row().unwrap();
        assert_eq!(
            (sel.row, sel.text.as_str(), sel.kind),
            (2, "two", HighlightKind::Inverse)
        );
        assert_eq!(o.status.as_ref().unwrap().text, "3 todos");
        assert!(o.find_box("Todos").is_some());
        assert_eq!(o.blocks.len(), 2);
        assert_eq!(o.blocks[0].lines, ["one", "two", "three"]);
    }

    #[test]
    fn ascii_boxes_tees_in_titles_and_nesting() {
        let s = test_screen(
            Size { cols: 30, rows: 11 },
            "┌──┤ Confirm ├─────┐\r\n│ Sure?            │\r\n│ ┌────┐           │\r\n│ │ ok │           │\r\n│ └────┘           │\r\n├──────────────────┤\r\n│                  │\r\n└──────────────────┘\r\n+--------+\r\n| in     |\r\n+-- x ---+",
        );
        let o = s.outline();
        let names: Vec<&str> = o.boxes.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["box(\"Confirm\")", "box(1)", "box(2)"]);
        assert_eq!(o.boxes[1].parent, Some(0));
        assert_eq!(o.boxes[0].separators, [5]);
        assert_eq!(o.boxes[2].footer.as_deref(), Some("x"));
        assert_eq!(o.boxes[2].style, "ascii");
        // `+ a +` with little line is no box.
        let s = test_screen(
            Size { cols: 20, rows: 3 },
            "+ a b c +\r\n|       |\r\n+ d e f +",
        );
        assert!(s.outline().boxes.is_empty());
    }

    #[test]
    fn status_lines_and_column_headers_are_not_selections() {
        let size = Size { cols: 12, rows: 6 };
        // A status line over an unstyled command line, and the same bar higher up.
        let vim = "one\r\n\x1b[7mnotes.txt   \x1b[0m\r\ntwo\r\nthree\r\n\x1b[7mnotes.txt   \x1b[0m\r\n:split";
        let o = test_screen(size, vim).outline();
        assert_eq!(o.highlights.len(), 2);
        assert_eq!(o.selected, None);
        // With a styled last row the bar is no status line: a list's full-width selection.
        let list = "one\r\ntwo\r\nthree\r\nfour\r\n\x1b[7mfive        \x1b[0m\r\n\x1b[44mhelp        \x1b[0m";
        let o = test_screen(size, list).outline();
        assert_eq!(o.selected_row().map(|h| h.text.as_str()), Some("five"));
        // Words over numbers: a column header; the selected row below it is found.
        let table = "\x1b[42mPID USER CMD\x1b[0m\r\n  1 root sh\r\n\x1b[46m  22 me vi  \x1b[0m\r\n  33 me ls\r\n\r\nend";
        let o = test_screen(size, table).outline();
        assert_eq!(o.highlights.len(), 2);
        assert_eq!(o.selected_row().map(|h| h.row), Some(2));
        // A list item of plain words over a row with a digit is no header.
        let items =
            "Todo:\r\n  buy milk\r\n\x1b[43m> write the notes \x1b[0m\r\n  review #42\r\n\r\nend";
        let o = test_screen(Size { cols: 18, rows: 6 }, items).outline();
        assert_eq!(
            o.selected_row().map(|h| h.text.as_str()),
            Some("> write the notes")
        );
        // A bar over a shaded row stands out from no plain neighbour.
        let bars = "\x1b[42m[Setup]\x1b[0m\r\n\x1b[42mTitles  Here\x1b[0m\r\n\x1b[46mitem\x1b[47m  value   \x1b[0m\r\nitem two\r\nitem three";
        let o = test_screen(size, bars).outline();
        assert_eq!(o.highlights.len(), 2, "{:?}", o.highlights);
        assert_eq!(o.selected, None, "{:?}", o.highlights);
    }

    /// A screen of `cols`x`rows` tiled with 3x3 boxes, each with a letter inside, and an
    /// inverse row of them now and then.
    fn tiny_boxes(cols: u16, rows: u16) -> Screen {
        let n = cols as usize / 3;
        let mut input = String::new();
        for r in 0..rows as usize / 3 {
            let lit = if r % 4 == 1 { "\x1b[7m" } else { "" };
            input += &"┌─┐".repeat(n);
            input += "\r\n";
            input += lit;
            input += &"│x│".repeat(n);
            input += "\x1b[0m\r\n";
            input += &"└─┘".repeat(n);
            input += "\r\n";
        }
        test_screen(Size { cols, rows }, input.trim_end())
    }

    #[test]
    fn the_outline_of_many_tiny_boxes_costs_about_its_cells() {
        // The screens of tiny boxes took 1.7 s (113 KB) and 33 s (440 KB) a
        // checkpoint: every box was compared with every other, every container rescanned the
        // screen. Four times the cells must cost about four times the work, not sixteen.
        let small = tiny_boxes(150, 99);
        let large = tiny_boxes(300, 198);
        let (ws, wl) = (Work::default(), Work::default());
        let (os, ol) = (small.outline_counted(&ws), large.outline_counted(&wl));
        assert_eq!((os.boxes.len(), ol.boxes.len()), (50 * 33, 100 * 66));
        assert_eq!(ol.blocks.len(), 100 * 66);
        assert!(ol.boxes[101].parent.is_none());
        let cells = |s: &Screen| s.size.cols as u64 * s.size.rows as u64;
        let per_cell = wl.get() / cells(&large);
        assert!(
            per_cell <= 16,
            "{} work for {} cells",
            wl.get(),
            cells(&large)
        );
        assert!(
            wl.get() <= ws.get() * 5,
            "4x the cells cost {}x the work ({} vs {})",
            wl.get() / ws.get(),
            wl.get(),
            ws.get()
        );
    }

    #[test]
    fn nested_boxes_find_their_parent_and_overlapping_ones_too() {
        let s = test_screen(
            Size { cols: 16, rows: 8 },
            "┌────────────┐\r\n│ ┌──┐ ┌──┐  │\r\n│ │ab│ │cd│  │\r\n│ └──┘ └──┘  │\r\n│ +--+--+    │\r\n│ |  |  |    │\r\n│ +--+--+    │\r\n└────────────┘",
        );
        let o = s.outline();
        let parents: Vec<Option<usize>> = o.boxes.iter().map(|b| b.parent).collect();
        assert_eq!(parents[..3], [None, Some(0), Some(0)], "{:?}", o.boxes);
        // The ASCII boxes share a side; both are inside the big one.
        assert_eq!(parents[3..], [Some(0), Some(0)], "{:?}", o.boxes);
    }

    #[test]
    fn an_unclosed_box_is_not_a_box() {
        let s = test_screen(
            Size { cols: 10, rows: 4 },
            "┌────┐\r\n│    │\r\n│     \r\n└────┘",
        );
        assert!(s.outline().boxes.is_empty());
    }
}
