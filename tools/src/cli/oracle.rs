//! How often searches keep a position's exact value, for any registered game: positions from
//! random openings, every legal move's exact value from ply's own solver ([`crate::solve`]) or,
//! for Connect Four, Pascal Pons' solver (`c4solver -a`), then each engine's move in each
//! position. Everything runs through the erased game ([`DynGame`]), so no game needs code of
//! its own.
//!
//! ```text
//! cargo run --release --example oracle -- --game kalah --positions 500 --min-plies 8 --max-plies 20 \
//!     --labels kalah-labels.txt --engine mcts:time=100ms --engine alphabeta:time=100ms
//! cargo run --release --example oracle -- --game connect-four --pons $SOLVER --positions 1000 \
//!     --labels c4-labels.txt --engine puct:time=1s
//! ```
//!
//! A move *keeps the value* when its value has the sign of the best move's (a won position
//! stays won, a drawn one drawn, for margins too); it is *optimal* when its value is the best
//! (the largest margin, the fastest win, the slowest loss). Labels are cached in
//! `--labels FILE`, one line a position (`OPENING | MOVE=SCORE ...`), and read back instead of
//! solving again when the file begins with the same positions (fewer positions of the same
//! seed are the first of more).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::dynamic::{DynGame, State};
use crate::error::{ToolError, ToolResult};
use crate::options::GameOptions;
use crate::registry::Registry;
use crate::solve::SolveLimits;
use crate::spec::AgentSpec;

/// Scores of won and lost positions, past any margin: a win in `d` plies scores `WON - d`.
const WON: i64 = 1_000_000;

/// A position (the moves of its opening, in notation) and every legal move's exact score for
/// the player to move: its sign is the result, larger is better.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    /// The moves from the start, in the game's notation.
    pub opening: Vec<String>,
    /// Every legal move and its score.
    pub moves: Vec<(String, i64)>,
}

impl Labelled {
    /// The best score.
    fn best(&self) -> Option<i64> {
        self.moves.iter().map(|&(_, s)| s).max()
    }

    /// The score of `mv`.
    fn score(&self, mv: &str) -> Option<i64> {
        self.moves.iter().find(|(m, _)| m == mv).map(|&(_, s)| s)
    }

    /// `OPENING | MOVE=SCORE ...`.
    fn line(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|(m, s)| format!("{m}={s}")).collect();
        format!("{} | {}", self.opening.join(" "), moves.join(" "))
    }

    /// A line written by [`Labelled::line`].
    fn parse(line: &str) -> Option<Labelled> {
        let (opening, moves) = line.split_once('|')?;
        let moves = moves
            .split_whitespace()
            .map(|f| {
                let (m, s) = f.rsplit_once('=')?;
                Some((m.to_string(), s.parse().ok()?))
            })
            .collect::<Option<Vec<_>>>()?;
        let opening = opening.split_whitespace().map(str::to_string).collect();
        Some(Labelled { opening, moves })
    }
}

/// The score of a solved move: `WON - plies` for a win in so many plies (`-WON + plies` for
/// a loss), else the value (the margin, or 0 for a draw).
fn score(value: i32, plies: Option<u32>) -> i64 {
    match plies {
        Some(p) if value > 0 => WON - i64::from(p),
        Some(p) if value < 0 => -WON + i64::from(p),
        _ => i64::from(value),
    }
}

/// How one engine did on a set of labelled positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Verdict {
    /// Positions judged.
    pub positions: usize,
    /// Moves that kept the position's result.
    pub keeps: usize,
    /// Moves with the best score.
    pub optimal: usize,
    /// Time the engine spent, in all.
    pub time: Duration,
}

/// Positions judged by an exact solver.
#[derive(Parser, Debug)]
#[command(
    version,
    name = "oracle",
    about = "How often searches keep the exact value of positions from random openings"
)]
pub struct OracleArgs {
    /// The game.
    #[arg(long, default_value = "connect-four")]
    pub game: String,
    /// The game's options (rules, size, players, variants).
    #[command(flatten)]
    pub options: GameOptions,
    /// Positions to judge.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub positions: usize,
    /// Fewest random moves of an opening.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub min_plies: usize,
    /// Most random moves of an opening.
    #[arg(long, value_name = "N", default_value_t = 24)]
    pub max_plies: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Engines to judge (agent specs; their time or iteration limit is the budget).
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<AgentSpec>,
    /// Positions solved or searched at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Cache of the labels (read if it begins with these positions, else written).
    #[arg(long, value_name = "FILE")]
    pub labels: Option<PathBuf>,
    /// Label Connect Four with Pascal Pons' solver at this path (`c4solver`, built by
    /// ../shared/peers/connect4/build.sh) instead of ply's own.
    #[arg(long, value_name = "PATH")]
    pub pons: Option<PathBuf>,
    /// The table of proven bounds of each labelling thread, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    pub memory: usize,
}

