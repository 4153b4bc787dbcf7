//! The cast codec on the fixtures of `tests/fixtures/valid/` (made by `generate.py`): every
//! header field and event code of v3, v2 and v1; the same model from each version; the
//! tolerance cases against their clean twin; write→read round trips of every fixture and of
//! random event sequences (no drift in absolute times); and a reader that never panics.

use std::collections::BTreeMap;
use std::io::Cursor;
use std::sync::OnceLock;
use tuicast::theme::Theme;

use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::json;
use tuicast::cast::{CastErrorKind, CastReader, CastWriter, Event, EventData, Header};
use tuicast::rgb::Rgb;
use tuicast::size::Size;

use crate::util::fixture;

// ---------------------------------------------------------------------------------------------
// Helpers

/// Reads a fixture of `tests/fixtures/valid/` with the library: header and all events.
fn read(rel: &str) -> (Header, Vec<Event>) {
    let path = fixture(&format!("valid/{rel}"));
    let mut reader = tuicast::cast::open(&path).unwrap_or_else(|e| {
        panic!(
            "open {}: {e} (run tests/fixtures/generate.py)",
            path.display()
        )
    });
    let header = reader.header().clone();
    let events = (&mut reader)
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    (header, events)
}

/// Reads a cast from memory.
fn read_bytes(bytes: &[u8]) -> (Header, Vec<Event>) {
    let mut reader = CastReader::new(Cursor::new(bytes)).expect("read header");
    let header = reader.header().clone();
    let events = (&mut reader)
        .collect::<Result<Vec<_>, _>>()
        .expect("read events");
    (header, events)
}

/// Writes a header and events as v3 with [`CastWriter`].
fn write(header: &Header, events: &[Event]) -> Vec<u8> {
    let mut writer = CastWriter::new(Vec::new(), header).expect("write header");
    for event in events {
        writer.write_event(event).expect("write event");
    }
    writer.into_inner().expect("flush")
}

fn out(s: &str) -> EventData {
    EventData::Output(s.to_string())
}

fn size(cols: u16, rows: u16) -> Size {
    Size { cols, rows }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn colors(items: &[&str]) -> Vec<Rgb> {
    items.iter().map(|s| s.parse().unwrap()).collect()
}

fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn object(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    match value {
        serde_json::Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// Asserts events exactly: times to 1e-9, lines, and data.
fn assert_events(actual: &[Event], expected: &[(f64, u64, EventData)]) {
    let got: Vec<_> = actual
        .iter()
        .map(|e| (e.time, e.line, e.data.clone()))
        .collect();
    assert_eq!(
        actual.len(),
        expected.len(),
        "event count\n  actual:   {got:?}\n  expected: {expected:?}"
    );
    for (i, (a, (time, line, data))) in actual.iter().zip(expected).enumerate() {
        assert!(
            (a.time - time).abs() <= 1e-9,
            "event {i}: time {} != {time}",
            a.time
        );
        assert_eq!(a.line, *line, "event {i}: line");
        assert_eq!(&a.data, data, "event {i}: data");
    }
}

/// Asserts the same times (within `tolerance`) and data, ignoring lines.
fn assert_same_events(actual: &[Event], expected: &[Event], tolerance: f64, what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: event count");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            (a.time - e.time).abs() <= tolerance,
            "{what}: event {i}: time {} != {}",
            a.time,
            e.time
        );
        assert_eq!(a.data, e.data, "{what}: event {i}: data");
    }
}

fn valid_fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixture("valid"))
        .expect("read tests/fixtures/valid (run tests/fixtures/generate.py)")
        .map(|entry| entry.expect("directory entry").file_name())
        .map(|name| name.into_string().expect("UTF-8 file name"))
        .filter(|name| name.ends_with(".cast"))
        .collect();
    names.sort();
    assert!(names.len() >= 12, "too few valid fixtures: {names:?}");
    names
}

// ---------------------------------------------------------------------------------------------
// Every field and code, per version

