//! How many cells a label or a title takes, and fitting one into a width.

/// Cells a character takes in labels and titles.
pub(crate) fn char_cells(c: char) -> u8 {
    unicode_width::UnicodeWidthChar::width(c)
        .unwrap_or(0)
        .min(2) as u8
}

/// Cells `text` takes.
pub(crate) fn text_cells(text: &str) -> usize {
    text.chars().map(|c| char_cells(c) as usize).sum()
}

/// `text` cut to at most `max` cells, with `…` when cut; control characters become `?`.
pub(crate) fn fit_text(text: &str, max: usize) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text_cells(&clean) <= max {
        return clean;
    }
    let mut out = String::new();
    let mut used = 0;
    for c in clean.chars() {
        let w = char_cells(c) as usize;
        if used + w + 1 > max {
            break;
        }
        out.push(c);
        used += w;
    }
    if max > 0 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_fitted_with_an_ellipsis() {
        assert_eq!(fit_text("hello", 10), "hello");
        assert_eq!(fit_text("hello world", 6), "hello…");
        assert_eq!(fit_text("日本語", 4), "日…");
        assert_eq!(fit_text("a\x1bb", 5), "a?b");
    }
}
