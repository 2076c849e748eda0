//! The node store: every position the search has met, packed in flat
//! arrays (box bitset words, player cell, parent, cost, the push that led
//! here) with an open-addressing hash index. Its size is capped by a memory
//! budget; when the cap is reached the search stops with "out of memory"
//! instead of letting the process be killed. The stores of one level's
//! searches draw on one budget as they grow (see [`Store::share`]): which
//! search stores fastest depends on the level, and a fixed share each
//! would stop one while the others' lay unused.
//!
//! Hashes are not kept per node: each index slot holds the node's id and
//! the high half of its hash. A position's home slot is taken from the
//! hash's highest bits, so
//! - a probe that meets another position is mostly told apart in the index
//!   itself, without reading that node's player and boxes (a cache miss
//!   each in a store of millions);
//! - doubling the index sends the entries of slot `i` to slots `2i` and
//!   `2i + 1`, so it is rebuilt in one pass in order, from the slots alone,
//!   instead of by millions of writes at random places.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::zobrist::Zobrist;

/// Bytes of a memory budget not yet drawn by any store.
pub(crate) type Budget = Arc<AtomicUsize>;

/// Nodes a store draws from its budget at a time, so that a budget shared
/// across threads is touched only a few times a second.
const DRAW: usize = 1 << 14;

/// The push that made a node from its parent, in 32 bits: a straight run
/// (the box's cell before it, the direction, how many cells it travelled:
/// tunnel macros push further), a goal-room macro (an index into the
/// search's list of macro paths), or the packing or connectivity advisor's
/// macro or a box move (the box's cell before it: the path is found again
/// from the parent when the solution is written out, so none is kept per
/// node).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Push(u32);

/// What a [`Push`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PushKind {
    /// (box cell before, direction, count).
    Run(u16, u8, u16),
    /// A goal-room macro's index.
    Macro(u32),
    /// The packing advisor's macro for the box on this cell.
    Advised(u16),
    /// The connectivity advisor's macro for the box on this cell.
    Opened(u16),
    /// A box move of the box on this cell (to the one cell the child has a
    /// box on and its parent not).
    Moved(u16),
}

/// The longest straight run one [`Push`] can hold.
pub(crate) const MAX_RUN: u16 = 0x1fff;

/// Bit of [`Push`] marking a macro.
const MACRO: u32 = 1 << 31;
/// With [`MACRO`]: an advisor's macro, not an index.
const ADVISED: u32 = 1 << 30;
/// With [`ADVISED`]: the connectivity advisor's.
const OPENED: u32 = 1 << 29;
/// With [`ADVISED`]: a box move's.
const MOVED: u32 = 1 << 28;

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

    /// The connectivity advisor's macro for the box on `from`.
    pub fn opened(from: u16) -> Push {
        Push(MACRO | ADVISED | OPENED | u32::from(from))
    }

    /// A box move of the box on `from`.
    pub fn moved(from: u16) -> Push {
        Push(MACRO | ADVISED | MOVED | u32::from(from))
    }

    pub fn kind(self) -> PushKind {
        if self.0 & MACRO == 0 {
            PushKind::Run(
                self.0 as u16,
                (self.0 >> 16 & 3) as u8,
                (self.0 >> 18) as u16,
            )
        } else if self.0 & OPENED != 0 {
            PushKind::Opened(self.0 as u16)
        } else if self.0 & MOVED != 0 {
            PushKind::Moved(self.0 as u16)
        } else if self.0 & ADVISED != 0 {
            PushKind::Advised(self.0 as u16)
        } else {
            PushKind::Macro(self.0 & (ADVISED - 1))
        }
    }
}

pub(crate) const NO_PARENT: u32 = u32::MAX;

