//! The game screen: the player's game (recorded for a replay), a replay being watched, or
//! the bot's demo. One screen, three drivers, one way of drawing.
//!
//! Time: the event loop passes `Instant`s to [`Screen::tick`]; a [`Clock`] turns them into
//! game milliseconds (stopped while paused, scaled for replays), which is all the engine
//! sees. Keys are queued by `on_key` and fed to the engine at the next tick's time (the loop
//! ticks right after every event), so tests drive everything with chosen instants.

use std::time::Instant;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph};
use tetris::matrix::VISIBLE_HEIGHT;
use tetris::scoring::{ClearReport, TSpin};
use tetris::{Action as GameAction, Game, InputEvent, Mode, Playback, Replay, Summary};

use super::board::{MATRIX_WIDTH, MatrixView, render_piece};
use super::keys::{BINDS, Bind, InputTracker, Keymap, physical};
use super::thousands;
use crate::session::tetris::{
    End, Hint, HintTracker, Recorded, ScoreEntry, Stats, TABLE_SIZE, TetrisSession, mode_title,
    now_secs, random_seed,
};

use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{centered, key_hints, popup};

/// Replay speeds offered, in percent.
const SPEEDS: [u64; 7] = [25, 50, 100, 200, 400, 800, 1600];
/// Demo: milliseconds the bot waits on each new piece.
const PACES: [u64; 7] = [0, 50, 100, 200, 350, 500, 1000];
/// Seeking in a replay jumps this far.
const SEEK_MS: u64 = 5_000;
/// Line-clear banners stay this long (game time).
const BANNER_MS: u64 = 1_500;
/// Rows of the high-score table in the game-over summary.
const SUMMARY_ROWS: usize = 5;

/// The side panels and the field: hold/stats, matrix with its borders, next queue.
const LEFT_WIDTH: u16 = 17;
const FIELD_WIDTH: u16 = MATRIX_WIDTH + 2;
const RIGHT_WIDTH: u16 = 12;
const WIDTH: u16 = LEFT_WIDTH + 1 + FIELD_WIDTH + 1 + RIGHT_WIDTH;
/// The visible rows and the bottom border; the top is open so spawning pieces show above.
const MIN_HEIGHT: u16 = VISIBLE_HEIGHT as u16 + 1;

/// Whether the game can be drawn in `area` (its key hints need no room).
fn fits(area: Rect) -> bool {
    area.width >= WIDTH && area.height >= MIN_HEIGHT
}

/// Game milliseconds from the event loop's instants.
#[derive(Clone, Debug)]
pub(super) struct Clock {
    last: Option<Instant>,
    us: u64,
    speed_percent: u64,
}

impl Clock {
    pub(super) fn new() -> Clock {
        Clock {
            last: None,
            us: 0,
            speed_percent: 100,
        }
    }

    /// Advances (if running) to `now` and returns the game time in milliseconds.
    pub(super) fn tick(&mut self, now: Instant, running: bool) -> u64 {
        if let Some(last) = self.last
            && running
        {
            let real = now.saturating_duration_since(last).as_micros();
            let scaled = real.saturating_mul(u128::from(self.speed_percent)) / 100;
            self.us = self
                .us
                .saturating_add(u64::try_from(scaled).unwrap_or(u64::MAX));
        }
        self.last = Some(now);
        self.ms()
    }

    fn ms(&self) -> u64 {
        self.us / 1000
    }

    fn set_ms(&mut self, ms: u64) {
        self.us = ms.saturating_mul(1000);
    }
}

/// Who plays.
enum Driver {
    /// The player's game: the session records every input for the replay,
    /// and the result.
    Play(Box<TetrisSession>),
    Watch(Box<Playback>),
    /// The bot plays endless Marathon, waiting `PACES[pace]` on each new piece.
    Demo {
        game: Box<Game>,
        pace: usize,
        spawned_ms: u64,
        pieces: u64,
    },
}

/// The end of a game, as the summary shows it.
struct Over {
    summary: Summary,
    /// The figures at the end: keys per piece, finesse, splits.
    stats: Stats,
    /// The high-score result (player games that qualify), or why it could not be saved.
    recorded: Option<Result<Recorded, String>>,
}

/// A key of the game waiting for the next tick.
struct Pending {
    name: String,
    action: GameAction,
    kind: KeyEventKind,
}

pub struct GameScreen {
    driver: Driver,
    clock: Clock,
    keymap: Keymap,
    tracker: InputTracker,
    pending: Vec<Pending>,
    /// Paused by the player (or focus loss); the matrix is hidden in the player's game.
    paused: bool,
    help: bool,
    /// The quit key was pressed in an unfinished game: leave it? (y/n)
    confirm_leave: bool,
    over: Option<Over>,
    ghost: bool,
    /// The demo's bot (the player's hints come from the session).
    hints: HintTracker,
    target: Option<Hint>,
    banner: Option<(Vec<String>, u64)>,
    /// Lines and last clear seen at the previous tick, to notice new clears.
    seen: (u32, Option<ClearReport>),
    /// Zen's wipes of a topped-out matrix seen so far, to say when it happens.
    wipes_seen: u32,
    now_ms: u64,
    message: Option<String>,
}

