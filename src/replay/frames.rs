//! Timed screens for an animation: the frames of a GIF, without knowing how they are drawn.
//!
//! Output events that fall within one frame interval (1/fps) make one frame, shown from the
//! time of the first of them; a screen the same as the one before is no new frame. The blank
//! terminal is a frame only when the first output comes a frame interval or more after the
//! start; otherwise the animation starts with that output, at time 0. A cast that shows
//! nothing is one frame: the blank terminal.
//!
//! Times are those of the events given: apply [`transform::idle_limit`] and
//! [`transform::speed`] first to shorten pauses or change speed.
//!
//! [`transform::idle_limit`]: crate::cast::transform::idle_limit
//! [`transform::speed`]: crate::cast::transform::speed

use std::io::BufRead;

use super::Replayer;
use crate::cast::{CastError, CastReader, Event, EventData, Header};
use crate::term::{EngineSpec, Screen, Size};

/// The frames of `events` (a cast with `header`) at most `fps` a second (0 counts as 1),
/// replayed with an engine of `kind`: `(seconds, screen)` pairs in order.
pub fn frames<I>(header: &Header, events: I, kind: impl Into<EngineSpec>, fps: u32) -> Frames<I>
where
    I: Iterator<Item = Result<Event, CastError>>,
{
    Frames {
        events,
        replayer: Replayer::new(header, kind),
        frame_dt: 1.0 / fps.max(1) as f64,
        batch: None,
        last: None,
        done: false,
    }
}

/// The iterator of [`frames`]. It stops after the first error.
pub struct Frames<I> {
    events: I,
    replayer: Replayer,
    /// Seconds per frame.
    frame_dt: f64,
    /// The start of the output being gathered into the next frame.
    batch: Option<f64>,
    /// The last screen handed out; `None` before the first.
    last: Option<Screen>,
    done: bool,
}

impl<I> std::fmt::Debug for Frames<I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Frames")
            .field("replayer", &self.replayer)
            .field("frame_dt", &self.frame_dt)
            .finish_non_exhaustive()
    }
}

impl<I> Iterator for Frames<I>
where
    I: Iterator<Item = Result<Event, CastError>>,
{
    type Item = Result<(f64, Screen), CastError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let event = match self.events.next() {
                Some(Ok(event)) => event,
                Some(Err(e)) => {
                    self.done = true;
                    return Some(Err(e));
                }
                None => {
                    self.done = true;
                    let start = match self.batch.take() {
                        Some(start) => start,
                        // Nothing was shown: the blank terminal is the animation.
                        None if self.last.is_none() => 0.0,
                        None => return None,
                    };
                    if let Some(frame) = self.take(start) {
                        return Some(Ok(frame));
                    }
                    return None;
                }
            };
            let mut frame = None;
            if let Some(start) = self.batch {
                if event.time >= start + self.frame_dt {
                    self.batch = None;
                    frame = self.take(start);
                }
            }
            let changes = matches!(event.data, EventData::Output(_) | EventData::Resize(_));
            if changes && self.batch.is_none() {
                if self.last.is_none() && event.time >= self.frame_dt {
                    frame = self.take(0.0);
                }
                // The first frame is shown from the start.
                self.batch = Some(if self.last.is_none() { 0.0 } else { event.time });
            }
            self.replayer.apply(&event);
            if let Err(e) = self.replayer.within_limits() {
                return Some(Err(e));
            }
            if frame.is_some() {
                return frame.map(Ok);
            }
        }
        None
    }
}

impl<I> Frames<I> {
    /// The screen now as a frame from `time`, or `None` when it is the one shown already.
    fn take(&mut self, time: f64) -> Option<(f64, Screen)> {
        let screen = self.replayer.screen();
        // A frame is what is drawn: a bell, a clipboard write, the icon name or the
        // scrollback alone make no new one.
        if self
            .last
            .as_ref()
            .is_some_and(|last| same_drawing(last, &screen))
        {
            return None;
        }
        self.last = Some(screen.clone());
        Some((time, screen))
    }
}

