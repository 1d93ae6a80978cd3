//! Exact Othello endgames: ply's alpha-beta in its endgame mode (margin scores, fastest-first
//! ordering, the bitboard solver for the last empties) solving positions to the end, one
//! thread, with the time and nodes of each; for comparison with Edax's `-solve`.
//!
//! ```text
//! cargo run --release -p ply-bench --bin othello_endgame -- [--empties N] [--count N]
//!     [--seed N] [--obf FILE] [--solve FILE] [--solver-empties N] [--prover]
//! ```
//!
//! `--prover` solves with the generic exact solver instead (`ply::solve`, as `reversi solve`
//! does: null-window tests stepped on the margin, 64 MiB table, one thread), giving the value
//! without a move.
//!
//! By default it solves `--count` (20) positions with `--empties` (14) empty squares, each
//! reached by seeded random play from the start (`--seed`, 1). `--obf FILE` also writes them
//! in Edax's problem format (`run-edax -solve FILE -n 1` solves the same positions);
//! `--solve FILE` solves the positions of such a file instead (for example Edax's
//! `problem/fforum-40-59.obf`). Values are the final disc difference for the side to move
//! with empty squares counted for nobody (Edax gives them to the winner, which differs only
//! when a game ends with empty squares). `--solver-empties N` hands positions with at most `N`
//! empty squares to the bitboard solver (default [`Reversi::ENDGAME_EMPTIES`]).

use std::time::Instant;

