//! Monte Carlo tree search: UCT with a reward per player, so it plays games with any number
//! of players.
//!
//! - **Selection** by UCT: the child with the largest `mean + c * sqrt(ln N / n)`, where
//!   `mean` is the average reward in `[0, 1]` of the player who moved into the child.
//! - **Expansion** is lazy: a node gets its children (one contiguous block in an arena, linked
//!   by index) on its second visit; a memory cap stops the growth
//!   ([`Mcts::with_max_nodes`]).
//! - **Playouts** play uniformly random moves to the end of the game, or stop after `k` plies
//!   and turn the evaluation into rewards ([`Mcts::with_rollout_cutoff`], [`eval_to_rewards`]):
//!   the game's own [`Game::evaluate`] unless [`Mcts::with_evaluator`] gives another
//!   [`Evaluator`].
//! - **Back-propagation** adds to each node the reward of the player who moved into it, taken
//!   from [`crate::Outcome::reward`]: 1 for a win, 0 for a loss, ranks in between.
//! - **MCTS-Solver** (two-player games): terminal positions are proven wins, losses or
//!   draws, and proofs climb the tree (a position is won if some move wins, lost if every
//!   move loses). A proven root ends the search with [`Value::Win`], [`Value::Loss`] or
//!   [`Value::Draw`], and a proven win is always played. Distances count plies along the
//!   proof found, so `Win(n)` is a win within `n` plies, not always the shortest one.
//! - **Tree reuse**: after [`Agent::observe`] the subtree of the move played is kept and the
//!   next [`Agent::choose`] on that position continues it ([`Mcts::last_reused`]).
//! - **Root parallelism**: [`Mcts::with_threads`] grows independent trees on scoped threads,
//!   with seeds derived from the base seed, and adds their root statistics by move.
//!
//! **Budgets**: [`Budget::iterations`] counts playouts; [`Budget::nodes`] counts nodes
//! created plus playout plies; a fixed time stops at the [`Deadline`]'s hard limit, a clock at
//! its allotment (the soft limit); the stop flag is polled with the clock, every few
//! iterations. Depth limits do not apply to MCTS: a budget with none of the above runs
//! [`DEFAULT_ITERATIONS`]. A position with one legal move is answered at once.
//!
//! **Types**: [`Mcts<G, E>`](Mcts) is generic over the game `G`, because it keeps the game's
//! tree (moves and root position) between searches for tree reuse; type inference finds `G`
//! from the game the agent plays, so `Mcts::new()` needs no annotation where the agent is
//! used. The MCTS-Solver only acts in two-player games; the player count is a runtime value
//! of the rules (Reversi's is an option), so that is decided per search, not by a bound.
//!
//! The search is reproducible: the same seed, options, thread count and an iteration or
//! node budget give the same move and the same statistics on every platform. Playouts ignore
//! the game's history (repetitions); the game's own move counters end every playout.
//!
//! ```
//! use ply::Game;
//! use ply::games::TicTacToe;
//! use ply::search::{Agent, Budget, Position, Value, mcts::Mcts};
//! use ply::Notation;
//!
//! let game = TicTacToe;
//! // X to move: X X . / O O . / . . . — c3 wins at once.
//! let state = game.parse_state("xx.oo....").unwrap();
//! let mut mcts = Mcts::new().with_seed(7);
//! let report = mcts.choose(&game, Position::new(&state), &Budget::iterations(2000)).unwrap();
//! assert_eq!(game.format_move(&state, report.best_move), "c3");
//! assert_eq!(report.value, Value::Win(1));
//! ```

mod math;
mod playout;
mod tree;

use std::fmt;
use std::sync::atomic::AtomicBool;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use self::playout::{Limits, Params, Stats};
use self::tree::{Proof, Tree};
use crate::eval::{Evaluator, GameEval};
use crate::game::{Game, Player, Score};
use crate::search::{
    root_moves, Agent, Budget, Deadline, Position, Root, SearchError, SearchReport, Value,
};

