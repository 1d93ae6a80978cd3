//! The rules object [`Reversi`] and its [`Game`] implementation.

use std::fmt;
use std::sync::Arc;

use ply::eval::Evaluator;
use ply::{Game, MoveList, Outcome, Player, Solved, SolverBudget};

use crate::board::{
    bit_set, bit_test, bits_count, bits_is_empty, bits_or, for_each_bit, Bits, ReversiMove,
    ReversiState, NO_BITS,
};
use crate::eval::Evaluation;
use crate::movegen::{flips64, mobility256, mobility64, othello_flips, Rays, OTHELLO_INTERIOR};
use crate::Error;

/// Which move generator a board uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// 2 players on 8x8: `u64` flood fills with constant shifts.
    Othello,
    /// Any player count on boards up to 8x8: `u64` flood fills with runtime shifts.
    Small,
    /// Boards from 9x9 to 16x16: ray walks over 256-bit sets.
    Large,
}

/// Tables built once per rules object and shared by its clones.
struct Tables {
    rays: Rays,
}

/// What [`Reversi::key`] starts from for each player to move.
const SIDE_SEEDS: [u64; 4] =
    [0x005e_ed0f_5e7e_5a11, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1, 0x510e_527f_ade6_82d1];

/// Reversi for 2 to 4 players on a square board from 4x4 to 16x16.
///
/// A move places a disc of the player to move on an empty square so that at least one straight
/// line (in any of the 8 directions) runs from it over one or more discs of other players (any
/// mix of them) to a disc of the mover; every such line is flipped to the mover. A player with
/// no such placement passes (an explicit [`ReversiMove::Pass`]) while any other player can
/// still place; when nobody can, the game is over and [`Game::outcome`] gives every player's
/// disc count as [`Outcome::Scores`].
///
/// Two players on 8x8 is standard Othello and uses a `u64` bitboard fast path; see the crate
/// documentation for the start layouts of 3 and 4 players.
///
/// ```
/// use ply::{Game, MoveList, Notation};
/// use ply_reversi::Reversi;
///
/// let game = Reversi::new(8, 2)?;
/// let state = game.initial_state();
/// let mut moves = MoveList::new();
/// game.generate_moves(&state, &mut moves);
/// assert_eq!(moves.len(), 4);
/// assert_eq!(game.format_move(&state, moves[0]), "d3");
/// # Ok::<(), ply_reversi::Error>(())
/// ```
#[derive(Clone)]
pub struct Reversi {
    size: usize,
    players: usize,
    kind: Kind,
    interior: u64,
    interior256: Bits,
    board: Bits,
    /// How many of a player's four words the board uses.
    words: usize,
    start: ReversiState,
    evaluation: Evaluation,
    endgame_empties: u32,
    /// Whether [`Game::solve_endgame`] answers windows outside the final margin's range.
    margin_bounds: bool,
    tables: Arc<Tables>,
}

impl fmt::Debug for Reversi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reversi")
            .field("size", &self.size)
            .field("players", &self.players)
            .field("evaluation", &self.evaluation)
            .finish_non_exhaustive()
    }
}

impl Reversi {
    /// The rules for `players` players on a `size`x`size` board, starting from the standard
    /// layout (see the crate documentation).
    ///
    /// # Errors
    /// [`Error::Size`] unless `4 <= size <= 16`, [`Error::Players`] unless
    /// `2 <= players <= 4`.
    pub fn new(size: usize, players: usize) -> Result<Reversi, Error> {
        if !(4..=16).contains(&size) {
            return Err(Error::Size(size));
        }
        if !(2..=4).contains(&players) {
            return Err(Error::Players(players));
        }
        let kind = match (size, players) {
            (8, 2) => Kind::Othello,
            (s, _) if s <= 8 => Kind::Small,
            _ => Kind::Large,
        };
        let mut board = NO_BITS;
        let mut interior = 0u64;
        let mut interior256 = NO_BITS;
        for r in 0..size {
            for c in 0..size {
                bit_set(&mut board, r * size + c);
                if c > 0 && c + 1 < size {
                    bit_set(&mut interior256, r * size + c);
                    if size <= 8 {
                        interior |= 1 << (r * size + c);
                    }
                }
            }
        }
        let mut game = Reversi {
            size,
            players,
            kind,
            interior,
            interior256,
            board,
            words: (size * size).div_ceil(64),
            start: ReversiState::empty(size),
            evaluation: Evaluation::default(),
            endgame_empties: Self::ENDGAME_EMPTIES,
            margin_bounds: false,
            tables: Arc::new(Tables { rays: Rays::new(size) }),
        };
        game.start = game.standard_layout();
        Ok(game)
    }

