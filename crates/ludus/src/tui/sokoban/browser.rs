//! The collection browser: collections grouped by author on the left with
//! how many of their levels are solved, the chosen collection's levels with
//! solved marks, best scores, par and difficulty, and a preview of the chosen
//! level with the collection's credit. `/` filters by title, `f` shows all,
//! unsolved or solved levels, `u` jumps to the first unsolved level.
//!
//! With some two thousand levels built in, everything a draw needs (keys,
//! summaries, titles in lower case) is worked out when the browser loads or
//! comes back from another screen, never while drawing.

use std::cell::Cell;
use std::path::PathBuf;
use std::sync::Arc;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, List, ListItem, ListState, Paragraph};
use sokoban::Game;
use sokoban::rating::Par;

use super::board::BoardView;
use super::editor::Editor;
use super::play::Play;
use crate::session::sokoban::library::{
    LEVEL_UPDATED, LevelSet, Summary, grouped, registry, write_solutions_export,
};
use crate::store::Progress;
use crate::tui::app::{Action, Ctx, Screen};
use crate::tui::widgets::{highlight, key_hints};
use crate::words::wrap;

/// Where a level stands for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Standing {
    Unsolved,
    Solved,
    /// Changed since the player solved it: the old record no longer applies.
    Updated,
    /// It could not be read.
    Broken,
}

/// A level's par and difficulty, when its collection rates them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Rating {
    par: Option<Par>,
    difficulty: Option<String>,
}

impl Rating {
    /// The par as a level row shows it: `32`, or `40?` when it is only the
    /// best found.
    fn par_short(&self) -> Option<String> {
        self.par
            .map(|p| format!("{}{}", p.pushes, if p.proven { "" } else { "?" }))
    }

    fn is_rated(&self) -> bool {
        self.par.is_some() || self.difficulty.is_some()
    }

    /// The rating in a level row, in the column `form` (see
    /// [`RatingForm`]): every row of a list in the same form and width, so
    /// the figures line up. Blank when the level is not rated.
    fn cell(&self, form: RatingForm) -> String {
        if !self.is_rated() {
            return " ".repeat(form.width());
        }
        let par = self.par_short().unwrap_or_else(|| "–".into());
        let band = self.difficulty.as_deref().unwrap_or_default();
        match form {
            RatingForm::Full => format!("{:>8} · {band:<8}", format!("par {par}")),
            RatingForm::Short => format!("{par:>4} {band:<8}"),
            RatingForm::Compact => {
                let short = match band {
                    "Tutorial" => "Tut",
                    "Medium" => "Med",
                    "Expert" => "Exp",
                    other => other,
                };
                let short: String = short.chars().take(4).collect();
                format!("{par:>4} {short:<4}")
            }
            RatingForm::Par => format!("{par:>4}"),
        }
    }

    /// The rating in full, for the preview: `par 32 pushes · Medium`.
    fn long(&self) -> Option<String> {
        match (self.par, &self.difficulty) {
            (Some(p), Some(d)) => Some(format!("par {p} · {d}")),
            (Some(p), None) => Some(format!("par {p}")),
            (None, Some(d)) => Some(d.clone()),
            (None, None) => None,
        }
    }
}

/// How much of the rating a list's rows show, the most that leaves the
/// titles room: `par   32 · Medium  `, `  32 Medium  `, `  32 Med `, `  32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RatingForm {
    Full,
    Short,
    /// The band in four letters at most: `Tut`, `Easy`, `Med`, `Hard`, `Exp`.
    Compact,
    Par,
}

impl RatingForm {
    const ALL: [RatingForm; 4] = [
        RatingForm::Full,
        RatingForm::Short,
        RatingForm::Compact,
        RatingForm::Par,
    ];

    /// The column's width: four for the par, eight for the longest band.
    fn width(self) -> usize {
        match self {
            RatingForm::Full => 4 + 4 + 3 + 8,
            RatingForm::Short => 4 + 1 + 8,
            RatingForm::Compact => 4 + 1 + 4,
            RatingForm::Par => 4,
        }
    }

