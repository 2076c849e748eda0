//! Backward search: play the level in reverse, from the solved position
//! back to the start, pulling boxes instead of pushing them.
//!
//! Levels whose goals sit in a room behind a narrow door are hard forwards
//! (every box must come in in the right order without blocking the door)
//! and easy backwards: out of a full room there are few pulls to choose
//! from, and the search then only has to lead each box back to one of the
//! start cells. The reversed game starts from every goal filled, with the
//! player in any region next to a box, and ends when every box stands on a
//! start cell with the start player's cell in the player's region. Its
//! greedy best-first search orders positions by a matching of boxes to
//! start cells on lone-box pull distances (the [`Matching`] of the forward
//! search with another cost table). Read backwards, its pulls are the
//! pushes of a solution.
//!
//! Deadlocks of the reversed game are few (a box can be pulled away from a
//! wall whenever the player fits): it prunes only cells from which no
//! start cell can be reached. Pulls through one-wide tunnels come in runs
//! (see `Backward::tunnel_end`).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::Control;
use super::bits;
use super::board::{Board, Distances, FAR, NONE};
use super::layers::Layers;
use super::lower_bound::{Costs, Matching};
use super::marks::Marks;
use super::search::End;
use super::store::{Found, MAX_RUN, NO_PARENT, Push, PushKind, Store};
use super::zobrist::Zobrist;

pub(crate) struct Backward<'a> {
    board: &'a Board,
    /// Fewest pulls taking a lone box from `c` to start cell
    /// `board.start_boxes[s]`: `lone` at `s * cells + c`, `by_piece` (the
    /// player in a given piece around the box) as in [`Distances`].
    distance: Distances,
    /// A box here can never be pulled back to any start cell.
    dead: Vec<bool>,
    /// A box starts here.
    is_start: Vec<bool>,
    zobrist: Zobrist,
    pub store: Store,
    open: BinaryHeap<(Reverse<u64>, u32)>,
    matching: Matching,
    /// Flood scratch: the cells the player reaches.
    reach: Marks,
    queue: Vec<u16>,
    /// The expanded node's reach, kept apart while its children flood.
    node_reach: Marks,
    boxes: Vec<u64>,
    list: Vec<u16>,
    pub expanded: u64,
    pub depth: u32,
    pub bound: u32,
    /// Met in the middle (see [`Backward::with_layers`]): the open list by
    /// depth, used instead of `open`.
    layers: Option<Layers>,
}

impl<'a> Backward<'a> {
    /// `None` when the reversed game is not defined: more goals than boxes
    /// (the solved position is then not one position but many).
    pub fn new(board: &'a Board, memory_mb: usize) -> Option<Backward<'a>> {
        let boxes = board.start_boxes.len();
        if board.goals.len() != boxes || boxes == 0 {
            return None;
        }
        let distance = pull_distances(board);
        let dead = (0..board.cells)
            .map(|c| (0..boxes).all(|s| distance.lone[s * board.cells + c] == FAR))
            .collect();
        let mut is_start = vec![false; board.cells];
        for &s in &board.start_boxes {
            is_start[usize::from(s)] = true;
        }
        Some(Backward {
            board,
            distance,
            dead,
            is_start,
            zobrist: Zobrist::new(board.cells),
            store: Store::new(board.words, board.cells, memory_mb),
            open: BinaryHeap::new(),
            matching: Matching::new(boxes, boxes, board.cells),
            reach: Marks::new(board.cells),
            queue: Vec::with_capacity(board.cells),
            node_reach: Marks::new(board.cells),
            boxes: vec![0; board.words],
            list: Vec::with_capacity(boxes),
            expanded: 0,
            depth: 0,
            bound: 0,
            layers: None,
        })
    }

    /// For [`meet`](mod@super::meet): an A* over single pulls, its open list by
    /// depth, run in rounds (see [`meet::Round`](super::meet::Round)). A node reached with
    /// fewer pulls is queued again, and no pulls come in runs, so that
    /// every position a forward solution passes through is one this search
    /// can reach at its true distance.
    pub fn with_layers(mut self) -> Backward<'a> {
        self.layers = Some(Layers::default());
        self
    }

