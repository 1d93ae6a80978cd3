//! A fixed-size transposition table shared by the alpha-beta family.
//!
//! The table is a power-of-two array of two-slot buckets, allocated once at construction (or
//! [`TranspositionTable::resize`]) and never during search, each bucket on a 64-byte cache line
//! of its own and the whole on large pages where the system gives them; a search asks for a
//! child's bucket ([`TranspositionTable::prefetch`]) before it enters the child. Slot 0 of a
//! bucket is *depth-preferred*: a new entry replaces it only if it comes from the same position, from an
//! older search (generation), or from a search at least as deep; an entry of the current
//! search that it displaces moves to slot 1. Otherwise the new entry goes to slot 1, which is
//! *always replaced*.
//!
//! Moves are stored as their index in the deterministic list that [`crate::Game::generate_moves`]
//! fills, so one table serves every game. Scores are the game's [`Score`] type `S`, kept in a
//! 64-bit word whatever `S` is: integer types (`i16`, `i32`, `i64`) as an `i64`, other types as
//! an `f64`, both exact for the bundled score types. The storage does not depend on `S`, so an
//! agent that is not generic over the game keeps one table for every game it plays (the search
//! turns it into a table of the game's score type with [`TranspositionTable::retype`]). Proven
//! scores are stored relative to the node ([`score_to_tt`]) and turned back into distances from
//! the root on loading ([`score_from_tt`]).
//!
//! Probes and stores take `&self`, so threads of a parallel search share one table without
//! locks. Each slot is three 64-bit words stored with relaxed atomics (plain moves on common
//! hardware); the key word is kept xor-ed with the other two, so a slot caught half-written
//! reads as a miss, never as a wrong entry (the "lockless hashing" of Hyatt and Mann).
//!
//! ```
//! use ply::search::tt::{Bound, TranspositionTable};
//!
//! let mut tt: TranspositionTable<i32> = TranspositionTable::new(1);
//! tt.new_search();
//! tt.store(0xdead_beef, 17, 5, Bound::Exact, Some(2));
//! let e = tt.probe(0xdead_beef, true).unwrap();
//! assert_eq!((e.score, e.depth, e.bound, e.best), (17, 5, Bound::Exact, Some(2)));
//! assert!(tt.probe(0x1234, true).is_none());
//! ```

use std::marker::PhantomData;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use num_traits::NumCast;

use crate::game::Score;

/// What a stored score says about the true value of its position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is the value (at the stored depth).
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<S> {
    /// The full 64-bit position hash, checked on every probe.
    pub key: u64,
    /// The score, relative to the node (see [`score_to_tt`]).
    pub score: S,
    /// The remaining depth the score was searched to.
    pub depth: u8,
    /// What kind of bound the score is.
    pub bound: Bound,
    /// The index of the best move in the position's generated move list.
    pub best: Option<u16>,
    /// True if the score depends on a heuristic evaluation somewhere below (false: it follows
    /// from terminal positions only, so it is the game-theoretic value).
    pub heuristic: bool,
    /// The search (see [`TranspositionTable::generation`]) that stored the entry.
    pub generation: u32,
}

const NO_MOVE: u16 = u16::MAX;

/// True for an integer score type: half a unit rounds to zero (folds to a constant).
#[inline(always)]
fn integral<S: Score>() -> bool {
    S::from_f64(0.5) == S::zero()
}

/// `score` as a 64-bit word: an `i64` for integer types, the bits of an `f64` otherwise.
#[inline(always)]
fn pack<S: Score>(score: S) -> u64 {
    if integral::<S>() {
        score.to_i64().unwrap_or(0) as u64
    } else {
        score.to_f64().to_bits()
    }
}

/// The inverse of [`pack`].
#[inline(always)]
fn unpack<S: Score>(word: u64) -> S {
    if integral::<S>() {
        <S as NumCast>::from(word as i64).unwrap_or_else(S::zero)
    } else {
        S::from_f64(f64::from_bits(word))
    }
}

