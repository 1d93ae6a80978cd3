//! Node counts of two-player alpha-beta (default options, fixed depth) from fixed positions:
//! the start position and positions 10 and 20 seeded random plies in, on English checkers,
//! international draughts, Othello and Connect Four. Used to compare move-ordering changes:
//! the node count of a fixed-depth search depends only on the ordering, not on the machine.
//!
//! ```text
//! cargo run --release -p ply-bench --bin search_nodes [game ...] [--depth-delta N] [--ablate]
//!     [--only VARIANT] [--threads N]
//! ```
//!
//! Games: `checkers`, `draughts`, `othello`, `connect4` (all by default). `--depth-delta`
//! adds `N` (may be negative) to every game's depth. `--ablate` measures the default search
//! and then the search with each enhancement switched the other way in turn (PVS, aspiration
//! windows, the transposition table, killers, history, internal iterative deepening, late-move
//! reductions, null-move pruning, extensions), one total per game and variant: what each
//! enhancement saves to a fixed depth (or, for the selective ones, costs in nodes). `--only`
//! measures the default and the one variant whose name starts with `VARIANT` (`lmr`, `iid`...). `--threads N` searches with `N` threads (Lazy SMP):
//! compare the times with those of one thread for the parallel speed-up to a fixed depth.

use std::process::ExitCode;
use std::time::Instant;

use ply::games::ConnectFour;
use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
use ply::search::{Agent, Budget, Position, Value};
use ply::{Game, MoveList};
use ply_checkers::{EnglishCheckers, Rules};
use ply_draughts::InternationalDraughts;
use ply_reversi::Reversi;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plies of random play before each measured position (0 is the start position).
const PLIES: [u32; 3] = [0, 10, 20];

/// The position `plies` seeded random plies into the game; a line that ends the game early is
/// replayed with the next seed, and so is one that is [`decided`].
fn random_position<G: Game>(game: &G, plies: u32, seed: u64) -> G::State {
    let mut moves = MoveList::new();
    for attempt in 0.. {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + attempt * 1000);
        let mut state = game.initial_state();
        let mut ok = true;
        for _ in 0..plies {
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                ok = false;
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len() as u32) as usize];
            game.apply(&mut state, mv);
        }
        game.generate_moves(&state, &mut moves);
        if ok && moves.len() >= 2 && !decided(game, &state) {
            return state;
        }
    }
    unreachable!("some line reaches a position with two moves")
}

/// True if plain alpha-beta (no move ordering, so the same before and after an ordering
/// change) proves a result within 5 plies: such a position makes a trivial measurement.
fn decided<G: Game>(game: &G, state: &G::State) -> bool {
    let mut plain = AlphaBeta::with_options(AlphaBetaOptions::plain());
    let report = plain.choose(game, Position::new(state), &Budget::depth(5)).expect("moves");
    matches!(report.value, Value::Win(_) | Value::Loss(_))
}

/// Searches each position of `game` to `depth`; prints one row per position and returns the
/// total node count.
fn measure<G: Game>(name: &str, game: &G, depth: u32, options: &AlphaBetaOptions) -> u64 {
    let mut total = 0;
    let mut time = 0.0;
    for (i, &plies) in PLIES.iter().enumerate() {
        let state = random_position(game, plies, 0x5eed + i as u64);
        let mut engine = AlphaBeta::with_options(options.clone());
        let start = Instant::now();
        let report = engine
            .choose(game, Position::new(&state), &Budget::depth(depth))
            .expect("the position has moves");
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name:<10} {:<8} {depth:>5} {:>12} {secs:>8.3}s  {:?} {}",
            format!("ply {plies}"),
            report.nodes,
            report.best_move,
            report.value
        );
        total += report.nodes;
        time += secs;
    }
    println!("{name:<10} {:<8} {depth:>5} {total:>12} {time:>8.3}s", "total");
    total
}

