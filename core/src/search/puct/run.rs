//! One search's simulations, on one thread or several sharing the tree under a lock: each
//! thread descends to a batch of leaves (virtual losses steer the next descents elsewhere),
//! evaluates them with the network outside the lock, then expands them and backs their values
//! up. In two-player games the ends of games and the moves that win at once are proofs, which
//! settle the nodes above them (MCTS-Solver): a proven node is not searched further, and a
//! proven root ends the search.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use smallvec::SmallVec;

use super::halving::Halving;
use super::select::{gumbel_interior, puct, Rule};
use super::tree::{Proof, Status, Tree};
use crate::eval::pv::{PvBatch, PvModel};
use crate::game::{Game, MoveList, Notation, Player};
use crate::search::{Deadline, Progress, ProgressInfo, Value};

/// How often the first thread publishes its best line.
const PUBLISH_EVERY: Duration = Duration::from_millis(200);

/// Rewards by seat.
pub(super) type Rewards = SmallVec<[f32; 8]>;

/// The tree and what changes with it, behind the search's lock.
pub(super) struct Shared<M> {
    pub(super) tree: Tree<M>,
    /// Gumbel search's root schedule (`None` for PUCT).
    pub(super) halving: Option<Halving>,
    /// The deepest leaf reached, in plies from the root.
    pub(super) depth: u32,
}

/// Everything the threads of one search share.
pub(super) struct Search<'a, G: Game> {
    pub(super) game: &'a G,
    pub(super) root: &'a G::State,
    pub(super) model: &'a PvModel<G>,
    pub(super) rule: Rule,
    /// Gumbel search's selection below the root.
    pub(super) gumbel: bool,
    /// Look one move ahead at each expansion for a move that wins at once.
    pub(super) decisive: bool,
    /// Prove values (two-player games with proofs on).
    pub(super) proofs: bool,
    pub(super) max_nodes: usize,
    pub(super) players: usize,
    /// Leaves each thread evaluates together.
    pub(super) batch: usize,
    /// Most simulations (the root's first evaluation included).
    pub(super) limit: Option<u64>,
    pub(super) deadline: Deadline,
    /// Stop at the soft limit (play under a clock).
    pub(super) use_soft: bool,
    pub(super) stop: Option<&'a AtomicBool>,
    pub(super) progress: Option<&'a Progress>,
    pub(super) shared: Mutex<Shared<G::Move>>,
    /// Simulations started (reserved against `limit`).
    pub(super) started: AtomicU64,
    /// Simulations backed up.
    pub(super) done: AtomicU64,
    /// Set when Gumbel search has its answer, or the root's value is proven, before the budget
    /// ends.
    pub(super) decided: AtomicBool,
}

/// Where a descent ended.
enum Descent {
    /// A position to evaluate with the network.
    Evaluate(usize),
    /// A finished game, with its rewards known.
    Terminal(usize),
    /// A position whose exact value is proven.
    Proven(usize),
    /// A leaf another simulation is evaluating.
    Busy,
}

/// One thread's reusable buffers.
struct Scratch<G: Game> {
    batch: PvBatch,
    leaves: Vec<(usize, G::State)>,
    moves: Vec<G::Move>,
    starts: Vec<usize>,
    list: MoveList<G::Move>,
    priors: Vec<f32>,
    rewards: Vec<Rewards>,
    /// Per leaf: whether the player to move there has a move that wins at once.
    wins_at_once: Vec<bool>,
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch {
            batch: PvBatch::default(),
            leaves: Vec::new(),
            moves: Vec::new(),
            starts: Vec::new(),
            list: MoveList::new(),
            priors: Vec::new(),
            rewards: Vec::new(),
            wins_at_once: Vec::new(),
        }
    }
}

