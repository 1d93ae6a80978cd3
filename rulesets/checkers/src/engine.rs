//! The engine ply ships for checkers: alpha-beta with the engines' evaluation
//! ([`CheckersNet`]), ProbCut at the margin that won its match, late-move reductions and the
//! table kept from one move to the next (`docs/benchmarks/strength.md`). The seed's `play`,
//! the JSON-lines server and the tools' default engine spec
//! (`alphabeta:time=1s,probcut=50,lmr=true,reuse=true`) all search this way.

use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};

use crate::net::CheckersNet;

/// ProbCut's margin in evaluation units (a hundredth of a unit of log-odds): +36 Elo
/// [+9, +61] over no ProbCut at 100 ms a move under the standard rules.
pub const PROBCUT_MARGIN: f64 = 50.0;

/// The search options of the shipped engine, the same under both rule sets: the library's
/// defaults with ProbCut, late-move reductions and the table kept from one move to the next
/// ([`AlphaBetaOptions::keep_tt`]). Under the standard rules LMR won its SPRT on top of ProbCut
/// (+34 Elo [+0, +67] at 100 ms) and the kept table on top of both (+19 [+3, +34]); under the
/// Deepomatic rules the two together won theirs against ProbCut alone (+40 [+12, +66]).
///
/// ```
/// use ply_checkers::engine;
///
/// let options = engine::options();
/// assert_eq!(options.probcut, engine::PROBCUT_MARGIN);
/// assert!(options.lmr && options.keep_tt);
/// ```
pub fn options() -> AlphaBetaOptions {
    AlphaBetaOptions {
        probcut: PROBCUT_MARGIN,
        lmr: true,
        keep_tt: true,
        ..AlphaBetaOptions::default()
    }
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

/// The shipped engine, for games under either rule set (the network follows the game's
/// rules).
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
