//! Whether the bytes of an SVG that `accept --from` would write into the repository are an
//! SVG as tuicast's renderer writes it (`render::png::svg`): a docs image accepted from a CI
//! run is served from the repository, so anything that could run, load or link is refused.
//!
//! The check is an allowlist read by a small tokenizer of its own, not a search for bad
//! words: the elements and attributes tuicast writes and nothing else (no namespace
//! prefixes but `xml:space`), attribute values quoted, links only within the picture
//! (`href="#…"`, `url(#…)`), no function in a value but those tuicast writes (no
//! `image-set`, `image`, `cross-fade`, `src`) and no CSS escape or comment to spell one, character references only the XML escapes in attributes,
//! no comment, doctype, entity, CDATA or processing instruction but the XML declaration, one
//! `<svg>` root whose tags balance, and nothing after it.

use super::accept::NotAPicture;

/// The elements tuicast's SVG renderer writes.
const ELEMENTS: &[&str] = &[
    "svg",
    "defs",
    "g",
    "rect",
    "circle",
    "text",
    "use",
    "clipPath",
    "filter",
    "feGaussianBlur",
    "style",
];

/// The attributes it writes.
const ATTRIBUTES: &[&str] = &[
    "xmlns",
    "xml:space",
    "width",
    "height",
    "viewBox",
    "x",
    "y",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "id",
    "class",
    "href",
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-opacity",
    "stroke-width",
    "filter",
    "clip-path",
    "transform",
    "style",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "stdDeviation",
];

/// The CSS and transform functions an attribute value may call (besides `url(#…)`).
const FUNCTIONS: &[&str] = &["translate", "scale", "rotate", "matrix", "rgb", "rgba"];

/// The XML escapes (`&#39;` as tuicast writes the apostrophe), the only references an
/// attribute may hold.
const ESCAPES: &[&str] = &["&lt;", "&gt;", "&amp;", "&quot;", "&#39;", "&apos;"];

fn refuse(why: impl Into<String>) -> NotAPicture {
    NotAPicture(why.into())
}

