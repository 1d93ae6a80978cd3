//! Perft and divide: count the leaves of the legal-move tree to check a move generator
//! against published figures, and to measure its speed.

use crate::game::{Game, MoveList};

/// How perft counts the last ply.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PerftMode {
    /// Count the moves at the last ply with [`Game::count_moves`] without playing them (the
    /// usual "bulk counting").
    #[default]
    Bulk,
    /// Play every leaf move through [`Game::apply`], measuring the whole generic path.
    MakeAll,
}

/// The number of leaf nodes `depth` plies below `state`; `perft(_, _, 0, _)` is 1. A game
/// that ends before the last ply counts as no leaf, or as one leaf where the game's
/// [`Game::perft_counts_finished_games`] says so (the convention of its published tables).
///
/// ```
/// use ply::{perft, Game, PerftMode};
/// use ply::games::TicTacToe;
///
/// let game = TicTacToe;
/// assert_eq!(perft(&game, &game.initial_state(), 2, PerftMode::Bulk), 72);
/// assert_eq!(perft(&game, &game.initial_state(), 2, PerftMode::MakeAll), 72);
/// ```
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32, mode: PerftMode) -> u64 {
    let mut lists: Vec<MoveList<G::Move>> = (0..depth).map(|_| MoveList::new()).collect();
    perft_with(game, state, depth, mode, &mut lists)
}

fn perft_with<G: Game>(
    game: &G,
    state: &G::State,
    depth: u32,
    mode: PerftMode,
    lists: &mut [MoveList<G::Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let finished = u64::from(game.perft_counts_finished_games());
    if depth == 1 && mode == PerftMode::Bulk {
        let n = game.count_moves(state);
        return if n == 0 { finished } else { n };
    }
    let (list, rest) = lists.split_first_mut().expect("one move list per ply");
    game.generate_moves(state, list);
    if list.is_empty() {
        return finished;
    }
    let mut total = 0;
    let mut child = state.clone();
    if depth == 2 && mode == PerftMode::Bulk {
        // The last ply counted in the loop: no call per child.
        for &mv in list.iter() {
            child.clone_from(state);
            game.apply(&mut child, mv);
            let n = game.count_moves(&child);
            total += if n == 0 { finished } else { n };
        }
        return total;
    }
    for &mv in list.iter() {
        child.clone_from(state);
        game.apply(&mut child, mv);
        total += perft_with(game, &child, depth - 1, mode, rest);
    }
    total
}

/// Perft split by first move: each legal move of `state` with the leaf count below it, in
/// generation order. The counts add up to `perft(game, state, depth, mode)`.
///
/// # Panics
/// If `depth` is 0 (divide needs at least one ply).
pub fn divide<G: Game>(
    game: &G,
    state: &G::State,
    depth: u32,
    mode: PerftMode,
) -> Vec<(G::Move, u64)> {
    assert!(depth >= 1, "divide needs depth >= 1");
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            (mv, perft(game, &child, depth - 1, mode))
        })
        .collect()
}
