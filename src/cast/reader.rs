//! The streaming cast reader: detects the version, parses the header, then yields events
//! one line at a time.
//!
//! Line reading takes a BOM, CRLF line ends and comment lines, and checks UTF-8; event lines go
//! to the quick reader of `line.rs`, then serde, then the thorough parser that finds the exact
//! column of a problem. [`CastReader::skim`] is for readers that need no output data (discovery):
//! output strings are checked, not decoded.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde_json::value::RawValue;

use super::error::offset_in;
use super::{v1, v2, v3, CastError, CastErrorKind, Event, EventData, Header};
use crate::escape::escape_for_terminal;
use crate::location::char_column;
use crate::size::Size;

/// Opens a cast file (v1, v2 or v3) and reads its header; events follow lazily.
///
/// ```no_run
/// let mut reader = tuicast::cast::open("casts/demo.cast")?;
/// println!("{}x{}", reader.header().term.size.cols, reader.header().term.size.rows);
/// for event in &mut reader {
///     let event = event?;
///     println!("{:.3} {}", event.time, event.data.code());
/// }
/// # Ok::<(), tuicast::cast::CastError>(())
/// ```
pub fn open(path: impl AsRef<Path>) -> Result<CastReader<BufReader<File>>, CastError> {
    let path = path.as_ref();
    let file = crate::util::open_regular(path).map_err(|e| CastError::io(0, e).with_path(path))?;
    let len = file.metadata().ok().map(|m| m.len());
    let mut reader = CastReader::with_path(BufReader::with_capacity(1 << 16, file), path)?;
    reader.size_hint = len;
    Ok(reader)
}

/// The longest line of a cast read (16 MiB), and the largest v1 cast (a v1 cast is one JSON
/// document, read whole). A recorder writes what a program printed between two reads, which
/// is kilobytes; a longer line is an error at its line, so a blank line of a gigabyte is not
/// buffered whole.
pub const MAX_LINE_BYTES: u64 = 16 << 20;

fn too_long(line: u64, what: &str) -> CastError {
    CastError::new(
        CastErrorKind::Syntax,
        line,
        1,
        format!(
            "the {what} is longer than {} MiB ({MAX_LINE_BYTES} bytes), the most tuicast reads",
            MAX_LINE_BYTES >> 20
        ),
    )
}

/// A lazy iterator over the events of a cast, holding one line in memory at a time.
///
/// After the first error the iterator ends.
#[derive(Debug)]
pub struct CastReader<R> {
    src: R,
    path: Option<PathBuf>,
    header: Header,
    /// Line number of the line in `buf`.
    line_no: u64,
    buf: Vec<u8>,
    /// Whether the line in `buf` ended with a newline (false only for the file's last line).
    terminated: bool,
    /// Absolute time of the previous event.
    time: f64,
    /// The same time in nanoseconds: v3 intervals are summed in integers so that long casts
    /// of tiny intervals do not drift (0.1 + 0.2 is 0.3 here).
    time_ns: u64,
    /// v1 casts are one JSON document: their events are parsed up front.
    queued: Option<VecDeque<Event>>,
    done: bool,
    /// The size of the input in bytes, when known (files opened with [`open`]).
    size_hint: Option<u64>,
    /// See [`CastReader::skim`].
    skim: bool,
}

impl<R: BufRead> CastReader<R> {
    /// Reads the header from `src`; errors name the input `<input>`.
    pub fn new(src: R) -> Result<Self, CastError> {
        Self::build(src, None)
    }

    /// Reads the header from `src`; errors name `path`.
    pub fn with_path(src: R, path: impl AsRef<Path>) -> Result<Self, CastError> {
        Self::build(src, Some(path.as_ref().to_path_buf()))
    }

    /// The cast's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Skims the events: output and input events come with empty data, their strings checked
    /// but not decoded. Everything else is read in full, and the same casts fail, at the same
    /// place, as with a full read. For tools that only need the markers, such as naming a
    /// cast's checkpoints.
    pub fn skim(mut self) -> Self {
        self.skim = true;
        self
    }

    /// The size of the input in bytes, when known (a file opened with [`open`]).
    pub fn size_hint(&self) -> Option<u64> {
        self.size_hint
    }

