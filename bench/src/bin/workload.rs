//! One fixed workload, run once, for counting its instructions under valgrind's cachegrind:
//! on a shared machine timings move by 10-20% between runs, instruction counts do not.
//!
//! ```text
//! cargo build --release -p ply-bench --bin workload
//! valgrind --tool=cachegrind --cache-sim=no target/release/workload perft checkers generic 8
//! target/release/workload search impasse learned 7
//! ```
//!
//! `perft GAME PATH DEPTH` counts the leaves below the start position: `PATH` is `fast` (the
//! ruleset's specialised perft) or `generic` (`ply::perft` through the `Game` trait, bulk
//! counting). Games: `checkers` (8x8, Deepomatic rules), `draughts`, `othello`.
//!
//! `search GAME EVAL DEPTH` runs one alpha-beta search (default options, 16 MiB table) from
//! the start position: `EVAL` is `game` (the game's own `Game::evaluate`) or `learned` (the
//! ruleset's `LinearEval` of its features; Othello's reads its 108,227 weights first, which is
//! part of the count), or for checkers and draughts `net` (the neural evaluations,
//! `CheckersNet` and `DraughtsNet`). Games: `checkers` (8x8, standard rules), `draughts`, `othello`, `impasse`.
//!
//! Valgrind does not run AVX-512 code: build with `RUSTFLAGS="-C target-cpu=x86-64-v3"` (into
//! another `CARGO_TARGET_DIR`) on a machine where `.cargo/config.toml`'s native target has it.

use std::process::ExitCode;
use std::time::Instant;

use ply::eval::{Evaluator, GameEval};
use ply::search::alphabeta::AlphaBeta;
use ply::search::{Agent, Budget, Position};
use ply::{perft, Game, PerftMode};
use ply_checkers::{EnglishCheckers, Rules};
use ply_draughts::InternationalDraughts;
use ply_impasse::Impasse;
use ply_reversi::Reversi;

const USAGE: &str =
    "usage: workload perft <checkers|draughts|othello> <fast|generic> <depth>\n       \
                     workload search <checkers|draughts|othello|impasse> <game|learned|net> <depth>";

/// Nodes of one default alpha-beta search to `depth` from the start, leaves scored by `eval`.
fn search<G: Game, E: Evaluator<G>>(game: &G, eval: E, depth: u32) -> Result<u64, String> {
    let mut agent = AlphaBeta::new().with_tt_mb(16).with_evaluator(eval);
    let start = game.initial_state();
    let result = agent
        .choose(game, Position::new(&start), &Budget::depth(depth))
        .map_err(|e| format!("search failed: {e}"))?;
    Ok(result.nodes)
}

/// Runs the workload the arguments name: the leaf or node count.
fn run(args: &[String]) -> Result<u64, String> {
    let [kind, game, which, depth] = args else {
        return Err(USAGE.to_string());
    };
    let depth: u32 = depth.parse().map_err(|_| format!("bad depth {depth:?}\n{USAGE}"))?;
    let bad = || format!("unknown workload {kind} {game} {which}\n{USAGE}");
    let checkers = |rules| EnglishCheckers::new(8, rules).map_err(|e| e.to_string());
    let othello = || Reversi::new(8, 2).map_err(|e| e.to_string());
    match (kind.as_str(), game.as_str(), which.as_str()) {
        ("perft", "checkers", "fast") => {
            let g = checkers(Rules::Deepomatic)?;
            Ok(ply_checkers::perft::perft_fast(&g, &g.initial_state(), depth))
        }
        ("perft", "draughts", "fast") => {
            Ok(ply_draughts::perft_fast(&InternationalDraughts::default().initial_state(), depth))
        }
        ("perft", "othello", "fast") => {
            let g = othello()?;
            Ok(ply_reversi::perft_fast(&g, &g.initial_state(), depth))
        }
        ("perft", "checkers", "generic") => {
            let g = checkers(Rules::Deepomatic)?;
            Ok(perft(&g, &g.initial_state(), depth, PerftMode::Bulk))
        }
        ("perft", "draughts", "generic") => {
            let g = InternationalDraughts::default();
            Ok(perft(&g, &g.initial_state(), depth, PerftMode::Bulk))
        }
        ("perft", "othello", "generic") => {
            let g = othello()?;
            Ok(perft(&g, &g.initial_state(), depth, PerftMode::Bulk))
        }
        ("search", "checkers", "game") => search(&checkers(Rules::Standard)?, GameEval, depth),
        ("search", "checkers", "learned") => {
            search(&checkers(Rules::Standard)?, ply_checkers::learned(), depth)
        }
        ("search", "checkers", "net") => {
            search(&checkers(Rules::Standard)?, ply_checkers::net::CheckersNet::default(), depth)
        }
        ("search", "draughts", "game") => {
            search(&InternationalDraughts::default(), GameEval, depth)
        }
        ("search", "draughts", "learned") => {
            search(&InternationalDraughts::default(), ply_draughts::learned(), depth)
        }
        ("search", "draughts", "net") => search(
            &InternationalDraughts::default(),
            ply_draughts::net::DraughtsNet::default(),
            depth,
        ),
        ("search", "othello", "game") => search(&othello()?, GameEval, depth),
        ("search", "othello", "learned") => search(&othello()?, ply_reversi::learned(), depth),
        ("search", "impasse", "game") => search(&Impasse::new(), GameEval, depth),
        ("search", "impasse", "learned") => search(&Impasse::new(), ply_impasse::learned(), depth),
        _ => Err(bad()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let start = Instant::now();
    match run(&args) {
        Ok(count) => {
            println!("{count} in {:.3} s", start.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("workload: {e}");
            ExitCode::from(2)
        }
    }
}
