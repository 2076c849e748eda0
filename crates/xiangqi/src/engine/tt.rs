//! Transposition table: two-entry buckets chosen by the key's high bits,
//! shared by every search thread without locks. An entry is two words, the
//! data and the key exclusive-or the data: a reader that meets a half-written
//! entry (another thread's store torn between the two words) sees a key that
//! does not match and ignores it. Size is set in megabytes.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::moves::Move;

/// Largest table size the protocols accept and [`TranspositionTable::new`]
/// clamps to, in megabytes. [`TranspositionTable::try_new`] takes any size and
/// fails if it cannot be had.
pub const MAX_HASH_MB: usize = 32 * 1024;

/// Entries written between two looks at the cancel callback while a new table
/// is filled (16 MB of entries at 16 bytes or fewer each).
const FILL_CHUNK: usize = 1 << 20;

/// Why [`TranspositionTable::try_new`] gave no table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashError {
    /// The allocator refused (or the size does not fit the address space).
    Unavailable { mb: usize },
    /// The cancel callback asked to give up while the table was being filled.
    Cancelled,
}

impl fmt::Display for HashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HashError::Unavailable { mb } => write!(f, "cannot allocate a {mb} MB hash table"),
            HashError::Cancelled => write!(f, "hash table allocation cancelled"),
        }
    }
}

impl std::error::Error for HashError {}

/// Kind of bound a stored score is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One entry's data, unpacked.
#[derive(Clone, Copy, Default)]
struct Data {
    mv: u16,
    score: i16,
    depth: i8,
    /// Bound in the low 2 bits (0 = empty), generation in the rest.
    flags: u8,
}

impl Data {
    fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.depth as u8 as u64) << 32
            | (self.flags as u64) << 40
    }

    fn unpack(word: u64) -> Data {
        Data {
            mv: word as u16,
            score: (word >> 16) as u16 as i16,
            depth: (word >> 32) as u8 as i8,
            flags: (word >> 40) as u8,
        }
    }
}

/// A slot: the packed [`Data`] and the position's key exclusive-or it.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

