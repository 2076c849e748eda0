//! One box moved alone, the other boxes standing as walls: breadth first
//! over (box cell, player side) states, the player walking around the
//! boxes between moves. The goal rooms use it to pull boxes out (finding a
//! filling order) and to push a box on to its goal; the advisors of the
//! feature search to push a box onto the next goal to fill, or to where it
//! opens the board; the feature search over box moves to find every
//! position one box reaches (FESS's moves: a box taken anywhere it can go
//! is one step, so the search looks as far in one expansion as the push
//! searches in many).

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

    /// Marks the cells the player reaches from `player` around `walls` and
    /// the box on `boxed`, until it has reached every free side of the box
    /// it may reach: all [`OneBox::queue_sides`] needs. When the player
    /// stands next to the box, sides the walls alone cut off from the
    /// player's (see [`Board::side_group`]) are not waited for, so a box in
    /// a corridor needs no flood at all. Breadth first, so that sides
    /// joined round the box are found after a few cells, not a whole room.
    fn reach_sides(&mut self, board: &Board, player: u16, walls: &[u64], boxed: u16) {
        self.reach.clear();
        let free = |c: u16| c != NONE && c != boxed && !bits::has(walls, c);
        let sides = &board.neighbors[usize::from(boxed)];
        let group = |d: usize| board.side_group[usize::from(boxed) * 4 + d];
        let mine = (0..4).find(|&d| sides[d] == player).map(group);
        let mut left = (0..4)
            .filter(|&d| free(sides[d]) && sides[d] != player && mine.is_none_or(|g| group(d) == g))
            .count();
        let stack = &mut self.stack;
        stack.clear();
        if !free(player) {
            return;
        }
        self.reach.insert(player);
        stack.push(player);
        let mut head = 0;
        while left > 0
            && let Some(&c) = stack.get(head)
        {
            head += 1;
            for &n in &board.neighbors[usize::from(c)] {
                if free(n) && self.reach.insert(n) {
                    stack.push(n);
                    if sides.contains(&n) {
                        left -= 1;
                    }
                }
            }
        }
    }

    /// The lowest cell the player reaches from `player` around `walls` and
    /// the box on `boxed` (its region's normal form, as the search stores
    /// it).
    pub fn lowest_reached(&mut self, board: &Board, player: u16, walls: &[u64], boxed: u16) -> u16 {
        self.reach(board, &[player], walls, boxed);
        (0..board.cells as u16)
            .find(|&c| self.reached(c))
            .unwrap_or(player)
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

    /// Whether the state "box on `cell`, player on side `side`" was queued
    /// in this search. Then every side the player reaches from there was
    /// too, by the same flood: a move that ends in that state needs no
    /// flood of its own (in open rooms most moves reach a box cell another
    /// move reached first, the player on the same side of it).
    pub fn seen(&self, cell: u16, side: u8) -> bool {
        self.seen
            .contains(usize::from(cell) * 4 + usize::from(side))
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
        let arrived = |cell: u16, _: u8, _: u32| bits::has(targets, cell);
        self.push_path_until(board, others, at, player, arrived, allowed)
    }

    /// The same, to the first cell the box reaches (in order of pushes)
    /// where `arrived` (the cell, the direction of the last push, and the
    /// pushes taking the box there) holds; `None` when there is none.
    pub fn push_path_until(
        &mut self,
        board: &Board,
        others: &[u64],
        at: u16,
        player: u16,
        mut arrived: impl FnMut(u16, u8, u32) -> bool,
        allowed: impl Fn(u16) -> bool,
    ) -> Option<Vec<(u16, u8)>> {
        self.next_search();
        self.reach_sides(board, player, others, at);
        self.queue_sides(board, at, u32::MAX, 0);
        while let Some((b, s, pushes)) = self.queue.pop_front() {
            // The player on side `s` pushes the box the other way.
            let dir = (s + 2) % 4;
            let t = board.neighbor(b, usize::from(dir));
            if t == NONE || bits::has(others, t) || !allowed(t) || board.dead[usize::from(t)] {
                continue;
            }
            let here = (usize::from(b) * 4 + usize::from(s)) as u32;
            if arrived(t, dir, pushes + 1) {
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
            // The player now stands on `b`, side `s` of the box.
            if self.seen(t, s) {
                continue;
            }
            self.reach_sides(board, b, others, t);
            self.queue_sides(board, t, here, pushes + 1);
        }
        None
    }
}

/// Where one box can go by pushes of its own: the cell, the direction of
/// the last push (the player stands behind the box), and how many pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BoxMove {
    pub to: u16,
    pub dir: u8,
    pub pushes: u32,
}

