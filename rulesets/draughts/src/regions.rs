//! Board-region patterns for international draughts, the way Scan's evaluation is built:
//! [`DraughtsRegions`] is [`DraughtsFeatures`] followed by the men on each of sixteen
//! overlapping 4x4 blocks of the board.
//!
//! `region_K_DDDDDDDD` (K = 0..16: rows 1-4, 3-6, 5-8 and 7-10 counted from the far side, times
//! the same columns from the owner's left) has one digit per dark square of the block in
//! ascending square order from the owner's seat (`0` empty or a king, `1` the owner's man, `2`
//! the opponent's man): the block as the owner sees it counts +1, the block as the opponent
//! sees it -1, so the features stay zero-sum (6,561 entries per block, 105,043 features in
//! all).
//!
//! No weights ship with them: `tune --game international-draughts fit --features regions`
//! fits them, and `alphabeta:weights=FILE` searches with the file it writes. Fitted on 3.26 M
//! positions they lost to the 67 features alone; on 17 M positions of the network's games
//! they lost to the network by 55 Elo (BENCHMARKS.md), which stays the draughts evaluation.
//!
//! ```
//! use ply::eval::Features;
//! use ply_draughts::features::DraughtsFeatures;
//! use ply_draughts::regions::DraughtsRegions;
//!
//! assert_eq!(DraughtsRegions.count(), DraughtsFeatures.count() + 16 * 6561);
//! assert_eq!(DraughtsRegions.name(67), "region_0_00000000");
//! ```

use ply::eval::Features;
use ply::Player;

use crate::bitboard::{bit_of, rotate};
use crate::features::DraughtsFeatures;
use crate::rules::{DraughtsState, InternationalDraughts};

/// The first of the region patterns: the scalar features come first.
const REGIONS: usize = 67;
/// The overlapping 4x4 blocks of the board.
const BLOCKS: usize = 16;
/// The configurations of one block: 3 states on each of its 8 dark squares.
const CONFIGS: usize = 6561;
const COUNT: usize = REGIONS + BLOCKS * CONFIGS;

/// The bits of each block's squares in index order (ascending square numbers from the
/// owner's seat, White's numbering): rows `2 * (k / 4)` to `+ 3` counted from the far side
/// (squares 1-5), columns `2 * (k % 4)` to `+ 3` from the owner's left.
const BLOCK_BITS: [[u8; 8]; BLOCKS] = block_bits();

const fn block_bits() -> [[u8; 8]; BLOCKS] {
    let mut blocks = [[0u8; 8]; BLOCKS];
    let mut k = 0;
    while k < BLOCKS {
        let (row0, col0) = (2 * (k / 4), 2 * (k % 4));
        let mut n = 0;
        let mut s = 1u8;
        while s <= 50 {
            let (row, i) = (((s - 1) / 5) as usize, ((s - 1) % 5) as usize);
            let col = if row % 2 == 0 { 2 * i + 1 } else { 2 * i };
            if row >= row0 && row < row0 + 4 && col >= col0 && col < col0 + 4 {
                blocks[k][n] = bit_of(s) as u8;
                n += 1;
            }
            s += 1;
        }
        k += 1;
    }
    blocks
}

/// [`DraughtsFeatures`] and sixteen 4x4 region patterns of men; see the [module
/// docs](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DraughtsRegions;

impl DraughtsRegions {
    /// The configuration (0..6561) of `block` for the side whose men are `own` against the
    /// opponent's men `opp`, both seen from its seat: digit `k` in base 3 for bit `block[k]`
    /// (`1` its man, `2` the opponent's, `0` empty or a king).
    #[inline]
    fn configuration(block: &[u8; 8], own: u64, opp: u64) -> usize {
        let mut config = 0;
        for &bit in block.iter().rev() {
            let digit = (own >> bit & 1) + 2 * (opp >> bit & 1);
            config = config * 3 + digit as usize;
        }
        config
    }
}

impl Features<InternationalDraughts> for DraughtsRegions {
    fn count(&self) -> usize {
        COUNT
    }

    fn name(&self, index: usize) -> String {
        if index < REGIONS {
            return DraughtsFeatures.name(index);
        }
        let (block, mut config) = ((index - REGIONS) / CONFIGS, (index - REGIONS) % CONFIGS);
        let mut digits = String::with_capacity(8);
        for _ in 0..8 {
            digits.push(char::from(b'0' + (config % 3) as u8));
            config /= 3;
        }
        format!("region_{block}_{digits}")
    }

