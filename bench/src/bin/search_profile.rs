//! Where a search's nodes go: the shipped checkers or draughts engine searches each of a set
//! of positions for a fixed time (or nodes), and the program prints, per position, the depth
//! reached, the nodes and the growth of the last iteration, then the whole set's counts by
//! kind ([`SearchCounts`]): interior, quiescence and leaf nodes, table cuts, how often each
//! pruning fired, how often reduced and null-window searches were searched again, and how
//! often the first move cut. Beside an anchor's `info` output on the same positions (the arena
//! with `--openings FILE --max-plies 1`), it says where the plies go.
//!
//! ```text
//! cargo run --release -p ply-bench --bin search_profile -- --game draughts --sample 40 \
//!     --seed 1 --print > positions.txt
//! cargo run --release -p ply-bench --bin search_profile -- --game draughts \
//!     --positions positions.txt --ms 1000
//! ```
//!
//! `--spec alphabeta:probcut=50,lmr=true,lmrfirst=1` searches with those options instead of
//! the shipped engine's (on the same network). `--sample N` takes `N` positions from games of the engine at depth 4 against itself after
//! six seeded random plies (four from each game, at plies 20, 30, 40 and 50, where the side
//! to move has a choice); `--records FILE --at 100,140` takes them from an arena's results
//! file instead (each game's position at those plies, the opening's counted, where the side to
//! move has a choice), so that a match's late middle games and endgames can be searched again
//! beside the anchor's; `--print` writes them, one a line, instead of searching them.

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Parser;
use ply::eval::Evaluator;
use ply::search::alphabeta::{AlphaBeta, SearchCounts};
use ply::search::{Agent, Budget, Position};
use ply::{Game, MoveList, Notation};
use ply_checkers::{EnglishCheckers, Rules};
use ply_draughts::InternationalDraughts;
use ply_tools::arena::results::read_records;
use ply_tools::spec::{AgentSpec, Algorithm};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Where the shipped engine's nodes go, position by position and in all.
#[derive(Parser, Debug)]
#[command(name = "search_profile")]
struct Args {
    /// `checkers` (standard rules) or `draughts` (international).
    #[arg(long)]
    game: String,
    /// A file of positions in the game's notation, one a line (`#` comments skipped).
    #[arg(long, conflicts_with = "sample")]
    positions: Option<PathBuf>,
    /// Take this many positions from the engine's own games instead (a multiple of 4).
    #[arg(long, conflicts_with = "records")]
    sample: Option<usize>,
    /// Take the positions from the games of an arena results file instead (see `--at`).
    #[arg(long, conflicts_with = "positions")]
    records: Option<PathBuf>,
    /// With `--records`: the plies of each game (its opening's counted) whose positions are
    /// taken, where the side to move has a choice [default: 100,140].
    #[arg(long, value_delimiter = ',')]
    at: Option<Vec<usize>>,
    /// The seed of the sampled games' random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the positions instead of searching them.
    #[arg(long)]
    print: bool,
    /// Milliseconds a position.
    #[arg(long, default_value_t = 1000, conflicts_with = "nodes")]
    ms: u64,
    /// Nodes a position, instead of a time.
    #[arg(long)]
    nodes: Option<u64>,
    /// The search's options as an alpha-beta agent spec (`alphabeta:probcut=50,lmr=true,...`)
    /// instead of the shipped engine's; the evaluation stays the engine's network.
    #[arg(long)]
    spec: Option<AgentSpec>,
}

/// The plies of a sampled game at which a position is taken.
const SAMPLE_PLIES: [usize; 4] = [20, 30, 40, 50];

/// Random plies at the start of each sampled game.
const RANDOM_PLIES: usize = 6;

/// What one position's search reached: its last completed iteration's depth, the nodes, the
/// nodes of the iteration before, and the counts.
struct Profile {
    depth: u32,
    nodes: u64,
    before: u64,
    ms: f64,
    counts: SearchCounts,
}

/// `N` positions from the engine's games against itself at depth 4, after seeded random
/// plies; a game that ends before the last sampled ply is replaced by the next seed's.
fn sample<G: Game, E: Evaluator<G>>(
    game: &G,
    engine: &mut AlphaBeta<E>,
    count: usize,
    seed: u64,
) -> Result<Vec<G::State>, String> {
    let mut positions = Vec::new();
    let mut moves = MoveList::new();
    let mut seed = seed;
    while positions.len() < count {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        seed += 1;
        let mut state = game.initial_state();
        let mut taken = Vec::new();
        for ply in 0..=SAMPLE_PLIES[SAMPLE_PLIES.len() - 1] {
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            if SAMPLE_PLIES.contains(&ply) && moves.len() > 1 {
                taken.push(state.clone());
            }
            let mv = if ply < RANDOM_PLIES {
                moves[rng.gen_range(0..moves.len())]
            } else {
                engine
                    .choose(game, Position::new(&state), &Budget::depth(4))
                    .map_err(|e| e.to_string())?
                    .best_move
            };
            game.apply(&mut state, mv);
        }
        if taken.len() == SAMPLE_PLIES.len() {
            positions.extend(taken);
        }
    }
    positions.truncate(count);
    Ok(positions)
}

