//! Draws a Sokoban position: walls, floor, goals, boxes (on goal or not) and a
//! player facing the way he last moved; two columns per cell when it fits,
//! one when it doesn't, and a view that follows the player when even that
//! is too large. The goal-assignment hint labels each box and its goal
//! with one letter on one colour, and an unmatched box with a red `!`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;
use sokoban::solver::GoalAssignment;
use sokoban::{Cell, Direction, Game};

use crate::session::sokoban::pack::{TerminalSkin, rgb};

const WALL: Color = Color::Rgb(96, 96, 120);
const FLOOR: Color = Color::Rgb(34, 34, 40);
const GOAL: Color = Color::Rgb(235, 200, 70);
const BOX: Color = Color::Rgb(200, 135, 60);
const BOX_ON_GOAL: Color = Color::Rgb(80, 190, 90);
const PLAYER: Color = Color::Rgb(90, 220, 255);
const DANGER: Color = Color::Rgb(210, 50, 50);
const CURSOR: Color = Color::Rgb(200, 80, 200);
const SELECTED: Color = Color::Rgb(60, 110, 230);
/// The colours of box–goal pairs, taken in turn (the letter tells pairs of
/// one colour apart).
const PAIRS: [Color; 6] = [
    Color::Rgb(90, 200, 250),
    Color::Rgb(240, 120, 200),
    Color::Rgb(150, 230, 90),
    Color::Rgb(250, 170, 60),
    Color::Rgb(170, 140, 250),
    Color::Rgb(240, 240, 120),
];
/// The letters of box–goal pairs, in turn.
const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// A position to draw, with optional marks.
pub struct BoardView<'a> {
    pub game: &'a Game,
    /// Boxes to show as deadlocked.
    pub danger: &'a [usize],
    pub cursor: Option<usize>,
    pub selected: Option<usize>,
    /// Plain ASCII (`#`, `@`, `$`, `.`, `*`, `+`) for terminals without
    /// block characters.
    pub ascii: bool,
    /// The goal-assignment hint to label boxes and goals with.
    pub goals: Option<&'a GoalAssignment>,
    /// A map pack's `skin/terminal.json`: its tiles replace the built-in ones.
    pub skin: Option<&'a TerminalSkin>,
}

/// A label drawn over a cell: a pair's letter, or `!` on an unmatched box.
struct Label {
    text: char,
    style: Style,
}

