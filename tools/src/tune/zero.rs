//! Learning a game from its rules alone: `tune zero`, the AlphaZero loop over a
//! policy-value network ([`ply::eval::pv`]) and learned search ([`ply::search::puct`]).
//!
//! Each generation:
//!
//! 1. **Self-play**: the best network so far plays `--games` games against itself on every
//!    thread, Gumbel search (or PUCT with Dirichlet noise and visit-count sampling for the
//!    first plies) with `--sims` simulations a move, after a few random plies; every searched
//!    position is kept with the search's policy (PUCT's visit shares, Gumbel's improved
//!    policy) and, once the game ends, every player's result.
//! 2. **Training**: the trainee network (which keeps training across generations) takes
//!    `--steps` Adam steps on minibatches drawn from the last `--window` generations' samples:
//!    binary cross-entropy on each player's value, cross-entropy on the policy.
//! 3. **Gating**: the trainee plays the best network, each opening from every seat, until an
//!    SPRT (0 against 20 Elo, 10% error rates) decides or `--gate-pairs` openings are played;
//!    it replaces the best when the SPRT accepts it, or when the openings run out with the
//!    trainee ahead.
//!
//! Everything lives in the run directory (`--dir`): `best.pv` (the network to ship),
//! `best-G.pv` for each generation G that promoted one (for learning curves), `trainee.pv`,
//! `samples-G.bin` per generation and `log.csv` (one line per generation:
//! losses, the gate's record, whether the trainee was promoted, hours so far). A run that
//! stops goes on from its last finished generation when started again with the same
//! directory; the optimiser's moments start afresh then.
//!
//! Self-play spreads over machines with `--shard K/N` (a job array): each task plays its part
//! of the next generation's games with the run's best network and writes
//! `samples-G-K-of-N.bin`; the next call without `--shard` trains on every shard's file of the
//! generation instead of playing it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply::arena::{Sprt, SprtDecision};
use ply::eval::planes::{ActionSpace, Observation};
use ply::eval::pv::{PvActivations, PvModel, PvNet};
use ply::search::puct::{Mode, Noise, Puct};
use ply::search::{Agent, Budget, Position};
use ply::zobrist::mix64;
use ply::{MoveList, Player};

use crate::agents::learned::Learned;
use crate::agents::ToolGame;
use crate::error::{ToolError, ToolResult};
use crate::units::si;

/// The options of `tune zero`.
#[derive(clap::Args, Clone, Debug)]
pub struct ZeroArgs {
    /// The run directory: networks, samples and the log (created if missing; an existing
    /// run goes on).
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// Generations to run now (each: self-play, training, gating).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub generations: u32,
    /// Self-play games per generation.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub games: u32,
    /// The search that plays and labels the games: gumbel or puct.
    #[arg(long, value_name = "SEARCH", default_value = "gumbel", value_parser = ["gumbel", "puct"])]
    pub search: String,
    /// Simulations per move in self-play and gating.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub sims: u64,
    /// Root moves Gumbel search samples.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub considered: usize,
    /// Width of the network's first layer (a new run only).
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub hidden: usize,
    /// Generations of samples trained on.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub window: u32,
    /// Training steps per generation.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub steps: u32,
    /// Samples per training step.
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub batch: usize,
    /// Adam's learning rate.
    #[arg(long, value_name = "RATE", default_value_t = 0.001)]
    pub lr: f32,
    /// Uniformly random plies at the start of each game.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub random_plies: u32,
    /// PUCT: plies at the start (after the random ones) played in proportion to the visits.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub temperature_plies: u32,
    /// PUCT: the Dirichlet noise's concentration on the root's priors.
    #[arg(long, value_name = "ALPHA", default_value_t = 0.3)]
    pub alpha: f64,
    /// A game still going after this many plies is scored as a draw.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub max_plies: u32,
    /// Most openings of the gate (each played from every seat); 0 promotes every trainee.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub gate_pairs: u32,
    /// Games played at once (default: one per core).
    #[arg(long, default_value_t = super::generate::default_threads())]
    pub threads: usize,
    /// Seed of the games, the network's start and the minibatches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only shard K of N of the next generation's self-play games (game index % N ==
    /// K - 1) with the run's best network, write them to the run directory and stop; the next
    /// call without --shard trains on every shard's games. Shards and that call must share
    /// --seed, --games and, for a new run, --hidden.
    #[arg(long, value_name = "K/N", value_parser = crate::shard::parse_shard)]
    pub shard: Option<(usize, usize)>,
}

