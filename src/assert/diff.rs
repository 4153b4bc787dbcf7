//! Comparing a golden snapshot with the actual render, and explaining the difference briefly.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use similar::{ChangeTag, TextDiff};

use super::snapshot::{
    header_len, parse_styles, parse_styles_in, rows_start, upgrade_golden, Style, HEADER_LINES,
    STYLES_MARK,
};
use crate::escape::escape_for_terminal;
use crate::pos;

/// Where two snapshots first differ.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Place {
    /// In the header: the field that differs (`size`, `cursor`, …).
    Header(String),
    /// At a cell of the screen, counted from 1; its column counts characters of the row's
    /// text, or cells for a style change. `Display` gives `row 3, column 5`.
    Cell(pos::Place),
}

/// What differs between an expected and an actual snapshot.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Difference {
    /// Where they first differ.
    pub place: Place,
    /// A unified diff of the two texts with 2 lines of context, at most [`MAX_DIFF_LINES`] lines.
    pub diff: String,
    /// For style changes: which cells changed which attribute, one line per run of cells.
    pub style_changes: Vec<String>,
}

/// The longest diff shown; the rest is summarized in one line.
pub const MAX_DIFF_LINES: usize = 40;

/// Most style-change lines listed.
const MAX_STYLE_LINES: usize = 10;

/// Compares two snapshot texts. `None` when they are equal.
///
/// A golden from before hidden cursors lost their position (`cursor: 24:80 hidden`) is read
/// as today's form (`cursor: hidden`, see [`upgrade_golden`]): equal when only that differs,
/// and left out of the diff otherwise.
pub fn compare(expected: &str, actual: &str, color: bool) -> Option<Difference> {
    if expected == actual {
        return None;
    }
    let upgraded = upgrade_golden(expected);
    let expected = upgraded.as_deref().unwrap_or(expected);
    if expected == actual || without_cast(expected) == without_cast(actual) {
        return None;
    }
    let style_changes = style_changes(expected, actual);
    let place = first_place(expected, actual, &style_changes);
    let mut notes: Vec<String> = Vec::new();
    if predates_styles(expected, actual) {
        notes.push(PREDATES_STYLES.to_string());
    }
    notes.extend(style_changes.into_iter().map(|c| c.text));
    Some(Difference {
        place,
        diff: unified(expected, actual, color),
        style_changes: notes,
    })
}

/// The first style line of a `txt` golden written before `txt` carried colour, when its text
/// is still the screen's: what changed is tuicast, not the program.
pub(crate) const PREDATES_STYLES: &str =
    "this golden has no styles section: it was written before \
     txt goldens carried colour, and its text is unchanged. Accept it to check colour too, or \
     set `styles = false` in tuicast.toml (or in the cast's [check]) to check text alone";

/// Whether `expected` is a golden without a styles section whose text equals `actual`'s, and
/// `actual` has styles: a golden from before `txt` carried colour.
fn predates_styles(expected: &str, actual: &str) -> bool {
    let cut = |t: &str| -> Option<usize> {
        let mut at = 0;
        for line in t.split_inclusive('\n') {
            if line.trim_end_matches('\n') == STYLES_MARK {
                return Some(at);
            }
            at += line.len();
        }
        None
    };
    match (cut(expected), cut(actual)) {
        (None, Some(at)) => {
            let text = &actual[..at];
            text == expected || without_cast(text) == without_cast(expected)
        }
        _ => false,
    }
}

/// `golden` without its header's `cast:` line: where the cast was when the golden was
/// written is provenance, not what the screen shows, so a suite moved (`casts = "tests/casts"`)
/// or a cast renamed with its goldens still passes; the line is written anew with the next
/// update of the golden.
fn without_cast(golden: &str) -> (&str, &str) {
    match golden.strip_prefix("---\ncast: ") {
        Some(rest) => (
            "---\n",
            rest.split_once('\n').map_or("", |(_, after)| after),
        ),
        None => (golden, ""),
    }
}

struct StyleChange {
    at: pos::Place,
    text: String,
}

