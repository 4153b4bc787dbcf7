//! What a program waits for: a classifier over the screen (and, where known, the terminal's
//! echo and line modes: [`TtyModes`]). Each rule looks at one thing a person would look at — the cursor's line, the
//! last row, the buttons of a dialog, the selected row of a list — and says how sure it is.
//! When nothing fits it says `unknown` rather than guess.
//!
//! | kind | found from | confidence |
//! | --- | --- | --- |
//! | `pager` | the last row is `(END)`, `--More--`, `:`, `… lines 1-20/300`, `Manual page … line N` | 0.9 (`:` 0.7) |
//! | `password` | echo off in line mode (`ICANON` on, as getpass, sudo and ssh read) with the cursor after a `:`; else `Password:`/`passphrase`/`PIN` on the cursor's line | 0.95 / 0.8 |
//! | `yesno` | `[Y/n]`, `(y/n)`, `(yes/no)`, `(yes/no/[fingerprint])` on the cursor's line (the default is the capital); coreutils' `rm: remove …?` questions (default no); `<Yes>` and `<No>` buttons in a box (the default is the highlighted one); a question with `Y Yes` and `N No` keys | 0.9 / 0.7 / 0.85 / 0.8 |
//! | `confirm` | `press any key`, `press Enter`, `push <RETURN>` on the screen; a dialog with only an OK button (`<  OK  >`, whiptail's `<Ok>`) and the cursor in it | 0.8 / 0.7 |
//! | `select` | two or more rows `1) item` right above the cursor's line (bash's `select`) | 0.7 |
//! | `select` | a question (`? …`, `◆ …`, or ending in `?` or `:`) over options of which one is marked: a pointer `>`, `❯`, `›`, `▸`, `→` before it and the others indented alike (inquirer, survey, enquirer, prompts), or `●`/`◉` among `○`/`◯` (@clack); the outline's `selected` row in a list (its options: the rows of its block) | 0.8 / 0.8 |
//! | `text` | the visible cursor in a dialog that holds no list (a popup, an input field); a line ending in `:` or `?` with the cursor after it | 0.7 / 0.6 |
//! | `shell` | the cursor after `$`, `#`, `%`, `>` or `>>>` at the end of the last non-blank line, or after a REPL's continuation `...` alone on it; a word prompt alone on it (`sqlite>`, `(gdb)`) | 0.7 / 0.6 |
//!
//! Echo off is a password only while the terminal reads whole lines: a line editor
//! (readline in bash's `read -e` and python's `input`, a REPL) and a full-screen program turn
//! off `ICANON` and `ECHO` both and echo what is typed themselves, so with line mode off the
//! screen's text decides. With the line mode unknown (`None`), echo off is read as before.
//! | `unknown` | nothing above | 0 |

use std::sync::OnceLock;

use regex::Regex;

use crate::term::{Outline, Screen};

message_error!(
    /// Why a name is not a prompt kind (it lists the kinds there are).
    PromptKindError, PromptKindErrorKind {
        /// No prompt kind has that name (or `unknown` where it means nothing).
        Unknown,
    }
);

/// What kind of input a program waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PromptKind {
    /// A yes/no question.
    YesNo,
    /// A choice among listed options.
    Select,
    /// A password or other secret (echo off).
    Password,
    /// A line of text.
    Text,
    /// A pager waiting for a key (`less`, `more`, `man`).
    Pager,
    /// "Press any key" or Enter to go on.
    Confirm,
    /// A shell or REPL prompt.
    Shell,
    /// Nothing recognised.
    Unknown,
}

