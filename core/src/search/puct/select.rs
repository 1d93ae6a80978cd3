//! Choosing a child inside the tree: PUCT's prior-weighted upper bound (AlphaZero), and
//! Gumbel search's deterministic choice that makes visit counts follow the improved policy
//! (Danihelka et al., 2022, section 5), with the completed Q-values both rules share.

use super::tree::{Node, Tree};

/// Gumbel search's `c_visit`: how fast `σ` trusts Q-values as visits grow.
pub(super) const C_VISIT: f32 = 50.0;
/// Gumbel search's `c_scale`.
pub(super) const C_SCALE: f32 = 1.0;

/// The settings selection needs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rule {
    /// PUCT's exploration constant (rewards in `[0, 1]`).
    pub(super) c_puct: f32,
    /// How far below the parent's value an unvisited child starts, times the square root of
    /// the prior mass already visited (Leela Chess Zero's first-play urgency).
    pub(super) fpu_reduction: f32,
}

/// The PUCT choice among `parent`'s children: the largest
/// `Q + c * P * sqrt(N) / (1 + n)`, in-flight simulations counted as losses and unvisited
/// children at the parent's value less the first-play reduction.
pub(super) fn puct<M>(tree: &Tree<M>, parent: usize, rule: &Rule) -> usize {
    let p = &tree.nodes[parent];
    let mut total = 0u32;
    let mut visited_mass = 0.0f32;
    for i in p.children() {
        let n = tree.nodes[i].load();
        total += n;
        if n > 0 {
            visited_mass += tree.nodes[i].prior;
        }
    }
    let fpu = p.own_value - rule.fpu_reduction * visited_mass.sqrt();
    let scale = rule.c_puct * (total.max(1) as f32).sqrt();
    let mut best = p.first_child as usize;
    let mut best_score = f32::NEG_INFINITY;
    for i in p.children() {
        let c = &tree.nodes[i];
        let q = c.mean().map_or(fpu, |m| m as f32);
        let score = q + scale * c.prior / (1 + c.load()) as f32;
        if score > best_score {
            best_score = score;
            best = i;
        }
    }
    best
}

/// `σ` of Gumbel search: the monotone map from a Q-value in `[0, 1]` to the logit scale,
/// growing with the most visited child's count.
#[inline]
pub(super) fn sigma(q: f32, max_visits: u32) -> f32 {
    (C_VISIT + max_visits as f32) * C_SCALE * q
}

/// The value that stands in for unvisited children: the network's value of the parent mixed
/// with the prior-weighted mean of the visited children's Q (Danihelka et al., appendix D).
pub(super) fn mixed_value<M>(tree: &Tree<M>, parent: &Node<M>) -> f32 {
    let mut total = 0u32;
    let mut mass = 0.0f32;
    let mut weighted = 0.0f32;
    for i in parent.children() {
        let c = &tree.nodes[i];
        if let Some(q) = c.mean() {
            total += c.load();
            mass += c.prior;
            weighted += c.prior * q as f32;
        }
    }
    if total == 0 || mass <= 0.0 {
        return parent.own_value;
    }
    let n = total as f32;
    (parent.own_value + n * weighted / mass) / (1.0 + n)
}

/// The completed Q-value of child `i`: its mean when visited, `mixed` otherwise.
#[inline]
pub(super) fn completed_q<M>(tree: &Tree<M>, i: usize, mixed: f32) -> f32 {
    tree.nodes[i].mean().map_or(mixed, |m| m as f32)
}

/// The largest visit count (in flight included) among `parent`'s children.
pub(super) fn max_load<M>(tree: &Tree<M>, parent: &Node<M>) -> u32 {
    parent.children().map(|i| tree.nodes[i].load()).max().unwrap_or(0)
}

/// The improved policy at `parent`, `softmax(log P + σ(completed Q))`, written into `out`
/// in child order.
pub(super) fn improved_policy<M>(tree: &Tree<M>, parent: usize, out: &mut Vec<f32>) {
    let p = &tree.nodes[parent];
    let mixed = mixed_value(tree, p);
    let max_n = max_load(tree, p);
    out.clear();
    out.extend(
        p.children().map(|i| {
            tree.nodes[i].prior.max(1e-30).ln() + sigma(completed_q(tree, i, mixed), max_n)
        }),
    );
    softmax(out);
}

