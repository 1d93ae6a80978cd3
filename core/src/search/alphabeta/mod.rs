//! Two-player alpha-beta: negamax with principal-variation search, iterative deepening, a
//! transposition table, move ordering (hash move, killers, history), aspiration windows,
//! quiescence and proven win/loss scores.
//!
//! Every enhancement can be switched off through [`AlphaBetaOptions`];
//! [`AlphaBetaOptions::plain`] leaves plain fixed-depth alpha-beta, whose root value is the
//! minimax value. `ply::testing::agreement` (feature `testing`) checks that each enhancement
//! keeps that value.
//!
//! # Scores
//!
//! Scores are the game's [`Game::Score`], from the point of view of the player to move. The
//! players need not alternate: where a move leaves the same player to move (an extra turn,
//! as in Kalah), the child's value is that player's own and is not negated; everywhere else
//! it is negated, and the window with it. A terminal position `ply` plies from the root
//! scores `Score::win_in(ply)` for the winner (the sole best player) and its negation for the
//! loser, so the search prefers the shortest win and the longest loss; a shared first place
//! scores zero. With
//! [`AlphaBetaOptions::margin_scores`] a terminal position scores [`Outcome::margin`] instead,
//! which exact endgame solving (Othello disc difference) needs.
//!
//! # Budget
//!
//! Iterative deepening runs until the budget's depth, node or time limit (or clock, or stop
//! flag) is reached; the time and the stop flag are checked every 1024 nodes. An iteration
//! cut short still counts when it completed a root move better than the previous best. A
//! budget with none of depth, nodes, time, clock or a stop flag (no limit, or only an MCTS
//! iteration count) is a [`SearchError::BadBudget`]. The search stops early when the tree is
//! solved (no heuristic evaluation in the last iteration, or a proven result within the depth
//! searched). With one legal move it answers at once, without a value.
//!
//! # Evaluation and types
//!
//! Heuristic leaves are scored by the agent's [`Evaluator`] (the game's own
//! [`Game::evaluate`] by default, another with [`AlphaBeta::with_evaluator`]), and completed
//! iterations go to its [`InfoSink`] ([`AlphaBeta::with_info`]); both are type parameters, so
//! nothing on the per-node path is dynamic. The agent is not generic over the game, so one
//! value (of type `AlphaBeta`) searches any game. The search needs two players, which it
//! checks per search and answers [`SearchError::Unsupported`] otherwise: the player count is
//! a runtime value of the rules ([`Game::num_players`]; Reversi's is an option), so no trait
//! bound can state it.
//!
//! # Move ordering
//!
//! The hash move (or at the root the previous iteration's best move) first, then (when
//! [`AlphaBetaOptions::killers`] is on; off by default, as it cost 4-21% more nodes to a fixed
//! depth on every bundled game once history was keyed by move) the two killer moves of the
//! ply, then the rest by history: a table of counters indexed by
//! [`Game::move_key`] and the player to move, raised by `d * d + 1` for a move that causes a
//! cut-off `d` plies from the horizon and lowered as much for the moves searched before it,
//! and halved between iterations. Ordering makes no move and hashes no child.
//!
//! # Determinism
//!
//! The same game, position and budget without a time limit always give the same report: the
//! table ignores entries of earlier searches unless [`AlphaBetaOptions::keep_tt`] is set,
//! and killers and history start empty on every search.
//!
//! ```
//! use ply::{Game, search::{Agent, Budget, Position, Value}};
//! use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
//! use ply::games::TicTacToe;
//!
//! let game = TicTacToe;
//! // X on a1 and b2, O on a3 and c1: X to move wins with c3.
//! let state = ply::Notation::parse_state(&game, "o.x.x...o").unwrap();
//! let mut engine = AlphaBeta::with_options(AlphaBetaOptions { tt_mb: 1, ..Default::default() });
//! let report = engine.choose(&game, Position::new(&state), &Budget::depth(9)).unwrap();
//! assert!(matches!(report.value, Value::Win(_)));
//! ```

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use num_traits::Zero;

use crate::eval::{Evaluator, GameEval};
use crate::game::{Game, MoveList, Outcome, Player, Score, SolverBudget};
use crate::search::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable};
use crate::search::{root_moves, Agent, Budget, Position, Root, SearchError, SearchReport, Value};

use crate::search::common::{
    helper_skips, inf, lazy_smp, solved_score, terminal_score, value_of, window, Frame, Limits,
    MoveOrdering, Repetitions, TableSlot, ThreadResult, HASH_MOVE_KEY,
};
use crate::search::info::Publishing;
pub use crate::search::info::{
    InfoCallback, InfoSink, IterationInfo, NoInfo, SameType, SearchCounts,
};

mod eval_cache;
use eval_cache::EvalCache;

/// Slots of each search thread's [`EvalCache`], for an evaluation that is
/// [`Evaluator::worth_caching`]: 2^14, 256 KiB with 64-bit keys and 32-bit scores.
const EVAL_CACHE_BITS: u32 = 14;

