//! [`SolverCache`]: what Kalah's own exact search ([`Game::solve_endgame`]) has proven about
//! the positions it searched, shared by every call and thread.
//!
//! The exact search works on the *gain* of a position (its final margin under perfect play
//! minus its store difference, both for the side to move), which depends on the houses and
//! the player to move alone; mirrored, on the mover's houses and the opponent's. So one entry
//! serves every position with the same houses, whatever the stores hold: the transpositions
//! the search's own table (which must key the stores too) cannot see.
//!
//! Each entry is one `u64` written with a relaxed atomic store, so threads share the cache
//! without locks and a reader never sees half an entry: a valid bit, 43 bits of the
//! position's hash, the index of the best move (15 for none), and a lower and an upper bound
//! of the gain (a byte each, offset by 128). Bounds are facts, so a lost update only loses
//! information.
//!
//! [`Game::solve_endgame`]: ply::Game::solve_endgame

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use ply::zobrist::{fold_words, splitmix64};

use crate::rules::KalahState;

/// The seed of the cache's hash.
const SEED: u64 = splitmix64(0x6b61_6c61_6800_0003).1;

/// The valid bit of an entry.
const VALID: u64 = 1 << 63;
/// The hash bits kept in an entry.
const CHECK: u64 = ((1 << 43) - 1) << 20;
/// The move index of an entry without a best move.
pub(crate) const NO_MOVE: u8 = 15;

/// A fixed-size, lock-free table of bounds on the gains of positions (see the module
/// documentation).
///
/// ```
/// use std::sync::Arc;
/// use ply::{Game, Notation, Solved, SolverBudget};
/// use ply_kalah::{Kalah, SolverCache};
///
/// let cache = Arc::new(SolverCache::new(16));
/// let game = Kalah::standard().with_exact_seeds(Some(12)).with_cache(cache.clone());
/// let state = game.parse_state("1,0,0,1,2,5/20/1,0,0,0,1,1/16 s")?;
/// let mut budget = SolverBudget::unlimited();
/// assert_eq!(game.solve_endgame(&state, -100, 100, &mut budget), Some(Solved::Margin(12)));
/// assert!(cache.filled() > 0);
/// # Ok::<(), ply_kalah::Error>(())
/// ```
pub struct SolverCache {
    entries: Vec<AtomicU64>,
    mask: u64,
}

/// What the cache knows of a position: bounds of its gain and the best move's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Known {
    pub(crate) low: i32,
    pub(crate) high: i32,
    pub(crate) best: u8,
}

impl SolverCache {
    /// A cache of `2^bits` entries (8 bytes each; `bits` is clamped to 10..=32).
    pub fn new(bits: u32) -> SolverCache {
        let bits = bits.clamp(10, 32);
        SolverCache {
            entries: (0..1u64 << bits).map(|_| AtomicU64::new(0)).collect(),
            mask: (1 << bits) - 1,
        }
    }

    /// A cache of about `mib` MiB (the largest power of two of entries that fits).
    pub fn with_mib(mib: usize) -> SolverCache {
        let entries = (mib.max(1) as u64 * (1 << 20) / 8).max(1024);
        SolverCache::new(63 - entries.leading_zeros())
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always false: a cache has at least 1024 entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in use.
    pub fn filled(&self) -> usize {
        self.entries.iter().filter(|e| e.load(Ordering::Relaxed) & VALID != 0).count()
    }

    /// The hash of `state`'s houses, the mover's first.
    #[inline]
    pub(crate) fn key(state: &KalahState) -> u64 {
        let me = state.side_to_move();
        let mine = u64::from_le_bytes(*state.houses_of(me));
        let theirs = u64::from_le_bytes(*state.houses_of(me.opponent()));
        fold_words(SEED, &[mine, theirs])
    }

    /// What is known of the position with hash `key`.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Known> {
        let e = self.entries[(key & self.mask) as usize].load(Ordering::Relaxed);
        if e & VALID == 0 || (e & CHECK) != (key & CHECK) {
            return None;
        }
        Some(Known {
            low: i32::from((e >> 8) as u8) - 128,
            high: i32::from(e as u8) - 128,
            best: ((e >> 16) & 15) as u8,
        })
    }

    /// Records bounds `[low, high]` of the gain of the position with hash `key` (within
    /// `±127`) and its best move, tightening what was known of the same position.
    #[inline]
    pub(crate) fn store(&self, key: u64, mut known: Known) {
        if let Some(old) = self.probe(key) {
            known.low = known.low.max(old.low);
            known.high = known.high.min(old.high);
            if known.best == NO_MOVE {
                known.best = old.best;
            }
        }
        let byte = |v: i32| (v.clamp(-128, 127) + 128) as u64;
        let e = VALID
            | (key & CHECK)
            | u64::from(known.best & 15) << 16
            | byte(known.low) << 8
            | byte(known.high);
        self.entries[(key & self.mask) as usize].store(e, Ordering::Relaxed);
    }
}

impl fmt::Debug for SolverCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SolverCache {{ entries: {} }}", self.entries.len())
    }
}

/// Caches are equal when they have the same size (they only speed searches up).
impl PartialEq for SolverCache {
    fn eq(&self, other: &SolverCache) -> bool {
        self.entries.len() == other.entries.len()
    }
}

impl Eq for SolverCache {}
