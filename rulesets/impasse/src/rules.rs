//! The rules object [`Impasse`], the position [`ImpasseState`] and move generation, exactly as
//! the CodinGame referee (`GameState.generateLegalActions`) generates and applies actions.

use ply::eval::Evaluator;
use ply::{Game, MoveList, Outcome, Player};

use crate::board::{Bitboard, Square, BACKWARD, FAR_ROW, FORWARD, NEAR_ROW, NEIGHBOUR, NONE};
use crate::error::Error;
use crate::eval::{Classic, Weights};
use crate::moves::{Crown, Move, MoveKind, MoveText};
use crate::zobrist;

/// Checkers each player starts with; removing them all wins.
pub const CHECKERS: u32 = 12;
/// The referee stops the game after this many plies (both players' actions); a game without
/// a winner by then is a draw.
pub const PLY_LIMIT: u16 = 250;

/// Impasse (Mark Steere) as the CodinGame referee plays it: 8x8, 12 checkers each, White
/// (player 0) moves first, the first to remove all 12 checkers wins, draw after 250 plies.
///
/// ```
/// use ply::{Game, MoveList, Player};
/// use ply_impasse::Impasse;
///
/// let game = Impasse::new();
/// let state = game.initial_state();
/// let mut moves = MoveList::new();
/// game.generate_moves(&state, &mut moves);
/// assert_eq!(moves.len(), 22);
/// assert_eq!(game.to_move(&state), Player::new(0));
/// let mut next = state;
/// game.apply(&mut next, moves[0]);
/// assert_eq!(game.to_move(&next), Player::new(1));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Impasse {
    eval: Classic,
}

impl Impasse {
    /// The game with the default evaluation.
    pub fn new() -> Impasse {
        Impasse { eval: Classic::default() }
    }

    /// The game with other evaluation weights (the rules are the same): [`Game::evaluate`]
    /// becomes [`Classic`] with these weights.
    pub fn with_weights(weights: Weights) -> Impasse {
        Impasse { eval: Classic::new(weights) }
    }

    /// The evaluation weights.
    pub fn weights(&self) -> &Weights {
        &self.eval.weights
    }

    /// The evaluation behind [`Game::evaluate`].
    pub fn evaluator(&self) -> &Classic {
        &self.eval
    }

    /// Finds the legal action of `state` that `text` names. When two actions print the same
    /// text (two far-row singles crowned from the same square), this returns the first in
    /// generation order, which is the one the referee plays.
    ///
    /// # Errors
    /// [`Error::IllegalMove`] if no legal action has this text.
    pub fn resolve(&self, state: &ImpasseState, text: MoveText) -> Result<Move, Error> {
        let mut found = None;
        state.for_each_move(|m| {
            if found.is_none() && m.text() == text {
                found = Some(m);
            }
        });
        found.ok_or_else(|| Error::IllegalMove(text.to_string()))
    }
}

/// An Impasse position: singles and doubles of each player as bitboards, and the number of
/// plies played (which gives the side to move and the 250-ply draw). Scores are not stored:
/// a player's score is the number of their 12 checkers no longer on the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ImpasseState {
    pub(crate) singles: [Bitboard; 2],
    pub(crate) doubles: [Bitboard; 2],
    pub(crate) ply: u16,
    /// Zobrist key of the pieces (the ply is mixed in by [`Game::hash`]).
    pub(crate) key: u64,
}

impl ImpasseState {
    /// The start position: White singles a1, d2, e1, h2 and doubles b8, c7, f8, g7; Black
    /// singles a7, d8, e7, h8 and doubles b2, c1, f2, g1.
    pub fn start() -> ImpasseState {
        let bb = |names: &[&str]| -> Bitboard {
            names.iter().map(|n| n.parse::<Square>().expect("valid square").bit()).sum()
        };
        ImpasseState::from_parts(
            [bb(&["a1", "d2", "e1", "h2"]), bb(&["a7", "d8", "e7", "h8"])],
            [bb(&["b8", "c7", "f8", "g7"]), bb(&["b2", "c1", "f2", "g1"])],
            0,
        )
    }

    /// A position from bitboards, without validation.
    pub(crate) fn from_parts(singles: [Bitboard; 2], doubles: [Bitboard; 2], ply: u16) -> Self {
        let mut s = ImpasseState { singles, doubles, ply, key: 0 };
        s.key = zobrist::full_key(&s);
        s
    }

