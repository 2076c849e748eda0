//! The solver: finds solutions, push-optimal or move-optimal ones, and
//! proves levels unsolvable.
//!
//! One best-first engine over push positions (`search`) serves every mode:
//! Fast mode runs a portfolio of greedy and A* searches (one greedy search
//! steered by the goal packing order, `packing`, several over feature space,
//! `features`, which also push boxes entering a goal room on to their
//! goals in one macro move, `room`, one of them over box moves, every
//! position one box reaches alone, `one_box`, and one over pulls from the solved
//! position back to the start, `backward`, whose positions the forward
//! searches meet);
//! Pushes mode proves the fewest pushes with an A* forwards and one
//! backwards over pulls that meet in the middle (`meet`, their open lists
//! by depth in `layers`; plain A* where there are more goals than boxes),
//! then runs a second pass for the fewest moves among those. The lower
//! bound is a min-cost matching of boxes to goals (`lower_bound`) over push distances in which boxes
//! fixed on goals count as walls (`fixed`); pruning uses dead squares,
//! freeze and bipartite deadlocks (`deadlock`), PI-corrals (`corral`) and
//! small searches on box clusters and corrals (`learn`). On a level whose
//! walls and goals are symmetric, mirror and turned images of a position
//! already expanded are skipped (`symmetry`).
//!
//! Pure: no clock, no printing, and threads only when [`Options::threads`]
//! asks for them. The caller limits
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

#[cfg(test)]
mod admissible;
mod advisor;
mod assignment;
mod backward;
mod bits;
mod board;
mod complete;
mod corral;
mod deadlock;
mod features;
mod fixed;
mod layers;
mod learn;
mod lower_bound;
mod marks;
mod meet;
mod one_box;
mod packing;
mod room;
mod search;
mod store;
mod symmetry;
mod zobrist;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::game::Game;
use crate::level::Level;
use crate::{Direction, path};

pub use assignment::{BoxGoal, GoalAssigner, GoalAssignment, goal_assignment};
use backward::Backward;
use board::{Board, BoardError};
pub use deadlock::{Deadlock, DeadlockDetector, DeadlockKind};
use search::{End, Search};
use store::{Budget, Store};

/// The most goals × cells a solver board holds. Its push-distance tables take
/// 10 bytes and a breadth-first pass per goal and cell, built when the solver
/// starts and when a level is opened for play (for deadlock warnings); past
/// this (e.g. more than 65 goals in a 256 × 256 room) the solver answers
/// [`Outcome::Unsupported`] and no deadlock is warned of.
pub const MAX_GOAL_CELLS: usize = 1 << 22;

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
    /// Threads for one solve. With 2 or more, Fast mode runs the early
    /// phase of its portfolio on one, as with 1 (so levels solved within it,
    /// most, get the same solution every time), then the portfolio in two
    /// halves side by side (so which search wins a harder level, and its
    /// solution, can vary from run to run); the other modes use one.
    pub threads: usize,
    /// In [`Mode::Pushes`]: after proving the fewest pushes, run the second
    /// pass for the fewest moves among them (default true). False skips it:
    /// the push-optimal solution of the first pass is returned (with
    /// [`Solution::secondary_optimal`] false) and [`Stats::expanded`]
    /// counts the first pass alone, as the rating run wants. Other modes
    /// ignore it.
    pub fewest_moves: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            mode: Mode::Fast,
            node_limit: None,
            memory_mb: 512,
            threads: 1,
            fewest_moves: true,
        }
    }
}

/// How far the search has got, given to the progress callback.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    /// A second flag: the caller's, for the controls of [`drive_beside`].
    also_cancel: Option<&'a AtomicBool>,
    progress: Option<ProgressFn<'a>>,
    should_stop: Option<StopFn<'a>>,
    every: u64,
}

impl Default for Control<'_> {
    fn default() -> Self {
        Control {
            cancel: None,
            also_cancel: None,
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
        let set = |flag: Option<&AtomicBool>| flag.is_some_and(|f| f.load(Ordering::Relaxed));
        set(self.cancel) || set(self.also_cancel)
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
    /// The level is beyond the solver's representation (too many cells, boxes, or
    /// goals × cells: [`MAX_GOAL_CELLS`]).
    Unsupported,
    /// A solution failed its replay: a solver bug, never a wrong answer.
    Internal(String),
}

/// Effort spent by one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub expanded: u64,
    pub stored: u64,
    /// Which search of fast mode's portfolio found the solution ("greedy",
    /// "A*", "packing", "features", "room features" (with "nearest box
    /// advised" or "unadvised" for its variants), "backward", or
    /// "meeting" when a forward and the backward search met); `None` when
    /// none did, and in the other modes.
    pub found_by: Option<&'static str>,
    /// Of [`Stats::expanded`], the nodes the fewest-moves pass of
    /// [`Mode::Pushes`] expanded (0 when it did not run): the proof of the
    /// fewest pushes took `expanded - moves_pass`.
    pub moves_pass: u64,
}