    /// The fullest form that leaves the titles ten characters in rows of
    /// `width` whose number, mark and best take at most `fixed`.
    fn fitting(fixed: usize, width: usize) -> RatingForm {
        RatingForm::ALL
            .into_iter()
            .find(|f| fixed + f.width() + 10 <= width)
            .unwrap_or(RatingForm::Par)
    }
}

/// What the browser shows of a level, worked out when the browser loads.
#[derive(Clone, Debug)]
struct LevelRow {
    title: String,
    /// The title in lower case, for the filter.
    lower: String,
    standing: Standing,
    /// The best solution, `moves/pushes`.
    best: Option<String>,
    rating: Rating,
}

/// A collection with its summary and level rows.
struct Shelf {
    set: Arc<LevelSet>,
    summary: Summary,
    /// The name in lower case, for the filter.
    lower: String,
    rows: Vec<LevelRow>,
}

impl Shelf {
    fn new(set: Arc<LevelSet>, progress: &Progress) -> Shelf {
        let summary = Summary::of(&set, progress);
        let rows = set
            .collection
            .levels
            .iter()
            .enumerate()
            .map(|(i, level)| match level {
                Ok(level) => {
                    let record = progress.get(&level.key());
                    let solved = record.is_some_and(|r| r.solved.is_some());
                    let standing = if solved {
                        Standing::Solved
                    } else if summary.updated.contains(&i) {
                        Standing::Updated
                    } else {
                        Standing::Unsolved
                    };
                    let title = level.meta.title.clone();
                    LevelRow {
                        lower: title.as_deref().unwrap_or_default().to_lowercase(),
                        title: crate::session::sokoban::list_name(level),
                        standing,
                        best: record
                            .and_then(|r| r.best_by_moves.as_ref())
                            .map(|b| format!("{}/{}", b.moves, b.pushes)),
                        rating: Rating {
                            par: level.meta.par,
                            difficulty: level.meta.difficulty.clone(),
                        },
                    }
                }
                Err(e) => LevelRow {
                    title: format!("error: {}", e.kind),
                    lower: String::new(),
                    standing: Standing::Broken,
                    best: None,
                    rating: Rating::default(),
                },
            })
            .collect();
        Shelf {
            lower: set.name.to_lowercase(),
            set,
            summary,
            rows,
        }
    }
}

/// Which levels the list shows by standing; `f` goes round them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Show {
    #[default]
    All,
    Unsolved,
    Solved,
}

impl Show {
    fn next(self) -> Show {
        match self {
            Show::All => Show::Unsolved,
            Show::Unsolved => Show::Solved,
            Show::Solved => Show::All,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Show::All => "all",
            Show::Unsolved => "unsolved",
            Show::Solved => "solved",
        }
    }

    fn keeps(self, standing: Standing) -> bool {
        match self {
            Show::All => true,
            Show::Unsolved => matches!(standing, Standing::Unsolved | Standing::Updated),
            Show::Solved => standing == Standing::Solved,
        }
    }
}

/// The filter: words typed after `/` and the standing shown.
#[derive(Clone, Debug, Default)]
struct Filter {
    text: String,
    show: Show,
    /// Keys go to the text (after `/`, until Enter or Esc).
    typing: bool,
}

impl Filter {
    fn is_active(&self) -> bool {
        !self.text.is_empty() || self.show != Show::All
    }

    /// Whether `row` of `shelf` is shown: its standing fits, and `text`
    /// (the filter's text in lower case) is in the level's title or the
    /// collection's name.
    fn keeps(&self, text: &str, shelf: &Shelf, row: &LevelRow) -> bool {
        self.show.keeps(row.standing)
            && (text.is_empty() || shelf.lower.contains(text) || row.lower.contains(text))
    }
}

