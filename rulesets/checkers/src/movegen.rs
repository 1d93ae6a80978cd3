//! Move generation over bitboards, generic over the bitboard width ([`u32`] for 8x8,
//! [`u128`] for the other sizes).
//!
//! Quiet moves are found for all pieces at once with masked shifts. Captures are searched
//! depth-first from each piece that has a jump: captured pieces leave the board at once (so a
//! later jump may land on or pass over their squares), the moving piece's start square counts
//! as empty (a king may pass through it, or end there), and a sequence ends only when no jump
//! is left. Under Deepomatic rules a man that lands on the far row becomes a king and carries
//! on capturing in every direction; under Standard rules the move ends there.

use ply::MoveList;

use crate::bitboard::{Bits, Geometry, DL, DR, NONE, REVERSE, UL, UR};
use crate::moves::Move;

/// The longest visited-square list: one start square plus one landing per captured piece
/// (at most 127 pieces to capture on 16x16).
pub(crate) const MAX_PATH: usize = 130;

/// The pieces as seen by the side to move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Side<B> {
    /// The mover's pieces.
    pub own: B,
    /// The opponent's pieces.
    pub opp: B,
    /// Every king, of either side.
    pub kings: B,
    /// 0 for Black (moves down the board), 1 for White (moves up).
    pub color: usize,
}

/// True if direction `d` is forward for `color`.
#[inline(always)]
pub(crate) fn is_forward(color: usize, d: usize) -> bool {
    (d >= DL) == (color == 0)
}

impl<B: Bits> Side<B> {
    /// Empty dark squares.
    #[inline(always)]
    pub fn empty(&self, g: &Geometry<B>) -> B {
        g.all & !(self.own | self.opp)
    }

    /// The mover's pieces that may step or jump in direction `d`.
    #[inline(always)]
    pub fn movers(&self, d: usize) -> B {
        if is_forward(self.color, d) {
            self.own
        } else {
            self.own & self.kings
        }
    }

    /// The directions the mover's pieces can go: the two forward ones, then the two
    /// backward ones if the mover has a king (`len` says how many apply).
    #[inline(always)]
    pub fn directions(&self) -> ([usize; 4], usize) {
        let dirs = if self.color == 0 { [DL, DR, UL, UR] } else { [UL, UR, DL, DR] };
        let len = if (self.own & self.kings).is_empty() { 2 } else { 4 };
        (dirs, len)
    }

    /// The mover's pieces that may go down the board (Black's forward).
    #[inline(always)]
    fn movers_down(&self) -> B {
        if self.color == 0 {
            self.own
        } else {
            self.own & self.kings
        }
    }

    /// The mover's pieces that may go up the board (White's forward).
    #[inline(always)]
    fn movers_up(&self) -> B {
        if self.color == 0 {
            self.own & self.kings
        } else {
            self.own
        }
    }

    /// The mover's pieces that have at least one jump. For each direction: a piece that may
    /// go that way, an opponent next to it that way, and an empty square beyond.
    #[inline]
    pub fn capturers(&self, g: &Geometry<B>) -> B {
        let empty = self.empty(g);
        let opp = self.opp;
        let down = g.step(UR, opp) & g.jump(UR, empty) | g.step(UL, opp) & g.jump(UL, empty);
        let up = g.step(DR, opp) & g.jump(DR, empty) | g.step(DL, opp) & g.jump(DL, empty);
        self.movers_down() & down | self.movers_up() & up
    }

    /// Number of quiet moves (meaningful when there is no capture).
    #[inline]
    pub fn quiet_count(&self, g: &Geometry<B>) -> u32 {
        let empty = self.empty(g);
        let (down, up) = (self.movers_down(), self.movers_up());
        let n = B::count_pair(g.step(DL, down) & empty, g.step(DR, down) & empty);
        if up.is_empty() {
            n
        } else {
            n + B::count_pair(g.step(UL, up) & empty, g.step(UR, up) & empty)
        }
    }

    /// True if the side to move has any legal move.
    #[inline]
    pub fn has_move(&self, g: &Geometry<B>) -> bool {
        let empty = self.empty(g);
        (0..4).any(|d| !(g.step(d, self.movers(d)) & empty).is_empty())
            || !self.capturers(g).is_empty()
    }
}