/// Whether `a` and `b` draw the same picture (the title may be in a window frame).
fn same_drawing(a: &Screen, b: &Screen) -> bool {
    a.size == b.size
        && a.cursor == b.cursor
        && a.rows == b.rows
        && a.title == b.title
        && a.state.links == b.state.links
}

/// Every checkpoint of `events` with its time, in order (named as [`super::CheckpointNames`]
/// names them, at most [`super::MAX_CHECKPOINTS`]), and last [`super::END`] at the time of
/// the last event: where [`between`] may cut an animation. Pass the events as the animation
/// gets them (after an idle limit or a speed), so the times agree.
pub fn checkpoint_times<I>(events: I) -> Result<Vec<(String, f64)>, CastError>
where
    I: Iterator<Item = Result<Event, CastError>>,
{
    let mut names = super::CheckpointNames::default();
    let mut out = Vec::new();
    let mut last = 0.0f64;
    for event in events {
        let event = event?;
        last = last.max(event.time);
        if let Some(name) = names.checked(&event)? {
            out.push((name, event.time));
        }
    }
    out.push((names.end(), last));
    Ok(out)
}

/// The part of an animation's `frames` from `from` to `to` seconds, its times counted from
/// `from`: it starts with the screen shown at `from` (at 0) and ends with the last frame
/// shown at `to` or before.
pub fn between<I>(frames: I, from: f64, to: f64) -> Between<I>
where
    I: Iterator<Item = Result<(f64, Screen), CastError>>,
{
    Between {
        frames,
        from,
        to,
        before: None,
        pending: None,
        started: false,
        done: false,
    }
}

/// The iterator of [`between`].
#[derive(Debug)]
pub struct Between<I> {
    frames: I,
    from: f64,
    to: f64,
    /// The last frame shown at `from` or before, not handed out yet.
    before: Option<Screen>,
    /// The frame after the screen at `from`, handed out next.
    pending: Option<(f64, Screen)>,
    started: bool,
    done: bool,
}

impl<I> Iterator for Between<I>
where
    I: Iterator<Item = Result<(f64, Screen), CastError>>,
{
    type Item = Result<(f64, Screen), CastError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(frame) = self.pending.take() {
            return Some(Ok(frame));
        }
        if self.done {
            return None;
        }
        loop {
            let Some(item) = self.frames.next() else {
                self.done = true;
                return self.before.take().map(|s| Ok((0.0, s)));
            };
            let (time, screen) = match item {
                Ok(frame) => frame,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            if !self.started && time <= self.from {
                self.before = Some(screen);
                continue;
            }
            if time > self.to {
                self.done = true;
                return self.before.take().map(|s| Ok((0.0, s)));
            }
            if let Some(first) = self.before.take() {
                // The screen at `from` first; this one comes next.
                self.started = true;
                let next = (time - self.from, screen);
                self.pending = Some(next);
                return Some(Ok((0.0, first)));
            }
            self.started = true;
            return Some(Ok((time - self.from, screen)));
        }
    }
}

