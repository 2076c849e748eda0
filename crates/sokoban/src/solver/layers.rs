//! The open list of a search that [`meet`](mod@super::meet) runs in rounds: the
//! nodes queued by depth (pushes or pulls made), each depth a heap by f.
//! A round takes the nodes whose f is below a limit, shallowest depth
//! first. A node's children are deeper than it, so a
//! depth once passed in a round gets nothing new in that round.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Default)]
pub(crate) struct Layers {
    /// By depth: (f, node), lowest f first. Entries of a node reached more
    /// cheaply since stay behind; the search skips them when taken.
    by_depth: Vec<BinaryHeap<(Reverse<u32>, u32)>>,
    /// No depth below this has a node the round can take.
    cursor: usize,
    /// The entries with f below a limit at a depth: (depth, limit, count),
    /// counted down as they are taken.
    left: Option<(usize, u32, usize)>,
    /// The dive (see [`Layers::start_dive`]): its f limit, and its nodes
    /// by depth, deepest first.
    dive: Option<(u32, BinaryHeap<(u32, u32)>)>,
    /// Nodes queued (new or reached more cheaply) since the last
    /// [`Layers::take_changed`]: the ones to look up in the other
    /// direction's store.
    changed: Vec<u32>,
}

impl Layers {
    /// Queues `node`, reached at `depth` with lower bound `f` on a whole
    /// solution through it.
    pub fn push(&mut self, depth: u32, f: u32, node: u32) {
        let depth = depth as usize;
        if self.by_depth.len() <= depth {
            self.by_depth.resize_with(depth + 1, BinaryHeap::new);
        }
        self.by_depth[depth].push((Reverse(f), node));
        if let Some((limit, dive)) = &mut self.dive
            && f < *limit
        {
            dive.push((depth as u32, node));
        }
        self.cursor = self.cursor.min(depth);
        self.changed.push(node);
    }

    /// The next node with f below `f_limit`, shallowest first, with its
    /// depth.
    pub fn pop(&mut self, f_limit: u32) -> Option<(u32, u32)> {
        while let Some(heap) = self.by_depth.get_mut(self.cursor) {
            if let Some(&(Reverse(f), node)) = heap.peek()
                && f < f_limit
            {
                heap.pop();
                if let Some((depth, _, count)) = &mut self.left
                    && *depth == self.cursor
                {
                    *count = count.saturating_sub(1);
                }
                return Some((self.cursor as u32, node));
            }
            self.cursor += 1;
        }
        None
    }

    /// [`Layers::pop`], passing over entries that `live(depth, node)` says
    /// are stale (the node was reached more cheaply since, or expanded).
    pub fn take(&mut self, f_limit: u32, mut live: impl FnMut(u32, u32) -> bool) -> Option<u32> {
        loop {
            let (depth, node) = self.pop(f_limit)?;
            if live(depth, node) {
                return Some(node);
            }
        }
    }

    /// Starts a dive: from now on [`Layers::take_deepest`] takes the nodes
    /// with f below `f_limit`, deepest first, as A* does among equal f.
    pub fn start_dive(&mut self, f_limit: u32) {
        let mut dive = BinaryHeap::new();
        for (depth, heap) in self.by_depth.iter().enumerate() {
            for &(Reverse(f), node) in heap {
                if f < f_limit {
                    dive.push((depth as u32, node));
                }
            }
        }
        self.dive = Some((f_limit, dive));
    }

    /// The deepest node of the dive that `live(depth, node)` says is not
    /// stale.
    pub fn take_deepest(&mut self, mut live: impl FnMut(u32, u32) -> bool) -> Option<u32> {
        let (_, dive) = self.dive.as_mut()?;
        while let Some((depth, node)) = dive.pop() {
            if live(depth, node) {
                return Some(node);
            }
        }
        None
    }