/// The switches and sizes of [`AlphaBeta`]. `Default` turns every enhancement on.
///
/// ```
/// use ply::search::alphabeta::{AlphaBeta, AlphaBetaOptions};
///
/// let no_tt = AlphaBetaOptions { tt: false, ..AlphaBetaOptions::default() };
/// let _engine = AlphaBeta::with_options(no_tt);
/// assert!(!AlphaBetaOptions::plain().pvs);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaOptions {
    /// Principal-variation search: null windows after the first move, re-search on fail-high.
    pub pvs: bool,
    /// Use the transposition table (needs [`Game::hash`]).
    pub tt: bool,
    /// Transposition table size in MiB.
    pub tt_mb: usize,
    /// Use a stored bound only when it was searched to exactly the remaining depth (not
    /// deeper). Deeper entries make the search stronger but its value no longer equals
    /// fixed-depth minimax; the agreement check turns this on.
    pub tt_exact_depth: bool,
    /// Use table entries from earlier searches (stronger in play, but the result then depends
    /// on what was searched before).
    pub keep_tt: bool,
    /// Aspiration windows around the previous iteration's score, widened on failure.
    pub aspiration: bool,
    /// Half-width of the first aspiration window, in evaluation units (at least 1).
    pub aspiration_window: f64,
    /// Killer moves (two per ply). Off by default: with move-keyed history they cost nodes.
    pub killers: bool,
    /// History heuristic (needs [`Game::move_key`]: off for a game whose
    /// [`Game::move_key_space`] is 0).
    pub history: bool,
    /// Keep searching every move of a non-quiet position at the horizon
    /// ([`Game::is_quiet`]), without stand-pat.
    pub quiescence: bool,
    /// The most plies quiescence adds beyond the horizon.
    pub max_quiescence_depth: u32,
    /// Score terminal positions by [`Outcome::margin`] instead of win/draw/loss.
    pub margin_scores: bool,
    /// Score a position repeated on the search path or in the game's history as a draw, for
    /// games with a [`Game::repetition_limit`].
    pub repetition: bool,
    /// Late-move reductions: at 3 or more plies from the horizon, quiet moves after the first
    /// three of a quiet position (the game's [`Game::is_quiet`] of both) are searched one ply
    /// shallower (two from the sixth move at 6 plies) with a null window, and again at full
    /// depth only if they beat alpha. Needs `pvs`.
    pub lmr: bool,
    /// Late-move reductions that grow with the depth and the move's number (`lmr` on), 0 for
    /// the fixed rule: the `k`-th move (from 1) at `depth` plies from the horizon is searched
    /// `ln(depth) · ln(k) / lmr_log` plies shallower where that is more than `lmr`'s one or
    /// two, keeping at least one ply.
    pub lmr_log: f64,
    /// Late-move reductions (`lmr` on) also for moves after which the opponent has a capture
    /// or other loud reply ([`Game::is_quiet`] false), as Scan 2.0 reduces every move that is
    /// not itself a capture; off, only moves into quiet positions are reduced.
    pub lmr_loud: bool,
    /// With `lmr`, the moves searched in full before the reductions start at a node outside
    /// the principal variation (3 by default, as inside it; Scan 2.0 reduces from the second
    /// move there, 1).
    pub lmr_first: usize,
    /// Null-move pruning where the game allows it ([`Game::null_move`]): outside the principal
    /// variation, at 3 or more plies from the horizon, a quiet position whose evaluation is at
    /// least beta is cut off if passing, searched `2 + depth / 6` plies shallower, still
    /// fails high.
    pub null_move: bool,
    /// Internal iterative deepening: a node 5 or more plies from the horizon with no hash move
    /// is first searched 2 plies shallower for one (needs the table).
    pub iid: bool,
    /// Search one ply deeper after an only legal reply and after the moves the game's
    /// [`Game::extends`] names, up to twice the iteration's depth from the root.
    pub extensions: bool,
    /// Threat extensions at the horizon: a quiet position where the player to move is
    /// threatened ([`Game::is_threatened`]) is searched one ply more instead of evaluated
    /// (once on a line: the positions below it are not extended again).
    pub threats: bool,
    /// ProbCut (Buro) margin in evaluation units, 0 for off: outside the principal variation,
    /// at [`PROBCUT_DEPTH`] or more plies from the horizon, a search [`PROBCUT_REDUCTION`]
    /// plies shallower with a null window at `beta + probcut` that reaches it cuts the node
    /// off as failing high, and one at `alpha - probcut` that stays at or below it as
    /// failing low. The shallow search's value predicts the deep one's; the margin is how
    /// far apart they may be.
    pub probcut: f64,
    /// ProbCut in proportion to the depth (Scan 2.0's form), 0 for the fixed form above: with
    /// `probcut` on, at 3 or more plies from the horizon, the shallow search runs at `depth ·
    /// probcut_ratio` plies (at least one), its margin grows with the depth (`probcut` at 10
    /// plies), only a fail high cuts, and the shallow search tries no ProbCut of its own.
    pub probcut_ratio: f64,
    /// Futility pruning margin per ply in evaluation units, 0 for off: outside the principal
    /// variation, at 1 or 2 plies from the horizon, in a quiet position whose evaluation
    /// plus the margin times those plies is at most alpha, the moves after the first that
    /// leave a quiet position ([`Game::is_quiet`]) are not searched: they are taken to stay
    /// below alpha.
    pub futility: f64,
    /// Search threads (Lazy SMP): helper threads search the same position with their own
    /// move ordering, sharing the transposition table, and the deepest completed iteration
    /// answers. More than one thread makes results depend on timing.
    pub threads: usize,
    /// Fastest-first ordering: after the hash move, the moves that leave the opponent the
    /// fewest replies first (a move after which the same player moves again counts as none;
    /// killers and history break ties). It applies every move once more
    /// to count the replies, which pays in exact endgame solving, where the smallest trees
    /// come from restricting the opponent.
    pub fastest_first: bool,
    /// Under a game clock, spend less of the move's allotment while the best move stays the
    /// same from one iteration to the next and more, up to the hard limit, after it changes
    /// ([`stable_share`]). No effect on a fixed time per move. On by default (in checkers
    /// under a 5 s + 50 ms clock: +21 Elo, an SPRT's H1).
    pub adaptive_time: bool,
}

impl Default for AlphaBetaOptions {
    fn default() -> Self {
        AlphaBetaOptions {
            pvs: true,
            tt: true,
            tt_mb: 16,
            tt_exact_depth: false,
            keep_tt: false,
            aspiration: true,
            aspiration_window: 50.0,
            killers: false,
            history: true,
            quiescence: true,
            max_quiescence_depth: 16,
            margin_scores: false,
            repetition: true,
            fastest_first: false,
            lmr: false,
            lmr_log: 0.0,
            lmr_loud: false,
            lmr_first: LMR_FIRST,
            null_move: false,
            iid: false,
            extensions: false,
            threats: false,
            probcut: 0.0,
            probcut_ratio: 0.0,
            futility: 0.0,
            threads: 1,
            adaptive_time: true,
        }
    }
}

impl AlphaBetaOptions {
    /// No enhancement at all: fixed-depth alpha-beta (iterative deepening only orders the root
    /// by the previous iteration's best move), evaluating at the horizon whether quiet or not.
    pub fn plain() -> Self {
        AlphaBetaOptions {
            pvs: false,
            tt: false,
            tt_exact_depth: false,
            keep_tt: false,
            aspiration: false,
            killers: false,
            history: false,
            quiescence: false,
            max_quiescence_depth: 0,
            margin_scores: false,
            repetition: false,
            fastest_first: false,
            lmr: false,
            null_move: false,
            iid: false,
            extensions: false,
            threats: false,
            probcut: 0.0,
            futility: 0.0,
            adaptive_time: false,
            ..AlphaBetaOptions::default()
        }
    }

    /// The exact endgame mode: terminal positions scored by their margin (Othello's disc
    /// difference), fastest-first ordering, no quiescence; the game's own solver
    /// ([`Game::solve_endgame`]) answers for the last moves where it has one. Searched to the
    /// end of the game, the value is the exact margin under perfect play.
    pub fn endgame() -> Self {
        AlphaBetaOptions {
            margin_scores: true,
            fastest_first: true,
            quiescence: false,
            lmr: false,
            null_move: false,
            extensions: false,
            threats: false,
            probcut: 0.0,
            futility: 0.0,
            ..AlphaBetaOptions::default()
        }
    }
}

