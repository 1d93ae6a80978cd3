//! Training a game's neural evaluation: `tune train`.
//!
//! The network ([`ply::eval::net::Network`]: the game's inputs -> H -> 32 -> 32 -> 1, later
//! layers per phase bucket) is fitted to the positions of `tune generate` files: its output,
//! read as the log-odds that the player to move wins, should predict a label mixing the game
//! result and the search's score (`--search-weight`). The loss is the mean squared error
//! between the sigmoid of the output and the label; minibatches are split over every core,
//! the steps are Adam's, about one game in `--holdout-every` is held out (drawn by a hash of
//! its number), and the network of the epoch with the lowest held-out loss is written.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use ply::eval::net::{Activations, NetInputs, Network, MAX_HIDDEN};

use super::data::{is_held_out, DataReader, StateCodec};
use super::generate::default_threads;
use crate::agents::ToolGame;
use crate::error::ToolError;

/// The options of `tune train`.
#[derive(clap::Args, Clone, Debug)]
pub struct TrainArgs {
    /// Data files written by `tune generate` (repeatable).
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Start from this network instead of random weights.
    #[arg(long, value_name = "FILE")]
    pub start: Option<PathBuf>,
    /// Width of the first layer.
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// Phase buckets, for inputs that split phases more than one way: random weights get
    /// this many, and a start network with fewer has each bucket split into equal copies (a
    /// multiple of its count). Default: the start network's, or the game's.
    #[arg(long, value_name = "N")]
    pub buckets: Option<usize>,
    /// Passes over the training positions, at most.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Stop after this many epochs without a lower held-out loss.
    #[arg(long, default_value_t = 3)]
    pub patience: usize,
    /// Adam's step size (halved after each epoch without a lower held-out loss).
    #[arg(long, default_value_t = 0.001)]
    pub learning_rate: f32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// How much of each label comes from the search's score instead of the game result,
    /// from 0 (results only) to 1 (scores only).
    #[arg(long, default_value_t = 0.5)]
    pub search_weight: f32,
    /// Search score units per unit of log-odds, to turn a score into a label.
    #[arg(long, default_value_t = 100.0)]
    pub search_scale: f32,
    /// Hold out about one game in N to measure the fit (drawn by a hash of the game's number, so
    /// each shard of a run holds out its share).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub holdout_every: u64,
    /// Threads (default: one per core).
    #[arg(long, default_value_t = default_threads())]
    pub threads: usize,
    /// Read at most this many positions.
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// Seed of the first weights and the shuffling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Positions as their active inputs, bucket and label.
#[derive(Default)]
struct Samples {
    /// Where each position's inputs start in `inputs`; one more than the positions.
    starts: Vec<u32>,
    inputs: Vec<u16>,
    buckets: Vec<u8>,
    labels: Vec<f32>,
}

impl Samples {
    fn new() -> Samples {
        Samples { starts: vec![0], ..Samples::default() }
    }

    fn len(&self) -> usize {
        self.labels.len()
    }

    fn get(&self, i: usize) -> (&[u16], usize, f32) {
        let (a, b) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        (&self.inputs[a..b], usize::from(self.buckets[i]), self.labels[i])
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The squared error of `net` on position `i` of `set`, and its derivative in the output.
fn error(
    net: &Network,
    set: &Samples,
    i: usize,
    active: &mut Vec<usize>,
    act: &mut Activations,
) -> (f32, f32) {
    let (inputs, bucket, label) = set.get(i);
    active.clear();
    active.extend(inputs.iter().map(|&x| usize::from(x)));
    let p = sigmoid(net.forward_keeping(active, bucket, act));
    ((p - label) * (p - label), 2.0 * (p - label) * p * (1.0 - p))
}

/// The mean squared error of `net` over `set`, on `threads` threads.
fn mean_loss(net: &Network, set: &Samples, threads: usize) -> f64 {
    if set.len() == 0 {
        return 0.0;
    }
    let chunk = set.len().div_ceil(threads);
    let total: f64 = std::thread::scope(|scope| {
        let parts: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let (mut active, mut act) = (Vec::new(), Activations::new(net.hidden));
                    (t * chunk..((t + 1) * chunk).min(set.len()))
                        .map(|i| f64::from(error(net, set, i, &mut active, &mut act).0))
                        .sum::<f64>()
                })
            })
            .collect();
        parts.into_iter().map(|p| p.join().unwrap_or(0.0)).sum()
    });
    total / set.len() as f64
}

/// Adam's moments for every parameter.
struct Adam {
    m: Network,
    v: Network,
    t: i32,
}

