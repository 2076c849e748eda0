//! Tetris settings: handling (DAS, ARR, soft drop, next queue), the ghost, and the keys.
//! Saved to `settings.json` when leaving.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};
use tetris::SoftDrop;

use super::keys::{BINDS, Bind, Keymap, assign, bindable, display, key_name};
use crate::store::settings::{TetrisKeys, TetrisSettings};
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{centered, highlight, key_hints};

/// Values offered (ms); about whole frames at 60 Hz, as players quote them.
const DAS_STEPS: [u32; 16] = [
    0, 33, 50, 67, 83, 100, 117, 133, 150, 167, 183, 200, 250, 300, 400, 500,
];
const ARR_STEPS: [u32; 12] = [0, 5, 10, 17, 25, 33, 50, 67, 83, 100, 150, 200];
const SOFT_DROP_STEPS: [SoftDrop; 6] = [
    SoftDrop::Factor(5),
    SoftDrop::Factor(10),
    SoftDrop::Factor(20),
    SoftDrop::Factor(40),
    SoftDrop::Factor(80),
    SoftDrop::Instant,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Das,
    Arr,
    SoftDrop,
    Preview,
    Ghost,
    /// Finesse training: a piece placed with a fault goes back to spawn.
    FinesseTraining,
    /// Finesse minimums may use the 180° turn.
    Finesse180,
    Key(Bind),
    ResetKeys,
}

fn rows() -> Vec<Row> {
    let mut rows = vec![
        Row::Das,
        Row::Arr,
        Row::SoftDrop,
        Row::Preview,
        Row::Ghost,
        Row::FinesseTraining,
        Row::Finesse180,
    ];
    rows.extend(BINDS.iter().map(|&b| Row::Key(b)));
    rows.push(Row::ResetKeys);
    rows
}

/// The next value in `steps` from `current` (a value off the list snaps to the nearest step
/// in that direction).
fn step<T: Copy + PartialEq>(
    steps: &[T],
    current: T,
    at_or_above: impl Fn(&T) -> bool,
    delta: isize,
) -> T {
    let index = match steps.iter().position(|s| *s == current) {
        Some(i) => i.saturating_add_signed(delta),
        None => {
            let above = steps.iter().position(at_or_above).unwrap_or(steps.len());
            if delta > 0 {
                above
            } else {
                above.saturating_sub(1)
            }
        }
    };
    steps[index.min(steps.len() - 1)]
}

pub struct TetrisSettingsScreen {
    selected: usize,
    /// Waiting for a key to bind: which action, and whether to add it to the others.
    capture: Option<(Bind, bool)>,
    message: Option<String>,
}

impl Default for TetrisSettingsScreen {
    fn default() -> Self {
        TetrisSettingsScreen::new()
    }
}

impl TetrisSettingsScreen {
    pub fn new() -> TetrisSettingsScreen {
        TetrisSettingsScreen {
            selected: 0,
            capture: None,
            message: None,
        }
    }

    fn change(&mut self, settings: &mut TetrisSettings, delta: isize) {
        let handling = &mut settings.handling;
        match rows().get(self.selected) {
            Some(Row::Das) => {
                let v = handling.das_ms;
                handling.das_ms = step(&DAS_STEPS, v, |s| *s >= v, delta);
            }
            Some(Row::Arr) => {
                let v = handling.arr_ms;
                handling.arr_ms = step(&ARR_STEPS, v, |s| *s >= v, delta);
            }
            Some(Row::SoftDrop) => {
                let v = handling.soft_drop;
                let factor = |s: &SoftDrop| match (s, v) {
                    (_, SoftDrop::Instant) => *s == SoftDrop::Instant,
                    (SoftDrop::Factor(a), SoftDrop::Factor(b)) => *a >= b,
                    (SoftDrop::Instant, _) => true,
                };
                handling.soft_drop = step(&SOFT_DROP_STEPS, v, factor, delta);
            }
            Some(Row::Preview) => {
                handling.preview = handling.preview.saturating_add_signed(delta as i8).min(6);
            }
            Some(Row::Ghost) => settings.ghost = !settings.ghost,
            Some(Row::FinesseTraining) => handling.finesse_training = !handling.finesse_training,
            Some(Row::Finesse180) => handling.finesse_180 = !handling.finesse_180,
            _ => {}
        }
    }

    fn on_capture(&mut self, key: KeyEvent, bind: Bind, add: bool, ctx: &mut Ctx) {
        self.capture = None;
        if key.code == KeyCode::Esc {
            self.message = Some("Unchanged.".into());
            return;
        }
        let Some(name) = key_name(key.code).filter(|n| bindable(n)) else {
            self.message = Some("That key cannot be bound (Esc pauses and ? shows help).".into());
            return;
        };
        let taken = assign(&mut ctx.settings.tetris.keys, bind, &name, add);
        self.message = Some(match taken {
            Some(other) => format!(
                "{} now does {}; it no longer does {}.",
                display(&name),
                bind.label(),
                other.label()
            ),
            None => format!("{} now does {}.", display(&name), bind.label()),
        });
    }
}

