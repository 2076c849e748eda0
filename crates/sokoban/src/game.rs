//! Playing a level: moves and pushes, counters, solved detection, and an
//! unlimited undo/redo history stored as steps, not board snapshots.

use std::fmt;

use crate::Direction;
use crate::level::Level;
use crate::lurd::{self, Written};

/// One applied step: a direction and whether it pushed a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub dir: Direction,
    pub push: bool,
}

/// Why a step could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// A wall (or the edge of the map) is in the way.
    Wall,
    /// The box in the way cannot move: a wall or another box is behind it.
    Box,
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocked::Wall => write!(f, "a wall is in the way"),
            Blocked::Box => write!(f, "the box cannot move that way"),
        }
    }
}

/// Why a LURD solution could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    Parse(crate::ParseError),
    /// Step `step` (1-based) ran into something.
    Blocked {
        step: usize,
        why: Blocked,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Parse(e) => write!(f, "{e}"),
            ReplayError::Blocked { step, why } => write!(f, "step {step}: {why}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// History entries: a step, or a restart (so restart can be undone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// `by_solver`: the solver made the step (solve and show), not the player,
    /// so a solve through it is not the player's own.
    Step {
        step: Step,
        by_solver: bool,
    },
    Restart,
}

/// A level being played.
///
/// ```
/// use sokoban::{Direction, Game, Level};
/// let mut game = Game::new(Level::from_xsb("#####\n#@$.#\n#####")?);
/// game.step(Direction::Right).unwrap();
/// assert!(game.is_solved());
/// game.undo();
/// assert_eq!((game.moves(), game.pushes()), (0, 0));
/// # Ok::<(), sokoban::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    level: Level,
    player: usize,
    has_box: Vec<bool>,
    boxes_on_goals: usize,
    moves: u32,
    pushes: u32,
    facing: Direction,
    history: Vec<Entry>,
    /// Entries `history[..cursor]` are applied; the rest can be redone.
    cursor: usize,
}

impl Game {
    pub fn new(level: Level) -> Game {
        let mut game = Game {
            player: level.player(),
            has_box: vec![false; level.map().len()],
            boxes_on_goals: 0,
            moves: 0,
            pushes: 0,
            facing: Direction::Down,
            history: Vec::new(),
            cursor: 0,
            level,
        };
        game.reset_to_start();
        game
    }

    /// A game with `lurd` played from the start. Extra steps after
    /// `position` are kept as redo history (as a saved snapshot stores them).
    pub fn restore(level: Level, lurd: &str, position: usize) -> Result<Game, ReplayError> {
        Game::restore_marked(level, lurd, position, &[])
    }

    /// [`Game::restore`], with the steps at indices `by_solver` (0-based,
    /// into `lurd`) marked as the solver's, as [`Game::solver_steps`] lists them.
    pub fn restore_marked(
        level: Level,
        lurd: &str,
        position: usize,
        by_solver: &[usize],
    ) -> Result<Game, ReplayError> {
        let mut game = Game::new(level);
        game.play_lurd(lurd)?;
        for &i in by_solver {
            if let Some(Entry::Step { by_solver, .. }) = game.history.get_mut(i) {
                *by_solver = true;
            }
        }
        while game.moves() as usize > position && game.undo() {}
        Ok(game)
    }

    fn reset_to_start(&mut self) {
        self.has_box.iter_mut().for_each(|b| *b = false);
        for &b in self.level.boxes() {
            self.has_box[b] = true;
        }
        self.player = self.level.player();
        self.boxes_on_goals = self
            .level
            .boxes()
            .iter()
            .filter(|&&b| self.level.map().is_goal(b))
            .count();
        self.moves = 0;
        self.pushes = 0;
        self.facing = Direction::Down;
    }

    pub fn level(&self) -> &Level {
        &self.level
    }

    pub fn player(&self) -> usize {
        self.player
    }

    /// The way the player last moved (for drawing a player who faces it).
    pub fn facing(&self) -> Direction {
        self.facing
    }

    pub fn has_box(&self, cell: usize) -> bool {
        self.has_box.get(cell).copied().unwrap_or(false)
    }

    /// The current position as a level of its own (same map, the player and
    /// boxes where they are now), e.g. to solve from here.
    pub fn position_as_level(&self) -> Level {
        self.level.with_position(self.player, self.boxes())
    }

    /// Box cells, in increasing order.
    pub fn boxes(&self) -> Vec<usize> {
        (0..self.has_box.len())
            .filter(|&i| self.has_box[i])
            .collect()
    }

    /// Whether `cell` is free floor for walking (no wall, no box).
    pub fn is_free(&self, cell: usize) -> bool {
        self.level.map().is_walkable(cell) && !self.has_box(cell)
    }

    pub fn moves(&self) -> u32 {
        self.moves
    }

    pub fn pushes(&self) -> u32 {
        self.pushes
    }

    pub fn boxes_on_goals(&self) -> usize {
        self.boxes_on_goals
    }

    pub fn box_count(&self) -> usize {
        self.level.boxes().len()
    }

