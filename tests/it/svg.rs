//! `--format svg` (issue 26 point 4), laid out by a real browser: headless Chromium places
//! every character of the SVG and every box-drawing shape on the PNG renderer's cell grid, so
//! the screen read back from the browser's positions is the screen tuicast replayed.

use crate::util::{tuicast, v3_cast, Dir};
use crate::webdriver::Browser;

/// Reads the page's SVG back as a grid of characters: each `<text>` character where Chromium
/// put it, each `<use>` as the character its shape stands for, by the PNG's cell grid.
const READ_BACK: &str = r#"
const svg = document.querySelector('svg');
const out = {texts: [], uses: []};
for (const t of svg.querySelectorAll('text')) {
  const chars = Array.from(t.textContent);
  const xs = t.getAttribute('x').split(' ').map(Number);
  for (let i = 0; i < t.getNumberOfChars(); i++) {
    const p = t.getStartPositionOfChar(i);
    out.texts.push([p.x, p.y, t.textContent[i], xs[Math.min(i, xs.length - 1)]]);
  }
}
for (const u of svg.querySelectorAll('use')) {
  const b = u.getBBox();
  out.uses.push([Number(u.getAttribute('x')), Number(u.getAttribute('y')),
                 u.getAttribute('href'), b.width, b.height]);
}
return out;
"#;

#[test]
fn chromium_places_every_character_and_shape_of_the_svg_on_the_png_grid() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = Dir::new();
    // Spaces inside a run, bold and italic, colours, CJK (two cells each), a combining mark,
    // braille, box drawing, blocks, hidden text, an underline, markup characters.
    let output = [
        "\\u001b[1mbold\\u001b[0m   \\u001b[3mitalic\\u001b[0m  x",
        "\\r\\n\\u001b[31;44mred on blue\\u001b[0m 日本語 é ok",
        "\\r\\n⣿⡇ ┌──┐ █▀▄ \\u001b[8mhidden\\u001b[0m \\u001b[4munder\\u001b[0m",
        "\\r\\n└──┘ a  b   c <&>",
    ]
    .concat();
    let cast = dir.write(
        "c.cast",
        v3_cast(40, 4, &[&format!(r#"[0.1, "o", "{output}"]"#)]),
    );
    let svg = dir.join("c.svg");
    tuicast([
        "screenshot",
        cast.to_str().unwrap(),
        "-o",
        svg.to_str().unwrap(),
    ])
    .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{text}"
    );
    assert!(
        !text.contains("hidden"),
        "concealed text is not in the picture"
    );
    assert!(text.contains(">bold<") && text.contains("日"), "{text}");
    assert!(text.contains("&lt;&amp;&gt;"), "markup escaped: {text}");

    let renderer = tuicast::render::png::Renderer::new(Default::default()).unwrap();
    let layout = renderer
        .layout(tuicast::term::Size { cols: 40, rows: 4 })
        .unwrap();
    let (cw, ch, pad) = (
        f64::from(layout.cell_width),
        f64::from(layout.cell_height),
        f64::from(layout.padding),
    );
    let url = format!("file://{}", svg.display());
    browser.open(&url);
    let read = browser.eval(READ_BACK);
    let mut grid = vec![vec![' '; 40]; 4];
    let cell = |x: f64, y: f64| -> (usize, usize) {
        let col = (x - pad) / cw;
        let row = (y - pad) / ch;
        assert!(
            (col - col.round()).abs() < 0.01,
            "x {x} is not on the grid ({cw} px cells)"
        );
        (row.floor() as usize, col.round() as usize)
    };
    for t in read["texts"].as_array().unwrap() {
        let (x, y, c, attr) = (
            t[0].as_f64().unwrap(),
            t[1].as_f64().unwrap(),
            &t[2],
            t[3].as_f64().unwrap(),
        );
        let c = c.as_str().unwrap().chars().next().unwrap();
        if c == '\u{301}' {
            continue; // the mark stays with its base character's cell
        }
        assert!(
            (x - attr).abs() < 0.01,
            "{c:?} drawn at {x}, written at {attr}"
        );
        let (row, col) = cell(x, y - 1.0);
        grid[row][col] = c;
    }
    let shapes: std::collections::BTreeMap<&str, char> = [
        ("#c2500-1", '─'),
        ("#c250c-1", '┌'),
        ("#c2510-1", '┐'),
        ("#c2514-1", '└'),
        ("#c2518-1", '┘'),
        ("#c28ff-1", '⣿'),
        ("#c2847-1", '⡇'),
        ("#c2588-1", '█'),
        ("#c2580-1", '▀'),
        ("#c2584-1", '▄'),
    ]
    .into();
    for u in read["uses"].as_array().unwrap() {
        let (x, y) = (u[0].as_f64().unwrap(), u[1].as_f64().unwrap());
        let id = u[2].as_str().unwrap();
        let (w, h) = (u[3].as_f64().unwrap(), u[4].as_f64().unwrap());
        assert!(
            w <= cw + 0.01 && h <= ch + 0.01,
            "{id}: {w}x{h} is larger than its cell"
        );
        let (row, col) = cell(x, y);
        grid[row][col] = *shapes.get(id).unwrap_or_else(|| panic!("a shape {id}"));
    }
    let read_back: Vec<String> = grid
        .iter()
        .map(|r| r.iter().collect::<String>().trim_end().to_string())
        .collect();
    // As replayed, with the two cells of each wide character and the concealed text blank.
    let replayed = tuicast(["replay", cast.to_str().unwrap()]).success();
    let expected: Vec<String> = replayed
        .stdout()
        .lines()
        .map(|l| {
            let mut row = String::new();
            for c in l.replace("hidden", "      ").replace('\u{301}', "").chars() {
                row.push(c);
                if unicode_width(c) == 2 {
                    row.push(' ');
                }
            }
            row.trim_end().to_string()
        })
        .collect();
    assert_eq!(
        read_back,
        expected,
        "{}",
        serde_json::to_string(&read).unwrap_or_default()
    );
}

/// The width of the wide characters this test uses.
fn unicode_width(c: char) -> usize {
    if ('\u{3000}'..='\u{9fff}').contains(&c) {
        2
    } else {
        1
    }
}
