//! The `ply::testing` conformance kit on several board sizes and every capture variant, and
//! the alpha-beta agreement checks (extra turns included: the references follow the mover).

use ply::testing::agreement::{check_agreement, check_multiplayer_agreement, random_positions};
use ply::testing::{assert_conforms, Config};
use ply::Notation;
use ply_kalah::{Capture, Kalah};

#[test]
fn every_size_and_capture_rule_keeps_the_game_contract() {
    for capture in Capture::ALL {
        for (m, n) in [(6, 4), (1, 1), (3, 3), (4, 6), (8, 15), (6, 10)] {
            let game = Kalah::new(m, n, capture).unwrap();
            let report = assert_conforms(&game, &Config::default().with_games(24));
            assert_eq!(report.games, 24, "Kalah({m},{n}) {capture}: {report}");
            // Kalah(1,1) ends after one move; the others last dozens.
            let least = if m * n == 1 { 24 } else { 200 };
            assert!(report.moves_round_tripped >= least, "Kalah({m},{n}) {capture}: {report}");
        }
    }
}

#[test]
fn games_from_late_positions_keep_the_contract() {
    let game = Kalah::standard();
    let starts = [
        "1,0,0,1,2,5/20/1,0,0,0,1,1/16 s",
        "0,0,0,0,0,1/23/0,0,0,0,0,1/23 s",
        "0,0,13,0,0,0/10/1,0,0,0,0,2/22 s",
        "4,4,4,4,4,4/0/4,4,4,4,4,4/0 n",
    ];
    let starts: Vec<_> = starts.iter().map(|t| game.parse_state(t).unwrap()).collect();
    assert_conforms(&game, &Config::default().with_starts(starts));
}

#[test]
fn alpha_beta_enhancements_agree_with_minimax() {
    for capture in Capture::ALL {
        let game = Kalah::new(6, 4, capture).unwrap();
        let positions = random_positions(&game, 10, 24, 11);
        check_agreement(&game, &positions, 4).unwrap_or_else(|e| panic!("{capture}: {e}"));
        let small = Kalah::new(4, 3, capture).unwrap();
        let positions = random_positions(&small, 10, 12, 5);
        check_agreement(&small, &positions, 5).unwrap_or_else(|e| panic!("{capture}: {e}"));
    }
}

#[test]
fn multiplayer_models_agree_with_their_references() {
    let game = Kalah::new(4, 3, Capture::Empty).unwrap();
    let positions = random_positions(&game, 6, 12, 3);
    check_multiplayer_agreement(&game, &positions, 4).unwrap();
}

/// Positions and moves, random and mutated: an error or a value, never a panic; what parses
/// writes back to itself.
#[test]
fn text_formats_hold_under_random_and_mutated_input() {
    for capture in Capture::ALL {
        let game = Kalah::new(6, 4, capture).unwrap();
        ply::testing::check_text_formats(&game, 200, 60, 14).unwrap_or_else(|e| panic!("{e}"));
    }
}
