//! Feature-space search, after FESS (Shoham and Schaeffer, "The FESS
//! Algorithm: A Feature Based Approach to Single-Agent Search", 2020).
//!
//! Greedy search on the bound alone sinks its effort into the many
//! positions that look close to solved: goals filled early, the player
//! walled off from the boxes still to bring in. Here every position is
//! projected onto a few features, and the open list is one heap per
//! feature cell, taken in turn: positions that pack fewer goals, or keep the
//! board more open, still get their share of expansions.
//!
//! The features:
//! - packed: goals filled in packing order (see `packing`), or simply
//!   filled goals when the goals have no order;
//! - connectivity: how many pieces the free cells fall into around the boxes;
//! - room connectivity: how many links between rooms (one-wide corridors
//!   that join open parts of the board) hold a box.
//!
//! Within a cell, positions are taken by FESS's move weights (see
//! [`push_weight`]), then by their bound, in the searches with the packing
//! advisor; by their bound, then by weight, in the others.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::bits;
use super::board::{Board, NONE};
use super::marks::Marks;

type Entry = (Reverse<u64>, u32);

/// The open list of the feature-space search: one heap per feature cell,
/// popped in turn.
#[derive(Default)]
pub(crate) struct FeatureOpen {
    index: HashMap<u32, usize>,
    heaps: Vec<BinaryHeap<Entry>>,
    /// The feature cell of each heap.
    cells: Vec<u32>,
    turn: usize,
    /// Pops left in the current cell's turn.
    left: u32,
}

/// Nodes a feature cell gives per turn. Consecutive nodes of one cell tend
/// to be alike, which keeps the matching's incremental update cheap.
/// Four: shorter turns lose that, longer ones keep the other cells waiting;
/// every other count tried missed hard levels that four solves.
const PER_TURN: u32 = 4;

impl FeatureOpen {
    pub fn push(&mut self, cell: u32, entry: Entry) {
        let next = self.heaps.len();
        let i = *self.index.entry(cell).or_insert(next);
        if i == next {
            self.heaps.push(BinaryHeap::new());
            self.cells.push(cell);
        }
        self.heaps[i].push(entry);
    }

    /// The best entry of the current cell while its turn lasts, else of the
    /// next non-empty cell in turn.
    pub fn pop(&mut self) -> Option<Entry> {
        if self.left > 0 {
            self.left -= 1;
            if let Some(entry) = self.heaps.get_mut(self.turn).and_then(|h| h.pop()) {
                return Some(entry);
            }
        }
        self.left = PER_TURN - 1;
        for _ in 0..self.heaps.len() {
            self.turn = (self.turn + 1) % self.heaps.len();
            if let Some(entry) = self.heaps[self.turn].pop() {
                return Some(entry);
            }
        }
        None
    }

    /// The feature cell of the entry popped last.
    pub fn popped_cell(&self) -> u32 {
        self.cells.get(self.turn).copied().unwrap_or(0)
    }
}

/// FESS's move weights, in place of its advisors: a push that improves a
/// feature of the position (more goals packed, fewer links blocked, or
/// fewer pieces) weighs 0, any other push 1. Within a feature cell, nodes
/// reached by fewer unadvised pushes come first, so lines of play that
/// keep making progress are followed before detours. Where the packing
/// advisor adds a child that packs a goal to every expansion, the weights
/// come before the bound; without it, ranked before the bound or with
/// worsening pushes weighing more, they lose the hard levels they win as a
/// tie-break (the figures are in `BENCHMARKS.md`).
pub(crate) fn push_weight(parent: u32, child: u32) -> u64 {
    let field = |cell: u32, shift: u32| (cell >> shift) & 0xff;
    let improves = field(child, 16) > field(parent, 16)
        || field(child, 8) < field(parent, 8)
        || field(child, 0) < field(parent, 0);
    u64::from(!improves)
}

/// Computes the feature cell of a position.
pub(crate) struct Features {
    /// The link (see [`links`]) each cell belongs to, or [`NONE`]; all
    /// [`NONE`] when room connectivity is left out.
    link: Vec<u16>,
    links: usize,
    /// Scratch: links (numbered below the cell count) or cells seen.
    seen: Marks,
    stack: Vec<u16>,
    box_cells: Vec<u16>,
}

