//! Admissibility checks on small levels: every position reachable from the
//! start is enumerated, its true fewest remaining pushes found by a
//! breadth-first search backwards from the solved positions, and the lower
//! bound (the matching over the fixed-goal table it would use, each box
//! priced from the player's side of it) compared with it at every position;
//! so is the backward search's bound on the pulls back to the start. A
//! bound above the truth, or a deadlock claimed for a solvable position,
//! breaks pushes mode's proofs. New bound terms belong in [`check`].

#![allow(clippy::unwrap_used)]

use std::collections::{HashMap, VecDeque};

use super::backward;
use super::bits;
use super::board::{Board, NONE};
use super::deadlock;
use super::fixed::Fixed;
use super::lower_bound::Matching;

/// A position: boxes and the lowest cell of the player's region.
type State = (Vec<u64>, u16);

fn flood(board: &Board, boxes: &[u64], from: u16) -> (u16, Vec<bool>) {
    let mut seen = vec![false; board.cells];
    let mut stack = vec![from];
    seen[usize::from(from)] = true;
    let mut lowest = from;
    while let Some(c) = stack.pop() {
        for &n in &board.neighbors[usize::from(c)] {
            if n != NONE && !seen[usize::from(n)] && !bits::has(boxes, n) {
                seen[usize::from(n)] = true;
                lowest = lowest.min(n);
                stack.push(n);
            }
        }
    }
    (lowest, seen)
}

/// The positions one push away.
fn children(board: &Board, (boxes, player): &State) -> Vec<State> {
    let (_, reach) = flood(board, boxes, *player);
    let mut cells = Vec::new();
    bits::cells(boxes, &mut cells);
    let mut out = Vec::new();
    for &from in &cells {
        for dir in 0..4 {
            let to = board.neighbor(from, dir);
            let behind = board.neighbor(from, (dir + 2) % 4);
            if to == NONE || behind == NONE || !reach[usize::from(behind)] || bits::has(boxes, to) {
                continue;
            }
            let mut next = boxes.clone();
            bits::clear(&mut next, from);
            bits::set(&mut next, to);
            let (region, _) = flood(board, &next, from);
            out.push((next, region));
        }
    }
    out
}

fn solved(board: &Board, boxes: &[u64]) -> bool {
    let mut cells = Vec::new();
    bits::cells(boxes, &mut cells);
    cells.iter().all(|&c| board.is_goal[usize::from(c)])
}

/// A reachable position's true fewest pushes: from the start to it (which
/// are the fewest pulls from it back to the start), and from it to the end
/// (`None`: unsolvable).
struct Truth {
    from_start: u32,
    to_end: Option<u32>,
}

/// Every reachable position with its true distances.
fn exact_distances(board: &Board) -> Vec<(State, Truth)> {
    let mut start = vec![0u64; board.words];
    for &b in &board.start_boxes {
        bits::set(&mut start, b);
    }
    let (region, _) = flood(board, &start, board.start_player);
    let mut index: HashMap<State, usize> = HashMap::new();
    let mut states: Vec<State> = Vec::new();
    let mut parents: Vec<Vec<usize>> = Vec::new();
    let mut from_start = vec![0];
    index.insert((start.clone(), region), 0);
    states.push((start, region));
    parents.push(Vec::new());
    let mut head = 0;
    while head < states.len() {
        let state = states[head].clone();
        for child in children(board, &state) {
            let id = *index.entry(child.clone()).or_insert_with(|| {
                states.push(child);
                parents.push(Vec::new());
                // Breadth first: the first time is the fewest pushes.
                from_start.push(from_start[head] + 1);
                states.len() - 1
            });
            parents[id].push(head);
        }
        head += 1;
    }
    let mut distance: Vec<Option<u32>> = vec![None; states.len()];
    let mut queue = VecDeque::new();
    for (id, (boxes, _)) in states.iter().enumerate() {
        if solved(board, boxes) {
            distance[id] = Some(0);
            queue.push_back(id);
        }
    }
    while let Some(id) = queue.pop_front() {
        let d = distance[id].unwrap() + 1;
        for &p in &parents[id] {
            if distance[p].is_none() {
                distance[p] = Some(d);
                queue.push_back(p);
            }
        }
    }
    states
        .into_iter()
        .zip(from_start.into_iter().zip(distance))
        .map(|(state, (from_start, to_end))| (state, Truth { from_start, to_end }))
        .collect()
}

