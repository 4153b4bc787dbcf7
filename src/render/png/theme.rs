//! Colour themes: the default foreground and background, the 16-colour palette, and how the
//! 256-colour and truecolour values of a cell become pixels.

use crate::rgb::Rgb;
use crate::term::Color;

/// A terminal colour theme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// Default foreground (text) colour.
    pub fg: Rgb,
    /// Default background colour.
    pub bg: Rgb,
    /// Palette colours 0–15: black, red, green, yellow, blue, magenta, cyan, white, then the
    /// bright versions.
    pub palette: [Rgb; 16],
    /// Whether bold text in palette colours 0–7 is drawn in the bright colour (8–15), as
    /// xterm and asciinema's player do.
    pub bold_is_bright: bool,
}

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

impl Default for Theme {
    fn default() -> Self {
        Theme::builtin("asciinema").unwrap_or_else(|| Theme {
            fg: Rgb(0xcc, 0xcc, 0xcc),
            bg: Rgb(0x12, 0x13, 0x14),
            palette: [Rgb::default(); 16],
            bold_is_bright: true,
        })
    }
}

message_error!(
    /// Why a theme name or colour list is not a theme.
    ThemeError
);

impl Theme {
    /// A built-in theme by name (see [`THEMES`]).
    pub fn builtin(name: &str) -> Option<Theme> {
        // bg, fg, then palette 0-15. The asciinema, dracula and monokai values are those of
        // asciinema's player and agg; solarized, nord and github follow their authors' terminal
        // palettes (github: the Primer colours of GitHub's own VS Code theme).
        let (spec, bold_is_bright) = match name {
            "asciinema" => ("121314,cccccc,000000,dd3c69,4ebf22,ddaf3c,26b0d7,b954e1,54e1b9,d9d9d9,4d4d4d,dd3c69,4ebf22,ddaf3c,26b0d7,b954e1,54e1b9,ffffff", true),
            "dracula" => ("282a36,f8f8f2,21222c,ff5555,50fa7b,f1fa8c,bd93f9,ff79c6,8be9fd,f8f8f2,6272a4,ff6e6e,69ff94,ffffa5,d6acff,ff92df,a4ffff,ffffff", false),
            "solarized-dark" => ("002b36,839496,073642,dc322f,859900,b58900,268bd2,d33682,2aa198,eee8d5,002b36,cb4b16,586e75,657b83,839496,6c71c4,93a1a1,fdf6e3", false),
            "solarized-light" => ("fdf6e3,657b83,073642,dc322f,859900,b58900,268bd2,d33682,2aa198,eee8d5,002b36,cb4b16,586e75,657b83,839496,6c71c4,93a1a1,fdf6e3", false),
            "github-dark" => ("0d1117,e6edf3,484f58,ff7b72,3fb950,d29922,58a6ff,bc8cff,39c5cf,b1bac4,6e7681,ffa198,56d364,e3b341,79c0ff,d2a8ff,56d4dd,ffffff", false),
            "github-light" => ("ffffff,1f2328,24292f,cf222e,116329,4d2d00,0969da,8250df,1b7c83,6e7781,57606a,a40e26,1a7f37,633c01,218bff,a475f9,3192aa,8c959f", false),
            "monokai" => ("272822,f8f8f2,272822,f92672,a6e22e,f4bf75,66d9ef,ae81ff,a1efe4,f8f8f2,75715e,f92672,a6e22e,f4bf75,66d9ef,ae81ff,a1efe4,f9f8f5", false),
            "nord" => ("2e3440,d8dee9,3b4252,bf616a,a3be8c,ebcb8b,81a1c1,b48ead,88c0d0,e5e9f0,4c566a,bf616a,a3be8c,ebcb8b,81a1c1,b48ead,8fbcbb,eceff4", false),
            _ => return None,
        };
        let mut theme = Theme::parse_list(spec).ok()?;
        theme.bold_is_bright = bold_is_bright;
        Some(theme)
    }

    /// A theme from a name (see [`THEMES`]) or a list of colours as agg takes it: the
    /// background, the foreground, then 8 or 16 palette colours, comma-separated hex
    /// (`#` optional). With 8 palette colours the bright ones repeat them.
    pub fn parse(spec: &str) -> Result<Theme, ThemeError> {
        let spec = spec.trim();
        if spec.contains(',') {
            return Theme::parse_list(spec).map_err(ThemeError);
        }
        Theme::builtin(spec).ok_or_else(|| {
            ThemeError(format!(
                "unknown theme {:?}: expected one of {}, or colours `BG,FG,C0,...,C7[,C8,...,C15]`",
                crate::escape::escape_for_terminal(spec, 60),
                THEMES.join(", ")
            ))
        })
    }

