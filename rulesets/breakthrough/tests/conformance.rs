//! The `ply::testing` conformance kit on several board sizes, and the alpha-beta agreement
//! check.

use ply::testing::agreement::{check_agreement, random_positions};
use ply::testing::{assert_conforms, Config};
use ply::{Game, Notation};
use ply_breakthrough::Breakthrough;

#[test]
fn every_board_size_keeps_the_game_contract() {
    for (cols, rows) in [(8, 8), (3, 4), (5, 6), (16, 4), (4, 16), (7, 9)] {
        let game = Breakthrough::new(cols, rows).unwrap();
        let report = assert_conforms(&game, &Config::default());
        assert_eq!(report.games, 64, "{cols}x{rows}: {report}");
        assert!(report.moves_round_tripped > 1000, "{cols}x{rows}: {report}");
    }
}

#[test]
fn games_from_crowded_and_nearly_finished_positions_keep_the_contract() {
    let game = Breakthrough::standard();
    let starts = [
        "BBBBBBBB/BBBBBBBB/......../......../......../......../WWWWWWWW/WWWWWWWW w",
        "BB.BBB.B/B..B.BBB/..B..B../.W.B..../......W./W..W..../W.WW.W.W/WWW..WWW w",
        "......../..B...../...W..../......../......../......../....B.../........ b",
        "......../......W./......../......../......../......../.B....../........ w",
    ];
    let starts: Vec<_> = starts.iter().map(|t| game.parse_state(t).unwrap()).collect();
    assert_conforms(&game, &Config::default().with_starts(starts));
}

#[test]
fn alpha_beta_enhancements_agree_with_minimax() {
    let game = Breakthrough::new(6, 6).unwrap();
    let positions = random_positions(&game, 12, 20, 7);
    check_agreement(&game, &positions, 3).unwrap();
    assert_eq!(game.num_players(), 2);
}

/// Positions and moves, random and mutated: an error or a value, never a panic; what parses
/// writes back to itself.
#[test]
fn text_formats_hold_under_random_and_mutated_input() {
    let game = Breakthrough::standard();
    ply::testing::check_text_formats(&game, 300, 80, 15).unwrap_or_else(|e| panic!("{e}"));
}
