//! How the values of agent-spec options are read and written: one reader per value type of
//! the key table in [`super`], each `None` for text it refuses.

use std::time::Duration;

use ply::search::TimeControl;

use super::{BookChoice, EgdbChoice, MAX_THREADS, MAX_TT_MB};

/// Reads a duration such as `100ms`, `2s`, `1.5s`, `250us`, `1m`.
///
/// # Errors
/// A message naming what is accepted.
pub fn parse_duration(text: &str) -> Result<Duration, &'static str> {
    const EXPECTED: &str = "a duration such as 100ms, 2s or 1.5s (units ns, us, ms, s, m)";
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).ok_or(EXPECTED)?;
    let (number, unit) = t.split_at(split);
    let scale = match unit {
        "ns" => 1e-9,
        "us" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        "m" => 60.0,
        _ => return Err(EXPECTED),
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(EXPECTED);
    }
    let value: f64 = number.parse().map_err(|_| EXPECTED)?;
    let secs = value * scale;
    if !secs.is_finite() || secs > 1e9 {
        return Err(EXPECTED);
    }
    // Whole units are converted exactly; only fractional input goes through floating point.
    if let Ok(whole) = number.parse::<u64>() {
        let nanos_per_unit: u64 = match unit {
            "ns" => 1,
            "us" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            _ => 60_000_000_000,
        };
        return Ok(Duration::from_nanos(whole * nanos_per_unit));
    }
    Ok(Duration::from_nanos((secs * 1e9).round() as u64))
}

/// Writes a duration in the largest unit that keeps it exact: `2s`, `1500ms`, `250us`.
pub fn format_duration(d: Duration) -> String {
    let nanos = d.as_nanos();
    if nanos == 0 {
        "0ms".to_string()
    } else if nanos.is_multiple_of(1_000_000_000) {
        format!("{}s", nanos / 1_000_000_000)
    } else if nanos.is_multiple_of(1_000_000) {
        format!("{}ms", nanos / 1_000_000)
    } else if nanos.is_multiple_of(1_000) {
        format!("{}us", nanos / 1_000)
    } else {
        format!("{nanos}ns")
    }
}

