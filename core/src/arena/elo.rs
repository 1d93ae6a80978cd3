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

/// An Elo difference estimated from wins, draws and losses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The mean score, `(wins + draws / 2) / games`.
    pub score: f64,
    /// The Elo difference that the score gives.
    pub elo: f64,
    /// Lower end of the 95% confidence interval.
    pub low: f64,
    /// Upper end of the 95% confidence interval.
    pub high: f64,
}

impl EloEstimate {
    /// The estimate for a `wins`/`draws`/`losses` record, or `None` with no games.
    ///
    /// The interval comes from the normal approximation of the mean score, whose per-game
    /// variance is measured from the three outcomes' frequencies (a trinomial), mapped through
    /// [`elo_from_score`].
    ///
    /// ```
    /// use ply::arena::EloEstimate;
    /// let e = EloEstimate::new(60, 30, 10).unwrap();
    /// assert!(e.low < e.elo && e.elo < e.high);
    /// assert_eq!(e.score, 0.75);
    /// ```
    pub fn new(wins: u64, draws: u64, losses: u64) -> Option<EloEstimate> {
        let n = (wins + draws + losses) as f64;
        if n == 0.0 {
            return None;
        }
        let (w, d, l) = (wins as f64 / n, draws as f64 / n, losses as f64 / n);
        let score = w + d / 2.0;
        let variance = w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2);
        let margin = 1.959_964 * (variance / n).sqrt();
        Some(EloEstimate {
            score,
            elo: elo_from_score(score),
            low: elo_from_score(score - margin),
            high: elo_from_score(score + margin),
        })
    }

    /// Half the width of the interval (`±` this many Elo), infinite when an end is unbounded.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
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

    #[test]
    fn all_draws_has_zero_width() {
        let e = EloEstimate::new(0, 10, 0).unwrap();
        assert_eq!((e.elo, e.low, e.high), (0.0, 0.0, 0.0));
        assert!(EloEstimate::new(0, 0, 0).is_none());
        assert_eq!(EloEstimate::new(5, 0, 0).unwrap().elo, f64::INFINITY);
    }
}
