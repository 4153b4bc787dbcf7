//! What a mismatch does: the mode a person asks for ([`UpdateMode`], `TUICAST_UPDATE`) and the
//! action a run performs ([`UpdateAction`]), CI taken into account.

/// What the user asked a mismatch to do: `TUICAST_UPDATE=auto|new|always|no`, or
/// `tuicast test --update` (= `always`).
///
/// This is a request, not a behaviour: `auto` means different things under CI and on a
/// laptop. [`UpdateMode::resolve`] turns it into the [`UpdateAction`] that this run performs,
/// and only an `UpdateAction` is accepted by the functions that write files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UpdateMode {
    /// `no` under CI (when `CI` is set), `new` elsewhere.
    #[default]
    Auto,
    /// Write the actual render as `<golden>.new` beside the golden, for review.
    New,
    /// Overwrite the golden (or create it) and pass.
    Always,
    /// Write nothing.
    No,
}

/// What a check does on a mismatch in this run: an [`UpdateMode`] with CI taken into account.
///
/// The default writes nothing: a caller that forgets to choose cannot touch a golden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UpdateAction {
    /// Write the actual render as `<golden>.new` beside the golden, for review; remove a
    /// stale `.new` beside a golden that passes.
    WriteNew,
    /// Overwrite the golden (or create it) and pass.
    Overwrite,
    /// Write and remove nothing: the goldens folder is left exactly as it was.
    #[default]
    WriteNothing,
}

/// The environment variable that sets the [`UpdateMode`].
pub const UPDATE_ENV: &str = "TUICAST_UPDATE";

message_error!(
    /// Why a `TUICAST_UPDATE` value is not an update mode.
    UpdateModeError, UpdateModeErrorKind {
        /// Not auto, new, always (overwrite) or no (none).
        Unknown,
    }
);

impl UpdateMode {
    /// The mode asked for by `TUICAST_UPDATE` (default `auto`).
    pub fn from_env() -> Result<UpdateMode, UpdateModeError> {
        match std::env::var(UPDATE_ENV) {
            Ok(v) => v.parse(),
            Err(_) => Ok(UpdateMode::Auto),
        }
    }

    /// What this mode does in a run under CI (`ci` true) or not: `auto` is `no` under CI and
    /// `new` elsewhere; the others do what they say.
    pub fn resolve(self, ci: bool) -> UpdateAction {
        match self {
            UpdateMode::Auto if ci => UpdateAction::WriteNothing,
            UpdateMode::Auto | UpdateMode::New => UpdateAction::WriteNew,
            UpdateMode::Always => UpdateAction::Overwrite,
            UpdateMode::No => UpdateAction::WriteNothing,
        }
    }

    /// What this mode does in this process, CI judged from the `CI` variable (see
    /// [`running_under_ci`]).
    pub fn resolve_here(self) -> UpdateAction {
        self.resolve(running_under_ci())
    }
}

impl UpdateAction {
    /// The action `TUICAST_UPDATE` asks for in this process (see [`UpdateMode::resolve_here`]).
    pub fn from_env() -> Result<UpdateAction, UpdateModeError> {
        Ok(UpdateMode::from_env()?.resolve_here())
    }
}

/// True when the `CI` variable says this runs under CI (set, and not empty, `0` or `false`),
/// as GitHub Actions, GitLab CI and most CI services set it.
pub fn running_under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

impl std::str::FromStr for UpdateMode {
    type Err = UpdateModeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "auto" => Ok(UpdateMode::Auto),
            "new" => Ok(UpdateMode::New),
            "always" | "overwrite" => Ok(UpdateMode::Always),
            "no" | "none" => Ok(UpdateMode::No),
            other => Err(UpdateModeError::new(
                UpdateModeErrorKind::Unknown,
                format!(
                    "{UPDATE_ENV}=\"{}\" is not one of auto, new, always, no",
                    crate::escape::escape_for_terminal(other, 40)
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn update_modes_parse_and_resolve_against_ci() {
        let mode = |s: &str| s.parse::<UpdateMode>().unwrap();
        assert_eq!(mode("auto").resolve(true), UpdateAction::WriteNothing);
        assert_eq!(mode("auto").resolve(false), UpdateAction::WriteNew);
        assert_eq!(mode("new").resolve(true), UpdateAction::WriteNew);
        assert_eq!(mode("always").resolve(true), UpdateAction::Overwrite);
        assert_eq!(mode("no").resolve(false), UpdateAction::WriteNothing);
        assert!("sometimes".parse::<UpdateMode>().is_err());
    }
}
