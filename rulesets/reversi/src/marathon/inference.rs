//! Exact inference of an opponent's weights from its moves.
//!
//! An opponent of the contest plays the placement with the largest ratio `M / O`, where `M`
//! and `O` are sums of its weights over the cells the mover and the others own after the
//! placement ([`Strategy`]). Every observed decision therefore says, for the chosen placement
//! `a` and every other legal placement `b`, that `M_a / O_a > M_b / O_b` (`b` earlier in
//! reading order) or `M_a / O_a >= M_b / O_b` (`b` later), with the zero-denominator rule of
//! [`Strategy`]. `M` and `O` are linear in the weights, so each such condition is a
//! linear-fractional inequality. The denominators are sums of weights drawn from
//! `[-50, 50]`: on the first test cases of seed 1 one placement in six has a negative one,
//! and one decision in five has placements of both signs, so clearing them does not give
//! linear constraints (their product has no fixed sign, and the cleared form is quadratic);
//! the conditions are kept as they are.
//!
//! Along any line `w + t d` in weight space, `M` and `O` are linear in `t`, so each condition
//! is a comparison of two ratios of linear functions of `t`: it changes truth value only
//! where a numerator or denominator crosses zero or where `M_a O_b - M_b O_a` (a quadratic in
//! `t`) does. A [`Decision`] computes those breakpoints and so the exact set of `t` that
//! satisfies each condition, a union of intervals. A [`Belief`] keeps a few weight vectors
//! (particles). To take in a new decision, a particle moves along the gradient of a violated
//! condition to a point drawn uniformly from the part of the line that satisfies the most
//! conditions, until it satisfies all of them (a particle stuck on a plateau is drawn again
//! from the prior every 50 moves); then it makes hit-and-run moves along random directions,
//! each to a uniform point of the line's feasible part, which samples the uniform prior
//! restricted to the feasible region. The values depend on the weights only up to a
//! positive factor, so a particle that leaves the prior's box ([`PRIOR_BOUND`]) is scaled
//! back into it. The prediction of a move is the particles' vote, its confidence the share
//! of the vote.
//!
//! The opponents of one test case are drawn from one converged population, so they share
//! most of their weights: by default ([`InferenceConfig::pool`]) one belief takes every
//! opponent's decisions, and each opponent's particles are the shared ones moved as little as
//! it takes to explain that opponent's own moves ([`Belief::adapt_from`]). On the first ten
//! test cases of seed 1 this predicts 31% of the moves instead of 27%.
//!
//! The feasible region stays wide: one opponent makes 15 to 35 placements a game, each with
//! about ten alternatives, against 49 to 144 unknown weights, and points of the region that
//! differ by a few units per cell disagree on many later moves. On the test cases of seed 1
//! the vote predicts about a fifth of the opponents' moves (the example `reversi_marathon`
//! prints the share per game phase), so [`InferenceContestant`] plans with its best particles
//! only while the recent predictions hold up, near the end, or when told to, and plays MCTS
//! otherwise.

use ply::search::mcts::Mcts;
use ply::search::{Agent, Budget, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smallvec::SmallVec;

use super::contest::{board_state, players_for_size, Contestant};
use super::modelling::reconstruct;
use super::planning::{plan, plan_with_values};

use super::strategy::Strategy;
use crate::board::{bit_test, for_each_bit, Bits, NO_BITS};
use crate::{Reversi, ReversiMove, ReversiState};

/// Weights are drawn uniformly from `[-PRIOR_BOUND, PRIOR_BOUND]` before any observation:
/// the seed's initial range, 50, plus room for the mutation noise of up to 100 generations
/// (a random walk of about 3 units).
pub const PRIOR_BOUND: f64 = 60.0;

/// Line moves after which a particle that is still inconsistent is drawn again from the
/// prior.
const RESTART_MOVES: usize = 50;

/// Line moves of [`Belief::adapt_from`] that go to the nearest point satisfying the most
/// conditions; later moves draw uniformly, so a particle caught between conditions escapes.
const NEAREST_MOVES: usize = 20;

/// One legal placement of an observed decision.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Candidate {
    /// The square placed on.
    sq: usize,
    /// The other players' discs it flips.
    flips: Bits,
    /// The other players own no cell after it (the denominator is an empty sum).
    wipes_out: bool,
}

