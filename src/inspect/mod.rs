//! Screens as data: the outline of a screen ([`Screen::outline`]: boxes, titles, text blocks,
//! highlighted rows, bars, the cursor) as a person or an agent reads it, for any program.
//! `tuicast inspect CAST [--at NAME] [--json]` prints it.
//!
//! # JSON (schema 1)
//!
//! Every row and column in this document counts from 1, as regions and masks write them
//! (`rows = "2..=23"`); a span `[first, last]` includes both ends.
//!
//! ```json
//! {
//!   "schema": 1,
//!   "size": {"cols": 80, "rows": 24},
//!   "alternate": true,
//!   "title": null,
//!   "cursor": {"row": 4, "col": 80, "visible": false, "text": "│> Review pull request #42"},
//!   "boxes": [{"name": "box(\"Todos\")", "title": "Todos", "footer": null,
//!              "rows": [1, 23], "cols": [1, 80], "style": "rounded", "parent": null,
//!              "separators": []}],
//!   "selected": {"row": 4, "cols": [2, 79], "kind": "background", "color": 3,
//!                "box": "box(\"Todos\")", "text": "> Review pull request #42"},
//!   "highlights": [ …the same shape as "selected", every highlighted row… ],
//!   "status": {"row": 24, "text": "4 todos │ a add · d delete", "styled": true},
//!   "header": null,
//!   "blocks": [{"box": "box(\"Todos\")", "rows": [2, 5], "cols": [2, 26],
//!               "lines": ["> Buy milk", "  Write the release notes"]}],
//!   "prompt": {"kind": "select", "confidence": 0.8, "evidence": "> Review pull request #42",
//!              "row": 4, "options": ["> Buy milk", "Write the release notes"], "selected": 0}
//! }
//! ```
//!
//! - `boxes`: in reading order; `name` is the stable name (`box("Title")`, `box("Title", 2)`
//!   for a second box with the same title, `box(N)` for the N-th untitled box); `parent` is
//!   the name of the innermost box around it; `style` is `single`, `heavy`, `double`,
//!   `rounded` or `ascii`; `separators` are rows of `├───┤` lines inside it.
//! - `selected`: the one highlighted row that stands out in a list, or `null` when none does
//!   (or several do). `kind` is `inverse`, `background` or `bold`; `color` is `null` (the
//!   default colour), a palette index, or `"#rrggbb"`; `box` is `null` on the bare screen.
//! - `status` and `header`: the last and first rows when they are bars (the rules are in
//!   [`crate::term::Outline`]), else `null`.
//! - `blocks`: consecutive non-blank rows of one box (or of the bare screen, `box: null`).
//! - `prompt`: what the program waits for ([`PromptKind`]: the kinds, [`classify`]: the rules); `kind` is
//!   `yesno`, `select`, `password`, `text`, `pager`, `confirm`, `shell` or `unknown`,
//!   `confidence` 0 to 1, `evidence` the text it saw and `row` its row (or `null`); a `yesno`
//!   has `default` (`"yes"`, `"no"` or `null`), a `select` its `options` and the index of
//!   the `selected` one (counted from 0: an index in `options`, not a position on screen).
//! - `tables` ([`Table`]): `kind` (`lines` or `aligned`), the first `row` and `col`, the
//!   `columns` as cell spans, the `header` and the data `rows`, each a list of trimmed cell
//!   texts, and the `evidence` it was found from; a table is reported only on evidence (a
//!   header found, rows that agree with it: the rules are in [`tables`]), never guessed.
//! - `refs` ([`Ref`]): every ref but the highlights' and blocks' (listed above): `ref` its
//!   unique name (a selector that finds it), `role`, `rows` and `cols`, `value` (or `text`
//!   when it has none; the rows of a ref of several rows joined by newlines), `focused`,
//!   `selected`, `hidden` when set, and for an adapter's ref its `evidence` (why the adapter
//!   is on, the rows it was read on), for a region's what its rule matched and where (a
//!   region whose rule matches several places and takes the first is absent: no guess).
//! - Text is the screen's text with control characters replaced (U+FFFD; a ref's newlines
//!   stay). Keys appear in the order above; fields are only ever added, never renamed.

mod adapters;
mod anchor;
mod json;
pub(crate) mod prompt;
mod refs;
mod selector;
mod shell;
pub(crate) mod table;

use serde_json::Value;

use crate::escape::escape_for_terminal;
use crate::pos::Ordinal;
use crate::term::{Highlight, Outline, Screen};

pub(crate) use adapters::AdapterToml;
pub use adapters::{
    Adapter, AdapterError, AdapterErrorKind, Adapters, MAX_ABOVE_DEPTH, MAX_ADAPTERS, MAX_MANY,
    MAX_REF_CELLS,
};
pub use anchor::{anchor_regex, hide_all, Anchor, AnchorError, AnchorErrorKind, RefAnchor};
pub use json::{
    BarJson, BlockJson, BoxJson, HighlightJson, InspectedCursor, InspectionJson, PromptJson,
    RefJson, TableJson,
};
pub use prompt::{classify, Prompt, PromptKind, PromptKindError, PromptKindErrorKind, TtyModes};
pub use refs::{refs, select, unknown_ref, Ref, RefContext};
pub use selector::{Selector, SelectorError, MAX_SELECTOR};
#[cfg(feature = "cli")]
pub(crate) use shell::mark_refs as shell_mark_refs;
pub use table::{tables, Table};

