//! The settings screen: choices saved to `settings.json` when leaving.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use super::app::{Action, Ctx, Screen};
use super::widgets::{centered, highlight, key_hints};
use crate::store::settings::Look;

/// Animation steps offered, in milliseconds per step.
const ANIMATION_STEPS: [u32; 7] = [0, 30, 60, 120, 200, 350, 500];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    ShowDeadlocks,
    AnimationMs,
    Mouse,
    Look,
}

const ITEMS: [Item; 4] = [
    Item::ShowDeadlocks,
    Item::AnimationMs,
    Item::Mouse,
    Item::Look,
];

/// The looks in the order ←→ go through them.
const LOOKS: [Look; 3] = [Look::Auto, Look::Unicode, Look::Ascii];

#[derive(Debug, Default)]
pub struct SettingsScreen {
    selected: usize,
}

impl SettingsScreen {
    pub fn new() -> SettingsScreen {
        SettingsScreen::default()
    }

    fn change(&mut self, ctx: &mut Ctx, delta: isize) {
        let sokoban = &mut ctx.settings.sokoban;
        let terminal = &mut ctx.settings.terminal;
        match ITEMS[self.selected] {
            Item::Mouse => terminal.mouse = !terminal.mouse,
            Item::Look => {
                let current = LOOKS.iter().position(|&l| l == terminal.look).unwrap_or(0);
                let next = (current as isize + delta).rem_euclid(LOOKS.len() as isize);
                terminal.look = LOOKS[next as usize];
            }
            Item::ShowDeadlocks => sokoban.show_deadlocks = !sokoban.show_deadlocks,
            Item::AnimationMs => {
                let current = ANIMATION_STEPS
                    .iter()
                    .position(|&v| v >= sokoban.animation_ms)
                    .unwrap_or(3);
                let next = current
                    .saturating_add_signed(delta)
                    .min(ANIMATION_STEPS.len() - 1);
                sokoban.animation_ms = ANIMATION_STEPS[next];
            }
        }
    }
}

impl Screen for SettingsScreen {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        match key.code {
            KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('w') => {
                self.selected = self.selected.checked_sub(1).unwrap_or(ITEMS.len() - 1);
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Char('s') => {
                self.selected = (self.selected + 1) % ITEMS.len()
            }
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('a') => self.change(ctx, -1),
            KeyCode::Right
            | KeyCode::Char('l')
            | KeyCode::Char('d')
            | KeyCode::Enter
            | KeyCode::Char(' ') => self.change(ctx, 1),
            KeyCode::Esc | KeyCode::Char('q') => {
                ctx.save_settings();
                return Action::Pop;
            }
            _ => {}
        }
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let rect = centered(area, 56, ITEMS.len() as u16 * 2 + 4);
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .title(" Settings ");
        let inner = block.inner(rect);
        frame.render_widget(block, rect);
        let [list, _, hints] = Layout::vertical([
            Constraint::Length(ITEMS.len() as u16 * 2),
            Constraint::Min(0),
            Constraint::Length(1),
        ])
        .areas(inner);
        let sokoban = &ctx.settings.sokoban;
        let terminal = &ctx.settings.terminal;
        let mut lines = Vec::new();
        for (i, item) in ITEMS.iter().enumerate() {
            let (name, value) = match item {
                Item::ShowDeadlocks => (
                    "Sokoban: deadlock warnings",
                    if sokoban.show_deadlocks { "on" } else { "off" }.to_string(),
                ),
                Item::AnimationMs => (
                    "Sokoban: animation step",
                    format!("{} ms", sokoban.animation_ms),
                ),
                Item::Mouse => (
                    "Terminal: mouse",
                    if terminal.mouse { "on" } else { "off" }.to_string(),
                ),
                Item::Look => (
                    "Terminal: look",
                    match terminal.look {
                        Look::Auto if ctx.ascii() => "automatic (ASCII)",
                        Look::Auto => "automatic (Unicode)",
                        Look::Unicode => "Unicode",
                        Look::Ascii => "ASCII",
                    }
                    .to_string(),
                ),
            };
            let style = if i == self.selected {
                highlight()
            } else {
                Style::default()
            };
            lines.push(Line::from(vec![
                Span::styled(format!(" {name:<30}"), style),
                Span::raw(format!("◀ {value} ▶")),
            ]));
            lines.push(Line::raw(""));
        }
        frame.render_widget(Paragraph::new(lines), list);
        frame.render_widget(
            Paragraph::new(key_hints(&[
                ("↑↓", "choose"),
                ("←→", "change"),
                ("Esc", "save and back"),
            ])),
            hints,
        );
    }
}
