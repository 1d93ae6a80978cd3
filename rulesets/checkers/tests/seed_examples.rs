//! The two worked examples of the Deepomatic challenge, exactly as the seed gives them
//! (recorded in `docs/references/english-checkers.md`).

use ply_checkers::seed::{allowed_moves, apply_move};

fn sorted(mut moves: Vec<Vec<(usize, usize)>>) -> Vec<Vec<(usize, usize)>> {
    moves.sort();
    moves
}

#[test]
fn example_1_black_chains_two_jumps_or_takes_one() {
    let board = [
        "________", //
        "__b_____", //
        "_w_w____", //
        "________", //
        "_w______", //
        "_____b__", //
        "____w___", //
        "___w____",
    ];
    let moves = allowed_moves(&board, 'b').unwrap();
    assert_eq!(sorted(moves), vec![vec![(1, 2), (3, 0), (5, 2)], vec![(1, 2), (3, 4)]]);
    let after = apply_move(&board, 'b', &[(1, 2), (3, 0), (5, 2)]).unwrap();
    let expected = [
        "________", //
        "________", //
        "___w____", //
        "________", //
        "________", //
        "__b__b__", //
        "____w___", //
        "___w____",
    ];
    assert_eq!(after, expected);
}

#[test]
fn example_2_white_is_crowned_and_captures_backwards() {
    let board = [
        "________", //
        "__b_b___", //
        "_w______", //
        "______b_", //
        "_______b", //
        "________", //
        "________", //
        "________",
    ];
    let moves = allowed_moves(&board, 'w').unwrap();
    assert_eq!(moves, vec![vec![(2, 1), (0, 3), (2, 5)]]);
    let after = apply_move(&board, 'w', &moves[0]).unwrap();
    let expected = [
        "________", //
        "________", //
        "_____W__", //
        "______b_", //
        "_______b", //
        "________", //
        "________", //
        "________",
    ];
    assert_eq!(after, expected);
}
