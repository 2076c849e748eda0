//! Deadlocks the solver prunes on. Dead squares live in [`Board::dead`] and
//! bipartite infeasibility falls out of the matching in `lower_bound`; this
//! module has the freeze test, run on the box just pushed.

use super::bits;
use super::board::{Board, NONE};

/// Whether the box on `cell` is frozen (cannot move on either axis, now or
/// ever) together with the boxes that block it, with one of them off goal.
pub(crate) fn frozen(board: &Board, boxes: &[u64], cell: u16) -> bool {
    freeze(board, boxes, cell, None)
}

/// [`frozen`], also collecting in `group` the boxes that hold the box on
/// `cell` in place (meaningful when it returns true).
pub(crate) fn frozen_group(board: &Board, boxes: &[u64], cell: u16, group: &mut Vec<u16>) -> bool {
    group.clear();
    group.push(cell);
    freeze(board, boxes, cell, Some(group))
}

/// Whether the box on `cell` can never move again in a solution, on goal
/// or not, collecting in `group` the boxes that hold it in place (which
/// can never move either). Cleared first.
pub(crate) fn immovable_group(
    board: &Board,
    boxes: &[u64],
    cell: u16,
    group: &mut Vec<u16>,
) -> bool {
    group.clear();
    group.push(cell);
    held(board, boxes, cell, Some(group)).is_some()
}

fn freeze(board: &Board, boxes: &[u64], cell: u16, group: Option<&mut Vec<u16>>) -> bool {
    held(board, boxes, cell, group) == Some(true)
}

/// Whether the box on `cell` is blocked along both axes: `None` if not,
/// else whether it or a box holding it is off goal.
fn held(board: &Board, boxes: &[u64], cell: u16, mut group: Option<&mut Vec<u16>>) -> Option<bool> {
    let mut visiting = Visiting::default();
    let group = &mut group;
    let mut off_goal = !board.is_goal[usize::from(cell)];
    let frozen = blocked(board, boxes, cell, 0, &mut visiting, &mut off_goal, group)
        && blocked(board, boxes, cell, 1, &mut visiting, &mut off_goal, group);
    frozen.then_some(off_goal)
}

/// The boxes on the recursion path, treated as walls: the first few kept
/// inline, as the test runs for every push and a path is seldom long.
#[derive(Default)]
struct Visiting {
    inline: [u16; INLINE],
    len: usize,
    spilled: Vec<u16>,
}

const INLINE: usize = 16;

impl Visiting {
    fn contains(&self, c: u16) -> bool {
        self.inline[..self.len.min(INLINE)].contains(&c) || self.spilled.contains(&c)
    }

    fn push(&mut self, c: u16) {
        if self.len < INLINE {
            self.inline[self.len] = c;
        } else {
            self.spilled.push(c);
        }
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len -= 1;
        if self.len >= INLINE {
            self.spilled.pop();
        }
    }
}

/// Whether the box on `cell` cannot move along an axis (0: left–right,
/// 1: up–down): a wall on either side, dead squares on both sides, or a
/// neighbouring box that is itself blocked on the other axis. Boxes being
/// visited count as walls, which keeps the recursion finite and sound.
fn blocked(
    board: &Board,
    boxes: &[u64],
    cell: u16,
    axis: usize,
    visiting: &mut Visiting,
    off_goal: &mut bool,
    group: &mut Option<&mut Vec<u16>>,
) -> bool {
    let a = board.neighbor(cell, axis);
    let b = board.neighbor(cell, axis + 2);
    let wall = |c: u16| c == NONE || visiting.contains(c);
    if wall(a) || wall(b) {
        return true;
    }
    if board.dead[usize::from(a)] && board.dead[usize::from(b)] {
        return true;
    }
    visiting.push(cell);
    let mut result = false;
    for side in [a, b] {
        if bits::has(boxes, side)
            && blocked(board, boxes, side, 1 - axis, visiting, off_goal, group)
        {
            if !board.is_goal[usize::from(side)] {
                *off_goal = true;
            }
            if let Some(group) = group {
                group.push(side);
            }
            result = true;
            break;
        }
    }
    visiting.pop();
    result
}

/// What makes a position unsolvable, as the detector found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeadlockKind {
    /// A box off goal on a square from which no goal can be reached.
    DeadSquare,
    /// Boxes that can never move again, one of them off goal.
    Frozen,
    /// The boxes cannot all reach distinct goals.
    Bipartite,
}

