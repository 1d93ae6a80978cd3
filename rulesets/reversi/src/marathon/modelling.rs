//! A contestant that learns its opponents' strategies from their moves and searches with
//! what it learned.
//!
//! The opponents are weight-greedy players ([`Strategy`]) whose weights it does not know.
//! All opponents of a test case are drawn from the same evolved population, which after 50 to
//! 100 generations of selection is close to one strategy, so the contestant keeps one
//! shared model for them all. Between two of its own turns it reconstructs the opponents'
//! moves from the two boards (a small search over the newly filled cells), and for every
//! opponent decision where the model's choice differs from the move played, it moves the
//! weights along the difference of the gradients of the seed's ratio `M / O` at the played
//! and at the predicted move (a perceptron on the ranking, replayed over all decisions seen
//! so far). The model starts from equal weights (the disc-count ratio), or, with
//! [`ModellingConfig::prior_runs`], from the mean of populations it evolves itself with the
//! seed's generator (what evolution favours on this board, whatever the run); on 30 test
//! cases the two starts scored alike, and equal weights cost nothing.
//!
//! To move, it searches its own placements `depth` of its turns deep, the opponents answering
//! as the model predicts. Leaves are scored by rolling the game out to the end (everybody
//! following the model: the final disc count is what the contest scores) once at most
//! [`ModellingConfig::rollout_empties`] cells are empty and the model predicted at least
//! [`ModellingConfig::min_trust`] of the last opponent moves (and always in the last
//! [`ModellingConfig::exact_empties`] cells); otherwise by the ruleset's N-player evaluation
//! for player 1.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use ply::{Game, MoveList, Player};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::contest::{board_state, players_for_size, Contestant};
use super::genetic::{evolve, GeneticConfig};
use super::strategy::{play_on, Strategy};
use crate::board::{bits_count, for_each_bit, Bits};
use crate::{Reversi, ReversiMove, ReversiState};

/// Settings of [`ModellingContestant`].
#[derive(Clone, Debug, PartialEq)]
pub struct ModellingConfig {
    /// How many of its own turns the search looks ahead before rolling out.
    pub depth: u32,
    /// Perceptron step per mistake, in weight units (initial weights lie in `[-50, 50]`).
    pub learning_rate: f64,
    /// Passes over the decisions seen so far after each new observation.
    pub epochs: usize,
    /// From this many empty cells on, leaves are rolled out to the end instead of evaluated.
    pub rollout_empties: u32,
    /// Roll out only while the model predicted at least this share of the last
    /// [`TRUST_WINDOW`] opponent moves.
    pub min_trust: f64,
    /// Always roll out with this many empty cells or fewer.
    pub exact_empties: u32,
    /// Populations evolved for the starting model (per board size, cached); 0 starts from
    /// equal weights (the disc-count ratio).
    pub prior_runs: u32,
    /// Generations of each of those populations.
    pub prior_generations: u32,
}

impl Default for ModellingConfig {
    fn default() -> Self {
        ModellingConfig {
            depth: 2,
            learning_rate: 2.0,
            epochs: 6,
            rollout_empties: 24,
            min_trust: 0.5,
            exact_empties: 8,
            prior_runs: 0,
            prior_generations: 50,
        }
    }
}

/// How many of the latest opponent moves the trust in the model is measured on.
pub const TRUST_WINDOW: usize = 20;

/// Counters of what the contestant saw and how well its model predicted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModellingStats {
    /// Opponent placements reconstructed from the boards.
    pub observed: u32,
    /// Of those, how many the model predicted before learning from them.
    pub predicted: u32,
    /// Board changes no sequence of legal moves explained (nothing was learned from them).
    pub unexplained: u32,
}

/// The opponent-modelling contestant (see the module documentation).
#[derive(Debug)]
pub struct ModellingContestant {
    config: ModellingConfig,
    game: Option<Reversi>,
    model: Option<Strategy>,
    seen: Vec<(ReversiState, usize)>,
    recent: std::collections::VecDeque<bool>,
    last: Option<ReversiState>,
    /// What it saw and predicted so far.
    pub stats: ModellingStats,
}

