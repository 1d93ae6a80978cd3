//! Move generation: shift-based flood fills on one `u64` for boards up to 8x8 (a fixed-size
//! copy of it for Othello), and ray walks over 256-bit sets for larger boards.

use crate::board::{bit_set, bit_test, Bits, NO_BITS};

/// The interior columns (b..g) of an 8x8 board: discs that horizontal and diagonal lines
/// may pass through without wrapping to the next row.
pub(crate) const OTHELLO_INTERIOR: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The eight directions as (row step, column step).
pub(crate) const DIRECTIONS: [(isize, isize); 8] =
    [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// The squares just beyond runs of `o` that start next to `p`, both ways along shift `s`
/// (Kogge-Stone style parallel prefix: runs of up to 6 discs, the most an 8-wide board has).
#[inline(always)]
fn fill_both(p: u64, o: u64, s: u32) -> u64 {
    let mut l = o & (p << s);
    l |= o & (l << s);
    let pre_l = o & (o << s);
    l |= pre_l & (l << (2 * s));
    l |= pre_l & (l << (2 * s));
    let mut r = o & (p >> s);
    r |= o & (r >> s);
    let pre_r = o & (o >> s);
    r |= pre_r & (r >> (2 * s));
    r |= pre_r & (r >> (2 * s));
    (l << s) | (r >> s)
}

/// The legal placements of the player owning `p` against the discs `o` of everyone else on
/// an `n`x`n` board (`n <= 8`) whose interior columns are `interior`; `empty` is the set of
/// empty squares.
#[inline(always)]
pub(crate) fn mobility64(p: u64, o: u64, empty: u64, n: u32, interior: u64) -> u64 {
    let oh = o & interior;
    (fill_both(p, oh, 1) | fill_both(p, oh, n - 1) | fill_both(p, oh, n + 1) | fill_both(p, o, n))
        & empty
}

/// For every square and each of the eight directions, the squares along the ray from it to
/// the edge (the square itself excluded). Directions 0-3 run to higher bit indices, 4-7 to
/// lower ones.
pub(crate) const RAYS: [[u64; 8]; 64] = {
    const STEPS: [(i32, i32); 8] =
        [(0, 1), (1, -1), (1, 0), (1, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1)];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = STEPS[d];
            let (mut r, mut c) = (sq as i32 / 8 + dr, sq as i32 % 8 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                rays[sq][d] |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        sq += 1;
    }
    rays
};

/// The squares next to some square of `x` on the 8x8 board.
#[inline]
pub(crate) const fn neighbours(x: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let left = x & NOT_A;
    let right = x & NOT_H;
    (x << 8)
        | (x >> 8)
        | (right << 1)
        | (right << 9)
        | (right >> 7)
        | (left >> 1)
        | (left >> 9)
        | (left << 7)
}

/// The discs of `o` that a disc of `p` on `sq` flips on the 8x8 board: along each ray, the run
/// of `o` up to the first square that is not `o`, if that square is `p`'s.
///
/// The four directions are four lanes of the same branch-free steps (Edax's `flip_avx_ppfill`,
/// which the compiler turns into one 256-bit vector where the CPU has AVX2): towards higher
/// bits the nearest square that is not `o` is the lowest set bit; towards lower bits a disc of
/// `p` one step further than a run of `o` that reaches `sq` survives the erasure of every
/// square behind a square that is not `o`.
#[inline(always)]
pub(crate) fn othello_flips(p: u64, o: u64, sq: u32) -> u64 {
    // The shift of one step in directions 0-3 of `RAYS` (4-7 are their opposites).
    const STEP: [u64; 4] = [1, 7, 8, 9];
    let rays = &RAYS[sq as usize];
    let mut lanes = [0u64; 4];
    for (i, lane) in lanes.iter_mut().enumerate() {
        let (up, down, s) = (rays[i], rays[4 + i], STEP[i]);
        // Towards lower bits: the squares behind a square that is not `o` erase the discs of
        // `p` (moved one step towards `sq`) that they hide, runs of up to six.
        let mut outflank = (p & down) << s;
        let mut eraser = !o & down;
        eraser |= eraser >> s;
        outflank &= !eraser;
        eraser >>= 2 * s;
        outflank &= !eraser;
        outflank &= !(eraser >> (2 * s));
        let mut flip = down & outflank.wrapping_neg();
        // Towards higher bits: the nearest square that is not `o`, if it is `p`'s.
        let stop = !o & up;
        let first = stop & stop.wrapping_neg() & p;
        let eraser = u64::from(first == 0).wrapping_neg().wrapping_sub(first);
        flip |= !eraser & up;
        *lane = flip;
    }
    (lanes[0] | lanes[1]) | (lanes[2] | lanes[3])
}

#[inline(always)]
fn ray_up(x: u64, p: u64, o: u64, s: u32) -> u64 {
    let mut f = 0;
    let mut y = x << s;
    while y & o != 0 {
        f |= y;
        y <<= s;
    }
    if y & p != 0 {
        f
    } else {
        0
    }
}

#[inline(always)]
fn ray_down(x: u64, p: u64, o: u64, s: u32) -> u64 {
    let mut f = 0;
    let mut y = x >> s;
    while y & o != 0 {
        f |= y;
        y >>= s;
    }
    if y & p != 0 {
        f
    } else {
        0
    }
}

/// The discs of `o` that a disc of `p` placed on `sq` flips, on an `n`x`n` board (`n <= 8`).
#[inline(always)]
pub(crate) fn flips64(p: u64, o: u64, sq: usize, n: u32, interior: u64) -> u64 {
    let x = 1u64 << sq;
    let oh = o & interior;
    ray_up(x, p, oh, 1)
        | ray_down(x, p, oh, 1)
        | ray_up(x, p, oh, n - 1)
        | ray_down(x, p, oh, n - 1)
        | ray_up(x, p, oh, n + 1)
        | ray_down(x, p, oh, n + 1)
        | ray_up(x, p, o, n)
        | ray_down(x, p, o, n)
}

#[inline(always)]
fn shl(x: &Bits, s: u32) -> Bits {
    let r = 64 - s;
    [x[0] << s, x[1] << s | x[0] >> r, x[2] << s | x[1] >> r, x[3] << s | x[2] >> r]
}

#[inline(always)]
fn shr(x: &Bits, s: u32) -> Bits {
    let r = 64 - s;
    [x[0] >> s | x[1] << r, x[1] >> s | x[2] << r, x[2] >> s | x[3] << r, x[3] >> s]
}

#[inline(always)]
fn and(a: &Bits, b: &Bits) -> Bits {
    [a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]]
}

