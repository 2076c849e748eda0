//! The search itself: best-first over push positions, one engine for every
//! mode. What changes between modes is whether the player's cell is kept
//! exactly or normalised to its region, what a step costs, and how the open
//! list is ordered.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::advisor::{Advisor, Opener};
use super::bits;
use super::board::{Board, NONE};
use super::complete::Completer;
use super::corral::Corrals;
use super::deadlock;
use super::features::{self, FeatureOpen, Features};
use super::fixed::Fixed;
use super::layers::Layers;
use super::learn::Learner;
use super::lower_bound::Matching;
use super::marks::Marks;
use super::one_box::{BoxMove, OneBox};
use super::packing::Packing;
use super::room::Rooms;
use super::store::{Budget, Found, MAX_RUN, NO_PARENT, Push, PushKind, Store};
use super::symmetry::Symmetry;
use super::zobrist::Zobrist;
use super::{Control, Mode};

/// Costs in the optimal modes are `primary << SHIFT | secondary`
/// (pushes then moves, or moves then pushes).
pub(crate) const SHIFT: u32 = 24;

/// How a search prices its steps and orders its open list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// Pushes only, weighted by `weight` (0: greedy on the bound).
    Fast,
    /// Pushes; the player normalised to its region.
    Pushes,
    /// Pushes, then moves: the player kept exactly (the second pass of
    /// [`Mode::Pushes`], bounded by the push count the first pass proved).
    PushesThenMoves,
    /// Moves, then pushes; the player kept exactly.
    MovesThenPushes,
}

/// What the second pass of [`Mode::Pushes`] knows from the first.
#[derive(Clone, Copy)]
pub(crate) struct Refine<'a> {
    /// The proven optimal push count.
    pub pushes: u32,
    /// The first pass's store: (boxes, player region) with costs that are
    /// upper bounds on the fewest pushes reaching them.
    pub known: &'a Store,
}

#[derive(Clone, Copy)]
pub(crate) enum End {
    /// The goal node.
    Found(u32),
    Exhausted,
    Cancelled,
    OutOfMemory,
}

/// The node being expanded, as its children need it.
struct Expanded {
    id: u32,
    /// Its cost (see [`Order`]).
    cost: u64,
    /// The Zobrist hash of its boxes alone.
    boxes_hash: u64,
}

/// A push (a single one or a macro) that makes a child: the box in `row` of
/// the box list goes from `from` to `to`, the last push in direction `dir`,
/// `count` pushes in all, after a walk of `walk` steps.
#[derive(Clone, Copy)]
struct Pushed {
    row: usize,
    from: u16,
    to: u16,
    dir: usize,
    count: u16,
    walk: u32,
    push: Push,
}

/// How a node came to the open list (see [`Search::enqueue`]).
#[derive(Clone, Copy)]
enum Queued {
    /// The start position.
    Start,
    /// By a push; with its feature cell when the feature search has it
    /// already.
    Child { cell: Option<u32> },
}

pub(crate) struct Search<'a> {
    board: &'a Board,
    order: Order,
    refine: Option<Refine<'a>>,
    zobrist: Zobrist,
    pub store: Store,
    open: BinaryHeap<(Reverse<u64>, u32)>,
    /// Feature-space search only: its features and open list, used
    /// instead of `open`.
    features: Option<(Features, FeatureOpen)>,
    /// Feature search: the cell of the node being expanded.
    parent_cell: u32,
    matching: Matching,
    /// For a child whose cost table differs from its parent's.
    scratch: Matching,
    fixed: Fixed,
    /// Greedy search only: the goal packing order it is steered by.
    packing: Option<&'a Packing>,
    pack_weight: u64,
    /// The cost table (see [`Fixed`]) of each stored node.
    tables: Vec<u16>,
    /// Flood-fill scratch: the cells reached, their walking distances.
    reach: Marks,
    walk: Vec<u32>,
    /// The expanded node's reach (a bitset, which the corral search scans
    /// a word at a time), kept apart while its children flood.
    node_reach: Vec<u64>,
    node_walk: Vec<u32>,
    queue: Vec<u16>,
    corrals: Corrals,
    /// Whether pruning may reorder pushes (PI-corrals, tunnel macros):
    /// that keeps push counts, not move counts.
    reorders: bool,
    learner: Learner,
    /// Candidate pushes of the node being expanded: (row, box, direction).
    moves: Vec<(u16, u16, u8)>,
    pub expanded: u64,
    /// Depth and bound of the node expanded last, for progress reports.
    pub depth: u32,
    pub bound: u32,
    /// Fast mode: priority is pushes + weight × bound.
    weight: u64,
    boxes: Vec<u64>,
    rows: Vec<u16>,
    child_cells: Vec<u16>,
    /// Goal-room macro paths (box cell, direction per push), by the index
    /// in their [`Push`].
    macros: Vec<Vec<(u16, u8)>>,
    macro_index: HashMap<Vec<(u16, u8)>, u32>,
    /// Fast mode's feature search: the goal rooms whose macro replaces a
    /// push into them (see [`Rooms`]).
    rooms: Option<Rooms>,
    /// The feature search's packing advisor (see [`Advisor`]).
    advisor: Option<Advisor>,
    /// The feature search's connectivity advisor (see [`Opener`]).
    opener: Option<Opener>,
    /// Box moves in place of pushes: children are every position one box
    /// reaches alone (see [`OneBox::moves`]), and the scratch for them.
    box_moves: Option<BoxMoves>,
    /// Pushes mode met in the middle: completions probed (see [`Completer`]).
    pub completer: Option<Completer>,
    /// On a symmetric board: images of positions already expanded are
    /// skipped.
    symmetry: Option<Symmetry>,
    /// Pushes mode met in the middle: the open list by depth (see
    /// [`Layers`]), used instead of `open`.
    layers: Option<Layers>,
}

