//! The contest's computer opponent: a weight per cell, and the move with the best ratio of
//! the mover's weight to everyone else's.

use ply::Player;

use crate::board::{for_each_bit, Bits};
use crate::{Reversi, ReversiMove, ReversiState};

/// A weight-greedy strategy: one weight per cell, row by row from the top left.
///
/// For each legal placement it computes, on the board after the move, `M` = the total weight
/// of the cells the mover owns and `O` = the total weight of the cells all other players own,
/// and plays the placement with the largest value `M / O`, where:
///
/// - a negative `O` is divided as it is (the seed's formula, taken literally);
/// - `O = 0` gives `+inf` for `M > 0` and `-inf` for `M <= 0` (so `0 / 0` is `-inf`); the
///   seed does not say what a zero denominator gives, this rule is the harness's;
/// - when the other players own no cell after the move, `O` is exactly 0 (the test is on
///   the cells, not on the float: `O` is kept as a running total minus the flipped weight,
///   which can leave a rounding error of about `1e-14` of either sign);
/// - ties go to the first placement in reading order (top row first, left to right), i.e.
///   a later placement must be strictly better to replace the best so far.
///
/// Totals are summed in reading order, and each placement's `O` is the others' total before
/// the move minus the weight it flips (an incremental total, not a fresh sum), so the choice
/// is deterministic.
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy {
    /// One weight per cell, `row * size + column`.
    pub weights: Vec<f64>,
}

/// The seed's value of a move: `mine / others`, with the zero-denominator rules of
/// [`Strategy`].
pub fn ratio(mine: f64, others: f64) -> f64 {
    if others == 0.0 {
        if mine > 0.0 {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        }
    } else {
        mine / others
    }
}

impl Strategy {
    /// A strategy with these weights.
    pub fn new(weights: Vec<f64>) -> Strategy {
        Strategy { weights }
    }

    /// Total weight of each player's cells in `state`, summed in reading order.
    pub(crate) fn totals(&self, game: &Reversi, state: &ReversiState) -> [f64; 4] {
        let mut t = [0.0; 4];
        for (p, total) in t.iter_mut().enumerate().take(game.players()) {
            for_each_bit(&state.discs[p], |sq| *total += self.weights[sq]);
        }
        t
    }

    /// The seed's value of every placement in `placements` for the player to move, in
    /// reading order, passed to `f(square, flips, value)`.
    pub(crate) fn for_each_value(
        &self,
        game: &Reversi,
        state: &ReversiState,
        placements: &Bits,
        mut f: impl FnMut(usize, &Bits, f64),
    ) {
        let p = state.to_move as usize;
        let totals = self.totals(game, state);
        let others_total: f64 = (0..game.players()).filter(|&q| q != p).map(|q| totals[q]).sum();
        let mut others_cells = [0u64; 4];
        for q in (0..game.players()).filter(|&q| q != p) {
            for (o, d) in others_cells.iter_mut().zip(&state.discs[q]) {
                *o |= d;
            }
        }
        for_each_bit(placements, |sq| {
            let flips = game.flips(state, p, sq);
            let mut flipped = 0.0;
            for_each_bit(&flips, |s| flipped += self.weights[s]);
            let mine = totals[p] + self.weights[sq] + flipped;
            // The running total minus the flipped weight can be a rounding error away from
            // zero when the move takes every other disc: the sum is then the empty sum, 0.
            let wipes_out = others_cells.iter().zip(&flips).all(|(o, f)| o & !f == 0);
            let others = if wipes_out { 0.0 } else { others_total - flipped };
            f(sq, &flips, ratio(mine, others));
        });
    }

    /// The placement this strategy plays in `state` for the player to move, `None` when that
    /// player has no placement.
    pub fn choose(&self, game: &Reversi, state: &ReversiState) -> Option<ReversiMove> {
        let placements = game.placements(state, state.to_move as usize);
        self.choose_among(game, state, &placements)
    }

    pub(crate) fn choose_among(
        &self,
        game: &Reversi,
        state: &ReversiState,
        placements: &Bits,
    ) -> Option<ReversiMove> {
        self.best_with_flips(game, state, placements).map(|(sq, _)| ReversiMove::Place(sq as u8))
    }

    /// The chosen placement's square and the discs it flips.
    pub(crate) fn best_with_flips(
        &self,
        game: &Reversi,
        state: &ReversiState,
        placements: &Bits,
    ) -> Option<(usize, Bits)> {
        let mut best: Option<(usize, Bits, f64)> = None;
        self.for_each_value(game, state, placements, |sq, flips, v| {
            let better = match best {
                None => true,
                Some((_, _, b)) => v > b,
            };
            if better {
                best = Some((sq, *flips, v));
            }
        });
        best.map(|(sq, flips, _)| (sq, flips))
    }
}

/// Plays a whole game from `game`'s start with `strategies[p]` playing seat `p`; returns the
/// final position.
pub(crate) fn play_out(game: &Reversi, strategies: &[&Strategy]) -> ReversiState {
    let mut state = ply::Game::initial_state(game);
    play_on(game, &mut state, |p| strategies[p]);
    state
}

/// Plays `state` to the end with `strategy_of(p)` playing seat `p`.
pub(crate) fn play_on<'s>(
    game: &Reversi,
    state: &mut ReversiState,
    strategy_of: impl Fn(usize) -> &'s Strategy,
) {
    let n = game.players();
    let mut passes = 0;
    while passes < n {
        let p = state.to_move as usize;
        let placements = game.placements(state, p);
        match strategy_of(p).best_with_flips(game, state, &placements) {
            Some((sq, flips)) => {
                for q in 0..n {
                    for w in 0..4 {
                        state.discs[q][w] &= !flips[w];
                    }
                }
                for w in 0..4 {
                    state.discs[p][w] |= flips[w];
                }
                crate::board::bit_set(&mut state.discs[p], sq);
                state.to_move = ((p + 1) % n) as u8;
                passes = 0;
            }
            None => {
                state.to_move = ((p + 1) % n) as u8;
                passes += 1;
            }
        }
    }
}

/// Final disc counts of `state` for `game`'s players.
pub(crate) fn disc_counts(game: &Reversi, state: &ReversiState) -> Vec<u32> {
    (0..game.players()).map(|p| state.count(Player::new(p))).collect()
}