#[test]
fn v3_reads_every_header_field() {
    let (header, _) = read("v3_full.cast");
    let palette = colors(&[
        "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
        "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
    ]);
    let mut expected = Header::new(size(100, 30));
    expected.term.term_type = Some("xterm-256color".into());
    expected.term.version = Some("VTE(7600)".into());
    expected.term.theme = Some(Theme {
        fg: Rgb(0xd0, 0xd0, 0xd0),
        bg: Rgb(0x1c, 0x1c, 0x1c),
        palette,
    });
    expected.term.extra = object(json!({"pixel_ratio": 2}));
    expected.timestamp = Some(1_700_000_000);
    expected.idle_time_limit = Some(2.5);
    expected.command = Some("/bin/bash -l".into());
    expected.title = Some("Démo — every field".into());
    expected.env = env(&[("SHELL", "/bin/bash"), ("LANG", "fr_FR.UTF-8")]);
    expected.tags = strings(&["demo", "ünïcode"]);
    expected.extra = object(json!({"x_vendor": {"nested": [1, 2, 3], "flag": true}}));
    assert_eq!(header, expected);
}

#[test]
fn v3_reads_every_event_code() {
    let (_, events) = read("v3_full.cast");
    assert_events(
        &events,
        &[
            (0.25, 2, out("\x1b[1;32m$\x1b[0m ")),
            (1.25, 3, EventData::Input("ls\r".into())),
            (1.253, 4, out("ls\r\nfile.txt  héllo 世界 🎉\r\n")),
            (1.753, 5, EventData::Marker("listed".into())),
            (1.753, 6, EventData::Marker(String::new())),
            (1.853, 7, EventData::Resize(size(120, 40))),
            (2.053, 8, out("bye\r\n")),
            (
                2.103,
                9,
                EventData::Other {
                    code: "z".into(),
                    data: "future data".into(),
                },
            ),
            (2.113, 10, EventData::Exit(0)),
        ],
    );
    assert_eq!(
        events.iter().map(|e| e.data.code()).collect::<Vec<_>>(),
        ["o", "i", "o", "m", "m", "r", "o", "z", "x"]
    );
}

#[test]
fn v2_reads_header_and_absolute_times() {
    let (header, events) = read("v2.cast");
    let mut expected = Header::new(size(90, 20));
    expected.version = 2;
    expected.term.term_type = Some("screen-256color".into());
    expected.term.theme = Some(Theme {
        fg: Rgb(255, 255, 255),
        bg: Rgb(0, 0, 0),
        palette: colors(&[
            "#000000", "#aa0000", "#00aa00", "#aa5500", "#0000aa", "#aa00aa", "#00aaaa", "#aaaaaa",
        ]),
    });
    expected.timestamp = Some(1_600_000_000);
    expected.idle_time_limit = Some(1.0);
    expected.command = Some("vim notes.txt".into());
    expected.title = Some("v2 demo".into());
    expected.env = env(&[("SHELL", "/bin/zsh"), ("TERM", "screen-256color")]);
    assert_eq!(header, expected);
    assert_events(
        &events,
        &[
            (0.1, 2, out("a")),
            (0.5, 3, EventData::Input("q".into())),
            (0.5, 4, out("b\x1b[K")),
            (1.25, 5, EventData::Marker("mid".into())),
            (1.5, 6, EventData::Resize(size(100, 25))),
            (2.0, 7, out("c\r\n")),
            (2.75, 8, EventData::Marker(String::new())),
        ],
    );
}

#[test]
fn v1_reads_a_pretty_printed_document() {
    let (header, events) = read("v1.cast");
    let mut expected = Header::new(size(80, 24));
    expected.version = 1;
    expected.term.term_type = Some("xterm".into());
    expected.command = Some("/bin/sh".into());
    expected.title = Some("v1 demo".into());
    expected.env = env(&[("TERM", "xterm"), ("SHELL", "/bin/sh")]);
    expected.extra = object(json!({"duration": 1.5}));
    assert_eq!(header, expected);
    // Each frame's line is where its `[` is.
    assert_events(
        &events,
        &[
            (0.1, 13, out("$ ")),
            (0.6, 17, out("echo hi\r\n")),
            (1.5, 21, out("hi\r\n$ ")),
        ],
    );
}