    /// The colour-flipped position: rows mirrored, White's pieces become Black's and the
    /// other side moves (the ply count changes parity by one). Every rule is symmetric, so
    /// the flipped position has the flipped moves.
    pub fn flip(&self) -> ImpasseState {
        let f = |b: Bitboard| b.swap_bytes();
        ImpasseState::from_parts(
            [f(self.singles[1]), f(self.singles[0])],
            [f(self.doubles[1]), f(self.doubles[0])],
            self.ply ^ 1,
        )
    }

    /// `player`'s singles.
    #[inline]
    pub fn singles(&self, player: Player) -> Bitboard {
        self.singles[player.index()]
    }

    /// `player`'s doubles.
    #[inline]
    pub fn doubles(&self, player: Player) -> Bitboard {
        self.doubles[player.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.singles[0] | self.singles[1] | self.doubles[0] | self.doubles[1]
    }

    /// Plies played so far (0 at the start).
    #[inline]
    pub fn ply(&self) -> u16 {
        self.ply
    }

    /// The player to move: White (0) on even plies, Black (1) on odd ones.
    #[inline]
    pub fn side_to_move(&self) -> Player {
        Player((self.ply & 1) as u8)
    }

    /// `player`'s checkers on the board (a double counts two).
    #[inline]
    pub fn checkers(&self, player: Player) -> u32 {
        let p = player.index();
        self.singles[p].count_ones() + 2 * self.doubles[p].count_ones()
    }

    /// `player`'s score: checkers removed by bear-off or impasse.
    #[inline]
    pub fn score(&self, player: Player) -> u32 {
        CHECKERS.saturating_sub(self.checkers(player))
    }

    /// The winner, if a player has removed all their checkers.
    #[inline]
    pub fn winner(&self) -> Option<Player> {
        (0..2).map(Player::new).find(|&p| self.checkers(p) == 0)
    }

    /// True if the game is over (a winner, or the ply limit).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.ply >= PLY_LIMIT
    }

    #[inline]
    fn toggle_single(&mut self, p: usize, sq: Square) {
        self.singles[p] ^= sq.bit();
        self.key ^= zobrist::SINGLE[p][sq.index()];
    }

    #[inline]
    fn toggle_double(&mut self, p: usize, sq: Square) {
        self.doubles[p] ^= sq.bit();
        self.key ^= zobrist::DOUBLE[p][sq.index()];
    }

    /// Calls `f` with every legal action, in the referee's generation order (see the crate
    /// docs for where the order differs), or with nothing if the game is over.
    #[inline]
    pub(crate) fn for_each_move(&self, mut f: impl FnMut(Move)) {
        if self.is_over() {
            return;
        }
        if !self.basic_moves(&mut f) {
            self.impasse_moves(&mut f);
        }
    }

    /// Single slides, double slides, transposes; returns false if there is none.
    #[inline]
    fn basic_moves(&self, f: &mut impl FnMut(Move)) -> bool {
        let p = self.side_to_move().index();
        let occ = self.occupied();
        let singles = self.singles[p];
        let mut any = false;
        let mut bb = singles;
        while bb != 0 {
            let from = Square::pop(&mut bb);
            for dir in FORWARD[p] {
                let mut t = NEIGHBOUR[from.index()][dir];
                while t != NONE && occ >> t & 1 == 0 {
                    let to = Square::from_index(t).expect("on board");
                    let m = Move {
                        kind: MoveKind::SingleSlide,
                        from,
                        to,
                        bear_off: false,
                        crown: None,
                    };
                    let new = if to.bit() & FAR_ROW[p] != 0 { Some(to) } else { None };
                    self.crowns(p, m, singles & !from.bit(), new, f);
                    any = true;
                    t = NEIGHBOUR[t as usize][dir];
                }
            }
        }
        let mut bb = self.doubles[p];
        while bb != 0 {
            let from = Square::pop(&mut bb);
            for dir in BACKWARD[p] {
                let mut t = NEIGHBOUR[from.index()][dir];
                while t != NONE && occ >> t & 1 == 0 {
                    let to = Square::from_index(t).expect("on board");
                    let bear_off = to.bit() & NEAR_ROW[p] != 0;
                    let m = Move { kind: MoveKind::DoubleSlide, from, to, bear_off, crown: None };
                    self.crowns(p, m, singles, bear_off.then_some(to), f);
                    any = true;
                    t = NEIGHBOUR[t as usize][dir];
                }
            }
        }
        let mut bb = self.doubles[p];
        while bb != 0 {
            let from = Square::pop(&mut bb);
            for dir in BACKWARD[p] {
                let t = NEIGHBOUR[from.index()][dir];
                if t == NONE || singles >> t & 1 == 0 {
                    continue;
                }
                let to = Square::from_index(t).expect("on board");
                let bear_off = to.bit() & NEAR_ROW[p] != 0;
                let m = Move { kind: MoveKind::Transpose, from, to, bear_off, crown: None };
                let others = if bear_off { singles } else { singles & !to.bit() };
                self.crowns(p, m, others, Some(from), f);
                any = true;
            }
        }
        any
    }