/// `true`, `on`, `yes`, `1` or `false`, `off`, `no`, `0`.
pub(super) fn boolean(text: &str) -> Option<bool> {
    match text {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// A non-zero duration.
pub(super) fn time(text: &str) -> Option<Duration> {
    parse_duration(text).ok().filter(|d| !d.is_zero())
}

/// A game clock, `[MOVES/]BASE[+INCREMENT]`: `2m+1s`, `40/5m`, `40/90m+30s`, `5m`.
pub(super) fn clock(text: &str) -> Option<TimeControl> {
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => {
            (Some(m.trim().parse::<u32>().ok().filter(|&m| (1..=1000).contains(&m))?), rest)
        }
        None => (None, text),
    };
    let (base, increment) = match rest.split_once('+') {
        Some((b, i)) => (b, parse_duration(i).ok()?),
        None => (rest, Duration::ZERO),
    };
    let base = parse_duration(base).ok().filter(|b| !b.is_zero())?;
    Some(TimeControl { base, increment, moves })
}

/// Writes a game clock as [`clock`] reads it.
pub(super) fn write_clock(value: &TimeControl) -> String {
    let moves = value.moves.map(|m| format!("{m}/")).unwrap_or_default();
    let increment = match value.increment.is_zero() {
        true => String::new(),
        false => format!("+{}", format_duration(value.increment)),
    };
    format!("{moves}{}{increment}", format_duration(value.base))
}

/// A positive number of plies.
pub(super) fn plies(text: &str) -> Option<u32> {
    parse_plies(text)
}

/// A depth in plies as every depth limit takes it (a spec's `depth=`, `--depth`, the
/// terminal's `depth N`): a whole number from 1 to [`ply::search::MAX_DEPTH`].
pub fn parse_plies(text: &str) -> Option<u32> {
    text.trim().parse().ok().filter(|d| (1..=ply::search::MAX_DEPTH).contains(d))
}

/// A positive count.
pub(super) fn count(text: &str) -> Option<u64> {
    text.parse().ok().filter(|&n| n > 0)
}

/// Any whole number (a seed).
pub(super) fn whole(text: &str) -> Option<u64> {
    text.parse().ok()
}

/// A table size in MiB, 1 to [`MAX_TT_MB`].
pub(super) fn table_mb(text: &str) -> Option<usize> {
    text.parse().ok().filter(|mb| (1..=MAX_TT_MB).contains(mb))
}

/// A number of threads, 1 to [`MAX_THREADS`].
pub(super) fn threads(text: &str) -> Option<usize> {
    text.parse().ok().filter(|n| (1..=MAX_THREADS).contains(n))
}

/// A small positive count, 1 to 256 (a batch of leaves, root moves sampled).
pub(super) fn small(text: &str) -> Option<usize> {
    text.parse().ok().filter(|n| (1..=256).contains(n))
}

/// A ProbCut margin, 0 (off) to a million.
pub(super) fn margin(text: &str) -> Option<f64> {
    text.parse().ok().filter(|m: &f64| m.is_finite() && (0.0..=1e6).contains(m))
}

/// A fraction from 0 up to, not including, 1.
pub(super) fn fraction(text: &str) -> Option<f64> {
    text.parse().ok().filter(|r: &f64| (0.0..1.0).contains(r))
}

/// A finite non-negative number.
pub(super) fn non_negative(text: &str) -> Option<f64> {
    text.parse().ok().filter(|c: &f64| c.is_finite() && *c >= 0.0)
}

/// A number of plies, or `none`.
pub(super) fn plies_or_none(text: &str) -> Option<Option<u32>> {
    match text {
        "none" => Some(None),
        _ => text.parse().ok().map(Some),
    }
}

/// Writes what [`plies_or_none`] reads.
pub(super) fn write_plies_or_none(value: &Option<u32>) -> String {
    value.map_or_else(|| "none".to_string(), |v| v.to_string())
}

/// A name of letters, digits, `-` and `_`.
pub(super) fn name(text: &str) -> Option<String> {
    let ok =
        !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "-_".contains(c));
    ok.then(|| text.to_string())
}

/// A book file, or `off`.
pub(super) fn book(text: &str) -> Option<BookChoice> {
    match text {
        "" => None,
        "off" => Some(BookChoice::Off),
        file => Some(BookChoice::File(file.to_string())),
    }
}

/// Writes what [`book`] reads.
pub(super) fn write_book(value: &BookChoice) -> String {
    match value {
        BookChoice::Off => "off".to_string(),
        BookChoice::File(f) => f.clone(),
    }
}

/// `on`, `off` or a directory.
pub(super) fn egdb(text: &str) -> Option<EgdbChoice> {
    match text {
        "" => None,
        "on" => Some(EgdbChoice::On),
        "off" => Some(EgdbChoice::Off),
        dir => Some(EgdbChoice::Dir(dir.to_string())),
    }
}

/// Writes what [`egdb`] reads.
pub(super) fn write_egdb(value: &EgdbChoice) -> String {
    match value {
        EgdbChoice::On => "on".to_string(),
        EgdbChoice::Off => "off".to_string(),
        EgdbChoice::Dir(d) => d.clone(),
    }
}

/// `HOST:PORT` with a non-empty host and a port from 1.
pub(super) fn address(text: &str) -> Option<String> {
    let ok = text.rsplit_once(':').is_some_and(|(host, port)| {
        !host.is_empty()
            && !host.contains(char::is_whitespace)
            && port.parse::<u16>().is_ok_and(|p| p > 0)
    });
    ok.then(|| text.to_string())
}

/// Any non-empty text (a command line).
pub(super) fn text(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_string())
}

/// Writes a value through its `Display`.
pub(super) fn display<T: std::fmt::Display>(value: &T) -> String {
    value.to_string()
}

/// Writes a duration ([`format_duration`]).
pub(super) fn write_time(value: &Duration) -> String {
    format_duration(*value)
}
