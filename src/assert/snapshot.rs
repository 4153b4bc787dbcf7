//! The snapshot file formats as written (each format is defined in `format.rs`: its name, and
//! whether its render below carries the styles and links).
//!
//! Both start with a small self-describing header, then the screen's rows:
//!
//! ```text
//! ---
//! cast: shell.cast
//! checkpoint: listed
//! size: 80x24
//! cursor: 3:5
//! ---
//! $ ls
//! dir  file
//! ```
//!
//! `cursor` is `row:col`, 1-based; then the shape when a program chose one other than the
//! default steady block (DECSCUSR): ` bar`, ` underline`, ` blinking block`, ` blinking bar`,
//! .... A hidden cursor has no position in a golden (where a program leaves a cursor it hides
//! is noise): `cursor: hidden`, `cursor: bar hidden`. A shown cursor inside a masked cell is
//! `cursor: masked` (its position is as variable as the cells it is in), and a case that does
//! not check the cursor (`[check] cursor = false`, [`CursorView::Omitted`]) has no `cursor`
//! line at all. Goldens written before hidden cursors lost their position
//! (`cursor: 24:80 hidden`) compare equal to the new form ([`upgrade_golden`]). Every row of
//! the screen follows, trailing spaces trimmed (so the row count is the screen height).
//!
//! After the rows come only the styles that differ from the default, one run per line, as
//! `row:col` or `row:first-last` (1-based cells) then the style. `txt` has this section when
//! the screen has any such cell (a screen of plain text has none, and its `txt` golden is the
//! rows alone), so a change of colour fails a `txt` golden as a change of text does; with
//! `styles = false` (`[check]` of a cast, or `tuicast.toml`) `txt` is the rows alone, as
//! before 0.2. `styled.txt` always has the section, and the links section below:
//!
//! ```text
//! --- styles
//! 2:1-3 fg=4 bold
//! 24:1-80 fg=0 bg=7
//! ```
//!
//! Colours are `fg=N`/`bg=N` for palette colours and `fg=#rrggbb` for truecolour; attributes
//! are `bold dim italic underline strikethrough inverse blink hidden` (`hidden`: concealed
//! text, SGR 8).
//!
//! When cells carry OSC 8 hyperlinks, a `links` section follows the styles: each run of cells
//! with the same link, as `row:col` or `row:first-last`, then the URI (escaped: control
//! characters never reach the file) and ` id=ID` when the program gave the link an id:
//!
//! ```text
//! --- links
//! 3:1-9 file:///home/me/notes.txt
//! 5:4-11 https://example.com/ id=ex1
//! ```
//!
//! With `[check] scrollback = N` (at most [`MAX_SCROLLBACK`](crate::term::MAX_SCROLLBACK)),
//! both text formats show the last N lines scrolled off the top of the main screen (fewer
//! when fewer were) between the header and the rows, oldest first, marked off so that no
//! line of them is taken for a row:
//!
//! ```text
//! ---
//! (header)
//! ---
//! --- scrollback 2
//! 198
//! 199
//! --- screen
//! 200
//! $
//! ```
//!
//! A golden without a `--- scrollback` line has none (every case without the key).
//!
//! `png` goldens are pictures of the screen ([`crate::render::png`]), compared by decoded
//! pixels with a per-channel tolerance and a number of pixels allowed to differ (both 0 by
//! default); see [`Check`](super::Check).

use std::fmt::Write as _;

use crate::escape::escape_for_terminal;
use crate::pos::{self, Ordinal};
use crate::term::{Attrs, Cell, Color, Screen};

use super::Format;

/// Number of lines before the first row: `---`, four fields, `---` (one fewer without the
/// `cursor` line, [`CursorView::Omitted`]; [`header_len`] reads it from a text).
pub const HEADER_LINES: usize = 6;

/// How the `cursor` line of a golden shows the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CursorView {
    /// The position of a shown cursor, its shape, and `hidden` (without a position) for a
    /// hidden one.
    #[default]
    Shown,
    /// The cursor is in a masked cell: `cursor: masked` (with its shape), whatever its
    /// position; a hidden cursor is still `cursor: hidden`.
    Masked,
    /// No `cursor` line (`[check] cursor = false`).
    Omitted,
}