    /// The rules for `players` players starting from the position `text` (rows of `.` and
    /// `1`..`4` joined by `/`, optionally followed by a space and the player to move, `1` by
    /// default); the board size is the number of rows.
    ///
    /// ```
    /// use ply::Game;
    /// use ply_reversi::Reversi;
    ///
    /// let game = Reversi::from_position("...../.123./.231./.312./..... 2", 3)?;
    /// assert_eq!(game.size(), 5);
    /// assert_eq!(game.to_move(&game.initial_state()).index(), 1);
    /// # Ok::<(), ply_reversi::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::ParsePosition`] for malformed text or a player number above `players`, and
    /// [`Error::Players`] for a bad player count.
    pub fn from_position(text: &str, players: usize) -> Result<Reversi, Error> {
        let rows = text.split_whitespace().next().unwrap_or("");
        let size = rows.split('/').filter(|r| !r.is_empty()).count();
        if !(4..=16).contains(&size) {
            return Err(Error::position(text, format!("{size} rows: expected 4..=16")));
        }
        let mut game = Reversi::new(size, players)?;
        game.start = game.parse_position(text)?;
        Ok(game)
    }

    /// These rules with `evaluation` as the heuristic of [`Game::evaluate`].
    pub fn with_evaluation(mut self, evaluation: Evaluation) -> Reversi {
        self.evaluation = evaluation;
        self
    }

    /// Empty squares at and below which Othello positions are solved exactly by the
    /// bitboard solver of [`crate::endgame`] when a search asks ([`Game::solve_endgame`]).
    pub const ENDGAME_EMPTIES: u32 = 12;

    /// The same game with the endgame solver answering at and below `empties` empty squares
    /// (0 turns it off); the default is [`Reversi::ENDGAME_EMPTIES`]. Only Othello (2 players,
    /// 8x8) has the solver.
    pub fn with_endgame_empties(mut self, empties: u32) -> Reversi {
        self.endgame_empties = empties;
        self
    }

    /// The same game with [`Game::solve_endgame`] answering, for two players, any window that
    /// lies outside the final disc difference's range (plus or minus the board's squares) at
    /// once, with that bound. For exact solving ([`ply::solve`], whose first tests lie there):
    /// a depth-limited search's scores are the evaluation's, which may exceed that range, so
    /// it stays off by default.
    pub fn with_margin_bounds(mut self, on: bool) -> Reversi {
        self.margin_bounds = on;
        self
    }

    /// These rules starting from `state` instead of the standard layout.
    ///
    /// # Errors
    /// [`Error::ParsePosition`] if `state` has another board size or discs of a player beyond
    /// this game's player count.
    pub fn with_start(mut self, state: ReversiState) -> Result<Reversi, Error> {
        self.check_state(&state)
            .map_err(|reason| Error::position(&state.rows().join("/"), reason))?;
        self.start = state;
        Ok(self)
    }

    /// The side length of the board.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The heuristic used by [`Game::evaluate`].
    pub fn evaluation(&self) -> Evaluation {
        self.evaluation
    }

    /// True for two players on 8x8 (standard Othello, the bitboard fast path).
    pub fn is_othello(&self) -> bool {
        self.kind == Kind::Othello
    }

    /// The placement on (`column`, `row`), counted from the top-left corner (0, 0).
    ///
    /// # Panics
    /// If the square is off the board.
    pub fn place(&self, column: usize, row: usize) -> ReversiMove {
        assert!(column < self.size && row < self.size, "square ({column}, {row}) is off the board");
        ReversiMove::Place((row * self.size + column) as u8)
    }

    /// The (`column`, `row`) of a placement, `None` for a pass.
    pub fn coordinates(&self, mv: ReversiMove) -> Option<(usize, usize)> {
        mv.square().map(|sq| (sq % self.size, sq / self.size))
    }