/// The scratch of a search over box moves.
struct BoxMoves {
    one_box: OneBox,
    /// The boxes but the one moved.
    others: Vec<u64>,
    moves: Vec<BoxMove>,
}

/// How a node taken from the open list went.
enum Step {
    /// Expanded (or skipped: closed, a deadlock, an image).
    Done,
    /// It, or its child, ends the search.
    End(End),
}

impl<'a> Search<'a> {
    pub fn new(board: &'a Board, mode: Mode, weight: u64, memory_mb: usize) -> Search<'a> {
        let order = match mode {
            Mode::Fast => Order::Fast,
            Mode::Pushes => Order::Pushes,
            Mode::Moves => Order::MovesThenPushes,
        };
        Search::with_order(board, order, None, weight, memory_mb)
    }

    /// The second pass of [`Mode::Pushes`]: among the solutions of
    /// `refine.pushes` pushes, one with the fewest moves. Its states keep
    /// the player's exact cell; a push is pruned when the pushes so far plus
    /// the lower bound exceed the proven count, or when the first pass
    /// reached the same position in fewer pushes (on a push-optimal
    /// solution every position is reached in its fewest pushes).
    pub fn refine(board: &'a Board, refine: Refine<'a>, memory_mb: usize) -> Search<'a> {
        Search::with_order(board, Order::PushesThenMoves, Some(refine), 1, memory_mb)
    }