/// One observed decision of an opponent: the position's ownership, every legal placement and
/// the one played.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The seat that moved (0 is the contestant).
    seat: usize,
    /// Cells the mover owned before the move.
    mine: Bits,
    /// Cells the other players owned before the move.
    others: Bits,
    /// Every legal placement, in reading order.
    candidates: SmallVec<[Candidate; 16]>,
    /// Index in `candidates` of the placement played.
    chosen: usize,
    /// Empty cells before the move.
    empties: u32,
    /// Cells on the board.
    cells: usize,
}

/// The value of a placement with totals `mine` and `others` (see [`Strategy`]): `+inf` or
/// `-inf` when the other players own no cell after it, by the sign of `mine`.
#[inline]
fn value(mine: f64, others: f64, wipes_out: bool) -> f64 {
    if wipes_out {
        if mine > 0.0 {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        }
    } else {
        super::strategy::ratio(mine, others)
    }
}

impl Decision {
    /// The decision of the player to move in `state` who placed on `square`.
    ///
    /// Returns `None` if `square` is not a legal placement of that player.
    pub fn new(game: &Reversi, state: &ReversiState, square: usize) -> Option<Decision> {
        let seat = state.to_move as usize;
        let placements = game.placements(state, seat);
        if square >= game.size() * game.size() || !bit_test(&placements, square) {
            return None;
        }
        let mine = state.discs[seat];
        let mut others = NO_BITS;
        for q in (0..game.players()).filter(|&q| q != seat) {
            for w in 0..4 {
                others[w] |= state.discs[q][w];
            }
        }
        let mut candidates = SmallVec::new();
        let mut chosen = 0;
        for_each_bit(&placements, |sq| {
            let flips = game.flips(state, seat, sq);
            let wipes_out = (0..4).all(|w| others[w] & !flips[w] == 0);
            if sq == square {
                chosen = candidates.len();
            }
            candidates.push(Candidate { sq, flips, wipes_out });
        });
        Some(Decision {
            seat,
            mine,
            others,
            candidates,
            chosen,
            empties: state.empties(),
            cells: game.size() * game.size(),
        })
    }

    /// The seat that moved (0 is the contestant, 1.. the opponents).
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The square played.
    pub fn square(&self) -> usize {
        self.candidates[self.chosen].sq
    }

    /// The legal placements, in reading order.
    pub fn squares(&self) -> impl Iterator<Item = usize> + '_ {
        self.candidates.iter().map(|c| c.sq)
    }

    /// Empty cells before the move.
    pub fn empties(&self) -> u32 {
        self.empties
    }

    /// The share of the board filled before the move, in `[0, 1]`.
    pub fn filled(&self) -> f64 {
        1.0 - f64::from(self.empties) / self.cells as f64
    }

    /// The mover's total `M` and the others' total `O` after the placement on `square` under
    /// `weights` (`None` if it is not one of the decision's placements), and whether the
    /// others own no cell after it.
    pub fn totals(&self, weights: &[f64], square: usize) -> Option<(f64, f64, bool)> {
        let c = self.candidates.iter().find(|c| c.sq == square)?;
        let (mine, others) = self.base(weights);
        let (m, o) = self.after(weights, mine, others, c);
        Some((m, o, c.wipes_out))
    }

    /// The conditions the decision puts on the weights, one per placement not played:
    /// `(played, other, strict)`, meaning `M_played / O_played > M_other / O_other` when
    /// `strict` (the other placement comes first in reading order) and `>=` otherwise.
    pub fn conditions(&self) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
        let a = self.square();
        self.candidates
            .iter()
            .enumerate()
            .filter(move |&(i, _)| i != self.chosen)
            .map(move |(i, c)| (a, c.sq, i < self.chosen))
    }

    /// The value `weights` give each candidate placement, in candidate order.
    fn values(&self, weights: &[f64]) -> SmallVec<[f64; 16]> {
        let (mine, others) = self.base(weights);
        self.candidates
            .iter()
            .map(|c| {
                let (m, o) = self.after(weights, mine, others, c);
                value(m, o, c.wipes_out)
            })
            .collect()
    }

    /// How many of the decision's conditions `weights` violate (0: the weights choose the
    /// placement played).
    pub fn violations(&self, weights: &[f64]) -> usize {
        let vals = self.values(weights);
        let va = vals[self.chosen];
        vals.iter()
            .enumerate()
            .filter(|&(i, &vb)| {
                i != self.chosen && if i < self.chosen { va <= vb } else { va < vb }
            })
            .count()
    }

    fn base(&self, weights: &[f64]) -> (f64, f64) {
        let (mut mine, mut others) = (0.0, 0.0);
        for_each_bit(&self.mine, |s| mine += weights[s]);
        for_each_bit(&self.others, |s| others += weights[s]);
        (mine, others)
    }

    fn after(&self, weights: &[f64], mine: f64, others: f64, c: &Candidate) -> (f64, f64) {
        let mut flipped = 0.0;
        for_each_bit(&c.flips, |s| flipped += weights[s]);
        (mine + weights[c.sq] + flipped, others - flipped)
    }
}

