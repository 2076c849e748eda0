//! The level editor: draw walls, floor, goals, boxes and the player with a
//! cursor, see errors on the board as you draw, check solvability with the
//! solver, play-test, save as `.sok` in the levels folder, copy as XSB/RLE.

use std::path::PathBuf;
use std::time::Instant;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph, Wrap};
use sokoban::{Level, ParseError};

use super::play::Play;
use crate::session::sokoban::editing;
use crate::session::sokoban::library::slug;
use crate::session::sokoban::solver_job::{self, SolveJob};
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::clipboard;
use crate::tui::widgets::{highlight, key_hints, popup};

/// The drawing tools: the XSB character each one puts down, its key, its name.
const TOOLS: [(char, char, &str); 8] = [
    ('#', '1', "wall"),
    ('-', '2', "floor"),
    ('.', '3', "goal"),
    ('$', '4', "box"),
    ('*', '5', "box on goal"),
    ('@', '6', "player"),
    ('+', '7', "player on goal"),
    (' ', '0', "outside (erase)"),
];

/// The keys the footer shows.
const HINTS: [(&str, &str); 10] = [
    ("arrows", "move"),
    ("0-7", "tool"),
    ("Space", "draw"),
    ("c", "check"),
    ("p", "test"),
    ("S", "save"),
    ("t", "title"),
    ("y/Y", "copy"),
    ("[]{}", "size"),
    ("q", "back"),
];

/// Largest level the editor draws.
const MAX_WIDTH: usize = 40;
const MAX_HEIGHT: usize = 24;

pub struct Editor {
    width: usize,
    height: usize,
    /// XSB characters, `-` for floor and space for outside.
    cells: Vec<char>,
    cursor: (usize, usize),
    tool: char,
    title: String,
    /// Where it was saved last.
    path: Option<PathBuf>,
    dirty: bool,
    /// The title being typed, while typing.
    typing_title: Option<String>,
    check: Option<SolveJob>,
    status: Option<String>,
    /// Text shown in a pop-up (title, lines) until the next key.
    shown: Option<(String, Vec<String>)>,
    /// Asked once before leaving with unsaved changes.
    confirm_leave: bool,
}

impl Editor {
    /// An empty room with walls around, 12x8.
    pub fn new() -> Editor {
        let (width, height) = (12, 8);
        let mut cells = vec!['-'; width * height];
        for y in 0..height {
            for x in 0..width {
                if x == 0 || y == 0 || x + 1 == width || y + 1 == height {
                    cells[y * width + x] = '#';
                }
            }
        }
        Editor::from_cells(width, height, cells, "New level".into())
    }

    /// A copy of an existing level to change.
    pub fn from_level(level: &Level) -> Editor {
        let rows: Vec<Vec<char>> = level
            .to_xsb()
            .lines()
            .map(|r| r.chars().collect())
            .collect();
        let (width, height) = (
            level.width().clamp(1, MAX_WIDTH),
            level.height().clamp(1, MAX_HEIGHT),
        );
        let mut cells = vec![' '; width * height];
        for (y, row) in rows.iter().enumerate().take(height) {
            for (x, &c) in row.iter().enumerate().take(width) {
                cells[y * width + x] = c;
            }
        }
        // Interior floor is '-' so that it is not taken for outside.
        let level_floor: Vec<bool> = (0..width * height)
            .map(|i| {
                level.map().cell(i % width + i / width * level.width()) != sokoban::Cell::Outside
            })
            .collect();
        for (i, c) in cells.iter_mut().enumerate() {
            if *c == ' ' && level_floor.get(i).copied().unwrap_or(false) {
                *c = '-';
            }
        }
        let title = level
            .meta
            .title
            .clone()
            .unwrap_or_else(|| "Edited level".into());
        Editor::from_cells(width, height, cells, title)
    }

    fn from_cells(width: usize, height: usize, cells: Vec<char>, title: String) -> Editor {
        Editor {
            width,
            height,
            cells,
            cursor: (1, 1),
            tool: '#',
            title,
            path: None,
            dirty: false,
            typing_title: None,
            check: None,
            status: None,
            shown: None,
            confirm_leave: false,
        }
    }

    /// The level as XSB text, rows trimmed, `-` kept for inner floor.
    fn text(&self) -> String {
        let mut out = String::new();
        for y in 0..self.height {
            let row: String = self.cells[y * self.width..(y + 1) * self.width]
                .iter()
                .collect();
            out.push_str(row.trim_end());
            out.push('\n');
        }
        out
    }

