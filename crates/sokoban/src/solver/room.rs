//! Goal rooms and their macro, after the goal macros of Rolling Stone
//! (Junghanns and Schaeffer, "Sokoban: Enhancing general single-agent
//! search methods using domain knowledge", 2001) and FESS.
//!
//! A goal room is a piece of the board behind one door: a cell, not a
//! goal, whose blocking cuts the board in two, the piece beyond it holding
//! four or more goals, no box and not the player at the start, and little
//! floor besides its goals. Goals outside every room that touch side by
//! side or corner to corner form a goal area (four or more goals, no box at
//! the start), entered from any side. The filling order of each comes from
//! a backward search: start with it full and pull boxes out (through the
//! door; out of the area) one at a time, the rest standing as walls, the
//! fewest pulls first; filling is the reverse.
//!
//! The macro: when a box is pushed into a room (onto its door, or onto a
//! goal of an area from outside it) while the room holds exactly the first
//! goals of its order, the box is pushed on to the next goal of the order
//! in one move, along the fewest pushes (breadth first over box cell and
//! player side, the player walking around the other boxes between pushes,
//! the box staying in the room). A search that uses the macro does not
//! also make that single push, so it is no longer complete: its running out
//! of nodes proves nothing.

use super::bits;
use super::board::{Board, NONE};
use super::one_box::OneBox;

/// Rooms larger than this many cells per goal (plus two) are not rooms.
const CELLS_PER_GOAL: usize = 2;
/// Rooms and goal areas with fewer goals get no macro.
const MIN_GOALS: usize = 4;

pub(crate) struct Room {
    /// The door of a room behind one door, or [`NONE`] for a goal area.
    door: u16,
    fill: RoomOrder,
}

/// A room's cells and the order its goals are filled in.
#[derive(Clone)]
pub(crate) struct RoomOrder {
    /// Cells of the room beyond the door (the door not included), or the
    /// goals of a goal area (a bitset).
    cells: Vec<u64>,
    /// The room's goals in filling order.
    order: Vec<u16>,
}

impl RoomOrder {
    /// The goal to fill next, when the boxes in the room fill the first
    /// goals of its order (and it is not full).
    fn next(&self, boxes: &[u64]) -> Option<u16> {
        let filled = self
            .order
            .iter()
            .take_while(|&&g| bits::has(boxes, g))
            .count();
        let inside = self
            .cells
            .iter()
            .zip(boxes)
            .map(|(c, b)| (c & b).count_ones() as usize)
            .sum::<usize>();
        (filled == inside).then(|| self.order.get(filled).copied())?
    }

    /// Whether filling `goal` next keeps the room's order: false for a goal
    /// of the room other than its next one, or when the room is not filled
    /// in order; true for any cell outside the room.
    pub fn allows(&self, boxes: &[u64], goal: u16) -> bool {
        !bits::has(&self.cells, goal) || self.next(boxes) == Some(goal)
    }
}

pub(crate) struct Rooms {
    rooms: Vec<Room>,
    /// `trigger[c]`: the room that a box pushed onto `c` from outside it
    /// enters (a room's door, a goal area's cells), or [`NONE`].
    trigger: Vec<u16>,
    /// Flood scratch.
    stack: Vec<u16>,
    one_box: OneBox,
}

/// A room found on the board (for tests).
#[cfg(test)]
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct RoomInfo {
    /// [`NONE`] for a goal area.
    pub door: u16,
    pub order: Vec<u16>,
}

