//! The fast paths of feeding: runs of printable text, C0 controls, escape sequences and whole
//! control sequences read without stepping avt's parser or the sequence tracker, where those
//! would only come back to the ground state (each property-tested against the slow path).

use super::*;

impl AvtEngine {
    /// Prints a run of printable text at the start of `text` straight into avt, when nothing
    /// this layer fixes can apply: no sequence in progress, plain character sets, no
    /// combining marks, no concealed pen, and no wrap (the run stops where the cursor would
    /// wrap). The run is printable ASCII and characters from U+00A0 one cell wide (line
    /// drawing, accents: full-screen programs draw boxes with them), never a stand-in for
    /// concealed text; it stops at anything else (a control, a wide or zero-width
    /// character). avt's parser turns such a character into `Print` and nothing else, and so
    /// does the sequence tracker, so skipping them changes nothing. Returns how many bytes
    /// were printed, or None when the fast path does not apply.
    #[inline]
    pub(super) fn text_run(&mut self, text: &str) -> Option<usize> {
        if self.parser.state != State::Ground
            || !self.seq.is_ground()
            || !self.marks.is_empty()
            || !self.charsets.is_plain()
            || !self.pen.pen.extra().is_plain()
            || self.link != 0
        {
            return None;
        }
        let col = self.terminal.cursor().col;
        let mut room = (self.size.cols as usize).checked_sub(col)?;
        let bytes = text.as_bytes();
        let mut i = 0;
        while room > 0 && i < bytes.len() {
            let b = bytes[i];
            let ch = if (0x20..0x7f).contains(&b) {
                i += 1;
                b as char
            } else if b < 0xc2 {
                break; // a control, DEL, or (0x80..0xc2) no start of a printable character
            } else {
                let ch = text[i..].chars().next().expect("at a char boundary");
                // (Stand-ins come from planes 3 and 16.)
                if ch < '\u{a0}' || ch.width() != Some(1) || StandIns::in_range(ch) {
                    break;
                }
                i += ch.len_utf8();
                ch
            };
            self.terminal.execute(Function::Print(ch));
            room -= 1;
        }
        if i == 0 {
            return None;
        }
        // Every character took a column: the last went into the one before what is left.
        self.last_graphic = LastGraphic::Column((usize::from(self.size.cols) - room - 1) as u16);
        Some(i)
    }

    #[inline]
    pub(super) fn feed_char(&mut self, ch: char) {
        let seq = self.seq.feed(ch);
        let before = self.parser.state;
        let f = self.parser.feed(ch);
        if before == State::Ground && self.parser.state == State::Ground {
            if let Some(Function::Print(c)) = &f {
                // The common case: read the character through a reference; moving the whole
                // `Function` right after the parser wrote it costs a store-forwarding stall.
                let c = *c;
                return self.print(c);
            }
        }
        let special = match &seq {
            None => None,
            Some(seq) => {
                let special = Special::of(seq);
                count_unknown(&mut self.unsupported, seq, &special, f.as_ref());
                special
            }
        };
        if ch == '\x07' && rings(before) {
            self.bells = self.bells.saturating_add(1);
        }
        self.apply(special, f);
    }

    /// The function of a C0 control that moves the cursor (BS, HT, LF, VT, FF, CR), read in
    /// the ground state: avt's parser executes it and stays there, and the sequence tracker
    /// ignores it. None for anything else (BEL rings, SO and SI shift, ESC starts a sequence:
    /// the character-at-a-time path reads those).
    #[inline]
    pub(super) fn control(&self, b: u8) -> Option<Function> {
        if !(0x08..=0x0d).contains(&b)
            || self.parser.state != State::Ground
            || !self.seq.is_ground()
        {
            return None;
        }
        Some(match b {
            0x08 => Function::Bs,
            0x09 => Function::Ht,
            0x0d => Function::Cr,
            _ => Function::Lf,
        })
    }

