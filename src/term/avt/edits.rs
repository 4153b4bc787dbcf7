//! Edits avt has no function for, made of the ones it has: selective erase (DECSED and DECSEL:
//! erase but for the cells DECSCA protected) and the column scrolls SL and SR. Each moves
//! avt's cursor to the cells it changes, erases, inserts or deletes there with only the pen's
//! background (as this layer's other erases, BCE), and puts the cursor back where it was,
//! pending wrap and all.

use avt::parser::{AnsiMode, DecMode, EdScope, Function, SgrOp};

use super::AvtEngine;

impl AvtEngine {
    /// DECSED (`CSI ? Ps J`, `display`) or DECSEL (`CSI ? Ps K`): what ED or EL with `ps`
    /// erases, but for the cells printed while DECSCA protection was on, as xterm's
    /// `do_erase_display` and `do_erase_line` with `DEC_PROTECT` (ED, EL and ECH ignore the
    /// protection, as in xterm: DEC protection guards only against these two). `CSI ? 3 J`
    /// erases the saved lines, as `CSI 3 J` does. The cells are those ED and EL erase here,
    /// and the cursor stays as they leave it, its pending wrap too (as ED and EL do in tmux,
    /// and DECSED and DECSEL in xterm.js; xterm's erases end the pending wrap, and take the
    /// last column as the cursor's).
    pub(super) fn selective_erase(&mut self, display: bool, ps: u16) {
        let cols = usize::from(self.size.cols);
        let rows = usize::from(self.size.rows);
        let cursor = self.terminal.cursor();
        let (row, col) = (cursor.row, cursor.col);
        let through_cursor = (col + 1).min(cols);
        let whole = |r: usize| (r, 0, cols);
        // (row, first column, end column) of each part.
        let parts: Vec<(usize, usize, usize)> = match (display, ps) {
            (false, 0) => vec![(row, col, cols)],
            (false, 1) => vec![(row, 0, through_cursor)],
            (false, 2) => vec![whole(row)],
            (true, 0) => std::iter::once((row, col, cols))
                .chain((row + 1..rows).map(whole))
                .collect(),
            (true, 1) => (0..row)
                .map(whole)
                .chain(std::iter::once((row, 0, through_cursor)))
                .collect(),
            (true, 2) => (0..rows).map(whole).collect(),
            (true, 3) => return self.execute(Function::Ed(EdScope::SavedLines)),
            _ => return,
        };
        let runs = self.unprotected_runs(&parts);
        if !self.marks.is_empty() {
            self.marks.retain(|&(r, c), _| {
                let (r, c) = (usize::from(r), usize::from(c));
                !runs
                    .iter()
                    .any(|&(row, from, n)| row == r && (from..from + n).contains(&c))
            });
        }
        self.edit(cursor, |e| {
            for &(r, from, n) in &runs {
                e.goto(r, from);
                e.terminal.execute(Function::Ech(n as u16));
            }
        });
    }

    /// SL (`CSI Ps SP @`, `left`) or SR (`CSI Ps SP A`): the rows of the scroll region
    /// shifted `n` columns left or right, blanks coming in on the other side, as xterm's
    /// `xtermScrollLR` does: only with the cursor inside the region, which stays where it was
    /// (its pending wrap too). From the column `at` (0 for SL and SR): DECDC and DECIC.
    pub(super) fn scroll_columns(&mut self, left: bool, n: u16, at: usize) {
        let cursor = self.terminal.cursor();
        let (top, bottom) = (usize::from(self.margins.0), usize::from(self.margins.1));
        if cursor.row < top || cursor.row > bottom {
            return;
        }
        if !self.marks.is_empty() {
            // Marks go with their cells (and those of the cells deleted with them).
            let n = usize::from(n).min(usize::from(self.size.cols) - at);
            for r in top..=bottom {
                if left {
                    self.unmark(r, at..at + n);
                    self.shift_marks(r, at + n, -(n as isize));
                } else {
                    self.shift_marks(r, at, n as isize);
                }
            }
        }
        self.edit(cursor, |e| {
            for r in top..=bottom {
                e.goto(r, at);
                e.terminal.execute(if left {
                    Function::Dch(n)
                } else {
                    Function::Ich(n)
                });
            }
        });
    }

    /// DECBI (`back`) and DECFI: the cursor one column back (forward), or at the first
    /// (last) column the region's columns one to the right (left), as in xterm.
    pub(super) fn column_index(&mut self, back: bool) {
        let col = self.terminal.cursor().col;
        let cols = usize::from(self.size.cols);
        match (back, col) {
            (true, 0) => self.scroll_columns(false, 1, 0),
            (true, _) => self.execute(Function::Cub(1)),
            (false, c) if c + 1 >= cols => self.scroll_columns(true, 1, 0),
            (false, _) => self.execute(Function::Cuf(1)),
        }
    }

