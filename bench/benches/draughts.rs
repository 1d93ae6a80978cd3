//! International draughts speed: perft (the lean bulk-counting path and the generic `Game`
//! path), move generation on positions full of kings, and alpha-beta at fixed depth.
//!
//! `cargo bench --bench draughts` (the `bench` profile: thin LTO, one codegen unit).
//! Throughput is leaves per second for perft, positions per second for move generation and
//! nodes per second for alpha-beta; each bench checks its answer once before timing.

// criterion_group! and criterion_main! generate undocumented functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use ply::search::alphabeta::AlphaBeta;
use ply::search::{Agent, Budget, Position};
use ply::{perft, Game, MoveList, Notation, PerftMode};
use ply_draughts::{perft_fast, InternationalDraughts};

/// Published perft from the start (Aart Bik, duplicate captures counted once), depths 0..=10.
const START: [u64; 11] =
    [1, 9, 81, 658, 4_265, 27_117, 167_140, 1_049_442, 6_483_961, 41_022_423, 258_895_763];

fn perft_benches(c: &mut Criterion) {
    let game = InternationalDraughts::new();
    let start = game.initial_state();
    let mut group = c.benchmark_group("draughts/perft");
    group.sample_size(10);
    for depth in [8u32, 9] {
        let leaves = START[depth as usize];
        assert_eq!(perft_fast(&start, depth), leaves);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("bulk_depth{depth}"), |b| {
            b.iter(|| perft_fast(black_box(&start), depth))
        });
    }
    let depth = 8;
    assert_eq!(perft(&game, &start, depth, PerftMode::Bulk), START[depth as usize]);
    group.throughput(Throughput::Elements(START[depth as usize]));
    group.bench_function("generic_bulk_depth8", |b| {
        b.iter(|| perft(&game, black_box(&start), depth, PerftMode::Bulk))
    });
    let depth = 7;
    assert_eq!(perft(&game, &start, depth, PerftMode::MakeAll), START[depth as usize]);
    group.throughput(Throughput::Elements(START[depth as usize]));
    group.bench_function("make_all_depth7", |b| {
        b.iter(|| perft(&game, black_box(&start), depth, PerftMode::MakeAll))
    });
    group.finish();
}

fn movegen_benches(c: &mut Criterion) {
    let game = InternationalDraughts::new();
    let positions: Vec<_> = [
        "W:W31-50:B1-20",
        "W:W27,28,31,32,33,36,37,38,41,42:B9,12,13,14,17,18,19,22,23,24",
        "W:WK1,K23,K50:B7,9,18,20,29,31,33,38,40,42,K13,K36",
        "B:W12,14,17,19,23,27,30,32,35,38,K49:BK1,K10,K26,45",
        "W:WK46,K50,K3:B8,12,18,24,29,33,38,40,K14",
    ]
    .iter()
    .map(|f| game.parse_state(f).expect("valid fen"))
    .collect();
    let mut group = c.benchmark_group("draughts/movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut list = MoveList::new();
    group.bench_function("generate", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &positions {
                game.generate_moves(black_box(s), &mut list);
                n += list.len();
            }
            n
        })
    });
    group.finish();
}

fn search_benches(c: &mut Criterion) {
    let game = InternationalDraughts::new();
    let start = game.initial_state();
    let mut group = c.benchmark_group("draughts/alphabeta");
    group.sample_size(10);
    for depth in [8u32, 10] {
        let budget = Budget::depth(depth);
        let mut agent = AlphaBeta::new().with_tt_mb(16);
        let report = agent.choose(&game, Position::new(&start), &budget).expect("moves");
        assert_eq!(report.depth, depth);
        group.throughput(Throughput::Elements(report.nodes));
        group.bench_function(format!("depth{depth}"), |b| {
            b.iter(|| {
                Agent::<InternationalDraughts>::new_game(&mut agent);
                agent.choose(&game, Position::new(black_box(&start)), &budget).map(|r| r.nodes)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, perft_benches, movegen_benches, search_benches);
criterion_main!(benches);