fn first_place(expected: &str, actual: &str, styles: &[StyleChange]) -> Place {
    let exp: Vec<&str> = expected.lines().collect();
    let act: Vec<&str> = actual.lines().collect();
    let rows_end = |lines: &[&str]| {
        lines
            .iter()
            .position(|l| *l == STYLES_MARK)
            .unwrap_or(lines.len())
    };
    let (exp_end, act_end) = (rows_end(&exp), rows_end(&act));
    let Some(i) = (0..exp.len().max(act.len())).find(|&i| exp.get(i) != act.get(i)) else {
        return Place::Header("content".into());
    };
    // Headers differ in length when one has no `cursor` line (`[check] cursor = false`); a
    // scrollback section counts with the header (its lines are no rows).
    let (exp_head, act_head) = (rows_start(expected), rows_start(actual));
    if i < exp_head.max(act_head) {
        let line = match (exp.get(i), act.get(i)) {
            (Some(&e), _) if e != "---" => e,
            (_, Some(&a)) => a,
            (e, None) => e.copied().unwrap_or(""),
        };
        if i >= header_len(expected).min(header_len(actual)) {
            return Place::Header("scrollback".into());
        }
        let field = line.split(':').next().unwrap_or("header").trim();
        return Place::Header(field.to_string());
    }
    if i < exp_end.min(act_end) || (styles.is_empty() && i < exp_end.max(act_end)) {
        let (e, a) = (
            exp.get(i).copied().unwrap_or(""),
            act.get(i).copied().unwrap_or(""),
        );
        let same = e.chars().zip(a.chars()).take_while(|(x, y)| x == y).count();
        let text = pos::Place::of(i - act_head, same);
        // The first difference in reading order: a style change above or left of the first
        // text change comes first (a styled golden's colour changed on row 2, a word on 9).
        return match styles.iter().map(|c| c.at).min() {
            Some(style) if style < text => Place::Cell(style),
            _ => Place::Cell(text),
        };
    }
    match styles.first() {
        Some(c) => Place::Cell(c.at),
        None => Place::Header("content".into()),
    }
}

/// Cells whose style differs, grouped in runs per row: `row 2, cols 1-3: fg 4 (blue) → 2 (green), bold removed`.
fn style_changes(expected: &str, actual: &str) -> Vec<StyleChange> {
    // Both bounded by the actual screen's size (tuicast wrote that header), not by whatever
    // size a golden claims.
    let a = parse_styles(actual);
    let size = actual
        .lines()
        .take(HEADER_LINES)
        .find_map(|l| l.strip_prefix("size: "))
        .and_then(|s| s.parse().ok())
        .unwrap_or_default();
    let e = parse_styles_in(expected, size);
    if e == a {
        return Vec::new();
    }
    let cells: BTreeSet<(usize, usize)> = e.keys().chain(a.keys()).copied().collect();
    let mut out: Vec<StyleChange> = Vec::new();
    let mut run: Option<(usize, usize, usize, String)> = None; // row, first, last, change
    let mut total = 0;
    for (row, col) in cells {
        let before = e.get(&(row, col)).copied().unwrap_or_default();
        let after = a.get(&(row, col)).copied().unwrap_or_default();
        if before == after {
            continue;
        }
        let change = describe_change(&before, &after);
        match &mut run {
            Some((r, _, last, c)) if *r == row && *last + 1 == col && *c == change => *last = col,
            _ => {
                if let Some(done) = run.take() {
                    total += 1;
                    push_change(&mut out, done);
                }
                run = Some((row, col, col, change));
            }
        }
    }
    if let Some(done) = run.take() {
        total += 1;
        push_change(&mut out, done);
    }
    if total > MAX_STYLE_LINES {
        let first = out.first().map_or(pos::Place::of(0usize, 0usize), |c| c.at);
        out.truncate(MAX_STYLE_LINES);
        out.push(StyleChange {
            at: first,
            text: format!(
                "… and {} more runs of changed cells",
                total - MAX_STYLE_LINES
            ),
        });
    }
    out
}

fn push_change(
    out: &mut Vec<StyleChange>,
    (row, first, last, change): (usize, usize, usize, String),
) {
    if out.len() > MAX_STYLE_LINES {
        return;
    }
    let at = pos::Place::of(row, first);
    let cols = if first == last {
        format!("col {}", at.col)
    } else {
        format!("cols {}-{}", at.col, pos::Ordinal::of(last))
    };
    out.push(StyleChange {
        at,
        text: format!("row {}, {cols}: {change}", at.row),
    });
}

