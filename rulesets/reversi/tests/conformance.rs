//! The core conformance kit on 2, 3 and 4 players and several sizes, the alpha-beta agreement
//! check on 2 players, and the multiplayer agreement check (paranoid, max^n, best-reply) on 3
//! and 4 players.

use ply::testing::agreement::{check_agreement, check_multiplayer_agreement, random_positions};
use ply::testing::{check_game, check_game_with_notation, check_notation, Config};
use ply::Game;
use ply_reversi::Reversi;

#[test]
fn conforms_on_every_player_count_and_several_sizes() {
    for (size, players, games) in [
        (8, 2, 24),
        (4, 2, 16),
        (6, 2, 16),
        (7, 3, 12),
        (9, 3, 8),
        (8, 4, 12),
        (10, 4, 6),
        (12, 4, 4),
        (16, 2, 2),
    ] {
        let game = Reversi::new(size, players).unwrap();
        let config =
            Config::default().with_games(games).with_seed(size as u64 * 10 + players as u64);
        check_game_with_notation(&game, &config)
            .unwrap_or_else(|v| panic!("{size}x{size}, {players} players: {v}"));
        check_notation(&game, &config.with_games(games / 2 + 1))
            .unwrap_or_else(|v| panic!("{size}x{size}, {players} players: {v}"));
    }
}

#[test]
fn conforms_from_a_custom_start() {
    let game =
        Reversi::from_position("......./.1.2.3./......./..321../......./.2.1.3./....... 2", 3)
            .unwrap();
    check_game(&game, &Config::default().with_games(8)).unwrap();
}

#[test]
fn alpha_beta_enhancements_agree_with_minimax() {
    let game = Reversi::new(6, 2).unwrap();
    let positions = random_positions(&game, 6, 10, 3);
    check_agreement(&game, &positions, 3).unwrap();
    let othello = Reversi::new(8, 2).unwrap();
    let positions = random_positions(&othello, 4, 20, 5);
    check_agreement(&othello, &positions, 2).unwrap();
}

/// Each opponent model of `ply::search::multiplayer` against the kit's brute-force reference of
/// the same model, on 3-player Reversi: positions from the opening, and positions near the end
/// of the game on a small board, where finished games lie inside the horizon.
#[test]
fn multiplayer_search_agrees_with_brute_force_on_three_players() {
    let game = Reversi::new(7, 3).unwrap();
    let positions = random_positions(&game, 6, 12, 7);
    assert!(positions.len() >= 5);
    for depth in 1..=3 {
        check_multiplayer_agreement(&game, &positions, depth).unwrap();
    }
    let small = Reversi::new(5, 3).unwrap();
    let late = random_positions(&small, 8, 14, 9);
    let near_end: Vec<_> = late
        .into_iter()
        .filter(|s| {
            let mut moves = ply::MoveList::new();
            small.generate_moves(s, &mut moves);
            moves.len() >= 2
        })
        .collect();
    assert!(near_end.len() >= 4, "{} positions", near_end.len());
    check_multiplayer_agreement(&small, &near_end, 4).unwrap();
}

/// The same on 4 players, at a smaller depth.
#[test]
fn multiplayer_search_agrees_with_brute_force_on_four_players() {
    let game = Reversi::new(8, 4).unwrap();
    let positions = random_positions(&game, 4, 12, 13);
    check_multiplayer_agreement(&game, &positions, 2).unwrap();
}

/// Positions and moves, random and mutated: an error or a value, never a panic; what parses
/// writes back to itself.
#[test]
fn text_formats_hold_under_random_and_mutated_input() {
    for (size, players) in [(8, 2), (10, 4)] {
        let game = Reversi::new(size, players).unwrap();
        ply::testing::check_text_formats(&game, 200, 60, 16).unwrap_or_else(|e| panic!("{e}"));
    }
}