pub struct Browser {
    /// Files named on the command line (the levels folder is rescanned on return).
    files: Vec<PathBuf>,
    /// Every collection, those of a group together.
    shelves: Vec<Shelf>,
    set: usize,
    /// The chosen level in each set.
    chosen: Vec<usize>,
    filter: Filter,
    /// The levels of each set the filter shows.
    visible: Vec<Vec<usize>>,
    /// The sets the filter shows (every one when there is no filter).
    visible_sets: Vec<usize>,
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
        let mut browser = Browser {
            files: files.to_vec(),
            shelves: Vec::new(),
            set: 0,
            chosen: Vec::new(),
            filter: Filter::default(),
            visible: Vec::new(),
            visible_sets: Vec::new(),
            sets_offset: Cell::new(0),
            levels_offset: Cell::new(0),
        };
        browser.load(sets, &ctx.progress);
        // Come back to where the player was, unless files were named.
        let last = &ctx.settings.sokoban;
        if files.is_empty()
            && let Some(i) = browser
                .shelves
                .iter()
                .position(|s| Some(&s.set.name) == last.last_collection.as_ref())
        {
            browser.set = i;
            browser.chosen[i] = last
                .last_level
                .unwrap_or(0)
                .min(browser.shelves[i].set.len().saturating_sub(1));
        }
        browser
    }

    /// Takes `sets` with the player's `progress`, keeping the chosen set and
    /// levels where their names are the same.
    fn load(&mut self, sets: Vec<LevelSet>, progress: &Progress) {
        let current = self.shelves.get(self.set).map(|s| s.set.name.clone());
        let old: Vec<(String, usize)> = self
            .shelves
            .iter()
            .zip(&self.chosen)
            .map(|(s, &c)| (s.set.name.clone(), c))
            .collect();
        self.shelves = grouped(sets)
            .into_iter()
            .map(|set| Shelf::new(Arc::new(set), progress))
            .collect();
        self.chosen = self
            .shelves
            .iter()
            .map(|s| {
                old.iter()
                    .find(|(name, _)| *name == s.set.name)
                    .map_or(0, |&(_, c)| c.min(s.set.len().saturating_sub(1)))
            })
            .collect();
        self.set = current
            .and_then(|name| self.shelves.iter().position(|s| s.set.name == name))
            .unwrap_or(0);
        self.refilter();
    }

    /// Works out what the filter shows, and moves the selection onto it.
    fn refilter(&mut self) {
        let text = self.filter.text.to_lowercase();
        self.visible = self
            .shelves
            .iter()
            .map(|shelf| {
                (0..shelf.rows.len())
                    .filter(|&i| self.filter.keeps(&text, shelf, &shelf.rows[i]))
                    .collect()
            })
            .collect();
        let all = !self.filter.is_active();
        self.visible_sets = (0..self.shelves.len())
            .filter(|&i| all || !self.visible[i].is_empty())
            .collect();
        if !self.visible_sets.contains(&self.set)
            && let Some(&first) = self.visible_sets.first()
        {
            self.set = first;
        }
        for (chosen, visible) in self.chosen.iter_mut().zip(&self.visible) {
            if !visible.is_empty() && !visible.contains(chosen) {
                *chosen = visible
                    .iter()
                    .copied()
                    .find(|&i| i > *chosen)
                    .or(visible.last().copied())
                    .unwrap_or(0);
            }
        }
    }

    /// A play screen for level `level` (0-based) of set `set`, if it parsed.
    pub fn open_level(&self, set: usize, level: usize, ctx: &mut Ctx) -> Option<Play> {
        let set = &self.shelves.get(set)?.set;
        set.collection.levels.get(level)?.as_ref().ok()?;
        ctx.settings.sokoban.last_collection = Some(set.name.clone());
        ctx.settings.sokoban.last_level = Some(level);
        ctx.save_settings();
        Play::new(Arc::clone(set), level, ctx)
    }

    fn current(&self) -> usize {
        self.chosen.get(self.set).copied().unwrap_or(0)
    }

    /// The chosen level's row, when the filter shows it.
    fn current_row(&self) -> Option<&LevelRow> {
        let level = self.current();
        self.visible
            .get(self.set)?
            .contains(&level)
            .then(|| self.shelves.get(self.set)?.rows.get(level))?
    }

    fn move_level(&mut self, delta: isize) {
        let Some(visible) = self.visible.get(self.set) else {
            return;
        };
        let Some(last) = visible.len().checked_sub(1) else {
            return;
        };
        let at = visible
            .iter()
            .position(|&i| i >= self.current())
            .unwrap_or(last);
        let next = at.saturating_add_signed(delta).min(last);
        self.chosen[self.set] = visible[next];
    }

    /// Where the chosen collection is among those shown (0 when hidden).
    fn shown_position(&self) -> usize {
        self.visible_sets
            .iter()
            .position(|&s| s == self.set)
            .unwrap_or(0)
    }

    fn move_set(&mut self, delta: isize) {
        let count = self.visible_sets.len();
        if count == 0 {
            return;
        }
        let at = self.shown_position();
        let next = (at as isize + delta).rem_euclid(count as isize) as usize;
        self.set = self.visible_sets[next];
    }

    /// The first unsolved level shown of `set`.
    fn first_unsolved(&self, set: usize) -> Option<usize> {
        let shelf = self.shelves.get(set)?;
        self.visible.get(set)?.iter().copied().find(|&i| {
            matches!(
                shelf.rows[i].standing,
                Standing::Unsolved | Standing::Updated
            )
        })
    }

    /// To the first unsolved level of this collection; from there (or when
    /// it has none) to the first unsolved level of the next collection that
    /// has one.
    fn jump_to_unsolved(&mut self, ctx: &mut Ctx) {
        if let Some(level) = self.first_unsolved(self.set)
            && level != self.current()
        {
            self.chosen[self.set] = level;
            return;
        }
        let at = self.shown_position();
        let count = self.visible_sets.len();
        let next = (1..=count)
            .map(|step| self.visible_sets[(at + step) % count])
            .find_map(|set| self.first_unsolved(set).map(|level| (set, level)));
        match next {
            Some((set, level)) => {
                self.set = set;
                self.chosen[set] = level;
            }
            None => ctx.notices.push("Every level shown is solved.".to_string()),
        }
    }

    /// Writes the set with the player's best solutions to the data dir.
    fn export(&self, ctx: &mut Ctx) {
        let Some(shelf) = self.shelves.get(self.set) else {
            return;
        };
        let (result, warning) = write_solutions_export(&ctx.data, &shelf.set);
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

    /// Keys while typing the filter: text, Backspace, Enter keeps it, Esc
    /// clears it; arrows still move.
    fn on_filter_key(&mut self, key: KeyEvent) -> Option<Action> {
        match key.code {
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.filter.text.push(c);
            }
            KeyCode::Backspace => {
                self.filter.text.pop();
            }
            KeyCode::Enter => self.filter.typing = false,
            KeyCode::Esc => {
                self.filter.typing = false;
                self.filter.text.clear();
            }
            _ => return None,
        }
        self.refilter();
        Some(Action::None)
    }

    fn draw_sets(&self, frame: &mut Frame, area: Rect) {
        // Room inside the border, less the highlight symbol and a margin.
        let width = area.width.saturating_sub(4) as usize;
        let mut items = Vec::new();
        let mut selected = None;
        let mut group: Option<&str> = None;
        for &i in &self.visible_sets {
            let shelf = &self.shelves[i];
            if group != Some(shelf.summary.group.as_str()) {
                group = Some(shelf.summary.group.as_str());
                let header: String = shelf.summary.group.chars().take(width).collect();
                items.push(ListItem::new(
                    Line::from(header).style(Style::default().fg(Color::Rgb(230, 190, 80)).bold()),
                ));
            }
            if i == self.set {
                selected = Some(items.len());
            }
            let summary = &shelf.summary;
            let mark = if summary.updated.is_empty() { "" } else { "!" };
            let count = format!("{mark}{}/{}", summary.solved, summary.levels);
            let room = width.saturating_sub(count.chars().count() + 2);
            let name = shorten(&shelf.set.name, room);
            let pad = width.saturating_sub(name.chars().count() + count.chars().count() + 1);
            let done = summary.levels > 0 && summary.solved == summary.levels;
            let count_style = if done {
                Style::default().fg(Color::Green)
            } else {
                Style::default().fg(Color::Gray)
            };
            items.push(ListItem::new(Line::from(vec![
                Span::raw(format!(" {name}{}", " ".repeat(pad))),
                Span::styled(count, count_style),
            ])));
        }
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
            .with_selected(selected);
        frame.render_stateful_widget(list, area, &mut state);
        self.sets_offset.set(state.offset());
    }

    fn draw_levels(&self, frame: &mut Frame, area: Rect) {
        let (Some(shelf), Some(visible)) = (self.shelves.get(self.set), self.visible.get(self.set))
        else {
            return;
        };
        let width = area.width.saturating_sub(2) as usize;
        let best = visible
            .iter()
            .filter_map(|&i| shelf.rows[i].best.as_ref())
            .map(|b| b.chars().count() + 1)
            .max()
            .unwrap_or(0);
        // No rating column in a list without ratings (most of your own files).
        let rated = visible.iter().any(|&i| shelf.rows[i].rating.is_rated());
        let form = rated.then(|| RatingForm::fitting(ROW_HEAD + best + 1, width));
        let items: Vec<ListItem> = visible
            .iter()
            .map(|&i| level_item(i, &shelf.rows[i], width, form))
            .collect();
        let empty = items.is_empty();
        // The origin (a path can be long) only where it fits beside the name.
        let set = &shelf.set;
        let origin = set.origin();
        let title = if self.visible_sets.is_empty() {
            " Levels ".to_string()
        } else if set.name.chars().count() + origin.chars().count() + 7 <= width {
            format!(" {} — {origin} ", set.name)
        } else {
            format!(" {} ", shorten(&set.name, width.saturating_sub(2).max(4)))
        };
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .title(title);
        if empty {
            let text = if self.filter.is_active() {
                "No level matches the filter."
            } else {
                "No levels."
            };
            frame.render_widget(
                Paragraph::new(text)
                    .style(Style::default().fg(Color::Gray))
                    .block(block),
                area,
            );
            return;
        }
        let list = List::new(items).block(block).highlight_style(
            Style::default()
                .bg(Color::Rgb(60, 60, 90))
                .add_modifier(Modifier::BOLD),
        );
        let selected = visible.iter().position(|&i| i == self.current());
        let mut state = ListState::default()
            .with_offset(self.levels_offset.get())
            .with_selected(selected);
        frame.render_stateful_widget(list, area, &mut state);
        self.levels_offset.set(state.offset());
    }

    fn draw_preview(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .title(" Preview ");
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let width = inner.width as usize;
        let shelf = self.shelves.get(self.set);
        let row = self.current_row();
        let level = row.and_then(|_| shelf?.set.collection.levels.get(self.current()));

        // Under the board: its size, rating and news, then the credit.
        let mut info: Vec<Line> = Vec::new();
        if let Some(Ok(level)) = level {
            info.push(
                Line::from(crate::session::sokoban::size_text(level))
                    .centered()
                    .style(Style::default().fg(Color::Gray)),
            );
        }
        if let Some(rating) = row.and_then(|r| r.rating.long()) {
            info.extend(
                wrap(&rating, width)
                    .into_iter()
                    .map(|l| Line::from(l).centered()),
            );
        }
        if row.is_some_and(|r| r.standing == Standing::Updated) {
            info.extend(
                wrap(LEVEL_UPDATED, width)
                    .into_iter()
                    .map(|l| Line::from(l).style(Style::default().fg(Color::Yellow))),
            );
        }
        let credit = shelf
            .filter(|_| self.visible_sets.contains(&self.set))
            .map(|s| credit_lines(&s.summary, width))
            .unwrap_or_default();
        // The board keeps a row per board row where it can (it scrolls
        // otherwise); the credit takes what is left, at least three lines.
        let board_rows = match level {
            Some(Ok(level)) => level.height(),
            _ => 1,
        };
        let credit_room = (inner.height as usize)
            .saturating_sub(info.len() + 1 + board_rows)
            .max(3);
        let credit = fit(credit, credit_room);
        let info_height = u16::try_from(info.len()).unwrap_or(u16::MAX);
        let credit_height =
            u16::try_from(credit.len() + usize::from(!credit.is_empty())).unwrap_or(u16::MAX);
        let [board, info_area, credit_area] = Layout::vertical([
            Constraint::Min(1),
            Constraint::Length(info_height),
            Constraint::Length(credit_height),
        ])
        .areas(inner);
        match level {
            Some(Ok(level)) => {
                let game = Game::new(level.clone());
                let mut view = BoardView::new(&game);
                view.ascii = ctx.ascii();
                frame.render_widget(view, board);
            }
            Some(Err(e)) => frame.render_widget(
                Paragraph::new(format!("line {}, column {}:\n{}", e.line, e.column, e.kind)),
                board,
            ),
            None => frame.render_widget(Paragraph::new("No level chosen."), board),
        }
        frame.render_widget(Paragraph::new(info), info_area);
        let credit: Vec<Line> = std::iter::once(Line::raw(""))
            .chain(
                credit
                    .into_iter()
                    .map(|l| Line::from(l).style(Style::default().fg(Color::Gray).italic())),
            )
            .collect();
        frame.render_widget(Paragraph::new(credit), credit_area);
    }

    fn draw_header(&self, frame: &mut Frame, area: Rect) {
        let mut spans = vec![
            Span::styled(" Sokoban ", highlight()),
            Span::raw("  choose a level"),
        ];
        if self.filter.typing || !self.filter.text.is_empty() {
            let cursor = if self.filter.typing { "_" } else { "" };
            spans.push(Span::raw("   find: "));
            spans.push(Span::styled(
                format!("{}{cursor}", self.filter.text),
                Style::default().fg(Color::Yellow).bold(),
            ));
        }
        if self.filter.show != Show::All {
            spans.push(Span::raw("   showing: "));
            spans.push(Span::styled(
                self.filter.show.name(),
                Style::default().fg(Color::Yellow).bold(),
            ));
        }
        frame.render_widget(Paragraph::new(Line::from(spans)), area);
    }

    /// The keys, on two rows where one is too narrow for them.
    fn hints(&self, width: u16) -> Vec<Line<'static>> {
        if self.filter.typing {
            return vec![key_hints(&[
                ("type", "find in titles"),
                ("Enter", "keep"),
                ("Esc", "clear"),
                ("↑↓", "level"),
            ])];
        }
        let moving = [
            ("↑↓", "level"),
            ("←→", "collection"),
            ("/", "find"),
            ("f", "show"),
            ("u", "unsolved"),
        ];
        let doing = [
            ("Enter", "play"),
            ("e", "export"),
            ("N", "new"),
            ("E", "edit"),
            ("Esc", "back"),
        ];
        let all: Vec<(&str, &str)> = moving.iter().chain(&doing).copied().collect();
        let one = key_hints(&all);
        if one.width() <= width as usize {
            vec![one]
        } else {
            vec![key_hints(&moving), key_hints(&doing)]
        }
    }
}

