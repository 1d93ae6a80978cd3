//! Pieces shared by the two-player and the multiplayer alpha-beta searches: budget checks,
//! per-ply move buffers with move ordering (hash move, killers, history), repetition
//! detection along the search path, and turning scores into [`Value`]s.

use std::any::TypeId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use smallvec::SmallVec;

use crate::game::{MoveList, Outcome, Player, Score, Solved};
use crate::search::tt::TranspositionTable;
use crate::search::{Budget, Deadline, SearchError, Value};

/// The deepest iteration any alpha-beta search starts (the transposition table stores depths
/// in a byte).
pub use super::MAX_DEPTH;

/// "Infinity" for alpha-beta windows: above every proven score, and safe to negate.
#[inline]
pub(crate) fn inf<S: Score>() -> S {
    S::WIN + S::WIN
}

/// Node counting and the stop conditions of one search thread: node budget, hard time limit,
/// the external stop flag and the flag that ends every thread of a parallel search. Time and
/// flags are checked every 1024 nodes.
pub(crate) struct Limits {
    deadline: Deadline,
    max_nodes: Option<u64>,
    stop: Option<Arc<AtomicBool>>,
    /// Set when one thread of a parallel search has the answer.
    done: Option<Arc<AtomicBool>>,
    pub(crate) nodes: u64,
    pub(crate) aborted: bool,
    /// The node count at which the clock is looked at next.
    next_check: u64,
    /// When the current iteration started, from the search's start.
    iteration_start: Duration,
    /// What the first root move of the current iteration cost, once it is done.
    first_move: Option<Duration>,
    /// What the first root move of the last iteration that completed one cost.
    last_first_move: Duration,
}

impl Limits {
    pub(crate) fn new(budget: &Budget) -> Limits {
        Limits::with(Deadline::new(budget), budget.nodes, budget.stop.clone(), None)
    }

    /// Limits with nothing counted yet.
    fn with(
        deadline: Deadline,
        max_nodes: Option<u64>,
        stop: Option<Arc<AtomicBool>>,
        done: Option<Arc<AtomicBool>>,
    ) -> Limits {
        Limits {
            deadline,
            max_nodes,
            stop,
            done,
            nodes: 0,
            aborted: false,
            next_check: 1024,
            iteration_start: Duration::ZERO,
            first_move: None,
            last_first_move: Duration::ZERO,
        }
    }

    /// The limits of thread `id` of `threads` searching one position, made from the limits
    /// of the whole search (before any node is counted): the same clock, a share of the node
    /// budget, and `done`, which ends every thread's search once set.
    pub(crate) fn for_thread(&self, threads: usize, id: usize, done: &Arc<AtomicBool>) -> Limits {
        let t = threads.max(1) as u64;
        Limits::with(
            self.deadline,
            self.max_nodes.map(|n| (n / t + u64::from((id as u64) < n % t)).max(1)),
            self.stop.clone(),
            (threads > 1).then(|| done.clone()),
        )
    }

    /// The deepest iteration to run: the budget's depth, or [`MAX_DEPTH`] when another limit
    /// that a tree search uses (nodes, time, clock or the stop flag) ends the search.
    ///
    /// # Errors
    /// [`SearchError::BadBudget`] for a budget with none of those: no limit at all, or only an
    /// MCTS iteration count, which `algorithm` cannot use.
    pub(crate) fn max_depth(budget: &Budget, algorithm: &'static str) -> Result<u32, SearchError> {
        match budget.depth {
            Some(d) => Ok(d.clamp(1, MAX_DEPTH)),
            None if budget.nodes.is_some()
                || budget.time.is_some()
                || budget.clock.is_some()
                || budget.deadline.is_some()
                || budget.stop.is_some() =>
            {
                Ok(MAX_DEPTH)
            }
            None => {
                let reason = if budget.iterations.is_some() {
                    "an iteration limit counts MCTS playouts; a tree search needs a depth, node, \
                     time, clock or deadline limit (or a stop flag)"
                } else {
                    "the budget sets no limit; give a depth, node, time, clock or deadline limit \
                     (or a stop flag)"
                };
                Err(SearchError::BadBudget { algorithm, reason: reason.to_string() })
            }
        }
    }

