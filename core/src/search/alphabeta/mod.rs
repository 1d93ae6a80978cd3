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
//! Scores are the game's [`Game::Score`], from the point of view of the player to move. A
//! terminal position `ply` plies from the root scores `Score::win_in(ply)` for the winner (the
//! sole best player) and its negation for the loser, so the search prefers the shortest win
//! and the longest loss; a shared first place scores zero. With
//! [`AlphaBetaOptions::margin_scores`] a terminal position scores [`Outcome::margin`] instead,
//! which exact endgame solving (Othello disc difference) needs.
//!
//! # Budget
//!
//! Iterative deepening runs until the budget's depth, node or time limit (or clock, or stop
//! flag) is reached; the time and the stop flag are checked every 1024 nodes. An iteration
//! cut short still counts when it completed a root move better than the previous best. A
//! budget with none of depth, nodes, time or clock searches depth 1. The search stops early
//! when the tree is solved (no heuristic evaluation in the last iteration, or a proven result
//! within the depth searched). With one legal move it answers at once, without a value.
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

pub(crate) mod common;

use std::any::Any;
use std::fmt;
use std::time::Duration;

use num_traits::Zero;

use crate::game::{Game, Outcome, Score};
use crate::search::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable};
use crate::search::{root_moves, Agent, Budget, Position, Root, SearchError, SearchReport, Value};

use common::{
    inf, terminal_score, value_of, window, Frame, Limits, MoveOrdering, Repetitions, TableSlot,
    HASH_MOVE_KEY,
};

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
    /// Killer moves (two per ply).
    pub killers: bool,
    /// History heuristic (needs [`Game::hash`]).
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
            killers: true,
            history: true,
            quiescence: true,
            max_quiescence_depth: 16,
            margin_scores: false,
            repetition: true,
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
            ..AlphaBetaOptions::default()
        }
    }
}

/// What one completed iteration of iterative deepening found, passed to the callback of
/// [`AlphaBeta::with_info`] (and of the multiplayer search).
#[derive(Debug)]
pub struct IterationInfo<'a> {
    /// The depth of this iteration.
    pub depth: u32,
    /// The deepest ply reached so far, quiescence included.
    pub seldepth: u32,
    /// The root value.
    pub value: Value,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    pv: &'a (dyn Any + Send + Sync),
}

impl<'a> IterationInfo<'a> {
    pub(crate) fn new<M: Send + Sync + 'static>(
        depth: u32,
        seldepth: u32,
        value: Value,
        nodes: u64,
        elapsed: Duration,
        pv: &'a Vec<M>,
    ) -> Self {
        IterationInfo { depth, seldepth, value, nodes, elapsed, pv }
    }

    /// The principal variation, for a caller that knows the game's move type `M` (`None` for
    /// another type).
    pub fn pv<M: 'static>(&self) -> Option<&[M]> {
        self.pv.downcast_ref::<Vec<M>>().map(Vec::as_slice)
    }

    /// Nodes per second so far.
    pub fn nps(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.nodes as f64 / s
        } else {
            0.0
        }
    }
}

/// A callback run after every completed iteration.
pub type InfoCallback = Box<dyn FnMut(&IterationInfo<'_>) + Send>;

/// The two-player alpha-beta agent; see the [module docs](self).
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
pub struct AlphaBeta {
    options: AlphaBetaOptions,
    table: TableSlot,
    info: Option<InfoCallback>,
}

impl Default for AlphaBeta {
    fn default() -> Self {
        AlphaBeta::new()
    }
}

impl fmt::Debug for AlphaBeta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AlphaBeta")
            .field("options", &self.options)
            .field("info", &self.info.is_some())
            .finish()
    }
}

impl AlphaBeta {
    /// An agent with every enhancement on ([`AlphaBetaOptions::default`]).
    pub fn new() -> Self {
        AlphaBeta::with_options(AlphaBetaOptions::default())
    }

    /// An agent with these options.
    pub fn with_options(options: AlphaBetaOptions) -> Self {
        AlphaBeta { options, table: TableSlot::default(), info: None }
    }

    /// This agent with a transposition table of `mib` MiB.
    pub fn with_tt_mb(mut self, mib: usize) -> Self {
        self.options.tt_mb = mib;
        self.table = TableSlot::default();
        self
    }