    /// The player's cell the bound prices boxes from (see
    /// `Costs::seen_from`): only in the A* that pushes mode meets. Fast
    /// mode's greedy search keeps the lone distances: steered by the finer
    /// bound it loses more hard levels than it gains.
    fn bound_player(&self, player: u16) -> u16 {
        if self.layers.is_some() { player } else { NONE }
    }

    /// The layered open list (see [`Backward::with_layers`]).
    pub fn layers(&mut self) -> Option<&mut Layers> {
        self.layers.as_mut()
    }

    /// Queues a node reached with `cost` pulls and bound `bound`.
    fn enqueue(&mut self, id: u32, cost: u64, bound: u32) {
        match &mut self.layers {
            Some(layers) => {
                let depth = cost.min(u64::from(u32::MAX)) as u32;
                layers.push(depth, depth.saturating_add(bound), id);
            }
            None => {
                let priority = u64::from(bound) << 32 | cost.min(u64::from(u32::MAX));
                self.open.push((Reverse(priority), id));
            }
        }
    }

    /// Floods the player's region from `from` around `boxes`; returns its
    /// lowest cell (the region's normal form). Reached cells are marked in
    /// `reach`.
    fn flood(&mut self, boxes: &[u64], from: u16) -> u16 {
        self.reach.clear();
        self.queue.clear();
        self.queue.push(from);
        self.reach.mark(from);
        let mut lowest = from;
        let mut head = 0;
        while let Some(&c) = self.queue.get(head) {
            head += 1;
            for &n in &self.board.neighbors[usize::from(c)] {
                if n != NONE && !bits::has(boxes, n) && self.reach.insert(n) {
                    lowest = lowest.min(n);
                    self.queue.push(n);
                }
            }
        }
        lowest
    }

    /// Stores the solved position with the player in each region next to
    /// a box, one root each.
    pub fn start(&mut self) -> Option<End> {
        let board = self.board;
        let mut boxes = vec![0u64; board.words];
        for &g in &board.goals {
            bits::set(&mut boxes, g);
        }
        let mut goals = board.goals.clone();
        goals.sort_unstable();
        if self
            .matching
            .solve(pull_costs(board, &self.distance), &goals)
            .is_none()
        {
            return Some(End::Exhausted);
        }
        let hash = self.zobrist.boxes_hash(&goals);
        let mut covered = vec![false; board.cells];
        for cell in 0..board.cells as u16 {
            if covered[usize::from(cell)] || bits::has(&boxes, cell) {
                continue;
            }
            let lowest = self.flood(&boxes, cell);
            let mut next_to_box = false;
            for &c in &self.queue {
                covered[usize::from(c)] = true;
                next_to_box |= board.neighbors[usize::from(c)]
                    .iter()
                    .any(|&n| n != NONE && bits::has(&boxes, n));
            }
            if !next_to_box {
                continue;
            }
            // The bound depends on the player's side of each box.
            let costs = pull_costs(board, &self.distance).seen_from(self.bound_player(lowest));
            let Some(bound) = self.matching.solve(costs, &goals) else {
                continue;
            };
            let hash = hash ^ self.zobrist.player(lowest);
            match self
                .store
                .find_or_insert(hash, &boxes, lowest, NO_PARENT, Push::default(), 0)
            {
                Some(Found::New(id)) => self.enqueue(id, 0, bound),
                Some(Found::Old(_)) => {}
                None => return Some(End::OutOfMemory),
            }
        }
        None
    }

    /// Expands up to `budget` nodes; `None` when the search goes on.
    pub fn advance(&mut self, control: &Control<'_>, budget: u64) -> Option<End> {
        let stop_at = self.expanded + budget;
        while self.expanded < stop_at {
            let Some((_, id)) = self.open.pop() else {
                return Some(End::Exhausted);
            };
            if let Some(end) = self.step(id, control) {
                return Some(end);
            }
        }
        None
    }

