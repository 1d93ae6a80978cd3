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
//! The table is filled slice by slice, fewest seeds first (a move never adds seeds to the
//! houses). Inside a slice the moves that keep every seed in the houses move the mover's
//! seeds strictly towards the mover's store, so a memoised recursion ends; the memo is the
//! table itself; several threads fill one slice at once. Six houses a side with `K = 20`
//! make 226 million entries (one byte each); every two seeds fewer divide that by about
//! 2.5.
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
use std::sync::atomic::{AtomicI8, Ordering};

use ply::{Game, MoveList, Player};

use crate::error::Error;
use crate::rules::{Kalah, KalahState, MAX_PITS};

/// The byte of an entry not computed yet.
const UNKNOWN: i8 = i8::MIN;

/// The most entries a table may have (16 GiB).
const MAX_ENTRIES: u64 = 1 << 34;

/// The exact gain of every position with at most [`SeedTable::max_seeds`] seeds in the
/// houses, for one number of houses and one capture rule (see the module documentation).
///
/// The rules are the same for both sides, so a position with North to move has the gain of
/// its mirror image (the sides' houses exchanged, South to move): the table keeps the
/// positions with the mover's houses first, one entry per way to share the seeds.
pub struct SeedTable {
    rules: Kalah,
    max_seeds: u32,
    /// `binomial[n][r]` for the ranks of the houses' contents.
    binomial: Vec<[u64; 2 * MAX_PITS]>,
    /// The first rank of each number of seeds: `offsets[k]` contents have fewer than `k`.
    offsets: Vec<u64>,
    /// The gain per contents rank, the mover's houses first. Atomic so that several
    /// threads fill it at once (two threads that compute one entry write the same value).
    gains: Vec<AtomicI8>,
}

