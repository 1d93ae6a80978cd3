//! Connect Four in the terminal against ply's engine, on any board from 4x4 to 9x9.
//!
//! ```text
//! cargo run --release --example connect_four
//! cargo run --release --example connect_four -- --size 8x7 --variant connect=5 --engine mcts:time=1s
//! ```

fn main() -> std::process::ExitCode {
    ply_tools::cli::game_main(&ply_bundle::connect_four())
}
