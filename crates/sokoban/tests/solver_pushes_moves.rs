//! `Mode::Pushes` returns, among the push-optimal solutions, one with the
//! fewest moves: checked against an exhaustive search ordered by
//! (pushes, moves) on random rooms, the hand-made levels and the small
//! levels of the Ludus Original library. Every solution is replayed.

#![allow(clippy::unwrap_used)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use proptest::prelude::*;
use sokoban::solver::{self, Control, Mode, Options, Outcome};
use sokoban::{Direction, Level, levels, parse_collection};

/// What the exhaustive search found.
#[derive(Debug, PartialEq, Eq)]
enum Exhaustive {
    /// The fewest pushes, then the fewest moves among those.
    Best(u32, u32),
    Unsolvable,
    /// More than the allowed number of positions.
    TooBig,
}

/// Dijkstra over (boxes, exact player) with single steps costing
/// (pushes, moves) = (0, 1) for a walk and (1, 1) for a push, compared
/// lexicographically: the first solved position popped is optimal.
fn exhaustive(level: &Level, limit: usize) -> Exhaustive {
    let map = level.map();
    let mut boxes: Vec<usize> = level.boxes().to_vec();
    boxes.sort_unstable();
    let solved = |b: &[usize]| b.iter().all(|&c| map.is_goal(c));
    let start = (boxes, level.player());
    let mut best: HashMap<(Vec<usize>, usize), (u32, u32)> = HashMap::new();
    best.insert(start.clone(), (0, 0));
    let mut open = BinaryHeap::from([Reverse(((0u32, 0u32), start))]);
    while let Some(Reverse((cost, (boxes, player)))) = open.pop() {
        if best.get(&(boxes.clone(), player)) != Some(&cost) {
            continue;
        }
        if solved(&boxes) {
            return Exhaustive::Best(cost.0, cost.1);
        }
        if best.len() > limit {
            return Exhaustive::TooBig;
        }
        for dir in Direction::ALL {
            let Some(to) = map.neighbor(player, dir) else {
                continue;
            };
            if !map.is_walkable(to) {
                continue;
            }
            let mut next = boxes.clone();
            let mut step = (cost.0, cost.1 + 1);
            if let Ok(i) = boxes.binary_search(&to) {
                let Some(beyond) = map.neighbor(to, dir) else {
                    continue;
                };
                if !map.is_walkable(beyond) || boxes.binary_search(&beyond).is_ok() {
                    continue;
                }
                next[i] = beyond;
                next.sort_unstable();
                step.0 += 1;
            }
            let key = (next, to);
            if best.get(&key).is_none_or(|&old| step < old) {
                best.insert(key.clone(), step);
                open.push(Reverse((step, key)));
            }
        }
    }
    Exhaustive::Unsolvable
}

/// Solves in `Mode::Pushes`, replays the solution and compares it with the
/// exhaustive search; false when the level was too big to compare.
fn check(level: &Level, limit: usize) -> bool {
    let expected = exhaustive(level, limit);
    if expected == Exhaustive::TooBig {
        return false;
    }
    let options = Options {
        mode: Mode::Pushes,
        ..Options::default()
    };
    let outcome = solver::solve(level, &options, &mut Control::new());
    let found = match &outcome {
        Outcome::Solved(s) => {
            let verdict = sokoban::verify(level, &s.lurd).unwrap();
            assert!(verdict.solved, "{}\n{}", level.to_xsb(), s.lurd);
            assert_eq!((verdict.pushes, verdict.moves), (s.pushes, s.moves));
            assert!(s.optimal && s.secondary_optimal, "{}", level.to_xsb());
            Exhaustive::Best(s.pushes, s.moves)
        }
        Outcome::Unsolvable => Exhaustive::Unsolvable,
        other => panic!("{other:?} on\n{}", level.to_xsb()),
    };
    assert_eq!(found, expected, "\n{}", level.to_xsb());
    true
}

#[test]
fn hand_made_levels() {
    let levels = [
        "#######\n#@ $ .#\n#######",
        "######\n#    #\n# $$ #\n#.@ .#\n######",
        "#######\n#.    #\n#  $  #\n# $@$ #\n#.   .#\n#######",
        "######\n#.  .#\n# ## #\n# $$ #\n#  @ #\n######",
        // Two push-optimal routes, one much shorter in moves.
        "#########\n#   @   #\n# #$#.# #\n#       #\n#########",
        "######\n#$   #\n#  @.#\n######",
    ];
    for text in levels {
        assert!(check(&Level::from_xsb(text).unwrap(), 200_000), "{text}");
    }
}

#[test]
fn small_levels_of_the_original_library() {
    let collection = parse_collection(levels::ORIGINAL);
    let mut compared = 0;
    for level in collection.levels.iter().flatten() {
        if level.boxes().len() <= 4 && check(level, 150_000) {
            compared += 1;
        }
    }
    assert!(compared >= 8, "only {compared} levels compared");
}

/// A closed room of `w`×`h` inner cells: `walls` inside, then the player,
/// the boxes and as many goals on distinct free cells (indices into the
/// free cells left, taken modulo their number).
fn room(
    w: usize,
    h: usize,
    walls: &[usize],
    player: usize,
    boxes: &[(usize, usize)],
) -> Option<Level> {
    let mut grid = vec![vec!['#'; w + 2]; h + 2];
    for row in grid.iter_mut().take(h + 1).skip(1) {
        for c in row.iter_mut().take(w + 1).skip(1) {
            *c = ' ';
        }
    }
    let mut free: Vec<(usize, usize)> =
        (1..=h).flat_map(|r| (1..=w).map(move |c| (r, c))).collect();
    for &i in walls {
        let (r, c) = free.swap_remove(i % free.len());
        grid[r][c] = '#';
    }
    let mut take = |i: usize| -> Option<(usize, usize)> {
        if free.is_empty() {
            None
        } else {
            Some(free.swap_remove(i % free.len()))
        }
    };
    let (pr, pc) = take(player)?;
    grid[pr][pc] = '@';
    for &(b, g) in boxes {
        let (br, bc) = take(b)?;
        let (gr, gc) = take(g)?;
        grid[br][bc] = '$';
        grid[gr][gc] = '.';
    }
    let text: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    Level::from_xsb(&text.join("\n")).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_rooms(
        w in 3usize..7,
        h in 3usize..6,
        walls in proptest::collection::vec(any::<usize>(), 0..4),
        player in any::<usize>(),
        boxes in proptest::collection::vec((any::<usize>(), any::<usize>()), 1..4),
    ) {
        if let Some(level) = room(w, h, &walls, player, &boxes) {
            check(&level, 200_000);
        }
    }
}
