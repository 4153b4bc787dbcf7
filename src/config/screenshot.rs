//! `[[screenshot]]` tables of `tuicast.toml`: docs images drawn from casts, checked by
//! `tuicast test` and the `cargo test` harness, written by `tuicast screenshots`.
//!
//! ```toml
//! [[screenshot]]
//! cast = "casts/demo.cast"         # the cast, relative to tuicast.toml
//! checkpoint = "prompt"            # or `at = "1.5s"`; neither: the last screen
//! output = "docs/screenshots/demo.png"  # .png, .svg, .gif or .apng, inside the project
//! format = "png"                   # optional: taken from the output's extension; "apng"
//!                                  # (.png, .apng) and "animated-svg" (.svg) animate the cast
//! theme = "dracula"                # over the cast's theme and [png]
//! chrome = true                    # window frame (png, svg, animated-svg)
//! title = "demo"                   # its title (default: the cast's)
//! annotate = ["region=status", "regex=OK,label=button"]  # as --annotate (png, svg)
//! speed = 2                        # an animation's playback speed, as --speed
//! ```
//!
//! Every output is checked when the file is read: a relative path inside the project (no
//! `..`, no symbolic link out of it), with a `.png`, `.svg`, `.gif` or `.apng` name that
//! agrees with `format`, named once.

use std::path::{Component, Path, PathBuf};

use super::{ConfigError, ConfigErrorKind};
use crate::location::line_column;

/// One `[[screenshot]]` table as written.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct ScreenshotToml {
    /// The cast to draw, relative to `tuicast.toml`.
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    cast: toml::Spanned<String>,
    /// The checkpoint (a marker label, or `end`) whose screen is drawn.
    checkpoint: Option<String>,
    /// The screen after every event up to this time (`1.5s`, `300ms`).
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    at: Option<toml::Spanned<String>>,
    /// `png`, `svg`, `gif`, `apng` or `animated-svg` (default: the output's extension).
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    format: Option<toml::Spanned<String>>,
    /// Colours, as `--theme` (over the cast's own theme and `[png]`).
    theme: Option<String>,
    /// Draw a window frame (png, svg, animated-svg), as `--chrome`.
    chrome: Option<bool>,
    /// The window frame's title, as `--title`.
    title: Option<String>,
    /// Boxes and labels, each as one `--annotate` (png, svg).
    annotate: Option<Vec<String>>,
    /// Playback speed of an animation, as `--speed` (default 1).
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    speed: Option<toml::Spanned<f64>>,
    /// The image written, relative to `tuicast.toml` and inside the project.
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    output: toml::Spanned<String>,
}

/// Which screen of the cast a screenshot draws.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ScreenshotAt {
    /// The last screen (the checkpoint `end`); for an animation, the whole cast.
    End,
    /// The named checkpoint.
    Checkpoint(String),
    /// The screen after every event up to this many seconds.
    Time(f64),
}

/// The picture format of a screenshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ScreenshotFormat {
    /// A PNG, compared by decoded pixels.
    Png,
    /// An SVG, compared by bytes.
    Svg,
    /// An animated GIF of the whole cast, compared by bytes.
    Gif,
    /// An animated PNG of the whole cast (a `.png` or `.apng` file), compared by bytes.
    Apng,
    /// An SVG of the whole cast that plays by CSS animation, compared by bytes.
    #[serde(rename = "animated-svg")]
    AnimatedSvg,
}

