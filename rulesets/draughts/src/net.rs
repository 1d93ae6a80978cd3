//! The inputs of a neural evaluation of international draughts ([`NetInputs`]).
//!
//! Four sets of one input per square, seen from the player to move (the board turned for
//! Black, so that the mover's men always go towards square 1): the mover's men, the mover's
//! kings, the opponent's men and the opponent's kings; 200 inputs. Phase buckets by the
//! pieces taken, four by default (31-40, 21-30, 11-20, 0-10 left); a network trained with more
//! (`tune train --buckets`) brings its own split. [`DraughtsNet`] is the trained network over
//! them.

use std::sync::OnceLock;

use ply::eval::net::{put_set, InputBits, NetEval, NetInputs, MAX_BUCKETS};
use ply::eval::Evaluator;
use ply::Player;

use crate::bitboard::square_of;
use crate::rules::{DraughtsState, InternationalDraughts};

/// The network inputs of international draughts.
///
/// ```
/// use ply::eval::net::NetInputs;
/// use ply::Game;
/// use ply_draughts::net::DraughtsNetInputs;
/// use ply_draughts::InternationalDraughts;
///
/// let game = InternationalDraughts::new();
/// let mut active = Vec::new();
/// let bucket = DraughtsNetInputs::default().active(&game, &game.initial_state(), &mut |i| active.push(i));
/// assert_eq!((active.len(), bucket), (40, 0));
/// // White moves first: its men on squares 31-50, Black's on 1-20.
/// assert_eq!(active[..20], (30..50).collect::<Vec<_>>()[..]);
/// assert_eq!(active[20..], (100..120).collect::<Vec<_>>()[..]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DraughtsNetInputs {
    buckets: usize,
}

impl Default for DraughtsNetInputs {
    /// The inputs in [`BUCKETS`] phases.
    fn default() -> Self {
        DraughtsNetInputs { buckets: BUCKETS }
    }
}

impl DraughtsNetInputs {
    /// The phase bucket of a position with `pieces` on the board: the 40 pieces of the start
    /// split evenly by those taken.
    #[inline]
    fn bucket(&self, pieces: usize) -> usize {
        (40usize.saturating_sub(pieces) * self.buckets / 40).min(self.buckets - 1)
    }
}

/// The number of phase buckets of the shipped network.
pub const BUCKETS: usize = 4;

impl NetInputs<InternationalDraughts> for DraughtsNetInputs {
    fn inputs(&self) -> usize {
        200
    }

    fn buckets(&self) -> usize {
        self.buckets
    }

    /// Any count from 1 to 40 (the pieces at the start): phases of equal numbers of pieces
    /// taken, each split nesting inside those it divides.
    fn with_buckets(&self, buckets: usize) -> Option<Self> {
        (1..=40.min(MAX_BUCKETS)).contains(&buckets).then_some(DraughtsNetInputs { buckets })
    }

    #[inline]
    fn active(
        &self,
        _game: &InternationalDraughts,
        state: &DraughtsState,
        sink: &mut impl FnMut(usize),
    ) -> usize {
        let p = &state.pieces;
        let white = state.white_to_move;
        let (own, opp) = if white { (p.white, p.black) } else { (p.black, p.white) };
        // White's men go towards square 1; Black's board is turned half a turn.
        let relative = |square: u8| {
            let s = usize::from(square) - 1;
            if white {
                s
            } else {
                49 - s
            }
        };
        let sets = [own & !p.kings, own & p.kings, opp & !p.kings, opp & p.kings];
        let mut pieces = 0;
        for (set, mut bits) in sets.into_iter().enumerate() {
            pieces += bits.count_ones() as usize;
            while bits != 0 {
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                sink(set * 50 + relative(square_of(bit)));
            }
        }
        self.bucket(pieces)
    }

    /// The four sets as 50-bit boards (the layout's ghost bits left out), Black's turned by
    /// reversing their bits.
    #[inline]
    fn active_bits(
        &self,
        _game: &InternationalDraughts,
        state: &DraughtsState,
        bits: &mut InputBits,
    ) -> usize {
        let p = &state.pieces;
        let (own, opp) = if state.white_to_move { (p.white, p.black) } else { (p.black, p.white) };
        let relative = |board: u64| match state.white_to_move {
            true => packed(board),
            false => packed(board).reverse_bits() >> 14,
        };
        let (own, opp, kings) = (relative(own), relative(opp), relative(p.kings));
        for (k, set) in
            [own & !kings, own & kings, opp & !kings, opp & kings].into_iter().enumerate()
        {
            put_set(bits, k * 50, set);
        }
        self.bucket((p.white | p.black).count_ones() as usize)
    }
}