    /// Expands node `id`, taken from the open list; `Some` when that ends
    /// the search.
    fn step(&mut self, id: u32, control: &Control<'_>) -> Option<End> {
        if control.cancelled() {
            return Some(End::Cancelled);
        }
        let mut boxes = std::mem::take(&mut self.boxes);
        let mut list = std::mem::take(&mut self.list);
        boxes.copy_from_slice(self.store.boxes(id));
        bits::cells(&boxes, &mut list);
        let player = self.bound_player(self.store.player(id));
        let costs = pull_costs(self.board, &self.distance).seen_from(player);
        let end = match self.matching.solve_near(costs, &list) {
            None => None,
            Some(bound) => {
                list.clear();
                list.extend_from_slice(self.matching.rows());
                self.expanded += 1;
                self.depth = self.store.cost[id as usize] as u32;
                self.bound = bound;
                match self.expand(id, &mut boxes, &list) {
                    Ok(Some(goal)) => Some(End::Found(goal)),
                    Ok(None) => None,
                    Err(()) => Some(End::OutOfMemory),
                }
            }
        };
        self.boxes = boxes;
        self.list = list;
        end
    }

    /// Generates the pulls of node `id`; `Ok(Some(node))` when one reaches
    /// the start position, `Err` when the store is full.
    fn expand(&mut self, id: u32, boxes: &mut [u64], list: &[u16]) -> Result<Option<u32>, ()> {
        let board = self.board;
        let cost = self.store.cost[id as usize];
        self.flood(boxes, self.store.player(id));
        self.node_reach.clear();
        for &c in &self.queue {
            self.node_reach.mark(c);
        }
        let boxes_hash = self.zobrist.boxes_hash(list);
        for (row, &from) in list.iter().enumerate() {
            for dir in 0..4 {
                // The player stands on `to` and steps on to `beyond`; the
                // box follows onto `to`.
                let to = board.neighbor(from, dir);
                if to == NONE || !self.node_reach.contains(to) {
                    continue;
                }
                let beyond = board.neighbor(to, dir);
                if beyond == NONE || bits::has(boxes, beyond) || self.dead[usize::from(to)] {
                    continue;
                }
                let (end, count) = if self.layers.is_some() {
                    (to, 1)
                } else {
                    self.tunnel_end(boxes, to, dir)
                };
                // The player ends beyond the box, on its side `dir`.
                let stand = board.neighbor(end, dir);
                bits::clear(boxes, from);
                bits::set(boxes, end);
                let quick = if count == 1 {
                    let node_reach = &self.node_reach;
                    board.region_after_push(
                        boxes,
                        |c| node_reach.contains(c),
                        from,
                        to,
                        self.store.player(id),
                    )
                } else {
                    None
                };
                let lowest = match quick {
                    Some(lowest) => {
                        debug_assert_eq!(lowest, self.flood(boxes, beyond));
                        lowest
                    }
                    None => self.flood(boxes, stand),
                };
                let hash = boxes_hash
                    ^ self.zobrist.boxed(from)
                    ^ self.zobrist.boxed(end)
                    ^ self.zobrist.player(lowest);
                let cost = cost + u64::from(count);
                // A position stored already, no cheaper than now: whatever
                // its bound, nothing follows for it, so the store is asked
                // first.
                let known = self.store.find(hash, boxes, lowest);
                let bound = match known {
                    Some(known)
                        if self.layers.is_none() || cost >= self.store.cost[known as usize] =>
                    {
                        None
                    }
                    _ => {
                        let costs =
                            pull_costs(board, &self.distance).seen_from(self.bound_player(stand));
                        self.matching.with_moved(costs, row, end)
                    }
                };
                let Some(bound) = bound else {
                    bits::clear(boxes, end);
                    bits::set(boxes, from);
                    continue;
                };
                // At bound 0 the player's reach is needed for the start cell
                // (the quick region above did not flood).
                if bound == 0 && quick.is_some() {
                    self.flood(boxes, stand);
                }
                let done = bound == 0 && self.reach.contains(board.start_player);
                // Forwards these are pushes of the box on `end` back onto
                // `from`, the player coming from beyond it.
                let push = Push::straight(end, ((dir + 2) % 4) as u8, count);
                let found = self
                    .store
                    .find_or_insert(hash, boxes, lowest, id, push, cost);
                bits::clear(boxes, end);
                bits::set(boxes, from);
                match found {
                    None => return Err(()),
                    Some(Found::New(child)) => {
                        // Met in the middle, the start position is one the
                        // forward search starts from.
                        if done && self.layers.is_none() {
                            return Ok(Some(child));
                        }
                        self.enqueue(child, cost, bound);
                    }
                    Some(Found::Old(child)) => {
                        if self.layers.is_some() && cost < self.store.cost[child as usize] {
                            self.store.relink(child, id, push, cost);
                            self.store.closed[child as usize] = false;
                            self.enqueue(child, cost, bound);
                        }
                    }
                }
            }
        }
        Ok(None)
    }

