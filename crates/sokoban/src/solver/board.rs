//! The solver's compact view of a level: only the cells the player can ever
//! reach, renumbered densely, with neighbour tables, goals, dead squares and
//! push distances (box to goal, alone on the board) precomputed once.

use std::collections::VecDeque;
use std::sync::OnceLock;

use super::bits;
use super::packing::Packing;
use crate::Direction;
use crate::map::Map;

/// "No cell": a wall, or off the board.
pub(crate) const NONE: u16 = u16::MAX;
/// A push distance meaning "never".
pub(crate) const FAR: u16 = u16::MAX;

/// A piece label meaning "not known": the player's cell is the box's.
pub(crate) const UNKNOWN_PIECE: u8 = u8::MAX;

/// Lone-box push distances to each goal.
pub(crate) struct Distances {
    /// `lone[g * cells + c]`: fewest pushes moving a lone box from `c` onto
    /// goal `g`, wherever the player is, or [`FAR`].
    pub lone: Vec<u16>,
    /// `by_piece[(c * 4 + p) * goals + g]`: the same for the player in
    /// piece `p` of the board around the box (labels of
    /// [`Board::side_group`]). The box's first push is made from a side the
    /// player can reach without passing it; when the box stands in a door,
    /// the side it is entered from can cost many more pushes.
    pub by_piece: Vec<u16>,
}

/// Which piece around a cell (blocked by a box) each cell lies in, kept for
/// the cells that cut the board: around the others there is one piece.
#[derive(Default)]
struct Pieces {
    /// Cell → where its labels begin in `labels`; or [`ONE_PIECE`], or
    /// [`NOT_KEPT`].
    start: Vec<u32>,
    labels: Vec<u8>,
}

/// A cell whose blocking leaves the board in one piece.
const ONE_PIECE: u32 = u32::MAX;
/// A cell that cuts the board, its labels not kept: a cells × cells table
/// on a huge board would not fit, and such cells are priced as before.
const NOT_KEPT: u32 = u32::MAX - 1;
/// The most labels kept (bytes).
const MAX_PIECE_LABELS: usize = 32 << 20;

/// A depth-first search forest of the cells that are not walls, with what
/// tells the pieces around any blocked cell apart in constant time.
struct DfsTree {
    /// Visit order of each cell ([`u32::MAX`] for walls).
    order: Vec<u32>,
    /// The last visit order within each cell's subtree.
    last: Vec<u32>,
    /// The lowest visit order reachable from the subtree by one back edge.
    low: Vec<u32>,
    parent: Vec<u16>,
    /// The root of each cell's tree: which component it lies in.
    root: Vec<u16>,
}

/// [`DfsTree::piece`] of cells outside every separate subtree.
const REST: u32 = u32::MAX;