/// One entry as plain data.
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    /// The score, [`pack`]ed.
    score: u64,
    generation: u32,
    best: u16,
    depth: u8,
    // Bits 0-1: bound; bit 2: heuristic.
    flags: u8,
}

impl Slot {
    const EMPTY: Slot = Slot { key: 0, score: 0, generation: 0, best: NO_MOVE, depth: 0, flags: 0 };

    /// Generation, best move, depth and flags in one word.
    #[inline(always)]
    fn meta(&self) -> u64 {
        self.generation as u64
            | (self.best as u64) << 32
            | (self.depth as u64) << 48
            | (self.flags as u64) << 56
    }

    #[inline]
    fn entry<S: Score>(&self) -> Entry<S> {
        Entry {
            key: self.key,
            score: unpack(self.score),
            depth: self.depth,
            bound: match self.flags & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: (self.best != NO_MOVE).then_some(self.best),
            heuristic: self.flags & 4 != 0,
            generation: self.generation,
        }
    }
}

/// One entry as the table stores it: three words written and read without locks. The first
/// word is the key xor the other two, so a slot read while another thread writes it (some
/// words old, some new) yields a key that matches nothing and reads as a miss.
#[derive(Default)]
struct AtomicSlot {
    check: AtomicU64,
    score: AtomicU64,
    meta: AtomicU64,
}

impl AtomicSlot {
    #[inline(always)]
    fn load(&self) -> Slot {
        let score = self.score.load(Relaxed);
        let meta = self.meta.load(Relaxed);
        let key = self.check.load(Relaxed) ^ score ^ meta;
        Slot {
            key,
            score,
            generation: meta as u32,
            best: (meta >> 32) as u16,
            depth: (meta >> 48) as u8,
            flags: (meta >> 56) as u8,
        }
    }

    #[inline(always)]
    fn save(&self, slot: &Slot) {
        let meta = slot.meta();
        self.score.store(slot.score, Relaxed);
        self.meta.store(meta, Relaxed);
        self.check.store(slot.key ^ slot.score ^ meta, Relaxed);
    }

    fn reset(&mut self) {
        *self.check.get_mut() = 0;
        *self.score.get_mut() = 0;
        *self.meta.get_mut() = 0;
    }
}

/// Two slots on one 64-byte cache line of their own (48 bytes of slots, aligned): a probe
/// reads one line from memory, never two.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([AtomicSlot; 2]);

/// A fixed-size hash table of search results for scores of type `S`; see the
/// [module docs](self).
pub struct TranspositionTable<S> {
    buckets: Vec<Bucket>,
    generation: u32,
    _score: PhantomData<fn(S) -> S>,
}

/// The bytes of memory the system reports available for new allocations, where it says
/// (`MemAvailable` of `/proc/meminfo` on Linux).
fn available_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

impl<S> TranspositionTable<S> {
    /// The same table, entries and all, for scores of type `T`. Entries stored as another
    /// type read back as nonsense: retype only a table whose entries are of an earlier search
    /// (which probes ignore) or that is [`TranspositionTable::clear`]ed.
    pub fn retype<T>(self) -> TranspositionTable<T> {
        TranspositionTable {
            buckets: self.buckets,
            generation: self.generation,
            _score: PhantomData,
        }
    }

    /// The size in bytes of the table's entries.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// A table of at most `mib` mebibytes (at least one bucket), rounded down to a power of two
    /// number of buckets.
    pub fn new(mib: usize) -> Self {
        let mut t = TranspositionTable { buckets: Vec::new(), generation: 1, _score: PhantomData };
        t.resize(mib);
        t
    }

    /// Reallocates the table for `mib` mebibytes, dropping every entry. A size the machine
    /// cannot hold does not abort the program: the table takes at most half the memory the
    /// system reports available (Linux's `MemAvailable`), and halves again while the
    /// allocator refuses it; [`TranspositionTable::bytes`] tells what it got.
    pub fn resize(&mut self, mib: usize) {
        self.resize_within(mib, available_memory());
    }

