//! Durations and settle rules as scenarios write them (`300ms`, `10s`, `2m`; `auto`, `quiet:50ms`).

use super::*;

message_error!(
    /// Why a text is not a duration (`300ms`, `10s`, `2m`) or a settle rule.
    DurationError, DurationErrorKind {
        /// Not a number (with a unit) where a duration goes.
        NotANumber,
        /// A number with a unit other than `ms`, `s` or `m`.
        UnknownUnit,
        /// Negative, not finite, or over 24 hours.
        OutOfRange,
    }
);

/// Parses a settle rule: `auto`, `auto:PERIOD`, `quiet:PERIOD`, or a bare duration (the
/// quiet rule, as scenarios wrote it before `auto`).
pub fn parse_settle(text: &str) -> Result<Settle, DurationError> {
    let t = text.trim();
    if t == "auto" {
        return Ok(Settle::DEFAULT);
    }
    if let Some(period) = t.strip_prefix("auto:") {
        return parse_duration(period).map(Settle::Auto);
    }
    if let Some(period) = t.strip_prefix("quiet:") {
        return parse_duration(period).map(Settle::Quiet);
    }
    parse_duration(t).map(Settle::Quiet).map_err(|e| {
        DurationError::new(
            e.kind,
            format!("{e} (or \"auto\", \"auto:50ms\", \"quiet:50ms\")"),
        )
    })
}

/// Parses a duration like `300ms`, `10s`, `1.5s` or `2m` (a bare number is seconds).
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let t = text.trim();
    let (num, unit) = match t.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let shown = escape_for_terminal(text, 60);
    let n: f64 = num.trim().parse().map_err(|_| {
        DurationError::new(
            DurationErrorKind::NotANumber,
            format!(
                "\"{shown}\" is not a duration: use a number with ms, s or m, like 300ms or 10s"
            ),
        )
    })?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" | "min" => n * 60.0,
        _ => {
            return Err(DurationError::new(
                DurationErrorKind::UnknownUnit,
                format!("\"{shown}\" has an unknown unit: use ms, s or m"),
            ))
        }
    };
    if !(secs.is_finite() && (0.0..=86_400.0).contains(&secs)) {
        return Err(DurationError::new(
            DurationErrorKind::OutOfRange,
            format!("\"{shown}\" is out of range (0 to 24 hours)"),
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}
