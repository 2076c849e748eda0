//! The saved replays, newest first; Enter watches one. Files that are damaged or of another
//! format version are listed with the reason and refused.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use super::game::{GameScreen, time_text};
use super::thousands;
use crate::session::tetris::{ReplayFile, format_date, mode_title, read_replay, saved_replays};
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{centered, key_hints};

pub struct Replays {
    files: Vec<ReplayFile>,
    selected: usize,
}

impl Replays {
    pub fn new(ctx: &Ctx) -> Replays {
        Replays {
            files: saved_replays(&ctx.data),
            selected: 0,
        }
    }

    fn open(&self, ctx: &mut Ctx) -> Action {
        let Some(file) = self.files.get(self.selected) else {
            return Action::None;
        };
        // Checked in full (inputs reproduce the recorded result) before watching.
        match read_replay(&file.path) {
            Ok(replay) => Action::Push(Box::new(GameScreen::watch(replay, ctx))),
            Err(e) => {
                ctx.notices.push(format!("{e:#}"));
                Action::None
            }
        }
    }
}

impl Screen for Replays {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        let len = self.files.len().max(1);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('w') => {
                self.selected = self.selected.checked_sub(1).unwrap_or(len - 1);
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Char('s') => {
                self.selected = (self.selected + 1) % len;
            }
            KeyCode::Enter | KeyCode::Char(' ') => return self.open(ctx),
            KeyCode::Esc | KeyCode::Char('q') => return Action::Pop,
            _ => {}
        }
        Action::None
    }

    fn resume(&mut self, ctx: &Ctx) {
        self.files = saved_replays(&ctx.data);
        self.selected = self.selected.min(self.files.len().saturating_sub(1));
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let rect = centered(area, 90, area.height.saturating_sub(2));
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .title(" Tetris replays ");
        let inner = block.inner(rect);
        frame.render_widget(block, rect);
        let [list, folder, hints] = Layout::vertical([
            Constraint::Min(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(inner);
        let height = usize::from(list.height);
        let first = self.selected.saturating_sub(height.saturating_sub(1));
        let mut lines = Vec::new();
        if self.files.is_empty() {
            lines.push(Line::styled(
                "No replays yet: press s on a game's summary to save one.",
                Style::default().fg(Color::DarkGray),
            ));
        }
        for (i, file) in self.files.iter().enumerate().skip(first).take(height) {
            let name = file
                .path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let (text, style) = match &file.replay {
                Ok(replay) => (
                    format!(
                        "{:<17} {:>10} pts {:>5} lines {:>8}  {}",
                        mode_title(replay.mode),
                        thousands(replay.result.score),
                        replay.result.lines,
                        time_text(replay.end_ms),
                        format_date(file.modified),
                    ),
                    Style::default(),
                ),
                Err(problem) => (
                    format!("{name}: {problem}"),
                    Style::default().fg(Color::Red),
                ),
            };
            let style = if i == self.selected {
                style
                    .bg(Color::Rgb(230, 190, 80))
                    .fg(Color::Black)
                    .add_modifier(Modifier::BOLD)
            } else {
                style
            };
            lines.push(Line::from(vec![
                Span::raw(if i == self.selected { "▶ " } else { "  " }),
                Span::styled(text, style),
            ]));
        }
        frame.render_widget(Paragraph::new(lines), list);
        frame.render_widget(
            Paragraph::new(format!("Folder: {}", ctx.data.tetris_replays().display()))
                .style(Style::default().fg(Color::DarkGray)),
            folder,
        );
        frame.render_widget(
            Paragraph::new(key_hints(&[
                ("↑↓", "choose"),
                ("Enter", "watch"),
                ("q Esc", "back"),
            ])),
            hints,
        );
    }
}
