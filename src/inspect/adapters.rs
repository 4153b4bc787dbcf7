//! Adapters: what tuicast knows of particular programs — vim's mode and command line, a
//! shell's prompt and the output of the last command, a pager's position, a dialog's buttons,
//! htop's and top's figures, fzf's query and selection, a REPL's or debugger's prompt and last
//! output, an editor's file and state — as [`Ref`](super::Ref)s (`@vim.mode`, `@fzf.query`, …).
//!
//! Every adapter, the built-in ones too, is data: an app manifest in TOML that says how to
//! recognise the program and how to read each of its refs. A project teaches tuicast another
//! program in `tuicast.toml` (or one cast's TOML) without Rust code:
//!
//! ```toml
//! [adapters.mytool]
//! programs = ["mytool"]              # the command's file name turns the adapter on …
//! screen = ['^MyTool v\d']           # … as does a row matching any of these regexes
//! [adapters.mytool.refs]
//! mode = { row = -1, regex = '^\[(?P<value>[A-Z]+)\]', lowercase = true, default = "normal" }
//! tab = { row = 1, regex = '\|(?P<value>[^|]+)\|', many = true, focused = "highlight" }
//! ```
//!
//! A ref is one table, or a list of them tried in turn (the first that finds something wins):
//!
//! - `row`: the row it is on — 1, 2, … from the top, -1, -2, … from the bottom, or
//!   `"cursor"`; every row when absent (the first match, top to bottom).
//! - `regex`: what it is; its cells are the match, its value the `value` group (else the
//!   whole match). Without a regex the ref is the whole row.
//! - `cursor = true`: found only when the cursor is shown on its row (so is `row = "cursor"`);
//!   `cursor = false`: only on the other rows (fzf's selected item, not its prompt line).
//! - `within = "REF"`: only in the rows of the adapter's ref `REF` (an error line in the
//!   output of the last command, not in an older one's); absent where `REF` is.
//! - `above = "REF"`: the rows above the adapter's ref `REF`, up to the previous row that
//!   `REF`'s regex matches (a shell's output between two prompts), without the blank rows at
//!   either end; none when no such row is on the screen (where the rows start would be a
//!   guess; `from_top = true`: the rows from the top of the screen then, for a full-screen
//!   program's list such as fzf's), and none where every row between is blank.
//! - `last = true`: the last match, bottom to top, instead of the first (claude-code's input
//!   box under a conversation whose messages look the same); not with `many` or `above`.
//! - `many = true`: every match is a ref, keyed by its value (`@dialog.button("Yes")`); a
//!   value found twice names no one ref, and neither is made.
//! - `inside = "box"`: a match counts only inside a box drawn on the screen (a dialog's
//!   buttons, not `<module>` in a traceback or `<ann@ex.io>` in a log).
//! - `shaded = true`: a match counts only where its cells (its `value` group's) are shaded
//!   unlike the cells beside them (less's file name in reverse video, not vim's `/tw`).
//! - `focused = "highlight"`: a match is focused when its cells are shaded unlike the cells
//!   beside it (reverse video, another background).
//! - `value = "top"`: the value of every match; `values = { "(END)" = "end" }` renames values; `lowercase = true` lower-cases them;
//!   `default = "normal"`: the value on a recognised screen where nothing matches (the ref's
//!   cells are then its row).
//!
//! An adapter is on when the program's file name is one of its `programs`, or a row of the
//! screen matches one of its `screen` regexes, or one of its `needs` refs is found (without
//! its default). The built-in manifests are `src/inspect/adapters.toml`: `vim` (vim and
//! neovim), `shell` (bash, zsh, fish, sh), `pager` (less, man, more), `dialog` (dialog and
//! whiptail), `htop`, `top`, `fzf`, `python`, `ipython`, `sqlite` (sqlite3), `gdb`, `nano`,
//! `emacs` (-nw), `tig`, `nnn`, `btop`, `psql`, and the AI CLIs `gemini` (gemini-cli), `claude`
//! (claude-code) and `codex`. A project's adapter of a built-in's name replaces it.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::refs::{Ref, ROLE_REFS};
use crate::term::{CellRect, Screen};
use crate::util::LazyRegex;

/// A set of adapters: the built-in ones and a project's `[adapters]` (`Regions::adapters` of the config).
#[derive(Debug, Clone, Default)]
pub struct Adapters {
    list: Vec<Adapter>,
}

/// One adapter, read from its manifest.
#[derive(Debug, Clone)]
pub struct Adapter {
    name: String,
    programs: Vec<String>,
    screen: Vec<LazyRegex>,
    needs: Vec<String>,
    refs: Vec<(String, Vec<RefSpec>)>,
    /// Where it was declared (`tuicast.toml:3:1: adapters.x`; `adapters.vim` for a built-in
    /// one): what an error of its `screen` regexes at first use starts with.
    place: String,
    /// Where each ref of `refs` was written (`tuicast.toml:5:1: adapters.x: refs.y`, or the
    /// adapter's place and the ref's name): what an error of the ref at first use starts with.
    ref_places: Vec<String>,
    /// The manifest as an inline TOML table, when a project wrote it (a built-in one has
    /// none: every tuicast knows it).
    written: Option<String>,
}

#[derive(Debug, Clone)]
struct RefSpec {
    row: RowSpec,
    regex: Vec<LazyRegex>,
    cursor: Option<bool>,
    above: Option<String>,
    within: Option<String>,
    from_top: bool,
    last: bool,
    many: bool,
    focused: bool,
    values: BTreeMap<String, String>,
    lowercase: bool,
    default: Option<String>,
    fixed: Option<String>,
    in_box: bool,
    shaded: bool,
}

#[derive(Debug, Clone, Copy)]
enum RowSpec {
    Every,
    Top(usize),
    Bottom(usize),
    Cursor,
}

/// A manifest as TOML writes it.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct AdapterToml {
    /// The command file names that turn the adapter on (`vim`).

    #[serde(default)]
    programs: Vec<String>,
    /// Regexes: a row matching one turns the adapter on.
    #[serde(default)]
    screen: Vec<String>,
    /// Refs of the adapter: one found (without its default) turns it on.
    #[serde(default)]
    needs: Vec<String>,
    /// The refs: how to find each (one table, or a list tried in turn).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "BTreeMap<String, OneOrMany>"))]
    refs: BTreeMap<String, toml::Spanned<OneOrMany>>,
    /// Where each ref was written (`tuicast.toml:5:1`), set by [`AdapterToml::place_refs`]:
    /// what an error of the ref at first use (a limit, a regex) starts with.
    #[serde(skip)]
    ref_places: BTreeMap<String, String>,
}

