//! The Sokoban session: one level being played, as the terminal's play
//! screen and the browser's socket both drive it. It owns the level and its
//! set, the game with its undo history, the deadlock warning, the level
//! clock, the player's record on the level, recording a solve (once per
//! solve, never for a play-test or the solver's moves), snapshots, the
//! hint and solve-and-show runs of the solver (and taking the solver's
//! moves back when a show is stopped), the way back to the last solvable
//! position, the replay of the player's own best, moving to another level
//! of the set, and what a reload restores (the game and its clock).
//!
//! The session never runs the solver itself: it says what to solve as
//! [`SolverOrder`]s the front end carries out (see [`SokobanSession::take_orders`])
//! and takes the outcome back through [`SokobanSession::solver_done`]. Time
//! is passed in, never read here. Animations stay with the front ends.

use std::sync::Arc;
use std::time::{Duration, Instant};

use sokoban::solver::{Deadlock, DeadlockDetector, GoalAssignment, Outcome};
use sokoban::{Blocked, Direction, Game, Level};

use super::clock::LevelClock;
use super::goal_hint::GoalHint;
use super::library::{LevelSet, Source};
use super::replay::{NoReplay, Replay};
use super::thinking::{
    Purpose, SolveOrder, SolverAnswer, SolverOrder, Stopped, THINK_LIMIT, Thinking, steps_text,
};
use super::{
    REWIND_LIMIT, Solved, as_sentence, before_last_push, hint_text, level_title, neighbour_level,
    next_unsolved, record_solve, replay_solution, restore_snapshot, snapshot_of, solution_text,
};
use crate::store::progress::{LevelProgress, Progress};
use crate::store::{DataDir, Warning, snapshots};

/// One level being played.
pub struct SokobanSession {
    set: Arc<LevelSet>,
    index: usize,
    game: Game,
    detector: DeadlockDetector,
    deadlock: Option<Deadlock>,
    /// Warn of deadlocks (a setting).
    show_deadlocks: bool,
    /// The player's record on this level, as of the last open or solve.
    record: Option<LevelProgress>,
    clock: LevelClock,
    /// The solver run the session waits for.
    thinking: Option<Thinking>,
    next_id: u64,
    orders: Vec<SolverOrder>,
    /// The solve-and-show being played.
    show: Option<ShowRun>,
    /// Which goal the solver's lower bound gives each box, while shown.
    goal_hint: GoalHint,
}

/// A solve-and-show being played: the solver's steps made and still to come.
#[derive(Clone, Copy, Debug)]
struct ShowRun {
    made: usize,
    left: usize,
}

/// What a history change (undo, redo, restart) did.
#[derive(Debug)]
pub struct Change {
    /// Something changed (there was a step to undo or redo, or moves to restart).
    pub changed: bool,
    /// A redo solved the level again: the solve, recorded.
    pub solved: Option<Solved>,
}

/// Why a step was not made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoStep {
    /// The level is solved: nothing moves any more.
    Solved,
    /// A wall or an immovable box is in the way.
    Blocked(Blocked),
}

impl std::fmt::Display for NoStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoStep::Solved => f.write_str("the level is solved"),
            NoStep::Blocked(why) => why.fmt(f),
        }
    }
}

/// Why the solver was not asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoRun {
    /// The level is solved already.
    Solved,
    /// At the start: there is no earlier position to go back to.
    NoEarlierPosition,
}

impl std::fmt::Display for NoRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoRun::Solved => f.write_str("the level is solved already"),
            NoRun::NoEarlierPosition => f.write_str("no earlier position to go back to"),
        }
    }
}

/// A snapshot saved or loaded, at which move.
#[derive(Debug)]
pub struct SnapshotDone {
    pub moves: u32,
    /// A data file was unusable and moved aside meanwhile.
    pub warning: Option<Warning>,
}

/// Why a snapshot could not be loaded.
#[derive(Debug)]
pub enum SnapshotError {
    /// None is saved for this level.
    NoneSaved(Option<Warning>),
    /// The saved moves do not fit this level.
    DoesNotFit(String),
    /// The file could not be read or written.
    Unreadable(String),
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotError::NoneSaved(_) => f.write_str("no snapshot saved for this level yet"),
            SnapshotError::DoesNotFit(why) => {
                write!(f, "the snapshot does not fit this level: {why}")
            }
            SnapshotError::Unreadable(why) => write!(f, "could not read the snapshot: {why}"),
        }
    }
}