    /// The standard start layout of this size and player count, player 1 to move.
    fn standard_layout(&self) -> ReversiState {
        let n = self.size;
        let mut s = ReversiState::empty(n);
        let mut put = |r: usize, c: usize, p: usize| bit_set(&mut s.discs[p], r * n + c);
        match self.players {
            2 => {
                let c = n / 2;
                put(c - 1, c - 1, 1);
                put(c - 1, c, 0);
                put(c, c - 1, 0);
                put(c, c, 1);
            }
            3 => {
                let t = (n - 3) / 2;
                for r in 0..3 {
                    for c in 0..3 {
                        put(t + r, t + c, (r + c) % 3);
                    }
                }
            }
            _ if n == 4 => {
                // The 2x2 block `12/43` and a second disc per player, turned a quarter turn
                // (renumbered) from player to player: `..1./412./.432/.3..`.
                for (r, c, p) in [(0, 2, 0), (1, 0, 3), (1, 1, 0), (1, 2, 1)] {
                    put(r, c, p);
                    put(3 - r, 3 - c, (p + 2) % 4);
                }
            }
            _ => {
                // The block `12/43` tiled 2x2; on odd boards half a square down-left of the
                // centre.
                let (top, left) = ((n - 3) / 2, (n - 4) / 2);
                for r in 0..4 {
                    for c in 0..4 {
                        put(top + r, left + c, [[0, 1], [3, 2]][r % 2][c % 2]);
                    }
                }
            }
        }
        s
    }

    /// Why `state` cannot be a position of these rules, if it cannot.
    pub(crate) fn check_state(&self, state: &ReversiState) -> Result<(), String> {
        if state.size() != self.size {
            return Err(format!("board is {0}x{0}, expected {1}x{1}", state.size(), self.size));
        }
        for p in self.players..4 {
            if !bits_is_empty(&state.discs[p]) {
                return Err(format!(
                    "player {} has discs in a {}-player game",
                    p + 1,
                    self.players
                ));
            }
        }
        if state.to_move as usize >= self.players {
            return Err(format!(
                "player {} to move in a {}-player game",
                state.to_move + 1,
                self.players
            ));
        }
        Ok(())
    }

    /// The hash of `state` ([`Game::hash`]), computed from the position when asked rather
    /// than kept up to date by every move: the board words of each player in turn, folded
    /// through SplitMix64's mixer from a seed for the player to move. Two players on 8x8 fold
    /// two words.
    #[inline]
    pub(crate) fn key(&self, state: &ReversiState) -> u64 {
        let seed = SIDE_SEEDS[state.to_move as usize & 3];
        state.discs[..self.players]
            .iter()
            .fold(seed, |h, discs| ply::zobrist::fold_words(h, &discs[..self.words]))
    }