/// A linear function of the position `t` on a line: `c0 + c1 t`.
#[derive(Clone, Copy, Debug)]
struct Affine {
    c0: f64,
    c1: f64,
}

impl Affine {
    #[inline]
    fn at(self, t: f64) -> f64 {
        self.c0 + self.c1 * t
    }

    #[inline]
    fn root(self) -> Option<f64> {
        (self.c1 != 0.0).then(|| -self.c0 / self.c1)
    }
}

/// One side of a condition along a coordinate: the placement's totals as functions of `t`.
#[derive(Clone, Copy, Debug)]
struct Side {
    m: Affine,
    o: Affine,
    wipes_out: bool,
}

impl Side {
    #[inline]
    fn value(&self, t: f64) -> f64 {
        value(self.m.at(t), self.o.at(t), self.wipes_out)
    }
}

/// Pushes the values of `t` in `[lo, hi]` where `a` beats `b` (strictly when `strict`) as
/// coverage events: `(start, +1)` and `(end, -1)` per interval. Returns 1 if the condition
/// holds for every `t` (no events pushed), else 0.
fn condition_events(
    a: &Side,
    b: &Side,
    strict: bool,
    lo: f64,
    hi: f64,
    events: &mut Vec<(f64, i32)>,
) -> u32 {
    let holds = |t: f64| {
        let (va, vb) = (a.value(t), b.value(t));
        if strict {
            va > vb
        } else {
            va >= vb
        }
    };
    let mut cuts: SmallVec<[f64; 8]> = SmallVec::new();
    cuts.push(lo);
    cuts.push(hi);
    let mut cut = |x: f64| {
        if x.is_finite() && x > lo && x < hi {
            cuts.push(x);
        }
    };
    for side in [a, b] {
        if let Some(r) = side.m.root() {
            cut(r);
        }
        if let Some(r) = side.o.root() {
            cut(r);
        }
    }
    // M_a O_b - M_b O_a = q2 t^2 + q1 t + q0.
    let q2 = a.m.c1 * b.o.c1 - b.m.c1 * a.o.c1;
    let q1 = a.m.c0 * b.o.c1 + a.m.c1 * b.o.c0 - b.m.c0 * a.o.c1 - b.m.c1 * a.o.c0;
    let q0 = a.m.c0 * b.o.c0 - b.m.c0 * a.o.c0;
    if q2 != 0.0 {
        let disc = q1 * q1 - 4.0 * q2 * q0;
        if disc >= 0.0 {
            let s = disc.sqrt();
            // The numerically stable pair of roots.
            let k = -0.5 * (q1 + q1.signum() * s);
            if k != 0.0 {
                cut(k / q2);
                cut(q0 / k);
            } else {
                cut(0.0);
            }
        }
    } else if q1 != 0.0 {
        cut(-q0 / q1);
    }
    if cuts.len() == 2 {
        return u32::from(holds(0.5 * (lo + hi)));
    }
    cuts.sort_unstable_by(f64::total_cmp);
    let mut open: Option<f64> = None;
    let mut all = true;
    for pair in cuts.windows(2) {
        let (x, y) = (pair[0], pair[1]);
        if y <= x {
            continue;
        }
        if holds(0.5 * (x + y)) {
            if open.is_none() {
                open = Some(x);
            }
        } else {
            all = false;
            if let Some(s) = open.take() {
                events.push((s, 1));
                events.push((x, -1));
            }
        }
    }
    if all {
        return 1;
    }
    if let Some(s) = open {
        events.push((s, 1));
        events.push((hi, -1));
    }
    0
}

