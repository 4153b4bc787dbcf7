//! The v3 writer: a header line, then one `[interval, code, data]` line per event.
//!
//! Intervals are quantized to a fixed number of decimals with error diffusion: each event's
//! absolute time is rounded, and the interval written is the difference between rounded
//! absolute times. The sum of the written intervals is therefore always the true time
//! rounded once, never an accumulation of rounding errors.
//!
//! JSON strings are escaped with the quick reader's scanner (`line::plain_run`, eight bytes at a
//! time), writing the bytes serde_json would (property-tested).

use std::io::{self, Write};

use serde_json::{Map, Value};

use super::{Event, EventData, Header};

/// Decimals written for intervals by default: microseconds, as asciinema does.
pub const DEFAULT_PRECISION: u32 = 6;

/// Writes a cast as asciicast v3, one event at a time.
///
/// Each event is written as soon as it is given, so a recording cut short still leaves a
/// valid cast up to its last complete line (call [`CastWriter::flush`] to push it out).
#[derive(Debug)]
pub struct CastWriter<W: Write> {
    out: W,
    decimals: u32,
    scale: f64,
    /// Sum of the intervals written so far, in units of 10^-decimals seconds.
    written: u64,
    line: Vec<u8>,
    /// Bytes written so far: the header line and every event line.
    bytes: u64,
}

impl<W: Write> CastWriter<W> {
    /// Writes `header` as v3 and returns a writer for the events, with microsecond precision.
    pub fn new(out: W, header: &Header) -> io::Result<Self> {
        Self::with_precision(out, header, DEFAULT_PRECISION)
    }

    /// Like [`CastWriter::new`] with intervals written to `decimals` places (at most 9).
    pub fn with_precision(mut out: W, header: &Header, decimals: u32) -> io::Result<Self> {
        let decimals = decimals.min(9);
        let mut first = serde_json::to_vec(&header_json(header))?;
        first.push(b'\n');
        out.write_all(&first)?;
        Ok(CastWriter {
            out,
            decimals,
            scale: 10f64.powi(decimals as i32),
            written: 0,
            line: Vec::with_capacity(256),
            bytes: first.len() as u64,
        })
    }

    /// Writes one event; its `time` is absolute. Times earlier than the previous event's are
    /// written as a zero interval.
    pub fn write_event(&mut self, event: &Event) -> io::Result<()> {
        let target = (event.time.max(0.0) * self.scale).round();
        let target = if target.is_finite() && target < u64::MAX as f64 {
            target as u64
        } else {
            self.written
        };
        let interval = target.saturating_sub(self.written);
        self.written += interval;

        self.line.clear();
        self.line.push(b'[');
        format_fixed(&mut self.line, interval, self.decimals);
        self.line.extend_from_slice(b", ");
        serde_json::to_writer(&mut self.line, event.data.code())?;
        self.line.extend_from_slice(b", ");
        match &event.data {
            EventData::Output(s) | EventData::Input(s) | EventData::Marker(s) => {
                json_string(&mut self.line, s)
            }
            EventData::Resize(size) => serde_json::to_writer(&mut self.line, &size.to_string())?,
            EventData::Exit(status) => serde_json::to_writer(&mut self.line, &status.to_string())?,
            EventData::Other { data, .. } => serde_json::to_writer(&mut self.line, data)?,
        }
        self.line.extend_from_slice(b"]\n");
        self.out.write_all(&self.line)?;
        self.bytes += self.line.len() as u64;
        Ok(())
    }

    /// How many bytes the cast holds so far (the header and every event written).
    pub fn bytes_written(&self) -> u64 {
        self.bytes
    }

