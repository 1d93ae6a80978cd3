//! The inputs of a neural evaluation of checkers ([`NetInputs`]), for any board size.
//!
//! Four sets of one input per dark square, seen from the player to move (the board turned
//! for White, so that the mover's men always go the same way): the mover's men, the
//! mover's kings, the opponent's men and the opponent's kings; 128 inputs on 8x8. Phase
//! buckets by the pieces taken, four by default (on 8x8: 19-24, 13-18, 7-12, 0-6 left);
//! a network trained with more (`tune train --buckets`) brings its own split.

use std::sync::OnceLock;

use ply::eval::net::{put_set, InputBits, NetEval, NetInputs, INCREMENTAL_INPUTS, MAX_BUCKETS};
use ply::eval::Evaluator;
use ply::{Game, Player};

use crate::features::CheckersLearned;
use crate::rules::{CheckersState, EnglishCheckers, Rules};

/// The network inputs of checkers: pieces by kind and owner on each square, relative to
/// the player to move.
///
/// ```
/// use ply::eval::net::NetInputs;
/// use ply::Game;
/// use ply_checkers::net::CheckersNetInputs;
/// use ply_checkers::EnglishCheckers;
///
/// let game = EnglishCheckers::default();
/// let inputs = CheckersNetInputs::new(&game);
/// assert_eq!(inputs.inputs(), 128);
/// let mut active = Vec::new();
/// let bucket = inputs.active(&game, &game.initial_state(), &mut |i| active.push(i));
/// assert_eq!((active.len(), bucket), (24, 0));
/// // The mover's men on the first 12 squares, the opponent's on 84..96 (squares 21-32).
/// assert_eq!(active[..12], (0..12).collect::<Vec<_>>()[..]);
/// assert_eq!(active[12..], (84..96).collect::<Vec<_>>()[..]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckersNetInputs {
    squares: usize,
    /// The pieces at the start: all but the two middle rows (24 on 8x8).
    start: usize,
    buckets: usize,
}

impl CheckersNetInputs {
    /// The inputs for `game`'s board, in [`BUCKETS`] phases.
    pub fn new(game: &EnglishCheckers) -> Self {
        let start = game.squares() - game.size();
        CheckersNetInputs { squares: game.squares(), start, buckets: BUCKETS }
    }

    /// The phase bucket of a position with `pieces` on the board: the pieces taken of those
    /// at the start, split evenly into the buckets.
    #[inline]
    fn bucket(&self, pieces: usize) -> usize {
        let start = self.start.max(1);
        (start.saturating_sub(pieces) * self.buckets / start).min(self.buckets - 1)
    }
}

impl Default for CheckersNetInputs {
    /// The inputs on 8x8.
    fn default() -> Self {
        CheckersNetInputs::new(&EnglishCheckers::default())
    }
}

/// The number of phase buckets of the shipped networks.
pub const BUCKETS: usize = 4;

impl NetInputs<EnglishCheckers> for CheckersNetInputs {
    fn inputs(&self) -> usize {
        4 * self.squares
    }

    fn buckets(&self) -> usize {
        self.buckets
    }

    /// Any count from 1 to the pieces at the start (24 on 8x8): phases of equal numbers of
    /// pieces taken, each split nesting inside those it divides.
    fn with_buckets(&self, buckets: usize) -> Option<Self> {
        let most = self.start.clamp(1, MAX_BUCKETS);
        (1..=most).contains(&buckets).then_some(CheckersNetInputs { buckets, ..*self })
    }

