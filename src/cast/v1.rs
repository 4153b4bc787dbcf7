//! asciicast v1: one JSON document `{"version": 1, "width", "height", "stdout": [[delay, data], ...]}`.
//!
//! v1 cannot be streamed (it is a single document), so its frames are parsed at once; the
//! files are small in practice. Each event still carries the line its frame starts on.

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::error::offset_in;
use super::reader::{describe, json_error, json_type_name};
use super::v3::Fields;
use super::{CastError, CastErrorKind, Event, EventData, Header, Term};
use crate::location::LineCursor;

pub(super) fn parse(text: &str, first_line: u64) -> Result<(Header, Vec<Event>), CastError> {
    let mut map: Map<String, Value> = serde_json::from_str(text)
        .map_err(|e| json_error(text, first_line, &e, CastErrorKind::Syntax, "v1 cast"))?;
    let version = map.remove("version");
    if version.as_ref().and_then(Value::as_u64) != Some(1) {
        return Err(CastError::new(
            CastErrorKind::Header,
            first_line,
            1,
            "a header spread over several lines is only valid in asciicast v1 (\"version\": 1); \
             v2 and v3 headers must be on one line",
        ));
    }
    let fields = Fields {
        line: text,
        line_no: first_line,
    };
    let size = fields.size(
        (map.remove("width"), &["width"]),
        (map.remove("height"), &["height"]),
    )?;
    let stdout = map.remove("stdout");
    let mut header = Header {
        version: 1,
        term: Term {
            size,
            ..Term::default()
        },
        ..Header::default()
    };
    fields.common(&mut header, map)?;
    header.term.term_type = header.env.get("TERM").cloned();

    // Positions of the frames, for line numbers in events and errors.
    #[derive(serde::Deserialize)]
    struct Frames<'a> {
        #[serde(borrow, default)]
        stdout: Vec<&'a RawValue>,
    }
    let raw: Frames<'_> = serde_json::from_str(text).unwrap_or(Frames { stdout: Vec::new() });
    // Line and column of frame `i`, or of its element `k`. Frames are asked for in order, so
    // one cursor walks the text once.
    let cursor = std::cell::RefCell::new(LineCursor::new(text));
    let place = |i: usize, k: Option<usize>| -> (u64, u64) {
        let Some(frame) = raw.stdout.get(i) else {
            return (first_line, 1);
        };
        let mut at = frame.get();
        if let Some(k) = k {
            if let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(frame.get()) {
                if let Some(item) = items.get(k) {
                    at = item.get();
                }
            }
        }
        let (line, column) = cursor.borrow_mut().at(offset_in(text, at));
        (first_line + line - 1, column)
    };
    let frames = match stdout {
        Some(Value::Array(frames)) => frames,
        None => Vec::new(),
        Some(other) => {
            return Err(fields.error(
                1,
                format!(
                    "\"stdout\" must be an array of frames, found {}",
                    json_type_name(&other)
                ),
            ))
        }
    };
    let mut events = Vec::with_capacity(frames.len());
    let mut time = 0.0;
    for (i, frame) in frames.into_iter().enumerate() {
        let (line, column) = place(i, None);
        let err = |msg: String| CastError::new(CastErrorKind::Event, line, column, msg);
        let err_at = |k: usize, msg: String| {
            let (line, column) = place(i, Some(k));
            CastError::new(CastErrorKind::Event, line, column, msg)
        };
        let Value::Array(mut items) = frame else {
            return Err(err(format!(
                "a v1 frame must be an array [delay, data], found {}",
                describe(&frame)
            )));
        };
        if items.len() != 2 {
            return Err(err(format!(
                "a v1 frame must have 2 elements [delay, data], found {}",
                items.len()
            )));
        }
        let data = items.pop().unwrap_or_default();
        let delay = match items[0].as_f64() {
            Some(d) if d >= 0.0 => d,
            Some(d) => return Err(err_at(0, format!("frame delay is negative: {d}"))),
            None => {
                return Err(err_at(
                    0,
                    format!(
                        "frame delay must be a number, found {}",
                        describe(&items[0])
                    ),
                ))
            }
        };
        let Value::String(data) = data else {
            return Err(err_at(
                1,
                format!("frame data must be a string, found {}", describe(&data)),
            ));
        };
        time += delay;
        events.push(Event {
            time,
            line,
            data: EventData::Output(data),
        });
    }
    Ok((header, events))
}
