//! The JSON render's types ([`ScreenJson`]): what [`json()`](super::json) writes, field by
//! field in the order written, and what a reader deserializes. With the `schema` feature they
//! also give the render's JSON Schema (`tuicast schema screen`).

use serde::{Deserialize, Serialize};

use crate::term::{
    safe_char, Cell, CheckpointJson, ClipboardWrite, ColorJson, CursorKind, Hyperlink, Modes,
    Screen, SizeJson,
};

/// A screen as `tuicast replay --format json` writes it (schema [`super::JSON_SCHEMA`]; the
/// meaning of each field is in the [module docs](super)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(title = "tuicast screen (JSON render)"))]
#[non_exhaustive]
pub struct ScreenJson {
    /// The version of this format: 1.
    pub schema: u32,
    /// The terminal size in cells.
    pub size: SizeJson,
    /// The cursor (0-based).
    pub cursor: CursorJson,
    /// The window title (OSC 0/2), when the program set one.
    pub title: Option<String>,
    /// Whether the alternate screen buffer is active.
    pub alternate: bool,
    /// The terminal modes the program set.
    pub modes: Modes,
    /// Every row of the screen, top to bottom (exactly `size.rows` of them).
    pub rows: Vec<RowJson>,
    /// The icon name (OSC 1), when the program set one.
    #[serde(default)]
    pub icon: Option<String>,
    /// Bells rung since the last checkpoint.
    #[serde(default)]
    pub bells: u32,
    /// OSC 52 clipboard writes since the last checkpoint, oldest first.
    #[serde(default)]
    pub clipboard: Vec<ClipboardWrite>,
    /// The hyperlinks (OSC 8) of the cells; a row's `links` count from 1 in this list.
    #[serde(default)]
    pub links: Vec<Hyperlink>,
    /// The lines scrolled off the top of the main screen, oldest first, as text.
    #[serde(default)]
    pub scrollback: Vec<String>,
    /// Which checkpoint of which cast the screen is: set by `tuicast replay`, absent where
    /// no cast is replayed (a live session's snapshot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<CheckpointJson>,
}

/// The cursor of a [`ScreenJson`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct CursorJson {
    /// 0-based row.
    pub row: u16,
    /// 0-based column.
    pub col: u16,
    /// Whether the cursor is shown.
    pub visible: bool,
    /// The shape the program chose (DECSCUSR); absent for the default steady block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<CursorKind>,
    /// Whether the program asked for a blinking cursor; absent with `shape`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blinking: Option<bool>,
}

/// One row of a [`ScreenJson`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct RowJson {
    /// The row as in the text render (control characters replaced by U+FFFD).
    pub text: String,
    /// Maximal stretches of cells with the same non-default style, left to right.
    pub runs: Vec<RunJson>,
    /// Stretches of cells that carry a link; absent when none does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkRunJson>,
}

/// A stretch of cells with one style.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct RunJson {
    /// The first cell (0-based).
    pub col: usize,
    /// How many cells (a wide character is 2).
    pub width: usize,
    /// The foreground; absent when default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fg: Option<ColorJson>,
    /// The background; absent when default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bg: Option<ColorJson>,
    /// The attributes, in this order: `bold dim italic underline strikethrough inverse blink
    /// hidden`; absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attrs: Vec<AttrName>,
}

/// A cell attribute as the JSON render names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum AttrName {
    /// SGR 1.
    Bold,
    /// SGR 2.
    Dim,
    /// SGR 3.
    Italic,
    /// SGR 4.
    Underline,
    /// SGR 9.
    Strikethrough,
    /// SGR 7.
    Inverse,
    /// SGR 5.
    Blink,
    /// SGR 8 (concealed; the text is still in the row's `text`).
    Hidden,
}

/// A stretch of cells with one link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct LinkRunJson {
    /// The first cell (0-based).
    pub col: usize,
    /// How many cells.
    pub width: usize,
    /// The link, counting from 1 in the screen's `links`.
    pub link: u32,
}

impl ScreenJson {
    /// The JSON render of `screen`.
    pub fn of(screen: &Screen) -> ScreenJson {
        let safe = |t: &str| t.chars().map(safe_char).collect::<String>();
        let c = screen.cursor;
        let shaped = !c.shape.is_default();
        ScreenJson {
            schema: super::JSON_SCHEMA,
            size: SizeJson {
                cols: screen.size.cols,
                rows: screen.size.rows,
            },
            cursor: CursorJson {
                row: c.row,
                col: c.col,
                visible: c.visible,
                shape: shaped.then_some(c.shape.kind),
                blinking: shaped.then_some(c.shape.blinking),
            },
            title: screen.title.as_deref().map(safe),
            alternate: screen.alternate,
            modes: screen.modes,
            rows: screen
                .rows
                .iter()
                .enumerate()
                .map(|(r, cells)| RowJson {
                    text: safe(&screen.row_text(r)),
                    runs: runs(cells),
                    links: link_runs(cells),
                })
                .collect(),
            icon: screen.state.icon.as_deref().map(safe),
            bells: screen.state.bells,
            clipboard: screen.state.clipboard.clone(),
            links: screen.state.links.clone(),
            scrollback: screen.state.scrollback.lines().to_vec(),
            checkpoint: None,
        }
    }
}

/// Style runs of one row: stretches of cells sharing a non-default style.
fn runs(cells: &[Cell]) -> Vec<RunJson> {
    let default = Cell::default();
    let mut out = Vec::new();
    let mut start = 0;
    while start < cells.len() {
        let mut end = start + 1;
        while end < cells.len() && cells[end].same_style(&cells[start]) {
            end += 1;
        }
        let cell = &cells[start];
        if !cell.same_style(&default) {
            let a = cell.attrs;
            let attrs = [
                (a.bold, AttrName::Bold),
                (a.dim, AttrName::Dim),
                (a.italic, AttrName::Italic),
                (a.underline, AttrName::Underline),
                (a.strikethrough, AttrName::Strikethrough),
                (a.inverse, AttrName::Inverse),
                (a.blink, AttrName::Blink),
                (a.hidden, AttrName::Hidden),
            ];
            out.push(RunJson {
                col: start,
                width: end - start,
                fg: ColorJson::of(cell.fg),
                bg: ColorJson::of(cell.bg),
                attrs: attrs
                    .iter()
                    .filter(|(on, _)| *on)
                    .map(|(_, n)| *n)
                    .collect(),
            });
        }
        start = end;
    }
    out
}

/// Link runs of one row: stretches of cells with the same link.
fn link_runs(cells: &[Cell]) -> Vec<LinkRunJson> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < cells.len() {
        let link = cells[start].link;
        let mut end = start + 1;
        while end < cells.len() && cells[end].link == link {
            end += 1;
        }
        if link != 0 {
            out.push(LinkRunJson {
                col: start,
                width: end - start,
                link: u32::from(link),
            });
        }
        start = end;
    }
    out
}