    /// Flushes what was written to the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Flushes and returns the underlying writer.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Writes `s` as a JSON string, byte for byte as serde_json writes it (`\"`, `\\`, `\b`,
/// `\f`, `\n`, `\r`, `\t`, other controls as `\u00xx`), finding the bytes to escape eight
/// at a time: terminal output is long runs between a few escapes, and the recorder writes
/// every byte a program prints.
fn json_string(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    let mut i = 0;
    loop {
        i = super::line::plain_run(b, i, Some(out));
        let Some(&c) = b.get(i) else { break };
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(c >> 4)],
                HEX[usize::from(c & 15)],
            ]),
        }
        i += 1;
    }
    out.push(b'"');
}

/// Writes `units` × 10^-decimals as a decimal number with trailing zeros trimmed (`1.5`, `0.0`).
fn format_fixed(out: &mut Vec<u8>, units: u64, decimals: u32) {
    let div = 10u64.pow(decimals);
    let whole = units / div;
    let mut frac = units % div;
    let _ = write!(out, "{whole}");
    out.push(b'.');
    if frac == 0 || decimals == 0 {
        out.push(b'0');
        return;
    }
    let mut width = decimals as usize;
    while frac % 10 == 0 {
        frac /= 10;
        width -= 1;
    }
    let _ = write!(out, "{frac:0width$}");
}

/// The header as a v3 JSON object, fields in a stable order, unknown fields last.
fn header_json(h: &Header) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("version".into(), 3.into());
    let mut term = Map::new();
    term.insert("cols".into(), h.term.size.cols.into());
    term.insert("rows".into(), h.term.size.rows.into());
    if let Some(t) = &h.term.term_type {
        term.insert("type".into(), t.clone().into());
    }
    if let Some(v) = &h.term.version {
        term.insert("version".into(), v.clone().into());
    }
    if let Some(theme) = &h.term.theme {
        let mut t = Map::new();
        t.insert("fg".into(), theme.fg.to_string().into());
        t.insert("bg".into(), theme.bg.to_string().into());
        let palette: Vec<String> = theme.palette.iter().map(|c| c.to_string()).collect();
        t.insert("palette".into(), palette.join(":").into());
        term.insert("theme".into(), t.into());
    }
    for (k, v) in &h.term.extra {
        term.entry(k.clone()).or_insert_with(|| v.clone());
    }
    m.insert("term".into(), term.into());
    if let Some(t) = h.timestamp {
        m.insert("timestamp".into(), t.into());
    }
    if let Some(l) = h.idle_time_limit {
        m.insert("idle_time_limit".into(), l.into());
    }
    if let Some(c) = &h.command {
        m.insert("command".into(), c.clone().into());
    }
    if let Some(t) = &h.title {
        m.insert("title".into(), t.clone().into());
    }
    if !h.env.is_empty() {
        let env: Map<String, Value> = h
            .env
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into()))
            .collect();
        m.insert("env".into(), env.into());
    }
    if !h.tags.is_empty() {
        m.insert("tags".into(), h.tags.clone().into());
    }
    for (k, v) in &h.extra {
        m.entry(k.clone()).or_insert_with(|| v.clone());
    }
    m
}

#[cfg(test)]
mod tests {
    use super::{format_fixed, json_string};

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(2000))]

        /// Strings are written byte for byte as serde_json writes them.
        #[test]
        fn strings_are_written_as_serde_json_writes_them(
            s in "([\\x00-\\x1f\"\\\\\\x7f]|[a-z ]{0,12}|é|😀|\u{2028})*",
        ) {
            let mut mine = Vec::new();
            json_string(&mut mine, &s);
            proptest::prop_assert_eq!(
                String::from_utf8(mine).unwrap(),
                serde_json::to_string(&s).unwrap()
            );
        }
    }

    fn fixed(units: u64, decimals: u32) -> String {
        let mut v = Vec::new();
        format_fixed(&mut v, units, decimals);
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn formats_trimmed_decimals() {
        assert_eq!(fixed(0, 6), "0.0");
        assert_eq!(fixed(1_500_000, 6), "1.5");
        assert_eq!(fixed(1_000_001, 6), "1.000001");
        assert_eq!(fixed(123_456, 6), "0.123456");
        assert_eq!(fixed(7, 0), "7.0");
    }
}