impl PromptKind {
    /// `yesno`, `select`, `password`, `text`, `pager`, `confirm`, `shell` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            PromptKind::YesNo => "yesno",
            PromptKind::Select => "select",
            PromptKind::Password => "password",
            PromptKind::Text => "text",
            PromptKind::Pager => "pager",
            PromptKind::Confirm => "confirm",
            PromptKind::Shell => "shell",
            PromptKind::Unknown => "unknown",
        }
    }

    /// The kind named `name` (`unknown` only when `unknown` is allowed: a wait for no prompt
    /// means nothing), or the message a person reads: `"maybe" is not a prompt kind: …`
    /// (without `unknown`, for a wait, it names `any` too, which waits read themselves).
    pub fn parse(name: &str, unknown: bool) -> Result<PromptKind, PromptKindError> {
        PromptKind::from_name(name)
            .filter(|k| unknown || *k != PromptKind::Unknown)
            .ok_or_else(|| {
                PromptKindError::new(
                    PromptKindErrorKind::Unknown,
                    format!(
                        "\"{}\" is not a prompt kind: yesno, select, password, text, pager, confirm{}",
                        crate::escape::escape_for_terminal(name, 40),
                        if unknown {
                            ", shell or unknown"
                        } else {
                            ", shell, or any (any of them)"
                        }
                    ),
                )
            })
    }

    /// The kind a [`name`](Self::name) gives.
    pub fn from_name(name: &str) -> Option<PromptKind> {
        use PromptKind::*;
        [
            YesNo, Select, Password, Text, Pager, Confirm, Shell, Unknown,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// A classified prompt with its evidence.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Prompt {
    /// What the program waits for.
    pub kind: PromptKind,
    /// How sure the classifier is, 0 to 1.
    pub confidence: f32,
    /// What it saw: the line, the buttons, the flag.
    pub evidence: String,
    /// The row of the evidence (0-based), if it is one row.
    pub row: Option<usize>,
    /// For `yesno`: the answer Enter gives, when the screen shows it (`yes` or `no`).
    pub default: Option<String>,
    /// For `select`: the options, top to bottom.
    pub options: Vec<String>,
    /// For `select`: the index in `options` of the highlighted one.
    pub selected: Option<usize>,
}

impl Prompt {
    /// The confidence to two decimals, as the JSON forms write it (`0.8`, not the
    /// `0.800000011920929` an `f32` becomes in JSON).
    pub fn rounded_confidence(&self) -> f64 {
        (f64::from(self.confidence) * 100.0).round() / 100.0
    }
}

impl Prompt {
    fn new(
        kind: PromptKind,
        confidence: f32,
        evidence: impl Into<String>,
        row: Option<usize>,
    ) -> Prompt {
        Prompt {
            kind,
            confidence,
            evidence: evidence.into(),
            row,
            default: None,
            options: Vec::new(),
            selected: None,
        }
    }
}

/// The terminal modes the classifier reads, where known (a live session reads them from the
/// PTY: `record::Session::modes`); [`TtyModes::UNKNOWN`] in replay.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TtyModes {
    /// Whether the terminal echoes input (`ECHO`).
    pub echo: Option<bool>,
    /// Whether it reads whole lines (`ICANON`, line mode): off while a line editor or a
    /// full-screen program reads keys itself.
    pub canonical: Option<bool>,
    /// Whether the program is blocked reading its terminal (a process of its tree in a read
    /// of it, every thread of the tree asleep until an event, none of them about to wake by
    /// itself: `Session::reading`), or working, printing, sleeping, waiting on something
    /// else (the network, a pipe) or gone (`Some(false)`: then it waits for nothing).
    pub reading: Option<bool>,
}

impl TtyModes {
    /// Neither mode known (a replayed cast).
    pub const UNKNOWN: TtyModes = TtyModes {
        echo: None,
        canonical: None,
        reading: None,
    };

    /// Echo off while lines are read: a password prompt's modes (getpass, sudo, ssh), and
    /// what the classifier assumes of echo off when the line mode is unknown.
    pub fn hides_a_line(self) -> bool {
        self.echo == Some(false) && self.canonical != Some(false)
    }
}