impl Rooms {
    /// The goal rooms and goal areas of `board`; `None` when it has none
    /// (or the boxes do not fill every goal, where no order is forced).
    pub fn new(board: &Board) -> Option<Rooms> {
        if board.goals.len() != board.start_boxes.len() {
            return None;
        }
        let mut rooms = Rooms {
            rooms: Vec::new(),
            trigger: vec![NONE; board.cells],
            stack: Vec::new(),
            one_box: OneBox::new(board),
        };
        let mut start = vec![0u64; board.words];
        for &b in &board.start_boxes {
            bits::set(&mut start, b);
        }
        // (goals, cells, door, piece) of every room candidate.
        let mut candidates: Vec<(usize, usize, u16, Vec<u64>)> = Vec::new();
        for door in 0..board.cells as u16 {
            if board.is_goal[usize::from(door)] || door == board.start_player {
                continue;
            }
            let mut groups = Vec::new();
            for d in 0..4 {
                let n = board.neighbor(door, d);
                if n == NONE {
                    continue;
                }
                let group = board.side_group[usize::from(door) * 4 + d];
                if groups.contains(&group) {
                    continue;
                }
                groups.push(group);
                let piece = rooms.flood(board, n, &[], door);
                let cells = bits::count(&piece);
                let goals = board
                    .goals
                    .iter()
                    .filter(|&&g| bits::has(&piece, g))
                    .count();
                let empty = piece.iter().zip(&start).all(|(p, s)| p & s == 0);
                if goals >= MIN_GOALS
                    && empty
                    && !bits::has(&piece, board.start_player)
                    && cells <= CELLS_PER_GOAL * goals + 2
                {
                    candidates.push((goals, cells, door, piece));
                }
            }
        }
        // The most goals first, then the smallest piece; rooms are disjoint.
        candidates.sort_by_key(|&(goals, cells, door, _)| (usize::MAX - goals, cells, door));
        for (_, _, door, piece) in candidates {
            if rooms.overlaps(&piece, door) {
                continue;
            }
            if let Some(order) = rooms.fill_order(board, door, &piece) {
                rooms.add(Room {
                    door,
                    fill: RoomOrder {
                        cells: piece,
                        order,
                    },
                });
            }
        }
        // Goal areas: the goals joined side by side, outside every room.
        let mut done = vec![0u64; board.words];
        for &g in &board.goals {
            if bits::has(&done, g) {
                continue;
            }
            let area = rooms.flood_goals(board, g);
            done.iter_mut().zip(&area).for_each(|(d, a)| *d |= a);
            let empty = area.iter().zip(&start).all(|(a, s)| a & s == 0);
            if bits::count(&area) < MIN_GOALS || !empty || rooms.overlaps(&area, NONE) {
                continue;
            }
            if let Some(order) = rooms.fill_order(board, NONE, &area) {
                rooms.add(Room {
                    door: NONE,
                    fill: RoomOrder { cells: area, order },
                });
            }
        }
        (!rooms.rooms.is_empty()).then_some(rooms)
    }

    /// Whether `piece` (and `door`, unless [`NONE`]) meets a room found.
    fn overlaps(&self, piece: &[u64], door: u16) -> bool {
        self.rooms.iter().any(|room| {
            (room.door != NONE && bits::has(piece, room.door))
                || (door != NONE && (bits::has(&room.fill.cells, door) || room.door == door))
                || room.fill.cells.iter().zip(piece).any(|(a, b)| a & b != 0)
        })
    }

    fn add(&mut self, room: Room) {
        let index = self.rooms.len() as u16;
        if room.door != NONE {
            self.trigger[usize::from(room.door)] = index;
        } else {
            for &g in &room.fill.order {
                self.trigger[usize::from(g)] = index;
            }
        }
        self.rooms.push(room);
    }

    #[cfg(test)]
    pub fn info(&self) -> Vec<RoomInfo> {
        self.rooms
            .iter()
            .map(|r| RoomInfo {
                door: r.door,
                order: r.fill.order.clone(),
            })
            .collect()
    }

    /// Each room's cells and filling order.
    pub fn orders(&self) -> Vec<RoomOrder> {
        self.rooms.iter().map(|r| r.fill.clone()).collect()
    }

    /// The room a box pushed from `from` onto `to` enters, if any.
    #[inline]
    pub fn entered(&self, from: u16, to: u16) -> Option<usize> {
        let r = *self.trigger.get(usize::from(to))?;
        let room = self.rooms.get(usize::from(r))?;
        (!bits::has(&room.fill.cells, from)).then_some(usize::from(r))
    }

