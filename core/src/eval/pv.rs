//! Policy-value networks for learned search (PUCT and Gumbel MCTS), for any game: sparse
//! binary inputs (an [`Observation`]) -> H -> 64 -> a value per player and a logit per move.
//!
//! The first layer is shared by both heads; hidden layers use a clipped ReLU
//! (`clamp(x, 0, 1)`), as the evaluation networks of [`super::net`] do. The value head gives
//! each player's expected reward in `[0, 1]` (a sigmoid per player, players counted from the
//! one to move), so games of three and four players learn like two-player ones. The policy
//! head gives a logit per entry of the [`ActionSpace`]; search computes only those of the
//! legal moves and takes their softmax.
//!
//! [`PvNet`] is the trainable form in `f32`, with its file form ([`PvNet::to_bytes`]:
//! a `PLYPV1` header with the sizes and the tag of the inputs it was trained on, checked
//! before anything is allocated). [`PvModel`] is what search uses: the network in integers
//! (16-bit weights, activations in `0..=256`, loops of lengths known at compile time) with
//! the game's observation and action space, evaluating positions in batches ([`PvBatch`]):
//! each weight row of the dense layers is read once per batch.
//!
//! ```
//! use std::sync::Arc;
//! use ply::eval::planes::{ActionSpace, Observation, Planes};
//! use ply::eval::pv::{PvBatch, PvModel, PvNet};
//! use ply::games::ConnectFour;
//! use ply::{Game, MoveList};
//!
//! let game = ConnectFour::standard();
//! let (planes, actions) = (Planes::new(&game).unwrap(), ActionSpace::new(&game).unwrap());
//! let tag = PvModel::tag_for(&planes, &actions);
//! let inputs = Observation::<ConnectFour>::inputs(&planes);
//! let net = PvNet::random(inputs, 128, 2, actions.len(), &tag, 1);
//! let model = PvModel::new(&game, Arc::new(planes), actions, &net).unwrap();
//! let state = game.initial_state();
//! let mut moves = MoveList::new();
//! game.generate_moves(&state, &mut moves);
//! let mut batch = PvBatch::default();
//! let i = model.push(&mut batch, &game, &state, &moves);
//! model.run(&mut batch);
//! let priors = batch.priors(i);
//! assert_eq!(priors.len(), 7);
//! assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
//! assert!(batch.values(i).iter().all(|v| (0.0..=1.0).contains(v)));
//! ```

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::net::{
    crelu, crelu_grad, dot16, sized_mut, with_width, MAX_HIDDEN, MAX_INPUTS, ONE, WIDTHS,
};
use super::pairs::{add_pairs, in_pairs};
use super::planes::{ActionSpace, Observation, MAX_ACTIONS, MAX_PLAYERS};
use crate::game::{Game, Notation};

/// Width of the second layer, which both heads read.
pub const PV_WIDTH: usize = 64;

/// The first bytes of a policy-value network file.
const MAGIC: &[u8; 8] = b"PLYPV1\0\0";

/// The longest tag a network file may carry, in bytes.
pub const MAX_TAG: usize = 256;

/// Bytes of the header before the tag: the magic and six 32-bit sizes.
const HEADER: usize = 8 + 6 * 4;

/// Why bytes are not a policy-value network, or one cannot be used for a game.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PvError {
    /// Not such a file at all: too short, or another format.
    #[error("not a policy-value network file ({0})")]
    NotANetwork(&'static str),
    /// Sizes in the header out of range.
    #[error("bad network sizes: {0}")]
    BadSizes(String),
    /// A file whose length is not what its header's sizes need.
    #[error("network file of {found} bytes, expected {expected} for its header's sizes")]
    WrongLength {
        /// The file's length.
        found: usize,
        /// The length the header's sizes need.
        expected: u64,
    },
    /// A weight that is infinite or not a number.
    #[error("a weight that is not finite at byte {0}")]
    NotFinite(usize),
    /// The arrays do not have the lengths the sizes give.
    #[error("the network's arrays do not match its sizes")]
    Inconsistent,
    /// Weights too large for the integer form.
    #[error("{layer}: {detail}; the integer network cannot hold it")]
    OutOfRange {
        /// The layer.
        layer: &'static str,
        /// What is too large.
        detail: String,
    },
    /// A network trained on other inputs, moves or players than the game's.
    #[error("the network was trained for \"{network}\", this game is \"{game}\"")]
    Mismatch {
        /// What the network was trained for (its tag and sizes).
        network: String,
        /// What this game's observation and moves are.
        game: String,
    },
}

