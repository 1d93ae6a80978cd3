//! The solve tool: a position's exact value under perfect play ([`ply::solve`]) for any
//! registered one- or two-player game, with the moves that keep it, every move's value with
//! `--analyse` (as Pons' Connect Four solver's `-a`), progress on stderr and one JSON object
//! with `--json`.
//!
//! ```text
//! cargo run --release --example connect_four -- solve --moves "4 4 4 4 4 3 3 3"
//! cargo run --release --example connect_four -- solve --moves "4 4 4 4" --analyse --json
//! cargo run --release --example play -- solve --game kalah --variant seeds=3
//! cargo run --release --example tictactoe -- solve --analyse
//! ```

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ply::solve::{Exact, SolveOptions, Solver, Step};
use ply::{Game, Notation};
use serde::Serialize;
use serde_json::json;

use crate::error::{ToolError, ToolResult};
use crate::units::{rate, secs, si};

/// The options of `PROGRAM solve`.
#[derive(clap::Args, Clone, Debug)]
pub struct SolveArgs {
    /// Solve this position (the game's position notation) instead of the start.
    #[arg(long, value_name = "P")]
    pub position: Option<String>,
    /// Solve the position after these moves from the start (or from --position), in the
    /// game's move notation, separated by spaces or commas.
    #[arg(long, value_name = "\"M1 M2 ...\"")]
    pub moves: Option<String>,
    /// Also print every legal move's exact value.
    #[arg(long)]
    pub analyse: bool,
    /// Print one JSON object: value (for the player to move: the margin where the game
    /// scores by points, else 1, 0 or -1), result, plies, best, nodes, time_ms (and moves
    /// with --analyse).
    #[arg(long)]
    pub json: bool,
    /// Settle only win, draw or loss, not the distance to the end or the margin (faster).
    #[arg(long)]
    pub weak: bool,
    /// The memory of the table of proven bounds, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    pub memory: usize,
    /// Proving threads (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Give up after this long (e.g. 30s, 5m; default: no limit).
    #[arg(long, value_name = "DURATION", value_parser = crate::spec::parse_duration)]
    pub time: Option<Duration>,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// The game's options (rules, size, players, variants).
    #[command(flatten)]
    pub options: crate::options::GameOptions,
    /// Solve every position of this file instead (one position per line in the game's
    /// notation, `#` comments) and print one line each, the table kept between them.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "moves", "analyse"])]
    pub batch: Option<PathBuf>,
}

/// What a solve may spend and what it answers besides the value.
#[derive(Clone, Debug)]
pub struct SolveLimits {
    /// Settle only win, draw or loss.
    pub weak: bool,
    /// Also every legal move's value.
    pub analyse: bool,
    /// The table of proven bounds, in MiB.
    pub memory_mib: usize,
    /// Proving threads (0: every core).
    pub threads: usize,
    /// Give up after this long.
    pub time: Option<Duration>,
}

impl Default for SolveLimits {
    /// Exact values, no analysis, a 256 MiB table, every core, no time limit.
    fn default() -> Self {
        SolveLimits { weak: false, analyse: false, memory_mib: 256, threads: 0, time: None }
    }
}

impl SolveLimits {
    fn options(&self) -> ToolResult<SolveOptions> {
        if self.memory_mib > 1 << 20 {
            let what = format!("a table of {} MiB: at most 1048576", self.memory_mib);
            return Err(ToolError::input(what));
        }
        let threads = match self.threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        Ok(SolveOptions {
            table_mib: self.memory_mib,
            threads,
            weak: self.weak,
            ..SolveOptions::default()
        })
    }
}

impl SolveArgs {
    /// The limits these options set.
    ///
    /// # Errors
    /// `--threads 0`.
    pub fn limits(&self) -> ToolResult<SolveLimits> {
        if self.threads == Some(0) {
            return Err(ToolError::input("--threads: expected at least 1"));
        }
        Ok(SolveLimits {
            weak: self.weak,
            analyse: self.analyse,
            memory_mib: self.memory,
            threads: self.threads.unwrap_or(0),
            time: self.time,
        })
    }
}