    /// Counts a node; true if the search must stop now.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.max_nodes.is_some_and(|m| self.nodes >= m) {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        // Every 1024 nodes; `nodes` may also jump (a game's endgame solver adds its own).
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 1024;
            if self.time_is_up() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// True once the hard time limit has passed or a stop was requested.
    pub(crate) fn time_is_up(&self) -> bool {
        self.deadline.hard_expired() || self.flagged()
    }

    /// True if the external stop flag or the parallel search's `done` flag is set.
    fn flagged(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            || self.done.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// True if no new iteration should start: the soft time limit passed, a stop was
    /// requested, or the time left could surely not pay for the new iteration's first root
    /// move (it costs at least what the previous iteration's did).
    pub(crate) fn soft_expired(&self) -> bool {
        !self.deadline.can_start(self.last_first_move) || self.flagged()
    }

    /// Moves the soft limit to `factor` times a clock's allotment ([`Deadline::scale_soft`]).
    pub(crate) fn scale_soft(&mut self, factor: f64) {
        self.deadline.scale_soft(factor);
    }

    /// Marks the start of an iteration.
    pub(crate) fn start_iteration(&mut self) {
        if let Some(cost) = self.first_move.take() {
            self.last_first_move = cost;
        }
        self.iteration_start = self.elapsed();
    }

    /// Notes that a root move finished; the first one's cost predicts the next iteration's.
    #[inline]
    pub(crate) fn root_move_done(&mut self) {
        if self.first_move.is_none() {
            self.first_move = Some(self.elapsed().saturating_sub(self.iteration_start));
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.deadline.elapsed()
    }
}

/// What one thread of a search did: its last completed iteration (`C`), at what depth, and
/// the nodes and deepest ply it searched.
pub(crate) struct ThreadResult<C> {
    pub(crate) completed: Option<C>,
    pub(crate) depth: u32,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
}

/// Lazy SMP: runs `main` on this thread and `helper(id)` for `id` in `1..threads` on scoped
/// threads, all searching the same position with one shared transposition table. Once `main`
/// returns, `done` is set, which ends the helpers' searches (their limits watch it, see
/// [`Limits::for_thread`]). The answer is the main thread's result (and its extra `X`) with
/// every thread's nodes and deepest ply, and the deepest completed iteration of any thread
/// (the main thread's on a tie).
pub(crate) fn lazy_smp<C: Send, X>(
    threads: usize,
    done: &AtomicBool,
    helper: impl Fn(usize) -> ThreadResult<C> + Sync,
    main: impl FnOnce() -> (ThreadResult<C>, X),
) -> (ThreadResult<C>, X) {
    if threads <= 1 {
        return main();
    }
    std::thread::scope(|scope| {
        let helper = &helper;
        let handles: Vec<_> = (1..threads).map(|id| scope.spawn(move || helper(id))).collect();
        let (mut result, extra) = main();
        done.store(true, Ordering::Relaxed);
        for h in handles {
            let other = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            result.nodes += other.nodes;
            result.seldepth = result.seldepth.max(other.seldepth);
            if other.completed.is_some() && other.depth > result.depth {
                result.completed = other.completed;
                result.depth = other.depth;
            }
        }
        (result, extra)
    })
}

/// True if helper thread `id` (1 and up) of a Lazy SMP search skips iteration `depth`, so that
/// the helpers spread over the depths around the main thread's instead of repeating its
/// search (the skip pattern of Stockfish 8's threads).
pub(crate) fn helper_skips(id: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    if id == 0 {
        return false;
    }
    let i = (id - 1) % 20;
    ((depth + PHASE[i]) / SIZE[i]) % 2 == 1
}

/// The transposition table of an agent that is not generic over the game. A search takes it
/// out as a table of its game's score type ([`TableSlot::take`]) and puts it back when done
/// ([`TableSlot::put`]); the storage does not depend on the score type, so one allocation
/// serves every game. The entries are cleared when the score type changes.
#[derive(Default)]
pub(crate) struct TableSlot {
    /// The table and the score type of its entries (`None`: empty, any type may use it).
    table: Option<(TranspositionTable<()>, Option<TypeId>)>,
    stale: bool,
}

impl TableSlot {
    /// The table for score type `S`, of `mib` MiB if it has to be allocated; with
    /// `clear_stale`, emptied first if [`TableSlot::forget`] was called since the last use.
    pub(crate) fn take<S: Score>(
        &mut self,
        mib: usize,
        clear_stale: bool,
    ) -> TranspositionTable<S> {
        let mut t = match self.table.take() {
            Some((t, None)) => t.retype::<S>(),
            Some((t, Some(ty))) if ty == TypeId::of::<S>() => t.retype::<S>(),
            Some((t, Some(_))) => {
                let mut t = t.retype::<S>();
                t.clear();
                t
            }
            None => {
                self.stale = false;
                TranspositionTable::<S>::new(mib)
            }
        };
        if self.stale && clear_stale {
            t.clear();
        }
        self.stale = false;
        t
    }

    /// Gives back the table taken by [`TableSlot::take`].
    pub(crate) fn put<S: Score>(&mut self, table: TranspositionTable<S>) {
        self.table = Some((table.retype(), Some(TypeId::of::<S>())));
    }

    /// Marks the entries as belonging to another game.
    pub(crate) fn forget(&mut self) {
        self.stale = true;
    }

    /// The size of the allocated table in bytes (0 before any allocation).
    pub(crate) fn bytes(&self) -> usize {
        self.table.as_ref().map_or(0, |(t, _)| t.bytes())
    }

    /// Readies an empty table of `mib` MiB now: allocated if there is none, cleared if it
    /// holds entries. Agents call it at `new_game`, so that no move's clock pays for it.
    pub(crate) fn ready(&mut self, mib: usize) {
        match self.table.as_mut() {
            Some((t, ty)) => {
                if ty.is_some() {
                    t.clear();
                    *ty = None;
                }
            }
            None => self.table = Some((TranspositionTable::<()>::new(mib), None)),
        }
        self.stale = false;
    }
}

/// Ordering key of the hash move (and the previous iteration's best root move).
pub(crate) const HASH_MOVE_KEY: i64 = 1 << 40;
const KILLER_KEYS: [i64; 2] = [1 << 39, 1 << 38];
/// History scores stay below this, under the killer keys.
const HISTORY_MAX: u32 = 1 << 30;

/// The buffers of one ply: the generated moves and their ordering keys. One frame per ply is
/// allocated per search and reused for every node at that ply.
pub(crate) struct Frame<M> {
    pub(crate) moves: MoveList<M>,
    order: SmallVec<[(i64, u16); 64]>,
}

impl<M> Default for Frame<M> {
    fn default() -> Self {
        Frame { moves: MoveList::new(), order: SmallVec::new() }
    }
}

impl<M> Frame<M> {
    /// Forgets the ordering keys of the previous node.
    pub(crate) fn clear_order(&mut self) {
        self.order.clear();
    }

    /// Gives move `index` the ordering key `key` (larger first).
    pub(crate) fn push_order(&mut self, key: i64, index: usize) {
        self.order.push((key, index as u16));
    }

    /// The move index picked `k`-th.
    pub(crate) fn order_index(&self, k: usize) -> usize {
        self.order[k].1 as usize
    }

    /// The index of the `k`-th move to search (selection sort: the best remaining key; ties go
    /// to the earlier generated move).
    #[inline]
    pub(crate) fn pick(&mut self, k: usize) -> usize {
        let mut best = k;
        for j in k + 1..self.order.len() {
            let (a, b) = (self.order[j], self.order[best]);
            if a.0 > b.0 || (a.0 == b.0 && a.1 < b.1) {
                best = j;
            }
        }
        self.order.swap(k, best);
        self.order[k].1 as usize
    }
}

/// What a cut-off with `depth` plies left adds to its move's history counter.
#[inline]
fn bonus(depth: u32) -> u32 {
    depth.min(1 << 15).pow(2) + 1
}

/// Killer moves per ply and a history table.
///
/// History is a flat table of [`Game::move_key_space`](crate::Game::move_key_space) counters
/// per seat, indexed by [`Game::move_key`](crate::Game::move_key): a move that causes a
/// cut-off with `d` plies left earns `d * d + 1` for its key, and every move searched before
/// it at that node loses as much, so moves that refuted other positions are tried early here
/// too. The counters are halved between iterations. Keys need no child position, so ordering
/// makes no move. History is off when the game gives no keys (key space 0). Killers are
/// compared as moves.
pub(crate) struct MoveOrdering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<u32>,
    /// Entries per seat (0: history off).
    space: usize,
    use_killers: bool,
}

impl<M: Copy + PartialEq> MoveOrdering<M> {
    /// Ordering with killers and/or history; history needs `key_space > 0` and keeps one
    /// table per seat of `seats`.
    pub(crate) fn new(use_killers: bool, use_history: bool, key_space: u32, seats: usize) -> Self {
        let space = if use_history { key_space as usize } else { 0 };
        MoveOrdering {
            killers: Vec::new(),
            history: vec![0; space * seats.max(1)],
            space,
            use_killers,
        }
    }

