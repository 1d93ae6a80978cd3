//! # ply-breakthrough
//!
//! Breakthrough (Dan Troyka, 2000) for the [`ply`] framework, and the framework's second
//! tutorial: a complete ruleset on `u64` bitboards, written only against `ply`'s public API.
//! Read this page, then the source top to bottom: `src/rules.rs` (the board, [`Breakthrough`]
//! and its [`ply::Game`] implementation), `src/eval.rs` ([`eval`]), `src/notation.rs` (the
//! [`ply::Notation`] implementation) and the tests in `tests/`.
//!
//! ```
//! use ply::search::{alphabeta::AlphaBeta, Agent, Budget, Position};
//! use ply::{perft, Game, MoveList, Notation, PerftMode};
//! use ply_breakthrough::Breakthrough;
//!
//! let game = Breakthrough::standard();
//! let mut state = game.initial_state();
//! let mut moves = MoveList::new();
//! game.generate_moves(&state, &mut moves);
//! assert_eq!(moves.len(), 22);
//! assert_eq!(perft(&game, &state, 3, PerftMode::Bulk), 11_132);
//!
//! // Moves and positions as text.
//! let mv = game.parse_move(&state, "d2-e3")?;
//! game.apply(&mut state, mv);
//! assert_eq!(
//!     game.format_state(&state),
//!     "BBBBBBBB/BBBBBBBB/......../......../......../....W.../WWW.WWWW/WWWWWWWW b"
//! );
//! println!("{}", game.render(&state, Some(mv), false));
//!
//! // Any agent of the framework plays it.
//! let report = AlphaBeta::new().choose(&game, Position::new(&state), &Budget::depth(4)).unwrap();
//! println!("Black plays {}", game.format_move(&state, report.best_move));
//! # Ok::<(), ply_breakthrough::Error>(())
//! ```
//!
//! ## Rules
//!
//! Each side starts with its two home rows full of pawns: White on rows 1 and 2, Black on
//! the two top rows. White moves first. A pawn moves one square forward, straight or
//! diagonally, onto an empty square, or captures an enemy pawn one square diagonally forward;
//! it never captures straight ahead, and captures are never forced. A player wins by moving
//! a pawn onto the far row, or by capturing every enemy pawn. [`Breakthrough::new`] takes
//! any board of 3 to 16 columns and 4 to 16 rows with at most 64 squares;
//! [`Breakthrough::standard`] is the usual 8 x 8.
//!
//! Every game ends: each move takes one pawn one row forward, and pawns never move back, so
//! a side makes at most `(rows - 1)` moves per pawn, and at most `2 * cols * (rows - 1)`
//! moves in all (under 256 plies for both sides on any board). The state needs no move
//! counter (contract point 9 of [`ply::Game`]).
//!
//! ## The state: two bitboards
//!
//! [`BreakthroughState`] is two `u64`s, one per player, with one bit per square, and the
//! player to move: 24 bytes, `Copy`. Square `(col, row)`, counted from `a1` at White's
//! bottom left, is bit `row * cols + col`, so the board takes the low `cols * rows` bits and
//! one row is `cols` consecutive bits:
//!
//! ```text
//!         a  b  c  d  e  f  g  h
//!     8  56 57 58 59 60 61 62 63      Black's home rows
//!     7  48 49 50 51 52 53 54 55
//!     ...
//!     2   8  9 10 11 12 13 14 15      White's home rows
//!     1   0  1  2  3  4  5  6  7
//! ```
//!
//! Why bitboards: a pawn move is the same step for every pawn of a side, and a shift moves
//! every bit at once. Move generation, move counting for perft, the end-of-game test and the
//! evaluation's features are each a few shifts, ANDs and popcounts, with no loop over
//! squares and no allocation. A small state is also what `ply`'s searches want: they copy the
//! parent state before each move (copy-make) instead of undoing moves.
//!
//! ## Moves from shifts and masks
//!
//! One row up is `cols` bits up. For White, with `own`, `enemy` and `empty` bitboards:
//!
//! ```text
//! straight = (own << cols) & empty
//! left     = ((own & !file_a) << (cols - 1)) & (empty | enemy)
//! right    = ((own & !last_file) << (cols + 1)) & (empty | enemy)
//! ```
//!
//! each ANDed with the board mask, so that nothing falls off the top into unused bits.
//! Black shifts right instead, with the diagonal shifts swapped (`cols + 1` for left). The
//! file masks stop a diagonal step from wrapping round from one edge of the board to the
//! other. Each result holds every *destination* of one kind of step; the origin of a
//! destination is one step back, so popping its bits gives the moves, and
//! [`ply::Game::count_moves`] is just the three popcounts (perft's bulk counting). A
//! [`Move`] is the pair of square indices; whether it captures follows from the board.
//!
//! The game is over when the player to move has no pawns, or the opponent has a pawn on its
//! far row; then `generate_moves` gives nothing and `outcome` names the opponent. Both
//! methods share this test, so a state is terminal exactly when it has no legal move.
//!
//! ## Hash and move keys
//!
//! [`ply::Game::hash`] is a Zobrist hash: the XOR of a fixed random key per (player, square)
//! for every pawn, and one more key when Black is to move. The keys are a `const` table from
//! [`ply::zobrist::key_table`], built at compile time.
//!
//! [`ply::Game::move_key`] names a move `from * squares + to`, below
//! [`ply::Game::move_key_space`] `= squares * squares` (4,096 on 8 x 8). Search keeps its
//! history and killer statistics in flat tables indexed by it. Pawns move forward only, so a
//! White move and a Black move never share a key.
//!
//! ## Evaluation, apart from the rules
//!
//! The rules do not decide how good a position is. That is the job of an evaluator, a type
//! implementing [`ply::eval::Evaluator`]: the [`eval`] module has [`Standard`] (material,
//! advancement, home-row guards and hanging pawns) and [`Material`] (pawns only).
//! [`ply::Game::evaluate`] delegates to [`Standard::DEFAULT`]; a search given another
//! evaluator (a learned one, a cheaper one) plays with that one instead, with the same rules.
//! The evaluators use only public methods ([`BreakthroughState::pawns`],
//! [`Breakthrough::row_mask`], [`Breakthrough::attacks`]), so an evaluator of your own can
//! live in your crate.
//!
//! ## Notation
//!
//! Moves are `a2-a3`, and `b4xc5` for a capture; [`ply::Notation::parse_move`] also takes
//! `a2a3`, `B4XC5` and other spellings without separator or in capitals. Positions are the
//! rows from the top, `W`, `B` or `.` per square, joined by `/`, then the side to move:
//! the start is `BBBBBBBB/BBBBBBBB/......../......../......../......../WWWWWWWW/WWWWWWWW w`.
//! [`ply::Notation::render`] draws the board with coordinates, marks the last move's two
//! squares with brackets and can colour the pawns:
//!
//! ```text
//! 8  B  B  B  B  B  B  B  B
//! 7  B  B  B  B  B  B  B  B
//! 6  .  .  .  .  .  .  .  .
//! 5  .  .  .  .  .  .  .  .
//! 4  .  .  .  .  .  .  .  .
//! 3  .  .  .  . [W] .  .  .
//! 2  W  W  W [.] W  W  W  W
//! 1  W  W  W  W  W  W  W  W
//!    a  b  c  d  e  f  g  h
//! Black (B) to move
//! ```

mod error;
pub mod eval;
pub mod features;
pub mod net;
mod notation;
mod rules;

pub use error::Error;
pub use eval::{Material, Standard};
pub use features::{learned, Learned, PawnFeatures};
pub use rules::{Breakthrough, BreakthroughState, Move};
