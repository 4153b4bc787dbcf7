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
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
