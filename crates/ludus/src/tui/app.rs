//! The screen stack, shared context, and the dispatch of keys and ticks.

use std::time::Instant;

use anyhow::Result;
use ratatui::Frame;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::Start;
use super::launcher::Launcher;
use super::sokoban::browser::Browser;
use crate::store::{DataDir, Progress, Settings, Warning, progress, settings};

/// What every screen may read and change: saved data and notices.
pub struct Ctx {
    pub data: DataDir,
    pub settings: Settings,
    pub progress: Progress,
    /// Messages for the player (e.g. a corrupt file moved aside), shown until the next key.
    pub notices: Vec<String>,
    /// Where the top screen was last drawn (`None` before the first draw;
    /// empty when the terminal is too small for any screen): a game that
    /// cannot be seen must not run on.
    pub screen_area: Option<Rect>,
    /// The locale says UTF-8 (read from the environment by [`super::run`];
    /// `true` elsewhere, so that tests draw the same everywhere).
    pub locale_utf8: bool,
}

impl Ctx {
    pub fn new(data: DataDir) -> Ctx {
        let mut notices = Vec::new();
        let (settings, w1) = settings::load(&data);
        let (progress, w2) = progress::load(&data);
        notices.extend([w1, w2].into_iter().flatten().map(|w| w.to_string()));
        Ctx {
            data,
            settings,
            progress,
            notices,
            screen_area: None,
            locale_utf8: true,
        }
    }

    /// Whether the screens draw in plain ASCII (the look setting, or the locale).
    pub fn ascii(&self) -> bool {
        self.settings.terminal.look.is_ascii(self.locale_utf8)
    }

    pub fn warn(&mut self, warning: Option<Warning>) {
        if let Some(w) = warning {
            self.notices.push(w.to_string());
        }
    }

    /// Saves the settings, reporting (not failing) if that is impossible.
    pub fn save_settings(&mut self) {
        match settings::save(&self.data, &self.settings) {
            Ok(w) => self.warn(w),
            Err(e) => self.notices.push(format!("could not save settings: {e:#}")),
        }
    }
}

/// What a screen asks the app to do after a key or a tick.
pub enum Action {
    None,
    Push(Box<dyn Screen>),
    Pop,
    Replace(Box<dyn Screen>),
    /// Replaces this screen and the one below it (a list opened from a game
    /// opens another game in that game's place).
    ReplaceWithParent(Box<dyn Screen>),
    Quit,
}

/// One full-terminal screen: the launcher, a game's browser or board, ….
pub trait Screen {
    /// A key press (and, for screens that ask for them, repeats and releases).
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action;

    /// A click or a turn of the wheel (where the mouse is captured), in
    /// terminal cells; most screens ignore it.
    fn on_mouse(&mut self, _mouse: MouseEvent, _ctx: &mut Ctx) -> Action {
        Action::None
    }

    /// Called on every turn of the event loop with the current time.
    fn tick(&mut self, _now: Instant, _ctx: &mut Ctx) -> Action {
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx);

    /// Called when the screen above this one is closed.
    fn resume(&mut self, _ctx: &Ctx) {}

    /// The terminal gained or lost focus (where the terminal reports it).
    fn on_focus(&mut self, _gained: bool, _ctx: &mut Ctx) {}

    /// Whether the screen wants key releases and repeats too (games timed
    /// by held keys); others only see presses.
    fn wants_key_releases(&self) -> bool {
        false
    }
}

/// Smallest terminal the screens are designed for.
pub const MIN_WIDTH: u16 = 40;
pub const MIN_HEIGHT: u16 = 12;

/// The terminal application: a stack of screens and the shared context.
pub struct App {
    ctx: Ctx,
    screens: Vec<Box<dyn Screen>>,
    quit: bool,
    /// The terminal size at the last draw, to know when it is too small.
    last_area: std::cell::Cell<Rect>,
    /// The area the top screen was last drawn in (see [`Ctx::screen_area`]).
    screen_area: std::cell::Cell<Option<Rect>>,
}

impl App {
    pub fn new(data: DataDir, start: Start) -> Result<App> {
        let mut ctx = Ctx::new(data);
        let mut screens: Vec<Box<dyn Screen>> = vec![Box::new(Launcher::new())];
        if let Start::Screen(build) = start {
            screens.push(build(&mut ctx));
        } else if let Start::Sokoban { files, level } = start {
            let browser = Browser::new(&mut ctx, &files);
            let play = level.and_then(|n| browser.open_level(0, n.saturating_sub(1), &mut ctx));
            screens.push(Box::new(browser));
            if let Some(play) = play {
                screens.push(Box::new(play));
            } else if let Some(n) = level {
                ctx.notices
                    .push(format!("there is no playable level {n} in that collection"));
            }
        }
        Ok(App {
            ctx,
            screens,
            quit: false,
            last_area: std::cell::Cell::new(Rect::default()),
            screen_area: std::cell::Cell::new(None),
        })
    }

    pub fn should_quit(&self) -> bool {
        self.quit || self.screens.is_empty()
    }

