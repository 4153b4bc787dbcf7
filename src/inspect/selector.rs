//! The selector language: which [`Ref`](super::Ref)s of a screen a wait, a region, an
//! expectation or a click means, and what state they must be in. One grammar everywhere
//! (`session wait --ref`, `{ wait = { ref = "…" } }`, `{ ref = "…" }` regions, which masks,
//! annotations, expectations and mouse targets name):
//!
//! ```text
//! selector = step { ">>" step }
//! step     = "@" name [ "(" arg { "," arg } ")" ] { "[" filter "]" }
//! name     = word { "." word }                 word: letters, digits, "_" and "-"
//! arg      = string | integer                  string: "…" or '…', with \" \' \\ escapes
//! filter   = integer                           the Nth ref found so far, from 0 (-1: the last)
//!          | [ "!" ] flag                      flag: focused | selected | visible
//!          | attr op literal                   attr: value | text | role | name
//! op       = "=" | "!=" | "~=" (contains) | "^=" (starts with) | "$=" (ends with)
//! literal  = string | bare word | "/" regex "/"     (a /regex/ only after "=")
//! ```
//!
//! - `@status`, `@vim.mode[value=insert]`, `@list.selected[text~="Buy"]`,
//!   `@dialog.button("Yes")[focused]`, `@box("Todos") >> @list.selected`, `@table[0]`.
//! - `A >> B`: the refs `B` finds whose cells lie inside the cells of a ref `A` finds.
//! - Arguments pick refs by their key: a box's title (or its stable name's number,
//!   `@box(1)`, `@box("Todos", 2)`), a button's label, a region's name.
//! - Comparisons are exact and case-sensitive; `value` of a ref without one is its text.
//! - An error gives the column (from 1) in the selector where it went wrong.

use regex::Regex;

use crate::pos::Ordinal;

/// A parsed selector ([`Selector::parse`]; the grammar is in the module docs).
#[derive(Debug, Clone)]
pub struct Selector {
    source: String,
    steps: Vec<Step>,
}

/// One `@name(args)[filters]` of a selector.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    /// The ref's name without `@`: `status`, `vim.mode`, `box`.
    pub(crate) name: String,
    /// The arguments in parentheses.
    pub(crate) args: Vec<Arg>,
    /// The filters in brackets, in order.
    pub(crate) filters: Vec<Filter>,
}

/// An argument of a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Arg {
    Text(String),
    Number(i64),
}

/// A filter of a step.
#[derive(Debug, Clone)]
pub(crate) enum Filter {
    /// The Nth of the refs found so far (negative: from the end).
    Index(i64),
    /// A flag is set (or, with `false`, is not).
    Flag(Flag, bool),
    /// An attribute compared with a literal.
    Compare(Attr, Op, Literal),
}

/// A boolean state of a ref.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flag {
    Focused,
    Selected,
    Visible,
}

/// What a comparison reads of a ref.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attr {
    Value,
    Text,
    Role,
    Name,
}

/// How a comparison compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Ne,
    Contains,
    Starts,
    Ends,
}

/// The right-hand side of a comparison.
#[derive(Debug, Clone)]
pub(crate) enum Literal {
    Text(String),
    Regex(Regex),
}

/// Why a selector does not parse: what is wrong, and the column (from 1, in characters) of
/// the selector where it went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SelectorError {
    /// The column of the selector, from 1.
    pub column: Ordinal,
    /// What is wrong there.
    pub message: String,
}

impl std::fmt::Display for SelectorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "selector column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for SelectorError {}

/// The error `message` at the selector's character `index` (from 0).
fn error_at(index: usize, message: impl Into<String>) -> SelectorError {
    SelectorError {
        column: Ordinal::of(index),
        message: message.into(),
    }
}

/// The longest selector read (characters).
pub const MAX_SELECTOR: usize = 1024;

impl Selector {
    /// Parses `text` (the grammar is in the module docs).
    pub fn parse(text: &str) -> Result<Selector, SelectorError> {
        if text.chars().count() > MAX_SELECTOR {
            return Err(error_at(
                MAX_SELECTOR,
                format!("a selector has at most {MAX_SELECTOR} characters"),
            ));
        }
        let mut p = Parser {
            chars: text.chars().collect(),
            at: 0,
        };
        let mut steps = vec![p.step()?];
        loop {
            p.blanks();
            if p.done() {
                break;
            }
            if !p.eat_str(">>") {
                return Err(p.error("expected `>>` or the end of the selector"));
            }
            p.blanks();
            steps.push(p.step()?);
        }
        Ok(Selector {
            source: text.to_string(),
            steps,
        })
    }

