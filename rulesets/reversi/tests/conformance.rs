//! The core conformance kit on 2, 3 and 4 players and several sizes, and the alpha-beta
//! agreement check on 2 players.

use ply::testing::agreement::{check_agreement, random_positions};
use ply::testing::{check_game, check_notation, Config};
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
        check_game(&game, &config)
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
