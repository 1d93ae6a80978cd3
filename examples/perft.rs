//! Perft for every bundled game: count the leaves of the move tree to each depth, with
//! timing, to check a move generator against published figures and measure its speed.
//!
//! ```text
//! cargo run --release --example perft -- connect-four 8
//! cargo run --release --example perft -- reversi 10 --size 8 --players 2
//! cargo run --release --example perft -- breakthrough 5 --divide
//! ```

fn main() -> std::process::ExitCode {
    ply_tools::cli::perft_main(&ply_bundle::registry())
}
