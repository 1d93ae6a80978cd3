//! The perft tool: count the leaves of a game's move tree to each depth, with timing, to check
//! a move generator against published figures and measure its speed; `--divide` splits the
//! count by first move.
//!
//! ```text
//! cargo run --release --example perft -- connect-four 8
//! cargo run --release --example perft -- tictactoe 4 --position x...o.... --divide
//! ```

use std::io::{self, Write};
use std::time::Instant;

use clap::ValueEnum;
use ply::{divide, perft, Game, Notation, PerftMode};

use crate::units::{rate, secs, si};

/// How the last ply is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Count the last ply's moves without playing them (bulk counting).
    Bulk,
    /// Play every leaf move through the generic `Game::apply` path.
    Make,
}

/// The options of a perft run.
#[derive(clap::Args, Clone, Debug)]
pub struct PerftArgs {
    /// The deepest depth; every depth from 1 up to it is printed.
    pub depth: u32,
    /// Start from this position (the game's position notation, e.g. PDN FEN for checkers).
    #[arg(long, value_name = "P")]
    pub position: Option<String>,
    /// Also print the count below each legal move at the deepest depth.
    #[arg(long)]
    pub divide: bool,
    /// How the last ply is counted.
    #[arg(long, value_enum, default_value_t = Mode::Bulk)]
    pub mode: Mode,
}

/// Runs perft on `game` as `args` say, printing one line per depth on stdout:
/// `perft(D) = N  time ...  speed ... leaves/s`. A closed stdout (`perft ... | head`) ends the
/// run quietly.
///
/// # Errors
/// A bad `--position`, or stdout failing.
pub fn run<G: Game + Notation>(game: &G, args: &PerftArgs) -> crate::error::ToolResult<()> {
    let start = match &args.position {
        Some(p) => game.parse_state(p).map_err(|e| format!("bad --position: {e}"))?,
        None => game.initial_state(),
    };
    let mode = match args.mode {
        Mode::Bulk => PerftMode::Bulk,
        Mode::Make => PerftMode::MakeAll,
    };
    match count(game, &start, args, mode, &mut io::stdout().lock()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(|e| format!("stdout: {e}").into()),
    }
}

fn count<G: Game + Notation>(
    game: &G,
    start: &G::State,
    args: &PerftArgs,
    mode: PerftMode,
    out: &mut impl Write,
) -> io::Result<()> {
    let line = |out: &mut dyn Write, depth: u32, count: u64, started: Instant| {
        let elapsed = started.elapsed();
        writeln!(
            out,
            "perft({depth}) = {count}  time {}  speed {} leaves/s",
            secs(elapsed),
            si(rate(count, elapsed))
        )
    };
    let last_plain = if args.divide { args.depth.saturating_sub(1) } else { args.depth };
    for depth in 1..=last_plain {
        let started = Instant::now();
        let n = perft(game, start, depth, mode);
        line(out, depth, n, started)?;
    }
    if args.divide && args.depth >= 1 {
        let started = Instant::now();
        let split = divide(game, start, args.depth, mode);
        for (mv, n) in &split {
            writeln!(out, "{}: {n}", game.format_move(start, *mv))?;
        }
        writeln!(out, "moves: {}", split.len())?;
        let total = split.iter().map(|(_, c)| c).sum();
        line(out, args.depth, total, started)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::TicTacToe;

    fn output(args: &PerftArgs) -> String {
        let game = TicTacToe;
        let start = match &args.position {
            Some(p) => game.parse_state(p).unwrap(),
            None => game.initial_state(),
        };
        let mut out = Vec::new();
        count(&game, &start, args, PerftMode::Bulk, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn counts_every_depth_and_divides() {
        let args = PerftArgs { depth: 3, position: None, divide: false, mode: Mode::Bulk };
        let text = output(&args);
        assert!(text.contains("perft(1) = 9 ") && text.contains("perft(3) = 504 "), "{text}");
        let args = PerftArgs { divide: true, ..args };
        let text = output(&args);
        assert!(text.contains("moves: 9") && text.contains("perft(3) = 504 "), "{text}");
        assert!(text.contains("b2: 56"), "{text}");
    }

    #[test]
    fn a_bad_position_is_an_error() {
        let args =
            PerftArgs { depth: 1, position: Some("xx".into()), divide: false, mode: Mode::Bulk };
        assert!(run(&TicTacToe, &args).unwrap_err().to_string().starts_with("bad --position"));
    }
}
