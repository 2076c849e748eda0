//! High scores: one table per mode, ←→ to switch.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use super::game::score_row;
use crate::session::tetris::{HighScores, MODES, TABLE_SIZE, format_date, high_scores, mode_title};
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{centered, key_hints};

pub struct Scores {
    mode: usize,
    scores: HighScores,
}

impl Scores {
    pub fn new(ctx: &mut Ctx) -> Scores {
        let (scores, warning) = high_scores(&ctx.data);
        ctx.warn(warning);
        Scores { mode: 0, scores }
    }
}

impl Screen for Scores {
    fn on_key(&mut self, key: KeyEvent, _ctx: &mut Ctx) -> Action {
        match key.code {
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('a') => {
                self.mode = self.mode.checked_sub(1).unwrap_or(MODES.len() - 1);
            }
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('d') | KeyCode::Tab => {
                self.mode = (self.mode + 1) % MODES.len();
            }
            KeyCode::Esc | KeyCode::Char('q') => return Action::Pop,
            _ => {}
        }
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _ctx: &Ctx) {
        let rect = centered(area, 72, TABLE_SIZE as u16 + 7);
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .title(" Tetris high scores ");
        let inner = block.inner(rect);
        frame.render_widget(block, rect);
        let [tabs, header, table, hints] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Length(1),
            Constraint::Min(1),
            Constraint::Length(1),
        ])
        .areas(inner);
        let gold = Color::Rgb(230, 190, 80);
        let mut spans = Vec::new();
        for (i, mode) in MODES.iter().enumerate() {
            let style = if i == self.mode {
                Style::default()
                    .fg(Color::Black)
                    .bg(gold)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default().fg(Color::Gray)
            };
            spans.push(Span::styled(format!(" {} ", mode_title(*mode)), style));
            spans.push(Span::raw(" "));
        }
        frame.render_widget(Paragraph::new(Line::from(spans)), tabs);
        let mode = MODES[self.mode];
        frame.render_widget(
            Paragraph::new("  #      Score  Lines     Time    PPS    Date")
                .style(Style::default().fg(Color::Gray)),
            header,
        );
        let entries = self.scores.table(mode);
        let lines: Vec<Line> = if entries.is_empty() {
            vec![Line::styled(
                "  No games yet.",
                Style::default().fg(Color::DarkGray),
            )]
        } else {
            entries
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let row = score_row(i, e);
                    let padded = format!("{:<41}", row.trim_end_matches(" h"));
                    Line::from(vec![
                        Span::raw(padded),
                        Span::raw(format_date(e.date)),
                        Span::styled(
                            if e.assisted { "  with hints" } else { "" },
                            Style::default().fg(Color::DarkGray),
                        ),
                    ])
                })
                .collect()
        };
        frame.render_widget(Paragraph::new(lines), table);
        frame.render_widget(
            Paragraph::new(key_hints(&[("← →", "mode"), ("q Esc", "back")])),
            hints,
        );
    }
}
