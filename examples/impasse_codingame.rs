//! An Impasse bot for CodinGame: it speaks the referee's protocol on stdin/stdout and plays
//! with the library's alpha-beta search under a time budget.
//!
//! ```text
//! cargo run --release --example impasse_codingame [-- --first-ms 850 --turn-ms 70 --quiet]
//! ```
//!
//! Each turn it reads the board, the last action and the referee's legal actions, checks its
//! own move list against the referee's (a difference is reported on stderr), searches, and
//! answers an action text from the referee's list. The limits are 1000 ms for the first
//! answer and 100 ms for the others; the default budgets keep a margin for process overhead.
//! Malformed or truncated input ends the program with a message on stderr and exit code 1;
//! the end of input between turns ends it normally.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ply::search::alphabeta::AlphaBeta;
use ply::search::{Agent, Budget, Position};
use ply_impasse::codingame::{answer, compare_actions, Session};
use ply_impasse::Impasse;

const USAGE: &str = "usage: impasse_codingame [--first-ms N] [--turn-ms N] [--quiet]
  --first-ms N   search time for the first turn (default 850; the referee allows 1000)
  --turn-ms N    search time for later turns (default 70; the referee allows 100)
  --quiet        no per-turn search line on stderr";

struct Options {
    first: Duration,
    turn: Duration,
    quiet: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        first: Duration::from_millis(850),
        turn: Duration::from_millis(70),
        quiet: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut ms = |name: &str| -> Result<Duration, String> {
            let v = args.next().ok_or_else(|| format!("{name} needs a value"))?;
            let n: u64 = v.parse().map_err(|_| format!("{name}: {v:?} is not a number"))?;
            if n == 0 || n > 60_000 {
                return Err(format!("{name}: {n} is not between 1 and 60000"));
            }
            Ok(Duration::from_millis(n))
        };
        match a.as_str() {
            "--first-ms" => o.first = ms("--first-ms")?,
            "--turn-ms" => o.turn = ms("--turn-ms")?,
            "--quiet" => o.quiet = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(o)
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("impasse_codingame: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let game = Impasse::new();
    let mut session = match Session::new(io::stdin().lock()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("impasse_codingame: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut engine = AlphaBeta::new().with_tt_mb(32);
    let mut turn_number = 0u32;
    loop {
        let turn = match session.read_turn() {
            Ok(Some(t)) => t,
            Ok(None) => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("impasse_codingame: {e}");
                return ExitCode::FAILURE;
            }
        };
        let started = Instant::now();
        turn_number += 1;
        if let Err(mismatch) = compare_actions(&game, &turn.state, &turn.actions) {
            eprintln!("impasse_codingame: turn {turn_number}: {mismatch}");
        }
        let time = if turn_number == 1 { options.first } else { options.turn };
        let mut chosen = None;
        if turn.actions.len() > 1 {
            match engine.choose(&game, Position::new(&turn.state), &Budget::time(time)) {
                Ok(report) => {
                    if !options.quiet {
                        eprintln!(
                            "turn {turn_number}: {} depth {} value {} nodes {} in {} ms",
                            report.best_move,
                            report.depth,
                            report.value,
                            report.nodes,
                            report.elapsed.as_millis()
                        );
                    }
                    chosen = Some(report.best_move);
                }
                Err(e) => eprintln!("impasse_codingame: turn {turn_number}: search: {e}"),
            }
        }
        let Some(text) = answer(chosen, &turn.actions) else {
            eprintln!("impasse_codingame: turn {turn_number}: the referee listed no action");
            return ExitCode::FAILURE;
        };
        if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
            // The referee closed the pipe: the game is over.
            return ExitCode::SUCCESS;
        }
        if !options.quiet {
            eprintln!(
                "turn {turn_number}: answered {text} after {} ms",
                started.elapsed().as_millis()
            );
        }
    }
}
