//! The node store: every position the search has met, packed in flat
//! arrays (box bitset words, player cell, parent, cost, the push that led
//! here) with an open-addressing hash index. Its size is capped by a memory
//! budget; when the cap is reached the search stops with "out of memory"
//! instead of letting the process be killed.
//!
//! Hashes are not kept per node: the index compares the player cell and
//! the boxes, and growing it recomputes each node's hash from its boxes.

use super::zobrist::Zobrist;

/// The push that made a node from its parent, in 32 bits: a straight run
/// (the box's cell before it, the direction, how many cells it travelled:
/// tunnel macros push further), a goal-room macro (an index into the
/// search's list of macro paths), or the packing advisor's macro (the box's
/// cell before it: the path is found again from the parent when the
/// solution is written out, so none is kept per node).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Push(u32);

/// What a [`Push`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PushKind {
    /// (box cell before, direction, count).
    Run(u16, u8, u16),
    /// A goal-room macro's index.
    Macro(u32),
    /// The advisor's macro for the box on this cell.
    Advised(u16),
}

/// The longest straight run one [`Push`] can hold.
pub(crate) const MAX_RUN: u16 = 0x1fff;

/// Bit of [`Push`] marking a macro.
const MACRO: u32 = 1 << 31;
/// With [`MACRO`]: the advisor's macro, not an index.
const ADVISED: u32 = 1 << 30;

impl Push {
    /// `count` pushes of the box on `from` in direction `dir` (0..4);
    /// `count` below 2^13.
    pub fn straight(from: u16, dir: u8, count: u16) -> Push {
        debug_assert!(count <= MAX_RUN);
        Push(u32::from(from) | u32::from(dir & 3) << 16 | u32::from(count & MAX_RUN) << 18)
    }

    /// The goal-room macro number `index` (below 2^30).
    pub fn macro_path(index: u32) -> Push {
        debug_assert!(index < ADVISED);
        Push(MACRO | (index & (ADVISED - 1)))
    }

    /// The packing advisor's macro for the box on `from`.
    pub fn advised(from: u16) -> Push {
        Push(MACRO | ADVISED | u32::from(from))
    }

    pub fn kind(self) -> PushKind {
        if self.0 & MACRO == 0 {
            PushKind::Run(
                self.0 as u16,
                (self.0 >> 16 & 3) as u8,
                (self.0 >> 18) as u16,
            )
        } else if self.0 & ADVISED != 0 {
            PushKind::Advised(self.0 as u16)
        } else {
            PushKind::Macro(self.0 & (ADVISED - 1))
        }
    }
}

pub(crate) const NO_PARENT: u32 = u32::MAX;

/// Bytes one node costs beyond its bitset: player 2, parent 4, cost 8,
/// push 4, closed 1, two index slots of 4 (the index is at most half
/// full), one open-list entry of 16, its fixed-goal table 2.
pub(crate) const NODE_OVERHEAD: usize = 2 + 4 + 8 + 4 + 1 + 2 * 4 + 16 + 2;

pub(crate) struct Store {
    words: usize,
    boxes: Vec<u64>,
    player: Vec<u16>,
    parent: Vec<u32>,
    pub cost: Vec<u64>,
    push: Vec<Push>,
    pub closed: Vec<bool>,
    /// The search's keys (the same fixed stream), to rehash on growing.
    zobrist: Zobrist,
    /// Node id + 1, or 0 for an empty slot; length a power of two.
    index: Vec<u32>,
    capacity: usize,
    /// Nodes stored before [`Store::release`] emptied the store.
    released: usize,
}

pub(crate) enum Found {
    New(u32),
    Old(u32),
}

impl Store {
    pub fn new(words: usize, cells: usize, memory_mb: usize) -> Store {
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
            zobrist: Zobrist::new(cells),
            index: vec![0; 1024],
            capacity,
            released: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.player.len()
    }

    /// Nodes stored in all, also those dropped by [`Store::release`].
    pub fn stored(&self) -> usize {
        self.len() + self.released
    }

    /// Bytes of budget per node.
    fn node_bytes(&self) -> usize {
        self.words * 8 + NODE_OVERHEAD
    }

    /// Drops every node (the search is over and lost) and returns the
    /// budget it held, in bytes, for other searches to use.
    pub fn release(&mut self) -> usize {
        let bytes = self.capacity.saturating_mul(self.node_bytes());
        self.released += self.len();
        self.boxes = Vec::new();
        self.player = Vec::new();
        self.parent = Vec::new();
        self.cost = Vec::new();
        self.push = Vec::new();
        self.closed = Vec::new();
        self.index = vec![0; 1024];
        self.capacity = 0;
        bytes
    }

    /// Raises the budget by `bytes`.
    pub fn grant(&mut self, bytes: usize) {
        let more = bytes / self.node_bytes();
        self.capacity = self
            .capacity
            .saturating_add(more)
            .min(u32::MAX as usize - 1);
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

    /// The hash of node `id`'s position (as the search that stored it
    /// computed it: all searches of a board share one key stream).
    pub fn hash_of(&self, id: u32) -> u64 {
        self.zobrist.player(self.player(id)) ^ self.zobrist.set_hash(self.boxes(id))
    }

    /// The node of a position, if stored.
    pub fn find(&self, hash: u64, boxes: &[u64], player: u16) -> Option<u32> {
        let mask = self.index.len() - 1;
        let mut slot = (hash as usize) & mask;
        loop {
            let id = self.index[slot].checked_sub(1)?;
            if self.player[id as usize] == player && self.boxes(id) == boxes {
                return Some(id);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Bytes in use, about (what the budget counts).
    pub fn bytes(&self) -> usize {
        self.len() * self.node_bytes()
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
            if self.player[id as usize] == player && self.boxes(id) == boxes {
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
        for id in 0..self.len() {
            let hash = self.hash_of(id as u32);
            let mut slot = (hash as usize) & mask;
            while index[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            index[slot] = id as u32 + 1;
        }
        self.index = index;
    }
}
