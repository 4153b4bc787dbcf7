//! The `[check]` table: formats, masks, which checkpoints, the cursor, scrollback, region
//! goldens and expectations.

use super::*;

#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct CheckToml {
    /// The golden formats: `txt` (or `text`), `styled.txt` (or `styled`), `png`.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<Vec<Format>>"))]
    pub(super) formats: Option<Spanned<Vec<Format>>>,
    /// Check the final screen (default `true`).
    #[serde(default)]
    pub(super) end: Option<bool>,
    /// Check only these checkpoints.
    #[serde(default)]
    pub(super) checkpoints: Option<Vec<String>>,
    /// Goldens have a `cursor:` line (default `true`).
    #[serde(default)]
    pub(super) cursor: Option<bool>,
    /// `txt` goldens carry the screen's colours and attributes (default: `styles` of
    /// `tuicast.toml`, true; false: the text alone).
    #[serde(default)]
    pub(super) styles: Option<bool>,
    /// Cells replaced by `▒` before comparing and in the golden.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<MaskToml>"))]
    pub(super) mask: Vec<Spanned<MaskToml>>,
    /// Text goldens show this many lines scrolled off the top (at most 1000).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<u32>"))]
    pub(super) scrollback: Option<Spanned<u32>>,
    /// Expectations on a checkpoint's screen, each a test of its own.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<ExpectToml>"))]
    pub(super) expect: Vec<Spanned<ExpectToml>>,
    /// Region goldens: the text of each of these `[regions]` entries.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<String>"))]
    pub(super) regions: Vec<Spanned<String>>,
}

/// A string or a list of strings (`at = "end"`, `at = ["a", "b"]`).
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub(super) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// One `[check] mask` entry: cells (the cell-selecting keys of a region), or a named region
/// of `[regions]`.
#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct MaskToml {
    /// Rows, from 1: a number or a range (`"2..5"`, `"2..=4"`, `"2.."`).
    #[serde(default)]
    pub(super) rows: Option<CellRange>,
    /// Columns, from 1: a number or a range.
    #[serde(default)]
    pub(super) cols: Option<CellRange>,
    /// Every match of this regex (within `rows`/`cols` when given).
    #[serde(default)]
    pub(super) regex: Option<String>,
    /// A region of `[regions]`.
    #[serde(default)]
    pub(super) region: Option<String>,
    /// Every ref a selector finds (`"@htop.load"`).
    #[serde(default, rename = "ref")]
    pub(super) reference: Option<String>,
}

/// The `[check]` table, checked (its masks, expectations and region goldens may name any of
/// `anchors`, the cast's regions and the project's).
pub(super) struct CheckParts {
    pub(super) formats: Option<Vec<Format>>,
    pub(super) masks: Vec<Mask>,
    pub(super) checked: Checked,
    pub(super) cursor: bool,
    pub(super) styles: Option<bool>,
    pub(super) scrollback: usize,
    pub(super) scrollback_at: Option<String>,
    pub(super) expects: Vec<Expect>,
    pub(super) region_goldens: Vec<(String, Anchor)>,
}

/// Checks the `[check]` table `check` of the file `at`.
pub(super) fn check_table(
    at: &Places<'_>,
    check: &CheckToml,
    regions: &Regions,
) -> Result<CheckParts, ConfigError> {
    let masks: Vec<Mask> = check
        .mask
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let m = spec.get_ref();
            let fail = |e: Invalid| at.error(spec.span(), format!("check.mask[{i}]: {e}"));
            let place = at.origin(spec.span()).to_string();
            let fixed = m.rows.is_some() || m.cols.is_some() || m.regex.is_some();
            if let Some(s) = &m.reference {
                if fixed || m.region.is_some() {
                    return Err(fail(
                        "a mask takes one of ref, region or its cells (rows, cols, regex)".into(),
                    ));
                }
                let selector = checked_selector(s, regions.adapters(), None).map_err(fail)?;
                return Ok(Mask::anchored(Anchor::Ref(Box::new(
                    RefAnchor::new(selector, regions.adapters_arc()).every(),
                )))
                .at(place));
            }
            match &m.region {
                Some(_) if fixed => Err(fail(
                    "a mask names a region or its cells (rows, cols, regex), not both".into(),
                )),
                Some(name) => named_region(&regions.anchors, name)
                    .map(|a| Mask::anchored(a.clone()).at(place))
                    .map_err(fail),
                None => {
                    CellSelection::new(range_text(&m.rows), range_text(&m.cols), m.regex.as_deref())
                        .map(|c| Mask::new(c).at(place))
                        .map_err(|e| fail(Invalid(e.to_string())))
                }
            }
        })
        .collect::<Result<_, _>>()?;
    let expects = check
        .expect
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            expectation(at, i, spec.get_ref(), spec.span(), regions)
                .map_err(|e| at.error(spec.span(), format!("check.expect[{i}]: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(twice) = expects
        .iter()
        .enumerate()
        .find(|(i, e)| expects[..*i].iter().any(|o| o.id == e.id))
    {
        let spec = &check.expect[twice.0];
        return Err(at.error(
            spec.span(),
            format!(
                "check.expect[{}]: name \"{}\" is taken by an earlier expectation",
                twice.0,
                escape_for_terminal(&twice.1.id, 60)
            ),
        ));
    }
    let mut region_goldens = Vec::new();
    for name in &check.regions {
        let shown = escape_for_terminal(name.get_ref(), 60);
        let anchor = named_region(&regions.anchors, name.get_ref())
            .map_err(|m| at.error(name.span(), format!("check.regions: {m}")))?;
        let file_safe = !name.get_ref().is_empty()
            && name
                .get_ref()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !file_safe {
            return Err(at.error(
                name.span(),
                format!(
                    "check.regions: \"{shown}\" names a golden file: letters, digits, - and _ only"
                ),
            ));
        }
        if region_goldens.iter().any(|(n, _)| n == name.get_ref()) {
            return Err(at.error(name.span(), format!("check.regions: \"{shown}\" twice")));
        }
        region_goldens.push((name.get_ref().clone(), anchor.clone()));
    }
    let scrollback = match &check.scrollback {
        None => 0,
        Some(n) if *n.get_ref() as usize <= MAX_SCROLLBACK => *n.get_ref() as usize,
        Some(n) => {
            return Err(at.error(
                n.span(),
                format!(
                    "check.scrollback = {} is more than the {MAX_SCROLLBACK} lines an engine keeps",
                    n.get_ref()
                ),
            ))
        }
    };
    let formats = match &check.formats {
        Some(f) if f.get_ref().is_empty() && expects.is_empty() && region_goldens.is_empty() => {
            return Err(at.error(f.span(), format!("check.{NO_FORMATS}")))
        }
        f => f.as_ref().map(|f| f.get_ref().clone()),
    };
    Ok(CheckParts {
        formats,
        masks,
        checked: Checked {
            only: check.checkpoints.clone(),
            end: check.end.unwrap_or(true),
        },
        cursor: check.cursor.unwrap_or(true),
        styles: check.styles,
        scrollback,
        scrollback_at: check
            .scrollback
            .as_ref()
            .filter(|n| *n.get_ref() > 0)
            .map(|n| at.origin(n.span()).to_string()),
        expects,
        region_goldens,
    })
}