    fn with_order(
        board: &'a Board,
        order: Order,
        refine: Option<Refine<'a>>,
        weight: u64,
        memory_mb: usize,
    ) -> Search<'a> {
        let symmetry = Symmetry::new(board, memory_mb.saturating_mul(1 << 20) / 16);
        let symmetry_mb = if symmetry.is_some() {
            memory_mb / 16
        } else {
            0
        };
        Search {
            board,
            order,
            refine,
            zobrist: Zobrist::new(board.cells),
            // An eighth of the budget for learned patterns, a sixteenth for
            // the fixed-goal distance tables (and one for symmetry on a
            // symmetric board), the rest for nodes.
            store: Store::new(
                board.words,
                board.cells,
                memory_mb - memory_mb / 8 - memory_mb / 16 - symmetry_mb,
            ),
            open: BinaryHeap::new(),
            features: None,
            parent_cell: 0,
            matching: Matching::new(board.start_boxes.len(), board.goals.len(), board.cells),
            scratch: Matching::new(board.start_boxes.len(), board.goals.len(), board.cells),
            fixed: Fixed::new(board, memory_mb.saturating_mul(1 << 20) / 16),
            packing: None,
            pack_weight: 0,
            tables: Vec::new(),
            reach: Marks::new(board.cells),
            walk: vec![0; board.cells],
            node_reach: vec![0; board.words],
            node_walk: vec![0; board.cells],
            queue: Vec::with_capacity(board.cells),
            corrals: Corrals::new(board.cells),
            reorders: matches!(order, Order::Fast | Order::Pushes),
            moves: Vec::new(),
            learner: Learner::new(board, memory_mb.saturating_mul(1 << 20) / 8),
            expanded: 0,
            depth: 0,
            bound: 0,
            weight,
            boxes: Vec::new(),
            rows: Vec::new(),
            child_cells: Vec::new(),
            macros: Vec::new(),
            macro_index: HashMap::new(),
            rooms: None,
            advisor: None,
            opener: None,
            box_moves: None,
            completer: None,
            symmetry,
            layers: None,
        }
    }

    /// Greedy search only: adds `weight` per goal filled out of packing
    /// order to the priority (see [`Packing`]). `None` when there is no
    /// packing order to follow.
    pub fn with_packing(mut self, weight: u64) -> Option<Search<'a>> {
        if self.order != Order::Fast || self.weight != 0 {
            return None;
        }
        self.packing = Some(self.board.packing()?);
        self.pack_weight = weight;
        Some(self)
    }

    /// Greedy search only: turns it into a feature-space search (see
    /// [`Features`]), with room connectivity among its features when
    /// `room_links`.
    pub fn with_features(mut self, room_links: bool) -> Option<Search<'a>> {
        if self.order != Order::Fast || self.weight != 0 {
            return None;
        }
        self.features = Some((
            Features::new(self.board, room_links),
            FeatureOpen::default(),
        ));
        Some(self)
    }

    /// Feature searches only: adds the packing advisor's child to every
    /// expansion, trying up to `tries` boxes (see [`Advisor`]); none when
    /// `tries` is 0.
    pub fn with_advisor(mut self, tries: usize) -> Search<'a> {
        if self.features.is_some() && tries > 0 {
            // The search that advises one box keeps goal rooms to their
            // filling order: the room macro then fills them, and advice
            // no longer leaves holes a box can never reach. The search
            // advising two boxes solves other levels without it.
            let rooms = match &self.rooms {
                Some(rooms) if tries == 1 => rooms.orders(),
                _ => Vec::new(),
            };
            self.advisor = Some(Advisor::new(self.board, tries).with_rooms(rooms));
        }
        self
    }

    /// Feature searches only: adds the connectivity advisor's child to
    /// every expansion, trying up to `tries` boxes (see [`Opener`]).
    pub fn with_opener(mut self, tries: usize) -> Search<'a> {
        if self.features.is_some() && tries > 0 {
            self.opener = Some(Opener::new(self.board, tries));
        }
        self
    }

    /// Lets the fixed-goal tables draw on `budget` too, once their own
    /// part is spent (see [`Fixed::share`]).
    pub fn share_tables(&mut self, budget: &Budget) {
        self.fixed.share(budget);
    }

    /// Feature searches only: children by box moves, not pushes (see
    /// [`OneBox::moves`]).
    pub fn with_box_moves(mut self) -> Search<'a> {
        if self.features.is_some() {
            self.box_moves = Some(BoxMoves {
                one_box: OneBox::new(self.board),
                others: vec![0; self.board.words],
                moves: Vec::new(),
            });
        }
        self
    }

    /// Greedy searches only: pushes boxes that enter a goal room (or goal
    /// area) on to their goals in one move (see [`Rooms`]); unchanged when
    /// the board has none.
    pub fn with_rooms(mut self) -> Search<'a> {
        if self.order == Order::Fast && self.weight == 0 {
            self.rooms = Rooms::new(self.board);
        }
        self
    }

    /// Whether running out of nodes proves the level unsolvable: not when
    /// goal-room macros replace pushes.
    /// Pushes mode only: the open list by depth, for [`meet`](mod@super::meet)
    /// to run in rounds (see [`meet::Round`](super::meet::Round)).
    pub fn with_layers(mut self) -> Search<'a> {
        debug_assert_eq!(self.order, Order::Pushes);
        self.layers = Some(Layers::default());
        self
    }

    /// The layered open list (see [`Search::with_layers`]).
    pub fn layers(&mut self) -> Option<&mut Layers> {
        self.layers.as_mut()
    }

    pub fn complete(&self) -> bool {
        self.rooms.is_none()
    }

    /// The number of a macro path, kept once.
    fn macro_number(&mut self, path: Vec<(u16, u8)>) -> u32 {
        if let Some(&n) = self.macro_index.get(&path) {
            return n;
        }
        let n = self.macros.len() as u32;
        self.macros.push(path.clone());
        self.macro_index.insert(path, n);
        n
    }

    /// The feature cell of a child just stored, if this is a feature
    /// search: `boxes` as after the push of a box from `from` to `to`, the
    /// player's region in `reach` or, when `quick`, the node's less `to`,
    /// with `from`.
    fn child_cell(&mut self, boxes: &[u64], quick: bool, moved: (u16, u16)) -> Option<u32> {
        let (features, _) = self.features.as_mut()?;
        let (node_reach, reach) = (&self.node_reach, &self.reach);
        let (from, to) = moved;
        Some(features.cell_beside(self.board, boxes, |c| {
            if quick {
                c == from || (c != to && bits::has(node_reach, c))
            } else {
                reach.contains(c)
            }
        }))
    }

    /// Adds node `id`, reached at `cost` with lower bound `bound`, to the
    /// open list. A feature search puts it in its feature cell, and there a
    /// push that improved no feature costs one more, above the pushes (see
    /// `features::push_weight`).
    fn enqueue(&mut self, id: u32, cost: u64, bound: u32, boxes: &[u64], by: Queued) {
        if let Some(layers) = &mut self.layers {
            let depth = (cost >> SHIFT) as u32;
            layers.push(depth, depth.saturating_add(bound), id);
            return;
        }
        let Some((features, _)) = &mut self.features else {
            let priority = self.priority(cost, bound, boxes);
            self.open.push((Reverse(priority), id));
            return;
        };
        let cell = match by {
            Queued::Child { cell: Some(cell) } => cell,
            _ => features.cell(self.board, boxes),
        };
        debug_assert_eq!(cell, features.cell(self.board, boxes));
        let weight = if matches!(by, Queued::Child { .. }) {
            features::push_weight(self.parent_cell, cell)
        } else {
            0
        };
        let cost = cost + (weight << SHIFT);
        self.store.cost[id as usize] = cost;
        let priority = self.priority(cost, bound, boxes);
        if let Some((_, open)) = &mut self.features {
            open.push(cell, (Reverse(priority), id));
        }
    }

    /// The next node to expand.
    fn dequeue(&mut self) -> Option<(Reverse<u64>, u32)> {
        match &mut self.features {
            Some((_, open)) => {
                let entry = open.pop();
                self.parent_cell = open.popped_cell();
                entry
            }
            None => self.open.pop(),
        }
    }

    /// The straight runs (box cell before, direction, count) of the push
    /// that made node `id`.
    pub fn runs(&self, id: u32) -> Option<Vec<(u16, u8, u16)>> {
        let single = |path: &[(u16, u8)]| path.iter().map(|&(from, dir)| (from, dir, 1)).collect();
        match self.store.push(id).kind() {
            PushKind::Run(from, dir, count) => Some(vec![(from, dir, count)]),
            PushKind::Macro(index) => self.macros.get(index as usize).map(|p| single(p)),
            PushKind::Moved(from) => self.box_move_path(id, from).map(|p| single(&p)),
            kind @ (PushKind::Advised(from) | PushKind::Opened(from)) => {
                // The advice is a function of the parent position: ask again
                // (a few times per solution, so with scratch of its own).
                let parent = self.store.parent(id);
                let (board, boxes) = (self.board, self.store.boxes(parent));
                let player = self.store.player(parent);
                let path = match kind {
                    PushKind::Opened(_) => self
                        .opener
                        .as_ref()?
                        .fresh(board)
                        .advise(board, boxes, player),
                    _ => self
                        .advisor
                        .as_ref()?
                        .fresh(board)
                        .advise(board, boxes, player),
                }?;
                (path.first()?.0 == from).then(|| single(&path))
            }
        }
    }

    /// The pushes of the box move from the box on `from` that made node
    /// `id`: found again from the parent, as the fewest pushes taking the
    /// box to the child's new box cell with the player left in the child's
    /// region.
    fn box_move_path(&self, id: u32, from: u16) -> Option<Vec<(u16, u8)>> {
        let board = self.board;
        let parent = self.store.parent(id);
        let (before, after) = (self.store.boxes(parent), self.store.boxes(id));
        let mut cells = Vec::new();
        bits::cells(after, &mut cells);
        let to = cells.into_iter().find(|&c| !bits::has(before, c))?;
        let mut others = before.to_vec();
        bits::clear(&mut others, from);
        let region = self.store.player(id);
        let mut regions = OneBox::new(board);
        let arrived = |cell: u16, dir: u8, _: u32| {
            let stand = board.neighbor(cell, usize::from((dir + 2) % 4));
            cell == to
                && stand != NONE
                && regions.lowest_reached(board, stand, after, NONE) == region
        };
        OneBox::new(board).push_path_until(
            board,
            &others,
            from,
            self.store.player(parent),
            arrived,
            |_| true,
        )
    }

    /// The pushes of the solution ending at node `goal`, in order.
    pub fn solution(&self, goal: u32) -> Option<Vec<(u16, u8, u16)>> {
        let mut nodes = Vec::new();
        let mut node = goal;
        while self.store.parent(node) != NO_PARENT {
            nodes.push(node);
            node = self.store.parent(node);
        }
        let mut runs = Vec::new();
        for &node in nodes.iter().rev() {
            runs.extend(self.runs(node)?);
        }
        Some(runs)
    }

    /// The player's cell the bound prices boxes from (see
    /// `Costs::seen_from`). None in Fast mode: steered by the finer bound,
    /// its packing search wanders on long levels.
    fn bound_player(&self, player: u16) -> u16 {
        match self.order {
            Order::Fast => NONE,
            _ => player,
        }
    }

    /// Only move counts depend on where exactly the player stands; for
    /// pushes the player's region is all that matters (far fewer nodes).
    fn exact_player(&self) -> bool {
        matches!(self.order, Order::MovesThenPushes | Order::PushesThenMoves)
    }

    /// The pushes and moves of a node's cost in the optimal orders
    /// (for the pushes-only order, moves are 0).
    pub fn pushes_of(&self, id: u32) -> u32 {
        let cost = self.store.cost[id as usize];
        match self.order {
            Order::Fast => cost as u32,
            Order::Pushes | Order::PushesThenMoves => (cost >> SHIFT) as u32,
            Order::MovesThenPushes => (cost & ((1 << SHIFT) - 1)) as u32,
        }
    }

    /// Breadth-first walk from `from` around the boxes; returns the lowest
    /// reached cell (the region's normal form). Reached cells are marked
    /// in `reach`, with their walking distance.
    fn flood(&mut self, boxes: &[u64], from: u16) -> u16 {
        self.reach.clear();
        self.queue.clear();
        self.queue.push(from);
        self.reach.mark(from);
        self.walk[usize::from(from)] = 0;
        let mut lowest = from;
        let mut head = 0;
        while head < self.queue.len() {
            let c = self.queue[head];
            head += 1;
            let d = self.walk[usize::from(c)] + 1;
            for &n in &self.board.neighbors[usize::from(c)] {
                if n != NONE && !bits::has(boxes, n) && self.reach.insert(n) {
                    self.walk[usize::from(n)] = d;
                    lowest = lowest.min(n);
                    self.queue.push(n);
                }
            }
        }
        lowest
    }

    /// The open-list key (lowest first), in 64 bits.
    fn priority(&self, cost: u64, bound: u32, boxes: &[u64]) -> u64 {
        match self.order {
            // Greedy: the bound (plus the packing penalty), shorter paths
            // first among equals.
            Order::Fast if self.weight == 0 => {
                let penalty = self.packing.as_ref().map_or(0, |p| {
                    self.pack_weight * u64::from(p.out_of_order(self.board, boxes))
                });
                let bound = u64::from(bound) + penalty;
                if self.features.is_none() {
                    return bound << 32 | cost.min(u64::from(u32::MAX));
                }
                // The feature search weighs its pushes (see
                // `features::push_weight`): with the packing advisor, the
                // weight first, as in FESS; without, only among equal bounds.
                let weight = (cost >> SHIFT).min(u64::from(u32::MAX));
                if self.advisor.is_some() {
                    weight << 32 | bound.min(u64::from(u32::MAX))
                } else {
                    bound << 32 | weight
                }
            }
            Order::Fast => {
                // Weighted A*; among equals, the closer to the goal.
                (cost + self.weight * u64::from(bound)) << 32 | u64::from(bound)
            }
            Order::Pushes | Order::PushesThenMoves | Order::MovesThenPushes => {
                // f in the high 48 bits (both its fields are below 2^24);
                // among equal f, the deepest first.
                let f = (cost + (u64::from(bound) << SHIFT)).min((1 << 48) - 1);
                let depth = (cost >> SHIFT).min(0xffff);
                f << 16 | (0xffff - depth)
            }
        }
    }

    /// Stores the start position; `Some` when that already decides.
    pub fn start(&mut self) -> Option<End> {
        let board = self.board;
        let mut boxes = vec![0u64; board.words];
        for &b in &board.start_boxes {
            bits::set(&mut boxes, b);
        }
        let table = self.fixed.after(board, &boxes, 0, &board.start_boxes);
        let Some(bound) = self.matching.solve(
            self.fixed
                .costs(board, table)
                .seen_from(self.bound_player(board.start_player)),
            &board.start_boxes,
        ) else {
            return Some(End::Exhausted);
        };
        let start_player = if self.exact_player() {
            board.start_player
        } else {
            self.flood(&boxes, board.start_player)
        };
        let hash = self.zobrist.boxes_hash(&board.start_boxes) ^ self.zobrist.player(start_player);
        let root = match self.store.find_or_insert(
            hash,
            &boxes,
            start_player,
            NO_PARENT,
            Push::default(),
            0,
        ) {
            Some(Found::New(id) | Found::Old(id)) => id,
            None => return Some(End::OutOfMemory),
        };
        self.tables.push(table);
        if bound == 0 {
            return Some(End::Found(root));
        }
        self.enqueue(root, 0, bound, &boxes, Queued::Start);
        None
    }

    /// Expands up to `budget` nodes; `None` when the search goes on.
    pub fn advance(&mut self, control: &Control<'_>, budget: u64) -> Option<End> {
        let stop_at = self.expanded + budget;
        while self.expanded < stop_at {
            let Some((_, id)) = self.dequeue() else {
                return Some(End::Exhausted);
            };
            if let Step::End(end) = self.step(id, control) {
                return Some(end);
            }
        }
        None
    }

    /// Expands node `id`, taken from the open list.
    fn step(&mut self, id: u32, control: &Control<'_>) -> Step {
        // An entry left behind when the node was reached more cheaply
        // comes after the newer one (same bound, higher f), which closed it.
        if self.store.closed[id as usize] {
            return Step::Done;
        }
        let board = self.board;
        let mut boxes = std::mem::take(&mut self.boxes);
        let mut list = std::mem::take(&mut self.rows);
        boxes.resize(board.words, 0);
        let step = 'step: {
            let cost = self.store.cost[id as usize];
            self.store.closed[id as usize] = true;
            boxes.copy_from_slice(self.store.boxes(id));
            bits::cells(&boxes, &mut list);
            let player = self.bound_player(self.store.player(id));
            let costs = self
                .fixed
                .costs(board, self.tables[id as usize])
                .seen_from(player);
            let Some(bound) = self.matching.solve_near(costs, &list) else {
                break 'step Step::Done;
            };
            // Children are generated per matching row.
            list.clear();
            list.extend_from_slice(self.matching.rows());
            if bound == 0 {
                // Met in the middle, a solved position is one the backward
                // search starts from: nothing to expand.
                break 'step match self.layers {
                    Some(_) => Step::Done,
                    None => Step::End(End::Found(id)),
                };
            }
            self.expanded += 1;
            self.depth = match self.order {
                Order::Fast => cost & ((1 << SHIFT) - 1),
                _ => cost >> SHIFT,
            } as u32;
            self.bound = bound;
            if let Some(completer) = &mut self.completer
                && completer.found.is_none()
                && completer.active
                && self.depth + bound == completer.f
            {
                let player = self.store.player(id);
                if let Some(tail) = completer.complete(board, &boxes, player, bound) {
                    completer.found = Some((id, tail));
                }
            }
            if control.cancelled() {
                break 'step Step::End(End::Cancelled);
            }
            match self.expand(id, &mut boxes, &list, cost) {
                Ok(Some(goal)) => Step::End(End::Found(goal)),
                Ok(None) => Step::Done,
                Err(()) => Step::End(End::OutOfMemory),
            }
        };
        self.boxes = boxes;
        self.rows = list;
        step
    }

    /// Generates the children of `id`. `Ok(Some(goal))` when Fast mode
    /// meets a solved position; `Err` when the store is full.
    fn expand(
        &mut self,
        id: u32,
        boxes: &mut [u64],
        list: &[u16],
        cost: u64,
    ) -> Result<Option<u32>, ()> {
        let board = self.board;
        let player = self.store.player(id);
        self.flood(boxes, player);
        // Keep the expanded node's reach apart: every child floods again.
        std::mem::swap(&mut self.node_walk, &mut self.walk);
        self.node_reach.fill(0);
        for &c in &self.queue {
            bits::set(&mut self.node_reach, c);
        }
        let exact = self.exact_player();
        if let Some(symmetry) = &mut self.symmetry {
            let reach = if exact {
                std::slice::from_ref(&player)
            } else {
                self.queue.as_slice()
            };
            // Fast mode wants any solution: one image at any cost will do.
            let price = if self.order == Order::Fast {
                u64::MAX
            } else {
                cost
            };
            if symmetry.seen_image(list, reach, price) {
                return Ok(None);
            }
        }
        let parent = Expanded {
            id,
            cost,
            boxes_hash: self.zobrist.boxes_hash(list),
        };
        self.moves.clear();
        let restricted = if self.reorders {
            self.corrals
                .restrict(board, boxes, list.len(), &self.node_reach)
        } else {
            None
        };
        match restricted {
            Some(pushes) => {
                for &(from, dir) in pushes {
                    if let Some(row) = list.iter().position(|&c| c == from) {
                        self.moves.push((row as u16, from, dir));
                    }
                }
            }
            None => {
                if self.reorders {
                    let player = self.store.player(id);
                    for (corral_boxes, cells) in self.corrals.suspects() {
                        if self
                            .learner
                            .corral_deadlocked(board, corral_boxes, cells, player)
                        {
                            return Ok(None);
                        }
                    }
                }
                for (row, &from) in list.iter().enumerate() {
                    for dir in 0..4 {
                        self.moves.push((row as u16, from, dir));
                    }
                }
            }
        }
        if self.box_moves.is_some() {
            if let Some(goal) = self.box_move_children(&parent, boxes, list)? {
                return Ok(Some(goal));
            }
            self.moves.clear();
        }
        for i in 0..self.moves.len() {
            let (row, from, dir) = self.moves[i];
            let (row, dir) = (usize::from(row), usize::from(dir));
            let to = board.neighbor(from, dir);
            let behind = board.neighbor(from, (dir + 2) % 4);
            if to == NONE || behind == NONE || bits::has(boxes, to) || board.dead[usize::from(to)] {
                continue;
            }
            if !bits::has(&self.node_reach, behind) {
                continue;
            }
            let walk = self.node_walk[usize::from(behind)];
            // Goal-tunnel macro: a box pushed onto a goal at the mouth of a
            // one-wide run of goals may as well go on to the far end, which
            // keeps the run open behind it. Where the run is sealed beyond,
            // the box can only ever go on, so in the orders that may reorder
            // pushes that is its only push (see `sealed_beyond`); elsewhere
            // it is an extra child (a real push sequence), so nothing is lost.
            let (goal_end, goal_count) = self.goal_tunnel_end(boxes, to, dir);
            let forced =
                goal_count > 1 && self.reorders && self.sealed_beyond(boxes, to, goal_end, dir);
            let mut took_macro = false;
            if !forced {
                // Goal-room macro: a box pushed into a goal room (onto its door,
                // or onto a goal of a goal area) goes on to the room's next goal
                // in order, in place of the single push.
                bits::clear(boxes, from);
                bits::set(boxes, to);
                let path = self.rooms.as_mut().and_then(|rooms| {
                    let room = rooms.entered(from, to)?;
                    rooms.macro_path(board, boxes, room, to, from)
                });
                bits::clear(boxes, to);
                bits::set(boxes, from);
                took_macro = path.is_some();
                let (end, last_dir, count, push) = match path {
                    Some(path) => {
                        let (last, last_dir) = path.last().copied().unwrap_or((from, dir as u8));
                        let end = board.neighbor(last, usize::from(last_dir));
                        let mut full = Vec::with_capacity(path.len() + 1);
                        full.push((from, dir as u8));
                        full.extend(path);
                        let count = full.len() as u16;
                        let push = Push::macro_path(self.macro_number(full));
                        (end, usize::from(last_dir), count, push)
                    }
                    None => {
                        let (end, count) = self.tunnel_end(boxes, from, to, dir);
                        (end, dir, count, Push::straight(from, dir as u8, count))
                    }
                };
                let pushed = Pushed {
                    row,
                    from,
                    to: end,
                    dir: last_dir,
                    count,
                    walk,
                    push,
                };
                let child = self.child(&parent, boxes, pushed);
                if let Some(goal) = child? {
                    return Ok(Some(goal));
                }
            }
            if goal_count > 1 && !took_macro {
                let pushed = Pushed {
                    row,
                    from,
                    to: goal_end,
                    dir,
                    count: goal_count,
                    walk,
                    push: Push::straight(from, dir as u8, goal_count),
                };
                let child = self.child(&parent, boxes, pushed);
                if let Some(goal) = child? {
                    return Ok(Some(goal));
                }
            }
        }
        if let Some(goal) = self.advised_child(&parent, boxes, list)? {
            return Ok(Some(goal));
        }
        self.opening_child(&parent, boxes, list)
    }

    /// The children of `parent` by box moves: of each box among the
    /// candidate pushes, every position it reaches alone. A single push is
    /// stored as one, a longer move as the box's first cell (see
    /// [`Search::box_move_path`]).
    fn box_move_children(
        &mut self,
        parent: &Expanded,
        boxes: &mut [u64],
        list: &[u16],
    ) -> Result<Option<u32>, ()> {
        let Some(mut scratch) = self.box_moves.take() else {
            return Ok(None);
        };
        let board = self.board;
        let player = self.store.player(parent.id);
        let mut found = Ok(None);
        'boxes: for (row, &from) in list.iter().enumerate() {
            if !self.moves.iter().any(|&(r, ..)| usize::from(r) == row) {
                continue;
            }
            scratch.others.copy_from_slice(boxes);
            bits::clear(&mut scratch.others, from);
            scratch
                .one_box
                .moves(board, &scratch.others, from, player, &mut scratch.moves);
            for &BoxMove { to, dir, pushes } in &scratch.moves {
                let first = pushes == 1;
                let pushed = Pushed {
                    row,
                    from,
                    to,
                    dir: usize::from(dir),
                    count: pushes.min(u32::from(MAX_RUN)) as u16,
                    walk: 0,
                    push: if first {
                        Push::straight(from, dir, 1)
                    } else {
                        Push::moved(from)
                    },
                };
                match self.child(parent, boxes, pushed) {
                    Ok(None) => {}
                    end => {
                        found = end;
                        break 'boxes;
                    }
                }
            }
        }
        self.box_moves = Some(scratch);
        found
    }

    /// The connectivity advisor's child of `parent`, if it advises one: a
    /// box pushed alone to where the board falls into fewer pieces, as one
    /// macro.
    fn opening_child(
        &mut self,
        parent: &Expanded,
        boxes: &mut [u64],
        list: &[u16],
    ) -> Result<Option<u32>, ()> {
        let Some(opener) = &mut self.opener else {
            return Ok(None);
        };
        let player = self.store.player(parent.id);
        match opener.advise(self.board, boxes, player) {
            Some(path) => self.path_child(parent, boxes, list, &path, Push::opened),
            None => Ok(None),
        }
    }

    /// The packing advisor's child of `parent`, if it advises one: a box
    /// pushed alone onto a goal to fill next, as one macro.
    fn advised_child(
        &mut self,
        parent: &Expanded,
        boxes: &mut [u64],
        list: &[u16],
    ) -> Result<Option<u32>, ()> {
        let Some(advisor) = &mut self.advisor else {
            return Ok(None);
        };
        let player = self.store.player(parent.id);
        match advisor.advise(self.board, boxes, player) {
            Some(path) => self.path_child(parent, boxes, list, &path, Push::advised),
            None => Ok(None),
        }
    }

    /// The child of `parent` in which one box takes the pushes of `path`,
    /// an advisor's, stored as `push` of the box's first cell.
    fn path_child(
        &mut self,
        parent: &Expanded,
        boxes: &mut [u64],
        list: &[u16],
        path: &[(u16, u8)],
        push: fn(u16) -> Push,
    ) -> Result<Option<u32>, ()> {
        let (Some(&(from, first_dir)), Some(&(last, last_dir))) = (path.first(), path.last())
        else {
            return Ok(None);
        };
        let board = self.board;
        let Some(row) = list.iter().position(|&c| c == from) else {
            return Ok(None);
        };
        let behind = board.neighbor(from, usize::from((first_dir + 2) % 4));
        let walk = if behind != NONE && bits::has(&self.node_reach, behind) {
            self.node_walk[usize::from(behind)]
        } else {
            0
        };
        let pushed = Pushed {
            row,
            from,
            to: board.neighbor(last, usize::from(last_dir)),
            dir: usize::from(last_dir),
            count: path.len() as u16,
            walk,
            push: push(from),
        };
        self.child(parent, boxes, pushed)
    }

    /// Tunnel macro: where a box pushed from `from` to `to` in direction
    /// `dir` goes on to, and how many pushes in all. While a box stands off
    /// goal in a one-wide straight tunnel (walls on both sides of it and of
    /// the player's cell behind it), both cells are dead ends for everyone
    /// else: a push back would only undo the last one, and a box pushed in
    /// behind it would freeze both. So its next push is forward, and every
    /// push inside the tunnel can wait until just before the one that takes
    /// the box out: on some optimal solution they come in one run. The run
    /// stops on a goal, or before a box or a dead square. Push counts are
    /// kept, move counts are not (pushes are reordered): only the
    /// pushes-only orders use it.
    fn tunnel_end(&self, boxes: &[u64], from: u16, to: u16, dir: usize) -> (u16, u16) {
        let board = self.board;
        let walled = |c: u16| board.walled_across(c, dir);
        let (mut end, mut count) = (to, 1u16);
        if !self.reorders || !walled(from) {
            return (end, count);
        }
        loop {
            let next = board.neighbor(end, dir);
            if board.is_goal[usize::from(end)]
                || !walled(end)
                || next == NONE
                || bits::has(boxes, next)
                || board.dead[usize::from(next)]
                || count == MAX_RUN
            {
                return (end, count);
            }
            end = next;
            count += 1;
        }
    }

    /// Whether a box on `to`, where a run of free goals from `to` to `end`
    /// in direction `dir` begins, can only ever be pushed on to `end`: every
    /// cell of the run is walled in on both sides, beyond `end` there are
    /// only boxes walled in the same way, then a wall, and every goal must
    /// be filled (as many boxes as goals). Then nothing can pass the box or
    /// get behind it, the goals beyond it are filled by it first, and the
    /// pushes taking it there may as well all come now: the cells they free
    /// are dead ends.
    fn sealed_beyond(&self, boxes: &[u64], to: u16, end: u16, dir: usize) -> bool {
        let board = self.board;
        let walled = |c: u16| board.walled_across(c, dir);
        if board.goals.len() != board.start_boxes.len() || !walled(to) {
            return false;
        }
        let mut c = board.neighbor(end, dir);
        while c != NONE {
            if !bits::has(boxes, c) || !walled(c) {
                return false;
            }
            c = board.neighbor(c, dir);
        }
        true
    }

    /// Where a box pushed onto goal `to` in direction `dir` can go on along
    /// free goals walled in on both sides; and how many pushes in all.
    fn goal_tunnel_end(&self, boxes: &[u64], to: u16, dir: usize) -> (u16, u16) {
        let board = self.board;
        let (mut end, mut count) = (to, 1u16);
        if !board.is_goal[usize::from(to)] {
            return (end, count);
        }
        loop {
            let next = board.neighbor(end, dir);
            if next == NONE
                || !board.is_goal[usize::from(next)]
                || bits::has(boxes, next)
                || !board.walled_across(next, dir)
                || count == MAX_RUN
            {
                return (end, count);
            }
            end = next;
            count += 1;
        }
    }

    /// The child of `parent` made by `pushed` (`boxes` as before the push,
    /// and so again after it): `Ok(Some(id))` when it solves the level,
    /// `Err(())` when the store is full.
    fn child(
        &mut self,
        parent: &Expanded,
        boxes: &mut [u64],
        pushed: Pushed,
    ) -> Result<Option<u32>, ()> {
        bits::clear(boxes, pushed.from);
        bits::set(boxes, pushed.to);
        let child = self.child_placed(parent, boxes, pushed);
        bits::clear(boxes, pushed.to);
        bits::set(boxes, pushed.from);
        child
    }

    /// [`Search::child`] with the box already on `pushed.to` in `boxes`.
    fn child_placed(
        &mut self,
        parent: &Expanded,
        boxes: &[u64],
        pushed: Pushed,
    ) -> Result<Option<u32>, ()> {
        let Pushed {
            row,
            from,
            to,
            dir,
            count,
            walk,
            push,
        } = pushed;
        let &Expanded {
            id: parent,
            cost,
            boxes_hash,
        } = parent;
        let board = self.board;
        if deadlock::frozen(board, boxes, to) {
            return Ok(None);
        }
        // The player ends next to the box, behind it.
        let stand = board.neighbor(to, (dir + 2) % 4);
        if stand == NONE {
            return Ok(None);
        }
        // How the child's region is known, if it is: `Some(false)` from a
        // flood into `reach`, `Some(true)` as the node's less `to`, with
        // `from`.
        let mut region = None;
        let player = if self.exact_player() {
            stand
        } else {
            let quick = if count == 1 {
                let node_reach = &self.node_reach;
                board.region_after_push(
                    boxes,
                    |c| bits::has(node_reach, c),
                    from,
                    to,
                    self.store.player(parent),
                )
            } else {
                None
            };
            region = Some(quick.is_some());
            match quick {
                Some(lowest) => {
                    debug_assert_eq!(lowest, self.flood(boxes, stand));
                    lowest
                }
                None => self.flood(boxes, stand),
            }
        };
        let boxes_hash = boxes_hash ^ self.zobrist.boxed(from) ^ self.zobrist.boxed(to);
        let hash = boxes_hash ^ self.zobrist.player(player);
        let pushes = u64::from(count);
        let steps = u64::from(walk) + pushes;
        let child_cost = match self.order {
            Order::Fast => cost + pushes,
            Order::Pushes => cost + (pushes << SHIFT),
            Order::PushesThenMoves => cost + (pushes << SHIFT) + steps,
            Order::MovesThenPushes => cost + (steps << SHIFT) + pushes,
        };
        // Most children are positions stored already, no cheaper than now:
        // whatever their bound and deadlock tests say, nothing follows for
        // them, so the store is asked first.
        if let Some(known) = self.store.find(hash, boxes, player)
            && (self.order == Order::Fast || child_cost >= self.store.cost[known as usize])
        {
            return Ok(None);
        }
        let parent_table = self.tables[parent as usize];
        let table = self.fixed.after(board, boxes, parent_table, &[to]);
        let costs = self
            .fixed
            .costs(board, table)
            .seen_from(self.bound_player(stand));
        let bound = if table == parent_table {
            self.matching.with_moved(costs, row, to)
        } else {
            let mut cells = std::mem::take(&mut self.child_cells);
            bits::cells(boxes, &mut cells);
            let bound = self.scratch.solve(costs, &cells);
            self.child_cells = cells;
            bound
        };
        let Some(bound) = bound else {
            return Ok(None);
        };
        if self.learner.deadlocked(board, boxes, to, stand) {
            return Ok(None);
        }
        if let Some(refine) = self.refine {
            let done = child_cost >> SHIFT;
            if done + u64::from(bound) > u64::from(refine.pushes) {
                return Ok(None);
            }
            let region = self.flood(boxes, stand);
            let known_hash = boxes_hash ^ self.zobrist.player(region);
            if let Some(known) = refine.known.find(known_hash, boxes, region)
                && refine.known.cost[known as usize] >> SHIFT < done
            {
                return Ok(None);
            }
        }
        match self
            .store
            .find_or_insert(hash, boxes, player, parent, push, child_cost)
        {
            None => Err(()),
            Some(Found::New(id)) => {
                self.tables.push(table);
                if bound == 0 && self.order == Order::Fast {
                    return Ok(Some(id));
                }
                let cell = region.and_then(|quick| self.child_cell(boxes, quick, (from, to)));
                self.enqueue(id, child_cost, bound, boxes, Queued::Child { cell });
                Ok(None)
            }
            Some(Found::Old(id)) => {
                if self.order != Order::Fast && child_cost < self.store.cost[id as usize] {
                    self.store.relink(id, parent, push, child_cost);
                    self.store.closed[id as usize] = false;
                    let by = Queued::Child { cell: None };
                    self.enqueue(id, child_cost, bound, boxes, by);
                }
                Ok(None)
            }
        }
    }
}