    /// The cells reachable from `from` without entering `blocked` or a cell
    /// of `walls` (a bitset).
    fn flood(&mut self, board: &Board, from: u16, walls: &[u64], blocked: u16) -> Vec<u64> {
        let mut piece = vec![0u64; board.words];
        self.stack.clear();
        self.stack.push(from);
        bits::set(&mut piece, from);
        while let Some(c) = self.stack.pop() {
            for &n in &board.neighbors[usize::from(c)] {
                if n != NONE && n != blocked && !bits::has(walls, n) && !bits::has(&piece, n) {
                    bits::set(&mut piece, n);
                    self.stack.push(n);
                }
            }
        }
        piece
    }

    /// The goals joined to goal `from` side by side or corner to corner.
    fn flood_goals(&mut self, board: &Board, from: u16) -> Vec<u64> {
        let mut area = vec![0u64; board.words];
        self.stack.clear();
        self.stack.push(from);
        bits::set(&mut area, from);
        while let Some(c) = self.stack.pop() {
            // Side by side or corner to corner (through a floor cell).
            for d in 0..4 {
                let n = board.neighbor(c, d);
                if n == NONE {
                    continue;
                }
                let corner = board.neighbor(n, (d + 1) % 4);
                for m in [n, corner] {
                    if m != NONE && board.is_goal[usize::from(m)] && !bits::has(&area, m) {
                        bits::set(&mut area, m);
                        self.stack.push(m);
                    }
                }
            }
        }
        area
    }

    /// The filling order of the room beyond `door` (cells `piece`), or of
    /// the goal area `piece` when `door` is [`NONE`]: the reverse of taking
    /// boxes out, the one with the fewest pulls out first. `None` when the
    /// backward search sticks.
    fn fill_order(&mut self, board: &Board, door: u16, piece: &[u64]) -> Option<Vec<u16>> {
        let mut filled = vec![0u64; board.words];
        let mut left: Vec<u16> = Vec::new();
        for &g in &board.goals {
            if bits::has(piece, g) {
                bits::set(&mut filled, g);
                left.push(g);
            }
        }
        // Where the player comes from: the door, or anywhere outside.
        let outside: Vec<u16> = if door != NONE {
            vec![door]
        } else {
            (0..board.cells as u16)
                .filter(|&c| !bits::has(piece, c))
                .collect()
        };
        let mut removed = Vec::new();
        while !left.is_empty() {
            let mut best: Option<(u32, usize)> = None;
            for (i, &g) in left.iter().enumerate() {
                if let Some(pulls) = self.pull_out(board, door, piece, &outside, &filled, g)
                    && best.is_none_or(|(p, _)| pulls < p)
                {
                    best = Some((pulls, i));
                }
            }
            let (_, i) = best?;
            let g = left.remove(i);
            bits::clear(&mut filled, g);
            removed.push(g);
        }
        removed.reverse();
        Some(removed)
    }

    /// Fewest pulls taking the box on `goal` out of the room (onto its
    /// door; or out of the goal area), the other boxes of `filled` standing
    /// as walls, the player coming in from `outside`.
    fn pull_out(
        &mut self,
        board: &Board,
        door: u16,
        piece: &[u64],
        outside: &[u16],
        filled: &[u64],
        goal: u16,
    ) -> Option<u32> {
        let mut walls = filled.to_vec();
        bits::clear(&mut walls, goal);
        let one = &mut self.one_box;
        one.next_search();
        one.reach(board, outside, &walls, goal);
        one.queue_sides(board, goal, u32::MAX, 0);
        while let Some((b, s, pulls)) = one.queue.pop_front() {
            // The player steps from `p` to `q`; the box follows onto `p`.
            let p = board.neighbor(b, usize::from(s));
            let q = board.neighbor(p, usize::from(s));
            if q == NONE || bits::has(&walls, q) || bits::has(&walls, p) {
                continue;
            }
            if p == door || (door == NONE && !bits::has(piece, p)) {
                return Some(pulls + 1);
            }
            if !bits::has(piece, p) || one.seen(p, s) {
                continue;
            }
            one.reach(board, &[q], &walls, p);
            one.queue_sides(board, p, u32::MAX, pulls + 1);
        }
        None
    }

