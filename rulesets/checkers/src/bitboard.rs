//! Bitboards over the dark squares and the board geometry they move on.
//!
//! Only the dark squares are indexed: square `i` is row `i / (N/2)`, and within a row the
//! dark squares are counted left to right. With the top-left square light, even rows hold
//! their dark squares on odd columns and odd rows on even columns. On 8x8:
//!
//! ```text
//!        col 0   1   2   3   4   5   6   7
//! row 0        0       1       2       3
//! row 1    4       5       6       7
//! row 2        8       9      10      11
//! ...
//! row 7   28      29      30      31
//! ```
//!
//! The index plus one is the square number of checkers notation. A diagonal step changes the
//! index by `N/2` or `N/2 ± 1` depending on the row's parity, so a step in one direction is two
//! masked shifts; a jump (two steps the same way) is one shift by `N ± 1`. 8x8 uses
//! `u32` (32 dark squares); every other size uses `u128` (16x16 has exactly 128).

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// Up-left (towards row 0, column decreasing).
pub(crate) const UL: usize = 0;
/// Up-right.
pub(crate) const UR: usize = 1;
/// Down-left (towards row N-1).
pub(crate) const DL: usize = 2;
/// Down-right.
pub(crate) const DR: usize = 3;
/// The opposite of each direction.
pub(crate) const REVERSE: [usize; 4] = [DR, DL, UR, UL];
/// Marks a missing neighbour in the square tables.
pub(crate) const NONE: u8 = u8::MAX;

/// An unsigned integer used as a set of dark squares.
pub(crate) trait Bits:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const ZERO: Self;
    /// The set holding square `sq` only.
    fn bit(sq: u32) -> Self;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// Lowest square of a non-empty set.
    fn lowest(self) -> u32;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// Widens to `u128`.
    fn to_u128(self) -> u128;
    /// Narrows from `u128` (the caller knows the set fits).
    fn from_u128(x: u128) -> Self;

    /// The sizes of two sets added (one popcount for two `u32`s).
    #[inline(always)]
    fn count_pair(a: Self, b: Self) -> u32 {
        a.count() + b.count()
    }

    /// True if `sq` is in the set.
    #[inline]
    fn has(self, sq: u32) -> bool {
        self & Self::bit(sq) != Self::ZERO
    }

    /// True for the empty set.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }

    /// Removes and returns the lowest square.
    #[inline]
    fn pop(&mut self) -> u32 {
        let sq = self.lowest();
        *self = self.without_lowest();
        sq
    }
}

