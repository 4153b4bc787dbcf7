//! `tuicast schema`: the JSON Schemas of the JSON tuicast writes and reads.

use std::process::ExitCode;

use anyhow::bail;

use tuicast::escape::escape_for_terminal;
use tuicast::schema::{schema, SCHEMAS};

/// Print the JSON Schema of a JSON format tuicast writes or reads (generated from the types
/// that write and read it); without a name, list them.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast schema                                 the schemas there are\n  \
    tuicast schema screen > screen.schema.json     the schema of replay --format json\n  \
    tuicast schema session-reply                   what every tuicast session command prints")]
pub(super) struct Args {
    /// The schema: screen, inspect, session-request, session-reply, session-event, ...
    #[arg(value_name = "NAME")]
    name: Option<String>,
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(name) = args.name else {
        let mut out = String::new();
        for (name, what) in SCHEMAS {
            out.push_str(&format!("{name:<16} {what}\n"));
        }
        super::write_output(None, out.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    };
    let Some(value) = schema(&name) else {
        let names: Vec<&str> = SCHEMAS.iter().map(|(n, _)| *n).collect();
        bail!(
            "no schema named \"{}\": the schemas are {}",
            escape_for_terminal(&name, 60),
            names.join(", ")
        );
    };
    let mut text = serde_json::to_string_pretty(&value)?;
    text.push('\n');
    super::write_output(None, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