impl AdapterToml {
    /// Notes where each ref was written: `place_of` gives the place of a span of the file
    /// the manifest was read from (`tuicast.toml:5:1`).
    pub(crate) fn place_refs(&mut self, place_of: impl Fn(std::ops::Range<usize>) -> String) {
        self.ref_places = self
            .refs
            .iter()
            .map(|(name, spec)| (name.clone(), place_of(spec.span())))
            .collect();
    }
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
enum OneOrMany {
    One(Box<RefToml>),
    Many(Vec<RefToml>),
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
enum RowToml {
    Number(i64),
    Word(String),
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
enum Regexes {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct RefToml {
    /// The row: 1, 2, … from the top, -1, -2, … from the bottom, or "cursor" (every row when absent).
    row: Option<RowToml>,
    /// What the ref is (its `value` group its value); a list is tried in turn.
    regex: Option<Regexes>,
    /// `true`: found only when the cursor is on its row; `false`: only on the other rows.
    cursor: Option<bool>,
    /// The rows above this ref of the adapter, up to the previous row its regex matches.
    above: Option<String>,
    /// Found only in the rows of this ref of the adapter.
    within: Option<String>,
    /// With `above`: where no row above its ref matches that ref's regex, the rows from the
    /// top of the screen (a full-screen program's list, as fzf's); else none there.
    #[serde(default)]
    from_top: bool,
    /// The last match, bottom to top, instead of the first (an input box under a
    /// conversation that shows the same rows).
    #[serde(default)]
    last: bool,
    /// Every match is a ref, keyed by its value.
    #[serde(default)]
    many: bool,
    /// "highlight": a match shaded unlike the cells beside it is focused.
    focused: Option<String>,
    /// Values renamed: { "(END)" = "end" }.
    #[serde(default)]
    values: BTreeMap<String, String>,
    /// Values lower-cased.
    #[serde(default)]
    lowercase: bool,
    /// The value where nothing matches on a recognised screen.
    default: Option<String>,
    /// The value of every match, whatever it holds.
    value: Option<String>,
    /// "box": a match counts only inside a box drawn on the screen (a dialog's buttons).
    inside: Option<String>,
    /// A match counts only where it is shaded unlike the cells beside it (less's file name
    /// in reverse video).
    #[serde(default)]
    shaded: bool,
}

message_error!(
    /// Why a project's adapter manifest cannot be used.
    AdapterError, AdapterErrorKind {
        /// More adapters, or refs in one, than [`MAX_ADAPTERS`].
        TooMany,
        /// An adapter's or a ref's name is not a word, or is a role ref's.
        Name,
        /// A regex is empty or not valid.
        Regex,
        /// A ref's spec is wrong (its `row`, `focused`, `above`, an empty list) or `needs`
        /// names no ref.
        Spec,
    }
);

/// The most adapters a set holds, refs an adapter has, and tables in one ref's list.
pub const MAX_ADAPTERS: usize = 256;

/// The longest chain of `above` refs (`a` above `b` above `c` …: 8 links); a cycle is an
/// error too.
pub const MAX_ABOVE_DEPTH: usize = 8;

/// The most refs one `many = true` ref makes on one screen (later matches make none).
pub const MAX_MANY: usize = 1000;

/// The most cells an adapter's refs on one screen cover in all, each ref counting its own
/// (later refs are not made): four screens of the largest size.
pub const MAX_REF_CELLS: usize = 4 * crate::size::MAX_CELLS as usize;

impl Adapters {
    /// The built-in adapters (`src/inspect/adapters.toml`).
    pub fn builtin() -> &'static Adapters {
        static BUILTIN: OnceLock<Adapters> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            let table: BTreeMap<String, AdapterToml> =
                toml::from_str(include_str!("adapters.toml")).unwrap_or_default();
            let mut list = Vec::new();
            // Their regexes are tuicast's own: a budget of their own, never a session's.
            let budget = crate::util::RegexBudget::default();
            budget.enter(|| {
                for (name, t) in table {
                    // The built-in manifests are checked by a test: one that failed would
                    // be left out, never a panic.
                    let place = format!("adapters.{name}");
                    if let Ok(a) = Adapter::from_toml(&name, t, None, place) {
                        list.push(a);
                    }
                }
            });
            Adapters { list }
        })
    }

    /// These adapters with `manifests` over them (an adapter of a name here is replaced).
    /// Each manifest comes with its name, itself as an inline TOML table (what a saved
    /// scenario carries) and the place of its declaration (`tuicast.toml:3:1`), which starts
    /// the errors its regexes and refs meet when first used.
    pub(crate) fn extended(
        &self,
        manifests: Vec<(String, AdapterToml, String, String)>,
    ) -> Result<Adapters, AdapterError> {
        let mut out = self.clone();
        if out.list.len() + manifests.len() > MAX_ADAPTERS {
            return Err(AdapterError::new(
                AdapterErrorKind::TooMany,
                format!("at most {MAX_ADAPTERS} adapters"),
            ));
        }
        for (name, t, written, place) in manifests {
            let shown = crate::escape::escape_for_terminal(&name, 40);
            let place = if place.is_empty() {
                format!("adapters.{shown}")
            } else {
                format!("{place}: adapters.{shown}")
            };
            let a = Adapter::from_toml(&name, t, Some(written), place).map_err(|e| {
                AdapterError::new(
                    e.kind,
                    format!(
                        "adapters.{}: {e}",
                        crate::escape::escape_for_terminal(&name, 40)
                    ),
                )
            })?;
            out.list.retain(|b| b.name != name);
            out.list.push(a);
        }
        Ok(out)
    }

    /// The adapter `name`.
    pub fn get(&self, name: &str) -> Option<&Adapter> {
        self.list.iter().find(|a| a.name == name)
    }

    /// Every adapter's name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.list.iter().map(|a| a.name.as_str())
    }

    /// The adapters that recognise `screen` of `program`, or the error of the first whose
    /// regexes cannot be compiled ([`Adapter::recognises`]).
    pub fn recognising<'a>(
        &'a self,
        screen: &'a Screen,
        program: Option<&'a str>,
    ) -> impl Iterator<Item = Result<&'a Adapter, AdapterError>> + 'a {
        self.list
            .iter()
            .filter_map(move |a| match a.recognises(screen, program) {
                Ok(true) => Some(Ok(a)),
                Ok(false) => None,
                Err(e) => Some(Err(e)),
            })
    }

    /// The adapters a project wrote (not built in), as `(name, inline TOML)`.
    pub fn written(&self) -> impl Iterator<Item = (&str, &str)> {
        self.list
            .iter()
            .filter_map(|a| a.written.as_deref().map(|w| (a.name.as_str(), w)))
    }
}

impl Adapter {
    fn from_toml(
        name: &str,
        t: AdapterToml,
        written: Option<String>,
        place: String,
    ) -> Result<Adapter, AdapterError> {
        Adapter::read(name, t, written, place)
    }

