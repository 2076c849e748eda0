//! Goal packing order, found by a backward search: start with every goal
//! filled and take boxes out one at a time (pulling each alone to a cell
//! that is not a goal, the other filled goals standing as walls), nearest
//! exit first. Filling goals is the reverse. Goal `g` is then said to
//! block goal `h` when `h` was taken out after `g` and cannot be taken out
//! with `g` filled: filling `g` while `h` is empty is filling out of order.
//!
//! The greedy search adds a penalty per goal filled out of order to its
//! priority (a hint only: the bound that A* uses is untouched), which
//! steers it to pack goal rooms and goal corridors from the far end.

use std::collections::VecDeque;

use super::bits;
use super::board::{Board, NONE};
use super::marks::Marks;

/// Goal counts and board sizes beyond which the order is not computed
/// (the backward search is quadratic in both).
const MAX_GOALS: usize = 64;
const MAX_CELLS: usize = 1200;
/// Cells visited by all the pull searches together before giving up, so
/// that large levels do not pay for the order up front.
const MAX_WORK: u64 = 30_000_000;

pub(crate) struct Packing {
    /// `blockers[g]`: the goals (bit = goal index) that `g` blocks.
    blockers: Vec<u64>,
}

impl Packing {
    /// The packing order of `board`, or `None` when there is none to find
    /// (more goals than boxes, too large, or the backward search sticks).
    pub fn new(board: &Board) -> Option<Packing> {
        let k = board.goals.len();
        if !(2..=MAX_GOALS).contains(&k) || k != board.start_boxes.len() || board.cells > MAX_CELLS
        {
            return None;
        }
        let mut pull = Pull::new(board);
        let mut filled = vec![0u64; board.words];
        for &g in &board.goals {
            bits::set(&mut filled, g);
        }
        // Removal order and the filled set at each removal.
        let mut removed: Vec<(usize, Vec<u64>)> = Vec::new();
        let mut left: Vec<usize> = (0..k).collect();
        while !left.is_empty() {
            let best = left
                .iter()
                .enumerate()
                .filter_map(|(i, &g)| pull.exit(&filled, board.goals[g]).map(|d| (d, i)))
                .min();
            let best = best?;
            if pull.work > MAX_WORK {
                return None;
            }
            let g = left.remove(best.1);
            removed.push((g, filled.clone()));
            bits::clear(&mut filled, board.goals[g]);
        }
        let mut blockers = vec![0u64; k];
        for (t, (h, state)) in removed.iter().enumerate() {
            for (g, _) in &removed[..t] {
                let mut with = state.clone();
                bits::set(&mut with, board.goals[*g]);
                if pull.exit(&with, board.goals[*h]).is_none() {
                    blockers[*g] |= 1 << h;
                }
                if pull.work > MAX_WORK {
                    return None;
                }
            }
        }
        if blockers.iter().all(|&b| b == 0) {
            return None;
        }
        Some(Packing { blockers })
    }

    /// Goals filled while no goal they block is empty.
    pub fn in_order(&self, board: &Board, boxes: &[u64]) -> u32 {
        let filled = board.goals.iter().filter(|&&g| bits::has(boxes, g)).count() as u32;
        filled - self.out_of_order(board, boxes)
    }

    /// The filled goals (bit = goal index).
    fn filled(board: &Board, boxes: &[u64]) -> u64 {
        let mut filled = 0u64;
        for (i, &g) in board.goals.iter().enumerate() {
            if bits::has(boxes, g) {
                filled |= 1 << i;
            }
        }
        filled
    }

    /// The empty goals that may be filled next (bit = goal index): every
    /// goal they block is filled already.
    pub fn fillable(&self, board: &Board, boxes: &[u64]) -> u64 {
        let filled = Packing::filled(board, boxes);
        let mut next = 0;
        for (i, &blocked) in self.blockers.iter().enumerate() {
            if filled & 1 << i == 0 && blocked & !filled == 0 {
                next |= 1 << i;
            }
        }
        next
    }

    /// Goals filled while a goal they block is still empty.
    pub fn out_of_order(&self, board: &Board, boxes: &[u64]) -> u32 {
        let filled = Packing::filled(board, boxes);
        let mut count = 0;
        let mut rest = filled;
        while rest != 0 {
            let g = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.blockers[g] & !filled != 0 {
                count += 1;
            }
        }
        count
    }
}

/// Pulling one box alone out of the filled goals.
struct Pull<'a> {
    board: &'a Board,
    /// Component labels of the free cells around a box, per flood.
    label: Vec<u32>,
    flood: u32,
    /// `side[b * 4 + d]`: label of the neighbour of box cell `b` in
    /// direction `d` (valid for the box cells in `done`).
    side: Vec<u32>,
    /// Box cells labelled, and (cell, side) states reached, in this exit.
    done: Marks,
    seen: Marks,
    stack: Vec<u16>,
    queue: VecDeque<(u16, u8, u16)>,
    /// Cells visited so far (floods and search states).
    work: u64,
}