/// The fewest plies from the horizon at which ProbCut ([`AlphaBetaOptions::probcut`]) tries
/// its shallow search.
pub const PROBCUT_DEPTH: u32 = 5;

/// How many plies shallower ProbCut's search is than the node's.
pub const PROBCUT_REDUCTION: u32 = 3;

/// The moves a late-move-reducing search ([`AlphaBetaOptions::lmr`]) searches in full at a
/// node before it reduces the rest: always in the principal variation, and outside it unless
/// [`AlphaBetaOptions::lmr_first`] says otherwise.
pub const LMR_FIRST: usize = 3;

/// The two-player alpha-beta agent; see the [module docs](self).
///
/// `E` is the [`Evaluator`] of heuristic leaves ([`GameEval`], the game's own
/// [`Game::evaluate`], unless [`AlphaBeta::with_evaluator`] gives another) and `I` the
/// [`InfoSink`] of completed iterations ([`NoInfo`] unless [`AlphaBeta::with_info`] gives one).
/// Both are type parameters, so each combination is compiled into its own search with the
/// evaluation inlined. The agent is not generic over the game: its transposition table keeps
/// scores in a form that does not depend on the score type ([`crate::search::tt`]), so one
/// agent value can search any two-player game (`AlphaBeta` with the defaults names that type).
///
/// ```
/// use ply::{Game, search::{Agent, Budget, Position, Value}};
/// use ply::search::alphabeta::AlphaBeta;
/// use ply::games::TicTacToe;
///
/// let game = TicTacToe;
/// let mut engine = AlphaBeta::new().with_tt_mb(1);
/// let state = game.initial_state();
/// let report = engine.choose(&game, Position::new(&state), &Budget::depth(9)).unwrap();
/// assert_eq!(report.value, Value::Draw);
/// assert_eq!(report.pv[0], report.best_move);
/// ```
pub struct AlphaBeta<E = GameEval, I = NoInfo> {
    options: AlphaBetaOptions,
    table: TableSlot,
    eval: E,
    info: I,
}

impl Default for AlphaBeta {
    fn default() -> Self {
        AlphaBeta::new()
    }
}

impl<E, I> fmt::Debug for AlphaBeta<E, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AlphaBeta")
            .field("options", &self.options)
            .field("evaluator", &std::any::type_name::<E>())
            .field("info", &std::any::type_name::<I>())
            .finish()
    }
}

impl AlphaBeta {
    /// An agent with every enhancement on ([`AlphaBetaOptions::default`]), the game's own
    /// evaluation and no iteration callback.
    pub fn new() -> Self {
        AlphaBeta::with_options(AlphaBetaOptions::default())
    }

    /// An agent with these options.
    pub fn with_options(options: AlphaBetaOptions) -> Self {
        AlphaBeta { options, table: TableSlot::default(), eval: GameEval, info: NoInfo }
    }
}

impl<E, I> AlphaBeta<E, I> {
    /// This agent with a transposition table of `mib` MiB.
    pub fn with_tt_mb(mut self, mib: usize) -> Self {
        self.options.tt_mb = mib;
        self.table = TableSlot::default();
        self
    }

