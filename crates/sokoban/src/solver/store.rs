//! The node store: every position the search has met, packed in flat
//! arrays (box bitset words, player cell, parent, cost, the push that led
//! here) with an open-addressing hash index. Its size is capped by a memory
//! budget; when the cap is reached the search stops with "out of memory"
//! instead of letting the process be killed.

/// The push that made a node from its parent: the box's cell before it,
/// the direction, and how many cells it travelled (macros push further).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Push {
    pub from: u16,
    pub dir: u8,
    pub count: u16,
}

pub(crate) const NO_PARENT: u32 = u32::MAX;

/// Bytes one node costs beyond its bitset: fields, two index slots, and
/// about one open-list entry.
const NODE_OVERHEAD: usize = 2 + 4 + 8 + 6 + 1 + 8 + 2 * 4 + 32;

pub(crate) struct Store {
    words: usize,
    boxes: Vec<u64>,
    player: Vec<u16>,
    parent: Vec<u32>,
    pub cost: Vec<u64>,
    push: Vec<Push>,
    pub closed: Vec<bool>,
    hash: Vec<u64>,
    /// Node id + 1, or 0 for an empty slot; length a power of two.
    index: Vec<u32>,
    capacity: usize,
}

pub(crate) enum Found {
    New(u32),
    Old(u32),
}

impl Store {
    pub fn new(words: usize, memory_mb: usize) -> Store {
        let bytes = memory_mb.saturating_mul(1 << 20);
        let capacity = (bytes / (words * 8 + NODE_OVERHEAD)).min(u32::MAX as usize - 1);
        Store {
            words,
            boxes: Vec::new(),
            player: Vec::new(),
            parent: Vec::new(),
            cost: Vec::new(),
            push: Vec::new(),
            closed: Vec::new(),
            hash: Vec::new(),
            index: vec![0; 1024],
            capacity,
        }
    }

    pub fn len(&self) -> usize {
        self.player.len()
    }

    pub fn boxes(&self, id: u32) -> &[u64] {
        let start = id as usize * self.words;
        &self.boxes[start..start + self.words]
    }

    pub fn player(&self, id: u32) -> u16 {
        self.player[id as usize]
    }

    pub fn parent(&self, id: u32) -> u32 {
        self.parent[id as usize]
    }

    pub fn push(&self, id: u32) -> Push {
        self.push[id as usize]
    }

    pub fn relink(&mut self, id: u32, parent: u32, push: Push, cost: u64) {
        self.parent[id as usize] = parent;
        self.push[id as usize] = push;
        self.cost[id as usize] = cost;
    }

    /// The node of a position, if stored.
    pub fn find(&self, hash: u64, boxes: &[u64], player: u16) -> Option<u32> {
        let mask = self.index.len() - 1;
        let mut slot = (hash as usize) & mask;
        loop {
            let id = self.index[slot].checked_sub(1)?;
            if self.hash[id as usize] == hash
                && self.player[id as usize] == player
                && self.boxes(id) == boxes
            {
                return Some(id);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Bytes in use, about (what the budget counts).
    pub fn bytes(&self) -> usize {
        self.len() * (self.words * 8 + NODE_OVERHEAD)
    }

    /// Looks the position up, adding it if new. `None`: the budget is spent.
    pub fn find_or_insert(
        &mut self,
        hash: u64,
        boxes: &[u64],
        player: u16,
        parent: u32,
        push: Push,
        cost: u64,
    ) -> Option<Found> {
        let mask = self.index.len() - 1;
        let mut slot = (hash as usize) & mask;
        loop {
            let entry = self.index[slot];
            if entry == 0 {
                break;
            }
            let id = entry - 1;
            if self.hash[id as usize] == hash
                && self.player[id as usize] == player
                && self.boxes(id) == boxes
            {
                return Some(Found::Old(id));
            }
            slot = (slot + 1) & mask;
        }
        if self.len() >= self.capacity {
            return None;
        }
        let id = self.len() as u32;
        self.boxes.extend_from_slice(boxes);
        self.player.push(player);
        self.parent.push(parent);
        self.cost.push(cost);
        self.push.push(push);
        self.closed.push(false);
        self.hash.push(hash);
        self.index[slot] = id + 1;
        if self.len() * 2 > self.index.len() {
            self.grow();
        }
        Some(Found::New(id))
    }

    fn grow(&mut self) {
        let size = self.index.len() * 2;
        let mask = size - 1;
        let mut index = vec![0u32; size];
        for (id, &hash) in self.hash.iter().enumerate() {
            let mut slot = (hash as usize) & mask;
            while index[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            index[slot] = id as u32 + 1;
        }
        self.index = index;
    }
}
