//! Reversi (Othello) for 2 to 4 players in the terminal, any board from 4x4 to 16x16; and an
//! NBoard engine mode for Othello GUIs.
//!
//! ```text
//! cargo run --release --example reversi                                   # you vs alpha-beta
//! cargo run --release --example reversi -- --players 4 --size 10 --seat 1=human --seat 3=human
//! cargo run --release --example reversi -- --players 3 --size 9 --human none --engine maxn:depth=3
//! cargo run --release --example reversi -- nboard                         # NBoard engine
//! ```

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ply::search::alphabeta::AlphaBeta;
use ply_reversi::nboard::NBoard;
use ply_reversi::{Evaluation, Reversi};
use ply_tools::engines::lines::{read_line, Line, MAX_LINE};
use ply_tools::play::{run_program, PlayArgs};
use ply_tools::registry::GameOptions;

/// Reversi (Othello) for 2 to 4 players.
#[derive(Parser, Debug)]
#[command(name = "reversi", after_help = ply_tools::spec::ACCEPTED)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The engines' evaluation: standard or discs.
    #[arg(long, default_value = "standard", value_name = "EVAL")]
    eval: Evaluation,
    #[command(flatten)]
    play: PlayArgs,
    /// The board size and number of players, as `--size N --players P`.
    #[command(flatten)]
    options: GameOptions,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak the NBoard protocol on stdin/stdout (2 players, 8x8).
    Nboard {
        /// The name announced to the GUI.
        #[arg(long, default_value = "ply")]
        name: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(Command::Nboard { name }) = &cli.command {
        return nboard(name);
    }
    let entry = ply_examples::reversi();
    let game: Reversi = match entry.build(&cli.options) {
        Ok(g) => g.with_evaluation(cli.eval),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    run_program(&game, &cli.play, entry.info().play_defaults(), &entry.kit)
}

/// The NBoard engine loop: one command per line on stdin, answers on stdout.
fn nboard(name: &str) -> ExitCode {
    let mut engine = NBoard::new(AlphaBeta::new(), name);
    let mut input = io::stdin().lock();
    let mut out = io::stdout().lock();
    loop {
        let replies = match read_line(&mut input, MAX_LINE) {
            Ok(Some(Line::Text(line))) => engine.handle(&line),
            // NBoard has no error answer: the GUI's status line says what was wrong.
            Ok(Some(_)) => vec!["status ignored a line that is not UTF-8 text or too long".into()],
            Ok(None) | Err(_) => break,
        };
        for reply in replies {
            if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
                return ExitCode::SUCCESS;
            }
        }
        if engine.quit_requested() {
            break;
        }
    }
    ExitCode::SUCCESS
}
