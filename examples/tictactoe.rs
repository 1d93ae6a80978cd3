//! Play tic-tac-toe in the terminal against ply's engine, which never loses.
//!
//! ```text
//! cargo run --example tictactoe                    # you play X
//! cargo run --example tictactoe -- --human second --engine mcts:iters=2000
//! ```
//!
//! Squares are a1..c3 (column letter, row number from the bottom), or the number from the
//! list of legal moves.

mod common;

use std::process::ExitCode;

use clap::Parser;
use ply::games::TicTacToe;

use common::play::{run, start_state, Defaults, PlayArgs};

/// Play tic-tac-toe against ply's engine.
#[derive(Parser, Debug)]
#[command(name = "tictactoe", after_help = common::agents::ACCEPTED)]
struct Cli {
    /// Start from this position: 9 characters of x, o and . (top row first).
    #[arg(long, value_name = "P")]
    position: Option<String>,
    #[command(flatten)]
    play: PlayArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let game = TicTacToe;
    let start = match start_state(&game, cli.position.as_deref(), "--position") {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let defaults = Defaults {
        engine: "alphabeta:depth=9",
        batch_engine: "alphabeta:depth=9",
        names: &["X", "O"],
    };
    run(&game, start, &cli.play, defaults)
}