/// The number of header lines of a snapshot text: up to and including the second `---`
/// (at most [`HEADER_LINES`]).
pub fn header_len(text: &str) -> usize {
    let mut lines = text.lines();
    if lines.next() != Some("---") {
        return HEADER_LINES;
    }
    lines
        .take(HEADER_LINES - 1)
        .position(|l| l == "---")
        .map_or(HEADER_LINES, |i| i + 2)
}

/// A golden written before hidden cursors lost their position (`cursor: 24:80 hidden`,
/// `cursor: 3:5 bar hidden`) in today's form (`cursor: hidden`, `cursor: bar hidden`);
/// `None` when it has no such line (nothing to upgrade).
pub fn upgrade_golden(text: &str) -> Option<String> {
    let n = header_len(text);
    let mut offset = 0;
    for line in text.split_inclusive('\n').take(n) {
        let body = line.trim_end_matches('\n');
        if let Some(rest) = body.strip_prefix("cursor: ") {
            let (pos, tail) = rest.split_once(' ')?;
            let is_position = pos.split_once(':').is_some_and(|(r, c)| {
                !r.is_empty()
                    && !c.is_empty()
                    && r.bytes().all(|b| b.is_ascii_digit())
                    && c.bytes().all(|b| b.is_ascii_digit())
            });
            if !is_position || !(tail == "hidden" || tail.ends_with(" hidden")) {
                return None;
            }
            let start = offset + "cursor: ".len();
            let mut out = String::with_capacity(text.len());
            out.push_str(&text[..start]);
            out.push_str(tail);
            out.push_str(&text[offset + body.len()..]);
            return Some(out);
        }
        offset += line.len();
    }
    None
}

/// The line that starts the styles section of a `styled.txt` snapshot.
pub const STYLES_MARK: &str = "--- styles";

/// The line that starts the hyperlinks section of a `styled.txt` snapshot (after the styles).
pub const LINKS_MARK: &str = "--- links";

/// The start of the line that begins the scrollback of a snapshot (`--- scrollback N`).
pub const SCROLLBACK_MARK: &str = "--- scrollback";

/// The line after the scrollback, before the rows.
pub const SCREEN_MARK: &str = "--- screen";

/// The index of the first row line of a snapshot text: after the header, and after the
/// scrollback section when there is one.
pub fn rows_start(text: &str) -> usize {
    let head = header_len(text);
    let n = text
        .lines()
        .nth(head)
        .and_then(|l| l.strip_prefix(SCROLLBACK_MARK))
        .and_then(|n| n.trim().parse::<usize>().ok());
    match n {
        Some(n) => head + n.min(crate::term::MAX_SCROLLBACK) + 2,
        None => head,
    }
}

/// Writes `screen` in `format`. `cast` and `checkpoint` only label the file.
///
/// [`Format::Png`] is binary: this gives its text render (the rows, without styles), which is
/// what a PNG snapshot shows as text; the picture comes from [`Check`](super::Check).
pub fn render(format: Format, cast: &str, checkpoint: &str, screen: &Screen) -> String {
    render_with(format, cast, checkpoint, screen, CursorView::Shown)
}

/// [`render`] with the cursor shown as `cursor` says (masked, or no `cursor` line).
pub fn render_with(
    format: Format,
    cast: &str,
    checkpoint: &str,
    screen: &Screen,
    cursor: CursorView,
) -> String {
    render_golden(format, cast, checkpoint, screen, cursor, 0, true)
}