/// The default exploration constant, √2 (UCB1 for rewards in `[0, 1]`).
pub const DEFAULT_EXPLORATION: f64 = std::f64::consts::SQRT_2;
/// The default evaluation scale of [`Mcts::with_eval_scale`].
pub const DEFAULT_EVAL_SCALE: f64 = 100.0;
/// The default node cap of [`Mcts::with_max_nodes`], over all threads (about 80 MB for one-byte
/// moves).
pub const DEFAULT_MAX_NODES: usize = 2_000_000;
/// The iterations run when the budget sets none of iterations, nodes, time, clock or a stop
/// flag (MCTS has no use for a depth limit).
pub const DEFAULT_ITERATIONS: u64 = 1000;

/// UCT with a reward per player, MCTS-Solver, tree reuse and root parallelism, for game `G`
/// with evaluator `E` (used only with a rollout cut-off). See the
/// [module documentation](self).
///
/// Options are set with the `with_*` builders; [`Mcts::new`] gives `c = √2`, seed 0, one
/// thread, full playouts, solver on, tree reuse on, a cap of [`DEFAULT_MAX_NODES`] nodes and
/// the game's own evaluation.
pub struct Mcts<G: Game, E = GameEval> {
    exploration: f64,
    seed: u64,
    threads: usize,
    rollout_cutoff: Option<u32>,
    eval_scale: f64,
    solver: bool,
    tree_reuse: bool,
    max_nodes: usize,
    rng: ChaCha8Rng,
    eval: E,
    /// The trees kept for reuse, with the position at their root.
    kept: Option<Kept<G::State, G::Move>>,
    /// The root statistics of the last search.
    last_stats: Vec<ChildStats<G::Move>>,
    last_reused: u64,
}

/// The trees of the previous search and the position at their root.
struct Kept<S, M> {
    state: S,
    trees: Vec<Tree<M>>,
}

/// What the last search knows about one move at the root, summed over the threads' trees.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildStats<M> {
    /// The move.
    pub mv: M,
    /// Playouts through it.
    pub visits: u64,
    /// Mean reward in `[0, 1]` of the player to move at the root (0.5 before any visit).
    pub mean: f64,
    /// Its proven value for the player to move at the root ([`Value::Win`], [`Value::Loss`],
    /// [`Value::Draw`]), or [`Value::Unknown`].
    pub proven: Value,
}

impl<G: Game> Default for Mcts<G> {
    fn default() -> Self {
        Mcts::new()
    }
}

impl<G: Game, E> fmt::Debug for Mcts<G, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mcts")
            .field("exploration", &self.exploration)
            .field("seed", &self.seed)
            .field("threads", &self.threads)
            .field("rollout_cutoff", &self.rollout_cutoff)
            .field("eval_scale", &self.eval_scale)
            .field("solver", &self.solver)
            .field("tree_reuse", &self.tree_reuse)
            .field("max_nodes", &self.max_nodes)
            .field("evaluator", &std::any::type_name::<E>())
            .field("has_tree", &self.kept.is_some())
            .finish()
    }
}

impl<G: Game> Mcts<G> {
    /// MCTS with the default options (see [`Mcts`]).
    pub fn new() -> Self {
        Mcts {
            exploration: DEFAULT_EXPLORATION,
            seed: 0,
            threads: 1,
            rollout_cutoff: None,
            eval_scale: DEFAULT_EVAL_SCALE,
            solver: true,
            tree_reuse: true,
            max_nodes: DEFAULT_MAX_NODES,
            rng: ChaCha8Rng::seed_from_u64(0),
            eval: GameEval,
            kept: None,
            last_stats: Vec::new(),
            last_reused: 0,
        }
    }
}

impl<G: Game, E> Mcts<G, E> {
    /// This search scoring cut-off playouts with `eval` instead of its current evaluator.
    pub fn with_evaluator<E2: Evaluator<G>>(self, eval: E2) -> Mcts<G, E2> {
        Mcts {
            exploration: self.exploration,
            seed: self.seed,
            threads: self.threads,
            rollout_cutoff: self.rollout_cutoff,
            eval_scale: self.eval_scale,
            solver: self.solver,
            tree_reuse: self.tree_reuse,
            max_nodes: self.max_nodes,
            rng: self.rng,
            eval,
            kept: self.kept,
            last_stats: self.last_stats,
            last_reused: self.last_reused,
        }
    }

    /// The evaluator of cut-off playouts.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Sets the UCT exploration constant `c` (larger explores more).
    ///
    /// # Panics
    /// If `c` is negative or not finite.
    pub fn with_exploration(mut self, c: f64) -> Self {
        assert!(c.is_finite() && c >= 0.0, "exploration constant must be finite and >= 0: {c}");
        self.exploration = c;
        self
    }

