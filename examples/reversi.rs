//! Reversi for 2 to 4 players in the terminal, any mix of humans and engines, and an engine
//! mode for Othello GUIs (the NBoard protocol).
//!
//! ```text
//! cargo run --release --example reversi                                  # you (Black) vs the engine
//! cargo run --release --example reversi -- --players 3 --size 9 --seat 1=human --seat 2=mcts:time=200ms
//! cargo run --release --example reversi -- --players 4 --size 10 --seat 1=human --seat 3=human
//! cargo run --release --example reversi -- --players 3 --size 7 < /dev/null  # engines play it out
//! cargo run --release --example reversi -- nboard                       # NBoard engine on stdin/stdout
//! ```
//!
//! Moves are typed as `c4` (column letter, row number from the top), as the contest's
//! `(column, row)` pair from (0, 0) at the top left, or `pass` when forced; `help` lists the
//! commands. `--seat N=SPEC` (repeatable) puts a human (`human`) or an engine spec on seat N;
//! seats not given get the default engine (`--engine`), and `--human` chooses human seats the
//! usual way when no `--seat` is given.

mod common;

use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ply::search::alphabeta::AlphaBeta;
use ply::Game;
use ply_reversi::nboard::NBoard;
use ply_reversi::{Evaluation, Reversi};

use common::agents::AgentSpec;
use common::play::{
    clock_seed, color_enabled, play_engines, play_terminal, run, Defaults, PlayArgs, PlayConfig,
    PlayLoopError, Seat,
};

/// Reversi (Othello) for 2 to 4 players.
#[derive(Parser, Debug)]
#[command(name = "reversi", after_help = common::agents::ACCEPTED)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Board side, 4..=16.
    #[arg(long, default_value_t = 8, value_name = "N")]
    size: usize,
    /// Number of players, 2..=4.
    #[arg(long, default_value_t = 2, value_name = "P")]
    players: usize,
    /// Start from this board: rows of . and 1..4 joined by /, a space and the player to move.
    #[arg(long, value_name = "BOARD")]
    position: Option<String>,
    /// Who plays a seat: N=human or N=SPEC (e.g. 2=mcts:time=200ms); repeatable.
    #[arg(long = "seat", value_name = "N=WHO")]
    seats: Vec<String>,
    /// The engines' evaluation: standard or discs.
    #[arg(long, default_value = "standard", value_name = "EVAL")]
    eval: Evaluation,
    #[command(flatten)]
    play: PlayArgs,
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
    let game = match &cli.position {
        Some(p) => Reversi::from_position(p, cli.players),
        None => Reversi::new(cli.size, cli.players),
    };
    let game = match game {
        Ok(g) => g.with_evaluation(cli.eval),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = game.initial_state();
    let two = game.players() == 2;
    let names: &[&str] = if two { &["Black", "White"] } else { &[] };
    let defaults = Defaults {
        engine: if two { "alphabeta:time=1s" } else { "paranoid:time=1s" },
        batch_engine: if two { "alphabeta:time=20ms" } else { "paranoid:depth=2" },
        names,
    };
    if cli.seats.is_empty() {
        return run(&game, start, &cli.play, defaults);
    }
    match play_seats(&game, start, &cli, defaults) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads `--seat N=WHO` options into one seat per player; missing seats get `default`.
fn parse_seats(texts: &[String], players: usize, default: &AgentSpec) -> Result<Vec<Seat>, String> {
    let mut seats: Vec<Option<Seat>> = vec![None; players];
    for text in texts {
        let (n, who) = text
            .split_once('=')
            .ok_or_else(|| format!("bad --seat {text:?}: expected N=human or N=SPEC"))?;
        let n: usize = n
            .trim()
            .parse()
            .ok()
            .filter(|n| (1..=players).contains(n))
            .ok_or_else(|| format!("bad --seat {text:?}: seat must be 1..={players}"))?;
        let seat = match who.trim() {
            "human" => Seat::Human,
            spec => Seat::Engine(
                spec.parse::<AgentSpec>().map_err(|e| format!("bad --seat {text:?}: {e}"))?,
            ),
        };
        if seats[n - 1].replace(seat).is_some() {
            return Err(format!("seat {n} is given twice"));
        }
    }
    Ok(seats.into_iter().map(|s| s.unwrap_or_else(|| Seat::Engine(default.clone()))).collect())
}

fn play_seats(
    game: &Reversi,
    start: ply_reversi::ReversiState,
    cli: &Cli,
    defaults: Defaults<'_>,
) -> Result<(), String> {
    let stdin_is_terminal = io::stdin().is_terminal();
    let default = match cli.play.engines.first() {
        Some(spec) => spec.clone(),
        None => {
            let text = if stdin_is_terminal { defaults.engine } else { defaults.batch_engine };
            text.parse::<AgentSpec>().map_err(|e| e.to_string())?
        }
    };
    let seats = parse_seats(&cli.seats, game.players(), &default)?;
    let seed = cli.play.seed.unwrap_or_else(clock_seed);
    let names: Vec<String> = defaults.names.iter().map(|s| s.to_string()).collect();
    let mut out = io::stdout().lock();
    let describe: Vec<String> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Seat::Human => format!("{}: human", i + 1),
            Seat::Engine(spec) => format!("{}: {spec}", i + 1),
        })
        .collect();
    let _ = writeln!(out, "{}  (seed {seed})", describe.join(", "));
    let result = if seats.iter().all(|s| matches!(s, Seat::Engine(_))) {
        let specs: Vec<AgentSpec> = seats
            .into_iter()
            .filter_map(|s| match s {
                Seat::Engine(spec) => Some(spec),
                Seat::Human => None,
            })
            .collect();
        play_engines(game, start, &specs, seed, &names, &mut out).map(|_| ())
    } else {
        let config =
            PlayConfig { seats, seed, color: color_enabled(), names, echo: !stdin_is_terminal };
        let mut input = io::stdin().lock();
        play_terminal(game, start, &config, &mut input, &mut out).map(|_| ())
    };
    match result {
        Ok(()) => Ok(()),
        Err(PlayLoopError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

/// The NBoard engine loop: one command per line on stdin, answers on stdout.
fn nboard(name: &str) -> ExitCode {
    let mut engine = NBoard::new(AlphaBeta::new(), name);
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        for reply in engine.handle(&line) {
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
