//! A small neural evaluation for any game: sparse inputs -> H -> 32 -> 32 -> 1.
//!
//! A game lists its inputs ([`NetInputs`]: which of a fixed set of 0/1 features a position
//! has, seen from the player to move, such as "own man on square 12", and a phase bucket).
//! The first layer is shared; each phase bucket has its own three later layers. Hidden
//! layers use a clipped ReLU (`clamp(x, 0, 1)`); the output is the log-odds that the player
//! to move wins, which [`NetEval`] scales into the game's score units.
//!
//! [`Network`] is the trainable form in `f32` (`tune train` fits it and writes it with
//! [`Network::to_bytes`]); [`QuantNet`] is the form searches use: every weight an integer,
//! activations in `0..=256`, 16-bit weights, 16-bit first-layer sums and 32-bit later ones,
//! in loops of lengths known at compile time (the first layer padded to 128, 256, 512 or 1024
//! units), which the compiler vectorises at full width; the later layers keep their weights
//! in input pairs for multiply-add instructions (AVX2 where the CPU has it, checked at run
//! time). [`NetEval`] keeps two first layers per thread and updates the nearer by the inputs
//! that changed.
//!
//! ```
//! use ply::eval::net::{NetEval, NetInputs, Network};
//! use ply::eval::Evaluator;
//! use ply::games::{TicTacToe, TicTacToeState};
//! use ply::{Game, Player};
//!
//! /// A mark of the player to move or of the other on each square: 18 inputs, one bucket.
//! #[derive(Clone)]
//! struct Marks;
//!
//! impl NetInputs<TicTacToe> for Marks {
//!     fn inputs(&self) -> usize { 18 }
//!     fn buckets(&self) -> usize { 1 }
//!     fn active(&self, game: &TicTacToe, s: &TicTacToeState, sink: &mut impl FnMut(usize)) -> usize {
//!         let me = game.to_move(s);
//!         for sq in 0..9u8 {
//!             match s.at(sq) {
//!                 Some(p) if p == me => sink(sq as usize),
//!                 Some(_) => sink(9 + sq as usize),
//!                 None => {}
//!             }
//!         }
//!         0
//!     }
//! }
//!
//! let net = Network::random(18, 16, 1, 7);
//! let eval = NetEval::new(Marks, &net, 100.0).unwrap();
//! let game = TicTacToe;
//! let state = game.initial_state();
//! let v: i32 = eval.evaluate(&game, &state, Player::FIRST);
//! assert_eq!(v, -eval.evaluate(&game, &state, Player::SECOND));
//! // The integer form agrees with the float one to within a small rounding error.
//! assert!((f64::from(v) - 100.0 * f64::from(net.forward(&[], 0))).abs() <= 2.0);
//! ```

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::pairs::{add_pairs, in_pairs};
use super::Evaluator;
use crate::game::{Game, Player, Score};

/// Width of the second and third layers.
pub const WIDTH: usize = 32;

/// The widest first layer a network may have.
pub const MAX_HIDDEN: usize = 1024;

/// The inputs of a game's network.
pub trait NetInputs<G: Game>: Clone + Send + Sync + 'static {
    /// The number of inputs.
    fn inputs(&self) -> usize;

    /// The number of phase buckets.
    fn buckets(&self) -> usize;

    /// Calls `sink` with each active input of `state`, seen from the player to move (each
    /// input at most once, each below [`NetInputs::inputs`]), and returns the phase bucket
    /// (below [`NetInputs::buckets`]).
    fn active(&self, game: &G, state: &G::State, sink: &mut impl FnMut(usize)) -> usize;

    /// [`NetInputs::active`] as bits: sets bit `i % 64` of word `i / 64` of `bits` (zero on
    /// entry) for each active input `i`, and returns the bucket; what [`NetEval`] reads for
    /// inputs of at most [`INCREMENTAL_INPUTS`]. By default from [`NetInputs::active`]; a
    /// game whose inputs are bitboards may fill the words at once ([`put_set`]), with the
    /// same bits.
    #[inline]
    fn active_bits(&self, game: &G, state: &G::State, bits: &mut InputBits) -> usize {
        self.active(game, state, &mut |k| {
            if let Some(word) = bits.get_mut(k / 64) {
                *word |= 1 << (k % 64);
            }
        })
    }

    /// The same inputs with their phases split into `buckets` buckets, `None` where they
    /// split phases only one way (the default) or not into that many. [`NetEval::new`] asks
    /// for the split of the network it is given and `tune train --buckets` trains one. A
    /// split into `m` times the buckets should nest inside the coarser one (fine bucket `k`
    /// within coarse bucket `k / m`), so that [`Network::split_buckets`] keeps a trained
    /// network's answers.
    fn with_buckets(&self, buckets: usize) -> Option<Self> {
        let _ = buckets;
        None
    }

    /// Whether these inputs describe `game` (its board size, its player count): inputs
    /// made for one board say nothing about another. [`NetOr`] evaluates with its network
    /// only where they do. Every game, by default.
    fn fits(&self, game: &G) -> bool {
        let _ = game;
        true
    }
}

/// The first bytes of a network file.
const MAGIC: &[u8; 8] = b"PLYNET1\0";

/// The most inputs a network may have.
pub const MAX_INPUTS: usize = 1 << 24;

/// The most phase buckets a network may have.
pub const MAX_BUCKETS: usize = 64;

/// Why bytes are not a network, or a network cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NetError {
    /// Not a network file at all: too short, or another format.
    #[error("not a network file ({0})")]
    NotANetwork(&'static str),
    /// Sizes in the header out of range.
    #[error(
        "bad network sizes: {inputs} inputs (1 to {MAX_INPUTS}), {hidden} first-layer units \
         (1 to {MAX_HIDDEN}), {buckets} buckets (1 to {MAX_BUCKETS})"
    )]
    BadSizes {
        /// Inputs in the header.
        inputs: usize,
        /// First-layer units in the header.
        hidden: usize,
        /// Buckets in the header.
        buckets: usize,
    },
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
    /// The arrays of a [`Network`] do not have the lengths its sizes give.
    #[error("the network's arrays do not match its sizes {inputs}, {hidden}, {buckets}")]
    Inconsistent {
        /// Inputs.
        inputs: usize,
        /// First-layer units.
        hidden: usize,
        /// Buckets.
        buckets: usize,
    },
    /// Weights too large for the integer form: a 16-bit weight out of range, or sums that
    /// could overflow 32 bits.
    #[error("{layer}: {detail}; the integer network cannot hold it")]
    OutOfRange {
        /// The layer: `first layer`, `second layer`, `third layer` or `output layer`.
        layer: &'static str,
        /// What is too large.
        detail: String,
    },
    /// A network made for other inputs than the game's.
    #[error(
        "the network has {net_inputs} inputs and {net_buckets} buckets, the game {inputs} and \
         {buckets}"
    )]
    Mismatch {
        /// The network's inputs.
        net_inputs: usize,
        /// The network's buckets.
        net_buckets: usize,
        /// The game's inputs.
        inputs: usize,
        /// The game's buckets.
        buckets: usize,
    },
}