    /// Starts a round: every depth may hold nodes again (the f limit rose).
    pub fn rewind(&mut self) {
        self.cursor = 0;
        self.left = None;
    }

    /// The depth up to which the round is done: every depth below it holds
    /// no node with f below `f_limit`; `None` when no depth does.
    pub fn frontier(&mut self, f_limit: u32) -> Option<u32> {
        while let Some(heap) = self.by_depth.get(self.cursor) {
            if heap.peek().is_some_and(|&(Reverse(f), _)| f < f_limit) {
                return Some(self.cursor as u32);
            }
            self.cursor += 1;
        }
        None
    }

    /// The nodes left to take at the [`Layers::frontier`] (stale entries
    /// included): what finishing that depth costs.
    pub fn left_at_frontier(&mut self, f_limit: u32) -> Option<usize> {
        let depth = self.frontier(f_limit)? as usize;
        match self.left {
            Some((d, limit, count)) if d == depth && limit == f_limit => Some(count),
            _ => {
                let count = self.by_depth[depth]
                    .iter()
                    .filter(|(Reverse(f), _)| *f < f_limit)
                    .count();
                self.left = Some((depth, f_limit, count));
                Some(count)
            }
        }
    }

    /// The lowest f queued.
    pub fn lowest_f(&self) -> Option<u32> {
        self.by_depth
            .iter()
            .filter_map(|heap| heap.peek().map(|&(Reverse(f), _)| f))
            .min()
    }

    /// Whether nothing is queued at all: the search has run dry.
    pub fn is_empty(&self) -> bool {
        self.by_depth.iter().all(BinaryHeap::is_empty)
    }

    /// The nodes queued since the last call.
    pub fn take_changed(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_takes_shallow_depths_first_and_only_below_the_f_limit() {
        let mut layers = Layers::default();
        layers.push(2, 10, 7);
        layers.push(0, 12, 1);
        layers.push(1, 9, 3);
        layers.push(1, 14, 4);
        assert_eq!(layers.frontier(13), Some(0));
        assert_eq!(layers.pop(13), Some((0, 1)));
        assert_eq!(layers.pop(13), Some((1, 3)));
        assert_eq!(layers.frontier(13), Some(2));
        assert_eq!(layers.left_at_frontier(13), Some(1));
        assert_eq!(layers.pop(13), Some((2, 7)));
        assert_eq!(layers.pop(13), None);
        assert_eq!(layers.frontier(13), None);
        // The next round, with a higher f limit, starts again at depth 0.
        layers.rewind();
        assert_eq!(layers.frontier(15), Some(1));
        assert_eq!(layers.pop(15), Some((1, 4)));
        assert!(layers.is_empty());
        assert_eq!(layers.take_changed(), vec![7, 1, 3, 4]);
    }

    #[test]
    fn a_node_queued_shallower_than_the_cursor_is_taken() {
        let mut layers = Layers::default();
        layers.push(3, 5, 1);
        assert_eq!(layers.pop(6), Some((3, 1)));
        layers.push(1, 5, 2);
        assert_eq!(layers.pop(6), Some((1, 2)));
    }

    #[test]
    fn a_dive_takes_the_deepest_node_below_its_limit_first() {
        let mut layers = Layers::default();
        layers.push(1, 5, 1);
        layers.push(3, 9, 2);
        layers.start_dive(9);
        layers.push(2, 8, 3);
        layers.push(4, 9, 4);
        assert_eq!(layers.take_deepest(|_, _| true), Some(3));
        assert_eq!(layers.take_deepest(|_, _| true), Some(1));
        assert_eq!(layers.take_deepest(|_, _| true), None);
    }

    #[test]
    fn stale_entries_are_passed_over() {
        let mut layers = Layers::default();
        layers.push(1, 5, 1);
        layers.push(1, 6, 2);
        assert_eq!(layers.take(9, |_, node| node != 1), Some(2));
        assert_eq!(layers.take(9, |_, _| true), None);
    }
}
