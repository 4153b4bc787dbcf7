//! The terminal model: an owned, engine-independent [`Screen`], and the [`Engine`] trait with
//! one adapter per terminal emulator crate.
//!
//! `native` (tuicast's own engine) is the default, and every rule tuicast follows lives there;
//! `avt` (avt 0.17, asciinema's engine, as the crate is: what asciinema's player shows) and
//! `vt100` are for differential replay, each read as it keeps its screen, with no rule of
//! tuicast's. Whatever the engine, the screen comes out as the same types.
//!
//! Its files:
//! - `mod.rs`: `Screen`, `Cell` (its text a `CellText`, inline up to 22 bytes:
//!   `cell_text.rs`), `Color`, `Attrs`, `Cursor`, `Engine`, `EngineKind`.
//! - `native/`: the native engine (its module doc lists its files).
//! - `avt.rs`: the avt adapter, thin: avt's screen as avt keeps it (what it gives and what it
//!   does not is its module doc).
//! - `vt100_engine.rs`: the vt100 adapter.
//! - `work.rs`: the engines' work budget. `unknown.rs`: the sequences the native engine does
//!   not understand, by kind.
//! - `options.rs`: `EngineOptions` (DECCOLM off by default, as in xterm) and `EngineSpec` (a
//!   kind with its options; `[terminal]` in `tuicast.toml` and a cast's TOML, `--deccolm`).
//! - `sequence.rs`: the one escape-sequence tracker (avt's parser states), used by
//!   `record::query`. `charsets.rs`: G0–G3, national sets, single shifts.
//! - `modes.rs`: `Modes` (mouse tracking and encoding, bracketed paste, focus, keys, wrap,
//!   origin). `state.rs`: `TermState` (icon name, bells and clipboard writes since the last
//!   checkpoint, hyperlinks, `Scrollback`), `Unsupported`, OSC parsing shared by the engines.
//! - `select.rs`: `CellSelection`, the one way masks, annotations and regions pick cells.
//!   `find.rs`: where text is (`Screen::find`, `cells_of_text`), the text and style of cells,
//!   `Screen::hash_hex`, masking (`hide_rects`, `PLACEHOLDER`).
//! - `text.rs`: the screen's text. `outline/`: `Screen::outline` (boxes with titles and
//!   stable names, text blocks, highlighted rows, bars). `runs.rs`: runs of cells as messages
//!   show them.
//! - `json.rs`: the JSON forms both the render and the inspection write (`SizeJson`,
//!   `ColorJson`, `CheckpointJson`).

mod avt;
mod cell_text;
mod charsets;
mod find;
mod json;
mod modes;
mod native;
mod options;
mod outline;
mod runs;
pub(crate) mod select;
pub(crate) mod sequence;
pub(crate) mod state;
mod text;
mod unknown;
#[cfg(feature = "vt100")]
mod vt100_engine;
mod work;

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::pos::{Ordinal, Place, Point};

pub use self::avt::AvtEngine;
pub use self::native::NativeEngine;
pub use cell_text::CellText;
pub use find::{hide_rects, rects_text, CellStyle, PLACEHOLDER};
pub use json::{CheckpointJson, ColorJson, SizeJson};
pub(crate) use modes::Keyboard;
pub use modes::{Modes, MouseEncoding, MouseTracking, KNOWN_DEC_MODES};
pub use options::{EngineOptions, EngineSpec};
pub use outline::{Bar, BoxPart, CursorRow, Highlight, HighlightKind, Outline, TextBlock};
pub use runs::{describe_runs, row_runs, suggest_masks, suggest_masks_in, CellRun};
pub use select::{CellRect, CellSelection, SelectionError, SelectionErrorKind};
pub use state::{
    ClipboardWrite, Hyperlink, Scrollback, ShellMark, ShellMarkKind, TermState, Unsupported,
    MAX_CLIPBOARD_TEXT, MAX_CLIPBOARD_WRITES, MAX_LINKS, MAX_LINK_ID, MAX_ROW_MARKS,
    MAX_SCROLLBACK, MAX_UNSUPPORTED_KINDS, MAX_URI,
};
pub(crate) use text::safe_char;
#[cfg(feature = "vt100")]
pub use vt100_engine::Vt100Engine;
pub use work::{WORK_BASE, WORK_PER_BYTE};

