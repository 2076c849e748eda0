//! The Sokoban session: one level being played, as the terminal's play
//! screen and the browser's socket both drive it. It owns the level and its
//! set, the game with its undo history, the deadlock warning, the player's
//! record on the level, recording a solve (once per solve, never for a
//! play-test or the solver's moves), snapshots, the replay of the player's
//! own best, and moving to another level of the set. Animations, the level
//! clock and the solver's thread stay with the front ends, which pass in
//! what they need.

use std::sync::Arc;

use sokoban::solver::{Deadlock, DeadlockDetector};
use sokoban::{Blocked, Direction, Game, Level};

use super::library::LevelSet;
use super::{
    Solved, level_title, neighbour_level, next_unsolved, record_solve, replay_solution,
    restore_snapshot, snapshot_of,
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

    /// The title progress is recorded under (see [`level_title`]).
    pub fn title(&self) -> String {
        level_title(&self.set, self.index, self.level())
    }

    /// The deadlock the last push made, when deadlocks are shown.
    pub fn deadlock(&self) -> Option<&Deadlock> {
        self.deadlock.as_ref()
    }

    /// The player's record on this level.
    pub fn record(&self) -> Option<&LevelProgress> {
        self.record.as_ref()
    }

    /// The player solved this level before (in any session).
    pub fn solved_before(&self) -> bool {
        self.record.as_ref().is_some_and(|r| r.solved.is_some())
    }

    /// One step, the player's or the solver's ("solve and show": such a
    /// solve is not the player's). A step that solves the level records the
    /// solve and returns it.
    ///
    /// # Errors
    /// [`NoStep`] when the step is not possible (the game is unchanged).
    pub fn step(
        &mut self,
        dir: Direction,
        by_solver: bool,
        data: &DataDir,
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
        if step.push {
            self.check_deadlock();
        }
        Ok(self.game.is_solved().then(|| self.on_solved(data)))
    }

    pub fn undo(&mut self) -> Change {
        let changed = self.game.undo();
        self.after_history_change(changed)
    }

    /// Redoes a step; a redo that solves the level records it again.
    pub fn redo(&mut self, data: &DataDir) -> Change {
        let changed = self.game.redo();
        let mut change = self.after_history_change(changed);
        if changed && self.game.is_solved() {
            change.solved = Some(self.on_solved(data));
        }
        change
    }

    /// Back to the start (undoable).
    pub fn restart(&mut self) -> Change {
        let changed = self.game.moves() > 0;
        self.game.restart();
        self.after_history_change(changed)
    }

    /// Undoes `steps` steps at once (back to the last solvable position).
    pub fn undo_steps(&mut self, steps: usize) -> Change {
        let mut changed = false;
        for _ in 0..steps {
            changed |= self.game.undo();
        }
        self.after_history_change(changed)
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

    /// The player's own best solution to replay (by moves or by pushes),
    /// with a label saying which; never the level's stored solution.
    pub fn best_to_replay(
        &self,
        progress: &Progress,
        by_pushes: bool,
    ) -> Option<(String, &'static str)> {
        replay_solution(progress, self.level(), by_pushes)
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
    pub fn load_snapshot(&mut self, data: &DataDir) -> Result<SnapshotDone, SnapshotError> {
        let (snapshot, warning) = snapshots::load(data, &self.level().key())
            .map_err(|e| SnapshotError::Unreadable(format!("{e:#}")))?;
        let Some(snapshot) = snapshot else {
            return Err(SnapshotError::NoneSaved(warning));
        };
        let game = restore_snapshot(self.level(), &snapshot)
            .map_err(|e| SnapshotError::DoesNotFit(e.to_string()))?;
        self.game = game;
        self.after_history_change(true);
        Ok(SnapshotDone {
            moves: self.game.moves(),
            warning,
        })
    }

    fn after_history_change(&mut self, changed: bool) -> Change {
        if changed {
            self.check_deadlock();
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

    /// Records the solve just made (see [`record_solve`]) and keeps the new record.
    fn on_solved(&mut self, data: &DataDir) -> Solved {
        let solved = record_solve(data, &self.set, self.index, &self.game);
        self.record = solved.progress.get(&self.level().key()).cloned();
        solved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::sokoban::library::Source;

    fn set_of(text: &str, source: Source) -> Arc<LevelSet> {
        let mut set = LevelSet::single("Test", Level::from_xsb(text).expect("a level"));
        set.source = source;
        Arc::new(set)
    }

    const ONE_PUSH: &str = "#####\n#@$.#\n#####";

    fn data_dir() -> (tempfile::TempDir, DataDir) {
        let tmp = tempfile::tempdir().expect("a temp dir");
        let data = DataDir::at(tmp.path());
        (tmp, data)
    }

    #[test]
    fn a_solve_is_recorded_once_and_a_redo_records_it_again() {
        let (_tmp, data) = data_dir();
        let set = set_of(ONE_PUSH, Source::Upload);
        let mut session = SokobanSession::open(set, 0, &Progress::default(), true).expect("opens");
        let solved = session
            .step(Direction::Right, false, &data)
            .expect("a push")
            .expect("solved");
        assert!(solved.new_best.first_solve);
        assert!(session.solved_before());
        // Solved: nothing moves any more.
        assert_eq!(
            session.step(Direction::Left, false, &data).err(),
            Some(NoStep::Solved)
        );
        assert!(session.undo().changed);
        let again = session.redo(&data).solved.expect("solved again");
        assert!(!again.new_best.first_solve);
    }

    #[test]
    fn a_play_test_and_the_solvers_moves_are_never_recorded() {
        let (_tmp, data) = data_dir();
        let mut test = SokobanSession::open(
            set_of(ONE_PUSH, Source::PlayTest),
            0,
            &Progress::default(),
            true,
        )
        .expect("opens");
        let solved = test.step(Direction::Right, false, &data).unwrap().unwrap();
        assert!(solved.play_test && !solved.all_solved);
        assert!(!test.solved_before());
        let mut shown = SokobanSession::open(
            set_of(ONE_PUSH, Source::Upload),
            0,
            &Progress::default(),
            true,
        )
        .expect("opens");
        let solved = shown.step(Direction::Right, true, &data).unwrap().unwrap();
        assert!(solved.assisted && !shown.solved_before());
    }

    #[test]
    fn a_snapshot_comes_back_with_its_undone_moves() {
        let (_tmp, data) = data_dir();
        let set = set_of("######\n#@ $.#\n######", Source::Upload);
        let mut session = SokobanSession::open(set, 0, &Progress::default(), true).expect("opens");
        assert!(matches!(
            session.load_snapshot(&data),
            Err(SnapshotError::NoneSaved(_))
        ));
        session.step(Direction::Right, false, &data).unwrap();
        session.undo();
        assert_eq!(session.save_snapshot(&data).unwrap().moves, 0);
        session.step(Direction::Right, false, &data).unwrap();
        session.step(Direction::Right, false, &data).unwrap();
        let loaded = session.load_snapshot(&data).expect("loads");
        assert_eq!(loaded.moves, 0);
        assert!(session.game().can_redo());
    }
}