/// [`render_with`], with the last `scrollback` lines scrolled off the screen above its rows
/// (`[check] scrollback`; 0: none, and no scrollback section), and for [`Format::Text`] the
/// style runs when the screen has any and `styles` is set (`styles = false`: the rows alone).
pub fn render_golden(
    format: Format,
    cast: &str,
    checkpoint: &str,
    screen: &Screen,
    cursor: CursorView,
    scrollback: usize,
    styles: bool,
) -> String {
    let mut out = header(cast, checkpoint, screen, cursor);
    if scrollback > 0 {
        let lines = screen
            .state
            .scrollback
            .last(scrollback.min(crate::term::MAX_SCROLLBACK));
        let _ = writeln!(out, "{SCROLLBACK_MARK} {}", lines.len());
        for line in lines {
            // (The engines make these lines safe; escape all the same.)
            out.push_str(&escape_for_terminal(line, usize::MAX));
            out.push('\n');
        }
        out.push_str(SCREEN_MARK);
        out.push('\n');
    }
    out.push_str(&crate::render::text(screen));
    let runs = || {
        screen
            .rows
            .iter()
            .enumerate()
            .flat_map(|(r, row)| style_runs(row).into_iter().map(move |run| (r, run)))
    };
    // A picture's text render is its rows; a text format has the styles as it says.
    let def = format.def();
    let with_styles = !def.picture && (def.always_styled || styles && runs().next().is_some());
    if with_styles {
        out.push_str(STYLES_MARK);
        out.push('\n');
        for (r, run) in runs() {
            let _ = writeln!(out, "{}", run.display(r));
        }
    }
    if def.links && !screen.state.links.is_empty() {
        out.push_str(LINKS_MARK);
        out.push('\n');
        for (r, row) in screen.rows.iter().enumerate() {
            write_link_runs(&mut out, screen, r, row);
        }
    }
    out
}

/// The `links` lines of row `r`: each run of cells with the same link.
fn write_link_runs(out: &mut String, screen: &Screen, r: usize, row: &[Cell]) {
    let mut i = 0;
    while i < row.len() {
        let link = row[i].link;
        let mut j = i;
        while j + 1 < row.len() && row[j + 1].link == link {
            j += 1;
        }
        if let Some(l) = screen.state.link(link) {
            let place = pos::run_text(r, i, j);
            let _ = write!(
                out,
                "{place} {}",
                escape_for_terminal(&l.uri, crate::term::MAX_URI)
            );
            if let Some(id) = &l.id {
                let _ = write!(
                    out,
                    " id={}",
                    escape_for_terminal(id, crate::term::MAX_LINK_ID)
                );
            }
            out.push('\n');
        }
        i = j + 1;
    }
}

fn header(cast: &str, checkpoint: &str, screen: &Screen, view: CursorView) -> String {
    let c = screen.cursor;
    let shape = if c.shape.is_default() {
        String::new()
    } else {
        format!(" {}", c.shape)
    };
    let cursor = match view {
        CursorView::Omitted => String::new(),
        _ if !c.visible && c.shape.is_default() => "cursor: hidden\n".to_string(),
        _ if !c.visible => format!("cursor: {} hidden\n", c.shape),
        CursorView::Masked => format!("cursor: masked{shape}\n"),
        CursorView::Shown => {
            let at = c.place();
            format!("cursor: {}:{}{shape}\n", at.row, at.col)
        }
    };
    format!(
        "---\ncast: {}\ncheckpoint: {}\nsize: {}\n{cursor}---\n",
        escape_for_terminal(cast, 200),
        escape_for_terminal(checkpoint, 200),
        screen.size,
    )
}

/// A stretch of cells in one row with the same non-default style.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StyleRun {
    /// First cell, 0-based.
    pub first: usize,
    /// Last cell, 0-based, inclusive.
    pub last: usize,
    /// The style of the cells.
    pub style: Style,
}

/// Colours and attributes of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Style {
    /// Foreground colour.
    pub fg: Color,
    /// Background colour.
    pub bg: Color,
    /// Attributes.
    pub attrs: Attrs,
}

impl Style {
    /// The style of `cell`.
    pub fn of(cell: &Cell) -> Style {
        Style {
            fg: cell.fg,
            bg: cell.bg,
            attrs: cell.attrs,
        }
    }

    /// `fg=1 bg=#102030 bold`, or `default`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.fg != Color::Default {
            parts.push(format!("fg={}", self.fg));
        }
        if self.bg != Color::Default {
            parts.push(format!("bg={}", self.bg));
        }
        parts.extend(self.attrs.names().iter().map(|s| s.to_string()));
        if parts.is_empty() {
            "default".to_string()
        } else {
            parts.join(" ")
        }
    }
}

impl StyleRun {
    fn display(&self, row: usize) -> String {
        format!(
            "{} {}",
            pos::run_text(row, self.first, self.last),
            self.style.describe()
        )
    }
}

