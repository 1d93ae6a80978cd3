//! Training positions by self-play: `tune generate`.
//!
//! Each game starts with a few uniformly random plies (so that games differ), then one engine
//! spec plays every seat to the end. The quiet positions after the random plies are kept,
//! labelled with the game's result and, with `--label SPEC`, with the value of a search of
//! each. Game `i` depends only on the seed and `i`, so games can be played on any number of
//! threads, in any order, and a run that was stopped goes on where it stopped: every finished
//! game is one line of the output file, and games already there are not played again.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use ply::games::mix64;
use ply::search::{Position, Value};
use ply::{MoveList, Player, Record};

use crate::registry::{AgentKit, ToolGame};
use crate::spec::AgentSpec;

/// The options of `tune generate`.
#[derive(clap::Args, Clone, Debug)]
pub struct GenerateArgs {
    /// Games to have in the output file (games already there count).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The engine that plays every seat.
    #[arg(long, value_name = "SPEC", default_value = "alphabeta:depth=4")]
    pub engine: AgentSpec,
    /// Uniformly random plies at the start of each game.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub random_plies: u32,
    /// A game still going after this many plies is stopped and counted as a draw.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub max_plies: u32,
    /// Also label each kept position with the value of this search (e.g.
    /// alphabeta:depth=6), from the side to move's view.
    #[arg(long, value_name = "SPEC")]
    pub label: Option<AgentSpec>,
    /// Seed of the random plies and the engines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The output file (JSON lines, one game per line); an existing file is extended.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// One game of training data: a line of the output file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameData {
    /// The game's number, from 0: with the seed, it determines the game.
    pub game: u64,
    /// The result, as [`ply::Outcome::reward`] for each player (1 win, 0.5 draw, 0 loss in
    /// a two-player game).
    pub rewards: Vec<f64>,
    /// The kept positions.
    pub positions: Vec<PositionData>,
}

/// A kept position and its labels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionData {
    /// The position in the game's notation ([`Notation::format_state`]).
    pub position: String,
    /// The player to move (0-based).
    pub to_move: usize,
    /// The value of the labelling search, from the side to move's view (none without
    /// `--label`, or where the only legal move is answered without a search):
    /// a heuristic score, or `±1e9` for a proven win or loss.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<f64>,
}

/// What a proven win is worth in [`PositionData::search`].
pub const PROVEN: f64 = 1e9;

/// Reads the games of a data file. A last line cut short (a run stopped mid-write) is
/// dropped; any other bad line is an error.
///
/// # Errors
/// If the file cannot be read or a line is not a game.
pub fn read_games(path: &Path) -> Result<Vec<GameData>, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let lines: Vec<String> = BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut games = Vec::with_capacity(lines.len());
    for (n, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameData>(line) {
            Ok(game) => games.push(game),
            Err(_) if n + 1 == lines.len() => break,
            Err(e) => return Err(format!("{}:{}: not a game: {e}", path.display(), n + 1)),
        }
    }
    Ok(games)
}

/// Plays game `index` of the run and returns its data.
///
/// # Errors
/// If an engine spec cannot be built or a search fails.
pub fn play_game<G: ToolGame>(
    game: &G,
    kit: &AgentKit<G>,
    args: &GenerateArgs,
    index: u64,
) -> Result<GameData, String> {
    let seed = mix64(args.seed ^ mix64(index));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let build = |spec: &AgentSpec, salt: u64| {
        kit.build(spec, mix64(seed ^ salt)).map_err(|e| format!("{spec}: {e}"))
    };
    let mut engine = build(&args.engine, 1)?;
    let mut labeller = args.label.as_ref().map(|spec| build(spec, 2)).transpose()?;
    let (budget, label_budget) = (args.engine.budget(), args.label.as_ref().map(AgentSpec::budget));
    let mut record = Record::new(game, game.initial_state());
    let mut positions = Vec::new();
    let mut moves = MoveList::new();
    let mut ply = 0;
    while record.outcome().is_none() && ply < args.max_plies {
        let state = record.state().clone();
        let mv = if ply < args.random_plies {
            moves.clear();
            game.generate_moves(&state, &mut moves);
            moves[rng.gen_range(0..moves.len())]
        } else {
            if game.is_quiet(&state) {
                let search = match (labeller.as_mut(), &label_budget) {
                    (Some(agent), Some(budget)) => {
                        let position = Position::with_history(&state, record.hashes());
                        let report =
                            agent.choose(game, position, budget).map_err(|e| e.to_string())?;
                        value_label(report.value)
                    }
                    _ => None,
                };
                positions.push(PositionData {
                    position: game.format_state(&state),
                    to_move: game.to_move(&state).index(),
                    search,
                });
            }
            let position = Position::with_history(&state, record.hashes());
            engine.choose(game, position, &budget).map_err(|e| e.to_string())?.best_move
        };
        record.play(mv).map_err(|e| e.to_string())?;
        ply += 1;
    }
    let players = game.num_players();
    let rewards = match record.outcome() {
        Some(outcome) => (0..players).map(|p| outcome.reward(Player::new(p), players)).collect(),
        None => vec![0.5; players],
    };
    Ok(GameData { game: index, rewards, positions })
}

