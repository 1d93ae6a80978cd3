//! Exact Othello endgames on bare bitboards: the last empty squares solved to the end, for the
//! search's endgame hook ([`ply::Game::solve_endgame`]) and for benchmarks.
//!
//! The value is the final disc difference for the player to move (discs of the mover minus
//! discs of the opponent when neither can move, empty squares counted for nobody: the margin
//! of [`ply::Outcome::Scores`]), searched inside a window `(alpha, beta)` fail-soft: a result
//! `<= alpha` is an upper bound, one `>= beta` a lower bound, anything between is exact.
//!
//! The search is negamax with a null window after the first move. Moves are ordered by
//! Edax's fast ordering above [`PARITY_EMPTIES`] empty squares ([`order_key`]: the move that
//! leaves the opponent the fewest replies first) and by quadrant parity at and below it
//! (squares in regions with an odd number of empties first); the last empty square is scored
//! by counting its flips with table lookups, without generating moves. From 4 empty squares up
//! a window above what the opponent's stable discs allow is answered at once
//! ([`stability_cutoff`]).
//!
//! ```
//! use ply::Notation;
//! use ply_reversi::{endgame, Reversi};
//!
//! let game = Reversi::new(8, 2)?;
//! // Black (1) to move with 3 empty squares.
//! let state = game.parse_state(
//!     "11111111/11111111/11111111/11111111/22222222/22222222/22222222/22222... 1",
//! )?;
//! let mut budget = ply::SolverBudget::unlimited();
//! let (p, o) = endgame::bitboards(&state).expect("Othello");
//! let v = endgame::solve(p, o, -64, 64, &mut budget).expect("an unlimited budget");
//! assert!(v.abs() <= 64 && budget.nodes() > 0);
//! # Ok::<(), ply_reversi::Error>(())
//! ```

use std::cell::RefCell;

use ply::SolverBudget;

use crate::board::ReversiState;
use crate::movegen::{mobility64, neighbours, othello_flips, OTHELLO_INTERIOR, RAYS};
use crate::stability::stable_discs;

/// At and below this many empty squares the empty squares are tried in parity order without
/// generating moves (ordering by mobility costs more than it saves so near the end).
pub const PARITY_EMPTIES: u32 = 6;

/// At and above this many empty squares results go to the transposition table (a 20-empty
/// proof visits 40.7 M positions with 8, 50.0 M with 11, in 0.93 of the time).
pub const TABLE_EMPTIES: u32 = 8;

/// Entries of each thread's table (24 bytes each: 6 MiB).
const TABLE_ENTRIES: usize = 1 << 18;

/// What the table knows of a position: the bounds of its value and the best move found.
#[derive(Clone, Copy, Default)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    best: u8,
}

thread_local! {
    /// The solver's transposition table, one per thread, allocated on first use. Entries
    /// hold exact bounds of a position's value, true whatever search stored them.
    static TABLE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

#[inline]
fn slot(p: u64, o: u64) -> usize {
    let h = (p ^ o.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> (64 - TABLE_ENTRIES.trailing_zeros())) as usize
}

/// The four corners.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The squares next to each square (a placement flips something only where one of them
/// holds an opponent's disc).
const NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = neighbours(1 << sq);
        sq += 1;
    }
    t
};

/// The discs `p` would flip on `sq`, with the quick rejection of a square that touches no
/// disc of `o`.
#[inline(always)]
fn flips_near(p: u64, o: u64, sq: u32) -> u64 {
    if NEIGHBOURS[sq as usize] & o == 0 {
        return 0;
    }
    flips(p, o, sq)
}

/// The four 4x4 quadrants of the board.
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0f0f_0f0f, 0x0000_0000_f0f0_f0f0, 0x0f0f_0f0f_0000_0000, 0xf0f0_f0f0_0000_0000];

/// The quadrant of each square, as the quadrant's squares.
const QUADRANT_OF: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = QUADRANTS[(sq / 32) * 2 + (sq % 8) / 4];
        sq += 1;
    }
    t
};

/// The mover's and the opponent's discs of a 2-player 8x8 position; `None` for any other
/// board.
pub fn bitboards(state: &ReversiState) -> Option<(u64, u64)> {
    let to_move = state.to_move as usize;
    if to_move > 1 || state.discs[2..].iter().any(|d| d.iter().any(|&w| w != 0)) {
        return None;
    }
    if state.discs.iter().any(|d| d[1..].iter().any(|&w| w != 0)) {
        return None;
    }
    Some((state.discs[to_move][0], state.discs[1 - to_move][0]))
}