    /// Impasse removals: every single, then the top of every double.
    fn impasse_moves(&self, f: &mut impl FnMut(Move)) {
        let p = self.side_to_move().index();
        let mut bb = self.singles[p];
        while bb != 0 {
            let from = Square::pop(&mut bb);
            f(Move { kind: MoveKind::ImpasseSingle, from, to: from, bear_off: false, crown: None });
        }
        let mut bb = self.doubles[p];
        while bb != 0 {
            let from = Square::pop(&mut bb);
            let m = Move {
                kind: MoveKind::ImpasseDouble,
                from,
                to: from,
                bear_off: false,
                crown: None,
            };
            self.crowns(p, m, self.singles[p], Some(from), f);
        }
    }

    /// The referee's `generateLegalCrownsMove`: `others` are the player's singles after the
    /// basic action except the one it created, `new` that created single (listed last, as the
    /// referee appends it). Every pair (far-row single, another single) is an action; with no
    /// pair the action stands without a crown.
    #[inline]
    fn crowns(
        &self,
        p: usize,
        base: Move,
        others: Bitboard,
        new: Option<Square>,
        f: &mut impl FnMut(Move),
    ) {
        let all = others | new.map_or(0, Square::bit);
        if all & FAR_ROW[p] == 0 || all.count_ones() < 2 {
            f(base);
            return;
        }
        let mut targets = others & FAR_ROW[p];
        while targets != 0 {
            let target = Square::pop(&mut targets);
            crown_pairs(base, target, others, new, f);
        }
        if let Some(n) = new.filter(|n| n.bit() & FAR_ROW[p] != 0) {
            crown_pairs(base, n, others, new, f);
        }
    }

    /// Plays `m` (a legal action) for the side to move.
    #[inline]
    pub(crate) fn play(&mut self, m: Move) {
        let p = self.side_to_move().index();
        match m.kind {
            MoveKind::SingleSlide => {
                self.toggle_single(p, m.from);
                self.toggle_single(p, m.to);
            }
            MoveKind::DoubleSlide => {
                self.toggle_double(p, m.from);
                self.toggle_double(p, m.to);
            }
            MoveKind::Transpose => {
                self.toggle_double(p, m.from);
                self.toggle_single(p, m.from);
                self.toggle_single(p, m.to);
                self.toggle_double(p, m.to);
            }
            MoveKind::ImpasseSingle => self.toggle_single(p, m.from),
            MoveKind::ImpasseDouble => {
                self.toggle_double(p, m.from);
                self.toggle_single(p, m.from);
            }
        }
        if m.bear_off {
            self.toggle_double(p, m.to);
            self.toggle_single(p, m.to);
        }
        if let Some(c) = m.crown {
            self.toggle_single(p, c.source);
            self.toggle_single(p, c.target);
            self.toggle_double(p, c.target);
        }
        self.ply += 1;
    }

