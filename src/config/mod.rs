//! The configuration stage: the project's `tuicast.toml` (here), a cast's TOML
//! ([`CastFile`]: recording, `[check]`, `[regions]`, one schema), and positioned errors for
//! both. Files are parsed and checked here and leave as typed values of the stages below.
//!
//! `tuicast.toml`:
//!
//! ```toml
//! casts = "casts"            # where casts are found (recursively)
//! snapshots = "snapshots"    # where goldens are kept: inside the project, links resolved
//! formats = ["txt"]          # snapshot formats checked by default: txt, styled.txt, png
//! styles = true              # txt goldens carry the screen's colours (false: text alone)
//! engine = "avt"             # avt or vt100
//!
//! [terminal]                 # engine options (also in a cast's TOML, over these)
//! deccolm = false            # true: CSI ? 3 h/l switches to 132/80 columns, as a VT100
//!
//! [png]                      # pictures: png goldens and `tuicast replay --format png|gif`
//! theme = "asciinema"        # see crate::render::png::PngConfig for every key
//! tolerance = 0              # png goldens: per-channel difference allowed
//! max_diff_pixels = 0        # png goldens: pixels allowed to differ beyond the tolerance
//!
//! [regions]                  # named regions every cast has, as in a cast's [regions]
//! status = { rows = 24 }                   # fixed cells
//! mode = { row = { regex = "-- \\w+ --" } }  # or anchored by content
//!
//! [[screenshot]]             # docs images, checked like goldens (see [`Screenshot`])
//! cast = "casts/demo.cast"
//! output = "docs/screenshots/demo.png"
//! ```
//! Every key is optional; paths are relative to the folder of `tuicast.toml`. A cast's own
//! `[regions]` entry wins over the one of the same name here.
//!
//! [`Config::find`] and [`project_root`] name the project a path belongs to: the nearest
//! `tuicast.toml`, else the `Cargo.toml` package; [`suites_below`] finds a workspace root's member
//! suites. The `[png]` table is kept once, as written, and checked when read
//! ([`Config::png_check`] makes a run's `PngCheck` from it); `[regions]` is read by the cast
//! schema's own reader.

pub(crate) mod cast_file;
pub(crate) mod screenshot;
pub(crate) mod write;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::assert::{Format, PngCheck};
use crate::location::{line_column, write_place};
#[cfg(feature = "png")]
use crate::render::png::PngConfig;
use crate::term::{EngineKind, EngineOptions, EngineSpec};

// One path per item: the files' parts are named from here.
pub use cast_file::{
    parse_duration, parse_settle, parse_step, CastFile, Checked, DurationError, DurationErrorKind,
    Regions, DEFAULT_FAIL_FAST,
};
pub use screenshot::{Screenshot, ScreenshotAt, ScreenshotFormat};
pub use write::{scenario_toml, step_toml, used_regions_toml};

/// The project configuration, with defaults filled in and paths made absolute.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// The folder holding `tuicast.toml` (or the project root when there is none).
    pub root: PathBuf,
    /// Where casts are found.
    pub casts: PathBuf,
    /// Where goldens are kept.
    pub snapshots: PathBuf,
    /// Snapshot formats checked when a cast's scenario does not say.
    pub formats: Vec<Format>,
    /// Whether `txt` goldens carry the screen's style runs when a cast's `[check] styles`
    /// does not say (`styles`, default true).
    pub styles: bool,
    /// Where `formats = []` is, when it is: a cast that then has no region golden and no
    /// expectation of its own fails, naming this place ([`NO_FORMATS`]).
    pub no_formats_at: Option<String>,
    /// The engine to replay with (`engine`) and its options (`[terminal]`).
    pub engine: EngineSpec,
    /// The `[png]` table as written (empty when there is none): how `png` goldens are
    /// drawn and compared ([`png_check`](Self::png_check) makes the check of a run from it),
    /// and what `replay --format png|gif` applies over the cast's own theme. It was checked
    /// when the file was read.
    #[cfg(feature = "png")]
    pub png: PngConfig,
    /// The `[regions]` table, checked: named regions every cast has (a cast's own
    /// `[regions]` entry of the same name wins; see [`CastFile::load`]).
    pub regions: Regions,
    /// `live`: whether the project's scenarios run its own code, recorded live by default
    /// (a scenario's own `live =` wins; `None`: decided per scenario from its program).
    pub live: Option<bool>,
    /// The `[[screenshot]]` tables, checked (outputs inside the project, each named once).
    pub screenshots: Vec<Screenshot>,
}