/// The positions of the games in an arena results file at the plies `at` (the opening's
/// counted), where the game goes on and the side to move has more than one move.
fn from_records<G: Game + Notation>(
    game: &G,
    path: &Path,
    at: &[usize],
) -> Result<Vec<G::State>, String> {
    let (records, _) = read_records(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut positions = Vec::new();
    let mut moves = MoveList::new();
    for r in &records {
        let bad = |what: &str, e: &dyn Display| {
            format!("game {} of {}: {what}: {e}", r.index, path.display())
        };
        let mut state = game.parse_state(&r.start).map_err(|e| bad("its start", &e))?;
        let mut ply = r.opening_moves.len();
        for text in std::iter::once(None).chain(r.moves.iter().map(Some)) {
            if let Some(text) = text {
                let mv = game.parse_move(&state, text).map_err(|e| bad(text, &e))?;
                game.apply(&mut state, mv);
                ply += 1;
            }
            if at.contains(&ply) && game.outcome(&state).is_none() {
                game.generate_moves(&state, &mut moves);
                if moves.len() > 1 {
                    positions.push(state.clone());
                }
            }
        }
    }
    Ok(positions)
}

/// One search of `state` under `budget` with a fresh table, and what it reached.
fn profile<G: Game, E: Evaluator<G> + Clone>(
    game: &G,
    engine: &AlphaBeta<E>,
    state: &G::State,
    budget: &Budget,
) -> Result<Profile, String> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let mut engine = AlphaBeta::with_options(engine.options().clone())
        .with_evaluator(engine.evaluator().clone())
        .with_info(Box::new(move |info| {
            let mut seen = sink.lock().unwrap_or_else(|e| e.into_inner());
            seen.push((info.depth, info.nodes, info.elapsed, info.counts));
        }));
    // The table is set up before the clock starts, as between moves of a game.
    Agent::<G>::new_game(&mut engine);
    engine.choose(game, Position::new(state), budget).map_err(|e| e.to_string())?;
    let seen = seen.lock().unwrap_or_else(|e| e.into_inner());
    let Some(&(depth, nodes, elapsed, counts)) = seen.last() else {
        return Err("no iteration completed".to_string());
    };
    let before = seen.len().checked_sub(2).map_or(0, |i| seen[i].1);
    Ok(Profile { depth, nodes, before, ms: elapsed.as_secs_f64() * 1e3, counts })
}

/// `part` as a percentage of `whole`.
fn share(part: u64, whole: u64) -> String {
    match whole {
        0 => "-".to_string(),
        _ => format!("{:.1}%", 100.0 * part as f64 / whole as f64),
    }
}

