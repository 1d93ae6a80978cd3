//! Reversi (Othello) for 2 to 4 players in the terminal, any board from 4x4 to 16x16; and an
//! NBoard engine mode for Othello GUIs.
//!
//! ```text
//! cargo run --release --example reversi                                   # you vs alpha-beta
//! cargo run --release --example reversi -- --players 4 --size 10 --seat 1=human --seat 3=human
//! cargo run --release --example reversi -- --players 3 --size 9 --human none --engine maxn:depth=3
//! cargo run --release --example reversi -- nboard                         # NBoard engine
//! cargo run --release --example reversi -- nboard --ponder                # ... thinking on the GUI's time
//! ```

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply_reversi::{Evaluation, Reversi};
use ply_tools::engines::nboard::{serve, NBoardEngine, Pondering};
use ply_tools::play::{run_program, PlayArgs};
use ply_tools::registry::GameOptions;
use ply_tools::web::ServeArgs;

/// Reversi (Othello) for 2 to 4 players.
#[derive(Parser, Debug)]
#[command(version, name = "reversi")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The engines' evaluation, for engine specs without `eval=`: learned (the default, fitted
    /// on Othello), standard (hand-set) or discs (disc count); the game's own scoring
    /// (`hint` without a search, the board) uses standard unless this says discs.
    #[arg(long, default_value = "learned", value_name = "EVAL")]
    eval: String,
    #[command(flatten)]
    play: PlayArgs,
    /// The board size and number of players, as `--size N --players P`.
    #[command(flatten)]
    options: GameOptions,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play in a browser: a local web server on 127.0.0.1 (the address is printed; Ctrl-C
    /// stops it).
    Serve(Box<ServeArgs>),
    /// Solve a position exactly: its value under perfect play and the moves that keep it.
    Solve(Box<ply_tools::solve::SolveArgs>),
    /// Speak the NBoard protocol on stdin/stdout (2 players, 8x8).
    Nboard {
        /// The name announced to the GUI.
        #[arg(long, default_value = "ply")]
        name: String,
        /// Think on the opponent's time: search the position after the expected reply while
        /// the GUI waits for the opponent (off by default, so that the engine uses one core
        /// and only its own time, as in matches against other engines).
        #[arg(long)]
        ponder: bool,
    },
}

fn main() -> ExitCode {
    ply_tools::cli::end_quietly_on_closed_stdout();
    // --help shows the game options and agents that apply to this game.
    let command = ply_tools::cli::program_command(Cli::command(), &ply_bundle::reversi());
    let cli = Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|e| e.exit());
    if let Some(Command::Serve(args)) = &cli.command {
        return ply_tools::web::serve_entry(ply_bundle::reversi(), args);
    }
    if let Some(Command::Solve(args)) = &cli.command {
        return ply_tools::cli::solve_main(&ply_bundle::reversi(), args);
    }
    if let Some(Command::Nboard { name, ponder }) = &cli.command {
        return nboard(name, *ponder);
    }
    let entry = ply_bundle::reversi();
    let own = match cli.eval.as_str() {
        "discs" => Evaluation::Discs,
        _ => Evaluation::Standard,
    };
    let game: Reversi = match entry.build(&cli.options) {
        Ok(g) => g.with_evaluation(own),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut kit = entry.kit_for(&game, &cli.options);
    if let Err(e) = kit.set_default_evaluator(&cli.eval) {
        eprintln!("error: --eval: {e}");
        return ExitCode::FAILURE;
    }
    run_program(game, &cli.play, entry.info().play_defaults(), &kit)
}

/// The NBoard engine: one command per line on stdin, answers on stdout. The search keeps its
/// transposition table between moves, so a pondered position that the opponent did not
/// reach still leaves its work behind. It plays like the terminal's engine: the learned
/// evaluation with late-move reductions (BENCHMARKS.md).
fn nboard(name: &str, ponder: bool) -> ExitCode {
    let options = AlphaBetaOptions { keep_tt: true, lmr: true, ..AlphaBetaOptions::default() };
    let search =
        AlphaBeta::with_options(options).with_evaluator(ply_reversi::OthelloLearned::default());
    let game = match Reversi::new(8, 2) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let engine = NBoardEngine::new(game, ply_bundle::reversi_nboard_codec(), search, name);
    let pondering = if ponder { Pondering::On } else { Pondering::Off };
    match serve(engine, io::BufReader::new(io::stdin()), io::stdout(), pondering) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
