//! Position hashing: Zobrist keys (reproducible pseudo-random 64-bit values, computable at
//! compile time, so a ruleset's key tables can be `static` data) for hashes kept up to date by
//! every move, and [`fold_words`] for hashes computed from a few bitboards when asked.
//!
//! ```
//! use ply::zobrist::{key_table, splitmix64};
//!
//! // One key per (piece kind, square), the same on every platform and every run.
//! static KEYS: [[u64; 64]; 2] = key_table(0x5eed);
//! assert_ne!(KEYS[0][0], KEYS[1][0]);
//! assert_eq!(KEYS[0][0], splitmix64(0x5eed).1);
//! ```

/// Mixes a 64-bit value into a well-spread hash (SplitMix64's finaliser). Handy for games whose
/// whole state fits in a `u64` and so needs no key table.
#[inline]
pub const fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Folds `words` into a hash, starting from `seed`, each word mixed in by [`mix64`]. A game
/// whose position is a few bitboards can compute its hash this way when asked, instead of
/// keeping Zobrist keys up to date in every move; a seed per player to move keeps positions
/// that differ only in the turn apart.
///
/// ```
/// use ply::zobrist::{fold_words, splitmix64};
///
/// let seeds = [splitmix64(1).1, splitmix64(2).1];
/// let (mine, theirs) = (0x0000_0010_0800_0000_u64, 0x0000_0008_1000_0000_u64);
/// assert_ne!(fold_words(seeds[0], &[mine, theirs]), fold_words(seeds[1], &[mine, theirs]));
/// assert_ne!(fold_words(seeds[0], &[mine, theirs]), fold_words(seeds[0], &[theirs, mine]));
/// ```
#[inline]
pub fn fold_words(seed: u64, words: &[u64]) -> u64 {
    words.iter().fold(seed, |h, &w| mix64(h ^ w))
}

/// One step of the SplitMix64 generator: the next state and the key it yields.
#[inline]
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    (next, mix64(next))
}

/// `R` rows of `C` keys, drawn in row order from a SplitMix64 stream started at `seed`.
pub const fn key_table<const R: usize, const C: usize>(seed: u64) -> [[u64; C]; R] {
    let mut table = [[0u64; C]; R];
    let mut state = seed;
    let mut r = 0;
    while r < R {
        let mut c = 0;
        while c < C {
            let (next, key) = splitmix64(state);
            state = next;
            table[r][c] = key;
            c += 1;
        }
        r += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_follow_the_stream() {
        let t: [[u64; 16]; 3] = key_table(7);
        let mut all: Vec<u64> = t.iter().flatten().copied().collect();
        assert_eq!(t[0][1], splitmix64(splitmix64(7).0).1);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 48);
    }
}
