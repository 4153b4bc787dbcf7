//! Refs: the named parts of a screen an agent or a scenario points at, each with a stable
//! name that does not depend on incidental content, its cells, its text, its value and its
//! state. [`Selector`]s pick them ([`select`]); `tuicast inspect` and `session inspect` list
//! them.
//!
//! Role refs, for any program (from the [outline](crate::term::Outline), the prompt and the
//! tables):
//!
//! | ref | what | value |
//! | --- | --- | --- |
//! | `@status`, `@header` | the bars on the last and first rows | the text |
//! | `@cursor` | the cursor's cell (`[visible]` when shown) | `ROW,COL` from 1 |
//! | `@prompt` | what the program waits for: its evidence row | the kind (`yesno`, …) |
//! | `@box("Title")`, `@box(N)` | a box (its inside); the key is its title | the title |
//! | `@list.selected` | the selected row of a list (`[selected]`) | the row's text |
//! | `@list.item` | each row of the list holding the selection | the row's text |
//! | `@highlight` | each highlighted row | the row's text |
//! | `@table` | each table (`@table[0]`: the first) | the header, cells joined by ` \| ` |
//! | `@block` | each block of text | its first line |
//! | `@region("name")`, `@name` | a region of `[regions]` (where a caller has them; none where its rule matches several places and takes the first) | the text |
//!
//! Adapter refs (`@vim.mode`, `@shell.prompt`, …) come from the [`Adapters`] that recognise
//! the screen; the built-in ones and the manifest format are in [`super::adapters`].
//!
//! Several refs of one name are told apart by their key (`@box("Todos")`) or by an index
//! (`@table[1]`); [`Ref::name`] is the unique name of each (`@dialog.button("Yes")`,
//! `@table[1]`).

use std::collections::BTreeMap;

use super::adapters::{AdapterError, Adapters};
use super::anchor::Anchor;
use super::selector::{Arg, Attr, Filter, Flag, Selector};
use crate::pos::Ordinal;
use crate::term::{CellRect, Outline, Screen};

/// One named part of a screen.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Ref {
    /// Its unique name on this screen: `@status`, `@box("Todos")`, `@table[1]`,
    /// `@dialog.button("Yes")`.
    pub name: String,
    /// The name a selector uses for it, without `@` and arguments: `box`, `vim.mode`.
    pub kind: String,
    /// Its role: `status`, `box`, `mode`, `button`, `item`, …
    pub role: String,
    /// What a selector's argument matches (a box's title, a button's label, a region's
    /// name).
    pub key: Option<String>,
    /// Its cells (0-based).
    pub rect: CellRect,
    /// The text of its cells, each row's trailing blanks trimmed, rows joined by `\n`.
    pub text: String,
    /// Its value, when it has one apart from its text (a mode, a prompt's kind).
    pub value: Option<String>,
    /// Focused (a dialog's button that Enter presses).
    pub focused: bool,
    /// Selected (a list's selected row).
    pub selected: bool,
    /// Shown (false only for a hidden cursor).
    pub visible: bool,
    /// For an adapter's ref, why the adapter is on and where the ref was read (`vim: its
    /// ruler on row 24; row 24`): an adapter's ref exists only on a screen it recognises.
    /// For a region's, what its rule matched and where (`row = { regex = "Total" }: matched
    /// on row 7`): a region whose rule matches several places is no ref.
    pub evidence: Option<String>,
}

impl Ref {
    /// A ref `@KIND` of `role` on `rect`, its text read off `screen`; no value, no evidence.
    pub(super) fn new(kind: &str, role: &str, rect: CellRect, screen: &Screen) -> Ref {
        Ref {
            name: format!("@{kind}"),
            kind: kind.to_string(),
            role: role.to_string(),
            key: None,
            rect,
            text: crate::term::rects_text(screen, &[rect]),
            value: None,
            focused: false,
            selected: false,
            visible: true,
            evidence: None,
        }
    }

    /// Its value, else its text: what `[value=…]` compares.
    pub fn value_or_text(&self) -> &str {
        self.value.as_deref().unwrap_or(&self.text)
    }
}

/// What refs are found with besides the screen.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct RefContext<'a> {
    /// The adapters that may recognise the screen.
    pub adapters: &'a Adapters,
    /// The project's regions, for `@region("name")` (none where a region itself is being
    /// found).
    pub regions: Option<&'a BTreeMap<String, Anchor>>,
    /// The program's file name (`vim`), when known: an adapter that names it is on.
    pub program: Option<&'a str>,
    /// The terminal's echo and line modes, where known (for `@prompt`).
    pub modes: super::TtyModes,
}