/// The largest terminal size of a cast: its header's size grown by every resize event. An
/// animation as large as this holds every frame.
pub fn largest_size<R: BufRead>(reader: CastReader<R>) -> Result<Size, CastError> {
    let mut size = reader.header().term.size;
    for event in reader.skim() {
        if let EventData::Resize(s) = event?.data {
            size.cols = size.cols.max(s.cols);
            size.rows = size.rows.max(s.rows);
        }
    }
    Ok(size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::EngineKind;

    fn header(cols: u16, rows: u16) -> Header {
        let mut h = Header::default();
        h.term.size = Size { cols, rows };
        h
    }

    fn ev(time: f64, data: EventData) -> Result<Event, CastError> {
        Ok(Event {
            time,
            line: 0,
            data,
        })
    }

    fn out(time: f64, text: &str) -> Result<Event, CastError> {
        ev(time, EventData::Output(text.into()))
    }

    /// The frames as (time, first row's text).
    fn run(events: Vec<Result<Event, CastError>>, fps: u32) -> Vec<(f64, String)> {
        frames(&header(8, 1), events.into_iter(), EngineKind::Native, fps)
            .map(|f| {
                let (t, s) = f.unwrap();
                (t, s.row_text(0).trim_end().to_string())
            })
            .collect()
    }

    #[test]
    fn between_starts_on_the_screen_at_from_and_ends_at_to() {
        let events = || {
            vec![
                out(0.0, "a"),
                ev(0.5, EventData::Marker("one".into())),
                out(1.0, "b"),
                out(2.0, "c"),
                ev(2.0, EventData::Marker("two".into())),
                ev(2.5, EventData::Marker("one".into())),
                out(3.0, "d"),
            ]
            .into_iter()
        };
        let times = checkpoint_times(events()).unwrap();
        assert_eq!(
            times,
            [
                ("one".to_string(), 0.5),
                ("two".into(), 2.0),
                ("one-2".into(), 2.5),
                ("end".into(), 3.0)
            ]
        );
        let cut = |from: f64, to: f64| -> Vec<(f64, String)> {
            between(
                frames(&header(8, 1), events(), EngineKind::Native, 10),
                from,
                to,
            )
            .map(|f| {
                let (t, s) = f.unwrap();
                (t, s.row_text(0).trim_end().to_string())
            })
            .collect()
        };
        assert_eq!(
            cut(0.5, 2.0),
            [(0.0, "a".into()), (0.5, "ab".into()), (1.5, "abc".into())]
        );
        assert_eq!(cut(2.5, 3.0), [(0.0, "abc".into()), (0.5, "abcd".into())]);
        assert_eq!(cut(3.5, 9.0), [(0.0, "abcd".to_string())]);
        assert_eq!(cut(0.0, 0.0), [(0.0, "a".to_string())]);
    }

    #[test]
    fn output_within_a_frame_interval_is_one_frame() {
        let f = run(
            vec![out(0.0, "a"), out(0.05, "b"), out(0.2, "c"), out(0.25, "d")],
            10,
        );
        assert_eq!(f, [(0.0, "ab".into()), (0.2, "abcd".into())]);
    }

    #[test]
    fn late_output_starts_on_the_blank_terminal() {
        let f = run(vec![out(0.5, "a"), out(1.0, "b")], 10);
        assert_eq!(
            f,
            [(0.0, String::new()), (0.5, "a".into()), (1.0, "ab".into())]
        );
        let f = run(vec![out(0.05, "a")], 10);
        assert_eq!(f, [(0.0, "a".into())], "early output is the first frame");
    }

    #[test]
    fn unchanged_screens_and_quiet_casts() {
        // Writing the same text again changes nothing: no new frame.
        let f = run(vec![out(0.0, "a"), out(1.0, "\ra"), out(2.0, "b")], 10);
        assert_eq!(f, [(0.0, "a".into()), (2.0, "ab".into())]);
        // A bell or a clipboard write is drawn nowhere: no new frame either.
        let f = run(
            vec![
                out(0.0, "a"),
                out(1.0, "\x07\x1b]52;c;aGk=\x07"),
                out(2.0, "b"),
            ],
            10,
        );
        assert_eq!(f, [(0.0, "a".into()), (2.0, "ab".into())]);
        // Nor does a terminal mode alone.
        let f = run(
            vec![out(0.0, "a"), out(1.0, "\x1b[?1000h"), out(2.0, "b")],
            10,
        );
        assert_eq!(f, [(0.0, "a".into()), (2.0, "ab".into())]);
        let f = run(vec![ev(1.0, EventData::Marker("m".into()))], 10);
        assert_eq!(f, [(0.0, String::new())], "the blank terminal");
        assert_eq!(run(Vec::new(), 0), [(0.0, String::new())]);
    }

    #[test]
    fn an_error_ends_the_frames() {
        let bad = CastError::new(crate::cast::CastErrorKind::Event, 3, 1, "bad");
        let mut f = frames(
            &header(8, 1),
            vec![out(0.0, "a"), Err(bad), out(1.0, "b")].into_iter(),
            EngineKind::Native,
            10,
        );
        assert!(f.next().unwrap().is_err());
        assert!(f.next().is_none());
    }
}
