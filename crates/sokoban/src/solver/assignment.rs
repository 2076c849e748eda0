//! The goal-assignment hint: which goal the solver's lower bound sends each
//! box to, for a position being played. The matching is the bound's own
//! (`lower_bound`), priced as the proving search prices a position: boxes
//! fixed on goals count as walls (`fixed`), each box seen from the piece of
//! the board around it that the player is in.

use super::bits;
use super::board::{Board, NONE};
use super::deadlock::frozen;
use super::fixed::Fixed;
use super::lower_bound::{Costs, MAX_BOXES, Matching};
use crate::Level;

/// Memory for the distance tables with fixed boxes as walls, kept between
/// positions of one level.
const FIXED_TABLES_BYTES: usize = 16 << 20;

/// One box and the goal the lower bound assigns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxGoal {
    /// The box's cell (an index into the level's map).
    pub box_cell: usize,
    /// Its goal's cell; `None` when the box can reach no goal (a dead
    /// square, frozen off goal, or no goal left for it).
    pub goal: Option<usize>,
    /// The pushes the bound counts for this box to reach its goal.
    pub pushes: Option<u32>,
}

/// The lower bound's assignment of boxes to goals in one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoalAssignment {
    /// One entry per box, in increasing order of box cell.
    pub pairs: Vec<BoxGoal>,
    /// The bound: the sum of the pushes, or `None` when some box has no goal.
    pub pushes: Option<u32>,
}

/// Computes goal assignments for positions of one level, keeping the
/// solver's board (built once, like the deadlock detector's) between them.
pub struct GoalAssigner {
    board: Option<Board>,
    fixed: Option<Fixed>,
}

impl GoalAssigner {
    pub fn new(level: &Level) -> GoalAssigner {
        let board = Board::new(level.map(), level.player(), level.boxes()).ok();
        let fixed = board.as_ref().map(|b| Fixed::new(b, FIXED_TABLES_BYTES));
        GoalAssigner { board, fixed }
    }

    /// The assignment for the boxes on `boxes` with the player on `player`
    /// (cells of the level's map). `None` when the solver cannot take the
    /// level (too large, or unsolvable from the start), or the position is
    /// not one of this level's (a cell out of reach, too many boxes).
    pub fn assign(&mut self, boxes: &[usize], player: usize) -> Option<GoalAssignment> {
        let board = self.board.as_ref()?;
        let fixed = self.fixed.as_mut()?;
        let player = board.compact.get(player).copied().filter(|&c| c != NONE)?;
        let mut sorted: Vec<usize> = boxes.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        // Boxes the player never reaches stand on goals for good (the board
        // refuses a level with one off goal): their own goal, no pushes.
        let mut pairs = Vec::with_capacity(sorted.len());
        let mut cells = Vec::with_capacity(sorted.len());
        for &b in &sorted {
            match board.compact.get(b).copied() {
                Some(c) if c != NONE => cells.push(c),
                _ => pairs.push(BoxGoal {
                    box_cell: b,
                    goal: Some(b),
                    pushes: Some(0),
                }),
            }
        }
        if cells.len() > board.goals.len() || cells.len() > MAX_BOXES || cells.contains(&player) {
            return None;
        }
        cells.sort_unstable();
        let mut set = vec![0u64; board.words];
        cells.iter().for_each(|&c| bits::set(&mut set, c));
        let table = fixed.after(board, &set, 0, &cells);
        let mut matching = Matching::new(cells.len(), board.goals.len(), board.cells);
        let costs: Costs<'_> = fixed.costs(board, table).seen_from(player);
        let bound = matching.solve(costs, &cells);
        let goal_of_rows = matching.goal_of_rows();
        let mut all_matched = true;
        for (row, &cell) in matching.rows().iter().enumerate() {
            let goal = goal_of_rows.get(row).copied();
            let pushes = goal.and_then(|g| matching.pair_cost(row, g));
            let stuck = !board.is_goal[usize::from(cell)] && frozen(board, &set, cell);
            let (goal, pushes) = match (goal, pushes) {
                (Some(g), Some(p)) if !stuck => (Some(g), Some(p)),
                _ => (None, None),
            };
            all_matched &= goal.is_some();
            pairs.push(BoxGoal {
                box_cell: board.original[usize::from(cell)],
                goal: goal.map(|g| board.original[usize::from(board.goals[g])]),
                pushes,
            });
        }
        pairs.sort_unstable_by_key(|p| p.box_cell);
        Some(GoalAssignment {
            pairs,
            pushes: bound.filter(|_| all_matched),
        })
    }
}

