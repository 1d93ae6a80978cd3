//! The perft tool: count the leaves of a game's move tree to each depth, with timing, to check
//! a move generator against published figures and measure its speed; `--divide` splits the
//! count by first move, and `--table` checks the game against a perft table file
//! ([`ply::perft::PerftTable`]).
//!
//! ```text
//! cargo run --release --example perft -- connect-four 8
//! cargo run --release --example perft -- tictactoe 4 --position x...o.... --divide
//! cargo run --release --example perft -- impasse 6 --table rulesets/impasse/tests/data/start.perft
//! ```

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::ValueEnum;
use ply::perft::{PerftLimit, PerftTable};
use ply::{divide, perft, Game, Notation, PerftMode};

use crate::error::{ToolError, ToolResult};
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
    /// Check the game against this perft table file (`position TEXT` and `perft DEPTH LEAVES`
    /// lines), every entry up to the depth.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "divide"])]
    pub table: Option<PathBuf>,
}

/// Runs perft on `game` as `args` say, printing one line per depth on stdout:
/// `perft(D) = N  time ...  speed ... leaves/s`. With a table, every line ends with `ok` or
/// the table's count. A closed stdout (`perft ... | head`) ends the run quietly.
///
/// # Errors
/// A bad `--position` or `--table` file, a count that differs from the table, or stdout
/// failing.
pub fn run<G: Game + Notation>(game: &G, args: &PerftArgs) -> ToolResult<()> {
    let mode = match args.mode {
        Mode::Bulk => PerftMode::Bulk,
        Mode::Make => PerftMode::MakeAll,
    };
    let out = &mut io::stdout().lock();
    if let Some(path) = &args.table {
        return run_table(game, path, args.depth, mode, out);
    }
    let start = match &args.position {
        Some(p) => {
            game.parse_state(p).map_err(|e| ToolError::Input(format!("bad --position: {e}")))?
        }
        None => game.initial_state(),
    };
    written(count(game, &start, args, mode, out))
}

/// The result of writing to stdout, a closed stdout being no error.
fn written<T: Default>(result: io::Result<T>) -> ToolResult<T> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(T::default()),
        other => other.map_err(|e| ToolError::internal(format!("stdout: {e}"))),
    }
}

/// Checks `game` against the table file at `path` up to `depth`.
fn run_table<G: Game + Notation>(
    game: &G,
    path: &Path,
    depth: u32,
    mode: PerftMode,
    out: &mut impl Write,
) -> ToolResult<()> {
    let in_file = |e: &dyn std::fmt::Display| ToolError::input(format!("{}: {e}", path.display()));
    let text = crate::files::read_text(path, crate::files::MAX_TEXT)?;
    let table: PerftTable = text.parse().map_err(|e| in_file(&e))?;
    let states: Vec<G::State> = table
        .cases
        .iter()
        .map(|case| case.state(game))
        .collect::<Result<_, _>>()
        .map_err(|e| in_file(&e))?;
    let (checked, differ) = written(check(game, &table, &states, depth, mode, out))?;
    if differ > 0 {
        let what = format!("{differ} of {checked} counts differ from {}", path.display());
        return Err(ToolError::internal(what));
    }
    Ok(())
}

/// The line of one count: `perft(D) = N  time ...  speed ... leaves/s`.
fn count_line(depth: u32, count: u64, elapsed: Duration) -> String {
    let speed = si(rate(count, elapsed));
    format!("perft({depth}) = {count}  time {}  speed {speed} leaves/s", secs(elapsed))
}

fn count<G: Game + Notation>(
    game: &G,
    start: &G::State,
    args: &PerftArgs,
    mode: PerftMode,
    out: &mut impl Write,
) -> io::Result<()> {
    let last_plain = if args.divide { args.depth.saturating_sub(1) } else { args.depth };
    for depth in 1..=last_plain {
        let started = Instant::now();
        let n = perft(game, start, depth, mode);
        writeln!(out, "{}", count_line(depth, n, started.elapsed()))?;
    }
    if args.divide && args.depth >= 1 {
        let started = Instant::now();
        let split = divide(game, start, args.depth, mode);
        for (mv, n) in &split {
            writeln!(out, "{}: {n}", game.format_move(start, *mv))?;
        }
        writeln!(out, "moves: {}", split.len())?;
        let total = split.iter().map(|(_, c)| c).sum();
        writeln!(out, "{}", count_line(args.depth, total, started.elapsed()))?;
    }
    Ok(())
}