    fn parse_list(spec: &str) -> Result<Theme, String> {
        let colors = spec
            .split(',')
            .map(|c| c.trim())
            .filter(|c| !c.is_empty())
            .map(Rgb::parse)
            .collect::<Result<Vec<Rgb>, _>>()
            .map_err(|e| e.to_string())?;
        if colors.len() != 10 && colors.len() != 18 {
            return Err(format!(
                "a theme needs 10 or 18 colours (background, foreground, 8 or 16 palette colours); {} were given",
                colors.len()
            ));
        }
        Ok(Theme::from_parts(colors[1], colors[0], &colors[2..]))
    }

    /// The theme a cast's header carries (its colours were read with the cast).
    pub fn from_cast(theme: &crate::cast::Theme) -> Theme {
        Theme::from_parts(theme.fg, theme.bg, &theme.palette)
    }

    /// A theme from its parts; `palette` has 8 or 16 colours (8 are repeated as the bright ones).
    pub fn from_parts(fg: Rgb, bg: Rgb, palette: &[Rgb]) -> Theme {
        let mut full = [Rgb::default(); 16];
        for (i, slot) in full.iter_mut().enumerate() {
            if !palette.is_empty() {
                *slot = palette[i % palette.len()];
            }
        }
        Theme {
            fg,
            bg,
            palette: full,
            bold_is_bright: true,
        }
    }

    /// The colour of palette index `i`: the theme's 16, then the xterm 6×6×6 cube and the
    /// 24 greys.
    pub fn indexed(&self, i: u8) -> Rgb {
        match i {
            0..=15 => self.palette[i as usize],
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

    /// A cell colour as a pixel colour; `default` stands for [`Color::Default`].
    pub fn resolve(&self, color: Color, default: Rgb) -> Rgb {
        match color {
            Color::Default => default,
            Color::Indexed(i) => self.indexed(i),
            Color::Rgb(c) => c,
        }
    }

    /// The theme as agg's colour list (`bg,fg,c0,...,c15`), which [`Theme::parse`] reads back.
    pub fn to_list(&self) -> String {
        let mut parts = vec![self.bg.to_string(), self.fg.to_string()];
        parts.extend(self.palette.iter().map(|c| c.to_string()));
        parts.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_and_the_default_is_asciinema() {
        for name in THEMES {
            let t = Theme::builtin(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(Theme::parse(&t.to_list()).unwrap().palette, t.palette);
        }
        assert_eq!(Theme::default().bg, Rgb(0x12, 0x13, 0x14));
        assert!(Theme::default().bold_is_bright);
    }

    #[test]
    fn colour_lists_and_cast_themes() {
        let t =
            Theme::parse("000000,ffffff,#010101,020202,030303,040404,050505,060606,070707,080808")
                .unwrap();
        assert_eq!((t.bg, t.fg), (Rgb(0, 0, 0), Rgb(255, 255, 255)));
        assert_eq!(
            t.palette[9],
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
        let cast = crate::cast::Theme {
            fg: Rgb(255, 255, 255),
            bg: Rgb(0, 0, 0),
            palette: vec![Rgb(255, 0, 0); 8],
        };
        let t = Theme::from_cast(&cast);
        assert_eq!((t.fg, t.bg), (cast.fg, cast.bg));
        assert_eq!(t.palette[15], Rgb(255, 0, 0), "8 colours repeat");
    }

    #[test]
    fn the_256_colour_cube_and_greys() {
        let t = Theme::default();
        assert_eq!(t.indexed(16), Rgb(0, 0, 0));
        assert_eq!(t.indexed(196), Rgb(255, 0, 0));
        assert_eq!(t.indexed(231), Rgb(255, 255, 255));
        assert_eq!(t.indexed(232), Rgb(8, 8, 8));
        assert_eq!(t.indexed(255), Rgb(238, 238, 238));
        assert_eq!(Rgb::parse("#abc").unwrap(), Rgb(0xaa, 0xbb, 0xcc));
        assert_eq!(
            Rgb(0, 0, 0).mix(Rgb(255, 255, 255), 128),
            Rgb(128, 128, 128)
        );
    }
}