impl DfsTree {
    fn new(board: &Board, walls: &[u64]) -> DfsTree {
        let cells = board.cells;
        let mut tree = DfsTree {
            order: vec![u32::MAX; cells],
            last: vec![0; cells],
            low: vec![0; cells],
            parent: vec![NONE; cells],
            root: vec![NONE; cells],
        };
        let mut next = 0u32;
        // (cell, next direction to try): an explicit stack, as a path can be
        // as long as the board.
        let mut stack: Vec<(u16, u8)> = Vec::new();
        for root in 0..cells as u16 {
            if tree.order[usize::from(root)] != u32::MAX || bits::has(walls, root) {
                continue;
            }
            tree.visit(root, NONE, root, &mut next);
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let (cell, dir) = *top;
                let c = usize::from(cell);
                if dir == 4 {
                    stack.pop();
                    tree.last[c] = next - 1;
                    let p = tree.parent[c];
                    if p != NONE {
                        let low = tree.low[c];
                        let parent_low = &mut tree.low[usize::from(p)];
                        *parent_low = (*parent_low).min(low);
                    }
                    continue;
                }
                top.1 += 1;
                let n = board.neighbors[c][usize::from(dir)];
                if n == NONE || bits::has(walls, n) {
                    continue;
                }
                let seen = tree.order[usize::from(n)];
                if seen == u32::MAX {
                    tree.visit(n, cell, root, &mut next);
                    stack.push((n, 0));
                } else if n != tree.parent[c] {
                    tree.low[c] = tree.low[c].min(seen);
                }
            }
        }
        tree
    }

    fn visit(&mut self, cell: u16, parent: u16, root: u16, next: &mut u32) {
        let c = usize::from(cell);
        self.order[c] = *next;
        self.low[c] = *next;
        self.parent[c] = parent;
        self.root[c] = root;
        *next += 1;
    }

    /// Which piece around a box on `blocked` the cell `cell` lies in, as a key
    /// equal for cells of the same piece: a child of `blocked` heading a
    /// separate subtree, [`REST`] for the rest of its component, or (for a
    /// blocked wall, outside the forest) the root of the cell's tree.
    fn piece(&self, board: &Board, blocked: usize, cell: u16) -> u32 {
        let c = usize::from(cell);
        let (order, last) = (self.order[blocked], self.last[blocked]);
        if order == u32::MAX {
            return u32::from(self.root[c]);
        }
        let at = self.order[c];
        if at <= order || at > last {
            return REST;
        }
        board.neighbors[blocked]
            .iter()
            .find(|&&child| {
                child != NONE
                    && self.parent[usize::from(child)] == blocked as u16
                    && self.order[usize::from(child)] <= at
                    && at <= self.last[usize::from(child)]
            })
            .filter(|&&child| self.low[usize::from(child)] >= order)
            .map_or(REST, |&child| u32::from(child))
    }
}

/// Why a position cannot be turned into a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BoardError {
    /// Provably unsolvable before searching (a box stuck outside the
    /// player's reach off goal, more boxes than usable goals, ...).
    Unsolvable,
    /// Too many cells for 16-bit cell numbers, or more goals × cells than
    /// [`super::MAX_GOAL_CELLS`].
    TooLarge,
}

pub(crate) struct Board {
    /// Number of compact cells.
    pub cells: usize,
    /// 64-bit words in a box bitset.
    pub words: usize,
    /// Compact cell → cell index of the original map.
    pub original: Vec<usize>,
    /// Original cell index → compact cell, or [`NONE`].
    pub compact: Vec<u16>,
    /// Columns of the original map (original index = row × width + column).
    pub width: usize,
    /// Neighbours in [`Direction::ALL`] order.
    pub neighbors: Vec<[u16; 4]>,
    pub is_goal: Vec<bool>,
    pub goals: Vec<u16>,
    /// A box here can never reach any goal.
    pub dead: Vec<bool>,
    /// `distance[g * cells + c]`: fewest pushes moving a lone box from `c`
    /// onto goal `goals[g]`, or [`FAR`].
    pub distance: Vec<u16>,
    /// `side_group[c * 4 + d]`: which connected piece of the board the
    /// neighbour of `c` in direction `d` belongs to once `c` is blocked
    /// (sides with equal labels are connected around a box on `c`).
    pub side_group: Vec<u16>,
    /// [`Board::distance`] for the player in a given piece around the box:
    /// see [`Distances::by_piece`].
    pub distance_by_piece: Vec<u16>,
    /// Which piece around each cell every other cell lies in, for the cells
    /// whose blocking cuts the board (see [`Board::piece_of`]).
    pieces: Pieces,
    /// Box cells of the starting position (compact, sorted).
    pub start_boxes: Vec<u16>,
    pub start_player: u16,
    /// The goals' packing order, found on first use (see [`Board::packing`]).
    packing: OnceLock<Option<Packing>>,
}

