//! FESS's packing advisor (Shoham and Schaeffer, 2020): from each position
//! the feature search expands, one extra child in which a box is pushed
//! alone, along the fewest pushes, onto a goal that may be filled next in
//! packing order (every goal it blocks filled already; any empty goal when
//! the goals have no order). The child packs one more goal, so it costs no
//! weight (see `features::push_weight`), and the search reaches the next
//! packing cell in one step instead of a walk of unadvised pushes. Given
//! the goal rooms (see `room`), it advises a room's goals in the room's
//! filling order only.
//!
//! FESS's connectivity advisor, the [`Opener`]: one extra child in which a
//! box is pushed alone to where the free floor falls into fewer pieces,
//! opening the way to boxes and goals before any can be packed.

use super::bits;
use super::board::{Board, FAR};
use super::features::Features;
use super::one_box::OneBox;
use super::room::RoomOrder;

pub(crate) struct Advisor {
    /// Boxes tried per position, nearest to a target first: each try is a
    /// search of its own over the box's cells. One or two steer the search
    /// to different levels (see `Kind::RoomFeatures`).
    tries: usize,
    one_box: OneBox,
    targets: Vec<u64>,
    others: Vec<u64>,
    /// (push distance, box cell) of the boxes off goal.
    candidates: Vec<(u16, u16)>,
    /// Scratch, kept to spare two allocations per call: the goals
    /// (indices) to fill next and the box cells.
    target_goals: Vec<usize>,
    cells: Vec<u16>,
    /// The goal rooms, whose goals are advised in their filling order only.
    rooms: Vec<RoomOrder>,
}

impl Advisor {
    /// An advisor trying up to `tries` boxes per position.
    pub fn new(board: &Board, tries: usize) -> Advisor {
        Advisor {
            tries,
            one_box: OneBox::new(board),
            targets: vec![0; board.words],
            others: vec![0; board.words],
            candidates: Vec::new(),
            target_goals: Vec::new(),
            cells: Vec::new(),
            rooms: Vec::new(),
        }
    }

    /// The same, advising the goals of `rooms` in their order only.
    pub fn with_rooms(mut self, rooms: Vec<RoomOrder>) -> Advisor {
        self.rooms = rooms;
        self
    }

    /// A new advisor asking what this one asks.
    pub fn fresh(&self, board: &Board) -> Advisor {
        Advisor::new(board, self.tries).with_rooms(self.rooms.clone())
    }

    /// The advised pushes (box cell, direction) from the position `boxes`
    /// with the player on `player`, at least two of them (a single push is
    /// a child anyway); `None` when no box can get to a goal to fill next.
    pub fn advise(&mut self, board: &Board, boxes: &[u64], player: u16) -> Option<Vec<(u16, u8)>> {
        self.advise_at_least(board, boxes, player, 2)
    }

    /// [`Advisor::advise`], paths of at least `pushes` pushes.
    pub fn advise_at_least(
        &mut self,
        board: &Board,
        boxes: &[u64],
        player: u16,
        pushes: usize,
    ) -> Option<Vec<(u16, u8)>> {
        self.targets.iter_mut().for_each(|t| *t = 0);
        let fillable = board.packing().map(|p| p.fillable(board, boxes));
        let mut target_goals = std::mem::take(&mut self.target_goals);
        target_goals.clear();
        for (i, &g) in board.goals.iter().enumerate() {
            let next = match fillable {
                Some(mask) => mask & 1 << i != 0,
                None => !bits::has(boxes, g),
            };
            if next && self.rooms.iter().all(|r| r.allows(boxes, g)) {
                bits::set(&mut self.targets, g);
                target_goals.push(i);
            }
        }
        if target_goals.is_empty() {
            self.target_goals = target_goals;
            return None;
        }
        self.candidates.clear();
        let mut cells = std::mem::take(&mut self.cells);
        bits::cells(boxes, &mut cells);
        for &b in &cells {
            if board.is_goal[usize::from(b)] {
                continue;
            }
            let near = target_goals
                .iter()
                .map(|&i| board.distance[i * board.cells + usize::from(b)])
                .min()
                .unwrap_or(FAR);
            if near != FAR && usize::from(near) >= pushes {
                self.candidates.push((near, b));
            }
        }
        self.target_goals = target_goals;
        self.cells = cells;
        self.candidates.sort_unstable();
        for i in 0..self.candidates.len().min(self.tries) {
            let (_, b) = self.candidates[i];
            self.others.copy_from_slice(boxes);
            bits::clear(&mut self.others, b);
            let path =
                self.one_box
                    .push_path(board, &self.others, b, player, &self.targets, |_| true);
            if let Some(path) = path.filter(|p| p.len() >= pushes) {
                return Some(path);
            }
        }
        None
    }
}