impl Features {
    /// Features of positions on `board`; room connectivity only with
    /// `room_links`.
    pub fn new(board: &Board, room_links: bool) -> Features {
        let (link, links) = if room_links {
            links(board)
        } else {
            (vec![NONE; board.cells], 0)
        };
        Features {
            link,
            links,
            seen: Marks::new(board.cells),
            stack: Vec::new(),
            box_cells: Vec::new(),
        }
    }

    /// The feature cell of the position with boxes `boxes`.
    pub fn cell(&mut self, board: &Board, boxes: &[u64]) -> u32 {
        self.cell_beside(board, boxes, |_| false)
    }

    /// The same, knowing the cells of one piece of free cells (`region`
    /// holds for them: the player's region, which the search has flooded
    /// anyway and which is most of the board): only the other pieces are
    /// flooded here.
    pub fn cell_beside(
        &mut self,
        board: &Board,
        boxes: &[u64],
        region: impl Fn(u16) -> bool,
    ) -> u32 {
        let packed = match board.packing() {
            Some(packing) => packing.in_order(board, boxes),
            None => board.goals.iter().filter(|&&g| bits::has(boxes, g)).count() as u32,
        };
        let blocked = self.blocked_links(boxes).min(255);
        (packed.min(255) << 16) | (blocked << 8) | self.pieces(board, boxes, region).min(255)
    }

    /// How many connected pieces the cells without boxes form.
    pub fn pieces_of(&mut self, board: &Board, boxes: &[u64]) -> u32 {
        self.pieces(board, boxes, |_| false)
    }

    /// How many links hold a box.
    fn blocked_links(&mut self, boxes: &[u64]) -> u32 {
        if self.links == 0 {
            return 0;
        }
        self.seen.clear();
        let mut cells = std::mem::take(&mut self.box_cells);
        bits::cells(boxes, &mut cells);
        let mut blocked = 0;
        for &cell in &cells {
            let link = self.link[usize::from(cell)];
            if link != NONE && self.seen.insert(link) {
                blocked += 1;
            }
        }
        self.box_cells = cells;
        blocked
    }

    /// How many connected pieces the cells without boxes form, `region`
    /// (empty, or one whole piece) counted as one without a flood.
    fn pieces(&mut self, board: &Board, boxes: &[u64], region: impl Fn(u16) -> bool) -> u32 {
        self.seen.clear();
        let mut pieces = 0;
        let mut known = false;
        for start in 0..board.cells as u16 {
            if bits::has(boxes, start) || self.seen.contains(start) {
                continue;
            }
            if region(start) {
                known = true;
                continue;
            }
            self.seen.mark(start);
            pieces += 1;
            self.stack.clear();
            self.stack.push(start);
            while let Some(c) = self.stack.pop() {
                for &n in &board.neighbors[usize::from(c)] {
                    if n != NONE && !bits::has(boxes, n) && self.seen.insert(n) {
                        self.stack.push(n);
                    }
                }
            }
        }
        pieces + u32::from(known)
    }
}

