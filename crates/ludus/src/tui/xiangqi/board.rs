//! Drawing the board: nine files by ten ranks of intersections with the river
//! and the palaces, pieces as Chinese characters.
//!
//! The characters are two columns wide, so every file takes four columns: the
//! piece (or the two-column intersection `┼─`) and a two-column line `──` to the
//! next file. Between two ranks a line carries the verticals and the palace
//! diagonals; between ranks 4 and 5 runs the river.

use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use xiangqi::{Color, Move, Position, Square};

use crate::session::xiangqi::flow::Characters;

/// Width of the drawn board, rank labels included.
pub const WIDTH: u16 = 36;
/// Height of the drawn board, file labels included.
pub const HEIGHT: u16 = 22;

/// What to highlight.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    pub cursor: Option<Square>,
    pub selected: Option<Square>,
    pub targets: Vec<Square>,
    pub last: Option<Move>,
    pub hint: Option<Move>,
}

const WOOD: Tint = Tint::Rgb(222, 184, 135);
const INK: Tint = Tint::Rgb(70, 45, 20);
const DISC: Tint = Tint::Rgb(250, 235, 205);
const RED: Tint = Tint::Rgb(190, 0, 0);
const BLACK: Tint = Tint::Rgb(20, 20, 20);

/// The square at screen column `col` (0..9) and row `row` (0..10, top first).
pub fn square_at(col: u8, row: u8, flipped: bool) -> Option<Square> {
    let (file, rank) = if flipped {
        (8u8.checked_sub(col)?, row)
    } else {
        (col, 9u8.checked_sub(row)?)
    };
    Square::new(file, rank)
}

/// Screen column and row of a square.
pub fn screen_of(sq: Square, flipped: bool) -> (u8, u8) {
    if flipped {
        (8 - sq.file(), sq.rank())
    } else {
        (sq.file(), 9 - sq.rank())
    }
}

const RED_NUMERALS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// File labels as the side on that edge counts them (from its own right).
fn file_labels(color: Color, flipped: bool) -> Line<'static> {
    let mut text = String::from("  ");
    for col in 0..9u8 {
        let file = if flipped { 8 - col } else { col };
        let label = match color {
            Color::Red => RED_NUMERALS[(8 - file) as usize].to_string(),
            Color::Black => format!("{:<2}", file + 1),
        };
        text.push_str(&label);
        if col < 8 {
            text.push_str("  ");
        }
    }
    Line::styled(text, Style::default().fg(Tint::Gray))
}

fn letters(flipped: bool) -> Line<'static> {
    let mut text = String::from("  ");
    for col in 0..9u8 {
        let file = if flipped { 8 - col } else { col };
        text.push((b'a' + file) as char);
        if col < 8 {
            text.push_str("   ");
        }
    }
    Line::styled(text, Style::default().fg(Tint::DarkGray))
}

/// The board as lines of styled text, [`WIDTH`] x [`HEIGHT`].
pub fn lines(
    pos: &Position,
    marks: &Marks,
    flipped: bool,
    chars: Characters,
) -> Vec<Line<'static>> {
    let line_style = Style::default().fg(INK).bg(WOOD);
    let (top, bottom) = if flipped {
        (Color::Red, Color::Black)
    } else {
        (Color::Black, Color::Red)
    };
    let mut out = vec![file_labels(top, flipped)];
    for row in 0..10u8 {
        let rank = if flipped { row } else { 9 - row };
        let mut spans = vec![Span::styled(
            format!("{rank} "),
            Style::default().fg(Tint::DarkGray),
        )];
        for col in 0..9u8 {
            let Some(sq) = square_at(col, row, flipped) else {
                continue;
            };
            spans.push(point(pos, sq, col, row, marks, chars));
            if col < 8 {
                spans.push(Span::styled("──", line_style));
            }
        }
        out.push(Line::from(spans));
        if row < 9 {
            out.push(between(row, line_style));
        }
    }
    out.push(file_labels(bottom, flipped));
    out.push(letters(flipped));
    out
}