    /// The file this reader reads, when it was opened from one.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    fn build(src: R, path: Option<PathBuf>) -> Result<Self, CastError> {
        let mut reader = CastReader {
            src,
            path,
            header: Header::default(),
            line_no: 0,
            buf: Vec::with_capacity(4096),
            terminated: true,
            time: 0.0,
            time_ns: 0,
            queued: None,
            done: false,
            size_hint: None,
            skim: false,
        };
        reader.read_header().map_err(|e| reader.tag(e))?;
        Ok(reader)
    }

    fn tag(&self, err: CastError) -> CastError {
        match &self.path {
            Some(p) => err.with_path(p),
            None => err,
        }
    }

    /// Reads the next line into `buf` without its line ending. Returns false at end of file.
    /// A line longer than [`MAX_LINE_BYTES`] is an error at its line, read no further.
    fn read_line(&mut self) -> Result<bool, CastError> {
        self.buf.clear();
        let n = loop {
            let mut src = (&mut self.src).take(MAX_LINE_BYTES + 1 - self.buf.len() as u64);
            match src.read_until(b'\n', &mut self.buf) {
                Ok(_) => break self.buf.len(),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(CastError::io(self.line_no + 1, e)),
            }
        };
        if n == 0 {
            return Ok(false);
        }
        if n as u64 > MAX_LINE_BYTES && self.buf.last() != Some(&b'\n') {
            self.buf = Vec::new();
            return Err(too_long(self.line_no + 1, "line"));
        }
        self.line_no += 1;
        self.terminated = self.buf.last() == Some(&b'\n');
        if self.terminated {
            self.buf.pop();
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.line_no == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
        }
        Ok(true)
    }

    /// Reads lines until one that is neither blank nor a `#` comment.
    fn next_content_line(&mut self) -> Result<bool, CastError> {
        while self.read_line()? {
            let first = self.buf.iter().find(|b| !b.is_ascii_whitespace());
            match first {
                None | Some(b'#') => continue,
                Some(_) => return Ok(true),
            }
        }
        Ok(false)
    }

    fn read_header(&mut self) -> Result<(), CastError> {
        if !self.next_content_line()? {
            return Err(CastError::new(
                CastErrorKind::Empty,
                self.line_no.max(1),
                1,
                "the file is empty: expected an asciicast header (a JSON object)",
            ));
        }
        let line_no = self.line_no;
        let buf = std::mem::take(&mut self.buf);
        let result = self.parse_header(&buf, line_no);
        self.buf = buf;
        result
    }

    fn parse_header(&mut self, buf: &[u8], line_no: u64) -> Result<(), CastError> {
        let line = utf8_line(buf, line_no)?;
        match serde_json::from_str::<serde_json::Value>(line) {
            Ok(serde_json::Value::Object(map)) => {
                let version = header_version(line, line_no, &map)?;
                match version {
                    1 => {
                        let text = line.to_string();
                        self.read_v1(text, line_no)
                    }
                    2 => {
                        self.header = v2::header(line, line_no, map)?;
                        Ok(())
                    }
                    _ => {
                        self.header = v3::header(line, line_no, map)?;
                        Ok(())
                    }
                }
            }
            Ok(other) => Err(CastError::new(
                CastErrorKind::Header,
                line_no,
                first_non_space_column(line),
                format!(
                    "the header must be a JSON object, found {}",
                    json_type_name(&other)
                ),
            )),
            Err(e)
                if e.classify() == serde_json::error::Category::Eof
                    && line.trim_start().starts_with('{') =>
            {
                // A header spread over several lines: only v1 casts are one JSON document.
                let mut text = line.to_string();
                text.push('\n');
                (&mut self.src)
                    .take(MAX_LINE_BYTES + 1 - text.len() as u64)
                    .read_to_string(&mut text)
                    .map_err(|e| CastError::io(self.line_no + 1, e))?;
                if text.len() as u64 > MAX_LINE_BYTES {
                    return Err(too_long(line_no, "v1 cast (one JSON document)"));
                }
                self.read_v1(text, line_no)
            }
            Err(e) => Err(json_error(
                line,
                line_no,
                &e,
                CastErrorKind::Header,
                "header",
            )),
        }
    }

    fn read_v1(&mut self, text: String, first_line: u64) -> Result<(), CastError> {
        let (header, events) = v1::parse(&text, first_line)?;
        self.header = header;
        self.queued = Some(events.into());
        Ok(())
    }

    fn next_event(&mut self) -> Result<Option<Event>, CastError> {
        if let Some(queue) = &mut self.queued {
            let mut event = queue.pop_front();
            if let Some(EventData::Output(d) | EventData::Input(d)) =
                event.as_mut().map(|e| &mut e.data).filter(|_| self.skim)
            {
                // (v1 casts are parsed whole up front; skimming still gives what it promises.)
                d.clear();
            }
            return Ok(event);
        }
        if !self.next_content_line()? {
            return Ok(None);
        }
        let line_no = self.line_no;
        let terminated = self.terminated;
        let version = self.header.version;
        let prev = self.time;
        // Quickest: the common line, read by hand (see `line.rs`), its UTF-8 checked there.
        let quick = if self.skim {
            None
        } else {
            quick_event_line(&self.buf)
        };
        let parsed = match quick {
            Some(ev) => Ok(ev),
            None => {
                let line = utf8_line(&self.buf, line_no)?;
                if self.skim {
                    skim_event_line(line, line_no)
                } else {
                    parse_event_line(line, line_no)
                }
            }
        };
        let (t, data) = match parsed {
            Ok(ev) => ev,
            Err(mut e) => {
                if !terminated && e.kind == CastErrorKind::Syntax && e.message.contains("end of") {
                    e.message = "truncated event: the file ends in the middle of this line".into();
                }
                return Err(e);
            }
        };
        let time = if version == 2 {
            if t < prev {
                return Err(CastError::new(
                    CastErrorKind::Event,
                    line_no,
                    element_column(utf8_line(&self.buf, line_no)?, 0),
                    format!(
                        "event time goes backwards: {t} comes after {prev} (v2 times are absolute)"
                    ),
                ));
            }
            t
        } else {
            self.time_ns = self.time_ns.saturating_add((t * 1e9).round() as u64);
            self.time_ns as f64 / 1e9
        };
        self.time = time;
        Ok(Some(Event {
            time,
            line: line_no,
            data,
        }))
    }
}

