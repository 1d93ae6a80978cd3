//! The [`Game`] trait and the small types every game shares: [`Player`], [`Outcome`],
//! [`MoveList`] and the [`Score`] bound on evaluations.

use std::fmt::{self, Debug};
use std::ops::{Add, Neg, Sub};

use num_traits::{Bounded, NumCast, Zero};
use smallvec::SmallVec;

/// A seat at the table: player 0 moves first, then 1, and so on up to `num_players() - 1`.
///
/// ```
/// use ply::Player;
/// let p = Player::new(1);
/// assert_eq!(p.index(), 1);
/// assert_eq!(p.next(3), Player::new(2));
/// assert_eq!(Player::new(2).next(3), Player::new(0));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Player(pub u8);

impl Player {
    /// The first player (the one who moves first in most games).
    pub const FIRST: Player = Player(0);
    /// The second player.
    pub const SECOND: Player = Player(1);

    /// The player with this seat index.
    ///
    /// # Panics
    /// If `index` does not fit in a `u8` (no game has 256 players).
    #[inline]
    pub const fn new(index: usize) -> Player {
        assert!(index < 256, "player index out of range");
        Player(index as u8)
    }

    /// The seat index, `0..num_players`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The player after this one in a game of `num_players`.
    #[inline]
    pub const fn next(self, num_players: usize) -> Player {
        Player(((self.0 as usize + 1) % num_players) as u8)
    }

    /// The other player of a two-player game.
    #[inline]
    pub const fn opponent(self) -> Player {
        Player(self.0 ^ 1)
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0 + 1)
    }
}

/// How many moves a [`MoveList`] holds before it spills to the heap.
///
/// 64 covers the start and middle game of every bundled ruleset; lists that spill keep their
/// heap buffer when cleared, and search reuses one list per ply, so a spill costs one allocation
/// per ply of the search, not one per node.
pub const MOVE_LIST_INLINE: usize = 64;

/// The caller-owned buffer that [`Game::generate_moves`] fills.
pub type MoveList<M> = SmallVec<[M; MOVE_LIST_INLINE]>;

/// The result of a finished game, for every player.
///
/// Two-player games usually report [`Outcome::Winner`] or [`Outcome::Draw`]; games that end
/// with a score per player (Reversi disc counts) report [`Outcome::Scores`], from which ranks
/// and rewards are derived (higher is better, equal scores share a rank).
#[derive(Clone, PartialEq, Debug)]
pub enum Outcome {
    /// One player won; every other player lost.
    Winner(Player),
    /// Nobody won.
    Draw,
    /// A final score for each player, indexed by seat; higher is better.
    Scores(SmallVec<[i32; 4]>),
}

impl Outcome {
    /// The outcome for a game with one score per seat.
    pub fn from_scores(scores: &[i32]) -> Outcome {
        Outcome::Scores(scores.iter().copied().collect())
    }

    /// `player`'s rank, 1 for the best; tied players share the mean of their places
    /// (two players tied for first both get 1.5).
    pub fn rank(&self, player: Player, num_players: usize) -> f64 {
        match self {
            Outcome::Winner(w) if *w == player => 1.0,
            // The losers share places 2..=n.
            Outcome::Winner(_) => (2 + num_players) as f64 / 2.0,
            Outcome::Draw => (1 + num_players) as f64 / 2.0,
            Outcome::Scores(s) => {
                let mine = s[player.index()];
                let better = s.iter().filter(|&&x| x > mine).count();
                let equal = s.iter().filter(|&&x| x == mine).count();
                better as f64 + (1 + equal) as f64 / 2.0
            }
        }
    }

    /// `player`'s reward in `[0, 1]`: 1 for sole first place, 0 for sole last place, linear in
    /// the rank between. With two players this is 1 for a win, 0.5 for a draw and 0 for a loss.
    pub fn reward(&self, player: Player, num_players: usize) -> f64 {
        if num_players <= 1 {
            return match self {
                Outcome::Winner(_) => 1.0,
                Outcome::Draw => 0.5,
                Outcome::Scores(s) => {
                    if s[0] > 0 {
                        1.0
                    } else {
                        0.0
                    }
                }
            };
        }
        (num_players as f64 - self.rank(player, num_players)) / (num_players as f64 - 1.0)
    }