impl GameScreen {
    fn with_driver(driver: Driver, ctx: &mut Ctx) -> GameScreen {
        let keymap = Keymap::new(&ctx.settings.tetris.keys);
        if !keymap.conflicts.is_empty() {
            ctx.notices.push(format!(
                "Tetris keys bound twice in the settings (the first action keeps them): {}",
                keymap.conflicts.join(" ")
            ));
        }
        GameScreen {
            driver,
            clock: Clock::new(),
            keymap,
            tracker: InputTracker::default(),
            pending: Vec::new(),
            paused: false,
            help: false,
            confirm_leave: false,
            over: None,
            ghost: ctx.settings.tetris.ghost,
            hints: HintTracker::default(),
            target: None,
            banner: None,
            seen: (0, None),
            wipes_seen: 0,
            now_ms: 0,
            message: None,
        }
    }

    /// A new game for the player, with the saved handling settings.
    pub fn player(mode: Mode, seed: u64, ctx: &mut Ctx) -> GameScreen {
        let session = TetrisSession::new(mode, seed, &ctx.settings.tetris);
        GameScreen::with_driver(Driver::Play(Box::new(session)), ctx)
    }

    /// Watching a replay (already checked by the caller).
    pub fn watch(replay: Replay, ctx: &mut Ctx) -> GameScreen {
        GameScreen::with_driver(Driver::Watch(Box::new(Playback::new(replay))), ctx)
    }

    /// The bot playing endless Marathon.
    pub fn demo(seed: u64, ctx: &mut Ctx) -> GameScreen {
        // The bot taps its moves: it plays with the standard handling, not
        // the player's DAS and ARR (with DAS 0 a tap would slide to the wall).
        let handling = tetris::Settings {
            preview: ctx.settings.tetris.handling.preview,
            ..tetris::Settings::default()
        };
        let game = Game::new(Mode::Marathon { endless: true }, handling, seed);
        GameScreen::with_driver(
            Driver::Demo {
                game: Box::new(game),
                pace: 3,
                spawned_ms: 0,
                pieces: 0,
            },
            ctx,
        )
    }

    /// The game on screen.
    pub fn game(&self) -> &Game {
        match &self.driver {
            Driver::Play(session) => session.game(),
            Driver::Watch(watch) => watch.game(),
            Driver::Demo { game, .. } => game,
        }
    }

    /// The replay of the player's game so far (`None` when watching or in the demo).
    pub fn replay(&self) -> Option<Replay> {
        match &self.driver {
            Driver::Play(session) => Some(session.replay()),
            _ => None,
        }
    }

    /// Whether the terminal was seen to report key releases.
    pub fn has_key_releases(&self) -> bool {
        self.tracker.has_releases()
    }

    fn is_player(&self) -> bool {
        matches!(self.driver, Driver::Play(_))
    }

    fn running(&self) -> bool {
        !self.paused && !self.help && self.over.is_none() && self.game().is_playing()
    }

    /// Feeds the queued keys and expired holds to the player's game at `now_ms`.
    fn feed(&mut self, now_ms: u64) {
        let Driver::Play(session) = &mut self.driver else {
            self.pending.clear();
            return;
        };
        let mut events: Vec<InputEvent> = Vec::new();
        let pressed_now: Vec<String> = self
            .pending
            .iter()
            .filter(|p| p.kind != KeyEventKind::Release)
            .map(|p| physical(&p.name))
            .collect();
        self.tracker.expire(now_ms, &pressed_now, &mut events);
        for key in self.pending.drain(..) {
            self.tracker
                .key(&key.name, key.action, key.kind, now_ms, &mut events);
        }
        session.update(now_ms, &events);
    }

    fn pause(&mut self) {
        if !self.is_player() {
            self.paused = true;
            return;
        }
        let now = self.now_ms;
        self.feed(now);
        let mut events = Vec::new();
        self.tracker.release_all(now, &mut events);
        if let Driver::Play(session) = &mut self.driver {
            session.update(now, &events);
            session.pause(now);
        }
        self.paused = true;
    }

    /// Goes on after a pause.
    fn resume(&mut self) {
        self.paused = false;
        if let Driver::Play(session) = &mut self.driver {
            session.resume();
        }
    }

    /// The bot's suggestion for the piece in play: the player's hint, or the demo's move.
    fn update_target(&mut self) {
        self.target = match &mut self.driver {
            Driver::Play(session) => session.hint(),
            Driver::Demo { game, .. } => self.hints.update(game),
            Driver::Watch(_) => None,
        };
    }

