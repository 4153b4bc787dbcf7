//! Issue 42, point 4: tuicast's answers measured on labelled screens. `tests/screens/` holds
//! screens of real programs (ps, ls, df, sqlite3, htop, git, python3, dialog, whiptail, vim,
//! less, man, mc, bash, …), each recorded once in a real PTY, and `screens.toml` the truth
//! written by hand from what each program shows and means: its tables, what it waits for, and
//! the refs `@vim.mode`, `@pager.position`, `@dialog.button`, `@shell.prompt` and
//! `@shell.output`. The test replays each cast, runs the table finder, the prompt classifier
//! (with the terminal modes recorded beside the casts) and the refs (with the program's name,
//! as `tuicast session` knows it), and counts per category the answers that are right, wrong,
//! or abstained (nothing said where the truth has something). It fails on any wrong answer and
//! when fewer are right than docs/agents.md says; `--nocapture` prints the table there.

use std::collections::BTreeMap;

use tuicast::inspect::{classify, refs, tables, Adapters, RefContext, TtyModes};
use tuicast::record::{Session, SessionOptions};
use tuicast::term::Screen;

/// One labelled screen of `tests/screens/screens.toml` (its header says what each field is).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Labelled {
    name: String,
    program: String,
    script: String,
    shown: Option<String>,
    #[serde(default)]
    keys: Vec<String>,
    then: Option<String>,
    tables: Vec<TableTruth>,
    prompt: String,
    #[serde(default)]
    refs: BTreeMap<String, RefTruth>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TableTruth {
    /// The header's cells; empty for a table without one.
    header: Vec<String>,
    /// How many data rows.
    rows: usize,
    /// The first data row's cells.
    first: Vec<String>,
    /// The last data row's cells, where the label gives them (a row the terminal wrapped).
    last: Option<Vec<String>>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
enum RefTruth {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    screen: Vec<Labelled>,
}

/// The terminal's modes when a screen was taken (`tests/screens/modes.toml`).
#[derive(Debug, Clone, Copy, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct Modes {
    echo: Option<bool>,
    canonical: Option<bool>,
    reading: Option<bool>,
}

/// The refs judged, in the table's order.
const REFS: &[&str] = &[
    "vim.mode",
    "pager.position",
    "dialog.button",
    "shell.prompt",
    "shell.output",
];

/// Each category's share of right answers must stay at least this (docs/agents.md).
const RIGHT_FLOORS: &[(&str, f64)] = &[
    ("tables", 0.92),
    ("prompt", 0.96),
    ("vim.mode", 0.9),
    ("pager.position", 0.9),
    ("dialog.button", 1.0),
    ("shell.prompt", 1.0),
    ("shell.output", 1.0),
];

fn dir() -> std::path::PathBuf {
    crate::util::root().join("tests/screens")
}

fn labelled() -> Vec<Labelled> {
    let text = std::fs::read_to_string(dir().join("screens.toml")).unwrap();
    toml::from_str::<File>(&text)
        .unwrap_or_else(|e| panic!("screens.toml: {e}"))
        .screen
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Right,
    Wrong,
    Abstained,
}

#[derive(Default)]
struct Tally {
    right: usize,
    wrong: usize,
    abstained: usize,
    negatives: usize,
}

impl Tally {
    fn judged(&self) -> usize {
        self.right + self.wrong + self.abstained
    }
}

