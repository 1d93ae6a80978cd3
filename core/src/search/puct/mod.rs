//! Learned tree search: PUCT (AlphaZero) and Gumbel search (Danihelka et al., ICLR 2022)
//! guided by a policy-value network ([`PvModel`]), for games of any number of players.
//!
//! - **PUCT** descends by `Q + c · P · sqrt(N) / (1 + n)`: `P` the network's prior of the
//!   move, `Q` the mean reward of the player who made it; unvisited moves start at the
//!   parent's value less a first-play reduction. A new leaf is evaluated by the network (a
//!   value per player, priors for its moves) instead of a playout; every player's value is
//!   backed up, each node adding the reward of the player who moved into it, so three and four
//!   players need nothing more. The move played is the most visited.
//! - **Gumbel search** samples `m` root moves without replacement by `g + logit` (Gumbel
//!   draws `g`), shares the simulations among them by sequential halving and plays the best
//!   by `g + logit + σ(q̂)`; below the root it picks the move whose visits lag most behind the
//!   improved policy `softmax(logit + σ(completed Q))`. It improves on the network's policy
//!   even with a handful of simulations, where PUCT does not.
//! - **Decisive moves**: at each expansion a move that wins at once takes all the prior and
//!   its result replaces the network's value (cheap, and it spares the network learning
//!   one-move wins).
//! - **Proofs** (two-player games, [`Puct::with_proofs`]): ends of games and decisive moves
//!   prove the nodes above them where they decide them (MCTS-Solver); a proven node backs
//!   up its exact reward without being searched further, a proven win at the root is played
//!   (the fastest), a proven loss is not while another move may do better, a proven root
//!   ends the search and reports `Win(n)`, `Loss(n)` or `Draw`.
//! - **Tree reuse** after [`Agent::observe`]; **threads** share one tree under a lock, with
//!   virtual losses, each evaluating its leaves in batches outside the lock
//!   ([`Puct::with_batch`]).
//! - **Training targets**: [`Puct::root_policy`] gives the root's visit distribution (PUCT)
//!   or improved policy (Gumbel), and [`Puct::with_noise`] mixes Dirichlet noise into the
//!   root's priors, for self-play.
//!
//! **Budgets**: iterations and nodes both count simulations (network evaluations and
//! finished games reached); a fixed time stops at the [`Deadline`]'s hard limit, a clock at
//! its allotment; the stop flag is polled between batches. Without a limit it runs
//! [`DEFAULT_SIMULATIONS`]. Gumbel search paces its halving by the simulations or, under a
//! time budget, by equal shares of the time, and stops as soon as one move is left.
//! Repetitions inside the tree are not detected.
//!
//! ```
//! use std::sync::Arc;
//! use ply::eval::planes::{ActionSpace, Planes};
//! use ply::eval::pv::{PvModel, PvNet};
//! use ply::games::TicTacToe;
//! use ply::search::{puct::Puct, Agent, Budget, Position};
//! use ply::{Game, Notation};
//!
//! let game = TicTacToe;
//! let (planes, actions) = (Planes::new(&game).unwrap(), ActionSpace::new(&game).unwrap());
//! let tag = PvModel::tag_for(&planes, &actions);
//! let inputs = ply::eval::planes::Observation::<TicTacToe>::inputs(&planes);
//! // An untrained network: the search still finds the win one move ahead.
//! let net = PvNet::random(inputs, 32, 2, actions.len(), &tag, 1);
//! let model = PvModel::new(&game, Arc::new(planes), actions, &net).unwrap();
//! let state = game.parse_state("xx.oo....").unwrap();
//! let mut agent = Puct::new(model);
//! let report = agent.choose(&game, Position::new(&state), &Budget::iterations(50)).unwrap();
//! assert_eq!(game.format_move(&state, report.best_move), "c3");
//! ```

mod halving;
mod noise;
mod run;
mod select;
mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use self::halving::Halving;
use self::run::{winning_move, Rewards, Search, Shared};
use self::select::{improved_policy, Rule};
use self::tree::{Status, Tree};
use crate::eval::pv::{PvBatch, PvModel};
use crate::game::{Game, MoveList, Notation};
use crate::search::{
    root_moves, Agent, Budget, Deadline, Position, Root, SearchError, SearchReport, Value,
};

