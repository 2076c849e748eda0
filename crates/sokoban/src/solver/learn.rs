//! Learned deadlock patterns. When a push leaves the pushed box in a
//! cluster of touching boxes (including diagonally), a small search on that
//! cluster alone (every other box removed, which only makes things easier)
//! tries to break the cluster up or put it all on goals. If that search
//! runs out of positions, the cluster is a deadlock wherever the other
//! boxes are; the verdict is remembered per cluster and player region.

use std::collections::{HashMap, HashSet};

use super::bits;
use super::board::{Board, NONE};
use super::deadlock;
use super::marks::Marks;

/// The most boxes a corral may have for its own small search.
const MAX_CORRAL: usize = 5;
/// The largest cluster examined.
const MAX_CLUSTER: usize = 4;
/// Positions the small search may visit before giving up (no verdict).
const NODE_LIMIT: usize = 120;
/// Bytes one remembered pattern costs, about (key, its heap part, the map slot).
pub(crate) const PATTERN_BYTES: usize = 96;

type Key = (Vec<u16>, u16);

/// Entries of the direct-mapped cache in front of the patterns, keyed by
/// the cluster (or corral) and the player's exact cell (which fixes the
/// region, so no flood is needed on a hit).
const QUICK: usize = 1 << 14;

#[derive(Clone, Copy, Default, PartialEq)]
struct QuickKey {
    /// The sorted boxes, padded with `NONE`.
    cells: [u16; MAX_CORRAL],
    player: u16,
    corral: bool,
}

impl QuickKey {
    fn new(sorted: &[u16], player: u16, corral: bool) -> QuickKey {
        let mut cells = [NONE; MAX_CORRAL];
        cells[..sorted.len()].copy_from_slice(sorted);
        QuickKey {
            cells,
            player,
            corral,
        }
    }

    fn slot(&self) -> usize {
        let hash = self
            .cells
            .iter()
            .chain([&self.player, &u16::from(self.corral)])
            .fold(0x9e37_79b9_7f4a_7c15u64, |h, &c| {
                (h ^ u64::from(c)).wrapping_mul(0x100_0000_01b3)
            });
        (hash >> 40) as usize % QUICK
    }
}

#[derive(Clone, Copy, Default)]
struct Quick {
    key: QuickKey,
    /// 0: empty, 1: not a deadlock, 2: deadlock.
    verdict: u8,
}

pub(crate) struct Learner {
    patterns: HashMap<Key, bool>,
    max_patterns: usize,
    pub learned: usize,
    cluster: Vec<u16>,
    set: Vec<u64>,
    /// The cells the last flood reached.
    reach: Marks,
    /// The small search's marks of the reach of the node it expands.
    node_reach: Marks,
    /// Cells the last flood reached.
    reached: Vec<u16>,
    quick: Vec<Quick>,
}

impl Learner {
    /// `memory` bytes at most for the patterns.
    pub fn new(board: &Board, memory: usize) -> Learner {
        Learner {
            patterns: HashMap::new(),
            max_patterns: memory / PATTERN_BYTES,
            learned: 0,
            cluster: Vec::new(),
            set: vec![0; board.words],
            reach: Marks::new(board.cells),
            node_reach: Marks::new(board.cells),
            reached: Vec::new(),
            quick: vec![Quick::default(); QUICK],
        }
    }

    /// Whether the cluster around `pushed` in `boxes` is a deadlock with the
    /// player on `player`.
    pub fn deadlocked(&mut self, board: &Board, boxes: &[u64], pushed: u16, player: u16) -> bool {
        self.cluster.clear();
        self.cluster.push(pushed);
        let mut i = 0;
        while i < self.cluster.len() && self.cluster.len() < MAX_CLUSTER {
            let c = self.cluster[i];
            i += 1;
            for n in around(board, c) {
                if n != NONE && bits::has(boxes, n) && !self.cluster.contains(&n) {
                    self.cluster.push(n);
                    if self.cluster.len() == MAX_CLUSTER {
                        break;
                    }
                }
            }
        }
        if self.cluster.len() < 2 || self.cluster.iter().all(|&c| board.is_goal[usize::from(c)]) {
            return false;
        }
        self.cluster.sort_unstable();
        let quick = QuickKey::new(&self.cluster, player, false);
        if let Some(verdict) = self.quick_verdict(&quick) {
            return verdict;
        }
        self.set.iter_mut().for_each(|w| *w = 0);
        for &c in &self.cluster {
            bits::set(&mut self.set, c);
        }
        let region = self.region(board, player);
        let key = (self.cluster.clone(), region);
        let verdict = match self.patterns.get(&key) {
            Some(&verdict) => verdict,
            None => {
                let verdict = self.search(board, key.0.clone(), key.1);
                if self.patterns.len() < self.max_patterns {
                    self.patterns.insert(key, verdict);
                }
                self.learned += usize::from(verdict);
                verdict
            }
        };
        self.remember_quick(quick, verdict);
        verdict
    }