impl OneBox {
    /// Every position the box on `at` reaches, pushed alone (the boxes of
    /// `others` standing still) from the player on `player`, off dead
    /// squares, each once per region the player is left in, with its fewest
    /// pushes; into `moves`.
    pub fn moves(
        &mut self,
        board: &Board,
        others: &[u64],
        at: u16,
        player: u16,
        moves: &mut Vec<BoxMove>,
    ) {
        moves.clear();
        self.next_search();
        self.reach_sides(board, player, others, at);
        self.queue_sides(board, at, u32::MAX, 0);
        while let Some((b, s, pushes)) = self.queue.pop_front() {
            let dir = (s + 2) % 4;
            let t = board.neighbor(b, usize::from(dir));
            // A state seen already is a position met already: the player
            // reached that side of the box from where it stood then.
            if t == NONE || bits::has(others, t) || board.dead[usize::from(t)] || self.seen(t, s) {
                continue;
            }
            let here = (usize::from(b) * 4 + usize::from(s)) as u32;
            self.reach_sides(board, b, others, t);
            self.queue_sides(board, t, here, pushes + 1);
            if t != at {
                moves.push(BoxMove {
                    to: t,
                    dir,
                    pushes: pushes + 1,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Level;

    /// A room with a pillar, a corridor and a dead end.
    fn rooms() -> Board {
        let text = "\
##########
#    #  .#
# ## # $ #
#  $   # #
## #$   .#
#  ####  #
#@      .#
##########";
        let level = Level::from_xsb(text).unwrap();
        Board::new(level.map(), level.player(), level.boxes()).unwrap()
    }

    /// Stopping the flood once the box's reachable sides are reached finds
    /// the same sides as a whole flood: for every box cell, player side
    /// and a few sets of other boxes on a room with a pillar, a corridor
    /// and a dead end.
    #[test]
    fn reaching_the_sides_finds_the_sides_a_whole_flood_finds() {
        let board = rooms();
        let mut whole = OneBox::new(&board);
        let mut sides = OneBox::new(&board);
        let mut state = 0x9e37_79b9_u64;
        let mut compared = 0;
        for round in 0..6 {
            let mut walls = vec![0u64; board.words];
            for _ in 0..round * 2 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                bits::set(&mut walls, (state % board.cells as u64) as u16);
            }
            for boxed in 0..board.cells as u16 {
                if bits::has(&walls, boxed) {
                    continue;
                }
                // Players next to the box, and a few further away.
                let near = (0..4).map(|d| board.neighbor(boxed, d));
                let far = [0, boxed / 2, board.cells as u16 - 1];
                for (d, player) in near.chain(far).enumerate() {
                    if player == NONE || player == boxed || bits::has(&walls, player) {
                        continue;
                    }
                    whole.reach(&board, &[player], &walls, boxed);
                    sides.reach_sides(&board, player, &walls, boxed);
                    for e in 0..4 {
                        let n = board.neighbor(boxed, e);
                        if n != NONE {
                            assert_eq!(whole.reached(n), sides.reached(n), "{boxed} {d} {e}");
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 500, "{compared}");
    }

    /// The box moves are the positions a plain breadth-first search over
    /// (box cell, player cell) states reaches, one per box cell and player
    /// region, each with its fewest pushes.
    #[test]
    fn box_moves_are_every_position_one_box_reaches_alone() {
        use std::collections::{HashMap, VecDeque};
        let board = rooms();
        let mut one_box = OneBox::new(&board);
        let mut moves = Vec::new();
        let mut total = 0;
        // The player's region as its lowest cell.
        let region = |walls: &[u64], boxed: u16, player: u16| {
            OneBox::new(&board).lowest_reached(&board, player, walls, boxed)
        };
        for &at in &board.start_boxes {
            let mut others = vec![0u64; board.words];
            for &b in &board.start_boxes {
                bits::set(&mut others, b);
            }
            bits::clear(&mut others, at);
            let player = board.start_player;
            // Plain search: pushes by breadth, the player walking freely.
            let mut fewest: HashMap<(u16, u16), u32> = HashMap::new();
            let mut seen = std::collections::HashSet::new();
            let mut queue = VecDeque::from([(at, player, 0u32)]);
            seen.insert((at, player));
            while let Some((b, p, pushes)) = queue.pop_front() {
                if b != at {
                    fewest.entry((b, region(&others, b, p))).or_insert(pushes);
                }
                let mut walk = OneBox::new(&board);
                walk.reach(&board, &[p], &others, b);
                for dir in 0..4 {
                    let behind = board.neighbor(b, (dir + 2) % 4);
                    let to = board.neighbor(b, dir);
                    if behind == NONE || to == NONE || !walk.reached(behind) {
                        continue;
                    }
                    if bits::has(&others, to) || board.dead[usize::from(to)] {
                        continue;
                    }
                    if seen.insert((to, b)) {
                        queue.push_back((to, b, pushes + 1));
                    }
                }
            }
            one_box.moves(&board, &others, at, player, &mut moves);
            let mut found = HashMap::new();
            for m in &moves {
                let stand = board.neighbor(m.to, usize::from((m.dir + 2) % 4));
                let key = (m.to, region(&others, m.to, stand));
                assert!(found.insert(key, m.pushes).is_none(), "{key:?} twice");
            }
            assert_eq!(found, fewest, "the box on {at}");
            total += moves.len();
        }
        assert!(total > 20, "{total}");
    }
}