pub(crate) use crate::size::Size;

/// The truecolour of a cell ([`Color::Rgb`]): the crate's one RGB type.
pub(crate) use crate::rgb::Rgb;

/// A cell colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub enum Color {
    /// The terminal's default foreground or background.
    #[default]
    Default,
    /// A palette index: 0–7 standard, 8–15 bright, 16–255 the 256-colour cube and greys.
    Indexed(u8),
    /// A truecolour value.
    Rgb(Rgb),
}

impl Color {
    /// The colour as a person reads it in a message: `default`, `4 (blue)`, `9 (bright red)`,
    /// `208` (beyond the 16 named colours), or `#rrggbb`.
    pub fn describe(&self) -> String {
        const NAMES: [&str; 8] = [
            "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        ];
        match self {
            Color::Indexed(i @ 0..=7) => format!("{i} ({})", NAMES[*i as usize]),
            Color::Indexed(i @ 8..=15) => format!("{i} (bright {})", NAMES[*i as usize - 8]),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Color {
    /// `default`, a palette index like `1`, or `#rrggbb`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Color::Default => write!(f, "default"),
            Color::Indexed(i) => write!(f, "{i}"),
            Color::Rgb(c) => write!(f, "{c}"),
        }
    }
}

/// Text attributes of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Attrs {
    /// Bold (increased intensity).
    pub bold: bool,
    /// Dim (faint, decreased intensity).
    pub dim: bool,
    /// Italic.
    pub italic: bool,
    /// Underlined.
    pub underline: bool,
    /// Crossed out.
    pub strikethrough: bool,
    /// Foreground and background swapped.
    pub inverse: bool,
    /// Blinking.
    pub blink: bool,
    /// Concealed (SGR 8): the text is in the cell but not shown.
    #[serde(default)]
    pub hidden: bool,
}

impl Attrs {
    /// True when no attribute is set.
    pub fn is_empty(&self) -> bool {
        *self == Attrs::default()
    }

    /// The names of the attributes that are set, in a fixed order.
    pub fn names(&self) -> Vec<&'static str> {
        let all = [
            (self.bold, "bold"),
            (self.dim, "dim"),
            (self.italic, "italic"),
            (self.underline, "underline"),
            (self.strikethrough, "strikethrough"),
            (self.inverse, "inverse"),
            (self.blink, "blink"),
            (self.hidden, "hidden"),
        ];
        all.iter().filter(|(on, _)| *on).map(|(_, n)| *n).collect()
    }
}

/// One cell of the screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Cell {
    /// The character drawn in the cell with any combining marks; empty for the second half
    /// of a wide character.
    /// (A [`CellText`] keeps short text inline: reading a screen allocates nothing per cell.)
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub text: CellText,
    /// Columns the character takes: 1, 2 for a wide character, 0 for a wide character's tail.
    pub width: u8,
    /// Foreground colour.
    pub fg: Color,
    /// Background colour.
    pub bg: Color,
    /// Text attributes.
    pub attrs: Attrs,
    /// The cell's OSC 8 hyperlink: 0 for none, `n` for the screen's
    /// [`state.links[n - 1]`](TermState::links) ([`TermState::link`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub link: u16,
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

impl Default for Cell {
    fn default() -> Self {
        Cell {
            text: CellText::SPACE,
            width: 1,
            fg: Color::Default,
            bg: Color::Default,
            attrs: Attrs::default(),
            link: 0,
        }
    }
}

impl Cell {
    /// True when the cell has the same colours and attributes as `other`.
    pub fn same_style(&self, other: &Cell) -> bool {
        self.fg == other.fg && self.bg == other.bg && self.attrs == other.attrs
    }
}

