//! The collection browser: collections on the left, their levels with
//! solved marks and best scores, and a preview of the chosen level.

use std::cell::Cell;
use std::path::PathBuf;
use std::sync::Arc;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, List, ListItem, ListState, Paragraph};
use sokoban::Game;

use super::board::BoardView;
use super::editor::Editor;
use super::play::Play;
use crate::session::sokoban::library::{LevelSet, registry, write_solutions_export};
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{highlight, key_hints};

pub struct Browser {
    /// Files named on the command line (the levels folder is rescanned on return).
    files: Vec<PathBuf>,
    sets: Vec<Arc<LevelSet>>,
    set: usize,
    /// The chosen level in each set.
    chosen: Vec<usize>,
    /// The first row shown of each list, kept between draws so that the
    /// lists scroll only when the selection would leave them.
    sets_offset: Cell<usize>,
    levels_offset: Cell<usize>,
}

impl Browser {
    /// Loads every collection (built in, `files`, the user's levels folder);
    /// unreadable files become notices.
    pub fn new(ctx: &mut Ctx, files: &[PathBuf]) -> Browser {
        let (sets, problems) = registry(&ctx.data, files);
        ctx.notices.extend(problems);
        let sets: Vec<Arc<LevelSet>> = sets.into_iter().map(Arc::new).collect();
        let mut browser = Browser {
            files: files.to_vec(),
            chosen: vec![0; sets.len()],
            sets,
            set: 0,
            sets_offset: Cell::new(0),
            levels_offset: Cell::new(0),
        };
        // Come back to where the player was, unless files were named.
        let last = &ctx.settings.sokoban;
        if files.is_empty()
            && let Some(i) = browser
                .sets
                .iter()
                .position(|s| Some(&s.name) == last.last_collection.as_ref())
        {
            browser.set = i;
            browser.chosen[i] = last
                .last_level
                .unwrap_or(0)
                .min(browser.sets[i].len().saturating_sub(1));
        }
        browser
    }

    /// A play screen for level `level` (0-based) of set `set`, if it parsed.
    pub fn open_level(&self, set: usize, level: usize, ctx: &mut Ctx) -> Option<Play> {
        let set = self.sets.get(set)?;
        set.collection.levels.get(level)?.as_ref().ok()?;
        ctx.settings.sokoban.last_collection = Some(set.name.clone());
        ctx.settings.sokoban.last_level = Some(level);
        ctx.save_settings();
        Play::new(Arc::clone(set), level, ctx)
    }

    fn current(&self) -> usize {
        self.chosen.get(self.set).copied().unwrap_or(0)
    }

    fn move_level(&mut self, delta: isize) {
        let len = self.sets.get(self.set).map_or(0, |s| s.len());
        if len == 0 {
            return;
        }
        let next = self.current().saturating_add_signed(delta).min(len - 1);
        self.chosen[self.set] = next;
    }

    /// Writes the set with the player's best solutions to the data dir.
    fn export(&self, ctx: &mut Ctx) {
        let Some(set) = self.sets.get(self.set) else {
            return;
        };
        let (result, warning) = write_solutions_export(&ctx.data, set);
        ctx.warn(warning);
        match result {
            Ok(path) => ctx
                .notices
                .push(format!("solutions written to {}", path.display())),
            Err(e) => ctx
                .notices
                .push(format!("could not export solutions: {e:#}")),
        }
    }

    fn solved_count(set: &LevelSet, ctx: &Ctx) -> usize {
        set.collection
            .valid_levels()
            .filter(|(_, l)| ctx.progress.is_solved(&l.key()))
            .count()
    }

