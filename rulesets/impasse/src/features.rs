//! The features of the tunable evaluation of Impasse, [`Learned`].
//!
//! [`ImpasseFeatures`] lists, each as a side's own count minus the opponent's (so the
//! evaluation is zero-sum whatever the weights):
//!
//! - `single_row_R` and `double_row_R` (R = 1..8): singles and doubles on row R counted from
//!   their owner's side (row 1 is the owner's near row, where doubles bear off, so
//!   `double_row_1` stays 0; row 8 is the far row, where singles wait to be crowned);
//! - `single_file_F` and `double_file_F` (F = a..d): singles and doubles on file F or its
//!   mirror image (a and h, b and g, c and f, d and e);
//! - `removed`: checkers removed (the score);
//! - `mobility`: basic moves available (slide destinations and transposes);
//! - `impasse`: 1 when the side has no basic move (its next turn is an impasse removal);
//! - `crown_ready`: singles that can reach the far row with their next move;
//! - `bear_off_ready`: doubles that can bear off with their next move;
//! - `blocked_singles` and `blocked_doubles`: pieces with no basic move of their own (a
//!   single with no empty square diagonally forward, a double with no empty square and no
//!   own single diagonally backward);
//! - `to_move`: +1 for the side to move.
//!
//! [`Learned`] weighs them with the weights in `weights/learned.txt`. Until `tune fit`
//! overwrites it, that file holds the hand-written [`crate::Weights::default`] in these
//! features (a removed checker 1, which the file's scale of 100 makes the hand evaluation's
//! 100 score units; mobility 0.01, impasse 0.4, to move 0.25; the rest 0), so the learned
//! evaluation plays exactly like the classic one.

use ply::eval::{Features, LinearEval};
use ply::Player;

use crate::board::Bitboard;
use crate::eval::basic_mobility;
use crate::rules::{Impasse, ImpasseState};

/// The first `single_row_R`.
const SINGLE_ROW: usize = 0;
/// The first `double_row_R`.
const DOUBLE_ROW: usize = 8;
/// The first `single_file_F`.
const SINGLE_FILE: usize = 16;
/// The first `double_file_F`.
const DOUBLE_FILE: usize = 20;
/// The features after the tables, in order.
const EXTRA: [&str; 8] = [
    "removed",
    "mobility",
    "impasse",
    "crown_ready",
    "bear_off_ready",
    "blocked_singles",
    "blocked_doubles",
    "to_move",
];
const REMOVED: usize = 24;
const MOBILITY: usize = REMOVED + 1;
const IMPASSE: usize = REMOVED + 2;
const CROWN_READY: usize = REMOVED + 3;
const BEAR_OFF_READY: usize = REMOVED + 4;
const BLOCKED_SINGLES: usize = REMOVED + 5;
const BLOCKED_DOUBLES: usize = REMOVED + 6;
const TO_MOVE: usize = REMOVED + 7;
const COUNT: usize = REMOVED + EXTRA.len();

/// The features of [`Learned`]; see the [module docs](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImpasseFeatures;

const NOT_A: Bitboard = !0x0101_0101_0101_0101;
const NOT_H: Bitboard = !0x8080_8080_8080_8080;
/// Files a and h, b and g, c and f, d and e.
const FILES: [Bitboard; 4] =
    [0x8181_8181_8181_8181, 0x4242_4242_4242_4242, 0x2424_2424_2424_2424, 0x1818_1818_1818_1818];

/// The squares whose up-left or up-right neighbour (towards row 8) is in `bb`.
#[inline]
fn below(bb: Bitboard) -> Bitboard {
    ((bb & NOT_H) >> 7) | ((bb & NOT_A) >> 9)
}

/// The squares whose down-left or down-right neighbour (towards row 1) is in `bb`.
#[inline]
fn above(bb: Bitboard) -> Bitboard {
    ((bb & NOT_A) << 7) | ((bb & NOT_H) << 9)
}

