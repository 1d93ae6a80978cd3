//! Margin tables: the exact final margin of every position whose *count* (Kalah's seeds in
//! the houses) is small, for games that end with scores ([`Outcome::Scores`](crate::Outcome::Scores)).
//!
//! A game takes part by giving a [`MarginIndex`]: a count that no move raises, a perfect
//! numbering of the positions of each count, and the margin a position has already *banked*
//! (Kalah's store difference), which the moves to come cannot take back. What the rest of the
//! game adds to the banked margin, the *gain*, then depends on the indexed part of the
//! position alone; the table keeps one gain per index (a byte: gains lie within ±127), and a
//! position's exact final margin is its banked margin plus its entry.
//!
//! [`MarginTable::build`] fills the counts in order, fewest first, by a memoised recursion
//! over the moves: a move leads to a smaller count (already filled) or to the same count, and
//! the moves that keep the count must form no cycle (in Kalah they move the mover's seeds
//! towards its store). Several threads fill one count at once. [`MarginTable::save`] writes
//! one file per count in the format of the win/draw/loss tables (a text header, deflate, a
//! checksum checked on every read), and [`MarginTable::open`] reads them back;
//! [`MarginTable::check`] compares entries with what their moves imply.
//!
//! The byte of a gain `g` is `g as i8` (two's complement); `0x80` marks an index that names no
//! position. In a file's header, `wins`, `draws` and `losses` count the positive, zero and
//! negative gains, and `longest-win` and `longest-loss` hold the largest gain and the largest
//! loss.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI8, AtomicU32, AtomicU64, Ordering};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::build::SliceStats;
use super::file::{read_table, write_table, TableFile, TableFileError};
use crate::game::{Game, MoveList};

/// The byte of an index not computed yet, or that names no position.
const UNKNOWN: i8 = i8::MIN;

/// The most entries a table may have (16 GiB).
const MAX_ENTRIES: u64 = 1 << 34;

/// The deepest recursion inside one count before the build reports a cycle.
const MAX_DEPTH: usize = 4096;

/// A game whose positions with a small count have a perfect index, for margin tables.
pub trait MarginIndex: Game {
    /// The name of the game's table set: it differs whenever the rules make different moves.
    fn margin_set(&self) -> String;

    /// The count of `state` (cheap: the search asks at every node). No move raises it.
    fn count(&self, state: &Self::State) -> u32;

    /// The number of indices of the positions with this count.
    fn count_size(&self, count: u32) -> u64;

    /// The index of `state` among the positions of its count.
    fn index(&self, state: &Self::State) -> u64;

    /// A position with this count and index (whatever it has banked), `None` when the
    /// number names no position.
    fn position_at(&self, count: u32, index: u64) -> Option<Self::State>;

    /// The margin `state` has banked for its side to move: the part of the final margin no
    /// move can change (Kalah: the mover's store minus the opponent's).
    fn banked(&self, state: &Self::State) -> i32;
}

