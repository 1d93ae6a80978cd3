//! N-player alpha-beta with a choice of opponent model: paranoid, max^n with shallow pruning,
//! and best-reply search.
//!
//! All three share iterative deepening, the budget handling (a budget without depth, nodes,
//! time, clock or stop flag is a [`SearchError::BadBudget`]), the transposition table, move
//! ordering (hash move, killers, history by [`Game::move_key`] per player) and repetition
//! handling with the two-player [`AlphaBeta`](crate::search::alphabeta::AlphaBeta), and like it
//! take the [`Evaluator`] of their leaves and the [`InfoSink`] of their iterations as type
//! parameters ([`MultiplayerSearch::with_evaluator`], [`MultiplayerSearch::with_info`]). With
//! two players, paranoid and best-reply search give the alpha-beta value.
//!
//! # Opponent models
//!
//! - [`OpponentModel::Paranoid`]: the root player maximises its own evaluation and every other
//!   player is assumed to minimise it (a coalition), which makes the tree a two-sided one with
//!   full alpha-beta pruning and transposition-table cut-offs. One ply is one move.
//! - [`OpponentModel::MaxN`]: each position has a value vector with one component per player,
//!   and the player to move picks the child with the largest own component (ties go to the
//!   earlier generated move, so the value does not depend on move ordering). Leaves are
//!   *normalised rewards*: a finished game gives each player its [`Outcome::reward`] divided by
//!   their sum; a heuristic leaf gives the softmax of the players' evaluations,
//!   `exp(e_p / T) / Σ exp(e_q / T)` with `T` = [`MultiplayerOptions::temperature`] (see
//!   [`normalised_values`]). Every component is then in `[0, 1]` and the components sum to 1,
//!   which is what shallow pruning needs: once the player to move has a child worth `b` to it,
//!   no child leaves more than `1 - b` to the parent's player, so if the parent's player already
//!   has `a` with `a + b > 1` the remaining children are pruned (with a small margin for
//!   rounding). The table only orders moves here: vectors are not stored.
//! - [`OpponentModel::BestReply`]: best-reply search (Schadd and Winands, 2011). Between two
//!   turns of the root player only one opponent, the one with the strongest reply, makes a
//!   searched move; the search takes the minimum over every opponent's every move. `Game` can
//!   only generate moves for the player to move, so the opponents who do not reply still take
//!   their turns, playing their first generated move, as in the BRS+ variant (Esser et al.,
//!   2013). A root move and the opponents' layer after it each count one unit of depth.
//!
//! Values in the report are from the root player's side and under the model's assumption: a
//! paranoid or best-reply [`Value::Win`] is a forced win against that opponent model; max^n
//! reports the root player's share of the value vector as [`Value::Reward`].
//!
//! ```
//! use ply::{Game, search::{Agent, Budget, Position}};
//! use ply::search::multiplayer::{MultiplayerSearch, OpponentModel};
//! use ply::games::ThreeHeaps;
//!
//! let game = ThreeHeaps::standard();
//! let state = game.initial_state();
//! for model in [OpponentModel::Paranoid, OpponentModel::MaxN, OpponentModel::BestReply] {
//!     let mut engine = MultiplayerSearch::new(model).with_tt_mb(1);
//!     let report = engine.choose(&game, Position::new(&state), &Budget::depth(4)).unwrap();
//!     assert_eq!(report.depth, 4);
//! }
//! ```

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use num_traits::Zero;
use smallvec::SmallVec;

use crate::eval::{Evaluator, GameEval};
use crate::game::{Game, Outcome, Player, Score};
use crate::search::common::{
    helper_skips, inf, lazy_smp, terminal_score, value_of, Frame, Limits, MoveOrdering,
    Repetitions, TableSlot, ThreadResult, HASH_MOVE_KEY,
};
use crate::search::info::{
    InfoCallback, InfoSink, IterationInfo, NoInfo, Publishing, SearchCounts,
};
use crate::search::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable};
use crate::search::{root_moves, Agent, Budget, Position, Root, SearchError, SearchReport, Value};

/// How the search assumes the other players move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OpponentModel {
    /// Every other player minimises the root player's evaluation.
    Paranoid,
    /// Every player maximises its own component of a value vector.
    MaxN,
    /// Only the strongest single reply among all opponents is searched.
    BestReply,
}