/// A policy-value network in `f32`: the form that is trained and stored.
#[derive(Clone, Debug, PartialEq)]
pub struct PvNet {
    /// Inputs.
    pub inputs: usize,
    /// Width of the first layer.
    pub hidden: usize,
    /// Players: outputs of the value head, counted from the player to move.
    pub players: usize,
    /// Outputs of the policy head: the size of the action space.
    pub actions: usize,
    /// What the network was trained on ([`PvModel::tag_for`]).
    pub tag: String,
    /// First layer, one row of `hidden` weights per input.
    pub w1: Vec<f32>,
    /// First layer's biases.
    pub b1: Vec<f32>,
    /// Second layer: [`PV_WIDTH`] rows of `hidden` weights.
    pub w2: Vec<f32>,
    /// Second layer's biases.
    pub b2: Vec<f32>,
    /// Value head: one row of [`PV_WIDTH`] weights per player.
    pub wv: Vec<f32>,
    /// Value head's biases.
    pub bv: Vec<f32>,
    /// Policy head: one row of [`PV_WIDTH`] weights per action.
    pub wp: Vec<f32>,
    /// Policy head's biases.
    pub bp: Vec<f32>,
}

/// What one forward pass of [`PvNet::forward_keeping`] keeps for [`PvNet::backward`].
#[derive(Clone, Debug, Default)]
pub struct PvActivations {
    a1: Vec<f32>,
    a2: Vec<f32>,
    /// The value head's outputs, each player's expected reward (from the player to move).
    pub values: Vec<f32>,
    /// The policy head's logits for the actions asked.
    pub logits: Vec<f32>,
}

