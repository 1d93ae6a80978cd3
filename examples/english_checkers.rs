//! English checkers in the terminal against ply's engine, under the Deepomatic challenge's
//! rules (the default) or the standard ones, on any even board from 4x4 to 16x16; and two
//! machine modes that give other programs the rules and the engine over JSON lines
//! (`ply_tools::engines::jsonl`).
//!
//! ```text
//! cargo run --release --example english_checkers                      # you play Black
//! cargo run --release --example english_checkers -- --color white --time 2s
//! cargo run --release --example english_checkers -- --human none      # engine vs engine
//! cargo run --release --example english_checkers -- --rules standard --size 10
//! cargo run --release --example english_checkers -- --no-book         # engine out of book
//! cargo run --release --example english_checkers -- --fen "B:W18,K26:B1,K14"
//! echo '{"board": ["_b__","____","____","w___"], "color": "b"}' \
//!     | cargo run --release --example english_checkers -- moves
//! ```

use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use ply_checkers::{DrawRules, EnglishCheckers, Rules};
use ply_tools::engines::jsonl::{self, PlayServer};
use ply_tools::error::ToolError;
use ply_tools::play::{run_program, PlayArgs};
use ply_tools::registry::GameOptions;
use ply_tools::spec::AgentSpec;
use ply_tools::web::ServeArgs;

/// Play English checkers against ply's engine, or serve its rules and engine as JSON lines.
#[derive(Parser, Debug)]
#[command(version, name = "english_checkers", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Turn off the draw rules (threefold repetition, 40 moves each without capture or man
    /// move).
    #[arg(long)]
    no_draw: bool,
    #[command(flatten)]
    play: PlayArgs,
    /// The rules (deepomatic or standard) and board size, as `--rules R --size N`.
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
    /// Read {"board": [...], "color": "b"} lines; write each position's legal moves.
    Moves {
        /// The rules: deepomatic or standard.
        #[arg(long, default_value = "deepomatic")]
        rules: Rules,
    },
    /// Read {"board": [...], "color": "b", "time_ms": 1000} lines; write the engine's move.
    /// One engine plays the whole game (its table kept between moves) and follows it, so
    /// repetitions count; optional fields "moves" (the moves so far, from "start") and
    /// "new_game": true say where a request stands.
    Play {
        /// The rules: deepomatic or standard.
        #[arg(long, default_value = "deepomatic")]
        rules: Rules,
        /// Time per move when a line gives no time_ms.
        #[arg(long, default_value_t = 1000, value_name = "MS")]
        time_ms: u64,
        /// The engine (default: the terminal's, with the game's book and endgame tables);
        /// a request's time_ms replaces its time.
        #[arg(long, value_name = "SPEC")]
        engine: Option<String>,
        /// Seed of the engine's choices among near-best book moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// The game whose rules the JSON lines' boards are read in (each board gives its size).
fn rules_game(rules: Rules) -> Result<EnglishCheckers, String> {
    EnglishCheckers::new(8, rules).map_err(|e| e.to_string())
}

/// The moves mode: every request's legal moves, until the end of stdin.
fn serve_moves(rules: Rules) -> Result<std::io::Result<()>, String> {
    let game = rules_game(rules)?;
    let (input, mut out) = (std::io::stdin().lock(), std::io::stdout().lock());
    Ok(jsonl::serve_moves(&game, ply_bundle::checkers_jsonl_codec(), input, &mut out))
}

/// The play mode's server: the engine `spec` (or the game's own) built through the game's
/// registration for each game, so that it plays with the book and the endgame tables of
/// the rules and board size it is asked about.
fn play_server(
    rules: Rules,
    time: Duration,
    spec: Option<String>,
    seed: u64,
) -> Result<PlayServer<EnglishCheckers>, String> {
    let entry = ply_bundle::english_checkers();
    let text = spec.unwrap_or_else(|| entry.info().engine.clone());
    let spec: AgentSpec = text.parse().map_err(|e| format!("--engine {text}: {e}"))?;
    let build = move |game: &EnglishCheckers| {
        let options = GameOptions {
            rules: Some(game.rules().to_string()),
            size: Some(game.size().to_string()),
            ..GameOptions::default()
        };
        entry.kit_for(game, &options).build(&spec, seed).map_err(ToolError::from)
    };
    let codec = ply_bundle::checkers_jsonl_codec();
    Ok(PlayServer::new(rules_game(rules)?, codec, time, Box::new(build)))
}

fn main() -> ExitCode {
    ply_tools::cli::end_quietly_on_closed_stdout();
    // --help shows the game options and agents that apply to this game.
    let command = ply_tools::cli::program_command(Cli::command(), &ply_bundle::english_checkers());
    let cli = Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|e| e.exit());
    let served = match cli.command {
        Some(Command::Serve(args)) => {
            return ply_tools::web::serve_entry(ply_bundle::english_checkers(), &args)
        }
        Some(Command::Solve(args)) => {
            return ply_tools::cli::solve_main(&ply_bundle::english_checkers(), &args)
        }
        Some(Command::Moves { rules }) => match serve_moves(rules) {
            Ok(served) => Some(served),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
        Some(Command::Play { rules, time_ms, engine, seed }) => {
            match play_server(rules, Duration::from_millis(time_ms), engine, seed) {
                Ok(server) => Some(server.serve(
                    std::io::BufReader::new(std::io::stdin()),
                    &mut std::io::stdout().lock(),
                )),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        None => None,
    };
    if let Some(result) = served {
        return match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: reading stdin: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let entry = ply_bundle::english_checkers();
    let mut game = match entry.build(&cli.options) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if cli.no_draw {
        game = game.with_draw_rules(DrawRules::NONE);
    }
    println!(
        "English checkers, {n}x{n}, {} rules{}",
        game.rules(),
        if cli.no_draw { ", no draw rules" } else { "" },
        n = game.size()
    );
    // The engine plays from the book of these rules (Deepomatic 8x8 has one) unless told
    // --no-book or given another with --book.
    let kit = entry.kit_for(&game, &cli.options);
    run_program(game, &cli.play, entry.info().play_defaults(), &kit)
}
