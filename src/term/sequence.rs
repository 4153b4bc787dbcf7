//! One streaming tokenizer for the escape sequences in program output, used by the recorder's
//! query answerer.
//!
//! [`SequenceTracker`] takes characters one at a time, in chunks of any size, and reports
//! each complete sequence: `ESC` with its intermediates and final, CSI with its text and
//! final, OSC with its data. It moves between states exactly as avt's parser does (Paul
//! Williams' DEC ANSI parser, with avt's reading of every character from U+00A0 as a printable
//! one), so it sees the same sequence boundaries as the engine: what it reports is what avt
//! dispatched. DCS strings are reported with their header and data (bounded, for the queries
//! XTGETTCAP and DECRQSS); SOS, PM and APC strings are followed to their end, only their start
//! reported (what kind of string it is), never their data.

/// Where the tracker is, by the states of avt's parser (`avt::parser::State`); the native
/// engine's parser moves through the same states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum State {
    #[default]
    Ground,
    Escape,
    EscapeIntermediate,
    CsiEntry,
    CsiParam,
    CsiIntermediate,
    CsiIgnore,
    DcsEntry,
    DcsParam,
    DcsIntermediate,
    DcsPassthrough,
    DcsIgnore,
    OscString,
    SosPmApcString,
}

/// A complete sequence, borrowed from the tracker until the next character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sequence<'a> {
    /// `ESC I… F`: intermediates (0x20–0x2f) and a final (0x30–0x7e).
    Esc {
        /// The intermediate characters, such as `(` in `ESC ( B`.
        intermediates: &'a str,
        /// The final character.
        fin: char,
    },
    /// A control sequence (`ESC [` or U+009B).
    Csi(Csi<'a>),
    /// An operating system command (`ESC ]` or U+009D), ended by BEL or ST (`ESC \`,
    /// U+009C). OSC strings ended otherwise (CAN, SUB, another escape sequence) are dropped.
    Osc {
        /// The text between the introducer and the terminator, at most 64 KiB (longer
        /// strings, such as images, are cut there).
        data: &'a str,
        /// Whether BEL ended it (an answer repeats the terminator).
        bel: bool,
        /// Whether the string was longer than 64 KiB (`data` is its start).
        truncated: bool,
    },
    /// A device control string (`ESC P` or U+0090) ended by ST (`ESC \`, U+009C); strings
    /// ended otherwise, and those avt ignores (a malformed header), are dropped.
    Dcs {
        /// The header: private marker, parameters, intermediates and the final, such as
        /// `+q` (XTGETTCAP) or `$q` (DECRQSS). At most the tracker's limit of characters.
        head: &'a str,
        /// The string between the final and ST, at most 4096 bytes.
        data: &'a str,
        /// Whether the header or the data was longer than its limit (then cut).
        truncated: bool,
    },
    /// The start of an SOS (`X`), PM (`^`) or APC (`_`) string, by its `ESC` final (its data
    /// is followed to its end and never kept).
    Str(char),
}

/// A complete control sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Csi<'a> {
    /// Everything between the introducer and the final as written: the private marker
    /// (`<`, `=`, `>`, `?`), the parameters and the intermediates (`$`, space, …), such as
    /// `?1049` or `5 `. At most the tracker's limit of characters.
    pub(crate) text: &'a str,
    /// The final character (0x40–0x7e).
    pub(crate) fin: char,
    /// Whether the sequence was longer than the limit (`text` is its start).
    pub(crate) truncated: bool,
}

/// The streaming tokenizer: see the module docs.
#[derive(Debug)]
pub(crate) struct SequenceTracker {
    state: State,
    /// The text of the CSI or `ESC` sequence in progress.
    text: String,
    /// Longest `text` kept.
    limit: usize,
    truncated: bool,
    /// The data of the OSC string in progress.
    data: String,
    /// An `ESC` ended an OSC string: a `\` next makes it ST.
    osc_escape: bool,
    /// The OSC string in progress was longer than [`OSC_MAX`].
    osc_truncated: bool,
    /// The header of the DCS string in progress (its data is in `data`).
    dcs_head: String,
    /// An `ESC` ended a DCS string: a `\` next makes it ST.
    dcs_escape: bool,
    /// The DCS header or data was cut at its limit.
    dcs_truncated: bool,
}