impl Stats {
    /// Nodes expanded by all but the fewest-moves pass: in [`Mode::Pushes`],
    /// the proof of the fewest pushes (the effort the difficulty rates).
    pub fn proof_expanded(&self) -> u64 {
        self.expanded.saturating_sub(self.moves_pass)
    }
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
    // Pushes mode: the two directions meet (see `meet`), where the backward
    // search is defined.
    if options.mode == Mode::Pushes
        && let Some(backward) = Backward::new(&board, 0)
    {
        return fewest_pushes(level, &board, backward, options, control);
    }
    // Fast mode runs a portfolio, alternating slices (see `PORTFOLIO`).
    // Each search is complete, so any exhausting proves the level
    // unsolvable.
    let kinds: &[(Kind, u64, u64)] = match options.mode {
        Mode::Fast => &PORTFOLIO,
        Mode::Pushes | Mode::Moves => &[(Kind::AStar, 1, 1)],
    };
    // Each search sizes its tables by its part of the memory; the backward
    // search, with no tables beside its store, gets two parts. Their stores
    // then draw on one budget (see `Store::share`), and so do the forward
    // searches' fixed-goal tables once their part is spent: a box-move
    // search meets many more fixed sets than its part holds, and without
    // their tables its bound misses the deadlocks they show.
    let parts: usize = kinds.iter().map(|&(kind, ..)| kind.memory_parts()).sum();
    let mut searches = Vec::new();
    let mut shares = Vec::new();
    let mut used = Vec::new();
    for &(kind, early, late) in kinds {
        let memory = options.memory_mb * kind.memory_parts() / parts.max(1);
        let forward = || Search::new(&board, options.mode, u64::from(kind == Kind::AStar), memory);
        let search = match kind {
            Kind::Greedy | Kind::AStar => Some(Engine::Forward(forward())),
            Kind::Packing => forward().with_packing(PACKING_PENALTY).map(Engine::Forward),
            Kind::Features => forward()
                .with_features(false)
                .map(Search::with_rooms)
                .map(Engine::Forward),
            Kind::RoomFeatures {
                advised_boxes,
                opening_boxes,
            } => forward()
                .with_features(true)
                .map(Search::with_rooms)
                .map(|s| s.with_advisor(advised_boxes).with_opener(opening_boxes))
                .map(Engine::Forward),
            Kind::BoxMoves { advised_boxes } => forward()
                .with_features(true)
                .map(Search::with_rooms)
                .map(|s| {
                    let opening = if advised_boxes == 2 { 2 } else { 0 };
                    s.with_advisor(advised_boxes)
                        .with_opener(opening)
                        .with_box_moves()
                })
                .map(Engine::Forward),
            Kind::Backward => Backward::new(&board, memory).map(Engine::Backward),
        };
        if let Some(search) = search {
            searches.push(search);
            shares.push(Shares { early, late });
            used.push(kind);
        }
    }
    let budget = Budget::default();
    for search in &mut searches {
        search.store_mut().share(&budget);
        if let Engine::Forward(search) = search {
            search.share_tables(&budget);
        }
    }
    let schedule = Schedule {
        shares,
        early_nodes: EARLY_WORK / board.start_boxes.len().max(1) as u64,
    };
    // On two threads: the early phase on one, then the portfolio in two
    // halves side by side (see `SECOND_THREAD`).
    let split = used
        .iter()
        .position(|k| SECOND_THREAD.contains(k))
        .filter(|&i| i > 0 && options.threads > 1);
    let (end, winner) = if let Some(split) = split {
        drive_split(&mut searches, split, &schedule, options.node_limit, control)
    } else {
        drive(&mut searches, &schedule, options.node_limit, control)
    };
    let found_by = match end {
        Ended::Search(End::Found(_)) if options.mode == Mode::Fast => {
            winner.and_then(|i| used.get(i)).map(|k| k.name())
        }
        Ended::Met { .. } => Some("meeting"),
        _ => None,
    };
    let mut stats = Stats {
        expanded: searches.iter().map(Engine::expanded).sum(),
        stored: searches.iter().map(|s| s.store().stored() as u64).sum(),
        found_by,
        moves_pass: 0,
    };
    let outcome = match (end, winner.and_then(|i| searches.get(i))) {
        (Ended::Search(End::Found(goal)), Some(Engine::Forward(search)))
            if options.mode == Mode::Pushes =>
        {
            let Some(runs) = search.solution(goal) else {
                return (Outcome::Internal("an unknown macro".into()), stats);
            };
            let first = FirstPass {
                runs,
                pushes: search.pushes_of(goal),
                known: &search.store,
                spent: search.expanded,
            };
            let (outcome, more) = fewest_moves(level, &board, first, options, control);
            stats.expanded += more.expanded;
            stats.moves_pass = more.expanded;
            stats.stored += more.stored;
            outcome
        }
        (Ended::Search(End::Found(goal)), Some(search)) => match search.solution(goal) {
            Some(runs) => finish(level, &board, &runs, options.mode),
            None => Outcome::Internal("an unknown macro".into()),
        },
        (Ended::Search(End::Found(_)), None) => Outcome::Internal("no winning search".into()),
        (Ended::Met { forward, backward }, _) => {
            let runs = |(search, node): (usize, u32)| {
                searches
                    .get(search)
                    .and_then(|s: &Engine<'_>| s.solution(node))
            };
            match (runs(forward), runs(backward)) {
                (Some(mut there), Some(back)) => {
                    there.extend(back);
                    finish(level, &board, &there, options.mode)
                }
                _ => Outcome::Internal("an unknown macro".into()),
            }
        }
        (Ended::Search(End::Exhausted), _) => Outcome::Unsolvable,
        (Ended::Search(End::Cancelled), _) => Outcome::Cancelled,
        (Ended::Search(End::OutOfMemory), _) => Outcome::OutOfMemory,
        (Ended::LimitReached, _) => Outcome::LimitReached,
    };
    (outcome, stats)
}

/// The first pass of [`Mode::Pushes`] where the backward search is defined
/// (as many goals as boxes): the fewest pushes, met in the middle (see
/// [`meet`](mod@meet)); then [`fewest_moves`].
fn fewest_pushes(
    level: &Level,
    board: &Board,
    backward: Backward<'_>,
    options: &Options,
    control: &mut Control<'_>,
) -> (Outcome, Stats) {
    // The forward search sizes its tables by the whole budget, as alone;
    // the backward store draws on what its store leaves (see `Store::share`).
    let mut forward = Search::new(board, Mode::Pushes, 1, options.memory_mb).with_layers();
    forward.completer = Some(complete::Completer::new(board));
    let mut backward = backward.with_layers();
    let budget = Budget::default();
    forward.store.share(&budget);
    backward.store.share(&budget);
    let started = [forward.start(), backward.start()];
    let end = match started {
        [Some(End::OutOfMemory), _] | [_, Some(End::OutOfMemory)] => {
            meet::Met::End(End::OutOfMemory)
        }
        [Some(end), _] | [_, Some(end)] => meet::Met::End(end),
        [None, None] => meet::meet(&mut forward, &mut backward, options.node_limit, control),
    };
    let mut stats = Stats {
        expanded: forward.expanded + backward.expanded,
        stored: (forward.store.stored() + backward.store.stored()) as u64,
        found_by: None,
        moves_pass: 0,
    };
    // The solution as straight runs of pushes, with its push count.
    let found = match end {
        meet::Met::Found {
            pushes,
            forward: there,
            backward: back,
        } => Ok(forward
            .solution(there)
            .zip(backward.runs(back))
            .map(|(mut runs, back)| {
                runs.extend(back);
                (runs, pushes)
            })),
        meet::Met::Completed {
            pushes,
            forward: there,
            tail,
        } => Ok(forward.solution(there).map(|mut runs| {
            runs.extend(tail.into_iter().map(|(from, dir)| (from, dir, 1)));
            (runs, pushes)
        })),
        other => Err(other),
    };
    let outcome = match found {
        Ok(Some((runs, pushes))) => {
            let first = FirstPass {
                runs,
                pushes,
                known: &forward.store,
                spent: stats.expanded,
            };
            let (outcome, more) = fewest_moves(level, board, first, options, control);
            stats.expanded += more.expanded;
            stats.moves_pass = more.expanded;
            stats.stored += more.stored;
            outcome
        }
        Ok(None) => Outcome::Internal("an unknown macro".into()),
        Err(meet::Met::Found { .. } | meet::Met::Completed { .. }) => {
            Outcome::Internal("a solution lost".into())
        }
        Err(meet::Met::End(End::Found(_))) => Outcome::Internal("a search ended alone".into()),
        Err(meet::Met::End(End::Exhausted)) => Outcome::Unsolvable,
        Err(meet::Met::End(End::Cancelled)) => Outcome::Cancelled,
        Err(meet::Met::End(End::OutOfMemory)) => Outcome::OutOfMemory,
        Err(meet::Met::LimitReached) => Outcome::LimitReached,
    };
    (outcome, stats)
}

/// What the first pass of [`Mode::Pushes`] hands the second.
struct FirstPass<'s> {
    /// Its solution (straight runs of pushes), of `pushes` pushes, proven
    /// the fewest.
    runs: Vec<(u16, u8, u16)>,
    pushes: u32,
    /// Positions, each with pushes that reach it.
    known: &'s Store,
    /// Nodes it expanded.
    spent: u64,
}

