//! The set-up screen: against Ludus, two players, or engines playing each
//! other (Ludus at two strengths, or a configured UCI/UCCI engine); side,
//! strength, clock; start, or open the games database.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use xiangqi::{Color, Game};

use super::play::{Opponent, Play};
use super::{CLOCKS, LEVELS, clock, games::Games};
use crate::session::xiangqi::XiangqiSession;
use crate::session::xiangqi::flow::Clocks;
use crate::session::xiangqi::watch::{self, Seat};
use crate::store::settings::XiangqiSettings;
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{centered, key_hints};

/// Rows of the form: opponent, side, strength, Red's engine, Black's
/// engine, clock, start, the games database.
const ROWS: usize = 8;
const START_ROW: usize = 6;
const CLOCK_ROW: usize = 5;

pub struct Setup {
    choice: XiangqiSettings,
    row: usize,
}

impl Setup {
    pub fn new(ctx: &Ctx) -> Setup {
        let mut choice = ctx.settings.xiangqi.clone();
        choice.level = choice.level.min(LEVELS.len() - 1);
        choice.clock = choice.clock.min(CLOCKS.len() - 1);
        let seats = watch::choices(&choice.engines);
        for seat in &mut choice.watch_seats {
            *seat = (*seat).min(seats - 1);
        }
        Setup {
            choice,
            row: START_ROW,
        }
    }

    /// Whether a row applies: side and strength only against Ludus, the
    /// engines only when they play each other.
    fn shown(&self, row: usize) -> bool {
        let c = &self.choice;
        match row {
            1 | 2 => c.vs_engine && !c.watch,
            3 | 4 => c.watch,
            _ => true,
        }
    }

    /// Moves the selection by `step` rows (mod [`ROWS`]), over hidden rows.
    fn move_row(&mut self, step: usize) {
        loop {
            self.row = (self.row + step) % ROWS;
            if self.shown(self.row) {
                break;
            }
        }
    }

    fn change(&mut self, forward: bool) {
        let step = |v: usize, n: usize| {
            if forward {
                (v + 1) % n
            } else {
                (v + n - 1) % n
            }
        };
        let c = &mut self.choice;
        match self.row {
            // Against Ludus → two players → engines → against Ludus.
            0 => {
                let mode = match (c.watch, c.vs_engine) {
                    (true, _) => 2,
                    (false, true) => 0,
                    (false, false) => 1,
                };
                let next = step(mode, 3);
                c.vs_engine = next == 0;
                c.watch = next == 2;
            }
            1 => c.human_red = !c.human_red,
            2 => c.level = step(c.level, LEVELS.len()),
            3 | 4 => {
                let n = watch::choices(&c.engines);
                let seat = &mut c.watch_seats[self.row - 3];
                *seat = step(*seat, n);
            }
            CLOCK_ROW => c.clock = step(c.clock, CLOCKS.len()),
            _ => {}
        }
    }

    fn start(&self, ctx: &mut Ctx) -> Action {
        ctx.settings.xiangqi = self.choice.clone();
        ctx.save_settings();
        let c = &self.choice;
        if c.watch {
            let seats = c.watch_seats.map(|i| Seat::from_choice(i, &c.engines));
            let clocks = clock(c.clock).map(|(base, inc)| Clocks::new(base, inc));
            let session = XiangqiSession::watch(Game::new(), seats, clocks, false);
            return Action::Replace(Box::new(Play::with_session(session, ctx)));
        }
        let opponent = if c.vs_engine {
            Opponent::Engine {
                human: if c.human_red {
                    Color::Red
                } else {
                    Color::Black
                },
                level: c.level,
            }
        } else {
            Opponent::Humans
        };
        Action::Replace(Box::new(Play::new(
            Game::new(),
            opponent,
            clock(c.clock),
            ctx,
        )))
    }
}

impl Screen for Setup {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        match key.code {
            KeyCode::Up => self.move_row(ROWS - 1),
            KeyCode::Down | KeyCode::Tab => self.move_row(1),
            KeyCode::Left => self.change(false),
            KeyCode::Right => self.change(true),
            // Enter starts from any row, as the footer says; Space changes a value.
            KeyCode::Char(' ') if self.row < START_ROW => self.change(true),
            KeyCode::Enter | KeyCode::Char(' ') => match self.row {
                7 => return Action::Push(Box::new(Games::new(ctx))),
                _ => return self.start(ctx),
            },
            KeyCode::Char('L') => return Action::Push(Box::new(Games::new(ctx))),
            KeyCode::Esc | KeyCode::Char('q') => return Action::Pop,
            _ => {}
        }
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _ctx: &Ctx) {
        let c = &self.choice;
        let engine = c.vs_engine && !c.watch;
        let rows: [(&str, String, bool); ROWS] = [
            (
                "Opponent",
                if c.watch {
                    "engines play each other"
                } else if engine {
                    "Ludus (the engine)"
                } else {
                    "two players, one terminal"
                }
                .into(),
                true,
            ),
            (
                "You play",
                if c.human_red {
                    "Red (moves first)"
                } else {
                    "Black"
                }
                .into(),
                engine,
            ),
            ("Strength", super::level(c.level).name.into(), engine),
            (
                "Red",
                watch::choice_name(c.watch_seats[0], &c.engines),
                c.watch,
            ),
            (
                "Black",
                watch::choice_name(c.watch_seats[1], &c.engines),
                c.watch,
            ),
            ("Clock", CLOCKS[c.clock].0.into(), true),
            ("", "▶ Start the game".into(), true),
            ("", "  Games database…".into(), true),
        ];
        let gold = Tint::Rgb(230, 190, 80);
        let mut lines = vec![
            Line::styled(
                "象棋  Xiangqi",
                Style::default().fg(gold).add_modifier(Modifier::BOLD),
            ),
            Line::raw(""),
        ];
        for (i, (label, value, active)) in rows.iter().enumerate() {
            if !active {
                continue; // two players: no side, no strength
            }
            let chosen = i == self.row;
            let mut style = Style::default();
            if chosen {
                style = style.fg(Tint::Black).bg(gold).add_modifier(Modifier::BOLD);
            }
            let text = if label.is_empty() {
                value.clone()
            } else {
                format!("{label:<10} ◀ {value} ▶")
            };
            lines.push(Line::from(vec![
                Span::raw(if chosen { "› " } else { "  " }),
                Span::styled(text, style),
            ]));
            if i == CLOCK_ROW {
                lines.push(Line::raw(""));
            }
        }
        lines.push(Line::raw(""));
        lines.push(key_hints(&[
            ("↑↓", "choose"),
            ("←→", "change"),
            ("Space", "change"),
            ("Enter", "start"),
            ("q", "back"),
        ]));
        frame.render_widget(Paragraph::new(lines), centered(area, 56, 13));
    }
}
