//! Zobrist keys: one random 64-bit number per (box, cell) and per player
//! cell, XORed together so a push updates the hash in O(1).

pub(crate) struct Zobrist {
    boxes: Vec<u64>,
    player: Vec<u64>,
}

/// SplitMix64: a fixed, well-mixed stream, so hashes are reproducible.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Zobrist {
    pub fn new(cells: usize) -> Zobrist {
        let mut state = 0x5eed_50c0_ba11_u64;
        Zobrist {
            boxes: (0..cells).map(|_| splitmix(&mut state)).collect(),
            player: (0..cells).map(|_| splitmix(&mut state)).collect(),
        }
    }

    #[inline]
    pub fn boxed(&self, cell: u16) -> u64 {
        self.boxes[usize::from(cell)]
    }

    #[inline]
    pub fn player(&self, cell: u16) -> u64 {
        self.player[usize::from(cell)]
    }

    pub fn boxes_hash(&self, boxes: &[u16]) -> u64 {
        boxes.iter().fold(0, |h, &b| h ^ self.boxed(b))
    }

    /// The same hash for boxes given as a bitset.
    pub fn set_hash(&self, set: &[u64]) -> u64 {
        let mut hash = 0;
        for (i, &word) in set.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                hash ^= self.boxed((i * 64 + w.trailing_zeros() as usize) as u16);
                w &= w - 1;
            }
        }
        hash
    }
}