/// The `oracle` program over `registry`: the arguments from the command line, the table on
/// stdout, progress on stderr.
pub fn main(registry: &Registry) -> ExitCode {
    super::end_quietly_on_closed_stdout();
    main_with(registry, std::env::args_os().collect())
}

/// [`main`] on the command line `args` (the program's name first).
pub(super) fn main_with(registry: &Registry, args: super::ArgList) -> ExitCode {
    let args = OracleArgs::parse_from(args);
    match run(registry, &args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oracle: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Labels the positions `args` ask for (or reads their labels) and prints each engine's
/// verdict as a Markdown table.
///
/// # Errors
/// An unknown game or bad options, a spec that does not build, a labeller that fails.
pub fn run(registry: &Registry, args: &OracleArgs) -> ToolResult<()> {
    if args.threads == 0 {
        return Err(ToolError::input("--threads: expected at least 1"));
    }
    if args.min_plies > args.max_plies {
        return Err(ToolError::input("--min-plies is more than --max-plies"));
    }
    let standard_connect_four =
        args.game == "connect-four" && args.options == GameOptions::default();
    if args.pons.is_some() && !standard_connect_four {
        return Err(ToolError::input("--pons labels Connect Four on its standard 7x6 board only"));
    }
    let entry = registry.get(&args.game)?;
    for spec in &args.engines {
        entry.check_spec(&args.options, spec)?;
    }
    let game = entry.load(&args.options)?;
    let openings = openings(&*game, args.positions, args.min_plies..=args.max_plies, args.seed)?;
    let labels = match args.labels.as_deref().and_then(|p| read_labels(p, &openings)) {
        Some(labels) => labels,
        None => {
            let started = Instant::now();
            let labels = match &args.pons {
                Some(solver) => pons_labels(solver, &openings)?,
                None => label(&*game, &openings, args.threads, args.memory)?,
            };
            eprintln!(
                "labelled {} positions in {:.1} s",
                labels.len(),
                started.elapsed().as_secs_f64()
            );
            if let Some(path) = &args.labels {
                write_labels(path, &labels)?;
            }
            labels
        }
    };
    println!("| engine | positions | keeps the value | optimal | mean time |");
    println!("|---|---|---|---|---|");
    for spec in &args.engines {
        let v = judge(&*game, &labels, spec, args.threads)?;
        let n = v.positions.max(1) as f64;
        println!(
            "| `{spec}` | {} | {:.1}% | {:.1}% | {:.0} ms |",
            v.positions,
            100.0 * v.keeps as f64 / n,
            100.0 * v.optimal as f64 / n,
            v.time.as_secs_f64() * 1000.0 / n
        );
    }
    Ok(())
}

/// Up to `count` distinct unfinished positions from random openings of `plies` moves (a
/// game that ends sooner is drawn again), as their moves in notation; seeded.
///
/// # Errors
/// A game that refuses its own moves (a bug in its notation).
pub fn openings(
    game: &dyn DynGame,
    count: usize,
    plies: std::ops::RangeInclusive<usize>,
    seed: u64,
) -> ToolResult<Vec<Vec<String>>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count.saturating_mul(100) {
        tries += 1;
        let length = rng.gen_range(plies.clone());
        let mut state = game.initial_state();
        let mut opening = Vec::new();
        while opening.len() < length && !game.is_terminal(&state)? {
            let moves = game.legal_moves(&state)?;
            let index = rng.gen_range(0..moves.len());
            state = game.apply_index(&state, index)?;
            opening.push(moves[index].clone());
        }
        if !game.is_terminal(&state)? && seen.insert(game.format_state(&state)?) {
            out.push(opening);
        }
    }
    Ok(out)
}

/// The position after `opening`.
fn replay(game: &dyn DynGame, opening: &[String]) -> ToolResult<State> {
    let mut state = game.initial_state();
    for mv in opening {
        state = game.apply(&state, mv)?;
    }
    Ok(state)
}

/// Every position's moves labelled by ply's solver, `threads` positions at once, each with
/// a table of `memory` MiB; progress on stderr.
///
/// # Errors
/// A game the solver cannot take (more than two players), or a bad opening.
pub fn label(
    game: &dyn DynGame,
    openings: &[Vec<String>],
    threads: usize,
    memory: usize,
) -> ToolResult<Vec<Labelled>> {
    let limits =
        SolveLimits { analyse: true, threads: 1, memory_mib: memory, ..SolveLimits::default() };
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let stop = Arc::new(AtomicBool::new(false));
    let labels = Mutex::new(vec![None; openings.len()]);
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(opening) = openings.get(i) else { return };
                let solved = replay(game, opening).and_then(|s| game.solve(&s, &limits, &stop));
                let report = match solved {
                    Ok(r) => r,
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        *crate::dynamic::lock(&failure) = Some(e);
                        return;
                    }
                };
                let moves = report.moves.unwrap_or_default();
                let moves = moves.into_iter().map(|m| (m.mv, score(m.value, m.plies))).collect();
                crate::dynamic::lock(&labels)[i] =
                    Some(Labelled { opening: opening.clone(), moves });
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(50) || n == openings.len() {
                    eprintln!("{n} of {} positions labelled", openings.len());
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let labels = labels.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(labels.into_iter().flatten().collect())
}

/// Connect Four's positions labelled by Pons' solver (`solver -a`, every column's score).
///
/// # Errors
/// A solver that does not start or answers other than one line of seven scores a position.
pub fn pons_labels(solver: &Path, openings: &[Vec<String>]) -> ToolResult<Vec<Labelled>> {
    let mut child = Command::new(solver)
        .arg("-a")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| ToolError::input(format!("{}: {e}", solver.display())))?;
    let mut stdin = child.stdin.take().ok_or_else(|| ToolError::internal("the solver's input"))?;
    let input: String = openings.iter().map(|o| o.concat() + "\n").collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let stdout = child.stdout.take().ok_or_else(|| ToolError::internal("the solver's output"))?;
    let mut labels = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| ToolError::input(format!("the solver: {e}")))?;
        let opening = openings.get(labels.len()).ok_or_else(|| {
            ToolError::input(format!("the solver answered more than {} lines", openings.len()))
        })?;
        let label = pons_label(opening, &line)
            .ok_or_else(|| ToolError::input(format!("the solver's line {line:?}")))?;
        labels.push(label);
        if labels.len().is_multiple_of(100) {
            eprintln!("{} of {} positions labelled", labels.len(), openings.len());
        }
    }
    let _ = writer.join();
    let _ = child.wait();
    if labels.len() != openings.len() {
        let what = format!("the solver answered {} of {} positions", labels.len(), openings.len());
        return Err(ToolError::input(what));
    }
    Ok(labels)
}

