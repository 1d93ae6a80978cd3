//! One tree's search loop: selection by UCT, lazy expansion, playouts with an optional
//! evaluation cut-off, back-propagation of reward vectors, and MCTS-Solver proofs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::eval_to_rewards_with;
use super::tree::{Proof, Tree, NONE, TERMINAL};
use crate::eval::Evaluator;
use crate::game::{Game, MoveList, Outcome, Player};
use crate::search::{Deadline, Progress, ProgressInfo, Value};

/// Most iterations between two looks at the clock and the stop flags.
const CHECK_INTERVAL: u64 = 8;
/// How often a search with a [`Progress`] publishes its best line.
const PUBLISH_EVERY: Duration = Duration::from_millis(200);
/// Most nodes (expansions and playout plies) between two looks at the clock: games with long
/// or slow playouts check after every iteration.
const CHECK_NODES: u64 = 64;

/// The search settings one tree needs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Params {
    pub(super) exploration: f64,
    pub(super) rollout_cutoff: Option<u32>,
    pub(super) eval_scale: f64,
    /// MCTS-Solver on (only ever set for two-player games).
    pub(super) solver: bool,
    /// Most nodes this tree may hold.
    pub(super) max_nodes: usize,
}

/// When one tree stops.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits<'a> {
    pub(super) iterations: Option<u64>,
    pub(super) nodes: Option<u64>,
    pub(super) deadline: Deadline,
    /// Stop at the soft limit too (play under a clock).
    pub(super) use_soft: bool,
    /// The caller's stop flag.
    pub(super) stop: Option<&'a AtomicBool>,
    /// Set when a tree proves the root; the others stop when they see it.
    pub(super) proven: Option<&'a AtomicBool>,
    /// Where this tree's best line is published now and then (the first thread's only).
    pub(super) progress: Option<&'a Progress>,
}

impl Limits<'_> {
    fn time_is_up(&self) -> bool {
        self.deadline.hard_expired()
            || (self.use_soft && self.deadline.soft_expired())
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.proven.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// What one tree's search cost and reached.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Stats {
    pub(super) iterations: u64,
    pub(super) nodes: u64,
    /// Deepest tree node reached by selection.
    pub(super) depth: u32,
    /// Deepest ply reached, playouts included.
    pub(super) seldepth: u32,
}

/// Publishes the best line of `tree` so far to `progress`.
fn publish<M: Copy + PartialEq + Send + 'static>(
    tree: &Tree<M>,
    stats: &Stats,
    elapsed: Duration,
    progress: &Progress,
) {
    let Some((first, mean)) = super::best_root_child(tree) else { return };
    progress.publish(ProgressInfo {
        depth: 0,
        seldepth: stats.seldepth,
        value: Some(Value::Reward(mean)),
        nodes: stats.iterations,
        elapsed,
        pv: super::principal_variation(tree, first),
    });
}

/// Runs iterations on `tree`, whose root is `root_state`, until a limit is reached or the root
/// is proven.
pub(super) fn search<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    root_state: &G::State,
    tree: &mut Tree<G::Move>,
    params: &Params,
    limits: &Limits<'_>,
    rng: &mut ChaCha8Rng,
) -> Stats {
    let mut worker = Worker {
        game,
        eval,
        params,
        rng,
        moves: MoveList::new(),
        rewards: vec![0.0; game.num_players().max(1)],
        stats: Stats::default(),
    };
    if !tree.root().is_expanded() {
        worker.expand_root(root_state, tree);
    }
    let mut checked_at = (0, 0);
    let mut published = Duration::ZERO;
    loop {
        let s = &worker.stats;
        if limits.iterations.is_some_and(|n| s.iterations >= n)
            || limits.nodes.is_some_and(|n| s.nodes >= n)
        {
            break;
        }
        if s.iterations == 0
            || s.iterations - checked_at.0 >= CHECK_INTERVAL
            || s.nodes - checked_at.1 >= CHECK_NODES
        {
            if limits.time_is_up() {
                break;
            }
            checked_at = (s.iterations, s.nodes);
            if let Some(progress) = limits.progress {
                let elapsed = limits.deadline.start().elapsed();
                if elapsed >= published + PUBLISH_EVERY {
                    published = elapsed;
                    publish(tree, s, elapsed, progress);
                }
            }
        }
        if tree.root().proof.is_known() || tree.root().is_terminal() {
            if let Some(flag) = limits.proven {
                flag.store(true, Ordering::Relaxed);
            }
            break;
        }
        worker.iterate(root_state, tree);
    }
    worker.stats
}

