//! Search and perft speed on the tutorial games.
//!
//! `cargo bench --bench search` (the `bench` profile: thin LTO, one codegen unit). Throughput
//! is in nodes per second for alpha-beta and perft and in iterations per second for MCTS; each
//! bench asserts its answer. Filter with a name, e.g. `cargo bench --bench search -- mcts`.

use std::time::Duration;

use criterion::{black_box, criterion_main, BenchmarkId, Criterion, Throughput};

use ply::games::{ConnectFour, TicTacToe};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::mcts::Mcts;
use ply::search::{Agent, Budget, Position, SearchReport, Value};
use ply::{perft, Game, PerftMode};

/// One search from a cleared agent: every run of the bench does the same work.
fn search<G: Game, A: Agent<G>>(
    agent: &mut A,
    game: &G,
    state: &G::State,
    budget: &Budget,
) -> SearchReport<G::Move> {
    agent.new_game();
    agent.choose(game, Position::new(state), budget).expect("the start has legal moves")
}

fn alphabeta(c: &mut Criterion) {
    let game = ConnectFour::standard();
    let start = game.initial_state();
    let mut group = c.benchmark_group("connect_four/alphabeta");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for (name, options, depth) in [
        ("depth8", AlphaBetaOptions::default(), 8),
        ("depth10", AlphaBetaOptions::default(), 10),
        ("plain_depth6", AlphaBetaOptions::plain(), 6),
    ] {
        let mut agent = AlphaBeta::with_options(options).with_tt_mb(16);
        let budget = Budget::depth(depth);
        let report = search(&mut agent, &game, &start, &budget);
        assert_eq!(report.depth, depth);
        // Every column but the outer two is a fine first move; the search must not pick an
        // edge.
        assert!((1..=5).contains(&report.best_move), "{report:?}");
        group.throughput(Throughput::Elements(report.nodes));
        group.bench_function(name, |b| {
            b.iter(|| search(&mut agent, &game, black_box(&start), &budget).nodes)
        });
    }
    group.finish();

    let mut group = c.benchmark_group("tictactoe/alphabeta");
    let mut agent = AlphaBeta::new().with_tt_mb(1);
    let start = TicTacToe.initial_state();
    let budget = Budget::depth(9);
    let report = search(&mut agent, &TicTacToe, &start, &budget);
    assert_eq!(report.value, Value::Draw, "tic-tac-toe is a draw");
    group.throughput(Throughput::Elements(report.nodes));
    group.bench_function("solve", |b| {
        b.iter(|| search(&mut agent, &TicTacToe, black_box(&start), &budget).value)
    });
    group.finish();
}

fn mcts(c: &mut Criterion) {
    let game = ConnectFour::standard();
    let start = game.initial_state();
    let mut group = c.benchmark_group("connect_four/mcts");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for iterations in [10_000u64, 50_000] {
        let mut agent = Mcts::new().with_seed(7).with_tree_reuse(false);
        let budget = Budget::iterations(iterations);
        let report = search(&mut agent, &game, &start, &budget);
        assert_eq!(report.iterations, iterations);
        group.throughput(Throughput::Elements(iterations));
        group.bench_function(BenchmarkId::new("iters", iterations), |b| {
            b.iter(|| search(&mut agent, &game, black_box(&start), &budget).best_move)
        });
    }
    group.finish();
}

fn perft_bench(c: &mut Criterion) {
    let game = ConnectFour::standard();
    let start = game.initial_state();
    let mut group = c.benchmark_group("connect_four/perft");
    group.sample_size(10);
    for (name, mode) in [("bulk_depth8", PerftMode::Bulk), ("makeall_depth7", PerftMode::MakeAll)] {
        let (depth, expected) = if mode == PerftMode::Bulk { (8, 5_673_234) } else { (7, 823_536) };
        assert_eq!(perft(&game, &start, depth, mode), expected);
        group.throughput(Throughput::Elements(expected));
        group.bench_function(name, |b| b.iter(|| perft(&game, black_box(&start), depth, mode)));
    }
    group.finish();
}

/// The `criterion_group!` function, in a private module because it has no doc comment.
mod groups {
    use super::{alphabeta, mcts, perft_bench};
    criterion::criterion_group!(benches, alphabeta, mcts, perft_bench);
}

criterion_main!(groups::benches);
