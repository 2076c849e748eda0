//! The lower bound: a minimum-cost assignment of boxes to distinct goals,
//! costs being lone-box push distances (Hungarian algorithm with
//! potentials). A node solves its assignment once; each child moves one box,
//! which needs only one augmenting path (O(boxes × goals)) on a copy.
//! An assignment that must use an impossible pair is a bipartite deadlock.

use super::board::{Board, FAR, NONE, UNKNOWN_PIECE};

/// Distances by the player's piece around the box, and the player's cell.
#[derive(Clone, Copy)]
struct ByPiece<'a> {
    board: &'a Board,
    /// As in [`Board::distance_by_piece`]: `columns` entries per cell and piece.
    distance: &'a [u16],
    columns: usize,
    player: u16,
}

/// A table of push distances the matching prices boxes by: the board's own
/// (id 0), or one with some boxes fixed on goals counted as walls.
#[derive(Clone, Copy)]
pub(crate) struct Costs<'a> {
    pub id: u16,
    /// `distance[g * cells + c]` as in [`Board::distance`].
    distance: &'a [u16],
    cells: usize,
    /// With the player's cell known, each box is priced from the piece of
    /// the board around it that the player is in.
    player: Option<ByPiece<'a>>,
}

impl<'a> Costs<'a> {
    pub fn of(board: &'a Board) -> Costs<'a> {
        Costs::from_tables(0, board, &board.distance, &board.distance_by_piece)
    }

    /// Tables as in [`Board::distance`] and [`Board::distance_by_piece`].
    pub fn from_tables(
        id: u16,
        board: &'a Board,
        lone: &'a [u16],
        by_piece: &'a [u16],
    ) -> Costs<'a> {
        Costs {
            id,
            distance: lone,
            cells: board.cells,
            player: (!by_piece.is_empty()).then_some(ByPiece {
                board,
                distance: by_piece,
                columns: by_piece.len() / (board.cells * 4),
                player: NONE,
            }),
        }
    }

    /// The same costs for the player on `player` (any cell of its region).
    pub fn seen_from(mut self, player: u16) -> Costs<'a> {
        if let Some(by_piece) = &mut self.player {
            by_piece.player = player;
        }
        self
    }

    /// The piece around a box on `cell` the player is in.
    #[inline]
    fn piece(&self, cell: u16) -> u8 {
        match self.player {
            Some(ByPiece { board, player, .. }) if player != NONE => board.piece_of(cell, player),
            _ => UNKNOWN_PIECE,
        }
    }

    #[inline]
    fn get(&self, goal: usize, cell: u16, piece: u8) -> u16 {
        match self.player {
            Some(ByPiece {
                distance, columns, ..
            }) if piece != UNKNOWN_PIECE => {
                distance[(usize::from(cell) * 4 + usize::from(piece)) * columns + goal]
            }
            _ => self.distance[goal * self.cells + usize::from(cell)],
        }
    }
}

/// Cost of an impossible box–goal pair. Potentials drift as rows are
/// re-added over a long search, hence 64-bit arithmetic.
const IMPOSSIBLE: i64 = 1 << 22;
const INFINITE: i64 = i64::MAX / 4;

/// The most boxes the matching handles without overflow.
pub(crate) const MAX_BOXES: usize = 400;

pub(crate) struct Matching {
    rows: usize,
    cols: usize,
    /// `cost[(row - 1) * cols + (col - 1)]`, rows and columns 1-based as in
    /// the classic formulation (index 0 is the virtual start).
    cost: Vec<i64>,
    u: Vec<i64>,
    v: Vec<i64>,
    /// Column → row assigned to it (0: free).
    assigned: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
    /// Columns in the order the last augmenting path reached them.
    reached: Vec<usize>,
    /// What [`Matching::with_moved`] puts back: the row's costs, and for
    /// each column its augmenting path reached, the column's potential, row
    /// and that row's potential as they were.
    saved_row: Vec<i64>,
    saved_columns: Vec<(usize, i64, usize, i64)>,
    /// The box cell of each row, as last solved.
    cells: Vec<u16>,
    /// The player's piece around each row's box (see [`Costs::piece`]).
    pieces: Vec<u8>,
    /// Cell → its row, or `u16::MAX`.
    row_of_cell: Vec<u16>,
    /// Whether `cells` and the assignment describe a solved position.
    valid: bool,
    /// The id of the cost table they were solved with.
    table: u16,
}

