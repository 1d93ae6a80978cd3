//! The endgame-database index of Kalah ([`ply::endgame::EndgameIndex`]).
//!
//! A slice is the number `k` of seeds still in the houses: a move never adds to it (sown
//! seeds stay in the houses or reach a store; captures and the end of the game only take
//! seeds out), so slices are built from `k = 1` up. Within slice `k` a position's index
//! ranks, in turn, the houses' contents (the ways to share `k` seeds among `2m` houses,
//! `C(k + 2m - 1, 2m - 1)` of them, ranked by the places of the `2m - 1` separators in a row
//! of seeds and separators), South's store (`0..=T - k`, where `T = 2mn`; North's store is
//! the rest) and the side to move. Every index names a position these rules can write down;
//! many are never reached in play.
//!
//! ```
//! use ply::endgame::EndgameIndex;
//! use ply::Notation;
//! use ply_kalah::{Capture, Kalah};
//!
//! let game = Kalah::new(6, 4, Capture::Empty)?;
//! let state = game.parse_state("1,0,0,1,2,5/20/1,0,0,0,1,1/16 s")?;
//! let (slice, index) = game.locate(&state).unwrap();
//! assert_eq!(slice, 12);
//! assert_eq!(game.pieces(&state), 12);
//! assert_eq!(game.position_of(slice, index), Some(state));
//! # Ok::<(), ply_kalah::Error>(())
//! ```

use ply::endgame::EndgameIndex;
use ply::Player;

use crate::rules::{Kalah, KalahState, MAX_PITS, MAX_SEEDS};

/// The largest `n` of a binomial `C(n, r)` the index needs: every seed and separator.
const MAX_N: usize = 2 * MAX_PITS * MAX_SEEDS + 2 * MAX_PITS;

/// The largest `r`: one separator fewer than the houses.
const MAX_R: usize = 2 * MAX_PITS - 1;

/// `C(n, r)` for `n <= MAX_N` and `r <= MAX_R`, computed at compile time (every entry fits
/// in a `u128`: the largest is about `1e24`).
static BINOMIAL: [[u128; MAX_R + 1]; MAX_N + 1] = {
    let mut t = [[0u128; MAX_R + 1]; MAX_N + 1];
    let mut n = 0;
    while n <= MAX_N {
        t[n][0] = 1;
        let mut r = 1;
        while r <= MAX_R {
            t[n][r] = if n == 0 { 0 } else { t[n - 1][r - 1] + t[n - 1][r] };
            r += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, r)`, 0 outside the table.
fn binomial(n: usize, r: usize) -> u128 {
    BINOMIAL.get(n).and_then(|row| row.get(r)).copied().unwrap_or(0)
}

impl Kalah {
    /// The number of ways to share `k` seeds among both sides' houses.
    fn contents(&self, k: usize) -> u128 {
        let houses = 2 * self.pits();
        binomial(k + houses - 1, houses - 1)
    }

    /// The rank of the houses' contents among [`Kalah::contents`]: South's houses then
    /// North's, as a row of seeds with a separator after each house but the last; the rank
    /// is the colex rank of the separators' places.
    fn rank_contents(&self, state: &KalahState) -> u128 {
        let m = self.pits();
        let mut rank = 0;
        let mut place = 0;
        for j in 0..2 * m - 1 {
            let (side, n) =
                if j < m { (Player::FIRST, j + 1) } else { (Player::SECOND, j - m + 1) };
            place += usize::from(state.house(side, n));
            rank += binomial(place, j + 1);
            place += 1;
        }
        rank
    }

    /// The houses (South's, North's) of contents `rank` with `k` seeds.
    fn unrank_contents(&self, mut rank: u128, k: usize) -> [[u8; MAX_PITS]; 2] {
        let m = self.pits();
        let bars = 2 * m - 1;
        let mut places = [0usize; 2 * MAX_PITS];
        for j in (0..bars).rev() {
            // The largest place p with C(p, j + 1) <= rank.
            let mut p = j;
            while binomial(p + 1, j + 1) <= rank {
                p += 1;
            }
            rank -= binomial(p, j + 1);
            places[j] = p;
        }
        let mut houses = [[0u8; MAX_PITS]; 2];
        let mut previous: Option<usize> = None;
        for j in 0..2 * m {
            let end = if j < bars { places[j] } else { k + bars };
            let start = previous.map_or(0, |p| p + 1);
            houses[j / m][j % m] = (end - start) as u8;
            previous = Some(end);
        }
        houses
    }

    /// The store choices of slice `k`: South's store from 0 to every seed out of the houses.
    fn store_choices(&self, k: usize) -> u128 {
        (self.total_seeds() as usize).saturating_sub(k) as u128 + 1
    }
}

impl EndgameIndex for Kalah {
    /// The seeds still in the houses.
    type Slice = u8;

    /// `kalah-M-N-CAPTURE`, as `kalah-6-4-empty`.
    fn table_set(&self) -> String {
        format!("kalah-{}-{}-{}", self.pits(), self.seeds(), self.capture())
    }

    /// `1..=pieces` seeds in the houses (at most every seed of the game), fewest first: a
    /// move never adds seeds to the houses.
    fn slices(&self, pieces: u32) -> Vec<u8> {
        (1..=pieces.min(self.total_seeds())).map(|k| k as u8).collect()
    }

    /// `seeds-K` with three digits, as `seeds-012`.
    fn slice_name(&self, slice: u8) -> String {
        format!("seeds-{slice:03}")
    }

    /// Contents x South's store choices x 2 sides to move (saturating at `u64::MAX`).
    fn slice_size(&self, slice: u8) -> u64 {
        let k = usize::from(slice);
        if k > self.total_seeds() as usize {
            return 0;
        }
        let size = self.contents(k).saturating_mul(self.store_choices(k)).saturating_mul(2);
        u64::try_from(size).unwrap_or(u64::MAX)
    }

    /// The seeds in the houses.
    fn pieces(&self, state: &KalahState) -> u32 {
        state.seeds_in_houses()
    }

    fn locate(&self, state: &KalahState) -> Option<(u8, u64)> {
        let k = state.seeds_in_houses() as usize;
        let south = usize::from(state.store(Player::FIRST));
        let north = usize::from(state.store(Player::SECOND));
        if k == 0 || k + south + north != self.total_seeds() as usize {
            return None;
        }
        let side = state.side_to_move().index() as u128;
        let index = (self.rank_contents(state) * self.store_choices(k) + south as u128) * 2 + side;
        Some((k as u8, u64::try_from(index).ok()?))
    }

    fn position_of(&self, slice: u8, index: u64) -> Option<KalahState> {
        let k = usize::from(slice);
        if k == 0 || index >= self.slice_size(slice) {
            return None;
        }
        let index = u128::from(index);
        let side = if index % 2 == 0 { Player::FIRST } else { Player::SECOND };
        let rest = index / 2;
        let choices = self.store_choices(k);
        let south = (rest % choices) as usize;
        let houses = self.unrank_contents(rest / choices, k);
        let north = self.total_seeds() as usize - k - south;
        Some(KalahState::from_parts(houses, [south as u8, north as u8], side))
    }
}