    /// Notices line clears (for the banner) and the end of the game.
    fn after_update(&mut self, ctx: &mut Ctx) {
        let game = self.game();
        let (lines, clear) = (game.lines(), game.last_clear().copied());
        let wipes = game.zen_clears();
        if wipes > self.wipes_seen {
            // Zen never ends: a topped-out matrix is emptied, and the player is told.
            self.wipes_seen = wipes;
            let text = vec!["ZEN: TOPPED OUT".to_owned(), "MATRIX CLEARED".to_owned()];
            self.banner = Some((text, self.now_ms + 2 * BANNER_MS));
        }
        if (lines, clear) != self.seen {
            if let Some(report) = clear
                && (lines > self.seen.0 || Some(report) != self.seen.1)
            {
                self.banner = Some((banner_text(&report), self.now_ms + BANNER_MS));
            }
            self.seen = (lines, clear);
        }
        if self
            .banner
            .as_ref()
            .is_some_and(|(_, until)| *until <= self.now_ms)
        {
            self.banner = None;
        }
        let finished = match &self.driver {
            Driver::Watch(watch) => watch.is_finished(),
            Driver::Play(session) => session.is_finished(),
            Driver::Demo { game, .. } => !game.is_playing(),
        };
        if finished && self.over.is_none() {
            self.finish(ctx);
        }
        self.update_target();
    }

    /// The end: the player's game is recorded by its session (once), the
    /// others only show their summary.
    fn finish(&mut self, ctx: &mut Ctx) {
        let summary = self.game().summary();
        let recorded = match &mut self.driver {
            Driver::Play(session) => session
                .record_end(&ctx.data, now_secs())
                .filter(|result| result.qualifies)
                .map(|result| result.recorded.clone()),
            _ => None,
        };
        if let Some(Ok(recorded)) = &recorded {
            ctx.warn(recorded.warning.clone());
        }
        let stats = Stats::of(self.game());
        self.over = Some(Over {
            summary,
            stats,
            recorded,
        });
        self.pending.clear();
    }

    fn save_replay(&mut self, ctx: &mut Ctx) {
        let Driver::Play(session) = &mut self.driver else {
            return;
        };
        self.message = Some(match session.save_replay(&ctx.data, now_secs()) {
            Ok(name) => format!("replay saved: {name}"),
            Err(e) => e,
        });
    }

    fn new_game(&self, same_seed: bool, ctx: &mut Ctx) -> Action {
        let game = self.game();
        let seed = if same_seed {
            game.seed()
        } else {
            random_seed()
        };
        let screen = match &self.driver {
            Driver::Play(_) => GameScreen::player(game.mode(), seed, ctx),
            Driver::Demo { .. } => GameScreen::demo(seed, ctx),
            Driver::Watch(_) => return Action::None,
        };
        Action::Replace(Box::new(screen))
    }

    fn on_key_player(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        self.tracker.note(key.kind);
        let press = key.kind == KeyEventKind::Press;
        if self.over.is_some() {
            if !press {
                return Action::None;
            }
            return match key.code {
                KeyCode::Enter => self.new_game(false, ctx),
                KeyCode::Char('r') => self.new_game(true, ctx),
                KeyCode::Char('s') => {
                    self.save_replay(ctx);
                    Action::None
                }
                KeyCode::Char('w') => match self.replay() {
                    Some(replay) => Action::Push(Box::new(GameScreen::watch(replay, ctx))),
                    None => Action::None,
                },
                KeyCode::Esc | KeyCode::Char('q') => Action::Pop,
                _ => Action::None,
            };
        }
        let bind = self.keymap.bound(&key);
        if self.paused {
            if !press {
                return Action::None;
            }
            return match (key.code, bind) {
                (KeyCode::Esc, _) | (_, Some((Bind::Pause, _))) => {
                    self.resume();
                    Action::None
                }
                (KeyCode::Char('?'), _) => {
                    self.help = true;
                    Action::None
                }
                // `q` always leaves a paused game, even if rebound for playing.
                (KeyCode::Char('q'), _) | (_, Some((Bind::Quit, _))) => self.quit(),
                _ => Action::None,
            };
        }
        match (key.code, bind) {
            (_, Some((Bind::Game(action), name))) => {
                self.pending.push(Pending {
                    name,
                    action,
                    kind: key.kind,
                });
            }
            _ if !press => {}
            (KeyCode::Esc, _) | (_, Some((Bind::Pause, _))) => self.pause(),
            (KeyCode::Char('?'), _) => {
                self.pause();
                self.help = true;
            }
            (_, Some((Bind::Hint, _))) => {
                if let Driver::Play(session) = &mut self.driver {
                    let on = !session.hint_on();
                    session.set_hint(on);
                }
                self.update_target();
            }
            (_, Some((Bind::Quit, _))) => return self.quit(),
            _ => {}
        }
        Action::None
    }

