//! The shell's refs read from its OSC 133 marks ([`Screen`]'s
//! [`shell_marks`](crate::term::TermState::shell_marks)), where it sent any: then no guess.
//!
//! A shell that marks its prompts (bash with `PS0`/`PS1`/`PROMPT_COMMAND`, zsh's and fish's
//! hooks: docs/agents.md, "Shell marks (OSC 133)", says how) sends `A` where the prompt starts, `B` where it ends
//! (what is typed starts), `C` where the command's output starts and `D;STATUS` where the
//! command ended. From them:
//!
//! | ref | cells | value |
//! | --- | --- | --- |
//! | `@shell.prompt` | the last `A` to the end of what is typed after its `B`; none while a command runs (a `C` after it) | what is typed |
//! | `@shell.command` | the last command run: its `B` to its `C` | the command |
//! | `@shell.output` | its `C` to its `D` (to the cursor while it runs; from the top row when the `C` scrolled off) | its text, a `D` mid-row cutting its last row |
//! | `@shell.status` | the `D` after the last `C` (the last `D` when no `C` is left) | its exit status |
//!
//! Each carries the marks it was read from as its evidence (`shell: OSC 133 marks C on row
//! 3, D;1 on row 6; read on rows 3..=5`). A ref whose marks are gone (erased, scrolled off)
//! is absent, never guessed from the text around.

use super::refs::Ref;
use crate::pos::Ordinal;
use crate::term::{CellRect, Screen, ShellMark, ShellMarkKind};

/// The refs the shell adapter reads from marks (each is one of these or absent).
pub(crate) const MARK_REFS: &[&str] = &["prompt", "command", "output", "status"];

/// The shell's refs from the marks of `screen`, or `None` when it has no marks (the
/// adapter's guess from the text stands then).
pub(crate) fn mark_refs(screen: &Screen) -> Option<Vec<Ref>> {
    let marks = &screen.state.shell_marks;
    if marks.is_empty() {
        return None;
    }
    let last =
        |kind: ShellMarkKind, before: usize| marks[..before].iter().rposition(|m| m.kind == kind);
    let first_after = |kind: ShellMarkKind, after: usize| {
        marks[after + 1..]
            .iter()
            .position(|m| m.kind == kind)
            .map(|i| i + after + 1)
    };
    let n = marks.len();
    let rows = screen.rows.len();
    let cols = usize::from(screen.size.cols);
    let cursor = (
        usize::from(screen.cursor.row),
        usize::from(screen.cursor.col),
    );
    let mut out = Vec::new();
    let output_at = last(ShellMarkKind::Output, n);

    // The prompt: the last A, while no command runs after it.
    if let Some(a) = last(ShellMarkKind::Prompt, n) {
        let m = marks[a];
        let running = output_at.is_some_and(|c| c > a);
        if let (false, Ok(row)) = (running, usize::try_from(m.row)) {
            let b = first_after(ShellMarkKind::Command, a).map(|b| marks[b]);
            // What is typed ends on the cursor's row (a command typed over several rows).
            let end_row = match b.and_then(|b| usize::try_from(b.row).ok()) {
                Some(br) => br.max(cursor.0),
                None => row,
            }
            .min(rows - 1);
            let col = if end_row == row {
                usize::from(m.col)
            } else {
                0
            };
            let rect = CellRect {
                row,
                row_end: end_row + 1,
                col,
                col_end: cols,
            };
            let mut used = vec![m];
            let value = b.map(|b| {
                used.push(b);
                span_text(screen, place(b), (end_row, cols))
            });
            let mut r = new_ref("prompt", rect, screen, &used);
            r.value = value;
            out.push(r);
        }
    }

    // The last command run, its output and its status.
    if let Some(c) = output_at {
        let cm = marks[c];
        let d = first_after(ShellMarkKind::End, c).map(|d| marks[d]);
        if let Some(b) = last(ShellMarkKind::Command, c).map(|b| marks[b]) {
            if let (Ok(brow), Ok(crow)) = (usize::try_from(b.row), usize::try_from(cm.row)) {
                let end = before(crow, usize::from(cm.col), cols);
                if let Some((erow, ecol)) = end.filter(|&(r, _)| r >= brow) {
                    let rect = CellRect {
                        row: brow,
                        row_end: erow + 1,
                        col: if erow == brow { usize::from(b.col) } else { 0 },
                        col_end: cols,
                    };
                    let mut r = new_ref("command", rect, screen, &[b, cm]);
                    r.value = Some(span_text(screen, place(b), (erow, ecol)));
                    out.push(r);
                }
            }
        }
        // From the C (the top row when it scrolled off) to the D, or to the cursor.
        let start = usize::try_from(cm.row).map_or((0, 0), |r| (r, usize::from(cm.col)));
        let end = match d {
            Some(d) => usize::try_from(d.row)
                .ok()
                .and_then(|r| before(r, usize::from(d.col), cols)),
            None => Some((cursor.0, cols)),
        };
        if let Some((erow, ecol)) = end.filter(|&(r, _)| r >= start.0) {
            let rect = CellRect {
                row: start.0,
                row_end: erow + 1,
                col: 0,
                col_end: cols,
            };
            let used: Vec<ShellMark> = [Some(cm), d].into_iter().flatten().collect();
            let mut r = new_ref("output", rect, screen, &used);
            r.text = span_text(screen, start, (erow, ecol));
            r.value = Some(r.text.clone());
            out.push(r);
        }
    }
    let end = match output_at {
        Some(c) => first_after(ShellMarkKind::End, c),
        None => last(ShellMarkKind::End, n),
    };
    if let Some(d) = end.map(|d| marks[d]) {
        if let (Some(status), Ok(row)) = (d.status, usize::try_from(d.row)) {
            let col = usize::from(d.col).min(cols - 1);
            let rect = CellRect {
                row,
                row_end: row + 1,
                col,
                col_end: col + 1,
            };
            let mut r = new_ref("status", rect, screen, &[d]);
            r.value = Some(status.to_string());
            out.push(r);
        }
    }
    Some(out)
}

