//! The evaluation: a weighted sum of features, each the difference between the two players
//! ([`evaluate`] with [`Weights`]). [`Classic`] is the same as an [`Evaluator<Impasse>`]:
//! [`ply::Game::evaluate`] calls the game's own (set with [`Impasse::with_weights`]), and a
//! search can take another evaluator in its place.
//!
//! ```
//! use ply::eval::Evaluator;
//! use ply::{Game, Player};
//! use ply_impasse::eval::Classic;
//! use ply_impasse::{Impasse, Weights};
//!
//! let game = Impasse::new();
//! let s = game.initial_state();
//! let tempo_only = Classic::new(Weights { removed: 0, mobility: 0, impasse: 0, ..Weights::default() });
//! assert_eq!(tempo_only.evaluate(&game, &s, Player::new(0)), Weights::default().tempo);
//! ```

use ply::eval::Evaluator;
use ply::Player;

use crate::board::{Bitboard, FAR_ROW, NEAR_ROW};
use crate::rules::{Impasse, ImpasseState};

/// Evaluation weights, in hundredths of a removed checker (a removed checker is worth
/// `removed`).
///
/// The defaults come from engine-vs-engine matches (alpha-beta, 20 ms per move, 40 games per
/// change from 20 openings with both colours; see the crate README): row distances of singles
/// and doubles lost (13-27 with them), mobility and the tempo won clearly (12-4 and 29-11
/// against setting them to zero), and the readiness terms and a per-double term were neutral
/// or harmful. Features with weight 0 stay available for experiments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// Per checker removed (bear-off or impasse).
    pub removed: i32,
    /// Per row a single still has to travel to its far row (subtracted).
    pub single_distance: i32,
    /// Per row a double still has to travel to its near row (subtracted).
    pub double_distance: i32,
    /// Per double on the board (a double bears off with one move; two singles first need a
    /// crown).
    pub doubles: i32,
    /// Per basic move available (slide destinations and transposes).
    pub mobility: i32,
    /// Per double that can bear off with its next move (an open diagonal to the near row, or
    /// a transpose onto a near-row single).
    pub bear_off_ready: i32,
    /// Per single that can reach its far row with its next move (an open diagonal).
    pub crown_ready: i32,
    /// When the player has no basic move: their next turn is an impasse removal.
    pub impasse: i32,
    /// For the side to move.
    pub tempo: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            removed: 100,
            single_distance: 0,
            double_distance: 0,
            doubles: 0,
            mobility: 1,
            bear_off_ready: 0,
            crown_ready: 0,
            impasse: 40,
            tempo: 25,
        }
    }
}

/// The weighted-feature evaluation with its [`Weights`], from the point of view of the player
/// asked: [`evaluate`] as an [`Evaluator`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Classic {
    /// The weights of the features.
    pub weights: Weights,
}

impl Classic {
    /// The evaluation with these weights.
    pub fn new(weights: Weights) -> Classic {
        Classic { weights }
    }
}

impl Evaluator<Impasse> for Classic {
    #[inline]
    fn evaluate(&self, _game: &Impasse, state: &ImpasseState, player: Player) -> i32 {
        evaluate(&self.weights, state, player)
    }
}

/// Shifts every square of `bb` one step diagonally in direction `dir` (0 up-left, 1
/// up-right, 2 down-left, 3 down-right), dropping squares that leave the board.
#[inline]
fn shift(bb: Bitboard, dir: usize) -> Bitboard {
    const NOT_A: Bitboard = !0x0101_0101_0101_0101;
    const NOT_H: Bitboard = !0x8080_8080_8080_8080;
    match dir {
        0 => (bb & NOT_A) << 7,
        1 => (bb & NOT_H) << 9,
        2 => (bb & NOT_A) >> 9,
        _ => (bb & NOT_H) >> 7,
    }
}

/// The piece of `pieces` whose ray in direction `dir` reaches `target` first.
#[inline]
fn origin(pieces: Bitboard, target: Bitboard, dir: usize) -> Bitboard {
    let back = 3 - dir;
    let mut g = shift(target, back);
    while g != 0 && g & pieces == 0 {
        g = shift(g, back);
    }
    g
}

