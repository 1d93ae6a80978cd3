//! The engine ply ships for checkers: alpha-beta with the engines' evaluation
//! ([`CheckersNet`]) and ProbCut at the margin that won its match (BENCHMARKS.md, "Strength at
//! scale"). The seed's `play`, the JSON-lines server and the tools' default engine spec
//! (`alphabeta:time=1s,probcut=50`) all search this way.

use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};

use crate::net::CheckersNet;

/// ProbCut's margin in evaluation units (a hundredth of a unit of log-odds): +36 Elo
/// [+9, +61] over no ProbCut at 100 ms a move under the standard rules.
pub const PROBCUT_MARGIN: f64 = 50.0;

/// The search options of the shipped engine: the library's defaults with ProbCut.
///
/// ```
/// assert_eq!(ply_checkers::engine::options().probcut, ply_checkers::engine::PROBCUT_MARGIN);
/// ```
pub fn options() -> AlphaBetaOptions {
    AlphaBetaOptions { probcut: PROBCUT_MARGIN, ..AlphaBetaOptions::default() }
}

/// Loads the engine's networks now. They load once per process, on first use, which takes
/// tens to hundreds of milliseconds: a program that answers under a time limit calls this at
/// start-up, so that its first answer's time goes to the search.
///
/// ```
/// ply_checkers::engine::warm();
/// ```
pub fn warm() {
    let _ = CheckersNet::default();
}

/// The shipped engine.
///
/// ```
/// use ply::search::{Agent, Budget, Position};
/// use ply::Game;
/// use ply_checkers::{EnglishCheckers, Rules};
///
/// let game = EnglishCheckers::new(8, Rules::Standard)?;
/// let report = ply_checkers::engine::engine()
///     .choose(&game, Position::new(&game.initial_state()), &Budget::depth(6))
///     .unwrap();
/// assert_eq!(report.depth, 6);
/// # Ok::<(), ply_checkers::Error>(())
/// ```
pub fn engine() -> AlphaBeta<CheckersNet> {
    AlphaBeta::with_options(options()).with_evaluator(CheckersNet::default())
}
