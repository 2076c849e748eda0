//! The games database: the saved games of `xiangqi/games/` and the imported
//! collections, searched by player, event, opening, result and date (the
//! [`Database`] of the session layer); open one to continue it or step
//! through it, or import a record file by its path.

use std::path::Path;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::play::Play;
use crate::session::xiangqi::database::{Database, Entry, Query, ResultFilter, Sort};
use crate::store::xiangqi::import_file;
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::key_hints;

/// Longest path typed at the import prompt.
const MAX_PATH_CHARS: usize = 4096;

const GOLD: Tint = Tint::Rgb(230, 190, 80);

/// What the keys do now.
#[derive(Debug)]
enum Typing {
    /// Keys move through the list.
    Nothing,
    /// Keys edit the search (kept live).
    Search,
    /// Keys edit the path of a file to import.
    Path(String),
}

/// A line under the list: what an import did, or why a search or an import failed.
struct Message {
    text: String,
    error: bool,
}

pub struct Games {
    db: Database,
    /// The search as typed.
    search: String,
    /// The last search that was understood (a half-typed `date:` keeps it).
    query: Query,
    sort: Sort,
    /// Indexes into the database's entries, in the order shown.
    shown: Vec<usize>,
    selected: usize,
    typing: Typing,
    message: Option<Message>,
    /// Opened from a game: the game opened here takes that game's place.
    over_a_game: bool,
}

impl Games {
    pub fn new(ctx: &Ctx) -> Games {
        let mut games = Games {
            db: Database::load(&ctx.data),
            search: String::new(),
            query: Query::default(),
            sort: Sort::default(),
            shown: Vec::new(),
            selected: 0,
            typing: Typing::Nothing,
            message: None,
            over_a_game: false,
        };
        games.refresh();
        games
    }

    /// The list opened from a game's screen.
    pub fn over_a_game(ctx: &Ctx) -> Games {
        Games {
            over_a_game: true,
            ..Games::new(ctx)
        }
    }

    /// Searches again (after the query, the sort or the database changed).
    fn refresh(&mut self) {
        self.shown = self.db.matching(&self.query, self.sort);
        self.selected = self.selected.min(self.shown.len().saturating_sub(1));
    }

    fn selected_entry(&self) -> Option<&Entry> {
        let index = *self.shown.get(self.selected)?;
        self.db.entries().get(index)
    }

    fn open(&self, ctx: &mut Ctx) -> Action {
        let Some(entry) = self.selected_entry() else {
            return Action::None;
        };
        let play = Play::with_session(entry.session(), ctx);
        if self.over_a_game {
            Action::ReplaceWithParent(Box::new(play))
        } else {
            Action::Replace(Box::new(play))
        }
    }

    /// The search text changed: search with it if it reads.
    fn searched(&mut self) {
        let result = self.query.result;
        match Query::parse(&self.search) {
            Ok(query) => {
                self.query = Query { result, ..query };
                self.message = None;
                self.refresh();
            }
            Err(e) => {
                self.message = Some(Message {
                    text: e.to_string(),
                    error: true,
                })
            }
        }
    }

    fn import(&mut self, path: &str, ctx: &Ctx) {
        let path = Path::new(path.trim());
        let shown = path.display().to_string();
        self.message = Some(match import_file(&ctx.data, path) {
            Ok(imported) => {
                self.db = Database::load(&ctx.data);
                self.refresh();
                Message {
                    text: format!(
                        "Imported {shown} as {}: {}",
                        imported.name,
                        crate::words::counted(imported.games, "game")
                    ),
                    error: false,
                }
            }
            Err(e) => Message {
                text: format!("{shown}: {e}"),
                error: true,
            },
        });
    }