    /// A state of these rules from a board given as rows of `.` and `1`..`4` (top row first)
    /// and the player to move.
    ///
    /// # Errors
    /// [`Error::ParsePosition`] if the rows do not make a board of this size or name a player
    /// beyond this game's count.
    pub fn state_from_rows<S: AsRef<str>>(
        &self,
        rows: &[S],
        to_move: Player,
    ) -> Result<ReversiState, Error> {
        let text = rows.iter().map(|r| r.as_ref()).collect::<Vec<_>>().join("/");
        let n = self.size;
        if rows.len() != n {
            return Err(Error::position(&text, format!("{} rows, expected {n}", rows.len())));
        }
        let mut s = ReversiState::empty(n);
        for (r, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            let len = row.chars().count();
            if len != n {
                return Err(Error::position(
                    &text,
                    format!("row {} has {len} cells, expected {n}", r + 1),
                ));
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '.' => {}
                    '1'..='4' => {
                        let p = ch as usize - '1' as usize;
                        if p >= self.players {
                            return Err(Error::position(
                                &text,
                                format!("player {ch} in a {}-player game", self.players),
                            ));
                        }
                        bit_set(&mut s.discs[p], r * n + c);
                    }
                    other => {
                        return Err(Error::position(
                            &text,
                            format!(
                                "unexpected character {other:?}: expected . or 1..{}",
                                self.players
                            ),
                        ));
                    }
                }
            }
        }
        if to_move.index() >= self.players {
            return Err(Error::position(
                &text,
                format!("{to_move} to move in a {}-player game", self.players),
            ));
        }
        s.to_move = to_move.0;
        Ok(s)
    }

    /// The empty squares.
    #[inline]
    fn empty_squares(&self, state: &ReversiState) -> Bits {
        let occ = state.occupied();
        [
            self.board[0] & !occ[0],
            self.board[1] & !occ[1],
            self.board[2] & !occ[2],
            self.board[3] & !occ[3],
        ]
    }

    /// The discs of everyone but `player`.
    #[inline]
    fn others(state: &ReversiState, player: usize) -> Bits {
        let mut o = NO_BITS;
        for q in 0..4 {
            if q != player {
                o = bits_or(&o, &state.discs[q]);
            }
        }
        o
    }

    /// The squares where `player` may place a disc in `state` (whoever is to move).
    #[inline]
    pub(crate) fn placements(&self, state: &ReversiState, player: usize) -> Bits {
        match self.kind {
            Kind::Othello => [Self::othello_placements(state, player), 0, 0, 0],
            Kind::Small => {
                let p = state.discs[player][0];
                let o = Self::others(state, player)[0];
                let empty = self.board[0] & !(p | o);
                [mobility64(p, o, empty, self.size as u32, self.interior), 0, 0, 0]
            }
            Kind::Large => {
                let o = Self::others(state, player);
                let empty = self.empty_squares(state);
                mobility256(&state.discs[player], &o, &empty, self.size as u32, &self.interior256)
            }
        }
    }

    /// [`Self::placements`] for two players on 8x8: one word.
    #[inline(always)]
    fn othello_placements(state: &ReversiState, player: usize) -> u64 {
        let (p, o) = (state.discs[player][0], state.discs[1 - player][0]);
        mobility64(p, o, !(p | o), 8, OTHELLO_INTERIOR)
    }

    /// True if `player` has at least one placement in `state`.
    #[inline]
    pub(crate) fn can_place(&self, state: &ReversiState, player: usize) -> bool {
        match self.kind {
            Kind::Othello | Kind::Small => self.placements(state, player)[0] != 0,
            Kind::Large => !bits_is_empty(&self.placements(state, player)),
        }
    }

    /// The number of placements `player` has in `state`, whoever is to move.
    pub fn mobility(&self, state: &ReversiState, player: Player) -> u32 {
        bits_count(&self.placements(state, player.index()))
    }

    /// The discs that `player` would flip by placing on the empty square `sq`.
    #[inline]
    pub(crate) fn flips(&self, state: &ReversiState, player: usize, sq: usize) -> Bits {
        match self.kind {
            Kind::Othello => {
                let p = state.discs[player][0];
                let o = state.discs[1 - player][0];
                [othello_flips(p, o, sq as u32), 0, 0, 0]
            }
            Kind::Small => {
                let p = state.discs[player][0];
                let o = Self::others(state, player)[0];
                [flips64(p, o, sq, self.size as u32, self.interior), 0, 0, 0]
            }
            Kind::Large => {
                self.tables.rays.flips(&Self::others(state, player), &state.discs[player], sq)
            }
        }
    }

    /// How many discs a placement by the player to move on (`column`, `row`) would flip
    /// (0 if the square is off the board or taken, or the placement is illegal).
    pub fn flip_count(&self, state: &ReversiState, column: usize, row: usize) -> u32 {
        if column >= self.size || row >= self.size {
            return 0;
        }
        let sq = row * self.size + column;
        if bit_test(&state.occupied(), sq) {
            return 0;
        }
        bits_count(&self.flips(state, state.to_move as usize, sq))
    }

    /// True if nobody can place a disc.
    pub fn is_over(&self, state: &ReversiState) -> bool {
        let first = state.to_move as usize;
        (0..self.players).all(|i| !self.can_place(state, (first + i) % self.players))
    }

    /// [`Game::apply`] for every board but Othello's, and for passes.
    #[inline(never)]
    fn apply_general(&self, state: &mut ReversiState, mv: ReversiMove) {
        match mv {
            ReversiMove::Place(sq) => {
                let sq = sq as usize;
                let flips = self.flips(state, state.to_move as usize, sq);
                self.place_with_flips(state, sq, &flips);
            }
            ReversiMove::Pass => {
                state.to_move = ((state.to_move as usize + 1) % self.players) as u8;
            }
        }
    }

    /// [`Game::count_moves`] for every board but Othello's.
    #[inline(never)]
    fn count_moves_general(&self, state: &ReversiState) -> u64 {
        let p = state.to_move as usize;
        let n = bits_count(&self.placements(state, p)) as u64;
        if n > 0 {
            return n;
        }
        u64::from((1..self.players).any(|i| self.can_place(state, (p + i) % self.players)))
    }

    /// [`Self::place_with_flips`] for two players on 8x8: one word per side.
    #[inline(always)]
    fn place_othello(&self, state: &mut ReversiState, sq: usize) {
        let p = state.to_move as usize;
        let (mine, theirs) = (state.discs[p][0], state.discs[1 - p][0]);
        let flips = othello_flips(mine, theirs, sq as u32);
        state.discs[p][0] = mine | flips | 1 << sq;
        state.discs[1 - p][0] = theirs & !flips;
        state.to_move = (1 - p) as u8;
    }

    /// Plays the placement on `sq` by the player to move, whose flips are `flips`.
    #[inline]
    fn place_with_flips(&self, state: &mut ReversiState, sq: usize, flips: &Bits) {
        let p = state.to_move as usize;
        for q in 0..self.players {
            if q != p {
                for w in 0..4 {
                    state.discs[q][w] &= !flips[w];
                }
            }
        }
        for w in 0..4 {
            state.discs[p][w] |= flips[w];
        }
        bit_set(&mut state.discs[p], sq);
        state.to_move = ((p + 1) % self.players) as u8;
    }
}

