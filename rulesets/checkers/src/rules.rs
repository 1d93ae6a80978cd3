//! The rules object [`EnglishCheckers`], its position type [`CheckersState`] and the
//! implementation of [`ply::Game`].

use std::fmt;
use std::str::FromStr;

use ply::eval::Evaluator;
use ply::{Game, MoveList, Outcome, Player};

use crate::bitboard::{Bits, Geometry};
use crate::error::{Error, ParseRulesError};
use crate::eval::{Classic, Weights};
use crate::movegen::{self, Side};
use crate::moves::Move;

/// Which English-checkers rules apply.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Rules {
    /// The Deepomatic challenge's rules (the default): a man that reaches the far row during a
    /// capture is crowned at once and keeps capturing, backwards too.
    #[default]
    Deepomatic,
    /// WCDF/ACF rules: a move ends when a man is crowned. Published perft figures use these.
    Standard,
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rules::Deepomatic => "deepomatic",
            Rules::Standard => "standard",
        })
    }
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// Reads `deepomatic` or `standard` (any case).
    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "deepomatic" => Ok(Rules::Deepomatic),
            "standard" => Ok(Rules::Standard),
            _ => Err(ParseRulesError(s.to_string())),
        }
    }
}

/// The draw rules that make every game between programs end. Both are on by default.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DrawRules {
    /// Draw when a position (placement and side to move) occurs this many times; `None` for
    /// no repetition draw. Applied by [`ply::Record`] and by search through
    /// [`Game::repetition_limit`].
    pub repetition: Option<u32>,
    /// Draw when this many plies in a row had no capture and no man move; `None` for no such
    /// rule. The default, 80, is 40 moves by each side.
    pub quiet_plies: Option<u16>,
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules { repetition: Some(3), quiet_plies: Some(80) }
    }
}

impl DrawRules {
    /// No draw rule at all (games between kings may then go on for ever).
    pub const NONE: DrawRules = DrawRules { repetition: None, quiet_plies: None };
}

/// A side: Black starts at the top of the board (row 0) and moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Player 0, on rows 0.. at the start, moving down the board.
    Black,
    /// Player 1, moving up the board.
    White,
}

impl Color {
    /// The seat of this colour.
    pub fn player(self) -> Player {
        Player::new(self.index())
    }

    /// The colour of a seat (0 Black, anything else White).
    pub fn of(player: Player) -> Color {
        if player.index() == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// 0 for Black, 1 for White.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// A piece: its colour and whether it is a king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// True for a king, false for a man.
    pub king: bool,
}

/// A position: the board size, the pieces on the dark squares, the side to move and the count
/// of plies since the last capture or man move.
///
/// Bitboards are over dark-square indices (square number minus one). [`Game::hash`] is mixed
/// from the bitboards and the side to move when asked (nothing is kept up to date by
/// [`Game::apply`]); it leaves out the ply counter, so that repeated positions have equal
/// hashes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CheckersState {
    pub(crate) pieces: [u128; 2],
    pub(crate) kings: u128,
    pub(crate) quiet_plies: u16,
    pub(crate) side: u8,
    pub(crate) size: u8,
}

impl CheckersState {
    /// An empty `size` x `size` board with `to_move` to play.
    pub(crate) fn empty(to_move: Color, size: usize) -> CheckersState {
        CheckersState {
            pieces: [0; 2],
            kings: 0,
            quiet_plies: 0,
            side: to_move.index() as u8,
            size: size as u8,
        }
    }

    /// The colour to move.
    pub fn to_move(&self) -> Color {
        if self.side == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The piece on dark square `sq` (0-based index), if any.
    pub fn piece(&self, sq: usize) -> Option<Piece> {
        if sq >= 128 {
            return None;
        }
        let b = 1u128 << sq;
        let king = self.kings & b != 0;
        if self.pieces[0] & b != 0 {
            Some(Piece { color: Color::Black, king })
        } else if self.pieces[1] & b != 0 {
            Some(Piece { color: Color::White, king })
        } else {
            None
        }
    }

    /// The pieces of `color` as a bitboard over dark-square indices.
    pub fn pieces(&self, color: Color) -> u128 {
        self.pieces[color.index()]
    }

    /// Every king on the board.
    pub fn kings(&self) -> u128 {
        self.kings
    }

    /// The board side N.
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// Plies since the last capture or man move.
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies
    }