#[test]
fn v1_v2_and_v3_give_the_same_model() {
    let (h3, e3) = read("same_v3.cast");
    let mut expected = Header::new(size(80, 24));
    expected.term.term_type = Some("xterm-256color".into());
    expected.command = Some("/usr/bin/htop".into());
    expected.title = Some("same model ✓".into());
    expected.env = env(&[("TERM", "xterm-256color"), ("SHELL", "/bin/bash")]);
    assert_eq!(h3, expected);
    assert_events(
        &e3,
        &[
            (0.5, 2, out("\x1b[2J\x1b[HCPU ▇▇▇▁▁ 60%\r\n")),
            (0.75, 3, out("Mem ▇▁▁▁▁ 20%\r\n")),
            (1.875, 4, out("\x1b[1mq\x1b[0m quit — done\r\n")),
        ],
    );
    for (rel, version) in [("same_v2.cast", 2), ("same_v1.cast", 1)] {
        let (mut header, events) = read(rel);
        assert_eq!(header.version, version, "{rel}: version");
        header.version = 3;
        if version == 1 {
            // v1's `duration` has no place in the model: it is kept as an unknown field.
            assert_eq!(header.extra.remove("duration"), Some(json!(1.875)));
        }
        assert_eq!(header, h3, "{rel}: header");
        assert_same_events(&events, &e3, 1e-9, rel);
    }
}

// ---------------------------------------------------------------------------------------------
// Tolerance

#[test]
fn tolerance_cases_read_like_their_clean_twin() {
    let (clean_header, clean_events) = read("clean.cast");
    assert_eq!(clean_header.title.as_deref(), Some("tolerance twin"));
    assert_events(
        &clean_events,
        &[
            (0.1, 2, out("one\r\n")),
            (0.3, 3, EventData::Marker("mark".into())),
            (0.6, 4, out("two ✓\r\n")),
            (1.0, 5, EventData::Exit(0)),
        ],
    );
    let cases: [(&str, [u64; 4]); 5] = [
        ("crlf.cast", [2, 3, 4, 5]),
        ("bom.cast", [2, 3, 4, 5]),
        ("no_final_newline.cast", [2, 3, 4, 5]),
        ("comments.cast", [5, 8, 10, 11]),
        ("all_tolerances.cast", [5, 8, 10, 11]),
    ];
    for (rel, lines) in cases {
        let (header, events) = read(rel);
        assert_eq!(header, clean_header, "{rel}: header");
        assert_same_events(&events, &clean_events, 0.0, rel);
        let got: Vec<u64> = events.iter().map(|e| e.line).collect();
        assert_eq!(got, lines, "{rel}: event lines");
    }
}

// ---------------------------------------------------------------------------------------------
// Round trips

#[test]
fn every_valid_fixture_round_trips_through_the_writer() {
    for rel in valid_fixtures() {
        let (header, events) = read(&rel);
        let bytes = write(&header, &events);
        let (back_header, back_events) = read_bytes(&bytes);
        let mut expected = header.clone();
        expected.version = 3;
        assert_eq!(back_header, expected, "{rel}: header after write→read");
        assert_same_events(&back_events, &events, 1e-6, &rel);
        let lines: Vec<u64> = back_events.iter().map(|e| e.line).collect();
        let want: Vec<u64> = (2..2 + events.len() as u64).collect();
        assert_eq!(lines, want, "{rel}: the writer puts one event per line");
        // Writing what was read back gives the same bytes: the writer is stable.
        assert_eq!(
            write(&back_header, &back_events),
            bytes,
            "{rel}: second write differs"
        );
    }
}