/// Classifies the prompt of `screen` (with its `outline`). `modes` are the terminal's echo
/// and line modes where they are known (a live session), [`TtyModes::UNKNOWN`] in replay.
pub fn classify(screen: &Screen, outline: &Outline, modes: TtyModes) -> Prompt {
    // A program working, printing or gone waits for nothing, whatever its screen says.
    if modes.reading == Some(false) {
        return Prompt::new(
            PromptKind::Unknown,
            0.0,
            "not blocked reading input: the program is working, printing or has exited",
            None,
        );
    }
    let rows = screen.rows.len();
    let texts: Vec<String> = (0..rows).map(|r| screen.row_text(r)).collect();
    let last = (0..rows).rev().find(|&r| !texts[r].trim().is_empty());
    let cur = outline.cursor.row.min(rows.saturating_sub(1));
    let cur_text = texts.get(cur).cloned().unwrap_or_default();
    // The cursor sits right after the line's text (a space or two allowed).
    let at_end = outline.cursor.visible
        && outline.cursor.col >= cur_text.chars().count()
        && outline.cursor.col <= cur_text.chars().count() + 2;

    // Pagers: the last row of the screen, or the last row with text when the cursor is on
    // it (less and more on a short text stop right below it).
    if let Some(r) = last.filter(|&r| r + 1 == rows || r == cur) {
        let t = texts[r].trim();
        if re(
            &PAGER,
            r"^(\(END\)|--More--.*|.*\(END\)|.*\blines \d+-\d+/\d+.*|Manual page .* line \d+.*)$",
        )
        .is_match(t)
        {
            return Prompt::new(PromptKind::Pager, 0.9, t, Some(r));
        }
        if t == ":" && cur == r {
            return Prompt::new(PromptKind::Pager, 0.7, t, Some(r));
        }
    }
    // Passwords: echo off while a line is read is a password whatever the label says (known
    // to be blocked reading: any text before the cursor; else a label ending in `:`).
    let labelled = if modes.reading == Some(true) {
        at_end && !cur_text.trim().is_empty()
    } else {
        cur_text.trim_end().ends_with(':')
    };
    if modes.hides_a_line() && labelled {
        return Prompt::new(
            PromptKind::Password,
            0.95,
            format!("echo off; {}", cur_text.trim()),
            Some(cur),
        );
    }
    if re(&PASSWORD, r"(?i)(password|passphrase|\bpin\b)[^:]*:\s*$").is_match(&cur_text) {
        return Prompt::new(PromptKind::Password, 0.8, cur_text.trim(), Some(cur));
    }
    // Yes/no on the cursor's line.
    if let Some(m) = re(&YESNO, r"(?i)[\[(]\s*(y/n|yes/no)\b[^\])]{0,40}[\])]").find(&cur_text) {
        let mut p = Prompt::new(PromptKind::YesNo, 0.9, cur_text.trim(), Some(cur));
        let choice = m.as_str();
        p.default = if choice.contains('Y') && !choice.contains('N') {
            Some("yes".into())
        } else if choice.contains('N') && !choice.contains('Y') {
            Some("no".into())
        } else {
            None
        };
        return p;
    }
    // coreutils' interactive questions (`rm -i`, `cp -i`, `mv -i`): anything but `y` is no.
    if at_end
        && re(&COREUTILS, r"^(rm|cp|mv|ln|rmdir|install): .*\?$").is_match(cur_text.trim_end())
    {
        let mut p = Prompt::new(PromptKind::YesNo, 0.7, cur_text.trim(), Some(cur));
        p.default = Some("no".into());
        return p;
    }
    // Yes/no buttons in a dialog.
    let buttons = re(&BUTTONS, r"<\s*(Yes|No)\s*>|\[\s*(Yes|No)\s*\]");
    for b in &outline.boxes {
        let inner = b.inner();
        let found: Vec<(usize, String)> = (inner.row..inner.row_end)
            .flat_map(|r| {
                buttons
                    .find_iter(&texts[r])
                    .map(move |m| (r, m.as_str().to_string()))
            })
            .collect();
        let yes = found.iter().any(|(_, t)| t.contains("Yes"));
        let no = found.iter().any(|(_, t)| t.contains("No"));
        if yes && no {
            let row = found[0].0;
            let mut p = Prompt::new(PromptKind::YesNo, 0.85, texts[row].trim(), Some(row));
            p.default = outline
                .highlights
                .iter()
                .find(|h| h.row == row)
                .and_then(|h| {
                    if h.text.contains("Yes") {
                        Some("yes".to_string())
                    } else if h.text.contains("No") {
                        Some("no".to_string())
                    } else {
                        None
                    }
                });
            return p;
        }
    }
    // A question with Y and N keys offered (nano).
    if cur_text.trim_end().ends_with('?')
        && texts
            .iter()
            .any(|t| re(&YKEY, r"(^|\s)Y Yes\b").is_match(t))
        && texts.iter().any(|t| re(&NKEY, r"(^|\s)N No\b").is_match(t))
    {
        return Prompt::new(PromptKind::YesNo, 0.8, cur_text.trim(), Some(cur));
    }
    // A question over marked options (inquirer, survey, enquirer, prompts, @clack).
    if let Some(p) = marked_options(&texts) {
        return p;
    }
    // Press any key.
    let confirm = re(
        &CONFIRM,
        r"(?i)\b(press|hit|push) (any key|enter|return|<return>|<enter>)",
    );
    if let Some(r) = (0..rows).rev().find(|&r| confirm.is_match(&texts[r])) {
        return Prompt::new(PromptKind::Confirm, 0.8, texts[r].trim(), Some(r));
    }
    // A dialog with the visible cursor in it and no list: a field to type in. A dialog with
    // one OK button and nothing to type: a message to acknowledge.
    let c = &outline.cursor;
    let selected_box = outline.selected_row().and_then(|h| h.container);
    let innermost = outline
        .boxes
        .iter()
        .enumerate()
        .filter(|(_, b)| {
            let i = b.inner();
            (i.row..i.row_end).contains(&c.row) && (i.col..i.col_end).contains(&c.col)
        })
        .max_by_key(|(i, _)| std::iter::successors(Some(*i), |&p| outline.boxes[p].parent).count());
    if let Some((i, b)) = innermost {
        let inner = b.inner();
        let ok = re(&OK, r"(?i)<\s*OK\s*>|\[\s*OK\s*\]|\[<\s*OK\s*>\]");
        let ok_only = (inner.row..inner.row_end).any(|r| ok.is_match(&texts[r]))
            && !(inner.row..inner.row_end).any(|r| re(&CANCEL, r"(?i)cancel").is_match(&texts[r]));
        // A highlighted field under the cursor that is not a button (`<  OK  >`, `[ OK ]`).
        let fields = outline.highlights.iter().any(|h| {
            h.container == Some(i)
                && h.row == c.row
                && h.cols.contains(&c.col)
                && !re(&BUTTON, r"^[<\[].*[>\]]$").is_match(&h.text)
        });
        let here = b.title.clone().unwrap_or_else(|| b.name.clone());
        if ok_only && !fields {
            return Prompt::new(PromptKind::Confirm, 0.7, here, Some(b.rect.row));
        }
        // A field asking for a key, a token or a password: whiptail's and dialog's password
        // boxes echo nothing as their input boxes do; text or a secret is a guess.
        let secret = re(
            &SECRET,
            r"(?i)\b(password|passphrase|pin|secret|key|token)s?\b",
        );
        if (inner.row..inner.row_end).any(|r| secret.is_match(&texts[r])) {
            return Prompt::new(
                PromptKind::Unknown,
                0.0,
                format!("{here}: a field that asks for a secret or text"),
                Some(c.row),
            );
        }
        // The list of a dialog is in the dialog or in a box inside it.
        let holds_list = selected_box.is_some_and(|s| {
            std::iter::successors(Some(s), |&p| outline.boxes[p].parent).any(|p| p == i)
        });
        if c.visible && !holds_list {
            return Prompt::new(PromptKind::Text, 0.7, here, Some(c.row));
        }
    }
    // A selected row in a list, not a table's row (htop's and mc's selected rows, columns
    // parted by rules or by three gaps or more, are a cursor in a table, not a question), nor
    // text selected in an editor (vim's visual selection, cut inside a word by the cursor).
    if let Some(h) = outline.selected_row().filter(|h| {
        let gaps = h
            .text
            .trim()
            .split("  ")
            .filter(|p| !p.trim().is_empty())
            .count();
        !h.text.contains(['│', '|']) && gaps < 4 && !cuts_a_word(screen, h)
    }) {
        let block = outline
            .blocks
            .iter()
            .find(|b| b.container == h.container && (b.rect.row..b.rect.row_end).contains(&h.row));
        if let Some(block) = block {
            let mut p = Prompt::new(PromptKind::Select, 0.8, h.text.clone(), Some(h.row));
            for (i, line) in block.lines.iter().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                if block.rect.row + i == h.row {
                    p.selected = Some(p.options.len());
                }
                p.options.push(line.trim().to_string());
            }
            return p;
        }
    }
    // An input field.
    if let Some(h) = outline
        .highlights
        .iter()
        .find(|h| c.visible && h.row == c.row && h.cols.contains(&c.col) && h.container.is_some())
    {
        return Prompt::new(PromptKind::Text, 0.7, h.text.clone(), Some(h.row));
    }
    if at_end && Some(cur) == last {
        if let Some(p) = numbered_menu(&texts, cur) {
            return p;
        }
        let t = cur_text.trim_end();
        // A REPL's or debugger's prompt of one word: `sqlite>`, `mysql>`, `(gdb)`.
        if re(&REPL, r"^([A-Za-z][\w.-]*>|\([A-Za-z][\w.-]*\))$").is_match(t.trim_start()) {
            return Prompt::new(PromptKind::Shell, 0.6, t.trim_start(), Some(cur));
        }
        if re(&SHELL, r"((^|\s)([$#%>]|>>>)|[\w~/)\]][$#])$").is_match(t) || t.trim() == "..." {
            return Prompt::new(PromptKind::Shell, 0.7, t.trim_start(), Some(cur));
        }
        if t.ends_with(':') || t.ends_with('?') {
            return Prompt::new(PromptKind::Text, 0.6, t.trim_start(), Some(cur));
        }
        // A shell's prompt with a command being typed after it, while a line editor reads
        // keys (`$ git sta`).
        if modes.canonical == Some(false)
            && re(
                &TYPED,
                r"^(?:\([^)]*\) )?(?:\[[^\]]*\]|[\w.@:~/+-])*[$#%] \S",
            )
            .is_match(t)
        {
            return Prompt::new(PromptKind::Shell, 0.6, t.trim_start(), Some(cur));
        }
    }
    Prompt::new(PromptKind::Unknown, 0.0, "", None)
}

