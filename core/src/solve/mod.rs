//! Exact solving for any two-player (or one-player) game: a position's value under perfect
//! play, proved by searching every line to the end.
//!
//! The [`Solver`] runs null-window tests (is the value above `t`?) of a fail-soft alpha-beta
//! proof search and narrows the value between them by bisection, as dedicated solvers do
//! (Pons' Connect Four solver, MTD(f)-style endgame solvers); once an answer shows a margin
//! (a game scored by points), each test asks whether the value passes the bound the last
//! answer gave, stepping towards it (MTD(f)). Below each test:
//!
//! - a two-tier table of proven bounds (a slot kept for the costliest proof beside one always
//!   replaced), shared without locks by every thread, its margins kept less what the position
//!   has banked ([`Game::solve_banked`]: Kalah's stores) so that such positions share entries;
//! - enhanced transposition cutoffs in a proof's first plies (a move whose position the table
//!   holds above the window cuts without a search), a win at once found before any other move
//!   is searched;
//! - reads from memory started early: as a position's moves are generated, what the game's
//!   endgame answer will read ([`Game::solve_prefetch`]), else their table entries, are
//!   fetched together;
//! - move ordering from the table's best move, the game's order key of each move
//!   ([`Game::solve_order`], by default its evaluation) and a history of cutoffs;
//! - the game's pruning of moves no better than one it keeps, and its floor under the value
//!   ([`Game::solve_prune`]: Connect Four's threats, as in Pons' solver);
//! - the game's own exact answers and cheap bounds through [`Game::solve_endgame`] (Kalah's
//!   store bound and seed table, Othello's last empties, endgame databases);
//! - parallel proving: every thread proves the same test with its own move order near the
//!   root (Lazy SMP), and the first to finish answers.
//!
//! Values are exact: the final margin for games that end with scores ([`Outcome::Scores`](crate::Outcome::Scores)),
//! else a win, draw or loss with the number of plies to the end under perfect play (the
//! winner hurrying, the loser holding out). Positions that repeat one on the current line are
//! scored as draws.
//!
//! ```
//! use ply::games::TicTacToe;
//! use ply::solve::{Exact, SolveOptions, Solver};
//! use ply::Game;
//!
//! let game = TicTacToe;
//! let mut solver = Solver::new(&game, SolveOptions::default())?;
//! let start = game.initial_state();
//! let solution = solver.solve(&start, &|| false, &mut |_| {})?;
//! assert_eq!(solution.value, Exact::Draw);
//! assert_eq!(solution.best.len(), 9); // every first move keeps the draw
//! # Ok::<(), ply::solve::SolveError>(())
//! ```

mod prove;
mod table;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, MoveList};

use prove::{final_value, to_child, to_parent, Prover, DECIDED, WIN};
use table::ProofTable;

/// The stack of each proving thread: proofs recurse to the end of the game.
const STACK_BYTES: usize = 256 << 20;

/// What a [`Solver`] may use.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// The size of the table of proven bounds, in MiB (0: no table).
    pub table_mib: usize,
    /// Proving threads (at least 1).
    pub threads: usize,
    /// Settle only win, draw or loss (the sign of a margin), not the distance or the margin.
    pub weak: bool,
    /// Order moves by the game's order key ([`Game::solve_order`], by default its evaluation
    /// of the position they lead to), else by history alone.
    pub order_by_eval: bool,
    /// Try the moves that leave the opponent the fewest replies first, the evaluation
    /// breaking ties; `None` follows the game ([`Game::solve_fastest_first`]).
    pub fastest_first: Option<bool>,
}

impl Default for SolveOptions {
    /// A 256 MiB table, one thread, exact values, moves ordered by the evaluation (and the
    /// opponent's replies where the game asks for it).
    fn default() -> Self {
        SolveOptions {
            table_mib: 256,
            threads: 1,
            weak: false,
            order_by_eval: true,
            fastest_first: None,
        }
    }
}

/// The exact value of a position for its player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    /// A win in this many plies (`None` when only the result was settled).
    Win(Option<u32>),
    /// A draw (a final margin of 0).
    Draw,
    /// A loss in this many plies (`None` when only the result was settled).
    Loss(Option<u32>),
    /// The final margin (the mover's score minus the best other score) for games that end
    /// with scores.
    Margin(i32),
}

