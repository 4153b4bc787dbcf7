//! Finding, reading and hiding cells of a screen: where text is ([`Screen::find`],
//! [`Screen::cells_of_text`]), the text and style of cells ([`rects_text`],
//! [`Screen::style_at`]), a screen's identity ([`Screen::hash_hex`]) and masking
//! ([`hide_rects`], [`PLACEHOLDER`]). Regions anchored by content, which find their cells
//! with these, are `inspect::Anchor`.

use regex::Regex;

use super::{CellRect, Screen};

/// The character drawn in hidden (masked) cells.
pub const PLACEHOLDER: &str = "▒";

/// Hides the cells of `rects` on `screen`: each becomes [`PLACEHOLDER`] in the default style;
/// a wide character half covered is hidden whole. Masks of goldens and the recorder's settle
/// watch both hide cells this way, so a screen whose only changes are masked is still.
pub fn hide_rects(screen: &mut Screen, rects: &[CellRect]) {
    for rect in rects {
        let rows = rect.row.min(screen.rows.len())..rect.row_end.min(screen.rows.len());
        for row in &mut screen.rows[rows] {
            let end = rect.col_end.min(row.len());
            for c in rect.col.min(end)..end {
                hide_cell(row, c);
            }
        }
    }
}

/// Hides cell `c` of `row`; a wide character half covered is hidden whole.
fn hide_cell(row: &mut [super::Cell], c: usize) {
    let start = if row[c].width == 0 && c > 0 { c - 1 } else { c };
    let end = if row[start].width == 2 {
        (start + 2).min(row.len())
    } else {
        start + 1
    };
    for cell in &mut row[start..end] {
        *cell = super::Cell {
            text: PLACEHOLDER.into(),
            width: 1,
            ..super::Cell::default()
        };
    }
}

/// The text of `rects` on `screen`: each rectangle's rows, the cells in its columns, each
/// line's trailing whitespace trimmed, lines joined by `\n`.
pub fn rects_text(screen: &Screen, rects: &[CellRect]) -> String {
    let mut lines = Vec::new();
    for rect in rects {
        for r in rect.row..rect.row_end {
            let mut line = String::new();
            if let Some(cells) = screen.rows.get(r) {
                let end = rect.col_end.min(cells.len());
                for cell in cells.get(rect.col..end).unwrap_or(&[]) {
                    if cell.width != 0 {
                        line.push_str(&cell.text);
                    }
                }
            }
            lines.push(line.trim_end().to_string());
        }
    }
    lines.join("\n")
}

/// The style of one cell: what `Screen::style_at` gives an assertion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct CellStyle {
    /// Foreground colour.
    pub fg: super::Color,
    /// Background colour.
    pub bg: super::Color,
    /// Bold, italic, underline, inverse, …
    pub attrs: super::Attrs,
}

impl Screen {
    /// Where `text` first is on the screen, reading row by row: its row and column, counted
    /// from 0 like [`Screen::rows`] and [`Cursor`](super::Cursor) (a wide character is one
    /// column of text and two cells: the column is the cell's).
    pub fn find(&self, text: &str) -> Option<(usize, usize)> {
        if text.is_empty() {
            return None;
        }
        let re = Regex::new(&regex::escape(text)).ok()?;
        (0..self.rows.len()).find_map(|r| self.find_cells(r, &re).first().map(|c| (r, c.start)))
    }

    /// The first and last cells (row, column from 0; the last inclusive, a wide character's
    /// first cell) of the bytes `range` of [`Screen::text`]: where a match in the screen's
    /// text is. `None` for an empty or out-of-range `range`.
    pub fn cells_of_text(
        &self,
        range: std::ops::Range<usize>,
    ) -> Option<((usize, usize), (usize, usize))> {
        if range.start >= range.end {
            return None;
        }
        let text = self.text();
        if range.end > text.len() {
            return None;
        }
        // A byte of the text → its row and its byte in that row's line.
        let locate = |at: usize| -> (usize, usize) {
            let row = text[..at].bytes().filter(|&b| b == b'\n').count();
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            (row, at - line_start)
        };
        // A byte of a row's line → its cell (the line holds each cell's text in turn).
        let cell = |row: usize, byte: usize| -> usize {
            let mut len = 0;
            let mut last = 0;
            for (c, cell) in self.rows.get(row).into_iter().flatten().enumerate() {
                if cell.width == 0 {
                    continue;
                }
                last = c;
                len += cell.text.len();
                if byte < len {
                    return c;
                }
            }
            last
        };
        // The last byte of the match (a newline ending it counts as the end of its row).
        let mut end = range.end - 1;
        while end > range.start && (!text.is_char_boundary(end) || text.as_bytes()[end] == b'\n') {
            end -= 1;
        }
        if !text.is_char_boundary(range.start) {
            return None;
        }
        let (r0, b0) = locate(range.start);
        let (r1, b1) = locate(end);
        Some(((r0, cell(r0, b0)), (r1, cell(r1, b1))))
    }