/// A pointer before the current option (`> `, `❯ `, `› `, `▸ `, `→ `).
const POINTERS: &[char] = &['>', '❯', '›', '▸', '→'];
/// The chosen and the other options of a radio list (`●`/`○`, `◉`/`◯`).
const RADIO_ON: &[char] = &['●', '◉'];
const RADIO_OFF: &[char] = &['○', '◯'];

/// A row's text without a left gutter (`│  `, `|  `: @clack draws one), with the column its
/// text starts at.
fn body(text: &str) -> (usize, &str) {
    let trimmed = text.trim_start_matches(' ');
    let mut col = text.chars().count() - trimmed.chars().count();
    let mut rest = trimmed;
    if let Some(r) = rest.strip_prefix(['│', '┃', '|']) {
        let t = r.trim_start_matches(' ');
        col += 1 + r.chars().count() - t.chars().count();
        rest = t;
    }
    (col, rest.trim_end())
}

/// What a marked row says: (pointer or radio, the column the option's text starts at, the
/// option's text).
fn marked(text: &str) -> Option<(bool, usize, &str)> {
    let (col, b) = body(text);
    let mut chars = b.chars();
    let first = chars.next()?;
    let radio = RADIO_ON.contains(&first);
    if !radio && !POINTERS.contains(&first) {
        return None;
    }
    let after = chars.as_str();
    let option = after.trim_start_matches(' ');
    let gap = after.chars().count() - option.chars().count();
    // `>>>` is a REPL, `> ` alone a continuation prompt: an option has text after a space.
    if gap == 0 || option.is_empty() {
        return None;
    }
    Some((radio, col + 1 + gap, option))
}