/// A solved position as plain data with moves in notation: what `solve --json` prints, what
/// the erased game ([`crate::dynamic::DynGame::solve`]) answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveReport {
    /// The position, in the game's notation.
    pub position: String,
    /// For the player to move: the margin where the game scores by points, else 1, 0 or -1.
    pub value: i32,
    /// `win`, `draw` or `loss`.
    pub result: String,
    /// Plies to the end under perfect play, where known (wins and losses).
    pub plies: Option<u32>,
    /// The value in words: `win in 13 plies`, `draw`, `+10`.
    pub text: String,
    /// Every move that keeps the value (none at the end of the game).
    pub best: Vec<String>,
    /// Every legal move's value, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<SolvedMove>>,
    /// Positions visited.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
}

/// One move's value in a [`SolveReport`], for the player who makes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolvedMove {
    /// The move, in notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// As [`SolveReport::value`].
    pub value: i32,
    /// `win`, `draw` or `loss`.
    pub result: String,
    /// Plies to the end, where known.
    pub plies: Option<u32>,
    /// The value in words.
    pub text: String,
}

/// The position `args` name: the start or `--position`, then `--moves`.
fn position<G: Game + Notation>(game: &G, args: &SolveArgs) -> ToolResult<G::State> {
    let mut state = match &args.position {
        Some(p) => {
            game.parse_state(p).map_err(|e| ToolError::input(format!("bad --position: {e}")))?
        }
        None => game.initial_state(),
    };
    let moves = args.moves.as_deref().unwrap_or_default();
    for (i, text) in moves.split([' ', ',']).filter(|m| !m.is_empty()).enumerate() {
        let error = |e: &dyn std::fmt::Display| {
            ToolError::input(format!("--moves: move {} ({text}): {e}", i + 1))
        };
        if game.outcome(&state).is_some() {
            return Err(error(&"the game is already over"));
        }
        let mv = game.parse_move(&state, text).map_err(|e| error(&e))?;
        game.apply(&mut state, mv);
    }
    Ok(state)
}

/// `win`, `draw` or `loss`.
fn result_word(value: Exact) -> String {
    match value.value().signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
    .to_string()
}

/// Solves `state` of `game` within `limits`: its value, the moves that keep it and, with
/// `analyse`, every move's value. `stop` is asked every few thousand positions besides the
/// time limit; `progress` hears after each null-window test.
///
/// # Errors
/// A game of more than two players, a table too large, or `stop` or the time limit first.
pub fn solve_position<G: Game + Notation>(
    game: &G,
    state: &G::State,
    limits: &SolveLimits,
    stop: &(dyn Fn() -> bool + Sync),
    progress: &mut dyn FnMut(&Step),
) -> ToolResult<SolveReport>
where
    G::State: Send + Sync,
{
    let mut solver =
        Solver::new(game, limits.options()?).map_err(|e| ToolError::input(e.to_string()))?;
    let started = Instant::now();
    let stop = || limits.time.is_some_and(|t| started.elapsed() >= t) || stop();
    let limit = |e: ply::solve::SolveError| match limits.time {
        Some(t) if started.elapsed() >= t => {
            ToolError::input(format!("{e} (the time limit of {} ran out)", secs(t)))
        }
        _ => ToolError::input(e.to_string()),
    };
    let solution = solver.solve(state, &stop, progress).map_err(limit)?;
    let mut nodes = solution.nodes;
    let moves = match limits.analyse {
        true => {
            let analysis = solver.analyse(state, &stop, &mut |_| {}).map_err(limit)?;
            nodes += solver.nodes();
            Some(analysis.iter().map(|&(m, v)| solved_move(game, state, m, v)).collect())
        }
        false => None,
    };
    Ok(SolveReport {
        position: game.format_state(state),
        value: solution.value.value(),
        result: result_word(solution.value),
        plies: solution.value.plies(),
        text: solution.value.to_string(),
        best: solution.best.iter().map(|&m| game.format_move(state, m)).collect(),
        moves,
        nodes,
        time_ms: started.elapsed().as_millis() as u64,
    })
}

