//! The engines' work budget: what the output may make an engine do beyond reading it. A few
//! bytes can ask for a screenful of work (REP prints up to 65,535 characters for its 4 to 9
//! bytes; DECCRA copies a 2000x2000 rectangle for 25; `CSI 2000 S`, ED, IL, DECIC, RIS and a
//! resize each rewrite a screen), so without a bound 30 KB of output cost 93 s. Every such
//! operation takes its cost from one budget: [`WORK_BASE`] units, and [`WORK_PER_BYTE`] more
//! for every byte of output fed. A unit is a cell written or read one at a time (a REP
//! print, a cell of a rectangle, a selective erase); a row blanked or moved by a block copy
//! costs a sixteenth of its cells and one more (its cells are copied sixteen at a time), a
//! row moved whole (a scroll's rotation) one.
//!
//! A program's own output stays far below the bound: ncurses repeats runs within a line (a
//! few prints a byte), and clearing, scrolling and inserting a 200-column screen every few
//! hundred bytes costs less than a unit a byte; every committed cast replays to the same
//! screens with the budget as without it. Past the budget the operation that passed it and
//! every later one is skipped (a resize is still made, so that the screen has the size it was
//! given), and [`Engine::limit_passed`](super::Engine::limit_passed) says so: a replay then
//! fails at that event, with its place.

/// See the module docs: the units of work any output may take.
pub const WORK_BASE: u64 = 16_000_000;

/// See the module docs: the units of work each byte of output adds to the budget.
pub const WORK_PER_BYTE: u64 = 16;

/// An engine's count of work against its budget ([`WORK_BASE`], [`WORK_PER_BYTE`]). What is
/// left is kept, not what was done, so that taking is one comparison and one subtraction (a
/// line feed at the bottom takes from it).
#[derive(Debug, Clone, Copy)]
pub(in crate::term) struct Work {
    /// Bytes of output fed so far.
    fed: u64,
    /// The units left; none once passed.
    left: u64,
    /// The units a byte fed adds: [`WORK_PER_BYTE`], none once passed.
    per_byte: u64,
    /// The units done when the budget was passed.
    done_then: u64,
    /// Units done whatever the budget said (resizes past it).
    over: u64,
    /// The operation that passed the budget, once one has.
    passed: Option<&'static str>,
}

impl Default for Work {
    fn default() -> Work {
        Work {
            fed: 0,
            left: WORK_BASE,
            per_byte: WORK_PER_BYTE,
            done_then: 0,
            over: 0,
            passed: None,
        }
    }
}

/// The units an operation may cost without being taken: no more than the three bytes of the
/// shortest control sequence bring (`CSI K`), so that the common small edits of an 80-column
/// screen cost no instructions.
pub(in crate::term) const FREE_UNITS: u64 = 3 * WORK_PER_BYTE;

/// REP's name in [`Work::take`]: its message is its own.
pub(in crate::term) const REP: &str = "REP";

impl Work {
    /// The units the budget allows for the output fed so far.
    fn allowed(&self) -> u64 {
        WORK_BASE.saturating_add(self.fed.saturating_mul(WORK_PER_BYTE))
    }

    /// `bytes` more of output fed: [`WORK_PER_BYTE`] units more each (none once passed).
    #[inline]
    pub(in crate::term) fn fed(&mut self, bytes: usize) {
        // (No overflow: 2^60 bytes would be needed.)
        self.fed += bytes as u64;
        self.left += bytes as u64 * self.per_byte;
    }

    /// Takes `units` of work for `op` (its name in a message: `DECCRA (CSI … $ v)`), or
    /// marks the budget passed and takes nothing: false means skip the operation.
    #[inline]
    pub(in crate::term) fn take(&mut self, units: u64, op: &'static str) -> bool {
        if units <= FREE_UNITS {
            return self.passed.is_none();
        }
        self.take_always(units, op)
    }

    /// [`Work::take`], however small `units` (a batch of line feeds, whose bytes are one each).
    #[inline]
    pub(in crate::term) fn take_always(&mut self, units: u64, op: &'static str) -> bool {
        if units <= self.left {
            self.left -= units;
            return true;
        }
        self.pass(op)
    }

    /// The budget passed by `op` (unless it was already): nothing is left from now on.
    #[cold]
    fn pass(&mut self, op: &'static str) -> bool {
        if self.passed.is_none() {
            self.done_then = self.allowed() - self.left;
            self.passed = Some(op);
            self.left = 0;
            self.per_byte = 0;
        }
        false
    }

    /// Takes `units` of work that is done whatever the budget says (a resize): counted, and
    /// passing the budget with it is reported as any other.
    pub(in crate::term) fn take_anyway(&mut self, units: u64, op: &'static str) {
        if !self.take(units, op) {
            self.over = self.over.saturating_add(units);
        }
    }

