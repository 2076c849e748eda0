//! The playfield: 10 columns, 40 rows of which the lower 20 are visible.

use serde::{Deserialize, Serialize};

use crate::piece::{ActivePiece, PieceKind};

pub const WIDTH: i8 = 10;
pub const HEIGHT: i8 = 40;
pub const VISIBLE_HEIGHT: i8 = 20;

/// What fills a cell of the matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Block {
    /// Left by a locked piece (drawn in that piece's colour).
    Piece(PieceKind),
    /// Set up from outside (puzzles, scripts); drawn grey.
    Garbage,
}

impl Block {
    /// The piece colour, `None` for garbage (drawn grey).
    pub fn colour(self) -> Option<crate::piece::Colour> {
        match self {
            Block::Piece(kind) => Some(kind.colour()),
            Block::Garbage => None,
        }
    }

    /// `X` for garbage, otherwise the piece letter.
    pub fn letter(self) -> char {
        match self {
            Block::Piece(kind) => kind.letter(),
            Block::Garbage => 'X',
        }
    }
}

/// One row of cells, left to right.
pub type Row = [Option<Block>; WIDTH as usize];

/// Locked cells. Row 0 is the bottom.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matrix {
    rows: Vec<Row>,
}

impl Default for Matrix {
    fn default() -> Self {
        Matrix::new()
    }
}

impl Matrix {
    pub fn new() -> Matrix {
        Matrix {
            rows: vec![[None; WIDTH as usize]; HEIGHT as usize],
        }
    }

    /// The cell at (x, y), `None` when empty or outside the matrix.
    pub fn cell(&self, x: i8, y: i8) -> Option<Block> {
        if !(0..WIDTH).contains(&x) || !(0..HEIGHT).contains(&y) {
            return None;
        }
        self.rows[y as usize][x as usize]
    }

    /// Walls and floor count as occupied; the space above the top does not.
    pub fn is_blocked(&self, x: i8, y: i8) -> bool {
        if !(0..WIDTH).contains(&x) || y < 0 {
            return true;
        }
        y < HEIGHT && self.rows[y as usize][x as usize].is_some()
    }

    pub fn set(&mut self, x: i8, y: i8, value: Option<Block>) {
        if (0..WIDTH).contains(&x) && (0..HEIGHT).contains(&y) {
            self.rows[y as usize][x as usize] = value;
        }
    }

    pub fn fits(&self, piece: &ActivePiece) -> bool {
        piece
            .cells()
            .iter()
            .all(|&(x, y)| !self.is_blocked(x, y) && y < HEIGHT)
    }

    /// Writes the piece's cells into the matrix.
    pub fn lock(&mut self, piece: &ActivePiece) {
        for (x, y) in piece.cells() {
            self.set(x, y, Some(Block::Piece(piece.kind)));
        }
    }

    /// Removes full rows, shifting everything above down; returns how many were removed.
    pub fn clear_full_rows(&mut self) -> u32 {
        let before = self.rows.len();
        self.rows.retain(|row| row.iter().any(Option::is_none));
        let cleared = before - self.rows.len();
        self.rows.resize(HEIGHT as usize, [None; WIDTH as usize]);
        cleared as u32
    }

