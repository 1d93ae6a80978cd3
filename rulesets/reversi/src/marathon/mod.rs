//! The TopCoder MultiplayerReversi contest (Marathon Match), reproduced.
//!
//! - [`Strategy`]: the contest's computer opponent, weight-greedy over cells.
//! - [`evolve`]: the seed's genetic generator of opponent strategies.
//! - [`TestCase`]: a seeded test case (board size 7..=12, 3 players on odd sizes, 4 on
//!   even), played with [`TestCase::run`] and scored as the seed scores it.
//! - [`Contestant`]: the seed's interface (board rows in, `(column, row)` out);
//!   [`AgentContestant`] lets any [`ply::search::Agent`] play through it,
//!   [`ModellingContestant`] learns its opponents' weights from their moves, and
//!   [`InferenceContestant`] keeps a [`Belief`] per opponent (weights consistent with every
//!   observed [`Decision`]) and plays the single-agent search [`plan`] against the predicted
//!   replies, or MCTS while the predictions are not trusted.
//! - [`OracleContestant`]: a benchmark, not a contestant: [`plan`] against the opponents'
//!   true weights, optionally perturbed, to measure what exact or near-exact predictions
//!   are worth.
//!
//! # What the seed leaves open
//!
//! The statement does not settle everything; the harness decides as follows.
//!
//! - **Start layout.** The statement gives none. Test cases start from the ruleset's
//!   standard layout for the player count ([`crate::Reversi::new`]; see the crate docs), and
//!   the strategy generator plays its games from the same layout: for 3 players (odd sizes)
//!   the 3x3 Latin square `123/231/312`, for 4 players (even sizes) the block `12/43` tiled
//!   into the 4x4 block `1212/4343/1212/4343`, in which no first round eliminates a player
//!   (a single 2x2 block `12/43`, the layout before, lost a player on every first move).
//!   Figures published for the harness name the layout they used.
//! - **Zero denominator.** A move after which the others' total `O` is 0 is worth `+inf` if
//!   the mover's total is positive and `-inf` otherwise ([`ratio`]); a negative `O` divides
//!   as it is. `O` counts as 0 when the other players own no cell after the move, whatever
//!   the float arithmetic gives.
//! - **Incremental totals.** Each placement's `O` is the others' total before the move minus
//!   the weight it flips (not a fresh sum), so values can differ from a fresh sum in the last
//!   bits; ties go to the first placement in reading order.
//! - **Mutation.** A child's weight is a parent's plus uniform noise in `[-0.5, 0.5]`, with
//!   no clamping to the initial `[-50, 50]`.
//! - **Points.** Every generation's points start from zero; parents are drawn in proportion
//!   to the points of that generation only (uniformly if nobody scored), and each generation
//!   plays [`GeneticConfig::games_per_generation`] games ("several" in the seed).
//!
//! ```
//! use ply_reversi::marathon::{Contestant, GeneticConfig, Strategy, TestCase};
//!
//! /// Plays the first placement listed by a weight-greedy strategy with all weights 1.
//! struct Discs;
//! impl Contestant for Discs {
//!     fn name(&self) -> String { "discs".into() }
//!     fn choose_move(&mut self, board: &[String]) -> (usize, usize) {
//!         let game = ply_reversi::Reversi::new(board.len(), if board.len() % 2 == 1 { 3 } else { 4 }).unwrap();
//!         let state = game.state_from_rows(board, ply::Player(0)).unwrap();
//!         let greedy = Strategy::new(vec![1.0; board.len() * board.len()]);
//!         game.coordinates(greedy.choose(&game, &state).unwrap()).unwrap()
//!     }
//! }
//!
//! // A quick generator for the example; the seed's is `GeneticConfig::default()`.
//! let config = GeneticConfig { generations: 2..=2, games_per_generation: 5, ..Default::default() };
//! let case = TestCase::generate_with(0, 42, &config);
//! let result = case.run(&mut Discs);
//! assert!(result.error.is_none());
//! assert!(result.score > 0.0 && result.score <= case.players as f64);
//! ```

mod contest;
mod genetic;
mod inference;
mod modelling;
mod oracle;
mod planning;
mod strategy;

pub use contest::{
    board_state, players_for_size, AgentContestant, CaseResult, Contestant, TestCase,
};
pub use genetic::{evolve, game_points, place_points, GeneticConfig};
pub use inference::{
    Belief, Decision, InferenceConfig, InferenceContestant, InferenceStats, PHASES, PRIOR_BOUND,
};
pub use modelling::{ModellingConfig, ModellingContestant, ModellingStats, TRUST_WINDOW};
pub use oracle::{OracleConfig, OracleContestant};
pub use planning::{plan, plan_with_values, Plan};
pub use strategy::{ratio, Strategy};
