//! The inspection's JSON types ([`InspectionJson`]): what [`Inspection::json`] writes, field by
//! field in the order written (the meaning of each is in the [module docs](super)), and what a
//! reader deserializes. With the `schema` feature they give its JSON Schema
//! (`tuicast schema inspect`).

use serde::{Deserialize, Serialize};

use super::{Inspection, PromptKind};
use crate::pos::Ordinal;
use crate::term::{Bar, CheckpointJson, ColorJson, Highlight, SizeJson};

/// A screen's outline and prompt as `tuicast inspect --json` writes it (schema
/// [`super::JSON_SCHEMA`]). Rows and columns count from 1; a span `[first, last]` includes
/// both ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(title = "tuicast inspection"))]
#[non_exhaustive]
pub struct InspectionJson {
    /// The version of this format: 1.
    pub schema: u32,
    /// The terminal size in cells.
    pub size: SizeJson,
    /// Whether the alternate screen buffer is active.
    pub alternate: bool,
    /// The window title, when the program set one.
    pub title: Option<String>,
    /// The cursor (1-based) and the text of its row.
    pub cursor: InspectedCursor,
    /// Boxes in reading order.
    pub boxes: Vec<BoxJson>,
    /// The one highlighted row that stands out in a list, when one does.
    pub selected: Option<HighlightJson>,
    /// Every highlighted row.
    pub highlights: Vec<HighlightJson>,
    /// The last row, when it is a bar.
    pub status: Option<BarJson>,
    /// The first row, when it is a bar.
    pub header: Option<BarJson>,
    /// Consecutive non-blank rows of one box (or of the bare screen).
    pub blocks: Vec<BlockJson>,
    /// What the program seems to wait for.
    pub prompt: PromptJson,
    /// Tables found on the screen.
    #[serde(default)]
    pub tables: Vec<TableJson>,
    /// The refs of the screen: role refs, the refs of each adapter that recognises it, and
    /// the project's regions (docs/agents.md, "Refs and selectors").
    #[serde(default)]
    pub refs: Vec<RefJson>,
    /// Which checkpoint of which cast the screen is: set by `tuicast inspect`, absent where
    /// no cast is replayed (a live session's `inspect`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<CheckpointJson>,
}

/// One ref of an [`InspectionJson`]: [`Ref`](super::Ref) with positions from 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct RefJson {
    /// Its unique name on the screen (`@box("Todos")`, `@dialog.button("Yes")`): a selector
    /// that finds it.
    #[serde(rename = "ref")]
    pub name: String,
    /// Its role (`status`, `box`, `mode`, `button`, …).
    pub role: String,
    /// Its rows, `[first, last]`.
    pub rows: [Ordinal; 2],
    /// Its columns, `[first, last]`.
    pub cols: [Ordinal; 2],
    /// The text of its cells, when it has no value (`value` stands for it: a box's title,
    /// a list row's trimmed text, a mode): the JSON stays a few hundred tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Its value, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Focused (a dialog's button Enter presses).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub focused: bool,
    /// Selected (a list's selected row).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub selected: bool,
    /// Hidden (a hidden cursor).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// For an adapter's ref: why the adapter is on and the rows it was read on (`vim: its
    /// ruler on row 24; read on row 24`); for a region's: what its rule matched and where.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
}

impl RefJson {
    /// The JSON of `r`.
    pub fn of(r: &super::Ref) -> RefJson {
        RefJson {
            name: safe(&r.name),
            role: r.role.clone(),
            rows: r.rect.rows(),
            cols: r.rect.cols(),
            text: r.value.is_none().then(|| safe_lines(&r.text)),
            value: r.value.as_deref().map(safe_lines),
            focused: r.focused,
            selected: r.selected,
            hidden: !r.visible,
            evidence: r.evidence.as_deref().map(safe),
        }
    }
}

/// The cursor of an [`InspectionJson`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct InspectedCursor {
    /// Row, from 1.
    pub row: Ordinal,
    /// Column, from 1.
    pub col: Ordinal,
    /// Whether it is shown.
    pub visible: bool,
    /// The text of its row.
    pub text: String,
}

/// A box (a panel, a dialog, a frame).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct BoxJson {
    /// Its stable name: `box("Title")`, `box("Title", 2)`, `box(N)`.
    pub name: String,
    /// The title in its top border.
    pub title: Option<String>,
    /// The text in its bottom border.
    pub footer: Option<String>,
    /// Its rows, `[first, last]` from 1.
    pub rows: [Ordinal; 2],
    /// Its columns, `[first, last]` from 1.
    pub cols: [Ordinal; 2],
    /// `single`, `heavy`, `double`, `rounded` or `ascii`.
    pub style: String,
    /// The name of the innermost box around it.
    pub parent: Option<String>,
    /// Rows of `├───┤` lines inside it.
    pub separators: Vec<Ordinal>,
}

/// A highlighted row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct HighlightJson {
    /// Its row, from 1.
    pub row: Ordinal,
    /// Its columns, `[first, last]` from 1.
    pub cols: [Ordinal; 2],
    /// `inverse`, `background` or `bold`.
    pub kind: String,
    /// Its colour: `null` for the default colour.
    pub color: Option<ColorJson>,
    /// The box it is in (`null` on the bare screen).
    #[serde(rename = "box")]
    pub in_box: Option<String>,
    /// Its text.
    pub text: String,
}

/// A status or header bar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct BarJson {
    /// Its row, from 1.
    pub row: Ordinal,
    /// Its text.
    pub text: String,
    /// Whether it is drawn in a style of its own.
    pub styled: bool,
}

