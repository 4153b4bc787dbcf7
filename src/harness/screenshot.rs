//! Docs screenshots as tests: each `[[screenshot]]` of `tuicast.toml` ([`Screenshot`]) drawn
//! from its cast ([`render`]), compared with the committed image ([`check`]: a PNG by decoded
//! pixels, SVG and GIF by bytes) and written by `tuicast screenshots` ([`write()`]).
//!
//! tuicast writes nothing outside the snapshots folder on its own: a changed screenshot's
//! new image waits as `<snapshots>/.screenshots/<output>.new` ([`pending_path`]), which
//! `tuicast review` and `tuicast accept` move to the declared output. Only an explicit
//! `--update` (`TUICAST_UPDATE=always`) or `tuicast screenshots` writes the output itself.
//!
//! How the parts fit: [`render`] draws from the cast, `freshness` compares (a PNG by pixels,
//! SVG and GIF by bytes), [`check`] gives a `CheckResult` with its `.new` under
//! `snapshots/.screenshots/`, and [`write()`] refuses links and outputs outside the project. A
//! cast not recorded yet is recorded from its scenario into a run folder of `live.rs`, removed
//! after. Each screenshot is one trial in `trials.rs`, a check of `tuicast test`, and an
//! output of `tuicast screenshots` (`cli/screenshots.rs`); `report.rs` adds each to the HTML
//! report (`add_screenshot_to_report`, `report::ShotData`), and `report::accept` takes their
//! images from it (`accept --from`).

use std::path::{Path, PathBuf};

use super::LiveMode;
use super::{CheckResult, SnapshotResult};
use crate::assert::pending::check_destination;
use crate::assert::{Outcome, UpdateAction};
use crate::config::{Config, Screenshot, ScreenshotAt, ScreenshotFormat};
use crate::escape::escape_for_terminal;

pub(crate) use crate::assert::pending::SCREENSHOTS_DIR;

message_error!(
    /// Why a screenshot could not be drawn or written: its output's name, its table's line in
    /// `tuicast.toml`, and what went wrong.
    ScreenshotError, ScreenshotErrorKind {
        /// No `[[screenshot]]` has an output matching a name asked for.
        NoSuchScreenshot,
        /// The cast has no checkpoint of the name the screenshot draws.
        NoSuchCheckpoint,
        /// The cast does not exist and cannot be recorded now (no scenario, `--replay`, a GIF).
        Unrecorded,
        /// Recording the cast from its scenario failed.
        Recording,
        /// The cast or its TOML does not read or replay.
        Cast,
        /// An `annotate` spec is wrong or its region finds nothing.
        Annotation,
        /// The picture could not be drawn (`[png]`, the theme, the renderer, no png feature).
        Draw,
        /// The committed image could not be read (or is a symbolic link).
        Read,
        /// The output could not be written, or is outside the project or a symbolic link.
        Write,
        /// An environment variable (`TUICAST_LIVE`) is not one of its values.
        Environment,
    }
);

/// The trial of a screenshot: `screenshot:<output>`.
pub fn test_name(shot: &Screenshot) -> String {
    format!("screenshot:{}", shot.name)
}

/// The screenshot as `tuicast test --list` lists it.
pub fn listed(shot: &Screenshot) -> super::message::ListedTest {
    super::message::ListedTest {
        test: test_name(shot),
        cast: shot.cast.clone(),
        checkpoint: checkpoint_name(shot),
        expect: None,
        line: None,
        live: false,
        error: None,
    }
}

/// The checkpoint a screenshot draws, as a test result names it.
fn checkpoint_name(shot: &Screenshot) -> String {
    match &shot.at {
        ScreenshotAt::End => crate::replay::END.to_string(),
        ScreenshotAt::Checkpoint(c) => c.clone(),
        ScreenshotAt::Time(t) => format!("t={t}"),
    }
}

/// Where the new image of a changed screenshot waits for review:
/// `<snapshots>/.screenshots/<output>.new`.
pub fn pending_path(config: &Config, shot: &Screenshot) -> PathBuf {
    config
        .snapshots
        .join(SCREENSHOTS_DIR)
        .join(format!("{}.new", shot.name))
}

/// Whether a committed image is what its cast draws now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Freshness {
    /// The same (a PNG: the same pixels).
    Same,
    /// There is no image yet.
    Missing,
    /// It differs; the text says how.
    Changed(String),
}