/// A switch of [`AlphaBetaOptions`], by name.
type Switch = (&'static str, fn(&mut AlphaBetaOptions) -> &mut bool);

/// The default search and, with `ablate`, the default with each enhancement switched the
/// other way in turn (off where the default has it on, on where it has it off).
fn variants(ablate: bool) -> Vec<(String, AlphaBetaOptions)> {
    let d = AlphaBetaOptions::default();
    let mut v = vec![("default".to_string(), d.clone())];
    if ablate {
        let flips: [Switch; 9] = [
            ("pvs", |o| &mut o.pvs),
            ("aspiration", |o| &mut o.aspiration),
            ("tt", |o| &mut o.tt),
            ("killers", |o| &mut o.killers),
            ("history", |o| &mut o.history),
            ("iid", |o| &mut o.iid),
            ("lmr", |o| &mut o.lmr),
            ("null-move", |o| &mut o.null_move),
            ("extensions", |o| &mut o.extensions),
        ];
        for (name, flag) in flips {
            let mut o = d.clone();
            let f = flag(&mut o);
            *f = !*f;
            let label = format!("{name} {}", if *f { "on" } else { "off" });
            v.push((label, o));
        }
    }
    v
}

/// What the command line asks for.
struct Args {
    games: Vec<String>,
    delta: i64,
    ablate: bool,
    threads: usize,
    only: Option<String>,
}

/// The games this program knows.
const GAMES: [&str; 4] = ["checkers", "draughts", "othello", "connect4"];

/// Reads the command line; an error says what was wrong.
fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args { games: Vec::new(), delta: 0, ablate: false, threads: 1, only: None };
    while let Some(arg) = args.next() {
        let mut value = |what: &str| args.next().ok_or(format!("{arg} needs {what}"));
        match arg.as_str() {
            "--depth-delta" => {
                let v = value("a whole number")?;
                a.delta = v.parse().map_err(|_| format!("--depth-delta: not a number: {v:?}"))?;
            }
            "--threads" => {
                let v = value("a number of threads")?;
                a.threads = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=256).contains(n))
                    .ok_or(format!("--threads: expected 1 to 256, got {v:?}"))?;
            }
            "--only" => a.only = Some(value("a variant name")?),
            "--ablate" => a.ablate = true,
            game if GAMES.contains(&game) => a.games.push(arg),
            other => return Err(format!("unknown argument {other:?}: games are {GAMES:?}")),
        }
    }
    if a.games.is_empty() {
        a.games = GAMES.iter().map(|s| s.to_string()).collect();
    }
    Ok(a)
}

fn main() -> ExitCode {
    let Args { games, delta, ablate, threads, only } = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let depth = |d: i64| (d + delta).max(1) as u32;
    let mut summary = Vec::new();
    let chosen = variants(ablate || only.is_some())
        .into_iter()
        .filter(|(v, _)| only.as_ref().is_none_or(|x| v.starts_with(x.as_str()) || v == "default"));
    for (variant, mut o) in chosen {
        o.threads = threads;
        println!("\n{variant} ({threads} thread{})", if threads == 1 { "" } else { "s" });
        println!("{:<10} {:<8} {:>5} {:>12} {:>9}", "game", "position", "depth", "nodes", "time");
        for g in &games {
            let total = match g.as_str() {
                "checkers" => {
                    let game = EnglishCheckers::new(8, Rules::Deepomatic).expect("8x8");
                    measure("checkers", &game, depth(15), &o)
                }
                "draughts" => measure("draughts", &InternationalDraughts::new(), depth(12), &o),
                "othello" => measure("othello", &Reversi::new(8, 2).expect("8x8"), depth(10), &o),
                "connect4" => measure("connect4", &ConnectFour::standard(), depth(14), &o),
                _ => unreachable!("parse_args keeps only known games"),
            };
            summary.push((variant.clone(), g.clone(), total));
        }
    }
    if ablate || only.is_some() {
        println!("\n{:<14} {:<10} {:>12} {:>9}", "variant", "game", "nodes", "vs default");
        for (variant, game, total) in &summary {
            let base = summary.iter().find(|(v, g, _)| v == "default" && g == game).map(|s| s.2);
            let ratio = base.map_or(1.0, |b| *total as f64 / b.max(1) as f64);
            println!("{variant:<14} {game:<10} {total:>12} {ratio:>8.2}x");
        }
    }
    ExitCode::SUCCESS
}