/// The width of a level row's number and mark: `123 ✓ `.
const ROW_HEAD: usize = 6;

/// A level's row: number, mark, title, then its best and rating on the right.
fn level_item(
    i: usize,
    row: &LevelRow,
    width: usize,
    form: Option<RatingForm>,
) -> ListItem<'static> {
    let (mark, style) = match row.standing {
        Standing::Solved => ("✓", Style::default().fg(Color::Green)),
        Standing::Updated => ("!", Style::default().fg(Color::Yellow)),
        Standing::Unsolved => ("·", Style::default()),
        Standing::Broken => ("✗", Style::default().fg(Color::Red)),
    };
    let head = format!("{:>3} {mark} ", i + 1);
    let best = row.best.clone().unwrap_or_default();
    let tail = match form {
        Some(form) => format!("{best} {}", row.rating.cell(form)),
        None => best,
    };
    let room = width.saturating_sub(head.chars().count() + tail.chars().count() + 1);
    let title = shorten(&row.title, room);
    let pad = room.saturating_sub(title.chars().count());
    ListItem::new(Line::from(format!(
        "{head}{title}{} {tail}",
        " ".repeat(pad)
    )))
    .style(style)
}

/// What the preview says of the collection's author and terms.
fn credit_lines(summary: &Summary, width: usize) -> Vec<String> {
    let mut text = String::new();
    if let Some(author) = &summary.author
        && !summary
            .credit
            .as_ref()
            .is_some_and(|c| c.contains(author.as_str()))
    {
        text.push_str(&format!("By {author}.\n"));
    }
    if let Some(credit) = &summary.credit {
        text.push_str(credit);
    }
    wrap(&text, width)
}

