//! Simple deadlock detection for warnings: dead squares (a box there can
//! never reach any goal) and frozen boxes (stuck on both axes, off goal).

use crate::Direction;
use crate::game::Game;
use crate::level::Level;
use crate::map::Map;

/// Cells from which a lone box can never be pushed to any goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadSquares {
    dead: Vec<bool>,
}

impl DeadSquares {
    /// Found by pulling a box backwards from every goal: whatever it cannot
    /// be pulled to is dead.
    pub fn new(level: &Level) -> DeadSquares {
        let map = level.map();
        let mut alive = vec![false; map.len()];
        let mut stack: Vec<usize> = map.goals().collect();
        stack.iter().for_each(|&g| alive[g] = true);
        while let Some(cell) = stack.pop() {
            for dir in Direction::ALL {
                // Pull the box from `cell` to `to`; the puller stands at `player`.
                let Some(to) = map.neighbor(cell, dir) else {
                    continue;
                };
                let Some(player) = map.neighbor(to, dir) else {
                    continue;
                };
                if !alive[to] && map.is_walkable(to) && map.is_walkable(player) {
                    alive[to] = true;
                    stack.push(to);
                }
            }
        }
        let dead = (0..map.len())
            .map(|c| map.is_walkable(c) && !alive[c])
            .collect();
        DeadSquares { dead }
    }

    pub fn is_dead(&self, cell: usize) -> bool {
        self.dead.get(cell).copied().unwrap_or(false)
    }
}

/// Why a position can no longer be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deadlock {
    /// A box stands on a dead square.
    DeadSquare(usize),
    /// These boxes are frozen and at least one is off goal.
    Frozen(Vec<usize>),
}

impl Deadlock {
    /// The boxes involved, to highlight them.
    pub fn cells(&self) -> Vec<usize> {
        match self {
            Deadlock::DeadSquare(c) => vec![*c],
            Deadlock::Frozen(cells) => cells.clone(),
        }
    }
}

/// Finds a simple deadlock in the current position, if there is one.
pub fn find(game: &Game, dead: &DeadSquares) -> Option<Deadlock> {
    let map = game.level().map();
    let boxes = game.boxes();
    if let Some(&b) = boxes.iter().find(|&&b| dead.is_dead(b) && !map.is_goal(b)) {
        return Some(Deadlock::DeadSquare(b));
    }
    boxes.iter().find_map(|&b| frozen_deadlock(game, dead, b))
}

/// Whether the box on `cell` is frozen together with its neighbours, with
/// any of them off goal.
pub fn frozen_deadlock(game: &Game, dead: &DeadSquares, cell: usize) -> Option<Deadlock> {
    let mut group = Vec::new();
    let mut visiting = Vec::new();
    let frozen = blocked(
        game,
        dead,
        cell,
        Axis::Horizontal,
        &mut visiting,
        &mut group,
    ) && blocked(game, dead, cell, Axis::Vertical, &mut visiting, &mut group);
    if !frozen {
        return None;
    }
    group.push(cell);
    group.sort_unstable();
    group.dedup();
    let map = game.level().map();
    group
        .iter()
        .any(|&c| !map.is_goal(c))
        .then_some(Deadlock::Frozen(group))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Axis {
    Horizontal,
    Vertical,
}

impl Axis {
    fn directions(self) -> (Direction, Direction) {
        match self {
            Axis::Horizontal => (Direction::Left, Direction::Right),
            Axis::Vertical => (Direction::Up, Direction::Down),
        }
    }

    fn other(self) -> Axis {
        match self {
            Axis::Horizontal => Axis::Vertical,
            Axis::Vertical => Axis::Horizontal,
        }
    }
}

/// Whether the box on `cell` cannot move along `axis`: a wall on either
/// side, dead squares on both sides, or a box on either side that is itself
/// blocked on the other axis. Boxes being visited count as walls (the usual
/// trick that makes the recursion finite and correct).
fn blocked(
    game: &Game,
    dead: &DeadSquares,
    cell: usize,
    axis: Axis,
    visiting: &mut Vec<usize>,
    group: &mut Vec<usize>,
) -> bool {
    let map: &Map = game.level().map();
    let (a, b) = axis.directions();
    let side = |d: Direction| map.neighbor(cell, d);
    let wall = |c: Option<usize>| c.is_none_or(|c| !map.is_walkable(c) || visiting.contains(&c));
    let (sa, sb) = (side(a), side(b));
    if wall(sa) || wall(sb) {
        return true;
    }
    if sa.is_some_and(|c| dead.is_dead(c)) && sb.is_some_and(|c| dead.is_dead(c)) {
        return true;
    }
    visiting.push(cell);
    let mut result = false;
    for neighbour in [sa, sb].into_iter().flatten() {
        if game.has_box(neighbour) && blocked(game, dead, neighbour, axis.other(), visiting, group)
        {
            group.push(neighbour);
            result = true;
            break;
        }
    }
    visiting.pop();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(xsb: &str) -> (Game, DeadSquares) {
        let level = Level::from_xsb(xsb).unwrap();
        let dead = DeadSquares::new(&level);
        (Game::new(level), dead)
    }

    #[test]
    fn corners_are_dead() {
        let (g, dead) = setup("######\n#@   #\n# $ .#\n#    #\n######");
        let map = g.level().map();
        assert!(dead.is_dead(map.index(1, 1)));
        assert!(dead.is_dead(map.index(4, 1)));
        assert!(!dead.is_dead(map.index(2, 2)));
        assert!(!dead.is_dead(map.index(4, 2)), "goal");
        assert!(find(&g, &dead).is_none());
    }

    #[test]
    fn box_in_corner_is_a_deadlock() {
        let (g, dead) = setup("#####\n#$  #\n#  @#\n#  .#\n#####");
        assert_eq!(
            find(&g, &dead),
            Some(Deadlock::DeadSquare(g.level().map().index(1, 1)))
        );
    }

    #[test]
    fn two_by_two_block_is_frozen() {
        let (g, dead) = setup("########\n#      #\n#  $$  #\n#  $$ @#\n#....  #\n########");
        assert!(matches!(find(&g, &dead), Some(Deadlock::Frozen(cells)) if cells.len() == 4));
    }

    #[test]
    fn boxes_against_a_wall_pair() {
        let (g, dead) = setup("#######\n#  $$ #\n#   @ #\n# ..  #\n#######");
        assert!(matches!(
            find(&g, &dead),
            Some(Deadlock::DeadSquare(_)) | Some(Deadlock::Frozen(_))
        ));
        let (g, dead) = setup("#######\n#. $$.#\n#   @ #\n#     #\n#######");
        assert!(
            find(&g, &dead).is_some(),
            "two boxes side by side along the top wall"
        );
        let (g, dead) = setup("#######\n# **  #\n#   @ #\n#     #\n#######");
        assert!(find(&g, &dead).is_none(), "frozen on goals is fine");
    }
}
