//! The `[regions]` table (a cast's TOML, or `tuicast.toml` for every cast): named parts of the
//! screen, fixed cells or anchored by content, and the cell ranges masks and regions share.

use super::*;

/// Named regions of a `[regions]` table (a cast's TOML, or `tuicast.toml` for every cast),
/// checked: what each finds on a screen, and (with the `png` feature) its annotation keys.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Regions {
    /// Every region, fixed or anchored by content, as it finds its cells on a screen.
    pub anchors: BTreeMap<String, Anchor>,
    /// Every region's annotation keys, its label defaulting to its name (`rows`, `cols` and
    /// `regex` only for fixed regions).
    #[cfg(feature = "png")]
    pub annotations: BTreeMap<String, AnnotationSpec>,
    /// Every region as an inline TOML table, as its file wrote it: what a saved session's
    /// scenario carries of the regions it used ([`Regions::toml`]).
    written: BTreeMap<String, String>,
    /// The adapters refs may name: the built-in ones and the `[adapters]` of the files read
    /// (`None`: the built-in ones alone).
    adapters: Option<Arc<Adapters>>,
}

impl Regions {
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.anchors.is_empty()
    }

    /// The region `name` as an inline TOML table (`{ match = { regex = "OK" } }`), as the
    /// file that named it wrote it: written into another file's `[regions]`, it finds the
    /// same cells.
    pub fn toml(&self, name: &str) -> Option<&str> {
        self.written.get(name).map(String::as_str)
    }

    /// The adapters refs may name: the built-in ones and the project's `[adapters]`.
    pub fn adapters(&self) -> &Adapters {
        self.adapters.as_deref().unwrap_or(Adapters::builtin())
    }

    /// The shared handle of [`Regions::adapters`], for a [`RefAnchor`] or a ref wait.
    pub(crate) fn adapters_arc(&self) -> Arc<Adapters> {
        self.adapters
            .clone()
            .unwrap_or_else(|| Arc::new(Adapters::builtin().clone()))
    }

    /// The tables as written, checked; errors name `path`'s line and column (`text` is the
    /// file's content). `base` holds what the project gave already: its adapters, which
    /// this file's `[adapters]` extend and its regions may name.
    pub(in crate::config) fn read(
        path: &Path,
        text: &str,
        table: &BTreeMap<String, Spanned<RegionToml>>,
        adapters: &BTreeMap<String, Spanned<AdapterToml>>,
        base: &Regions,
    ) -> Result<Regions, ConfigError> {
        let at = Places { path, text };
        let mut regions = Regions::default();
        if !adapters.is_empty() {
            let written: BTreeMap<String, String> = match text.parse::<toml::Table>() {
                Ok(file) => match file.get("adapters") {
                    Some(toml::Value::Table(t)) => {
                        t.iter().map(|(k, v)| (k.clone(), inline_toml(v))).collect()
                    }
                    _ => BTreeMap::new(),
                },
                Err(_) => BTreeMap::new(),
            };
            let mut set = base.adapters().clone();
            for (name, spec) in adapters {
                let mut manifest = spec.get_ref().clone();
                manifest.place_refs(|span| at.origin(span).to_string());
                let one = vec![(
                    name.clone(),
                    manifest,
                    written.get(name).cloned().unwrap_or_default(),
                    at.origin(spec.span()).to_string(),
                )];
                set = set
                    .extended(one)
                    .map_err(|e| at.error(spec.span(), e.to_string()))?;
            }
            regions.adapters = Some(Arc::new(set));
        } else {
            regions.adapters = base.adapters.clone();
        }
        let vocab = regions.adapters_arc();
        // Each region's value again, as TOML (the file has read already: it parses).
        if !table.is_empty() {
            if let Ok(file) = text.parse::<toml::Table>() {
                if let Some(toml::Value::Table(t)) = file.get("regions") {
                    for (name, value) in t {
                        regions.written.insert(name.clone(), inline_toml(value));
                    }
                }
            }
        }
        for (name, spec) in table {
            let span = spec.span();
            let r = spec.get_ref();
            let shown = escape_for_terminal(name, 60);
            #[cfg(feature = "png")]
            {
                let region = AnnotationSpec {
                    region: None,
                    rows: r.rows.as_ref().map(|v| v.0.clone()),
                    cols: r.cols.as_ref().map(|v| v.0.clone()),
                    regex: r.regex.clone(),
                    label: r.label.clone().or_else(|| Some(name.clone())),
                    color: r.color.clone(),
                };
                // Checked now, as masks and steps are, not when a screenshot needs the
                // region (an anchored one's cells are checked as its anchor below).
                if !r.anchored() {
                    region
                        .build()
                        .map_err(|e| at.error(span.clone(), format!("regions.{shown}: {e}")))?;
                } else if let Some(c) = &region.color {
                    crate::rgb::Rgb::parse(c).map_err(|e| {
                        at.error(span.clone(), format!("regions.{shown}: annotation: {e}"))
                    })?;
                }
                regions.annotations.insert(name.clone(), region);
            }
            let anchor = region_anchor(r, &vocab)
                .map_err(|e| at.error(span, format!("regions.{shown}: {e}")))?;
            regions.anchors.insert(name.clone(), anchor);
        }
        Ok(regions)
    }

    /// These regions with `own`'s over them: a region of `own` wins over one of the same
    /// name here.
    pub(super) fn with(&self, own: Regions) -> Regions {
        let mut out = self.clone();
        if own.adapters.is_some() {
            out.adapters = own.adapters;
        }
        out.anchors.extend(own.anchors);
        out.written.extend(own.written);
        #[cfg(feature = "png")]
        out.annotations.extend(own.annotations);
        out
    }
}