/// Cursor position (0-based), visibility and the shape the program asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Cursor {
    /// 0-based row.
    pub row: u16,
    /// 0-based column.
    pub col: u16,
    /// Whether the cursor is shown.
    pub visible: bool,
    /// The shape set with DECSCUSR (`CSI Ps SP q`); a steady block until a program sets one.
    #[serde(default)]
    pub shape: CursorShape,
}

impl Cursor {
    /// The cursor's cell, 0-based.
    pub fn point(&self) -> Point {
        Point::new(self.row, self.col)
    }

    /// The cursor's cell as people read it, counted from 1 (`row 3, column 5`).
    pub fn place(&self) -> Place {
        self.point().place()
    }
}

/// The cursor's shape, as a program sets it with DECSCUSR (`CSI Ps SP q`).
///
/// `Ps` is 0 (the default: a steady block here), 1 blinking block, 2 steady block,
/// 3 blinking underline, 4 steady underline, 5 blinking bar, 6 steady bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct CursorShape {
    /// The form of the cursor.
    pub kind: CursorKind,
    /// Whether the program asked for a blinking cursor.
    pub blinking: bool,
}

/// The form of a cursor: block, underline or bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum CursorKind {
    /// The whole cell (the default).
    #[default]
    Block,
    /// A line under the cell.
    Underline,
    /// A vertical bar at the left of the cell.
    Bar,
}

impl CursorKind {
    /// `block`, `underline` or `bar`.
    pub fn name(self) -> &'static str {
        match self {
            CursorKind::Block => "block",
            CursorKind::Underline => "underline",
            CursorKind::Bar => "bar",
        }
    }

    /// The kind [`name`](Self::name) gives `name`.
    pub fn from_name(name: &str) -> Option<CursorKind> {
        [CursorKind::Block, CursorKind::Underline, CursorKind::Bar]
            .into_iter()
            .find(|k| k.name() == name)
    }
}

impl CursorShape {
    /// The shape DECSCUSR `Ps` selects, or `None` for a `Ps` terminals ignore (above 6).
    pub fn from_decscusr(ps: u16) -> Option<CursorShape> {
        let (kind, blinking) = match ps {
            0 => return Some(CursorShape::default()),
            1 => (CursorKind::Block, true),
            2 => (CursorKind::Block, false),
            3 => (CursorKind::Underline, true),
            4 => (CursorKind::Underline, false),
            5 => (CursorKind::Bar, true),
            6 => (CursorKind::Bar, false),
            _ => return None,
        };
        Some(CursorShape { kind, blinking })
    }

    /// True for the default, a steady block.
    pub fn is_default(&self) -> bool {
        *self == CursorShape::default()
    }
}

/// The DECSCUSR `Ps` of a shape (the inverse of [`CursorShape::from_decscusr`], with 2 for
/// the default steady block): what the native engine reports to DECRQSS.
pub(in crate::term) fn decscusr(shape: CursorShape) -> u16 {
    let base = match shape.kind {
        CursorKind::Underline => 3,
        CursorKind::Bar => 5,
        _ => 1,
    };
    base + u16::from(!shape.blinking)
}

impl fmt::Display for CursorShape {
    /// `block`, `bar`, `underline`, with `blinking ` before it when the cursor blinks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.blinking {
            f.write_str("blinking ")?;
        }
        f.write_str(self.kind.name())
    }
}

/// What a terminal shows at one moment, independent of the engine that produced it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Screen {
    /// Size of the grid.
    pub size: Size,
    /// `size.rows` rows of `size.cols` cells each.
    pub rows: Vec<Vec<Cell>>,
    /// The cursor.
    pub cursor: Cursor,
    /// The window title, where the program set one and the engine tracks it.
    pub title: Option<String>,
    /// Whether the alternate screen buffer is active (full-screen programs use it).
    pub alternate: bool,
    /// Icon name, bells, clipboard writes, hyperlinks and scrollback (`state.rs`).
    #[serde(default)]
    pub state: TermState,
    /// The terminal modes the program set (mouse, paste, focus, keys, wrap, origin).
    #[serde(default)]
    pub modes: Modes,
}

