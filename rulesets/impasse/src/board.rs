//! Squares, bitboards and the fixed direction tables of the 8x8 Impasse board.
//!
//! A square is numbered `row * 8 + column` from `a1` = 0 to `h8` = 63, as in the CodinGame
//! referee (`xy = y * 8 + x`). A [`Bitboard`] is a `u64` with bit `n` for square `n`:
//!
//! ```text
//! 8 | 56 57 58 59 60 61 62 63
//! 7 | 48 49 50 51 52 53 54 55
//! . | ...
//! 1 |  0  1  2  3  4  5  6  7
//!     a  b  c  d  e  f  g  h
//! ```

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// A set of squares, one bit per square (`a1` = bit 0, `h8` = bit 63).
pub type Bitboard = u64;

/// Row 1 (White's near row, Black's far row).
pub const ROW_1: Bitboard = 0xff;
/// Row 8 (White's far row, Black's near row).
pub const ROW_8: Bitboard = 0xff << 56;

/// One of the 64 squares, `a1` = 0 .. `h8` = 63.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square at `column` (0 = a) and `row` (0 = row 1), if both are below 8.
    #[inline]
    pub const fn new(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square(row * 8 + column))
        } else {
            None
        }
    }

    /// The square with this index (`a1` = 0 .. `h8` = 63), if below 64.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The index, `a1` = 0 .. `h8` = 63.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 (a) to 7 (h).
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 % 8
    }

    /// The row, 0 (row 1) to 7 (row 8).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The one-bit bitboard of this square.
    #[inline]
    pub const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// The same square seen from the other side (row `r` becomes row `9 - r`).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Pops the lowest square of `bb`, which must not be empty.
    #[inline]
    pub(crate) fn pop(bb: &mut Bitboard) -> Square {
        let sq = bb.trailing_zeros() as u8;
        *bb &= *bb - 1;
        Square(sq)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

impl FromStr for Square {
    type Err = Error;

    /// Reads `a1`..`h8` (lowercase, as the referee writes them).
    fn from_str(s: &str) -> Result<Square, Error> {
        match s.as_bytes() {
            [c @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square((r - b'1') * 8 + (c - b'a'))),
            _ => Err(Error::MoveSyntax(s.to_string())),
        }
    }
}

/// Marks "no square" in the direction tables.
pub(crate) const NONE: u8 = 64;

/// Diagonal steps `(dx, dy)`: 0 up-left, 1 up-right, 2 down-left, 3 down-right ("up" is
/// towards row 8).
const DIRS: [(i8, i8); 4] = [(-1, 1), (1, 1), (-1, -1), (1, -1)];

/// `NEIGHBOUR[sq][dir]`: the diagonal neighbour of `sq` in direction `dir`, or [`NONE`].
pub(crate) const NEIGHBOUR: [[u8; 4]; 64] = {
    let mut t = [[NONE; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut d = 0;
        while d < 4 {
            let (nx, ny) = (x + DIRS[d].0, y + DIRS[d].1);
            if nx >= 0 && nx < 8 && ny >= 0 && ny < 8 {
                t[sq][d] = (ny * 8 + nx) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// The directions a player's singles slide in (forward, away from the owner), in the
/// referee's order: towards column a first, then towards column h.
pub(crate) const FORWARD: [[usize; 2]; 2] = [[0, 1], [2, 3]];
/// The directions a player's doubles slide in (backward), and where the single of a
/// transpose stands, in the referee's order.
pub(crate) const BACKWARD: [[usize; 2]; 2] = [[2, 3], [0, 1]];
/// A player's far row, where singles are crowned.
pub(crate) const FAR_ROW: [Bitboard; 2] = [ROW_8, ROW_1];
/// A player's near row, where doubles bear off.
pub(crate) const NEAR_ROW: [Bitboard; 2] = [ROW_1, ROW_8];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        for i in 0..64 {
            let sq = Square::from_index(i).unwrap();
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
            assert_eq!(sq.flip().flip(), sq);
        }
        assert_eq!("c5".parse::<Square>().unwrap(), Square::new(2, 4).unwrap());
        assert_eq!("c5".parse::<Square>().unwrap().flip().to_string(), "c4");
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("A1".parse::<Square>().is_err());
    }

    #[test]
    fn neighbours_stay_on_board() {
        let a1 = "a1".parse::<Square>().unwrap().index();
        assert_eq!(NEIGHBOUR[a1], [NONE, 9, NONE, NONE]);
        let h8 = "h8".parse::<Square>().unwrap().index();
        assert_eq!(NEIGHBOUR[h8], [NONE, NONE, 54, NONE]);
    }
}
