//! How often ply's searches keep Connect Four's exact value, judged by Pascal Pons' solver:
//! positions from random openings, every column's exact score from `c4solver -a`, then each
//! engine's move in each position.
//!
//! ```text
//! SOLVER=$(../shared/peers/connect4/build.sh)
//! cargo run --release --example connect_four_oracle -- --solver $SOLVER --positions 1000 \
//!     --labels c4-labels.txt --engine mcts:time=100ms --engine alphabeta:time=100ms \
//!     --engine gumbel:time=100ms
//! ```
//!
//! A move *keeps the value* when its column's score has the sign of the best column's (a won
//! position stays won, a drawn one drawn); it is *optimal* when its score is the best (the
//! fastest win, the slowest loss). Labels are cached in `--labels FILE`, one line a position
//! (`MOVES S1 .. S7`, as the solver writes them), and read back instead of solving again.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply::games::ConnectFour;
use ply::search::Position;
use ply::{Game, MoveList, Notation};
use ply_tools::registry::GameOptions;
use ply_tools::spec::AgentSpec;

/// Connect Four positions judged by an exact solver.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// The solver (`c4solver`, built by ../shared/peers/connect4/build.sh).
    #[arg(long, value_name = "PATH")]
    solver: PathBuf,
    /// Positions to judge.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    positions: usize,
    /// Fewest random moves of an opening.
    #[arg(long, value_name = "N", default_value_t = 10)]
    min_plies: usize,
    /// Most random moves of an opening.
    #[arg(long, value_name = "N", default_value_t = 24)]
    max_plies: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Engines to judge (agent specs; their time or iteration limit is the budget).
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<AgentSpec>,
    /// Positions searched at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Cache of the solver's labels (read if there, else written).
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
}

/// A position and every column's exact score (-1000: full).
struct Labelled {
    moves: String,
    scores: [i32; 7],
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("connect_four_oracle: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Distinct positions from random openings, as the columns played ("4453").
fn openings(args: &Args) -> Vec<String> {
    let game = ConnectFour::standard();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    let (low, high) = (args.min_plies.min(41), args.max_plies.clamp(args.min_plies.min(41), 41));
    let mut tries = 0;
    while out.len() < args.positions && tries < args.positions * 100 {
        tries += 1;
        let plies = rng.gen_range(low..=high);
        let mut state = game.initial_state();
        let mut text = String::new();
        for _ in 0..plies {
            if game.outcome(&state).is_some() {
                break;
            }
            game.generate_moves(&state, &mut moves);
            let mv = moves[rng.gen_range(0..moves.len())];
            text += &game.format_move(&state, mv);
            game.apply(&mut state, mv);
        }
        if game.outcome(&state).is_none() && seen.insert(text.clone()) {
            out.push(text);
        }
    }
    out
}

fn solve(args: &Args, positions: &[String]) -> Result<Vec<Labelled>, String> {
    if let Some(path) = args.labels.as_ref().filter(|p| p.exists()) {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let labels: Vec<Labelled> = text.lines().filter_map(parse_label).collect();
        if labels.len() >= positions.len()
            && labels.iter().zip(positions).all(|(l, p)| l.moves == *p)
        {
            eprintln!("{} positions' labels read from {}", positions.len(), path.display());
            return Ok(labels.into_iter().take(positions.len()).collect());
        }
        eprintln!("{} holds other positions: solving again", path.display());
    }
    let started = Instant::now();
    let mut child = Command::new(&args.solver)
        .arg("-a")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", args.solver.display()))?;
    let mut stdin = child.stdin.take().ok_or("the solver's input")?;
    let input = positions.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let stdout = child.stdout.take().ok_or("the solver's output")?;
    let mut labels = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let label = parse_label(&line).ok_or_else(|| format!("solver line {line:?}"))?;
        labels.push(label);
        if labels.len() % 100 == 0 {
            eprintln!("{} of {} solved", labels.len(), positions.len());
        }
    }
    writer.join().map_err(|_| "writer")?.map_err(|e| e.to_string())?;
    child.wait().map_err(|e| e.to_string())?;
    if labels.len() != positions.len() {
        return Err(format!(
            "the solver answered {} of {} positions",
            labels.len(),
            positions.len()
        ));
    }
    eprintln!("solved {} positions in {:.1} s", labels.len(), started.elapsed().as_secs_f64());
    if let Some(path) = &args.labels {
        let text: String = labels
            .iter()
            .map(|l| {
                let scores: Vec<String> = l.scores.iter().map(i32::to_string).collect();
                format!("{} {}\n", l.moves, scores.join(" "))
            })
            .collect();
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(labels)
}

/// `MOVES S1 .. S7`; the starting position is a line of scores alone.
fn parse_label(line: &str) -> Option<Labelled> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let (moves, numbers) = match fields.len() {
        8 => (fields[0].to_string(), &fields[1..]),
        7 => (String::new(), &fields[..]),
        _ => return None,
    };
    let mut scores = [0; 7];
    for (s, f) in scores.iter_mut().zip(numbers) {
        *s = f.parse().ok()?;
    }
    Some(Labelled { moves, scores })
}

fn run(args: &Args) -> Result<(), String> {
    let positions = openings(args);
    let labels = solve(args, &positions)?;
    let entry = ply_bundle::connect_four();
    let game = entry.build(&GameOptions::default()).map_err(|e| e.to_string())?;
    let kit = entry.kit_for(&game, &GameOptions::default());
    println!("| engine | positions | keeps the value | optimal | mean time |");
    println!("|---|---|---|---|---|");
    for spec in &args.engines {
        kit.build(spec, 1).map_err(|e| format!("{spec}: {e}"))?;
        let next = AtomicUsize::new(0);
        let tally = Mutex::new((0usize, 0usize, Duration::ZERO));
        let failure = Mutex::new(None::<String>);
        std::thread::scope(|scope| {
            for t in 0..args.threads.max(1) {
                let (kit, game, labels, next, tally, failure) =
                    (&kit, &game, &labels, &next, &tally, &failure);
                scope.spawn(move || {
                    let mut agent = match kit.build(spec, t as u64 + 1) {
                        Ok(a) => a,
                        Err(e) => return *failure.lock().unwrap() = Some(e.to_string()),
                    };
                    let budget = spec.budget();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(label) = labels.get(i) else { return };
                        let mut state = game.initial_state();
                        for c in label.moves.chars() {
                            let mv =
                                game.parse_move(&state, &c.to_string()).expect("a legal column");
                            game.apply(&mut state, mv);
                        }
                        agent.new_game();
                        let report = match agent.choose(game, Position::new(&state), &budget) {
                            Ok(r) => r,
                            Err(e) => return *failure.lock().unwrap() = Some(e.to_string()),
                        };
                        let best = *label.scores.iter().max().expect("seven columns");
                        let got = label.scores[usize::from(report.best_move)];
                        let mut t = tally.lock().unwrap();
                        t.0 += usize::from(got.signum() == best.signum());
                        t.1 += usize::from(got == best);
                        t.2 += report.elapsed;
                        if (i + 1) % 100 == 0 {
                            eprintln!("{spec}: {} positions", i + 1);
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().unwrap() {
            return Err(format!("{spec}: {e}"));
        }
        let (keeps, optimal, time) = tally.into_inner().unwrap();
        let n = labels.len().max(1);
        println!(
            "| `{spec}` | {} | {:.1}% | {:.1}% | {:.0} ms |",
            labels.len(),
            100.0 * keeps as f64 / n as f64,
            100.0 * optimal as f64 / n as f64,
            time.as_secs_f64() * 1000.0 / n as f64
        );
    }
    Ok(())
}
