//! Mouse reports as a terminal writes them to the program, for the mouse tracking mode and
//! encoding the program chose ([`Modes`](crate::term::Modes)), following xterm (`ctlseqs`,
//! "Mouse Tracking"):
//!
//! - X10 compatibility (mode 9) reports presses only (and wheel presses), never releases or
//!   motion; normal tracking (1000) adds releases; button-event tracking (1002) adds motion
//!   while a button is down; any-event tracking (1003) adds motion with no button down.
//! - The button code `Cb` is 0 (left), 1 (middle), 2 (right), 64 (wheel up), 65 (wheel down);
//!   a release is 3 in every encoding but SGR, which repeats the released button and ends
//!   with `m`; motion adds 32 (motion with no button down is 35). The wheel has no release.
//! - Default encoding: `CSI M Cb Cx Cy`, each a character of 32 plus its value (`Cx`, `Cy`
//!   count from 1). xterm would write positions above 95 as single bytes above 127, which are
//!   not text (an asciicast `i` event is text): tuicast refuses them, with a hint to enable
//!   SGR mouse reports (1006). UTF-8 (1005): the same characters written as UTF-8, so positions
//!   up to 2015; past that xterm sends a NUL, and so does tuicast. SGR (1006):
//!   `CSI < Cb ; x ; y M` (or `m`), decimal. urxvt (1015): `CSI Cb+32 ; x ; y M`, decimal.
//!
//! Modifier keys (shift, meta, control) are not sent.

use std::fmt;

use crate::term::{MouseEncoding, MouseTracking};

/// A mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum MouseButton {
    /// The left (first) button.
    #[default]
    Left,
    /// The middle button (the wheel pressed).
    Middle,
    /// The right button.
    Right,
}

impl MouseButton {
    /// The button named `left`, `middle` or `right`.
    pub fn from_name(name: &str) -> Option<MouseButton> {
        match name {
            "left" => Some(MouseButton::Left),
            "middle" => Some(MouseButton::Middle),
            "right" => Some(MouseButton::Right),
            _ => None,
        }
    }

    /// `left`, `middle` or `right`.
    pub fn name(self) -> &'static str {
        match self {
            MouseButton::Left => "left",
            MouseButton::Middle => "middle",
            MouseButton::Right => "right",
        }
    }

    fn code(self) -> u16 {
        match self {
            MouseButton::Left => 0,
            MouseButton::Middle => 1,
            MouseButton::Right => 2,
        }
    }
}

/// Which way the wheel turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScrollDirection {
    /// Away from the user (button 4).
    Up,
    /// Towards the user (button 5).
    Down,
}

impl ScrollDirection {
    /// `up` or `down`.
    pub fn name(self) -> &'static str {
        match self {
            ScrollDirection::Up => "up",
            ScrollDirection::Down => "down",
        }
    }
}

/// One thing the mouse does, as a terminal reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MouseEvent {
    /// A button goes down.
    Press(MouseButton),
    /// A button comes up.
    Release(MouseButton),
    /// The pointer moves, with this button down (or none).
    Motion(Option<MouseButton>),
    /// The wheel turns one notch.
    Wheel(ScrollDirection),
}

/// A position the encoding cannot write as text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MouseEncodeError {
    /// `column` or `row`.
    pub axis: &'static str,
    /// The position, from 1.
    pub position: u32,
}

impl fmt::Display for MouseEncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} is beyond the default mouse encoding ({}s up to {} can be sent as text; \
             xterm would send a byte above 127): the program would need SGR mouse reports \
             (CSI ? 1006 h) or UTF-8 ones (1005)",
            self.axis, self.position, self.axis, DEFAULT_LIMIT
        )
    }
}

impl std::error::Error for MouseEncodeError {}

/// The largest position the default encoding writes as one ASCII character (32 + 95 = DEL).
pub const DEFAULT_LIMIT: u32 = 95;

/// The largest position mode 1005 writes; beyond it xterm writes a NUL.
pub const UTF8_LIMIT: u32 = 2015;

