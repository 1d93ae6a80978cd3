//! Zobrist keys, built at compile time from fixed seeds (SplitMix64).

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn table(seed: u64) -> [[u64; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut s = seed;
    let mut p = 0;
    while p < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (next, v) = splitmix(s);
            s = next;
            t[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    t
}

/// Keys for a single of player `p` on square `sq`: `SINGLE[p][sq]`.
pub(crate) const SINGLE: [[u64; 64]; 2] = table(0x1a9a_55e0_0000_0001);
/// Keys for a double of player `p` on square `sq`.
pub(crate) const DOUBLE: [[u64; 64]; 2] = table(0x5eed_0000_0000_0002);

/// The key mixed in for the number of plies played (which also gives the side to move).
#[inline]
pub(crate) fn ply_key(ply: u16) -> u64 {
    splitmix(0xd1b5_4a32_d192_ed03 ^ u64::from(ply)).1
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
