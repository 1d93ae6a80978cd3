//! The program layer: whole programs over a [`Registry`] (`perft`, `play`, `egdb`, `tune`,
//! `book`, the arena in [`arena`] and the exact-value judge in [`oracle`]), which parse the command line and dispatch to the
//! tools through the registry. Nothing below this layer imports it. A program's `main` is
//! one call:
//!
//! ```no_run
//! use ply::games::TicTacToe;
//! use ply_tools::registry::{GameEntry, Registry};
//!
//! fn main() -> std::process::ExitCode {
//!     let mut registry = Registry::new();
//!     registry.add(GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe)));
//!     ply_tools::cli::perft_main(&registry)
//! }
//! ```

pub mod arena;
pub mod oracle;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser};

use crate::agents::ToolGame;
use crate::book::BookCommand;
use crate::egdb::EgdbArgs;
use crate::options::{GameInfo, GameOptions};
use crate::perft::PerftArgs;
use crate::play::PlayArgs;
use crate::registry::{GameEntry, RegisteredGame, Registry};
use crate::solve::SolveArgs;
use crate::spec::accepted;
use crate::tune::TuneCommand;
use crate::web::ServeArgs;

/// Count the leaves of a game's move tree to each depth.
#[derive(Parser, Debug)]
#[command(version, name = "perft")]
struct PerftCli {
    /// The game (see the list below).
    game: String,
    #[command(flatten)]
    perft: PerftArgs,
    #[command(flatten)]
    options: GameOptions,
}

/// Play a game in the terminal against ply's engines, or watch engines play.
#[derive(Parser, Debug)]
#[command(
    version,
    name = "play",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct PlayCli {
    #[command(subcommand)]
    command: Option<PlayCommand>,
    /// The game (see the list below).
    #[arg(long, required = true)]
    game: Option<String>,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    options: GameOptions,
}

/// What `play` does instead of a terminal game.
#[derive(clap::Subcommand, Debug)]
enum PlayCommand {
    /// Solve a position exactly: its value under perfect play and the moves that keep it
    /// (one- and two-player games).
    Solve {
        /// The game (see the list below).
        #[arg(long = "game", id = "solve_game", value_name = "GAME")]
        game: String,
        #[command(flatten)]
        solve: Box<SolveArgs>,
    },
    /// Play in a browser: a local web server on 127.0.0.1 offering every game (the address
    /// is printed; Ctrl-C stops it).
    Serve {
        /// The game the page starts with, built with the options below (the others take
        /// their defaults).
        #[arg(long = "game", id = "first_game", value_name = "GAME")]
        game: Option<String>,
        #[command(flatten)]
        serve: Box<ServeArgs>,
    },
}

/// Build, list, probe and verify endgame databases of a registered game.
#[derive(Parser, Debug)]
#[command(version, name = "egdb")]
struct EgdbCli {
    /// The game (one with an endgame index; see the list below).
    #[arg(long)]
    game: String,
    #[command(flatten)]
    options: GameOptions,
    #[command(flatten)]
    egdb: EgdbArgs,
}

/// Tune an evaluation: generate training positions, then fit weights to them.
#[derive(Parser, Debug)]
#[command(version, name = "tune")]
struct TuneCli {
    /// The game (see the list below).
    #[arg(long)]
    game: String,
    #[command(flatten)]
    options: GameOptions,
    #[command(subcommand)]
    command: TuneCommand,
}

/// Build and read opening books (drop-out expansion over alpha-beta).
#[derive(Parser, Debug)]
#[command(version, name = "book")]
struct BookCli {
    /// The game (see the list below).
    #[arg(long)]
    game: String,
    #[command(flatten)]
    options: GameOptions,
    #[command(subcommand)]
    command: BookCommand,
}

/// A program's command line: its name, then its arguments.
type ArgList = Vec<OsString>;

