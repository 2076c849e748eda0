//! Versus against a bot: the set-up (Ludus's bot or a configured TBP bot, and its
//! speed), then two boards side by side (the player's on the left), each with its incoming-garbage meter and live statistics, and a
//! result screen. The screen turns keys into session inputs and draws the session; the
//! game, the bot and its pace live in [`VersusSession`].

use std::time::Instant;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use tetris::InputEvent;
use tetris::matrix::VISIBLE_HEIGHT;
use tetris::versus::{Outcome, Player};

use super::board::{MATRIX_WIDTH, MatrixView, render_piece};
use super::game::Clock;
use super::keys::{Bind, InputTracker, Keymap, physical};
use crate::session::tetris::now_secs;
use crate::session::tetris::random_seed;
use crate::session::tetris::versus::{BotLevel, Lookahead, Opponent, SideStats, VersusSession};
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{MenuKey, centered, key_hints, menu_key, popup};

/// One side: the meter, the field with its borders, the panel (hold, next, stats).
const METER_WIDTH: u16 = 2;
const FIELD_WIDTH: u16 = MATRIX_WIDTH + 2;
const PANEL_WIDTH: u16 = 13;
const SIDE_WIDTH: u16 = METER_WIDTH + FIELD_WIDTH + 1 + PANEL_WIDTH;
/// Both sides and the gap between them.
pub const VERSUS_WIDTH: u16 = 2 * SIDE_WIDTH + 2;
/// The title row, the visible rows, the bottom border and the key hints.
pub const VERSUS_HEIGHT: u16 = 1 + VISIBLE_HEIGHT as u16 + 1 + 1;

/// The versus set-up, opened from the Tetris menu: the opponent (←→, when TBP bots are
/// configured), Ludus's bot's look-ahead (+ −) and the speed.
pub struct VersusMenu {
    selected: usize,
    /// An index into [`Opponent::from_choice`]'s choices.
    opponent: usize,
    /// An index into [`Lookahead::ALL`].
    lookahead: usize,
    seed: Option<u64>,
}

impl VersusMenu {
    /// `seed` (from `--seed`) deals the first game.
    pub fn new(seed: Option<u64>) -> VersusMenu {
        VersusMenu {
            selected: 1,
            opponent: 0,
            lookahead: Lookahead::ALL.len() - 1,
            seed,
        }
    }

    fn lookahead(&self) -> Lookahead {
        Lookahead::ALL
            .get(self.lookahead)
            .copied()
            .unwrap_or(Lookahead::BEST)
    }
}

impl Screen for VersusMenu {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        let choices = Opponent::choices(&ctx.settings.tetris.bots);
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => {
                self.opponent = self.opponent.checked_sub(1).unwrap_or(choices - 1);
                return Action::None;
            }
            KeyCode::Right | KeyCode::Char('l') => {
                self.opponent = (self.opponent + 1) % choices;
                return Action::None;
            }
            KeyCode::Char('+' | '=') => {
                self.lookahead = (self.lookahead + 1).min(Lookahead::ALL.len() - 1);
                return Action::None;
            }
            KeyCode::Char('-') => {
                self.lookahead = self.lookahead.saturating_sub(1);
                return Action::None;
            }
            _ => {}
        }
        match menu_key(key, &mut self.selected, BotLevel::ALL.len()) {
            MenuKey::Open => {
                let level = BotLevel::ALL
                    .get(self.selected)
                    .copied()
                    .unwrap_or(BotLevel::Medium);
                let opponent = Opponent::from_choice(self.opponent, &ctx.settings.tetris.bots);
                let seed = self.seed.take().unwrap_or_else(random_seed);
                let setup = VersusSetup {
                    opponent,
                    level,
                    lookahead: self.lookahead(),
                };
                Action::Push(Box::new(VersusScreen::new(setup, seed, ctx)))
            }
            MenuKey::Leave => Action::Pop,
            MenuKey::None => Action::None,
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let bots = &ctx.settings.tetris.bots;
        let choices = Opponent::choices(bots);
        let inner = centered(area, 60, BotLevel::ALL.len() as u16 + 9);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let opponent = Opponent::from_choice(self.opponent, bots).name();
        let mut lines = vec![
            Line::styled("Versus: choose the opponent and its speed", bold),
            Line::raw(""),
            Line::styled(
                if choices > 1 {
                    format!("Opponent: ◀ {opponent} ▶")
                } else {
                    format!("Opponent: {opponent}")
                },
                bold,
            ),
            Line::styled(
                format!("Look-ahead: − {} +", self.lookahead().label()),
                bold,
            ),
            Line::raw(""),
        ];
        for (i, level) in BotLevel::ALL.iter().enumerate() {
            let chosen = i == self.selected;
            let style = if chosen {
                Style::default()
                    .fg(Color::Black)
                    .bg(Color::Rgb(230, 190, 80))
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default().fg(Color::White)
            };
            lines.push(Line::styled(
                format!(
                    "{} {} {:<20}",
                    if chosen { "▶" } else { " " },
                    i + 1,
                    level.label()
                ),
                style,
            ));
        }
        lines.push(Line::raw(""));
        let mut hints = vec![
            ("↑↓", "speed"),
            ("+−", "look-ahead"),
            ("Enter", "play"),
            ("q", "back"),
        ];
        if choices > 1 {
            hints.insert(1, ("←→", "opponent"));
        }
        lines.push(key_hints(&hints));
        frame.render_widget(Paragraph::new(lines), inner);
    }
}