/// The screenshots `names` select: all for none, else those whose output contains a name
/// (`tuicast screenshots docs/`); a name that selects none is an error.
pub fn select<'a>(
    config: &'a Config,
    names: &[String],
) -> Result<Vec<&'a Screenshot>, ScreenshotError> {
    for n in names {
        let wanted = n.strip_prefix("screenshot:").unwrap_or(n);
        if !config.screenshots.iter().any(|s| s.name.contains(wanted)) {
            return Err(ScreenshotError::new(
                ScreenshotErrorKind::NoSuchScreenshot,
                format!(
                    "no [[screenshot]] of {} has an output matching {:?}{}",
                    escape_for_terminal(
                        &config
                            .root
                            .join(crate::config::CONFIG_FILE)
                            .display()
                            .to_string(),
                        300
                    ),
                    escape_for_terminal(n, 200),
                    names_listed(config)
                ),
            ));
        }
    }
    Ok(config
        .screenshots
        .iter()
        .filter(|s| {
            names.is_empty()
                || names
                    .iter()
                    .any(|n| s.name.contains(n.strip_prefix("screenshot:").unwrap_or(n)))
        })
        .collect())
}

fn names_listed(config: &Config) -> String {
    if config.screenshots.is_empty() {
        return " (it has none)".to_string();
    }
    let names: Vec<String> = config
        .screenshots
        .iter()
        .map(|s| escape_for_terminal(&s.name, 200))
        .collect();
    format!("; the screenshots are: {}", names.join(", "))
}

/// Compares `actual` (what [`render`] drew) with the committed image.
pub fn freshness(shot: &Screenshot, actual: &[u8]) -> Result<Freshness, ScreenshotError> {
    let committed = crate::assert::read_golden(&shot.output).map_err(|e| {
        place(
            shot,
            ScreenshotError::new(ScreenshotErrorKind::Read, e.to_string()),
        )
    })?;
    let Some(committed) = committed else {
        return Ok(Freshness::Missing);
    };
    if committed == actual {
        return Ok(Freshness::Same);
    }
    if shot.format != ScreenshotFormat::Png {
        return Ok(Freshness::Changed(format!(
            "its bytes differ ({} now, {} committed)",
            crate::util::human_bytes(actual.len() as u64),
            crate::util::human_bytes(committed.len() as u64)
        )));
    }
    png_freshness(shot, &committed, actual)
}

#[cfg(feature = "png")]
fn png_freshness(
    shot: &Screenshot,
    committed: &[u8],
    actual: &[u8],
) -> Result<Freshness, ScreenshotError> {
    use crate::render::png::{decode_png, png_dimensions};
    let now = decode_png(actual).map_err(|e| {
        place(
            shot,
            ScreenshotError::new(ScreenshotErrorKind::Draw, e.to_string()),
        )
    })?;
    match png_dimensions(committed) {
        Some(size) if size != now.dimensions() => {
            return Ok(Freshness::Changed(format!(
                "its size differs: {}x{} committed, {}x{} now",
                size.0,
                size.1,
                now.width(),
                now.height()
            )))
        }
        _ => {}
    }
    let Ok(old) = decode_png(committed) else {
        return Ok(Freshness::Changed(
            "the committed file is not a readable PNG".to_string(),
        ));
    };
    let differing = old
        .pixels()
        .zip(now.pixels())
        .filter(|(a, b)| a != b)
        .count();
    Ok(if differing == 0 {
        Freshness::Same
    } else {
        Freshness::Changed(format!("{differing} pixel(s) differ"))
    })
}

#[cfg(not(feature = "png"))]
fn png_freshness(shot: &Screenshot, _: &[u8], _: &[u8]) -> Result<Freshness, ScreenshotError> {
    Err(place(
        shot,
        ScreenshotError::new(
            ScreenshotErrorKind::Draw,
            format!(
                "tuicast was built without the png feature, which a [[screenshot]] needs: {}",
                crate::assert::PNG_FEATURE_FIX
            ),
        ),
    ))
}