/// The mean strategy of `runs` populations evolved for `generations` on this board (from
/// fixed seeds of the contestant's own, not the test cases'), the model's starting point.
fn prior(game: &Reversi, runs: u32, generations: u32) -> Strategy {
    type Cache = Mutex<HashMap<(usize, usize, u32, u32), Strategy>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (game.size(), game.players(), runs, generations);
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(s) = cache.lock().expect("prior cache").get(&key) {
        return s.clone();
    }
    let config =
        GeneticConfig { generations: generations..=generations, ..GeneticConfig::default() };
    let cells = game.size() * game.size();
    if runs == 0 {
        return Strategy::new(vec![1.0; cells]);
    }
    let mut mean = vec![0.0; cells];
    for run in 0..runs {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9e1e_c7ed ^ (key.0 * 8 + key.1) as u64);
        rng.set_stream(u64::from(run));
        let (population, _) = evolve(game, &config, &mut rng);
        let scale = 1.0 / (population.len() as f64 * f64::from(runs));
        for s in &population {
            for (m, w) in mean.iter_mut().zip(&s.weights) {
                *m += w * scale;
            }
        }
    }
    let s = Strategy::new(mean);
    cache.lock().expect("prior cache").insert(key, s.clone());
    s
}

impl Default for ModellingContestant {
    fn default() -> Self {
        ModellingContestant::new(ModellingConfig::default())
    }
}

impl ModellingContestant {
    /// A contestant with these settings.
    pub fn new(config: ModellingConfig) -> Self {
        ModellingContestant {
            config,
            game: None,
            model: None,
            seen: Vec::new(),
            recent: std::collections::VecDeque::new(),
            last: None,
            stats: ModellingStats::default(),
        }
    }

    /// The current model of the opponents, once a board has been seen.
    pub fn model(&self) -> Option<&Strategy> {
        self.model.as_ref()
    }

    /// Learns from the opponents' moves that led from the board after its last move to
    /// `now`.
    fn observe(&mut self, game: &Reversi, now: &ReversiState) {
        let Some(from) = self.last else { return };
        let occ_now = now.occupied();
        let occ_then = from.occupied();
        let new_cells: Bits = std::array::from_fn(|w| occ_now[w] & !occ_then[w]);
        let mut path = Vec::new();
        if !reconstruct(game, from, now, &new_cells, &mut path) {
            self.stats.unexplained += 1;
            return;
        }
        let model = self.model.get_or_insert_with(|| {
            prior(game, self.config.prior_runs, self.config.prior_generations)
        });
        for (state, sq) in path {
            self.stats.observed += 1;
            let hit = model.choose(game, &state) == Some(ReversiMove::Place(sq as u8));
            if hit {
                self.stats.predicted += 1;
            }
            if self.recent.len() == TRUST_WINDOW {
                self.recent.pop_front();
            }
            self.recent.push_back(hit);
            self.seen.push((state, sq));
        }
        for _ in 0..self.config.epochs {
            let mut mistakes = 0;
            for (state, sq) in &self.seen {
                if let Some(ReversiMove::Place(pred)) = model.choose(game, state) {
                    let pred = pred as usize;
                    if pred != *sq {
                        mistakes += 1;
                        update(game, model, state, *sq, pred, self.config.learning_rate);
                    }
                }
            }
            if mistakes == 0 {
                break;
            }
        }
    }

    /// The value of `state` for player 1 with the opponents following `model`: player 1
    /// searches `depth` more of its own turns, then the leaf is rolled out to the end (its
    /// final disc count, when `rollout`) or evaluated by the ruleset's evaluation.
    fn value(
        &self,
        game: &Reversi,
        model: &Strategy,
        mut state: ReversiState,
        depth: u32,
        rollout: bool,
    ) -> f64 {
        let n = game.players();
        let mut passes = 0;
        loop {
            if passes >= n {
                return f64::from(state.count(Player(0))) * if rollout { 1.0 } else { 1000.0 };
            }
            let p = state.to_move as usize;
            let placements = game.placements(&state, p);
            if bits_count(&placements) == 0 {
                state.to_move = ((p + 1) % n) as u8;
                passes += 1;
                continue;
            }
            passes = 0;
            if p == 0 {
                if depth == 0 {
                    if rollout {
                        play_on(game, &mut state, |_| model);
                        return f64::from(state.count(Player(0)));
                    }
                    return f64::from(game.evaluate(&state, Player(0)));
                }
                let mut best = f64::NEG_INFINITY;
                for_each_bit(&placements, |sq| {
                    let mut child = state;
                    game.apply(&mut child, ReversiMove::Place(sq as u8));
                    best = best.max(self.value(game, model, child, depth - 1, rollout));
                });
                return best;
            }
            let mv = model.choose_among(game, &state, &placements).expect("a placement exists");
            game.apply(&mut state, mv);
        }
    }
}