impl Exact {
    /// The value as one number: the margin, or 1, 0 and -1 for a win, a draw and a loss.
    ///
    /// ```
    /// use ply::solve::Exact;
    /// assert_eq!(Exact::Win(Some(7)).value(), 1);
    /// assert_eq!(Exact::Margin(-4).value(), -4);
    /// ```
    pub fn value(self) -> i32 {
        match self {
            Exact::Win(_) => 1,
            Exact::Draw => 0,
            Exact::Loss(_) => -1,
            Exact::Margin(m) => m,
        }
    }

    /// The plies to the end, where known.
    pub fn plies(self) -> Option<u32> {
        match self {
            Exact::Win(d) | Exact::Loss(d) => d,
            Exact::Draw | Exact::Margin(_) => None,
        }
    }

    /// The value of a search value.
    fn of(value: i32) -> Exact {
        if value > DECIDED {
            Exact::Win(Some((WIN - value) as u32))
        } else if value < -DECIDED {
            Exact::Loss(Some((WIN + value) as u32))
        } else if value == 0 {
            Exact::Draw
        } else {
            Exact::Margin(value)
        }
    }

    /// The result alone of a search value.
    fn sign_of(value: i32) -> Exact {
        match value.signum() {
            1 => Exact::Win(None),
            -1 => Exact::Loss(None),
            _ => Exact::Draw,
        }
    }
}

impl fmt::Display for Exact {
    /// `win in 13 plies`, `draw`, `loss`, `+10`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plies = |d: &Option<u32>| match d {
            Some(1) => " in 1 ply".to_string(),
            Some(d) => format!(" in {d} plies"),
            None => String::new(),
        };
        match self {
            Exact::Win(d) => write!(f, "win{}", plies(d)),
            Exact::Draw => write!(f, "draw"),
            Exact::Loss(d) => write!(f, "loss{}", plies(d)),
            Exact::Margin(m) => write!(f, "{m:+}"),
        }
    }
}

/// A solved position.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    /// The value for the player to move.
    pub value: Exact,
    /// Every move that keeps the value, in the game's move order (none at the end of the
    /// game).
    pub best: Vec<M>,
    /// Positions visited by every thread.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// Where a solve stands after each null-window test: the value lies in `[lower, upper]`.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// Tests run so far.
    pub tests: u32,
    /// The lowest value still possible (`None`: no bound yet).
    pub lower: Option<Exact>,
    /// The highest value still possible (`None`: no bound yet).
    pub upper: Option<Exact>,
    /// Positions visited so far.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: Duration,
}

/// Why a position could not be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The game has more than two players.
    Players(usize),
    /// The caller's stop said stop before the value was settled.
    Stopped,
    /// The operating system refused a proving thread.
    Thread(String),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Players(n) => {
                write!(f, "exact solving handles one- and two-player games; this one has {n}")
            }
            SolveError::Stopped => write!(f, "stopped before the value was settled"),
            SolveError::Thread(e) => write!(f, "cannot start a proving thread: {e}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// An exact solver for the positions of one game (see the module documentation); its table
/// stays between calls, so positions of one game solve faster one after another.
pub struct Solver<'g, G: Game> {
    game: &'g G,
    options: SolveOptions,
    table: Option<ProofTable>,
    histories: Vec<Vec<u32>>,
    nodes: u64,
}