impl Screen {
    /// A blank screen of `size`.
    pub fn blank(size: Size) -> Self {
        Screen {
            size,
            rows: vec![vec![Cell::default(); size.cols as usize]; size.rows as usize],
            cursor: Cursor {
                row: 0,
                col: 0,
                visible: true,
                shape: CursorShape::default(),
            },
            title: None,
            alternate: false,
            state: TermState::default(),
            modes: Modes::default(),
        }
    }

    /// The cells covered by each non-empty match of `regex` in row `row` (its text as
    /// [`row_text`](Self::row_text) gives it, untrimmed), left to right; a wide character is
    /// covered whole. Masks and annotations find their cells with it.
    pub fn find_cells(&self, row: usize, regex: &regex::Regex) -> Vec<Range<usize>> {
        let Some(cells) = self.rows.get(row) else {
            return Vec::new();
        };
        // The row's text and, for each of its bytes, the cell it came from.
        let mut text = String::new();
        let mut cell_of = Vec::new();
        for (c, cell) in cells.iter().enumerate() {
            if cell.width == 0 {
                continue;
            }
            text.push_str(&cell.text);
            cell_of.resize(text.len(), c);
        }
        regex
            .find_iter(&text)
            .filter(|m| m.start() < m.end())
            .map(|m| {
                let last = cell_of[m.end() - 1];
                let width = cells.get(last).map_or(1, |c| c.width.max(1) as usize);
                cell_of[m.start()]..last + width
            })
            .collect()
    }
}

/// The SGR parameters that set a pen of `attrs`, `fg` and `bg` from the default, as xterm
/// reports them to DECRQSS (`DCS $ q m ST`): `0`, then the attributes and colours
/// (`0;1;91;48:5:200`). Both of tuicast's engines answer with it.
pub(crate) fn sgr_report(attrs: Attrs, fg: Color, bg: Color) -> String {
    use std::fmt::Write as _;
    let mut p = String::from("0");
    // xterm's order: the VT100's attributes, then the ones it added (faint, italic, crossed).
    for (on, code) in [
        (attrs.bold, ";1"),
        (attrs.underline, ";4"),
        (attrs.blink, ";5"),
        (attrs.inverse, ";7"),
        (attrs.hidden, ";8"),
        (attrs.dim, ";2"),
        (attrs.italic, ";3"),
        (attrs.strikethrough, ";9"),
    ] {
        if on {
            p.push_str(code);
        }
    }
    // Bold makes the first eight foreground colours bright (xterm's `boldColors`, on by
    // default), and xterm reports the colour it shows.
    let fg = match fg {
        Color::Indexed(i) if i < 8 && attrs.bold => Color::Indexed(i + 8),
        other => other,
    };
    for (colour, base) in [(fg, 30u16), (bg, 40)] {
        let _ = match colour {
            Color::Default => Ok(()),
            Color::Indexed(i) if i < 8 => write!(p, ";{}", base + u16::from(i)),
            Color::Indexed(i) if i < 16 => write!(p, ";{}", base + 60 + u16::from(i) - 8),
            Color::Indexed(i) => write!(p, ";{}:5:{i}", base + 8),
            Color::Rgb(c) => write!(p, ";{}:2::{}:{}:{}", base + 8, c.0, c.1, c.2),
        };
    }
    p
}

/// The seal of [`Engine`]: only this crate's engines implement it.
mod sealed {
    /// Implemented by [`super::NativeEngine`], [`super::AvtEngine`] and `Vt100Engine` only.
    pub trait Sealed {}
}