/// Turns logits into probabilities in place.
pub(super) fn softmax(x: &mut [f32]) {
    let top = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for v in x.iter_mut() {
        *v = (*v - top).exp();
        total += *v;
    }
    for v in x.iter_mut() {
        *v /= total;
    }
}

/// Gumbel search's choice below the root: the child that most lacks visits for the improved
/// policy, `argmax π'(a) - n(a) / (1 + Σ n)`. Allocation-free: two passes over the children.
pub(super) fn gumbel_interior<M>(tree: &Tree<M>, parent: usize) -> usize {
    let p = &tree.nodes[parent];
    let mixed = mixed_value(tree, p);
    let max_n = max_load(tree, p);
    let logit =
        |i: usize| tree.nodes[i].prior.max(1e-30).ln() + sigma(completed_q(tree, i, mixed), max_n);
    let mut top = f32::NEG_INFINITY;
    let mut total_n = 0u32;
    for i in p.children() {
        top = top.max(logit(i));
        total_n += tree.nodes[i].load();
    }
    let mut norm = 0.0f32;
    for i in p.children() {
        norm += (logit(i) - top).exp();
    }
    let denominator = 1.0 + total_n as f32;
    let mut best = p.first_child as usize;
    let mut best_score = f32::NEG_INFINITY;
    for i in p.children() {
        let score = (logit(i) - top).exp() / norm - tree.nodes[i].load() as f32 / denominator;
        if score > best_score {
            best_score = score;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_children(priors: [f32; 2]) -> Tree<u8> {
        let mut t = Tree::new(1);
        t.nodes[0].own_value = 0.5;
        t.expand(0, &[1, 2], &priors, 0);
        t
    }

    #[test]
    fn puct_follows_the_prior_first_then_the_values() {
        let rule = Rule { c_puct: 1.25, fpu_reduction: 0.2 };
        let mut t = two_children([0.8, 0.2]);
        assert_eq!(puct(&t, 0, &rule), 1, "the likelier move first");
        // The likely move loses every time; the other wins: visits move over.
        for _ in 0..6 {
            t.backup(1, &[0.0, 1.0]);
        }
        t.backup(2, &[1.0, 0.0]);
        assert_eq!(puct(&t, 0, &rule), 2);
    }

    #[test]
    fn virtual_loss_sends_the_next_simulation_elsewhere() {
        let rule = Rule { c_puct: 1.25, fpu_reduction: 0.0 };
        let mut t = two_children([0.5, 0.5]);
        t.backup(1, &[0.6, 0.4]);
        t.backup(2, &[0.6, 0.4]);
        let first = puct(&t, 0, &rule);
        t.add_in_flight(first);
        assert_ne!(puct(&t, 0, &rule), first);
    }

    #[test]
    fn the_improved_policy_moves_mass_to_the_better_child() {
        let mut t = two_children([0.5, 0.5]);
        for _ in 0..4 {
            t.backup(1, &[0.9, 0.1]);
            t.backup(2, &[0.2, 0.8]);
        }
        let mut pi = Vec::new();
        improved_policy(&t, 0, &mut pi);
        assert!((pi.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(pi[0] > 0.99, "{pi:?}");
        // Equal visits: the interior choice goes to the child the policy lacks most.
        assert_eq!(gumbel_interior(&t, 0), 1);
    }

    #[test]
    fn unvisited_children_take_the_mixed_value() {
        let mut t = two_children([0.75, 0.25]);
        t.nodes[0].own_value = 0.4;
        t.backup(1, &[1.0, 0.0]);
        let mixed = mixed_value(&t, &t.nodes[0]);
        // (0.4 + 1 * 1.0) / 2
        assert!((mixed - 0.7).abs() < 1e-6, "{mixed}");
        assert!((completed_q(&t, 2, mixed) - 0.7).abs() < 1e-6);
    }
}