impl ScreenshotFormat {
    /// `png`, `svg`, `gif`, `apng` or `animated-svg`.
    pub fn name(self) -> &'static str {
        match self {
            ScreenshotFormat::Png => "png",
            ScreenshotFormat::Svg => "svg",
            ScreenshotFormat::Gif => "gif",
            ScreenshotFormat::Apng => "apng",
            ScreenshotFormat::AnimatedSvg => "animated-svg",
        }
    }

    /// Whether it animates the whole cast (a GIF, an APNG, an animated SVG).
    pub fn animated(self) -> bool {
        matches!(
            self,
            ScreenshotFormat::Gif | ScreenshotFormat::Apng | ScreenshotFormat::AnimatedSvg
        )
    }

    /// The file name's extension of this format: `png` for an APNG (what browsers and
    /// READMEs show), `svg` for an animated SVG.
    pub fn extension(self) -> &'static str {
        match self {
            ScreenshotFormat::Png | ScreenshotFormat::Apng => "png",
            ScreenshotFormat::Svg | ScreenshotFormat::AnimatedSvg => "svg",
            ScreenshotFormat::Gif => "gif",
        }
    }

    fn parse(text: &str) -> Option<ScreenshotFormat> {
        match text.to_ascii_lowercase().as_str() {
            "png" => Some(ScreenshotFormat::Png),
            "svg" => Some(ScreenshotFormat::Svg),
            "gif" => Some(ScreenshotFormat::Gif),
            "apng" => Some(ScreenshotFormat::Apng),
            "animated-svg" => Some(ScreenshotFormat::AnimatedSvg),
            _ => None,
        }
    }

    /// Whether an output named with `ext`'s format (as [`ScreenshotFormat::parse`] reads an
    /// extension) may hold this format.
    fn fits(self, ext: ScreenshotFormat) -> bool {
        self == ext || (ext != ScreenshotFormat::Apng && self.extension() == ext.extension())
    }
}

/// One `[[screenshot]]`, checked: paths absolute, the output inside the project.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Screenshot {
    /// The output as written, `/`-separated, relative to the project root: its name
    /// (`docs/screenshots/demo.png`), what `tuicast screenshots NAME` and filters match.
    pub name: String,
    /// The image file.
    pub output: PathBuf,
    /// The cast file.
    pub cast: PathBuf,
    /// Which screen.
    pub at: ScreenshotAt,
    /// The picture format.
    pub format: ScreenshotFormat,
    /// `theme`, as `--theme`.
    pub theme: Option<String>,
    /// `chrome`, as `--chrome`.
    pub chrome: bool,
    /// `title`, as `--title`.
    pub title: Option<String>,
    /// `annotate`, each as one `--annotate`.
    pub annotate: Vec<String>,
    /// `speed` of a GIF, as `--speed` (1 when not given).
    pub speed: f64,
    /// The line of the table in `tuicast.toml`.
    pub line: u64,
}

