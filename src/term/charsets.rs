//! Character sets for the native engine: G0–G3 designation (`ESC ( F`, `ESC ) F`, `ESC * F`,
//! `ESC + F`), invocation (SI, SO, LS2, LS3) and single shifts (SS2, SS3), with the tables
//! xterm uses (avt knows only US ASCII and DEC special graphics, and draws two of the
//! graphics with other characters than xterm).

/// A 94-character set that can be designated into G0–G3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Charset {
    /// US ASCII (`B`), and the sets xterm treats as it (DEC alternate ROM `1` and `2`).
    #[default]
    Ascii,
    /// DEC special graphics and line drawing (`0`).
    DecGraphics,
    /// A national replacement set: ASCII with a few characters replaced.
    National(&'static [(char, char)]),
    /// The VT52 graphics set (`ESC F` in VT52 mode): 0x5f–0x7e as xterm prints them.
    Vt52Graphics,
}

impl Charset {
    /// The set a designation's final character names, as xterm reads it.
    pub(crate) fn from_final(f: char) -> Charset {
        match f {
            '0' => Charset::DecGraphics,
            'A' => Charset::National(&[('#', '£')]),
            '4' => Charset::National(&DUTCH),
            'C' | '5' => Charset::National(&FINNISH),
            'R' => Charset::National(&FRENCH),
            'Q' => Charset::National(&FRENCH_CANADIAN),
            'K' => Charset::National(&GERMAN),
            'Y' => Charset::National(&ITALIAN),
            'E' | '6' => Charset::National(&NORWEGIAN_DANISH),
            'Z' => Charset::National(&SPANISH),
            'H' | '7' => Charset::National(&SWEDISH),
            '=' => Charset::National(&SWISS),
            _ => Charset::Ascii,
        }
    }

    /// The character `ch` (printable ASCII) stands for in this set.
    #[inline]
    pub(crate) fn translate(self, ch: char) -> char {
        match self {
            Charset::Ascii => ch,
            Charset::DecGraphics => match ch {
                '`'..='~' => DEC_GRAPHICS[ch as usize - 0x60],
                _ => ch,
            },
            Charset::Vt52Graphics => match ch {
                '_'..='~' => VT52_GRAPHICS[ch as usize - 0x5f],
                _ => ch,
            },
            Charset::National(table) => table
                .iter()
                .find(|(from, _)| *from == ch)
                .map_or(ch, |(_, to)| *to),
        }
    }
}

/// DEC special graphics for 0x60–0x7e, as xterm and tmux draw them.
const DEC_GRAPHICS: [char; 31] = [
    '◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼', '⎺', '⎻', '─', '⎼',
    '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
];

/// The VT52 graphics set for 0x5f–0x7e, as xterm prints it (its print-screen function):
/// blanks for the fractions 3/, 5/ and 7/ and the reserved 0x60, which have no character of
/// their own, and each pair of the eight scan lines on one of DEC's four.
const VT52_GRAPHICS: [char; 32] = [
    ' ', ' ', '▮', '⅟', ' ', ' ', ' ', '°', '±', '→', '…', '÷', '↓', '⎺', '⎺', '⎻', '⎻', '⎼', '⎼',
    '⎽', '⎽', '₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉', '¶',
];

const DUTCH: [(char, char); 9] = [
    ('#', '£'),
    ('@', '¾'),
    ('[', 'ĳ'),
    ('\\', '½'),
    (']', '|'),
    ('{', '¨'),
    ('|', 'f'),
    ('}', '¼'),
    ('~', '´'),
];
const FINNISH: [(char, char); 9] = [
    ('[', 'Ä'),
    ('\\', 'Ö'),
    (']', 'Å'),
    ('^', 'Ü'),
    ('`', 'é'),
    ('{', 'ä'),
    ('|', 'ö'),
    ('}', 'å'),
    ('~', 'ü'),
];
const FRENCH: [(char, char); 9] = [
    ('#', '£'),
    ('@', 'à'),
    ('[', '°'),
    ('\\', 'ç'),
    (']', '§'),
    ('{', 'é'),
    ('|', 'ù'),
    ('}', 'è'),
    ('~', '¨'),
];
const FRENCH_CANADIAN: [(char, char); 10] = [
    ('@', 'à'),
    ('[', 'â'),
    ('\\', 'ç'),
    (']', 'ê'),
    ('^', 'î'),
    ('`', 'ô'),
    ('{', 'é'),
    ('|', 'ù'),
    ('}', 'è'),
    ('~', 'û'),
];
const GERMAN: [(char, char); 8] = [
    ('@', '§'),
    ('[', 'Ä'),
    ('\\', 'Ö'),
    (']', 'Ü'),
    ('{', 'ä'),
    ('|', 'ö'),
    ('}', 'ü'),
    ('~', 'ß'),
];
const ITALIAN: [(char, char); 10] = [
    ('#', '£'),
    ('@', '§'),
    ('[', '°'),
    ('\\', 'ç'),
    (']', 'é'),
    ('`', 'ù'),
    ('{', 'à'),
    ('|', 'ò'),
    ('}', 'è'),
    ('~', 'ì'),
];
const NORWEGIAN_DANISH: [(char, char); 10] = [
    ('@', 'Ä'),
    ('[', 'Æ'),
    ('\\', 'Ø'),
    (']', 'Å'),
    ('^', 'Ü'),
    ('`', 'ä'),
    ('{', 'æ'),
    ('|', 'ø'),
    ('}', 'å'),
    ('~', 'ü'),
];
const SPANISH: [(char, char); 8] = [
    ('#', '£'),
    ('@', '§'),
    ('[', '¡'),
    ('\\', 'Ñ'),
    (']', '¿'),
    ('{', '°'),
    ('|', 'ñ'),
    ('}', 'ç'),
];
const SWEDISH: [(char, char); 10] = [
    ('@', 'É'),
    ('[', 'Ä'),
    ('\\', 'Ö'),
    (']', 'Å'),
    ('^', 'Ü'),
    ('`', 'é'),
    ('{', 'ä'),
    ('|', 'ö'),
    ('}', 'å'),
    ('~', 'ü'),
];
const SWISS: [(char, char); 12] = [
    ('#', 'ù'),
    ('@', 'à'),
    ('[', 'é'),
    ('\\', 'ç'),
    (']', 'ê'),
    ('^', 'î'),
    ('_', 'è'),
    ('`', 'ô'),
    ('{', 'ä'),
    ('|', 'ö'),
    ('}', 'ü'),
    ('~', 'û'),
];