impl<'a> Pull<'a> {
    fn new(board: &'a Board) -> Pull<'a> {
        Pull {
            board,
            label: vec![0; board.cells],
            flood: 0,
            side: vec![0; board.cells * 4],
            done: Marks::new(board.cells),
            seen: Marks::new(board.cells * 4),
            stack: Vec::new(),
            queue: VecDeque::new(),
            work: 0,
        }
    }

    /// Labels the free cells (not in `walls`, not `boxed`) around `boxed`.
    fn sides(&mut self, walls: &[u64], boxed: u16) {
        let b = usize::from(boxed);
        if !self.done.insert(b) {
            return;
        }
        let board = self.board;
        let first = self.flood;
        for d in 0..4 {
            let start = board.neighbor(boxed, d);
            if start == NONE || bits::has(walls, start) {
                self.side[b * 4 + d] = 0;
                continue;
            }
            if self.label[usize::from(start)] > first {
                // Reached by a flood of this box cell already.
                self.side[b * 4 + d] = self.label[usize::from(start)];
                continue;
            }
            self.flood += 1;
            let mark = self.flood;
            self.label[usize::from(start)] = mark;
            self.stack.clear();
            self.stack.push(start);
            while let Some(c) = self.stack.pop() {
                self.work += 1;
                for &n in &board.neighbors[usize::from(c)] {
                    if n != NONE
                        && n != boxed
                        && !bits::has(walls, n)
                        && self.label[usize::from(n)] != mark
                    {
                        self.label[usize::from(n)] = mark;
                        self.stack.push(n);
                    }
                }
            }
            self.side[b * 4 + d] = mark;
        }
    }

    /// Fewest pulls taking the box on goal `goal` to a cell that is not a
    /// goal, the other goals of `filled` standing as walls and the player
    /// starting anywhere connected to a non-goal cell; `None`: impossible.
    fn exit(&mut self, filled: &[u64], goal: u16) -> Option<u32> {
        let board = self.board;
        self.done.clear();
        self.seen.clear();
        let mut walls = filled.to_vec();
        bits::clear(&mut walls, goal);
        // Where the player may start: any free cell joined to a non-goal cell.
        self.flood += 1;
        let outside = self.flood;
        self.stack.clear();
        for c in 0..board.cells as u16 {
            if !board.is_goal[usize::from(c)] && c != goal && !bits::has(&walls, c) {
                self.label[usize::from(c)] = outside;
                self.stack.push(c);
            }
        }
        while let Some(c) = self.stack.pop() {
            self.work += 1;
            for &n in &board.neighbors[usize::from(c)] {
                if n != NONE
                    && n != goal
                    && !bits::has(&walls, n)
                    && self.label[usize::from(n)] != outside
                {
                    self.label[usize::from(n)] = outside;
                    self.stack.push(n);
                }
            }
        }
        self.queue.clear();
        for d in 0..4u8 {
            let p = board.neighbor(goal, usize::from(d));
            if p != NONE && self.label[usize::from(p)] == outside {
                self.seen.mark(usize::from(goal) * 4 + usize::from(d));
                self.queue.push_back((goal, d, 0));
            }
        }
        while let Some((b, d, cost)) = self.queue.pop_front() {
            self.work += 1;
            // Pull: the player steps back from `p` to `q`, the box follows to `p`.
            let p = board.neighbor(b, usize::from(d));
            let q = if p == NONE {
                NONE
            } else {
                board.neighbor(p, usize::from(d))
            };
            if q == NONE || bits::has(&walls, q) || bits::has(&walls, p) {
                continue;
            }
            if !board.is_goal[usize::from(p)] {
                return Some(u32::from(cost) + 1);
            }
            self.sides(&walls, p);
            let here = self.side[usize::from(p) * 4 + usize::from(d)];
            for e in 0..4u8 {
                let s = usize::from(p) * 4 + usize::from(e);
                if self.side[s] != 0 && self.side[s] == here && self.seen.insert(s) {
                    self.queue.push_back((p, e, cost + 1));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_end_goal_corridor_fills_from_the_far_end() {
        let text = "########\n#...   #\n####   #\n#  $$$@#\n#      #\n########";
        let level = crate::Level::from_xsb(text).unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let packing = Packing::new(&board).unwrap();
        let cell = |column: usize, row: usize| board.compact[level.map().index(column, row)];
        let with = |cells: &[u16]| {
            let mut set = vec![0u64; board.words];
            cells.iter().for_each(|&c| bits::set(&mut set, c));
            set
        };
        // The mouth first blocks the two behind it; the far end first is fine.
        assert_eq!(packing.out_of_order(&board, &with(&[cell(3, 1)])), 1);
        assert_eq!(packing.out_of_order(&board, &with(&[cell(1, 1)])), 0);
        assert_eq!(
            packing.out_of_order(&board, &with(&[cell(2, 1), cell(3, 1)])),
            2
        );
        assert_eq!(
            packing.out_of_order(&board, &with(&[cell(1, 1), cell(2, 1)])),
            0
        );
        // Only the far end may be filled first, then the goal before it.
        let goal_bit = |c: u16| 1u64 << board.goals.iter().position(|&g| g == c).unwrap();
        assert_eq!(packing.fillable(&board, &with(&[])), goal_bit(cell(1, 1)));
        assert_eq!(
            packing.fillable(&board, &with(&[cell(1, 1)])),
            goal_bit(cell(2, 1))
        );
    }
}