    /// Checks that the position could occur: no square holds two pieces, no player has more
    /// than 12 checkers, no double stands on its owner's near row, the side to move still has
    /// checkers, and the ply count is within the limit.
    pub(crate) fn validate(&self) -> Result<(), String> {
        let all = [self.singles[0], self.singles[1], self.doubles[0], self.doubles[1]];
        let total: u32 = all.iter().map(|b| b.count_ones()).sum();
        if total != self.occupied().count_ones() {
            return Err("a square holds two pieces".into());
        }
        for p in 0..2 {
            let name = ["white", "black"][p];
            if self.checkers(Player::new(p)) > CHECKERS {
                return Err(format!("{name} has more than {CHECKERS} checkers"));
            }
            if self.doubles[p] & NEAR_ROW[p] != 0 {
                return Err(format!("a {name} double stands on its near row (it bears off)"));
            }
        }
        if self.checkers(self.side_to_move()) == 0 {
            return Err("the side to move has no checkers left (the game ended before)".into());
        }
        if self.ply > PLY_LIMIT {
            return Err(format!("ply {} is past the limit of {PLY_LIMIT}", self.ply));
        }
        Ok(())
    }
}

/// Every crown of `target` from another single: `others` in square order, then `new`.
#[inline]
fn crown_pairs(
    base: Move,
    target: Square,
    others: Bitboard,
    new: Option<Square>,
    f: &mut impl FnMut(Move),
) {
    let mut sources = others & !target.bit();
    while sources != 0 {
        let source = Square::pop(&mut sources);
        f(Move { crown: Some(Crown { source, target }), ..base });
    }
    if let Some(n) = new.filter(|&n| n != target) {
        f(Move { crown: Some(Crown { source: n, target }), ..base });
    }
}

impl Default for ImpasseState {
    fn default() -> Self {
        ImpasseState::start()
    }
}

impl std::str::FromStr for ImpasseState {
    type Err = Error;

    /// Reads a position: the referee's 8 board lines (row 8 first) joined by `/`, the side
    /// to move `w`/`b`, then optionally the two scores and the ply count.
    fn from_str(s: &str) -> Result<ImpasseState, Error> {
        crate::notation::parse_position(s)
    }
}

impl Game for Impasse {
    type State = ImpasseState;
    type Move = Move;
    type Score = i32;

    fn initial_state(&self) -> ImpasseState {
        ImpasseState::start()
    }

    fn num_players(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self, state: &ImpasseState) -> Player {
        state.side_to_move()
    }

    fn generate_moves(&self, state: &ImpasseState, moves: &mut MoveList<Move>) {
        moves.clear();
        state.for_each_move(|m| moves.push(m));
    }

    #[inline]
    fn apply(&self, state: &mut ImpasseState, mv: Move) {
        state.play(mv);
    }

    fn outcome(&self, state: &ImpasseState) -> Option<Outcome> {
        match state.winner() {
            Some(w) => Some(Outcome::Winner(w)),
            None if state.ply >= PLY_LIMIT => Some(Outcome::Draw),
            None => None,
        }
    }

    /// [`Classic`] with the game's [`Weights`].
    fn evaluate(&self, state: &ImpasseState, player: Player) -> i32 {
        self.eval.evaluate(self, state, player)
    }

    #[inline]
    fn hash(&self, state: &ImpasseState) -> Option<u64> {
        Some(state.key ^ zobrist::ply_key(state.ply))
    }

    /// The basic move: a single slide, double slide or transpose from one square to another
    /// (`kind * 4096 + from * 64 + to`), or an impasse removal of a single or a double on a
    /// square (`3 * 4096 + kind * 64 + square`). Actions that differ only in their crowning
    /// share a key.
    fn move_key_space(&self) -> u32 {
        3 * 4096 + 2 * 64
    }

    #[inline]
    fn move_key(&self, _state: &ImpasseState, mv: Move) -> u32 {
        let (from, to) = (mv.from.index() as u32, mv.to.index() as u32);
        match mv.kind {
            MoveKind::SingleSlide => from * 64 + to,
            MoveKind::DoubleSlide => 4096 + from * 64 + to,
            MoveKind::Transpose => 2 * 4096 + from * 64 + to,
            MoveKind::ImpasseSingle => 3 * 4096 + from,
            MoveKind::ImpasseDouble => 3 * 4096 + 64 + from,
        }
    }

    fn count_moves(&self, state: &ImpasseState) -> u64 {
        let mut n = 0;
        state.for_each_move(|_| n += 1);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along seeded random games, every move key is below the key space, and almost every
    /// move of a position has a key of its own.
    #[test]
    fn move_keys_fit_and_mostly_differ() {
        let spread = ply::testing::move_key_spread(&Impasse::new(), 10, 7, 1000);
        assert!(spread.moves > 0 && spread.distinct * 100 >= spread.moves * 95, "{spread:?}");
    }
}
