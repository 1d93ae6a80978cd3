//! The core conformance kit and the search agreement check on international draughts.

use ply::testing::agreement::{check_agreement, random_positions};
use ply::testing::{assert_conforms, Config};
use ply::Game;
use ply_draughts::{DraughtsState, DrawRules, InternationalDraughts};

/// Starting positions with kings, so random games reach flying captures and the draw rules.
fn king_starts() -> Vec<DraughtsState> {
    [
        "W:WK1,K23,K50:B7,9,18,20,29,31,33,38,40,42,K13,K36",
        "B:W12,14,17,19,23,27,30,32,35,38,K49:BK1,K10,K26,45",
        "W:WK46,K50,35:BK1",
        "W:W28,32,33,37,38,K45:B12,13,17,18,19,K6",
    ]
    .iter()
    .map(|f| f.parse().unwrap())
    .collect()
}

#[test]
fn conforms_from_the_start() {
    let game = InternationalDraughts::new();
    let report = assert_conforms(&game, &Config::default().with_games(24));
    assert_eq!(report.games, 24);
    assert!(report.plies > 24 * 40 && report.moves_round_tripped > report.plies, "{report}");
}

#[test]
fn positions_pack_and_unpack() {
    let checked = ply::testing::check_packing(&InternationalDraughts::new(), 30, 3).unwrap();
    assert!(checked > 30 * 40, "{checked}");
}

#[test]
fn conforms_from_king_positions() {
    let game = InternationalDraughts::new();
    assert_conforms(&game, &Config::default().with_games(24).with_starts(king_starts()));
}

#[test]
fn conforms_without_repetition_rule() {
    let rules = DrawRules { repetition: false, endgame_moves: None, ..DrawRules::FMJD };
    let game = InternationalDraughts::with_draw_rules(rules);
    assert_conforms(&game, &Config::default().with_games(12).with_seed(11));
}

#[test]
fn alpha_beta_enhancements_agree_with_minimax() {
    let game = InternationalDraughts::new();
    let mut positions = random_positions(&game, 6, 30, 5);
    positions.extend(king_starts().into_iter().filter(|s| game.outcome(s).is_none()));
    check_agreement(&game, &positions, 3).unwrap();
}

/// Positions (PDN FEN) and moves, random and mutated: an error or a value, never a panic;
/// what parses writes back to itself.
#[test]
fn text_formats_hold_under_random_and_mutated_input() {
    let game = InternationalDraughts::new();
    ply::testing::check_text_formats(&game, 300, 120, 12).unwrap_or_else(|e| panic!("{e}"));
}