    /// Sets the seed of every random choice (playouts, the order unvisited children are tried).
    /// It restarts the random stream, so two agents built with the same seed and options make
    /// the same choices.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self
    }

    /// Searches with `threads` independent trees (root parallelism), 0 meaning 1. An
    /// iteration or node budget is split evenly among them.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Stops each playout after `plies` random moves (`Some(0)` evaluates the new leaf
    /// directly) and scores it with [`eval_to_rewards`]; `None` plays to the end of the game.
    pub fn with_rollout_cutoff(mut self, plies: Option<u32>) -> Self {
        self.rollout_cutoff = plies;
        self
    }

    /// Sets the evaluation units that make a one-step difference in the logistic of
    /// [`eval_to_rewards`]: an evaluation lead of `scale` gives a reward of about 0.73.
    /// Used only with a rollout cut-off. The default is [`DEFAULT_EVAL_SCALE`].
    ///
    /// # Panics
    /// If `scale` is not finite and positive.
    pub fn with_eval_scale(mut self, scale: f64) -> Self {
        assert!(scale.is_finite() && scale > 0.0, "evaluation scale must be > 0: {scale}");
        self.eval_scale = scale;
        self
    }

    /// Turns MCTS-Solver on or off. It only ever acts in two-player games.
    pub fn with_solver(mut self, solver: bool) -> Self {
        self.solver = solver;
        self
    }

    /// Turns tree reuse between moves on or off.
    pub fn with_tree_reuse(mut self, reuse: bool) -> Self {
        self.tree_reuse = reuse;
        if !reuse {
            self.kept = None;
        }
        self
    }

    /// Caps the number of tree nodes (over all threads, split evenly); when a tree is full,
    /// iterations go on with playouts from its leaves but the tree stops growing. The root
    /// and its children are always created. A node takes about 40 bytes plus the move.
    pub fn with_max_nodes(mut self, max_nodes: usize) -> Self {
        self.max_nodes = max_nodes;
        self
    }

    /// Root visits that the last [`Agent::choose`] inherited from the previous search's tree
    /// (0 when it started a new tree).
    pub fn last_reused(&self) -> u64 {
        self.last_reused
    }

    /// The root statistics of the last search (in the order of the first thread's tree), or
    /// an empty list if there was none (or it answered without searching).
    pub fn root_stats(&self, _game: &G) -> Vec<ChildStats<G::Move>> {
        self.last_stats.clone()
    }

    /// The trees to search `state` with: the kept ones if they are rooted there, new ones
    /// otherwise.
    fn take_trees(&mut self, game: &G, state: &G::State) -> Vec<Tree<G::Move>> {
        if let Some(kept) = self.kept.take() {
            if kept.state == *state && kept.trees.len() == self.threads {
                return kept.trees;
            }
        }
        let n = game.num_players().max(1);
        let previous = (game.to_move(state).index() + n - 1) % n;
        // Room for each tree's share of the node cap, so no tree grows by copying mid-search.
        let room = (self.max_nodes / self.threads).max(1);
        (0..self.threads).map(|_| Tree::with_capacity(previous as u8, room)).collect()
    }
}

/// Turns evaluations into one reward in `(0, 1)` per player, written to `rewards` (one entry
/// per seat), for playouts cut off before the end.
///
/// Each player's lead is half the gap between their evaluation and the mean of the others'
/// (`d_p = (v_p - mean_{q≠p} v_q) / 2`; `d_p = v_p` with one player), and the reward is the
/// logistic `1 / (1 + e^(-d_p / scale))`. For a zero-sum two-player evaluation this is the
/// logistic of the player's own evaluation and the two rewards add up to 1; with N players the
/// leads add up to 0, so equal evaluations give every player 0.5.
///
/// ```
/// use ply::Game;
/// use ply::games::TicTacToe;
/// use ply::search::mcts::eval_to_rewards;
///
/// let game = TicTacToe;
/// let mut rewards = [0.0; 2];
/// eval_to_rewards(&game, &game.initial_state(), 10.0, &mut rewards);
/// assert_eq!(rewards, [0.5, 0.5]);
/// ```
///
/// # Panics
/// If `rewards` is shorter than `game.num_players()`.
pub fn eval_to_rewards<G: Game>(game: &G, state: &G::State, scale: f64, rewards: &mut [f64]) {
    eval_to_rewards_with(&GameEval, game, state, scale, rewards);
}