/// The gradient of the seed's ratio `M / O` with respect to the weights, after the placement
/// on `sq` by the player to move in `state`: `own / O - M others / O^2`, where `own` and
/// `others` are the cells the mover and the other players hold after the move.
fn ratio_gradient(game: &Reversi, model: &Strategy, state: &ReversiState, sq: usize) -> Vec<f64> {
    let mut after = *state;
    game.apply(&mut after, ReversiMove::Place(sq as u8));
    let p = state.to_move as usize;
    let totals = model.totals(game, &after);
    let mine = totals[p];
    let others: f64 = (0..game.players()).filter(|&q| q != p).map(|q| totals[q]).sum();
    // Keep the step finite where the denominator nearly vanishes.
    let o = if others.abs() < 1.0 { others.signum().max(0.0) * 2.0 - 1.0 } else { others };
    let mut g = vec![0.0; model.weights.len()];
    for q in 0..game.players() {
        let coeff = if q == p { 1.0 / o } else { -mine / (o * o) };
        for_each_bit(&after.discs[q], |s| g[s] = coeff);
    }
    g
}

/// Moves `model` toward predicting `played` instead of `predicted` in `state`: a step along
/// the difference of the two ratio gradients, scaled to `rate` per weight at most.
fn update(
    game: &Reversi,
    model: &mut Strategy,
    state: &ReversiState,
    played: usize,
    predicted: usize,
    rate: f64,
) {
    let a = ratio_gradient(game, model, state, played);
    let b = ratio_gradient(game, model, state, predicted);
    let diff: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x - y).collect();
    let largest = diff.iter().fold(0.0f64, |m, d| m.max(d.abs()));
    if largest > 0.0 {
        for (w, d) in model.weights.iter_mut().zip(&diff) {
            *w += rate * d / largest;
        }
    }
}

/// Finds the opponents' placements (each on a cell of `new_cells`, passes where forced) that
/// lead from `state` to `target` with player 1 to move; pushes `(position, square)` for each
/// placement onto `path`.
pub(super) fn reconstruct(
    game: &Reversi,
    state: ReversiState,
    target: &ReversiState,
    new_cells: &Bits,
    path: &mut Vec<(ReversiState, usize)>,
) -> bool {
    if state.discs == target.discs && state.to_move == 0 {
        return true;
    }
    let mut moves = MoveList::new();
    game.generate_moves(&state, &mut moves);
    match moves.first() {
        None => false,
        Some(ReversiMove::Pass) => {
            let mut next = state;
            game.apply(&mut next, ReversiMove::Pass);
            reconstruct(game, next, target, new_cells, path)
        }
        // Player 1 could place but was not asked: not this branch.
        Some(_) if state.to_move == 0 => false,
        Some(_) => {
            for &mv in &moves {
                let Some(sq) = mv.square() else { continue };
                if !crate::board::bit_test(new_cells, sq) {
                    continue;
                }
                let mut next = state;
                game.apply(&mut next, mv);
                path.push((state, sq));
                if reconstruct(game, next, target, new_cells, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
    }
}

impl Contestant for ModellingContestant {
    fn name(&self) -> String {
        format!("modelling(depth={})", self.config.depth)
    }

    fn choose_move(&mut self, board: &[String]) -> (usize, usize) {
        let size = board.len();
        let fits = self.game.as_ref().is_some_and(|g| g.size() == size);
        if !fits {
            let Ok(game) = Reversi::new(size, players_for_size(size)) else {
                return (usize::MAX, usize::MAX);
            };
            self.game = Some(game);
            self.model = None;
            self.seen.clear();
            self.recent.clear();
            self.last = None;
        }
        let game = self.game.clone().expect("set above");
        let Some(state) = board_state(&game, board) else {
            return (usize::MAX, usize::MAX);
        };
        self.observe(&game, &state);
        let model = self
            .model
            .get_or_insert_with(|| {
                prior(&game, self.config.prior_runs, self.config.prior_generations)
            })
            .clone();
        let placements = game.placements(&state, 0);
        let hits = self.recent.iter().filter(|&&h| h).count();
        let trusted = self.recent.len() >= TRUST_WINDOW / 2
            && hits as f64 >= self.config.min_trust * self.recent.len() as f64;
        let empties = state.empties();
        let rollout = empties <= self.config.exact_empties
            || (trusted && empties <= self.config.rollout_empties);
        let mut best: Option<(f64, usize)> = None;
        for_each_bit(&placements, |sq| {
            let mut child = state;
            game.apply(&mut child, ReversiMove::Place(sq as u8));
            let depth = self.config.depth.saturating_sub(1);
            let v = self.value(&game, &model, child, depth, rollout);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, sq));
            }
        });
        let Some((_, sq)) = best else {
            return (usize::MAX, usize::MAX);
        };
        let mut after = state;
        game.apply(&mut after, ReversiMove::Place(sq as u8));
        self.last = Some(after);
        (sq % size, sq / size)
    }
}