/// `Ok` when `bytes` are an SVG tuicast could have written; else what is wrong, as the end of
/// a sentence ("holds …").
pub(super) fn check_svg(bytes: &[u8]) -> Result<(), NotAPicture> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(refuse("is not UTF-8 text, so no SVG"));
    };
    let mut rest = text.trim_start();
    if let Some(after) = rest.strip_prefix("<?xml ") {
        let Some((decl, r)) = after.split_once("?>") else {
            return Err(refuse("has an XML declaration that does not end"));
        };
        if decl.contains('<') || decl.contains('&') {
            return Err(refuse("has an XML declaration tuicast never writes"));
        }
        rest = r.trim_start();
    }
    if !rest.starts_with("<svg") {
        return Err(refuse("is not an SVG (one <svg> element)"));
    }
    let mut open: Vec<&str> = Vec::new();
    let mut seen_root = false;
    while !rest.is_empty() {
        // Text up to the next tag: the screen's text, escaped.
        let lt = rest.find('<').unwrap_or(rest.len());
        let (chars, tail) = rest.split_at(lt);
        if open.is_empty() && !chars.trim().is_empty() {
            return Err(refuse("has text outside its <svg> element"));
        }
        let in_style = open.last() == Some(&"style");
        if in_style {
            check_css(chars)?;
        } else {
            check_references(chars, true)?;
        }
        rest = tail;
        if in_style && !rest.starts_with("</style") {
            return Err(refuse("has markup inside its stylesheet"));
        }
        if rest.is_empty() {
            break;
        }
        if open.is_empty() && seen_root {
            return Err(refuse("has more than one root element"));
        }
        rest = &rest[1..];
        if let Some(after) = rest.strip_prefix('/') {
            let end = after
                .find('>')
                .ok_or_else(|| refuse("has a tag that does not end"))?;
            let name = after[..end].trim_end();
            if open.pop() != Some(name) {
                return Err(refuse(format!(
                    "has a closing tag that opens nothing: </{}>",
                    shown(name)
                )));
            }
            rest = &after[end + 1..];
            continue;
        }
        let name_len = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let name = &rest[..name_len];
        if name.is_empty() {
            // `<!--`, `<!DOCTYPE`, `<![CDATA[`, `<?pi`, `<s:script`, …
            return Err(refuse(
                "holds markup tuicast never writes (a comment, doctype, entity, CDATA, \
                 processing instruction or prefixed element)",
            ));
        }
        if !ELEMENTS.contains(&name) || (name == "svg") == seen_root {
            return Err(refuse(format!(
                "holds a <{}> element, which tuicast never writes",
                shown(name)
            )));
        }
        seen_root = true;
        rest = &rest[name_len..];
        // Attributes, then `>` or `/>`.
        loop {
            let trimmed = rest.trim_start_matches(|c: char| c.is_ascii_whitespace());
            let spaced = trimmed.len() != rest.len();
            rest = trimmed;
            if let Some(r) = rest.strip_prefix("/>") {
                rest = r;
                break;
            }
            if let Some(r) = rest.strip_prefix('>') {
                open.push(name);
                rest = r;
                break;
            }
            if !spaced {
                return Err(refuse(format!("has a malformed <{}> tag", shown(name))));
            }
            let attr_len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == ':'))
                .unwrap_or(rest.len());
            let attr = &rest[..attr_len];
            if !ATTRIBUTES.contains(&attr) {
                return Err(refuse(format!(
                    "holds the attribute {}=, which tuicast never writes",
                    shown(attr)
                )));
            }
            let after = rest[attr_len..].trim_start();
            let Some(after) = after.strip_prefix('=') else {
                return Err(refuse(format!("has an attribute {attr} with no value")));
            };
            let after = after.trim_start();
            let quote = after
                .chars()
                .next()
                .filter(|&q| q == '"' || q == '\'')
                .ok_or_else(|| refuse(format!("has an unquoted value of {attr}")))?;
            let body = &after[1..];
            let end = body
                .find(quote)
                .ok_or_else(|| refuse(format!("has a value of {attr} that does not end")))?;
            check_value(attr, &body[..end])?;
            rest = &body[end + 1..];
        }
    }
    if !open.is_empty() || !seen_root {
        return Err(refuse(
            "is not a whole SVG (its <svg> element does not end)",
        ));
    }
    Ok(())
}

/// An attribute's value: no tag in it, the XML escapes only, links within the picture.
fn check_value(attr: &str, value: &str) -> Result<(), NotAPicture> {
    if value.contains('<') {
        return Err(refuse(format!("has a '<' in the value of {attr}")));
    }
    check_references(value, false)?;
    // CSS reads `u\72l(` as `url(` and a comment as nothing: tuicast writes neither, so no
    // spelling of a function can hide from the list below.
    if value.contains('\\') {
        return Err(refuse(format!(
            "has a backslash (a CSS escape) in the value of {attr}, which tuicast never writes"
        )));
    }
    if value.contains("/*") {
        return Err(refuse(format!(
            "has a CSS comment in the value of {attr}, which tuicast never writes"
        )));
    }
    let lower = value.to_ascii_lowercase();
    // Every function named in the value is one tuicast writes: `url(#…)` (within the
    // picture) and the transforms and colours. `image-set("x.png" 1x)`, `image(…)`,
    // `cross-fade(…)`, `src(…)` name a URL without `url(`, so an allowlist, not a list of
    // the bad ones.
    for (i, _) in lower.match_indices('(') {
        let name_start = lower[..i]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .map_or(0, |j| j + 1);
        let name = &lower[name_start..i];
        let allowed = match name {
            "url" => lower[i + 1..].trim_start().starts_with('#'),
            _ => FUNCTIONS.contains(&name),
        };
        if !allowed {
            return Err(refuse(format!(
                "holds the function {}( in the value of {attr}, which tuicast never writes \
                 (a link out of the picture, or a way to name one)",
                shown(name)
            )));
        }
    }
    let outward = (attr == "href" && !value.starts_with('#'))
        || lower.contains("javascript")
        || lower.contains('@')
        || lower.contains("expression");
    if outward {
        return Err(refuse(
            "holds a link out of the picture, which tuicast never writes",
        ));
    }
    if attr == "xmlns" && value != "http://www.w3.org/2000/svg" {
        return Err(refuse("has another namespace than SVG's"));
    }
    Ok(())
}