    /// [`Adapter::from_toml`].
    fn read(
        name: &str,
        t: AdapterToml,
        written: Option<String>,
        place: String,
    ) -> Result<Adapter, AdapterError> {
        let word = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        if !word(name) {
            return Err(AdapterError::new(
                AdapterErrorKind::Name,
                "an adapter's name is letters, digits, `_` and `-`",
            ));
        }
        if ROLE_REFS.contains(&name) {
            return Err(AdapterError::new(
                AdapterErrorKind::Name,
                format!("`{name}` is a role ref's name, not an adapter's"),
            ));
        }
        // Checked now, compiled when a screen first asks for it; an error then starts with
        // `at`, the place of what holds the regex.
        let regex_at = |r: &str, at: &str| {
            if r.is_empty() {
                return Err(AdapterError::new(
                    AdapterErrorKind::Regex,
                    "a regex is empty",
                ));
            }
            let shown = format!("regex \"{}\"", crate::escape::escape_for_terminal(r, 60));
            LazyRegex::new(r, format!("{at}: {shown}"))
                .map_err(|e| AdapterError::new(AdapterErrorKind::Regex, format!("{shown} {e}")))
        };
        let regex = |r: &str| regex_at(r, &place);
        let screen = t
            .screen
            .iter()
            .map(|r| regex(r))
            .collect::<Result<_, _>>()?;
        if t.refs.len() > MAX_ADAPTERS {
            return Err(AdapterError::new(
                AdapterErrorKind::TooMany,
                format!("at most {MAX_ADAPTERS} refs"),
            ));
        }
        let mut refs = Vec::new();
        let mut ref_places = Vec::new();
        for (ref_name, specs) in &t.refs {
            if !word(ref_name) {
                return Err(AdapterError::new(
                    AdapterErrorKind::Name,
                    format!(
                        "refs.{}: a ref's name is letters, digits, `_` and `-`",
                        crate::escape::escape_for_terminal(ref_name, 40)
                    ),
                ));
            }
            // Its errors at first use start with its own place when it is known.
            let ref_place = match t.ref_places.get(ref_name) {
                Some(at) => format!(
                    "{at}: adapters.{}: refs.{ref_name}",
                    crate::escape::escape_for_terminal(name, 40)
                ),
                None => format!("{place}: refs.{ref_name}"),
            };
            let regex = |r: &str| regex_at(r, &ref_place);
            let specs = match specs.get_ref() {
                OneOrMany::One(s) => vec![(**s).clone()],
                OneOrMany::Many(v) => v.clone(),
            };
            if specs.is_empty() {
                return Err(AdapterError::new(
                    AdapterErrorKind::Spec,
                    format!("refs.{ref_name}: an empty list"),
                ));
            }
            if specs.len() > MAX_ADAPTERS {
                return Err(AdapterError::new(
                    AdapterErrorKind::TooMany,
                    format!(
                        "refs.{ref_name}: a list of {} tables, more than {MAX_ADAPTERS}",
                        specs.len()
                    ),
                ));
            }
            let mut out = Vec::new();
            for s in specs {
                let row = match &s.row {
                    None => RowSpec::Every,
                    Some(RowToml::Number(n)) if *n > 0 => RowSpec::Top(*n as usize),
                    Some(RowToml::Number(n)) if *n < 0 => RowSpec::Bottom(n.unsigned_abs() as usize),
                    Some(RowToml::Word(w)) if w == "cursor" => RowSpec::Cursor,
                    Some(_) => {
                        return Err(AdapterError::new(AdapterErrorKind::Spec, format!(
                            "refs.{ref_name}: `row` is 1, 2, … from the top, -1, -2, … from the bottom, or \"cursor\""
                        )))
                    }
                };
                let regexes = match &s.regex {
                    None => Vec::new(),
                    Some(Regexes::One(r)) => vec![regex(r)?],
                    Some(Regexes::Many(v)) => {
                        v.iter().map(|r| regex(r)).collect::<Result<_, _>>()?
                    }
                };
                let focused = match s.focused.as_deref() {
                    None => false,
                    Some("highlight") => true,
                    Some(other) => {
                        return Err(AdapterError::new(
                            AdapterErrorKind::Spec,
                            format!(
                                "refs.{ref_name}: focused = \"{}\": the one rule is \"highlight\"",
                                crate::escape::escape_for_terminal(other, 40)
                            ),
                        ))
                    }
                };
                for (key, a) in [("above", &s.above), ("within", &s.within)] {
                    let Some(a) = a else { continue };
                    if !t.refs.contains_key(a) || a == ref_name {
                        return Err(AdapterError::new(
                            AdapterErrorKind::Spec,
                            format!(
                                "refs.{ref_name}: {key} = \"{}\" names no other ref of this adapter",
                                crate::escape::escape_for_terminal(a, 40)
                            ),
                        ));
                    }
                }
                if s.from_top && s.above.is_none() {
                    return Err(AdapterError::new(
                        AdapterErrorKind::Spec,
                        format!("refs.{ref_name}: `from_top` is of an `above` ref"),
                    ));
                }
                if s.last && (s.many || s.above.is_some()) {
                    return Err(AdapterError::new(
                        AdapterErrorKind::Spec,
                        format!(
                            "refs.{ref_name}: `last` is of a ref that finds one match \
                             (not `many`, not `above`)"
                        ),
                    ));
                }
                let in_box = match s.inside.as_deref() {
                    None => false,
                    Some("box") => true,
                    Some(other) => {
                        return Err(AdapterError::new(
                            AdapterErrorKind::Spec,
                            format!(
                                "refs.{ref_name}: inside = \"{}\": the one place is \"box\"",
                                crate::escape::escape_for_terminal(other, 40)
                            ),
                        ))
                    }
                };
                out.push(RefSpec {
                    row,
                    regex: regexes,
                    cursor: s.cursor,
                    above: s.above.clone(),
                    within: s.within.clone(),
                    from_top: s.from_top,
                    last: s.last,
                    many: s.many,
                    focused,
                    values: s.values.clone(),
                    lowercase: s.lowercase,
                    default: s.default.clone(),
                    fixed: s.value.clone(),
                    in_box,
                    shaded: s.shaded,
                });
            }
            refs.push((ref_name.clone(), out));
            ref_places.push(ref_place);
        }
        above_chains(&refs)?;
        for n in &t.needs {
            if !t.refs.contains_key(n) {
                return Err(AdapterError::new(
                    AdapterErrorKind::Spec,
                    format!(
                        "needs: \"{}\" is no ref of this adapter",
                        crate::escape::escape_for_terminal(n, 40)
                    ),
                ));
            }
        }
        Ok(Adapter {
            name: name.to_string(),
            programs: t.programs,
            screen,
            needs: t.needs,
            refs,
            ref_places,
            written,
            place,
        })
    }

    /// Its name (`vim`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where its ref `name` was written: what an error of that ref at first use starts with.
    fn ref_place(&self, name: &str) -> String {
        match self.refs.iter().position(|(n, _)| n == name) {
            Some(i) => self.ref_places[i].clone(),
            None => format!("{}: refs.{name}", self.place),
        }
    }

    /// Whether it has the ref `kind` (`vim.mode`).
    pub(crate) fn has_ref(&self, kind: &str) -> bool {
        kind.split_once('.').is_some_and(|(a, r)| {
            a == self.name
                && (self.refs.iter().any(|(n, _)| n == r)
                    || (a == "shell" && super::shell::MARK_REFS.contains(&r)))
        })
    }

    /// Whether it is on for `screen` of `program` (the rules are in the module docs). Its
    /// `screen` regexes are compiled when first asked (and its `needs` refs' when those are
    /// looked for): a regex past its size or the budget is an error at the adapter's place.
    pub fn recognises(&self, screen: &Screen, program: Option<&str>) -> Result<bool, AdapterError> {
        Ok(self.recognition(screen, program)?.is_some())
    }

    /// Why it is on for `screen` of `program`, in words (the evidence its refs carry), or
    /// `None` when it is not; an error as [`Adapter::recognises`] says.
    pub(crate) fn recognition(
        &self,
        screen: &Screen,
        program: Option<&str>,
    ) -> Result<Option<String>, AdapterError> {
        if let Some(p) = program.filter(|p| self.programs.iter().any(|q| q == p)) {
            return Ok(Some(format!("{}: the program is {p}", self.name)));
        }
        let rows = screen_rows(screen);
        for re in &self.screen {
            let re = compiled(re)?;
            if let Some(r) = (0..rows).find(|&r| re.is_match(&screen.row_text(r))) {
                return Ok(Some(format!(
                    "{}: its screen pattern on row {}",
                    self.name,
                    crate::pos::Ordinal::of(r)
                )));
            }
        }
        let mut finder = Finder::new(self, screen);
        for n in &self.needs {
            let Some(i) = self.refs.iter().position(|(name, _)| name == n) else {
                continue;
            };
            if let Some(r) = finder.found(i)?.first() {
                return Ok(Some(format!(
                    "{}: its {n} on row {}",
                    self.name,
                    crate::pos::Ordinal::of(r.rect.row)
                )));
            }
        }
        Ok(None)
    }

    /// Its refs on `screen` (recognised or not: [`Adapter::recognises`] says whether to ask).
    /// A `many` ref that would make more than [`MAX_MANY`] refs, or refs covering more than
    /// [`MAX_REF_CELLS`] cells in all, is an error naming the ref at the adapter's place and
    /// the limit; so is a regex that cannot be compiled.
    pub fn refs(&self, screen: &Screen) -> Result<Vec<Ref>, AdapterError> {
        let mut finder = Finder::new(self, screen);
        let mut out = Vec::new();
        for i in 0..self.refs.len() {
            out.extend(finder.with_default(i)?);
        }
        Ok(out)
    }

