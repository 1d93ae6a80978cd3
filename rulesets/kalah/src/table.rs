//! [`SeedTable`]: the exact final margin of every position with few seeds left in the houses,
//! computed once in memory, for [`Game::solve_endgame`] to answer from.
//!
//! What the stores gain from a position on does not depend on what they already hold: the
//! moves and their outcomes follow from the houses and the player to move alone. So the
//! table keeps, for every way to share at most `K` seeds among the `2m` houses (the mover's
//! houses first: the rules are the same for both sides), the *gain*: the final margin under
//! perfect play minus the current store difference, both from the side to move (a byte,
//! since it lies within `±K`). A position's
//! exact value is then its store difference plus one table entry, whatever the stores hold
//! and whatever `n` the game started with.
//!
//! The table is a margin table of the core ([`ply::endgame::MarginTable`], Kalah being a
//! [`MarginIndex`] whose count is the seeds in the houses and whose banked margin is the store
//! difference): it is filled count by count, fewest seeds first (a move never adds seeds to
//! the houses); inside a count the moves that keep every seed in the houses move the mover's
//! seeds strictly towards the mover's store, so a memoised recursion ends; several threads
//! fill one count at once. [`SeedTable::build_in`] keeps the tables as files (one per count,
//! checksummed) and reads back those already built. Six houses a side with `K = 20` make 226
//! million entries (one byte each); every two seeds fewer divide that by about 2.5.
//!
//! ```
//! use std::sync::Arc;
//! use ply::{Game, Notation};
//! use ply_kalah::{Kalah, SeedTable};
//!
//! let game = Kalah::standard();
//! let table = SeedTable::build(&game, 12)?;
//! let state = game.parse_state("1,0,0,1,2,5/20/1,0,0,0,1,1/16 s")?;
//! // South's store leads by 4; perfect play adds 8 more.
//! assert_eq!(table.margin(&state), Some(12));
//! let game = game.with_table(Arc::new(table));
//! # Ok::<(), ply_kalah::Error>(())
//! ```

use std::fmt;
use std::path::Path;

use ply::endgame::{MarginIndex, MarginTable};
use ply::Player;

use crate::error::Error;
use crate::rules::{Kalah, KalahState, MAX_PITS};

/// The most houses of a board, both sides.
const HOUSES: usize = 2 * MAX_PITS;

/// The largest `n` of the binomials the ranks use: every seed of a table (at most 127) plus
/// the bars between the houses.
const TOP: usize = 127 + HOUSES;

/// `BINOMIAL[n][r]` = C(n, r) for the ranks of the houses' contents, saturating (the
/// saturated ones belong to tables far over the size limit).
static BINOMIAL: [[u64; HOUSES]; TOP + 1] = {
    let mut t = [[0u64; HOUSES]; TOP + 1];
    let mut n = 0;
    while n <= TOP {
        t[n][0] = 1;
        let mut r = 1;
        while r < HOUSES {
            t[n][r] = if n == 0 { 0 } else { t[n - 1][r - 1].saturating_add(t[n - 1][r]) };
            r += 1;
        }
        n += 1;
    }
    t
};

/// The count of a position is its seeds in the houses; its index the rank of the houses'
/// contents, the mover's houses first (stars and bars: the rank of the bars' places among
/// `seeds + 2m - 1`); its banked margin the store difference for the side to move.
impl MarginIndex for Kalah {
    fn margin_set(&self) -> String {
        format!("kalah-{}-{}-capture", self.pits(), self.capture())
    }

    #[inline]
    fn count(&self, state: &KalahState) -> u32 {
        state.seeds_in_houses()
    }

    fn count_size(&self, count: u32) -> u64 {
        let houses = 2 * self.pits();
        BINOMIAL.get(count as usize + houses - 1).map_or(u64::MAX, |row| row[houses - 1])
    }

    #[inline]
    fn index(&self, state: &KalahState) -> u64 {
        let m = self.pits();
        let me = state.side_to_move();
        let (mine, theirs) = (state.houses_of(me), state.houses_of(me.opponent()));
        let mut rank = 0;
        let mut place = 0;
        for j in 0..2 * m - 1 {
            place += usize::from(if j < m { mine[j] } else { theirs[j - m] });
            rank += BINOMIAL[place][j + 1];
            place += 1;
        }
        rank
    }

    fn position_at(&self, count: u32, index: u64) -> Option<KalahState> {
        let m = self.pits();
        let bars = 2 * m - 1;
        if index >= self.count_size(count) || count as usize + bars > TOP {
            return None;
        }
        // The bars' places, last first: the largest place p with C(p, i) <= what is left.
        let mut places = [0usize; HOUSES];
        let mut left = index;
        let mut p = count as usize + bars;
        for i in (1..=bars).rev() {
            p -= 1;
            while BINOMIAL[p][i] > left {
                p -= 1;
            }
            left -= BINOMIAL[p][i];
            places[i - 1] = p;
        }
        let mut houses = [[0u8; MAX_PITS]; 2];
        let mut before = 0;
        for (j, &place) in places[..bars].iter().enumerate() {
            houses[j / m][j % m] = u8::try_from(place - before).ok()?;
            before = place + 1;
        }
        houses[1][m - 1] = u8::try_from(count as usize + bars - before).ok()?;
        Some(KalahState::from_parts(houses, [0, 0], Player::FIRST))
    }