/// Writes `bytes` as the screenshot's output, atomically, making its folder; refused when the
/// output (or its folder, after symbolic links) is outside the project or is a symbolic link.
pub fn write(config: &Config, shot: &Screenshot, bytes: &[u8]) -> Result<(), ScreenshotError> {
    let unwritten = |e: &dyn std::fmt::Display| {
        place(
            shot,
            ScreenshotError::new(ScreenshotErrorKind::Write, e.to_string()),
        )
    };
    check_destination(&config.root, &shot.output).map_err(|e| unwritten(&e))?;
    if let Some(dir) = shot.output.parent() {
        std::fs::create_dir_all(dir).map_err(|e| unwritten(&e))?;
    }
    // Made now: checked again, a folder made above cannot lead out.
    check_destination(&config.root, &shot.output).map_err(|e| unwritten(&e))?;
    crate::util::write_atomic(&shot.output, bytes).map_err(|e| unwritten(&e))
}

/// Checks one screenshot as a test: draws it, compares it with the committed image and writes
/// what `action` allows (the pending `.new` under the snapshots folder, or with
/// [`UpdateAction::Overwrite`] the output itself). A stale `.new` beside a fresh image goes.
/// `live` says whether a cast not recorded yet may be recorded from its scenario (see
/// [`render_live`]).
pub fn check(
    config: &Config,
    shot: &Screenshot,
    action: UpdateAction,
    live: LiveMode,
) -> CheckResult {
    check_drawn(config, shot, action, live).0
}

/// [`check`], where `live` says whether a cast not recorded yet may be recorded from its
/// scenario ([`render_live`]), also giving the image the cast draws now when it is not the
/// committed one (for the report, which carries it for `tuicast accept --from`).
pub fn check_drawn(
    config: &Config,
    shot: &Screenshot,
    action: UpdateAction,
    live: LiveMode,
) -> (CheckResult, Option<Vec<u8>>) {
    let mut result = CheckResult {
        test: test_name(shot),
        cast: shot.cast.clone(),
        checkpoint: checkpoint_name(shot),
        line: 0,
        time: 0.0,
        snapshots: Vec::new(),
        error: None,
        bad_input: false,
        failure: None,
    };
    let mut drawn = None;
    match check_outcome(config, shot, action, live, &mut drawn) {
        Ok(outcome) => result.snapshots.push(SnapshotResult {
            path: shot.output.clone(),
            name: test_name(shot),
            format: None,
            outcome,
            actual: String::new(),
        }),
        Err(why) => result.error = Some(why.into()),
    }
    (result, drawn)
}

/// The outcome of a check that passed, or the failure message.
fn check_outcome(
    config: &Config,
    shot: &Screenshot,
    action: UpdateAction,
    live: LiveMode,
    drawn: &mut Option<Vec<u8>>,
) -> Result<Outcome, super::Failure> {
    let name = escape_for_terminal(&shot.name, 300);
    // `tuicast screenshots` records live what `TUICAST_LIVE` says: in a `--live` run the
    // image came from a new recording, and so must the fix's.
    let fix = format!(
        "{}tuicast screenshots {}",
        if live == LiveMode::Always {
            "TUICAST_LIVE=1 "
        } else {
            ""
        },
        crate::escape::shell_quote(&name)
    );
    let actual = render_live(config, shot, live).map_err(|e| fail(format!("{e}")))?;
    let freshness = freshness(shot, &actual).map_err(|e| fail(format!("{e}")))?;
    let pending = pending_path(config, shot);
    if freshness == Freshness::Same {
        if action != UpdateAction::WriteNothing {
            remove_pending(&pending).map_err(|e| fail(format!("{}: {e}", pending.display())))?;
        }
        return Ok(Outcome::Pass);
    }
    let actual = &*drawn.insert(actual);
    let written = match action {
        UpdateAction::Overwrite => {
            write(config, shot, actual).map_err(|e| fail(format!("{e}")))?;
            remove_pending(&pending).map_err(|e| fail(format!("{}: {e}", pending.display())))?;
            return Ok(Outcome::Updated);
        }
        UpdateAction::WriteNew => {
            // Checked before its folders are made (a linked `.screenshots` would have them
            // made outside the project) and again after, as `write` does.
            check_destination(&config.snapshots, &pending).map_err(|e| fail(format!("{e}")))?;
            if let Some(dir) = pending.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| fail(format!("{}: {e}", dir.display())))?;
            }
            check_destination(&config.snapshots, &pending).map_err(|e| fail(format!("{e}")))?;
            crate::util::write_atomic(&pending, actual)
                .map_err(|e| fail(format!("cannot write {}: {e}", pending.display())))?;
            true
        }
        UpdateAction::WriteNothing => false,
    };
    let cast = escape_for_terminal(
        &crate::assert::pending::relative_name(&config.root, &shot.cast),
        300,
    );
    let what = match &freshness {
        Freshness::Missing => format!(
            "screenshot {name} is missing: it is drawn from {cast} ({} line {})",
            crate::config::CONFIG_FILE,
            shot.line
        ),
        Freshness::Changed(how) => format!(
            "screenshot {name} is stale: the committed {} is not what {cast} draws now: {how}",
            shot.format.name().to_uppercase()
        ),
        Freshness::Same => String::new(),
    };
    let mut message = what;
    if written {
        let shown = escape_for_terminal(
            &crate::assert::pending::relative_name(&config.root, &pending),
            300,
        );
        message.push_str(&format!(
            "\nthe new image: {shown}\nreview it with: tuicast review, or accept it with: \
             tuicast accept {}",
            crate::escape::shell_quote(&test_name(shot))
        ));
    }
    message.push_str(&format!("\nregenerate it with: {fix}"));
    Err(super::Failure(message, None))
}

