//! The proof table: bounds on exact values, shared by every proving thread without locks.
//!
//! Each bucket holds two slots: a *deep* one, kept for the entry whose proof cost the most
//! work, and a *recent* one, always replaced. An entry is two relaxed atomic words, the data
//! and the key xor the data, so a reader that sees a torn write finds a key that does not
//! match and ignores it. Bounds are facts, so a lost update only loses information; a store
//! for a key already present narrows its bounds instead of replacing them.
//!
//! The buckets lie on 2 MiB pages where the system allows ([`crate::memory`]), and the
//! prover fetches a bucket ahead of its probe ([`ProofTable::prefetch`]).

use std::sync::atomic::{AtomicU64, Ordering};

/// No best move.
pub(crate) const NO_MOVE: u8 = u8::MAX;

/// What the table knows of a position: bounds of its value (for the player to move), the
/// index of its best move among the generated ones, and the work its proof cost (the log2 of
/// the positions it visited).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub lower: i16,
    pub upper: i16,
    pub best: u8,
    pub work: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.work) << 40
            | 1 << 48
    }

    fn unpack(data: u64) -> Option<Entry> {
        (data >> 48 & 1 == 1).then_some(Entry {
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (data >> 32) as u8,
            work: (data >> 40) as u8,
        })
    }
}

/// One slot: the data and the key xor the data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    fn read(&self, key: u64) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        Entry::unpack(data)
    }

    fn write(&self, key: u64, entry: Entry) {
        let data = entry.pack();
        self.data.store(data, Ordering::Relaxed);
        self.check.store(key ^ data, Ordering::Relaxed);
    }

    fn work(&self) -> Option<u8> {
        Entry::unpack(self.data.load(Ordering::Relaxed)).map(|e| e.work)
    }
}

/// Two slots, the deep one first, on one cache line.
#[derive(Default)]
#[repr(align(32))]
struct Bucket([Slot; 2]);

/// A fixed-size two-tier table of proof bounds (see the module documentation).
pub(crate) struct ProofTable {
    buckets: Vec<Bucket>,
}

/// Bytes of one bucket (two slots of two words).
const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

impl ProofTable {
    /// A table of at most `mib` MiB (at least one bucket).
    pub fn with_mib(mib: usize) -> ProofTable {
        let count = ((mib << 20) / BUCKET_BYTES).max(1);
        ProofTable { buckets: crate::memory::huge_page_vec(count, Bucket::default) }
    }

    /// The bytes the table holds.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    fn bucket(&self, key: u64) -> &[Slot; 2] {
        let index = (u128::from(key) * self.buckets.len() as u128) >> 64;
        &self.buckets[index as usize].0
    }

    /// Starts fetching `key`'s bucket from memory, for a probe soon after.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::memory::prefetch(self.bucket(key));
    }

    /// What the table knows of `key`.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [deep, recent] = self.bucket(key);
        deep.read(key).or_else(|| recent.read(key))
    }

    /// Records `entry` for `key`, narrowing the bounds already known for it; the deep slot
    /// keeps the costlier proof, the recent slot takes whatever the deep one does not.
    pub fn store(&self, key: u64, mut entry: Entry) {
        let bucket = self.bucket(key);
        for slot in bucket {
            if let Some(known) = slot.read(key) {
                let lower = entry.lower.max(known.lower);
                let upper = entry.upper.min(known.upper);
                // Contradicting bounds (a repetition scored differently on another path):
                // the new proof wins.
                if lower <= upper {
                    entry.lower = lower;
                    entry.upper = upper;
                }
                if entry.best == NO_MOVE {
                    entry.best = known.best;
                }
                entry.work = entry.work.max(known.work);
                slot.write(key, entry);
                return;
            }
        }
        let [deep, recent] = bucket;
        match deep.work() {
            Some(work) if work > entry.work => recent.write(key, entry),
            _ => deep.write(key, entry),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(lower: i16, upper: i16, work: u8) -> Entry {
        Entry { lower, upper, best: 3, work }
    }

    #[test]
    fn entries_pack_every_field() {
        for e in [entry(-30000, 30000, 0), entry(-1, 7, 255), entry(5, 5, 12)] {
            assert_eq!(Entry::unpack(e.pack()), Some(e));
        }
        assert_eq!(Entry::unpack(0), None);
    }

    #[test]
    fn stores_narrow_and_the_deep_slot_keeps_the_costlier_proof() {
        let table = ProofTable::with_mib(0);
        assert_eq!(table.bytes(), BUCKET_BYTES);
        table.store(1, entry(-10, 10, 20));
        table.store(1, Entry { best: NO_MOVE, ..entry(2, 40, 3) });
        assert_eq!(table.probe(1), Some(entry(2, 10, 20)));
        // Another key goes to the recent slot, then replaces it; the deep entry stays.
        table.store(2, entry(0, 0, 4));
        table.store(3, entry(1, 1, 5));
        assert_eq!(table.probe(1), Some(entry(2, 10, 20)));
        assert_eq!(table.probe(2), None);
        assert_eq!(table.probe(3), Some(entry(1, 1, 5)));
        // A costlier proof takes the deep slot.
        table.store(4, entry(-3, -3, 30));
        assert_eq!(table.probe(4), Some(entry(-3, -3, 30)));
        assert_eq!(table.probe(1), None);
    }
}
