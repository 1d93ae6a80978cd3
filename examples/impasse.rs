//! Play Impasse in the terminal: human against engine, or engine against engine.
//!
//! ```text
//! cargo run --release --example impasse                       # you play White
//! cargo run --release --example impasse -- --human second     # you play Black
//! cargo run --release --example impasse -- --human none --engine alphabeta:time=200ms --engine mcts:time=200ms
//! echo | cargo run --release --example impasse                # stdin not a terminal: engines play
//! ```
//!
//! Type an action as the CodinGame referee writes it (`c1a3`, `f8g7c5`, `b6`) or its number in
//! the list that `moves` prints. Positions (`--position`) are the referee's 8 board lines, row
//! 8 first, joined by `/`, then `w` or `b`, then optionally the two scores, e.g.
//! `.W.b.W.b/b.W.b.W./......../......../......../......../.B.w.B.w/w.B.w.B. w 0 0`.

mod common;

use std::process::ExitCode;

use clap::Parser;
use ply_impasse::Impasse;

use common::play::{run, start_state, Defaults, PlayArgs};

/// Impasse (Mark Steere), as the CodinGame referee plays it.
#[derive(Parser, Debug)]
#[command(name = "impasse", after_help = common::agents::ACCEPTED)]
struct Cli {
    #[command(flatten)]
    play: PlayArgs,
    /// Start position: 8 board lines (row 8 first) joined by '/', then w or b, then
    /// optionally the two scores.
    #[arg(long)]
    position: Option<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let game = Impasse::new();
    let start = match start_state(&game, cli.position.as_deref(), "--position") {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let defaults = Defaults {
        engine: "alphabeta:time=1s",
        batch_engine: "alphabeta:depth=4",
        names: &["White", "Black"],
    };
    run(&game, start, &cli.play, defaults)
}