    /// Pushes the stack up by one garbage row per entry of `holes` (the bottom row last),
    /// each row full but for the hole at that column (a column past the right wall leaves
    /// the row full). Returns true when blocks were pushed out above the top of the
    /// matrix: a top out in the Guideline.
    ///
    /// ```
    /// use tetris::{Block, Matrix};
    /// let mut matrix = Matrix::from_text_rows(&["T........."]).unwrap();
    /// assert!(!matrix.rise(&[3, 0]));
    /// assert_eq!(matrix.text_rows(3), vec!["T.........", "XXX.XXXXXX", ".XXXXXXXXX"]);
    /// ```
    pub fn rise(&mut self, holes: &[u8]) -> bool {
        let count = holes.len().min(HEIGHT as usize);
        let kept = HEIGHT as usize - count;
        let overflow = self.rows[kept..]
            .iter()
            .any(|row| row.iter().any(Option::is_some))
            || holes.len() > HEIGHT as usize;
        self.rows.truncate(kept);
        let garbage = holes.iter().rev().take(count).map(|&hole| {
            let mut row = [Some(Block::Garbage); WIDTH as usize];
            if let Some(cell) = row.get_mut(usize::from(hole)) {
                *cell = None;
            }
            row
        });
        let mut rows: Vec<Row> = garbage.collect();
        rows.append(&mut self.rows);
        self.rows = rows;
        overflow
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|row| row.iter().all(Option::is_none))
    }

    pub fn row(&self, y: i8) -> Option<&Row> {
        usize::try_from(y).ok().and_then(|y| self.rows.get(y))
    }

    /// The matrix as bit rows (bit x set when column x is filled), for fast evaluation.
    pub fn bit_rows(&self) -> [u16; HEIGHT as usize] {
        let mut bits = [0u16; HEIGHT as usize];
        for (y, row) in self.rows.iter().enumerate() {
            for (x, cell) in row.iter().enumerate() {
                if cell.is_some() {
                    bits[y] |= 1 << x;
                }
            }
        }
        bits
    }

    /// Builds a matrix from text rows, top row first, the last line being the bottom row.
    /// `.`, `_` or space is empty; a piece letter fills the cell with that piece; any other
    /// character (e.g. `#` or `X`) is garbage.
    pub fn from_text_rows<S: AsRef<str>>(rows: &[S]) -> Result<Matrix, MatrixTextError> {
        let mut matrix = Matrix::new();
        if rows.len() > HEIGHT as usize {
            return Err(MatrixTextError::TooManyRows(rows.len()));
        }
        for (index, text) in rows.iter().enumerate() {
            let text = text.as_ref();
            let y = (rows.len() - 1 - index) as i8;
            let width = text.chars().count();
            if width != WIDTH as usize {
                return Err(MatrixTextError::WrongWidth { row: index, width });
            }
            for (x, ch) in text.chars().enumerate() {
                let value = match ch {
                    '.' | ' ' | '_' => None,
                    other => {
                        Some(PieceKind::from_letter(other).map_or(Block::Garbage, Block::Piece))
                    }
                };
                matrix.set(x as i8, y, value);
            }
        }
        Ok(matrix)
    }

    /// Rows as text, top first, from `top` (exclusive) down to the bottom.
    pub fn text_rows(&self, top: i8) -> Vec<String> {
        (0..top.clamp(0, HEIGHT))
            .rev()
            .map(|y| {
                self.rows[y as usize]
                    .iter()
                    .map(|cell| cell.map_or('.', Block::letter))
                    .collect()
            })
            .collect()
    }

    /// One more than the highest row holding a block (0 when empty).
    pub fn stack_height(&self) -> i8 {
        self.rows
            .iter()
            .rposition(|row| row.iter().any(Option::is_some))
            .map_or(0, |y| y as i8 + 1)
    }
}

/// Why a text picture of a matrix was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatrixTextError {
    WrongWidth { row: usize, width: usize },
    TooManyRows(usize),
}

impl std::fmt::Display for MatrixTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatrixTextError::WrongWidth { row, width } => {
                write!(f, "board row {} has {width} cells, expected 10", row + 1)
            }
            MatrixTextError::TooManyRows(n) => write!(f, "board has {n} rows, at most 40 allowed"),
        }
    }
}

impl std::error::Error for MatrixTextError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clears_full_rows_and_shifts_down() {
        let mut m = Matrix::from_text_rows(&["T.........", "IIIIIIIIII", "OO.OOOOOOO"]).unwrap();
        assert_eq!(m.clear_full_rows(), 1);
        assert_eq!(m.text_rows(2), vec!["T.........", "OO.OOOOOOO"]);
        assert_eq!(m.stack_height(), 2);
    }

    #[test]
    fn walls_and_floor_block_but_the_sky_does_not() {
        let m = Matrix::new();
        assert!(m.is_blocked(-1, 0));
        assert!(m.is_blocked(10, 0));
        assert!(m.is_blocked(0, -1));
        assert!(!m.is_blocked(0, 45));
    }

    #[test]
    fn garbage_and_piece_cells_from_text() {
        let m = Matrix::from_text_rows(&["X#T......."]).unwrap();
        assert_eq!(m.cell(0, 0), Some(Block::Garbage));
        assert_eq!(m.cell(1, 0), Some(Block::Garbage));
        assert_eq!(m.cell(2, 0), Some(Block::Piece(PieceKind::T)));
        assert_eq!(
            m.cell(2, 0).and_then(Block::colour),
            Some(crate::Colour::Purple)
        );
        assert_eq!(m.cell(3, 0), None);
        assert_eq!(m.text_rows(1), vec!["XXT......."]);
    }

    #[test]
    fn bad_width_is_reported() {
        assert_eq!(
            Matrix::from_text_rows(&["...."]),
            Err(MatrixTextError::WrongWidth { row: 0, width: 4 })
        );
    }
}
