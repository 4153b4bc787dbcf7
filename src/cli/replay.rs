//! `tuicast replay`: the screen of a cast at a checkpoint, a time, or the end.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;

use super::{write_output, EngineArg};
use tuicast::cast::{transform, Header};
use tuicast::config::{CastFile, Regions};
use tuicast::escape::escape_for_terminal;
use tuicast::inspect::Anchor;
use tuicast::render::png::{
    self, Annotation, AnnotationSpec, ApngEncoder, Decorations, FontDirs, GifEncoder, GifOptions,
    PngConfig, PngOptions, Renderer, SvgAnimation,
};
use tuicast::replay::{self, Checkpoint, Found, END};
use tuicast::term::Screen;

/// Replay a cast into a terminal engine and print the screen.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tuicast replay casts/demo.cast\n  \
    tuicast replay casts/*.cast\n  \
    tuicast replay casts/demo.cast --at saved --format json -o saved.json\n  \
    tuicast replay casts/demo.cast --time 2.5 --engine vt100\n  \
    tuicast replay casts/vttest.cast --deccolm     CSI ? 3 h switches to 132 columns\n  \
    tuicast replay casts/demo.cast --format png -o demo.png --theme dracula --chrome\n  \
    tuicast replay casts/demo.cast --format png -o menu.png --annotate 'regex=Pick .*,label=Prompt'\n  \
    tuicast replay casts/demo.cast --format png -o status.png --annotate region=status\n  \
    tuicast replay casts/demo.cast --format gif -o demo.gif --speed 2 --idle-time-limit 1\n  \
    tuicast replay casts/demo.cast --format animated-svg -o demo.svg --chrome --from saved\n  \
    tuicast replay casts/demo.cast --format animated-svg -o demo.svg --annotate 'at=saved,regex=Saved'\n  \
    tuicast replay casts/demo.cast --format apng -o demo.png --no-loop")]
pub(super) struct Args {
    /// The cast files (asciicast v1, v2 or v3). With several, each screen is preceded by a
    /// `==> CAST @ CHECKPOINT <==` line.
    #[arg(required = true, value_name = "CAST")]
    casts: Vec<PathBuf>,
    /// Show the screen at this checkpoint (a marker label, or `end`).
    #[arg(long, conflicts_with = "time")]
    at: Option<String>,
    /// Show the screen after every event up to this many seconds.
    #[arg(long, value_name = "SECS")]
    time: Option<f64>,
    /// Output format. `png`, `gif` and `apng` need `-o FILE`.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    engine: EngineArg,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    picture: Box<PictureArgs>,
}

impl Args {
    /// `replay CAST --format png -o OUTPUT` with these options (`tuicast screenshot`).
    pub(super) fn png(
        cast: PathBuf,
        at: Option<String>,
        time: Option<f64>,
        engine: EngineArg,
        output: PathBuf,
        png: PngArgs,
    ) -> Args {
        Args {
            casts: vec![cast],
            at,
            time,
            // `-o FILE.svg` draws an SVG, any other name a PNG.
            format: if output
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("svg"))
            {
                Format::Svg
            } else {
                Format::Png
            },
            engine,
            output: Some(output),
            picture: Box::new(PictureArgs {
                png,
                gif: GifArgs::default(),
            }),
        }
    }
}

/// Options of the pictures and animations (defaults from `[png]` in tuicast.toml).
#[derive(Debug, Default, clap::Args)]
struct PictureArgs {
    #[command(flatten, next_help_heading = "Pictures and animations")]
    png: PngArgs,
    #[command(flatten, next_help_heading = "Animations (gif, apng, animated-svg)")]
    gif: GifArgs,
}

/// Options of a picture: colours, font, cursor, annotations, window frame.
#[derive(Debug, Default, clap::Args)]
pub(super) struct PngArgs {
    /// Colours: asciinema, dracula, solarized-dark, solarized-light, github-dark, github-light,
    /// monokai, nord, or `BG,FG,C0,...,C7[,C8,...,C15]` in hex. Default: the cast's own theme,
    /// else asciinema.
    #[arg(long, value_name = "THEME")]
    theme: Option<String>,
    /// Font size in pixels per em [default: 16].
    #[arg(long, value_name = "PX")]
    font_size: Option<f32>,
    /// Cell height in ems [default: 1.2].
    #[arg(long, value_name = "EMS")]
    line_height: Option<f32>,
    /// Space around the screen in pixels [default: 12].
    #[arg(long, value_name = "PX")]
    padding: Option<u32>,
    /// A folder of fallback fonts for characters DejaVu Sans Mono lacks (CJK, emoji), searched
    /// before the system's fonts; may be repeated. PNG goldens use these and the bundled fonts
    /// only, so they are the same everywhere.
    #[arg(long, value_name = "DIR")]
    font_dir: Vec<PathBuf>,
    /// Use only the bundled fonts and --font-dir, not the system's fonts (the usual font
    /// folders, or $TUICAST_SYSTEM_FONT_DIRS), which otherwise draw what those lack. PNG
    /// goldens never use system fonts.
    #[arg(long)]
    no_system_fonts: bool,
    /// Cursor shape: block, bar, underline or hidden [default: the shape the program set
    /// (DECSCUSR), else block].
    #[arg(long, value_name = "STYLE")]
    cursor: Option<String>,
    /// Box cells and label them (png, svg): `rows=2..5,cols=0..40,label=Menu,color=#ff8800`,
    /// `regex=PATTERN,label=TEXT`, or `region=NAME` (a region of the `[regions]` table of the
    /// scenario beside the cast, `x.cast` → `x.toml`; other keys override it). In an
    /// animated-svg, `at=CHECKPOINT,` first draws it during that checkpoint's frame (without
    /// it: at `end`). May be repeated.
    #[arg(long, value_name = "SPEC")]
    annotate: Vec<String>,
    /// Draw a window frame with a title bar, rounded corners and a shadow (png, svg,
    /// animated-svg).
    #[arg(long)]
    chrome: bool,
    /// Title of the window frame (with --chrome) [default: the cast header's title, else the
    /// program's window title, else the file name].
    #[arg(long, value_name = "TEXT", requires = "chrome")]
    title: Option<String>,
}

/// Options of an animation (a GIF, an APNG, an animated SVG).
#[derive(Debug, Default, clap::Args)]
struct GifArgs {
    /// Playback speed [default: 1].
    #[arg(long, value_name = "FACTOR")]
    speed: Option<f64>,
    /// Longest pause in seconds [default: the cast's idle_time_limit].
    #[arg(long, value_name = "SECS")]
    idle_time_limit: Option<f64>,
    /// Frame-rate cap [default: 30].
    #[arg(long, value_name = "FPS")]
    fps: Option<u32>,
    /// How long the last frame is shown, in seconds [default: 3].
    #[arg(long, value_name = "SECS")]
    last_frame: Option<f64>,
    /// Play the animation once instead of looping (it ends on its last frame).
    #[arg(long)]
    no_loop: bool,
    /// Start the animation at this checkpoint (a marker label), on the screen it shows.
    #[arg(long, value_name = "CHECKPOINT")]
    from: Option<String>,
    /// End the animation at this checkpoint (a marker label, or `end`).
    #[arg(long, value_name = "CHECKPOINT")]
    to: Option<String>,
}

impl PictureArgs {
    /// The flags given that only pictures use, and those that only GIFs or PNGs use.
    fn given(&self) -> (Vec<&'static str>, Vec<&'static str>, Vec<&'static str>) {
        let mut common = Vec::new();
        let mut png_only = Vec::new();
        let mut gif_only = Vec::new();
        let (p, g) = (&self.png, &self.gif);
        let flags: [(bool, &'static str, u8); 17] = [
            (p.theme.is_some(), "--theme", 0),
            (p.font_size.is_some(), "--font-size", 0),
            (p.line_height.is_some(), "--line-height", 0),
            (p.padding.is_some(), "--padding", 0),
            (!p.font_dir.is_empty(), "--font-dir", 0),
            (p.no_system_fonts, "--no-system-fonts", 0),
            (p.cursor.is_some(), "--cursor", 0),
            (!p.annotate.is_empty(), "--annotate", 1),
            (p.chrome, "--chrome", 1),
            (p.title.is_some(), "--title", 1),
            (g.speed.is_some(), "--speed", 2),
            (g.idle_time_limit.is_some(), "--idle-time-limit", 2),
            (g.fps.is_some(), "--fps", 2),
            (g.last_frame.is_some(), "--last-frame", 2),
            (g.no_loop, "--no-loop", 2),
            (g.from.is_some(), "--from", 2),
            (g.to.is_some(), "--to", 2),
        ];
        for (on, name, kind) in flags {
            if !on {
                continue;
            }
            match kind {
                0 => common.push(name),
                1 => png_only.push(name),
                _ => gif_only.push(name),
            }
        }
        (common, png_only, gif_only)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Plain text, one line per row, trailing spaces trimmed.
    Text,
    /// JSON: size, cursor, title and per row the text and style runs.
    Json,
    /// A PNG screenshot (needs -o).
    Png,
    /// An SVG screenshot: text as text on the PNG's grid, box drawing as shapes.
    Svg,
    /// The whole cast as an animated GIF (needs -o).
    Gif,
    /// The whole cast as an animated PNG: full colour, lossless (needs -o).
    Apng,
    /// The whole cast as one SVG that plays by CSS animation: text as text, no script.
    AnimatedSvg,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Png => "png",
            Format::Svg => "svg",
            Format::Gif => "gif",
            Format::Apng => "apng",
            Format::AnimatedSvg => "animated-svg",
        }
    }

    /// Whether this is an animation of the whole cast.
    fn animated(self) -> bool {
        matches!(self, Format::Gif | Format::Apng | Format::AnimatedSvg)
    }
}

pub(super) fn run(args: Args) -> anyhow::Result<ExitCode> {
    check_picture_args(&args)?;
    if let Some(out) = args.output.as_ref().filter(|o| o.as_os_str() != "-") {
        let target = tuicast::util::resolved(out);
        if let Some(cast) = args
            .casts
            .iter()
            .find(|c| tuicast::util::resolved(c) == target)
        {
            bail!(
                "refusing to write the output over the input {}: give -o another file",
                escape_for_terminal(&cast.display().to_string(), 300)
            );
        }
    }
    if args.format.animated() {
        return animation(&args);
    }
    if args.casts.len() == 1 {
        let bytes = render_one(&args, &args.casts[0])?;
        write_output(args.output.as_ref(), &bytes)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.output.is_some() {
        bail!(
            "-o/--output takes one cast; {} were given",
            args.casts.len()
        );
    }
    let mut failed = false;
    for (i, cast) in args.casts.iter().enumerate() {
        match render_one(&args, cast) {
            Ok(bytes) => {
                let label = args.at.clone().unwrap_or_else(|| match args.time {
                    Some(t) => format!("t={t}"),
                    None => END.to_string(),
                });
                let sep = if i == 0 { "" } else { "\n" };
                let head = format!(
                    "{sep}==> {} @ {} <==\n",
                    escape_for_terminal(&cast.display().to_string(), 200),
                    escape_for_terminal(&label, 80)
                );
                write_output(None, head.as_bytes())?;
                write_output(None, &bytes)?;
            }
            Err(e) => {
                failed = true;
                eprintln!("error: {}", super::message(&e));
            }
        }
    }
    Ok(if failed {
        ExitCode::from(super::EXIT_BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    })
}

/// The engine for `cast`: `--engine`, with the `[terminal]` options of the cast's TOML (as
/// `tuicast test` replays it), and `--deccolm` over them.
fn engine_for(args: &Args, cast: &std::path::Path) -> anyhow::Result<tuicast::term::EngineSpec> {
    let mut engine = args.engine.spec();
    if let Some(file) = CastFile::beside(cast, &tuicast::config::Regions::default())? {
        engine.options = file.terminal.apply(engine.options);
    }
    if args.engine.deccolm {
        engine.options = engine.options.with_deccolm(true);
    }
    Ok(engine)
}

/// Most checkpoint names listed when `--at` names none of them.
const MAX_NAMES_SHOWN: usize = 20;

fn render_one(args: &Args, cast: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    let reader = tuicast::cast::open(cast)?;
    let header = reader.header().clone();
    let engine = engine_for(args, cast)?;
    // A picture too large to draw is refused before the replay, from the header's size.
    let renderer = match args.format {
        Format::Png | Format::Svg => {
            let renderer = Renderer::new(picture_options(args, &header)?)?;
            renderer
                .layout(header.term.size.at_least_min())
                .map_err(|e| anyhow::anyhow!("{}: {e}", cast.display()))?;
            Some(renderer)
        }
        _ => None,
    };
    let checkpoint: Checkpoint = match (&args.at, args.time) {
        (_, Some(t)) => {
            if !(t.is_finite() && t >= 0.0) {
                bail!("--time must be a number of seconds, 0 or more (got {t})");
            }
            replay::at_time(reader, engine, t)?
        }
        (Some(name), None) => match replay::find(reader, engine, name)? {
            Found::Checkpoint(c) => *c,
            Found::Missing(names) => {
                let mut list: Vec<String> = names
                    .iter()
                    .take(MAX_NAMES_SHOWN)
                    .map(|n| escape_for_terminal(n, 80))
                    .collect();
                if names.len() > MAX_NAMES_SHOWN {
                    list.push(format!("… and {} more", names.len() - MAX_NAMES_SHOWN));
                }
                bail!(
                    "{}: no checkpoint named \"{}\"; the checkpoints are: {}",
                    cast.display(),
                    escape_for_terminal(name, 80),
                    list.join(", ")
                );
            }
        },
        (None, None) => match replay::find(reader, engine, END)? {
            Found::Checkpoint(c) => *c,
            Found::Missing(_) => bail!("{}: the cast has no end", cast.display()),
        },
    };
    let bytes = match args.format {
        Format::Text => tuicast::render::text(&checkpoint.screen).into_bytes(),
        Format::Json => {
            let mut json = tuicast::render::ScreenJson::of(&checkpoint.screen);
            json.checkpoint = Some(tuicast::term::CheckpointJson::new(
                checkpoint.name.clone(),
                checkpoint.line,
                checkpoint.time,
            ));
            let value = serde_json::to_value(json)?;
            tuicast::render::json_lines(&value).into_bytes()
        }
        Format::Png => picture(renderer, args, cast, &header, &checkpoint)?,
        Format::Svg => picture(renderer, args, cast, &header, &checkpoint)?,
        // (`run` renders an animation from the whole cast before it gets here.)
        Format::Gif | Format::Apng | Format::AnimatedSvg => {
            bail!(
                "--format {} is rendered from the whole cast",
                args.format.name()
            )
        }
    };
    Ok(bytes)
}

/// Refuses picture flags with text formats, GIF flags with PNG and the reverse, and binary
/// output to a terminal.
fn check_picture_args(args: &Args) -> anyhow::Result<()> {
    let (common, png_only, gif_only) = args.picture.given();
    let list = |v: &[&str]| v.join(", ");
    match args.format {
        Format::Text | Format::Json => {
            let all: Vec<&str> = common
                .iter()
                .chain(&png_only)
                .chain(&gif_only)
                .copied()
                .collect();
            if !all.is_empty() {
                bail!(
                    "{} only apply to pictures and animations (the format is {})",
                    list(&all),
                    args.format.name()
                );
            }
            return Ok(());
        }
        Format::Png | Format::Svg if !gif_only.is_empty() => {
            bail!(
                "{} only apply to animations (--format gif, apng or animated-svg)",
                list(&gif_only)
            )
        }
        Format::Png | Format::Svg
            if args
                .picture
                .png
                .annotate
                .iter()
                .any(|a| a.starts_with("at=")) =>
        {
            bail!(
                "--annotate at=CHECKPOINT applies to --format animated-svg: a still picture \
                 is of one checkpoint (--at)"
            )
        }
        Format::Gif | Format::Apng if !png_only.is_empty() => {
            bail!(
                "{} only apply to --format png, svg and animated-svg",
                list(&png_only)
            )
        }
        f if f.animated() && (args.at.is_some() || args.time.is_some()) => {
            bail!(
                "--format {} renders the whole cast: --at and --time do not apply (--from and \
                 --to choose a part)",
                f.name()
            )
        }
        _ => {}
    }
    let format = args.format.name();
    let text = matches!(args.format, Format::Svg | Format::AnimatedSvg);
    let Some(out) = &args.output else {
        if text {
            // (Text: standard output is fine.)
            return Ok(());
        }
        bail!("--format {format} writes an image: give the file with -o FILE");
    };
    if args.casts.len() != 1 {
        bail!(
            "--format {format} takes one cast; {} were given",
            args.casts.len()
        );
    }
    if out.as_os_str() == "-" && !text && std::io::stdout().is_terminal() {
        bail!("refusing to write {format} data to a terminal: redirect standard output or give -o FILE");
    }
    Ok(())
}

/// The options of a picture: the cast's theme, then `[png]` of tuicast.toml, then the flags.
/// A screenshot draws what the bundled fonts and font folders lack with the system's fonts
/// unless told not to.
fn picture_options(args: &Args, header: &Header) -> anyhow::Result<PngOptions> {
    let mut options = PngOptions::default().system_fonts(true);
    if let Some(t) = &header.term.theme {
        options.theme = t.clone();
    } else if let Some(kept) = header.term.extra.get("theme") {
        // The reader keeps a theme whose colours it cannot read, as it was.
        if let Err(e) = tuicast::theme::Theme::from_json(kept) {
            eprintln!(
                "warning: the cast's theme is not used: {}",
                escape_for_terminal(e.message(), 200)
            );
        }
    }
    let root = std::env::current_dir()?;
    tuicast::config::Config::load(&root)?
        .png
        .apply(&mut options, &root)
        .map_err(anyhow::Error::msg)?;
    let p = &args.picture.png;
    let mut flags = PngConfig::default();
    flags.theme = p.theme.clone();
    flags.font_size = p.font_size;
    flags.line_height = p.line_height;
    flags.padding = p.padding;
    flags.font_dir = Some(FontDirs::Many(p.font_dir.clone()));
    flags.cursor = p.cursor.clone();
    flags.system_fonts = p.no_system_fonts.then_some(false);
    flags
        .apply_flags(&mut options, &root)
        .map_err(anyhow::Error::msg)?;
    Ok(options)
}

/// A PNG (or, for `--format svg`, an SVG) of the checkpoint's screen.
fn picture(
    renderer: Option<Renderer>,
    args: &Args,
    cast: &Path,
    header: &Header,
    checkpoint: &Checkpoint,
) -> anyhow::Result<Vec<u8>> {
    let annotations = annotations(&args.picture.png.annotate, cast, &checkpoint.screen)?;
    let title = args
        .picture
        .png
        .title
        .clone()
        .or_else(|| header.title.clone())
        .or_else(|| checkpoint.screen.title.clone())
        .or_else(|| cast.file_stem().map(|s| s.to_string_lossy().into_owned()));
    let mut decorations = Decorations::default();
    decorations.annotations = annotations;
    decorations.chrome = args.picture.png.chrome;
    decorations.title = title;
    let mut renderer = match renderer {
        Some(r) => r,
        None => Renderer::new(picture_options(args, header)?)?,
    };
    if args.format == Format::Svg {
        let svg = renderer.render_svg_decorated(&checkpoint.screen, &decorations)?;
        return Ok(svg.into_bytes());
    }
    let image = renderer.render_decorated(&checkpoint.screen, &decorations)?;
    Ok(png::encode_png_with_fonts(
        &image,
        png::Compression::Small,
        &renderer.fonts_used(),
    )?)
}

/// The `--annotate` specs, with `region=NAME` taken from the scenario beside the cast (its
/// `[regions]` over those of `tuicast.toml`); warns about fixed annotations that box nothing
/// on `screen`, and fails for a region anchored by content that finds nothing there.
fn annotations(specs: &[String], cast: &Path, screen: &Screen) -> anyhow::Result<Vec<Annotation>> {
    let mut scenario: Option<(PathBuf, Option<CastFile>, Regions)> = None;
    let mut out = Vec::new();
    for text in specs {
        let shown = escape_for_terminal(text, 120);
        let spec: AnnotationSpec = text.parse()?;
        let a = match &spec.region {
            None => spec
                .build()
                .map_err(|e| anyhow::anyhow!("--annotate {shown:?}: {e}"))?,
            Some(name) => {
                let (path, loaded, project) = match &scenario {
                    Some(s) => s,
                    None => {
                        let path = cast.with_extension("toml");
                        let project =
                            tuicast::config::Config::load(&std::env::current_dir()?)?.regions;
                        let loaded = CastFile::beside(cast, &project)?;
                        scenario.insert((path, loaded, project))
                    }
                };
                let (region, anchor) = find_region(path, loaded.as_ref(), project, name, cast)?;
                let spec = spec.with_region(&region);
                let built = match anchor {
                    Anchor::Cells(_) => spec.build(),
                    anchored => spec.build_anchored(anchored),
                };
                let a = built.map_err(|e| {
                    anyhow::anyhow!(
                        "--annotate {shown:?} (region {:?} of {}): {e}",
                        escape_for_terminal(name, 60),
                        path.display()
                    )
                })?;
                if !matches!(a.target, Anchor::Cells(_)) {
                    // Found afresh on this screen: nothing found is an error, not an empty box.
                    if let Err(why) = a.resolve(screen) {
                        bail!(
                            "--annotate {shown:?}: region \"{}\" ({}) finds nothing on this \
                             screen: {}",
                            escape_for_terminal(name, 60),
                            a.target.describe(),
                            why.message()
                        );
                    }
                }
                a
            }
        };
        if a.regions(screen).is_empty() {
            eprintln!("warning: --annotate {shown:?} boxes nothing on this screen");
        }
        out.push(a);
    }
    Ok(out)
}

/// The region `name` of the cast's TOML at `path` (over the project's `[regions]`) as
/// annotation keys (its label defaults to its name) and the cells it finds; a clear error
/// when there is no such region.
fn find_region(
    path: &Path,
    scenario: Option<&CastFile>,
    project: &Regions,
    name: &str,
    cast: &Path,
) -> anyhow::Result<(AnnotationSpec, Anchor)> {
    let shown = escape_for_terminal(name, 60);
    let (regions, anchors) = match scenario {
        Some(s) => (&s.regions, &s.anchors),
        None if !project.is_empty() => (&project.annotations, &project.anchors),
        None => bail!(
            "--annotate region={shown}: there is no scenario file {} beside {} to take the \
             region from; add one with a [regions] table, like\n  [regions]\n  \
             {shown} = {{ rows = \"1\", label = \"title\" }}",
            path.display(),
            cast.display()
        ),
    };
    let place = match scenario {
        Some(_) => path.display().to_string(),
        None => tuicast::config::CONFIG_FILE.to_string(),
    };
    match (regions.get(name), anchors.get(name)) {
        (Some(region), Some(anchor)) => Ok((region.clone(), anchor.clone())),
        _ => {
            let names: Vec<String> = anchors.keys().map(|n| escape_for_terminal(n, 60)).collect();
            if names.is_empty() {
                bail!("{place}: no region named \"{shown}\": the file has no [regions] table");
            }
            bail!(
                "{place}: no region named \"{shown}\"; the regions are: {}",
                names.join(", ")
            );
        }
    }
}

/// `--format gif`, `apng` and `animated-svg`: the whole cast (or the part between `--from`
/// and `--to`), into the output file. The stages compose here: cast → idle limit and speed →
/// timed frames → the part asked for → encoder.
fn animation(args: &Args) -> anyhow::Result<ExitCode> {
    let cast = &args.casts[0];
    let p = &args.picture.gif;
    let speed = p.speed.unwrap_or(1.0);
    if !(speed.is_finite() && speed > 0.0) {
        bail!("--speed must be a number above 0 (got {speed})");
    }
    let fps = p.fps.unwrap_or(30);
    if !(1..=png::MAX_FPS).contains(&fps) {
        bail!(
            "the frame rate must be 1 to {} (got {fps}): browsers slow down faster GIFs",
            png::MAX_FPS
        );
    }
    if let Some(l) = p.idle_time_limit {
        if !(l.is_finite() && l > 0.0) {
            bail!("the idle time limit must be above 0 seconds (got {l})");
        }
    }
    let defaults = GifOptions::default();
    let gif_options = defaults
        .clone()
        .last_frame(p.last_frame.unwrap_or(defaults.last_frame))
        .repeat(!p.no_loop);
    let header = tuicast::cast::open(cast)?.header().clone();
    let options = picture_options(args, &header)?;
    let mut renderer = Renderer::new(options)?;
    // The image's size comes first in a GIF: one pass over the cast finds it.
    let size = replay::largest_size(tuicast::cast::open(cast)?)?;
    // An animation too large to make is refused before the replay.
    png::animation_layout(&renderer, size)
        .map_err(|e| anyhow::anyhow!("{}: {e}", cast.display()))?;
    let engine = engine_for(args, cast)?;
    let events = || -> anyhow::Result<Box<dyn Iterator<Item = _>>> {
        let reader = tuicast::cast::open(cast)?;
        let limit = p.idle_time_limit.or(reader.header().idle_time_limit);
        let events: Box<dyn Iterator<Item = _>> = match limit {
            Some(l) if l.is_finite() && l > 0.0 => Box::new(transform::idle_limit(reader, l)),
            _ => Box::new(reader),
        };
        Ok(Box::new(transform::speed(events, speed)))
    };
    let range = match (&p.from, &p.to) {
        (None, None) => None,
        (from, to) => Some(time_range(cast, events()?, from.as_deref(), to.as_deref())?),
    };
    let mut decorations = Decorations::default();
    decorations.chrome = args.picture.png.chrome;
    decorations.title = args
        .picture
        .png
        .title
        .clone()
        .or_else(|| header.title.clone())
        .or_else(|| cast.file_stem().map(|s| s.to_string_lossy().into_owned()));
    // The annotations of an animated SVG, at their checkpoints' times in the animation.
    let marks = match args.format {
        Format::AnimatedSvg if !args.picture.png.annotate.is_empty() => {
            annotation_marks(&args.picture.png.annotate, cast, events()?, range)?
        }
        _ => Vec::new(),
    };
    let mut fill = |w: &mut dyn Write| -> anyhow::Result<()> {
        let frames = replay::frames(&header, events()?, engine, fps);
        let frames: Box<dyn Iterator<Item = _>> = match range {
            Some((from, to)) => Box::new(replay::between(frames, from, to)),
            None => Box::new(frames),
        };
        match args.format {
            Format::AnimatedSvg => {
                let mut svg = SvgAnimation::new(&mut renderer, size, &gif_options, &decorations)
                    .map_err(png_error)?;
                let mut marks = marks.iter().peekable();
                let mut shown: Option<Screen> = None;
                for frame in frames {
                    let (time, screen) = frame?;
                    // A checkpoint before this frame: the screen shown then, annotated.
                    if let Some(before) = &shown {
                        while let Some((at, specs)) = marks.next_if(|(at, _)| *at < time) {
                            let boxes = annotations(specs, cast, before)?;
                            svg.add_annotated_frame(*at, before, &boxes)
                                .map_err(png_error)?;
                        }
                    }
                    svg.add_frame(time, &screen).map_err(png_error)?;
                    shown = Some(screen);
                }
                if let Some(last) = &shown {
                    for (at, specs) in marks {
                        let boxes = annotations(specs, cast, last)?;
                        svg.add_annotated_frame(*at, last, &boxes)
                            .map_err(png_error)?;
                    }
                }
                let (_, text) = svg.finish().map_err(png_error)?;
                w.write_all(text.as_bytes())?;
            }
            Format::Apng => {
                let mut apng =
                    ApngEncoder::new(&mut renderer, size, &gif_options, w).map_err(png_error)?;
                for frame in frames {
                    let (time, screen) = frame?;
                    apng.add_frame(time, &screen).map_err(png_error)?;
                }
                apng.finish().map_err(png_error)?;
            }
            _ => {
                let mut encoder =
                    GifEncoder::new(&mut renderer, size, &gif_options, w).map_err(png_error)?;
                for frame in frames {
                    let (time, screen) = frame?;
                    encoder.add_frame(time, &screen).map_err(png_error)?;
                }
                encoder.finish().map_err(png_error)?;
            }
        }
        Ok(())
    };
    let out = args.output.as_ref().map_or(Path::new("-"), |o| o.as_path());
    let written = if out.as_os_str() == "-" {
        fill(&mut std::io::stdout().lock())
    } else {
        tuicast::util::write_output_with(out, fill)
    };
    // Errors of the output file (and of the encoder writing to it) are I/O errors; a cast
    // that cannot be read is a `CastError` with its place.
    written.map_err(|e| match e.downcast::<std::io::Error>() {
        Ok(e) => anyhow::anyhow!("cannot write {}: {e}", out.display()),
        Err(e) => e,
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The time of the checkpoint `name` among `times`, or the error (naming `flag`) that lists
/// the checkpoints there are.
fn checkpoint_time(
    cast: &Path,
    times: &[(String, f64)],
    flag: &str,
    name: &str,
) -> anyhow::Result<f64> {
    if let Some((_, t)) = times.iter().find(|(n, _)| n == name) {
        return Ok(*t);
    }
    let mut list: Vec<String> = times
        .iter()
        .take(MAX_NAMES_SHOWN)
        .map(|(n, _)| escape_for_terminal(n, 80))
        .collect();
    if times.len() > MAX_NAMES_SHOWN {
        list.push(format!("… and {} more", times.len() - MAX_NAMES_SHOWN));
    }
    bail!(
        "{}: {flag}{}{}: no such checkpoint; the checkpoints are: {}",
        cast.display(),
        if flag.ends_with('=') { "" } else { " " },
        escape_for_terminal(name, 80),
        list.join(", ")
    )
}

/// The `--annotate` specs of an animated SVG grouped by the time of their checkpoint in the
/// animation (`at=NAME,` before a spec, `end` without; counted from `--from` when `range`
/// cuts the cast), in time order.
fn annotation_marks(
    specs: &[String],
    cast: &Path,
    events: impl Iterator<Item = Result<tuicast::cast::Event, tuicast::cast::CastError>>,
    range: Option<(f64, f64)>,
) -> anyhow::Result<Vec<(f64, Vec<String>)>> {
    let times = replay::checkpoint_times(events)?;
    let mut marks: Vec<(f64, Vec<String>)> = Vec::new();
    for text in specs {
        let (name, spec) = match text.strip_prefix("at=") {
            Some(rest) => rest.split_once(',').ok_or_else(|| {
                anyhow::anyhow!(
                    "--annotate {:?}: at=CHECKPOINT comes before the annotation, with a comma \
                     (at=saved,regex=OK)",
                    escape_for_terminal(text, 120)
                )
            })?,
            None => (END, text.as_str()),
        };
        let mut at = checkpoint_time(cast, &times, "--annotate at=", name)?;
        if let Some((from, to)) = range {
            if at < from || at > to {
                bail!(
                    "{}: --annotate at={}: the checkpoint (at {at:.3}s) is outside the part \
                     animated (--from, --to: {from:.3}s to {to:.3}s)",
                    cast.display(),
                    escape_for_terminal(name, 80)
                );
            }
            at -= from;
        }
        match marks.iter_mut().find(|(t, _)| *t == at) {
            Some((_, list)) => list.push(spec.to_string()),
            None => marks.push((at, vec![spec.to_string()])),
        }
    }
    marks.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(marks)
}

/// The times of the checkpoints `from` (default: the start) and `to` (default: the end)
/// among `events`, or the error that names the checkpoints there are.
fn time_range(
    cast: &Path,
    events: impl Iterator<Item = Result<tuicast::cast::Event, tuicast::cast::CastError>>,
    from: Option<&str>,
    to: Option<&str>,
) -> anyhow::Result<(f64, f64)> {
    let times = replay::checkpoint_times(events)?;
    let find = |flag: &str, name: &str| checkpoint_time(cast, &times, flag, name);
    let start = from.map(|n| find("--from", n)).transpose()?.unwrap_or(0.0);
    let end = to
        .map(|n| find("--to", n))
        .transpose()?
        .unwrap_or(f64::INFINITY);
    if end < start {
        bail!(
            "{}: --to {} comes before --from {} (at {end:.3}s and {start:.3}s)",
            cast.display(),
            escape_for_terminal(to.unwrap_or(END), 80),
            escape_for_terminal(from.unwrap_or(""), 80)
        );
    }
    Ok((start, end))
}

/// A picture error, its writer's I/O errors as plain I/O errors (see [`animation`]).
fn png_error(e: png::PngError) -> anyhow::Error {
    match e {
        png::PngError::Io(e) => e.into(),
        e => e.into(),
    }
}