/// Prints the set's totals: the mean depth and nodes, the growth of the last iteration, and
/// the counts by kind.
fn summary(profiles: &[Profile]) {
    let n = profiles.len() as f64;
    let mut c = SearchCounts::default();
    for p in profiles {
        let q = &p.counts;
        for (total, part) in [
            (&mut c.interior, q.interior),
            (&mut c.quiescence, q.quiescence),
            (&mut c.leaves, q.leaves),
            (&mut c.table_cuts, q.table_cuts),
            (&mut c.solved, q.solved),
            (&mut c.null_tries, q.null_tries),
            (&mut c.null_cuts, q.null_cuts),
            (&mut c.probcut_tries, q.probcut_tries),
            (&mut c.probcut_cuts, q.probcut_cuts),
            (&mut c.reduced, q.reduced),
            (&mut c.reduced_again, q.reduced_again),
            (&mut c.null_windows, q.null_windows),
            (&mut c.widened, q.widened),
            (&mut c.futile, q.futile),
            (&mut c.cutoffs, q.cutoffs),
            (&mut c.first_cutoffs, q.first_cutoffs),
        ] {
            *total += part;
        }
    }
    let nodes: u64 = profiles.iter().map(|p| p.nodes).sum();
    let depth = profiles.iter().map(|p| f64::from(p.depth)).sum::<f64>() / n;
    // The geometric mean of the last iteration's growth (nodes to it over nodes before it).
    let growth = profiles
        .iter()
        .filter(|p| p.before > 0)
        .map(|p| (p.nodes as f64 / p.before as f64).ln())
        .collect::<Vec<_>>();
    let growth = (growth.iter().sum::<f64>() / growth.len().max(1) as f64).exp();
    let row =
        |name: &str, value: &dyn Display, note: &str| println!("| {name} | {value} | {note} |");
    println!("\n| over {} positions | value | of |", profiles.len());
    println!("|---|---:|---|");
    row("depth (mean)", &format!("{depth:.2}"), "last completed iteration");
    row("nodes (mean)", &format!("{:.0}", nodes as f64 / n), "");
    row("last iteration's growth", &format!("{growth:.2}"), "nodes to it / nodes before it");
    row("interior", &share(c.interior, nodes), "nodes");
    row("quiescence", &share(c.quiescence, nodes), "nodes");
    row("leaves", &share(c.leaves, nodes), "nodes");
    row("table cuts", &share(c.table_cuts, c.interior), "interior nodes");
    row("solved", &share(c.solved, nodes), "nodes");
    row("first move cuts", &share(c.first_cutoffs, c.cutoffs), "cutoffs");
    row("null-window searches widened", &share(c.widened, c.null_windows), "null-window searches");
    row("reduced moves", &share(c.reduced, c.null_windows), "null-window searches");
    row("reduced and searched again", &share(c.reduced_again, c.reduced), "reduced moves");
    row("ProbCut tries", &share(c.probcut_tries, c.interior), "interior nodes");
    row("ProbCut cuts", &share(c.probcut_cuts, c.probcut_tries), "tries");
    row("null-move cuts", &share(c.null_cuts, c.null_tries), "tries");
    row("futile moves skipped", &c.futile, "");
}

/// Searches (or prints) the positions of `game` with `engine`.
fn run<G: Game + Notation, E: Evaluator<G> + Clone>(
    args: &Args,
    game: &G,
    mut engine: AlphaBeta<E>,
) -> Result<(), String> {
    if let Some(spec) = &args.spec {
        if spec.algorithm != Algorithm::AlphaBeta {
            return Err(format!("--spec {spec}: an alphabeta spec, not {}", spec.algorithm.name()));
        }
        let eval = engine.evaluator().clone();
        engine = AlphaBeta::with_options(spec.alphabeta_options()).with_evaluator(eval);
    }
    if args.at.is_some() && args.records.is_none() {
        return Err("--at takes the plies of the games of --records FILE: give it".to_string());
    }
    let positions = match (&args.positions, args.sample) {
        (Some(path), _) => std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| game.parse_state(l).map_err(|e| format!("bad position {l:?}: {e}")))
            .collect::<Result<Vec<_>, _>>()?,
        (None, Some(n)) => sample(game, &mut engine, n, args.seed)?,
        (None, None) => match &args.records {
            Some(path) => from_records(game, path, args.at.as_deref().unwrap_or(&[100, 140]))?,
            None => return Err("give --positions FILE, --sample N or --records FILE".to_string()),
        },
    };
    if positions.is_empty() {
        return Err("no positions to search".to_string());
    }
    if args.print {
        for p in &positions {
            println!("{}", game.format_state(p));
        }
        return Ok(());
    }
    let budget = match args.nodes {
        Some(n) => Budget::nodes(n),
        None => Budget::time(Duration::from_millis(args.ms)),
    };
    println!("| # | depth | nodes | ms | growth |");
    println!("|---:|---:|---:|---:|---:|");
    let mut profiles = Vec::new();
    for (i, state) in positions.iter().enumerate() {
        let p = profile(game, &engine, state, &budget)?;
        let growth = match p.before {
            0 => "-".to_string(),
            b => format!("{:.2}", p.nodes as f64 / b as f64),
        };
        println!("| {} | {} | {} | {:.0} | {growth} |", i + 1, p.depth, p.nodes, p.ms);
        profiles.push(p);
    }
    summary(&profiles);
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.game.as_str() {
        "checkers" => EnglishCheckers::new(8, Rules::Standard)
            .map_err(|e| e.to_string())
            .and_then(|g| run(&args, &g, ply_checkers::engine::engine())),
        "draughts" => run(&args, &InternationalDraughts::new(), ply_draughts::engine::engine()),
        other => Err(format!("unknown game {other:?}: checkers or draughts")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("search_profile: {e}");
            ExitCode::FAILURE
        }
    }
}