    /// Solved when every box is on a goal; counted as boxes move, not rescanned.
    pub fn is_solved(&self) -> bool {
        self.boxes_on_goals == self.box_count()
    }

    /// What stepping in `dir` would do, without doing it.
    pub fn try_step(&self, dir: Direction) -> Result<Step, Blocked> {
        let map = self.level.map();
        let target = map
            .neighbor(self.player, dir)
            .filter(|&t| map.is_walkable(t))
            .ok_or(Blocked::Wall)?;
        if !self.has_box[target] {
            return Ok(Step { dir, push: false });
        }
        match map.neighbor(target, dir) {
            Some(beyond) if self.is_free(beyond) => Ok(Step { dir, push: true }),
            _ => Err(Blocked::Box),
        }
    }

    /// Moves the player one cell, pushing a box if one is in the way.
    /// A new step discards the redo history, unless it is the step redo
    /// would have made.
    pub fn step(&mut self, dir: Direction) -> Result<Step, Blocked> {
        self.step_by(dir, false)
    }

    /// [`Game::step`] for a step the solver makes (solve and show): a line
    /// holding one is not the player's own solve ([`Game::is_assisted`]).
    pub fn step_by_solver(&mut self, dir: Direction) -> Result<Step, Blocked> {
        self.step_by(dir, true)
    }

    fn step_by(&mut self, dir: Direction, by_solver: bool) -> Result<Step, Blocked> {
        let step = self.try_step(dir)?;
        self.apply(step);
        let entry = Entry::Step { step, by_solver };
        match self.history.get_mut(self.cursor) {
            Some(Entry::Step {
                step: next,
                by_solver: was,
            }) if *next == step => {
                *was = by_solver;
            }
            _ => {
                self.history.truncate(self.cursor);
                self.history.push(entry);
            }
        }
        self.cursor += 1;
        Ok(step)
    }

    /// Whether the solver made any step of the current line: a solve reached
    /// through it is the solver's, not the player's.
    pub fn is_assisted(&self) -> bool {
        self.history[self.line_start()..self.cursor]
            .iter()
            .any(|e| {
                matches!(
                    e,
                    Entry::Step {
                        by_solver: true,
                        ..
                    }
                )
            })
    }

    /// Which steps of [`Game::lurd_with_redo`] the solver made (0-based), for
    /// [`Game::restore_marked`].
    pub fn solver_steps(&self) -> Vec<usize> {
        self.line_and_redo()
            .enumerate()
            .filter(|(_, (_, by_solver))| *by_solver)
            .map(|(i, _)| i)
            .collect()
    }

    fn apply(&mut self, step: Step) {
        let map = self.level.map();
        let Some(target) = map.neighbor(self.player, step.dir) else {
            return;
        };
        if step.push
            && let Some(beyond) = map.neighbor(target, step.dir)
        {
            self.has_box[target] = false;
            self.has_box[beyond] = true;
            self.boxes_on_goals = self.boxes_on_goals + usize::from(map.is_goal(beyond))
                - usize::from(map.is_goal(target));
            self.pushes += 1;
        }
        self.player = target;
        self.moves += 1;
        self.facing = step.dir;
    }

    fn unapply(&mut self, step: Step) {
        let map = self.level.map();
        let Some(back) = map.neighbor(self.player, step.dir.opposite()) else {
            return;
        };
        if step.push
            && let Some(boxed) = map.neighbor(self.player, step.dir)
        {
            self.has_box[boxed] = false;
            self.has_box[self.player] = true;
            self.boxes_on_goals = self.boxes_on_goals + usize::from(map.is_goal(self.player))
                - usize::from(map.is_goal(boxed));
            self.pushes -= 1;
        }
        self.player = back;
        self.moves -= 1;
        self.facing = step.dir;
    }