impl ImpasseFeatures {
    /// Adds `sign` times the features of side `p` alone to `sink`.
    #[inline]
    fn side(s: &ImpasseState, p: usize, sign: f32, sink: &mut impl FnMut(usize, f32)) {
        let singles = s.singles[p];
        let doubles = s.doubles[p];
        for row in 0..8 {
            // Row `row` from the owner's side: White (0) counts from row 1, Black from row 8.
            let shift = if p == 0 { row * 8 } else { (7 - row) * 8 };
            let n = ((singles >> shift) & 0xff).count_ones();
            if n != 0 {
                sink(SINGLE_ROW + row, sign * n as f32);
            }
            let n = ((doubles >> shift) & 0xff).count_ones();
            if n != 0 {
                sink(DOUBLE_ROW + row, sign * n as f32);
            }
        }
        for (f, &file) in FILES.iter().enumerate() {
            let n = (singles & file).count_ones();
            if n != 0 {
                sink(SINGLE_FILE + f, sign * n as f32);
            }
            let n = (doubles & file).count_ones();
            if n != 0 {
                sink(DOUBLE_FILE + f, sign * n as f32);
            }
        }
        let player = Player::new(p);
        sink(REMOVED, sign * s.score(player) as f32);
        let (mobility, ready, crowning) = basic_mobility(s, p);
        sink(MOBILITY, sign * mobility as f32);
        if mobility == 0 {
            sink(IMPASSE, sign);
        }
        sink(CROWN_READY, sign * crowning as f32);
        sink(BEAR_OFF_READY, sign * ready as f32);
        let empty = !s.occupied();
        // Singles move forward onto an empty square; doubles backward onto an empty square or
        // one of their own singles (a transpose).
        let (single_free, double_free) = if p == 0 {
            (below(empty), above(empty | singles))
        } else {
            (above(empty), below(empty | singles))
        };
        sink(BLOCKED_SINGLES, sign * (singles & !single_free).count_ones() as f32);
        sink(BLOCKED_DOUBLES, sign * (doubles & !double_free).count_ones() as f32);
        if s.side_to_move() == player {
            sink(TO_MOVE, sign);
        }
    }
}

impl Features<Impasse> for ImpasseFeatures {
    fn count(&self) -> usize {
        COUNT
    }

    fn name(&self, index: usize) -> String {
        let file = |f: usize| char::from(b'a' + f as u8);
        match index {
            i if i < DOUBLE_ROW => format!("single_row_{}", i - SINGLE_ROW + 1),
            i if i < SINGLE_FILE => format!("double_row_{}", i - DOUBLE_ROW + 1),
            i if i < DOUBLE_FILE => format!("single_file_{}", file(i - SINGLE_FILE)),
            i if i < REMOVED => format!("double_file_{}", file(i - DOUBLE_FILE)),
            i => EXTRA[i - REMOVED].to_string(),
        }
    }

    fn extract(
        &self,
        _game: &Impasse,
        state: &ImpasseState,
        player: Player,
        sink: &mut impl FnMut(usize, f32),
    ) {
        let me = player.index() & 1;
        ImpasseFeatures::side(state, me, 1.0, sink);
        ImpasseFeatures::side(state, 1 - me, -1.0, sink);
    }
}

/// The weights of [`ImpasseFeatures`], embedded at build time: those `tune fit` found, or
/// until then the hand-written evaluation's (see the [module docs](self)).
pub const LEARNED_WEIGHTS: &str = include_str!("../weights/learned.txt");

/// Impasse's tunable evaluation: [`ImpasseFeatures`] weighed by [`LEARNED_WEIGHTS`]. Spec
/// `alphabeta:eval=learned` in the tools.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_impasse::{learned, Impasse};
///
/// let game = Impasse::new();
/// let eval = learned();
/// let start = game.initial_state();
/// let white = eval.evaluate(&game, &start, Player::FIRST);
/// assert_eq!(eval.evaluate(&game, &start, Player::SECOND), -white);
/// ```
pub type Learned = LinearEval<ImpasseFeatures>;

