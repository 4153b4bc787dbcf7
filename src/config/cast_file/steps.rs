//! A scenario's steps (`{ press = "Enter" }`, `{ wait = { idle = "300ms" } }`, mouse steps and
//! their targets): the one home of a step kind's TOML. [`StepToml`] is read ([`step`], checked
//! into an [`Action`]) and written back ([`written`], what `config::write` prints) through
//! the same types, and the lists of keys messages name are read off those types
//! ([`keys_of`]), so a new step kind is its `Action` variant, a field here with its reading and
//! writing (both matches are exhaustive), and its dispatch in `record::run`.

use super::*;

/// The keys of a step that only go with a step kind: every other key of [`StepToml`] is one.
const MODIFIERS: &[&str] = &["timeout", "settle", "button", "at", "count"];

/// The step kinds, `wait, press, type, …`: the keys [`StepToml`] reads, less [`MODIFIERS`].
pub(super) fn step_keys() -> String {
    let kinds: Vec<&str> = keys_of::<StepToml>()
        .iter()
        .filter(|k| !MODIFIERS.contains(k))
        .copied()
        .collect();
    kinds.join(", ")
}

/// How a mouse target is written, as messages and the schema describe it (a test holds it to
/// the keys of [`TargetTableToml`]).
pub(super) const TARGET_FORMS: &str = "[row, col] (from 1), { text = \"..\" }, \
     { regex = \"..\" }, { region = \"name\" } or { ref = \"SELECTOR\" }";

/// The keys a struct deriving `Deserialize` reads (aliases too), in the order of its fields:
/// serde hands them to the deserializer, so no list of them is kept by hand.
pub(super) fn keys_of<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
    struct Keys<'a>(&'a mut &'static [&'static str]);
    impl<'de> serde::Deserializer<'de> for Keys<'_> {
        type Error = serde::de::value::Error;
        fn deserialize_any<V: serde::de::Visitor<'de>>(
            self,
            _: V,
        ) -> Result<V::Value, Self::Error> {
            Err(serde::de::Error::custom(
                "only a struct's keys are asked for",
            ))
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(serde::de::Error::custom(
                "only a struct's keys are asked for",
            ))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }
    let mut keys: &'static [&'static str] = &[];
    let _ = T::deserialize(Keys(&mut keys));
    keys
}

/// A step's action, its timeout and (a snapshot's) settle rule.
pub(super) type StepParts = (Action, Option<Duration>, Option<Settle>);