use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::{Agent, Budget, Position, Value};
use ply::solve::{SolveOptions, Solver};
use ply::{Game, MoveList, Notation};
use ply_reversi::{Reversi, ReversiState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A position with `empties` empty squares and a move to play, by seeded random play.
fn random_position(game: &Reversi, empties: u32, rng: &mut ChaCha8Rng) -> ReversiState {
    let mut moves = MoveList::new();
    loop {
        let mut state = game.initial_state();
        while state.empties() > empties && game.outcome(&state).is_none() {
            game.generate_moves(&state, &mut moves);
            let mv = moves[rng.gen_range(0..moves.len() as u32) as usize];
            game.apply(&mut state, mv);
        }
        game.generate_moves(&state, &mut moves);
        let placement = moves.iter().any(|m| m.square().is_some());
        if state.empties() == empties && game.outcome(&state).is_none() && placement {
            return state;
        }
    }
}

/// The position in Edax's problem format: 64 squares from a1 row by row (`X` black, `O`
/// white, `-` empty), then the side to move.
fn to_obf(game: &Reversi, state: &ReversiState) -> String {
    let text = game.format_state(state);
    let (rows, side) = text.split_once(' ').expect("rows, then the side to move");
    let board: String = rows
        .chars()
        .filter(|&c| c != '/')
        .map(|c| match c {
            '1' => 'X',
            '2' => 'O',
            _ => '-',
        })
        .collect();
    format!("{board} {};", if side == "1" { "X" } else { "O" })
}

/// A position of an Edax problem line (`board side;...`).
fn from_obf(game: &Reversi, line: &str) -> Result<ReversiState, String> {
    let mut parts = line.split_whitespace();
    let board = parts.next().ok_or("an empty line")?;
    let side = parts.next().ok_or("no side to move")?.trim_end_matches(';');
    if board.len() != 64 {
        return Err(format!("{board:?} is not 64 squares"));
    }
    let squares: Vec<char> = board
        .chars()
        .map(|c| match c {
            'X' | 'x' | '*' => Ok('1'),
            'O' | 'o' => Ok('2'),
            '-' | '.' => Ok('.'),
            other => Err(format!("{other:?} is not a square")),
        })
        .collect::<Result<_, _>>()?;
    let rows: Vec<String> = squares.chunks(8).map(|r| r.iter().collect()).collect();
    let player = match side {
        "X" | "x" | "*" => "1",
        "O" | "o" => "2",
        other => return Err(format!("{other:?} is not a side to move")),
    };
    game.parse_state(&format!("{} {player}", rows.join("/"))).map_err(|e| e.to_string())
}

fn main() {
    let mut empties = 14u32;
    let mut count = 20usize;
    let mut seed = 1u64;
    let mut obf: Option<String> = None;
    let mut solve: Option<String> = None;
    let mut solver_empties = Reversi::ENDGAME_EMPTIES;
    let mut prover = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| fail(&format!("{a} needs a value")));
        match a.as_str() {
            "--empties" => empties = value().parse().unwrap_or_else(|_| fail("--empties N")),
            "--count" => count = value().parse().unwrap_or_else(|_| fail("--count N")),
            "--seed" => seed = value().parse().unwrap_or_else(|_| fail("--seed N")),
            "--obf" => obf = Some(value()),
            "--solve" => solve = Some(value()),
            "--solver-empties" => {
                solver_empties = value().parse().unwrap_or_else(|_| fail("--solver-empties N"))
            }
            "--prover" => prover = true,
            "--bench" => {}
            other => fail(&format!("unknown argument {other:?}")),
        }
    }
    let game = Reversi::new(8, 2).expect("8x8").with_endgame_empties(solver_empties);
    let positions: Vec<ReversiState> = match &solve {
        Some(file) => {
            let bytes = ply::files::read_limited(std::path::Path::new(file), 1 << 28)
                .unwrap_or_else(|e| fail(&e.to_string()));
            let text = String::from_utf8(bytes)
                .unwrap_or_else(|_| fail(&format!("{file} is not UTF-8 text")));
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .enumerate()
                .map(|(i, l)| {
                    from_obf(&game, l).unwrap_or_else(|e| fail(&format!("{file}:{}: {e}", i + 1)))
                })
                .collect()
        }
        None => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..count).map(|_| random_position(&game, empties, &mut rng)).collect()
        }
    };
    if let Some(file) = &obf {
        let lines: Vec<String> = positions.iter().map(|s| to_obf(&game, s)).collect();
        std::fs::write(file, lines.join("\n") + "\n")
            .unwrap_or_else(|e| fail(&format!("{file}: {e}")));
    }
    println!(
        "{:>3} {:>7} {:>6} {:>5} {:>12} {:>10}",
        "#", "empties", "value", "move", "nodes", "time"
    );
    let (mut total_nodes, mut total_time) = (0u64, 0.0f64);
    let options = SolveOptions { table_mib: 64, threads: 1, ..SolveOptions::default() };
    let bounded = game.clone().with_margin_bounds(true);
    let mut exact = Solver::new(&bounded, options).unwrap_or_else(|e| fail(&e.to_string()));
    for (i, state) in positions.iter().enumerate() {
        if prover {
            let start = Instant::now();
            let value = exact
                .value(state, &|| false, &mut |step| {
                    eprintln!(
                        "  test {}: {:?}..{:?}, {} nodes",
                        step.tests, step.lower, step.upper, step.nodes
                    )
                })
                .unwrap_or_else(|e| fail(&format!("position {}: {e}", i + 1)));
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{:>3} {:>7} {:>6} {:>5} {:>12} {:>8.1}ms",
                i + 1,
                state.empties(),
                value.to_string(),
                "-",
                exact.nodes(),
                secs * 1000.0
            );
            total_nodes += exact.nodes();
            total_time += secs;
            continue;
        }
        let mut engine = AlphaBeta::with_options(AlphaBetaOptions::endgame());
        Agent::<Reversi>::new_game(&mut engine);
        let start = Instant::now();
        let report = engine
            .choose(&game, Position::new(state), &Budget::depth(state.empties() + 2))
            .unwrap_or_else(|e| fail(&format!("position {}: {e}", i + 1)));
        let secs = start.elapsed().as_secs_f64();
        let value = match report.value {
            Value::Heuristic(v) => format!("{v:+}"),
            other => other.to_string(),
        };
        println!(
            "{:>3} {:>7} {value:>6} {:>5} {:>12} {:>8.1}ms",
            i + 1,
            state.empties(),
            game.format_move(state, report.best_move),
            report.nodes,
            secs * 1000.0
        );
        total_nodes += report.nodes;
        total_time += secs;
    }
    let n = positions.len().max(1) as f64;
    println!(
        "mean: {:.0} nodes, {:.1} ms per position ({:.2} Mnodes/s)",
        total_nodes as f64 / n,
        total_time * 1000.0 / n,
        total_nodes as f64 / total_time.max(1e-9) / 1e6
    );
}

/// Prints `message` and exits with status 2.
fn fail(message: &str) -> ! {
    eprintln!("othello_endgame: {message}");
    std::process::exit(2)
}
