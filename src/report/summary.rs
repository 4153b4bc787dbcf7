//! The short Markdown summary of a report, for `GITHUB_STEP_SUMMARY`.

use std::fmt::Write as _;

use super::data::CastData;
use super::grid::Grid;

/// Most failing checkpoints listed; the rest are counted.
const MAX_LISTED: usize = 30;

/// `### tuicast: N passed, M failed`, then one table row per failing golden (test, golden,
/// first differing row as expected / actual), and where the report is. Text from casts is
/// escaped for Markdown and HTML.
pub fn markdown_summary(casts: &[CastData], report: &str) -> String {
    let c = super::html::counts(casts);
    let mut out = format!(
        "### tuicast: {} passed, {} failed\n\n",
        c.passed + c.updated,
        c.failed
    );
    let mut listed = 0;
    let mut rows = String::new();
    for cast in casts {
        for r in cast.results.iter().filter(|r| r.failed()) {
            if r.snapshots.is_empty() {
                listed += 1;
                if listed <= MAX_LISTED {
                    let error = r.error.as_deref().unwrap_or("failed");
                    // A screenshot's golden is its declared output.
                    let golden = r.screenshot.as_ref().map_or("", |s| s.output.as_str());
                    let _ = writeln!(
                        rows,
                        "| {} | {} | {} |",
                        md(&r.test),
                        md(golden),
                        md(first_line(error))
                    );
                }
            }
            for s in &r.snapshots {
                listed += 1;
                if listed > MAX_LISTED {
                    continue;
                }
                let what = match (s.missing, s.row) {
                    (true, _) => "golden missing".to_string(),
                    (false, Some(row)) => {
                        let line = |text: &Option<String>| {
                            text.as_deref()
                                .map(Grid::from_snapshot)
                                .and_then(|g| {
                                    g.rows.get(row.index()).map(|cells| {
                                        cells.iter().map(|c| c.text.as_str()).collect::<String>()
                                    })
                                })
                                .unwrap_or_default()
                        };
                        format!(
                            "row {row}: expected `{}`, actual `{}`",
                            code(line(&s.expected).trim_end()),
                            code(line(&Some(s.actual.clone())).trim_end())
                        )
                    }
                    (false, None) => md(s.place.as_deref().unwrap_or("differs")),
                };
                let _ = writeln!(rows, "| {} | {} | {} |", md(&r.test), md(&s.name), what);
            }
        }
    }
    if listed > 0 {
        out.push_str("| test | golden | first difference |\n| --- | --- | --- |\n");
        out.push_str(&rows);
        if listed > MAX_LISTED {
            let _ = writeln!(out, "\nand {} more", listed - MAX_LISTED);
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Report: `{}` (upload it as an artifact; apply the changes locally with \
         `tuicast accept --from DIR`)",
        code(report)
    );
    out
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// Text safe in a Markdown table cell, one line: every character that could start a link, an
/// image, emphasis, HTML, an entity or math (`[x](u)`, `![x](u)`, `*`, `<b>`, `&lt;`, `$`) or
/// end the cell (`|`) is backslash-escaped, which Markdown shows as the character itself. A
/// cast chooses its checkpoint labels, and GitHub renders the summary.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '<' | '>' | '!' | '|' | '~' | '&'
            | '$' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Text for a code span in a table cell, one line. A code span shows its text as it is (an
/// entity or a backslash escape there is shown literally, `&lt;` as `&lt;`), so only what
/// would end it is changed: a backtick becomes `'`, and `|` is written `\|`, which a GitHub
/// table reads as `|` inside code too.
fn code(text: &str) -> String {
    text.replace('`', "'")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_no_links_or_images_and_code_shows_its_text() {
        assert_eq!(
            md("![x](https://e.example/p.png) [a](b) <b>&lt; *c* $m$ a|b \\"),
            "\\!\\[x\\]\\(https://e.example/p.png\\) \\[a\\]\\(b\\) \\<b\\>\\&lt; \\*c\\* \\$m\\$ a\\|b \\\\"
        );
        assert_eq!(
            md("text::greeted text/greeted.txt"),
            "text::greeted text/greeted.txt"
        );
        assert_eq!(code("a < b && c\\d `e` |f"), "a < b && c\\d 'e' \\|f");
    }
}