struct Worker<'a, G: Game, E> {
    game: &'a G,
    eval: &'a E,
    params: &'a Params,
    rng: &'a mut ChaCha8Rng,
    moves: MoveList<G::Move>,
    rewards: Vec<f64>,
    stats: Stats,
}

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    fn expand_root(&mut self, state: &G::State, tree: &mut Tree<G::Move>) {
        self.game.generate_moves(state, &mut self.moves);
        if self.moves.is_empty() {
            tree.nodes[0].flags |= TERMINAL | super::tree::EXPANDED;
            return;
        }
        self.moves.shuffle(self.rng);
        let mover = self.game.to_move(state).0;
        tree.expand(0, &self.moves, mover);
        self.stats.nodes += self.moves.len() as u64;
    }

    /// One iteration: select a leaf, expand or play out from it, back up the rewards.
    fn iterate(&mut self, root_state: &G::State, tree: &mut Tree<G::Move>) {
        let game = self.game;
        let mut state = root_state.clone();
        let mut node = 0usize;
        let mut depth = 0u32;
        let mut newly_proven = false;
        let mut playout_plies = 0;
        loop {
            let n = &tree.nodes[node];
            if n.is_terminal() {
                self.outcome_rewards(game.outcome(&state));
                break;
            }
            if self.params.solver && node != 0 && n.proof.is_known() {
                self.proof_rewards(n.proof, n.mover);
                break;
            }
            if !n.is_expanded() {
                let full = tree.len() >= self.params.max_nodes;
                if (n.visits == 0 && node != 0) || full {
                    let (terminal, plies) = self.playout(&mut state);
                    playout_plies = plies;
                    if terminal {
                        newly_proven = self.mark_terminal(tree, node);
                    }
                    break;
                }
                game.generate_moves(&state, &mut self.moves);
                if self.moves.is_empty() {
                    self.outcome_rewards(game.outcome(&state));
                    newly_proven = self.mark_terminal(tree, node);
                    break;
                }
                if tree.len() + self.moves.len() > self.params.max_nodes {
                    let (_, plies) = self.playout(&mut state);
                    playout_plies = plies;
                    break;
                }
                self.moves.shuffle(self.rng);
                let mover = game.to_move(&state).0;
                tree.expand(node, &self.moves, mover);
                self.stats.nodes += self.moves.len() as u64;
            }
            node = self.select(tree, node);
            let mv = tree.nodes[node].mv.expect("every child has a move");
            game.apply(&mut state, mv);
            depth += 1;
        }
        self.backpropagate(tree, node);
        if newly_proven {
            propagate_proof(tree, node);
        }
        self.stats.iterations += 1;
        self.stats.depth = self.stats.depth.max(depth);
        self.stats.seldepth = self.stats.seldepth.max(depth + playout_plies);
    }

    /// The UCT choice among the children of `node`: an unvisited child first (children are
    /// shuffled at expansion, so the first unvisited one is a random one), then the largest
    /// `mean + c * sqrt(ln N / n)`. With the solver, children proven lost for their mover are
    /// skipped.
    fn select(&self, tree: &Tree<G::Move>, node: usize) -> usize {
        let parent = &tree.nodes[node];
        let log_n = super::math::ln(f64::from(parent.visits.max(1)));
        let c = self.params.exploration;
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        for i in parent.children() {
            let child = &tree.nodes[i];
            if self.params.solver && matches!(child.proof, Proof::Loss(_)) {
                continue;
            }
            if child.visits == 0 {
                return i;
            }
            let v = f64::from(child.visits);
            let score = child.reward / v + c * (log_n / v).sqrt();
            if score > best_score {
                best_score = score;
                best = Some(i);
            }
        }
        best.unwrap_or(parent.first_child as usize)
    }

    /// Plays uniformly random moves from `state` to the end of the game or to the cut-off,
    /// leaving the rewards in `self.rewards`. Returns whether `state` itself was terminal and
    /// how many plies were played.
    fn playout(&mut self, state: &mut G::State) -> (bool, u32) {
        let game = self.game;
        let mut plies = 0u32;
        loop {
            game.generate_moves(state, &mut self.moves);
            if self.moves.is_empty() {
                self.outcome_rewards(game.outcome(state));
                return (plies == 0, plies);
            }
            if self.params.rollout_cutoff.is_some_and(|k| plies >= k) {
                let scale = self.params.eval_scale;
                eval_to_rewards_with(self.eval, game, state, scale, &mut self.rewards);
                return (false, plies);
            }
            let mv = self.moves[random_index(self.rng, self.moves.len())];
            game.apply(state, mv);
            plies += 1;
            self.stats.nodes += 1;
        }
    }

    /// Flags `node` terminal; with the solver, proves it from the rewards just computed for
    /// its state. Returns whether a new proof was made.
    fn mark_terminal(&self, tree: &mut Tree<G::Move>, node: usize) -> bool {
        let n = &mut tree.nodes[node];
        n.flags |= TERMINAL | super::tree::EXPANDED;
        if self.params.solver && !n.proof.is_known() {
            n.proof = Proof::from_reward(self.rewards[n.mover as usize]);
            return true;
        }
        false
    }

    fn outcome_rewards(&mut self, outcome: Option<Outcome>) {
        // A state without moves always has an outcome (contract rule 2); a broken game that
        // gives none is scored as a draw.
        let outcome = outcome.unwrap_or(Outcome::Draw);
        let n = self.game.num_players();
        for (p, r) in self.rewards.iter_mut().enumerate() {
            *r = outcome.reward(Player::new(p), n);
        }
    }

    /// Rewards of a proven node of a two-player game, entered by `mover`.
    fn proof_rewards(&mut self, proof: Proof, mover: u8) {
        let mine = match proof {
            Proof::Win(_) => 1.0,
            Proof::Loss(_) => 0.0,
            Proof::Draw | Proof::Unknown => 0.5,
        };
        for (p, r) in self.rewards.iter_mut().enumerate() {
            *r = if p == mover as usize { mine } else { 1.0 - mine };
        }
    }

    /// Adds the rewards to every node from `node` up to the root, each node taking the reward
    /// of the player who moved into it.
    fn backpropagate(&self, tree: &mut Tree<G::Move>, mut node: usize) {
        loop {
            let n = &mut tree.nodes[node];
            n.visits = n.visits.saturating_add(1);
            n.reward += self.rewards.get(n.mover as usize).copied().unwrap_or(0.0);
            if n.parent == NONE {
                break;
            }
            node = n.parent as usize;
        }
    }
}