    fn parse(&self) -> Result<Level, ParseError> {
        let mut level = Level::from_xsb(&self.text())?;
        level.meta.title = Some(self.title.clone());
        level.meta.author = Some("Ludus editor".into());
        Ok(level)
    }

    /// Cells with problems, and one line describing each problem.
    fn problems(&self) -> (Vec<(usize, usize)>, Vec<String>, bool) {
        match self.parse() {
            // Only errors about one cell are marked on the board (a missing
            // player is nowhere, not on the top-left wall).
            Err(e) => (
                match e.kind {
                    sokoban::ParseErrorKind::IllegalCharacter(_)
                    | sokoban::ParseErrorKind::TwoPlayers => {
                        vec![(e.column.saturating_sub(1), e.line.saturating_sub(1))]
                    }
                    _ => Vec::new(),
                },
                vec![e.kind.to_string()],
                false,
            ),
            Ok(level) => {
                let report = sokoban::validate(&level);
                let mut cells = Vec::new();
                let mut lines = Vec::new();
                for finding in &report.findings {
                    let kind = if finding.problem.is_error() {
                        "error"
                    } else {
                        "warning"
                    };
                    lines.push(format!("{kind}: {}", finding.problem));
                    if let Some(c) = finding.cell {
                        let (line, column) = level.source_position(c);
                        cells.push((column - 1, line - 1));
                    }
                }
                (cells, lines, report.is_ok())
            }
        }
    }

    fn paint(&mut self, tool: char) {
        let (x, y) = self.cursor;
        // One player only: drawing a player removes the old one.
        if tool == '@' || tool == '+' {
            for c in self.cells.iter_mut() {
                match *c {
                    '@' => *c = '-',
                    '+' => *c = '.',
                    _ => {}
                }
            }
        }
        self.cells[y * self.width + x] = tool;
        self.dirty = true;
        self.check = None;
        // "Saved to …" is no longer true.
        self.status = None;
    }

    fn move_cursor(&mut self, dx: isize, dy: isize) {
        let (x, y) = self.cursor;
        self.cursor = (
            x.saturating_add_signed(dx).min(self.width - 1),
            y.saturating_add_signed(dy).min(self.height - 1),
        );
    }

    /// Grows or shrinks the canvas (keeping what fits).
    fn resize(&mut self, dw: isize, dh: isize) {
        let width = self.width.saturating_add_signed(dw).clamp(3, MAX_WIDTH);
        let height = self.height.saturating_add_signed(dh).clamp(3, MAX_HEIGHT);
        let mut cells = vec![' '; width * height];
        for y in 0..height.min(self.height) {
            for x in 0..width.min(self.width) {
                cells[y * width + x] = self.cells[y * self.width + x];
            }
        }
        (self.width, self.height, self.cells) = (width, height, cells);
        self.move_cursor(0, 0);
        self.dirty = true;
        self.status = None;
    }

    fn save(&mut self, ctx: &mut Ctx) {
        let Ok(level) = editing::ready(self.parse()) else {
            self.status = Some("Fix the errors before saving.".into());
            return;
        };
        let stem = slug(&self.title);
        let result = editing::save(&ctx.data, &level, &self.title, &stem, self.path.as_deref());
        self.status = Some(match result {
            Ok(path) => {
                self.dirty = false;
                let shown = format!("Saved to {}.", path.display());
                self.path = Some(path);
                shown
            }
            Err(e) => format!("Could not save: {e:#}"),
        });
    }

    fn copy(&mut self, rle: bool) {
        let text = match self.parse() {
            Ok(level) if rle => sokoban::format::xsb::to_rle(&level),
            Ok(level) => level.to_xsb(),
            Err(_) => self.text(),
        };
        let sent = clipboard::copy(&text);
        let what = if rle { "RLE" } else { "XSB" };
        let note = if sent {
            "Copied to the clipboard (where the terminal allows)."
        } else {
            "Select and copy it from here."
        };
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.push(String::new());
        lines.push(note.to_string());
        self.shown = Some((format!("The level as {what}"), lines));
    }

    fn start_check(&mut self) {
        match editing::ready(self.parse()) {
            Ok(level) => {
                self.check = Some(SolveJob::start(
                    level,
                    solver_job::for_one_player(),
                    Some(editing::CHECK_LIMIT),
                ));
                self.status = None;
            }
            Err(_) => self.status = Some("Fix the errors first.".into()),
        }
    }

    fn play_test(&mut self, ctx: &Ctx) -> Action {
        let Ok(level) = editing::ready(self.parse()) else {
            self.status = Some("Fix the errors first.".into());
            return Action::None;
        };
        match Play::new(editing::play_test(level), 0, ctx) {
            Some(play) => Action::Push(Box::new(play)),
            None => Action::None,
        }
    }