/// The version of the JSON schema [`Inspection::json`] writes.
pub const JSON_SCHEMA: u32 = 1;

/// What [`inspect`] finds on one screen.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Inspection {
    /// Boxes, blocks, highlights, bars and the cursor.
    pub outline: Outline,
    /// What the program seems to wait for ([`classify`]).
    pub prompt: Prompt,
    /// The tables on the screen ([`tables`]).
    pub tables: Vec<Table>,
    /// The refs of the screen ([`refs`]).
    pub refs: Vec<Ref>,
    size: crate::size::Size,
    alternate: bool,
    title: Option<String>,
}

/// Inspects a screen: its outline, its prompt and its refs (`cx`: the adapters, regions,
/// program and echo flag known; `RefContext::new(Adapters::builtin())` for none, as in a
/// replay of a cast alone). An adapter's limit passed, or a regex of it that cannot be
/// compiled, is an error at its place ([`refs`]).
pub fn inspect(screen: &Screen, cx: &RefContext) -> Result<Inspection, AdapterError> {
    let outline = screen.outline();
    Ok(Inspection {
        prompt: classify(screen, &outline, cx.modes),
        refs: refs(screen, cx)?,
        tables: tables(screen),
        outline,
        size: screen.size,
        alternate: screen.alternate,
        title: screen.title.clone(),
    })
}

impl Inspection {
    /// The inspection as JSON (schema in the module docs).
    pub fn json(&self) -> Value {
        // (Plain data of strings, numbers and lists: serializing it cannot fail.)
        serde_json::to_value(InspectionJson::of(self)).unwrap_or(Value::Null)
    }

    /// The inspection for people: one line per part, positions counted from 1, text from
    /// the screen escaped.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let o = &self.outline;
        let q = |s: &str| format!("\"{}\"", escape_for_terminal(s, 120));
        let mut out = String::new();
        let _ = writeln!(
            out,
            "screen     {}{}, cursor row {} col {}{}",
            self.size,
            if self.alternate {
                " (alternate screen)"
            } else {
                ""
            },
            Ordinal::of(o.cursor.row),
            Ordinal::of(o.cursor.col),
            if o.cursor.visible { "" } else { " (hidden)" }
        );
        for b in &o.boxes {
            let depth = std::iter::successors(b.parent, |&p| o.boxes[p].parent).count();
            let _ = write!(
                out,
                "{:indent$}{}  {} {}",
                "",
                escape_for_terminal(&b.name, 120),
                b.rect.describe(),
                b.style,
                indent = 2 * depth
            );
            if let Some(f) = &b.footer {
                let _ = write!(out, ", footer {}", q(f));
            }
            out.push('\n');
        }
        let place = |h: &Highlight| {
            let inside = h.container.map_or(String::new(), |i| {
                format!(" in {}", escape_for_terminal(&o.boxes[i].name, 120))
            });
            let [c0, c1] = Ordinal::span(h.cols.clone());
            format!(
                "row {} cols {c0}..={c1}: {} ({} {}{inside})",
                Ordinal::of(h.row),
                q(&h.text),
                h.kind.name(),
                h.color
            )
        };
        match o.selected_row() {
            Some(h) => {
                let _ = writeln!(out, "selected   {}", place(h));
            }
            None => {
                for h in &o.highlights {
                    let _ = writeln!(out, "highlight  {}", place(h));
                }
            }
        }
        for (name, bar) in [("header", &o.header), ("status", &o.status)] {
            if let Some(b) = bar {
                let _ = writeln!(out, "{name:<10} row {}: {}", Ordinal::of(b.row), q(&b.text));
            }
        }
        let p = &self.prompt;
        let _ = write!(out, "prompt     {} ({:.2})", p.kind.name(), p.confidence);
        if let Some(r) = p.row {
            let _ = write!(out, " row {}: {}", Ordinal::of(r), q(&p.evidence));
        }
        if let Some(d) = &p.default {
            let _ = write!(out, ", default {d}");
        }
        out.push('\n');
        for r in &self.refs {
            let _ = write!(
                out,
                "ref        {}  {}",
                escape_for_terminal(&r.name, 120),
                r.rect.describe()
            );
            if let Some(v) = &r.value {
                let _ = write!(out, " value {}", q(v));
            }
            for (on, flag) in [
                (r.focused, "focused"),
                (r.selected, "selected"),
                (!r.visible, "hidden"),
            ] {
                if on {
                    let _ = write!(out, " [{flag}]");
                }
            }
            out.push('\n');
        }
        for b in &o.blocks {
            let first = b.lines.iter().find(|l| !l.trim().is_empty());
            let _ = write!(
                out,
                "block      {}: {}",
                b.rect.describe(),
                q(first.map_or("", |l| l.trim()))
            );
            if b.lines.len() > 1 {
                let _ = write!(out, " (+{} rows)", b.lines.len() - 1);
            }
            out.push('\n');
        }
        out
    }
}