/// A line of `c4solver -a`: the position's columns played, then seven scores (-1000: a full
/// column); the starting position is a line of scores alone.
fn pons_label(opening: &[String], line: &str) -> Option<Labelled> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let scores = match fields.len() {
        8 if fields[0] == opening.concat() => &fields[1..],
        7 if opening.is_empty() => &fields[..],
        _ => return None,
    };
    let mut moves = Vec::new();
    for (column, text) in (1..=7).zip(scores) {
        let s: i64 = text.parse().ok()?;
        // Pons' score: positive a win, larger the sooner; ply's scores order the same way.
        if s != -1000 {
            moves.push((column.to_string(), s));
        }
    }
    Some(Labelled { opening: opening.to_vec(), moves })
}

/// The labels in `path` if it begins with `openings`' positions, in order (a run on fewer
/// positions of the same seed reads the first of a larger run's labels).
pub fn read_labels(path: &Path, openings: &[Vec<String>]) -> Option<Vec<Labelled>> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut labels: Vec<Labelled> = text.lines().filter_map(Labelled::parse).collect();
    let same =
        labels.len() >= openings.len() && labels.iter().zip(openings).all(|(l, o)| l.opening == *o);
    match same {
        true => {
            labels.truncate(openings.len());
            eprintln!("{} positions' labels read from {}", labels.len(), path.display());
            Some(labels)
        }
        false => {
            eprintln!("{} holds other positions: labelling again", path.display());
            None
        }
    }
}

/// Writes `labels` to `path`, one line a position.
///
/// # Errors
/// A file that cannot be written.
pub fn write_labels(path: &Path, labels: &[Labelled]) -> ToolResult<()> {
    let text: String = labels.iter().map(|l| l.line() + "\n").collect();
    std::fs::write(path, text)
        .map_err(|e| ToolError::file(path, format!("{}: {e}", path.display())))
}

