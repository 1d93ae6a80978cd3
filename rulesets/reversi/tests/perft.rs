//! Perft of standard Othello against the published table, and symmetry of perft under
//! rotations and reflections of the board for every player count.

use ply::{perft, Game, MoveList, Notation, PerftMode};
use ply_reversi::Reversi;

/// Othello perft from the start, a forced pass counted as a move (Aart Bik, 2009; see
/// `REFERENCE.md`), depths 1..12.
const OTHELLO: [u64; 12] = [
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
    1_939_886_636,
];

/// Deepest depth run in debug tests; deeper ones belong to `cargo test --release -- --ignored`.
const DEBUG_DEPTH: usize = 7;

#[test]
fn othello_perft_matches_published_table() {
    let game = Reversi::new(8, 2).unwrap();
    let start = game.initial_state();
    for (i, &expected) in OTHELLO.iter().enumerate().take(DEBUG_DEPTH) {
        let depth = i as u32 + 1;
        assert_eq!(perft(&game, &start, depth, PerftMode::Bulk), expected, "depth {depth}");
    }
    assert_eq!(perft(&game, &start, 5, PerftMode::MakeAll), OTHELLO[4]);
    for depth in 1..=DEBUG_DEPTH as u32 {
        assert_eq!(ply_reversi::perft(&game, &start, depth), OTHELLO[depth as usize - 1]);
    }
}

/// The published table counts a game that is over before the last ply as one leaf;
/// `ply::perft` counts it as none. On 3 and 4 players the two agree until games end.
#[test]
fn crate_perft_agrees_with_generic_perft_before_games_end() {
    for (size, players) in [(6, 2), (7, 3), (8, 4), (10, 4), (9, 3)] {
        let game = Reversi::new(size, players).unwrap();
        let start = game.initial_state();
        for depth in 1..=3 {
            assert_eq!(
                ply_reversi::perft(&game, &start, depth),
                perft(&game, &start, depth, PerftMode::Bulk),
                "{size}x{size}, {players} players, depth {depth}"
            );
        }
    }
    // A finished game is one leaf at any depth for the table's count, none for ply's.
    let done = Reversi::from_position("1222/..../..../.... 1", 2).unwrap();
    assert_eq!(ply_reversi::perft(&done, &done.initial_state(), 3), 1);
    assert_eq!(perft(&done, &done.initial_state(), 3, PerftMode::Bulk), 0);
}

#[test]
#[ignore = "deep perft: run with --release -- --ignored"]
fn othello_perft_deep() {
    let game = Reversi::new(8, 2).unwrap();
    let start = game.initial_state();
    for depth in 8..=11u32 {
        assert_eq!(
            ply_reversi::perft(&game, &start, depth),
            OTHELLO[depth as usize - 1],
            "depth {depth}"
        );
    }
    // 228 games are over after 9 plies: ply::perft does not count them at depth 10.
    assert_eq!(perft(&game, &start, 10, PerftMode::Bulk), OTHELLO[9] - 228);
}

/// The rows of a position turned by a quarter turn clockwise.
fn rotate(rows: &[String]) -> Vec<String> {
    let n = rows.len();
    let cells: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    (0..n).map(|r| (0..n).map(|c| cells[n - 1 - c][r]).collect()).collect()
}

/// The rows of a position mirrored left to right.
fn mirror(rows: &[String]) -> Vec<String> {
    rows.iter().map(|r| r.chars().rev().collect()).collect()
}

/// A few positions along a seeded line of play from the start.
fn line_positions(game: &Reversi, plies: usize) -> Vec<ply_reversi::ReversiState> {
    let mut state = game.initial_state();
    let mut out = vec![state];
    let mut moves = MoveList::new();
    let mut seed = 12345u64;
    for _ in 0..plies {
        game.generate_moves(&state, &mut moves);
        if moves.is_empty() {
            break;
        }
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mv = moves[(seed >> 33) as usize % moves.len()];
        game.apply(&mut state, mv);
        out.push(state);
    }
    out
}

fn check_symmetry(size: usize, players: usize, depth: u32) {
    let game = Reversi::new(size, players).unwrap();
    for state in line_positions(&game, 12).into_iter().step_by(4) {
        let expected = perft(&game, &state, depth, PerftMode::Bulk);
        let mut rows = state.rows();
        for turn in 0..8 {
            rows = if turn == 4 { mirror(&rows) } else { rotate(&rows) };
            let moved = game.state_from_rows(&rows, state.to_move()).unwrap();
            assert_eq!(
                perft(&game, &moved, depth, PerftMode::Bulk),
                expected,
                "{size}x{size}, {players} players, transform {turn} of {}",
                game.format_state(&state)
            );
        }
    }
}

#[test]
fn perft_is_symmetric_under_rotation_and_reflection() {
    check_symmetry(8, 2, 4);
    check_symmetry(6, 2, 4);
    check_symmetry(7, 3, 3);
    check_symmetry(8, 4, 3);
    check_symmetry(9, 3, 3);
    check_symmetry(10, 4, 3);
    check_symmetry(13, 2, 3);
}
