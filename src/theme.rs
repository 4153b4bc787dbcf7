//! The one colour theme: a cast's `term.theme`, the built-in themes and agg's colour lists.
//! The PNG renderer draws with it; how bold text is coloured is a drawing option there.

use crate::rgb::Rgb;

/// Terminal colours: the default foreground and background and the 8 or 16 palette colours.
/// A cast's theme is typed when read (CSS-style `#rrggbb` in the file); the renderer draws
/// with the same value ([`Theme::default`] is asciinema's, [`Theme::parse`] reads a built-in
/// name or a colour list).
///
/// A cast's theme whose colours cannot be read (not `#rrggbb`, or a palette of other than 8
/// or 16) does not fail the cast: it stays in [`Term::extra`](crate::cast::Term::extra) as it was,
/// and is written back so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// Default foreground colour.
    pub fg: Rgb,
    /// Default background colour.
    pub bg: Rgb,
    /// The 8 or 16 palette colours as written: black, red, green, yellow, blue, magenta,
    /// cyan, white, then the bright versions (with 8, the bright ones repeat them).
    pub palette: Vec<Rgb>,
}

message_error!(
    /// Why a theme (a cast's `theme` object, a name or a colour list) is not one. The cast
    /// reader keeps a theme it refuses as written.
    ThemeError, ThemeErrorKind {
        /// No built-in theme has the name.
        UnknownName,
        /// A colour is not `#rrggbb` (the `#` optional).
        Color,
        /// Not 10 or 18 colours in a list, or 8 or 16 in a palette.
        Count,
        /// A cast's theme object lacks a key (`fg`, `bg`, `palette`), or it is not a string.
        Missing,
    }
);

/// The names of the built-in themes, the default first.
pub const THEMES: [&str; 8] = [
    "asciinema",
    "dracula",
    "solarized-dark",
    "solarized-light",
    "github-dark",
    "github-light",
    "monokai",
    "nord",
];

/// xterm's default colours as a colour list ([`Theme::xterm`]): bg, fg, palette 0-15.
#[cfg(test)]
const XTERM: &str = "ffffff,000000,000000,cd0000,00cd00,cdcd00,0000ee,cd00cd,00cdcd,e5e5e5,7f7f7f,ff0000,00ff00,ffff00,5c5cff,ff00ff,00ffff,ffffff";

/// [`Theme::default`], asciinema's theme, read once: what the report draws cells with and what
/// a recording answers colour queries with.
pub(crate) fn default_theme() -> &'static Theme {
    static THEME: std::sync::LazyLock<Theme> = std::sync::LazyLock::new(Theme::default);
    &THEME
}

impl Default for Theme {
    /// asciinema's theme.
    fn default() -> Self {
        Theme::builtin("asciinema").unwrap_or(Theme {
            fg: Rgb(0xcc, 0xcc, 0xcc),
            bg: Rgb(0x12, 0x13, 0x14),
            palette: vec![Rgb::default(); 16],
        })
    }
}

impl Theme {
    /// A theme from the JSON object a cast stores (`fg`, `bg`, and `palette`, colours joined
    /// by `:`), or why it is not one. The reader keeps a theme this refuses in
    /// [`Term::extra`](crate::cast::Term::extra); this says why it was not used.
    pub fn from_json(value: &serde_json::Value) -> Result<Theme, ThemeError> {
        theme_from_json(value)
    }

