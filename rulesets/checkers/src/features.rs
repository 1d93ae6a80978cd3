//! The features of the tunable evaluation of English checkers, [`Learned`].
//!
//! [`CheckersFeatures`] lists, each as a side's own count minus the opponent's (so the
//! evaluation is zero-sum whatever the weights):
//!
//! - `man_N` and `king_N` (N = 1..32): a piece-square table for men and one for kings, each
//!   square numbered as its owner sees it, the way Black numbers the board: squares 1-4 are
//!   the owner's back row, 29-32 the row where its men are crowned (64 entries);
//! - `men` and `kings`: material;
//! - `men_ratio` and `kings_ratio`: the men (kings) difference divided by the number of
//!   pieces on the board, so that trading down when ahead pays;
//! - `back_rank_XXXX`: the pattern of the owner's men on its back-row guard squares 1, 2, 3
//!   and 4 (`1` occupied, `.` empty, square 1 first; 16 entries, e.g. `back_rank_1.1.` is the
//!   bridge);
//! - `men_backed`: men that no man can jump from the front, both squares behind them held by
//!   their own side or off the board;
//! - `hanging_to_move` and `hanging_waiting`: pieces the opponent could jump at once (a
//!   single jump onto an empty square), of the side to move (it can still save them) and of
//!   the side that has just moved (they can be taken now);
//! - `runaway`: men in the opponent's half with no opponent piece on any square they could
//!   reach on the way to the crowning row;
//! - `mobility`: quiet moves available;
//! - `to_move`: +1 for the side to move;
//! - `region_K_DDDDDDDD` (8x8 only): the men on each of nine overlapping 4x4 blocks of the
//!   board (K = 0..9: rows 1-4, 3-6 and 5-8 from the owner's side, times the same columns
//!   from the owner's left), one digit per dark square of the block in Black's numbering
//!   order (`0` empty or a king, `1` the owner's man, `2` the opponent's man): the block as
//!   the owner sees it counts +1, the block as the opponent sees it -1 (6,561 entries per
//!   block, the board-region patterns of Scan and Cake).
//!
//! On 8x8 the tables index the 32 squares directly. On other sizes (4x4 to 16x16) a square
//! is mapped to the 8x8 table by its row from the owner's back row and its column from the
//! owner's left, each kept exact for the four nearest either edge and capped in between (the
//! middle rows fold onto 8x8's rows 3 and 4), and the back-rank pattern reads the first two
//! and the last two squares of the back row; every feature stays in range on every size.
//!
//! [`Learned`] weighs them with the weights in `weights/learned.txt`, which `tune fit` found
//! on 32,000 depth-6 self-play games of both rule sets (the file's first lines give the
//! commands), starting from an earlier fit without the regions. On 8x8 it beats the
//! hand-set evaluation by SPRT under both rule sets (about +40 Elo Deepomatic, +69 standard;
//! BENCHMARKS.md) although it searches half as many nodes. [`CheckersLearned`], the engines'
//! default, uses it on 8x8 and the hand-set evaluation on the other sizes.

use ply::eval::{Evaluator, Features, LinearEval};
use ply::Player;

use crate::bitboard::{Bits, Geometry, DL, DR, REVERSE, UL, UR};
use crate::movegen::Side;
use crate::rules::{with_geo, CheckersState, Color, EnglishCheckers};

/// Squares in a piece-square table (the dark squares of 8x8).
const TABLE: usize = 32;
/// The index of `men`, after the two tables.
const MEN: usize = 2 * TABLE;
const KINGS: usize = MEN + 1;
const MEN_RATIO: usize = MEN + 2;
const KINGS_RATIO: usize = MEN + 3;
/// The first of the 16 back-rank patterns.
const BACK_RANK: usize = MEN + 4;
const PATTERNS: usize = 16;
/// The features after the back-rank patterns, in order.
const EXTRA: [&str; 6] =
    ["men_backed", "hanging_to_move", "hanging_waiting", "runaway", "mobility", "to_move"];
