//! The solver: finds solutions, push-optimal or move-optimal ones, and
//! proves levels unsolvable.
//!
//! One best-first engine over push positions (`search`) serves every mode:
//! Fast mode runs a portfolio of greedy, weighted and plain A* searches
//! (one greedy search steered by the goal packing order, `packing`);
//! Pushes mode proves the fewest pushes with A*, then runs a second pass
//! for the fewest moves among those. The lower bound is a min-cost matching
//! of boxes to goals (`lower_bound`) over push distances in which boxes
//! fixed on goals count as walls (`fixed`); pruning uses dead squares,
//! freeze and bipartite deadlocks (`deadlock`), PI-corrals (`corral`) and
//! small searches on box clusters and corrals (`learn`).
//!
//! Pure: no clock, no threads of its own, no printing. The caller limits
//! time with a cancel flag or a `should_stop` check in [`Control`], and
//! memory with [`Options::memory_mb`].
//!
//! Every solution is replayed against the level with [`crate::verify`]
//! before it is returned.
//!
//! ```
//! use sokoban::{Level, solver};
//! let level = Level::from_xsb("#######\n#@ $ .#\n#######")?;
//! let outcome = solver::solve(&level, &solver::Options::default(), &mut solver::Control::new());
//! let solver::Outcome::Solved(solution) = outcome else { panic!("{outcome:?}") };
//! assert_eq!(solution.lurd, "rRR");
//! # Ok::<(), sokoban::ParseError>(())
//! ```

mod bits;
mod board;
mod corral;
mod deadlock;
mod fixed;
mod learn;
mod lower_bound;
mod packing;
mod search;
mod store;
mod zobrist;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::Game;
use crate::level::Level;
use crate::{Direction, path};

use board::{Board, BoardError};
pub use deadlock::{Deadlock, DeadlockDetector, DeadlockKind};
use search::{End, Search};

/// What to optimise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Any solution, as fast as possible.
    #[default]
    Fast,
    /// Fewest pushes (proven), then fewest moves among those (proven
    /// when [`Solution::secondary_optimal`] says so).
    Pushes,
    /// Fewest moves, then fewest pushes (small levels only).
    Moves,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub mode: Mode,
    /// Stop with [`Outcome::LimitReached`] after expanding this many nodes.
    pub node_limit: Option<u64>,
    /// Memory for the node store; when spent: [`Outcome::OutOfMemory`].
    pub memory_mb: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            mode: Mode::Fast,
            node_limit: None,
            memory_mb: 512,
        }
    }
}

/// How far the search has got, given to the progress callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Nodes expanded so far.
    pub expanded: u64,
    /// Positions stored so far.
    pub stored: u64,
    /// Pushes (Fast, Pushes) or moves (Moves) to the node being expanded.
    pub depth: u32,
    /// Its lower bound on the pushes still needed.
    pub lower_bound: u32,
}

type ProgressFn<'a> = Box<dyn FnMut(&Progress) + 'a>;
type StopFn<'a> = Box<dyn FnMut() -> bool + 'a>;

/// The caller's hold on a running search: a cancel flag that another
/// thread may set, a stop check, and a progress callback, the last two
/// called every `every` expanded nodes.
pub struct Control<'a> {
    cancel: Option<&'a AtomicBool>,
    progress: Option<ProgressFn<'a>>,
    should_stop: Option<StopFn<'a>>,
    every: u64,
}

impl Default for Control<'_> {
    fn default() -> Self {
        Control {
            cancel: None,
            progress: None,
            should_stop: None,
            every: 1024,
        }
    }
}