impl Game for Reversi {
    type State = ReversiState;
    type Move = ReversiMove;
    type Score = i32;

    fn initial_state(&self) -> ReversiState {
        self.start
    }

    fn num_players(&self) -> usize {
        self.players
    }

    fn to_move(&self, state: &ReversiState) -> Player {
        Player(state.to_move)
    }

    #[inline]
    fn generate_moves(&self, state: &ReversiState, moves: &mut MoveList<ReversiMove>) {
        moves.clear();
        let p = state.to_move as usize;
        if self.kind == Kind::Othello {
            let mut placements = Self::othello_placements(state, p);
            if placements == 0 {
                if Self::othello_placements(state, 1 - p) != 0 {
                    moves.push(ReversiMove::Pass);
                }
                return;
            }
            while placements != 0 {
                moves.push(ReversiMove::Place(placements.trailing_zeros() as u8));
                placements &= placements - 1;
            }
            return;
        }
        let placements = self.placements(state, p);
        for_each_bit(&placements, |sq| moves.push(ReversiMove::Place(sq as u8)));
        if moves.is_empty()
            && (1..self.players).any(|i| self.can_place(state, (p + i) % self.players))
        {
            moves.push(ReversiMove::Pass);
        }
    }

    /// The Othello placement is inlined into callers; the other cases are a call away.
    #[inline(always)]
    fn apply(&self, state: &mut ReversiState, mv: ReversiMove) {
        match mv {
            ReversiMove::Place(sq) if self.kind == Kind::Othello => {
                self.place_othello(state, sq as usize);
            }
            _ => self.apply_general(state, mv),
        }
    }

    fn outcome(&self, state: &ReversiState) -> Option<Outcome> {
        if !self.is_over(state) {
            return None;
        }
        let scores: Vec<i32> =
            (0..self.players).map(|p| state.count(Player::new(p)) as i32).collect();
        Some(Outcome::from_scores(&scores))
    }

    /// The game's [`Evaluation`].
    fn evaluate(&self, state: &ReversiState, player: Player) -> i32 {
        self.evaluation.evaluate(self, state, player)
    }

    fn hash(&self, state: &ReversiState) -> Option<u64> {
        Some(self.key(state))
    }

    /// The square of a placement (`0..size * size`), and `size * size` for a pass.
    fn move_key_space(&self) -> u32 {
        (self.size * self.size) as u32 + 1
    }

    #[inline]
    fn move_key(&self, _state: &ReversiState, mv: ReversiMove) -> u32 {
        match mv {
            ReversiMove::Place(sq) => u32::from(sq),
            ReversiMove::Pass => (self.size * self.size) as u32,
        }
    }