/// Player `p`'s basic moves (slide destinations and transposes, before crown expansion),
/// the number of their doubles that can bear off with their next move, and the number of
/// their singles that can reach the far row with their next move.
#[inline]
pub(crate) fn basic_mobility(s: &ImpasseState, p: usize) -> (u32, u32, u32) {
    let empty = !s.occupied();
    let (fwd, bwd) = if p == 0 { ([0, 1], [2, 3]) } else { ([2, 3], [0, 1]) };
    let mut count = 0;
    let mut ready: Bitboard = 0;
    let mut crowning: Bitboard = 0;
    for d in fwd {
        // Rays in one direction never merge, so every bit of a step is one piece's slide.
        let mut g = shift(s.singles[p], d) & empty;
        while g != 0 {
            count += g.count_ones();
            let mut far = g & FAR_ROW[p];
            while far != 0 {
                let bit = far & far.wrapping_neg();
                far &= far - 1;
                crowning |= origin(s.singles[p], bit, d);
            }
            g = shift(g, d) & empty;
        }
    }
    for d in bwd {
        let mut g = shift(s.doubles[p], d) & empty;
        while g != 0 {
            count += g.count_ones();
            let mut near = g & NEAR_ROW[p];
            while near != 0 {
                let bit = near & near.wrapping_neg();
                near &= near - 1;
                ready |= origin(s.doubles[p], bit, d);
            }
            g = shift(g, d) & empty;
        }
        let t = shift(s.doubles[p], d) & s.singles[p];
        count += t.count_ones();
        let mut near = t & NEAR_ROW[p];
        while near != 0 {
            let bit = near & near.wrapping_neg();
            near &= near - 1;
            ready |= origin(s.doubles[p], bit, d);
        }
    }
    (count, ready.count_ones(), crowning.count_ones())
}

/// Rows from each square of `bb` to the row with index `target_row` (0..8), summed.
#[inline]
fn distance(bb: Bitboard, target_row: i32) -> i32 {
    let mut total = 0;
    for row in 0..8 {
        let n = ((bb >> (row * 8)) & 0xff).count_ones() as i32;
        total += n * (target_row - row).abs();
    }
    total
}

fn side_value(w: &Weights, s: &ImpasseState, p: usize) -> i32 {
    let (far, near) = if p == 0 { (7, 0) } else { (0, 7) };
    let (mobility, ready, crowning) = basic_mobility(s, p);
    let mut v = w.removed * s.score(Player::new(p)) as i32
        - w.single_distance * distance(s.singles[p], far)
        - w.double_distance * distance(s.doubles[p], near)
        + w.doubles * s.doubles[p].count_ones() as i32
        + w.mobility * mobility as i32
        + w.bear_off_ready * ready as i32
        + w.crown_ready * crowning as i32;
    if mobility == 0 {
        v += w.impasse;
    }
    v
}

/// The value of `s` for `player` under weights `w`: the player's features minus the
/// opponent's, plus the tempo for the side to move. Antisymmetric:
/// `evaluate(w, s, p) == -evaluate(w, s, p.opponent())`.
///
/// ```
/// use ply::Player;
/// use ply_impasse::{evaluate, ImpasseState, Weights};
///
/// let s = ImpasseState::start();
/// let w = Weights::default();
/// assert_eq!(evaluate(&w, &s, Player::new(0)), -evaluate(&w, &s, Player::new(1)));
/// ```
pub fn evaluate(w: &Weights, s: &ImpasseState, player: Player) -> i32 {
    let me = player.index();
    let v = side_value(w, s, me) - side_value(w, s, 1 - me);
    let tempo = if s.side_to_move() == player { w.tempo } else { -w.tempo };
    v + tempo
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::{Game, MoveList};

    #[test]
    fn bear_off_readiness() {
        // 4 . . . . . . . .
        // 3 . . W . . . W .    c3 reaches a1 and e1; g3 is blocked on f2 and h2
        // 2 . . . . . b . b
        // 1 . . . . . . . .
        let s: ImpasseState =
            "......../......../......../......../......../..W...W./.....b.b/........ w"
                .parse()
                .unwrap();
        assert_eq!(basic_mobility(&s, 0), (4, 1, 0));
        // 2 . W . . . . . .
        // 1 w . . . . . . b    b2 slides to c1 or transposes onto a1: both bear off
        let s: ImpasseState =
            "......../......../......../......../......../......../.W....../w......b w"
                .parse()
                .unwrap();
        assert_eq!(basic_mobility(&s, 0), (2, 1, 0));
    }

    #[test]
    fn crown_readiness() {
        // 8 . . . . . b . .
        // 7 . . . . . . b .
        // 6 . . . w . . . w    d6 reaches b8 (f8 is taken); h6 is blocked on g7
        let s: ImpasseState =
            ".....b../......b./...w...w/......../......../......../......../........ w"
                .parse()
                .unwrap();
        assert_eq!(basic_mobility(&s, 0), (3, 0, 1));
    }

    /// The bitboard count of basic moves equals the generator's count of basic actions
    /// without crown expansion, for the side to move.
    #[test]
    fn mobility_counts_basic_moves() {
        let game = crate::Impasse::new();
        let mut s = game.initial_state();
        let mut moves = MoveList::new();
        let mut rng = 12345u64;
        for _ in 0..200 {
            game.generate_moves(&s, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mut bases: Vec<_> = moves
                .iter()
                .filter(|m| !m.kind().is_impasse())
                .map(|m| (m.from(), m.to()))
                .collect();
            bases.dedup();
            let p = s.side_to_move().index();
            assert_eq!(basic_mobility(&s, p).0 as usize, bases.len());
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let m = moves[(rng >> 33) as usize % moves.len()];
            game.apply(&mut s, m);
        }
    }
}