/// A stylesheet as the animated SVG writes it (`render::png::animated_svg`): rules of class
/// names, `@keyframes` of percentages, and properties of words and numbers. Nothing that
/// could link or escape: no quotes, backslashes, slashes, `#`, `&`, `url` or other at-rule.
fn check_css(css: &str) -> Result<(), NotAPicture> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || " \n.{}:;%,()-_@".contains(c);
    if let Some(c) = css.chars().find(|&c| !allowed(c)) {
        return Err(refuse(format!(
            "has a stylesheet with {:?}, which tuicast never writes there",
            shown(&c.to_string())
        )));
    }
    let lower = css.to_ascii_lowercase();
    if lower
        .match_indices('@')
        .any(|(i, _)| !lower[i..].starts_with("@keyframes k"))
    {
        return Err(refuse(
            "has a stylesheet with an at-rule tuicast never writes",
        ));
    }
    if lower.contains("url") || lower.contains("expression") || lower.contains("import") {
        return Err(refuse(
            "holds a link out of the picture, which tuicast never writes",
        ));
    }
    Ok(())
}

/// Character references: in an attribute only the XML escapes; in text also numeric ones
/// (a screen's characters), never a named entity of a doctype.
fn check_references(s: &str, text: bool) -> Result<(), NotAPicture> {
    for (i, _) in s.match_indices('&') {
        let r = &s[i..];
        let Some(semi) = r.find(';') else {
            return Err(refuse("has an '&' that is no character reference"));
        };
        let reference = &r[..=semi];
        let numeric = text
            && reference.len() > 3
            && reference.starts_with("&#")
            && reference[2..semi].strip_prefix('x').map_or_else(
                || reference[2..semi].bytes().all(|b| b.is_ascii_digit()),
                |hex| !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()),
            );
        if !numeric && !ESCAPES.contains(&reference) {
            return Err(refuse(format!(
                "holds the reference {}, which tuicast never writes there",
                shown(reference)
            )));
        }
    }
    Ok(())
}