    /// Allocates the transposition table for `G`'s score type now. Otherwise the first search
    /// does it, inside its time budget (filling the table costs about a millisecond per 5 MiB).
    pub fn prepare<G: Game>(&mut self) {
        self.table.get::<G::Score>(self.options.tt_mb, false);
    }

    /// This agent calling `callback` after every completed iteration (for a CLI's
    /// depth/score/PV/nps lines).
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use ply::{Game, search::{Agent, Budget, Position}};
    /// use ply::search::alphabeta::AlphaBeta;
    /// use ply::games::TicTacToe;
    ///
    /// let depths = Arc::new(Mutex::new(Vec::new()));
    /// let seen = depths.clone();
    /// let mut engine = AlphaBeta::new().with_tt_mb(1).with_info(Box::new(move |info| {
    ///     assert!(info.pv::<u8>().is_some());
    ///     seen.lock().unwrap().push(info.depth);
    /// }));
    /// let game = TicTacToe;
    /// engine.choose(&game, Position::new(&game.initial_state()), &Budget::depth(3)).unwrap();
    /// assert_eq!(*depths.lock().unwrap(), vec![1, 2, 3]);
    /// ```
    pub fn with_info(mut self, callback: InfoCallback) -> Self {
        self.info = Some(callback);
        self
    }

    /// The options in use.
    pub fn options(&self) -> &AlphaBetaOptions {
        &self.options
    }