pub(super) fn step(s: &StepToml, regions: &Regions) -> Result<StepParts, Invalid> {
    let mut actions = Vec::new();
    let target = |t: &TargetToml| self::target(t, regions);
    let button = match &s.button {
        None => MouseButton::Left,
        Some(_) if s.click.is_none() && s.drag.is_none() => {
            return Err("button goes with a click or drag step".into())
        }
        Some(b) => MouseButton::from_name(b).ok_or_else(|| {
            format!(
                "button must be \"left\", \"middle\" or \"right\", not \"{}\"",
                escape_for_terminal(b, 40)
            )
        })?,
    };
    if (s.at.is_some() || s.count.is_some()) && s.scroll.is_none() {
        return Err(
            "at and count go with a scroll step ({ scroll = \"down\", at = [5, 10], count = 3 })"
                .into(),
        );
    }
    if let Some(t) = &s.click {
        actions.push(Action::Click(target(t)?, button));
    }
    if let Some(d) = &s.drag {
        actions.push(Action::Drag {
            from: target(&d.from).map_err(|e| format!("drag from: {e}"))?,
            to: target(&d.to).map_err(|e| format!("drag to: {e}"))?,
            button,
        });
    }
    if let Some(dir) = &s.scroll {
        let direction = match dir.as_str() {
            "up" => ScrollDirection::Up,
            "down" => ScrollDirection::Down,
            other => {
                return Err(invalid!(
                    "scroll must be \"up\" or \"down\", not \"{}\"",
                    escape_for_terminal(other, 40)
                ))
            }
        };
        let at = s.at.as_ref().ok_or_else(|| {
            invalid!("a scroll step needs at = the place to scroll at: {TARGET_FORMS}")
        })?;
        let count = s.count.unwrap_or(1);
        if count == 0 || count > MAX_SCROLL {
            return Err(invalid!(
                "count must be 1 to {MAX_SCROLL} notches, not {count}"
            ));
        }
        actions.push(Action::Scroll(direction, target(at)?, count));
    }
    if let Some(t) = &s.hover {
        actions.push(Action::Hover(target(t)?));
    }
    if let Some(t) = &s.paste {
        actions.push(Action::Paste(t.clone()));
    }
    if let Some(f) = s.focus {
        actions.push(Action::Focus(f));
    }
    if let Some(w) = &s.wait {
        actions.push(Action::Wait(match w {
            WaitToml::Text(t) => Wait::Text(t.clone()),
            WaitToml::Table(t) => wait(t, regions)?,
        }));
    }
    if let Some(k) = &s.press {
        let names = match k {
            KeysToml::One(k) => vec![k.clone()],
            KeysToml::Many(k) => k.clone(),
        };
        for n in &names {
            crate::record::keys::key_bytes(n, false)?;
        }
        actions.push(Action::Press(names));
    }
    if let Some(t) = &s.type_text {
        actions.push(Action::Type(t.clone()));
    }
    if let Some(name) = &s.checkpoint {
        if name.is_empty() {
            return Err("a checkpoint needs a name".into());
        }
        actions.push(Action::Snapshot(name.clone()));
    }
    if let Some(secret) = &s.secret {
        actions.push(Action::Secret(secret.env.clone()));
    }
    if let Some(r) = &s.resize {
        actions.push(Action::Resize(
            r.parse::<Size>()
                .and_then(Size::for_terminal)
                .map_err(|e| format!("resize: {e}"))?,
        ));
    }
    if let Some(e) = &s.exit {
        actions.push(Action::Exit(match e {
            ExitToml::Code(c) => Some(*c),
            ExitToml::Any(a) if a == "any" => None,
            ExitToml::Any(a) => {
                return Err(invalid!(
                    "exit must be a status number or \"any\", not \"{}\"",
                    escape_for_terminal(a, 60)
                ))
            }
        }));
    }
    if let Some(d) = &s.sleep {
        actions.push(Action::Sleep(parse_duration(d)?));
    }
    let timeout = s.timeout.as_deref().map(parse_duration).transpose()?;
    let settle = s
        .settle
        .as_deref()
        .map(|d| parse_settle(d).map_err(|e| format!("settle: {e}")))
        .transpose()?;
    if settle.is_some() && s.checkpoint.is_none() {
        return Err(
            "settle goes with a checkpoint step ({ checkpoint = \"name\", settle = \"200ms\" }) \
                    or with the whole scenario (settle = \"200ms\" at the top)"
                .into(),
        );
    }
    let several = format!("a step takes exactly one of {}", step_keys());
    match one_of(actions, &several)? {
        Some(action) => Ok((action, timeout, settle)),
        None => Err(invalid!("a step needs one of {}", step_keys())),
    }
}

/// A mouse step's target, a region looked up in `[regions]`.
pub(super) fn target(t: &TargetToml, regions: &Regions) -> Result<Target, Invalid> {
    let table = match t {
        TargetToml::Cell([r, c]) => {
            // Written counted from 1, as messages and goldens show positions; kept 0-based.
            let Some(place) = Place::new((*r).into(), (*c).into()) else {
                return Err(invalid!(
                    "[{r}, {c}] has a 0: rows and columns count from 1 (the top-left cell is [1, 1])"
                ));
            };
            return Ok(Target::Cell(place.point()));
        }
        TargetToml::Table(table) => table,
    };
    let mut found = Vec::new();
    if let Some(x) = &table.text {
        if x.is_empty() {
            return Err("a mouse target's text is empty".into());
        }
        found.push(Target::Text(x.clone()));
    }
    if let Some(r) = &table.regex {
        found.push(Target::Regex(crate::util::user_regex(r).map_err(|e| {
            format!("regex \"{}\" {e}", escape_for_terminal(r, 80))
        })?));
    }
    if let Some(name) = &table.region {
        // Fixed or anchored by content: the live screen resolves it when the step runs.
        let region = named_region(&regions.anchors, name)?;
        found.push(Target::Region(name.clone(), region.clone()));
    }
    if let Some(s) = &table.reference {
        // The cells of the one ref the selector finds on the live screen when the step runs.
        let anchor = ref_anchor(s, &regions.adapters_arc(), Some(&regions.anchors))?;
        found.push(Target::Region(s.clone(), anchor));
    }
    let rule = format!(
        "a mouse target is [row, col] or takes exactly one of {}",
        keys_of::<TargetTableToml>().join(", ")
    );
    one_of(found, &rule)?.ok_or_else(|| rule.into())
}

