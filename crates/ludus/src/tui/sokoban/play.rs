//! The play screen: the board, a status bar, and every key of the game —
//! moving, undo/redo, restart, levels, snapshots, cursor mode, replays.

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use sokoban::solver::Deadlock;
use sokoban::{Direction, Level};

use super::board::BoardView;
use crate::session::sokoban as flow;
use crate::session::sokoban::NewBest;
use crate::session::sokoban::library::LevelSet;
use crate::session::sokoban::play::{SnapshotError, SokobanSession};
use crate::session::sokoban::replay::{NoReplay, Replay};
use crate::session::sokoban::solver_job::{self, SolveJob};
use crate::session::sokoban::thinking::{Purpose, SolverAnswer, SolverOrder};
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{clock, highlight, key_hints, popup};

/// Every key of the play screen, for the help overlay (and the README).
pub const KEYS: [(&str, &str); 20] = [
    ("←↑→↓  WASD  hjkl", "move / push"),
    ("u  z  Backspace", "undo"),
    ("y  Ctrl-R", "redo"),
    ("r  Space", "restart (undoable)"),
    ("n  p", "next / previous level"),
    ("S  Ctrl-S", "save a snapshot of this level"),
    ("L  Ctrl-L", "load the saved snapshot"),
    ("H", "hint: the solver makes the next push (Esc stops it)"),
    ("A", "solve and show: the solver plays to the end"),
    (
        "g",
        "goals: show which goal the solver's bound gives each box",
    ),
    ("c", "cursor mode: walk to a cell / push a box"),
    ("  arrows", "  move the cursor"),
    ("  Enter  Space", "  pick a box, then its target; or walk"),
    ("  Esc  c", "  leave cursor mode"),
    ("v  V", "replay your best solution (by moves / pushes)"),
    ("  Space  ←  →", "  pause, step back, step forward"),
    ("  +  -", "  faster, slower"),
    (
        "mouse",
        "click: walk, or pick a box then its target; right: undo",
    ),
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
        /// How the solve compares with the level's par ("par 32 pushes, you 35").
        against_par: Option<String>,
    },
    Cursor {
        cell: usize,
        selected: Option<usize>,
    },
    Replay(Box<Watching>),
    /// The position cannot be solved; Enter rewinds to the last one that can.
    Unsolvable,
}

/// Watching the player's best: the session's replay and its pace here.
struct Watching {
    replay: Replay,
    paused: bool,
    step_ms: u64,
    next_at: Option<Instant>,
}

pub struct Play {
    /// The level, its game, clock, solver runs and record: the flow both
    /// front ends share.
    session: SokobanSession,
    mode: Mode,
    /// The solver carrying out the session's order, with the order's id.
    job: Option<(u64, SolveJob)>,
    /// Steps still to animate (a cursor walk, a hint, or the solver's
    /// solution), each with whether the solver makes it (solve and show).
    queue: VecDeque<(Direction, bool)>,
    next_step_at: Option<Instant>,
    /// The time of the last tick: the time keys happen at.
    last_tick: Option<Instant>,
    message: Option<String>,
    /// The box picked with the mouse, to push where the next click says.
    picked: Option<usize>,
    /// Where the board was last drawn, to find the cell under a click.
    board_area: Cell<Option<Rect>>,
    /// The map pack's terminal skin, if the set is a pack with one.
    skin: Option<crate::session::sokoban::pack::TerminalSkin>,
}

impl Play {
    /// Opens level `index` of `set`; `None` if it did not parse.
    pub fn new(set: Arc<LevelSet>, index: usize, ctx: &Ctx) -> Option<Play> {
        let show_deadlocks = ctx.settings.sokoban.show_deadlocks;
        let skin = crate::session::sokoban::pack::terminal_skin(&ctx.data, &set);
        let session = SokobanSession::open(set, index, &ctx.progress, show_deadlocks)?;
        let mut play = Play {
            skin,
            session,
            mode: Mode::Playing,
            job: None,
            queue: VecDeque::new(),
            next_step_at: None,
            last_tick: None,
            message: None,
            picked: None,
            board_area: Cell::new(None),
        };
        if play.session.solved_before() {
            play.message = Some("You have solved this level before; try to beat your best.".into());
        }
        Some(play)
    }