    fn on_key_title(&mut self, key: KeyEvent) {
        let Some(title) = self.typing_title.as_mut() else {
            return;
        };
        match key.code {
            KeyCode::Enter => {
                let typed = title.trim().to_string();
                if !typed.is_empty() {
                    self.title = typed;
                    self.dirty = true;
                }
                self.typing_title = None;
            }
            KeyCode::Esc => self.typing_title = None,
            KeyCode::Backspace => {
                title.pop();
            }
            KeyCode::Char(c) if title.chars().count() < 40 => title.push(c),
            _ => {}
        }
    }
}

impl Default for Editor {
    fn default() -> Editor {
        Editor::new()
    }
}

impl Screen for Editor {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        if self.typing_title.is_some() {
            self.on_key_title(key);
            return Action::None;
        }
        if self.shown.take().is_some() {
            return Action::None;
        }
        if self.check.is_some() && key.code == KeyCode::Esc {
            self.check = None;
            self.status = Some("Check stopped.".into());
            return Action::None;
        }
        let leaving = matches!(key.code, KeyCode::Esc | KeyCode::Char('q'));
        if !leaving {
            self.confirm_leave = false;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if let Some(&(tool, _, _)) = TOOLS.iter().find(|(tool, digit, _)| {
            key.code == KeyCode::Char(*digit) || (key.code == KeyCode::Char(*tool) && *tool != ' ')
        }) {
            self.tool = tool;
            self.paint(tool);
            return Action::None;
        }
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(0, -1),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(0, 1),
            KeyCode::Char(' ') | KeyCode::Enter => self.paint(self.tool),
            KeyCode::Delete | KeyCode::Backspace | KeyCode::Char('x') => self.paint(' '),
            KeyCode::Char('s') if ctrl => self.save(ctx),
            KeyCode::Char('S') => self.save(ctx),
            KeyCode::Char('t') => self.typing_title = Some(self.title.clone()),
            KeyCode::Char('c') => self.start_check(),
            KeyCode::Char('p') => return self.play_test(ctx),
            KeyCode::Char('y') => self.copy(false),
            KeyCode::Char('Y') => self.copy(true),
            KeyCode::Char(']') => self.resize(1, 0),
            KeyCode::Char('[') => self.resize(-1, 0),
            KeyCode::Char('}') => self.resize(0, 1),
            KeyCode::Char('{') => self.resize(0, -1),
            KeyCode::Esc | KeyCode::Char('q') => {
                if self.dirty && !self.confirm_leave {
                    self.confirm_leave = true;
                    self.status = Some(
                        "Unsaved changes: press q again to leave without saving (S saves).".into(),
                    );
                } else {
                    return Action::Pop;
                }
            }
            _ => {}
        }
        Action::None
    }

    fn tick(&mut self, _now: Instant, _ctx: &mut Ctx) -> Action {
        if let Some(report) = self.check.as_ref().and_then(SolveJob::poll) {
            self.check = None;
            self.status = Some(editing::check_text(&report.outcome));
        }
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _ctx: &Ctx) {
        let hint_line = key_hints(&HINTS);
        // Two rows for the keys when one is too narrow (an 80-column terminal).
        let hint_rows = if hint_line.width() > area.width as usize {
            2
        } else {
            1
        };
        let [header, body, status, hints] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(5),
            Constraint::Length(1),
            Constraint::Length(hint_rows),
        ])
        .areas(area);
        let gold = highlight();
        let title = match &self.typing_title {
            Some(t) => format!("  Title: {t}▏ (Enter to keep, Esc to cancel)"),
            None => format!("  {}{}", self.title, if self.dirty { " *" } else { "" }),
        };
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(" Level editor ", gold),
                Span::raw(title),
            ])),
            header,
        );

        let [canvas, side] =
            Layout::horizontal([Constraint::Min(20), Constraint::Length(34)]).areas(body);
        let (bad, lines, ok) = self.problems();
        self.draw_canvas(frame.buffer_mut(), canvas, &bad);

        let mut side_lines =
            vec![Line::from("Tools").style(Style::default().add_modifier(Modifier::BOLD))];
        for (tool, digit, name) in TOOLS {
            let chosen = tool == self.tool;
            let style = if chosen { gold } else { Style::default() };
            let symbol = if tool == ' ' {
                "x".to_string()
            } else {
                tool.to_string()
            };
            side_lines.push(Line::from(vec![
                Span::styled(format!(" {digit} {symbol} "), style),
                Span::raw(format!(" {name}")),
            ]));
        }
        side_lines.push(Line::raw(""));
        if ok && lines.is_empty() {
            side_lines.push(Line::from("✓ valid level").style(Style::default().fg(Color::Green)));
        }
        for line in lines {
            let color = if line.starts_with("warning") {
                Color::Yellow
            } else {
                Color::Red
            };
            side_lines.push(Line::from(line).style(Style::default().fg(color)));
        }
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .title(" Draw ");
        frame.render_widget(
            Paragraph::new(side_lines)
                .block(block)
                .wrap(Wrap { trim: true }),
            side,
        );

        let status_text = match (&self.check, &self.status) {
            (Some(job), _) => format!(
                "Checking with the solver… {} (Esc stops)",
                job.figures().text()
            ),
            (None, Some(s)) => s.clone(),
            (None, None) => String::new(),
        };
        frame.render_widget(
            Paragraph::new(status_text).style(Style::default().fg(Color::Cyan)),
            status,
        );
        frame.render_widget(Paragraph::new(hint_line).wrap(Wrap { trim: true }), hints);
        if let Some((title, text)) = &self.shown {
            let lines: Vec<Line> = text.iter().map(|l| Line::from(l.clone())).collect();
            popup(frame, area, title, lines, Color::Rgb(230, 190, 80));
        }
    }
}