    /// Searches `position` and also returns the raw root score.
    pub(crate) fn run<G: Game>(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<Searched<G::Move, G::Score>, SearchError> {
        if game.num_players() != 2 {
            return Err(SearchError::Unsupported {
                algorithm: "alphabeta",
                reason: format!(
                    "two-player alpha-beta needs a two-player game, not {} players",
                    game.num_players()
                ),
            });
        }
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
        let tt = match (o.tt, root_hash) {
            (true, Some(_)) => {
                let t = self.table.get::<G::Score>(o.tt_mb, o.keep_tt);
                t.new_search();
                Some(t)
            }
            _ => None,
        };
        let reps = Repetitions::new(
            position.history,
            root_hash,
            o.repetition && game.repetition_limit().is_some() && root_hash.is_some(),
        );
        let mut s = Searcher {
            game,
            o,
            tt,
            limits,
            frames: Vec::new(),
            ordering: MoveOrdering::new(o.killers, o.history && root_hash.is_some()),
            pv: Vec::new(),
            reps,
            seldepth: 0,
            heuristic: 0,
            root_hint: None,
            root_best: None,
        };
        let max_depth = Limits::max_depth(budget);
        let mut done: Option<Completed<G::Move, G::Score>> = None;
        for depth in 1..=max_depth {
            if depth > 1 && s.limits.soft_expired() {
                break;
            }
            s.ensure((depth + o.max_quiescence_depth * u32::from(o.quiescence)) as usize + 2);
            s.root_best = None;
            s.heuristic = 0;
            let score = s.aspirated(state, root_hash, depth, done.as_ref().map(|d| d.score));
            if s.limits.aborted {
                if let Some((mv, sc)) = s.root_best {
                    // A root move completed in the cut-short iteration beat the previous best.
                    done = Some(Completed {
                        best: mv,
                        score: sc,
                        pv: vec![mv],
                        depth: done.as_ref().map_or(0, |d| d.depth),
                        exact: false,
                    });
                }
                break;
            }
            let pv = s.pv[0].clone();
            let best = pv.first().copied().or(s.root_best.map(|b| b.0)).unwrap_or(root_moves[0]);
            let exact = s.heuristic == 0;
            let c = Completed { best, score, pv, depth, exact };
            if let Some(cb) = self.info.as_mut() {
                cb(&IterationInfo::new(
                    depth,
                    s.seldepth as u32,
                    value_of(score, exact),
                    s.limits.nodes,
                    s.limits.elapsed(),
                    &c.pv,
                ));
            }
            s.root_hint = Some(best);
            done = Some(c);
            let solved = exact || score.plies_to_end().is_some_and(|n| n <= depth);
            if solved {
                break;
            }
        }
        let elapsed = s.limits.elapsed();
        let c = done.unwrap_or(Completed {
            best: s.root_hint.unwrap_or(root_moves[0]),
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
            seldepth: s.seldepth as u32,
            nodes: s.limits.nodes,
            iterations: 0,
            elapsed,
        };
        Ok(Searched { report, score: raw })
    }
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

impl<G: Game> Agent<G> for AlphaBeta {
    fn name(&self) -> String {
        if self.options == AlphaBetaOptions::plain() {
            "alphabeta(plain)".to_string()
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
        self.table.forget();
    }
}

/// One search's working state: buffers sized per iteration, never per node.
struct Searcher<'a, G: Game> {
    game: &'a G,
    o: &'a AlphaBetaOptions,
    tt: Option<&'a mut TranspositionTable<G::Score>>,
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
    root_hint: Option<G::Move>,
    root_best: Option<(G::Move, G::Score)>,
}

/// A ply's frame, out of its slot while a node at that ply is searched.
type FrameSlot<G> = Option<Box<Frame<<G as Game>::Move, <G as Game>::State>>>;

impl<G: Game> Searcher<'_, G> {
    fn ensure(&mut self, plies: usize) {
        if self.frames.len() < plies {
            self.frames.resize_with(plies, || Some(Box::default()));
        }
        while self.pv.len() < plies + 1 {
            self.pv.push(Vec::with_capacity(plies + 1));
        }
        self.ordering.ensure(plies + 1);
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
            if !self.o.quiescence
                || qply >= self.o.max_quiescence_depth
                || ply + 2 >= self.frames.len()
                || game.is_quiet(state)
            {
                self.heuristic += 1;
                return game.evaluate(state, mover);
            }
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
                        Bound::Lower => s >= beta && s > alpha,
                        Bound::Upper => s <= alpha,
                    };
                    if cut {
                        if e.heuristic {
                            self.heuristic += 1;
                        }
                        return s;
                    }
                }
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
        let eager = depth >= 2 && hash.is_some() && self.ordering.uses_history();
        frame.children.clear();
        frame.child_hashes.clear();
        if eager {
            for &mv in frame.moves.iter() {
                let mut child = state.clone();
                game.apply(&mut child, mv);
                frame.child_hashes.push(game.hash(&child).unwrap_or(0));
                frame.children.push(child);
            }
        }
        frame.clear_order();
        for i in 0..n {
            let mv = frame.moves[i];
            let key = if hash_move == Some(i as u16) || (ply == 0 && self.root_hint == Some(mv)) {
                HASH_MOVE_KEY
            } else {
                let delta = match (eager, hash) {
                    (true, Some(h)) => Some(h ^ frame.child_hashes[i]),
                    _ => None,
                };
                self.ordering.key(ply, mv, delta)
            };
            frame.push_order(key, i);
        }

        let (child_depth, child_q) = if depth > 0 { (depth - 1, 0) } else { (0, qply + 1) };
        let mut best = -inf::<G::Score>();
        let mut best_index = 0;
        let mut owned;
        for k in 0..n {
            let i = frame.pick(k);
            let mv = frame.moves[i];
            let (child, child_hash) = if eager {
                (&frame.children[i], Some(frame.child_hashes[i]))
            } else {
                owned = state.clone();
                game.apply(&mut owned, mv);
                let h = game.hash(&owned);
                (&owned, h)
            };
            let score = if self.reps.contains(child_hash) {
                self.pv[ply + 1].clear();
                self.heuristic += 1;
                G::Score::zero()
            } else {
                self.reps.push(child_hash);
                let (cd, cq, next) = (child_depth, child_q, ply + 1);
                let s = if k == 0 || !self.o.pvs {
                    -self.negamax(child, child_hash, cd, next, cq, -beta, -alpha)
                } else {
                    let s = -self.negamax(child, child_hash, cd, next, cq, -alpha, -alpha);
                    if s > alpha && s < beta && !self.limits.aborted {
                        -self.negamax(child, child_hash, cd, next, cq, -beta, -alpha)
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
                }
                if alpha >= beta {
                    let delta = hash.zip(child_hash).map(|(a, b)| a ^ b);
                    self.ordering.cutoff(ply, mv, delta, depth);
                    break;
                }
            }
        }
        self.frames[ply] = Some(frame);
        if let (Some(key), Some(tt)) = (tt_key, self.tt.as_mut()) {
            let bound = if best <= alpha_before {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
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