    pub fn ctx(&self) -> &Ctx {
        &self.ctx
    }

    /// Tells the screens whether the locale is UTF-8 (for the automatic look).
    pub fn set_locale_utf8(&mut self, utf8: bool) {
        self.ctx.locale_utf8 = utf8;
    }

    /// Whether the mouse should be captured now (the setting).
    pub fn wants_mouse(&self) -> bool {
        self.ctx.settings.terminal.mouse
    }

    /// Handles a mouse event: button presses and the wheel reach the top
    /// screen (moves, drags and releases do not), and a press dismisses
    /// the notices as a key does.
    pub fn on_mouse(&mut self, mouse: MouseEvent) {
        if !self.wants_mouse() {
            return;
        }
        let area = self.last_area.get();
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            return;
        }
        match mouse.kind {
            MouseEventKind::Down(_) => self.ctx.notices.clear(),
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {}
            _ => return,
        }
        if let Some(screen) = self.screens.last_mut() {
            let action = screen.on_mouse(mouse, &mut self.ctx);
            self.apply(action);
        }
    }

    /// Handles a key event of any kind; releases reach only the screens that
    /// ask for them.
    pub fn on_key(&mut self, mut key: KeyEvent) {
        // Terminals speaking the kitty protocol report Shift+s as 's' with SHIFT.
        if let KeyCode::Char(c) = key.code
            && key.modifiers.contains(KeyModifiers::SHIFT)
            && c.is_ascii_lowercase()
        {
            key.code = KeyCode::Char(c.to_ascii_uppercase());
        }
        // A held key's repeats act as presses for screens that don't time keys.
        let is_press = key.kind != KeyEventKind::Release;
        let wants_all = self.screens.last().is_some_and(|s| s.wants_key_releases());
        if !is_press && !wants_all {
            return;
        }
        if key.kind == KeyEventKind::Repeat && !wants_all {
            key.kind = KeyEventKind::Press;
        }
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return;
        }
        let area = self.last_area.get();
        let too_small = area.width < MIN_WIDTH || area.height < MIN_HEIGHT;
        if too_small && area != Rect::default() {
            if key.code == KeyCode::Char('q') {
                self.quit = true;
            }
            return;
        }
        let had_notices = is_press && !self.ctx.notices.is_empty();
        if is_press {
            self.ctx.notices.clear();
        }
        if had_notices && key.code == KeyCode::Esc {
            return; // Esc only dismisses the notice
        }
        if let Some(screen) = self.screens.last_mut() {
            let action = screen.on_key(key, &mut self.ctx);
            self.apply(action);
        }
    }

    pub fn on_focus(&mut self, gained: bool) {
        if let Some(screen) = self.screens.last_mut() {
            screen.on_focus(gained, &mut self.ctx);
        }
    }

    pub fn tick(&mut self, now: Instant) {
        self.ctx.screen_area = self.screen_area.get();
        if let Some(screen) = self.screens.last_mut() {
            let action = screen.tick(now, &mut self.ctx);
            self.apply(action);
        }
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::None => {}
            Action::Push(s) => self.screens.push(s),
            Action::Pop => {
                self.screens.pop();
                if let Some(s) = self.screens.last_mut() {
                    s.resume(&self.ctx);
                }
            }
            Action::Replace(s) => {
                self.screens.pop();
                self.screens.push(s);
            }
            Action::ReplaceWithParent(s) => {
                self.screens.pop();
                self.screens.pop();
                self.screens.push(s);
            }
            Action::Quit => self.quit = true,
        }
    }

    pub fn draw(&self, frame: &mut Frame) {
        let area = frame.area();
        self.last_area.set(area);
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            // No screen is drawn: a zero-sized area tells games to pause.
            self.screen_area.set(Some(Rect::new(area.x, area.y, 0, 0)));
            let text = vec![
                Line::from("The terminal is too small."),
                Line::from(format!(
                    "Ludus needs {MIN_WIDTH}x{MIN_HEIGHT}; this one is {}x{}.",
                    area.width, area.height
                )),
                Line::from("Enlarge it, or press q to quit."),
            ];
            frame.render_widget(
                Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
                area,
            );
            return;
        }
        let notice_height = (self.ctx.notices.len() as u16).min(3);
        let [main, notices] = ratatui::layout::Layout::vertical([
            ratatui::layout::Constraint::Min(1),
            ratatui::layout::Constraint::Length(notice_height),
        ])
        .areas(area);
        if let Some(screen) = self.screens.last() {
            self.screen_area.set(Some(main));
            screen.draw(frame, main, &self.ctx);
        }
        if notice_height > 0 {
            let lines: Vec<Line> = self
                .ctx
                .notices
                .iter()
                .map(|n| Line::from(format!("! {n}")))
                .collect();
            let style = Style::default().fg(Color::White).bg(Color::Red);
            frame.render_widget(Paragraph::new(lines).style(style), notices);
        }
        if self.ctx.ascii() {
            super::widgets::to_ascii(frame.buffer_mut());
        }
    }
}