/// A search value as a label: heuristic scores as they are, proven results as `±PROVEN`.
fn value_label(value: Value) -> Option<f64> {
    match value {
        Value::Heuristic(v) => Some(v),
        Value::Win(_) => Some(PROVEN),
        Value::Loss(_) => Some(-PROVEN),
        Value::Draw => Some(0.0),
        _ => None,
    }
}

/// `tune generate`: plays the games the output file does not have yet, on `args.threads`
/// threads, appending each finished game as a line; a progress bar on a terminal.
///
/// # Errors
/// If the file cannot be read or written, or a game cannot be played.
pub fn run<G: ToolGame>(game: &G, kit: &AgentKit<G>, args: &GenerateArgs) -> Result<(), String> {
    if args.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    // The specs are checked before anything is written.
    kit.build(&args.engine, 0).map_err(|e| format!("--engine {}: {e}", args.engine))?;
    if let Some(spec) = &args.label {
        kit.build(spec, 0).map_err(|e| format!("--label {spec}: {e}"))?;
    }
    let done: HashSet<u64> = if args.out.exists() {
        read_games(&args.out)?.into_iter().map(|g| g.game).collect()
    } else {
        HashSet::new()
    };
    let todo: Vec<u64> = (0..args.games).filter(|i| !done.contains(i)).collect();
    if !done.is_empty() {
        eprintln!(
            "{}: {} games already there, {} to play",
            args.out.display(),
            done.len(),
            todo.len()
        );
    }
    // A line cut short by an earlier stop is replaced: rewrite the complete ones first.
    if args.out.exists() {
        let games = read_games(&args.out)?;
        let text: String = games
            .iter()
            .map(|g| serde_json::to_string(g).expect("game data serialises") + "\n")
            .collect();
        std::fs::write(&args.out, text)
            .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let file = Mutex::new(file);
    let bar = progress_bar(todo.len() as u64);
    let next = Mutex::new(todo.into_iter());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| loop {
                if failure.lock().expect("no panics").is_some() {
                    return;
                }
                let Some(index) = next.lock().expect("no panics").next() else { return };
                let line = play_game(game, kit, args, index)
                    .map(|data| serde_json::to_string(&data).expect("game data serialises"));
                let written = line.and_then(|line| {
                    let mut file = file.lock().expect("no panics");
                    writeln!(file, "{line}")
                        .and_then(|()| file.flush())
                        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))
                });
                match written {
                    Ok(()) => bar.inc(1),
                    Err(e) => {
                        *failure.lock().expect("no panics") = Some(e);
                        return;
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    match failure.into_inner().expect("no panics") {
        Some(e) => Err(e),
        None => {
            let games = read_games(&args.out)?;
            let positions: usize = games.iter().map(|g| g.positions.len()).sum();
            eprintln!("{}: {} games, {positions} positions", args.out.display(), games.len());
            Ok(())
        }
    }
}

fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("[{bar:30}] {pos}/{len} games  (eta {eta})")
        .expect("a valid template")
        .progress_chars("=> ");
    bar.set_style(style);
    bar
}
