//! Gumbel search's root (Danihelka et al., 2022): sample the `m` moves with the largest
//! `g + logit` (Gumbel-top-k, sampling without replacement), then sequential halving: the
//! simulations are spread evenly over the moves left, and after each phase the better half by
//! `g + logit + σ(q̂)` stays, until one move is left or the budget ends.
//!
//! A simulation budget is cut into `ceil(log2 m)` phases, each action getting
//! `max(1, n / (phases · left))` visits per phase, as in the paper; a time budget gives each
//! phase an equal share of the time instead. Visits carried over from a reused tree do not
//! count towards a phase.

use std::time::{Duration, Instant};

use super::select::{completed_q, max_load, mixed_value, sigma};
use super::tree::Tree;

/// How a phase ends.
#[derive(Clone, Copy, Debug)]
enum Pace {
    /// After this many new simulations per action left (cumulative over the phases), out of a
    /// budget of `total`.
    Visits { total: u64, target: u32 },
    /// At this instant, the search having `total` time from `start`.
    Time { start: Instant, total: Duration, until: Instant },
    /// Never: analysis without a limit keeps the considered moves.
    Open,
}

/// The state of the root's sequential halving.
#[derive(Clone, Debug)]
pub(super) struct Halving {
    /// `g + logit` per root child, by child offset.
    base: Vec<f32>,
    /// Root visits per child when the search started, by child offset.
    start_visits: Vec<u32>,
    /// The children (offsets) still considered.
    left: Vec<usize>,
    phase: u32,
    phases: u32,
    pace: Pace,
}

impl Halving {
    /// Halving over the root's children with Gumbel draws `gumbels` (one per child), keeping
    /// the `considered` best by `g + logit`; `simulations` or the time from `start` to `until`
    /// pace the phases (neither: the phases never end).
    pub(super) fn new<M: Copy + PartialEq>(
        tree: &Tree<M>,
        gumbels: &[f32],
        considered: usize,
        simulations: Option<u64>,
        time: Option<(Instant, Instant)>,
    ) -> Halving {
        let root = tree.root();
        let base: Vec<f32> = root
            .children()
            .zip(gumbels)
            .map(|(i, g)| g + tree.nodes[i].prior.max(1e-30).ln())
            .collect();
        let start_visits = root.children().map(|i| tree.nodes[i].visits).collect();
        let mut left: Vec<usize> = (0..base.len()).collect();
        left.sort_by(|&a, &b| base[b].total_cmp(&base[a]));
        left.truncate(considered.clamp(1, base.len().max(1)));
        let phases = (left.len() as f64).log2().ceil().max(1.0) as u32;
        let pace = match (simulations, time) {
            (Some(total), _) => Pace::Visits { total, target: 0 },
            (None, Some((start, until))) => {
                let total = until.saturating_duration_since(start);
                Pace::Time { start, total, until: start }
            }
            (None, None) => Pace::Open,
        };
        let mut halving = Halving { base, start_visits, left, phase: 0, phases, pace };
        halving.set_pace();
        halving
    }

    /// Sets the end of the current phase.
    fn set_pace(&mut self) {
        let (phase, phases, left) = (self.phase, self.phases, self.left.len() as u64);
        match &mut self.pace {
            Pace::Visits { total, target } => {
                let share = (*total / (u64::from(phases) * left)).max(1);
                *target = target.saturating_add(u32::try_from(share).unwrap_or(u32::MAX));
            }
            Pace::Time { start, total, until } => {
                *until = *start + total.mul_f64(f64::from(phase + 1) / f64::from(phases));
            }
            Pace::Open => {}
        }
    }

    /// The children still considered, by offset.
    #[cfg(test)]
    pub(super) fn left(&self) -> &[usize] {
        &self.left
    }

    /// True once a single move is left: the search has its answer.
    pub(super) fn is_decided(&self) -> bool {
        self.left.len() == 1 && !matches!(self.pace, Pace::Open)
    }

    /// The root child (an index into the tree) the next simulation goes through: among the
    /// moves left, the one with the fewest visits this search (in flight included), ties to
    /// the better `g + logit`.
    pub(super) fn next<M: Copy + PartialEq>(&self, tree: &Tree<M>) -> usize {
        let first = tree.root().first_child as usize;
        let load = |k: usize| tree.nodes[first + k].load().saturating_sub(self.start_visits[k]);
        let k = *self.left.iter().min_by_key(|&&k| load(k)).expect("a move is left");
        first + k
    }

    /// Ends the phase if its visits or time are spent; true if it did.
    pub(super) fn advance<M: Copy + PartialEq>(&mut self, tree: &Tree<M>) -> bool {
        if self.left.len() <= 1 {
            return false;
        }
        let first = tree.root().first_child as usize;
        let over = match self.pace {
            Pace::Visits { target, .. } => self.left.iter().all(|&k| {
                tree.nodes[first + k].visits.saturating_sub(self.start_visits[k]) >= target
            }),
            Pace::Time { until, .. } => Instant::now() >= until,
            Pace::Open => false,
        };
        if !over {
            return false;
        }
        let scores = self.scores(tree);
        self.left.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        self.left.truncate(self.left.len().div_ceil(2));
        self.phase += 1;
        self.set_pace();
        true
    }

    /// `g + logit + σ(q̂)` per root child, by offset.
    fn scores<M: Copy + PartialEq>(&self, tree: &Tree<M>) -> Vec<f32> {
        let root = tree.root();
        let mixed = mixed_value(tree, root);
        let max_n = max_load(tree, root);
        root.children()
            .zip(&self.base)
            .map(|(i, b)| b + sigma(completed_q(tree, i, mixed), max_n))
            .collect()
    }

    /// The move to play: the best child left by `g + logit + σ(q̂)` (an index into the tree).
    pub(super) fn best<M: Copy + PartialEq>(&self, tree: &Tree<M>) -> usize {
        let scores = self.scores(tree);
        let k = *self
            .left
            .iter()
            .max_by(|&&a, &&b| scores[a].total_cmp(&scores[b]))
            .expect("a move is left");
        tree.root().first_child as usize + k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root_with(priors: &[f32]) -> Tree<u8> {
        let mut t = Tree::new(1);
        let moves: Vec<u8> = (0..priors.len() as u8).collect();
        t.expand(0, &moves, priors, 0);
        t
    }

    #[test]
    fn the_best_sampled_moves_are_considered_and_halved_by_value() {
        let mut t = root_with(&[0.4, 0.3, 0.2, 0.1]);
        let mut h = Halving::new(&t, &[0.0; 4], 4, Some(16), None);
        assert_eq!(h.left(), &[0, 1, 2, 3]);
        // 16 simulations, 2 phases: 2 visits each in the first phase.
        for _ in 0..8 {
            let child = h.next(&t);
            let reward = if t.nodes[child].mv == Some(3) { 1.0 } else { 0.0 };
            t.backup(child, &[reward, 1.0 - reward]);
            h.advance(&t);
        }
        assert_eq!(h.left().len(), 2);
        assert!(h.left().contains(&3), "the winning move survives: {:?}", h.left());
        assert_eq!(t.nodes[h.best(&t)].mv, Some(3));
    }

    #[test]
    fn considered_moves_follow_gumbel_plus_logit() {
        let t = root_with(&[0.4, 0.3, 0.2, 0.1]);
        let h = Halving::new(&t, &[0.0, 0.0, 0.0, 5.0], 2, Some(8), None);
        assert_eq!(h.left(), &[3, 0]);
    }
}