    fn quick_verdict(&self, key: &QuickKey) -> Option<bool> {
        let quick = &self.quick[key.slot()];
        (quick.verdict != 0 && quick.key == *key).then_some(quick.verdict == 2)
    }

    fn remember_quick(&mut self, key: QuickKey, verdict: bool) {
        self.quick[key.slot()] = Quick {
            key,
            verdict: 1 + u8::from(verdict),
        };
    }

    /// Whether a corral is a deadlock: its boxes alone (everything else
    /// removed) can neither all reach goals nor let the player into the
    /// corral's `cells`. Remembered like the clusters.
    pub fn corral_deadlocked(
        &mut self,
        board: &Board,
        corral_boxes: &[u16],
        cells: &[u16],
        player: u16,
    ) -> bool {
        if corral_boxes.len() > MAX_CORRAL
            || corral_boxes.iter().all(|&c| board.is_goal[usize::from(c)])
        {
            return false;
        }
        let mut sorted = [NONE; MAX_CORRAL];
        let sorted = &mut sorted[..corral_boxes.len()];
        sorted.copy_from_slice(corral_boxes);
        sorted.sort_unstable();
        let quick = QuickKey::new(sorted, player, true);
        if let Some(verdict) = self.quick_verdict(&quick) {
            return verdict;
        }
        let sorted = sorted.to_vec();
        self.set.iter_mut().for_each(|w| *w = 0);
        for &c in &sorted {
            bits::set(&mut self.set, c);
        }
        let region = self.region(board, player);
        // Corral keys are told apart from cluster keys by a marker cell.
        let mut key_cells = sorted.clone();
        key_cells.push(NONE);
        let key = (key_cells, region);
        let verdict = match self.patterns.get(&key) {
            Some(&verdict) => verdict,
            None => {
                let verdict = self.search_until(board, sorted, region, Some(cells));
                if self.patterns.len() < self.max_patterns {
                    self.patterns.insert(key, verdict);
                }
                self.learned += usize::from(verdict);
                verdict
            }
        };
        self.remember_quick(quick, verdict);
        verdict
    }

    /// Floods from `from` around the boxes in `set`; reached cells are
    /// marked in `self.reach` and listed in `self.reached`. Returns the
    /// lowest reached cell.
    fn flood(&mut self, board: &Board, set: &[u64], from: u16) -> u16 {
        flood_into(board, set, from, &mut self.reach, &mut self.reached)
    }

    fn region(&mut self, board: &Board, player: u16) -> u16 {
        let set = std::mem::take(&mut self.set);
        let lowest = self.flood(board, &set, player);
        self.set = set;
        lowest
    }

    /// Depth-first search on the cluster alone; true when it provably
    /// cannot be broken up or put on goals.
    fn search(&mut self, board: &Board, start: Vec<u16>, region: u16) -> bool {
        self.search_until(board, start, region, None)
    }

