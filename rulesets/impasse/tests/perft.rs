//! Perft tables from `data/*.perft`: entries above a node budget are skipped here (debug
//! builds) and run in release by `cargo run --release --example perft -- impasse 6 --table
//! rulesets/impasse/tests/data/start.perft`.
//!
//! The start table is not a published one: it was counted by a transliteration of the
//! CodinGame referee's generator, and `tests/referee_model.rs` (an independent model of the
//! referee's rules kept in this repository) recounts depths 1-4 in `cargo test` and 5-6 in
//! release. Provenance: `docs/references/impasse.md`.

use ply::perft::{PerftLimit, PerftTable};
use ply::{perft, PerftMode};
use ply_impasse::Impasse;

/// Entries with more leaves than this are left to release runs.
const NODE_BUDGET: PerftLimit = PerftLimit::Leaves(250_000);

/// `docs/references/impasse.md`: the start table, every entry up to [`NODE_BUDGET`] leaves.
#[test]
fn start_position_perft() {
    let game = Impasse::new();
    let table: PerftTable = include_str!("data/start.perft").parse().unwrap();
    let bulk = |s: &_, d| perft(&game, s, d, PerftMode::Bulk);
    let checked = table.check(&game, NODE_BUDGET, bulk).unwrap();
    assert!(checked >= 4);
    let make_all = |s: &_, d| perft(&game, s, d, PerftMode::MakeAll);
    assert_eq!(table.check(&game, PerftLimit::Depth(3), make_all), Ok(3));
}
