//! PNG goldens in a build without the `png` feature: the same names, and a clear error for
//! a `png` golden instead of a picture (text goldens are unaffected).

use std::io;
use std::path::Path;

use super::check::Outcome;
use super::update::UpdateAction;
use crate::term::Screen;

/// How PNG goldens are drawn and compared: nothing to set in a build without the `png`
/// feature, where every `png` golden is an error.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct PngCheck {}

/// A `png` golden in a build without the `png` feature: an error saying so.
pub fn check_png(
    golden: &Path,
    _screen: &Screen,
    _check: &PngCheck,
    _action: UpdateAction,
) -> io::Result<Outcome> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        format!(
            "{}: png goldens need tuicast's `png` feature, which this build leaves out: {}",
            super::shown_path(golden),
            super::PNG_FEATURE_FIX
        ),
    ))
}