    /// Ages the history between iterations: every counter is halved, so that what the last
    /// iteration learnt weighs as much as everything before it.
    pub(crate) fn age(&mut self) {
        for h in self.history.iter_mut() {
            *h >>= 1;
        }
    }

    /// Makes room for `plies` plies of killers.
    pub(crate) fn ensure(&mut self, plies: usize) {
        if self.killers.len() < plies {
            self.killers.resize(plies, [None; 2]);
        }
    }

    /// True if history ordering is on (the search then asks the game for move keys).
    #[inline]
    pub(crate) fn uses_history(&self) -> bool {
        self.space > 0
    }

    /// The table index of move key `key` for `seat` (a key out of range, a contract break,
    /// shares the last entry rather than panic).
    #[inline]
    fn slot(&self, seat: usize, key: u32) -> usize {
        seat * self.space + (key as usize).min(self.space - 1)
    }

    /// The ordering key of `mv` at `ply`, played by `seat`; `key` is its move key (ignored
    /// without history).
    #[inline]
    pub(crate) fn key(&self, ply: usize, mv: M, seat: usize, key: u32) -> i64 {
        if self.use_killers {
            let k = &self.killers[ply];
            if k[0] == Some(mv) {
                return KILLER_KEYS[0];
            }
            if k[1] == Some(mv) {
                return KILLER_KEYS[1];
            }
        }
        if self.space > 0 {
            i64::from(self.history[self.slot(seat, key)])
        } else {
            0
        }
    }

