//! The rules: the board geometry, the position, the move, and the [`Game`] implementation.

use ply::eval::Evaluator;
use ply::zobrist::{key_table, splitmix64};
use ply::{Game, MoveList, Outcome, Player};

use crate::error::Error;
use crate::eval::Standard;

/// The three forward steps of a pawn, as indices into [`Breakthrough`]'s step tables. Left and
/// right are seen from White's side: left is towards file `a`.
const LEFT: usize = 0;
const STRAIGHT: usize = 1;
const RIGHT: usize = 2;

/// One forward step for one player: how far the step moves a square's bit, and the squares
/// that can take it (a diagonal step to the left is impossible from file `a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    shift: u32,
    from: u64,
}

/// Zobrist keys: one per (player, square), and one more for Black to move. They are computed
/// at compile time, so they are the same on every run and every platform.
const PAWN_KEYS: [[u64; 64]; 2] = key_table(0xb7ea_4700_0000_0001);
const BLACK_TO_MOVE: u64 = splitmix64(0xb7ea_4700_0000_0002).1;

/// The rules of Breakthrough on a board of `cols` x `rows`.
///
/// White (player 0, `W`) starts on the two bottom rows and moves first, up the board; Black
/// (player 1, `B`) starts on the two top rows and moves down. A pawn steps one row forward,
/// straight or diagonally, onto an empty square, or captures an enemy pawn diagonally
/// forward (never straight). Captures are never forced. Reaching the far row, or taking the
/// last enemy pawn, wins.
///
/// The value holds only the board geometry (masks and shifts computed once by
/// [`Breakthrough::new`]); positions are [`BreakthroughState`] values.
///
/// ```
/// use ply::{Game, MoveList};
/// use ply_breakthrough::Breakthrough;
///
/// let game = Breakthrough::new(5, 6)?;
/// let state = game.initial_state();
/// let mut moves = MoveList::new();
/// game.generate_moves(&state, &mut moves);
/// // Five front pawns: 3 steps each in the middle, 2 on the edges.
/// assert_eq!(moves.len(), 13);
/// # Ok::<(), ply_breakthrough::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakthrough {
    cols: usize,
    rows: usize,
    /// Every square of the board: the low `cols * rows` bits.
    board: u64,
    /// The squares of each row, row 1 first; entries past `rows` stay empty.
    row_masks: [u64; 16],
    /// Each player's far row: reaching it wins.
    goal: [u64; 2],
    /// Each player's three forward steps, indexed by [`LEFT`], [`STRAIGHT`] and [`RIGHT`].
    steps: [[Step; 3]; 2],
}

/// A Breakthrough position: one bitboard of pawns per player and the player to move.
///
/// Square `(col, row)`, both counted from 0 at White's bottom-left corner (`a1`), is bit
/// `row * cols + col`. At 24 bytes the state is `Copy` and cheap to copy, so search copies
/// it instead of undoing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BreakthroughState {
    pawns: [u64; 2],
    side: Player,
}

/// A move: a pawn goes from square `from` to square `to` (bit indices, `row * cols + col`).
///
/// Whether the move captures follows from the position (an enemy pawn on `to`), so the move
/// does not store it. Moves are written `a2-a3`, or `b4xc5` for a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the pawn leaves.
    pub from: u8,
    /// The square the pawn lands on.
    pub to: u8,
}

impl Breakthrough {
    /// The standard game on an 8 x 8 board.
    pub fn standard() -> Breakthrough {
        Breakthrough::new(8, 8).expect("the standard board is valid")
    }