/// One intersection (two columns): a piece or the drawn crossing, highlighted.
fn point(
    pos: &Position,
    sq: Square,
    col: u8,
    row: u8,
    marks: &Marks,
    chars: Characters,
) -> Span<'static> {
    let piece = pos.piece_at(sq);
    let is_target = marks.targets.contains(&sq);
    let in_move = |m: Option<Move>| m.is_some_and(|m| m.from == sq || m.to == sq);
    let mut style = Style::default().fg(INK).bg(WOOD);
    let text = match piece {
        Some(p) => {
            let fg = if p.color == Color::Red { RED } else { BLACK };
            style = style.fg(fg).bg(DISC).add_modifier(Modifier::BOLD);
            chars.piece(p).to_string()
        }
        None if is_target => {
            style = style.fg(Tint::Rgb(0, 110, 0)).add_modifier(Modifier::BOLD);
            let tail = if col < 8 { '─' } else { ' ' };
            format!("•{tail}")
        }
        None => {
            let cross = crossing(col, row);
            let tail = if col < 8 { '─' } else { ' ' };
            format!("{cross}{tail}")
        }
    };
    if in_move(marks.last) {
        style = style.bg(Tint::Rgb(250, 225, 110));
    }
    if in_move(marks.hint) {
        style = style.bg(Tint::Rgb(140, 210, 230));
    }
    if is_target && piece.is_some() {
        style = style.bg(Tint::Rgb(240, 130, 110));
    }
    if marks.selected == Some(sq) {
        style = style.bg(Tint::Rgb(130, 210, 130));
    }
    if marks.cursor == Some(sq) {
        style = style
            .bg(Tint::Rgb(90, 140, 235))
            .add_modifier(Modifier::UNDERLINED);
    }
    Span::styled(text, style)
}

/// The box-drawing crossing for an empty point: edges, corners and the river banks.
fn crossing(col: u8, row: u8) -> char {
    let top = row == 0 || row == 5;
    let bottom = row == 9 || row == 4;
    match (col, top, bottom) {
        (0, true, _) if row == 0 => '┌',
        (8, true, _) if row == 0 => '┐',
        (0, _, true) if row == 9 => '└',
        (8, _, true) if row == 9 => '┘',
        (0, _, _) => '├',
        (8, _, _) => '┤',
        (_, true, _) => '┬',
        (_, _, true) => '┴',
        _ => '┼',
    }
}

/// The line between screen rows `row` and `row + 1`: verticals, palace
/// diagonals, or the river.
fn between(row: u8, style: Style) -> Line<'static> {
    let margin = Span::raw("  ");
    if row == 4 {
        // 31 columns between the two banks' outer verticals.
        let text = format!("│  楚 河{}漢 界  │ ", " ".repeat(17));
        return Line::from(vec![margin, Span::styled(text, style)]);
    }
    let diagonals = match row {
        0 | 7 => Some(('╲', '╱')),
        1 | 8 => Some(('╱', '╲')),
        _ => None,
    };
    let mut text = String::new();
    for col in 0..9u8 {
        text.push('│');
        if col == 8 {
            text.push(' ');
            break;
        }
        match (diagonals, col) {
            (Some((a, _)), 3) => text.push_str(&format!(" {a} ")),
            (Some((_, b)), 4) => text.push_str(&format!(" {b} ")),
            _ => text.push_str("   "),
        }
    }
    Line::from(vec![margin, Span::styled(text, style)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_screen_agree() {
        for flipped in [false, true] {
            for sq in Square::all() {
                let (c, r) = screen_of(sq, flipped);
                assert_eq!(square_at(c, r, flipped), Some(sq));
            }
        }
        assert_eq!(square_at(0, 0, false).unwrap().to_string(), "a9");
        assert_eq!(square_at(0, 0, true).unwrap().to_string(), "i0");
        assert_eq!(square_at(9, 0, false), None);
    }

    #[test]
    fn every_line_has_the_board_width() {
        let lines = lines(
            &Position::startpos(),
            &Marks::default(),
            false,
            Characters::Traditional,
        );
        assert_eq!(lines.len(), HEIGHT as usize);
        for l in &lines[1..lines.len() - 2] {
            assert_eq!(l.width(), WIDTH as usize, "{l:?}");
        }
    }
}
