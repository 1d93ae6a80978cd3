//! The core conformance kit and the alpha-beta agreement check on Impasse.

use ply::testing::agreement::{check_agreement, random_positions};
use ply::testing::{assert_conforms, Config};
use ply::Notation;
use ply_impasse::Impasse;

#[test]
fn impasse_keeps_the_game_contract() {
    let game = Impasse::new();
    // Random games from the start and from late positions (impasses, crowns, the ply limit).
    let late = [
        "...w.W../....b.b./......../......../......../......../......../........ w",
        ".b....../w......./......../......../......../......../.W....../B.B..... w",
        ".W.b.W.b/b.W.b.W./......../......../......../......../.B.w.B.w/w.B.w.B. w 0 0 230",
    ];
    let mut starts: Vec<_> = late.iter().map(|t| game.parse_state(t).unwrap()).collect();
    starts.push(ply::Game::initial_state(&game));
    let report = assert_conforms(&game, &Config::default().with_games(64).with_starts(starts));
    assert!(report.games >= 64 && report.plies > 64 * 20, "{report}");
    assert!(report.moves_round_tripped > 1000 && report.positions_round_tripped > 100, "{report}");
}

#[test]
fn alpha_beta_enhancements_agree_with_minimax() {
    let game = Impasse::new();
    let positions = random_positions(&game, 12, 150, 11);
    check_agreement(&game, &positions, 3).unwrap();
}

/// Positions and moves, random and mutated: an error or a value, never a panic; what parses
/// writes back to itself.
#[test]
fn text_formats_hold_under_random_and_mutated_input() {
    ply::testing::check_text_formats(&Impasse::new(), 300, 80, 13)
        .unwrap_or_else(|e| panic!("{e}"));
}