/// A belief over one opponent's weights: particles resampled against every decision seen.
#[derive(Clone, Debug)]
pub struct Belief {
    particles: Vec<Strategy>,
    decisions: Vec<Decision>,
    /// Per particle: the number of conditions it violates, as of its last sweep.
    violations: Vec<usize>,
    cells: usize,
    events: Vec<(f64, i32)>,
}

impl Belief {
    /// A belief over `cells` weights with `particles` particles drawn from the prior.
    pub fn new(cells: usize, particles: usize, rng: &mut impl Rng) -> Belief {
        let particles = (0..particles.max(1))
            .map(|_| {
                Strategy::new(
                    (0..cells).map(|_| rng.gen_range(-PRIOR_BOUND..PRIOR_BOUND)).collect(),
                )
            })
            .collect::<Vec<_>>();
        Belief {
            violations: vec![0; particles.len()],
            particles,
            decisions: Vec::new(),
            cells,
            events: Vec::new(),
        }
    }

    /// A belief made of these particles (all over the same number of cells; none gives one
    /// particle of zeros over `cells`).
    pub fn from_particles(cells: usize, particles: Vec<Strategy>) -> Belief {
        let mut particles: Vec<Strategy> =
            particles.into_iter().filter(|p| p.weights.len() == cells).collect();
        if particles.is_empty() {
            particles.push(Strategy::new(vec![0.0; cells]));
        }
        Belief {
            violations: vec![0; particles.len()],
            particles,
            decisions: Vec::new(),
            cells,
            events: Vec::new(),
        }
    }

    /// The particles.
    pub fn particles(&self) -> &[Strategy] {
        &self.particles
    }

    /// The decisions seen.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// Adds a decision; call [`Belief::update`] to take it into account.
    pub fn push(&mut self, decision: Decision) {
        self.decisions.push(decision);
    }

    /// How many particles are consistent with every decision seen.
    pub fn consistent(&self) -> usize {
        self.particles
            .iter()
            .filter(|p| self.decisions.iter().all(|d| d.violations(&p.weights) == 0))
            .count()
    }

    /// Moves every particle until it is consistent with every decision seen (at most
    /// `max_moves` line moves, each along the gradient of a violated condition), then makes
    /// `mixing` hit-and-run moves along random directions.
    pub fn update(&mut self, mixing: usize, max_moves: usize, rng: &mut impl Rng) {
        for i in 0..self.particles.len() {
            let mut bad = self.violated(i, rng);
            let mut moves = 0;
            while let Some((d, a, b)) = bad {
                if moves >= max_moves {
                    break;
                }
                // A particle stuck on a plateau starts again from the prior.
                if moves > 0 && moves % RESTART_MOVES == 0 {
                    for x in self.particles[i].weights.iter_mut() {
                        *x = rng.gen_range(-PRIOR_BOUND..PRIOR_BOUND);
                    }
                }
                let dir = self.gradient(i, d, a, b);
                self.line_move(i, &dir, false, rng);
                moves += 1;
                bad = self.violated(i, rng);
            }
            self.violations[i] = usize::from(bad.is_some());
            for _ in 0..mixing {
                let dir: Vec<f64> = (0..self.cells).map(|_| rng.gen_range(-1.0..1.0)).collect();
                self.line_move(i, &dir, false, rng);
            }
        }
    }

    /// A violated condition of particle `i`, `(decision, played, other)` as indices, chosen
    /// at random among them, or `None`.
    fn violated(&self, i: usize, rng: &mut impl Rng) -> Option<(usize, usize, usize)> {
        let w = &self.particles[i].weights;
        let mut found = None;
        let mut seen = 0u32;
        for (k, d) in self.decisions.iter().enumerate() {
            let vals = d.values(w);
            let va = vals[d.chosen];
            for (j, &vb) in vals.iter().enumerate() {
                let bad = j != d.chosen && if j < d.chosen { va <= vb } else { va < vb };
                if bad {
                    seen += 1;
                    if rng.gen_range(0..seen) == 0 {
                        found = Some((k, d.chosen, j));
                    }
                }
            }
        }
        found
    }