/// A terminal emulator fed with program output.
///
/// Sealed: tuicast's own engines ([`NativeEngine`], [`AvtEngine`], and `Vt100Engine` with the
/// `vt100` feature) implement it, chosen by [`EngineKind`]; no API takes an engine of a
/// user's, so the trait may grow methods without a breaking change.
pub trait Engine: sealed::Sealed {
    /// Feeds text the program wrote. Any chunking of the same text gives the same screen.
    fn feed(&mut self, text: &str);
    /// Resizes the terminal.
    fn resize(&mut self, size: Size);
    /// The current size.
    fn size(&self) -> Size;
    /// A snapshot of the screen.
    fn screen(&self) -> Screen;
    /// Starts counting bells and clipboard writes afresh ([`TermState`]): called after the
    /// screen of each checkpoint is taken.
    fn checkpoint(&mut self) {}
    /// The escape sequences fed so far that the engine did not understand.
    fn unsupported(&self) -> Unsupported {
        Unsupported::default()
    }
    /// A limit on the engine's work that the output fed so far has passed (its message), so
    /// that the screen is no longer what a terminal would show: a replay fails there.
    fn limit_passed(&self) -> Option<String> {
        None
    }
}

/// Which terminal engine to replay with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum EngineKind {
    /// avt 0.17, asciinema's virtual terminal, as the crate is ([`AvtEngine`]): what
    /// asciinema's player shows, for differential replay.
    Avt,
    /// The vt100 crate (cargo feature `vt100`).
    #[cfg(feature = "vt100")]
    Vt100,
    /// tuicast's own engine ([`NativeEngine`]): the default, where every rule tuicast follows
    /// lives (the conformance corpus scores it on every screen) at under 0.6× asciinema's
    /// instructions.
    #[default]
    Native,
}

impl EngineKind {
    /// Every engine of this build, default first.
    #[cfg(feature = "vt100")]
    pub const ALL: [EngineKind; 3] = [EngineKind::Native, EngineKind::Avt, EngineKind::Vt100];
    /// Every engine of this build, default first (the native engine and avt: the `vt100`
    /// feature is off).
    #[cfg(not(feature = "vt100"))]
    pub const ALL: [EngineKind; 2] = [EngineKind::Native, EngineKind::Avt];

    /// Makes a fresh engine of this kind with a blank screen of `size`.
    pub fn create(self, size: Size) -> Box<dyn Engine + Send> {
        self.create_with(size, EngineOptions::default())
    }

    /// The engine's name as the CLI spells it.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Avt => "avt",
            #[cfg(feature = "vt100")]
            EngineKind::Vt100 => "vt100",
            EngineKind::Native => "native",
        }
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EngineKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "avt" => Ok(EngineKind::Avt),
            "native" => Ok(EngineKind::Native),
            #[cfg(feature = "vt100")]
            "vt100" => Ok(EngineKind::Vt100),
            #[cfg(not(feature = "vt100"))]
            "vt100" => {
                Err("this build of tuicast has no vt100 engine (cargo feature `vt100`)".into())
            }
            other => Err(format!(
                "unknown engine {other:?}: expected avt, native or vt100"
            )),
        }
    }
}

message_error!(
    /// Why a rows or columns range (`3`, `2..5`, …) is not one.
    RangeError, RangeErrorKind {
        /// Not of the form `3`, `2..5`, `2..`, `..5` or `2..=4`, or empty.
        Syntax,
        /// A 0, where rows and columns count from 1.
        Zero,
    }
);