impl ZeroArgs {
    /// The command line's defaults, with the run directory `dir` (for programs that run
    /// `tune zero` without a command line).
    pub fn with_dir(dir: PathBuf) -> ZeroArgs {
        #[derive(clap::Parser)]
        struct Line {
            #[command(flatten)]
            args: ZeroArgs,
        }
        let dir = dir.into_os_string();
        <Line as clap::Parser>::parse_from([std::ffi::OsString::from("zero"), "--dir".into(), dir])
            .args
    }
}

/// One training position: the active inputs, the legal moves' policy entries with their
/// targets, and each player's result counted from the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct ZeroSample {
    /// Active inputs of the observation.
    pub active: Vec<u32>,
    /// Policy entries of the legal moves.
    pub actions: Vec<u32>,
    /// The search's policy over them.
    pub policy: Vec<f32>,
    /// Each player's reward in `[0, 1]`, the player to move first.
    pub values: Vec<f32>,
}

/// The first bytes of a samples file.
const SAMPLES_MAGIC: &[u8; 8] = b"PLYZS1\0\0";

/// Writes samples in the run's binary form.
pub fn write_samples(samples: &[ZeroSample]) -> Vec<u8> {
    let mut out = SAMPLES_MAGIC.to_vec();
    out.extend((samples.len() as u64).to_le_bytes());
    for s in samples {
        for list in [&s.active, &s.actions] {
            out.extend((list.len() as u32).to_le_bytes());
            list.iter().for_each(|x| out.extend(x.to_le_bytes()));
        }
        for list in [&s.policy, &s.values] {
            out.extend((list.len() as u32).to_le_bytes());
            list.iter().for_each(|x| out.extend(x.to_le_bytes()));
        }
    }
    out
}

/// Reads samples written by [`write_samples`], checking every length against the bytes left.
///
/// # Errors
/// [`ToolError::Input`] for bytes that are not such a file.
pub fn read_samples(bytes: &[u8]) -> ToolResult<Vec<ZeroSample>> {
    let bad = |what: &str| ToolError::input(format!("not a tune zero samples file: {what}"));
    let rest = bytes.strip_prefix(SAMPLES_MAGIC).ok_or_else(|| bad("no PLYZS1 header"))?;
    let mut reader = Reader { bytes: rest };
    let count = reader.u64().ok_or_else(|| bad("truncated"))?;
    let mut samples = Vec::new();
    for _ in 0..count {
        let mut words = || {
            let n = reader.u32()? as usize;
            let bytes = reader.take(n.checked_mul(4)?)?;
            Some(bytes.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect::<Vec<_>>())
        };
        let active = words().ok_or_else(|| bad("truncated"))?;
        let actions = words().ok_or_else(|| bad("truncated"))?;
        let policy = words().ok_or_else(|| bad("truncated"))?;
        let values = words().ok_or_else(|| bad("truncated"))?;
        let sample = ZeroSample {
            active: active.into_iter().map(u32::from_le_bytes).collect(),
            actions: actions.into_iter().map(u32::from_le_bytes).collect(),
            policy: policy.into_iter().map(f32::from_le_bytes).collect(),
            values: values.into_iter().map(f32::from_le_bytes).collect(),
        };
        if sample.actions.len() != sample.policy.len() {
            return Err(bad("a policy of another length than its moves"));
        }
        samples.push(sample);
    }
    if !reader.bytes.is_empty() {
        return Err(bad("bytes after the last sample"));
    }
    Ok(samples)
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Some(head)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8).map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes")))
    }
}

/// The learned search of a run's settings over `model`.
fn searcher<G: ToolGame>(args: &ZeroArgs, model: PvModel<G>, seed: u64, noise: bool) -> Puct<G> {
    let puct = match args.search.as_str() {
        "puct" => Puct::new(model)
            .with_noise(noise.then_some(Noise { alpha: args.alpha, fraction: 0.25 })),
        _ => Puct::gumbel(model).with_mode(Mode::Gumbel { considered: args.considered.max(1) }),
    };
    puct.with_seed(seed)
}