/// The table finder's verdict on a screen: every table found must be one of the truth's
/// (header, row count, first row and the last where labelled), all of them found to be right.
fn judge_tables(truth: &[TableTruth], found: &[tuicast::inspect::Table]) -> (Verdict, String) {
    let same = |t: &TableTruth, f: &tuicast::inspect::Table| {
        let header = f.header.clone().unwrap_or_default();
        header == t.header
            && f.rows.len() == t.rows
            && f.rows.first() == Some(&t.first)
            && t.last.as_ref().is_none_or(|l| f.rows.last() == Some(l))
    };
    let shown = found
        .iter()
        .map(|f| {
            format!(
                "{:?} {} rows, first {:?}",
                f.header,
                f.rows.len(),
                f.rows.first()
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    if found.iter().any(|f| !truth.iter().any(|t| same(t, f))) {
        return (Verdict::Wrong, shown);
    }
    if found.len() == truth.len() {
        (Verdict::Right, shown)
    } else {
        (Verdict::Abstained, shown)
    }
}

fn judge_prompt(truth: &str, found: &str) -> Verdict {
    if truth == found {
        Verdict::Right
    } else if found == "unknown" {
        Verdict::Abstained
    } else {
        Verdict::Wrong
    }
}

/// A ref family's verdict, or `None` when the truth says nothing of it and nothing was found.
fn judge_ref(truth: Option<&RefTruth>, found: &[String]) -> Option<Verdict> {
    let norm = |v: &str| {
        v.lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n")
            .trim_matches('\n')
            .to_string()
    };
    let found: Vec<String> = found.iter().map(|v| norm(v)).collect();
    match truth {
        None if found.is_empty() => None,
        None => Some(Verdict::Wrong),
        Some(RefTruth::One(v)) if v == "absent" || v == "unshown" => Some(if found.is_empty() {
            Verdict::Right
        } else {
            Verdict::Wrong
        }),
        Some(_) if found.is_empty() => Some(Verdict::Abstained),
        Some(RefTruth::One(v)) => Some(if found == [norm(v)] {
            Verdict::Right
        } else {
            Verdict::Wrong
        }),
        Some(RefTruth::Many(vs)) => {
            let mut want: Vec<String> = vs.iter().map(|v| norm(v)).collect();
            let mut got = found.clone();
            want.sort();
            got.sort();
            Some(if want == got {
                Verdict::Right
            } else {
                Verdict::Wrong
            })
        }
    }
}

/// The screen of a labelled case, replayed from its cast to the checkpoint `screen`.
fn screen_of(name: &str) -> Screen {
    let cast = dir().join(format!("{name}.cast"));
    let reader = tuicast::cast::open(&cast).unwrap_or_else(|e| panic!("{e}"));
    let found = tuicast::replay::find(reader, tuicast::term::EngineKind::default(), "screen")
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let tuicast::replay::Found::Checkpoint(checkpoint) = found else {
        panic!("{name}: no checkpoint `screen`")
    };
    checkpoint.screen
}

/// Scores every labelled screen: the markdown table, the tallies by category, and a line per
/// answer that was not right.
fn score() -> (String, BTreeMap<&'static str, Tally>, Vec<String>) {
    let cases = labelled();
    let modes_text = std::fs::read_to_string(dir().join("modes.toml")).unwrap();
    let modes: BTreeMap<String, Modes> = toml::from_str(&modes_text).unwrap();
    let mut tally: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut notes = Vec::new();
    let mut note = |cat: &'static str, name: &str, v: Verdict, detail: String| {
        let t = tally.entry(cat).or_default();
        match v {
            Verdict::Right => t.right += 1,
            Verdict::Wrong => t.wrong += 1,
            Verdict::Abstained => t.abstained += 1,
        }
        if v != Verdict::Right {
            notes.push(format!("{v:?} {cat} {name}: {detail}"));
        }
    };
    for case in &cases {
        let screen = screen_of(&case.name);
        let m = modes
            .get(&case.name)
            .unwrap_or_else(|| panic!("{}: no modes in modes.toml", case.name));
        let modes = TtyModes {
            echo: m.echo,
            canonical: m.canonical,
            reading: m.reading,
        };
        let (v, detail) = judge_tables(&case.tables, &tables(&screen));
        note("tables", &case.name, v, detail);
        let p = classify(&screen, &screen.outline(), modes);
        note(
            "prompt",
            &case.name,
            judge_prompt(&case.prompt, p.kind.name()),
            format!(
                "labelled {}, found {} ({:?})",
                case.prompt,
                p.kind.name(),
                p.evidence
            ),
        );
        let cx = RefContext::new(Adapters::builtin())
            .program(Some(&case.program))
            .modes(modes);
        let found = refs(&screen, &cx).expect("the built-in adapters stay within their limits");
        for family in REFS {
            let values: Vec<String> = found
                .iter()
                .filter(|r| r.kind == *family)
                .map(|r| {
                    r.key
                        .clone()
                        .or_else(|| r.value.clone())
                        .unwrap_or_else(|| r.text.clone())
                })
                .collect();
            let truth = case.refs.get(*family);
            if let Some(v) = judge_ref(truth, &values) {
                note(
                    REFS.iter().find(|f| *f == family).unwrap(),
                    &case.name,
                    v,
                    format!("labelled {truth:?}, found {values:?}"),
                );
            }
        }
    }
    for case in &cases {
        if case.tables.is_empty() {
            tally.entry("tables").or_default().negatives += 1;
        }
        if case.prompt == "unknown" {
            tally.entry("prompt").or_default().negatives += 1;
        }
        for family in REFS {
            if matches!(case.refs.get(*family), Some(RefTruth::One(v)) if v == "absent" || v == "unshown")
            {
                tally.entry(family).or_default().negatives += 1;
            }
        }
    }
    let mut report = format!(
        "{} screens of {} programs\n\n| answer | judged | of them negatives | right | wrong | abstained | right % |\n| --- | --: | --: | --: | --: | --: | --: |\n",
        cases.len(),
        cases
            .iter()
            .map(|c| c.program.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len()
    );
    for cat in ["tables", "prompt"].iter().chain(REFS) {
        let t = tally.entry(cat).or_default();
        let pct = if t.judged() > 0 {
            100.0 * t.right as f64 / t.judged() as f64
        } else {
            100.0
        };
        let name = if REFS.contains(cat) {
            format!("`@{cat}`")
        } else {
            cat.to_string()
        };
        report.push_str(&format!(
            "| {name} | {} | {} | {} | {} | {} | {pct:.0} % |\n",
            t.judged(),
            t.negatives,
            t.right,
            t.wrong,
            t.abstained
        ));
    }
    let all = tally.values().fold((0, 0, 0), |a, t| {
        (a.0 + t.right, a.1 + t.wrong, a.2 + t.abstained)
    });
    report.push_str(&format!(
        "| all | {} | {} | {} | {} | {} | {:.0} % |\n",
        all.0 + all.1 + all.2,
        tally.values().map(|t| t.negatives).sum::<usize>(),
        all.0,
        all.1,
        all.2,
        100.0 * all.0 as f64 / (all.0 + all.1 + all.2).max(1) as f64
    ));
    (report, tally, notes)
}

#[test]
fn no_wrong_answer_on_the_labelled_screens() {
    let cases = labelled();
    assert!(cases.len() >= 100, "{} screens", cases.len());
    let programs: std::collections::BTreeSet<&str> =
        cases.iter().map(|c| c.program.as_str()).collect();
    assert!(programs.len() >= 30, "{} programs", programs.len());
    let (report, tally, notes) = score();
    eprintln!("{report}\n{}", notes.join("\n"));
    let wrong: Vec<&String> = notes.iter().filter(|n| n.starts_with("Wrong")).collect();
    assert!(
        wrong.is_empty(),
        "{} wrong answers:\n{}\n\n{report}",
        wrong.len(),
        wrong
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    for &(cat, floor) in RIGHT_FLOORS {
        let t = &tally[cat];
        let right = t.right as f64 / t.judged().max(1) as f64;
        assert!(
            right >= floor,
            "{cat}: {right:.2} right (at least {floor})\n{report}"
        );
    }
}

/// Records the labelled screens again (`cargo test --test it -- --ignored
/// record_the_labelled_screens`; `TUICAST_SCREENS_ONLY=PREFIX,…` only the cases whose names
/// start with one of them): only when a case is added. The labels are written by hand, never from this.
#[test]
#[ignore = "records tests/screens/ again from real programs"]
fn record_the_labelled_screens() {
    let only = std::env::var("TUICAST_SCREENS_ONLY").ok();
    let out = dir();
    let modes_path = out.join("modes.toml");
    let mut modes: BTreeMap<String, Modes> = std::fs::read_to_string(&modes_path)
        .map(|t| toml::from_str(&t).unwrap())
        .unwrap_or_default();
    for case in labelled() {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|o| case.name.starts_with(o)))
        {
            continue;
        }
        let work = crate::util::Dir::new();
        let mut opts = SessionOptions::new(["bash", "-c", case.script.as_str()]);
        opts.cwd = work.path().to_path_buf();
        let cast = out.join(format!("{}.cast", case.name));
        let mut s = Session::spawn(opts, &cast).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        if let Some(shown) = &case.shown {
            s.wait_text(shown)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        }
        for key in &case.keys {
            match key.strip_prefix("type:") {
                Some(text) => s.type_text(text).unwrap(),
                None => s.press(key).unwrap(),
            }
        }
        if let Some(then) = &case.then {
            s.wait_text(then)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        }
        s.snapshot("screen")
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let m = s.modes();
        modes.insert(
            case.name.clone(),
            Modes {
                echo: m.echo,
                canonical: m.canonical,
                reading: m.reading,
            },
        );
        let screen = s.screen();
        let text: Vec<String> = (0..screen.rows.len())
            .map(|r| screen.row_text(r).trim_end().to_string())
            .collect();
        std::fs::write(
            out.join(format!("{}.txt", case.name)),
            text.join("\n") + "\n",
        )
        .unwrap();
        s.finish().unwrap();
    }
    let mut text = String::from(
        "# Written by record_the_labelled_screens (tests/it/screens.rs): the terminal's modes\n\
         # (ECHO, ICANON) and whether the program was blocked reading when each screen was\n\
         # taken. Not labels.\n\n",
    );
    text.push_str(&toml::to_string(&modes).unwrap());
    std::fs::write(&modes_path, text).unwrap();
}