    /// This agent searching on `threads` threads (Lazy SMP, see
    /// [`AlphaBetaOptions::threads`]; 0 means 1).
    ///
    /// ```
    /// use ply::{Game, search::{Agent, Budget, Position, Value}};
    /// use ply::search::alphabeta::AlphaBeta;
    /// use ply::games::TicTacToe;
    ///
    /// let game = TicTacToe;
    /// let mut engine = AlphaBeta::new().with_tt_mb(1).with_threads(2);
    /// let report = engine.choose(&game, Position::new(&game.initial_state()), &Budget::depth(9));
    /// assert_eq!(report.unwrap().value, Value::Draw);
    /// ```
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.options.threads = threads.max(1);
        self
    }

    /// This agent evaluating heuristic leaves with `eval` instead of its current evaluator.
    ///
    /// ```
    /// use ply::games::TicTacToe;
    /// use ply::search::{alphabeta::AlphaBeta, Agent, Budget, Position};
    /// use ply::{Game, Player};
    ///
    /// // Material-blind: every position is even, so only proven results count.
    /// let flat = |_: &TicTacToe, _: &<TicTacToe as Game>::State, _: Player| 0;
    /// let mut engine = AlphaBeta::new().with_tt_mb(1).with_evaluator(flat);
    /// let game = TicTacToe;
    /// let report = engine.choose(&game, Position::new(&game.initial_state()), &Budget::depth(2));
    /// assert_eq!(report.unwrap().value, ply::search::Value::Heuristic(0.0));
    /// ```
    pub fn with_evaluator<E2>(self, eval: E2) -> AlphaBeta<E2, I> {
        AlphaBeta { options: self.options, table: self.table, eval, info: self.info }
    }

    /// This agent calling `callback` after every completed iteration (for a CLI's
    /// depth/score/PV/nps lines). `M` is the move type of the game it will play.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use ply::{Game, search::{Agent, Budget, Position}};
    /// use ply::search::alphabeta::AlphaBeta;
    /// use ply::games::TicTacToe;
    ///
    /// let lines = Arc::new(Mutex::new(Vec::new()));
    /// let seen = lines.clone();
    /// let mut engine = AlphaBeta::new().with_tt_mb(1).with_info(Box::new(move |info| {
    ///     let pv: &[u8] = info.pv;
    ///     seen.lock().unwrap().push((info.depth, pv.len()));
    /// }));
    /// let game = TicTacToe;
    /// engine.choose(&game, Position::new(&game.initial_state()), &Budget::depth(3)).unwrap();
    /// let depths: Vec<u32> = lines.lock().unwrap().iter().map(|l| l.0).collect();
    /// assert_eq!(depths, vec![1, 2, 3]);
    /// ```
    pub fn with_info<M>(self, callback: InfoCallback<M>) -> AlphaBeta<E, InfoCallback<M>> {
        self.with_info_sink(callback)
    }

    /// This agent sending every completed iteration to `sink` (a type of the caller's that
    /// implements [`InfoSink`], called without a box).
    pub fn with_info_sink<I2>(self, sink: I2) -> AlphaBeta<E, I2> {
        AlphaBeta { options: self.options, table: self.table, eval: self.eval, info: sink }
    }

    /// Allocates the transposition table now (for any game: its size does not depend on `G`).
    /// Otherwise the first search does it, inside its time budget (filling the table costs
    /// about a millisecond per 5 MiB).
    pub fn prepare<G: Game>(&mut self) {
        let t = self.table.take::<G::Score>(self.options.tt_mb, false);
        self.table.put(t);
    }

    /// The memory of the transposition table in bytes: 0 until the table is allocated, which
    /// [`Agent::new_game`] (or [`Self::prepare`], or else the first search) does.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The options in use.
    pub fn options(&self) -> &AlphaBetaOptions {
        &self.options
    }

    /// The evaluator of heuristic leaves.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Searches `position` and also returns the raw root score.
    pub(crate) fn run<G: Game>(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<Searched<G::Move, G::Score>, SearchError>
    where
        E: Evaluator<G>,
        I: InfoSink<G::Move>,
    {
        if game.num_players() != 2 {
            return Err(SearchError::Unsupported {
                algorithm: "alphabeta",
                reason: format!(
                    "two-player alpha-beta needs a two-player game, not {} players",
                    game.num_players()
                ),
            });
        }
        let max_depth = Limits::max_depth(budget, "alphabeta")?;
        let limits = Limits::new(budget);
        let state = position.state;
        let root_moves = match root_moves(game, state)? {
            Root::Search(moves) => moves,
            Root::Forced(mv) => {
                let report = SearchReport::instant(mv, limits.elapsed());
                return Ok(Searched { report, score: None });
            }
        };
        let o = &self.options;
        let root_hash = game.hash(state);
        let mut table = match (o.tt, root_hash) {
            (true, Some(_)) => Some(self.table.take::<G::Score>(o.tt_mb, o.keep_tt)),
            _ => None,
        };
        if let Some(t) = table.as_mut() {
            t.new_search();
        }
        let threads = o.threads.max(1);
        let done_flag = Arc::new(AtomicBool::new(false));
        let (eval, info, table_ref) = (&self.eval, &mut self.info, table.as_ref());
        let log_reductions = LogReductions::new(o.lmr_log);
        let searcher = |id: usize| Searcher {
            game,
            eval,
            o,
            tt: table_ref,
            limits: limits.for_thread(threads, id, &done_flag),
            frames: Vec::new(),
            ordering: MoveOrdering::new(o.killers, o.history, game.move_key_space(), 2),
            pv: Vec::new(),
            reps: Repetitions::new(
                position.history,
                root_hash,
                o.repetition && game.repetition_limit().is_some() && root_hash.is_some(),
            ),
            seldepth: 0,
            heuristic: 0,
            evals: EvalCache::new(
                if eval.worth_caching() { EVAL_CACHE_BITS } else { 0 },
                G::Score::zero(),
            ),
            root_hint: None,
            instability: 0.0,
            root_best: None,
            root_line: Vec::new(),
            null_path: Vec::new(),
            root_depth: 0,
            id,
            threads,
            done: &done_flag,
            in_probcut: false,
            counts: SearchCounts::default(),
            log_reductions: &log_reductions,
        };
        let finish = |s: &Searcher<'_, G, E>, c: Option<Completed<G::Move, G::Score>>| {
            let depth = c.as_ref().map_or(0, |c| c.depth);
            ThreadResult { completed: c, depth, nodes: s.limits.nodes, seldepth: s.seldepth }
        };
        let helper = |id: usize| {
            let mut s = searcher(id);
            let c = s.deepen(state, root_hash, max_depth, &root_moves, &mut NoInfo);
            finish(&s, c)
        };
        let main = || {
            let mut s = searcher(0);
            let mut sink = Publishing { sink: info, progress: budget.progress.as_deref() };
            let c = s.deepen(state, root_hash, max_depth, &root_moves, &mut sink);
            (finish(&s, c), (s.root_hint, s.limits.elapsed()))
        };
        let (result, (hint, elapsed)) = lazy_smp(threads, &done_flag, helper, main);
        let (mut done, nodes, seldepth) = (result.completed, result.nodes, result.seldepth);
        let seldepth = seldepth as u32;
        if let (Some(c), Some(t)) = (done.as_mut(), table.as_ref()) {
            if c.pv.len() == 1 {
                // A line cut at a table hit: the table knows the reply.
                c.pv.extend(table_reply(game, state, c.pv[0], t, o.keep_tt));
            }
        }
        if let Some(t) = table {
            self.table.put(t);
        }
        let c = done.unwrap_or(Completed {
            best: hint.unwrap_or(root_moves[0]),
            score: G::Score::zero(),
            pv: Vec::new(),
            depth: 0,
            exact: false,
        });
        let raw = (c.depth > 0).then_some(c.score);
        let mut pv = c.pv;
        if pv.first() != Some(&c.best) {
            pv = vec![c.best];
        }
        let report = SearchReport {
            best_move: c.best,
            value: if c.depth == 0 { Value::Unknown } else { value_of(c.score, c.exact) },
            pv,
            depth: c.depth,
            seldepth,
            nodes,
            iterations: 0,
            elapsed,
        };
        Ok(Searched { report, score: raw })
    }
}

/// The stored best reply to `mv` from `state`, if the table has one.
fn table_reply<G: Game>(
    game: &G,
    state: &G::State,
    mv: G::Move,
    table: &TranspositionTable<G::Score>,
    keep_tt: bool,
) -> Option<G::Move> {
    let mut child = state.clone();
    game.apply(&mut child, mv);
    let best = table.probe(game.hash(&child)?, !keep_tt)?.best?;
    let mut moves = MoveList::new();
    game.generate_moves(&child, &mut moves);
    moves.get(usize::from(best)).copied()
}

/// A report with the raw root score (in the game's units, for the player to move; `None`
/// when the move was answered without search).
pub(crate) struct Searched<M, S> {
    pub(crate) report: SearchReport<M>,
    // Read by the agreement check of the `testing` feature.
    #[cfg_attr(not(feature = "testing"), allow(dead_code))]
    pub(crate) score: Option<S>,
}

struct Completed<M, S> {
    best: M,
    score: S,
    pv: Vec<M>,
    depth: u32,
    exact: bool,
}

impl<G: Game, E: Evaluator<G>, I: InfoSink<G::Move>> Agent<G> for AlphaBeta<E, I> {
    fn name(&self) -> String {
        let threads = self.options.threads;
        if self.options == AlphaBetaOptions::plain() {
            "alphabeta(plain)".to_string()
        } else if threads > 1 {
            format!("alphabeta(threads={threads})")
        } else {
            "alphabeta".to_string()
        }
    }

    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        self.run(game, position, budget).map(|r| r.report)
    }

    fn new_game(&mut self) {
        if self.options.tt {
            self.table.ready(self.options.tt_mb);
        } else {
            self.table.forget();
        }
    }
}