/// The board's links between rooms: pieces of corridor cells (walled in
/// on both sides across one axis) that touch open cells at two or more
/// places. Returns each cell's link, or [`NONE`], and the number of links.
fn links(board: &Board) -> (Vec<u16>, usize) {
    let corridor: Vec<bool> = (0..board.cells as u16)
        .map(|c| board.walled_across(c, 0) || board.walled_across(c, 1))
        .collect();
    let mut link = vec![NONE; board.cells];
    let mut visited = vec![false; board.cells];
    let mut piece = Vec::new();
    let mut links = 0;
    for start in 0..board.cells {
        if !corridor[start] || visited[start] {
            continue;
        }
        // Flood the piece, counting where it touches open cells.
        piece.clear();
        piece.push(start as u16);
        visited[start] = true;
        let (mut next, mut doors) = (0, 0);
        while let Some(&c) = piece.get(next) {
            next += 1;
            for &n in &board.neighbors[usize::from(c)] {
                if n == NONE {
                    continue;
                }
                if !corridor[usize::from(n)] {
                    doors += 1;
                } else if !visited[usize::from(n)] {
                    visited[usize::from(n)] = true;
                    piece.push(n);
                }
            }
        }
        if doors >= 2 {
            piece
                .iter()
                .for_each(|&c| link[usize::from(c)] = links as u16);
            links += 1;
        }
    }
    (link, links)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn cells_take_turns_best_first_within_each() {
        let mut open = FeatureOpen::default();
        open.push(7, (Reverse(5), 1));
        open.push(7, (Reverse(1), 2));
        open.push(3, (Reverse(9), 3));
        let order: Vec<u32> = std::iter::from_fn(|| open.pop())
            .map(|(_, id)| id)
            .collect();
        assert_eq!(order, vec![3, 2, 1]);
    }

    #[test]
    fn the_popped_cell_is_the_entrys() {
        let mut open = FeatureOpen::default();
        open.push(7, (Reverse(5), 1));
        open.push(3, (Reverse(9), 2));
        while let Some((_, id)) = open.pop() {
            assert_eq!(open.popped_cell(), if id == 1 { 7 } else { 3 });
        }
    }

    #[test]
    fn pushes_that_improve_a_feature_weigh_nothing() {
        let cell = |packed: u32, blocked: u32, pieces: u32| packed << 16 | blocked << 8 | pieces;
        let parent = cell(2, 1, 3);
        assert_eq!(push_weight(parent, cell(3, 1, 3)), 0, "a goal packed");
        assert_eq!(push_weight(parent, cell(2, 0, 3)), 0, "a link freed");
        assert_eq!(push_weight(parent, cell(2, 1, 2)), 0, "pieces joined");
        assert_eq!(push_weight(parent, cell(1, 0, 3)), 0, "any one will do");
        assert_eq!(push_weight(parent, parent), 1, "no change");
        assert_eq!(push_weight(parent, cell(2, 1, 4)), 1, "a piece split off");
        assert_eq!(push_weight(parent, cell(1, 1, 3)), 1, "a goal unpacked");
    }

    #[test]
    fn a_box_in_a_corridor_splits_the_free_cells() {
        let text = "#########\n#@ $ $ .#\n#      .#\n#########";
        let level = crate::Level::from_xsb(text).unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut features = Features::new(&board, true);
        let cell = |column: usize, row: usize| board.compact[level.map().index(column, row)];
        let with = |cells: &[u16]| {
            let mut set = vec![0u64; board.words];
            cells.iter().for_each(|&c| bits::set(&mut set, c));
            set
        };
        let unknown = |_| false;
        assert_eq!(features.pieces(&board, &with(&[cell(3, 1)]), unknown), 1);
        // Boxes on (1, 2) and (2, 1) cut off the corner (1, 1): counted the
        // same when either piece is known without a flood.
        let boxes = with(&[cell(1, 2), cell(2, 1)]);
        assert_eq!(features.pieces(&board, &boxes, unknown), 2);
        let corner = cell(1, 1);
        assert_eq!(features.pieces(&board, &boxes, |c| c == corner), 2);
        let rest = |c| c != corner && !bits::has(&boxes, c);
        assert_eq!(features.pieces(&board, &boxes, rest), 2);
        // Two goals filled: the packed feature counts them.
        let filled = with(&[cell(7, 1), cell(7, 2)]);
        assert_eq!(features.cell(&board, &filled) >> 16, 2);
    }

    #[test]
    fn links_are_corridors_between_open_cells() {
        // Two rooms joined by corridors on rows 2 and 4; the niche on
        // (2, 6) leads nowhere, so it is no link.
        let text = "\
###########
#   ###   #
#@        #
#   ###   #
# $       #
#  .###.$ #
## ########
###########";
        let level = crate::Level::from_xsb(text).unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let (link, links) = links(&board);
        let at = |column: usize, row: usize| {
            link[usize::from(board.compact[level.map().index(column, row)])]
        };
        assert_eq!(links, 2);
        assert_ne!(at(4, 2), NONE);
        assert_eq!(at(4, 2), at(6, 2));
        assert_ne!(at(4, 4), NONE);
        assert_ne!(at(4, 4), at(4, 2));
        assert_eq!(at(2, 6), NONE, "a niche");
        assert_eq!(at(1, 1), NONE, "a room cell");
        assert_eq!(at(3, 2), NONE, "a door");
        // A box in one corridor blocks one link; a box in a room none.
        let mut features = Features::new(&board, true);
        let mut boxes = vec![0u64; board.words];
        bits::set(&mut boxes, board.compact[level.map().index(5, 2)]);
        bits::set(&mut boxes, board.compact[level.map().index(2, 4)]);
        assert_eq!(features.blocked_links(&boxes), 1);
    }
}
