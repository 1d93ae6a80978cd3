//! The features of the tunable evaluation of international draughts, [`Learned`].
//!
//! Each side is seen from its own seat: White's squares as they are, Black's turned half a
//! turn (square `s` becomes `51 - s`), so a side's back row is 46-50 and its men are crowned
//! on 1-5. [`DraughtsFeatures`] lists, each as a side's own count minus the opponent's (so
//! the evaluation is zero-sum whatever the weights):
//!
//! - `man_N` (N = 1..50): a piece-square table for men, square N from the owner's seat;
//! - `men` and `kings`: material;
//! - `men_ratio` and `kings_ratio`: the men (kings) difference divided by the number of
//!   pieces on the board, so that trading down when ahead pays;
//! - `tempo`: the sum of the men's rows advanced from the back row (0 to 9), and
//!   `tempo_late`, the same times the share of the 40 pieces already off the board;
//! - `centre`: men on 22-24 and 27-29; `near_centre`: men on 17-19 and 32-34;
//! - `outpost`: men on 22-24 or 27-29 with men of their own on both squares behind them;
//! - `guard`: men on the back-row guard squares 47, 48 and 49;
//! - `imbalance`: the difference between the men on the left wing (columns a-e from the
//!   owner's seat) and on the right, in absolute value;
//! - `king_diagonal`: kings on the long diagonal 46-5;
//! - `mobility`: quiet moves (men's steps and kings' flying moves);
//! - `runaway`: men in the opponent's half with no opponent piece on any square they could
//!   reach on the way to the crowning row;
//! - `hanging_to_move` and `hanging_waiting`: pieces the opponent could take at once (a man
//!   next to them or a king on their diagonal, an empty square beyond), of the side to move
//!   (it can still save them) and of the side that has just moved (they can be taken now);
//! - `to_move`: +1 for the side to move.
//!
//! [`Learned`] weighs them with the weights in `weights/learned.txt`, which `tune fit` found
//! on 10,000 self-play games, starting from the hand-written [`crate::eval::Classic`]'s
//! weights in these features (a man is 1, which the file's scale of 100 makes 100 score
//! units), then refitted to depth-7 searches of its own on 8,000 more games. It beats the
//! hand-set evaluation by about 145 Elo, the refit its predecessor by about 48
//! (BENCHMARKS.md), and is the default of the `international_draughts` program.

use ply::eval::{Features, LinearEval};
use ply::Player;

use crate::bitboard::{
    bit_of, free_ray, nearest, reverse, rotate, row_mask, shift, Bits, NE, NW, RAYS, SQUARES,
};
use crate::rules::{DraughtsState, InternationalDraughts};

/// Squares in the piece-square table.
const TABLE: usize = 50;
/// The features after the table, in order.
const EXTRA: [&str; 17] = [
    "men",
    "kings",
    "men_ratio",
    "kings_ratio",
    "tempo",
    "tempo_late",
    "centre",
    "near_centre",
    "outpost",
    "guard",
    "imbalance",
    "king_diagonal",
    "mobility",
    "runaway",
    "hanging_to_move",
    "hanging_waiting",
    "to_move",
];
const MEN: usize = TABLE;
const KINGS: usize = TABLE + 1;
const MEN_RATIO: usize = TABLE + 2;
const KINGS_RATIO: usize = TABLE + 3;
const TEMPO: usize = TABLE + 4;
const TEMPO_LATE: usize = TABLE + 5;
const CENTRE: usize = TABLE + 6;
const NEAR_CENTRE: usize = TABLE + 7;
const OUTPOST: usize = TABLE + 8;
const GUARD: usize = TABLE + 9;
const IMBALANCE: usize = TABLE + 10;
const KING_DIAGONAL: usize = TABLE + 11;
const MOBILITY: usize = TABLE + 12;
const RUNAWAY: usize = TABLE + 13;
const HANGING_TO_MOVE: usize = TABLE + 14;
const HANGING_WAITING: usize = TABLE + 15;
const TO_MOVE: usize = TABLE + 16;

const fn squares(list: &[u8]) -> u64 {
    let mut bb = 0u64;
    let mut i = 0;
    while i < list.len() {
        bb |= 1 << bit_of(list[i]);
        i += 1;
    }
    bb
}

