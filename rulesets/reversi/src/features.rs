//! The features of the tunable evaluation of Reversi, [`Learned`]: Edax-style board
//! patterns for Othello plus the terms of the hand-written evaluation.
//!
//! [`OthelloFeatures`] lists, each seen from the player asked and zero-sum (with two players
//! a side's own value minus the opponent's; with `n` players `(n - 1)` times the player's own
//! minus the sum of the others', as in [`crate::Evaluation`]):
//!
//! - `mobility`: placements available;
//! - `potential_mobility`: empty squares next to an opponent disc (Othello only);
//! - `frontier`: own discs next to an empty square (Othello only);
//! - `corners`: discs on the four corners;
//! - `stable_edge`: discs in unbroken runs along an edge from a corner of their owner (counted
//!   from each corner, as the hand-written evaluation does);
//! - `x_squares` and `c_squares`: discs on the diagonal (X) and edge (C) neighbours of a
//!   corner that is still empty;
//! - `discs`: the disc count;
//! - `late_discs`: the disc count times `late`, which grows from 0 on a half-filled board to
//!   8 on a full one (the hand-written evaluation's endgame term);
//! - `parity`: 1 for the player who makes the last placement if nobody passes;
//! - `to_move`: 1 for the player to move;
//! - the patterns (Othello only), one feature per configuration of each pattern kind:
//!   `edge_D` (an edge with its two X-squares, 10 squares, 59,049 configurations),
//!   `corner_D` (the 3x3 block at a corner, 19,683), `line2_D`, `line3_D` and `line4_D` (the
//!   second, third and fourth row from an edge, 6,561 each), and `diag8_D`, `diag7_D`,
//!   `diag6_D`, `diag5_D`, `diag4_D` (the diagonals of that length: 6,561, 2,187, 729, 243
//!   and 81). `D` is the configuration's base-3 digits, one per square in the pattern's order
//!   below: `0` the player's disc, `1` empty, `2` the opponent's. A pattern is read at every
//!   image of its squares under the 8 symmetries of the board (the 4 rotations and their
//!   mirror images; the long diagonal has 4 distinct images), all images sharing one table,
//!   so a configuration and its mirror image always count together. Each image adds 1 to the
//!   configuration the player sees there and -1 to the one the opponent sees (the same squares
//!   with `0` and `2` swapped), which keeps the patterns zero-sum.
//!
//! Squares of the patterns, as (row, column) from the corner a1 = (0, 0) at their first
//! image: `edge` is b2, a1..h1, g2 ((1,1), (0,0)..(0,7), (1,6)); `corner` is a1 b1 c1, a2 b2
//! c2, a3 b3 c3 (row by row); `lineK` is row K from column a to h; `diag8` is a1..h8 and
//! `diagK` (K < 8) the diagonal of length K that starts on the first row at column `8 - K`
//! and runs towards the last column.
//!
//! 108,227 features in all: the 11 above and 108,216 pattern configurations. Only two-player
//! 8x8 games (Othello, [`Reversi::is_othello`]) have the patterns, frontier and potential
//! mobility; for other sizes and for 3 or 4 players extraction gives the other features
//! (which the hand-written evaluation also has) and never panics.
//!
//! [`Learned`] weighs them with the weights in `weights/learned.txt`, which `tune fit` found
//! from 40,000 games of depth-4 self-play (the file's header gives the commands). The fit
//! started from the hand-written [`crate::Evaluation::Standard`] in these features (corners
//! 40, stable edge discs 12, mobility 4, X-squares -15, C-squares -6, parity 8, late discs 1,
//! in score units, that is hundredths at the file's scale of 100, and 0 for the rest), which
//! plays exactly as the standard evaluation. The patterns carry most of the fitted weight;
//! on boards other than Othello's only the scalar features count.

use ply::eval::{Evaluator, Features, LinearEval};
use ply::Player;

use crate::board::{bit_test, bits_count, ReversiState};
use crate::movegen::neighbours;
use crate::Reversi;

