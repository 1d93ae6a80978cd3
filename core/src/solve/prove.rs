//! One proving thread: fail-soft alpha-beta on exact values, to the end of the game.
//!
//! Values are for the player to move, in one integer scale ([`WIN`]): a final margin as it
//! is, a win in `d` plies as `WIN - d` and a loss in `d` plies as `d - WIN`, so that a nearer
//! win is worth more. A value passes from a position to its parent negated when the turn
//! changes hands and moved one step towards 0 when it is a win or a loss.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::{Game, MoveList, Outcome, Player, Solved, SolverBudget};

use super::table::{Entry, ProofTable, NO_MOVE};

/// The value of a win at once; a win in `d` plies is `WIN - d`.
pub(crate) const WIN: i32 = 30_000;

/// Values beyond this size are wins or losses; margins stay below it.
pub(crate) const DECIDED: i32 = 15_000;

/// The plies from a proof's root within which the enhanced transposition cutoff is tried.
/// Deeper, its reads of every move's table entry cost more than the positions it saves:
/// without it there, Kalah(6,4) (20-seed table) visits 92.1 M positions instead of 84.9 M
/// in 0.74 of the time, Connect Four's 8-move openings 393 M instead of 323 M in 0.93 of the
/// time; Othello's prover, above its last 12 empties, keeps it everywhere.
const ETC_PLIES: usize = 16;

/// The longest distance to the end that a value expresses.
pub(crate) const MAX_PLIES: i32 = WIN - DECIDED - 1;

/// The parent's view of `value`, a position's value for its player to move, where `same` says
/// whether the parent's player to move is the same.
pub(crate) fn to_parent(value: i32, same: bool) -> i32 {
    let v = if same { value } else { -value };
    if v > DECIDED {
        v - 1
    } else if v < -DECIDED {
        v + 1
    } else {
        v
    }
}

/// The child's view of a bound `bound` of its parent's value (the inverse of [`to_parent`]).
pub(crate) fn to_child(bound: i32, same: bool) -> i32 {
    let v = if bound > DECIDED {
        bound + 1
    } else if bound < -DECIDED {
        bound - 1
    } else {
        bound
    };
    if same {
        v
    } else {
        -v
    }
}

/// The value of a finished game for `player`.
pub(crate) fn final_value(outcome: &Outcome, player: Player) -> i32 {
    match outcome {
        Outcome::Winner(w) if *w == player => WIN,
        Outcome::Winner(_) => -WIN,
        Outcome::Draw => 0,
        Outcome::Scores(_) => outcome.margin(player).clamp(-DECIDED, DECIDED),
    }
}

/// The value of a game's own exact answer.
fn solved_value(solved: Solved) -> i32 {
    match solved {
        Solved::Margin(m) => m.clamp(-DECIDED, DECIDED),
        Solved::Win(d) => WIN - (d as i32).min(MAX_PLIES),
        Solved::Loss(d) => (d as i32).min(MAX_PLIES) - WIN,
        Solved::Draw => 0,
    }
}

/// A table bound of a position that has banked `banked` ([`Game::solve_banked`]), as a
/// value: the table keeps margins less what is banked, wins, losses and open bounds as they
/// are.
fn from_table(bound: i16, banked: i32) -> i32 {
    let b = i32::from(bound);
    if b.abs() < DECIDED {
        b + banked
    } else {
        b
    }
}

/// A bound `value` of a position that has banked `banked`, as the table keeps it.
fn to_table(value: i32, banked: i32) -> i16 {
    let v = if value.abs() < DECIDED { value - banked } else { value };
    v as i16
}

/// A proving thread's own state: its counters, history and the positions of its path.
pub(crate) struct Prover<'a, G: Game> {
    pub game: &'a G,
    pub table: Option<&'a ProofTable>,
    /// Set by the thread that finished the test: the others unwind.
    pub done: &'a AtomicBool,
    pub stop: &'a (dyn Fn() -> bool + Sync),
    pub nodes: u64,
    /// Whether the last test was cut short (by `stop` or `done`).
    pub stopped: bool,
    /// Order moves by the game's order key ([`Game::solve_order`]).
    pub order_by_eval: bool,
    /// Order moves by the opponent's replies first, fewest first.
    pub fastest_first: bool,
    /// This thread's number: threads after the first vary their move order near the root.
    pub id: usize,
    /// Cutoff counts by move key, kept from one test to the next.
    pub history: Vec<u32>,
    path: Vec<u64>,
    /// The shallowest place on the path that a repetition below returned to.
    cycle: usize,
    repetitions: bool,
    buffers: Vec<Vec<Child<G>>>,
    moves: Vec<MoveList<G::Move>>,
}