/// `tuicast.toml` as written.
#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        title = "tuicast project configuration",
        description = "tuicast.toml: where casts and goldens are, formats, engine, pictures, regions for every cast (README, docs/scenarios.md, docs/png.md)"
    )
)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConfigFile {
    /// Where the casts are, relative to `tuicast.toml` (default `casts`).
    casts: Option<PathBuf>,
    /// Where the goldens are, inside the project (default `snapshots`).
    snapshots: Option<PathBuf>,
    /// The golden formats of every cast (default `["txt"]`).
    #[cfg_attr(feature = "schema", schemars(with = "Option<Vec<Format>>"))]
    formats: Option<toml::Spanned<Vec<Format>>>,
    /// Whether `txt` goldens carry the screen's colours and attributes (default true; false:
    /// the text alone, and a change of colour passes).
    styles: Option<bool>,
    /// The terminal engine: `native` (the default), `avt` or `vt100`.
    engine: Option<EngineKind>,
    /// Options of the terminal engine, for every cast.
    #[serde(default)]
    terminal: TerminalTable,
    /// Pictures: theme, font, padding, PNG golden tolerances.
    #[cfg(feature = "png")]
    png: Option<PngConfig>,
    /// Without the `png` feature the table is accepted as it is and not used.
    #[cfg(not(feature = "png"))]
    #[allow(dead_code)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<serde_json::Value>"))]
    png: Option<toml::Value>,
    /// Named regions every cast has (a cast's own `[regions]` entry of the same name wins).
    #[serde(default)]
    #[cfg_attr(
        feature = "schema",
        schemars(with = "std::collections::BTreeMap<String, cast_file::RegionToml>")
    )]
    regions: std::collections::BTreeMap<String, toml::Spanned<cast_file::RegionToml>>,
    /// App manifests every cast and session may use: programs shown as refs (`@NAME.REF`).
    #[serde(default)]
    #[cfg_attr(
        feature = "schema",
        schemars(with = "std::collections::BTreeMap<String, crate::inspect::AdapterToml>")
    )]
    adapters: std::collections::BTreeMap<String, toml::Spanned<crate::inspect::AdapterToml>>,
    /// The project's default for `live` (a scenario's own `live =` wins).
    live: Option<bool>,
    /// Docs images drawn from casts and checked like goldens (`tuicast screenshots`).
    #[serde(default, rename = "screenshot")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<screenshot::ScreenshotToml>"))]
    screenshots: Vec<toml::Spanned<screenshot::ScreenshotToml>>,
}

/// The largest TOML file read (`tuicast.toml`, a cast's TOML); a larger one is an error.
pub const MAX_TOML_BYTES: u64 = 1 << 20;

/// Reads a TOML file: a regular file (no FIFO or device, symlinks followed) of at most
/// [`MAX_TOML_BYTES`], as UTF-8.
pub(crate) fn read_toml_file(path: &Path) -> std::io::Result<String> {
    let bytes = crate::util::read_regular(path, MAX_TOML_BYTES)?;
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "is not valid UTF-8"))
}

/// The name of the project configuration file.
pub const CONFIG_FILE: &str = "tuicast.toml";

/// Why `formats = []` is refused where nothing else checks a cast (no `[check] regions`, no
/// `[[check.expect]]`): a list of no formats would pass every checkpoint and check nothing.
pub const NO_FORMATS: &str = "formats = [] checks nothing here (no [check] regions, no \
     [[check.expect]]): name at least one of \"txt\", \"styled.txt\", \"png\", or leave \
     the key out for the default";

impl Config {
    /// Defaults for a project rooted at `root`: `casts/`, `snapshots/`, `txt`, avt.
    pub fn defaults(root: &Path) -> Config {
        Config {
            root: root.to_path_buf(),
            casts: root.join("casts"),
            snapshots: root.join("snapshots"),
            formats: vec![Format::Text],
            styles: true,
            no_formats_at: None,
            engine: EngineSpec::default(),
            #[cfg(feature = "png")]
            png: PngConfig::default(),
            regions: Regions::default(),
            live: None,
            screenshots: Vec::new(),
        }
    }