/// A mark's place on the screen (its row is on it).
fn place(m: ShellMark) -> (usize, usize) {
    (usize::try_from(m.row).unwrap_or(0), usize::from(m.col))
}

/// The last cell before the mark at `(row, col)`, as the end of a span `(row, end col)`:
/// the row above, whole, when the mark is at the start of its row; `None` above the top.
fn before(row: usize, col: usize, cols: usize) -> Option<(usize, usize)> {
    if col == 0 {
        row.checked_sub(1).map(|r| (r, cols))
    } else {
        Some((row, col))
    }
}

/// The text of the cells from `start` (row, col) up to `end` (row, col: not included), each
/// row's trailing blanks trimmed, rows joined by `\n`, blank rows at the end left out.
fn span_text(screen: &Screen, start: (usize, usize), end: (usize, usize)) -> String {
    let mut lines = Vec::new();
    for r in start.0..=end.0.min(screen.rows.len().saturating_sub(1)) {
        let from = if r == start.0 { start.1 } else { 0 };
        let to = if r == end.0 { end.1 } else { usize::MAX };
        let mut line: String = screen.rows[r]
            .iter()
            .enumerate()
            .filter(|(c, cell)| (from..to).contains(c) && cell.width > 0)
            .flat_map(|(_, cell)| cell.text.chars())
            .map(crate::term::safe_char)
            .collect();
        line.truncate(line.trim_end().len());
        lines.push(line);
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

/// A ref of the shell adapter on `rect`, its evidence the `marks` it was read from.
fn new_ref(role: &str, rect: CellRect, screen: &Screen, marks: &[ShellMark]) -> Ref {
    let shown: Vec<String> = marks.iter().map(|m| describe(*m)).collect();
    let [first, last] = rect.rows();
    let rows = if first == last {
        format!("row {first}")
    } else {
        format!("rows {first}..={last}")
    };
    Ref {
        evidence: Some(format!(
            "shell: OSC 133 marks {}; read on {rows}",
            shown.join(", ")
        )),
        ..Ref::new(&format!("shell.{role}"), role, rect, screen)
    }
}

/// `C on row 3`, `D;1 on row 6`, `C on the scrollback's line 2 from its end`.
fn describe(m: ShellMark) -> String {
    let status = m.status.map(|s| format!(";{s}")).unwrap_or_default();
    let at = match usize::try_from(m.row) {
        Ok(r) => format!("on row {}", Ordinal::of(r)),
        Err(_) => format!("in the scrollback ({} lines up)", m.row.unsigned_abs()),
    };
    format!("{}{status} {at}", m.kind.letter())
}

#[cfg(test)]
mod tests {
    use crate::inspect::{refs, Adapters, Ref, RefContext};
    use crate::term::{Engine, NativeEngine, Screen, Size};

    /// What bash sends with the rcfile of `tests/shell/marks.bashrc`: `D;STATUS` and `A` before
    /// the prompt `$ `, `B` after it, `C` when a command starts.
    fn bash(commands: &[(&str, &str, i32)], size: Size) -> Screen {
        let mut e = NativeEngine::new(size);
        e.feed("\x1b]133;A\x07$ \x1b]133;B\x07");
        for (command, output, status) in commands {
            e.feed(&format!(
                "{command}\r\n\x1b]133;C\x07{output}\x1b]133;D;{status}\x07\x1b]133;A\x07$ \x1b]133;B\x07"
            ));
        }
        e.screen()
    }

    fn shell_refs(screen: &Screen, program: Option<&str>) -> Vec<Ref> {
        let cx = RefContext::new(Adapters::builtin()).program(program);
        refs(screen, &cx)
            .unwrap()
            .into_iter()
            .filter(|r| r.kind.starts_with("shell."))
            .collect()
    }

    fn get<'a>(refs: &'a [Ref], role: &str) -> Option<&'a Ref> {
        refs.iter().find(|r| r.role == role)
    }

    #[test]
    fn marks_give_the_prompt_the_command_its_output_and_status() {
        let size = Size { cols: 30, rows: 10 };
        // Output lines that look like prompts (`$ `, `% `, `> `) cut nothing.
        let s = bash(
            &[
                ("echo hi", "hi\r\n", 0),
                ("show", "$ one\r\n% two\r\n> three\r\n", 3),
            ],
            size,
        );
        let r = shell_refs(&s, None);
        let output = get(&r, "output").unwrap();
        assert_eq!(output.value.as_deref(), Some("$ one\n% two\n> three"));
        assert_eq!((output.rect.row, output.rect.row_end), (3, 6));
        assert_eq!(
            output.evidence.as_deref(),
            Some("shell: OSC 133 marks C on row 4, D;3 on row 7; read on rows 4..=6")
        );
        assert_eq!(get(&r, "command").unwrap().value.as_deref(), Some("show"));
        assert_eq!(get(&r, "status").unwrap().value.as_deref(), Some("3"));
        let prompt = get(&r, "prompt").unwrap();
        assert_eq!((prompt.rect.row, prompt.value.as_deref()), (6, Some("")));
        // The guess (no marks) cuts the output at `$ one` and knows no status.
        let plain = {
            let mut e = NativeEngine::new(size);
            e.feed("$ echo hi\r\nhi\r\n$ show\r\n$ one\r\n% two\r\n> three\r\n$ ");
            e.screen()
        };
        let guess = shell_refs(&plain, Some("bash"));
        assert_ne!(
            get(&guess, "output").and_then(|o| o.value.as_deref()),
            Some("$ one\n% two\n> three")
        );
        assert!(get(&guess, "status").is_none());
        assert!(guess
            .iter()
            .all(|r| !r.evidence.as_deref().unwrap_or("").contains("OSC 133")));
        // Marks turn the adapter on whatever the program.
        assert!(get(&shell_refs(&s, Some("python3")), "output").is_some());
    }

    #[test]
    fn a_running_command_a_cleared_screen_and_marks_scrolled_off() {
        let size = Size { cols: 20, rows: 4 };
        // Running: the output so far, no prompt, no status.
        let mut e = NativeEngine::new(size);
        e.feed("\x1b]133;A\x07$ \x1b]133;B\x07sleep\r\n\x1b]133;C\x07zz");
        let r = shell_refs(&e.screen(), None);
        assert_eq!(get(&r, "output").unwrap().value.as_deref(), Some("zz"));
        assert!(get(&r, "prompt").is_none() && get(&r, "status").is_none());
        // `clear` erases its own C: its status and the new prompt stay.
        e.feed("\x1b[H\x1b[2J\x1b]133;D;0\x07\x1b]133;A\x07$ \x1b]133;B\x07");
        let r = shell_refs(&e.screen(), None);
        let roles: Vec<&str> = r.iter().map(|r| r.role.as_str()).collect();
        assert_eq!(roles, ["prompt", "status"]);
        assert_eq!(get(&r, "status").unwrap().value.as_deref(), Some("0"));
        // Ten lines of output on four rows: the C scrolled off, the output is read from the
        // top row and its evidence says where the C went.
        let lines: String = (1..=10).map(|i| format!("line {i}\r\n")).collect();
        let s = bash(&[("seq", &lines, 1)], size);
        let r = shell_refs(&s, None);
        let output = get(&r, "output").unwrap();
        assert_eq!(output.value.as_deref(), Some("line 8\nline 9\nline 10"));
        assert_eq!(
            output.evidence.as_deref(),
            Some(
                "shell: OSC 133 marks C in the scrollback (7 lines up), D;1 on row 4; \
                 read on rows 1..=3"
            )
        );
        assert!(get(&r, "command").is_none());
        assert_eq!(get(&r, "status").unwrap().value.as_deref(), Some("1"));
    }
}