impl<'a> Control<'a> {
    pub fn new() -> Control<'a> {
        Control::default()
    }

    /// Stop with [`Outcome::Cancelled`] once `flag` is true (checked at every node).
    pub fn cancel_flag(mut self, flag: &'a AtomicBool) -> Control<'a> {
        self.cancel = Some(flag);
        self
    }

    /// Call `report` every `every` expanded nodes.
    pub fn on_progress(mut self, every: u64, report: impl FnMut(&Progress) + 'a) -> Control<'a> {
        self.every = every.max(1);
        self.progress = Some(Box::new(report));
        self
    }

    /// Stop with [`Outcome::Cancelled`] when `check` says so (asked every
    /// `every` nodes, e.g. a deadline the caller reads from its clock).
    pub fn should_stop(mut self, check: impl FnMut() -> bool + 'a) -> Control<'a> {
        self.should_stop = Some(Box::new(check));
        self
    }

    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Reports progress; true when the caller wants to stop.
    fn report(&mut self, progress: &Progress) -> bool {
        if let Some(report) = self.progress.as_mut() {
            report(progress);
        }
        self.should_stop.as_mut().is_some_and(|check| check())
    }
}

/// A verified solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Moves in LURD (upper case pushes), from the position solved.
    pub lurd: String,
    pub moves: u32,
    pub pushes: u32,
    /// Proven optimal for the mode's measure: pushes in [`Mode::Pushes`],
    /// moves in [`Mode::Moves`]. Always false in [`Mode::Fast`].
    pub optimal: bool,
    /// Also proven: the other measure is the fewest among the optimal
    /// solutions (moves among push-optimal ones in [`Mode::Pushes`], pushes
    /// among move-optimal ones in [`Mode::Moves`]). In [`Mode::Pushes`] this
    /// takes a second search, which may be stopped by the limits; the
    /// push-optimal solution of the first is returned then, with this false.
    pub secondary_optimal: bool,
}

impl Solution {
    /// The steps of the solution: direction and whether it pushes.
    pub fn steps(&self) -> Vec<(Direction, bool)> {
        self.lurd.chars().filter_map(Direction::from_lurd).collect()
    }

    /// The walk to the first push and the push itself: a hint.
    pub fn first_push(&self) -> Vec<(Direction, bool)> {
        let steps = self.steps();
        let end = steps
            .iter()
            .position(|&(_, push)| push)
            .map_or(0, |p| p + 1);
        steps[..end].to_vec()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Solved(Solution),
    /// Proven: no sequence of moves solves the position.
    Unsolvable,
    /// The cancel flag or the stop check said so.
    Cancelled,
    /// The memory budget ran out first.
    OutOfMemory,
    /// The node limit was reached first.
    LimitReached,
    /// The level is beyond the solver's representation (too many cells or boxes).
    Unsupported,
    /// A solution failed its replay: a solver bug, never a wrong answer.
    Internal(String),
}

/// Effort spent by one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub expanded: u64,
    pub stored: u64,
}

/// Solves `level` from its start.
pub fn solve(level: &Level, options: &Options, control: &mut Control<'_>) -> Outcome {
    solve_with_stats(level, options, control).0
}

/// Solves the position reached in `game` (for hints and "solve from
/// here"): the solution starts at the game's current position.
pub fn solve_from(game: &Game, options: &Options, control: &mut Control<'_>) -> Outcome {
    let level = game.level().with_position(game.player(), game.boxes());
    solve(&level, options, control)
}

/// What the hint key shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Walk this way, then push: the last step is the push.
    Push(Vec<Direction>),
    /// Every box is on a goal already.
    AlreadySolved,
    /// Proven: this position cannot be solved any more (offer undo).
    Unsolvable,
    /// The search stopped without an answer (cancelled, out of memory, ...).
    NotFound(Outcome),
}

/// The next push towards a solution from the game's current position.
pub fn hint(game: &Game, options: &Options, control: &mut Control<'_>) -> Hint {
    if game.is_solved() {
        return Hint::AlreadySolved;
    }
    match solve_from(game, options, control) {
        Outcome::Solved(solution) => {
            Hint::Push(solution.first_push().into_iter().map(|(d, _)| d).collect())
        }
        Outcome::Unsolvable => Hint::Unsolvable,
        other => Hint::NotFound(other),
    }
}

