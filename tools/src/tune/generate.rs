//! Training positions by self-play: `tune generate`.
//!
//! Each game starts with a few uniformly random plies (so that games differ), then one engine
//! spec plays every seat to the end. The quiet positions after the random plies are kept,
//! each once in a file ([`super::data`]), labelled with the game's result and with the score
//! of the search that chose the move there (or, with `--label SPEC`, of a separate search).
//! Game `i` depends only on the seed and `i` (for an engine without a clock), so games can be
//! played on any number of threads, in any order, and on several machines (`--shard K/N`,
//! then `tune merge`); a run that was stopped goes on where it stopped, since every finished
//! game is one block of the output file and games already there are not played again.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply::search::{Position, Value};
use ply::zobrist::mix64;
use ply::{MoveList, Player, Record};

use super::data::{
    result_byte, DataFile, GameBlock, Header, Sample, StateCodec, NO_SCORE, SCORE_PROVEN,
};
use crate::agents::{AgentKit, ToolGame};
use crate::error::ToolError;
use crate::shard::{in_shard, parse_shard};
use crate::spec::AgentSpec;
use crate::units::si;

/// The options of `tune generate`.
#[derive(clap::Args, Clone, Debug)]
pub struct GenerateArgs {
    /// Games in the run (with --shard, this shard's part of them); games already in the
    /// output file count.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The engine that plays every seat; its search's score labels each position.
    #[arg(long, value_name = "SPEC", default_value = "alphabeta:depth=4,tt=1,book=off")]
    pub engine: AgentSpec,
    /// Uniformly random plies at the start of each game.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub random_plies: u32,
    /// After the random plies, the chance that a ply plays a random move instead of the
    /// engine's (the position is still labelled by the engine's search): games that
    /// would transpose into one another part again, so fewer positions are duplicates.
    #[arg(long, value_name = "P", default_value_t = 0.0)]
    pub random_rate: f64,
    /// A game still going after this many plies is stopped and counted as a draw.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub max_plies: u32,
    /// Label each kept position with the score of this search (e.g. alphabeta:depth=8)
    /// instead of the engine's.
    #[arg(long, value_name = "SPEC")]
    pub label: Option<AgentSpec>,
    /// Seed of the random plies and the engines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long, default_value_t = default_threads())]
    pub threads: usize,
    /// Play only shard K of N (games with index % N == K - 1), for job arrays; combine the
    /// shards' files with `tune merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// The output file; an existing file of the same game is extended.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// One thread per core.
pub(crate) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// A search value as a stored score: heuristic scores clamped, proven results as
/// `±SCORE_PROVEN`.
fn score(value: Value) -> i16 {
    let limit = f64::from(SCORE_PROVEN - 1);
    match value {
        Value::Heuristic(v) => v.clamp(-limit, limit).round() as i16,
        Value::Win(_) => SCORE_PROVEN,
        Value::Loss(_) => -SCORE_PROVEN,
        Value::Draw => 0,
        _ => NO_SCORE,
    }
}

/// Plays game `index` of the run and returns its positions.
///
/// # Errors
/// If an engine spec cannot be built or a search fails.
pub fn play_game<G: ToolGame>(
    game: &G,
    kit: &AgentKit<G>,
    codec: StateCodec<G>,
    args: &GenerateArgs,
    index: u64,
) -> crate::error::ToolResult<GameBlock> {
    let seed = mix64(args.seed ^ mix64(index));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let build = |spec: &AgentSpec, salt: u64| {
        kit.build(spec, mix64(seed ^ salt)).map_err(|e| ToolError::spec(spec, e))
    };
    let mut engine = build(&args.engine, 1)?;
    let mut labeller = args.label.as_ref().map(|spec| build(spec, 2)).transpose()?;
    let (budget, label_budget) = (args.engine.budget(), args.label.as_ref().map(AgentSpec::budget));
    let mut record = Record::new(game, game.initial_state());
    let mut kept: Vec<(Vec<u8>, Player, i16)> = Vec::new();
    let mut moves = MoveList::new();
    let mut ply = 0;
    while record.outcome().is_none() && ply < args.max_plies {
        let state = record.state().clone();
        let mv = if ply < args.random_plies {
            moves.clear();
            game.generate_moves(&state, &mut moves);
            moves[rng.gen_range(0..moves.len())]
        } else {
            let position = Position::with_history(&state, record.hashes());
            let report = engine
                .choose(game, position, &budget)
                .map_err(|e| ToolError::search(&args.engine, e))?;
            if game.is_quiet(&state) {
                let value = match (labeller.as_mut(), &label_budget) {
                    (Some(agent), Some(budget)) => {
                        let position = Position::with_history(&state, record.hashes());
                        let label = args.label.as_ref().expect("a labeller has a spec");
                        let report = agent.choose(game, position, budget);
                        report.map_err(|e| ToolError::search(label, e))?.value
                    }
                    _ => report.value,
                };
                let mut bytes = Vec::new();
                codec.encode(game, &state, &mut bytes);
                kept.push((bytes, game.to_move(&state), score(value)));
            }
            if args.random_rate > 0.0 && rng.gen_bool(args.random_rate) {
                moves.clear();
                game.generate_moves(&state, &mut moves);
                moves[rng.gen_range(0..moves.len())]
            } else {
                report.best_move
            }
        };
        record.play(mv).map_err(ToolError::internal)?;
        ply += 1;
    }
    let players = game.num_players();
    let reward = |p: Player| record.outcome().map_or(0.5, |o| o.reward(p, players));
    let samples = kept
        .into_iter()
        .map(|(state, mover, score)| Sample { state, result: result_byte(reward(mover)), score })
        .collect();
    Ok(GameBlock { game: index, samples })
}

/// How often `tune generate` writes a progress line where stderr is not a terminal.
const LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// `tune generate`: plays the games of the run (or of its shard) that the output file does
/// not have yet, on `args.threads` threads, appending each finished game's new positions;
/// progress on stderr (a bar on a terminal, else a line a minute). `name` is the game and
/// its options as on the command line.
///
/// # Errors
/// If the file cannot be read or written, or a game cannot be played.
pub fn run<G: ToolGame>(
    game: &G,
    name: &str,
    kit: &AgentKit<G>,
    codec: StateCodec<G>,
    args: &GenerateArgs,
) -> crate::error::ToolResult<()> {
    if args.threads == 0 {
        return Err(ToolError::input("--threads must be at least 1"));
    }
    if !(0.0..=1.0).contains(&args.random_rate) {
        return Err(ToolError::input("--random-rate must be from 0 to 1"));
    }
    // The specs are checked before anything is written.
    kit.build(&args.engine, 0).map_err(|e| ToolError::spec(&args.engine, e))?;
    if let Some(spec) = &args.label {
        kit.build(spec, 0).map_err(|e| ToolError::spec(spec, e))?;
    }
    let header = Header {
        game: name.to_string(),
        state_bytes: codec.state_bytes(game),
        engine: args.engine.to_string(),
        seed: args.seed,
    };
    let mut file = DataFile::open_append(&args.out, header)?;
    let todo: Vec<u64> = (0..args.games)
        .filter(|&i| in_shard(args.shard, i) && !file.games().contains(&i))
        .collect();
    let (had_games, had_positions) = (file.games().len(), file.positions());
    if had_games > 0 {
        eprintln!(
            "{}: {had_games} games ({had_positions} positions) already there, {} to play",
            args.out.display(),
            todo.len()
        );
    }
    let started = Instant::now();
    let (total, bar) = (todo.len(), progress_bar(todo.len() as u64));
    // Where stderr is not a terminal (a log, a cluster job) a line a minute instead of the bar.
    let log = bar.is_hidden().then(|| Mutex::new(Instant::now()));
    let next = Mutex::new(todo.into_iter());
    let file = Mutex::new(&mut file);
    let failure: Mutex<Option<ToolError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| loop {
                if failure.lock().unwrap_or_else(|p| p.into_inner()).is_some() {
                    return;
                }
                let Some(index) = next.lock().unwrap_or_else(|p| p.into_inner()).next() else {
                    return;
                };
                let written = play_game(game, kit, codec, args, index).and_then(|block| {
                    let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
                    file.write(block)?;
                    Ok(file.positions() - had_positions)
                });
                match written {
                    Ok(new) => {
                        let rate = new as f64 / started.elapsed().as_secs_f64().max(1e-9);
                        bar.set_message(format!("{} positions, {}/s", si(new as f64), si(rate)));
                        bar.inc(1);
                        if let Some(log) = &log {
                            let mut last = log.lock().unwrap_or_else(|p| p.into_inner());
                            if last.elapsed() >= LOG_EVERY {
                                *last = Instant::now();
                                eprintln!(
                                    "{}: {}/{total} games, {} new positions, {}/s, {:.0} s",
                                    args.out.display(),
                                    bar.position(),
                                    si(new as f64),
                                    si(rate),
                                    started.elapsed().as_secs_f64()
                                );
                            }
                        }
                    }
                    Err(e) => {
                        *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        return;
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let file = file.into_inner().unwrap_or_else(|p| p.into_inner());
    let new = file.positions() - had_positions;
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{}: {} games, {} positions; this run: {} new positions ({} duplicates dropped) in \
         {seconds:.1} s, {}/s on {} threads",
        args.out.display(),
        file.games().len(),
        file.positions(),
        new,
        file.duplicates(),
        si(new as f64 / seconds.max(1e-9)),
        args.threads,
    );
    Ok(())
}

/// A bar of `len` games on stderr when it is a terminal (hidden otherwise).
pub(crate) fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("[{bar:30}] {pos}/{len} games, {msg}  (eta {eta})")
        .expect("a valid template")
        .progress_chars("=> ");
    bar.set_style(style);
    bar
}
