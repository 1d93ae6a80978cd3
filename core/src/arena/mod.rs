//! Tournaments between agents on any game: fair schedules, seeded openings, playing games,
//! standings, and the statistics to read them (Elo with a confidence interval, SPRT).
//!
//! The `arena` example is the command-line front end; this module is what it stands on, so
//! that other programs can run matches too.
//!
//! ```
//! use ply::arena::{play_game, Seat};
//! use ply::games::TicTacToe;
//! use ply::search::{Agent, Budget, alphabeta::AlphaBeta, baseline::RandomAgent};
//! use ply::Game;
//!
//! let game = TicTacToe;
//! let mut seats: Vec<Seat<TicTacToe>> = vec![
//!     Seat::new(Box::new(AlphaBeta::new()), Budget::depth(9)),
//!     Seat::new(Box::new(RandomAgent::new(7)), Budget::default()),
//! ];
//! let played = play_game(&game, &game.initial_state(), &mut seats, 200).unwrap();
//! // Perfect play never loses tic-tac-toe.
//! assert!(played.outcome.reward(ply::Player::new(0), 2) >= 0.5);
//! ```

mod elo;
mod play;
mod schedule;
mod sprt;
mod standings;

pub use elo::{elo_from_score, score_from_elo, EloEstimate};
pub use play::{
    play_game, play_game_with, random_opening, ArenaError, Forfeit, MovePlayed, MoveSearch,
    PlayedGame, Seat, SeatStats,
};
pub use schedule::{schedule, Fixture};
pub use sprt::{Sprt, SprtDecision};
pub use standings::{AgentTotals, PairTotals, Standings};