    /// The quit key: Zen (which never ends) ends with its summary; a game
    /// under way pauses and asks before it is left unrecorded; a game not
    /// begun is left at once.
    fn quit(&mut self) -> Action {
        if self.game().mode() == Mode::Zen
            && self.game().pieces() > 0
            && let Driver::Play(session) = &mut self.driver
            && session.end_zen().is_ok()
        {
            self.paused = false;
            Action::None
        } else if self.game().pieces() > 0 {
            self.pause();
            self.confirm_leave = true;
            Action::None
        } else {
            Action::Pop
        }
    }

    /// Keys while asking whether to leave: `y` leaves, anything else stays (paused).
    fn on_key_confirm_leave(&mut self, key: KeyEvent) -> Action {
        if key.kind != KeyEventKind::Press {
            return Action::None;
        }
        self.confirm_leave = false;
        match key.code {
            KeyCode::Char('y' | 'Y' | 'q') => Action::Pop,
            _ => Action::None,
        }
    }

    /// Keys while watching a replay or the demo.
    fn on_key_viewer(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        if key.kind != KeyEventKind::Press {
            return Action::None;
        }
        match key.code {
            KeyCode::Char(' ') | KeyCode::Char('p') if self.over.is_none() => {
                self.paused = !self.paused;
            }
            KeyCode::Char('+') | KeyCode::Char('=') => self.change_speed(1),
            KeyCode::Char('-') | KeyCode::Char('_') => self.change_speed(-1),
            KeyCode::Left => self.seek(false),
            KeyCode::Right => self.seek(true),
            KeyCode::Char('r') => return self.restart(ctx),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Esc | KeyCode::Char('q') => return Action::Pop,
            _ => {}
        }
        Action::None
    }

    fn change_speed(&mut self, delta: isize) {
        match &mut self.driver {
            Driver::Watch(_) => {
                let at = SPEEDS
                    .iter()
                    .position(|&s| s >= self.clock.speed_percent)
                    .unwrap_or(2);
                let next = at.saturating_add_signed(delta).min(SPEEDS.len() - 1);
                self.clock.speed_percent = SPEEDS[next];
            }
            // Faster means a shorter wait on each piece.
            Driver::Demo { pace, .. } => {
                *pace = pace.saturating_add_signed(-delta).min(PACES.len() - 1);
            }
            Driver::Play(_) => {}
        }
    }

    fn seek(&mut self, forward: bool) {
        let Driver::Watch(watch) = &mut self.driver else {
            return;
        };
        let now = self.clock.ms();
        let to = if forward {
            now.saturating_add(SEEK_MS).min(watch.replay().end_ms)
        } else {
            now.saturating_sub(SEEK_MS)
        };
        watch.advance_to(to);
        self.clock.set_ms(to);
        self.now_ms = to;
        self.over = None;
        self.banner = None;
    }

    fn restart(&mut self, ctx: &mut Ctx) -> Action {
        match &mut self.driver {
            Driver::Watch(watch) => {
                watch.advance_to(0);
                self.clock.set_ms(0);
                self.now_ms = 0;
                self.over = None;
                self.paused = false;
                self.banner = None;
                self.seen = (0, None);
                Action::None
            }
            _ => self.new_game(false, ctx),
        }
    }

    // ----- drawing -----

    /// Draws the field and the side panels; returns the field's rectangle.
    fn draw_board(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) -> Rect {
        let game = self.game();
        let spawn_rows = area.height.saturating_sub(MIN_HEIGHT).min(2);
        let height = MIN_HEIGHT + spawn_rows;
        let board = centered(area, WIDTH, height);
        let [left, _, field, _, right] = Layout::horizontal([
            Constraint::Length(LEFT_WIDTH),
            Constraint::Length(1),
            Constraint::Length(FIELD_WIDTH),
            Constraint::Length(1),
            Constraint::Length(RIGHT_WIDTH),
        ])
        .areas(board);
        let border = Style::default().fg(Color::Gray);
        // Walls around the visible rows only; the spawn rows sit open above them.
        let walls = Rect {
            y: field.y + spawn_rows,
            height: field.height.saturating_sub(spawn_rows),
            ..field
        };
        let field_block = Block::new()
            .borders(Borders::LEFT | Borders::RIGHT | Borders::BOTTOM)
            .border_style(border);
        let inner = field_block.inner(walls);
        let matrix_area = Rect {
            y: field.y,
            height: inner.height + spawn_rows,
            ..inner
        };
        frame.render_widget(field_block, walls);
        let hidden = self.paused && self.is_player();
        let view = MatrixView {
            game,
            ghost: self.ghost,
            target: self.target.and_then(|t| t.piece),
            spawn_rows,
            hidden,
        };
        view.render(matrix_area, frame.buffer_mut());

        // The side panels start level with the visible field.
        let side = |r: Rect| Rect {
            y: r.y + spawn_rows,
            height: r.height.saturating_sub(spawn_rows),
            ..r
        };
        let (left, right) = (side(left), side(right));
        let [hold_area, stats_area] =
            Layout::vertical([Constraint::Length(4), Constraint::Min(0)]).areas(left);
        let hold_title = if game.can_hold() || game.hold_piece().is_none() {
            " HOLD "
        } else {
            " HOLD (used) "
        };
        let hold_block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(border)
            .title(hold_title);
        let hold_inner = hold_block.inner(hold_area);
        frame.render_widget(hold_block, hold_area);
        if let Some(kind) = game.hold_piece()
            && !hidden
        {
            let dim = (!game.can_hold()).then(|| Style::default().fg(Color::DarkGray));
            render_piece(kind, centered(hold_inner, 8, 2), frame.buffer_mut(), dim);
        }
        frame.render_widget(Paragraph::new(self.stats_lines(ctx)), stats_area);

        let queue = game.next_queue();
        let next_height = (queue.len() as u16 * 3).max(2) + 1;
        let [next_area, splits_area] =
            Layout::vertical([Constraint::Length(next_height), Constraint::Min(0)]).areas(right);
        if game.mode() == Mode::Sprint {
            let lines = splits_lines(game, splits_area.height);
            frame.render_widget(Paragraph::new(lines), splits_area);
        }
        let next_block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(border)
            .title(" NEXT ");
        let next_inner = next_block.inner(next_area);
        frame.render_widget(next_block, next_area);
        if !hidden {
            for (i, kind) in queue.iter().enumerate() {
                let slot = Rect {
                    x: next_inner.x + next_inner.width.saturating_sub(8) / 2,
                    y: next_inner.y + i as u16 * 3,
                    width: 8.min(next_inner.width),
                    height: 2,
                };
                if slot.y + 2 <= next_inner.y + next_inner.height {
                    render_piece(*kind, slot, frame.buffer_mut(), None);
                }
            }
        }
        walls
    }