const CENTRE_SQUARES: u64 = squares(&[22, 23, 24, 27, 28, 29]);
const NEAR_CENTRE_SQUARES: u64 = squares(&[17, 18, 19, 32, 33, 34]);
const GUARD_SQUARES: u64 = squares(&[47, 48, 49]);
const LONG_DIAGONAL: u64 = squares(&[5, 10, 14, 19, 23, 28, 32, 37, 41, 46]);
/// Columns a-e from the owner's seat.
const LEFT: u64 = {
    let mut bb = 0u64;
    let mut s = 1u8;
    while s <= 50 {
        let (row, i) = ((s - 1) / 5, (s - 1) % 5);
        let col = if row % 2 == 0 { 2 * i + 1 } else { 2 * i };
        if col < 5 {
            bb |= 1 << bit_of(s);
        }
        s += 1;
    }
    bb
};
/// The opponent's half from the owner's seat: squares 1-25.
const FAR_HALF: u64 = row_mask(0) | row_mask(1) | row_mask(2) | row_mask(3) | row_mask(4);

/// The features of [`Learned`]; see the [module docs](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DraughtsFeatures;

/// The pieces of `victims` that `men` and `kings` (the other side's) could take at once.
#[inline]
fn takeable(victims: u64, men: u64, kings: u64) -> u64 {
    let occupied = victims | men | kings;
    let empty = SQUARES & !occupied;
    let mut targets = 0;
    for d in 0..4 {
        targets |= shift(men, d) & shift(empty, reverse(d));
    }
    for k in Bits(kings) {
        for d in 0..4 {
            let blockers = RAYS[d][k as usize] & occupied;
            if blockers != 0 {
                let b = nearest(blockers, d);
                if shift(1 << b, d) & empty != 0 {
                    targets |= 1 << b;
                }
            }
        }
    }
    targets & victims
}

impl DraughtsFeatures {
    /// Adds `sign` times the features of one side alone to `sink`: its pieces `own` (kings
    /// `own_kings`) and the opponent's `opp` (kings `opp_kings`), seen from its seat.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn side(
        own: u64,
        own_kings: u64,
        opp: u64,
        opp_kings: u64,
        to_move: bool,
        sign: f32,
        sink: &mut impl FnMut(usize, f32),
    ) {
        let men = own & !own_kings;
        let occupied = own | opp;
        let empty = SQUARES & !occupied;
        let mut tempo = 0u32;
        for b in Bits(men) {
            let square = u32::from(crate::bitboard::square_of(b));
            sink(square as usize - 1, sign);
            tempo += 9 - (square - 1) / 5;
        }
        let (n_men, n_kings) = (men.count_ones() as f32, own_kings.count_ones() as f32);
        let total = occupied.count_ones();
        let total_f = (total as f32).max(1.0);
        sink(MEN, sign * n_men);
        sink(KINGS, sign * n_kings);
        sink(MEN_RATIO, sign * n_men / total_f);
        sink(KINGS_RATIO, sign * n_kings / total_f);
        sink(TEMPO, sign * tempo as f32);
        let gone = 40 - total.min(40);
        sink(TEMPO_LATE, sign * tempo as f32 * gone as f32 / 40.0);
        sink(CENTRE, sign * (men & CENTRE_SQUARES).count_ones() as f32);
        sink(NEAR_CENTRE, sign * (men & NEAR_CENTRE_SQUARES).count_ones() as f32);
        // Men on F with men of their own on F+5 and F+6 (behind them).
        let backed = men & shift(men, NE) & shift(men, NW);
        sink(OUTPOST, sign * (backed & CENTRE_SQUARES).count_ones() as f32);
        sink(GUARD, sign * (men & GUARD_SQUARES).count_ones() as f32);
        let left = (men & LEFT).count_ones() as f32;
        sink(IMBALANCE, sign * (2.0 * left - n_men).abs());
        sink(KING_DIAGONAL, sign * (own_kings & LONG_DIAGONAL).count_ones() as f32);

        let mut mobility =
            (shift(men, NW) & empty).count_ones() + (shift(men, NE) & empty).count_ones();
        for k in Bits(own_kings) {
            for d in 0..4 {
                mobility += free_ray(k, d, occupied).count_ones();
            }
        }
        sink(MOBILITY, sign * mobility as f32);

        let mut runaway = 0u32;
        for b in Bits(men & FAR_HALF) {
            let mut front = 1u64 << b;
            loop {
                front = (shift(front, NW) | shift(front, NE)) & SQUARES;
                if front == 0 {
                    runaway += 1;
                    break;
                }
                if front & opp != 0 {
                    break;
                }
            }
        }
        sink(RUNAWAY, sign * runaway as f32);

        let hanging = takeable(own, opp & !opp_kings, opp_kings).count_ones() as f32;
        sink(if to_move { HANGING_TO_MOVE } else { HANGING_WAITING }, sign * hanging);
        if to_move {
            sink(TO_MOVE, sign);
        }
    }
}