/// The share of a clock's allotment to spend ([`AlphaBetaOptions::adaptive_time`]) after
/// the best move's `instability` (0 when it has not changed lately, about 1 just after a
/// change, nearly 2 after a change at every iteration): 0.8 of the allotment for a stable
/// move, up to twice it for one that keeps changing.
pub fn stable_share(instability: f64) -> f64 {
    (0.8 + 0.7 * instability).clamp(0.8, 2.0)
}

/// One search's working state: buffers sized per iteration, never per node.
struct Searcher<'a, G: Game, E> {
    game: &'a G,
    eval: &'a E,
    o: &'a AlphaBetaOptions,
    tt: Option<&'a TranspositionTable<G::Score>>,
    limits: Limits,
    /// One boxed frame per ply, taken out while its node is searched (moving a box is cheap).
    frames: Vec<FrameSlot<G>>,
    ordering: MoveOrdering<G::Move>,
    /// The triangular PV table: `pv[ply]` is the best line from `ply`.
    pv: Vec<Vec<G::Move>>,
    reps: Repetitions,
    seldepth: usize,
    /// Heuristic evaluations (and heuristic table hits) in this iteration.
    heuristic: u64,
    /// Evaluations by position key, for positions evaluated again.
    evals: EvalCache<G::Score>,
    root_hint: Option<G::Move>,
    /// How often the best move changed between iterations, recent changes counting most
    /// (halved at each iteration, plus one for a change).
    instability: f64,
    root_best: Option<(G::Move, G::Score)>,
    /// The line of `root_best`.
    root_line: Vec<G::Move>,
    /// `null_path[ply]`: the move into `ply` was a null move.
    null_path: Vec<bool>,
    /// The depth of the current iteration.
    root_depth: u32,
    /// This thread's number in a parallel search (0: the main thread).
    id: usize,
    /// The number of threads searching.
    threads: usize,
    /// Set when one thread has the answer (see [`lazy_smp`]).
    done: &'a AtomicBool,
    /// Inside a proportional ProbCut's shallow search ([`AlphaBetaOptions::probcut_ratio`]).
    in_probcut: bool,
    /// What this thread's search did, by kind ([`IterationInfo::counts`]).
    counts: SearchCounts,
    /// The growing late-move reductions of [`AlphaBetaOptions::lmr_log`], worked out once.
    log_reductions: &'a LogReductions,
}

/// The reductions `ln(depth) · ln(k + 1) / lmr_log` ([`AlphaBetaOptions::lmr_log`]) of the
/// `k`-th move (from 0) at `depth` plies from the horizon, in a table for the depths and move
/// numbers below [`LogReductions::SIDE`] (a search asks for them at nearly every node), and
/// worked out for the others.
struct LogReductions {
    lmr_log: f64,
    table: Vec<u8>,
}

impl LogReductions {
    /// The depths and move numbers the table holds.
    const SIDE: usize = 64;

    fn new(lmr_log: f64) -> Self {
        let mut r = LogReductions { lmr_log, table: Vec::new() };
        if lmr_log > 0.0 {
            r.table = (0..Self::SIDE * Self::SIDE)
                .map(|i| r.work_out((i / Self::SIDE) as u32, i % Self::SIDE).min(255) as u8)
                .collect();
        }
        r
    }

    fn work_out(&self, depth: u32, k: usize) -> u32 {
        (f64::from(depth).ln() * ((k + 1) as f64).ln() / self.lmr_log) as u32
    }

    #[inline]
    fn get(&self, depth: u32, k: usize) -> u32 {
        match self.table.get(depth as usize * Self::SIDE + k) {
            Some(&r) if (depth as usize) < Self::SIDE && k < Self::SIDE => u32::from(r),
            _ => self.work_out(depth, k),
        }
    }
}