/// [`eval_to_rewards`] with the evaluations of `eval` instead of the game's own.
///
/// # Panics
/// If `rewards` is shorter than `game.num_players()`.
pub fn eval_to_rewards_with<G: Game, E: Evaluator<G>>(
    eval: &E,
    game: &G,
    state: &G::State,
    scale: f64,
    rewards: &mut [f64],
) {
    let n = game.num_players();
    let mut total = 0.0;
    for (p, r) in rewards[..n].iter_mut().enumerate() {
        *r = eval.evaluate(game, state, Player::new(p)).to_f64();
        total += *r;
    }
    for r in rewards[..n].iter_mut() {
        let lead = if n > 1 { (*r - (total - *r) / (n - 1) as f64) / 2.0 } else { *r };
        *r = 1.0 / (1.0 + math::exp(-lead / scale));
    }
}

/// A 64-bit mix of the base seed with a thread number (SplitMix64).
fn derive_seed(seed: u64, index: u64) -> u64 {
    crate::zobrist::mix64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(index))
}

/// `total` split into `parts` shares that differ by at most one, share `i` of them.
fn share(total: u64, parts: usize, i: usize) -> u64 {
    let parts = parts as u64;
    total / parts + u64::from((i as u64) < total % parts)
}

fn proof_value(proof: Proof) -> Value {
    match proof {
        Proof::Win(d) => Value::Win(d),
        Proof::Loss(d) => Value::Loss(d),
        Proof::Draw => Value::Draw,
        Proof::Unknown => Value::Unknown,
    }
}

/// Root statistics of one move, before conversion to [`ChildStats`].
struct Merged<M> {
    mv: M,
    visits: u64,
    reward: f64,
    /// Proven value for the player to move at the root, as seen from the child.
    proof: Proof,
}

/// The move the statistics recommend: a proven win (the shortest) first, then the most
/// visited move not proven lost (ties to the better mean), and if every move is lost the one
/// that loses latest. Returns an index into `stats`.
fn pick(stats: impl Iterator<Item = (u64, f64, Proof)> + Clone) -> Option<usize> {
    let win = stats
        .clone()
        .enumerate()
        .filter_map(|(i, (_, _, p))| match p {
            Proof::Win(d) => Some((d, i)),
            _ => None,
        })
        .min();
    if let Some((_, i)) = win {
        return Some(i);
    }
    let mut best: Option<(usize, u64, f64)> = None;
    for (i, (visits, mean, proof)) in stats.clone().enumerate() {
        if matches!(proof, Proof::Loss(_)) {
            continue;
        }
        if best.is_none_or(|(_, v, m)| visits > v || (visits == v && mean > m)) {
            best = Some((i, visits, mean));
        }
    }
    if let Some((i, _, _)) = best {
        return Some(i);
    }
    stats
        .enumerate()
        .filter_map(|(i, (_, _, p))| match p {
            Proof::Loss(d) => Some((d, std::cmp::Reverse(i))),
            _ => None,
        })
        .max()
        .map(|(_, std::cmp::Reverse(i))| i)
}

/// The most promising root move of `tree` and its mean reward, by the rule of the final
/// choice; `None` before any child is visited.
fn best_root_child<M: Copy>(tree: &Tree<M>) -> Option<(M, f64)> {
    let range = tree.root().children();
    let kids = range.clone().map(|i| {
        let n = &tree.nodes[i];
        (u64::from(n.visits), n.mean(), n.proof)
    });
    let child = &tree.nodes[range.start + pick(kids)?];
    (child.visits > 0).then(|| (child.mv.expect("every child has a move"), child.mean()))
}

/// The principal variation below the root of `tree`, starting with `first`.
fn principal_variation<M: Copy + PartialEq>(tree: &Tree<M>, first: M) -> Vec<M> {
    let mut pv = vec![first];
    let Some(mut node) = tree.root_child(first) else {
        return pv;
    };
    loop {
        let range = tree.nodes[node].children();
        let kids = range.clone().map(|i| {
            let n = &tree.nodes[i];
            (u64::from(n.visits), n.mean(), n.proof)
        });
        let Some(k) = pick(kids) else { break };
        let child = range.start + k;
        if tree.nodes[child].visits == 0 {
            break;
        }
        node = child;
        pv.push(tree.nodes[child].mv.expect("every child has a move"));
    }
    pv
}

