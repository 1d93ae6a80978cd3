//! # ply
//!
//! A framework for turn-based, perfect-information board games with any number of players.
//!
//! - [`Game`]: the rules of a game, with runtime options (board size, player count, variant
//!   flags). Implement it once and get everything below.
//! - [`search`]: alpha-beta (PVS, iterative deepening, transposition table, move ordering,
//!   aspiration windows, quiescence), multiplayer search (paranoid, max^n, best-reply), MCTS
//!   (UCT, N-player rewards, solver, tree reuse, root parallelism) and random/greedy
//!   baselines, all behind one [`search::Agent`] interface.
//! - [`perft()`] and [`divide`]: count move-tree leaves to verify a move generator;
//!   [`perft`](mod@perft) reads reference tables of leaf counts and checks a game against them.
//! - `testing` (feature `testing`): a conformance kit that checks any `Game` implementation
//!   on seeded random games.
//! - [`arena`]: tournaments between agents on any game, with Elo and SPRT statistics.
//! - [`fen`]: PDN FEN, the position text of the draughts games, read and written without a
//!   board.
//! - [`zobrist`]: compile-time Zobrist key tables for position hashes.
//! - [`games`]: small games used by the tutorial and the tests (tic-tac-toe, Connect Four and
//!   a three-player game).
//!
//! ## Example
//!
//! ```
//! use ply::{Game, Record};
//! use ply::search::{Agent, Budget, Position, alphabeta::AlphaBeta};
//! use ply::games::ConnectFour;
//!
//! let game = ConnectFour::standard();
//! let mut record = Record::new(&game, game.initial_state());
//! let mut engine = AlphaBeta::new();
//! let report = engine
//!     .choose(&game, Position::with_history(record.state(), record.hashes()), &Budget::depth(6))
//!     .unwrap();
//! record.play(report.best_move).unwrap();
//! assert_eq!(record.moves().len(), 1);
//! ```
//!
//! ## Features
//!
//! - `testing`: the `ply::testing` conformance kit (adds `proptest`).

pub mod arena;
pub mod book;
pub mod diagram;
pub mod endgame;
pub mod eval;
pub mod fen;
pub mod files;
mod game;
pub mod games;
pub mod lines;
mod memory;
pub mod pack;
pub mod perft;
pub mod picture;
pub mod record;
pub mod search;
pub mod solve;
#[cfg(feature = "testing")]
pub mod testing;
pub mod zobrist;

pub use game::{
    Game, MoveList, Notation, Outcome, Player, Score, Solved, SolverBudget, MAX_MATE_PLIES,
    MOVE_LIST_INLINE,
};
pub use perft::{divide, perft, PerftMode};
pub use record::{PlayError, Record};