/// A TOML value written inline: `{ rows = "2", cols = "3..8" }`, `"text"`, `[1, 2]`.
fn inline_toml(value: &toml::Value) -> String {
    match value {
        toml::Value::Table(t) => {
            let pairs: Vec<String> = t
                .iter()
                .map(|(k, v)| format!("{} = {}", toml_key(k), inline_toml(v)))
                .collect();
            if pairs.is_empty() {
                "{}".to_string()
            } else {
                format!("{{ {} }}", pairs.join(", "))
            }
        }
        toml::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(inline_toml).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// A TOML key: bare when it can be, else quoted.
pub(in crate::config) fn toml_key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        toml::Value::String(k.to_string()).to_string()
    }
}

/// The anchor of a region of `[regions]`: fixed cells (`rows`, `cols`, `regex`) or exactly
/// one of `row`, `match`, `inside`, `between`, `last_row`.
pub(super) fn region_anchor(r: &RegionToml, adapters: &Arc<Adapters>) -> Result<Anchor, Invalid> {
    let fixed = r.rows.is_some() || r.cols.is_some() || r.regex.is_some();
    let mut found = Vec::new();
    if let Some(s) = &r.reference {
        found.push(ref_anchor(s, adapters, None)?);
    }
    if let Some(row) = &r.row {
        found.push(Anchor::Row(anchor_regex(&row.regex)?));
    }
    if let Some(m) = &r.matched {
        let [drow, dcol] = m.offset.unwrap_or([0, 0]);
        if m.width == Some(0) {
            return Err("match width = 0 selects no cells".into());
        }
        found.push(Anchor::Match {
            regex: anchor_regex(&m.regex)?,
            offset: (drow, dcol),
            width: m.width,
        });
    }
    if let Some(inside) = &r.inside {
        if inside.title.is_empty() {
            return Err("inside = { box = \"\" } names no box".into());
        }
        found.push(Anchor::Inside(inside.title.clone()));
    }
    if let Some(b) = &r.between {
        found.push(Anchor::Between {
            from: anchor_regex(&b.from)?,
            to: anchor_regex(&b.to)?,
        });
    }
    match r.last_row {
        Some(true) => found.push(Anchor::LastRow),
        Some(false) => return Err("last_row = false selects nothing: leave it out".into()),
        None => {}
    }
    let rule = "a region takes rows/cols/regex or exactly one of row, match, inside, between, \
                last_row, ref";
    match (one_of(found, rule)?, fixed) {
        (None, _) => {
            CellSelection::new(range_text(&r.rows), range_text(&r.cols), r.regex.as_deref())
                .map(Anchor::Cells)
                .map_err(|e| Invalid(e.to_string()))
        }
        (Some(a), false) => Ok(a),
        (Some(_), true) => Err(rule.into()),
    }
}

/// The anchor of the selector `s`, checked: it parses, and names refs that `adapters` (and
/// `regions`, where a region may be named) give.
pub(super) fn ref_anchor(
    s: &str,
    adapters: &Arc<Adapters>,
    regions: Option<&BTreeMap<String, Anchor>>,
) -> Result<Anchor, Invalid> {
    let selector = checked_selector(s, adapters, regions)?;
    Ok(Anchor::Ref(Box::new(RefAnchor::new(
        selector,
        adapters.clone(),
    ))))
}

/// The selector `s`, parsed and checked against what `adapters` and `regions` name.
pub(super) fn checked_selector(
    s: &str,
    adapters: &Adapters,
    regions: Option<&BTreeMap<String, Anchor>>,
) -> Result<Selector, Invalid> {
    let shown = escape_for_terminal(s, 80);
    let selector = Selector::parse(s).map_err(|e| invalid!("ref \"{shown}\": {e}"))?;
    let mut cx = RefContext::new(adapters);
    if let Some(r) = regions {
        cx = cx.regions(r);
    }
    if let Some(why) = unknown_ref(&selector, &cx) {
        return Err(invalid!("ref \"{shown}\": {why}"));
    }
    Ok(selector)
}