pub(super) fn wait(t: &WaitTableToml, regions: &Regions) -> Result<Wait, Invalid> {
    let mut found = Vec::new();
    let gone_ref = match &t.gone {
        Some(GoneToml::Ref(true)) if t.reference.is_none() => {
            return Err(
                "wait gone = true goes with ref = \"SELECTOR\" (until no ref it finds)".into(),
            )
        }
        Some(GoneToml::Ref(false)) => {
            return Err("wait gone = false: leave it out (a ref wait waits for the ref)".into())
        }
        Some(GoneToml::Ref(true)) => true,
        _ => false,
    };
    if let Some(s) = &t.reference {
        let selector = checked_selector(s, regions.adapters(), Some(&regions.anchors))?;
        found.push(Wait::Ref(crate::record::RefWait::new(
            selector,
            gone_ref,
            regions.adapters_arc(),
            regions.anchors.clone(),
        )));
    }
    if let Some(x) = &t.text {
        found.push(Wait::Text(x.clone()));
    }
    if let Some(r) = &t.regex {
        found.push(Wait::Regex(crate::util::user_regex(r).map_err(|e| {
            format!("wait regex \"{}\" {e}", escape_for_terminal(r, 80))
        })?));
    }
    if let Some(d) = &t.idle {
        found.push(Wait::Idle(parse_duration(d)?));
    }
    if let Some(GoneToml::Text(g)) = &t.gone {
        found.push(Wait::Gone(g.clone()));
    }
    if let Some([r, c]) = t.cursor {
        // Written counted from 1, as messages and goldens show the cursor; kept 0-based.
        let Some(place) = Place::new(r.into(), c.into()) else {
            return Err(invalid!(
                "cursor [{r}, {c}] has a 0: rows and columns count from 1 (the top-left cell is [1, 1])"
            ));
        };
        found.push(Wait::Cursor(place.point()));
    }
    if let Some(e) = t.echo {
        found.push(Wait::Echo(e));
    }
    if let Some(title) = &t.title {
        found.push(Wait::Title(title.clone()));
    }
    match t.bell {
        Some(true) => found.push(Wait::Bell),
        Some(false) => {
            return Err(
                "wait bell = false waits for nothing: write bell = true (a bell rung since the last checkpoint)"
                    .into(),
            )
        }
        None => {}
    }
    if let Some(c) = &t.clipboard {
        found.push(Wait::Clipboard(c.clone()));
    }
    match t.command_done {
        Some(true) => found.push(Wait::CommandDone),
        Some(false) => {
            return Err(
                "wait command_done = false waits for nothing: write command_done = true (the \
                 shell's OSC 133 mark that a command ended)"
                    .into(),
            )
        }
        None => {}
    }
    if let Some(d) = &t.silent {
        found.push(Wait::Silent(parse_duration(d)?));
    }
    if let Some(h) = &t.changed {
        // A hash of another form never equals a screen's: the wait would end at once.
        let h = h.to_ascii_lowercase();
        if h.len() != 16 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "wait changed = {} is not a screen hash: 16 hex digits (the `screen_hash` of a \
                 session reply)",
                crate::escape::escape_for_terminal(&h, 40)
            )
            .into());
        }
        found.push(Wait::Changed(h));
    }
    if let Some(p) = t.prompt.as_deref().filter(|p| *p != "any") {
        let kind =
            crate::inspect::PromptKind::parse(p, false).map_err(|m| format!("wait prompt {m}"))?;
        found.push(Wait::Prompt(kind));
    }
    if t.prompt.as_deref() == Some("any") {
        found.push(Wait::AnyPrompt);
    }
    let rule = format!(
        "a wait takes exactly one of {} (ref with gone = true: until it is gone)",
        keys_of::<WaitTableToml>().join(", ")
    );
    one_of(found, &rule)?.ok_or_else(|| rule.into())
}