    /// The direction that raises the played placement's value over the other's in decision
    /// `k` for particle `i`: the gradient of `M_a / O_a - M_b / O_b` (of `M` alone for a side
    /// whose denominator is an empty sum).
    fn gradient(&self, i: usize, k: usize, a: usize, b: usize) -> Vec<f64> {
        let w = &self.particles[i].weights;
        let d = &self.decisions[k];
        let (mine, others) = d.base(w);
        let mut g = vec![0.0; self.cells];
        for (j, sign) in [(a, 1.0), (b, -1.0)] {
            let c = &d.candidates[j];
            let (m, o) = d.after(w, mine, others, c);
            let (cm, co) =
                if c.wipes_out || o.abs() < 1e-9 { (1.0, 0.0) } else { (1.0 / o, -m / (o * o)) };
            let norm = cm.abs().max(co.abs()).max(1e-12);
            let (cm, co) = (sign * cm / norm, sign * co / norm);
            for_each_bit(&d.mine, |s| g[s] += cm);
            g[c.sq] += cm;
            for_each_bit(&d.others, |s| {
                g[s] += if bit_test(&c.flips, s) { cm } else { co };
            });
        }
        g
    }

    /// Takes the particles of `pooled` (a belief over the weights shared by several
    /// opponents) and moves each along the gradients of its violated conditions until it is
    /// consistent with this belief's own decisions (at most `max_moves` line moves, the
    /// first `NEAREST_MOVES` of them the least move that satisfies the most conditions):
    /// a point near the shared weights that explains this opponent's moves.
    pub fn adapt_from(&mut self, pooled: &Belief, max_moves: usize, rng: &mut impl Rng) {
        self.particles.clone_from(&pooled.particles);
        self.violations = vec![0; self.particles.len()];
        for i in 0..self.particles.len() {
            let mut bad = self.violated(i, rng);
            let mut moves = 0;
            while let Some((d, a, b)) = bad {
                if moves >= max_moves {
                    break;
                }
                let dir = self.gradient(i, d, a, b);
                self.line_move(i, &dir, moves < NEAREST_MOVES, rng);
                moves += 1;
                bad = self.violated(i, rng);
            }
            self.violations[i] = usize::from(bad.is_some());
        }
    }

    /// Moves particle `i` along `dir` to a point of the part of the line inside the prior's
    /// box that satisfies the most conditions: drawn uniformly, or when `nearest` the point
    /// of that part nearest to the particle (a tenth of the way into its interval).
    fn line_move(&mut self, i: usize, dir: &[f64], nearest: bool, rng: &mut impl Rng) {
        let w = &self.particles[i].weights;
        // The values only depend on the weights up to a positive factor, so the line may
        // leave the box: the particle is scaled back into it afterwards.
        let largest = dir.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if largest <= 0.0 {
            return;
        }
        let (lo, hi) = (-2.0 * PRIOR_BOUND / largest, 2.0 * PRIOR_BOUND / largest);
        let mut events = std::mem::take(&mut self.events);
        events.clear();
        for d in &self.decisions {
            let (mine, others) = d.base(w);
            let (dmine, dothers) = d.base(dir);
            let side = |c: &Candidate| {
                let (m, o) = d.after(w, mine, others, c);
                let (dm, dob) = d.after(dir, dmine, dothers, c);
                Side {
                    m: Affine { c0: m, c1: dm },
                    o: Affine { c0: o, c1: dob },
                    wipes_out: c.wipes_out,
                }
            };
            let a = side(&d.candidates[d.chosen]);
            for (j, c) in d.candidates.iter().enumerate() {
                if j != d.chosen {
                    condition_events(&a, &side(c), j < d.chosen, lo, hi, &mut events);
                }
            }
        }
        let t = best_region(&mut events, lo, hi, nearest, rng);
        self.events = events;
        let w = &mut self.particles[i].weights;
        for (x, &v) in w.iter_mut().zip(dir) {
            *x += t * v;
        }
        let top = w.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if top > PRIOR_BOUND {
            let scale = PRIOR_BOUND / top;
            w.iter_mut().for_each(|x| *x *= scale);
        }
    }
}