impl fmt::Display for OpponentModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OpponentModel::Paranoid => "paranoid",
            OpponentModel::MaxN => "maxn",
            OpponentModel::BestReply => "brs",
        })
    }
}

/// The switches and sizes of [`MultiplayerSearch`]. `Default` turns everything on.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiplayerOptions {
    /// Use the transposition table (needs [`Game::hash`]): cut-offs for paranoid and
    /// best-reply search, move ordering for all models.
    pub tt: bool,
    /// Transposition table size in MiB.
    pub tt_mb: usize,
    /// Use table entries from earlier searches (the result then depends on them).
    pub keep_tt: bool,
    /// Killer moves.
    pub killers: bool,
    /// History heuristic (needs [`Game::move_key`]: off for a game whose
    /// [`Game::move_key_space`] is 0).
    pub history: bool,
    /// Shallow pruning for max^n.
    pub shallow_pruning: bool,
    /// The softmax temperature of max^n heuristic leaves, in evaluation units.
    pub temperature: f64,
    /// Score finished games by [`Outcome::margin`] instead of win/draw/loss (paranoid and
    /// best-reply search).
    pub margin_scores: bool,
    /// Score a repeated position as a draw, for games with a [`Game::repetition_limit`].
    pub repetition: bool,
    /// Search threads (Lazy SMP, as in
    /// [`AlphaBetaOptions::threads`](crate::search::alphabeta::AlphaBetaOptions::threads)).
    pub threads: usize,
}

impl Default for MultiplayerOptions {
    fn default() -> Self {
        MultiplayerOptions {
            tt: true,
            tt_mb: 16,
            keep_tt: false,
            killers: true,
            history: true,
            shallow_pruning: true,
            temperature: 50.0,
            margin_scores: false,
            repetition: true,
            threads: 1,
        }
    }
}

/// The max^n leaf values of `state`: every player's share in `[0, 1]`, summing to 1. A finished
/// game shares out the players' [`Outcome::reward`]s; otherwise the shares are the softmax of
/// the players' evaluations at `temperature`.
///
/// ```
/// use ply::Game;
/// use ply::games::ThreeHeaps;
/// use ply::search::multiplayer::normalised_values;
///
/// let game = ThreeHeaps::standard();
/// let v = normalised_values(&game, &game.initial_state(), 50.0);
/// assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-12);
/// ```
pub fn normalised_values<G: Game>(
    game: &G,
    state: &G::State,
    temperature: f64,
) -> SmallVec<[f64; 4]> {
    normalised_values_with(&GameEval, game, state, temperature)
}

/// [`normalised_values`] with the evaluations of `eval` instead of the game's own.
pub fn normalised_values_with<G: Game, E: Evaluator<G>>(
    eval: &E,
    game: &G,
    state: &G::State,
    temperature: f64,
) -> SmallVec<[f64; 4]> {
    match game.outcome(state) {
        Some(o) => outcome_values(&o, game.num_players()),
        None => softmax(eval, game, state, temperature),
    }
}

fn softmax<G: Game, E: Evaluator<G>>(
    eval: &E,
    game: &G,
    state: &G::State,
    temperature: f64,
) -> SmallVec<[f64; 4]> {
    let t = temperature.max(1e-9);
    let e: SmallVec<[f64; 4]> = (0..game.num_players())
        .map(|p| eval.evaluate(game, state, Player::new(p)).to_f64() / t)
        .collect();
    let max = e.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let w: SmallVec<[f64; 4]> = e.iter().map(|x| (x - max).exp()).collect();
    let sum: f64 = w.iter().sum();
    w.iter().map(|x| x / sum).collect()
}

fn outcome_values(o: &Outcome, n: usize) -> SmallVec<[f64; 4]> {
    let r: SmallVec<[f64; 4]> = (0..n).map(|p| o.reward(Player::new(p), n)).collect();
    let sum: f64 = r.iter().sum();
    if sum > 0.0 {
        r.iter().map(|x| x / sum).collect()
    } else {
        (0..n).map(|_| 1.0 / n as f64).collect()
    }
}

/// Shallow pruning fires only when the two shares exceed 1 by this much, so that rounding in
/// the leaf values can never prune a child the parent would have chosen.
const PRUNE_MARGIN: f64 = 1e-9;

