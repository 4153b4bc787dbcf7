//! Stand-ins: characters kept in avt's own cells with what avt's pen has no room for
//! (concealed text, bold and faint together, a hyperlink).

use std::collections::HashMap;

use unicode_width::UnicodeWidthChar;

/// Characters printed while conceal (SGR 8) was on, or bold and faint together, or protected
/// (DECSCA), or with a hyperlink ([`Extra`] and the link), remembered in avt's own grid.
///
/// avt has no conceal attribute, keeps one intensity, and its pen has no spare bit. So such
/// a character is printed into avt as a stand-in: a private code point of the same width (avt lays out only
/// by width), mapped back when the screen is read. The stand-in lives in the cell, so it
/// follows everything avt does to cells (erase, scroll, insert and delete, reflow on resize,
/// the alternate screen, wide characters) exactly as the character would, and an erased or
/// overwritten cell is no longer concealed, as in xterm.
///
/// Stand-ins come from code points programs almost never print: plane 16's private use area
/// (U+100000–U+10FFFD) for narrow characters, the unassigned end of plane 3 (from U+3FFFD
/// down) for wide ones. A character of those ranges that a program does print (shown or
/// not) gets a stand-in too, so every code point in them reads back as what was printed.
#[derive(Debug, Default)]
pub(super) struct StandIns {
    to_stand_in: HashMap<(char, Extra, u16), char>,
    from_stand_in: HashMap<char, (char, Extra, u16)>,
    /// Stand-ins given out so far, narrow and wide.
    used: [u32; 2],
}

/// What a cell holds beyond avt's cell: the attributes avt's pen has no room for.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Extra {
    /// Concealed (SGR 8).
    pub(super) hidden: bool,
    /// Bold and faint together (SGR 1 and 2, as xterm, tmux and xterm.js keep them): avt
    /// keeps one intensity, the last set.
    pub(super) bold_faint: bool,
    /// Protected from selective erase (DECSCA 1).
    pub(super) protected: bool,
}

impl Extra {
    /// Whether there is nothing beyond avt's cell.
    #[inline]
    pub(super) fn is_plain(self) -> bool {
        self == Extra::default()
    }
}

/// The ranges stand-ins come from, narrow then wide, allocated from the top down.
const STAND_IN_RANGES: [(u32, u32); 2] = [(0x10_0000, 0x10_fffd), (0x3_0000, 0x3_fffd)];

impl StandIns {
    pub(super) fn is_empty(&self) -> bool {
        self.from_stand_in.is_empty()
    }

    /// Whether `ch` is in the ranges stand-ins come from.
    #[inline]
    pub(super) fn in_range(ch: char) -> bool {
        let c = ch as u32;
        STAND_IN_RANGES
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&c))
    }

    /// The character to print into avt for `ch` with `extra`, with the engine's hyperlink
    /// number `link` (0: none). Hyperlinks ride on stand-ins too, so a link follows its cell
    /// wherever avt moves it.
    pub(super) fn stand_in(&mut self, ch: char, extra: Extra, link: u16) -> char {
        if let Some(&p) = self.to_stand_in.get(&(ch, extra, link)) {
            return p;
        }
        let wide = usize::from(avt_width(ch) == 2);
        let (lo, hi) = STAND_IN_RANGES[wide];
        while self.used[wide] <= hi - lo {
            let candidate = char::from_u32(hi - self.used[wide]);
            self.used[wide] += 1;
            if let Some(p) = candidate.filter(|&p| avt_width(p) == avt_width(ch)) {
                self.to_stand_in.insert((ch, extra, link), p);
                self.from_stand_in.insert(p, (ch, extra, link));
                return p;
            }
        }
        // Every stand-in is taken (tens of thousands of different concealed characters):
        // the character is shown, and one that would read as a stand-in is replaced.
        if self.from_stand_in.contains_key(&ch) {
            '\u{fffd}'
        } else {
            ch
        }
    }

    /// The character a cell of avt holds, what it has beyond avt's cell, and its hyperlink
    /// number.
    #[inline]
    pub(super) fn decode(&self, raw: char) -> (char, Extra, u16) {
        if self.is_empty() || !StandIns::in_range(raw) {
            return (raw, Extra::default(), 0);
        }
        self.from_stand_in
            .get(&raw)
            .copied()
            .unwrap_or((raw, Extra::default(), 0))
    }
}

