//! Perft tables from `data/*.perft`: entries above a node budget are skipped here (debug
//! builds) and run in release by
//! `cargo run --release --example perft -- impasse 6`.
//!
//! The start table is not a published one: it was counted by a transliteration of the
//! CodinGame referee's generator, and `tests/referee_model.rs` (an independent model of the
//! referee's rules kept in this repository) recounts depths 1-4 in `cargo test` and 5-6 in
//! release. Provenance: `docs/references/impasse.md`.

use ply::{perft, Notation, PerftMode};
use ply_impasse::Impasse;

/// Entries with more leaves than this are left to release runs.
const NODE_BUDGET: u64 = 250_000;

/// `docs/references/impasse.md`: the start table, every entry up to [`NODE_BUDGET`] leaves.
#[test]
fn start_position_perft() {
    let game = Impasse::new();
    let mut state = None;
    let mut checked = 0;
    for line in include_str!("data/start.perft").lines() {
        let line = line.trim();
        if let Some(pos) = line.strip_prefix("position ") {
            state = Some(game.parse_state(pos).expect("valid position"));
        } else if let Some(entry) = line.strip_prefix("perft ") {
            let (depth, nodes) = entry.split_once(' ').expect("perft <depth> <nodes>");
            let (depth, nodes): (u32, u64) = (depth.parse().unwrap(), nodes.parse().unwrap());
            if nodes > NODE_BUDGET {
                continue;
            }
            let s = state.as_ref().expect("a position before perft lines");
            assert_eq!(perft(&game, s, depth, PerftMode::Bulk), nodes, "depth {depth}");
            if depth <= 3 {
                assert_eq!(perft(&game, s, depth, PerftMode::MakeAll), nodes, "depth {depth}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 4);
}
