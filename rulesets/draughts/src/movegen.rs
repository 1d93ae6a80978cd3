//! Move generation on [`Pieces`]: quiet moves, captures under the majority rule, fast
//! counting and the bulk-counting perft.
//!
//! Captures are found by depth-first search from every piece that can take. Captured pieces
//! stay on the board until the move ends, so they block later jumps and cannot be taken twice
//! (the Turkish strike). Only sequences taking the most pieces are kept; sequences with the
//! same start, end and captured set are one move (the list is checked for duplicates when a
//! sequence of two or more captures is added).

use std::fmt;

use ply::MoveList;

use crate::bitboard::{
    free_ray, nearest, reverse, rotate, shift, square_of, Bits, BLACK_PROMOTION, DELTA, NE, NW,
    RAYS, SE, SQUARES, SW, WHITE_PROMOTION,
};

/// The pieces on the board: one bitboard per colour plus the kings of both.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub(crate) struct Pieces {
    pub(crate) white: u64,
    pub(crate) black: u64,
    pub(crate) kings: u64,
}

impl Pieces {
    /// The pieces of one side (`white` true for White).
    #[inline(always)]
    pub(crate) fn side(&self, white: bool) -> u64 {
        if white {
            self.white
        } else {
            self.black
        }
    }

    /// The empty playable squares.
    #[inline(always)]
    pub(crate) fn empty(&self) -> u64 {
        SQUARES & !(self.white | self.black)
    }

    /// Plays `mv` for the side given by `white`.
    #[inline(always)]
    pub(crate) fn play(&mut self, mv: Move, white: bool) {
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let promotion = if white { WHITE_PROMOTION } else { BLACK_PROMOTION };
        if white {
            self.white ^= from ^ to;
            self.black &= !mv.captured;
        } else {
            self.black ^= from ^ to;
            self.white &= !mv.captured;
        }
        if self.kings & from != 0 {
            self.kings = (self.kings & !mv.captured) ^ from ^ to;
        } else {
            self.kings = (self.kings & !mv.captured) | (to & promotion);
        }
    }

    /// The colour-flipped position: the board turned half a turn with colours swapped.
    pub(crate) fn flipped(&self) -> Pieces {
        Pieces { white: rotate(self.black), black: rotate(self.white), kings: rotate(self.kings) }
    }
}

/// A move: start and end square and the set of captured pieces (empty for a quiet move).
///
/// Two capture sequences with the same start, end and captured set are the same move; the
/// path a sequence takes is rebuilt only for notation. Start and end may be equal (a capture
/// that comes back to its square).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) captured: u64,
    pub(crate) from: u8,
    pub(crate) to: u8,
}

impl Move {
    /// The start square, 1..=50.
    pub fn from(self) -> u8 {
        square_of(u32::from(self.from))
    }

    /// The end square, 1..=50.
    pub fn to(self) -> u8 {
        square_of(u32::from(self.to))
    }

    /// True if the move captures.
    pub fn is_capture(self) -> bool {
        self.captured != 0
    }

    /// The number of pieces captured.
    pub fn capture_count(self) -> u32 {
        self.captured.count_ones()
    }

    /// The captured squares in increasing order.
    pub fn captured_squares(self) -> impl Iterator<Item = u8> {
        Bits(self.captured).map(square_of)
    }
}

impl fmt::Debug for Move {
    /// `32-28` for a quiet move; `from x to x captured...` for a capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_capture() {
            write!(f, "{}x{}", self.from(), self.to())?;
            for s in self.captured_squares() {
                write!(f, "x{s}")?;
            }
            Ok(())
        } else {
            write!(f, "{}-{}", self.from(), self.to())
        }
    }
}

/// The men that can jump an enemy piece right now.
#[inline(always)]
fn man_capturers(men: u64, opp: u64, empty: u64) -> u64 {
    // A man on `b` jumps in direction `d` if `b + d` holds an enemy and `b + 2d` is empty:
    // walk back twice from the empty squares.
    (shift(shift(empty, SE) & opp, SE)
        | shift(shift(empty, SW) & opp, SW)
        | shift(shift(empty, NE) & opp, NE)
        | shift(shift(empty, NW) & opp, NW))
        & men
}