impl PvNet {
    /// A network of zeros (the shape of a gradient).
    pub fn zeros(inputs: usize, hidden: usize, players: usize, actions: usize, tag: &str) -> PvNet {
        PvNet {
            inputs,
            hidden,
            players,
            actions,
            tag: tag.to_string(),
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; PV_WIDTH * hidden],
            b2: vec![0.0; PV_WIDTH],
            wv: vec![0.0; players * PV_WIDTH],
            bv: vec![0.0; players],
            wp: vec![0.0; actions * PV_WIDTH],
            bp: vec![0.0; actions],
        }
    }

    /// A network with small random weights (a start for training), seeded: it plays a
    /// near-uniform policy and values near one half.
    pub fn random(
        inputs: usize,
        hidden: usize,
        players: usize,
        actions: usize,
        tag: &str,
        seed: u64,
    ) -> PvNet {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut net = PvNet::zeros(inputs, hidden, players, actions, tag);
        let mut fill = |w: &mut [f32], r: f32| {
            w.iter_mut().for_each(|x| *x = rng.gen_range(-r..r));
        };
        fill(&mut net.w1, 0.2);
        fill(&mut net.w2, (1.0 / hidden as f32).sqrt());
        fill(&mut net.wv, 0.01);
        fill(&mut net.wp, 0.01);
        net.b1.iter_mut().for_each(|b| *b = 0.1);
        net
    }

    /// Every parameter array, in file order.
    pub fn params(&self) -> [&[f32]; 8] {
        [&self.w1, &self.b1, &self.w2, &self.b2, &self.wv, &self.bv, &self.wp, &self.bp]
    }

    /// Every parameter array, in file order, to change.
    pub fn params_mut(&mut self) -> [&mut Vec<f32>; 8] {
        [
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.wv,
            &mut self.bv,
            &mut self.wp,
            &mut self.bp,
        ]
    }

    /// The number of parameters.
    pub fn size(&self) -> usize {
        self.params().iter().map(|p| p.len()).sum()
    }

    /// The number of parameters of a network of these sizes, `None` if it overflows.
    pub fn size_of(inputs: usize, hidden: usize, players: usize, actions: usize) -> Option<u64> {
        let (i, h, p, a, w) =
            (inputs as u64, hidden as u64, players as u64, actions as u64, PV_WIDTH as u64);
        let first = i.checked_mul(h)?.checked_add(h)?;
        let second = w * h + w;
        let heads = p * (w + 1) + a.checked_mul(w + 1)?;
        first.checked_add(second)?.checked_add(heads)
    }

    /// Checks sizes as a file's header gives them.
    fn check_sizes(
        inputs: usize,
        hidden: usize,
        players: usize,
        actions: usize,
    ) -> Result<(), PvError> {
        let fits = (1..=MAX_INPUTS).contains(&inputs)
            && (1..=MAX_HIDDEN).contains(&hidden)
            && (1..=MAX_PLAYERS).contains(&players)
            && (1..=MAX_ACTIONS).contains(&actions);
        match fits {
            true => Ok(()),
            false => Err(PvError::BadSizes(format!(
                "{inputs} inputs (1 to {MAX_INPUTS}), {hidden} first-layer units (1 to \
                 {MAX_HIDDEN}), {players} players (1 to {MAX_PLAYERS}), {actions} actions (1 to \
                 {MAX_ACTIONS})"
            ))),
        }
    }

    /// The values (each player's expected reward, from the player to move) and the policy
    /// logits of `actions` for the `active` inputs, kept in `act` for [`PvNet::backward`].
    pub fn forward_keeping(&self, active: &[u32], actions: &[usize], act: &mut PvActivations) {
        let h = self.hidden;
        act.a1.clear();
        act.a1.extend_from_slice(&self.b1);
        for &i in active {
            let i = i as usize;
            for (a, w) in act.a1.iter_mut().zip(&self.w1[i * h..(i + 1) * h]) {
                *a += w;
            }
        }
        let h1: Vec<f32> = act.a1.iter().map(|&x| crelu(x)).collect();
        act.a2.clear();
        act.a2.extend(self.w2.chunks_exact(h).zip(&self.b2).map(|(row, b)| b + dot(row, &h1)));
        let h2: Vec<f32> = act.a2.iter().map(|&x| crelu(x)).collect();
        act.values.clear();
        act.values.extend(
            self.wv.chunks_exact(PV_WIDTH).zip(&self.bv).map(|(row, b)| sigmoid(b + dot(row, &h2))),
        );
        act.logits.clear();
        act.logits.extend(
            actions
                .iter()
                .map(|&a| self.bp[a] + dot(&self.wp[a * PV_WIDTH..(a + 1) * PV_WIDTH], &h2)),
        );
    }

    /// Adds to `grad` the gradient of a loss whose derivatives are `d_values` with respect to
    /// the value head's pre-sigmoid outputs and `d_logits` with respect to the logits of
    /// `actions`, for the pass [`PvNet::forward_keeping`] left in `act`.
    pub fn backward(
        &self,
        active: &[u32],
        actions: &[usize],
        act: &PvActivations,
        d_values: &[f32],
        d_logits: &[f32],
        grad: &mut PvNet,
    ) {
        let h = self.hidden;
        let h2: Vec<f32> = act.a2.iter().map(|&x| crelu(x)).collect();
        let mut d2 = vec![0.0f32; PV_WIDTH];
        for (p, &d) in d_values.iter().enumerate() {
            grad.bv[p] += d;
            let row = p * PV_WIDTH..(p + 1) * PV_WIDTH;
            for ((g, w), (x, dx)) in
                grad.wv[row.clone()].iter_mut().zip(&self.wv[row]).zip(h2.iter().zip(d2.iter_mut()))
            {
                *g += d * x;
                *dx += d * w;
            }
        }
        for (&a, &d) in actions.iter().zip(d_logits) {
            grad.bp[a] += d;
            let row = a * PV_WIDTH..(a + 1) * PV_WIDTH;
            for ((g, w), (x, dx)) in
                grad.wp[row.clone()].iter_mut().zip(&self.wp[row]).zip(h2.iter().zip(d2.iter_mut()))
            {
                *g += d * x;
                *dx += d * w;
            }
        }
        let h1: Vec<f32> = act.a1.iter().map(|&x| crelu(x)).collect();
        let mut d1 = vec![0.0f32; h];
        for (o, &d2o) in d2.iter().enumerate() {
            let d = d2o * crelu_grad(act.a2[o]);
            if d == 0.0 {
                continue;
            }
            grad.b2[o] += d;
            let row = o * h..(o + 1) * h;
            for ((g, w), (x, dx)) in
                grad.w2[row.clone()].iter_mut().zip(&self.w2[row]).zip(h1.iter().zip(d1.iter_mut()))
            {
                *g += d * x;
                *dx += d * w;
            }
        }
        for (j, d) in d1.iter_mut().enumerate() {
            *d *= crelu_grad(act.a1[j]);
        }
        for (g, d) in grad.b1.iter_mut().zip(&d1) {
            *g += d;
        }
        for &i in active {
            let i = i as usize;
            for (g, d) in grad.w1[i * h..(i + 1) * h].iter_mut().zip(&d1) {
                *g += d;
            }
        }
    }

    /// The network as bytes: the `PLYPV1` header (sizes, then the tag), then every parameter
    /// as little-endian `f32`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let tag = self.tag.as_bytes();
        let tag = &tag[..tag.len().min(MAX_TAG)];
        let mut out = MAGIC.to_vec();
        for n in [self.inputs, self.hidden, PV_WIDTH, self.players, self.actions, tag.len()] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        out.extend_from_slice(tag);
        for p in self.params() {
            for x in p {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// The network that [`PvNet::to_bytes`] wrote. The header's sizes are checked, and the
    /// file's length against them, before anything is allocated.
    ///
    /// # Errors
    /// If the bytes are not such a network (header, sizes, tag, length, a value not finite).
    pub fn from_bytes(bytes: &[u8]) -> Result<PvNet, PvError> {
        let head = bytes.get(..HEADER).ok_or(PvError::NotANetwork("too short"))?;
        if &head[..8] != MAGIC {
            return Err(PvError::NotANetwork("no PLYPV1 header"));
        }
        let word = |k: usize| {
            let at = 8 + 4 * k;
            u32::from_le_bytes(head[at..at + 4].try_into().expect("4 bytes")) as usize
        };
        let (inputs, hidden, width, players, actions, tag_len) =
            (word(0), word(1), word(2), word(3), word(4), word(5));
        PvNet::check_sizes(inputs, hidden, players, actions)?;
        if width != PV_WIDTH {
            return Err(PvError::BadSizes(format!("second layer of {width}, not {PV_WIDTH}")));
        }
        if tag_len > MAX_TAG {
            return Err(PvError::BadSizes(format!("a tag of {tag_len} bytes (at most {MAX_TAG})")));
        }
        let start = HEADER + tag_len;
        let expected = PvNet::size_of(inputs, hidden, players, actions)
            .and_then(|n| n.checked_mul(4)?.checked_add(start as u64))
            .ok_or_else(|| PvError::BadSizes("too large".into()))?;
        if bytes.len() as u64 != expected {
            return Err(PvError::WrongLength { found: bytes.len(), expected });
        }
        let tag = std::str::from_utf8(&bytes[HEADER..start])
            .map_err(|_| PvError::NotANetwork("a tag that is not UTF-8"))?;
        let mut net = PvNet::zeros(inputs, hidden, players, actions, tag);
        let mut at = start;
        for p in net.params_mut() {
            for x in p.iter_mut() {
                *x = f32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
                if !x.is_finite() {
                    return Err(PvError::NotFinite(at));
                }
                at += 4;
            }
        }
        Ok(net)
    }

    /// What the network was trained for, with its sizes, for error messages.
    fn describe(&self) -> String {
        format!(
            "{}; {} inputs, {} players, {} actions",
            self.tag, self.inputs, self.players, self.actions
        )
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The layers' names, for errors.
const FIRST: &str = "first layer";
const SECOND: &str = "second layer";
const VALUE: &str = "value head";
const POLICY: &str = "policy head";

/// A policy-value network in integers, for search: weights times 256 (16-bit), biases times
/// 256 (first layer) or 65,536 (the others), activations clipped to `0..=256`.
#[derive(Clone, Debug)]
struct QuantPv {
    hidden: usize,
    /// The first layer's width padded to one of [`WIDTHS`].
    width: usize,
    players: usize,
    w1: Vec<i16>,
    b1: Vec<i32>,
    /// The second layer in input pairs ([`in_pairs`]): [`PV_WIDTH`] outputs of `width` inputs.
    w2: Vec<i16>,
    b2: Vec<i32>,
    wv: Vec<i16>,
    bv: Vec<i32>,
    wp: Vec<i16>,
    bp: Vec<i32>,
}

impl QuantPv {
    /// The integer form of `net`.
    fn new(net: &PvNet) -> Result<QuantPv, PvError> {
        let h = net.hidden;
        PvNet::check_sizes(net.inputs, h, net.players, net.actions)?;
        let shape = PvNet::zeros(0, h, net.players, net.actions, "");
        let lengths_match = net.w1.len() == net.inputs * h
            && net.params()[1..].iter().zip(&shape.params()[1..]).all(|(p, e)| p.len() == e.len());
        if !lengths_match {
            return Err(PvError::Inconsistent);
        }
        let width = WIDTHS.into_iter().find(|&w| w >= h).unwrap_or(MAX_HIDDEN);
        let pad = |w: &[f32]| -> Vec<f32> {
            w.chunks_exact(h)
                .flat_map(|row| row.iter().copied().chain(std::iter::repeat_n(0.0, width - h)))
                .collect()
        };
        let ints = |layer: &'static str, w: &[f32], scale: f32| -> Result<Vec<i32>, PvError> {
            w.iter()
                .map(|&x| {
                    let v = (f64::from(x) * f64::from(scale)).round();
                    match v.abs() <= f64::from(i32::MAX) {
                        true => Ok(v as i32),
                        false => Err(PvError::OutOfRange { layer, detail: format!("weight {x}") }),
                    }
                })
                .collect()
        };
        let narrow = |layer: &'static str, w: &[f32]| -> Result<Vec<i16>, PvError> {
            ints(layer, w, ONE as f32)?
                .into_iter()
                .map(|x| {
                    i16::try_from(x).map_err(|_| PvError::OutOfRange {
                        layer,
                        detail: format!(
                            "weight {} is not below 128 in magnitude",
                            x as f64 / 256.0
                        ),
                    })
                })
                .collect()
        };
        let two = (ONE * ONE) as f32;
        let quant = QuantPv {
            hidden: h,
            width,
            players: net.players,
            w1: narrow(FIRST, &pad(&net.w1))?,
            b1: ints(FIRST, &pad(&net.b1), ONE as f32)?,
            w2: in_pairs::<PV_WIDTH>(&narrow(SECOND, &pad(&net.w2))?, width),
            b2: ints(SECOND, &net.b2, two)?,
            wv: narrow(VALUE, &net.wv)?,
            bv: ints(VALUE, &net.bv, two)?,
            wp: narrow(POLICY, &net.wp)?,
            bp: ints(POLICY, &net.bp, two)?,
        };
        quant.check_sums()?;
        Ok(quant)
    }

    /// Checks that no sum of an evaluation can leave the 32-bit range.
    fn check_sums(&self) -> Result<(), PvError> {
        let over = |layer: &'static str, unit: usize, bias: i32, total: i64| {
            let total = total + i64::from(bias).abs();
            match total <= i64::from(i32::MAX) {
                true => Ok(()),
                false => Err(PvError::OutOfRange {
                    layer,
                    detail: format!("unit {unit}'s bias and weights can sum to {total}"),
                }),
            }
        };
        let w = self.width;
        for unit in 0..w {
            let total = self.w1.iter().skip(unit).step_by(w).map(|&x| i64::from(x).abs()).sum();
            over(FIRST, unit, self.b1[unit], total)?;
        }
        let one = i64::from(ONE);
        let rows = |layer, weights: &[i16], n: usize, biases: &[i32]| -> Result<(), PvError> {
            for (unit, row) in weights.chunks_exact(n).enumerate() {
                let total = row.iter().map(|&x| i64::from(x).abs() * one).sum();
                over(layer, unit, biases[unit], total)?;
            }
            Ok(())
        };
        for unit in 0..PV_WIDTH {
            let pairs = self.w2.chunks_exact(2 * PV_WIDTH);
            let total = pairs.flat_map(|p| [p[2 * unit], p[2 * unit + 1]]);
            over(SECOND, unit, self.b2[unit], total.map(|x| i64::from(x).abs() * one).sum())?;
        }
        rows(VALUE, &self.wv, PV_WIDTH, &self.bv)?;
        rows(POLICY, &self.wp, PV_WIDTH, &self.bp)
    }

    /// Adds active input `i` to the first layer's sums (an input out of range is ignored).
    #[inline]
    fn add<const N: usize>(&self, acc: &mut [i32; N], i: usize) {
        if let Some(row) = self.w1.as_chunks::<N>().0.get(i) {
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += i32::from(w);
            }
        }
    }
}

