//! The perimeter of the solved positions (pushes mode): a breadth-first
//! pull search from every solved position (every player region) to the
//! deepest layer that fits a node budget. Pulls are pushes backwards, so a
//! position it holds is exactly its depth away from solved, and one it
//! does not hold (fully searched to depth `depth`) is at least `depth + 1`
//! away: a lower bound the matching misses where boxes on goals must make
//! way near the end.

use std::collections::HashMap;

use super::bits;
use super::board::{Board, NONE};

pub(crate) struct Perimeter {
    /// Boxes → (lowest cell of the player's region, pulls from solved).
    known: HashMap<Vec<u64>, Vec<(u16, u32)>>,
    /// Every position within this many pulls is in `known`; `None`: every
    /// position that can be solved at all is.
    depth: Option<u32>,
}

impl Perimeter {
    /// Searches at most `budget` positions; `None` when there are more
    /// goals than boxes (the solved positions are then many box sets).
    pub fn new(board: &Board, budget: usize) -> Option<Perimeter> {
        if board.goals.len() != board.start_boxes.len() || board.goals.is_empty() {
            return None;
        }
        let mut flood = Flood::new(board.cells);
        let mut solved = vec![0u64; board.words];
        for &g in &board.goals {
            bits::set(&mut solved, g);
        }
        let mut known: HashMap<Vec<u64>, Vec<(u16, u32)>> = HashMap::new();
        let mut held = 0;
        let mut layer = Vec::new();
        let mut covered = vec![false; board.cells];
        for c in 0..board.cells as u16 {
            if covered[usize::from(c)] || bits::has(&solved, c) {
                continue;
            }
            let region = flood.run(board, &solved, c);
            for &r in &flood.reached {
                covered[usize::from(r)] = true;
            }
            known.entry(solved.clone()).or_default().push((region, 0));
            held += 1;
            layer.push((solved.clone(), region));
        }
        let mut depth = 0;
        let mut cells = Vec::new();
        let mut in_reach = vec![false; board.cells];
        let mut reach = Vec::new();
        let mut pulled = vec![0u64; board.words];
        while !layer.is_empty() {
            let mut next = Vec::new();
            for (boxes, region) in &layer {
                flood.run(board, boxes, *region);
                reach.clear();
                reach.extend_from_slice(&flood.reached);
                for &c in &reach {
                    in_reach[usize::from(c)] = true;
                }
                bits::cells(boxes, &mut cells);
                for &b in &cells {
                    for dir in 0..4 {
                        // The player on `p`, next to the box, steps on to `q`.
                        let p = board.neighbor(b, dir);
                        if p == NONE || !in_reach[usize::from(p)] {
                            continue;
                        }
                        let q = board.neighbor(p, dir);
                        if q == NONE || bits::has(boxes, q) {
                            continue;
                        }
                        pulled.copy_from_slice(boxes);
                        bits::clear(&mut pulled, b);
                        bits::set(&mut pulled, p);
                        let region = flood.run(board, &pulled, q);
                        // Looked up by reference first: most pulls lead to
                        // positions already held, and need no copy.
                        let held_already = known
                            .get(pulled.as_slice())
                            .is_some_and(|regions| regions.iter().any(|&(r, _)| r == region));
                        if !held_already {
                            known
                                .entry(pulled.clone())
                                .or_default()
                                .push((region, depth + 1));
                            held += 1;
                            next.push((pulled.clone(), region));
                        }
                    }
                }
                for &c in &reach {
                    in_reach[usize::from(c)] = false;
                }
                if held > budget {
                    // This layer is incomplete: only `depth` is certain.
                    return Some(Perimeter {
                        known,
                        depth: Some(depth),
                    });
                }
            }
            depth += 1;
            layer = next;
        }
        // Every position that can be solved at all is known: the rest never can.
        Some(Perimeter { known, depth: None })
    }

    /// A lower bound on the pushes still needed from `boxes` with the
    /// player's region `region` (its lowest cell); `None`: never solved.
    pub fn bound(&self, boxes: &[u64], region: u16) -> Option<u32> {
        let known = self
            .known
            .get(boxes)
            .and_then(|regions| regions.iter().find(|&&(r, _)| r == region));
        match known {
            Some(&(_, pulls)) => Some(pulls),
            None => self.depth.map(|depth| depth + 1),
        }
    }
}

struct Flood {
    seen: Vec<u32>,
    stamp: u32,
    reached: Vec<u16>,
    stack: Vec<u16>,
}

impl Flood {
    fn new(cells: usize) -> Flood {
        Flood {
            seen: vec![0; cells],
            stamp: 0,
            reached: Vec::new(),
            stack: Vec::new(),
        }
    }

    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
    }

    /// Floods from `from` around `boxes`; returns the lowest reached cell.
    fn run(&mut self, board: &Board, boxes: &[u64], from: u16) -> u16 {
        self.next_stamp();
        let stamp = self.stamp;
        self.stack.clear();
        self.reached.clear();
        self.stack.push(from);
        self.reached.push(from);
        self.seen[usize::from(from)] = stamp;
        let mut lowest = from;
        while let Some(c) = self.stack.pop() {
            for &n in &board.neighbors[usize::from(c)] {
                if n != NONE && self.seen[usize::from(n)] != stamp && !bits::has(boxes, n) {
                    self.seen[usize::from(n)] = stamp;
                    lowest = lowest.min(n);
                    self.stack.push(n);
                    self.reached.push(n);
                }
            }
        }
        lowest
    }
}