/// A key of the game waiting for the next tick.
struct Pending {
    name: String,
    action: tetris::Action,
    kind: KeyEventKind,
}

/// The versus game on screen.
/// What a versus game is played against: the opponent, its speed and (Ludus's bot)
/// its look-ahead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersusSetup {
    pub opponent: Opponent,
    pub level: BotLevel,
    pub lookahead: Lookahead,
}

impl VersusSetup {
    /// Ludus's bot at `level`, looking as far as the level allows.
    pub fn ludus(level: BotLevel) -> VersusSetup {
        VersusSetup {
            opponent: Opponent::Ludus,
            level,
            lookahead: level.strength().lookahead,
        }
    }
}

pub struct VersusScreen {
    session: VersusSession,
    setup: VersusSetup,
    clock: Clock,
    keymap: Keymap,
    tracker: InputTracker,
    pending: Vec<Pending>,
    ghost: bool,
    now_ms: u64,
    message: Option<String>,
}

impl VersusScreen {
    /// A new game against `setup`, with the player's handling and keys.
    pub fn new(setup: VersusSetup, seed: u64, ctx: &mut Ctx) -> VersusScreen {
        let strength = setup.level.with_lookahead(setup.lookahead);
        let session = VersusSession::against(
            &setup.opponent,
            strength,
            ctx.settings.tetris.handling,
            seed,
        );
        VersusScreen {
            session,
            setup: VersusSetup {
                lookahead: strength.lookahead,
                ..setup
            },
            clock: Clock::new(),
            keymap: Keymap::new(&ctx.settings.tetris.keys),
            tracker: InputTracker::default(),
            pending: Vec::new(),
            ghost: ctx.settings.tetris.ghost,
            now_ms: 0,
            message: None,
        }
    }

    /// The session being played.
    pub fn session(&self) -> &VersusSession {
        &self.session
    }

    fn running(&self) -> bool {
        !self.session.is_paused() && !self.session.is_finished()
    }

    /// Feeds the queued keys and expired holds to the player's side at `now_ms`.
    fn feed(&mut self, now_ms: u64) {
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
        let inputs: Vec<(Player, InputEvent)> =
            events.into_iter().map(|e| (Player::One, e)).collect();
        self.session.update(now_ms, &inputs);
    }

    fn pause(&mut self) {
        let now = self.now_ms;
        self.feed(now);
        let mut events = Vec::new();
        self.tracker.release_all(now, &mut events);
        let inputs: Vec<(Player, InputEvent)> =
            events.into_iter().map(|e| (Player::One, e)).collect();
        self.session.update(now, &inputs);
        self.session.pause(now);
    }

    fn save_replay(&mut self, ctx: &Ctx) {
        self.message = Some(match self.session.save_replay(&ctx.data, now_secs()) {
            Ok(name) => format!("Replay saved: {name}"),
            Err(why) => format!("Could not save the replay: {why}"),
        });
    }
}