impl Matching {
    pub fn new(boxes: usize, goals: usize, cells: usize) -> Matching {
        Matching {
            rows: boxes,
            cols: goals,
            cost: vec![0; boxes * goals],
            u: vec![0; boxes + 1],
            v: vec![0; goals + 1],
            assigned: vec![0; goals + 1],
            way: vec![0; goals + 1],
            minv: vec![0; goals + 1],
            used: vec![false; goals + 1],
            reached: Vec::with_capacity(goals),
            saved_row: vec![0; goals],
            saved_columns: Vec::with_capacity(goals),
            cells: vec![0; boxes],
            pieces: vec![UNKNOWN_PIECE; boxes],
            row_of_cell: vec![u16::MAX; cells],
            valid: false,
            table: 0,
        }
    }

    fn set_row(&mut self, costs: Costs<'_>, row: usize, cell: u16) {
        let cols = self.cols;
        let piece = costs.piece(cell);
        self.pieces[row] = piece;
        for g in 0..cols {
            let d = costs.get(g, cell, piece);
            self.cost[row * cols + g] = if d == FAR { IMPOSSIBLE } else { i64::from(d) };
        }
    }

    /// Box cells in row order (rows are what [`Matching::with_moved`] takes).
    pub fn rows(&self) -> &[u16] {
        &self.cells
    }

    /// Solves for the box set `boxes` (ascending cells). When it differs
    /// from the last solved set by a few boxes, as nodes expanded one after
    /// another usually do, only those rows are re-added, one augmenting path
    /// each.
    pub fn solve_near(&mut self, costs: Costs<'_>, boxes: &[u16]) -> Option<u32> {
        const NEAR: usize = 6;
        if self.valid && boxes.len() == self.rows && self.table == costs.id {
            let mut gone = [0usize; NEAR];
            let mut new = [0u16; NEAR];
            let (mut g, mut n) = (0, 0);
            // A box that stayed is re-added too when the player is now on
            // another side of it.
            for (row, &cell) in self.cells.iter().enumerate() {
                if boxes.binary_search(&cell).is_err() || costs.piece(cell) != self.pieces[row] {
                    if g == NEAR {
                        return self.solve(costs, boxes);
                    }
                    gone[g] = row;
                    g += 1;
                }
            }
            for &cell in boxes {
                let row = self.row_of_cell[usize::from(cell)];
                if row == u16::MAX || costs.piece(cell) != self.pieces[usize::from(row)] {
                    if n == NEAR {
                        return self.solve(costs, boxes);
                    }
                    new[n] = cell;
                    n += 1;
                }
            }
            if g == n {
                for &row in &gone[..g] {
                    self.row_of_cell[usize::from(self.cells[row])] = u16::MAX;
                }
                for (&row, &cell) in gone[..g].iter().zip(&new[..n]) {
                    self.row_of_cell[usize::from(cell)] = row as u16;
                    self.cells[row] = cell;
                    self.set_row(costs, row, cell);
                    let r = row + 1;
                    if let Some(col) = (1..=self.cols).find(|&c| self.assigned[c] == r) {
                        self.assigned[col] = 0;
                    }
                    // Every v is ≤ 0, so u = 0 keeps the duals feasible.
                    self.u[r] = 0;
                }
                for &row in &gone[..g] {
                    self.augment(row + 1, false);
                }
                return self.total();
            }
        }
        self.solve(costs, boxes)
    }

    /// Solves from scratch for `boxes` (row `i` is `boxes[i]`); `None` when
    /// no assignment avoids an impossible pair.
    pub fn solve(&mut self, costs: Costs<'_>, boxes: &[u16]) -> Option<u32> {
        debug_assert_eq!(boxes.len(), self.rows);
        for &cell in &self.cells {
            if let Some(r) = self.row_of_cell.get_mut(usize::from(cell)) {
                *r = u16::MAX;
            }
        }
        for (row, &cell) in boxes.iter().enumerate() {
            self.set_row(costs, row, cell);
            self.cells[row] = cell;
            self.row_of_cell[usize::from(cell)] = row as u16;
        }
        self.valid = true;
        self.table = costs.id;
        self.u.iter_mut().for_each(|x| *x = 0);
        self.v.iter_mut().for_each(|x| *x = 0);
        self.assigned.iter_mut().for_each(|x| *x = 0);
        for row in 1..=self.rows {
            self.augment(row, false);
        }
        self.total()
    }

