//! Kalah(m,n), the mancala game with extra turns, in the terminal; `solve`, every program's
//! exact solver (`ply::solve`, with Kalah's store bound); and `solve-alphabeta`, which finds a
//! position's exact value (the final store difference under perfect play) with alpha-beta in
//! its exact endgame mode and the ruleset's own exact search.
//!
//! ```text
//! cargo run --release --example kalah
//! cargo run --release --example kalah -- --variant pits=4 --variant capture=standard
//! cargo run --release --example kalah -- --human none --engine alphabeta:time=200ms --engine mcts:time=200ms
//! cargo run --release --example kalah -- solve --variant seeds=3
//! cargo run --release --example kalah -- solve-alphabeta --position "1,0,0,1,2,5/20/1,0,0,0,1,1/16 s"
//! cargo build --release --example kalah && target/release/examples/kalah solve-alphabeta   # Kalah(6,4)
//! ```
//!
//! `solve-alphabeta` builds a seed table (`--table-seeds`, exact values of the positions with
//! few seeds in the houses), then runs alpha-beta with margin scores (`AlphaBetaOptions::endgame()`)
//! from the position (the start by default). Below the search, Kalah's `solve_endgame`
//! answers every position with at most `--exact-seeds` seeds in the houses by its own
//! cached exact search. It prints one line per completed iteration of iterative deepening
//! (depth, value, nodes, time, principal variation), then the value for the side to move
//! and for South, the best move, the nodes and the time. The search stops as soon as an
//! iteration needs no heuristic evaluation: its value is then exact. `--bare` leaves the
//! search without any of Kalah's help.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::{CommandFactory, FromArgMatches, Parser};
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions, InfoCallback, IterationInfo};
use ply::search::{Agent, Budget, Position, Value};
use ply::{Game, Notation, Player};
use ply_kalah::{Move, SeedTable, SolverCache};
use ply_tools::registry::GameOptions;

/// Solve a Kalah position exactly: alpha-beta with margin scores searched to the end.
#[derive(Parser, Debug)]
#[command(version, name = "kalah solve-alphabeta")]
struct SolveCli {
    /// The rules: --variant pits=M, seeds=N, capture=empty|standard|none.
    #[command(flatten)]
    options: GameOptions,
    /// The position, in the game's notation (default: the start).
    #[arg(long)]
    position: Option<String>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 1024)]
    tt: usize,
    /// Search threads (Lazy SMP).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The deepest iteration.
    #[arg(long, default_value_t = 250)]
    depth: u32,
    /// Positions with at most this many seeds in the houses are solved by Kalah's own exact
    /// search, called by alpha-beta through `Game::solve_endgame` (0: the bound alone).
    #[arg(long, default_value_t = 40)]
    exact_seeds: u32,
    /// The MiB of the cache of Kalah's exact search (0: none).
    #[arg(long, default_value_t = 1024)]
    cache: usize,
    /// Build a seed table first: the exact margin of every position with at most this many
    /// seeds in the houses (0: none; for 6 houses 16 seeds take 30 MB and seconds, 20 seeds
    /// 226 MB and a minute).
    #[arg(long, default_value_t = 16)]
    table_seeds: u32,
    /// Threads that build the seed table.
    #[arg(long, default_value_t = 2)]
    table_threads: usize,
    /// Fastest-first move ordering (the endgame mode's default).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    fastest_first: bool,
    /// The half-width of the first aspiration window, in seeds.
    #[arg(long, default_value_t = AlphaBetaOptions::endgame().aspiration_window)]
    window: f64,
    /// No endgame help at all from the game (no bound, no exact search, no table): the
    /// generic search alone.
    #[arg(long)]
    bare: bool,
}