// The schema as written. Private: what leaves this module is checked and typed.

#[derive(Debug, Default, serde::Deserialize, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct StepToml {
    /// Wait for text on the screen, or for `{ regex | ref | gone | idle | silent | cursor | echo | title | bell | clipboard | command_done | prompt | changed }`.
    #[serde(default)]
    pub(super) wait: Option<WaitToml>,
    /// Keys by name: `Enter`, `Esc`, `Tab`, `Up`, `C-c`, `M-x`, `S-Enter`, `C-S-a`, `F5`, any single character (modifiers `S-`, `C-`, `M-` on any key, sent as the keyboard mode the program set says); one or a list.
    #[serde(default)]
    pub(super) press: Option<KeysToml>,
    /// Type text.
    #[serde(default, rename = "type")]
    pub(super) type_text: Option<String>,
    /// A checkpoint: a marker checked against its goldens, on a settled screen.
    #[serde(default, rename = "checkpoint", alias = "snapshot")]
    pub(super) checkpoint: Option<String>,
    /// Type the value of one of tuicast's environment variables, never written to the cast.
    #[serde(default)]
    pub(super) secret: Option<SecretToml>,
    /// Resize the terminal, `COLSxROWS`.
    #[serde(default)]
    pub(super) resize: Option<String>,
    /// Wait for the program to end and expect this status (`"any"` for any).
    #[serde(default)]
    pub(super) exit: Option<ExitToml>,
    /// Wait a fixed time (prefer a `wait`).
    #[serde(default)]
    pub(super) sleep: Option<String>,
    /// Click a mouse target.
    #[serde(default)]
    pub(super) click: Option<TargetToml>,
    /// Press at `from`, move to `to`, release there.
    #[serde(default)]
    pub(super) drag: Option<DragToml>,
    /// Turn the wheel (`up` or `down`) over `at`.
    #[serde(default)]
    pub(super) scroll: Option<String>,
    /// Where `scroll` turns the wheel: a mouse target.
    #[serde(default)]
    pub(super) at: Option<TargetToml>,
    /// How many wheel notches (at most 1000).
    #[serde(default)]
    pub(super) count: Option<u16>,
    /// Move the pointer over a mouse target with no button down.
    #[serde(default)]
    pub(super) hover: Option<TargetToml>,
    /// The button of a click or drag: `left` (the default), `middle`, `right`.
    #[serde(default)]
    pub(super) button: Option<String>,
    /// Paste text (bracketed when the program enabled bracketed paste).
    #[serde(default)]
    pub(super) paste: Option<String>,
    /// The window gains (`true`) or loses (`false`) focus.
    #[serde(default)]
    pub(super) focus: Option<bool>,
    /// This step's timeout, for its wait or exit.
    #[serde(default)]
    pub(super) timeout: Option<String>,
    /// A checkpoint's own settle rule.
    #[serde(default)]
    pub(super) settle: Option<String>,
}

/// Where a mouse step points: one of [`TARGET_FORMS`].
#[derive(Debug)]
pub(super) enum TargetToml {
    Cell([u16; 2]),
    Table(TargetTableToml),
}

