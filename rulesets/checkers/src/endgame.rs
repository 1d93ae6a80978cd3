//! The endgame-database index of English checkers ([`ply::endgame::EndgameIndex`]), on any
//! board size and under either rule set.
//!
//! A slice is a [`Material`]: the men and kings of each side, Black's first. Within it a position's index
//! ranks, in turn, the black men among the squares a black man can stand on (all but the
//! last row), the white men likewise (all but the first row), the black kings among the
//! squares the men left empty, the white kings among the squares left after that, and the
//! side to move. Indices where a black and a white man would share a square name no
//! position. Captures and crownings lead to slices with fewer pieces or fewer men, which
//! [`EndgameIndex::slices`] lists first.
//!
//! The slices with exactly `n` pieces hold, for one side to move, the number of checkers
//! positions with `n` pieces that Schaeffer et al. publish (120, 6,972, 261,224, 7,092,774
//! and 148,688,232 for one to five pieces on 8x8; `docs/endgame-databases.md`); a test
//! counts them.
//!
//! ```
//! use ply::endgame::{EndgameIndex, Material};
//! use ply::Notation;
//! use ply_checkers::{EnglishCheckers, Rules};
//!
//! let game = EnglishCheckers::standard_board(Rules::Standard);
//! let state = game.parse_state("W:W18,K26:B1")?;
//! let (slice, index) = game.locate(&state).unwrap();
//! // Black: one man; White: one man and one king.
//! assert_eq!(slice, Material::new([1, 1], [0, 1]));
//! assert_eq!(game.position_of(slice, index), Some(state));
//! # Ok::<(), ply_checkers::Error>(())
//! ```

use ply::endgame::ranking::{binomial, compress, expand, rank, unrank};
use ply::endgame::{EndgameIndex, Material, Tables};

use crate::rules::{CheckersState, Color, EnglishCheckers};

/// The endgame tables of a checkers game, as [`EnglishCheckers::with_endgame`] takes them.
pub type CheckersTables = Tables<Material>;

impl EnglishCheckers {
    fn all_squares(&self) -> u128 {
        let s = self.squares();
        if s == 128 {
            u128::MAX
        } else {
            (1u128 << s) - 1
        }
    }

    /// The squares a man of `color` can stand on (all but its crowning row).
    fn man_squares(&self, color: Color) -> u128 {
        let half = self.size / 2;
        let all = self.all_squares();
        match color {
            Color::Black => all >> half,
            Color::White => all & !((1u128 << half) - 1),
        }
    }

    /// The counts behind [`EndgameIndex::slice_size`]: the ways to place each kind.
    fn factors(&self, m: Material) -> [u64; 4] {
        let s = self.squares() as u32;
        let d = s - (self.size / 2) as u32;
        let (bm, bk, wm, wk) = (
            u32::from(m.men[0]),
            u32::from(m.kings[0]),
            u32::from(m.men[1]),
            u32::from(m.kings[1]),
        );
        [
            binomial(d, bm),
            binomial(d, wm),
            binomial(s.saturating_sub(bm + wm), bk),
            binomial(s.saturating_sub(bm + wm + bk), wk),
        ]
    }
}

impl EndgameIndex for EnglishCheckers {
    type Slice = Material;

    /// `english-checkers-8x8-deepomatic` or `-standard`; Black's material comes first.
    fn table_set(&self) -> String {
        format!("english-checkers-{n}x{n}-{}", self.rules, n = self.size)
    }

    /// [`Material::up_to`], less what does not fit on a small board.
    fn slices(&self, pieces: u32) -> Vec<Material> {
        Material::up_to(pieces).into_iter().filter(|&m| self.slice_size(m) > 0).collect()
    }

    fn slice_name(&self, slice: Material) -> String {
        slice.to_string()
    }

    fn slice_size(&self, slice: Material) -> u64 {
        self.factors(slice).iter().product::<u64>() * 2
    }