    /// Tunnel macro, reversed: where a box pulled onto `to` in direction
    /// `dir` goes on to, and how many pulls in all. While the box and the
    /// player in front of it both stand in a one-wide straight tunnel
    /// (walls on both sides of each), nothing can pass them: a pull back
    /// would only undo the last one, and no other box can be pulled onto
    /// the tunnel cells they free. So the box's next pull is onward, and
    /// the pulls inside the tunnel may as well come in one run, as the
    /// forward search's pushes do. The run stops on a start cell, or where
    /// the player's next cell is taken or the box's would be dead.
    fn tunnel_end(&self, boxes: &[u64], to: u16, dir: usize) -> (u16, u16) {
        let board = self.board;
        let walled = |c: u16| board.walled_across(c, dir);
        let (mut end, mut count) = (to, 1u16);
        loop {
            let player = board.neighbor(end, dir);
            if player == NONE
                || self.is_start[usize::from(end)]
                || !walled(end)
                || !walled(player)
                || self.dead[usize::from(player)]
                || count == MAX_RUN
            {
                return (end, count);
            }
            let next = board.neighbor(player, dir);
            if next == NONE || bits::has(boxes, next) {
                return (end, count);
            }
            end = player;
            count += 1;
        }
    }

    /// The pushes (box cell, direction, count) of the solution whose pulls
    /// end at the start position `goal`, in the order they are played
    /// forwards: the last pull comes first.
    pub fn runs(&self, goal: u32) -> Option<Vec<(u16, u8, u16)>> {
        let mut runs = Vec::new();
        let mut node = goal;
        while self.store.parent(node) != NO_PARENT {
            let PushKind::Run(from, dir, count) = self.store.push(node).kind() else {
                return None;
            };
            runs.push((from, dir, count));
            node = self.store.parent(node);
        }
        Some(runs)
    }
}

impl super::meet::Round for Backward<'_> {
    fn expanded(&self) -> u64 {
        self.expanded
    }

    fn next(&mut self, f_limit: u32, dive: bool) -> Option<u32> {
        if dive {
            return None;
        }
        let (cost, closed) = (&self.store.cost, &self.store.closed);
        // Stale: reached with fewer pulls since, or expanded already.
        let live =
            |depth: u32, id: u32| cost[id as usize] == u64::from(depth) && !closed[id as usize];
        let id = self.layers.as_mut()?.take(f_limit, live)?;
        self.store.closed[id as usize] = true;
        Some(id)
    }

    fn expand_next(&mut self, id: u32, control: &Control<'_>) -> Option<End> {
        self.step(id, control)
    }
}

/// The matching's costs over pull distances.
pub(crate) fn pull_costs<'a>(board: &'a Board, distance: &'a Distances) -> Costs<'a> {
    Costs::from_tables(0, board, &distance.lone, &distance.by_piece)
}