impl<'de> serde::Deserialize<'de> for TargetToml {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = TargetToml;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a mouse target: {TARGET_FORMS}")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<TargetToml, A::Error> {
                let mut next = || -> Result<u16, A::Error> {
                    seq.next_element::<u16>()?
                        .ok_or_else(|| serde::de::Error::invalid_length(0, &self))
                };
                let (row, col) = (next()?, next()?);
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(serde::de::Error::invalid_length(3, &self));
                }
                Ok(TargetToml::Cell([row, col]))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<TargetToml, A::Error> {
                serde::Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(TargetToml::Table)
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[derive(Debug, Default, serde::Deserialize, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct TargetTableToml {
    /// The first place this text is on the screen.
    #[serde(default)]
    pub(super) text: Option<String>,
    /// The first match of this regex.
    #[serde(default)]
    pub(super) regex: Option<String>,
    /// A region of `[regions]` or `tuicast.toml`.
    #[serde(default)]
    pub(super) region: Option<String>,
    /// The one ref a selector finds (`"@dialog.button(\"OK\")"`).
    #[serde(default, rename = "ref")]
    pub(super) reference: Option<String>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct DragToml {
    /// Where the button is pressed.
    pub(super) from: TargetToml,
    /// Where it is released.
    pub(super) to: TargetToml,
}

#[derive(Debug, serde::Deserialize, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub(super) enum KeysToml {
    One(String),
    Many(Vec<String>),
}

/// `gone` of a wait: text, or `true` with `ref`.
#[derive(Debug, serde::Deserialize, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub(super) enum GoneToml {
    Text(String),
    Ref(bool),
}

#[derive(Debug, serde::Deserialize, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub(super) enum WaitToml {
    Text(String),
    Table(Box<WaitTableToml>),
}

#[derive(Debug, Default, serde::Deserialize, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct WaitTableToml {
    /// Until the text is on the screen.
    #[serde(default)]
    pub(super) text: Option<String>,
    /// Until a row matches the regex.
    #[serde(default)]
    pub(super) regex: Option<String>,
    /// Until the screen has not changed for this long.
    #[serde(default)]
    pub(super) idle: Option<String>,
    /// Until a ref the selector finds is there (`"@vim.mode[value=insert]"`).
    #[serde(default, rename = "ref")]
    pub(super) reference: Option<String>,
    /// Until the text is no longer on the screen; `true` with `ref`: until no ref the
    /// selector finds is there.
    #[serde(default)]
    pub(super) gone: Option<GoneToml>,
    /// Until the cursor is at `[row, col]`, from 1.
    #[serde(default)]
    pub(super) cursor: Option<[u16; 2]>,
    /// Until the terminal's echo is off (`false`) or on.
    #[serde(default)]
    pub(super) echo: Option<bool>,
    /// Until the window title contains the text.
    #[serde(default)]
    pub(super) title: Option<String>,
    /// Until a bell rings.
    #[serde(default)]
    pub(super) bell: Option<bool>,
    /// Until the shell says a command ended (its OSC 133 `D` mark after a `C`), one that no
    /// earlier such wait took.
    #[serde(default)]
    pub(super) command_done: Option<bool>,
    /// Until a clipboard write contains the text.
    #[serde(default)]
    pub(super) clipboard: Option<String>,
    /// Until the program waits at a prompt of this kind (`any`: of any kind).
    #[serde(default)]
    pub(super) prompt: Option<String>,
    /// Until nothing changed and nothing was written (no output at all) for this long.
    #[serde(default)]
    pub(super) silent: Option<String>,
    /// Until the screen's hash (`screen_hash` of a session reply) is no longer this one.
    #[serde(default)]
    pub(super) changed: Option<String>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct SecretToml {
    /// The variable whose value is typed.
    pub(super) env: String,
}

#[derive(Debug, serde::Deserialize, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub(super) enum ExitToml {
    Code(i32),
    Any(String),
}

impl serde::Serialize for TargetToml {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TargetToml::Cell(cell) => cell.serialize(s),
            TargetToml::Table(table) => table.serialize(s),
        }
    }
}

/// `step` as an inline table (`{ press = "Enter" }`, `{ wait = { idle = "300ms" }, timeout =
/// "5s" }`): [`written`], serialized.
pub(in crate::config) fn step_text(step: &Step) -> String {
    use serde::Serialize as _;
    let mut out = String::new();
    // Strings, integers, booleans, arrays and tables: nothing TOML cannot hold.
    written(step)
        .serialize(toml::ser::ValueSerializer::new(&mut out))
        .expect("a step's fields are all TOML values");
    out
}

