//! Perft and divide on the bundled games against published figures.
//!
//! The perft tables are `data/*.perft`; where they were published is in the repository:
//! `docs/references/tic-tac-toe.md` (games ending on each ply, after Henry Bottomley; 255,168
//! games in all, OEIS A061526; the perft table follows from them) and
//! `docs/references/connect-four.md` (distinct 7x6 positions after n plies, OEIS A212693; the
//! perft table, as listed by the Regular Boardgames project's validation tests, whose depths
//! 1-7 also follow from the rules). Perft counts no leaves below a finished game. Deeper Connect
//! Four figures run in release through `cargo bench --bench search -- perft`.

use std::collections::HashSet;

use ply::games::{ConnectFour, TicTacToe, TicTacToeState};
use ply::perft::{PerftLimit, PerftTable};
use ply::{divide, perft, Game, MoveList, Outcome, PerftMode};

fn tictactoe() -> PerftTable {
    include_str!("data/tictactoe.perft").parse().unwrap()
}

fn connect_four() -> PerftTable {
    include_str!("data/connect-four.perft").parse().unwrap()
}

/// The leaves of the table's start position at `depth`.
fn start_leaves(table: &PerftTable, depth: u32) -> u64 {
    table.cases[0].leaves(depth).unwrap()
}

/// `docs/references/tic-tac-toe.md`: the perft table (`data/tictactoe.perft`).
#[test]
fn tictactoe_perft_matches_the_published_table() {
    let game = TicTacToe;
    let count = |s: &_, depth| perft(&game, s, depth, PerftMode::Bulk);
    assert_eq!(tictactoe().check(&game, PerftLimit::Depth(9), count), Ok(10));
}

/// Counts every finished game: the sum over depths of the leaves that are terminal.
fn games_played<G: Game>(game: &G, state: &G::State) -> u64 {
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    if moves.is_empty() {
        return 1;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            games_played(game, &child)
        })
        .sum()
}

/// `docs/references/tic-tac-toe.md`: 255,168 games (OEIS A061526).
#[test]
fn tictactoe_has_255168_games() {
    assert_eq!(games_played(&TicTacToe, &TicTacToe.initial_state()), 255_168);
}

/// Finished games by the ply they end on and by result: `[x wins, o wins, draws]` per ply.
fn games_by_ply(state: &TicTacToeState, ply: usize, out: &mut [[u64; 3]; 10]) {
    let game = TicTacToe;
    match game.outcome(state) {
        Some(Outcome::Winner(p)) => out[ply][p.index()] += 1,
        Some(_) => out[ply][2] += 1,
        None => {
            let mut moves = MoveList::new();
            game.generate_moves(state, &mut moves);
            for &mv in moves.iter() {
                let mut child = *state;
                game.apply(&mut child, mv);
                games_by_ply(&child, ply + 1, out);
            }
        }
    }
}

/// `docs/references/tic-tac-toe.md`: games ending on plies 5 to 9 (Henry Bottomley): 1,440;
/// 5,328; 47,952; 72,576; 127,872, of which 46,080 draws; 131,184 won by X, 77,904 by O.
#[test]
fn tictactoe_games_end_on_the_published_plies() {
    let mut out = [[0u64; 3]; 10];
    games_by_ply(&TicTacToe.initial_state(), 0, &mut out);
    let ending: Vec<u64> = out.iter().map(|r| r.iter().sum()).collect();
    assert_eq!(ending, [0, 0, 0, 0, 0, 1_440, 5_328, 47_952, 72_576, 127_872]);
    assert_eq!(out[9], [81_792, 0, 46_080]);
    let x: u64 = out.iter().map(|r| r[0]).sum();
    let o: u64 = out.iter().map(|r| r[1]).sum();
    assert_eq!((x, o), (131_184, 77_904));
}

/// `docs/references/connect-four.md`: the perft table, depths 1-8 (Regular Boardgames
/// validation tests; depths 1-7 also follow from the rules: 7^n, and 7^7 - 7 once a column
/// can be full), in `data/connect-four.perft`.
#[test]
fn connect_four_perft_matches_the_table() {
    let game = ConnectFour::standard();
    let count = |s: &_, depth| perft(&game, s, depth, PerftMode::Bulk);
    assert_eq!(connect_four().check(&game, PerftLimit::Depth(8), count), Ok(9));
}

