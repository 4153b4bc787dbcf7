//! [`CellText`]: the text of one cell, kept inline.
//!
//! Nearly every cell holds one character of at most 4 bytes; a few hold a character with
//! combining marks. Keeping up to 22 bytes inside the value (and only longer text on
//! the heap) makes reading a screen out of the engine free of one allocation per cell, which
//! was most of what a snapshot check cost (docs/performance.md, "Snapshot harness").

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Bytes a [`CellText`] keeps without allocating.
const INLINE: usize = 22;

/// The text of a cell: a character with any combining marks, or nothing for the second half
/// of a wide character. Derefs to `str` and compares with strings.
#[derive(Clone)]
pub struct CellText(Repr);

#[derive(Clone)]
enum Repr {
    /// `bytes[..len]` is the text, valid UTF-8; the rest is zero.
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    Heap(Box<str>),
}

impl CellText {
    /// No text (the tail of a wide character).
    pub const EMPTY: CellText = CellText(Repr::Inline {
        len: 0,
        bytes: [0; INLINE],
    });

    /// A blank cell's text, one space.
    pub const SPACE: CellText = CellText::from_char(' ');

    /// One character, without allocating.
    pub const fn from_char(ch: char) -> CellText {
        let mut bytes = [0; INLINE];
        let c = ch as u32;
        let len = if c < 0x80 {
            bytes[0] = c as u8;
            1
        } else if c < 0x800 {
            bytes[0] = 0xc0 | (c >> 6) as u8;
            bytes[1] = 0x80 | (c & 0x3f) as u8;
            2
        } else if c < 0x10000 {
            bytes[0] = 0xe0 | (c >> 12) as u8;
            bytes[1] = 0x80 | ((c >> 6) & 0x3f) as u8;
            bytes[2] = 0x80 | (c & 0x3f) as u8;
            3
        } else {
            bytes[0] = 0xf0 | (c >> 18) as u8;
            bytes[1] = 0x80 | ((c >> 12) & 0x3f) as u8;
            bytes[2] = 0x80 | ((c >> 6) & 0x3f) as u8;
            bytes[3] = 0x80 | (c & 0x3f) as u8;
            4
        };
        CellText(Repr::Inline { len, bytes })
    }

    /// Any text: inline when it fits, on the heap otherwise.
    pub fn new(text: &str) -> CellText {
        if text.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..text.len()].copy_from_slice(text.as_bytes());
            CellText(Repr::Inline {
                len: text.len() as u8,
                bytes,
            })
        } else {
            CellText(Repr::Heap(text.into()))
        }
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => {
                // Only `new`, `from_char` and `push_str` fill `bytes`, always with whole UTF-8
                // text; `from_utf8` still checks it (one or a few bytes, cheap).
                std::str::from_utf8(&bytes[..*len as usize]).unwrap_or("\u{fffd}")
            }
            Repr::Heap(s) => s,
        }
    }

    /// The UTF-8 bytes of the text (without the check [`as_str`](Self::as_str) makes).
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { len, bytes } => &bytes[..*len as usize],
            Repr::Heap(s) => s.as_bytes(),
        }
    }

    /// The byte when the text is one ASCII character (nearly every cell): a quicker path
    /// than [`as_str`](Self::as_str) for code that copies cells one by one.
    #[inline]
    pub fn ascii(&self) -> Option<u8> {
        match &self.0 {
            Repr::Inline { len: 1, bytes } if bytes[0] < 0x80 => Some(bytes[0]),
            _ => None,
        }
    }

    /// Appends text (combining marks), moving to the heap when it no longer fits inline.
    pub fn push_str(&mut self, more: &str) {
        match &mut self.0 {
            Repr::Inline { len, bytes } if *len as usize + more.len() <= INLINE => {
                let start = *len as usize;
                bytes[start..start + more.len()].copy_from_slice(more.as_bytes());
                *len += more.len() as u8;
            }
            _ => {
                let mut s = String::with_capacity(self.len() + more.len());
                s.push_str(self.as_str());
                s.push_str(more);
                self.0 = Repr::Heap(s.into_boxed_str());
            }
        }
    }

    /// Appends one character.
    pub fn push(&mut self, ch: char) {
        self.push_str(ch.encode_utf8(&mut [0; 4]));
    }
}

impl Default for CellText {
    fn default() -> Self {
        CellText::EMPTY
    }
}

impl Deref for CellText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for CellText {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for CellText {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for CellText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for CellText {}

impl std::hash::Hash for CellText {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl PartialEq<str> for CellText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for CellText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for CellText {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<CellText> for String {
    fn eq(&self, other: &CellText) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<CellText> for &str {
    fn eq(&self, other: &CellText) -> bool {
        *self == other.as_str()
    }
}

impl From<&str> for CellText {
    fn from(s: &str) -> Self {
        CellText::new(s)
    }
}

impl From<String> for CellText {
    fn from(s: String) -> Self {
        CellText::new(&s)
    }
}

impl From<char> for CellText {
    fn from(ch: char) -> Self {
        CellText::from_char(ch)
    }
}

impl fmt::Debug for CellText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for CellText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for CellText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for CellText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ok(CellText::new(&s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn is_small() {
        assert_eq!(std::mem::size_of::<CellText>(), 24);
    }

    #[test]
    fn grows_onto_the_heap_and_still_equals_the_same_text() {
        let mut t = CellText::from_char('e');
        for _ in 0..20 {
            t.push('\u{301}');
        }
        let s: String = std::iter::once('e')
            .chain(std::iter::repeat_n('\u{301}', 20))
            .collect();
        assert_eq!(t, s);
        assert!(matches!(t.0, Repr::Heap(_)));
        assert_eq!(t, CellText::new(&s));
        assert_eq!(CellText::EMPTY, "");
        assert_eq!(CellText::SPACE, " ");
        assert_eq!(format!("{:?}", CellText::from("\x1b")), "\"\\u{1b}\"");
    }

    #[test]
    fn serializes_as_a_string() {
        let t = CellText::from("日");
        assert_eq!(serde_json::to_string(&t).unwrap(), "\"日\"");
        let back: CellText = serde_json::from_str("\"a\\u0301\"").unwrap();
        assert_eq!(back, "a\u{301}");
    }

    proptest! {
        #[test]
        fn any_char_and_marks_read_back(ch in any::<char>(), marks in "[\u{300}-\u{36f}]{0,12}") {
            let mut t = CellText::from_char(ch);
            prop_assert_eq!(t.as_str(), ch.to_string());
            t.push_str(&marks);
            prop_assert_eq!(t.as_str(), format!("{ch}{marks}"));
        }
    }
}