/// The non-default style runs of a row.
pub fn style_runs(row: &[Cell]) -> Vec<StyleRun> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < row.len() {
        let style = Style::of(&row[i]);
        let mut j = i;
        while j + 1 < row.len() && Style::of(&row[j + 1]) == style {
            j += 1;
        }
        if style != Style::default() {
            out.push(StyleRun {
                first: i,
                last: j,
                style,
            });
        }
        i = j + 1;
    }
    out
}

/// Reads the styles section of a `styled.txt` snapshot back into per-cell styles:
/// `(row, col) → style`, 0-based, for non-default cells. Lines that do not parse are skipped
/// (a hand-edited golden still compares as text).
pub fn parse_styles(text: &str) -> std::collections::BTreeMap<(usize, usize), Style> {
    let size = text
        .lines()
        .take(HEADER_LINES)
        .find_map(|l| l.strip_prefix("size: "))
        .and_then(|s| s.parse::<crate::term::Size>().ok())
        .unwrap_or_default();
    parse_styles_in(text, size)
}

/// [`parse_styles`] for a screen of `size`: cells outside it are skipped and ranges cut at
/// its edge, and parsing stops once as many cells as the screen has were read (a golden lists
/// each cell at most once), so a hand-made golden of `1:1-10001 bold` lines costs no more
/// than one screen of styles.
pub fn parse_styles_in(
    text: &str,
    size: crate::term::Size,
) -> std::collections::BTreeMap<(usize, usize), Style> {
    let mut out = std::collections::BTreeMap::new();
    let Some(start) = text.find(&format!("\n{STYLES_MARK}\n")) else {
        return out;
    };
    let (rows, cols) = (usize::from(size.rows), usize::from(size.cols));
    let mut budget = rows * cols;
    for line in text[start + STYLES_MARK.len() + 2..].lines() {
        if line == LINKS_MARK {
            break;
        }
        let Some((place, desc)) = line.split_once(' ') else {
            continue;
        };
        let Some((row, range)) = place.split_once(':') else {
            continue;
        };
        let Ok(row) = row.parse::<Ordinal>() else {
            continue;
        };
        let (first, last) = match range.split_once('-') {
            Some((a, b)) => (a.parse::<Ordinal>(), b.parse::<Ordinal>()),
            None => (range.parse::<Ordinal>(), range.parse::<Ordinal>()),
        };
        let (Ok(first), Ok(last)) = (first, last) else {
            continue;
        };
        let Some(style) = parse_style(desc) else {
            continue;
        };
        if row.get() > rows || first.get() > cols || last < first {
            continue;
        }
        // Indices from here: `first..last` is the run's half-open range of columns.
        let (row, first, last) = (row.index(), first.index(), last.get().min(cols));
        if last - first > budget {
            break;
        }
        budget -= last - first;
        for col in first..last {
            out.insert((row, col), style);
        }
    }
    out
}

fn parse_style(desc: &str) -> Option<Style> {
    let mut style = Style::default();
    for word in desc.split_whitespace() {
        if let Some(c) = word.strip_prefix("fg=") {
            style.fg = parse_color(c)?;
        } else if let Some(c) = word.strip_prefix("bg=") {
            style.bg = parse_color(c)?;
        } else {
            let a = &mut style.attrs;
            match word {
                "bold" => a.bold = true,
                "dim" => a.dim = true,
                "italic" => a.italic = true,
                "underline" => a.underline = true,
                "strikethrough" => a.strikethrough = true,
                "inverse" => a.inverse = true,
                "blink" => a.blink = true,
                "hidden" => a.hidden = true,
                "default" => {}
                _ => return None,
            }
        }
    }
    Some(style)
}