const MEN_BACKED: usize = BACK_RANK + PATTERNS;
const HANGING_TO_MOVE: usize = MEN_BACKED + 1;
const HANGING_WAITING: usize = MEN_BACKED + 2;
const RUNAWAY: usize = MEN_BACKED + 3;
const MOBILITY: usize = MEN_BACKED + 4;
const TO_MOVE: usize = MEN_BACKED + 5;
/// The first of the region patterns, after the scalar features.
const REGIONS: usize = MEN_BACKED + EXTRA.len();
/// The overlapping 4x4 blocks of the 8x8 board.
const BLOCKS: usize = 9;
/// The configurations of one block: 3 states on each of its 8 dark squares.
const CONFIGS: usize = 6561;
const COUNT: usize = REGIONS + BLOCKS * CONFIGS;

/// The 8x8 squares (0..32, Black's numbering less one) of each block, in index order: rows
/// `2 * (k / 3)` to `+ 3`, columns `2 * (k % 3)` to `+ 3`, counted from Black's side.
const BLOCK_SQUARES: [[u8; 8]; BLOCKS] = block_squares();

const fn block_squares() -> [[u8; 8]; BLOCKS] {
    let mut blocks = [[0u8; 8]; BLOCKS];
    let mut k = 0;
    while k < BLOCKS {
        let (row0, col0) = (2 * (k / 3), 2 * (k % 3));
        let mut n = 0;
        let mut sq = 0;
        while sq < TABLE {
            // As in `table_index`: row `sq / 4`, and on even rows the dark squares are the
            // odd columns.
            let row = sq / 4;
            let col = 2 * (sq % 4) + (row % 2 == 0) as usize;
            if row >= row0 && row < row0 + 4 && col >= col0 && col < col0 + 4 {
                blocks[k][n] = sq as u8;
                n += 1;
            }
            sq += 1;
        }
        k += 1;
    }
    blocks
}

/// The features of [`Learned`]; see the [module docs](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckersFeatures;

/// Maps a row or column counted from the owner's side (0..size) onto 0..8: exact for the
/// four nearest either edge, the middle folded onto 3 and 4.
#[inline]
fn bin(x: usize, size: usize) -> usize {
    let from_far = size - 1 - x;
    if x <= 3 && x < size / 2 {
        x
    } else if from_far <= 3 {
        7 - from_far
    } else if x < size / 2 {
        3
    } else {
        4
    }
}

/// The table entry (0..32) of square `rel` as its owner sees it (Black's numbering).
#[inline]
fn table_index<B>(g: &Geometry<B>, rel: usize) -> usize {
    if g.size == 8 {
        return rel;
    }
    let half = g.size / 2;
    let row = rel / half;
    let col = 2 * (rel % half) + usize::from(row.is_multiple_of(2));
    bin(row, g.size) * 4 + bin(col, g.size) / 2
}

/// The pieces of the side `attacker` (with the game's `kings`) that could jump some piece of
/// `victims` at once: the victims with an attacker next to them that may move towards them
/// and an empty square beyond.
#[inline]
fn jumpable<B: Bits>(g: &Geometry<B>, attacker: &Side<B>) -> B {
    let empty = attacker.empty(g);
    let mut targets = B::ZERO;
    for d in [UL, UR, DL, DR] {
        targets |= g.step(d, attacker.movers(d)) & g.step(REVERSE[d], empty);
    }
    targets & attacker.opp
}