/// A bitboard's squares as 50 bits, square `s` at bit `s - 1`: the layout's five groups of
/// ten squares, each followed by a ghost bit, side by side.
fn packed(board: u64) -> u64 {
    (0..5).fold(0, |v, k| v | ((board >> (11 * k)) & 0x3ff) << (10 * k))
}

/// The network that `tune train` fitted on self-play positions (the command is in
/// BENCHMARKS.md), embedded at build time.
pub const NET_WEIGHTS: &[u8] = include_bytes!("../weights/net.bin");

/// The neural evaluation of international draughts: [`NET_WEIGHTS`] over
/// [`DraughtsNetInputs`], spec `alphabeta:eval=net` in the tools. The network is read once
/// per process and shared by every copy.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_draughts::net::DraughtsNet;
/// use ply_draughts::InternationalDraughts;
///
/// let game = InternationalDraughts::new();
/// let eval = DraughtsNet::default();
/// let start = game.initial_state();
/// let white = eval.evaluate(&game, &start, Player::FIRST);
/// assert_eq!(eval.evaluate(&game, &start, Player::SECOND), -white);
/// ```
#[derive(Clone, Debug)]
pub struct DraughtsNet {
    eval: NetEval<DraughtsNetInputs>,
}

impl Default for DraughtsNet {
    fn default() -> Self {
        static NET: OnceLock<NetEval<DraughtsNetInputs>> = OnceLock::new();
        let eval = NET.get_or_init(|| {
            NetEval::embedded::<InternationalDraughts>(
                DraughtsNetInputs::default(),
                NET_WEIGHTS,
                100.0,
            )
        });
        DraughtsNet { eval: eval.clone() }
    }
}

impl Evaluator<InternationalDraughts> for DraughtsNet {
    #[inline]
    fn evaluate(&self, game: &InternationalDraughts, state: &DraughtsState, player: Player) -> i32 {
        self.eval.evaluate(game, state, player)
    }

    /// A network costs several times a lookup.
    #[inline]
    fn worth_caching(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::Notation;

    #[test]
    fn the_embedded_network_loads_and_is_antisymmetric() {
        let game = InternationalDraughts::new();
        let eval = DraughtsNet::default();
        let seen =
            ply::testing::check_zero_sum_evaluation(&game, &eval, 10, 200, 3, 30_000).unwrap();
        assert!(seen > 100);
    }

    #[test]
    fn finer_buckets_nest_and_a_split_network_answers_as_before() {
        let game = InternationalDraughts::new();
        let inputs = DraughtsNetInputs::default();
        assert!(inputs.with_buckets(0).is_none() && inputs.with_buckets(41).is_none());
        let twelve = inputs.with_buckets(12).unwrap();
        let net = ply::eval::net::Network::from_bytes(NET_WEIGHTS).unwrap();
        let coarse = NetEval::new::<InternationalDraughts>(inputs, &net, 100.0).unwrap();
        let fine =
            NetEval::new::<InternationalDraughts>(inputs, &net.split_buckets(3).unwrap(), 100.0)
                .unwrap();
        let seen = ply::testing::visit_random_games(&game, 10, 300, 3, |state| {
            let b4 = inputs.active(&game, state, &mut |_| {});
            assert_eq!(twelve.active(&game, state, &mut |_| {}) / 3, b4);
            let me = ply::Game::to_move(&game, state);
            assert_eq!(coarse.evaluate(&game, state, me), fine.evaluate(&game, state, me));
        });
        assert!(seen > 500);
    }

    #[test]
    fn inputs_are_the_mirror_image_for_the_other_side() {
        let game = InternationalDraughts::new();
        let inputs = DraughtsNetInputs::default();
        let white = game.parse_state("W:W28,K45:B12,K6").unwrap();
        let black = game.parse_state("B:W39,K45:B23,K6").unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let ba = inputs.active(&game, &white, &mut |i| a.push(i));
        let bb = inputs.active(&game, &black, &mut |i| b.push(i));
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!((a, ba), (b, bb));
        assert_eq!(ba, 3);
    }

    #[test]
    fn the_input_bits_are_the_active_inputs() {
        let game = InternationalDraughts::new();
        let inputs = DraughtsNetInputs::default();
        let seen = ply::testing::visit_random_games(&game, 10, 300, 5, |state| {
            let mut listed = [0u64; 4];
            let listed_bucket =
                inputs.active(&game, state, &mut |k| listed[k / 64] |= 1 << (k % 64));
            let mut bits = [0u64; 4];
            assert_eq!(inputs.active_bits(&game, state, &mut bits), listed_bucket);
            assert_eq!(bits, listed);
        });
        assert!(seen > 100);
    }
}