    /// The bound after the box of row `row` moves to `cell`, leaving this
    /// node's assignment as it was. Only what the one augmenting path
    /// changes is saved and put back: a node's children each call this,
    /// and copying the whole assignment twice a child costs more than the
    /// path.
    pub fn with_moved(&mut self, costs: Costs<'_>, row: usize, cell: u16) -> Option<u32> {
        let cols = self.cols;
        self.saved_row
            .copy_from_slice(&self.cost[row * cols..(row + 1) * cols]);
        let piece = self.pieces[row];
        self.set_row(costs, row, cell);
        let r = row + 1;
        // Column 0 is the virtual start: the real columns are 1..=cols.
        let col = (1..=cols).find(|&c| self.assigned[c] == r);
        if let Some(col) = col {
            self.assigned[col] = 0;
        }
        let u = self.u[r];
        // Every v is ≤ 0, so u = 0 keeps the duals feasible for the new row.
        self.u[r] = 0;
        self.augment(r, true);
        let total = self.total();
        for &(j, v, i, u) in self.saved_columns.iter().rev() {
            self.v[j] = v;
            self.assigned[j] = i;
            if i != 0 {
                self.u[i] = u;
            }
        }
        self.u[r] = u;
        if let Some(col) = col {
            self.assigned[col] = r;
        }
        self.cost[row * cols..(row + 1) * cols].copy_from_slice(&self.saved_row);
        // The row's piece goes with its costs: `solve_near` re-adds a row
        // only when the player's piece around the box is not this one.
        self.pieces[row] = piece;
        total
    }

    /// The push distance the last solve priced row `row` at for goal
    /// `goal` (indices into the rows and `board.goals`); `None` when that
    /// pair is impossible.
    pub fn pair_cost(&self, row: usize, goal: usize) -> Option<u32> {
        let c = *self.cost.get(row * self.cols + goal)?;
        if c >= IMPOSSIBLE {
            return None;
        }
        u32::try_from(c).ok()
    }

    /// The goal (index into `board.goals`) assigned to each row, after
    /// [`Matching::solve`].
    pub fn goal_of_rows(&self) -> Vec<usize> {
        let mut goal = vec![0; self.rows];
        for col in 1..=self.cols {
            let row = self.assigned[col];
            if row != 0 {
                goal[row - 1] = col - 1;
            }
        }
        goal
    }

    fn total(&self) -> Option<u32> {
        let mut sum: i64 = 0;
        for col in 1..=self.cols {
            let row = self.assigned[col];
            if row != 0 {
                let c = self.cost[(row - 1) * self.cols + col - 1];
                if c >= IMPOSSIBLE {
                    return None;
                }
                sum += c;
            }
        }
        u32::try_from(sum).ok()
    }

