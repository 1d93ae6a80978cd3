//! The search library: one [`Agent`] interface implemented by every algorithm, so that any
//! two can play each other on any [`Game`].
//!
//! | module | algorithms |
//! |---|---|
//! | [`alphabeta`] | negamax with PVS, iterative deepening, transposition table, move ordering, aspiration windows, quiescence (two players, zero-sum) |
//! | [`multiplayer`] | N-player alpha-beta with paranoid, max^n (shallow pruning) and best-reply opponent models |
//! | [`mcts`] | UCT with N-player rewards, rollouts with an optional evaluation cut-off, MCTS-Solver, tree reuse, root parallelism |
//! | [`puct`] | PUCT (AlphaZero) and Gumbel search with a policy-value network: N-player backups, tree reuse, threads with virtual loss, self-play targets |
//! | [`baseline`] | uniformly random and greedy (best one-ply evaluation) |
//!
//! Below them, one floor down: [`info`] (what the alpha-beta family reports after each
//! iteration), `common` (what the alpha-beta family shares: budget checks, move ordering,
//! repetition detection along the path, Lazy SMP, score conversion), [`tt`] (the
//! transposition table) and the time and progress helpers.
//!
//! Every search takes a [`Budget`] (depth, nodes, time, iterations, a clock, a deadline, an
//! external stop flag: any combination, whichever is reached first) and returns a
//! [`SearchReport`].
//!
//! Every search also takes an evaluation, an [`Evaluator`](crate::eval::Evaluator) type
//! parameter `E` that defaults to [`GameEval`](crate::eval::GameEval) (the game's own
//! [`Game::evaluate`]) and is replaced by `with_evaluator` on any agent: `AlphaBeta<E>`,
//! `MultiplayerSearch<E>`, `Mcts<G, E>` and `Greedy<E>`. Everything is typed, with no run-time
//! type checks: the alpha-beta agents are not generic over the game (one `AlphaBeta` value
//! searches any game; its transposition table stores scores independently of their type) and
//! pass their iteration reports, with the principal variation as `&[G::Move]`, to an
//! [`info::InfoSink`] type parameter; [`mcts::Mcts`] is generic over the game `G`, whose
//! tree it keeps between moves. Type inference fills in `G` and the move type from the game
//! the agent plays.
//!
//! ```
//! use ply::{Game, search::{Agent, Budget, Position}};
//! use ply::search::alphabeta::AlphaBeta;
//! use ply::games::TicTacToe;
//!
//! let game = TicTacToe;
//! let state = game.initial_state();
//! let mut agent = AlphaBeta::new();
//! let report = agent.choose(&game, Position::new(&state), &Budget::depth(9)).unwrap();
//! assert_eq!(report.value, ply::search::Value::Draw);
//! ```

pub mod alphabeta;
pub mod baseline;
pub(crate) mod common;
pub mod info;
pub mod mcts;
pub mod multiplayer;
mod progress;
pub mod puct;
mod time;
pub mod tt;

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::{Game, MoveList};

pub use progress::{Progress, ProgressInfo};

/// The deepest search any algorithm runs, in plies: a depth limit above it is this one.
pub const MAX_DEPTH: u32 = 200;
pub use time::{Clock, Deadline, TimeControl};

/// What an agent may spend on one move. Every limit that is set applies; the search stops at
/// the first one reached.
///
/// Time has two sides. `time` and `clock` say how long to think: the fair share of the move,
/// measured from the search's start. `deadline` says the latest moment to answer, an absolute
/// instant the caller fixes (for a referee's per-move limit, measured from when the move's
/// input arrived, so that time spent before the search counts): no search runs past it,
/// whatever the other limits say.
///
/// Each family uses the limits that make sense for it: alpha-beta and the multiplayer search
/// use depth, nodes, time, clock, deadline and the stop flag (alone, it searches until
/// stopped) and answer [`SearchError::BadBudget`] to a budget with none of these (no limit at
/// all, or only an MCTS iteration count); MCTS uses iterations, nodes, time, clock, deadline
/// and the stop flag, and runs [`mcts::DEFAULT_ITERATIONS`] without any; the baselines ignore
/// the budget.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Deepest iteration (plies) for tree searches.
    pub depth: Option<u32>,
    /// Most nodes (alpha-beta) or playout steps.
    pub nodes: Option<u64>,
    /// Wall-clock time for this move.
    pub time: Option<Duration>,
    /// Most MCTS iterations (playouts).
    pub iterations: Option<u64>,
    /// The game clock: the search derives its own time for this move from it.
    pub clock: Option<Clock>,
    /// The latest moment to answer: a hard limit that every search honours through
    /// [`Deadline`] (stopping [`Deadline::OVERHEAD`] before it), whatever `time` and `clock`
    /// allow; alone, it is the search's only time limit.
    pub deadline: Option<Instant>,
    /// Set from another thread to stop the search; it answers with the best move so far.
    pub stop: Option<Arc<AtomicBool>>,
    /// Where the search publishes what it has found so far, for another thread to show.
    pub progress: Option<Arc<Progress>>,
}

