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
                    let _ = writeln!(rows, "| {} | | {} |", md(&r.test), md(first_line(error)));
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
                                    g.rows.get(row - 1).map(|cells| {
                                        cells.iter().map(|c| c.text.as_str()).collect::<String>()
                                    })
                                })
                                .unwrap_or_default()
                        };
                        format!(
                            "row {row}: expected `{}`, actual `{}`",
                            md(line(&s.expected).trim_end()).replace('`', "'"),
                            md(line(&Some(s.actual.clone())).trim_end()).replace('`', "'")
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
        md(report)
    );
    out
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// Text safe in a Markdown table cell: HTML escaped, `|` and backslashes escaped, one line.
fn md(text: &str) -> String {
    super::html::escape(text)
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}