/// Plays one self-play game and returns its samples.
fn self_play<G: ToolGame>(
    game: &G,
    observation: &dyn Observation<G>,
    actions: ActionSpace,
    model: &PvModel<G>,
    args: &ZeroArgs,
    seed: u64,
) -> ToolResult<(Vec<ZeroSample>, u64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut agent = searcher(args, model.clone(), mix64(seed), true);
    let mut simulations = 0;
    let budget = Budget::iterations(args.sims.max(1));
    let players = game.num_players().max(1);
    let mut state = game.initial_state();
    let mut moves = MoveList::new();
    let mut kept: Vec<(ZeroSample, usize)> = Vec::new();
    let mut ply = 0;
    while game.outcome(&state).is_none() && ply < args.max_plies {
        game.generate_moves(&state, &mut moves);
        let mv = if ply < args.random_plies || moves.len() == 1 {
            moves[rng.gen_range(0..moves.len())]
        } else {
            let report = agent
                .choose(game, Position::new(&state), &budget)
                .map_err(|e| ToolError::internal(format!("self-play search: {e}")))?;
            simulations += report.iterations;
            let policy = agent.root_policy();
            let mut sample = ZeroSample {
                active: Vec::new(),
                actions: policy
                    .iter()
                    .map(|(m, _)| actions.index(game, &state, *m) as u32)
                    .collect(),
                policy: policy.iter().map(|(_, p)| *p).collect(),
                values: Vec::new(),
            };
            observation.observe(game, &state, &mut sample.active);
            kept.push((sample, game.to_move(&state).index() % players));
            let sampling =
                args.search == "puct" && ply < args.random_plies + args.temperature_plies;
            if sampling {
                let mut x = rng.gen::<f32>();
                let mut chosen = report.best_move;
                for (m, p) in policy {
                    if x < *p {
                        chosen = *m;
                        break;
                    }
                    x -= p;
                }
                chosen
            } else {
                report.best_move
            }
        };
        agent.observe(game, &state, mv);
        game.apply(&mut state, mv);
        ply += 1;
    }
    let outcome = game.outcome(&state);
    let reward = |seat: usize| {
        outcome.as_ref().map_or(0.5, |o| o.reward(Player(seat as u8), players)) as f32
    };
    let samples = kept
        .into_iter()
        .map(|(mut sample, mover)| {
            sample.values = (0..players).map(|r| reward((mover + r) % players)).collect();
            sample
        })
        .collect();
    Ok((samples, simulations))
}

/// Adam's state for one network.
struct Adam {
    m: PvNet,
    v: PvNet,
    step: i32,
}

impl Adam {
    fn new(net: &PvNet) -> Adam {
        let zeros = PvNet::zeros(net.inputs, net.hidden, net.players, net.actions, &net.tag);
        Adam { m: zeros.clone(), v: zeros, step: 0 }
    }

    /// One step along `grad` (already averaged), with decoupled weight decay; weights stay
    /// within what the integer form holds.
    fn step(&mut self, net: &mut PvNet, grad: &PvNet, lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const DECAY: f32 = 1e-5;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step);
        let c2 = 1.0 - B2.powi(self.step);
        let params = net.params_mut().into_iter();
        let moments = self.m.params_mut().into_iter().zip(self.v.params_mut());
        for ((w, g), (m, v)) in params.zip(grad.params()).zip(moments) {
            for i in 0..w.len() {
                m[i] = B1 * m[i] + (1.0 - B1) * g[i];
                v[i] = B2 * v[i] + (1.0 - B2) * g[i] * g[i];
                let update = (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
                w[i] = (w[i] - lr * (update + DECAY * w[i])).clamp(-60.0, 60.0);
            }
        }
    }
}

/// Mean value and policy losses of one minibatch.
#[derive(Clone, Copy, Debug, Default)]
struct Losses {
    value: f64,
    policy: f64,
}