    /// The game on a board of `cols` columns (files `a`, `b`, ...) and `rows` rows (ranks
    /// `1`, `2`, ...).
    ///
    /// # Errors
    /// [`Error::Size`] unless `cols` is 3..=16, `rows` is 4..=16 and the board has at most 64
    /// squares, so that it fits in one `u64` bitboard.
    pub fn new(cols: usize, rows: usize) -> Result<Breakthrough, Error> {
        if !(3..=16).contains(&cols) || !(4..=16).contains(&rows) || cols * rows > 64 {
            return Err(Error::Size { cols, rows });
        }
        let board = u64::MAX >> (64 - cols * rows);
        let mut row_masks = [0; 16];
        for (r, mask) in row_masks.iter_mut().take(rows).enumerate() {
            *mask = ((1 << cols) - 1) << (r * cols);
        }
        let file_a = (0..rows).fold(0, |mask, r| mask | 1 << (r * cols));
        let last_file = file_a << (cols - 1);
        let (c, not_a, not_last) = (cols as u32, board & !file_a, board & !last_file);
        // White moves up the board (to higher bits), Black down: the same three steps with
        // the diagonal shifts swapped.
        let white = [
            Step { shift: c - 1, from: not_a },
            Step { shift: c, from: board },
            Step { shift: c + 1, from: not_last },
        ];
        let black = [
            Step { shift: c + 1, from: not_a },
            Step { shift: c, from: board },
            Step { shift: c - 1, from: not_last },
        ];
        Ok(Breakthrough {
            cols,
            rows,
            board,
            row_masks,
            goal: [row_masks[rows - 1], row_masks[0]],
            steps: [white, black],
        })
    }

    /// The number of columns (files).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The number of rows (ranks).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The bitboard of row `row`, counted from 0 at White's home row (rank 1); empty past
    /// the last row.
    pub fn row_mask(&self, row: usize) -> u64 {
        self.row_masks.get(row).copied().unwrap_or(0)
    }

    /// The squares that `pawns`, pawns of `player`, attack: the squares one step diagonally
    /// forward of them. A pawn of `player` that stands on such a square is defended; an enemy
    /// pawn there can be captured.
    ///
    /// # Panics
    /// If `player` is not 0 or 1.
    pub fn attacks(&self, player: Player, pawns: u64) -> u64 {
        let p = player.index();
        let [left, _, right] = self.steps[p];
        self.forward(p, pawns & left.from, left.shift)
            | self.forward(p, pawns & right.from, right.shift)
    }

    /// `bits` moved `shift` squares forward for player `p` (up the board for White, down for
    /// Black), dropping what leaves the board.
    #[inline]
    fn forward(&self, p: usize, bits: u64, shift: u32) -> u64 {
        (if p == 0 { bits << shift } else { bits >> shift }) & self.board
    }

    /// True when the player to move has already lost: the opponent's last move reached the
    /// far row or took the last pawn.
    #[inline]
    fn decided(&self, state: &BreakthroughState) -> bool {
        let us = state.side.index();
        state.pawns[us] == 0 || state.pawns[1 - us] & self.goal[1 - us] != 0
    }

    /// Where the pawns of the player to move can go with each step: `targets[LEFT]` holds
    /// every square that some pawn reaches with a left diagonal step, and so on. One shift
    /// and two masks per step compute the moves of all the pawns at once.
    #[inline]
    fn targets(&self, state: &BreakthroughState) -> [u64; 3] {
        let us = state.side.index();
        let (own, enemy) = (state.pawns[us], state.pawns[1 - us]);
        let empty = self.board & !(own | enemy);
        let mut targets = [0; 3];
        for (dir, step) in self.steps[us].iter().enumerate() {
            // Straight steps need an empty square; diagonal steps may also capture.
            let open = if dir == STRAIGHT { empty } else { empty | enemy };
            targets[dir] = self.forward(us, own & step.from, step.shift) & open;
        }
        targets
    }

    /// Pushes a move for every square of `to`, each reached by player `p`'s step `dir`: the
    /// pawn comes from one step back.
    #[inline]
    fn push_moves(&self, p: usize, dir: usize, mut to: u64, moves: &mut MoveList<Move>) {
        let shift = self.steps[p][dir].shift;
        while to != 0 {
            let square = to.trailing_zeros();
            to &= to - 1;
            let from = if p == 0 { square - shift } else { square + shift };
            moves.push(Move { from: from as u8, to: square as u8 });
        }
    }
}

impl BreakthroughState {
    /// The pawns of `player` (0 is White, 1 is Black), one bit per square.
    ///
    /// # Panics
    /// If `player` is not 0 or 1.
    pub fn pawns(&self, player: Player) -> u64 {
        self.pawns[player.index()]
    }

    /// The player whose pawn stands on `square`, if any (`None` off the board too).
    pub fn owner(&self, square: u8) -> Option<Player> {
        let bit = 1u64.checked_shl(square.into()).unwrap_or(0);
        [Player::FIRST, Player::SECOND].into_iter().find(|&p| self.pawns(p) & bit != 0)
    }

