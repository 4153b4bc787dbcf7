//! What the native engine tells a program that asks (the recorder's answers to its queries,
//! `src/record/query.rs`): the cursor, the modes it keeps, the presentation state (DECCIR,
//! DECTABSR), the settings DECRQSS reports and DEC's checksum of a rectangle (DECRQCRA), each
//! as xterm 379 (a VT520) gives it. Reading them changes nothing, so replay is the same
//! whether or not a program asked.

use super::grid::{flag, MARKED};
use super::NativeEngine;
use crate::pos::Ordinal;

impl NativeEngine {
    /// The cursor as CPR reports it: row and column from 1, the row counted from the scroll
    /// region's top in origin mode; a cursor at the pending wrap is in the last column.
    pub(crate) fn cursor_report(&self) -> (Ordinal, Ordinal) {
        let top = if self.modes.origin { self.top } else { 0 };
        let col = self.col.min(self.cols() - 1);
        (Ordinal::of(self.row.saturating_sub(top)), Ordinal::of(col))
    }

    /// The state of a mode this engine keeps, `CSI ? mode $ p` (`dec`) or `CSI mode $ p`:
    /// `Some(true)` set, `Some(false)` reset, `None` for a mode it does not keep.
    pub(crate) fn mode_state(&self, dec: bool, mode: u16) -> Option<bool> {
        if !dec {
            return match mode {
                4 => Some(self.insert),
                20 => Some(self.newline),
                _ => None,
            };
        }
        match mode {
            25 => Some(self.visible),
            _ => self.modes.dec(mode),
        }
    }

    /// DECCIR's data (`CSI 1 $ w`), after `1$u`: the cursor (absolute, from 1; the last
    /// column at the pending wrap), page 1, the rendition (bold 1, underline 2, blink 4,
    /// inverse 8), the protection, the flags (origin 1, SS2 2, SS3 4, pending wrap 8), the
    /// sets in GL and GR, the sizes of the sets (`O`, as xterm 379 answers) and the four
    /// designations.
    pub(crate) fn presentation_state(&self) -> String {
        let f = |b: u16| self.pen.flags & b != 0;
        let rend = 0x40
            | u8::from(f(flag::BOLD))
            | u8::from(f(flag::UNDERLINE)) << 1
            | u8::from(f(flag::BLINK)) << 2
            | u8::from(f(flag::INVERSE)) << 3;
        let att = 0x40 | u8::from(f(flag::PROTECTED));
        let single = self.charsets.pending_shift();
        let sflag = 0x40
            | u8::from(self.modes.origin)
            | u8::from(single == Some(2)) << 1
            | u8::from(single == Some(3)) << 2
            | u8::from(self.col >= self.cols()) << 3;
        format!(
            "{};{};1;{};{};{};{};2;O;{}",
            Ordinal::of(self.row),
            Ordinal::of(self.col.min(self.cols() - 1)),
            char::from(rend),
            char::from(att),
            char::from(sflag),
            self.charsets.gl(),
            self.charsets.designations(),
        )
    }

    /// DECTABSR's data (`CSI 2 $ w`), after `2$u`: the tab stops, from 1, separated by `/`
    /// (xterm counts the stop of a fresh screen at the column past its last, too).
    pub(crate) fn tab_stops_report(&self) -> String {
        let stops = self.tabs.stops(self.cols());
        let list: Vec<String> = stops.iter().map(|&c| Ordinal::of(c).to_string()).collect();
        list.join("/")
    }

    /// DECRQCRA's checksum of the rectangle in `params` (`Pid ; Pp ; Pt ; Pl ; Pb ; Pr`, the
    /// first two skipped when there are more than two, as in xterm), relative to the scroll
    /// region in origin mode and cut at the screen's edges; 0 for an empty rectangle.
    ///
    /// xterm 379's sum: each written cell counts its character's low byte (the right half
    /// of a wide character 0xff), plus 0x80 when bold, 0x40 blinking, 0x20 inverse, 0x10
    /// underlined (concealed text counts as a space); blank cells count nothing, except
    /// that a blank first cell counts 0x20. The answer is the sum's negative, in 16 bits, with the number of cells summed (the work it
    /// took). A space a
    /// program wrote is blank here: the engine does not tell it from an erased cell
    /// (xterm counts it 0x20; docs/conformance.md lists the difference).
    pub(crate) fn checksum(&self, params: &[u16]) -> (u16, u64) {
        let rect = if params.len() > 2 {
            &params[2..]
        } else {
            params
        };
        let p = |i: usize| rect.get(i).copied().filter(|&v| v > 0);
        let (rows, cols) = (self.nrows(), self.cols());
        let (base, limit) = if self.modes.origin {
            (self.top, self.bottom + 1)
        } else {
            (0, rows)
        };
        let ordinal =
            |v: Option<u16>| Ordinal::new(usize::from(v.unwrap_or(1))).map_or(0, Ordinal::index);
        let top = base + ordinal(p(0));
        let left = ordinal(p(1));
        let bottom = p(2).map_or(limit, |b| (base + usize::from(b)).min(limit));
        let right = p(3).map_or(cols, |r| usize::from(r).min(cols));
        if top >= bottom || left >= right {
            return (0, 0);
        }
        let mut total: u32 = 0;
        for (r, row) in self.rows.iter().enumerate().take(bottom).skip(top) {
            for (c, cell) in row.cells.iter().enumerate().take(right).skip(left) {
                let ch = if cell.width == 0 {
                    0xff
                } else if cell.ch >= MARKED {
                    self.cell_text(cell.ch).0 as u32
                } else {
                    cell.ch
                };
                if ch == u32::from(b' ') && cell.width != 0 {
                    if r == top && c == left {
                        total += 0x20;
                    }
                    continue;
                }
                // Concealed text counts as a space.
                let ch = if cell.pen.flags & flag::HIDDEN != 0 {
                    0x20
                } else {
                    ch
                };
                let f = |b: u16, v: u32| if cell.pen.flags & b != 0 { v } else { 0 };
                total += (ch & 0xff)
                    + f(flag::BOLD, 0x80)
                    + f(flag::BLINK, 0x40)
                    + f(flag::INVERSE, 0x20)
                    + f(flag::UNDERLINE, 0x10);
            }
        }
        let cells = (bottom - top) as u64 * (right - left) as u64;
        ((total as u16).wrapping_neg(), cells)
    }

    /// Whether the pen writes protected text (DECSCA 1).
    pub(crate) fn protected_pen(&self) -> bool {
        self.pen.flags & flag::PROTECTED != 0
    }
}
