//! The bitboard generator against a plain one written from the rules: a grid of characters
//! read from the position text, and a loop over squares. Along seeded random games on every
//! board shape, both must give the same moves (as texts) and agree on the end of the game.

use ply::{Game, MoveList, Notation, Outcome, Player};
use ply_breakthrough::{Breakthrough, BreakthroughState};

/// The board as `grid[row][col]`, row 0 being rank 1, from the position text.
fn grid(game: &Breakthrough, state: &BreakthroughState) -> Vec<Vec<char>> {
    let text = game.format_state(state);
    let board = text.split(' ').next().unwrap();
    board.split('/').rev().map(|row| row.chars().collect()).collect()
}

fn square(col: usize, row: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// Every legal move of `state`, sorted, by the rules read literally; empty once the game is
/// over.
fn reference_moves(game: &Breakthrough, state: &BreakthroughState) -> Vec<String> {
    let g = grid(game, state);
    let (rows, cols) = (game.rows(), game.cols());
    let (me, them, up) = match state.side_to_move() {
        Player::FIRST => ('W', 'B', true),
        _ => ('B', 'W', false),
    };
    // The opponent's far row is the one the player to move starts on.
    let their_goal = if up { 0 } else { rows - 1 };
    let count = |c: char| g.iter().flatten().filter(|&&x| x == c).count();
    let won_already = g[their_goal].contains(&them) || count(me) == 0;
    let mut moves = Vec::new();
    if won_already {
        return moves;
    }
    for row in 0..rows {
        for col in 0..cols {
            if g[row][col] != me {
                continue;
            }
            let next = if up { row + 1 } else { row.wrapping_sub(1) };
            if next >= rows {
                continue;
            }
            for dc in [-1i32, 0, 1] {
                let c = col as i32 + dc;
                if c < 0 || c >= cols as i32 {
                    continue;
                }
                let target = g[next][c as usize];
                let (from, to) = (square(col, row), square(c as usize, next));
                if target == '.' {
                    moves.push(format!("{from}-{to}"));
                } else if target == them && dc != 0 {
                    moves.push(format!("{from}x{to}"));
                }
            }
        }
    }
    moves.sort();
    moves
}

#[test]
fn bitboards_agree_with_the_plain_rules_on_every_board_shape() {
    let shapes =
        [(8, 8), (3, 4), (4, 4), (5, 6), (6, 6), (7, 9), (16, 4), (4, 16), (10, 6), (3, 16)];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut list = MoveList::new();
    let mut positions = 0;
    for (cols, rows) in shapes {
        let game = Breakthrough::new(cols, rows).unwrap();
        for _ in 0..40 {
            let mut state = game.initial_state();
            loop {
                game.generate_moves(&state, &mut list);
                let mut texts: Vec<String> =
                    list.iter().map(|&m| game.format_move(&state, m)).collect();
                texts.sort();
                assert_eq!(
                    texts,
                    reference_moves(&game, &state),
                    "{cols}x{rows}: {}",
                    game.format_state(&state)
                );
                positions += 1;
                if list.is_empty() {
                    // The player to move has lost.
                    let winner = state.side_to_move().opponent();
                    assert_eq!(game.outcome(&state), Some(Outcome::Winner(winner)));
                    break;
                }
                assert_eq!(game.outcome(&state), None);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                game.apply(&mut state, list[(seed % list.len() as u64) as usize]);
            }
        }
    }
    assert!(positions > 10_000, "{positions}");
}
