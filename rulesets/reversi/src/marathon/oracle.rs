//! A contestant that is told the opponents' weights: the ceiling of inference, and how fast
//! planning degrades when the weights it plans with are wrong.
//!
//! [`OracleContestant`] plays [`plan`] against models of the opponents built from the test
//! case's true strategies: exactly, with uniform noise added to every weight
//! ([`OracleConfig::noise`]), or with each opponent played by the next opponent's weights
//! ([`OracleConfig::other`], the error of knowing the shared population but not the
//! individual). It is a benchmark, not a contestant of the contest: it reads what the contest
//! hides. It counts how many opponent moves its models predicted, like
//! [`super::InferenceContestant`], so scores can be set against prediction rates.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::contest::{board_state, Contestant, TestCase};
use super::inference::{InferenceStats, PHASES};
use super::modelling::reconstruct;
use super::planning::plan;
use super::strategy::Strategy;
use crate::board::{bit_test, for_each_bit, Bits};
use crate::{Reversi, ReversiMove, ReversiState};

/// Settings of [`OracleContestant`].
#[derive(Clone, Debug, PartialEq)]
pub struct OracleConfig {
    /// Each model weight is the true one plus uniform noise in `[-noise, noise]` (the
    /// weights themselves start in `[-50, 50]`).
    pub noise: f64,
    /// Model opponent `i` with the weights of opponent `i + 1` (cyclically) instead of its
    /// own: another member of the same evolved population.
    pub other: bool,
    /// Positions the single-agent search may visit per move.
    pub nodes: u64,
    /// Seed of the noise.
    pub seed: u64,
}

impl Default for OracleConfig {
    fn default() -> Self {
        OracleConfig { noise: 0.0, other: false, nodes: 200, seed: 0 }
    }
}

/// Plans against given models of the opponents (see the module docs).
pub struct OracleContestant {
    config: OracleConfig,
    game: Reversi,
    /// `models[seat]`; seat 0 (the contestant) is unused.
    models: Vec<Strategy>,
    last: Option<ReversiState>,
    /// Opponent moves seen and predicted, per phase, and own moves planned.
    pub stats: InferenceStats,
}

impl OracleContestant {
    /// The oracle for `case` with these settings.
    pub fn new(case: &TestCase, config: OracleConfig) -> OracleContestant {
        let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
        let n = case.opponents.len();
        let cells = case.size * case.size;
        let mut models = vec![Strategy::new(vec![1.0; cells])];
        for i in 0..n {
            let source =
                if config.other { &case.opponents[(i + 1) % n] } else { &case.opponents[i] };
            let weights = source
                .weights
                .iter()
                .map(|&w| {
                    if config.noise > 0.0 {
                        w + rng.gen_range(-config.noise..=config.noise)
                    } else {
                        w
                    }
                })
                .collect();
            models.push(Strategy::new(weights));
        }
        OracleContestant {
            config,
            game: case.game(),
            models,
            last: None,
            stats: InferenceStats::default(),
        }
    }

    /// Counts the opponents' moves since the contestant's last move and whether the models
    /// chose them.
    fn observe(&mut self, now: &ReversiState) {
        let Some(from) = self.last else { return };
        let (occ_now, occ_then) = (now.occupied(), from.occupied());
        let new_cells: Bits = std::array::from_fn(|w| occ_now[w] & !occ_then[w]);
        let mut path = Vec::new();
        if !reconstruct(&self.game, from, now, &new_cells, &mut path) {
            self.stats.unexplained += 1;
            return;
        }
        let cells = self.game.size() * self.game.size();
        for (state, sq) in path {
            let seat = state.to_move as usize;
            let filled = 1.0 - f64::from(state.empties()) / cells as f64;
            let phase = ((filled * PHASES as f64) as usize).min(PHASES - 1);
            let guess = self.models[seat].choose(&self.game, &state).and_then(|m| m.square());
            self.stats.observed[phase] += 1;
            self.stats.predicted[phase] += u32::from(guess == Some(sq));
        }
    }
}

impl Contestant for OracleContestant {
    fn name(&self) -> String {
        format!(
            "oracle(noise={},other={},nodes={})",
            self.config.noise, self.config.other, self.config.nodes
        )
    }

    fn choose_move(&mut self, board: &[String]) -> (usize, usize) {
        let size = self.game.size();
        let Some(state) = board_state(&self.game, board).filter(|_| board.len() == size) else {
            return (usize::MAX, usize::MAX);
        };
        self.observe(&state);
        let placements = self.game.placements(&state, 0);
        let mut first = None;
        for_each_bit(&placements, |sq| {
            first.get_or_insert(sq);
        });
        let Some(first) = first else { return (usize::MAX, usize::MAX) };
        let models: Vec<&Strategy> = self.models.iter().collect();
        let sq = plan(&self.game, &state, &models, self.config.nodes)
            .map(|p| p.square)
            .filter(|&sq| bit_test(&placements, sq))
            .unwrap_or(first);
        self.stats.planned += 1;
        let mut after = state;
        ply::Game::apply(&self.game, &mut after, ReversiMove::Place(sq as u8));
        self.last = Some(after);
        (sq % size, sq / size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marathon::GeneticConfig;

    fn quick_case(k: u64) -> TestCase {
        let config =
            GeneticConfig { generations: 3..=3, games_per_generation: 10, ..Default::default() };
        TestCase::generate_with(k, 7, &config)
    }

    #[test]
    fn the_true_weights_predict_every_opponent_move() {
        let case = quick_case(0);
        let mut oracle = OracleContestant::new(&case, OracleConfig::default());
        let result = case.run(&mut oracle);
        assert!(result.error.is_none());
        let seen: u32 = oracle.stats.observed.iter().sum();
        assert!(seen > 0);
        assert_eq!(oracle.stats.predicted, oracle.stats.observed);
        assert_eq!(oracle.stats.unexplained, 0);
    }

    #[test]
    fn noisy_weights_miss_some_moves_and_still_play_legally() {
        let mut missed = 0;
        for k in 0..3 {
            let case = quick_case(k);
            let config = OracleConfig { noise: 40.0, seed: k, ..Default::default() };
            let mut oracle = OracleContestant::new(&case, config);
            assert!(case.run(&mut oracle).error.is_none());
            let seen: u32 = oracle.stats.observed.iter().sum();
            missed += seen - oracle.stats.predicted.iter().sum::<u32>();
        }
        assert!(missed > 0);
    }
}
