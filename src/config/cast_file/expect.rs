//! Expectations, `[[check.expect]]`: what a checkpoint's screen must show, checked into
//! [`Expect`]s.

use super::*;

/// One `[[check.expect]]` checked into an [`Expect`] (`i` its index, from 0).
pub(super) fn expectation(
    at: &Places<'_>,
    i: usize,
    e: &ExpectToml,
    span: Range<usize>,
    regions: &Regions,
) -> Result<Expect, Invalid> {
    let names: Vec<String> = match &e.at {
        None => {
            return Err(
                "an expectation needs at = \"CHECKPOINT\", at = [\"A\", \"B\"] or at = \"*\""
                    .into(),
            )
        }
        Some(OneOrMany::One(name)) => vec![name.clone()],
        Some(OneOrMany::Many(names)) if names.is_empty() => {
            return Err("at = [] names no checkpoint".into())
        }
        Some(OneOrMany::Many(names)) => names.clone(),
    };
    if names.iter().any(String::is_empty) {
        return Err("at = \"\" names no checkpoint".into());
    }
    let when = if names.iter().any(|n| n == "*") {
        if names.len() > 1 {
            return Err("at = \"*\" is every checkpoint: list names, or \"*\" alone".into());
        }
        None
    } else {
        Some(names)
    };
    let id = match &e.name {
        Some(n) if n.is_empty() => return Err("name = \"\" is empty".into()),
        Some(n) => n.clone(),
        None => (i + 1).to_string(),
    };
    let fixed = e.rows.is_some() || e.cols.is_some() || e.regex.is_some();
    if e.reference.is_some() && (fixed || e.region.is_some()) {
        return Err(
            "an expectation takes one of ref = \"SELECTOR\", region = \"NAME\" or rows/cols/regex"
                .into(),
        );
    }
    let region = match (&e.region, fixed) {
        _ if e.reference.is_some() => {
            let s = e.reference.as_deref().unwrap_or_default();
            let a = ref_anchor(s, &regions.adapters_arc(), None)?;
            Some((format!("ref \"{}\"", escape_for_terminal(s, 80)), a))
        }
        (Some(_), true) => {
            return Err(
                "an expectation takes region = \"NAME\" or rows/cols/regex, not both".into(),
            )
        }
        (Some(name), false) => {
            let a = named_region(&regions.anchors, name)?;
            Some((
                format!("region \"{}\"", escape_for_terminal(name, 60)),
                a.clone(),
            ))
        }
        (None, true) => Some((
            "cells".to_string(),
            Anchor::Cells(
                CellSelection::new(range_text(&e.rows), range_text(&e.cols), e.regex.as_deref())
                    .map_err(|e| e.to_string())?,
            ),
        )),
        (None, false) => None,
    };
    let mut texts = Vec::new();
    if let Some(t) = &e.text {
        texts.push(TextCheck::Equals(t.clone()));
    }
    if let Some(t) = &e.contains {
        if t.is_empty() {
            return Err("contains = \"\" checks nothing".into());
        }
        texts.push(TextCheck::Contains(t.clone()));
    }
    if let Some(r) = &e.matches {
        texts.push(TextCheck::Matches(crate::util::user_regex(r).map_err(
            |err| format!("matches: regex \"{}\" {err}", escape_for_terminal(r, 80)),
        )?));
    }
    let text = one_of(
        texts,
        "an expectation takes at most one of text, contains, matches",
    )?;
    let color = |c: &Option<ColorToml>, key: &str| -> Result<_, Invalid> {
        match c {
            None => Ok(None),
            Some(ColorToml::Index(n)) => u8::try_from(*n)
                .map(|i| Some(crate::term::Color::Indexed(i)))
                .map_err(|_| invalid!("{key} = {n}: a palette index is 0 to 255")),
            Some(ColorToml::Text(t)) => {
                parse_color(t).map(Some).map_err(|m| invalid!("{key}: {m}"))
            }
        }
    };
    let style = StyleCheck {
        fg: color(&e.fg, "fg")?,
        bg: color(&e.bg, "bg")?,
        bold: e.bold,
        italic: e.italic,
        underline: e.underline,
        inverse: e.inverse,
    };
    let cursor = match e.cursor {
        None => None,
        Some([r, c]) => match Place::new(r as usize, c as usize) {
            Some(place) => Some(place.point()),
            None => {
                return Err(invalid!(
                    "cursor = [{r}, {c}] has a 0: rows and columns count from 1"
                ))
            }
        },
    };
    let prompt = match &e.prompt {
        None => None,
        Some(p) => {
            Some(crate::inspect::PromptKind::parse(p, true).map_err(|m| format!("prompt = {m}"))?)
        }
    };
    let table_rows = e.table.as_ref().map(|t| t.rows);
    if text.is_none()
        && style.is_empty()
        && cursor.is_none()
        && e.title.is_none()
        && prompt.is_none()
        && table_rows.is_none()
    {
        return Err(
            "an expectation checks nothing: give text, contains, matches, a style \
             (fg, bg, bold, italic, underline, inverse), cursor, title, prompt or table"
                .into(),
        );
    }
    let (line, _) = crate::location::line_column(at.text, span.start);
    Ok(Expect {
        id,
        at: when,
        place: format!("{}:{line}", crate::assert::shown_path(at.path)),
        region,
        text,
        style,
        cursor,
        title: e.title.clone(),
        prompt,
        table_rows,
    })
}