    /// [`TranspositionTable::resize`] with `limit` bytes of memory available.
    fn resize_within(&mut self, mib: usize, limit: Option<usize>) {
        let bytes = mib.saturating_mul(1 << 20);
        let bytes = limit.map_or(bytes, |free| bytes.min(free / 2));
        let per = std::mem::size_of::<Bucket>().max(1);
        let n = (bytes / per).max(1);
        let mut n = if n.is_power_of_two() { n } else { n.next_power_of_two() / 2 };
        // Large pages where the system gives them: a probe then rarely misses the address
        // translation cache as well as the data cache.
        self.buckets = loop {
            match crate::memory::try_huge_page_vec(n, Bucket::default) {
                Some(buckets) => break buckets,
                None if n > 1 => n /= 2,
                None => break crate::memory::huge_page_vec(1, Bucket::default),
            }
        };
        self.generation = 1;
    }

    /// The number of entries (two per bucket).
    pub fn capacity(&self) -> usize {
        self.buckets.len() * 2
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().flat_map(|b| &mut b.0).for_each(AtomicSlot::reset);
        self.generation = 1;
    }
}

impl<S: Score> TranspositionTable<S> {
    /// Starts a new search: entries stored from now on belong to a new generation, and older
    /// ones become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Generation 0 marks empty slots; after four billion searches, start over.
            self.clear();
        }
    }

    /// The current generation.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Low bits pick the bucket; the full key is checked against the slot.
        (key as usize) & (self.buckets.len() - 1)
    }

    /// Starts loading the bucket of `key` into the processor's caches, so that a probe or
    /// store of it soon after does not wait for memory. A hint: nothing observable changes.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::memory::prefetch(&self.buckets[self.bucket(key)]);
    }

    /// The entry for `key`, if stored. With `current_only`, entries from earlier searches are
    /// ignored (this makes a search independent of what came before it).
    #[inline]
    pub fn probe(&self, key: u64, current_only: bool) -> Option<Entry<S>> {
        let b = &self.buckets[self.bucket(key)];
        b.0.iter()
            .map(AtomicSlot::load)
            .find(|s| {
                s.key == key
                    && s.generation != 0
                    && (!current_only || s.generation == self.generation)
            })
            .map(|s| s.entry())
    }

    /// Stores a result; see the [module docs](self) for the replacement scheme.
    #[inline]
    pub fn store(&self, key: u64, score: S, depth: u8, bound: Bound, best: Option<u16>) {
        self.store_flagged(key, score, depth, bound, best, true);
    }

    /// Stores a result, saying whether its score depends on a heuristic evaluation. Threads
    /// may store and probe at once: a slot read while it is written reads as a miss, and of
    /// two writes racing for one bucket either may win.
    #[inline]
    pub fn store_flagged(
        &self,
        key: u64,
        score: S,
        depth: u8,
        bound: Bound,
        best: Option<u16>,
        heuristic: bool,
    ) {
        let generation = self.generation;
        let bucket = &self.buckets[self.bucket(key)].0;
        let flags = match bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        } | if heuristic { 4 } else { 0 };
        let score = pack(score);
        let mut new = Slot { key, score, generation, best: best.unwrap_or(NO_MOVE), depth, flags };
        let preferred = bucket[0].load();
        let other = bucket[1].load();
        if new.best == NO_MOVE {
            // Keep a known best move when the new result has none for the same position.
            if let Some(old) = [preferred, other].iter().find(|s| s.key == key && s.generation != 0)
            {
                new.best = old.best;
            }
        }
        let take_preferred = preferred.generation == 0
            || preferred.key == key
            || preferred.generation != generation
            || depth >= preferred.depth;
        if take_preferred {
            if preferred.key != key && preferred.generation == generation {
                // The displaced entry of this search moves to the always-replace slot.
                bucket[1].save(&preferred);
            } else if other.key == key {
                // One position, one slot.
                bucket[1].save(&Slot::EMPTY);
            }
            bucket[0].save(&new);
        } else {
            bucket[1].save(&new);
        }
    }

    /// How full the table is with entries of the current search, in permille, sampled over the
    /// first thousand buckets.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000);
        let used = self.buckets[..n]
            .iter()
            .flat_map(|b| &b.0)
            .filter(|s| s.load().generation == self.generation)
            .count();
        (used * 1000 / (2 * n)) as u32
    }
}