/// Consecutive non-blank rows of one box.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct BlockJson {
    /// The box (`null` on the bare screen).
    #[serde(rename = "box")]
    pub in_box: Option<String>,
    /// Its rows, `[first, last]` from 1.
    pub rows: [Ordinal; 2],
    /// Its columns, `[first, last]` from 1.
    pub cols: [Ordinal; 2],
    /// Its lines.
    pub lines: Vec<String>,
}

/// What the program seems to wait for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct PromptJson {
    /// `yesno`, `select`, `password`, `text`, `pager`, `confirm`, `shell` or `unknown`.
    pub kind: String,
    /// 0 to 1, two decimals.
    pub confidence: f64,
    /// The text it saw.
    pub evidence: String,
    /// Its row, from 1.
    pub row: Option<Ordinal>,
    /// A `yesno`'s default (`"yes"`, `"no"` or `null`); only for `yesno`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Option<String>>,
    /// A `select`'s options; only for `select`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
    /// The index in `options` of the selected one (from 0); only for `select`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<Option<usize>>,
}

/// A table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct TableJson {
    /// `lines` or `aligned`.
    pub kind: String,
    /// Its first row, from 1.
    pub row: Ordinal,
    /// Its first column, from 1.
    pub col: Ordinal,
    /// The columns as cell spans, `[first, last]` from 1.
    pub columns: Vec<[Ordinal; 2]>,
    /// The header cells, when it has a header.
    pub header: Option<Vec<String>>,
    /// The data rows, each a list of trimmed cell texts.
    pub rows: Vec<Vec<String>>,
    /// What the table was found from (its header row and why it is one, the rows that agree
    /// with its columns).
    #[serde(default)]
    pub evidence: String,
}

impl InspectionJson {
    /// The JSON of `found`.
    pub fn of(found: &Inspection) -> InspectionJson {
        let o = &found.outline;
        let box_name = |i: Option<usize>| i.map(|i| safe(&o.boxes[i].name));
        let highlight = |h: &Highlight| HighlightJson {
            row: Ordinal::of(h.row),
            cols: Ordinal::span(h.cols.clone()),
            kind: h.kind.name().to_string(),
            color: ColorJson::of(h.color),
            in_box: box_name(h.container),
            text: safe(&h.text),
        };
        let bar = |b: &Option<Bar>| {
            b.as_ref().map(|b| BarJson {
                row: Ordinal::of(b.row),
                text: safe(&b.text),
                styled: b.styled,
            })
        };
        InspectionJson {
            schema: super::JSON_SCHEMA,
            size: SizeJson {
                cols: found.size.cols,
                rows: found.size.rows,
            },
            alternate: found.alternate,
            title: found.title.as_deref().map(safe),
            cursor: InspectedCursor {
                row: Ordinal::of(o.cursor.row),
                col: Ordinal::of(o.cursor.col),
                visible: o.cursor.visible,
                text: safe(&o.cursor.text),
            },
            boxes: o
                .boxes
                .iter()
                .map(|b| BoxJson {
                    name: safe(&b.name),
                    title: b.title.as_deref().map(safe),
                    footer: b.footer.as_deref().map(safe),
                    rows: b.rect.rows(),
                    cols: b.rect.cols(),
                    style: b.style.to_string(),
                    parent: box_name(b.parent),
                    separators: b.separators.iter().map(|&r| Ordinal::of(r)).collect(),
                })
                .collect(),
            selected: o.selected_row().map(highlight),
            highlights: o.highlights.iter().map(highlight).collect(),
            status: bar(&o.status),
            header: bar(&o.header),
            blocks: o
                .blocks
                .iter()
                .map(|b| BlockJson {
                    in_box: box_name(b.container),
                    rows: b.rect.rows(),
                    cols: b.rect.cols(),
                    lines: b.lines.iter().map(|l| safe(l)).collect(),
                })
                .collect(),
            prompt: PromptJson::of(&found.prompt),
            tables: found.tables.iter().map(TableJson::of).collect(),
            // Highlights and blocks are listed above: their refs would say it twice.
            refs: found
                .refs
                .iter()
                .filter(|r| r.kind != "highlight" && r.kind != "block")
                .map(RefJson::of)
                .collect(),
            checkpoint: None,
        }
    }
}

impl TableJson {
    /// The JSON of a table.
    pub(crate) fn of(t: &super::Table) -> TableJson {
        TableJson {
            kind: t.kind.to_string(),
            row: Ordinal::of(t.row),
            col: Ordinal::of(t.col),
            columns: t
                .columns
                .iter()
                .map(|c| [Ordinal::of(c.0), Ordinal::of(c.1)])
                .collect(),
            header: t
                .header
                .as_ref()
                .map(|h| h.iter().map(|c| safe(c)).collect()),
            rows: t
                .rows
                .iter()
                .map(|r| r.iter().map(|c| safe(c)).collect())
                .collect(),
            evidence: safe(&t.evidence),
        }
    }
}

impl PromptJson {
    /// The JSON of a prompt.
    pub fn of(p: &super::Prompt) -> PromptJson {
        let select = p.kind == PromptKind::Select;
        PromptJson {
            kind: p.kind.name().to_string(),
            confidence: p.rounded_confidence(),
            evidence: safe(&p.evidence),
            row: p.row.map(Ordinal::of),
            default: (p.kind == PromptKind::YesNo).then(|| p.default.clone()),
            options: select.then(|| p.options.iter().map(|o| safe(o)).collect()),
            selected: select.then_some(p.selected),
        }
    }
}

/// Screen text with control characters replaced, for JSON.
/// [`safe`], but the rows of a ref of several rows stay apart: its newlines are kept.
fn safe_lines(s: &str) -> String {
    s.split('\n').map(safe).collect::<Vec<_>>().join("\n")
}

fn safe(s: &str) -> String {
    s.chars().map(crate::term::safe_char).collect()
}