impl<R: BufRead> Iterator for CastReader<R> {
    type Item = Result<Event, CastError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_event() {
            Ok(Some(ev)) => Some(Ok(ev)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(self.tag(e)))
            }
        }
    }
}

/// The line in `buf` as text, or an error at the first byte that is not UTF-8.
fn utf8_line(buf: &[u8], line_no: u64) -> Result<&str, CastError> {
    std::str::from_utf8(buf).map_err(|e| {
        let valid = std::str::from_utf8(&buf[..e.valid_up_to()]).unwrap_or_default();
        CastError::new(
            CastErrorKind::Syntax,
            line_no,
            char_column(valid, valid.len()),
            format!(
                "invalid UTF-8: byte 0x{:02x} is not part of a valid character",
                buf[e.valid_up_to()]
            ),
        )
    })
}

/// Parses one event line `[time, code, data]` of a v2 or v3 cast. The time is returned as
/// written (an interval in v3, absolute in v2).
pub(super) fn parse_event_line(line: &str, line_no: u64) -> Result<(f64, EventData), CastError> {
    // Quickest: the common line, read by hand (see `line.rs`).
    if let Some((t, code, Some(data))) = super::line::event_line(line, true) {
        if t >= 0.0 {
            if let Some(data) = fast_data(code, data) {
                return Ok((t, data));
            }
        }
    }
    // Next: a well-formed line with one pass of the JSON parser.
    #[derive(serde::Deserialize)]
    struct Fast<'a>(f64, #[serde(borrow)] std::borrow::Cow<'a, str>, String);
    if let Ok(Fast(t, code, data)) = serde_json::from_str::<Fast<'_>>(line) {
        if t >= 0.0 {
            if let Some(data) = fast_data(&code, data) {
                return Ok((t, data));
            }
        }
    }
    slow_event_line(line, line_no)
}

/// What [`parse_event_line`] reads first, on the line's bytes; `None`: let it read the line.
fn quick_event_line(buf: &[u8]) -> Option<(f64, EventData)> {
    match super::line::event_bytes(buf, true)? {
        (t, code, Some(data)) if t >= 0.0 => Some((t, fast_data(code, data)?)),
        _ => None,
    }
}