/// Simulations per move when the budget sets no limit.
pub const DEFAULT_SIMULATIONS: u64 = 800;
/// PUCT's default exploration constant, for rewards in `[0, 1]`.
pub const DEFAULT_C_PUCT: f32 = 1.25;
/// The default first-play reduction.
pub const DEFAULT_FPU_REDUCTION: f32 = 0.2;
/// Gumbel search's default number of root moves sampled.
pub const DEFAULT_CONSIDERED: usize = 16;
/// The most nodes a tree holds by default; beyond it leaves are evaluated but not expanded.
pub const DEFAULT_MAX_NODES: usize = 4_000_000;

/// Which root rule the search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// AlphaZero's PUCT everywhere; the most visited move is played.
    Puct,
    /// Gumbel sampling and sequential halving over this many root moves, the improved
    /// policy below the root.
    Gumbel {
        /// Root moves sampled (`m`).
        considered: usize,
    },
}

/// Dirichlet noise on the root's priors (self-play exploration).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    /// The Dirichlet concentration (AlphaZero: 0.3 for chess, 0.03 for Go).
    pub alpha: f64,
    /// The share of the priors replaced by noise (AlphaZero: 0.25).
    pub fraction: f64,
}

/// The tree kept between moves for reuse.
struct Kept<G: Game> {
    state: G::State,
    tree: Tree<G::Move>,
    /// The root's priors carry noise: a search of the same position starts afresh.
    noised: bool,
}

/// The learned search agent; see the [module docs](self).
pub struct Puct<G: Game> {
    model: PvModel<G>,
    mode: Mode,
    rule: Rule,
    threads: usize,
    batch: usize,
    reuse: bool,
    decisive: bool,
    proofs: bool,
    noise: Option<Noise>,
    max_nodes: usize,
    rng: ChaCha8Rng,
    kept: Option<Kept<G>>,
    policy: Vec<(G::Move, f32)>,
    reused: u64,
}

impl<G: Game> std::fmt::Debug for Puct<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Puct")
            .field("model", &self.model)
            .field("mode", &self.mode)
            .field("rule", &self.rule)
            .field("threads", &self.threads)
            .field("batch", &self.batch)
            .field("reuse", &self.reuse)
            .field("proofs", &self.proofs)
            .field("noise", &self.noise)
            .finish_non_exhaustive()
    }
}

impl<G: Game> Puct<G> {
    /// PUCT with `model`, one thread, tree reuse on.
    pub fn new(model: PvModel<G>) -> Puct<G> {
        Puct {
            model,
            mode: Mode::Puct,
            rule: Rule { c_puct: DEFAULT_C_PUCT, fpu_reduction: DEFAULT_FPU_REDUCTION },
            threads: 1,
            batch: 1,
            reuse: true,
            decisive: true,
            proofs: true,
            noise: None,
            max_nodes: DEFAULT_MAX_NODES,
            rng: ChaCha8Rng::seed_from_u64(0x5eed),
            kept: None,
            policy: Vec::new(),
            reused: 0,
        }
    }

    /// Gumbel search with `model`, sampling [`DEFAULT_CONSIDERED`] root moves.
    pub fn gumbel(model: PvModel<G>) -> Puct<G> {
        Puct::new(model).with_mode(Mode::Gumbel { considered: DEFAULT_CONSIDERED })
    }

    /// This agent with another root rule.
    pub fn with_mode(mut self, mode: Mode) -> Self {
        if let Mode::Gumbel { considered } = mode {
            self.mode = Mode::Gumbel { considered: considered.max(1) };
        } else {
            self.mode = mode;
        }
        self
    }

    /// PUCT's exploration constant (rewards in `[0, 1]`).
    pub fn with_c_puct(mut self, c: f32) -> Self {
        self.rule.c_puct = c.max(0.0);
        self
    }

    /// The first-play reduction: unvisited moves start this much below the parent's value
    /// (times the square root of the prior mass visited).
    pub fn with_fpu_reduction(mut self, reduction: f32) -> Self {
        self.rule.fpu_reduction = reduction;
        self
    }

    /// Threads sharing the tree (at least 1).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Leaves each thread evaluates in one network pass (at least 1): larger batches read
    /// the network's weights fewer times per position, at the cost of more virtual losses.
    pub fn with_batch(mut self, batch: usize) -> Self {
        self.batch = batch.max(1);
        self
    }

    /// Keep the subtree of the moves played between searches (on by default).
    pub fn with_tree_reuse(mut self, reuse: bool) -> Self {
        self.reuse = reuse;
        self
    }

