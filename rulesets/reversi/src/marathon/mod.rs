//! The TopCoder MultiplayerReversi contest (Marathon Match), reproduced.
//!
//! - [`Strategy`]: the contest's computer opponent, weight-greedy over cells.
//! - [`evolve`]: the seed's genetic generator of opponent strategies.
//! - [`TestCase`]: a seeded test case (board size 7..=12, 3 players on odd sizes, 4 on
//!   even), played with [`TestCase::run`] and scored as the seed scores it.
//! - [`Contestant`]: the seed's interface (board rows in, `(column, row)` out);
//!   [`AgentContestant`] lets any [`ply::search::Agent`] play through it, and
//!   [`ModellingContestant`] learns its opponents' weights from their moves.
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
mod modelling;
mod strategy;

pub use contest::{
    board_state, players_for_size, AgentContestant, CaseResult, Contestant, TestCase,
};
pub use genetic::{evolve, game_points, place_points, GeneticConfig};
pub use modelling::{ModellingConfig, ModellingContestant, ModellingStats, TRUST_WINDOW};
pub use strategy::{ratio, Strategy};