impl SeedTable {
    /// Computes the table of `game`'s houses and capture rule for every position with at
    /// most `max_seeds` seeds in the houses, on one thread.
    ///
    /// # Errors
    /// [`Error::Table`] if the table would have more than 2^34 entries or `max_seeds` is over
    /// 120 (a gain must fit in a byte).
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
        let houses = 2 * game.pits();
        let too_big = || Error::Table(format!("{max_seeds} seeds make too large a table"));
        if max_seeds > 120 {
            return Err(too_big());
        }
        let top = max_seeds as usize + houses;
        let mut binomial = vec![[0u64; 2 * MAX_PITS]; top + 1];
        for n in 0..=top {
            binomial[n][0] = 1;
            for r in 1..houses {
                let v = if n == 0 {
                    Some(0)
                } else {
                    binomial[n - 1][r - 1].checked_add(binomial[n - 1][r])
                };
                binomial[n][r] = v.ok_or_else(too_big)?;
            }
        }
        let mut offsets = vec![0u64];
        for k in 0..=max_seeds as usize {
            let count = binomial[k + houses - 1][houses - 1];
            let next = offsets[k].checked_add(count).ok_or_else(too_big)?;
            offsets.push(next);
        }
        let entries = offsets[max_seeds as usize + 1];
        if entries > MAX_ENTRIES {
            return Err(too_big());
        }
        let table = SeedTable {
            rules: Kalah::new(game.pits(), game.seeds(), game.capture())?,
            max_seeds,
            binomial,
            offsets,
            gains: (0..entries).map(|_| AtomicI8::new(UNKNOWN)).collect(),
        };
        let threads = threads.max(1);
        for k in 0..=max_seeds as usize {
            // Every slice below is complete: the threads' recursions stay inside this one.
            std::thread::scope(|scope| {
                for part in 0..threads {
                    let table = &table;
                    scope.spawn(move || {
                        let mut moves = Vec::new();
                        let mut contents = [0u8; 2 * MAX_PITS];
                        let mut count = 0;
                        table.fill(&mut contents, 0, k, &mut |contents| {
                            count += 1;
                            if count % threads == part {
                                let state = table.state(contents);
                                table.solve(&state, 0, &mut moves);
                            }
                        });
                    });
                }
            });
            progress(k as u32, table.offsets[k + 1]);
        }
        Ok(table)
    }

    /// Calls `visit` with every way to share `left` seeds among houses `at..2m` (the earlier
    /// ones set in `contents`).
    fn fill(
        &self,
        contents: &mut [u8; 2 * MAX_PITS],
        at: usize,
        left: usize,
        visit: &mut dyn FnMut(&[u8; 2 * MAX_PITS]),
    ) {
        let houses = 2 * self.rules.pits();
        if at == houses - 1 {
            contents[at] = left as u8;
            visit(contents);
            return;
        }
        for here in 0..=left {
            contents[at] = here as u8;
            self.fill(contents, at + 1, left - here, visit);
        }
        contents[at] = 0;
    }

    /// The position with these houses (South's then North's), empty stores and South to
    /// move.
    fn state(&self, contents: &[u8; 2 * MAX_PITS]) -> KalahState {
        let m = self.rules.pits();
        let mut houses = [[0u8; MAX_PITS]; 2];
        houses[0][..m].copy_from_slice(&contents[..m]);
        houses[1][..m].copy_from_slice(&contents[m..2 * m]);
        KalahState::from_parts(houses, [0, 0], Player::FIRST)
    }

    /// The entry of `state` (at most `max_seeds` seeds in its houses): the rank of its
    /// houses' contents, the mover's houses first.
    #[inline]
    fn index(&self, state: &KalahState) -> usize {
        let m = self.rules.pits();
        let me = state.side_to_move();
        let (mine, theirs) = (state.houses_of(me), state.houses_of(me.opponent()));
        let mut rank = 0;
        let mut place = 0;
        let mut seeds = 0;
        for j in 0..2 * m {
            let h = usize::from(if j < m { mine[j] } else { theirs[j - m] });
            seeds += h;
            if j < 2 * m - 1 {
                place += h;
                rank += self.binomial[place][j + 1];
                place += 1;
            }
        }
        (self.offsets[seeds] + rank) as usize
    }

    /// The gain of `state` for the side to move, computing it (and what it needs) if it is
    /// not known yet. `depth` picks the move list of this level of the recursion.
    fn solve(
        &self,
        state: &KalahState,
        depth: usize,
        moves: &mut Vec<MoveList<crate::Move>>,
    ) -> i8 {
        let index = self.index(state);
        let known = self.gains[index].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return known;
        }
        let me = state.side_to_move();
        let diff = |s: &KalahState| i32::from(s.store(me)) - i32::from(s.store(me.opponent()));
        let gain = if state.is_over() {
            let f = state.final_stores();
            f[me.index()] as i32 - f[me.opponent().index()] as i32 - diff(state)
        } else {
            if moves.len() <= depth {
                moves.resize_with(depth + 1, MoveList::new);
            }
            let mut list = std::mem::take(&mut moves[depth]);
            self.rules.generate_moves(state, &mut list);
            let mut best = i32::MIN;
            for &mv in &list {
                let mut child = *state;
                self.rules.apply(&mut child, mv);
                let later = i32::from(self.solve(&child, depth + 1, moves));
                let later = if child.side_to_move() == me { later } else { -later };
                best = best.max(diff(&child) - diff(state) + later);
            }
            moves[depth] = list;
            best
        };
        // Within ±max_seeds, so it fits.
        let gain = gain as i8;
        self.gains[index].store(gain, Ordering::Relaxed);
        gain
    }

    /// The most seeds in the houses of a position the table answers.
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// The number of entries (one byte each).
    pub fn entries(&self) -> usize {
        self.gains.len()
    }

    /// Whether the table was built for `game`'s houses and capture rule.
    pub fn fits(&self, game: &Kalah) -> bool {
        game.pits() == self.rules.pits() && game.capture() == self.rules.capture()
    }

    /// The exact final margin of `state` for the side to move under perfect play, if it has
    /// at most [`SeedTable::max_seeds`] seeds in its houses.
    #[inline]
    pub fn margin(&self, state: &KalahState) -> Option<i32> {
        if state.seeds_in_houses() > self.max_seeds {
            return None;
        }
        let me = state.side_to_move();
        let diff = i32::from(state.store(me)) - i32::from(state.store(me.opponent()));
        Some(diff + i32::from(self.gains[self.index(state)].load(Ordering::Relaxed)))
    }
}

impl fmt::Debug for SeedTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SeedTable {{ pits: {}, capture: {}, max_seeds: {}, entries: {} }}",
            self.rules.pits(),
            self.rules.capture(),
            self.max_seeds,
            self.gains.len()
        )
    }
}

/// Two tables are equal when they answer the same positions under the same rules (then they
/// hold the same values).
impl PartialEq for SeedTable {
    fn eq(&self, other: &SeedTable) -> bool {
        self.fits(&other.rules) && self.max_seeds == other.max_seeds
    }
}

impl Eq for SeedTable {}