/// A deadlock and the boxes (original cell indices) to highlight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deadlock {
    pub kind: DeadlockKind,
    pub boxes: Vec<usize>,
}

/// The solver's deadlock tests, for warnings during play: dead squares,
/// freeze deadlocks and bipartite infeasibility. Never flags a position
/// that can still be solved.
pub struct DeadlockDetector {
    board: Option<Board>,
}

impl DeadlockDetector {
    pub fn new(level: &crate::Level) -> DeadlockDetector {
        DeadlockDetector {
            board: Board::new(level.map(), level.player(), level.boxes()).ok(),
        }
    }

    /// The first deadlock found in the game's current position.
    pub fn find(&self, game: &crate::Game) -> Option<Deadlock> {
        let board = self.board.as_ref()?;
        let mut set = vec![0u64; board.words];
        let mut cells = Vec::new();
        for b in game.boxes() {
            match board.compact.get(b).copied() {
                Some(c) if c != NONE => {
                    bits::set(&mut set, c);
                    cells.push(c);
                }
                // A box the player can never reach: fixed, on goal at start.
                _ => {}
            }
        }
        let original = |c: u16| board.original[usize::from(c)];
        if let Some(&c) = cells
            .iter()
            .find(|&&c| board.dead[usize::from(c)] && !board.is_goal[usize::from(c)])
        {
            return Some(Deadlock {
                kind: DeadlockKind::DeadSquare,
                boxes: vec![original(c)],
            });
        }
        let mut group = Vec::new();
        if cells
            .iter()
            .any(|&c| frozen_group(board, &set, c, &mut group))
        {
            group.sort_unstable();
            group.dedup();
            return Some(Deadlock {
                kind: DeadlockKind::Frozen,
                boxes: group.iter().map(|&c| original(c)).collect(),
            });
        }
        if cells.len() <= super::lower_bound::MAX_BOXES {
            let mut matching =
                super::lower_bound::Matching::new(cells.len(), board.goals.len(), board.cells);
            if cells.len() <= board.goals.len()
                && matching
                    .solve(super::lower_bound::Costs::of(board), &cells)
                    .is_none()
            {
                return Some(Deadlock {
                    kind: DeadlockKind::Bipartite,
                    boxes: cells.iter().map(|&c| original(c)).collect(),
                });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Direction, Game, Level};

    /// A `size` × `size` box of walls around empty floor; `first_row` starts
    /// the first row inside.
    fn room(size: usize, first_row: &str) -> Level {
        let inside = size - 2;
        let mut rows = vec!["#".repeat(size)];
        rows.push(format!("#{first_row:<inside$}#"));
        rows.extend((2..size - 1).map(|_| format!("#{}#", " ".repeat(inside))));
        rows.push("#".repeat(size));
        Level::from_xsb(&rows.join("\n")).unwrap()
    }

    #[test]
    fn a_256_square_room_opens_at_once_and_still_warns() {
        let level = room(256, "  $@.");
        let started = std::time::Instant::now();
        let detector = DeadlockDetector::new(&level);
        // A flood around each of its 64,516 cells would take far longer.
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
        let mut game = Game::new(level);
        assert!(detector.find(&game).is_none());
        // The box pushed into the top-left corner can never move again.
        game.step(Direction::Left).unwrap();
        assert!(detector.find(&game).is_none());
        game.step(Direction::Left).unwrap();
        let deadlock = detector.find(&game).unwrap();
        assert_eq!(deadlock.kind, DeadlockKind::DeadSquare);
        assert_eq!(deadlock.boxes, vec![256 + 1]);
    }

    #[test]
    fn too_many_goals_for_their_cells_build_no_tables() {
        // 66 goals in 64,516 cells: past MAX_GOAL_CELLS, refused before the
        // 66 breadth-first passes.
        let level = room(256, &format!("@{}", "*".repeat(66)));
        let cells = 254 * 254;
        assert!(
            66 * cells > crate::solver::MAX_GOAL_CELLS
                && 65 * cells <= crate::solver::MAX_GOAL_CELLS
        );
        assert!(DeadlockDetector::new(&level).board.is_none());
        let level = room(256, &format!("@{}", "*".repeat(65)));
        assert!(DeadlockDetector::new(&level).board.is_some());
    }
}