macro_rules! impl_bits {
    ($t:ty $({ $($extra:tt)* })?) => {
        impl Bits for $t {
            $($($extra)*)?
            const ZERO: Self = 0;
            #[inline]
            fn bit(sq: u32) -> Self {
                1 << sq
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
        }
    };
}
impl_bits!(u128);
impl_bits!(u32 {
    #[inline(always)]
    fn count_pair(a: Self, b: Self) -> u32 {
        (u64::from(a) | u64::from(b) << 32).count_ones()
    }
});

/// The squares of one board size and how they connect.
#[derive(Clone, Debug)]
pub(crate) struct Geometry<B> {
    /// Board side N.
    pub size: usize,
    /// Dark squares per row, N/2.
    #[cfg_attr(not(test), allow(dead_code))]
    pub half: usize,
    /// Every dark square.
    pub all: B,
    /// For each direction, the squares of even rows and of odd rows that have a neighbour
    /// that way.
    pub step_mask: [[B; 2]; 4],
    /// The shift for each direction and row parity (left for down, right for up).
    pub step_shift: [[u32; 2]; 4],
    /// For each direction, the squares with a square two steps away that way.
    pub jump_mask: [B; 4],
    /// The index change of a jump (two steps) in each direction.
    pub jump_shift: [u32; 4],
    /// Row `size - 1` (Black crowns there) and row 0 (White crowns there).
    pub crown_row: [B; 2],
    /// Each row's squares.
    pub rows: Vec<B>,
    /// The squares two or more rows and columns away from every edge.
    pub centre: B,
    /// Neighbour of each square in each direction, or [`NONE`].
    pub neighbour: Vec<[u8; 4]>,
    /// Landing square of a jump from each square in each direction, or [`NONE`].
    pub landing: Vec<[u8; 4]>,
}

impl<B: Bits> Geometry<B> {
    /// The geometry of an N x N board; N is even, 4..=16, and N*N/2 fits in `B`.
    pub fn new(size: usize) -> Self {
        let half = size / 2;
        let squares = size * half;
        let rc = |i: usize| -> (i64, i64) {
            let r = i / half;
            let c = 2 * (i % half) + if r.is_multiple_of(2) { 1 } else { 0 };
            (r as i64, c as i64)
        };
        let index = |r: i64, c: i64| -> u8 {
            if r < 0 || c < 0 || r >= size as i64 || c >= size as i64 || (r + c) % 2 == 0 {
                NONE
            } else {
                (r as usize * half + c as usize / 2) as u8
            }
        };
        const DELTA: [(i64, i64); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
        let mut neighbour = vec![[NONE; 4]; squares];
        let mut landing = vec![[NONE; 4]; squares];
        for i in 0..squares {
            let (r, c) = rc(i);
            for (d, &(dr, dc)) in DELTA.iter().enumerate() {
                neighbour[i][d] = index(r + dr, c + dc);
                landing[i][d] = index(r + 2 * dr, c + 2 * dc);
            }
        }
        let mut all = B::ZERO;
        let mut step_mask = [[B::ZERO; 2]; 4];
        let mut jump_mask = [B::ZERO; 4];
        let mut rows = vec![B::ZERO; size];
        let mut centre = B::ZERO;
        let inner = 2..size as i64 - 2;
        for i in 0..squares {
            let b = B::bit(i as u32);
            let (r, c) = rc(i);
            if inner.contains(&r) && inner.contains(&c) {
                centre |= b;
            }
            let r = r as usize;
            all |= b;
            rows[r] |= b;
            for d in 0..4 {
                if neighbour[i][d] != NONE {
                    step_mask[d][r % 2] |= b;
                }
                if landing[i][d] != NONE {
                    jump_mask[d] |= b;
                }
            }
        }
        let h = half as u32;
        Geometry {
            size,
            half,
            all,
            step_mask,
            step_shift: [[h, h + 1], [h - 1, h], [h, h - 1], [h + 1, h]],
            jump_mask,
            jump_shift: [2 * h + 1, 2 * h - 1, 2 * h - 1, 2 * h + 1],
            crown_row: [rows[size - 1], rows[0]],
            rows,
            centre,
            neighbour,
            landing,
        }
    }

    /// Number of dark squares.
    #[cfg(test)]
    pub fn squares(&self) -> usize {
        self.size * self.half
    }

    /// The neighbours of `b` in direction `d` (only those on the board).
    #[inline(always)]
    pub fn step(&self, d: usize, b: B) -> B {
        let [m0, m1] = self.step_mask[d];
        let [s0, s1] = self.step_shift[d];
        if d >= DL {
            ((b & m0) << s0) | ((b & m1) << s1)
        } else {
            ((b & m0) >> s0) | ((b & m1) >> s1)
        }
    }

    /// The squares two steps from `b` in direction `d` (only those on the board).
    #[inline(always)]
    pub fn jump(&self, d: usize, b: B) -> B {
        let b = b & self.jump_mask[d];
        if d >= DL {
            b << self.jump_shift[d]
        } else {
            b >> self.jump_shift[d]
        }
    }

    /// `(row, column)` of square `sq`.
    #[cfg(test)]
    pub fn coords(&self, sq: usize) -> (usize, usize) {
        let r = sq / self.half;
        (r, 2 * (sq % self.half) + usize::from(r.is_multiple_of(2)))
    }

    /// The square at `(row, column)`, if it is a dark square of the board.
    #[cfg(test)]
    pub fn square_at(&self, row: usize, col: usize) -> Option<usize> {
        (row < self.size && col < self.size && (row + col) % 2 == 1)
            .then(|| row * self.half + col / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<B: Bits>(size: usize) {
        let g = Geometry::<B>::new(size);
        for sq in 0..g.squares() {
            let (r, c) = g.coords(sq);
            assert_eq!(g.square_at(r, c), Some(sq));
            for d in 0..4 {
                let n = g.neighbour[sq][d];
                let want = if n == NONE { B::ZERO } else { B::bit(u32::from(n)) };
                assert_eq!(g.step(d, B::bit(sq as u32)), want, "step {d} from {sq} on {size}");
                let l = g.landing[sq][d];
                let want = if l == NONE { B::ZERO } else { B::bit(u32::from(l)) };
                assert_eq!(g.jump(d, B::bit(sq as u32)), want, "jump {d} from {sq} on {size}");
                if n != NONE {
                    assert_eq!(g.neighbour[n as usize][REVERSE[d]], sq as u8);
                }
            }
        }
    }

    #[test]
    fn shifts_agree_with_square_tables_on_every_size() {
        check::<u32>(8);
        for size in (4..=16).step_by(2) {
            check::<u128>(size);
        }
    }

    #[test]
    fn numbering_matches_checkers_literature() {
        let g = Geometry::<u32>::new(8);
        assert_eq!(g.coords(0), (0, 1));
        assert_eq!(g.coords(4), (1, 0));
        assert_eq!(g.coords(31), (7, 6));
        assert_eq!(g.square_at(0, 0), None);
        assert_eq!(g.centre.count_ones(), 8);
    }
}