/// Bytes one node costs beyond its bitset: player 2, parent 4, cost 8,
/// push 4, closed 1, two index slots of 8 (the index is at most half
/// full), one open-list entry of 16, its fixed-goal table 2.
pub(crate) const NODE_OVERHEAD: usize = 2 + 4 + 8 + 4 + 1 + 2 * 8 + 16 + 2;

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
    /// Slots of [`slot_entry`], 0 for an empty one; length a power of two.
    index: Vec<u64>,
    /// Nodes drawn from `budget`: the store holds at most this many until
    /// it draws more.
    capacity: usize,
    budget: Budget,
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
            capacity: 0,
            budget: Arc::new(AtomicUsize::new(bytes)),
            released: 0,
        }
    }

    /// From now on draws on `budget`, shared with other stores, and puts
    /// what is left of its own budget into it.
    pub fn share(&mut self, budget: &Budget) {
        let unused = (self.capacity - self.len()) * self.node_bytes();
        let own = self.budget.swap(0, Ordering::Relaxed) + unused;
        self.capacity = self.len();
        budget.fetch_add(own, Ordering::Relaxed);
        self.budget = Arc::clone(budget);
    }

    /// Draws room for more nodes from the budget; false when it is spent.
    fn draw(&mut self) -> bool {
        let node = self.node_bytes();
        let want = DRAW * node;
        let Ok(left) = self
            .budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                (left >= node).then(|| left.saturating_sub(want))
            })
        else {
            return false;
        };
        let got = left.min(want);
        let nodes = got / node;
        self.budget.fetch_add(got - nodes * node, Ordering::Relaxed);
        self.capacity = self
            .capacity
            .saturating_add(nodes)
            .min(u32::MAX as usize - 1);
        self.len() < self.capacity
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

    /// Drops every node (the search is over and lost) and puts the budget
    /// it held back, for the stores it shares it with.
    pub fn release(&mut self) {
        let bytes = self.capacity.saturating_mul(self.node_bytes());
        self.budget.fetch_add(bytes, Ordering::Relaxed);
        self.released += self.len();
        self.boxes = Vec::new();
        self.player = Vec::new();
        self.parent = Vec::new();
        self.cost = Vec::new();
        self.push = Vec::new();
        self.closed = Vec::new();
        self.index = vec![0; 1024];
        self.capacity = 0;
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
    /// This store's node for the position of `other`'s node `id`.
    pub fn find_node_of(&self, other: &Store, id: u32) -> Option<u32> {
        self.find(other.hash_of(id), other.boxes(id), other.player(id))
    }

    pub fn find(&self, hash: u64, boxes: &[u64], player: u16) -> Option<u32> {
        let mask = self.index.len() - 1;
        let mut slot = self.home(hash);
        loop {
            let entry = self.index[slot];
            if entry == 0 {
                return None;
            }
            if let Some(id) = self.holds(entry, hash, boxes, player) {
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
        let mut slot = self.home(hash);
        loop {
            let entry = self.index[slot];
            if entry == 0 {
                break;
            }
            if let Some(id) = self.holds(entry, hash, boxes, player) {
                return Some(Found::Old(id));
            }
            slot = (slot + 1) & mask;
        }
        if self.len() >= self.capacity && !self.draw() {
            return None;
        }
        let id = self.len() as u32;
        self.boxes.extend_from_slice(boxes);
        self.player.push(player);
        self.parent.push(parent);
        self.cost.push(cost);
        self.push.push(push);
        self.closed.push(false);
        self.index[slot] = slot_entry(hash, id);
        if self.len() * 2 > self.index.len() {
            self.grow();
        }
        Some(Found::New(id))
    }

    /// The slot where the search for a position with `hash` starts.
    #[inline]
    fn home(&self, hash: u64) -> usize {
        (hash >> (64 - self.index.len().trailing_zeros())) as usize
    }

    fn grow(&mut self) {
        let size = self.index.len() * 2;
        let (mask, bits) = (size - 1, size.trailing_zeros());
        let mut index = vec![0u64; size];
        for &entry in &self.index {
            if entry == 0 {
                continue;
            }
            // The high half of the hash in the entry holds the new home
            // slot's bits; past 2^32 slots, which no budget reaches, the
            // hash is computed again.
            let mut slot = if bits <= 32 {
                (entry >> (64 - bits)) as usize
            } else {
                (self.hash_of((entry as u32).wrapping_sub(1)) >> (64 - bits)) as usize
            };
            while index[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            index[slot] = entry;
        }
        self.index = index;
    }

    /// The node of index slot `entry` if it is the position (`hash`,
    /// `boxes`, `player`).
    #[inline]
    fn holds(&self, entry: u64, hash: u64, boxes: &[u64], player: u16) -> Option<u32> {
        if entry >> 32 != hash >> 32 {
            return None;
        }
        let id = (entry as u32).wrapping_sub(1);
        (self.player[id as usize] == player && self.boxes(id) == boxes).then_some(id)
    }
}

/// An index slot: the high half of the node's hash over its id + 1 (never
/// 0, the empty slot).
#[inline]
fn slot_entry(hash: u64, id: u32) -> u64 {
    hash & 0xffff_ffff_0000_0000 | u64::from(id + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bits;

    /// Stores that share a budget hold together what it allows, in any
    /// split; one released leaves its part to the other.
    #[test]
    fn stores_sharing_a_budget_fill_it_together() {
        let zobrist = Zobrist::new(300);
        let insert = |store: &mut Store, n: u32| {
            let mut boxes = vec![0u64; 1];
            boxes[0] = u64::from(n) << 8 | 1;
            let hash = zobrist.set_hash(&boxes);
            store.find_or_insert(hash, &boxes, 0, NO_PARENT, Push::default(), 0)
        };
        let (mut a, mut b) = (Store::new(1, 300, 8), Store::new(1, 300, 4));
        let budget = Budget::default();
        a.share(&budget);
        b.share(&budget);
        let nodes = (12 << 20) / a.node_bytes();
        // `a` takes most of it: more than its own 8 MB would hold.
        let mut n = 0;
        while n < nodes as u32 - 2 * DRAW as u32 && insert(&mut a, n).is_some() {
            n += 1;
        }
        assert!(a.len() > (8 << 20) / a.node_bytes(), "{}", a.len());
        // `b` gets the rest, and `a` what it had drawn already: together
        // they hold what the budget allows, less a node's rounding.
        while insert(&mut b, n).is_some() {
            n += 1;
        }
        while insert(&mut a, n).is_some() {
            n += 1;
        }
        assert!(insert(&mut b, n).is_none());
        let held = a.len() + b.len();
        assert!(held <= nodes && held + 1 >= nodes, "{held} {nodes}");
        // Released, `a`'s part goes to `b`.
        let held = a.len();
        a.release();
        for _ in 0..held {
            assert!(insert(&mut b, n).is_some());
            n += 1;
        }
    }

    #[test]
    fn positions_are_found_again_also_after_the_index_grows() {
        let zobrist = Zobrist::new(200);
        let mut store = Store::new(4, 200, 64);
        let position = |n: u16| {
            let mut boxes = vec![0u64; 4];
            bits::set(&mut boxes, n % 200);
            bits::set(&mut boxes, (n * 7 + 3) % 200);
            let player = n % 13;
            let hash = zobrist.player(player) ^ zobrist.set_hash(&boxes);
            (hash, boxes, player)
        };
        let mut ids = std::collections::HashMap::new();
        for n in 0..3000u16 {
            let (hash, boxes, player) = position(n);
            match store.find_or_insert(hash, &boxes, player, NO_PARENT, Push::default(), 0) {
                Some(Found::New(id)) => {
                    assert!(ids.insert((boxes, player), id).is_none());
                }
                Some(Found::Old(id)) => assert_eq!(ids.get(&(boxes, player)), Some(&id)),
                None => panic!("64 MB holds 3000 nodes"),
            }
        }
        assert!(store.index.len() > 1024, "the index grew");
        for n in 0..3000u16 {
            let (hash, boxes, player) = position(n);
            assert_eq!(
                store.find(hash, &boxes, player),
                ids.get(&(boxes, player)).copied()
            );
        }
        let (hash, boxes, _) = position(1);
        assert_eq!(store.find(hash, &boxes, 14), None);
    }
}
