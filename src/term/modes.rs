//! [`Modes`]: the terminal modes a program set that change what the terminal sends it (mouse
//! reports, pasted text, focus changes, cursor and keypad keys) or how output is placed
//! (auto-wrap, origin). The engines track them; recording reads them from the live engine to
//! encode input the way the program asked, and the JSON render and `tuicast info` show them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The terminal modes a program set, as DEC private modes (`CSI ? Pm h` / `l`) and the keypad
/// controls set them. A fresh terminal has every mode off except auto-wrap.
///
/// Reset on RIS (`ESC c`). DECSTR (`CSI ! p`) resets the cursor keys, the keypad and origin
/// mode and turns auto-wrap on, as xterm's soft reset does, and leaves the others. XTSAVE / XTRESTORE
/// (`CSI ? Pm s` / `r`) save and restore the mouse, paste, focus and cursor-keys modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
#[non_exhaustive]
pub struct Modes {
    /// Bracketed paste (mode 2004): pasted text comes between `CSI 200 ~` and `CSI 201 ~`.
    pub bracketed_paste: bool,
    /// Which mouse events the terminal reports (modes 9, 1000, 1002, 1003).
    pub mouse: MouseTracking,
    /// How mouse reports are written (modes 1005, 1006, 1015).
    pub mouse_encoding: MouseEncoding,
    /// Focus reporting (mode 1004): `CSI I` when the window gains focus, `CSI O` when it loses it.
    pub focus: bool,
    /// Application cursor keys (DECCKM, mode 1): arrows send `ESC O A` instead of `ESC [ A`.
    pub cursor_keys: bool,
    /// Application keypad (DECKPAM `ESC =`; DECKPNM `ESC >` turns it off).
    pub keypad: bool,
    /// Auto-wrap (DECAWM, mode 7): printing past the last column continues on the next row.
    pub autowrap: bool,
    /// Origin mode (DECOM, mode 6): cursor positions count from the scroll region's top.
    pub origin: bool,
    /// The kitty keyboard protocol's progressive enhancement flags in force on the screen in
    /// use (the top of its stack, kept as kitty keeps it; 0 when the program pushed none): 1
    /// disambiguate escape codes, 2 report event types, 4 report alternate keys, 8 report
    /// all keys as escape codes, 16 report associated text.
    #[serde(skip_serializing_if = "is_zero")]
    pub keyboard: u8,
    /// xterm's modifyOtherKeys level (`CSI > 4 ; Pv m`): 0 off, 1 or 2. Keys with modifiers
    /// that have no well-known code are sent as `CSI 27 ; mod ; code ~` (level 2: every one).
    #[serde(skip_serializing_if = "is_zero")]
    pub modify_other_keys: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

impl Default for Modes {
    fn default() -> Self {
        Modes {
            bracketed_paste: false,
            mouse: MouseTracking::Off,
            mouse_encoding: MouseEncoding::Default,
            focus: false,
            cursor_keys: false,
            keypad: false,
            autowrap: true,
            origin: false,
            keyboard: 0,
            modify_other_keys: 0,
        }
    }
}

/// Which mouse events a terminal reports, as the program chose with a DEC private mode.
/// Setting one mode chooses it; resetting any of them turns reporting off (as in xterm).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum MouseTracking {
    /// No mouse reports (the default).
    #[default]
    Off,
    /// X10 compatibility (mode 9): button presses only, without modifiers.
    X10,
    /// Normal tracking (mode 1000): presses and releases, and the wheel.
    Normal,
    /// Button-event tracking (mode 1002): also motion while a button is down.
    Button,
    /// Any-event tracking (mode 1003): also motion with no button down.
    Any,
}

impl MouseTracking {
    /// The DEC private mode that selects it (0 for off).
    pub fn mode_number(self) -> u16 {
        match self {
            MouseTracking::Off => 0,
            MouseTracking::X10 => 9,
            MouseTracking::Normal => 1000,
            MouseTracking::Button => 1002,
            MouseTracking::Any => 1003,
        }
    }

