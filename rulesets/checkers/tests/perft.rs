//! Perft against the published Standard-rules table, and properties of the move tree that
//! must hold on every board size.
//!
//! The tables and their sources are in `docs/references/english-checkers.md`: the Standard
//! table was published by Aart Bik (2009); the Deepomatic-rules table has no publication and
//! is this crate's own regression figure. Machine-readable copies: `tests/data/*.perft`.

use ply::{perft, Game, Notation, PerftMode};
use ply_checkers::perft::perft_fast;
use ply_checkers::{EnglishCheckers, Rules};

/// Entries above this many leaves run only in release builds (the perft example or bench).
const LEAF_BUDGET: u64 = 20_000_000;

fn table() -> Vec<(u32, u64)> {
    parse(include_str!("data/standard.perft"))
}

fn parse(text: &str) -> Vec<(u32, u64)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split_whitespace().map(|x| x.parse::<u64>().unwrap());
            (f.next().unwrap() as u32, f.next().unwrap())
        })
        .collect()
}

/// `docs/references/english-checkers.md`: Aart Bik's Standard-rules table (2009), every
/// entry up to [`LEAF_BUDGET`] leaves.
#[test]
fn standard_perft_matches_published_table() {
    let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
    let start = game.initial_state();
    let mut checked = 0;
    for (depth, leaves) in table() {
        if leaves > LEAF_BUDGET {
            continue;
        }
        assert_eq!(perft_fast(&game, &start, depth), leaves, "perft({depth})");
        checked += 1;
    }
    assert!(checked >= 8);
}

/// `docs/references/english-checkers.md`: the first six entries of Aart Bik's table, through
/// the generic `ply::perft`.
#[test]
fn generic_make_all_path_matches_table() {
    let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
    let start = game.initial_state();
    for (depth, leaves) in table().into_iter().take(6) {
        assert_eq!(perft(&game, &start, depth, PerftMode::MakeAll), leaves, "perft({depth})");
    }
}

/// `docs/references/english-checkers.md`: the Deepomatic-rules figures are not published; they
/// are this crate's own, kept as a regression check, and must first differ from the published
/// Standard figures at depth 9.
#[test]
fn deepomatic_perft_matches_its_regression_table() {
    let game = EnglishCheckers::new(8, Rules::Deepomatic).unwrap();
    let start = game.initial_state();
    let deep = parse(include_str!("data/deepomatic.perft"));
    let standard = table();
    let mut first_difference = None;
    for &(depth, leaves) in deep.iter().filter(|(_, n)| *n <= LEAF_BUDGET) {
        assert_eq!(perft_fast(&game, &start, depth), leaves, "perft({depth})");
        let std_leaves = standard.iter().find(|(d, _)| *d == depth).unwrap().1;
        if leaves != std_leaves && first_difference.is_none() {
            first_difference = Some(depth);
        }
    }
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
