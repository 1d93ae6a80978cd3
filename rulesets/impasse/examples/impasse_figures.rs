//! Release-mode figures for the Impasse ruleset: perft speed, search speed in the CodinGame
//! turn budget, engine-vs-engine matches, and evaluation-weight matches.
//!
//! ```text
//! cargo run --release -p ply-impasse --example impasse_figures -- perft 6
//! cargo run --release -p ply-impasse --example impasse_figures -- speed 100
//! cargo run --release -p ply-impasse --example impasse_figures -- match 4 50
//! cargo run --release -p ply-impasse --example impasse_figures -- weights 20 30 mobility=0
//! ```

use std::process::ExitCode;
use std::time::{Duration, Instant};

use ply::search::alphabeta::AlphaBeta;
use ply::search::baseline::{Greedy, RandomAgent};
use ply::search::mcts::Mcts;
use ply::search::{Agent, Budget, Position};
use ply::{perft, Game, MoveList, Outcome, PerftMode, Player};
use ply_impasse::{Impasse, ImpasseState, Weights};

const USAGE: &str = "usage: impasse_figures perft <depth>
       impasse_figures speed <ms>
       impasse_figures match <games per pairing> <ms per move>
       impasse_figures weights <games> <ms per move> <name=value>...";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize| -> Option<u64> { args.get(i)?.parse().ok() };
    let result = match args.first().map(String::as_str) {
        Some("perft") => num(1).map(|d| run_perft(d as u32)),
        Some("speed") => num(1).map(run_speed),
        Some("match") => num(1).zip(num(2)).map(|(g, ms)| run_match(g, ms)),
        Some("weights") => num(1).zip(num(2)).map(|(g, ms)| run_weights(g, ms, &args[3..])),
        _ => None,
    };
    match result {
        Some(Ok(())) => ExitCode::SUCCESS,
        Some(Err(e)) => {
            eprintln!("impasse_figures: {e}");
            ExitCode::FAILURE
        }
        None => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run_perft(depth: u32) -> Result<(), String> {
    let game = Impasse::new();
    let start = game.initial_state();
    for d in 1..=depth {
        for mode in [PerftMode::Bulk, PerftMode::MakeAll] {
            let t = Instant::now();
            let n = perft(&game, &start, d, mode);
            let s = t.elapsed().as_secs_f64();
            println!(
                "perft {d} {:<8} {n:>12} leaves {:>8.3} s {:>8.1} M leaves/s",
                format!("{mode:?}"),
                s,
                n as f64 / s.max(1e-9) / 1e6
            );
        }
    }
    Ok(())
}

fn run_speed(ms: u64) -> Result<(), String> {
    let game = Impasse::new();
    let start = game.initial_state();
    let budget = Budget::time(Duration::from_millis(ms));
    for (name, mut agent) in [
        ("alphabeta", Box::new(AlphaBeta::new().with_tt_mb(32)) as Box<dyn Agent<Impasse>>),
        ("mcts", Box::new(Mcts::new().with_seed(1))),
    ] {
        let r = agent.choose(&game, Position::new(&start), &budget).map_err(|e| e.to_string())?;
        println!(
            "{name}: {ms} ms from the start: best {} depth {} seldepth {} nodes {} iterations {} in {} ms",
            r.best_move,
            r.depth,
            r.seldepth,
            r.nodes,
            r.iterations,
            r.elapsed.as_millis()
        );
    }
    Ok(())
}

/// A few random plies from the start, so that games differ.
fn opening(game: &Impasse, seed: u64) -> ImpasseState {
    let mut s = game.initial_state();
    let mut moves = MoveList::new();
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for _ in 0..2 {
        game.generate_moves(&s, &mut moves);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        game.apply(&mut s, moves[(x % moves.len() as u64) as usize]);
    }
    s
}

/// Plays one game; seat 0 is White. Each seat searches with its own rules object (the rules
/// are the same, the evaluation weights may differ).
fn play(
    games: [&Impasse; 2],
    agents: &mut [Box<dyn Agent<Impasse>>; 2],
    start: ImpasseState,
    budget: &Budget,
) -> Result<Outcome, String> {
    let mut s = start;
    loop {
        if let Some(o) = games[0].outcome(&s) {
            return Ok(o);
        }
        let p = s.side_to_move().index();
        let r = agents[p].choose(games[p], Position::new(&s), budget).map_err(|e| e.to_string())?;
        games[0].apply(&mut s, r.best_move);
    }
}

/// Plays `n` game pairs (each opening with both colours) and returns (wins, draws, losses)
/// of agent `a`.
fn pairing(
    games: [&Impasse; 2],
    make: &dyn Fn(usize, u64) -> Box<dyn Agent<Impasse>>,
    n: u64,
    budget: &Budget,
) -> Result<(u64, u64, u64), String> {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for i in 0..n {
        let start = opening(games[0], i + 1);
        for a_seat in 0..2 {
            let seats = if a_seat == 0 { [0, 1] } else { [1, 0] };
            let mut agents = [make(seats[0], i), make(seats[1], i)];
            let g = [games[seats[0]], games[seats[1]]];
            match play(g, &mut agents, start, budget)? {
                Outcome::Winner(p) if p == Player::new(a_seat) => w += 1,
                Outcome::Winner(_) => l += 1,
                _ => d += 1,
            }
        }
    }
    Ok((w, d, l))
}

fn run_match(n: u64, ms: u64) -> Result<(), String> {
    let game = Impasse::new();
    let budget = Budget::time(Duration::from_millis(ms));
    let names = ["alphabeta", "mcts", "greedy", "random"];
    let make_agent = |k: usize, seed: u64| -> Box<dyn Agent<Impasse>> {
        match k {
            0 => Box::new(AlphaBeta::new().with_tt_mb(16)),
            1 => Box::new(Mcts::new().with_seed(seed)),
            2 => Box::new(Greedy::with_seed(seed)),
            _ => Box::new(RandomAgent::new(seed)),
        }
    };
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            let make = |seat: usize, seed: u64| make_agent(if seat == 0 { a } else { b }, seed);
            let (w, d, l) = pairing([&game, &game], &make, n, &budget)?;
            println!(
                "{} vs {}: +{w} ={d} -{l} ({} games, {ms} ms/move)",
                names[a],
                names[b],
                2 * n
            );
        }
    }
    Ok(())
}