    /// The player to move: [`Player::FIRST`] (White) or [`Player::SECOND`] (Black).
    pub fn side_to_move(&self) -> Player {
        self.side
    }

    /// A position from its two bitboards, for the position reader in `notation.rs`.
    pub(crate) fn from_parts(pawns: [u64; 2], side: Player) -> BreakthroughState {
        BreakthroughState { pawns, side }
    }
}

impl Game for Breakthrough {
    type State = BreakthroughState;
    type Move = Move;
    type Score = i32;

    fn initial_state(&self) -> BreakthroughState {
        let m = &self.row_masks;
        let (white, black) = (m[0] | m[1], m[self.rows - 1] | m[self.rows - 2]);
        BreakthroughState { pawns: [white, black], side: Player::FIRST }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn to_move(&self, state: &BreakthroughState) -> Player {
        state.side
    }

    /// Captures first (a cheap move ordering for search), then the other moves; within each,
    /// by step and then by destination square.
    fn generate_moves(&self, state: &BreakthroughState, moves: &mut MoveList<Move>) {
        moves.clear();
        if self.decided(state) {
            return;
        }
        let us = state.side.index();
        let enemy = state.pawns[1 - us];
        let targets = self.targets(state);
        for dir in [LEFT, RIGHT] {
            self.push_moves(us, dir, targets[dir] & enemy, moves);
        }
        for dir in [LEFT, STRAIGHT, RIGHT] {
            self.push_moves(us, dir, targets[dir] & !enemy, moves);
        }
    }

    /// Moves the pawn, removes the enemy pawn on the destination if there is one (a capture)
    /// and passes the turn: three bit operations, whatever the move.
    fn apply(&self, state: &mut BreakthroughState, mv: Move) {
        let us = state.side.index();
        let (from, to) = (1u64 << mv.from, 1u64 << mv.to);
        state.pawns[us] ^= from | to;
        state.pawns[1 - us] &= !to;
        state.side = state.side.opponent();
    }

    /// The player to move loses when they have no move: after the opponent reached the far
    /// row or took the last pawn. (A player who still has pawns always has a move: the most
    /// advanced of them has no pawn of its own side ahead, so a diagonal step to an empty
    /// square or onto an enemy is open.)
    fn outcome(&self, state: &BreakthroughState) -> Option<Outcome> {
        (self.count_moves(state) == 0).then(|| Outcome::Winner(state.side.opponent()))
    }

    /// The [`Standard`] evaluation with its default weights.
    fn evaluate(&self, state: &BreakthroughState, player: Player) -> i32 {
        Standard::DEFAULT.evaluate(self, state, player)
    }

    /// Zobrist: the XOR of the key of every pawn on its square, and of a key for Black to
    /// move.
    /// Passes the turn: zugzwang is rare in Breakthrough, where a pawn can almost always
    /// step forward without harm.
    fn null_move(&self, state: &mut BreakthroughState) -> bool {
        state.side = state.side.opponent();
        true
    }

    fn hash(&self, state: &BreakthroughState) -> Option<u64> {
        let mut key = if state.side == Player::SECOND { BLACK_TO_MOVE } else { 0 };
        for (keys, &pawns) in PAWN_KEYS.iter().zip(&state.pawns) {
            let mut bits = pawns;
            while bits != 0 {
                key ^= keys[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        Some(key)
    }

    /// `squares * squares`: one key per (from, to) pair.
    fn move_key_space(&self) -> u32 {
        let squares = (self.cols * self.rows) as u32;
        squares * squares
    }

    /// `from * squares + to`. Pawns only move forward, so a White and a Black move never
    /// share a key.
    fn move_key(&self, _state: &BreakthroughState, mv: Move) -> u32 {
        u32::from(mv.from) * (self.cols * self.rows) as u32 + u32::from(mv.to)
    }

    /// Bulk counting: the number of squares in each step's target set, without a list.
    fn count_moves(&self, state: &BreakthroughState) -> u64 {
        if self.decided(state) {
            return 0;
        }
        self.targets(state).iter().map(|t| u64::from(t.count_ones())).sum()
    }
}