/// The `[[screenshot]]` tables of the file at `path` (text `text`, project `root`), checked.
pub(crate) fn read(
    path: &Path,
    text: &str,
    root: &Path,
    tables: Vec<toml::Spanned<ScreenshotToml>>,
) -> Result<Vec<Screenshot>, ConfigError> {
    let mut out: Vec<Screenshot> = Vec::new();
    for table in tables {
        let (line, _) = line_column(text, table.span().start);
        let t = table.into_inner();
        let at_place = |span: std::ops::Range<usize>| line_column(text, span.start);
        let error = |span: std::ops::Range<usize>, kind, message: String| {
            let (l, c) = at_place(span);
            ConfigError::of_kind(kind, path, l, c, message)
        };
        let value = ConfigErrorKind::Value;
        let shown = |s: &str| crate::escape::escape_for_terminal(s, 200);
        let output_span = t.output.span();
        let name = t.output.get_ref().clone();
        let rel = Path::new(&name);
        let plain = !name.is_empty()
            && rel
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if !plain {
            return Err(error(
                output_span,
                ConfigErrorKind::Unsafe,
                format!(
                    "screenshot.output {:?}: must be a relative path inside the project, \
                     without `..`",
                    shown(&name)
                ),
            ));
        }
        let ext = rel
            .extension()
            .and_then(|e| e.to_str())
            .and_then(ScreenshotFormat::parse)
            .filter(|f| *f != ScreenshotFormat::AnimatedSvg);
        let Some(ext) = ext else {
            return Err(error(
                output_span,
                ConfigErrorKind::Unsafe,
                format!(
                    "screenshot.output {:?}: the name must end in .png, .svg, .gif or .apng",
                    shown(&name)
                ),
            ));
        };
        let output = root.join(rel);
        if root.is_dir() && !crate::util::is_inside(root, &output) {
            return Err(error(
                output_span,
                ConfigErrorKind::Unsafe,
                format!(
                    "screenshot.output {:?} is outside the project (after symbolic links): \
                     screenshots are written only inside it",
                    shown(&name)
                ),
            ));
        }
        let format = match &t.format {
            None => ext,
            Some(f) => match ScreenshotFormat::parse(f.get_ref()) {
                Some(g) if g.fits(ext) => g,
                Some(g) => {
                    return Err(error(
                        f.span(),
                        value,
                        format!(
                            "screenshot.format {:?} disagrees with the output's name {:?}",
                            g.name(),
                            shown(&name)
                        ),
                    ))
                }
                None => {
                    return Err(error(
                        f.span(),
                        value,
                        format!(
                            "screenshot.format {:?}: expected png, svg, gif, apng or \
                             animated-svg",
                            shown(f.get_ref())
                        ),
                    ))
                }
            },
        };
        let at = match (&t.checkpoint, &t.at) {
            (Some(_), Some(a)) => {
                return Err(error(
                    a.span(),
                    value,
                    "screenshot: give `checkpoint` or `at`, not both".to_string(),
                ))
            }
            (Some(c), None) => ScreenshotAt::Checkpoint(c.clone()),
            (None, Some(a)) => match super::parse_duration(a.get_ref()) {
                Ok(d) => ScreenshotAt::Time(d.as_secs_f64()),
                Err(e) => return Err(error(a.span(), value, format!("screenshot.at: {e}"))),
            },
            (None, None) => ScreenshotAt::End,
        };
        let annotate = t.annotate.unwrap_or_default();
        let decorated = !annotate.is_empty() || t.chrome == Some(true) || t.title.is_some();
        if decorated && matches!(format, ScreenshotFormat::Gif | ScreenshotFormat::Apng) {
            return Err(error(
                output_span,
                value,
                format!(
                    "screenshot: annotate, chrome and title are drawn in PNG and SVG (chrome \
                     and title in animated SVG too), not {}",
                    format.name()
                ),
            ));
        }
        if format == ScreenshotFormat::AnimatedSvg && !annotate.is_empty() {
            return Err(error(
                output_span,
                value,
                "screenshot: annotate boxes one screen: it applies to png and svg, not to \
                 animated-svg"
                    .to_string(),
            ));
        }
        if format.animated() && at != ScreenshotAt::End {
            return Err(error(
                output_span,
                value,
                format!(
                    "screenshot: {} is an animation of the whole cast: `checkpoint` and `at` do \
                     not apply",
                    format.name()
                ),
            ));
        }
        let speed = match &t.speed {
            None => 1.0,
            Some(v) if !format.animated() => {
                return Err(error(
                    v.span(),
                    value,
                    "screenshot.speed: only an animation (gif, apng, animated-svg) has a speed"
                        .to_string(),
                ))
            }
            Some(v) if !(v.get_ref().is_finite() && *v.get_ref() > 0.0) => {
                return Err(error(
                    v.span(),
                    value,
                    format!("screenshot.speed must be above 0 (got {})", v.get_ref()),
                ))
            }
            Some(v) => *v.get_ref(),
        };
        for spec in &annotate {
            if let Err(e) = spec.parse::<AnnotationCheck>() {
                return Err(error(
                    table_span(text, line),
                    value,
                    format!("screenshot.annotate {:?}: {}", shown(spec), e.0),
                ));
            }
        }
        let name = rel
            .components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("/");
        if let Some(first) = out.iter().find(|s| s.name == name) {
            return Err(error(
                output_span,
                value,
                format!(
                    "screenshot.output {:?} is already the output of the screenshot on line {}",
                    shown(&name),
                    first.line
                ),
            ));
        }
        out.push(Screenshot {
            name,
            output,
            cast: root.join(t.cast.get_ref()),
            at,
            format,
            theme: t.theme,
            chrome: t.chrome.unwrap_or(false),
            title: t.title,
            annotate,
            speed,
            line,
        });
    }
    Ok(out)
}

