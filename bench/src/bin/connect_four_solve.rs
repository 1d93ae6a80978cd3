//! ply's exact solver against Pascal Pons' Connect Four solver: positions from random
//! openings of each length, solved by both (each keeping its table from one position to the
//! next, as Pons' program does over its input), the scores compared and the times set side
//! by side.
//!
//! ```text
//! SOLVER=$(../shared/peers/connect4/build.sh)
//! cargo run --release -p ply-bench --bin connect_four_solve -- --solver $SOLVER \
//!     --plies 8,12,16 --positions 100
//! ```
//!
//! Pons' score of a position is, for a win, the number of the winner's stones left unplayed
//! when the game ends (positive), the same negated for a loss, 0 for a draw; ply's value (a
//! win or a loss in so many plies) converts to it exactly. One markdown line per length.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply::games::ConnectFour;
use ply::solve::{Exact, SolveOptions, Solver};
use ply::{Game, MoveList};

/// ply's exact solver against Pons' solver on Connect Four positions.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Pons' solver (`c4solver`, built by ../shared/peers/connect4/build.sh).
    #[arg(long, value_name = "PATH")]
    solver: PathBuf,
    /// The lengths of the random openings, one set of positions each.
    #[arg(long, value_delimiter = ',', default_value = "8,12,16")]
    plies: Vec<usize>,
    /// Positions per length.
    #[arg(long, default_value_t = 100)]
    positions: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// ply's proving threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// ply's table, in MiB (Pons' table is 64 MiB).
    #[arg(long, default_value_t = 64)]
    memory: usize,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("connect_four_solve: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `count` distinct openings of `plies` random moves that leave the game going, as the
/// columns played (`4453`).
fn openings(count: usize, plies: usize, seed: u64) -> Vec<String> {
    let game = ConnectFour::standard();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ plies as u64);
    let mut seen = std::collections::HashSet::new();
    let mut moves = MoveList::new();
    let mut out = Vec::new();
    for _ in 0..count * 100 {
        if out.len() == count {
            break;
        }
        let mut state = game.initial_state();
        let mut text = String::new();
        for _ in 0..plies {
            if game.outcome(&state).is_some() {
                break;
            }
            game.generate_moves(&state, &mut moves);
            let mv = moves[rng.gen_range(0..moves.len())];
            text.push(char::from(b'1' + mv));
            game.apply(&mut state, mv);
        }
        if text.len() == plies && game.outcome(&state).is_none() && seen.insert(text.clone()) {
            out.push(text);
        }
    }
    out
}

/// Pons' scores of `positions`, and the time his program took for all of them.
fn pons(solver: &PathBuf, positions: &[String]) -> Result<(Vec<i32>, Duration), String> {
    let started = Instant::now();
    let mut child = Command::new(solver)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", solver.display()))?;
    let mut stdin = child.stdin.take().ok_or("the solver's input")?;
    let input = positions.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let stdout = child.stdout.take().ok_or("the solver's output")?;
    let mut scores = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let score = line.split_whitespace().nth(1).and_then(|s| s.parse().ok());
        scores.push(score.ok_or_else(|| format!("solver line {line:?}"))?);
    }
    writer.join().map_err(|_| "writer")?.map_err(|e| e.to_string())?;
    child.wait().map_err(|e| e.to_string())?;
    if scores.len() != positions.len() {
        return Err(format!("the solver answered {} of {}", scores.len(), positions.len()));
    }
    Ok((scores, started.elapsed()))
}

/// Pons' score of ply's value of a position with `stones` on the board.
fn pons_score(value: Exact, stones: usize) -> Option<i32> {
    let score = |d: u32| (44 - stones as i32 - d as i32) / 2;
    match value {
        Exact::Win(Some(d)) => Some(score(d)),
        Exact::Loss(Some(d)) => Some(-score(d)),
        Exact::Draw => Some(0),
        _ => None,
    }
}

fn run(args: &Args) -> Result<(), String> {
    let game = ConnectFour::standard();
    println!("| opening plies | positions | same score | Pons | ply ({} thread(s)) | ply / Pons | ply nodes |", args.threads);
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for &plies in &args.plies {
        let positions = openings(args.positions, plies, args.seed);
        let (expected, pons_time) = pons(&args.solver, &positions)?;
        eprintln!(
            "{plies} plies: Pons solved {} positions in {:.2} s",
            positions.len(),
            pons_time.as_secs_f64()
        );
        let options = SolveOptions {
            table_mib: args.memory,
            threads: args.threads,
            ..SolveOptions::default()
        };
        let mut solver = Solver::new(&game, options).map_err(|e| e.to_string())?;
        let (started, mut nodes, mut same) = (Instant::now(), 0, 0);
        for (i, (text, &score)) in positions.iter().zip(&expected).enumerate() {
            let mut state = game.initial_state();
            for c in text.bytes() {
                game.apply(&mut state, c - b'1');
            }
            let value = solver.value(&state, &|| false, &mut |_| {}).map_err(|e| e.to_string())?;
            nodes += solver.nodes();
            match pons_score(value, plies) == Some(score) {
                true => same += 1,
                false => eprintln!("{text}: ply {value}, Pons {score}"),
            }
            if (i + 1) % 20 == 0 {
                eprintln!(
                    "  ply: {} of {} in {:.2} s",
                    i + 1,
                    positions.len(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        let ply_time = started.elapsed();
        println!(
            "| {plies} | {} | {same} | {:.2} s | {:.2} s | {:.2} | {:.1} M |",
            positions.len(),
            pons_time.as_secs_f64(),
            ply_time.as_secs_f64(),
            ply_time.as_secs_f64() / pons_time.as_secs_f64().max(1e-9),
            nodes as f64 / 1e6
        );
    }
    Ok(())
}
