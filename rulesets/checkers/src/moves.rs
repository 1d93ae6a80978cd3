//! [`Move`]: a compact, `Copy` checkers move.

use std::fmt;

/// A legal move: the start and end squares, the set of captured squares, whether the moving
/// man is crowned, and which of several capture paths with the same start, end and captured
/// set it takes.
///
/// Squares are dark-square indices from 0 (square number minus one); `captured` is a
/// bitboard over the same indices. Two capture sequences can jump the same pieces from the
/// same start to the same end in a different order; they are distinct moves, told apart by
/// [`Move::variant`] (0 for the first such path in generation order, 1 for the next, ...). The
/// visited squares of a move are rebuilt by [`crate::EnglishCheckers::path`].
///
/// Its `Display` is the short numeric form `11-15` or `22x8`, which can be ambiguous for
/// captures; [`ply::Notation::format_move`] writes every landing square (`22x15x8`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub(crate) captured: u128,
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) crowns: bool,
    pub(crate) variant: u16,
}

impl Move {
    /// A move of one square without capture.
    #[inline]
    pub(crate) fn quiet(from: u8, to: u8, crowns: bool) -> Move {
        Move { captured: 0, from, to, crowns, variant: 0 }
    }

    /// The start square (dark-square index, 0-based).
    #[inline]
    pub fn from(self) -> usize {
        usize::from(self.from)
    }

    /// The end square (dark-square index, 0-based). Equal to [`Move::from`] when a king's
    /// capture sequence ends where it started.
    #[inline]
    pub fn to(self) -> usize {
        usize::from(self.to)
    }

    /// The captured squares as a bitboard over dark-square indices.
    #[inline]
    pub fn captured(self) -> u128 {
        self.captured
    }

    /// True for a capture.
    #[inline]
    pub fn is_capture(self) -> bool {
        self.captured != 0
    }

    /// Number of pieces captured.
    #[inline]
    pub fn capture_count(self) -> u32 {
        self.captured.count_ones()
    }

    /// True if the moving man becomes a king during this move.
    #[inline]
    pub fn crowns(self) -> bool {
        self.crowns
    }

    /// Which of the capture paths sharing start, end and captured set this is (0 for most).
    #[inline]
    pub fn variant(self) -> u16 {
        self.variant
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}{sep}{}", u32::from(self.from) + 1, u32::from(self.to) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_stays_small() {
        assert!(std::mem::size_of::<Move>() <= 32);
    }
}