    #[inline]
    fn banked(&self, state: &KalahState) -> i32 {
        let me = state.side_to_move();
        i32::from(state.store(me)) - i32::from(state.store(me.opponent()))
    }
}

/// The exact gain of every position with at most [`SeedTable::max_seeds`] seeds in the
/// houses, for one number of houses and one capture rule (see the module documentation): a
/// [`MarginTable`] of Kalah with the rules it was built for.
///
/// The rules are the same for both sides, so a position with North to move has the gain of
/// its mirror image (the sides' houses exchanged, South to move): the table keeps the
/// positions with the mover's houses first, one entry per way to share the seeds.
pub struct SeedTable {
    rules: Kalah,
    margins: MarginTable<Kalah>,
}

impl SeedTable {
    /// Computes the table of `game`'s houses and capture rule for every position with at
    /// most `max_seeds` seeds in the houses, on one thread.
    ///
    /// # Errors
    /// [`Error::Table`] if the table would have more than 2^34 entries or `max_seeds` is over
    /// 127 (a gain must fit in a byte).
    pub fn build(game: &Kalah, max_seeds: u32) -> Result<SeedTable, Error> {
        SeedTable::build_with(game, max_seeds, 1, &mut |_, _| {})
    }

    /// [`SeedTable::build`] on `threads` threads, telling `progress` of every number of
    /// seeds finished and the entries done so far.
    ///
    /// # Errors
    /// As [`SeedTable::build`].
    pub fn build_with(
        game: &Kalah,
        max_seeds: u32,
        threads: usize,
        progress: &mut dyn FnMut(u32, u64),
    ) -> Result<SeedTable, Error> {
        let rules = SeedTable::rules_of(game)?;
        let margins =
            MarginTable::build(&rules, max_seeds, threads, progress).map_err(table_error)?;
        Ok(SeedTable { rules, margins })
    }

    /// [`SeedTable::build_with`] keeping the table in `dir` (one checksummed file per number
    /// of seeds, in the rules' subdirectory): the files already there are read back, the
    /// others computed and written.
    ///
    /// # Errors
    /// As [`SeedTable::build`], and [`Error::Table`] for a file that cannot be written or is
    /// damaged.
    pub fn build_in(
        game: &Kalah,
        max_seeds: u32,
        threads: usize,
        dir: &Path,
        progress: &mut dyn FnMut(u32, u64),
    ) -> Result<SeedTable, Error> {
        let rules = SeedTable::rules_of(game)?;
        let margins = MarginTable::build_in(&rules, max_seeds, threads, dir, progress)
            .map_err(table_error)?;
        Ok(SeedTable { rules, margins })
    }

    /// The table of `game`'s rules in `dir` with the most seeds that every count up to has a
    /// file, read and checked; `None` when `dir` holds none.
    ///
    /// # Errors
    /// [`Error::Table`] for a damaged file or one of other rules.
    pub fn open(game: &Kalah, dir: &Path) -> Result<Option<SeedTable>, Error> {
        let rules = SeedTable::rules_of(game)?;
        let Some(max_seeds) = MarginTable::counts_in(&rules, dir) else { return Ok(None) };
        let margins = MarginTable::open(&rules, dir, max_seeds).map_err(table_error)?;
        Ok(Some(SeedTable { rules, margins }))
    }

    /// `game`'s rules without tables, which the table's own moves follow.
    fn rules_of(game: &Kalah) -> Result<Kalah, Error> {
        Kalah::new(game.pits(), game.seeds(), game.capture())
    }

    /// The margin table underneath (files, checks).
    pub fn margins(&self) -> &MarginTable<Kalah> {
        &self.margins
    }

    /// The most seeds in the houses of a position the table answers.
    pub fn max_seeds(&self) -> u32 {
        self.margins.max_count()
    }

    /// The number of entries (one byte each).
    pub fn entries(&self) -> usize {
        self.margins.entries()
    }

    /// Whether the table was built for `game`'s houses and capture rule.
    pub fn fits(&self, game: &Kalah) -> bool {
        game.pits() == self.rules.pits() && game.capture() == self.rules.capture()
    }

    /// Starts fetching `state`'s entry from memory, for a [`SeedTable::margin`] soon after;
    /// `true` where the table holds it.
    #[inline]
    pub fn prefetch(&self, state: &KalahState) -> bool {
        self.margins.prefetch(&self.rules, state)
    }

    /// The exact final margin of `state` for the side to move under perfect play, if it has
    /// at most [`SeedTable::max_seeds`] seeds in its houses.
    #[inline]
    pub fn margin(&self, state: &KalahState) -> Option<i32> {
        self.margins.margin(&self.rules, state)
    }
}

/// A margin table's error as the crate's.
fn table_error(e: ply::endgame::MarginError) -> Error {
    Error::Table(e.to_string())
}

impl fmt::Debug for SeedTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SeedTable {{ pits: {}, capture: {}, max_seeds: {}, entries: {} }}",
            self.rules.pits(),
            self.rules.capture(),
            self.max_seeds(),
            self.entries()
        )
    }
}

/// Two tables are equal when they answer the same positions under the same rules (then they
/// hold the same values).
impl PartialEq for SeedTable {
    fn eq(&self, other: &SeedTable) -> bool {
        self.fits(&other.rules) && self.max_seeds() == other.max_seeds()
    }
}

impl Eq for SeedTable {}
