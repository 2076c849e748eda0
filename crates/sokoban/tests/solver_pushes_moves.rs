//! `Mode::Pushes` returns, among the push-optimal solutions, one with the
//! fewest moves: checked against an exhaustive search ordered by
//! (pushes, moves) on random rooms, the hand-made levels and the small
//! levels of the Ludus Original library. On mirror-symmetric rooms (where
//! the solver skips mirror images of positions) `Mode::Moves` is checked
//! too, against the search ordered by (moves, pushes). On rooms joined by
//! one-wide tunnels (where the solver pushes a box on through a tunnel in
//! one step) `Mode::Fast` is checked to solve exactly the solvable ones.
//! Every solution is replayed.

#![allow(clippy::unwrap_used)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use proptest::prelude::*;
use sokoban::solver::{self, Control, Mode, Options, Outcome};
use sokoban::{Direction, Level, levels, parse_collection};

/// What the exhaustive search found.
#[derive(Debug, PartialEq, Eq)]
enum Exhaustive {
    /// The best (pushes, moves): the fewest pushes, then the fewest moves
    /// among those, or the other way round.
    Best(u32, u32),
    Unsolvable,
    /// More than the allowed number of positions.
    TooBig,
}

/// Dijkstra over (boxes, exact player) with single steps costing
/// (pushes, moves) = (0, 1) for a walk and (1, 1) for a push, compared
/// lexicographically (moves first in `Mode::Moves`): the first solved
/// position popped is optimal.
fn exhaustive(level: &Level, mode: Mode, limit: usize) -> Exhaustive {
    let (walk, push) = match mode {
        Mode::Moves => ((1, 0), (1, 1)),
        _ => ((0, 1), (1, 1)),
    };
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
            return match mode {
                Mode::Moves => Exhaustive::Best(cost.1, cost.0),
                _ => Exhaustive::Best(cost.0, cost.1),
            };
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
            let mut step = (cost.0 + walk.0, cost.1 + walk.1);
            if let Ok(i) = boxes.binary_search(&to) {
                let Some(beyond) = map.neighbor(to, dir) else {
                    continue;
                };
                if !map.is_walkable(beyond) || boxes.binary_search(&beyond).is_ok() {
                    continue;
                }
                next[i] = beyond;
                next.sort_unstable();
                step = (cost.0 + push.0, cost.1 + push.1);
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
    check_mode(level, Mode::Pushes, limit)
}

fn check_mode(level: &Level, mode: Mode, limit: usize) -> bool {
    compare(level, mode, limit).is_some()
}

/// [`check_mode`], returning what the exhaustive search found.
fn compare(level: &Level, mode: Mode, limit: usize) -> Option<Exhaustive> {
    let expected = exhaustive(level, mode, limit);
    if expected == Exhaustive::TooBig {
        return None;
    }
    let options = Options {
        mode,
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
    Some(expected)
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
        // The box must go into the tunnel one cell only, to let the player
        // out of the pocket, and come back: the tunnel macro must not take
        // it on through (only a box whose player is walled in goes on).
        "##########\n##       #\n## ####  #\n#+$     ##\n##########",
        // A dead-end tunnel of goals: each box goes in as far as it can.
        "#########\n#  $ $  #\n#@ ...###\n#  $  ###\n#########",
        "#######\n#.#   #\n#.# $ #\n#.#$  #\n#  @$ #\n#     #\n#######",
        // A run of goals open at both ends: the first box stays on the
        // first goal, the second comes in from the other end.
        "##########\n#        #\n# ###### #\n#@ $..$  #\n##########",
        // Long straight tunnels both ways, a goal inside one.
        "###########\n#@ $    . #\n## ###### #\n#  $  .   #\n###########",
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
        walls in proptest::collection::vec(any::<usize>(), 0..7),
        player in any::<usize>(),
        boxes in proptest::collection::vec((any::<usize>(), any::<usize>()), 1..4),
    ) {
        if let Some(level) = room(w, h, &walls, player, &boxes) {
            check(&level, 200_000);
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mirrored_rooms(
        w in 4usize..8,
        h in 3usize..6,
        both in any::<bool>(),
        walls in proptest::collection::vec(any::<usize>(), 0..7),
        goals in proptest::collection::vec(any::<usize>(), 1..3),
        player in any::<usize>(),
        boxes in proptest::collection::vec(any::<usize>(), 4),
    ) {
        if let Some(level) = mirrored_room(w, h, both, &walls, &goals, player, &boxes) {
            check_mode(&level, Mode::Pushes, 200_000);
            check_mode(&level, Mode::Moves, 200_000);
        }
    }
}

/// A closed room of `w`×`h` inner cells mirrored left to right (and top to
/// bottom when `both`): `walls` and `goals` pick cells of its first half
/// (or quarter) and are copied to their mirror images; the player and one
/// box per goal go anywhere free, so positions are rarely symmetric
/// themselves. `None` when it has more than three goals or no room.
fn mirrored_room(
    w: usize,
    h: usize,
    both: bool,
    walls: &[usize],
    goals: &[usize],
    player: usize,
    boxes: &[usize],
) -> Option<Level> {
    let mut grid = vec![vec!['#'; w + 2]; h + 2];
    let images = |(r, c): (usize, usize)| {
        let r2 = if both { h + 1 - r } else { r };
        [(r, c), (r, w + 1 - c), (r2, c), (r2, w + 1 - c)]
    };
    let rows = if both { h.div_ceil(2) } else { h };
    let mut part: Vec<(usize, usize)> = (1..=rows)
        .flat_map(|r| (1..=w.div_ceil(2)).map(move |c| (r, c)))
        .collect();
    for row in grid.iter_mut().take(h + 1).skip(1) {
        for c in row.iter_mut().take(w + 1).skip(1) {
            *c = ' ';
        }
    }
    for (i, &pick) in walls.iter().chain(goals).enumerate() {
        if part.is_empty() {
            return None;
        }
        let cell = part.swap_remove(pick % part.len());
        for (r, c) in images(cell) {
            grid[r][c] = if i < walls.len() { '#' } else { '.' };
        }
    }
    let goal_count = grid.iter().flatten().filter(|&&c| c == '.').count();
    let mut free: Vec<(usize, usize)> = (1..=h)
        .flat_map(|r| (1..=w).map(move |c| (r, c)))
        .filter(|&(r, c)| grid[r][c] != '#')
        .collect();
    if goal_count > 3 || free.len() <= goal_count {
        return None;
    }
    let (pr, pc) = free.swap_remove(player % free.len());
    for i in 0..goal_count {
        let (r, c) = free.swap_remove(boxes[i % boxes.len()].wrapping_add(i) % free.len());
        grid[r][c] = if grid[r][c] == '.' { '*' } else { '$' };
    }
    grid[pr][pc] = if grid[pr][pc] == '.' { '+' } else { '@' };
    let text: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    Level::from_xsb(&text.join("\n")).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn tunnel_rooms(
        left in 1usize..4,
        length in 2usize..6,
        right in 0usize..4,
        h in 2usize..5,
        tunnels in proptest::collection::vec(any::<usize>(), 1..3),
        walls in proptest::collection::vec(any::<usize>(), 0..7),
        turn in any::<bool>(),
        player in any::<usize>(),
        boxes in proptest::collection::vec((any::<usize>(), any::<usize>()), 1..4),
    ) {
        let Some(level) = tunnel_room(left, length, right, h, &tunnels, &walls, turn, player, &boxes)
        else {
            return Ok(());
        };
        let Some(expected) = compare(&level, Mode::Pushes, 200_000) else {
            return Ok(());
        };
        match solver::solve(&level, &Options::default(), &mut Control::new()) {
            Outcome::Solved(s) => {
                prop_assert!(expected != Exhaustive::Unsolvable, "{}", level.to_xsb());
                prop_assert!(sokoban::verify(&level, &s.lurd).unwrap().solved);
            }
            Outcome::Unsolvable => {
                prop_assert_eq!(expected, Exhaustive::Unsolvable, "{}", level.to_xsb())
            }
            other => panic!("{other:?} on\n{}", level.to_xsb()),
        }
    }
}

/// Two rooms, `left` and `right` columns wide and `h` rows high, joined by
/// one-wide straight tunnels of `length` cells in the rows `tunnels` picks
/// (dead ends when `right` is 0)
/// (two tunnels make a loop the player can walk round to push a box back),
/// with `walls` on cells of the rooms; turned a quarter when `turn`, so
/// tunnels run both ways. Then the player, and the boxes and their goals,
/// on distinct free cells (tunnels too).
#[allow(clippy::too_many_arguments)]
fn tunnel_room(
    left: usize,
    length: usize,
    right: usize,
    h: usize,
    tunnels: &[usize],
    walls: &[usize],
    turn: bool,
    player: usize,
    boxes: &[(usize, usize)],
) -> Option<Level> {
    let w = left + length + right;
    let mut grid = vec![vec!['#'; w + 2]; h + 2];
    for (r, row) in grid.iter_mut().enumerate().take(h + 1).skip(1) {
        for (c, cell) in row.iter_mut().enumerate().take(w + 1).skip(1) {
            let in_tunnel = c > left && c <= left + length;
            if !in_tunnel || tunnels.iter().any(|t| t % h + 1 == r) {
                *cell = ' ';
            }
        }
    }
    let mut rooms: Vec<(usize, usize)> = (1..=h)
        .flat_map(|r| (1..=w).map(move |c| (r, c)))
        .filter(|&(_, c)| c <= left || c > left + length)
        .collect();
    for &i in walls {
        if rooms.len() > 1 {
            let (r, c) = rooms.swap_remove(i % rooms.len());
            grid[r][c] = '#';
        }
    }
    if turn {
        grid = (0..w + 2)
            .map(|c| (0..h + 2).map(|r| grid[r][c]).collect())
            .collect();
    }
    let mut free: Vec<(usize, usize)> = (0..grid.len())
        .flat_map(|r| (0..grid[r].len()).map(move |c| (r, c)))
        .filter(|&(r, c)| grid[r][c] == ' ')
        .collect();
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

/// `fewest_moves: false` proves the same fewest pushes with the same first
/// pass and skips the second: nothing is expanded beyond the proof.
#[test]
fn pushes_only_skips_the_fewest_moves_pass() {
    let collection = parse_collection(levels::ORIGINAL);
    let mut second_passes = 0;
    for (i, level) in collection.valid_levels().take(12) {
        let full = Options {
            mode: Mode::Pushes,
            ..Options::default()
        };
        let only = Options {
            fewest_moves: false,
            ..full.clone()
        };
        let (a, with) = solver::solve_with_stats(level, &full, &mut Control::new());
        let (b, without) = solver::solve_with_stats(level, &only, &mut Control::new());
        let (Outcome::Solved(a), Outcome::Solved(b)) = (a, b) else {
            panic!("level {}: not solved", i + 1);
        };
        assert!(a.optimal && b.optimal, "level {}", i + 1);
        assert_eq!(a.pushes, b.pushes, "level {}", i + 1);
        assert!(a.secondary_optimal, "level {}", i + 1);
        assert!(b.moves >= a.moves, "level {}", i + 1);
        assert!(sokoban::verify(level, &b.lurd).unwrap().solved);
        assert_eq!(without.moves_pass, 0, "level {}", i + 1);
        assert_eq!(without.expanded, with.proof_expanded(), "level {}", i + 1);
        second_passes += usize::from(with.moves_pass > 0);
    }
    assert!(second_passes > 0, "no level ran the fewest-moves pass");
}