#[inline(always)]
fn or(a: &Bits, b: &Bits) -> Bits {
    [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]]
}

/// The squares just beyond runs of `o` that start next to `p`, both ways along shift `s`,
/// on 256-bit sets (runs grow one step per round until they stop).
#[inline(always)]
fn fill_both256(p: &Bits, o: &Bits, s: u32) -> Bits {
    let mut l = and(&shl(p, s), o);
    loop {
        let next = or(&l, &and(&shl(&l, s), o));
        if next == l {
            break;
        }
        l = next;
    }
    let mut r = and(&shr(p, s), o);
    loop {
        let next = or(&r, &and(&shr(&r, s), o));
        if next == r {
            break;
        }
        r = next;
    }
    or(&shl(&l, s), &shr(&r, s))
}

/// The legal placements of the owner of `p` against everyone else's discs `o` on an
/// `n`x`n` board (`n <= 16`, square `row * n + column`) whose interior columns are
/// `interior`; `empty` is the set of empty squares.
#[inline]
pub(crate) fn mobility256(p: &Bits, o: &Bits, empty: &Bits, n: u32, interior: &Bits) -> Bits {
    let oh = and(o, interior);
    let m = or(
        &or(&fill_both256(p, &oh, 1), &fill_both256(p, &oh, n - 1)),
        &or(&fill_both256(p, &oh, n + 1), &fill_both256(p, o, n)),
    );
    and(&m, empty)
}

/// Ray tables for the general path: how far each square sees in each direction, and the
/// index step of each direction.
#[derive(Clone)]
pub(crate) struct Rays {
    pub(crate) len: Vec<[u8; 8]>,
    pub(crate) delta: [isize; 8],
}