/// The non-pattern features, in index order.
const SCALARS: [&str; 11] = [
    "mobility",
    "potential_mobility",
    "frontier",
    "corners",
    "stable_edge",
    "x_squares",
    "c_squares",
    "discs",
    "late_discs",
    "parity",
    "to_move",
];
const MOBILITY: usize = 0;
const POTENTIAL_MOBILITY: usize = 1;
const FRONTIER: usize = 2;
const CORNERS: usize = 3;
const STABLE_EDGE: usize = 4;
const X_SQUARES: usize = 5;
const C_SQUARES: usize = 6;
const DISCS: usize = 7;
const LATE_DISCS: usize = 8;
const PARITY: usize = 9;
const TO_MOVE: usize = 10;
/// How many scalar features there are, the index of the first pattern configuration.
const S: usize = SCALARS.len();

/// The most squares a pattern has.
const MAX_LEN: usize = 10;

/// A pattern kind: its name and its squares (row, column) at its first image.
struct Kind {
    name: &'static str,
    len: usize,
    squares: [(u8, u8); MAX_LEN],
}

/// Pads a list of squares to [`MAX_LEN`].
const fn pad(list: &[(u8, u8)]) -> [(u8, u8); MAX_LEN] {
    let mut out = [(0, 0); MAX_LEN];
    let mut i = 0;
    while i < list.len() {
        out[i] = list[i];
        i += 1;
    }
    out
}

const fn kind(name: &'static str, list: &[(u8, u8)]) -> Kind {
    Kind { name, len: list.len(), squares: pad(list) }
}

/// The pattern kinds, in the order of their tables.
const KINDS: [Kind; 10] = [
    kind("edge", &[(1, 1), (0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (1, 6)]),
    kind("corner", &[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]),
    kind("line2", &[(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 7)]),
    kind("line3", &[(2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (2, 7)]),
    kind("line4", &[(3, 0), (3, 1), (3, 2), (3, 3), (3, 4), (3, 5), (3, 6), (3, 7)]),
    kind("diag8", &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7)]),
    kind("diag7", &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)]),
    kind("diag6", &[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)]),
    kind("diag5", &[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)]),
    kind("diag4", &[(0, 4), (1, 5), (2, 6), (3, 7)]),
];

/// `3^k`.
const fn pow3(k: usize) -> usize {
    let mut p = 1;
    let mut i = 0;
    while i < k {
        p *= 3;
        i += 1;
    }
    p
}

/// The index of the first configuration of each kind, and (last entry) the feature count.
const OFFSETS: [usize; KINDS.len() + 1] = {
    let mut o = [0; KINDS.len() + 1];
    o[0] = S;
    let mut k = 0;
    while k < KINDS.len() {
        o[k + 1] = o[k] + pow3(KINDS[k].len);
        k += 1;
    }
    o
};
const COUNT: usize = OFFSETS[KINDS.len()];

/// One image of a pattern on the board: the table it adds to and its squares (bit indices of
/// the 8x8 board, `row * 8 + column`).
#[derive(Clone, Copy)]
struct Image {
    offset: u32,
    len: u8,
    squares: [u8; MAX_LEN],
}

/// The images of all kinds: 8 per kind, 4 for the long diagonal.
const IMAGE_COUNT: usize = 8 * KINDS.len() - 4;

/// `(row, column)` under symmetry `s` of the 8x8 board (0..8).
const fn transform(s: usize, r: u8, c: u8) -> (u8, u8) {
    let (r, c) = if s & 4 != 0 { (c, r) } else { (r, c) };
    let r = if s & 1 != 0 { 7 - r } else { r };
    let c = if s & 2 != 0 { 7 - c } else { c };
    (r, c)
}

