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

    /// The log-likelihood ratio of a `wins`/`draws`/`losses` record, by the generalised SPRT
    /// in the logistic model (as fishtest computes it): the observed distribution of game
    /// scores against the most likely distributions whose mean is the score `s0` or `s1` that
    /// H0 or H1 predicts (Van den Bergh's GSPRT). Every count is raised to at least 0.001
    /// first, so that a record without losses (or without wins) still decides: 200-0-0
    /// accepts H1 for `elo0 = 0, elo1 = 10`.
    ///
    /// ```
    /// use ply::arena::{Sprt, SprtDecision};
    /// let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05);
    /// assert_eq!(sprt.decide(200, 0, 0), SprtDecision::AcceptH1);
    /// assert_eq!(sprt.decide(0, 0, 200), SprtDecision::AcceptH0);
    /// ```
    pub fn llr(&self, wins: u64, draws: u64, losses: u64) -> f64 {
        self.llr_of(&[0.0, 0.5, 1.0], &[losses, draws, wins])
    }

    /// The log-likelihood ratio of a pentanomial record: `pairs[k]` game pairs (one opening
    /// played from both seats) in which the first agent scored `k / 2` points. Pairs remove
    /// the openings' bias from the variance, which makes the test sharper on paired
    /// schedules.
    pub fn llr_pentanomial(&self, pairs: [u64; 5]) -> f64 {
        self.llr_of(&[0.0, 0.25, 0.5, 0.75, 1.0], &pairs)
    }

    /// The GSPRT log-likelihood ratio for outcomes worth `values` (as fractions of the maximum
    /// score) observed `counts` times.
    fn llr_of(&self, values: &[f64], counts: &[u64]) -> f64 {
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return 0.0;
        }
        let regular: Vec<f64> = counts.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let total: f64 = regular.iter().sum();
        let p: Vec<f64> = regular.iter().map(|c| c / total).collect();
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        let log_mle = |s: f64| -> Vec<f64> {
            let x = lagrange(values, &p, s);
            values.iter().map(|&a| (1.0 + x * (a - s)).ln()).collect()
        };
        let (l0, l1) = (log_mle(s0), log_mle(s1));
        // p0_i = p_i / (1 + x0 (a_i - s0)), so ln(p1_i / p0_i) = l0_i - l1_i.
        let per_outcome: f64 =
            p.iter().zip(l0.iter().zip(&l1)).map(|(pi, (a, b))| pi * (a - b)).sum();
        n as f64 * per_outcome
    }

    /// The `(lower, upper)` LLR bounds: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The decision for a record.
    pub fn decide(&self, wins: u64, draws: u64, losses: u64) -> SprtDecision {
        self.decide_llr(self.llr(wins, draws, losses))
    }

    /// The decision for a pentanomial record (see [`Sprt::llr_pentanomial`]).
    pub fn decide_pentanomial(&self, pairs: [u64; 5]) -> SprtDecision {
        self.decide_llr(self.llr_pentanomial(pairs))
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide_llr(&self, llr: f64) -> SprtDecision {
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

/// The multiplier `x` of the most likely distribution with mean `s` given the observed
/// probabilities `p` of outcomes `values`: `p_i / (1 + x (a_i - s))` sums to 1 and has mean
/// `s` exactly when `sum p_i (a_i - s) / (1 + x (a_i - s)) = 0`, a decreasing function of `x`
/// on the interval where every `1 + x (a_i - s)` is positive; found by bisection.
fn lagrange(values: &[f64], p: &[f64], s: f64) -> f64 {
    let (lo_a, hi_a) = values.iter().fold((f64::MAX, f64::MIN), |(l, h), &a| (l.min(a), h.max(a)));
    if s <= lo_a || s >= hi_a {
        return 0.0;
    }
    let (mut lo, mut hi) = (-1.0 / (hi_a - s), 1.0 / (s - lo_a));
    let f = |x: f64| -> f64 {
        values.iter().zip(p).map(|(&a, &pi)| pi * (a - s) / (1.0 + x * (a - s))).sum()
    };
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Near the hypotheses the GSPRT agrees with its normal approximation (Van den Bergh):
    /// `n (s1 - s0) (2 s - s0 - s1) / (2 var)`; for 260-500-240 with elo0 = 0, elo1 = 10,
    /// s = 0.51, var = 0.26 * 0.49^2 + 0.5 * 0.01^2 + 0.24 * 0.51^2 = 0.1249, s0 = 0.5,
    /// s1 = 0.514387: 1000 * 0.014387 * 0.005613 / 0.2498 = 0.3233.
    #[test]
    fn llr_matches_the_normal_approximation_by_hand() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05);
        let llr = sprt.llr(260, 500, 240);
        assert!((llr - 0.3233).abs() < 0.002, "{llr}");
        // The same games as 500 pairs with the same mean: fewer (1/4-point) steps of variance.
        let pairs = sprt.llr_pentanomial([0, 120, 260, 120, 0]);
        assert!(pairs.is_finite());
    }

    /// A clean sweep decides both ways, after a number of games set by ln(s1 / s0) per game:
    /// ln(0.51439 / 0.5) = 0.0284, so about 104 wins pass the bound 2.944.
    #[test]
    fn sweeps_stop() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05);
        assert_eq!(sprt.decide(200, 0, 0), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide(0, 0, 200), SprtDecision::AcceptH0);
        assert_eq!(sprt.decide(20, 0, 0), SprtDecision::Continue, "20 wins are not enough");
        let llr = sprt.llr(100, 0, 0);
        assert!((llr - 100.0 * (0.51439f64 / 0.5).ln()).abs() < 0.05, "{llr}");
        assert_eq!(sprt.decide_pentanomial([0, 0, 0, 0, 150]), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide_pentanomial([150, 0, 0, 0, 0]), SprtDecision::AcceptH0);
        assert_eq!(sprt.decide(0, 300, 0), SprtDecision::AcceptH0, "all draws: no gain");
    }

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