    /// `player`'s score minus the best score among the other players (for [`Outcome::Scores`]);
    /// +1, 0 or -1 for a win, draw or loss otherwise. Used where a search maximises the margin,
    /// such as exact Othello endgame solving.
    pub fn margin(&self, player: Player) -> i32 {
        match self {
            Outcome::Winner(w) => {
                if *w == player {
                    1
                } else {
                    -1
                }
            }
            Outcome::Draw => 0,
            Outcome::Scores(s) => {
                let mine = s[player.index()];
                let best_other = s
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != player.index())
                    .map(|(_, &x)| x)
                    .max()
                    .unwrap_or(0);
                mine - best_other
            }
        }
    }
}

/// The longest distance to a proven end that a [`Score`] can express; longer ones saturate.
pub const MAX_MATE_PLIES: u32 = 1000;

/// The numeric type of a game's heuristic evaluation (`i32`, `i64`, `f32`, `f64`, ...).
///
/// Search needs the arithmetic of [`num_traits`] plus a range for proven results: every
/// heuristic value must lie strictly inside `(-Score::WIN_RANGE, Score::WIN_RANGE)` so that a
/// proven win ([`Score::win_in`]) always outranks any evaluation.
pub trait Score:
    Copy
    + PartialOrd
    + Debug
    + Send
    + Sync
    + 'static
    + Zero
    + Bounded
    + NumCast
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
{
    /// The value of a win in zero plies; a win in `n` plies is `WIN - n`.
    const WIN: Self;
    /// Evaluations must stay below this magnitude; anything at or above it is a proven result.
    const WIN_RANGE: Self;

    /// The value of a win `plies` plies from now (shorter wins are larger).
    fn win_in(plies: u32) -> Self;

    /// Converts to `f64` for reports and MCTS rewards.
    fn to_f64(self) -> f64;

    /// Converts from `f64`, rounding toward zero for integer types and saturating at the
    /// type's range.
    fn from_f64(value: f64) -> Self;

    /// The smallest value above `self` (`self + 1` for integers, the next representable
    /// number for floats; the largest value stays itself). Principal-variation search probes
    /// with the null window `(alpha, alpha.successor())`, which no score lies strictly
    /// inside, so a tie with `alpha` fails low.
    fn successor(self) -> Self;

    /// True if this value is a proven win or loss rather than a heuristic.
    fn is_proven(self) -> bool {
        self >= Self::WIN_RANGE || self <= -Self::WIN_RANGE
    }

    /// For a proven result, the number of plies to the end of the game.
    fn plies_to_end(self) -> Option<u32> {
        if !self.is_proven() {
            return None;
        }
        let magnitude = if self < Self::zero() { -self } else { self };
        Some((Self::WIN - magnitude).to_f64().round().max(0.0) as u32)
    }
}

