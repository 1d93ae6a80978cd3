//! Impasse (Mark Steere), as the CodinGame referee plays it, in the terminal.
//!
//! ```text
//! cargo run --release --example impasse
//! cargo run --release --example impasse -- --human none --engine alphabeta:time=200ms --engine mcts:time=200ms
//! ```

fn main() -> std::process::ExitCode {
    ply_tools::cli::game_main(&ply_bundle::impasse())
}