/// The N-player alpha-beta agent; see the [module docs](self).
///
/// As with [`AlphaBeta`](crate::search::alphabeta::AlphaBeta), `E` is the [`Evaluator`] of
/// heuristic leaves ([`GameEval`] unless [`MultiplayerSearch::with_evaluator`] gives another)
/// and `I` the [`InfoSink`] of completed iterations ([`NoInfo`] unless
/// [`MultiplayerSearch::with_info`] gives one); the agent itself is not generic over the game.
pub struct MultiplayerSearch<E = GameEval, I = NoInfo> {
    model: OpponentModel,
    options: MultiplayerOptions,
    table: TableSlot,
    eval: E,
    info: I,
}

impl<E, I> fmt::Debug for MultiplayerSearch<E, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MultiplayerSearch")
            .field("model", &self.model)
            .field("options", &self.options)
            .field("evaluator", &std::any::type_name::<E>())
            .finish()
    }
}

impl MultiplayerSearch {
    /// A search with this opponent model, every enhancement on, the game's own evaluation and
    /// no iteration callback.
    pub fn new(model: OpponentModel) -> Self {
        MultiplayerSearch {
            model,
            options: MultiplayerOptions::default(),
            table: TableSlot::default(),
            eval: GameEval,
            info: NoInfo,
        }
    }
}

impl<E, I> MultiplayerSearch<E, I> {
    /// This search with these options.
    pub fn with_options(mut self, options: MultiplayerOptions) -> Self {
        self.options = options;
        self.table = TableSlot::default();
        self
    }

    /// This search with a transposition table of `mib` MiB.
    pub fn with_tt_mb(mut self, mib: usize) -> Self {
        self.options.tt_mb = mib;
        self.table = TableSlot::default();
        self
    }

    /// This search on `threads` threads (Lazy SMP; 0 means 1).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.options.threads = threads.max(1);
        self
    }

    /// This search evaluating heuristic leaves with `eval` instead of its current evaluator
    /// (max^n calls it once per player at every leaf).
    pub fn with_evaluator<E2>(self, eval: E2) -> MultiplayerSearch<E2, I> {
        let MultiplayerSearch { model, options, table, info, .. } = self;
        MultiplayerSearch { model, options, table, eval, info }
    }

    /// This search calling `callback` after every completed iteration; `M` is the move type
    /// of the game it will play.
    pub fn with_info<M>(self, callback: InfoCallback<M>) -> MultiplayerSearch<E, InfoCallback<M>> {
        self.with_info_sink(callback)
    }

    /// This search sending every completed iteration to `sink`.
    pub fn with_info_sink<I2>(self, sink: I2) -> MultiplayerSearch<E, I2> {
        let MultiplayerSearch { model, options, table, eval, .. } = self;
        MultiplayerSearch { model, options, table, eval, info: sink }
    }

    /// Allocates the transposition table now (for any game). Otherwise the first search does
    /// it, inside its time budget.
    pub fn prepare<G: Game>(&mut self) {
        let t = self.table.take::<G::Score>(self.options.tt_mb, false);
        self.table.put(t);
    }

    /// The opponent model.
    pub fn model(&self) -> OpponentModel {
        self.model
    }

    /// The memory of the transposition table in bytes: 0 until the table is allocated, which
    /// [`Agent::new_game`] (or [`Self::prepare`], or else the first search) does.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The options in use.
    pub fn options(&self) -> &MultiplayerOptions {
        &self.options
    }

    /// The evaluator of heuristic leaves.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }
}

