//! Terminal conformance: every checkpoint of the corpus in `tests/conformance/` (real programs
//! recorded in tmux by `scripts/conformance.py` from the tuicast scenarios in `scenarios/`)
//! replays with tuicast's native engine (the default) to the oracle's screen: the same character in every cell, and the same foreground, background,
//! bold, dim, italic, underline, inverse, blink, strikethrough and hidden (conceal, SGR 8).
//!
//! The oracle of a checkpoint is tmux's `capture-pane -p -e -N`, or @xterm/headless replaying
//! the same cast where tmux is known to be wrong, or xterm itself (X11, its print-screen) for
//! what neither implements (the manifest says which, and why). tmux's
//! capture stops at the last cell written on each line; the cells past it were erased, and
//! their style (the background of the erase) is taken from @xterm/headless.
//!
//! Checkpoints they cannot match yet are in [`KNOWN`] with the reason, and the cases of a
//! feature one of them lacks in [`LACKS`] with the number of checkpoints it misses; the test
//! fails when one of them starts to agree, or a count changes. Determinism: replaying a cast twice, or with its output events cut
//! into pieces (one character each, or at random boundaries, inside escape sequences too),
//! gives identical screens at every checkpoint, with every engine. `docs/conformance.md` is generated from the same run and must be
//! current: `TUICAST_BLESS_CONFORMANCE=1 cargo test --test it conformance` rewrites it. It scores
//! every screen on each engine of [`engines`] with the one [`compare`]: tuicast's native engine,
//! avt 0.17 as the crate is (`engine = "avt"`, what asciinema's player shows), vt100, and
//! alacritty_terminal (`raw.rs`), and the bundled example suite's screens by their text.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;
use tuicast::replay;
use tuicast::rgb::Rgb;
use tuicast::size::Size;
use tuicast::term::{Attrs, Color, EngineKind, EngineOptions, EngineSpec, Screen};
use unicode_width::UnicodeWidthChar;

use crate::util::root;

mod raw;

/// The environment variable that rewrites `docs/conformance.md`.
const BLESS: &str = "TUICAST_BLESS_CONFORMANCE";

/// The environment variable naming an engine of the docs' table (`vt100`, `avt 0.17`,
/// `alacritty_terminal 0.26`) whose every disagreement the run prints, cell by cell.
const REPORT: &str = "TUICAST_CONFORMANCE_REPORT";

/// Checkpoints where the native engine does not agree with the oracle, and why:
/// `(case, checkpoint, engine, why)`.
const KNOWN: &[(&str, &str, EngineKind, &str)] = &[];

/// Cases that test what the native engine lacks: `(case, engine, disagreements, why)`.
/// The engine disagrees with the oracle on exactly that many of the case's checkpoints: it
/// agrees on the others (a menu, a screen the feature does not touch) and must go on agreeing
/// there, so a count that grows is a failure, and so is one that shrinks (update it).
const LACKS: &[(&str, EngineKind, usize, &str)] = &[];