macro_rules! impl_score_int {
    ($($t:ty),*) => {$(
        impl Score for $t {
            const WIN: Self = <$t>::MAX / 4;
            const WIN_RANGE: Self = <$t>::MAX / 4 - MAX_MATE_PLIES as $t;
            #[inline]
            fn win_in(plies: u32) -> Self {
                Self::WIN - (plies.min(MAX_MATE_PLIES) as $t)
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn from_f64(value: f64) -> Self {
                // `as` saturates at the type's range and maps NaN to zero.
                value as $t
            }
            #[inline]
            fn successor(self) -> Self {
                self.saturating_add(1)
            }
        }
    )*};
}
impl_score_int!(i16, i32, i64);

macro_rules! impl_score_float {
    ($($t:ty),*) => {$(
        impl Score for $t {
            const WIN: Self = 1.0e9;
            const WIN_RANGE: Self = 1.0e9 - MAX_MATE_PLIES as $t;
            #[inline]
            fn win_in(plies: u32) -> Self {
                Self::WIN - (plies.min(MAX_MATE_PLIES) as $t)
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn from_f64(value: f64) -> Self {
                value as $t
            }
            #[inline]
            fn successor(self) -> Self {
                if self.is_nan() || self == <$t>::INFINITY {
                    self
                } else if self == 0.0 {
                    <$t>::from_bits(1)
                } else if self > 0.0 {
                    <$t>::from_bits(self.to_bits() + 1)
                } else {
                    <$t>::from_bits(self.to_bits() - 1)
                }
            }
        }
    )*};
}
impl_score_float!(f32, f64);

/// The rules of a turn-based, perfect-information game for one or more players.
///
/// A `Game` value is a rules object: board size, player count and rule flags are runtime
/// fields of `self`, and every method takes `&self`. Positions are [`Game::State`] values;
/// moves are small `Copy` values of [`Game::Move`].
///
/// # Copy-make
///
/// [`Game::apply`] changes a state in place; search copies the parent first (copy-make). The
/// bundled rulesets keep their states to a few dozen bytes of bitboards, for which a copy is
/// cheaper than recording and replaying undo information, and copy-make lets MCTS and
/// parallel search share states without an undo stack. History that does not fit in a small
/// state (repeated positions) is kept outside it: see [`Game::hash`] and
/// [`Game::repetition_limit`].
///
/// # Contract
///
/// Every implementation guarantees, and `ply::testing` (feature `testing`) checks on random games:
///
/// 1. `generate_moves` clears the list and fills it with every legal move, each once, in a
///    deterministic order (the same state always gives the same list). It never allocates
///    beyond the list's own growth.
/// 2. A state is terminal exactly when it has no legal move: `outcome(s).is_some()` if and only
///    if `generate_moves(s)` is empty. A game where a player must pass generates an explicit
///    pass move.
/// 3. `apply` with a move from the current list never panics and produces a valid state.
///    Applying a move that was not generated is a contract break: it may panic or produce a
///    nonsense state, but it is never undefined behaviour.
/// 4. `outcome` is well formed: a [`Outcome::Winner`] names a seat below `num_players()`, and
///    [`Outcome::Scores`] has exactly `num_players()` entries.
/// 5. `to_move` is a seat below `num_players()`. Any turn order is allowed: players need not
///    alternate or take turns in seat order, and a move may leave the same player to move
///    again (an extra turn, as in Kalah). Every search, book and table follows `to_move` of
///    each position and never assumes who moves next.
/// 6. `evaluate` is finite and strictly inside `±Score::WIN_RANGE` for every state and player.
/// 7. If `hash` returns `Some` for one state it returns `Some` for all; equal states have equal
///    hashes. The hash identifies the *position*: the pieces, the player to move and every
///    rule state that changes the legal moves, so a hash collision between positions reached
///    in play is rare (a 64-bit Zobrist hash). It leaves out counters that only serve draw
///    rules (plies since the last capture), so that a repeated position hashes equally and
///    [`Game::repetition_limit`] can see it. Two states with equal hashes have the same player
///    to move and the same legal moves.
/// 8. Cloned states are independent: applying a move to a clone leaves the original as it was.
/// 9. Every game ends: from any state, every sequence of legal moves reaches a terminal state
///    (a move counter in the state is the usual way to guarantee this).
///
/// A game value is shared by the threads of a parallel search, so it is `Sync` (rules are
/// immutable data; a cache inside one would need a lock or an atomic).
///
/// # Example
///
/// The tutorial game [`crate::games::ConnectFour`] implements this trait in about 150 lines:
///
/// ```
/// use ply::{Game, MoveList};
/// use ply::games::ConnectFour;
///
/// let game = ConnectFour::standard();
/// let mut state = game.initial_state();
/// let mut moves = MoveList::new();
/// game.generate_moves(&state, &mut moves);
/// assert_eq!(moves.len(), 7);
/// game.apply(&mut state, moves[3]);
/// assert!(game.outcome(&state).is_none());
/// ```
pub trait Game: Sync {
    /// A position: everything the rules need to continue the game.
    type State: Clone + Eq + Debug + Send + Sync + 'static;
    /// A move. Small and `Copy`; it may carry precomputed data (captured squares) to make
    /// `apply` fast and equality exact.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;
    /// The numeric type of [`Game::evaluate`].
    type Score: Score;

    /// The start position under these rules.
    fn initial_state(&self) -> Self::State;

    /// How many players take part (1 or more).
    fn num_players(&self) -> usize;

    /// The player whose turn it is in `state`: any seat, whoever moved last (see contract
    /// point 5).
    fn to_move(&self, state: &Self::State) -> Player;

    /// Clears `moves` and writes every legal move of `state` into it (empty when terminal).
    fn generate_moves(&self, state: &Self::State, moves: &mut MoveList<Self::Move>);

    /// Plays `mv`, which must be a legal move of `state`, changing `state` in place.
    fn apply(&self, state: &mut Self::State, mv: Self::Move);

    /// The result if `state` is terminal, `None` while the game goes on.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// A heuristic value of a non-terminal `state` from `player`'s point of view: larger is
    /// better for `player`. Two-player zero-sum games should make `evaluate(s, p) ==
    /// -evaluate(s, p.opponent())`.
    fn evaluate(&self, state: &Self::State, player: Player) -> Self::Score;

    /// A 64-bit hash of `state`, or `None` if the game does not provide one. Transposition
    /// tables and repetition detection are off without it. It may be kept up to date by
    /// `apply` (Zobrist keys) or computed here from the state (for bitboards,
    /// [`crate::zobrist::fold_words`] over the words).
    fn hash(&self, _state: &Self::State) -> Option<u64> {
        None
    }

    /// A hash of everything that decides `state`'s exact value, for exact solving's table of
    /// proven values ([`crate::solve`]): [`Game::hash`] (the default) together with the
    /// counters of draw rules that `hash` leaves out so that repeated positions are recognised
    /// (checkers' plies without a capture or a man's move, draughts' king-move and endgame
    /// counters). Two states with equal value hashes must have the same value under perfect
    /// play, less what each has banked ([`Game::solve_banked`]); `None` leaves the table out.
    fn value_hash(&self, state: &Self::State) -> Option<u64> {
        self.hash(state)
    }

    /// The part of `state`'s final margin that the player to move has already banked and that
    /// no later move changes (Kalah's store difference; the default 0), for exact solving's
    /// table ([`crate::solve`]): it keeps a position's value less this, so that positions
    /// whose [`Game::value_hash`] leaves the banked part out share one entry. Only games that
    /// end with scores bank anything; a margin plus what is banked stays far below the
    /// solver's scale of wins.
    fn solve_banked(&self, _state: &Self::State) -> i32 {
        0
    }

    /// Whether `state` is quiet enough to evaluate. Search does not stop at a state that is not
    /// quiet (a capture is pending and must be played): it keeps searching every legal move
    /// there, up to a quiescence depth limit. The default treats every state as quiet.
    fn is_quiet(&self, _state: &Self::State) -> bool {
        true
    }

    /// How many times the same position (equal [`Game::hash`]) may occur in a game before it
    /// is drawn: `Some(3)` for threefold repetition, `None` (the default) when the rules have no
    /// repetition draw. Repetition depends on the game's history, which the state does not
    /// hold: [`crate::Record`] applies the rule in play and search treats a repetition inside
    /// its own tree as a draw.
    fn repetition_limit(&self) -> Option<u32> {
        None
    }

    /// The size of this game's move-key space: every [`Game::move_key`] is below it. `0` (the
    /// default) means the game gives no keys, and search then orders moves without history.
    ///
    /// Keys let search keep statistics per move (history and killer heuristics, MCTS priors)
    /// in flat tables, without making and hashing the child position first. A key space of a
    /// few thousand entries is usual: `from * squares + to` for a board game.
    fn move_key_space(&self) -> u32 {
        0
    }

    /// A small integer naming `mv` (a legal move of `state`), below [`Game::move_key_space`].
    /// Moves that do the same thing in similar positions (same piece kind, same from and to
    /// squares) should share a key; two different legal moves of one state may share a key,
    /// which only blurs the statistics. The default is `0`.
    fn move_key(&self, _state: &Self::State, _mv: Self::Move) -> u32 {
        0
    }

    /// How perft counts a game that ends before the last ply: `false` (the default) counts it
    /// as no leaf, `true` as one leaf. Published tables differ: Othello's (Aart Bik's, and
    /// every table derived from it) count a finished game as a leaf, so Reversi says `true`
    /// and `ply::perft` then matches them.
    fn perft_counts_finished_games(&self) -> bool {
        false
    }

    /// A specialised exact solver for positions near the end, if the game has one: a solver
    /// that searches (say the last twelve empty squares of Othello, `ply_reversi`'s `endgame`
    /// module) or an endgame database ([`crate::endgame::Tables`]) that looks the position up.
    /// A margin solver answers [`Solved::Margin`], the final [`Outcome::margin`] for the player
    /// to move under perfect play, searched fail-soft inside `(alpha, beta)` (a result
    /// `<= alpha` is an upper bound, `>= beta` a lower bound); a database answers
    /// [`Solved::Win`], [`Solved::Loss`] or [`Solved::Draw`] with the distance to the end.
    /// Alpha-beta asks it through its one endgame hook,
    /// [`Evaluator::solve`](crate::eval::Evaluator::solve), whose default calls this method.
    /// The solver counts the positions it visits on `budget` and gives up with `None` as soon
    /// as [`SolverBudget::visit`] says stop (the search's time is up). `None` (the default)
    /// also when the position is not one it solves, which it must tell cheaply: the search
    /// asks at every node. Alpha-beta takes the answer as the exact value of the subtree (as
    /// a margin with
    /// [`margin_scores`](crate::search::alphabeta::AlphaBetaOptions::margin_scores), else as
    /// a win, draw or loss).
    fn solve_endgame(
        &self,
        _state: &Self::State,
        _alpha: i32,
        _beta: i32,
        _budget: &mut SolverBudget<'_>,
    ) -> Option<Solved> {
        None
    }

    /// Starts fetching from memory what [`Game::solve_endgame`] will read for `state` (an
    /// endgame table's entry), without waiting for it, and says whether that read will answer
    /// `state` exactly (then the solver fetches nothing else for it: its proof-table entry
    /// is never read). The exact solver calls it on every move's position as it generates a
    /// position's moves, so that the lookups overlap instead of waiting on memory one after
    /// another. The default fetches nothing and answers `false`; a game whose `solve_endgame`
    /// reads a large table gains by overriding it (Kalah's seed table:
    /// [`MarginTable::prefetch`](crate::endgame::MarginTable::prefetch)).
    fn solve_prefetch(&self, _state: &Self::State) -> bool {
        false
    }

    /// The number of legal moves of `state`. Perft uses it for bulk counting at the last ply;
    /// a ruleset can override it with a faster count that builds no list.
    fn count_moves(&self, state: &Self::State) -> u64 {
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        moves.len() as u64
    }

    /// Passes the turn in `state` without a move (a *null move*, for null-move pruning), and
    /// says whether it did. Null-move pruning assumes that moving is never worse than passing;
    /// in games with zugzwang (checkers endings, Connect Four's odd and even threats) that is
    /// false, and such a game keeps the default, which leaves the state as it is and answers
    /// false. A game that allows it flips the player to move (and keeps its hash consistent)
    /// and may decline case by case, say with few pieces left.
    fn null_move(&self, _state: &mut Self::State) -> bool {
        false
    }

    /// True if the search should look one ply deeper after the move from `state` to `child`
    /// (a capture still pending, a promotion, a threat that needs an answer). The default
    /// extends nothing; alpha-beta also extends moves that are the only legal reply, with
    /// [`extensions`](crate::search::alphabeta::AlphaBetaOptions::extensions) on.
    fn extends(&self, _state: &Self::State, _child: &Self::State) -> bool {
        false
    }

    /// True if the player to move in the quiet `state` faces a threat that an evaluation
    /// misjudges: one the opponent would carry out if it were its turn (in checkers, a
    /// capture). With [`threats`](crate::search::alphabeta::AlphaBetaOptions::threats) on,
    /// alpha-beta searches such a position at the horizon one ply more instead of evaluating
    /// it, so that the player may answer and quiescence resolves what is left. The default
    /// sees no threat.
    fn is_threatened(&self, _state: &Self::State) -> bool {
        false
    }

    /// True if exact solving ([`crate::solve`]) should try first the moves that leave the
    /// opponent the fewest replies (fastest-first, the evaluation breaking ties), rather than
    /// order by the evaluation alone. It pays where restricting the opponent shrinks proofs
    /// most: Othello's 20-empty positions need a third of the positions with it, Kalah's four
    /// times more. The default orders by the evaluation.
    fn solve_fastest_first(&self) -> bool {
        false
    }

    /// Leaves out of `moves` (the legal moves of `state`, in the game's order) moves that exact
    /// solving ([`crate::solve`]) need not search, and answers a floor under the value where it
    /// knows one cheaply. Every move left out must be no better for the player to move, under
    /// perfect play and counting the plies to the end, than some move kept, and at least one
    /// move stays; the floor (a value the position is worth at least) holds for the moves
    /// kept. Connect Four, where the player to move cannot win at once, leaves out the moves
    /// that let the opponent win at once (a loss in two plies, the quickest) and, where some
    /// move does not, answers the floor `Solved::Loss(4)`, as Pons' solver does. The default
    /// keeps every move and knows no floor.
    fn solve_prune(
        &self,
        _state: &Self::State,
        _moves: &mut MoveList<Self::Move>,
    ) -> Option<Solved> {
        None
    }

    /// How promising the move `mv` from `state` to `child`, played by `player`, looks to exact
    /// solving's move ordering (with
    /// [`SolveOptions::order_by_eval`](crate::solve::SolveOptions)): moves are tried highest
    /// first. The default is the evaluation of `child` for `player`; a game may answer
    /// something cheaper that finds refutations as well (Connect Four counts `player`'s
    /// threats, the squares where a disc would complete a line, central columns first, as
    /// Pons' solver does).
    fn solve_order(
        &self,
        _state: &Self::State,
        _mv: Self::Move,
        child: &Self::State,
        player: Player,
    ) -> f64 {
        self.evaluate(child, player).to_f64()
    }
}

/// The answer of a game's exact solver ([`Game::solve_endgame`]) for the player to move.
///
/// ```
/// use ply::Solved;
/// assert_eq!(Solved::Win(3).margin(), 1);
/// assert_eq!(Solved::Margin(-6).margin(), -6);
/// assert_eq!(Solved::Loss(4).plies(), Some(4));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Solved {
    /// The final margin under perfect play (fail-soft inside the window asked), length
    /// unknown.
    Margin(i32),
    /// A win in this many plies.
    Win(u32),
    /// A loss in this many plies.
    Loss(u32),
    /// A draw.
    Draw,
}

impl Solved {
    /// The margin: the one given, or 1, 0 and -1 for a win, a draw and a loss.
    pub fn margin(self) -> i32 {
        match self {
            Solved::Margin(m) => m,
            Solved::Win(_) => 1,
            Solved::Loss(_) => -1,
            Solved::Draw => 0,
        }
    }

    /// The plies to the end of the game, where the solver knows them (wins and losses).
    pub fn plies(self) -> Option<u32> {
        match self {
            Solved::Win(n) | Solved::Loss(n) => Some(n),
            Solved::Margin(_) | Solved::Draw => None,
        }
    }
}

/// What a game's endgame solver ([`Game::solve_endgame`]) may spend: it counts the positions
/// visited, and every 4096 of them asks the search whether to stop (its time is up); after
/// that every [`SolverBudget::visit`] says stop, and the solver unwinds.
///
/// ```
/// use ply::SolverBudget;
/// let mut budget = SolverBudget::unlimited();
/// assert!(!budget.visit());
/// assert_eq!(budget.nodes(), 1);
/// let stop = || true;
/// let mut limited = SolverBudget::new(&stop);
/// assert!((0..5000).any(|_| limited.visit()) && limited.stopped());
/// ```
pub struct SolverBudget<'a> {
    nodes: u64,
    stop: &'a dyn Fn() -> bool,
    stopped: bool,
}

