//! The engine ply ships for checkers: alpha-beta with the engines' evaluation
//! ([`CheckersNet`]), ProbCut at the margin that won its match and, under the standard rules,
//! late-move reductions and the table kept from one move to the next
//! (`docs/benchmarks/strength.md`). The seed's `play`, the JSON-lines server and the tools'
//! default engine specs (`alphabeta:time=1s,probcut=50`, and
//! `alphabeta:time=1s,probcut=50,lmr=true,reuse=true` under `--rules standard`) all search
//! this way.

use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};

use crate::net::CheckersNet;
use crate::Rules;

/// ProbCut's margin in evaluation units (a hundredth of a unit of log-odds): +36 Elo
/// [+9, +61] over no ProbCut at 100 ms a move under the standard rules.
pub const PROBCUT_MARGIN: f64 = 50.0;

/// Whether the engine reduces late quiet moves under `rules`: under the standard rules LMR
/// won its SPRT (+34 Elo [+0, +67] at 100 ms with ProbCut); under the Deepomatic rules it was
/// undecided after 600 games (+13 [-1, +26]), so it stays off there.
pub fn reduces_late_moves(rules: Rules) -> bool {
    rules == Rules::Standard
}

/// Whether the engine uses its table's entries from its earlier searches (of the same game)
/// under `rules` ([`AlphaBetaOptions::keep_tt`]): under the standard rules this won its SPRT
/// (+19 Elo [+3, +34] at 100 ms with ProbCut and LMR); under the Deepomatic rules it has not
/// been measured, so it stays off there. A new engine's first search is the same either way.
pub fn keeps_table(rules: Rules) -> bool {
    rules == Rules::Standard
}

/// The search options of the shipped engine under `rules`: the library's defaults with
/// ProbCut, and late-move reductions and the kept table where [`reduces_late_moves`] and
/// [`keeps_table`].
///
/// ```
/// use ply_checkers::{engine, Rules};
///
/// assert_eq!(engine::options(Rules::Deepomatic).probcut, engine::PROBCUT_MARGIN);
/// assert!(engine::options(Rules::Standard).lmr && engine::options(Rules::Standard).keep_tt);
/// assert!(!engine::options(Rules::Deepomatic).lmr);
/// assert!(!engine::options(Rules::Deepomatic).keep_tt);
/// ```
pub fn options(rules: Rules) -> AlphaBetaOptions {
    AlphaBetaOptions {
        probcut: PROBCUT_MARGIN,
        lmr: reduces_late_moves(rules),
        keep_tt: keeps_table(rules),
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

/// The shipped engine for games under `rules`.
///
/// ```
/// use ply::search::{Agent, Budget, Position};
/// use ply::Game;
/// use ply_checkers::{EnglishCheckers, Rules};
///
/// let game = EnglishCheckers::new(8, Rules::Standard)?;
/// let report = ply_checkers::engine::engine(game.rules())
///     .choose(&game, Position::new(&game.initial_state()), &Budget::depth(6))
///     .unwrap();
/// assert_eq!(report.depth, 6);
/// # Ok::<(), ply_checkers::Error>(())
/// ```
pub fn engine(rules: Rules) -> AlphaBeta<CheckersNet> {
    AlphaBeta::with_options(options(rules)).with_evaluator(CheckersNet::default())
}
