//! Play Connect Four in the terminal against ply's engine (the README's quick demo).
//!
//! ```text
//! cargo run --release --example connect_four                       # you play first
//! cargo run --release --example connect_four -- --human second --engine mcts:time=2s
//! cargo run --release --example connect_four -- --human none < /dev/null   # engine vs engine
//! ```
//!
//! Type a column number (1-7) to drop a disc, `help` for the commands.

mod common;

use std::process::ExitCode;

use clap::Parser;
use ply::games::ConnectFour;

use common::play::{run, start_state, Defaults, PlayArgs};

/// Play Connect Four against ply's engine.
#[derive(Parser, Debug)]
#[command(name = "connect_four", after_help = common::agents::ACCEPTED)]
struct Cli {
    /// Board size COLSxROWS (4..=9 each, COLS x (ROWS + 1) <= 64).
    #[arg(long, default_value = "7x6", value_name = "COLSxROWS")]
    size: String,
    /// Discs in a line needed to win.
    #[arg(long, default_value_t = 4, value_name = "K")]
    connect: usize,
    /// Start from this position: rows top first separated by /, with x, o and .
    #[arg(long, value_name = "P")]
    position: Option<String>,
    #[command(flatten)]
    play: PlayArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let dims =
        cli.size.split_once(['x', 'X']).and_then(|(c, r)| Some((c.parse().ok()?, r.parse().ok()?)));
    let Some((cols, rows)) = dims else {
        eprintln!("error: bad --size {:?}: expected COLSxROWS such as 7x6", cli.size);
        return ExitCode::FAILURE;
    };
    let game = match ConnectFour::new(cols, rows, cli.connect) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = match start_state(&game, cli.position.as_deref(), "--position") {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let defaults = Defaults {
        engine: "alphabeta:time=1s",
        batch_engine: "alphabeta:time=50ms",
        names: &["x", "o"],
    };
    run(&game, start, &cli.play, defaults)
}