impl<'g, G: Game> Solver<'g, G>
where
    G::State: Send + Sync,
{
    /// A solver for `game`.
    ///
    /// # Errors
    /// [`SolveError::Players`] for a game of more than two players.
    pub fn new(game: &'g G, options: SolveOptions) -> Result<Self, SolveError> {
        if game.num_players() > 2 {
            return Err(SolveError::Players(game.num_players()));
        }
        let table = (options.table_mib > 0 && game.value_hash(&game.initial_state()).is_some())
            .then(|| ProofTable::with_mib(options.table_mib));
        let histories = vec![Vec::new(); options.threads.max(1)];
        Ok(Solver { game, options, table, histories, nodes: 0 })
    }

    /// The bytes of the table of proven bounds (0 without one: a game with no hash).
    pub fn table_bytes(&self) -> usize {
        self.table.as_ref().map_or(0, ProofTable::bytes)
    }

    /// Solves `state`: its value and every move that keeps it. `stop` is asked every few
    /// thousand positions (a time or memory limit, Ctrl-C); `progress` hears after each
    /// null-window test.
    ///
    /// # Errors
    /// [`SolveError::Stopped`] when `stop` said stop first.
    pub fn solve(
        &mut self,
        state: &G::State,
        stop: &(dyn Fn() -> bool + Sync),
        progress: &mut dyn FnMut(&Step),
    ) -> Result<Solution<G::Move>, SolveError> {
        let started = Instant::now();
        self.nodes = 0;
        let value = self.search_value(state, stop, progress, started)?;
        let threshold = match (self.options.weak, value.signum()) {
            (false, _) => value,
            (true, 1) => 1,
            (true, 0) => 0,
            (true, _) => -WIN - 1,
        };
        let mut best = Vec::new();
        for (mv, child, same) in self.children(state) {
            let (lo, hi) = (threshold - 1, threshold);
            let (lo, hi) = if same { (lo, hi) } else { (hi, lo) };
            let r = self.test(&child, to_child(lo, same), to_child(hi, same), stop)?;
            if to_parent(r, same) >= threshold {
                best.push(mv);
            }
        }
        let exact = self.exact(value);
        Ok(Solution { value: exact, best, nodes: self.nodes, elapsed: started.elapsed() })
    }

    /// The value of `state` alone, without the moves that keep it: what [`Solver::solve`]
    /// proves first.
    ///
    /// # Errors
    /// [`SolveError::Stopped`] when `stop` said stop first.
    pub fn value(
        &mut self,
        state: &G::State,
        stop: &(dyn Fn() -> bool + Sync),
        progress: &mut dyn FnMut(&Step),
    ) -> Result<Exact, SolveError> {
        self.nodes = 0;
        let value = self.search_value(state, stop, progress, Instant::now())?;
        Ok(self.exact(value))
    }

    /// The exact value of a search value.
    fn exact(&self, value: i32) -> Exact {
        match self.options.weak {
            true => Exact::sign_of(value),
            false => Exact::of(value),
        }
    }

    /// Every move of `state` with its exact value for the player to move in `state` (as
    /// Pons' solver's `-a`), in the game's move order.
    ///
    /// # Errors
    /// [`SolveError::Stopped`] when `stop` said stop first.
    pub fn analyse(
        &mut self,
        state: &G::State,
        stop: &(dyn Fn() -> bool + Sync),
        progress: &mut dyn FnMut(&Step),
    ) -> Result<Vec<(G::Move, Exact)>, SolveError> {
        let started = Instant::now();
        self.nodes = 0;
        let mut values = Vec::new();
        for (mv, child, same) in self.children(state) {
            let v = to_parent(self.search_value(&child, stop, progress, started)?, same);
            values.push((mv, self.exact(v)));
        }
        Ok(values)
    }

    /// Positions visited by the last [`Solver::solve`], [`Solver::value`] or
    /// [`Solver::analyse`], every thread.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The moves of `state`, each with the position it leads to and whether the same player
    /// moves there.
    fn children(&self, state: &G::State) -> Vec<(G::Move, G::State, bool)> {
        let game = self.game;
        let mut moves = MoveList::new();
        if game.outcome(state).is_none() {
            game.generate_moves(state, &mut moves);
        }
        let me = game.to_move(state);
        moves
            .into_iter()
            .map(|mv| {
                let mut child = state.clone();
                game.apply(&mut child, mv);
                let same = game.to_move(&child) == me;
                (mv, child, same)
            })
            .collect()
    }

    /// The search value of `state` (`None` when the game is over): bisection by null-window
    /// tests, halving towards a draw, until an answer shows a margin; then null-window tests
    /// at the bound the last answer gave (MTD(f)).
    fn search_value(
        &mut self,
        state: &G::State,
        stop: &(dyn Fn() -> bool + Sync),
        progress: &mut dyn FnMut(&Step),
        started: Instant,
    ) -> Result<i32, SolveError> {
        if let Some(outcome) = self.game.outcome(state) {
            return Ok(final_value(&outcome, self.game.to_move(state)));
        }
        if self.options.weak {
            // Only the sign: above 0, else above -1 (at least and so exactly 0)?
            let r = self.test(state, 0, 1, stop)?;
            if r > 0 {
                return Ok(r);
            }
            let r = self.test(state, -1, 0, stop)?;
            return Ok(r.min(0));
        }
        let (mut lower, mut upper) = (1 - WIN, WIN - 1);
        let mut tests = 0;
        // Whether an answer has shown a margin (a value short of a decided win or loss), and
        // whether the last test failed high.
        let (mut margins, mut rose) = (false, false);
        while lower < upper {
            // The first test asks whether the value is above a draw, the next (where it is
            // not) whether it is a draw. Wins and losses are then bisected towards the
            // extremes first, as in Pons' solver, because short wins and losses are cheap to
            // prove. Once a margin has shown, each test asks whether the value passes the
            // bound the last answer gave (MTD(f), the fail-soft answers stepping towards the
            // value): tests far from the value are cheap, and the last two prove it. On
            // Kalah(6,4) that visits 0.81 of the positions of one principal variation search
            // over the values still possible, on Othello's 20-empty positions 0.92.
            let mut t = lower + (upper - lower) / 2;
            if tests == 0 {
                t = 0;
            } else if margins {
                t = if rose { lower } else { upper - 1 };
            } else if upper == 0 {
                t = -1;
            } else if t <= 0 && lower / 2 < t {
                t = lower / 2;
            } else if t >= 0 && upper / 2 > t {
                t = upper / 2;
            }
            let t = t.clamp(lower, upper - 1);
            let r = self.test(state, t, t + 1, stop)?;
            margins |= r != 0 && r.abs() < DECIDED;
            rose = r > t;
            if rose {
                lower = r;
            } else {
                upper = r;
            }
            tests += 1;
            let settled = lower >= upper;
            progress(&Step {
                tests,
                lower: (settled || lower > 1 - WIN).then(|| Exact::of(lower)),
                upper: (settled || upper < WIN - 1).then(|| Exact::of(upper)),
                nodes: self.nodes,
                elapsed: started.elapsed(),
            });
        }
        Ok(lower)
    }

    /// One null-window test of `state` inside `(alpha, beta)` on every thread: the first
    /// thread to finish answers.
    fn test(
        &mut self,
        state: &G::State,
        alpha: i32,
        beta: i32,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<i32, SolveError> {
        let done = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let answer = std::sync::Mutex::new(None);
        let (game, table, order) = (self.game, self.table.as_ref(), self.options.order_by_eval);
        let fastest = self.options.fastest_first.unwrap_or_else(|| game.solve_fastest_first());
        let histories = std::mem::take(&mut self.histories);
        let count = histories.len();
        let kept = std::sync::Mutex::new(vec![Vec::new(); count]);
        let spawned = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for (id, history) in histories.into_iter().enumerate() {
                let (done, nodes, answer, kept) = (&done, &nodes, &answer, &kept);
                let work = move || {
                    let mut prover = Prover::new(game, table, done, stop, id, history);
                    prover.order_by_eval = order;
                    prover.fastest_first = fastest;
                    let r = prover.test(state, alpha, beta);
                    if let Some(r) = r {
                        let mut answer = answer.lock().unwrap_or_else(|e| e.into_inner());
                        answer.get_or_insert(r);
                        done.store(true, Ordering::Relaxed);
                    }
                    nodes.fetch_add(prover.nodes, Ordering::Relaxed);
                    kept.lock().unwrap_or_else(|e| e.into_inner())[id] = prover.history;
                };
                let handle = std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, work)
                    .map_err(|e| SolveError::Thread(e.to_string()));
                handles.push(handle);
            }
            handles.into_iter().try_for_each(|h| {
                h.map(|h| {
                    if let Err(panic) = h.join() {
                        std::panic::resume_unwind(panic);
                    }
                })
            })
        });
        self.histories = kept.into_inner().unwrap_or_else(|e| e.into_inner());
        self.nodes += nodes.into_inner();
        spawned?;
        answer.into_inner().unwrap_or_else(|e| e.into_inner()).ok_or(SolveError::Stopped)
    }
}
