//! Perft and divide on the bundled games against published figures.
//!
//! Tic-tac-toe: 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872 leaves at depths 1..=9
//! (games that end early stop counting), 255168 games in all. Connect Four 7x6: 7, 49, 343,
//! 2401, 16807, 117649, 823536, 5673234 at depths 1..=8 (OEIS A212693); the deeper figures run
//! in release through `cargo bench --bench search -- perft`.

use ply::games::{ConnectFour, TicTacToe};
use ply::{divide, perft, Game, MoveList, PerftMode};

const TICTACTOE: [u64; 10] = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
const CONNECT_FOUR: [u64; 9] = [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234];

#[test]
fn tictactoe_perft_matches_the_published_table() {
    let game = TicTacToe;
    let start = game.initial_state();
    for (depth, &expected) in TICTACTOE.iter().enumerate() {
        assert_eq!(perft(&game, &start, depth as u32, PerftMode::Bulk), expected, "depth {depth}");
    }
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

#[test]
fn tictactoe_has_255168_games() {
    assert_eq!(games_played(&TicTacToe, &TicTacToe.initial_state()), 255_168);
}

#[test]
fn connect_four_perft_matches_the_published_table() {
    let game = ConnectFour::standard();
    let start = game.initial_state();
    for (depth, &expected) in CONNECT_FOUR.iter().enumerate().take(7) {
        assert_eq!(perft(&game, &start, depth as u32, PerftMode::Bulk), expected, "depth {depth}");
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
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), CONNECT_FOUR[5]);

    let split = divide(&TicTacToe, &TicTacToe.initial_state(), 6, PerftMode::MakeAll);
    assert_eq!(split.len(), 9);
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), TICTACTOE[6]);
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
