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
        .layout(tuicast::size::Size { cols: 40, rows: 4 })
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

/// Where Chromium puts the annotation boxes and badges of an SVG, in page pixels (the window
/// frame's translation included).
const BOXES: &str = r#"
const rect = (e) => { const b = e.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; };
const svg = document.querySelector('svg');
return {
  size: [svg.width.baseVal.value, svg.height.baseVal.value],
  boxes: Array.from(svg.querySelectorAll('rect.box')).map(rect),
  badges: Array.from(svg.querySelectorAll('rect.badge')).map(rect),
  texts: Array.from(svg.querySelectorAll('text')).map(t => t.textContent),
};
"#;

/// `--annotate`, `--chrome` and `--title` in SVG: laid out by Chromium, each box's outline and
/// each badge lands on the pixels of the PNG that are drawn in its colour, the pictures have
/// one size, and labels and the title are text, escaped.
#[test]
fn chromium_puts_the_svgs_annotations_and_frame_where_the_png_draws_them() {
    let dir = Dir::new();
    let cast = dir.write(
        "c.cast",
        v3_cast(
            30,
            5,
            &[r#"[0.1, "o", "\r\n  Menu <&> here\r\n\r\n  OK    Cancel"]"#],
        ),
    );
    let (png, svg) = (dir.join("c.png"), dir.join("c.svg"));
    for out in [&png, &svg] {
        tuicast([
            "screenshot",
            cast.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--chrome",
            "--title",
            "t <i>&\"",
            "--annotate",
            "rows=2,cols=2..6,label=<menu & co>,color=#ff0000",
            "--annotate",
            "regex=Cancel,label=no,color=#0000ff",
        ])
        .success();
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains(">&lt;menu &amp; co&gt;</text>"), "{text}");
    assert!(text.contains(">t &lt;i&gt;&amp;&quot;</text>"), "{text}");
    assert!(!text.contains("<menu"), "{text}");
    let image = tuicast::render::png::decode_png(&std::fs::read(&png).unwrap()).unwrap();
    // Without a browser: the rects as written, moved by the frame's two translations.
    let attr = |tag: &str, name: &str| -> f64 {
        let at = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        tag[at..tag[at..].find('"').unwrap() + at].parse().unwrap()
    };
    let translate = |class: &str| -> (f64, f64) {
        let tag = &text[text
            .find(&format!("<g class=\"{class}\" transform=\"translate("))
            .unwrap()..];
        let inner = &tag[tag.find('(').unwrap() + 1..tag.find(')').unwrap()];
        let (a, b) = inner.split_once(',').unwrap();
        (a.parse().unwrap(), b.parse().unwrap())
    };
    let ((wx, wy), (cx, cy)) = (translate("window"), translate("content"));
    let written: Vec<(f64, f64, f64, f64)> = text
        .lines()
        .filter(|l| l.starts_with("<rect class=\"box\""))
        .map(|l| {
            (
                attr(l, "x") + wx + cx,
                attr(l, "y") + wy + cy,
                attr(l, "width"),
                attr(l, "height"),
            )
        })
        .collect();
    assert_eq!(written.len(), 2, "{text}");
    for ((x, y, w, h), colour) in written.iter().zip([[255u8, 0, 0], [0, 0, 255]]) {
        for (px, py) in [
            (x + w / 2.0, *y),
            (*x, y + h / 2.0),
            (x + w - 0.5, y + h / 2.0),
            (x + w / 2.0, y + h - 0.5),
        ] {
            let p = image.get_pixel(px.floor() as u32, py.floor() as u32);
            assert_eq!(
                [p[0], p[1], p[2]],
                colour,
                "({px}, {py}) of {:?}",
                (x, y, w, h)
            );
        }
    }
    let Some(browser) = Browser::start() else {
        return;
    };
    browser.set_window(image.width() + 100, image.height() + 200);
    browser.open(&format!("file://{}", svg.display()));
    let read = browser.eval(BOXES);
    let n = |v: &serde_json::Value| v.as_f64().unwrap();
    assert_eq!(
        (n(&read["size"][0]) as u32, n(&read["size"][1]) as u32),
        image.dimensions(),
        "one size: {read}"
    );
    let colour_at = |x: f64, y: f64| {
        let p = image.get_pixel(x.floor() as u32, y.floor() as u32);
        [p[0], p[1], p[2]]
    };
    let boxes = read["boxes"].as_array().unwrap();
    let badges = read["badges"].as_array().unwrap();
    assert_eq!((boxes.len(), badges.len()), (2, 2), "{read}");
    for (i, colour) in [[255u8, 0, 0], [0, 0, 255]].iter().enumerate() {
        // The outline's centre line, as Chromium laid it out: the PNG draws it in the colour.
        let b = &boxes[i];
        let (x, y, w, h) = (n(&b[0]), n(&b[1]), n(&b[2]), n(&b[3]));
        // (The bounding box of a stroked rect is its geometry without the stroke.)
        for (px, py) in [
            (x + w / 2.0, y),
            (x + w / 2.0, y + h - 0.5),
            (x, y + h / 2.0),
            (x + w - 0.5, y + h / 2.0),
        ] {
            assert_eq!(
                colour_at(px, py),
                *colour,
                "box {i} at ({px}, {py}): {read}"
            );
        }
        // The badge's left edge, between its corners: the PNG's badge is there too.
        let g = &badges[i];
        let (gx, gy, gh) = (n(&g[0]), n(&g[1]), n(&g[3]));
        assert_eq!(
            colour_at(gx + 1.0, gy + gh / 2.0),
            *colour,
            "badge {i}: {read}"
        );
        assert_ne!(
            colour_at(gx - 2.0, gy + gh / 2.0),
            *colour,
            "badge {i} left of it: {read}"
        );
    }
}