/// Longest OSC data kept; the rest of a longer string (images, clipboard data) is skipped.
const OSC_MAX: usize = 64 * 1024;

/// Longest DCS data kept (queries are short; a longer string is cut and not answered).
const DCS_MAX: usize = 4096;

impl SequenceTracker {
    /// A tracker in the ground state that keeps at most `limit` characters of a control
    /// sequence's text.
    pub(crate) fn new(limit: usize) -> Self {
        SequenceTracker {
            state: State::Ground,
            text: String::new(),
            limit,
            truncated: false,
            data: String::new(),
            osc_escape: false,
            osc_truncated: false,
            dcs_head: String::new(),
            dcs_escape: false,
            dcs_truncated: false,
        }
    }

    /// Whether no sequence is in progress: only `ESC` and C1 controls (U+0080–U+009F) leave
    /// this state, so a caller may skip anything else.
    #[inline]
    pub(crate) fn is_ground(&self) -> bool {
        self.state == State::Ground
    }

    /// Takes the next character of the output; returns the sequence it completes, if any.
    #[inline]
    pub(crate) fn feed(&mut self, ch: char) -> Option<Sequence<'_>> {
        use State::*;
        if self.state == Ground && ch >= ' ' && ch != '\x7f' && !('\u{80}'..'\u{a0}').contains(&ch)
        {
            return None; // printed text: the common case
        }
        // avt reads every character from U+00A0 as a printable one (like `A`).
        let c = if ch >= '\u{a0}' { 'A' } else { ch };
        // Transitions from any state.
        match c {
            '\x1b' => {
                self.osc_escape = self.state == OscString;
                self.dcs_escape = self.state == DcsPassthrough;
                self.state = Escape;
                self.text.clear();
                self.truncated = false;
                return None;
            }
            '\x18' | '\x1a' | '\u{80}'..='\u{8f}' | '\u{91}'..='\u{97}' | '\u{99}' | '\u{9a}' => {
                self.state = Ground;
                return None;
            }
            '\u{9c}' => {
                let was = self.state;
                self.state = Ground;
                return match was {
                    OscString => Some(self.osc(false)),
                    DcsPassthrough => Some(self.dcs()),
                    _ => None,
                };
            }
            '\u{98}' | '\u{9e}' | '\u{9f}' => {
                self.state = SosPmApcString;
                let kind = match ch {
                    '\u{98}' => 'X',
                    '\u{9e}' => '^',
                    _ => '_',
                };
                return Some(Sequence::Str(kind));
            }
            '\u{9d}' => {
                self.start_osc();
                return None;
            }
            '\u{90}' => {
                self.start_dcs();
                return None;
            }
            '\u{9b}' => {
                self.start_csi();
                return None;
            }
            _ => {}
        }
        let intermediate = (' '..='/').contains(&c);
        let fin = ('@'..='~').contains(&c);
        // (A character from U+00A0 moves the state as a final does, but finishes nothing.)
        let real = c == ch;
        match self.state {
            Ground | DcsIgnore | SosPmApcString => {}
            DcsPassthrough => {
                if self.data.len() + ch.len_utf8() <= DCS_MAX {
                    self.data.push(ch);
                } else {
                    self.dcs_truncated = true;
                }
            }
            Escape => {
                let osc_escape = std::mem::take(&mut self.osc_escape);
                let dcs_escape = std::mem::take(&mut self.dcs_escape);
                match c {
                    _ if intermediate => {
                        self.state = EscapeIntermediate;
                        self.push(c);
                    }
                    '[' => self.start_csi(),
                    ']' => self.start_osc(),
                    'P' => self.start_dcs(),
                    'X' | '^' | '_' => {
                        self.state = SosPmApcString;
                        return Some(Sequence::Str(c));
                    }
                    '0'..='~' => {
                        self.state = Ground;
                        if osc_escape && c == '\\' {
                            return Some(self.osc(false));
                        }
                        if dcs_escape && c == '\\' {
                            return Some(self.dcs());
                        }
                        return real.then_some(Sequence::Esc {
                            intermediates: &self.text,
                            fin: c,
                        });
                    }
                    _ => {}
                }
            }
            EscapeIntermediate => match c {
                _ if intermediate => self.push(c),
                '0'..='~' => {
                    self.state = Ground;
                    return real.then_some(Sequence::Esc {
                        intermediates: &self.text,
                        fin: c,
                    });
                }
                _ => {}
            },
            CsiEntry | CsiParam | CsiIntermediate => {
                let next = match (self.state, c) {
                    (_, _) if fin => {
                        self.state = Ground;
                        return real.then_some(Sequence::Csi(Csi {
                            text: &self.text,
                            fin: c,
                            truncated: self.truncated,
                        }));
                    }
                    (_, _) if intermediate => CsiIntermediate,
                    (CsiEntry | CsiParam, '0'..='9' | ';') => CsiParam,
                    (CsiParam, ':') => CsiParam,
                    (CsiEntry, '<'..='?') => CsiParam,
                    (_, '0'..='?') => CsiIgnore,
                    _ => return None, // C0 controls (executed) and DEL
                };
                self.state = next;
                if next != CsiIgnore {
                    self.push(c);
                }
            }
            CsiIgnore => {
                if fin {
                    self.state = Ground;
                }
            }
            DcsEntry | DcsParam | DcsIntermediate => {
                if c >= ' ' && c != '\x7f' {
                    if self.dcs_head.len() < self.limit {
                        self.dcs_head.push(c);
                    } else {
                        self.dcs_truncated = true;
                    }
                }
                self.state = match (self.state, c) {
                    (_, _) if fin => DcsPassthrough,
                    (_, _) if intermediate => DcsIntermediate,
                    (DcsEntry | DcsParam, '0'..='9' | ';') => DcsParam,
                    (DcsEntry, '<'..='?') => DcsParam,
                    (_, '0'..='?') => DcsIgnore,
                    (state, _) => state,
                };
            }
            OscString => match c {
                '\x07' => {
                    self.state = Ground;
                    return Some(self.osc(true));
                }
                _ => {
                    // Other controls are kept too: readers of the data decide about them.
                    if self.data.len() < OSC_MAX {
                        self.data.push(ch);
                    } else {
                        self.osc_truncated = true;
                    }
                }
            },
        }
        None
    }

    fn push(&mut self, c: char) {
        if self.text.len() < self.limit {
            self.text.push(c);
        } else {
            self.truncated = true;
        }
    }

    fn start_csi(&mut self) {
        self.state = State::CsiEntry;
        self.text.clear();
        self.truncated = false;
    }

    fn start_osc(&mut self) {
        self.state = State::OscString;
        self.data.clear();
        self.osc_truncated = false;
    }

    fn start_dcs(&mut self) {
        self.state = State::DcsEntry;
        self.dcs_head.clear();
        self.data.clear();
        self.dcs_truncated = false;
    }

    fn dcs(&self) -> Sequence<'_> {
        Sequence::Dcs {
            head: &self.dcs_head,
            data: &self.data,
            truncated: self.dcs_truncated,
        }
    }

    fn osc(&self, bel: bool) -> Sequence<'_> {
        Sequence::Osc {
            data: &self.data,
            bel,
            truncated: self.osc_truncated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sequence reported for `input`, fed one character at a time, written out.
    fn sequences(input: &str) -> Vec<String> {
        let mut t = SequenceTracker::new(64);
        input
            .chars()
            .filter_map(|ch| t.feed(ch).map(|s| format!("{s:?}")))
            .collect()
    }

    #[test]
    fn reports_esc_csi_and_osc_and_skips_strings() {
        let got = sequences(
            "a\x1b(B\x1b[?1049h\x1b[5 q\x1b]2;title\x07\x1bP1$qm\x1b\\\x1b]11;?\x1b\\\u{9b}6n\x1b_x\x07\x1b[4:3m",
        );
        let want = [
            r#"Esc { intermediates: "(", fin: 'B' }"#,
            r#"Csi(Csi { text: "?1049", fin: 'h', truncated: false })"#,
            r#"Csi(Csi { text: "5 ", fin: 'q', truncated: false })"#,
            r#"Osc { data: "2;title", bel: true, truncated: false }"#,
            r#"Dcs { head: "1$q", data: "m", truncated: false }"#,
            r#"Osc { data: "11;?", bel: false, truncated: false }"#,
            r#"Csi(Csi { text: "6", fin: 'n', truncated: false })"#,
            "Str('_')",
            r#"Csi(Csi { text: "4:3", fin: 'm', truncated: false })"#,
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn dcs_strings_are_reported_whole_and_bounded() {
        assert_eq!(
            sequences("\x1bP+q544e;636f6c6f7273\x1b\\\u{90}$q m\u{9c}"),
            [
                r#"Dcs { head: "+q", data: "544e;636f6c6f7273", truncated: false }"#,
                r#"Dcs { head: "$q", data: " m", truncated: false }"#,
            ]
        );
        // Aborted (CAN), ignored by avt (a malformed header: its ST is a plain `ESC \\`),
        // or never ended: no string.
        assert_eq!(
            sequences("\x1bP+qab\x18\x1bP1:2q\x1b\\\x1bP$qm"),
            [r#"Esc { intermediates: "", fin: '\\' }"#]
        );
        // Long data is cut and says so; the next string starts afresh.
        let long = format!("\x1bP+q{}\x1b\\\x1bP$qr\x1b\\", "6".repeat(10_000));
        let got = sequences(&long);
        assert!(got[0].ends_with("truncated: true }"), "{}", &got[0][..40]);
        assert_eq!(got[1], r#"Dcs { head: "$q", data: "r", truncated: false }"#);
    }

    #[test]
    fn aborted_and_ignored_sequences_report_nothing() {
        assert!(sequences("\x1b[1\x18m\x1b[1:2?m\x1b]2;x\x1b[m").len() == 1);
        // (An SOS string's start is reported, its data never.)
        assert_eq!(sequences("\x1b]2;x\x1bX\x07"), ["Str('X')"]);
        assert_eq!(sequences("\x1b[é\x1b(é"), Vec::<String>::new());
        // C0 controls inside a sequence are executed and the sequence goes on.
        assert_eq!(
            sequences("\x1b[1\n2m"),
            [r#"Csi(Csi { text: "12", fin: 'm', truncated: false })"#]
        );
        let mut t = SequenceTracker::new(3);
        let got = "\x1b[12345m"
            .chars()
            .filter_map(|c| t.feed(c).map(|s| format!("{s:?}")));
        assert_eq!(
            got.collect::<Vec<_>>(),
            [r#"Csi(Csi { text: "123", fin: 'm', truncated: true })"#]
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// The tracker is in avt's parser state after every character, so what it reports
        /// is what avt dispatched.
        #[test]
        fn follows_the_state_of_avts_parser(input in proptest::string::string_regex(
            "([\\x00-\\x1f\\x7f-\\u{a0}]|\\x1b[\\[\\]P()X_ #]?|[0-9;:<=>?$ !\"@A-Za-z\\\\~é日])*"
        ).unwrap()) {
            let mut parser = avt::parser::Parser::new();
            let mut t = SequenceTracker::new(64);
            for ch in input.chars() {
                parser.feed(ch);
                t.feed(ch);
                proptest::prop_assert_eq!(format!("{:?}", t.state), format!("{:?}", parser.state), "after {:?} in {:?}", ch, input);
            }
        }
    }
}