impl<G: Game + Notation> Search<'_, G> {
    pub(super) fn lock(&self) -> MutexGuard<'_, Shared<G::Move>> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// True when no further simulation may start.
    fn time_is_up(&self) -> bool {
        self.decided.load(Ordering::Relaxed)
            || self.deadline.hard_expired()
            || (self.use_soft && self.deadline.soft_expired())
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Reserves one simulation against the limit.
    fn reserve(&self) -> bool {
        let n = self.started.fetch_add(1, Ordering::Relaxed);
        if self.limit.is_some_and(|limit| n >= limit) {
            self.started.fetch_sub(1, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// Runs simulations until a limit is reached; `publisher` publishes progress.
    pub(super) fn work(&self, publisher: bool) {
        let mut scratch = Scratch::<G>::default();
        let mut last_publish = Instant::now();
        while !self.time_is_up() {
            let (collected, busy) = self.collect(&mut scratch);
            if collected == 0 {
                if busy {
                    std::thread::yield_now();
                    continue;
                }
                break;
            }
            self.evaluate(&mut scratch);
            self.back_up(&mut scratch);
            if publisher && last_publish.elapsed() >= PUBLISH_EVERY {
                if let Some(progress) = self.progress {
                    self.publish(progress);
                }
                last_publish = Instant::now();
            }
        }
    }

    /// Descends to up to `batch` leaves under the lock; terminal leaves are backed up at once.
    /// Returns the leaves to evaluate (or backed up) and whether a busy leaf stopped it.
    fn collect(&self, s: &mut Scratch<G>) -> (usize, bool) {
        s.leaves.clear();
        let mut shared = self.lock();
        let mut count = 0;
        for _ in 0..self.batch {
            if !self.reserve() {
                break;
            }
            let mut state = self.root.clone();
            match self.descend(&mut shared, &mut state) {
                Descent::Evaluate(node) => {
                    shared.tree.add_in_flight(node);
                    s.leaves.push((node, state));
                }
                Descent::Terminal(node) => {
                    let rewards = outcome_rewards(self.game, self.players, &state);
                    let tree = &mut shared.tree;
                    if self.proofs && tree.nodes[node].proof.is_none() {
                        let reward = rewards[usize::from(tree.nodes[node].mover)];
                        tree.prove(node, Proof { reward, plies: 0 });
                    }
                    tree.add_in_flight(node);
                    tree.backup(node, &rewards);
                    self.after_backup(&mut shared, 1);
                }
                Descent::Proven(node) => {
                    let tree = &mut shared.tree;
                    let (mover, proof) = (tree.nodes[node].mover, tree.nodes[node].proof);
                    let reward = proof.expect("a proven node").reward;
                    let rewards: Rewards =
                        (0..2).map(|p| if p == mover { reward } else { 1.0 - reward }).collect();
                    tree.add_in_flight(node);
                    tree.backup(node, &rewards);
                    self.after_backup(&mut shared, 1);
                }
                Descent::Busy => {
                    self.started.fetch_sub(1, Ordering::Relaxed);
                    return (count, count == 0);
                }
            }
            count += 1;
        }
        (count, false)
    }

    /// Follows the selection rule from the root to a leaf, playing its moves on `state`.
    fn descend(&self, shared: &mut Shared<G::Move>, state: &mut G::State) -> Descent {
        let mut node = 0;
        let mut depth = 0;
        let result = loop {
            let tree = &shared.tree;
            let status = tree.nodes[node].status;
            // The root is searched even when proven: its move must be found.
            if node != 0 && tree.nodes[node].proof.is_some() && status != Status::Terminal {
                break Descent::Proven(node);
            }
            match status {
                Status::Expanded => {
                    let child = match &shared.halving {
                        Some(h) if node == 0 => h.next(tree),
                        _ if self.gumbel => gumbel_interior(tree, node),
                        _ => puct(tree, node, &self.rule),
                    };
                    let mv = tree.nodes[child].mv.expect("every child has a move");
                    self.game.apply(state, mv);
                    node = child;
                    depth += 1;
                }
                Status::New => {
                    if self.game.outcome(state).is_some() {
                        shared.tree.nodes[node].status = Status::Terminal;
                        break Descent::Terminal(node);
                    }
                    shared.tree.nodes[node].status = Status::Pending;
                    break Descent::Evaluate(node);
                }
                Status::Unexpanded => break Descent::Evaluate(node),
                Status::Terminal => break Descent::Terminal(node),
                Status::Pending => break Descent::Busy,
            }
        };
        shared.depth = shared.depth.max(depth);
        result
    }

    /// Evaluates the collected leaves in one batch, outside the lock; a leaf with a move that
    /// wins at once takes that move's result instead of the network's value.
    fn evaluate(&self, s: &mut Scratch<G>) {
        s.batch.clear();
        s.moves.clear();
        s.starts.clear();
        s.rewards.clear();
        s.wins_at_once.clear();
        for (_, state) in &s.leaves {
            self.game.generate_moves(state, &mut s.list);
            s.starts.push(s.moves.len());
            s.moves.extend_from_slice(&s.list);
            self.model.push(&mut s.batch, self.game, state, &s.list);
        }
        s.starts.push(s.moves.len());
        self.model.run(&mut s.batch);
        s.priors.clear();
        for (i, (_, state)) in s.leaves.iter().enumerate() {
            let priors = s.batch.priors(i);
            let first = s.priors.len();
            s.priors.extend_from_slice(priors);
            let mut rewards: Rewards = s.batch.values(i).iter().copied().collect();
            let mut wins_at_once = false;
            if self.decisive {
                let moves = &s.moves[s.starts[i]..s.starts[i + 1]];
                if let Some((k, won)) = winning_move(self.game, self.players, state, moves) {
                    for (j, p) in s.priors[first..].iter_mut().enumerate() {
                        *p = if j == k { 1.0 } else { 0.0 };
                    }
                    rewards = won;
                    wins_at_once = true;
                }
            }
            s.rewards.push(rewards);
            s.wins_at_once.push(wins_at_once);
        }
    }

    /// Expands the evaluated leaves and backs their values up, under the lock.
    fn back_up(&self, s: &mut Scratch<G>) {
        let mut shared = self.lock();
        for (i, (node, state)) in s.leaves.iter().enumerate() {
            let (node, range) = (*node, s.starts[i]..s.starts[i + 1]);
            let rewards = &s.rewards[i];
            let mover = self.game.to_move(state).index() % self.players;
            let tree = &mut shared.tree;
            tree.nodes[node].own_value = rewards[mover];
            if tree.nodes[node].status == Status::Pending {
                if range.is_empty() || tree.nodes.len() + range.len() > self.max_nodes {
                    tree.nodes[node].status = Status::Unexpanded;
                } else {
                    tree.expand(node, &s.moves[range.clone()], &s.priors[range], mover as u8);
                }
            }
            if s.wins_at_once[i] && self.proofs && tree.nodes[node].proof.is_none() {
                // The player to move wins next ply: a win for the node's mover if that is them.
                let reward = f32::from(usize::from(tree.nodes[node].mover) == mover);
                tree.prove(node, Proof { reward, plies: 1 });
            }
            tree.backup(node, rewards);
        }
        self.after_backup(&mut shared, s.leaves.len() as u64);
    }

    /// Counts backed-up simulations and moves Gumbel search's schedule on.
    fn after_backup(&self, shared: &mut Shared<G::Move>, count: u64) {
        self.done.fetch_add(count, Ordering::Relaxed);
        let Shared { tree, halving, .. } = shared;
        if let Some(h) = halving {
            while h.advance(tree) {}
            if h.is_decided() {
                self.decided.store(true, Ordering::Relaxed);
            }
        }
        if self.proofs && tree.root_settled() {
            self.decided.store(true, Ordering::Relaxed);
        }
    }

    /// The move the search would play now (a root child's index), if the root has children.
    pub(super) fn best_child(&self, shared: &Shared<G::Move>) -> Option<usize> {
        let chosen = match &shared.halving {
            Some(h) => Some(h.best(&shared.tree)),
            None => shared.tree.most_visited(0),
        };
        chosen.map(|c| shared.tree.proven_choice(c))
    }

    fn publish(&self, progress: &Progress) {
        let shared = self.lock();
        let Some(best) = self.best_child(&shared) else { return };
        progress.publish(ProgressInfo {
            depth: 0,
            seldepth: shared.depth,
            value: Some(Value::Reward(shared.tree.nodes[best].settled_mean())),
            nodes: self.done.load(Ordering::Relaxed),
            elapsed: self.deadline.elapsed(),
            pv: shared.tree.principal_variation(best),
        });
    }
}

/// Each seat's reward in the finished game `state`.
pub(super) fn outcome_rewards<G: Game>(game: &G, players: usize, state: &G::State) -> Rewards {
    let outcome = game.outcome(state).expect("a terminal position has an outcome");
    (0..players).map(|p| outcome.reward(Player(p as u8), players) as f32).collect()
}

/// The first of `moves` that wins at once for the player to move in `state`, with the
/// finished game's rewards.
pub(super) fn winning_move<G: Game>(
    game: &G,
    players: usize,
    state: &G::State,
    moves: &[G::Move],
) -> Option<(usize, Rewards)> {
    let mover = game.to_move(state);
    for (k, &mv) in moves.iter().enumerate() {
        let mut next = state.clone();
        game.apply(&mut next, mv);
        if let Some(outcome) = game.outcome(&next) {
            if outcome.reward(mover, players) >= 1.0 {
                return Some((k, outcome_rewards(game, players, &next)));
            }
        }
    }
    None
}