/// `text` as a trial's failure.
fn fail(text: String) -> super::Failure {
    super::Failure(text, None)
}

fn remove_pending(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The error `e` of screenshot `shot`, placed (its kind kept).
fn place(shot: &Screenshot, e: ScreenshotError) -> ScreenshotError {
    ScreenshotError::new(
        e.kind,
        format!(
            "screenshot {} ({} line {}): {e}",
            escape_for_terminal(&shot.name, 300),
            crate::config::CONFIG_FILE,
            shot.line
        ),
    )
}

/// Draws the screenshot from its cast: the screen it names (or, for a GIF, the whole cast),
/// with the cast's theme, then `[png]`, then the table's keys. A cast not recorded yet whose
/// scenario is beside it is recorded first, unless `TUICAST_LIVE=0` ([`render_live`] with
/// [`LiveMode::from_env`]).
pub fn render(config: &Config, shot: &Screenshot) -> Result<Vec<u8>, ScreenshotError> {
    let live = LiveMode::from_env()
        .map_err(|e| ScreenshotError::new(ScreenshotErrorKind::Environment, e.to_string()))?;
    render_live(config, shot, live)
}

/// [`render`], where `live` says whether a cast that does not exist yet may be recorded from
/// its scenario (not with [`LiveMode::Never`], `--replay`). Such a recording is made in the
/// run's folder and removed once drawn: the cast itself is written only by `tuicast record`.
/// A GIF is drawn from a recorded cast only: its frames keep the recording's timing, which
/// no two recordings share.
pub fn render_live(
    config: &Config,
    shot: &Screenshot,
    live: LiveMode,
) -> Result<Vec<u8>, ScreenshotError> {
    let (cast, _recorded) = source(config, shot, live).map_err(|e| place(shot, e))?;
    draw(config, shot, &cast).map_err(|e| place(shot, e))
}

/// The cast a screenshot is drawn from in this run: a recording of its scenario made for it
/// when the cast does not exist ([`record_missing`]); when this run records the cast live (its
/// scenario runs the project's code, or `--live`), this run's recording — the one its
/// checkpoints were checked on in this process, else one made now — so a UI change makes the
/// screenshot stale in the same run (issue 40 point 5), not only after the cast is accepted;
/// else the committed cast. An animation keeps the recording's timing, which no two
/// recordings share: it is always drawn from the committed cast.
fn source(
    config: &Config,
    shot: &Screenshot,
    live: LiveMode,
) -> Result<(PathBuf, Option<Recorded>), ScreenshotError> {
    if let Some(recorded) = record_missing(config, shot, live)? {
        return Ok((recorded.0.clone(), Some(recorded)));
    }
    let committed = (shot.cast.clone(), None);
    if shot.format.animated() || live == LiveMode::Never {
        return Ok(committed);
    }
    let file = crate::config::CastFile::beside(&shot.cast, &config.regions)
        .map_err(|e| ScreenshotError::new(ScreenshotErrorKind::Cast, e.to_string()))?;
    let Some(scenario) = file.and_then(|f| f.recording) else {
        return Ok(committed);
    };
    if !live.records_scenario(&scenario) {
        return Ok(committed);
    }
    if let Some(outcome) = super::live::live_outcome(&shot.cast) {
        if outcome.failed_line.is_none() && outcome.recording.is_file() {
            return Ok((outcome.recording, None));
        }
    }
    let recorded = record_into_run_dir(shot, &scenario)?;
    Ok((recorded.0.clone(), Some(recorded)))
}

#[cfg(feature = "png")]
fn draw(config: &Config, shot: &Screenshot, cast: &Path) -> Result<Vec<u8>, ScreenshotError> {
    draw::render(config, shot, cast)
}

/// Without the `png` feature no picture is drawn.
#[cfg(not(feature = "png"))]
fn draw(_: &Config, _: &Screenshot, _: &Path) -> Result<Vec<u8>, ScreenshotError> {
    Err(ScreenshotError::new(
        ScreenshotErrorKind::Draw,
        format!(
            "tuicast was built without the png feature, which a [[screenshot]] needs: {}",
            crate::assert::PNG_FEATURE_FIX
        ),
    ))
}

/// A recording made for one screenshot, removed when dropped.
struct Recorded(PathBuf);

impl Drop for Recorded {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        let _ = std::fs::remove_file(crate::record::run::partial_path(&self.0));
    }
}