impl CheckersFeatures {
    /// Adds `sign` times the features of side `c` alone to `sink`.
    #[inline]
    fn side<B: Bits>(
        g: &Geometry<B>,
        state: &CheckersState,
        c: usize,
        sign: f32,
        sink: &mut impl FnMut(usize, f32),
    ) {
        let kings = B::from_u128(state.kings);
        let own = B::from_u128(state.pieces[c]);
        let opp = B::from_u128(state.pieces[c ^ 1]);
        let men = own & !kings;
        let own_kings = own & kings;
        let squares = g.size * g.size / 2;
        let half = g.size / 2;
        let relative = |sq: usize| if c == 0 { sq } else { squares - 1 - sq };
        let (forward, backward) = if c == 0 { ([DL, DR], [UL, UR]) } else { ([UL, UR], [DL, DR]) };

        let mut runaway = 0u32;
        let mut bits = men;
        while !bits.is_empty() {
            let sq = bits.pop();
            let rel = relative(sq as usize);
            sink(table_index(g, rel), sign);
            if rel / half >= half {
                // Walk the forward cone row by row; past the crowning row it is empty.
                let mut front = B::bit(sq);
                loop {
                    front = g.step(forward[0], front) | g.step(forward[1], front);
                    if front.is_empty() {
                        runaway += 1;
                        break;
                    }
                    if !(front & opp).is_empty() {
                        break;
                    }
                }
            }
        }
        let mut bits = own_kings;
        while !bits.is_empty() {
            let rel = relative(bits.pop() as usize);
            sink(TABLE + table_index(g, rel), sign);
        }

        let (n_men, n_kings) = (men.count() as f32, own_kings.count() as f32);
        let total = ((own | opp).count() as f32).max(1.0);
        sink(MEN, sign * n_men);
        sink(KINGS, sign * n_kings);
        sink(MEN_RATIO, sign * n_men / total);
        sink(KINGS_RATIO, sign * n_kings / total);

        // The back row from the owner's side, its first two and last two squares.
        let mut pattern = 0;
        for (k, rel) in
            [0, 1.min(half - 1), half.saturating_sub(2), half - 1].into_iter().enumerate()
        {
            if men.has(relative(rel) as u32) {
                pattern |= 1 << k;
            }
        }
        sink(BACK_RANK + pattern, sign);

        // Squares whose neighbour in direction `d` is one of `own` or off the board.
        let covered = |d: usize| g.step(REVERSE[d], own) | (g.all & !g.step(REVERSE[d], g.all));
        let backed = men & covered(backward[0]) & covered(backward[1]);
        sink(MEN_BACKED, sign * backed.count() as f32);

        let enemy = Side { own: opp, opp: own, kings, color: c ^ 1 };
        let hanging = jumpable(g, &enemy).count() as f32;
        let to_move = usize::from(state.side) == c;
        sink(if to_move { HANGING_TO_MOVE } else { HANGING_WAITING }, sign * hanging);
        sink(RUNAWAY, sign * runaway as f32);
        let mine = Side { own, opp, kings, color: c };
        sink(MOBILITY, sign * mine.quiet_count(g) as f32);
        if to_move {
            sink(TO_MOVE, sign);
        }
    }
}

impl Features<EnglishCheckers> for CheckersFeatures {
    fn count(&self) -> usize {
        COUNT
    }

    fn name(&self, index: usize) -> String {
        match index {
            i if i < TABLE => format!("man_{}", i + 1),
            i if i < MEN => format!("king_{}", i - TABLE + 1),
            MEN => "men".to_string(),
            KINGS => "kings".to_string(),
            MEN_RATIO => "men_ratio".to_string(),
            KINGS_RATIO => "kings_ratio".to_string(),
            i if i < MEN_BACKED => {
                let pattern = i - BACK_RANK;
                let squares: String =
                    (0..4).map(|k| if pattern >> k & 1 == 1 { '1' } else { '.' }).collect();
                format!("back_rank_{squares}")
            }
            i if i < REGIONS => EXTRA[i - MEN_BACKED].to_string(),
            i => {
                let (block, mut config) = ((i - REGIONS) / CONFIGS, (i - REGIONS) % CONFIGS);
                let mut digits = String::with_capacity(8);
                for _ in 0..8 {
                    digits.push(char::from(b'0' + (config % 3) as u8));
                    config /= 3;
                }
                format!("region_{block}_{digits}")
            }
        }
    }

    fn extract(
        &self,
        game: &EnglishCheckers,
        state: &CheckersState,
        player: Player,
        sink: &mut impl FnMut(usize, f32),
    ) {
        let c = Color::of(player).index();
        with_geo!(game, g, {
            CheckersFeatures::side(g, state, c, 1.0, sink);
            CheckersFeatures::side(g, state, c ^ 1, -1.0, sink);
        });
        if game.size() == 8 {
            let men = [state.pieces[0] & !state.kings, state.pieces[1] & !state.kings];
            for (k, block) in BLOCK_SQUARES.iter().enumerate() {
                let mine = CheckersFeatures::configuration(block, men, c);
                let theirs = CheckersFeatures::configuration(block, men, c ^ 1);
                if mine != theirs {
                    sink(REGIONS + k * CONFIGS + mine, 1.0);
                    sink(REGIONS + k * CONFIGS + theirs, -1.0);
                }
            }
        }
    }
}