    fn draw_sets(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let items: Vec<ListItem> = self
            .sets
            .iter()
            .map(|set| {
                let solved = Self::solved_count(set, ctx);
                ListItem::new(vec![
                    Line::from(set.name.clone()).bold(),
                    Line::from(format!("  {solved}/{} solved", set.len()))
                        .style(Style::default().fg(Color::Gray)),
                ])
            })
            .collect();
        let list = List::new(items)
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .title(" Collections "),
            )
            .highlight_style(Style::default().bg(Color::Rgb(60, 60, 90)))
            .highlight_symbol("▶");
        let mut state = ListState::default()
            .with_offset(self.sets_offset.get())
            .with_selected(Some(self.set));
        frame.render_stateful_widget(list, area, &mut state);
        self.sets_offset.set(state.offset());
    }

    fn draw_levels(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let Some(set) = self.sets.get(self.set) else {
            return;
        };
        let width = area.width.saturating_sub(4) as usize;
        let items: Vec<ListItem> = set
            .collection
            .levels
            .iter()
            .enumerate()
            .map(|(i, level)| {
                let (mark, title, best, style) = match level {
                    Ok(level) => {
                        let record = ctx.progress.get(&level.key());
                        let solved = record.is_some_and(|r| r.solved.is_some());
                        let best = record
                            .and_then(|r| r.best_by_moves.as_ref())
                            .map_or(String::new(), |b| format!("{}/{}", b.moves, b.pushes));
                        let mark = if solved { "✓" } else { "·" };
                        let style = if solved {
                            Style::default().fg(Color::Green)
                        } else {
                            Style::default()
                        };
                        (
                            mark,
                            level.meta.title.clone().unwrap_or_default(),
                            best,
                            style,
                        )
                    }
                    Err(e) => (
                        "✗",
                        format!("error: {}", e.kind),
                        String::new(),
                        Style::default().fg(Color::Red),
                    ),
                };
                let head = format!("{:>3} {mark} ", i + 1);
                let room = width.saturating_sub(head.chars().count() + best.len() + 1);
                let title: String = title.chars().take(room).collect();
                let pad = room.saturating_sub(title.chars().count());
                ListItem::new(Line::from(format!(
                    "{head}{title}{} {best}",
                    " ".repeat(pad)
                )))
                .style(style)
            })
            .collect();
        // The origin (a path can be long) only where it fits beside the name.
        let origin = set.origin();
        let title = if set.name.chars().count() + origin.chars().count() + 5 <= width {
            format!(" {} — {origin} ", set.name)
        } else {
            let name: String = set.name.chars().take(width.max(4)).collect();
            format!(" {name} ")
        };
        let list = List::new(items)
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .title(title),
            )
            .highlight_style(
                Style::default()
                    .bg(Color::Rgb(60, 60, 90))
                    .add_modifier(Modifier::BOLD),
            );
        let mut state = ListState::default()
            .with_offset(self.levels_offset.get())
            .with_selected(Some(self.current()));
        frame.render_stateful_widget(list, area, &mut state);
        self.levels_offset.set(state.offset());
    }

    fn draw_preview(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .title(" Preview ");
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let level = self
            .sets
            .get(self.set)
            .and_then(|s| s.collection.levels.get(self.current()));
        match level {
            Some(Ok(level)) => {
                let [board, info] =
                    Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(inner);
                let game = Game::new(level.clone());
                let mut view = BoardView::new(&game);
                view.ascii = ctx.ascii();
                frame.render_widget(view, board);
                let boxes = u32::try_from(level.boxes().len()).unwrap_or(u32::MAX);
                let text = format!(
                    "{}x{}, {}",
                    level.width(),
                    level.height(),
                    crate::words::counted(boxes as usize, "box")
                );
                frame.render_widget(
                    Paragraph::new(text)
                        .centered()
                        .style(Style::default().fg(Color::Gray)),
                    info,
                );
            }
            Some(Err(e)) => frame.render_widget(
                Paragraph::new(format!("line {}, column {}:\n{}", e.line, e.column, e.kind)),
                inner,
            ),
            None => frame.render_widget(Paragraph::new("No levels."), inner),
        }
    }
}

impl Screen for Browser {
    fn resume(&mut self, ctx: &Ctx) {
        // A level saved in the editor appears at once.
        let (sets, _) = registry(&ctx.data, &self.files);
        if sets.len() != self.sets.len() {
            self.sets = sets.into_iter().map(Arc::new).collect();
            self.chosen.resize(self.sets.len(), 0);
            self.set = self.set.min(self.sets.len().saturating_sub(1));
        }
        // Follow the level the player got to with n/p.
        if let Some(i) = ctx.settings.sokoban.last_level
            && let Some(set) = self.sets.get(self.set)
            && ctx.settings.sokoban.last_collection.as_ref() == Some(&set.name)
        {
            self.chosen[self.set] = i.min(set.len().saturating_sub(1));
        }
    }

    /// The wheel scrolls the level list, a level at a time.
    fn on_mouse(&mut self, mouse: MouseEvent, _ctx: &mut Ctx) -> Action {
        match mouse.kind {
            MouseEventKind::ScrollUp => self.move_level(-1),
            MouseEventKind::ScrollDown => self.move_level(1),
            _ => {}
        }
        Action::None
    }

    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        match key.code {
            KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('w') => self.move_level(-1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Char('s') => self.move_level(1),
            KeyCode::PageUp => self.move_level(-10),
            KeyCode::PageDown => self.move_level(10),
            KeyCode::Home => self.move_level(isize::MIN / 2),
            KeyCode::End => self.move_level(isize::MAX / 2),
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('a') | KeyCode::BackTab => {
                self.set = self
                    .set
                    .checked_sub(1)
                    .unwrap_or(self.sets.len().saturating_sub(1));
            }
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('d') | KeyCode::Tab => {
                self.set = (self.set + 1) % self.sets.len().max(1);
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                let level = self.current();
                match self.open_level(self.set, level, ctx) {
                    Some(play) => return Action::Push(Box::new(play)),
                    None => ctx.notices.push(format!(
                        "level {} cannot be played: it has an error",
                        level + 1
                    )),
                }
            }
            KeyCode::Char('e') => self.export(ctx),
            KeyCode::Char('N') => return Action::Push(Box::new(Editor::new())),
            KeyCode::Char('E') => {
                let level = self
                    .sets
                    .get(self.set)
                    .and_then(|s| s.collection.levels.get(self.current()));
                if let Some(Ok(level)) = level {
                    return Action::Push(Box::new(Editor::from_level(level)));
                }
            }
            KeyCode::Esc | KeyCode::Char('q') => return Action::Pop,
            _ => {}
        }
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let [header, body, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(1),
        ])
        .areas(area);
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(" Sokoban ", highlight()),
                Span::raw("  choose a level"),
            ])),
            header,
        );
        // Narrow terminals (80 columns) give the level list the room first.
        let (sets_width, preview) = if body.width < 100 { (22, 28) } else { (26, 40) };
        let [sets_area, levels_area, preview_area] = Layout::horizontal([
            Constraint::Length(sets_width),
            Constraint::Min(30),
            Constraint::Percentage(preview),
        ])
        .areas(body);
        self.draw_sets(frame, sets_area, ctx);
        self.draw_levels(frame, levels_area, ctx);
        self.draw_preview(frame, preview_area, ctx);
        let hints = key_hints(&[
            ("↑↓", "level"),
            ("←→", "collection"),
            ("Enter", "play"),
            ("e", "export"),
            ("N", "new"),
            ("E", "edit"),
            ("Esc", "back"),
        ]);
        frame.render_widget(Paragraph::new(hints), footer);
    }
}
