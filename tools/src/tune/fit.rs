//! Fitting the weights of a linear evaluation: `tune fit`.
//!
//! Texel-style tuning by logistic regression: the evaluation of a position, a weighted sum of
//! its features, is read as the log-odds that the side to move wins, and the weights are
//! those that best predict the labels (the game results, or a mix with a deeper search's
//! values). Minibatch gradient descent with Adam minimises the cross-entropy plus an L2
//! penalty; about one game in ten (by default, drawn by a hash of its number) is held out, its
//! loss is reported after each epoch, and the weights of the epoch with the lowest held-out
//! loss are kept (training stops after `--patience` epochs without a better one).

use std::collections::HashMap;
use std::path::PathBuf;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use ply::eval::{Features, Weights};

use super::data::{is_held_out, DataReader, StateCodec};
use crate::agents::ToolGame;
use crate::error::{ToolError, ToolResult};

/// The options of `tune fit`.
#[derive(clap::Args, Clone, Debug)]
pub struct FitArgs {
    /// Data files written by `tune generate` (repeatable).
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The feature set to fit, where the game lists several (draughts: learned, regions).
    #[arg(long, value_name = "NAME")]
    pub features: Option<String>,
    /// Start from these weights instead of zeros (the features the file does not name start
    /// at zero).
    #[arg(long, value_name = "FILE")]
    pub start: Option<PathBuf>,
    /// Passes over the training positions, at most.
    #[arg(long, default_value_t = 100)]
    pub epochs: usize,
    /// Stop after this many epochs without a lower held-out loss.
    #[arg(long, default_value_t = 10)]
    pub patience: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.01, value_parser = positive)]
    pub learning_rate: f64,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-5, value_parser = not_negative)]
    pub l2: f64,
    /// Hold out about one game in N to measure the fit (drawn by a hash of the game's number, so
    /// each shard of a run holds out its share).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub holdout_every: u64,
    /// How much of each label comes from the labelling search instead of the game result,
    /// from 0 (results only) to 1 (search only).
    #[arg(long, default_value_t = 0.0, value_parser = fraction)]
    pub search_weight: f64,
    /// Search score units per unit of log-odds, to turn a search value into a label.
    #[arg(long, default_value_t = 100.0, value_parser = positive)]
    pub search_scale: f64,
    /// Score units per unit of log-odds in the written evaluation.
    #[arg(long, default_value_t = 100.0, value_parser = positive_f32)]
    pub scale: f32,
    /// Seed of the shuffling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Parses a finite number above zero.
fn positive(text: &str) -> ToolResult<f64> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(ToolError::Input(format!("{text:?} is not a number above 0"))),
    }
}

fn positive_f32(text: &str) -> ToolResult<f32> {
    positive(text).and_then(|x| match x as f32 {
        y if y.is_finite() && y > 0.0 => Ok(y),
        _ => Err(ToolError::Input(format!("{text:?} is out of range"))),
    })
}

/// Parses a finite number of at least zero.
fn not_negative(text: &str) -> ToolResult<f64> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(ToolError::Input(format!("{text:?} is not a number of at least 0"))),
    }
}

/// Parses a number from 0 to 1.
fn fraction(text: &str) -> ToolResult<f64> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(ToolError::Input(format!("{text:?} is not a number from 0 to 1"))),
    }
}

/// The largest start weight `tune fit` takes, in log-odds per unit of feature: beyond it the
/// logistic model saturates and its gradient vanishes, so nothing would be fitted.
pub const MAX_START_WEIGHT: f64 = 100.0;

/// Positions as sparse feature rows with a label each.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Where each row's entries start in `index`/`value`; one more than the rows.
    starts: Vec<usize>,
    index: Vec<u32>,
    value: Vec<f32>,
    /// The probability that the side to move wins, per row.
    labels: Vec<f32>,
}

impl Dataset {
    /// An empty dataset.
    pub fn new() -> Dataset {
        Dataset { starts: vec![0], ..Dataset::default() }
    }