impl Features<InternationalDraughts> for DraughtsFeatures {
    fn count(&self) -> usize {
        TABLE + EXTRA.len()
    }

    fn name(&self, index: usize) -> String {
        match index.checked_sub(TABLE) {
            None => format!("man_{}", index + 1),
            Some(extra) => EXTRA[extra].to_string(),
        }
    }

    fn extract(
        &self,
        _game: &InternationalDraughts,
        state: &DraughtsState,
        player: Player,
        sink: &mut impl FnMut(usize, f32),
    ) {
        let p = &state.pieces;
        let (white, white_kings) = (p.white, p.white & p.kings);
        let (black, black_kings) = (rotate(p.black), rotate(p.black & p.kings));
        let (black_white, black_white_kings) = (rotate(p.white), rotate(white_kings));
        let white_sign = if player == Player::FIRST { 1.0 } else { -1.0 };
        let white_to_move = state.white_to_move;
        DraughtsFeatures::side(
            white,
            white_kings,
            p.black,
            p.black & p.kings,
            white_to_move,
            white_sign,
            sink,
        );
        DraughtsFeatures::side(
            black,
            black_kings,
            black_white,
            black_white_kings,
            !white_to_move,
            -white_sign,
            sink,
        );
    }
}

/// The weights of [`DraughtsFeatures`] that `tune fit` found (the commands are in the file's
/// first lines), embedded at build time.
pub const LEARNED_WEIGHTS: &str = include_str!("../weights/learned.txt");

/// International draughts' tunable evaluation: [`DraughtsFeatures`] weighed by
/// [`LEARNED_WEIGHTS`]. Spec `alphabeta:eval=learned` in the tools.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_draughts::{learned, InternationalDraughts};
///
/// let game = InternationalDraughts::new();
/// let eval = learned();
/// let start = game.initial_state();
/// let white = eval.evaluate(&game, &start, Player::FIRST);
/// assert_eq!(eval.evaluate(&game, &start, Player::SECOND), -white);
/// ```
pub type Learned = LinearEval<DraughtsFeatures>;

