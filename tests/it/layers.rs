//! The layer rule of ARCHITECTURE.md, checked: each module under `src/` uses only the modules
//! listed before it in the `<!-- layers -->` line. A module missing from the list, a listed
//! module that does not exist, and every use of a later module fail, with the file and line.

use std::collections::BTreeSet;
use std::path::Path;

use crate::util::root;

#[test]
fn each_module_uses_only_the_modules_before_it() {
    let layers = layers_from_architecture();
    let mut problems = Vec::new();
    let mut modules = BTreeSet::new();
    for (file, module) in source_files() {
        modules.insert(module.clone());
        let Some(rank) = layers.iter().position(|l| *l == module) else {
            problems.push(format!(
                "{file}: module `{module}` is not in ARCHITECTURE.md's layers"
            ));
            continue;
        };
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        for (line, used) in crate_uses(&text, super_is_crate_root(&file)) {
            if used == module {
                continue;
            }
            match layers.iter().position(|l| *l == used) {
                Some(r) if r < rank => {}
                Some(_) => problems.push(format!(
                    "{file}:{line}: `{module}` uses `{used}`, which comes after it in the layers"
                )),
                None => problems.push(format!(
                    "{file}:{line}: `{module}` uses `crate::{used}`, which is not in the layers"
                )),
            }
        }
    }
    for layer in &layers {
        if !modules.contains(layer) {
            problems.push(format!(
                "ARCHITECTURE.md lists `{layer}`, which is not a module of src/"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "layer rule broken:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_scanner_sees_uses_and_ignores_comments_and_strings() {
    let text = r##"
use crate::cast::Event;
use crate::{term::Size, replay};
// crate::render in a comment
/* crate::assert in a block */
let s = "crate::harness in a string";
let r = r#"crate::config in a raw string"#;
let c = '"'; let q = '\''; let t = crate::util::write_atomic;
fn f<'a>(x: &'a str) -> crate::size::Size { todo!() }
"##;
    let uses: Vec<_> = crate_uses(text, false)
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    assert_eq!(uses, ["cast", "replay", "term", "util", "size"]);
    let top: Vec<_> = crate_uses("use super::escape::x;", true)
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    assert_eq!(top, ["escape"]);
}

/// The module names of the `<!-- layers -->` line, in order.
fn layers_from_architecture() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let line = text
        .lines()
        .skip_while(|l| !l.contains("<!-- layers -->"))
        .nth(1)
        .expect("ARCHITECTURE.md has a line after <!-- layers -->");
    line.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Every library source file (`src/` less `lib.rs` and the binary: `main.rs`, `cli/`), with
/// its module: the first path component under `src/`.
/// A message string that lost the `\` of its line continuation keeps the next line's
/// indentation inside it (`"… so                  nothing was saved"`): no line of the
/// sources has a string with a run of eight spaces between words.
#[test]
fn no_message_kept_the_indentation_of_its_next_line() {
    let mut problems = Vec::new();
    for (file, _) in source_files() {
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        // Messages, not the test data of a file's tests (last, by convention).
        let code = text.split("\n#[cfg(test)]").next().unwrap_or_default();
        for (i, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            // Each literal of the line (between unescaped quotes), in turn.
            let mut literals = Vec::new();
            let (mut open, mut escaped, mut start) = (false, false, 0);
            for (j, c) in line.char_indices() {
                match c {
                    '\\' if open => escaped = !escaped,
                    '"' if !escaped => {
                        if open {
                            literals.push(&line[start..j]);
                        }
                        open = !open;
                        start = j + 1;
                    }
                    _ => escaped = false,
                }
            }
            for literal in literals {
                // Runs of two or more spaces: a table of test data has several, a message that
                // lost its continuation one long one between words.
                let mut runs = Vec::new();
                let mut from = None;
                for (j, c) in literal.char_indices().chain([(literal.len(), 'x')]) {
                    match (c == ' ', from) {
                        (true, None) => from = Some(j),
                        (false, Some(f)) => {
                            if j - f >= 2 {
                                runs.push((f, j));
                            }
                            from = None;
                        }
                        _ => {}
                    }
                }
                let words = |t: &str| t.chars().any(char::is_alphabetic);
                if let [(f, t)] = runs[..] {
                    if t - f >= 8 && words(&literal[..f]) && words(&literal[t..]) {
                        problems.push(format!("{file}:{}: {}", i + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn source_files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root().join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let Some(inner) = rel.strip_prefix("src/") else {
                continue;
            };
            if !rel.ends_with(".rs")
                || inner == "lib.rs"
                || inner == "main.rs"
                || inner.starts_with("cli/")
            {
                continue;
            }
            let module = inner
                .split('/')
                .next()
                .unwrap()
                .trim_end_matches(".rs")
                .to_string();
            out.push((rel, module));
        }
    }
    out.sort();
    out
}

/// Whether `super` in `file` names the crate root: in `src/x.rs` and `src/x/mod.rs`.
fn super_is_crate_root(file: &str) -> bool {
    let inner = file.strip_prefix("src/").unwrap_or(file);
    !inner.contains('/')
        || Path::new(inner)
            .parent()
            .is_some_and(|p| p.components().count() == 1)
            && inner.ends_with("/mod.rs")
}

/// The crate modules `text` refers to, with 1-based lines: `crate::NAME`, the names in
/// `use crate::{..}`, and (for a file directly under `src/`, whose `super` is the crate root)
/// `super::NAME`. Comments, strings and character literals are skipped.
fn crate_uses(text: &str, super_is_root: bool) -> Vec<(usize, String)> {
    let code = code_only(text);
    let mut out = Vec::new();
    let prefixes: &[&str] = if super_is_root {
        &["crate::", "super::"]
    } else {
        &["crate::"]
    };
    for prefix in prefixes {
        let mut at = 0;
        while let Some(i) = code[at..].find(prefix) {
            let start = at + i;
            at = start + prefix.len();
            let before = code[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let line = code[..start].matches('\n').count() + 1;
            let rest = &code[at..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = matching_brace(group);
                for item in split_top_level(&group[..end]) {
                    let name: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() && name != "self" {
                        out.push((line, name));
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push((line, name));
                }
            }
        }
    }
    out.sort();
    out
}

fn matching_brace(s: &str) -> usize {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    s.len()
}

fn split_top_level(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// `text` with comments, string and character literals blanked (newlines kept, so line
/// numbers stay right).
/// Library errors are types (issue 25): no function of `src/` outside the binary's `cli/`
/// returns `Result<_, String>` (a test module, last in its file by convention, may). A
/// message with nothing more to say is a `message_error!` type, which converts to and from a
/// `String`.
#[test]
fn no_library_code_returns_a_string_error() {
    let mut problems = Vec::new();
    for (file, _) in source_files() {
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        let code = code_only(text.split("\n#[cfg(test)]").next().unwrap_or_default());
        let flat: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
        for (at, _) in flat.match_indices("Result<") {
            // The error type: after the top-level comma of the `Result<…>`.
            let inner = &flat[at + "Result<".len()..];
            let (mut depth, mut comma, mut end) = (0i32, None, None);
            for (i, c) in inner.char_indices() {
                match c {
                    '<' | '(' | '[' => depth += 1,
                    '>' | ')' | ']' if depth == 0 => {
                        end = Some(i);
                        break;
                    }
                    '>' | ')' | ']' => depth -= 1,
                    ',' if depth == 0 => comma = Some(i),
                    _ => {}
                }
            }
            if let (Some(c), Some(e)) = (comma, end) {
                if inner[c + 1..e].trim() == "String" {
                    problems.push(format!("{file}: Result<{}>", &inner[..e]));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "string errors in library code (give each a type: message_error!, or a kind enum):\n{}",
        problems.join("\n")
    );
}

fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &str| {
        out.extend(s.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
    };
    while i < b.len() {
        let rest = &text[i..];
        let end = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if rest.starts_with("/*") {
            rest.find("*/").map(|e| e + 2).unwrap_or(rest.len())
        } else if let Some(hashes) = raw_string_start(rest) {
            let close = format!("\"{}", "#".repeat(hashes));
            let open = 2 + hashes;
            rest[open..]
                .find(&close)
                .map(|e| open + e + close.len())
                .unwrap_or(rest.len())
        } else if rest.starts_with('"') {
            let mut j = 1;
            let rb = rest.as_bytes();
            while j < rb.len() && rb[j] != b'"' {
                j += if rb[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(rest.len())
        } else if let Some(escaped) = rest.strip_prefix("'\\") {
            // '\n', '\'', '\x1b', '\u{9b}': the escaped character, then up to the quote.
            let after = 2 + escaped.chars().next().map_or(0, char::len_utf8);
            rest[after..]
                .find('\'')
                .map(|e| after + e + 1)
                .unwrap_or(rest.len())
        } else if rest.starts_with('\'') && rest.chars().nth(2) == Some('\'') {
            rest.char_indices()
                .nth(3)
                .map(|(e, _)| e)
                .unwrap_or(rest.len())
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
            continue;
        };
        blank(&mut out, &rest[..end]);
        i += end;
    }
    out
}

/// For `r"`, `r#"`, `br##"`…: the number of `#`s.
fn raw_string_start(s: &str) -> Option<usize> {
    let s = s.strip_prefix('b').unwrap_or(s);
    let s = s.strip_prefix('r')?;
    let hashes = s.len() - s.trim_start_matches('#').len();
    s[hashes..].starts_with('"').then_some(hashes)
}

/// Positions are counted from 0 in the grid and from 1 where people read them, and
/// `src/pos.rs` is the one place that converts (ARCHITECTURE.md, `pos`): a row or column with
/// 1 added or taken away inside a formatting macro (`format!`, `write!`, …) is a boundary
/// that skipped `pos::Ordinal` or `pos::Place`.
#[test]
fn positions_are_converted_for_people_only_in_pos() {
    let position =
        regex::Regex::new(r"\b(row|col|column|r|c|start|first|last)\s*[+-]\s*1\b").unwrap();
    let mut problems = Vec::new();
    for (file, _) in source_files() {
        if file == "src/pos.rs" {
            continue;
        }
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        let code = code_only(text.split("\n#[cfg(test)]").next().unwrap_or_default());
        for (at, _) in code.match_indices("!(") {
            let name_start = code[..at]
                .rfind(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .map_or(0, |i| i + 1);
            let name = &code[name_start..at];
            if !matches!(
                name,
                "format" | "write" | "writeln" | "print" | "println" | "eprintln" | "format_args"
            ) {
                continue;
            }
            let mut depth = 0;
            let args = code[at + 1..]
                .char_indices()
                .find_map(|(i, c)| {
                    match c {
                        '(' | '[' | '{' => depth += 1,
                        ')' | ']' | '}' => depth -= 1,
                        _ => {}
                    }
                    (depth == 0).then_some(&code[at + 1..at + 2 + i])
                })
                .unwrap_or_default();
            if let Some(m) = position.find(args) {
                let line = code[..at].matches('\n').count() + 1;
                problems.push(format!("{file}:{line}: `{}` in {name}!", m.as_str()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "a position converted outside src/pos.rs (use pos::Ordinal::of, pos::Place or \
         Ordinal::index):\n{}",
        problems.join("\n")
    );
}