/// A uniform index below `len` (at least 1), drawn as a `u32` so that the random stream is
/// the same on 32- and 64-bit platforms.
#[inline]
fn random_index(rng: &mut ChaCha8Rng, len: usize) -> usize {
    rng.gen_range(0..len as u32) as usize
}

/// After `from` was proven, proves its ancestors while their children allow it.
pub(super) fn propagate_proof<M: Copy>(tree: &mut Tree<M>, from: usize) {
    let mut p = tree.nodes[from].parent;
    while p != NONE {
        let proof = solve(tree, p as usize);
        if !proof.is_known() {
            break;
        }
        tree.nodes[p as usize].proof = proof;
        p = tree.nodes[p as usize].parent;
    }
}

/// The proof of node `p` given its children's: a win for the player to move there if some
/// child is a proven win for them (the shortest), a loss if every child is a proven loss (the
/// longest), a draw if every child is proven and the best is a draw. Returned from the point
/// of view of the player who moved into `p`.
pub(super) fn solve<M: Copy>(tree: &Tree<M>, p: usize) -> Proof {
    let node = &tree.nodes[p];
    let range = node.children();
    if range.is_empty() {
        return Proof::Unknown;
    }
    let to_move = tree.nodes[range.start].mover;
    let for_mover = best_for_mover(range.map(|i| tree.nodes[i].proof));
    if node.mover == to_move {
        for_mover
    } else {
        for_mover.flip()
    }
}

/// The proof of a position for the player to move, from the proofs of its children (each
/// from that player's point of view): see [`solve`].
pub(super) fn best_for_mover(children: impl Iterator<Item = Proof>) -> Proof {
    let mut shortest_win: Option<u32> = None;
    let mut longest_loss = 0;
    let mut draw = false;
    let mut all_proven = true;
    for proof in children {
        match proof {
            Proof::Win(d) => shortest_win = Some(shortest_win.map_or(d, |w| w.min(d))),
            Proof::Loss(d) => longest_loss = longest_loss.max(d),
            Proof::Draw => draw = true,
            Proof::Unknown => all_proven = false,
        }
    }
    match shortest_win {
        Some(d) => Proof::Win(d + 1),
        None if !all_proven => Proof::Unknown,
        None if draw => Proof::Draw,
        None => Proof::Loss(longest_loss + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_winning_child_proves_the_parent() {
        let kids = [Proof::Unknown, Proof::Win(2), Proof::Win(0), Proof::Loss(1)];
        assert_eq!(best_for_mover(kids.into_iter()), Proof::Win(1));
    }

    #[test]
    fn all_children_lost_is_a_loss_as_late_as_possible() {
        let kids = [Proof::Loss(0), Proof::Loss(4), Proof::Loss(2)];
        assert_eq!(best_for_mover(kids.into_iter()), Proof::Loss(5));
    }

    #[test]
    fn unknown_child_blocks_loss_and_draw() {
        assert_eq!(best_for_mover([Proof::Loss(0), Proof::Unknown].into_iter()), Proof::Unknown);
        assert_eq!(best_for_mover([Proof::Loss(0), Proof::Draw].into_iter()), Proof::Draw);
    }

    #[test]
    fn proof_climbs_the_tree() {
        // root (entered by 1) -> a (entered by 0) -> {x, y} (entered by 1)
        let mut t: Tree<u8> = Tree::new(1);
        t.expand(0, &[0, 1], 0);
        t.expand(1, &[2, 3], 1);
        // Both replies lose for player 1: `a` is a win for player 0, so the root is proven.
        t.nodes[3].proof = Proof::Loss(0);
        propagate_proof(&mut t, 3);
        assert_eq!(t.nodes[1].proof, Proof::Unknown);
        t.nodes[4].proof = Proof::Loss(2);
        propagate_proof(&mut t, 4);
        assert_eq!(t.nodes[1].proof, Proof::Win(3));
        assert_eq!(t.nodes[0].proof, Proof::Loss(4));
    }
}
