//! A bitboard of the matrix (one `u16` per row, bit x = column x) and piece masks, for the
//! bot's fast move generation and evaluation.

use crate::matrix::{HEIGHT, Matrix, WIDTH};
use crate::piece::{PieceKind, Rotation};

pub const FULL_ROW: u16 = (1 << WIDTH) - 1;
const ROWS: usize = HEIGHT as usize;

/// Rows of a piece in one rotation state, as masks relative to its box.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Row masks for box rows 0..4 (bit dx set when the piece has a cell at (dx, dy)).
    pub rows: [u16; 4],
    pub min_dx: i8,
    pub max_dx: i8,
    pub min_dy: i8,
    pub max_dy: i8,
}

impl Shape {
    fn new(kind: PieceKind, rotation: Rotation) -> Shape {
        let cells = kind.cells(rotation);
        let mut rows = [0u16; 4];
        for &(dx, dy) in &cells {
            rows[dy as usize] |= 1 << dx;
        }
        Shape {
            rows,
            min_dx: cells.iter().map(|c| c.0).min().unwrap_or(0),
            max_dx: cells.iter().map(|c| c.0).max().unwrap_or(0),
            min_dy: cells.iter().map(|c| c.1).min().unwrap_or(0),
            max_dy: cells.iter().map(|c| c.1).max().unwrap_or(0),
        }
    }
}

/// All 28 shapes, indexed `[kind][rotation]`.
pub struct Shapes([[Shape; 4]; 7]);

impl Shapes {
    pub fn new() -> Shapes {
        Shapes(PieceKind::ALL.map(|kind| Rotation::ALL.map(|rotation| Shape::new(kind, rotation))))
    }

    pub fn get(&self, kind: PieceKind, rotation: Rotation) -> &Shape {
        &self.0[kind.index()][rotation.index()]
    }
}

impl Default for Shapes {
    fn default() -> Self {
        Shapes::new()
    }
}

/// The matrix as bit rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitBoard {
    pub rows: [u16; ROWS],
}

impl BitBoard {
    pub fn from_matrix(matrix: &Matrix) -> BitBoard {
        BitBoard {
            rows: matrix.bit_rows(),
        }
    }

    /// Whether the shape at box position (x, y) overlaps walls, floor or blocks.
    #[inline]
    pub fn collides(&self, shape: &Shape, x: i8, y: i8) -> bool {
        if x + shape.min_dx < 0 || x + shape.max_dx >= WIDTH || y + shape.min_dy < 0 {
            return true;
        }
        for dy in shape.min_dy..=shape.max_dy {
            let row = (y + dy) as usize;
            if row >= ROWS {
                return true;
            }
            let mask = if x >= 0 {
                shape.rows[dy as usize] << x
            } else {
                shape.rows[dy as usize] >> -x
            };
            if self.rows[row] & mask != 0 {
                return true;
            }
        }
        false
    }

    pub fn is_blocked(&self, x: i8, y: i8) -> bool {
        if !(0..WIDTH).contains(&x) || y < 0 {
            return true;
        }
        (y as usize) < ROWS && self.rows[y as usize] & (1 << x) != 0
    }

    /// Lowest y the shape falls to from (x, y).
    #[inline]
    pub fn drop_y(&self, shape: &Shape, x: i8, mut y: i8) -> i8 {
        while !self.collides(shape, x, y - 1) {
            y -= 1;
        }
        y
    }

    /// Places the shape, clears full rows, and returns (lines cleared, piece cells cleared).
    pub fn place(&mut self, shape: &Shape, x: i8, y: i8) -> (u32, u32) {
        for dy in shape.min_dy..=shape.max_dy {
            let row = (y + dy) as usize;
            if row < ROWS {
                let mask = if x >= 0 {
                    shape.rows[dy as usize] << x
                } else {
                    shape.rows[dy as usize] >> -x
                };
                self.rows[row] |= mask;
            }
        }
        let mut lines = 0;
        let mut eroded = 0;
        let mut write = 0;
        for read in 0..ROWS {
            let row = self.rows[read];
            if row == FULL_ROW {
                lines += 1;
                let dy = read as i8 - y;
                if (0..4).contains(&dy) {
                    eroded += shape.rows[dy as usize].count_ones();
                }
            } else {
                self.rows[write] = row;
                write += 1;
            }
        }
        for row in &mut self.rows[write..] {
            *row = 0;
        }
        (lines, eroded)
    }

    /// One more than the highest filled row.
    pub fn height(&self) -> usize {
        self.rows.iter().rposition(|&r| r != 0).map_or(0, |y| y + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::ActivePiece;

    #[test]
    fn collision_agrees_with_the_matrix() {
        let matrix = Matrix::from_text_rows(&["X...X....X", "XX.XXX..XX", ".XXXX.XXXX"]).unwrap();
        let board = BitBoard::from_matrix(&matrix);
        let shapes = Shapes::new();
        for kind in PieceKind::ALL {
            for rotation in Rotation::ALL {
                for x in -3..11 {
                    for y in -3..6 {
                        let piece = ActivePiece {
                            kind,
                            rotation,
                            x,
                            y,
                        };
                        assert_eq!(
                            board.collides(shapes.get(kind, rotation), x, y),
                            !matrix.fits(&piece),
                            "{kind:?} {rotation:?} {x} {y}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn placing_clears_lines_and_counts_eroded_cells() {
        let matrix = Matrix::from_text_rows(&["XXXXXXXXX.", "XXXXXXXXX."]).unwrap();
        let mut board = BitBoard::from_matrix(&matrix);
        let shapes = Shapes::new();
        let shape = shapes.get(PieceKind::I, Rotation::Right);
        let y = board.drop_y(shape, 7, 10);
        assert_eq!(y, 0);
        assert_eq!(board.place(shape, 7, y), (2, 2));
        assert_eq!(board.rows[0], 1 << 9);
        assert_eq!(board.height(), 2);
    }
}