/// Positions waiting for one batched pass of a [`PvModel`], and the answers of the last pass.
/// Its buffers grow to the largest batch and are kept, so evaluating allocates nothing once
/// they have.
#[derive(Clone, Debug, Default)]
pub struct PvBatch {
    active: Vec<u32>,
    acc: Vec<i32>,
    /// First-layer activations, [`QuantPv::width`] per position.
    h1: Vec<i16>,
    h2: Vec<i16>,
    /// Where each position's moves start in `actions` and `priors` (one more entry than
    /// positions).
    starts: Vec<usize>,
    actions: Vec<u32>,
    movers: Vec<usize>,
    priors: Vec<f32>,
    values: Vec<f32>,
    players: usize,
}

impl PvBatch {
    /// Empties the batch (keeping its buffers).
    pub fn clear(&mut self) {
        self.h1.clear();
        self.starts.clear();
        self.actions.clear();
        self.movers.clear();
        self.priors.clear();
        self.values.clear();
    }

    /// The positions in the batch.
    pub fn len(&self) -> usize {
        self.movers.len()
    }

    /// True for an empty batch.
    pub fn is_empty(&self) -> bool {
        self.movers.is_empty()
    }

    /// The prior probability of each move of position `i`, in the order pushed (after
    /// [`PvModel::run`]).
    pub fn priors(&self, i: usize) -> &[f32] {
        &self.priors[self.starts[i]..self.starts[i + 1]]
    }

