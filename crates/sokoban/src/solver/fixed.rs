//! Boxes fixed on goals for good, counted as walls by the lower bound.
//!
//! A box on a goal that cannot move along either axis (a wall, a dead
//! square on both sides, or another fixed box in the way) never moves again
//! in any solution. Other boxes must then get past it like a wall, so push
//! distances recomputed with those cells walled in are still lower bounds,
//! often much larger: a goal behind a fixed box may become unreachable
//! (a bipartite deadlock), e.g. a goal column filled from the wrong end.
//!
//! The fixed set depends on the box positions only and grows along every
//! path, so one distance table per fixed set met is computed and cached;
//! each node carries the id of its table (0: the board's own).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::bits;
use super::board::{Board, Distances, NONE};
use super::deadlock;
use super::lower_bound::Costs;
use super::store::Budget;

pub(crate) struct Fixed {
    /// Fixed cells of each table id (id 0: none).
    sets: Vec<Vec<u64>>,
    /// The distance tables of each id (id 0 is the board's, kept empty here).
    tables: Vec<Distances>,
    index: HashMap<Vec<u64>, u16>,
    /// Tables the own budget holds; more are drawn from `shared`.
    max_tables: usize,
    /// Bytes of one table.
    table_bytes: usize,
    /// The budget shared with other searches' stores and tables, if any
    /// (see [`Fixed::share`]).
    shared: Option<Budget>,
    set: Vec<u64>,
    stack: Vec<u16>,
    /// Scratch: the boxes holding one in place.
    group: Vec<u16>,
}

impl Fixed {
    /// `memory` bytes at most for the tables.
    pub fn new(board: &Board, memory: usize) -> Fixed {
        // Lone distances, and by piece four times as many.
        let table_bytes = (board.goals.len() * board.cells * 2 * 5).max(1) + board.words * 16 + 64;
        Fixed {
            sets: vec![vec![0; board.words]],
            tables: vec![Distances {
                lone: Vec::new(),
                by_piece: Vec::new(),
            }],
            index: HashMap::new(),
            max_tables: (memory / table_bytes).clamp(1, usize::from(u16::MAX)),
            table_bytes,
            shared: None,
            set: vec![0; board.words],
            stack: Vec::new(),
            group: Vec::new(),
        }
    }

    /// The cost table of `id`.
    pub fn costs<'a>(&'a self, board: &'a Board, id: u16) -> Costs<'a> {
        match self.tables.get(usize::from(id)) {
            Some(table) if id != 0 => Costs::from_tables(id, board, &table.lone, &table.by_piece),
            _ => Costs::of(board),
        }
    }

    /// The table id for the boxes `boxes` whose fixed set is that of `from`
    /// plus whatever `seeds` (boxes that just arrived) newly fix. Returns
    /// `from` when nothing new is fixed or the table budget is spent.
    pub fn after(&mut self, board: &Board, boxes: &[u64], from: u16, seeds: &[u16]) -> u16 {
        let Some(base) = self.sets.get(usize::from(from)) else {
            return from;
        };
        self.set.copy_from_slice(base);
        self.stack.clear();
        self.stack.extend(
            seeds
                .iter()
                .copied()
                .filter(|&c| board.is_goal[usize::from(c)]),
        );
        let mut grew = false;
        while let Some(c) = self.stack.pop() {
            if bits::has(&self.set, c) || !bits::has(boxes, c) || !board.is_goal[usize::from(c)] {
                continue;
            }
            if !self.held(board, boxes, c) {
                continue;
            }
            for i in 0..self.group.len() {
                let g = self.group[i];
                if bits::has(&self.set, g) {
                    continue;
                }
                bits::set(&mut self.set, g);
                grew = true;
                for d in 0..4 {
                    let n = board.neighbor(g, d);
                    if n != NONE && bits::has(boxes, n) && !bits::has(&self.set, n) {
                        self.stack.push(n);
                    }
                }
            }
        }
        if !grew {
            return from;
        }
        if let Some(&id) = self.index.get(&self.set) {
            return id;
        }
        if self.tables.len() >= self.max_tables && !self.draw() {
            return from;
        }
        let id = self.tables.len() as u16;
        self.tables.push(board.distances_with_walls(&self.set));
        self.sets.push(self.set.clone());
        self.index.insert(self.set.clone(), id);
        id
    }

    /// Once its own budget is spent, draws room for more tables from
    /// `budget`, which the searches' stores share: a search that meets
    /// many fixed sets (the box-move searches fill goals in many orders)
    /// keeps its bounds sharp while memory is left.
    pub fn share(&mut self, budget: &Budget) {
        self.shared = Some(Arc::clone(budget));
    }

