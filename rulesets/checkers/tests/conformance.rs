//! The core conformance kit and the search agreement check, on both rule sets and several
//! board sizes.

use ply::testing::agreement::{check_agreement, random_positions};
use ply::testing::{assert_conforms, Config};
use ply::Notation;
use ply_checkers::{DrawRules, EnglishCheckers, Rules};

#[test]
fn both_rule_sets_conform_on_several_sizes() {
    for rules in [Rules::Deepomatic, Rules::Standard] {
        for (size, games) in [(8, 24), (4, 16), (6, 16), (10, 6), (16, 2)] {
            let game = EnglishCheckers::new(size, rules).unwrap();
            let config = Config::default().with_games(games).with_seed(size as u64);
            let report = assert_conforms(&game, &config);
            assert!(report.plies > 0);
        }
    }
}

#[test]
fn positions_pack_and_unpack_on_every_size() {
    for rules in [Rules::Deepomatic, Rules::Standard] {
        for (size, games) in [(8, 40), (4, 20), (10, 6), (16, 2)] {
            let game = EnglishCheckers::new(size, rules).unwrap();
            let checked = ply::testing::check_packing(&game, games, size as u64)
                .unwrap_or_else(|e| panic!("{size}x{size} {rules}: {e}"));
            assert!(checked > games, "{size}x{size}");
        }
    }
}

#[test]
fn conforms_from_king_endgames() {
    let game = EnglishCheckers::new(8, Rules::Deepomatic).unwrap();
    let starts = ["W:WK10,K26,27:B5,K14,K23", "B:WK1,K2:BK31,K32", "B:W18,27,K9:B14,K22"]
        .iter()
        .map(|f| game.parse_state(f).unwrap())
        .collect();
    assert_conforms(&game, &Config::default().with_games(16).with_starts(starts));
}

#[test]
fn search_enhancements_agree_with_minimax() {
    for rules in [Rules::Deepomatic, Rules::Standard] {
        let game = EnglishCheckers::new(8, rules).unwrap().with_draw_rules(DrawRules::NONE);
        let positions = random_positions(&game, 6, 30, 11);
        check_agreement(&game, &positions, 3).unwrap();
    }
    let small = EnglishCheckers::new(6, Rules::Deepomatic).unwrap();
    let positions = random_positions(&small, 6, 12, 5);
    check_agreement(&small, &positions, 4).unwrap();
}

/// Positions (PDN FEN) and moves, random and mutated: an error or a value, never a panic;
/// what parses writes back to itself.
#[test]
fn text_formats_hold_under_random_and_mutated_input() {
    for rules in [Rules::Deepomatic, Rules::Standard] {
        for size in [8, 10] {
            let game = EnglishCheckers::new(size, rules).unwrap();
            ply::testing::check_text_formats(&game, 300, 80, 11).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