    /// Adds a row: its nonzero `(feature, value)` entries and its label in `[0, 1]`.
    pub fn push(&mut self, entries: impl IntoIterator<Item = (usize, f32)>, label: f32) {
        for (i, v) in entries {
            self.index.push(i as u32);
            self.value.push(v);
        }
        self.starts.push(self.index.len());
        self.labels.push(label);
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// True if there is no row.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The weighted sum of row `r`.
    fn dot(&self, r: usize, weights: &[f64]) -> f64 {
        let (a, b) = (self.starts[r], self.starts[r + 1]);
        self.index[a..b]
            .iter()
            .zip(&self.value[a..b])
            .map(|(&i, &v)| weights[i as usize] * f64::from(v))
            .sum()
    }

    /// The mean cross-entropy of `weights` over the rows.
    pub fn loss(&self, weights: &[f64]) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let total: f64 = (0..self.len())
            .map(|r| cross_entropy(sigmoid(self.dot(r, weights)), f64::from(self.labels[r])))
            .sum();
        total / self.len() as f64
    }

    /// The mean cross-entropy of predicting `p` for every row.
    pub fn constant_loss(&self, p: f64) -> f64 {
        let total: f64 = self.labels.iter().map(|&y| cross_entropy(p, f64::from(y))).sum();
        total / self.len().max(1) as f64
    }