    /// `off`, `x10`, `normal`, `button` or `any`, as the JSON render writes it.
    pub fn name(self) -> &'static str {
        match self {
            MouseTracking::Off => "off",
            MouseTracking::X10 => "x10",
            MouseTracking::Normal => "normal",
            MouseTracking::Button => "button",
            MouseTracking::Any => "any",
        }
    }
}

impl fmt::Display for MouseTracking {
    /// `off`, or the name with its mode: `normal (1000)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MouseTracking::Off => f.write_str("off"),
            m => write!(f, "{} ({})", m.name(), m.mode_number()),
        }
    }
}

/// How mouse reports are written. The modes exclude each other: setting one chooses it, and
/// resetting one only turns it off when it is the one chosen (as in xterm).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum MouseEncoding {
    /// `CSI M Cb Cx Cy`, each a byte of 32 plus its value (the default; positions up to 223).
    #[default]
    Default,
    /// Mode 1005: the same, with positions above 95 written as two-byte UTF-8.
    Utf8,
    /// Mode 1006: `CSI < b ; x ; y M` (press, motion) or `m` (release), in decimal.
    Sgr,
    /// Mode 1015 (urxvt): `CSI b ; x ; y M` in decimal, `b` with 32 added.
    Urxvt,
}

impl MouseEncoding {
    /// The DEC private mode that selects it (0 for the default).
    pub fn mode_number(self) -> u16 {
        match self {
            MouseEncoding::Default => 0,
            MouseEncoding::Utf8 => 1005,
            MouseEncoding::Sgr => 1006,
            MouseEncoding::Urxvt => 1015,
        }
    }

    /// `default`, `utf8`, `sgr` or `urxvt`, as the JSON render writes it.
    pub fn name(self) -> &'static str {
        match self {
            MouseEncoding::Default => "default",
            MouseEncoding::Utf8 => "utf8",
            MouseEncoding::Sgr => "sgr",
            MouseEncoding::Urxvt => "urxvt",
        }
    }
}

impl fmt::Display for MouseEncoding {
    /// `default`, or the name with its mode: `sgr (1006)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MouseEncoding::Default => f.write_str("default"),
            e => write!(f, "{} ({})", e.name(), e.mode_number()),
        }
    }
}

/// The DEC private modes [`Modes::set_dec`] knows.
pub const KNOWN_DEC_MODES: [u16; 12] = [1, 6, 7, 9, 1000, 1002, 1003, 1004, 1005, 1006, 1015, 2004];

impl Modes {
    /// True when every mode is as a fresh terminal has it.
    pub fn is_default(&self) -> bool {
        *self == Modes::default()
    }

    /// Follows `CSI ? mode h` (`set`) or `l`; returns false for a mode this type does not
    /// hold (and changes nothing).
    pub fn set_dec(&mut self, mode: u16, set: bool) -> bool {
        let tracking = |m| if set { m } else { MouseTracking::Off };
        let encoding = |e: MouseEncoding, current: MouseEncoding| {
            if set {
                e
            } else if current == e {
                MouseEncoding::Default
            } else {
                current
            }
        };
        match mode {
            1 => self.cursor_keys = set,
            6 => self.origin = set,
            7 => self.autowrap = set,
            9 => self.mouse = tracking(MouseTracking::X10),
            1000 => self.mouse = tracking(MouseTracking::Normal),
            1002 => self.mouse = tracking(MouseTracking::Button),
            1003 => self.mouse = tracking(MouseTracking::Any),
            1004 => self.focus = set,
            1005 => self.mouse_encoding = encoding(MouseEncoding::Utf8, self.mouse_encoding),
            1006 => self.mouse_encoding = encoding(MouseEncoding::Sgr, self.mouse_encoding),
            1015 => self.mouse_encoding = encoding(MouseEncoding::Urxvt, self.mouse_encoding),
            2004 => self.bracketed_paste = set,
            _ => return false,
        }
        true
    }

