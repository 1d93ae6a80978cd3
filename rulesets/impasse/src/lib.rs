//! # ply-impasse
//!
//! Impasse (Mark Steere) as the CodinGame referee (`acatai/CG_Impasse`) plays it, for the
//! [`ply`] framework: bitboard move generation, the referee's action texts, an evaluation for
//! the search library, and the CodinGame bot protocol ([`codingame`]).
//!
//! ```
//! use ply::{Game, MoveList, Notation, Outcome};
//! use ply_impasse::Impasse;
//!
//! let game = Impasse::new();
//! let mut state = game.initial_state();
//! let mut moves = MoveList::new();
//! game.generate_moves(&state, &mut moves);
//! assert_eq!(moves.len(), 22);
//! let mv = game.parse_move(&state, "d2h6")?;
//! game.apply(&mut state, mv);
//! assert!(game.outcome(&state).is_none());
//! assert_eq!(game.format_state(&state), ".W.b.W.b/b.W.b.W./.......w/......../......../......../.B...B.w/w.B.w.B. b 0 0");
//! println!("{}", game.render(&state, Some(mv), false));
//! # Ok::<(), ply_impasse::Error>(())
//! ```
//!
//! ## Rules as the referee applies them
//!
//! - A basic move (single slide forward, double slide backward, transpose) is compulsory when
//!   one exists; otherwise the player removes one checker (impasse): a single, or the top of a
//!   double.
//! - A double that reaches its owner's near row (by a slide or a transpose) bears off its top
//!   checker at once, in the same action.
//! - After the action (and the bear-off), every pair (far-row single, another single) is a
//!   separate action that crowns; with no such pair the action stands alone and the crowning
//!   waits for a later action. An impasse removal of a single never crowns. A single that a
//!   slide moved to a square outside the far row cannot serve as the crown (the referee drops
//!   it from the candidates), and one action crowns at most once.
//! - Each removed checker scores 1; a player's score is 12 minus their checkers on the board.
//!   Removing the 12th checker wins; after 250 plies without a winner the game is drawn,
//!   whatever the scores.
//!
//! ## Generation order and duplicate texts
//!
//! Actions are generated as the referee does (single slides, double slides, transposes; or
//! impasse singles then doubles; each slide towards column a first, nearest square first),
//! except that pieces are visited in square order (`a1`, `b1`, ...) where the referee visits
//! them in the order its piece lists happen to hold. Crown targets follow the referee's rule
//! that a single created by the action comes last. When two actions print the same text (two
//! far-row singles crowned from the same source) [`Impasse::resolve`] and
//! [`ply::Notation::parse_move`] return the first, which is the one the referee plays as long
//! as at most one far-row single stood on the board before the action.
//!
//! In games from the start position neither the order nor the two quirks above matter: at the
//! start of a turn a player's far-row single, if any, is their only single (a crown is made
//! as soon as a second single exists, and consumes both), so no action has two far-row
//! singles plus a third single to choose from. Duplicate texts need a position set up by
//! hand; `tests/rules.rs` checks both the invariant along random games and such a position.

pub mod board;
pub mod codingame;
mod error;
pub mod eval;
pub mod features;
mod moves;
pub mod net;
mod notation;
mod rules;
mod zobrist;

pub use board::{Bitboard, Square};
pub use error::Error;
pub use eval::{evaluate, Weights};
pub use features::{learned, ImpasseFeatures, Learned};
pub use moves::{Crown, Move, MoveKind, MoveText};
pub use notation::board_lines;
pub use rules::{Impasse, ImpasseState, CHECKERS, PLY_LIMIT};