/// The screenshot's cast recorded now from its scenario, when the cast does not exist and a
/// scenario is beside it; `None` when the cast exists. Any other case is the error that says
/// what to do.
fn record_missing(
    config: &Config,
    shot: &Screenshot,
    live: LiveMode,
) -> Result<Option<Recorded>, ScreenshotError> {
    let cast = &shot.cast;
    if cast.is_file() {
        return Ok(None);
    }
    let shown = crate::assert::shown_path(cast);
    let scenario_path = cast.with_extension("toml");
    let file = crate::config::CastFile::beside(cast, &config.regions)
        .map_err(|e| ScreenshotError::new(ScreenshotErrorKind::Cast, e.to_string()))?;
    let Some(scenario) = file.and_then(|f| f.recording) else {
        return Err(ScreenshotError::new(
            ScreenshotErrorKind::Unrecorded,
            format!(
                "the cast {shown} does not exist, and no scenario beside it records it{}",
                if scenario_path.is_file() {
                    " (its TOML has no [recording])"
                } else {
                    ""
                }
            ),
        ));
    };
    let record_it = format!(
        "record it with: tuicast record {}",
        crate::escape::shell_quote(&crate::assert::shown_path(&scenario_path))
    );
    if live == LiveMode::Never {
        return Err(ScreenshotError::new(
            ScreenshotErrorKind::Unrecorded,
            format!(
                "the cast {shown} does not exist, and --replay (TUICAST_LIVE=0) records nothing: {record_it}"
            ),
        ));
    }
    if shot.format.animated() {
        return Err(ScreenshotError::new(
            ScreenshotErrorKind::Unrecorded,
            format!(
                "the cast {shown} does not exist: an animation ({}) is drawn from a recorded \
                 cast (its frames keep the recording's timing): {record_it}",
                shot.format.name()
            ),
        ));
    }
    record_into_run_dir(shot, &scenario).map(Some)
}

/// `scenario` (of `shot`'s cast) recorded now into the run's folder, removed when dropped.
fn record_into_run_dir(
    shot: &Screenshot,
    scenario: &crate::record::Scenario,
) -> Result<Recorded, ScreenshotError> {
    let shown = crate::assert::shown_path(&shot.cast);
    let unrecorded = |e: String| ScreenshotError::new(ScreenshotErrorKind::Recording, e);
    let dir = super::live::make_run_dir()
        .map_err(|e| unrecorded(format!("cannot make the folder for live recordings: {e}")))?;
    let recorded = Recorded(dir.join(format!(
        "screenshot-{}.cast",
        super::live::file_safe(&shot.name)
    )));
    crate::record::record_scenario(scenario, &recorded.0, &mut |_| {})
        .map_err(|e| unrecorded(format!("recording {shown} from its scenario: {e}")))?;
    Ok(recorded)
}

#[cfg(feature = "png")]
mod draw {
    use super::*;
    use crate::config::CastFile;
    use crate::inspect::Anchor;
    use crate::render::png::{
        self, Annotation, AnnotationSpec, ApngEncoder, Decorations, GifEncoder, GifOptions,
        PngConfig, PngOptions, Renderer, SvgAnimation,
    };
    use crate::replay::{self, Found, END};
    use crate::term::Screen;

