//! The endgame-database index of international draughts ([`ply::endgame::EndgameIndex`]).
//!
//! A slice is a [`Material`]: the men and kings of each side, White's first. Within it a position's index
//! ranks, in turn, the white men among the 45 squares a white man can stand on (all but
//! squares 1-5), the black men likewise (all but 46-50), the white kings among the squares
//! the men left empty, the black kings among the squares left after that, and the side to
//! move. Indices where a white and a black man would share a square name no position.
//!
//! The tables hold the game's own verdicts under its rules: with the FMJD rules one king
//! against one king is a draw at once. The 25-move and 16-move rules count moves, which the
//! tables ignore; a verdict is trusted only when its length fits in what they allow
//! ([`EndgameIndex::plies_left`]).
//!
//! ```
//! use ply::endgame::{EndgameIndex, Material};
//! use ply::Notation;
//! use ply_draughts::InternationalDraughts;
//!
//! let game = InternationalDraughts::new();
//! let state = game.parse_state("W:WK46,28:B14")?;
//! let (slice, index) = game.locate(&state).unwrap();
//! // White: a man and a king; Black: a man.
//! assert_eq!(slice, Material::new([1, 1], [1, 0]));
//! assert_eq!(game.position_of(slice, index), Some(state));
//! # Ok::<(), ply_draughts::Error>(())
//! ```

use ply::endgame::ranking::{binomial, compress, expand, rank, unrank};
use ply::endgame::{EndgameIndex, Material, Tables};

use crate::bitboard::{bit_of, square_of, Bits, BLACK_PROMOTION, WHITE_PROMOTION};
use crate::movegen::Pieces;
use crate::rules::{DraughtsState, InternationalDraughts};

/// The endgame tables of international draughts.
pub type DraughtsTables = Tables<Material>;

/// The 50 squares as dense bits: bit `s - 1` for square `s`.
const ALL: u128 = (1 << 50) - 1;

/// A board bitboard (with ghost bits) as dense bits.
#[inline]
fn dense(board: u64) -> u128 {
    Bits(board).fold(0, |acc, b| acc | 1 << (square_of(b) - 1))
}

/// Dense bits back to a board bitboard.
fn sparse(mut squares: u128) -> u64 {
    let mut board = 0;
    while squares != 0 {
        board |= 1 << bit_of(squares.trailing_zeros() as u8 + 1);
        squares &= squares - 1;
    }
    board
}

impl InternationalDraughts {
    /// The squares a white man can stand on, and a black man's.
    fn man_squares() -> [u128; 2] {
        [ALL & !dense(WHITE_PROMOTION), ALL & !dense(BLACK_PROMOTION)]
    }

    /// The ways to place each kind of piece of `m`, in index order.
    fn factors(m: Material) -> [u64; 4] {
        let (wm, wk, bm, bk) = (
            u32::from(m.men[0]),
            u32::from(m.kings[0]),
            u32::from(m.men[1]),
            u32::from(m.kings[1]),
        );
        [
            binomial(45, wm),
            binomial(45, bm),
            binomial(50u32.saturating_sub(wm + bm), wk),
            binomial(50u32.saturating_sub(wm + bm + wk), bk),
        ]
    }
}

impl EndgameIndex for InternationalDraughts {
    type Slice = Material;

    /// `international-draughts`, or `international-draughts-no-kvk` when one king against
    /// one king is not a draw at once.
    fn table_set(&self) -> String {
        if self.draw_rules().king_vs_king {
            "international-draughts".into()
        } else {
            "international-draughts-no-kvk".into()
        }
    }

    /// [`Material::up_to`].
    fn slices(&self, pieces: u32) -> Vec<Material> {
        Material::up_to(pieces)
    }

    fn slice_name(&self, slice: Material) -> String {
        slice.to_string()
    }

    fn slice_size(&self, slice: Material) -> u64 {
        InternationalDraughts::factors(slice).iter().product::<u64>() * 2
    }

    #[inline]
    fn pieces(&self, state: &DraughtsState) -> u32 {
        (state.pieces.white | state.pieces.black).count_ones()
    }

    fn locate(&self, state: &DraughtsState) -> Option<(Material, u64)> {
        let p = &state.pieces;
        if self.pieces(state) > 12 {
            return None;
        }
        let (wm, wk) = (dense(p.white & !p.kings), dense(p.white & p.kings));
        let (bm, bk) = (dense(p.black & !p.kings), dense(p.black & p.kings));
        let count = |b: u128| b.count_ones() as u8;
        let m = Material::new([count(wm), count(bm)], [count(wk), count(bk)]);
        let f = InternationalDraughts::factors(m);
        let [white_domain, black_domain] = InternationalDraughts::man_squares();
        let index = ((rank(compress(wm, white_domain)) * f[1] + rank(compress(bm, black_domain)))
            * f[2]
            + rank(compress(wk, ALL & !(wm | bm))))
            * f[3]
            + rank(compress(bk, ALL & !(wm | bm | wk)));
        Some((m, index * 2 + u64::from(!state.white_to_move)))
    }

    fn position_of(&self, slice: Material, index: u64) -> Option<DraughtsState> {
        let f = InternationalDraughts::factors(slice);
        let white_to_move = index.is_multiple_of(2);
        let mut rest = index / 2;
        let bkr = rest % f[3];
        rest /= f[3];
        let wkr = rest % f[2];
        rest /= f[2];
        let bmr = rest % f[1];
        let wmr = rest / f[1];
        if wmr >= f[0] {
            return None;
        }
        let [white_domain, black_domain] = InternationalDraughts::man_squares();
        let wm = expand(unrank(wmr, u32::from(slice.men[0])), white_domain);
        let bm = expand(unrank(bmr, u32::from(slice.men[1])), black_domain);
        if wm & bm != 0 {
            return None;
        }
        let wk = expand(unrank(wkr, u32::from(slice.kings[0])), ALL & !(wm | bm));
        let bk = expand(unrank(bkr, u32::from(slice.kings[1])), ALL & !(wm | bm | wk));
        let pieces =
            Pieces { white: sparse(wm | wk), black: sparse(bm | bk), kings: sparse(wk | bk) };
        Some(DraughtsState::from_parts(pieces, white_to_move, 0))
    }

    /// The fewest plies left under the 25-move and 16-move rules; a line longer than 32 plies
    /// could also run into a 16-move endgame that arises on the way, so no more than that
    /// while the 16-move rule is on.
    fn plies_left(&self, state: &DraughtsState) -> Option<u32> {
        let rules = self.draw_rules();
        let kings = rules
            .king_moves
            .map(|n| u32::from(2 * u16::from(n)).saturating_sub(u32::from(state.king_plies)));
        let endgame = rules.endgame_moves.map(|n| {
            let limit = 2 * u32::from(n);
            match state.endgame_plies() {
                Some(played) => limit.saturating_sub(u32::from(played)),
                None => limit,
            }
        });
        match (kings, endgame) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