/// Parses a range of rows or columns as masks, annotations and regions write them, counted
/// from 1 as messages and goldens show positions (the top row and the first column are 1):
/// `3`, `2..5` (2, 3 and 4: `..` stops before its end, as in Rust), `2..=4` (2 to 4), `2..`
/// and `..5`. Gives 0-based indices (`"3"` is `2..3`); the range is never empty, and 0 is an
/// error that says positions count from 1.
pub fn parse_cell_range(text: &str) -> Result<Range<usize>, RangeError> {
    let text = text.trim();
    let shown = crate::escape::escape_for_terminal(text, 40);
    let bad = || {
        RangeError::new(RangeErrorKind::Syntax, format!(
            "range \"{shown}\" must look like 3, 2..5, 2.., ..5 or 2..=4 (rows and columns count from 1)"
        ))
    };
    let num = |s: &str| -> Result<usize, RangeError> {
        let n = s.trim().parse::<usize>().map_err(|_| bad())?;
        let n = Ordinal::new(n).ok_or_else(|| {
            RangeError::new(
                RangeErrorKind::Zero,
                format!(
                    "range \"{shown}\" has a 0: rows and columns count from 1 (the top row is 1)"
                ),
            )
        })?;
        Ok(n.index())
    };
    let start = |a: &str| if a.trim().is_empty() { Ok(0) } else { num(a) };
    let (start, end) = if let Some((a, b)) = text.split_once("..=") {
        (start(a)?, num(b)?.checked_add(1).ok_or_else(bad)?)
    } else if let Some((a, b)) = text.split_once("..") {
        let end = if b.trim().is_empty() {
            usize::MAX
        } else {
            num(b)?
        };
        (start(a)?, end)
    } else {
        let i = num(text)?;
        (i, i.checked_add(1).ok_or_else(bad)?)
    };
    if start < end {
        Ok(start..end)
    } else {
        Err(bad())
    }
}