impl Entry {
    /// The slot's data if it holds `key` (and is whole).
    fn read(&self, key: u64) -> Option<Data> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (data != 0 && check ^ data == key).then(|| Data::unpack(data))
    }

    /// The slot's data, whatever position it holds (empty if none).
    fn peek(&self) -> Data {
        Data::unpack(self.data.load(Ordering::Relaxed))
    }

    fn write(&self, key: u64, data: Data) {
        let word = data.pack();
        self.data.store(word, Ordering::Relaxed);
        self.check.store(key ^ word, Ordering::Relaxed);
    }

    fn empty() -> Entry {
        Entry::default()
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// The table.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes, clamped to 1..=[`MAX_HASH_MB`]. Aborts
    /// if the memory cannot be had: for sizes a user chooses, use
    /// [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        let mb = mb.clamp(1, MAX_HASH_MB);
        let n = (mb * 1024 * 1024 / std::mem::size_of::<Entry>()).max(2);
        TranspositionTable {
            entries: (0..n).map(|_| Entry::empty()).collect(),
            generation: 0,
        }
    }

    /// A table of about `mb` megabytes (at least 1), allocated fallibly and
    /// filled in chunks, asking `cancel` between chunks whether to give up: a
    /// large table takes a while to touch, and its owner may be quitting.
    ///
    /// # Errors
    ///
    /// [`HashError::Unavailable`] if the allocator refuses the size (or it
    /// overflows the address space), [`HashError::Cancelled`] if `cancel`
    /// said so. Nothing stays allocated either way.
    pub fn try_new(mb: usize, cancel: &dyn Fn() -> bool) -> Result<TranspositionTable, HashError> {
        let mb = mb.max(1);
        let unavailable = HashError::Unavailable { mb };
        let bytes = mb.checked_mul(1024 * 1024).ok_or(unavailable)?;
        let n = (bytes / std::mem::size_of::<Entry>()).max(2);
        let mut entries = Vec::new();
        entries.try_reserve_exact(n).map_err(|_| unavailable)?;
        while entries.len() < n {
            if cancel() {
                return Err(HashError::Cancelled);
            }
            let len = (entries.len() + FILL_CHUNK).min(n);
            entries.resize_with(len, Entry::empty);
        }
        Ok(TranspositionTable {
            entries,
            generation: 0,
        })
    }

    /// The table's size in megabytes, to the nearest (entries do not fill a
    /// megabyte exactly).
    pub fn size_mb(&self) -> usize {
        let bytes = self.entries.len() * std::mem::size_of::<Entry>();
        (bytes + 512 * 1024) / (1024 * 1024)
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::empty());
        self.generation = 0;
    }

    /// Permille of sampled slots holding entries of the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = &self.entries[..self.entries.len().min(1000)];
        let used = sample
            .iter()
            .map(Entry::peek)
            .filter(|e| e.flags & 3 != 0 && e.flags & !3 == self.generation)
            .count();
        (used * 1000 / sample.len().max(1)) as u32
    }

    /// Marks the start of a new search (older entries are replaced first).
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(4);
    }

    /// First slot of the two-entry bucket for a key. The bucket comes from the
    /// high bits of the key and the stored check from the low bits, so the two
    /// are independent.
    fn bucket(&self, key: u64) -> usize {
        let buckets = (self.entries.len() / 2).max(1);
        (((key as u128 * buckets as u128) >> 64) as usize) * 2
    }

    /// Looks a position up.
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        let e = self
            .entries
            .get(b..b + 2)?
            .iter()
            .find_map(|e| e.read(key))?;
        let bound = match e.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv: Move::from_u16(e.mv),
            score: e.score as i32,
            depth: e.depth as i32,
            bound,
        })
    }

    /// Stores a result. In its bucket it replaces the same position, else the
    /// entry from an older search or, failing that, the shallower one.
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let generation = self.generation;
        let Some(pair) = self.entries.get(b..b + 2) else {
            return;
        };
        let (slot, old) = match pair
            .iter()
            .enumerate()
            .find_map(|(i, e)| Some((i, e.read(key)?)))
        {
            Some((i, old)) => (i, Some(old)),
            None => {
                // Lower is a better victim: empty, then older search, then shallower.
                let worth = |e: &Entry| {
                    let d = e.peek();
                    if d.flags & 3 == 0 {
                        -1000
                    } else {
                        d.depth as i32 + if d.flags & !3 == generation { 100 } else { 0 }
                    }
                };
                let i = if worth(&pair[0]) <= worth(&pair[1]) {
                    0
                } else {
                    1
                };
                (i, None)
            }
        };
        let flag = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let mv = match (mv, old) {
            (Some(m), _) => m.to_u16(),
            (None, Some(old)) => old.mv,
            (None, None) => 0,
        };
        pair[slot].write(
            key,
            Data {
                mv,
                score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: depth.clamp(-1, 127) as i8,
                flags: generation | flag,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        let m = Move::new(Square::idx(20), Square::idx(29));
        let key = 0x1234_5678_9ABC_DEF0;
        assert!(tt.probe(key).is_none());
        tt.store(key, Some(m), -321, 7, Bound::Lower);
        let hit = tt.probe(key).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (Some(m), -321, 7, Bound::Lower)
        );
        // Same high bits (same bucket), different low bits: a different position.
        assert!(tt.probe(key ^ 1).is_none());
        // Two positions share a bucket; a third replaces the shallower one.
        tt.store(key ^ 1, None, 5, 3, Bound::Exact);
        assert!(tt.probe(key).is_some() && tt.probe(key ^ 1).is_some());
        tt.new_search();
        tt.store(key ^ 2, None, 9, 1, Bound::Upper);
        assert!(tt.probe(key ^ 2).is_some());
        assert!(tt.probe(key).is_some(), "the deeper entry stays");
        assert!(tt.probe(key ^ 1).is_none());
        // Storing without a move keeps the old move of the same position.
        tt.store(key, None, 0, 8, Bound::Exact);
        assert_eq!(tt.probe(key).unwrap().mv, Some(m));
        tt.clear();
        assert!(tt.probe(key).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn threads_sharing_a_table_never_read_another_positions_entry() {
        // A tiny table, so that the threads keep overwriting each other's
        // buckets; each position's score is a function of its key.
        let tt = TranspositionTable::new(1);
        let score_of = |key: u64| (key % 20_000) as i32 - 10_000;
        let key_of = |thread: u64, i: u64| (thread << 56 | i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        std::thread::scope(|scope| {
            for thread in 0..2 {
                let tt = &tt;
                scope.spawn(move || {
                    for i in 0..200_000 {
                        let key = key_of(thread, i % 70_000);
                        if let Some(hit) = tt.probe(key) {
                            assert_eq!(hit.score, score_of(key));
                        }
                        tt.store(key, None, score_of(key), (i % 20) as i32, Bound::Exact);
                    }
                });
            }
        });
    }

    #[test]
    fn sizes_that_cannot_be_had_are_errors_not_aborts() {
        // Overflows the byte count; then more than any address space holds.
        for mb in [usize::MAX, 1 << 40] {
            assert_eq!(
                TranspositionTable::try_new(mb, &|| false).err(),
                Some(HashError::Unavailable { mb })
            );
        }
        let tt = TranspositionTable::try_new(2, &|| false).unwrap();
        assert_eq!(tt.size_mb(), 2);
        assert!(tt.probe(42).is_none());
        assert_eq!(
            TranspositionTable::try_new(64, &|| true).err(),
            Some(HashError::Cancelled)
        );
        assert_eq!(
            TranspositionTable::try_new(0, &|| false).unwrap().size_mb(),
            1
        );
    }
}