/// A ply's frame, out of its slot while a node at that ply is searched.
type FrameSlot<G> = Option<Box<Frame<<G as Game>::Move>>>;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// Iterative deepening to `max_depth` from the root `state`, sending every completed
    /// iteration to `info`; the last completed iteration (or, on the main thread, a better root
    /// move of the cut-short one). A helper thread of a parallel search skips some depths
    /// ([`helper_skips`]); a thread that completes the last iteration, or solves the tree, ends
    /// every thread's search.
    fn deepen<I: InfoSink<G::Move>>(
        &mut self,
        state: &G::State,
        root_hash: Option<u64>,
        max_depth: u32,
        root_moves: &[G::Move],
        info: &mut I,
    ) -> Option<Completed<G::Move, G::Score>> {
        let o = self.o;
        let mut done: Option<Completed<G::Move, G::Score>> = None;
        for depth in 1..=max_depth {
            if depth < max_depth && helper_skips(self.id, depth) {
                continue;
            }
            if depth > 1 && self.limits.soft_expired() {
                break;
            }
            self.limits.start_iteration();
            self.root_depth = depth;
            let main_line = if o.extensions { 2 * depth } else { depth };
            let beyond = o.max_quiescence_depth * u32::from(o.quiescence) + u32::from(o.threats);
            self.ensure((main_line + beyond) as usize + 2);
            self.root_best = None;
            self.heuristic = 0;
            if depth > 1 {
                self.ordering.age();
            }
            let score = self.aspirated(state, root_hash, depth, done.as_ref().map(|d| d.score));
            if self.limits.aborted {
                if let (Some((mv, sc)), 0) = (self.root_best, self.id) {
                    // A root move completed in the cut-short iteration beat the previous best.
                    let pv = std::mem::take(&mut self.root_line);
                    done = Some(Completed {
                        best: mv,
                        score: sc,
                        pv,
                        depth: done.as_ref().map_or(0, |d| d.depth),
                        exact: false,
                    });
                }
                break;
            }
            let pv = self.pv[0].clone();
            let best = pv.first().copied().or(self.root_best.map(|b| b.0)).unwrap_or(root_moves[0]);
            let exact = self.heuristic == 0;
            let c = Completed { best, score, pv, depth, exact };
            info.iteration(&IterationInfo::new(
                depth,
                self.seldepth as u32,
                value_of(score, exact),
                self.limits.nodes,
                self.limits.elapsed(),
                &c.pv,
                self.counts,
            ));
            if o.adaptive_time && self.id == 0 && depth > 1 {
                let changed = done.as_ref().is_some_and(|d| d.best != best);
                self.instability = self.instability / 2.0 + f64::from(u8::from(changed));
                self.limits.scale_soft(stable_share(self.instability));
            }
            self.root_hint = Some(best);
            done = Some(c);
            let solved = exact || score.plies_to_end().is_some_and(|n| n <= depth);
            if solved || depth == max_depth {
                if self.threads > 1 {
                    self.done.store(true, Ordering::Relaxed);
                }
                break;
            }
        }
        done
    }

    fn ensure(&mut self, plies: usize) {
        if self.frames.len() < plies {
            self.frames.resize_with(plies, || Some(Box::default()));
        }
        while self.pv.len() < plies + 1 {
            self.pv.push(Vec::with_capacity(plies + 1));
        }
        if self.null_path.len() < plies + 1 {
            self.null_path.resize(plies + 1, false);
        }
        self.ordering.ensure(plies + 1);
    }

    /// Null-move pruning at a node `depth` plies from the horizon: `Some(score)` (at least
    /// `beta`) if passing still fails high, searched `2 + depth / 6` plies shallower.
    fn null_move_cut(
        &mut self,
        state: &G::State,
        hash: Option<u64>,
        depth: u32,
        ply: usize,
        beta: G::Score,
    ) -> Option<G::Score> {
        let game = self.game;
        if self.null_path[ply] || beta.is_proven() || !game.is_quiet(state) {
            return None;
        }
        if self.evaluate(state, hash) < beta || game.outcome(state).is_some() {
            return None;
        }
        let mut child = state.clone();
        if !game.null_move(&mut child) {
            return None;
        }
        let reduced = depth.saturating_sub(3 + depth / 6);
        let hash = game.hash(&child);
        self.counts.null_tries += 1;
        self.null_path[ply + 1] = true;
        // The null window just below beta: does passing still reach beta?
        let lo = -(-beta).successor();
        let s = self.child_value(game.to_move(state), &child, hash, reduced, ply + 1, 0, lo, beta);
        self.null_path[ply + 1] = false;
        if self.limits.aborted || s < beta {
            return None;
        }
        self.counts.null_cuts += 1;
        // A proven score from a position after a pass proves nothing about this one.
        Some(if s.is_proven() { beta } else { s })
    }

    /// ProbCut at a node `depth` plies from the horizon, outside the principal variation:
    /// `Some(beta)` if a search [`PROBCUT_REDUCTION`] plies shallower reaches `beta + margin`,
    /// `Some(alpha)` if it stays at or below `alpha - margin`, else `None`. In proportion
    /// ([`AlphaBetaOptions::probcut_ratio`]) the search is at `depth · ratio` plies, itself
    /// without ProbCut, its margin grows with the depth and only the fail high is tried.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        state: &G::State,
        hash: Option<u64>,
        depth: u32,
        ply: usize,
        qply: u32,
        alpha: G::Score,
        beta: G::Score,
    ) -> Option<G::Score> {
        if alpha.is_proven() || beta.is_proven() {
            return None;
        }
        let ratio = self.o.probcut_ratio;
        self.counts.probcut_tries += 1;
        let (shallow, margin) = match ratio > 0.0 {
            true => (
                ((f64::from(depth) * ratio) as u32).clamp(1, depth - 1),
                self.o.probcut * f64::from(depth) / 10.0,
            ),
            false => (depth - PROBCUT_REDUCTION, self.o.probcut),
        };
        let (_, high) = window(beta, 0.0, margin);
        if high < inf::<G::Score>() && !high.is_proven() {
            let lo = -(-high).successor();
            self.in_probcut = ratio > 0.0;
            let v = self.negamax(state, hash, shallow, ply, qply, lo, high);
            self.in_probcut = false;
            if self.limits.aborted {
                return None;
            }
            if v >= high {
                self.counts.probcut_cuts += 1;
                return Some(beta);
            }
        }
        let (low, _) = window(alpha, margin, 0.0);
        if ratio == 0.0 && low > -inf::<G::Score>() && !low.is_proven() {
            let v = self.negamax(state, hash, shallow, ply, qply, low, low.successor());
            if self.limits.aborted {
                return None;
            }
            if v <= low {
                self.counts.probcut_cuts += 1;
                return Some(alpha);
            }
        }
        None
    }

    /// Futility pruning ([`AlphaBetaOptions::futility`]) at a node `depth` plies from the
    /// horizon: `Some(bound)` when the node's quiet moves may be skipped, `bound` (at most
    /// alpha) being the evaluation plus the margin, the most they are taken to be worth.
    fn futility_bound(
        &mut self,
        state: &G::State,
        hash: Option<u64>,
        depth: u32,
        ply: usize,
        pv_node: bool,
        alpha: G::Score,
    ) -> Option<G::Score> {
        let game = self.game;
        if self.o.futility <= 0.0
            || !(1..=2).contains(&depth)
            || ply == 0
            || pv_node
            || alpha.is_proven()
            || !game.is_quiet(state)
        {
            return None;
        }
        let margin = self.o.futility * f64::from(depth);
        let stand = self.evaluate(state, hash);
        let (_, bound) = window(stand, 0.0, margin);
        (bound <= alpha).then_some(bound)
    }

    /// The evaluation of `state` for the player to move, kept by its `hash` in the thread's
    /// [`EvalCache`] when the evaluation is worth caching.
    #[inline]
    fn evaluate(&mut self, state: &G::State, hash: Option<u64>) -> G::Score {
        match hash {
            Some(key) if self.evals.is_on() => self.evaluate_cached(state, key),
            _ => self.eval.evaluate(self.game, state, self.game.to_move(state)),
        }
    }

    /// [`Searcher::evaluate`] through the cache, kept out of line so that a search with a
    /// cheap evaluation compiles as without it.
    #[inline(never)]
    fn evaluate_cached(&mut self, state: &G::State, key: u64) -> G::Score {
        let (game, eval) = (self.game, self.eval);
        self.evals.get_or(key, || eval.evaluate(game, state, game.to_move(state)))
    }

    /// The root search of one iteration, inside aspiration windows around `previous`.
    fn aspirated(
        &mut self,
        state: &G::State,
        hash: Option<u64>,
        depth: u32,
        previous: Option<G::Score>,
    ) -> G::Score {
        let full = (-inf::<G::Score>(), inf::<G::Score>());
        let mut delta = self.o.aspiration_window.max(1.0);
        let (mut lo, mut hi) = match previous {
            Some(p) if self.o.aspiration && !p.is_proven() => window(p, delta, delta),
            _ => full,
        };
        loop {
            let v = self.negamax(state, hash, depth, 0, 0, lo, hi);
            if self.limits.aborted {
                return v;
            }
            delta *= 2.0;
            if v <= lo && lo > full.0 {
                lo = if v.is_proven() { full.0 } else { window(v, delta, 0.0).0 };
            } else if v >= hi && hi < full.1 {
                hi = if v.is_proven() { full.1 } else { window(v, 0.0, delta).1 };
            } else {
                return v;
            }
        }
    }

    /// The endgame hook ([`Evaluator::solve`]: the game's own exact solver,
    /// [`Game::solve_endgame`], then the evaluation's endgame tables), if it answers for `state`: its
    /// margin as the score with margin scores (a win or loss without a margin only as a bound,
    /// where it falls outside the window: see [`solved_score`]), else a win, draw or loss (a
    /// margin solver is
    /// asked with the window (-1, 1), which is all the sign needs; a win of unknown length
    /// counts as one ply away, a database's win as its own length). Fail-soft inside
    /// `(alpha, beta)` like the search.
    fn solved_by_game(
        &mut self,
        state: &G::State,
        ply: usize,
        alpha: G::Score,
        beta: G::Score,
    ) -> Option<G::Score> {
        const LIMIT: f64 = (i32::MAX / 4) as f64;
        let margin = self.o.margin_scores;
        let (a, b) = if margin {
            let a = alpha.to_f64().floor().clamp(-LIMIT, LIMIT) as i32;
            (a, beta.to_f64().ceil().clamp(-LIMIT, LIMIT) as i32)
        } else {
            (-1, 1)
        };
        let (answer, nodes, stopped) = {
            let limits = &self.limits;
            let stop = || limits.time_is_up();
            let mut budget = SolverBudget::new(&stop);
            let answer = self.eval.solve(self.game, state, a, b, &mut budget);
            (answer, budget.nodes(), budget.stopped())
        };
        self.limits.nodes += nodes;
        if stopped {
            // Out of time: the search unwinds from here.
            self.limits.aborted = true;
            return Some(G::Score::zero());
        }
        let solved = answer?;
        if let Some(o) = self.game.outcome(state) {
            // A finished game scores as everywhere else (its win length is known).
            return Some(terminal_score(&o, self.game.to_move(state), ply, margin));
        }
        solved_score(solved, ply, margin, alpha, beta)
    }

    /// The value for `mover` of `child`, a position `mover` moved into, searched inside
    /// `mover`'s window `(alpha, beta)`: the child's own value where `mover` moves again
    /// there (an extra turn), its negation searched inside `(-beta, -alpha)` where the
    /// opponent moves. Every value that crosses a ply goes through here.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child_value(
        &mut self,
        mover: Player,
        child: &G::State,
        hash: Option<u64>,
        depth: u32,
        ply: usize,
        qply: u32,
        alpha: G::Score,
        beta: G::Score,
    ) -> G::Score {
        if self.game.to_move(child) == mover {
            self.negamax(child, hash, depth, ply, qply, alpha, beta)
        } else {
            -self.negamax(child, hash, depth, ply, qply, -beta, -alpha)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        state: &G::State,
        hash: Option<u64>,
        depth: u32,
        ply: usize,
        qply: u32,
        mut alpha: G::Score,
        beta: G::Score,
    ) -> G::Score {
        self.pv[ply].clear();
        if self.limits.tick() {
            return G::Score::zero();
        }
        self.seldepth = self.seldepth.max(ply);
        let game = self.game;
        let mover = game.to_move(state);
        if depth == 0 {
            if let Some(o) = game.outcome(state) {
                return terminal_score(&o, mover, ply, self.o.margin_scores);
            }
            if let Some(v) = self.solved_by_game(state, ply, alpha, beta) {
                self.counts.solved += 1;
                return v;
            }
            let quiet = game.is_quiet(state);
            if self.o.threats
                && qply == 0
                && quiet
                && ply + 3 < self.frames.len()
                && game.is_threatened(state)
            {
                // One ply more; `qply` 1 passes to the children, which are not extended again.
                return self.negamax(state, hash, 1, ply, 1, alpha, beta);
            }
            if !self.o.quiescence
                || qply >= self.o.max_quiescence_depth
                || ply + 2 >= self.frames.len()
                || quiet
            {
                self.heuristic += 1;
                self.counts.leaves += 1;
                return self.evaluate(state, hash);
            }
            self.counts.quiescence += 1;
        } else {
            self.counts.interior += 1;
        }
        let heuristic_before = self.heuristic;
        let alpha_before = alpha;
        let tt_key = if depth > 0 && self.tt.is_some() { hash } else { None };
        let mut hash_move = None;
        if let (Some(key), Some(tt)) = (tt_key, self.tt.as_ref()) {
            if let Some(e) = tt.probe(key, !self.o.keep_tt) {
                hash_move = e.best;
                let d = u32::from(e.depth);
                let deep_enough = if self.o.tt_exact_depth { d == depth } else { d >= depth };
                if deep_enough && ply > 0 {
                    let s = score_from_tt(e.score, ply);
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    };
                    if cut {
                        if e.heuristic {
                            self.heuristic += 1;
                        }
                        self.counts.table_cuts += 1;
                        return s;
                    }
                }
            }
        }

        // Not at the root, which must name a move.
        if depth > 0 && ply > 0 {
            if let Some(v) = self.solved_by_game(state, ply, alpha, beta) {
                if self.limits.aborted {
                    return v;
                }
                self.counts.solved += 1;
                if let (Some(key), Some(tt)) = (tt_key, self.tt) {
                    let bound = if v >= beta {
                        Bound::Lower
                    } else if v <= alpha {
                        Bound::Upper
                    } else {
                        Bound::Exact
                    };
                    // Exact whatever the depth: stored as deep as an entry can be.
                    tt.store_flagged(key, score_to_tt(v, ply), u8::MAX, bound, hash_move, false);
                }
                return v;
            }
        }

        let pv_node = beta > alpha.successor();
        if self.o.null_move && depth >= 3 && ply > 0 && !pv_node {
            if let Some(v) = self.null_move_cut(state, hash, depth, ply, beta) {
                return v;
            }
            if self.limits.aborted {
                return G::Score::zero();
            }
        }
        let probcut_depth = if self.o.probcut_ratio > 0.0 { 3 } else { PROBCUT_DEPTH };
        if self.o.probcut > 0.0 && depth >= probcut_depth && ply > 0 && !pv_node && !self.in_probcut
        {
            if let Some(v) = self.probcut(state, hash, depth, ply, qply, alpha, beta) {
                return v;
            }
            if self.limits.aborted {
                return G::Score::zero();
            }
        }
        if self.o.iid && hash_move.is_none() && depth >= 5 && ply > 0 {
            if let (Some(key), Some(tt)) = (tt_key, self.tt) {
                self.negamax(state, hash, depth - 2, ply, qply, alpha, beta);
                if self.limits.aborted {
                    return G::Score::zero();
                }
                hash_move = tt.probe(key, !self.o.keep_tt).and_then(|e| e.best);
            }
        }

        let mut frame = self.frames[ply].take().expect("one frame per ply");
        game.generate_moves(state, &mut frame.moves);
        if frame.moves.is_empty() {
            self.frames[ply] = Some(frame);
            return match game.outcome(state) {
                Some(o) => terminal_score(&o, mover, ply, self.o.margin_scores),
                // A contract break (no move but not over): score it as a draw.
                None => terminal_score(&Outcome::Draw, mover, ply, false),
            };
        }
        let n = frame.moves.len();
        let history = self.ordering.uses_history();
        let seat = mover.index();
        let fastest = self.o.fastest_first && depth > 0;
        // One child buffer per node, refilled from the parent for every move (copy-make).
        let mut child = state.clone();
        frame.clear_order();
        for i in 0..n {
            let mv = frame.moves[i];
            let key = if hash_move == Some(i as u16) || (ply == 0 && self.root_hint == Some(mv)) {
                HASH_MOVE_KEY
            } else {
                let mk = if history { game.move_key(state, mv) } else { 0 };
                let key = self.ordering.key(ply, mv, seat, mk);
                if fastest {
                    child.clone_from(state);
                    game.apply(&mut child, mv);
                    // A move that keeps the turn leaves the opponent no reply at all.
                    let replies = if game.to_move(&child) == mover {
                        0
                    } else {
                        game.count_moves(&child).min(255) as i64
                    };
                    ((256 - replies) << 32) + key.min(1 << 31)
                } else {
                    key
                }
            };
            frame.push_order(key, i);
        }

        // Above the horizon `qply` is 0, or 1 below a threat extension (kept to the leaves).
        let (child_depth, child_q) = if depth > 0 { (depth - 1, qply) } else { (0, qply + 1) };
        let extend = self.o.extensions && depth > 0 && ply < 2 * self.root_depth as usize;
        let reduce = self.o.lmr && self.o.pvs && depth >= 3 && ply > 0 && game.is_quiet(state);
        let futile = self.futility_bound(state, hash, depth, ply, pv_node, alpha);
        let mut best = -inf::<G::Score>();
        let mut best_index = 0;
        for k in 0..n {
            let i = frame.pick(k);
            let mv = frame.moves[i];
            child.clone_from(state);
            game.apply(&mut child, mv);
            if let Some(bound) = futile.filter(|_| k > 0 && game.is_quiet(&child)) {
                // Taken to stay below alpha: the bound is what the node may still be worth.
                if bound > best {
                    best = bound;
                }
                self.counts.futile += 1;
                continue;
            }
            let child_hash = game.hash(&child);
            if depth > 1 {
                // The child probes its bucket first thing: start fetching it now.
                if let (Some(tt), Some(key)) = (self.tt, child_hash) {
                    tt.prefetch(key);
                }
            }
            let child = &child;
            let score = if self.reps.contains(child_hash) {
                self.pv[ply + 1].clear();
                self.heuristic += 1;
                G::Score::zero()
            } else {
                self.reps.push(child_hash);
                let extended = extend && (n == 1 || game.extends(state, child));
                let cd = if extended { depth } else { child_depth };
                let (cq, next) = (child_q, ply + 1);
                let s = if k == 0 || !self.o.pvs {
                    self.child_value(mover, child, child_hash, cd, next, cq, alpha, beta)
                } else {
                    // The null window (alpha, alpha + 1): is this move better than alpha?
                    let (lo, hi) = (alpha, alpha.successor());
                    let first = if pv_node { LMR_FIRST } else { self.o.lmr_first };
                    let r = if reduce
                        && k >= first
                        && !extended
                        && (self.o.lmr_loud || game.is_quiet(child))
                    {
                        let fixed = 1 + u32::from(depth >= 6 && k >= 6);
                        match self.o.lmr_log > 0.0 {
                            true => fixed.max(self.log_reductions.get(depth, k)).min(cd - 1),
                            false => fixed,
                        }
                    } else {
                        0
                    };
                    let mut s = alpha.successor();
                    self.counts.null_windows += 1;
                    if r > 0 {
                        self.counts.reduced += 1;
                        s = self.child_value(mover, child, child_hash, cd - r, next, cq, lo, hi);
                        self.counts.reduced_again += u64::from(s > alpha);
                    }
                    if s > alpha && !self.limits.aborted {
                        s = self.child_value(mover, child, child_hash, cd, next, cq, lo, hi);
                    }
                    if s > alpha && s < beta && !self.limits.aborted {
                        self.counts.widened += 1;
                        self.child_value(mover, child, child_hash, cd, next, cq, alpha, beta)
                    } else {
                        s
                    }
                };
                self.reps.pop(child_hash);
                s
            };
            if self.limits.aborted {
                self.frames[ply] = Some(frame);
                return G::Score::zero();
            }
            if ply == 0 {
                self.limits.root_move_done();
            }
            if score > best {
                best = score;
                best_index = i;
            }
            if score > alpha {
                alpha = score;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(mv);
                head[ply].extend_from_slice(&tail[0]);
                if ply == 0 {
                    self.root_best = Some((mv, score));
                    self.root_line.clone_from(&head[0]);
                }
                if alpha >= beta {
                    self.counts.cutoffs += 1;
                    self.counts.first_cutoffs += u64::from(k == 0);
                    let mk = if history { game.move_key(state, mv) } else { 0 };
                    self.ordering.cutoff(ply, mv, seat, mk, depth);
                    if history {
                        for j in 0..k {
                            let tried = frame.moves[frame.order_index(j)];
                            self.ordering.failed(seat, game.move_key(state, tried), depth);
                        }
                    }
                    break;
                }
            }
        }
        self.frames[ply] = Some(frame);
        if let (Some(key), Some(tt)) = (tt_key, self.tt) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best <= alpha_before {
                Bound::Upper
            } else {
                Bound::Exact
            };
            tt.store_flagged(
                key,
                score_to_tt(best, ply),
                depth.min(255) as u8,
                bound,
                Some(best_index as u16),
                self.heuristic != heuristic_before,
            );
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::LogReductions;

    #[test]
    fn the_table_of_reductions_gives_the_formulas_values() {
        let r = LogReductions::new(1.25);
        let side = LogReductions::SIDE;
        for depth in [0, 1, 3, 7, 20, side as u32 - 1, side as u32, 200] {
            for k in [0, 1, 2, 5, 30, side - 1, side, 100] {
                let formula = (f64::from(depth).ln() * ((k + 1) as f64).ln() / 1.25) as u32;
                assert_eq!(r.get(depth, k), formula, "depth {depth}, move {k}");
            }
        }
        assert_eq!(r.get(10, 10), 4);
        assert!(LogReductions::new(0.0).table.is_empty());
    }
}
