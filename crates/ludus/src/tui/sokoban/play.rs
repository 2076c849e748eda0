//! The play screen: the board, a status bar, and every key of the game —
//! moving, undo/redo, restart, levels, snapshots, cursor mode, replays.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use sokoban::solver::{self, Deadlock, Outcome};
use sokoban::{Direction, Game, Level, path};

use super::board::BoardView;
use crate::session::sokoban as flow;
use crate::session::sokoban::NewBest;
use crate::session::sokoban::library::{LevelSet, Source};
use crate::session::sokoban::play::{SnapshotError, SokobanSession};
use crate::session::sokoban::solver_job::{self, SolveJob};
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{clock, highlight, key_hints, popup};

/// Every key of the play screen, for the help overlay (and the README).
pub const KEYS: [(&str, &str); 18] = [
    ("←↑→↓  WASD  hjkl", "move / push"),
    ("u  z  Backspace", "undo"),
    ("y  Ctrl-R", "redo"),
    ("r", "restart (undoable)"),
    ("n  p", "next / previous level"),
    ("S  Ctrl-S", "save a snapshot of this level"),
    ("L  Ctrl-L", "load the saved snapshot"),
    ("H", "hint: the solver makes the next push (Esc stops it)"),
    ("A", "solve and show: the solver plays to the end"),
    ("c", "cursor mode: walk to a cell / push a box"),
    ("  arrows", "  move the cursor"),
    ("  Enter  Space", "  pick a box, then its target; or walk"),
    ("  Esc  c", "  leave cursor mode"),
    ("v  V", "replay your best solution (by moves / pushes)"),
    ("  Space  ←  →", "  pause, step back, step forward"),
    ("  +  -", "  faster, slower"),
    ("?", "this help"),
    ("q  Esc", "back to the level list"),
];

/// What the screen is doing besides showing the board.
enum Mode {
    Playing,
    Help,
    Solved {
        new_best: NewBest,
        all_solved: bool,
        /// The solver made some of the moves, so nothing was recorded.
        assisted: bool,
    },
    Cursor {
        cell: usize,
        selected: Option<usize>,
    },
    Replay(Box<Replay>),
    /// The solver works on a thread; the screen shows its progress.
    Thinking {
        job: SolveJob,
        purpose: Purpose,
    },
    /// The position cannot be solved; Enter rewinds to the last one that can.
    Unsolvable,
}

/// What a solver run is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Hint,
    Show,
    /// Checking positions back in the history, `undos` steps back from now.
    Rewind {
        undos: usize,
    },
}

/// How long a hint or a solve-and-show may think.
const THINK_LIMIT: Duration = Duration::from_secs(10);

/// Watching a stored solution.
struct Replay {
    game: Game,
    steps: Vec<Direction>,
    position: usize,
    paused: bool,
    step_ms: u64,
    next_at: Option<Instant>,
    label: &'static str,
}

pub struct Play {
    /// The level, its game and record: the flow both front ends share.
    session: SokobanSession,
    mode: Mode,
    /// Steps still to animate (a cursor walk, a hint, or the solver's
    /// solution), each with whether the solver makes it (solve and show).
    queue: VecDeque<(Direction, bool)>,
    /// Steps the solver has made of the solution being shown, for Esc to take back.
    shown_steps: usize,
    next_step_at: Option<Instant>,
    /// Time spent on this level; runs from the first move until solved.
    elapsed: Duration,
    last_tick: Option<Instant>,
    message: Option<String>,
}

impl Play {
    /// Opens level `index` of `set`; `None` if it did not parse.
    pub fn new(set: Arc<LevelSet>, index: usize, ctx: &Ctx) -> Option<Play> {
        let show_deadlocks = ctx.settings.sokoban.show_deadlocks;
        let session = SokobanSession::open(set, index, &ctx.progress, show_deadlocks)?;
        let mut play = Play {
            session,
            mode: Mode::Playing,
            queue: VecDeque::new(),
            shown_steps: 0,
            next_step_at: None,
            elapsed: Duration::ZERO,
            last_tick: None,
            message: None,
        };
        if play.session.solved_before() {
            play.message = Some("You have solved this level before; try to beat your best.".into());
        }
        Some(play)
    }

