//! The saved games in `xiangqi/games/`: pick one to continue it or step through it.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::play::Play;
use crate::session::xiangqi::{SavedGame, XiangqiSession, saved_games};
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{centered, key_hints};

pub struct Games {
    games: Vec<SavedGame>,
    selected: usize,
    /// Opened from a game: the game opened here takes that game's place.
    over_a_game: bool,
}

impl Games {
    pub fn new(ctx: &Ctx) -> Games {
        Games {
            games: saved_games(&ctx.data),
            selected: 0,
            over_a_game: false,
        }
    }

    /// The list opened from a game's screen.
    pub fn over_a_game(ctx: &Ctx) -> Games {
        Games {
            over_a_game: true,
            ..Games::new(ctx)
        }
    }

    fn open(&self, ctx: &mut Ctx) -> Action {
        let Some(saved) = self.games.get(self.selected) else {
            return Action::None;
        };
        match XiangqiSession::from_saved(saved) {
            Ok(session) => {
                let play = Play::with_session(session, ctx);
                if self.over_a_game {
                    Action::ReplaceWithParent(Box::new(play))
                } else {
                    Action::Replace(Box::new(play))
                }
            }
            Err(e) => {
                ctx.notices.push(e);
                Action::None
            }
        }
    }
}

impl Screen for Games {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        let n = self.games.len().max(1);
        match key.code {
            KeyCode::Up => self.selected = (self.selected + n - 1) % n,
            KeyCode::Down => self.selected = (self.selected + 1) % n,
            KeyCode::Enter | KeyCode::Char(' ') => return self.open(ctx),
            KeyCode::Esc | KeyCode::Char('q') => return Action::Pop,
            _ => {}
        }
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let gold = Tint::Rgb(230, 190, 80);
        let mut lines = vec![
            Line::styled(
                "Saved Xiangqi games",
                Style::default().fg(gold).add_modifier(Modifier::BOLD),
            ),
            Line::styled(
                ctx.data.xiangqi_games().display().to_string(),
                Style::default().fg(Tint::DarkGray),
            ),
            Line::raw(""),
        ];
        if self.games.is_empty() {
            lines.push(Line::raw(
                "No saved games yet: press S during a game to save it.",
            ));
        }
        let height = area.height.saturating_sub(6) as usize;
        let first = self.selected.saturating_sub(height.saturating_sub(1));
        for (i, g) in self.games.iter().enumerate().skip(first).take(height) {
            let about = match &g.record {
                Ok(r) => format!(
                    "{} vs {}, {}, {}",
                    r.tag("Red").unwrap_or("?"),
                    r.tag("Black").unwrap_or("?"),
                    crate::words::counted(
                        crate::session::xiangqi::flow::full_moves(&r.start, r.moves.len()),
                        "move"
                    ),
                    r.result
                ),
                Err(e) => format!("unreadable: {e}"),
            };
            let style = if i == self.selected {
                Style::default().fg(Tint::Black).bg(gold)
            } else {
                Style::default()
            };
            lines.push(Line::styled(format!("{:<28} {about}", g.name), style));
        }
        lines.push(Line::raw(""));
        lines.push(key_hints(&[
            ("↑↓", "choose"),
            ("Enter", "open"),
            ("q", "back"),
        ]));
        frame.render_widget(Paragraph::new(lines), centered(area, 100, area.height));
    }
}