    /// Any error of drawing, as its message.
    type Drawn = Result<Vec<u8>, ScreenshotError>;

    /// `e`, of reading or replaying the cast, as a screenshot error.
    fn err(e: impl std::fmt::Display) -> ScreenshotError {
        ScreenshotError::new(ScreenshotErrorKind::Cast, e.to_string())
    }

    /// `e`, of drawing the picture, as a screenshot error.
    fn undrawn(e: impl std::fmt::Display) -> ScreenshotError {
        ScreenshotError::new(ScreenshotErrorKind::Draw, e.to_string())
    }

    /// `e`, of an `annotate` spec, as a screenshot error.
    fn unannotated(e: impl std::fmt::Display) -> ScreenshotError {
        ScreenshotError::new(ScreenshotErrorKind::Annotation, e.to_string())
    }

    /// Draws `shot` from `cast` (its cast, or a recording of its scenario made now).
    pub(super) fn render(config: &Config, shot: &Screenshot, cast: &Path) -> Drawn {
        let shown = escape_for_terminal(&shot.cast.display().to_string(), 300);
        let file = CastFile::beside(&shot.cast, &config.regions).map_err(err)?;
        let mut engine = config.engine;
        if let Some(f) = &file {
            engine.options = f.terminal.apply(engine.options);
        }
        let open = || crate::cast::open(cast).map_err(err);
        let header = open()?.header().clone();
        let mut options = PngOptions::default();
        if let Some(t) = &header.term.theme {
            options.theme = t.clone();
        }
        config
            .png
            .apply(&mut options, &config.root)
            .map_err(|e| undrawn(format!("[png]: {e}")))?;
        let flags = PngConfig {
            theme: shot.theme.clone(),
            ..PngConfig::default()
        };
        flags
            .apply_flags(&mut options, &config.root)
            .map_err(|e| undrawn(format!("theme: {e}")))?;
        let mut renderer = Renderer::new(options).map_err(undrawn)?;
        if shot.format.animated() {
            return animation(&mut renderer, shot, &header, cast, engine);
        }
        renderer
            .layout(header.term.size.at_least_min())
            .map_err(undrawn)?;
        let checkpoint = match &shot.at {
            ScreenshotAt::Time(t) => replay::at_time(open()?, engine, *t).map_err(err)?,
            at => {
                let name = match at {
                    ScreenshotAt::Checkpoint(c) => c.as_str(),
                    _ => END,
                };
                match replay::find(open()?, engine, name).map_err(err)? {
                    Found::Checkpoint(c) => *c,
                    Found::Missing(names) => {
                        let mut list: Vec<String> = names
                            .iter()
                            .take(20)
                            .map(|n| escape_for_terminal(n, 80))
                            .collect();
                        if names.len() > 20 {
                            list.push(format!("… and {} more", names.len() - 20));
                        }
                        return Err(ScreenshotError::new(
                            ScreenshotErrorKind::NoSuchCheckpoint,
                            format!(
                                "{shown} has no checkpoint named \"{}\"; its checkpoints are: {}",
                                escape_for_terminal(name, 80),
                                list.join(", ")
                            ),
                        ));
                    }
                }
            }
        };
        let screen = &checkpoint.screen;
        let annotations = annotations(config, shot, file.as_ref(), screen)?;
        let title = shot
            .title
            .clone()
            .or_else(|| header.title.clone())
            .or_else(|| screen.title.clone())
            .or_else(|| {
                shot.cast
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
            });
        let decorations = Decorations {
            annotations,
            chrome: shot.chrome,
            title,
        };
        match shot.format {
            ScreenshotFormat::Svg => renderer
                .render_svg_decorated(screen, &decorations)
                .map(String::into_bytes)
                .map_err(undrawn),
            _ => {
                let image = renderer
                    .render_decorated(screen, &decorations)
                    .map_err(undrawn)?;
                png::encode_png(&image).map_err(undrawn)
            }
        }
    }