    fn extract(
        &self,
        game: &InternationalDraughts,
        state: &DraughtsState,
        player: Player,
        sink: &mut impl FnMut(usize, f32),
    ) {
        DraughtsFeatures.extract(game, state, player, sink);
        let p = &state.pieces;
        let white_sign = if player == Player::FIRST { 1.0 } else { -1.0 };
        let (white_men, black_men) = (p.white & !p.kings, p.black & !p.kings);
        let (black_seat_own, black_seat_opp) = (rotate(black_men), rotate(white_men));
        for (k, block) in BLOCK_BITS.iter().enumerate() {
            let white_config = DraughtsRegions::configuration(block, white_men, black_men);
            let black_config =
                DraughtsRegions::configuration(block, black_seat_own, black_seat_opp);
            if white_config != black_config {
                sink(REGIONS + k * CONFIGS + white_config, white_sign);
                sink(REGIONS + k * CONFIGS + black_config, -white_sign);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::testing::visit_random_games;
    use ply::Notation;

    #[test]
    fn the_scalar_features_come_first_and_names_are_unique() {
        assert_eq!(DraughtsFeatures.count(), REGIONS);
        for i in 0..REGIONS {
            assert_eq!(DraughtsRegions.name(i), DraughtsFeatures.name(i));
        }
        let names: std::collections::HashSet<String> =
            (0..COUNT).map(|i| DraughtsRegions.name(i)).collect();
        assert_eq!(names.len(), COUNT);
        assert_eq!(DraughtsRegions.name(REGIONS), "region_0_00000000");
        assert_eq!(DraughtsRegions.name(REGIONS + 1), "region_0_10000000");
        assert_eq!(DraughtsRegions.name(COUNT - 1), "region_15_22222222");
    }

    /// The region patterns as the module docs describe them, square by square: for each block
    /// and each seat, the digits of the block's squares in ascending order from that seat.
    fn regions_by_squares(state: &DraughtsState, player: Player) -> Vec<(String, f32)> {
        let p = &state.pieces;
        let man = |s: u8, white: bool| {
            let bit = 1u64 << bit_of(s);
            let side = if white { p.white } else { p.black };
            side & bit != 0 && p.kings & bit == 0
        };
        let mut out = Vec::new();
        for k in 0..BLOCKS {
            let (row0, col0) = (2 * (k / 4), 2 * (k % 4));
            let mut names = Vec::new();
            for white_seat in [true, false] {
                let mut digits = String::new();
                for seat_square in 1..=50u8 {
                    let (row, i) =
                        (usize::from(seat_square - 1) / 5, usize::from(seat_square - 1) % 5);
                    let col = if row % 2 == 0 { 2 * i + 1 } else { 2 * i };
                    if !(row0..row0 + 4).contains(&row) || !(col0..col0 + 4).contains(&col) {
                        continue;
                    }
                    let square = if white_seat { seat_square } else { 51 - seat_square };
                    digits.push(if man(square, white_seat) {
                        '1'
                    } else if man(square, !white_seat) {
                        '2'
                    } else {
                        '0'
                    });
                }
                assert_eq!(digits.len(), 8);
                names.push(format!("region_{k}_{digits}"));
            }
            if names[0] != names[1] {
                let white = if player == Player::FIRST { 1.0 } else { -1.0 };
                out.push((names[0].clone(), white));
                out.push((names[1].clone(), -white));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// The region features that `extract` gives, by name.
    fn regions(state: &DraughtsState, player: Player) -> Vec<(String, f32)> {
        let mut out = Vec::new();
        DraughtsRegions.extract(&InternationalDraughts::new(), state, player, &mut |i, v| {
            if i >= REGIONS {
                out.push((DraughtsRegions.name(i), v));
            }
        });
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    #[test]
    fn regions_read_each_block_from_each_seat() {
        let game = InternationalDraughts::new();
        // Block 0 is squares 1, 2, 6, 7, 11, 12, 16 and 17 from White's seat: White's men on 7
        // and 12, Black's man on 16 and a king (not counted) on 2.
        let s = game.parse_state("W:W7,12:B16,K2").unwrap();
        let w = regions(&s, Player::FIRST);
        assert!(w.contains(&("region_0_00010120".to_string(), 1.0)), "{w:?}");
        // Black's man on 16 is its 35, White's men on 7 and 12 its 44 and 39: block 15 is
        // squares 34, 35, 39, 40, 44, 45, 49 and 50 from Black's seat.
        assert!(w.contains(&("region_15_01202000".to_string(), -1.0)), "{w:?}");
        assert_eq!(w, regions_by_squares(&s, Player::FIRST));
        let b = regions(&s, Player::SECOND);
        assert_eq!(b, w.iter().map(|(n, v)| (n.clone(), -v)).collect::<Vec<_>>());
        // On random games too, and the scalar features are those of `DraughtsFeatures`.
        visit_random_games(&game, 3, 150, 1, |state| {
            assert_eq!(regions(state, Player::FIRST), regions_by_squares(state, Player::FIRST));
            let mut scalars = vec![0.0; REGIONS];
            DraughtsRegions.extract(&game, state, Player::FIRST, &mut |i, v| {
                if i < REGIONS {
                    scalars[i] += v;
                }
            });
            let mut plain = vec![0.0; REGIONS];
            DraughtsFeatures.extract(&game, state, Player::FIRST, &mut |i, v| plain[i] += v);
            assert_eq!(scalars, plain);
        });
    }
}