/// Adds the gradient of `sample`'s loss to `grad` and returns its losses.
fn accumulate(
    net: &PvNet,
    sample: &ZeroSample,
    act: &mut PvActivations,
    grad: &mut PvNet,
) -> Losses {
    let actions: Vec<usize> = sample.actions.iter().map(|&a| a as usize).collect();
    net.forward_keeping(&sample.active, &actions, act);
    let mut losses = Losses::default();
    let d_values: Vec<f32> = act
        .values
        .iter()
        .zip(&sample.values)
        .map(|(&y, &t)| {
            let y = y.clamp(1e-6, 1.0 - 1e-6);
            losses.value -= f64::from(t * y.ln() + (1.0 - t) * (1.0 - y).ln());
            y - t
        })
        .collect();
    let top = act.logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let total: f32 = act.logits.iter().map(|l| (l - top).exp()).sum();
    let d_logits: Vec<f32> = act
        .logits
        .iter()
        .zip(&sample.policy)
        .map(|(&l, &t)| {
            let p = (l - top).exp() / total;
            losses.policy -= f64::from(t * p.max(1e-12).ln());
            p - t
        })
        .collect();
    net.backward(&sample.active, &actions, act, &d_values, &d_logits, grad);
    losses
}

/// `steps` Adam steps on minibatches of `samples`; the mean losses of the last tenth.
fn train(
    net: &mut PvNet,
    adam: &mut Adam,
    samples: &[ZeroSample],
    args: &ZeroArgs,
    rng: &mut ChaCha8Rng,
) -> Losses {
    let mut grad = PvNet::zeros(net.inputs, net.hidden, net.players, net.actions, &net.tag);
    let mut act = PvActivations::default();
    let mut recent = Losses::default();
    let mut counted = 0usize;
    let tail = args.steps - args.steps / 10;
    for step in 0..args.steps {
        grad.params_mut().into_iter().for_each(|p| p.iter_mut().for_each(|x| *x = 0.0));
        let mut losses = Losses::default();
        for _ in 0..args.batch {
            let sample = &samples[rng.gen_range(0..samples.len())];
            let l = accumulate(net, sample, &mut act, &mut grad);
            losses.value += l.value;
            losses.policy += l.policy;
        }
        let scale = 1.0 / args.batch as f32;
        grad.params_mut().into_iter().for_each(|p| p.iter_mut().for_each(|x| *x *= scale));
        adam.step(net, &grad, args.lr);
        if step >= tail {
            recent.value += losses.value;
            recent.policy += losses.policy;
            counted += args.batch;
        }
    }
    let n = counted.max(1) as f64;
    Losses { value: recent.value / n, policy: recent.policy / n }
}

/// The gate's record for the trainee: wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Record {
    wins: u64,
    draws: u64,
    losses: u64,
}