    /// The units taken so far.
    pub(in crate::term) fn done(&self) -> u64 {
        let taken = match self.passed {
            Some(_) => self.done_then,
            None => self.allowed() - self.left,
        };
        taken.saturating_add(self.over)
    }

    /// The message of [`Engine::limit_passed`](super::Engine::limit_passed) once the
    /// budget is passed (asked after every event).
    #[inline]
    pub(in crate::term) fn passed_message(&self) -> Option<String> {
        self.passed.map(|op| self.message(op))
    }

    #[cold]
    fn message(&self, op: &'static str) -> String {
        if op == REP {
            format!(
                "the output repeats characters (REP, `CSI n b`) more than tuicast replays: \
                 {WORK_BASE} prints and {WORK_PER_BYTE} more for each byte of output, \
                 {} for the {} bytes so far",
                self.allowed(),
                self.fed
            )
        } else {
            format!(
                "the output asks for more work than tuicast replays ({op} passed it): \
                 {WORK_BASE} units (a cell each; a sixteenth of a row copied whole) and \
                 {WORK_PER_BYTE} more for each byte of output, {} for the {} bytes so far; \
                 it and what follows are skipped",
                self.allowed(),
                self.fed
            )
        }
    }
}

/// How many times REP prints: `n` (at least 1), or, when that is more than a screenful
/// (`cols × rows` prints, enough to overwrite every cell the repeats can reach), a screenful
/// plus the same remainder of a line, so that the cursor ends where `n` repeats leave it. A
/// line holds `cols / width` repeats once wrapping, so counts that agree past a screenful and
/// modulo that are the same screen. `x` then a thousand `CSI 65535 b` (13 KB) printed 65
/// million characters; at 80x24 it prints two million.
pub(in crate::term) fn rep_count(n: u16, size: super::Size, width: usize) -> usize {
    let n = usize::from(n.max(1));
    let per_line = (usize::from(size.cols) / width).max(1);
    let screenful = usize::from(size.cols) * usize::from(size.rows);
    if n <= screenful {
        return n;
    }
    screenful + (n - screenful) % per_line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_grows_with_the_output_and_names_what_passed_it() {
        let mut w = Work::default();
        assert!(w.take(WORK_BASE, "ED (CSI J)"));
        assert!(!w.take(100, "DECCRA (CSI … $ v)"));
        assert_eq!(w.done(), WORK_BASE, "a refused operation takes nothing");
        // Once passed, every later operation is skipped, whatever the output fed since.
        w.fed(1000);
        assert!(!w.take(1, "ED (CSI J)"), "even what is too small to count");
        let m = w.passed_message().unwrap();
        assert!(m.contains("(DECCRA (CSI … $ v) passed it)"), "{m}");
        assert!(m.contains("16016000 for the 1000 bytes so far"), "{m}");
        let mut rep = Work::default();
        rep.fed(10);
        assert_eq!(rep.passed_message(), None);
        assert!(rep.take(WORK_BASE + 160, REP));
        assert!(!rep.take(100, REP));
        assert!(rep
            .passed_message()
            .unwrap()
            .starts_with("the output repeats characters (REP, `CSI n b`)"));
        let mut anyway = Work::default();
        anyway.take_anyway(WORK_BASE + 5, "a resize");
        assert_eq!(anyway.done(), WORK_BASE + 5);
        assert!(anyway
            .passed_message()
            .unwrap()
            .contains("(a resize passed it)"));
    }

    /// The native engine's REP past a screenful ([`rep_count`]) leaves the screen every
    /// repeat would (moved here from the retired avt layer's tests, issue 45).
    #[test]
    fn a_capped_rep_leaves_the_screen_that_every_repeat_would() {
        use crate::term::{Engine, NativeEngine, Screen, Size};
        let cases = [
            (Size { cols: 10, rows: 4 }, "x", ""),
            (Size { cols: 9, rows: 3 }, "\u{e9}", ""),
            (Size { cols: 8, rows: 5 }, "y", "\x1b[2;4r\x1b[3;5H"),
            (Size { cols: 8, rows: 3 }, "z", "\x1b[?7l"),
        ];
        for (size, ch, setup) in cases {
            for n in [1u16, 7, 39, 40, 41, 57, 100, 1001, 65535] {
                let mut capped = NativeEngine::new(size);
                capped.feed(&format!("{setup}ab{ch}\x1b[{n}b"));
                let mut every = NativeEngine::new(size);
                every.feed(&format!("{setup}ab{}", ch.repeat(usize::from(n) + 1)));
                // (The scrollback differs: a capped REP scrolls fewer lines off.)
                let view = |e: &NativeEngine| Screen {
                    state: Default::default(),
                    ..e.screen()
                };
                assert_eq!(view(&capped), view(&every), "{size} {ch:?} {setup:?} {n}");
            }
        }
        let size = Size { cols: 80, rows: 24 };
        assert_eq!(rep_count(65535, size, 1), 1920 + (65535 - 1920) % 80);
        assert_eq!(rep_count(0, size, 1), 1);
    }
}
