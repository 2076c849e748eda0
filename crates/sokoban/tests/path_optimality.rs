//! Path finding against brute force: on small random rooms, `walk_to` is as
//! short as breadth-first search over cells, and `push_to` uses the fewest
//! pushes and then the fewest moves that an exhaustive search over
//! (player, box) states finds.

#![allow(clippy::unwrap_used)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use proptest::prelude::*;
use sokoban::{Direction, Game, Level, path};

/// A 7x7 room: walls around, inner cells from `inner` (true = wall), the
/// player, one box to move, one other box, and goals under both boxes so the
/// level parses (goals don't matter to path finding).
fn room(inner: &[bool], player: usize, mover: usize, other: usize) -> Option<Level> {
    let mut rows = Vec::new();
    for r in 0..7 {
        let mut row = String::new();
        for c in 0..7 {
            let edge = r == 0 || c == 0 || r == 6 || c == 6;
            let i = (r.max(1) - 1) * 5 + (c.max(1) - 1);
            let ch = if edge || inner[i] && ![player, mover, other].contains(&i) {
                '#'
            } else if i == player {
                '@'
            } else if i == mover || i == other {
                '*'
            } else {
                ' '
            };
            row.push(ch);
        }
        rows.push(row);
    }
    Level::from_xsb(&rows.join("\n")).ok()
}

fn cell(level: &Level, i: usize) -> usize {
    level.map().index(i % 5 + 1, i / 5 + 1)
}

/// Exhaustive Dijkstra over (player, box) with cost (pushes, moves).
fn brute_push(game: &Game, from: usize, to: usize) -> Option<(u32, u32)> {
    let map = game.level().map();
    let free = |c: usize| map.is_walkable(c) && (!game.has_box(c) || c == from);
    let mut best: HashMap<(usize, usize), (u32, u32)> = HashMap::new();
    let mut heap = BinaryHeap::from([Reverse((0u32, 0u32, game.player(), from))]);
    best.insert((game.player(), from), (0, 0));
    while let Some(Reverse((pushes, moves, player, boxed))) = heap.pop() {
        if boxed == to {
            return Some((pushes, moves));
        }
        if best.get(&(player, boxed)) != Some(&(pushes, moves)) {
            continue;
        }
        for dir in Direction::ALL {
            let Some(next) = map.neighbor(player, dir) else {
                continue;
            };
            if !free(next) {
                continue;
            }
            let state = if next == boxed {
                match map.neighbor(boxed, dir) {
                    Some(beyond) if free(beyond) && beyond != boxed => {
                        ((next, beyond), (pushes + 1, moves + 1))
                    }
                    _ => continue,
                }
            } else {
                ((next, boxed), (pushes, moves + 1))
            };
            if best.get(&state.0).is_none_or(|&c| state.1 < c) {
                best.insert(state.0, state.1);
                heap.push(Reverse((state.1.0, state.1.1, state.0.0, state.0.1)));
            }
        }
    }
    None
}

proptest! {
    #[test]
    fn push_to_is_optimal(
        inner in prop::collection::vec(prop::bool::weighted(0.25), 25),
        player in 0usize..25, mover in 0usize..25, other in 0usize..25, target in 0usize..25,
    ) {
        prop_assume!(player != mover && player != other && mover != other);
        let Some(level) = room(&inner, player, mover, other) else { return Ok(()) };
        let game = Game::new(level.clone());
        let (from, to) = (cell(&level, mover), cell(&level, target));
        prop_assume!(game.level().map().is_walkable(to));
        let expected = brute_push(&game, from, to);
        let found = path::push_to(&game, from, to);
        match (expected, found) {
            (None, None) => {}
            (Some((pushes, moves)), Some(steps)) => {
                let mut replay = game.clone();
                for d in &steps {
                    replay.step(*d).unwrap();
                }
                prop_assert!(replay.has_box(to));
                prop_assert_eq!((replay.pushes(), replay.moves()), (pushes, moves));
            }
            (e, f) => prop_assert!(false, "brute force {:?}, push_to {:?}", e, f),
        }
    }

    #[test]
    fn walk_to_is_shortest(
        inner in prop::collection::vec(prop::bool::weighted(0.3), 25),
        player in 0usize..25, mover in 0usize..25, other in 0usize..25, target in 0usize..25,
    ) {
        prop_assume!(player != mover && player != other && mover != other);
        let Some(level) = room(&inner, player, mover, other) else { return Ok(()) };
        let game = Game::new(level.clone());
        let to = cell(&level, target);
        let found = path::walk_to(&game, to);
        // Breadth-first distances, boxes as walls.
        let map = level.map();
        let mut dist = vec![u32::MAX; map.len()];
        let mut queue = std::collections::VecDeque::from([game.player()]);
        dist[game.player()] = 0;
        while let Some(c) = queue.pop_front() {
            for d in Direction::ALL {
                if let Some(n) = map.neighbor(c, d) && game.is_free(n) && dist[n] == u32::MAX {
                    dist[n] = dist[c] + 1;
                    queue.push_back(n);
                }
            }
        }
        match found {
            Some(steps) => {
                prop_assert_eq!(steps.len() as u32, dist[to]);
                let mut replay = game.clone();
                for d in &steps {
                    prop_assert!(!replay.step(*d).unwrap().push);
                }
                prop_assert_eq!(replay.player(), to);
            }
            None => prop_assert_eq!(dist[to], u32::MAX),
        }
    }
}
