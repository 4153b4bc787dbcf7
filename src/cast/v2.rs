//! asciicast v2 header: `{"version": 2, "width": 80, "height": 24, ...}`.
//!
//! Events are `[time, code, data]` with the time absolute from the start; the shared line
//! parser in `reader.rs` reads them and checks that times never go backwards.

use serde_json::{Map, Value};

use super::v3::Fields;
use super::{CastError, Header, Term};

pub(super) fn header(
    line: &str,
    line_no: u64,
    mut map: Map<String, Value>,
) -> Result<Header, CastError> {
    map.remove("version");
    let fields = Fields { line, line_no };
    let size = fields.size(
        (map.remove("width"), &["width"]),
        (map.remove("height"), &["height"]),
    )?;
    let theme = fields.theme(map.remove("theme"), &["theme"])?;
    let mut header = Header {
        version: 2,
        term: Term {
            size,
            ..Term::default()
        },
        ..Header::default()
    };
    theme.apply(&mut header.term);
    fields.common(&mut header, map)?;
    header.term.term_type = header.env.get("TERM").cloned();
    Ok(header)
}