    /// Whether DEC private mode `mode` is set, for a mode [`set_dec`](Self::set_dec) knows.
    pub fn dec(&self, mode: u16) -> Option<bool> {
        Some(match mode {
            1 => self.cursor_keys,
            6 => self.origin,
            7 => self.autowrap,
            9 | 1000 | 1002 | 1003 => self.mouse.mode_number() == mode,
            1004 => self.focus,
            1005 | 1006 | 1015 => self.mouse_encoding.mode_number() == mode,
            2004 => self.bracketed_paste,
            _ => return None,
        })
    }

    /// DECSTR (soft reset), as xterm does it: cursor keys, keypad and origin mode back to
    /// normal, auto-wrap on (xterm's default; a VT510 would turn it off); the mouse, paste and
    /// focus modes stay.
    pub fn soft_reset(&mut self) {
        self.cursor_keys = false;
        self.keypad = false;
        self.origin = false;
        self.autowrap = true;
    }

    /// The modes that differ from a fresh terminal's, as a person reads them:
    /// `bracketed paste, mouse normal (1000) sgr (1006), focus reporting`; `none` when none do.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.mouse != MouseTracking::Off || self.mouse_encoding != MouseEncoding::Default {
            let mut m = format!("mouse {}", self.mouse);
            if self.mouse_encoding != MouseEncoding::Default {
                m.push_str(&format!(" {}", self.mouse_encoding));
            }
            parts.push(m);
        }
        for (on, name) in [
            (self.bracketed_paste, "bracketed paste (2004)"),
            (self.focus, "focus reporting (1004)"),
            (self.cursor_keys, "application cursor keys (1)"),
            (self.keypad, "application keypad"),
            (!self.autowrap, "no auto-wrap (7)"),
            (self.origin, "origin mode (6)"),
        ] {
            if on {
                parts.push(name.to_string());
            }
        }
        if self.keyboard != 0 {
            parts.push(format!("kitty keyboard flags {}", self.keyboard));
        }
        if self.modify_other_keys != 0 {
            parts.push(format!("modifyOtherKeys {}", self.modify_other_keys));
        }
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }
}

/// Most entries of each screen's kitty keyboard flag stack, as in kitty; a push onto a full
/// stack drops the oldest entry, as the protocol says.
pub(crate) const MAX_KEYBOARD_STACK: usize = 8;

/// The kitty keyboard protocol's flag stacks and xterm's modifyOtherKeys, as both engines
/// follow them (the one home of their rules); what is in force is read into [`Modes`] with
/// [`Keyboard::modes`].
///
/// Kept as kitty keeps them (sw.kovidgoyal.net/kitty/keyboard-protocol, "Progressive
/// enhancement"): a stack per screen, main and alternate, which switching screens leaves as it
/// was; `CSI > flags u` pushes (at most [`MAX_KEYBOARD_STACK`], the oldest dropped),
/// `CSI < n u` pops `n` (1 when omitted; an emptied stack means no flags), `CSI = flags ; mode u`
/// changes the top (mode 1 sets them all, 2 sets the bits given, 3 resets them; on an empty
/// stack it becomes the one entry, as kitty's does). Only the five flags the protocol defines
/// are kept. RIS empties both stacks and turns modifyOtherKeys off.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Keyboard {
    main: Vec<u8>,
    alternate: Vec<u8>,
    modify_other_keys: u8,
    /// Bit `v` set when flags `v` (1–31) were in force at some time.
    seen: u32,
    /// Bit `l` set when modifyOtherKeys level `l` (1, 2) was.
    other_keys_seen: u8,
}

/// The flags the kitty keyboard protocol defines.
const KEYBOARD_FLAGS: u16 = 0b1_1111;