    fn stats_lines(&self, _ctx: &Ctx) -> Vec<Line<'static>> {
        let game = self.game();
        let summary = game.summary();
        let label = Style::default().fg(Color::Gray);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let row = |name: &str, value: String| {
            Line::from(vec![
                Span::styled(format!("{name:<7}"), label),
                Span::styled(format!("{value:>10}"), bold),
            ])
        };
        let mut lines = vec![Line::styled(
            mode_title(game.mode()),
            Style::default()
                .fg(Color::Rgb(230, 190, 80))
                .add_modifier(Modifier::BOLD),
        )];
        match &self.driver {
            Driver::Watch(_) => lines.push(Line::styled(
                format!("replay  {}", speed_text(self.clock.speed_percent)),
                label,
            )),
            Driver::Demo { pace, .. } => lines.push(Line::styled(
                format!("demo  wait {} ms", PACES.get(*pace).copied().unwrap_or(0)),
                label,
            )),
            Driver::Play(_) => lines.push(Line::raw("")),
        }
        lines.push(row("Score", thousands(game.score())));
        lines.push(row("Level", game.level().to_string()));
        let lines_text = match game.mode().line_goal() {
            Some(goal) => format!("{}/{goal}", game.lines()),
            None => game.lines().to_string(),
        };
        lines.push(row("Lines", lines_text));
        match game.mode().time_limit_ms() {
            Some(limit) => lines.push(row("Left", time_text(limit.saturating_sub(game.time_ms())))),
            None => lines.push(row("Time", time_text(game.time_ms()))),
        }
        lines.push(row("PPS", format!("{:.2}", summary.pieces_per_second)));
        lines.push(row("Pieces", game.pieces().to_string()));
        let stats = Stats::of(game);
        lines.push(row("KPP", format!("{:.2}", stats.keys_per_piece)));
        lines.push(row("Finesse", format!("{:.1}%", stats.finesse_rate)));
        lines.push(row("Faults", stats.faults.to_string()));
        if stats.last_fault {
            let text = if game.settings().finesse_training {
                "fault: try again"
            } else {
                "finesse fault"
            };
            lines.push(Line::styled(
                text,
                Style::default()
                    .fg(Color::LightRed)
                    .add_modifier(Modifier::BOLD),
            ));
        } else {
            lines.push(Line::raw(""));
        }
        if let Some((texts, _)) = &self.banner {
            for text in texts {
                lines.push(Line::styled(
                    text.clone(),
                    Style::default()
                        .fg(Color::Yellow)
                        .add_modifier(Modifier::BOLD),
                ));
            }
        }
        if self.game().back_to_back() {
            lines.push(Line::styled("back-to-back", label));
        }
        if matches!(&self.driver, Driver::Play(session) if session.hint_on()) {
            let text = match self.target {
                Some(Hint {
                    piece: Some(_),
                    hold_first: true,
                }) => "hint: hold, then []",
                Some(Hint { piece: Some(_), .. }) => "hint: []",
                _ => "hint: no placement",
            };
            lines.push(Line::styled(text, Style::default().fg(Color::White)));
        }
        if self.paused && !self.is_player() {
            lines.push(Line::styled(
                "paused",
                Style::default()
                    .fg(Color::Yellow)
                    .add_modifier(Modifier::BOLD),
            ));
        }
        lines
    }

    /// The footer: as many keys as `width` holds, the way out and `?` (which
    /// lists every key) first; an action without a key is left out.
    fn hints_line(&self, width: u16) -> Line<'static> {
        match &self.driver {
            Driver::Play(_) => {
                let k = |bind: Bind| self.keymap.first(bind);
                let moves = match (
                    k(Bind::Game(GameAction::Left)),
                    k(Bind::Game(GameAction::Right)),
                ) {
                    (Some(l), Some(r)) if l.chars().count() == 1 && r.chars().count() == 1 => {
                        Some(format!("{l}{r}"))
                    }
                    (Some(l), Some(r)) => Some(format!("{l} {r}")),
                    (l, r) => l.or(r),
                };
                // In the order shown, each with its rank when room is short (0 kept first).
                let pairs = [
                    (Some("?".to_owned()), "keys", 0),
                    (moves, "move", 2),
                    (k(Bind::Game(GameAction::SoftDrop)), "soft", 5),
                    (k(Bind::Game(GameAction::HardDrop)), "drop", 3),
                    (k(Bind::Game(GameAction::RotateCw)), "cw", 4),
                    (k(Bind::Game(GameAction::RotateCcw)), "ccw", 6),
                    (k(Bind::Game(GameAction::Rotate180)), "180", 10),
                    (k(Bind::Game(GameAction::Hold)), "hold", 7),
                    (k(Bind::Pause), "pause", 8),
                    (k(Bind::Hint), "hint", 9),
                    (k(Bind::Quit), "menu", 1),
                ];
                let bound: Vec<(String, &str, u8)> = pairs
                    .into_iter()
                    .filter_map(|(key, what, rank)| key.map(|key| (key, what, rank)))
                    .collect();
                let line_of = |max_rank: u8| {
                    let refs: Vec<(&str, &str)> = bound
                        .iter()
                        .filter(|(_, _, rank)| *rank <= max_rank)
                        .map(|(key, what, _)| (key.as_str(), *what))
                        .collect();
                    key_hints(&refs)
                };
                (0..=10u8)
                    .rev()
                    .map(line_of)
                    .find(|line| line.width() <= usize::from(width))
                    .unwrap_or_else(|| line_of(1))
            }
            Driver::Watch(_) => key_hints(&[
                ("Space", "pause"),
                ("+ -", "speed"),
                ("← →", "seek 5 s"),
                ("r", "restart"),
                ("?", "keys"),
                ("q", "back"),
            ]),
            Driver::Demo { .. } => key_hints(&[
                ("Space", "pause"),
                ("+ -", "faster / slower"),
                ("r", "new game"),
                ("?", "keys"),
                ("q", "back"),
            ]),
        }
    }

    fn draw_help(&self, frame: &mut Frame, area: Rect) {
        let key_style = Style::default()
            .fg(Color::Yellow)
            .add_modifier(Modifier::BOLD);
        let line = |keys: String, what: &str| {
            Line::from(vec![
                Span::styled(format!("{keys:<12}"), key_style),
                Span::raw(what.to_owned()),
            ])
        };
        let mut lines = Vec::new();
        if self.is_player() {
            for bind in BINDS {
                lines.push(line(self.keymap.shown(bind), bind.label()));
            }
            lines.push(line("Esc".into(), "pause"));
            if self.keymap.lookup("shift").is_some() {
                lines.push(Line::styled(
                    "(Most terminals never report Shift on its own: bind a second key too.)",
                    Style::default().fg(Color::Gray),
                ));
            }
        } else {
            lines.push(line("Space p".into(), "pause"));
            if matches!(self.driver, Driver::Watch(_)) {
                lines.push(line("+ -".into(), "faster / slower"));
                lines.push(line("← →".into(), "back / forward 5 seconds"));
                lines.push(line("r".into(), "watch again from the start"));
            } else {
                lines.push(line("+ -".into(), "faster / slower"));
                lines.push(line("r".into(), "new demo game"));
            }
            lines.push(line("q Esc".into(), "back"));
        }
        lines.push(line("?".into(), "this help (any key closes it)"));
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            if self.tracker.has_releases() {
                "Key releases: reported (kitty protocol); DAS/ARR timed by the game."
            } else {
                "Key releases: not seen; the terminal's key repeat counts as held."
            },
            Style::default().fg(Color::Gray),
        ));
        lines.push(Line::styled(
            "Change keys and handling in the Tetris menu's Settings.",
            Style::default().fg(Color::Gray),
        ));
        popup(frame, area, "Tetris keys", lines, Color::Rgb(230, 190, 80));
    }

    fn draw_over(&self, frame: &mut Frame, area: Rect, over: &Over) {
        let s = &over.summary;
        // A summary over a game still playing is one the player ended (Zen).
        let title = if matches!(self.driver, Driver::Watch(_)) {
            "Replay finished"
        } else {
            End::of(s.status, true).map_or("Game ended", |end| end.title(s.mode))
        };
        let gray = Style::default().fg(Color::Gray);
        let mut lines = vec![
            Line::from(format!(
                "Score {}   Lines {}   Level {}",
                thousands(s.score),
                s.lines,
                s.level
            )),
            Line::from(format!(
                "Time {}   Pieces {}   PPS {:.2}",
                time_text(s.time_ms),
                s.pieces,
                s.pieces_per_second
            )),
            Line::from(format!(
                "KPP {:.2}   Finesse {:.1}%   Faults {}",
                over.stats.keys_per_piece, over.stats.finesse_rate, over.stats.faults
            )),
        ];
        let splits: Vec<String> = over
            .stats
            .splits
            .reached()
            .map(|(lines, ms)| format!("{lines} {}", time_text(ms)))
            .collect();
        if !splits.is_empty() {
            lines.push(Line::from(format!("Splits  {}", splits.join("  "))));
        }
        lines.push(Line::raw(""));
        match &over.recorded {
            Some(Ok(recorded)) => {
                lines.push(Line::styled(
                    match recorded.rank {
                        Some(0) => "New best!".to_owned(),
                        Some(rank) => format!("High score #{}", rank + 1),
                        None => format!("Not in the top {}", TABLE_SIZE),
                    },
                    Style::default()
                        .fg(Color::Yellow)
                        .add_modifier(Modifier::BOLD),
                ));
                lines.push(Line::styled("  #      Score  Lines     Time    PPS", gray));
                for (i, entry) in recorded.table.iter().enumerate().take(SUMMARY_ROWS) {
                    let mine = recorded.rank == Some(i);
                    let style = if mine {
                        Style::default()
                            .fg(Color::Black)
                            .bg(Color::Rgb(230, 190, 80))
                    } else {
                        Style::default()
                    };
                    lines.push(Line::styled(score_row(i, entry), style));
                }
                if let Some(rank) = recorded.rank.filter(|&r| r >= SUMMARY_ROWS)
                    && let Some(entry) = recorded.table.get(rank)
                {
                    lines.push(Line::styled(
                        score_row(rank, entry),
                        Style::default()
                            .fg(Color::Black)
                            .bg(Color::Rgb(230, 190, 80)),
                    ));
                }
            }
            Some(Err(message)) => lines.push(Line::styled(message.clone(), gray)),
            None if self.is_player() && s.mode == Mode::Sprint => lines.push(Line::styled(
                "Only finished sprints enter the high scores.",
                gray,
            )),
            None => {}
        }
        lines.push(Line::raw(""));
        if let Some(message) = &self.message {
            lines.push(Line::styled(message.clone(), gray));
        }
        lines.push(match &self.driver {
            Driver::Play(_) => key_hints(&[
                ("Enter", "new game"),
                ("r", "same seed"),
                ("s", "save replay"),
                ("w", "watch it"),
                ("q", "menu"),
            ]),
            Driver::Watch(_) => {
                key_hints(&[("r", "watch again"), ("← ", "back 5 s"), ("q", "back")])
            }
            Driver::Demo { .. } => key_hints(&[("r", "new demo game"), ("q", "back")]),
        });
        popup(frame, area, title, lines, Color::Rgb(230, 190, 80));
    }
}