impl<'a> BoardView<'a> {
    pub fn new(game: &'a Game) -> BoardView<'a> {
        BoardView {
            game,
            danger: &[],
            cursor: None,
            selected: None,
            ascii: false,
            goals: None,
            skin: None,
        }
    }

    /// The hint's label on `cell`: the same letter and colour on a box and
    /// the goal it is given (a box on its own goal shows it once).
    fn label(&self, cell: usize) -> Option<Label> {
        let goals = self.goals?;
        let pair_style = |i: usize| {
            Style::default()
                .fg(Color::Black)
                .bg(PAIRS[i % PAIRS.len()])
                .add_modifier(Modifier::BOLD)
        };
        let letter = |i: usize| char::from(LETTERS[i % LETTERS.len()]);
        goals.pairs.iter().enumerate().find_map(|(i, pair)| {
            if pair.box_cell == cell {
                Some(match pair.goal {
                    Some(_) => Label {
                        text: letter(i),
                        style: pair_style(i),
                    },
                    None => Label {
                        text: '!',
                        style: Style::default()
                            .fg(Color::White)
                            .bg(DANGER)
                            .add_modifier(Modifier::BOLD),
                    },
                })
            } else if pair.goal == Some(cell) && !self.game.has_box(cell) {
                Some(Label {
                    text: letter(i),
                    style: pair_style(i),
                })
            } else {
                None
            }
        })
    }

    /// The largest cell size (columns, rows) at which the level fits:
    /// 4x2, 2x1, or 1x1 (then the view scrolls).
    fn cell_size(&self, area: Rect) -> (u16, u16) {
        let level = self.game.level();
        let (w, h) = (level.width(), level.height());
        let (aw, ah) = (area.width as usize, area.height as usize);
        if w * 4 <= aw && h * 2 <= ah {
            (4, 2)
        } else if w * 2 <= aw && h <= ah {
            (2, 1)
        } else {
            (1, 1)
        }
    }

    /// The first column and row to show so that `focus` stays in view.
    fn scroll(level_size: usize, view: usize, focus: usize) -> usize {
        if level_size <= view {
            0
        } else {
            focus.saturating_sub(view / 2).min(level_size - view)
        }
    }

    /// The skin's text rows and style of one cell, if the skin has its tile:
    /// its two characters (the first at width 1, each doubled at width 4).
    fn skinned(&self, cell: usize, width: u16) -> Option<([String; 2], Style)> {
        let skin = self.skin?;
        let game = self.game;
        let kind = game.level().map().cell(cell);
        let on_goal = kind == Cell::Goal;
        let name = if cell == game.player() {
            let facing = match game.facing() {
                Direction::Left => "player-left",
                Direction::Up => "player-up",
                Direction::Right => "player-right",
                Direction::Down => "player-down",
            };
            if on_goal && skin.contains_key("player-on-goal") {
                "player-on-goal"
            } else {
                facing
            }
        } else if game.has_box(cell) {
            if on_goal { "box-on-goal" } else { "box" }
        } else {
            match kind {
                Cell::Wall => "wall",
                Cell::Floor => "floor",
                Cell::Goal => "goal",
                Cell::Outside => return None,
            }
        };
        let tile = skin.get(name)?;
        let chars: Vec<char> = tile.text.chars().collect();
        let (a, b) = (*chars.first()?, *chars.get(1)?);
        let text = match width {
            1 => a.to_string(),
            2 => format!("{a}{b}"),
            _ => format!("{a}{a}{b}{b}"),
        };
        let colour = |c: &Option<String>| {
            c.as_deref()
                .and_then(rgb)
                .map(|[r, g, b]| Color::Rgb(r, g, b))
        };
        let mut style = Style::default();
        if let Some(fg) = colour(&tile.fg) {
            style = style.fg(fg);
        }
        if let Some(bg) = colour(&tile.bg) {
            style = style.bg(bg);
        }
        if self.danger.contains(&cell) {
            style = style.bg(DANGER);
        }
        if self.selected == Some(cell) {
            style = style.bg(SELECTED);
        }
        if self.cursor == Some(cell) {
            style = style.bg(CURSOR).add_modifier(Modifier::UNDERLINED);
        }
        Some(([text.clone(), text], style))
    }

    /// The text rows and style of one cell at the given cell width (1, 2 or 4;
    /// width 4 has two rows).
    fn glyph(&self, cell: usize, width: u16) -> ([&'static str; 2], Style) {
        let game = self.game;
        let kind = game.level().map().cell(cell);
        let on_goal = kind == Cell::Goal;
        let pick = |[one, two, four_top, four_bottom]: [&'static str; 4]| match width {
            1 => [one, one],
            2 => [two, two],
            _ => [four_top, four_bottom],
        };
        let floor_bg = if on_goal {
            Color::Rgb(70, 60, 20)
        } else {
            FLOOR
        };
        let (text, mut style) = if cell == game.player() {
            let text = if self.ascii {
                ascii_player(game.facing(), on_goal)
            } else {
                match game.facing() {
                    Direction::Left => ["◀", "◀@", "◀@@ ", "◀@@ "],
                    Direction::Right => ["▶", "@▶", " @@▶", " @@▶"],
                    Direction::Up => ["▲", "@▲", " ▲▲ ", " @@ "],
                    Direction::Down => ["▼", "@▼", " @@ ", " ▼▼ "],
                }
            };
            (
                pick(text),
                Style::default()
                    .fg(PLAYER)
                    .bg(floor_bg)
                    .add_modifier(Modifier::BOLD),
            )
        } else if game.has_box(cell) {
            let bg = if self.danger.contains(&cell) {
                DANGER
            } else if on_goal {
                BOX_ON_GOAL
            } else {
                BOX
            };
            let text = match (self.ascii, on_goal) {
                (false, false) => ["$", "[]", "┌──┐", "└──┘"],
                (false, true) => ["*", "[]", "┌──┐", "└──┘"],
                (true, false) => ["$", "[]", "[$$]", "[$$]"],
                (true, true) => ["*", "[]", "[**]", "[**]"],
            };
            (
                pick(text),
                Style::default()
                    .fg(Color::Black)
                    .bg(bg)
                    .add_modifier(Modifier::BOLD),
            )
        } else {
            match kind {
                Cell::Wall => (
                    pick(if self.ascii {
                        ["#", "##", "####", "####"]
                    } else {
                        ["▓", "▓▓", "▓▓▓▓", "▓▓▓▓"]
                    }),
                    Style::default().fg(WALL).bg(Color::Rgb(60, 60, 78)),
                ),
                Cell::Goal => (
                    pick(if self.ascii {
                        [".", "<>", " .. ", " .. "]
                    } else {
                        [".", "<>", " ┌┐ ", " └┘ "]
                    }),
                    Style::default().fg(GOAL).bg(floor_bg),
                ),
                Cell::Floor => (
                    pick([" ", "  ", "    ", "    "]),
                    Style::default().bg(FLOOR),
                ),
                Cell::Outside => (pick([" ", "  ", "    ", "    "]), Style::default()),
            }
        };
        if self.selected == Some(cell) {
            style = style.bg(SELECTED);
        }
        if self.cursor == Some(cell) {
            style = style.bg(CURSOR).add_modifier(Modifier::UNDERLINED);
        }
        (text, style)
    }

    /// Where the board's cells fall in `area` (as [`Widget::render`] draws them).
    pub fn placement(&self, area: Rect) -> Placement {
        let level = self.game.level();
        let (cell_w, cell_h) = self.cell_size(area);
        let view_w = (area.width / cell_w) as usize;
        let view_h = (area.height / cell_h) as usize;
        let focus = self.cursor.unwrap_or(self.game.player());
        let (fx, fy) = level.map().position(focus);
        let cols = level.width().min(view_w) as u16;
        let rows = level.height().min(view_h) as u16;
        // Centred in the area.
        Placement {
            left: area.x + (area.width - cols * cell_w) / 2,
            top: area.y + (area.height - rows * cell_h) / 2,
            cell_w,
            cell_h,
            first_col: Self::scroll(level.width(), view_w, fx),
            first_row: Self::scroll(level.height(), view_h, fy),
            cols,
            rows,
        }
    }

    /// The board cell drawn at terminal column `x`, row `y` of `area`, if any.
    pub fn cell_at(&self, area: Rect, x: u16, y: u16) -> Option<usize> {
        let place = self.placement(area);
        let col = x.checked_sub(place.left)? / place.cell_w;
        let row = y.checked_sub(place.top)? / place.cell_h;
        if col >= place.cols || row >= place.rows {
            return None;
        }
        let map = self.game.level().map();
        Some(map.index(
            place.first_col + col as usize,
            place.first_row + row as usize,
        ))
    }
}

/// The player in ASCII (`@`, or `+` on a goal), with the way he faces
/// from width 2 on; the cell widths as in [`BoardView::glyph`].
fn ascii_player(facing: Direction, on_goal: bool) -> [&'static str; 4] {
    match (facing, on_goal) {
        (Direction::Left, false) => ["@", "<@", "<@@ ", "<@@ "],
        (Direction::Right, false) => ["@", "@>", " @@>", " @@>"],
        (Direction::Up, false) => ["@", "@^", " ^^ ", " @@ "],
        (Direction::Down, false) => ["@", "@v", " @@ ", " vv "],
        (Direction::Left, true) => ["+", "<+", "<++ ", "<++ "],
        (Direction::Right, true) => ["+", "+>", " ++>", " ++>"],
        (Direction::Up, true) => ["+", "+^", " ^^ ", " ++ "],
        (Direction::Down, true) => ["+", "+v", " ++ ", " vv "],
    }
}

/// Where a board's cells fall on the screen: one computation for drawing
/// and for finding the cell under a click, so that the two cannot drift.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The terminal column and row of the first cell shown.
    left: u16,
    top: u16,
    /// Terminal columns and rows per board cell.
    cell_w: u16,
    cell_h: u16,
    /// The first board column and row shown (the view follows the focus).
    first_col: usize,
    first_row: usize,
    /// How many board columns and rows are shown.
    cols: u16,
    rows: u16,
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let map = self.game.level().map();
        let place = self.placement(area);
        for row in 0..place.rows {
            for col in 0..place.cols {
                let cell = map.index(
                    place.first_col + col as usize,
                    place.first_row + row as usize,
                );
                let skinned = if self.ascii {
                    None
                } else {
                    self.skinned(cell, place.cell_w)
                };
                let (text, style) = skinned.unwrap_or_else(|| {
                    let (text, style) = self.glyph(cell, place.cell_w);
                    (text.map(str::to_string), style)
                });
                let (x, y) = (
                    place.left + col * place.cell_w,
                    place.top + row * place.cell_h,
                );
                for (line, part) in text.iter().take(place.cell_h as usize).enumerate() {
                    buf.set_string(x, y + line as u16, part, style);
                }
                // The label inside the cell: its one column, or the second.
                if let Some(label) = self.label(cell) {
                    let at = x + place.cell_w.min(2) - 1;
                    buf.set_string(at, y, label.text.to_string(), label.style);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminal_skin_draws_its_tiles() {
        use crate::session::sokoban::pack::TerminalTile;
        let level =
            sokoban::Level::from_xsb("#####\n#@$.#\n#####").unwrap_or_else(|e| panic!("{e}"));
        let game = Game::new(level);
        let mut skin = TerminalSkin::new();
        let tile = TerminalTile {
            text: "%%".into(),
            fg: Some("#ff00ff".into()),
            bg: None,
        };
        skin.insert("wall".into(), tile);
        let mut view = BoardView::new(&game);
        view.skin = Some(&skin);
        let area = Rect::new(0, 0, 10, 3);
        let mut buf = Buffer::empty(area);
        view.render(area, &mut buf);
        assert_eq!(buf[(0, 0)].symbol(), "%");
        assert_eq!(buf[(0, 0)].fg, Color::Rgb(255, 0, 255));
        // Tiles the skin lacks keep the built-in look.
        assert_eq!(buf[(4, 1)].symbol(), "[");
    }

    #[test]
    fn scroll_keeps_focus_in_view() {
        assert_eq!(BoardView::scroll(10, 20, 5), 0);
        assert_eq!(BoardView::scroll(100, 20, 5), 0);
        assert_eq!(BoardView::scroll(100, 20, 50), 40);
        assert_eq!(BoardView::scroll(100, 20, 99), 80);
    }

    fn game(text: &str) -> Game {
        Game::new(sokoban::Level::from_xsb(text).unwrap())
    }

    #[test]
    fn a_click_finds_the_cell_drawn_under_it() {
        // 7x3 in 40x10: 4x2 cells, the board from column 6, row 3.
        let game = game("#######\n#@ $ .#\n#######");
        let view = BoardView::new(&game);
        let area = Rect::new(0, 1, 40, 10);
        let mut buf = Buffer::empty(Rect::new(0, 0, 40, 12));
        BoardView::new(&game).render(area, &mut buf);
        let map = game.level().map();
        for y in 0..12 {
            for x in 0..40 {
                let Some(cell) = view.cell_at(area, x, y) else {
                    assert_eq!(buf[(x, y)].symbol(), " ", "nothing drawn at {x},{y}");
                    continue;
                };
                // Every terminal cell of a board cell maps back to it.
                let (col, row) = map.position(cell);
                assert_eq!((x - 6) / 4, col as u16);
                assert_eq!((y - 3) / 2, row as u16);
            }
        }
        assert_eq!(
            view.cell_at(area, 6 + 4 + 3, 3 + 2 + 1),
            Some(map.index(1, 1))
        );
        assert_eq!(view.cell_at(area, 5, 4), None);
        assert_eq!(view.cell_at(area, 6, 2), None);
        assert_eq!(view.cell_at(area, 34, 4), None);
    }

    #[test]
    fn the_ascii_look_draws_only_ascii() {
        let game = game("#######\n#@$ *.#\n#######");
        for width in [7, 14, 28] {
            let area = Rect::new(0, 0, width, 6);
            let mut buf = Buffer::empty(area);
            let mut view = BoardView::new(&game);
            view.ascii = true;
            view.render(area, &mut buf);
            let text: String = buf.content().iter().map(|c| c.symbol()).collect();
            assert!(text.is_ascii(), "{text}");
            assert!(text.contains('#') && text.contains('@'), "{text}");
            if width == 7 {
                assert!(text.contains("#@$ *.#"), "{text}");
            }
        }
    }
}