impl Keyboard {
    /// Follows `CSI params fin` (`params` with its private marker, as written) when it is one
    /// of the keyboard sequences: kitty's `CSI > u`, `CSI < u`, `CSI = u`, and xterm's
    /// XTMODKEYS for modifyOtherKeys (`CSI > 4 ; Pv m`; `CSI > m` and `CSI > 4 n` turn it
    /// off). `alternate` is whether the alternate screen is in use. Returns whether it was one
    /// (a malformed one changes nothing).
    pub(crate) fn follow(&mut self, params: &str, fin: char, alternate: bool) -> bool {
        let Some(marker) = params
            .chars()
            .next()
            .filter(|c| matches!(c, '>' | '<' | '='))
        else {
            return false;
        };
        let rest = &params[1..];
        let mut nums = rest.split(';').map(|p| {
            if p.is_empty() {
                Some(None)
            } else {
                p.parse::<u16>().ok().map(Some)
            }
        });
        let (Some(a), Some(b)) = (
            nums.next().unwrap_or(Some(None)),
            nums.next().unwrap_or(Some(None)),
        ) else {
            return true;
        };
        if nums.next().is_some() && fin == 'u' {
            return true;
        }
        let stack = if alternate {
            &mut self.alternate
        } else {
            &mut self.main
        };
        match (marker, fin) {
            ('>', 'u') => {
                if stack.len() == MAX_KEYBOARD_STACK {
                    stack.remove(0);
                }
                stack.push((a.unwrap_or(0) & KEYBOARD_FLAGS) as u8);
            }
            ('<', 'u') => {
                let n = usize::from(a.unwrap_or(1).max(1));
                stack.truncate(stack.len().saturating_sub(n));
            }
            ('=', 'u') => {
                let flags = (a.unwrap_or(0) & KEYBOARD_FLAGS) as u8;
                if stack.is_empty() {
                    stack.push(0);
                }
                let top = stack.last_mut().expect("not empty");
                match b.unwrap_or(1) {
                    1 => *top = flags,
                    2 => *top |= flags,
                    3 => *top &= !flags,
                    _ => {}
                }
            }
            ('>', 'm') => match (rest.is_empty(), a, b) {
                (true, _, _) => self.modify_other_keys = 0,
                (false, Some(4), level) if level.unwrap_or(0) <= 2 => {
                    self.modify_other_keys = level.unwrap_or(0) as u8;
                }
                _ => {}
            },
            ('>', 'n') if a == Some(4) => self.modify_other_keys = 0,
            _ => return false,
        }
        let flags = self.flags(alternate);
        self.seen |= 1 << flags;
        self.other_keys_seen |= 1 << self.modify_other_keys;
        true
    }

    /// The kitty flags in force on the main (`alternate` false) or alternate screen.
    pub(crate) fn flags(&self, alternate: bool) -> u8 {
        let stack = if alternate {
            &self.alternate
        } else {
            &self.main
        };
        stack.last().copied().unwrap_or(0)
    }

    /// `modes` with what is in force on the main or alternate screen.
    pub(crate) fn modes(&self, mut modes: Modes, alternate: bool) -> Modes {
        modes.keyboard = self.flags(alternate);
        modes.modify_other_keys = self.modify_other_keys;
        modes
    }

    /// Every kitty flags value but 0 that was in force at some time, ascending; and every
    /// modifyOtherKeys level but 0 (what `tuicast info` lists).
    pub(crate) fn seen(&self) -> (Vec<u8>, Vec<u8>) {
        let values = |bits: u32, top: u8| (1..=top).filter(|v| bits & (1 << v) != 0).collect();
        (
            values(self.seen, 31),
            values(u32::from(self.other_keys_seen), 2),
        )
    }