    /// Look for a move that wins at once at each expansion (on by default).
    pub fn with_decisive_moves(mut self, on: bool) -> Self {
        self.decisive = on;
        self
    }

    /// Prove values in two-player games (on by default): ends of games and moves that win at
    /// once settle the nodes above them, proven nodes back up their exact value, and a proven
    /// root ends the search (MCTS-Solver, Winands et al. 2008).
    pub fn with_proofs(mut self, on: bool) -> Self {
        self.proofs = on;
        self
    }

    /// Dirichlet noise on the root's priors, for self-play (`None`: off, the default).
    pub fn with_noise(mut self, noise: Option<Noise>) -> Self {
        self.noise = noise;
        self
    }

    /// The seed of the noise and of Gumbel search's draws.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self
    }

    /// The most nodes the tree holds.
    pub fn with_max_nodes(mut self, max_nodes: usize) -> Self {
        self.max_nodes = max_nodes.max(2);
        self
    }

    /// The root rule.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The network.
    pub fn model(&self) -> &PvModel<G> {
        &self.model
    }

    /// The training target of the last search: each root move with its share of the visits
    /// (PUCT) or its improved-policy probability (Gumbel); empty after a forced move.
    pub fn root_policy(&self) -> &[(G::Move, f32)] {
        &self.policy
    }

    /// The tree for `state`: the kept one if it is this position's, else a fresh one.
    fn take_tree(&mut self, game: &G, state: &G::State) -> Tree<G::Move> {
        if let Some(kept) = self.kept.take() {
            if kept.state == *state && !(kept.noised && self.noise.is_some()) {
                return kept.tree;
            }
        }
        let players = game.num_players().max(1);
        let mover = game.to_move(state).index() % players;
        Tree::new(((mover + players - 1) % players) as u8)
    }
}

impl<G: Game + Notation> Puct<G> {
    /// Evaluates and expands the root of `tree` (one simulation), mixing in noise if set.
    fn prepare_root(&mut self, game: &G, state: &G::State, tree: &mut Tree<G::Move>) -> u64 {
        let players = game.num_players().max(1);
        let mut evaluated = 0;
        if tree.root().status != Status::Expanded {
            let mut moves = MoveList::new();
            game.generate_moves(state, &mut moves);
            let mut batch = PvBatch::default();
            self.model.push(&mut batch, game, state, &moves);
            self.model.run(&mut batch);
            let mover = game.to_move(state).index() % players;
            let mut values: Rewards = batch.values(0).iter().copied().collect();
            let mut priors = batch.priors(0).to_vec();
            if self.decisive {
                if let Some((k, rewards)) = winning_move(game, players, state, &moves) {
                    priors.iter_mut().enumerate().for_each(|(j, p)| *p = f32::from(j == k));
                    values = rewards;
                }
            }
            tree.nodes[0].own_value = values[mover];
            tree.expand(0, &moves, &priors, mover as u8);
            tree.add_in_flight(0);
            tree.backup(0, &values);
            evaluated = 1;
        }
        if let Some(noise) = self.noise {
            let range = tree.root().children();
            let mut priors: Vec<f32> = range.clone().map(|i| tree.nodes[i].prior).collect();
            noise::add_dirichlet(&mut self.rng, &mut priors, noise.alpha, noise.fraction);
            for (i, p) in range.zip(priors) {
                tree.nodes[i].prior = p;
            }
        }
        evaluated
    }
}