/// The options of a question with one of them marked, as inquirer-style prompts draw them: a
/// question row, then option rows, the current one after a pointer and the others indented
/// to the same column, or radio marks. One marked row only; at least two options.
fn marked_options(texts: &[String]) -> Option<Prompt> {
    let marks: Vec<usize> = (0..texts.len())
        .filter(|&r| marked(&texts[r]).is_some())
        .collect();
    let [m] = marks[..] else {
        return None;
    };
    let (radio, col, _) = marked(&texts[m])?;
    let is_option = |r: usize| -> bool {
        let t = &texts[r];
        if t.trim().is_empty() {
            return false;
        }
        let (c, b) = body(t);
        if radio {
            b.starts_with(RADIO_OFF)
        } else {
            c == col && !b.is_empty()
        }
    };
    let mut top = m;
    while top > 0 && is_option(top - 1) {
        top -= 1;
    }
    let mut bottom = m;
    while bottom + 1 < texts.len() && is_option(bottom + 1) {
        bottom += 1;
    }
    if top == bottom {
        return None;
    }
    // The question: the row above the options (a blank or gutter row between allowed).
    let question = (top.saturating_sub(2)..top)
        .rev()
        .map(|r| body(&texts[r]).1)
        .find(|b| !b.is_empty())?;
    let asks = question.starts_with(['?', '◆', '◇'])
        || question.starts_with("[?]")
        || question.ends_with('?')
        || question.ends_with(':');
    if !asks {
        return None;
    }
    let mut p = Prompt::new(PromptKind::Select, 0.8, question, Some(m));
    for (r, text) in texts.iter().enumerate().take(bottom + 1).skip(top) {
        let option = match marked(text) {
            Some((_, _, o)) => o,
            None => {
                let b = body(text).1;
                if radio {
                    b.trim_start_matches(RADIO_OFF).trim_start()
                } else {
                    b
                }
            }
        };
        if r == m {
            p.selected = Some(p.options.len());
        }
        p.options.push(option.to_string());
    }
    Some(p)
}