impl CheckersFeatures {
    /// The configuration (0..6561) of `block` as side `c` sees it: its squares turned to
    /// `c`'s side (White's square `s` is Black's `31 - s`), digit `k` in base 3 for square
    /// `block[k]`.
    #[inline]
    fn configuration(block: &[u8; 8], men: [u128; 2], c: usize) -> usize {
        let mut config = 0;
        for &rel in block.iter().rev() {
            let sq = if c == 0 { u32::from(rel) } else { 31 - u32::from(rel) };
            let digit = if men[c] >> sq & 1 == 1 {
                1
            } else if men[c ^ 1] >> sq & 1 == 1 {
                2
            } else {
                0
            };
            config = config * 3 + digit;
        }
        config
    }
}

/// The weights of [`CheckersFeatures`] that `tune fit` found (the commands are in the file's
/// first lines), embedded at build time.
pub const LEARNED_WEIGHTS: &str = include_str!("../weights/learned.txt");

/// English checkers' tunable evaluation: [`CheckersFeatures`] weighed by [`LEARNED_WEIGHTS`].
/// Spec `alphabeta:eval=learned` in the tools.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_checkers::{learned, EnglishCheckers};
///
/// let game = EnglishCheckers::default();
/// let eval = learned();
/// let start = game.initial_state();
/// let black = eval.evaluate(&game, &start, Player::FIRST);
/// assert_eq!(eval.evaluate(&game, &start, Player::SECOND), -black);
/// ```
pub type Learned = LinearEval<CheckersFeatures>;

/// The evaluation [`Learned`].
///
/// # Panics
/// Never: a test checks that the embedded weights match the features.
pub fn learned() -> Learned {
    LinearEval::embedded(CheckersFeatures, LEARNED_WEIGHTS)
}

/// The engines' evaluation: [`Learned`] on the 8x8 board, where its weights were fitted and
/// where it beats the hand-set evaluation by SPRT under both rule sets, and the game's own
/// [`crate::eval::Classic`] on every other size. Spec `alphabeta:eval=learned` in the tools.
///
/// The weights are read once per process and shared by every copy.
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_checkers::{CheckersLearned, EnglishCheckers, Rules};
///
/// let eval = CheckersLearned::default();
/// let game = EnglishCheckers::new(10, Rules::Standard)?;
/// let start = game.initial_state();
/// let classic = game.evaluate(&start, Player::FIRST);
/// assert_eq!(eval.evaluate(&game, &start, Player::FIRST), classic);
/// # Ok::<(), ply_checkers::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct CheckersLearned {
    learned: Learned,
}

impl Default for CheckersLearned {
    fn default() -> Self {
        static LEARNED: std::sync::OnceLock<Learned> = std::sync::OnceLock::new();
        CheckersLearned { learned: LEARNED.get_or_init(learned).clone() }
    }
}