    /// A built-in theme by name (see [`THEMES`]).
    pub fn builtin(name: &str) -> Option<Theme> {
        // bg, fg, then palette 0-15. The asciinema, dracula and monokai values are those of
        // asciinema's player and agg; solarized, nord and github follow their authors' terminal
        // palettes (github: the Primer colours of GitHub's own VS Code theme).
        let spec = match name {
            "asciinema" => "121314,cccccc,000000,dd3c69,4ebf22,ddaf3c,26b0d7,b954e1,54e1b9,d9d9d9,4d4d4d,dd3c69,4ebf22,ddaf3c,26b0d7,b954e1,54e1b9,ffffff",
            "dracula" => "282a36,f8f8f2,21222c,ff5555,50fa7b,f1fa8c,bd93f9,ff79c6,8be9fd,f8f8f2,6272a4,ff6e6e,69ff94,ffffa5,d6acff,ff92df,a4ffff,ffffff",
            "solarized-dark" => "002b36,839496,073642,dc322f,859900,b58900,268bd2,d33682,2aa198,eee8d5,002b36,cb4b16,586e75,657b83,839496,6c71c4,93a1a1,fdf6e3",
            "solarized-light" => "fdf6e3,657b83,073642,dc322f,859900,b58900,268bd2,d33682,2aa198,eee8d5,002b36,cb4b16,586e75,657b83,839496,6c71c4,93a1a1,fdf6e3",
            "github-dark" => "0d1117,e6edf3,484f58,ff7b72,3fb950,d29922,58a6ff,bc8cff,39c5cf,b1bac4,6e7681,ffa198,56d364,e3b341,79c0ff,d2a8ff,56d4dd,ffffff",
            "github-light" => "ffffff,1f2328,24292f,cf222e,116329,4d2d00,0969da,8250df,1b7c83,6e7781,57606a,a40e26,1a7f37,633c01,218bff,a475f9,3192aa,8c959f",
            "monokai" => "272822,f8f8f2,272822,f92672,a6e22e,f4bf75,66d9ef,ae81ff,a1efe4,f8f8f2,75715e,f92672,a6e22e,f4bf75,66d9ef,ae81ff,a1efe4,f9f8f5",
            "nord" => "2e3440,d8dee9,3b4252,bf616a,a3be8c,ebcb8b,81a1c1,b48ead,88c0d0,e5e9f0,4c566a,bf616a,a3be8c,ebcb8b,81a1c1,b48ead,8fbcbb,eceff4",
            _ => return None,
        };
        Theme::parse_list(spec).ok()
    }

    /// xterm's default colours: black on white and its 16-colour palette (xterm 379's
    /// `XTerm` resources). Not a theme a cast or a render picks (it is not in [`THEMES`]):
    /// the report suite (`record/reports_suite.rs`) answers colour queries with it, because
    /// what it compares is xterm's own replies, made from these colours.
    #[cfg(test)]
    pub(crate) fn xterm() -> Theme {
        Theme::parse_list(XTERM).unwrap_or_default()
    }

    /// A theme from a name (see [`THEMES`]) or a list of colours as agg takes it: the
    /// background, the foreground, then 8 or 16 palette colours, comma-separated hex
    /// (`#` optional). With 8 palette colours the bright ones repeat them.
    pub fn parse(spec: &str) -> Result<Theme, ThemeError> {
        let spec = spec.trim();
        if spec.contains(',') {
            return Theme::parse_list(spec);
        }
        Theme::builtin(spec).ok_or_else(|| {
            ThemeError::new(
                ThemeErrorKind::UnknownName,
                format!(
                "unknown theme {:?}: expected one of {}, or colours `BG,FG,C0,...,C7[,C8,...,C15]`",
                crate::escape::escape_for_terminal(spec, 60),
                THEMES.join(", ")
            ),
            )
        })
    }

    fn parse_list(spec: &str) -> Result<Theme, ThemeError> {
        let colors = spec
            .split(',')
            .map(|c| c.trim())
            .filter(|c| !c.is_empty())
            .map(Rgb::parse)
            .collect::<Result<Vec<Rgb>, _>>()
            .map_err(|e| ThemeError::new(ThemeErrorKind::Color, e.to_string()))?;
        if colors.len() != 10 && colors.len() != 18 {
            return Err(ThemeError::new(ThemeErrorKind::Count, format!(
                "a theme needs 10 or 18 colours (background, foreground, 8 or 16 palette colours); {} were given",
                colors.len()
            )));
        }
        Ok(Theme {
            fg: colors[1],
            bg: colors[0],
            palette: colors[2..].to_vec(),
        })
    }

    /// The colour of palette index `i`: the theme's 16 (with 8, the bright ones repeat
    /// them), then the xterm 6×6×6 cube and the 24 greys.
    pub fn indexed(&self, i: u8) -> Rgb {
        match i {
            0..=15 => match self.palette.len() {
                0 => self.fg,
                n => self.palette[i as usize % n],
            },
            16..=231 => {
                let n = i - 16;
                let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
                Rgb(level(n / 36), level((n / 6) % 6), level(n % 6))
            }
            _ => {
                let v = 8 + 10 * (i - 232);
                Rgb(v, v, v)
            }
        }
    }