const IMAGES: [Image; IMAGE_COUNT] = {
    let mut images = [Image { offset: 0, len: 0, squares: [0; MAX_LEN] }; IMAGE_COUNT];
    let mut n = 0;
    let mut k = 0;
    while k < KINDS.len() {
        let first = n;
        let mut s = 0;
        while s < 8 {
            let mut squares = [0u8; MAX_LEN];
            let mut i = 0;
            while i < KINDS[k].len {
                let (r, c) = KINDS[k].squares[i];
                let (r, c) = transform(s, r, c);
                squares[i] = r * 8 + c;
                i += 1;
            }
            // Keep the image unless an earlier symmetry gave the same squares in order.
            let mut known = false;
            let mut j = first;
            while j < n {
                let mut same = true;
                let mut i = 0;
                while i < MAX_LEN {
                    if images[j].squares[i] != squares[i] {
                        same = false;
                    }
                    i += 1;
                }
                if same {
                    known = true;
                }
                j += 1;
            }
            if !known {
                images[n] = Image { offset: OFFSETS[k] as u32, len: KINDS[k].len as u8, squares };
                n += 1;
            }
            s += 1;
        }
        k += 1;
    }
    assert!(n == IMAGE_COUNT);
    images
};

/// The features of [`Learned`]; see the [module docs](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OthelloFeatures;

impl OthelloFeatures {
    /// The scalar features of every player alone (the `F(q)` of each).
    fn scalars(game: &Reversi, state: &ReversiState) -> [[f32; S]; 4] {
        let n = state.size();
        let players = game.players();
        let cells = (n * n) as i32;
        let empties = state.empties() as i32;
        let owner = |sq: usize| (0..players).find(|&p| bit_test(&state.discs[p], sq));
        let mut f = [[0.0f32; S]; 4];
        let late = ((cells - empties) * 2 - cells).max(0) * 8 / cells;
        for (q, fq) in f.iter_mut().enumerate().take(players) {
            fq[MOBILITY] = game.mobility(state, Player::new(q)) as f32;
            let discs = bits_count(&state.discs[q]) as f32;
            fq[DISCS] = discs;
            fq[LATE_DISCS] = late as f32 * discs;
        }
        let sq = |r: isize, c: isize| (r * n as isize + c) as usize;
        let last = n as isize - 1;
        for (r, c, dr, dc) in
            [(0, 0, 1, 1), (0, last, 1, -1), (last, 0, -1, 1), (last, last, -1, -1)]
        {
            let at = |k: isize, l: isize| sq(r + k * dr, c + l * dc);
            match owner(sq(r, c)) {
                Some(q) => {
                    f[q][CORNERS] += 1.0;
                    for (a, b) in [(0, 1), (1, 0)] {
                        let mut k = 1;
                        while k < n as isize && owner(at(a * k, b * k)) == Some(q) {
                            f[q][STABLE_EDGE] += 1.0;
                            k += 1;
                        }
                    }
                }
                None => {
                    if let Some(q) = owner(at(1, 1)) {
                        f[q][X_SQUARES] += 1.0;
                    }
                    for s in [at(0, 1), at(1, 0)] {
                        if let Some(q) = owner(s) {
                            f[q][C_SQUARES] += 1.0;
                        }
                    }
                }
            }
        }
        if empties > 0 {
            f[(state.to_move as usize + empties as usize - 1) % players][PARITY] = 1.0;
        }
        f[state.to_move as usize % players][TO_MOVE] = 1.0;
        if game.is_othello() {
            let empty = !(state.discs[0][0] | state.discs[1][0]);
            for q in 0..2 {
                let (own, opp) = (state.discs[q][0], state.discs[1 - q][0]);
                f[q][POTENTIAL_MOBILITY] = (neighbours(opp) & empty).count_ones() as f32;
                f[q][FRONTIER] = (own & neighbours(empty)).count_ones() as f32;
            }
        }
        f
    }

    /// The configuration index of `image` from the side of `p` against `o`, and from the
    /// side of `o` against `p`.
    #[inline]
    fn configurations(image: &Image, p: u64, o: u64) -> (u32, u32) {
        let (mut mine, mut theirs) = (0u32, 0u32);
        for &sq in &image.squares[..image.len as usize] {
            let d = 1 + (o >> sq & 1) as u32 - (p >> sq & 1) as u32;
            mine = mine * 3 + d;
            theirs = theirs * 3 + (2 - d);
        }
        (mine, theirs)
    }
}

impl Features<Reversi> for OthelloFeatures {
    fn count(&self) -> usize {
        COUNT
    }