    fn level(&self) -> &Level {
        self.session.level()
    }

    fn title(&self) -> String {
        let number = self.session.index() + 1;
        let count = self.session.set().len();
        match &self.level().meta.title {
            Some(t) => format!("Level {number}/{count}: {t}"),
            None => format!("Level {number}/{count}"),
        }
    }

    /// Moves to another level of the set, skipping levels with errors.
    fn go_to(&mut self, forward: bool, ctx: &mut Ctx) -> bool {
        let len = self.session.set().len();
        let mut i = self.session.index();
        loop {
            i = if forward {
                i + 1
            } else {
                match i.checked_sub(1) {
                    Some(i) => i,
                    None => return false,
                }
            };
            if i >= len {
                return false;
            }
            if let Some(next) = Play::new(Arc::clone(self.session.set()), i, ctx) {
                *self = next;
                ctx.settings.sokoban.last_level = Some(i);
                ctx.save_settings();
                return true;
            }
        }
    }

    /// The next level not yet solved after this one (wrapping), if any.
    fn next_unsolved(&self, ctx: &Ctx) -> Option<usize> {
        flow::next_unsolved(self.session.set(), self.session.index(), &ctx.progress)
    }

    fn step(&mut self, dir: Direction, by_solver: bool, ctx: &mut Ctx) {
        match self.session.step(dir, by_solver, &ctx.data) {
            Ok(solved) => {
                if by_solver {
                    self.shown_steps += 1;
                }
                if let Some(solved) = solved {
                    self.on_solved(solved, ctx);
                }
            }
            Err(_) => self.queue.clear(),
        }
    }

    /// The session recorded a solve: show what it achieved.
    fn on_solved(&mut self, solved: flow::Solved, ctx: &mut Ctx) {
        self.queue.clear();
        ctx.notices.extend(solved.problems);
        ctx.progress = solved.progress;
        self.mode = Mode::Solved {
            new_best: solved.new_best,
            all_solved: solved.all_solved,
            assisted: solved.assisted,
        };
    }

    fn undo(&mut self) {
        if self.session.undo().changed {
            self.after_history_change();
        }
    }

    fn redo(&mut self, ctx: &mut Ctx) {
        let change = self.session.redo(&ctx.data);
        if change.changed {
            self.after_history_change();
        }
        if let Some(solved) = change.solved {
            self.on_solved(solved, ctx);
        }
    }

    fn change_level(&mut self, forward: bool, ctx: &mut Ctx) {
        if !self.go_to(forward, ctx) {
            let edge = if forward { "last" } else { "first" };
            self.message = Some(format!("This is the {edge} level."));
        }
    }

    fn after_history_change(&mut self) {
        self.queue.clear();
        self.message = None;
    }

    fn save_snapshot(&mut self, ctx: &mut Ctx) {
        self.message = Some(match self.session.save_snapshot(&ctx.data) {
            Ok(saved) => {
                ctx.warn(saved.warning);
                format!("Snapshot saved at move {}.", saved.moves)
            }
            Err(e) => format!("Could not save the snapshot: {e}"),
        });
    }

    fn load_snapshot(&mut self, ctx: &mut Ctx) {
        let loaded = self.session.load_snapshot(&ctx.data);
        self.message = Some(match loaded {
            Ok(loaded) => {
                ctx.warn(loaded.warning);
                self.after_history_change();
                format!(
                    "Snapshot loaded: move {} (undo and redo work).",
                    loaded.moves
                )
            }
            Err(SnapshotError::NoneSaved(warning)) => {
                ctx.warn(warning);
                "No snapshot saved for this level yet (S saves one).".to_string()
            }
            Err(SnapshotError::DoesNotFit(why)) => {
                format!("The snapshot does not fit this level: {why}")
            }
            Err(SnapshotError::Unreadable(why)) => format!("Could not load the snapshot: {why}"),
        });
    }

