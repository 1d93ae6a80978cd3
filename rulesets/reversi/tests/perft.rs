//! Perft of standard Othello against the published table, and symmetry of perft under
//! rotations and reflections of the board for every player count.
//!
//! The table and its source: `docs/references/othello.md`.

use ply::perft::{PerftLimit, PerftTable};
use ply::{perft, Game, MoveList, Notation, PerftMode};
use ply_reversi::Reversi;

/// Othello perft from the start, a forced pass counted as a move (Aart Bik, 2009), depths
/// 1..12, as recorded in `docs/references/othello.md`.
fn othello() -> PerftTable {
    include_str!("data/othello.perft").parse().unwrap()
}

/// Deepest depth run in debug tests; deeper ones belong to `cargo test --release -- --ignored`.
const DEBUG_DEPTH: u32 = 7;

/// `docs/references/othello.md`: depths 1-7 of Aart Bik's table.
#[test]
fn othello_perft_matches_published_table() {
    let game = Reversi::new(8, 2).unwrap();
    let table = othello();
    let bulk = |s: &_, d| perft(&game, s, d, PerftMode::Bulk);
    assert_eq!(table.check(&game, PerftLimit::Depth(DEBUG_DEPTH), bulk), Ok(7));
    let make_all = |s: &_, d| perft(&game, s, d, PerftMode::MakeAll);
    assert_eq!(table.check(&game, PerftLimit::Depth(5), make_all), Ok(5));
}

/// The published table counts a game that is over before the last ply as one leaf, and so
/// does `ply::perft` for Reversi (`Game::perft_counts_finished_games`), in both modes.
#[test]
fn a_finished_game_is_one_leaf() {
    let done = Reversi::from_position("1222/..../..../.... 1", 2).unwrap();
    assert!(done.outcome(&done.initial_state()).is_some());
    for mode in [PerftMode::Bulk, PerftMode::MakeAll] {
        assert_eq!(perft(&done, &done.initial_state(), 3, mode), 1);
    }
}

/// `docs/references/othello.md`: depths 8-11 of Aart Bik's table (release runs).
#[test]
#[ignore = "deep perft: run with --release -- --ignored"]
fn othello_perft_deep() {
    let game = Reversi::new(8, 2).unwrap();
    let bulk = |s: &_, d| perft(&game, s, d, PerftMode::Bulk);
    assert_eq!(othello().check(&game, PerftLimit::Depth(11), bulk), Ok(11));
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