    #[inline]
    fn pieces(&self, state: &CheckersState) -> u32 {
        (state.pieces[0] | state.pieces[1]).count_ones()
    }

    fn locate(&self, state: &CheckersState) -> Option<(Material, u64)> {
        let [black, white] = state.pieces;
        let kings = state.kings;
        let count = |b: u128| u8::try_from(b.count_ones()).ok();
        let m = Material::new(
            [count(black & !kings)?, count(white & !kings)?],
            [count(black & kings)?, count(white & kings)?],
        );
        if m.pieces() > 12 {
            return None;
        }
        let f = self.factors(m);
        let all = self.all_squares();
        let men = (black | white) & !kings;
        let bmr = rank(compress(black & !kings, self.man_squares(Color::Black)));
        let wmr = rank(compress(white & !kings, self.man_squares(Color::White)));
        let bkr = rank(compress(black & kings, all & !men));
        let wkr = rank(compress(white & kings, all & !men & !(black & kings)));
        let index = ((bmr * f[1] + wmr) * f[2] + bkr) * f[3] + wkr;
        Some((m, index * 2 + u64::from(state.side)))
    }

    /// The plies left before the 40-move rule (none without it).
    fn plies_left(&self, state: &CheckersState) -> Option<u32> {
        self.draws.quiet_plies.map(|n| u32::from(n.saturating_sub(state.quiet_plies)))
    }

    fn position_of(&self, slice: Material, index: u64) -> Option<CheckersState> {
        let f = self.factors(slice);
        let side = index % 2;
        let mut rest = index / 2;
        let wkr = rest % f[3];
        rest /= f[3];
        let bkr = rest % f[2];
        rest /= f[2];
        let wmr = rest % f[1];
        rest /= f[1];
        let bmr = rest;
        if bmr >= f[0] {
            return None;
        }
        let bm = expand(unrank(bmr, u32::from(slice.men[0])), self.man_squares(Color::Black));
        let wm = expand(unrank(wmr, u32::from(slice.men[1])), self.man_squares(Color::White));
        if bm & wm != 0 {
            return None;
        }
        let all = self.all_squares();
        let bk = expand(unrank(bkr, u32::from(slice.kings[0])), all & !(bm | wm));
        let wk = expand(unrank(wkr, u32::from(slice.kings[1])), all & !(bm | wm | bk));
        let to_move = if side == 0 { Color::Black } else { Color::White };
        let mut state = CheckersState::empty(to_move, self.size);
        state.pieces = [bm | bk, wm | wk];
        state.kings = bk | wk;
        Some(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_longer_than_the_forty_move_rule_allows_is_not_answered() {
        use ply::endgame::Verdict;
        let dir = std::env::temp_dir().join(format!("ply-checkers-40-{}", std::process::id()));
        let free = EnglishCheckers::new(6, crate::Rules::Standard)
            .unwrap()
            .with_draw_rules(crate::DrawRules::NONE);
        ply::endgame::build(&free, 2, &dir, 1, &|_| {}).unwrap();
        let tables = Tables::open(&free, &dir).unwrap();
        let game = EnglishCheckers::new(6, crate::Rules::Standard).unwrap();
        let limit = game.draw_rules().quiet_plies.unwrap();
        let m = Material::new([0, 1], [1, 0]);
        let (mut state, n) = (0..free.slice_size(m))
            .filter_map(|i| free.position_of(m, i))
            .find_map(|s| match tables.solve(&game, &s) {
                Some(Verdict::Win(n)) if n >= 3 => Some((s, n)),
                _ => None,
            })
            .expect("a black king beats a white man somewhere");
        state.quiet_plies = limit - n as u16;
        assert_eq!(tables.solve(&game, &state), Some(Verdict::Win(n)));
        state.quiet_plies += 1;
        assert_eq!(tables.solve(&game, &state), None);
        assert_eq!(tables.solve(&free, &state), Some(Verdict::Win(n)), "no 40-move rule");
        assert_eq!(tables.probe(&game, &state), Some(Verdict::Win(n)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