    fn start_replay(&mut self, by_pushes: bool, ctx: &Ctx) {
        let Some((lurd, label)) = self.session.best_to_replay(&ctx.progress, by_pushes) else {
            self.message =
                Some("No solution of yours to replay yet: solve the level first.".into());
            return;
        };
        match sokoban::lurd::parse(&lurd) {
            Ok(steps) => {
                self.mode = Mode::Replay(Box::new(Replay {
                    game: Game::new(self.session.level().clone()),
                    steps: steps.into_iter().map(|(d, _)| d).collect(),
                    position: 0,
                    paused: false,
                    step_ms: u64::from(ctx.settings.sokoban.animation_ms.max(30)) * 2,
                    next_at: None,
                    label,
                }));
            }
            Err(e) => self.message = Some(format!("The stored solution is damaged: {e}")),
        }
    }

    /// Starts the solver on the current position, for a hint or to show a
    /// solution to the end.
    fn think(&mut self, purpose: Purpose) {
        if self.session.game().is_solved() {
            self.message = Some("The level is solved already.".into());
            return;
        }
        let limit = if matches!(purpose, Purpose::Rewind { .. }) {
            flow::REWIND_LIMIT
        } else {
            THINK_LIMIT
        };
        let job = SolveJob::from_game(
            self.session.game(),
            solver_job::for_one_player(),
            Some(limit),
        );
        self.queue.clear();
        self.mode = Mode::Thinking { job, purpose };
    }

    /// Looks for the last solvable position: the one just before the latest
    /// push at least `undos` steps back.
    fn rewind_from(&mut self, undos: usize) {
        let Some((earlier, count)) = flow::before_last_push(self.session.game(), undos) else {
            self.message = Some("No earlier position to go back to.".into());
            return;
        };
        let job = SolveJob::from_game(
            &earlier,
            solver_job::for_one_player(),
            Some(flow::REWIND_LIMIT),
        );
        self.mode = Mode::Thinking {
            job,
            purpose: Purpose::Rewind { undos: count },
        };
    }

    fn on_solver_answer(&mut self, purpose: Purpose, outcome: Outcome) {
        // The hint's push is the player's to take; the whole solution is the solver's.
        let steps = |s: &solver::Solution, all: bool| -> Vec<(Direction, bool)> {
            let steps = if all { s.steps() } else { s.first_push() };
            steps.into_iter().map(|(d, _)| (d, all)).collect()
        };
        match (purpose, outcome) {
            (Purpose::Hint, Outcome::Solved(s)) => {
                self.queue.extend(steps(&s, false));
                self.message = Some(flow::hint_text(s.pushes));
            }
            (Purpose::Show, Outcome::Solved(s)) => {
                self.shown_steps = 0;
                self.queue.extend(steps(&s, true));
                self.message = Some(flow::solution_text(s.moves, s.pushes));
            }
            (Purpose::Hint | Purpose::Show, Outcome::Unsolvable) => {
                self.mode = Mode::Unsolvable;
                self.message = Some("This position cannot be solved any more. Enter: back to the last one that can.".into());
            }
            (Purpose::Rewind { undos }, Outcome::Solved(_)) => {
                self.session.undo_steps(undos);
                let steps = if undos == 1 {
                    "1 step".to_string()
                } else {
                    format!("{undos} steps")
                };
                self.message = Some(format!(
                    "Back to the last solvable position: {steps} undone (y redoes)."
                ));
            }
            (Purpose::Rewind { undos }, Outcome::Unsolvable) => self.rewind_from(undos),
            (_, Outcome::Internal(e)) => self.message = Some(format!("The solver failed: {e}")),
            (_, _) => {
                let secs = THINK_LIMIT.as_secs();
                self.message = Some(format!(
                    "The solver found nothing within {secs} s; try again from another position."
                ));
            }
        }
    }

