//! Perft for every registered game: count the leaves of the move tree to each depth, with
//! timing, to check a move generator against published figures and measure its speed.
//!
//! ```text
//! cargo run --release --example perft -- connect-four 8
//! cargo run --release --example perft -- tictactoe 4 --position x...o.... --divide
//! ```

mod common;

use std::io::{self, StdoutLock, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, ValueEnum};
use ply::{divide, perft, Game, Notation, PerftMode};

use common::games::{games_help, visit_game, GameOptions, GameVisitor};
use common::units::{rate, secs, si};

/// How the last ply is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Count the last ply's moves without playing them (bulk counting).
    Bulk,
    /// Play every leaf move through the generic `Game::apply` path.
    Make,
}

/// Count the leaves of a game's move tree to each depth.
#[derive(Parser, Debug)]
#[command(name = "perft", after_help = games_help())]
struct Cli {
    /// The game (see the list below).
    game: String,
    /// The deepest depth; every depth from 1 up to it is printed.
    depth: u32,
    /// Start from this position (the game's position notation, e.g. PDN FEN for checkers).
    #[arg(long, value_name = "P")]
    position: Option<String>,
    /// Also print the count below each legal move at the deepest depth.
    #[arg(long)]
    divide: bool,
    /// How the last ply is counted.
    #[arg(long, value_enum, default_value_t = Mode::Bulk)]
    mode: Mode,
    #[command(flatten)]
    options: GameOptions,
}

/// The perft run for one game, as a registry visitor.
struct Run<'a> {
    cli: &'a Cli,
}

impl GameVisitor for Run<'_> {
    /// `Err(Some(message))` for a failure, `Err(None)` when stdout was closed.
    type Output = Result<(), Option<String>>;

    fn visit<G: Game + Notation + Sync + Send + 'static>(self, game: G) -> Self::Output {
        let cli = self.cli;
        let start = match &cli.position {
            Some(p) => game.parse_state(p).map_err(|e| Some(format!("bad --position: {e}")))?,
            None => game.initial_state(),
        };
        let mode = match cli.mode {
            Mode::Bulk => PerftMode::Bulk,
            Mode::Make => PerftMode::MakeAll,
        };
        let mut out = io::stdout().lock();
        let line = |out: &mut StdoutLock, depth: u32, count: u64, started: Instant| {
            let elapsed = started.elapsed();
            writeln!(
                out,
                "perft({depth}) = {count}  time {}  speed {} leaves/s",
                secs(elapsed),
                si(rate(count, elapsed))
            )
        };
        let last_plain = if cli.divide { cli.depth.saturating_sub(1) } else { cli.depth };
        for depth in 1..=last_plain {
            let started = Instant::now();
            let count = perft(&game, &start, depth, mode);
            line(&mut out, depth, count, started).map_err(output_error)?;
        }
        if cli.divide && cli.depth >= 1 {
            let started = Instant::now();
            let split = divide(&game, &start, cli.depth, mode);
            for (mv, count) in &split {
                writeln!(out, "{}: {count}", game.format_move(&start, *mv))
                    .map_err(output_error)?;
            }
            writeln!(out, "moves: {}", split.len()).map_err(output_error)?;
            let total = split.iter().map(|(_, c)| c).sum();
            line(&mut out, cli.depth, total, started).map_err(output_error)?;
        }
        Ok(())
    }
}

/// An output error as a message; `None` for a closed pipe (`perft ... | head`), which ends
/// the program quietly.
fn output_error(e: io::Error) -> Option<String> {
    (e.kind() != io::ErrorKind::BrokenPipe).then(|| format!("stdout: {e}"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match visit_game(&cli.game, &cli.options, Run { cli: &cli }) {
        Ok(Ok(())) | Ok(Err(None)) => ExitCode::SUCCESS,
        Ok(Err(Some(e))) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