/// True if the king on `bit` can capture.
#[inline(always)]
fn king_can_capture(bit: u32, opp: u64, empty: u64) -> bool {
    let occupied = SQUARES & !empty;
    for dir in 0..4 {
        let blockers = RAYS[dir][bit as usize] & occupied;
        if blockers == 0 {
            continue;
        }
        let b = nearest(blockers, dir);
        if opp >> b & 1 != 0 && shift(1 << b, dir) & empty != 0 {
            return true;
        }
    }
    false
}

/// True if the side to move (`white`) has a capture.
#[inline]
pub(crate) fn has_capture(p: &Pieces, white: bool) -> bool {
    let own = p.side(white);
    let opp = p.side(!white);
    let empty = p.empty();
    if man_capturers(own & !p.kings, opp, empty) != 0 {
        return true;
    }
    Bits(own & p.kings).any(|k| king_can_capture(k, opp, empty))
}

/// True if the side to move has any legal move.
#[inline]
pub(crate) fn has_moves(p: &Pieces, white: bool) -> bool {
    let own = p.side(white);
    let empty = p.empty();
    let men = own & !p.kings;
    let (a, b) = if white { (NW, NE) } else { (SW, SE) };
    if (shift(men, a) | shift(men, b)) & empty != 0 {
        return true;
    }
    let kings = own & p.kings;
    let around = shift(kings, NW) | shift(kings, NE) | shift(kings, SW) | shift(kings, SE);
    around & empty != 0 || has_capture(p, white)
}

/// Depth-first capture search for one piece.
struct Captures<'a> {
    opp: u64,
    /// Empty squares, the moving piece's start included.
    empty: u64,
    from: u8,
    best: u32,
    list: &'a mut MoveList<Move>,
}

impl Captures<'_> {
    #[inline(always)]
    fn record(&mut self, to: u32, captured: u64, n: u32) {
        if n < self.best {
            return;
        }
        let mv = Move { captured, from: self.from, to: to as u8 };
        if n > self.best {
            self.best = n;
            self.list.clear();
        } else if n >= 2 && self.list.contains(&mv) {
            return;
        }
        self.list.push(mv);
    }

    fn man(&mut self, cur: u64, captured: u64, n: u32) {
        let mut found = false;
        for dir in 0..4 {
            let over = shift(cur, dir) & self.opp & !captured;
            if over == 0 {
                continue;
            }
            let land = shift(over, dir) & self.empty;
            if land != 0 {
                found = true;
                self.man(land, captured | over, n + 1);
            }
        }
        if !found {
            self.record(cur.trailing_zeros(), captured, n);
        }
    }

    /// Captures of a king standing on `cur`, which it reached along `dir_in` (`None` at the
    /// start). Straight on along `dir_in` is tried only when `straight` is set: from every
    /// landing square of one jump the next piece on that line is the same, so one landing
    /// square explores it for all.
    fn king(&mut self, cur: u32, captured: u64, n: u32, dir_in: Option<usize>, straight: bool) {
        let mut found = false;
        let occupied = SQUARES & !self.empty;
        for dir in 0..4 {
            if let Some(d) = dir_in {
                if dir == reverse(d) || (dir == d && !straight) {
                    continue;
                }
            }
            let blockers = RAYS[dir][cur as usize] & occupied;
            if blockers == 0 {
                continue;
            }
            let victim = nearest(blockers, dir);
            let victim_bb = 1u64 << victim;
            if victim_bb & self.opp & !captured == 0 {
                continue;
            }
            let lands = free_ray(victim, dir, occupied);
            if lands == 0 {
                continue;
            }
            found = true;
            // The landing square farthest along the line goes straight on.
            let last = if dir >= SW { 63 - lands.leading_zeros() } else { lands.trailing_zeros() };
            for land in Bits(lands) {
                self.king(land, captured | victim_bb, n + 1, Some(dir), land == last);
            }
        }
        if !found && n > 0 {
            self.record(cur, captured, n);
        }
    }
}