    /// Each player's expected reward in `[0, 1]` in position `i`, by seat (after
    /// [`PvModel::run`]).
    pub fn values(&self, i: usize) -> &[f32] {
        &self.values[i * self.players..(i + 1) * self.players]
    }

    /// The log-priors of position `i`'s moves (after [`PvModel::run`]): the policy's logits
    /// up to a constant, what Gumbel search adds its noise to.
    pub fn log_priors(&self, i: usize, out: &mut Vec<f32>) {
        out.clear();
        out.extend(self.priors(i).iter().map(|p| p.max(1e-30).ln()));
    }
}

/// A policy-value network with the game's observation and action space: what PUCT and
/// Gumbel search evaluate positions with. Cheap to clone (shared).
pub struct PvModel<G: Game> {
    observation: Arc<dyn Observation<G>>,
    actions: ActionSpace,
    net: Arc<QuantPv>,
}

impl<G: Game> Clone for PvModel<G> {
    fn clone(&self) -> Self {
        PvModel {
            observation: self.observation.clone(),
            actions: self.actions,
            net: self.net.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for PvModel<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PvModel")
            .field("inputs", &self.observation.tag())
            .field("actions", &self.actions)
            .field("hidden", &self.net.hidden)
            .finish()
    }
}

impl<G: Game + Notation> PvModel<G> {
    /// The tag a network trained on `observation` and `actions` carries.
    pub fn tag_for(observation: &dyn Observation<G>, actions: &ActionSpace) -> String {
        format!("{}; {}", observation.tag(), actions.tag())
    }

