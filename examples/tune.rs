//! Tune an evaluation for any registered game: play training games, then fit the weights of
//! the game's linear evaluation to their results.
//!
//! ```text
//! cargo run --release --example tune -- --game breakthrough generate --games 4000 \
//!     --engine alphabeta:depth=3 --threads 2 --out breakthrough.jsonl
//! cargo run --release --example tune -- --game breakthrough fit --data breakthrough.jsonl \
//!     --out rulesets/breakthrough/weights/learned.txt
//! ```

fn main() -> std::process::ExitCode {
    ply_tools::cli::tune_main(&ply_bundle::registry())
}
