//! Stable discs on the 8x8 board: discs that no sequence of moves can flip, found as Edax
//! finds them (Richard Delorme's `get_stable_discs`): the edges' exactly stable discs from a
//! table of every edge, the discs whose four lines are all full, and then, repeatedly, the
//! discs that touch a stable disc or a full line in each of the four directions.
//!
//! The count bounds an exact endgame value: a player to move against `s` stable discs of the
//! opponent ends at most `64 - 2 s` ahead, so a search whose window lies above that bound
//! stops at once (Edax's stability cutoff).
//!
//! ```
//! use ply_reversi::stability::stable_discs;
//!
//! // The mover owns the whole first row and a1-a8: all of it is stable.
//! let p = 0x0101_0101_0101_01ff;
//! let o = 0x0000_0010_0800_0000;
//! assert_eq!(stable_discs(p, o), p);
//! // A lone disc in the centre is not.
//! assert_eq!(stable_discs(o, p), 0);
//! ```

use std::sync::LazyLock;

/// The squares no edge or full-line argument reaches by itself: not on an edge.
const INNER: u64 = 0x007e_7e7e_7e7e_7e00;

/// For each edge as a line of 8 (bit `i` the `i`-th square), indexed `mine * 256 + theirs`,
/// the discs of `mine` that no sequence of moves on the edge can flip.
static EDGE_STABLE: LazyLock<Box<[u8]>> = LazyLock::new(edge_table);

/// The table of [`EDGE_STABLE`], built from the full edges back: a disc is stable when it is
/// stable in every line that a disc placed on an empty square, by either side, leads to (each
/// has one empty square fewer, so its entry is already there).
fn edge_table() -> Box<[u8]> {
    let at = |mine: u32, theirs: u32| (mine << 8 | theirs) as usize;
    let mut t = vec![0u8; 256 * 256].into_boxed_slice();
    for empties in 0..=8 {
        for mine in 0..256u32 {
            for theirs in 0..256u32 {
                let mut empty = !(mine | theirs) & 0xff;
                if mine & theirs != 0 || empty.count_ones() != empties {
                    continue;
                }
                let mut stable = mine;
                while empty != 0 && stable != 0 {
                    let x = empty.trailing_zeros();
                    empty &= empty - 1;
                    let (m, o) = place_on_line(mine, theirs, x);
                    stable &= u32::from(t[at(m, o)]);
                    let (o, m) = place_on_line(theirs, mine, x);
                    stable &= u32::from(t[at(m, o)]);
                }
                t[at(mine, theirs)] = stable as u8;
            }
        }
    }
    t
}

/// `placer`'s and `other`'s discs of a line after `placer` puts a disc on empty square `x`
/// (whether or not that flips anything: on an edge a disc may also arrive by a move that
/// flips along another line).
fn place_on_line(placer: u32, other: u32, x: u32) -> (u32, u32) {
    let (mut p, mut o) = (placer | 1 << x, other);
    for step in [-1i32, 1] {
        let mut y = x as i32 + step;
        let mut run = 0u32;
        while (0..8).contains(&y) && o >> y & 1 == 1 {
            run |= 1 << y;
            y += step;
        }
        if run != 0 && (0..8).contains(&y) && p >> y & 1 == 1 {
            p |= run;
            o &= !run;
        }
    }
    (p, o)
}

/// The edges' discs of `p` that are stable, from the table.
#[inline]
fn stable_edges(p: u64, o: u64) -> u64 {
    let t = &**EDGE_STABLE;
    let at = |mine: u64, theirs: u64| u64::from(t[(mine as usize) << 8 | theirs as usize]);
    let pack_a = |x: u64| ((x & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080)) >> 56;
    let pack_h = |x: u64| ((x & 0x8080_8080_8080_8080).wrapping_mul(0x0002_0408_1020_4081)) >> 56;
    let unpack_a =
        |x: u64| ((x & 0x7e).wrapping_mul(0x0000_0408_1020_4080)) & 0x0001_0101_0101_0100;
    let unpack_h =
        |x: u64| ((x & 0x7e).wrapping_mul(0x0002_0408_1020_4000)) & 0x0080_8080_8080_8000;
    at(p & 0xff, o & 0xff)
        | at(p >> 56, o >> 56) << 56
        | unpack_a(at(pack_a(p), pack_a(o)))
        | unpack_h(at(pack_h(p), pack_h(o)))
}

/// For the occupied squares `discs`, the squares whose line is full in each direction:
/// horizontal, vertical, and the two diagonals.
#[inline]
fn full_lines(discs: u64) -> [u64; 4] {
    let mut h = discs;
    h &= h >> 1;
    h &= h >> 2;
    h &= h >> 4;
    let horizontal = (h & 0x0101_0101_0101_0101).wrapping_mul(0xff);

    let mut v = discs;
    v &= v.rotate_right(8);
    v &= v.rotate_right(16);
    v &= v.rotate_right(32);

    let (mut l7, mut r7) = (discs, discs);
    l7 &= 0xff01_0101_0101_0101 | (l7 >> 7);
    r7 &= 0x8080_8080_8080_80ff | (r7 << 7);
    l7 &= 0xffff_0303_0303_0303 | (l7 >> 14);
    r7 &= 0xc0c0_c0c0_c0c0_ffff | (r7 << 14);
    l7 &= 0xffff_ffff_0f0f_0f0f | (l7 >> 28);
    r7 &= 0xf0f0_f0f0_ffff_ffff | (r7 << 28);

    let (mut l9, mut r9) = (discs, discs);
    l9 &= 0xff80_8080_8080_8080 | (l9 >> 9);
    r9 &= 0x0101_0101_0101_01ff | (r9 << 9);
    l9 &= 0xffff_c0c0_c0c0_c0c0 | (l9 >> 18);
    r9 &= 0x0303_0303_0303_ffff | (r9 << 18);
    let d9 = l9 & r9 & (0x0f0f_0f0f_f0f0_f0f0 | (l9 >> 36) | (r9 << 36));

    [horizontal, v, l7 & r7, d9]
}