    /// Undoes the last step or restart. Returns false when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        let Some(cursor) = self.cursor.checked_sub(1) else {
            return false;
        };
        self.cursor = cursor;
        match self.history[cursor] {
            Entry::Step { step, .. } => self.unapply(step),
            Entry::Restart => self.replay_current_line(),
        }
        true
    }

    /// Redoes the next undone step or restart. Returns false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(&entry) = self.history.get(self.cursor) else {
            return false;
        };
        self.cursor += 1;
        match entry {
            Entry::Step { step, .. } => self.apply(step),
            Entry::Restart => self.reset_to_start(),
        }
        true
    }

    /// Back to the start position; undo brings the position back.
    pub fn restart(&mut self) {
        if self.moves == 0 {
            return;
        }
        self.history.truncate(self.cursor);
        self.history.push(Entry::Restart);
        self.cursor += 1;
        self.reset_to_start();
    }

    /// Where the line being played starts: just after the last applied restart.
    fn line_start(&self) -> usize {
        self.history[..self.cursor]
            .iter()
            .rposition(|e| *e == Entry::Restart)
            .map_or(0, |p| p + 1)
    }

    fn replay_current_line(&mut self) {
        self.reset_to_start();
        let start = self.line_start();
        for i in start..self.cursor {
            if let Entry::Step { step, .. } = self.history[i] {
                self.apply(step);
            }
        }
    }

    /// The steps from the start to the current position.
    pub fn steps(&self) -> Vec<Step> {
        self.history[self.line_start()..self.cursor]
            .iter()
            .filter_map(|e| match e {
                Entry::Step { step, .. } => Some(*step),
                Entry::Restart => None,
            })
            .collect()
    }

    /// The steps redo would make, up to the next restart.
    pub fn redo_steps(&self) -> Vec<Step> {
        self.history[self.cursor..]
            .iter()
            .map_while(|e| match e {
                Entry::Step { step, .. } => Some(*step),
                Entry::Restart => None,
            })
            .collect()
    }

    /// The current line and what redo would replay, each step with whether
    /// the solver made it.
    fn line_and_redo(&self) -> impl Iterator<Item = (Step, bool)> + '_ {
        self.history[self.line_start()..]
            .iter()
            .map_while(|e| match e {
                Entry::Step { step, by_solver } => Some((*step, *by_solver)),
                Entry::Restart => None,
            })
    }

    /// The current line as LURD text (the solution, once solved).
    pub fn lurd(&self) -> String {
        lurd::write(self.steps().into_iter().map(|s| (s.dir, s.push)))
    }

    /// The current line followed by what redo would replay, as LURD.
    pub fn lurd_with_redo(&self) -> String {
        let all = self.steps().into_iter().chain(self.redo_steps());
        lurd::write(all.map(|s| (s.dir, s.push)))
    }

    pub fn can_undo(&self) -> bool {
        self.cursor > 0
    }

    pub fn can_redo(&self) -> bool {
        self.cursor < self.history.len()
    }

    /// Plays LURD text from the current position. If the text has any upper
    /// case letter the case must match what happens; all-lower-case text
    /// pushes wherever a box is in the way.
    pub fn play_lurd(&mut self, text: &str) -> Result<(), ReplayError> {
        let written = lurd::parse(text).map_err(ReplayError::Parse)?;
        self.play_written(&written)
    }

    /// Replays written steps. A letter's case (move or push) is not held
    /// against it: the board decides which steps push, as other tools read
    /// solutions (`rrr` and `RRR` replay alike).
    pub(crate) fn play_written(&mut self, written: &[Written]) -> Result<(), ReplayError> {
        for (i, &(dir, _)) in written.iter().enumerate() {
            self.step(dir)
                .map_err(|why| ReplayError::Blocked { step: i + 1, why })?;
        }
        Ok(())
    }
}

/// The outcome of replaying a solution from a level's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub solved: bool,
    pub moves: u32,
    pub pushes: u32,
}

/// Replays `lurd` from the start of `level` and says whether it solves it.
///
/// ```
/// let level = sokoban::Level::from_xsb("######\n#@$ .#\n######")?;
/// let verdict = sokoban::verify(&level, "RR").unwrap();
/// assert!(verdict.solved);
/// assert_eq!((verdict.moves, verdict.pushes), (2, 2));
/// # Ok::<(), sokoban::ParseError>(())
/// ```
pub fn verify(level: &Level, lurd: &str) -> Result<Verdict, ReplayError> {
    let mut game = Game::new(level.clone());
    game.play_lurd(lurd)?;
    Ok(Verdict {
        solved: game.is_solved(),
        moves: game.moves(),
        pushes: game.pushes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corridor() -> Game {
        Game::new(Level::from_xsb("#######\n#@ $ .#\n#######").unwrap())
    }

    #[test]
    fn a_solution_replays_whatever_the_case_of_its_letters() {
        let level = Level::from_xsb("#######\n#@ $ .#\n#######").unwrap();
        for lurd in ["rrr", "RRR", "rRR", "Rrr"] {
            let v = verify(&level, lurd).unwrap();
            assert!(v.solved && v.pushes == 2 && v.moves == 3, "{lurd}");
        }
    }

    #[test]
    fn a_solve_through_a_solver_step_is_assisted() {
        let mut game = corridor();
        game.step(Direction::Right).unwrap();
        assert!(!game.is_assisted());
        game.step_by_solver(Direction::Right).unwrap();
        game.step_by_solver(Direction::Right).unwrap();
        assert!(game.is_solved() && game.is_assisted());
        assert_eq!(game.solver_steps(), vec![1, 2]);
    }

    #[test]
    fn undoing_the_solver_steps_and_playing_them_yourself_is_not_assisted() {
        let mut game = corridor();
        game.step_by_solver(Direction::Right).unwrap();
        game.undo();
        assert!(!game.is_assisted(), "an undone solver step does not count");
        game.redo();
        assert!(game.is_assisted(), "redo brings the solver's step back");
        game.undo();
        game.step(Direction::Right).unwrap();
        assert!(
            !game.is_assisted(),
            "the player's own step replaces the mark"
        );
        assert!(game.solver_steps().is_empty());
    }

    #[test]
    fn a_restart_leaves_the_solver_steps_behind() {
        let mut game = corridor();
        game.step_by_solver(Direction::Right).unwrap();
        game.restart();
        assert!(!game.is_assisted());
        game.undo();
        assert!(game.is_assisted(), "undoing the restart brings them back");
    }
}
