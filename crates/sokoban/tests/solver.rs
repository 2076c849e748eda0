//! Solver correctness against exhaustive search on tiny levels, deadlock
//! soundness, cancellation and the memory budget.

#![allow(clippy::unwrap_used)]

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::AtomicBool;

use sokoban::solver::{self, Control, DeadlockDetector, Mode, Options, Outcome};
use sokoban::{Direction, Game, Level};

/// Fewest pushes by breadth-first search over (boxes, player region),
/// the exhaustive reference; `None` when unsolvable.
fn exhaustive_pushes(level: &Level) -> Option<u32> {
    let start = Game::new(level.clone());
    if start.is_solved() {
        return Some(0);
    }
    let key = |g: &Game| (g.boxes(), region_min(g));
    let mut seen = HashSet::from([key(&start)]);
    let mut layer = vec![start];
    let mut pushes = 0;
    while !layer.is_empty() {
        pushes += 1;
        let mut next = Vec::new();
        for game in &layer {
            for child in push_children(game) {
                if child.is_solved() {
                    return Some(pushes);
                }
                if seen.insert(key(&child)) {
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    None
}

/// Fewest moves by breadth-first search over (boxes, player).
fn exhaustive_moves(level: &Level) -> Option<u32> {
    let start = Game::new(level.clone());
    if start.is_solved() {
        return Some(0);
    }
    let mut seen = HashMap::from([((start.boxes(), start.player()), 0u32)]);
    let mut queue = VecDeque::from([start]);
    while let Some(game) = queue.pop_front() {
        let d = seen[&(game.boxes(), game.player())];
        for dir in Direction::ALL {
            let mut child = game.clone();
            if child.step(dir).is_err() {
                continue;
            }
            if child.is_solved() {
                return Some(d + 1);
            }
            let k = (child.boxes(), child.player());
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(k) {
                e.insert(d + 1);
                queue.push_back(child);
            }
        }
    }
    None
}

fn region_min(game: &Game) -> usize {
    reachable(game).into_iter().min().unwrap()
}

fn reachable(game: &Game) -> Vec<usize> {
    let map = game.level().map();
    let mut seen = vec![game.player()];
    let mut stack = vec![game.player()];
    while let Some(c) = stack.pop() {
        for dir in Direction::ALL {
            if let Some(n) = map.neighbor(c, dir)
                && game.is_free(n)
                && !seen.contains(&n)
            {
                seen.push(n);
                stack.push(n);
            }
        }
    }
    seen
}

/// Every position one push away, the player having walked there.
fn push_children(game: &Game) -> Vec<Game> {
    let map = game.level().map();
    let mut children = Vec::new();
    for cell in reachable(game) {
        for dir in Direction::ALL {
            if let Some(b) = map.neighbor(cell, dir)
                && game.has_box(b)
            {
                let mut child = game.clone();
                let walk = sokoban::path::walk_to(&child, cell).unwrap();
                for d in walk {
                    child.step(d).unwrap();
                }
                if child.step(dir).is_ok() {
                    children.push(child);
                }
            }
        }
    }
    children
}

fn solve(level: &Level, mode: Mode) -> Outcome {
    let options = Options {
        mode,
        ..Options::default()
    };
    solver::solve(level, &options, &mut Control::new())
}

fn check_solution(level: &Level, outcome: &Outcome) -> Option<solver::Solution> {
    match outcome {
        Outcome::Solved(s) => {
            let verdict = sokoban::verify(level, &s.lurd).unwrap();
            assert!(verdict.solved, "{}\n{}", level.to_xsb(), s.lurd);
            assert_eq!((verdict.moves, verdict.pushes), (s.moves, s.pushes));
            Some(s.clone())
        }
        Outcome::Unsolvable => None,
        other => panic!("unexpected {other:?} on\n{}", level.to_xsb()),
    }
}

const HAND_MADE: [&str; 6] = [
    "#######\n#@ $ .#\n#######",
    "######\n#    #\n# $$ #\n#.@ .#\n######",
    "  #####\n###   #\n#.@$  #\n### $.#\n#.##$ #\n# # . ##\n#$ *$$.#\n#   .  #\n########",
    "#######\n#.    #\n#  $  #\n# $@$ #\n#.   .#\n#######",
    "######\n#.  .#\n# ## #\n# $$ #\n#  @ #\n######",
    // Unsolvable: the box is against a wall with no goal on it.
    "######\n#$   #\n#  @.#\n######",
];

#[test]
fn hand_made_levels_match_exhaustive_search() {
    for text in HAND_MADE {
        let level = Level::from_xsb(text).unwrap();
        let best = exhaustive_pushes(&level);
        let fast = check_solution(&level, &solve(&level, Mode::Fast));
        assert_eq!(fast.is_some(), best.is_some(), "{text}");
        let pushes = check_solution(&level, &solve(&level, Mode::Pushes));
        assert_eq!(pushes.as_ref().map(|s| s.pushes), best, "{text}");
        assert!(pushes.is_none_or(|s| s.optimal));
    }
}

#[test]
fn move_optimal_on_small_levels() {
    for text in &HAND_MADE[..2] {
        let level = Level::from_xsb(text).unwrap();
        let best = exhaustive_moves(&level);
        let found = check_solution(&level, &solve(&level, Mode::Moves));
        assert_eq!(found.map(|s| s.moves), best, "{text}");
    }
}

/// A deterministic stream for building random levels without a dependency.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

/// A random closed room of up to 6×5 inner cells with some walls inside,
/// `boxes` boxes and as many goals.
fn random_level(seed: u64, boxes: usize) -> Option<Level> {
    let mut rng = Lcg(seed);
    let (w, h) = (4 + rng.below(3), 3 + rng.below(3));
    let mut grid = vec![vec!['#'; w + 2]; h + 2];
    for row in grid.iter_mut().take(h + 1).skip(1) {
        for c in row.iter_mut().take(w + 1).skip(1) {
            *c = if rng.below(9) == 0 { '#' } else { ' ' };
        }
    }
    let mut free: Vec<(usize, usize)> = (1..=h)
        .flat_map(|r| (1..=w).map(move |c| (r, c)))
        .filter(|&(r, c)| grid[r][c] == ' ')
        .collect();
    if free.len() < 2 * boxes + 1 {
        return None;
    }
    let mut take = || free.swap_remove(rng.below(free.len()));
    let player = take();
    let cells: Vec<_> = (0..2 * boxes).map(|_| take()).collect();
    // Boxes off the outer wall, so that more levels are solvable.
    if cells[..boxes]
        .iter()
        .any(|&(r, c)| r == 1 || c == 1 || r == h || c == w)
    {
        return None;
    }
    for (i, &(r, c)) in cells.iter().enumerate() {
        grid[r][c] = if i < boxes { '$' } else { '.' };
    }
    grid[player.0][player.1] = '@';
    let text: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    Level::from_xsb(&text.join("\n")).ok()
}

#[test]
fn push_optimal_equals_exhaustive_on_random_levels() {
    let (mut solvable, mut tried) = (0, 0);
    for seed in 0..5000 {
        let Some(level) = random_level(seed, 2 + (seed % 2) as usize) else {
            continue;
        };
        tried += 1;
        if tried > 80 {
            break;
        }
        let best = exhaustive_pushes(&level);
        solvable += usize::from(best.is_some());
        let pushes = check_solution(&level, &solve(&level, Mode::Pushes));
        assert_eq!(
            pushes.map(|s| s.pushes),
            best,
            "seed {seed}\n{}",
            level.to_xsb()
        );
        let fast = check_solution(&level, &solve(&level, Mode::Fast));
        assert_eq!(
            fast.is_some(),
            best.is_some(),
            "seed {seed}\n{}",
            level.to_xsb()
        );
    }
    assert!(solvable > 15, "too few solvable random levels: {solvable}");
}

#[test]
fn move_optimal_equals_exhaustive_on_random_levels() {
    let mut tried = 0;
    for seed in 0..5000 {
        let Some(level) = random_level(100_000 + seed, 2) else {
            continue;
        };
        tried += 1;
        if tried > 30 {
            break;
        }
        let best = exhaustive_moves(&level);
        let found = check_solution(&level, &solve(&level, Mode::Moves));
        assert_eq!(
            found.map(|s| s.moves),
            best,
            "seed {seed}\n{}",
            level.to_xsb()
        );
    }
}

#[test]
fn deadlock_detector_never_flags_a_solvable_position() {
    let (mut flagged, mut tried) = (0, 0);
    for seed in 0..5000 {
        let Some(level) = random_level(200_000 + seed, 2) else {
            continue;
        };
        tried += 1;
        if tried > 150 {
            break;
        }
        let detector = DeadlockDetector::new(&level);
        let mut game = Game::new(level.clone());
        let mut rng = Lcg(seed);
        for _ in 0..60 {
            let _ = game.step(Direction::ALL[rng.below(4)]);
            if let Some(deadlock) = detector.find(&game) {
                flagged += 1;
                let position = Level::from_xsb(&game_xsb(&game)).unwrap();
                assert_eq!(
                    exhaustive_pushes(&position),
                    None,
                    "{deadlock:?} flagged a solvable position\n{}",
                    position.to_xsb()
                );
                break;
            }
        }
    }
    assert!(
        flagged > 20,
        "the random play found too few deadlocks: {flagged}"
    );
}

/// The game's current position as XSB text.
fn game_xsb(game: &Game) -> String {
    let level = game.level();
    let map = level.map();
    let mut out = String::new();
    for row in 0..map.height() {
        for col in 0..map.width() {
            let i = map.index(col, row);
            let goal = map.is_goal(i);
            let c = match map.cell(i) {
                sokoban::Cell::Wall => '#',
                sokoban::Cell::Outside => ' ',
                _ if game.has_box(i) => {
                    if goal {
                        '*'
                    } else {
                        '$'
                    }
                }
                _ if game.player() == i => {
                    if goal {
                        '+'
                    } else {
                        '@'
                    }
                }
                _ if goal => '.',
                _ => ' ',
            };
            out.push(c);
        }
        out.push('\n');
    }
    out
}

#[test]
fn hint_from_a_position_in_play() {
    let level = Level::from_xsb(HAND_MADE[1]).unwrap();
    let mut game = Game::new(level);
    game.step(Direction::Left).unwrap();
    let outcome = solver::solve_from(&game, &Options::default(), &mut Control::new());
    let Outcome::Solved(solution) = outcome else {
        panic!("{outcome:?}")
    };
    let hint = solution.first_push();
    assert!(hint.last().is_some_and(|&(_, push)| push));
    let mut played = game.clone();
    played.play_lurd(&solution.lurd).unwrap();
    assert!(played.is_solved());
}

#[test]
fn cancelled_before_start() {
    let level = Level::from_xsb(HAND_MADE[2]).unwrap();
    let cancel = AtomicBool::new(true);
    let outcome = solver::solve(
        &level,
        &Options::default(),
        &mut Control::new().cancel_flag(&cancel),
    );
    assert_eq!(outcome, Outcome::Cancelled);
}

#[test]
fn stop_check_and_node_limit() {
    let level = Level::from_xsb(HAND_MADE[2]).unwrap();
    let mut calls = 0;
    let outcome = solver::solve(
        &level,
        &Options {
            mode: Mode::Pushes,
            ..Options::default()
        },
        &mut Control::new()
            .on_progress(1, |_| calls += 1)
            .should_stop(|| true),
    );
    assert_eq!(outcome, Outcome::Cancelled);
    assert_eq!(calls, 1);
    let outcome = solver::solve(
        &level,
        &Options {
            mode: Mode::Pushes,
            node_limit: Some(3),
            ..Options::default()
        },
        &mut Control::new(),
    );
    assert_eq!(outcome, Outcome::LimitReached);
}

/// Fast mode on two threads: levels decided in the early phase (on one
/// thread) get the same solution as on one thread, every time; a blocked
/// level is proven unsolvable, and the cancel flag and the node limit stop
/// both threads.
#[test]
fn two_threads_solve_prove_and_stop() {
    let two = Options {
        threads: 2,
        ..Options::default()
    };
    for text in HAND_MADE {
        let level = Level::from_xsb(text).unwrap();
        let one = solve(&level, Mode::Fast);
        for _ in 0..3 {
            let outcome = solver::solve(&level, &two, &mut Control::new());
            assert_eq!(outcome, one, "{text}");
        }
    }
    // The first box blocks the second: no push at all.
    let blocked = Level::from_xsb("#######\n#@$$..#\n#######").unwrap();
    let outcome = solver::solve(&blocked, &two, &mut Control::new());
    assert_eq!(outcome, Outcome::Unsolvable);
    let level = Level::from_xsb(HAND_MADE[2]).unwrap();
    let cancel = AtomicBool::new(true);
    let outcome = solver::solve(&level, &two, &mut Control::new().cancel_flag(&cancel));
    assert_eq!(outcome, Outcome::Cancelled);
    let limited = Options {
        node_limit: Some(3),
        ..two
    };
    let outcome = solver::solve(&level, &limited, &mut Control::new());
    assert_eq!(outcome, Outcome::LimitReached);
}

/// The stats name the search of fast mode's portfolio that solved the
/// level (greedy, on an easy one); the other modes run one search.
#[test]
fn stats_say_which_search_found_the_solution() {
    let level = Level::from_xsb(HAND_MADE[2]).unwrap();
    let (outcome, stats) =
        solver::solve_with_stats(&level, &Options::default(), &mut Control::new());
    assert!(check_solution(&level, &outcome).is_some());
    assert_eq!(stats.found_by, Some("greedy"));
    let pushes = Options {
        mode: Mode::Pushes,
        ..Options::default()
    };
    let (outcome, stats) = solver::solve_with_stats(&level, &pushes, &mut Control::new());
    assert!(check_solution(&level, &outcome).is_some());
    assert_eq!(stats.found_by, None);
}

#[test]
fn tiny_memory_budget_runs_out_cleanly() {
    let level = Level::from_xsb(HAND_MADE[2]).unwrap();
    let outcome = solver::solve(
        &level,
        &Options {
            mode: Mode::Pushes,
            memory_mb: 0,
            ..Options::default()
        },
        &mut Control::new(),
    );
    assert_eq!(outcome, Outcome::OutOfMemory);
}

#[test]
fn already_solved_and_unreachable_boxes() {
    let level = Level::from_xsb("#####\n#@* #\n#####").unwrap();
    assert!(matches!(solve(&level, Mode::Fast), Outcome::Solved(s) if s.lurd.is_empty()));
    // A box on goal walled off from the player is part of the scenery.
    let level = Level::from_xsb("#######\n#*#@$.#\n#######").unwrap();
    let s = check_solution(&level, &solve(&level, Mode::Pushes)).unwrap();
    assert_eq!(s.pushes, 1);
}

/// A box in a one-wide tunnel goes through it in one step of the search:
/// far fewer expansions than pushes, in every mode that may reorder pushes.
#[test]
fn a_box_goes_through_a_tunnel_in_one_step() {
    let level = Level::from_xsb("##############\n#@$         .#\n##############").unwrap();
    for mode in [Mode::Fast, Mode::Pushes] {
        let options = Options {
            mode,
            ..Options::default()
        };
        let (outcome, stats) = solver::solve_with_stats(&level, &options, &mut Control::new());
        let s = check_solution(&level, &outcome).unwrap();
        assert_eq!(s.pushes, 10);
        // Pushes mode's fewest-moves pass keeps the player's exact cell and
        // takes no macros, nor does its backward half (which pulls one box
        // one cell at a time, so that it meets the forward half at every
        // position): 10 expansions each on top.
        let others = if mode == Mode::Pushes { 10 + 10 } else { 0 };
        assert!(stats.expanded <= others + 2, "{mode:?}: {stats:?}");
    }
}

#[test]
fn hints() {
    use solver::Hint;
    let level = Level::from_xsb("#######\n#@ $ .#\n#######").unwrap();
    let mut game = Game::new(level);
    let hint = solver::hint(&game, &Options::default(), &mut Control::new());
    assert_eq!(hint, Hint::Push(vec![Direction::Right, Direction::Right]));
    game.step(Direction::Right).unwrap();
    game.step(Direction::Right).unwrap();
    game.step(Direction::Right).unwrap();
    assert_eq!(
        solver::hint(&game, &Options::default(), &mut Control::new()),
        Hint::AlreadySolved
    );
    let level = Level::from_xsb(HAND_MADE[1]).unwrap();
    let mut game = Game::new(level);
    // Pushing the left box up against the wall leaves it stuck off goal.
    game.step(Direction::Up).unwrap();
    assert_eq!(
        solver::hint(&game, &Options::default(), &mut Control::new()),
        Hint::Unsolvable
    );
}

#[test]
fn detector_highlights_the_frozen_group() {
    let level =
        Level::from_xsb("########\n#      #\n#  $$  #\n#  $$ @#\n#....  #\n########").unwrap();
    let detector = DeadlockDetector::new(&level);
    let found = detector.find(&Game::new(level.clone())).unwrap();
    assert_eq!(found.kind, solver::DeadlockKind::Frozen);
    assert_eq!(found.boxes, level.boxes());
    assert_eq!(solve(&level, Mode::Fast), Outcome::Unsolvable);
}