impl<G: Game, E: Evaluator<G>, I: InfoSink<G::Move>> Agent<G> for MultiplayerSearch<E, I> {
    fn name(&self) -> String {
        match self.options.threads {
            0 | 1 => format!("multiplayer({})", self.model),
            n => format!("multiplayer({},threads={n})", self.model),
        }
    }

    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        let max_depth = Limits::max_depth(budget, "multiplayer")?;
        let limits = Limits::new(budget);
        let state = position.state;
        let root_moves = match root_moves(game, state)? {
            Root::Search(moves) => moves,
            Root::Forced(mv) => return Ok(SearchReport::instant(mv, limits.elapsed())),
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
        let root = game.to_move(state);
        let threads = o.threads.max(1);
        let done_flag = Arc::new(AtomicBool::new(false));
        let (eval, info, table_ref, model) =
            (&self.eval, &mut self.info, table.as_ref(), self.model);
        let searcher = |id: usize| Searcher {
            game,
            eval,
            o,
            model,
            root,
            players: game.num_players(),
            salt: crate::zobrist::mix64(0x6d75_6c74_6900 + u64::from(root.0) * 4 + model as u64),
            tt: table_ref,
            limits: limits.for_thread(threads, id, &done_flag),
            frames: Vec::new(),
            ordering: MoveOrdering::new(
                o.killers,
                o.history,
                game.move_key_space(),
                game.num_players(),
            ),
            pv: Vec::new(),
            reps: Repetitions::new(
                position.history,
                root_hash,
                o.repetition && game.repetition_limit().is_some() && root_hash.is_some(),
            ),
            seldepth: 0,
            heuristic: 0,
            root_hint: None,
            root_best: None,
            id,
            threads,
            done: &done_flag,
        };
        let finish = |s: &Searcher<'_, G, E>, it: Option<Iteration<G::Move>>| {
            let depth = it.as_ref().map_or(0, |it| it.depth);
            ThreadResult { completed: it, depth, nodes: s.limits.nodes, seldepth: s.seldepth }
        };
        let helper = |id: usize| {
            let mut s = searcher(id);
            let it = s.deepen(state, root_hash, max_depth, &root_moves, &mut NoInfo);
            finish(&s, it)
        };
        let main = || {
            let mut s = searcher(0);
            let mut sink = Publishing { sink: info, progress: budget.progress.as_deref() };
            let it = s.deepen(state, root_hash, max_depth, &root_moves, &mut sink);
            (finish(&s, it), (s.root_hint, s.limits.elapsed()))
        };
        let (result, (hint, elapsed)) = lazy_smp(threads, &done_flag, helper, main);
        let (done, nodes, seldepth) = (result.completed, result.nodes, result.seldepth);
        let (best_move, value, mut pv, depth) = match done {
            Some(it) => {
                let value = if it.depth == 0 { Value::Unknown } else { it.value };
                (it.best, value, it.pv, it.depth)
            }
            None => (hint.unwrap_or(root_moves[0]), Value::Unknown, Vec::new(), 0),
        };
        if pv.first() != Some(&best_move) {
            pv = vec![best_move];
        }
        let seldepth = seldepth as u32;
        if let Some(t) = table {
            self.table.put(t);
        }
        Ok(SearchReport { best_move, value, pv, depth, seldepth, nodes, iterations: 0, elapsed })
    }

    fn new_game(&mut self) {
        if self.options.tt {
            self.table.ready(self.options.tt_mb);
        } else {
            self.table.forget();
        }
    }
}

type Shares = SmallVec<[f64; 4]>;

/// The result of the last completed iteration (or of a better root move in a cut-short one).
struct Iteration<M> {
    best: M,
    value: Value,
    pv: Vec<M>,
    depth: u32,
}

struct Searcher<'a, G: Game, E> {
    game: &'a G,
    eval: &'a E,
    o: &'a MultiplayerOptions,
    model: OpponentModel,
    root: Player,
    players: usize,
    /// Mixed into table keys: scores depend on the root player and the model.
    salt: u64,
    tt: Option<&'a TranspositionTable<G::Score>>,
    limits: Limits,
    /// One boxed frame per ply, taken out while its node is searched (moving a box is cheap).
    frames: Vec<FrameSlot<G>>,
    ordering: MoveOrdering<G::Move>,
    pv: Vec<Vec<G::Move>>,
    reps: Repetitions,
    seldepth: usize,
    heuristic: u64,
    root_hint: Option<G::Move>,
    /// The best root move completed in this iteration, with its key value.
    root_best: Option<(G::Move, f64)>,
    /// This thread's number in a parallel search (0: the main thread).
    id: usize,
    /// The number of threads searching.
    threads: usize,
    /// Set when one thread has the answer.
    done: &'a AtomicBool,
}