    /// Room for one more table from the shared budget; false when there is
    /// none (or no shared budget, or no more table ids).
    fn draw(&mut self) -> bool {
        let Some(budget) = &self.shared else {
            return false;
        };
        let bytes = self.table_bytes;
        if self.max_tables >= usize::from(u16::MAX)
            || budget
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                    left.checked_sub(bytes)
                })
                .is_err()
        {
            return false;
        }
        self.max_tables += 1;
        true
    }

    /// Whether the box on goal `c` never moves again, leaving in `group`
    /// the boxes it fixes: itself when walls and fixed boxes hold it, or
    /// the whole group when boxes on goals hold each other (a goal room
    /// packed around a hole that no box can reach any more).
    fn held(&mut self, board: &Board, boxes: &[u64], c: u16) -> bool {
        self.group.clear();
        if self.stuck(board, c) {
            self.group.push(c);
            return true;
        }
        deadlock::immovable_group(board, boxes, c, &mut self.group)
            && self.group.iter().all(|&g| board.is_goal[usize::from(g)])
    }

    /// Whether the box on `c` cannot move on either axis, the current set
    /// counting as walls.
    fn stuck(&self, board: &Board, c: u16) -> bool {
        (0..2).all(|axis| {
            let a = board.neighbor(c, axis);
            let b = board.neighbor(c, axis + 2);
            let wall = |n: u16| n == NONE || bits::has(&self.set, n);
            wall(a) || wall(b) || (board.dead[usize::from(a)] && board.dead[usize::from(b)])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lower_bound::Matching;

    /// The level of `text`, its board and its start boxes (a bitset).
    fn setup(text: &str) -> (crate::Level, Board, Vec<u64>) {
        let level = crate::Level::from_xsb(text).unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut boxes = vec![0u64; board.words];
        board
            .start_boxes
            .iter()
            .for_each(|&c| bits::set(&mut boxes, c));
        (level, board, boxes)
    }

    /// A box fixed in the corner at the foot of a goal column shuts the
    /// column: the plain bound misses it, the bound with it as a wall not.
    #[test]
    fn a_fixed_box_at_the_foot_of_a_goal_column() {
        let text = "#######\n#.#####\n#.#####\n#.$$$ #\n#*   @#\n#######";
        let (level, board, boxes) = setup(text);
        let mut fixed = Fixed::new(&board, 1 << 20);
        let foot = board.compact[level.map().index(1, 4)];
        let id = fixed.after(&board, &boxes, 0, &[foot]);
        assert_ne!(id, 0);
        // The same set again: the same table.
        assert_eq!(fixed.after(&board, &boxes, 0, &board.start_boxes), id);
        let n = board.start_boxes.len();
        let mut matching = Matching::new(n, board.goals.len(), board.cells);
        assert!(
            matching
                .solve(Costs::of(&board), &board.start_boxes)
                .is_some()
        );
        assert_eq!(
            matching.solve(fixed.costs(&board, id), &board.start_boxes),
            None
        );
        // A box that can still move is not fixed.
        let other = board.compact[level.map().index(2, 3)];
        assert_eq!(fixed.after(&board, &boxes, 0, &[other]), 0);
    }

    /// A goal block packed with a hole in it: the boxes right of the hole
    /// hold each other (each is blocked along one axis by the other), not
    /// by walls or boxes fixed already, and the hole can never be filled.
    #[test]
    fn boxes_on_goals_holding_each_other_shut_a_hole() {
        let text = "#########\n#*****  #\n#*****  #\n#**.**  #\n#*****  #\n#*****$@#\n#########";
        let (level, board, mut boxes) = setup(text);
        let mut fixed = Fixed::new(&board, 1 << 20);
        let id = fixed.after(&board, &boxes, 0, &board.start_boxes);
        let cell = |column: usize, row: usize| board.compact[level.map().index(column, row)];
        let set = &fixed.sets[usize::from(id)];
        assert!(bits::has(set, cell(4, 3)) && bits::has(set, cell(5, 3)));
        let n = board.start_boxes.len();
        let mut matching = Matching::new(n, board.goals.len(), board.cells);
        assert_eq!(
            matching.solve(fixed.costs(&board, id), &board.start_boxes),
            None
        );
        // With the box right of the hole gone, the hole can be filled from
        // there: nothing around it is held for good any more.
        bits::clear(&mut boxes, cell(4, 3));
        let mut fixed = Fixed::new(&board, 1 << 20);
        let id = fixed.after(&board, &boxes, 0, &board.start_boxes);
        assert!(!bits::has(&fixed.sets[usize::from(id)], cell(5, 3)));
    }

    /// With its own budget spent, a table is made only while the shared
    /// budget has room for it, and that room is taken from the budget.
    #[test]
    fn tables_past_the_own_budget_are_drawn_from_the_shared_one() {
        let text = "#######\n#.#####\n#.#####\n#.$$$ #\n#*   @#\n#######";
        let (level, board, boxes) = setup(text);
        let foot = board.compact[level.map().index(1, 4)];
        // Room for no table of its own (the board's, id 0, is always there).
        let mut fixed = Fixed::new(&board, 0);
        assert_eq!(fixed.after(&board, &boxes, 0, &[foot]), 0);
        let budget = Budget::default();
        fixed.share(&budget);
        assert_eq!(
            fixed.after(&board, &boxes, 0, &[foot]),
            0,
            "an empty budget"
        );
        budget.store(fixed.table_bytes + 5, Ordering::Relaxed);
        let id = fixed.after(&board, &boxes, 0, &[foot]);
        assert_ne!(id, 0);
        assert_eq!(budget.load(Ordering::Relaxed), 5);
        let n = board.start_boxes.len();
        let mut matching = Matching::new(n, board.goals.len(), board.cells);
        assert_eq!(
            matching.solve(fixed.costs(&board, id), &board.start_boxes),
            None
        );
    }
}
