//! The window title from OSC strings.

/// Follows OSC strings in the output to learn the window title (OSC 0 and OSC 2).
#[derive(Debug, Default)]
pub(super) struct OscTracker {
    state: OscState,
    buf: String,
    /// The last title set.
    pub(super) title: Option<String>,
}

#[derive(Debug, Default, PartialEq)]
enum OscState {
    #[default]
    Ground,
    Escape,
    Osc,
    OscEscape,
}

/// Longest OSC string collected; longer ones (images, clipboard data) are skipped.
const OSC_MAX: usize = 4096;

impl OscTracker {
    pub(super) fn is_ground(&self) -> bool {
        self.state == OscState::Ground
    }

    #[inline]
    pub(super) fn feed(&mut self, ch: char) {
        match self.state {
            OscState::Ground => match ch {
                '\x1b' => self.state = OscState::Escape,
                '\u{9d}' => self.start(),
                _ => {}
            },
            OscState::Escape => match ch {
                ']' => self.start(),
                '\x1b' => {}
                _ => self.state = OscState::Ground,
            },
            OscState::Osc => match ch {
                '\x07' | '\u{9c}' => self.finish(),
                '\x1b' => self.state = OscState::OscEscape,
                '\x18' | '\x1a' => self.state = OscState::Ground,
                c => {
                    if self.buf.len() < OSC_MAX {
                        self.buf.push(c);
                    }
                }
            },
            OscState::OscEscape => match ch {
                '\\' => self.finish(),
                ']' => self.start(),
                _ => self.state = OscState::Ground,
            },
        }
    }

    fn start(&mut self) {
        self.buf.clear();
        self.state = OscState::Osc;
    }

    fn finish(&mut self) {
        self.state = OscState::Ground;
        if let Some((code, text)) = self.buf.split_once(';') {
            if code == "0" || code == "2" {
                self.title = Some(text.chars().filter(|c| !c.is_control()).collect());
            }
        }
    }
}