/// A network in `f32`: the form that is trained and stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Inputs.
    pub inputs: usize,
    /// Width of the first layer.
    pub hidden: usize,
    /// Phase buckets.
    pub buckets: usize,
    /// First layer, one row of `hidden` weights per input.
    pub w1: Vec<f32>,
    /// First layer's biases.
    pub b1: Vec<f32>,
    /// Second layer per bucket: [`WIDTH`] rows of `hidden` weights.
    pub w2: Vec<f32>,
    /// Second layer's biases per bucket.
    pub b2: Vec<f32>,
    /// Third layer per bucket: [`WIDTH`] rows of [`WIDTH`] weights.
    pub w3: Vec<f32>,
    /// Third layer's biases per bucket.
    pub b3: Vec<f32>,
    /// Output weights per bucket.
    pub w4: Vec<f32>,
    /// Output bias per bucket.
    pub b4: Vec<f32>,
}

/// What one forward pass keeps for the backward pass.
#[derive(Clone, Debug)]
pub struct Activations {
    a1: Vec<f32>,
    a2: [f32; WIDTH],
    a3: [f32; WIDTH],
}

impl Activations {
    /// Room for a network with `hidden` first-layer units.
    pub fn new(hidden: usize) -> Self {
        Activations { a1: vec![0.0; hidden], a2: [0.0; WIDTH], a3: [0.0; WIDTH] }
    }
}

pub(super) fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

pub(super) fn crelu_grad(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        1.0
    } else {
        0.0
    }
}