fn solved_move<G: Game + Notation>(
    game: &G,
    state: &G::State,
    mv: G::Move,
    value: Exact,
) -> SolvedMove {
    SolvedMove {
        mv: game.format_move(state, mv),
        value: value.value(),
        result: result_word(value),
        plies: value.plies(),
        text: value.to_string(),
    }
}

/// Runs `solve` on `game` as `args` say, writing the answer on stdout and progress on
/// stderr.
///
/// # Errors
/// A bad position, move or option, a game of more than two players, or the time limit
/// reached first.
pub fn run<G: Game + Notation>(game: &G, args: &SolveArgs) -> ToolResult<()>
where
    G::State: Send + Sync,
{
    let limits = args.limits()?;
    let out = &mut io::stdout().lock();
    if let Some(path) = &args.batch {
        return run_batch(game, path, args, &limits, out);
    }
    let state = position(game, args)?;
    if !args.quiet && !args.json {
        writeln!(out, "{}", game.format_state(&state)).map_err(stdout)?;
    }
    let quiet = args.quiet;
    let mut progress = |step: &Step| {
        if !quiet {
            eprintln!("{}", step_line(step));
        }
    };
    let report = solve_position(game, &state, &limits, &|| false, &mut progress)?;
    let written = match args.json {
        true => serde_json::to_string(&report)
            .map_err(|e| io::Error::other(e.to_string()))
            .and_then(|line| writeln!(out, "{line}")),
        false => write_report(out, &report, game.to_move(&state)),
    };
    written.map_err(stdout)
}

fn stdout(e: io::Error) -> ToolError {
    ToolError::internal(format!("stdout: {e}"))
}

/// A progress line: `test 3: value in [+2, +10]  nodes 1.2M  time 0.41s`.
fn step_line(step: &Step) -> String {
    let bound = |b: Option<Exact>| b.map_or("?".to_string(), |v| v.to_string());
    format!(
        "test {}: value in [{}, {}]  nodes {}  time {}",
        step.tests,
        bound(step.lower),
        bound(step.upper),
        si(step.nodes as f64),
        secs(step.elapsed)
    )
}

/// The answer as text: the value, the best moves, each move's value, the cost.
fn write_report(out: &mut impl Write, report: &SolveReport, who: ply::Player) -> io::Result<()> {
    writeln!(out, "value: {} for the player to move ({who})", report.text)?;
    match report.best.is_empty() {
        true => writeln!(out, "best: none (the game is over)")?,
        false => writeln!(out, "best: {}", report.best.join(" "))?,
    }
    if let Some(moves) = &report.moves {
        writeln!(out, "moves:")?;
        for m in moves {
            writeln!(out, "  {:<8} {}", m.mv, m.text)?;
        }
    }
    let elapsed = Duration::from_millis(report.time_ms);
    let speed = si(rate(report.nodes, elapsed));
    writeln!(
        out,
        "nodes {}  time {}  speed {speed} nodes/s",
        si(report.nodes as f64),
        secs(elapsed)
    )
}

