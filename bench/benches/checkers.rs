//! English checkers speed: perft (the specialised bulk-counting one, and the generic `Game`
//! path with bulk counting and with every leaf played), move generation on a few positions,
//! and alpha-beta.
//!
//! `cargo bench --bench checkers` (the `bench` profile: thin LTO, one codegen unit).
//! Throughput is leaves per second for perft, positions per second for move generation and
//! nodes per second for alpha-beta; each bench checks its answer once before timing.

use criterion::{black_box, criterion_main, Criterion, Throughput};

use ply::search::alphabeta::AlphaBeta;
use ply::search::{Agent, Budget, Position};
use ply::{perft, Game, MoveList, Notation, PerftMode};
use ply_checkers::perft::perft_fast;
use ply_checkers::{EnglishCheckers, Rules};

/// Published Standard-rules perft from the start (Aart Bik), depths 0..=10.
const STANDARD: [u64; 11] =
    [1, 7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_680, 18_391_564];

fn perft_benches(c: &mut Criterion) {
    let game = EnglishCheckers::new(8, Rules::Standard).expect("8x8");
    let start = game.initial_state();
    let mut group = c.benchmark_group("checkers/perft");
    group.sample_size(10);
    for depth in [8u32, 9] {
        let leaves = STANDARD[depth as usize];
        assert_eq!(perft_fast(&game, &start, depth), leaves);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("bulk_depth{depth}"), |b| {
            b.iter(|| perft_fast(&game, black_box(&start), depth))
        });
    }
    let leaves = STANDARD[9];
    assert_eq!(perft(&game, &start, 9, PerftMode::Bulk), leaves);
    group.throughput(Throughput::Elements(leaves));
    group.bench_function("generic_bulk_depth9", |b| {
        b.iter(|| perft(&game, black_box(&start), 9, PerftMode::Bulk))
    });
    for depth in [7u32, 8] {
        let leaves = STANDARD[depth as usize];
        assert_eq!(perft(&game, &start, depth, PerftMode::MakeAll), leaves);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("make_all_depth{depth}"), |b| {
            b.iter(|| perft(&game, black_box(&start), depth, PerftMode::MakeAll))
        });
    }
    let big = EnglishCheckers::new(10, Rules::Deepomatic).expect("10x10");
    let big_start = big.initial_state();
    let leaves = perft_fast(&big, &big_start, 7);
    assert_eq!(leaves, perft(&big, &big_start, 7, PerftMode::Bulk));
    group.throughput(Throughput::Elements(leaves));
    group.bench_function("bulk_10x10_depth7", |b| {
        b.iter(|| perft_fast(&big, black_box(&big_start), 7))
    });
    group.finish();
}

fn movegen_benches(c: &mut Criterion) {
    let game = EnglishCheckers::new(8, Rules::Deepomatic).expect("8x8");
    let positions: Vec<_> = [
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "W:W18,19,22,24,25,26,27,28,30,31:B1,2,3,5,6,7,10,12,14,15",
        "B:WK3,10,11,18,19,K26:BK14,5,K23",
        "W:WK10,K26,27:B5,K14,K23",
    ]
    .iter()
    .map(|f| game.parse_state(f).expect("valid fen"))
    .collect();
    let mut group = c.benchmark_group("checkers/movegen");
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
    let game = EnglishCheckers::new(8, Rules::Deepomatic).expect("8x8");
    let start = game.initial_state();
    let mut group = c.benchmark_group("checkers/alphabeta");
    group.sample_size(10);
    for depth in [8u32, 10] {
        let budget = Budget::depth(depth);
        let mut agent = AlphaBeta::new().with_tt_mb(16);
        let report = agent.choose(&game, Position::new(&start), &budget).expect("moves");
        assert_eq!(report.depth, depth);
        group.throughput(Throughput::Elements(report.nodes));
        group.bench_function(format!("depth{depth}"), |b| {
            b.iter(|| {
                Agent::<EnglishCheckers>::new_game(&mut agent);
                agent.choose(&game, Position::new(black_box(&start)), &budget).map(|r| r.nodes)
            })
        });
    }
    group.finish();
}

/// The `criterion_group!` function, in a private module because it has no doc comment.
mod groups {
    use super::{movegen_benches, perft_benches, search_benches};
    criterion::criterion_group!(benches, perft_benches, movegen_benches, search_benches);
}

criterion_main!(groups::benches);