    /// The theme as agg's colour list (`bg,fg,c0,...`), which [`Theme::parse`] reads back.
    pub fn to_list(&self) -> String {
        let mut parts = vec![self.bg.to_string(), self.fg.to_string()];
        parts.extend(self.palette.iter().map(|c| c.to_string()));
        parts.join(",")
    }
}

fn theme_from_json(value: &serde_json::Value) -> Result<Theme, ThemeError> {
    let field = |key: &str| match value.get(key) {
        Some(serde_json::Value::String(s)) => Ok::<_, ThemeError>(s.as_str()),
        None | Some(serde_json::Value::Null) => Err(ThemeError::new(
            ThemeErrorKind::Missing,
            format!("the theme has no \"{key}\""),
        )),
        Some(_) => Err(ThemeError::new(
            ThemeErrorKind::Missing,
            format!("the theme's \"{key}\" is not a string"),
        )),
    };
    let color = |key: &str| {
        Rgb::parse(field(key)?).map_err(|e| {
            ThemeError::new(ThemeErrorKind::Color, format!("the theme's \"{key}\": {e}"))
        })
    };
    let (fg, bg) = (color("fg")?, color("bg")?);
    let palette = field("palette")?
        .split(':')
        .filter(|c| !c.is_empty())
        .map(Rgb::parse)
        .collect::<Result<Vec<Rgb>, _>>()
        .map_err(|e| {
            ThemeError::new(
                ThemeErrorKind::Color,
                format!("the theme's \"palette\": {e}"),
            )
        })?;
    if palette.len() != 8 && palette.len() != 16 {
        return Err(ThemeError::new(
            ThemeErrorKind::Count,
            format!(
                "the theme's palette has {} colours; expected 8 or 16",
                palette.len()
            ),
        ));
    }
    Ok(Theme { fg, bg, palette })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_and_the_default_is_asciinema() {
        for name in THEMES {
            let t = Theme::builtin(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(t.palette.len(), 16, "{name}");
            assert_eq!(Theme::parse(&t.to_list()).unwrap(), t);
        }
        assert_eq!(Theme::default().bg, Rgb(0x12, 0x13, 0x14));
    }

    #[test]
    fn colour_lists() {
        let t =
            Theme::parse("000000,ffffff,#010101,020202,030303,040404,050505,060606,070707,080808")
                .unwrap();
        assert_eq!((t.bg, t.fg), (Rgb(0, 0, 0), Rgb(255, 255, 255)));
        assert_eq!(t.palette.len(), 8, "kept as written");
        assert_eq!(
            t.indexed(9),
            Rgb(2, 2, 2),
            "8 colours repeat as the bright ones"
        );
        assert!(Theme::parse("000000,ffffff")
            .unwrap_err()
            .message()
            .contains("10 or 18"));
        assert!(Theme::parse("nope")
            .unwrap_err()
            .message()
            .contains("dracula"));
        assert!(Theme::parse("000000,fffffg,0,0,0,0,0,0,0,0").is_err());
        let empty = Theme {
            palette: Vec::new(),
            ..Theme::default()
        };
        assert_eq!(empty.indexed(3), empty.fg, "no palette: no panic");
    }

    #[test]
    fn xterm_is_black_on_white_with_its_own_palette() {
        let t = Theme::xterm();
        assert_eq!((t.bg, t.fg), (Rgb(255, 255, 255), Rgb(0, 0, 0)));
        assert_eq!(t.palette.len(), 16);
        assert_eq!(
            t.indexed(4),
            Rgb(0, 0, 0xee),
            "xterm's blue, not asciinema's"
        );
        assert_eq!(t.indexed(12), Rgb(0x5c, 0x5c, 0xff));
        assert!(!THEMES.contains(&"xterm"), "not a theme a render picks");
        assert_eq!(default_theme(), &Theme::default());
    }

    #[test]
    fn the_256_colour_cube_and_greys() {
        let t = Theme::default();
        assert_eq!(t.indexed(16), Rgb(0, 0, 0));
        assert_eq!(t.indexed(196), Rgb(255, 0, 0));
        assert_eq!(t.indexed(231), Rgb(255, 255, 255));
        assert_eq!(t.indexed(232), Rgb(8, 8, 8));
        assert_eq!(t.indexed(255), Rgb(238, 238, 238));
    }
}
