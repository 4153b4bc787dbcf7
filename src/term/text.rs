//! The text of a screen: each row's characters once, trailing whitespace trimmed, control
//! characters replaced (the text render, and what waits and diffs read).

use super::Screen;

impl Screen {
    /// The text of one row: each character once (wide characters are not doubled), combining
    /// marks kept, trailing whitespace trimmed.
    pub fn row_text(&self, row: usize) -> String {
        let mut out = String::with_capacity(self.size.cols as usize);
        self.push_row_text(row, &mut out);
        out
    }

    /// Appends [`row_text`](Self::row_text) to `out` (no `\n`), without a `String` of its
    /// own.
    pub fn push_row_text(&self, row: usize, out: &mut String) {
        let mut bytes = Vec::with_capacity(self.size.cols as usize);
        self.push_row_bytes(row, &mut bytes);
        out.push_str(&String::from_utf8_lossy(&bytes));
    }

    /// Appends the UTF-8 of [`row_text`](Self::row_text) to `out` (no `\n`): the quick
    /// path of the text render, one copy of each cell's bytes.
    fn push_row_bytes(&self, row: usize, out: &mut Vec<u8>) {
        let start = out.len();
        // The end of the last cell that is not all whitespace: the row is cut there first,
        // without walking back over a row of blanks.
        let mut keep = start;
        if let Some(cells) = self.rows.get(row) {
            for cell in cells {
                if cell.width == 0 {
                    continue;
                }
                let blank = match cell.text.ascii() {
                    Some(b) => {
                        out.push(b);
                        b.is_ascii_whitespace()
                    }
                    None => {
                        out.extend_from_slice(cell.text.as_bytes());
                        cell.text.chars().all(char::is_whitespace)
                    }
                };
                if !blank {
                    keep = out.len();
                }
            }
        }
        out.truncate(keep);
        if out[start..]
            .last()
            .is_some_and(|&b| b.is_ascii() && !(b as char).is_whitespace())
        {
            return;
        }
        // The last kept cell may still end in whitespace of its own.
        let tail = std::str::from_utf8(&out[start..]).map_or(0, |s| s.len() - s.trim_end().len());
        out.truncate(out.len() - tail);
    }

    /// All rows as text, one line each, every line ending with `\n`; control characters
    /// become U+FFFD, so printing it is safe on any terminal.
    pub fn text(&self) -> String {
        let mut out = Vec::with_capacity((self.size.cols as usize + 1) * self.size.rows as usize);
        for r in 0..self.rows.len() {
            let start = out.len();
            self.push_row_bytes(r, &mut out);
            // Control characters (C0, DEL, C1 — the last encoded as C2 80..9F) become U+FFFD;
            // a quick look at the bytes first, as they are rare.
            if out[start..]
                .iter()
                .any(|&b| b < 0x20 || b == 0x7f || b == 0xc2)
            {
                let row: String = String::from_utf8_lossy(&out[start..])
                    .chars()
                    .map(safe_char)
                    .collect();
                out.truncate(start);
                out.extend_from_slice(row.as_bytes());
            }
            out.push(b'\n');
        }
        // Cells hold whole UTF-8 text, so this does not fail; lossy all the same.
        match String::from_utf8(out) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }
    }
}

/// Control characters cannot be shown; they would act on the reader's terminal instead.
pub(crate) fn safe_char(ch: char) -> char {
    if ch.is_control() {
        '\u{fffd}'
    } else {
        ch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{Cell, Size};

    /// The text render the obvious way: each row's cells joined, trimmed, controls replaced.
    fn reference_text(screen: &Screen) -> String {
        let mut out = String::new();
        for row in &screen.rows {
            let joined: String = row
                .iter()
                .filter(|c| c.width > 0)
                .map(|c| c.text.as_str())
                .collect();
            out.extend(joined.trim_end().chars().map(safe_char));
            out.push('\n');
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn text_is_the_rows_trimmed_with_controls_replaced(
            rows in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::sample::select(vec![
                        " ", "a", "\t", "\u{b}", "\u{85}", "\u{a0}", "\u{3000}", "é",
                        "e\u{301}", "\u{1b}", "\u{7f}", "\u{9b}", "日", "", "x\u{2000}",
                    ]),
                    0..12,
                ),
                0..4,
            )
        ) {
            let screen = Screen {
                size: Size { cols: 12, rows: rows.len() as u16 },
                rows: rows
                    .iter()
                    .map(|r| {
                        r.iter()
                            .map(|t| Cell {
                                text: (*t).into(),
                                width: if t.is_empty() { 0 } else { 1 },
                                ..Cell::default()
                            })
                            .collect()
                    })
                    .collect(),
                cursor: Default::default(),
                title: None,
                alternate: false,
                state: Default::default(),
                modes: Default::default(),
            };
            proptest::prop_assert_eq!(screen.text(), reference_text(&screen));
        }
    }
}