    /// Puts `piece` on `sq` (which must be empty).
    pub(crate) fn put(&mut self, sq: usize, piece: Piece) {
        let b = 1u128 << sq;
        self.pieces[piece.color.index()] |= b;
        if piece.king {
            self.kings |= b;
        }
    }

    /// The hash of the pieces and the side to move: the bitboards' 64-bit words run through
    /// SplitMix64's mixer from a seed for the side to move. On 8x8 the high words are all
    /// empty and left out.
    #[inline]
    pub(crate) fn key(&self) -> u64 {
        use ply::zobrist::fold_words;
        let [black, white, kings] = [self.pieces[0], self.pieces[1], self.kings];
        let h = fold_words(
            SIDE_SEEDS[usize::from(self.side)],
            &[black as u64, white as u64, kings as u64],
        );
        if (black | white) >> 64 == 0 {
            return h;
        }
        fold_words(h, &[(black >> 64) as u64, (white >> 64) as u64, (kings >> 64) as u64])
    }

    /// The pieces seen from the side to move, narrowed to `B`.
    #[inline(always)]
    pub(crate) fn side<B: Bits>(&self) -> Side<B> {
        self.side_of(usize::from(self.side))
    }

    /// The pieces as the player not to move sees them.
    pub(crate) fn other_side<B: Bits>(&self) -> Side<B> {
        self.side_of(usize::from(self.side) ^ 1)
    }

    /// The pieces as colour `c` (0 Black, 1 White) sees them.
    #[inline(always)]
    fn side_of<B: Bits>(&self, c: usize) -> Side<B> {
        Side {
            own: B::from_u128(self.pieces[c]),
            opp: B::from_u128(self.pieces[c ^ 1]),
            kings: B::from_u128(self.kings),
            color: c,
        }
    }
}

impl fmt::Debug for CheckersState {
    /// The board as rows of `b`, `B`, `w`, `W` and `.` (dark squares) and spaces (light).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        let half = n / 2;
        writeln!(f, "{n}x{n}, {} to move, {} quiet plies", self.to_move(), self.quiet_plies)?;
        for r in 0..n {
            let line: String = (0..n)
                .map(|c| {
                    if (r + c) % 2 == 0 {
                        return ' ';
                    }
                    match self.piece(r * half + c / 2) {
                        Some(Piece { color: Color::Black, king: false }) => 'b',
                        Some(Piece { color: Color::Black, king: true }) => 'B',
                        Some(Piece { color: Color::White, king: false }) => 'w',
                        Some(Piece { color: Color::White, king: true }) => 'W',
                        None => '.',
                    }
                })
                .collect();
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

/// The one-square set of each dark-square index: a load instead of a 128-bit shift.
static SQUARE_BITS: [u128; 128] = {
    let mut bits = [0u128; 128];
    let mut sq = 0;
    while sq < 128 {
        bits[sq] = 1 << sq;
        sq += 1;
    }
    bits
};

/// The hash's starting value for each side to move.
const SIDE_SEEDS: [u64; 2] =
    [ply::zobrist::splitmix64(0x5eed).1, ply::zobrist::splitmix64(0x5eee).1];

/// The board geometry of one size, with the bitboard width that size uses.
#[derive(Clone, Debug)]
pub(crate) enum Geo {
    /// 8x8: 32 squares in a `u32`.
    Small(Geometry<u32>),
    /// Every other size, in a `u128`.
    Large(Geometry<u128>),
}

/// Runs `$body` with `$g` bound to the game's geometry, typed by its bitboard width.
macro_rules! with_geo {
    ($self:expr, $g:ident, $body:expr) => {
        match &$self.geo {
            $crate::rules::Geo::Small($g) => $body,
            $crate::rules::Geo::Large($g) => $body,
        }
    };
}
pub(crate) use with_geo;

/// English checkers (draughts) on an N x N board under [`Rules::Deepomatic`] or
/// [`Rules::Standard`], with the [`DrawRules`] that make every game end.
///
/// Black (player 0) starts on the first N/2 - 1 rows of dark squares at the top and moves
/// first; White (player 1) on the last N/2 - 1 rows. Men move and capture one square
/// diagonally forward; kings one square in any diagonal direction. Capturing is mandatory;
/// any capture sequence may be chosen, but it goes on while a jump is available. A side with
/// no legal move (or no piece) loses.
///
/// ```
/// use ply::{Game, MoveList, Outcome};
/// use ply_checkers::{EnglishCheckers, Rules};
///
/// let game = EnglishCheckers::new(8, Rules::Standard)?;
/// let mut state = game.initial_state();
/// let mut moves = MoveList::new();
/// game.generate_moves(&state, &mut moves);
/// assert_eq!(moves.len(), 7);
/// game.apply(&mut state, moves[0]);
/// assert_eq!(game.outcome(&state), None);
/// # Ok::<(), ply_checkers::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct EnglishCheckers {
    pub(crate) size: usize,
    pub(crate) rules: Rules,
    pub(crate) draws: DrawRules,
    pub(crate) eval: Classic,
    pub(crate) geo: Geo,
}

impl Default for EnglishCheckers {
    /// 8x8, Deepomatic rules, draw rules on.
    fn default() -> Self {
        EnglishCheckers::new(8, Rules::Deepomatic).expect("8x8 is supported")
    }
}

impl EnglishCheckers {
    /// The rules on an N x N board (N even, 4 to 16), with the default draw rules.
    ///
    /// # Errors
    /// [`Error::Size`] for any other size.
    pub fn new(size: usize, rules: Rules) -> Result<EnglishCheckers, Error> {
        if !(4..=16).contains(&size) || !size.is_multiple_of(2) {
            return Err(Error::Size(size));
        }
        let geo =
            if size == 8 { Geo::Small(Geometry::new(8)) } else { Geo::Large(Geometry::new(size)) };
        Ok(EnglishCheckers {
            size,
            rules,
            draws: DrawRules::default(),
            eval: Classic::default(),
            geo,
        })
    }

