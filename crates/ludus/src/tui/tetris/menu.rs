//! The Tetris menu: the modes (with each one's best), versus the bot, the demo, high
//! scores, replays and settings.

use std::time::Instant;

use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use tetris::Mode;

use super::game::{GameScreen, time_text};
use super::replays::Replays;
use super::scores::Scores;
use super::settings::TetrisSettingsScreen;
use super::thousands;
use super::versus::VersusMenu;
use crate::session::tetris::{HighScores, MODES, high_scores, mode_title, random_seed};
use crate::store::Warning;
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{MenuKey, centered, key_hints, menu_key};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    Play(Mode),
    Versus,
    Demo,
    Scores,
    Replays,
    Settings,
}

const ITEMS: [Item; 10] = [
    Item::Play(MODES[0]),
    Item::Play(MODES[1]),
    Item::Play(MODES[2]),
    Item::Play(MODES[3]),
    Item::Play(MODES[4]),
    Item::Versus,
    Item::Demo,
    Item::Scores,
    Item::Replays,
    Item::Settings,
];

fn about(item: Item) -> &'static str {
    match item {
        Item::Play(Mode::Marathon { endless: false }) => "150 lines, up to level 15",
        Item::Play(Mode::Marathon { endless: true }) => "until you top out",
        Item::Play(Mode::Sprint) => "40 lines against the clock",
        Item::Play(Mode::Ultra) => "most points in 2 minutes",
        Item::Play(Mode::Zen) => "no gravity, no game over",
        Item::Versus => "against the bot, side by side",
        Item::Demo => "watch the bot play",
        Item::Scores => "the best games of each mode",
        Item::Replays => "watch saved games",
        Item::Settings => "handling (DAS, ARR, soft drop) and keys",
    }
}

fn name(item: Item) -> &'static str {
    match item {
        Item::Play(mode) => mode_title(mode),
        Item::Versus => "Versus bot",
        Item::Demo => "Demo",
        Item::Scores => "High scores",
        Item::Replays => "Replays",
        Item::Settings => "Settings",
    }
}

/// The key that opens the `i`th item directly (1–9; later items have none).
fn digit(i: usize) -> String {
    if i < 9 {
        (i + 1).to_string()
    } else {
        " ".to_owned()
    }
}

/// The best result of a mode, as the menu shows it.
pub fn best_text(scores: &HighScores, mode: Mode) -> String {
    match (scores.table(mode).first(), mode) {
        (None, _) => String::new(),
        (Some(best), Mode::Sprint) => format!("best {}", time_text(best.time_ms)),
        (Some(best), _) => format!("best {}", thousands(best.score)),
    }
}

pub struct Menu {
    selected: usize,
    /// The seed for the next game (from `--seed`), used once.
    seed: Option<u64>,
    scores: HighScores,
    /// A problem met when reloading the scores, reported at the next tick.
    warning: Option<Warning>,
    /// A game to open at the first tick (`ludus tetris --mode …`), so that leaving it
    /// comes back here.
    autostart: Option<Mode>,
}

impl Menu {
    pub fn new(ctx: &mut Ctx, seed: Option<u64>) -> Menu {
        let (scores, warning) = high_scores(&ctx.data);
        ctx.warn(warning);
        Menu {
            selected: 0,
            seed,
            scores,
            warning: None,
            autostart: None,
        }
    }

    /// The menu, with a game of `mode` opened on top of it straight away.
    pub fn starting(ctx: &mut Ctx, seed: Option<u64>, mode: Mode) -> Menu {
        let mut menu = Menu::new(ctx, seed);
        menu.autostart = Some(mode);
        menu.selected = ITEMS
            .iter()
            .position(|item| *item == Item::Play(mode))
            .unwrap_or(0);
        menu
    }

    fn open(&mut self, ctx: &mut Ctx) -> Action {
        self.open_item(ITEMS[self.selected], ctx)
    }

    fn open_item(&mut self, item: Item, ctx: &mut Ctx) -> Action {
        let seed = self.seed.take().unwrap_or_else(random_seed);
        let screen: Box<dyn Screen> = match item {
            Item::Play(mode) => Box::new(GameScreen::player(mode, seed, ctx)),
            Item::Versus => Box::new(VersusMenu::new(Some(seed))),
            Item::Demo => Box::new(GameScreen::demo(seed, ctx)),
            Item::Scores => Box::new(Scores::new(ctx)),
            Item::Replays => Box::new(Replays::new(ctx)),
            Item::Settings => Box::new(TetrisSettingsScreen::new()),
        };
        Action::Push(screen)
    }
}

impl Screen for Menu {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        match menu_key(key, &mut self.selected, ITEMS.len()) {
            MenuKey::Open => self.open(ctx),
            MenuKey::Leave => Action::Pop,
            MenuKey::None => Action::None,
        }
    }

    fn tick(&mut self, _now: Instant, ctx: &mut Ctx) -> Action {
        ctx.warn(self.warning.take());
        match self.autostart.take() {
            Some(mode) => self.open_item(Item::Play(mode), ctx),
            None => Action::None,
        }
    }

    fn resume(&mut self, ctx: &Ctx) {
        let (scores, warning) = high_scores(&ctx.data);
        self.scores = scores;
        self.warning = warning;
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _ctx: &Ctx) {
        let height = 3 + ITEMS.len() as u16 + 3 + 2;
        let inner = centered(area, 72, height);
        let [title, list, hints] = Layout::vertical([
            Constraint::Length(3),
            Constraint::Length(ITEMS.len() as u16 + 3),
            Constraint::Length(2),
        ])
        .areas(inner);
        let gold = Color::Rgb(230, 190, 80);
        let mut title_spans = Vec::new();
        for (letter, colour) in "TETRIS".chars().zip([51u8, 226, 129, 46, 196, 208]) {
            title_spans.push(Span::styled(
                format!(" {letter} "),
                Style::default()
                    .fg(Color::Black)
                    .bg(Color::Indexed(colour))
                    .add_modifier(Modifier::BOLD),
            ));
        }
        frame.render_widget(
            Paragraph::new(vec![Line::from(title_spans), Line::raw("")]).centered(),
            title,
        );
        let mut lines = Vec::new();
        for (i, item) in ITEMS.iter().enumerate() {
            if i == MODES.len() || i == MODES.len() + 2 {
                lines.push(Line::raw(""));
            }
            let chosen = i == self.selected;
            let style = if chosen {
                Style::default()
                    .fg(Color::Black)
                    .bg(gold)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default().fg(Color::White)
            };
            let best = match item {
                Item::Play(mode) => best_text(&self.scores, *mode),
                _ => String::new(),
            };
            lines.push(Line::from(vec![
                Span::raw(if chosen { "▶ " } else { "  " }),
                Span::styled(format!(" {} {:<17}", digit(i), name(*item)), style),
                Span::styled(
                    format!("  {:<28}", about(*item)),
                    Style::default().fg(Color::DarkGray),
                ),
                Span::styled(best, Style::default().fg(gold)),
            ]));
        }
        frame.render_widget(Paragraph::new(lines), list);
        frame.render_widget(
            Paragraph::new(key_hints(&[
                ("↑↓", "choose"),
                ("Enter", "open"),
                ("1-9", "open directly"),
                ("q", "back"),
            ]))
            .centered(),
            hints,
        );
    }
}