/// The second pass of [`Mode::Pushes`]: finds the fewest moves among the
/// solutions with the pushes the first pass proved. When it cannot finish
/// (time, memory, nodes), the first pass's solution is returned, marked so.
fn fewest_moves(
    level: &Level,
    board: &Board,
    first: FirstPass<'_>,
    options: &Options,
    control: &mut Control<'_>,
) -> (Outcome, Stats) {
    let fallback = || finish(level, board, &first.runs, Mode::Pushes);
    if !options.fewest_moves {
        return (fallback(), Stats::default());
    }
    let used_mb = first.known.bytes().div_ceil(1 << 20);
    let memory = options.memory_mb.saturating_sub(used_mb);
    if memory < 2 {
        return (fallback(), Stats::default());
    }
    let refine = search::Refine {
        pushes: first.pushes,
        known: first.known,
    };
    let mut second = [Engine::Forward(Search::refine(board, refine, memory))];
    let node_limit = options
        .node_limit
        .map(|limit| limit.saturating_sub(first.spent));
    let (end, _) = if node_limit == Some(0) {
        (Ended::LimitReached, None)
    } else {
        drive(&mut second, &Schedule::single(), node_limit, control)
    };
    let [Engine::Forward(second)] = second else {
        return (fallback(), Stats::default());
    };
    let stats = Stats {
        expanded: second.expanded,
        stored: second.store.len() as u64,
        found_by: None,
        moves_pass: 0,
    };
    let outcome = match end {
        Ended::Search(End::Found(goal)) => {
            // Fewer pushes here would mean the first pass was not optimal
            // (a bug this pass hides, as it is optimal itself).
            debug_assert_eq!(
                second.pushes_of(goal),
                refine.pushes,
                "the first pass of pushes mode missed a shorter solution"
            );
            match finish_search(level, board, &second, goal, Mode::Pushes) {
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
        Ended::Search(End::Cancelled | End::OutOfMemory)
        | Ended::LimitReached
        | Ended::Met { .. } => fallback(),
    };
    (outcome, stats)
}

#[derive(Clone, Copy)]
enum Ended {
    Search(End),
    /// A forward search and the backward search met: the same position
    /// (boxes and player region) is in both stores. The (search, node) of
    /// each.
    Met {
        forward: (usize, u32),
        backward: (usize, u32),
    },
    LimitReached,
}

/// How a run of the searches ended, and which search decided it (none for
/// a meeting, a limit or a stop).
type Decided = (Ended, Option<usize>);

/// What the packing-order greedy search adds to its priority per goal
/// filled out of order (in pushes of the bound). Measured: 6 solves more
/// of Microban II than 2 or 20.
const PACKING_PENALTY: u64 = 6;

/// The searches of Fast mode.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Greedy best-first on the bound: finds long solutions that A* cannot
    /// afford; most levels fall to it.
    Greedy,
    /// Plain A*: finds short ones that greedy search wanders past.
    AStar,
    /// Greedy, steered by the goal packing order (see `packing`); only
    /// when the goals have one.
    Packing,
    /// Greedy over feature space (see `features`): the strongest on hard
    /// levels, but slower than greedy and packing on most easy ones. It
    /// takes the goal-room macro (see `room`), so it is not complete.
    Features,
    /// The same with room connectivity among its features, the packing
    /// advisor (see `advisor`) trying up to `advised_boxes` boxes per
    /// position, and the connectivity advisor (`advisor::Opener`) up to
    /// `opening_boxes` (none: no such advisor). The portfolio runs three
    /// advised counts: each solves hard levels the others do not.
    RoomFeatures {
        advised_boxes: usize,
        opening_boxes: usize,
    },
    /// Room features over box moves instead of pushes (see `one_box`): a
    /// child for every position one box reaches alone, as FESS moves. Its
    /// expansions cost tens of pushes', but it crosses the feature space
    /// where the push searches stall: goal areas filled from afar, rooms
    /// prepared through long corridors. The packing advisor's weights
    /// order it when `advised_boxes` is 2 (then the opener too), as in
    /// [`Kind::RoomFeatures`].
    BoxMoves { advised_boxes: usize },
    /// Greedy over pulls, from the solved position back to the start (see
    /// `backward`).
    Backward,
}

impl Kind {
    /// Its name in [`Stats::found_by`].
    fn name(self) -> &'static str {
        match self {
            Kind::Greedy => "greedy",
            Kind::AStar => "A*",
            Kind::Packing => "packing",
            Kind::Features => "features",
            Kind::RoomFeatures {
                advised_boxes: 0, ..
            } => "room features, unadvised",
            Kind::RoomFeatures {
                advised_boxes: 1, ..
            } => "room features, nearest box advised",
            Kind::RoomFeatures { .. } => "room features",
            Kind::BoxMoves { advised_boxes: 0 } => "box moves, unadvised",
            Kind::BoxMoves { .. } => "box moves",
            Kind::Backward => "backward",
        }
    }

    /// Its parts of the memory budget.
    fn memory_parts(self) -> usize {
        if self == Kind::Backward { 2 } else { 1 }
    }
}

