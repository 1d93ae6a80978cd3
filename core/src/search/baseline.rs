//! Baseline agents: [`RandomAgent`] (uniform over the legal moves) and [`Greedy`] (the best
//! one-ply evaluation). Both play any [`Game`] with any number of players and are reproducible
//! from a seed.
//!
//! ```
//! use ply::Game;
//! use ply::games::TicTacToe;
//! use ply::search::{Agent, Budget, Position, baseline::{Greedy, RandomAgent}};
//!
//! let game = TicTacToe;
//! let state = game.initial_state();
//! let mut random = RandomAgent::new(42);
//! let mut greedy = Greedy::with_seed(42);
//! let a = random.choose(&game, Position::new(&state), &Budget::default()).unwrap();
//! let b = greedy.choose(&game, Position::new(&state), &Budget::default()).unwrap();
//! assert!(a.best_move < 9);
//! assert_eq!(b.best_move, 4, "the centre has the best one-ply evaluation");
//! ```

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::eval::{Evaluator, GameEval};
use crate::game::{Game, MoveList, Score};
use crate::search::{root_moves, Agent, Budget, Position, Root, SearchError, SearchReport, Value};

/// A uniform index below `len` (at least 1), drawn as a `u32` so that the random stream is
/// the same on 32- and 64-bit platforms.
fn random_index(rng: &mut ChaCha8Rng, len: usize) -> usize {
    rng.gen_range(0..len as u32) as usize
}

/// Plays a uniformly random legal move; the seed fixes the sequence of choices.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    seed: u64,
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random agent whose choices follow from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent { seed, rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        format!("random(seed={})", self.seed)
    }

    /// Ignores the budget and answers at once with [`Value::Unknown`].
    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        _budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        let start = Instant::now();
        let mut moves = MoveList::new();
        game.generate_moves(position.state, &mut moves);
        if moves.is_empty() {
            return Err(SearchError::NoLegalMoves);
        }
        let mv = moves[random_index(&mut self.rng, moves.len())];
        Ok(SearchReport::instant(mv, start.elapsed()))
    }
}

/// Plays the move with the best one-ply evaluation for the player to move: each move is
/// played, and the result scored by the evaluator `E` from the mover's point of view
/// ([`GameEval`], the game's own [`Game::evaluate`], unless [`Greedy::with_evaluator`] gives
/// another). A move that ends the game is scored by its outcome instead: a sole win beats
/// everything, a sole loss is worst, and any other ending (a draw, a middle rank) counts as an
/// evaluation of 0. Ties are broken uniformly at random by a seeded generator.
#[derive(Clone, Debug)]
pub struct Greedy<E = GameEval> {
    seed: u64,
    rng: ChaCha8Rng,
    eval: E,
}

impl Default for Greedy {
    fn default() -> Self {
        Greedy::new()
    }
}

impl Greedy {
    /// A greedy agent that breaks ties with seed 0.
    pub fn new() -> Self {
        Greedy::with_seed(0)
    }

    /// A greedy agent that breaks ties with a generator seeded by `seed`.
    pub fn with_seed(seed: u64) -> Self {
        Greedy { seed, rng: ChaCha8Rng::seed_from_u64(seed), eval: GameEval }
    }
}

impl<E> Greedy<E> {
    /// This agent scoring positions with `eval` instead of its current evaluator.
    ///
    /// ```
    /// use ply::games::TicTacToe;
    /// use ply::search::{baseline::Greedy, Agent, Budget, Position};
    /// use ply::{Game, Player};
    ///
    /// // Prefer the lowest square: the evaluation decides, not the game's own.
    /// let lowest = |_: &TicTacToe, s: &<TicTacToe as Game>::State, _: Player| {
    ///     (0..9u8).find(|&sq| s.at(sq).is_some()).map_or(0, |sq| 9 - i32::from(sq))
    /// };
    /// let mut greedy = Greedy::new().with_evaluator(lowest);
    /// let game = TicTacToe;
    /// let report = greedy.choose(&game, Position::new(&game.initial_state()), &Budget::default());
    /// assert_eq!(report.unwrap().best_move, 0);
    /// ```
    pub fn with_evaluator<E2>(self, eval: E2) -> Greedy<E2> {
        Greedy { seed: self.seed, rng: self.rng, eval }
    }

    /// The evaluator in use.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }
}

/// How good a move looked: a sole loss, a heuristic or neutral ending, or a sole win.
#[derive(Clone, Copy, PartialEq, PartialOrd, Debug)]
enum Grade {
    Loss,
    Even(f64),
    Win,
}

impl<G: Game, E: Evaluator<G>> Agent<G> for Greedy<E> {
    fn name(&self) -> String {
        format!("greedy(seed={})", self.seed)
    }

    /// Ignores the budget: one ply is always searched in full.
    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        _budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        let start = Instant::now();
        let state = position.state;
        let moves = match root_moves(game, state)? {
            Root::Search(moves) => moves,
            Root::Forced(mv) => return Ok(SearchReport::instant(mv, start.elapsed())),
        };
        let mover = game.to_move(state);
        let n = game.num_players();
        let mut best: Option<Grade> = None;
        let mut tied: MoveList<G::Move> = MoveList::new();
        let mut child = state.clone();
        for &mv in &moves {
            child.clone_from(state);
            game.apply(&mut child, mv);
            let grade = match game.outcome(&child) {
                Some(outcome) => {
                    let r = outcome.reward(mover, n);
                    if r >= 1.0 {
                        Grade::Win
                    } else if r <= 0.0 {
                        Grade::Loss
                    } else {
                        Grade::Even(0.0)
                    }
                }
                None => Grade::Even(self.eval.evaluate(game, &child, mover).to_f64()),
            };
            match best.map(|b| grade.partial_cmp(&b)) {
                None | Some(Some(std::cmp::Ordering::Greater)) => {
                    best = Some(grade);
                    tied.clear();
                    tied.push(mv);
                }
                Some(Some(std::cmp::Ordering::Equal)) => tied.push(mv),
                _ => {}
            }
        }
        let best_move = tied[random_index(&mut self.rng, tied.len())];
        let value = match best.expect("at least two moves were graded") {
            Grade::Win => Value::Win(1),
            Grade::Loss => Value::Loss(1),
            Grade::Even(v) => Value::Heuristic(v),
        };
        Ok(SearchReport {
            best_move,
            value,
            pv: vec![best_move],
            depth: 1,
            seldepth: 1,
            nodes: moves.len() as u64,
            iterations: 0,
            elapsed: start.elapsed(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_order_loss_even_win() {
        assert!(Grade::Loss < Grade::Even(-1e300));
        assert!(Grade::Even(1e300) < Grade::Win);
        assert!(Grade::Even(1.0) > Grade::Even(0.5));
    }
}