/// FESS's connectivity advisor: from each position the feature search
/// expands, one extra child in which a box is pushed alone, along the
/// fewest pushes (two or more: a single push is a child anyway), to where
/// the free cells fall into fewer pieces. Only boxes whose taking away
/// joins pieces are tried, those joining the most first.
pub(crate) struct Opener {
    tries: usize,
    one_box: OneBox,
    features: Features,
    others: Vec<u64>,
    /// `others` with the box where it is tried.
    trial: Vec<u64>,
    cells: Vec<u16>,
    /// (pieces with the box taken away, box cell).
    candidates: Vec<(u32, u16)>,
}

impl Opener {
    /// An advisor trying up to `tries` boxes per position.
    pub fn new(board: &Board, tries: usize) -> Opener {
        Opener {
            tries,
            one_box: OneBox::new(board),
            features: Features::new(board, false),
            others: vec![0; board.words],
            trial: vec![0; board.words],
            cells: Vec::new(),
            candidates: Vec::new(),
        }
    }

    /// A new advisor asking what this one asks.
    pub fn fresh(&self, board: &Board) -> Opener {
        Opener::new(board, self.tries)
    }

    /// The advised pushes (box cell, direction) from the position `boxes`
    /// with the player on `player`; `None` when no box opens the board.
    pub fn advise(&mut self, board: &Board, boxes: &[u64], player: u16) -> Option<Vec<(u16, u8)>> {
        let now = self.features.pieces_of(board, boxes);
        if now <= 1 {
            return None;
        }
        let mut cells = std::mem::take(&mut self.cells);
        bits::cells(boxes, &mut cells);
        self.candidates.clear();
        for &b in &cells {
            self.others.copy_from_slice(boxes);
            bits::clear(&mut self.others, b);
            let without = self.features.pieces_of(board, &self.others);
            if without < now {
                self.candidates.push((without, b));
            }
        }
        self.cells = cells;
        self.candidates.sort_unstable();
        for i in 0..self.candidates.len().min(self.tries) {
            let (_, b) = self.candidates[i];
            self.others.copy_from_slice(boxes);
            bits::clear(&mut self.others, b);
            self.trial.copy_from_slice(&self.others);
            let (features, trial) = (&mut self.features, &mut self.trial);
            let opens = |cell: u16, _: u8, pushes: u32| {
                if !(2..=MAX_OPENING_PUSHES).contains(&pushes) {
                    return false;
                }
                bits::set(trial, cell);
                let pieces = features.pieces_of(board, trial);
                bits::clear(trial, cell);
                pieces < now
            };
            if let Some(path) =
                self.one_box
                    .push_path_until(board, &self.others, b, player, opens, |_| true)
            {
                return Some(path);
            }
        }
        None
    }
}