    /// Othello positions with at most [`Reversi::with_endgame_empties`] empty squares (12 by
    /// default), solved by [`crate::endgame::solve`]; with [`Reversi::with_margin_bounds`],
    /// any window outside the final margin's range, and above those empty squares any window
    /// above the bound the opponent's stable discs set ([`crate::endgame::stability_cutoff`]).
    #[inline]
    fn solve_endgame(
        &self,
        state: &ReversiState,
        alpha: i32,
        beta: i32,
        budget: &mut SolverBudget<'_>,
    ) -> Option<Solved> {
        if self.margin_bounds && self.players == 2 {
            // The final disc difference lies within plus or minus the board's squares: a
            // window outside that range has its fail-soft answer at once (the exact solver's
            // first tests, at the extremes of its scale, cost nothing).
            let squares = (self.size * self.size) as i32;
            if beta <= -squares {
                return Some(Solved::Margin(-squares));
            }
            if alpha >= squares {
                return Some(Solved::Margin(squares));
            }
        }
        if !self.is_othello() {
            return None;
        }
        let (p, o) = crate::endgame::bitboards(state)?;
        let empties = (!(p | o)).count_ones();
        if empties > self.endgame_empties {
            // Above the solver, the opponent's stable discs may still bound the value.
            return match self.margin_bounds {
                true => crate::endgame::stability_cutoff(p, o, alpha, empties).map(Solved::Margin),
                false => None,
            };
        }
        crate::endgame::solve(p, o, alpha, beta, budget).map(Solved::Margin)
    }

    /// Exact proofs are smallest when the opponent's mobility is cut first: 20-empty Othello
    /// positions take a third of the positions they take ordered by the evaluation alone.
    /// Othello's own order ([`Reversi::solve_order`]) counts the replies itself.
    fn solve_fastest_first(&self) -> bool {
        !self.is_othello()
    }

    /// On the 2-player 8x8 board, Edax's fast ordering ([`crate::endgame::order_key`]: the
    /// opponent's replies first, so Othello needs no fastest-first); elsewhere the evaluation.
    fn solve_order(
        &self,
        _state: &ReversiState,
        _mv: ReversiMove,
        child: &ReversiState,
        player: Player,
    ) -> f64 {
        if self.is_othello() {
            if let Some((p, o)) = crate::endgame::bitboards(child) {
                let (mine, theirs) = match child.to_move as usize == player.index() {
                    true => (p, o),
                    false => (o, p),
                };
                return -f64::from(crate::endgame::order_key(mine, theirs));
            }
        }
        f64::from(self.evaluate(child, player))
    }

    #[inline]
    /// Published Othello perft tables (Aart Bik's) count a game that ended before the last
    /// ply as one leaf; so does `ply::perft` here, to match them.
    fn perft_counts_finished_games(&self) -> bool {
        true
    }