    /// The runs (row, first column, length) of cells in `parts` that are not protected. The
    /// right half of a wide character is protected with its left half.
    fn unprotected_runs(&self, parts: &[(usize, usize, usize)]) -> Vec<(usize, usize, usize)> {
        let mut runs = Vec::new();
        for &(row, from, to) in parts {
            let Some(line) = self.terminal.view().nth(row) else {
                continue;
            };
            let cells = line.cells();
            let protected = |c: usize| {
                let head = if c > 0 && cells[c].width() == 0 {
                    c - 1
                } else {
                    c
                };
                self.stand_ins.decode(cells[head].char()).1.protected
            };
            let mut c = from;
            while c < to {
                if protected(c) {
                    c += 1;
                    continue;
                }
                let start = c;
                while c < to && !protected(c) {
                    c += 1;
                }
                runs.push((row, start, c - start));
            }
        }
        runs
    }

    /// Runs `edit` on avt with its cursor free to move to any row (origin mode off) and its
    /// pen holding only the background, then puts back the pen, origin mode and `cursor`,
    /// at the pending wrap if it was there.
    pub(super) fn edit(&mut self, cursor: avt::terminal::Cursor, edit: impl FnOnce(&mut Self)) {
        let origin = self.modes.modes.origin;
        if origin {
            self.terminal
                .execute(Function::Decrst(vec![DecMode::Origin]));
        }
        let bce = !self.pen.pen.is_background_only();
        if bce {
            self.terminal
                .execute(Function::Sgr(self.pen.pen.background_ops()));
        }
        edit(self);
        let cols = usize::from(self.size.cols);
        let col = cursor.col.min(cols - 1);
        let (top, bottom) = (usize::from(self.margins.0), usize::from(self.margins.1));
        if origin && (cursor.row < top || cursor.row > bottom) {
            // In origin mode only DECRC puts the cursor outside the scroll region, and no
            // CUP brings it back there: DECRC again (the slot holds the row it put it on),
            // line feeds or reverse ones to the row it went to since (outside the region
            // they do not scroll), then the column, auto-wrap and pen as they were.
            self.terminal.execute(Function::Decrc);
            let from = self.terminal.cursor().row;
            let outside = |r: usize| r < top || r > bottom;
            if outside(from) && (from < top) == (cursor.row < top) {
                for _ in cursor.row..from {
                    self.terminal.execute(Function::Ri);
                }
                for _ in from..cursor.row {
                    self.terminal.execute(Function::Lf);
                }
            }
            self.terminal.execute(Function::Cha(col as u16 + 1));
            let autowrap = self.modes.modes.autowrap;
            self.terminal.execute(if autowrap {
                Function::Decset(vec![DecMode::AutoWrap])
            } else {
                Function::Decrst(vec![DecMode::AutoWrap])
            });
            self.terminal.execute(Function::Sgr(self.pen.pen.ops()));
        } else if origin {
            // (Origin mode homes the cursor; rows count from the top margin again.)
            self.terminal
                .execute(Function::Decset(vec![DecMode::Origin]));
            let top = usize::from(self.margins.0);
            let row = cursor.row.saturating_sub(top);
            self.terminal
                .execute(Function::Cup(row as u16 + 1, col as u16 + 1));
        } else {
            self.goto(cursor.row, col);
        }
        let rewrap = cursor.col >= cols;
        if rewrap {
            self.reprint_last_cell(cursor.row);
        }
        if bce || rewrap {
            self.terminal.execute(Function::Sgr(self.pen.pen.ops()));
        }
    }

    /// Moves avt's cursor to (`row`, `col`) from 0, origin mode off.
    pub(super) fn goto(&mut self, row: usize, col: usize) {
        self.terminal
            .execute(Function::Cup(row as u16 + 1, col as u16 + 1));
    }