/// Sprint's splits under the next queue: one line per 10 lines reached, under a title
/// when `height` leaves room for it.
fn splits_lines(game: &Game, height: u16) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = game
        .splits()
        .reached()
        .map(|(lines_at, ms)| Line::from(format!(" {lines_at:>2} {}", time_text(ms))))
        .collect();
    if usize::from(height) > lines.len() {
        lines.insert(0, Line::styled(" SPLITS", Style::default().fg(Color::Gray)));
    }
    lines
}

/// A row of a high-score table: rank, score, lines, time, pieces per second.
pub fn score_row(index: usize, entry: &ScoreEntry) -> String {
    format!(
        "{:>3}  {:>9}  {:>5}  {:>7}  {:>5.2}{}",
        index + 1,
        thousands(entry.score),
        entry.lines,
        time_text(entry.time_ms),
        entry.pieces_per_second,
        if entry.assisted { " h" } else { "" }
    )
}

/// `m:ss.d`.
pub fn time_text(ms: u64) -> String {
    format!("{}:{:02}.{}", ms / 60_000, ms / 1000 % 60, ms / 100 % 10)
}

fn speed_text(percent: u64) -> String {
    match percent {
        25 => "¼×".to_owned(),
        50 => "½×".to_owned(),
        p => format!("{}×", p / 100),
    }
}