/// The cells avt gives a character: 2 for wide ones, 1 for all others.
fn avt_width(ch: char) -> usize {
    if ch.width() == Some(2) {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::super::screen;
    use super::*;
    use crate::term::{AvtEngine, Color, Engine, Screen, Size};

    /// The concealed cells of a row, as a string of `h` (hidden) and `.`.
    fn hidden(s: &Screen, row: usize) -> String {
        s.rows[row]
            .iter()
            .map(|c| if c.attrs.hidden { 'h' } else { '.' })
            .collect()
    }

    #[test]
    fn conceal_marks_the_cells_printed_while_it_is_on() {
        let s = screen("a\x1b[8mbc\x1b[28md\x1b[8me\x1b[0mf");
        assert_eq!(s.row_text(0), "abcdef", "the text is kept");
        assert_eq!(hidden(&s, 0), ".hh.h.....");
        // Conceal with other attributes; forms that are not conceal.
        let s = screen("\x1b[1;8;31ma\x1b[0;38;5;8mb\x1b[48;5;8mc\x1b[0;08md\x1b[8;0me\x1b[8;22mf");
        assert_eq!(hidden(&s, 0), "h..h.h....");
        assert!(s.rows[0][0].attrs.bold && s.rows[0][0].fg == Color::Indexed(1));
        assert_eq!(s.rows[0][1].fg, Color::Indexed(8));
        assert_eq!(s.rows[0][2].bg, Color::Indexed(8));
        // A reset by `CSI m`, by DECSTR and by RIS ends it.
        assert_eq!(hidden(&screen("\x1b[8ma\x1b[mb"), 0), "h.........");
        assert_eq!(hidden(&screen("\x1b[8ma\x1b[!pb"), 0), "h.........");
        assert_eq!(hidden(&screen("\x1b[8ma\x1bcb"), 0), "..........");
        // Colon forms and underline colours go through the same reading.
        let s = screen("\x1b[8;4:3ma\x1b[58;5;1mb\x1b[28;4:0mc");
        assert_eq!(hidden(&s, 0), "hh........");
        assert!(s.rows[0][1].attrs.underline && !s.rows[0][2].attrs.underline);
    }

    #[test]
    fn concealed_cells_follow_erase_overwrite_and_insert_like_xterm() {
        // Erased cells are not concealed (they take only the background).
        let s = screen("\x1b[8mabcdef\x1b[1;3H\x1b[K");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("ab", "hh........")
        );
        let s = screen("\x1b[8mabcdef\x1b[1;2H\x1b[2X");
        assert_eq!(hidden(&s, 0), "h..hhh....");
        let s = screen("\x1b[8mabcdef\x1b[2J");
        assert_eq!(hidden(&s, 0), "..........");
        // Overwriting with conceal off shows the new character.
        let s = screen("\x1b[8mab\r\x1b[28mX");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("Xb", ".h........")
        );
        // Inserted blanks are not concealed; the concealed characters move.
        let s = screen("\x1b[8mab\x1b[28mcd\x1b[1;1H\x1b[2@");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("  abcd", "..hh......")
        );
        let s = screen("x\x1b[8mab\x1b[28mcd\x1b[1;1H\x1b[P");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("abcd", "hh........")
        );
        // Insert mode (IRM) pushes them right too.
        let s = screen("\x1b[8mab\x1b[28m\x1b[1;1H\x1b[4hZ");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("Zab", ".hh.......")
        );
    }

    #[test]
    fn concealed_cells_move_with_scrolling_and_line_insertion() {
        // A line feed at the bottom scrolls them up.
        let s = screen("\x1b[4;1H\x1b[8mlow\x1b[28m\n\n");
        assert_eq!(
            (s.row_text(1).as_str(), hidden(&s, 1).as_str()),
            ("low", "hhh.......")
        );
        assert_eq!(hidden(&s, 3), "..........");
        // SU, SD, IL, DL and RI in a scroll region.
        let s = screen("\x1b[2;1H\x1b[8mmid\x1b[28m\x1b[T");
        assert_eq!(hidden(&s, 2), "hhh.......");
        let s = screen("\x1b[2;1H\x1b[8mmid\x1b[28m\x1b[S");
        assert_eq!(hidden(&s, 0), "hhh.......");
        let s = screen("\x1b[2;1H\x1b[8mmid\x1b[28m\x1b[1;1H\x1b[L");
        assert_eq!(
            (hidden(&s, 1).as_str(), hidden(&s, 2).as_str()),
            ("..........", "hhh.......")
        );
        let s = screen("\x1b[2;1H\x1b[8mmid\x1b[28m\x1b[1;1H\x1b[M");
        assert_eq!(hidden(&s, 0), "hhh.......");
        let s = screen("\x1b[2;3r\x1b[2;1H\x1b[8mtop\x1b[28m\x1bM");
        assert_eq!(
            (hidden(&s, 1).as_str(), hidden(&s, 2).as_str()),
            ("..........", "hhh.......")
        );
        // Printing past the last column wraps (and scrolls) with conceal still on.
        let s = screen("\x1b[4;1H\x1b[8m0123456789ab");
        assert_eq!(
            (hidden(&s, 2).as_str(), hidden(&s, 3).as_str()),
            ("hhhhhhhhhh", "hh........")
        );
        assert_eq!(s.row_text(3), "ab");
    }

    #[test]
    fn conceal_is_saved_with_the_cursor_and_screens_keep_their_cells() {
        // DECSC saves the SGR attributes, conceal included; DECRC restores them.
        assert_eq!(
            hidden(&screen("\x1b[8m\x1b7\x1b[0m\x1b8x"), 0),
            "h........."
        );
        assert_eq!(hidden(&screen("\x1b7\x1b[8m\x1b8x"), 0), "..........");
        // The alternate screen starts clear; the primary's concealed cells come back.
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        e.feed("\x1b[8msecret\x1b[0m\x1b[?1049h");
        assert_eq!(hidden(&e.screen(), 0), "..........");
        e.feed("\x1b[1;1Halt\x1b[8mX");
        assert_eq!(hidden(&e.screen(), 0), "...h......");
        e.feed("\x1b[?1049l");
        let s = e.screen();
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("secret", "hhhhhh....")
        );
        // 1049 saves the pen with the cursor: conceal is back on after leaving.
        e.feed("\x1b[8m\x1b[?1049h\x1b[0m\x1b[?1049lz");
        assert!(e.screen().rows[0][6].attrs.hidden);
    }

    #[test]
    fn concealed_cells_survive_a_resize() {
        let mut e = AvtEngine::new(Size { cols: 10, rows: 4 });
        e.feed("ab\x1b[8mcd\x1b[28mef\r\n\x1b[8mxy");
        e.resize(Size { cols: 20, rows: 6 });
        let s = e.screen();
        assert_eq!(&hidden(&s, 0)[..6], "..hh..");
        assert_eq!(&hidden(&s, 1)[..3], "hh.");
        e.resize(Size { cols: 3, rows: 6 });
        let s = e.screen();
        assert_eq!(s.row_text(0), "def", "{:?}", s.text());
        for cell in s.rows.iter().flatten() {
            let was_concealed = matches!(cell.text.as_str(), "c" | "d" | "x" | "y");
            assert_eq!(cell.attrs.hidden, was_concealed, "{cell:?} after reflow");
        }
    }

    #[test]
    fn concealed_wide_characters_marks_and_repeats() {
        let s = screen("\x1b[8m日\x1b[28m本");
        assert_eq!(s.row_text(0), "日本");
        assert_eq!((s.rows[0][0].width, s.rows[0][1].width), (2, 0));
        assert_eq!(hidden(&s, 0), "hh........");
        // A wide character at the last column wraps as it would shown.
        let s = screen("\x1b[1;10H\x1b[8m日");
        assert_eq!(
            (s.rows[1][0].text.as_str(), hidden(&s, 1).as_str()),
            ("日", "hh........")
        );
        // Combining marks stay on a concealed character.
        let s = screen("\x1b[8me\u{301}\x1b[0mx");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("e\u{301}x", "h.........")
        );
        // REP repeats a concealed character concealed (as tmux does), with the current pen;
        // after SGR 28 it repeats nothing (nor in xterm, tmux and xterm.js: a sequence came
        // between the character and the REP).
        let s = screen("\x1b[8ma\x1b[2bX\x1b[28mb\x1b[2b");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("aaaXbbb", "hhhh......")
        );
        let s = screen("\x1b[8ma\x1b[28m\x1b[2b");
        assert_eq!(
            (s.row_text(0).as_str(), hidden(&s, 0).as_str()),
            ("a", "h.........")
        );
        let s = screen("ab\x1b[3b");
        assert_eq!(s.row_text(0), "abbbb");
    }

    #[test]
    fn characters_of_the_stand_in_ranges_read_back_as_printed() {
        let top = '\u{10fffd}';
        let wide_top = '\u{3fffd}';
        for input in [
            format!("{top}\x1b[8mx{wide_top}\x1b[0m{wide_top}y"),
            format!("\x1b[8mx{wide_top}\x1b[0m{top}{wide_top}y"),
        ] {
            let s = screen(&input);
            let cells: Vec<(&str, bool)> = s.rows[0][..7]
                .iter()
                .map(|c| (c.text.as_str(), c.attrs.hidden))
                .collect();
            if input.starts_with('\x1b') {
                assert_eq!(
                    cells,
                    [
                        ("x", true),
                        ("\u{3fffd}", true),
                        ("", true),
                        ("\u{10fffd}", false),
                        ("\u{3fffd}", false),
                        ("", false),
                        ("y", false)
                    ],
                    "{input:?}"
                );
            } else {
                assert_eq!(
                    cells,
                    [
                        ("\u{10fffd}", false),
                        ("x", true),
                        ("\u{3fffd}", true),
                        ("", true),
                        ("\u{3fffd}", false),
                        ("", false),
                        ("y", false)
                    ],
                    "{input:?}"
                );
            }
        }
    }

    #[test]
    fn every_stand_in_has_the_width_avt_gives_its_class() {
        for (class, &(lo, hi)) in STAND_IN_RANGES.iter().enumerate() {
            let odd = (lo..=hi)
                .filter_map(char::from_u32)
                .filter(|&c| avt_width(c) != class + 1)
                .count();
            assert_eq!(odd, 0, "range {lo:#x}..={hi:#x}");
        }
    }
}