impl SokobanSession {
    /// Level `index` of `set`, with the player's record from `progress`;
    /// `None` if that level did not parse.
    pub fn open(
        set: Arc<LevelSet>,
        index: usize,
        progress: &Progress,
        show_deadlocks: bool,
    ) -> Option<SokobanSession> {
        let level = set.collection.levels.get(index)?.as_ref().ok()?.clone();
        Some(SokobanSession {
            detector: DeadlockDetector::new(&level),
            record: progress.get(&level.key()).cloned(),
            game: Game::new(level),
            set,
            index,
            deadlock: None,
            show_deadlocks,
            clock: LevelClock::default(),
            thinking: None,
            next_id: 0,
            orders: Vec::new(),
            show: None,
            goal_hint: GoalHint::default(),
        })
    }

    /// Another level of the same set, with the same settings.
    pub fn open_other(&self, index: usize, progress: &Progress) -> Option<SokobanSession> {
        SokobanSession::open(Arc::clone(&self.set), index, progress, self.show_deadlocks)
    }

    pub fn set(&self) -> &Arc<LevelSet> {
        &self.set
    }

    pub fn index(&self) -> usize {
        self.index
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn level(&self) -> &Level {
        self.game.level()
    }

    /// A play-test of a level from the editor: nothing it does is recorded.
    pub fn is_play_test(&self) -> bool {
        self.set.source == Source::PlayTest
    }

    /// The title progress is recorded under (see [`level_title`]).
    pub fn title(&self) -> String {
        level_title(&self.set, self.index, self.level())
    }

    /// The heading both front ends show: `Level 3/155: Two Lanes`, or
    /// `Level 3/155` for an untitled level.
    pub fn heading(&self) -> String {
        let number = self.index + 1;
        let count = self.set.len();
        match &self.level().meta.title {
            Some(t) => format!("Level {number}/{count}: {t}"),
            None => format!("Level {number}/{count}"),
        }
    }

    /// The deadlock the last push made, when deadlocks are shown.
    pub fn deadlock(&self) -> Option<&Deadlock> {
        self.deadlock.as_ref()
    }

    /// Shows or hides which goal the solver's lower bound gives each box
    /// (kept up to date while shown); whether it is now shown.
    pub fn toggle_goal_hint(&mut self) -> bool {
        self.goal_hint.toggle(&self.game)
    }

    /// Whether the goal-assignment hint is shown.
    pub fn goal_hint_shown(&self) -> bool {
        self.goal_hint.is_shown()
    }

    /// The goal assignment for the current position, while shown; `None`
    /// also when the solver cannot take this level.
    pub fn goal_hint(&self) -> Option<&GoalAssignment> {
        self.goal_hint.assignment(&self.game)
    }

    /// The player's record on this level.
    pub fn record(&self) -> Option<&LevelProgress> {
        self.record.as_ref()
    }

    /// The player solved this level before (in any session).
    pub fn solved_before(&self) -> bool {
        self.record.as_ref().is_some_and(|r| r.solved.is_some())
    }

    /// The time spent on the level as of `now`.
    pub fn elapsed(&self, now: Instant) -> Duration {
        self.clock.elapsed(now)
    }

    /// The time counted when the clock last started or stopped (for a
    /// screen that has not been told the time yet).
    pub fn counted_time(&self) -> Duration {
        self.clock.counted()
    }

    /// Whether the level clock runs (from the first move until solved,
    /// unless paused).
    pub fn clock_running(&self) -> bool {
        self.clock.is_running()
    }

    /// The solver run the session waits for, if any.
    pub fn thinking(&self) -> Option<&Thinking> {
        self.thinking.as_ref()
    }

    /// A solve-and-show is being played (its moves can still be taken back).
    pub fn showing(&self) -> bool {
        self.show.is_some()
    }

    /// The solver orders since the last call, for the front end to carry out in order.
    pub fn take_orders(&mut self) -> Vec<SolverOrder> {
        std::mem::take(&mut self.orders)
    }

    /// One step, the player's or the solver's ("solve and show": such a
    /// solve is not the player's). A step that solves the level records the
    /// solve and returns it. The player's own step ends a solve-and-show
    /// (its moves are then kept); any step makes a solver run stale.
    ///
    /// # Errors
    /// [`NoStep`] when the step is not possible (the game is unchanged).
    pub fn step(
        &mut self,
        dir: Direction,
        by_solver: bool,
        data: &DataDir,
        now: Instant,
    ) -> Result<Option<Solved>, NoStep> {
        if self.game.is_solved() {
            return Err(NoStep::Solved);
        }
        let step = if by_solver {
            self.game.step_by_solver(dir)
        } else {
            self.game.step(dir)
        }
        .map_err(NoStep::Blocked)?;
        self.cancel_solver();
        self.show = match self.show {
            Some(run) if by_solver && run.left > 1 => Some(ShowRun {
                made: run.made + 1,
                left: run.left - 1,
            }),
            _ => None,
        };
        if step.push {
            self.check_deadlock();
        }
        self.goal_hint.update(&self.game);
        self.sync_clock(now);
        Ok(self.game.is_solved().then(|| self.on_solved(data)))
    }

    pub fn undo(&mut self, now: Instant) -> Change {
        let changed = self.game.undo();
        self.after_history_change(changed, now)
    }

    /// Redoes a step; a redo that solves the level records it again.
    pub fn redo(&mut self, data: &DataDir, now: Instant) -> Change {
        let changed = self.game.redo();
        let mut change = self.after_history_change(changed, now);
        if changed && self.game.is_solved() {
            change.solved = Some(self.on_solved(data));
        }
        change
    }

    /// Back to the start (undoable).
    pub fn restart(&mut self, now: Instant) -> Change {
        let changed = self.game.moves() > 0;
        self.game.restart();
        self.after_history_change(changed, now)
    }

    /// The shortest walk to `cell` (no pushes), for the front end to make
    /// step by step (it animates them); `None` if the player cannot get
    /// there, or `cell` is off the map.
    pub fn walk_to(&self, cell: usize) -> Option<Vec<Direction>> {
        if cell >= self.level().map().len() {
            return None;
        }
        sokoban::path::walk_to(&self.game, cell)
    }

    /// The steps that push the box on `from` to `to` with the fewest pushes,
    /// then moves; `None` if it cannot go there, or a cell is off the map.
    pub fn push_to(&self, from: usize, to: usize) -> Option<Vec<Direction>> {
        let len = self.level().map().len();
        if from >= len || to >= len {
            return None;
        }
        sokoban::path::push_to(&self.game, from, to)
    }

    /// Undoes `steps` steps at once.
    fn undo_steps(&mut self, steps: usize, now: Instant) -> Change {
        let mut changed = false;
        for _ in 0..steps {
            changed |= self.game.undo();
        }
        self.after_history_change(changed, now)
    }

    /// Asks the solver for a hint (the next push, for the player to take)
    /// or for the whole solution to show. Any run before is dropped.
    ///
    /// # Errors
    /// [`NoRun::Solved`] once the level is solved.
    pub fn ask(&mut self, purpose: Purpose) -> Result<(), NoRun> {
        if self.game.is_solved() {
            return Err(NoRun::Solved);
        }
        self.cancel_solver();
        self.show = None;
        let level = self.game.position_as_level();
        self.order(purpose, level, THINK_LIMIT, 0);
        Ok(())
    }

    /// Looks for the last position that can still be solved: the one just
    /// before the latest push, then further back while those cannot be
    /// solved either. Once found, the steps after it are undone.
    ///
    /// # Errors
    /// [`NoRun::NoEarlierPosition`] at the start.
    pub fn rewind(&mut self) -> Result<(), NoRun> {
        self.cancel_solver();
        self.show = None;
        self.rewind_from(0)
    }

    fn rewind_from(&mut self, undos: usize) -> Result<(), NoRun> {
        let (earlier, count) =
            before_last_push(&self.game, undos).ok_or(NoRun::NoEarlierPosition)?;
        self.order(
            Purpose::Rewind,
            earlier.position_as_level(),
            REWIND_LIMIT,
            count,
        );
        Ok(())
    }

    fn order(&mut self, purpose: Purpose, level: Level, limit: Duration, undos: usize) {
        self.next_id += 1;
        let id = self.next_id;
        self.thinking = Some(Thinking { id, purpose, undos });
        self.orders.push(SolverOrder::Solve(Box::new(SolveOrder {
            id,
            purpose,
            level,
            limit,
        })));
    }

    /// Drops the solver run: its answer will change nothing.
    fn cancel_solver(&mut self) {
        if self.thinking.take().is_some() {
            self.orders.push(SolverOrder::Cancel);
        }
    }

    /// Esc: stops the solver, or stops a solve-and-show and takes the
    /// solver's moves back (a hint's push is the player's to keep).
    pub fn stop(&mut self, now: Instant) -> Stopped {
        if self.thinking.is_some() {
            self.cancel_solver();
            return Stopped::Solver;
        }
        match self.show.take() {
            Some(run) => {
                self.undo_steps(run.made, now);
                Stopped::Show { undone: run.made }
            }
            None => Stopped::Nothing,
        }
    }

    /// Run `id` of the solver ended with `outcome`: what to show or play.
    /// Runs no longer wanted (stopped, made stale by a move) change
    /// nothing; a rewind may go on with another run (see [`SokobanSession::take_orders`]).
    pub fn solver_done(&mut self, id: u64, outcome: Outcome, now: Instant) -> Option<SolverAnswer> {
        let run = self.thinking.take_if(|t| t.id == id)?;
        let answer = match (run.purpose, outcome) {
            (Purpose::Hint | Purpose::Show, Outcome::Solved(solution)) => {
                let show = run.purpose == Purpose::Show;
                let steps: Vec<Direction> = if show {
                    solution.steps()
                } else {
                    solution.first_push()
                }
                .into_iter()
                .map(|(dir, _)| dir)
                .collect();
                let text = if show {
                    self.show = Some(ShowRun {
                        made: 0,
                        left: steps.len(),
                    });
                    solution_text(solution.moves, solution.pushes)
                } else {
                    hint_text(solution.pushes)
                };
                SolverAnswer::Play {
                    purpose: run.purpose,
                    steps,
                    by_solver: show,
                    moves: solution.moves,
                    pushes: solution.pushes,
                    text,
                }
            }
            (purpose @ (Purpose::Hint | Purpose::Show), Outcome::Unsolvable) => {
                SolverAnswer::Unsolvable { purpose }
            }
            (Purpose::Rewind, Outcome::Solved(_)) => {
                self.undo_steps(run.undos, now);
                SolverAnswer::Rewound {
                    undone: run.undos,
                    text: format!(
                        "Back to the last solvable position: {} undone (y redoes).",
                        steps_text(run.undos)
                    ),
                }
            }
            (Purpose::Rewind, Outcome::Unsolvable) => match self.rewind_from(run.undos) {
                Ok(()) => return None,
                Err(why) => SolverAnswer::Notice(as_sentence(&why.to_string())),
            },
            (_, Outcome::Internal(e)) => SolverAnswer::Notice(format!("The solver failed: {e}")),
            (Purpose::Rewind, _) => SolverAnswer::Notice(
                "The solver could not decide in time; undo by hand.".to_string(),
            ),
            (_, _) => SolverAnswer::Notice(format!(
                "The solver found nothing within {} s; try again from another position.",
                THINK_LIMIT.as_secs()
            )),
        };
        Some(answer)
    }

    /// Nobody is looking (the page closed): the clock stops, the solver is
    /// dropped and an unfinished solve-and-show is taken back, as Esc would.
    pub fn pause(&mut self, now: Instant) {
        self.cancel_solver();
        if let Some(run) = self.show.take() {
            self.undo_steps(run.made, now);
        }
        self.clock.pause(now);
    }

    /// Someone is looking again (a reload): the clock goes on from where it stopped.
    pub fn resume(&mut self, now: Instant) {
        let runs = self.clock_should_run();
        self.clock.resume(now, runs);
    }

    /// The next level to play: the next unsolved one (wrapping), or just
    /// the next that parsed.
    pub fn next_level(&self, progress: &Progress, unsolved: bool) -> Option<usize> {
        let unsolved = unsolved
            .then(|| next_unsolved(&self.set, self.index, progress))
            .flatten();
        unsolved.or_else(|| neighbour_level(&self.set, self.index, true))
    }

    /// The previous level that parsed.
    pub fn previous_level(&self) -> Option<usize> {
        neighbour_level(&self.set, self.index, false)
    }

    /// A replay of the player's own best solution (by moves or by pushes);
    /// never the level's stored solution.
    ///
    /// # Errors
    /// No solution of the player's, or a damaged one.
    pub fn replay(&self, progress: &Progress, by_pushes: bool) -> Result<Replay, NoReplay> {
        let (lurd, label) =
            replay_solution(progress, self.level(), by_pushes).ok_or(NoReplay::NotSolvedYet)?;
        Replay::new(self.level(), lurd, label)
    }

    /// Saves the game (every move, the undone ones too) as this level's snapshot.
    ///
    /// # Errors
    /// The snapshot file could not be written (the message says why).
    pub fn save_snapshot(&self, data: &DataDir) -> Result<SnapshotDone, String> {
        let warning =
            snapshots::save(data, &snapshot_of(&self.game)).map_err(|e| format!("{e:#}"))?;
        Ok(SnapshotDone {
            moves: self.game.moves(),
            warning,
        })
    }

    /// Goes back to this level's saved snapshot (undo and redo work).
    ///
    /// # Errors
    /// None saved, one that does not fit, or a file that cannot be read.
    pub fn load_snapshot(
        &mut self,
        data: &DataDir,
        now: Instant,
    ) -> Result<SnapshotDone, SnapshotError> {
        let (snapshot, warning) = snapshots::load(data, &self.level().key())
            .map_err(|e| SnapshotError::Unreadable(format!("{e:#}")))?;
        let Some(snapshot) = snapshot else {
            return Err(SnapshotError::NoneSaved(warning));
        };
        let game = restore_snapshot(self.level(), &snapshot)
            .map_err(|e| SnapshotError::DoesNotFit(e.to_string()))?;
        self.game = game;
        self.after_history_change(true, now);
        Ok(SnapshotDone {
            moves: self.game.moves(),
            warning,
        })
    }

    fn after_history_change(&mut self, changed: bool, now: Instant) -> Change {
        if changed {
            self.cancel_solver();
            self.show = None;
            self.check_deadlock();
            self.goal_hint.update(&self.game);
            self.sync_clock(now);
        }
        Change {
            changed,
            solved: None,
        }
    }

    fn check_deadlock(&mut self) {
        self.deadlock = if self.show_deadlocks {
            self.detector.find(&self.game)
        } else {
            None
        };
    }

    /// The clock runs from the first move until the level is solved.
    fn clock_should_run(&self) -> bool {
        self.game.moves() > 0 && !self.game.is_solved()
    }

    fn sync_clock(&mut self, now: Instant) {
        let runs = self.clock_should_run();
        self.clock.update(now, runs);
    }

    /// Records the solve just made (see [`record_solve`]) and keeps the new record.
    fn on_solved(&mut self, data: &DataDir) -> Solved {
        self.show = None;
        let solved = record_solve(data, &self.set, self.index, &self.game);
        self.record = solved.progress.get(&self.level().key()).cloned();
        solved
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::session::sokoban::library::Source;
    use crate::session::sokoban::solver_job::solve_blocking;

    fn set_of(text: &str, source: Source) -> Arc<LevelSet> {
        let mut set = LevelSet::single("Test", Level::from_xsb(text).expect("a level"));
        set.source = source;
        Arc::new(set)
    }

    const ONE_PUSH: &str = "#####\n#@$.#\n#####";
    /// Two pushes, the first two steps from the player.
    const TWO_PUSHES: &str = "#######\n#@ $ .#\n#######";

    fn data_dir() -> (tempfile::TempDir, DataDir) {
        let tmp = tempfile::tempdir().expect("a temp dir");
        let data = DataDir::at(tmp.path());
        (tmp, data)
    }

    fn open(text: &str, source: Source) -> SokobanSession {
        SokobanSession::open(set_of(text, source), 0, &Progress::default(), true).expect("opens")
    }

    /// `secs` seconds after `start`.
    fn at(start: Instant, secs: u64) -> Instant {
        start + Duration::from_secs(secs)
    }

    /// Carries out the session's orders the way a front end does (here on
    /// this thread) and hands back the last answer.
    fn run_solver(session: &mut SokobanSession, now: Instant) -> Option<SolverAnswer> {
        let mut answer = None;
        while let Some(order) = session.take_orders().into_iter().find_map(|o| match o {
            SolverOrder::Solve(order) => Some(order),
            SolverOrder::Cancel => None,
        }) {
            let report = solve_blocking(
                &order.level,
                &sokoban::solver::Options::default(),
                Some(order.limit),
                &AtomicBool::new(false),
            );
            answer = session.solver_done(order.id, report.outcome, now);
        }
        answer
    }

    /// The goal hint follows every move while shown, undo included, and
    /// is gone once hidden.
    #[test]
    fn the_goal_hint_follows_the_position_while_shown() {
        let (_tmp, data) = data_dir();
        let now = Instant::now();
        let mut session = open(TWO_PUSHES, Source::Upload);
        assert!(!session.goal_hint_shown() && session.goal_hint().is_none());
        assert!(session.toggle_goal_hint());
        let pushes = |s: &SokobanSession| s.goal_hint().and_then(|a| a.pushes);
        assert_eq!(pushes(&session), Some(2));
        session
            .step(Direction::Right, false, &data, now)
            .expect("a step");
        session
            .step(Direction::Right, false, &data, now)
            .expect("a push");
        assert_eq!(pushes(&session), Some(1));
        let goal = session.level().map().index(5, 1);
        let pair = &session.goal_hint().expect("shown").pairs[0];
        assert_eq!((pair.box_cell, pair.goal), (goal - 1, Some(goal)));
        assert!(session.undo(now).changed);
        assert_eq!(pushes(&session), Some(2));
        assert!(!session.toggle_goal_hint());
        assert!(session.goal_hint().is_none());
    }

    #[test]
    fn walks_and_pushes_are_planned_and_cells_off_the_map_refused() {
        let session = open(TWO_PUSHES, Source::Upload);
        let map = session.level().map();
        let [player, gap, box_cell, goal] = [1, 2, 3, 5].map(|column| map.index(column, 1));
        assert_eq!(session.walk_to(gap), Some(vec![Direction::Right]));
        assert_eq!(session.walk_to(player), Some(Vec::new()));
        assert_eq!(
            session.walk_to(box_cell),
            None,
            "a box is no floor to walk to"
        );
        assert_eq!(session.walk_to(usize::MAX), None);
        assert_eq!(
            session.push_to(box_cell, goal),
            Some(vec![Direction::Right; 3])
        );
        assert_eq!(session.push_to(box_cell, map.index(0, 1)), None, "a wall");
        assert_eq!(session.push_to(box_cell, map.len()), None);
        assert_eq!(session.push_to(map.len() + 7, goal), None);
    }

    #[test]
    fn a_solve_is_recorded_once_and_a_redo_records_it_again() {
        let (_tmp, data) = data_dir();
        let now = Instant::now();
        let mut session = open(ONE_PUSH, Source::Upload);
        let solved = session
            .step(Direction::Right, false, &data, now)
            .expect("a push")
            .expect("solved");
        assert!(solved.new_best.first_solve);
        assert!(session.solved_before());
        // Solved: nothing moves any more, and nothing more is recorded.
        assert_eq!(
            session.step(Direction::Left, false, &data, now).err(),
            Some(NoStep::Solved)
        );
        assert!(session.redo(&data, now).solved.is_none());
        let (progress, _) = crate::store::progress::load(&data);
        let record = progress.get(&session.level().key()).expect("recorded");
        assert_eq!(record.best_by_moves.as_ref().map(|b| b.moves), Some(1));
        // Undo after a solve plays on; the redo is a solve again, no new best.
        assert!(session.undo(now).changed);
        assert!(!session.game().is_solved());
        assert_eq!(session.game().moves(), 0);
        let again = session.redo(&data, now).solved.expect("solved again");
        assert!(!again.new_best.first_solve && !again.new_best.any());
    }

    #[test]
    fn a_play_test_and_the_solvers_moves_are_never_recorded() {
        let (_tmp, data) = data_dir();
        let now = Instant::now();
        let mut test = open(ONE_PUSH, Source::PlayTest);
        assert!(test.is_play_test());
        let solved = test
            .step(Direction::Right, false, &data, now)
            .expect("a push")
            .expect("solved");
        assert!(solved.play_test && !solved.all_solved && !solved.new_best.any());
        assert!(!test.solved_before());
        assert!(
            !crate::store::progress::load(&data)
                .0
                .is_solved(&test.level().key())
        );
        let mut shown = open(ONE_PUSH, Source::Upload);
        let solved = shown
            .step(Direction::Right, true, &data, now)
            .expect("a push")
            .expect("solved");
        assert!(solved.assisted && !shown.solved_before());
    }

    #[test]
    fn stopping_a_solve_and_show_takes_the_solvers_moves_back() {
        let (_tmp, data) = data_dir();
        let now = Instant::now();
        let mut session = open(TWO_PUSHES, Source::Upload);
        // One step of the player's own first: it stays.
        session
            .step(Direction::Right, false, &data, now)
            .expect("a step");
        session.ask(Purpose::Show).expect("asks");
        assert_eq!(session.thinking().map(|t| t.purpose), Some(Purpose::Show));
        let Some(SolverAnswer::Play {
            steps, by_solver, ..
        }) = run_solver(&mut session, now)
        else {
            panic!("a solution to show");
        };
        assert!(by_solver && steps.len() == 2, "{steps:?}");
        session
            .step(steps[0], true, &data, now)
            .expect("the solver's step");
        assert!(session.showing());
        assert_eq!(session.stop(now), Stopped::Show { undone: 1 });
        assert_eq!(session.game().moves(), 1);
        assert!(!session.game().is_assisted());
        assert_eq!(session.stop(now), Stopped::Nothing);
    }

    #[test]
    fn a_hint_is_the_players_to_keep_and_a_stopped_solver_answers_nothing() {
        let (_tmp, data) = data_dir();
        let now = Instant::now();
        let mut session = open(TWO_PUSHES, Source::Upload);
        session.ask(Purpose::Hint).expect("asks");
        let Some(SolverAnswer::Play {
            steps,
            by_solver,
            text,
            ..
        }) = run_solver(&mut session, now)
        else {
            panic!("a hint");
        };
        assert!(!by_solver && steps.len() == 2, "{steps:?}");
        assert_eq!(text, "Hint: the next push; 1 more push after it.");
        assert!(!session.showing());

        // Asked, then stopped: the late answer changes nothing.
        session.ask(Purpose::Hint).expect("asks");
        let orders = session.take_orders();
        let Some(SolverOrder::Solve(order)) = orders.last().cloned() else {
            panic!("a solve order: {orders:?}");
        };
        assert_eq!(session.stop(now), Stopped::Solver);
        assert!(matches!(
            session.take_orders().as_slice(),
            [SolverOrder::Cancel]
        ));
        let report = solve_blocking(
            &order.level,
            &sokoban::solver::Options::default(),
            None,
            &AtomicBool::new(false),
        );
        assert_eq!(session.solver_done(order.id, report.outcome, now), None);

        // A move while the solver works makes its answer stale too.
        session.ask(Purpose::Hint).expect("asks");
        session
            .step(Direction::Right, false, &data, now)
            .expect("a step");
        assert!(session.thinking().is_none());
    }

    #[test]
    fn a_rewind_goes_back_to_the_last_solvable_position() {
        let (_tmp, data) = data_dir();
        let now = Instant::now();
        // Pushing the box into the corner on the left kills it.
        let mut session = open("#######\n#     #\n# $@ .#\n#######", Source::Upload);
        session
            .step(Direction::Left, false, &data, now)
            .expect("a push");
        assert!(session.deadlock().is_some());
        session.ask(Purpose::Hint).expect("asks");
        assert_eq!(
            run_solver(&mut session, now),
            Some(SolverAnswer::Unsolvable {
                purpose: Purpose::Hint
            })
        );
        session.rewind().expect("rewinds");
        let Some(SolverAnswer::Rewound { undone, text }) = run_solver(&mut session, now) else {
            panic!("rewound");
        };
        assert_eq!(undone, 1);
        assert!(text.contains("1 step undone"), "{text}");
        assert_eq!(session.game().moves(), 0);
        assert!(session.game().can_redo() && session.deadlock().is_none());
        assert_eq!(session.rewind(), Err(NoRun::NoEarlierPosition));
    }

    #[test]
    fn the_clock_runs_from_the_first_move_until_solved_and_stops_while_paused() {
        let (_tmp, data) = data_dir();
        let start = Instant::now();
        let mut session = open(TWO_PUSHES, Source::Upload);
        assert_eq!(session.elapsed(at(start, 30)), Duration::ZERO);
        session
            .step(Direction::Right, false, &data, at(start, 10))
            .expect("a step");
        assert!(session.clock_running());
        assert_eq!(session.elapsed(at(start, 14)), Duration::from_secs(4));
        // The page closes: the clock stops; a reload goes on from there.
        session.pause(at(start, 15));
        assert!(!session.clock_running());
        assert_eq!(session.elapsed(at(start, 500)), Duration::from_secs(5));
        session.resume(at(start, 600));
        assert_eq!(session.elapsed(at(start, 602)), Duration::from_secs(7));
        for (dir, secs) in [(Direction::Right, 603), (Direction::Right, 604)] {
            session
                .step(dir, false, &data, at(start, secs))
                .expect("a step");
        }
        assert!(session.game().is_solved() && !session.clock_running());
        assert_eq!(session.elapsed(at(start, 900)), Duration::from_secs(9));
        // Undone, the level is being played again.
        session.undo(at(start, 910));
        assert_eq!(session.elapsed(at(start, 911)), Duration::from_secs(10));
    }

    #[test]
    fn closing_the_page_during_a_show_takes_the_solvers_moves_back() {
        let (_tmp, data) = data_dir();
        let now = Instant::now();
        let mut session = open(TWO_PUSHES, Source::Upload);
        session.ask(Purpose::Show).expect("asks");
        let Some(SolverAnswer::Play { steps, .. }) = run_solver(&mut session, now) else {
            panic!("a solution to show");
        };
        session.step(steps[0], true, &data, now).expect("a step");
        session.pause(now);
        assert_eq!(session.game().moves(), 0);
        assert!(!session.showing());
    }

    #[test]
    fn a_replay_is_the_players_best_only() {
        let (_tmp, data) = data_dir();
        let now = Instant::now();
        let mut session = open(ONE_PUSH, Source::Upload);
        assert_eq!(
            session.replay(&Progress::default(), false).err(),
            Some(NoReplay::NotSolvedYet)
        );
        let solved = session
            .step(Direction::Right, false, &data, now)
            .expect("a push")
            .expect("solved");
        let replay = session.replay(&solved.progress, true).expect("a replay");
        assert_eq!(
            (replay.lurd(), replay.label()),
            ("R", "your best by pushes")
        );
    }

    #[test]
    fn a_snapshot_comes_back_with_its_undone_moves() {
        let (_tmp, data) = data_dir();
        let now = Instant::now();
        let mut session = open("######\n#@ $.#\n######", Source::Upload);
        assert!(matches!(
            session.load_snapshot(&data, now),
            Err(SnapshotError::NoneSaved(_))
        ));
        session
            .step(Direction::Right, false, &data, now)
            .expect("a step");
        session.undo(now);
        assert_eq!(session.save_snapshot(&data).expect("saves").moves, 0);
        session
            .step(Direction::Right, false, &data, now)
            .expect("a step");
        session
            .step(Direction::Right, false, &data, now)
            .expect("a push");
        let loaded = session.load_snapshot(&data, now).expect("loads");
        assert_eq!(loaded.moves, 0);
        assert!(session.game().can_redo());
    }
}