impl Screen for VersusScreen {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        self.tracker.note(key.kind);
        let press = key.kind != KeyEventKind::Release;
        if self.session.is_finished() {
            if !press {
                return Action::None;
            }
            return match key.code {
                KeyCode::Enter => Action::Replace(Box::new(VersusScreen::new(
                    self.setup.clone(),
                    random_seed(),
                    ctx,
                ))),
                KeyCode::Char('s') => {
                    self.save_replay(ctx);
                    Action::None
                }
                KeyCode::Esc | KeyCode::Char('q') => Action::Pop,
                _ => Action::None,
            };
        }
        let bind = self.keymap.bound(&key);
        if self.session.is_paused() {
            if !press {
                return Action::None;
            }
            return match (key.code, bind) {
                (KeyCode::Esc, _) | (_, Some((Bind::Pause, _))) => {
                    self.session.resume();
                    Action::None
                }
                (KeyCode::Char('q'), _) | (_, Some((Bind::Quit, _))) => Action::Pop,
                _ => Action::None,
            };
        }
        match (key.code, bind) {
            (_, Some((Bind::Game(action), name))) => self.pending.push(Pending {
                name,
                action,
                kind: key.kind,
            }),
            _ if !press => {}
            (KeyCode::Esc, _) | (_, Some((Bind::Pause | Bind::Quit, _))) => self.pause(),
            _ => {}
        }
        Action::None
    }

    fn tick(&mut self, now: Instant, _ctx: &mut Ctx) -> Action {
        let running = self.running();
        self.now_ms = self.clock.tick(now, running);
        if running {
            self.feed(self.now_ms);
        }
        Action::None
    }

    fn on_focus(&mut self, gained: bool, _ctx: &mut Ctx) {
        if !gained && self.running() {
            self.pause();
        }
    }

    fn wants_key_releases(&self) -> bool {
        true
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _ctx: &Ctx) {
        if area.width < VERSUS_WIDTH || area.height < VERSUS_HEIGHT {
            let lines = vec![
                Line::raw(format!(
                    "Versus needs a terminal of {VERSUS_WIDTH}×{VERSUS_HEIGHT} for two boards;"
                )),
                Line::raw(format!("this one is {}×{}.", area.width, area.height)),
                Line::raw("Widen the terminal, or press q to leave."),
            ];
            frame.render_widget(
                Paragraph::new(lines).centered(),
                centered(area, area.width, 3),
            );
            return;
        }
        let inner = centered(area, VERSUS_WIDTH, VERSUS_HEIGHT);
        let [title, boards, hints] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(VISIBLE_HEIGHT as u16 + 1),
            Constraint::Length(1),
        ])
        .areas(inner);
        let [left, _, right] = Layout::horizontal([
            Constraint::Length(SIDE_WIDTH),
            Constraint::Length(2),
            Constraint::Length(SIDE_WIDTH),
        ])
        .areas(boards);
        let [you, bot] = Layout::horizontal([
            Constraint::Length(SIDE_WIDTH + 2),
            Constraint::Length(SIDE_WIDTH),
        ])
        .areas(title);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        frame.render_widget(Paragraph::new(Line::styled("  You", bold)), you);
        frame.render_widget(
            Paragraph::new(Line::styled(
                format!(
                    "  {}",
                    self.setup
                        .opponent
                        .title(self.setup.level, self.setup.lookahead)
                ),
                bold,
            )),
            bot,
        );
        let paused = self.session.is_paused();
        for (player, side) in [(Player::One, left), (Player::Two, right)] {
            self.draw_side(frame, side, player, paused);
        }
        frame.render_widget(
            Paragraph::new(key_hints(&[
                ("Esc", "pause"),
                ("←→↓", "move"),
                ("Space", "drop"),
                ("c", "hold"),
            ]))
            .centered(),
            hints,
        );
        if paused {
            popup(
                frame,
                boards,
                "Paused",
                vec![key_hints(&[("Esc", "go on"), ("q", "leave")])],
                Color::Yellow,
            );
        } else if self.session.is_finished() {
            popup(frame, boards, "Result", self.result_lines(), Color::Yellow);
        }
    }
}

