//! Any bundled game in the terminal, against ply's engines or watching them play.
//!
//! ```text
//! cargo run --release --example play -- --game breakthrough
//! cargo run --release --example play -- --game connect-four --human none --engine mcts:iters=2000
//! ```

fn main() -> std::process::ExitCode {
    ply_tools::cli::play_main(&ply_bundle::registry())
}
