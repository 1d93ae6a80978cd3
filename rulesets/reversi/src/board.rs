//! Positions and moves: per-player bitboards of up to 256 squares.
//!
//! Square `row * size + column` is bit `sq % 64` of word `sq / 64`, so every size up to
//! 16x16 fits four `u64` words, and boards up to 8x8 use the first word only (on 8x8,
//! bit 0 is a1 and bit 63 is h8).

use std::fmt;

use ply::Player;

/// A set of squares: 256 bits in four words.
pub(crate) type Bits = [u64; 4];

/// The empty set.
pub(crate) const NO_BITS: Bits = [0; 4];

#[inline]
pub(crate) fn bit_test(b: &Bits, sq: usize) -> bool {
    b[(sq >> 6) & 3] >> (sq & 63) & 1 != 0
}

#[inline]
pub(crate) fn bit_set(b: &mut Bits, sq: usize) {
    b[(sq >> 6) & 3] |= 1 << (sq & 63);
}

#[inline]
pub(crate) fn bits_or(a: &Bits, b: &Bits) -> Bits {
    [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]]
}

#[inline]
pub(crate) fn bits_count(b: &Bits) -> u32 {
    b.iter().map(|w| w.count_ones()).sum()
}

#[inline]
pub(crate) fn bits_is_empty(b: &Bits) -> bool {
    (b[0] | b[1] | b[2] | b[3]) == 0
}

/// Calls `f` with every square of `b`, lowest first.
#[inline]
pub(crate) fn for_each_bit(b: &Bits, mut f: impl FnMut(usize)) {
    for (w, &word) in b.iter().enumerate() {
        let mut x = word;
        while x != 0 {
            f(w * 64 + x.trailing_zeros() as usize);
            x &= x - 1;
        }
    }
}

/// A move: a disc placed on a square (index `row * size + column`), or a pass when the
/// player to move has no placement but another player has one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ReversiMove {
    /// A disc on this square index.
    Place(u8),
    /// No placement is possible: the turn goes to the next player.
    Pass,
}

impl ReversiMove {
    /// The square index of a placement, `None` for a pass.
    #[inline]
    pub fn square(self) -> Option<usize> {
        match self {
            ReversiMove::Place(sq) => Some(sq as usize),
            ReversiMove::Pass => None,
        }
    }
}

/// A Reversi position: each player's discs and the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReversiState {
    pub(crate) discs: [Bits; 4],
    pub(crate) size: u8,
    pub(crate) to_move: u8,
}

impl ReversiState {
    /// An empty board of `size` with player 1 to move.
    pub(crate) fn empty(size: usize) -> ReversiState {
        ReversiState { discs: [NO_BITS; 4], size: size as u8, to_move: 0 }
    }

    /// The side length of the board.
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The player to move.
    pub fn to_move(&self) -> Player {
        Player(self.to_move)
    }

    /// The owner of the disc at (`column`, `row`), `None` for an empty square.
    ///
    /// # Panics
    /// If the square is off the board.
    pub fn owner(&self, column: usize, row: usize) -> Option<Player> {
        let n = self.size();
        assert!(column < n && row < n, "square ({column}, {row}) is off the {n}x{n} board");
        let sq = row * n + column;
        (0..4).find(|&p| bit_test(&self.discs[p], sq)).map(Player::new)
    }

    /// How many discs `player` has.
    pub fn count(&self, player: Player) -> u32 {
        bits_count(&self.discs[player.index()])
    }

    /// How many squares are empty.
    pub fn empties(&self) -> u32 {
        let n = self.size();
        (n * n) as u32 - self.discs.iter().map(bits_count).sum::<u32>()
    }

    /// All occupied squares.
    #[inline]
    pub(crate) fn occupied(&self) -> Bits {
        let d = &self.discs;
        [
            d[0][0] | d[1][0] | d[2][0] | d[3][0],
            d[0][1] | d[1][1] | d[2][1] | d[3][1],
            d[0][2] | d[1][2] | d[2][2] | d[3][2],
            d[0][3] | d[1][3] | d[2][3] | d[3][3],
        ]
    }

    /// The board as rows of `.` and `1`..`4`, top row first.
    pub fn rows(&self) -> Vec<String> {
        let n = self.size();
        (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| match self.owner(c, r) {
                        Some(p) => (b'1' + p.0) as char,
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }
}

impl fmt::Debug for ReversiState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "ReversiState (player {} to move)", self.to_move + 1)?;
        for row in self.rows() {
            writeln!(f, "  {row}")?;
        }
        Ok(())
    }
}