/// A numbered menu over the cursor's line, as bash's `select` prints one: two or more rows
/// `1) item` right above it (the cursor's line its question: `#?`, `Pick one:`).
fn numbered_menu(texts: &[String], cur: usize) -> Option<Prompt> {
    let item = re(&NUMBERED, r"^\s*(\d+)\) (\S.*)$");
    let mut top = cur;
    while top > 0 && item.is_match(texts[top - 1].trim_end()) {
        top -= 1;
    }
    if cur - top < 2 {
        return None;
    }
    let question = texts[cur].trim();
    let mut p = Prompt::new(PromptKind::Select, 0.7, question, Some(cur));
    for t in &texts[top..cur] {
        if let Some(c) = item.captures(t.trim_end()) {
            p.options.push(c[2].trim().to_string());
        }
    }
    Some(p)
}

static PAGER: OnceLock<Regex> = OnceLock::new();
static REPL: OnceLock<Regex> = OnceLock::new();
static NUMBERED: OnceLock<Regex> = OnceLock::new();
static PASSWORD: OnceLock<Regex> = OnceLock::new();
static YESNO: OnceLock<Regex> = OnceLock::new();
static COREUTILS: OnceLock<Regex> = OnceLock::new();
static BUTTONS: OnceLock<Regex> = OnceLock::new();
static YKEY: OnceLock<Regex> = OnceLock::new();
static NKEY: OnceLock<Regex> = OnceLock::new();
static CONFIRM: OnceLock<Regex> = OnceLock::new();
static SHELL: OnceLock<Regex> = OnceLock::new();
static OK: OnceLock<Regex> = OnceLock::new();
static CANCEL: OnceLock<Regex> = OnceLock::new();
static BUTTON: OnceLock<Regex> = OnceLock::new();
static SECRET: OnceLock<Regex> = OnceLock::new();
static TYPED: OnceLock<Regex> = OnceLock::new();

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("a valid pattern"))
}