impl Evaluator<EnglishCheckers> for CheckersLearned {
    #[inline]
    fn evaluate(&self, game: &EnglishCheckers, state: &CheckersState, player: Player) -> i32 {
        if game.size() == 8 {
            self.learned.evaluate(game, state, player)
        } else {
            ply::Game::evaluate(game, state, player)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;
    use ply::testing::visit_random_games;
    use ply::{Game, Notation};

    fn features(game: &EnglishCheckers, state: &CheckersState, player: Player) -> Vec<f32> {
        let mut values = vec![0.0; CheckersFeatures.count()];
        CheckersFeatures.extract(game, state, player, &mut |i, v| values[i] += v);
        values
    }

    fn idx(name: &str) -> usize {
        (0..CheckersFeatures.count())
            .find(|&i| CheckersFeatures.name(i) == name)
            .unwrap_or_else(|| panic!("no feature {name}"))
    }

    /// Plays random games on `game`, checking at every position that the features are
    /// zero-sum; returns the number of positions seen.
    fn random_games(game: &EnglishCheckers, games: usize) -> usize {
        visit_random_games(game, games, 200, 1, |state| {
            let (a, b) =
                (features(game, state, Player::FIRST), features(game, state, Player::SECOND));
            assert!(
                a.iter().zip(&b).all(|(x, y)| *x == -*y),
                "not zero-sum: {}",
                game.format_state(state)
            );
        })
    }

    /// The engines' evaluation is the fitted one on 8x8 and the hand-set one elsewhere, along
    /// random games.
    #[test]
    fn the_engines_evaluation_uses_the_weights_on_8x8_only() {
        let (eval, fitted) = (CheckersLearned::default(), learned());
        for size in [6, 8, 10] {
            let game = EnglishCheckers::new(size, Rules::Standard).unwrap();
            let mut differs = false;
            visit_random_games(&game, 2, 12, 3, |state| {
                for player in [Player::FIRST, Player::SECOND] {
                    let classic = game.evaluate(state, player);
                    let expected =
                        if size == 8 { fitted.evaluate(&game, state, player) } else { classic };
                    assert_eq!(eval.evaluate(&game, state, player), expected, "size {size}");
                    differs |= expected != classic;
                }
            });
            // On 8x8 the fitted weights are not the hand-set ones.
            assert_eq!(differs, size == 8, "size {size}");
        }
    }

    #[test]
    fn features_are_zero_sum_on_random_games_of_every_size() {
        let standard = EnglishCheckers::default();
        assert!(random_games(&standard, 40) > 1000);
        for size in (4..=16).step_by(2) {
            for rules in [Rules::Deepomatic, Rules::Standard] {
                let game = EnglishCheckers::new(size, rules).unwrap();
                assert!(random_games(&game, 3) > 0);
                let start = game.initial_state();
                let values = features(&game, &start, Player::FIRST);
                assert_eq!(values[idx("to_move")], 1.0, "{size}x{size}");
                let rest: f32 = values.iter().map(|v| v.abs()).sum::<f32>() - 1.0;
                assert_eq!(rest, 0.0, "the start of {size}x{size} is symmetric");
            }
        }
    }

    #[test]
    fn names_are_unique_words() {
        let names: std::collections::HashSet<String> =
            (0..CheckersFeatures.count()).map(|i| CheckersFeatures.name(i)).collect();
        assert_eq!(names.len(), CheckersFeatures.count());
        assert!(names.iter().all(|n| !n.is_empty() && !n.contains(char::is_whitespace)));
        assert_eq!(CheckersFeatures.count(), 90 + 9 * 6561);
        assert_eq!(CheckersFeatures.name(90), "region_0_00000000");
        assert_eq!(CheckersFeatures.name(91), "region_0_10000000");
        assert_eq!(CheckersFeatures.name(CheckersFeatures.count() - 1), "region_8_22222222");
    }

    #[test]
    fn features_count_what_they_say() {
        let game = EnglishCheckers::default();
        // Black to move: men on 1 and 3 (the bridge), 9, 10, 14 (9 and 10 behind it), 20
        // (nothing ahead of it) and 22 (which White's 26 can jump to 17, and which can jump
        // 26 to 31), a king on 18. White: men on 26 and 30, a king on 29.
        let s = game.parse_state("B:W26,30,K29:B1,3,9,10,14,20,22,K18").unwrap();
        let b = features(&game, &s, Player::FIRST);
        let w = features(&game, &s, Player::SECOND);
        assert_eq!(b, w.iter().map(|v| -v).collect::<Vec<_>>());
        let mut expected = vec![0.0; CheckersFeatures.count()];
        let mut set = |name: &str, v: f32| expected[idx(name)] = v;
        // Black's men from Black's side, White's from White's: 26 is White's 7, 30 its 3.
        for sq in [1, 9, 10, 14, 20, 22] {
            set(&format!("man_{sq}"), 1.0);
        }
        set("man_3", 0.0);
        set("man_7", -1.0);
        // Black's king on 18; White's on 29 is on White's square 4.
        set("king_18", 1.0);
        set("king_4", -1.0);
        set("men", 7.0 - 2.0);
        set("men_ratio", 7.0 / 11.0 - 2.0 / 11.0);
        set("back_rank_1.1.", 1.0);
        set("back_rank_..1.", -1.0);
        // Backed: Black's 1, 3 (back row) and 14; White's 30 (back row), not 26 (31 is
        // empty).
        set("men_backed", 3.0 - 1.0);
        set("hanging_to_move", 1.0);
        set("hanging_waiting", -1.0);
        // Black's 20 runs to 31 or 32 unopposed; 22 meets White's 26.
        set("runaway", 1.0);
        // Black: 1-5, 1-6, 3-7, 3-8, 9-13, 10-15, 14-17, 20-24, 22-25, K18-23, K18-15.
        // White: 26-23, 30-25, K29-25.
        set("mobility", 11.0 - 3.0);
        set("to_move", 1.0);
        for i in 0..REGIONS {
            assert_eq!(b[i], expected[i], "{}", CheckersFeatures.name(i));
        }
    }

    #[test]
    fn the_blocks_cover_the_board_and_read_from_the_owners_side() {
        let mut covered = [0; TABLE];
        for block in &BLOCK_SQUARES {
            let mut sorted = block.to_vec();
            sorted.dedup();
            assert_eq!(sorted.len(), 8);
            for &sq in block {
                covered[sq as usize] += 1;
            }
        }
        assert!(covered.iter().all(|&n| n >= 1), "{covered:?}");
        // Block 0 is Black's squares 1, 2, 5, 6, 9, 10, 13, 14 (rows 1-4, columns a-d).
        assert_eq!(BLOCK_SQUARES[0], [0, 1, 4, 5, 8, 9, 12, 13]);
        let game = EnglishCheckers::default();
        // Black men on 1 and 6, a Black king on 9; White men on 10 and 32 (White's 1).
        let s = game.parse_state("B:W10,32:B1,6,K9").unwrap();
        let b = features(&game, &s, Player::FIRST);
        let w = features(&game, &s, Player::SECOND);
        assert_eq!(b, w.iter().map(|v| -v).collect::<Vec<_>>());
        // Black sees 1 (own), 2 (empty), 5, 6 (own), 9 (a king: 0), 10 (White's), 13, 14.
        assert_eq!(b[idx("region_0_10010200")], 1.0);
        // White sees its own man on its square 1 in block 0 and nothing else there.
        assert_eq!(b[idx("region_0_10000000")], -1.0);
        let regions: f32 = b[REGIONS..].iter().map(|v| v.abs()).sum();
        // Each block whose two views differ gives +1 and -1.
        assert!((4.0..=18.0).contains(&regions), "{regions}");
    }

    #[test]
    fn the_embedded_weights_match_the_features() {
        let eval = learned();
        assert_eq!(eval.weights().len(), CheckersFeatures.count());
        // The start is symmetric apart from the move: it is worth the `to_move` weight to
        // the side to move.
        let game = EnglishCheckers::default();
        let start = game.initial_state();
        let tempo = eval.weights()[TO_MOVE].round() as i32;
        assert_eq!(eval.evaluate(&game, &start, Player::FIRST), tempo);
        assert_eq!(eval.evaluate(&game, &start, Player::SECOND), -tempo);
        // A man up is about a man, as in the hand evaluation.
        let up = game.parse_state("B:W21,22,23:B1,2,3,4").unwrap();
        let score = eval.evaluate(&game, &up, Player::FIRST);
        assert!(score > 50, "a man up scores {score}");
        assert_eq!(eval.evaluate(&game, &up, Player::SECOND), -score);
    }

    #[test]
    fn extraction_works_on_every_board_size() {
        for size in (4..=16).step_by(2) {
            let game = EnglishCheckers::new(size, Rules::Standard).unwrap();
            // A king and a man on every corner-ish square: no index out of range.
            let last = game.squares() - 1;
            let text = format!("W:WK1,{}:BK{},{}", last - 1, last + 1, 2);
            let s = game.parse_state(&text).unwrap();
            let v = features(&game, &s, Player::SECOND);
            assert_eq!(v[idx("kings")], 0.0, "{size}x{size}: {text}");
            let _ = learned().evaluate(&game, &s, Player::FIRST);
        }
    }
}