/// [`parse_event_line`] without decoding the strings of output and input events.
fn skim_event_line(line: &str, line_no: u64) -> Result<(f64, EventData), CastError> {
    if let Some((t, code @ ("o" | "i"), None)) = super::line::event_line(line, false) {
        if let Some(data) = fast_data(code, String::new()).filter(|_| t >= 0.0) {
            return Ok((t, data));
        }
    }
    // Anything else is read in full (so skimming accepts and rejects exactly what reading
    // does), and the data dropped.
    let (t, mut data) = parse_event_line(line, line_no)?;
    if let EventData::Output(d) | EventData::Input(d) = &mut data {
        *d = String::new();
    }
    Ok((t, data))
}

fn fast_data(code: &str, data: String) -> Option<EventData> {
    Some(match code {
        "o" => EventData::Output(data),
        "i" => EventData::Input(data),
        "m" => EventData::Marker(data),
        "r" => EventData::Resize(data.parse::<Size>().ok()?),
        "x" => EventData::Exit(data.trim().parse().ok()?),
        _ => EventData::Other {
            code: code.to_string(),
            data,
        },
    })
}

/// The thorough parser: finds exactly what is wrong with a line, and where.
fn slow_event_line(line: &str, line_no: u64) -> Result<(f64, EventData), CastError> {
    let value: serde_json::Value = serde_json::from_str(line)
        .map_err(|e| json_error(line, line_no, &e, CastErrorKind::Syntax, "event"))?;
    let err = |col: u64, msg: String| CastError::new(CastErrorKind::Event, line_no, col, msg);
    let items = match &value {
        serde_json::Value::Array(items) => items,
        other => {
            return Err(err(
                first_non_space_column(line),
                format!(
                    "an event must be a JSON array [time, code, data], found {}",
                    json_type_name(other)
                ),
            ))
        }
    };
    if items.len() != 3 {
        return Err(err(
            first_non_space_column(line),
            format!(
                "an event must have 3 elements [time, code, data], found {}",
                items.len()
            ),
        ));
    }
    let time = match items[0].as_f64() {
        Some(t) if t < 0.0 => {
            return Err(err(
                element_column(line, 0),
                format!("event time is negative: {t}"),
            ))
        }
        Some(t) if t.is_finite() => t,
        _ => {
            return Err(err(
                element_column(line, 0),
                format!("event time must be a number, found {}", describe(&items[0])),
            ))
        }
    };
    let code = match items[1].as_str() {
        Some(c) => c,
        None => {
            return Err(err(
                element_column(line, 1),
                format!("event code must be a string, found {}", describe(&items[1])),
            ))
        }
    };
    let data_col = || element_column(line, 2);
    let data = match (&items[2], code) {
        (serde_json::Value::String(s), _) => s.clone(),
        (serde_json::Value::Number(n), "x") if n.is_i64() => n.to_string(),
        (other, _) => {
            return Err(err(
                data_col(),
                format!(
                    "data of a \"{}\" event must be a string, found {}",
                    escape_for_terminal(code, 20),
                    describe(other)
                ),
            ))
        }
    };
    let data = match code {
        "r" => EventData::Resize(
            data.parse::<Size>()
                .map_err(|m| err(data_col(), m.to_string()))?,
        ),
        "x" => match data.trim().parse::<i32>() {
            Ok(status) => EventData::Exit(status),
            Err(_) => {
                return Err(err(
                    data_col(),
                    format!(
                        "exit status must be an integer, found \"{}\"",
                        escape_for_terminal(&data, 40)
                    ),
                ))
            }
        },
        _ => fast_data(code, data).expect("only r and x events can fail"),
    };
    Ok((time, data))
}

/// The header's `version`, checked to be 1, 2 or 3.
fn header_version(
    line: &str,
    line_no: u64,
    map: &serde_json::Map<String, serde_json::Value>,
) -> Result<u8, CastError> {
    match map.get("version") {
        None => Err(CastError::new(
            CastErrorKind::Header,
            line_no,
            first_non_space_column(line),
            "the header has no \"version\" field (expected 2 or 3)",
        )),
        Some(v) => match v.as_u64() {
            Some(n @ 1..=3) => Ok(n as u8),
            _ => Err(CastError::new(
                CastErrorKind::Header,
                line_no,
                field_column(line, "version"),
                format!(
                    "unsupported asciicast version {} (tuicast reads versions 1, 2 and 3)",
                    describe(v)
                ),
            )),
        },
    }
}