    /// Records that `mv` (move key `key`, played by `seat`) caused a cut-off at `ply` with
    /// `depth` plies left.
    #[inline]
    pub(crate) fn cutoff(&mut self, ply: usize, mv: M, seat: usize, key: u32, depth: u32) {
        if self.use_killers {
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        if self.space > 0 {
            let i = self.slot(seat, key);
            let h = &mut self.history[i];
            *h = h.saturating_add(bonus(depth)).min(HISTORY_MAX);
        }
    }

    /// Records that `mv` (move key `key`, played by `seat`) was searched before the move that
    /// caused a cut-off with `depth` plies left, without causing one: its counter drops by
    /// what a cut-off would have earned.
    #[inline]
    pub(crate) fn failed(&mut self, seat: usize, key: u32, depth: u32) {
        if self.space > 0 {
            let i = self.slot(seat, key);
            let h = &mut self.history[i];
            *h = h.saturating_sub(bonus(depth));
        }
    }
}

/// The hashes of the game's earlier positions and of the current search path, with a small
/// counting filter so that the common "not seen" answer needs no scan.
pub(crate) struct Repetitions {
    hashes: Vec<u64>,
    filter: Vec<u16>,
    enabled: bool,
}

const FILTER_SIZE: usize = 1 << 12;

impl Repetitions {
    /// A tracker seeded with `history` (the current position last) and the root hash; off
    /// unless `enabled`.
    pub(crate) fn new(history: &[u64], root: Option<u64>, enabled: bool) -> Self {
        let mut r = Repetitions {
            hashes: Vec::with_capacity(history.len() + 256),
            filter: if enabled { vec![0; FILTER_SIZE] } else { Vec::new() },
            enabled,
        };
        if enabled {
            for &h in history {
                r.push(Some(h));
            }
            if history.last().copied() != root {
                r.push(root);
            }
        }
        r
    }