    #[inline]
    fn active(
        &self,
        game: &EnglishCheckers,
        state: &CheckersState,
        sink: &mut impl FnMut(usize),
    ) -> usize {
        let squares = game.squares();
        let me = game.to_move(state).index();
        // Black's men go towards higher squares: White's board is turned half a turn.
        let relative = |sq: usize| if me == 0 { sq } else { squares - 1 - sq };
        let kings = state.kings;
        let sets = [
            state.pieces[me] & !kings,
            state.pieces[me] & kings,
            state.pieces[me ^ 1] & !kings,
            state.pieces[me ^ 1] & kings,
        ];
        let mut pieces = 0;
        for (set, mut bits) in sets.into_iter().enumerate() {
            pieces += bits.count_ones() as usize;
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                sink(set * squares + relative(sq));
            }
        }
        self.bucket(pieces)
    }

    /// The four sets as bitboards, White's turned by reversing its bits.
    #[inline]
    fn active_bits(
        &self,
        game: &EnglishCheckers,
        state: &CheckersState,
        bits: &mut InputBits,
    ) -> usize {
        let squares = game.squares();
        if 4 * squares > INCREMENTAL_INPUTS {
            return self.active(game, state, &mut |k| {
                if let Some(word) = bits.get_mut(k / 64) {
                    *word |= 1 << (k % 64);
                }
            });
        }
        let me = game.to_move(state).index();
        // At most 64 squares here: the boards fit 64 bits.
        let relative = |set: u128| match me {
            0 => set as u64,
            _ => (set as u64).reverse_bits() >> (64 - squares),
        };
        let (own, other, kings) =
            (relative(state.pieces[me]), relative(state.pieces[me ^ 1]), relative(state.kings));
        let sets = [own & !kings, own & kings, other & !kings, other & kings];
        for (k, set) in sets.into_iter().enumerate() {
            put_set(bits, k * squares, set);
        }
        self.bucket((state.pieces[0] | state.pieces[1]).count_ones() as usize)
    }
}

/// The network that `tune train` fitted on standard-rules self-play positions of the 8x8
/// board (the command is in BENCHMARKS.md), embedded at build time.
pub const NET_WEIGHTS: &[u8] = include_bytes!("../weights/net-standard.bin");

/// The network fitted the same way on Deepomatic-rules positions of the 8x8 board.
pub const DEEPOMATIC_NET_WEIGHTS: &[u8] = include_bytes!("../weights/net-deepomatic.bin");

/// The neural evaluation of checkers on the 8x8 board: [`NET_WEIGHTS`] over
/// [`CheckersNetInputs`] under the standard rules and [`DEEPOMATIC_NET_WEIGHTS`] under the
/// Deepomatic rules, each trained on its own rules' positions (each beat [`CheckersLearned`]
/// by SPRT, BENCHMARKS.md); [`CheckersLearned`] on other sizes. The engines' evaluation,
/// spec `alphabeta:eval=net` in the tools. The networks are read once per process and
/// shared by every copy.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_checkers::net::CheckersNet;
/// use ply_checkers::{EnglishCheckers, Rules};
///
/// let game = EnglishCheckers::new(8, Rules::Standard)?;
/// let eval = CheckersNet::default();
/// let start = game.initial_state();
/// let black = eval.evaluate(&game, &start, Player::FIRST);
/// assert_eq!(eval.evaluate(&game, &start, Player::SECOND), -black);
/// # Ok::<(), ply_checkers::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct CheckersNet {
    standard: NetEval<CheckersNetInputs>,
    deepomatic: NetEval<CheckersNetInputs>,
    elsewhere: CheckersLearned,
}

impl Default for CheckersNet {
    fn default() -> Self {
        static NETS: OnceLock<[NetEval<CheckersNetInputs>; 2]> = OnceLock::new();
        let [standard, deepomatic] = NETS.get_or_init(|| {
            let load = |weights| {
                NetEval::embedded::<EnglishCheckers>(CheckersNetInputs::default(), weights, 100.0)
            };
            [load(NET_WEIGHTS), load(DEEPOMATIC_NET_WEIGHTS)]
        });
        CheckersNet {
            standard: standard.clone(),
            deepomatic: deepomatic.clone(),
            elsewhere: CheckersLearned::default(),
        }
    }
}

impl Evaluator<EnglishCheckers> for CheckersNet {
    #[inline]
    fn evaluate(&self, game: &EnglishCheckers, state: &CheckersState, player: Player) -> i32 {
        match (game.size(), game.rules()) {
            (8, Rules::Standard) => self.standard.evaluate(game, state, player),
            (8, Rules::Deepomatic) => self.deepomatic.evaluate(game, state, player),
            _ => self.elsewhere.evaluate(game, state, player),
        }
    }