#[inline(always)]
fn moves_of(p: u64, o: u64) -> u64 {
    mobility64(p, o, !(p | o), 8, OTHELLO_INTERIOR)
}

#[inline(always)]
fn flips(p: u64, o: u64, sq: u32) -> u64 {
    othello_flips(p, o, sq)
}

/// The final margin when neither side can move.
#[inline(always)]
fn final_margin(p: u64, o: u64) -> i32 {
    p.count_ones() as i32 - o.count_ones() as i32
}

/// The exact final margin of `p` to move against `o` under perfect play, fail-soft inside
/// `(alpha, beta)` (see the module documentation), counting the positions visited on
/// `budget`; `None` if the budget said stop before the end. Meant for positions with few
/// empty squares: the cost grows about tenfold with every two more.
pub fn solve(p: u64, o: u64, alpha: i32, beta: i32, budget: &mut SolverBudget<'_>) -> Option<i32> {
    TABLE.with(|t| {
        let mut table = t.borrow_mut();
        if table.is_empty() {
            table.resize(TABLE_ENTRIES, Entry::default());
        }
        let (alpha, beta) = (alpha.clamp(-65, 65), beta.clamp(-65, 65));
        let v = Solver { table: &mut table, b: budget }.search(p, o, alpha, beta, false);
        (!budget.stopped()).then_some(v)
    })
}

/// One solve: the thread's table and the budget.
struct Solver<'a, 'b> {
    table: &'a mut [Entry],
    b: &'a mut SolverBudget<'b>,
}