    /// The whole cast as an animation (GIF, APNG, animated SVG), as `tuicast replay
    /// --format gif|apng|animated-svg` draws it by default.
    fn animation(
        renderer: &mut Renderer,
        shot: &Screenshot,
        header: &crate::cast::Header,
        cast: &Path,
        engine: crate::term::EngineSpec,
    ) -> Drawn {
        let size = replay::largest_size(crate::cast::open(cast).map_err(err)?).map_err(err)?;
        png::animation_layout(renderer, size).map_err(undrawn)?;
        let reader = crate::cast::open(cast).map_err(err)?;
        let events: Box<dyn Iterator<Item = _>> = match header.idle_time_limit {
            Some(l) if l.is_finite() && l > 0.0 => {
                Box::new(crate::cast::transform::idle_limit(reader, l))
            }
            _ => Box::new(reader),
        };
        let events = crate::cast::transform::speed(events, shot.speed);
        let frames = replay::frames(header, events, engine, 30);
        let options = GifOptions::default();
        let mut out = Vec::new();
        match shot.format {
            ScreenshotFormat::AnimatedSvg => {
                let title = shot
                    .title
                    .clone()
                    .or_else(|| header.title.clone())
                    .or_else(|| {
                        shot.cast
                            .file_stem()
                            .map(|s| s.to_string_lossy().into_owned())
                    });
                let decorations = Decorations {
                    annotations: Vec::new(),
                    chrome: shot.chrome,
                    title,
                };
                let mut svg =
                    SvgAnimation::new(renderer, size, &options, &decorations).map_err(undrawn)?;
                for frame in frames {
                    let (time, screen) = frame.map_err(err)?;
                    svg.add_frame(time, &screen).map_err(undrawn)?;
                }
                out = svg.finish().map_err(undrawn)?.1.into_bytes();
            }
            ScreenshotFormat::Apng => {
                let mut apng =
                    ApngEncoder::new(renderer, size, &options, &mut out).map_err(undrawn)?;
                for frame in frames {
                    let (time, screen) = frame.map_err(err)?;
                    apng.add_frame(time, &screen).map_err(undrawn)?;
                }
                apng.finish().map_err(undrawn)?;
            }
            _ => {
                let mut encoder =
                    GifEncoder::new(renderer, size, &options, &mut out).map_err(undrawn)?;
                for frame in frames {
                    let (time, screen) = frame.map_err(err)?;
                    encoder.add_frame(time, &screen).map_err(undrawn)?;
                }
                encoder.finish().map_err(undrawn)?;
            }
        }
        Ok(out)
    }

    /// The table's `annotate` specs built, `region=NAME` from the cast's TOML over the
    /// project's `[regions]`; a region anchored by content that finds nothing is an error.
    fn annotations(
        config: &Config,
        shot: &Screenshot,
        file: Option<&CastFile>,
        screen: &Screen,
    ) -> Result<Vec<Annotation>, ScreenshotError> {
        let mut out = Vec::new();
        for text in &shot.annotate {
            let shown = escape_for_terminal(text, 120);
            let spec: AnnotationSpec = text
                .parse()
                .map_err(|e| unannotated(format!("annotate {shown:?}: {e}")))?;
            let a = match &spec.region {
                None => spec
                    .build()
                    .map_err(|e| unannotated(format!("annotate {shown:?}: {e}")))?,
                Some(name) => {
                    let (regions, anchors) = match file {
                        Some(f) => (&f.regions, &f.anchors),
                        None => (&config.regions.annotations, &config.regions.anchors),
                    };
                    let (Some(region), Some(anchor)) = (regions.get(name), anchors.get(name))
                    else {
                        let names: Vec<String> =
                            anchors.keys().map(|n| escape_for_terminal(n, 60)).collect();
                        return Err(unannotated(format!(
                            "annotate {shown:?}: no region named \"{}\" in the cast's TOML or \
                             tuicast.toml (the regions are: {})",
                            escape_for_terminal(name, 60),
                            if names.is_empty() {
                                "none".to_string()
                            } else {
                                names.join(", ")
                            }
                        )));
                    };
                    let spec = spec.with_region(region);
                    let built = match anchor {
                        Anchor::Cells(_) => spec.build(),
                        anchored => spec.build_anchored(anchored.clone()),
                    };
                    let a = built.map_err(|e| unannotated(format!("annotate {shown:?}: {e}")))?;
                    if !matches!(a.target, Anchor::Cells(_)) {
                        if let Err(why) = a.resolve(screen) {
                            return Err(unannotated(format!(
                                "annotate {shown:?}: region \"{}\" finds nothing on this \
                                 screen: {}",
                                escape_for_terminal(name, 60),
                                why.message()
                            )));
                        }
                    }
                    a
                }
            };
            out.push(a);
        }
        Ok(out)
    }
}