    /// Brings back the pending wrap on `row`: the character on the last column (or the wide
    /// one ending there) printed again as it is, with its own pen, which leaves avt's cursor
    /// past it (avt has no other way to put it there). Insert mode is off and auto-wrap on
    /// meanwhile, so that the cell is only rewritten.
    pub(super) fn reprint_last_cell(&mut self, row: usize) {
        let cols = usize::from(self.size.cols);
        let Some(line) = self.terminal.view().nth(row) else {
            return;
        };
        let cells = line.cells();
        let col = if cols >= 2 && cells[cols - 1].width() == 0 {
            cols - 2
        } else {
            cols - 1
        };
        let cell = cells[col];
        let (insert, autowrap) = (self.modes.insert, self.modes.modes.autowrap);
        self.terminal.execute(Function::Cha(col as u16 + 1));
        if insert {
            self.terminal.execute(Function::Rm(vec![AnsiMode::Insert]));
        }
        if !autowrap {
            self.terminal
                .execute(Function::Decset(vec![DecMode::AutoWrap]));
        }
        self.terminal.execute(Function::Sgr(pen_ops(cell.pen())));
        self.terminal.execute(Function::Print(cell.char()));
        if !autowrap {
            self.terminal
                .execute(Function::Decrst(vec![DecMode::AutoWrap]));
        }
        if insert {
            self.terminal.execute(Function::Sm(vec![AnsiMode::Insert]));
        }
    }
}