    #[inline]
    fn slot(h: u64) -> usize {
        (h as usize) & (FILTER_SIZE - 1)
    }

    /// True if `hash` occurred before (in the game or on the path).
    #[inline]
    pub(crate) fn contains(&self, hash: Option<u64>) -> bool {
        match hash {
            Some(h) if self.enabled => {
                self.filter[Self::slot(h)] > 0 && self.hashes.iter().rev().any(|&x| x == h)
            }
            _ => false,
        }
    }

    /// Enters a position.
    #[inline]
    pub(crate) fn push(&mut self, hash: Option<u64>) {
        if let (true, Some(h)) = (self.enabled, hash) {
            self.hashes.push(h);
            self.filter[Self::slot(h)] += 1;
        }
    }

    /// Leaves the position entered last.
    #[inline]
    pub(crate) fn pop(&mut self, hash: Option<u64>) {
        if let (true, Some(h)) = (self.enabled, hash) {
            self.hashes.pop();
            self.filter[Self::slot(h)] -= 1;
        }
    }
}

/// The score of a finished game for `player`, `ply` plies from the root: a win or loss in
/// `ply` plies (the player is the sole best, or someone else is strictly better), zero for a
/// shared first place; with `margin`, [`Outcome::margin`] instead.
#[inline]
pub(crate) fn terminal_score<S: Score>(
    outcome: &Outcome,
    player: Player,
    ply: usize,
    margin: bool,
) -> S {
    let m = outcome.margin(player);
    if margin {
        S::from_f64(f64::from(m))
    } else if m > 0 {
        S::win_in(ply as u32)
    } else if m < 0 {
        -S::win_in(ply as u32)
    } else {
        S::zero()
    }
}

/// The score of a game solver's answer ([`Game::solve_endgame`](crate::Game::solve_endgame),
/// or an endgame table's) `ply` plies below the root, searched inside `(alpha, beta)`: the
/// margin with margin scores, else a win or loss at its distance (one ply when the solver gives
/// none) or a draw.
///
/// With margin scores a win or a loss without its margin (an endgame table's verdict) only
/// bounds the margin, at least 1 or at most -1: it answers, fail-soft, where that bound already
/// falls outside the window, and `None` otherwise, so that the search finds the margin itself
/// instead of taking ±1 for it.
pub(crate) fn solved_score<S: Score>(
    solved: Solved,
    ply: usize,
    margin: bool,
    alpha: S,
    beta: S,
) -> Option<S> {
    let at = |plies: Option<u32>| ply as u32 + plies.unwrap_or(1);
    if margin {
        return match solved {
            Solved::Margin(m) => Some(S::from_f64(f64::from(m))),
            Solved::Draw => Some(S::zero()),
            Solved::Win(_) => Some(S::from_f64(1.0)).filter(|&lower| lower >= beta),
            Solved::Loss(_) => Some(S::from_f64(-1.0)).filter(|&upper| upper <= alpha),
        };
    }
    Some(match solved.margin().signum() {
        1 => S::win_in(at(solved.plies())),
        -1 => -S::win_in(at(solved.plies())),
        _ => S::zero(),
    })
}

/// The reported value of a root score: proven wins and losses as such, zero as a draw when the
/// search saw no heuristic evaluation (`exact`), anything else as a heuristic.
pub(crate) fn value_of<S: Score>(score: S, exact: bool) -> Value {
    if score.is_proven() {
        let n = score.plies_to_end().unwrap_or(0);
        if score > S::zero() {
            Value::Win(n)
        } else {
            Value::Loss(n)
        }
    } else if exact && score == S::zero() {
        Value::Draw
    } else {
        Value::Heuristic(score.to_f64())
    }
}

/// The bounds of an aspiration window of half-width `delta` around `center`, clamped to
/// `(-inf, inf)`.
pub(crate) fn window<S: Score>(center: S, below: f64, above: f64) -> (S, S) {
    let lim = inf::<S>().to_f64();
    let c = center.to_f64();
    let lo = (c - below).max(-lim);
    let hi = (c + above).min(lim);
    let lo = if lo <= -lim { -inf::<S>() } else { S::from_f64(lo) };
    let hi = if hi >= lim { inf::<S>() } else { S::from_f64(hi) };
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_orders_by_key_then_generation() {
        let mut f: Frame<u8> = Frame::default();
        for (i, k) in [3, 9, 3, 0, 9].into_iter().enumerate() {
            f.push_order(k, i);
        }
        let order: Vec<usize> = (0..5).map(|k| f.pick(k)).collect();
        assert_eq!(order, vec![1, 4, 0, 2, 3]);
    }

    #[test]
    fn killers_and_history_rank_moves() {
        let mut o = MoveOrdering::new(true, true, 100, 2);
        o.ensure(4);
        assert_eq!(o.key(2, 7u8, 0, 99), 0);
        o.cutoff(2, 7, 0, 99, 3);
        o.cutoff(2, 5, 0, 42, 1);
        assert_eq!(o.key(2, 5, 0, 0), KILLER_KEYS[0]);
        assert_eq!(o.key(2, 7, 0, 0), KILLER_KEYS[1]);
        assert_eq!(o.key(1, 7, 0, 99), 10);
        assert_eq!(o.key(1, 8, 0, 42), 2);
        // History is kept per seat, and off without move keys.
        assert_eq!(o.key(1, 7, 1, 99), 0);
        let mut off = MoveOrdering::new(false, true, 0, 2);
        off.cutoff(0, 1u8, 0, 5, 9);
        assert!(!off.uses_history());
        assert_eq!(off.key(0, 1, 0, 5), 0);
    }

    #[test]
    fn budgets_without_a_tree_limit_are_errors() {
        assert_eq!(Limits::max_depth(&Budget::depth(0), "x"), Ok(1));
        assert_eq!(Limits::max_depth(&Budget::nodes(10), "x"), Ok(MAX_DEPTH));
        let flag = Arc::new(AtomicBool::new(false));
        assert_eq!(Limits::max_depth(&Budget::default().with_stop(flag), "x"), Ok(MAX_DEPTH));
        for bad in [Budget::default(), Budget::iterations(100)] {
            let e = Limits::max_depth(&bad, "alphabeta").unwrap_err();
            assert!(matches!(e, SearchError::BadBudget { algorithm: "alphabeta", .. }), "{e}");
        }
    }

    #[test]
    fn repetitions_follow_the_path() {
        let mut r = Repetitions::new(&[1, 2, 3], Some(3), true);
        assert!(r.contains(Some(2)));
        assert!(!r.contains(Some(4)));
        r.push(Some(4));
        assert!(r.contains(Some(4)));
        r.pop(Some(4));
        assert!(!r.contains(Some(4)));
        assert!(!Repetitions::new(&[1], Some(1), false).contains(Some(1)));
    }

    #[test]
    fn terminal_scores_prefer_short_wins() {
        let o = Outcome::Winner(Player(0));
        let w3: i32 = terminal_score(&o, Player(0), 3, false);
        let w5: i32 = terminal_score(&o, Player(0), 5, false);
        assert!(w3 > w5 && w5.is_proven());
        let l: i32 = terminal_score(&o, Player(1), 3, false);
        assert_eq!(l, -w3);
        let m: i32 = terminal_score(&Outcome::from_scores(&[40, 24]), Player(0), 9, true);
        assert_eq!(m, 16);
        assert_eq!(value_of(w3, false), Value::Win(3));
        assert_eq!(value_of(0i32, true), Value::Draw);
        assert_eq!(value_of(0i32, false), Value::Heuristic(0.0));
    }

    #[test]
    fn windows_clamp() {
        let (lo, hi) = window(10i16, 5.0, 1e9);
        assert_eq!((lo, hi), (5, inf::<i16>()));
        let (lo, _) = window(-i16::win_in(0), 1e5, 1.0);
        assert_eq!(lo, -inf::<i16>());
    }
}