    /// The mean label.
    pub fn mean_label(&self) -> f64 {
        self.labels.iter().map(|&y| f64::from(y)).sum::<f64>() / self.len().max(1) as f64
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn cross_entropy(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The settings of [`fit`].
#[derive(Clone, Debug)]
pub struct Training {
    /// Passes over the training rows, at most.
    pub epochs: usize,
    /// Epochs without a better held-out loss before stopping.
    pub patience: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// Rows per step.
    pub batch: usize,
    /// L2 penalty.
    pub l2: f64,
    /// Seed of the shuffling.
    pub seed: u64,
}

/// What [`fit`] found.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The weights of the best epoch, in log-odds per unit of feature.
    pub weights: Vec<f64>,
    /// The held-out loss of those weights.
    pub held_out_loss: f64,
    /// The training loss of those weights.
    pub train_loss: f64,
    /// The epoch they come from (1-based; 0 for the starting weights).
    pub best_epoch: usize,
    /// The epochs run.
    pub epochs: usize,
}

/// Fits weights to `train` by minibatch Adam from `start`, keeping those with the lowest loss
/// on `held_out`; `report(epoch, train_loss, held_out_loss)` after every epoch.
pub fn fit(
    train: &Dataset,
    held_out: &Dataset,
    start: Vec<f64>,
    settings: &Training,
    mut report: impl FnMut(usize, f64, f64),
) -> Fitted {
    let n = start.len();
    let mut weights = start;
    let (mut m, mut v, mut grad) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut step = 0i32;
    let mut best = Fitted {
        weights: weights.clone(),
        held_out_loss: held_out.loss(&weights),
        train_loss: train.loss(&weights),
        best_epoch: 0,
        epochs: 0,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut since_best = 0;
    for epoch in 1..=settings.epochs {
        order.shuffle(&mut rng);
        for batch in order.chunks(settings.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &r in batch {
                let d = sigmoid(train.dot(r, &weights)) - f64::from(train.labels[r]);
                let (a, b) = (train.starts[r], train.starts[r + 1]);
                for (&i, &x) in train.index[a..b].iter().zip(&train.value[a..b]) {
                    grad[i as usize] += d * f64::from(x);
                }
            }
            step += 1;
            let size = batch.len() as f64;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for i in 0..n {
                let g = grad[i] / size + settings.l2 * weights[i];
                m[i] = beta1 * m[i] + (1.0 - beta1) * g;
                v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
                weights[i] -= settings.learning_rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
        }
        let (train_loss, held_loss) = (train.loss(&weights), held_out.loss(&weights));
        report(epoch, train_loss, held_loss);
        best.epochs = epoch;
        if held_loss < best.held_out_loss - 1e-7 || held_out.is_empty() {
            best.weights.clone_from(&weights);
            best.held_out_loss = held_loss;
            best.train_loss = train_loss;
            best.best_epoch = epoch;
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= settings.patience {
                break;
            }
        }
    }
    best
}

/// `tune fit`: reads the data files, extracts the features of every position, fits the
/// weights and writes the weights file, reporting the losses on stderr.
///
/// # Errors
/// If a file cannot be read or written, a position cannot be read, or there is nothing to fit.
pub fn run<G: ToolGame, F: Features<G>>(
    game: &G,
    codec: StateCodec<G>,
    features: &F,
    args: &FitArgs,
) -> ToolResult<()> {
    if !(0.0..=1.0).contains(&args.search_weight) {
        return Err(ToolError::input("--search-weight must be between 0 and 1"));
    }
    if args.holdout_every < 2 {
        return Err(ToolError::input("--holdout-every must be at least 2"));
    }
    let names: Vec<String> = (0..features.count()).map(|i| features.name(i)).collect();
    let (mut train, mut held_out) = (Dataset::new(), Dataset::new());
    let mut games = 0;
    let mut entries = Vec::new();
    for path in &args.data {
        let mut reader = DataReader::open(path)?;
        if reader.header().state_bytes != codec.state_bytes(game) {
            return Err(ToolError::Input(format!(
                "{}: holds {} with {} bytes a state; this game stores {}",
                path.display(),
                reader.header().game,
                reader.header().state_bytes,
                codec.state_bytes(game)
            )));
        }
        while let Some(block) = reader.next_block()? {
            games += 1;
            let set = if is_held_out(block.game, args.holdout_every) {
                &mut held_out
            } else {
                &mut train
            };
            for sample in &block.samples {
                let state = codec.decode(game, &sample.state).map_err(|e| {
                    ToolError::Input(format!("{}: game {}: {e}", path.display(), block.game))
                })?;
                let result = sample.reward();
                let label = match sample.search() {
                    Some(s) if args.search_weight > 0.0 => {
                        let searched = if s.is_infinite() {
                            (s.signum() + 1.0) / 2.0
                        } else {
                            sigmoid(s / args.search_scale)
                        };
                        (1.0 - args.search_weight) * result + args.search_weight * searched
                    }
                    _ => result,
                };
                entries.clear();
                features.extract(game, &state, game.to_move(&state), &mut |i, v| {
                    if v != 0.0 {
                        entries.push((i, v));
                    }
                });
                set.push(entries.iter().copied(), label as f32);
            }
        }
    }
    if train.is_empty() {
        return Err(ToolError::input("no training positions in the data"));
    }
    let start = match &args.start {
        Some(path) => {
            let text = crate::files::read_text(path, crate::files::MAX_TEXT)?;
            let weights = Weights::parse(&text)
                .map_err(|e| ToolError::Input(format!("{}: {e}", path.display())))?;
            // A start file may name a subset of the features (an evaluation's weights, to
            // start a larger feature set from): the others start at 0.
            let index: HashMap<&str, usize> =
                names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
            let mut start = vec![0.0; names.len()];
            for (name, w) in &weights.entries {
                let i = index.get(name.as_str()).ok_or_else(|| {
                    let unknown = format!("the weights name {name}, which is not a feature");
                    ToolError::Input(format!("{}: {unknown}", path.display()))
                })?;
                start[*i] = f64::from(*w);
            }
            let missing = names.len() - weights.entries.len();
            if missing > 0 {
                eprintln!(
                    "{missing} features have no weight in {}: they start at 0",
                    path.display()
                );
            }
            if let Some((i, w)) =
                start.iter().enumerate().find(|(_, w)| !w.is_finite() || w.abs() > MAX_START_WEIGHT)
            {
                return Err(ToolError::Input(format!(
                    "{}: weight {} is {w} log-odds (its value over the scale {}); a start weight \
                     must lie within ±{MAX_START_WEIGHT}",
                    path.display(),
                    names[i],
                    weights.scale
                )));
            }
            start
        }
        None => vec![0.0; names.len()],
    };
    let constant = held_out.constant_loss(train.mean_label());
    eprintln!(
        "{} features; {games} games: {} training positions, {} held out",
        names.len(),
        train.len(),
        held_out.len()
    );
    eprintln!(
        "held-out loss: {constant:.5} predicting the mean label, {:.5} at the start",
        held_out.loss(&start)
    );
    let settings = Training {
        epochs: args.epochs,
        patience: args.patience,
        learning_rate: args.learning_rate,
        batch: args.batch,
        l2: args.l2,
        seed: args.seed,
    };
    let fitted = fit(&train, &held_out, start, &settings, |epoch, t, h| {
        eprintln!("epoch {epoch:>3}  training loss {t:.5}  held-out loss {h:.5}");
    });
    let written: Vec<f32> = fitted.weights.iter().map(|&w| w as f32).collect();
    if !fitted.held_out_loss.is_finite() || written.iter().any(|w| !w.is_finite()) {
        return Err(ToolError::Input(format!(
            "the fit diverged (held-out loss {}); nothing written: try a smaller --learning-rate",
            fitted.held_out_loss
        )));
    }
    if fitted.best_epoch == 0 && args.start.is_none() {
        return Err(ToolError::Input(format!(
            "no epoch lowered the held-out loss below the all-zero start's ({:.5}); nothing \
             written: try another --learning-rate or more data",
            fitted.held_out_loss
        )));
    }
    let weights = Weights {
        entries: names.into_iter().zip(written).collect(),
        scale: args.scale,
        comments: vec![
            format!(
                "Fitted by `tune fit` on {} positions of {games} games ({}).",
                train.len(),
                args.data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
            format!(
                "Held-out loss {:.5} on {} positions (epoch {} of {}); predicting the mean label: {constant:.5}.",
                fitted.held_out_loss,
                held_out.len(),
                fitted.best_epoch,
                fitted.epochs
            ),
            "Weights are log-odds of winning per unit of feature; the evaluation is scale x sum.".into(),
        ],
    };
    std::fs::write(&args.out, weights.to_text()).map_err(|e| {
        ToolError::file(&args.out, format!("cannot write {}: {e}", args.out.display()))
    })?;
    eprintln!("wrote {} (held-out loss {:.5})", args.out.display(), fitted.held_out_loss);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_out_of_range_are_refused() {
        assert!(positive("0").is_err() && positive("-1").is_err() && positive("NaN").is_err());
        assert!(positive("inf").is_err() && positive("0.5").is_ok());
        assert!(positive_f32("1e300").is_err() && positive_f32("100").is_ok());
        assert!(not_negative("-1e-9").is_err() && not_negative("0").is_ok());
        assert!(fraction("1.5").is_err() && fraction("NaN").is_err() && fraction("1").is_ok());
    }
    use rand::Rng;

    /// Labels drawn from a known logistic model are fitted back to its weights.
    #[test]
    fn fitting_recovers_the_weights_of_a_logistic_model() {
        let truth = [1.2, -0.7, 0.3];
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut sample = |rows: usize| {
            let mut data = Dataset::new();
            for _ in 0..rows {
                let x: Vec<f32> = (0..3).map(|_| rng.gen_range(-2i32..=2) as f32).collect();
                let z: f64 = truth.iter().zip(&x).map(|(w, &x)| w * f64::from(x)).sum();
                let y = if rng.gen::<f64>() < sigmoid(z) { 1.0 } else { 0.0 };
                data.push(x.iter().copied().enumerate().filter(|&(_, v)| v != 0.0), y);
            }
            data
        };
        let (train, held_out) = (sample(20_000), sample(4_000));
        let settings =
            Training { epochs: 40, patience: 5, learning_rate: 0.02, batch: 128, l2: 0.0, seed: 1 };
        let mut epochs = Vec::new();
        let fitted = fit(&train, &held_out, vec![0.0; 3], &settings, |e, _, h| epochs.push((e, h)));
        for (w, t) in fitted.weights.iter().zip(truth) {
            assert!((w - t).abs() < 0.1, "{:?} against {truth:?}", fitted.weights);
        }
        assert!(fitted.held_out_loss < held_out.constant_loss(train.mean_label()) - 0.05);
        assert_eq!(epochs.len(), fitted.epochs);
        assert!(fitted.best_epoch >= 1);
    }

    #[test]
    fn losses_of_sure_and_constant_predictions() {
        let mut data = Dataset::new();
        data.push([(0, 1.0)], 1.0);
        data.push([(0, -1.0)], 0.0);
        assert!(data.loss(&[20.0]) < 1e-6);
        assert!((data.loss(&[0.0]) - std::f64::consts::LN_2).abs() < 1e-12);
        assert!((data.constant_loss(0.5) - std::f64::consts::LN_2).abs() < 1e-12);
        assert_eq!(data.mean_label(), 0.5);
        assert_eq!(data.len(), 2);
    }
}