    #[inline(always)]
    fn count_moves(&self, state: &ReversiState) -> u64 {
        let p = state.to_move as usize;
        if self.kind == Kind::Othello {
            let n = Self::othello_placements(state, p).count_ones();
            if n > 0 {
                return u64::from(n);
            }
            return u64::from(Self::othello_placements(state, 1 - p) != 0);
        }
        self.count_moves_general(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::{perft, PerftMode};

    /// The same rules on another move generator.
    fn on(game: &Reversi, kind: Kind) -> Reversi {
        let mut g = game.clone();
        g.kind = kind;
        g
    }

    /// The bitboard paths and the ray-walking path agree on move counts everywhere they both
    /// apply (the ray walker handles any size).
    #[test]
    fn move_generators_agree() {
        let othello = Reversi::new(8, 2).unwrap();
        let start = othello.initial_state();
        for depth in 1..=5 {
            let fast = perft(&othello, &start, depth, PerftMode::Bulk);
            assert_eq!(perft(&on(&othello, Kind::Small), &start, depth, PerftMode::Bulk), fast);
            assert_eq!(perft(&on(&othello, Kind::Large), &start, depth, PerftMode::MakeAll), fast);
        }
        for (size, players) in [(4, 2), (5, 3), (6, 4), (7, 3), (8, 4), (6, 2)] {
            let game = Reversi::new(size, players).unwrap();
            let start = game.initial_state();
            for depth in 1..=4 {
                assert_eq!(
                    perft(&game, &start, depth, PerftMode::MakeAll),
                    perft(&on(&game, Kind::Large), &start, depth, PerftMode::MakeAll),
                    "{size}x{size}, {players} players, depth {depth}"
                );
            }
        }
    }

    /// The 256-bit flood fill finds exactly the squares where a ray walk finds a flip, for
    /// every player, along random games on every size.
    #[test]
    fn flood_fill_matches_ray_walks() {
        for size in [4, 5, 9, 11, 12, 16] {
            for players in 2..=4 {
                let game = on(&Reversi::new(size, players).unwrap(), Kind::Large);
                let mut state = game.initial_state();
                let mut moves = MoveList::new();
                let mut i = 3usize;
                loop {
                    let occ = state.occupied();
                    let empty = game.empty_squares(&state);
                    for p in 0..players {
                        let mut slow = NO_BITS;
                        for_each_bit(&empty, |sq| {
                            if game.tables.rays.is_legal(&occ, &state.discs[p], sq) {
                                bit_set(&mut slow, sq);
                            }
                        });
                        assert_eq!(game.placements(&state, p), slow, "{state:?}");
                    }
                    game.generate_moves(&state, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    i = i.wrapping_mul(13).wrapping_add(7);
                    game.apply(&mut state, moves[i % moves.len()]);
                }
            }
        }
    }

    /// Played to the end on both generators, random lines reach the same states.
    #[test]
    fn generators_agree_along_whole_games() {
        for (size, players) in [(8, 2), (7, 3), (8, 4), (5, 2)] {
            let a = Reversi::new(size, players).unwrap();
            let b = on(&a, Kind::Large);
            let (mut sa, mut sb) = (a.initial_state(), b.initial_state());
            let (mut ma, mut mb) = (MoveList::new(), MoveList::new());
            let mut i = 1usize;
            loop {
                a.generate_moves(&sa, &mut ma);
                b.generate_moves(&sb, &mut mb);
                assert_eq!(ma, mb);
                assert_eq!(a.outcome(&sa), b.outcome(&sb));
                if ma.is_empty() {
                    break;
                }
                i = i.wrapping_mul(17).wrapping_add(5);
                let mv = ma[i % ma.len()];
                a.apply(&mut sa, mv);
                b.apply(&mut sb, mv);
                assert_eq!(sa, sb);
                assert_eq!(a.hash(&sa), b.hash(&sb));
            }
        }
    }

    /// The hash tells apart every distinct position of many random games, on every board
    /// kind, and counts the player to move.
    #[test]
    fn hashes_tell_positions_apart() {
        for (size, players) in [(8, 2), (6, 2), (7, 3), (8, 4), (10, 2), (16, 4)] {
            let game = Reversi::new(size, players).unwrap();
            let mut seen = std::collections::HashMap::new();
            ply::testing::visit_random_games(&game, 40, 400, 5, |state| {
                let h = game.hash(state).unwrap();
                assert_eq!(*seen.entry(h).or_insert(*state), *state, "{size}x{size}");
                let mut passed = *state;
                game.apply(&mut passed, ReversiMove::Pass);
                assert_ne!(game.hash(&passed), Some(h));
            });
            assert!(seen.len() > 1000, "{} positions", seen.len());
        }
    }

    /// Along seeded random games, every move key is below the key space, and almost every
    /// move of a position has a key of its own.
    #[test]
    fn move_keys_fit_and_mostly_differ() {
        let spread = ply::testing::move_key_spread(&Reversi::new(8, 2).unwrap(), 10, 7, 1000);
        assert!(spread.moves > 0 && spread.distinct * 100 >= spread.moves * 100, "{spread:?}");
    }

    /// Along seeded random games, every move key is below the key space, and almost every
    /// move of a position has a key of its own.
    #[test]
    fn move_keys_fit_on_the_largest_board() {
        let spread = ply::testing::move_key_spread(&Reversi::new(16, 4).unwrap(), 1, 7, 1000);
        assert!(spread.moves > 0 && spread.distinct * 100 >= spread.moves * 100, "{spread:?}");
    }
}