impl Board {
    /// Builds the board for a position: `player` and `boxes` are original
    /// cell indices.
    pub fn new(map: &Map, player: usize, boxes: &[usize]) -> Result<Board, BoardError> {
        if !map.is_walkable(player) {
            return Err(BoardError::Unsolvable);
        }
        let reach = crate::region::flood(map, player, |c| map.is_walkable(c));
        let original: Vec<usize> = (0..map.len()).filter(|&c| reach[c]).collect();
        if original.len() >= usize::from(NONE) {
            return Err(BoardError::TooLarge);
        }
        let mut compact = vec![NONE; map.len()];
        for (i, &c) in original.iter().enumerate() {
            compact[c] = i as u16;
        }
        let cells = original.len();
        let mut start_boxes = Vec::new();
        for &b in boxes {
            match compact.get(b).copied() {
                Some(c) if c != NONE => start_boxes.push(c),
                // A box the player can never reach never moves: harmless on
                // a goal (it is just a wall), fatal off goal.
                _ if map.is_goal(b) => {}
                _ => return Err(BoardError::Unsolvable),
            }
        }
        start_boxes.sort_unstable();
        let neighbors: Vec<[u16; 4]> = original
            .iter()
            .map(|&c| {
                Direction::ALL.map(|d| {
                    map.neighbor(c, d)
                        .and_then(|n| compact.get(n).copied())
                        .unwrap_or(NONE)
                })
            })
            .collect();
        let is_goal: Vec<bool> = original.iter().map(|&c| map.is_goal(c)).collect();
        let goals: Vec<u16> = (0..cells)
            .filter(|&c| is_goal[c])
            .map(|c| c as u16)
            .collect();
        if goals.len() < start_boxes.len() {
            return Err(BoardError::Unsolvable);
        }
        if goals.len().saturating_mul(cells) > super::MAX_GOAL_CELLS {
            return Err(BoardError::TooLarge);
        }
        let mut board = Board {
            cells,
            words: cells.div_ceil(64).max(1),
            original,
            compact: compact.clone(),
            width: map.width(),
            neighbors,
            is_goal,
            goals,
            dead: Vec::new(),
            distance: Vec::new(),
            side_group: Vec::new(),
            distance_by_piece: Vec::new(),
            pieces: Pieces::default(),
            start_boxes,
            start_player: compact[player],
            packing: OnceLock::new(),
        };
        let (side_group, pieces) = board.side_groups(&[]);
        board.side_group = side_group;
        board.pieces = pieces;
        let distances = board.push_distances(&board.side_group, &[]);
        board.distance = distances.lone;
        board.distance_by_piece = distances.by_piece;
        board.dead = (0..cells)
            .map(|c| (0..board.goals.len()).all(|g| board.distance[g * cells + c] == FAR))
            .collect();
        Ok(board)
    }

    /// The goals' packing order, if they have one: computed once, when first
    /// asked for, and shared by all the searches that follow it.
    pub fn packing(&self) -> Option<&Packing> {
        self.packing.get_or_init(|| Packing::new(self)).as_ref()
    }

    #[inline]
    pub fn neighbor(&self, cell: u16, dir: usize) -> u16 {
        self.neighbors[usize::from(cell)][dir]
    }

    /// Whether `cell` has walls on both sides across direction `dir`: a
    /// box there can only move along `dir`, and nobody passes it.
    pub fn walled_across(&self, cell: u16, dir: usize) -> bool {
        self.neighbor(cell, (dir + 1) % 4) == NONE && self.neighbor(cell, (dir + 3) % 4) == NONE
    }

