//! Edits on event streams: shorten idle pauses, change speed.
//!
//! Each transform wraps an iterator of events and yields events, so they stream and compose.

use super::{CastError, Event};

/// Caps every pause between consecutive events at `limit` seconds, shifting later events
/// earlier. This is what players do with a header's `idle_time_limit`.
pub fn idle_limit<I>(events: I, limit: f64) -> impl Iterator<Item = Result<Event, CastError>>
where
    I: Iterator<Item = Result<Event, CastError>>,
{
    let limit = limit.max(0.0);
    let mut prev_in = 0.0f64;
    let mut prev_out = 0.0f64;
    events.map(move |ev| {
        let mut ev = ev?;
        let gap = (ev.time - prev_in).max(0.0);
        prev_in = ev.time;
        prev_out += gap.min(limit);
        ev.time = prev_out;
        Ok(ev)
    })
}

/// Plays the events `factor` times faster (2.0 halves every time).
pub fn speed<I>(events: I, factor: f64) -> impl Iterator<Item = Result<Event, CastError>>
where
    I: Iterator<Item = Result<Event, CastError>>,
{
    let factor = if factor.is_finite() && factor > 0.0 {
        factor
    } else {
        1.0
    };
    events.map(move |ev| {
        let mut ev = ev?;
        ev.time /= factor;
        Ok(ev)
    })
}
