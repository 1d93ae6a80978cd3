//! Perft: the number of leaves of the legal-move tree, against the published figures for the
//! 8 x 8 start position, and bulk counting against playing every leaf on other boards.

use ply::perft::{PerftLimit, PerftTable};
use ply::{divide, perft, Game, Notation, PerftMode};
use ply_breakthrough::Breakthrough;

/// Perft of the 8 x 8 start position, depths 1 to 6, as published with the Regular
/// Boardgames (RBG) benchmark suite. No game ends before ply 11 (a pawn needs six steps to
/// cross), so the figures do not depend on how perft counts finished games.
fn published() -> PerftTable {
    include_str!("data/start.perft").parse().unwrap()
}

#[test]
fn start_position_matches_published_counts() {
    let game = Breakthrough::standard();
    let table = published();
    let bulk = |s: &_, d| perft(&game, s, d, PerftMode::Bulk);
    assert_eq!(table.check(&game, PerftLimit::Depth(6), bulk), Ok(6));
    // Playing every leaf is slower: up to depth 5 (6 M leaves) here.
    let make_all = |s: &_, d| perft(&game, s, d, PerftMode::MakeAll);
    assert_eq!(table.check(&game, PerftLimit::Depth(5), make_all), Ok(5));
}

#[test]
fn divide_adds_up_and_names_every_first_move() {
    let game = Breakthrough::standard();
    let start = game.initial_state();
    let split = divide(&game, &start, 3, PerftMode::Bulk);
    assert_eq!(split.len(), 22);
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), published().cases[0].leaves(3).unwrap());
    // The board is symmetric, so a2-a3 and h2-h3 have the same subtree.
    let count = |text: &str| {
        let mv = game.parse_move(&start, text).unwrap();
        split.iter().find(|&&(m, _)| m == mv).unwrap().1
    };
    assert_eq!(count("a2-a3"), count("h2-h3"));
    assert_eq!(count("c2-b3"), count("f2-g3"));
}

#[test]
fn bulk_counting_agrees_with_playing_every_leaf() {
    for (cols, rows, depth) in [(3, 4, 6), (4, 16, 4), (16, 4, 3), (5, 6, 4), (7, 9, 4)] {
        let game = Breakthrough::new(cols, rows).unwrap();
        let start = game.initial_state();
        let bulk = perft(&game, &start, depth, PerftMode::Bulk);
        assert_eq!(bulk, perft(&game, &start, depth, PerftMode::MakeAll), "{cols}x{rows}");
        assert!(bulk > 0, "{cols}x{rows}");
    }
}

#[test]
fn perft_is_the_same_for_the_colour_flipped_position() {
    // A middle-game position with White to move, and the same position seen from Black's
    // side (rows reversed, colours swapped) with Black to move.
    let game = Breakthrough::standard();
    let text = "BB.BBB.B/B..B.BBB/..B..B../.W.B..../......W./W..W..../W.WW.W.W/WWW..WWW w";
    let flipped = "BBB..BBB/B.BB.B.B/B..B..../......B./.B.W..../..W..W../W..W.WWW/WW.WWW.W b";
    let (a, b) = (game.parse_state(text).unwrap(), game.parse_state(flipped).unwrap());
    for depth in 1..=4 {
        let n = perft(&game, &a, depth, PerftMode::Bulk);
        assert_eq!(n, perft(&game, &b, depth, PerftMode::Bulk), "depth {depth}");
    }
}
