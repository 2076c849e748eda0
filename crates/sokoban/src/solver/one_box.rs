//! One box moved alone, the other boxes standing as walls: breadth first
//! over (box cell, player side) states, the player walking around the
//! boxes between moves. The goal rooms use it to pull boxes out (finding a
//! filling order) and to push a box on to its goal; the packing advisor of
//! the feature search to push a box onto the next goal to fill.

use std::collections::VecDeque;

use super::bits;
use super::board::{Board, NONE};
use super::marks::Marks;

/// The search's scratch, kept between searches.
pub(crate) struct OneBox {
    /// The player's reach, from the last [`OneBox::reach`].
    reach: Marks,
    stack: Vec<u16>,
    /// The (cell, side) states this search has reached, and the state each
    /// came from.
    seen: Marks,
    from: Vec<u32>,
    /// (box cell, player side, moves so far).
    pub queue: VecDeque<(u16, u8, u32)>,
}

impl OneBox {
    pub fn new(board: &Board) -> OneBox {
        OneBox {
            reach: Marks::new(board.cells),
            stack: Vec::new(),
            seen: Marks::new(board.cells * 4),
            from: vec![0; board.cells * 4],
            queue: VecDeque::new(),
        }
    }

    /// Marks the cells the player reaches from `sources` around `walls` and
    /// the box on `boxed` (see [`OneBox::reached`]).
    pub fn reach(&mut self, board: &Board, sources: &[u16], walls: &[u64], boxed: u16) {
        self.reach.clear();
        self.stack.clear();
        for &s in sources {
            if s != boxed && !bits::has(walls, s) && self.reach.insert(s) {
                self.stack.push(s);
            }
        }
        while let Some(c) = self.stack.pop() {
            for &n in &board.neighbors[usize::from(c)] {
                if n != NONE && n != boxed && !bits::has(walls, n) && self.reach.insert(n) {
                    self.stack.push(n);
                }
            }
        }
    }

    /// Whether the last [`OneBox::reach`] reached `cell`.
    pub fn reached(&self, cell: u16) -> bool {
        self.reach.contains(cell)
    }

    /// Queues the states "box on `cell`, player on side e" for each side
    /// the last [`OneBox::reach`] reached that this search has not seen
    /// yet; each remembers the state it came from and carries `moves`.
    pub fn queue_sides(&mut self, board: &Board, cell: u16, from: u32, moves: u32) {
        for e in 0..4u8 {
            let n = board.neighbor(cell, usize::from(e));
            let state = usize::from(cell) * 4 + usize::from(e);
            if n != NONE && self.reached(n) && self.seen.insert(state) {
                self.from[state] = from;
                self.queue.push_back((cell, e, moves));
            }
        }
    }

    /// Starts a new search: an empty queue and no state seen.
    pub fn next_search(&mut self) {
        self.seen.clear();
        self.queue.clear();
    }

    /// The fewest pushes (box cell, direction) taking the box on `at` onto a
    /// cell of `targets`, the player on `player`, the boxes of `others`
    /// standing still, the box kept on `allowed` cells and off dead
    /// squares. `None` when it cannot get there, or is on a target already.
    pub fn push_path(
        &mut self,
        board: &Board,
        others: &[u64],
        at: u16,
        player: u16,
        targets: &[u64],
        allowed: impl Fn(u16) -> bool,
    ) -> Option<Vec<(u16, u8)>> {
        if bits::has(targets, at) {
            return None;
        }
        self.next_search();
        self.reach(board, &[player], others, at);
        self.queue_sides(board, at, u32::MAX, 0);
        while let Some((b, s, pushes)) = self.queue.pop_front() {
            // The player on side `s` pushes the box the other way.
            let dir = (s + 2) % 4;
            let t = board.neighbor(b, usize::from(dir));
            if t == NONE || bits::has(others, t) || !allowed(t) || board.dead[usize::from(t)] {
                continue;
            }
            let here = (usize::from(b) * 4 + usize::from(s)) as u32;
            if bits::has(targets, t) {
                let mut path = vec![(b, dir)];
                // Each state was reached by pushing the box of the state
                // before it away from that state's player side.
                let mut state = self.from[here as usize];
                while state != u32::MAX {
                    let (cell, side) = ((state / 4) as u16, (state % 4) as u8);
                    path.push((cell, (side + 2) % 4));
                    state = self.from[state as usize];
                }
                path.reverse();
                return Some(path);
            }
            self.reach(board, &[b], others, t);
            self.queue_sides(board, t, here, pushes + 1);
        }
        None
    }
}
