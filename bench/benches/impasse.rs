//! Impasse benchmarks: perft from the start (node count asserted), move generation, apply and
//! evaluation on positions from seeded random games.
//!
//! ```text
//! cargo bench --bench impasse
//! ```

use criterion::{black_box, criterion_main, BenchmarkId, Criterion, Throughput};
use ply::{perft, Game, MoveList, PerftMode, Player};
use ply_impasse::{Impasse, ImpasseState};

/// Positions from seeded random games, every 7th ply (start, middle and end game).
fn positions(game: &Impasse) -> Vec<ImpasseState> {
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..8 {
        let mut s = game.initial_state();
        while game.outcome(&s).is_none() {
            if s.ply().is_multiple_of(7) {
                out.push(s);
            }
            game.generate_moves(&s, &mut moves);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            game.apply(&mut s, moves[(x % moves.len() as u64) as usize]);
        }
    }
    out
}

fn bench_perft(c: &mut Criterion) {
    let game = Impasse::new();
    let start = game.initial_state();
    let mut group = c.benchmark_group("impasse/perft");
    group.sample_size(10);
    for (depth, nodes) in [(4u32, 193_139u64), (5, 3_489_530)] {
        group.throughput(Throughput::Elements(nodes));
        for mode in [PerftMode::Bulk, PerftMode::MakeAll] {
            let id = BenchmarkId::new(format!("{mode:?}").to_lowercase(), depth);
            group.bench_with_input(id, &depth, |b, &d| {
                b.iter(|| {
                    let n = perft(&game, black_box(&start), d, mode);
                    assert_eq!(n, nodes);
                    n
                })
            });
        }
    }
    group.finish();
}

fn bench_positions(c: &mut Criterion) {
    let game = Impasse::new();
    let states = positions(&game);
    let mut group = c.benchmark_group("impasse/positions");
    group.throughput(Throughput::Elements(states.len() as u64));
    let mut moves = MoveList::new();
    group.bench_function("generate", |b| {
        b.iter(|| {
            let mut total = 0;
            for s in &states {
                game.generate_moves(black_box(s), &mut moves);
                total += moves.len();
            }
            total
        })
    });
    let firsts: Vec<_> = states
        .iter()
        .map(|s| {
            game.generate_moves(s, &mut moves);
            (*s, moves[0])
        })
        .collect();
    group.bench_function("apply", |b| {
        b.iter(|| {
            let mut h = 0u64;
            for (s, m) in &firsts {
                let mut t = *s;
                game.apply(&mut t, black_box(*m));
                h ^= game.hash(&t).unwrap_or(0);
            }
            h
        })
    });
    group.bench_function("evaluate", |b| {
        b.iter(|| states.iter().map(|s| game.evaluate(black_box(s), Player::new(0))).sum::<i32>())
    });
    group.finish();
}

mod groups {
    // `criterion_group!` defines a public function that cannot carry a doc comment.
    #![allow(missing_docs)]
    use super::{bench_perft, bench_positions};
    criterion::criterion_group!(benches, bench_perft, bench_positions);
}

criterion_main!(groups::benches);