/// The most pushes an opening move may take.
const MAX_OPENING_PUSHES: u32 = 12;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::super::search::Search;
    use super::super::store::PushKind;
    use super::*;
    use crate::Level;

    /// A dead-end goal corridor: the far end is the goal to fill first.
    const CORRIDOR: &str = "########\n#...   #\n####   #\n#  $$$@#\n#      #\n########";

    fn setup(text: &str) -> (Level, Board, Vec<u64>) {
        let level = Level::from_xsb(text).unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut boxes = vec![0u64; board.words];
        board
            .start_boxes
            .iter()
            .for_each(|&b| bits::set(&mut boxes, b));
        (level, board, boxes)
    }

    /// Plays `path` on `boxes`, checking that each push is possible, and
    /// returns where the box ends.
    fn play(board: &Board, boxes: &mut [u64], mut player: u16, path: &[(u16, u8)]) -> u16 {
        let mut end = 0;
        for &(from, dir) in path {
            let to = board.neighbor(from, usize::from(dir));
            let behind = board.neighbor(from, usize::from((dir + 2) % 4));
            assert!(bits::has(boxes, from) && !bits::has(boxes, to));
            let mut one = OneBox::new(board);
            one.reach(board, &[player], boxes, super::super::board::NONE);
            assert!(one.reached(behind), "the player cannot get behind {from}");
            bits::clear(boxes, from);
            bits::set(boxes, to);
            player = from;
            end = to;
        }
        end
    }

    #[test]
    fn the_advised_box_goes_onto_the_goal_to_fill_next() {
        let (level, board, mut boxes) = setup(CORRIDOR);
        let cell = |column: usize, row: usize| board.compact[level.map().index(column, row)];
        assert!(board.packing().is_some());
        let mut advisor = Advisor::new(&board, 2);
        let path = advisor.advise(&board, &boxes, board.start_player).unwrap();
        assert!(path.len() >= 2);
        let end = play(&board, &mut boxes, board.start_player, &path);
        assert_eq!(end, cell(1, 1), "the far end of the corridor first");
    }

    #[test]
    fn without_a_packing_order_any_empty_goal_will_do() {
        let (_, board, mut boxes) = setup("#######\n#.    #\n#  $  #\n#  @  #\n#######");
        let mut advisor = Advisor::new(&board, 2);
        let path = advisor.advise(&board, &boxes, board.start_player).unwrap();
        let end = play(&board, &mut boxes, board.start_player, &path);
        assert!(board.is_goal[usize::from(end)]);
        assert_eq!(path.len(), 3, "the fewest pushes: {path:?}");
    }

    #[test]
    fn a_solution_through_advised_pushes_is_written_out_and_replays() {
        for tries in [1, 2] {
            solve_with_advice(tries);
        }
    }

    fn solve_with_advice(tries: usize) {
        let advised = solve_through(
            CORRIDOR,
            |s| s.with_advisor(tries),
            |kind| match kind {
                PushKind::Advised(from) => Some(from),
                _ => None,
            },
        );
        assert!(!advised.is_empty(), "the solution took no advice");
        assert!(advised.iter().all(|&pushes| pushes >= 2), "{advised:?}");
    }

    /// Solves `text` with the feature search that `with` sets up, checks
    /// that the solution is written out and replays, and returns the pushes
    /// of each of its macros that `macro_from` (the macro's first box cell
    /// from the push's kind) picks, from the end.
    fn solve_through(
        text: &str,
        with: impl FnOnce(Search<'_>) -> Search<'_>,
        macro_from: impl Fn(PushKind) -> Option<u16>,
    ) -> Vec<usize> {
        use super::super::search::End;
        use super::super::store::NO_PARENT;
        use super::super::{Control, Mode, Outcome, finish_search};
        let (level, board, _) = setup(text);
        let mut search = with(
            Search::new(&board, Mode::Fast, 0, 64)
                .with_features(true)
                .unwrap(),
        );
        let control = Control::new();
        let end = search.start().or_else(|| search.advance(&control, 100_000));
        let Some(End::Found(goal)) = end else {
            panic!("not solved");
        };
        let mut pushes = Vec::new();
        let mut node = goal;
        while search.store.parent(node) != NO_PARENT {
            if let Some(from) = macro_from(search.store.push(node).kind()) {
                let runs = search.runs(node).unwrap();
                assert_eq!(runs[0].0, from);
                pushes.push(runs.len());
            }
            node = search.store.parent(node);
        }
        let Outcome::Solved(solution) = finish_search(&level, &board, &search, goal, Mode::Fast)
        else {
            panic!("not written out");
        };
        assert!(crate::verify(&level, &solution.lurd).unwrap().solved);
        pushes
    }

    /// Two rooms joined by a doorway, (4, 2), the box in the mouth of it.
    const DOORWAY: &str = "########\n#   #  #\n#@ $   #\n#   # .#\n########";

    #[test]
    fn the_opener_pushes_a_box_through_a_doorway_until_the_rooms_join() {
        let (level, board, mut boxes) = setup(DOORWAY);
        let cell = |column: usize, row: usize| board.compact[level.map().index(column, row)];
        let mut features = Features::new(&board, false);
        assert_eq!(features.pieces_of(&board, &boxes), 2);
        let path = Opener::new(&board, 2)
            .advise(&board, &boxes, board.start_player)
            .unwrap();
        // One push leaves it in the doorway, two just beyond it, where it
        // still cuts the right room from the doorway: three it is.
        assert_eq!(path.len(), 3, "{path:?}");
        let end = play(&board, &mut boxes, board.start_player, &path);
        assert_eq!(end, cell(6, 2));
        assert_eq!(features.pieces_of(&board, &boxes), 1);
    }

    #[test]
    fn an_open_board_gets_no_opening_advice() {
        let (_, board, boxes) = setup("#######\n#.    #\n#  $  #\n#  @  #\n#######");
        assert_eq!(
            Opener::new(&board, 2).advise(&board, &boxes, board.start_player),
            None
        );
    }

    #[test]
    fn a_solution_through_an_opening_move_is_written_out_and_replays() {
        let opened = solve_through(
            DOORWAY,
            |s| s.with_opener(2),
            |kind| match kind {
                PushKind::Opened(from) => Some(from),
                _ => None,
            },
        );
        assert_eq!(opened, vec![3], "one opening move, through the doorway");
    }

    #[test]
    fn a_solution_through_box_moves_is_written_out_and_replays() {
        let moved = solve_through(
            DOORWAY,
            |s| s.with_box_moves(),
            |kind| match kind {
                PushKind::Moved(from) => Some(from),
                _ => None,
            },
        );
        // Through the doorway and down onto the goal: one move of four
        // pushes, from the start.
        assert_eq!(moved, vec![4], "{moved:?}");
    }

    #[test]
    fn a_second_try_takes_the_next_box_when_the_nearest_is_stuck() {
        // The box on (3, 1) is nearest to the goal on (1, 1), but the box on
        // the goal (4, 1) keeps the player from pushing it; the one on (2, 2)
        // can get there.
        let (level, board, mut boxes) = setup("#######\n#. $* #\n# $  @#\n#.    #\n#######");
        let cell = |column: usize, row: usize| board.compact[level.map().index(column, row)];
        let player = board.start_player;
        assert_eq!(Advisor::new(&board, 1).advise(&board, &boxes, player), None);
        let path = Advisor::new(&board, 2)
            .advise(&board, &boxes, player)
            .unwrap();
        assert_eq!(path[0].0, cell(2, 2));
        let end = play(&board, &mut boxes, player, &path);
        assert!(board.is_goal[usize::from(end)]);
    }

    #[test]
    fn a_box_that_cannot_get_there_gets_no_advice() {
        // The box is against the top wall: it can only move sideways.
        let (_, board, boxes) = setup("######\n#$  .#\n#   @#\n######");
        let mut advisor = Advisor::new(&board, 2);
        assert_eq!(advisor.advise(&board, &boxes, board.start_player), None);
    }
}