/// Turns a serde_json error on `line` into a positioned [`CastError`].
pub(super) fn json_error(
    text: &str,
    first_line: u64,
    e: &serde_json::Error,
    kind: CastErrorKind,
    what: &str,
) -> CastError {
    let full = e.to_string();
    let bare = match full.rfind(" at line ") {
        Some(i) => &full[..i],
        None => &full,
    };
    // serde_json counts lines from 1 and columns in bytes; find the line it means in `text`
    // (several lines only for v1 documents) and count characters.
    let rel_line = e.line().max(1);
    let line = text.split('\n').nth(rel_line - 1).unwrap_or("");
    let line = line.strip_suffix('\r').unwrap_or(line);
    let line_no = first_line + rel_line as u64 - 1;
    if let Some((offset, escape)) = lone_surrogate(line) {
        return CastError::new(
            kind,
            line_no,
            char_column(line, offset),
            format!(
                "{what} has a lone surrogate escape {escape}: JSON strings must be valid Unicode"
            ),
        );
    }
    let (column, message) = match e.classify() {
        serde_json::error::Category::Eof => (
            char_column(line, line.len()),
            format!("{what} is not complete JSON: unexpected end of line"),
        ),
        _ => (
            char_column(line, e.column().max(1) - 1),
            format!("{what} is not valid JSON: {bare}"),
        ),
    };
    CastError::new(kind, line_no, column, message)
}

/// Finds a `\uD800`–`\uDFFF` escape inside a JSON string that is not half of a valid pair:
/// its byte offset and text.
fn lone_surrogate(line: &str) -> Option<(usize, &str)> {
    let b = line.as_bytes();
    let hex_at = |i: usize| -> Option<u32> {
        if b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u') {
            line.get(i + 2..i + 6)
                .and_then(|h| u32::from_str_radix(h, 16).ok())
        } else {
            None
        }
    };
    let (mut i, mut in_string) = (0, false);
    while i < b.len() {
        match b[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                if let Some(v) = hex_at(i) {
                    if (0xD800..0xDC00).contains(&v) {
                        match hex_at(i + 6) {
                            Some(low) if (0xDC00..0xE000).contains(&low) => {
                                i += 12;
                                continue;
                            }
                            _ => return Some((i, &line[i..i + 6])),
                        }
                    }
                    if (0xDC00..0xE000).contains(&v) {
                        return Some((i, &line[i..i + 6]));
                    }
                    i += 6;
                    continue;
                }
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

pub(super) fn first_non_space_column(line: &str) -> u64 {
    let trimmed = line.trim_start();
    char_column(line, line.len() - trimmed.len())
}

/// Column of the `index`th element of the JSON array on `line` (1 when it cannot be found).
pub(super) fn element_column(line: &str, index: usize) -> u64 {
    match serde_json::from_str::<Vec<&RawValue>>(line) {
        Ok(items) => items
            .get(index)
            .map(|raw| char_column(line, offset_in(line, raw.get())))
            .unwrap_or(1),
        Err(_) => 1,
    }
}

/// Column of the value of `key` in the JSON object on `line` (or of the object itself).
pub(super) fn field_column(line: &str, key: &str) -> u64 {
    field_column_path(line, &[key])
}

/// Column of a nested value, following object keys, such as `["term", "cols"]`.
pub(super) fn field_column_path(line: &str, keys: &[&str]) -> u64 {
    let mut current: &str = line;
    for key in keys {
        let map: std::collections::HashMap<String, &RawValue> = match serde_json::from_str(current)
        {
            Ok(m) => m,
            Err(_) => break,
        };
        match map.get(*key) {
            Some(raw) => {
                let off = offset_in(line, raw.get());
                current = &line[off..off + raw.get().len()];
            }
            None => break,
        }
    }
    if std::ptr::eq(current, line) {
        first_non_space_column(line)
    } else {
        char_column(line, offset_in(line, current))
    }
}

pub(super) fn json_type_name(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// A short, escaped description of a JSON value for error messages.
pub(super) fn describe(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => format!("\"{}\"", escape_for_terminal(s, 40)),
        serde_json::Value::Number(n) => n.to_string(),
        other => json_type_name(other).to_string(),
    }
}