impl<'a> SolverBudget<'a> {
    /// A budget that stops once `stop` returns true.
    pub fn new(stop: &'a dyn Fn() -> bool) -> Self {
        SolverBudget { nodes: 0, stop, stopped: false }
    }

    /// A budget that never stops.
    pub fn unlimited() -> SolverBudget<'static> {
        fn never() -> bool {
            false
        }
        SolverBudget::new(&never)
    }

    /// Counts one position; true if the solver must stop now.
    #[inline(always)]
    pub fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 4095 == 0 {
            self.poll();
        }
        self.stopped
    }

    #[cold]
    #[inline(never)]
    fn poll(&mut self) {
        if !self.stopped {
            self.stopped = (self.stop)();
        }
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// True once the solver was told to stop: its answer is not to be used.
    pub fn stopped(&self) -> bool {
        self.stopped
    }
}

/// Text forms of moves and positions, for games that have them.
///
/// Move notation may depend on the position (a short capture form can be ambiguous), so moves
/// are formatted and parsed against a state. Implementations usually delegate to the ruleset's
/// own `Display`/`FromStr` types. `ply::testing` (feature `testing`) checks that formatting then parsing gives
/// back the same move and position.
pub trait Notation: Game {
    /// The error for text that is not a move or position of this game.
    type Error: std::error::Error + Send + Sync + 'static;

