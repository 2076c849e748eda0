//! PI-corral pruning. A corral is a pocket of floor the player cannot
//! reach, sealed by boxes ("its boxes") and walls. If
//! - the corral must be entered some day (one of its boxes is off goal, or
//!   one of its cells is a goal that some box must fill),
//! - every push of its boxes that could ever be made from outside goes
//!   into the corral (I), and
//! - each of those pushes can be made right now (P),
//!
//! then the first push of any solution that touches the corral is one of
//! those pushes, and it can be moved to the front without making the
//! solution longer in pushes. So only those pushes need searching; if there
//! are none, the position is a corral deadlock.

use super::bits;
use super::board::{Board, NONE};
use super::marks::Marks;

pub(crate) struct Corrals {
    /// Free cells in some corral found in this position (a bitset, so the
    /// cells left to start from are found a word at a time).
    in_some: Vec<u64>,
    /// The current corral's free cells, and its boxes.
    inside: Marks,
    its_boxes: Marks,
    stack: Vec<u16>,
    cells: Vec<u16>,
    boxes: Vec<u16>,
    pushes: Vec<(u16, u8)>,
    /// Needed corrals that are not PI-corrals, (boxes, cells), for the
    /// corral deadlock search when no PI-corral prunes: the first
    /// `suspect_count`, the buffers kept for the next position.
    suspects: Vec<(Vec<u16>, Vec<u16>)>,
    suspect_count: usize,
}

impl Corrals {
    pub fn new(cells: usize) -> Corrals {
        Corrals {
            in_some: vec![0; cells.div_ceil(64)],
            inside: Marks::new(cells),
            its_boxes: Marks::new(cells),
            stack: Vec::new(),
            cells: Vec::new(),
            boxes: Vec::new(),
            pushes: Vec::new(),
            suspects: Vec::new(),
            suspect_count: 0,
        }
    }

    /// The needed corrals of the last position that are not PI-corrals
    /// (up to four), as (boxes, cells).
    pub fn suspects(&self) -> &[(Vec<u16>, Vec<u16>)] {
        &self.suspects[..self.suspect_count]
    }

    /// The pushes to search in this position: `None` when no PI-corral
    /// restricts them, `Some(pushes)` (box cell, direction) for the smallest
    /// PI-corral found; empty means deadlock. `reached` is the bitset of
    /// the free cells the player reaches. Corrals are taken in the order of
    /// their lowest cells.
    pub fn restrict(
        &mut self,
        board: &Board,
        boxes: &[u64],
        box_count: usize,
        reached: &[u64],
    ) -> Option<&[(u16, u8)]> {
        let goals_must_fill = board.goals.len() == box_count;
        self.suspect_count = 0;
        let mut best: Option<Vec<(u16, u8)>> = None;
        self.in_some.fill(0);
        let mut word = 0;
        'corrals: while word < self.in_some.len() {
            // Cells out of reach, free, and in no corral found yet.
            let mut left = !(reached[word] | boxes[word] | self.in_some[word]);
            if word + 1 == self.in_some.len() && !board.cells.is_multiple_of(64) {
                left &= (1 << (board.cells % 64)) - 1;
            }
            if left == 0 {
                word += 1;
                continue;
            }
            let start = (word * 64) as u16 + left.trailing_zeros() as u16;
            bits::set(&mut self.in_some, start);
            self.cells.clear();
            self.boxes.clear();
            self.inside.clear();
            self.its_boxes.clear();
            self.inside.mark(start);
            self.stack.clear();
            self.stack.push(start);
            while let Some(c) = self.stack.pop() {
                self.cells.push(c);
                for &n in &board.neighbors[usize::from(c)] {
                    if n == NONE {
                        continue;
                    }
                    if bits::has(boxes, n) {
                        if self.its_boxes.insert(n) {
                            self.boxes.push(n);
                        }
                    } else if self.inside.insert(n) {
                        bits::set(&mut self.in_some, n);
                        self.stack.push(n);
                    }
                }
            }
            let needed = self.boxes.iter().any(|&b| !board.is_goal[usize::from(b)])
                || (goals_must_fill && self.cells.iter().any(|&c| board.is_goal[usize::from(c)]));
            if !needed {
                continue;
            }
            match self.pi_pushes(board, boxes, reached) {
                Some(pushes) => {
                    if best.as_ref().is_none_or(|b| pushes.len() < b.len()) {
                        let done = pushes.is_empty();
                        best = Some(pushes);
                        if done {
                            break 'corrals;
                        }
                    }
                }
                None => {
                    if self.suspect_count < 4 {
                        if self.suspect_count == self.suspects.len() {
                            self.suspects.push((Vec::new(), Vec::new()));
                        }
                        let (boxes, cells) = &mut self.suspects[self.suspect_count];
                        boxes.clone_from(&self.boxes);
                        cells.clone_from(&self.cells);
                        self.suspect_count += 1;
                    }
                }
            }
        }
        self.pushes = best?;
        Some(&self.pushes)
    }

    /// The current corral's pushes if it is a PI-corral.
    fn pi_pushes(&self, board: &Board, boxes: &[u64], reached: &[u64]) -> Option<Vec<(u16, u8)>> {
        let inside = |c: u16| !bits::has(boxes, c) && self.inside.contains(c);
        let mut pushes = Vec::new();
        for &b in &self.boxes {
            for dir in 0..4u8 {
                let ahead = board.neighbor(b, usize::from(dir));
                let behind = board.neighbor(b, usize::from(dir + 2) % 4);
                if ahead == NONE || behind == NONE || board.dead[usize::from(ahead)] {
                    continue;
                }
                // The player can never stand inside before the corral opens,
                // nor on another of its boxes before that box moves.
                if inside(behind) || (bits::has(boxes, behind) && self.its_boxes.contains(behind)) {
                    continue;
                }
                let ahead_is_ours =
                    inside(ahead) || (bits::has(boxes, ahead) && self.its_boxes.contains(ahead));
                if !ahead_is_ours {
                    return None; // some day this box might leave the barrier outwards
                }
                if !inside(ahead) {
                    continue; // into another of its boxes: impossible until that one moves
                }
                if bits::has(boxes, behind) || !bits::has(reached, behind) {
                    return None; // not possible now
                }
                pushes.push((b, dir));
            }
        }
        Some(pushes)
    }
}