    fn on_search_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Enter | KeyCode::Down => self.typing = Typing::Nothing,
            KeyCode::Esc => {
                self.search.clear();
                self.typing = Typing::Nothing;
                self.searched();
            }
            KeyCode::Backspace => {
                self.search.pop();
                self.searched();
            }
            KeyCode::Char(c)
                if self.search.chars().count()
                    < crate::session::xiangqi::database::MAX_QUERY_CHARS =>
            {
                self.search.push(c);
                self.searched();
            }
            _ => {}
        }
    }

    fn on_path_key(&mut self, key: KeyEvent, ctx: &Ctx) {
        let Typing::Path(path) = &mut self.typing else {
            return;
        };
        match key.code {
            KeyCode::Esc => self.typing = Typing::Nothing,
            KeyCode::Enter => {
                let path = std::mem::take(path);
                self.typing = Typing::Nothing;
                if !path.trim().is_empty() {
                    self.import(&path, ctx);
                }
            }
            KeyCode::Backspace => {
                path.pop();
            }
            KeyCode::Char(c) if path.chars().count() < MAX_PATH_CHARS => path.push(c),
            _ => {}
        }
    }

    /// The line of the search, the result filter and the order.
    fn search_line(&self) -> Line<'static> {
        let typing = matches!(self.typing, Typing::Search);
        let label = Style::default().fg(Tint::DarkGray);
        let value = if typing {
            Style::default().fg(Tint::Black).bg(GOLD)
        } else {
            Style::default()
        };
        let text = if typing {
            format!("{}▏", self.search)
        } else if self.search.is_empty() {
            "(press /)".to_string()
        } else {
            self.search.clone()
        };
        Line::from(vec![
            Span::styled("Search ", label),
            Span::styled(text, value),
            Span::styled("   Result ", label),
            Span::raw(self.query.result.name()),
            Span::styled("   Sort ", label),
            Span::raw(self.sort.name()),
        ])
    }

    /// The lines under the list: the count, unreadable files, the message.
    fn status_lines(&self) -> Vec<Line<'static>> {
        let total = self.db.entries().len();
        let mut lines = vec![Line::raw(format!(
            "{} of {}",
            self.shown.len(),
            crate::words::counted(total, "game")
        ))];
        let problems = self.db.problems();
        let warn = Style::default().fg(Tint::LightRed);
        for p in problems.iter().take(2) {
            lines.push(Line::styled(
                format!("{} cannot be read: {}", p.file, p.message),
                warn,
            ));
        }
        if problems.len() > 2 {
            lines.push(Line::styled(
                format!(
                    "and {} more",
                    crate::words::counted(problems.len() - 2, "unreadable file")
                ),
                warn,
            ));
        }
        if let Some(m) = &self.message {
            let style = if m.error {
                warn
            } else {
                Style::default().fg(Tint::LightGreen)
            };
            lines.push(Line::styled(m.text.clone(), style));
        }
        lines
    }
}

/// Column widths of the list at `width` cells: date, Red, Black, result,
/// opening, source (one space between each).
fn columns(width: usize) -> [usize; 6] {
    let (name, source) = match width {
        120.. => (18, 24),
        100.. => (16, 20),
        _ => (13, 16),
    };
    let fixed = 10 + name * 2 + 5 + source + 5;
    let opening = width.saturating_sub(fixed).max(8);
    [10, name, name, 5, opening, source]
}

/// `text` cut or padded to `width` display cells (Chinese takes two).
fn fit(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    let count = Span::raw(text).width();
    for c in text.chars() {
        let w = Span::raw(c.to_string()).width();
        let room = if count > width {
            width.saturating_sub(1)
        } else {
            width
        };
        if used + w > room {
            break;
        }
        out.push(c);
        used += w;
    }
    if count > width && width > 0 {
        out.push('…');
        used += 1;
    }
    out.push_str(&" ".repeat(width.saturating_sub(used)));
    out
}

fn row(cells: [&str; 6], widths: [usize; 6]) -> String {
    let cells: Vec<String> = cells
        .iter()
        .zip(widths)
        .map(|(text, width)| fit(text, width))
        .collect();
    cells.join(" ")
}