    /// The player's region (its lowest cell) after a single push of the box
    /// on `from` to `to` (`boxes` as after the push), from the region before
    /// it (cells for which `reached` holds, lowest cell `lowest`) without a
    /// flood, when that is easy to see: the freed cell `from` opens nothing
    /// new, and `to` either was out of reach or does not cut the region (its
    /// free neighbours stay joined around it). `None`: flood instead. Also
    /// for a pull of the box from `from` to `to`, the player on the far side
    /// of `to`: `from` then joins the region only through a free neighbour
    /// (after a push the player stands on it).
    pub fn region_after_push(
        &self,
        boxes: &[u64],
        reached: impl Fn(u16) -> bool,
        from: u16,
        to: u16,
        lowest: u16,
    ) -> Option<u16> {
        let reached = |c: u16| c != NONE && reached(c);
        let free = |c: u16| c != NONE && !bits::has(boxes, c);
        let mut joined = false;
        for d in 0..4 {
            let n = self.neighbor(from, d);
            if free(n) && !reached(n) {
                return None;
            }
            joined |= free(n);
        }
        if reached(to) {
            if lowest == to {
                return None;
            }
            // Free orthogonal neighbours of `to`, and links between
            // consecutive ones through a free corner.
            let (mut open, mut links) = (0, 0);
            for d in 0..4 {
                let a = self.neighbor(to, d);
                if !free(a) {
                    continue;
                }
                open += 1;
                let e = (d + 1) % 4;
                let b = self.neighbor(to, e);
                if free(b) && free(self.neighbor(a, e)) {
                    links += 1;
                }
            }
            let groups = if links == 4 { 1 } else { open - links };
            if groups > 1 {
                return None;
            }
        }
        Some(if joined { lowest.min(from) } else { lowest })
    }

    /// Push distances as in [`Board::distance`] with the cells of `walls`
    /// (a box bitset, e.g. boxes fixed on goals for good) turned into walls;
    /// a goal under such a wall is at distance 0 from itself only.
    pub fn distances_with_walls(&self, walls: &[u64]) -> Distances {
        let (side_group, _) = self.side_groups(walls);
        self.push_distances(&side_group, walls)
    }

    /// The piece of the board around a box on `cell` (its label in
    /// [`Board::side_group`]) that holds `player`, or [`UNKNOWN_PIECE`]
    /// when `player` is on `cell` or the board is too large to keep it. A box's piece for the player changes
    /// only when the box moves: the player walks around it, never through.
    #[inline]
    pub fn piece_of(&self, cell: u16, player: u16) -> u8 {
        match self.pieces.start[usize::from(cell)] {
            ONE_PIECE => 0,
            NOT_KEPT => UNKNOWN_PIECE,
            start => self.pieces.labels[start as usize + usize::from(player)],
        }
    }

    /// Labels the pieces the board falls into around each cell when that
    /// cell is blocked by a box (cells in `walls` are walls); and, without
    /// walls, which piece every cell lies in around the cells that cut the
    /// board in two or more.
    ///
    /// One depth-first search finds them all (Tarjan's cut vertices): around a
    /// blocked cell, each child subtree that no back edge leaves is a piece of
    /// its own and the rest of its component is one more; a flood around
    /// every cell would take cells² steps, far too slow on large rooms.
    /// Labels number the pieces in the order the neighbours meet them.
    fn side_groups(&self, walls: &[u64]) -> (Vec<u16>, Pieces) {
        let mut pieces = Pieces {
            start: vec![ONE_PIECE; self.cells],
            labels: Vec::new(),
        };
        let keep_pieces = walls.iter().all(|&w| w == 0);
        let tree = DfsTree::new(self, walls);
        let mut groups = vec![NONE; self.cells * 4];
        for blocked in 0..self.cells {
            // Pieces met so far, in order: their keys (see `DfsTree::piece`).
            let mut keys: Vec<u32> = Vec::with_capacity(4);
            for dir in 0..4 {
                let start = self.neighbors[blocked][dir];
                if start == NONE || bits::has(walls, start) {
                    continue;
                }
                let key = tree.piece(self, blocked, start);
                let label = keys.iter().position(|&k| k == key).unwrap_or_else(|| {
                    keys.push(key);
                    keys.len() - 1
                });
                groups[blocked * 4 + dir] = label as u16;
            }
            if keys.len() > 1 && pieces.labels.len() + self.cells > MAX_PIECE_LABELS {
                pieces.start[blocked] = NOT_KEPT;
            } else if keys.len() > 1 && keep_pieces {
                pieces.start[blocked] = pieces.labels.len() as u32;
                pieces.labels.extend((0..self.cells).map(|cell| {
                    if cell == blocked {
                        return UNKNOWN_PIECE;
                    }
                    let key = tree.piece(self, blocked, cell as u16);
                    keys.iter()
                        .position(|&k| k == key)
                        .map_or(UNKNOWN_PIECE, |label| label as u8)
                }));
            }
        }
        (groups, pieces)
    }

