//! How the colours of a cell become pixels with a [`Theme`] (the one theme type,
//! `crate::theme::Theme`): palette and truecolour values, and which themes draw bold text in
//! the bright colours.

use crate::rgb::Rgb;
use crate::term::Color;
use crate::theme::Theme;

/// A cell colour as a pixel colour; `default` stands for [`Color::Default`].
pub(crate) fn resolve(theme: &Theme, color: Color, default: Rgb) -> Rgb {
    match color {
        Color::Default => default,
        Color::Indexed(i) => theme.indexed(i),
        Color::Rgb(c) => c,
    }
}

/// Whether a theme given by name or colour list (as `[png] theme` and `--theme` take it)
/// draws bold text in palette colours 0–7 in the bright colour: asciinema's theme and colour
/// lists do, as xterm and asciinema's player do; the other built-in themes do not.
pub(crate) fn bold_is_bright(spec: &str) -> bool {
    let spec = spec.trim();
    spec.contains(',') || spec == "asciinema"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_resolve_and_bold_brightens_in_asciinema_and_lists() {
        let t = Theme::default();
        assert_eq!(resolve(&t, Color::Default, t.fg), t.fg);
        assert_eq!(resolve(&t, Color::Indexed(1), t.fg), t.palette[1]);
        assert_eq!(resolve(&t, Color::Rgb(Rgb(1, 2, 3)), t.fg), Rgb(1, 2, 3));
        assert!(bold_is_bright("asciinema") && bold_is_bright("0,0,0,0,0,0,0,0,0,0"));
        assert!(!bold_is_bright("dracula"));
    }
}