/// G0–G3, which of them is invoked into GL, and a pending single shift.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Charsets {
    sets: [Charset; 4],
    /// The final character of each designation (DECCIR reports them); 0 for `B`, the default.
    finals: [u8; 4],
    gl: usize,
    single: Option<usize>,
}

impl Charsets {
    /// `ESC I F`: designates the set `f` into G0–G3 (`I` is `(`, `)`, `*` or `+`). Returns
    /// false for other intermediates.
    pub(crate) fn designate(&mut self, intermediate: char, f: char) -> bool {
        let g = match intermediate {
            '(' => 0,
            ')' => 1,
            '*' => 2,
            '+' => 3,
            _ => return false,
        };
        self.sets[g] = Charset::from_final(f);
        self.finals[g] = if f == 'B' || !f.is_ascii() {
            0
        } else {
            f as u8
        };
        true
    }

    /// The designations of G0–G3 as DECCIR reports them: their final characters (`BBBB`).
    pub(crate) fn designations(&self) -> String {
        self.finals
            .iter()
            .map(|&f| if f == 0 { 'B' } else { char::from(f) })
            .collect()
    }

    /// The set invoked into GL (0–3).
    pub(crate) fn gl(&self) -> usize {
        self.gl
    }

    /// The single shift waiting for the next printed character (2 or 3), if any.
    pub(crate) fn pending_shift(&self) -> Option<usize> {
        self.single
    }

    /// Invokes G`g` into GL (SI: 0, SO: 1, LS2: 2, LS3: 3).
    pub(crate) fn shift(&mut self, g: usize) {
        self.gl = g.min(3);
    }

    /// A single shift (SS2: 2, SS3: 3): the next printed character comes from G`g`.
    pub(crate) fn single_shift(&mut self, g: usize) {
        self.single = Some(g.min(3));
    }

    /// The character to draw for a printed `ch`.
    #[inline]
    pub(crate) fn translate(&mut self, ch: char) -> char {
        let g = self.single.take().unwrap_or(self.gl);
        if ch.is_ascii() {
            self.sets[g].translate(ch)
        } else {
            ch
        }
    }

    /// Designates `set` into G0 (VT52 mode's `ESC F` and `ESC G`).
    pub(crate) fn set_g0(&mut self, set: Charset) {
        self.sets[0] = set;
        self.finals[0] = 0;
    }

    /// Whether a single shift (SS2, SS3) waits for the next printed character.
    pub(crate) fn single_shift_pending(&self) -> bool {
        self.single.is_some()
    }

    /// True when every set is ASCII and G0 is invoked: printing needs no translation.
    #[inline]
    pub(crate) fn is_plain(&self) -> bool {
        self.gl == 0 && self.single.is_none() && self.sets[0] == Charset::Ascii
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn designations_shifts_and_tables() {
        let mut c = Charsets::default();
        assert!(c.is_plain());
        assert!(c.designate(')', '0'));
        assert_eq!(c.translate('q'), 'q');
        c.shift(1);
        assert_eq!(c.translate('q'), '─');
        assert_eq!(c.translate('`'), '◆');
        assert_eq!(c.translate('~'), '·');
        assert_eq!(c.translate('_'), '_');
        c.shift(0);
        c.designate('(', 'A');
        assert_eq!(c.translate('#'), '£');
        c.designate('+', 'K');
        c.single_shift(3);
        assert_eq!(c.translate('~'), 'ß');
        assert_eq!(c.translate('~'), '~');
        c.designate('(', 'B');
        assert!(c.is_plain());
        assert!(!c.designate('-', 'A'));
    }
}