    fn new_ref(&self, name: &str, rect: CellRect, screen: &Screen) -> Ref {
        Ref::new(&format!("{}.{name}", self.name), name, rect, screen)
    }
}

/// Each chain of `above` and `within` links of `refs` at most [`MAX_ABOVE_DEPTH`] links long,
/// and none a cycle: an error naming the refs otherwise. (Refs are then found by a bounded
/// recursion.)
fn above_chains(refs: &[(String, Vec<RefSpec>)]) -> Result<(), AdapterError> {
    let index = |name: &str| refs.iter().position(|(n, _)| n == name);
    let above = |i: usize| -> Vec<usize> {
        refs[i]
            .1
            .iter()
            .flat_map(RefSpec::links)
            .filter_map(index)
            .collect()
    };
    // Depth-first from each ref, along every `above`; `depth[i]`: the longest chain from
    // `i`, once known (each ref is walked once).
    let mut depth: Vec<Option<usize>> = vec![None; refs.len()];
    for first in 0..refs.len() {
        if depth[first].is_some() {
            continue;
        }
        // The path walked, each with the refs it still has to look at.
        let mut path: Vec<(usize, Vec<usize>)> = vec![(first, above(first))];
        while let Some((at, next)) = path.last_mut() {
            let at = *at;
            let Some(n) = next.pop() else {
                let longest = refs[at]
                    .1
                    .iter()
                    .flat_map(RefSpec::links)
                    .filter_map(index)
                    .map(|n| depth[n].unwrap_or(0) + 1)
                    .max()
                    .unwrap_or(0);
                depth[at] = Some(longest);
                path.pop();
                continue;
            };
            let shown = |p: &[(usize, Vec<usize>)], last: usize| {
                p.iter()
                    .map(|(i, _)| refs[*i].0.as_str())
                    .chain([refs[last].0.as_str()])
                    .map(|n| crate::escape::escape_for_terminal(n, 40))
                    .collect::<Vec<_>>()
                    .join(" → ")
            };
            if path.iter().any(|(i, _)| *i == n) {
                return Err(AdapterError::new(
                    AdapterErrorKind::Spec,
                    format!(
                        "refs.{}: `above` makes a cycle ({}), which names no rows",
                        refs[first].0,
                        shown(&path, n)
                    ),
                ));
            }
            let known = depth[n].unwrap_or(0);
            if path.len() + known > MAX_ABOVE_DEPTH {
                return Err(AdapterError::new(
                    AdapterErrorKind::TooMany,
                    format!(
                        "refs.{}: a chain of `above` refs longer than {MAX_ABOVE_DEPTH} ({} …)",
                        refs[first].0,
                        shown(&path, n)
                    ),
                ));
            }
            if depth[n].is_none() {
                path.push((n, above(n)));
            }
        }
    }
    Ok(())
}

/// One adapter's refs on one screen: each ref found once (`above` refs ask for another
/// ref's), within [`MAX_REF_CELLS`].
struct Finder<'a> {
    adapter: &'a Adapter,
    screen: &'a Screen,
    /// The refs each ref finds without its default, once asked.
    found: Vec<Option<Vec<Ref>>>,
    /// The cells refs may still cover.
    cells: usize,
    /// The insides of the boxes on the screen, once a ref asks (`inside = "box"`).
    boxes: Option<Vec<CellRect>>,
}