    fn level(&self) -> &Level {
        self.session.level()
    }

    /// The time a key happens at: the event loop ticks right after every
    /// event, so the last tick is as good as now.
    fn now(&self) -> Instant {
        self.last_tick.unwrap_or_else(Instant::now)
    }

    /// The time spent on the level, as of the last tick.
    fn elapsed(&self) -> Duration {
        match self.last_tick {
            Some(now) => self.session.elapsed(now),
            None => self.session.counted_time(),
        }
    }

    fn title(&self) -> String {
        self.session.heading()
    }

    /// Opens level `index` of the same set in place of this one.
    fn open_level(&mut self, index: usize, ctx: &mut Ctx) -> bool {
        let Some(next) = Play::new(Arc::clone(self.session.set()), index, ctx) else {
            return false;
        };
        *self = next;
        ctx.settings.sokoban.last_level = Some(index);
        ctx.save_settings();
        true
    }

    fn change_level(&mut self, forward: bool, ctx: &mut Ctx) {
        let target = if forward {
            self.session.next_level(&ctx.progress, false)
        } else {
            self.session.previous_level()
        };
        if !target.is_some_and(|i| self.open_level(i, ctx)) {
            let edge = if forward { "last" } else { "first" };
            self.message = Some(format!("This is the {edge} level."));
        }
    }

    /// Hands the session's solver orders to a solver thread.
    fn carry_out_orders(&mut self) {
        for order in self.session.take_orders() {
            match order {
                SolverOrder::Solve(order) => {
                    let job = SolveJob::start(
                        order.level,
                        solver_job::for_one_player(),
                        Some(order.limit),
                    );
                    // Replacing a job drops it, which cancels it.
                    self.job = Some((order.id, job));
                }
                SolverOrder::Cancel => self.job = None,
            }
        }
    }

