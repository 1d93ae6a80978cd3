//! The engine ply ships for international draughts: alpha-beta with the engines' evaluation
//! ([`DraughtsNet`]), ProbCut at the margin that won its match and late-move reductions that
//! grow with the depth and the move's number (`docs/benchmarks/strength.md`). The Hub engine
//! and the tools' default engine spec (`alphabeta:time=2s,probcut=50,lmr=true,lmrlog=1.25`)
//! search this way.

use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};

use crate::net::DraughtsNet;

/// ProbCut's margin in evaluation units (a hundredth of a unit of log-odds): +32 Elo
/// [+5, +58] over no ProbCut at 100 ms a move, with the network.
pub const PROBCUT_MARGIN: f64 = 50.0;

/// The divisor of the late-move reductions' growth ([`AlphaBetaOptions::lmr_log`]): +22 Elo
/// [-5, +49] over the fixed reductions at 100 ms a move, H1 accepted after 233 games.
pub const LMR_LOG: f64 = 1.25;

/// The search options of the shipped engine: the library's defaults with ProbCut and
/// late-move reductions (+50 Elo [+14, +81] over ProbCut alone at 100 ms a move), growing
/// with the depth and the move's number ([`LMR_LOG`]).
///
/// ```
/// let options = ply_draughts::engine::options();
/// assert_eq!(options.probcut, ply_draughts::engine::PROBCUT_MARGIN);
/// assert!(options.lmr && options.lmr_log == ply_draughts::engine::LMR_LOG);
/// ```
pub fn options() -> AlphaBetaOptions {
    AlphaBetaOptions {
        probcut: PROBCUT_MARGIN,
        lmr: true,
        lmr_log: LMR_LOG,
        ..AlphaBetaOptions::default()
    }
}

/// The shipped engine.
///
/// ```
/// use ply::search::{Agent, Budget, Position};
/// use ply::Game;
/// use ply_draughts::InternationalDraughts;
///
/// let game = InternationalDraughts::new();
/// let report = ply_draughts::engine::engine()
///     .choose(&game, Position::new(&game.initial_state()), &Budget::depth(4))
///     .unwrap();
/// assert_eq!(report.depth, 4);
/// ```
pub fn engine() -> AlphaBeta<DraughtsNet> {
    AlphaBeta::with_options(options()).with_evaluator(DraughtsNet::default())
}