impl<'a> Finder<'a> {
    fn new(adapter: &'a Adapter, screen: &'a Screen) -> Finder<'a> {
        Finder {
            adapter,
            screen,
            found: vec![None; adapter.refs.len()],
            cells: MAX_REF_CELLS,
            boxes: None,
        }
    }

    /// A ref of `rect`, or an error when the adapter's refs would cover more than
    /// [`MAX_REF_CELLS`] cells.
    fn new_ref(&mut self, name: &str, rect: CellRect) -> Result<Ref, AdapterError> {
        let cells = (rect.row_end - rect.row).saturating_mul(rect.col_end - rect.col);
        self.cells = self.cells.checked_sub(cells).ok_or_else(|| {
            AdapterError::new(
                AdapterErrorKind::TooMany,
                format!(
                    "{}: the adapter's refs cover more than {MAX_REF_CELLS} \
                     cells of this screen in all (MAX_REF_CELLS, the most tuicast makes)",
                    self.adapter.ref_place(name)
                ),
            )
        })?;
        Ok(self.adapter.new_ref(name, rect, self.screen))
    }

    /// The error of the `many` ref `name` past [`MAX_MANY`] refs.
    fn past_many(&self, name: &str) -> AdapterError {
        AdapterError::new(
            AdapterErrorKind::TooMany,
            format!(
                "{}: `many = true` finds more than {MAX_MANY} refs on this \
                 screen (MAX_MANY, the most one ref makes): a narrower regex or row finds fewer",
                self.adapter.ref_place(name)
            ),
        )
    }

    /// The refs ref `i` finds: those of the first spec that finds any (the depth of the
    /// recursion through `above` is at most [`MAX_ABOVE_DEPTH`]: `above_chains`).
    fn found(&mut self, i: usize) -> Result<Vec<Ref>, AdapterError> {
        if let Some(f) = &self.found[i] {
            return Ok(f.clone());
        }
        let adapter = self.adapter;
        let (name, specs) = &adapter.refs[i];
        let mut out = Vec::new();
        for spec in specs {
            out = self.find_one(name, spec)?;
            if !out.is_empty() {
                break;
            }
        }
        self.found[i] = Some(out.clone());
        Ok(out)
    }

    /// [`Finder::found`], else the first default.
    fn with_default(&mut self, i: usize) -> Result<Vec<Ref>, AdapterError> {
        let found = self.found(i)?;
        if !found.is_empty() {
            return Ok(found);
        }
        let adapter = self.adapter;
        let (name, specs) = &adapter.refs[i];
        for spec in specs {
            if let Some(d) = &spec.default {
                let rows = rows_of(spec.row, self.screen);
                let row = rows.first().copied().unwrap_or(0);
                let mut r = self.new_ref(name, row_rect(row, self.screen))?;
                r.value = Some(d.clone());
                return Ok(vec![r]);
            }
        }
        Ok(Vec::new())
    }

    fn find_one(&mut self, name: &str, spec: &RefSpec) -> Result<Vec<Ref>, AdapterError> {
        if let Some(anchor) = &spec.above {
            return Ok(self
                .find_above(name, anchor, spec.from_top)?
                .into_iter()
                .collect());
        }
        let mut out = self.find_matches(name, spec)?;
        if spec.many {
            // A key found twice names no one ref: neither is reported.
            let keys: Vec<Option<String>> = out.iter().map(|r| r.key.clone()).collect();
            out.retain(|r| keys.iter().filter(|k| **k == r.key).count() == 1);
        }
        Ok(out)
    }

    /// Whether the cells `cols` of `row` are inside a box drawn on the screen.
    fn in_a_box(&mut self, row: usize, cols: &std::ops::Range<usize>) -> bool {
        let screen = self.screen;
        let boxes = self
            .boxes
            .get_or_insert_with(|| screen.outline().boxes.iter().map(|b| b.inner()).collect());
        boxes.iter().any(|b| {
            (b.row..b.row_end).contains(&row) && b.col <= cols.start && cols.end <= b.col_end
        })
    }

    fn find_matches(&mut self, name: &str, spec: &RefSpec) -> Result<Vec<Ref>, AdapterError> {
        // Only in the rows of another ref: none where it is absent.
        let within = match &spec.within {
            None => None,
            Some(w) => match self.rows_of_ref(w)? {
                Some(rows) => Some(rows),
                None => return Ok(Vec::new()),
            },
        };
        let screen = self.screen;
        let mut out = Vec::new();
        let on_cursor = match spec.row {
            RowSpec::Cursor => Some(true),
            _ => spec.cursor,
        };
        let mut rows = rows_of(spec.row, screen);
        if spec.last {
            rows.reverse();
        }
        for row in rows {
            if within.as_ref().is_some_and(|w| !w.contains(&row)) {
                continue;
            }
            // Where input goes: the shown cursor's row.
            let at_cursor = screen.cursor.visible && usize::from(screen.cursor.row) == row;
            if on_cursor.is_some_and(|want| want != at_cursor) {
                continue;
            }
            let (text, cell_of) = row_cells(screen, row);
            if spec.regex.is_empty() {
                if spec.many && out.len() >= MAX_MANY {
                    return Err(self.past_many(name));
                }
                let mut r = self.new_ref(name, row_rect(row, screen))?;
                r.value = Some(spec.value(text.trim()));
                out.push(r);
            }
            for re in &spec.regex {
                for caps in compiled(re)?.captures_iter(&text) {
                    let whole = caps.get(0).map_or(0..0, |m| m.range());
                    if whole.is_empty() {
                        continue;
                    }
                    let value = caps
                        .name("value")
                        .map_or(&text[whole.clone()], |m| m.as_str());
                    let cells = cell_span(&cell_of, screen, row, whole.clone());
                    if spec.in_box && !self.in_a_box(row, &cells) {
                        continue;
                    }
                    if spec.shaded {
                        let own = caps.name("value").map_or(whole.clone(), |m| m.range());
                        let own = cell_span(&cell_of, screen, row, own);
                        if own.is_empty() || !shaded_apart(screen, row, own) {
                            continue;
                        }
                    }
                    let rect = CellRect {
                        row,
                        row_end: row + 1,
                        col: cells.start,
                        col_end: cells.end,
                    };
                    if spec.many && out.len() >= MAX_MANY {
                        return Err(self.past_many(name));
                    }
                    let mut r = self.new_ref(name, rect)?;
                    let value = spec.value(value.trim());
                    if spec.focused {
                        r.focused = shaded_apart(screen, row, cells);
                    }
                    if spec.many {
                        r.name = format!(
                            "@{}(\"{}\")",
                            r.kind,
                            value.replace('\\', "\\\\").replace('"', "\\\"")
                        );
                        r.key = Some(value.clone());
                    }
                    r.value = Some(value);
                    out.push(r);
                    if !spec.many {
                        return Ok(out);
                    }
                }
                if !out.is_empty() {
                    break;
                }
            }
            if !out.is_empty() && !spec.many {
                return Ok(out);
            }
        }
        Ok(out)
    }

    /// The rows of the adapter's ref `name` (of its first, where it is several), if found.
    fn rows_of_ref(&mut self, name: &str) -> Result<Option<std::ops::Range<usize>>, AdapterError> {
        let Some(i) = self.adapter.refs.iter().position(|(n, _)| n == name) else {
            return Ok(None);
        };
        Ok(self
            .found(i)?
            .into_iter()
            .next()
            .map(|first| first.rect.row..first.rect.row_end))
    }

    /// The rows above ref `anchor`, up to the previous row its regex matches (or, `from_top`,
    /// up to the top of the screen when none does).
    fn find_above(
        &mut self,
        name: &str,
        anchor: &str,
        from_top: bool,
    ) -> Result<Option<Ref>, AdapterError> {
        let adapter = self.adapter;
        let Some(i) = adapter.refs.iter().position(|(n, _)| n == anchor) else {
            return Ok(None);
        };
        let specs = &adapter.refs[i].1;
        let Some(below) = self.found(i)?.into_iter().next().map(|r| r.rect.row) else {
            return Ok(None);
        };
        let screen = self.screen;
        // (The anchor's regexes are compiled: it was found by them.)
        let mut regexes = Vec::new();
        for s in specs {
            for re in &s.regex {
                regexes.push(compiled(re)?);
            }
        }
        let matches_anchor = |r: usize| {
            let text = screen.row_text(r);
            regexes.iter().any(|re| re.is_match(&text))
        };
        // Where the rows start must be seen: with no earlier row of the anchor on the
        // screen (scrolled off), which rows are the ref's is a guess — unless the manifest
        // says the program's rows start at the top (`from_top`: a full-screen list).
        let top = match (0..below).rev().find(|&r| matches_anchor(r)) {
            Some(r) => r + 1,
            None if from_top => 0,
            None => return Ok(None),
        };
        // Blank rows at either end are no part of it (IPython's blank line before each
        // prompt); rows that are all blank are none.
        let blank = |r: usize| screen.row_text(r).trim().is_empty();
        let Some(top) = (top..below).find(|&r| !blank(r)) else {
            return Ok(None);
        };
        let Some(last) = (top..below).rev().find(|&r| !blank(r)) else {
            return Ok(None);
        };
        let below = last + 1;
        let rect = CellRect {
            row: top,
            row_end: below,
            col: 0,
            col_end: screen.size.cols as usize,
        };
        let mut r = self.new_ref(name, rect)?;
        r.value = Some(r.text.clone());
        Ok(Some(r))
    }
}

/// `re` compiled ([`LazyRegex::get`]): its error names the adapter's place already.
fn compiled(re: &LazyRegex) -> Result<&regex::Regex, AdapterError> {
    re.get()
        .map_err(|e| AdapterError::new(AdapterErrorKind::Regex, e.to_string()))
}

impl RefSpec {
    /// The refs this one is found through (`above`, `within`).
    fn links(&self) -> impl Iterator<Item = &str> {
        self.above
            .as_deref()
            .into_iter()
            .chain(self.within.as_deref())
    }

    fn value(&self, raw: &str) -> String {
        if let Some(v) = &self.fixed {
            return v.clone();
        }
        let v = self
            .values
            .get(raw)
            .cloned()
            .unwrap_or_else(|| raw.to_string());
        if self.lowercase {
            v.to_lowercase()
        } else {
            v
        }
    }
}

fn screen_rows(screen: &Screen) -> usize {
    screen.rows.len().min(screen.size.rows as usize)
}

fn row_rect(row: usize, screen: &Screen) -> CellRect {
    CellRect {
        row,
        row_end: row + 1,
        col: 0,
        col_end: screen.size.cols as usize,
    }
}

fn rows_of(spec: RowSpec, screen: &Screen) -> Vec<usize> {
    let n = screen_rows(screen);
    match spec {
        RowSpec::Every => (0..n).collect(),
        RowSpec::Top(k) => (k <= n).then(|| k - 1).into_iter().collect(),
        RowSpec::Bottom(k) => n.checked_sub(k).into_iter().collect(),
        RowSpec::Cursor => {
            let r = usize::from(screen.cursor.row);
            (r < n).then_some(r).into_iter().collect()
        }
    }
}

/// A row's text and, for each of its bytes, the cell it came from.
fn row_cells(screen: &Screen, row: usize) -> (String, Vec<usize>) {
    let mut text = String::new();
    let mut cell_of = Vec::new();
    for (c, cell) in screen.rows.get(row).into_iter().flatten().enumerate() {
        if cell.width == 0 {
            continue;
        }
        text.push_str(if cell.text.is_empty() {
            " "
        } else {
            &cell.text
        });
        cell_of.resize(text.len(), c);
    }
    (text, cell_of)
}