#[test]
fn theme_colours_are_typed_when_read_and_written_as_hex() {
    let palette = "#000:#aa0000:00AA00:#aa5500:#0000aa:#aa00aa:#00aaaa:#aaaaaa";
    let cast = format!(
        "{{\"version\": 3, \"term\": {{\"cols\": 4, \"rows\": 1, \"theme\": {{\"fg\": \"#FFF\", \
         \"bg\": \" #102030\", \"palette\": \"{palette}\"}}}}}}\n"
    );
    let (header, _) = read_bytes(cast.as_bytes());
    let theme = header.term.theme.clone().expect("a typed theme");
    assert_eq!(
        (theme.fg, theme.bg, theme.palette[2]),
        (Rgb(255, 255, 255), Rgb(0x10, 0x20, 0x30), Rgb(0, 0xaa, 0))
    );
    assert!(header.term.extra.is_empty());
    let written = String::from_utf8(write(&header, &[])).unwrap();
    assert!(
        written.contains(
            "\"theme\":{\"fg\":\"#ffffff\",\"bg\":\"#102030\",\"palette\":\"#000000:#aa0000:#00aa00:"
        ),
        "{written}"
    );
}

#[test]
fn a_theme_with_unreadable_colours_is_kept_as_it_was() {
    // As before colours were typed: such a cast reads; its theme is not used, but kept.
    for theme in [
        r##"{"fg": "white", "bg": "#000000", "palette": "#000000:#111111:#222222:#333333:#444444:#555555:#666666:#777777"}"##,
        r##"{"fg": "#ffffff", "bg": "#000000", "palette": "#000000:#111111"}"##,
        r##"{"bg": "#000000"}"##,
    ] {
        let cast = format!(
            "{{\"version\": 3, \"term\": {{\"cols\": 4, \"rows\": 1, \"theme\": {theme}}}}}\n[0.5, \"o\", \"a\"]\n"
        );
        let (header, events) = read_bytes(cast.as_bytes());
        assert_eq!(header.term.theme, None, "{theme}");
        let kept = &header.term.extra["theme"];
        assert_eq!(
            kept,
            &serde_json::from_str::<serde_json::Value>(theme).unwrap()
        );
        assert!(Theme::from_json(kept).is_err());
        // Written back as it was, so `convert` loses nothing.
        let (back, _) = read_bytes(&write(&header, &events));
        assert_eq!(back.term.extra["theme"], *kept, "{theme}");
    }
    // A theme of the wrong JSON type is still an error with its place.
    let bad = "{\"version\": 3, \"term\": {\"cols\": 4, \"rows\": 1, \"theme\": {\"fg\": 7}}}\n";
    let e = CastReader::new(Cursor::new(bad)).unwrap_err();
    assert!(
        e.to_string().contains("term.theme.fg\" must be a string"),
        "{e}"
    );
}

/// Writing rounds each absolute time once: 1000 intervals of 0.1 µs (below the written
/// precision of 1 µs) still add up, instead of each being written as 0.
#[test]
fn many_tiny_intervals_do_not_drift() {
    let header = Header::new(Size::default());
    for step in [1e-7, 4e-7, 6e-7, 1.23456789e-4] {
        let events: Vec<Event> = (1..=1000)
            .map(|k| Event {
                time: k as f64 * step,
                line: 0,
                data: out("."),
            })
            .collect();
        let (_, back) = read_bytes(&write(&header, &events));
        assert_eq!(back.len(), events.len());
        for (a, e) in back.iter().zip(&events) {
            assert!(
                (a.time - e.time).abs() <= MAX_TIME_ERROR,
                "step {step}: line {}: time {} != {}",
                a.line,
                a.time,
                e.time
            );
        }
    }
}

/// Microsecond quantization, plus a little room for f64 arithmetic (far below any drift).
const MAX_TIME_ERROR: f64 = 0.5e-6 + 1e-11;

fn text() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        4 => any::<char>(),
        2 => (0u32..0x20).prop_map(|c| char::from_u32(c).expect("C0 control")),
        1 => (0x7fu32..0xa0).prop_map(|c| char::from_u32(c).expect("DEL or C1 control")),
        1 => prop::sample::select(vec!['\u{1b}', '"', '\\', '/', '\u{2028}', '\u{feff}', '🎉']),
    ];
    vec(ch, 0..24).prop_map(|chars| chars.into_iter().collect())
}

