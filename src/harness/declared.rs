//! Declarations and their uses: what a cast's TOML declares that acts on its screens (each
//! `[check] mask`, by a region, a ref, a regex or a rectangle; `[check] scrollback`) is resolved here,
//! on every checkpoint a replay (or a live recording) reaches, and its uses counted; one that
//! selected nothing on any of them fails the case, naming where it is declared.
//!
//! A mask that hides nothing is not harmless: after the text a region was anchored on is
//! reworded, the clock it hid goes into the golden (`--update`), and the next run fails on
//! the time of day, or passes by luck. Declarations that select a checkpoint (`[check]
//! checkpoints`, an expectation's `at`) are resolved at discovery against the cast's
//! checkpoints (`discover::expected_checkpoints`, `discover::choose`); an expectation and a
//! region golden fail on a screen where they find nothing. So every declaration either has an
//! effect or is an error, and this file is where the ones that act on screens are counted.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use super::discover::Case;
use super::result::CheckResult;
use crate::assert;
use crate::term::Screen;

/// The uses of a case's declarations over one replay: the cells each mask hid, and the
/// checkpoints seen.
#[derive(Debug)]
pub(super) struct Uses {
    /// Cells hidden by each of the case's masks, in their order.
    mask_hits: Vec<usize>,
    /// Checkpoints whose screens were resolved against the declarations.
    screens: usize,
    /// Checkpoints whose text goldens showed scrolled-off lines (`[check] scrollback`).
    scrolled: usize,
}

impl Uses {
    /// No uses yet of the declarations of `case`.
    pub(super) fn new(case: &Case) -> Uses {
        Uses {
            mask_hits: vec![0; case.masks.len()],
            screens: 0,
            scrolled: 0,
        }
    }

    /// `screen` with the case's masks applied, each counted; borrowed as it is when there
    /// are none (no copy).
    pub(super) fn masked<'a>(&mut self, case: &Case, screen: &'a Screen) -> Cow<'a, Screen> {
        self.screens += 1;
        let text_golden = case.formats.iter().any(|f| !f.is_binary());
        if text_golden && !screen.state.scrollback.is_empty() {
            self.scrolled += 1;
        }
        if case.masks.is_empty() {
            Cow::Borrowed(screen)
        } else {
            Cow::Owned(assert::apply_counted(
                &case.masks,
                screen,
                &mut self.mask_hits,
            ))
        }
    }

    /// Why the case fails for declarations that selected nothing on any checkpoint seen:
    /// one line each, `path:line:column: what it looked for`; `None` when each did something
    /// (or no checkpoint was seen, as when the replay failed: that failure is reported).
    pub(super) fn unused(&self, case: &Case) -> Option<String> {
        if self.screens == 0 {
            return None;
        }
        let mut out = String::new();
        for (mask, _) in case
            .masks
            .iter()
            .zip(&self.mask_hits)
            .filter(|(_, &hits)| hits == 0)
        {
            let place = mask.place().map_or_else(
                || assert::shown_path(&case.cast.with_extension("toml")),
                str::to_string,
            );
            let _ = writeln!(
                out,
                "{place}: the mask {{ {} }} hid nothing on any of the {} checkpoint(s) of {}: what it \
                 looks for is not on these screens (reworded, moved, or gone); correct it or \
                 remove it",
                mask.anchor().describe(),
                self.screens,
                assert::shown_path(&case.cast),
            );
        }
        if let (Some(place), 0) = (&case.scrollback_at, self.scrolled) {
            let why = if case.formats.iter().all(|f| f.is_binary()) {
                "no text golden shows it (formats are png only)".to_string()
            } else {
                format!(
                    "no line scrolled off the top at any of the {} checkpoint(s) of {}",
                    self.screens,
                    assert::shown_path(&case.cast)
                )
            };
            let _ = writeln!(
                out,
                "{place}: [check] scrollback = {} shows nothing: {why}; remove it",
                case.scrollback
            );
        }
        (!out.is_empty()).then_some(out)
    }

    /// Fails the case's last checked checkpoint in `results` (the one whose screen completed
    /// the count) with [`Uses::unused`], when some declaration was unused.
    pub(super) fn fail_unused(&self, case: &Case, results: &mut HashMap<String, CheckResult>) {
        let Some(why) = self.unused(case) else {
            return;
        };
        let last = match &case.checkpoints {
            Ok(infos) => infos.iter().rev().find(|i| results.contains_key(&i.name)),
            Err(_) => None,
        };
        let Some(r) = last.and_then(|i| results.get_mut(&i.name)) else {
            return;
        };
        r.error = Some(match r.error.take() {
            Some(e) => format!("{why}{e}"),
            None => why,
        });
    }
}
