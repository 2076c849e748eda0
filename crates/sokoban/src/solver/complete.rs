//! Completions: from a position, boxes pushed onto goals one at a time,
//! each alone along its fewest pushes onto a goal that may be filled next
//! (the packing advisor's paths), the other boxes standing still. When that
//! solves the level in no more pushes than the lower bound, the bound was
//! exact there and the completion is a fewest-pushes way on.
//!
//! Pushes mode probes the nodes whose f is the pushes proven so far: a
//! completion from one of them is a solution of that many pushes, so an
//! optimal one. Where the bound is exact over the later part of a long
//! solution, the search would otherwise have to expand the whole last f to
//! find it, most of it in dead ends.

use super::advisor::Advisor;
use super::bits;
use super::board::Board;

pub(crate) struct Completer {
    advisor: Advisor,
    boxes: Vec<u64>,
    cells: Vec<u16>,
    /// The f (pushes plus bound) of the nodes to probe.
    pub f: u32,
    /// A completed node and the pushes (box cell, direction) from it.
    pub found: Option<(u32, Vec<(u16, u8)>)>,
    /// Whether the nodes expanded now are probed.
    pub active: bool,
}

impl Completer {
    /// Boxes tried per step, nearest to a goal first (see [`Advisor`]): one,
    /// as most probes fail and a second try only adds to what they cost.
    const TRIES: usize = 1;

    pub fn new(board: &Board) -> Completer {
        Completer {
            advisor: Advisor::new(board, Self::TRIES),
            boxes: vec![0; board.words],
            cells: Vec::new(),
            f: u32::MAX,
            found: None,
            active: true,
        }
    }

    /// The pushes solving `boxes` (player on `player`) within `budget`
    /// pushes, if the completion finds them.
    pub fn complete(
        &mut self,
        board: &Board,
        boxes: &[u64],
        mut player: u16,
        budget: u32,
    ) -> Option<Vec<(u16, u8)>> {
        self.boxes.copy_from_slice(boxes);
        let mut tail = Vec::new();
        loop {
            bits::cells(&self.boxes, &mut self.cells);
            if self.cells.iter().all(|&c| board.is_goal[usize::from(c)]) {
                return Some(tail);
            }
            let path = self
                .advisor
                .advise_at_least(board, &self.boxes, player, 1)?;
            if tail.len() + path.len() > budget as usize {
                return None;
            }
            for &(from, dir) in &path {
                bits::clear(&mut self.boxes, from);
                bits::set(&mut self.boxes, board.neighbor(from, usize::from(dir)));
                player = from;
            }
            tail.extend(path);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Level;
    use crate::solver::lower_bound::{Costs, Matching};

    /// A dead-end goal corridor filled from its far end: the bound is
    /// exact, and the completion takes as many pushes as it says.
    #[test]
    fn a_goal_corridor_is_completed_in_the_pushes_the_bound_says() {
        let text = "########\n#...   #\n####   #\n#  $$$@#\n#      #\n########";
        let level = Level::from_xsb(text).unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut start = vec![0u64; board.words];
        for &b in &board.start_boxes {
            bits::set(&mut start, b);
        }
        let mut matching = Matching::new(3, 3, board.cells);
        let costs = Costs::of(&board).seen_from(board.start_player);
        let bound = matching.solve(costs, &board.start_boxes).unwrap();
        let mut completer = Completer::new(&board);
        let tail = completer
            .complete(&board, &start, board.start_player, bound)
            .unwrap();
        assert_eq!(tail.len(), bound as usize);
        let mut boxes = start.clone();
        for &(from, dir) in &tail {
            bits::clear(&mut boxes, from);
            bits::set(&mut boxes, board.neighbor(from, usize::from(dir)));
        }
        assert!(board.goals.iter().all(|&g| bits::has(&boxes, g)));
        // (The solver replays what pushes mode returns: see below.) Fewer
        // pushes than that: none.
        assert_eq!(
            completer.complete(&board, &start, board.start_player, bound - 1),
            None
        );
    }

    /// Pushes mode ends with the completion of its start (bound exact):
    /// a solution of as many pushes as the bound, proven optimal.
    #[test]
    fn pushes_mode_returns_a_completed_solution() {
        let text = "########\n#...   #\n####   #\n#  $$$@#\n#      #\n########";
        let level = Level::from_xsb(text).unwrap();
        let options = crate::solver::Options {
            mode: crate::solver::Mode::Pushes,
            ..Default::default()
        };
        let (outcome, _) =
            crate::solver::solve_with_stats(&level, &options, &mut crate::solver::Control::new());
        let crate::solver::Outcome::Solved(solution) = outcome else {
            panic!("not solved: {outcome:?}");
        };
        assert!(solution.optimal);
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut matching = Matching::new(3, 3, board.cells);
        let costs = Costs::of(&board).seen_from(board.start_player);
        assert_eq!(
            Some(solution.pushes),
            matching.solve(costs, &board.start_boxes)
        );
    }
}