fn event_data() -> impl Strategy<Value = EventData> {
    let other_code = prop_oneof![
        "[a-z][a-z0-9]{0,2}".prop_map(String::from),
        text().prop_filter("a non-empty code", |c| !c.is_empty()),
    ]
    .prop_filter("an unknown code", |c| {
        !matches!(c.as_str(), "o" | "i" | "m" | "r" | "x")
    });
    prop_oneof![
        text().prop_map(EventData::Output),
        text().prop_map(EventData::Input),
        text().prop_map(EventData::Marker),
        (1u16..=2_000, 1u16..=2_000).prop_map(|(c, r)| EventData::Resize(size(c, r))),
        any::<i32>().prop_map(EventData::Exit),
        (other_code, text()).prop_map(|(code, data)| EventData::Other { code, data }),
    ]
}

/// Events at the running sums of `intervals`.
fn events_at(intervals: Vec<(f64, EventData)>) -> Vec<Event> {
    let mut time = 0.0;
    intervals
        .into_iter()
        .map(|(interval, data)| {
            time += interval;
            Event {
                time,
                line: 0,
                data,
            }
        })
        .collect()
}

fn assert_round_trip(events: &[Event]) -> Result<(), TestCaseError> {
    let header = Header::new(size(80, 24));
    let bytes = write(&header, events);
    let (back_header, back) = read_bytes(&bytes);
    prop_assert_eq!(back_header, header);
    prop_assert_eq!(back.len(), events.len());
    for (a, e) in back.iter().zip(events) {
        prop_assert_eq!(&a.data, &e.data);
        prop_assert!(
            (a.time - e.time).abs() <= MAX_TIME_ERROR,
            "line {}: time {} != {} (error {:e})",
            a.line,
            a.time,
            e.time,
            (a.time - e.time).abs()
        );
    }
    if let (Some(a), Some(e)) = (back.last(), events.last()) {
        prop_assert!(
            (a.time - e.time).abs() <= MAX_TIME_ERROR,
            "last event drifted: {} != {}",
            a.time,
            e.time
        );
    }
    Ok(())
}

proptest! {
    #[test]
    fn any_events_round_trip(
        intervals in vec(
            (prop_oneof![Just(0.0), 1e-7..1e-3f64, 0.0..10.0f64], event_data()),
            0..64,
        )
    ) {
        assert_round_trip(&events_at(intervals))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// 1000 events with tiny intervals: the absolute times never drift.
    #[test]
    fn long_sequences_of_tiny_intervals_do_not_drift(
        intervals in vec((1e-7..1e-3f64, event_data()), 1000)
    ) {
        assert_round_trip(&events_at(intervals))?;
    }
}

// ---------------------------------------------------------------------------------------------
// The reader never panics

/// Reads `bytes` to the end or the first error; a panic fails the property.
fn read_anything(bytes: &[u8]) -> Result<usize, tuicast::cast::CastError> {
    let reader = CastReader::new(Cursor::new(bytes))?;
    let mut n = 0;
    for event in reader {
        event?;
        n += 1;
    }
    Ok(n)
}

/// Reads `bytes` (skimming or not) to the end or the first error.
fn read_all(bytes: &[u8], skim: bool) -> Result<Vec<Event>, tuicast::cast::CastError> {
    let mut reader = CastReader::new(Cursor::new(bytes))?;
    if skim {
        reader = reader.skim();
    }
    reader.collect()
}

/// Bytes that JSON and casts are made of, to reach deeper into the parser than noise does.
fn cast_bytes() -> impl Strategy<Value = Vec<u8>> {
    let alphabet: Vec<u8> =
        b"[]{}\",:0123456789.-+eE \t\r\n#\\uxormiz3vsnte\xff\xc3\xa9\xef\xbb\xbf".to_vec();
    prop_oneof![
        vec(any::<u8>(), 0..300),
        vec(prop::sample::select(alphabet), 0..300),
        // A valid header first, then noise: exercises the event parser.
        vec(
            prop::sample::select(b"[]\",0123456789.-e orimxz\\u\n".to_vec()),
            0..300
        )
        .prop_map(|tail| {
            let mut bytes = b"{\"version\": 3, \"term\": {\"cols\": 80, \"rows\": 24}}\n".to_vec();
            bytes.extend(tail);
            bytes
        }),
    ]
}

#[derive(Debug, Clone)]
enum Mutation {
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let byte = prop_oneof![
        any::<u8>(),
        prop::sample::select(b"[]{}\",:-.0e\n\r#\\\xff".to_vec())
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Mutation::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 1usize..40).prop_map(|(i, n)| Mutation::Duplicate(i, n)),
    ]
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let len = bytes.len().max(1);
        match *m {
            Mutation::Set(i, b) if !bytes.is_empty() => bytes[i % len] = b,
            Mutation::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
            Mutation::Delete(i) if !bytes.is_empty() => {
                bytes.remove(i % len);
            }
            Mutation::Truncate(i) => bytes.truncate(i % (bytes.len() + 1)),
            Mutation::Duplicate(i, n) if !bytes.is_empty() => {
                let start = i % len;
                let end = (start + n).min(bytes.len());
                let copy = bytes[start..end].to_vec();
                bytes.splice(start..start, copy);
            }
            _ => {}
        }
    }
    bytes
}