/// `T-SPIN DOUBLE`, `TETRIS`, with back-to-back, combo and perfect clear, a
/// line each, so that none is cut in the narrow panel beside the matrix.
fn banner_text(report: &ClearReport) -> Vec<String> {
    let cleared = match report.lines {
        0 => "",
        1 => "SINGLE",
        2 => "DOUBLE",
        3 => "TRIPLE",
        _ => "TETRIS",
    };
    let mut lines = Vec::new();
    match report.t_spin {
        TSpin::None => {}
        TSpin::Mini => lines.push("T-SPIN MINI".to_owned()),
        TSpin::Full => lines.push("T-SPIN".to_owned()),
    }
    let cleared = if report.back_to_back && !cleared.is_empty() {
        format!("B2B {cleared}")
    } else {
        cleared.to_owned()
    };
    if !cleared.is_empty() {
        lines.push(cleared);
    }
    if report.combo > 0 {
        lines.push(format!("combo {}", report.combo));
    }
    if report.perfect_clear {
        lines.push("PERFECT CLEAR".to_owned());
    }
    lines
}

impl Screen for GameScreen {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        if self.help {
            if key.kind == KeyEventKind::Press {
                self.help = false;
            }
            return Action::None;
        }
        if self.confirm_leave {
            return self.on_key_confirm_leave(key);
        }
        if self.is_player() {
            self.on_key_player(key, ctx)
        } else {
            self.on_key_viewer(key, ctx)
        }
    }

    fn tick(&mut self, now: Instant, ctx: &mut Ctx) -> Action {
        // Behind the "needs a larger terminal" message the game must not run on.
        if ctx.screen_area.is_some_and(|area| !fits(area)) && self.running() {
            self.pause();
        }
        let running = self.running();
        let now_ms = self.clock.tick(now, running);
        self.now_ms = now_ms;
        if running {
            match &mut self.driver {
                Driver::Play(_) => self.feed(now_ms),
                Driver::Watch(watch) => watch.advance_to(now_ms),
                Driver::Demo {
                    game,
                    pace,
                    spawned_ms,
                    pieces,
                } => {
                    game.advance_to(now_ms);
                    if game.pieces() != *pieces {
                        *pieces = game.pieces();
                        *spawned_ms = now_ms;
                    }
                    let wait = PACES.get(*pace).copied().unwrap_or(0);
                    // Nothing fits: let gravity end the game.
                    if now_ms >= spawned_ms.saturating_add(wait)
                        && self.hints.bot().play_piece(game).is_none()
                    {
                        *spawned_ms = now_ms;
                    }
                }
            }
        } else {
            self.pending.clear();
        }
        self.after_update(ctx);
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let hints_height = u16::from(area.height > MIN_HEIGHT + 2);
        let [main, hints] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(hints_height)]).areas(area);
        if !fits(area) {
            let text = vec![
                Line::from("Tetris needs a larger terminal:"),
                Line::from(format!(
                    "at least {WIDTH}x{MIN_HEIGHT} (this one is {}x{}).",
                    area.width, area.height
                )),
                Line::from("Enlarge it, or press q to leave."),
            ];
            frame.render_widget(Paragraph::new(text), area);
            return;
        }
        let field = self.draw_board(frame, main, ctx);
        frame.render_widget(
            Paragraph::new(self.hints_line(hints.width)).centered(),
            hints,
        );
        if self.help {
            self.draw_help(frame, main);
        } else if self.confirm_leave {
            let lines = vec![
                Line::from("Not finished:"),
                Line::from("not recorded."),
                Line::raw(""),
                key_hints(&[("y", "leave")]),
                key_hints(&[("n", "play on")]),
            ];
            popup(frame, field, "Leave game?", lines, Color::Rgb(230, 190, 80));
        } else if let Some(over) = &self.over {
            self.draw_over(frame, main, over);
        } else if self.paused && self.is_player() {
            // Over the (hidden) field, leaving the figures beside it readable.
            let lines = vec![
                key_hints(&[(
                    &match self.keymap.first(Bind::Pause) {
                        Some(key) => format!("{key} Esc"),
                        None => "Esc".to_owned(),
                    },
                    "resume",
                )]),
                key_hints(&[("q", "menu")]),
                key_hints(&[("?", "keys")]),
            ];
            popup(frame, field, "Paused", lines, Color::Rgb(230, 190, 80));
        }
    }

    fn on_focus(&mut self, gained: bool, _ctx: &mut Ctx) {
        if !gained && self.is_player() && self.running() {
            self.pause();
        }
    }

    fn wants_key_releases(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_banner_line_fits_beside_the_matrix() {
        let report = ClearReport {
            lines: 2,
            t_spin: TSpin::Mini,
            back_to_back: true,
            combo: 12,
            perfect_clear: true,
            points: 0,
        };
        let lines = banner_text(&report);
        assert_eq!(
            lines,
            ["T-SPIN MINI", "B2B DOUBLE", "combo 12", "PERFECT CLEAR"]
        );
        // The stats column is 17 columns wide (a 7-column name, a 10-column value).
        assert!(lines.iter().all(|l| l.chars().count() <= 17), "{lines:?}");
    }
}