/// `docs/references/connect-four.md`: distinct positions after n plies on 7x6, OEIS A212693
/// (John Tromp, from Edelkamp and Kissmann), for n = 0..=7. A position where a player has
/// just connected four counts, and nothing is played from it.
#[test]
fn connect_four_distinct_positions_match_oeis_a212693() {
    const A212693: [usize; 8] = [1, 7, 49, 238, 1_120, 4_263, 16_422, 54_859];
    let game = ConnectFour::standard();
    let mut level: HashSet<_> = HashSet::from([game.initial_state()]);
    let mut moves = MoveList::new();
    for (plies, &expected) in A212693.iter().enumerate() {
        assert_eq!(level.len(), expected, "positions after {plies} plies");
        let mut next = HashSet::new();
        for state in level.iter().filter(|s| game.outcome(s).is_none()) {
            game.generate_moves(state, &mut moves);
            for &mv in moves.iter() {
                let mut child = *state;
                game.apply(&mut child, mv);
                next.insert(child);
            }
        }
        level = next;
    }
}

#[test]
fn bulk_counting_equals_playing_every_leaf() {
    let c4 = ConnectFour::standard();
    let small = ConnectFour::new(4, 4, 3).unwrap();
    for depth in 0..=5 {
        let s = c4.initial_state();
        assert_eq!(
            perft(&c4, &s, depth, PerftMode::Bulk),
            perft(&c4, &s, depth, PerftMode::MakeAll)
        );
        let s = small.initial_state();
        let bulk = perft(&small, &s, depth + 3, PerftMode::Bulk);
        assert_eq!(bulk, perft(&small, &s, depth + 3, PerftMode::MakeAll), "depth {}", depth + 3);
    }
    for depth in 0..=9 {
        let s = TicTacToe.initial_state();
        let bulk = perft(&TicTacToe, &s, depth, PerftMode::Bulk);
        assert_eq!(bulk, perft(&TicTacToe, &s, depth, PerftMode::MakeAll), "depth {depth}");
    }
}

#[test]
fn divide_sums_to_perft_and_lists_every_first_move() {
    let game = ConnectFour::standard();
    let start = game.initial_state();
    let split = divide(&game, &start, 5, PerftMode::Bulk);
    assert_eq!(split.iter().map(|&(mv, _)| mv).collect::<Vec<_>>(), (0..7).collect::<Vec<u8>>());
    // No win is possible within five plies, so every first move has 7^4 leaves below it.
    assert!(split.iter().all(|&(_, n)| n == 2401));
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), start_leaves(&connect_four(), 5));

    let split = divide(&TicTacToe, &TicTacToe.initial_state(), 6, PerftMode::MakeAll);
    assert_eq!(split.len(), 9);
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), start_leaves(&tictactoe(), 6));
    // The board's symmetry: the four corners agree, and so do the four edges.
    let leaves: Vec<u64> = split.iter().map(|&(_, n)| n).collect();
    assert!([0, 2, 6, 8].iter().all(|&sq| leaves[sq] == leaves[0]), "{leaves:?}");
    assert!([1, 3, 5, 7].iter().all(|&sq| leaves[sq] == leaves[1]), "{leaves:?}");
}

#[test]
fn perft_below_a_finished_game_is_zero() {
    // x x x
    // o o .
    // . . .
    let game = TicTacToe;
    let mut state = game.initial_state();
    for sq in [0, 3, 1, 4, 2] {
        game.apply(&mut state, sq);
    }
    assert_eq!(perft(&game, &state, 1, PerftMode::Bulk), 0);
    assert_eq!(perft(&game, &state, 3, PerftMode::MakeAll), 0);
    assert_eq!(perft(&game, &state, 0, PerftMode::MakeAll), 1);
}

#[test]
fn connect_four_wins_cut_the_tree_on_a_small_board() {
    // On 4x4 with connect 3 the first player can win on ply 5, so depth 5 has fewer than the
    // 4^5 leaves of a tree without wins, and dividing agrees with perft.
    let game = ConnectFour::new(4, 4, 3).unwrap();
    let start = game.initial_state();
    let leaves = perft(&game, &start, 6, PerftMode::Bulk);
    assert!(leaves < 4u64.pow(6), "{leaves}");
    let split = divide(&game, &start, 6, PerftMode::MakeAll);
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), leaves);
}