/// What went wrong building, reading or checking a margin table.
#[derive(Debug, thiserror::Error)]
pub enum MarginError {
    /// The table would be too large, or its gains would not fit in a byte.
    #[error("a margin table of {count} would be too large: {reason}")]
    TooLarge {
        /// The largest count asked for.
        count: u32,
        /// Why.
        reason: String,
    },
    /// The game's moves do not suit a margin table.
    #[error("the game does not suit a margin table: {0}")]
    Unsuitable(String),
    /// A file could not be read or written, or is damaged.
    #[error(transparent)]
    File(#[from] TableFileError),
    /// A file belongs to another game or count, or the tables disagree with the moves.
    #[error("{path}: {reason}")]
    Mismatch {
        /// The file or directory.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

/// The exact gain of every position of a [`MarginIndex`] game with a count up to
/// [`MarginTable::max_count`] (see the module documentation).
///
/// ```
/// use ply::endgame::MarginTable;
/// use ply::games::{CoinRow, TurnOrder};
/// use ply::Game;
///
/// // Coin Row: take a coin from either end of a row; the count is the coins left.
/// let game = CoinRow::new(&[3, 9, 1, 2], TurnOrder::Alternate)?;
/// let table = MarginTable::build(&game, 4, 1, &mut |_, _| {})?;
/// let start = game.initial_state();
/// // The first player takes 2, then 9 whatever the second does: 11 against 4.
/// assert_eq!(table.margin(&game, &start), Some(7));
/// assert_eq!(table.check(&game, 1000, 1)?, 15);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MarginTable<G: MarginIndex> {
    set: String,
    max_count: u32,
    /// The first entry of each count; `offsets[k + 1] - offsets[k]` entries have count `k`.
    offsets: Vec<u64>,
    /// The gain per entry. Atomic so that several threads fill one count (two threads that
    /// compute one entry write the same value).
    gains: Vec<AtomicI8>,
    game: PhantomData<fn(&G)>,
}

impl<G: MarginIndex> MarginTable<G> {
    /// An empty table (every entry unknown) for counts up to `max_count`.
    fn empty(game: &G, max_count: u32) -> Result<Self, MarginError> {
        let too_large =
            |reason: &str| MarginError::TooLarge { count: max_count, reason: reason.into() };
        if max_count > 127 {
            return Err(too_large("gains beyond 127 do not fit in a byte"));
        }
        let mut offsets = vec![0u64];
        for k in 0..=max_count {
            let next = offsets[k as usize]
                .checked_add(game.count_size(k))
                .filter(|&n| n <= MAX_ENTRIES)
                .ok_or_else(|| too_large("more than 2^34 entries"))?;
            offsets.push(next);
        }
        let entries = offsets[max_count as usize + 1] as usize;
        Ok(MarginTable {
            set: game.margin_set(),
            max_count,
            offsets,
            gains: crate::memory::huge_page_vec(entries, || AtomicI8::new(UNKNOWN)),
            game: PhantomData,
        })
    }

    /// Computes the table of every position with a count up to `max_count` on `threads`
    /// threads, telling `progress` of every count finished (the count and the entries so far).
    ///
    /// # Errors
    /// [`MarginError::TooLarge`] beyond 2^34 entries or a count over 127;
    /// [`MarginError::Unsuitable`] when a move raises the count, the moves that keep it form
    /// a cycle, a gain does not fit in a byte or the game does not end with scores.
    pub fn build(
        game: &G,
        max_count: u32,
        threads: usize,
        progress: &mut dyn FnMut(u32, u64),
    ) -> Result<Self, MarginError> {
        let table = MarginTable::empty(game, max_count)?;
        for k in 0..=max_count {
            table.fill_count(game, k, threads)?;
            progress(k, table.offsets[k as usize + 1]);
        }
        Ok(table)
    }

    /// [`MarginTable::build`] keeping its files in `dir` (the set's subdirectory of it): the
    /// counts already there are read back (checked; those from 0 on, on `threads` threads),
    /// the others computed and written, so a build that stops goes on where it stopped.
    ///
    /// # Errors
    /// As [`MarginTable::build`] and [`MarginTable::open`].
    pub fn build_in(
        game: &G,
        max_count: u32,
        threads: usize,
        dir: &Path,
        progress: &mut dyn FnMut(u32, u64),
    ) -> Result<Self, MarginError> {
        let table = MarginTable::empty(game, max_count)?;
        let kept = (0..=max_count).take_while(|&k| table.file(dir, k).exists()).count() as u32;
        table.read_counts(dir, kept, threads)?;
        for k in 0..kept {
            progress(k, table.offsets[k as usize + 1]);
        }
        for k in kept..=max_count {
            let path = table.file(dir, k);
            if path.exists() {
                table.read_count(&path, k)?;
            } else {
                table.fill_count(game, k, threads)?;
                write_table(&path, &table.file_of(k))?;
            }
            progress(k, table.offsets[k as usize + 1]);
        }
        Ok(table)
    }

    /// Reads the table of every count up to `max_count` from `dir` (the set's
    /// subdirectory of it), checking each file's checksum, set, count and size. The counts
    /// are separate files, read on every core.
    ///
    /// # Errors
    /// [`MarginError::File`] when a file is missing or damaged, [`MarginError::Mismatch`]
    /// when it is another game's or count's.
    pub fn open(game: &G, dir: &Path, max_count: u32) -> Result<Self, MarginError> {
        let table = MarginTable::empty(game, max_count)?;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        table.read_counts(dir, max_count + 1, threads)?;
        Ok(table)
    }

    /// The largest count in `dir` for which every count up to it has a file (`None` when
    /// count 0 has none). Only names are looked at; [`MarginTable::open`] reads them.
    pub fn counts_in(game: &G, dir: &Path) -> Option<u32> {
        let set = dir.join(game.margin_set());
        (0..=127u32)
            .take_while(|&k| set.join(count_name(k)).with_extension("plyegdb").exists())
            .last()
    }

    /// Writes one file per count into `dir` (the set's subdirectory of it), returning the
    /// bytes written.
    ///
    /// # Errors
    /// [`MarginError::File`] when the directory is not writable.
    pub fn save(&self, dir: &Path) -> Result<u64, MarginError> {
        let mut bytes = 0;
        for k in 0..=self.max_count {
            bytes += write_table(&self.file(dir, k), &self.file_of(k))?;
        }
        Ok(bytes)
    }

    /// The largest count the table answers.
    pub fn max_count(&self) -> u32 {
        self.max_count
    }

    /// The number of entries (one byte each).
    pub fn entries(&self) -> usize {
        self.gains.len()
    }

    /// Whether the table was built for `game`'s rules (the same table set).
    pub fn fits(&self, game: &G) -> bool {
        game.margin_set() == self.set
    }

    /// The exact final margin of `state` for its side to move under perfect play, if its
    /// count is in the table.
    #[inline]
    pub fn margin(&self, game: &G, state: &G::State) -> Option<i32> {
        self.gain(game, state).map(|g| game.banked(state) + g)
    }

    /// The gain of `state` (its final margin minus its banked margin), if its count is in
    /// the table.
    #[inline]
    pub fn gain(&self, game: &G, state: &G::State) -> Option<i32> {
        let count = game.count(state);
        if count > self.max_count {
            return None;
        }
        let at = self.offsets[count as usize] + game.index(state);
        let g = self.gains.get(at as usize)?.load(Ordering::Relaxed);
        (g != UNKNOWN).then_some(i32::from(g))
    }

    /// Starts fetching `state`'s entry from memory (where its count is in the table), for a
    /// [`MarginTable::gain`] or [`MarginTable::margin`] soon after; `true` where the table
    /// holds the entry.
    #[inline]
    pub fn prefetch(&self, game: &G, state: &G::State) -> bool {
        let count = game.count(state);
        if count <= self.max_count {
            let at = self.offsets[count as usize] + game.index(state);
            if let Some(g) = self.gains.get(at as usize) {
                crate::memory::prefetch(g);
                return true;
            }
        }
        false
    }

    /// The margin `state`'s moves imply from the table: the end of the game's margin, or the
    /// best move's margin for the side to move. `None` when a move leads outside the table.
    pub fn implied(&self, game: &G, state: &G::State) -> Option<i32> {
        let me = game.to_move(state);
        if let Some(outcome) = game.outcome(state) {
            return Some(outcome.margin(me));
        }
        let mut moves = MoveList::new();
        game.generate_moves(state, &mut moves);
        let mut best = None;
        for &mv in &moves {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            let m = self.margin(game, &child)?;
            let m = if game.to_move(&child) == me { m } else { -m };
            best = Some(best.map_or(m, |b: i32| b.max(m)));
        }
        best
    }

    /// Checks `samples` positions drawn at random (every position when the table has no
    /// more): each entry must equal what its moves imply. Returns the positions checked.
    ///
    /// # Errors
    /// [`MarginError::Mismatch`] naming the first entry that disagrees.
    pub fn check(&self, game: &G, samples: u64, seed: u64) -> Result<u64, MarginError> {
        let total = self.gains.len() as u64;
        let every = samples >= total;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut checked = 0;
        for i in 0..samples.min(total) {
            let at = if every { i } else { rng.gen_range(0..total) };
            let count = self.offsets.partition_point(|&o| o <= at) as u32 - 1;
            let Some(state) = game.position_at(count, at - self.offsets[count as usize]) else {
                continue;
            };
            let (stored, implied) = (self.margin(game, &state), self.implied(game, &state));
            if stored != implied {
                return Err(MarginError::Mismatch {
                    path: PathBuf::from(&self.set),
                    reason: format!(
                        "count {count}, index {}: the table says {stored:?}, the moves {implied:?}",
                        at - self.offsets[count as usize]
                    ),
                });
            }
            checked += 1;
        }
        Ok(checked)
    }

    /// Fills the entries of count `k` (every smaller count is complete).
    fn fill_count(&self, game: &G, k: u32, threads: usize) -> Result<(), MarginError> {
        let (start, end) = (self.offsets[k as usize], self.offsets[k as usize + 1]);
        let threads = threads.max(1) as u64;
        let failure = std::sync::Mutex::new(None);
        let next = AtomicU64::new(start);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut moves = Vec::new();
                    loop {
                        // Blocks of consecutive entries, handed out in turn.
                        let from = next.fetch_add(4096, Ordering::Relaxed);
                        if from >= end {
                            return;
                        }
                        for at in from..(from + 4096).min(end) {
                            let Some(state) = game.position_at(k, at - start) else { continue };
                            if let Err(e) = self.solve(game, &state, k, 0, &mut moves) {
                                if let Ok(mut f) = failure.lock() {
                                    f.get_or_insert(e);
                                }
                                next.store(end, Ordering::Relaxed);
                                return;
                            }
                        }
                    }
                });
            }
        });
        failure.into_inner().unwrap_or_else(|p| p.into_inner()).map_or(Ok(()), Err)
    }

    /// The gain of `state` (of count `k`), computing it and the entries of count `k` it
    /// needs. `depth` picks the move list of this level of the recursion.
    fn solve(
        &self,
        game: &G,
        state: &G::State,
        k: u32,
        depth: usize,
        moves: &mut Vec<MoveList<G::Move>>,
    ) -> Result<i32, MarginError> {
        let at = (self.offsets[k as usize] + game.index(state)) as usize;
        let known = self.gains[at].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return Ok(i32::from(known));
        }
        if depth > MAX_DEPTH {
            return Err(MarginError::Unsuitable(format!(
                "the moves that keep the count at {k} form a cycle (or a line over {MAX_DEPTH} plies)"
            )));
        }
        let me = game.to_move(state);
        let banked = game.banked(state);
        let gain = if let Some(outcome) = game.outcome(state) {
            if !matches!(outcome, crate::Outcome::Scores(_)) {
                return Err(MarginError::Unsuitable("a game ended without scores".into()));
            }
            outcome.margin(me) - banked
        } else {
            if moves.len() <= depth {
                moves.resize_with(depth + 1, MoveList::new);
            }
            let mut list = std::mem::take(&mut moves[depth]);
            list.clear();
            game.generate_moves(state, &mut list);
            let mut best = i32::MIN;
            for &mv in &list {
                let mut child = state.clone();
                game.apply(&mut child, mv);
                let c = game.count(&child);
                let later = match c.cmp(&k) {
                    std::cmp::Ordering::Greater => {
                        return Err(MarginError::Unsuitable(format!(
                            "a move raises the count from {k} to {c}"
                        )))
                    }
                    std::cmp::Ordering::Equal => self.solve(game, &child, k, depth + 1, moves)?,
                    std::cmp::Ordering::Less => self.gain(game, &child).ok_or_else(|| {
                        MarginError::Unsuitable(format!("count {c} has a position with no entry"))
                    })?,
                };
                let m = game.banked(&child) + later;
                let m = if game.to_move(&child) == me { m } else { -m };
                best = best.max(m);
            }
            moves[depth] = list;
            best - banked
        };
        let byte = i8::try_from(gain).ok().filter(|&g| g != UNKNOWN).ok_or_else(|| {
            MarginError::Unsuitable(format!("a gain of {gain} does not fit in a byte"))
        })?;
        self.gains[at].store(byte, Ordering::Relaxed);
        Ok(gain)
    }

    /// The path of count `k`'s file under `dir`.
    fn file(&self, dir: &Path, k: u32) -> PathBuf {
        dir.join(&self.set).join(count_name(k)).with_extension("plyegdb")
    }

    /// Count `k`'s entries as a table file.
    fn file_of(&self, k: u32) -> TableFile {
        let range = self.offsets[k as usize] as usize..self.offsets[k as usize + 1] as usize;
        let values: Vec<u8> =
            self.gains[range].iter().map(|g| g.load(Ordering::Relaxed) as u8).collect();
        let mut stats = SliceStats::default();
        for &b in &values {
            match b as i8 {
                UNKNOWN => stats.holes += 1,
                0 => stats.draws += 1,
                g if g > 0 => {
                    stats.wins += 1;
                    stats.longest_win = stats.longest_win.max(g as u32);
                }
                g => {
                    stats.losses += 1;
                    stats.longest_loss = stats.longest_loss.max(g.unsigned_abs() as u32);
                }
            }
        }
        TableFile {
            set: self.set.clone(),
            slice: count_name(k),
            indices: values.len() as u64,
            stats,
            values,
        }
    }

    /// Reads the files of counts `0..counts` on `threads` threads, each reading and inflating
    /// one count at a time, the largest first; the first error stops them.
    fn read_counts(&self, dir: &Path, counts: u32, threads: usize) -> Result<(), MarginError> {
        let threads = threads.clamp(1, counts.max(1) as usize);
        // How many counts have been taken, largest first; past every count once one failed.
        let taken = AtomicU32::new(0);
        let read = || -> Result<(), MarginError> {
            loop {
                let i = taken.fetch_add(1, Ordering::Relaxed);
                let Some(k) = counts.checked_sub(i + 1) else { return Ok(()) };
                if let Err(e) = self.read_count(&self.file(dir, k), k) {
                    taken.store(counts, Ordering::Relaxed);
                    return Err(e);
                }
            }
        };
        std::thread::scope(|scope| {
            let others: Vec<_> = (1..threads).map(|_| scope.spawn(read)).collect();
            let mut result = read();
            for h in others {
                let r = h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                result = result.and(r);
            }
            result
        })
    }

    /// Reads count `k`'s entries from `path`.
    fn read_count(&self, path: &Path, k: u32) -> Result<(), MarginError> {
        let file = read_table(path)?;
        let size = self.offsets[k as usize + 1] - self.offsets[k as usize];
        let mismatch = |reason: String| MarginError::Mismatch { path: path.to_path_buf(), reason };
        if file.set != self.set {
            return Err(mismatch(format!("a table of {}, not of {}", file.set, self.set)));
        }
        if file.slice != count_name(k) || file.indices != size {
            return Err(mismatch(format!(
                "{} with {} entries where {} has {size}",
                file.slice,
                file.indices,
                count_name(k)
            )));
        }
        let start = self.offsets[k as usize] as usize;
        for (i, &b) in file.values.iter().enumerate() {
            self.gains[start + i].store(b as i8, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// The file name (without extension) of count `k`'s table.
fn count_name(k: u32) -> String {
    format!("count-{k}")
}

impl<G: MarginIndex> std::fmt::Debug for MarginTable<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "MarginTable {{ set: {}, max_count: {}, entries: {} }}",
            self.set,
            self.max_count,
            self.gains.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{CoinRow, TurnOrder};
    use crate::solve::{SolveOptions, Solver};

    /// The final margin for the side to move, proved by the exact solver (a search, not a
    /// table).
    fn proved(game: &CoinRow, state: &<CoinRow as Game>::State) -> i32 {
        let options = SolveOptions { table_mib: 0, ..SolveOptions::default() };
        let mut solver = Solver::new(game, options).unwrap();
        solver.value(state, &|| false, &mut |_| {}).unwrap().value()
    }

    const COINS: [u8; 9] = [3, 9, 1, 6, 2, 8, 5, 4, 7];

    #[test]
    fn every_entry_is_the_proved_margin_for_every_turn_order() {
        for turns in [TurnOrder::Alternate, TurnOrder::EvenAgain, TurnOrder::ThueMorse] {
            let game = CoinRow::new(&COINS, turns).unwrap();
            for threads in [1, 2] {
                let table = MarginTable::build(&game, 9, threads, &mut |_, _| {}).unwrap();
                let mut positions = 0;
                for count in 0..=9 {
                    for index in 0..game.count_size(count) {
                        let Some(state) = game.position_at(count, index) else { continue };
                        assert_eq!(
                            table.margin(&game, &state),
                            Some(proved(&game, &state)),
                            "{turns:?}, {state:?}"
                        );
                        positions += 1;
                    }
                }
                assert!(positions > 40);
                assert_eq!(table.check(&game, u64::MAX, 0).unwrap(), positions);
            }
        }
    }

    #[test]
    fn a_smaller_table_answers_only_its_counts() {
        let game = CoinRow::new(&COINS, TurnOrder::EvenAgain).unwrap();
        let table = MarginTable::build(&game, 4, 1, &mut |_, _| {}).unwrap();
        assert_eq!(table.max_count(), 4);
        assert_eq!(table.margin(&game, &game.initial_state()), None);
        let late = game.position_at(3, 6).unwrap();
        assert_eq!(table.margin(&game, &late), Some(proved(&game, &late)));
        // Gains beyond a byte's range cannot be stored.
        assert!(MarginTable::build(&game, 200, 1, &mut |_, _| {}).is_err());
    }

    #[test]
    fn files_round_trip_resume_and_refuse_damage_or_other_games() {
        let dir = std::env::temp_dir().join(format!("ply-margin-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let game = CoinRow::new(&COINS, TurnOrder::ThueMorse).unwrap();
        let built = MarginTable::build(&game, 9, 1, &mut |_, _| {}).unwrap();
        assert!(built.save(&dir).unwrap() > 0);
        assert_eq!(MarginTable::<CoinRow>::counts_in(&game, &dir), Some(9));
        // Read on every core, each count into its own range: every entry as built.
        let read = MarginTable::open(&game, &dir, 9).unwrap();
        let gains = |t: &MarginTable<CoinRow>| {
            t.gains.iter().map(|g| g.load(Ordering::Relaxed)).collect::<Vec<_>>()
        };
        assert_eq!(gains(&read), gains(&built));
        let start = game.initial_state();
        assert_eq!(read.margin(&game, &start), built.margin(&game, &start));
        assert_eq!(
            read.check(&game, u64::MAX, 0).unwrap(),
            built.check(&game, u64::MAX, 0).unwrap()
        );

        // A build in the directory reads the counts there and computes the one removed.
        let set = dir.join(game.margin_set());
        std::fs::remove_file(set.join("count-9.plyegdb")).unwrap();
        assert_eq!(MarginTable::<CoinRow>::counts_in(&game, &dir), Some(8));
        let mut seen = Vec::new();
        let resumed = MarginTable::build_in(&game, 9, 2, &dir, &mut |k, _| seen.push(k)).unwrap();
        assert_eq!(seen, (0..=9).collect::<Vec<_>>());
        assert_eq!(gains(&resumed), gains(&built));
        assert_eq!(resumed.margin(&game, &start), built.margin(&game, &start));

        // A damaged byte is caught by the checksum.
        let path = set.join("count-5.plyegdb");
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(&path, bytes).unwrap();
        assert!(matches!(MarginTable::open(&game, &dir, 9), Err(MarginError::File(_))));

        // Another row's game finds no tables of its own there; given them, it refuses them.
        let other = CoinRow::new(&[1, 2, 3], TurnOrder::ThueMorse).unwrap();
        assert_eq!(MarginTable::<CoinRow>::counts_in(&other, &dir), None);
        std::fs::rename(&set, dir.join(other.margin_set())).unwrap();
        let err = MarginTable::open(&other, &dir, 0).unwrap_err();
        assert!(matches!(err, MarginError::Mismatch { .. }), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn check_finds_a_wrong_entry() {
        let game = CoinRow::new(&COINS, TurnOrder::Alternate).unwrap();
        let table = MarginTable::build(&game, 9, 1, &mut |_, _| {}).unwrap();
        let state = (0..).find_map(|i| game.position_at(6, i)).unwrap();
        let at = (table.offsets[6] + game.index(&state)) as usize;
        let right = table.gains[at].load(Ordering::Relaxed);
        table.gains[at].store(right + 1, Ordering::Relaxed);
        let err = table.check(&game, u64::MAX, 0).unwrap_err();
        assert!(err.to_string().contains("count 6"), "{err}");
    }
}
