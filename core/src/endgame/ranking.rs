//! Ranking sets of squares, the arithmetic of endgame indices: a set of `k` squares out of
//! `n` gets a number in `0..C(n, k)` (its colex rank), and squares are renumbered within a
//! domain (the squares a piece may stand on, or those still empty).
//!
//! ```
//! use ply::endgame::ranking::{binomial, compress, expand, rank, unrank};
//!
//! assert_eq!(binomial(32, 2), 496);
//! let set = 0b1010_0100u128;
//! assert_eq!(unrank(rank(set), 3), set);
//! let domain = 0b1111_0000u128;
//! assert_eq!(compress(0b1010_0000, domain), 0b1010);
//! assert_eq!(expand(0b1010, domain), 0b1010_0000);
//! ```

/// Binomial coefficients C(n, k) for n up to 128 and k up to 12.
const BINOMIAL: [[u64; 13]; 129] = {
    let mut t = [[0u64; 13]; 129];
    let mut n = 0;
    while n <= 128 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 12 {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

#[inline]
/// C(n, k), for n up to 128 and k up to 12 (0 beyond).
pub fn binomial(n: u32, k: u32) -> u64 {
    if k > 12 || n > 128 {
        return 0;
    }
    BINOMIAL[n as usize][k as usize]
}

/// The colex rank of the set bits of `set` (positions within a domain).
#[inline]
pub fn rank(mut set: u128) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += binomial(set.trailing_zeros(), i);
        set &= set - 1;
        i += 1;
    }
    r
}

/// The set of `k` positions with colex rank `r`.
pub fn unrank(mut r: u64, k: u32) -> u128 {
    let mut set = 0u128;
    for i in (1..=k).rev() {
        let mut p = i - 1;
        while binomial(p + 1, i) <= r {
            p += 1;
        }
        r -= binomial(p, i);
        set |= 1 << p;
    }
    set
}

/// The positions of `set`'s squares among the squares of `domain` (squares outside it are
/// dropped): bit `j` of the result is the `j`-th square of `domain`.
#[inline]
pub fn compress(set: u128, domain: u128) -> u128 {
    let mut out = 0u128;
    let mut s = set & domain;
    while s != 0 {
        let sq = s.trailing_zeros();
        out |= 1 << (domain & ((1u128 << sq) - 1)).count_ones();
        s &= s - 1;
    }
    out
}

/// The squares of `domain` at the positions set in `positions` (the inverse of
/// [`compress`]).
pub fn expand(positions: u128, domain: u128) -> u128 {
    let mut out = 0u128;
    let mut d = domain;
    let mut j = 0;
    while d != 0 {
        let sq = d & d.wrapping_neg();
        if positions >> j & 1 == 1 {
            out |= sq;
        }
        d &= d - 1;
        j += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_unranks_agree() {
        for k in 0..5 {
            for r in 0..binomial(12, k) {
                let set = unrank(r, k);
                assert_eq!(set.count_ones(), k);
                assert_eq!(rank(set), r);
                assert!(set < 1 << 12);
            }
        }
        let domain = 0b1011_0110u128;
        for positions in 0..32u128 {
            let squares = expand(positions, domain);
            assert_eq!(squares & !domain, 0);
            assert_eq!(compress(squares, domain), positions);
        }
    }
}
