//! The [`Engine`] trait for [`AvtEngine`]: feeding text, resizing, and reading the screen,
//! its state and the scrollback back out of avt's terminal.

use super::*;

impl super::super::sealed::Sealed for AvtEngine {}

impl Engine for AvtEngine {
    fn feed(&mut self, text: &str) {
        self.rep_work.fed(text.len());
        match self.jump_span(text) {
            Some((start, cut, before)) => {
                self.feed_text(&text[..start]);
                // The line feeds before the cut take the cursor to the bottom row.
                let row = self.terminal.cursor().row;
                if self.can_jump() && row + 1 + before >= usize::from(self.size.rows) {
                    // The pen the lines before the cut leave, and where they leave the cursor.
                    self.jump_pen(&text[start..cut]);
                    self.apply(None, Some(Function::Cup(self.size.rows, 1)));
                    self.feed_text(&text[cut..]);
                } else {
                    self.feed_text(&text[start..]);
                }
            }
            None => self.feed_text(text),
        }
        // Take the lines scrolled off the top into the scrollback.
        self.collect_scrolled();
    }

    fn resize(&mut self, size: Size) {
        // Never narrower than MIN_COLS: avt panics reflowing a wide character into 1 column.
        let size = size.at_least_min();
        if size == self.size {
            return;
        }
        // (The cell of what REP repeats moves with the reflow.)
        self.settle_last_graphic();
        if self.deferred_lfs > 0 {
            // (avt reflows the lines above the screen too.)
            self.collect_scrolled();
        }
        let region = !self.full_region();
        self.terminal.resize(size.cols as usize, size.rows as usize);
        self.collect_scrolled();
        if region && size.rows == self.size.rows {
            // avt keeps its scroll region when only the width changes; xterm and tmux drop
            // it on every resize. (DECSTBM homes the cursor: put it back. After a change of
            // width the cursor is on a column, never at the pending wrap.)
            let cursor = self.terminal.cursor();
            self.terminal.execute(Function::Decstbm(0, 0));
            self.terminal.execute(Function::Cup(
                cursor.row as u16 + 1,
                cursor.col.min(usize::from(size.cols) - 1) as u16 + 1,
            ));
        }
        self.size = size;
        // Marks outside the new grid go; the others stay and are checked against their base
        // character when the screen is read.
        self.marks
            .retain(|&(r, c), _| r < size.rows && c < size.cols);
        self.margins = (0, size.rows - 1);
    }

    fn size(&self) -> Size {
        self.size
    }

    fn screen(&self) -> Screen {
        let mut rows = Vec::with_capacity(self.size.rows as usize);
        for line in self.terminal.view() {
            // Neighbouring cells nearly always share a pen: convert it once per change.
            let mut pen: Option<&avt::Pen> = None;
            let mut style = Cell::default();
            let mut row: Vec<Cell> = Vec::with_capacity(line.cells().len());
            for c in line.cells() {
                if pen != Some(c.pen()) {
                    let p = c.pen();
                    pen = Some(p);
                    style.fg = color(p.foreground());
                    style.bg = color(p.background());
                    style.attrs = Attrs {
                        bold: p.is_bold(),
                        dim: p.is_faint(),
                        italic: p.is_italic(),
                        underline: p.is_underline(),
                        strikethrough: p.is_strikethrough(),
                        inverse: p.is_inverse(),
                        blink: p.is_blink(),
                        hidden: false,
                    };
                }
                let width = c.width() as u8;
                let (ch, extra, link) = self.stand_ins.decode(c.char());
                let mut attrs = style.attrs;
                attrs.hidden = extra.hidden;
                if extra.bold_faint {
                    (attrs.bold, attrs.dim) = (true, true);
                }
                row.push(Cell {
                    text: if width == 0 {
                        CellText::EMPTY
                    } else {
                        CellText::from_char(ch)
                    },
                    width,
                    fg: style.fg,
                    bg: style.bg,
                    attrs,
                    link,
                });
            }
            if !self.stand_ins.is_empty() {
                // The tail of a concealed (or linked, or bold and faint) wide character is
                // too.
                for c in 1..row.len() {
                    if row[c].width == 0 && row[c - 1].width == 2 {
                        let head = row[c - 1].attrs;
                        let tail = &mut row[c].attrs;
                        (tail.hidden, tail.bold, tail.dim) = (head.hidden, head.bold, head.dim);
                        row[c].link = row[c - 1].link;
                    }
                }
            }
            rows.push(row);
        }
        for (&(r, c), (base, marks)) in &self.marks {
            if let Some(cell) = rows
                .get_mut(r as usize)
                .and_then(|row| row.get_mut(c as usize))
            {
                let (base, extra, _) = self.stand_ins.decode(*base);
                if cell.text.starts_with(base)
                    && cell.attrs.hidden == extra.hidden
                    && cell.width > 0
                {
                    cell.text.push_str(marks);
                }
            }
        }
        let links = if self.stand_ins.is_empty() {
            Vec::new()
        } else {
            screen_links(&mut rows, &self.links)
        };
        let cursor = self.terminal.cursor();
        Screen {
            size: self.size,
            rows,
            cursor: Cursor {
                row: cursor.row.min(self.size.rows as usize - 1) as u16,
                col: cursor.col.min(self.size.cols as usize - 1) as u16,
                visible: cursor.visible,
                shape: self.cursor_shape,
            },
            title: self.title.clone(),
            alternate: self.terminal.active_buffer_type() == BufferType::Alternate,
            state: TermState {
                icon: self.icon.clone(),
                bells: self.bells,
                clipboard: self.clipboard.clone(),
                links,
                scrollback: self.scrollback_text(),
                keyboard_flags: self.modes.keyboard.seen().0,
                modify_other_keys: self.modes.keyboard.seen().1,
                // No shell marks: only the native engine keeps them.
                ..TermState::default()
            },
            modes: self.modes(),
        }
    }

    fn checkpoint(&mut self) {
        self.bells = 0;
        self.clipboard.clear();
    }

    fn unsupported(&self) -> Unsupported {
        self.unsupported.clone()
    }

    fn limit_passed(&self) -> Option<String> {
        self.rep_work.passed_message()
    }
}
