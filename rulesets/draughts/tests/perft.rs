//! Perft from the start position against Aart Bik's published table (duplicate captures
//! counted once), through the generic `ply::perft` and through `perft_fast`.
//!
//! The table and its source: `docs/references/international-draughts.md`.

use ply::perft::{PerftLimit, PerftTable};
use ply::{perft, Game, PerftMode};
use ply_draughts::{perft_fast, InternationalDraughts};

/// Depth and leaves, Aart Bik's table as recorded in `docs/references/international-draughts.md`.
/// Depths 8-10 run in release (the ignored test below, or the crate's `perft` example).
fn start() -> PerftTable {
    include_str!("data/start.perft").parse().unwrap()
}

/// `docs/references/international-draughts.md`: depths 1-7 of Aart Bik's table.
#[test]
fn perft_fast_matches_published_table() {
    let game = InternationalDraughts::new();
    assert_eq!(start().check(&game, PerftLimit::Depth(7), perft_fast), Ok(7));
}

/// Depths 8-10 of the published table (`docs/references/international-draughts.md`); slow in
/// debug, so run in release:
/// `cargo test --release -p ply-draughts --test perft -- --ignored`.
#[test]
#[ignore = "deep perft: run in release"]
fn perft_fast_matches_published_table_deep() {
    let game = InternationalDraughts::new();
    assert_eq!(start().check(&game, PerftLimit::Depth(10), perft_fast), Ok(10));
}

/// `docs/references/international-draughts.md`: depths 1-6 of Aart Bik's table through the
/// generic `ply::perft`.
#[test]
fn generic_perft_matches_published_table() {
    let game = InternationalDraughts::new();
    let table = start();
    let bulk = |s: &_, d| perft(&game, s, d, PerftMode::Bulk);
    assert_eq!(table.check(&game, PerftLimit::Depth(6), bulk), Ok(6));
    let make_all = |s: &_, d| perft(&game, s, d, PerftMode::MakeAll);
    assert_eq!(table.check(&game, PerftLimit::Depth(4), make_all), Ok(4));
}

/// Positions mid-game and with kings; each must count the same as its colour-flipped twin.
const SYMMETRY: [&str; 4] = [
    "W:W27,28,31,32,33,36,37,38,41,42:B9,12,13,14,17,18,19,22,23,24",
    "B:WK46,K3,28,33,39:B12,14,17,19,24,K44",
    "W:WK1,K23,K50:B7,9,18,20,29,31,33,38,40,42,K13,K36",
    "B:W12,14,17,19,23,27,30,32,35,38,K49:BK1,K10,K26,45",
];

#[test]
fn colour_flipped_positions_count_the_same() {
    let game = InternationalDraughts::new();
    for fen in SYMMETRY {
        let s: ply_draughts::DraughtsState = fen.parse().unwrap();
        let f = s.flipped();
        assert_ne!(s, f);
        assert_eq!(f.flipped(), s);
        for depth in 1..=4 {
            assert_eq!(perft_fast(&s, depth), perft_fast(&f, depth), "{fen} depth {depth}");
        }
        assert_eq!(
            game.evaluate(&s, ply::Player::FIRST),
            game.evaluate(&f, ply::Player::SECOND),
            "{fen}"
        );
    }
}