/// Checks the bound at every reachable position of `text`; returns how
/// many positions were solvable.
fn check(text: &str) -> usize {
    let level = crate::Level::from_xsb(text).unwrap();
    let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
    let mut fixed = Fixed::new(&board, 64 << 20);
    let mut matching = Matching::new(board.start_boxes.len(), board.goals.len(), board.cells);
    // The backward search's bound on the pulls back to the start.
    let pulls = backward::pull_distances(&board);
    let boxes_count = board.start_boxes.len();
    let mut pull_matching = Matching::new(boxes_count, boxes_count, board.cells);
    let mut solvable = 0;
    for ((boxes, player), truth) in exact_distances(&board) {
        let mut cells = Vec::new();
        bits::cells(&boxes, &mut cells);
        if board.goals.len() == boxes_count {
            let costs = backward::pull_costs(&board, &pulls).seen_from(player);
            let bound = pull_matching.solve(costs, &cells);
            assert!(
                bound.is_some_and(|b| b <= truth.from_start && b % 2 == truth.from_start % 2),
                "pull bound {bound:?} above or of another parity than the true {} pulls at boxes {cells:?}\n{text}",
                truth.from_start
            );
        }
        let Some(truth) = truth.to_end else {
            continue;
        };
        solvable += 1;
        let table = fixed.after(&board, &boxes, 0, &cells);
        let bound = matching.solve(fixed.costs(&board, table).seen_from(player), &cells);
        assert!(
            bound.is_some_and(|b| b <= truth),
            "bound {bound:?} above the true {truth} pushes at boxes {cells:?}\n{text}"
        );
        // Pushes mode's rounds go up by two on this (see `meet`): with as
        // many goals as boxes, the bound has the parity of the truth.
        if board.goals.len() == board.start_boxes.len() {
            assert_eq!(
                bound.map(|b| b % 2),
                Some(truth % 2),
                "bound {bound:?} of another parity than the true {truth} pushes at boxes {cells:?}\n{text}"
            );
        }
        for &c in &cells {
            assert!(
                !board.dead[usize::from(c)] && !deadlock::frozen(&board, &boxes, c),
                "a solvable position taken for a deadlock at box {c}\n{text}"
            );
        }
    }
    solvable
}

const LEVELS: [&str; 6] = [
    "######\n#    #\n# $$ #\n#.@ .#\n######",
    "#######\n#.    #\n#  $  #\n# $@$ #\n#.   .#\n#######",
    "  #####\n###   #\n#.@$  #\n### $.#\n#.##$ #\n# # . ##\n#$ *$$.#\n#   .  #\n########",
    // Boxes on goals that must move out of the way and come back.
    "#######\n#  *  #\n# $@$ #\n#. * .#\n#######",
    // A goal column filled from its foot: boxes fixed on goals shut it.
    "#####\n#.###\n#.###\n#.  #\n# $ #\n#$$@#\n#   #\n#####",
    // Boxes in doors: priced from the player's side of each.
    "#########\n#.$ #  .#\n#   $@$ #\n# . #   #\n#########",
];

#[test]
fn the_bound_never_exceeds_the_true_remaining_pushes() {
    for text in LEVELS {
        assert!(check(text) > 0, "no solvable position\n{text}");
    }
}

/// The same on random small rooms (a deterministic stream of them).
#[test]
fn the_bound_is_admissible_on_random_rooms() {
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % n
    };
    let mut checked = 0;
    while checked < 40 {
        let (w, h) = (3 + next(3), 3 + next(2));
        let mut grid = vec![vec!['#'; w + 2]; h + 2];
        for row in grid.iter_mut().take(h + 1).skip(1) {
            for c in row.iter_mut().take(w + 1).skip(1) {
                *c = if next(7) == 0 { '#' } else { ' ' };
            }
        }
        let mut free: Vec<(usize, usize)> = (1..=h)
            .flat_map(|r| (1..=w).map(move |c| (r, c)))
            .filter(|&(r, c)| grid[r][c] == ' ')
            .collect();
        let boxes = 2 + next(2);
        if free.len() < 2 * boxes + 2 {
            continue;
        }
        let mut take = || free.swap_remove(next(free.len()));
        let player = take();
        let goals: Vec<_> = (0..boxes).map(|_| take()).collect();
        // Some boxes start on goals, so that some must make way.
        for (i, &(r, c)) in goals.iter().enumerate() {
            grid[r][c] = if i == 0 { '*' } else { '.' };
        }
        for _ in 1..boxes {
            let (r, c) = take();
            grid[r][c] = '$';
        }
        grid[player.0][player.1] = '@';
        let text: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
        let text = text.join("\n");
        let Ok(level) = crate::Level::from_xsb(&text) else {
            continue;
        };
        if Board::new(level.map(), level.player(), level.boxes()).is_err() {
            continue;
        }
        check(&text);
        checked += 1;
    }
}