    /// The networks cost several times a lookup (and so does the linear evaluation with its
    /// region patterns on other boards).
    #[inline]
    fn worth_caching(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::testing::check_zero_sum_evaluation;

    #[test]
    fn the_embedded_networks_load_and_are_antisymmetric() {
        let eval = CheckersNet::default();
        for rules in [Rules::Standard, Rules::Deepomatic] {
            let game = EnglishCheckers::new(8, rules).unwrap();
            let seen = check_zero_sum_evaluation(&game, &eval, 10, 200, 3, 30_000).unwrap();
            assert!(seen > 100);
        }
    }

    #[test]
    fn finer_buckets_nest_and_a_split_network_answers_as_before() {
        let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
        let inputs = CheckersNetInputs::new(&game);
        assert_eq!(inputs.buckets(), BUCKETS);
        assert!(inputs.with_buckets(0).is_none() && inputs.with_buckets(25).is_none());
        let eight = inputs.with_buckets(8).unwrap();
        let net = ply::eval::net::Network::from_bytes(NET_WEIGHTS).unwrap();
        let split = net.split_buckets(2).unwrap();
        // The network brings its bucket count: the default inputs take 8 from it.
        let (coarse, fine) = (
            NetEval::new::<EnglishCheckers>(inputs, &net, 100.0).unwrap(),
            NetEval::new::<EnglishCheckers>(inputs, &split, 100.0).unwrap(),
        );
        assert!(NetEval::new::<EnglishCheckers>(inputs, &net.split_buckets(7).unwrap(), 1.0)
            .is_err_and(|e| e.to_string().contains("28 buckets")));
        let mut seen_buckets = [false; 8];
        let seen = ply::testing::visit_random_games(&game, 20, 200, 11, |state| {
            let b4 = inputs.active(&game, state, &mut |_| {});
            let b8 = eight.active(&game, state, &mut |_| {});
            assert_eq!(b8 / 2, b4);
            seen_buckets[b8] = true;
            let me = game.to_move(state);
            assert_eq!(coarse.evaluate(&game, state, me), fine.evaluate(&game, state, me));
        });
        assert!(seen > 1000);
        assert!(seen_buckets.iter().filter(|&&b| b).count() >= 6, "{seen_buckets:?}");
    }

    #[test]
    fn inputs_are_the_mirror_image_for_the_other_side() {
        let game = EnglishCheckers::new(8, Rules::Standard).unwrap();
        let inputs = CheckersNetInputs::new(&game);
        let black: CheckersState = ply::Notation::parse_state(&game, "B:W18,K27:B14,K1").unwrap();
        let white: CheckersState = ply::Notation::parse_state(&game, "W:B15,K6:W19,K32").unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let ba = inputs.active(&game, &black, &mut |i| a.push(i));
        let bb = inputs.active(&game, &white, &mut |i| b.push(i));
        assert_eq!((a, ba), (b, bb));
    }

    #[test]
    fn the_input_bits_are_the_active_inputs() {
        // 8x8; 6x6 and 10x10, whose sets do not start on word boundaries; 16x16, whose 448
        // inputs are listed one by one.
        for size in [8, 6, 10, 16] {
            let game = EnglishCheckers::new(size, Rules::Standard).unwrap();
            let inputs = CheckersNetInputs::new(&game);
            let seen = ply::testing::visit_random_games(&game, 10, 300, 5, |state| {
                let mut listed = [0u64; 4];
                let listed_bucket = inputs.active(&game, state, &mut |k| {
                    if k < INCREMENTAL_INPUTS {
                        listed[k / 64] |= 1 << (k % 64);
                    }
                });
                let mut bits = [0u64; 4];
                assert_eq!(inputs.active_bits(&game, state, &mut bits), listed_bucket);
                assert_eq!(bits, listed, "{size}x{size}");
            });
            assert!(seen > 100);
        }
    }
}