/// Walks every maximal capture sequence of the piece on `path[len - 1]`, calling
/// `sink(end, captured, crowned, visited_squares)` once per sequence.
#[allow(clippy::too_many_arguments)]
pub(crate) fn jumps<B: Bits, F: FnMut(u8, B, bool, &[u8])>(
    g: &Geometry<B>,
    standard: bool,
    color: usize,
    opp: B,
    empty: B,
    king: bool,
    crowned: bool,
    captured: B,
    path: &mut [u8; MAX_PATH],
    len: usize,
    sink: &mut F,
) {
    let sq = usize::from(path[len - 1]);
    let (lo, hi) = if king {
        (0, 4)
    } else if color == 0 {
        (DL, 4)
    } else {
        (0, DL)
    };
    let mut any = false;
    for d in lo..hi {
        let land = g.landing[sq][d];
        if land == NONE || !empty.has(u32::from(land)) {
            continue;
        }
        let over = g.neighbour[sq][d];
        if !opp.has(u32::from(over)) {
            continue;
        }
        any = true;
        let taken = B::bit(u32::from(over));
        path[len] = land;
        let now_king = king || g.crown_row[color].has(u32::from(land));
        let just_crowned = now_king && !king;
        if just_crowned && standard {
            sink(land, captured | taken, true, &path[..=len]);
        } else {
            jumps(
                g,
                standard,
                color,
                opp & !taken,
                empty | taken,
                now_king,
                crowned || just_crowned,
                captured | taken,
                path,
                len + 1,
                sink,
            );
        }
    }
    if !any && len > 1 {
        sink(sq as u8, captured, crowned, &path[..len]);
    }
}

/// Calls `sink` for every capture sequence of the piece on `from`.
#[inline]
pub(crate) fn piece_captures<B: Bits, F: FnMut(u8, B, bool, &[u8])>(
    g: &Geometry<B>,
    standard: bool,
    side: &Side<B>,
    from: u32,
    sink: &mut F,
) {
    let mut path = [0u8; MAX_PATH];
    path[0] = from as u8;
    let empty = side.empty(g) | B::bit(from);
    let king = side.kings.has(from);
    jumps(g, standard, side.color, side.opp, empty, king, false, B::ZERO, &mut path, 1, sink);
}

/// Clears `out` and fills it with every legal move (captures only, if any exists).
pub(crate) fn generate<B: Bits>(
    g: &Geometry<B>,
    standard: bool,
    side: &Side<B>,
    out: &mut MoveList<Move>,
) {
    out.clear();
    let mut capturers = side.capturers(g);
    if !capturers.is_empty() {
        while !capturers.is_empty() {
            let from = capturers.pop();
            let start = out.len();
            piece_captures(g, standard, side, from, &mut |to, captured: B, crowns, _| {
                let captured = captured.to_u128();
                let variant =
                    out[start..].iter().filter(|m| m.to == to && m.captured == captured).count();
                out.push(Move { captured, from: from as u8, to, crowns, variant: variant as u16 });
            });
        }
        return;
    }
    let empty = side.empty(g);
    let crown_row = g.crown_row[side.color];
    let (dirs, len) = side.directions();
    for &d in &dirs[..len] {
        let mut targets = g.step(d, side.movers(d)) & empty;
        while !targets.is_empty() {
            let to = targets.pop();
            let from = g.neighbour[to as usize][REVERSE[d]];
            let crowns = crown_row.has(to) && !side.kings.has(u32::from(from));
            out.push(Move::quiet(from, to as u8, crowns));
        }
    }
}

/// The number of legal moves, without building a list.
#[inline]
pub(crate) fn count<B: Bits>(g: &Geometry<B>, standard: bool, side: &Side<B>) -> u64 {
    let mut capturers = side.capturers(g);
    if capturers.is_empty() {
        return u64::from(side.quiet_count(g));
    }
    let mut n = 0u64;
    while !capturers.is_empty() {
        let from = capturers.pop();
        piece_captures(g, standard, side, from, &mut |_, _, _, _| n += 1);
    }
    n
}

/// Every capture path of the piece on `from` that ends on `to` having taken `captured`, in
/// generation order (so index `k` is the move with variant `k`).
pub(crate) fn capture_paths<B: Bits>(
    g: &Geometry<B>,
    standard: bool,
    side: &Side<B>,
    from: u32,
    to: u8,
    captured: u128,
) -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    piece_captures(g, standard, side, from, &mut |end, cap: B, _, path| {
        if end == to && cap.to_u128() == captured {
            found.push(path.to_vec());
        }
    });
    found
}
