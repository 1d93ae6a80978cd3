//! [`Move`]: everything one Impasse action does, and [`MoveText`]: the referee's text of an
//! action (`c1a3`, `f8g7c5`, `b6`) before it is resolved against a position.

use std::fmt;
use std::str::FromStr;

use crate::board::Square;
use crate::error::Error;

/// The basic move or removal an action starts with.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A single slides diagonally forward over empty squares.
    SingleSlide,
    /// A double slides diagonally backward over empty squares.
    DoubleSlide,
    /// The top checker of a double moves onto a diagonally adjacent single in a nearer row.
    Transpose,
    /// At an impasse: a single is removed from the board.
    ImpasseSingle,
    /// At an impasse: the top checker of a double is removed.
    ImpasseDouble,
}

impl MoveKind {
    /// True for the two impasse removals.
    #[inline]
    pub const fn is_impasse(self) -> bool {
        matches!(self, MoveKind::ImpasseSingle | MoveKind::ImpasseDouble)
    }
}

/// A crowning: the single on `source` is put on top of the far-row single on `target`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Crown {
    /// The single that becomes the crown (its square is the last coordinate of the text).
    pub source: Square,
    /// The far-row single that becomes a double.
    pub target: Square,
}

/// One complete action: the basic move or impasse removal, the bear-off it causes and the
/// crowning that follows. Two actions that print the same text (two far-row singles crowned
/// from the same source) are different values.
///
/// ```
/// use ply::{Game, MoveList};
/// use ply_impasse::{Impasse, MoveKind};
///
/// let game = Impasse::new();
/// let mut moves = MoveList::new();
/// game.generate_moves(&game.initial_state(), &mut moves);
/// let slide = moves.iter().find(|m| m.to_string() == "d2h6").unwrap();
/// assert_eq!(slide.kind(), MoveKind::SingleSlide);
/// assert_eq!(slide.to().unwrap().to_string(), "h6");
/// assert!(!slide.bears_off() && slide.crown().is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub(crate) kind: MoveKind,
    pub(crate) from: Square,
    /// Equal to `from` for impasse removals.
    pub(crate) to: Square,
    pub(crate) bear_off: bool,
    pub(crate) crown: Option<Crown>,
}

impl Move {
    /// The basic move or removal.
    #[inline]
    pub const fn kind(&self) -> MoveKind {
        self.kind
    }

    /// The square the action starts on (the removed checker's square for an impasse).
    #[inline]
    pub const fn from(&self) -> Square {
        self.from
    }

    /// The destination of a slide, or the single's square of a transpose; `None` for an
    /// impasse removal.
    #[inline]
    pub const fn to(&self) -> Option<Square> {
        if self.kind.is_impasse() {
            None
        } else {
            Some(self.to)
        }
    }

    /// True if the action bears off a checker (a double reaches its owner's near row).
    #[inline]
    pub const fn bears_off(&self) -> bool {
        self.bear_off
    }

    /// The crowning that ends the action, if any.
    #[inline]
    pub const fn crown(&self) -> Option<Crown> {
        self.crown
    }

    /// How many checkers the action removes from the board (0 or 1).
    #[inline]
    pub const fn removals(&self) -> u32 {
        self.kind.is_impasse() as u32 + self.bear_off as u32
    }

    /// The same action seen from the other side (every square's row mirrored), as played in
    /// the colour-flipped position.
    pub fn flip(&self) -> Move {
        Move {
            from: self.from.flip(),
            to: self.to.flip(),
            crown: self.crown.map(|c| Crown { source: c.source.flip(), target: c.target.flip() }),
            ..*self
        }
    }

    /// The referee's text of this action.
    pub fn text(&self) -> MoveText {
        // Unused slots hold a1, as in parsed texts, so that equal texts compare equal.
        let a1 = Square::from_index(0).expect("a1 exists");
        let mut squares = [self.from, a1, a1];
        let mut len = 1;
        if !self.kind.is_impasse() {
            squares[1] = self.to;
            len = 2;
        }
        if let Some(c) = self.crown {
            squares[len] = c.source;
            len += 1;
        }
        MoveText { squares, len: len as u8 }
    }
}

impl fmt::Display for Move {
    /// The referee's action text: `from` + `to` for a slide or transpose, the square alone for
    /// an impasse removal, then the crown's source square if the action crowns.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.text().fmt(f)
    }
}

/// The text of an action as the referee reads it: one, two or three squares. Parsing checks
/// only the syntax; [`crate::Impasse::resolve`] finds the action it names in a position.
///
/// ```
/// use ply_impasse::MoveText;
///
/// let t: MoveText = "f8g7c5".parse()?;
/// assert_eq!(t.squares().len(), 3);
/// assert_eq!(t.to_string(), "f8g7c5");
/// assert!("f8g".parse::<MoveText>().is_err());
/// # Ok::<(), ply_impasse::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MoveText {
    squares: [Square; 3],
    len: u8,
}

impl MoveText {
    /// The squares, in order (1 to 3 of them).
    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for sq in self.squares() {
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

impl FromStr for MoveText {
    type Err = Error;

    /// Reads 2, 4 or 6 characters: one to three squares `a1`..`h8`, with nothing around them.
    fn from_str(s: &str) -> Result<MoveText, Error> {
        let err = || Error::MoveSyntax(s.to_string());
        if !s.is_ascii() || s.is_empty() || !s.len().is_multiple_of(2) || s.len() > 6 {
            return Err(err());
        }
        let a1 = Square::from_index(0).expect("a1 exists");
        let mut squares = [a1; 3];
        for (i, chunk) in s.as_bytes().chunks(2).enumerate() {
            let part = std::str::from_utf8(chunk).map_err(|_| err())?;
            squares[i] = part.parse().map_err(|_| err())?;
        }
        Ok(MoveText { squares, len: (s.len() / 2) as u8 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_small() {
        assert!(std::mem::size_of::<Move>() <= 8);
    }

    #[test]
    fn move_text_rejects_malformed_input() {
        for bad in ["", "a", "a1b", "a1b2c3d4", "z1", "a0", "A1", "a1 ", "é1", "a1b9"] {
            assert_eq!(bad.parse::<MoveText>(), Err(Error::MoveSyntax(bad.to_string())), "{bad}");
        }
        for good in ["b6", "c1a3", "f8g7c5"] {
            assert_eq!(good.parse::<MoveText>().unwrap().to_string(), good);
        }
    }
}