    fn name(&self, index: usize) -> String {
        if index < S {
            return SCALARS[index].to_string();
        }
        let k = (0..KINDS.len()).find(|&k| index < OFFSETS[k + 1]).expect("feature index");
        let len = KINDS[k].len;
        let config = index - OFFSETS[k];
        let digits: String =
            (0..len).map(|i| char::from(b'0' + (config / pow3(len - 1 - i) % 3) as u8)).collect();
        format!("{}_{digits}", KINDS[k].name)
    }

    fn extract(
        &self,
        game: &Reversi,
        state: &ReversiState,
        player: Player,
        sink: &mut impl FnMut(usize, f32),
    ) {
        let players = game.players();
        let me = player.index();
        if me >= players {
            return;
        }
        let f = OthelloFeatures::scalars(game, state);
        let others = (players - 1) as f32;
        for i in 0..S {
            let rest: f32 = (0..players).filter(|&q| q != me).map(|q| f[q][i]).sum();
            let v = others * f[me][i] - rest;
            if v != 0.0 {
                sink(i, v);
            }
        }
        if !game.is_othello() {
            return;
        }
        let (p, o) = (state.discs[me][0], state.discs[1 - me][0]);
        for image in &IMAGES {
            let (mine, theirs) = OthelloFeatures::configurations(image, p, o);
            if mine != theirs {
                sink((image.offset + mine) as usize, 1.0);
                sink((image.offset + theirs) as usize, -1.0);
            }
        }
    }
}

/// The weights of [`OthelloFeatures`], embedded at build time: those `tune fit` found, or
/// until then the hand-written evaluation's (see the [module docs](self)).
pub const LEARNED_WEIGHTS: &str = include_str!("../weights/learned.txt");

/// Reversi's tunable evaluation: [`OthelloFeatures`] weighed by [`LEARNED_WEIGHTS`]. Spec
/// `alphabeta:eval=learned` in the tools.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_reversi::{learned, Reversi};
///
/// let game = Reversi::new(8, 2)?;
/// let eval = learned();
/// let start = game.initial_state();
/// let black = eval.evaluate(&game, &start, Player::FIRST);
/// assert_eq!(eval.evaluate(&game, &start, Player::SECOND), -black);
/// # Ok::<(), ply_reversi::Error>(())
/// ```
pub type Learned = LinearEval<OthelloFeatures>;

/// The evaluation [`Learned`].
///
/// # Panics
/// Never: a test checks that the embedded weights match the features.
pub fn learned() -> Learned {
    LinearEval::embedded(OthelloFeatures, LEARNED_WEIGHTS)
}

/// The evaluation the tools call `learned`: [`Learned`] on Othello's board
/// ([`Reversi::is_othello`]), where its weights were fitted, and the hand-written
/// [`crate::Evaluation::Standard`] on every other board and player count.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_reversi::{Evaluation, OthelloLearned, Reversi};
///
/// let eval = OthelloLearned::default();
/// let game = Reversi::new(6, 2)?;
/// let start = game.initial_state();
/// let standard = Evaluation::Standard.evaluate(&game, &start, Player::FIRST);
/// assert_eq!(eval.evaluate(&game, &start, Player::FIRST), standard);
/// # Ok::<(), ply_reversi::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct OthelloLearned {
    learned: Learned,
}

impl Default for OthelloLearned {
    fn default() -> Self {
        OthelloLearned { learned: learned() }
    }
}