/// A screen of `size` after the native engine was fed `input` (for tests).
#[cfg(test)]
pub(crate) fn test_screen(size: Size, input: &str) -> Screen {
    let mut e = EngineKind::Native.create(size);
    e.feed(input);
    e.screen()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_ranges_parse_and_bad_ones_say_what_is_expected() {
        // Counted from 1, as people read positions; indices come out 0-based.
        for (text, range) in [
            ("3", 2..3),
            (" 2..5 ", 1..4),
            ("2..", 1..usize::MAX),
            ("..5", 0..4),
            ("2..=4", 1..4),
            ("..=1", 0..1),
            ("1", 0..1),
        ] {
            assert_eq!(parse_cell_range(text), Ok(range), "{text}");
        }
        for zero in ["0", "0..3", "..=0", "2..=0"] {
            let e = parse_cell_range(zero).unwrap_err();
            assert!(e.message().contains("count from 1"), "{zero}: {e}");
        }
        for bad in [
            "",
            "x",
            "5..2",
            "3..3",
            "..1",
            "..=18446744073709551616",
            "18446744073709551616",
            "1..\u{1b}",
        ] {
            let e = parse_cell_range(bad).unwrap_err();
            assert!(e.message().contains("must look like 3, 2..5"), "{e}");
            assert!(!e.message().contains('\x1b'), "{e}");
        }
    }

    #[test]
    fn regex_matches_cover_their_cells_and_wide_characters_whole() {
        let s = test_screen(Size { cols: 12, rows: 1 }, "ab日本cd x");
        let re = regex::Regex::new("b日|本c|x|z*").unwrap();
        assert_eq!(s.find_cells(0, &re), vec![1..4, 4..7, 9..10]);
        assert!(s.find_cells(5, &re).is_empty());
    }

    fn screen(kind: EngineKind, size: Size, input: &str) -> Screen {
        let mut e = kind.create(size);
        e.feed(input);
        e.screen()
    }

    const SMALL: Size = Size { cols: 10, rows: 3 };

    #[test]
    fn size_parses_and_prints_cols_first() {
        let s: Size = "100x30".parse().unwrap();
        assert_eq!(
            s,
            Size {
                cols: 100,
                rows: 30
            }
        );
        assert_eq!(s.to_string(), "100x30");
        assert!("0x3".parse::<Size>().is_err());
        assert!("80by24".parse::<Size>().is_err());
        assert!("20000x3".parse::<Size>().is_err());
    }

    #[test]
    fn both_engines_read_colours_and_attributes() {
        for kind in EngineKind::ALL {
            let s = screen(
                kind,
                SMALL,
                "\x1b[1;4;31;42mA\x1b[0m\x1b[38;5;200mB\x1b[38;2;1;2;3;7mC",
            );
            let a = &s.rows[0][0];
            assert_eq!(
                (a.fg, a.bg),
                (Color::Indexed(1), Color::Indexed(2)),
                "{kind}"
            );
            assert!(
                a.attrs.bold && a.attrs.underline && !a.attrs.italic,
                "{kind}"
            );
            assert_eq!(s.rows[0][1].fg, Color::Indexed(200), "{kind}");
            assert_eq!(s.rows[0][2].fg, Color::Rgb(Rgb(1, 2, 3)), "{kind}");
            assert!(s.rows[0][2].attrs.inverse, "{kind}");
            assert_eq!(
                s.cursor,
                Cursor {
                    row: 0,
                    col: 3,
                    visible: true,
                    shape: CursorShape::default(),
                },
                "{kind}"
            );
        }
    }

    #[test]
    fn wide_characters_take_two_cells_and_print_once() {
        for kind in EngineKind::ALL {
            let s = screen(kind, SMALL, "日本x");
            assert_eq!(s.rows[0][0].width, 2, "{kind}");
            assert_eq!(s.rows[0][1].width, 0, "{kind}");
            assert_eq!(s.rows[0][1].text, "", "{kind}");
            assert_eq!(s.row_text(0), "日本x", "{kind}");
            assert_eq!(s.cursor.col, 5, "{kind}");
        }
    }

    #[test]
    fn combining_marks_stay_on_their_character() {
        // (avt gives each mark a cell of its own: `avt.rs`.)
        for kind in EngineKind::ALL
            .into_iter()
            .filter(|&k| k != EngineKind::Avt)
        {
            let s = screen(kind, SMALL, "e\u{301}a\u{308}\u{304}z");
            assert_eq!(s.row_text(0), "e\u{301}a\u{308}\u{304}z", "{kind}");
            assert_eq!(s.cursor.col, 3, "{kind}: marks take no cell");
        }
        // A mark follows its row when the screen scrolls, and goes when its cell is erased.
        let s = screen(EngineKind::Native, SMALL, "e\u{301}\r\n2\r\n3\r\n4");
        assert_eq!(s.row_text(0), "2");
        let s = screen(EngineKind::Native, SMALL, "x\r\ne\u{301}\r\n2\r\n3");
        assert_eq!(s.row_text(0), "e\u{301}");
        let s = screen(EngineKind::Native, SMALL, "e\u{301}\r\x1b[2Kq");
        assert_eq!(s.row_text(0), "q");
    }

    #[test]
    fn title_and_alternate_screen_are_tracked() {
        // (avt keeps no title: `avt.rs`.)
        for kind in EngineKind::ALL
            .into_iter()
            .filter(|&k| k != EngineKind::Avt)
        {
            let s = screen(kind, SMALL, "\x1b]2;my title\x07main");
            assert_eq!(s.title.as_deref(), Some("my title"), "{kind}");
            assert!(!s.alternate);
            let s = screen(kind, SMALL, "main\x1b[?1049h\x1b]0;t2\x1b\\alt");
            assert!(s.alternate, "{kind}");
            assert_eq!(s.title.as_deref(), Some("t2"), "{kind}");
            // xterm keeps the cursor where it was when it switches to the alternate screen;
            // vt100 homes it (one of the differences differential replay is for).
            let expected = if kind == EngineKind::Vt100 {
                "alt"
            } else {
                "    alt"
            };
            assert_eq!(s.row_text(0), expected, "{kind}");
            let s = screen(kind, SMALL, "main\x1b[?1049halt\x1b[?1049l");
            assert!(!s.alternate, "{kind}");
            assert_eq!(s.row_text(0), "main", "{kind}");
        }
    }

    #[test]
    fn cursor_visibility_and_resize() {
        for kind in EngineKind::ALL {
            let mut e = kind.create(SMALL);
            e.feed("\x1b[?25lhello");
            assert!(!e.screen().cursor.visible, "{kind}");
            e.resize(Size { cols: 20, rows: 5 });
            let s = e.screen();
            assert_eq!(s.size, Size { cols: 20, rows: 5 });
            assert_eq!(s.rows.len(), 5);
            assert!(s.rows.iter().all(|r| r.len() == 20));
            assert_eq!(s.row_text(0), "hello", "{kind}");
        }
    }

    #[test]
    fn the_engines_follow_the_cursor_shape() {
        // (avt keeps no cursor shape: `avt.rs`.)
        for kind in EngineKind::ALL
            .into_iter()
            .filter(|&k| k != EngineKind::Avt)
        {
            assert!(screen(kind, SMALL, "x").cursor.shape.is_default(), "{kind}");
            let s = screen(kind, SMALL, "\x1b[3 qx").cursor.shape;
            assert_eq!(
                (s.kind, s.blinking),
                (CursorKind::Underline, true),
                "{kind}"
            );
            assert_eq!(s.to_string(), "blinking underline");
            let s = screen(kind, SMALL, "\x1b[6 q").cursor.shape;
            assert_eq!((s.kind, s.blinking), (CursorKind::Bar, false), "{kind}");
            assert_eq!(s.to_string(), "bar");
        }
    }

    #[test]
    fn concealed_text_is_hidden_and_kept_as_text() {
        let s = screen(EngineKind::Native, SMALL, "a\x1b[8mb\x1b[28mc");
        assert_eq!(s.row_text(0), "abc");
        let hidden: Vec<bool> = s.rows[0][..3].iter().map(|c| c.attrs.hidden).collect();
        assert_eq!(hidden, [false, true, false]);
        assert_eq!(s.rows[0][1].attrs.names(), ["hidden"]);
        // vt100 does not track conceal.
        let s = screen(EngineKind::Vt100, SMALL, "\x1b[8mb");
        assert!(!s.rows[0][0].attrs.hidden);
    }

    #[test]
    fn dec_line_drawing_becomes_box_characters() {
        for kind in EngineKind::ALL {
            let s = screen(kind, SMALL, "\x1b(0lqk\x1b(B");
            if kind == EngineKind::Vt100 {
                continue; // vt100 lacks DEC special graphics (docs/conformance.md: its failing cases)
            }
            assert_eq!(s.row_text(0), "┌─┐", "{kind}");
        }
    }

    #[test]
    fn any_chunking_gives_the_same_screen() {
        let input =
            "a\x1b[1;31mb\x1b]2;ti\x07e\u{301}日\x1b[2;3Hx\x1b[?1049hy\x1b[8mz\x1b[28;5 q\x1b[2b";
        for kind in EngineKind::ALL {
            let whole = screen(kind, SMALL, input);
            let chars: Vec<char> = input.chars().collect();
            for cut in 0..chars.len() {
                let mut e = kind.create(SMALL);
                e.feed(&chars[..cut].iter().collect::<String>());
                e.feed(&chars[cut..].iter().collect::<String>());
                assert_eq!(e.screen(), whole, "{kind} split at {cut}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Replay is total: whatever a program writes, no engine panics, and the screen keeps
        /// its size.
        #[test]
        fn arbitrary_output_never_panics(chunks in proptest::collection::vec(
            proptest::string::string_regex("(\\x1b\\[[0-9;?>]{0,8}[@-~]|\\x1b[()#][0-9A-Za-z]|\\x1b\\][0-9;a-z?]{0,10}\\x07|[\\x00-\\x1f]|[a-z日本é\\u{301}😀 ]{1,5})*").unwrap(),
            1..20,
        )) {
            for kind in EngineKind::ALL {
                let size = Size { cols: 7, rows: 4 };
                let mut e = kind.create(size);
                for c in &chunks {
                    e.feed(c);
                }
                e.resize(Size { cols: 3, rows: 2 });
                e.feed("x\u{301}日");
                let s = e.screen();
                proptest::prop_assert_eq!(s.rows.len(), 2);
                proptest::prop_assert!(s.rows.iter().all(|r| r.len() == 3));
                proptest::prop_assert!(s.cursor.row < 2 && s.cursor.col < 3);
            }
        }
    }
}
