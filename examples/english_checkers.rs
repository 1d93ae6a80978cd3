//! English checkers in the terminal against ply's engine, under the Deepomatic challenge's
//! rules (the default) or the standard ones, on any even board from 4x4 to 16x16; and two
//! machine modes that give other programs the rules and the engine over JSON lines.
//!
//! ```text
//! cargo run --release --example english_checkers                      # you play Black
//! cargo run --release --example english_checkers -- --color white --time 2s
//! cargo run --release --example english_checkers -- --human none      # engine vs engine
//! cargo run --release --example english_checkers -- --human both      # two humans
//! cargo run --release --example english_checkers -- --rules standard --size 10
//! cargo run --release --example english_checkers -- --fen "B:W18,K26:B1,K14"
//! cargo run --release --example english_checkers -- --engine mcts:iters=20000 --seed 7
//! echo '{"board": ["_b__","____","____","w___"], "color": "b"}' \
//!     | cargo run --release --example english_checkers -- moves
//! ```
//!
//! A move is typed in numeric notation (`11-15`, `22x15x8`, or `22x8` when only one capture
//! path fits), as the seed's path of `(row,col)` squares (`(5,0)-(4,1)`), or as its number in
//! the printed list; `help` lists the commands. With stdin not a terminal and no `--human`,
//! the engines play each other at 50 ms a move and the result is printed.
//!
//! Machine modes read one JSON object per line and write one line per object:
//! - `moves`: `{"board": [...rows...], "color": "b"}` gives every legal move as an array of
//!   moves, each an array of `[row, col]` pairs (the seed's `allowed_moves`);
//! - `play`: the same with an optional `"time_ms"` (default 1000) gives the engine's move as
//!   an array of `[row, col]` pairs (the seed's `play`).
//!
//! A line that cannot be used gets `{"error": "..."}` and the next line is read.

mod common;

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use ply::Game;
use ply_checkers::{EnglishCheckers, Rules};

use common::agents::{parse_duration, AgentSpec};
use common::play::{run, start_state, Defaults, HumanSide, PlayArgs};

/// Play English checkers against ply's engine, or serve its rules and engine as JSON lines.
#[derive(Parser, Debug)]
#[command(
    name = "english_checkers",
    after_help = common::agents::ACCEPTED,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The rules: deepomatic (a man crowned while capturing goes on capturing) or standard.
    #[arg(long, default_value = "deepomatic", global = true, value_parser = parse_rules)]
    rules: Rules,
    /// Board size N (even, 4 to 16).
    #[arg(long, default_value_t = 8, value_name = "N")]
    size: usize,
    /// Start from this PDN FEN position, e.g. "B:W18,K26:B1,K14" (K marks a king).
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// The colour you play (the same as --human first for black, second for white).
    #[arg(long, value_enum, conflicts_with = "human")]
    color: Option<Side>,
    /// Time per engine move, e.g. 500ms or 2s (sets the time of every engine).
    #[arg(long, value_name = "T", value_parser = parse_time)]
    time: Option<Duration>,
    /// Search depth of every engine, in plies.
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// Turn off the draw rules (threefold repetition, 40 moves each without capture or man
    /// move).
    #[arg(long)]
    no_draw: bool,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read {"board": [...], "color": "b"} lines; write each position's legal moves.
    Moves,
    /// Read {"board": [...], "color": "b", "time_ms": 1000} lines; write the engine's move.
    Play {
        /// Time per move when a line gives no time_ms.
        #[arg(long, default_value_t = 1000, value_name = "MS")]
        time_ms: u64,
    },
}

/// A colour for `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Side {
    /// Black: moves first, from the top of the board.
    Black,
    /// White.
    White,
}

fn parse_rules(text: &str) -> Result<Rules, String> {
    text.parse().map_err(|e: ply_checkers::ParseRulesError| e.to_string())
}

fn parse_time(text: &str) -> Result<Duration, String> {
    parse_duration(text).map_err(|e| e.to_string())
}

/// The default engine specs, with `--time`/`--depth` applied to every engine seat.
fn engines(cli: &Cli, default: &str) -> Result<Vec<AgentSpec>, String> {
    let mut specs = cli.play.engines.clone();
    if specs.is_empty() && (cli.time.is_some() || cli.depth.is_some()) {
        specs.push(default.parse().map_err(|e| format!("default engine: {e}"))?);
    }
    for spec in &mut specs {
        if cli.time.is_some() {
            spec.time = cli.time;
        }
        if cli.depth.is_some() {
            spec.depth = cli.depth;
            if cli.time.is_none() {
                spec.time = None;
            }
        }
    }
    Ok(specs)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(Command::Moves) => return machine::serve(cli.rules, None),
        Some(Command::Play { time_ms }) => {
            return machine::serve(cli.rules, Some(Duration::from_millis(*time_ms)))
        }
        None => {}
    }
    let mut game = match EnglishCheckers::new(cli.size, cli.rules) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if cli.no_draw {
        game = game.with_draw_rules(ply_checkers::DrawRules::NONE);
    }
    let start = match start_state(&game, cli.fen.as_deref(), "--fen") {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if game.outcome(&start).is_some() {
        eprintln!("error: the start position is already over");
        return ExitCode::FAILURE;
    }
    let mut args = cli.play.clone();
    if let Some(side) = cli.color {
        args.human = Some(match side {
            Side::Black => HumanSide::First,
            Side::White => HumanSide::Second,
        });
    }
    let human_plays = match args.human {
        Some(h) => h != HumanSide::None,
        None => io::IsTerminal::is_terminal(&io::stdin()),
    };
    let default = if human_plays { "alphabeta:time=1s" } else { "alphabeta:time=50ms" };
    args.engines = match engines(&cli, default) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "English checkers, {n}x{n}, {} rules{}",
        game.rules(),
        if cli.no_draw { ", no draw rules" } else { "" },
        n = game.size()
    );
    run(
        &game,
        start,
        &args,
        Defaults {
            engine: "alphabeta:time=1s",
            batch_engine: "alphabeta:time=50ms",
            names: &["Black", "White"],
        },
    )
}