impl Budget {
    /// A budget limited by search depth.
    pub fn depth(depth: u32) -> Budget {
        Budget { depth: Some(depth), ..Budget::default() }
    }

    /// A budget limited by wall-clock time.
    pub fn time(time: Duration) -> Budget {
        Budget { time: Some(time), ..Budget::default() }
    }

    /// A budget limited by node count.
    pub fn nodes(nodes: u64) -> Budget {
        Budget { nodes: Some(nodes), ..Budget::default() }
    }

    /// A budget limited by MCTS iterations.
    pub fn iterations(iterations: u64) -> Budget {
        Budget { iterations: Some(iterations), ..Budget::default() }
    }

    /// A budget limited by the game clock.
    pub fn clock(clock: Clock) -> Budget {
        Budget { clock: Some(clock), ..Budget::default() }
    }

    /// This budget with a depth limit as well.
    pub fn with_depth(mut self, depth: u32) -> Budget {
        self.depth = Some(depth);
        self
    }

    /// This budget with a node limit as well.
    pub fn with_nodes(mut self, nodes: u64) -> Budget {
        self.nodes = Some(nodes);
        self
    }

    /// This budget with a time limit as well.
    pub fn with_time(mut self, time: Duration) -> Budget {
        self.time = Some(time);
        self
    }

    /// This budget with a hard deadline as well: the search answers before `at` whatever
    /// its other limits allow (see [`Budget::deadline`]).
    pub fn with_deadline(mut self, at: Instant) -> Budget {
        self.deadline = Some(at);
        self
    }

    /// This budget with an iteration limit as well.
    pub fn with_iterations(mut self, iterations: u64) -> Budget {
        self.iterations = Some(iterations);
        self
    }

    /// This budget with an external stop flag.
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Budget {
        self.stop = Some(stop);
        self
    }

    /// This budget publishing the search's progress to `progress`.
    pub fn with_progress(mut self, progress: Arc<Progress>) -> Budget {
        self.progress = Some(progress);
        self
    }

    /// True if the external stop flag is set.
    #[inline]
    pub fn stop_requested(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// True if no limit at all is set.
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.time.is_none()
            && self.iterations.is_none()
            && self.clock.is_none()
            && self.deadline.is_none()
    }
}

/// The position an agent is asked to move in: the state plus the hashes of the positions
/// that led to it (oldest first, the current one last), so searches can recognise
/// repetitions. [`crate::Record::hashes`] gives them.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a, S> {
    /// The current state.
    pub state: &'a S,
    /// Hashes of the game's positions so far, the current one last; may be empty.
    pub history: &'a [u64],
}

impl<'a, S> Position<'a, S> {
    /// A position with no history.
    pub fn new(state: &'a S) -> Self {
        Position { state, history: &[] }
    }

    /// A position with the hashes of the game so far.
    pub fn with_history(state: &'a S, history: &'a [u64]) -> Self {
        Position { state, history }
    }
}

/// The value a search gives its chosen move, from the point of view of the player to move.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Value {
    /// A heuristic score in the game's evaluation units (alpha-beta family).
    Heuristic(f64),
    /// An expected reward in `[0, 1]` (MCTS: 1 is a sure win, 0 a sure loss).
    Reward(f64),
    /// A proven win in this many plies.
    Win(u32),
    /// A proven loss in this many plies.
    Loss(u32),
    /// A proven draw.
    Draw,
    /// No value (random agent, or a single legal move answered at once).
    Unknown,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Heuristic(v) => write!(f, "{v:+.0}"),
            Value::Reward(r) => write!(f, "{:.1}%", r * 100.0),
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Draw => f.write_str("draw"),
            Value::Unknown => f.write_str("?"),
        }
    }
}

/// What a search found and what it cost.
#[derive(Clone, Debug)]
pub struct SearchReport<M> {
    /// The move to play.
    pub best_move: M,
    /// Its value for the player to move.
    pub value: Value,
    /// The principal variation, starting with `best_move` (just `best_move` where the
    /// algorithm has none).
    pub pv: Vec<M>,
    /// Depth of the last completed iteration (alpha-beta) or of the deepest tree line (MCTS).
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Nodes visited (alpha-beta) or tree nodes expanded plus rollout plies (MCTS).
    pub nodes: u64,
    /// MCTS iterations (0 for other searches).
    pub iterations: u64,
    /// Wall-clock time spent.
    pub elapsed: Duration,
}

impl<M> SearchReport<M> {
    /// A report for a move chosen without search (the only legal move, or a random one).
    pub fn instant(best_move: M, elapsed: Duration) -> Self
    where
        M: Copy,
    {
        SearchReport {
            best_move,
            value: Value::Unknown,
            pv: vec![best_move],
            depth: 0,
            seldepth: 0,
            nodes: 0,
            iterations: 0,
            elapsed,
        }
    }