impl<G: Game + Notation> Agent<G> for Puct<G> {
    fn name(&self) -> String {
        let mut name = match self.mode {
            Mode::Puct => format!("puct(c={:.2}", self.rule.c_puct),
            Mode::Gumbel { considered } => format!("gumbel(m={considered}"),
        };
        if self.threads > 1 {
            name += &format!(",threads={}", self.threads);
        }
        if self.batch > 1 {
            name += &format!(",batch={}", self.batch);
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
        self.policy.clear();
        if let Root::Forced(mv) = root_moves(game, state)? {
            self.reused = 0;
            self.kept = None;
            return Ok(SearchReport::instant(mv, start.elapsed()));
        }
        let mut tree = self.take_tree(game, state);
        self.reused = u64::from(tree.root().visits);
        let first = self.prepare_root(game, state, &mut tree);

        let timed = budget.time.is_some() || budget.clock.is_some() || budget.deadline.is_some();
        let unlimited = budget.iterations.is_none()
            && budget.nodes.is_none()
            && !timed
            && budget.stop.is_none();
        let limit = match (budget.iterations, budget.nodes) {
            _ if unlimited => Some(DEFAULT_SIMULATIONS),
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let halving = match self.mode {
            Mode::Puct => None,
            Mode::Gumbel { considered } => {
                let gumbels: Vec<f32> =
                    tree.root().children().map(|_| noise::gumbel(&mut self.rng)).collect();
                let time =
                    deadline.soft_limit().or(deadline.hard_limit()).map(|until| (start, until));
                let simulations = limit.map(|n| n.saturating_sub(first));
                Some(Halving::new(&tree, &gumbels, considered, simulations, time))
            }
        };
        let players = game.num_players().max(1);
        let search = Search {
            game,
            root: state,
            model: &self.model,
            rule: self.rule,
            gumbel: matches!(self.mode, Mode::Gumbel { .. }),
            decisive: self.decisive,
            proofs: self.proofs && players == 2,
            max_nodes: self.max_nodes,
            players,
            batch: self.batch,
            limit,
            deadline,
            use_soft: budget.clock.is_some(),
            stop: budget.stop.as_deref(),
            progress: budget.progress.as_deref(),
            shared: Mutex::new(Shared { tree, halving, depth: 0 }),
            started: AtomicU64::new(first),
            done: AtomicU64::new(first),
            decided: AtomicBool::new(false),
        };
        if search.lock().halving.as_ref().is_some_and(|h| h.is_decided()) {
            search.decided.store(true, Ordering::Relaxed);
        }
        if self.threads == 1 {
            search.work(true);
        } else {
            std::thread::scope(|scope| {
                for t in 0..self.threads {
                    let search = &search;
                    scope.spawn(move || search.work(t == 0));
                }
            });
        }

        let simulations = search.done.load(Ordering::Relaxed);
        let best = search.best_child(&search.lock());
        let shared = search.shared.into_inner().unwrap_or_else(|e| e.into_inner());
        let best = best.unwrap_or(shared.tree.root().first_child as usize);
        let tree = shared.tree;
        let node = &tree.nodes[best];
        let best_move = node.mv.expect("every child has a move");
        let value = match node.proof {
            Some(p) if p.reward >= 1.0 => Value::Win(p.plies + 1),
            Some(p) if p.reward <= 0.0 => Value::Loss(p.plies + 1),
            Some(p) if p.reward == 0.5 => Value::Draw,
            _ => Value::Reward(node.settled_mean()),
        };
        let pv = tree.principal_variation(best);
        self.policy = match self.mode {
            Mode::Puct => {
                let total = tree.root().children().map(|i| tree.nodes[i].visits).sum::<u32>();
                tree.root()
                    .children()
                    .map(|i| {
                        let share = tree.nodes[i].visits as f32 / total.max(1) as f32;
                        (tree.nodes[i].mv.expect("a move"), share)
                    })
                    .collect()
            }
            Mode::Gumbel { .. } => {
                let mut pi = Vec::new();
                improved_policy(&tree, 0, &mut pi);
                tree.root().children().map(|i| tree.nodes[i].mv.expect("a move")).zip(pi).collect()
            }
        };
        let depth = shared.depth;
        if self.reuse {
            self.kept = Some(Kept { state: state.clone(), tree, noised: self.noise.is_some() });
        }
        Ok(SearchReport {
            best_move,
            value,
            pv,
            depth,
            seldepth: depth,
            nodes: simulations,
            iterations: simulations,
            elapsed: start.elapsed(),
        })
    }

    fn observe(&mut self, game: &G, state_before: &G::State, mv: G::Move) {
        let Some(kept) = self.kept.take() else { return };
        if kept.state != *state_before {
            return;
        }
        let Some(child) = kept.tree.root_child(mv) else { return };
        let tree = kept.tree.subtree(child);
        let mut state = kept.state;
        game.apply(&mut state, mv);
        self.kept = Some(Kept { state, tree, noised: false });
    }

    fn ponders_before_reply(&self) -> bool {
        self.reuse
    }

    fn carried_over(&self) -> u64 {
        self.reused
    }

    fn new_game(&mut self) {
        self.kept = None;
        self.policy.clear();
        self.reused = 0;
    }
}

#[cfg(test)]
mod tests;