fn describe_change(before: &Style, after: &Style) -> String {
    let mut parts = Vec::new();
    if before.fg != after.fg {
        parts.push(format!(
            "fg {} → {}",
            before.fg.describe(),
            after.fg.describe()
        ));
    }
    if before.bg != after.bg {
        parts.push(format!(
            "bg {} → {}",
            before.bg.describe(),
            after.bg.describe()
        ));
    }
    let (b, a) = (before.attrs.names(), after.attrs.names());
    for name in &a {
        if !b.contains(name) {
            parts.push(format!("{name} added"));
        }
    }
    for name in &b {
        if !a.contains(name) {
            parts.push(format!("{name} removed"));
        }
    }
    parts.join(", ")
}

/// A unified diff of two texts, control characters escaped; changed characters highlighted in
/// colour when `color` is set.
pub fn unified(expected: &str, actual: &str, color: bool) -> String {
    // The diff is quadratic in the worst case: a golden of 80 000 lines against a 2-row screen
    // took 5.7 s. Only the first MAX_DIFF_INPUT_LINES lines of each side are compared (a
    // screen has at most 2000 rows); the rest is counted.
    let (expected, cut_e) = first_lines(expected, MAX_DIFF_INPUT_LINES);
    let (actual, cut_a) = first_lines(actual, MAX_DIFF_INPUT_LINES);
    let mut out = unified_full(expected, actual, color);
    if cut_e + cut_a > 0 {
        let _ = writeln!(
            out,
            "… {cut_e} more expected and {cut_a} more actual lines not compared (past line {MAX_DIFF_INPUT_LINES})"
        );
    }
    out
}

/// The lines of a golden's text that are screen rows: from the first row to the styles
/// section (or the end), 0-based.
fn row_lines(text: &str) -> (usize, usize) {
    let end = text
        .lines()
        .position(|l| l == STYLES_MARK)
        .unwrap_or_else(|| text.lines().count());
    (rows_start(text), end)
}

/// The screen rows among the lines `range` (0-based) of a golden whose rows are the lines
/// [`row_lines`] gives, as messages count them: `screen rows 8-12`, `screen row 3`; `None` when the lines hold no row (the header,
/// the scrollback, the styles section).
fn screen_rows((head, end): (usize, usize), range: std::ops::Range<usize>) -> Option<String> {
    let (from, to) = (range.start.max(head), range.end.min(end));
    if from >= to {
        return None;
    }
    let (a, b) = (
        pos::Ordinal::of(from - head),
        pos::Ordinal::of(to - 1 - head),
    );
    Some(if a == b {
        format!("screen row {a}")
    } else {
        format!("screen rows {a}-{b}")
    })
}

/// Lines of each side a diff compares; see [`unified`].
const MAX_DIFF_INPUT_LINES: usize = 5_000;

/// The first `n` lines of `text`, and how many lines were left out.
fn first_lines(text: &str, n: usize) -> (&str, usize) {
    match text.match_indices('\n').nth(n.saturating_sub(1)) {
        Some((i, _)) if i + 1 < text.len() => (&text[..i + 1], text[i + 1..].lines().count()),
        _ => (text, 0),
    }
}

