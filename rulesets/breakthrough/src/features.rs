//! The features of Breakthrough's tunable evaluation, [`Learned`]: the worked example of
//! tuning in the guide (`docs/tuning.md`).
//!
//! [`PawnFeatures`] lists, from a player's side (its own count minus the opponent's):
//!
//! - `pst_gG_fF`: pawns with `G` rows still to go to the far row (capped at 7) on file `F`
//!   counted from the nearer edge (capped at 3): a piece-square table, folded left to right,
//!   32 entries (material is their sum);
//! - `defended`: pawns that a pawn of their own side defends;
//! - `hanging_to_move` and `hanging_waiting`: pawns an enemy pawn attacks and none of their
//!   own defends, of the side to move (it can still save them) and of the side that has just
//!   moved (they can be taken at once);
//! - `to_move`: +1 for the side to move.
//!
//! [`Learned`] weighs them with the weights in `weights/learned.txt`, which `tune fit`
//! wrote (the command is in the file's first line).

use ply::eval::{Features, LinearEval};
use ply::Player;

use crate::rules::{Breakthrough, BreakthroughState};

/// Rows to go that the table tells apart: 0 (on the far row) to 7 and more.
const GOALS: usize = 8;
/// Files from the nearer edge that the table tells apart: 0 to 3 and more.
const FILES: usize = 4;
/// The features after the table.
const EXTRA: [&str; 4] = ["defended", "hanging_to_move", "hanging_waiting", "to_move"];

/// The features of [`Learned`]; see the [module docs](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnFeatures;

impl PawnFeatures {
    /// Adds `sign` times the features of `player`'s pawns alone to `sink`.
    fn side(
        game: &Breakthrough,
        state: &BreakthroughState,
        player: Player,
        sign: f32,
        sink: &mut impl FnMut(usize, f32),
    ) {
        let (rows, cols) = (game.rows(), game.cols());
        let (pawns, enemy) = (state.pawns(player), state.pawns(player.opponent()));
        let mut bits = pawns;
        while bits != 0 {
            let square = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (col, row) = (square % cols, square / cols);
            let to_go = if player == Player::FIRST { rows - 1 - row } else { row };
            let file = col.min(cols - 1 - col);
            sink(to_go.min(GOALS - 1) * FILES + file.min(FILES - 1), sign);
        }
        let defended = pawns & game.attacks(player, pawns);
        let hanging = pawns & game.attacks(player.opponent(), enemy) & !defended;
        let table = GOALS * FILES;
        sink(table, sign * defended.count_ones() as f32);
        let to_move = state.side_to_move() == player;
        let slot = if to_move { table + 1 } else { table + 2 };
        sink(slot, sign * hanging.count_ones() as f32);
        if to_move {
            sink(table + 3, sign);
        }
    }
}

impl Features<Breakthrough> for PawnFeatures {
    fn count(&self) -> usize {
        GOALS * FILES + EXTRA.len()
    }

    fn name(&self, index: usize) -> String {
        match index.checked_sub(GOALS * FILES) {
            None => format!("pst_g{}_f{}", index / FILES, index % FILES),
            Some(extra) => EXTRA[extra].to_string(),
        }
    }

    fn extract(
        &self,
        game: &Breakthrough,
        state: &BreakthroughState,
        player: Player,
        sink: &mut impl FnMut(usize, f32),
    ) {
        PawnFeatures::side(game, state, player, 1.0, sink);
        PawnFeatures::side(game, state, player.opponent(), -1.0, sink);
    }
}

/// The weights `tune fit` found for [`PawnFeatures`], embedded at build time.
pub const LEARNED_WEIGHTS: &str = include_str!("../weights/learned.txt");

/// Breakthrough's tuned evaluation: [`PawnFeatures`] weighed by [`LEARNED_WEIGHTS`]. Spec
/// `alphabeta:eval=learned` in the tools.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_breakthrough::{learned, Breakthrough};
///
/// let game = Breakthrough::standard();
/// let eval = learned();
/// let start = game.initial_state();
/// let white = eval.evaluate(&game, &start, Player::FIRST);
/// assert_eq!(eval.evaluate(&game, &start, Player::SECOND), -white);
/// ```
pub type Learned = LinearEval<PawnFeatures>;

/// The evaluation [`Learned`].
///
/// # Panics
/// Never: a test checks that the embedded weights match the features.
pub fn learned() -> Learned {
    LinearEval::embedded(PawnFeatures, LEARNED_WEIGHTS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::{Game, Notation};

    fn features(state: &BreakthroughState, player: Player) -> Vec<f32> {
        let mut values = vec![0.0; PawnFeatures.count()];
        PawnFeatures.extract(&Breakthrough::standard(), state, player, &mut |i, v| values[i] += v);
        values
    }

    #[test]
    fn features_are_zero_sum_and_count_what_they_say() {
        let game = Breakthrough::standard();
        let start = game.initial_state();
        let white = features(&start, Player::FIRST);
        let black = features(&start, Player::SECOND);
        assert!(white.iter().zip(&black).all(|(w, b)| w == &-b));
        // The start is symmetric but White is to move.
        let idx =
            |name: &str| (0..PawnFeatures.count()).find(|&i| PawnFeatures.name(i) == name).unwrap();
        assert_eq!(white[idx("to_move")], 1.0);
        assert_eq!(
            white
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != idx("to_move"))
                .map(|(_, v)| v.abs())
                .sum::<f32>(),
            0.0
        );
        // White's pawn on d6 has 2 rows to go on file 3; c5 defends it; e7 attacks it.
        let state = game
            .parse_state(
                "......../....B.../...W..../..W...../......../......../B......./........ w",
            )
            .unwrap();
        let w = features(&state, Player::FIRST);
        assert_eq!(w[idx("pst_g2_f3")], 1.0);
        assert_eq!(w[idx("pst_g3_f2")], 1.0);
        assert_eq!(w[idx("defended")], 1.0);
        // Black's e7 is attacked by d6 and undefended, Black is waiting: it hangs.
        assert_eq!(w[idx("hanging_waiting")], -1.0);
        assert_eq!(w[idx("pst_g6_f3")], -1.0, "e7 has six rows to go for Black");
        assert_eq!(w[idx("pst_g1_f0")], -1.0, "a2 is one row from Black's far row");
        let names: std::collections::HashSet<String> =
            (0..PawnFeatures.count()).map(|i| PawnFeatures.name(i)).collect();
        assert_eq!(names.len(), PawnFeatures.count());
    }

    #[test]
    fn the_embedded_weights_match_the_features() {
        let eval = learned();
        assert_eq!(eval.weights().len(), PawnFeatures.count());
    }
}