    /// Pulls a lone box away from each goal (breadth first over box cell and
    /// player side, the player walking around the box between pulls).
    /// `side_group` labels the pieces with `walls` walled in.
    fn push_distances(&self, side_group: &[u16], walls: &[u64]) -> Distances {
        let cells = self.cells;
        let goals = self.goals.len();
        let mut result = vec![FAR; goals * cells];
        let mut by_piece = vec![FAR; cells * 4 * goals];
        let mut seen = vec![FAR; cells * 4];
        let mut queue = VecDeque::new();
        for (g, &goal) in self.goals.iter().enumerate() {
            seen.iter_mut().for_each(|s| *s = FAR);
            queue.clear();
            result[g * cells + usize::from(goal)] = 0;
            let goal_cell = goal;
            if bits::has(walls, goal) {
                for piece in 0..4 {
                    by_piece[(usize::from(goal) * 4 + piece) * goals + g] = 0;
                }
                continue;
            }
            let goal = usize::from(goal);
            for dir in 0..4 {
                let n = self.neighbors[goal][dir];
                if n != NONE && !bits::has(walls, n) {
                    seen[goal * 4 + dir] = 0;
                    queue.push_back(goal * 4 + dir);
                }
            }
            result[g * cells + goal] = 0;
            while let Some(state) = queue.pop_front() {
                let (boxed, side) = (state / 4, state % 4);
                let cost = seen[state];
                // Pull: the box follows the player one cell towards `side`.
                let to = self.neighbors[boxed][side];
                if to == NONE {
                    continue;
                }
                if bits::has(walls, to) {
                    continue;
                }
                let to = usize::from(to);
                let beyond = self.neighbors[to][side];
                if beyond == NONE || bits::has(walls, beyond) {
                    continue;
                }
                let group = side_group[to * 4 + side];
                for other in 0..4 {
                    let n = self.neighbors[to][other];
                    if n != NONE
                        && !bits::has(walls, n)
                        && side_group[to * 4 + other] == group
                        && seen[to * 4 + other] == FAR
                    {
                        seen[to * 4 + other] = cost + 1;
                        queue.push_back(to * 4 + other);
                    }
                }
                let best = &mut result[g * cells + to];
                *best = (*best).min(cost + 1);
            }
            // Sides are labelled by the pieces without walls: a piece then
            // takes its best side, as the walls may split it.
            for c in 0..cells {
                for side in 0..4 {
                    let d = if c == usize::from(goal_cell) {
                        0
                    } else {
                        seen[c * 4 + side]
                    };
                    let piece = self.side_group[c * 4 + side];
                    if d == FAR || piece == NONE {
                        continue;
                    }
                    let best = &mut by_piece[(c * 4 + usize::from(piece)) * goals + g];
                    *best = (*best).min(d);
                }
                if c == usize::from(goal_cell) {
                    for piece in 0..4 {
                        by_piece[(c * 4 + piece) * goals + g] = 0;
                    }
                }
            }
        }
        Distances {
            lone: result,
            by_piece,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Board {
        /// The old flood around every cell, the reference for [`Board::side_groups`].
        fn side_groups_by_floods(&self, walls: &[u64]) -> (Vec<u16>, Pieces) {
            let mut pieces = Pieces {
                start: vec![ONE_PIECE; self.cells],
                labels: Vec::new(),
            };
            let keep_pieces = walls.iter().all(|&w| w == 0);
            let mut groups = vec![NONE; self.cells * 4];
            // `mark[c]` is the flood number that reached `c`; floods are
            // numbered globally so nothing needs clearing between cells.
            let mut mark = vec![u32::MAX; self.cells];
            let mut flood = 0u32;
            let mut stack = Vec::new();
            for blocked in 0..self.cells {
                let first = flood;
                for dir in 0..4 {
                    let start = self.neighbors[blocked][dir];
                    if start == NONE || bits::has(walls, start) {
                        continue;
                    }
                    let seen = mark[usize::from(start)];
                    if seen != u32::MAX && seen >= first {
                        groups[blocked * 4 + dir] = (seen - first) as u16;
                        continue;
                    }
                    mark[usize::from(start)] = flood;
                    stack.push(start);
                    while let Some(c) = stack.pop() {
                        for &n in &self.neighbors[usize::from(c)] {
                            if n != NONE
                                && usize::from(n) != blocked
                                && mark[usize::from(n)] != flood
                                && !bits::has(walls, n)
                            {
                                mark[usize::from(n)] = flood;
                                stack.push(n);
                            }
                        }
                    }
                    groups[blocked * 4 + dir] = (flood - first) as u16;
                    flood += 1;
                }
                // Floods `first..flood` are this cell's pieces; `mark` still
                // tells which one reached each cell.
                if flood - first > 1 && pieces.labels.len() + self.cells > MAX_PIECE_LABELS {
                    pieces.start[blocked] = NOT_KEPT;
                } else if flood - first > 1 && keep_pieces {
                    pieces.start[blocked] = pieces.labels.len() as u32;
                    pieces.labels.extend(mark.iter().map(|&m| {
                        if m != u32::MAX && m >= first {
                            (m - first) as u8
                        } else {
                            UNKNOWN_PIECE
                        }
                    }));
                }
            }
            (groups, pieces)
        }
    }

    fn same_pieces(board: &Board, walls: &[u64]) -> Result<(), String> {
        let (groups, pieces) = board.side_groups(walls);
        let (want_groups, want_pieces) = board.side_groups_by_floods(walls);
        if groups != want_groups {
            return Err("side groups differ".into());
        }
        if pieces.start != want_pieces.start || pieces.labels != want_pieces.labels {
            return Err("pieces differ".into());
        }
        Ok(())
    }

    /// About a fifth of the cells of `board` as a wall set, from `seed`.
    fn some_walls(board: &Board, seed: u64) -> Vec<u64> {
        let mut walls = vec![0u64; board.words];
        let mut x = seed | 1;
        for c in 0..board.cells as u16 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x.is_multiple_of(5) {
                bits::set(&mut walls, c);
            }
        }
        walls
    }

    fn check(level: &crate::Level, seed: u64) {
        let Ok(board) = Board::new(level.map(), level.player(), level.boxes()) else {
            return;
        };
        let xsb = level.to_xsb();
        same_pieces(&board, &[]).unwrap_or_else(|e| panic!("{e}:\n{xsb}"));
        same_pieces(&board, &some_walls(&board, seed)).unwrap_or_else(|e| panic!("{e}:\n{xsb}"));
    }

    #[test]
    fn one_search_finds_the_pieces_the_floods_found() {
        let collection = crate::format::sok::parse_collection(crate::levels::ORIGINAL);
        for (i, level) in collection.levels.iter().enumerate() {
            check(level.as_ref().unwrap(), i as u64);
        }
        // Random caves: many cells that cut the board, dead ends and loops.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..300u64 {
            let (w, h) = (4 + (round % 11) as usize, 4 + (round % 7) as usize);
            let mut rows = vec!["#".repeat(w + 2)];
            for _ in 0..h {
                let mut row = String::from("#");
                for _ in 0..w {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    row.push(if x % 100 < 30 { '#' } else { ' ' });
                }
                row.push('#');
                rows.push(row);
            }
            rows.push("#".repeat(w + 2));
            let Some((r, c)) = rows
                .iter()
                .enumerate()
                .find_map(|(r, row)| row.find(' ').map(|c| (r, c)))
            else {
                continue;
            };
            rows[r].replace_range(c..=c, "@");
            // A box on its goal, as a level needs one.
            let Some((r, c)) = rows
                .iter()
                .enumerate()
                .rev()
                .find_map(|(r, row)| row.rfind(' ').map(|c| (r, c)))
            else {
                continue;
            };
            rows[r].replace_range(c..=c, "*");
            let level = crate::Level::from_xsb(&rows.join("\n")).unwrap();
            check(&level, round);
        }
    }
}