/// One search of a portfolio: forwards over pushes, or backwards over
/// pulls from the solved position. Few and long-lived, so their sizes
/// need not match.
#[allow(clippy::large_enum_variant)]
enum Engine<'a> {
    Forward(Search<'a>),
    Backward(Backward<'a>),
}

impl Engine<'_> {
    fn start(&mut self) -> Option<End> {
        match self {
            Engine::Forward(s) => s.start(),
            Engine::Backward(s) => s.start(),
        }
    }

    fn advance(&mut self, control: &Control<'_>, budget: u64) -> Option<End> {
        match self {
            Engine::Forward(s) => s.advance(control, budget),
            Engine::Backward(s) => s.advance(control, budget),
        }
    }

    /// Whether running out of nodes proves the level unsolvable.
    fn complete(&self) -> bool {
        match self {
            Engine::Forward(s) => s.complete(),
            Engine::Backward(_) => true,
        }
    }

    fn store(&self) -> &Store {
        match self {
            Engine::Forward(s) => &s.store,
            Engine::Backward(s) => &s.store,
        }
    }

    fn store_mut(&mut self) -> &mut Store {
        match self {
            Engine::Forward(s) => &mut s.store,
            Engine::Backward(s) => &mut s.store,
        }
    }

    fn expanded(&self) -> u64 {
        match self {
            Engine::Forward(s) => s.expanded,
            Engine::Backward(s) => s.expanded,
        }
    }

    fn depth(&self) -> u32 {
        match self {
            Engine::Forward(s) => s.depth,
            Engine::Backward(s) => s.depth,
        }
    }

    fn bound(&self) -> u32 {
        match self {
            Engine::Forward(s) => s.bound,
            Engine::Backward(s) => s.bound,
        }
    }

    /// The pushes of the solution the search found at `goal`, forwards.
    fn solution(&self, goal: u32) -> Option<Vec<(u16, u8, u16)>> {
        match self {
            Engine::Forward(s) => s.solution(goal),
            Engine::Backward(s) => s.runs(goal),
        }
    }
}

