//! The board layout: 50 playable squares in a `u64` with ghost bits, direction shifts and ray
//! tables.
//!
//! Square `s` (1..=50, standard numbering, square 1 at the top right of Black's side) sits on
//! bit `(s - 1) + (s - 1) / 10`: every pair of rows takes 11 bits, the 11th a ghost that no
//! piece can stand on. With this padding the four diagonal neighbours of a bit are always at
//! the same offsets, and stepping off the board lands on a ghost bit or outside bits 0..54:
//!
//! ```text
//!   up-left -6   up-right -5          row 0:   .  1  .  2  .  3  .  4  .  5
//!          \      /                    row 1:   6  .  7  .  8  .  9  . 10  .   ghost 10
//!           square                     row 2:   . 11  . 12  . 13  . 14  . 15
//!          /      \                    ...
//!  down-left +5  down-right +6        row 9:  46  . 47  . 48  . 49  . 50  .
//! ```
//!
//! Turning the board half a turn maps square `s` to `51 - s`, which in this layout is a
//! reversal of bits 0..54 (`bits.reverse_bits() >> 10`).

/// Every playable square (bits 0..54 except the ghosts 10, 21, 32 and 43).
pub(crate) const SQUARES: u64 = {
    let mut bb = 0u64;
    let mut s = 1;
    while s <= 50 {
        bb |= 1 << bit_of(s);
        s += 1;
    }
    bb
};

/// The bit of square `square` (1..=50).
#[inline]
pub(crate) const fn bit_of(square: u8) -> u32 {
    let k = square as u32 - 1;
    k + k / 10
}

/// The square (1..=50) of a playable bit.
#[inline]
pub(crate) const fn square_of(bit: u32) -> u8 {
    (bit - bit / 11 + 1) as u8
}

/// The mask of one row (0..10) of squares, row 0 at the top (squares 1-5).
pub(crate) const fn row_mask(row: u32) -> u64 {
    let mut bb = 0u64;
    let mut i = 1;
    while i <= 5 {
        bb |= 1 << bit_of((row * 5 + i) as u8);
        i += 1;
    }
    bb
}

/// White's far row (squares 1-5): a white man ending a move there is crowned.
pub(crate) const WHITE_PROMOTION: u64 = row_mask(0);
/// Black's far row (squares 46-50).
pub(crate) const BLACK_PROMOTION: u64 = row_mask(9);

/// Up-left (toward square 1's corner, -6 bits).
pub(crate) const NW: usize = 0;
/// Up-right (-5 bits).
pub(crate) const NE: usize = 1;
/// Down-left (+5 bits).
pub(crate) const SW: usize = 2;
/// Down-right (+6 bits).
pub(crate) const SE: usize = 3;

/// The bit offset of each direction.
pub(crate) const DELTA: [i32; 4] = [-6, -5, 5, 6];

/// The direction opposite `dir`.
#[inline(always)]
pub(crate) const fn reverse(dir: usize) -> usize {
    3 - dir
}

/// Shifts every bit one step in direction `dir` (the result may hold ghost bits).
#[inline(always)]
pub(crate) const fn shift(bb: u64, dir: usize) -> u64 {
    match dir {
        NW => bb >> 6,
        NE => bb >> 5,
        SW => bb << 5,
        _ => bb << 6,
    }
}

/// The squares seen from each bit in each direction, up to the edge.
pub(crate) static RAYS: [[u64; 64]; 4] = {
    let mut rays = [[0u64; 64]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut b = 0;
        while b < 54 {
            if SQUARES >> b & 1 == 1 {
                let mut ray = 0u64;
                let mut t = b as i32 + DELTA[dir];
                while t >= 0 && t < 54 && SQUARES >> t & 1 == 1 {
                    ray |= 1 << t;
                    t += DELTA[dir];
                }
                rays[dir][b] = ray;
            }
            b += 1;
        }
        dir += 1;
    }
    rays
};

/// The nearest of `blockers` (a non-empty subset of a ray in direction `dir`) to the ray's
/// origin.
#[inline(always)]
pub(crate) const fn nearest(blockers: u64, dir: usize) -> u32 {
    if dir >= SW {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    }
}

/// The squares a flying piece on `bit` reaches in direction `dir` before the first square of
/// `occupied`.
#[inline(always)]
pub(crate) fn free_ray(bit: u32, dir: usize, occupied: u64) -> u64 {
    let ray = RAYS[dir][bit as usize];
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        let b = nearest(blockers, dir);
        ray ^ RAYS[dir][b as usize] ^ (1 << b)
    }
}

/// Turns a bitboard half a turn: square `s` goes to `51 - s`.
#[inline]
pub(crate) const fn rotate(bb: u64) -> u64 {
    bb.reverse_bits() >> 10
}

/// Iterates over the set bits of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub(crate) struct Bits(pub(crate) u64);

impl Iterator for Bits {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_and_count() {
        assert_eq!(SQUARES.count_ones(), 50);
        for s in 1..=50u8 {
            assert_eq!(square_of(bit_of(s)), s);
        }
        assert_eq!(SQUARES & (1 << 10 | 1 << 21 | 1 << 32 | 1 << 43), 0);
    }

    #[test]
    fn neighbours_follow_the_numbering() {
        // Square 28 (row 5, column 4): up-left 22, up-right 23, down-left 32, down-right 33.
        let b = 1u64 << bit_of(28);
        assert_eq!(shift(b, NW), 1 << bit_of(22));
        assert_eq!(shift(b, NE), 1 << bit_of(23));
        assert_eq!(shift(b, SW), 1 << bit_of(32));
        assert_eq!(shift(b, SE), 1 << bit_of(33));
        // Square 6 is on the left edge, square 5 on the right edge.
        assert_eq!(shift(1 << bit_of(6), SW) & SQUARES, 0);
        assert_eq!(shift(1 << bit_of(5), SE) & SQUARES, 0);
    }

    #[test]
    fn long_diagonal_ray() {
        // The long diagonal 46-41-37-32-28-23-19-14-10-5.
        let ray = RAYS[NE][bit_of(46) as usize];
        let expected = [41, 37, 32, 28, 23, 19, 14, 10, 5];
        assert_eq!(ray, expected.iter().fold(0, |bb, &s| bb | 1 << bit_of(s)));
    }

    #[test]
    fn rotation_maps_square_to_its_mirror() {
        for s in 1..=50u8 {
            assert_eq!(rotate(1 << bit_of(s)), 1 << bit_of(51 - s));
        }
    }
}