/// Solves every position of the file at `path` with one table, one line each on stdout:
/// `POSITION  VALUE  nodes N  time T` (or one JSON object per line: position, value,
/// result, plies, nodes, time_ms), and the totals on stderr.
fn run_batch<G: Game + Notation>(
    game: &G,
    path: &std::path::Path,
    args: &SolveArgs,
    limits: &SolveLimits,
    out: &mut impl Write,
) -> ToolResult<()>
where
    G::State: Send + Sync,
{
    let text = crate::files::read_text(path, crate::files::MAX_TEXT)?;
    let mut solver =
        Solver::new(game, limits.options()?).map_err(|e| ToolError::input(e.to_string()))?;
    let started = Instant::now();
    let stop = || limits.time.is_some_and(|t| started.elapsed() >= t);
    let (mut total_nodes, mut count) = (0, 0);
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: String| ToolError::input(format!("{}:{}: {e}", path.display(), n + 1));
        let state = game.parse_state(line).map_err(|e| at(format!("bad position: {e}")))?;
        let began = Instant::now();
        let value = solver.value(&state, &stop, &mut |_| {}).map_err(|e| at(e.to_string()))?;
        let elapsed = began.elapsed();
        total_nodes += solver.nodes();
        count += 1;
        let written = if args.json {
            let answer = json!({
                "position": line,
                "value": value.value(),
                "result": result_word(value),
                "plies": value.plies(),
                "nodes": solver.nodes(),
                "time_ms": elapsed.as_millis() as u64,
            });
            writeln!(out, "{answer}")
        } else {
            writeln!(out, "{line}  {value}  nodes {}  time {}", solver.nodes(), secs(elapsed))
        };
        written.map_err(stdout)?;
    }
    if !args.quiet {
        let elapsed = started.elapsed();
        eprintln!("{count} positions, nodes {}, time {}", si(total_nodes as f64), secs(elapsed));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use ply::games::{ConnectFour, TicTacToe};

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        solve: SolveArgs,
    }

    fn args(line: &[&str]) -> SolveArgs {
        let line = ["solve"].iter().chain(line);
        Cli::try_parse_from(line).unwrap().solve
    }

    #[test]
    fn moves_from_the_start_and_a_bad_move_is_an_error() {
        let game = ConnectFour::standard();
        let state = position(&game, &args(&["--moves", "4 4,4"])).unwrap();
        assert_eq!(game.to_move(&state).index(), 1);
        let bad = position(&game, &args(&["--moves", "4 9"])).unwrap_err().to_string();
        assert!(bad.starts_with("--moves: move 2 (9): "), "{bad}");
        let over = position(&TicTacToe, &args(&["--moves", "a1 a2 b1 b2 c1 c2"]));
        let over = over.unwrap_err().to_string();
        assert!(over.contains("move 6 (c2): the game is already over"), "{over}");
        let bad = position(&game, &args(&["--position", "xx"])).unwrap_err().to_string();
        assert!(bad.starts_with("bad --position: "), "{bad}");
    }

    #[test]
    fn the_report_has_the_documented_fields() {
        let game = TicTacToe;
        let state = game.parse_state("xx.oo....").unwrap();
        let limits = SolveLimits { analyse: true, threads: 1, ..SolveLimits::default() };
        let report = solve_position(&game, &state, &limits, &|| false, &mut |_| {}).unwrap();
        let answer = serde_json::to_value(&report).unwrap();
        assert_eq!(answer["value"], 1);
        assert_eq!(answer["result"], "win");
        assert_eq!(answer["plies"], 1);
        assert_eq!(answer["text"], "win in 1 ply");
        assert_eq!(answer["best"].as_array().unwrap().len(), 1);
        assert!(answer["nodes"].as_u64().unwrap() > 0 && answer["time_ms"].is_u64());
        let moves = answer["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 5);
        assert!(moves.iter().any(|m| m["result"] == "win" && m["plies"] == 1), "{moves:?}");
        assert!(moves.iter().all(|m| m["move"].is_string()));
        let quiet = SolveLimits { threads: 1, ..SolveLimits::default() };
        let report = solve_position(&game, &state, &quiet, &|| false, &mut |_| {}).unwrap();
        assert!(serde_json::to_value(&report).unwrap().get("moves").is_none());
    }

    #[test]
    fn bad_options_are_errors() {
        assert!(args(&["--threads", "0"]).limits().is_err());
        let huge = SolveLimits { memory_mib: 1 << 21, ..SolveLimits::default() };
        let e =
            solve_position(&TicTacToe, &TicTacToe.initial_state(), &huge, &|| false, &mut |_| {});
        assert!(e.unwrap_err().to_string().contains("at most 1048576"));
        let cli = Cli::try_parse_from(["solve", "--time", "soon"]);
        assert!(cli.is_err());
        let cli = Cli::try_parse_from(["solve", "--batch", "f", "--analyse"]);
        assert!(cli.is_err());
    }

    #[test]
    fn a_time_limit_that_runs_out_is_an_error_naming_it() {
        let a = args(&["--time", "1ms", "--quiet", "--threads", "1"]);
        let message = run(&ConnectFour::standard(), &a).unwrap_err().to_string();
        assert!(message.contains("the time limit of 0.001s ran out"), "{message}");
    }
}
