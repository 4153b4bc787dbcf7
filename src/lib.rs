//! tuicast: record–replay regression testing for terminal programs.
//!
//! A session of a terminal program is kept as an asciicast v3 file. tuicast replays the
//! recorded bytes into a terminal engine — without launching the program — and gives the
//! screen at every checkpoint as text or JSON, ready to compare with a golden snapshot.
//!
//! # Synopsis
//!
//! ```
//! use tuicast::cast::CastReader;
//! use tuicast::replay;
//! use tuicast::term::EngineKind;
//!
//! let cast = r#"{"version": 3, "term": {"cols": 20, "rows": 3}}
//! [0.1, "o", "$ echo hi\r\n"]
//! [0.2, "o", "hi\r\n$ "]
//! [0.1, "m", "prompt"]
//! "#;
//! let reader = CastReader::new(cast.as_bytes())?;
//! let checkpoints = replay::checkpoints(reader, EngineKind::Native)?;
//! assert_eq!(checkpoints[0].name, "prompt");
//! assert_eq!(checkpoints[0].line, 4);
//! assert_eq!(checkpoints[0].screen.text(), "$ echo hi\nhi\n$\n");
//! assert_eq!(checkpoints[1].name, "end");
//! # Ok::<(), tuicast::cast::CastError>(())
//! ```
//!
//! # The public API
//!
//! One path per item: the stage modules below, in the order data flows (each uses only the
//! ones before it; `tests/it/layers.rs` checks it). Enums and option structs are
//! `#[non_exhaustive]`: new variants, fields and keys come without breaking callers (option
//! structs are built with `Default` and their builder methods, such as
//! `render::png::PngOptions::font_size` (feature `png`) or [`harness::Options::new`]).
//!
//! - Leaves: [`escape`] (the one escaper for text in messages), [`location`]
//!   (`path:line:column` from byte offsets), [`size`] ([`size::Size`], its parser and limits),
//!   [`pos`] (positions: [`pos::Point`] 0-based as the grid counts, [`pos::Ordinal`] and
//!   [`pos::Place`] 1-based as people read them, and the only conversion between the two),
//!   [`rgb`] (the one colour value).
//! - [`cast`]: the asciicast model; v1, v2 and v3 reading (streaming), v3 writing.
//! - [`term`]: the engine-independent [`term::Screen`] and the engines behind [`term::Engine`];
//!   [`term::CellSelection`], how masks, annotations and regions pick cells.
//! - [`replay`]: events → engine → [`replay::Checkpoint`]s; timed frames for animations.
//! - [`record`]: programs run in a PTY, driven by a [`record::Scenario`], written as casts.
//! - [`render`]: screens as text and JSON; PNG and GIF (`render::png`, feature `png`).
//! - [`assert`](mod@assert): golden snapshots, diffs, update modes, masks, pending review.
//! - [`config`]: `tuicast.toml` and a cast's TOML ([`config::CastFile`]), read and checked.
//! - `daemon` (feature `cli`): the session daemon behind `tuicast session`: live sessions
//!   driven one scenario step at a time, saved as a cast and its scenario.
//! - [`report`]: the HTML test report (`tuicast test --report DIR`, `TUICAST_REPORT`), its
//!   cast player's frames, and `accept --from` of the changes a CI run left in it.
//! - [`harness`]: every checkpoint a `cargo test` trial (the libtest protocol).
//!
//! ## What is public, and why
//!
//! What a user of the library needs is public: the harness that makes every checkpoint a
//! `cargo test` trial ([`harness::main`], [`harness::Options`]), [`assert_screen!`], the
//! recorder's [`record::Session`] and [`record::Scenario`], the cast reader and writer
//! ([`cast::CastReader`], [`cast::CastWriter`]), [`replay::checkpoints`], [`term::Screen`],
//! the renderers ([`render`]) and each stage's error, a type with its kind and its place. A
//! stage's files are crate-private and their items named once, from the stage
//! (`record::Session`, not `record::session::Session`): `scripts/api-paths.py --check`
//! fails CI on an item with a second path. What the `tuicast` binary, the benchmarks and
//! the fuzz targets need beyond that — `util`, `record::pty`, `record::redact` — is
//! `#[doc(hidden)]` public, with no stability promise: they are other crates, so it cannot
//! be private. A private `_internal` feature (as insta gives cargo-insta) was weighed and not
//! taken: the binary is this package's, built by its default `cli` feature, so such a
//! feature would be on in every default build and hide nothing more than `doc(hidden)`
//! does. The command line is not part of the library: it lives in the binary
//! (`src/main.rs`, `src/cli/`).
//!
//! # Cargo features
//!
//! | feature | what it adds | default |
//! | --- | --- | --- |
//! | `png` | PNG and GIF renders, `png` goldens (rasterizer, bundled fonts, image encoders) | yes, through `cli` |
//! | `schema` | JSON Schemas of what tuicast writes and reads, from its types (`tuicast schema`) | yes, through `cli` |
//! | `record` | nothing: recording (`tuicast record`, live mode) is in every build; kept so that dev-dependency lines naming it still build | no |
//! | `vt100` | the vt100 crate as a third engine (`engine = "vt100"`, `tuicast engines`) | yes, through `cli` |
//! | `cli` | the `tuicast` binary (clap, anyhow, the MCP server), with `png`, `schema` and `vt100` | yes |
//!
//! A crate that only checks committed casts under `cargo test` can depend on
//! `tuicast = { version = "…", default-features = false }`: `harness::main()`, text and
//! styled goldens, replay with the native engine and with avt 0.17 as the crate is
//! (`engine = "avt"`, what asciinema's player shows; avt is in every build), in about half the
//! dependencies.

