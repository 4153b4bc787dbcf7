//! Engine options: the few behaviours where terminals people use differ from a VT100, and
//! the engine kind together with them ([`EngineSpec`], what a replay creates).

use super::{AvtEngine, Engine, EngineKind, Size};

/// How an engine treats sequences that real terminals handle in more than one way. The
/// default is what xterm (with its default resources), tmux and xterm.js do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct EngineOptions {
    /// DECCOLM (`CSI ? 3 h` / `CSI ? 3 l`) switches to 132 (or 80) columns, clears the
    /// screen, resets the scroll region and homes the cursor, as a VT100 does (and xterm
    /// with its `c132` resource on). Off by default: xterm (`c132` defaults to false) and
    /// xterm.js (without `windowOptions.setWinLines`) then ignore DECCOLM entirely, so a cast
    /// recorded in them shows 80 columns. `[terminal] deccolm = true` in `tuicast.toml` or a
    /// cast's TOML, `--deccolm` on the command line. Only the native engine has DECCOLM.
    pub deccolm: bool,
}

impl EngineOptions {
    /// These options with DECCOLM on or off (see [`EngineOptions::deccolm`]).
    pub fn with_deccolm(mut self, deccolm: bool) -> Self {
        self.deccolm = deccolm;
        self
    }
}

/// An engine kind with its options: everything needed to create the engine a replay uses.
/// An [`EngineKind`] converts into one with the default options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EngineSpec {
    /// Which engine.
    pub kind: EngineKind,
    /// How it treats the sequences terminals disagree on.
    pub options: EngineOptions,
}

impl EngineSpec {
    /// Makes a fresh engine of this kind and options with a blank screen of `size`.
    pub fn create(self, size: Size) -> Box<dyn Engine + Send> {
        self.kind.create_with(size, self.options)
    }
}

impl From<EngineKind> for EngineSpec {
    fn from(kind: EngineKind) -> Self {
        EngineSpec {
            kind,
            options: EngineOptions::default(),
        }
    }
}

impl EngineKind {
    /// Makes a fresh engine of this kind with a blank screen of `size` and these options.
    /// The avt and vt100 engines have none of them (they ignore DECCOLM).
    pub fn create_with(self, size: Size, options: EngineOptions) -> Box<dyn Engine + Send> {
        match self {
            EngineKind::Avt => Box::new(AvtEngine::new(size)),
            EngineKind::Native => Box::new(super::NativeEngine::with_options_and_scrollback(
                size,
                options,
                super::MAX_SCROLLBACK,
            )),
            #[cfg(feature = "vt100")]
            EngineKind::Vt100 => Box::new(super::Vt100Engine::new(size)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_is_a_spec_with_the_default_options() {
        let spec = EngineSpec::from(EngineKind::Native);
        assert!(!spec.options.deccolm);
        let size = Size { cols: 80, rows: 4 };
        let mut plain = spec.create(size);
        plain.feed("\x1b[?3h");
        assert_eq!(plain.size(), size);
        let wide = EngineSpec {
            options: EngineOptions::default().with_deccolm(true),
            ..spec
        };
        let mut e = wide.create(size);
        e.feed("\x1b[?3h");
        assert_eq!(e.size(), Size { cols: 132, rows: 4 });
    }
}