/// The evaluation [`Learned`].
///
/// # Panics
/// Never: a test checks that the embedded weights match the features.
pub fn learned() -> Learned {
    LinearEval::embedded(ImpasseFeatures, LEARNED_WEIGHTS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Classic;
    use ply::eval::Evaluator;
    use ply::testing::visit_random_games;

    fn features(state: &ImpasseState, player: Player) -> Vec<f32> {
        let mut values = vec![0.0; COUNT];
        ImpasseFeatures.extract(&Impasse::new(), state, player, &mut |i, v| values[i] += v);
        values
    }

    fn idx(name: &str) -> usize {
        (0..COUNT)
            .find(|&i| ImpasseFeatures.name(i) == name)
            .unwrap_or_else(|| panic!("no feature {name}"))
    }

    /// Random games, calling `f` at every position; returns how many there were.
    fn random_games(games: usize, f: impl FnMut(&ImpasseState)) -> usize {
        visit_random_games(&Impasse::new(), games, 10_000, 1, f)
    }

    #[test]
    fn features_are_zero_sum_on_random_games() {
        let seen = random_games(30, |s| {
            let (a, b) = (features(s, Player::FIRST), features(s, Player::SECOND));
            assert!(a.iter().zip(&b).all(|(x, y)| *x == -*y), "not zero-sum: {s:?}");
            assert_eq!(a[idx("double_row_1")], 0.0, "doubles bear off on row 1");
        });
        assert!(seen > 1000);
        // The start is symmetric but for the move.
        let start = features(&ImpasseState::start(), Player::FIRST);
        assert_eq!(start[TO_MOVE], 1.0);
        assert_eq!(start.iter().map(|v| v.abs()).sum::<f32>(), 1.0);
    }

    #[test]
    fn names_are_unique_words() {
        let names: std::collections::HashSet<String> =
            (0..COUNT).map(|i| ImpasseFeatures.name(i)).collect();
        assert_eq!(names.len(), COUNT);
        assert!(names.iter().all(|n| !n.is_empty() && !n.contains(char::is_whitespace)));
        assert_eq!(COUNT, 32);
        assert_eq!(idx("double_file_d"), DOUBLE_FILE + 3);
    }

    #[test]
    fn features_count_what_they_say() {
        // White (lowercase singles, uppercase doubles) to move; row 8 first.
        // 8 . . . . . b . .
        // 7 . . . . . . b .
        // 6 . . . w . . . w    d6 reaches b8 (f8 is taken); h6 is blocked on g7
        // 5 . . . . . . . .
        // 4 . . . . . . . .
        // 3 . . W . . . W .    c3 reaches a1 and e1; g3 is blocked on f2 and h2
        // 2 . . . . . b . b
        // 1 . . . . . . . .
        let s: ImpasseState =
            ".....b../......b./...w...w/......../......../..W...W./.....b.b/........ w"
                .parse()
                .unwrap();
        let w = features(&s, Player::FIRST);
        let b = features(&s, Player::SECOND);
        assert_eq!(w, b.iter().map(|v| -v).collect::<Vec<_>>());
        let mut expected = [0.0; COUNT];
        let mut set = |name: &str, v: f32| expected[idx(name)] = v;
        // White: singles d6, h6 (row 6); doubles c3, g3 (row 3). Black from its side: f8
        // and g7 are its rows 1 and 2, f2 and h2 its row 7.
        set("single_row_6", 2.0);
        set("single_row_1", -1.0);
        set("single_row_2", -1.0);
        set("single_row_7", -2.0);
        set("double_row_3", 2.0);
        // Files: d (d6), h -> a (h6), c (c3), g -> b (g3); Black f8, f2 -> c, g7 -> b, h2 -> a.
        set("single_file_d", 1.0);
        set("single_file_a", 1.0 - 1.0);
        set("single_file_c", -2.0);
        set("single_file_b", -1.0);
        set("double_file_c", 1.0);
        set("double_file_b", 1.0);
        // White has 2 + 4 checkers on the board, Black 4.
        set("removed", 6.0 - 8.0);
        // White: d6 to c7, b8 or e7 (f8 is taken; b8 crowns), h6 none (g7 is taken); the
        // double c3 to b2, a1, d2 or e1 (a1 and e1 bear off), g3 none (f2 and h2 are
        // Black's). Black's counts come from `basic_mobility`, as in the hand evaluation.
        let (wm, wr, wc) = basic_mobility(&s, 0);
        let (bm, br, bc) = basic_mobility(&s, 1);
        assert_eq!((wm, wr, wc), (7, 1, 1));
        set("mobility", wm as f32 - bm as f32);
        set("crown_ready", wc as f32 - bc as f32);
        set("bear_off_ready", wr as f32 - br as f32);
        // Blocked: White's h6 (g7 Black's, no square beyond the h file) and the double g3
        // (f2 and h2 Black's). Black's f2 and h2 can move down to row 1 (e1, g1); g7 to f6
        // or h6 (White's): not blocked; f8 to e7: not blocked.
        set("blocked_singles", 1.0);
        set("blocked_doubles", 1.0);
        set("to_move", 1.0);
        for i in 0..COUNT {
            assert_eq!(w[i], expected[i], "{}", ImpasseFeatures.name(i));
        }
    }

    #[test]
    fn impasse_counts_when_no_basic_move() {
        // White's only single on a1 is boxed in by Black's b2: no basic move.
        let s: ImpasseState =
            "......../......../......../......../......../......../.b....../w....... w"
                .parse()
                .unwrap();
        let w = features(&s, Player::FIRST);
        assert_eq!(w[IMPASSE], 1.0);
        assert_eq!(w[BLOCKED_SINGLES], 1.0);
        // Black's b2 slides to c1 (a1 is taken), where it would crown.
        assert_eq!(w[MOBILITY], 0.0 - 1.0);
        assert_eq!(w[CROWN_READY], 0.0 - 1.0);
    }

    #[test]
    fn the_embedded_weights_play_like_the_classic_evaluation() {
        let eval = learned();
        assert_eq!(eval.weights().len(), COUNT);
        let classic = Classic::default();
        let game = Impasse::new();
        let seen = random_games(10, |s| {
            for p in [Player::FIRST, Player::SECOND] {
                assert_eq!(eval.evaluate(&game, s, p), classic.evaluate(&game, s, p), "{s:?}");
            }
        });
        assert!(seen > 100);
    }
}