    /// Runs a whole escape sequence `ESC I… F` (at most four intermediates `I` from SP to
    /// `/`, a final `F` from `0` to `~`) at the start of `text` through avt's parser without
    /// the sequence tracker, which would report it and be back in the ground state: its
    /// meaning to this layer is read from `text`. Not for the finals that start a control
    /// sequence or a string (`[`, `]`, `P`, `X`, `^`, `_`). ncurses sends `ESC ( B` with every
    /// attribute reset. Returns the bytes consumed, or None.
    #[inline]
    pub(super) fn esc_run(&mut self, text: &str) -> Option<usize> {
        let b = text.as_bytes();
        if b.len() < 2
            || b[0] != 0x1b
            || self.parser.state != State::Ground
            || !self.seq.is_ground()
        {
            return None;
        }
        let mut j = 1;
        while j < b.len() && j <= 4 && (0x20..0x30).contains(&b[j]) {
            j += 1;
        }
        let fin = *b.get(j)?;
        if !(0x30..0x7f).contains(&fin)
            || (j == 1 && matches!(fin, b'[' | b']' | b'P' | b'X' | b'^' | b'_'))
        {
            return None;
        }
        let seq = Sequence::Esc {
            intermediates: &text[1..j],
            fin: fin as char,
        };
        let special = Special::of(&seq);
        let mut f = None;
        for &c in &b[..=j] {
            f = self.parser.feed(c as char);
        }
        count_unknown(&mut self.unsupported, &seq, &special, f.as_ref());
        self.apply(special, f);
        Some(j + 1)
    }

    /// Runs a whole control sequence (`ESC [ ... final`) at the start of `text` through avt's
    /// parser without the sequence tracker, when it lies whole in `text` and is one the
    /// tracker would report (an optional private marker `<`–`?`, parameters of digits, `;`
    /// and `:` (not first), intermediates, a final): the tracker would go back to the ground
    /// state, so only the sequence's meaning to this layer ([`Special::of`]) is needed, and
    /// that is read from `text`. Full-screen output is mostly such sequences. Returns the
    /// bytes consumed, or None (the character-at-a-time path then reads it).
    #[inline]
    pub(super) fn csi_run(&mut self, text: &str) -> Option<usize> {
        let b = text.as_bytes();
        if b.len() < 3
            || b[0] != 0x1b
            || b[1] != b'['
            || self.parser.state != State::Ground
            || !self.seq.is_ground()
        {
            return None;
        }
        let mut j = 2;
        let marked = (b'<'..=b'?').contains(&b[j]);
        if marked {
            j += 1;
        } else if b[j] == b':' {
            return None; // the tracker ignores the sequence
        }
        while j < b.len() && matches!(b[j], b'0'..=b'9' | b';' | b':') {
            j += 1;
        }
        let end_of_params = j;
        while j < b.len() && (0x20..0x30).contains(&b[j]) {
            j += 1;
        }
        if j >= b.len() || !(0x40..0x7f).contains(&b[j]) {
            return None;
        }
        // SGR, cursor moves and erases: what avt dispatches, nothing unknown in it (see
        // `unknown_kinds`), and nothing this layer reads itself (`csi::plain` leaves the SGR
        // that avt misreads to `Special`).
        let plain = if !marked && end_of_params == j {
            csi::plain(&b[2..j], b[j])
        } else {
            None
        };
        if let Some(Some(f)) = plain {
            self.apply(None, Some(f));
            return Some(j + 1);
        }
        let fin = b[j] as char;
        let params = &text[2..j];
        let (params, truncated) = match params.get(..SEQ_MAX) {
            Some(start) if params.len() > SEQ_MAX => (start, true),
            _ => (params, false),
        };
        let seq = Sequence::Csi(Csi {
            text: params,
            fin,
            truncated,
        });
        let special = Special::of(&seq);
        let f = match plain {
            // (`Some(None)`: avt dispatches nothing for it, `CSI 5 J`; no special meaning.)
            Some(f) => f,
            None => {
                for &c in &b[..j] {
                    // (ESC, `[`, parameters and intermediates: avt collects them and
                    // dispatches nothing.)
                    let _ = self.parser.feed(c as char);
                }
                self.parser.feed(fin)
            }
        };
        count_unknown(&mut self.unsupported, &seq, &special, f.as_ref());
        self.apply(special, f);
        Some(j + 1)
    }
}