/// The discs of `p` (against `o`) that no sequence of moves can flip: a lower estimate,
/// exact on the edges.
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let inner = p & INNER;
    let full = full_lines(p | o);
    let mut stable = stable_edges(p, o) | (full[0] & full[1] & full[2] & full[3] & inner);
    if stable == 0 {
        return 0;
    }
    loop {
        let before = stable;
        let h = (stable >> 1) | (stable << 1) | full[0];
        let v = (stable >> 8) | (stable << 8) | full[1];
        let d7 = (stable >> 7) | (stable << 7) | full[2];
        let d9 = (stable >> 9) | (stable << 9) | full[3];
        stable |= h & v & d7 & d9 & inner;
        if stable == before {
            return stable;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{mobility64, othello_flips, OTHELLO_INTERIOR};

    fn moves_of(p: u64, o: u64) -> u64 {
        mobility64(p, o, !(p | o), 8, OTHELLO_INTERIOR)
    }

    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn stable_discs_are_never_flipped() {
        // Along random games, every disc found stable stays its owner's to the end.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut found = 0;
        for _ in 0..300 {
            let (mut p, mut o) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
            // Stable discs so far of the side now to move, and of the other.
            let (mut sp, mut so) = (0u64, 0u64);
            loop {
                let (now_p, now_o) = (stable_discs(p, o), stable_discs(o, p));
                assert_eq!(now_p & sp, sp, "a stable disc was lost: {p:#x} {o:#x}");
                assert_eq!(now_o & so, so, "a stable disc was lost: {p:#x} {o:#x}");
                assert_eq!(now_p & !p, 0);
                (sp, so) = (now_p, now_o);
                found += sp.count_ones();
                let moves = moves_of(p, o);
                if moves == 0 {
                    if moves_of(o, p) == 0 {
                        break;
                    }
                    (p, o, sp, so) = (o, p, so, sp);
                    continue;
                }
                let pick = (next(&mut seed) % u64::from(moves.count_ones())) as u32;
                let mut m = moves;
                for _ in 0..pick {
                    m &= m - 1;
                }
                let sq = m.trailing_zeros();
                let f = othello_flips(p, o, sq);
                assert_eq!(f & sp, 0);
                assert_eq!(f & so, 0, "a stable disc was flipped: {p:#x} {o:#x} {sq}");
                (p, o, sp, so) = (o & !f, p | f | 1 << sq, so, sp);
            }
        }
        assert!(found > 10_000, "{found}");
    }

    /// The discs of `stable` (a subset of `mine`'s) that stay `mine`'s whatever is played on
    /// the edge's empty squares, by either side, in any order: every sequence tried.
    fn edge_stable(mine: u32, theirs: u32, stable: u32) -> u32 {
        let mut stable = stable & mine;
        let empty = !(mine | theirs) & 0xff;
        if stable == 0 || empty == 0 {
            return stable;
        }
        for x in (0..8).filter(|x| empty >> x & 1 == 1) {
            let (m, t) = place_on_line(mine, theirs, x);
            stable = edge_stable(m, t, stable);
            let (t, m) = place_on_line(theirs, mine, x);
            stable = edge_stable(m, t, stable);
        }
        stable
    }

    #[test]
    fn the_edge_table_agrees_with_every_sequence_of_moves() {
        let table = &**EDGE_STABLE;
        let mut stable = 0;
        for mine in 0..256u32 {
            for theirs in (0..256u32).filter(|t| t & mine == 0) {
                let want = edge_stable(mine, theirs, mine);
                assert_eq!(
                    u32::from(table[(mine << 8 | theirs) as usize]),
                    want,
                    "{mine:08b} {theirs:08b}"
                );
                stable += want.count_ones();
            }
        }
        // Full edges and corners count: the table is far from empty.
        assert!(stable > 5_000, "{stable}");
    }

    #[test]
    fn a_full_board_is_all_stable() {
        let mut seed = 0x9e37_79b9_u64;
        for _ in 0..100 {
            let p = next(&mut seed);
            assert_eq!(stable_discs(p, !p), p);
        }
    }

    #[test]
    fn edges_count_runs_from_the_corners() {
        // a1-c1 the mover's, d1 empty, e1 the opponent's: a1-c1 stable, nothing else.
        let p = 0b0000_0111;
        let o = 0b0001_0000 | 0x0000_0010_0800_0000;
        assert_eq!(stable_discs(p, o), 0b0000_0111);
        // Without the corner nothing on the edge is stable.
        assert_eq!(stable_discs(0b0000_0110, o), 0);
    }
}
