//! Renders a [`Screen`] as plain text or JSON; `png` (feature `png`) draws it as a picture (PNG, GIF).
//!
//! # Text
//! Every row of the screen, one line each ending in `\n`, trailing whitespace trimmed; a wide
//! character appears once, combining marks stay on their character. Control characters never
//! reach the output (they become U+FFFD), so printing a render is safe on any terminal.
//!
//! # JSON (schema 1)
//! ```json
//! {
//!   "schema": 1,
//!   "size": {"cols": 80, "rows": 24},
//!   "cursor": {"row": 0, "col": 2, "visible": true},
//!   "title": null,
//!   "alternate": false,
//!   "modes": {"bracketed_paste": false, "mouse": "off", "mouse_encoding": "default",
//!             "focus": false, "cursor_keys": false, "keypad": false, "autowrap": true,
//!             "origin": false},
//!   "rows": [
//!     {"text": "$ ls", "runs": [{"col": 0, "width": 1, "fg": 2, "attrs": ["bold"]}]}
//!   ]
//! }
//! ```
//! - `rows` has exactly `size.rows` entries; `text` is the row as in the text render.
//! - `cursor` has `shape` (`"block"`, `"underline"` or `"bar"`) and `blinking` (a boolean)
//!   only when the program chose a cursor other than the default steady block (DECSCUSR,
//!   `CSI Ps SP q`), so `{"row": 3, "col": 0, "visible": true, "shape": "bar",
//!   "blinking": false}`.
//! - `runs` lists maximal stretches of cells with the same non-default style, left to right.
//!   `col` (0-based) and `width` count cells, not characters: a wide character is 2 cells.
//!   `fg` and `bg` are omitted when default, a number 0–255 for a palette colour, or a
//!   `"#rrggbb"` string for truecolour; `attrs` is omitted when empty, otherwise a subset of
//!   `bold dim italic underline strikethrough inverse blink hidden` in that order (`hidden`:
//!   concealed text, SGR 8; the text is still in `text`).
//! - After `rows`: `"icon"` (the icon name, OSC 1, or null), `"bells"` (bells rung since the
//!   last checkpoint), `"clipboard"` (OSC 52 writes since the last checkpoint, oldest first:
//!   `{"selection": "c", "text": "copied", "truncated": false}`), `"links"` (the hyperlinks
//!   of the cells, OSC 8: `{"uri": "https://example.com/", "id": null}`) and `"scrollback"`
//!   (the lines scrolled off the top of the main screen, oldest first, as text). A row whose
//!   cells carry links has `"links"` after its runs: `[{"col": 4, "width": 7, "link": 1}]`,
//!   `link` counting from 1 in the top-level `links`. Texts are as the program wrote them,
//!   JSON-escaped (control characters in a clipboard text included).
//! - `modes` (always present) are the terminal modes the program set
//!   ([`Modes`](crate::term::Modes)): `bracketed_paste` (2004), `mouse` (`"off"`, `"x10"` 9,
//!   `"normal"` 1000, `"button"` 1002, `"any"` 1003), `mouse_encoding` (`"default"`, `"utf8"`
//!   1005, `"sgr"` 1006, `"urxvt"` 1015), `focus` (1004), `cursor_keys` (DECCKM, 1), `keypad`
//!   (DECKPAM), `autowrap` (7), `origin` (6); and, only when not 0, `keyboard` (the kitty
//!   keyboard protocol's flags in force) and `modify_other_keys` (xterm's level).
//! - Keys appear in the order above; fields are only ever added, never renamed.

#[cfg(feature = "png")]
pub mod png;
mod screen_json;

pub use screen_json::{AttrName, CursorJson, LinkRunJson, RowJson, RunJson, ScreenJson};

use serde_json::Value;

use crate::term::Screen;

/// The version of the JSON screen schema written by [`json()`].
pub const JSON_SCHEMA: u32 = 1;

/// The screen as text: every row, trailing whitespace trimmed, each ending with `\n`
/// ([`Screen::text`]).
pub fn text(screen: &Screen) -> String {
    screen.text()
}