    /// Nodes per second (0 when no time was measured).
    pub fn nps(&self) -> f64 {
        per_second(self.nodes, self.elapsed)
    }

    /// Iterations per second (0 when no time was measured).
    pub fn ips(&self) -> f64 {
        per_second(self.iterations, self.elapsed)
    }
}

fn per_second(count: u64, elapsed: Duration) -> f64 {
    let s = elapsed.as_secs_f64();
    if s > 0.0 {
        count as f64 / s
    } else {
        0.0
    }
}

/// Why an agent could not choose a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The position is terminal: there is nothing to choose.
    #[error("the position has no legal move")]
    NoLegalMoves,
    /// The algorithm does not apply to this game (for example, two-player alpha-beta on a
    /// three-player game).
    #[error("{algorithm} does not support this game: {reason}")]
    Unsupported {
        /// The algorithm's name.
        algorithm: &'static str,
        /// What it needs.
        reason: String,
    },
    /// The budget sets no limit the algorithm can use (a tree search given no limit, or only an
    /// MCTS iteration count): it would never end, or end at an arbitrary point.
    #[error("{algorithm} cannot search with this budget: {reason}")]
    BadBudget {
        /// The algorithm's name.
        algorithm: &'static str,
        /// What the budget lacks.
        reason: String,
    },
    /// An external engine failed: it did not start, broke its protocol or exited.
    #[error("engine {engine} failed: {reason}")]
    Engine {
        /// The engine's protocol or name.
        engine: &'static str,
        /// What went wrong.
        reason: String,
    },
}

/// The root of a search: the legal moves to search, or the one move that needs no search.
pub(crate) enum Root<M> {
    /// Two or more legal moves.
    Search(MoveList<M>),
    /// The only legal move: every agent answers it at once.
    Forced(M),
}

/// The legal moves of `state` as a search root, applying the [`Agent`] contract: a terminal
/// position is [`SearchError::NoLegalMoves`], a single legal move is [`Root::Forced`].
pub(crate) fn root_moves<G: Game>(
    game: &G,
    state: &G::State,
) -> Result<Root<G::Move>, SearchError> {
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    match moves.len() {
        0 => Err(SearchError::NoLegalMoves),
        1 => Ok(Root::Forced(moves[0])),
        _ => Ok(Root::Search(moves)),
    }
}

/// A player: given a position and a budget, choose a move. Implemented by every algorithm of
/// the library, so any two can play each other on any game.
pub trait Agent<G: Game> {
    /// A short name with the settings that matter, e.g. `alphabeta` or `mcts(c=1.4)`.
    fn name(&self) -> String;

    /// Chooses a move for the player to move in `position` within `budget`. When only one
    /// move is legal it answers at once.
    ///
    /// # Errors
    /// [`SearchError::NoLegalMoves`] for a terminal position; [`SearchError::Unsupported`] if
    /// the algorithm cannot play this game; [`SearchError::BadBudget`] if the budget sets no
    /// limit the algorithm can use.
    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError>;

    /// Tells the agent a move was played in its game (its own or another player's), so it can
    /// keep search data such as a reused tree. The default ignores it.
    fn observe(&mut self, _game: &G, _state_before: &G::State, _mv: G::Move) {}

    /// Whether pondering should search the opponent's own position (its reply still to come)
    /// rather than the position after the reply it is expected to play. True for agents
    /// that keep their search across moves ([`Agent::observe`]): whatever the reply, they
    /// carry its part of the pondered search into their next one. The default is false.
    fn ponders_before_reply(&self) -> bool {
        false
    }

    /// How much of the last [`Agent::choose`] was carried over from earlier searches, in the
    /// agent's own unit (MCTS: the playouts of the reused tree); 0 by default.
    fn carried_over(&self) -> u64 {
        0
    }

    /// Forgets everything about the previous game (tables, trees, learned data) and readies
    /// the agent's memory for the next one (allocating its tables), so that no move's clock
    /// pays for it. Game loops call it before a game's first move.
    fn new_game(&mut self) {}

    /// Makes sure the agent can play at all: an external engine's program is started now, so
    /// that one that cannot start is an error before a match (with the operating system's
    /// reason) rather than a forfeit in every game. The default has nothing to do.
    ///
    /// # Errors
    /// [`SearchError::Engine`] with the reason.
    fn ready(&mut self) -> Result<(), SearchError> {
        Ok(())
    }
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        (**self).choose(game, position, budget)
    }
    fn observe(&mut self, game: &G, state_before: &G::State, mv: G::Move) {
        (**self).observe(game, state_before, mv)
    }
    fn ponders_before_reply(&self) -> bool {
        (**self).ponders_before_reply()
    }
    fn carried_over(&self) -> u64 {
        (**self).carried_over()
    }
    fn new_game(&mut self) {
        (**self).new_game()
    }
    fn ready(&mut self) -> Result<(), SearchError> {
        (**self).ready()
    }
}