    /// RIS: no flags on either screen, modifyOtherKeys off (what was seen is kept).
    pub(crate) fn reset(&mut self) {
        self.main.clear();
        self.alternate.clear();
        self.modify_other_keys = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyboard_stacks_push_pop_and_set_per_screen_as_kitty_does() {
        let mut k = Keyboard::default();
        let main = |k: &Keyboard| k.flags(false);
        assert!(k.follow(">1", 'u', false));
        assert_eq!(main(&k), 1);
        k.follow(">", 'u', false);
        assert_eq!(main(&k), 0, "a push with no flags pushes 0");
        k.follow("<", 'u', false);
        assert_eq!(main(&k), 1);
        // The alternate screen has its own stack, and leaves the main one alone.
        k.follow(">27", 'u', true);
        assert_eq!((main(&k), k.flags(true)), (1, 27));
        k.follow("<5", 'u', true);
        assert_eq!((main(&k), k.flags(true)), (1, 0));
        // Set: all bits, or, and-not.
        k.follow("=8;2", 'u', false);
        assert_eq!(main(&k), 9);
        k.follow("=1;3", 'u', false);
        assert_eq!(main(&k), 8);
        k.follow("=3", 'u', false);
        assert_eq!(main(&k), 3);
        k.follow("=255", 'u', false);
        assert_eq!(main(&k), 31, "only the five defined flags");
        k.follow("<", 'u', false);
        assert_eq!(main(&k), 0, "an emptied stack has no flags");
        k.follow("=5", 'u', false);
        assert_eq!(main(&k), 5, "a set on an empty stack is its one entry");
        k.follow("<", 'u', false);
        assert_eq!(main(&k), 0);
        // A full stack drops its oldest entry: nine pushes, nine pops.
        for f in 1..=9 {
            k.follow(&format!(">{f}"), 'u', false);
        }
        assert_eq!(main(&k), 9);
        k.follow("<7", 'u', false);
        assert_eq!(main(&k), 2, "1 was dropped");
        k.follow("<", 'u', false);
        assert_eq!(main(&k), 0);
        assert!(!k.follow("?", 'u', false), "the query is no change");
        assert!(!k.follow("1", 'u', false));
        assert_eq!(k.seen().0, [1, 2, 3, 4, 5, 6, 7, 8, 9, 27, 31]);
    }

    #[test]
    fn modify_other_keys_follows_xtmodkeys() {
        let mut k = Keyboard::default();
        let level = |k: &Keyboard| k.modes(Modes::default(), false).modify_other_keys;
        assert!(k.follow(">4;2", 'm', false));
        assert_eq!(level(&k), 2);
        k.follow(">4", 'm', false);
        assert_eq!(level(&k), 0, "no value: the initial one");
        k.follow(">4;1", 'm', false);
        k.follow(">1;2", 'm', false);
        assert_eq!(level(&k), 1, "modifyCursorKeys is not modifyOtherKeys");
        k.follow(">4;9", 'm', false);
        assert_eq!(level(&k), 1, "no such level");
        k.follow(">", 'm', false);
        assert_eq!(level(&k), 0, "CSI > m resets them all");
        k.follow(">4;2", 'm', false);
        k.follow(">4", 'n', false);
        assert_eq!(level(&k), 0);
        assert!(!k.follow("4;2", 'm', false), "SGR is not XTMODKEYS");
        assert_eq!(k.seen().1, [1, 2]);
        k.reset();
        assert_eq!(
            k,
            Keyboard {
                seen: k.seen,
                other_keys_seen: k.other_keys_seen,
                ..Keyboard::default()
            }
        );
    }

    #[test]
    fn tracking_modes_replace_each_other_and_any_reset_ends_them() {
        let mut m = Modes::default();
        m.set_dec(1000, true);
        m.set_dec(1003, true);
        assert_eq!(m.mouse, MouseTracking::Any);
        m.set_dec(1000, false);
        assert_eq!(
            m.mouse,
            MouseTracking::Off,
            "xterm: any reset ends tracking"
        );
        m.set_dec(1006, true);
        m.set_dec(1015, false);
        assert_eq!(m.mouse_encoding, MouseEncoding::Sgr, "only its own reset");
        m.set_dec(1006, false);
        assert_eq!(m.mouse_encoding, MouseEncoding::Default);
        assert!(!m.set_dec(25, true));
        for mode in KNOWN_DEC_MODES {
            let mut m = Modes::default();
            assert!(m.set_dec(mode, true));
            assert_eq!(m.dec(mode), Some(true), "{mode}");
            m.set_dec(mode, false);
            assert_eq!(m.dec(mode), Some(false), "{mode}");
        }
    }

    #[test]
    fn describe_names_what_differs() {
        assert_eq!(Modes::default().describe(), "none");
        let mut m = Modes::default();
        m.set_dec(1002, true);
        m.set_dec(1006, true);
        m.set_dec(2004, true);
        m.set_dec(7, false);
        assert_eq!(
            m.describe(),
            "mouse button (1002) sgr (1006), bracketed paste (2004), no auto-wrap (7)"
        );
    }
}