/// The lower bound's assignment of boxes to goals for the boxes on `boxes`
/// and the player on `player` in `level` (see [`GoalAssigner::assign`]).
pub fn goal_assignment(level: &Level, boxes: &[usize], player: usize) -> Option<GoalAssignment> {
    GoalAssigner::new(level).assign(boxes, player)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Direction, Game};

    fn assignment(text: &str) -> (Level, GoalAssignment) {
        let level = Level::from_xsb(text).unwrap();
        let found = goal_assignment(&level, level.boxes(), level.player()).unwrap();
        (level, found)
    }

    fn at(level: &Level, col: usize, row: usize) -> usize {
        level.map().index(col, row)
    }

    /// Two boxes in a corridor, each with one goal ahead of it: the bound
    /// cannot cross them (that would cost more).
    #[test]
    fn each_box_gets_the_goal_in_front_of_it() {
        let (level, found) = assignment("##########\n#@ $ . $.#\n##########");
        let pairs = [(3, 5, 2), (7, 8, 1)].map(|(b, g, p)| BoxGoal {
            box_cell: at(&level, b, 1),
            goal: Some(at(&level, g, 1)),
            pushes: Some(p),
        });
        assert_eq!(found.pairs, pairs);
        assert_eq!(found.pushes, Some(3));
    }

    /// The box along the bottom wall can only go to the goal on that wall,
    /// so the other box, nearer to it, is sent up to the far goal.
    #[test]
    fn the_cheaper_total_wins() {
        let text = "########\n#   .  #\n#      #\n#    $ #\n#@ $  .#\n########";
        let (level, found) = assignment(text);
        let pairs = [(3, 4, 6, 4, 3), (5, 3, 4, 1, 3)].map(|(bc, br, gc, gr, p)| BoxGoal {
            box_cell: at(&level, bc, br),
            goal: Some(at(&level, gc, gr)),
            pushes: Some(p),
        });
        let mut want = pairs.to_vec();
        want.sort_unstable_by_key(|p| p.box_cell);
        assert_eq!(found.pairs, want);
        assert_eq!(found.pushes, Some(6));
    }

    /// A box in a corner can reach no goal: marked, and no bound.
    #[test]
    fn a_box_in_a_corner_has_no_goal() {
        let (level, found) = assignment("#######\n#$ @ .#\n#  $ .#\n#######");
        let corner = found
            .pairs
            .iter()
            .find(|p| p.box_cell == at(&level, 1, 1))
            .unwrap();
        assert_eq!((corner.goal, corner.pushes), (None, None));
        let other = found
            .pairs
            .iter()
            .find(|p| p.box_cell == at(&level, 3, 2))
            .unwrap();
        assert_eq!(other.goal, Some(at(&level, 5, 2)));
        assert_eq!(found.pushes, None);
    }

    /// Two boxes side by side against a wall, off goal: frozen, though
    /// each alone could still be pushed along the wall to a goal.
    #[test]
    fn frozen_boxes_off_goal_have_no_goal() {
        let (_, found) = assignment("#######\n#     #\n#@$ $..#\n########");
        assert!(found.pairs.iter().all(|p| p.goal.is_some()), "{found:?}");
        let (_, found) = assignment("#######\n#     #\n#@$$ ..#\n########");
        assert!(found.pairs.iter().all(|p| p.goal.is_none()), "{found:?}");
        assert_eq!(found.pushes, None);
    }

    /// Boxes already home are assigned their own goals at no cost.
    #[test]
    fn boxes_on_goals_stay_there() {
        let (level, found) = assignment("#######\n#@ *  #\n#  * $.#\n########");
        let home = |c: usize, r: usize| BoxGoal {
            box_cell: at(&level, c, r),
            goal: Some(at(&level, c, r)),
            pushes: Some(0),
        };
        assert!(found.pairs.contains(&home(3, 1)));
        assert!(found.pairs.contains(&home(3, 2)));
        assert_eq!(found.pushes, Some(1));
    }

    /// The assignment follows the game: after a push the bound drops by one,
    /// and the same assigner serves every position.
    #[test]
    fn follows_the_position() {
        let level = Level::from_xsb("#######\n#@$  .#\n#######").unwrap();
        let mut assigner = GoalAssigner::new(&level);
        let mut game = Game::new(level.clone());
        let before = assigner.assign(&game.boxes(), game.player()).unwrap();
        assert_eq!(before.pushes, Some(3));
        game.step(Direction::Right).unwrap();
        let after = assigner.assign(&game.boxes(), game.player()).unwrap();
        assert_eq!(after.pushes, Some(2));
        assert_eq!(after.pairs[0].box_cell, at(&level, 3, 1));
        // Nonsense positions are refused, not panicked on.
        assert_eq!(assigner.assign(&[1, 2, 3], 10_000), None);
        assert_eq!(assigner.assign(&[at(&level, 3, 1)], at(&level, 3, 1)), None);
    }

    /// The bound priced here is the solver's own: the pushes of a
    /// push-optimal solution are never fewer.
    #[test]
    fn the_bound_is_below_the_optimum() {
        let collection = crate::format::sok::parse_collection(crate::levels::ORIGINAL);
        for level in collection.levels.iter().take(10).flatten() {
            let Some(found) = goal_assignment(level, level.boxes(), level.player()) else {
                continue;
            };
            let Some(best) = level.meta.solutions.first() else {
                continue;
            };
            let pushes = best.chars().filter(char::is_ascii_uppercase).count() as u32;
            assert!(
                found.pushes.is_some_and(|b| b <= pushes),
                "{}",
                level.to_xsb()
            );
        }
    }
}
