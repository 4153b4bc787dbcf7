//! [`PngError`]: why a picture could not be made.

use std::fmt;
use std::path::PathBuf;

use super::gif::MAX_GIF_PIXELS;
use super::options::{MAX_PIXELS, MAX_SIDE};

/// Why a picture could not be made.
#[derive(Debug)]
#[non_exhaustive]
pub enum PngError {
    /// An option is out of range.
    Option(String),
    /// A font folder could not be read.
    FontDir {
        /// The folder.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A font could not be parsed.
    Font {
        /// The font file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// An annotation spec is not valid.
    Annotation(String),
    /// The image would be too large.
    TooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// An animation's frames would be too large ([`super::MAX_GIF_PIXELS`]).
    AnimationTooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// Encoding or decoding an image failed.
    Image(String),
    /// Writing an animation failed.
    Io(std::io::Error),
}

impl fmt::Display for PngError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PngError::Option(m) => f.write_str(m),
            PngError::FontDir { path, message } => {
                write!(f, "font folder {}: {message}", path.display())
            }
            PngError::Font { path, message } => write!(f, "font {}: {message}", path.display()),
            PngError::Annotation(m) => write!(f, "annotation: {m}"),
            PngError::TooLarge { width, height } => write!(
                f,
                "the image would be {width}x{height} pixels, more than tuicast draws \
                 ({MAX_SIDE} pixels a side, {MAX_PIXELS} in all); use a smaller --font-size, \
                 --line-height or --padding, or fewer labelled annotations"
            ),
            PngError::AnimationTooLarge { width, height } => write!(
                f,
                "the animation would be {width}x{height} pixels a frame, more than tuicast \
                 animates ({MAX_GIF_PIXELS} pixels in all); use a smaller --font-size, \
                 --line-height or --padding, or a PNG of the checkpoint"
            ),
            PngError::Image(m) => write!(f, "image: {m}"),
            PngError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PngError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // `Display` already shows the inner error: its own source comes next, not it again.
        match self {
            PngError::Io(e) => e.source(),
            _ => None,
        }
    }
}

impl From<std::io::Error> for PngError {
    fn from(e: std::io::Error) -> Self {
        PngError::Io(e)
    }
}
