//! The static evaluation, in hundredths of a man: material, kings, tempo (development),
//! centre, outposts, back-rank guard and wing balance.
//!
//! Each side is scored from White's seat; Black's pieces are first turned half a turn so one
//! set of masks serves both. [`Classic`] is this evaluation as an
//! [`Evaluator<InternationalDraughts>`]: [`ply::Game::evaluate`] calls it, and a search can take
//! another evaluator in its place.
//!
//! ```
//! use ply::eval::Evaluator;
//! use ply::{Game, Player};
//! use ply_draughts::eval::Classic;
//! use ply_draughts::InternationalDraughts;
//!
//! let game = InternationalDraughts::new();
//! let start = game.initial_state();
//! assert_eq!(Classic.evaluate(&game, &start, Player::FIRST), game.evaluate(&start, Player::FIRST));
//! ```

use ply::eval::Evaluator;
use ply::Player;

use crate::bitboard::{bit_of, rotate, row_mask, shift, NE, NW};
use crate::movegen::Pieces;
use crate::rules::{DraughtsState, InternationalDraughts};

/// The value of a man.
pub const MAN: i32 = 100;
/// The value of a king (about three men).
pub const KING: i32 = 300;

const fn squares(list: &[u8]) -> u64 {
    let mut bb = 0u64;
    let mut i = 0;
    while i < list.len() {
        bb |= 1 << bit_of(list[i]);
        i += 1;
    }
    bb
}

/// The six central squares.
const CENTRE: u64 = squares(&[22, 23, 24, 27, 28, 29]);
/// The squares next to the centre on White's side and Black's side.
const NEAR_CENTRE: u64 = squares(&[17, 18, 19, 32, 33, 34]);
/// Back-row squares that stop breakthroughs (47, 48, 49).
const GUARD: u64 = squares(&[47, 48, 49]);
/// Columns 0-4: the left wing seen from White's side.
const LEFT: u64 = squares(&[
    1, 2, 6, 7, 8, 11, 12, 16, 17, 18, 21, 22, 26, 27, 28, 31, 32, 36, 37, 38, 41, 42, 46, 47, 48,
]);
/// Squares 21-25 and 26-30: outposts in or next to the opponent's half.
const OUTPOST_ROWS: u64 = row_mask(4) | row_mask(5);

/// `TEMPO_BITS[k]` holds the squares whose advancement (rows from White's back row, 0..9) has
/// bit `k` set, so the sum of advancements is four popcounts.
const TEMPO_BITS: [u64; 4] = {
    let mut masks = [0u64; 4];
    let mut row = 0;
    while row < 10 {
        let advance = 9 - row;
        let mut k = 0;
        while k < 4 {
            if advance >> k & 1 == 1 {
                masks[k] |= row_mask(row as u32);
            }
            k += 1;
        }
        row += 1;
    }
    masks
};

/// Tempo weight per row advanced (scaled by game phase).
const TEMPO: i32 = 1;
const CENTRE_BONUS: i32 = 6;
const NEAR_CENTRE_BONUS: i32 = 2;
const OUTPOST_BONUS: i32 = 8;
const GUARD_BONUS: i32 = 5;
const BALANCE_PENALTY: i32 = 3;

/// The men whose two rear neighbours (down-left and down-right) both hold a man.
#[inline]
fn supported(men: u64) -> u64 {
    // A man on F with men on F+5 and F+6: shift those up onto F.
    men & shift(men, NE) & shift(men, NW)
}

/// One side's score seen from White's seat (`men` and `kings` oriented as White's).
fn side_score(men: u64, kings: u64, total: i32) -> i32 {
    let mut s = MAN * men.count_ones() as i32 + KING * kings.count_ones() as i32;
    // Tempo: rows advanced, worth more as the board empties and races decide.
    let mut tempo = 0;
    for (k, mask) in TEMPO_BITS.iter().enumerate() {
        tempo += ((men & mask).count_ones() as i32) << k;
    }
    let phase = 1 + (40 - total) / 8;
    s += TEMPO * phase * tempo;
    s += CENTRE_BONUS * (men & CENTRE).count_ones() as i32;
    s += NEAR_CENTRE_BONUS * (men & NEAR_CENTRE).count_ones() as i32;
    s += OUTPOST_BONUS * (supported(men) & OUTPOST_ROWS).count_ones() as i32;
    if total > 20 {
        s += GUARD_BONUS * (men & GUARD).count_ones() as i32;
        let left = (men & LEFT).count_ones() as i32;
        let right = men.count_ones() as i32 - left;
        s -= BALANCE_PENALTY * (left - right).abs();
    }
    s
}

/// The classic evaluation: material, tempo, centre, outposts, back-rank guard and wing
/// balance, from the point of view of the player asked (zero-sum).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Classic;

impl Evaluator<InternationalDraughts> for Classic {
    #[inline]
    fn evaluate(
        &self,
        _game: &InternationalDraughts,
        state: &DraughtsState,
        player: Player,
    ) -> i32 {
        let white = evaluate_white(&state.pieces);
        if player == Player::FIRST {
            white
        } else {
            -white
        }
    }
}

/// Material only: a man is worth [`MAN`], a king [`KING`]; the baseline that
/// [`Classic`]'s positional terms are measured against (`alphabeta:eval=material` in the
/// arena).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Material;

impl Evaluator<InternationalDraughts> for Material {
    #[inline]
    fn evaluate(
        &self,
        _game: &InternationalDraughts,
        state: &DraughtsState,
        player: Player,
    ) -> i32 {
        let p = &state.pieces;
        let side = |bits: u64| {
            MAN * (bits & !p.kings).count_ones() as i32
                + KING * (bits & p.kings).count_ones() as i32
        };
        let white = side(p.white) - side(p.black);
        if player == Player::FIRST {
            white
        } else {
            -white
        }
    }
}

/// The evaluation from White's point of view.
pub(crate) fn evaluate_white(p: &Pieces) -> i32 {
    let total = (p.white | p.black).count_ones().min(40) as i32;
    let white = side_score(p.white & !p.kings, p.white & p.kings, total);
    let black = side_score(rotate(p.black & !p.kings), rotate(p.black & p.kings), total);
    white - black
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::start_position;

    #[test]
    fn material_counts_men_and_kings() {
        let game = InternationalDraughts::new();
        let start = ply::Game::initial_state(&game);
        assert_eq!(Material.evaluate(&game, &start, Player::FIRST), 0);
        let fen = "W:WK31,32,33:B1,2";
        let s = ply::Notation::parse_state(&game, fen).unwrap();
        assert_eq!(Material.evaluate(&game, &s, Player::FIRST), KING + 2 * MAN - 2 * MAN);
        assert_eq!(Material.evaluate(&game, &s, Player::SECOND), -KING);
    }

    #[test]
    fn tempo_masks_sum_row_advances() {
        for row in 0..10u32 {
            let man = row_mask(row) & row_mask(row).wrapping_neg();
            let tempo: i32 = TEMPO_BITS
                .iter()
                .enumerate()
                .map(|(k, m)| ((man & m).count_ones() as i32) << k)
                .sum();
            assert_eq!(tempo, 9 - row as i32);
        }
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate_white(&start_position().pieces), 0);
    }

    #[test]
    fn colour_flip_negates() {
        let s: crate::DraughtsState = "W:W28,32,33,K45:B12,13,19".parse().unwrap();
        assert_eq!(evaluate_white(&s.pieces), -evaluate_white(&s.flipped().pieces));
        assert!(evaluate_white(&s.pieces) > 0);
    }
}
