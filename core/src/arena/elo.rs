//! Elo differences from match scores, with a 95% confidence interval.

/// The expected score of a player `elo` points stronger than its opponent (logistic model).
///
/// ```
/// use ply::arena::score_from_elo;
/// assert!((score_from_elo(0.0) - 0.5).abs() < 1e-12);
/// assert!((score_from_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
/// ```
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives expected score `score` (in `(0, 1)`); infinite at 0 and 1.
///
/// ```
/// use ply::arena::elo_from_score;
/// // A 75% score is about +191 Elo.
/// assert_eq!(elo_from_score(0.75).round(), 191.0);
/// ```
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The z value of a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// A match score with its Elo difference and 95% confidence interval.
///
/// The interval is Wilson's score interval generalised to draws: the scores `p` with
/// `(s - p)^2 <= z^2 V(p) / n`, where `s` is the mean score of `n` games and `V(p)` the
/// per-game variance a true score `p` gives with the observed draw rate `d`,
/// `p (1 - p) - d / 4`. Without draws it is Wilson's interval. Unlike `s ± z sqrt(var / n)`,
/// it stays honest at the edges: a clean sweep has a finite lower bound (20-0 gives
/// `+inf [+287, +inf]`), and an even score is exactly 0, never `-0`.
///
/// ```
/// use ply::arena::EloEstimate;
/// let e = EloEstimate::new(20, 0, 0).unwrap();
/// assert!(e.elo.is_infinite() && e.low.is_finite() && e.low > 250.0);
/// assert_eq!(EloEstimate::new(3, 4, 3).unwrap().elo.to_string(), "0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The mean score in `[0, 1]` (a draw is half a point).
    pub score: f64,
    /// The Elo difference the score implies (infinite for a clean sweep).
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
}

/// `x` with a negative zero made positive, so it prints as `0`.
fn unsigned_zero(x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else {
        x
    }
}

impl EloEstimate {
    /// The estimate for a record of wins, draws and losses; `None` before any game.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Option<EloEstimate> {
        let n = wins + draws + losses;
        if n == 0 {
            return None;
        }
        let score = (wins as f64 + draws as f64 / 2.0) / n as f64;
        // A win/draw/loss record is a pentanomial one with no split results.
        let delta = variance_shortfall(&[losses, 0, draws, 0, wins]);
        let (low, high) = wilson(score, delta, n as f64);
        Some(EloEstimate::from_bounds(score, low, high))
    }

    /// The estimate for game pairs (each opening played from both seats): `pairs[k]` is the
    /// number of pairs in which the first agent scored `k / 2` points over the two games
    /// (0, 0.5, 1, 1.5 or 2), the pentanomial record. The interval is the same generalised
    /// Wilson interval over the `N` pair scores (each `k / 4`), whose observed variance
    /// replaces the trinomial one: pairing removes the openings' bias from the variance, and a
    /// sweep still has a finite bound. `None` before any pair.
    ///
    /// ```
    /// use ply::arena::EloEstimate;
    /// let e = EloEstimate::from_pentanomial([0, 2, 10, 6, 2]).unwrap();
    /// assert_eq!(e.score, 0.6);
    /// assert!(e.low < e.elo && e.elo < e.high);
    /// // Ten openings that each split 1-1 are even, but not proven exactly even.
    /// let even = EloEstimate::from_pentanomial([0, 0, 10, 0, 0]).unwrap();
    /// assert!(even.elo == 0.0 && even.low < -50.0 && even.high > 50.0);
    /// ```
    pub fn from_pentanomial(pairs: [u64; 5]) -> Option<EloEstimate> {
        let n: u64 = pairs.iter().sum();
        if n == 0 {
            return None;
        }
        let score = mean_quarter(&pairs);
        let (low, high) = wilson(score, variance_shortfall(&pairs), n as f64);
        Some(EloEstimate::from_bounds(score, low, high))
    }

    fn from_bounds(score: f64, low: f64, high: f64) -> EloEstimate {
        EloEstimate {
            score,
            elo: unsigned_zero(elo_from_score(score)),
            low: unsigned_zero(elo_from_score(low)),
            high: unsigned_zero(elo_from_score(high)),
        }
    }

    /// Half the interval's width in Elo.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// The mean of a record whose `counts[k]` observations scored `k / 4` each.
fn mean_quarter(counts: &[u64; 5]) -> f64 {
    let n: u64 = counts.iter().sum();
    counts.iter().enumerate().map(|(k, &c)| c as f64 * k as f64 / 4.0).sum::<f64>() / n as f64
}

/// How far the variance of a record (`counts[k]` observations scoring `k / 4`) falls short of
/// a win/loss coin's `s (1 - s)` at its mean `s`: the `delta` of [`wilson`]. It is measured
/// with half an observation more at each extreme (a score of 0 and one of 1, as in Jeffreys'
/// prior), which keeps the interval of a record with no variance (only draws, only split
/// pairs) from shrinking to a point and leaves a sweep's shortfall at 0.
fn variance_shortfall(counts: &[u64; 5]) -> f64 {
    let mut c = counts.map(|x| x as f64);
    c[0] += 0.5;
    c[4] += 0.5;
    let n: f64 = c.iter().sum();
    let s = c.iter().enumerate().map(|(k, &x)| x * k as f64 / 4.0).sum::<f64>() / n;
    let var = c.iter().enumerate().map(|(k, &x)| x * (k as f64 / 4.0 - s).powi(2)).sum::<f64>() / n;
    (s * (1.0 - s) - var).max(0.0)
}

