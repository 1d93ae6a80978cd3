//! The search agreement check: every alpha-beta enhancement must give the root value of plain
//! minimax at the same depth, and a best move among the moves that reach it.
//!
//! A ruleset calls [`check_agreement`] from its tests on positions from
//! [`random_positions`]. The reference is a plain negamax written out in this module, with no
//! pruning, using the same leaf rule as the search: a terminal position scores a win or loss
//! by distance from the root (zero for a shared first place), a position at the horizon is
//! evaluated if it is quiet, and with quiescence a non-quiet one is searched one more ply, up
//! to [`QUIESCENCE_DEPTH`] plies beyond the horizon.
//!
//! The checked option sets are: plain alpha-beta, PVS alone, the transposition table alone
//! (with [`AlphaBetaOptions::tt_exact_depth`], since a deeper stored result legitimately
//! changes a fixed-depth value), aspiration windows alone (with a narrow window, so that
//! re-searches happen), killers plus history alone, quiescence alone, and all of them
//! together. Repetition draws are off throughout: they depend on the path, which plain minimax
//! does not share with a transposition table.
//!
//! ```
//! use ply::games::TicTacToe;
//! use ply::testing::agreement::{check_agreement, random_positions};
//!
//! let game = TicTacToe;
//! let positions = random_positions(&game, 20, 6, 7);
//! check_agreement(&game, &positions, 3).unwrap();
//! ```

use num_traits::Zero;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, MoveList};
use crate::search::alphabeta::common::terminal_score;
use crate::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use crate::search::{Budget, Position};

/// The quiescence depth limit used by the check (and by its reference).
pub const QUIESCENCE_DEPTH: u32 = 4;

/// A search result that differs from plain minimax.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("position {position} ({state}), depth {depth}, options {options}: {problem}")]
pub struct Disagreement {
    /// Index of the position in the list given.
    pub position: usize,
    /// The position, debug-formatted.
    pub state: String,
    /// The search depth.
    pub depth: u32,
    /// The name of the option set that disagreed.
    pub options: &'static str,
    /// What differed.
    pub problem: String,
}

/// Checks every enhancement option set of [`AlphaBeta`] against plain minimax at `depth` on
/// each of `positions` (terminal positions and positions with a single move are skipped).
///
/// # Errors
/// The first [`Disagreement`] found: a different root value, a best move whose minimax value
/// is not the best, or a search error.
pub fn check_agreement<G: Game>(
    game: &G,
    positions: &[G::State],
    depth: u32,
) -> Result<(), Disagreement> {
    let base = AlphaBetaOptions { tt_mb: 1, ..AlphaBetaOptions::plain() };
    let sets: [(&'static str, AlphaBetaOptions); 7] = [
        ("plain", base.clone()),
        ("pvs", AlphaBetaOptions { pvs: true, ..base.clone() }),
        ("tt", AlphaBetaOptions { tt: true, tt_exact_depth: true, ..base.clone() }),
        (
            "aspiration",
            AlphaBetaOptions { aspiration: true, aspiration_window: 1.0, ..base.clone() },
        ),
        ("ordering", AlphaBetaOptions { killers: true, history: true, ..base.clone() }),
        (
            "quiescence",
            AlphaBetaOptions {
                quiescence: true,
                max_quiescence_depth: QUIESCENCE_DEPTH,
                ..base.clone()
            },
        ),
        (
            "all",
            AlphaBetaOptions {
                tt_mb: 1,
                tt_exact_depth: true,
                repetition: false,
                max_quiescence_depth: QUIESCENCE_DEPTH,
                ..AlphaBetaOptions::default()
            },
        ),
    ];
    let mut agents: Vec<AlphaBeta> =
        sets.iter().map(|(_, o)| AlphaBeta::with_options(o.clone())).collect();
    let mut reference = Reference { game, lists: Vec::new(), max_q: 0 };
    let mut moves = MoveList::new();
    let budget = Budget::depth(depth);
    for (index, state) in positions.iter().enumerate() {
        game.generate_moves(state, &mut moves);
        if moves.len() < 2 || depth == 0 {
            continue;
        }
        for quiescence in [false, true] {
            reference.max_q = if quiescence { QUIESCENCE_DEPTH } else { 0 };
            let values: Vec<G::Score> = moves
                .iter()
                .map(|&mv| {
                    let mut child = state.clone();
                    game.apply(&mut child, mv);
                    -reference.negamax(&child, depth - 1, 1, 0)
                })
                .collect();
            let best = values.iter().copied().fold(values[0], |a, b| if b > a { b } else { a });
            for ((name, options), agent) in sets.iter().zip(agents.iter_mut()) {
                if options.quiescence != quiescence {
                    continue;
                }
                let fail = |problem: String| Disagreement {
                    position: index,
                    state: format!("{state:?}"),
                    depth,
                    options: name,
                    problem,
                };
                let searched = agent
                    .run(game, Position::new(state), &budget)
                    .map_err(|e| fail(format!("search failed: {e}")))?;
                let (report, raw) = (searched.report, searched.score);
                if raw != Some(best) {
                    return Err(fail(format!("root value {raw:?}, minimax {best:?}")));
                }
                let i = moves.iter().position(|&m| m == report.best_move);
                if i.map(|i| values[i]) != Some(best) {
                    return Err(fail(format!(
                        "best move {:?} has minimax value {:?}, the best is {best:?}",
                        report.best_move,
                        i.map(|i| values[i])
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Positions from seeded random games: up to `count` non-terminal positions, taken after 0 to
/// `max_plies` random moves from the initial state (one per game).
pub fn random_positions<G: Game>(
    game: &G,
    count: usize,
    max_plies: u32,
    seed: u64,
) -> Vec<G::State> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = MoveList::new();
    let mut out = Vec::with_capacity(count);
    for _ in 0..count * 4 {
        if out.len() == count {
            break;
        }
        let mut state = game.initial_state();
        let plies = rng.gen_range(0..=max_plies);
        for _ in 0..plies {
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.apply(&mut state, mv);
        }
        if game.outcome(&state).is_none() {
            out.push(state);
        }
    }
    out
}

/// Plain negamax with the search's leaf rule; `max_q` is 0 without quiescence.
struct Reference<'a, G: Game> {
    game: &'a G,
    lists: Vec<MoveList<G::Move>>,
    max_q: u32,
}

impl<G: Game> Reference<'_, G> {
    fn negamax(&mut self, state: &G::State, depth: u32, ply: usize, qply: u32) -> G::Score {
        let game = self.game;
        let mover = game.to_move(state);
        if let Some(o) = game.outcome(state) {
            return terminal_score(&o, mover, ply, false);
        }
        if depth == 0 && (qply >= self.max_q || game.is_quiet(state)) {
            return game.evaluate(state, mover);
        }
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, MoveList::new);
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        game.generate_moves(state, &mut moves);
        let (d, q) = if depth > 0 { (depth - 1, 0) } else { (0, qply + 1) };
        let mut best = None;
        for &mv in moves.iter() {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            let v = -self.negamax(&child, d, ply + 1, q);
            best = match best {
                Some(b) if b >= v => Some(b),
                _ => Some(v),
            };
        }
        self.lists[ply] = moves;
        best.unwrap_or_else(G::Score::zero)
    }
}
