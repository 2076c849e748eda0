//! Transposition table: one entry per slot, indexed by the low bits of the key and
//! verified with the high 32 bits. Size is set in megabytes.

use crate::moves::Move;

/// Largest table size accepted, in megabytes.
pub const MAX_HASH_MB: usize = 32 * 1024;

/// Kind of bound a stored score is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    check: u32,
    mv: u16,
    score: i16,
    depth: i8,
    /// Bound in the low 2 bits, generation in the rest.
    flags: u8,
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
    /// A table of about `mb` megabytes, clamped to 1..=[`MAX_HASH_MB`].
    pub fn new(mb: usize) -> TranspositionTable {
        let mb = mb.clamp(1, MAX_HASH_MB);
        let n = (mb * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1);
        TranspositionTable {
            entries: vec![Entry::default(); n],
            generation: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
        self.generation = 0;
    }

    /// Permille of sampled slots holding entries of the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = &self.entries[..self.entries.len().min(1000)];
        let used = sample
            .iter()
            .filter(|e| e.flags & 3 != 0 && e.flags & !3 == self.generation)
            .count();
        (used * 1000 / sample.len().max(1)) as u32
    }

    /// Marks the start of a new search (older entries are replaced first).
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(4);
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// Looks a position up.
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = self.entries.get(self.index(key))?;
        if e.flags & 3 == 0 || e.check != (key >> 32) as u32 {
            return None;
        }
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

    /// Stores a result, keeping deeper results of the current search.
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let i = self.index(key);
        let generation = self.generation;
        let Some(e) = self.entries.get_mut(i) else {
            return;
        };
        let same = e.check == (key >> 32) as u32;
        let old_gen = e.flags & !3 != generation;
        if !same && !old_gen && (e.depth as i32) > depth + 2 {
            return;
        }
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let mv = match (mv, same) {
            (Some(m), _) => m.to_u16(),
            (None, true) => e.mv,
            (None, false) => 0,
        };
        *e = Entry {
            check: (key >> 32) as u32,
            mv,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-1, 127) as i8,
            flags: generation | b,
        };
    }
}