impl Network {
    /// A network of zeros (the shape of a gradient).
    pub fn zeros(inputs: usize, hidden: usize, buckets: usize) -> Network {
        Network {
            inputs,
            hidden,
            buckets,
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; buckets * WIDTH * hidden],
            b2: vec![0.0; buckets * WIDTH],
            w3: vec![0.0; buckets * WIDTH * WIDTH],
            b3: vec![0.0; buckets * WIDTH],
            w4: vec![0.0; buckets * WIDTH],
            b4: vec![0.0; buckets],
        }
    }

    /// A network with small random weights (a start for training), seeded.
    pub fn random(inputs: usize, hidden: usize, buckets: usize, seed: u64) -> Network {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut net = Network::zeros(inputs, hidden, buckets);
        let mut fill = |w: &mut [f32], fan_in: usize| {
            let r = (1.0 / fan_in as f32).sqrt();
            w.iter_mut().for_each(|x| *x = rng.gen_range(-r..r));
        };
        fill(&mut net.w1, 24);
        fill(&mut net.w2, hidden);
        fill(&mut net.w3, WIDTH);
        fill(&mut net.w4, WIDTH);
        net.b1.iter_mut().for_each(|b| *b = 0.25);
        net
    }

    /// Every parameter array, in file order.
    pub fn params(&self) -> [&[f32]; 8] {
        [&self.w1, &self.b1, &self.w2, &self.b2, &self.w3, &self.b3, &self.w4, &self.b4]
    }

    /// Every parameter array, in file order, to change.
    pub fn params_mut(&mut self) -> [&mut Vec<f32>; 8] {
        [
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.w3,
            &mut self.b3,
            &mut self.w4,
            &mut self.b4,
        ]
    }

    /// The number of parameters.
    pub fn size(&self) -> usize {
        self.params().iter().map(|p| p.len()).sum()
    }

    /// The number of parameters of a network of these sizes, `None` if it overflows.
    pub fn size_of(inputs: usize, hidden: usize, buckets: usize) -> Option<u64> {
        let (i, h, b, w) = (inputs as u64, hidden as u64, buckets as u64, WIDTH as u64);
        let first = i.checked_mul(h)?.checked_add(h)?;
        let per_bucket = w.checked_mul(h)?.checked_add(w + w * w + w + w + 1)?;
        first.checked_add(b.checked_mul(per_bucket)?)
    }

    /// The same network with each phase bucket split into `factor` buckets, each a copy of
    /// it: new bucket `k` answers as old bucket `k / factor` did. A start for training finer
    /// phases from a trained network, for inputs whose split into `factor` times the buckets
    /// nests inside the coarser one (as [`NetInputs::with_buckets`] asks), so the split
    /// network answers every position exactly as the old one.
    ///
    /// # Errors
    /// [`NetError::BadSizes`] if `factor` is 0 or the buckets would exceed [`MAX_BUCKETS`].
    ///
    /// ```
    /// use ply::eval::net::Network;
    ///
    /// let net = Network::random(18, 16, 2, 7);
    /// let split = net.split_buckets(3).unwrap();
    /// assert_eq!(split.buckets, 6);
    /// for k in 0..6 {
    ///     assert_eq!(split.forward(&[1, 10], k), net.forward(&[1, 10], k / 3));
    /// }
    /// ```
    pub fn split_buckets(&self, factor: usize) -> Result<Network, NetError> {
        let buckets = self.buckets.checked_mul(factor).unwrap_or(0);
        Network::check_sizes(self.inputs, self.hidden, buckets)?;
        let mut net = Network::zeros(self.inputs, self.hidden, buckets);
        net.w1.clone_from(&self.w1);
        net.b1.clone_from(&self.b1);
        let per_bucket = |old: &[f32], new: &mut [f32]| {
            let len = old.len() / self.buckets;
            for (k, chunk) in new.chunks_exact_mut(len).enumerate() {
                let from = k / factor;
                chunk.copy_from_slice(&old[from * len..(from + 1) * len]);
            }
        };
        per_bucket(&self.w2, &mut net.w2);
        per_bucket(&self.b2, &mut net.b2);
        per_bucket(&self.w3, &mut net.w3);
        per_bucket(&self.b3, &mut net.b3);
        per_bucket(&self.w4, &mut net.w4);
        per_bucket(&self.b4, &mut net.b4);
        Ok(net)
    }

    /// Checks sizes as a network file's header gives them.
    fn check_sizes(inputs: usize, hidden: usize, buckets: usize) -> Result<(), NetError> {
        let fits = (1..=MAX_INPUTS).contains(&inputs)
            && (1..=MAX_HIDDEN).contains(&hidden)
            && (1..=MAX_BUCKETS).contains(&buckets);
        match fits {
            true => Ok(()),
            false => Err(NetError::BadSizes { inputs, hidden, buckets }),
        }
    }

    /// The output (log-odds that the player to move wins) for the `active` inputs in
    /// `bucket`.
    pub fn forward(&self, active: &[usize], bucket: usize) -> f32 {
        self.forward_keeping(active, bucket, &mut Activations::new(self.hidden))
    }

    /// [`Network::forward`], keeping the layers' values for [`Network::backward`].
    pub fn forward_keeping(&self, active: &[usize], bucket: usize, act: &mut Activations) -> f32 {
        let h = self.hidden;
        act.a1.copy_from_slice(&self.b1);
        for &i in active {
            for (a, w) in act.a1.iter_mut().zip(&self.w1[i * h..(i + 1) * h]) {
                *a += w;
            }
        }
        let h1: Vec<f32> = act.a1.iter().map(|&x| crelu(x)).collect();
        for o in 0..WIDTH {
            let row = &self.w2[(bucket * WIDTH + o) * h..(bucket * WIDTH + o + 1) * h];
            act.a2[o] = self.b2[bucket * WIDTH + o] + dot(row, &h1);
        }
        let h2 = act.a2.map(crelu);
        for o in 0..WIDTH {
            let row = &self.w3[(bucket * WIDTH + o) * WIDTH..(bucket * WIDTH + o + 1) * WIDTH];
            act.a3[o] = self.b3[bucket * WIDTH + o] + dot(row, &h2);
        }
        let h3 = act.a3.map(crelu);
        self.b4[bucket] + dot(&self.w4[bucket * WIDTH..(bucket + 1) * WIDTH], &h3)
    }

    /// Adds to `grad` the gradient of a loss whose derivative with respect to the output is
    /// `d_out`, for the pass that [`Network::forward_keeping`] left in `act`.
    pub fn backward(
        &self,
        active: &[usize],
        bucket: usize,
        act: &Activations,
        d_out: f32,
        grad: &mut Network,
    ) {
        let h = self.hidden;
        let h3 = act.a3.map(crelu);
        let h2 = act.a2.map(crelu);
        grad.b4[bucket] += d_out;
        let mut d3 = [0.0f32; WIDTH];
        for o in 0..WIDTH {
            grad.w4[bucket * WIDTH + o] += d_out * h3[o];
            d3[o] = d_out * self.w4[bucket * WIDTH + o] * crelu_grad(act.a3[o]);
        }
        let mut d2 = [0.0f32; WIDTH];
        for o in 0..WIDTH {
            let base = (bucket * WIDTH + o) * WIDTH;
            grad.b3[bucket * WIDTH + o] += d3[o];
            for j in 0..WIDTH {
                grad.w3[base + j] += d3[o] * h2[j];
                d2[j] += d3[o] * self.w3[base + j];
            }
        }
        let h1: Vec<f32> = act.a1.iter().map(|&x| crelu(x)).collect();
        let mut d1 = vec![0.0f32; h];
        for (o, &d2o) in d2.iter().enumerate() {
            let d = d2o * crelu_grad(act.a2[o]);
            if d == 0.0 {
                continue;
            }
            let base = (bucket * WIDTH + o) * h;
            grad.b2[bucket * WIDTH + o] += d;
            for j in 0..h {
                grad.w2[base + j] += d * h1[j];
                d1[j] += d * self.w2[base + j];
            }
        }
        for (j, d) in d1.iter_mut().enumerate() {
            *d *= crelu_grad(act.a1[j]);
        }
        for (g, d) in grad.b1.iter_mut().zip(&d1) {
            *g += d;
        }
        for &i in active {
            for (g, d) in grad.w1[i * h..(i + 1) * h].iter_mut().zip(&d1) {
                *g += d;
            }
        }
    }

    /// The network as bytes: a header, then every parameter as little-endian `f32`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in [self.inputs, self.hidden, self.buckets] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for p in self.params() {
            for x in p {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// The network that [`Network::to_bytes`] wrote. The header's sizes are checked, and
    /// the file's length against them, before anything is allocated: a short file cannot
    /// ask for a large network.
    ///
    /// # Errors
    /// If the bytes are not a network (wrong header, sizes or length, a value not finite).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let head = bytes.get(..20).ok_or(NetError::NotANetwork("too short"))?;
        if &head[..8] != MAGIC {
            return Err(NetError::NotANetwork("no PLYNET1 header"));
        }
        let word = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
        let (inputs, hidden, buckets) = (word(8) as usize, word(12) as usize, word(16) as usize);
        Network::check_sizes(inputs, hidden, buckets)?;
        let expected = Network::size_of(inputs, hidden, buckets)
            .and_then(|n| n.checked_mul(4)?.checked_add(20))
            .ok_or(NetError::BadSizes { inputs, hidden, buckets })?;
        if bytes.len() as u64 != expected {
            return Err(NetError::WrongLength { found: bytes.len(), expected });
        }
        let mut net = Network::zeros(inputs, hidden, buckets);
        let mut at = 20;
        for p in net.params_mut() {
            for x in p.iter_mut() {
                *x = f32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
                if !x.is_finite() {
                    return Err(NetError::NotFinite(at));
                }
                at += 4;
            }
        }
        Ok(net)
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Activations' integer scale: 1.0 is 256.
pub(super) const ONE: i32 = 256;

/// The layers' names, for errors.
const FIRST: &str = "first layer";
const SECOND: &str = "second layer";
const THIRD: &str = "third layer";
const OUTPUT: &str = "output layer";

/// The first-layer widths that inference is compiled for. A network's first layer is padded
/// with units of zero weight to the smallest that holds it, so that every loop of an
/// evaluation has a length known at compile time (vectorised at full width, without bounds
/// checks or remainders); the padded units are always 0 and change no result.
pub(super) const WIDTHS: [usize; 4] = [128, 256, 512, MAX_HIDDEN];

/// A network in integers, for search: weights times 256 (16-bit), biases times 256 (first
/// layer) or 65,536 (later layers), activations clipped to `0..=256`. The first layer's sums
/// are 16-bit: its weights and biases are times 256 where every unit's could sum to at most
/// `i16::MAX` whatever the inputs, else times the largest power of two below 256 for which
/// they can (a coarser first layer only for networks that need it; the shipped ones all fit at
/// 256), and its activations are scaled back to `0..=256`.
#[derive(Clone, Debug)]
pub struct QuantNet {
    /// This network's number in the process, which the evaluation's per-thread first layer
    /// ([`NetEval`]) is kept for.
    id: u64,
    inputs: usize,
    hidden: usize,
    /// The first layer's width padded to one of [`WIDTHS`].
    width: usize,
    buckets: usize,
    /// The first layer's weights and biases are times `ONE >> shift`.
    shift: u32,
    /// First layer: one row of `width` weights per input.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// Second layer per bucket, in input pairs ([`in_pairs`]): `WIDTH * width` weights.
    w2: Vec<i16>,
    b2: Vec<i32>,
    /// Third layer per bucket, in input pairs: `WIDTH * WIDTH` weights.
    w3: Vec<i16>,
    b3: Vec<i32>,
    w4: Vec<i32>,
    b4: Vec<i32>,
}

/// Calls `$body` with `N` bound, as a constant, to the padded width `$width` (one of
/// [`WIDTHS`]).
macro_rules! with_width {
    ($width:expr, $n:ident => $body:expr) => {
        match $width {
            128 => {
                const $n: usize = WIDTHS[0];
                $body
            }
            256 => {
                const $n: usize = WIDTHS[1];
                $body
            }
            512 => {
                const $n: usize = WIDTHS[2];
                $body
            }
            _ => {
                const $n: usize = WIDTHS[3];
                $body
            }
        }
    };
}

pub(super) use with_width;

impl QuantNet {
    /// The integer form of `net`.
    ///
    /// # Errors
    /// If the network's arrays do not match its sizes, a weight of the second or third layer
    /// is 128 or over in magnitude (they are 16-bit), a first-layer unit's weights and bias
    /// could sum past the 16-bit range even at the coarsest scale (times 1), or a later
    /// unit's past the 32-bit range, whatever the inputs ([`NetError::OutOfRange`]: checked
    /// for every unit of every layer, so that no evaluation overflows).
    pub fn new(net: &Network) -> Result<QuantNet, NetError> {
        let (h, buckets) = (net.hidden, net.buckets);
        Network::check_sizes(net.inputs, h, buckets)?;
        let expected = Network::zeros(0, h, buckets);
        let lengths_match = net.w1.len() == net.inputs * h
            && net.params()[1..]
                .iter()
                .zip(&expected.params()[1..])
                .all(|(p, e)| p.len() == e.len());
        if !lengths_match {
            return Err(NetError::Inconsistent { inputs: net.inputs, hidden: h, buckets });
        }
        let width = WIDTHS.into_iter().find(|&w| w >= h).unwrap_or(MAX_HIDDEN);
        // Each row of `h` first-layer units, padded with zeros to `width`.
        let pad = |w: &[f32]| -> Vec<f32> {
            w.chunks_exact(h)
                .flat_map(|row| row.iter().copied().chain(std::iter::repeat_n(0.0, width - h)))
                .collect()
        };
        let q = |layer: &'static str, w: &[f32], scale: f32| -> Result<Vec<i32>, NetError> {
            w.iter()
                .map(|&x| {
                    let v = (f64::from(x) * f64::from(scale)).round();
                    match v.abs() <= f64::from(i32::MAX) {
                        true => Ok(v as i32),
                        false => Err(NetError::OutOfRange { layer, detail: format!("weight {x}") }),
                    }
                })
                .collect()
        };
        let narrow = |layer: &'static str, w: Vec<i32>| -> Result<Vec<i16>, NetError> {
            w.into_iter()
                .map(|x| {
                    i16::try_from(x).map_err(|_| NetError::OutOfRange {
                        layer,
                        detail: format!(
                            "weight {} is not below 128 in magnitude",
                            x as f64 / 256.0
                        ),
                    })
                })
                .collect()
        };
        // The first layer at the finest scale whose sums fit 16 bits.
        let (w1, b1) = (pad(&net.w1), pad(&net.b1));
        let first = |shift: u32| -> Result<(Vec<i16>, Vec<i16>), NetError> {
            let scale = (ONE >> shift) as f32;
            let (w, b) = (q(FIRST, &w1, scale)?, q(FIRST, &b1, scale)?);
            let sums = first_layer_sums(&w, &b);
            match sums.iter().enumerate().find(|&(_, &s)| s > i64::from(i16::MAX)) {
                None => Ok((narrow(FIRST, w)?, narrow(FIRST, b)?)),
                Some((unit, total)) => Err(NetError::OutOfRange {
                    layer: FIRST,
                    detail: format!(
                        "unit {unit}'s bias and weights can sum to {total} times {scale} (over {})",
                        i16::MAX
                    ),
                }),
            }
        };
        let mut shift = 0;
        let (w1, b1) = loop {
            match first(shift) {
                Ok(layer) => break layer,
                Err(e) if shift == ONE.trailing_zeros() => return Err(e),
                Err(_) => shift += 1,
            }
        };
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let (one, two) = (ONE as f32, (ONE * ONE) as f32);
        let quant = QuantNet {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            inputs: net.inputs,
            hidden: h,
            width,
            buckets,
            shift,
            w1,
            b1,
            w2: by_bucket(&narrow(SECOND, q(SECOND, &pad(&net.w2), one)?)?, width),
            b2: q(SECOND, &net.b2, two)?,
            w3: by_bucket(&narrow(THIRD, q(THIRD, &net.w3, one)?)?, WIDTH),
            b3: q(THIRD, &net.b3, two)?,
            w4: q(OUTPUT, &net.w4, one)?,
            b4: q(OUTPUT, &net.b4, two)?,
        };
        quant.check_sums()?;
        Ok(quant)
    }

    /// Checks that no sum of the later layers can leave the 32-bit range: for each unit, its
    /// bias plus the largest its inputs can add (activations at most [`ONE`]); the first
    /// layer's are checked against the 16-bit range as it is built.
    fn check_sums(&self) -> Result<(), NetError> {
        let over = |layer: &'static str,
                    unit: usize,
                    bias: i32,
                    weights: &mut dyn Iterator<Item = i64>,
                    input_max: i64| {
            let total = i64::from(bias).abs() + weights.map(|w| w.abs() * input_max).sum::<i64>();
            match total <= i64::from(i32::MAX) {
                true => Ok(()),
                false => Err(NetError::OutOfRange {
                    layer,
                    detail: format!(
                        "unit {unit}'s bias and weights can sum to {total} (over {})",
                        i32::MAX
                    ),
                }),
            }
        };
        let w = self.width;
        let one = i64::from(ONE);
        // The later layers are stored in input pairs: the weights into output `o` of a bucket
        // are at `2o` and `2o + 1` of each of its pairs.
        for (layer, pairs, inputs, bias) in
            [(SECOND, &self.w2, w, &self.b2), (THIRD, &self.w3, WIDTH, &self.b3)]
        {
            for (bucket, block) in pairs.chunks_exact(WIDTH * inputs).enumerate() {
                for o in 0..WIDTH {
                    let unit = bucket * WIDTH + o;
                    let weights = &mut block
                        .chunks_exact(2 * WIDTH)
                        .flat_map(|p| [p[2 * o], p[2 * o + 1]])
                        .map(i64::from);
                    over(layer, unit, bias[unit], weights, one)?;
                }
            }
        }
        for (bucket, row) in self.w4.chunks_exact(WIDTH).enumerate() {
            over(OUTPUT, bucket, self.b4[bucket], &mut row.iter().map(|&x| i64::from(x)), one)?;
        }
        Ok(())
    }

    /// The first layer's width.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The length of the first layer's sums: [`QuantNet::hidden`] padded to 128, 256, 512
    /// or 1024 (the padded units' sums are always 0).
    pub fn width(&self) -> usize {
        self.width
    }

    /// The first layer's scale: its weights and biases are times `256 >> shift` (0 for
    /// every network whose first-layer sums fit 16 bits at 256).
    pub fn first_layer_shift(&self) -> u32 {
        self.shift
    }

    /// Starts the first layer's sums in `acc` ([`QuantNet::width`] long) at its biases.
    pub fn start(&self, acc: &mut [i16]) {
        acc.copy_from_slice(&self.b1);
    }

    /// Adds active input `i` to the first layer's sums `acc` ([`QuantNet::width`] long; an
    /// input out of range is ignored).
    pub fn add_input(&self, acc: &mut [i16], i: usize) {
        with_width!(self.width, N => self.add::<N>(sized_mut(acc), i));
    }

    /// Takes active input `i` out of the first layer's sums `acc` ([`QuantNet::width`] long;
    /// an input out of range is ignored).
    pub fn remove_input(&self, acc: &mut [i16], i: usize) {
        with_width!(self.width, N => self.remove::<N>(sized_mut(acc), i));
    }

    /// The output, in units of `1 / 65536` log-odds, from the first layer's sums `acc`
    /// ([`QuantNet::width`] long) and the later layers of `bucket` (the last bucket for one
    /// out of range).
    pub fn finish(&self, acc: &[i16], bucket: usize) -> i32 {
        with_width!(self.width, N => self.finish_in::<N>(sized(acc), bucket))
    }

    /// [`QuantNet::add_input`] at padded width `N`. No sum can overflow: the layer was built
    /// so that no unit's bias and weights sum past `i16::MAX` in magnitude.
    #[inline]
    fn add<const N: usize>(&self, acc: &mut [i16; N], i: usize) {
        if let Some(row) = self.w1.as_chunks::<N>().0.get(i) {
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// [`QuantNet::remove_input`] at padded width `N`.
    #[inline]
    fn remove<const N: usize>(&self, acc: &mut [i16; N], i: usize) {
        if let Some(row) = self.w1.as_chunks::<N>().0.get(i) {
            for (a, &w) in acc.iter_mut().zip(row) {
                *a -= w;
            }
        }
    }

    /// [`QuantNet::finish`] at padded width `N`.
    #[inline]
    fn finish_in<const N: usize>(&self, acc: &[i16; N], bucket: usize) -> i32 {
        // Each array is taken whole (one bounds check, not one per element).
        let (one, shift) = ((ONE >> self.shift) as i16, self.shift);
        let mut h1 = [0i16; N];
        for (h, &a) in h1.iter_mut().zip(acc) {
            *h = a.clamp(0, one) << shift;
        }
        let bucket = bucket.min(self.buckets - 1);
        let mut s2 = self.b2.as_chunks::<WIDTH>().0[bucket];
        add_pairs(&self.w2[bucket * WIDTH * N..(bucket + 1) * WIDTH * N], &h1, &mut s2);
        let mut h2 = [0i16; WIDTH];
        for (h, s) in h2.iter_mut().zip(s2) {
            *h = (s >> 8).clamp(0, ONE) as i16;
        }
        let mut h3 = self.b3.as_chunks::<WIDTH>().0[bucket];
        let w3 = &self.w3[bucket * WIDTH * WIDTH..(bucket + 1) * WIDTH * WIDTH];
        add_pairs(w3, &h2, &mut h3);
        let w4 = &self.w4.as_chunks::<WIDTH>().0[bucket];
        self.b4[bucket] + w4.iter().zip(h3).map(|(w, x)| w * ((x >> 8).clamp(0, ONE))).sum::<i32>()
    }
}

/// A later layer's weights, [`WIDTH`] rows of `inputs` per bucket (`inputs` even), each
/// bucket's in input pairs ([`in_pairs`]).
fn by_bucket(rows: &[i16], inputs: usize) -> Vec<i16> {
    rows.chunks_exact(WIDTH * inputs).flat_map(|bucket| in_pairs::<WIDTH>(bucket, inputs)).collect()
}

/// Each first-layer unit's bias plus all its weights, in magnitude: the most its sum can
/// reach whatever the inputs (`w` one row of `b.len()` weights per input).
fn first_layer_sums(w: &[i32], b: &[i32]) -> Vec<i64> {
    let mut sums: Vec<i64> = b.iter().map(|&b| i64::from(b).abs()).collect();
    for row in w.chunks_exact(b.len()) {
        for (s, &w) in sums.iter_mut().zip(row) {
            *s += i64::from(w).abs();
        }
    }
    sums
}

/// `acc` as an array of `N` (the padded width the network was built with).
pub(super) fn sized<const N: usize, T>(acc: &[T]) -> &[T; N] {
    acc.try_into().expect("first-layer sums as long as the network's padded width")
}

/// `acc` as an array of `N`, to change.
pub(super) fn sized_mut<const N: usize, T>(acc: &mut [T]) -> &mut [T; N] {
    acc.try_into().expect("first-layer sums as long as the network's padded width")
}

/// The dot product of 16-bit vectors in 32 bits (a pattern the compiler turns into
/// multiply-add instructions, at full width for a length known at compile time).
#[inline]
pub(super) fn dot16<const N: usize>(a: &[i16; N], b: &[i16; N]) -> i32 {
    a.iter().zip(b).map(|(&x, &y)| i32::from(x) * i32::from(y)).sum()
}

/// A network as an [`Evaluator`]: the output in log-odds times `scale` (score units per
/// unit of log-odds), for the player to move, negated for the other.
#[derive(Clone, Debug)]
pub struct NetEval<I> {
    inputs: I,
    net: Arc<QuantNet>,
    /// Score units per 1/65536 log-odds.
    scale: f64,
}

impl<I> NetEval<I> {
    /// The evaluation by `net` over `inputs`, in units of `scale` per unit of log-odds.
    ///
    /// # Errors
    /// If the network's inputs differ from `inputs`', its buckets differ and `inputs` do not
    /// split into as many ([`NetInputs::with_buckets`]), or its weights are out of range.
    pub fn new<G: Game>(inputs: I, net: &Network, scale: f64) -> Result<NetEval<I>, NetError>
    where
        I: NetInputs<G>,
    {
        let mismatch = || NetError::Mismatch {
            net_inputs: net.inputs,
            net_buckets: net.buckets,
            inputs: inputs.inputs(),
            buckets: inputs.buckets(),
        };
        if net.inputs != inputs.inputs() {
            return Err(mismatch());
        }
        let inputs = match net.buckets == inputs.buckets() {
            true => inputs,
            false => inputs.with_buckets(net.buckets).ok_or_else(mismatch)?,
        };
        let net = Arc::new(QuantNet::new(net)?);
        Ok(NetEval { inputs, net, scale: scale / f64::from(ONE * ONE) })
    }

    /// The evaluation by the network file `bytes` that a ruleset embeds at build time
    /// (`include_bytes!`); a test of the ruleset calls it once so that a bad file fails
    /// there.
    ///
    /// # Panics
    /// If `bytes` is not a network for `inputs` (see [`NetEval::new`]).
    pub fn embedded<G: Game>(inputs: I, bytes: &[u8], scale: f64) -> NetEval<I>
    where
        I: NetInputs<G>,
    {
        let net = Network::from_bytes(bytes).unwrap_or_else(|e| panic!("embedded network: {e}"));
        NetEval::new(inputs, &net, scale).unwrap_or_else(|e| panic!("embedded network: {e}"))
    }

    /// The inputs.
    pub fn inputs(&self) -> &I {
        &self.inputs
    }
}

/// The most inputs for which [`NetEval`] keeps each thread's last first layer and updates
/// it by the inputs that changed; wider input sets are summed afresh every time.
pub const INCREMENTAL_INPUTS: usize = 256;

/// Active inputs as bits (input `i` is bit `i % 64` of word `i / 64`), for networks of at
/// most [`INCREMENTAL_INPUTS`] inputs.
pub type InputBits = [u64; INCREMENTAL_INPUTS / 64];

/// Sets in `bits` the inputs `offset + j` for each bit `j` of `set` (a set of at most 64
/// inputs: a bitboard); bits past the last word are dropped.
///
/// ```
/// use ply::eval::net::put_set;
///
/// let mut bits = [0; 4];
/// put_set(&mut bits, 60, 0b1011);
/// assert_eq!(bits, [(1 << 60) | (1 << 61) | (1 << 63), 0, 0, 0]);
/// put_set(&mut bits, 126, 0b111);
/// assert_eq!(bits[1..3], [3 << 62, 1]);
/// ```
#[inline]
pub fn put_set(bits: &mut InputBits, offset: usize, set: u64) {
    let spread = u128::from(set) << (offset % 64);
    if let Some(word) = bits.get_mut(offset / 64) {
        *word |= spread as u64;
    }
    if let Some(word) = bits.get_mut(offset / 64 + 1) {
        *word |= (spread >> 64) as u64;
    }
}

/// How many first layers each thread keeps: an evaluation starts from the one whose inputs
/// differ least from its own. The inputs are seen from the player to move, so a position and
/// its child share few of them; two layers and more keep both players' recent positions.
const KEPT_LAYERS: usize = 2;

/// One first layer that a thread keeps: the network, its active inputs, its sums and when it
/// was last used.
struct KeptLayer {
    net: u64,
    active: InputBits,
    sums: Vec<i16>,
    used: u64,
}

impl KeptLayer {
    const EMPTY: KeptLayer =
        KeptLayer { net: 0, active: [0; INCREMENTAL_INPUTS / 64], sums: Vec::new(), used: 0 };
}

/// A thread's kept first layers ([`KEPT_LAYERS`]) and the count of evaluations that used them.
struct KeptLayers {
    layers: [KeptLayer; KEPT_LAYERS],
    clock: u64,
}

thread_local! {
    static KEPT: RefCell<KeptLayers> =
        const { RefCell::new(KeptLayers { layers: [KeptLayer::EMPTY; KEPT_LAYERS], clock: 0 }) };
}

/// The first-layer sums that [`QuantNet::apply`] brings up to date at once: eight 256-bit
/// vectors of 16 sums, which stay in registers while every changed input's weights are
/// added.
const SPAN: usize = 128;

/// The number of set bits.
fn count(bits: &InputBits) -> u32 {
    bits.iter().map(|w| w.count_ones()).sum()
}

impl QuantNet {
    /// Takes the inputs `gone` out of the first-layer sums `sums` (at padded width `N`) and
    /// adds the inputs `came`, [`SPAN`] sums at a time (each read and written once, however
    /// many inputs changed).
    #[inline]
    fn apply<const N: usize>(&self, sums: &mut [i16; N], gone: &InputBits, came: &InputBits) {
        let rows = self.w1.as_chunks::<N>().0;
        for (c, span) in sums.as_chunks_mut::<SPAN>().0.iter_mut().enumerate() {
            let mut s = *span;
            for_each_bit(gone, |i| {
                if let Some(row) = rows.get(i) {
                    for (s, &w) in s.iter_mut().zip(&row.as_chunks::<SPAN>().0[c]) {
                        *s -= w;
                    }
                }
            });
            for_each_bit(came, |i| {
                if let Some(row) = rows.get(i) {
                    for (s, &w) in s.iter_mut().zip(&row.as_chunks::<SPAN>().0[c]) {
                        *s += w;
                    }
                }
            });
            *span = s;
        }
    }

    /// The first layer of `active` (at padded width `N`), from the kept layer whose inputs
    /// differ least, updated by those inputs when they are fewer than the active ones, else
    /// summed afresh in the layer used longest ago.
    fn update<'a, const N: usize>(
        &self,
        kept: &'a mut KeptLayers,
        active: &InputBits,
    ) -> &'a [i16; N] {
        kept.clock += 1;
        let distance: [u32; KEPT_LAYERS] = std::array::from_fn(|k| {
            let layer = &kept.layers[k];
            match layer.net == self.id && layer.sums.len() == N {
                true => count(&std::array::from_fn(|w| layer.active[w] ^ active[w])),
                false => u32::MAX,
            }
        });
        let nearest = (0..KEPT_LAYERS).min_by_key(|&k| distance[k]).unwrap_or(0);
        let layer = if distance[nearest] < count(active) {
            let layer = &mut kept.layers[nearest];
            let gone: InputBits = std::array::from_fn(|w| layer.active[w] & !active[w]);
            let came: InputBits = std::array::from_fn(|w| active[w] & !layer.active[w]);
            self.apply(sized_mut::<N, _>(&mut layer.sums), &gone, &came);
            layer
        } else {
            let oldest = (0..KEPT_LAYERS).min_by_key(|&k| kept.layers[k].used).unwrap_or(0);
            let layer = &mut kept.layers[oldest];
            layer.net = self.id;
            layer.sums.resize(N, 0);
            let sums = sized_mut::<N, _>(&mut layer.sums);
            self.start(sums);
            self.apply(sums, &[0; INCREMENTAL_INPUTS / 64], active);
            layer
        };
        layer.active = *active;
        layer.used = kept.clock;
        sized(&layer.sums)
    }
}

