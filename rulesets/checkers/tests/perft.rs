//! Perft against the published Standard-rules table, and properties of the move tree that
//! must hold on every board size.
//!
//! The tables and their sources are in `docs/references/english-checkers.md`: the Standard
//! table was published by Aart Bik (2009); the Deepomatic-rules table has no publication and
//! is this crate's own regression figure. Machine-readable copies: `tests/data/*.perft`.

use ply::perft::{PerftLimit, PerftTable};
use ply::{perft, Game, Notation, PerftMode};
use ply_checkers::perft::perft_fast;
use ply_checkers::{EnglishCheckers, Rules};

/// Entries above this many leaves run only in release builds (the perft example or bench).
const LEAF_BUDGET: PerftLimit = PerftLimit::Leaves(20_000_000);

fn standard() -> PerftTable {
    include_str!("data/standard.perft").parse().unwrap()
}

fn deepomatic() -> PerftTable {
    include_str!("data/deepomatic.perft").parse().unwrap()
}

/// `docs/references/english-checkers.md`: Aart Bik's Standard-rules table (2009), every
/// entry up to [`LEAF_BUDGET`] leaves.
#[test]
fn standard_perft_matches_published_table() {
    let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
    let checked = standard().check(&game, LEAF_BUDGET, |s, d| perft_fast(&game, s, d)).unwrap();
    assert!(checked >= 8);
}

/// `docs/references/english-checkers.md`: the first six entries of Aart Bik's table, through
/// the generic `ply::perft`.
#[test]
fn generic_make_all_path_matches_table() {
    let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
    let count = |s: &_, d| perft(&game, s, d, PerftMode::MakeAll);
    assert_eq!(standard().check(&game, PerftLimit::Depth(6), count), Ok(6));
}

/// `docs/references/english-checkers.md`: the Deepomatic-rules figures are not published; they
/// are this crate's own, kept as a regression check, and must first differ from the published
/// Standard figures at depth 9.
#[test]
fn deepomatic_perft_matches_its_regression_table() {
    let game = EnglishCheckers::new(8, Rules::Deepomatic).unwrap();
    let deep = deepomatic();
    let checked = deep.check(&game, LEAF_BUDGET, |s, d| perft_fast(&game, s, d)).unwrap();
    assert!(checked >= 8);
    let standard = standard();
    let first_difference = deep.cases[0]
        .within(LEAF_BUDGET)
        .find(|&(depth, leaves)| standard.cases[0].leaves(depth) != Some(leaves))
        .map(|(depth, _)| depth);
    // Below depth 9 no man can be crowned in the middle of a capture that goes on.
    assert_eq!(first_difference, Some(9));
}

/// Mirrors a FEN through the board's centre and swaps the colours: square `n` becomes
/// `squares + 1 - n`, Black becomes White.
fn flip(game: &EnglishCheckers, fen: &str) -> String {
    let setup: ply_checkers::Setup = fen.parse().unwrap();
    let max = game.squares();
    let flipped = ply_checkers::Setup {
        to_move: setup.to_move.opponent(),
        pieces: setup
            .pieces
            .iter()
            .map(|&(sq, p)| {
                (max + 1 - sq, ply_checkers::Piece { color: p.color.opponent(), king: p.king })
            })
            .collect(),
        quiet_plies: setup.quiet_plies,
    };
    flipped.to_string()
}

#[test]
fn colour_flipped_positions_have_equal_perft() {
    let positions = [
        (8, "B:W18,K26,27,28,30,32:B1,3,K10,14,15,16"),
        (8, "W:W14,21,22,23,K24,27:B5,6,K9,12,K17,19"),
        (8, "B:WK6,7,K14,15:B9,K19,22,23"),
        (10, "W:W23,24,28,31,33,K40:B3,7,K12,17,19,22"),
        (6, "B:W10,12,K14:B1,K7,8"),
    ];
    for rules in [Rules::Standard, Rules::Deepomatic] {
        for (size, fen) in positions {
            let game = EnglishCheckers::new(size, rules).unwrap();
            let a = game.parse_state(fen).unwrap();
            let b = game.parse_state(&flip(&game, fen)).unwrap();
            for depth in 1..=5 {
                assert_eq!(
                    perft(&game, &a, depth, PerftMode::MakeAll),
                    perft(&game, &b, depth, PerftMode::MakeAll),
                    "{fen} {rules} depth {depth}"
                );
            }
        }
    }
}

#[test]
fn every_size_starts_with_the_right_moves() {
    // Black's front row has N/2 men; each has two forward steps except the one on the edge.
    for size in (4..=16).step_by(2) {
        let game = EnglishCheckers::new(size, Rules::Deepomatic).unwrap();
        let s = game.initial_state();
        let expected = (size - 1) as u64;
        assert_eq!(game.count_moves(&s), expected, "{size}x{size}");
        assert_eq!(perft_fast(&game, &s, 3), perft(&game, &s, 3, PerftMode::MakeAll));
    }
}