impl VersusScreen {
    fn draw_side(&self, frame: &mut Frame, area: Rect, player: Player, paused: bool) {
        let game = self.session.game(player);
        let [meter, field, _, panel] = Layout::horizontal([
            Constraint::Length(METER_WIDTH),
            Constraint::Length(FIELD_WIDTH),
            Constraint::Length(1),
            Constraint::Length(PANEL_WIDTH),
        ])
        .areas(area);
        // The meter: ready lines (red) at the bottom, pending ones (yellow) above.
        let gauge = self.session.versus().meter(player);
        let buf = frame.buffer_mut();
        let rows = VISIBLE_HEIGHT as u16;
        let ready = gauge.ready.min(u32::from(rows)) as u16;
        let pending = gauge.pending.min(u32::from(rows - ready)) as u16;
        for i in 0..ready + pending {
            let style = Style::default().fg(if i < ready { Color::Red } else { Color::Yellow });
            buf.set_string(meter.x, meter.y + rows - 1 - i, "█", style);
        }
        let block = Block::default().borders(Borders::LEFT | Borders::RIGHT | Borders::BOTTOM);
        let matrix_area = block.inner(field);
        frame.render_widget(block, field);
        MatrixView {
            game,
            ghost: self.ghost && player == Player::One,
            target: None,
            spawn_rows: 0,
            hidden: paused,
        }
        .render(matrix_area, frame.buffer_mut());
        let dim = Style::default().fg(Color::DarkGray);
        let stats = self.session.stats(player);
        let mut lines = vec![Line::styled("Hold", dim)];
        lines.extend([Line::raw(""), Line::raw(""), Line::styled("Next", dim)]);
        lines.extend([Line::raw(""), Line::raw(""), Line::raw("")]);
        lines.extend(stat_lines(&stats));
        frame.render_widget(Paragraph::new(lines), panel);
        let piece_area = |row: u16| Rect::new(panel.x, panel.y + row, 8.min(panel.width), 2);
        if let Some(kind) = game.hold_piece() {
            let faded = (!game.can_hold()).then(|| Style::default().fg(Color::DarkGray));
            render_piece(kind, piece_area(1), frame.buffer_mut(), faded);
        }
        if let Some(&kind) = game.next_queue().first() {
            render_piece(kind, piece_area(4), frame.buffer_mut(), None);
        }
    }

    fn result_lines(&self) -> Vec<Line<'static>> {
        let title = match self.session.outcome() {
            Some(Outcome::Winner(Player::One)) => "You win!".to_owned(),
            Some(Outcome::Winner(Player::Two)) => "The bot wins".to_owned(),
            Some(Outcome::Draw) => "A draw".to_owned(),
            None => "Game stopped".to_owned(),
        };
        let mut lines = vec![
            Line::styled(title, Style::default().add_modifier(Modifier::BOLD)),
            Line::raw(""),
            Line::raw(format!("{:<8}{:>9}{:>9}", "", "You", "Bot")),
        ];
        let [one, two] = Player::BOTH.map(|p| self.session.stats(p));
        let row = |name: &str, a: String, b: String| Line::raw(format!("{name:<8}{a:>9}{b:>9}"));
        lines.push(row(
            "Pieces",
            one.core.pieces.to_string(),
            two.core.pieces.to_string(),
        ));
        lines.push(row(
            "PPS",
            format!("{:.2}", one.core.pieces_per_second),
            format!("{:.2}", two.core.pieces_per_second),
        ));
        lines.push(row(
            "APM",
            format!("{:.1}", one.attack_per_minute),
            format!("{:.1}", two.attack_per_minute),
        ));
        lines.push(row(
            "APP",
            format!("{:.2}", one.core.attack_per_piece),
            format!("{:.2}", two.core.attack_per_piece),
        ));
        lines.push(row(
            "Sent",
            one.core.garbage.sent.to_string(),
            two.core.garbage.sent.to_string(),
        ));
        lines.push(row(
            "KPP",
            format!("{:.2}", one.live.keys_per_piece),
            format!("{:.2}", two.live.keys_per_piece),
        ));
        lines.push(row(
            "Finesse",
            format!("{:.0}%", one.live.finesse_rate),
            format!("{:.0}%", two.live.finesse_rate),
        ));
        lines.push(Line::raw(""));
        for player in Player::BOTH {
            if let Some(why) = self.session.forfeit(player) {
                let who = match player {
                    Player::One => "You",
                    Player::Two => "The bot",
                };
                let text: String = format!("{who} forfeited: {why}").chars().take(60).collect();
                lines.push(Line::raw(text));
            }
        }
        if let Some(message) = &self.message {
            lines.push(Line::raw(message.clone()));
        }
        lines.push(key_hints(&[
            ("Enter", "play again"),
            ("s", "save replay"),
            ("q", "back"),
        ]));
        lines
    }
}

/// The live figures beside a board.
fn stat_lines(stats: &SideStats) -> Vec<Line<'static>> {
    let dim = Style::default().fg(Color::DarkGray);
    vec![
        Line::styled("PPS", dim),
        Line::raw(format!("{:.2}", stats.core.pieces_per_second)),
        Line::styled("APM", dim),
        Line::raw(format!("{:.1}", stats.attack_per_minute)),
        Line::styled("Pieces", dim),
        Line::raw(stats.core.pieces.to_string()),
        Line::styled("Sent", dim),
        Line::raw(stats.core.garbage.sent.to_string()),
        Line::styled("KPP", dim),
        Line::raw(format!("{:.2}", stats.live.keys_per_piece)),
        Line::styled("Finesse", dim),
        Line::raw(format!("{:.0}%", stats.live.finesse_rate)),
    ]
}