/// A value drawn uniformly from the parts of `[lo, hi]` covered by the most intervals of
/// `events` (the whole range if there are none), or when `nearest` the point of those parts
/// nearest to 0, moved a tenth of its interval inside (a uniform draw if 0 is in them).
fn best_region(
    events: &mut [(f64, i32)],
    lo: f64,
    hi: f64,
    nearest: bool,
    rng: &mut impl Rng,
) -> f64 {
    if events.is_empty() {
        return if nearest { 0.0 } else { rng.gen_range(lo..hi) };
    }
    // Ends before starts at the same point, so touching intervals do not overlap.
    events.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    let mut depth = 0;
    let mut best = 0;
    let mut length = 0.0;
    let mut prev = lo;
    // First pass: the best depth and the total length at it.
    for &(x, delta) in events.iter() {
        if x > prev && depth > 0 {
            if depth > best {
                best = depth;
                length = 0.0;
            }
            if depth == best {
                length += x - prev;
            }
        }
        depth += delta;
        prev = x;
    }
    if best == 0 || length <= 0.0 {
        return if nearest { 0.0 } else { rng.gen_range(lo..hi) };
    }
    if nearest {
        let mut depth = 0;
        let mut prev = lo;
        let mut found: Option<f64> = None;
        for &(x, delta) in events.iter() {
            if x > prev && depth == best {
                let t = if prev >= 0.0 {
                    prev + 0.1 * (x - prev)
                } else if x <= 0.0 {
                    x - 0.1 * (x - prev)
                } else {
                    f64::NAN
                };
                if t.is_nan() || found.is_none_or(|f| t.abs() < f.abs()) {
                    found = Some(t);
                }
            }
            depth += delta;
            prev = x;
        }
        // Staying put satisfies as many conditions as any move: draw uniformly instead, so
        // the particle does not stall.
        if let Some(t) = found.filter(|t| !t.is_nan()) {
            return t;
        }
    }
    let mut pick = rng.gen_range(0.0..length);
    let mut depth = 0;
    let mut prev = lo;
    for &(x, delta) in events.iter() {
        if x > prev && depth == best {
            let span = x - prev;
            if pick < span {
                return prev + pick;
            }
            pick -= span;
        }
        depth += delta;
        prev = x;
    }
    prev
}

impl Belief {
    /// The particles' vote on the placement of the player to move in `state`: the square
    /// with the most votes (the first in reading order among equals) and its share of the
    /// vote, `None` if that player has no placement.
    pub fn predict(&self, game: &Reversi, state: &ReversiState) -> Option<(usize, f64)> {
        let mut votes: SmallVec<[(usize, u32); 16]> = SmallVec::new();
        for s in &self.particles {
            let sq = s.choose(game, state)?.square()?;
            match votes.iter_mut().find(|(q, _)| *q == sq) {
                Some((_, n)) => *n += 1,
                None => votes.push((sq, 1)),
            }
        }
        let &(sq, n) = votes.iter().max_by_key(|&&(q, n)| (n, std::cmp::Reverse(q)))?;
        Some((sq, f64::from(n) / self.particles.len() as f64))
    }

    /// The particle that violates the fewest conditions (the first among equals): the
    /// belief's best single guess of the weights.
    pub fn best(&self) -> &Strategy {
        let i = (0..self.particles.len()).min_by_key(|&i| self.violations[i]).unwrap_or(0);
        &self.particles[i]
    }
}

/// Game phases of the accuracy report: the share of the board filled before the move, in
/// fifths.
pub const PHASES: usize = 5;

/// Settings of [`InferenceContestant`].
#[derive(Clone, Debug, PartialEq)]
pub struct InferenceConfig {
    /// Particles per opponent.
    pub particles: usize,
    /// Random-direction moves per particle after each observed move.
    pub mixing: usize,
    /// Line moves per particle to make it consistent with a new observation.
    pub max_moves: usize,
    /// Positions the single-agent search may visit per move.
    pub nodes: u64,
    /// Plan with the predictions while at least this share of the last `TRUST_WINDOW`
    /// opponent moves was predicted; otherwise the N-player fallback moves.
    pub min_trust: f64,
    /// Always plan with the predictions with this many empty cells or fewer.
    pub exact_empties: u32,
    /// MCTS iterations of the fallback (0: plan with the predictions anyway).
    pub fallback_iterations: u64,
    /// Pool every opponent's decisions into one belief over shared weights (the opponents
    /// of a test case come from one converged population), and adapt its particles to each
    /// opponent's own decisions with the least moves ([`Belief::adapt_from`]).
    pub pool: bool,
    /// Instead of MCTS, the fallback plans against this many sets of particles (set `k`
    /// takes every opponent's particle `k`) and plays the placement with the best mean
    /// value; 0 keeps MCTS.
    pub ensemble: usize,
    /// Seed of the particles and the fallback.
    pub seed: u64,
}

