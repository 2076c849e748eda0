//! Draws a Sokoban position: walls, floor, goals, boxes (on goal or not) and a
//! player facing the way he last moved; two columns per cell when it fits,
//! one when it doesn't, and a view that follows the player when even that
//! is too large.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;
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

/// A position to draw, with optional marks.
pub struct BoardView<'a> {
    pub game: &'a Game,
    /// Boxes to show as deadlocked.
    pub danger: &'a [usize],
    pub cursor: Option<usize>,
    pub selected: Option<usize>,
    /// A map pack's `skin/terminal.json`: its tiles replace the built-in ones.
    pub skin: Option<&'a TerminalSkin>,
}

impl<'a> BoardView<'a> {
    pub fn new(game: &'a Game) -> BoardView<'a> {
        BoardView {
            game,
            danger: &[],
            cursor: None,
            selected: None,
            skin: None,
        }
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
        let map = game.level().map();
        let kind = map.cell(cell);
        let pick = |one: &'static str, two: &'static str, four: [&'static str; 2]| match width {
            1 => [one, one],
            2 => [two, two],
            _ => four,
        };
        let floor_bg = if kind == Cell::Goal {
            Color::Rgb(70, 60, 20)
        } else {
            FLOOR
        };
        let (text, mut style) = if cell == game.player() {
            let text = match game.facing() {
                Direction::Left => pick("◀", "◀@", ["◀@@ ", "◀@@ "]),
                Direction::Right => pick("▶", "@▶", [" @@▶", " @@▶"]),
                Direction::Up => pick("▲", "@▲", [" ▲▲ ", " @@ "]),
                Direction::Down => pick("▼", "@▼", [" @@ ", " ▼▼ "]),
            };
            (
                text,
                Style::default()
                    .fg(PLAYER)
                    .bg(floor_bg)
                    .add_modifier(Modifier::BOLD),
            )
        } else if game.has_box(cell) {
            let on_goal = kind == Cell::Goal;
            let bg = if self.danger.contains(&cell) {
                DANGER
            } else if on_goal {
                BOX_ON_GOAL
            } else {
                BOX
            };
            let text = pick(if on_goal { "*" } else { "$" }, "[]", ["┌──┐", "└──┘"]);
            (
                text,
                Style::default()
                    .fg(Color::Black)
                    .bg(bg)
                    .add_modifier(Modifier::BOLD),
            )
        } else {
            match kind {
                Cell::Wall => (
                    pick("▓", "▓▓", ["▓▓▓▓", "▓▓▓▓"]),
                    Style::default().fg(WALL).bg(Color::Rgb(60, 60, 78)),
                ),
                Cell::Goal => (
                    pick(".", "<>", [" ┌┐ ", " └┘ "]),
                    Style::default().fg(GOAL).bg(floor_bg),
                ),
                Cell::Floor => (
                    pick(" ", "  ", ["    ", "    "]),
                    Style::default().bg(FLOOR),
                ),
                Cell::Outside => (pick(" ", "  ", ["    ", "    "]), Style::default()),
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
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let level = self.game.level();
        let map = level.map();
        let (cw, ch) = self.cell_size(area);
        let view_w = (area.width / cw) as usize;
        let view_h = (area.height / ch) as usize;
        let focus = self.cursor.unwrap_or(self.game.player());
        let (fx, fy) = map.position(focus);
        let (x0, y0) = (
            Self::scroll(level.width(), view_w, fx),
            Self::scroll(level.height(), view_h, fy),
        );
        let shown_w = level.width().min(view_w) as u16;
        let shown_h = level.height().min(view_h) as u16;
        // Centre the board in the area.
        let left = area.x + (area.width - shown_w * cw) / 2;
        let top = area.y + (area.height - shown_h * ch) / 2;
        for row in 0..shown_h {
            for col in 0..shown_w {
                let cell = map.index(x0 + col as usize, y0 + row as usize);
                let (text, style) = self.skinned(cell, cw).unwrap_or_else(|| {
                    let (text, style) = self.glyph(cell, cw);
                    (text.map(str::to_string), style)
                });
                for (line, part) in text.iter().take(ch as usize).enumerate() {
                    buf.set_string(left + col * cw, top + row * ch + line as u16, part, style);
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
}