/// Lone-box pull distances to each start cell: a box pulled from `c` to `s`
/// is a box pushed from `s` to `c`, so each start cell is searched forwards
/// (breadth first over box cell and player side).
pub(crate) fn pull_distances(board: &Board) -> Distances {
    let cells = board.cells;
    let starts = board.start_boxes.len();
    let mut result = vec![FAR; starts * cells];
    let mut by_piece = vec![FAR; cells * 4 * starts];
    let mut seen = vec![false; cells * 4];
    let mut queue = VecDeque::new();
    for (s, &start) in board.start_boxes.iter().enumerate() {
        seen.iter_mut().for_each(|x| *x = false);
        queue.clear();
        result[s * cells + usize::from(start)] = 0;
        for piece in 0..4 {
            by_piece[(usize::from(start) * 4 + piece) * starts + s] = 0;
        }
        for side in 0..4 {
            if board.neighbor(start, side) != NONE {
                seen[usize::from(start) * 4 + side] = true;
                queue.push_back((start, side, 0u16));
            }
        }
        while let Some((boxed, side, pushes)) = queue.pop_front() {
            // The player on `side` pushes the box the other way; it then
            // stands where the box was, on the same side of it.
            let to = board.neighbor(boxed, (side + 2) % 4);
            if to == NONE {
                continue;
            }
            let group = board.side_group[usize::from(to) * 4 + side];
            for other in 0..4 {
                let state = usize::from(to) * 4 + other;
                if board.neighbor(to, other) != NONE
                    && board.side_group[state] == group
                    && !seen[state]
                {
                    seen[state] = true;
                    queue.push_back((to, other, pushes + 1));
                }
            }
            let best = &mut result[s * cells + usize::from(to)];
            *best = (*best).min(pushes + 1);
            // Pushed here from `side`, the box is pulled back first from
            // the piece the player stands in.
            let best = &mut by_piece[(usize::from(to) * 4 + usize::from(group)) * starts + s];
            *best = (*best).min(pushes + 1);
        }
    }
    Distances {
        lone: result,
        by_piece,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Level;
    use crate::solver::{Mode, Options, Outcome, finish, solve};

    /// Runs the backward search alone to the end: the verified solution,
    /// `Ok(None)` when it proves the level unsolvable.
    fn solve_backward(level: &Level) -> Result<Option<u32>, String> {
        let board =
            Board::new(level.map(), level.player(), level.boxes()).map_err(|e| format!("{e:?}"))?;
        let mut search = Backward::new(&board, 64).ok_or("no backward search")?;
        let control = Control::new();
        let end = match search.start() {
            Some(end) => end,
            None => loop {
                if let Some(end) = search.advance(&control, 1 << 20) {
                    break end;
                }
            },
        };
        match end {
            End::Found(goal) => {
                let runs = search.runs(goal).ok_or("not a straight push")?;
                match finish(level, &board, &runs, Mode::Fast) {
                    Outcome::Solved(solution) => Ok(Some(solution.pushes)),
                    other => Err(format!("{other:?}")),
                }
            }
            End::Exhausted => Ok(None),
            End::Cancelled | End::OutOfMemory => Err("stopped".into()),
        }
    }

    #[test]
    fn pull_distances_are_push_distances_from_the_start_cells() {
        // One box on column 3 of a corridor: pulled back there from two cells
        // away either side, two pulls (from the corner too: it is pulled out
        // along the corridor).
        let level = Level::from_xsb("#######\n#@ $ .#\n#######").unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let at = |column: usize| usize::from(board.compact[level.map().index(column, 1)]);
        let distance = pull_distances(&board).lone;
        assert_eq!(distance[at(3)], 0);
        assert_eq!(distance[at(5)], 2);
        assert_eq!(distance[at(4)], 1);
        assert_eq!(distance[at(2)], 1);
        assert_eq!(distance[at(1)], 2);
    }

    #[test]
    fn pulls_read_backwards_solve_the_level() {
        assert_eq!(
            solve_backward(&Level::from_xsb("#######\n#@ $ .#\n#######").unwrap()),
            Ok(Some(2))
        );
        // Boxes in a row, to be pushed round each other onto goals in a
        // one-wide dead end.
        let room = "\
#########
#....   #
####  $ #
#  $ $  #
#     $@#
#       #
#########";
        let level = Level::from_xsb(room).unwrap();
        let options = Options {
            mode: Mode::Pushes,
            ..Options::default()
        };
        let Outcome::Solved(optimal) = solve(&level, &options, &mut Control::new()) else {
            panic!("the room is solvable");
        };
        let pushes = solve_backward(&level).unwrap().unwrap();
        assert!(pushes >= optimal.pushes);
    }

    #[test]
    fn running_dry_proves_a_level_unsolvable() {
        // The box can reach the goal alone, but the second box blocks the
        // only way round.
        let level = Level::from_xsb("#######\n#.$$@.#\n#######").unwrap();
        assert_eq!(solve_backward(&level), Ok(None));
        assert_eq!(
            solve(&level, &Options::default(), &mut Control::new()),
            Outcome::Unsolvable
        );
    }

    #[test]
    fn a_box_pulled_into_a_tunnel_goes_through_in_one_run() {
        // Backwards, the box is pulled off its goal along a one-high
        // corridor: one run of five pulls to the start cell, two positions.
        let level = Level::from_xsb("##########\n#@ $    .#\n##########").unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut search = Backward::new(&board, 64).unwrap();
        assert!(search.start().is_none());
        let Some(End::Found(goal)) = search.advance(&Control::new(), 10) else {
            panic!("not solved");
        };
        assert_eq!(search.store.len(), 2);
        let runs = search.runs(goal).unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].2, 5);
        assert_eq!(solve_backward(&level), Ok(Some(5)));
    }

    /// Small random rooms: the backward search finds a verified solution
    /// exactly when the push-optimal search proves one exists.
    #[test]
    fn agrees_with_the_forward_search_on_random_rooms() {
        let rooms = Rooms {
            size: (5, 4),
            wall_one_in: 6,
            narrow_one_in: None,
        };
        rooms.agree(0x2545_f491_4f6c_dd1d, 600, 40);
    }

    /// The same in long rooms where many columns narrow to one cell, so
    /// that boxes are pulled through one-wide tunnels (the tunnel macro).
    #[test]
    fn agrees_with_the_forward_search_on_rooms_of_tunnels() {
        let rooms = Rooms {
            size: (9, 5),
            wall_one_in: 12,
            narrow_one_in: Some(3),
        };
        rooms.agree(0x9e37_79b9_7f4a_7c15, 1500, 80);
    }

    /// Random rooms of `size` (inner width, height), one cell in
    /// `wall_one_in` a wall, and one column in `narrow_one_in` walled but
    /// for its middle cell.
    struct Rooms {
        size: (usize, usize),
        wall_one_in: usize,
        narrow_one_in: Option<usize>,
    }

    impl Rooms {
        /// Checks the two searches agree on `count` rooms, at least `each`
        /// of them solvable and `each` unsolvable.
        fn agree(&self, seed: u64, count: usize, each: usize) {
            let mut state = seed;
            let mut next = |n: usize| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state % n as u64) as usize
            };
            let (mut solvable, mut unsolvable) = (0, 0);
            for _ in 0..count {
                let (w, h) = self.size;
                let mut grid = vec![vec!['#'; w + 2]; h + 2];
                for c in 1..=w {
                    let narrow = self.narrow_one_in.is_some_and(|n| next(n) == 0);
                    for (r, row) in grid.iter_mut().enumerate().take(h + 1).skip(1) {
                        let wall = if narrow {
                            r != h.div_ceil(2)
                        } else {
                            next(self.wall_one_in) == 0
                        };
                        row[c] = if wall { '#' } else { ' ' };
                    }
                }
                let mut free: Vec<(usize, usize)> = (1..=h)
                    .flat_map(|r| (1..=w).map(move |c| (r, c)))
                    .filter(|&(r, c)| grid[r][c] == ' ')
                    .collect();
                if free.len() < 6 {
                    continue;
                }
                for mark in ['@', '$', '$', '.', '.'] {
                    let (r, c) = free.swap_remove(next(free.len()));
                    grid[r][c] = mark;
                }
                let text: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
                let Ok(level) = Level::from_xsb(&text.join("\n")) else {
                    continue;
                };
                if Board::new(level.map(), level.player(), level.boxes()).is_err() {
                    continue;
                }
                let options = Options {
                    mode: Mode::Pushes,
                    ..Options::default()
                };
                let forward = solve(&level, &options, &mut Control::new());
                let backward = solve_backward(&level);
                match forward {
                    Outcome::Solved(solution) => {
                        solvable += 1;
                        let pushes = backward.unwrap().unwrap_or_else(|| panic!("{text:?}"));
                        assert!(pushes >= solution.pushes, "{text:?}");
                    }
                    Outcome::Unsolvable => {
                        unsolvable += 1;
                        assert_eq!(backward, Ok(None), "{text:?}");
                    }
                    other => panic!("{other:?}"),
                }
            }
            assert!(
                solvable >= each && unsolvable >= each,
                "{solvable} {unsolvable}"
            );
        }
    }
}