impl Default for InferenceConfig {
    fn default() -> Self {
        InferenceConfig {
            particles: 8,
            mixing: 1,
            max_moves: 60,
            nodes: 60,
            min_trust: 0.5,
            exact_empties: 14,
            fallback_iterations: 300,
            pool: true,
            ensemble: 0,
            seed: 0,
        }
    }
}

/// How many of the latest opponent moves the trust in the predictions is measured on.
pub const TRUST_WINDOW: usize = 12;

/// What [`InferenceContestant`] saw and how well it predicted, per game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InferenceStats {
    /// Opponent placements reconstructed from the boards, per phase.
    pub observed: [u32; PHASES],
    /// Of those, how many the belief predicted before seeing them.
    pub predicted: [u32; PHASES],
    /// Board changes no sequence of legal moves explained.
    pub unexplained: u32,
    /// Own moves chosen by the single-agent search.
    pub planned: u32,
    /// Own moves chosen by the N-player fallback.
    pub fallback: u32,
}

impl InferenceStats {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &InferenceStats) {
        for p in 0..PHASES {
            self.observed[p] += other.observed[p];
            self.predicted[p] += other.predicted[p];
        }
        self.unexplained += other.unexplained;
        self.planned += other.planned;
        self.fallback += other.fallback;
    }

    /// The share of opponent moves predicted, over all phases.
    pub fn accuracy(&self) -> f64 {
        let seen: u32 = self.observed.iter().sum();
        f64::from(self.predicted.iter().sum::<u32>()) / f64::from(seen.max(1))
    }
}

/// The contestant that infers every opponent's weights from its moves ([`Belief`]) and plays
/// the single-agent search of [`plan`] against the predicted replies, or an N-player search
/// (MCTS) while the predictions are not trusted.
pub struct InferenceContestant {
    config: InferenceConfig,
    game: Option<Reversi>,
    beliefs: Vec<Belief>,
    pooled: Belief,
    recent: std::collections::VecDeque<bool>,
    last: Option<ReversiState>,
    rng: ChaCha8Rng,
    fallback: Mcts<Reversi>,
    /// What it saw and predicted so far.
    pub stats: InferenceStats,
}

impl Default for InferenceContestant {
    fn default() -> Self {
        InferenceContestant::new(InferenceConfig::default())
    }
}

impl InferenceContestant {
    /// A contestant with these settings.
    pub fn new(config: InferenceConfig) -> Self {
        InferenceContestant {
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            fallback: Mcts::new().with_seed(config.seed).with_rollout_cutoff(Some(8)),
            config,
            game: None,
            beliefs: Vec::new(),
            pooled: Belief::from_particles(0, Vec::new()),
            recent: std::collections::VecDeque::new(),
            last: None,
            stats: InferenceStats::default(),
        }
    }

    /// The belief about the opponent in `seat` (1.. are the opponents), once a board has
    /// been seen.
    pub fn belief(&self, seat: usize) -> Option<&Belief> {
        self.beliefs.get(seat).filter(|_| seat > 0)
    }