impl super::meet::Round for Search<'_> {
    fn expanded(&self) -> u64 {
        self.expanded
    }

    fn next(&mut self, f_limit: u32, dive: bool) -> Option<u32> {
        let cost = &self.store.cost;
        // Stale: the node was reached with fewer pushes since.
        let live = |depth: u32, id: u32| cost[id as usize] >> SHIFT == u64::from(depth);
        let layers = self.layers.as_mut()?;
        if dive {
            layers.take_deepest(live)
        } else {
            layers.take(f_limit, live)
        }
    }

    fn expand_next(&mut self, id: u32, control: &Control<'_>) -> Option<End> {
        match self.step(id, control) {
            Step::Done => None,
            Step::End(end) => Some(end),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// With the packing advisor, a feature search takes the node reached by
    /// fewer unadvised pushes first, whatever its bound; without it, the
    /// node with the lower bound.
    #[test]
    fn advised_feature_searches_rank_by_weight_before_the_bound() {
        let level = crate::Level::from_xsb("#######\n#.  $ #\n#.  $@#\n#######").unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let boxes = vec![0u64; board.words];
        // Nine pushes, none unadvised; three pushes, one unadvised.
        let light = 9;
        let heavy = 1 << SHIFT | 3;
        let feature_search = || Search::new(&board, Mode::Fast, 0, 16).with_features(true);
        let advised = feature_search().unwrap().with_advisor(1);
        assert!(advised.priority(light, 20, &boxes) < advised.priority(heavy, 2, &boxes));
        let unadvised = feature_search().unwrap();
        assert!(unadvised.priority(light, 20, &boxes) > unadvised.priority(heavy, 2, &boxes));
    }
}