/// The byte offset of the start of 1-based `line` of `text`, as a span.
fn table_span(text: &str, line: u64) -> std::ops::Range<usize> {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1) as usize)
        .map(str::len)
        .sum();
    start..start
}

/// An `--annotate` spec checked for its shape when the file is read (its regions and
/// regexes are found when the screenshot is drawn).
struct AnnotationCheck;

/// Why an annotation spec does not read.
struct AnnotationCheckError(String);

impl std::str::FromStr for AnnotationCheck {
    type Err = AnnotationCheckError;
    #[cfg(feature = "png")]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let spec: crate::render::png::AnnotationSpec = s
            .parse()
            .map_err(|e| AnnotationCheckError(format!("{e}")))?;
        if spec.region.is_none() {
            spec.build()
                .map_err(|e| AnnotationCheckError(format!("{e}")))?;
        }
        Ok(AnnotationCheck)
    }
    #[cfg(not(feature = "png"))]
    fn from_str(_: &str) -> Result<Self, Self::Err> {
        Ok(AnnotationCheck)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Config, ConfigErrorKind, CONFIG_FILE};
    use super::*;

    fn load(text: &str) -> (tempfile::TempDir, Result<Config, ConfigError>) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CONFIG_FILE), text).unwrap();
        let c = Config::load(dir.path());
        (dir, c)
    }

    #[test]
    fn screenshots_are_read_with_their_defaults() {
        let (dir, c) = load(
            "[[screenshot]]\ncast = \"casts/a.cast\"\noutput = \"docs/a.png\"\n\n\
             [[screenshot]]\ncast = \"casts/a.cast\"\nat = \"1.5s\"\noutput = \"docs/b.svg\"\ntheme = \"nord\"\n\n\
             [[screenshot]]\ncast = \"casts/a.cast\"\ncheckpoint = \"menu\"\noutput = \"./docs/c.png\"\n\
             chrome = true\nannotate = [\"rows=1\"]\n\n\
             [[screenshot]]\ncast = \"casts/a.cast\"\noutput = \"docs/d.GIF\"\n\n\
             [[screenshot]]\ncast = \"casts/a.cast\"\noutput = \"docs/e.png\"\nformat = \"apng\"\n\n\
             [[screenshot]]\ncast = \"casts/a.cast\"\noutput = \"docs/f.apng\"\nspeed = 2\n\n\
             [[screenshot]]\ncast = \"casts/a.cast\"\noutput = \"docs/g.svg\"\nformat = \"animated-svg\"\n\
             chrome = true\n",
        );
        let c = c.unwrap();
        let s = &c.screenshots;
        assert_eq!(s.len(), 7);
        let formats: Vec<ScreenshotFormat> = s[3..].iter().map(|s| s.format).collect();
        use ScreenshotFormat::{AnimatedSvg, Apng, Gif};
        assert_eq!(formats, [Gif, Apng, Apng, AnimatedSvg]);
        assert_eq!((s[5].speed, s[6].chrome), (2.0, true));
        assert_eq!(s[0].name, "docs/a.png");
        assert_eq!(s[0].output, dir.path().join("docs/a.png"));
        assert_eq!(s[0].cast, dir.path().join("casts/a.cast"));
        assert_eq!(
            (s[0].at.clone(), s[0].format),
            (ScreenshotAt::End, ScreenshotFormat::Png)
        );
        assert_eq!(s[0].line, 1);
        assert_eq!(
            (s[1].at.clone(), s[1].format),
            (ScreenshotAt::Time(1.5), ScreenshotFormat::Svg)
        );
        assert_eq!(s[1].theme.as_deref(), Some("nord"));
        assert_eq!(s[2].name, "docs/c.png");
        assert_eq!(s[2].at, ScreenshotAt::Checkpoint("menu".into()));
        assert!(s[2].chrome);
        assert_eq!(s[3].format, ScreenshotFormat::Gif);
    }

    #[test]
    fn bad_screenshots_say_where() {
        let head = "[[screenshot]]\ncast = \"c.cast\"\n";
        for (body, kind, line, needle) in [
            (
                "output = \"../x.png\"\n",
                ConfigErrorKind::Unsafe,
                3,
                "without `..`",
            ),
            (
                "output = \"/tmp/x.png\"\n",
                ConfigErrorKind::Unsafe,
                3,
                "relative path",
            ),
            (
                "output = \"x.sh\"\n",
                ConfigErrorKind::Unsafe,
                3,
                ".png, .svg, .gif or .apng",
            ),
            (
                "output = \"x.png\"\nformat = \"svg\"\n",
                ConfigErrorKind::Value,
                4,
                "disagrees",
            ),
            (
                "output = \"x.png\"\nformat = \"bmp\"\n",
                ConfigErrorKind::Value,
                4,
                "expected png",
            ),
            (
                "output = \"x.png\"\nat = \"1s\"\ncheckpoint = \"a\"\n",
                ConfigErrorKind::Value,
                4,
                "not both",
            ),
            (
                "output = \"x.png\"\nat = \"soon\"\n",
                ConfigErrorKind::Value,
                4,
                "screenshot.at",
            ),
            (
                "output = \"x.png\"\nzoom = 2\n",
                ConfigErrorKind::Syntax,
                4,
                "unknown field `zoom`",
            ),
            (
                "output = \"x.gif\"\nchrome = true\n",
                ConfigErrorKind::Value,
                3,
                "not gif",
            ),
            (
                "output = \"x.png\"\nformat = \"apng\"\ntitle = \"t\"\n",
                ConfigErrorKind::Value,
                3,
                "not apng",
            ),
            (
                "output = \"x.svg\"\nformat = \"animated-svg\"\nannotate = [\"rows=1\"]\n",
                ConfigErrorKind::Value,
                3,
                "not to animated-svg",
            ),
            (
                "output = \"x.png\"\nformat = \"animated-svg\"\n",
                ConfigErrorKind::Value,
                4,
                "disagrees",
            ),
            (
                "output = \"x.apng\"\nformat = \"png\"\n",
                ConfigErrorKind::Value,
                4,
                "disagrees",
            ),
            (
                "output = \"x.svg\"\nformat = \"animated-svg\"\nat = \"1s\"\n",
                ConfigErrorKind::Value,
                3,
                "animated-svg is an animation of the whole cast",
            ),
            (
                "output = \"x.svg\"\nspeed = 2\n",
                ConfigErrorKind::Value,
                4,
                "only an animation",
            ),
            (
                "output = \"x.gif\"\ncheckpoint = \"a\"\n",
                ConfigErrorKind::Value,
                3,
                "whole cast",
            ),
            (
                "output = \"x.png\"\nannotate = [\"rows=zz\"]\n",
                ConfigErrorKind::Value,
                1,
                "screenshot.annotate",
            ),
            (
                "output = \"x.png\"\n[[screenshot]]\ncast = \"d.cast\"\noutput = \"./x.png\"\n",
                ConfigErrorKind::Value,
                6,
                "already the output of the screenshot on line 1",
            ),
        ] {
            let text = format!("{head}{body}");
            let (_dir, c) = load(&text);
            let e = c.unwrap_err();
            assert_eq!((e.kind, e.line), (kind, line), "{text:?}: {e}");
            assert!(e.to_string().contains(needle), "{text:?}: {e}");
            assert!(e.column > 0 || line == 1, "{e}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_output_through_a_symlink_out_of_the_project_is_refused() {
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("docs")).unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "[[screenshot]]\ncast = \"c.cast\"\noutput = \"docs/x.png\"\n",
        )
        .unwrap();
        let e = Config::load(dir.path()).unwrap_err();
        assert_eq!(
            (e.kind, e.line, e.column),
            (ConfigErrorKind::Unsafe, 3, 10),
            "{e}"
        );
        assert!(e.to_string().contains("outside the project"), "{e}");
    }
}
