//! The launcher: the games that work, Settings and Quit.

use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::app::{Action, Ctx, Screen};
use super::settings::SettingsScreen;
use super::sokoban::browser::Browser;
use super::widgets::{MenuKey, centered, highlight, key_hints, menu_key};

/// One launcher entry: what it is called, a word about it, and what opening it does.
struct Item {
    name: &'static str,
    about: &'static str,
    open: fn(&mut Ctx) -> Action,
}

/// The games that work, then Settings and Quit. A game joins with one line.
const ITEMS: &[Item] = &[
    Item {
        name: "Sokoban",
        about: "push every box onto a goal",
        open: |ctx| Action::Push(Box::new(Browser::new(ctx, &[]))),
    },
    Item {
        name: "Tetris",
        about: "clear lines with falling pieces",
        open: |ctx| Action::Push(Box::new(super::tetris::menu::Menu::new(ctx, None))),
    },
    Item {
        name: "Xiangqi",
        about: "Chinese chess vs Ludus or a friend",
        open: |ctx| Action::Push(super::xiangqi::setup(ctx)),
    },
    Item {
        name: "Settings",
        about: "animation, deadlock warnings, mouse, look",
        open: |_| Action::Push(Box::new(SettingsScreen::new())),
    },
    Item {
        name: "Quit",
        about: "",
        open: |_| Action::Quit,
    },
];

const TITLE: [&str; 5] = [
    "█      █   █  ████   █   █   ████",
    "█      █   █  █   █  █   █  █    ",
    "█      █   █  █   █  █   █   ███ ",
    "█      █   █  █   █  █   █      █",
    "█████   ███   ████    ███   ████ ",
];

#[derive(Debug, Default)]
pub struct Launcher {
    selected: usize,
}

impl Launcher {
    pub fn new() -> Launcher {
        Launcher::default()
    }

    fn open(&self, ctx: &mut Ctx) -> Action {
        ITEMS
            .get(self.selected)
            .map_or(Action::None, |item| (item.open)(ctx))
    }
}

impl Screen for Launcher {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        match menu_key(key, &mut self.selected, ITEMS.len()) {
            MenuKey::Open => self.open(ctx),
            MenuKey::Leave => Action::Quit,
            MenuKey::None => Action::None,
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _ctx: &Ctx) {
        let height = TITLE.len() as u16 + 4 + ITEMS.len() as u16 * 2 + 2;
        let inner = centered(area, 60, height);
        let [title, subtitle, menu, hints] = Layout::vertical([
            Constraint::Length(TITLE.len() as u16 + 1),
            Constraint::Length(2),
            Constraint::Length(ITEMS.len() as u16 * 2),
            Constraint::Length(2),
        ])
        .areas(inner);
        let gold = Style::default()
            .fg(Color::Rgb(230, 190, 80))
            .add_modifier(Modifier::BOLD);
        let art: Vec<Line> = TITLE.iter().map(|l| Line::from(*l).style(gold)).collect();
        frame.render_widget(Paragraph::new(art).centered(), title);
        frame.render_widget(
            Paragraph::new("Classic games in your terminal")
                .style(Style::default().fg(Color::Gray))
                .centered(),
            subtitle,
        );
        let mut lines = Vec::new();
        for (i, Item { name, about, .. }) in ITEMS.iter().enumerate() {
            let chosen = i == self.selected;
            let marker = if chosen { "▶ " } else { "  " };
            let style = if chosen {
                highlight()
            } else {
                Style::default().fg(Color::White)
            };
            lines.push(Line::from(vec![
                Span::raw(marker),
                Span::styled(format!(" {} {name:<10}", i + 1), style),
                Span::styled(format!("  {about}"), Style::default().fg(Color::DarkGray)),
            ]));
            lines.push(Line::raw(""));
        }
        frame.render_widget(Paragraph::new(lines), centered(menu, 52, menu.height));
        let hints_line = key_hints(&[("↑↓", "choose"), ("Enter", "open"), ("q", "quit")]);
        frame.render_widget(Paragraph::new(hints_line).centered(), hints);
    }
}