    /// The standard 8x8 game under `rules`.
    pub fn standard_board(rules: Rules) -> EnglishCheckers {
        EnglishCheckers::new(8, rules).expect("8x8 is supported")
    }

    /// These rules with other draw rules.
    pub fn with_draw_rules(mut self, draws: DrawRules) -> EnglishCheckers {
        self.draws = draws;
        self
    }

    /// These rules with other evaluation weights (for engine tuning): [`Game::evaluate`]
    /// becomes [`Classic`] with these weights.
    pub fn with_weights(mut self, weights: Weights) -> EnglishCheckers {
        self.eval = Classic::new(weights);
        self
    }

    /// The board side N.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The draw rules.
    pub fn draw_rules(&self) -> DrawRules {
        self.draws
    }

    /// The evaluation weights.
    pub fn weights(&self) -> &Weights {
        &self.eval.weights
    }

    /// The evaluation behind [`Game::evaluate`].
    pub fn evaluator(&self) -> &Classic {
        &self.eval
    }

    /// Number of dark squares, N*N/2.
    pub fn squares(&self) -> usize {
        self.size * self.size / 2
    }

    /// `(row, column)` of dark square `sq` (0-based index); row 0 is Black's side.
    pub fn coords(&self, sq: usize) -> (usize, usize) {
        let half = self.size / 2;
        let r = sq / half;
        (r, 2 * (sq % half) + usize::from(r.is_multiple_of(2)))
    }

    /// The dark square at `(row, column)`, if there is one.
    pub fn square_at(&self, row: usize, col: usize) -> Option<usize> {
        (row < self.size && col < self.size && (row + col) % 2 == 1)
            .then(|| row * (self.size / 2) + col / 2)
    }

    /// The number of dark square `sq` in checkers notation (`sq + 1`).
    pub fn square_number(sq: usize) -> usize {
        sq + 1
    }

    /// True if `sq` is on the row where `color`'s men are crowned.
    pub fn is_crowning_square(&self, sq: usize, color: Color) -> bool {
        let (r, _) = self.coords(sq);
        match color {
            Color::Black => r == self.size - 1,
            Color::White => r == 0,
        }
    }

