//! [`Rgb`], the one sRGB colour type: cast themes, truecolour cells and pixels all use it.
//!
//! A leaf module (it uses nothing of the crate), so every stage can name colours: the cast
//! model types a theme's colours when it reads them, the terminal model its truecolour cells,
//! the renderer its pixels. Written as CSS-style `#rrggbb`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// An sRGB colour: red, green, blue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rgb(pub u8, pub u8, pub u8);

/// Why a text is not a colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseRgbError {
    text: String,
}

impl fmt::Display for ParseRgbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Debug quoting escapes control characters, so the text is safe to print.
        write!(f, "{:?} is not a colour: expected #rrggbb", self.text)
    }
}

impl std::error::Error for ParseRgbError {}

impl Rgb {
    /// Parses a colour as people write it: `#rrggbb`, also without the `#`, also the short
    /// `#rgb` (each digit doubled), surrounding whitespace ignored. What casts' themes and
    /// the `--theme` lists hold.
    pub fn parse(s: &str) -> Result<Rgb, ParseRgbError> {
        let hex = s.trim();
        let hex = hex.strip_prefix('#').unwrap_or(hex);
        let bad = || ParseRgbError {
            // Long enough to recognise, short enough for one message line.
            text: s.chars().take(40).collect(),
        };
        let v = match (hex.len(), hex_value(hex)) {
            (6, Some(v)) => v,
            (3, Some(v)) => {
                let (r, g, b) = ((v >> 8) & 0xf, (v >> 4) & 0xf, v & 0xf);
                ((r * 17) << 16) | ((g * 17) << 8) | (b * 17)
            }
            _ => return Err(bad()),
        };
        Ok(Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8))
    }

    /// Parses exactly `#rrggbb` (either case), the form [`Display`](fmt::Display) writes;
    /// `None` for anything else. For formats tuicast writes itself, which read back only
    /// what they wrote.
    pub fn from_hex(s: &str) -> Option<Rgb> {
        let hex = s.strip_prefix('#')?;
        if hex.len() != 6 {
            return None;
        }
        let v = hex_value(hex)?;
        Some(Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8))
    }

    /// `self` moved towards `other` by `t`/256 (0 is `self`, 256 is `other`).
    pub fn mix(self, other: Rgb, t: u32) -> Rgb {
        let t = t.min(256);
        let m = |a: u8, b: u8| ((a as u32 * (256 - t) + b as u32 * t + 128) >> 8) as u8;
        Rgb(m(self.0, other.0), m(self.1, other.1), m(self.2, other.2))
    }

    /// Relative luminance in 0..=255 (integer Rec. 601 weights; enough to pick a text colour).
    pub fn luma(self) -> u8 {
        ((self.0 as u32 * 299 + self.1 as u32 * 587 + self.2 as u32 * 114) / 1000) as u8
    }
}

impl fmt::Display for Rgb {
    /// `#rrggbb`, lowercase.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

impl FromStr for Rgb {
    type Err = ParseRgbError;

    /// [`Rgb::parse`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rgb::parse(s)
    }
}

/// The value of up to 8 hex digits; `None` when a character is not one (`from_str_radix`
/// alone would take a leading `+`).
fn hex_value(hex: &str) -> Option<u32> {
    if hex.is_empty() || hex.len() > 8 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_people_write() {
        assert_eq!(Rgb::parse("#1a2B3c"), Ok(Rgb(0x1a, 0x2b, 0x3c)));
        assert_eq!(Rgb::parse(" 1a2b3c "), Ok(Rgb(0x1a, 0x2b, 0x3c)));
        assert_eq!(Rgb::parse("#abc"), Ok(Rgb(0xaa, 0xbb, 0xcc)));
        assert_eq!("000".parse::<Rgb>(), Ok(Rgb(0, 0, 0)));
        for bad in [
            "", "#", "#12345", "#1234567", "+12345", "#fffffg", "#12 456", "red",
        ] {
            let e = Rgb::parse(bad).unwrap_err();
            assert!(e.to_string().contains("expected #rrggbb"), "{bad:?}: {e}");
        }
        assert_eq!(
            Rgb::parse("\x1b[31m").unwrap_err().to_string(),
            "\"\\u{1b}[31m\" is not a colour: expected #rrggbb",
            "control characters are escaped"
        );
    }

    #[test]
    fn the_strict_form_reads_back_what_display_writes() {
        for c in [Rgb(0, 0, 0), Rgb(255, 255, 255), Rgb(1, 0xab, 0x7f)] {
            assert_eq!(Rgb::from_hex(&c.to_string()), Some(c));
        }
        assert_eq!(Rgb(1, 0xab, 0x7f).to_string(), "#01ab7f");
        assert_eq!(Rgb::from_hex("#ABCDEF"), Some(Rgb(0xab, 0xcd, 0xef)));
        for bad in ["abcdef", "#abc", " #abcdef", "#abcdeg", "#+bcdef"] {
            assert_eq!(Rgb::from_hex(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn mixing_and_luma() {
        let (black, white) = (Rgb(0, 0, 0), Rgb(255, 255, 255));
        assert_eq!(black.mix(white, 128), Rgb(128, 128, 128));
        assert_eq!(black.mix(white, 0), black);
        assert_eq!(black.mix(white, 999), white);
        assert_eq!((black.luma(), white.luma()), (0, 255));
    }
}
