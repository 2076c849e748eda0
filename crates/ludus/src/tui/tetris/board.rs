//! Drawing the matrix and single pieces: two terminal columns per cell, the Guideline
//! colours, the ghost and the hint outline.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use tetris::matrix::{VISIBLE_HEIGHT, WIDTH};
use tetris::{ActivePiece, Block, Colour, Game, PieceKind, Rotation};

/// Terminal columns per matrix cell (cells look square that way).
pub const CELL_WIDTH: u16 = 2;
/// Width of the matrix in terminal columns.
pub const MATRIX_WIDTH: u16 = WIDTH as u16 * CELL_WIDTH;

/// The Guideline colour of a piece, from the 256-colour palette (the 16 named colours vary
/// too much between terminal themes, and there is no orange among them).
pub fn colour(colour: Colour) -> Color {
    match colour {
        Colour::Cyan => Color::Indexed(51),
        Colour::Yellow => Color::Indexed(226),
        Colour::Purple => Color::Indexed(129),
        Colour::Green => Color::Indexed(46),
        Colour::Red => Color::Indexed(196),
        Colour::Blue => Color::Indexed(27),
        Colour::Orange => Color::Indexed(208),
    }
}

fn block_style(block: Block) -> Style {
    match block {
        Block::Piece(kind) => Style::default().fg(colour(kind.colour())),
        Block::Garbage => Style::default().fg(Color::Gray),
    }
}

const SOLID: &str = "██";
const GHOST: &str = "░░";
const OUTLINE: &str = "[]";
const EMPTY: &str = " ·";

fn put(buf: &mut Buffer, area: Rect, col: u16, row: u16, symbol: &str, style: Style) {
    let x = area.x + col * CELL_WIDTH;
    if col * CELL_WIDTH + 1 >= area.width || row >= area.height {
        return;
    }
    buf.set_string(x, area.y + row, symbol, style);
}

/// What to draw over the stack.
pub struct MatrixView<'a> {
    pub game: &'a Game,
    pub ghost: bool,
    /// Where the bot would put the piece (hint or demo), drawn as an outline.
    pub target: Option<ActivePiece>,
    /// Rows above the visible field to show (where pieces spawn), 0–2.
    pub spawn_rows: u16,
    /// Hide the stack (while paused).
    pub hidden: bool,
}

impl MatrixView<'_> {
    /// Draws into `area`, which must be [`MATRIX_WIDTH`] wide and
    /// `VISIBLE_HEIGHT + spawn_rows` high (smaller areas are clipped).
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        let rows = VISIBLE_HEIGHT as u16 + self.spawn_rows;
        // Matrix row y is drawn at screen row `rows - 1 - y`.
        let screen_row = |y: i8| -> Option<u16> {
            let y = u16::try_from(y).ok()?;
            (y < rows).then(|| rows - 1 - y)
        };
        let dim = Style::default().fg(Color::DarkGray);
        for y in 0..rows as i8 {
            let Some(row) = screen_row(y) else { continue };
            for x in 0..WIDTH {
                let col = x as u16;
                match self.game.matrix().cell(x, y) {
                    Some(block) if !self.hidden => {
                        put(buf, area, col, row, SOLID, block_style(block))
                    }
                    _ if y < VISIBLE_HEIGHT => put(buf, area, col, row, EMPTY, dim),
                    _ => {}
                }
            }
        }
        if self.hidden {
            return;
        }
        let mut draw_piece = |piece: &ActivePiece, symbol: &str, style: Style| {
            for (x, y) in piece.cells() {
                if let (Some(row), Ok(col)) = (screen_row(y), u16::try_from(x)) {
                    put(buf, area, col, row, symbol, style);
                }
            }
        };
        let active = self.game.active();
        if self.ghost
            && let (Some(ghost), Some(piece)) = (self.game.ghost(), active)
            && ghost != *piece
        {
            let style = Style::default().fg(colour(ghost.kind.colour()));
            draw_piece(&ghost, GHOST, style);
        }
        if let Some(target) = &self.target {
            let style = Style::default()
                .fg(Color::White)
                .add_modifier(Modifier::BOLD);
            draw_piece(target, OUTLINE, style);
        }
        if let Some(piece) = active {
            let style = Style::default().fg(colour(piece.kind.colour()));
            draw_piece(piece, SOLID, style);
        }
    }
}

/// Draws a piece in its spawn orientation, centred in an area 4 cells wide and 2 high.
pub fn render_piece(kind: PieceKind, area: Rect, buf: &mut Buffer, style: Option<Style>) {
    let cells = kind.cells(Rotation::Spawn);
    let (Some(min_x), Some(max_x), Some(min_y), Some(max_y)) = (
        cells.iter().map(|c| c.0).min(),
        cells.iter().map(|c| c.0).max(),
        cells.iter().map(|c| c.1).min(),
        cells.iter().map(|c| c.1).max(),
    ) else {
        return;
    };
    let width = (max_x - min_x + 1) as u16;
    let height = (max_y - min_y + 1) as u16;
    let left = (4 - width.min(4)) * CELL_WIDTH / 2;
    let top = 2u16.saturating_sub(height) / 2;
    let style = style.unwrap_or_else(|| Style::default().fg(colour(kind.colour())));
    for (x, y) in cells {
        let col = (x - min_x) as u16;
        let row = top + (max_y - y) as u16;
        let cx = area.x + left + col * CELL_WIDTH;
        if cx + 1 < area.x + area.width && row < area.height {
            buf.set_string(cx, area.y + row, SOLID, style);
        }
    }
}
