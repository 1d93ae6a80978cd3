//! Cross-game speed: perft, alpha-beta (paranoid and max^n for three or four players) and MCTS
//! on every game of the bundled registry (`ply_bundle::registry`), through the generic
//! `Game` and `Agent` interfaces only, so the figures compare games and algorithms on equal
//! terms. A game reaches this bench by its registration alone: the workloads come from
//! `ply_tools::bench`, sized by counts (leaves, nodes, iterations), not by time.
//!
//! Benchmarks are named `<game>/<algorithm>/<position>/<size>`, so
//! `cargo bench -p ply-bench --bench games -- reversi` runs every Reversi benchmark and
//! `cargo bench -p ply-bench --bench games -- /mcts/` every MCTS one. The positions are the
//! start and a middle-game position 20 seeded random plies in. Throughput is leaves per
//! second for perft, nodes per second for the searches and iterations per second for MCTS.

use std::time::Duration;

use criterion::{criterion_main, Criterion, SamplingMode, Throughput};
use ply_tools::bench::Sizes;
use ply_tools::registry::GameOptions;

/// A variant: the game, its label, and its `--rules`, `--size` and `--players`.
type Variant =
    (&'static str, &'static str, Option<&'static str>, Option<&'static str>, Option<usize>);

/// The configurations benchmarked: every registered game with its default options, and
/// these variants.
const VARIANTS: [Variant; 3] = [
    ("english-checkers", "english-checkers-standard", Some("standard"), None, None),
    ("reversi", "reversi-9x9-3p", None, Some("9"), Some(3)),
    ("reversi", "reversi-10x10-4p", None, Some("10"), Some(4)),
];

fn games(c: &mut Criterion) {
    let registry = ply_bundle::registry();
    let mut configs: Vec<(String, String, GameOptions)> = registry
        .names()
        .into_iter()
        .map(|n| (n.to_string(), n.to_string(), GameOptions::default()))
        .collect();
    for (game, label, rules, size, players) in VARIANTS {
        let options = GameOptions {
            rules: rules.map(String::from),
            size: size.map(String::from),
            players,
            ..GameOptions::default()
        };
        configs.push((game.to_string(), label.to_string(), options));
    }
    for (game, label, options) in configs {
        let entry = registry.get(&game).expect("a registered game");
        let workloads = entry.workloads(&options, &Sizes::default()).expect("valid options");
        let mut group = c.benchmark_group(label);
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        for mut w in workloads {
            group.throughput(Throughput::Elements(w.elements));
            group.bench_function(w.name.as_str(), |b| b.iter(|| (w.run)()));
        }
        group.finish();
    }
}

/// The `criterion_group!` function, in a private module because it has no doc comment.
mod groups {
    criterion::criterion_group!(benches, super::games);
}

criterion_main!(groups::benches);