/// Parses the command line `args` of `C` with `after_help` below its options.
fn parse<C: Parser + Args>(after_help: String, args: ArgList) -> C {
    let matches = C::command().after_help(after_help).get_matches_from(args);
    C::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// A tool's program over a registry, run on a command line.
type ToolMain = fn(&Registry, ArgList) -> ExitCode;

/// The tools [`tools_main`] offers: each one's name, what it does and its program.
const TOOLS: &[(&str, &str, ToolMain)] = &[
    (
        "play",
        "play in the terminal, watch engines play, `play solve`, `play serve` (web board)",
        play_with,
    ),
    ("arena", "tournaments between agents: Elo, SPRT, resume, shards", arena::main_with),
    ("perft", "count the leaves of the move tree to each depth", perft_with),
    (
        "tune",
        "self-play data, evaluation fitting and training, `tune zero` (learned search)",
        tune_with,
    ),
    ("oracle", "judge engines' moves by the exact values of the positions", oracle::main_with),
    ("book", "build and probe opening books", book_with),
    ("egdb", "endgame databases (games with an endgame index)", egdb_with),
];

/// Every tool of ply over the games of `registry`, in one program: `PROGRAM TOOL ARGS...`
/// runs `TOOL` (`play`, `arena`, `perft`, `tune`, `oracle`, `book`, `egdb`) as its own program
/// would with `ARGS`. A game that lives outside the bundle gets every tool from this one call
/// (`examples/hex/main.rs`):
///
/// ```no_run
/// use ply::games::TicTacToe;
/// use ply_tools::registry::{GameEntry, Registry};
///
/// fn main() -> std::process::ExitCode {
///     let mut registry = Registry::new();
///     registry.add(GameEntry::new("tictactoe", "tic-tac-toe", |_| Ok(TicTacToe)));
///     ply_tools::cli::tools_main(&registry) // e.g. `PROGRAM arena --game tictactoe ...`
/// }
/// ```
pub fn tools_main(registry: &Registry) -> ExitCode {
    end_quietly_on_closed_stdout();
    let mut args: ArgList = std::env::args_os().collect();
    let program = args.first().map_or("PROGRAM".into(), |p| {
        std::path::Path::new(p).file_name().unwrap_or(p).to_string_lossy().into_owned()
    });
    let usage = || {
        let tools: String =
            TOOLS.iter().map(|(name, what, _)| format!("  {name:<8} {what}\n")).collect();
        format!("Usage: {program} TOOL [ARGS]...  ({program} TOOL --help for each)\n\nTools:\n{tools}\n{}", registry.help())
    };
    let tool = args.get(1).map(|t| t.to_string_lossy().into_owned());
    let Some(tool) = tool else {
        eprintln!("error: a tool is needed\n\n{}", usage());
        return ExitCode::from(2);
    };
    if matches!(tool.as_str(), "-h" | "--help" | "help") {
        println!("{}", usage());
        return ExitCode::SUCCESS;
    }
    // The tool sees itself as `PROGRAM TOOL` in its usage and errors.
    args.splice(0..2, [OsString::from(format!("{program} {tool}"))]);
    match TOOLS.iter().find(|(name, ..)| *name == tool) {
        Some((_, _, main)) => main(registry, args),
        None => {
            eprintln!("error: no tool `{tool}`\n\n{}", usage());
            ExitCode::from(2)
        }
    }
}

/// Makes a closed standard output (`program | head`) end the program quietly with exit code
/// 0, as it ends `cat` or `grep`, instead of a panic (exit 101) from the first `println!`
/// after the reader went away. Every program of ply calls it first; the tools' own `main`s do.
///
/// Rust ignores `SIGPIPE`, so writing to a closed pipe is an error that `println!` turns
/// into a panic; this panic hook ends the process on that panic alone and leaves every other
/// panic to the hook before it.
pub fn end_quietly_on_closed_stdout() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if is_closed_stdout(message) {
            std::process::exit(0);
        }
        previous(info);
    }));
}