    /// The standard text of `mv`, a legal move of `state`.
    fn format_move(&self, state: &Self::State, mv: Self::Move) -> String;

    /// Reads a legal move of `state` from `text`.
    ///
    /// # Errors
    /// If `text` is malformed, or names no legal move of `state`, or is ambiguous.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, Self::Error>;

    /// The standard text of a position (FEN or the game's equivalent).
    fn format_state(&self, state: &Self::State) -> String;

    /// Reads a position of this game from `text`.
    ///
    /// # Errors
    /// If `text` is malformed or describes a position these rules cannot have.
    fn parse_state(&self, text: &str) -> Result<Self::State, Self::Error>;

    /// A multi-line picture of `state` for a terminal, with coordinates, marking the squares
    /// of `last_move` (the move that led to `state`) if given. With `color` the picture may use
    /// ANSI colours; without, it must be plain text. The default prints
    /// [`Notation::format_state`].
    fn render(&self, state: &Self::State, last_move: Option<Self::Move>, color: bool) -> String {
        let _ = (last_move, color);
        self.format_state(state)
    }

    /// The picture of [`Notation::render`] as `viewer` sees the board: in a game with sides,
    /// `viewer`'s side at the bottom, so where `render` puts it at the top the board is
    /// turned half round (rows and columns reversed, coordinates moving with their squares;
    /// never a mirror image). The default, for games without sides, is `render`.
    fn render_for(
        &self,
        state: &Self::State,
        last_move: Option<Self::Move>,
        color: bool,
        viewer: Player,
    ) -> String {
        let _ = viewer;
        self.render(state, last_move, color)
    }