/// Fast mode's portfolio: each search with its slices per turn in the
/// early phase and after it (see [`EARLY_WORK`]). The early phase is for
/// the cheap searches that solve easy levels fast. Weighted A* is left
/// out: it won no hard level. The figures behind these shares are under
/// "Tried and dropped" in `BENCHMARKS.md`.
const PORTFOLIO: [(Kind, u64, u64); 10] = [
    (Kind::Greedy, 3, 1),
    // Two late slices, no more: it wins large levels only early, but one
    // slice loses a medium level.
    (Kind::AStar, 1, 2),
    (Kind::Packing, 6, 1),
    // The feature searches wait for the late phase: their nodes cost more
    // (a flood per child, the matching rebuilt as they hop between cells).
    (Kind::Features, 0, 3),
    // Room connectivity in searches of its own, not as a third feature of
    // the plain one: each keeps hard levels the other loses.
    // The connectivity advisor in the search advising two boxes only: in
    // both advised searches it loses more than it wins.
    (
        Kind::RoomFeatures {
            advised_boxes: 2,
            opening_boxes: 2,
        },
        0,
        4,
    ),
    (
        Kind::RoomFeatures {
            advised_boxes: 1,
            opening_boxes: 0,
        },
        0,
        3,
    ),
    (
        Kind::RoomFeatures {
            advised_boxes: 0,
            opening_boxes: 0,
        },
        0,
        3,
    ),
    // Beside the push searches, not in place of the one advising two boxes:
    // each solves hard levels the other does not. Two late slices: its
    // expansions cost tens of pushes', and one or four solve the same.
    (Kind::BoxMoves { advised_boxes: 2 }, 0, 2),
    // Unadvised too: it solves a level the advised one does not, where one
    // advising the nearest box solves none new.
    (Kind::BoxMoves { advised_boxes: 0 }, 0, 2),
    // Its nodes cost a quarter of a forward one's, so 52 slices are about
    // half the time: more time buys the forward searches little, this much.
    // One early slice only: more slow the small levels down without
    // solving more large ones.
    (Kind::Backward, 1, 52),
];

/// With two threads, after the early phase, the searches of [`PORTFOLIO`]
/// from the first of these on run on the second thread: the backward
/// search, which solves most of the hard levels, gets a core of its own,
/// and meets the forward searches across the threads (see [`drive_beside`]).
const SECOND_THREAD: [Kind; 1] = [Kind::Backward];

/// Work (nodes times boxes, as a node's cost grows with its boxes: the
/// matching) of the early phase, in which the fast searches of easy levels
/// get most slices. Large enough for every small level to be solved within
/// it; counted in work, not nodes, so that levels with many boxes leave it
/// after fewer nodes instead of holding the feature search back.
const EARLY_WORK: u64 = 3_000_000;

/// Slices per turn of one search, in the early phase and after it.
#[derive(Clone, Copy, Debug)]
struct Shares {
    early: u64,
    late: u64,
}

/// Who gets how many slices when.
struct Schedule {
    /// One per search.
    shares: Vec<Shares>,
    /// Nodes (all searches together) in the early phase.
    early_nodes: u64,
}

impl Schedule {
    /// A single search.
    fn single() -> Schedule {
        Schedule {
            shares: vec![Shares { early: 1, late: 1 }],
            early_nodes: 0,
        }
    }

    fn share(&self, search: usize, early: bool) -> u64 {
        self.shares
            .get(search)
            .map_or(1, |s| if early { s.early } else { s.late })
    }
}

/// Nodes a search expands before the next one gets its turn.
const SLICE: u64 = 256;