#[test]
fn the_native_engine_agrees_with_the_oracle_on_every_checkpoint() {
    let results = results();
    let total = results.len();
    assert!(total >= 80, "only {total} checkpoints in the corpus");
    let mut failures = Vec::new();
    // (checkpoints, disagreements) of each case of LACKS
    let mut lacking: HashMap<(&str, EngineKind), (usize, usize)> =
        LACKS.iter().map(|k| ((k.0, k.1), (0, 0))).collect();
    for r in results {
        // The native engine (the default): the first of `engines`. The others are scored
        // in the docs only: where avt or vt100 differs from a real terminal, it is what
        // differential replay shows.
        for (scored, result) in engines().iter().zip(&r.engines).take(1) {
            let Scored::Tuicast(kind) = scored else {
                unreachable!("the first engine is tuicast's")
            };
            if let Some((seen, n)) = lacking.get_mut(&(r.case.as_str(), *kind)) {
                *seen += 1;
                *n += usize::from(!result.agrees());
                continue;
            }
            match (result.agrees(), known(&r.case, &r.checkpoint, *kind)) {
                (true, Some(_)) => failures.push(format!(
                    "{}::{} now agrees with the oracle on {}: remove it from KNOWN in \
                     tests/it/conformance.rs",
                    r.case,
                    r.checkpoint,
                    scored.name()
                )),
                (false, None) => failures.push(format!(
                    "{}::{} ({}, oracle {}): {}",
                    r.case,
                    r.checkpoint,
                    scored.name(),
                    r.oracle,
                    result.report
                )),
                _ => {}
            }
        }
    }
    for &(case, kind, want, _) in LACKS {
        let (seen, n) = lacking[&(case, kind)];
        if seen == 0 {
            failures.push(format!(
                "LACKS names {case}, which the corpus does not have"
            ));
        } else if n != want {
            failures.push(format!(
                "{case}: {kind} disagrees with the oracle on {n} of its {seen} checkpoints, \
                 not {want} as LACKS in tests/it/conformance.rs says{}",
                if n > want {
                    " (one that agreed does not: run with TUICAST_CONFORMANCE_REPORT)"
                } else {
                    ""
                }
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} checkpoints:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Cases recorded with `[conformance] state = true` keep tmux's view of the terminal state at
/// each checkpoint (`tmux.state` in the manifest): the pane title, whether a bell rang so far,
/// the newest paste buffer (OSC 52) and the history. The native and vt100 engines' screens
/// say the same (avt keeps none of it but the history): the
/// title, a bell by then (tmux's flag never resets; tuicast counts since the last checkpoint,
/// so the counts are summed), the latest clipboard write, and the scrolled-off lines.
#[test]
fn terminal_state_agrees_with_tmux() {
    let dir = root().join("tests/conformance");
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let mut checked = 0;
    for case in manifest["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        if case["checkpoints"][0]["tmux"]["state"].is_null() {
            continue;
        }
        let cast = dir.join("cases").join(format!("{name}.cast"));
        for kind in EngineKind::ALL
            .into_iter()
            .filter(|&k| k != EngineKind::Avt)
        {
            let cps = replay::checkpoints(tuicast::cast::open(&cast).unwrap(), kind).unwrap();
            let (mut bells, mut last_write) = (0u64, None);
            for (cp, want) in cps.iter().zip(case["checkpoints"].as_array().unwrap()) {
                assert_eq!(cp.name, want["name"].as_str().unwrap());
                let at = format!("{name}::{} ({kind})", cp.name);
                let tmux = &want["tmux"]["state"];
                let s = &cp.screen;
                bells += u64::from(s.state.bells);
                if let Some(w) = s.state.clipboard.last() {
                    last_write = Some(w.text.clone());
                }
                assert_eq!(s.title.as_deref(), tmux["title"].as_str(), "{at}: title");
                assert_eq!(bells > 0, tmux["bell"].as_bool().unwrap(), "{at}: bell");
                assert_eq!(
                    last_write.as_deref(),
                    tmux["buffer"].as_str(),
                    "{at}: clipboard"
                );
                let history: Vec<&str> = tmux["history"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_str().unwrap())
                    .collect();
                assert!(!history.is_empty(), "{at}: the case scrolls");
                assert_eq!(
                    s.state.scrollback.lines(),
                    history.as_slice(),
                    "{at}: scrollback"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 4, "only {checked} checkpoints with tmux's state");
}

/// With the VT100's DECCOLM (`[terminal] deccolm = true`, `--deccolm`) the native engine
/// gives the screens @xterm/headless gives with `windowOptions.setWinLines`
/// (`tests/conformance/xterm-deccolm/`, the manifest's `xterm_deccolm`): 132 columns after
/// `CSI ? 3 h`, as a VT100 and xterm with its `c132` resource on show them. (By default
/// DECCOLM is ignored: the test above.) Where xterm itself is the oracle and DECCOLM leaves
/// the size as it was, xterm's screens; not for an engine in a case of [`LACKS`].
#[test]
fn the_deccolm_option_gives_the_vt100s_132_column_screens() {
    let dir = root().join("tests/conformance");
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let (mut checked, mut wide, mut failures) = (0, 0, Vec::new());
    for (case, kind) in manifest["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c, EngineKind::Native))
    {
        let spec = EngineSpec {
            kind,
            options: EngineOptions::default().with_deccolm(true),
        };
        let name = case["name"].as_str().unwrap();
        let cps = case["checkpoints"].as_array().unwrap();
        if cps.iter().all(|cp| cp.get("xterm_deccolm").is_none()) {
            continue;
        }
        if LACKS.iter().any(|l| l.0 == name && l.1 == kind) {
            continue; // (the engine lacks what the case tests: the test above counts it)
        }
        let cast = dir.join("cases").join(format!("{name}.cast"));
        let screens: BTreeMap<String, Screen> =
            replay::checkpoints(tuicast::cast::open(&cast).unwrap(), spec)
                .unwrap()
                .into_iter()
                .map(|cp| (cp.name, cp.screen))
                .collect();
        for cp in cps {
            let checkpoint = cp["name"].as_str().unwrap();
            // Where the oracle is xterm itself (for what tmux or xterm.js does not implement:
            // VT52 mode, the rectangular operations, CHT, ...), xterm's screen when DECCOLM
            // leaves the size as it was; else the screen xterm.js gives with DECCOLM.
            let (which, folder) = if cp["oracle"] == "xterm-x11"
                && cp["xterm-x11"]["size"] == cp["xterm_deccolm"]["size"]
            {
                ("xterm-x11", "xterm-x11")
            } else {
                ("xterm_deccolm", "xterm-deccolm")
            };
            let oracle = &cp[which];
            let size: Size = oracle["size"].as_str().unwrap().parse().unwrap();
            let path = dir
                .join(folder)
                .join(name)
                .join(format!("{checkpoint}.ans"));
            let grid = parse_ans(&fs::read_to_string(path).unwrap(), size);
            let cursor = (
                oracle["cursor"][0].as_u64().unwrap() as u16,
                oracle["cursor"][1].as_u64().unwrap() as u16,
            );
            let r = compare("tuicast", &grid, size, cursor, &screens[checkpoint]);
            checked += 1;
            wide += usize::from(size.cols == 132);
            if !r.agrees() {
                failures.push(format!("{name}::{checkpoint} ({kind}): {}", r.report));
            }
        }
    }
    assert!(
        wide >= 11,
        "only {wide} of {checked} checkpoints are 132 columns wide"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn docs_conformance_md_is_current() {
    let path = root().join("docs/conformance.md");
    let want = render_docs(results());
    if std::env::var_os(BLESS).is_some() {
        fs::write(&path, &want).unwrap();
        return;
    }
    let have = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/conformance.md is out of date; refresh it with\n    \
         {BLESS}=1 cargo test --test it conformance"
    );
}

#[test]
fn the_oracle_reader_reads_tmux_captures() {
    let size = Size { cols: 6, rows: 2 };
    let o = parse_ans(
        "\x1b[1m\x1b[31mA\x1b[0m\x0elq\x0f日\n\x1b[4:3;48;5;200mu",
        size,
    );
    assert_eq!(o[0][0].text, "A");
    assert_eq!(o[0][0].fg, Color::Indexed(1));
    assert!(o[0][0].attrs.bold);
    assert!(!o[0][1].attrs.bold);
    assert_eq!(o[0][1].text, "┌");
    assert_eq!(o[0][2].text, "─");
    assert_eq!((o[0][3].text.as_str(), o[0][3].width), ("日", 2));
    assert_eq!((o[0][4].text.as_str(), o[0][4].width), ("", 0));
    assert!(o[0][4].captured && !o[0][5].captured);
    assert!(o[1][0].attrs.underline);
    assert_eq!(o[1][0].bg, Color::Indexed(200));
    let o = parse_ans("a\x1b[8mb\x1b[0m\x1b[39m\x1b[49mc\x1b[8;28md", size);
    let hidden: Vec<bool> = o[0][..4].iter().map(|c| c.attrs.hidden).collect();
    assert_eq!(hidden, [false, true, false, false]);
}

/// The corpus is recorded from tuicast scenarios (`tests/conformance/scenarios/NAME.toml`,
/// driven in tmux by `scripts/conformance.py`): each must be one tuicast's own parser accepts,
/// with the script's `[conformance]` table last, and its checkpoints (its `snapshot` steps, then
/// `end`) and their oracles must be the manifest's.
#[test]
fn every_scenario_is_a_tuicast_scenario_with_the_manifests_checkpoints() {
    let manifest: Value = serde_json::from_str(
        &fs::read_to_string(root().join("tests/conformance/manifest.json")).unwrap(),
    )
    .unwrap();
    let cases: BTreeMap<&str, &Value> = manifest["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c))
        .collect();
    let dir = root().join("tests/conformance/scenarios");
    let mut names = Vec::new();
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let text = fs::read_to_string(&path).unwrap();
        // tuicast rejects unknown keys: it reads the file up to the `[conformance]` table,
        // so its places (line:column) are the file's own.
        let cut = text
            .find("\n[conformance]")
            .unwrap_or_else(|| panic!("{name}: no [conformance] table"));
        let (tuicast_part, conformance_part) = text.split_at(cut + 1);
        let file = tuicast::config::CastFile::parse(
            &path,
            tuicast_part,
            &tuicast::config::Regions::default(),
        )
        .unwrap_or_else(|e| panic!("tuicast does not accept {name}.toml: {e}"));
        let err =
            tuicast::config::CastFile::parse(&path, &text, &tuicast::config::Regions::default())
                .unwrap_err();
        assert!(
            err.to_string().contains("unknown field `conformance`"),
            "{name}: {err}"
        );
        let rest: toml::Table = toml::from_str(conformance_part).unwrap();
        assert_eq!(
            rest.keys().collect::<Vec<_>>(),
            ["conformance"],
            "{name}: [conformance] must be the last table"
        );
        let conformance = rest["conformance"].as_table().unwrap();
        let xterm = conformance.get("xterm").and_then(|x| x.as_table());
        let x11 = conformance.get("x11").and_then(|x| x.as_table());
        let scenario = file.scenario().unwrap();
        let mut checkpoints: Vec<&str> = scenario
            .steps
            .iter()
            .filter_map(|s| match &s.action {
                tuicast::record::Action::Snapshot(n) => Some(n.as_str()),
                _ => None,
            })
            .collect();
        checkpoints.push("end");
        let ends_with_exit = scenario
            .steps
            .last()
            .is_some_and(|s| matches!(s.action, tuicast::record::Action::Exit(_)));
        let cut_flag = conformance.get("cut").and_then(|c| c.as_bool()) == Some(true);
        assert!(
            cut_flag != ends_with_exit,
            "{name}: the last step is `exit`, or [conformance] says cut = true"
        );

        let case = cases
            .get(name.as_str())
            .unwrap_or_else(|| panic!("{name}: not in manifest.json"));
        let size = scenario.size.unwrap_or(Size { cols: 80, rows: 24 });
        assert_eq!(
            case["size"].as_str().unwrap(),
            format!("{}x{}", size.cols, size.rows),
            "{name}: size"
        );
        assert_eq!(
            case["program"].as_str(),
            conformance.get("program").and_then(|p| p.as_str()),
            "{name}: program"
        );
        let recorded: Vec<(&str, &str, Option<&str>)> = case["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap(),
                    c["oracle"].as_str().unwrap(),
                    c["why"].as_str(),
                )
            })
            .collect();
        let wanted: Vec<(&str, &str, Option<&str>)> = checkpoints
            .iter()
            .map(
                |&n| match (x11.and_then(|x| x.get(n)), xterm.and_then(|x| x.get(n))) {
                    (Some(why), _) => (n, "xterm-x11", why.as_str()),
                    (None, Some(why)) => (n, "xterm", why.as_str()),
                    (None, None) => (n, "tmux", None),
                },
            )
            .collect();
        assert_eq!(
            wanted, recorded,
            "{name}: the scenario's checkpoints and oracles are not the manifest's"
        );
        if let (Some(a), Some(b)) = (xterm, x11) {
            let both: Vec<&String> = a.keys().filter(|k| b.contains_key(*k)).collect();
            assert!(
                both.is_empty(),
                "{name}: [conformance.xterm] and [conformance.x11] both name {both:?}"
            );
        }
        for (table, x) in [("xterm", xterm), ("x11", x11)] {
            for k in x.into_iter().flat_map(|x| x.keys()) {
                assert!(
                    checkpoints.contains(&k.as_str()),
                    "{name}: [conformance.{table}] {k}"
                );
            }
        }
        names.push(name);
    }
    names.sort();
    let mut in_manifest: Vec<&str> = cases.keys().copied().collect();
    in_manifest.sort();
    assert_eq!(names, in_manifest, "one scenario per case of manifest.json");
}

/// Casts whose output is re-split for the determinism tests: line drawing, charsets, colours,
/// wide characters and combining marks, scroll regions, a resize, 132 columns.
const SPLIT_CASES: &[&str] = &[
    "vttest-1-cursor-movements",
    "vttest-3-character-sets",
    "dialog-menu",
    "unicode",
    "truecolor",
    "scroll-regions",
    "resize",
];

#[test]
fn replaying_the_corpus_twice_gives_identical_screens() {
    for cast in casts() {
        for kind in EngineKind::ALL {
            let once = replay_chunked(&cast, kind, &mut |_| usize::MAX);
            let twice = replay_chunked(&cast, kind, &mut |_| usize::MAX);
            assert!(
                once == twice,
                "{}: {kind} differs between two replays",
                cast.display()
            );
        }
    }
}

#[test]
fn output_split_at_every_character_gives_identical_screens() {
    // One character per feed: every boundary at once, inside escape sequences and UTF-8
    // strings too (the engines see characters, never bytes).
    for name in SPLIT_CASES {
        let cast = root().join(format!("tests/conformance/cases/{name}.cast"));
        for kind in EngineKind::ALL {
            let whole = replay_chunked(&cast, kind, &mut |_| usize::MAX);
            let split = replay_chunked(&cast, kind, &mut |_| 1);
            assert_eq!(whole.len(), split.len());
            for (a, b) in whole.iter().zip(&split) {
                assert!(
                    a == b,
                    "{name}: {kind} @{}: one character per feed differs",
                    a.0
                );
            }
        }
    }
}

#[test]
fn output_split_at_random_boundaries_gives_identical_screens() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |len: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        1 + (seed % (len as u64).clamp(1, 24)) as usize
    };
    for name in SPLIT_CASES {
        let cast = root().join(format!("tests/conformance/cases/{name}.cast"));
        for kind in EngineKind::ALL {
            let whole = replay_chunked(&cast, kind, &mut |_| usize::MAX);
            for round in 0..3 {
                let split = replay_chunked(&cast, kind, &mut next);
                assert!(
                    whole == split,
                    "{name}: {kind}: random chunking {round} differs"
                );
            }
        }
    }
}

/// How many checkpoints of the bundled example suite each engine of [`engines`] replays to
/// tmux's text, and of how many.
fn example_suite_scores() -> (Vec<usize>, usize) {
    let oracle = root().join("tests/fixtures/examples-oracle");
    let mut agree = vec![0; engines().len()];
    let mut total = 0;
    for cast in casts_in(&root().join("casts")) {
        let name = cast.file_stem().unwrap().to_str().unwrap();
        for (i, engine) in engines().iter().enumerate() {
            let screens: Vec<(String, Screen)> = match engine {
                Scored::Tuicast(kind) => {
                    replay::checkpoints(tuicast::cast::open(&cast).unwrap(), *kind)
                        .unwrap()
                        .into_iter()
                        .map(|cp| (cp.name, cp.screen))
                        .collect()
                }
                Scored::Raw(kind) => raw::checkpoints(*kind, &cast),
            };
            if i == 0 {
                total += screens.len();
            }
            for (checkpoint, screen) in screens {
                let want = fs::read_to_string(oracle.join(name).join(format!("{checkpoint}.txt")))
                    .unwrap_or_else(|e| panic!("{name}::{checkpoint}: {e}"));
                agree[i] += usize::from(screen.text().trim_end() == want.trim_end());
            }
        }
    }
    (agree, total)
}

fn casts() -> Vec<std::path::PathBuf> {
    casts_in(&root().join("tests/conformance/cases"))
}

fn casts_in(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cast"))
        .collect();
    out.sort();
    out
}

/// Replays a cast feeding each output event in pieces of `piece(remaining chars)` characters;
/// returns every checkpoint's name and screen.
fn replay_chunked(
    cast: &Path,
    kind: EngineKind,
    piece: &mut dyn FnMut(usize) -> usize,
) -> Vec<(String, Screen)> {
    use tuicast::cast::{Event, EventData};
    let reader = tuicast::cast::open(cast).unwrap();
    let mut replayer = replay::Replayer::new(reader.header(), kind);
    let mut out = Vec::new();
    for event in reader {
        let event = event.unwrap();
        if let EventData::Output(text) = &event.data {
            let chars: Vec<char> = text.chars().collect();
            let mut at = 0;
            while at < chars.len() {
                let n = piece(chars.len() - at).min(chars.len() - at);
                let part: String = chars[at..at + n].iter().collect();
                replayer.apply(&Event {
                    data: EventData::Output(part),
                    ..event.clone()
                });
                at += n;
            }
        } else if let Some(name) = replayer.apply(&event) {
            out.push((name, replayer.screen()));
        }
    }
    let end = replayer.finish();
    out.push((end.name, end.screen));
    out
}

// ---------------------------------------------------------------------------------------------

/// An engine the corpus is scored on: one of tuicast's ([`EngineKind`]: the native engine,
/// the default; avt 0.17 as the crate is; vt100), or one only these tests replay with
/// ([`raw::RawKind`]: alacritty_terminal).
#[derive(Debug, Clone, Copy)]
enum Scored {
    Tuicast(EngineKind),
    Raw(raw::RawKind),
}

impl Scored {
    fn name(self) -> &'static str {
        match self {
            Scored::Tuicast(EngineKind::Native) => "tuicast (native)",
            Scored::Tuicast(EngineKind::Avt) => "avt 0.17",
            Scored::Tuicast(kind) => kind.name(),
            Scored::Raw(kind) => kind.name(),
        }
    }
}

/// The engines scored, in the docs' column order: tuicast's native engine (the default)
/// first, the one [`the_native_engine_agrees_with_the_oracle_on_every_checkpoint`] holds to
/// every screen; then avt 0.17, vt100 and alacritty_terminal.
fn engines() -> Vec<Scored> {
    let mut out: Vec<Scored> = EngineKind::ALL
        .iter()
        .map(|&k| Scored::Tuicast(k))
        .collect();
    out.extend(raw::RawKind::ALL.iter().map(|&k| Scored::Raw(k)));
    out
}

/// One checkpoint of the corpus and how each engine did.
struct Outcome {
    case: String,
    program: String,
    checkpoint: String,
    oracle: String,
    /// In the order of [`engines`].
    engines: Vec<EngineResult>,
}

struct EngineResult {
    text_cells: usize,
    style_cells: usize,
    size: bool,
    cursor: bool,
    report: String,
}

impl EngineResult {
    fn agrees(&self) -> bool {
        self.text_agrees() && self.style_cells == 0
    }

    fn text_agrees(&self) -> bool {
        self.size && self.cursor && self.text_cells == 0
    }

    fn summary(&self) -> String {
        if self.agrees() {
            return "✓".into();
        }
        if !self.size {
            return "✗ size".into();
        }
        let mut parts = Vec::new();
        if !self.cursor {
            parts.push("cursor".to_string());
        }
        if self.text_cells > 0 {
            parts.push(format!("text {}", self.text_cells));
        }
        if self.style_cells > 0 {
            parts.push(format!("style {}", self.style_cells));
        }
        format!("✗ {}", parts.join(", "))
    }
}

fn known(case: &str, checkpoint: &str, kind: EngineKind) -> Option<&'static str> {
    KNOWN
        .iter()
        .find(|(c, p, k, _)| *c == case && *p == checkpoint && *k == kind)
        .map(|(_, _, _, why)| *why)
}

fn results() -> &'static [Outcome] {
    static RESULTS: OnceLock<Vec<Outcome>> = OnceLock::new();
    RESULTS.get_or_init(|| run_corpus(&root().join("tests/conformance")))
}

fn run_corpus(dir: &Path) -> Vec<Outcome> {
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let mut out = Vec::new();
    for case in manifest["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let cast = dir.join("cases").join(format!("{name}.cast"));
        let screens: Vec<BTreeMap<String, Screen>> = engines()
            .iter()
            .map(|engine| match engine {
                Scored::Tuicast(kind) => {
                    replay::checkpoints(tuicast::cast::open(&cast).unwrap(), *kind)
                        .unwrap()
                        .into_iter()
                        .map(|cp| (cp.name, cp.screen))
                        .collect()
                }
                Scored::Raw(kind) => raw::checkpoints(*kind, &cast).into_iter().collect(),
            })
            .collect();
        for cp in case["checkpoints"].as_array().unwrap() {
            let checkpoint = cp["name"].as_str().unwrap().to_string();
            let oracle = cp["oracle"].as_str().unwrap().to_string();
            let load = |which: &str| -> Option<(Size, Vec<Vec<OCell>>)> {
                let size: Size = cp[which]["size"].as_str()?.parse().ok()?;
                let path = dir.join(which).join(name).join(format!("{checkpoint}.ans"));
                let text = fs::read_to_string(path).ok()?;
                Some((size, parse_ans(&text, size)))
            };
            let (size, mut grid) = load(&oracle).expect("oracle screen");
            if oracle == "tmux" || oracle == "xterm-x11" {
                // Erased cells past the end of tmux's capture (or xterm's print): their style
                // from @xterm/headless. (The cases xterm itself is the oracle of test what
                // xterm.js does not implement: there only the rows whose text it got right.)
                if let Some((xsize, xgrid)) = load("xterm") {
                    if xsize == size {
                        fill_uncaptured(&mut grid, &xgrid, oracle == "xterm-x11");
                    }
                }
            }
            let cursor = &cp[&oracle]["cursor"];
            let cursor = (
                cursor[0].as_u64().unwrap() as u16,
                cursor[1].as_u64().unwrap() as u16,
            );
            let engines = engines()
                .iter()
                .zip(&screens)
                .map(|(engine, by_name)| {
                    let engine = engine.name();
                    let screen = by_name.get(&checkpoint).unwrap_or_else(|| {
                        panic!("{name}: {engine} has no checkpoint {checkpoint}")
                    });
                    let r = compare(engine, &grid, size, cursor, screen);
                    if std::env::var(REPORT).is_ok_and(|v| v == engine) && !r.agrees() {
                        eprintln!("{name}::{checkpoint}: {}", r.report);
                    }
                    r
                })
                .collect();
            out.push(Outcome {
                case: name.to_string(),
                program: case["program"].as_str().unwrap_or("").to_string(),
                checkpoint,
                oracle,
                engines,
            });
        }
    }
    out
}

/// A cell of an oracle screen.
#[derive(Debug, Clone)]
struct OCell {
    text: String,
    width: u8,
    fg: Color,
    bg: Color,
    attrs: Attrs,
    /// False past the end of what the capture wrote on this row.
    captured: bool,
}

impl OCell {
    fn blank() -> Self {
        OCell {
            text: " ".into(),
            width: 1,
            fg: Color::Default,
            bg: Color::Default,
            attrs: Attrs::default(),
            captured: false,
        }
    }
}

fn fill_uncaptured(grid: &mut [Vec<OCell>], from: &[Vec<OCell>], same_text_only: bool) {
    for (row, xrow) in grid.iter_mut().zip(from) {
        if same_text_only && row.iter().zip(xrow).any(|(c, x)| c.text != x.text) {
            continue;
        }
        for (cell, x) in row.iter_mut().zip(xrow) {
            if !cell.captured && x.text == " " {
                cell.fg = x.fg;
                cell.bg = x.bg;
                cell.attrs = x.attrs;
            }
        }
    }
}

/// DEC special graphics (between SO and SI in tmux's capture), as xterm and tmux draw them.
fn dec_graphics(ch: char) -> char {
    const TABLE: &str = "◆▒␉␌␍␊°±␤␋┘┐┌└┼⎺⎻─⎼⎽├┤┴┬│≤≥π≠£·";
    if ('`'..='~').contains(&ch) {
        TABLE.chars().nth(ch as usize - 0x60).unwrap()
    } else {
        ch
    }
}

/// Reads a screen written as `tmux capture-pane -p -e -N` writes it.
fn parse_ans(text: &str, size: Size) -> Vec<Vec<OCell>> {
    let mut rows = Vec::new();
    let mut pen = OCell {
        captured: true,
        ..OCell::blank()
    };
    let mut graphics = false;
    for line in text.split('\n').take(size.rows as usize) {
        let mut row: Vec<OCell> = Vec::new();
        let mut chars = line.chars().peekable();
        while let Some(ch) = chars.next() {
            match ch {
                '\x1b' => {
                    if chars.peek() == Some(&'[') {
                        chars.next();
                        let mut params = String::new();
                        for c in chars.by_ref() {
                            if ('\x40'..='\x7e').contains(&c) {
                                if c == 'm' {
                                    sgr(&mut pen, &params);
                                }
                                break;
                            }
                            params.push(c);
                        }
                    } else {
                        chars.next();
                    }
                }
                '\x0e' => graphics = true,
                '\x0f' => graphics = false,
                c => {
                    let c = if graphics { dec_graphics(c) } else { c };
                    match c.width().unwrap_or(0) {
                        0 => {
                            if let Some(last) = row.iter_mut().rev().find(|c| c.width > 0) {
                                last.text.push(c);
                            }
                        }
                        w => {
                            row.push(OCell {
                                text: c.to_string(),
                                width: w as u8,
                                ..pen.clone()
                            });
                            if w == 2 {
                                row.push(OCell {
                                    text: String::new(),
                                    width: 0,
                                    ..pen.clone()
                                });
                            }
                        }
                    }
                }
            }
        }
        row.resize(row.len().max(size.cols as usize), OCell::blank());
        rows.push(row);
    }
    rows.resize(size.rows as usize, vec![OCell::blank(); size.cols as usize]);
    rows
}

fn sgr(pen: &mut OCell, params: &str) {
    let groups: Vec<Vec<u32>> = params
        .split(';')
        .map(|g| g.split(':').map(|n| n.parse().unwrap_or(0)).collect())
        .collect();
    let mut i = 0;
    while i < groups.len() {
        let g = &groups[i];
        let a = &mut pen.attrs;
        match g[0] {
            0 => {
                pen.fg = Color::Default;
                pen.bg = Color::Default;
                *a = Attrs::default();
            }
            1 => a.bold = true,
            2 => a.dim = true,
            3 => a.italic = true,
            4 => a.underline = g.get(1).is_none_or(|&s| s != 0),
            // tmux writes overline (53) as `5:3`
            5 if g.len() > 1 => {}
            5 | 6 => a.blink = true,
            7 => a.inverse = true,
            8 => a.hidden = true,
            9 => a.strikethrough = true,
            21 => a.underline = true,
            22 => {
                a.bold = false;
                a.dim = false;
            }
            23 => a.italic = false,
            24 => a.underline = false,
            25 => a.blink = false,
            27 => a.inverse = false,
            28 => a.hidden = false,
            29 => a.strikethrough = false,
            n @ 30..=37 => pen.fg = Color::Indexed((n - 30) as u8),
            n @ 40..=47 => pen.bg = Color::Indexed((n - 40) as u8),
            n @ 90..=97 => pen.fg = Color::Indexed((n - 90 + 8) as u8),
            n @ 100..=107 => pen.bg = Color::Indexed((n - 100 + 8) as u8),
            39 => pen.fg = Color::Default,
            49 => pen.bg = Color::Default,
            n @ (38 | 48 | 58) => {
                let (colour, used) = extended_colour(&groups, i);
                i += used;
                match n {
                    38 => pen.fg = colour,
                    48 => pen.bg = colour,
                    _ => {}
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// An extended colour at `groups[i]` (38, 48 or 58): `38;5;N`, `38;2;R;G;B`, or the colon
/// forms. Returns the colour and how many extra groups it took.
fn extended_colour(groups: &[Vec<u32>], i: usize) -> (Color, usize) {
    let g = &groups[i];
    if g.len() > 1 {
        return match g[1] {
            5 => (Color::Indexed(*g.get(2).unwrap_or(&0) as u8), 0),
            2 => {
                // 38:2:R:G:B or 38:2::R:G:B (with a colour-space id)
                let rgb: Vec<u32> = if g.len() >= 6 {
                    g[3..6].to_vec()
                } else {
                    g[2..].to_vec()
                };
                let c = |k: usize| *rgb.get(k).unwrap_or(&0) as u8;
                (Color::Rgb(Rgb(c(0), c(1), c(2))), 0)
            }
            _ => (Color::Default, 0),
        };
    }
    let next = |k: usize| groups.get(i + k).map_or(0, |g| g[0]);
    match next(1) {
        5 => (Color::Indexed(next(2) as u8), 2),
        2 => (
            Color::Rgb(Rgb(next(2) as u8, next(3) as u8, next(4) as u8)),
            4,
        ),
        _ => (Color::Default, 1),
    }
}

fn compare(
    kind: &str,
    oracle: &[Vec<OCell>],
    size: Size,
    cursor: (u16, u16),
    screen: &Screen,
) -> EngineResult {
    let mut result = EngineResult {
        text_cells: 0,
        style_cells: 0,
        size: screen.size == size,
        cursor: (screen.cursor.row, screen.cursor.col) == cursor,
        report: String::new(),
    };
    if !result.size {
        result.report = format!("{kind} is {}, the oracle {size}", screen.size);
        return result;
    }
    if !result.cursor {
        let _ = write!(
            result.report,
            "\n    cursor: oracle row {}, col {} | {kind} row {}, col {}",
            cursor.0, cursor.1, screen.cursor.row, screen.cursor.col
        );
    }
    let mut shown = 0;
    for (r, (orow, srow)) in oracle.iter().zip(&screen.rows).enumerate() {
        if orow.len() != srow.len() {
            result.text_cells += 1;
            let _ = write!(
                result.report,
                "\n    row {r}: the oracle's row is {} cells wide (a character of another width)",
                orow.len()
            );
            continue;
        }
        for (c, (o, s)) in orow.iter().zip(srow).enumerate() {
            let text = o.text != s.text || o.width != s.width;
            let style = o.fg != s.fg || o.bg != s.bg || o.attrs != s.attrs;
            if text {
                result.text_cells += 1;
            } else if style {
                result.style_cells += 1;
            }
            if (text || style) && shown < 8 {
                shown += 1;
                let _ = write!(
                    result.report,
                    "\n    row {r} col {c}: oracle {:?} {} | {kind} {:?} {}",
                    o.text,
                    style_text(o.fg, o.bg, o.attrs),
                    s.text,
                    style_text(s.fg, s.bg, s.attrs)
                );
            }
        }
    }
    if result.text_cells + result.style_cells > 0 || !result.cursor {
        let rows = |g: &mut dyn Iterator<Item = String>| g.collect::<Vec<_>>().join("\n    | ");
        let want = rows(&mut oracle.iter().map(|row| {
            row.iter()
                .filter(|c| c.width > 0)
                .map(|c| c.text.as_str())
                .collect::<String>()
                .trim_end()
                .to_string()
        }));
        let got = rows(&mut (0..screen.rows.len()).map(|r| screen.row_text(r)));
        result.report = format!(
            "{} text cells, {} style cells differ{}\n  oracle:\n    | {want}\n  {kind}:\n    | {got}",
            result.text_cells, result.style_cells, result.report
        );
    }
    result
}

fn style_text(fg: Color, bg: Color, attrs: Attrs) -> String {
    let mut s = format!("fg={fg} bg={bg}");
    for n in attrs.names() {
        s.push(' ');
        s.push_str(n);
    }
    s
}

fn render_docs(results: &[Outcome]) -> String {
    let total = results.len();
    let count = |i: usize, f: &dyn Fn(&EngineResult) -> bool| {
        results.iter().filter(|r| f(&r.engines[i])).count()
    };
    let pct = |n: usize| format!("{n}/{total} ({:.1}%)", 100.0 * n as f64 / total as f64);
    let mut cases: Vec<&str> = results.iter().map(|r| r.case.as_str()).collect();
    cases.dedup();
    let mut s = String::new();
    s.push_str(
        "# Terminal conformance\n\n\
         <!-- Generated by tests/it/conformance.rs; do not edit. Refresh with\n     \
         TUICAST_BLESS_CONFORMANCE=1 cargo test --test it conformance -->\n\n\
         The corpus in `tests/conformance/` holds real programs recorded in tmux by\n\
         `scripts/conformance.py`: at every checkpoint, the screen tmux showed\n\
         (`capture-pane -p -e -N`: text and styles) and the cast up to that moment. Where tmux is\n\
         known to be wrong, the oracle is @xterm/headless replaying the same cast; for what neither\n\
         implements (VT52 mode, the VT420 rectangular operations), xterm 379 itself under Xvfb\n\
         (`tests/conformance/oracle-xterm-x11/replay.py`: its print-screen and its cursor report)\n\
         replaying it, the oracle `xterm-x11`. Agreement means\n\
         the same character in every cell (wide characters and combining marks included), and for\n\
         style the same foreground, background, bold, dim, italic, underline, inverse, blink,\n\
         strikethrough and hidden (conceal) in every cell. tmux's capture stops at the last cell\n\
         written on each row; the style of the erased cells past it comes from @xterm/headless.\n\n\
         The engines, on the same screens: **tuicast (native)**, tuicast's own engine (`engine =\n\
         \"native\"`, the default); **avt 0.17**, the avt crate as it is, what asciinema's player\n\
         shows (`engine = \"avt\"`, differential replay); **vt100**, a third engine (`engine =\n\
         \"vt100\"`, differential replay); and **alacritty_terminal 0.26**, which only the test replays with (a\n\
         dev-dependency). Each cell is read as the engine keeps it (alacritty_terminal keeps no blink).\n\n",
    );
    let _ = writeln!(
        s,
        "{} cases, {total} checkpoints.\n\n\
         | engine | text and cursor agree | text, cursor and style agree |\n| --- | --- | --- |",
        cases.len()
    );
    for (i, engine) in engines().iter().enumerate() {
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            engine.name(),
            pct(count(i, &|e| e.text_agrees())),
            pct(count(i, &|e| e.agrees()))
        );
    }
    let (examples, screens) = example_suite_scores();
    let _ = writeln!(
        s,
        "\nThe bundled example suite (`casts/`, {} casts, {screens} checkpoints; text only, against\n\
         tmux's `tests/fixtures/examples-oracle/`, which `tests/it/examples.rs` holds tuicast to):\n\n\
         | engine | text agrees |\n| --- | --- |",
        casts_in(&root().join("casts")).len()
    );
    for (engine, n) in engines().iter().zip(examples) {
        let _ = writeln!(
            s,
            "| {} | {n}/{screens} ({:.1}%) |",
            engine.name(),
            100.0 * n as f64 / screens as f64
        );
    }
    s.push_str("\n## Known disagreements of the native engine\n\n");
    if KNOWN.is_empty() && LACKS.is_empty() {
        s.push_str("None: it agrees with the oracle on every checkpoint.\n");
    } else {
        s.push_str("| case | checkpoints | engine | why |\n| --- | --- | --- | --- |\n");
        for (case, cp, kind, why) in KNOWN {
            let name = Scored::Tuicast(*kind).name();
            let _ = writeln!(s, "| {case} | {cp} | {name} | {why} |");
        }
        for (case, kind, n, why) in LACKS {
            let name = Scored::Tuicast(*kind).name();
            let of = results.iter().filter(|r| r.case == *case).count();
            let _ = writeln!(s, "| {case} | {n} of {of} | {name} | {why} |");
        }
    }
    s.push_str("\n## Oracles other than tmux\n\n| case | checkpoints | oracle | why |\n| --- | --- | --- | --- |\n");
    let manifest: Value = serde_json::from_str(
        &fs::read_to_string(root().join("tests/conformance/manifest.json")).unwrap(),
    )
    .unwrap();
    for case in manifest["cases"].as_array().unwrap() {
        let mut by_why: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for cp in case["checkpoints"].as_array().unwrap() {
            if cp["oracle"] != "tmux" {
                by_why
                    .entry((
                        cp["oracle"].as_str().unwrap().to_string(),
                        cp["why"].as_str().unwrap_or("").to_string(),
                    ))
                    .or_default()
                    .push(cp["name"].as_str().unwrap().to_string());
            }
        }
        for ((oracle, why), names) in by_why {
            let _ = writeln!(
                s,
                "| {} | {} | {oracle} | {why} |",
                case["name"].as_str().unwrap(),
                names.join(", ")
            );
        }
    }
    let names: Vec<&str> = engines().iter().map(|e| e.name()).collect();
    let _ = write!(
        s,
        "\n## Every case\n\nCheckpoints whose text and style agree with the oracle, of the case's.\n\n\
         | case | program | size | checkpoints | {} |\n| --- | --- | --- | --- |{}\n",
        names.join(" | "),
        " --- |".repeat(names.len())
    );
    for case in manifest["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let of_case: Vec<&Outcome> = results.iter().filter(|r| r.case == name).collect();
        let scores: Vec<String> = (0..names.len())
            .map(|i| {
                let n = of_case.iter().filter(|r| r.engines[i].agrees()).count();
                if n == of_case.len() {
                    "✓".to_string()
                } else {
                    format!("{n}/{}", of_case.len())
                }
            })
            .collect();
        let _ = writeln!(
            s,
            "| {name} | {} | {} | {} | {} |",
            case["program"].as_str().unwrap_or(""),
            case["size"].as_str().unwrap_or(""),
            of_case.len(),
            scores.join(" | ")
        );
    }
    let _ = write!(
        s,
        "\n## Every checkpoint\n\n`✗ text N, style M`: N cells differ in their character, M more only in \
         their style; `cursor`: the cursor is elsewhere.\n\n| case | program | checkpoint | oracle | {} |\n\
         | --- | --- | --- | --- |{}\n",
        names.join(" | "),
        " --- |".repeat(names.len())
    );
    for r in results {
        let cells: Vec<String> = r.engines.iter().map(|e| e.summary()).collect();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            r.case,
            r.program,
            r.checkpoint,
            r.oracle,
            cells.join(" | ")
        );
    }
    s
}
