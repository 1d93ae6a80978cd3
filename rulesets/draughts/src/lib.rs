//! International draughts (10x10, FMJD rules) for the ply framework.
//!
//! - [`InternationalDraughts`]: the rules object ([`ply::Game`] + [`ply::Notation`]), with
//!   switchable [`DrawRules`]. White (player 0) moves first from squares 31-50; men move
//!   forward and capture both ways; capturing is compulsory and the sequence taking the most
//!   pieces must be played (kings count like men); captured pieces leave the board only when
//!   the move ends and are never jumped twice; a man is crowned only when it ends its move on
//!   the far row; kings fly.
//! - [`Move`]: start, end and captured set; capture orders with the same result are one move.
//! - Notation: `32-28`, `19x30`, `19x28x37` (full path when the short form is ambiguous), FEN
//!   `W:W31-50:B1-20` through [`DraughtsState`]'s `FromStr`/`Display`; [`MoveText`] parses
//!   move syntax alone.
//! - Game records: [`ply::Notation::write_record`] and [`ply::Notation::read_record`] write
//!   and read PDN 3.0 (`[GameType "20"]`, `1. 32-28 19-23 ... 2-0`).
//! - [`perft_fast`]: bulk-counting perft on the bare bitboards.
//! - [`hub`]: the Hub protocol's text forms of positions and moves (the protocol itself is in
//!   `ply_tools::engines::hub`, with these functions as the codec of draughts).
//!
//! The board is a `u64` with 50 playable bits and four ghost bits, so every diagonal step is
//! a fixed shift; move generation allocates nothing beyond the caller's list.
//!
//! ```
//! use ply::{Game, MoveList, Notation, Outcome, Player};
//! use ply_draughts::InternationalDraughts;
//!
//! let game = InternationalDraughts::new();
//! let mut state = game.initial_state();
//! let mut moves = MoveList::new();
//! game.generate_moves(&state, &mut moves);
//! assert_eq!(moves.len(), 9);
//! let mv = game.parse_move(&state, "32-28")?;
//! game.apply(&mut state, mv);
//! assert_eq!(game.format_move(&state, game.parse_move(&state, "19-23")?), "19-23");
//!
//! // A lone black man that White takes: Black has nothing left and loses.
//! let mut end = game.parse_state("W:W28:B23")?;
//! let take = game.parse_move(&end, "28x19")?;
//! game.apply(&mut end, take);
//! assert_eq!(game.outcome(&end), Some(Outcome::Winner(Player::FIRST)));
//! Ok::<(), ply_draughts::Error>(())
//! ```

mod bitboard;
pub mod book;
pub mod dxp;
pub mod endgame;
pub mod engine;
mod error;
pub mod eval;
pub mod features;
pub mod hub;
mod movegen;
pub mod net;
mod notation;
mod pack;
mod pdn;
pub mod regions;
mod rules;

pub use error::{Error, MoveError, ParseFenError, ParseMoveError};
pub use features::{learned, DraughtsFeatures, Learned};
pub use movegen::Move;
pub use notation::MoveText;
pub use rules::{
    perft_fast, DraughtsState, DrawRules, InternationalDraughts, Piece, NULL_MOVE_PIECES,
};