/// `lines` cut to `room`, the last one ending in `…` when some are left out.
fn fit(mut lines: Vec<String>, room: usize) -> Vec<String> {
    if lines.len() > room {
        lines.truncate(room);
        if let Some(last) = lines.last_mut() {
            let kept: String = last
                .chars()
                .take(last.chars().count().saturating_sub(1))
                .collect();
            *last = format!("{kept}…");
        }
    }
    lines
}

/// `text` in at most `room` characters, ending in `…` when cut.
fn shorten(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        return text.to_string();
    }
    let kept: String = text.chars().take(room.saturating_sub(1)).collect();
    if room == 0 {
        kept
    } else {
        format!("{kept}…")
    }
}

impl Screen for Browser {
    fn resume(&mut self, ctx: &Ctx) {
        // A level saved in the editor appears at once, and a level solved
        // is marked.
        let (sets, _) = registry(&ctx.data, &self.files);
        self.load(sets, &ctx.progress);
        // Follow the level the player got to with n/p.
        if let Some(i) = ctx.settings.sokoban.last_level
            && let Some(shelf) = self.shelves.get(self.set)
            && ctx.settings.sokoban.last_collection.as_ref() == Some(&shelf.set.name)
        {
            self.chosen[self.set] = i.min(shelf.set.len().saturating_sub(1));
            self.refilter();
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
        if self.filter.typing
            && let Some(action) = self.on_filter_key(key)
        {
            return action;
        }
        match key.code {
            KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('w') => self.move_level(-1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Char('s') => self.move_level(1),
            KeyCode::PageUp => self.move_level(-10),
            KeyCode::PageDown => self.move_level(10),
            KeyCode::Home => self.move_level(isize::MIN / 2),
            KeyCode::End => self.move_level(isize::MAX / 2),
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('a') | KeyCode::BackTab => {
                self.move_set(-1);
            }
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('d') | KeyCode::Tab => {
                self.move_set(1);
            }
            KeyCode::Char('/') => {
                self.filter.typing = true;
            }
            KeyCode::Char('f') => {
                self.filter.show = self.filter.show.next();
                self.refilter();
            }
            KeyCode::Char('u') => self.jump_to_unsolved(ctx),
            KeyCode::Enter | KeyCode::Char(' ') => {
                if self.current_row().is_none() {
                    return Action::None;
                }
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
                    .current_row()
                    .and_then(|_| self.shelves.get(self.set))
                    .and_then(|s| s.set.collection.levels.get(self.current()));
                if let Some(Ok(level)) = level {
                    return Action::Push(Box::new(Editor::from_level(level)));
                }
            }
            // Esc clears a filter first, then leaves.
            KeyCode::Esc if !self.filter.text.is_empty() => {
                self.filter.text.clear();
                self.refilter();
            }
            KeyCode::Esc | KeyCode::Char('q') => return Action::Pop,
            _ => {}
        }
        Action::None
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx) {
        let hints = self.hints(area.width);
        let hint_rows = u16::try_from(hints.len()).unwrap_or(1);
        let [header, body, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(hint_rows),
        ])
        .areas(area);
        self.draw_header(frame, header);
        // Narrow terminals (80 columns) give the level list the room first.
        let (sets_width, preview) = if body.width < 100 { (24, 26) } else { (26, 34) };
        let [sets_area, levels_area, preview_area] = Layout::horizontal([
            Constraint::Length(sets_width),
            Constraint::Min(30),
            Constraint::Percentage(preview),
        ])
        .areas(body);
        self.draw_sets(frame, sets_area);
        self.draw_levels(frame, levels_area);
        self.draw_preview(frame, preview_area, ctx);
        frame.render_widget(Paragraph::new(hints), footer);
    }
}