impl<'a> RefContext<'a> {
    /// A context of `adapters` alone.
    pub fn new(adapters: &'a Adapters) -> RefContext<'a> {
        RefContext {
            adapters,
            regions: None,
            program: None,
            modes: super::TtyModes::UNKNOWN,
        }
    }

    /// With the project's regions.
    pub fn regions(mut self, regions: &'a BTreeMap<String, Anchor>) -> Self {
        self.regions = Some(regions);
        self
    }

    /// With the program's name (a path's file name is taken).
    pub fn program(mut self, program: Option<&'a str>) -> Self {
        self.program = program.map(|p| p.rsplit('/').next().unwrap_or(p));
        self
    }

    /// With the terminal's echo and line modes.
    pub fn modes(mut self, modes: super::TtyModes) -> Self {
        self.modes = modes;
        self
    }
}

/// The role refs' names: no adapter may take one.
pub(crate) const ROLE_REFS: &[&str] = &[
    "status",
    "header",
    "cursor",
    "prompt",
    "box",
    "list",
    "highlight",
    "table",
    "block",
    "region",
];

/// Every ref of `screen`: the role refs, then the refs of each adapter that recognises it,
/// then the regions. An adapter's limit passed ([`MAX_MANY`](super::MAX_MANY) refs of a
/// `many` ref, [`MAX_REF_CELLS`](super::MAX_REF_CELLS)) or a regex of it that cannot be
/// compiled is an error at the adapter's place.
pub fn refs(screen: &Screen, cx: &RefContext) -> Result<Vec<Ref>, AdapterError> {
    let outline = screen.outline();
    let mut out = role_refs(screen, &outline, cx);
    for a in cx.adapters.names() {
        let Some(a) = cx.adapters.get(a) else {
            continue;
        };
        if let Some(marked) = marked_refs(a, screen) {
            out.extend(marked);
        } else if let Some(why) = a.recognition(screen, cx.program)? {
            out.extend(with_evidence(a.refs(screen)?, &why));
        }
    }
    if let Some(regions) = cx.regions {
        out.extend(region_refs(screen, regions));
    }
    Ok(out)
}

/// The shell adapter's refs from the shell's OSC 133 marks, when `a` is the shell adapter and
/// the screen has marks (the adapter is on then, whatever the program: the shell said so);
/// `None` otherwise (`super::shell`).
fn marked_refs(a: &super::Adapter, screen: &Screen) -> Option<Vec<Ref>> {
    if a.name() != "shell" {
        return None;
    }
    super::shell::mark_refs(screen)
}

/// An adapter's refs with the evidence they rest on: why the adapter is on, and the row.
fn with_evidence(refs: impl IntoIterator<Item = Ref>, why: &str) -> Vec<Ref> {
    refs.into_iter()
        .map(|mut r| {
            let [first, last] = Ordinal::span(r.rect.row..r.rect.row_end);
            let rows = if last != first {
                format!("rows {first}..={last}")
            } else {
                format!("row {first}")
            };
            r.evidence = Some(format!("{why}; read on {rows}"));
            r
        })
        .collect()
}

/// The refs of `step`'s name only (what [`refs`] would give of it, made more cheaply).
fn refs_named(
    screen: &Screen,
    outline: &Outline,
    name: &str,
    cx: &RefContext,
) -> Result<Vec<Ref>, AdapterError> {
    let family = name.split('.').next().unwrap_or(name);
    if ROLE_REFS.contains(&family) {
        if family == "region" {
            return Ok(cx
                .regions
                .map(|r| region_refs(screen, r))
                .unwrap_or_default());
        }
        return Ok(role_refs(screen, outline, cx)
            .into_iter()
            .filter(|r| r.kind == name)
            .collect());
    }
    if let Some(a) = cx.adapters.get(family) {
        if let Some(marked) = marked_refs(a, screen) {
            return Ok(marked.into_iter().filter(|r| r.kind == name).collect());
        }
        let Some(why) = a.recognition(screen, cx.program)? else {
            return Ok(Vec::new());
        };
        let refs = a.refs(screen)?.into_iter().filter(|r| r.kind == name);
        return Ok(with_evidence(refs, &why));
    }
    // `@name`: a region of that name.
    let Some(regions) = cx.regions else {
        return Ok(Vec::new());
    };
    Ok(match regions.get(name) {
        Some(anchor) => region_ref(screen, name, anchor).into_iter().collect(),
        None => Vec::new(),
    })
}

/// Why a selector cannot mean anything in a context: it names a ref no role, adapter or
/// region gives.
pub fn unknown_ref(selector: &Selector, cx: &RefContext) -> Option<String> {
    for step in selector.steps() {
        let family = step.name.split('.').next().unwrap_or(&step.name);
        let known = if ROLE_REFS.contains(&family) {
            ROLE_NAMES.contains(&step.name.as_str())
                || (family == "region" && step.name == "region")
        } else if let Some(a) = cx.adapters.get(family) {
            a.has_ref(&step.name)
        } else {
            cx.regions
                .is_some_and(|r| r.contains_key(step.name.as_str()))
        };
        if !known {
            let adapters: Vec<&str> = cx.adapters.names().collect();
            return Some(format!(
                "no ref `@{}`: refs are {}, an adapter's (`@ADAPTER.REF`; adapters: {}){}",
                crate::escape::escape_for_terminal(&step.name, 60),
                ROLE_NAMES
                    .iter()
                    .map(|n| format!("@{n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                adapters.join(", "),
                if cx.regions.is_some() {
                    " or a region's (`@region(\"NAME\")`)"
                } else {
                    ""
                }
            ));
        }
    }
    None
}

/// Every role ref's name.
const ROLE_NAMES: &[&str] = &[
    "status",
    "header",
    "cursor",
    "prompt",
    "box",
    "list.selected",
    "list.item",
    "highlight",
    "table",
    "block",
    "region",
];

fn row_rect(row: usize, cols: usize) -> CellRect {
    CellRect {
        row,
        row_end: row + 1,
        col: 0,
        col_end: cols,
    }
}

fn role_refs(screen: &Screen, outline: &Outline, cx: &RefContext) -> Vec<Ref> {
    let cols = screen.size.cols as usize;
    let mut out = Vec::new();
    for (kind, bar) in [("header", &outline.header), ("status", &outline.status)] {
        if let Some(b) = bar {
            let mut r = Ref::new(kind, kind, row_rect(b.row, cols), screen);
            r.value = Some(b.text.clone());
            out.push(r);
        }
    }
    let c = &outline.cursor;
    let mut cursor = Ref::new(
        "cursor",
        "cursor",
        CellRect {
            row: c.row,
            row_end: c.row + 1,
            col: c.col.min(cols.saturating_sub(1)),
            col_end: (c.col + 1).min(cols.max(1)),
        },
        screen,
    );
    cursor.value = Some(format!("{},{}", Ordinal::of(c.row), Ordinal::of(c.col)));
    cursor.visible = c.visible;
    out.push(cursor);
    let prompt = super::classify(screen, outline, cx.modes);
    let prompt_row = prompt.row.unwrap_or(c.row);
    let mut p = Ref::new("prompt", "prompt", row_rect(prompt_row, cols), screen);
    p.value = Some(prompt.kind.name().to_string());
    out.push(p);
    for b in &outline.boxes {
        let mut r = Ref::new("box", "box", b.inner(), screen);
        r.name = format!("@{}", b.name);
        r.key = b.title.clone();
        r.value = b.title.clone();
        r.rect = b.rect;
        r.text = crate::term::rects_text(screen, &[b.inner()]);
        out.push(r);
    }
    if let Some(sel) = outline.selected_row() {
        let rect = CellRect {
            row: sel.row,
            row_end: sel.row + 1,
            col: sel.cols.start,
            col_end: sel.cols.end,
        };
        let mut r = Ref::new("list.selected", "item", rect, screen);
        r.selected = true;
        r.value = Some(sel.text.clone());
        out.push(r);
        // The rows of the list: the block the selection is in.
        if let Some(block) = outline.blocks.iter().find(|b| {
            b.container == sel.container && (b.rect.row..b.rect.row_end).contains(&sel.row)
        }) {
            for row in block.rect.row..block.rect.row_end {
                let rect = CellRect {
                    row,
                    row_end: row + 1,
                    ..block.rect
                };
                let mut r = Ref::new("list.item", "item", rect, screen);
                r.selected = row == sel.row;
                r.value = Some(r.text.trim().to_string());
                r.name = format!("@list.item[{}]", row - block.rect.row);
                out.push(r);
            }
        }
    }
    for (i, h) in outline.highlights.iter().enumerate() {
        let rect = CellRect {
            row: h.row,
            row_end: h.row + 1,
            col: h.cols.start,
            col_end: h.cols.end,
        };
        let mut r = Ref::new("highlight", "highlight", rect, screen);
        r.name = format!("@highlight[{i}]");
        r.selected = outline.selected == Some(i);
        r.value = Some(h.text.clone());
        out.push(r);
    }
    for (i, t) in super::tables(screen).iter().enumerate() {
        let height = t.rows.len() + usize::from(t.header.is_some());
        let col_end = t.columns.last().map_or(t.col + 1, |c| c.1 + 1);
        let rect = CellRect {
            row: t.row,
            row_end: t.row + height.max(1),
            col: t.col,
            col_end,
        };
        let mut r = Ref::new("table", "table", rect, screen);
        r.name = format!("@table[{i}]");
        r.value = Some(match &t.header {
            Some(h) => h.join(" | "),
            None => format!("{} rows", t.rows.len()),
        });
        out.push(r);
    }
    for (i, b) in outline.blocks.iter().enumerate() {
        let mut r = Ref::new("block", "block", b.rect, screen);
        r.name = format!("@block[{i}]");
        r.value = b.lines.first().map(|l| l.trim().to_string());
        out.push(r);
    }
    out
}

fn region_refs(screen: &Screen, regions: &BTreeMap<String, Anchor>) -> Vec<Ref> {
    regions
        .iter()
        .filter_map(|(name, a)| region_ref(screen, name, a))
        .collect()
}

/// A region's ref, with the evidence its rule found it on; none where the rule finds nothing
/// or takes the first of several places (it is not one place on this screen: no guess).
fn region_ref(screen: &Screen, name: &str, anchor: &Anchor) -> Option<Ref> {
    let located = anchor
        .locate(screen, &std::cell::OnceCell::new())
        .ok()
        .filter(|l| l.also.is_empty())?;
    let rects = located.rects;
    let first = *rects.first()?;
    let rect = rects.iter().fold(first, |a, b| CellRect {
        row: a.row.min(b.row),
        row_end: a.row_end.max(b.row_end),
        col: a.col.min(b.col),
        col_end: a.col_end.max(b.col_end),
    });
    let mut r = Ref::new("region", "region", rect, screen);
    r.text = crate::term::rects_text(screen, &rects);
    r.name = format!(
        "@region(\"{}\")",
        name.replace('\\', "\\\\").replace('"', "\\\"")
    );
    r.key = Some(name.to_string());
    r.evidence = Some(located.evidence);
    Some(r)
}

fn inside(inner: &CellRect, outer: &CellRect) -> bool {
    inner.row >= outer.row
        && inner.row_end <= outer.row_end
        && inner.col >= outer.col
        && inner.col_end <= outer.col_end
}

/// The refs `selector` picks on `screen`, in reading order (empty: none); an error of an
/// adapter it asks (see [`refs`]).
pub fn select(
    selector: &Selector,
    screen: &Screen,
    cx: &RefContext,
) -> Result<Vec<Ref>, AdapterError> {
    let outline = screen.outline();
    let mut scope: Option<Vec<Ref>> = None;
    for step in selector.steps() {
        let mut found = refs_named(screen, &outline, &step.name, cx)?;
        if let Some(outer) = &scope {
            found.retain(|r| {
                outer
                    .iter()
                    .any(|o| inside(&r.rect, &o.rect) && o.rect != r.rect)
            });
        }
        found.retain(|r| args_match(step.name.as_str(), &step.args, r));
        for filter in &step.filters {
            match filter {
                Filter::Index(i) => {
                    let n = found.len() as i64;
                    let at = if *i < 0 { n + i } else { *i };
                    found = if (0..n).contains(&at) {
                        vec![found.swap_remove(at as usize)]
                    } else {
                        Vec::new()
                    };
                }
                Filter::Flag(flag, on) => found.retain(|r| {
                    let set = match flag {
                        Flag::Focused => r.focused,
                        Flag::Selected => r.selected,
                        Flag::Visible => r.visible,
                    };
                    set == *on
                }),
                Filter::Compare(attr, op, lit) => found.retain(|r| {
                    let text = match attr {
                        Attr::Value => r.value_or_text(),
                        Attr::Text => r.text.as_str(),
                        Attr::Role => r.role.as_str(),
                        Attr::Name => r.name.as_str(),
                    };
                    lit.test(*op, text)
                }),
            }
        }
        scope = Some(found);
    }
    Ok(scope.unwrap_or_default())
}

/// Whether `r` is the one the arguments of a step name.
fn args_match(name: &str, args: &[Arg], r: &Ref) -> bool {
    match args {
        [] => true,
        // A box by its stable name's form: `@box(2)`, `@box("Todos", 2)`.
        _ if name == "box" => {
            let inner = args
                .iter()
                .map(|a| match a {
                    Arg::Text(t) => format!("\"{t}\""),
                    Arg::Number(n) => n.to_string(),
                })
                .collect::<Vec<_>>()
                .join(", ");
            r.name == format!("@box({inner})")
                || matches!(args, [Arg::Text(t)] if r.key.as_deref() == Some(t.as_str()))
        }
        [Arg::Text(t)] => r.key.as_deref() == Some(t.as_str()),
        [Arg::Number(n)] => r.key.as_deref() == Some(n.to_string().as_str()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{test_screen, Size};

    fn pick(sel: &str, screen: &Screen) -> Vec<Ref> {
        let adapters = Adapters::builtin();
        select(
            &Selector::parse(sel).unwrap(),
            screen,
            &RefContext::new(adapters),
        )
        .unwrap()
    }

    #[test]
    fn role_refs_of_a_boxed_list() {
        let s = test_screen(
            Size { cols: 30, rows: 6 },
            "┌ Todos ───────┐\r\n│ Buy milk     │\r\n│\x1b[7m Write notes  \x1b[0m│\r\n│ Ship it      │\r\n└──────────────┘\r\n\x1b[7m3 todos                       \x1b[0m",
        );
        let sel = pick("@box(\"Todos\") >> @list.selected", &s);
        assert_eq!(sel.len(), 1, "{sel:#?}");
        assert_eq!(sel[0].value.as_deref(), Some("Write notes"));
        assert_eq!(pick("@list.selected[text~=\"Write\"]", &s).len(), 1);
        assert!(pick("@list.selected[text~=\"Buy\"]", &s).is_empty());
        let items = pick("@list.item", &s);
        assert_eq!(items.len(), 3);
        assert_eq!(
            pick("@list.item[selected]", &s)[0].value.as_deref(),
            Some("Write notes")
        );
        assert_eq!(
            pick("@list.item[-1]", &s)[0].value.as_deref(),
            Some("Ship it")
        );
        assert_eq!(pick("@status", &s)[0].value.as_deref(), Some("3 todos"));
        assert_eq!(pick("@box(1)", &s).len(), 0, "the box has a title");
        assert_eq!(pick("@box(\"Todos\")", &s)[0].name, "@box(\"Todos\")");
        assert!(pick("@box(\"Other\") >> @list.selected", &s).is_empty());
    }

    #[test]
    fn a_region_found_by_a_rule_has_its_evidence_or_is_absent() {
        let s = test_screen(
            Size { cols: 30, rows: 6 },
            "Total: 3\r\n---\r\none\r\n===\r\nTotal: 5\r\nstatus line",
        );
        let re = |r: &str| regex::Regex::new(r).unwrap();
        let mut regions = BTreeMap::new();
        regions.insert("last".to_string(), Anchor::LastRow);
        regions.insert(
            "body".to_string(),
            Anchor::Between {
                from: re("^---"),
                to: re("^==="),
            },
        );
        regions.insert("total".to_string(), Anchor::Row(re("^Total")));
        regions.insert(
            "first".to_string(),
            Anchor::Match {
                regex: re("Total: 3"),
                offset: (0, 7),
                width: Some(1),
            },
        );
        let adapters = Adapters::builtin();
        let found = refs(&s, &RefContext::new(adapters).regions(&regions)).unwrap();
        let region = |name: &str| found.iter().find(|r| r.key.as_deref() == Some(name));
        let last = region("last").expect("the last row");
        assert_eq!(last.text, "status line");
        assert_eq!(
            last.evidence.as_deref(),
            Some("last_row = true: row 6"),
            "{last:?}"
        );
        let body = region("body").expect("the rows between");
        assert_eq!(body.text, "one");
        assert!(
            body.evidence
                .as_deref()
                .is_some_and(|e| e.ends_with("the rows between row 2 and row 4")),
            "{body:?}"
        );
        let first = region("first").expect("one match");
        assert_eq!(first.text, "3");
        assert!(
            first
                .evidence
                .as_deref()
                .is_some_and(|e| e.ends_with("matched at row 1 column 1")),
            "{first:?}"
        );
        // `^Total` matches rows 1 and 5: the rule would take the first, a guess; no ref.
        assert!(region("total").is_none(), "{found:#?}");
        let located = regions["total"]
            .locate(&s, &std::cell::OnceCell::new())
            .unwrap();
        assert_eq!(located.also, ["row 5"]);
    }
}
