//! JSON Schemas of the files people write and the JSON tuicast writes and reads, generated
//! from the types that read and write them (features `schema` and `cli`): `tuicast schema
//! NAME` prints one, and `docs/schemas/` holds each as a file (a test keeps the files equal to
//! what the types give). They are JSON Schema draft 7, which taplo and the editors built on it
//! (Even Better TOML) read: a scenario's first line `#:schema ../docs/schemas/scenario.json`
//! gives completion, descriptions and errors while it is written.

use schemars::JsonSchema;
use serde_json::Value;

/// The schemas there are, by name, with what each describes.
pub const SCHEMAS: &[(&str, &str)] = &[
    (
        "scenario",
        "a cast's TOML, casts/NAME.toml (docs/scenarios.md)",
    ),
    ("config", "the project's tuicast.toml"),
    (
        "screen",
        "a screen as `tuicast replay --format json` and `snapshot --format json` write it",
    ),
    (
        "inspect",
        "a screen's outline as `tuicast inspect --json` writes it",
    ),
    (
        "info",
        "what a cast holds, as `tuicast info --json` writes it",
    ),
    (
        "engines",
        "a cast replayed by every engine, as `tuicast engines --json` writes it",
    ),
    (
        "session-request",
        "a request to the session daemon (one JSON line on its socket)",
    ),
    (
        "session-reply",
        "the session daemon's reply, as `tuicast session` prints it",
    ),
    (
        "session-event",
        "a line of `tuicast session events`: a live session's changes, prompt, hold and exit",
    ),
    (
        "run",
        "what `tuicast run` prints: a command's output, status and limits, or its refusal",
    ),
    (
        "ask",
        "what `tuicast ask` prints: a command's answer, status and limits, or its refusal",
    ),
    (
        "test-message",
        "a line of `tuicast test --message-format json`",
    ),
];

/// The JSON Schema named `name` (one of [`SCHEMAS`]), or `None` for another name.
pub fn schema(name: &str) -> Option<Value> {
    Some(match name {
        "scenario" => of::<crate::config::cast_file::FileToml>(),
        "config" => of::<crate::config::ConfigFile>(),
        "screen" => of::<crate::render::ScreenJson>(),
        "inspect" => of::<crate::inspect::InspectionJson>(),
        "info" => of::<crate::replay::info::CastInfo>(),
        "engines" => of::<crate::replay::differential::EnginesJson>(),
        "session-request" => of::<crate::daemon::protocol::Request>(),
        "session-reply" => of::<crate::daemon::protocol::Reply>(),
        "session-event" => of::<crate::daemon::protocol::SessionEvent>(),
        "run" => of::<crate::record::piped::RunOutput>(),
        "ask" => of::<crate::record::piped::AskOutput>(),
        "test-message" => of::<crate::harness::message::Message>(),
        _ => return None,
    })
}

/// The draft 7 schema of `T`.
fn of<T: JsonSchema>() -> Value {
    schemars::generate::SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}