/// Plays the trainee against the best network, each opening from every seat, until the SPRT
/// decides or the openings run out.
fn gate<G: ToolGame>(
    game: &G,
    trainee: &PvModel<G>,
    best: &PvModel<G>,
    args: &ZeroArgs,
    generation: u32,
) -> ToolResult<(Record, bool)> {
    let sprt = Sprt::new(0.0, 20.0, 0.1, 0.1);
    let players = game.num_players().max(1);
    let record = Mutex::new(Record::default());
    let decided: Mutex<Option<SprtDecision>> = Mutex::new(None);
    let next = AtomicU64::new(0);
    let failure: Mutex<Option<ToolError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| loop {
                if decided.lock().unwrap_or_else(|p| p.into_inner()).is_some() {
                    return;
                }
                let opening = next.fetch_add(1, Ordering::Relaxed);
                if opening >= u64::from(args.gate_pairs) {
                    return;
                }
                let seed = mix64(args.seed ^ mix64(u64::from(generation) << 32 | opening) ^ 0x6a7e);
                for seat in 0..players {
                    match gate_game(game, trainee, best, args, seed, seat) {
                        Ok(reward) => {
                            let mut r = record.lock().unwrap_or_else(|p| p.into_inner());
                            match reward {
                                x if x >= 1.0 => r.wins += 1,
                                x if x <= 0.0 => r.losses += 1,
                                _ => r.draws += 1,
                            }
                            let decision = sprt.decide(r.wins, r.draws, r.losses);
                            if decision != SprtDecision::Continue {
                                *decided.lock().unwrap_or_else(|p| p.into_inner()) = Some(decision);
                            }
                        }
                        Err(e) => {
                            *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let record = record.into_inner().unwrap_or_else(|p| p.into_inner());
    let promote = match decided.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(SprtDecision::AcceptH1) => true,
        Some(_) => false,
        None => record.wins > record.losses,
    };
    Ok((record, promote))
}

/// One gate game from opening `seed`, the trainee in `seat`: the trainee's reward.
fn gate_game<G: ToolGame>(
    game: &G,
    trainee: &PvModel<G>,
    best: &PvModel<G>,
    args: &ZeroArgs,
    seed: u64,
    seat: usize,
) -> ToolResult<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let players = game.num_players().max(1);
    let mut agents: Vec<Puct<G>> = (0..players)
        .map(|p| {
            let model = if p == seat { trainee } else { best };
            searcher(args, model.clone(), mix64(seed ^ p as u64), false)
        })
        .collect();
    let budget = Budget::iterations(args.sims.max(1));
    let mut state = game.initial_state();
    let mut moves = MoveList::new();
    let mut ply = 0;
    while game.outcome(&state).is_none() && ply < args.max_plies {
        game.generate_moves(&state, &mut moves);
        let mv = if ply < args.random_plies.max(2) {
            moves[rng.gen_range(0..moves.len())]
        } else {
            let mover = game.to_move(&state).index() % players;
            let report = agents[mover]
                .choose(game, Position::new(&state), &budget)
                .map_err(|e| ToolError::internal(format!("gate search: {e}")))?;
            report.best_move
        };
        for agent in &mut agents {
            agent.observe(game, &state, mv);
        }
        game.apply(&mut state, mv);
        ply += 1;
    }
    Ok(game.outcome(&state).map_or(0.5, |o| o.reward(Player(seat as u8), players)))
}

/// What the run directory says of the run so far.
struct RunState {
    /// Generations finished.
    generation: u32,
    /// Hours spent in earlier calls.
    hours: f64,
}

fn read_state(dir: &Path) -> RunState {
    let log = std::fs::read_to_string(dir.join("log.csv")).unwrap_or_default();
    let last = log.lines().rfind(|l| !l.starts_with("generation"));
    let field =
        |i: usize| last.and_then(|l| l.split(',').nth(i)).and_then(|f| f.trim().parse().ok());
    RunState { generation: field(0).map_or(0, |g: f64| g as u32), hours: field(9).unwrap_or(0.0) }
}

/// The file of shard `k` of `n` of a generation's self-play.
fn shard_file(generation: u32, k: usize, n: usize) -> String {
    format!("samples-{generation}-{k}-of-{n}.bin")
}

/// The positions of a generation played in shards (`None` if none was), in shard order.
///
/// # Errors
/// A shard missing, shards of two different splits, or a file that cannot be read.
fn shard_samples(dir: &Path, generation: u32) -> ToolResult<Option<Vec<ZeroSample>>> {
    let prefix = format!("samples-{generation}-");
    let mut shards: Vec<(usize, usize, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| ToolError::file(dir, e))? {
        let path = entry.map_err(|e| ToolError::file(dir, e))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let Some(rest) = name.strip_prefix(&prefix).and_then(|r| r.strip_suffix(".bin")) else {
            continue;
        };
        if let Some((k, n)) = rest.split_once("-of-") {
            if let (Ok(k), Ok(n)) = (k.parse(), n.parse()) {
                shards.push((k, n, path));
            }
        }
    }
    let Some(&(_, n, _)) = shards.first() else { return Ok(None) };
    shards.sort();
    let ks: Vec<usize> = shards.iter().map(|s| s.0).collect();
    if shards.iter().any(|s| s.1 != n) || ks != (1..=n).collect::<Vec<_>>() {
        let found: Vec<String> = shards.iter().map(|(k, n, _)| format!("{k}/{n}")).collect();
        return Err(ToolError::input(format!(
            "generation {generation} was played in shards {} in {}: play every shard of one \
             split (--shard K/N for K = 1..N) before training on them",
            found.join(", "),
            dir.display()
        )));
    }
    let mut samples = Vec::new();
    for (_, _, path) in &shards {
        samples.extend(read_samples(&crate::files::read_bytes(path, 1 << 34)?)?);
    }
    eprintln!("generation {generation}: {} positions from {n} shards", samples.len());
    Ok(Some(samples))
}

fn write_file(path: &Path, bytes: &[u8]) -> ToolResult<()> {
    let temporary = path.with_extension("tmp");
    std::fs::write(&temporary, bytes)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| ToolError::file(path, e))
}

fn read_net(path: &Path) -> ToolResult<PvNet> {
    let bytes = crate::files::read_bytes(path, crate::files::MAX_BINARY)?;
    PvNet::from_bytes(&bytes).map_err(|e| ToolError::file(path, e))
}

/// `tune zero`: runs `args.generations` generations in `args.dir` (see the module docs).
///
/// # Errors
/// A game that cannot be observed, files that cannot be read or written, bad options.
pub(crate) fn run<G: ToolGame>(
    game: &G,
    name: &str,
    learned: &Learned<G>,
    args: &ZeroArgs,
) -> ToolResult<()> {
    if args.threads == 0 || args.games == 0 || args.steps == 0 || args.batch == 0 {
        return Err(ToolError::input("--threads, --games, --steps and --batch must be at least 1"));
    }
    if !(args.lr > 0.0 && args.lr < 1.0) {
        return Err(ToolError::input("--lr must be between 0 and 1"));
    }
    if !(1..=ply::eval::net::MAX_HIDDEN).contains(&args.hidden) {
        return Err(ToolError::input(format!(
            "--hidden must be from 1 to {}",
            ply::eval::net::MAX_HIDDEN
        )));
    }
    if !(args.alpha > 0.0 && args.alpha.is_finite()) {
        return Err(ToolError::input("--alpha must be a positive number"));
    }
    let (observation, actions) = learned.shape().map_err(ToolError::input)?;
    std::fs::create_dir_all(&args.dir).map_err(|e| ToolError::file(&args.dir, e))?;
    let players = game.num_players().max(1);
    let tag = PvModel::tag_for(&*observation, &actions);
    let (best_path, trainee_path) = (args.dir.join("best.pv"), args.dir.join("trainee.pv"));
    let mut best = if best_path.exists() {
        read_net(&best_path)?
    } else {
        let inputs = observation.inputs();
        PvNet::random(inputs, args.hidden, players, actions.len(), &tag, args.seed)
    };
    if best.tag != tag {
        return Err(ToolError::input(format!(
            "{} holds a network for {:?}, not for {name} ({tag:?})",
            args.dir.display(),
            best.tag
        )));
    }
    let mut trainee = if trainee_path.exists() { read_net(&trainee_path)? } else { best.clone() };
    let state = read_state(&args.dir);
    if let Some((k, n)) = args.shard {
        let generation = state.generation + 1;
        let model = learned.model(&best).map_err(|e| ToolError::internal(e.to_string()))?;
        let samples = play_generation(game, &*observation, actions, &model, args, generation)?;
        let path = args.dir.join(shard_file(generation, k, n));
        write_file(&path, &write_samples(&samples))?;
        eprintln!(
            "generation {generation}, shard {k}/{n}: {} positions in {}; once every shard is \
             played, run tune zero without --shard to train on them",
            samples.len(),
            path.display()
        );
        return Ok(());
    }
    let log_path = args.dir.join("log.csv");
    if !log_path.exists() {
        let header = "generation,games,samples,window,value_loss,policy_loss,gate_wins,gate_draws,gate_losses,hours,promoted\n";
        write_file(&log_path, header.as_bytes())?;
    }
    eprintln!(
        "tune zero: {name}, {} inputs, {} moves, {} players; {} search, {} simulations a move; \
         generation {} of this run next",
        observation.inputs(),
        actions.len(),
        players,
        args.search,
        args.sims,
        state.generation + 1
    );
    let mut rng = ChaCha8Rng::seed_from_u64(mix64(args.seed ^ u64::from(state.generation)));
    let mut adam = Adam::new(&trainee);
    let started = Instant::now();
    for generation in state.generation + 1..=state.generation + args.generations {
        let model = learned.model(&best).map_err(|e| ToolError::internal(e.to_string()))?;
        let samples = match shard_samples(&args.dir, generation)? {
            Some(samples) => samples,
            None => play_generation(game, &*observation, actions, &model, args, generation)?,
        };
        write_file(&args.dir.join(format!("samples-{generation}.bin")), &write_samples(&samples))?;
        let mut window = Vec::new();
        for g in generation.saturating_sub(args.window.max(1) - 1).max(1)..=generation {
            let path = args.dir.join(format!("samples-{g}.bin"));
            if path.exists() {
                window.extend(read_samples(&crate::files::read_bytes(&path, 1 << 34)?)?);
            }
        }
        if window.is_empty() {
            return Err(ToolError::input(format!(
                "generation {generation} kept no position to train on: every game ended within \
                 --random-plies {} or --max-plies {}",
                args.random_plies, args.max_plies
            )));
        }
        let losses = train(&mut trainee, &mut adam, &window, args, &mut rng);
        write_file(&trainee_path, &trainee.to_bytes())?;
        let candidate = learned.model(&trainee).map_err(|e| ToolError::internal(e.to_string()))?;
        let (record, promoted) = if args.gate_pairs == 0 {
            (Record::default(), true)
        } else {
            gate(game, &candidate, &model, args, generation)?
        };
        if promoted {
            best = trainee.clone();
            let bytes = best.to_bytes();
            write_file(&best_path, &bytes)?;
            write_file(&args.dir.join(format!("best-{generation}.pv")), &bytes)?;
        }
        let hours = state.hours + started.elapsed().as_secs_f64() / 3600.0;
        let line = format!(
            "{generation},{},{},{},{:.4},{:.4},{},{},{},{hours:.4},{}\n",
            args.games,
            samples.len(),
            window.len(),
            losses.value,
            losses.policy,
            record.wins,
            record.draws,
            record.losses,
            u8::from(promoted)
        );
        let mut log = std::fs::OpenOptions::new()
            .append(true)
            .open(&log_path)
            .map_err(|e| ToolError::file(&log_path, e))?;
        log.write_all(line.as_bytes()).map_err(|e| ToolError::file(&log_path, e))?;
        eprintln!(
            "generation {generation}: {} samples (window {}), value loss {:.3}, policy loss \
             {:.3}; gate {}-{}-{} (W-D-L) {}; {:.2} h",
            samples.len(),
            window.len(),
            losses.value,
            losses.policy,
            record.wins,
            record.draws,
            record.losses,
            if promoted { "promoted" } else { "kept the best" },
            hours
        );
    }
    eprintln!("best network: {}", best_path.display());
    Ok(())
}

/// Plays a generation's self-play games on every thread.
fn play_generation<G: ToolGame>(
    game: &G,
    observation: &dyn Observation<G>,
    actions: ActionSpace,
    model: &PvModel<G>,
    args: &ZeroArgs,
    generation: u32,
) -> ToolResult<Vec<ZeroSample>> {
    let indices: Vec<u64> =
        (0..u64::from(args.games)).filter(|&i| crate::shard::in_shard(args.shard, i)).collect();
    let bar = super::generate::progress_bar(indices.len() as u64);
    let next = AtomicU64::new(0);
    let samples = Mutex::new(Vec::new());
    let failure: Mutex<Option<ToolError>> = Mutex::new(None);
    let started = Instant::now();
    let count = AtomicU64::new(0);
    let simulations = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| loop {
                let next_index = next.fetch_add(1, Ordering::Relaxed) as usize;
                let Some(&index) = indices.get(next_index) else { return };
                if failure.lock().unwrap_or_else(|p| p.into_inner()).is_some() {
                    return;
                }
                let seed = mix64(args.seed ^ mix64(u64::from(generation) << 32 | index));
                match self_play(game, observation, actions, model, args, seed) {
                    Ok((game_samples, sims)) => {
                        simulations.fetch_add(sims, Ordering::Relaxed);
                        let n = count.fetch_add(game_samples.len() as u64, Ordering::Relaxed)
                            + game_samples.len() as u64;
                        samples
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push((index, game_samples));
                        let rate = n as f64 / started.elapsed().as_secs_f64().max(1e-9);
                        bar.set_message(format!("{} positions, {}/s", si(n as f64), si(rate)));
                        bar.inc(1);
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
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    let simulations = simulations.into_inner();
    eprintln!(
        "self-play: {} games, {} positions, {} simulations in {seconds:.1} s ({}/s on {} \
         threads)",
        indices.len(),
        count.into_inner(),
        simulations,
        si(simulations as f64 / seconds),
        args.threads
    );
    // In game order, so that a run is the same on any number of threads.
    let mut games = samples.into_inner().unwrap_or_else(|p| p.into_inner());
    games.sort_by_key(|(i, _)| *i);
    Ok(games.into_iter().flat_map(|(_, s)| s).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of one generation of one game with the smallest search and network, in `dir`.
    fn tiny(dir: &Path) -> ZeroArgs {
        ZeroArgs {
            generations: 1,
            games: 1,
            sims: 4,
            considered: 4,
            hidden: 8,
            window: 1,
            steps: 1,
            batch: 1,
            max_plies: 30,
            gate_pairs: 0,
            threads: 1,
            ..ZeroArgs::with_dir(dir.to_path_buf())
        }
    }

    #[test]
    fn bad_options_are_refused_before_anything_is_written() {
        let game = ply::games::TicTacToe;
        let learned = Learned::new(&game, None);
        let dir = std::env::temp_dir().join(format!("ply-zero-options-{}", std::process::id()));
        let base = || tiny(&dir);
        let bad = [
            ZeroArgs { hidden: 0, ..base() },
            ZeroArgs { hidden: 5000, ..base() },
            ZeroArgs { alpha: 0.0, ..base() },
            ZeroArgs { lr: 2.0, ..base() },
            ZeroArgs { games: 0, ..base() },
        ];
        for args in bad {
            let error = run(&game, "tictactoe", &learned, &args).unwrap_err();
            assert!(matches!(error, ToolError::Input(_)), "{error}");
            assert!(!dir.exists(), "nothing written for {error}");
        }
        // Games that end before any searched move leave nothing to train on: an error, no panic.
        let args = ZeroArgs { random_plies: 9, ..base() };
        let error = run(&game, "tictactoe", &learned, &args).unwrap_err().to_string();
        assert!(error.contains("no position to train on"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Shards of a generation's self-play, played apart, are what the next call trains on;
    /// a split with a shard missing is refused.
    #[test]
    fn a_generation_played_in_shards_is_trained_on() {
        let game = ply::games::TicTacToe;
        let learned = Learned::new(&game, None);
        let dir = std::env::temp_dir().join(format!("ply-zero-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let base = |shard| ZeroArgs { games: 5, max_plies: 400, shard, ..tiny(&dir) };
        let mut shards = Vec::new();
        for k in 1..=2 {
            run(&game, "tictactoe", &learned, &base(Some((k, 2)))).unwrap();
            let bytes = std::fs::read(dir.join(format!("samples-1-{k}-of-2.bin"))).unwrap();
            shards.push(read_samples(&bytes).unwrap());
        }
        assert!(!dir.join("log.csv").exists(), "a shard trains nothing");
        // Three games in the first shard (0, 2, 4), two in the second: tic-tac-toe's games
        // last at least five plies, each searched move a position.
        assert!(shards[0].len() >= 3 * 3 && shards[1].len() >= 2 * 3, "{}", shards[1].len());
        run(&game, "tictactoe", &learned, &base(None)).unwrap();
        let trained = read_samples(&std::fs::read(dir.join("samples-1.bin")).unwrap()).unwrap();
        assert_eq!(trained, shards.concat());
        let log = std::fs::read_to_string(dir.join("log.csv")).unwrap();
        assert_eq!(log.lines().count(), 2, "{log}");
        // Generation 2: one shard of three is not enough.
        run(&game, "tictactoe", &learned, &base(Some((2, 3)))).unwrap();
        let error = run(&game, "tictactoe", &learned, &base(None)).unwrap_err().to_string();
        assert!(error.contains("shards 2/3") && error.contains("--shard K/N"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn samples_round_trip_and_damaged_files_are_refused() {
        let samples = vec![
            ZeroSample {
                active: vec![1, 5, 9],
                actions: vec![0, 3],
                policy: vec![0.25, 0.75],
                values: vec![1.0, 0.0],
            },
            ZeroSample {
                active: vec![],
                actions: vec![2],
                policy: vec![1.0],
                values: vec![0.5, 0.5],
            },
        ];
        let bytes = write_samples(&samples);
        assert_eq!(read_samples(&bytes).unwrap(), samples);
        assert!(read_samples(&bytes[..bytes.len() - 1]).is_err());
        assert!(read_samples(b"PLYZS1\0\0\xff\xff\xff\xff\xff\xff\xff\xff").is_err());
        assert!(read_samples(b"nothing").is_err());
    }
}