/// SGR operations that make avt's pen `pen`.
pub(super) fn pen_ops(pen: &avt::Pen) -> Vec<SgrOp> {
    let mut ops = vec![SgrOp::Reset];
    ops.extend(pen.foreground().map(SgrOp::SetForegroundColor));
    ops.extend(pen.background().map(SgrOp::SetBackgroundColor));
    for (on, op) in [
        (pen.is_bold(), SgrOp::SetBoldIntensity),
        (pen.is_faint(), SgrOp::SetFaintIntensity),
        (pen.is_italic(), SgrOp::SetItalic),
        (pen.is_underline(), SgrOp::SetUnderline),
        (pen.is_blink(), SgrOp::SetBlink),
        (pen.is_inverse(), SgrOp::SetInverse),
        (pen.is_strikethrough(), SgrOp::SetStrikethrough),
    ] {
        if on {
            ops.push(op);
        }
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::super::screen;
    use crate::term::{AvtEngine, Color, Engine, Screen, Size};

    /// Rows 0 and 1 as text, with `|` between.
    fn rows(s: &Screen) -> String {
        format!("{}|{}", s.row_text(0), s.row_text(1))
    }

    const ON: &str = "\x1b[1\"q";
    const OFF: &str = "\x1b[0\"q";

    #[test]
    fn selective_erase_spares_the_protected_cells() {
        let cases = [
            // DECSEL 2, 0 and 1.
            (format!("a{ON}bc{OFF}d\x1b[?2K"), " bc|"),
            (format!("ab{ON}cd{OFF}ef\x1b[1;2H\x1b[?K"), "a cd|"),
            (format!("{ON}ab{OFF}cdef\x1b[1;4H\x1b[?1K"), "ab  ef|"),
            // DECSED 0, 1 and 2, across rows.
            (
                format!("a{ON}b{OFF}c\r\nd{ON}e{OFF}f\x1b[1;3H\x1b[?J"),
                "ab| e",
            ),
            (
                format!("a{ON}b{OFF}c\r\nd{ON}e{OFF}f\x1b[2;2H\x1b[?1J"),
                " b| ef",
            ),
            (format!("a{ON}b{OFF}c\r\nd{ON}e{OFF}f\x1b[?2J"), " b| e"),
            // DECSCA 2 is off too, another value changes nothing; SGR 0 keeps it.
            (format!("{ON}a\x1b[2\"qb\x1b[?2K"), "a|"),
            (format!("{ON}a\x1b[5\"qb\x1b[?2K"), "ab|"),
            (format!("{ON}\x1b[0ma\x1b[?2K"), "a|"),
            // DECSTR and RIS end it; DECSC saves it, DECRC restores it.
            (format!("{ON}\x1b[!pa\x1b[?2K"), "|"),
            (format!("{ON}\x1b7{OFF}\x1b8a\x1b[?2K"), "a|"),
            // A cell erased or printed over is not protected any more.
            (format!("{ON}ab{OFF}\x1b[H\x1b[X\x1b[?2K"), " b|"),
            (format!("{ON}ab{OFF}\x1b[Hx\x1b[?2K"), " b|"),
            // Both halves of a protected wide character stay; a combining mark with its cell.
            (format!("{ON}\u{65e5}{OFF}x\x1b[?2K"), "\u{65e5}|"),
            (format!("{ON}e\u{301}{OFF}x\u{301}\x1b[?2K"), "e\u{301}|"),
            ("e\u{301}\x1b[?2K".to_string(), "|"),
            // Protected cells move with insertion, deletion and scrolling.
            (format!("{ON}a{OFF}\x1b[H\x1b[2@\x1b[?2K"), "  a|"),
            (format!("\n{ON}a{OFF}\x1b[S\x1b[?2J"), "a|"),
        ];
        for (input, want) in cases {
            assert_eq!(rows(&screen(&input)), want, "{input:?}");
        }
    }

    #[test]
    fn ordinary_erases_ignore_protection_as_in_xterm() {
        for (input, want) in [
            (format!("{ON}abc\x1b[H\x1b[K"), "|"),
            (format!("{ON}abc\x1b[1;2H\x1b[1K"), "  c|"),
            (format!("{ON}abc\x1b[H\x1b[2X"), "  c|"),
            (format!("{ON}abc\r\nd\x1b[2J"), "|"),
        ] {
            assert_eq!(rows(&screen(&input)), want, "{input:?}");
        }
    }

    #[test]
    fn selective_erase_takes_the_background_and_leaves_the_cursor() {
        let s = screen("\x1b[1;4;31;44mab\x1b[?2Kx");
        let cell = &s.rows[0][0];
        assert_eq!((cell.bg, cell.fg), (Color::Indexed(4), Color::Default));
        assert!(cell.attrs.is_empty());
        assert_eq!(rows(&s), "  x|", "the cursor stayed");
        assert!(s.rows[0][2].attrs.bold, "and the pen");
        // In origin mode, inside a scroll region.
        let s = screen("\x1b[2;3r\x1b[?6h\x1b[2;2Hab\x1b[?2Jc");
        assert_eq!((s.cursor.row, s.cursor.col), (2, 4));
        // The pending wrap stays, as after EL (and in tmux and xterm.js).
        assert_eq!(rows(&screen("0123456789\x1b[?1KZ")), "|Z");
        assert_eq!(rows(&screen("0123456789\x1b[?KZ")), "0123456789|Z");
        let s = screen(&format!("{ON}0123456789\x1b[?1KZ"));
        assert_eq!(rows(&s), "0123456789|Z");
        let s = screen(&format!("01234{ON}56789\x1b[?2JZ"));
        assert_eq!(rows(&s), "     56789|Z");
        let s = screen(&format!("{ON}01234567\u{65e5}\x1b[?1KZ"));
        assert_eq!(
            rows(&s),
            "01234567\u{65e5}|Z",
            "a wide character on the last column"
        );
        // CSI ? 3 J erases the saved lines, as CSI 3 J does.
        let mut e = AvtEngine::new(Size { cols: 10, rows: 2 });
        e.feed("1\r\n2\r\n3\r\n");
        assert!(!e.screen().state.scrollback.is_empty());
        e.feed("\x1b[?3J");
        assert!(e.screen().state.scrollback.is_empty());
    }

    #[test]
    fn sl_and_sr_scroll_the_regions_columns() {
        for (input, want) in [
            ("abcdef\x1b[2 @", "cdef|"),
            ("abcdef\x1b[2 A", "  abcdef|"),
            ("abc\x1b[ @", "bc|"),
            ("abc\x1b[0 A", " abc|"),
            ("ab\r\ncd\x1b[ @", "b|d"),
            ("abcdef\x1b[99 @", "|"),
            // Only the scroll region's rows, and only with the cursor inside it.
            ("a\r\nb\r\nc\x1b[2;3r\x1b[2;1H\x1b[ A", "a| b"),
            ("a\r\nb\x1b[2;3r\x1b[ A", "a|b"),
            // The cursor stays, pending wrap and all.
            ("abc\x1b[ @x", "bc x|"),
            ("0123456789\x1b[ @Z", "123456789|Z"),
            ("0123456789\x1b[ AZ", " 012345678|Z"),
            ("01234567\u{65e5}\x1b[ @Z", "1234567\u{65e5}|Z"),
            // Combining marks and protection go with their cells.
            ("ae\u{301}\x1b[ @", "e\u{301}|"),
            ("e\u{301}\x1b[2 A", "  e\u{301}|"),
        ] {
            assert_eq!(rows(&screen(input)), want, "{input:?}");
        }
        let s = screen(&format!("a{ON}b{OFF}\x1b[ @\x1b[?2K"));
        assert_eq!(rows(&s), "b|");
        // Blanks come in with only the background.
        let s = screen("\x1b[1;44mabc\x1b[ A");
        let cell = &s.rows[0][0];
        assert_eq!(cell.bg, Color::Indexed(4));
        assert!(!cell.attrs.bold);
        assert!(s.rows[0][1].attrs.bold);
        // In insert mode and with auto-wrap off the pending wrap is put back as it was.
        let s = screen("\x1b[4h0123456789\x1b[ @Z");
        assert_eq!(rows(&s), "123456789|Z");
        let s = screen("0123456789\x1b[?7l\x1b[ @\x1b[?7hZ");
        assert_eq!(rows(&s), "123456789|Z");
    }
}