    /// `net` over `observation` and `actions` for `game`.
    ///
    /// # Errors
    /// [`PvError::Mismatch`] if the network was trained on other inputs, moves or players;
    /// [`PvError::OutOfRange`] if its weights do not fit the integer form.
    pub fn new(
        game: &G,
        observation: Arc<dyn Observation<G>>,
        actions: ActionSpace,
        net: &PvNet,
    ) -> Result<PvModel<G>, PvError> {
        Self::for_players(game.num_players(), observation, actions, net)
    }

    /// [`PvModel::new`] for a game of `players` players.
    ///
    /// # Errors
    /// As [`PvModel::new`].
    pub fn for_players(
        players: usize,
        observation: Arc<dyn Observation<G>>,
        actions: ActionSpace,
        net: &PvNet,
    ) -> Result<PvModel<G>, PvError> {
        let tag = Self::tag_for(&*observation, &actions);
        let players = players.max(1);
        if net.tag != tag
            || net.inputs != observation.inputs()
            || net.actions != actions.len()
            || net.players != players
        {
            let game = format!(
                "{tag}; {} inputs, {players} players, {} actions",
                observation.inputs(),
                actions.len()
            );
            return Err(PvError::Mismatch { network: net.describe(), game });
        }
        Ok(PvModel { observation, actions, net: Arc::new(QuantPv::new(net)?) })
    }

    /// The observation.
    pub fn observation(&self) -> &dyn Observation<G> {
        &*self.observation
    }

    /// The action space.
    pub fn actions(&self) -> ActionSpace {
        self.actions
    }

    /// Adds `state` with its legal `moves` to `batch` and returns its index there. The first
    /// layer is summed now; the rest waits for [`PvModel::run`].
    pub fn push(
        &self,
        batch: &mut PvBatch,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
    ) -> usize {
        let net = &*self.net;
        if batch.is_empty() {
            batch.players = net.players;
            batch.starts.clear();
            batch.starts.push(0);
        }
        self.observation.observe(game, state, &mut batch.active);
        batch.acc.resize(net.width, 0);
        batch.acc.copy_from_slice(&net.b1);
        with_width!(net.width, N => {
            let acc = sized_mut::<N, _>(&mut batch.acc);
            for &i in &batch.active {
                net.add::<N>(acc, i as usize);
            }
        });
        batch.h1.extend(batch.acc.iter().map(|&x| x.clamp(0, ONE) as i16));
        for &mv in moves {
            batch.actions.push(self.actions.index(game, state, mv) as u32);
        }
        batch.starts.push(batch.actions.len());
        batch.movers.push(game.to_move(state).index() % net.players);
        batch.len() - 1
    }