/// `step` as the schema writes it: what [`step`] reads back as the same step.
pub(super) fn written(step: &Step) -> StepToml {
    let mut t = StepToml {
        timeout: step.timeout.map(millis),
        settle: step.settle.map(settle_text),
        ..StepToml::default()
    };
    match &step.action {
        Action::Wait(w) => t.wait = Some(wait_written(w)),
        Action::Press(keys) => {
            t.press = Some(match keys.as_slice() {
                [one] => KeysToml::One(one.clone()),
                _ => KeysToml::Many(keys.clone()),
            })
        }
        Action::Type(text) => t.type_text = Some(text.clone()),
        Action::Snapshot(name) => t.checkpoint = Some(name.clone()),
        Action::Secret(var) => t.secret = Some(SecretToml { env: var.clone() }),
        Action::Resize(size) => t.resize = Some(size.to_string()),
        Action::Exit(status) => {
            t.exit = Some(status.map_or_else(|| ExitToml::Any("any".into()), ExitToml::Code))
        }
        Action::Sleep(d) => t.sleep = Some(millis(*d)),
        Action::Click(target, button) => {
            t.click = Some(target_written(target));
            t.button = button_written(*button);
        }
        Action::Drag { from, to, button } => {
            t.drag = Some(DragToml {
                from: target_written(from),
                to: target_written(to),
            });
            t.button = button_written(*button);
        }
        Action::Scroll(direction, at, count) => {
            t.scroll = Some(direction.name().to_string());
            t.at = Some(target_written(at));
            t.count = (*count != 1).then_some(*count);
        }
        Action::Hover(target) => t.hover = Some(target_written(target)),
        Action::Paste(text) => t.paste = Some(text.clone()),
        Action::Focus(on) => t.focus = Some(*on),
    }
    t
}

/// A wait as [`wait`] reads it: text alone as a string, any other kind as a table.
fn wait_written(w: &Wait) -> WaitToml {
    let mut t = WaitTableToml::default();
    match w {
        Wait::Text(text) => return WaitToml::Text(text.clone()),
        Wait::Regex(r) => t.regex = Some(r.as_str().to_string()),
        Wait::Idle(d) => t.idle = Some(millis(*d)),
        Wait::Gone(text) => t.gone = Some(GoneToml::Text(text.clone())),
        Wait::Cursor(p) => t.cursor = Some(cell(*p)),
        Wait::Echo(on) => t.echo = Some(*on),
        Wait::Title(text) => t.title = Some(text.clone()),
        Wait::Bell => t.bell = Some(true),
        Wait::CommandDone => t.command_done = Some(true),
        Wait::Clipboard(text) => t.clipboard = Some(text.clone()),
        Wait::Prompt(kind) => t.prompt = Some(kind.name().to_string()),
        Wait::AnyPrompt => t.prompt = Some("any".into()),
        Wait::Silent(d) => t.silent = Some(millis(*d)),
        Wait::Changed(hash) => t.changed = Some(hash.clone()),
        Wait::Ref(r) => {
            t.reference = Some(r.selector.as_str().to_string());
            t.gone = r.gone.then_some(GoneToml::Ref(true));
        }
    }
    WaitToml::Table(Box::new(t))
}

/// A mouse target as [`target`] reads it.
fn target_written(target: &Target) -> TargetToml {
    let mut t = TargetTableToml::default();
    match target {
        Target::Cell(p) => return TargetToml::Cell(cell(*p)),
        Target::Text(text) => t.text = Some(text.clone()),
        Target::Regex(r) => t.regex = Some(r.as_str().to_string()),
        Target::Region(selector, Anchor::Ref(_)) => t.reference = Some(selector.clone()),
        Target::Region(name, _) => t.region = Some(name.clone()),
    }
    TargetToml::Table(t)
}

/// A button other than the left one (the default) by name.
fn button_written(button: MouseButton) -> Option<String> {
    (button != MouseButton::Left).then(|| button.name().to_string())
}

/// A cell as `[row, col]`, counted from 1.
fn cell(p: crate::pos::Point) -> [u16; 2] {
    [p.row.saturating_add(1), p.col.saturating_add(1)]
}

/// A duration as the schema reads it: `300ms`.
pub(in crate::config) fn millis(d: Duration) -> String {
    format!("{}ms", d.as_millis())
}

/// A settle rule as `settle =` reads it: a fixed period as a bare duration (`200ms`), as
/// scenarios wrote it before `auto`.
pub(in crate::config) fn settle_text(s: Settle) -> String {
    match s {
        Settle::Quiet(d) => millis(d),
        Settle::Auto(_) => s.to_string(),
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for TargetToml {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Target".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let table = generator.subschema_for::<TargetTableToml>();
        schemars::json_schema!({
            "description": format!("A mouse target: {TARGET_FORMS}"),
            "anyOf": [
                {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 2, "maxItems": 2},
                table
            ]
        })
    }
}