/// The evaluation [`Learned`].
///
/// # Panics
/// Never: a test checks that the embedded weights match the features.
pub fn learned() -> Learned {
    LinearEval::embedded(DraughtsFeatures, LEARNED_WEIGHTS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::eval::Evaluator;
    use ply::testing::visit_random_games;
    use ply::{Game, Notation};

    fn features(state: &DraughtsState, player: Player) -> Vec<f32> {
        let mut values = vec![0.0; DraughtsFeatures.count()];
        DraughtsFeatures
            .extract(&InternationalDraughts::new(), state, player, &mut |i, v| values[i] += v);
        values
    }

    fn idx(name: &str) -> usize {
        (0..DraughtsFeatures.count())
            .find(|&i| DraughtsFeatures.name(i) == name)
            .unwrap_or_else(|| panic!("no feature {name}"))
    }

    #[test]
    fn features_are_zero_sum_on_random_games() {
        let game = InternationalDraughts::new();
        let seen = visit_random_games(&game, 30, 300, 2, |state| {
            let (w, b) = (features(state, Player::FIRST), features(state, Player::SECOND));
            assert!(w.iter().zip(&b).all(|(x, y)| *x == -*y), "not zero-sum: {state}");
            // The flipped position is the same from the other seat.
            assert_eq!(w, features(&state.flipped(), Player::SECOND), "{state}");
        });
        assert!(seen > 1000);
        // The start is symmetric: only the move tells the sides apart.
        let start = features(&game.initial_state(), Player::FIRST);
        assert_eq!(start[idx("to_move")], 1.0);
        assert_eq!(start.iter().map(|v| v.abs()).sum::<f32>(), 1.0);
    }

    #[test]
    fn names_are_unique_words() {
        let names: std::collections::HashSet<String> =
            (0..DraughtsFeatures.count()).map(|i| DraughtsFeatures.name(i)).collect();
        assert_eq!(names.len(), DraughtsFeatures.count());
        assert!(names.iter().all(|n| !n.is_empty() && !n.contains(char::is_whitespace)));
        assert_eq!(DraughtsFeatures.count(), 67);
    }

    #[test]
    fn features_count_what_they_say() {
        let game = InternationalDraughts::new();
        // White to move: 28 backed by 32 and 33 (an outpost), 11 (which Black's 7 can take
        // to 16, and which can take 7 to 2), 47 on guard, a king on the long diagonal at 46.
        // Black: 23 (which 28 can take to 19), 45 (runs to 50), 7, a king on 3.
        let s = game.parse_state("W:W11,28,32,33,47,K46:B7,23,45,K3").unwrap();
        let w = features(&s, Player::FIRST);
        assert_eq!(w, features(&s, Player::SECOND).iter().map(|v| -v).collect::<Vec<_>>());
        let mut expected = vec![0.0; DraughtsFeatures.count()];
        let mut set = |name: &str, v: f32| expected[idx(name)] = v;
        for sq in [11, 32, 33, 47] {
            set(&format!("man_{sq}"), 1.0);
        }
        // Black's 7, 45 and 23 are its 44, 6 and 28 (which cancels White's 28).
        set("man_44", -1.0);
        set("man_6", -1.0);
        set("men", 5.0 - 3.0);
        set("men_ratio", 5.0 / 10.0 - 3.0 / 10.0);
        // Rows advanced: White 7 + 4 + 3 + 3 + 0, Black 1 + 8 + 4; 30 of 40 pieces are off.
        set("tempo", 17.0 - 13.0);
        set("tempo_late", 17.0 * 30.0 / 40.0 - 13.0 * 30.0 / 40.0);
        set("near_centre", 2.0);
        set("outpost", 1.0);
        set("guard", 1.0);
        // White: 11, 28, 32, 47 left, 33 right; Black (its 44, 6, 28): 6 and 28 left.
        set("imbalance", 3.0 - 1.0);
        set("king_diagonal", 1.0);
        // White: 11-6, 28-22, 32-27, 33-29, 47-41, 47-42, K46-41, K46-37. Black: 7-12,
        // 23-29, 45-50, and the king on 3 to 8, 12, 17, 21, 26, 9, 14, 20, 25.
        set("mobility", 8.0 - 12.0);
        set("runaway", -1.0);
        set("hanging_to_move", 1.0);
        set("hanging_waiting", -2.0);
        set("to_move", 1.0);
        for i in 0..DraughtsFeatures.count() {
            assert_eq!(w[i], expected[i], "{}", DraughtsFeatures.name(i));
        }
    }

    #[test]
    fn a_king_on_a_diagonal_threatens_from_afar() {
        let game = InternationalDraughts::new();
        // Black's king on 5 sees White's man on 28 along the long diagonal, 32 behind is empty.
        let s = game.parse_state("B:W28:BK5").unwrap();
        let w = features(&s, Player::FIRST);
        assert_eq!(w[idx("hanging_waiting")], 1.0);
        // With 32 held, 28 is safe.
        let s = game.parse_state("B:W28,32:BK5").unwrap();
        assert_eq!(features(&s, Player::FIRST)[idx("hanging_waiting")], 0.0);
    }

    #[test]
    fn the_embedded_weights_match_the_features() {
        let eval = learned();
        assert_eq!(eval.weights().len(), DraughtsFeatures.count());
        let game = InternationalDraughts::new();
        let start = game.initial_state();
        // The start is symmetric apart from the move: it is worth the `to_move` weight to
        // the side to move.
        let tempo = eval.weights()[TO_MOVE].round() as i32;
        assert_eq!(eval.evaluate(&game, &start, Player::FIRST), tempo);
        assert_eq!(eval.evaluate(&game, &start, Player::SECOND), -tempo);
        let up = game.parse_state("W:W31-50:B2-20").unwrap();
        let score = eval.evaluate(&game, &up, Player::FIRST);
        assert!(score > 50, "a man up scores {score}");
        assert_eq!(eval.evaluate(&game, &up, Player::SECOND), -score);
    }
}
