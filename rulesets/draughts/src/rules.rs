//! The rules object [`InternationalDraughts`], its draw options [`DrawRules`], the position
//! type [`DraughtsState`] and the [`Game`] implementation.

use ply::eval::Evaluator;
use ply::{Game, MoveList, Outcome, Player};

use crate::bitboard::bit_of;
use crate::eval;
use crate::movegen::{self, Move, Pieces};

/// The draw rules in force. Every rule is on by default ([`DrawRules::FMJD`]).
///
/// ```
/// use ply_draughts::{DrawRules, InternationalDraughts};
/// let rules = DrawRules { repetition: false, ..DrawRules::FMJD };
/// let game = InternationalDraughts::with_draw_rules(rules);
/// assert!(!game.draw_rules().repetition);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawRules {
    /// The third occurrence of a position with the same side to move is a draw (applied by
    /// [`ply::Record`] and by search through [`Game::repetition_limit`]).
    pub repetition: bool,
    /// After this many successive moves of each side made by kings without capture, the game
    /// is drawn (FMJD: 25). `None` turns the rule off, which allows endless games.
    pub king_moves: Option<u8>,
    /// With three kings, two kings and a man, or a king and two men against a lone king, the
    /// game is drawn after this many moves of each side (FMJD: 16). `None` turns it off.
    pub endgame_moves: Option<u8>,
    /// One king against one king is drawn at once.
    pub king_vs_king: bool,
}

impl DrawRules {
    /// The FMJD rules: threefold repetition, 25 king moves, 16 endgame moves, king vs king.
    pub const FMJD: DrawRules = DrawRules {
        repetition: true,
        king_moves: Some(25),
        endgame_moves: Some(16),
        king_vs_king: true,
    };

    /// No draw rule at all: a game ends only when a side cannot move.
    pub const NONE: DrawRules =
        DrawRules { repetition: false, king_moves: None, endgame_moves: None, king_vs_king: false };
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules::FMJD
    }
}

/// International draughts under FMJD rules: 10x10 board, 20 men a side, White (player 0)
/// moves first, flying kings, compulsory majority capture.
///
/// ```
/// use ply::{Game, MoveList, perft, PerftMode};
/// use ply_draughts::InternationalDraughts;
///
/// let game = InternationalDraughts::new();
/// let start = game.initial_state();
/// let mut moves = MoveList::new();
/// game.generate_moves(&start, &mut moves);
/// assert_eq!(moves.len(), 9);
/// assert_eq!(perft(&game, &start, 3, PerftMode::Bulk), 658);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InternationalDraughts {
    draw: DrawRules,
}

impl Default for InternationalDraughts {
    fn default() -> Self {
        InternationalDraughts::new()
    }
}

impl InternationalDraughts {
    /// The game with the FMJD draw rules.
    pub fn new() -> Self {
        InternationalDraughts { draw: DrawRules::FMJD }
    }

    /// The game with the given draw rules.
    pub fn with_draw_rules(draw: DrawRules) -> Self {
        InternationalDraughts { draw }
    }

    /// The draw rules in force.
    pub fn draw_rules(&self) -> DrawRules {
        self.draw
    }

    /// True if `state` is drawn by the king-move, endgame or king-vs-king rule (repetition
    /// depends on the game's history and is applied by [`ply::Record`]).
    pub fn is_rule_draw(&self, state: &DraughtsState) -> bool {
        if let Some(n) = self.draw.king_moves {
            if state.king_plies >= 2 * u16::from(n) {
                return true;
            }
        }
        if let Some(n) = self.draw.endgame_moves {
            if state.endgame_plies > 2 * u16::from(n) {
                return true;
            }
        }
        self.draw.king_vs_king && state.is_king_vs_king()
    }
}

/// The fewest pieces per side with which [`Game::null_move`] passes the turn.
pub const NULL_MOVE_PIECES: u32 = 6;

/// A position: the pieces, the side to move and the counters of the draw rules.
///
/// States compare equal only when the counters agree as well; [`Game::hash`] covers the
/// pieces and the side to move only, so that repeated positions are recognised.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DraughtsState {
    pub(crate) pieces: Pieces,
    pub(crate) white_to_move: bool,
    /// Successive plies of king moves without capture.
    pub(crate) king_plies: u16,
    /// 0 outside the 16-move endgame; otherwise 1 + plies played since it arose.
    pub(crate) endgame_plies: u16,
}