    /// Learns from the opponents' moves between the board after its last move and `now`.
    fn observe(&mut self, game: &Reversi, now: &ReversiState) {
        let Some(from) = self.last else { return };
        let occ_now = now.occupied();
        let occ_then = from.occupied();
        let new_cells: Bits = std::array::from_fn(|w| occ_now[w] & !occ_then[w]);
        let mut path = Vec::new();
        if !reconstruct(game, from, now, &new_cells, &mut path) {
            self.stats.unexplained += 1;
            return;
        }
        for (state, sq) in path {
            let seat = state.to_move as usize;
            let Some(decision) = Decision::new(game, &state, sq) else { continue };
            let phase = ((decision.filled() * PHASES as f64) as usize).min(PHASES - 1);
            let belief = &mut self.beliefs[seat];
            let hit = belief.predict(game, &state).map(|(p, _)| p) == Some(sq);
            self.stats.observed[phase] += 1;
            self.stats.predicted[phase] += u32::from(hit);
            if self.recent.len() == TRUST_WINDOW {
                self.recent.pop_front();
            }
            self.recent.push_back(hit);
            if self.config.pool {
                belief.push(decision.clone());
                self.pooled.push(decision);
                self.pooled.update(self.config.mixing, self.config.max_moves, &mut self.rng);
                belief.adapt_from(&self.pooled, self.config.max_moves, &mut self.rng);
            } else {
                belief.push(decision);
                belief.update(self.config.mixing, self.config.max_moves, &mut self.rng);
            }
        }
    }

    fn trusted(&self) -> bool {
        let hits = self.recent.iter().filter(|&&h| h).count();
        self.recent.len() >= TRUST_WINDOW / 2
            && hits as f64 >= self.config.min_trust * self.recent.len() as f64
    }
}

impl Contestant for InferenceContestant {
    fn name(&self) -> String {
        format!("inference(particles={},nodes={})", self.config.particles, self.config.nodes)
    }

    fn choose_move(&mut self, board: &[String]) -> (usize, usize) {
        let size = board.len();
        let fits = self.game.as_ref().is_some_and(|g| g.size() == size);
        if !fits {
            let Ok(game) = Reversi::new(size, players_for_size(size)) else {
                return (usize::MAX, usize::MAX);
            };
            let cells = size * size;
            let particles = self.config.particles;
            self.beliefs =
                (0..game.players()).map(|_| Belief::new(cells, particles, &mut self.rng)).collect();
            self.pooled = Belief::new(cells, particles, &mut self.rng);
            self.game = Some(game);
            self.recent.clear();
            self.last = None;
        }
        let Some(game) = self.game.clone() else { return (usize::MAX, usize::MAX) };
        let Some(state) = board_state(&game, board) else {
            return (usize::MAX, usize::MAX);
        };
        self.observe(&game, &state);
        let placements = game.placements(&state, 0);
        let mut first = None;
        for_each_bit(&placements, |sq| {
            first.get_or_insert(sq);
        });
        let Some(first) = first else { return (usize::MAX, usize::MAX) };
        let use_plan = self.config.fallback_iterations == 0
            || self.trusted()
            || state.empties() <= self.config.exact_empties;
        let mut square = None;
        if use_plan {
            let models: Vec<&Strategy> = self.beliefs.iter().map(Belief::best).collect();
            square = plan(&game, &state, &models, self.config.nodes).map(|p| p.square);
            self.stats.planned += 1;
        } else if self.config.ensemble > 0 {
            let mut totals: Vec<(usize, f64)> = Vec::new();
            for k in 0..self.config.ensemble {
                let models: Vec<&Strategy> =
                    self.beliefs.iter().map(|b| &b.particles()[k % b.particles().len()]).collect();
                if let Some((_, values)) =
                    plan_with_values(&game, &state, &models, self.config.nodes)
                {
                    for (sq, v) in values {
                        match totals.iter_mut().find(|(q, _)| *q == sq) {
                            Some((_, t)) => *t += v,
                            None => totals.push((sq, v)),
                        }
                    }
                }
            }
            square = totals
                .iter()
                .fold(None::<(usize, f64)>, |b, &(sq, v)| match b {
                    Some((_, bv)) if bv >= v => b,
                    _ => Some((sq, v)),
                })
                .map(|(sq, _)| sq);
            self.stats.fallback += 1;
        } else {
            let budget = Budget::iterations(self.config.fallback_iterations);
            if let Ok(report) = self.fallback.choose(&game, Position::new(&state), &budget) {
                square = report.best_move.square();
            }
            self.stats.fallback += 1;
        }
        let sq = square.filter(|&sq| bit_test(&placements, sq)).unwrap_or(first);
        let mut after = state;
        ply::Game::apply(&game, &mut after, ReversiMove::Place(sq as u8));
        self.last = Some(after);
        (sq % size, sq / size)
    }
}
