//! Endgame databases for English checkers and international draughts: build the tables,
//! list them, probe a position, verify samples. The engines use the tables found in the same
//! directory (`egdb=on`, the default, in an alphabeta spec).
//!
//! ```text
//! cargo run --release --example egdb -- --game english-checkers build --pieces 5
//! cargo run --release --example egdb -- --game english-checkers --rules standard build --pieces 5
//! cargo run --release --example egdb -- --game international-draughts build --pieces 4
//! cargo run --release --example egdb -- --game english-checkers info
//! cargo run --release --example egdb -- --game english-checkers probe "W:WK14,K10:BK1"
//! cargo run --release --example egdb -- --game english-checkers verify --samples 100000
//! ```
//!
//! Tables go to `--dir`, else `$PLY_EGDB`, else `~/.cache/ply/egdb`, one directory per game
//! and rule set.

use std::process::ExitCode;

use clap::Parser;
use ply_tools::egdb::{run, EgdbArgs};
use ply_tools::registry::GameOptions;

/// Build, list, probe and verify endgame databases.
#[derive(Parser, Debug)]
#[command(name = "egdb")]
struct Cli {
    /// english-checkers or international-draughts.
    #[arg(long)]
    game: String,
    /// The checkers rules and board size (`--rules deepomatic|standard`, `--size N`).
    #[command(flatten)]
    options: GameOptions,
    #[command(flatten)]
    egdb: EgdbArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = std::io::stdout();
    let result = match cli.game.as_str() {
        "english-checkers" => ply_examples::english_checkers()
            .build(&cli.options)
            .map_err(|e| e.to_string())
            .and_then(|game| run(&game, &cli.egdb, &mut out)),
        "international-draughts" => ply_examples::international_draughts()
            .build(&cli.options)
            .map_err(|e| e.to_string())
            .and_then(|game| run(&game, &cli.egdb, &mut out)),
        other => Err(format!(
            "no endgame index for `{other}`: english-checkers or international-draughts"
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