impl Evaluator<Reversi> for OthelloLearned {
    #[inline]
    fn evaluate(&self, game: &Reversi, state: &ReversiState, player: Player) -> i32 {
        if game.is_othello() {
            self.learned.evaluate(game, state, player)
        } else {
            crate::Evaluation::Standard.evaluate(game, state, player)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Evaluation;
    use ply::eval::Weights;
    use ply::testing::visit_random_games;

    fn features(game: &Reversi, state: &ReversiState, player: Player) -> Vec<f32> {
        let mut values = vec![0.0; COUNT];
        OthelloFeatures.extract(game, state, player, &mut |i, v| values[i] += v);
        values
    }

    fn idx(name: &str) -> usize {
        if let Some(i) = SCALARS.iter().position(|&s| s == name) {
            return i;
        }
        let (kind, digits) = name.split_once('_').expect("a pattern name");
        let k = KINDS.iter().position(|k| k.name == kind).expect("a pattern kind");
        assert_eq!(digits.len(), KINDS[k].len);
        OFFSETS[k] + digits.bytes().fold(0, |a, d| a * 3 + usize::from(d - b'0'))
    }

    /// Random games on `game`, calling `f` at every position; returns how many there were.
    fn random_games(game: &Reversi, games: usize, f: impl FnMut(&ReversiState)) -> usize {
        visit_random_games(game, games, 10_000, 1, f)
    }

    #[test]
    fn features_are_zero_sum_on_random_games() {
        let game = Reversi::new(8, 2).unwrap();
        let seen = random_games(&game, 30, |s| {
            let (a, b) = (features(&game, s, Player::FIRST), features(&game, s, Player::SECOND));
            assert!(a.iter().zip(&b).all(|(x, y)| *x == -*y), "not zero-sum: {s:?}");
            // Every image turns on one configuration for each side (both may be the same).
            let patterns: f32 = a[S..].iter().map(|v| v.abs()).sum();
            assert!(patterns <= 2.0 * IMAGE_COUNT as f32);
        });
        assert!(seen > 1000);
    }

    #[test]
    fn names_are_unique_words() {
        let names: std::collections::HashSet<String> =
            (0..COUNT).map(|i| OthelloFeatures.name(i)).collect();
        assert_eq!(names.len(), COUNT);
        assert!(names.iter().all(|n| !n.is_empty() && !n.contains(char::is_whitespace)));
        assert_eq!(COUNT, 108_227);
        assert_eq!(OthelloFeatures.name(0), "mobility");
        assert_eq!(OthelloFeatures.name(S), "edge_0000000000");
        assert_eq!(OthelloFeatures.name(COUNT - 1), "diag4_2222");
        for i in (0..COUNT).step_by(997) {
            assert_eq!(idx(&OthelloFeatures.name(i)), i);
        }
    }

    #[test]
    fn images_are_distinct_and_on_the_board() {
        for (k, kind) in KINDS.iter().enumerate() {
            let images: Vec<_> =
                IMAGES.iter().filter(|i| i.offset as usize == OFFSETS[k]).collect();
            assert_eq!(images.len(), if kind.name == "diag8" { 4 } else { 8 }, "{}", kind.name);
            for image in images {
                let squares = &image.squares[..kind.len];
                assert!(squares.iter().all(|&s| s < 64));
                let mut sorted = squares.to_vec();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), kind.len, "{}", kind.name);
            }
        }
    }

    /// A position from rows (top row first): `X` the first player, `O` the second.
    fn position(game: &Reversi, rows: &[&str; 8], to_move: usize) -> ReversiState {
        let rows: Vec<String> =
            rows.iter().map(|r| r.replace('X', "1").replace('O', "2")).collect::<Vec<_>>();
        game.state_from_rows(&rows, Player::new(to_move)).unwrap()
    }

