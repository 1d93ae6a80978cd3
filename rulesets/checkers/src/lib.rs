//! English checkers (draughts) for the ply framework: the Deepomatic challenge's rules and
//! the standard WCDF/ACF rules on any even N x N board from 4x4 to 16x16, with a bitboard
//! move generator, notation, an evaluation for the ply engines, and the challenge's own API.
//!
//! ```
//! use ply::{Game, MoveList, Notation, Outcome};
//! use ply_checkers::{EnglishCheckers, Rules};
//!
//! // The start position and its seven opening moves.
//! let game = EnglishCheckers::new(8, Rules::Deepomatic)?;
//! let mut state = game.initial_state();
//! let mut moves = MoveList::new();
//! game.generate_moves(&state, &mut moves);
//! assert_eq!(moves.len(), 7);
//!
//! // Play one by its notation.
//! let mv = game.parse_move(&state, "11-15")?;
//! game.apply(&mut state, mv);
//! assert_eq!(game.format_state(&state),
//!            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15");
//!
//! // A side with no move has lost.
//! let end = game.parse_state("B:W17:BK32")?;
//! assert_eq!(game.outcome(&end), None);
//! let lost = game.parse_state("W:W5:BK1,9")?;
//! assert_eq!(game.outcome(&lost), Some(Outcome::Winner(ply::Player(0))));
//! # Ok::<(), ply_checkers::Error>(())
//! ```
//!
//! # Rules
//!
//! [`Rules::Deepomatic`] (the default) follows the challenge text: men move and capture one
//! square diagonally forward; kings one square in any diagonal direction; capturing is
//! mandatory, any capture sequence may be chosen but it continues while a jump is available;
//! captured pieces leave the board at once; a man reaching the far row during a capture is
//! crowned at once and keeps capturing, backwards too, and may pass through its start square.
//! [`Rules::Standard`] ends the move when a man is crowned. [`DrawRules`] (on by default)
//! add threefold repetition and a draw after 40 moves by each side without capture or man
//! move, so that games between programs end.
//!
//! # Modules
//!
//! - [`seed`]: the challenge's functions on boards given as row strings:
//!   [`seed::allowed_moves`], [`seed::apply_move`], [`seed::play`].
//! - [`perft`]: a bulk-counting perft specialised for these bitboards.
//! - Notation ([`MoveText`], [`Setup`], and [`ply::Notation`] for [`EnglishCheckers`]):
//!   numeric squares (`11-15`, `22x15x8`), the seed's `(row,col)` paths, PDN FEN.
//! - Game records: [`ply::Notation::write_record`] and [`ply::Notation::read_record`] write
//!   and read PDN 3.0 (`[GameType "21"]`, `1. 11-15 23-19 ... 1-0`, a `Variant` tag under
//!   the Deepomatic rules).
//!
//! # Representation
//!
//! Only dark squares are stored, as bitboards: `u32` on 8x8, `u128` on the other sizes (16x16
//! has exactly 128 dark squares). A [`Move`] is a `Copy` value of 32 bytes: start, end,
//! captured set, crowning flag, and a variant number that tells apart capture paths with the
//! same start, end and captured pieces (they are distinct moves, as in published perft).

mod bitboard;
pub mod book;
pub mod endgame;
pub mod engine;
mod error;
pub mod eval;
pub mod features;
mod movegen;
mod moves;
pub mod net;
mod notation;
mod pack;
mod pdn;
pub mod perft;
mod rules;
pub mod seed;

pub use error::{BoardError, Error, FenError, MoveError, ParseRulesError};
pub use eval::Weights;
pub use features::{learned, CheckersFeatures, CheckersLearned, Learned};
pub use moves::Move;
pub use notation::{MoveText, Setup};
pub use rules::{CheckersState, Color, DrawRules, EnglishCheckers, Piece, Rules};