impl Solver<'_, '_> {
    fn search(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, passed: bool) -> i32 {
        if self.b.visit() {
            return 0;
        }
        let empty = !(p | o);
        let n = empty.count_ones();
        if n == 0 {
            return final_margin(p, o);
        }
        if n == 1 {
            return last_square(p, o, empty.trailing_zeros(), self.b);
        }
        if n <= PARITY_EMPTIES {
            return shallow(p, o, alpha, beta, passed, odd_quadrants(empty), self.b);
        }
        // The table's entry is read first, so that its fetch from memory overlaps the work
        // before it is used (Edax prefetches it).
        let index = slot(p, o);
        let entry = (n >= TABLE_EMPTIES).then(|| self.table[index]);
        if let Some(bound) = stability_cutoff(p, o, alpha, n) {
            return bound;
        }
        let moves = moves_of(p, o);
        if moves == 0 {
            if passed {
                return final_margin(p, o);
            }
            return -self.search(o, p, -beta, -alpha, true);
        }
        let mut hint = None;
        if let Some(e) = entry {
            if e.p == p && e.o == o {
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                if lower == upper {
                    return lower;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
                hint = Some(u32::from(e.best));
            }
        }
        let alpha_before = alpha;
        let (mut order, mut flipped) = ([0u32; 64], [0u64; 64]);
        let count = by_order_key(p, o, moves, &mut order, &mut flipped);
        if let Some(h) = hint {
            if let Some(i) = order[..count].iter().position(|&sq| sq == h) {
                order[..=i].rotate_right(1);
            }
        }
        let mut best = i32::MIN;
        let mut best_square = order[0];
        for (k, &sq) in order[..count].iter().enumerate() {
            let f = flipped[sq as usize];
            let (np, no) = (p | f | 1 << sq, o & !f);
            let v = if k == 0 {
                -self.search(no, np, -beta, -alpha, false)
            } else {
                let v = -self.search(no, np, -alpha - 1, -alpha, false);
                if v > alpha && v < beta {
                    -self.search(no, np, -beta, -v, false)
                } else {
                    v
                }
            };
            if v > best {
                best = v;
                best_square = sq;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        if n >= TABLE_EMPTIES && !self.b.stopped() {
            let e = &mut self.table[index];
            if e.p != p || e.o != o {
                *e = Entry { p, o, lower: -64, upper: 64, best: 0 };
            }
            // Margins lie in -64..=64, so the bounds fit an i8.
            if best >= beta {
                e.lower = best.clamp(-64, 64) as i8;
            } else if best <= alpha_before {
                e.upper = best.clamp(-64, 64) as i8;
            } else {
                (e.lower, e.upper) = (best as i8, best as i8);
            }
            e.best = best_square as u8;
        }
        best
    }
}

/// The last few empty squares (2 to [`PARITY_EMPTIES`]): plain alpha-beta over the empty
/// squares in parity order, a square being a move when it flips something, without
/// generating moves or using the table. `odd` is the quadrants holding an odd number of empty
/// squares, kept up to date move by move.
fn shallow(
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    passed: bool,
    odd: u64,
    b: &mut SolverBudget<'_>,
) -> i32 {
    if b.visit() {
        return 0;
    }
    let empty = !(p | o);
    if empty & empty.wrapping_sub(1) == 0 {
        return match empty {
            0 => final_margin(p, o),
            _ => last_square(p, o, empty.trailing_zeros(), b),
        };
    }
    if (empty & empty.wrapping_sub(1)).count_ones() == 1 {
        return last_two(p, o, alpha, beta, passed, b);
    }
    if let Some(bound) = stability_cutoff(p, o, alpha, empty.count_ones()) {
        return bound;
    }
    let mut best = i32::MIN;
    for set in [empty & odd, empty & !odd] {
        let mut squares = set;
        while squares != 0 {
            let sq = squares.trailing_zeros();
            squares &= squares - 1;
            let f = flips_near(p, o, sq);
            if f == 0 {
                continue;
            }
            let odd = odd ^ QUADRANT_OF[sq as usize];
            let v = -shallow(o & !f, p | f | 1 << sq, -beta, -alpha, false, odd, b);
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
                alpha = alpha.max(v);
            }
        }
    }
    if best == i32::MIN {
        // No move: pass, or the game is over.
        if passed {
            return final_margin(p, o);
        }
        return -shallow(o, p, -beta, -alpha, true, odd, b);
    }
    best
}

/// The lowest `alpha` at which counting stable discs is worth its cost, by empty squares
/// (Edax's `NWS_STABILITY_THRESHOLD`; 99: never).
const STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46,
    48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

/// The stability cutoff: with the opponent's stable discs the mover ends at most
/// `64 - 2 * stable` ahead; that bound when it lies at or below `alpha` (an upper bound,
/// fail-soft), tried only where `alpha` is high enough for it to be likely.
#[inline(always)]
pub fn stability_cutoff(p: u64, o: u64, alpha: i32, empties: u32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[empties as usize] {
        return None;
    }
    let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

/// The margin with two empty squares, fail-soft inside `(alpha, beta)`.
fn last_two(p: u64, o: u64, alpha: i32, beta: i32, passed: bool, b: &mut SolverBudget<'_>) -> i32 {
    let empty = !(p | o);
    let first = empty.trailing_zeros();
    let last = 63 - empty.leading_zeros();
    let mut best = i32::MIN;
    for (x, y) in [(first, last), (last, first)] {
        let f = flips_near(p, o, x);
        if f != 0 {
            b.visit();
            let v = -last_square(o & !f, p | f | 1 << x, y, b);
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
            }
        }
    }
    if best == i32::MIN {
        if passed {
            return final_margin(p, o);
        }
        b.visit();
        return -last_two(o, p, -beta, -alpha, true, b);
    }
    best
}

/// The margin with one empty square `sq`: the mover plays it if it can, else the opponent,
/// else the game ends.
#[inline]
fn last_square(p: u64, o: u64, sq: u32, b: &mut SolverBudget<'_>) -> i32 {
    let base = final_margin(p, o);
    let f = last_flips(p, sq) as i32;
    if f > 0 {
        return base + 2 * f + 1;
    }
    let g = last_flips(o, sq) as i32;
    if g > 0 {
        b.visit();
        return base - 2 * g - 1;
    }
    base
}

/// How many discs a disc of `p` on `sq` flips when `sq` is the board's only empty square
/// (every other square not `p`'s being the opponent's): per line through `sq`, a lookup of
/// the line's discs of `p` gathered into one byte by a multiplication.
#[inline(always)]
fn last_flips(p: u64, sq: u32) -> u32 {
    let (row, col) = (sq / 8, sq % 8);
    let lines = &LINES[sq as usize];
    let across = (p >> (row * 8)) as u8;
    let down =
        (((p >> col) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let diagonal = ((p & lines[0]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8;
    let anti = ((p & lines[1]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8;
    let (c, r) = (col as usize, row as usize);
    u32::from(
        LINE_FLIPS[c][across as usize]
            + LINE_FLIPS[r][down as usize]
            + LINE_FLIPS[c][diagonal as usize]
            + LINE_FLIPS[c][anti as usize],
    )
}

/// The two diagonals through each square (rising with the column, then falling), from the
/// move generator's rays.
const LINES: [[u64; 2]; 64] = {
    let mut t = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = [RAYS[sq][3] | RAYS[sq][7], RAYS[sq][1] | RAYS[sq][5]];
        sq += 1;
    }
    t
};

/// For a square at position `i` of a line of 8 and the line's discs of the player placing
/// there (bit `j` for position `j`, the other positions the opponent's or off the board),
/// the discs flipped along the line.
const LINE_FLIPS: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut mine = 0;
        while mine < 256 {
            let mut n = 0;
            // Towards position 0: the run up to the nearest own disc, if there is one.
            let mut j = i as i32 - 1;
            while j >= 0 && mine >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                n += i as i32 - 1 - j;
            }
            let mut j = i + 1;
            while j < 8 && mine >> j & 1 == 0 {
                j += 1;
            }
            if j < 8 {
                n += (j - i - 1) as i32;
            }
            t[i][mine] = n as u8;
            mine += 1;
        }
        i += 1;
    }
    t
};

/// Writes the moves into `order`, best first by [`order_key`], then squares in quadrants with
/// an odd number of empty squares first, and each move's flips into `flipped` by its square;
/// returns how many.
fn by_order_key(
    p: u64,
    o: u64,
    mut moves: u64,
    order: &mut [u32; 64],
    flipped: &mut [u64; 64],
) -> usize {
    let odd = odd_quadrants(!(p | o));
    let mut count = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros();
        moves &= moves - 1;
        let f = flips(p, o, sq);
        flipped[sq as usize] = f;
        let even = u32::from(odd >> sq & 1 == 0);
        // The key above the square's 6 bits: ties keep the squares' order.
        order[count] = (order_key(p | f | 1 << sq, o & !f) << 7) | even << 6 | sq;
        count += 1;
    }
    // Insertion sort: at most a few dozen moves.
    for i in 1..count {
        let k = order[i];
        let mut j = i;
        while j > 0 && order[j - 1] > k {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = k;
    }
    for k in &mut order[..count] {
        *k &= 63;
    }
    count
}

/// How bad a move that leaves the mover with `p` and the opponent with `o` looks to Edax's
/// fast ordering, lowest best: the opponent's replies (a corner counting twice) first, then
/// the mover's discs made stable around the corners (most first), then the opponent's
/// potential mobility (empty squares next to the mover's discs, corners twice).
#[inline(always)]
pub fn order_key(p: u64, o: u64) -> u32 {
    let replies = weighted(moves_of(o, p));
    let stable = corner_stability(p);
    let potential = weighted(neighbours(p) & !(p | o));
    (replies << 15) + ((16 - stable) << 10) + potential
}

/// The squares of `x`, corners counting twice.
#[inline(always)]
fn weighted(x: u64) -> u32 {
    x.count_ones() + (x & CORNERS).count_ones()
}

/// The discs of `p` on a corner or next to an owned corner along an edge (at most 12).
#[inline(always)]
fn corner_stability(p: u64) -> u32 {
    let stable = (((0x0100_0000_0000_0001 & p) << 1)
        | ((0x8000_0000_0000_0080 & p) >> 1)
        | ((0x0000_0000_0000_0081 & p) << 8)
        | ((0x8100_0000_0000_0000 & p) >> 8)
        | CORNERS)
        & p;
    stable.count_ones()
}

/// The squares of the quadrants holding an odd number of the squares of `empty`.
#[inline(always)]
fn odd_quadrants(empty: u64) -> u64 {
    QUADRANTS.iter().filter(|&&q| (empty & q).count_ones() & 1 == 1).fold(0, |m, &q| m | q)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain minimax over every move to the end, no pruning, no ordering: the reference.
    fn minimax(p: u64, o: u64, passed: bool) -> i32 {
        let moves = moves_of(p, o);
        if moves == 0 {
            if passed {
                return final_margin(p, o);
            }
            return -minimax(o, p, true);
        }
        let mut best = i32::MIN;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = flips(p, o, sq);
            best = best.max(-minimax(o & !f, p | f | 1 << sq, false));
        }
        best
    }

    /// Random positions with `empties` empty squares from a seeded random game.
    fn random_positions(empties: u32, count: usize) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        let mut seed = 0x1234_5678_u64;
        while out.len() < count {
            let (mut p, mut o) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
            loop {
                let empty = !(p | o);
                if empty.count_ones() == empties {
                    if moves_of(p, o) != 0 {
                        out.push((p, o));
                    }
                    break;
                }
                let moves = moves_of(p, o);
                if moves == 0 {
                    if moves_of(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    continue;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let pick = (seed % u64::from(moves.count_ones())) as u32;
                let mut m = moves;
                for _ in 0..pick {
                    m &= m - 1;
                }
                let sq = m.trailing_zeros();
                let f = flips(p, o, sq);
                (p, o) = (o & !f, p | f | 1 << sq);
            }
        }
        out
    }

    #[test]
    fn agrees_with_plain_minimax() {
        for empties in 1..=9 {
            for (p, o) in random_positions(empties, 12) {
                let exact = minimax(p, o, false);
                let mut nodes = SolverBudget::unlimited();
                assert_eq!(solve(p, o, -64, 64, &mut nodes), Some(exact), "{p:#x} {o:#x}");
                // Narrow windows bound the value from the correct side.
                for (a, b) in [(exact - 1, exact + 1), (exact, exact + 2), (exact - 2, exact)] {
                    let v = solve(p, o, a, b, &mut nodes).expect("unlimited");
                    if v <= a {
                        assert!(exact <= v, "upper bound {v} below {exact}");
                    } else if v >= b {
                        assert!(exact >= v, "lower bound {v} above {exact}");
                    } else {
                        assert_eq!(v, exact);
                    }
                }
            }
        }
    }

    #[test]
    fn the_stability_cutoff_bounds_the_value_from_above() {
        let mut cuts = 0;
        for empties in 4..=9 {
            for (p, o) in random_positions(empties, 40) {
                let exact = minimax(p, o, false);
                for alpha in [STABILITY_THRESHOLD[empties as usize], 40, 63] {
                    if let Some(bound) = stability_cutoff(p, o, alpha, empties) {
                        assert!(bound <= alpha && exact <= bound, "{p:#x} {o:#x}: {bound}");
                        cuts += 1;
                    }
                }
            }
        }
        assert!(cuts > 0);
    }

    #[test]
    fn a_stopped_budget_gives_no_answer() {
        let stop = || true;
        for (p, o) in random_positions(14, 2) {
            let mut budget = SolverBudget::new(&stop);
            assert_eq!(solve(p, o, -64, 64, &mut budget), None);
            assert!(budget.stopped() && budget.nodes() >= 4096);
        }
    }

    #[test]
    fn each_square_lies_in_its_quadrant() {
        for sq in 0..64 {
            let q = QUADRANT_OF[sq];
            assert!(QUADRANTS.contains(&q) && q >> sq & 1 == 1, "{sq}");
        }
    }

    #[test]
    fn flips_agree_with_the_move_generator() {
        for (p, o) in (1..=40).flat_map(|e| random_positions(e, 3)) {
            for sq in 0..64 {
                if (p | o) >> sq & 1 == 0 {
                    let slow = crate::movegen::flips64(p, o, sq as usize, 8, OTHELLO_INTERIOR);
                    assert_eq!(flips(p, o, sq), slow, "{p:#x} {o:#x} {sq}");
                    assert_eq!(flips_near(p, o, sq), slow, "{p:#x} {o:#x} {sq}");
                    let touches = NEIGHBOURS[sq as usize] & o != 0;
                    assert!(touches || slow == 0, "{p:#x} {o:#x} {sq}");
                }
            }
        }
    }

    #[test]
    fn last_flips_count_the_flips_of_the_last_square() {
        let mut seed = 0x9e37_79b9_u64;
        for sq in 0..64u32 {
            for _ in 0..200 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let p = seed & !(1 << sq);
                let o = !p & !(1 << sq);
                assert_eq!(last_flips(p, sq), flips(p, o, sq).count_ones(), "{p:#x} {sq}");
                assert_eq!(last_flips(o, sq), flips(o, p, sq).count_ones(), "{o:#x} {sq}");
            }
        }
    }

    #[test]
    fn last_square_counts_flips_for_whoever_can_play() {
        // Everything black but a1 (empty) and b1 (white): black plays a1, flipping b1 against
        // c1, and owns the board.
        let o = 1u64 << 1;
        let p = !(o | 1);
        let mut nodes = SolverBudget::unlimited();
        assert_eq!(solve(p, o, -64, 64, &mut nodes), Some(64));
        // White to move cannot play a1 (no white disc lies beyond a black line from it), so
        // black plays it.
        assert_eq!(solve(o, p, -64, 64, &mut nodes), Some(-64));
        // With b1 black too nobody can play a1: 63 to 0.
        assert_eq!(solve(p | o, 0, -64, 64, &mut nodes), Some(63));
    }
}
