//! Reversi speed: Othello perft from the start (the crate's bitboard perft with bulk counting,
//! and the generic `ply::perft` through `Game`), an exact endgame solve with the library's
//! alpha-beta (margin scores), paranoid and max^n search on 3- and 4-player starts, and the
//! contest's strategy generator.
//!
//! `cargo bench --bench reversi` (the `bench` profile: thin LTO, one codegen unit). Throughput
//! is leaves per second for perft and nodes per second for searches; each bench checks its
//! answer before timing.

use criterion::{black_box, criterion_main, Criterion, Throughput};

use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::multiplayer::{MultiplayerSearch, OpponentModel};
use ply::search::{Agent, Budget, Position, Value};
use ply::{perft, Game, Notation, PerftMode};
use ply_reversi::marathon::{GeneticConfig, TestCase};
use ply_reversi::Reversi;

/// Othello perft from the start, a game over before the last ply counted as one leaf (Aart
/// Bik), depths 0..=11.
const OTHELLO: [u64; 12] =
    [1, 4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288, 24_571_284, 212_258_800];

/// A position with 14 empty squares, Black to move; exact margin +50 (a bare bitboard solver
/// agrees).
const ENDGAME_14: &str =
    "..221111/1.221111/.2.12121/21111211/22121121/22212211/2.22..21/..21.... 1";

fn perft_benches(c: &mut Criterion) {
    let game = Reversi::new(8, 2).expect("8x8");
    let start = game.initial_state();
    let mut group = c.benchmark_group("reversi/perft");
    group.sample_size(10);
    for depth in [9u32, 11] {
        let leaves = OTHELLO[depth as usize];
        assert_eq!(ply_reversi::perft_fast(&game, &start, depth), leaves);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("bitboard_bulk_depth{depth}"), |b| {
            b.iter(|| ply_reversi::perft_fast(&game, black_box(&start), depth))
        });
    }
    // Through `Game`, which counts like the table too.
    let leaves = OTHELLO[9];
    assert_eq!(perft(&game, &start, 9, PerftMode::Bulk), leaves);
    group.throughput(Throughput::Elements(leaves));
    group.bench_function("generic_bulk_depth9", |b| {
        b.iter(|| perft(&game, black_box(&start), 9, PerftMode::Bulk))
    });
    let leaves = OTHELLO[8];
    group.throughput(Throughput::Elements(leaves));
    group.bench_function("generic_make_all_depth8", |b| {
        b.iter(|| perft(&game, black_box(&start), 8, PerftMode::MakeAll))
    });
    group.finish();
}

fn endgame_benches(c: &mut Criterion) {
    let game = Reversi::new(8, 2).expect("8x8");
    let position = game.parse_state(ENDGAME_14).expect("position");
    let options =
        AlphaBetaOptions { margin_scores: true, quiescence: false, ..AlphaBetaOptions::default() };
    let budget = Budget::depth(position.empties() + 4);
    let solve = || {
        let mut engine = AlphaBeta::with_options(options.clone());
        engine.choose(&game, Position::new(&position), &budget).expect("a move")
    };
    let report = solve();
    assert_eq!(report.value, Value::Heuristic(50.0));
    let mut group = c.benchmark_group("reversi/endgame");
    group.sample_size(10);
    group.throughput(Throughput::Elements(report.nodes));
    group.bench_function("alphabeta_exact_14_empties", |b| b.iter(|| black_box(solve())));
    group.finish();
}

fn multiplayer_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("reversi/multiplayer");
    group.sample_size(10);
    for (size, players, depth) in [(9usize, 3usize, 6u32), (10, 4, 7)] {
        let game = Reversi::new(size, players).expect("size");
        let start = game.initial_state();
        for model in [OpponentModel::Paranoid, OpponentModel::MaxN] {
            let search = || {
                let mut s = MultiplayerSearch::new(model);
                s.choose(&game, Position::new(&start), &Budget::depth(depth)).expect("a move")
            };
            let nodes = search().nodes;
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{model}_{size}x{size}_{players}p_depth{depth}"), |b| {
                b.iter(|| black_box(search()))
            });
        }
    }
    group.finish();
}

fn marathon_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("reversi/marathon");
    group.sample_size(10);
    let config = GeneticConfig { generations: 50..=50, ..GeneticConfig::default() };
    group.bench_function("generate_test_case_50_generations", |b| {
        b.iter(|| black_box(TestCase::generate_with(black_box(0), 7, &config)))
    });
    group.finish();
}

/// The `criterion_group!` function, in a private module because it has no doc comment.
mod groups {
    use super::{endgame_benches, marathon_benches, multiplayer_benches, perft_benches};
    criterion::criterion_group!(
        benches,
        perft_benches,
        endgame_benches,
        multiplayer_benches,
        marathon_benches
    );
}

criterion_main!(groups::benches);