    #[test]
    fn features_count_what_they_say() {
        let game = Reversi::new(8, 2).unwrap();
        // Row 0 is the top row, squares row * 8 + column.
        let s = position(
            &game,
            &[
                "XXO.....", // X holds the corner (0,0), then (0,1); O on (0,2)
                "OX......", // X on the X-square (1,1) of a corner it holds: not counted
                "..XO....", "...XO...", "...OX...", "........",
                "......X.", // X on the X-square of the corner (7,7), which O holds
                ".......O",
            ],
            0,
        );
        let x = features(&game, &s, Player::FIRST);
        let o = features(&game, &s, Player::SECOND);
        assert_eq!(x, o.iter().map(|v| -v).collect::<Vec<_>>());
        // Corners: X a1, O h8.
        assert_eq!(x[CORNERS], 0.0);
        // X's runs from a1: (0,1) along the row; (1,0) is O's, so 1. O has (7,7) with (7,6)
        // and (6,7) empty: 0.
        assert_eq!(x[STABLE_EDGE], 1.0);
        // X-squares next to empty corners: the corner (7,7) is O's, so (6,6) does not count;
        // none for either side. C-squares: corner (0,7) and (7,0) empty, no neighbours held.
        assert_eq!(x[X_SQUARES], 0.0);
        assert_eq!(x[C_SQUARES], 0.0);
        // Discs: X 7 (a1 b1 b2 c3 d4 e5 g7), O 6.
        assert_eq!(x[DISCS], 7.0 - 6.0);
        assert_eq!(x[LATE_DISCS], 0.0);
        // 51 empties, X to move: X makes the last placement.
        assert_eq!(x[PARITY], 1.0);
        assert_eq!(x[TO_MOVE], 1.0);
        let (p, q) = (s.discs[0][0], s.discs[1][0]);
        let mob = |a: Player| game.mobility(&s, a) as f32;
        assert_eq!(x[MOBILITY], mob(Player::FIRST) - mob(Player::SECOND));
        // Potential mobility and frontier by brute force over the squares.
        let near = |set: u64, sq: i32| {
            (-1..=1).any(|dr| {
                (-1..=1).any(|dc| {
                    let (r, c) = (sq / 8 + dr, sq % 8 + dc);
                    (dr, dc) != (0, 0)
                        && (0..8).contains(&r)
                        && (0..8).contains(&c)
                        && set >> (r * 8 + c) & 1 == 1
                })
            })
        };
        let empty = !(p | q);
        let count = |f: &dyn Fn(i32) -> bool| (0..64).filter(|&sq| f(sq)).count() as f32;
        let pot = |opp: u64| count(&|sq| empty >> sq & 1 == 1 && near(opp, sq));
        let front = |own: u64| count(&|sq| own >> sq & 1 == 1 && near(empty, sq));
        assert_eq!(x[POTENTIAL_MOBILITY], pot(q) - pot(p));
        assert_eq!(x[FRONTIER], front(p) - front(q));
        assert!(x[POTENTIAL_MOBILITY] != 0.0 || x[FRONTIER] != 0.0);
    }

    #[test]
    fn x_and_c_squares_and_late_discs_count() {
        let game = Reversi::new(8, 2).unwrap();
        // Corners a1 (0,0) and h1 (0,7) empty: X on the X-square (1,1) and the C-squares
        // (0,1) and (0,6), O on the C-square (1,0). Full rows below, O's on row 7 (both
        // corners and 7 discs along the edge from each). 12 empty squares.
        let s = position(
            &game,
            &[
                ".X....X.", "OX......", "XXXXXXXX", "OOOOOOOO", "XXXXXXXX", "OOOOOOOO", "XXXXXXXX",
                "OOOOOOOO",
            ],
            1,
        );
        let o = features(&game, &s, Player::SECOND);
        assert_eq!(o[X_SQUARES], 0.0 - 1.0);
        assert_eq!(o[C_SQUARES], 1.0 - 2.0);
        assert_eq!(o[CORNERS], 2.0);
        assert_eq!(o[STABLE_EDGE], 14.0);
        // X 27 discs, O 25; late = (52 * 2 - 64) * 8 / 64 = 5.
        assert_eq!(o[DISCS], 25.0 - 27.0);
        assert_eq!(o[LATE_DISCS], 5.0 * (25.0 - 27.0));
        // O to move with 12 empties: X places last.
        assert_eq!(o[PARITY], -1.0);
        assert_eq!(o[TO_MOVE], 1.0);
    }