/// Writes every capture of the side to move under the majority rule into `list` (cleared
/// first); returns the number of pieces each one takes (0 and an empty list if none).
pub(crate) fn generate_captures(p: &Pieces, white: bool, list: &mut MoveList<Move>) -> u32 {
    list.clear();
    let own = p.side(white);
    let opp = p.side(!white);
    let empty = p.empty();
    let men = man_capturers(own & !p.kings, opp, empty);
    let mut gen = Captures { opp, empty, from: 0, best: 1, list };
    for k in Bits(own & p.kings) {
        if king_can_capture(k, opp, empty) {
            gen.from = k as u8;
            gen.empty = empty | 1 << k;
            gen.king(k, 0, 0, None, true);
        }
    }
    for m in Bits(men) {
        gen.from = m as u8;
        gen.empty = empty | 1 << m;
        gen.man(1 << m, 0, 0);
    }
    if gen.list.is_empty() {
        0
    } else {
        gen.best
    }
}

/// Appends the quiet moves of the side to move to `list`.
pub(crate) fn generate_quiet(p: &Pieces, white: bool, list: &mut MoveList<Move>) {
    let own = p.side(white);
    let empty = p.empty();
    let men = own & !p.kings;
    let dirs = if white { [NW, NE] } else { [SW, SE] };
    for dir in dirs {
        for to in Bits(shift(men, dir) & empty) {
            let from = (to as i32 - DELTA[dir]) as u8;
            list.push(Move { captured: 0, from, to: to as u8 });
        }
    }
    let occupied = SQUARES & !empty;
    for k in Bits(own & p.kings) {
        for dir in 0..4 {
            for to in Bits(free_ray(k, dir, occupied)) {
                list.push(Move { captured: 0, from: k as u8, to: to as u8 });
            }
        }
    }
}

/// Every legal move of the side to move (`white`): the captures under the majority rule if
/// there are any, the quiet moves otherwise.
pub(crate) fn generate(p: &Pieces, white: bool, list: &mut MoveList<Move>) {
    list.clear();
    if has_capture(p, white) {
        generate_captures(p, white, list);
    } else {
        generate_quiet(p, white, list);
    }
}

/// The number of legal moves; builds no list when there is no capture.
#[inline]
pub(crate) fn count(p: &Pieces, white: bool) -> u64 {
    if has_capture(p, white) {
        let mut list = MoveList::new();
        generate_captures(p, white, &mut list);
        return list.len() as u64;
    }
    let own = p.side(white);
    let empty = p.empty();
    let men = own & !p.kings;
    let (a, b) = if white { (NW, NE) } else { (SW, SE) };
    let mut n = u64::from((shift(men, a) & empty).count_ones())
        + u64::from((shift(men, b) & empty).count_ones());
    let kings = own & p.kings;
    if kings != 0 {
        let occupied = SQUARES & !empty;
        for k in Bits(kings) {
            for dir in 0..4 {
                n += u64::from(free_ray(k, dir, occupied).count_ones());
            }
        }
    }
    n
}

/// Perft with bulk counting on bare pieces (no hash, no draw counters): the speed path.
pub(crate) fn perft_pieces(p: &Pieces, white: bool, depth: u32) -> u64 {
    let mut lists: Vec<MoveList<Move>> = (0..depth).map(|_| MoveList::new()).collect();
    perft_rec(p, white, depth, &mut lists)
}

fn perft_rec(p: &Pieces, white: bool, depth: u32, lists: &mut [MoveList<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return count(p, white);
    }
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    generate(p, white, list);
    let mut total = 0;
    for &mv in list.iter() {
        let mut child = *p;
        child.play(mv, white);
        total += perft_rec(&child, !white, depth - 1, rest);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_small() {
        // A 64-bit captured set plus two square bytes, padded: copying it is two words.
        assert_eq!(std::mem::size_of::<Move>(), 16);
    }

    #[test]
    fn count_agrees_with_generation_at_the_start() {
        let p = crate::rules::start_position().pieces;
        let mut list = MoveList::new();
        generate(&p, true, &mut list);
        assert_eq!(count(&p, true), list.len() as u64);
        assert_eq!(count(&p.flipped(), false), 9);
    }
}