fn unified_full(expected: &str, actual: &str, color: bool) -> String {
    let diff = TextDiff::from_lines(expected, actual);
    // Where each side's screen rows are, found once (a golden may be long).
    let (exp_rows, act_rows) = (row_lines(expected), row_lines(actual));
    let mut out = String::new();
    let mut lines = 0;
    let mut hidden = 0;
    for group in diff.grouped_ops(2) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old = first.old_range().start..last.old_range().end;
        let new = first.new_range().start..last.new_range().end;
        // A unified diff counts its lines from 1; the screen rows the hunk shows follow, as
        // the message counts them (`first difference: row 8`), where it shows any.
        let mut hunk = format!(
            "@@ -{},{} +{},{} @@",
            pos::Ordinal::of(old.start),
            old.len(),
            pos::Ordinal::of(new.start),
            new.len()
        );
        if let Some(rows) =
            screen_rows(act_rows, new.clone()).or_else(|| screen_rows(exp_rows, old.clone()))
        {
            hunk.push(' ');
            hunk.push_str(&rows);
        }
        if lines < MAX_DIFF_LINES {
            let _ = writeln!(out, "{}", paint(&hunk, "36", color));
            lines += 1;
        } else {
            hidden += 1;
        }
        for op in &group {
            for change in diff.iter_inline_changes(op) {
                if lines >= MAX_DIFF_LINES {
                    hidden += 1;
                    continue;
                }
                lines += 1;
                let (sign, code) = match change.tag() {
                    ChangeTag::Equal => (' ', ""),
                    ChangeTag::Delete => ('-', "31"),
                    ChangeTag::Insert => ('+', "32"),
                };
                let mut line = String::new();
                for (emph, value) in change.iter_strings_lossy() {
                    // A golden edited by hand cannot drive the terminal; `\` is escaped too, so a
                    // literal `\e` and a real ESC read differently.
                    let text = escape_for_terminal(value.trim_end_matches('\n'), usize::MAX);
                    if emph && color {
                        line.push_str(&format!("\x1b[1;7m{text}\x1b[27;22m"));
                        if !code.is_empty() {
                            line.push_str(&format!("\x1b[{code}m"));
                        }
                    } else {
                        line.push_str(&text);
                    }
                }
                let full = format!("{sign}{line}");
                let _ = writeln!(
                    out,
                    "{}",
                    if code.is_empty() {
                        full
                    } else {
                        paint(&full, code, color)
                    }
                );
            }
        }
    }
    if hidden > 0 {
        let _ = writeln!(out, "… {hidden} more diff lines");
    }
    out
}

