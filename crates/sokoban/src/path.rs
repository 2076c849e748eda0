//! Path finding for a player who does not want to type every step: walk to a
//! cell by the shortest path, or push one box to a cell with the fewest
//! pushes (then the fewest moves).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::Direction;
use crate::game::Game;

/// Breadth-first distances from `from` over free cells, with `blocked` as an
/// extra obstacle; each reached cell remembers the direction that entered it.
fn walk_tree(game: &Game, from: usize, blocked: Option<usize>) -> Vec<Option<Direction>> {
    let map = game.level().map();
    let mut came: Vec<Option<Direction>> = vec![None; map.len()];
    let mut seen = vec![false; map.len()];
    let mut queue = VecDeque::from([from]);
    seen[from] = true;
    while let Some(cell) = queue.pop_front() {
        for dir in Direction::ALL {
            if let Some(next) = map.neighbor(cell, dir)
                && !seen[next]
                && game.is_free(next)
                && Some(next) != blocked
            {
                seen[next] = true;
                came[next] = Some(dir);
                queue.push_back(next);
            }
        }
    }
    came
}

fn trace(
    game: &Game,
    came: &[Option<Direction>],
    from: usize,
    to: usize,
) -> Option<Vec<Direction>> {
    let map = game.level().map();
    let mut path = Vec::new();
    let mut cell = to;
    while cell != from {
        let dir = came.get(cell).copied().flatten()?;
        path.push(dir);
        cell = map.neighbor(cell, dir.opposite())?;
    }
    path.reverse();
    Some(path)
}

/// The shortest walk (no pushes) from the player to `target`, or `None` if
/// it cannot be reached. An empty path means the player is there already.
pub fn walk_to(game: &Game, target: usize) -> Option<Vec<Direction>> {
    let from = game.player();
    if target == from {
        return Some(Vec::new());
    }
    if !game.is_free(target) {
        return None;
    }
    let came = walk_tree(game, from, None);
    trace(game, &came, from, target)
}

/// The steps that push the box on `box_cell` to `target` with the fewest
/// pushes, then the fewest moves, leaving every other box where it is.
/// `None` if no such path exists.
pub fn push_to(game: &Game, box_cell: usize, target: usize) -> Option<Vec<Direction>> {
    let map = game.level().map();
    if !game.has_box(box_cell) || !map.is_walkable(target) {
        return None;
    }
    if box_cell == target {
        return Some(Vec::new());
    }
    let free = |cell: usize| map.is_walkable(cell) && (!game.has_box(cell) || cell == box_cell);
    // State: box cell and the direction of the next push (player stands behind).
    let state = |b: usize, d: Direction| b * 4 + d.index();
    let mut best: Vec<Option<(u32, u32)>> = vec![None; map.len() * 4];
    let mut parent: Vec<Option<usize>> = vec![None; map.len() * 4];
    let mut heap = BinaryHeap::new();

    let sides = |b: usize, player: usize| -> Vec<(Direction, u32)> {
        // Distances from the player to the cell behind the box on each side.
        let mut dist = vec![u32::MAX; map.len()];
        let mut queue = VecDeque::from([player]);
        dist[player] = 0;
        while let Some(cell) = queue.pop_front() {
            for dir in Direction::ALL {
                if let Some(next) = map.neighbor(cell, dir)
                    && dist[next] == u32::MAX
                    && free(next)
                    && next != b
                {
                    dist[next] = dist[cell] + 1;
                    queue.push_back(next);
                }
            }
        }
        Direction::ALL
            .into_iter()
            .filter_map(|d| {
                let behind = map.neighbor(b, d.opposite())?;
                let ahead = map.neighbor(b, d)?;
                (dist[behind] != u32::MAX && free(ahead)).then_some((d, dist[behind]))
            })
            .collect()
    };

    for (d, walk) in sides(box_cell, game.player()) {
        let s = state(box_cell, d);
        best[s] = Some((0, walk));
        heap.push(Reverse((0u32, walk, s)));
    }
    let mut goal_state = None;
    while let Some(Reverse((pushes, moves, s))) = heap.pop() {
        if best[s] != Some((pushes, moves)) {
            continue;
        }
        let (b, d) = (s / 4, Direction::ALL[s % 4]);
        let Some(next_box) = map.neighbor(b, d) else {
            continue;
        };
        if next_box == target {
            goal_state = Some(s);
            break;
        }
        for (nd, walk) in sides(next_box, b) {
            let ns = state(next_box, nd);
            let cost = (pushes + 1, moves + 1 + walk);
            if best[ns].is_none_or(|c| cost < c) {
                best[ns] = Some(cost);
                parent[ns] = Some(s);
                heap.push(Reverse((cost.0, cost.1, ns)));
            }
        }
    }
    // Rebuild: the chain of push states, then the walks between them.
    let mut chain = vec![goal_state?];
    while let Some(p) = parent[*chain.last()?] {
        chain.push(p);
    }
    chain.reverse();
    let mut path = Vec::new();
    let mut sim = game.clone();
    for s in chain {
        let (b, d) = (s / 4, Direction::ALL[s % 4]);
        let behind = map.neighbor(b, d.opposite())?;
        path.extend(walk_to(&sim, behind)?);
        for dir in walk_to(&sim, behind)? {
            sim.step(dir).ok()?;
        }
        sim.step(d).ok()?;
        path.push(d);
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;

    fn game(xsb: &str) -> Game {
        Game::new(Level::from_xsb(xsb).unwrap())
    }

    #[test]
    fn walks_the_shortest_way() {
        let g = game("#######\n#@    #\n# ### #\n#   $.#\n#######");
        let target = g.level().map().index(1, 3);
        assert_eq!(walk_to(&g, target).unwrap().len(), 2);
        let wall = g.level().map().index(2, 2);
        assert_eq!(walk_to(&g, wall), None);
        let boxed = g.level().map().index(4, 3);
        assert_eq!(walk_to(&g, boxed), None);
    }

    #[test]
    fn pushes_fewest_then_moves() {
        let mut g = game("#######\n#@    #\n#  $  #\n#    .#\n#######");
        let map = g.level().map().clone();
        let path = push_to(&g, map.index(3, 2), map.index(5, 3)).unwrap();
        for d in &path {
            g.step(*d).unwrap();
        }
        assert_eq!(g.pushes(), 3);
        assert!(g.is_solved());
        // Walk 2 to stand above the box, push down, walk 2 round it, push right twice.
        assert_eq!(g.moves(), 7);
    }

    #[test]
    fn impossible_pushes() {
        let g = game("######\n#@$ .#\n######");
        let map = g.level().map();
        assert!(push_to(&g, map.index(2, 1), map.index(1, 1)).is_none());
        assert_eq!(
            push_to(&g, map.index(2, 1), map.index(4, 1)).unwrap().len(),
            2
        );
    }
}