// On docs.rs (`--cfg docsrs`, nightly) each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

/// Checks a screen against the golden `snapshots/@screens/NAME.txt` of the package under
/// test, as cast goldens are checked: `TUICAST_UPDATE` (and CI) decide what a mismatch writes,
/// `tuicast review` / `accept` take the `.new`, and the golden is never an orphan. The screen
/// comes from a [`term::Screen`] (`&screen` for one you keep) or a `record::Session`, whose
/// live screen is taken once it has settled, as a checkpoint's (see
/// [`harness::ScreenSource`]); a mismatch panics at the macro's line with the golden, the
/// first difference and the diff.
///
/// ```no_run
/// use tuicast::record::{Session, SessionOptions};
/// let mut s = Session::spawn_in_memory(SessionOptions::new(["bash", "--norc"]))?;
/// s.wait_text("$")?;
/// tuicast::assert_screen!(s, "prompt");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[macro_export]
macro_rules! assert_screen {
    ($screen:expr, $name:expr $(,)?) => {
        $crate::harness::assert_screen_golden(env!("CARGO_MANIFEST_DIR"), &mut $screen, $name)
    };
}

/// Declares an error type that carries its message (text quoted from input already escaped).
///
/// A public one, `NAME, NAMEKind { Variant, … }`, also declares its kind enum
/// (`#[non_exhaustive]`, one variant per cause a caller may tell apart): the error is made with
/// `NAME::new(kind, message)` and asked with `kind()` and `message()`, so callers match on
/// the kind, never on the message's words. `pub(crate) NAME` declares one for the crate's
/// own use (a message its caller places), made from a `String` as by [`message!`].
macro_rules! message_error {
    ($(#[$doc:meta])* pub(crate) $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub(crate) struct $name(pub(crate) String);

        #[allow(dead_code)] // one may be only shown, never asked
        impl $name {
            /// What is wrong, as a sentence for a message.
            pub(crate) fn message(&self) -> &str {
                &self.0
            }
        }

        impl From<$name> for String {
            fn from(e: $name) -> String {
                e.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl std::error::Error for $name {}

        impl From<String> for $name {
            fn from(message: String) -> $name {
                $name(message)
            }
        }

        impl From<&str> for $name {
            fn from(message: &str) -> $name {
                $name(message.to_string())
            }
        }
    };
    ($(#[$doc:meta])* $name:ident, $kind:ident {
        $($(#[$kind_doc:meta])* $variant:ident),+ $(,)?
    }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name {
            kind: $kind,
            message: String,
        }

        #[doc = concat!("What kind of [`", stringify!($name), "`] it is.")]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $kind {
            $($(#[$kind_doc])* $variant),+
        }

        #[allow(dead_code)] // a kind may be made in one build of the crate only
        impl $name {
            /// The error of `kind`, saying `message` (text from input already escaped).
            pub(crate) fn new(kind: $kind, message: impl Into<String>) -> $name {
                $name { kind, message: message.into() }
            }

            /// What kind of failure it is.
            pub fn kind(&self) -> $kind {
                self.kind
            }

            /// What is wrong, as a sentence for a message.
            pub fn message(&self) -> &str {
                &self.message
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.message)
            }
        }

        impl std::error::Error for $name {}

        impl From<$name> for String {
            fn from(e: $name) -> String {
                e.message
            }
        }
    };
}

/// A message made as by `format!`, as the error type where it is used (one of
/// [`message_error!`]'s, whose `From<String>` makes it).
macro_rules! message {
    ($($arg:tt)*) => {
        ::std::convert::From::from(format!($($arg)*))
    };
}

pub mod escape;
pub mod location;
pub mod pos;
pub mod size;

pub mod assert;
pub mod cast;
pub mod config;
#[cfg(feature = "cli")]
pub mod daemon;
pub mod harness;
pub mod inspect;
pub mod record;
pub mod render;
pub mod replay;
pub mod report;
pub mod rgb;
#[cfg(all(feature = "schema", feature = "cli"))]
pub mod schema;
pub mod term;
pub mod theme;
#[doc(hidden)] // shared with the tuicast binary; not a stable API
pub mod util;

/// The README's code blocks, compiled and run as doctests so the synopsis stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// Each public message error tells its causes apart by its kind, not by its words.
#[cfg(test)]
mod error_kinds {
    use crate::assert::{
        parse_color, ColorErrorKind, Format, FormatErrorKind, UpdateMode, UpdateModeErrorKind,
    };
    use crate::config::{parse_duration, parse_settle, DurationErrorKind};
    use crate::inspect::{anchor_regex, AnchorErrorKind, PromptKind, PromptKindErrorKind};
    use crate::record::keys::{key_bytes, KeyErrorKind};
    use crate::size::{Size, SizeErrorKind};
    use crate::term::{parse_cell_range, CellSelection, RangeErrorKind, SelectionErrorKind};
    use crate::theme::{Theme, ThemeErrorKind};

    #[test]
    fn every_cause_has_its_kind_and_the_message_stays() {
        let d = |t: &str| parse_duration(t).unwrap_err().kind();
        assert_eq!(d("soon"), DurationErrorKind::NotANumber);
        assert_eq!(d("3 parsecs"), DurationErrorKind::UnknownUnit);
        assert_eq!(d("-1s"), DurationErrorKind::OutOfRange);
        assert_eq!(d("25h"), DurationErrorKind::UnknownUnit);
        assert_eq!(d("1441m"), DurationErrorKind::OutOfRange);
        let settle = parse_settle("quiet:soon").unwrap_err();
        assert_eq!(settle.kind(), DurationErrorKind::NotANumber);
        assert!(settle.message().contains("\"soon\" is not a duration"));

        let s = |t: &str| t.parse::<Size>().unwrap_err().kind();
        assert_eq!(s("80"), SizeErrorKind::Syntax);
        assert_eq!(s("0x24"), SizeErrorKind::Zero);
        assert_eq!(s("100000x24"), SizeErrorKind::TooLarge);
        let narrow = Size { cols: 1, rows: 5 }.for_terminal().unwrap_err();
        assert_eq!(narrow.kind(), SizeErrorKind::TooNarrow);

        let k = |t: &str| key_bytes(t, false).unwrap_err().kind();
        assert_eq!(k("Hyper"), KeyErrorKind::Unknown);
        assert_eq!(k("M-M-M-M-M-x"), KeyErrorKind::TooManyPrefixes);

        let format = "gif".parse::<Format>().unwrap_err();
        assert_eq!(format.kind(), FormatErrorKind::Unknown);
        assert_eq!(
            parse_color("plaid").unwrap_err().kind(),
            ColorErrorKind::Unknown
        );
        assert_eq!(
            parse_color("#12").unwrap_err().kind(),
            ColorErrorKind::Unknown
        );
        assert_eq!(
            "sometimes".parse::<UpdateMode>().unwrap_err().kind(),
            UpdateModeErrorKind::Unknown
        );
        assert_eq!(anchor_regex("").unwrap_err().kind(), AnchorErrorKind::Regex);
        assert_eq!(
            anchor_regex("(").unwrap_err().kind(),
            AnchorErrorKind::Regex
        );
        assert_eq!(
            PromptKind::parse("maybe", false).unwrap_err().kind(),
            PromptKindErrorKind::Unknown
        );

        let t = |spec: &str| Theme::parse(spec).unwrap_err().kind();
        assert_eq!(t("plaid"), ThemeErrorKind::UnknownName);
        assert_eq!(t("#000,#fff,zz"), ThemeErrorKind::Color);
        assert_eq!(t("#000,#fff,#111"), ThemeErrorKind::Count);

        let r = |text: &str| parse_cell_range(text).unwrap_err().kind();
        assert_eq!(r("0"), RangeErrorKind::Zero);
        assert_eq!(r("3..2"), RangeErrorKind::Syntax);
        assert_eq!(r("a"), RangeErrorKind::Syntax);
        let sel = |rows, regex| CellSelection::new(rows, None, regex).unwrap_err().kind();
        assert_eq!(sel(None, None), SelectionErrorKind::Empty);
        assert_eq!(sel(None, Some("(")), SelectionErrorKind::Regex);
        assert_eq!(sel(Some("0"), None), SelectionErrorKind::Range);
    }

    #[test]
    fn anchors_and_adapters_say_what_they_found() {
        use crate::inspect::{AdapterErrorKind, Adapters, Anchor};
        let screen = crate::term::test_screen(crate::size::Size { cols: 20, rows: 3 }, "hello");
        let missing = Anchor::Row(regex::Regex::new("bye").unwrap());
        assert_eq!(
            missing.resolve(&screen).unwrap_err().kind(),
            AnchorErrorKind::NotFound
        );
        let manifest = |toml_text: &str| {
            let t = toml::from_str(toml_text).unwrap();
            Adapters::builtin()
                .extended(vec![("mine".into(), t, toml_text.into(), String::new())])
                .unwrap_err()
        };
        let e = manifest("screen = [\"(\"]");
        assert_eq!(e.kind(), AdapterErrorKind::Regex);
        assert!(e.message().starts_with("adapters.mine: regex"), "{e}");
        assert_eq!(
            manifest("refs.x = { row = 0 }").kind(),
            AdapterErrorKind::Spec
        );
        assert_eq!(
            manifest("refs.\"a b\" = { row = 1 }").kind(),
            AdapterErrorKind::Name
        );
    }
}