    fn on_key_solved(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        match key.code {
            KeyCode::Enter | KeyCode::Char('n') | KeyCode::Char(' ') => {
                let (index, len) = (self.session.index(), self.session.set().len());
                let target = self.next_unsolved(ctx).unwrap_or(index + 1);
                if target < len {
                    let forward = target > index;
                    let mut guard = 0;
                    while self.session.index() != target && guard < len && self.go_to(forward, ctx)
                    {
                        guard += 1;
                    }
                } else {
                    self.mode = Mode::Playing;
                    self.message = Some("That was the last level of this collection.".into());
                }
            }
            KeyCode::Char('q') | KeyCode::Esc if key.code == KeyCode::Char('q') => {
                return Action::Pop;
            }
            KeyCode::Char('r') => {
                self.session.restart();
                self.mode = Mode::Playing;
                self.after_history_change();
            }
            KeyCode::Char('u') | KeyCode::Char('z') | KeyCode::Backspace => {
                self.mode = Mode::Playing;
                self.undo();
            }
            _ => self.mode = Mode::Playing,
        }
        Action::None
    }

    fn on_key_playing(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if let Some(dir) = direction_of(key) {
            self.message = None;
            self.step(dir, false, ctx);
            return Action::None;
        }
        match key.code {
            KeyCode::Char('r') if ctrl => self.redo(ctx),
            KeyCode::Char('s') if ctrl => self.save_snapshot(ctx),
            KeyCode::Char('l') if ctrl => self.load_snapshot(ctx),
            KeyCode::Char('u') | KeyCode::Char('z') | KeyCode::Backspace => self.undo(),
            KeyCode::Char('y') => self.redo(ctx),
            KeyCode::Char('r') => {
                self.session.restart();
                self.after_history_change();
                self.message = Some("Restarted (u undoes the restart).".into());
            }
            KeyCode::Char('n') => self.change_level(true, ctx),
            KeyCode::Char('p') => self.change_level(false, ctx),
            KeyCode::Char('S') => self.save_snapshot(ctx),
            KeyCode::Char('L') => self.load_snapshot(ctx),
            KeyCode::Char('c') => {
                self.mode = Mode::Cursor {
                    cell: self.session.game().player(),
                    selected: None,
                };
                self.message = Some(
                    "Cursor: pick a box with Enter, then its target; or pick a cell to walk to."
                        .into(),
                );
            }
            KeyCode::Char('H') => self.think(Purpose::Hint),
            KeyCode::Char('A') => self.think(Purpose::Show),
            KeyCode::Char('v') => self.start_replay(false, ctx),
            KeyCode::Char('V') => self.start_replay(true, ctx),
            KeyCode::Char('?') | KeyCode::F(1) => self.mode = Mode::Help,
            KeyCode::Char('q') | KeyCode::Esc => return Action::Pop,
            _ => {}
        }
        Action::None
    }

    fn on_key_cursor(&mut self, key: KeyEvent) -> Action {
        let Mode::Cursor { cell, selected } = &mut self.mode else {
            return Action::None;
        };
        let map = self.session.level().map();
        if let Some(dir) = direction_of(key) {
            if let Some(next) = map.neighbor(*cell, dir) {
                *cell = next;
            }
            return Action::None;
        }
        match key.code {
            KeyCode::Enter | KeyCode::Char(' ') => {
                let target = *cell;
                if self.session.game().has_box(target) {
                    *selected = if *selected == Some(target) {
                        None
                    } else {
                        Some(target)
                    };
                    return Action::None;
                }
                let planned = match *selected {
                    Some(b) => path::push_to(self.session.game(), b, target),
                    None => path::walk_to(self.session.game(), target),
                };
                match planned {
                    Some(steps) => {
                        *selected = None;
                        self.queue.extend(steps.into_iter().map(|d| (d, false)));
                        self.next_step_at = None;
                        self.message = None;
                    }
                    None => {
                        self.message = Some(
                            if selected.is_some() {
                                "That box cannot be pushed there."
                            } else {
                                "The player cannot walk there."
                            }
                            .into(),
                        );
                    }
                }
            }
            KeyCode::Esc | KeyCode::Char('c') | KeyCode::Char('q') => {
                self.mode = Mode::Playing;
                self.message = None;
            }
            KeyCode::Char('u') | KeyCode::Char('z') | KeyCode::Backspace => self.undo(),
            _ => {}
        }
        Action::None
    }