impl Rays {
    pub(crate) fn new(n: usize) -> Rays {
        let mut len = vec![[0u8; 8]; n * n];
        for r in 0..n as isize {
            for c in 0..n as isize {
                for (d, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
                    let (mut rr, mut cc, mut k) = (r + dr, c + dc, 0u8);
                    while (0..n as isize).contains(&rr) && (0..n as isize).contains(&cc) {
                        k += 1;
                        rr += dr;
                        cc += dc;
                    }
                    len[(r * n as isize + c) as usize][d] = k;
                }
            }
        }
        let delta = DIRECTIONS.map(|(dr, dc)| dr * n as isize + dc);
        Rays { len, delta }
    }

    /// True if a disc of the owner of `mine` on the empty square `sq` flips something (the
    /// slow reference for the flood fills).
    #[cfg(test)]
    pub(crate) fn is_legal(&self, occ: &Bits, mine: &Bits, sq: usize) -> bool {
        let lens = &self.len[sq];
        for d in 0..8 {
            let n = lens[d];
            if n < 2 {
                continue;
            }
            let delta = self.delta[d];
            let mut s = (sq as isize + delta) as usize;
            if !bit_test(occ, s) || bit_test(mine, s) {
                continue;
            }
            for _ in 1..n {
                s = (s as isize + delta) as usize;
                if !bit_test(occ, s) {
                    break;
                }
                if bit_test(mine, s) {
                    return true;
                }
            }
        }
        false
    }

    /// The discs that a disc of the owner of `mine` placed on `sq` flips, where `others` are
    /// everyone else's discs.
    #[inline]
    pub(crate) fn flips(&self, others: &Bits, mine: &Bits, sq: usize) -> Bits {
        let mut flips = NO_BITS;
        let lens = &self.len[sq];
        for d in 0..8 {
            let n = lens[d] as usize;
            if n < 2 {
                continue;
            }
            let delta = self.delta[d];
            let mut s = sq as isize + delta;
            let mut k = 0;
            while k < n && bit_test(others, s as usize) {
                s += delta;
                k += 1;
            }
            if k > 0 && k < n && bit_test(mine, s as usize) {
                let mut t = sq as isize;
                for _ in 0..k {
                    t += delta;
                    bit_set(&mut flips, t as usize);
                }
            }
        }
        flips
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn othello_flips_agree_with_the_ray_walk_on_random_boards() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut flipped = 0;
        for _ in 0..20_000 {
            // Dense and sparse boards: every third square empty, or most of them.
            let (a, b, c) = (next(), next(), next());
            let occupied = if c & 1 == 0 { a | b } else { a & b & c };
            let (p, o) = (occupied & c, occupied & !c);
            for sq in (0..64).filter(|&sq| (p | o) >> sq & 1 == 0) {
                let want = flips64(p, o, sq as usize, 8, OTHELLO_INTERIOR);
                assert_eq!(othello_flips(p, o, sq), want, "{p:#x} {o:#x} {sq}");
                flipped += want.count_ones();
            }
        }
        assert!(flipped > 100_000, "{flipped}");
    }

    #[test]
    fn othello_start_mobility() {
        // Black (e4 d5) to move against White (d4 e5): d3, c4, f5, e6.
        let black = 1u64 << 28 | 1 << 35;
        let white = 1u64 << 27 | 1 << 36;
        let empty = !(black | white);
        let m = mobility64(black, white, empty, 8, OTHELLO_INTERIOR);
        assert_eq!(m, 1 << 19 | 1 << 26 | 1 << 37 | 1 << 44);
        assert_eq!(flips64(black, white, 19, 8, OTHELLO_INTERIOR), 1 << 27);
    }

    #[test]
    fn rays_on_corners() {
        let rays = Rays::new(5);
        // Square 0 (a1) sees 4 squares east, south and south-east, nothing else.
        assert_eq!(rays.len[0], [0, 0, 0, 0, 4, 0, 4, 4]);
        assert_eq!(rays.delta[7], 6);
    }
}