    /// The squares a move visits, start first (two squares for a step; the start and every
    /// landing square for a capture). `mv` must be a legal move of `state`.
    pub fn path(&self, state: &CheckersState, mv: Move) -> Vec<usize> {
        if !mv.is_capture() {
            return vec![mv.from(), mv.to()];
        }
        let standard = self.rules == Rules::Standard;
        let paths = with_geo!(self, g, {
            movegen::capture_paths(
                g,
                standard,
                &state.side(),
                u32::from(mv.from),
                mv.to,
                mv.captured,
            )
        });
        paths
            .get(usize::from(mv.variant))
            .map(|p| p.iter().map(|&s| usize::from(s)).collect())
            .unwrap_or_else(|| vec![mv.from(), mv.to()])
    }

    /// True if the side to move has a capture (and so must capture).
    pub fn has_capture(&self, state: &CheckersState) -> bool {
        with_geo!(self, g, !state.side().capturers(g).is_empty())
    }

    /// True if the player not to move would have a capture if it were its turn: a threat
    /// the player to move may have to answer.
    pub fn threatens_capture(&self, state: &CheckersState) -> bool {
        with_geo!(self, g, !state.other_side().capturers(g).is_empty())
    }

    /// The position with `black` and `white` pieces (each `(square index, is_king)`), `to_move`
    /// to play.
    ///
    /// # Errors
    /// A [`crate::FenError`] for a square off the board, a square used twice, or a man on its
    /// crowning row.
    pub fn position(
        &self,
        to_move: Color,
        pieces: &[(usize, Piece)],
    ) -> Result<CheckersState, Error> {
        use crate::error::FenError;
        let mut s = CheckersState::empty(to_move, self.size);
        for &(sq, piece) in pieces {
            if sq >= self.squares() {
                return Err(
                    FenError::Square { square: (sq + 1).to_string(), max: self.squares() }.into()
                );
            }
            if s.piece(sq).is_some() {
                return Err(FenError::Duplicate(sq + 1).into());
            }
            if !piece.king && self.is_crowning_square(sq, piece.color) {
                return Err(FenError::ManOnCrowningRow(sq + 1).into());
            }
            s.put(sq, piece);
        }
        Ok(s)
    }
}

impl Game for EnglishCheckers {
    type State = CheckersState;
    type Move = Move;
    type Score = i32;

    fn initial_state(&self) -> CheckersState {
        let half = self.size / 2;
        let rows = half - 1;
        let mut s = CheckersState::empty(Color::Black, self.size);
        for sq in 0..rows * half {
            s.put(sq, Piece { color: Color::Black, king: false });
        }
        for sq in self.squares() - rows * half..self.squares() {
            s.put(sq, Piece { color: Color::White, king: false });
        }
        s
    }

    fn num_players(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self, state: &CheckersState) -> Player {
        Player(state.side)
    }

    #[inline]
    fn generate_moves(&self, state: &CheckersState, moves: &mut MoveList<Move>) {
        if self.draws.quiet_plies.is_some_and(|n| state.quiet_plies >= n) {
            moves.clear();
            return;
        }
        let standard = self.rules == Rules::Standard;
        with_geo!(self, g, movegen::generate(g, standard, &state.side(), moves))
    }

    #[inline(always)]
    fn apply(&self, state: &mut CheckersState, mv: Move) {
        let c = usize::from(state.side);
        if mv.captured != 0 {
            state.pieces[c ^ 1] &= !mv.captured;
            state.kings &= !mv.captured;
        }
        let from = SQUARE_BITS[usize::from(mv.from)];
        let to = SQUARE_BITS[usize::from(mv.to)];
        let was_king = state.kings & from != 0;
        // `from` and `to` are equal only when a king's capture ends where it started: the
        // square is cleared, then set again.
        state.pieces[c] = (state.pieces[c] & !from) | to;
        if was_king {
            state.kings = (state.kings & !from) | to;
        } else if mv.crowns {
            state.kings |= to;
        }
        state.quiet_plies =
            if mv.captured != 0 || !was_king { 0 } else { state.quiet_plies.saturating_add(1) };
        state.side ^= 1;
    }

    fn outcome(&self, state: &CheckersState) -> Option<Outcome> {
        if self.draws.quiet_plies.is_some_and(|n| state.quiet_plies >= n) {
            return Some(Outcome::Draw);
        }
        let has_move = with_geo!(self, g, state.side().has_move(g));
        (!has_move).then(|| Outcome::Winner(Player(state.side ^ 1)))
    }