    fn on_key_replay(&mut self, key: KeyEvent) -> Action {
        let Mode::Replay(replay) = &mut self.mode else {
            return Action::None;
        };
        match key.code {
            KeyCode::Char(' ') => replay.paused = !replay.paused,
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('d') => {
                replay.paused = true;
                replay.forward();
            }
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('a') => {
                replay.paused = true;
                if replay.game.undo() {
                    replay.position -= 1;
                }
            }
            KeyCode::Char('+') | KeyCode::Char('=') => {
                replay.step_ms = (replay.step_ms * 2 / 3).max(10)
            }
            KeyCode::Char('-') => replay.step_ms = (replay.step_ms * 3 / 2).min(2000),
            KeyCode::Home => {
                replay.game.restart();
                replay.position = 0;
            }
            KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('v') | KeyCode::Char('V') => {
                self.mode = Mode::Playing;
            }
            _ => {}
        }
        Action::None
    }
}

impl Screen for Play {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        // Esc stops "solve and show" and takes its moves back (a hint's push
        // is the player's to keep); any other key finishes an animation at once.
        if !self.queue.is_empty() && key.code == KeyCode::Esc {
            let showing = self.queue.iter().any(|&(_, by_solver)| by_solver);
            self.queue.clear();
            if showing {
                self.session
                    .undo_steps(std::mem::take(&mut self.shown_steps));
                self.after_history_change();
                self.message = Some("Stopped: back where you were.".into());
            } else {
                self.message = None;
            }
            return Action::None;
        }
        if !self.queue.is_empty() {
            while let Some((d, by_solver)) = self.queue.pop_front() {
                self.step(d, by_solver, ctx);
            }
            return Action::None;
        }
        match &mut self.mode {
            Mode::Help => {
                self.mode = Mode::Playing;
                Action::None
            }
            Mode::Solved { .. } => self.on_key_solved(key, ctx),
            Mode::Cursor { .. } => self.on_key_cursor(key),
            Mode::Replay(_) => self.on_key_replay(key),
            Mode::Thinking { .. } => {
                // Dropping the job cancels it; any key but Esc then acts as usual.
                self.mode = Mode::Playing;
                self.message = Some("Solver stopped.".into());
                if key.code == KeyCode::Esc {
                    Action::None
                } else {
                    self.on_key_playing(key, ctx)
                }
            }
            Mode::Unsolvable => {
                self.mode = Mode::Playing;
                if key.code == KeyCode::Enter {
                    self.rewind_from(0);
                    Action::None
                } else {
                    self.on_key_playing(key, ctx)
                }
            }
            Mode::Playing => self.on_key_playing(key, ctx),
        }
    }

    /// Advances animations and the clock, and collects the solver's answer.
    fn tick(&mut self, now: Instant, ctx: &mut Ctx) -> Action {
        if let Mode::Thinking { job, purpose } = &self.mode
            && let Some(report) = job.poll()
        {
            let purpose = *purpose;
            self.mode = Mode::Playing;
            self.on_solver_answer(purpose, report.outcome);
        }
        let game = self.session.game();
        let running = game.moves() > 0 && !game.is_solved();
        if let Some(last) = self.last_tick
            && running
        {
            self.elapsed += now.saturating_duration_since(last);
        }
        self.last_tick = Some(now);
        let step = Duration::from_millis(u64::from(ctx.settings.sokoban.animation_ms));
        if !self.queue.is_empty() && self.next_step_at.is_none_or(|t| now >= t) {
            if let Some((d, by_solver)) = self.queue.pop_front() {
                self.step(d, by_solver, ctx);
            }
            self.next_step_at = Some(now + step);
        }
        if let Mode::Replay(replay) = &mut self.mode
            && !replay.paused
            && replay.next_at.is_none_or(|t| now >= t)
        {
            replay.forward();
            replay.next_at = Some(now + Duration::from_millis(replay.step_ms));
            if replay.position >= replay.steps.len() {
                replay.paused = true;
            }
        }
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let [header, board, status, message, hints] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let gold = highlight();
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(" Sokoban ", gold),
                Span::raw(format!("  {}  ", self.session.set().name)),
                Span::styled(self.title(), Style::default().add_modifier(Modifier::BOLD)),
            ])),
            header,
        );

        let shown = match &self.mode {
            Mode::Replay(r) => &r.game,
            _ => self.session.game(),
        };
        let danger = self
            .session
            .deadlock()
            .map(|d| d.boxes.clone())
            .unwrap_or_default();
        let mut view = BoardView::new(shown);
        if !matches!(self.mode, Mode::Replay(_)) {
            view.danger = &danger;
        }
        if let Mode::Cursor { cell, selected } = &self.mode {
            view.cursor = Some(*cell);
            view.selected = *selected;
        }
        frame.render_widget(view, board);

        let best = ctx
            .progress
            .get(&self.level().key())
            .and_then(|r| r.best_by_moves.as_ref())
            .map_or(String::new(), |b| {
                format!("   best {}/{}", b.moves, b.pushes)
            });
        let status_line = Line::from(vec![
            Span::styled(
                format!(" moves {} ", shown.moves()),
                Style::default().fg(Color::White).bold(),
            ),
            Span::raw(format!(" pushes {} ", shown.pushes())),
            Span::styled(
                format!(" boxes {}/{} ", shown.boxes_on_goals(), shown.box_count()),
                Style::default().fg(Color::Rgb(80, 190, 90)),
            ),
            Span::raw(format!(" time {}", clock(self.elapsed.as_secs()))),
            Span::styled(best, Style::default().fg(Color::Gray)),
        ]);
        frame.render_widget(
            Paragraph::new(status_line).style(Style::default().bg(Color::Rgb(40, 40, 60))),
            status,
        );

        let (text, style) = match (&self.mode, self.session.deadlock(), &self.message) {
            (Mode::Replay(r), _, _) => (
                format!(
                    "Replaying {}: step {}/{}, {} ms a step{}",
                    r.label,
                    r.position,
                    r.steps.len(),
                    r.step_ms,
                    if r.paused { " (paused)" } else { "" }
                ),
                Style::default().fg(Color::Cyan),
            ),
            (Mode::Thinking { job, purpose }, _, _) => {
                let (nodes, _) = job.progress();
                let what = match purpose {
                    Purpose::Hint => "Looking for a hint",
                    Purpose::Show => "Solving",
                    Purpose::Rewind { .. } => "Looking for the last solvable position",
                };
                (
                    format!(
                        "{what}… {nodes} positions, {:.1} s (Esc stops)",
                        job.elapsed().as_secs_f64()
                    ),
                    Style::default().fg(Color::Cyan),
                )
            }
            (_, _, Some(m)) => (m.clone(), Style::default().fg(Color::Gray)),
            (_, Some(d), None) => (
                deadlock_text(d),
                Style::default()
                    .fg(Color::White)
                    .bg(Color::Rgb(150, 30, 30)),
            ),
            _ => (String::new(), Style::default()),
        };
        frame.render_widget(Paragraph::new(text).style(style), message);

        let pairs: &[(&str, &str)] = match self.mode {
            Mode::Cursor { .. } => &[
                ("arrows", "cursor"),
                ("Enter", "pick / go"),
                ("u", "undo"),
                ("Esc", "leave cursor"),
            ],
            Mode::Thinking { .. } => &[("Esc", "stop the solver"), ("any key", "stop and play on")],
            Mode::Unsolvable => &[
                ("Enter", "back to the last solvable position"),
                ("u", "undo"),
            ],
            Mode::Replay(_) => &[
                ("Space", "pause"),
                ("←→", "step"),
                ("+-", "speed"),
                ("Esc", "end replay"),
            ],
            _ => &[
                ("?", "help"),
                ("u", "undo"),
                ("y", "redo"),
                ("r", "restart"),
                ("n/p", "level"),
                ("c", "cursor"),
                ("q", "back"),
            ],
        };
        frame.render_widget(Paragraph::new(key_hints(pairs)), hints);

        match &self.mode {
            Mode::Help => {
                let lines: Vec<Line> = KEYS
                    .iter()
                    .map(|(k, what)| {
                        Line::from(vec![
                            Span::styled(
                                format!("{k:<18}"),
                                Style::default().fg(Color::Yellow).bold(),
                            ),
                            Span::raw(*what),
                        ])
                    })
                    .chain([
                        Line::raw(""),
                        Line::from("Any key closes this help.")
                            .style(Style::default().fg(Color::Gray)),
                    ])
                    .collect();
                popup(frame, area, "Sokoban keys", lines, Color::Rgb(230, 190, 80));
            }
            Mode::Solved {
                new_best,
                all_solved,
                assisted,
            } => {
                let mut lines = vec![
                    Line::from(format!(
                        "Moves {}   pushes {}   time {}",
                        self.session.game().moves(),
                        self.session.game().pushes(),
                        clock(self.elapsed.as_secs())
                    )),
                    Line::raw(""),
                ];
                if *assisted {
                    lines.push(Line::from(flow::ASSISTED_SOLVE));
                } else if self.session.set().source == Source::PlayTest {
                    lines.push(Line::from(flow::PLAY_TEST_SOLVE));
                } else if new_best.first_solve {
                    lines.push(
                        Line::from("First solve of this level!")
                            .style(Style::default().fg(Color::Green).bold()),
                    );
                } else {
                    if new_best.moves_record {
                        lines.push(
                            Line::from("New best by moves!")
                                .style(Style::default().fg(Color::Green).bold()),
                        );
                    }
                    if new_best.pushes_record {
                        lines.push(
                            Line::from("New best by pushes!")
                                .style(Style::default().fg(Color::Green).bold()),
                        );
                    }
                    if !new_best.any() {
                        lines.push(Line::from("Your best stays as it was."));
                    }
                }
                if *all_solved {
                    lines.push(Line::raw(""));
                    lines.push(
                        Line::from(format!(
                            "You have solved every level of {}!",
                            self.session.set().name
                        ))
                        .style(Style::default().fg(Color::Rgb(230, 190, 80)).bold()),
                    );
                }
                lines.push(Line::raw(""));
                lines.push(key_hints(&[
                    ("Enter", "next level"),
                    ("u", "undo"),
                    ("r", "play again"),
                    ("q", "level list"),
                ]));
                let title = if *assisted {
                    "Solved by the solver"
                } else {
                    "Solved!"
                };
                popup(frame, area, title, lines, Color::Green);
            }
            _ => {}
        }
    }
}

impl Replay {
    fn forward(&mut self) {
        if let Some(&d) = self.steps.get(self.position) {
            if self.game.step(d).is_err() {
                self.position = self.steps.len();
                return;
            }
            self.position += 1;
        }
    }
}

/// The direction a movement key stands for: arrows, WASD or hjkl.
fn direction_of(key: KeyEvent) -> Option<Direction> {
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return None;
    }
    Some(match key.code {
        KeyCode::Left | KeyCode::Char('a') | KeyCode::Char('h') => Direction::Left,
        KeyCode::Up | KeyCode::Char('w') | KeyCode::Char('k') => Direction::Up,
        KeyCode::Right | KeyCode::Char('d') | KeyCode::Char('l') => Direction::Right,
        KeyCode::Down | KeyCode::Char('s') | KeyCode::Char('j') => Direction::Down,
        _ => return None,
    })
}

fn deadlock_text(d: &Deadlock) -> String {
    format!("{} Undo with u.", flow::deadlock_text(&d.kind))
}