    #[test]
    fn the_edge_pattern_from_both_sides() {
        let game = Reversi::new(8, 2).unwrap();
        // The top row (0, *) with (1,1) and (1,6): b2 X, a1..h1 = X X O . . . . ., g2 empty.
        let s = position(
            &game,
            &[
                "XXO.....", ".X......", "........", "...XO...", "...OX...", "........", "........",
                "........",
            ],
            0,
        );
        let x = features(&game, &s, Player::FIRST);
        let o = features(&game, &s, Player::SECOND);
        // The first image reads b2, a1, b1, c1, ..., h1, g2 (X = 0 for X's side).
        let mine = idx("edge_0002111111");
        let theirs = idx("edge_2220111111");
        assert_eq!(x[mine], 1.0);
        assert_eq!(x[theirs], -1.0);
        assert_eq!(o[mine], -1.0);
        assert_eq!(o[theirs], 1.0);
        // The mirror image reads g2, h1, g1, ..., a1, b2 and the other edges are empty.
        assert_eq!(x[idx("edge_1111112000")], 1.0);
        assert_eq!(x[idx("edge_1111110222")], -1.0);
        assert_eq!(x[idx("edge_1111111111")], 0.0);
        // The corner block at a1 (a1 b1 c1 / a2 b2 c2 / a3 b3 c3) and its transpose.
        assert_eq!(x[idx("corner_002101111")], 1.0);
        assert_eq!(x[idx("corner_011001211")], 1.0);
        assert_eq!(o[idx("corner_220121111")], 1.0);
    }

    /// The hand-written evaluation in these features: the start of the fit.
    fn hand_set() -> Learned {
        let names = (0..COUNT).map(|i| OthelloFeatures.name(i));
        let mut weights = Weights::uniform(names, 0.0);
        for (name, value) in [
            ("corners", 0.4),
            ("stable_edge", 0.12),
            ("mobility", 0.04),
            ("x_squares", -0.15),
            ("c_squares", -0.06),
            ("parity", 0.08),
            ("late_discs", 0.01),
        ] {
            weights.entries[idx(name)].1 = value;
        }
        LinearEval::new(OthelloFeatures, &weights).unwrap()
    }

    #[test]
    fn the_hand_set_weights_play_like_the_standard_evaluation() {
        let eval = hand_set();
        for (size, players) in [(8, 2), (6, 2), (10, 2), (8, 3), (8, 4), (7, 3), (5, 4)] {
            let game = Reversi::new(size, players).unwrap();
            random_games(&game, 3, |s| {
                for p in 0..players {
                    let p = Player::new(p);
                    assert_eq!(
                        eval.evaluate(&game, s, p),
                        Evaluation::Standard.evaluate(&game, s, p),
                        "{size}x{size}, {players} players: {s:?}"
                    );
                }
            });
        }
    }

    #[test]
    fn the_embedded_weights_match_the_features() {
        let eval = learned();
        assert_eq!(eval.weights().len(), COUNT);
        let game = Reversi::new(8, 2).unwrap();
        random_games(&game, 3, |s| {
            let black = eval.evaluate(&game, s, Player::FIRST);
            assert_eq!(eval.evaluate(&game, s, Player::SECOND), -black, "{s:?}");
        });
        // Two corners against none, the rest of the position mirrored: a clear edge.
        let s = position(
            &game,
            &[
                "X......X", "........", "........", "...XO...", "...OX...", "........", "........",
                "........",
            ],
            0,
        );
        let score = eval.evaluate(&game, &s, Player::FIRST);
        assert!(score > 50, "two corners score {score}");
        assert!(eval.weights()[CORNERS] > 0.0 && eval.weights()[X_SQUARES] < 0.0);
    }

    #[test]
    fn extraction_never_panics_on_other_sizes_and_player_counts() {
        for size in 4..=16 {
            for players in 2..=4 {
                let game = Reversi::new(size, players).unwrap();
                let seen = random_games(&game, 1, |s| {
                    for p in 0..players {
                        let v = features(&game, s, Player::new(p));
                        if !game.is_othello() {
                            assert!(v[S..].iter().all(|&x| x == 0.0));
                            assert_eq!(v[FRONTIER], 0.0);
                        }
                    }
                    // Zero-sum over all players.
                    let total: Vec<f32> = (0..players)
                        .map(|p| features(&game, s, Player::new(p)))
                        .fold(vec![0.0; S], |acc, v| {
                            acc.iter().zip(&v).map(|(a, b)| a + b).collect()
                        });
                    assert!(total.iter().all(|&t| t == 0.0), "{size}x{size} {players}: {total:?}");
                });
                assert!(seen > 0);
            }
        }
    }
}
