//! The sequential probability ratio test: stop a match as soon as it shows whether one agent
//! is at least `elo1` stronger (H1) or at most `elo0` (H0).

use super::elo::score_from_elo;

/// SPRT settings: the two hypotheses in Elo and the error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under H0 (no improvement), e.g. 0.
    pub elo0: f64,
    /// Elo difference under H1 (improvement), e.g. 10.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not decided yet: play on.
    Continue,
    /// H0 accepted: no improvement of `elo1` or more.
    AcceptH0,
    /// H1 accepted: the first agent is stronger.
    AcceptH1,
}

impl Sprt {
    /// The usual engine-testing settings: H0 = 0 Elo, H1 = `elo1`, alpha = beta = 0.05.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
        Sprt { elo0, elo1, alpha, beta }
    }

    /// The log-likelihood ratio of a `wins`/`draws`/`losses` record, by the generalised SPRT's
    /// normal approximation: `n (s1 - s0) (2 s - s0 - s1) / (2 var)`, where `s` is the mean
    /// score, `var` its per-game variance and `s0`, `s1` the scores the hypotheses predict.
    pub fn llr(&self, wins: u64, draws: u64, losses: u64) -> f64 {
        let n = (wins + draws + losses) as f64;
        if n == 0.0 || (wins == 0 && losses == 0) && draws == 0 {
            return 0.0;
        }
        let (w, d, l) = (wins as f64 / n, draws as f64 / n, losses as f64 / n);
        let s = w + d / 2.0;
        let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        if var <= 0.0 {
            // All results equal: too early to tell from the variance; play on.
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The `(lower, upper)` LLR bounds: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The decision for a record.
    pub fn decide(&self, wins: u64, draws: u64, losses: u64) -> SprtDecision {
        let llr = self.llr(wins, draws, losses);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_match_wald() {
        let (lo, hi) = Sprt::new(0.0, 10.0, 0.05, 0.05).bounds();
        assert!((lo + 2.944).abs() < 1e-3);
        assert!((hi - 2.944).abs() < 1e-3);
    }

    #[test]
    fn clear_results_are_decided() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05);
        assert_eq!(sprt.decide(10, 5, 8), SprtDecision::Continue);
        // A 75% score over 400 games is far above +10 Elo.
        assert_eq!(sprt.decide(250, 100, 50), SprtDecision::AcceptH1);
        // An even score over many games is well below +10 Elo.
        assert_eq!(sprt.decide(4000, 2000, 4000), SprtDecision::AcceptH0);
        assert_eq!(sprt.decide(0, 0, 0), SprtDecision::Continue);
    }

    #[test]
    fn llr_grows_with_evidence() {
        let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05);
        let a = sprt.llr(30, 40, 20);
        let b = sprt.llr(300, 400, 200);
        assert!(a > 0.0 && b > a);
    }
}