/// One `[[check.expect]]` as written.
#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct ExpectToml {
    /// The expectation's name (default: its number in the file).
    #[serde(default)]
    pub(super) name: Option<String>,
    /// A checkpoint, a list of them, or `"*"`.
    #[serde(default)]
    pub(super) at: Option<OneOrMany>,
    /// A region of `[regions]` (none: the screen).
    #[serde(default)]
    pub(super) region: Option<String>,
    /// The one ref a selector finds (`"@vim.mode"`): its cells are the region.
    #[serde(default, rename = "ref")]
    pub(super) reference: Option<String>,
    /// Rows, from 1: a number or a range.
    #[serde(default)]
    pub(super) rows: Option<CellRange>,
    /// Columns, from 1: a number or a range.
    #[serde(default)]
    pub(super) cols: Option<CellRange>,
    /// The matches of this regex.
    #[serde(default)]
    pub(super) regex: Option<String>,
    /// The trimmed text equals this.
    #[serde(default)]
    pub(super) text: Option<String>,
    /// The text contains this.
    #[serde(default)]
    pub(super) contains: Option<String>,
    /// The text matches this regex.
    #[serde(default)]
    pub(super) matches: Option<String>,
    /// Every cell with text has this foreground (a name, `0`–`255` or `#rrggbb`).
    #[serde(default)]
    pub(super) fg: Option<ColorToml>,
    /// Every cell with text has this background.
    #[serde(default)]
    pub(super) bg: Option<ColorToml>,
    /// Every cell with text is (or is not) bold.
    #[serde(default)]
    pub(super) bold: Option<bool>,
    /// Every cell with text is (or is not) italic.
    #[serde(default)]
    pub(super) italic: Option<bool>,
    /// Every cell with text is (or is not) underlined.
    #[serde(default)]
    pub(super) underline: Option<bool>,
    /// Every cell with text is (or is not) inverse.
    #[serde(default)]
    pub(super) inverse: Option<bool>,
    /// The cursor is at `[row, col]`, from 1.
    #[serde(default)]
    pub(super) cursor: Option<[u64; 2]>,
    /// The window title contains this.
    #[serde(default)]
    pub(super) title: Option<String>,
    /// The prompt `tuicast inspect` classifies: `yesno`, `select`, `password`, `text`, `pager`, `confirm`, `shell`.
    #[serde(default)]
    pub(super) prompt: Option<String>,
    /// The first table in the region (or on the screen).
    #[serde(default)]
    pub(super) table: Option<TableExpectToml>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct TableExpectToml {
    /// How many data rows it has.
    pub(super) rows: usize,
}

/// A colour as written: a name, `#rrggbb` or a palette index (a number or a string).
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub(super) enum ColorToml {
    Index(u64),
    Text(String),
}
