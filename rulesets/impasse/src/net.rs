//! The inputs of a neural evaluation of Impasse ([`NetInputs`]).
//!
//! Four sets of one input per playing square (the 32 squares the checkers stand on), seen
//! from the player to move (the board turned half a turn for Black, so that the mover's
//! singles always go up and its doubles down): the mover's singles, its doubles, then the
//! opponent's singles and doubles; 128 inputs. Four phase buckets by the checkers the
//! leading player has removed: 0-2, 3-5, 6-8, 9-11.

use ply::eval::net::NetInputs;
use ply::Game;

use crate::board::Bitboard;
use crate::rules::{Impasse, ImpasseState, CHECKERS};

/// The network inputs of Impasse: each player's singles and doubles on each playing
/// square, relative to the player to move.
///
/// ```
/// use ply::eval::net::NetInputs;
/// use ply::Game;
/// use ply_impasse::net::StackNetInputs;
/// use ply_impasse::Impasse;
///
/// let game = Impasse::new();
/// let mut active = Vec::new();
/// let bucket = StackNetInputs.active(&game, &game.initial_state(), &mut |i| active.push(i));
/// // Four singles and four doubles a side, nothing removed yet.
/// assert_eq!((active.len(), bucket), (16, 0));
/// assert_eq!(StackNetInputs.inputs(), 128);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StackNetInputs;

/// The number of phase buckets.
pub const BUCKETS: usize = 4;

/// The playing squares (those with an even row plus column) of each set.
const SQUARES: usize = 32;

impl NetInputs<Impasse> for StackNetInputs {
    fn inputs(&self) -> usize {
        4 * SQUARES
    }

    fn buckets(&self) -> usize {
        BUCKETS
    }

    #[inline]
    fn active(&self, game: &Impasse, state: &ImpasseState, sink: &mut impl FnMut(usize)) -> usize {
        let me = game.to_move(state);
        // Half a turn maps square `s` to `63 - s`, a playing square to a playing square.
        let turn = if me.index() == 0 { 0 } else { 63 };
        let mut emit = |set: usize, mut bits: Bitboard| {
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // Each row holds four playing squares, one in each pair of columns.
                sink(set * SQUARES + ((sq ^ turn) >> 1));
            }
        };
        let them = me.opponent();
        emit(0, state.singles(me));
        emit(1, state.doubles(me));
        emit(2, state.singles(them));
        emit(3, state.doubles(them));
        let removed = state.score(me).max(state.score(them)) as usize;
        (removed * BUCKETS / CHECKERS as usize).min(BUCKETS - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::{MoveList, Notation};

    fn active(game: &Impasse, state: &ImpasseState) -> (Vec<usize>, usize) {
        let mut active = Vec::new();
        let bucket = StackNetInputs.active(game, state, &mut |i| active.push(i));
        active.sort_unstable();
        (active, bucket)
    }

    #[test]
    fn the_start_looks_the_same_to_both_sides() {
        let game = Impasse::new();
        let start = game.initial_state();
        let (white, _) = active(&game, &start);
        // White's singles a1, e1 (squares 0, 4: inputs 0, 2), d2, h2 (11, 15: 5, 7).
        assert_eq!(white[..4], [0, 2, 5, 7]);
        // The start is its own mirror image under half a turn and a change of colours, so
        // Black to move on the start board sees what White sees.
        let text = game.format_state(&start).replacen(" w ", " b ", 1);
        let black_to_move = game.parse_state(&text).expect("a position");
        assert_eq!(game.to_move(&black_to_move).index(), 1);
        assert_eq!(active(&game, &black_to_move).0, white);
        let mut moves = MoveList::new();
        game.generate_moves(&start, &mut moves);
        for &mv in moves.iter() {
            let mut after = start;
            game.apply(&mut after, mv);
            let (inputs, _) = active(&game, &after);
            assert_eq!(inputs.len(), 16);
            assert!(inputs.iter().all(|&i| i < 128));
            assert_eq!(inputs.iter().collect::<std::collections::HashSet<_>>().len(), 16);
        }
    }

    #[test]
    fn every_input_is_a_playing_square_once() {
        let game = Impasse::new();
        let mut state = game.initial_state();
        let mut moves = MoveList::new();
        for ply in 0..60 {
            if game.outcome(&state).is_some() {
                break;
            }
            game.generate_moves(&state, &mut moves);
            let mv = moves[(ply * 7 + 3) % moves.len()];
            game.apply(&mut state, mv);
            let (inputs, bucket) = active(&game, &state);
            let me = game.to_move(&state);
            let checkers = state.checkers(me) + state.checkers(me.opponent());
            let stacks = inputs.iter().filter(|&&i| (i / SQUARES) % 2 == 1).count();
            assert_eq!(inputs.len() + stacks, checkers as usize);
            let mut unique = inputs.clone();
            unique.dedup();
            assert_eq!(unique, inputs);
            assert!(bucket < BUCKETS);
        }
    }
}