fn parse_color(s: &str) -> Option<Color> {
    if s.starts_with('#') {
        return crate::rgb::Rgb::from_hex(s).map(Color::Rgb);
    }
    s.parse::<u8>().ok().map(Color::Indexed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Size;

    fn screen(input: &str) -> Screen {
        crate::term::test_screen(Size { cols: 12, rows: 3 }, input)
    }

    #[test]
    fn styled_goldens_list_links_and_text_goldens_the_scrollback_when_asked() {
        let s = crate::term::test_screen(
            crate::term::Size { cols: 12, rows: 2 },
            "1\r\n2\r\n3\r\n\x1b]8;;file:///a\x07ab\x1b]8;;\x07 \x1b]8;id=x;http://e/\x1b\\c\x1b]8;;\x07",
        );
        let styled = render(Format::Styled, "c", "end", &s);
        let links = styled.split_once("--- links\n").unwrap().1;
        assert_eq!(links, "2:1-2 file:///a\n2:4 http://e/ id=x\n");
        // The styles section stops at the links.
        assert!(parse_styles(&styled).is_empty());
        // No links: no section (goldens written before links exist stay as they were).
        assert!(!render(Format::Styled, "c", "end", &screen("ab")).contains("--- links"));
        // Control characters in a URI are escaped.
        let s = crate::term::test_screen(
            crate::term::Size { cols: 4, rows: 1 },
            "\x1b]8;;x\u{9b}y\x07a",
        );
        let styled = render(Format::Styled, "c", "end", &s);
        assert!(!styled.contains('\u{9b}'), "{styled}");
        // Scrollback: only when asked, at most what was kept, marked off from the rows.
        let s =
            crate::term::test_screen(crate::term::Size { cols: 4, rows: 2 }, "1\r\n2\r\n3\r\n4");
        assert_eq!(
            render_golden(Format::Text, "c", "e", &s, CursorView::Omitted, 0, true),
            "---\ncast: c\ncheckpoint: e\nsize: 4x2\n---\n3\n4\n"
        );
        let text = render_golden(Format::Text, "c", "e", &s, CursorView::Omitted, 1, true);
        assert_eq!(
            text,
            "---\ncast: c\ncheckpoint: e\nsize: 4x2\n---\n--- scrollback 1\n2\n--- screen\n3\n4\n"
        );
        assert_eq!(text.lines().nth(rows_start(&text)), Some("3"));
        let text = render_golden(Format::Text, "c", "e", &s, CursorView::Shown, 50, true);
        assert!(
            text.contains("--- scrollback 2\n1\n2\n--- screen\n3\n"),
            "{text}"
        );
        assert_eq!(text.lines().nth(rows_start(&text)), Some("3"));
    }

    #[test]
    fn txt_has_a_header_and_every_row() {
        let s = screen("hello\r\n\x1b[?25l");
        let text = render(Format::Text, "demo.cast", "end", &s);
        assert_eq!(
            text,
            "---\ncast: demo.cast\ncheckpoint: end\nsize: 12x3\ncursor: hidden\n---\nhello\n\n\n"
        );
    }

    #[test]
    fn styled_lists_only_non_default_runs_and_parses_back() {
        let s = screen("\x1b[1;31mab\x1b[0m c \x1b[48;2;1;2;3mX\x1b[0m\r\n\x1b[7m \x1b[0m");
        let text = render(Format::Styled, "demo.cast", "end", &s);
        assert!(
            text.ends_with("--- styles\n1:1-2 fg=1 bold\n1:6 bg=#010203\n2:1 inverse\n"),
            "{text}"
        );
        let styles = parse_styles(&text);
        assert_eq!(styles.len(), 4);
        assert_eq!(styles[&(0, 5)].bg, Color::Rgb(crate::rgb::Rgb(1, 2, 3)));
        assert!(styles[&(1, 0)].attrs.inverse);
    }

    #[test]
    fn style_ranges_are_bounded_by_the_screen() {
        let mut text = render(Format::Styled, "demo.cast", "end", &screen("x"));
        for _ in 0..1000 {
            text.push_str("1:1-10001 bold\n2:5-99 dim\n9:1 bold\n");
        }
        let styles = parse_styles(&text);
        assert!(styles.len() <= 12 * 3, "{}", styles.len());
        assert!(styles[&(0, 11)].attrs.bold && !styles.contains_key(&(0, 12)));
        assert!(styles[&(1, 4)].attrs.dim);
    }

    #[test]
    fn bold_with_dim_is_two_style_words_that_parse_back() {
        // SGR 1 then 2 keeps both, as xterm does; SGR 22 ends both.
        let s = screen("\x1b[1m\x1b[2mab\x1b[22mc");
        let text = render(Format::Styled, "demo.cast", "end", &s);
        assert!(text.ends_with("--- styles\n1:1-2 bold dim\n"), "{text}");
        let a = parse_styles(&text)[&(0, 1)].attrs;
        assert!(a.bold && a.dim, "{a:?}");
    }

    #[test]
    fn hidden_text_is_a_style_word_that_parses_back() {
        let s = screen("a\x1b[8;31mbc\x1b[0md");
        let text = render(Format::Styled, "demo.cast", "end", &s);
        assert!(text.contains("\nabcd\n"), "the text is kept: {text}");
        assert!(text.ends_with("--- styles\n1:2-3 fg=1 hidden\n"), "{text}");
        let styles = parse_styles(&text);
        assert!(styles[&(0, 1)].attrs.hidden && styles[&(0, 2)].attrs.hidden);
        assert_eq!(styles[&(0, 1)].fg, Color::Indexed(1));
        assert_eq!(styles.len(), 2);
    }

    #[test]
    fn the_cursor_shape_is_in_the_header_only_when_not_the_default() {
        let header = |input: &str| {
            let text = render(Format::Text, "c", "end", &screen(input));
            text.lines().nth(4).unwrap().to_string()
        };
        assert_eq!(header("ab"), "cursor: 1:3");
        assert_eq!(
            header("ab\x1b[2 q"),
            "cursor: 1:3",
            "a steady block is the default"
        );
        assert_eq!(header("ab\x1b[6 q"), "cursor: 1:3 bar");
        assert_eq!(header("ab\x1b[3 q"), "cursor: 1:3 blinking underline");
        assert_eq!(
            header("ab\x1b[1 q\x1b[?25l"),
            "cursor: blinking block hidden",
            "a hidden cursor has a shape but no position"
        );
    }

    #[test]
    fn a_hidden_cursor_has_no_position_wherever_it_is() {
        let a = render(Format::Text, "c", "end", &screen("ab\x1b[?25l"));
        let b = render(Format::Text, "c", "end", &screen("ab\x1b[3;7H\x1b[?25l"));
        assert_eq!(a, b);
        assert!(a.contains("\ncursor: hidden\n"), "{a}");
    }

    #[test]
    fn a_masked_cursor_shows_no_position_and_an_omitted_one_no_line() {
        let at = |input: &str, view| render_with(Format::Styled, "c", "end", &screen(input), view);
        let a = at("ab\x1b[6 q", CursorView::Masked);
        assert!(a.contains("\ncursor: masked bar\n---\n"), "{a}");
        assert_eq!(a, at("ab\x1b[6 q\x1b[2;5H", CursorView::Masked));
        assert!(at("ab\x1b[?25l", CursorView::Masked).contains("\ncursor: hidden\n"));
        let o = at("ab", CursorView::Omitted);
        assert_eq!(
            o,
            "---\ncast: c\ncheckpoint: end\nsize: 12x3\n---\nab\n\n\n--- styles\n"
        );
        assert_eq!(header_len(&o), 5);
        assert_eq!(header_len(&a), HEADER_LINES);
        assert_eq!(o, at("ab\x1b[3;9H\x1b[?25l", CursorView::Omitted));
    }

    #[test]
    fn old_goldens_with_a_hidden_cursor_position_are_upgraded() {
        let old = "---\ncast: c\ncheckpoint: end\nsize: 12x3\ncursor: 24:80 hidden\n---\nx\n";
        assert_eq!(
            upgrade_golden(old).unwrap(),
            "---\ncast: c\ncheckpoint: end\nsize: 12x3\ncursor: hidden\n---\nx\n"
        );
        let shaped = old.replace("24:80 hidden", "3:5 blinking bar hidden");
        assert!(upgrade_golden(&shaped)
            .unwrap()
            .contains("\ncursor: blinking bar hidden\n"));
        assert_eq!(upgrade_golden(&old.replace("24:80 hidden", "24:80")), None);
        assert_eq!(upgrade_golden(&old.replace("24:80 hidden", "hidden")), None);
        assert_eq!(upgrade_golden(&old.replace("24:80 hidden", "masked")), None);
        // A row that looks like a cursor line is not the header's.
        let row = "---\ncast: c\ncheckpoint: end\nsize: 12x3\n---\ncursor: 1:1 hidden\n";
        assert_eq!(upgrade_golden(row), None);
    }
}