/// The hash's starting value for each side to move (Black, White).
const SIDE_SEEDS: [u64; 2] =
    [ply::zobrist::splitmix64(0xb1ac).1, ply::zobrist::splitmix64(0x0d1a).1];

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A white man.
    WhiteMan,
    /// A white king.
    WhiteKing,
    /// A black man.
    BlackMan,
    /// A black king.
    BlackKing,
}

impl Piece {
    /// True for White's pieces.
    pub fn is_white(self) -> bool {
        matches!(self, Piece::WhiteMan | Piece::WhiteKing)
    }

    /// True for kings.
    pub fn is_king(self) -> bool {
        matches!(self, Piece::WhiteKing | Piece::BlackKing)
    }

    /// The letter used by diagrams and the Hub protocol: `w`, `W`, `b`, `B`.
    pub fn letter(self) -> char {
        match self {
            Piece::WhiteMan => 'w',
            Piece::WhiteKing => 'W',
            Piece::BlackMan => 'b',
            Piece::BlackKing => 'B',
        }
    }
}

impl DraughtsState {
    /// A position from its pieces (square, piece) and side to move, with the draw counters at
    /// zero. Squares outside 1..=50 are ignored; a later entry for a square replaces an
    /// earlier one.
    ///
    /// ```
    /// use ply_draughts::{DraughtsState, Piece};
    /// let s = DraughtsState::from_pieces(&[(28, Piece::WhiteKing), (19, Piece::BlackMan)], true);
    /// assert_eq!(s.piece_at(28), Some(Piece::WhiteKing));
    /// assert_eq!(s.to_string(), "W:WK28:B19");
    /// ```
    pub fn from_pieces(pieces: &[(u8, Piece)], white_to_move: bool) -> DraughtsState {
        let mut p = Pieces::default();
        for &(square, piece) in pieces {
            if !(1..=50).contains(&square) {
                continue;
            }
            let b = 1u64 << bit_of(square);
            p.white &= !b;
            p.black &= !b;
            p.kings &= !b;
            if piece.is_white() {
                p.white |= b;
            } else {
                p.black |= b;
            }
            if piece.is_king() {
                p.kings |= b;
            }
        }
        DraughtsState::from_parts(p, white_to_move, 0)
    }

    pub(crate) fn from_parts(pieces: Pieces, white_to_move: bool, king_plies: u16) -> Self {
        let mut s = DraughtsState { pieces, white_to_move, king_plies, endgame_plies: 0 };
        if s.is_endgame_configuration() {
            s.endgame_plies = 1;
        }
        s
    }

    /// The piece on `square` (1..=50), if any.
    pub fn piece_at(&self, square: u8) -> Option<Piece> {
        if !(1..=50).contains(&square) {
            return None;
        }
        let b = 1u64 << bit_of(square);
        let king = self.pieces.kings & b != 0;
        if self.pieces.white & b != 0 {
            Some(if king { Piece::WhiteKing } else { Piece::WhiteMan })
        } else if self.pieces.black & b != 0 {
            Some(if king { Piece::BlackKing } else { Piece::BlackMan })
        } else {
            None
        }
    }