fn main() -> ExitCode {
    ply_tools::cli::end_quietly_on_closed_stdout();
    let entry = ply_bundle::kalah();
    let solve_command = || ply_tools::cli::game_options_of(SolveCli::command(), entry.info());
    if std::env::args().nth(1).as_deref() == Some("solve-alphabeta") {
        let matches = solve_command().get_matches_from(std::env::args().skip(1));
        let cli = SolveCli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
        return match solve(&cli) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let solve = solve_command().name("solve-alphabeta");
    ply_tools::cli::game_main_with(&entry, vec![solve])
}

/// A margin as text: `+10`, `-2`, `0`.
fn signed(v: i32) -> String {
    if v == 0 {
        "0".to_string()
    } else {
        format!("{v:+}")
    }
}

fn solve(cli: &SolveCli) -> Result<(), String> {
    let entry = ply_bundle::kalah();
    let mut game = entry.build(&cli.options).map_err(|e| e.to_string())?;
    game = game.with_exact_seeds((!cli.bare).then_some(cli.exact_seeds));
    let state = match &cli.position {
        Some(text) => game.parse_state(text).map_err(|e| e.to_string())?,
        None => game.initial_state(),
    };
    if game.outcome(&state).is_some() {
        return Err("the game is over in that position".into());
    }
    println!(
        "Kalah({},{}), capture={}, {} to move: {}",
        game.pits(),
        game.seeds(),
        game.capture(),
        if game.to_move(&state) == Player::FIRST { "South" } else { "North" },
        game.format_state(&state)
    );
    if cli.table_seeds > 0 && !cli.bare {
        let began = Instant::now();
        let mut report = |k: u32, entries: u64| {
            if k.is_multiple_of(4) || k == cli.table_seeds {
                let s = began.elapsed().as_secs_f64();
                println!("seed table: {k:>3} seeds, {entries:>12} entries, {s:>8.2}s");
            }
        };
        let table = SeedTable::build_with(&game, cli.table_seeds, cli.table_threads, &mut report)
            .map_err(|e| e.to_string())?;
        game = game.with_table(Arc::new(table)).map_err(|e| e.to_string())?;
    }
    if cli.cache > 0 && !cli.bare {
        game = game.with_cache(Arc::new(SolverCache::with_mib(cli.cache)));
    }
    if cli.bare {
        println!(
            "alphabeta endgame mode, tt {} MiB, {} thread(s), no endgame solver",
            cli.tt, cli.threads
        );
    } else {
        println!(
            "alphabeta endgame mode, tt {} MiB, {} thread(s), exact solver at <= {} seeds \
             (cache {} MiB), seed table at <= {} seeds",
            cli.tt, cli.threads, cli.exact_seeds, cli.cache, cli.table_seeds
        );
    }
    let progress: InfoCallback<Move> = Box::new(move |info: &IterationInfo<'_, Move>| {
        let pv: Vec<String> = info.pv.iter().take(16).map(|m| m.number().to_string()).collect();
        println!(
            "depth {:>3}  value {:>8}  nodes {:>14}  time {:>9.2}s  {:>6.2} Mn/s  pv {}",
            info.depth,
            info.value.to_string(),
            info.nodes,
            info.elapsed.as_secs_f64(),
            info.nps() / 1e6,
            pv.join(" ")
        );
    });
    let options = AlphaBetaOptions {
        tt_mb: cli.tt,
        threads: cli.threads,
        fastest_first: cli.fastest_first,
        aspiration_window: cli.window,
        ..AlphaBetaOptions::endgame()
    };
    let mut engine = AlphaBeta::with_options(options).with_info(progress);
    let began = Instant::now();
    let report = engine
        .choose(&game, Position::new(&state), &Budget::depth(cli.depth))
        .map_err(|e| e.to_string())?;
    let seconds = began.elapsed().as_secs_f64();
    let solved = report.depth < cli.depth;
    let value = match report.value {
        Value::Heuristic(v) => Some(v.round() as i32),
        Value::Draw => Some(0),
        _ => None,
    };
    let status = if solved { "exact" } else { "NOT SOLVED (depth limit reached)" };
    match value {
        Some(v) => {
            let south = if game.to_move(&state) == Player::FIRST { v } else { -v };
            println!(
                "value {} for the side to move ({status}); South {}",
                signed(v),
                signed(south)
            );
        }
        None => println!("value {} ({status})", report.value),
    }
    println!(
        "best move {}  nodes {}  time {:.2}s  ({:.2} M nodes/s)",
        report.best_move.number(),
        report.nodes,
        seconds,
        report.nodes as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}