/// [`solve`], also telling the effort spent.
pub fn solve_with_stats(
    level: &Level,
    options: &Options,
    control: &mut Control<'_>,
) -> (Outcome, Stats) {
    if level.is_solved_at_start() {
        let solution = Solution {
            lurd: String::new(),
            moves: 0,
            pushes: 0,
            optimal: options.mode != Mode::Fast,
            secondary_optimal: options.mode != Mode::Fast,
        };
        return (Outcome::Solved(solution), Stats::default());
    }
    let board = match Board::new(level.map(), level.player(), level.boxes()) {
        Ok(board) => board,
        Err(BoardError::Unsolvable) => return (Outcome::Unsolvable, Stats::default()),
        Err(BoardError::TooLarge) => return (Outcome::Unsupported, Stats::default()),
    };
    if board.start_boxes.len() > lower_bound::MAX_BOXES {
        return (Outcome::Unsupported, Stats::default());
    }
    // Fast mode runs a portfolio, alternating slices: greedy best-first
    // finds long solutions that A* cannot afford, plain A* finds short ones
    // that greedy search wanders past, and weight 2 sits in between. Each is
    // complete, so any exhausting proves the level unsolvable.
    let weights: &[u64] = match options.mode {
        Mode::Fast => &[0, 1, 2],
        Mode::Pushes | Mode::Moves => &[1],
    };
    // One share more in Fast mode for the packing-order search.
    let memory = options.memory_mb / (weights.len() + usize::from(options.mode == Mode::Fast));
    let mut searches: Vec<Search<'_>> = weights
        .iter()
        .map(|&w| Search::new(&board, options.mode, w, memory))
        .collect();
    // Fast mode adds a second greedy search steered by the goal packing
    // order, when the goals have one (see `packing`).
    if options.mode == Mode::Fast
        && let Some(search) =
            Search::new(&board, options.mode, 0, memory).with_packing(PACKING_PENALTY)
    {
        searches.push(search);
    }
    let (end, winner) = drive(&mut searches, options.node_limit, control);
    let mut stats = Stats {
        expanded: searches.iter().map(|s| s.expanded).sum(),
        stored: searches.iter().map(|s| s.store.len() as u64).sum(),
    };
    let outcome = match (end, winner.and_then(|i| searches.get(i))) {
        (Ended::Search(End::Found(goal)), Some(search)) if options.mode == Mode::Pushes => {
            let (outcome, more) = fewest_moves(level, &board, search, goal, options, control);
            stats.expanded += more.expanded;
            stats.stored += more.stored;
            outcome
        }
        (Ended::Search(End::Found(goal)), Some(search)) => {
            finish(level, &board, search, goal, options.mode)
        }
        (Ended::Search(End::Found(_)), None) => Outcome::Internal("no winning search".into()),
        (Ended::Search(End::Exhausted), _) => Outcome::Unsolvable,
        (Ended::Search(End::Cancelled), _) => Outcome::Cancelled,
        (Ended::Search(End::OutOfMemory), _) => Outcome::OutOfMemory,
        (Ended::LimitReached, _) => Outcome::LimitReached,
    };
    (outcome, stats)
}

/// The second pass of [`Mode::Pushes`]: the first pass (`first`, its goal
/// node `goal`) proved the fewest pushes; this one finds the fewest moves
/// among the solutions with that many pushes. When it cannot finish (time,
/// memory, nodes), the first pass's solution is returned, marked so.
fn fewest_moves(
    level: &Level,
    board: &Board,
    first: &Search<'_>,
    goal: u32,
    options: &Options,
    control: &mut Control<'_>,
) -> (Outcome, Stats) {
    let fallback = || finish(level, board, first, goal, Mode::Pushes);
    let used_mb = first.store.bytes().div_ceil(1 << 20);
    let memory = options.memory_mb.saturating_sub(used_mb);
    if memory < 2 {
        return (fallback(), Stats::default());
    }
    let refine = search::Refine {
        pushes: first.pushes_of(goal),
        known: &first.store,
    };
    let mut second = [Search::refine(board, refine, memory)];
    let node_limit = options
        .node_limit
        .map(|limit| limit.saturating_sub(first.expanded));
    let (end, _) = if node_limit == Some(0) {
        (Ended::LimitReached, None)
    } else {
        drive(&mut second, node_limit, control)
    };
    let [second] = second;
    let stats = Stats {
        expanded: second.expanded,
        stored: second.store.len() as u64,
    };
    let outcome = match end {
        Ended::Search(End::Found(goal)) => {
            match finish(level, board, &second, goal, Mode::Pushes) {
                Outcome::Solved(solution) => Outcome::Solved(Solution {
                    secondary_optimal: true,
                    ..solution
                }),
                other => other,
            }
        }
        Ended::Search(End::Exhausted) => {
            // Cannot happen: the first pass's solution is in this space.
            debug_assert!(
                false,
                "the fewest-moves pass lost the push-optimal solution"
            );
            fallback()
        }
        Ended::Search(End::Cancelled | End::OutOfMemory) | Ended::LimitReached => fallback(),
    };
    (outcome, stats)
}

enum Ended {
    Search(End),
    LimitReached,
}

/// What the packing-order greedy search adds to its priority per goal
/// filled out of order (in pushes of the bound). Measured: 6 solves more
/// of Microban II than 2 or 20.
const PACKING_PENALTY: u64 = 6;

/// How many slices greedy search gets per slice of A*.
const GREEDY_SHARE: u64 = 3;

/// Plain greedy search that has expanded this many nodes without a
/// solution gets no larger share than A* any more: past it, A* wins most
/// levels. Below it nothing changes (all of Microban I and Boxoban).
/// Measured: Microban II #130 689 k nodes instead of 1.22 M, IV #93 918 k
/// instead of 1.79 M.
const GREEDY_LONG: u64 = 200_000;

/// A*'s share once greedy search has run long, when there is no packing
/// search (with one, IV #69 lost the packing search's turns and its 10 s).
const LONG_ASTAR_SHARE: u64 = 2;