    /// Every occupied square with its piece, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (u8, Piece)> + '_ {
        (1..=50u8).filter_map(move |s| self.piece_at(s).map(|p| (s, p)))
    }

    /// The number of pieces of each kind: `[white men, white kings, black men, black kings]`.
    ///
    /// ```
    /// use ply::Game;
    /// let s = ply_draughts::InternationalDraughts::new().initial_state();
    /// assert_eq!(s.piece_counts(), [20, 0, 20, 0]);
    /// ```
    pub fn piece_counts(&self) -> [u32; 4] {
        let p = &self.pieces;
        [
            (p.white & !p.kings).count_ones(),
            (p.white & p.kings).count_ones(),
            (p.black & !p.kings).count_ones(),
            (p.black & p.kings).count_ones(),
        ]
    }

    /// True if White is to move.
    pub fn white_to_move(&self) -> bool {
        self.white_to_move
    }

    /// Successive plies of king moves without capture (the 25-move rule's counter).
    pub fn king_move_plies(&self) -> u16 {
        self.king_plies
    }

    /// Plies played since the 16-move endgame arose, `None` outside it.
    pub fn endgame_plies(&self) -> Option<u16> {
        self.endgame_plies.checked_sub(1)
    }

    /// The same position with colours swapped and the board turned half a turn (square `s`
    /// becomes `51 - s`), draw counters kept.
    pub fn flipped(&self) -> DraughtsState {
        let mut s =
            DraughtsState::from_parts(self.pieces.flipped(), !self.white_to_move, self.king_plies);
        s.endgame_plies = self.endgame_plies;
        s
    }

    /// Sets the endgame counter (plies since the 16-move endgame arose); ignored outside it.
    pub(crate) fn set_endgame_plies(&mut self, plies: u16) {
        if self.endgame_plies != 0 {
            self.endgame_plies = plies.saturating_add(1);
        }
    }

    /// The hash of the pieces and the side to move: the three bitboards run through
    /// SplitMix64's mixer from a seed for the side to move.
    #[inline]
    fn key(&self) -> u64 {
        let p = &self.pieces;
        let seed = SIDE_SEEDS[usize::from(self.white_to_move)];
        ply::zobrist::fold_words(seed, &[p.white, p.black, p.kings])
    }

    fn is_king_vs_king(&self) -> bool {
        let p = &self.pieces;
        p.white.count_ones() == 1 && p.black.count_ones() == 1 && (p.white | p.black) == p.kings
    }

    /// Three pieces with at least one king against a lone king.
    fn is_endgame_configuration(&self) -> bool {
        let p = &self.pieces;
        let lone = |a: u64, b: u64| {
            a.count_ones() == 1 && a & p.kings == a && b.count_ones() == 3 && b & p.kings != 0
        };
        lone(p.white, p.black) || lone(p.black, p.white)
    }
}