/// The report of `event` at 0-based `row`, `col` for a program that chose `tracking` and
/// `encoding`; `Ok(None)` when that tracking mode does not report the event (a release in X10
/// mode, motion without a button below any-event tracking, anything when tracking is off).
pub fn encode(
    tracking: MouseTracking,
    encoding: MouseEncoding,
    event: MouseEvent,
    row: u16,
    col: u16,
) -> Result<Option<String>, MouseEncodeError> {
    use MouseTracking as T;
    let reported = match (tracking, event) {
        (T::Off, _) => false,
        (_, MouseEvent::Press(_) | MouseEvent::Wheel(_)) => true,
        (T::X10, _) => false,
        (_, MouseEvent::Release(_)) => true,
        (T::Button, MouseEvent::Motion(b)) => b.is_some(),
        (T::Any, MouseEvent::Motion(_)) => true,
        _ => false,
    };
    if !reported {
        return Ok(None);
    }
    let sgr = encoding == MouseEncoding::Sgr;
    let cb: u16 = match event {
        MouseEvent::Press(b) => b.code(),
        MouseEvent::Release(b) if sgr => b.code(),
        MouseEvent::Release(_) => 3,
        MouseEvent::Motion(b) => 32 + b.map_or(3, MouseButton::code),
        MouseEvent::Wheel(ScrollDirection::Up) => 64,
        MouseEvent::Wheel(ScrollDirection::Down) => 65,
    };
    let (x, y) = (u32::from(col) + 1, u32::from(row) + 1);
    Ok(Some(match encoding {
        MouseEncoding::Sgr => {
            let fin = if matches!(event, MouseEvent::Release(_)) {
                'm'
            } else {
                'M'
            };
            format!("\x1b[<{cb};{x};{y}{fin}")
        }
        MouseEncoding::Urxvt => format!("\x1b[{};{x};{y}M", cb + 32),
        MouseEncoding::Default => {
            let pos = |axis, p: u32| {
                if p > DEFAULT_LIMIT {
                    Err(MouseEncodeError { axis, position: p })
                } else {
                    Ok(char::from(32 + p as u8))
                }
            };
            let cx = pos("column", x)?;
            let cy = pos("row", y)?;
            format!("\x1b[M{}{cx}{cy}", char::from(32 + cb as u8))
        }
        MouseEncoding::Utf8 => {
            let pos = |p: u32| {
                if p > UTF8_LIMIT {
                    '\0'
                } else {
                    char::from_u32(32 + p).unwrap_or('\0')
                }
            };
            format!("\x1b[M{}{}{}", char::from(32 + cb as u8), pos(x), pos(y))
        }
        // (A future encoding: report nothing rather than something wrong.)
        #[allow(unreachable_patterns)]
        _ => return Ok(None),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use MouseButton::*;
    use MouseEncoding as E;
    use MouseEvent::*;
    use MouseTracking as T;

    fn enc(t: T, e: E, ev: MouseEvent, row: u16, col: u16) -> Option<String> {
        encode(t, e, ev, row, col).unwrap()
    }

    #[test]
    fn every_tracking_mode_reports_what_xterm_reports() {
        let all = [
            Press(Left),
            Release(Left),
            Motion(Some(Left)),
            Motion(None),
            Wheel(ScrollDirection::Up),
        ];
        let reported = |t| {
            all.iter()
                .map(|&ev| enc(t, E::Sgr, ev, 0, 0).is_some())
                .collect::<Vec<_>>()
        };
        assert_eq!(reported(T::Off), [false; 5]);
        assert_eq!(reported(T::X10), [true, false, false, false, true]);
        assert_eq!(reported(T::Normal), [true, true, false, false, true]);
        assert_eq!(reported(T::Button), [true, true, true, false, true]);
        assert_eq!(reported(T::Any), [true; 5]);
    }

    #[test]
    fn every_encoding_and_button_byte_for_byte() {
        // Row 5, column 10 (0-based 4, 9).
        let cases: [(MouseEvent, &str, &str, &str); 9] = [
            (Press(Left), "\x1b[M *%", "\x1b[<0;10;5M", "\x1b[32;10;5M"),
            (Press(Middle), "\x1b[M!*%", "\x1b[<1;10;5M", "\x1b[33;10;5M"),
            (Press(Right), "\x1b[M\"*%", "\x1b[<2;10;5M", "\x1b[34;10;5M"),
            (Release(Left), "\x1b[M#*%", "\x1b[<0;10;5m", "\x1b[35;10;5M"),
            (
                Release(Right),
                "\x1b[M#*%",
                "\x1b[<2;10;5m",
                "\x1b[35;10;5M",
            ),
            (
                Motion(Some(Left)),
                "\x1b[M@*%",
                "\x1b[<32;10;5M",
                "\x1b[64;10;5M",
            ),
            (Motion(None), "\x1b[MC*%", "\x1b[<35;10;5M", "\x1b[67;10;5M"),
            (
                Wheel(ScrollDirection::Up),
                "\x1b[M`*%",
                "\x1b[<64;10;5M",
                "\x1b[96;10;5M",
            ),
            (
                Wheel(ScrollDirection::Down),
                "\x1b[Ma*%",
                "\x1b[<65;10;5M",
                "\x1b[97;10;5M",
            ),
        ];
        for (ev, default, sgr, urxvt) in cases {
            assert_eq!(
                enc(T::Any, E::Default, ev, 4, 9).unwrap(),
                default,
                "{ev:?}"
            );
            assert_eq!(enc(T::Any, E::Utf8, ev, 4, 9).unwrap(), default, "{ev:?}");
            assert_eq!(enc(T::Any, E::Sgr, ev, 4, 9).unwrap(), sgr, "{ev:?}");
            assert_eq!(enc(T::Any, E::Urxvt, ev, 4, 9).unwrap(), urxvt, "{ev:?}");
        }
    }

    #[test]
    fn every_mode_encoding_and_button_together() {
        // A report's bytes depend on the encoding alone; which events are reported on the
        // tracking mode alone (checked above): the whole product agrees with both.
        let modes = [T::Off, T::X10, T::Normal, T::Button, T::Any];
        let encodings = [E::Default, E::Utf8, E::Sgr, E::Urxvt];
        let mut events = vec![
            Motion(None),
            Wheel(ScrollDirection::Up),
            Wheel(ScrollDirection::Down),
        ];
        for b in [Left, Middle, Right] {
            events.extend([Press(b), Release(b), Motion(Some(b))]);
        }
        let mut reported = 0;
        for t in modes {
            for e in encodings {
                for &ev in &events {
                    let got = enc(t, e, ev, 2, 3);
                    let on = match (t, ev) {
                        (T::Off, _) => false,
                        (_, Press(_) | Wheel(_)) => true,
                        (T::X10, _) => false,
                        (_, Release(_)) => true,
                        (T::Button, Motion(b)) => b.is_some(),
                        (t, _) => t == T::Any,
                    };
                    assert_eq!(got.is_some(), on, "{t:?} {e:?} {ev:?}");
                    if let Some(g) = got {
                        assert_eq!(Some(g), enc(T::Any, e, ev, 2, 3), "{t:?} {e:?} {ev:?}");
                        reported += 1;
                    }
                }
            }
        }
        // Per encoding: X10 5 (3 presses, 2 wheel turns), normal 8 (and 3 releases), button 11
        // (and 3 drags), any 12 (and a bare motion).
        assert_eq!(reported, 4 * (5 + 8 + 11 + 12));
    }

    #[test]
    fn positions_at_the_limits_of_each_encoding() {
        // The default encoding: up to 95 as text (DEL), beyond that an error naming the axis.
        assert_eq!(
            enc(T::Normal, E::Default, Press(Left), 0, 94).unwrap(),
            "\x1b[M \x7f!"
        );
        let e = encode(T::Normal, E::Default, Press(Left), 95, 0).unwrap_err();
        assert_eq!((e.axis, e.position), ("row", 96));
        assert!(e.to_string().contains("1006"), "{e}");
        // UTF-8: two bytes from 96 on, a NUL past 2015.
        let s = enc(T::Normal, E::Utf8, Press(Left), 0, 95).unwrap();
        assert_eq!(s.as_bytes(), b"\x1b[M \xc2\x80!");
        let s = enc(T::Normal, E::Utf8, Press(Left), 0, 2014).unwrap();
        assert_eq!(s.as_bytes(), b"\x1b[M \xdf\xbf!");
        let s = enc(T::Normal, E::Utf8, Press(Left), 0, 2015).unwrap();
        assert_eq!(s.as_bytes(), b"\x1b[M \0!");
        // SGR and urxvt: any position.
        assert_eq!(
            enc(T::Normal, E::Sgr, Press(Left), 299, 999).unwrap(),
            "\x1b[<0;1000;300M"
        );
        assert_eq!(
            enc(T::Normal, E::Urxvt, Press(Left), 299, 999).unwrap(),
            "\x1b[32;1000;300M"
        );
    }
}