    fn step(&mut self, dir: Direction, by_solver: bool, ctx: &mut Ctx) {
        let now = self.now();
        match self.session.step(dir, by_solver, &ctx.data, now) {
            Ok(Some(solved)) => self.on_solved(solved, ctx),
            Ok(None) => {}
            Err(_) => self.queue.clear(),
        }
        self.carry_out_orders();
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
            against_par: solved.against_par,
        };
    }

    fn undo(&mut self) {
        let now = self.now();
        if self.session.undo(now).changed {
            self.after_history_change();
        }
    }

    fn redo(&mut self, ctx: &mut Ctx) {
        let now = self.now();
        let change = self.session.redo(&ctx.data, now);
        if change.changed {
            self.after_history_change();
        }
        if let Some(solved) = change.solved {
            self.on_solved(solved, ctx);
        }
    }

    fn restart(&mut self) {
        let now = self.now();
        self.session.restart(now);
        self.after_history_change();
    }

    /// Shows or hides the goal-assignment hint, saying what it found.
    fn toggle_goal_hint(&mut self) {
        let shown = self.session.toggle_goal_hint();
        self.message = shown.then(|| flow::goal_hint::text(self.session.goal_hint()));
    }

    fn after_history_change(&mut self) {
        self.carry_out_orders();
        self.queue.clear();
        self.message = None;
        self.picked = None;
    }

    /// Acts on a cell chosen by Enter in cursor mode or by a click, with
    /// `selected` the box picked before: a box is picked (or dropped, if it
    /// was the one picked); any other cell is walked to, or the picked box
    /// pushed there, along the best path, animated. Returns the box picked
    /// afterwards.
    fn pick(&mut self, target: usize, selected: Option<usize>) -> Option<usize> {
        let game = self.session.game();
        // A box moved since it was picked is picked no more.
        let selected = selected.filter(|&b| game.has_box(b));
        if game.has_box(target) {
            return if selected == Some(target) {
                None
            } else {
                Some(target)
            };
        }
        let planned = match selected {
            Some(b) => self.session.push_to(b, target),
            None => self.session.walk_to(target),
        };
        match planned {
            Some(steps) => {
                self.queue.extend(steps.into_iter().map(|d| (d, false)));
                self.next_step_at = None;
                self.message = None;
                None
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
                selected
            }
        }
    }

    /// The board as drawn now: the game shown, its marks and look.
    fn board_view<'a>(&'a self, danger: &'a [usize], ctx: &Ctx) -> BoardView<'a> {
        let shown = match &self.mode {
            Mode::Replay(watching) => watching.replay.game(),
            _ => self.session.game(),
        };
        let mut view = BoardView::new(shown);
        view.ascii = ctx.ascii();
        view.skin = self.skin.as_ref();
        match &self.mode {
            Mode::Replay(_) => {}
            Mode::Cursor { cell, selected } => {
                view.danger = danger;
                view.cursor = Some(*cell);
                view.selected = *selected;
            }
            _ => {
                view.danger = danger;
                view.selected = self.picked.filter(|&b| shown.has_box(b));
            }
        }
        if !matches!(self.mode, Mode::Replay(_)) {
            view.goals = self.session.goal_hint();
        }
        view
    }

    /// The board cell under terminal cell (`x`, `y`), if the board is there.
    fn cell_under(&self, x: u16, y: u16, ctx: &Ctx) -> Option<usize> {
        let area = self.board_area.get()?;
        self.board_view(&[], ctx).cell_at(area, x, y)
    }

    /// A left click on the board: walk, pick a box or push it; in cursor
    /// mode the cursor goes there first.
    fn click(&mut self, x: u16, y: u16, ctx: &Ctx) {
        let Some(cell) = self.cell_under(x, y, ctx) else {
            return;
        };
        match self.mode {
            Mode::Cursor { selected, .. } => {
                let selected = self.pick(cell, selected);
                self.mode = Mode::Cursor { cell, selected };
            }
            Mode::Playing | Mode::Unsolvable => {
                self.mode = Mode::Playing;
                self.picked = self.pick(cell, self.picked);
                if self.picked.is_some() {
                    self.message = Some(
                        "Box picked: click where to push it (click it again to drop it).".into(),
                    );
                }
            }
            _ => {}
        }
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
        let now = self.now();
        let loaded = self.session.load_snapshot(&ctx.data, now);
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
        match self.session.replay(&ctx.progress, by_pushes) {
            Ok(replay) => {
                self.mode = Mode::Replay(Box::new(Watching {
                    replay,
                    paused: false,
                    step_ms: u64::from(ctx.settings.sokoban.animation_ms.max(30)) * 2,
                    next_at: None,
                }));
            }
            Err(NoReplay::NotSolvedYet) => {
                self.message =
                    Some("No solution of yours to replay yet: solve the level first.".into());
            }
            Err(e @ NoReplay::Damaged(_)) => self.message = Some(flow::as_sentence(&e.to_string())),
        }
    }

    /// Asks the session for a hint or a solution to show to the end.
    fn think(&mut self, purpose: Purpose) {
        match self.session.ask(purpose) {
            Ok(()) => self.queue.clear(),
            Err(_) => self.message = Some("The level is solved already.".into()),
        }
        self.carry_out_orders();
    }

    /// Looks for the last solvable position.
    fn rewind(&mut self) {
        if self.session.rewind().is_err() {
            self.message = Some("No earlier position to go back to.".into());
        }
        self.carry_out_orders();
    }

    fn on_solver_answer(&mut self, answer: SolverAnswer) {
        match answer {
            SolverAnswer::Play {
                steps,
                by_solver,
                text,
                ..
            } => {
                self.queue
                    .extend(steps.into_iter().map(|dir| (dir, by_solver)));
                self.message = Some(text);
            }
            SolverAnswer::Unsolvable { .. } => {
                self.mode = Mode::Unsolvable;
                self.message = Some("This position cannot be solved any more. Enter: back to the last one that can.".into());
            }
            SolverAnswer::Rewound { text, .. } => {
                self.queue.clear();
                self.message = Some(text);
            }
            SolverAnswer::Notice(text) => self.message = Some(text),
        }
    }

    fn on_key_solved(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        match key.code {
            KeyCode::Enter | KeyCode::Char('n') | KeyCode::Char(' ') => {
                let opened = self
                    .session
                    .next_level(&ctx.progress, true)
                    .is_some_and(|target| self.open_level(target, ctx));
                if !opened {
                    self.mode = Mode::Playing;
                    self.message = Some("That was the last level of this collection.".into());
                }
            }
            KeyCode::Char('q') => return Action::Pop,
            KeyCode::Char('r') => {
                self.mode = Mode::Playing;
                self.restart();
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
            self.picked = None;
            self.step(dir, false, ctx);
            return Action::None;
        }
        match key.code {
            KeyCode::Char('r') if ctrl => self.redo(ctx),
            KeyCode::Char('s') if ctrl => self.save_snapshot(ctx),
            KeyCode::Char('l') if ctrl => self.load_snapshot(ctx),
            KeyCode::Char('u') | KeyCode::Char('z') | KeyCode::Backspace => self.undo(),
            KeyCode::Char('y') => self.redo(ctx),
            // Space restarts as in the seed's Swing version.
            KeyCode::Char('r') | KeyCode::Char(' ') => {
                self.restart();
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
            KeyCode::Char('g') => self.toggle_goal_hint(),
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
                let (target, before) = (*cell, *selected);
                let after = self.pick(target, before);
                if let Mode::Cursor { selected, .. } = &mut self.mode {
                    *selected = after;
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
        let Mode::Replay(watching) = &mut self.mode else {
            return Action::None;
        };
        match key.code {
            KeyCode::Char(' ') => watching.paused = !watching.paused,
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('d') => {
                watching.paused = true;
                watching.replay.forward();
            }
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('a') => {
                watching.paused = true;
                watching.replay.back();
            }
            KeyCode::Char('+') | KeyCode::Char('=') => {
                watching.step_ms = (watching.step_ms * 2 / 3).max(10)
            }
            KeyCode::Char('-') => watching.step_ms = (watching.step_ms * 3 / 2).min(2000),
            KeyCode::Home => watching.replay.rewind(),
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
        // Esc stops the solver, or "solve and show" with its moves taken
        // back (a hint's push is the player's to keep); any other key
        // finishes an animation at once, or stops the solver and acts.
        if key.code == KeyCode::Esc && (!self.queue.is_empty() || self.job.is_some()) {
            self.queue.clear();
            let now = self.now();
            let stopped = self.session.stop(now);
            self.carry_out_orders();
            self.message = stopped.text().map(str::to_string);
            return Action::None;
        }
        if !self.queue.is_empty() {
            while let Some((d, by_solver)) = self.queue.pop_front() {
                self.step(d, by_solver, ctx);
            }
            return Action::None;
        }
        if self.job.is_some() {
            let now = self.now();
            self.session.stop(now);
            self.carry_out_orders();
            self.message = Some("Solver stopped.".into());
        }
        match &mut self.mode {
            Mode::Help => {
                self.mode = Mode::Playing;
                Action::None
            }
            Mode::Solved { .. } => self.on_key_solved(key, ctx),
            Mode::Cursor { .. } => self.on_key_cursor(key),
            Mode::Replay(_) => self.on_key_replay(key),
            Mode::Unsolvable => {
                self.mode = Mode::Playing;
                if key.code == KeyCode::Enter {
                    self.rewind();
                    Action::None
                } else {
                    self.on_key_playing(key, ctx)
                }
            }
            Mode::Playing => self.on_key_playing(key, ctx),
        }
    }

    /// Left click: walk there, or pick a box and then its target; right
    /// click: undo. Like a key, a click first finishes an animation and
    /// stops the solver.
    fn on_mouse(&mut self, mouse: MouseEvent, ctx: &mut Ctx) -> Action {
        let MouseEventKind::Down(button) = mouse.kind else {
            return Action::None;
        };
        while let Some((d, by_solver)) = self.queue.pop_front() {
            self.step(d, by_solver, ctx);
        }
        if self.job.is_some() {
            let now = self.now();
            self.session.stop(now);
            self.carry_out_orders();
            self.message = Some("Solver stopped.".into());
        }
        match (&self.mode, button) {
            (Mode::Help, _) => self.mode = Mode::Playing,
            (Mode::Replay(_), _) => {}
            (Mode::Cursor { .. }, MouseButton::Right) => self.undo(),
            (_, MouseButton::Right) => {
                self.mode = Mode::Playing;
                self.undo();
            }
            (_, MouseButton::Left) => self.click(mouse.column, mouse.row, ctx),
            _ => {}
        }
        Action::None
    }

    /// Advances animations and the clock, and collects the solver's answer.
    fn tick(&mut self, now: Instant, ctx: &mut Ctx) -> Action {
        self.last_tick = Some(now);
        if let Some((id, job)) = &self.job
            && let Some(report) = job.poll()
        {
            let id = *id;
            self.job = None;
            let answer = self.session.solver_done(id, report.outcome, now);
            // A rewind may go on with an earlier position.
            self.carry_out_orders();
            if let Some(answer) = answer {
                self.on_solver_answer(answer);
            }
        }
        let step = Duration::from_millis(u64::from(ctx.settings.sokoban.animation_ms));
        if !self.queue.is_empty() && self.next_step_at.is_none_or(|t| now >= t) {
            if let Some((d, by_solver)) = self.queue.pop_front() {
                self.step(d, by_solver, ctx);
            }
            self.next_step_at = Some(now + step);
        }
        if let Mode::Replay(watching) = &mut self.mode
            && !watching.paused
            && watching.next_at.is_none_or(|t| now >= t)
        {
            watching.replay.forward();
            watching.next_at = Some(now + Duration::from_millis(watching.step_ms));
            if watching.replay.at_end() {
                watching.paused = true;
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

        let danger = self
            .session
            .deadlock()
            .map(|d| d.boxes.clone())
            .unwrap_or_default();
        let view = self.board_view(&danger, ctx);
        let shown = view.game;
        self.board_area.set(Some(board));
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
            Span::raw(format!(" time {}", clock(self.elapsed().as_secs()))),
            Span::styled(best, Style::default().fg(Color::Gray)),
        ]);
        frame.render_widget(
            Paragraph::new(status_line).style(Style::default().bg(Color::Rgb(40, 40, 60))),
            status,
        );

        let thinking = self.thinking_line();
        let deadlock = self.session.deadlock();
        let (text, style) = match (&self.mode, thinking, deadlock, &self.message) {
            (Mode::Replay(watching), _, _, _) => (
                format!(
                    "Replaying {}: step {}/{}, {} ms a step{}",
                    watching.replay.label(),
                    watching.replay.position(),
                    watching.replay.len(),
                    watching.step_ms,
                    if watching.paused { " (paused)" } else { "" }
                ),
                Style::default().fg(Color::Cyan),
            ),
            (_, Some(line), _, _) => (line, Style::default().fg(Color::Cyan)),
            (_, None, _, Some(m)) => (m.clone(), Style::default().fg(Color::Gray)),
            (_, None, Some(d), None) => (
                deadlock_text(d),
                Style::default()
                    .fg(Color::White)
                    .bg(Color::Rgb(150, 30, 30)),
            ),
            _ => (String::new(), Style::default()),
        };
        frame.render_widget(Paragraph::new(text).style(style), message);

        let pairs: &[(&str, &str)] = match self.mode {
            _ if self.job.is_some() => {
                &[("Esc", "stop the solver"), ("any key", "stop and play on")]
            }
            Mode::Cursor { .. } => &[
                ("arrows", "cursor"),
                ("Enter", "pick / go"),
                ("u", "undo"),
                ("Esc", "leave cursor"),
            ],
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
                ("r/Space", "restart"),
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
                against_par,
            } => {
                let mut lines = vec![Line::from(format!(
                    "Moves {}   pushes {}   time {}",
                    self.session.game().moves(),
                    self.session.game().pushes(),
                    clock(self.elapsed().as_secs())
                ))];
                if let Some(par) = against_par {
                    lines.push(
                        Line::from(par.clone())
                            .style(Style::default().fg(Color::Rgb(230, 190, 80))),
                    );
                }
                lines.push(Line::raw(""));
                if *assisted {
                    lines.push(Line::from(flow::ASSISTED_SOLVE));
                } else if self.session.is_play_test() {
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

impl Play {
    /// What the solver is doing, while it works.
    fn thinking_line(&self) -> Option<String> {
        let thinking = self.session.thinking()?;
        let (_, job) = self.job.as_ref()?;
        Some(format!(
            "{}… {} (Esc stops)",
            thinking.purpose.doing(),
            job.figures().text()
        ))
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
