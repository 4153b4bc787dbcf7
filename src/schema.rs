//! JSON Schemas of the JSON tuicast writes and reads, generated from the types that write and
//! read it (with the `schema` feature): `tuicast schema NAME` prints one, and `docs/schemas/`
//! holds each as a file (a test keeps the files equal to what the types give).

use serde_json::Value;

/// The schemas there are, by name, with what each describes.
pub const SCHEMAS: &[(&str, &str)] = &[
    (
        "screen",
        "a screen as `tuicast replay --format json` and `snapshot --format json` write it",
    ),
    (
        "inspect",
        "a screen's outline as `tuicast inspect --json` writes it",
    ),
    (
        "session-request",
        "a request to the session daemon (one JSON line on its socket)",
    ),
    (
        "session-reply",
        "the session daemon's reply, as `tuicast session` prints it",
    ),
];

/// The JSON Schema named `name` (one of [`SCHEMAS`]), or `None` for another name.
pub fn schema(name: &str) -> Option<Value> {
    let schema = match name {
        "screen" => schemars::schema_for!(crate::render::ScreenJson),
        "inspect" => schemars::schema_for!(crate::inspect::InspectionJson),
        "session-request" => schemars::schema_for!(crate::daemon::protocol::Request),
        "session-reply" => schemars::schema_for!(crate::daemon::protocol::Reply),
        _ => return None,
    };
    Some(schema.to_value())
}
