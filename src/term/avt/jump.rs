//! The jump scroll (see the module doc of [`super`]): plain lines that scroll away unseen
//! are not drawn, only their pen and where they leave the cursor.

use super::*;

impl AvtEngine {
    /// Where `text` ends in plain lines so many that most of them scroll away unseen: the
    /// start of those lines and a cut inside them, or None. From `start` the text is only
    /// printable ASCII, CR, LF, SGR (`CSI Ps;… m`) and EL (`CSI Ps K`) (`ls --color`, `git
    /// log`, compilers); the line feeds before the cut (the last one after a CR) are counted
    /// (the third value: enough of them take the cursor to the bottom row, which
    /// [`feed`](Engine::feed) checks); after it lie at least a screenful plus the
    /// scrollback's worth. Fed in full,
    /// the lines before the cut end with the cursor on the bottom row at column 0, and the
    /// line feeds after it push every row that was on the screen then, and every line that
    /// went to the scrollback before, out of reach (each line feed scrolls at least once
    /// from the bottom row). So the lines before the cut leave nothing that remains but the
    /// pen their SGR sets, and [`feed`](Engine::feed) applies only their SGR and moves the
    /// cursor where they leave it, as xterm's jump scroll does — when the state at `start`
    /// allows it ([`Self::can_jump`]). `seq 1 3000000` in the recorder's live engine prints
    /// 24 of each read's 500 lines.
    pub(super) fn jump_span(&self, text: &str) -> Option<(usize, usize, usize)> {
        let rows = usize::from(self.size.rows);
        let after = rows + self.scrollback_limit;
        let b = text.as_bytes();
        // At least one line feed before the cut and `after` after it (a fast count first).
        let wanted = after + 1;
        if b.len() < wanted || memchr::memchr_iter(b'\n', b).take(wanted).count() < wanted {
            return None;
        }
        // One pass from the end: the line feeds seen, the cut (and the line feeds after it),
        // and where the plain text starts.
        let mut seen = 0;
        let mut cut: Option<(usize, usize)> = None;
        let mut start = 0;
        let mut i = b.len();
        while i > 0 {
            i -= 1;
            match b[i] {
                b'\n' => {
                    if cut.is_none() && seen >= after && i > 0 && b[i - 1] == b'\r' {
                        cut = Some((i + 1, seen));
                    }
                    seen += 1;
                }
                b'\r' | 0x20..=0x7e => {}
                0x1b if sgr_or_el(&b[i..]).is_some() => {}
                _ => {
                    // After the line that holds the last other byte (it may end a sequence):
                    // that line's line feed is not one of the plain lines'.
                    seen = seen.checked_sub(1)?;
                    start = i + 1 + b[i + 1..].iter().position(|&c| c == b'\n')? + 1;
                    break;
                }
            }
        }
        let (cut, after_cut) = cut?;
        (cut > start).then_some((start, cut, seen - after_cut))
    }

    /// Applies the SGR of the lines [`Self::jump_span`] skips (their EL erases rows that scroll
    /// away; their text is not printed).
    pub(super) fn jump_pen(&mut self, skipped: &str) {
        let b = skipped.as_bytes();
        let mut i = 0;
        while let Some(at) = memchr::memchr(0x1b, &b[i..]) {
            let start = i + at;
            match sgr_or_el(&b[start..]) {
                Some((len, true)) => {
                    self.feed_text(&skipped[start..start + len]);
                    i = start + len;
                }
                Some((len, false)) => i = start + len,
                None => i = start + 1,
            }
        }
    }

    /// Whether plain lines fed now may be skipped as [`Self::jump_span`] says: no sequence
    /// in progress, the whole screen scrolls (no scroll region), no single shift waits for
    /// the next character, no combining marks to move, and no stand-ins being handed out
    /// (concealed or linked text).
    pub(super) fn can_jump(&self) -> bool {
        self.parser.state == State::Ground
            && self.seq.is_ground()
            && self.full_region()
            && !self.charsets.single_shift_pending()
            && self.marks.is_empty()
            && self.pen.pen.extra().is_plain()
            && self.link == 0
    }

    /// Feeds `text` without the final collection of scrolled-off lines.
    pub(super) fn feed_text(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut next_gc = FEED_CHUNK;
        while i < bytes.len() {
            if i >= next_gc {
                // Wrapping prints scroll too: collect once a chunk (see FEED_CHUNK).
                self.collect_scrolled();
                next_gc = i + FEED_CHUNK;
            }
            // The fast paths, by the first byte; the character-at-a-time path reads what
            // they leave.
            let b = bytes[i];
            let fast = if b == 0x1b {
                self.csi_run(&text[i..])
                    .or_else(|| self.esc_run(&text[i..]))
            } else if b < 0x20 {
                self.control(b).map(|f| {
                    self.apply(None, Some(f));
                    1
                })
            } else {
                self.text_run(&text[i..])
            };
            if let Some(n) = fast {
                i += n;
                continue;
            }
            let ch = text[i..].chars().next().expect("at a char boundary");
            self.feed_char(ch);
            i += ch.len_utf8();
        }
    }
}