    /// Reads `root/tuicast.toml` when it exists; defaults otherwise. A snapshots folder
    /// outside the project once symbolic links are resolved is an error.
    pub fn load(root: &Path) -> Result<Config, ConfigError> {
        let path = root.join(CONFIG_FILE);
        let config = Config::read(root, &path)?;
        // A cloned repository chooses both the setting and the folder: `snapshots = "../x"`,
        // an absolute path, or a committed link `snapshots -> /home/me` would have goldens
        // written (and read) anywhere.
        if root.is_dir() && !crate::util::is_inside(root, &config.snapshots) {
            let (file, what) = if path.is_file() {
                (path.as_path(), "the snapshots folder it names")
            } else {
                (config.snapshots.as_path(), "this snapshots folder")
            };
            return Err(ConfigError::of_kind(
                ConfigErrorKind::Unsafe,
                file,
                0,
                0,
                format!(
                    "{what} ({}) is outside the project (after symbolic links): goldens are \
                     written and read only inside it",
                    crate::escape::escape_for_terminal(
                        &config.snapshots.display().to_string(),
                        300
                    )
                ),
            ));
        }
        Ok(config)
    }

    /// `root/tuicast.toml` at `path` read over the defaults.
    fn read(root: &Path, path: &Path) -> Result<Config, ConfigError> {
        let path = path.to_path_buf();
        let mut config = Config::defaults(root);
        let text = match read_toml_file(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(config),
            Err(e) => return Err(ConfigError::io(&path, e)),
        };
        let file: ConfigFile = parse_toml(&path, &text)?;
        if let Some(c) = file.casts {
            config.casts = root.join(c);
        }
        if let Some(s) = file.snapshots {
            config.snapshots = root.join(s);
        }
        if let Some(f) = file.formats {
            if f.get_ref().is_empty() {
                let (line, column) = line_column(&text, f.span().start);
                config.no_formats_at = Some(format!(
                    "{}:{line}:{column}",
                    crate::escape::escape_for_terminal(&path.display().to_string(), 300)
                ));
            }
            config.formats = f.into_inner();
        }
        if let Some(s) = file.styles {
            config.styles = s;
        }
        if let Some(e) = file.engine {
            config.engine.kind = e;
        }
        config.engine.options = file.terminal.apply(config.engine.options);
        config.regions = Regions::read(
            &path,
            &text,
            &file.regions,
            &file.adapters,
            &Regions::default(),
        )?;
        config.live = file.live;
        config.screenshots = screenshot::read(&path, &text, root, file.screenshots)?;
        #[cfg(feature = "png")]
        if let Some(p) = file.png {
            config.png = p;
            // Checked now, so that a bad table is an error of the file, before any test.
            config
                .png_check()
                .map_err(|e| ConfigError::new(&path, 0, 0, e.to_string()))?;
        }
        Ok(config)
    }

    /// How `png` goldens are drawn and compared in a run: the `[png]` table applied over
    /// the defaults (font folders relative to [`root`](Self::root)).
    #[cfg(feature = "png")]
    pub fn png_check(&self) -> Result<PngCheck, crate::render::png::PngConfigError> {
        PngCheck::from_config(&self.png, &self.root)
    }

    /// How `png` goldens are drawn and compared in a run: without the `png` feature there
    /// are none, and nothing can go wrong.
    #[cfg(not(feature = "png"))]
    pub fn png_check(&self) -> Result<PngCheck, std::convert::Infallible> {
        Ok(PngCheck::default())
    }

    /// The project `start` (a file or folder) belongs to, as every command finds it: the
    /// nearest folder at or above it holding `tuicast.toml`, else the nearest holding a
    /// `Cargo.toml` with a `[package]`, else the nearest holding a `casts` folder, else
    /// `fallback` (the working folder). So `tuicast test
    /// members/app/casts` at a workspace root writes under `members/app/snapshots/`, not
    /// `./snapshots/members/...`.
    pub fn find(start: &Path, fallback: &Path) -> Result<Config, ConfigError> {
        Config::load(&project_root(start).unwrap_or_else(|| fallback.to_path_buf()))
    }

    /// The configuration of the project being tested: the folder of `CARGO_MANIFEST_DIR`
    /// (set by cargo for tests) or else the current directory.
    pub fn discover() -> Result<Config, ConfigError> {
        let root = std::env::var_os("CARGO_MANIFEST_DIR")
            .map(PathBuf::from)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        Config::load(&root)
    }
}