/// The cells of the bytes `span` of a row's text.
fn cell_span(
    cell_of: &[usize],
    screen: &Screen,
    row: usize,
    span: std::ops::Range<usize>,
) -> std::ops::Range<usize> {
    let first = cell_of.get(span.start).copied().unwrap_or(0);
    let last = cell_of.get(span.end - 1).copied().unwrap_or(first);
    let width = screen.rows[row]
        .get(last)
        .map_or(1, |c| c.width.max(1) as usize);
    first..last + width
}

/// Whether the cells `cols` of `row` are shaded unlike the cells beside them: another
/// background, or reverse video.
fn shaded_apart(screen: &Screen, row: usize, cols: std::ops::Range<usize>) -> bool {
    let cells = &screen.rows[row];
    let shade = |c: usize| cells.get(c).map(|cell| (cell.attrs.inverse, cell.bg));
    // The shade most of the match's cells have.
    let inside: Vec<_> = cols.clone().filter_map(shade).collect();
    let Some(&first) = inside.first() else {
        return false;
    };
    let most = inside
        .iter()
        .max_by_key(|s| inside.iter().filter(|t| t == s).count())
        .copied()
        .unwrap_or(first);
    let beside = [cols.start.checked_sub(1), Some(cols.end)]
        .into_iter()
        .flatten()
        .filter_map(shade)
        .collect::<Vec<_>>();
    !beside.is_empty() && beside.iter().all(|&b| b != most)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::refs::{select, RefContext};
    use crate::inspect::Selector;
    use crate::term::{test_screen, Size};

    fn pick(sel: &str, screen: &Screen, program: Option<&str>) -> Vec<Ref> {
        let cx = RefContext::new(Adapters::builtin()).program(program);
        select(&Selector::parse(sel).unwrap(), screen, &cx).unwrap()
    }

    #[test]
    fn the_builtin_manifests_all_read() {
        let table: BTreeMap<String, AdapterToml> =
            toml::from_str(include_str!("adapters.toml")).unwrap();
        for (name, t) in table {
            let a = Adapter::from_toml(&name, t, None, name.clone())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            // Each regex compiles too (they are compiled when first used).
            let specs = a.refs.iter().flat_map(|(_, s)| s);
            for re in a.screen.iter().chain(specs.flat_map(|s| &s.regex)) {
                re.get().unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
        let names: Vec<&str> = Adapters::builtin().names().collect();
        for n in [
            "vim", "shell", "pager", "dialog", "htop", "top", "fzf", "python", "ipython", "sqlite",
            "gdb", "nano", "emacs", "tig", "nnn", "gemini", "btop", "claude", "codex", "psql",
        ] {
            assert!(names.contains(&n), "{names:?}");
        }
    }

    #[test]
    fn vims_mode_is_read_from_the_last_row_at_any_size() {
        for rows in [6u16, 10] {
            let mut bytes = String::from("-- INSERT --\r\n~\r\n");
            for _ in 2..rows - 1 {
                bytes.push_str("~\r\n");
            }
            bytes.push_str("-- INSERT --");
            let s = test_screen(Size { cols: 30, rows }, &bytes);
            let m = pick("@vim.mode", &s, Some("vim"));
            assert_eq!(m.len(), 1);
            assert_eq!(m[0].value.as_deref(), Some("insert"));
            assert_eq!(m[0].rect.row, rows as usize - 1);
            // The buffer's own `-- INSERT --` fools nothing: a normal-mode screen, the ruler
            // after the file's message.
            let normal = test_screen(
                Size { cols: 30, rows },
                &bytes.replace("~\r\n-- INSERT --", "~\r\n\"a.txt\" 1L, 2B      1,1   All"),
            );
            assert_eq!(
                pick("@vim.mode", &normal, Some("vim"))[0].value.as_deref(),
                Some("normal")
            );
            assert!(pick("@vim.mode[value=insert]", &normal, Some("vim")).is_empty());
            // issue 42: no ruler (`vim -u NONE`, insert mode shown nowhere), a blank screen
            // before vim drew, a pending `^[` by the ruler: no mode rather than `normal`.
            // Nor an operator pending apart from the message (`2d`), nor a mode's own
            // `-- … --` line such as insert mode's completion message.
            for last in [
                "\"a.txt\" 1L",
                "",
                "\"a.txt\" 1L    ^[   1,1   All",
                "\"a.txt\" 1L   2d    1,1   All",
                "-- Keyword completion 1,1 All",
            ] {
                let s = test_screen(
                    Size { cols: 30, rows },
                    &bytes.replace("~\r\n-- INSERT --", &format!("~\r\n{last}")),
                );
                assert!(pick("@vim.mode", &s, Some("vim")).is_empty(), "{last:?}");
            }
            let blank = test_screen(Size { cols: 30, rows }, "");
            assert!(pick("@vim.mode", &blank, Some("vim")).is_empty());
            // Another message of a normal-mode command by the ruler: normal.
            let yanked = test_screen(
                Size { cols: 30, rows },
                &bytes.replace("~\r\n-- INSERT --", "~\r\n3 lines yanked   1,1   Top"),
            );
            assert_eq!(
                pick("@vim.mode", &yanked, Some("vim"))[0].value.as_deref(),
                Some("normal")
            );
        }
    }

    #[test]
    fn a_dialogs_buttons_and_the_focused_one() {
        let s = test_screen(
            Size { cols: 40, rows: 5 },
            "┌──────────────────────────┐\r\n│ Delete it?               │\r\n│                          │\r\n│  \x1b[7m< Yes >\x1b[0m   <  No  >      │\r\n└──────────────────────────┘",
        );
        let b = pick("@dialog.button", &s, None);
        assert_eq!(b.len(), 2, "{b:#?}");
        assert_eq!(b[0].name, "@dialog.button(\"Yes\")");
        assert!(b[0].focused && !b[1].focused);
        assert_eq!(pick("@dialog.button(\"No\")", &s, None).len(), 1);
        assert_eq!(
            pick("@dialog.button[focused]", &s, None)[0].key.as_deref(),
            Some("Yes")
        );
        // issue 42: `<module>` in a traceback, `<ann@ex.io>` in a log, `<space>` in help
        // text are no buttons (no box around them), and a label found twice names no one.
        let loose = test_screen(
            Size { cols: 40, rows: 3 },
            "  File \"t.py\", line 3, in <module>\r\nAuthor: Ann <ann@ex.io>\r\n(Press <space> to select)",
        );
        assert!(pick("@dialog.button", &loose, Some("dialog")).is_empty());
        let twice = test_screen(
            Size { cols: 40, rows: 3 },
            "┌────────────────────┐\r\n│ <OK>  <OK>  <Back> │\r\n└────────────────────┘",
        );
        let b = pick("@dialog.button", &twice, Some("dialog"));
        assert_eq!(b.len(), 1, "{b:#?}");
        assert_eq!(b[0].key.as_deref(), Some("Back"));
    }

    #[test]
    fn a_shells_prompt_and_the_last_commands_output() {
        let s = test_screen(
            Size { cols: 40, rows: 6 },
            "$ echo one\r\none\r\n$ printf 'a\\nb\\n'\r\na\r\nb\r\n$ ls -l",
        );
        let p = pick("@shell.prompt", &s, Some("bash"));
        assert_eq!(p[0].value.as_deref(), Some("ls -l"));
        let o = pick("@shell.output", &s, Some("bash"));
        assert_eq!(o[0].text, "a\nb");
        assert!(pick("@shell.prompt", &s, Some("vim")).len() <= 1);
        // issue 42: output lines holding `% `, `> `, `# ` cut nothing; the JSON keeps the
        // newlines; with no earlier prompt on the screen there is no output (a guess).
        let s = test_screen(
            Size { cols: 40, rows: 5 },
            "$ printf x\r\nalpha 10% done\r\nbeta > gamma\r\nomega\r\n$ ",
        );
        let o = pick("@shell.output", &s, Some("bash"));
        assert_eq!(
            o[0].value.as_deref(),
            Some("alpha 10% done\nbeta > gamma\nomega")
        );
        let json = crate::inspect::RefJson::of(&o[0]);
        assert_eq!(json.value.as_deref(), o[0].value.as_deref());
        assert_eq!(
            o[0].evidence.as_deref(),
            Some("shell: the program is bash; read on rows 2..=4")
        );
        let cut = test_screen(Size { cols: 40, rows: 3 }, "one\r\ntwo\r\n$ ");
        assert!(pick("@shell.output", &cut, Some("bash")).is_empty());
        // A REPL's prompt or a dialog's button row is no shell prompt.
        for row in ["sqlite> ", ">>> ", "> ", "│ < Yes >  < No  > │"] {
            let s = test_screen(Size { cols: 40, rows: 2 }, row);
            assert!(
                pick("@shell.prompt", &s, Some("bash")).is_empty(),
                "{row:?}"
            );
        }
    }

    fn manifest(text: &str) -> Result<Adapters, AdapterError> {
        let mut t: AdapterToml = toml::from_str(text).unwrap();
        t.place_refs(|span| {
            let (line, column) = crate::location::line_column(text, span.start);
            format!("x.toml:{line}:{column}")
        });
        Adapters::builtin().extended(vec![("loop".into(), t, text.into(), "x.toml:1:1".into())])
    }

    #[test]
    fn refs_above_each_other_are_a_cycle_named_by_its_refs() {
        // issue 41: these overflowed the stack of every command that looked at the refs.
        let e = manifest("refs.a = { above = \"b\" }\nrefs.b = { above = \"a\" }").unwrap_err();
        assert_eq!(e.kind(), AdapterErrorKind::Spec);
        assert_eq!(
            e.message(),
            "adapters.loop: refs.a: `above` makes a cycle (a → b → a), which names no rows"
        );
        // Through a list's second table too.
        let e = manifest(
            "refs.a = [{ row = 1 }, { above = \"c\" }]\nrefs.b = { above = \"a\" }\nrefs.c = { above = \"b\" }",
        )
        .unwrap_err();
        assert!(e.message().contains("(a → c → b → a)"), "{e}");
    }

    #[test]
    fn a_chain_of_above_refs_is_at_most_eight_links() {
        let chain = |links: usize| {
            let mut t = String::from("refs.r0 = { regex = 'x' }\n");
            for i in 1..=links {
                t.push_str(&format!("refs.r{i} = {{ above = \"r{}\" }}\n", i - 1));
            }
            manifest(&t)
        };
        let ok = chain(MAX_ABOVE_DEPTH).unwrap();
        let s = test_screen(Size { cols: 10, rows: 3 }, "a\r\nb\r\nx");
        // r1 would be above r0's row, but no earlier row of r0 is on the screen: where it
        // starts is a guess, so none (issue 42); r2 and the rest have nothing to be above.
        let refs = ok.get("loop").unwrap().refs(&s).unwrap();
        assert_eq!(refs.len(), 1, "{refs:#?}");
        let e = chain(MAX_ABOVE_DEPTH + 1).unwrap_err();
        assert_eq!(e.kind(), AdapterErrorKind::TooMany);
        assert!(e.message().contains("longer than 8"), "{e}");
    }

    /// The adapters issue 44 added (tests/it/adapters.rs drives each live).
    const PROGRAMS: &[(&str, &str)] = &[
        ("fzf", "fzf"),
        ("python", "python3"),
        ("ipython", "ipython3"),
        ("sqlite", "sqlite3"),
        ("gdb", "gdb"),
        ("nano", "nano"),
        ("emacs", "emacs"),
        ("tig", "tig"),
        ("nnn", "nnn"),
        ("gemini", "gemini"),
        ("btop", "btop"),
    ];

    #[test]
    fn no_program_adapter_has_a_ref_on_a_blank_screen_or_plain_text_even_by_its_name() {
        let blank = test_screen(Size { cols: 40, rows: 8 }, "");
        let text = test_screen(
            Size { cols: 40, rows: 8 },
            "total 8\r\n-rw-r--r-- 1 ann ann 4 notes.txt\r\n> quoted\r\nIn the end\r\n",
        );
        let set = Adapters::builtin();
        for (name, program) in PROGRAMS {
            let a = set.get(name).unwrap_or_else(|| panic!("{name}"));
            for screen in [&blank, &text] {
                assert!(a.recognises(screen, Some(program)).unwrap(), "{name}");
                assert_eq!(a.refs(screen).unwrap(), [], "{name}");
                assert!(!a.recognises(screen, Some("cat")).unwrap(), "{name}");
            }
        }
    }

    #[test]
    fn fzfs_prompt_line_is_its_query_and_never_its_selected_item() {
        let screen = |cursor: bool| {
            let show = if cursor { "" } else { "\x1b[?25l" };
            test_screen(
                Size { cols: 30, rows: 4 },
                &format!(
                    "  apricot\r\n> apple\r\n  2/4 {}\r\n> ap\x1b[4;5H{show}",
                    "─".repeat(20)
                ),
            )
        };
        let s = screen(true);
        let value = |sel: &str, s: &Screen| {
            pick(sel, s, None)
                .first()
                .and_then(|r| r.value.clone())
                .unwrap_or_default()
        };
        assert_eq!(value("@fzf.query", &s), "ap");
        assert_eq!(value("@fzf.selected", &s), "apple");
        assert_eq!(value("@fzf.count", &s), "2/4");
        assert_eq!(value("@fzf.list", &s), "  apricot\n> apple");
        // The cursor hidden (while fzf draws): no query, and the prompt line is still none.
        let hidden = screen(false);
        assert!(pick("@fzf.query", &hidden, None).is_empty());
        assert_eq!(value("@fzf.selected", &hidden), "apple");
        // No match: the prompt line (`> ap`, the cursor's) is no selected item.
        let none = test_screen(
            Size { cols: 30, rows: 4 },
            &format!("\r\n\r\n  0/4 {}\r\n> apzz", "─".repeat(20)),
        );
        assert!(pick("@fzf.selected", &none, None).is_empty());
        assert!(pick("@fzf.marked", &none, None).is_empty());
        // --multi: two marked, the pointer on one of them (`>>`).
        let multi = test_screen(
            Size { cols: 30, rows: 4 },
            &format!(
                " >apricot\r\n>>apple\r\n  2/4 (2) {}\r\n> ap",
                "─".repeat(20)
            ),
        );
        assert_eq!(value("@fzf.marked", &multi), "2");
        assert_eq!(value("@fzf.count", &multi), "2/4");
        assert_eq!(value("@fzf.selected", &multi), "apple");
        assert_eq!(value("@fzf.query", &none), "apzz");
    }

    #[test]
    fn a_last_ref_is_the_bottom_match_and_bounds_the_rows_above_it() {
        let set = manifest(
            "screen = ['^> ']\nrefs.first = { regex = '^> (?P<value>.*?)\\s*$' }\n\
             refs.input = { last = true, regex = '^> (?P<value>.*?)\\s*$' }\n\
             refs.rule = { last = true, regex = '^-{3,}\\s*$' }\n\
             refs.box = { above = \"rule\" }\n",
        )
        .unwrap();
        let a = set.get("loop").unwrap();
        let value = |s: &Screen, name: &str| {
            a.refs(s)
                .unwrap()
                .into_iter()
                .find(|r| r.name == name)
                .map(|r| (r.rect.row, r.value.unwrap_or_default()))
        };
        // A message sent, then the input box between two rules.
        let s = test_screen(
            Size { cols: 20, rows: 6 },
            "> sent\r\nreply\r\n---\r\n> typed\r\n---",
        );
        assert_eq!(value(&s, "@loop.first"), Some((0, "sent".into())));
        assert_eq!(value(&s, "@loop.input"), Some((3, "typed".into())));
        assert_eq!(value(&s, "@loop.rule"), Some((4, "---".into())));
        assert_eq!(value(&s, "@loop.box"), Some((3, "> typed".into())));
        // One rule only: the box has no top, so it is none.
        let s = test_screen(Size { cols: 20, rows: 4 }, "> sent\r\n---");
        assert_eq!(value(&s, "@loop.box"), None);
        for bad in [
            "refs.a = { regex = 'x', last = true, many = true }",
            "refs.a = { last = true, above = \"b\" }\nrefs.b = { regex = 'x' }",
        ] {
            let e = manifest(bad).unwrap_err();
            assert_eq!(
                e.message(),
                "adapters.loop: refs.a: `last` is of a ref that finds one match (not `many`, not `above`)"
            );
        }
    }

    #[test]
    fn a_ref_within_another_is_only_in_its_rows_and_absent_with_it() {
        let set = manifest(
            "screen = ['^\\$']\nrefs.prompt = { row = \"cursor\", regex = '^\\$ ' }\n\
             refs.output = { above = \"prompt\" }\n\
             refs.error = { within = \"output\", regex = '^error: (?P<value>.*)$' }\n",
        )
        .unwrap();
        let a = set.get("loop").unwrap();
        let names = |s: &Screen| {
            a.refs(s)
                .unwrap()
                .into_iter()
                .map(|r| (r.name, r.value.unwrap_or_default()))
                .collect::<Vec<_>>()
        };
        // The older command's error is not the last command's.
        let s = test_screen(
            Size { cols: 20, rows: 6 },
            "$ a\r\nerror: old\r\n$ b\r\nfine\r\n$ ",
        );
        assert_eq!(
            names(&s),
            [
                ("@loop.output".into(), "fine".into()),
                ("@loop.prompt".into(), "$".into())
            ]
        );
        let s = test_screen(
            Size { cols: 20, rows: 6 },
            "$ a\r\nfine\r\n$ b\r\nerror: new\r\n\r\n$ ",
        );
        assert_eq!(
            names(&s)[..2],
            [
                ("@loop.error".into(), "new".into()),
                ("@loop.output".into(), "error: new".into())
            ],
            "the blank row below is no part of the output"
        );
        // Nothing above the first prompt is its output: where it starts is not seen.
        let first = test_screen(Size { cols: 20, rows: 4 }, "Welcome\r\n$ ");
        assert_eq!(names(&first).len(), 1, "{:?}", names(&first));
        // No output (a blank row only): no error either.
        let s = test_screen(Size { cols: 20, rows: 4 }, "$ a\r\n\r\n$ ");
        assert_eq!(names(&s).len(), 1);
        let e = manifest("refs.a = { regex = 'x', from_top = true }").unwrap_err();
        assert_eq!(
            e.message(),
            "adapters.loop: refs.a: `from_top` is of an `above` ref"
        );
        let e = manifest("refs.a = { within = \"b\" }").unwrap_err();
        assert_eq!(
            e.message(),
            "adapters.loop: refs.a: within = \"b\" names no other ref of this adapter"
        );
        let e = manifest("refs.a = { within = \"b\" }\nrefs.b = { above = \"a\" }").unwrap_err();
        assert!(e.message().contains("(a → b → a)"), "{e}");
    }

    #[test]
    fn a_many_ref_past_max_many_refs_a_screen_is_an_error_at_its_place() {
        // issue 41: six of these on a 2000x2000 screen took 6 GB and aborted.
        let set = manifest("screen = ['.']\nrefs.a = { regex = '\\d{4}', many = true }").unwrap();
        let loop_ = set.get("loop").unwrap();
        let at = |n: usize| {
            // Every match a value of its own (a value found twice makes no ref, issue 42).
            let cols = 100;
            let rows = (n * 4).div_ceil(cols) as u16;
            let s = test_screen(
                Size {
                    cols: cols as u16,
                    rows,
                },
                &(0..n).map(|i| format!("{i:04}")).collect::<String>(),
            );
            loop_.refs(&s)
        };
        let refs = at(MAX_MANY).unwrap();
        assert_eq!(refs.len(), MAX_MANY);
        assert_eq!(refs[0].name, "@loop.a(\"0000\")");
        let e = at(MAX_MANY + 1).unwrap_err();
        assert_eq!(e.kind(), AdapterErrorKind::TooMany);
        assert_eq!(
            e.message(),
            "x.toml:2:10: adapters.loop: refs.a: `many = true` finds more than 1000 refs on \
             this screen (MAX_MANY, the most one ref makes): a narrower regex or row finds fewer"
        );
    }

    #[test]
    fn an_adapters_regexes_are_compiled_when_first_used_within_the_budget() {
        // Fourteen regexes of about 1 MiB each charge a budget of 4 MiB when first used.
        let budget = crate::util::RegexBudget::new(4 << 20);
        let text = format!(
            "programs = ['mine']\nrefs.a = {{ regex = [{}] }}",
            vec![r"'\w{50}'"; 14].join(", ")
        );
        let set = budget.enter(|| manifest(&text)).unwrap();
        let a = set.get("loop").unwrap();
        assert!(a.refs[0].1[0].regex.iter().all(|r| !r.is_compiled()));
        assert_eq!(budget.left(), 4 << 20, "nothing is compiled when read");
        // Not recognised: nothing is asked of its refs.
        let s = test_screen(Size { cols: 10, rows: 2 }, "y");
        assert!(!a.recognises(&s, Some("other")).unwrap());
        assert_eq!(budget.left(), 4 << 20);
        // Asked for: compiled, past the budget, an error at the ref's place.
        let e = a.refs(&s).unwrap_err();
        assert_eq!(e.kind(), AdapterErrorKind::Regex);
        assert!(
            e.message().starts_with(
                r#"x.toml:2:10: adapters.loop: refs.a: regex "\\w{50}" would take the regexes"#
            ),
            "{e}"
        );
        assert!(budget.left() < 1 << 20);
        // The same error again, nothing compiled twice.
        let left = budget.left();
        assert_eq!(a.refs(&s).unwrap_err(), e);
        assert_eq!(budget.left(), left);
    }

    #[test]
    fn refs_past_max_ref_cells_are_an_error_and_rows_of_a_many_ref_count_too() {
        // Five refs of every row of a 4000x1000 screen: 4M cells each, 20M past 16M.
        let mut t = String::from("screen = ['.']\n");
        for r in ["a", "b", "c", "d", "e"] {
            t.push_str(&format!("refs.{r} = {{ many = true }}\n"));
        }
        let set = manifest(&t).unwrap();
        let s = test_screen(
            Size {
                cols: 4000,
                rows: 1000,
            },
            "x",
        );
        let e = set.get("loop").unwrap().refs(&s).unwrap_err();
        assert_eq!(e.kind(), AdapterErrorKind::TooMany);
        assert!(
            e.message().starts_with(
                "x.toml:6:10: adapters.loop: refs.e: the adapter's refs cover more than 16000000 cells"
            ),
            "{e}"
        );
        // A many ref of whole rows past MAX_MANY rows.
        let set = manifest("screen = ['.']\nrefs.a = { many = true }").unwrap();
        let s = test_screen(
            Size {
                cols: 2,
                rows: 1001,
            },
            "x",
        );
        let e = set.get("loop").unwrap().refs(&s).unwrap_err();
        assert!(e.message().contains("finds more than 1000 refs"), "{e}");
    }
}
