//! # ply-kalah
//!
//! Kalah(m,n) for the [`ply`] framework: the mancala game in which a player who sows the
//! last seed into their own store moves again. It is the bundled game with extra turns, so
//! it is where two-player alpha-beta must follow the mover (no negation when the same
//! player moves twice) instead of assuming that the players alternate.
//!
//! ```
//! use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
//! use ply::search::{Agent, Budget, Position};
//! use ply::{perft, Game, MoveList, Notation, PerftMode};
//! use ply_kalah::{Capture, Kalah};
//!
//! let game = Kalah::new(6, 4, Capture::Empty)?;
//! let mut state = game.initial_state();
//! assert_eq!(perft(&game, &state, 1, PerftMode::Bulk), 6);
//!
//! // House 3 sows its four seeds into houses 4, 5, 6 and the store: South moves again.
//! let mv = game.parse_move(&state, "3")?;
//! game.apply(&mut state, mv);
//! assert_eq!(game.format_state(&state), "4,4,0,5,5,5/1/4,4,4,4,4,4/0 s");
//! println!("{}", game.render(&state, Some(mv), false));
//!
//! // Alpha-beta in its exact endgame mode solves a small game: the value is the final
//! // store difference for the player to move.
//! let small = Kalah::new(3, 2, Capture::Empty)?;
//! let mut engine = AlphaBeta::with_options(AlphaBetaOptions::endgame());
//! let report = engine.choose(&small, Position::new(&small.initial_state()), &Budget::depth(60))
//!     .unwrap();
//! println!("Kalah(3,2): {} with house {}", report.value, report.best_move.number());
//! # Ok::<(), ply_kalah::Error>(())
//! ```
//!
//! ## Rules
//!
//! Two players, South (player 0, moves first) and North (player 1), each own `m` houses and
//! a store to the right of them; every house starts with `n` seeds. A move takes all the
//! seeds of one of the mover's non-empty houses and sows them one by one counter-clockwise
//! into the following houses and the mover's own store, skipping the opponent's store.
//!
//! - **Extra turn**: if the last seed lands in the mover's store, the same player moves
//!   again, as many times as that happens.
//! - **Capture**: if the last seed lands in an empty house of the mover, the mover takes it
//!   and the seeds of the opposite house into their store. [`Capture`] picks the variant:
//!   [`Capture::Empty`] (the default, the "empty capture" rule of the published solutions)
//!   takes the lone seed even when the opposite house is empty; [`Capture::Standard`] only
//!   captures when the opposite house has seeds; [`Capture::None`] never captures.
//! - **End**: as soon as either side's houses are empty after a move, each player adds the
//!   seeds left in their own houses to their own store and the game ends; the larger store
//!   wins. [`ply::Game::outcome`] reports both stores ([`ply::Outcome::Scores`], South's
//!   first), so [`ply::Outcome::margin`] is the store difference that exact solving
//!   maximises.
//!
//! [`Kalah::new`] takes 1 to 8 houses per side and 1 to 15 seeds per house;
//! [`Kalah::standard`] is Kalah(6,4) with the empty-capture rule.
//!
//! Every game ends: stores never shrink, and a move that puts no seed in a store only moves
//! the mover's seeds along the mover's own row towards the store (a sowing that passes the
//! store drops a seed in it). So the position can never repeat, and the state needs no move
//! counter.
//!
//! ## The state
//!
//! [`KalahState`] is one byte per house (`[[u8; 8]; 2]`, house 1 first on each side), one per
//! store and the player to move: 19 bytes, `Copy`. A move sows whole laps of `2m + 1` seeds
//! at once and the rest one by one. When the game ends [`ply::Game::apply`] sweeps the houses
//! into the stores, so a finished game shows its final score.
//!
//! ## Search
//!
//! - [`ply::Game::hash`]: [`ply::zobrist::fold_words`] over the two sides' houses (a byte per
//!   house, one word per side) and the stores, from a seed per player to move.
//! - [`ply::Game::move_key`]: `player * m + house`, below `move_key_space() = 2m`.
//! - [`ply::Game::evaluate`]: the store difference from the player's side, in seeds.
//! - [`ply::Game::solve_endgame`]: the final margin lies within the store difference plus
//!   or minus the seeds left in the houses; when that range already falls outside the
//!   search window `(alpha, beta)` its near end is the fail-soft answer. Positions with at
//!   most [`DEFAULT_EXACT_SEEDS`] seeds left in the houses ([`Kalah::with_exact_seeds`]
//!   changes the number or turns the help off) are answered exactly from a seed table built
//!   on first use.
//! - [`SeedTable`] ([`Kalah::with_table`]): the exact *gain* (the final margin minus the
//!   store difference) of every position with at most `K` seeds in the houses, computed once
//!   in memory or read from files; `solve_endgame` answers those positions at once.
//! - Exact solving ([`ply::solve`], `kalah solve`): [`ply::Game::solve_banked`] (the store
//!   difference) and a [`ply::Game::value_hash`] of the houses alone let positions whose
//!   stores differ share the proof table's entries, and [`ply::Game::solve_order`] tries the
//!   moves that end in the mover's store first, the nearest first. With the 28-seed table
//!   the generic prover proves Kalah(6,4) (a first-player win by 10 under the empty-capture
//!   rule, the published value) in under a second and Kalah(6,5) (+12) in minutes.
//! - Endgame databases: [`ply::endgame::EndgameIndex`] slices positions by the seeds still
//!   in the houses (see the `endgame` module), so `egdb build` works for Kalah.
//!
//! ## Notation
//!
//! A move is the house number, `1` to `m`, counted from the mover's side: house 1 is the
//! farthest from the mover's store. A position is South's houses 1..m, South's store,
//! North's houses 1..m, North's store, then `s` or `n` for the side to move:
//! `1,0,0,1,2,5/20/1,0,0,0,1,1/16 s`. [`ply::Notation::render`] draws the board:
//!
//! ```text
//!     6   5   4   3   2   1
//!     4   4   4   4   4   4
//!  0                          1
//!     4   4 [ 0]  5   5   5
//!     1   2   3   4   5   6
//! South to move
//! ```

mod endgame;
mod error;
pub mod eval;
mod notation;
mod rules;
pub mod table;

pub use error::Error;
pub use eval::Weighted;
pub use rules::{Capture, Kalah, KalahState, Move, DEFAULT_EXACT_SEEDS, MAX_PITS, MAX_SEEDS};
pub use table::SeedTable;