impl Adam {
    fn step(&mut self, net: &mut Network, grad: &Network, rate: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        let params = net.params_mut();
        let (ms, vs) = (self.m.params_mut(), self.v.params_mut());
        for (((w, g), m), v) in params.into_iter().zip(grad.params()).zip(ms).zip(vs) {
            for i in 0..w.len() {
                m[i] = B1 * m[i] + (1.0 - B1) * g[i];
                v[i] = B2 * v[i] + (1.0 - B2) * g[i] * g[i];
                w[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
            }
        }
    }
}

/// The network training starts from (`--start`, its buckets split for `--buckets`, or random
/// weights) and the inputs split into its buckets.
fn start_network<G: ToolGame, I: NetInputs<G>>(
    inputs: &I,
    args: &TrainArgs,
) -> crate::error::ToolResult<(Network, I)> {
    let start = match &args.start {
        Some(path) => {
            let bytes = crate::files::read_bytes(path, crate::files::MAX_BINARY)?;
            let net = Network::from_bytes(&bytes)
                .map_err(|e| ToolError::Input(format!("{}: {e}", path.display())))?;
            if net.inputs != inputs.inputs() {
                return Err(ToolError::Input(format!(
                    "{}: {} inputs, this game's network has {}",
                    path.display(),
                    net.inputs,
                    inputs.inputs()
                )));
            }
            Some(net)
        }
        None => None,
    };
    let buckets = args.buckets.or(start.as_ref().map(|n| n.buckets)).unwrap_or(inputs.buckets());
    let inputs = match buckets == inputs.buckets() {
        true => inputs.clone(),
        false => inputs.with_buckets(buckets).ok_or_else(|| {
            ToolError::Input(format!(
                "this game's network inputs do not split into {buckets} phase buckets \
                 (they have {})",
                inputs.buckets()
            ))
        })?,
    };
    let net = match start {
        None => Network::random(inputs.inputs(), args.hidden, buckets, args.seed),
        Some(net) if net.buckets == buckets => net,
        Some(net) if buckets.is_multiple_of(net.buckets) => net
            .split_buckets(buckets / net.buckets)
            .map_err(|e| ToolError::Input(format!("--buckets {buckets}: {e}")))?,
        Some(net) => {
            return Err(ToolError::Input(format!(
                "--buckets {buckets} is not a multiple of the start network's {}",
                net.buckets
            )))
        }
    };
    Ok((net, inputs))
}

/// `tune train`: reads the data files, trains the network and writes the best epoch's.
///
/// # Errors
/// Bad options, a file that cannot be read or written, or no positions.
pub fn run<G: ToolGame, I: NetInputs<G>>(
    game: &G,
    codec: StateCodec<G>,
    inputs: &I,
    args: &TrainArgs,
) -> crate::error::ToolResult<()> {
    if !(0.0..=1.0).contains(&args.search_weight) {
        return Err(ToolError::input("--search-weight must be between 0 and 1"));
    }
    if !(1..=MAX_HIDDEN).contains(&args.hidden) {
        return Err(ToolError::Input(format!("--hidden must be from 1 to {MAX_HIDDEN}")));
    }
    if args.holdout_every < 2 || args.threads == 0 || args.batch == 0 {
        return Err(ToolError::input(
            "--holdout-every must be at least 2, --threads and --batch at least 1",
        ));
    }
    if inputs.inputs() > usize::from(u16::MAX) {
        return Err(ToolError::Input(format!(
            "{} inputs: more than this trainer stores",
            inputs.inputs()
        )));
    }
    let (net, inputs) = start_network::<G, I>(inputs, args)?;
    let inputs = &inputs;
    let started = Instant::now();
    let (mut train, mut held_out) = (Samples::new(), Samples::new());
    let limit = args.max_positions.unwrap_or(usize::MAX);
    let mut read = 0;
    'files: for path in &args.data {
        let mut reader = DataReader::open(path)?;
        if reader.header().state_bytes != codec.state_bytes(game) {
            return Err(ToolError::Input(format!(
                "{}: holds {}",
                path.display(),
                reader.header().game
            )));
        }
        while let Some(block) = reader.next_block()? {
            let set = if is_held_out(block.game, args.holdout_every) {
                &mut held_out
            } else {
                &mut train
            };
            for sample in &block.samples {
                if read >= limit {
                    break 'files;
                }
                read += 1;
                let state = codec.decode(game, &sample.state).map_err(|e| {
                    ToolError::Input(format!("{}: game {}: {e}", path.display(), block.game))
                })?;
                let bucket = inputs.active(game, &state, &mut |i| set.inputs.push(i as u16));
                set.starts.push(set.inputs.len() as u32);
                set.buckets.push(bucket.min(255) as u8);
                let result = sample.reward() as f32;
                let label = match sample.search() {
                    Some(s) if s.is_infinite() => {
                        let searched = if s > 0.0 { 1.0 } else { 0.0 };
                        (1.0 - args.search_weight) * result + args.search_weight * searched
                    }
                    Some(s) => {
                        let searched = sigmoid(s as f32 / args.search_scale);
                        (1.0 - args.search_weight) * result + args.search_weight * searched
                    }
                    None => result,
                };
                set.labels.push(label);
            }
        }
    }
    if train.len() == 0 {
        return Err(ToolError::input("no training positions in the data"));
    }
    let mut net = net;
    eprintln!(
        "{} training positions, {} held out (read in {:.1} s); network {} -> {} -> 32 -> 32 -> 1 \
         x {} buckets, {} parameters; {} threads",
        train.len(),
        held_out.len(),
        started.elapsed().as_secs_f64(),
        net.inputs,
        net.hidden,
        net.buckets,
        net.size(),
        args.threads
    );
    let threads = args.threads;
    let eval_set = if held_out.len() > 0 { &held_out } else { &train };
    let mut best = (mean_loss(&net, eval_set, threads), net.clone());
    eprintln!("start: held-out loss {:.5}", best.0);
    let mut adam = Adam {
        m: Network::zeros(net.inputs, net.hidden, net.buckets),
        v: Network::zeros(net.inputs, net.hidden, net.buckets),
        t: 0,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let (mut rate, mut stale) = (args.learning_rate, 0);
    for epoch in 1..=args.epochs {
        let epoch_start = Instant::now();
        order.shuffle(&mut rng);
        let bar = progress_bar(order.len().div_ceil(args.batch) as u64, epoch);
        let mut train_loss = 0.0f64;
        for batch in order.chunks(args.batch) {
            let chunk = batch.len().div_ceil(threads);
            let scale = 1.0 / batch.len() as f32;
            let net_ref = &net;
            let train_ref = &train;
            let parts: Vec<(Network, f64)> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .map(|part| {
                        scope.spawn(move || {
                            let mut grad =
                                Network::zeros(net_ref.inputs, net_ref.hidden, net_ref.buckets);
                            let (mut active, mut act) =
                                (Vec::new(), Activations::new(net_ref.hidden));
                            let mut loss = 0.0f64;
                            for &i in part {
                                let (e, d) = error(net_ref, train_ref, i, &mut active, &mut act);
                                loss += f64::from(e);
                                let (_, bucket, _) = train_ref.get(i);
                                net_ref.backward(&active, bucket, &act, d * scale, &mut grad);
                            }
                            (grad, loss)
                        })
                    })
                    .collect();
                handles.into_iter().filter_map(|h| h.join().ok()).collect()
            });
            let mut parts = parts.into_iter();
            let Some((mut grad, mut loss)) = parts.next() else { continue };
            for (g, l) in parts {
                for (a, b) in grad.params_mut().into_iter().zip(g.params()) {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                }
                loss += l;
            }
            train_loss += loss;
            adam.step(&mut net, &grad, rate);
            bar.inc(1);
        }
        bar.finish_and_clear();
        let held = mean_loss(&net, eval_set, threads);
        let better = held < best.0;
        eprintln!(
            "epoch {epoch}: training loss {:.5}, held-out loss {held:.5}{} ({:.0} s, rate {rate})",
            train_loss / train.len() as f64,
            if better { " (best)" } else { "" },
            epoch_start.elapsed().as_secs_f64()
        );
        if better {
            best = (held, net.clone());
            stale = 0;
        } else {
            stale += 1;
            rate /= 2.0;
            if stale >= args.patience {
                break;
            }
        }
    }
    std::fs::write(&args.out, best.1.to_bytes()).map_err(|e| {
        ToolError::file(&args.out, format!("cannot write {}: {e}", args.out.display()))
    })?;
    eprintln!(
        "{}: held-out loss {:.5} (in {:.0} s)",
        args.out.display(),
        best.0,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn progress_bar(batches: u64, epoch: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(batches), ProgressDrawTarget::stderr());
    let template = format!("epoch {epoch} [{{bar:30}}] {{pos}}/{{len}} batches (eta {{eta}})");
    let style =
        ProgressStyle::with_template(&template).expect("a valid template").progress_chars("=> ");
    bar.set_style(style);
    bar
}