/// Calls `f` with the number of each set bit of `bits`.
#[inline]
fn for_each_bit(bits: &InputBits, mut f: impl FnMut(usize)) {
    for (k, &word) in bits.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            f(k * 64 + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}

impl<I> NetEval<I> {
    /// The network's output for `state` at padded width `N`, in `1 / 65536` log-odds for
    /// the player to move.
    #[inline]
    fn output<const N: usize, G: Game>(&self, game: &G, state: &G::State) -> i32
    where
        I: NetInputs<G>,
    {
        let net = &*self.net;
        if net.inputs > INCREMENTAL_INPUTS {
            let mut sums = [0i16; N];
            net.start(&mut sums);
            let bucket = self.inputs.active(game, state, &mut |i| net.add(&mut sums, i));
            return net.finish_in(&sums, bucket);
        }
        let mut active: InputBits = [0; INCREMENTAL_INPUTS / 64];
        let bucket = self.inputs.active_bits(game, state, &mut active);
        KEPT.with(|kept| match kept.try_borrow_mut() {
            Ok(mut kept) => net.finish_in(net.update::<N>(&mut kept, &active), bucket),
            // Not reached: an evaluation does not call another.
            Err(_) => {
                let mut fresh = KeptLayers { layers: [KeptLayer::EMPTY; KEPT_LAYERS], clock: 0 };
                net.finish_in(net.update::<N>(&mut fresh, &active), bucket)
            }
        })
    }
}

/// The first layer is kept per thread: each evaluation that a thread makes with a network of
/// at most [`INCREMENTAL_INPUTS`] inputs starts from the sums of its previous one and updates
/// them by the inputs that differ (a search evaluates neighbouring positions one after
/// another, which differ in a few pieces), with the same result as summing afresh.
impl<G: Game, I: NetInputs<G>> Evaluator<G> for NetEval<I> {
    #[inline]
    fn evaluate(&self, game: &G, state: &G::State, player: Player) -> G::Score {
        let value = with_width!(self.net.width, N => self.output::<N, G>(game, state));
        let limit = (G::Score::WIN_RANGE.to_f64() - 1.0).max(0.0);
        let v = (f64::from(value) * self.scale).round().clamp(-limit, limit);
        let v = if game.to_move(state) == player { v } else { -v };
        G::Score::from_f64(v)
    }

    /// A network costs several times a lookup.
    #[inline]
    fn worth_caching(&self) -> bool {
        true
    }
}

/// A network where its inputs fit the game ([`NetInputs::fits`]: the board it was trained
/// for) and another evaluation elsewhere: how a ruleset ships a network trained on one of
/// the boards it plays.
///
/// ```
/// use ply::eval::net::{NetEval, NetOr, Network};
/// use ply::eval::Evaluator;
/// # use ply::eval::net::NetInputs;
/// # use ply::games::{TicTacToe, TicTacToeState};
/// use ply::{Game, Player};
/// # #[derive(Clone)]
/// # struct Marks;
/// # impl NetInputs<TicTacToe> for Marks {
/// #     fn inputs(&self) -> usize { 18 }
/// #     fn buckets(&self) -> usize { 1 }
/// #     fn active(&self, _: &TicTacToe, _: &TicTacToeState, _: &mut impl FnMut(usize)) -> usize { 0 }
/// # }
///
/// // A tic-tac-toe network (`Marks`: 18 inputs, as in the module's example) with the
/// // game's own evaluation as the fallback.
/// let net = NetEval::new(Marks, &Network::random(18, 16, 1, 7), 100.0).unwrap();
/// let eval = NetOr::new(net, ply::eval::GameEval);
/// let game = TicTacToe;
/// let v: i32 = eval.evaluate(&game, &game.initial_state(), Player::FIRST);
/// assert_eq!(v, -eval.evaluate(&game, &game.initial_state(), Player::SECOND));
/// ```
#[derive(Clone, Debug)]
pub struct NetOr<I, E> {
    net: NetEval<I>,
    elsewhere: E,
}

impl<I, E> NetOr<I, E> {
    /// `net` where its inputs fit the game, `elsewhere` where they do not.
    pub fn new(net: NetEval<I>, elsewhere: E) -> NetOr<I, E> {
        NetOr { net, elsewhere }
    }
}

impl<G: Game, I: NetInputs<G>, E: Evaluator<G>> Evaluator<G> for NetOr<I, E> {
    #[inline]
    fn evaluate(&self, game: &G, state: &G::State, player: Player) -> G::Score {
        if self.net.inputs.fits(game) {
            self.net.evaluate(game, state, player)
        } else {
            self.elsewhere.evaluate(game, state, player)
        }
    }

    /// A network costs several times a lookup (the other evaluation is cached as well: the
    /// cache is per search, and a search plays one board).
    #[inline]
    fn worth_caching(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loss `(sigmoid(y) - t)^2` and its derivative in `y`.
    fn loss(y: f32, t: f32) -> (f32, f32) {
        let p = 1.0 / (1.0 + (-y).exp());
        ((p - t) * (p - t), 2.0 * (p - t) * p * (1.0 - p))
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let net = Network::random(10, 8, 2, 3);
        let (active, bucket, target) = ([1usize, 4, 7], 1, 0.8f32);
        let mut act = Activations::new(net.hidden);
        let y = net.forward_keeping(&active, bucket, &mut act);
        let mut grad = Network::zeros(10, 8, 2);
        net.backward(&active, bucket, &act, loss(y, target).1, &mut grad);
        let mut checked = 0;
        for p in 0..8 {
            for i in 0..net.params()[p].len() {
                let g = grad.params()[p][i];
                let mut plus = net.clone();
                plus.params_mut()[p][i] += 1e-2;
                let mut minus = net.clone();
                minus.params_mut()[p][i] -= 1e-2;
                let numeric = (loss(plus.forward(&active, bucket), target).0
                    - loss(minus.forward(&active, bucket), target).0)
                    / 2e-2;
                // Kinks of the clipped ReLU aside, the two agree.
                if (g - numeric).abs() > 1e-3 + 0.05 * numeric.abs() {
                    let near_kink = act
                        .a1
                        .iter()
                        .chain(&act.a2)
                        .chain(&act.a3)
                        .any(|&a| (a.abs() < 2e-2) || ((a - 1.0).abs() < 2e-2));
                    assert!(near_kink, "parameter {p}/{i}: {g} against {numeric}");
                }
                checked += usize::from(g != 0.0);
            }
        }
        assert!(checked > 50, "{checked}");
    }

    /// A file's header alone cannot make the reader allocate: sizes out of range, and sizes
    /// in range that the file's length does not hold, are errors before any allocation.
    #[test]
    fn a_header_is_checked_against_the_length_before_allocating() {
        let header = |inputs: u32, hidden: u32, buckets: u32| {
            let mut bytes = MAGIC.to_vec();
            for n in [inputs, hidden, buckets] {
                bytes.extend_from_slice(&n.to_le_bytes());
            }
            bytes
        };
        // The largest sizes allowed: 68 GB of weights asked for by a 20-byte file.
        let huge = header(MAX_INPUTS as u32, MAX_HIDDEN as u32, MAX_BUCKETS as u32);
        match Network::from_bytes(&huge) {
            Err(NetError::WrongLength { found: 20, expected }) => assert!(expected > 60 << 30),
            other => panic!("{other:?}"),
        }
        for (i, h, b) in [(0, 8, 1), (1 << 24 | 1, 8, 1), (4, 0, 1), (4, 1025, 1), (4, 8, 65)] {
            let e = Network::from_bytes(&header(i, h, b)).unwrap_err();
            assert!(matches!(e, NetError::BadSizes { .. }), "{i} {h} {b}: {e}");
        }
        assert_eq!(Network::from_bytes(b"PLYNET1\0\0"), Err(NetError::NotANetwork("too short")));
        let mut nan = Network::random(3, 4, 1, 1).to_bytes();
        nan[24..28].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(Network::from_bytes(&nan), Err(NetError::NotFinite(24)));
    }

    /// Weights that the integer form cannot hold are refused, layer by layer, where the old
    /// limit (any weight up to 100,000) let sums overflow; a network at the edge of every
    /// limit evaluates with every input active without overflow (this test's build checks
    /// integer overflow).
    #[test]
    fn weights_that_could_overflow_the_integer_form_are_refused() {
        let layer_of = |net: &Network| match QuantNet::new(net) {
            Err(NetError::OutOfRange { layer, .. }) => layer,
            other => panic!("{:?}", other.map(|_| ())),
        };
        // A 16-bit weight out of range.
        let mut net = Network::zeros(4, 8, 1);
        net.w2[0] = 128.0;
        assert_eq!(layer_of(&net), SECOND);
        // First layer: 300 inputs of weight 127 can sum past 2^15 in one unit even at the
        // coarsest scale (38,100 times 1); 250 fit there (31,750), and only there.
        let mut net = Network::zeros(300, 1, 1);
        net.w1.iter_mut().for_each(|w| *w = 127.0);
        assert_eq!(layer_of(&net), FIRST);
        net.w1.truncate(250);
        net.inputs = 250;
        assert_eq!(QuantNet::new(&net).map(|q| q.first_layer_shift()), Ok(8));
        // A weight of 128 in a small first layer: at half the scale.
        let mut net = Network::zeros(4, 8, 1);
        net.w1[0] = 128.0;
        assert_eq!(QuantNet::new(&net).map(|q| q.first_layer_shift()), Ok(1));
        // Second layer: 1,024 activations of 256 times a weight of 127.
        let mut net = Network::zeros(4, MAX_HIDDEN, 1);
        net.w2[..MAX_HIDDEN].iter_mut().for_each(|w| *w = 127.0);
        assert_eq!(layer_of(&net), SECOND);
        // Third layer: a bias of 30,000 (2^31 x 0.92) and 32 weights of 100.
        let mut net = Network::zeros(4, 8, 1);
        net.b3[5] = 30_000.0;
        net.w3[5 * WIDTH..6 * WIDTH].iter_mut().for_each(|w| *w = 100.0);
        assert_eq!(layer_of(&net), THIRD);
        // Output layer: 32 weights of 2,000, below the old limit of 100,000.
        let mut net = Network::zeros(4, 8, 1);
        net.w4.iter_mut().for_each(|w| *w = 2_000.0);
        assert_eq!(layer_of(&net), OUTPUT);
        // A bias beyond 32 bits at all.
        let mut net = Network::zeros(4, 8, 1);
        net.b4[0] = 1e6;
        assert_eq!(layer_of(&net), OUTPUT);
        // At the edge of every limit: the evaluation's sums stay in range (the first layer's
        // 250 x 125 + 256 = 31,506 at the full scale).
        let inputs = 250;
        let mut net = Network::zeros(inputs, 128, 1);
        net.w1.iter_mut().for_each(|w| *w = 0.49);
        net.b1.iter_mut().for_each(|b| *b = 1.0);
        net.w2.iter_mut().for_each(|w| *w = 127.0);
        net.b2.iter_mut().for_each(|b| *b = -10.0);
        net.w3.iter_mut().for_each(|w| *w = 127.0);
        net.w4.iter_mut().for_each(|w| *w = 250.0);
        let q = QuantNet::new(&net).expect("within every limit");
        assert_eq!(q.first_layer_shift(), 0);
        let mut acc = vec![0i16; q.width()];
        q.start(&mut acc);
        (0..inputs).for_each(|i| q.add_input(&mut acc, i));
        let out = q.finish(&acc, 0);
        assert!(out > 0, "{out}");
    }

    #[test]
    fn files_round_trip_and_the_integer_form_agrees() {
        let net = Network::random(30, 64, 3, 9);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let short = Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(matches!(short, NetError::WrongLength { .. }), "{short}");
        assert!(Network::from_bytes(b"PLYNET0\0").is_err());
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        // First layers padded to 128 units and to 256, one that fills its width, and one
        // whose weights are too large for 16-bit sums at the full scale (a quarter of it).
        for (hidden, width, large, shift) in
            [(64, 128, 1.0, 0), (200, 256, 1.0, 0), (128, 128, 1.0, 0), (64, 128, 100.0, 2)]
        {
            let mut net = Network::random(30, hidden, 3, 9 + hidden as u64);
            net.w1.iter_mut().chain(&mut net.b1).for_each(|w| *w *= large);
            let q = QuantNet::new(&net).unwrap();
            assert_eq!((q.hidden(), q.width(), q.first_layer_shift()), (hidden, width, shift));
            for _ in 0..200 {
                let active: Vec<usize> = (0..30).filter(|_| rng.gen_bool(0.3)).collect();
                let bucket = rng.gen_range(0..3);
                let mut acc = vec![0i16; q.width()];
                q.start(&mut acc);
                active.iter().for_each(|&i| q.add_input(&mut acc, i));
                // An input added and taken out again changes nothing.
                q.add_input(&mut acc, 29);
                q.remove_input(&mut acc, 29);
                assert!(acc[hidden..].iter().all(|&a| a == 0));
                let integer = f64::from(q.finish(&acc, bucket)) / 65536.0;
                let float = f64::from(net.forward(&active, bucket));
                assert!((integer - float).abs() < 0.02, "{integer} against {float}");
            }
        }
        let mut wrong = net.clone();
        wrong.w3.pop();
        assert!(matches!(QuantNet::new(&wrong).unwrap_err(), NetError::Inconsistent { .. }));
    }

    /// Tic-tac-toe's squares as inputs: seven for each square and each of its three states
    /// (empty or a player's mark), 189 inputs in all; a move changes 14 of the 63 active.
    #[derive(Clone)]
    struct Squares {
        inputs: usize,
    }

    impl NetInputs<crate::games::TicTacToe> for Squares {
        fn inputs(&self) -> usize {
            self.inputs
        }
        fn buckets(&self) -> usize {
            2
        }
        fn active(
            &self,
            _: &crate::games::TicTacToe,
            s: &crate::games::TicTacToeState,
            sink: &mut impl FnMut(usize),
        ) -> usize {
            let mut marks = 0;
            for sq in 0..9u8 {
                let state = s.at(sq).map_or(0, |p| 1 + p.index());
                marks += usize::from(state > 0);
                for j in 0..7 {
                    sink((usize::from(sq) * 3 + state) * 7 + j);
                }
            }
            marks % 2
        }
    }

    #[test]
    fn the_kept_first_layer_gives_the_values_of_a_fresh_sum() {
        use crate::games::TicTacToe;
        use crate::testing::visit_random_games;
        let game = TicTacToe;
        // With 200 inputs the layer is updated from the thread's last evaluation; with 300 it
        // is summed afresh.
        for inputs in [200, 300] {
            let squares = Squares { inputs };
            let net = Network::random(inputs, 48, 2, 11);
            let eval = NetEval::new(squares.clone(), &net, 100.0).unwrap();
            let other = NetEval::new(squares.clone(), &Network::random(inputs, 48, 2, 12), 100.0);
            let other = other.unwrap();
            let q = QuantNet::new(&net).unwrap();
            let mut seen = 0;
            visit_random_games(&game, 30, 9, 4, |state| {
                let mut acc = vec![0i16; q.width()];
                q.start(&mut acc);
                let bucket = squares.active(&game, state, &mut |i| q.add_input(&mut acc, i));
                let fresh = (f64::from(q.finish(&acc, bucket)) * 100.0 / 65536.0).round() as i32;
                let mover = game.to_move(state);
                assert_eq!(eval.evaluate(&game, state, mover), fresh);
                // Another network between two evaluations does not mix their layers.
                if seen % 7 == 3 {
                    other.evaluate(&game, state, mover);
                }
                seen += 1;
            });
            assert!(seen > 100);
        }
    }
}