/// A move of a position being proved, with what orders it.
struct Child<G: Game> {
    state: G::State,
    mv: G::Move,
    index: u8,
    same: bool,
    key: f64,
    /// The opponent's replies after the move (0 where the mover moves again), with
    /// fastest-first ordering.
    replies: u32,
    /// The value, where the move ends the game.
    terminal: Option<i32>,
    /// The move's entry in the history table.
    history: usize,
    /// The position's key in the proof table ([`Game::value_hash`]), where there is a table
    /// and the game's endgame answer does not hold the position ([`Game::solve_prefetch`]).
    table_key: Option<u64>,
}

impl<'a, G: Game> Prover<'a, G> {
    pub fn new(
        game: &'a G,
        table: Option<&'a ProofTable>,
        done: &'a AtomicBool,
        stop: &'a (dyn Fn() -> bool + Sync),
        id: usize,
        history: Vec<u32>,
    ) -> Self {
        let space = game.move_key_space().clamp(1, 1 << 20) as usize;
        let history = if history.len() == space { history } else { vec![0; space] };
        Prover {
            game,
            table,
            done,
            stop,
            nodes: 0,
            stopped: false,
            order_by_eval: true,
            fastest_first: false,
            id,
            history,
            path: Vec::new(),
            cycle: usize::MAX,
            repetitions: game.repetition_limit().is_some(),
            buffers: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// Proves `state` inside `(alpha, beta)`: a fail-soft value (at most `alpha` an upper
    /// bound, at least `beta` a lower bound, between them exact), or `None` once stopped.
    pub fn test(&mut self, state: &G::State, alpha: i32, beta: i32) -> Option<i32> {
        self.stopped = false;
        self.path.clear();
        self.cycle = usize::MAX;
        if let Some(outcome) = self.game.outcome(state) {
            return Some(final_value(&outcome, self.game.to_move(state)));
        }
        let v = self.prove(state, alpha, beta, 0);
        (!self.stopped).then_some(v)
    }

    fn poll(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && !self.stopped
            && (self.done.load(Ordering::Relaxed) || (self.stop)())
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Proves `state`, a position where the game goes on, inside `(alpha, beta)`.
    fn prove(&mut self, state: &G::State, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.poll() {
            return 0;
        }
        let game = self.game;
        let me = game.to_move(state);
        let hash = if self.repetitions { game.hash(state) } else { None };
        if self.repetitions {
            if let Some(h) = hash {
                if let Some(at) = self.path.iter().position(|&p| p == h) {
                    self.cycle = self.cycle.min(at);
                    return 0;
                }
            }
        }
        let (done, stop) = (self.done, self.stop);
        let stop = move || done.load(Ordering::Relaxed) || stop();
        let mut budget = SolverBudget::new(&stop);
        if let Some(solved) = game.solve_endgame(state, alpha, beta, &mut budget) {
            let visited = budget.nodes();
            if budget.stopped() {
                self.stopped = true;
                return 0;
            }
            self.nodes += visited;
            return solved_value(solved);
        }
        let (mut a, mut b) = (alpha, beta);
        let mut hint = NO_MOVE;
        let key = self.table.and_then(|_| game.value_hash(state));
        let banked = if key.is_some() { game.solve_banked(state) } else { 0 };
        if let (Some(table), Some(k)) = (self.table, key) {
            if let Some(e) = table.probe(k) {
                let (lower, upper) = (from_table(e.lower, banked), from_table(e.upper, banked));
                if lower >= b || lower == upper {
                    return lower;
                }
                if upper <= a {
                    return upper;
                }
                a = a.max(lower);
                b = b.min(upper);
                hint = e.best;
            }
        }
        let start_nodes = self.nodes;
        let (mut children, floor) = self.children(state, me, ply);
        // A move that wins at once (the best value there is), or any move that ends the game
        // as well as the window allows, settles the position; so does the game's floor under
        // the value, where it is at the window's top.
        let mut best = floor.map_or(-WIN - 1, solved_value);
        let mut best_index = NO_MOVE;
        for c in &children {
            if let Some(v) = c.terminal {
                if v > best {
                    best = v;
                    best_index = c.index;
                }
            }
        }
        if best >= b || best == WIN - 1 {
            self.buffers[ply] = std::mem::take(&mut children);
            self.record(key, banked, best, alpha, beta, best_index, start_nodes);
            return best;
        }
        // Nothing wins at once: a win takes two plies at least.
        if b > WIN - 2 {
            b = WIN - 2;
            if a >= b {
                self.buffers[ply] = std::mem::take(&mut children);
                return b;
            }
        }
        a = a.max(best);
        let depth = self.path.len();
        let outer_cycle = std::mem::replace(&mut self.cycle, usize::MAX);
        if let Some(h) = hash {
            self.path.push(h);
        }
        let (a0, b0) = (a, b);
        // The table's move first, before the other moves are looked up or ordered: where it
        // still cuts, as it mostly does in the tests after the first, that work is saved.
        let mut first = 0;
        if let Some(at) = children.iter().position(|c| c.index == hint && c.terminal.is_none()) {
            children.swap(0, at);
            first = 1;
            let v = self.child_value(&children[0], a, b, ply);
            if !self.stopped && v > best {
                best = v;
                best_index = children[0].index;
                a = a.max(v);
            }
        }
        if !self.stopped && a < b {
            let rest = &mut children[first..];
            // Enhanced transposition cutoff: a move whose position the table already holds
            // above the window. It reads every move's entry; only in a proof's first plies,
            // where a cut saves a large subtree, does that pay.
            let cut = (ply < ETC_PLIES).then(|| self.transposition_cut(rest, b)).flatten();
            if let Some((v, index)) = cut {
                best = v;
                best_index = index;
            } else {
                self.order(state, rest, me, ply);
                // Principal variation search: after the first move searched, a move is first
                // tested against the best so far with a null window, and searched again in the
                // window only where it beats it (null-window tests never search again).
                for (searched, c) in (first..).zip(rest.iter()) {
                    let v = match c.terminal {
                        Some(v) => v,
                        None if searched > 0 && b - a > 1 => {
                            let v = self.child_value(c, a, a + 1, ply);
                            if v > a && v < b && !self.stopped {
                                self.child_value(c, v - 1, b, ply)
                            } else {
                                v
                            }
                        }
                        None => self.child_value(c, a, b, ply),
                    };
                    if self.stopped {
                        break;
                    }
                    if v > best {
                        best = v;
                        best_index = c.index;
                        if v > a {
                            a = v;
                            if a >= b {
                                let h = &mut self.history[c.history];
                                *h = h
                                    .saturating_add((self.nodes - start_nodes).min(1 << 20) as u32);
                                break;
                            }
                        }
                    }
                }
            }
        }
        if hash.is_some() {
            self.path.pop();
        }
        // A value that counted a return to a position above this one as a draw holds on this
        // line only: it stays out of the table.
        let on_this_line = self.cycle < depth;
        self.cycle = self.cycle.min(outer_cycle);
        self.buffers[ply] = std::mem::take(&mut children);
        if self.stopped {
            return 0;
        }
        if !on_this_line {
            self.record(key, banked, best, a0, b0, best_index, start_nodes);
        }
        best
    }

    /// The value of the non-terminal move `c` for the parent, proved inside the parent's
    /// window `(a, b)`.
    fn child_value(&mut self, c: &Child<G>, a: i32, b: i32, ply: usize) -> i32 {
        let (lo, hi) = if c.same { (a, b) } else { (b, a) };
        let cv = self.prove(&c.state, to_child(lo, c.same), to_child(hi, c.same), ply + 1);
        to_parent(cv, c.same)
    }

    /// A move among `children` whose position the table holds at `b` or above, as the
    /// parent's value and the move's index.
    fn transposition_cut(&self, children: &[Child<G>], b: i32) -> Option<(i32, u8)> {
        let table = self.table?;
        children.iter().filter(|c| c.terminal.is_none()).find_map(|c| {
            let e = table.probe(c.table_key?)?;
            let banked = self.game.solve_banked(&c.state);
            let bound = from_table(if c.same { e.lower } else { e.upper }, banked);
            let v = to_parent(bound, c.same);
            (v >= b).then_some((v, c.index))
        })
    }

    /// Records `value`, searched inside `(alpha, beta)`, in the table, for a position that
    /// has banked `banked`.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        key: Option<u64>,
        banked: i32,
        value: i32,
        alpha: i32,
        beta: i32,
        best: u8,
        start_nodes: u64,
    ) {
        let (Some(table), Some(k)) = (self.table, key) else { return };
        let lower = if value > alpha { value } else { -WIN - 1 };
        let upper = if value < beta { value } else { WIN + 1 };
        let work = (64 - (self.nodes - start_nodes).leading_zeros()) as u8;
        let (lower, upper) = (to_table(lower, banked), to_table(upper, banked));
        table.store(k, Entry { lower, upper, best, work });
    }

    /// The moves of `state` that the game asks to search ([`Game::solve_prune`]) as children,
    /// in the game's order, each with its value where it ends the game, and the game's floor
    /// under the value.
    fn children(
        &mut self,
        state: &G::State,
        me: Player,
        ply: usize,
    ) -> (Vec<Child<G>>, Option<Solved>) {
        let game = self.game;
        while self.buffers.len() <= ply {
            self.buffers.push(Vec::new());
            self.moves.push(MoveList::new());
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        game.generate_moves(state, &mut moves);
        let floor = game.solve_prune(state, &mut moves);
        let mut children = std::mem::take(&mut self.buffers[ply]);
        children.clear();
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            // The child's entries are read soon (the cutoff by transposition, then its own
            // search): fetching them all now overlaps their waits on memory. Where the game's
            // endgame answer holds the child, its proof-table entry is never read.
            let answered = game.solve_prefetch(&child);
            let table_key = self.table.filter(|_| !answered).and_then(|table| {
                let k = game.value_hash(&child)?;
                table.prefetch(k);
                Some(k)
            });
            let who = game.to_move(&child);
            let same = who == me;
            let terminal = game.outcome(&child).map(|o| to_parent(final_value(&o, who), same));
            let index = u8::try_from(i).unwrap_or(NO_MOVE);
            let history = (game.move_key(state, mv) as usize).min(self.history.len() - 1);
            children.push(Child {
                state: child,
                mv,
                index,
                same,
                key: 0.0,
                replies: 0,
                terminal,
                history,
                table_key,
            });
        }
        self.moves[ply] = moves;
        (children, floor)
    }

    /// Puts `children` best first: by the game's order key ([`Game::solve_order`], by default
    /// the evaluation of the position each leads to; behind the opponent's replies,
    /// fastest-first), then by history; threads after the first rotate the order near the root
    /// so that they prove other moves first.
    fn order(&self, state: &G::State, children: &mut [Child<G>], me: Player, ply: usize) {
        for c in children.iter_mut() {
            c.replies = match c.terminal {
                // A game that ends: first where it is good for the mover, else last.
                Some(v) if v > 0 => 0,
                Some(_) => u32::MAX,
                None if self.fastest_first && !c.same => {
                    self.game.count_moves(&c.state).min(1 << 16) as u32
                }
                None => 0,
            };
            c.key = if let Some(v) = c.terminal {
                f64::from(v) * 1e6
            } else if self.order_by_eval {
                self.game.solve_order(state, c.mv, &c.state, me)
            } else {
                0.0
            };
        }
        let history = &self.history;
        children.sort_by(|x, y| {
            x.replies
                .cmp(&y.replies)
                .then(y.key.total_cmp(&x.key))
                .then(history[y.history].cmp(&history[x.history]))
        });
        if self.id > 0 && ply < 4 && children.len() > 2 {
            let shift = (self.id + ply) % (children.len() - 1);
            children[1..].rotate_left(shift);
        }
    }
}