/// The screen as a JSON value (schema in the module docs; [`ScreenJson`] is its type).
pub fn json(screen: &Screen) -> Value {
    // (Plain data of strings, numbers and lists: serializing it cannot fail.)
    serde_json::to_value(ScreenJson::of(screen)).unwrap_or(Value::Null)
}

/// Formats a JSON object for people and diffs: one top-level key per line, and arrays with
/// one compact element per line (so each screen row is one line of the file).
pub fn json_lines(value: &Value) -> String {
    let Value::Object(map) = value else {
        return format!("{value}\n");
    };
    let mut out = String::from("{\n");
    for (i, (key, v)) in map.iter().enumerate() {
        out.push_str("  ");
        out.push_str(&Value::String(key.clone()).to_string());
        out.push_str(": ");
        match v {
            Value::Array(items) if !items.is_empty() => {
                out.push_str("[\n");
                for (j, item) in items.iter().enumerate() {
                    out.push_str("    ");
                    out.push_str(&item.to_string());
                    if j + 1 < items.len() {
                        out.push(',');
                    }
                    out.push('\n');
                }
                out.push_str("  ]");
            }
            other => out.push_str(&other.to_string()),
        }
        if i + 1 < map.len() {
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Size;
    use serde_json::json;

    fn screen(input: &str) -> Screen {
        crate::term::test_screen(Size { cols: 8, rows: 2 }, input)
    }

    #[test]
    fn json_carries_icon_bells_clipboard_links_and_scrollback() {
        let v = json(&screen(
            "1\r\n2\r\n\x1b]1;ic\x07\x07\x1b]52;c;aGk=\x07x\x1b]8;id=q;http://e/\x07ab\x1b]8;;\x07",
        ));
        assert_eq!(v["icon"], "ic");
        assert_eq!(v["bells"], 1);
        assert_eq!(
            v["clipboard"],
            serde_json::json!([{"selection": "c", "text": "hi", "truncated": false}])
        );
        assert_eq!(
            v["links"],
            serde_json::json!([{"uri": "http://e/", "id": "q"}])
        );
        assert_eq!(v["scrollback"], serde_json::json!(["1"]));
        assert_eq!(
            v["rows"][1]["links"],
            serde_json::json!([{"col": 1, "width": 2, "link": 1}])
        );
        assert!(
            v["rows"][0].get("links").is_none(),
            "only rows with links have them"
        );
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "schema",
                "size",
                "cursor",
                "title",
                "alternate",
                "modes",
                "rows",
                "icon",
                "bells",
                "clipboard",
                "links",
                "scrollback"
            ]
        );
    }

    #[test]
    fn json_has_hidden_runs_and_the_cursor_shape_when_not_the_default() {
        let v = json(&screen("a\x1b[8mbc\x1b[0md"));
        assert_eq!(v["rows"][0]["text"], "abcd");
        assert_eq!(
            v["rows"][0]["runs"],
            json!([{"col": 1, "width": 2, "attrs": ["hidden"]}])
        );
        assert_eq!(v["cursor"], json!({"row": 0, "col": 4, "visible": true}));
        let v = json(&screen("\x1b[5 q\x1b[?25l"));
        assert_eq!(
            v["cursor"],
            json!({"row": 0, "col": 0, "visible": false, "shape": "bar", "blinking": true})
        );
        let keys: Vec<&String> = v["cursor"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["row", "col", "visible", "shape", "blinking"]);
    }

    #[test]
    fn json_has_the_modes() {
        let v = json(&screen(""));
        assert_eq!(
            v["modes"],
            json!({"bracketed_paste": false, "mouse": "off", "mouse_encoding": "default",
                   "focus": false, "cursor_keys": false, "keypad": false, "autowrap": true,
                   "origin": false})
        );
        let v = json(&screen("\x1b[?1002;1006;2004;1004;1h\x1b=\x1b[?7l"));
        assert_eq!(
            v["modes"],
            json!({"bracketed_paste": true, "mouse": "button", "mouse_encoding": "sgr",
                   "focus": true, "cursor_keys": true, "keypad": true, "autowrap": false,
                   "origin": false})
        );
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys[4..6], ["alternate", "modes"]);
    }
}
