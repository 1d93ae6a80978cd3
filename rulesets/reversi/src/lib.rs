//! # ply-reversi
//!
//! Reversi for 2 to 4 players on square boards from 4x4 to 16x16, for the
//! [`ply`] framework. Two players on 8x8 is standard Othello, played on a `u64` bitboard
//! fast path.
//!
//! ```
//! use ply::{Game, MoveList, Notation};
//! use ply_reversi::Reversi;
//!
//! let game = Reversi::new(8, 2)?;
//! let mut state = game.initial_state();
//! let mut moves = MoveList::new();
//! game.generate_moves(&state, &mut moves);
//! assert_eq!(moves.len(), 4);
//! let mv = game.parse_move(&state, "f5")?;
//! game.apply(&mut state, mv);
//! assert_eq!(
//!     game.format_state(&state),
//!     "......../......../......../...21.../...111../......../......../........ 2"
//! );
//! assert!(game.outcome(&state).is_none());
//! # Ok::<(), ply_reversi::Error>(())
//! ```
//!
//! ## Rules
//!
//! A move places a disc so that at least one straight line (8 directions) runs from it over
//! one or more discs of other players, in any mix, to a disc of the mover; every such line
//! flips to the mover. A player with no placement passes (an explicit pass move) while
//! anybody else can place; when nobody can, the game ends, and the outcome is every
//! player's disc count ([`ply::Outcome::Scores`], ranks derive from it).
//!
//! ## Start layouts
//!
//! Coordinates are `(column, row)` from (0, 0) at the top left; in text, `c4` is column c,
//! row 4 counted from the top. Players are `1`..`4`; player 1 moves first.
//!
//! Two players (standard Othello on 8x8; on odd boards the block sits up-left of centre):
//!
//! ```text
//!    d e
//! 4  2 1
//! 5  1 2
//! ```
//!
//! Three players: a 3x3 Latin square around the centre (`(row + column) mod 3`), the same
//! under reflection in the main diagonal. Every row, column and diagonal through the block
//! holds each player once (the anti-diagonal is player 3's, who moves last), so every
//! player has placements at both ends of each row and column of the block:
//!
//! ```text
//! 1 2 3
//! 2 3 1
//! 3 1 2
//! ```
//!
//! Four players: the 2x2 block `12/43` (players clockwise in turn order) tiled 2x2 into a
//! 4x4 block around the centre (on odd boards half a square down-left of it), the same under
//! a quarter turn with the players renumbered:
//!
//! ```text
//! 1 2 1 2
//! 4 3 4 3
//! 1 2 1 2
//! 4 3 4 3
//! ```
//!
//! Why: the single 2x2 block gave each player one disc, and every first move flipped one of
//! them, so every legal first move eliminated a player. Tiled, the block gives each player
//! four discs, and no two neighbouring squares (in any of the 8 directions) hold the same
//! player, so every line through the block alternates between two players and a first
//! placement flanks one disc per line. Over a whole first round (each player moving once,
//! every choice) nobody loses all four: every player keeps at least one disc (some rounds
//! leave a player exactly one) and has a placement when its first turn comes. On 4x4, where
//! the 4x4 block would fill the board, the start is the 2x2 block with a second disc per
//! player, turned the same way:
//!
//! ```text
//! . . 1 .
//! 4 1 2 .
//! . 4 3 2
//! . 3 . .
//! ```
//!
//! Every layout, on every size, is checked by enumerating every sequence of first moves
//! (each player once): nobody passes and nobody is eliminated (tested, 2 to 4 players).
//!
//! Any other board can be the start: [`Reversi::from_position`] reads rows of `.` and
//! `1`..`4` joined by `/`, then a space and the player to move.
//!
//! ## Modules
//!
//! - [`perft_fast()`]: Othello perft on bare bitboards, the speed baseline beside
//!   `ply::perft` (which counts like the published table for Reversi).
//! - [`endgame`]: exact Othello endgames on bare bitboards (Edax's fast ordering, parity
//!   ordering and stability cutoff, with [`stability`]'s count of stable discs), which alpha-beta consults through [`ply::Game::solve_endgame`] for the last
//!   [`Reversi::ENDGAME_EMPTIES`] empty squares.
//! - [`eval`]: evaluations for 2 and N players (mobility, corners, stability, parity).
//! - [`marathon`]: the TopCoder MultiplayerReversi contest: weight-greedy opponents, the
//!   genetic strategy generator, seeded test cases, the contestant interface and an agent
//!   that models its opponents.
//! - [`ggf`]: GGF game records (2 players, even boards), the format of
//!   [`ply::Notation::write_record`] and [`ply::Notation::read_record`] there; 3 and 4
//!   players keep ply's own text.
//! - [`nboard`]: Othello positions and moves in the NBoard protocol's forms, for the NBoard
//!   codec of ply's tools.

mod board;
pub mod endgame;
mod error;
pub mod eval;
pub mod features;
pub mod ggf;
pub mod marathon;
mod movegen;
pub mod nboard;
pub mod net;
mod notation;
mod perft;
mod rules;
pub mod stability;

pub use board::{ReversiMove, ReversiState};
pub use error::Error;
pub use eval::Evaluation;
pub use features::{learned, Learned, OthelloFeatures, OthelloLearned};
pub use notation::{square_name, GLYPHS};
pub use perft::perft_fast;
pub use rules::Reversi;