/// Whether a panic message is `println!`'s on a closed pipe.
fn is_closed_stdout(message: &str) -> bool {
    message.starts_with("failed printing to stdout")
        && (message.contains("Broken pipe") || message.contains("os error 32"))
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

/// Runs `work` on the game of `registry` called `name`: exit code 0, or the error on stderr
/// and exit code 1.
fn on_game(
    registry: &Registry,
    name: &str,
    work: impl FnOnce(&dyn RegisteredGame) -> crate::error::ToolResult<()>,
) -> ExitCode {
    match registry.get(name).map_err(crate::error::ToolError::from).and_then(work) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// The `egdb` program: `egdb --game GAME [game options] build|info|probe|verify ...` for any
/// game of `registry` that registers an endgame index.
pub fn egdb_main(registry: &Registry) -> ExitCode {
    end_quietly_on_closed_stdout();
    egdb_with(registry, std::env::args_os().collect())
}

/// [`egdb_main`] on the command line `args`.
fn egdb_with(registry: &Registry, args: ArgList) -> ExitCode {
    let cli: EgdbCli = parse(registry.help_where(|info| info.endgame_tables), args);
    on_game(registry, &cli.game, |game| game.egdb(&cli.options, &cli.egdb, &mut std::io::stdout()))
}

/// The `tune` program: `tune --game GAME [game options] generate|merge|fit|train ...` for any
/// game of `registry`.
pub fn tune_main(registry: &Registry) -> ExitCode {
    end_quietly_on_closed_stdout();
    tune_with(registry, std::env::args_os().collect())
}

/// [`tune_main`] on the command line `args`.
fn tune_with(registry: &Registry, args: ArgList) -> ExitCode {
    let cli: TuneCli = parse(registry.help(), args);
    on_game(registry, &cli.game, |game| game.tune(&cli.options, &cli.command))
}

/// The `book` program: `book --game GAME [game options] build|probe ...` for any game of
/// `registry`.
pub fn book_main(registry: &Registry) -> ExitCode {
    end_quietly_on_closed_stdout();
    book_with(registry, std::env::args_os().collect())
}

/// [`book_main`] on the command line `args`.
fn book_with(registry: &Registry, args: ArgList) -> ExitCode {
    let cli: BookCli = parse(registry.help(), args);
    on_game(registry, &cli.game, |game| game.book(&cli.options, &cli.command))
}

/// The `perft` program: `perft GAME DEPTH [--position P] [--divide] [--table FILE]
/// [--mode bulk|make] [game options]` for any game of `registry`.
pub fn perft_main(registry: &Registry) -> ExitCode {
    end_quietly_on_closed_stdout();
    perft_with(registry, std::env::args_os().collect())
}

/// [`perft_main`] on the command line `args`.
fn perft_with(registry: &Registry, args: ArgList) -> ExitCode {
    let cli: PerftCli = parse(registry.help(), args);
    on_game(registry, &cli.game, |game| game.perft(&cli.options, &cli.perft))
}

/// The `play` program: `play --game GAME [play options] [game options]` for any game of
/// `registry`, in the terminal or engine against engine.
pub fn play_main(registry: &Registry) -> ExitCode {
    end_quietly_on_closed_stdout();
    play_with(registry, std::env::args_os().collect())
}

/// [`play_main`] on the command line `args`.
fn play_with(registry: &Registry, args: ArgList) -> ExitCode {
    let help = format!("Agents:\n{}\n\n{}", accepted(), registry.help());
    let cli: PlayCli = parse(help, args);
    if let Some(PlayCommand::Solve { game, solve }) = &cli.command {
        return on_game(registry, game, |g| g.solve(solve));
    }
    if let Some(PlayCommand::Serve { game, serve }) = cli.command {
        let first = game.unwrap_or_else(|| registry.names()[0].to_string());
        if let Err(e) = registry.get(&first) {
            return fail(e);
        }
        return crate::web::serve_registry(registry.clone(), &first, &serve);
    }
    match registry.get(cli.game.as_deref().unwrap_or_default()) {
        Ok(game) => game.play(&cli.options, &cli.play),
        Err(e) => fail(e),
    }
}

/// Play one game in the terminal against ply's engines, or watch engines play.
#[derive(Parser, Debug)]
#[command(version, args_conflicts_with_subcommands = true)]
struct GameCli {
    #[command(subcommand)]
    command: Option<GameCommand>,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    options: GameOptions,
}

/// What a game's program does instead of a terminal game.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum GameCommand {
    /// Play in a browser: a local web server on 127.0.0.1 (its address, with the token every
    /// request needs, is printed; Ctrl-C stops it).
    Serve(Box<ServeArgs>),
    /// Solve a position exactly: its value under perfect play and the moves that keep it.
    Solve(Box<SolveArgs>),
}

/// `PROGRAM solve`: [`crate::solve`] on `entry`'s game; exit code 0, or the error on stderr
/// and 1.
pub fn solve_main<G: ToolGame>(entry: &GameEntry<G>, args: &SolveArgs) -> ExitCode
where
    G::State: Send + Sync,
{
    match entry.solve(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// `command` as one game's program shows it in `--help`: the game options the game takes
/// (the others hidden, also in `serve`), then the game's options help and the agents its kit
/// can build (external protocols the game speaks none of left out).
pub fn program_command<G: ToolGame>(command: clap::Command, entry: &GameEntry<G>) -> clap::Command {
    let info = entry.info();
    let agents = crate::spec::accepted_by(|a| match a {
        crate::spec::Algorithm::Engine(protocol) => entry.kit.speaks(protocol.name),
        _ => true,
    });
    let hide = |command: clap::Command| game_options_of(command, info);
    let command = hide(command);
    let command = ["serve", "solve"].into_iter().fold(command, |command, name| {
        let present = command.get_subcommands().any(|c| c.get_name() == name);
        match present {
            true => command.mut_subcommand(name, hide),
            false => command,
        }
    });
    command.after_help(format!("Game options: {}\n\nAgents:\n{agents}", info.options_help))
}

/// `command` with the game options `info`'s game does not take (`--rules`, `--size`,
/// `--players`, `--variant`) hidden from its help.
pub fn game_options_of(command: clap::Command, info: &GameInfo) -> clap::Command {
    let takes = |option: &str| {
        info.accepts
            .iter()
            .any(|a| a == option || (option == "variants" && a.starts_with("variant:")))
    };
    ["rules", "size", "players", "variants"].into_iter().fold(command, |c, id| {
        let present = c.get_arguments().any(|a| a.get_id() == id);
        match present {
            true => c.mut_arg(id, |a| a.hide(!takes(id))),
            false => c,
        }
    })
}

/// The terminal program of one game: its play options and game options, then
/// [`crate::play::run_program`] with the entry's defaults and agent kit.
pub fn game_main<G: ToolGame>(entry: &GameEntry<G>) -> ExitCode {
    end_quietly_on_closed_stdout();
    let info = entry.info();
    let command = GameCli::command().bin_name(info.name.clone()).about(info.summary.clone());
    let matches = program_command(command, entry).get_matches();
    let cli = GameCli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match &cli.command {
        Some(GameCommand::Serve(serve)) => return crate::web::serve_entry(entry.clone(), serve),
        Some(GameCommand::Solve(solve)) => return solve_main(entry, solve),
        None => {}
    }
    match entry.build(&cli.options) {
        Ok(game) => {
            let kit = entry.kit_for(&game, &cli.options);
            crate::play::run_program(game, &cli.play, info.play_defaults(), &kit)
        }
        Err(e) => fail(e),
    }
}
