//! The arena over every bundled game: tournaments between agents, fair by construction,
//! parallel, resumable, shardable, with Elo, SPRT and an SVG chart (see `ply_tools::arena`).
//!
//! ```text
//! cargo run --release --example arena -- --game breakthrough alphabeta:time=100ms mcts:time=100ms --games 20
//! cargo run --release --example arena -- merge shard-*.jsonl --svg chart.svg
//! ```

fn main() -> std::process::ExitCode {
    ply_tools::cli::arena::main(&ply_bundle::registry())
}
