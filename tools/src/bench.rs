//! Benchmark workloads for any game: perft, alpha-beta (or paranoid and max^n for other than
//! two players) and MCTS, from the start and from a middle-game position, each sized by a
//! count (leaves, nodes, iterations) rather than by time so that a run is the same work on
//! every machine. A benchmark harness (the `ply-bench` crate's criterion benches) times them;
//! this module only builds them, so the tools need no benchmark framework.
//!
//! ```
//! use ply::games::TicTacToe;
//! use ply_tools::bench::{workloads, Sizes};
//!
//! let mut list = workloads(TicTacToe, &Sizes::tiny());
//! assert!(list.iter().any(|w| w.name.starts_with("perft/start/")));
//! let work = (list[0].run)();
//! assert_eq!(work, list[0].elements);
//! ```

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply::search::alphabeta::AlphaBeta;
use ply::search::mcts::Mcts;
use ply::search::multiplayer::{MultiplayerSearch, OpponentModel};
use ply::search::{Agent, Budget, Position};
use ply::{perft, Game, MoveList, PerftMode};

/// One thing to time: `run` does the work and returns its size, which is `elements`.
pub struct Workload {
    /// `<algorithm>/<position>/<size>`, e.g. `alphabeta/middle/depth9`.
    pub name: String,
    /// Leaves (perft), nodes (searches) or iterations (MCTS) of one run.
    pub elements: u64,
    /// Does the work once; returns the elements counted.
    pub run: Box<dyn FnMut() -> u64 + Send>,
}

/// How big each workload is: the smallest depth whose count reaches the target.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    /// Perft leaves.
    pub perft_leaves: u64,
    /// Search nodes.
    pub search_nodes: u64,
    /// MCTS iterations.
    pub mcts_iterations: u64,
    /// Random plies from the start to the middle-game position.
    pub middle_plies: usize,
}

impl Default for Sizes {
    /// About a second of work each on a current machine.
    fn default() -> Self {
        Sizes {
            perft_leaves: 2_000_000,
            search_nodes: 300_000,
            mcts_iterations: 3_000,
            middle_plies: 20,
        }
    }
}

impl Sizes {
    /// Tiny workloads, for tests.
    pub fn tiny() -> Self {
        Sizes { perft_leaves: 100, search_nodes: 100, mcts_iterations: 20, middle_plies: 4 }
    }
}

/// The deepest depth searched for a target before giving up (a game too small to reach it).
const MAX_DEPTH: u32 = 40;

/// A middle-game position: `plies` seeded random plies from the start. A game that ends
/// sooner on every one of the first 64 seeds gives the longest line that left a position
/// with at least two moves (or the start), so this always returns.
pub fn middle_position<G: Game>(game: &G, plies: usize) -> G::State {
    let mut moves = MoveList::new();
    let mut best = (0, game.initial_state());
    for seed in 1..=64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = game.initial_state();
        for ply in 1..=plies {
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.apply(&mut state, mv);
            game.generate_moves(&state, &mut moves);
            if moves.len() >= 2 && ply > best.0 {
                best = (ply, state.clone());
            }
        }
        if best.0 == plies {
            break;
        }
    }
    best.1
}

/// The workloads of `game`; see the [module docs](self).
pub fn workloads<G>(game: G, sizes: &Sizes) -> Vec<Workload>
where
    G: Game + Send + Sync + 'static,
{
    let game = Arc::new(game);
    let start = game.initial_state();
    let middle = middle_position(&*game, sizes.middle_plies);
    let mut out = Vec::new();

    let mut depth = 1;
    let mut leaves = perft(&*game, &start, depth, PerftMode::Bulk);
    while leaves < sizes.perft_leaves && depth < MAX_DEPTH {
        let next = perft(&*game, &start, depth + 1, PerftMode::Bulk);
        if next == 0 {
            break;
        }
        (depth, leaves) = (depth + 1, next);
    }
    let (g, s) = (game.clone(), start.clone());
    out.push(Workload {
        name: format!("perft/start/depth{depth}"),
        elements: leaves,
        run: Box::new(move || perft(&*g, &s, depth, PerftMode::Bulk)),
    });

    for (position, state) in [("start", start), ("middle", middle)] {
        let mut moves = MoveList::new();
        game.generate_moves(&state, &mut moves);
        if moves.len() < 2 {
            continue;
        }
        if game.num_players() == 2 {
            out.push(search_workload(&game, "alphabeta", AlphaBeta::new, position, &state, sizes));
        } else {
            for model in [OpponentModel::Paranoid, OpponentModel::MaxN] {
                let name = model.to_string();
                let make = move || MultiplayerSearch::new(model);
                out.push(search_workload(&game, &name, make, position, &state, sizes));
            }
        }
        let budget = Budget::iterations(sizes.mcts_iterations);
        let (g, s) = (game.clone(), state.clone());
        out.push(Workload {
            name: format!("mcts/{position}/iters{}", sizes.mcts_iterations),
            elements: sizes.mcts_iterations,
            run: Box::new(move || {
                let report = Mcts::new().with_seed(1).choose(&*g, Position::new(&s), &budget);
                report.map_or(0, |r| r.iterations)
            }),
        });
    }
    out
}

/// A fixed-depth search from `state`, at the smallest depth that searches `sizes.search_nodes`
/// nodes (a fresh agent each run, so every run is the same search).
fn search_workload<G, A>(
    game: &Arc<G>,
    name: &str,
    make: impl Fn() -> A + Send + 'static,
    position: &str,
    state: &G::State,
    sizes: &Sizes,
) -> Workload
where
    G: Game + Send + Sync + 'static,
    A: Agent<G>,
{
    let nodes_at = |depth: u32| {
        make().choose(&**game, Position::new(state), &Budget::depth(depth)).map_or(0, |r| r.nodes)
    };
    let mut depth = 1;
    let mut nodes = nodes_at(depth);
    while nodes < sizes.search_nodes && depth < MAX_DEPTH {
        let next = nodes_at(depth + 1);
        if next <= nodes {
            break; // solved: deeper iterations do no more work
        }
        (depth, nodes) = (depth + 1, next);
    }
    let (g, s) = (game.clone(), state.clone());
    Workload {
        name: format!("{name}/{position}/depth{depth}"),
        elements: nodes,
        run: Box::new(move || {
            make().choose(&*g, Position::new(&s), &Budget::depth(depth)).map_or(0, |r| r.nodes)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::{ConnectFour, ThreeHeaps, TicTacToe};

    #[test]
    fn every_workload_repeats_its_count() {
        for mut w in workloads(ConnectFour::standard(), &Sizes::tiny()) {
            assert!(w.elements > 0, "{}", w.name);
            assert_eq!((w.run)(), w.elements, "{}", w.name);
            assert_eq!((w.run)(), w.elements, "{} twice", w.name);
        }
    }

    #[test]
    fn multiplayer_games_get_multiplayer_searches() {
        let names: Vec<String> =
            workloads(ThreeHeaps::standard(), &Sizes::tiny()).into_iter().map(|w| w.name).collect();
        assert!(names.iter().any(|n| n.starts_with("paranoid/start/")), "{names:?}");
        assert!(names.iter().any(|n| n.starts_with("maxn/start/")), "{names:?}");
        assert!(!names.iter().any(|n| n.starts_with("alphabeta/")), "{names:?}");
    }

    #[test]
    fn short_games_still_give_a_middle_position() {
        // Tic-tac-toe ends within 9 plies: asking for 20 must not loop forever.
        let game = TicTacToe;
        let s = middle_position(&game, 20);
        assert!(game.outcome(&s).is_none());
    }
}