/// Whether the highlight `h` starts or ends inside a word (a letter or digit on both sides of
/// its edge): a selection of text, not a row of a list.
fn cuts_a_word(screen: &Screen, h: &crate::term::Highlight) -> bool {
    let Some(row) = screen.rows.get(h.row) else {
        return false;
    };
    let word = |c: usize| {
        row.get(c)
            .and_then(|cell| cell.text.chars().next())
            .is_some_and(char::is_alphanumeric)
    };
    (h.cols.start > 0 && word(h.cols.start - 1) && word(h.cols.start))
        || (h.cols.end > h.cols.start && word(h.cols.end - 1) && word(h.cols.end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Size;

    /// The prompt of a 60-column screen of `output` (the cursor where it leaves it).
    fn prompt(output: &str, modes: TtyModes) -> Prompt {
        let s = crate::term::test_screen(Size { cols: 60, rows: 10 }, output);
        classify(&s, &s.outline(), modes)
    }

    const RAW: TtyModes = TtyModes {
        echo: Some(false),
        canonical: Some(false),
        reading: None,
    };

    #[test]
    fn echo_off_is_a_password_only_in_line_mode() {
        let line = TtyModes {
            echo: Some(false),
            canonical: Some(true),
            reading: None,
        };
        assert_eq!(prompt("Token: ", line).kind, PromptKind::Password);
        // Readline: both off, the editor echoes itself.
        assert_eq!(prompt("Your name: ", RAW).kind, PromptKind::Text);
        // Unknown line mode: as before.
        let unknown = TtyModes {
            echo: Some(false),
            canonical: None,
            reading: None,
        };
        assert_eq!(prompt("Token: ", unknown).kind, PromptKind::Password);
        // The words still say it with the modes unknown (a replay).
        assert_eq!(
            prompt("Password: ", TtyModes::UNKNOWN).kind,
            PromptKind::Password
        );
    }

    #[test]
    fn pointer_and_radio_marks_under_a_question_are_a_select() {
        let p = prompt("? Pick one\r\n  alpha\r\n\u{276f} beta\r\n  gamma", RAW);
        assert_eq!(p.kind, PromptKind::Select, "{p:?}");
        assert_eq!(p.options, ["alpha", "beta", "gamma"]);
        assert_eq!(p.selected, Some(1));
        let p = prompt(
            "\u{25c6}  Manager?\r\n\u{2502}  \u{25cf} npm\r\n\u{2502}  \u{25cb} yarn\r\n",
            RAW,
        );
        assert_eq!(p.kind, PromptKind::Select, "{p:?}");
        assert_eq!(
            (p.options.clone(), p.selected),
            (vec!["npm".into(), "yarn".into()], Some(0))
        );
        // No question above, or one option only: not a select.
        assert_ne!(
            prompt("log:\r\nsome text\r\n> quoted\r\n", RAW).kind,
            PromptKind::Select
        );
        assert_ne!(prompt("? Sure\r\n> yes\r\n", RAW).kind, PromptKind::Select);
    }

    #[test]
    fn text_selected_in_an_editor_is_no_list() {
        // vim's visual line mode over `one` and `two` (as vim 9 draws it), the cursor on
        // `t`, drawn plain: `wo` stands out.
        let vim = "\x1b[48;5;242mone \x1b[m\r\nt\x1b[48;5;242mwo \x1b[m\r\n~\r\n~\x1b[2;1H";
        let s = crate::term::test_screen(Size { cols: 60, rows: 10 }, vim);
        let outline = s.outline();
        let selected = outline.selected_row().map(|h| h.text.trim().to_string());
        assert_eq!(selected.as_deref(), Some("wo"), "{outline:?}");
        let p = classify(&s, &outline, TtyModes::UNKNOWN);
        assert_ne!(p.kind, PromptKind::Select, "{p:?}");
        // The cursor moved off the word: the whole row is highlighted, no word is cut.
        let h = outline.selected_row().unwrap();
        assert!(cuts_a_word(&s, h));
        let whole = "one\r\n\x1b[48;5;242mtwo \x1b[m\r\n~\r\n~\x1b[3;1H";
        let s = crate::term::test_screen(Size { cols: 60, rows: 10 }, whole);
        let outline = s.outline();
        let h = outline.selected_row().expect("the highlighted row");
        assert!(!cuts_a_word(&s, h), "{h:?}");
    }

    #[test]
    fn word_prompts_continuations_and_numbered_menus() {
        for shell in ["sqlite> ", "(gdb) ", ">>> for i in x:\r\n... "] {
            assert_eq!(prompt(shell, RAW).kind, PromptKind::Shell, "{shell:?}");
        }
        let p = prompt("1) build\r\n2) test\r\n#? ", RAW);
        assert_eq!(p.kind, PromptKind::Select, "{p:?}");
        assert_eq!(p.options, ["build", "test"]);
        assert_eq!(p.selected, None);
        // Printed, with nothing waiting on the line after: no prompt.
        assert_eq!(
            prompt("1) build\r\n2) test\r\n", TtyModes::UNKNOWN).kind,
            PromptKind::Unknown
        );
    }
    #[test]
    fn issue_42_busy_programs_wait_for_nothing_and_echo_off_is_a_password() {
        let reading = |echo: bool, canonical: bool, reading: bool| TtyModes {
            echo: Some(echo),
            canonical: Some(canonical),
            reading: Some(reading),
        };
        // Printing `\rstep 4: still waiting for server?` every 0.4 s: not waiting.
        let busy = prompt(
            "step 4: still waiting for server?",
            reading(true, true, false),
        );
        assert_eq!(busy.kind, PromptKind::Unknown, "{busy:?}");
        assert!(busy.evidence.contains("not blocked reading"), "{busy:?}");
        // The same line with the program blocked reading it: a question.
        let asked = prompt(
            "step 4: still waiting for server?",
            reading(true, true, true),
        );
        assert_eq!(asked.kind, PromptKind::Text);
        // Echo off while a line is read: a password, with or without a colon.
        for label in ["Enter token please ", "enter the code ", "Secret? "] {
            let p = prompt(label, reading(false, true, true));
            assert_eq!(p.kind, PromptKind::Password, "{label:?}: {p:?}");
        }
        // Not reading (gone), echo off: nothing.
        assert_eq!(
            prompt("enter the code ", reading(false, true, false)).kind,
            PromptKind::Unknown
        );
    }
}