impl std::fmt::Debug for DraughtsState {
    /// The FEN, then a grid of the board.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{self}")?;
        for row in 0..10u8 {
            for col in 0..10u8 {
                let c = if (row + col) % 2 == 1 {
                    self.piece_at(row * 5 + col / 2 + 1).map_or('.', Piece::letter)
                } else {
                    ' '
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// The start position: Black on 1-20, White on 31-50, White to move.
pub(crate) fn start_position() -> DraughtsState {
    let mut p = Pieces::default();
    for s in 1..=20 {
        p.black |= 1 << bit_of(s);
    }
    for s in 31..=50 {
        p.white |= 1 << bit_of(s);
    }
    DraughtsState::from_parts(p, true, 0)
}

impl Game for InternationalDraughts {
    type State = DraughtsState;
    type Move = Move;
    type Score = i32;

    fn initial_state(&self) -> DraughtsState {
        start_position()
    }

    fn num_players(&self) -> usize {
        2
    }

    fn to_move(&self, state: &DraughtsState) -> Player {
        if state.white_to_move {
            Player::FIRST
        } else {
            Player::SECOND
        }
    }

    fn generate_moves(&self, state: &DraughtsState, moves: &mut MoveList<Move>) {
        moves.clear();
        if self.is_rule_draw(state) {
            return;
        }
        movegen::generate(&state.pieces, state.white_to_move, moves);
    }

    fn apply(&self, state: &mut DraughtsState, mv: Move) {
        let white = state.white_to_move;
        let king = state.pieces.kings & 1u64 << mv.from != 0;
        state.pieces.play(mv, white);
        state.white_to_move = !white;
        state.king_plies =
            if king && mv.captured == 0 { state.king_plies.saturating_add(1) } else { 0 };
        state.endgame_plies = if state.is_endgame_configuration() {
            state.endgame_plies.saturating_add(1).max(1)
        } else {
            0
        };
    }

    fn outcome(&self, state: &DraughtsState) -> Option<Outcome> {
        if self.is_rule_draw(state) {
            return Some(Outcome::Draw);
        }
        if movegen::has_moves(&state.pieces, state.white_to_move) {
            None
        } else {
            Some(Outcome::Winner(self.to_move(state).opponent()))
        }
    }

    /// [`eval::Classic`].
    fn evaluate(&self, state: &DraughtsState, player: Player) -> i32 {
        eval::Classic.evaluate(self, state, player)
    }

    fn hash(&self, state: &DraughtsState) -> Option<u64> {
        Some(state.key())
    }

    /// The position's key, with the counters of the king-move and endgame rules where they
    /// are in force: the same position nearer such a draw may have another value.
    fn value_hash(&self, state: &DraughtsState) -> Option<u64> {
        let key = state.key();
        let kings = if self.draw.king_moves.is_some() { state.king_plies } else { 0 };
        let endgame = if self.draw.endgame_moves.is_some() { state.endgame_plies } else { 0 };
        Some(match (kings, endgame) {
            (0, 0) => key,
            _ => ply::zobrist::fold_words(key, &[u64::from(kings) | u64::from(endgame) << 16]),
        })
    }

    fn is_quiet(&self, state: &DraughtsState) -> bool {
        !movegen::has_capture(&state.pieces, state.white_to_move)
    }

    /// The opponent would have a capture if it were its turn.
    fn is_threatened(&self, state: &DraughtsState) -> bool {
        movegen::has_capture(&state.pieces, !state.white_to_move)
    }

    /// Passes the turn while each side has at least [`NULL_MOVE_PIECES`] pieces; declines
    /// after that, where zugzwang (the opposition of man endings) decides games.
    fn null_move(&self, state: &mut DraughtsState) -> bool {
        let p = &state.pieces;
        if p.white.count_ones().min(p.black.count_ones()) < NULL_MOVE_PIECES {
            return false;
        }
        state.white_to_move = !state.white_to_move;
        true
    }

    fn repetition_limit(&self) -> Option<u32> {
        self.draw.repetition.then_some(3)
    }

    /// Start and end square, `(from - 1) * 50 + (to - 1)`: 2500 keys. Captures that differ
    /// only in the pieces taken share a key.
    fn move_key_space(&self) -> u32 {
        50 * 50
    }

    #[inline]
    fn move_key(&self, _state: &DraughtsState, mv: Move) -> u32 {
        (u32::from(mv.from()) - 1) * 50 + u32::from(mv.to()) - 1
    }

    fn count_moves(&self, state: &DraughtsState) -> u64 {
        if self.is_rule_draw(state) {
            return 0;
        }
        movegen::count(&state.pieces, state.white_to_move)
    }
}

/// Perft with bulk counting from `state` on a lean copy of the pieces (no hash, no draw
/// counters, no draw rules): the fastest way to count the move tree.
///
/// ```
/// use ply::Game;
/// use ply_draughts::{perft_fast, InternationalDraughts};
/// let game = InternationalDraughts::new();
/// assert_eq!(perft_fast(&game.initial_state(), 4), 4265);
/// ```
pub fn perft_fast(state: &DraughtsState, depth: u32) -> u64 {
    movegen::perft_pieces(&state.pieces, state.white_to_move, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash tells apart every distinct placement of pieces and side to move met in many
    /// random games, and leaves out the draw counters.
    #[test]
    fn hashes_tell_positions_apart() {
        let game = InternationalDraughts::new();
        let mut seen = std::collections::HashMap::new();
        ply::testing::visit_random_games(&game, 60, 300, 3, |state| {
            let h = game.hash(state).unwrap();
            let placement = (state.pieces, state.white_to_move);
            assert_eq!(*seen.entry(h).or_insert(placement), placement);
            let mut other_side = *state;
            other_side.white_to_move ^= true;
            assert_ne!(game.hash(&other_side), Some(h));
            let mut later = *state;
            later.king_plies += 1;
            later.endgame_plies += 1;
            assert_eq!(game.hash(&later), Some(h));
        });
        assert!(seen.len() > 5000, "{} positions", seen.len());
    }

    /// Along seeded random games, every move key is below the key space, and almost every
    /// move of a position has a key of its own.
    #[test]
    fn move_keys_fit_and_mostly_differ() {
        let spread = ply::testing::move_key_spread(&InternationalDraughts::new(), 10, 7, 1000);
        assert!(spread.moves > 0 && spread.distinct * 100 >= spread.moves * 98, "{spread:?}");
    }
}
