//! [`Material`], the slices of games of men and kings (checkers, draughts).

use std::fmt;

/// A slice for games of men and kings: how many men and kings each side has, the first
/// player's first. A capture removes a piece and a crowning turns a man into a king, so a
/// move leads to the same material, to fewer pieces or to fewer men: [`Material::up_to`]
/// lists them in that order.
///
/// ```
/// use ply::endgame::Material;
///
/// let m = Material::new([2, 0], [1, 1]);
/// assert_eq!((m.pieces(), m.men()), (4, 2));
/// assert_eq!(m.to_string(), "m2k1-m0k1");
/// let all = Material::up_to(2);
/// assert_eq!(all.len(), 4 + 10);
/// assert!(all.windows(2).all(|w| (w[0].pieces(), w[0].men()) <= (w[1].pieces(), w[1].men())));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Material {
    /// Each side's men.
    pub men: [u8; 2],
    /// Each side's kings.
    pub kings: [u8; 2],
}

impl Material {
    /// The material with these men and kings (the first player's first).
    pub fn new(men: [u8; 2], kings: [u8; 2]) -> Material {
        Material { men, kings }
    }

    /// Every piece.
    pub fn pieces(&self) -> u32 {
        self.men() + u32::from(self.kings[0] + self.kings[1])
    }

    /// Every man.
    pub fn men(&self) -> u32 {
        u32::from(self.men[0] + self.men[1])
    }

    /// Every material with 1 to `pieces` pieces (at most 12): fewer pieces first, then fewer
    /// men.
    pub fn up_to(pieces: u32) -> Vec<Material> {
        let most = pieces.min(12) as u8;
        let mut out = Vec::new();
        for m0 in 0..=most {
            for k0 in 0..=most - m0 {
                for m1 in 0..=most - m0 - k0 {
                    for k1 in 0..=most - m0 - k0 - m1 {
                        let m = Material::new([m0, m1], [k0, k1]);
                        if m.pieces() > 0 {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }
}

impl fmt::Display for Material {
    /// `m2k1-m0k1`: the first player's men and kings, then the second's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "m{}k{}-m{}k{}", self.men[0], self.kings[0], self.men[1], self.kings[1])
    }
}