    /// Evaluates every position pushed since the batch was last cleared: afterwards
    /// [`PvBatch::priors`] and [`PvBatch::values`] answer for each.
    pub fn run(&self, batch: &mut PvBatch) {
        let net = &*self.net;
        let n = batch.len();
        batch.h2.clear();
        batch.h2.resize(n * PV_WIDTH, 0);
        let b2: &[i32; PV_WIDTH] = net.b2.as_slice().try_into().expect("PV_WIDTH biases");
        for (x, out) in batch.h1.chunks_exact(net.width).zip(batch.h2.as_chunks_mut().0) {
            let mut sums = *b2;
            add_pairs(&net.w2, x, &mut sums);
            *out = sums.map(|s| (s >> 8).clamp(0, ONE) as i16);
        }
        let scale = 1.0 / (ONE * ONE) as f32;
        let h2 = batch.h2.as_chunks::<PV_WIDTH>().0;
        let value_rows = net.wv.as_chunks::<PV_WIDTH>().0;
        let policy_rows = net.wp.as_chunks::<PV_WIDTH>().0;
        batch.values.clear();
        batch.values.resize(n * net.players, 0.0);
        batch.priors.clear();
        batch.priors.resize(batch.actions.len(), 0.0);
        for (p, x) in h2.iter().enumerate() {
            let mover = batch.movers[p];
            for (r, (row, &b)) in value_rows.iter().zip(&net.bv).enumerate() {
                let seat = (mover + r) % net.players;
                batch.values[p * net.players + seat] = sigmoid((b + dot16(row, x)) as f32 * scale);
            }
            let range = batch.starts[p]..batch.starts[p + 1];
            let mut top = f32::NEG_INFINITY;
            for (prior, &a) in
                batch.priors[range.clone()].iter_mut().zip(&batch.actions[range.clone()])
            {
                let a = a as usize;
                *prior = (net.bp[a] + dot16(&policy_rows[a], x)) as f32 * scale;
                top = top.max(*prior);
            }
            let mut total = 0.0;
            for prior in &mut batch.priors[range.clone()] {
                *prior = (*prior - top).exp();
                total += *prior;
            }
            for prior in &mut batch.priors[range] {
                *prior /= total;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::planes::Planes;
    use crate::games::{ConnectFour, TicTacToe};
    use crate::MoveList;

    fn model_of(net: &PvNet) -> PvModel<ConnectFour> {
        let game = ConnectFour::standard();
        PvModel::new(
            &game,
            Arc::new(Planes::new(&game).unwrap()),
            ActionSpace::new(&game).unwrap(),
            net,
        )
        .unwrap()
    }

    fn c4_net(seed: u64) -> PvNet {
        let game = ConnectFour::standard();
        let planes = Planes::new(&game).unwrap();
        let actions = ActionSpace::new(&game).unwrap();
        let tag = PvModel::tag_for(&planes, &actions);
        let mut net = PvNet::random(
            Observation::<ConnectFour>::inputs(&planes),
            96,
            2,
            actions.len(),
            &tag,
            seed,
        );
        // Larger heads than a fresh network's, so that the outputs differ visibly.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        net.wv.iter_mut().chain(net.wp.iter_mut()).for_each(|w| *w = rng.gen_range(-1.0..1.0));
        net
    }

    #[test]
    fn the_integer_form_agrees_with_the_float_one() {
        let game = ConnectFour::standard();
        let net = c4_net(3);
        let model = model_of(&net);
        let mut state = game.initial_state();
        let (mut moves, mut batch, mut active) = (MoveList::new(), PvBatch::default(), Vec::new());
        let mut act = PvActivations::default();
        for mv in [3, 3, 2, 4, 0] {
            game.apply(&mut state, mv);
            game.generate_moves(&state, &mut moves);
            batch.clear();
            let i = model.push(&mut batch, &game, &state, &moves);
            model.run(&mut batch);
            model.observation().observe(&game, &state, &mut active);
            let keys: Vec<usize> =
                moves.iter().map(|&m| model.actions().index(&game, &state, m)).collect();
            net.forward_keeping(&active, &keys, &mut act);
            let top = act.logits.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
            let total: f32 = act.logits.iter().map(|l| (l - top).exp()).sum();
            for (q, l) in batch.priors(i).iter().zip(&act.logits) {
                assert!((q - (l - top).exp() / total).abs() < 0.02, "{q} vs {l}");
            }
            let mover = game.to_move(&state).index();
            for r in 0..2 {
                let q = batch.values(i)[(mover + r) % 2];
                assert!((q - act.values[r]).abs() < 0.02, "{q} vs {}", act.values[r]);
            }
        }
    }

    #[test]
    fn a_batch_answers_as_positions_one_by_one() {
        let game = ConnectFour::standard();
        let model = model_of(&c4_net(5));
        let mut states = vec![game.initial_state()];
        for mv in [3, 2, 2, 6] {
            let mut s = *states.last().unwrap();
            game.apply(&mut s, mv);
            states.push(s);
        }
        let mut moves = MoveList::new();
        let mut together = PvBatch::default();
        for s in &states {
            game.generate_moves(s, &mut moves);
            model.push(&mut together, &game, s, &moves);
        }
        model.run(&mut together);
        for (i, s) in states.iter().enumerate() {
            let mut alone = PvBatch::default();
            game.generate_moves(s, &mut moves);
            model.push(&mut alone, &game, s, &moves);
            model.run(&mut alone);
            assert_eq!(alone.priors(0), together.priors(i));
            assert_eq!(alone.values(0), together.values(i));
        }
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused_before_allocating() {
        let net = c4_net(1);
        let bytes = net.to_bytes();
        assert_eq!(PvNet::from_bytes(&bytes).unwrap(), net);
        assert_eq!(PvNet::from_bytes(&bytes[..10]), Err(PvError::NotANetwork("too short")));
        assert!(matches!(
            PvNet::from_bytes(&bytes[..bytes.len() - 1]),
            Err(PvError::WrongLength { .. })
        ));
        let mut huge = bytes.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(PvNet::from_bytes(&huge), Err(PvError::BadSizes(_))));
        let mut nan = bytes.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(PvNet::from_bytes(&nan), Err(PvError::NotFinite(at)));
        let mut other = bytes;
        other[0] = b'X';
        assert_eq!(PvNet::from_bytes(&other), Err(PvError::NotANetwork("no PLYPV1 header")));
    }

    #[test]
    fn a_network_of_another_game_is_refused_with_both_names() {
        let net = c4_net(1);
        let game = TicTacToe;
        let planes = Planes::new(&game).unwrap();
        let e = PvModel::new(&game, Arc::new(planes), ActionSpace::new(&game).unwrap(), &net)
            .unwrap_err();
        let text = e.to_string();
        assert!(text.contains("planes 6x7 2p") && text.contains("planes 3x3 2p"), "{text}");
    }

    #[test]
    fn weights_the_integers_cannot_hold_are_refused() {
        let mut net = c4_net(1);
        net.w2[0] = 200.0;
        let game = ConnectFour::standard();
        let e = PvModel::new(
            &game,
            Arc::new(Planes::new(&game).unwrap()),
            ActionSpace::new(&game).unwrap(),
            &net,
        )
        .unwrap_err();
        assert!(matches!(e, PvError::OutOfRange { layer: "second layer", .. }), "{e}");
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let net = c4_net(9);
        let active = [3u32, 50, 400, 1512];
        let actions = [0usize, 7, 20];
        let loss = |n: &PvNet| {
            let mut act = PvActivations::default();
            n.forward_keeping(&active, &actions, &mut act);
            // A value target of 1 for the mover, and the policy's second action.
            let v = -act.values[0].ln();
            let top = act.logits.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
            let z: f32 = act.logits.iter().map(|l| (l - top).exp()).sum();
            v - (act.logits[1] - top - z.ln())
        };
        let mut act = PvActivations::default();
        net.forward_keeping(&active, &actions, &mut act);
        let top = act.logits.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        let z: f32 = act.logits.iter().map(|l| (l - top).exp()).sum();
        let d_logits: Vec<f32> = act
            .logits
            .iter()
            .enumerate()
            .map(|(k, l)| (l - top).exp() / z - if k == 1 { 1.0 } else { 0.0 })
            .collect();
        let d_values = [act.values[0] - 1.0, 0.0];
        let mut grad = PvNet::zeros(net.inputs, net.hidden, 2, net.actions, "");
        net.backward(&active, &actions, &act, &d_values, &d_logits, &mut grad);
        for (array, index) in
            [(0usize, 50 * 96 + 4), (2, 5 * 96 + 7), (4, 3), (6, 20 * PV_WIDTH + 9), (1, 2)]
        {
            let mut plus = net.clone();
            let mut minus = net.clone();
            let eps = 1e-2;
            plus.params_mut()[array][index] += eps;
            minus.params_mut()[array][index] -= eps;
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * eps);
            let analytic = grad.params()[array][index];
            assert!(
                (numeric - analytic).abs() < 2e-3 + 0.05 * analytic.abs(),
                "{array}/{index}: {numeric} vs {analytic}"
            );
        }
    }
}