impl<G: Game, E: Evaluator<G>> Agent<G> for Mcts<G, E> {
    fn name(&self) -> String {
        let mut name = format!("mcts(c={:.2}", self.exploration);
        if self.threads > 1 {
            name += &format!(",threads={}", self.threads);
        }
        if let Some(k) = self.rollout_cutoff {
            name += &format!(",cutoff={k}");
        }
        if !self.solver {
            name += ",solver=off";
        }
        name + ")"
    }

    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        let deadline = Deadline::new(budget);
        let start = deadline.start();
        let state = position.state;
        if let Root::Forced(mv) = root_moves(game, state)? {
            self.last_stats.clear();
            self.last_reused = 0;
            return Ok(SearchReport::instant(mv, start.elapsed()));
        }

        let mut trees = self.take_trees(game, state);
        self.last_reused = trees.iter().map(|t| u64::from(t.root().visits)).sum();
        let threads = trees.len();
        let params = Params {
            exploration: self.exploration,
            rollout_cutoff: self.rollout_cutoff,
            eval_scale: self.eval_scale,
            solver: self.solver && game.num_players() == 2,
            max_nodes: (self.max_nodes / threads).max(1),
        };
        let unlimited = budget.iterations.is_none()
            && budget.nodes.is_none()
            && budget.time.is_none()
            && budget.clock.is_none()
            && budget.deadline.is_none()
            && budget.stop.is_none();
        let iterations = if unlimited { Some(DEFAULT_ITERATIONS) } else { budget.iterations };
        // With a count budget every tree stops on its own, which keeps threads reproducible;
        // otherwise a proof in one tree ends them all.
        let proven_flag = AtomicBool::new(false);
        let share_proof = iterations.is_none() && budget.nodes.is_none();
        let call_seed = self.rng.next_u64();
        let limits: Vec<Limits<'_>> = (0..threads)
            .map(|i| Limits {
                iterations: iterations.map(|n| share(n, threads, i)),
                nodes: budget.nodes.map(|n| share(n, threads, i)),
                deadline,
                use_soft: budget.clock.is_some(),
                stop: budget.stop.as_deref(),
                proven: share_proof.then_some(&proven_flag),
                progress: if i == 0 { budget.progress.as_deref() } else { None },
            })
            .collect();
        let run = |i: usize, tree: &mut Tree<G::Move>| -> Stats {
            let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(call_seed, i as u64));
            playout::search(game, &self.eval, state, tree, &params, &limits[i], &mut rng)
        };
        let stats: Vec<Stats> = if threads == 1 {
            vec![run(0, &mut trees[0])]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = trees
                    .iter_mut()
                    .enumerate()
                    .map(|(i, tree)| {
                        let run = &run;
                        scope.spawn(move || run(i, tree))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect()
            })
        };

        // Merge the root statistics by move, in the order of the first tree.
        let mut merged: Vec<Merged<G::Move>> = Vec::new();
        for tree in &trees {
            for i in tree.root().children() {
                let node = &tree.nodes[i];
                let mv = node.mv.expect("every child has a move");
                let entry = match merged.iter_mut().position(|m| m.mv == mv) {
                    Some(k) => &mut merged[k],
                    None => {
                        merged.push(Merged { mv, visits: 0, reward: 0.0, proof: Proof::Unknown });
                        merged.last_mut().expect("just pushed")
                    }
                };
                entry.visits += u64::from(node.visits);
                entry.reward += node.reward;
                if params.solver && node.proof.is_known() {
                    entry.proof = node.proof;
                }
            }
        }
        let mean = |m: &Merged<G::Move>| {
            if m.visits == 0 {
                0.5
            } else {
                m.reward / m.visits as f64
            }
        };
        let best = pick(merged.iter().map(|m| (m.visits, mean(m), m.proof)))
            .expect("the root has at least two moves");
        let best_move = merged[best].mv;
        let root_proof = if params.solver {
            playout::best_for_mover(merged.iter().map(|m| m.proof))
        } else {
            Proof::Unknown
        };
        let value = match root_proof {
            Proof::Unknown => Value::Reward(mean(&merged[best])),
            proof => proof_value(proof),
        };
        let pv_tree = trees
            .iter()
            .max_by_key(|t| t.root_child(best_move).map_or(0, |i| t.nodes[i].visits))
            .expect("at least one tree");
        let pv = principal_variation(pv_tree, best_move);

        self.last_stats = merged
            .iter()
            .map(|m| ChildStats {
                mv: m.mv,
                visits: m.visits,
                mean: mean(m),
                proven: proof_value(m.proof),
            })
            .collect();
        if self.tree_reuse {
            self.kept = Some(Kept { state: state.clone(), trees });
        }

        Ok(SearchReport {
            best_move,
            value,
            pv,
            depth: stats.iter().map(|s| s.depth).max().unwrap_or(0),
            seldepth: stats.iter().map(|s| s.seldepth).max().unwrap_or(0),
            nodes: stats.iter().map(|s| s.nodes).sum(),
            iterations: stats.iter().map(|s| s.iterations).sum(),
            elapsed: start.elapsed(),
        })
    }

    fn observe(&mut self, game: &G, state_before: &G::State, mv: G::Move) {
        let Some(mut kept) = self.kept.take() else { return };
        if kept.state != *state_before {
            return;
        }
        let mut trees = Vec::with_capacity(kept.trees.len());
        for mut tree in std::mem::take(&mut kept.trees) {
            match tree.root_child(mv) {
                Some(child) => {
                    tree.reroot(child);
                    trees.push(tree);
                }
                None => return,
            }
        }
        let mut state = kept.state;
        game.apply(&mut state, mv);
        self.kept = Some(Kept { state, trees });
    }

    fn ponders_before_reply(&self) -> bool {
        self.tree_reuse
    }

    fn carried_over(&self) -> u64 {
        self.last_reused
    }

    fn new_game(&mut self) {
        self.kept = None;
        self.last_stats.clear();
        self.last_reused = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

    #[test]
    fn shares_add_up() {
        let parts: Vec<u64> = (0..3).map(|i| share(10, 3, i)).collect();
        assert_eq!(parts, [4, 3, 3]);
        assert_eq!(share(5, 1, 0), 5);
    }

    #[test]
    fn derived_seeds_differ() {
        assert_ne!(derive_seed(1, 0), derive_seed(1, 1));
        assert_ne!(derive_seed(1, 0), derive_seed(2, 0));
    }

    #[test]
    fn pick_prefers_proven_win_then_visits_then_late_loss() {
        let s = [(100, 0.9, Proof::Unknown), (3, 0.1, Proof::Win(4)), (2, 0.0, Proof::Win(2))];
        assert_eq!(pick(s.into_iter()), Some(2));
        let s = [(100, 0.9, Proof::Loss(3)), (30, 0.4, Proof::Unknown), (30, 0.5, Proof::Draw)];
        assert_eq!(pick(s.into_iter()), Some(2));
        let s = [(100, 0.1, Proof::Loss(1)), (3, 0.0, Proof::Loss(5))];
        assert_eq!(pick(s.into_iter()), Some(1));
    }

    #[test]
    fn rewards_follow_the_evaluation() {
        use crate::Notation;
        let game = TicTacToe;
        // X holds the centre and a corner, O an edge: X is better.
        let s = game.parse_state("x...xo...").unwrap();
        let mut r = [0.0; 2];
        eval_to_rewards(&game, &s, 10.0, &mut r);
        assert!(r[0] > 0.5 && r[1] < 0.5, "{r:?}");
        assert!((r[0] + r[1] - 1.0).abs() < 1e-12);
        let mut wide = [0.0; 2];
        eval_to_rewards(&game, &s, 1000.0, &mut wide);
        assert!(wide[0] < r[0], "a larger scale flattens the rewards");
    }

    #[test]
    fn name_lists_non_default_options() {
        let m = Mcts::new().with_threads(2).with_rollout_cutoff(Some(4)).with_solver(false);
        assert_eq!(Agent::<TicTacToe>::name(&m), "mcts(c=1.41,threads=2,cutoff=4,solver=off)");
    }
}