    /// One Dijkstra-like augmenting path that adds row `row` to the
    /// assignment while keeping the potentials feasible. `minv[j]` holds
    /// the shortest reduced distance from the new row to column `j`; the
    /// potentials of the columns reached are settled once, at the end.
    /// With `save`, what settling changes is noted first in
    /// `saved_columns`, for [`Matching::with_moved`] to put back.
    fn augment(&mut self, row: usize, save: bool) {
        let cols = self.cols;
        self.assigned[0] = row;
        self.used.iter_mut().for_each(|x| *x = false);
        self.reached.clear();
        let mut j0 = 0usize;
        let mut mu = 0i64;
        let mut first = true;
        loop {
            self.used[j0] = true;
            let i0 = self.assigned[j0];
            let mut delta = INFINITE;
            let mut j1 = 0usize;
            let base = (i0 - 1) * cols;
            let from = mu - self.u[i0];
            // Column j is index j - 1 of these (column 0 is the start).
            let row_cost = &self.cost[base..base + cols];
            let v = &self.v[1..=cols];
            let used = &self.used[1..=cols];
            let minv = &mut self.minv[1..=cols];
            let way = &mut self.way[1..=cols];
            for k in 0..cols {
                if !used[k] {
                    let cur = from + row_cost[k] - v[k];
                    if first || cur < minv[k] {
                        minv[k] = cur;
                        way[k] = j0;
                    }
                    if minv[k] < delta {
                        delta = minv[k];
                        j1 = k + 1;
                    }
                }
            }
            first = false;
            if j1 == 0 {
                // No column left: cannot happen with rows ≤ columns.
                break;
            }
            mu = delta;
            j0 = j1;
            self.reached.push(j1);
            if self.assigned[j0] == 0 {
                break;
            }
        }
        if save {
            self.saved_columns.clear();
            for &j in &self.reached {
                let i = self.assigned[j];
                self.saved_columns.push((j, self.v[j], i, self.u[i]));
            }
        }
        // Settle the potentials: the new row's by the path's length, each
        // column reached (and its row) by how much shorter its distance was.
        self.u[row] += mu;
        for &j in &self.reached {
            let delta = mu - self.minv[j];
            self.v[j] -= delta;
            let i = self.assigned[j];
            if i != 0 {
                self.u[i] += delta;
            }
        }
        loop {
            let j1 = self.way[j0];
            self.assigned[j0] = self.assigned[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Six boxes, six goals apart from them, walls between.
    fn board() -> Board {
        let text =
            "##########\n#.  .   .#\n#  #  #  #\n#. $$$ @ #\n#  $ $ $ #\n#.   .   #\n##########";
        let level = crate::Level::from_xsb(text).unwrap();
        Board::new(level.map(), level.player(), level.boxes()).unwrap()
    }

    /// Pricing a moved box leaves the assignment exactly as it was, and
    /// prices it as solving the moved set from scratch does.
    #[test]
    fn with_moved_puts_everything_back() {
        for board in [board(), rooms()] {
            let (n, goals) = (board.start_boxes.len(), board.goals.len());
            let boxes = board.start_boxes.clone();
            let seen = Costs::of(&board).seen_from(board.start_player);
            for costs in [Costs::of(&board), seen] {
                let mut matching = Matching::new(n, goals, board.cells);
                assert!(matching.solve(costs, &boxes).is_some());
                // Column 0 of `assigned` is scratch: the row being added.
                let state = |m: &Matching| {
                    let assigned = m.assigned[1..].to_vec();
                    (m.u.clone(), m.v.clone(), assigned, m.pieces.clone())
                };
                let before = state(&matching);
                let cost = matching.cost.clone();
                for row in 0..n {
                    for cell in 0..board.cells as u16 {
                        if boxes.contains(&cell) {
                            continue;
                        }
                        // The child's player: somewhere else than the parent's.
                        let child = costs.seen_from(board.neighbor(cell, row % 4));
                        let moved = matching.with_moved(child, row, cell);
                        assert_eq!(state(&matching), before, "row {row} to {cell}");
                        assert_eq!(matching.cost, cost);
                        let mut set = boxes.clone();
                        set[row] = cell;
                        let mut scratch = Matching::new(n, goals, board.cells);
                        assert_eq!(moved, scratch.solve(child, &set), "row {row} to {cell}");
                    }
                }
            }
        }
    }

    /// A box in a door with the player on the wrong side of it: out of the
    /// door first, two pushes away from the goal (the player in the door
    /// gets round it no sooner), then back through.
    #[test]
    fn a_box_in_a_door_is_priced_from_the_players_side() {
        let text = "#########\n#   #   #\n#   $@ .#\n#   #   #\n#########";
        let level = crate::Level::from_xsb(text).unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut matching = Matching::new(1, 1, board.cells);
        let boxes = &board.start_boxes;
        assert_eq!(matching.solve(Costs::of(&board), boxes), Some(3));
        let seen = Costs::of(&board).seen_from(board.start_player);
        assert_eq!(matching.solve(seen, boxes), Some(7));
        // From the room on the left, the box goes straight through.
        let left = board.compact[level.map().width() * 2 + 1];
        assert_eq!(
            matching.solve(Costs::of(&board).seen_from(left), boxes),
            Some(3)
        );
    }

    /// Rooms behind doors, for the player to be on either side of a box.
    fn rooms() -> Board {
        let text = "############\n#.   #.   .#\n#  $   $$  #\n#.   #  $  #\n##$###### ##\n#.   $ @  .#\n############";
        let level = crate::Level::from_xsb(text).unwrap();
        Board::new(level.map(), level.player(), level.boxes()).unwrap()
    }

    /// Re-solving near the last set agrees with solving from scratch, the
    /// player anywhere.
    #[test]
    fn near_equals_scratch() {
        let board = rooms();
        let n = board.start_boxes.len();
        let mut near = Matching::new(n, board.goals.len(), board.cells);
        let mut state = 12345u64;
        let mut next = |k: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) as usize % k
        };
        let mut boxes = board.start_boxes.clone();
        for _ in 0..500 {
            // Move one to three boxes to random free cells.
            for _ in 0..1 + next(3) {
                let i = next(n);
                let c = next(board.cells) as u16;
                if !boxes.contains(&c) {
                    boxes[i] = c;
                }
            }
            let mut sorted = boxes.clone();
            sorted.sort_unstable();
            let player = loop {
                let c = next(board.cells) as u16;
                if !sorted.contains(&c) {
                    break c;
                }
            };
            let costs = Costs::of(&board).seen_from(player);
            let mut scratch = Matching::new(n, board.goals.len(), board.cells);
            assert_eq!(
                near.solve_near(costs, &sorted),
                scratch.solve(costs, &sorted)
            );
            // The search prices children between solves (with their own
            // players): that must not leave anything behind.
            for _ in 0..next(4) {
                let cell = next(board.cells) as u16;
                let player = next(board.cells) as u16;
                if near.valid && !sorted.contains(&cell) && !sorted.contains(&player) {
                    let row = next(n);
                    near.with_moved(Costs::of(&board).seen_from(player), row, cell);
                }
            }
        }
    }
}