impl Screen for Games {
    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Action {
        match self.typing {
            Typing::Search => {
                self.on_search_key(key);
                return Action::None;
            }
            Typing::Path(_) => {
                self.on_path_key(key, ctx);
                return Action::None;
            }
            Typing::Nothing => {}
        }
        let n = self.shown.len().max(1);
        match key.code {
            KeyCode::Up => self.selected = (self.selected + n - 1) % n,
            KeyCode::Down => self.selected = (self.selected + 1) % n,
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(10),
            KeyCode::PageDown => self.selected = (self.selected + 10).min(n - 1),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = n - 1,
            KeyCode::Enter | KeyCode::Char(' ') => return self.open(ctx),
            KeyCode::Char('/') => self.typing = Typing::Search,
            KeyCode::Char('r') => {
                self.query.result = self.query.result.next();
                self.refresh();
            }
            KeyCode::Char('R') => {
                self.query.result = ResultFilter::Any;
                self.refresh();
            }
            KeyCode::Char('s') => {
                self.sort = self.sort.next();
                self.refresh();
            }
            KeyCode::Char('i') => {
                self.message = None;
                self.typing = Typing::Path(String::new());
            }
            KeyCode::Esc | KeyCode::Char('q') => return Action::Pop,
            _ => {}
        }
        Action::None
    }

    /// Back from a game: it may have been saved.
    fn resume(&mut self, ctx: &Ctx) {
        self.db = Database::load(&ctx.data);
        self.refresh();
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _ctx: &Ctx) {
        let width = area.width as usize;
        let widths = columns(width);
        let dim = Style::default().fg(Tint::DarkGray);
        let mut lines = vec![
            Line::from(vec![
                Span::styled(
                    "Xiangqi games database",
                    Style::default().fg(GOLD).add_modifier(Modifier::BOLD),
                ),
                Span::styled("  saved games and imported collections", dim),
            ]),
            self.search_line(),
            Line::styled(
                row(
                    ["Date", "Red", "Black", "Res.", "Opening", "Source"],
                    widths,
                ),
                Style::default().add_modifier(Modifier::BOLD),
            ),
        ];
        let status = self.status_lines();
        let prompt = matches!(self.typing, Typing::Path(_));
        let below = status.len() + 2 + usize::from(prompt);
        let height = (area.height as usize)
            .saturating_sub(lines.len() + below)
            .max(1);
        if self.db.entries().is_empty() {
            lines.push(Line::raw(
                "No games yet: press S during a game to save it, or i to import a PGN or XQF file.",
            ));
        } else if self.shown.is_empty() {
            lines.push(Line::styled("No game matches the search.", dim));
        }
        let first = self.selected.saturating_sub(height.saturating_sub(1));
        for (i, &index) in self.shown.iter().enumerate().skip(first).take(height) {
            let Some(e) = self.db.entries().get(index) else {
                continue;
            };
            let date = match e.date_text() {
                "" => "—",
                text => text,
            };
            let text = row(
                [
                    date,
                    &e.red,
                    &e.black,
                    e.result.text(),
                    &e.opening_text(),
                    &e.source_label(),
                ],
                widths,
            );
            let style = if i == self.selected {
                Style::default().fg(Tint::Black).bg(GOLD)
            } else {
                Style::default()
            };
            lines.push(Line::styled(text, style));
        }
        while lines.len() < area.height as usize - below.min(area.height as usize) {
            lines.push(Line::raw(""));
        }
        lines.extend(status);
        if let Typing::Path(path) = &self.typing {
            lines.push(Line::from(vec![
                Span::styled("Import file (PGN or XQF): ", Style::default().fg(GOLD)),
                Span::raw(format!("{path}▏")),
            ]));
        }
        lines.push(Line::raw(""));
        lines.push(match self.typing {
            Typing::Nothing => key_hints(&[
                ("↑↓", "choose"),
                ("Enter", "open"),
                ("/", "search"),
                ("r", "result"),
                ("s", "sort"),
                ("i", "import"),
                ("q", "back"),
            ]),
            Typing::Search => key_hints(&[
                ("Enter", "done"),
                ("Esc", "clear"),
                ("date:2023", "year"),
                ("eco:C2", "opening"),
            ]),
            Typing::Path(_) => key_hints(&[("Enter", "import"), ("Esc", "cancel")]),
        });
        frame.render_widget(Paragraph::new(lines), area);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_cut_and_padded_by_display_width() {
        assert_eq!(fit("abc", 5), "abc  ");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("胡荣华", 6), "胡荣华");
        assert_eq!(fit("胡荣华", 5), "胡荣…");
        assert_eq!(fit("胡荣华", 4), "胡… ");
        for width in [80, 100, 132] {
            let w = columns(width);
            assert_eq!(w.iter().sum::<usize>() + 5, width);
        }
    }
}