    /// The position as a grid of cells for a graphical front end (see [`crate::diagram`]),
    /// or `None` (the default) for a game that has no grid: a front end then shows
    /// [`Notation::render`]'s text and lists the moves.
    fn diagram(&self, state: &Self::State) -> Option<crate::diagram::Diagram> {
        let _ = state;
        None
    }

    /// The cells of [`Notation::diagram`] that `mv`, a legal move of `state`, visits, in
    /// order: where it starts, each landing, where it ends (one cell for a drop, none for a
    /// pass). The default, for games without a diagram, is none.
    fn move_cells(&self, state: &Self::State, mv: Self::Move) -> Vec<usize> {
        let _ = (state, mv);
        Vec::new()
    }

    /// A whole game as a file: the start position `start` and the legal sequence `moves`, in
    /// the record format players of this game exchange (PDN for draughts games, GGF for
    /// Othello). The default is ply's own text, [`record::write_text`](crate::record::write_text).
    fn write_record(&self, start: &Self::State, moves: &[Self::Move]) -> String {
        crate::record::write_text(self, start, moves)
    }

    /// Reads a game written by [`Notation::write_record`] (and, where the format allows,
    /// by other programs): the start position and the moves, checked to be legal.
    ///
    /// # Errors
    /// A [`ReadRecordError`](crate::record::ReadRecordError) naming the line that cannot be
    /// read or whose move cannot be played.
    fn read_record(
        &self,
        text: &str,
    ) -> Result<(Self::State, Vec<Self::Move>), crate::record::ReadRecordError> {
        crate::record::read_text(self, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties() {
        let o = Outcome::from_scores(&[10, 20, 20, 5]);
        assert_eq!(o.rank(Player(1), 4), 1.5);
        assert_eq!(o.rank(Player(2), 4), 1.5);
        assert_eq!(o.rank(Player(0), 4), 3.0);
        assert_eq!(o.rank(Player(3), 4), 4.0);
        assert_eq!(o.reward(Player(3), 4), 0.0);
        assert_eq!(o.reward(Player(1), 4), (4.0 - 1.5) / 3.0);
    }

    #[test]
    fn two_player_rewards() {
        assert_eq!(Outcome::Winner(Player(0)).reward(Player(0), 2), 1.0);
        assert_eq!(Outcome::Winner(Player(0)).reward(Player(1), 2), 0.0);
        assert_eq!(Outcome::Draw.reward(Player(1), 2), 0.5);
        assert_eq!(Outcome::from_scores(&[40, 24]).margin(Player(1)), -16);
    }

    #[test]
    fn rewards_sum_to_constant() {
        let o = Outcome::from_scores(&[3, 1, 3]);
        let total: f64 = (0..3).map(|p| o.reward(Player::new(p), 3)).sum();
        assert!((total - 1.5).abs() < 1e-12);
    }

    #[test]
    fn proven_scores() {
        assert!(i32::win_in(3).is_proven());
        assert!(i32::win_in(3) > i32::win_in(5));
        assert_eq!(i32::win_in(7).plies_to_end(), Some(7));
        assert_eq!((-f64::win_in(4)).plies_to_end(), Some(4));
        assert!(!1000i32.is_proven());
        assert_eq!(i16::from_f64(1e9), i16::MAX);
    }
}