impl<S> std::fmt::Debug for TranspositionTable<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.buckets.len())
            .field("generation", &self.generation)
            .finish()
    }
}

/// A score searched at `ply` plies from the root, made relative to the node for storing: a win
/// in `n` plies from the root is a win in `n - ply` from the node.
#[inline]
pub fn score_to_tt<S: Score>(score: S, ply: usize) -> S {
    let p = S::from_f64(ply as f64);
    if score >= S::WIN_RANGE {
        score + p
    } else if score <= -S::WIN_RANGE {
        score - p
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`]: a stored score loaded at `ply` plies from the root.
#[inline]
pub fn score_from_tt<S: Score>(score: S, ply: usize) -> S {
    let p = S::from_f64(ply as f64);
    if score >= S::WIN_RANGE {
        score - p
    } else if score <= -S::WIN_RANGE {
        score + p
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table larger than the memory available (or than the address space) is cut to fit,
    /// instead of aborting the program.
    #[test]
    fn a_table_larger_than_memory_is_cut_to_fit() {
        let mut t = TranspositionTable::<i32>::new(1);
        t.resize_within(usize::MAX, Some(4 << 20));
        assert!(t.bytes() <= 2 << 20 && t.capacity() >= 2, "{} bytes", t.bytes());
        t.resize_within(64, Some(1 << 40));
        let fits = t.bytes();
        t.resize_within(64, None);
        assert_eq!(fits, t.bytes());
        assert!(fits > 32 << 20 && fits <= 64 << 20, "{fits}");
        assert!(available_memory().is_none_or(|b| b > 0));
    }

    /// A one-bucket table, so every key collides.
    fn tiny() -> TranspositionTable<i32> {
        let mut t = TranspositionTable::new(0);
        assert_eq!(t.capacity(), 2);
        t.new_search();
        t
    }

    #[test]
    fn sizes_are_powers_of_two() {
        let t: TranspositionTable<i32> = TranspositionTable::new(1);
        assert!(t.capacity().is_power_of_two());
        assert!(t.bytes() <= 1 << 20);
        assert_eq!(std::mem::size_of::<AtomicSlot>(), 24);
        let t: TranspositionTable<f64> = TranspositionTable::new(3);
        assert!(t.bytes() <= 3 << 20 && t.bytes() > 1 << 20);
    }

    #[test]
    fn every_score_type_round_trips_exactly() {
        fn round<S: Score>(values: &[S]) {
            for &v in values {
                assert_eq!(unpack::<S>(pack(v)), v, "{v:?}");
            }
        }
        round(&[0i16, -7, i16::win_in(3), -i16::win_in(0), i16::MIN, i16::MAX]);
        round(&[0i32, 12345, -i32::win_in(999), i32::WIN_RANGE - 1, i32::MIN]);
        round(&[i64::win_in(3), i64::win_in(4), -i64::win_in(1000), i64::MAX, i64::MIN]);
        round(&[0.0f32, -1.5, 1e-7, f32::win_in(2)]);
        round(&[0.1f64, -2.5e300, f64::win_in(7), -f64::WIN_RANGE]);
        let mut t: TranspositionTable<i64> = TranspositionTable::new(0);
        t.new_search();
        t.store(3, i64::win_in(5), 2, Bound::Lower, None);
        assert_eq!(t.probe(3, true).unwrap().score, i64::win_in(5));
    }

    #[test]
    fn deeper_entry_keeps_the_preferred_slot() {
        let t = tiny();
        t.store(1, 10, 8, Bound::Exact, Some(0));
        t.store(2, 20, 3, Bound::Lower, Some(1));
        t.store(3, 30, 2, Bound::Upper, None);
        // Key 1 is deeper, so it stays; 3 replaced 2 in the always-replace slot.
        assert_eq!(t.probe(1, true).unwrap().score, 10);
        assert!(t.probe(2, true).is_none());
        assert_eq!(t.probe(3, true).unwrap().bound, Bound::Upper);
    }

    #[test]
    fn older_generation_is_replaced_first() {
        let mut t = tiny();
        t.store(1, 10, 8, Bound::Exact, None);
        t.new_search();
        assert!(t.probe(1, true).is_none());
        assert_eq!(t.probe(1, false).unwrap().score, 10);
        t.store(2, 20, 1, Bound::Exact, None);
        assert!(t.probe(1, false).is_none());
        assert_eq!(t.probe(2, true).unwrap().depth, 1);
    }

    #[test]
    fn same_position_updates_in_place_and_keeps_its_move() {
        let t = tiny();
        t.store(1, 10, 8, Bound::Exact, Some(4));
        t.store(2, 20, 9, Bound::Exact, Some(1));
        // Key 2 went to the preferred slot (deeper), key 1 to the always-replace slot.
        t.store(1, 11, 9, Bound::Lower, None);
        let e = t.probe(1, true).unwrap();
        assert_eq!((e.score, e.best, e.bound), (11, Some(4), Bound::Lower));
        assert_eq!(t.probe(2, true).unwrap().score, 20);
    }

    #[test]
    fn heuristic_flag_round_trips() {
        let t = tiny();
        t.store_flagged(5, 0, 3, Bound::Exact, None, false);
        assert!(!t.probe(5, true).unwrap().heuristic);
        t.store(5, 0, 3, Bound::Exact, None);
        assert!(t.probe(5, true).unwrap().heuristic);
    }

    #[test]
    fn mate_scores_are_node_relative() {
        let win = i32::win_in(7);
        let stored = score_to_tt(win, 3);
        assert_eq!(stored, i32::win_in(4));
        assert_eq!(score_from_tt(stored, 5), i32::win_in(9));
        assert_eq!(score_from_tt(score_to_tt(-win, 3), 3), -win);
        assert_eq!(score_to_tt(123, 9), 123);
        let f = f64::win_in(10);
        assert_eq!(score_from_tt(score_to_tt(f, 4), 4), f);
    }

    #[test]
    fn clear_forgets() {
        let mut t = tiny();
        t.store(9, 1, 1, Bound::Exact, None);
        assert!(t.hashfull() > 0);
        t.clear();
        assert!(t.probe(9, false).is_none());
    }

    /// Threads storing and probing one bucket at once never read a torn entry: every entry
    /// of key `k` carries a score and depth derived from `k`, and every hit must show them.
    #[test]
    fn concurrent_stores_never_read_torn() {
        let mut t: TranspositionTable<i64> = TranspositionTable::new(0);
        t.new_search();
        let t = &t;
        let derived =
            |k: u64| ((k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) as i64, (k % 200) as u8);
        let hits: u64 = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4u64)
                .map(|w| {
                    scope.spawn(move || {
                        let mut hits = 0;
                        for i in 0..200_000u64 {
                            let k = 1 + (i * 4 + w) % 64;
                            let (score, depth) = derived(k);
                            t.store(k, score, depth, Bound::Exact, Some(k as u16));
                            let probe = 1 + (i * 7 + w * 3) % 64;
                            if let Some(e) = t.probe(probe, true) {
                                assert_eq!((e.score, e.depth), derived(probe), "key {probe}");
                                assert_eq!(e.best, Some(probe as u16));
                                hits += 1;
                            }
                        }
                        hits
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        assert!(hits > 0);
    }
}