    /// The small search; success is every box on a goal, or (without
    /// `opened`) no two boxes touching, or (with it) the player reaching one
    /// of the `opened` cells.
    fn search_until(
        &mut self,
        board: &Board,
        start: Vec<u16>,
        region: u16,
        opened: Option<&[u16]>,
    ) -> bool {
        let mut visited: HashSet<Key> = HashSet::new();
        visited.insert((start.clone(), region));
        let mut open: Vec<Key> = vec![(start, region)];
        let mut set = vec![0u64; board.words];
        let mut count = 0;
        while let Some((cells, player)) = open.pop() {
            count += 1;
            if count > NODE_LIMIT {
                return false;
            }
            set.iter_mut().for_each(|w| *w = 0);
            for &c in &cells {
                bits::set(&mut set, c);
            }
            // The node's reach keeps its own marks: the children's floods
            // below reuse `reach`.
            let lowest = flood_into(board, &set, player, &mut self.node_reach, &mut self.reached);
            for (i, &from) in cells.iter().enumerate() {
                for dir in 0..4 {
                    let to = board.neighbor(from, dir);
                    let behind = board.neighbor(from, (dir + 2) % 4);
                    if to == NONE
                        || behind == NONE
                        || !self.node_reach.contains(behind)
                        || bits::has(&set, to)
                        || board.dead[usize::from(to)]
                    {
                        continue;
                    }
                    bits::clear(&mut set, from);
                    bits::set(&mut set, to);
                    let frozen = deadlock::frozen(board, &set, to);
                    let mut next = cells.clone();
                    next[i] = to;
                    next.sort_unstable();
                    let mut verdict = None;
                    if !frozen {
                        let done = match opened {
                            None => solved_or_apart(board, &next),
                            Some(_) => next.iter().all(|&c| board.is_goal[usize::from(c)]),
                        };
                        if done {
                            verdict = Some(false);
                        } else {
                            let node_reach = &self.node_reach;
                            let in_node = |c: u16| node_reach.contains(c);
                            let quick = board.region_after_push(&set, in_node, from, to, lowest);
                            let region = match quick {
                                Some(region) => region,
                                None => self.flood(board, &set, from),
                            };
                            debug_assert!(
                                quick.is_none_or(|r| r == self.flood(board, &set, from)),
                                "the region without a flood differs"
                            );
                            // Without a flood the child's reach is the node's
                            // less `to`, plus `from`.
                            let (node_reach, reach) = (&self.node_reach, &self.reach);
                            let reaches = |c: u16| match quick {
                                Some(_) => c == from || (c != to && node_reach.contains(c)),
                                None => reach.contains(c),
                            };
                            if let Some(cells) = opened
                                && cells.iter().any(|&c| reaches(c))
                            {
                                verdict = Some(false);
                            }
                            let key = (next, region);
                            if verdict.is_none() && !visited.contains(&key) {
                                visited.insert(key.clone());
                                open.push(key);
                            }
                        }
                    }
                    bits::clear(&mut set, to);
                    bits::set(&mut set, from);
                    if let Some(v) = verdict {
                        return v;
                    }
                }
            }
        }
        true
    }
}

/// Floods from `from` around the boxes in `set`, marking reached cells in
/// `reach` (cleared first) and listing them in `reached` (which serves as
/// the queue). Returns the lowest reached cell.
fn flood_into(
    board: &Board,
    set: &[u64],
    from: u16,
    reach: &mut Marks,
    reached: &mut Vec<u16>,
) -> u16 {
    reach.clear();
    reached.clear();
    reached.push(from);
    reach.mark(from);
    let mut lowest = from;
    let mut head = 0;
    while let Some(&c) = reached.get(head) {
        head += 1;
        for &n in &board.neighbors[usize::from(c)] {
            if n != NONE && !bits::has(set, n) && reach.insert(n) {
                lowest = lowest.min(n);
                reached.push(n);
            }
        }
    }
    lowest
}

/// Success for the small search: every box on a goal, or no two boxes
/// touching any more.
fn solved_or_apart(board: &Board, cells: &[u16]) -> bool {
    if cells.iter().all(|&c| board.is_goal[usize::from(c)]) {
        return true;
    }
    !cells.iter().any(|&c| {
        around(board, c)
            .iter()
            .any(|n| *n != NONE && cells.contains(n))
    })
}

/// The eight cells around `c` (NONE where there is no cell).
fn around(board: &Board, c: u16) -> [u16; 8] {
    let mut out = [NONE; 8];
    for d in 0..4 {
        out[d] = board.neighbor(c, d);
        let (a, b) = (d, (d + 1) % 4);
        let via_a = board.neighbor(c, a);
        let via_b = board.neighbor(c, b);
        let diag = if via_a != NONE {
            board.neighbor(via_a, b)
        } else {
            NONE
        };
        out[4 + d] = if diag != NONE {
            diag
        } else if via_b != NONE {
            board.neighbor(via_b, a)
        } else {
            NONE
        };
    }
    out
}