fn paint(text: &str, code: &str, color: bool) -> String {
    if color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert::snapshot::render;
    use crate::assert::Format;
    use crate::term::Size;

    #[test]
    fn a_txt_golden_carries_colour_and_fails_on_a_colour_change() {
        let size = Size { cols: 12, rows: 2 };
        let txt = |input: &str, styles: bool| {
            crate::assert::render_golden(
                Format::Text,
                "c",
                "end",
                &crate::term::test_screen(size, input),
                crate::assert::CursorView::Shown,
                0,
                styles,
            )
        };
        // Plain text: no styles section, the golden is the rows alone (as before).
        let plain = txt("ok go", true);
        assert!(!plain.contains(STYLES_MARK), "{plain}");
        assert_eq!(plain, txt("ok go", false));
        // The same letters drawn red instead of green: a failure that names the cells.
        let green = txt("\x1b[32mok\x1b[m go", true);
        let red = txt("\x1b[31mok\x1b[m go", true);
        assert!(green.contains("--- styles\n1:1-2 fg=2\n"), "{green}");
        let d = compare(&green, &red, false).expect("a colour change fails a txt golden");
        assert_eq!(d.place, Place::Cell(pos::Place::of(0usize, 0usize)));
        assert_eq!(d.style_changes.len(), 1, "{:?}", d.style_changes);
        assert!(
            d.style_changes[0].starts_with("row 1, cols 1-2: fg 2"),
            "{:?}",
            d.style_changes
        );
        // `styles = false`: the text alone, and the colour change passes.
        assert_eq!(txt("\x1b[32mok\x1b[m go", false), plain);
        assert!(compare(
            &txt("\x1b[32mok\x1b[m go", false),
            &txt("\x1b[31mok\x1b[m go", false),
            false
        )
        .is_none());
    }

    #[test]
    fn a_txt_golden_from_before_styles_says_so_and_how_to_keep_text_alone() {
        let size = Size { cols: 12, rows: 2 };
        let screen = crate::term::test_screen(size, "\x1b[1mhi\x1b[m");
        let old = crate::assert::render_golden(
            Format::Text,
            "c",
            "end",
            &screen,
            crate::assert::CursorView::Shown,
            0,
            false,
        );
        let new = render(Format::Text, "c", "end", &screen);
        let d = compare(&old, &new, false).expect("the colours are new");
        assert_eq!(d.style_changes[0], PREDATES_STYLES, "{:?}", d.style_changes);
        assert!(
            d.style_changes[1].contains("bold added"),
            "{:?}",
            d.style_changes
        );
        // Not said when the text changed too: that is the program's change.
        let other = render(
            Format::Text,
            "c",
            "end",
            &crate::term::test_screen(size, "\x1b[1mho\x1b[m"),
        );
        let d = compare(&old, &other, false).unwrap();
        assert!(!d.style_changes.iter().any(|c| c == PREDATES_STYLES));
    }

    #[test]
    fn a_huge_golden_against_a_small_screen_is_diffed_quickly() {
        // (No timed assertion: a shared machine makes one flaky. The diff's input is cut,
        // which is what keeps it from the quadratic case: 5.7 s for this one before.)
        let golden: String = (0..80_000).map(|i| format!("line {i}\n")).collect();
        let d = compare(&golden, "a\nb\n", false).unwrap();
        assert!(
            d.diff
                .contains("75000 more expected and 0 more actual lines not compared"),
            "{}",
            d.diff
        );
    }

    #[test]
    fn one_changed_cell_in_a_tall_screen_gives_a_short_message() {
        let size = Size {
            cols: 40,
            rows: 200,
        };
        let mut input = String::new();
        for i in 0..199 {
            input.push_str(&format!("line {i}\r\n"));
        }
        let a = render(
            Format::Text,
            "c",
            "end",
            &crate::term::test_screen(size, &input),
        );
        let b = render(
            Format::Text,
            "c",
            "end",
            &crate::term::test_screen(size, &input.replace("line 120", "line 12X")),
        );
        let d = compare(&a, &b, false).unwrap();
        assert_eq!(d.place, cell(1, 8).with_row(121));
        assert!(d.diff.lines().count() <= 8, "{}", d.diff);
        assert!(d.diff.contains("-line 120\n+line 12X\n"), "{}", d.diff);
    }

    #[test]
    fn the_first_difference_of_a_styled_golden_is_the_first_in_reading_order() {
        let size = Size { cols: 10, rows: 3 };
        let styled = |input: &str| {
            render(
                Format::Styled,
                "c",
                "end",
                &crate::term::test_screen(size, input),
            )
        };
        // A colour changed on row 1, a word on row 3: row 1 comes first.
        let a = styled("\x1b[31mred\x1b[0m\r\n\r\nword");
        let b = styled("\x1b[32mred\x1b[0m\r\n\r\nWord");
        let d = compare(&a, &b, false).unwrap();
        assert_eq!(d.place, cell(1, 1));
        // A word changed above a colour: the word's place.
        let a = styled("word\r\n\r\n\x1b[31mred\x1b[0m");
        let b = styled("Word\r\n\r\n\x1b[32mred\x1b[0m");
        let d = compare(&a, &b, false).unwrap();
        assert_eq!(d.place, cell(1, 1));
        let b = styled("wOrd\r\n\r\n\x1b[32mred\x1b[0m");
        assert_eq!(compare(&a, &b, false).unwrap().place, cell(1, 2));
    }

    #[test]
    fn style_only_changes_name_cells_and_attributes() {
        let size = Size { cols: 10, rows: 2 };
        let a = render(
            Format::Styled,
            "c",
            "end",
            &crate::term::test_screen(size, "\x1b[1;31mabc\x1b[0m"),
        );
        let b = render(
            Format::Styled,
            "c",
            "end",
            &crate::term::test_screen(size, "\x1b[32mab\x1b[1;31mc\x1b[0m"),
        );
        let d = compare(&a, &b, false).unwrap();
        assert_eq!(
            d.style_changes,
            vec!["row 1, cols 1-2: fg 1 (red) → 2 (green), bold removed"]
        );
        assert_eq!(d.place, cell(1, 1));
    }

    #[test]
    fn hunk_headers_name_the_screen_rows_as_the_message_counts_them() {
        let rows: String = (1..=12).map(|r| format!("row {r}\n")).collect();
        let golden = format!("---\ncast: c\ncheckpoint: e\nsize: 6x12\n---\n{rows}");
        let changed = golden.replace("row 8\n", "row 8!\n");
        let d = compare(&golden, &changed, false).unwrap();
        assert_eq!(d.place, cell(8, 6));
        let hunk = d.diff.lines().next().unwrap();
        assert_eq!(hunk, "@@ -11,5 +11,5 @@ screen rows 6-10");
        // A header change: the row its context shows.
        let d = compare(&golden, &golden.replace("size: 6x12", "size: 7x12"), false).unwrap();
        assert!(
            d.diff.lines().next().unwrap().ends_with(" @@ screen row 1"),
            "{}",
            d.diff
        );
    }

    #[test]
    fn the_cast_a_golden_names_is_provenance_not_a_difference() {
        let golden = "---\ncast: casts/x.cast\ncheckpoint: end\nsize: 4x1\n---\nab\n";
        let moved = golden.replace("casts/x.cast", "tests/casts/x.cast");
        assert!(compare(golden, &moved, false).is_none());
        let changed = moved.replace("ab", "ac");
        assert!(compare(golden, &changed, false).is_some());
        assert!(compare(golden, &golden.replace("end", "other"), false).is_some());
    }

    #[test]
    fn header_changes_name_the_field() {
        let size = Size { cols: 10, rows: 2 };
        let a = render(
            Format::Text,
            "c",
            "end",
            &crate::term::test_screen(size, "ab"),
        );
        let b = render(
            Format::Text,
            "c",
            "end",
            &crate::term::test_screen(size, "ab\x1b[D"),
        );
        assert_eq!(
            compare(&a, &b, false).unwrap().place,
            Place::Header("cursor".into())
        );
    }

    #[test]
    fn an_old_golden_with_a_hidden_cursor_position_equals_the_new_form() {
        let size = Size { cols: 10, rows: 2 };
        let new = render(
            Format::Styled,
            "c",
            "end",
            &crate::term::test_screen(size, "\x1b[1mab\x1b[?25l"),
        );
        assert!(new.contains("\ncursor: hidden\n"), "{new}");
        let old = new.replace("cursor: hidden", "cursor: 24:80 hidden");
        assert!(compare(&old, &new, false).is_none());
        // Another difference is reported without the cursor line in the diff.
        let changed = new.replace("\nab\n", "\nax\n");
        let d = compare(&old, &changed, false).unwrap();
        assert_eq!(d.place, cell(1, 2));
        assert!(!d.diff.contains("24:80"), "{}", d.diff);
        // A shown cursor's position still counts.
        let shown = new.replace("cursor: hidden", "cursor: 1:3");
        let moved = new.replace("cursor: hidden", "cursor: 2:1");
        assert_eq!(
            compare(&shown, &moved, false).unwrap().place,
            Place::Header("cursor".into())
        );
    }

    #[test]
    fn a_golden_without_a_cursor_line_counts_rows_from_its_own_header() {
        let size = Size { cols: 10, rows: 2 };
        let at = |input: &str| {
            crate::assert::render_with(
                Format::Text,
                "c",
                "end",
                &crate::term::test_screen(size, input),
                crate::assert::CursorView::Omitted,
            )
        };
        let d = compare(&at("ab\r\ncd"), &at("ab\r\nce"), false).unwrap();
        assert_eq!(d.place, cell(2, 2));
        let with = render(
            Format::Text,
            "c",
            "end",
            &crate::term::test_screen(size, "ab\r\ncd"),
        );
        assert_eq!(
            compare(&with, &at("ab\r\ncd"), false).unwrap().place,
            Place::Header("cursor".into())
        );
        assert_eq!(
            compare(&at("ab\r\ncd"), &with, false).unwrap().place,
            Place::Header("cursor".into())
        );
    }

    #[test]
    fn colour_highlights_and_escapes() {
        let d = unified("a\x1bb\n", "a\x1bc\n", true);
        assert!(!d.contains("\x1bb") && d.contains("\\e"), "{d:?}");
        assert!(d.contains("\x1b[1;7m"), "{d:?}");
        let literal = unified("\\e\n", "\x1b\n", false);
        assert!(
            literal.contains("\\\\e") && literal.contains("\\e"),
            "{literal:?}"
        );
        let plain = unified("x\n", "y\n", false);
        assert!(!plain.contains('\x1b'));
    }

    impl Place {
        fn with_row(self, row: usize) -> Place {
            match self {
                Place::Cell(p) => cell(row, p.col.get()),
                other => other,
            }
        }
    }

    /// The cell at 1-based `row` and `column`.
    fn cell(row: usize, column: usize) -> Place {
        Place::Cell(pos::Place::new(row, column).expect("counted from 1"))
    }
}