    /// The selector as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Its steps, outermost first.
    pub(crate) fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The regions it names: `x` of `@region("x")`, and every bare `@name` with no dot (a
    /// region's name, or a role's: the caller looks it up).
    pub fn region_names(&self) -> impl Iterator<Item = &str> {
        self.steps
            .iter()
            .filter_map(|s| match (s.name.as_str(), s.args.as_slice()) {
                ("region", [Arg::Text(t)]) => Some(t.as_str()),
                (n, _) if !n.contains('.') => Some(n),
                _ => None,
            })
    }

    /// The adapters its steps name (`vim` of `@vim.mode`).
    pub fn adapters(&self) -> impl Iterator<Item = &str> {
        self.steps
            .iter()
            .filter_map(|s| s.name.split_once('.').map(|(a, _)| a))
    }
}

impl std::fmt::Display for Selector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.source)
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn done(&self) -> bool {
        self.at >= self.chars.len()
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn error(&self, message: impl Into<String>) -> SelectorError {
        error_at(self.at, message)
    }

    fn blanks(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        if self.chars.len() >= self.at + n
            && self.chars[self.at..self.at + n]
                .iter()
                .copied()
                .eq(s.chars())
        {
            self.at += n;
            true
        } else {
            false
        }
    }

    fn word(&mut self) -> String {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn step(&mut self) -> Result<Step, SelectorError> {
        if !self.eat('@') {
            return Err(self.error("a ref begins with `@` (`@status`, `@vim.mode`)"));
        }
        let mut name = self.word();
        if name.is_empty() {
            return Err(self.error("expected a ref's name after `@`"));
        }
        while self.eat('.') {
            let w = self.word();
            if w.is_empty() {
                return Err(self.error("expected a name after `.`"));
            }
            name.push('.');
            name.push_str(&w);
        }
        let mut args = Vec::new();
        if self.eat('(') {
            loop {
                self.blanks();
                args.push(self.arg()?);
                self.blanks();
                if self.eat(')') {
                    break;
                }
                if !self.eat(',') {
                    return Err(self.error("expected `,` or `)`"));
                }
            }
        }
        let mut filters = Vec::new();
        while self.eat('[') {
            self.blanks();
            filters.push(self.filter()?);
            self.blanks();
            if !self.eat(']') {
                return Err(self.error("expected `]`"));
            }
        }
        Ok(Step {
            name,
            args,
            filters,
        })
    }

    fn arg(&mut self) -> Result<Arg, SelectorError> {
        match self.peek() {
            Some('"' | '\'') => Ok(Arg::Text(self.string()?)),
            Some(c) if c.is_ascii_digit() || c == '-' => Ok(Arg::Number(self.number()?)),
            _ => Err(self.error("expected a string (\"Todos\") or a number")),
        }
    }

    fn number(&mut self) -> Result<i64, SelectorError> {
        let start = self.at;
        self.eat('-');
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        text.parse()
            .map_err(|_| error_at(start, format!("`{text}` is not a number")))
    }

    fn string(&mut self) -> Result<String, SelectorError> {
        let start = self.at;
        let quote = self.chars[self.at];
        self.at += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err(error_at(start, "this string has no closing quote")),
                Some(c) if c == quote => {
                    self.at += 1;
                    return Ok(out);
                }
                Some('\\') => {
                    self.at += 1;
                    match self.peek() {
                        Some(c @ ('"' | '\'' | '\\')) => out.push(c),
                        _ => return Err(self.error("a `\\` escapes only `\"`, `'` and `\\`")),
                    }
                    self.at += 1;
                }
                Some(c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
    }

    fn filter(&mut self) -> Result<Filter, SelectorError> {
        if self.peek().is_some_and(|c| c.is_ascii_digit() || c == '-') {
            return Ok(Filter::Index(self.number()?));
        }
        let negated = self.eat('!');
        let start = self.at;
        let word = self.word();
        let flag = match word.as_str() {
            "focused" => Some(Flag::Focused),
            "selected" => Some(Flag::Selected),
            "visible" => Some(Flag::Visible),
            _ => None,
        };
        if let Some(flag) = flag {
            return Ok(Filter::Flag(flag, !negated));
        }
        let attr = match word.as_str() {
            "value" => Attr::Value,
            "text" => Attr::Text,
            "role" => Attr::Role,
            "name" => Attr::Name,
            "" => return Err(self.error("expected a number, a flag or an attribute")),
            other => {
                return Err(error_at(
                    start,
                    format!(
                        "unknown `{other}`: a filter is a number, a flag (focused, selected, \
                         visible) or an attribute (value, text, role, name) and a comparison"
                    ),
                ))
            }
        };
        if negated {
            // At the `!`, the character before the word.
            return Err(error_at(
                start.saturating_sub(1),
                "`!` goes only before a flag; use `!=` to compare",
            ));
        }
        self.blanks();
        let op_at = self.at;
        let op = if self.eat_str("!=") {
            Op::Ne
        } else if self.eat_str("~=") {
            Op::Contains
        } else if self.eat_str("^=") {
            Op::Starts
        } else if self.eat_str("$=") {
            Op::Ends
        } else if self.eat('=') {
            Op::Eq
        } else {
            return Err(self.error("expected `=`, `!=`, `~=`, `^=` or `$=`"));
        };
        self.blanks();
        let lit_at = self.at;
        let literal = match self.peek() {
            Some('"' | '\'') => Literal::Text(self.string()?),
            Some('/') => {
                if op != Op::Eq {
                    return Err(error_at(op_at, "a /regex/ goes only after `=`"));
                }
                self.at += 1;
                let mut pattern = String::new();
                loop {
                    match self.peek() {
                        None => return Err(error_at(lit_at, "this /regex/ has no closing `/`")),
                        Some('/') => {
                            self.at += 1;
                            break;
                        }
                        Some('\\') if self.chars.get(self.at + 1) == Some(&'/') => {
                            pattern.push('/');
                            self.at += 2;
                        }
                        Some(c) => {
                            pattern.push(c);
                            self.at += 1;
                        }
                    }
                }
                let re = crate::util::user_regex(&pattern)
                    .map_err(|e| error_at(lit_at, format!("the regex {e}")))?;
                Literal::Regex(re)
            }
            _ => {
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|c| c.is_alphanumeric() || "_-.:%".contains(c))
                {
                    self.at += 1;
                }
                if self.at == start {
                    return Err(self.error("expected a value: a word, a \"string\" or a /regex/"));
                }
                Literal::Text(self.chars[start..self.at].iter().collect())
            }
        };
        Ok(Filter::Compare(attr, op, literal))
    }
}

impl Literal {
    /// Whether `text` passes `op` with this literal.
    pub(crate) fn test(&self, op: Op, text: &str) -> bool {
        match self {
            Literal::Regex(re) => re.is_match(text),
            Literal::Text(t) => match op {
                Op::Eq => text == t,
                Op::Ne => text != t,
                Op::Contains => text.contains(t.as_str()),
                Op::Starts => text.starts_with(t.as_str()),
                Op::Ends => text.ends_with(t.as_str()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> SelectorError {
        Selector::parse(s).unwrap_err()
    }

    #[test]
    fn selectors_of_the_docs_parse() {
        for s in [
            "@status",
            "@vim.mode[value=insert]",
            "@list.selected[text~=\"Buy\"]",
            "@dialog.button(\"Yes\")[focused]",
            "@box(\"Todos\") >> @list.selected",
            "@table[0]",
            "@box(\"Todos\", 2)",
            "@pager.position[value=/^\\d+%$/]",
            "@dialog.button[!focused][-1]",
        ] {
            Selector::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
        let s = Selector::parse("@box(\"A\") >> @vim.mode").unwrap();
        assert_eq!(s.steps().len(), 2);
        assert_eq!(s.adapters().collect::<Vec<_>>(), ["vim"]);
        assert_eq!(s.steps()[0].args, [Arg::Text("A".into())]);
    }

    #[test]
    fn errors_give_the_column() {
        assert_eq!(err("status").column.get(), 1);
        assert_eq!(err("@").column.get(), 2);
        assert_eq!(err("@box(\"Todos\"").column.get(), 13);
        assert_eq!(err("@box(\"Todos)").column.get(), 6);
        assert_eq!(err("@vim.mode[valu=insert]").column.get(), 11);
        assert!(err("@vim.mode[valu=insert]")
            .message
            .contains("unknown `valu`"));
        assert_eq!(err("@vim.mode[value insert]").column.get(), 17);
        assert_eq!(err("@a @b").column.get(), 4);
        assert_eq!(err("@a[text~=/x/]").column.get(), 8);
        assert_eq!(err("@a[text=/(/]").column.get(), 9);
        assert!(err("@a >> ").message.contains("begins with `@`"));
        assert_eq!(
            err("@vim.mode[value=insert").to_string(),
            "selector column 23: expected `]`"
        );
        let long = format!("@{}", "a".repeat(MAX_SELECTOR));
        assert!(err(&long).message.contains("at most"));
    }
}