/// The bytes of every valid fixture, read once.
fn valid_bytes() -> &'static [Vec<u8>] {
    static BYTES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    BYTES.get_or_init(|| {
        valid_fixtures()
            .iter()
            .map(|rel| std::fs::read(fixture(&format!("valid/{rel}"))).expect("read fixture"))
            .collect()
    })
}

/// A valid fixture with a few random mutations.
fn mutated_cast() -> impl Strategy<Value = Vec<u8>> {
    (any::<prop::sample::Index>(), vec(mutation(), 1..8))
        .prop_map(|(which, mutations)| mutate(which.get(valid_bytes()).clone(), &mutations))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn reading_arbitrary_bytes_never_panics(bytes in cast_bytes()) {
        let _ = read_anything(&bytes);
    }

    #[test]
    fn reading_a_mutated_valid_cast_never_panics(bytes in mutated_cast()) {
        let _ = read_anything(&bytes);
    }

    /// A skimming reader (`CastReader::skim`, used to name checkpoints) reads what a full
    /// reader reads, less the data of output and input events, and fails where it fails.
    #[test]
    fn skimming_reads_the_same_events_and_errors(
        bytes in prop_oneof![cast_bytes(), mutated_cast()]
    ) {
        let full = read_all(&bytes, false);
        let skim = read_all(&bytes, true);
        let blank = |events: Vec<Event>| -> Vec<Event> {
            events
                .into_iter()
                .map(|mut e| {
                    match &mut e.data {
                        EventData::Output(d) | EventData::Input(d) => d.clear(),
                        _ => {}
                    }
                    e
                })
                .collect()
        };
        match (full, skim) {
            (Ok(a), Ok(b)) => prop_assert_eq!(blank(a), b),
            (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
            (a, b) => prop_assert!(false, "full read {:?}, skim {:?}", a.err(), b.err()),
        }
    }

    /// Whatever the input, an error has a place (line and column from 1) unless it is an
    /// I/O error, and holds no raw ESC, so it is safe to print.
    #[test]
    fn errors_on_any_input_are_placed_and_printable(
        bytes in prop_oneof![cast_bytes(), mutated_cast()]
    ) {
        if let Err(err) = read_anything(&bytes) {
            let shown = err.to_string();
            prop_assert!(!shown.contains('\x1b'), "raw ESC in `{}`", shown.escape_debug());
            if err.kind != CastErrorKind::Io {
                prop_assert!(err.line >= 1 && err.column >= 1, "unplaced error: {:?}", err);
            }
        }
    }
}