/// The folder of the project `start` belongs to (see [`Config::find`]), if any.
pub fn project_root(start: &Path) -> Option<PathBuf> {
    let start = crate::util::resolved(start);
    let mut dirs: Vec<&Path> = start.ancestors().collect();
    if start.is_file() || !start.exists() {
        dirs.remove(0);
    }
    if let Some(d) = dirs.iter().find(|d| d.join(CONFIG_FILE).is_file()) {
        return Some(d.to_path_buf());
    }
    let package = dirs.iter().find(|d| {
        read_toml_file(&d.join("Cargo.toml")).is_ok_and(|text| {
            text.parse::<toml::Table>()
                .is_ok_and(|t| t.contains_key("package"))
        })
    });
    // A project with neither file: the nearest folder holding the default casts folder.
    package
        .or_else(|| dirs.iter().find(|d| d.join("casts").is_dir()))
        .map(|d| d.to_path_buf())
}

/// The most folders [`suites_below`] looks into, and how deep.
pub const MAX_SUITE_SEARCH: (usize, usize) = (20_000, 6);

message_error!(
    /// Why the suites of a workspace could not be listed: more folders than a search looks
    /// through (naming the suite's folder is then the way).
    SuiteSearchError, SuiteSearchErrorKind {
        /// More folders below the root than [`MAX_SUITE_SEARCH`] allows.
        TooManyFolders,
    }
);

/// The projects below `root` (not `root` itself) that have a suite: a casts folder (`casts/`,
/// or the one their `tuicast.toml` names) beside a `tuicast.toml` or a `Cargo.toml`; one whose
/// `tuicast.toml` does not read is listed too, so that its run says why. Hidden folders,
/// `target` and `node_modules` are not searched, symlinks not followed, and nothing deeper
/// than [`MAX_SUITE_SEARCH`]'s levels; more folders than its count is an error (naming the
/// suite's folder is then the way), never a shorter list.
pub fn suites_below(root: &Path) -> Result<Vec<PathBuf>, SuiteSearchError> {
    let (max_dirs, max_depth) = MAX_SUITE_SEARCH;
    let mut out = Vec::new();
    let mut queue = std::collections::VecDeque::from([(root.to_path_buf(), 0usize)]);
    let mut seen = 0;
    while let Some((dir, depth)) = queue.pop_front() {
        seen += 1;
        if seen > max_dirs {
            return Err(SuiteSearchError::new(
                SuiteSearchErrorKind::TooManyFolders,
                format!(
                    "{}: more than {max_dirs} folders to look through for the suites of a \
                 workspace: name the suite to check (`tuicast test PATH/casts`)",
                    crate::escape::escape_for_terminal(&root.display().to_string(), 300)
                ),
            ));
        }
        let project = dir.join(CONFIG_FILE).is_file() || dir.join("Cargo.toml").is_file();
        if dir != root && project && Config::load(&dir).map_or(true, |c| c.casts.is_dir()) {
            out.push(dir.clone());
        }
        if depth >= max_depth {
            continue;
        }
        queue.extend(
            searched_subfolders(&dir)
                .into_iter()
                .map(|d| (d, depth + 1)),
        );
    }
    out.sort();
    Ok(out)
}

/// The folders directly in `dir` that a search for suites or casts looks into, sorted: not
/// hidden ones, `target` or `node_modules`, and no symbolic link (a link's file type is
/// not a folder's). An unreadable `dir` has none.
pub(crate) fn searched_subfolders(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut subs: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            !name.starts_with('.') && name != "target" && name != "node_modules"
        })
        .map(|e| e.path())
        .collect();
    subs.sort();
    subs
}

/// The `[terminal]` table of `tuicast.toml` and of a cast's TOML: engine options, each
/// `None` when the file does not say (see [`EngineOptions`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct TerminalTable {
    /// `deccolm`: DECCOLM resizes to 132/80 columns ([`EngineOptions::deccolm`]).
    #[serde(default)]
    pub deccolm: Option<bool>,
}

impl TerminalTable {
    /// `options` with what this table says over them.
    pub fn apply(&self, options: EngineOptions) -> EngineOptions {
        match self.deccolm {
            Some(d) => options.with_deccolm(d),
            None => options,
        }
    }
}

/// What kind of problem a [`ConfigError`] reports, for callers that branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigErrorKind {
    /// Reading the file failed (permissions, not a regular file, over its size limit, not
    /// UTF-8); [`std::error::Error::source`] gives the I/O error.
    Io,
    /// The text is not TOML, or has a key or a type the file's schema does not allow.
    Syntax,
    /// A value is wrong (a bad duration, region, step, a key that needs another one).
    Value,
    /// The file asks for something tuicast refuses to do for safety (a snapshots folder
    /// outside the project).
    Unsafe,
}