/// The generalised Wilson interval of a mean score `s` over `n` observations whose variance
/// falls short of a win/loss coin's `p (1 - p)` by `delta`: the `p` with
/// `(s - p)^2 <= z^2 (p (1 - p) - delta) / n`.
fn wilson(s: f64, delta: f64, n: f64) -> (f64, f64) {
    // (1 + k) p^2 - (2 s + k) p + s^2 + k delta = 0, with k = z^2 / n.
    let k = Z95 * Z95 / n;
    let a = 1.0 + k;
    let b = 2.0 * s + k;
    let disc = (b * b - 4.0 * a * (s * s + k * delta)).max(0.0);
    let root = disc.sqrt();
    // At a sweep one root is exactly the observed 0 or 1; rounding must not move it inside.
    let low = if s <= 0.0 { 0.0 } else { ((b - root) / (2.0 * a)).clamp(0.0, 1.0) };
    let high = if s >= 1.0 { 1.0 } else { ((b + root) / (2.0 * a)).clamp(0.0, 1.0) };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
        assert!((elo_from_score(0.25) + 190.85).abs() < 0.01);
        for elo in [-300.0, -50.0, 0.0, 120.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
    }

    #[test]
    fn interval_shrinks_with_games() {
        let small = EloEstimate::new(6, 2, 2).unwrap();
        let large = EloEstimate::new(600, 200, 200).unwrap();
        assert_eq!(small.score, large.score);
        assert!(large.half_width() < small.half_width());
        assert!(large.low < large.elo && large.elo < large.high);
    }

    /// 0-10-0 by hand: with half a win and half a loss the variance is 0.25 / 11, the
    /// shortfall 0.25 - 0.25 / 11 = 0.22727; k = 1.96^2 / 10 = 0.38415:
    /// 1.38415 p^2 - 1.38415 p + 0.25 + 0.08731 = 0 has the roots 0.5 -+ 0.0794, -+55.5 Elo.
    #[test]
    fn all_draws_keeps_a_width() {
        let e = EloEstimate::new(0, 10, 0).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!((e.high - 55.5).abs() < 0.5 && (e.low + 55.5).abs() < 0.5, "{e:?}");
        let pairs = EloEstimate::from_pentanomial([0, 0, 10, 0, 0]).unwrap();
        assert!(pairs.low < -50.0 && pairs.high > 50.0, "{pairs:?}");
        assert!(EloEstimate::new(0, 0, 0).is_none());
        assert_eq!(EloEstimate::new(5, 0, 0).unwrap().elo, f64::INFINITY);
    }

    /// 20-0 by hand: k = 1.96^2 / 20 = 0.19208, (1 + k) p^2 - (2 + k) p + 1 = 0 has the roots
    /// 1 and 1 / (1 + k) = 0.83887, which is +286.6 Elo.
    #[test]
    fn a_sweep_has_a_finite_lower_bound() {
        let e = EloEstimate::new(20, 0, 0).unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(e.high, f64::INFINITY);
        assert!((e.low - 286.6).abs() < 0.1, "{e:?}");
        let e = EloEstimate::new(0, 0, 20).unwrap();
        assert!((e.high + 286.6).abs() < 0.1 && e.low == f64::NEG_INFINITY, "{e:?}");
    }

    /// Without draws the interval is Wilson's: 15 of 20 gives [0.531, 0.888] (Wilson's
    /// interval for 15/20, computed by hand: centre 0.7125, half-width 0.1787).
    #[test]
    fn without_draws_it_is_wilsons_interval() {
        let e = EloEstimate::new(15, 0, 5).unwrap();
        let (lo, hi) = (score_from_elo(e.low), score_from_elo(e.high));
        assert!((lo - 0.5313).abs() < 1e-3 && (hi - 0.8880).abs() < 1e-3, "{lo} {hi}");
    }

    #[test]
    fn even_scores_are_zero_not_minus_zero() {
        for (w, d, l) in [(3, 4, 3), (0, 10, 0), (5, 0, 5)] {
            let e = EloEstimate::new(w, d, l).unwrap();
            assert_eq!(format!("{:+.0}", e.elo), "+0", "{w}-{d}-{l}");
        }
        let e = EloEstimate::from_pentanomial([1, 0, 2, 0, 1]).unwrap();
        assert_eq!(format!("{:+.0}", e.elo), "+0");
    }

    /// Pair scores 0, 0.25, 0.5, 0.75, 1 with counts 0, 2, 10, 6, 2: mean 0.6. With half a
    /// pair more at each extreme (counts 0.5, 2, 10, 6, 2.5 over 21) the mean is 0.595238,
    /// the variance 1.059523 / 21 = 0.050454, the shortfall 0.240930 - 0.050454 = 0.190476;
    /// k = 1.96^2 / 20 = 0.19208: 1.19208 p^2 - 1.39208 p + 0.36 + 0.036587 = 0 has the
    /// roots 0.4931 and 0.6747.
    #[test]
    fn pentanomial_interval_by_hand() {
        let e = EloEstimate::from_pentanomial([0, 2, 10, 6, 2]).unwrap();
        let (lo, hi) = (score_from_elo(e.low), score_from_elo(e.high));
        assert!((lo - 0.4931).abs() < 1e-3 && (hi - 0.6747).abs() < 1e-3, "{lo} {hi}");
        // A sweep of 10 pairs is Wilson's interval for 10 of 10: p >= 1 / (1 + 1.96^2 / 10)
        // = 0.7225, +166 Elo.
        let sweep = EloEstimate::from_pentanomial([0, 0, 0, 0, 10]).unwrap();
        assert!((sweep.low - elo_from_score(0.7225)).abs() < 1.0, "{sweep:?}");
        assert_eq!(sweep.high, f64::INFINITY);
        assert!(EloEstimate::from_pentanomial([0; 5]).is_none());
    }
}