/// Runs the searches in turns until one decides; also returns which one.
fn drive(
    searches: &mut [Engine<'_>],
    schedule: &Schedule,
    node_limit: Option<u64>,
    control: &mut Control<'_>,
) -> Decided {
    match start_all(searches) {
        Ok(mut active) => turns(searches, &mut active, schedule, node_limit, control),
        Err(decided) => decided,
    }
}

/// Stores every search's start: the searches still running, or what a
/// start decided (and which).
fn start_all(searches: &mut [Engine<'_>]) -> Result<Vec<usize>, Decided> {
    let mut active = Vec::new();
    for (i, search) in searches.iter_mut().enumerate() {
        match search.start() {
            None => active.push(i),
            Some(End::OutOfMemory) => {}
            Some(end) => return Err((Ended::Search(end), Some(i))),
        }
    }
    Ok(active)
}

/// Runs the started searches `active` in turns until one decides, taking
/// those out of memory out of `active`.
fn turns(
    searches: &mut [Engine<'_>],
    active: &mut Vec<usize>,
    schedule: &Schedule,
    node_limit: Option<u64>,
    control: &mut Control<'_>,
) -> Decided {
    let mut reported = searches.iter().map(Engine::expanded).sum::<u64>() / control.every;
    let mut early = true;
    let backward = searches
        .iter()
        .position(|s| matches!(s, Engine::Backward(_)));
    // Nodes of each store already looked up in the other direction's: all
    // stored before this call were (each new node is looked up in the
    // whole of the other store).
    let mut met_checked: Vec<usize> = searches.iter().map(|s| s.store().len()).collect();
    loop {
        if active.is_empty() {
            return (Ended::Search(End::OutOfMemory), None);
        }
        let round_start: u64 = searches.iter().map(Engine::expanded).sum();
        let mut k = 0;
        while k < active.len() {
            let i = active[k];
            let total: u64 = searches.iter().map(Engine::expanded).sum();
            early &= total < schedule.early_nodes;
            let share = schedule.share(i, early);
            let slice = SLICE.min(control.every) * share;
            let budget = match node_limit {
                Some(limit) if total >= limit => return (Ended::LimitReached, None),
                Some(limit) => slice.min(limit - total),
                None => slice,
            };
            let end = match searches[i].advance(control, budget) {
                // An incomplete search running dry proves nothing: it is
                // out like one out of memory.
                Some(End::Exhausted) if !searches[i].complete() => Some(End::OutOfMemory),
                end => end,
            };
            if let Some(b) = backward
                && end.is_none()
                && let Some(met) = meet(searches, i, b, &mut met_checked)
            {
                return (met, None);
            }
            match end {
                None => k += 1,
                Some(End::OutOfMemory) => {
                    active.remove(k);
                    // What a lost search held goes back to the level's
                    // budget, for those still running.
                    searches[i].store_mut().release();
                }
                Some(end) => return (Ended::Search(end), Some(i)),
            }
            let total: u64 = searches.iter().map(Engine::expanded).sum();
            if total / control.every > reported {
                reported = total / control.every;
                let last = &searches[i];
                let progress = Progress {
                    expanded: total,
                    stored: searches.iter().map(|s| s.store().stored() as u64).sum(),
                    depth: last.depth(),
                    lower_bound: last.bound(),
                };
                if control.report(&progress) {
                    return (Ended::Search(End::Cancelled), None);
                }
            }
        }
        // A round without progress: only searches without early slices
        // are left, so the early phase is over.
        if searches.iter().map(Engine::expanded).sum::<u64>() == round_start {
            early = false;
        }
    }
}

/// Looks the nodes that search `i` stored since the last look up in the
/// stores of the other direction: the forward searches' in the backward
/// one's (`b`), or the backward one's in every forward one's. A position
/// in both is reached from the start and leads to the solved position.
fn meet(searches: &[Engine<'_>], i: usize, b: usize, checked: &mut [usize]) -> Option<Ended> {
    let store = searches.get(i)?.store();
    let from = checked.get(i).copied()?.min(store.len());
    checked[i] = store.len();
    // The stores to look in, with their searches' numbers.
    let others: Vec<(usize, &Store)> = if i == b {
        searches
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, Engine::Forward(_)))
            .map(|(j, s)| (j, s.store()))
            .collect()
    } else {
        vec![(b, searches.get(b)?.store())]
    };
    if others.is_empty() {
        return None;
    }
    for id in from..store.len() {
        let id = id as u32;
        // Hashed once, looked up in every other store.
        let hash = store.hash_of(id);
        for &(j, other) in &others {
            if let Some(there) = other.find(hash, store.boxes(id), store.player(id)) {
                let (forward, backward) = if i == b {
                    ((j, there), (b, id))
                } else {
                    ((i, id), (b, there))
                };
                return Some(Ended::Met { forward, backward });
            }
        }
    }
    None
}

/// [`drive`] on two threads: the early phase on this one, all searches in
/// turns as on one thread, so that what it decides (most levels) is the
/// same every time; then [`drive_beside`].
fn drive_split(
    searches: &mut [Engine<'_>],
    split: usize,
    schedule: &Schedule,
    node_limit: Option<u64>,
    control: &mut Control<'_>,
) -> Decided {
    let mut active = match start_all(searches) {
        Ok(active) => active,
        Err(decided) => return decided,
    };
    let early = node_limit.map_or(schedule.early_nodes, |n| n.min(schedule.early_nodes));
    let (end, winner) = turns(searches, &mut active, schedule, Some(early), control);
    let spent: u64 = searches.iter().map(Engine::expanded).sum();
    if !matches!(end, Ended::LimitReached) || node_limit.is_some_and(|n| spent >= n) {
        return (end, winner);
    }
    let left = node_limit.map(|n| n - spent);
    drive_beside(searches, &active, split, schedule, left, control)
}

/// Nodes the first half of [`drive_beside`] expands in an epoch: between
/// epochs both halves wait while the forward searches' new positions are
/// looked up in the backward search's store. Short enough to meet soon
/// after the stores do, long enough that starting the second thread again
/// costs nothing.
const EPOCH: u64 = 1 << 15;

/// The started searches `active` in turns on two threads, with their late
/// shares: those from `split` on on a thread of their own, the others on
/// the caller's. They run in epochs; at the end of each, the positions the
/// forward searches stored in it are looked up in the backward search's
/// store, so that they meet it wherever they run. The first to decide
/// stops the other; the caller's cancel flag, stop check and node limit
/// (`node_limit` more nodes, shared out) hold for both.
fn drive_beside(
    searches: &mut [Engine<'_>],
    active: &[usize],
    split: usize,
    schedule: &Schedule,
    node_limit: Option<u64>,
    control: &mut Control<'_>,
) -> Decided {
    let mut halves = [
        Half::new(searches, active, 0..split, schedule),
        Half::new(searches, active, split..searches.len(), schedule),
    ];
    // Each half's limit counts its own nodes, those before included.
    if let Some(n) = node_limit {
        halves[0].limit = Some(halves[0].done(searches) + n - n / 2);
        halves[1].limit = Some(halves[1].done(searches) + n / 2);
    }
    let backward = searches
        .iter()
        .position(|s| matches!(s, Engine::Backward(_)));
    // The early phase's turns looked up every node stored so far.
    let mut met_checked: Vec<usize> = searches.iter().map(|s| s.store().len()).collect();
    loop {
        let [here, there] = &mut halves;
        let (first, second) = searches.split_at_mut(split);
        let ([mine, theirs], stopped) = epoch(first, here, second, there, control);
        let theirs = theirs.map(|(end, winner)| match end {
            Ended::Met { forward, backward } => (
                Ended::Met {
                    forward: (forward.0 + split, forward.1),
                    backward: (backward.0 + split, backward.1),
                },
                None,
            ),
            end => (end, winner.map(|i| i + split)),
        });
        let results = [mine, theirs];
        if let Some(decided) = results.iter().flatten().find(|(end, _)| decides(end)) {
            return *decided;
        }
        if stopped || control.cancelled() {
            return (Ended::Search(End::Cancelled), None);
        }
        for (half, result) in halves.iter_mut().zip(&results) {
            half.settle(result.as_ref(), searches);
        }
        // Only the forward searches' new positions: the backward store is
        // many times larger than theirs, so a lookup in it meets more
        // often, and looking its new positions up in every forward store
        // takes long while the backward thread waits.
        if let Some(b) = backward {
            for i in (0..searches.len()).filter(|&i| i != b) {
                if let Some(met) = meet(searches, i, b, &mut met_checked) {
                    return (met, None);
                }
            }
        }
        match halves.each_ref().map(|h| h.over.as_ref()) {
            [Some(Ended::LimitReached), Some(_)] | [Some(_), Some(Ended::LimitReached)] => {
                return (Ended::LimitReached, None);
            }
            [Some(_), Some(_)] => return (Ended::Search(End::OutOfMemory), None),
            _ => {}
        }
    }
}

/// What ends a two-thread run: a solution, a proof or a meeting.
fn decides(end: &Ended) -> bool {
    matches!(
        end,
        Ended::Search(End::Found(_) | End::Exhausted) | Ended::Met { .. }
    )
}

/// One half of [`drive_beside`]: its searches' numbers in the half, its
/// late shares, its node limit and, once it has stopped for good, why.
struct Half {
    range: std::ops::Range<usize>,
    active: Vec<usize>,
    schedule: Schedule,
    limit: Option<u64>,
    over: Option<Ended>,
}

impl Half {
    fn new(
        searches: &[Engine<'_>],
        active: &[usize],
        range: std::ops::Range<usize>,
        schedule: &Schedule,
    ) -> Half {
        let range = range.start.min(searches.len())..range.end.min(searches.len());
        Half {
            active: active
                .iter()
                .filter(|i| range.contains(i))
                .map(|i| i - range.start)
                .collect(),
            // No early nodes: each half is in its late phase from the start.
            schedule: Schedule {
                shares: schedule
                    .shares
                    .get(range.clone())
                    .unwrap_or_default()
                    .to_vec(),
                early_nodes: 0,
            },
            limit: None,
            over: None,
            range,
        }
    }

    fn done(&self, searches: &[Engine<'_>]) -> u64 {
        searches
            .get(self.range.clone())
            .unwrap_or_default()
            .iter()
            .map(Engine::expanded)
            .sum()
    }

    /// Notes why the half stopped in an epoch, if for good: out of memory,
    /// or at its own node limit (not just the epoch's).
    fn settle(&mut self, result: Option<&Decided>, searches: &[Engine<'_>]) {
        match result {
            Some((Ended::Search(End::OutOfMemory), _)) => {
                self.over = Some(Ended::Search(End::OutOfMemory));
            }
            Some((Ended::LimitReached, _))
                if self.limit.is_some_and(|n| self.done(searches) >= n) =>
            {
                self.over = Some(Ended::LimitReached);
            }
            _ => {}
        }
    }
}

/// One epoch of [`drive_beside`]: the first half (`first`, on this thread)
/// expands [`EPOCH`] more nodes while the second runs beside it until then.
/// A half over sits out; with the first over, the second runs until it
/// decides. Returns each half's end (`None` when it sat out), and whether
/// the caller asked to stop.
fn epoch(
    first: &mut [Engine<'_>],
    here: &mut Half,
    second: &mut [Engine<'_>],
    there: &mut Half,
    control: &mut Control<'_>,
) -> ([Option<Decided>; 2], bool) {
    let stop = AtomicBool::new(false);
    let epoch_over = AtomicBool::new(false);
    let caller_stop = AtomicBool::new(false);
    // What the second half has expanded, for the progress reports: from
    // its count so far, so that they never go back.
    let there_expanded = AtomicU64::new(second.iter().map(Engine::expanded).sum());
    let every = control.every;
    let outer_cancel = control.cancel;
    let here_done: u64 = first.iter().map(Engine::expanded).sum();
    let here_limit = here
        .limit
        .map_or(here_done + EPOCH, |n| n.min(here_done + EPOCH));
    let here_runs = here.over.is_none();
    let there_runs = there.over.is_none();
    // Each half's own control: stopped by the other half or the caller.
    let half_control = || {
        let mut local = Control::new().cancel_flag(&stop);
        local.also_cancel = outer_cancel;
        local
    };
    let result = std::thread::scope(|scope| {
        let helper = there_runs.then(|| {
            scope.spawn(|| {
                let mut local = half_control()
                    .on_progress(every, |p| {
                        there_expanded.store(p.expanded, Ordering::Relaxed)
                    })
                    // Only while the first half runs: alone, this one goes on.
                    .should_stop(|| here_runs && epoch_over.load(Ordering::Relaxed));
                let result = turns(
                    second,
                    &mut there.active,
                    &there.schedule,
                    there.limit,
                    &mut local,
                );
                if decides(&result.0) {
                    stop.store(true, Ordering::Relaxed);
                }
                result
            })
        });
        let mine = here_runs.then(|| {
            let mut local = half_control().on_progress(every, |p| {
                let total = Progress {
                    expanded: p.expanded + there_expanded.load(Ordering::Relaxed),
                    ..*p
                };
                if control.cancelled() || control.report(&total) {
                    caller_stop.store(true, Ordering::Relaxed);
                    stop.store(true, Ordering::Relaxed);
                }
            });
            turns(
                first,
                &mut here.active,
                &here.schedule,
                Some(here_limit),
                &mut local,
            )
        });
        match &mine {
            Some((end, _)) if decides(end) => stop.store(true, Ordering::Relaxed),
            Some(_) => epoch_over.store(true, Ordering::Relaxed),
            // The second half alone: the caller's stop checked here.
            None => {
                while helper.as_ref().is_some_and(|h| !h.is_finished()) {
                    if control.cancelled()
                        || control.report(&Progress {
                            expanded: here_done + there_expanded.load(Ordering::Relaxed),
                            ..Progress::default()
                        })
                    {
                        caller_stop.store(true, Ordering::Relaxed);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            }
        }
        let theirs = helper.map(|h| h.join().unwrap_or((Ended::Search(End::Cancelled), None)));
        [mine, theirs]
    });
    (result, caller_stop.load(Ordering::Relaxed))
}

/// [`finish`] for the forward search `search`, whose goal node is `goal`.
fn finish_search(
    level: &Level,
    board: &Board,
    search: &Search<'_>,
    goal: u32,
    mode: Mode,
) -> Outcome {
    match search.solution(goal) {
        Some(runs) => finish(level, board, &runs, mode),
        None => Outcome::Internal("an unknown macro".into()),
    }
}

/// Turns a solution's pushes (straight runs: box cell, direction, count)
/// into LURD, walking the shortest way between them, and replays it against
/// the level.
fn finish(level: &Level, board: &Board, runs: &[(u16, u8, u16)], mode: Mode) -> Outcome {
    let map = level.map();
    let mut game = Game::new(level.clone());
    for &(from, dir, count) in runs {
        let Some(&from) = board.original.get(usize::from(from)) else {
            return Outcome::Internal("push from an unknown cell".into());
        };
        let Some(&dir) = Direction::ALL.get(usize::from(dir)) else {
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
        for _ in 0..count {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A forward search of fast mode (`weight` as in [`Search::new`]) and
    /// the backward search, in that order.
    fn both_ways(board: &Board, weight: u64) -> [Engine<'_>; 2] {
        [
            Engine::Forward(Search::new(board, Mode::Fast, weight, 16)),
            Engine::Backward(Backward::new(board, 16).unwrap()),
        ]
    }

    /// One slice each, early and late, for two searches.
    fn even_shares(early_nodes: u64) -> Schedule {
        let share = Shares { early: 1, late: 1 };
        Schedule {
            shares: vec![share, share],
            early_nodes,
        }
    }

    /// Past the early phase the two halves run side by side, each in its
    /// turns, and what either finds (or they meet on) is a solution.
    #[test]
    fn after_the_early_phase_the_halves_run_on_two_threads() {
        let level =
            Level::from_xsb("########\n#  .   #\n# $$$  #\n#. @ . #\n#  $   #\n#.     #\n########")
                .unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut searches = both_ways(&board, 1);
        let schedule = even_shares(2);
        let (end, winner) = drive_split(&mut searches, 1, &schedule, None, &mut Control::new());
        let runs = match end {
            Ended::Search(End::Found(goal)) => searches[winner.unwrap()].solution(goal).unwrap(),
            Ended::Met { forward, backward } => {
                let mut runs = searches[forward.0].solution(forward.1).unwrap();
                runs.extend(searches[backward.0].solution(backward.1).unwrap());
                runs
            }
            _ => panic!("undecided"),
        };
        let expanded: u64 = searches.iter().map(Engine::expanded).sum();
        assert!(expanded > 2, "decided after the early phase");
        assert!(matches!(
            finish(&level, &board, &runs, Mode::Fast),
            Outcome::Solved(_)
        ));
    }

    /// The forward search on one thread and the backward search on the
    /// other meet between epochs, though neither half could solve the
    /// level in the nodes it has.
    #[test]
    fn searches_on_two_threads_meet_across_them() {
        let level = Level::from_xsb("#########\n#@ $   .#\n#       #\n#########").unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut searches = both_ways(&board, 0);
        let schedule = even_shares(0);
        let active = start_all(&mut searches).ok().unwrap();
        // Two nodes each: two of the four pushes the level needs, from
        // either end.
        let (end, _) = drive_beside(
            &mut searches,
            &active,
            1,
            &schedule,
            Some(4),
            &mut Control::new(),
        );
        let Ended::Met { forward, backward } = end else {
            panic!("no meeting across the threads");
        };
        assert_eq!((forward.0, backward.0), (0, 1));
        let mut runs = searches[0].solution(forward.1).unwrap();
        runs.extend(searches[1].solution(backward.1).unwrap());
        let Outcome::Solved(solution) = finish(&level, &board, &runs, Mode::Fast) else {
            panic!("the halves do not make a solution");
        };
        assert_eq!(solution.lurd, "rRRRR");
    }

    #[test]
    fn forward_and_backward_searches_meet_halfway() {
        // Two rows, so that no tunnel macro takes the box all the way.
        let level = Level::from_xsb("#########\n#@ $   .#\n#       #\n#########").unwrap();
        let board = Board::new(level.map(), level.player(), level.boxes()).unwrap();
        let mut searches = both_ways(&board, 0);
        let control = Control::new();
        let mut checked = [0, 0];
        for search in &mut searches {
            assert!(search.start().is_none());
        }
        // Each side pushes (pulls) the box two cells: both reach the box on
        // column 5 with the player left of it.
        let mut met = None;
        for _ in 0..2 {
            for i in 0..2 {
                assert!(searches[i].advance(&control, 1).is_none());
                met = met.or_else(|| meet(&searches, i, 1, &mut checked));
            }
        }
        let Some(Ended::Met { forward, backward }) = met else {
            panic!("no meeting");
        };
        let mut runs = searches[forward.0].solution(forward.1).unwrap();
        assert_eq!(runs.len(), 2, "the forward half");
        runs.extend(searches[backward.0].solution(backward.1).unwrap());
        let Outcome::Solved(solution) = finish(&level, &board, &runs, Mode::Fast) else {
            panic!("the halves do not make a solution");
        };
        assert_eq!(solution.lurd, "rRRRR");
    }
}
