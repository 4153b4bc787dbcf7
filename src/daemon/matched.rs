//! What a wait matched and where: the `matched` field of a wait's reply, found on the screens
//! the reply shows (secrets starred) once the wait has succeeded.
//!
//! Every wait names its kind (`wait`); a wait about a place gives its first and last cell
//! (`at`, `to`, from 1), one about a value gives the value (`text`, `prompt`, `screen_hash`,
//! `idle_ms`, `code`, `echo`). The table is in docs/agents.md ("What a wait matched").
//!
//! It also gives every reply's `screen_hash` (`term::Screen::hash_hex`); the matched value is
//! `protocol::Matched`. The worker keeps the last 16 screens shown by hash, so `wait
//! --changed` tells the cells that changed.

use super::protocol::Matched;
use crate::inspect::classify;
use crate::pos::Place;
use crate::record::{Action, Session, Wait};
use crate::term::Screen;

/// What the successful `action` (a wait or an exit) matched: `before` is the screen when it
/// began, `after` the screen now, both with secrets starred. `None` for any other action.
pub(super) fn matched(
    action: &Action,
    session: &Session,
    before: &Screen,
    after: &Screen,
) -> Option<Matched> {
    let wait = match action {
        Action::Wait(w) => w,
        Action::Exit(_) => {
            return Some(Matched {
                wait: "exit".into(),
                code: session.status(),
                ..Matched::default()
            })
        }
        _ => return None,
    };
    let named = |kind: &str| Matched {
        wait: kind.to_string(),
        ..Matched::default()
    };
    let idle_ms = Some(session.since_output().as_millis() as u64);
    Some(match wait {
        Wait::Text(t) => {
            let text = after.text();
            let span = text.find(t.as_str()).map(|i| i..i + t.len());
            with_span(named("text"), after, span, Some(t.clone()))
        }
        Wait::Regex(re) => {
            let text = after.text();
            let found = re.find(&text);
            let shown = found.map(|m| m.as_str().to_string());
            with_span(named("regex"), after, found.map(|m| m.range()), shown)
        }
        Wait::Gone(t) => {
            // Where it was: on the screen before the wait (nowhere when it was gone already).
            let text = before.text();
            let span = text.find(t.as_str()).map(|i| i..i + t.len());
            with_span(named("gone"), before, span, Some(t.clone()))
        }
        Wait::Idle(_) => Matched {
            idle_ms,
            ..named("idle")
        },
        Wait::Silent(_) => Matched {
            idle_ms,
            ..named("silent")
        },
        Wait::Changed(old) => {
            let mut m = Matched {
                screen_hash: Some(after.hash_hex()),
                ..named("changed")
            };
            // The cells that changed, when the screen the wait began on is the one of the
            // hash (an older hash: the screen it names is not known here).
            if before.hash_hex() == *old {
                if let Some((a, b)) = changed_cells(before, after) {
                    m.at = Some(a);
                    m.to = Some(b);
                }
            }
            m
        }
        Wait::Cursor(..) => {
            let at = after.cursor.place();
            Matched {
                at: Some(at),
                to: Some(at),
                ..named("cursor")
            }
        }
        Wait::Echo(on) => Matched {
            echo: Some(*on),
            ..named("echo")
        },
        Wait::Title(_) => Matched {
            text: after.title.as_deref().map(|t| session.scrub_secrets(t)),
            ..named("title")
        },
        Wait::Bell => named("bell"),
        Wait::CommandDone => {
            // The last command's status and output, as `@shell.status` and `@shell.output`
            // read them from the marks.
            let refs = crate::inspect::shell_mark_refs(after).unwrap_or_default();
            let of = |role: &str| refs.iter().find(|r| r.role == role);
            let mut m = Matched {
                code: of("status").and_then(|r| r.value.as_deref()?.parse().ok()),
                ..named("command_done")
            };
            if let Some(o) = of("output") {
                m.at = Some(o.rect.first_place());
                m.to = Some(o.rect.last_place());
                m.text = Some(o.text.clone());
            }
            m
        }
        Wait::Clipboard(t) => Matched {
            text: after
                .state
                .clipboard
                .iter()
                .rev()
                .find(|w| w.text.contains(t.as_str()))
                .map(|w| session.scrub_secrets(&w.text)),
            ..named("clipboard")
        },
        Wait::Ref(r) => {
            // What it found now, or (gone) what it found on the screen the wait began on.
            let program = session.program_name();
            let shown = if r.gone { before } else { after };
            // (The wait succeeded, so its adapters answered on this screen.)
            let found = r
                .find(shown, program)
                .ok()
                .and_then(|f| f.into_iter().next());
            let mut m = named("ref");
            if let Some(f) = found {
                m.at = Some(f.rect.first_place());
                m.to = Some(f.rect.last_place());
                m.text = Some(f.text);
                m.value = f.value;
                m.ref_name = Some(f.name);
            }
            m
        }
        Wait::Prompt(_) | Wait::AnyPrompt => {
            let prompt = classify(after, &after.outline(), session.modes());
            let text = after.text();
            let evidence = prompt.evidence.trim();
            let span = (!evidence.is_empty())
                .then(|| text.rfind(evidence).map(|i| i..i + evidence.len()))
                .flatten();
            let m = Matched {
                prompt: Some(prompt.kind.name().to_string()),
                ..named("prompt")
            };
            with_span(m, after, span, Some(prompt.evidence.clone()))
        }
    })
}

/// `m` with `text` and the cells of the bytes `span` of `screen`'s text.
fn with_span(
    mut m: Matched,
    screen: &Screen,
    span: Option<std::ops::Range<usize>>,
    text: Option<String>,
) -> Matched {
    m.text = text;
    if let Some(((r0, c0), (r1, c1))) = span.and_then(|s| screen.cells_of_text(s)) {
        m.at = Some(Place::of(r0, c0));
        m.to = Some(Place::of(r1, c1));
    }
    m
}

/// The first and last cells, in reading order, of the smallest rectangle holding every cell
/// that differs between `a` and `b` (`None`: none does, or their sizes differ).
fn changed_cells(a: &Screen, b: &Screen) -> Option<(Place, Place)> {
    if a.size != b.size {
        return None;
    }
    let mut rect: Option<(usize, usize, usize, usize)> = None;
    for (r, (x, y)) in a.rows.iter().zip(&b.rows).enumerate() {
        for (c, (p, q)) in x.iter().zip(y).enumerate() {
            if p != q {
                rect = Some(match rect {
                    None => (r, c, r, c),
                    Some((r0, c0, r1, c1)) => (r0.min(r), c0.min(c), r1.max(r), c1.max(c)),
                });
            }
        }
    }
    // A cursor that moved alone: its two places.
    let cursor = |s: &Screen| {
        s.cursor
            .visible
            .then_some((usize::from(s.cursor.row), usize::from(s.cursor.col)))
    };
    if rect.is_none() && cursor(a) != cursor(b) {
        for (r, c) in [cursor(a), cursor(b)].into_iter().flatten() {
            rect = Some(match rect {
                None => (r, c, r, c),
                Some((r0, c0, r1, c1)) => (r0.min(r), c0.min(c), r1.max(r), c1.max(c)),
            });
        }
    }
    rect.map(|(r0, c0, r1, c1)| (Place::of(r0, c0), Place::of(r1, c1)))
}
