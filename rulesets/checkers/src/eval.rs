//! The static evaluation the engine searches with.

use crate::bitboard::{Bits, Geometry};
use crate::rules::CheckersState;

/// Evaluation weights, in hundredths of a man. The defaults were chosen by engine-vs-engine
/// matches between weight sets (the crate's `checkers_match weights` example; results in
/// the crate README).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// Per row a man has advanced from its own back row.
    pub advance: i32,
    /// Per man still on its own back row (guarding the crowning squares).
    pub back_row: i32,
    /// Per piece on a centre square (two rows and columns from every edge).
    pub centre: i32,
    /// Per quiet move available (the mover's minus the opponent's).
    pub mobility: i32,
    /// Bonus for the side ahead in material as pieces come off: the material difference
    /// times `trade`, divided by the number of pieces left plus 2.
    pub trade: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights { man: 100, king: 160, advance: 0, back_row: 20, centre: 4, mobility: 3, trade: 8 }
    }
}

impl Weights {
    /// Material only: men and kings, nothing positional.
    pub fn material_only() -> Weights {
        Weights { man: 100, king: 150, advance: 0, back_row: 0, centre: 0, mobility: 0, trade: 0 }
    }
}

/// The value of `s` for Black (positive is good for Black).
pub(crate) fn evaluate<B: Bits>(g: &Geometry<B>, w: &Weights, s: &CheckersState) -> i32 {
    let kings = B::from_u128(s.kings);
    let own = [B::from_u128(s.pieces[0]), B::from_u128(s.pieces[1])];
    let mut material = [0i32; 2];
    let mut positional = [0i32; 2];
    let last = g.size - 1;
    for c in 0..2 {
        let men = own[c] & !kings;
        let k = own[c] & kings;
        material[c] = w.man * men.count() as i32 + w.king * k.count() as i32;
        let mut p = 0;
        if w.advance != 0 {
            for r in 1..last {
                let rows_advanced = if c == 0 { r } else { last - r };
                p += (rows_advanced as i32) * (men & g.rows[r]).count() as i32;
            }
            p *= w.advance;
        }
        p += w.back_row * (men & g.crown_row[c ^ 1]).count() as i32;
        p += w.centre * (own[c] & g.centre).count() as i32;
        positional[c] = p;
    }
    let mut v = material[0] - material[1] + positional[0] - positional[1];
    if w.mobility != 0 {
        let side =
            |c: usize| crate::movegen::Side { own: own[c], opp: own[c ^ 1], kings, color: c };
        v += w.mobility * (side(0).quiet_count(g) as i32 - side(1).quiet_count(g) as i32);
    }
    if w.trade != 0 {
        let pieces = (own[0] | own[1]).count() as i32;
        v += (material[0] - material[1]) * w.trade / (pieces + 2);
    }
    v
}
