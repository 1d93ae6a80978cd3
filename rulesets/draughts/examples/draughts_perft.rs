//! Perft timing for international draughts: `draughts_perft [depth] [fen] [--generic]`.
//!
//! Counts the leaves of the move tree with bulk counting, single thread, and prints the
//! leaves per second. `--generic` uses `ply::perft` over the full `Game` implementation
//! instead of the lean `perft_fast` path.

use std::process::ExitCode;
use std::time::Instant;

use ply::{perft, Game, Notation, PerftMode};
use ply_draughts::{perft_fast, InternationalDraughts};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("usage: draughts_perft [depth (default 9)] [fen] [--generic]");
        return ExitCode::SUCCESS;
    }
    let generic = args.iter().any(|a| a == "--generic");
    let rest: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let depth = match rest.first().map(|d| d.parse::<u32>()) {
        None => 9,
        Some(Ok(d)) => d,
        Some(Err(_)) => {
            eprintln!("error: depth must be a whole number, got {:?}", rest[0]);
            return ExitCode::FAILURE;
        }
    };
    let game = InternationalDraughts::new();
    let state = match rest.get(1) {
        None => game.initial_state(),
        Some(fen) => match game.parse_state(fen) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    for d in 1..=depth {
        let t = Instant::now();
        let leaves =
            if generic { perft(&game, &state, d, PerftMode::Bulk) } else { perft_fast(&state, d) };
        let secs = t.elapsed().as_secs_f64();
        println!(
            "depth {d:2} leaves {leaves:>14} time {secs:8.3} s  {:8.1} M leaves/s",
            leaves as f64 / secs.max(1e-9) / 1e6
        );
    }
    ExitCode::SUCCESS
}