/// The JSON-lines modes: the seed's `allowed_moves` and `play` for other programs.
mod machine {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    /// One request line.
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Request {
        board: Vec<String>,
        color: String,
        #[serde(default)]
        time_ms: Option<u64>,
    }

    /// The error line for `message`.
    fn error(message: impl std::fmt::Display) -> String {
        json!({ "error": message.to_string() }).to_string()
    }

    fn color_char(color: &str) -> Result<char, String> {
        let mut chars = color.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(format!("unknown colour {color:?}: expected \"b\" or \"w\"")),
        }
    }

    /// The answer to one line: the legal moves (`time` is `None`) or the engine's move.
    pub fn answer(line: &str, rules: Rules, time: Option<Duration>) -> String {
        let request: Request = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(e) => return error(format!("bad request: {e}")),
        };
        let color = match color_char(&request.color) {
            Ok(c) => c,
            Err(e) => return error(e),
        };
        let pairs = |path: &[(usize, usize)]| -> Vec<[usize; 2]> {
            path.iter().map(|&(r, c)| [r, c]).collect()
        };
        match time {
            None => {
                if request.time_ms.is_some() {
                    return error("time_ms is only read by the play mode");
                }
                match ply_checkers::seed::allowed_moves_with(rules, &request.board, color) {
                    Ok(moves) => {
                        let moves: Vec<_> = moves.iter().map(|m| pairs(m)).collect();
                        json!(moves).to_string()
                    }
                    Err(e) => error(e),
                }
            }
            Some(default) => {
                let time = request.time_ms.map_or(default, Duration::from_millis);
                match ply_checkers::seed::play_with(rules, &request.board, color, time) {
                    Ok(path) => json!(pairs(&path)).to_string(),
                    Err(e) => error(e),
                }
            }
        }
    }

    /// Answers every non-blank line of stdin on stdout until end of input.
    pub fn serve(rules: Rules, time: Option<Duration>) -> ExitCode {
        let stdin = io::stdin();
        let mut out = io::stdout().lock();
        for line in stdin.lock().lines() {
            let line = match line {
                Ok(l) => l,
                Err(e) => {
                    eprintln!("error: reading stdin: {e}");
                    return ExitCode::FAILURE;
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            let reply = answer(&line, rules, time);
            if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
                return ExitCode::SUCCESS;
            }
        }
        ExitCode::SUCCESS
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        const EXAMPLE_2: &str = r#"{"board": ["________", "__b_b___", "_w______", "______b_", "_______b", "________", "________", "________"], "color": "w"}"#;

        #[test]
        fn moves_answers_the_seed_example() {
            let reply = answer(EXAMPLE_2, Rules::Deepomatic, None);
            assert_eq!(reply, "[[[2,1],[0,3],[2,5]]]");
            let standard = answer(EXAMPLE_2, Rules::Standard, None);
            assert_eq!(standard, "[[[2,1],[0,3]]]");
        }

        #[test]
        fn play_answers_a_legal_move() {
            let line =
                r#"{"board": ["_b__", "____", "__w_", "____"], "color": "w", "time_ms": 50}"#;
            let reply = answer(line, Rules::Deepomatic, Some(Duration::from_millis(1000)));
            let moves =
                answer(line.replace(", \"time_ms\": 50", "").as_str(), Rules::Deepomatic, None);
            let chosen: serde_json::Value = serde_json::from_str(&reply).unwrap();
            let legal: serde_json::Value = serde_json::from_str(&moves).unwrap();
            assert!(legal.as_array().unwrap().contains(&chosen), "{reply} not in {moves}");
        }

        #[test]
        fn bad_lines_get_an_error_object() {
            for line in [
                "not json",
                "{}",
                r#"{"board": "________", "color": "b"}"#,
                r#"{"board": ["_b__", "___", "____", "w___"], "color": "b"}"#,
                r#"{"board": ["_b__", "____", "____", "w___"], "color": "black"}"#,
                r#"{"board": ["_x__", "____", "____", "w___"], "color": "b"}"#,
                r#"{"board": ["_b__", "____", "____", "w___"], "color": "b", "extra": 1}"#,
            ] {
                let reply = answer(line, Rules::Deepomatic, None);
                let v: serde_json::Value = serde_json::from_str(&reply).unwrap();
                assert!(v.get("error").and_then(|e| e.as_str()).is_some(), "{line}: {reply}");
            }
            let over = r#"{"board": ["____", "____", "____", "w___"], "color": "b"}"#;
            assert_eq!(answer(over, Rules::Deepomatic, None), "[]");
            let reply = answer(over, Rules::Deepomatic, Some(Duration::from_millis(10)));
            assert!(reply.contains("error"), "{reply}");
        }
    }
}
