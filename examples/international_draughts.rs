//! Play international draughts (10x10, FMJD rules) in the terminal against ply's engine, or
//! run the engine under a draughts GUI through the Hub protocol.
//!
//! ```text
//! cargo run --release --example international_draughts                 # you play White
//! cargo run --release --example international_draughts -- --human none --watch   # engine vs engine
//! cargo run --release --example international_draughts -- --human second --engine alphabeta:time=3s
//! cargo run --release --example international_draughts -- --position "W:WK46,28:B12,K40"
//! cargo run --release --example international_draughts -- hub          # Hub protocol engine
//! cargo run --release --example international_draughts -- dxp --listen 127.0.0.1:27531   # DamExchange server
//! cargo run --release --example international_draughts -- --no-book    # engine out of book
//! ```
//!
//! Type moves in standard notation (`32-28`, `28x19`, `19x28x37` when a short capture is
//! ambiguous) or by their number in the list, `help` for the commands.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply_draughts::{DrawRules, InternationalDraughts};
use ply_tools::engines::dxp::DxpServer;
use ply_tools::engines::hub::engine::info_fields;
use ply_tools::engines::hub::{serve, HubEngine};

use ply_tools::play::{run_program, PlayArgs};
use ply_tools::web::ServeArgs;

/// Play international draughts against ply's engine.
#[derive(Parser, Debug)]
#[command(version, name = "international_draughts", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Draw rules to switch off, comma separated: repetition, king-moves, endgame,
    /// king-vs-king.
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    no_draw: Vec<String>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play in a browser: a local web server on 127.0.0.1 (the address is printed; Ctrl-C
    /// stops it).
    Serve(Box<ServeArgs>),
    /// Solve a position exactly: its value under perfect play and the moves that keep it.
    Solve(Box<ply_tools::solve::SolveArgs>),
    /// Speak the Hub protocol (version 2, as Scan) on stdin and stdout.
    Hub {
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64, value_name = "MIB")]
        tt_mb: usize,
    },
    /// Serve DamExchange (DXP) games on a TCP port, one connection at a time: the engine
    /// follows the initiator's game requests (as Scan's `dxp` mode).
    Dxp {
        /// The address to listen on (port 0: any free port; the address is printed).
        #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:27531")]
        listen: String,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64, value_name = "MIB")]
        tt_mb: usize,
    },
}

fn draw_rules(off: &[String]) -> Result<DrawRules, String> {
    let mut rules = DrawRules::FMJD;
    for name in off {
        match name.trim() {
            "repetition" => rules.repetition = false,
            "king-moves" => rules.king_moves = None,
            "endgame" => rules.endgame_moves = None,
            "king-vs-king" => rules.king_vs_king = false,
            other => {
                return Err(format!(
                    "unknown draw rule {other:?}: expected repetition, king-moves, endgame or \
                     king-vs-king"
                ))
            }
        }
    }
    Ok(rules)
}

fn hub_mode(tt_mb: usize) -> ExitCode {
    let codec = ply_bundle::draughts_hub_codec();
    // The table outlives each search, so work done pondering on a reply that did not come
    // still orders the next search.
    let options = AlphaBetaOptions { keep_tt: true, ..ply_draughts::engine::options() };
    // The shipped engine: the network and ProbCut, each of which won its SPRT (BENCHMARKS.md).
    let agent = AlphaBeta::with_options(options)
        .with_tt_mb(tt_mb.clamp(1, 65_536))
        .with_evaluator(ply_draughts::net::DraughtsNet::default())
        .with_info(Box::new(move |info| {
            let game = InternationalDraughts::new();
            let line = info_fields(
                &game,
                codec,
                info.depth,
                info.value,
                info.nodes,
                info.elapsed,
                info.pv,
            );
            let mut out = io::stdout().lock();
            let _ = writeln!(out, "{line}").and_then(|_| out.flush());
        }));
    let engine = HubEngine::new(InternationalDraughts::new(), codec, agent).without_final_info();
    match serve(engine, io::BufReader::new(io::stdin()), io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The DamExchange server: the shipped engine (as `hub_mode`'s, without its output), on
/// `listen`, for ever.
fn dxp_mode(listen: &str, tt_mb: usize) -> ExitCode {
    let options = AlphaBetaOptions { keep_tt: true, ..ply_draughts::engine::options() };
    let agent = AlphaBeta::with_options(options)
        .with_tt_mb(tt_mb.clamp(1, 65_536))
        .with_evaluator(ply_draughts::net::DraughtsNet::default());
    let listener = match std::net::TcpListener::bind(listen) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on {listen}: {e}");
            return ExitCode::FAILURE;
        }
    };
    match listener.local_addr() {
        Ok(addr) => {
            let mut out = io::stdout().lock();
            let _ = writeln!(out, "dxp: listening on {addr}").and_then(|_| out.flush());
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    let codec = ply_bundle::draughts_dxp_codec();
    DxpServer::new(InternationalDraughts::new(), codec, agent).listen(&listener)
}

fn main() -> ExitCode {
    ply_tools::cli::end_quietly_on_closed_stdout();
    // --help shows the game options and agents that apply to this game.
    let command =
        ply_tools::cli::program_command(Cli::command(), &ply_bundle::international_draughts());
    let cli = Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|e| e.exit());
    if let Some(Command::Serve(args)) = &cli.command {
        return ply_tools::web::serve_entry(ply_bundle::international_draughts(), args);
    }
    if let Some(Command::Solve(args)) = &cli.command {
        return ply_tools::cli::solve_main(&ply_bundle::international_draughts(), args);
    }
    if let Some(Command::Hub { tt_mb }) = cli.command {
        return hub_mode(tt_mb);
    }
    if let Some(Command::Dxp { listen, tt_mb }) = &cli.command {
        return dxp_mode(listen, *tt_mb);
    }
    let rules = match draw_rules(&cli.no_draw) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let game = InternationalDraughts::with_draw_rules(rules);
    let entry = ply_bundle::international_draughts();
    // The engine plays from the draughts book unless told --no-book or given another.
    let options = ply_tools::registry::GameOptions::default();
    let kit = entry.kit_for(&game, &options);
    run_program(game, &cli.play, entry.info().play_defaults(), &kit)
}