    /// The macro for a box just pushed into `room` onto `at` (its door, or
    /// a goal of a goal area; the box stands there in `boxes`, the player
    /// on `player`): the further pushes (box cell, direction) taking it on
    /// to the room's next goal in order. `None` when the room is not filled
    /// in order so far, the box is on that goal already, or the way is
    /// blocked.
    pub fn macro_path(
        &mut self,
        board: &Board,
        boxes: &[u64],
        room: usize,
        at: u16,
        player: u16,
    ) -> Option<Vec<(u16, u8)>> {
        let r = self.rooms.get(room)?;
        let mut others = boxes.to_vec();
        bits::clear(&mut others, at);
        let target_cell = r.fill.next(&others)?;
        if target_cell == at {
            return None;
        }
        let mut target = vec![0u64; board.words];
        bits::set(&mut target, target_cell);
        let cells = &r.fill.cells;
        self.one_box
            .push_path(board, &others, at, player, &target, |c| bits::has(cells, c))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn board_of(text: &str) -> (crate::Level, Board) {
        let level = crate::Level::from_xsb(text)
            .map_err(|e| format!("{e}"))
            .unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        (level, board)
    }

    fn set_of(board: &Board, cells: &[u16]) -> Vec<u64> {
        let mut set = vec![0u64; board.words];
        cells.iter().for_each(|&c| bits::set(&mut set, c));
        set
    }

    /// Applies the pushes to `boxes`, checking each: a box to push, a free
    /// cell ahead, the player able to walk behind it.
    fn replay(board: &Board, boxes: &mut [u64], player: &mut u16, path: &[(u16, u8)]) {
        for &(from, dir) in path {
            let to = board.neighbor(from, usize::from(dir));
            let behind = board.neighbor(from, usize::from((dir + 2) % 4));
            assert!(bits::has(boxes, from), "no box on {from}");
            assert!(to != NONE && !bits::has(boxes, to), "blocked at {to}");
            let mut one = OneBox::new(board);
            one.reach(board, &[*player], boxes, NONE);
            assert!(one.reached(behind), "cannot reach {behind}");
            bits::clear(boxes, from);
            bits::set(boxes, to);
            *player = from;
        }
    }

    /// A dead-end goal corridor behind the cell (5, 1).
    const CORRIDOR: &str = "##########\n#....    #\n#####$ $ #\n#    $ $@#\n#        #\n##########";

    #[test]
    fn a_room_allows_only_its_next_goal_while_filled_in_order() {
        let (level, board) = board_of(CORRIDOR);
        let cell = |column: usize, row: usize| board.compact[level.map().index(column, row)];
        let orders = Rooms::new(&board).unwrap().orders();
        let [room] = orders.as_slice() else {
            panic!("one room");
        };
        let empty = set_of(&board, &[]);
        assert!(room.allows(&empty, cell(1, 1)));
        assert!(!room.allows(&empty, cell(2, 1)));
        let first = set_of(&board, &[cell(1, 1)]);
        assert!(room.allows(&first, cell(2, 1)));
        assert!(!room.allows(&first, cell(3, 1)));
        // Filled out of order: no goal of the room is next.
        let broken = set_of(&board, &[cell(2, 1)]);
        assert!(!room.allows(&broken, cell(1, 1)));
        assert!(!room.allows(&broken, cell(3, 1)));
        // Cells outside the room are not its business.
        assert!(room.allows(&broken, cell(6, 3)));
    }

    #[test]
    fn a_goal_corridor_is_a_room_filled_from_the_far_end() {
        let (level, board) = board_of(CORRIDOR);
        let cell = |column: usize, row: usize| board.compact[level.map().index(column, row)];
        let rooms = Rooms::new(&board).unwrap();
        assert_eq!(
            rooms.info(),
            vec![RoomInfo {
                door: cell(5, 1),
                order: vec![cell(1, 1), cell(2, 1), cell(3, 1), cell(4, 1)],
            }]
        );
        // Only a push onto the door from outside enters the room.
        assert_eq!(rooms.entered(cell(6, 1), cell(5, 1)), Some(0));
        assert_eq!(rooms.entered(cell(5, 2), cell(5, 1)), Some(0));
        assert_eq!(rooms.entered(cell(6, 2), cell(5, 2)), None);
        assert_eq!(rooms.entered(cell(4, 1), cell(5, 1)), None);
    }

    #[test]
    fn the_macro_takes_a_box_from_the_door_to_the_next_goal_in_order() {
        let (level, board) = board_of(CORRIDOR);
        let cell = |column: usize, row: usize| board.compact[level.map().index(column, row)];
        let mut rooms = Rooms::new(&board).unwrap();
        // Empty room: on to the far end, four more pushes left (direction
        // 0 in `Direction::ALL`).
        let mut boxes = set_of(&board, &[cell(5, 1), cell(4, 3), cell(5, 3)]);
        let path = rooms.macro_path(&board, &boxes, 0, cell(5, 1), cell(6, 1));
        let path = path.unwrap();
        let left = [(5, 1), (4, 1), (3, 1), (2, 1)].map(|(c, r)| (cell(c, r), 0));
        assert_eq!(path, left.to_vec());
        let mut player = cell(6, 1);
        replay(&board, &mut boxes, &mut player, &path);
        assert!(bits::has(&boxes, cell(1, 1)));
        // The far end filled: the next goal is (2, 1).
        let boxes = set_of(&board, &[cell(1, 1), cell(5, 1), cell(5, 3)]);
        let path = rooms.macro_path(&board, &boxes, 0, cell(5, 1), cell(6, 1));
        assert_eq!(path.unwrap().len(), 3);
        // Filled out of order: no macro.
        let boxes = set_of(&board, &[cell(2, 1), cell(5, 1), cell(5, 3)]);
        assert_eq!(
            rooms.macro_path(&board, &boxes, 0, cell(5, 1), cell(6, 1)),
            None
        );
    }

    /// A block of four goals open on two sides.
    const AREA: &str = "#######\n#     #\n# ..$ #\n# ..$ #\n# $$ @#\n#     #\n#######";

    #[test]
    fn a_goal_block_is_an_area_and_its_macro_fills_it_in_order() {
        let (level, board) = board_of(AREA);
        let cell = |column: usize, row: usize| board.compact[level.map().index(column, row)];
        let mut rooms = Rooms::new(&board).unwrap();
        let info = rooms.info();
        assert_eq!(info.len(), 1);
        assert_eq!(info[0].door, NONE);
        let mut order = info[0].order.clone();
        // The corner against the walls' side, (2, 2), can only be filled first.
        assert_eq!(order[0], cell(2, 2));
        order.sort_unstable();
        assert_eq!(order, vec![cell(2, 2), cell(3, 2), cell(2, 3), cell(3, 3)]);
        // A box pushed up onto (2, 3) from (2, 4) goes on to (2, 2).
        let mut boxes = set_of(&board, &[cell(2, 3), cell(4, 3), cell(3, 4)]);
        assert_eq!(rooms.entered(cell(2, 4), cell(2, 3)), Some(0));
        assert_eq!(rooms.entered(cell(2, 3), cell(2, 2)), None);
        let path = rooms.macro_path(&board, &boxes, 0, cell(2, 3), cell(2, 4));
        let path = path.unwrap();
        let mut player = cell(2, 4);
        replay(&board, &mut boxes, &mut player, &path);
        assert!(bits::has(&boxes, cell(2, 2)));
        assert!(!bits::has(&boxes, cell(2, 3)));
    }

    #[test]
    fn levels_with_rooms_still_solve() {
        for text in [CORRIDOR, AREA] {
            let level = crate::Level::from_xsb(text).unwrap();
            let options = crate::solver::Options::default();
            let outcome =
                crate::solver::solve(&level, &options, &mut crate::solver::Control::new());
            assert!(
                matches!(outcome, crate::solver::Outcome::Solved(_)),
                "{outcome:?}"
            );
        }
    }

    #[test]
    fn no_room_when_the_goals_are_apart() {
        let (_, board) = board_of("#######\n#.  $@#\n# ## ##\n#  $ .#\n#######");
        assert!(Rooms::new(&board).is_none());
    }
}
