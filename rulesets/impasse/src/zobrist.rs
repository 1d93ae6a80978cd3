//! Zobrist keys, built at compile time from fixed seeds (SplitMix64).

use ply::zobrist::{key_table, splitmix64};

/// Keys for a single of player `p` on square `sq`: `SINGLE[p][sq]`.
pub(crate) const SINGLE: [[u64; 64]; 2] = key_table(0x1a9a_55e0_0000_0001);
/// Keys for a double of player `p` on square `sq`.
pub(crate) const DOUBLE: [[u64; 64]; 2] = key_table(0x5eed_0000_0000_0002);

/// The key mixed in for the number of plies played (which also gives the side to move).
#[inline]
pub(crate) fn ply_key(ply: u16) -> u64 {
    splitmix64(0xd1b5_4a32_d192_ed03 ^ u64::from(ply)).1
}

/// The key of every piece of `state`, computed from scratch.
pub(crate) fn full_key(state: &crate::ImpasseState) -> u64 {
    let mut key = 0;
    for p in 0..2 {
        for sq in 0..64 {
            if state.singles[p] >> sq & 1 == 1 {
                key ^= SINGLE[p][sq];
            }
            if state.doubles[p] >> sq & 1 == 1 {
                key ^= DOUBLE[p][sq];
            }
        }
    }
    key
}