/// An error in a TOML file (or reading it), with its place.
#[derive(Debug, Clone)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line (0 when not about a line).
    pub line: u64,
    /// 1-based character column (0 when not about a column).
    pub column: u64,
    /// The category of the problem.
    pub kind: ConfigErrorKind,
    /// What is wrong.
    pub message: String,
    source: Option<std::sync::Arc<std::io::Error>>,
}

impl ConfigError {
    /// The error as data: `bad-input` (`error` for a failed read) at its place.
    pub fn failure(&self) -> crate::location::FailureJson {
        use crate::location::{FailureJson, FailureKind};
        let kind = match self.kind {
            ConfigErrorKind::Io => FailureKind::Error,
            _ => FailureKind::BadInput,
        };
        FailureJson::new(kind, self.to_string()).at(&self.path, self.line, self.column)
    }

    /// A wrong value ([`ConfigErrorKind::Value`]) in `path` at `line:column`.
    pub fn new(path: &Path, line: u64, column: u64, message: impl Into<String>) -> Self {
        ConfigError::of_kind(ConfigErrorKind::Value, path, line, column, message)
    }

    /// An error of `kind` in `path` at `line:column`.
    pub fn of_kind(
        kind: ConfigErrorKind,
        path: &Path,
        line: u64,
        column: u64,
        message: impl Into<String>,
    ) -> Self {
        ConfigError {
            path: path.to_path_buf(),
            line,
            column,
            kind,
            message: message.into(),
            source: None,
        }
    }

    /// Reading `path` failed with `err` ([`ConfigErrorKind::Io`], its source).
    pub fn io(path: &Path, err: std::io::Error) -> Self {
        let mut e = ConfigError::of_kind(ConfigErrorKind::Io, path, 0, 0, err.to_string());
        e.source = Some(std::sync::Arc::new(err));
        e
    }

