//! Tic-tac-toe in the terminal against a perfect engine.
//!
//! ```text
//! cargo run --release --example tictactoe
//! cargo run --release --example tictactoe -- --position x...o.... --human none
//! ```

fn main() -> std::process::ExitCode {
    ply_tools::cli::game_main(&ply_bundle::tictactoe())
}
