//! How often ply's searches keep the exact value of positions from random openings, for any
//! bundled game: every move labelled by ply's own solver (or, for Connect Four, by Pascal Pons'
//! solver with `--pons`), then each engine's move judged (see `ply_tools::cli::oracle`).
//!
//! ```text
//! cargo run --release --example oracle -- --game kalah --positions 500 --min-plies 8 --max-plies 20 \
//!     --labels kalah-labels.txt --engine mcts:time=100ms --engine alphabeta:time=100ms
//! cargo run --release --example oracle -- --game connect-four --pons $SOLVER --positions 1000 \
//!     --labels c4-labels.txt --engine puct:time=1s
//! ```

fn main() -> std::process::ExitCode {
    ply_tools::cli::oracle::main(&ply_bundle::registry())
}