    /// 16 hex digits identifying what the screen shows: FNV-1a (64 bits) over every cell's
    /// text, style and link, and the shown cursor (its place and shape). Equal screens have
    /// equal hashes in every process of one tuicast version; a hash says nothing about the
    /// title, bells, modes or scrollback.
    pub fn hash_hex(&self) -> String {
        use std::hash::{Hash, Hasher};
        /// FNV-1a, 64 bits: the same in every process (std's hasher is seeded).
        struct Fnv(u64);
        impl Hasher for Fnv {
            fn write(&mut self, bytes: &[u8]) {
                for &b in bytes {
                    self.0 ^= u64::from(b);
                    self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
                }
            }
            fn finish(&self) -> u64 {
                self.0
            }
        }
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.write_usize(self.rows.len());
        for row in &self.rows {
            h.write_usize(row.len());
            for cell in row {
                h.write(cell.text.as_bytes());
                h.write_u8(0xff);
                h.write_u8(cell.width);
                cell.fg.hash(&mut h);
                cell.bg.hash(&mut h);
                cell.attrs.hash(&mut h);
                h.write_u16(cell.link);
            }
        }
        // The links the cells name, by their URI.
        for link in &self.state.links {
            let _ = serde_json::to_writer(HashWriter(&mut h), link);
        }
        // (A hidden cursor's place is no part of what is shown.)
        let c = &self.cursor;
        c.visible.then_some((c.row, c.col, c.shape)).hash(&mut h);
        format!("{:016x}", h.finish())
    }

    /// The style of the cell at `row`, `col` (from 0), `None` outside the screen.
    pub fn style_at(&self, row: usize, col: usize) -> Option<CellStyle> {
        self.rows.get(row)?.get(col).map(|c| CellStyle {
            fg: c.fg,
            bg: c.bg,
            attrs: c.attrs,
        })
    }
}

/// An `io::Write` feeding a hasher (what serde writes of a value, hashed).
struct HashWriter<'a, H: std::hash::Hasher>(&'a mut H);

impl<H: std::hash::Hasher> std::io::Write for HashWriter<'_, H> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::term::{test_screen, Size};

    #[test]
    fn cells_of_text_count_wide_characters_as_two_cells() {
        let s = test_screen(Size { cols: 20, rows: 3 }, "ab\r\n日本語 ok\r\nend");
        let text = s.text();
        let at = |needle: &str| {
            let i = text.find(needle).unwrap();
            s.cells_of_text(i..i + needle.len())
        };
        assert_eq!(at("ab"), Some(((0, 0), (0, 1))));
        assert_eq!(
            at("本語"),
            Some(((1, 2), (1, 4))),
            "the last wide cell is its first"
        );
        assert_eq!(at("ok"), Some(((1, 7), (1, 8))));
        assert_eq!(at("ok\nend"), Some(((1, 7), (2, 2))));
        assert_eq!(s.cells_of_text(3..3), None);
        // Equal screens, equal hashes; a cell's style is part of it.
        let same = test_screen(Size { cols: 20, rows: 3 }, "ab\r\n日本語 ok\r\nend");
        assert_eq!(s.hash_hex(), same.hash_hex());
        let red = test_screen(Size { cols: 20, rows: 3 }, "\x1b[31mab\r\n日本語 ok\r\nend");
        assert_ne!(s.hash_hex(), red.hash_hex());
    }
}