fn run_weights(n: u64, ms: u64, changes: &[String]) -> Result<(), String> {
    let mut w = Weights::default();
    for c in changes {
        let (k, v) = c.split_once('=').ok_or_else(|| format!("{c:?} is not name=value"))?;
        let v: i32 = v.parse().map_err(|_| format!("{v:?} is not a number"))?;
        let field = match k {
            "removed" => &mut w.removed,
            "single_distance" => &mut w.single_distance,
            "double_distance" => &mut w.double_distance,
            "doubles" => &mut w.doubles,
            "mobility" => &mut w.mobility,
            "bear_off_ready" => &mut w.bear_off_ready,
            "crown_ready" => &mut w.crown_ready,
            "impasse" => &mut w.impasse,
            "tempo" => &mut w.tempo,
            _ => return Err(format!("unknown weight {k:?}")),
        };
        *field = v;
    }
    let (test, base) = (Impasse::with_weights(w.clone()), Impasse::new());
    let budget = Budget::time(Duration::from_millis(ms));
    let make =
        |_: usize, _: u64| -> Box<dyn Agent<Impasse>> { Box::new(AlphaBeta::new().with_tt_mb(16)) };
    let (wi, d, l) = pairing([&test, &base], &make, n, &budget)?;
    println!("{w:?} vs default: +{wi} ={d} -{l} ({} games, {ms} ms/move)", 2 * n);
    Ok(())
}