/// Slices for the greedy search that follows a packing order. Measured on
/// nine hard Microban levels: 6 takes 4.1 M nodes in all, 3 takes 4.4 M
/// (Microban I #153: 238 k instead of 345 k).
const PACKING_SHARE: u64 = 6;

/// Nodes a search expands before the next one gets its turn.
const SLICE: u64 = 256;

/// Runs the searches in turns until one decides; also returns which one.
fn drive(
    searches: &mut [Search<'_>],
    node_limit: Option<u64>,
    control: &mut Control<'_>,
) -> (Ended, Option<usize>) {
    let mut active = Vec::new();
    for (i, search) in searches.iter_mut().enumerate() {
        match search.start() {
            None => active.push(i),
            Some(End::OutOfMemory) => {}
            Some(end) => return (Ended::Search(end), Some(i)),
        }
    }
    let mut reported = 0u64;
    loop {
        if active.is_empty() {
            return (Ended::Search(End::OutOfMemory), None);
        }
        let mut k = 0;
        while k < active.len() {
            let i = active[k];
            let total: u64 = searches.iter().map(|s| s.expanded).sum();
            // Greedy gets the larger share: most levels fall to it.
            // Once plain greedy has run long without a solution, it gets
            // no more than A*, and without a packing search (which wins
            // most long levels that have one) A* gets the larger share.
            let long = searches
                .iter()
                .any(|s| s.weight() == 0 && !s.packed() && s.expanded >= GREEDY_LONG);
            let share = if searches[i].packed() {
                PACKING_SHARE
            } else if searches[i].weight() == 0 {
                if long { 1 } else { GREEDY_SHARE }
            } else if searches[i].weight() == 1 && long && !searches.iter().any(|s| s.packed()) {
                LONG_ASTAR_SHARE
            } else {
                1
            };
            let slice = SLICE.min(control.every) * share;
            let budget = match node_limit {
                Some(limit) if total >= limit => return (Ended::LimitReached, None),
                Some(limit) => slice.min(limit - total),
                None => slice,
            };
            match searches[i].advance(control, budget) {
                None => k += 1,
                Some(End::OutOfMemory) => {
                    active.remove(k);
                }
                Some(end) => return (Ended::Search(end), Some(i)),
            }
            let total: u64 = searches.iter().map(|s| s.expanded).sum();
            if total / control.every > reported {
                reported = total / control.every;
                let last = &searches[i];
                let progress = Progress {
                    expanded: total,
                    stored: searches.iter().map(|s| s.store.len() as u64).sum(),
                    depth: last.depth,
                    lower_bound: last.bound,
                };
                if control.report(&progress) {
                    return (Ended::Search(End::Cancelled), None);
                }
            }
        }
    }
}

/// Turns the chain of pushes ending at `goal` into LURD (walking the
/// shortest way between pushes) and replays it against the level.
fn finish(level: &Level, board: &Board, search: &Search<'_>, goal: u32, mode: Mode) -> Outcome {
    let mut pushes = Vec::new();
    let mut node = goal;
    while search.store.parent(node) != store::NO_PARENT {
        pushes.push(search.store.push(node));
        node = search.store.parent(node);
    }
    pushes.reverse();
    let map = level.map();
    let mut game = Game::new(level.clone());
    for push in pushes {
        let Some(&from) = board.original.get(usize::from(push.from)) else {
            return Outcome::Internal("push from an unknown cell".into());
        };
        let Some(&dir) = Direction::ALL.get(usize::from(push.dir)) else {
            return Outcome::Internal("push in an unknown direction".into());
        };
        let Some(behind) = map.neighbor(from, dir.opposite()) else {
            return Outcome::Internal("push from off the board".into());
        };
        let Some(walk) = path::walk_to(&game, behind) else {
            return Outcome::Internal(format!("no walk to cell {behind}"));
        };
        for step in walk {
            if game.step(step).is_err() {
                return Outcome::Internal("walk blocked".into());
            }
        }
        for _ in 0..push.count {
            match game.step(dir) {
                Ok(step) if step.push => {}
                _ => return Outcome::Internal("push did not push".into()),
            }
        }
    }
    let lurd = game.lurd();
    match crate::verify(level, &lurd) {
        Ok(verdict) if verdict.solved => Outcome::Solved(Solution {
            lurd,
            moves: verdict.moves,
            pushes: verdict.pushes,
            optimal: mode != Mode::Fast,
            // Moves mode orders by (moves, pushes) exactly; Pushes mode
            // marks it after its second pass.
            secondary_optimal: mode == Mode::Moves,
        }),
        Ok(_) => Outcome::Internal("the solution does not solve the level".into()),
        Err(e) => Outcome::Internal(format!("the solution does not replay: {e}")),
    }
}