/// Counts every entry of `table` up to `depth` from `states` (one per case), printing a line
/// per entry; returns how many were checked and how many differ.
fn check<G: Game + Notation>(
    game: &G,
    table: &PerftTable,
    states: &[G::State],
    depth: u32,
    mode: PerftMode,
    out: &mut impl Write,
) -> io::Result<(usize, usize)> {
    let (mut checked, mut differ) = (0, 0);
    for (case, state) in table.cases.iter().zip(states) {
        match &case.position {
            Some(text) => writeln!(out, "position {text}")?,
            None => writeln!(out, "start position")?,
        }
        for (d, expected) in case.within(PerftLimit::Depth(depth)) {
            let started = Instant::now();
            let n = perft(game, state, d, mode);
            let verdict =
                if n == expected { "ok".to_string() } else { format!("table {expected}") };
            writeln!(out, "{}  {verdict}", count_line(d, n, started.elapsed()))?;
            checked += 1;
            differ += usize::from(n != expected);
        }
    }
    writeln!(out, "{checked} counts checked, {differ} differ")?;
    Ok((checked, differ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use ply::games::TicTacToe;

    fn args(depth: u32) -> PerftArgs {
        PerftArgs { depth, position: None, divide: false, mode: Mode::Bulk, table: None }
    }

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
        let text = output(&args(3));
        assert!(text.contains("perft(1) = 9 ") && text.contains("perft(3) = 504 "), "{text}");
        let text = output(&PerftArgs { divide: true, ..args(3) });
        assert!(text.contains("moves: 9") && text.contains("perft(3) = 504 "), "{text}");
        assert!(text.contains("b2: 56"), "{text}");
    }

    #[test]
    fn a_bad_position_is_an_error() {
        let args = PerftArgs { position: Some("xx".into()), ..args(1) };
        assert!(run(&TicTacToe, &args).unwrap_err().to_string().starts_with("bad --position"));
    }

    /// Checks tic-tac-toe against the table `text` up to `depth`, through a file: the error
    /// (the file called FILE) and what was printed.
    fn check_file(name: &str, text: &str, depth: u32) -> (Option<String>, String) {
        let path = std::env::temp_dir().join(format!("ply-perft-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let mut out = Vec::new();
        let result = run_table(&TicTacToe, &path, depth, PerftMode::Bulk, &mut out);
        std::fs::remove_file(&path).unwrap();
        let file = path.display().to_string();
        let message = result.err().map(|e| e.to_string().replace(&file, "FILE"));
        (message, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_table_is_checked_up_to_the_depth() {
        let table = "# tic-tac-toe\nperft 1 9\nperft 2 72\nperft 3 504\n\
                     position x...o....\nperft 1 7\nperft 2 43\n";
        let (result, text) = check_file("good", table, 1);
        assert_eq!(result, None);
        assert!(text.starts_with("start position\nperft(1) = 9  time "), "{text}");
        assert!(text.contains("position x...o....\nperft(1) = 7 "), "{text}");
        assert!(text.ends_with(" ok\n2 counts checked, 0 differ\n"), "{text}");
        let (result, text) = check_file("wrong", table, 2);
        assert_eq!(result.unwrap(), "1 of 4 counts differ from FILE");
        assert!(text.contains("perft(2) = 72 ") && text.contains("leaves/s  table 43\n"), "{text}");
        assert!(text.ends_with("4 counts checked, 1 differ\n"), "{text}");
    }

    #[test]
    fn a_table_that_does_not_read_is_an_error() {
        let (result, text) = check_file("syntax", "perft 1 9\nperft x 72\n", 2);
        let message = result.unwrap();
        assert_eq!(message, "FILE: line 2: bad depth \"x\": expected a whole number");
        assert!(text.is_empty());
        let (result, _) = check_file("position", "position xx\nperft 1 1\n", 2);
        let message = result.unwrap();
        assert!(message.starts_with("FILE: cannot read position \"xx\": "), "{message}");
        let missing = PerftArgs { table: Some("no/such/table.perft".into()), ..args(1) };
        let message = run(&TicTacToe, &missing).unwrap_err().to_string();
        assert!(message.starts_with("cannot read no/such/table.perft"), "{message}");
    }

    #[test]
    fn a_table_takes_no_position_and_no_divide() {
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            perft: PerftArgs,
        }
        let parse = |extra: &[&str]| {
            let line = ["perft", "3", "--table", "t.perft"].iter().chain(extra);
            Cli::try_parse_from(line).map(|cli| cli.perft.table)
        };
        assert_eq!(parse(&[]).unwrap(), Some(PathBuf::from("t.perft")));
        assert!(parse(&["--divide"]).is_err());
        assert!(parse(&["--position", "x........"]).is_err());
    }
}