impl Editor {
    fn draw_canvas(&self, buf: &mut Buffer, area: Rect, bad: &[(usize, usize)]) {
        let cw: u16 = if self.width * 2 <= area.width as usize {
            2
        } else {
            1
        };
        let left = area.x + area.width.saturating_sub(self.width as u16 * cw) / 2;
        let top = area.y + area.height.saturating_sub(self.height as u16) / 2;
        for y in 0..self.height.min(area.height as usize) {
            for x in 0..self.width.min((area.width / cw) as usize) {
                let c = self.cells[y * self.width + x];
                let (text, mut style) = match c {
                    '#' => (
                        "▓▓",
                        Style::default()
                            .fg(Color::Rgb(96, 96, 120))
                            .bg(Color::Rgb(60, 60, 78)),
                    ),
                    '-' => ("  ", Style::default().bg(Color::Rgb(34, 34, 40))),
                    '.' => (
                        "<>",
                        Style::default()
                            .fg(Color::Rgb(235, 200, 70))
                            .bg(Color::Rgb(34, 34, 40)),
                    ),
                    '$' => (
                        "[]",
                        Style::default()
                            .fg(Color::Black)
                            .bg(Color::Rgb(200, 135, 60)),
                    ),
                    '*' => (
                        "[]",
                        Style::default()
                            .fg(Color::Black)
                            .bg(Color::Rgb(80, 190, 90)),
                    ),
                    '@' => (
                        "@@",
                        Style::default()
                            .fg(Color::Rgb(90, 220, 255))
                            .bg(Color::Rgb(34, 34, 40)),
                    ),
                    '+' => (
                        "@@",
                        Style::default()
                            .fg(Color::Rgb(90, 220, 255))
                            .bg(Color::Rgb(70, 60, 20)),
                    ),
                    _ => ("··", Style::default().fg(Color::Rgb(50, 50, 55))),
                };
                if bad.contains(&(x, y)) {
                    style = style.bg(Color::Rgb(170, 40, 40));
                }
                if self.cursor == (x, y) {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                let text = if cw == 2 {
                    text
                } else {
                    &text[..text.char_indices().nth(1).map_or(text.len(), |(i, _)| i)]
                };
                buf.set_string(left + x as u16 * cw, top + y as u16, text, style);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_player_marks_no_cell() {
        let level = Level::from_xsb("#####\n#@$.#\n#####").unwrap();
        let mut editor = Editor::from_level(&level);
        for c in editor.cells.iter_mut().filter(|c| **c == '@') {
            *c = '-';
        }
        let (cells, lines, ok) = editor.problems();
        assert!(!ok && cells.is_empty(), "{cells:?}");
        assert_eq!(lines, ["the level has no player"]);
    }

    #[test]
    fn slugs_are_file_names() {
        assert_eq!(slug("My First Level!"), "my-first-level");
        assert_eq!(slug("!!!"), "level");
    }

    #[test]
    fn editing_round_trips_a_level() {
        let level = Level::from_xsb("  ####\n###  #\n#@$. #\n######").unwrap();
        let editor = Editor::from_level(&level);
        assert_eq!(editor.parse().unwrap().to_xsb(), level.to_xsb());
    }
}