/// A ply's frame, out of its slot while a node at that ply is searched.
type FrameSlot<G> = Option<Box<Frame<<G as Game>::Move>>>;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// Iterative deepening to `max_depth` from the root `state`, sending every completed
    /// iteration to `info`; the last completed iteration (or, on the main thread, a better root
    /// move of the cut-short one). Helper threads skip some depths, and a thread that
    /// completes the last iteration or solves the tree ends every thread's search, as in
    /// two-player alpha-beta.
    fn deepen<I: InfoSink<G::Move>>(
        &mut self,
        state: &G::State,
        root_hash: Option<u64>,
        max_depth: u32,
        root_moves: &[G::Move],
        info: &mut I,
    ) -> Option<Iteration<G::Move>> {
        let root = self.root;
        let mut done: Option<Iteration<G::Move>> = None;
        for depth in 1..=max_depth {
            if depth < max_depth && helper_skips(self.id, depth) {
                continue;
            }
            if depth > 1 && self.limits.soft_expired() {
                break;
            }
            self.limits.start_iteration();
            // Best-reply layers may hold one move per player.
            let plies = depth as usize * self.players.max(2) + 2;
            self.ensure(plies);
            self.root_best = None;
            self.heuristic = 0;
            if depth > 1 {
                self.ordering.age();
            }
            let value = match self.model {
                OpponentModel::MaxN => {
                    let v = self.maxn(state, root_hash, depth, 0, None);
                    let share = v.get(root.index()).copied().unwrap_or(0.0);
                    Value::Reward(share)
                }
                _ => {
                    let (lo, hi) = (-inf::<G::Score>(), inf::<G::Score>());
                    let v = if self.model == OpponentModel::Paranoid {
                        self.paranoid(state, root_hash, depth, 0, lo, hi)
                    } else {
                        self.best_reply(state, root_hash, depth, 0, lo, hi)
                    };
                    value_of(v, self.heuristic == 0)
                }
            };
            if self.limits.aborted {
                if let (Some((mv, k)), 0) = (self.root_best, self.id) {
                    let depth = done.as_ref().map_or(0, |d| d.depth);
                    let value = if self.model == OpponentModel::MaxN {
                        Value::Reward(k)
                    } else {
                        Value::Heuristic(k)
                    };
                    // The root's line is still the one found for that move.
                    let pv =
                        if self.pv[0].first() == Some(&mv) { self.pv[0].clone() } else { vec![mv] };
                    done = Some(Iteration { best: mv, value, pv, depth });
                }
                break;
            }
            let pv = self.pv[0].clone();
            let best = pv.first().copied().or(self.root_best.map(|b| b.0)).unwrap_or(root_moves[0]);
            info.iteration(&IterationInfo::new(
                depth,
                self.seldepth as u32,
                value,
                self.limits.nodes,
                self.limits.elapsed(),
                &pv,
                SearchCounts::default(),
            ));
            self.root_hint = Some(best);
            done = Some(Iteration { best, value, pv, depth });
            // Solved (deeper iterations would give the same), or the last iteration.
            if self.heuristic == 0 || depth == max_depth {
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
        self.ordering.ensure(plies + 1);
    }

    /// Probes the table: the stored best move, and the score if it settles the window.
    fn probe(
        &mut self,
        key: Option<u64>,
        depth: u32,
        ply: usize,
        alpha: G::Score,
        beta: G::Score,
    ) -> (Option<u16>, Option<G::Score>) {
        let (Some(key), Some(tt)) = (key, self.tt.as_ref()) else {
            return (None, None);
        };
        let Some(e) = tt.probe(key, !self.o.keep_tt) else {
            return (None, None);
        };
        if self.model == OpponentModel::MaxN || ply == 0 || u32::from(e.depth) < depth {
            return (e.best, None);
        }
        let s = score_from_tt(e.score, ply);
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        if cut && e.heuristic {
            self.heuristic += 1;
        }
        (e.best, cut.then_some(s))
    }

    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        key: Option<u64>,
        depth: u32,
        ply: usize,
        best: G::Score,
        alpha: G::Score,
        beta: G::Score,
        index: usize,
        heuristic: bool,
    ) {
        if let (Some(key), Some(tt)) = (key, self.tt) {
            let bound = if best <= alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let s = score_to_tt(best, ply);
            tt.store_flagged(key, s, depth.min(255) as u8, bound, Some(index as u16), heuristic);
        }
    }

    /// Generates the moves of `state` into frame `ply` and, with `order`, orders them.
    fn expand(
        &mut self,
        state: &G::State,
        ply: usize,
        hash_move: Option<u16>,
        order: bool,
    ) -> Box<Frame<G::Move>> {
        let game = self.game;
        let mut frame = self.frames[ply].take().expect("one frame per ply");
        game.generate_moves(state, &mut frame.moves);
        frame.clear_order();
        if !order {
            return frame;
        }
        let history = self.ordering.uses_history();
        let seat = game.to_move(state).index();
        for i in 0..frame.moves.len() {
            let mv = frame.moves[i];
            let key = if hash_move == Some(i as u16) || (ply == 0 && self.root_hint == Some(mv)) {
                HASH_MOVE_KEY
            } else {
                let mk = if history { game.move_key(state, mv) } else { 0 };
                self.ordering.key(ply, mv, seat, mk)
            };
            frame.push_order(key, i);
        }
        frame
    }

    /// The child after move `mv` of `state`, and its hash.
    fn child(&self, state: &G::State, mv: G::Move) -> (G::State, Option<u64>) {
        let mut c = state.clone();
        self.game.apply(&mut c, mv);
        let h = self.game.hash(&c);
        (c, h)
    }

    /// Records a cut-off in `state` by the `k`-th move searched of `frame`, `depth` plies from
    /// the horizon (the moves searched before it failed to cut).
    fn cutoff(
        &mut self,
        state: &G::State,
        ply: usize,
        frame: &Frame<G::Move>,
        k: usize,
        depth: u32,
    ) {
        let game = self.game;
        let seat = game.to_move(state).index();
        let mv = frame.moves[frame.order_index(k)];
        if !self.ordering.uses_history() {
            self.ordering.cutoff(ply, mv, seat, 0, depth);
            return;
        }
        self.ordering.cutoff(ply, mv, seat, game.move_key(state, mv), depth);
        for j in 0..k {
            let tried = frame.moves[frame.order_index(j)];
            self.ordering.failed(seat, game.move_key(state, tried), depth);
        }
    }

    fn set_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    fn terminal(&self, o: &Outcome, ply: usize) -> G::Score {
        terminal_score(o, self.root, ply, self.o.margin_scores)
    }

    fn leaf(&mut self, state: &G::State) -> G::Score {
        self.heuristic += 1;
        self.eval.evaluate(self.game, state, self.root)
    }

    /// Paranoid alpha-beta: the root player maximises, everyone else minimises.
    fn paranoid(
        &mut self,
        state: &G::State,
        hash: Option<u64>,
        depth: u32,
        ply: usize,
        mut alpha: G::Score,
        mut beta: G::Score,
    ) -> G::Score {
        self.pv[ply].clear();
        if self.limits.tick() {
            return G::Score::zero();
        }
        self.seldepth = self.seldepth.max(ply);
        let game = self.game;
        if depth == 0 {
            return match game.outcome(state) {
                Some(o) => self.terminal(&o, ply),
                None => self.leaf(state),
            };
        }
        let key = hash.map(|h| h ^ self.salt);
        let (hash_move, cut) = self.probe(key, depth, ply, alpha, beta);
        if let Some(s) = cut {
            return s;
        }
        let (alpha0, beta0, h0) = (alpha, beta, self.heuristic);
        let mut frame = self.expand(state, ply, hash_move, true);
        if frame.moves.is_empty() {
            self.frames[ply] = Some(frame);
            return match game.outcome(state) {
                Some(o) => self.terminal(&o, ply),
                None => G::Score::zero(),
            };
        }
        let maximising = game.to_move(state) == self.root;
        let mut best = if maximising { -inf::<G::Score>() } else { inf::<G::Score>() };
        let mut best_index = 0;
        for k in 0..frame.moves.len() {
            let i = frame.pick(k);
            let mv = frame.moves[i];
            let (child, ch) = self.child(state, mv);
            let v = if self.reps.contains(ch) {
                self.pv[ply + 1].clear();
                self.heuristic += 1;
                G::Score::zero()
            } else {
                self.reps.push(ch);
                let v = self.paranoid(&child, ch, depth - 1, ply + 1, alpha, beta);
                self.reps.pop(ch);
                v
            };
            if self.limits.aborted {
                self.frames[ply] = Some(frame);
                return G::Score::zero();
            }
            if ply == 0 {
                self.limits.root_move_done();
            }
            let improves = if maximising { v > best } else { v < best };
            if improves {
                best = v;
                best_index = i;
            }
            let narrows = if maximising { v > alpha } else { v < beta };
            if narrows {
                if maximising {
                    alpha = v;
                } else {
                    beta = v;
                }
                self.set_pv(ply, mv);
                if ply == 0 {
                    self.root_best = Some((mv, v.to_f64()));
                }
                if alpha >= beta {
                    self.cutoff(state, ply, &frame, k, depth);
                    break;
                }
            }
        }
        self.frames[ply] = Some(frame);
        let heuristic = self.heuristic != h0;
        self.store(key, depth, ply, best, alpha0, beta0, best_index, heuristic);
        best
    }

    /// Best-reply search at a position where the root player moves.
    fn best_reply(
        &mut self,
        state: &G::State,
        hash: Option<u64>,
        depth: u32,
        ply: usize,
        mut alpha: G::Score,
        beta: G::Score,
    ) -> G::Score {
        self.pv[ply].clear();
        if self.limits.tick() {
            return G::Score::zero();
        }
        self.seldepth = self.seldepth.max(ply);
        let game = self.game;
        if let Some(o) = game.outcome(state) {
            return self.terminal(&o, ply);
        }
        if depth == 0 {
            return self.leaf(state);
        }
        let key = hash.map(|h| h ^ self.salt);
        let (hash_move, cut) = self.probe(key, depth, ply, alpha, beta);
        if let Some(s) = cut {
            return s;
        }
        let (alpha0, h0) = (alpha, self.heuristic);
        let mut frame = self.expand(state, ply, hash_move, true);
        let mut best = -inf::<G::Score>();
        let mut best_index = 0;
        for k in 0..frame.moves.len() {
            let i = frame.pick(k);
            let mv = frame.moves[i];
            let (child, ch) = self.child(state, mv);
            let v = if self.reps.contains(ch) {
                self.pv[ply + 1].clear();
                self.heuristic += 1;
                Some(G::Score::zero())
            } else {
                self.reps.push(ch);
                let v = self.reply_layer(&child, ch, depth - 1, ply + 1, alpha, beta, false, false);
                self.reps.pop(ch);
                v
            };
            if self.limits.aborted {
                self.frames[ply] = Some(frame);
                return G::Score::zero();
            }
            if ply == 0 {
                self.limits.root_move_done();
            }
            let Some(v) = v else { continue };
            if v > best {
                best = v;
                best_index = i;
            }
            if v > alpha {
                alpha = v;
                self.set_pv(ply, mv);
                if ply == 0 {
                    self.root_best = Some((mv, v.to_f64()));
                }
                if alpha >= beta {
                    self.cutoff(state, ply, &frame, k, depth);
                    break;
                }
            }
        }
        self.frames[ply] = Some(frame);
        if best == -inf::<G::Score>() {
            // Every line was invalid (cannot happen with a valid game): call it even.
            return G::Score::zero();
        }
        let heuristic = self.heuristic != h0;
        self.store(key, depth, ply, best, alpha0, beta, best_index, heuristic);
        best
    }

    /// The opponents' layer of best-reply search: the minimum over "opponent `i` replies with
    /// any move, the others play their first move". `replied` says whether the replier has
    /// moved; `entered` whether any opponent has moved in this layer. `None` for a line in
    /// which nobody replied.
    #[allow(clippy::too_many_arguments)]
    fn reply_layer(
        &mut self,
        state: &G::State,
        hash: Option<u64>,
        depth: u32,
        ply: usize,
        alpha: G::Score,
        mut beta: G::Score,
        replied: bool,
        entered: bool,
    ) -> Option<G::Score> {
        self.pv[ply].clear();
        if self.limits.tick() {
            return Some(G::Score::zero());
        }
        self.seldepth = self.seldepth.max(ply);
        let game = self.game;
        if let Some(o) = game.outcome(state) {
            return Some(self.terminal(&o, ply));
        }
        if game.to_move(state) == self.root {
            return match (entered, replied) {
                (false, _) => Some(self.best_reply(state, hash, depth, ply, alpha, beta)),
                (true, true) => Some(self.best_reply(state, hash, depth - 1, ply, alpha, beta)),
                (true, false) => None,
            };
        }
        if !entered && depth == 0 {
            return Some(self.leaf(state));
        }
        let mut frame = self.expand(state, ply, None, !replied);
        if frame.moves.is_empty() {
            self.frames[ply] = Some(frame);
            return Some(G::Score::zero());
        }
        let mut best: Option<G::Score> = None;
        let n = frame.moves.len();
        // The replies of this opponent (in search order), then its first move as a bystander.
        let branches = if replied { 1 } else { n + 1 };
        for k in 0..branches {
            let (i, reply) = if k < n && !replied { (frame.pick(k), true) } else { (0, false) };
            let mv = frame.moves[i];
            let (child, ch) = self.child(state, mv);
            let v = if self.reps.contains(ch) {
                self.pv[ply + 1].clear();
                self.heuristic += 1;
                Some(G::Score::zero())
            } else {
                self.reps.push(ch);
                let v = self.reply_layer(
                    &child,
                    ch,
                    depth,
                    ply + 1,
                    alpha,
                    beta,
                    replied || reply,
                    true,
                );
                self.reps.pop(ch);
                v
            };
            if self.limits.aborted {
                self.frames[ply] = Some(frame);
                return Some(G::Score::zero());
            }
            if ply == 0 {
                self.limits.root_move_done();
            }
            let Some(v) = v else { continue };
            best = match best {
                Some(b) if b <= v => Some(b),
                _ => Some(v),
            };
            if v < beta {
                beta = v;
                self.set_pv(ply, mv);
                if alpha >= beta {
                    if reply {
                        self.cutoff(state, ply, &frame, k, depth);
                    }
                    break;
                }
            }
        }
        self.frames[ply] = Some(frame);
        best
    }

    /// Max^n with shallow pruning; `parent` is the parent's player and its best share so far.
    fn maxn(
        &mut self,
        state: &G::State,
        hash: Option<u64>,
        depth: u32,
        ply: usize,
        parent: Option<(Player, f64)>,
    ) -> Shares {
        self.pv[ply].clear();
        let n = self.players;
        if self.limits.tick() {
            return (0..n).map(|_| 0.0).collect();
        }
        self.seldepth = self.seldepth.max(ply);
        let game = self.game;
        if let Some(o) = game.outcome(state) {
            return outcome_values(&o, n);
        }
        if depth == 0 {
            self.heuristic += 1;
            return softmax(self.eval, game, state, self.o.temperature);
        }
        let key = hash.map(|h| h ^ self.salt);
        let (hash_move, _) = self.probe(key, depth, ply, G::Score::zero(), G::Score::zero());
        let mut frame = self.expand(state, ply, hash_move, true);
        let me = game.to_move(state);
        let mut best: Option<(Shares, usize)> = None;
        for k in 0..frame.moves.len() {
            let i = frame.pick(k);
            let mv = frame.moves[i];
            let (child, ch) = self.child(state, mv);
            let bound = best.as_ref().map(|b| (me, b.0[me.index()]));
            let v = if self.reps.contains(ch) {
                self.pv[ply + 1].clear();
                self.heuristic += 1;
                outcome_values(&Outcome::Draw, n)
            } else {
                self.reps.push(ch);
                let v = self.maxn(&child, ch, depth - 1, ply + 1, bound);
                self.reps.pop(ch);
                v
            };
            if self.limits.aborted {
                self.frames[ply] = Some(frame);
                return v;
            }
            if ply == 0 {
                self.limits.root_move_done();
            }
            let better = match &best {
                None => true,
                Some((b, bi)) => {
                    let (x, y) = (v[me.index()], b[me.index()]);
                    x > y || (x == y && i < *bi)
                }
            };
            if better {
                self.set_pv(ply, mv);
                if ply == 0 {
                    self.root_best = Some((mv, v[me.index()]));
                }
                best = Some((v, i));
            }
            if let (true, Some((q, a)), Some((b, _))) = (self.o.shallow_pruning, parent, &best) {
                if q != me && a + b[me.index()] > 1.0 + PRUNE_MARGIN {
                    // The parent's player gets at most 1 - b < a here: it will not come here.
                    self.cutoff(state, ply, &frame, k, depth);
                    break;
                }
            }
        }
        self.frames[ply] = Some(frame);
        let (v, i) = best.unwrap_or_else(|| (outcome_values(&Outcome::Draw, n), 0));
        if let (Some(key), Some(tt)) = (key, self.tt) {
            tt.store(key, G::Score::zero(), depth.min(255) as u8, Bound::Exact, Some(i as u16));
        }
        v
    }
}
