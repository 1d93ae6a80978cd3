//! Human-readable counts, rates and durations for the programs' output.

use std::time::Duration;

/// A count or rate with an SI suffix and three significant digits: `950`, `12.3k`, `4.56M`.
pub(crate) fn si(value: f64) -> String {
    let (scaled, suffix) = if value >= 1e9 {
        (value / 1e9, "G")
    } else if value >= 1e6 {
        (value / 1e6, "M")
    } else if value >= 1e3 {
        (value / 1e3, "k")
    } else {
        return format!("{value:.0}");
    };
    if scaled >= 100.0 {
        format!("{scaled:.0}{suffix}")
    } else if scaled >= 10.0 {
        format!("{scaled:.1}{suffix}")
    } else {
        format!("{scaled:.2}{suffix}")
    }
}

/// `count` per second over `elapsed` (0 when nothing was measured).
pub fn rate(count: u64, elapsed: Duration) -> f64 {
    let s = elapsed.as_secs_f64();
    if s > 0.0 {
        count as f64 / s
    } else {
        0.0
    }
}

/// A duration in seconds with millisecond precision: `0.104s`, `12.300s`.
pub fn secs(d: Duration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}

/// A duration in hours, minutes and seconds for estimates: `42s`, `3m05s`, `1h02m`.
pub(crate) fn hms(d: Duration) -> String {
    let s = d.as_secs();
    if s < 60 {
        format!("{s}s")
    } else if s < 3600 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn si_suffixes() {
        assert_eq!(si(950.0), "950");
        assert_eq!(si(12_345.0), "12.3k");
        assert_eq!(si(4_560_000.0), "4.56M");
        assert_eq!(si(151_000_000.0), "151M");
        assert_eq!(si(2.5e9), "2.50G");
    }

    #[test]
    fn durations() {
        assert_eq!(secs(Duration::from_millis(104)), "0.104s");
        assert_eq!(hms(Duration::from_secs(185)), "3m05s");
        assert_eq!(hms(Duration::from_secs(3720)), "1h02m");
        assert_eq!(rate(10, Duration::ZERO), 0.0);
        assert_eq!(rate(10, Duration::from_secs(2)), 5.0);
    }
}