/// A name from the file, escaped and cut for a message.
fn shown(s: &str) -> String {
    crate::escape::escape_for_terminal(s, 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="5" viewBox="0 0 10 5" font-family="'DejaVu Sans Mono', monospace" style="white-space:pre"><defs><g id="c1"><rect width="1" height="1"/></g><filter id="tc-shadow"><feGaussianBlur stdDeviation="2"/></filter></defs><rect x="0" y="0" width="10" height="5" fill="#000" filter="url(#tc-shadow)"/><use href="#c1" x="1" y="1"/><text x="0" y="4" xml:space="preserve">a &lt;b&gt; &#39;c&#39; &#x2500;&#9472;</text></svg>
"##;

    fn why(svg: &str) -> String {
        check_svg(svg.as_bytes()).expect_err(svg).0
    }

    #[test]
    fn what_tuicast_writes_passes() {
        check_svg(GOOD.as_bytes()).unwrap();
        let declared = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{GOOD}");
        check_svg(declared.as_bytes()).unwrap();
    }

    /// The stylesheet of an animated SVG passes; anything else in a `<style>` does not.
    #[test]
    fn only_tuicasts_stylesheet_passes() {
        let animated = GOOD.replacen(
            "<defs>",
            "<style>\n.f{visibility:hidden;animation-duration:4000ms;animation-timing-function:steps(1,end)}\n.f0{animation-name:k0}@keyframes k0{0%,50.25%{visibility:visible}25%{visibility:hidden}}\n</style>\n<defs>",
            1,
        );
        check_svg(animated.as_bytes()).unwrap();
        for (css, needle) in [
            ("@import 'x';", "with \"'\""),
            ("@import x;", "at-rule"),
            (".f{background:url(x)}", "link out"),
            (".f{background:u\\72l(x)}", "a stylesheet with"),
            (".f{fill:#000}", "with \"#\""),
            ("/* x */", "with \"/\""),
            (".f{x:1}<script>alert(1)</script>", "markup inside"),
            (".f{x:&amp;}", "with \"&\""),
        ] {
            let svg = GOOD.replacen("<defs>", &format!("<style>{css}</style><defs>"), 1);
            let got = why(&svg);
            assert!(got.contains(needle), "{needle}: got {got:?} for {css}");
        }
    }

    #[test]
    fn every_way_around_a_word_search_is_refused() {
        let with = |from: &str, to: &str| GOOD.replacen(from, to, 1);
        for (svg, needle) in [
            // A space before `=` hid an event attribute from the word search.
            (with("<svg ", "<svg onload =\"alert(1)\" "), "onload="),
            (with("<svg ", "<svg onload=\"alert(1)\" "), "onload="),
            // A namespace prefix hid a script element.
            (
                with(
                    "</svg>",
                    "<s:script xmlns:s=\"http://www.w3.org/2000/svg\">alert(1)</s:script></svg>",
                ),
                "holds a <s> element",
            ),
            (
                with("</svg>", "<script>alert(1)</script></svg>"),
                "<script>",
            ),
            (with("</svg>", "<foreignObject/></svg>"), "<foreignObject>"),
            // A spaced href and an entity hid `javascript:`.
            (
                with(
                    "<use href=\"#c1\"",
                    "<use href =\"javascript&#58;alert(1)\"",
                ),
                "reference &#58;",
            ),
            (
                with("<use href=\"#c1\"", "<use href = \"https://evil/t.png\""),
                "link out",
            ),
            (
                with("fill=\"#000\"", "fill=\"url(https://evil/x)\""),
                "link out",
            ),
            (
                with(
                    "style=\"white-space:pre\"",
                    "style=\"background:url( 'https://evil' )\"",
                ),
                "link out",
            ),
            // Issue 41: CSS escapes, `image-set`, `cursor:url` and their kin.
            (
                with(
                    "style=\"white-space:pre\"",
                    "style=\"background:u\\72l(https://evil/x)\"",
                ),
                "backslash",
            ),
            (
                with(
                    "style=\"white-space:pre\"",
                    "style=\"background-image:image-set('https://evil/x.png' 1x)\"",
                ),
                "function image-set(",
            ),
            (
                with(
                    "style=\"white-space:pre\"",
                    "style=\"cursor:url(https://evil/c.png),auto\"",
                ),
                "function url(",
            ),
            (
                with(
                    "style=\"white-space:pre\"",
                    "style=\"background:url/**/(https://evil)\"",
                ),
                "CSS comment",
            ),
            (
                with("style=\"white-space:pre\"", "style=\"mask:src('x')\""),
                "function src(",
            ),
            (
                with(
                    "style=\"white-space:pre\"",
                    "style=\"font-family:x;@font-face{}\"",
                ),
                "link out",
            ),
            // A `>` inside a quoted value no longer ends the tag early.
            (
                with("<svg ", "<svg class=\"a>b\" onclick=\"x\" "),
                "onclick=",
            ),
            (with("<defs>", "<!--x--><defs>"), "a comment"),
            (
                format!("<!DOCTYPE svg [<!ENTITY x \"y\">]>{GOOD}"),
                "is not an SVG",
            ),
            (with("</svg>", "<![CDATA[x]]></svg>"), "CDATA"),
            (
                with(
                    "<svg ",
                    "<svg xmlns:xlink=\"http://www.w3.org/1999/xlink\" ",
                ),
                "xmlns:xlink=",
            ),
            (with("x=\"1\" y=\"1\"", "x=1 y=1"), "unquoted"),
            (
                with(
                    "xmlns=\"http://www.w3.org/2000/svg\"",
                    "xmlns=\"http://www.w3.org/1999/xhtml\"",
                ),
                "namespace",
            ),
            (format!("{GOOD}<svg></svg>"), "more than one root"),
            (GOOD.replace("</svg>", ""), "does not end"),
            (with("</defs>", "</g></defs>"), "closing tag"),
            (format!("{}x", GOOD.trim_end()), "text outside"),
            ("GIF89a".to_string(), "is not an SVG"),
        ] {
            let got = why(&svg);
            assert!(got.contains(needle), "{needle}: got {got:?} for\n{svg}");
        }
    }
}