/// `spec`'s move in every labelled position, `threads` positions at once, against the labels.
///
/// # Errors
/// A spec that does not build, or a search that fails.
pub fn judge(
    game: &dyn DynGame,
    labels: &[Labelled],
    spec: &AgentSpec,
    threads: usize,
) -> ToolResult<Verdict> {
    let next = AtomicUsize::new(0);
    let verdict = Mutex::new(Verdict::default());
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let (next, verdict, failure) = (&next, &verdict, &failure);
            scope.spawn(move || loop {
                // Once a search has failed, the others stop taking positions.
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(label) = labels.get(i) else { return };
                if crate::dynamic::lock(failure).is_some() {
                    return;
                }
                let found =
                    replay(game, &label.opening).and_then(|s| game.search(&s, spec, i as u64 + 1));
                let found = match found {
                    Ok(f) => f,
                    Err(e) => return *crate::dynamic::lock(failure) = Some(e),
                };
                let (Some(best), Some(got)) = (label.best(), label.score(&found.best_move)) else {
                    let what = format!("{} is not among the labelled moves", found.best_move);
                    return *crate::dynamic::lock(failure) = Some(ToolError::internal(what));
                };
                let mut v = crate::dynamic::lock(verdict);
                v.positions += 1;
                v.keeps += usize::from(got.signum() == best.signum());
                v.optimal += usize::from(got == best);
                v.time += found.elapsed;
                if v.positions.is_multiple_of(100) {
                    eprintln!("{spec}: {} positions", v.positions);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(verdict.into_inner().unwrap_or_else(|p| p.into_inner()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::GameEntry;

    fn tictactoe() -> Arc<dyn DynGame> {
        let mut registry = Registry::new();
        registry
            .add(GameEntry::new("tictactoe", "noughts and crosses", |_| Ok(ply::games::TicTacToe)));
        registry.get("tictactoe").unwrap().load(&GameOptions::default()).unwrap()
    }

    #[test]
    fn scores_order_wins_by_speed_and_keep_margins() {
        assert!(score(1, Some(3)) > score(1, Some(5)));
        assert!(score(1, Some(5)) > score(4, None));
        assert_eq!(score(1, None), 1);
        assert!(score(-1, Some(7)) > score(-1, Some(2)));
        assert_eq!(score(0, None), 0);
        assert_eq!(score(-6, None), -6);
    }

    #[test]
    fn labels_read_back_as_written() {
        let label = Labelled {
            opening: vec!["a1".into(), "b2".into()],
            moves: vec![("c3".into(), 999_995), ("a2".into(), 0), ("b1".into(), -4)],
        };
        assert_eq!(Labelled::parse(&label.line()), Some(label.clone()));
        let start = Labelled { opening: Vec::new(), moves: label.moves.clone() };
        assert_eq!(Labelled::parse(&start.line()), Some(start));
        assert_eq!(Labelled::parse("a1 b2 c3=1"), None);
    }

    #[test]
    fn a_label_file_serves_the_positions_it_begins_with() {
        let labels: Vec<Labelled> = (1..=3)
            .map(|i| Labelled { opening: vec![i.to_string()], moves: vec![("1".into(), i)] })
            .collect();
        let path = std::env::temp_dir().join(format!("ply-oracle-{}.txt", std::process::id()));
        write_labels(&path, &labels).unwrap();
        let openings: Vec<Vec<String>> = labels.iter().map(|l| l.opening.clone()).collect();
        assert_eq!(read_labels(&path, &openings[..2]), Some(labels[..2].to_vec()));
        assert_eq!(read_labels(&path, &openings), Some(labels.clone()));
        assert_eq!(read_labels(&path, &openings[1..]), None);
        assert_eq!(read_labels(&path, &[openings.clone(), openings.clone()].concat()), None);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn pons_lines_become_labels() {
        let opening = vec!["4".to_string(), "4".to_string()];
        let label = pons_label(&opening, "44 -2 -1 0 1 0 -1 -1000").unwrap();
        assert_eq!(label.moves.len(), 6);
        assert_eq!(label.best(), Some(1));
        assert_eq!(label.score("4"), Some(1));
        assert!(pons_label(&opening, "43 0 0 0 0 0 0 0").is_none());
    }

    /// Tic-tac-toe is a draw; every opening move keeps it, and the solver says so. A searcher
    /// that plays perfectly keeps the value everywhere; the labels judge real moves.
    #[test]
    fn the_solver_labels_and_a_perfect_search_keeps_every_value() {
        let game = tictactoe();
        let openings = openings(&*game, 30, 1..=4, 3).unwrap();
        assert_eq!(openings.len(), 30);
        let labels = label(&*game, &openings, 2, 1).unwrap();
        assert_eq!(labels.len(), 30);
        let start = label(&*game, &[Vec::new()], 1, 1).unwrap();
        assert!(start[0].moves.iter().all(|&(_, s)| s == 0), "{:?}", start[0]);
        // Some of these random openings are lost or won: the labels say who.
        assert!(labels.iter().any(|l| l.best().unwrap() != 0));
        let perfect: AgentSpec = "alphabeta:depth=9".parse().unwrap();
        let v = judge(&*game, &labels, &perfect, 2).unwrap();
        assert_eq!((v.positions, v.keeps), (30, 30));
        // A random mover drops values somewhere among thirty positions.
        let random: AgentSpec = "random".parse().unwrap();
        let v = judge(&*game, &labels, &random, 1).unwrap();
        assert!(v.keeps < 30, "{v:?}");
    }
}