    /// [`Classic`] with the game's [`Weights`].
    #[inline]
    fn evaluate(&self, state: &CheckersState, player: Player) -> i32 {
        self.eval.evaluate(self, state, player)
    }

    #[inline]
    fn hash(&self, state: &CheckersState) -> Option<u64> {
        Some(state.key())
    }

    /// The position's key, with the plies without a capture or a man's move where the draw
    /// rule counts them: the same position nearer that draw may have another value.
    fn value_hash(&self, state: &CheckersState) -> Option<u64> {
        let key = state.key();
        Some(match self.draws.quiet_plies {
            Some(_) => ply::zobrist::fold_words(key, &[u64::from(state.quiet_plies)]),
            None => key,
        })
    }

    #[inline]
    fn is_quiet(&self, state: &CheckersState) -> bool {
        !self.has_capture(state)
    }

    /// The opponent threatens a capture ([`EnglishCheckers::threatens_capture`]).
    fn is_threatened(&self, state: &CheckersState) -> bool {
        self.threatens_capture(state)
    }

    // `null_move` keeps the default and declines: checkers is a game of zugzwang (the move,
    // the opposition), and null-move pruning lost 95 Elo in self-play (BENCHMARKS.md).

    fn repetition_limit(&self) -> Option<u32> {
        self.draws.repetition
    }

    /// Start and end square, `from * squares + to`: N^4 / 4 keys (1024 on 8x8, 16384 on
    /// 16x16). Capture paths that differ only in the pieces taken or the order share a key.
    fn move_key_space(&self) -> u32 {
        (self.squares() * self.squares()) as u32
    }

    #[inline]
    fn move_key(&self, _state: &CheckersState, mv: Move) -> u32 {
        u32::from(mv.from) * self.squares() as u32 + u32::from(mv.to)
    }

    #[inline]
    fn count_moves(&self, state: &CheckersState) -> u64 {
        if self.draws.quiet_plies.is_some_and(|n| state.quiet_plies >= n) {
            return 0;
        }
        let standard = self.rules == Rules::Standard;
        with_geo!(self, g, movegen::count(g, standard, &state.side()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash tells apart every distinct placement of pieces and side to move met in many
    /// random games, on boards whose bitboards use one and two words, and leaves out the
    /// count of quiet plies.
    #[test]
    fn hashes_tell_positions_apart() {
        for size in [6, 8, 10, 16] {
            let game = EnglishCheckers::new(size, Rules::Standard).unwrap();
            let mut seen = std::collections::HashMap::new();
            ply::testing::visit_random_games(&game, 40, 300, 3, |state| {
                let h = game.hash(state).unwrap();
                let placement = (state.pieces, state.kings, state.side);
                assert_eq!(*seen.entry(h).or_insert(placement), placement, "{size}x{size}");
                let mut other_side = *state;
                other_side.side ^= 1;
                assert_ne!(game.hash(&other_side), Some(h));
                let mut later = *state;
                later.quiet_plies += 1;
                assert_eq!(game.hash(&later), Some(h));
            });
            assert!(seen.len() > 1000, "{size}x{size}: {} positions", seen.len());
        }
    }

    /// Along seeded random games, every move key is below the key space, and almost every
    /// move of a position has a key of its own.
    #[test]
    fn move_keys_fit_and_mostly_differ() {
        let spread = ply::testing::move_key_spread(
            &EnglishCheckers::new(8, Rules::Deepomatic).unwrap(),
            20,
            7,
            1000,
        );
        assert!(spread.moves > 0 && spread.distinct * 100 >= spread.moves * 98, "{spread:?}");
    }

    /// Along seeded random games, every move key is below the key space, and almost every
    /// move of a position has a key of its own.
    #[test]
    fn move_keys_fit_on_the_largest_board() {
        let spread = ply::testing::move_key_spread(
            &EnglishCheckers::new(16, Rules::Standard).unwrap(),
            2,
            7,
            1000,
        );
        assert!(spread.moves > 0 && spread.distinct * 100 >= spread.moves * 98, "{spread:?}");
    }
}