    /// This error at another place in the same file (its kind and source kept).
    pub(crate) fn moved(mut self, line: u64, column: u64) -> Self {
        self.line = line;
        self.column = column;
        self
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_place(f, Some(&self.path), self.line, self.column)?;
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// Parses TOML text into `T`, turning errors into positioned [`ConfigError`]s.
pub fn parse_toml<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
) -> Result<T, ConfigError> {
    toml::from_str(text).map_err(|e| {
        let (line, column) = match e.span() {
            Some(span) => line_column(text, span.start),
            None => (0, 0),
        };
        let message = e.message().trim().to_string();
        ConfigError::of_kind(
            ConfigErrorKind::Syntax,
            path,
            line,
            column,
            crate::escape::escape_for_terminal(&message, 300),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_their_kind_and_keep_their_source() {
        use std::error::Error as _;
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join(CONFIG_FILE);
        // A folder where the file should be: reading fails, and the I/O error is the source.
        std::fs::create_dir(&config).unwrap();
        let e = Config::load(dir.path()).unwrap_err();
        assert_eq!(e.kind, ConfigErrorKind::Io, "{e}");
        let source = e.source().expect("an I/O error's source");
        assert!(
            source.downcast_ref::<std::io::Error>().is_some(),
            "{source:?}"
        );
        std::fs::remove_dir(&config).unwrap();
        for (text, kind, line) in [
            ("casts = [", ConfigErrorKind::Syntax, 1),
            ("nope = 1\n", ConfigErrorKind::Syntax, 1),
            (
                "[regions]\nr = { row = { regex = \"(\" } }\n",
                ConfigErrorKind::Value,
                2,
            ),
            ("snapshots = \"..\"\n", ConfigErrorKind::Unsafe, 0),
        ] {
            std::fs::write(&config, text).unwrap();
            let e = Config::load(dir.path()).unwrap_err();
            assert_eq!((e.kind, e.line), (kind, line), "{text:?}: {e}");
            assert!(e.source().is_none(), "{e}");
            assert!(
                e.to_string().starts_with(&config.display().to_string()),
                "{e}"
            );
        }
        // A step's error keeps its kind when it is moved to the place in the text.
        let e = parse_step(
            Path::new("cmd"),
            "{ wait = { idle = \"soon\" } }",
            &crate::config::Regions::default(),
        )
        .unwrap_err();
        assert_eq!((e.kind, e.line), (ConfigErrorKind::Value, 1), "{e}");
        let e = parse_step(
            Path::new("cmd"),
            "{ wait = ",
            &crate::config::Regions::default(),
        )
        .unwrap_err();
        assert_eq!(e.kind, ConfigErrorKind::Syntax, "{e}");
    }

    #[test]
    fn defaults_without_a_file_and_values_from_one() {
        let dir = tempfile::tempdir().unwrap();
        let c = Config::load(dir.path()).unwrap();
        assert_eq!(c.casts, dir.path().join("casts"));
        assert_eq!(c.formats, vec![Format::Text]);
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "casts = \"rec\"\nformats = [\"txt\", \"styled.txt\"]\nengine = \"vt100\"\n",
        )
        .unwrap();
        let c = Config::load(dir.path()).unwrap();
        assert_eq!(c.casts, dir.path().join("rec"));
        assert_eq!(c.snapshots, dir.path().join("snapshots"));
        assert_eq!(c.formats, vec![Format::Text, Format::Styled]);
        assert_eq!(c.engine.kind, EngineKind::Vt100);
        assert!(!c.engine.options.deccolm);
        std::fs::write(dir.path().join(CONFIG_FILE), "[terminal]\ndeccolm = true\n").unwrap();
        let c = Config::load(dir.path()).unwrap();
        assert_eq!(c.engine.kind, EngineKind::Native);
        assert!(c.engine.options.deccolm);
        std::fs::write(dir.path().join(CONFIG_FILE), "[terminal]\ndecolm = true\n").unwrap();
        let e = Config::load(dir.path()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        assert!(e.to_string().contains("unknown field `decolm`"), "{e}");
    }

    #[cfg(feature = "png")]
    #[test]
    fn the_png_table_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let c = Config::load(dir.path()).unwrap();
        assert_eq!(c.png, PngConfig::default());
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "casts = \"c\"\n[png]\ntheme = \"nord\"\nfont_size = 20\nfont_dir = [\"a\", \"b\"]\ntolerance = 2\n",
        )
        .unwrap();
        let c = Config::load(dir.path()).unwrap().png;
        assert_eq!(c.tolerance, Some(2));
        assert_eq!(c.theme.as_deref(), Some("nord"));
        assert_eq!(c.font_size, Some(20.0));
        assert_eq!(
            c.font_dir,
            Some(crate::render::png::FontDirs::Many(vec![
                "a".into(),
                "b".into()
            ]))
        );
        std::fs::write(dir.path().join(CONFIG_FILE), "[png]\nfont = 3\n").unwrap();
        let e = Config::load(dir.path()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1), "{e}");
    }

    #[test]
    fn the_regions_table_serves_every_cast_and_a_casts_own_region_wins() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "[regions]\nstatus = { rows = 3 }\nmode = { row = { regex = \"INSERT\" } }\n",
        )
        .unwrap();
        let c = Config::load(dir.path()).unwrap();
        assert_eq!(
            c.regions.anchors.keys().collect::<Vec<_>>(),
            ["mode", "status"]
        );
        let cast = dir.path().join("x.toml");
        let text = "[regions]\nstatus = { last_row = true }\n\
                    [[check.expect]]\nat = \"end\"\nregion = \"mode\"\ntext = \"a\"\n";
        let f = CastFile::parse(&cast, text, &c.regions).unwrap();
        assert_eq!(f.anchors["status"].describe(), "last_row = true");
        assert_eq!(f.anchors["mode"].describe(), "row = { regex = \"INSERT\" }");
        assert_eq!(f.expects[0].region.as_ref().unwrap().0, "region \"mode\"");
        // Without the project's regions the expectation names an unknown region.
        assert!(CastFile::parse(&cast, text, &crate::config::Regions::default()).is_err());
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "casts = \"c\"\n\n[regions]\nok = { rows = 1 }\nbad = { row = { regex = \"(\" } }\n",
        )
        .unwrap();
        let e = Config::load(dir.path()).unwrap_err();
        assert_eq!((e.line, e.column), (5, 7), "{e}");
        assert!(
            e.to_string()
                .contains("tuicast.toml:5:7: regions.bad: regex \"(\" is not valid"),
            "{e}"
        );
    }

    #[test]
    fn errors_have_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "casts = \"rec\"\nformats = [\"png8\"]\n",
        )
        .unwrap();
        let e = Config::load(dir.path()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 12), "{e}");
        std::fs::write(dir.path().join(CONFIG_FILE), "\ncast = 1\n").unwrap();
        let e = Config::load(dir.path()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        assert!(e.to_string().contains("unknown field `cast`"), "{e}");
    }
}
