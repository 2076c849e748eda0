//! Flood fills over the map: the cells a player can reach.

use crate::Direction;
use crate::map::Map;

/// Cells reachable from `start` through cells for which `open` holds.
pub fn flood(map: &Map, start: usize, open: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; map.len()];
    if start >= map.len() {
        return seen;
    }
    seen[start] = true;
    let mut stack = vec![start];
    while let Some(cell) = stack.pop() {
        for dir in Direction::ALL {
            if let Some(next) = map.neighbor(cell, dir)
                && !seen[next]
                && open(next)
            {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    seen
}