fn soft_drop_text(soft_drop: SoftDrop) -> String {
    match soft_drop {
        SoftDrop::Factor(f) => format!("{f}× gravity"),
        SoftDrop::Instant => "instant (sonic)".to_owned(),
    }
}

impl Screen for TetrisSettingsScreen {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        if let Some((bind, add)) = self.capture {
            self.on_capture(key, bind, add, ctx);
            return Action::None;
        }
        let rows = rows();
        self.message = None;
        let row = rows.get(self.selected).copied();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('w') => {
                self.selected = self.selected.checked_sub(1).unwrap_or(rows.len() - 1);
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Char('s') => {
                self.selected = (self.selected + 1) % rows.len();
            }
            KeyCode::Left | KeyCode::Char('h') => self.change(&mut ctx.settings.tetris, -1),
            KeyCode::Right | KeyCode::Char('l') => self.change(&mut ctx.settings.tetris, 1),
            KeyCode::Enter | KeyCode::Char(' ') => match row {
                Some(Row::Key(bind)) => {
                    self.capture = Some((bind, false));
                }
                Some(Row::ResetKeys) => {
                    ctx.settings.tetris.keys = TetrisKeys::default();
                    self.message = Some("Keys reset to the defaults.".into());
                }
                _ => self.change(&mut ctx.settings.tetris, 1),
            },
            KeyCode::Char('+') | KeyCode::Char('a') => {
                if let Some(Row::Key(bind)) = row {
                    self.capture = Some((bind, true));
                }
            }
            KeyCode::Delete | KeyCode::Backspace => {
                if let Some(Row::Key(bind)) = row {
                    bind.keys_mut(&mut ctx.settings.tetris.keys).clear();
                    self.message = Some(format!("{} has no key now.", bind.label()));
                }
            }
            KeyCode::Esc | KeyCode::Char('q') => {
                ctx.save_settings();
                return Action::Pop;
            }
            _ => {}
        }
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let rows = rows();
        let rect = centered(area, 72, rows.len() as u16 + 8);
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .title(" Tetris settings ");
        let inner = block.inner(rect);
        frame.render_widget(block, rect);
        let [list, _, message, hints] = Layout::vertical([
            Constraint::Length(rows.len() as u16 + 2),
            Constraint::Min(0),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(inner);
        let settings = &ctx.settings.tetris;
        let handling = settings.handling;
        let keymap = Keymap::new(&settings.keys);
        let mut lines = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            if matches!(
                row,
                Row::Key(Bind::Game(tetris::Action::Left)) | Row::ResetKeys
            ) {
                lines.push(Line::raw(""));
            }
            let (name, value) = match row {
                Row::Das => (
                    "DAS (delay before repeat)".to_owned(),
                    format!("◀ {} ms ▶", handling.das_ms),
                ),
                Row::Arr => (
                    "ARR (time between repeats)".to_owned(),
                    format!("◀ {} ms ▶", handling.arr_ms),
                ),
                Row::SoftDrop => (
                    "Soft drop".to_owned(),
                    format!("◀ {} ▶", soft_drop_text(handling.soft_drop)),
                ),
                Row::Preview => (
                    "Next queue".to_owned(),
                    format!("◀ {} pieces ▶", handling.preview),
                ),
                Row::Ghost => (
                    "Ghost piece".to_owned(),
                    format!("◀ {} ▶", on_off(settings.ghost)),
                ),
                Row::FinesseTraining => (
                    "Finesse training (retry a fault)".to_owned(),
                    format!("◀ {} ▶", on_off(handling.finesse_training)),
                ),
                Row::Finesse180 => (
                    "Finesse counts 180° turns".to_owned(),
                    format!("◀ {} ▶", on_off(handling.finesse_180)),
                ),
                Row::Key(bind) => {
                    let value = if self.capture.is_some_and(|(b, _)| b == *bind) {
                        "press a key… (Esc cancels)".to_owned()
                    } else {
                        keymap.shown(*bind)
                    };
                    (format!("Key: {}", bind.label()), value)
                }
                Row::ResetKeys => ("Reset keys to the defaults".to_owned(), String::new()),
            };
            let style = if i == self.selected {
                highlight()
            } else {
                Style::default()
            };
            lines.push(Line::from(vec![
                Span::styled(format!(" {name:<36}"), style),
                Span::raw(format!(" {value}")),
            ]));
        }
        frame.render_widget(Paragraph::new(lines), list);
        if let Some(text) = &self.message {
            frame.render_widget(
                Paragraph::new(text.as_str()).style(Style::default().fg(Color::Yellow)),
                message,
            );
        }
        let hint = match rows.get(self.selected) {
            Some(Row::Key(_)) => key_hints(&[
                ("Enter", "set key"),
                ("+", "add key"),
                ("Del", "clear"),
                ("↑↓", "choose"),
                ("Esc", "save and back"),
            ]),
            _ => key_hints(&[("↑↓", "choose"), ("←→", "change"), ("Esc", "save and back")]),
        };
        frame.render_widget(Paragraph::new(hint), hints);
    }
}

fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}
