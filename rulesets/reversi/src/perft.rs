//! The fast path of Othello perft, a speed baseline beside [`ply::perft()`] (the reference
//! count, which Reversi's `Game::perft_counts_finished_games` makes count like the published
//! tables): for Othello (2 players, 8x8) it runs on the bare bitboards with bulk counting at
//! the last ply; other boards go through [`Game`]. Both count a game over before the last ply
//! as one leaf (as Aart Bik's table and Edax do), so they give the same figures.

use ply::{Game, MoveList};

use crate::movegen::{mobility64, othello_flips, OTHELLO_INTERIOR};
use crate::{Reversi, ReversiState};

/// The number of leaves `depth` plies below `state`, a pass counting as a move and a finished
/// game as one leaf.
///
/// ```
/// use ply::Game;
/// let game = ply_reversi::Reversi::new(8, 2)?;
/// assert_eq!(ply_reversi::perft_fast(&game, &game.initial_state(), 5), 1_396);
/// # Ok::<(), ply_reversi::Error>(())
/// ```
pub fn perft_fast(game: &Reversi, state: &ReversiState, depth: u32) -> u64 {
    if game.is_othello() {
        let p = state.discs[state.to_move as usize][0];
        let o = state.discs[1 - state.to_move as usize][0];
        return othello(p, o, depth);
    }
    let mut lists: Vec<MoveList<_>> = (0..depth).map(|_| MoveList::new()).collect();
    generic(game, state, depth, &mut lists)
}

fn generic(
    game: &Reversi,
    state: &ReversiState,
    depth: u32,
    lists: &mut [MoveList<crate::ReversiMove>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    game.generate_moves(state, list);
    if list.is_empty() {
        return 1;
    }
    if depth == 1 {
        return list.len() as u64;
    }
    let mut total = 0;
    for &mv in list.iter() {
        let mut child = *state;
        game.apply(&mut child, mv);
        total += generic(game, &child, depth - 1, rest);
    }
    total
}

/// Perft on Othello bitboards: `p` to move against `o`.
fn othello(p: u64, o: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = mobility64(p, o, !(p | o), 8, OTHELLO_INTERIOR);
    if moves == 0 {
        let opp = mobility64(o, p, !(p | o), 8, OTHELLO_INTERIOR);
        // Game over (one leaf), or a pass.
        if opp == 0 || depth == 1 {
            return 1;
        }
        return othello(o, p, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = othello_flips(p, o, sq as u32);
        let np = p | f | 1 << sq;
        let no = o & !f;
        total += othello(no, np, depth - 1);
    }
    total
}