/// The region `name` of `[regions]`, or an error that lists the regions there are.
pub(super) fn named_region<'a, T>(
    regions: &'a BTreeMap<String, T>,
    name: &str,
) -> Result<&'a T, Invalid> {
    regions.get(name).ok_or_else(|| {
        let known: Vec<String> = regions.keys().map(|k| escape_for_terminal(k, 40)).collect();
        invalid!(
            "no region \"{}\" in [regions] (regions: {})",
            escape_for_terminal(name, 60),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        )
    })
}

/// One region of a `[regions]` table as written (a cast's TOML and `tuicast.toml` alike).
#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
// Without the `png` feature a region's label and colour are read and not used.
#[cfg_attr(not(feature = "png"), allow(dead_code))]
pub(in crate::config) struct RegionToml {
    /// Rows, from 1: a number or a range (`"2..5"`, `"2..=4"`, `"2.."`).
    #[serde(default)]
    pub(super) rows: Option<CellRange>,
    /// Columns, from 1: a number or a range.
    #[serde(default)]
    pub(super) cols: Option<CellRange>,
    /// Every match of this regex.
    #[serde(default)]
    pub(super) regex: Option<String>,
    /// The whole row of the first match of `regex`.
    #[serde(default)]
    pub(super) row: Option<RowToml>,
    /// The cells of the first match, moved by `offset` and `width` cells wide.
    #[serde(default, rename = "match")]
    pub(super) matched: Option<MatchToml>,
    /// The inside of the box with this stable name or title.
    #[serde(default)]
    pub(super) inside: Option<InsideToml>,
    /// The rows strictly between the first row matching `from` and the next matching `to`.
    #[serde(default)]
    pub(super) between: Option<BetweenToml>,
    /// The last non-blank row.
    #[serde(default)]
    pub(super) last_row: Option<bool>,
    /// The cells of the one ref a selector finds (`"@vim.mode"`, `"@dialog.button(\"OK\")"`;
    /// docs/agents.md, "Refs and selectors").
    #[serde(default, rename = "ref")]
    pub(super) reference: Option<String>,
    /// The annotation's label (default: the region's name; `""` for none).
    #[serde(default)]
    pub(super) label: Option<String>,
    /// The annotation's colour (`#rrggbb` or a name).
    #[serde(default, alias = "colour")]
    pub(super) color: Option<String>,
}

impl RegionToml {
    /// Whether the region is anchored by content (not fixed cells).
    #[cfg(feature = "png")]
    pub(super) fn anchored(&self) -> bool {
        self.row.is_some()
            || self.matched.is_some()
            || self.inside.is_some()
            || self.between.is_some()
            || self.last_row.is_some()
            || self.reference.is_some()
    }
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct RowToml {
    /// The regex a row matches.
    pub(super) regex: String,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct MatchToml {
    /// The regex.
    pub(super) regex: String,
    /// `[rows, columns]` the region is moved by (default `[0, 0]`).
    #[serde(default)]
    pub(super) offset: Option<[i64; 2]>,
    /// How many cells wide (default: the match's).
    #[serde(default)]
    pub(super) width: Option<usize>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct InsideToml {
    /// The box's stable name (`box("Todos", 2)`) or title.
    #[serde(rename = "box")]
    pub(super) title: String,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct BetweenToml {
    /// The regex of the row above the region.
    pub(super) from: String,
    /// The regex of the row below it.
    pub(super) to: String,
}

/// A row or column range as written: a number (`3`) or a string (`"2..5"`), kept as the
/// string [`CellSelection::new`] reads.
#[derive(Debug)]
pub(super) struct CellRange(pub(super) String);

pub(super) fn range_text(range: &Option<CellRange>) -> Option<&str> {
    range.as_ref().map(|r| r.0.as_str())
}

impl<'de> serde::Deserialize<'de> for CellRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = CellRange;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a row or column: a number like 3, or a range like \"2..5\"")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<CellRange, E> {
                Ok(CellRange(v.to_string()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<CellRange, E> {
                match u64::try_from(v) {
                    Ok(v) => self.visit_u64(v),
                    Err(_) => Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self)),
                }
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<CellRange, E> {
                Ok(CellRange(v.to_string()))
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for CellRange {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CellRange".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A row or column, from 1: a number like 3, or a range like \"2..5\", \"2..=4\", \"2..\" or \"..5\"",
            "type": ["integer", "string"],
            "minimum": 1
        })
    }
}
